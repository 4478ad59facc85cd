//! The whole job in one call: from an unrigged character to a verified, game-ready rig.
//!
//! [`rig`] runs the stages in order, each on plain data:
//!
//! 1. **model check and fix** ([`crate::fit::model_check`], [`crate::fit::fix_model`]):
//!    floor, centring, facing, applied to all parts together;
//! 2. **fit** ([`crate::fit::fit`]): landmarks from cross-sections, the template's
//!    skeleton, placement checks;
//! 3. **weights** ([`crate::bind::bind`]): bone heat with verification and the
//!    volumetric fallback; garments by transfer, rigid parts to one bone, cleanup;
//! 4. **chains** ([`crate::parts::build_chains`]): radial skirt chains and hair chains
//!    for loose garments and hair parts, whose weights replace the binder's (a skirt is
//!    never skinned to a leg);
//! 5. **sidecar** ([`crate::parts::Sidecar`]): chains, measured colliders, springs, the
//!    VRM humanoid map, the twist rules ([`crate::deform::twist`]) and the
//!    preserve-volume mask ([`crate::deform::dqs_mask`]);
//! 6. **review** ([`crate::review::check`]): the rubric check in the default pose library.
//!
//! [`RigOutput`] holds everything a user writes: the rigged character
//! ([`crate::io::write_character`]), its sidecar ([`crate::parts::Sidecar::to_string`]),
//! the review and the report's rows ([`RigOutput::report_json`], [`RigOutput::changes`]).
//! The caller only writes them.
//!
//! What happens to a character that is already rigged is [`RigOptions::rigged`]: it is
//! refused by default ([`Error::AlreadyRigged`]), rigged again, or kept as it is (what
//! the VRM exporter and the spring simulation want: [`RigOptions::vrm`]).
//! Every stage's wall time is kept in [`RigOutput::timings`].
//!
//! ```
//! use rigsmith::{rig, RigOptions};
//! let c = rigsmith::mannequin::build(&Default::default());
//! let o = RigOptions { review: false, ..RigOptions::default() };
//! let out = rig(&c, &o, &mut |_, _| {}).unwrap();
//! assert!(out.character.skeleton.is_some());
//! assert!(!out.sidecar.colliders.is_empty());
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

use crate::bind::{self, BindOptions, PartWeighting, Route};
use crate::error::{Error, Result};
use crate::fit::{self, FitOptions, ModelReport, Template};
use crate::model::Character;
use crate::parts::{self, Chain, Sidecar};
use crate::report::{Check, Counts};
use crate::review::{self, CheckOptions, CheckReport};

/// What [`rig`] does with a character that already has a skeleton.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rigged {
    /// Refuse it with [`Error::AlreadyRigged`], so a rig is never replaced by accident.
    #[default]
    Refuse,
    /// Drop its skeleton, weights and VRM data and rig it again.
    Replace,
    /// Keep its skeleton and weights: no model fix, fit or binding; chains for its
    /// unrigged skirt and hair parts, colliders and the sidecar are built (an unrigged
    /// character is rigged as usual).
    Keep,
}

/// Options of [`rig`].
#[derive(Debug, Clone)]
pub struct RigOptions {
    /// The skeleton template (naming scheme).
    pub template: Template,
    /// The body plan: read from the sections (`Auto`, the default: a biped fits
    /// `template`), biped templates only, a quadruped build or a chain
    /// ([`fit::quadruped::fit_plan`]). The model check is the plan's own
    /// ([`fit::quadruped::model_check_for`]).
    pub plan: fit::quadruped::Plan,
    /// Twist bones per limb segment (upper arm, forearm, thigh, calf): 1 by default,
    /// following by the rules of [`crate::deform::twist`]; 0 for none.
    pub twist: usize,
    /// Influences per vertex in the result (4 for games; up to 8).
    pub max_influences: usize,
    /// What to do with a character that already has a skeleton.
    pub rigged: Rigged,
    /// Apply the model check's fixes (floor, centring) before fitting.
    pub fix: bool,
    /// Keep the input's origin: the model check's fixes may turn the model to face +Z
    /// (about the origin) but do not move it to the floor and the centre.
    pub keep_origin: bool,
    /// Scale every part so the body is this tall, in metres, before the model check
    /// (the feet stay where they stand); `None` keeps the input's size.
    pub height: Option<f32>,
    /// Build chains for skirts and hair parts.
    pub chains: bool,
    /// Run the review (the rubric check in test poses).
    pub review: bool,
    /// Count new self-intersections in the review (the slowest number).
    pub self_intersections: bool,
    /// Which parts are skin pieces, garments or rigid (overrides of
    /// [`crate::model::Body::of`]; by default every role comes from geometry).
    pub parts: crate::model::BodyOptions,
    /// A sidecar an artist authored (read from beside the input): its colliders and
    /// spring parameters win over the measured ones. With [`Rigged::Keep`] on a rigged
    /// character whose bones it all names and which lists chains, it is used as it is.
    pub authored: Option<Sidecar>,
    /// Shrink measured colliders that the springs' rest pose enters
    /// ([`crate::parts::clear_rest_pose`]), as a VRM runtime needs.
    pub clear_rest_pose: bool,
    /// Force a weight route instead of letting the route decision and the weight report
    /// decide (`None`: the route decision, [`crate::bind::route_choice`], with the
    /// fallback when bone heat fails).
    pub route: Option<Route>,
    /// The face: jaw, eyes, lids, face weights and expression keys
    /// ([`crate::face`]); none by default.
    pub face: crate::face::FaceOptions,
    /// Build the control rig ([`crate::control::build`]): into the sidecar, its checks
    /// (rubric B) into the review.
    pub control: bool,
    /// A mechanical character ([`crate::mech::MechSpec`]): no fit; its own skeleton is
    /// kept and every island bound to one bone at 1.0; the spec goes into the sidecar
    /// and the review adds the rigid check and the islands that interpenetrate at rest.
    pub mech: Option<crate::mech::MechSpec>,
}

impl Default for RigOptions {
    fn default() -> Self {
        RigOptions {
            template: Template::Game,
            plan: fit::quadruped::Plan::Auto,
            twist: 1,
            max_influences: 4,
            rigged: Rigged::Refuse,
            fix: true,
            keep_origin: false,
            height: None,
            chains: true,
            review: true,
            self_intersections: true,
            parts: crate::model::BodyOptions::default(),
            authored: None,
            clear_rest_pose: false,
            route: None,
            face: crate::face::FaceOptions::default(),
            control: false,
            mech: None,
        }
    }
}

impl RigOptions {
    /// What the VRM exporter and the spring simulation run: a rigged character is kept
    /// as it is; an unrigged one is fitted with the VRM template as it lies (no model
    /// fix) and bound; chains, colliders cleared of the springs' rest pose and the
    /// sidecar are built; no review.
    pub fn vrm() -> Self {
        RigOptions {
            template: Template::Vrm,
            plan: fit::quadruped::Plan::Biped,
            twist: 0,
            rigged: Rigged::Keep,
            fix: false,
            review: false,
            self_intersections: false,
            clear_rest_pose: true,
            ..RigOptions::default()
        }
    }
}

/// The wall time of one stage.
#[derive(Debug, Clone, Serialize)]
pub struct StageTiming {
    /// Stage name (`model`, `fit`, `weights`, `chains`, `sidecar`, `review`).
    pub stage: String,
    /// Seconds.
    pub seconds: f64,
}

/// What [`rig`] returns: everything a user writes.
#[derive(Debug, Clone, Serialize)]
pub struct RigOutput {
    /// The rigged character: parts in input order and vertex order, the fitted
    /// skeleton (plus chain bones), weights on every part.
    #[serde(skip)]
    pub character: Character,
    /// The sidecar written beside the rigged file (chains, colliders, springs).
    #[serde(skip)]
    pub sidecar: Sidecar,
    /// Whether the character was fitted and bound here (`false` when its own rig was
    /// kept, see [`Rigged::Keep`]).
    pub rigged_here: bool,
    /// The model check before fixes.
    pub model: ModelReport,
    /// The fixes applied, in plain words.
    pub fixes: Vec<String>,
    /// Placement checks of the fitted skeleton (rubric A); empty for a kept rig.
    pub placement: Vec<Check>,
    /// VRM 1.0 humanoid map (VRM bone -> skeleton bone): the fitted template's, the
    /// character's own VRM map, or [`crate::humanoid::map_humanoid`]'s.
    pub humanoid: BTreeMap<String, String>,
    /// Why the humanoid map lacks required bones, when it does (a skeleton that is not
    /// a humanoid); `None` when complete. A VRM export refuses such a map.
    pub humanoid_problem: Option<String>,
    /// The weight route taken (`None` for a kept rig).
    pub route: Option<Route>,
    /// Why that route.
    pub route_reasons: Vec<String>,
    /// The binding stage's weight report (route, unweighted, empty majors, sum
    /// deviation, influences, non-deform bones, mirror error, vertices stripped by the
    /// cross-side pass, garment transfer); `None` for a kept rig.
    pub weight_report: Option<crate::bind::WeightReport>,
    /// What each part was treated as, by part name.
    pub part_roles: Vec<(String, String)>,
    /// Each part's role in the character (skin, garment, hair, rigid, accessory) and
    /// why, in part order.
    pub parts: Vec<crate::review::PartLine>,
    /// Chains built here for skirts and hair.
    pub chains: Vec<Chain>,
    /// The review, when run.
    pub review: Option<CheckReport>,
    /// One line per decision of the chains and sidecar stages.
    pub notes: Vec<String>,
    /// Stage timings.
    pub timings: Vec<StageTiming>,
    /// The face built here (bones, keys, controls, checks), when asked for.
    pub face: Option<crate::face::FaceOutput>,
    /// The parts [`rig`] left out of the figure by itself and carried rigid: helper
    /// shapes the exporter wrote out unskinned ([`UNSKINNED_RIGID`]).
    pub helpers: Vec<String>,
}

impl RigOutput {
    /// Failed checks by severity over placement and review.
    pub fn counts(&self) -> Counts {
        match &self.review {
            Some(r) => r.counts,
            None => Counts::of(&self.placement),
        }
    }

    /// The route in words (`bone_heat: reasons...`), or that the rig was kept.
    pub fn route_text(&self) -> String {
        let Some(r) = self.route else {
            return match self.route_reasons.first() {
                Some(why) if self.rigged_here => why.clone(),
                _ => "kept the input's weights".to_string(),
            };
        };
        format!(
            "{r:?}{}",
            if self.route_reasons.is_empty() {
                String::new()
            } else {
                format!(": {}", self.route_reasons.join("; "))
            }
        )
    }

    /// The report's extra JSON: the model check, fixes, placement, route, part roles
    /// and timings (the review itself is [`RigOutput::review`]).
    pub fn report_json(&self) -> serde_json::Value {
        serde_json::json!({
            "model": &self.model,
            "fixes": &self.fixes,
            "placement": &self.placement,
            "route_reasons": &self.route_reasons,
            "bind_weight_report": &self.weight_report,
            "part_roles": &self.part_roles,
            "parts": &self.parts,
            "timings": &self.timings,
            "notes": &self.notes,
        })
    }

    /// What rigsmith changed or decided on the way, as `(label, text)` rows for the
    /// report page.
    pub fn changes(&self) -> Vec<(String, String)> {
        let mut rows = Vec::new();
        rows.push((
            "fixes".to_string(),
            if self.fixes.is_empty() {
                "none needed".to_string()
            } else {
                self.fixes.join("; ")
            },
        ));
        rows.push(("parts".to_string(), self.part_roles_text()));
        let nb = self.character.skeleton.as_ref().map_or(0, |s| s.len());
        let classes = self
            .chains
            .iter()
            .map(|c| c.class.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", ");
        rows.push((
            "skeleton".to_string(),
            format!(
                "{nb} bones, {} chains{}",
                self.chains.len(),
                if self.chains.is_empty() {
                    String::new()
                } else {
                    format!(" ({classes})")
                }
            ),
        ));
        rows.push(("weights".to_string(), self.route_text()));
        rows
    }

    /// The vertex attributes the rigged file carries beside the standard ones, per part
    /// name: the preserve-volume mask as `_DQS_BLEND` (one weight per vertex), for
    /// [`crate::io::gltf::WriteOptions::vertex_attributes`].
    pub fn vertex_attributes(&self) -> BTreeMap<String, BTreeMap<String, Vec<f32>>> {
        self.sidecar
            .dqs_blend
            .iter()
            .filter_map(|(name, sparse)| {
                let n = self.character.parts[self.character.find_part(name)?]
                    .mesh
                    .positions
                    .len();
                let dense = crate::deform::dqs_mask::dense(sparse, n);
                Some((
                    name.clone(),
                    BTreeMap::from([("_DQS_BLEND".to_string(), dense)]),
                ))
            })
            .collect()
    }

    /// Each part with its role, `name (role), ...`.
    pub fn part_roles_text(&self) -> String {
        self.part_roles
            .iter()
            .map(|(n, r)| format!("{n} ({r})"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A stage notification for progress display: `(stage, None)` when it starts,
/// `(stage, Some(seconds))` when it ends.
pub type Progress<'a> = &'a mut dyn FnMut(&str, Option<f64>);

/// Stage timing and progress notification.
pub(crate) struct Stages<'p, 'a> {
    timings: Vec<StageTiming>,
    progress: &'p mut dyn FnMut(&str, Option<f64>),
    current: Option<(&'a str, Instant)>,
}

impl<'a> Stages<'_, 'a> {
    pub(crate) fn start(&mut self, name: &'a str) {
        (self.progress)(name, None);
        self.current = Some((name, Instant::now()));
    }
    pub(crate) fn done(&mut self) {
        if let Some((name, t0)) = self.current.take() {
            let secs = t0.elapsed().as_secs_f64();
            (self.progress)(name, Some(secs));
            self.timings.push(StageTiming {
                stage: name.to_string(),
                seconds: secs,
            });
        }
    }
}

/// What the fit and weights stages produced (nothing for a kept rig).
pub(crate) struct Bound {
    pub(crate) placement: Vec<Check>,
    pub(crate) humanoid: BTreeMap<String, String>,
    pub(crate) route: Option<Route>,
    pub(crate) reasons: Vec<String>,
    pub(crate) report: Option<crate::bind::WeightReport>,
    pub(crate) roles: Vec<Option<PartWeighting>>,
    pub(crate) landmarks: Option<crate::fit::Landmarks>,
    /// The body plan fitted and why, when it was read from the sections or asked for.
    pub(crate) plan: Option<String>,
}

/// Rigs `input` (see the module docs).
pub fn rig(input: &Character, o: &RigOptions, progress: Progress<'_>) -> Result<RigOutput> {
    match rig_once(input, o, &mut *progress) {
        Err(e @ Error::Stage { stage: "fit", .. }) => rig_without_unskinned(input, o, e, progress),
        r => r,
    }
}

/// The reason given for a part [`rig`] took rigid by itself ([`rig_without_unskinned`]).
pub const UNSKINNED_RIGID: &str = "unskinned in a file whose other parts are skinned, and \
     with it the figure is no biped (a helper shape the exporter wrote out, or a loose \
     prop): left out of the fit and carried rigid on its nearest bone (pass --body NAME if \
     it is skin)";

/// The reason `fit` and `check` give for a part they leave out of the figure
/// ([`unskinned_helpers`]).
pub const UNSKINNED_LEFT_OUT: &str = "unskinned in a file whose other parts are skinned, \
     and with it the figure is no biped (a helper shape the exporter wrote out, or a loose \
     prop): left out of the figure (a piece of skin left unbound is still counted \
     unweighted)";

/// After the fit refused (`e`): when the rigged file leaves some meshed parts unskinned
/// while its other parts are skinned ([`unskinned_among_skinned`]), the rig again with
/// those parts rigid (`--rigid`: left out of the figure's bounds, one bone each), their
/// role's reason saying so ([`UNSKINNED_RIGID`]). Blender's glTF importer adds its
/// bone-display ball that way and its FBX exporter writes it out. When that fit refuses
/// too, or there are no such parts, `e` with the parts named ([`hint_unskinned`]).
fn rig_without_unskinned(
    input: &Character,
    o: &RigOptions,
    e: Error,
    progress: Progress<'_>,
) -> Result<RigOutput> {
    let unskinned = unskinned_among_skinned(input, &o.parts);
    if unskinned.is_empty() {
        return Err(e);
    }
    let mut told = o.clone();
    told.parts
        .rigid
        .extend(unskinned.iter().map(|n| (n.clone(), None)));
    let Ok(mut out) = rig_once(input, &told, progress) else {
        return Err(hint_unskinned(e, &unskinned));
    };
    for p in out.parts.iter_mut().filter(|p| unskinned.contains(&p.part)) {
        p.reason = UNSKINNED_RIGID.replace("NAME", &p.part);
    }
    out.helpers = unskinned;
    Ok(out)
}

/// One rig of `input` with options `o`, as [`rig`] describes.
fn rig_once(input: &Character, o: &RigOptions, progress: Progress<'_>) -> Result<RigOutput> {
    let source = parts::SourceFacts::of(input);
    let (mut c, keep) = start(input, o)?;
    let mut st = Stages {
        timings: Vec::new(),
        progress,
        current: None,
    };

    st.start("model");
    let mut scaled = None;
    if let (Some(target), false) = (o.height, keep) {
        scaled = Some(fit::scale_to_height(&mut c, target).ok_or_else(|| {
            Error::invalid(
                "height",
                format!("{target}: expected a positive height in metres for a body with a height"),
            )
        })?);
    }
    let mut model = match o.plan {
        fit::quadruped::Plan::Biped => fit::model_check(&c),
        _ => fit::quadruped::model_check_for(&c),
    };
    // A skeleton being replaced still tells the front by its knees when the toes do not.
    if c.skeleton.is_none() && model.plan.is_none() {
        fit::facing_from_knees(&mut model, input);
    }
    // With `keep_origin` the character is rigged and reviewed on the floor and
    // centred, and the rigged result is moved back to where the input stood.
    let mut back = None;
    let fixes = if o.fix && !keep {
        let before = c.clone();
        let mut fixes = fit::fix_model(&mut c, &model);
        if o.keep_origin {
            back = translation_back(&before, &c, &model.facing, &mut fixes);
        }
        fixes
    } else {
        Vec::new()
    };
    let fixes: Vec<String> = scaled.into_iter().chain(fixes).collect();
    st.done();

    let mut bound = if keep {
        Bound {
            placement: Vec::new(),
            humanoid: c
                .vrm
                .as_ref()
                .map(|v| v.humanoid.clone())
                .unwrap_or_default(),
            route: None,
            reasons: Vec::new(),
            report: None,
            roles: vec![None; c.parts.len()],
            landmarks: None,
            plan: None,
        }
    } else if let Some(spec) = &o.mech {
        bind_mech(&mut c, spec, &mut st)?
    } else {
        fit_and_bind(&mut c, o, &mut st)?
    };

    let mut notes: Vec<String> = bound.plan.iter().cloned().collect();
    // Which rule placed legs hidden by a robe or a long dress.
    if let Some(lm) = &bound.landmarks {
        notes.extend(
            lm.notes
                .iter()
                .filter(|n| n.contains("under cloth"))
                .cloned(),
        );
    }
    let mut face = build_face(&mut c, o, &mut bound, &mut st)?;
    let Secondary {
        chains,
        sidecar,
        humanoid,
        humanoid_problem,
    } = chains_and_sidecar(&mut c, o, keep, source, &bound, &mut notes, &mut st)?;
    c.validate()?;
    let mut sidecar = sidecar;
    if let Some(f) = &face {
        sidecar.face_controls = f.controls.clone();
        notes.extend(f.notes.iter().cloned());
    }

    let review = if o.review {
        Some(review_rig(&c, o, &sidecar, &mut st)?)
    } else {
        None
    };
    if let Some(spec) = &o.mech {
        review_mech(&c, spec, &mut notes, &mut sidecar);
    }
    let mut review = review;

    if let (Some(r), Some(f)) = (review.as_mut(), &face) {
        crate::face::review::add_to(r, &f.checks);
    }
    if let Some(m) = back {
        c.transform(m);
        if let Some(f) = face.as_mut() {
            f.fit.transform(m);
        }
    }
    let part_roles = part_roles(&c, &bound.roles, &chains);
    let parts = match &review {
        Some(r) => r.parts.clone(),
        None => crate::review::rubric::part_lines(&c),
    };
    let mut out = RigOutput {
        parts,
        character: c,
        sidecar,
        rigged_here: !keep,
        model,
        fixes,
        placement: bound.placement,
        humanoid,
        humanoid_problem,
        route: bound.route,
        route_reasons: bound.reasons,
        weight_report: bound.report,
        part_roles,
        chains,
        review,
        notes,
        timings: st.timings,
        face,
        helpers: Vec::new(),
    };
    if o.control {
        attach_control(&mut out)?;
    }
    Ok(out)
}

/// The review of the rig `c` (its own for a mechanical character), measured as `check`
/// measures the written file.
fn review_rig(
    c: &Character,
    o: &RigOptions,
    sidecar: &Sidecar,
    st: &mut Stages<'_, '_>,
) -> Result<CheckReport> {
    st.start("review");
    let check = |c: &Character, co: &CheckOptions| match &o.mech {
        // A mechanical character gets its own review, not the biped rubric.
        Some(spec) => crate::review::mech::check_report(c, spec, co),
        None => review::check(c, co),
    };
    let r = check(
        c,
        &CheckOptions {
            max_influences: o.max_influences,
            self_intersections: o.self_intersections,
            // Measured as `check` measures the written file: under the runtime
            // model its sidecar names (twist rules, the preserve-volume mask and
            // the correctives when the rig was built here).
            dqs_blend: !sidecar.dqs_blend.is_empty(),
            dqs_masks: sidecar.dqs_blend.clone(),
            correctives: sidecar.correctives.clone(),
            ..CheckOptions::default()
        },
    )?;
    st.done();
    Ok(r)
}

/// The control rig of the output skeleton: into the sidecar, its checks (rubric B)
/// into the review; a limb it could not build is a note.
fn attach_control(out: &mut RigOutput) -> Result<()> {
    let skel = out
        .character
        .skeleton
        .as_ref()
        .ok_or_else(|| Error::invalid("control rig", "the character has no skeleton"))?;
    let rig = crate::control::build(skel, out.sidecar.height)?;
    if let Some(r) = &mut out.review {
        crate::control::checks::add_to(&mut r.checks, &mut r.not_verified, &rig);
        r.counts = Counts::of(&r.checks);
    }
    out.notes
        .extend(rig.missing.iter().map(|m| format!("control rig: {m}")));
    out.sidecar.control = Some(rig);
    Ok(())
}

/// The face stage ([`crate::face::build`]) on a character fitted and bound here: its
/// bones join the skeleton, its humanoid entries the map, its placement checks the
/// fit's.
fn build_face(
    c: &mut Character,
    o: &RigOptions,
    bound: &mut Bound,
    st: &mut Stages<'_, '_>,
) -> Result<Option<crate::face::FaceOutput>> {
    let Some(lm) = bound.landmarks.as_ref() else {
        return Ok(None);
    };
    if o.face.mode == crate::face::FaceMode::None {
        return Ok(None);
    }
    st.start("face");
    let head = bound
        .humanoid
        .get("head")
        .cloned()
        .unwrap_or_else(|| "head".to_string());
    let f = crate::face::build(c, lm, &head, &o.face)?;
    for (k, v) in &f.humanoid {
        bound.humanoid.insert(k.clone(), v.clone());
    }
    bound.placement.extend(f.checks.iter().cloned());
    st.done();
    Ok(Some(f))
}

/// The checks before any stage runs, and the character to work on; `true` when its
/// own rig is kept ([`Rigged::Keep`]).
fn start(input: &Character, o: &RigOptions) -> Result<(Character, bool)> {
    if input.parts.is_empty() || input.parts.iter().all(|p| p.mesh.triangles.is_empty()) {
        return Err(Error::invalid(
            "character",
            "has no mesh with triangles to rig",
        ));
    }
    let mut c = input.clone();
    c.body_options = o.parts.clone();
    let mut keep = false;
    if o.mech.is_some() && c.skeleton.is_none() {
        return Err(Error::invalid(
            "mech",
            "a mechanical character is bound on its own skeleton: the character has none",
        ));
    }
    if let (Some(s), None) = (&c.skeleton, &o.mech) {
        match o.rigged {
            Rigged::Refuse => return Err(Error::AlreadyRigged { joints: s.len() }),
            Rigged::Keep => keep = true,
            Rigged::Replace => {
                c.skeleton = None;
                for p in &mut c.parts {
                    p.weights = None;
                }
                c.vrm = None;
            }
        }
    }
    if !keep {
        c.validate()?;
    }
    if !(1..=8).contains(&o.max_influences) {
        return Err(Error::invalid(
            "rig options",
            format!("max influences {} is not in 1..=8", o.max_influences),
        ));
    }
    Ok((c, keep))
}

/// What the fit's refusal says after the names of the parts a rigged file leaves
/// unskinned ([`unskinned_among_skinned`]): `part NAME is ...`, `parts A, B are ...`.
pub const UNSKINNED_HINT: &str = "unskinned in a file whose other parts are skinned";

/// The meshed parts of a rigged file that it leaves unskinned while its other parts are
/// skinned, and that no `--body`, `--garment` or `--rigid` names: a helper shape a 3D
/// tool wrote out (Blender's bone-display `Icosphere`, a 2 m ball at the origin, in an
/// FBX written with all objects), or a prop nobody attached.
pub fn unskinned_among_skinned(input: &Character, told: &crate::model::BodyOptions) -> Vec<String> {
    if !input.parts.iter().any(|p| p.weights.is_some()) {
        return Vec::new();
    }
    input
        .parts
        .iter()
        .filter(|p| p.weights.is_none() && !p.mesh.triangles.is_empty() && !told.tells(p))
        .map(|p| p.name.clone())
        .collect()
}

/// The parts a rigged file leaves unskinned while its other parts are skinned
/// ([`unskinned_among_skinned`], none of them named in `told`) that the body plan `plan`
/// must leave out of the figure: it fits with them told rigid and not without. Blender's
/// bone-display ball written out to FBX swallows the feet and sets the floor 1 m below
/// them. Empty when nothing need change. `rig` does the same on its fit's refusal
/// ([`rig`]); `fit`, `check` and `weights` tell these parts rigid (`--rigid`).
pub fn unskinned_helpers(
    c: &Character,
    told: &crate::model::BodyOptions,
    plan: fit::quadruped::Plan,
) -> Vec<String> {
    let unskinned = unskinned_among_skinned(c, told);
    if unskinned.is_empty() {
        return unskinned;
    }
    let with = FitOptions {
        parts: told.clone(),
        ..FitOptions::default()
    };
    if fit::quadruped::fit_plan(c, &with, plan).is_ok() {
        return Vec::new();
    }
    let mut without = with;
    without
        .parts
        .rigid
        .extend(unskinned.iter().map(|n| (n.clone(), None)));
    match fit::quadruped::fit_plan(c, &without, plan) {
        Ok(_) => unskinned,
        Err(_) => Vec::new(),
    }
}

/// The fit's refusal `e` with a hint naming the `unskinned` parts
/// ([`unskinned_among_skinned`]): the part that made the figure no biped may be one of
/// them. Any other error is returned as it is.
fn hint_unskinned(e: Error, unskinned: &[String]) -> Error {
    match e {
        Error::Stage { stage: "fit", msg } if !unskinned.is_empty() => {
            let list = unskinned.join(", ");
            let (what, it) = if unskinned.len() == 1 {
                (format!("part {list} is"), "it")
            } else {
                (format!("parts {list} are"), "them")
            };
            Error::Stage {
                stage: "fit",
                msg: format!(
                    "{msg}; {what} {UNSKINNED_HINT} (a helper shape the exporter wrote \
                     out, or a prop?): leave {it} out of the export, or tell {it} rigid"
                ),
            }
        }
        e => e,
    }
}

/// The fit and weights stages: the template's skeleton fitted to `c` and every part
/// weighted to it.
fn fit_and_bind(c: &mut Character, o: &RigOptions, st: &mut Stages<'_, '_>) -> Result<Bound> {
    st.start("fit");
    let planned = fit::quadruped::fit_plan(
        c,
        &FitOptions {
            template: o.template,
            twist: o.twist,
            overrides: Vec::new(),
            parts: o.parts.clone(),
        },
        o.plan,
    )?;
    let fitted = planned.fit;
    st.done();

    st.start("weights");
    let bo = BindOptions {
        max_influences: o.max_influences,
        body: o.parts.body.clone(),
        garment: o.parts.garment.clone(),
        rigid: o.parts.rigid.clone(),
        force_route: o.route,
        ..BindOptions::default()
    };
    let bound = bind::bind(c, &fitted.skeleton, &bo)?;
    c.skeleton = Some(fitted.skeleton.clone());
    for (p, w) in c.parts.iter_mut().zip(bound.weights.iter()) {
        p.weights = w.clone();
    }
    let rigid: Vec<bool> = bound
        .part_roles
        .iter()
        .map(|r| matches!(r, PartWeighting::Rigid(_)))
        .collect();
    crate::deform::neck_blend::blend_on_character(c, &rigid, o.max_influences);
    // A garment the blend left on one bone (glasses over the face) is rigid to it.
    let mut reasons = bound.reasons;
    let s = &fitted.skeleton;
    for ((p, role), class) in c
        .parts
        .iter_mut()
        .zip(&bound.part_roles)
        .zip(&bound.part_classes)
    {
        let garment =
            matches!(role, PartWeighting::Garment) && *class == crate::model::PartClass::Garment;
        if let (true, Some(w)) = (garment, p.weights.as_mut()) {
            if let Some((b, share)) = bind::rigid_if_one_bone(w) {
                reasons.push(format!(
                    "{}: {:.1}% of its weight on {} after the neck's blend: rigid to it",
                    p.name,
                    100.0 * share,
                    s.bones[b as usize].name
                ));
            }
        }
    }
    st.done();
    Ok(Bound {
        plan: (o.plan != fit::quadruped::Plan::Biped)
            .then(|| format!("body plan {}: {}", planned.plan, planned.why)),
        placement: fitted.checks,
        humanoid: fitted.humanoid,
        route: Some(bound.route),
        reasons,
        report: Some(bound.report),
        roles: bound.part_roles.into_iter().map(Some).collect(),
        landmarks: Some(fitted.landmarks),
    })
}

/// What the chains and sidecar stages produce.
struct Secondary {
    chains: Vec<Chain>,
    sidecar: Sidecar,
    humanoid: BTreeMap<String, String>,
    humanoid_problem: Option<String>,
}

/// The chains and sidecar stages: chains for unrigged skirt and hair parts, measured
/// colliders, the sidecar (an authored one's colliders and springs win), and the
/// humanoid map completed from the skeleton when the fit gave none.
fn chains_and_sidecar(
    c: &mut Character,
    o: &RigOptions,
    keep: bool,
    source: parts::SourceFacts,
    bound: &Bound,
    notes: &mut Vec<String>,
    st: &mut Stages<'_, '_>,
) -> Result<Secondary> {
    let mut humanoid = bound.humanoid.clone();
    let Some(skel) = c.skeleton.as_ref() else {
        return Err(Error::stage("rig", "the character has no skeleton"));
    };
    let mut problem = None;
    if humanoid.is_empty() {
        // Names first, else the skeleton's structure.
        let m = crate::humanoid::map_humanoid(skel);
        notes.extend(m.notes);
        humanoid = m.bones;
        problem = m.problem;
    }
    if let Some(a) = o.authored.as_ref().filter(|_| keep) {
        if a.check_bones(skel).is_ok() && !a.chains.is_empty() {
            notes.push("used the authored sidecar as it is".into());
            return Ok(Secondary {
                chains: Vec::new(),
                sidecar: a.clone(),
                humanoid,
                humanoid_problem: problem,
            });
        }
    }
    let mut chains = Vec::new();
    if o.chains {
        st.start("chains");
        let before = skel.len();
        chains = parts::build_chains(c, &parts::ChainOptions::default())?;
        let added = c.skeleton.as_ref().map_or(0, |s| s.len()) - before;
        notes.push(format!(
            "{} chains ({added} bones added for skirt and hair parts)",
            chains.len()
        ));
        // The chains' weights are limited as the binder's were; with `Rigged::Keep`
        // (the exporter's mode) every weight is left as the binder or the input and
        // the chains made it.
        if !chains.is_empty() && o.rigged != Rigged::Keep {
            for p in &mut c.parts {
                if let Some(w) = &mut p.weights {
                    w.limit(o.max_influences);
                }
            }
        }
        st.done();
    }
    // A four-legged rig's tail and ears swing against colliders on its body.
    let animal = if o.chains {
        parts::animal::animal_chains(c, &chains)
    } else {
        None
    };
    if let Some(a) = &animal {
        chains.extend(a.chains.iter().cloned());
        notes.extend(a.notes.iter().cloned());
    }
    st.start("sidecar");
    let colliders = parts::measure_colliders(c);
    let mut sidecar = Sidecar::build(c, &chains, &colliders);
    if let Some(a) = &animal {
        a.apply(&mut sidecar);
    }
    if let (true, Some(skel)) = (o.clear_rest_pose, &c.skeleton) {
        for n in parts::clear_rest_pose(&mut sidecar, skel) {
            notes.push(format!("collider clears the springs' rest pose: {n}"));
        }
    }
    sidecar.set_source(source);
    if !keep && o.mech.is_none() {
        // The preserve-volume mask of the parts rigged here (rigid parts stay rigid).
        let rigid: Vec<bool> = bound
            .roles
            .iter()
            .map(|r| matches!(r, Some(PartWeighting::Rigid(_))))
            .collect();
        sidecar.dqs_blend = crate::deform::dqs_mask::character_masks(c, &rigid);
        // Corrective shapes for the flagged hinge joints, as morph targets of the skin:
        // biped joints, shaped and checked in the biped pose library.
        let four_legged = c
            .skeleton
            .as_ref()
            .and_then(crate::pose::quadruped::QuadRoles::of)
            .is_some();
        if !four_legged {
            let built = review::correctives::build_correctives(c, &sidecar.dqs_blend);
            for (i, mt) in built.morphs {
                c.parts[i].morphs.retain(|m| m.name != mt.name);
                c.parts[i].morphs.push(mt);
            }
            notes.extend(built.notes);
            sidecar.correctives = built.correctives;
        } else {
            notes.push(
                "no corrective shapes: they are shaped in the biped pose library, \
                 not the quadruped one"
                    .into(),
            );
        }
    }
    if let (Some(a), Some(skel)) = (&o.authored, &c.skeleton) {
        notes.extend(sidecar.keep_authored(a, skel));
        notes.push("kept authored colliders and spring parameters".into());
    }
    st.done();
    Ok(Secondary {
        chains,
        sidecar,
        humanoid,
        humanoid_problem: problem,
    })
}

/// What each part was treated as, by part name: the binder's role (`kept` for a kept
/// rig), with `, chains` when chain bones weight it.
fn part_roles(
    c: &Character,
    roles: &[Option<PartWeighting>],
    chains: &[Chain],
) -> Vec<(String, String)> {
    c.parts
        .iter()
        .zip(roles.iter())
        .map(|(p, r)| {
            let role = match r {
                Some(PartWeighting::Body) => "body".to_string(),
                Some(PartWeighting::Garment) => "garment".to_string(),
                Some(PartWeighting::Rigid(Some(b))) => format!("rigid ({b})"),
                Some(PartWeighting::Rigid(None)) => "rigid (nearest bone)".to_string(),
                None => "kept".to_string(),
            };
            let in_chain = chains.iter().any(|ch| {
                ch.bones.iter().any(|b| {
                    p.weights.as_ref().is_some_and(|w| {
                        c.skeleton
                            .as_ref()
                            .and_then(|s| s.find(b))
                            .is_some_and(|bi| {
                                w.vertices
                                    .iter()
                                    .any(|l| l.iter().any(|i| i.bone as usize == bi))
                            })
                    })
                })
            });
            (
                p.name.clone(),
                if in_chain {
                    format!("{role}, chains")
                } else {
                    role
                },
            )
        })
        .collect()
}

/// The translation that takes back what [`fit::fix_model`] moved (keeping a turn to
/// face +Z, which is about the origin), for [`RigOptions::keep_origin`]; rewrites the
/// fixes' words to say so. `None` when nothing was moved.
fn translation_back(
    before: &Character,
    after: &Character,
    facing: &str,
    fixes: &mut Vec<String>,
) -> Option<glam::Mat4> {
    let angle = crate::io::space::Facing::of_axis(facing).map_or(0.0, |f| f.turn());
    let turned = fixes.iter().any(|f| f.starts_with("turned"));
    let rot = glam::Mat4::from_rotation_y(if turned { angle } else { 0.0 });
    let (p, q) = before
        .parts
        .iter()
        .zip(&after.parts)
        .find_map(|(a, b)| Some((*a.mesh.positions.first()?, *b.mesh.positions.first()?)))?;
    let t = q - rot.transform_point3(p);
    fixes.retain(|f| !f.starts_with("moved every part"));
    fixes.push(
        "kept the origin: rigged and checked on the floor and centred, then moved back to where the input stood"
            .into(),
    );
    (t.length() > 0.0).then(|| glam::Mat4::from_translation(-t))
}

// The mechanical character's stages (with [`RigOptions::mech`]): binding on its own
// skeleton and the review's rigid check.

/// The weights stage of a mechanical character: every island on one bone at 1.0
/// ([`MechSpec::bind`]) of the character's own skeleton; no fit.
fn bind_mech(
    c: &mut Character,
    spec: &crate::mech::MechSpec,
    st: &mut Stages<'_, '_>,
) -> Result<Bound> {
    st.start("weights");
    let s = c
        .skeleton
        .clone()
        .ok_or_else(|| Error::invalid("mech", "the character has no skeleton"))?;
    spec.check(c, &s)?;
    let weights = spec.bind(c, &s);
    for (p, w) in c.parts.iter_mut().zip(weights) {
        p.weights = Some(w);
    }
    let n = crate::mech::islands(c).len();
    st.done();
    Ok(Bound {
        placement: Vec::new(),
        humanoid: Default::default(),
        route: None,
        reasons: vec![format!(
            "mechanical: each of {n} islands on one bone at 1.0 ({} on bones of their own, \
             the others on the nearest deform bone)",
            spec.own.len()
        )],
        report: None,
        roles: vec![Some(PartWeighting::Rigid(None)); c.parts.len()],
        landmarks: None,
        plan: Some(format!(
            "body plan mechanical: {n} rigid islands on the character's own skeleton, {} keyed actions",
            spec.actions.len()
        )),
    })
}

/// The mechanical character's notes and sidecar: the islands that interpenetrate at
/// rest into the notes (never a failure), and the spec into the sidecar. Its review is
/// [`crate::review::mech::check_report`].
fn review_mech(
    c: &Character,
    spec: &crate::mech::MechSpec,
    notes: &mut Vec<String>,
    sidecar: &mut Sidecar,
) {
    sidecar.mech = Some(spec.clone());
    notes.extend(
        crate::mech::rest_overlaps(c)
            .into_iter()
            .map(|n| format!("islands interpenetrate at rest: {n}")),
    );
}
