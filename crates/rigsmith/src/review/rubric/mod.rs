//! The rubric check: every measurement of the review gathered into one report of
//! [`Check`]s (sections A to E) plus section F: the route taken and what was not
//! verified. See `docs/check.md` for every id, measure and limit.
//!
//! One file per section; each id is defined once, where its stage measures it:
//!
//! * [`placement`] (A): runs the fitting stage's placement checks
//!   ([`crate::fit::placement`]) on the rig's skeleton, with the body solid built here;
//! * [`weights`] (B, C): the root test, the binding stage's weight report
//!   ([`crate::bind::report`]), rigid parts and garments;
//! * [`chains`] (B): the cloth rules of the parts stage on the chains of the skeleton;
//! * [`poses`] (D): the pose library, measured in parallel;
//! * [`honesty`] (E, F): morph targets, the route and what was not verified.

mod before_after;
mod chains;
mod honesty;
mod placement;
pub(crate) mod poses;
mod weights;

use glam::{Mat4, Vec3};

use super::{CheckOptions, CheckReport, Skinning};
use crate::error::{Error, Result};
use crate::humanoid::{Role, Roles};
use crate::model::{Character, Part, PartClass, Skeleton, Weights};
use crate::pose::{posed_matrices, skin_dqs, skin_lbs, NamedPose};
use crate::report::{Check, Counts};

pub use chains::chain_bones;

/// What every section reads: the skin view of the character, its skeleton, roles and
/// body height.
struct Ctx<'a> {
    /// The skin view ([`skin_view`]): part 0 is the welded skin.
    c: &'a Character,
    /// The class of every part of the view.
    classes: &'a [PartClass],
    s: &'a Skeleton,
    rig: Roles,
    /// The skin part.
    body: &'a Part,
    /// The skin's weights.
    bw: &'a Weights,
    /// Body height H, metres.
    h: f32,
    /// The mid-plane's x (the pelvis head, else the middle of the bounds).
    mid_x: f32,
    o: &'a CheckOptions,
}

/// What the sections write: checks in section order and section F's lines.
#[derive(Default)]
struct Out {
    checks: Vec<Check>,
    not_verified: Vec<String>,
    /// Joints flagged in a pose, for close-up sheets.
    flagged: Vec<super::FlaggedJoint>,
    /// The weight report.
    weights: crate::bind::WeightReport,
    /// The preserve-volume mask of every part of the view the poses played, when the
    /// review blends DQS in.
    masks: Option<Vec<Vec<f32>>>,
}

/// Runs the rubric on a skinned character.
///
/// Errors: the character is structurally invalid, has no skeleton, no skinned part, or
/// no extent.
pub fn check(c: &Character, o: &CheckOptions) -> Result<CheckReport> {
    c.validate()?;
    let parts = part_lines(c);
    // H before the view replaces the character: the skin's, as every stage measures it
    // (the view asks for the same memoized body).
    let h = c.height();
    let (view, classes) = skin_view(c)?;
    let (parts_c, c) = (c, &view);
    // The file's mask is per part: the welded skin takes its pieces'.
    let on_view;
    let o = if o.dqs_blend && !o.dqs_masks.is_empty() {
        on_view = CheckOptions {
            dqs_masks: super::runtime_masks::masks_on_view(parts_c, c, &o.dqs_masks),
            ..o.clone()
        };
        &on_view
    } else {
        o
    };
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::stage(
            "check",
            "the character has no skeleton: nothing to check (rig it first)",
        )
    })?;
    let body = &c.parts[0];
    let bw = body
        .weights
        .as_ref()
        .ok_or_else(|| Error::stage("check", "the skin carries no weights: nothing to check"))?;
    let (lo, hi) = c.bounds();
    if h.is_nan() || h <= 0.0 {
        return Err(Error::stage("check", "the character has no height"));
    }
    let rig = Roles::of_character(c).unwrap_or_default();
    let mid_x = rig
        .get(Role::Pelvis)
        .map_or(0.5 * (lo.x + hi.x), |p| s.bones[p].head.x);
    let cx = Ctx {
        c,
        classes: &classes,
        s,
        rig,
        body,
        bw,
        h,
        mid_x,
        o,
    };
    let mut out = Out::default();
    let chains = crate::parts::chains_from_skeleton(c);
    let chain_bone = chain_bones(s, &chains);
    placement::section(&cx, &chain_bone, &mut out);
    weights::structure(&cx, &mut out);
    weights::section(&cx, &mut out);
    let garments = weights::garments(&cx, &chain_bone, &mut out);
    chains::rules(&cx, &chains, &mut out);
    let library = poses::section(&cx, &garments, &mut out);
    let fixes = o.dqs_blend || !o.correctives.is_empty();
    let flagged_before = if fixes {
        before_after::compare(&cx, &library, &mut out)
    } else {
        Vec::new()
    };
    out.checks
        .extend(crate::review::correctives::corrective_checks(
            c,
            &o.correctives,
            &library,
            mid_x,
            h,
            &mut out.not_verified,
        ));
    honesty::morphs(&cx, &mut out);
    let route = honesty::route(&cx, &parts, library.len(), &mut out);
    let counts = Counts::of(&out.checks);
    Ok(CheckReport {
        checks: out.checks,
        counts,
        not_verified: out.not_verified,
        route,
        weights: out.weights,
        poses: library,
        flagged_joints: out.flagged,
        flagged_before,
        runtime: super::Runtime {
            dqs_masks: out.masks.as_deref().map_or_else(Default::default, |m| {
                super::runtime_masks::masks_on_parts(parts_c, c, m)
            }),
            correctives: o.correctives.clone(),
        },
        parts,
    })
}

/// The character as the review sees it: its skin pieces ([`crate::model::Body`])
/// welded into one part, first, carrying the weights of the skin vertices (a welded
/// vertex takes those of its first copy), then every other part; with the class of
/// every part of the view. A one-part character whose mesh is its welded skin
/// ([`Character::is_one_welded_part`]) is its own view.
pub fn skin_view(c: &Character) -> Result<(Character, Vec<PartClass>)> {
    if c.is_one_welded_part() {
        return Ok((c.clone(), vec![PartClass::Skin]));
    }
    let b = c.body()?;
    let weights = b.union_weights(c);
    let name = if b.skin.len() == 1 {
        c.parts[b.skin[0]].name.clone()
    } else {
        "skin".to_string()
    };
    // The skin's morph targets on the union (a welded vertex takes its first copy's).
    let mut morphs: Vec<crate::model::MorphTarget> = Vec::new();
    for &i in &b.skin {
        for mt in &c.parts[i].morphs {
            let k = match morphs.iter().position(|m| m.name == mt.name) {
                Some(k) => k,
                None => {
                    morphs.push(crate::model::MorphTarget {
                        name: mt.name.clone(),
                        position_deltas: vec![Vec3::ZERO; b.mesh.positions.len()],
                        normal_deltas: None,
                    });
                    morphs.len() - 1
                }
            };
            for (v, &u) in b.map[i].iter().enumerate() {
                let d = &mut morphs[k].position_deltas[u as usize];
                if *d == Vec3::ZERO {
                    *d = mt.position_deltas.get(v).copied().unwrap_or(Vec3::ZERO);
                }
            }
        }
    }
    let mut parts = vec![crate::model::Part {
        name,
        material: None,
        mesh: b.mesh.clone(),
        weights,
        morphs,
    }];
    let mut classes = vec![PartClass::Skin];
    for (i, p) in c.parts.iter().enumerate() {
        if !b.is_skin(i) {
            parts.push(p.clone());
            classes.push(b.roles[i].class);
        }
    }
    // The view keeps the character's overrides, with its welded skin told as skin,
    // so that a stage asking the view for its body finds the same roles.
    let body_options = crate::model::BodyOptions {
        body: vec![parts[0].name.clone()],
        ..c.body_options.clone()
    };
    Ok((
        Character {
            parts,
            skeleton: c.skeleton.clone(),
            vrm: c.vrm.clone(),
            warnings: c.warnings.clone(),
            body_options,
            facing_stated: c.facing_stated,
            ..Default::default()
        },
        classes,
    ))
}

/// Posed positions of every part (rest positions for unskinned parts).
pub(crate) fn pose_parts(c: &Character, m: &[Mat4], skinning: Skinning) -> Vec<Vec<Vec3>> {
    c.parts
        .iter()
        .map(|p| match &p.weights {
            Some(w) => match skinning {
                Skinning::Lbs => skin_lbs(&p.mesh.positions, w, m),
                Skinning::Dqs => skin_dqs(&p.mesh.positions, w, m),
            },
            None => p.mesh.positions.clone(),
        })
        .collect()
}

/// Every part's role in the character and why ([`crate::model::Body`]).
pub(crate) fn part_lines(c: &Character) -> Vec<super::PartLine> {
    let Ok(b) = c.body() else {
        return Vec::new();
    };
    c.parts
        .iter()
        .zip(&b.roles)
        .map(|(p, r)| super::PartLine {
            part: p.name.clone(),
            class: r.class.name().to_string(),
            reason: match &r.bone {
                Some(bone) => format!("{} (bone {bone})", r.reason),
                None => r.reason.clone(),
            },
        })
        .collect()
}

/// Posed positions (per part) of `c` in pose `p` as the runtime `rt` plays it: the
/// correctives added before skinning, DQS blended in by the file's mask (parts by
/// name); plain `skinning` where `rt` has nothing. For the "after" close-ups.
pub fn posed_runtime(
    c: &Character,
    p: &NamedPose,
    skinning: Skinning,
    rt: &super::Runtime,
) -> Vec<Vec<Vec3>> {
    let Some(s) = &c.skeleton else {
        return c.parts.iter().map(|p| p.mesh.positions.clone()).collect();
    };
    let m = posed_matrices(s, &p.pose);
    c.parts
        .iter()
        .map(|part| {
            let Some(w) = &part.weights else {
                return part.mesh.positions.clone();
            };
            let morphed =
                crate::deform::correctives::morphed_rest(part, s, &rt.correctives, &p.pose);
            let pos = morphed.as_deref().unwrap_or(&part.mesh.positions);
            match rt.dqs_masks.get(&part.name) {
                Some(sp) => {
                    let mask = crate::deform::dqs_mask::dense(sp, pos.len());
                    crate::deform::dqs_mask::skin_blend(pos, w, &m, &mask)
                }
                None => match skinning {
                    Skinning::Lbs => skin_lbs(pos, w, &m),
                    Skinning::Dqs => skin_dqs(pos, w, &m),
                },
            }
        })
        .collect()
}

/// Posed positions (per part) and posed bones `(head, tail)` of `c` in pose `p`,
/// ready for a pose sheet.
pub fn posed_character(
    c: &Character,
    p: &NamedPose,
    skinning: Skinning,
) -> (Vec<Vec<Vec3>>, Vec<(Vec3, Vec3)>) {
    let Some(s) = &c.skeleton else {
        return (
            c.parts.iter().map(|p| p.mesh.positions.clone()).collect(),
            Vec::new(),
        );
    };
    let m = posed_matrices(s, &p.pose);
    (
        pose_parts(c, &m, skinning),
        crate::pose::fk::posed_bones(s, &m),
    )
}
