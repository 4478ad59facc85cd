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
//! 5. **review** ([`crate::review::check`]): the rubric check in the default pose library.
//!
//! The caller writes the result ([`crate::io::write_character`]) and the reports.
//! A character that is already rigged is refused unless [`RigOptions::rerig`] is set.
//! Every stage's wall time is kept in [`RigOutput::timings`].

use std::time::Instant;

use serde::Serialize;

use crate::bind::{self, BindOptions, PartRole, Route};
use crate::error::{Error, Result};
use crate::fit::{self, FitOptions, ModelReport, Template};
use crate::model::Character;
use crate::parts::{self, Chain};
use crate::report::{Check, Counts};
use crate::review::{self, CheckOptions, CheckReport};

/// Options of [`rig`].
#[derive(Debug, Clone)]
pub struct RigOptions {
    /// The skeleton template (naming scheme).
    pub template: Template,
    /// Twist bones per limb segment.
    pub twist: usize,
    /// Influences per vertex in the result (4 for games; up to 8).
    pub max_influences: usize,
    /// Re-rig a character that already has a skeleton and weights (they are dropped).
    pub rerig: bool,
    /// Apply the model check's fixes (floor, centring) before fitting.
    pub fix: bool,
    /// Keep the input's origin: the model check's fixes may turn the model to face +Z
    /// (about the origin) but do not move it to the floor and the centre.
    pub keep_origin: bool,
    /// Build chains for skirts and hair parts.
    pub chains: bool,
    /// Run the review (the rubric check in test poses).
    pub review: bool,
    /// Count new self-intersections in the review (the slowest number).
    pub self_intersections: bool,
    /// Which parts are skin pieces, garments or rigid (overrides of
    /// [`crate::model::Body::of`]; by default every role comes from geometry).
    pub parts: crate::model::BodyOptions,
}

impl Default for RigOptions {
    fn default() -> Self {
        RigOptions {
            template: Template::Game,
            twist: 0,
            max_influences: 4,
            rerig: false,
            fix: true,
            keep_origin: false,
            chains: true,
            review: true,
            self_intersections: true,
            parts: crate::model::BodyOptions::default(),
        }
    }
}

/// The wall time of one stage.
#[derive(Debug, Clone, Serialize)]
pub struct StageTiming {
    /// Stage name (`model`, `fit`, `weights`, `chains`, `review`).
    pub stage: String,
    /// Seconds.
    pub seconds: f64,
}

/// What [`rig`] returns.
#[derive(Debug, Clone, Serialize)]
pub struct RigOutput {
    /// The rigged character: parts in input order and vertex order, the fitted
    /// skeleton (plus chain bones), weights on every part.
    #[serde(skip)]
    pub character: Character,
    /// The model check before fixes.
    pub model: ModelReport,
    /// The fixes applied, in plain words.
    pub fixes: Vec<String>,
    /// Placement checks of the fitted skeleton (rubric A).
    pub placement: Vec<Check>,
    /// VRM 1.0 humanoid map (VRM bone -> skeleton bone).
    pub humanoid: std::collections::BTreeMap<String, String>,
    /// The weight route taken.
    pub route: Route,
    /// Why that route.
    pub route_reasons: Vec<String>,
    /// The binding stage's weight report (route, unweighted, empty majors, sum
    /// deviation, influences, non-deform bones, mirror error, vertices stripped by the
    /// cross-side pass, garment transfer).
    pub weight_report: crate::bind::WeightReport,
    /// What each part was treated as, by part name.
    pub part_roles: Vec<(String, String)>,
    /// Each part's role in the character (skin, garment, hair, rigid, accessory) and
    /// why, in part order.
    pub parts: Vec<crate::review::PartLine>,
    /// Chains built for skirts and hair.
    pub chains: Vec<Chain>,
    /// The review, when run.
    pub review: Option<CheckReport>,
    /// Stage timings.
    pub timings: Vec<StageTiming>,
}

impl RigOutput {
    /// Failed checks by severity over placement and review.
    pub fn counts(&self) -> Counts {
        match &self.review {
            Some(r) => r.counts,
            None => Counts::of(&self.placement),
        }
    }
}

/// A stage notification for progress display: `(stage, None)` when it starts,
/// `(stage, Some(seconds))` when it ends.
pub type Progress<'a> = &'a mut dyn FnMut(&str, Option<f64>);

/// Rigs `input` (see the module docs).
pub fn rig(input: &Character, o: &RigOptions, progress: Progress<'_>) -> Result<RigOutput> {
    if input.parts.is_empty() || input.parts.iter().all(|p| p.mesh.triangles.is_empty()) {
        return Err(Error::invalid(
            "character",
            "has no mesh with triangles to rig",
        ));
    }
    let mut c = input.clone();
    c.body_options = o.parts.clone();
    if c.skeleton.is_some() {
        if !o.rerig {
            let n = c.skeleton.as_ref().map_or(0, |s| s.len());
            return Err(Error::invalid(
                "character",
                format!("is already rigged ({n} joints); pass --rerig to replace its skeleton and weights"),
            ));
        }
        c.skeleton = None;
        for p in &mut c.parts {
            p.weights = None;
        }
        c.vrm = None;
    }
    c.validate()?;
    if !(1..=8).contains(&o.max_influences) {
        return Err(Error::invalid(
            "rig options",
            format!("max influences {} is not in 1..=8", o.max_influences),
        ));
    }
    let mut timings = Vec::new();
    let stage = |name: &str, progress: &mut dyn FnMut(&str, Option<f64>)| {
        progress(name, None);
        (name.to_string(), Instant::now())
    };
    let done = |s: (String, Instant),
                timings: &mut Vec<StageTiming>,
                progress: &mut dyn FnMut(&str, Option<f64>)| {
        let secs = s.1.elapsed().as_secs_f64();
        progress(&s.0, Some(secs));
        timings.push(StageTiming {
            stage: s.0,
            seconds: secs,
        });
    };

    let s = stage("model", progress);
    let model = fit::model_check(&c);
    let fixes = if o.fix {
        let before = c.clone();
        let mut fixes = fit::fix_model(&mut c, &model);
        if o.keep_origin {
            undo_translation(&before, &mut c, &model.facing, &mut fixes);
        }
        fixes
    } else {
        Vec::new()
    };
    done(s, &mut timings, progress);

    let s = stage("fit", progress);
    let fitted = fit::fit(
        &c,
        &FitOptions {
            template: o.template,
            twist: o.twist,
            overrides: Vec::new(),
            parts: o.parts.clone(),
        },
    )?;
    done(s, &mut timings, progress);

    let s = stage("weights", progress);
    let bo = BindOptions {
        max_influences: o.max_influences,
        body: o.parts.body.clone(),
        garment: o.parts.garment.clone(),
        rigid: o.parts.rigid.clone(),
        ..BindOptions::default()
    };
    let bound = bind::bind(&c, &fitted.skeleton, &bo)?;
    c.skeleton = Some(fitted.skeleton.clone());
    for (p, w) in c.parts.iter_mut().zip(bound.weights.iter()) {
        p.weights = w.clone();
    }
    done(s, &mut timings, progress);

    let mut chains = Vec::new();
    if o.chains {
        let s = stage("chains", progress);
        chains = parts::build_chains(&mut c, &parts::BuildOptions::default())?;
        if !chains.is_empty() {
            for p in &mut c.parts {
                if let Some(w) = &mut p.weights {
                    w.limit(o.max_influences);
                }
            }
        }
        done(s, &mut timings, progress);
    }
    c.validate()?;

    let review = if o.review {
        let s = stage("review", progress);
        let r = review::check(
            &c,
            &CheckOptions {
                max_influences: o.max_influences,
                self_intersections: o.self_intersections,
                ..CheckOptions::default()
            },
        )?;
        done(s, &mut timings, progress);
        Some(r)
    } else {
        None
    };

    let part_roles = c
        .parts
        .iter()
        .zip(bound.part_roles.iter())
        .map(|(p, r)| {
            let role = match r {
                PartRole::Body => "body".to_string(),
                PartRole::Garment => "garment".to_string(),
                PartRole::Rigid(Some(b)) => format!("rigid ({b})"),
                PartRole::Rigid(None) => "rigid (nearest bone)".to_string(),
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
        .collect();

    let parts = match &review {
        Some(r) => r.parts.clone(),
        None => crate::review::rubric::part_lines(&c),
    };
    Ok(RigOutput {
        parts,
        character: c,
        model,
        fixes,
        placement: fitted.checks,
        humanoid: fitted.humanoid,
        route: bound.route,
        route_reasons: bound.reasons,
        weight_report: bound.report,
        part_roles,
        chains,
        review,
        timings,
    })
}

/// Takes back the translation [`fit::fix_model`] applied (keeping a turn to face +Z,
/// which is about the origin), for [`RigOptions::keep_origin`]; rewrites the fixes'
/// words to say so.
fn undo_translation(
    before: &Character,
    after: &mut Character,
    facing: &str,
    fixes: &mut Vec<String>,
) {
    let angle = match facing {
        "-Z" => std::f32::consts::PI,
        "+X" => -std::f32::consts::FRAC_PI_2,
        "-X" => std::f32::consts::FRAC_PI_2,
        _ => 0.0,
    };
    let turned = fixes.iter().any(|f| f.starts_with("turned"));
    let rot = glam::Mat4::from_rotation_y(if turned { angle } else { 0.0 });
    let Some((p, q)) = before
        .parts
        .iter()
        .zip(&after.parts)
        .find_map(|(a, b)| Some((*a.mesh.positions.first()?, *b.mesh.positions.first()?)))
    else {
        return;
    };
    let t = q - rot.transform_point3(p);
    if t.length() > 0.0 {
        after.transform(glam::Mat4::from_translation(-t));
    }
    fixes.retain(|f| !f.starts_with("moved every part"));
    fixes.push("kept the origin (--keep-origin): not moved to the floor or centred".into());
}
