//! Running the springs under a procedural motion and measuring what a lead rigger
//! looks at: does the skirt enter the legs, does any skirt joint pass between the legs,
//! does hair go into the head, and does the simulation stay stable.
//!
//! The body is driven at 60 steps per second (the frame rate the VRM runtimes step
//! springs at) by a [`Motion`]; every step the solver runs and the measures are taken
//! on the joints it moves:
//!
//! * **body entry** (the verdict's penetration): how much deeper than at rest a cloth
//!   joint, or any point of a cloth bone below the chain's root (the bone's deepest
//!   point: a bone lying across a shin can cut it with its middle while both its ends
//!   are outside), goes inside the BODY, metres (the hit radius is not counted). The
//!   body is the colliders of the chain's groups and (whatever the solver is told) the
//!   leg colliders, each measured collider taken at its MEASURED size
//!   ([`measure_colliders`] again), not at the size [`super::clear_rest_pose`] shrank
//!   it to for the VRM export: a joint that sinks into the real thigh is counted even
//!   when a thinner capsule lets it. Depth is counted from the probe's own rest depth in
//!   that collider: a skirt joint resting 1 cm inside a tight thigh capsule is
//!   penalised only for going deeper. Reported as metres and as millimetres on a 1.7 m
//!   figure.
//! * **collider penetration**: the same depth inside the sidecar's colliders as they
//!   are (shrunk or authored), from the surface.
//! * **between the legs**: a skirt joint below the hip joints that lies in the gap
//!   between the legs: its projection on the line joining the two legs' axes at its
//!   height falls between the two legs' surfaces (a joint against the inner side of one
//!   leg is at that leg) and it is within half a leg radius of that line, the legs
//!   taken at their measured size ([`super::leg_gap`]). Only leg segments within
//!   [`super::LEG_UPRIGHT_COS`] (30 degrees) of the hips' vertical count: a skirt on a
//!   crouched lap hangs between the knees without having passed between the legs.
//! * **hair in the head**: hair joints (or bones) going more than 0.3 % H deeper than
//!   at rest into a head-group collider at its measured size.
//! * **stability**: every coordinate finite and no joint faster than 40 H/s.

use glam::{Mat4, Vec3};
use serde::{Deserialize, Serialize};

use super::colliders::{measure_colliders, WorldShape};
use super::leg_gap::LegWeb;
use super::motion::Motion;
use super::sidecar::Sidecar;
use super::springs::SpringSystem;
use crate::error::{Error, Result};
use crate::geom::segment::closest_on_segment;
use crate::humanoid::Roles;
use crate::model::Character;

/// Which spring model a simulation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SpringModel {
    /// rigsmith's solver: the colliders at their measured size, each cloth bone (its
    /// tail and its whole length) kept at its own rest distance from them, sideways
    /// links between skirt panels, [`super::springs::COLLISION_ROUNDS`] collision
    /// rounds ([`SpringSystem::fit_to_body`]).
    #[default]
    Fitted,
    /// What a VRM 1.0 runtime runs on the exported file: the sidecar's colliders as
    /// exported, each joint's tail kept out by its hit radius, one collision pass, no
    /// links ([`SpringSystem::as_vrm_runtime`]). Measured the same way.
    Vrm,
}

impl SpringModel {
    /// Parses `fitted` or `vrm`.
    pub fn parse(s: &str) -> Option<SpringModel> {
        match s {
            "fitted" => Some(SpringModel::Fitted),
            "vrm" => Some(SpringModel::Vrm),
            _ => None,
        }
    }
}

/// Steps per second.
pub const STEPS_PER_SECOND: f32 = 60.0;

/// What a simulation measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// The motion.
    pub motion: Motion,
    /// The spring model simulated.
    #[serde(default)]
    pub model: SpringModel,
    /// Simulated seconds.
    pub seconds: f32,
    /// Steps taken.
    pub steps: usize,
    /// Body height H, metres.
    pub height: f32,
    /// Spring chains simulated.
    pub chains: usize,
    /// Joints simulated.
    pub joints: usize,
    /// Worst entry of a cloth (skirt) joint into the body beyond its rest depth,
    /// metres: against the colliders at their measured size (see the module docs).
    pub worst_penetration_m: f32,
    /// The same in millimetres on a 1.7 m figure (the verdict's figure).
    pub worst_penetration_mm_at_1_7m: f32,
    /// The collider and bone of the worst body entry (empty when none).
    pub worst_at: String,
    /// Worst depth of a cloth joint inside the solver's colliders as they are (shrunk
    /// to clear the rest pose, or authored), mm on a 1.7 m figure.
    pub worst_collider_mm_at_1_7m: f32,
    /// Where that was.
    pub worst_collider_at: String,
    /// Worst collider penetration of any other spring joint (hair, ribbons...), mm on a
    /// 1.7 m figure: reported, not part of the verdict (hair in the head is).
    pub worst_other_mm_at_1_7m: f32,
    /// Where that was.
    pub worst_other_at: String,
    /// Distinct skirt (cloth) joints that were ever between the legs.
    pub skirt_joints_between_legs: usize,
    /// The first skirt joint found between the legs and when (empty when none).
    pub between_at: String,
    /// Distinct hair joints that were ever inside a head collider.
    pub hair_in_head: usize,
    /// Largest joint speed, H per second.
    pub max_speed_h: f32,
    /// Largest angle between a joint's bone and its rest direction (after its parent's
    /// motion), degrees: evidence the chains swing.
    pub max_swing_deg: f32,
    /// Every coordinate stayed finite and speeds bounded.
    pub stable: bool,
    /// The verdict: stable, worst body entry under 5 mm at 1.7 m, no skirt
    /// joint between the legs, no hair in the head.
    pub passed: bool,
}

/// One recorded step: the simulated joints' tails per chain and the skinning matrices.
#[derive(Debug, Clone, PartialEq)]
pub struct SimFrame {
    /// Time, seconds.
    pub time: f32,
    /// Skinning matrices (rest -> posed), one per bone.
    pub skin: Vec<Mat4>,
    /// Tails per spring chain (world, metres).
    pub tails: Vec<Vec<Vec3>>,
}

/// A sphere or capsule collider placed at one frame (world, metres); a sphere has
/// `a == b`.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameCollider {
    /// One end.
    pub a: Vec3,
    /// The other end.
    pub b: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// The collider's group (`legs`, `waist`, `head`...).
    pub group: String,
}

impl SimFrame {
    /// Every part's vertices posed by the frame's skinning matrices (linear blend; a
    /// part without weights stays at rest), in part order.
    pub fn posed_parts(&self, c: &Character) -> Vec<Vec<Vec3>> {
        c.parts
            .iter()
            .map(|p| match &p.weights {
                Some(w) => crate::pose::skin_lbs(&p.mesh.positions, w, &self.skin),
                None => p.mesh.positions.clone(),
            })
            .collect()
    }

    /// The sidecar's sphere and capsule colliders placed at the frame, in sidecar
    /// order (planes and colliders on missing bones are left out).
    pub fn colliders(&self, c: &Character, sc: &Sidecar) -> Vec<FrameCollider> {
        let Some(skel) = &c.skeleton else {
            return Vec::new();
        };
        sc.colliders
            .iter()
            .filter_map(|col| {
                let i = skel.find(&col.bone)?;
                let (a, b, radius) = match col.world(&(self.skin[i] * skel.bones[i].rest_matrix()))
                {
                    WorldShape::Sphere(a, r) => (a, a, r),
                    WorldShape::Capsule(a, b, r) => (a, b, r),
                    WorldShape::Plane(..) => return None,
                };
                Some(FrameCollider {
                    a,
                    b,
                    radius,
                    group: col.group.clone(),
                })
            })
            .collect()
    }

    /// The spring joint deepest inside any of `colliders` at the frame: its depth
    /// (metres) and position.
    pub fn deepest_joint(&self, colliders: &[FrameCollider]) -> Option<(f32, Vec3)> {
        let mut worst: Option<(f32, Vec3)> = None;
        for q in self.tails.iter().flatten() {
            for col in colliders {
                let d = col.radius - (*q - closest_on_segment(*q, col.a, col.b)).length();
                if d > 0.0 && worst.map_or(true, |w| d > w.0) {
                    worst = Some((d, *q));
                }
            }
        }
        worst
    }
}

/// Simulates `seconds` of `motion` and reports the measures.
pub fn simulate(
    c: &Character,
    sidecar: &Sidecar,
    motion: Motion,
    seconds: f32,
) -> Result<SimReport> {
    run(
        c,
        sidecar,
        motion,
        seconds,
        SpringModel::Fitted,
        None,
        &mut |_| {},
    )
}

/// Like [`simulate`] with the spring model chosen: [`SpringModel::Vrm`] measures what a
/// VRM runtime does with the exported file.
pub fn simulate_model(
    c: &Character,
    sidecar: &Sidecar,
    motion: Motion,
    seconds: f32,
    model: SpringModel,
) -> Result<SimReport> {
    run(c, sidecar, motion, seconds, model, None, &mut |_| {})
}

/// Like [`simulate_frames`], with the body driven by `drive` instead of a procedural
/// motion: `drive(t)` returns the skinning matrices (rest -> posed, one per bone of the
/// character's skeleton) at `t` seconds, e.g. a glTF clip through
/// [`crate::io::gltf::animation::Animations::skinning`]. The report's motion is
/// [`Motion::Animation`].
pub fn simulate_driven(
    c: &Character,
    sidecar: &Sidecar,
    model: SpringModel,
    seconds: f32,
    every: usize,
    drive: &dyn Fn(f32) -> Vec<Mat4>,
) -> Result<(SimReport, Vec<SimFrame>)> {
    let mut frames = Vec::new();
    let every = every.max(1);
    let mut k = 0usize;
    let rep = run(
        c,
        sidecar,
        Motion::Animation,
        seconds,
        model,
        Some(drive),
        &mut |f| {
            if k % every == 0 {
                frames.push(f.clone());
            }
            k += 1;
        },
    )?;
    Ok((rep, frames))
}

/// Like [`simulate`], also returning every `every`-th step for drawing.
pub fn simulate_frames(
    c: &Character,
    sidecar: &Sidecar,
    motion: Motion,
    model: SpringModel,
    seconds: f32,
    every: usize,
) -> Result<(SimReport, Vec<SimFrame>)> {
    let mut frames = Vec::new();
    let every = every.max(1);
    let mut k = 0usize;
    let rep = run(c, sidecar, motion, seconds, model, None, &mut |f| {
        if k % every == 0 {
            frames.push(f.clone());
        }
        k += 1;
    })?;
    Ok((rep, frames))
}

/// A simulation's spring system, the body it is measured against (every measured
/// collider at its measured size, authored ones as they are) and the web between the
/// legs.
struct Setup {
    sys: SpringSystem,
    body_cols: Vec<(super::colliders::Collider, usize)>,
    /// The sidecar's colliders as they are (what the VRM carries).
    vrm_cols: Vec<(super::colliders::Collider, usize)>,
    web: Option<LegWeb>,
}

fn setup(c: &Character, sc: &Sidecar, roles: &Roles, model: SpringModel) -> Result<Setup> {
    let skel = c
        .skeleton
        .as_ref()
        .ok_or_else(|| Error::stage("simulate", "the character has no skeleton"))?;
    let mut sys = SpringSystem::new(skel, sc)?;
    let legs: Vec<usize> = sys
        .colliders
        .iter()
        .enumerate()
        .filter(|(_, (c, b))| c.group == "legs" && roles.is_leg(*b))
        .map(|(i, _)| i)
        .collect();
    let hip_y0 = roles
        .upper_leg
        .iter()
        .flatten()
        .map(|&i| skel.bones[i].head.y)
        .fold(f32::NEG_INFINITY, f32::max);
    let vrm_colliders = sys.colliders.clone();
    sys = sys.fit_to_body(skel, &measure_colliders(c));
    let body_cols = sys.colliders.clone();
    let web = roles.hips.map(|hips| LegWeb { legs, hips, hip_y0 });
    match (model, &web) {
        (SpringModel::Fitted, Some(w)) => sys = sys.with_leg_web(skel, w.clone()),
        (SpringModel::Fitted, None) => {}
        (SpringModel::Vrm, _) => {
            sys.colliders = vrm_colliders.clone();
            sys = sys.as_vrm_runtime();
        }
    }
    Ok(Setup {
        sys,
        body_cols,
        vrm_cols: vrm_colliders,
        web,
    })
}

/// The spring system [`simulate_model`] runs for `model`: for [`SpringModel::Fitted`]
/// the colliders at their measured size with every joint's rest distance and the web
/// between the legs, for [`SpringModel::Vrm`] the VRM runtime's model. Step it with
/// [`SpringSystem::step`].
pub fn spring_system(c: &Character, sc: &Sidecar, model: SpringModel) -> Result<SpringSystem> {
    let skel = c
        .skeleton
        .as_ref()
        .ok_or_else(|| Error::stage("simulate", "the character has no skeleton"))?;
    let roles = Roles::of(skel, c.vrm.as_ref().map(|v| &v.humanoid));
    Ok(setup(c, sc, &roles, model)?.sys)
}

/// Rest depth of every probe (the tail; the bone's deepest point) of every chain joint
/// in every body collider: `[chain][joint][collider][probe]`.
type RestDepth = Vec<Vec<Vec<[f32; 2]>>>;

fn rest_depths(
    sys: &SpringSystem,
    body_cols: &[(super::colliders::Collider, usize)],
    skel: &crate::model::Skeleton,
) -> RestDepth {
    let rest_body = sys_world(body_cols, skel, &vec![Mat4::IDENTITY; skel.len()]);
    sys.chains
        .iter()
        .map(|(_, joints)| {
            joints
                .iter()
                .map(|j| {
                    rest_body
                        .iter()
                        .map(|s| {
                            [
                                (-s.signed_distance(j.rest_tail)).max(0.0),
                                (-s.segment_depth(j.rest_head, j.rest_tail).1).max(0.0),
                            ]
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// The worst values seen over a run's steps.
#[derive(Default)]
struct Tally {
    worst: (f32, String),
    worst_collider: (f32, String),
    worst_other: (f32, String),
    between: std::collections::BTreeSet<(usize, usize)>,
    between_at: String,
    in_head: std::collections::BTreeSet<(usize, usize)>,
    max_speed: f32,
    max_swing: f32,
    infinite: bool,
}

/// One step's world: the skinning matrices, the colliders at their measured size
/// (`bshapes`) and as the sidecar has them (`shapes`), the web between the legs.
struct StepWorld<'a> {
    skel: &'a crate::model::Skeleton,
    roles: &'a Roles,
    h: f32,
    t: f32,
    skin: &'a [Mat4],
    bshapes: &'a [WorldShape],
    shapes: &'a [WorldShape],
    web_frame: Option<&'a super::leg_gap::WebFrame>,
    rest_depth: &'a RestDepth,
}

impl Tally {
    /// Measures every chain joint of `sys` after one step.
    fn step(&mut self, sys: &SpringSystem, w: &StepWorld<'_>, tails: &[Vec<Vec3>]) {
        for (ci, (class, joints)) in sys.chains.iter().enumerate() {
            for (k, j) in joints.iter().enumerate() {
                let p = tails[ci][k];
                if !p.is_finite() {
                    self.infinite = true;
                    continue;
                }
                // Swing angle against the rest direction after the parent's motion.
                let sp = j.parent.map_or(Mat4::IDENTITY, |q| w.skin[q]);
                let head = sp.transform_point3(j.rest_head);
                let rest = sp.transform_vector3(j.rest_tail - j.rest_head);
                if let (Some(a), Some(b)) = ((p - head).try_normalize(), rest.try_normalize()) {
                    self.max_swing = self
                        .max_swing
                        .max(a.dot(b).clamp(-1.0, 1.0).acos().to_degrees());
                }
                self.probe(sys, w, (ci, k), class, (head, p), j.bone);
                let cloth = super::chains::is_cloth_class(class);
                if cloth
                    && w.web_frame
                        .and_then(|f| f.gap(p))
                        .is_some_and(|g| g.between())
                {
                    if self.between.is_empty() {
                        let q = w.skin[w.roles.hips.unwrap_or(0)]
                            .inverse()
                            .transform_point3(p);
                        self.between_at = format!(
                            "{} at {:.2} s (hips frame {:.3} {:.3} {:.3})",
                            w.skel.bones[j.bone].name, w.t, q.x, q.y, q.z
                        );
                    }
                    self.between.insert((ci, k));
                }
            }
        }
    }

    /// Probes: the tail; for a bone below the chain's root, the whole bone (its deepest
    /// point), its head where the solver put its parent.
    fn probe(
        &mut self,
        sys: &SpringSystem,
        w: &StepWorld<'_>,
        (ci, k): (usize, usize),
        class: &str,
        (head, p): (Vec3, Vec3),
        bone: usize,
    ) {
        let cloth = super::chains::is_cloth_class(class);
        for (ci2, (col, _)) in sys.colliders.iter().enumerate() {
            let measured = sys.chain_colliders[ci].contains(&ci2)
                || (cloth && col.group == "legs")
                || (class == "hair" && col.group == "head");
            if col.inside || !measured {
                continue;
            }
            for pi in 0..1 + usize::from(k > 0) {
                let depth_in = |s: &WorldShape| {
                    if pi == 0 {
                        -s.signed_distance(p)
                    } else {
                        -s.segment_depth(head, p).1
                    }
                };
                let depth = depth_in(&w.shapes[ci2]);
                let at = || {
                    format!(
                        "{}{} in {} at {:.2} s",
                        w.skel.bones[bone].name,
                        if pi == 1 { " (bone)" } else { "" },
                        col.name,
                        w.t
                    )
                };
                let slot = if cloth {
                    &mut self.worst_collider
                } else {
                    &mut self.worst_other
                };
                if depth > slot.0 {
                    *slot = (depth, at());
                }
                let entry = depth_in(&w.bshapes[ci2]) - w.rest_depth[ci][k][ci2][pi];
                if cloth && entry > self.worst.0 {
                    self.worst = (entry, at());
                }
                if class == "hair" && col.group == "head" && entry > 0.003 * w.h {
                    self.in_head.insert((ci, k));
                }
            }
        }
    }

    fn report(
        self,
        sys: &SpringSystem,
        (motion, model): (Motion, SpringModel),
        seconds: f32,
        steps: usize,
        h: f32,
    ) -> SimReport {
        let stable = !self.infinite && self.max_speed.is_finite() && self.max_speed < 40.0;
        let mm = self.worst.0 / h * 1.7 * 1000.0;
        SimReport {
            motion,
            model,
            seconds,
            steps,
            height: h,
            chains: sys.chains.len(),
            joints: sys.chains.iter().map(|c| c.1.len()).sum(),
            worst_penetration_m: self.worst.0,
            worst_penetration_mm_at_1_7m: mm,
            worst_at: self.worst.1,
            worst_collider_mm_at_1_7m: self.worst_collider.0 / h * 1.7 * 1000.0,
            worst_collider_at: self.worst_collider.1,
            worst_other_mm_at_1_7m: self.worst_other.0 / h * 1.7 * 1000.0,
            worst_other_at: self.worst_other.1,
            skirt_joints_between_legs: self.between.len(),
            between_at: self.between_at,
            hair_in_head: self.in_head.len(),
            max_speed_h: self.max_speed,
            max_swing_deg: self.max_swing,
            stable,
            passed: stable && mm < 5.0 && self.between.is_empty() && self.in_head.is_empty(),
        }
    }
}

fn run(
    c: &Character,
    sc: &Sidecar,
    motion: Motion,
    seconds: f32,
    model: SpringModel,
    drive: Option<&dyn Fn(f32) -> Vec<Mat4>>,
    sink: &mut dyn FnMut(&SimFrame),
) -> Result<SimReport> {
    let skel = c
        .skeleton
        .as_ref()
        .ok_or_else(|| Error::stage("simulate", "the character has no skeleton"))?;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 600.0) {
        return Err(Error::stage(
            "simulate",
            format!("seconds must be in (0, 600], got {seconds}"),
        ));
    }
    let h = if sc.height > 0.0 {
        sc.height
    } else {
        c.height()
    };
    let roles = Roles::of(skel, c.vrm.as_ref().map(|v| &v.humanoid));
    let dt = 1.0 / STEPS_PER_SECOND;
    let steps = (seconds * STEPS_PER_SECOND).round().max(1.0) as usize;
    let Setup {
        mut sys,
        body_cols,
        vrm_cols: vrm_colliders,
        web,
    } = setup(c, sc, &roles, model)?;
    let rest_depth = rest_depths(&sys, &body_cols, skel);
    let mut tally = Tally::default();
    let mut prev_tails: Option<Vec<Vec<Vec3>>> = None;
    for s in 0..steps {
        let t = (s + 1) as f32 * dt;
        let mut skin = match drive {
            Some(d) => d(t),
            None => motion.pose(skel, &roles, h, t).skinning(skel),
        };
        if skin.len() != skel.len() {
            return Err(Error::stage(
                "simulate",
                format!(
                    "the motion gave {} matrices for {} bones",
                    skin.len(),
                    skel.len()
                ),
            ));
        }
        sys.step(skel, &mut skin, dt);
        let bshapes = sys_world(&body_cols, skel, &skin);
        let web_frame = web.as_ref().map(|w| w.frame(&bshapes, &skin));
        let shapes = sys_world(&vrm_colliders, skel, &skin);
        let tails = sys.tails().to_vec();
        let w = StepWorld {
            skel,
            roles: &roles,
            h,
            t,
            skin: &skin,
            bshapes: &bshapes,
            shapes: &shapes,
            web_frame: web_frame.as_ref(),
            rest_depth: &rest_depth,
        };
        tally.step(&sys, &w, &tails);
        if let Some(pt) = &prev_tails {
            for (a, b) in pt.iter().flatten().zip(tails.iter().flatten()) {
                tally.max_speed = tally.max_speed.max((*b - *a).length() / dt / h);
            }
        }
        sink(&SimFrame {
            time: t,
            skin,
            tails: tails.clone(),
        });
        prev_tails = Some(tails);
    }
    Ok(tally.report(&sys, (motion, model), seconds, steps, h))
}

/// The world shapes of `cols` (collider and bone index) for skinning matrices `skin`.
fn sys_world(
    cols: &[(super::colliders::Collider, usize)],
    skel: &crate::model::Skeleton,
    skin: &[Mat4],
) -> Vec<WorldShape> {
    cols.iter()
        .map(|(c, b)| c.world(&(skin[*b] * skel.bones[*b].rest_matrix())))
        .collect()
}
