//! Beyond bipeds: the body plan from the sections, quadruped landmarks and templates,
//! and a plain chain for creatures that are neither.
//!
//! [`fit_plan`] is the entry point of `fit --template auto|quadruped|horse|wolf|cat|chain`
//! and of `rig`: it reads the body plan from horizontal cross-sections near the floor
//! ([`classify`]: two leg sections a biped, four in a front and a back pair a
//! quadruped), says why, and fits the matching template. A body that is neither (a
//! snake, a spider, a bird with spread wings, three legs) is refused naming what the
//! sections showed, unless a chain is asked for.
//!
//! ## Quadruped landmarks
//! All in units of the body height `H` and the body length; each [`Landmark`](crate::fit::Landmark)
//! carries its method and a confidence.
//!
//! * **Facing** from the head: beyond the front and the back pair of legs, the end
//!   with the higher point holds the head. A body facing -Z is measured turned half a
//!   turn and the result turned back.
//! * **Legs.** Each of the four leg sections is followed by horizontal cuts up until
//!   its loop joins the trunk (spans the centre plane or grows past 1.8x) and down to
//!   the floor. The hip (shoulder) joint sits above the leg's top, 40% of the way to the
//!   spine; knee and elbow, hock and wrist, paw lie on the leg's centre line at
//!   fractions of its free length set by the build (a horse's hock is higher than a
//!   cat's); the toe tip is the foot's front near the floor. A hind foot whose contact
//!   with the floor is longer than 3.5 leg radii is **plantigrade** (the hock goes to
//!   the heel), else **digitigrade**. Pre-bends: the hind knee forward and the hock
//!   back, the front elbow back and the wrist forward, at least
//!   [`landmarks::MIN_BEND_DEG`]. Left and right are measured apart and averaged as
//!   mirror images.
//! * **Spine.** On the centre plane, 62% of the way from the belly to the back, at the
//!   sacrum (behind the hips), three points along the trunk and the chest (over the
//!   shoulders).
//! * **Neck and head.** From the front-most point above the legs (the snout), cuts
//!   normal to the running direction are marched back toward the chest; the narrowest
//!   cut between 25% and 85% of the way is the head pivot, the centres behind it the
//!   neck. The jaw hinge and the chin are estimates (confidence 0.4).
//! * **Ears.** From the top of the head down, a loop each side of the centre plane
//!   followed until it joins the skull: base, middle and tip.
//! * **Tail.** Cuts marched back from the sacrum: once the rump's loops have shrunk to
//!   half, the centres are the tail's; 3 to 8 bones by length and build.
//!
//! ## Chain
//! [`Plan::Chain`] (the chain template) fits a chain of eight bones along the body's longest principal
//! axis, each joint at the centre of the largest loop of a cut normal to it.

mod checks;
mod classify;
mod landmarks;
mod model;
mod template;
mod track;

use glam::Vec3;
use serde::Serialize;

pub(crate) use checks::quadruped_checks_with;
pub use checks::{quadruped_checks, Rule, Test, RULES};
pub use classify::{classify, BodyPlan, Classification, SIDEWAYS};
pub use landmarks::MIN_BEND_DEG;
pub use model::{model_check_for, quadruped_model_check, QUADRUPED_PLAN};
pub use template::{rows, tail_name, Row};

use super::fitting::{fit, FitOptions, FitResult};
use super::landmarks::{body_mesh, Landmark, LandmarkOptions, Landmarks};
use super::placement::landmark_checks;
use crate::error::{Error, Result};
use crate::model::{Bone, Character, Mesh, Skeleton};

/// The quadruped template's build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum QuadrupedKind {
    /// A basic quadruped: two neck bones, one bone an ear, 3 to 6 tail bones.
    #[default]
    Quadruped,
    /// A horse: hooves, a long neck (three bones), high hocks.
    Horse,
    /// A wolf (or dog): paws, two bones an ear, 4 to 8 tail bones, a jaw.
    Wolf,
    /// A cat: as the wolf, low hocks.
    Cat,
}

/// The end of a refusal that names the chain template ([`Plan::Chain`]), the fit for
/// a body that is neither a biped nor a quadruped. A program offering the chain under
/// another name (a command-line flag) finds the refusal by this text.
pub const CHAIN_HINT: &str = "the chain template fits a chain instead";

/// Which body plan to fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Plan {
    /// The biped templates only (what `fit` always did).
    #[default]
    Biped,
    /// Biped or quadruped, read from the sections.
    Auto,
    /// A quadruped of this build.
    Quadruped(QuadrupedKind),
    /// A chain along the body's long axis.
    Chain,
}

impl Plan {
    /// Parses `auto`, `quadruped`, `horse`, `wolf`, `cat` or `chain`; `None` for any
    /// other word (a biped template's name).
    pub fn parse(s: &str) -> Option<Plan> {
        Some(match s.to_ascii_lowercase().as_str() {
            "auto" => Plan::Auto,
            "quadruped" => Plan::Quadruped(QuadrupedKind::Quadruped),
            "horse" => Plan::Quadruped(QuadrupedKind::Horse),
            "wolf" | "dog" => Plan::Quadruped(QuadrupedKind::Wolf),
            "cat" => Plan::Quadruped(QuadrupedKind::Cat),
            "chain" => Plan::Chain,
            _ => return None,
        })
    }
}

/// What [`fit_plan`] returns: the fit, the plan it used and why.
#[derive(Debug, Clone, Serialize)]
pub struct PlanFit {
    /// The fit.
    pub fit: FitResult,
    /// `biped`, `quadruped (wolf)`, `chain`.
    pub plan: String,
    /// Why that plan, naming what the sections showed.
    pub why: String,
}

/// Fits the character under `plan` (see the module docs); the biped templates use
/// `o.template`.
pub fn fit_plan(c: &Character, o: &FitOptions, plan: Plan) -> Result<PlanFit> {
    let biped = |why: String| -> Result<PlanFit> {
        Ok(PlanFit {
            fit: fit(c, o)?,
            plan: "biped".into(),
            why,
        })
    };
    match plan {
        Plan::Biped => biped("a biped template was asked for".into()),
        Plan::Chain => Ok(PlanFit {
            fit: fit_chain(c, o)?,
            plan: "chain".into(),
            why: "a chain was asked for".into(),
        }),
        Plan::Auto | Plan::Quadruped(_) => {
            let (body, what) = body_mesh(c, &lopts(o))?;
            let cls = classify(&body);
            match (plan, cls.plan) {
                (Plan::Auto, BodyPlan::Biped) => biped(cls.why),
                (Plan::Auto, BodyPlan::Neither) if upright_unsure(&body, &cls) => {
                    let why = format!(
                        "{}; the body stands upright as a biped does: fitted as a biped",
                        cls.why
                    );
                    fit(c, o)
                        .map(|fit| PlanFit {
                            fit,
                            plan: "biped".into(),
                            why: why.clone(),
                        })
                        .map_err(|e| {
                            Error::stage(
                                "fit",
                                format!("body plan of {what}: {why}: {e}; {CHAIN_HINT}"),
                            )
                        })
                }
                (Plan::Auto, BodyPlan::Quadruped) => {
                    quad(c, &body, &cls, o, QuadrupedKind::Quadruped)
                }
                (Plan::Quadruped(k), BodyPlan::Quadruped) => quad(c, &body, &cls, o, k),
                _ => Err(Error::stage(
                    "fit",
                    format!(
                        "body plan of {what}: {}{}; {CHAIN_HINT}",
                        cls.why,
                        if matches!(plan, Plan::Quadruped(_)) {
                            ": a quadruped template was asked for"
                        } else {
                            ""
                        }
                    ),
                )),
            }
        }
    }
}

/// Whether a body the sections call neither may still be a biped they could not read
/// (legs joined by a garment, a figure in a long dress, boots modelled as shells over
/// the legs): it stands upright (height at least half its width and its length, as a
/// biped does) and either shows at most two leg sections or is wider across X than
/// long along Z (arms out, as a biped stands; a four-legged animal is longer than
/// wide).
fn upright_unsure(body: &Mesh, cls: &Classification) -> bool {
    let (lo, hi) = body.bounds();
    let ext = hi - lo;
    ext.y >= 0.5 * ext.x.max(ext.z) && (cls.legs <= 2 || ext.x >= ext.z)
}

fn lopts(o: &FitOptions) -> LandmarkOptions {
    LandmarkOptions {
        body_part: None,
        parts: o.parts.clone(),
        overrides: o.overrides.clone(),
    }
}

fn quad(
    _c: &Character,
    body: &Mesh,
    cls: &Classification,
    o: &FitOptions,
    kind: QuadrupedKind,
) -> Result<PlanFit> {
    let fit = fit_quadruped_on(body, cls, o, kind)?;
    Ok(PlanFit {
        fit,
        plan: format!("quadruped ({})", kind_name(kind)),
        why: cls.why.clone(),
    })
}

/// The template's name as the CLI spells it.
pub fn kind_name(k: QuadrupedKind) -> &'static str {
    match k {
        QuadrupedKind::Quadruped => "quadruped",
        QuadrupedKind::Horse => "horse",
        QuadrupedKind::Wolf => "wolf",
        QuadrupedKind::Cat => "cat",
    }
}

/// Fits a quadruped template to the character's body; refuses a body whose sections do
/// not show a quadruped, naming what they showed.
pub fn fit_quadruped(c: &Character, o: &FitOptions, kind: QuadrupedKind) -> Result<FitResult> {
    Ok(fit_plan(c, o, Plan::Quadruped(kind))?.fit)
}

fn fit_quadruped_on(
    body: &Mesh,
    cls: &Classification,
    o: &FitOptions,
    kind: QuadrupedKind,
) -> Result<FitResult> {
    let (mut lm, _frame) = landmarks::find(body, cls, kind)?;
    crate::fit::landmarks::apply_overrides(&mut lm, &o.overrides)?;
    let skeleton = template::skeleton(kind, &lm)?;
    let mut checks = checks::quadruped_checks(&skeleton, body);
    let used: Vec<String> = template::rows(kind, &lm)
        .iter()
        .flat_map(|r| [r.head.clone(), r.tail.clone()])
        .filter(|n| n != "neck_mid")
        .collect();
    checks.extend(landmark_checks(&lm, &used));
    Ok(FitResult {
        skeleton,
        landmarks: lm,
        checks,
        humanoid: Default::default(),
    })
}

/// Bones of the chain template (fewer on a mesh with fewer vertex levels along its
/// length, [`chain_bone_count`]).
pub const CHAIN_BONES: usize = 8;

/// Vertices closer than this share of the body's length along the chain's axis lie on
/// one level ([`chain_bone_count`]).
pub const CHAIN_LEVEL_TOL: f32 = 1e-3;

/// How many bones a chain gets over a body whose vertices lie at `t` along its axis:
/// [`CHAIN_BONES`], but no more than the body's vertex levels along the axis less one:
/// runs of `t` with no gap wider than [`CHAIN_LEVEL_TOL`] of the length, a ring one
/// level and a run a bone's length long or longer one more per bone length. A bone whose span holds no
/// vertex moves nothing: a cylinder with a ring at each end and one in the middle takes
/// two bones, where eight left five of them empty.
pub fn chain_bone_count(t: &[f32]) -> usize {
    let mut t: Vec<f32> = t.iter().copied().filter(|x| x.is_finite()).collect();
    t.sort_by(f32::total_cmp);
    let (Some(&lo), Some(&hi)) = (t.first(), t.last()) else {
        return 1;
    };
    let tol = CHAIN_LEVEL_TOL * (hi - lo);
    let step = (hi - lo) / CHAIN_BONES as f32;
    // Runs of `t` with no gap wider than `tol`: a ring is one level, and a run as long
    // as a bone or longer (the dense rows of a finer mesh) one more per bone it spans.
    let mut levels = 0usize;
    let mut start = lo;
    for (i, &x) in t.iter().enumerate() {
        let last = t.get(i + 1).map_or(true, |&y| y - x > tol);
        if last {
            levels += 1 + if step > 0.0 {
                ((x - start) / step) as usize
            } else {
                0
            };
            if let Some(&y) = t.get(i + 1) {
                start = y;
            }
        }
    }
    levels.saturating_sub(1).clamp(1, CHAIN_BONES)
}

/// Fits a chain of [`CHAIN_BONES`] bones along the body's longest principal axis (fewer
/// on a coarse mesh: [`chain_bone_count`]).
pub fn fit_chain(c: &Character, o: &FitOptions) -> Result<FitResult> {
    let (body, what) = body_mesh(c, &lopts(o))?;
    body.validate(&what)?;
    if body.triangles.is_empty() {
        return Err(Error::stage(
            "fit",
            format!("body: {what} has no triangles: nothing to fit a chain to"),
        ));
    }
    let n = body.positions.len() as f32;
    let mean = body.positions.iter().copied().sum::<Vec3>() / n;
    let mut cov = glam::Mat3::ZERO;
    for p in &body.positions {
        let d = *p - mean;
        cov += glam::Mat3::from_cols(d * d.x, d * d.y, d * d.z);
    }
    let axis = super::landmarks::principal_axis(cov * (1.0 / n)).normalize_or_zero();
    let axis = if axis == Vec3::ZERO { Vec3::Z } else { axis };
    let t: Vec<f32> = body
        .positions
        .iter()
        .map(|p| (*p - mean).dot(axis))
        .collect();
    let (t0, t1) = t
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let slicer = super::sections::Slicer::new(&body, axis, 128);
    let nb = chain_bone_count(&t);
    let mut pts = Vec::new();
    for k in 0..=nb {
        let s = t0 + (t1 - t0) * (0.02 + 0.96 * k as f32 / nb as f32);
        let q = mean + axis * s;
        let p = slicer
            .cut(q)
            .into_iter()
            .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
            .map_or(q, |l| l.center);
        pts.push(p);
    }
    let mut bones: Vec<Bone> = Vec::new();
    let mut lm = Landmarks {
        height: body.bounds().1.y - body.bounds().0.y,
        floor: body.bounds().0.y,
        center_x: mean.x,
        pose: "chain".into(),
        ..Default::default()
    };
    for k in 0..nb {
        let name = if k == 0 {
            "chain".to_string()
        } else {
            format!("chain.{k:03}")
        };
        bones.push(Bone::new(name, k.checked_sub(1), pts[k], pts[k + 1]));
    }
    for (k, p) in pts.iter().enumerate() {
        lm.points.insert(
            format!("chain_{k:02}"),
            Landmark {
                position: *p,
                method: "sections: centre of the largest loop normal to the long axis".into(),
                confidence: 0.8,
            },
        );
    }
    let skeleton = Skeleton { bones };
    skeleton.validate()?;
    Ok(FitResult {
        skeleton,
        landmarks: lm,
        checks: Vec::new(),
        humanoid: Default::default(),
    })
}

#[cfg(test)]
mod chain_tests {
    use super::*;

    #[test]
    fn a_chain_has_no_more_bones_than_vertex_levels_less_one() {
        // Three rings (a cylinder's ends and middle), each of 8 vertices.
        let rings: Vec<f32> = [0.0f32, 0.5, 1.0]
            .iter()
            .flat_map(|&y| std::iter::repeat(y).take(8))
            .collect();
        assert_eq!(chain_bone_count(&rings), 2);
        // Vertices a rounding apart are one level.
        let fuzzy: Vec<f32> = rings
            .iter()
            .enumerate()
            .map(|(i, y)| y + 1e-5 * i as f32)
            .collect();
        assert_eq!(chain_bone_count(&fuzzy), 2);
        // A dense body keeps the template's count.
        let dense: Vec<f32> = (0..400).map(|i| i as f32 / 399.0).collect();
        assert_eq!(chain_bone_count(&dense), CHAIN_BONES);
        assert_eq!(chain_bone_count(&[]), 1);
        assert_eq!(chain_bone_count(&[0.0, 0.0]), 1);
    }
}
