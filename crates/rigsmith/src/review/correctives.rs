//! Corrective shapes by inverse skinning, for the joints the review flags, on both
//! sides: the elbow in `elbow_120` and the knee in `knee_120` (hinges), the shoulder
//! with the arm raised (`arm_up`) and lowered (`arm_down`), the hip with the leg
//! forward (`leg_forward`) (ball joints).
//!
//! For each joint, in its test pose as the runtime plays it (twist rules and the
//! preserve-volume mask applied):
//!
//! 1. **Volume-restore target.** Every flesh vertex the joint carries
//!    ([`volume::flesh_along`], [`volume::carried`]) is pushed along its line from the
//!    posed limb axis back to its rest distance from the axis (at most [`MAX_PUSH`]
//!    times its posed distance), the push faded along the limb (1 near the joint
//!    centre, then a cosine to 0 at the options' reach, half a segment away);
//! 2. **relax**: [`RELAX_PASSES`] passes ([`ELBOW_RELAX_PASSES`] at the elbow) average
//!    the posed offset field over the mesh edges (vertices outside the flesh keep 0),
//!    so no crease spikes;
//! 3. **inverse skinning**: the per-vertex 3x3 map from a rest offset to a posed
//!    displacement is measured by skinning the vertex moved along X, Y and Z (exact at
//!    the pose: the skinning is affine in the rest position); the rest offset is the
//!    map's inverse applied to the posed one. A vertex whose map is singular gets no
//!    offset and is counted; a non-finite offset is dropped the same way; then
//!    [`REST_RELAX_PASSES`] passes relax the rest-space offsets where they are
//!    non-zero (the inverse map amplifies in the crease);
//! 4. **again**: more passes (five in all, [`ELBOW_PASSES`] (24) at the elbow) target the rest distances from the
//!    positions the previous ones give, restoring what the fade and the relax passes
//!    left;
//! 5. **no spikes**: along every edge, the two ends' offsets may differ by at most
//!    0.4 times the edge's length; an edge over it pulls its ends together until
//!    none is (`limit_strain`), so the shape stays within the smoothness check.
//!
//! The offsets become the morph target `CS_elbow_l` (...) of the skin parts; each
//! garment gets its own target of the same name, moved as the skin under it and kept
//! out of the body ([`super::garment_correctives`]). Each has a
//! [`CorrectiveDriver`] ([`crate::deform::correctives`]): the angle between the two bones' axes, 0 at [`RAMP_FROM_DEG`], 1 at
//! [`RAMP_TO_DEG`], a smoothstep in between (flat start: it kicks in late, 0.35 at
//! 70 deg), constant outside; a joint modelled bent starts its ramp
//! [`REST_MARGIN_DEG`] past its rest bend. A ball joint's driver reads the swing of
//! the distal bone toward its direction in the pose (so arm-up and arm-down drive
//! different shapes), with the same ramp scaled to reach 1 at the pose's swing. The right side is built from its own pose, so it
//! mirrors the left; each corrective's offsets lie on its own side.
//!
//! [`corrective_checks`] judges them (section E): 0 at rest, 1 at the pose and about
//! 0.4 at 70 deg, no offset on the other side, a smooth offset field (the largest
//! edge strain it adds in its pose bounded).

use std::collections::BTreeMap;

use glam::Vec3;
use rayon::prelude::*;

pub use super::offset_field::STRAIN_ITERATIONS;
use super::offset_field::{inverse_map, limit_strain, neighbours, relax};
use super::volume;
use crate::deform::correctives::{Corrective, CorrectiveDriver};
use crate::humanoid::{Role, Roles};
use crate::model::naming::Side;
use crate::model::{Character, MorphTarget, Weights};
use crate::pose::{posed_matrices, Pose};
use crate::report::{Check, Severity};

/// Driver ramp start, degrees between the two bones: the corrective is 0 below.
pub const RAMP_FROM_DEG: f32 = 40.0;
/// Driver ramp end, degrees: the corrective is 1 above.
pub const RAMP_TO_DEG: f32 = 115.0;
/// Relax passes over the offset field.
pub const RELAX_PASSES: usize = 12;
/// How far past a joint's rest bend (degrees) its corrective's ramp starts at the
/// earliest (MakeHuman's A pose bends the elbows up to 60 deg at rest).
pub const REST_MARGIN_DEG: f32 = 10.0;
/// Relax passes over the rest-space offsets after the inverse map.
pub const REST_RELAX_PASSES: usize = 6;
/// Relax passes over the elbow's posed offset field. The inner crease of a short,
/// chubby arm (the MakeHuman baby) is a thin band between two fleshy segments: twelve
/// passes averaged its push away (the forearm's first sixth restored to 0.81, limit
/// 0.85); four passes and [`ELBOW_PASSES`] restore it to 0.89. The knee keeps
/// [`RELAX_PASSES`]: so few passes lowered the knees of `short` and the baby to 0.84.
pub const ELBOW_RELAX_PASSES: usize = 4;
/// Target-and-invert passes of the elbow's corrective (five for the other joints).
/// Eight left the platformer chibi's short, thick forearm at 0.837 (limit 0.85): 12
/// passes 0.852, 16 0.863, 24 0.881; the MakeHuman elbows gain 0 to 0.02 from 8 to 16.
/// With the elbow blended before the joint ([`crate::bind::joint_blend`]) the chibi's
/// elbow kept 0.848 at 16 and keeps 0.85 or more at 24.
pub const ELBOW_PASSES: usize = 24;
/// The most a vertex is pushed out: its posed distance from the axis times this.
pub const MAX_PUSH: f32 = 2.5;
/// Largest edge strain a corrective may add in its pose (the change of a posed edge's
/// length it makes, over the edge's rest length): a spike stretches its edges.
pub const CORRECTIVE_STRAIN_MAX: f32 = 0.5;
/// How far past the mid-plane (H) a vertex counts as the other side.
pub const OTHER_SIDE_H: f32 = 0.02;

/// The knobs of [`build_correctives`] (the defaults are the shipped values; the
/// calibration example sweeps them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorrectiveOptions {
    /// Relax passes over the posed offset field.
    pub relax_passes: usize,
    /// Relax passes over the rest-space offsets after the inverse map.
    pub rest_relax_passes: usize,
    /// Target-and-invert passes: each pass restores what the previous ones left.
    pub passes: usize,
    /// How far along each segment from the joint centre the corrective reaches, as a
    /// fraction of the segment (0.5: the flesh the bands measure).
    pub reach: f32,
    /// The fade along the limb is 1 within this fraction of the reach around the
    /// joint centre, then falls as a cosine to 0 at the reach.
    pub flat: f32,
    /// The most a vertex is pushed out, times its posed distance from the axis.
    pub max_push: f32,
    /// The most two neighbours' rest-space offsets may differ, times their edge's
    /// rest length ([`limit_strain`]), so the shape adds no spike.
    pub edge_strain: f32,
    /// The elbow's own relax passes over the posed offset field.
    pub elbow_relax_passes: usize,
    /// The elbow's own target-and-invert passes.
    pub elbow_passes: usize,
    /// Scale the passes, the push and the strain bound to a coarse skin's resolution
    /// at the joint ([`COARSE_EDGE_RATIO`]); off, every skin gets the options as given.
    pub coarse: bool,
}

impl CorrectiveOptions {
    /// The options the corrective of `joint` (`elbow`, `knee`, ...) is built with: the
    /// elbow's own passes for the elbow, these options otherwise.
    pub fn for_joint(&self, joint: &str) -> CorrectiveOptions {
        match joint {
            "elbow" => CorrectiveOptions {
                relax_passes: self.elbow_relax_passes,
                passes: self.elbow_passes,
                ..*self
            },
            _ => *self,
        }
    }
}

impl Default for CorrectiveOptions {
    fn default() -> Self {
        CorrectiveOptions {
            relax_passes: RELAX_PASSES,
            rest_relax_passes: REST_RELAX_PASSES,
            passes: 5,
            reach: 0.5,
            flat: 0.5,
            max_push: MAX_PUSH,
            edge_strain: 0.4,
            elbow_relax_passes: ELBOW_RELAX_PASSES,
            elbow_passes: ELBOW_PASSES,
            coarse: true,
        }
    }
}

/// What [`build_correctives`] returns.
#[derive(Debug, Clone, Default)]
pub struct BuiltCorrectives {
    /// The correctives.
    pub correctives: Vec<Corrective>,
    /// Per corrective, the morph target of each skin part: `(part index, target)`.
    pub morphs: Vec<(usize, MorphTarget)>,
    /// One line per corrective skipped, and per corrective with singular vertices.
    pub notes: Vec<String>,
}

/// One corrective to build.
struct Spec {
    /// Its name without the side (`elbow`, `arm_up`).
    name: &'static str,
    /// The joint whose flesh it restores (`elbow`, `shoulder`).
    joint: &'static str,
    /// The pose it is built in (`elbow_120`).
    pose: &'static str,
    /// The driver's bones: proximal, distal.
    a: Role,
    b: Role,
    /// A ball joint: the driver reads the swing toward the pose's direction.
    ball: bool,
}

/// The joints that get a corrective on `side`: the elbow and the knee bent, the
/// shoulder with the arm raised and lowered, the hip with the leg forward.
fn specs(side: Side) -> [Spec; 5] {
    let sp = |name, joint, pose, a, b, ball| Spec {
        name,
        joint,
        pose,
        a,
        b,
        ball,
    };
    [
        sp(
            "elbow",
            "elbow",
            "elbow_120",
            Role::UpperArm(side),
            Role::Forearm(side),
            false,
        ),
        sp(
            "knee",
            "knee",
            "knee_120",
            Role::Thigh(side),
            Role::Calf(side),
            false,
        ),
        sp(
            "arm_up",
            "shoulder",
            "arm_up",
            Role::Clavicle(side),
            Role::UpperArm(side),
            true,
        ),
        sp(
            "arm_down",
            "shoulder",
            "arm_down",
            Role::Clavicle(side),
            Role::UpperArm(side),
            true,
        ),
        sp(
            "leg_forward",
            "hip",
            "leg_forward",
            Role::Pelvis,
            Role::Thigh(side),
            true,
        ),
    ]
}

/// What every corrective of one character is built from.
struct Setup<'a> {
    s: &'a crate::model::Skeleton,
    body: crate::model::Body,
    w: Weights,
    /// The preserve-volume mask on the skin's vertices.
    mask: Vec<f32>,
    nb: Vec<Vec<u32>>,
    /// The skin's edges.
    edges: Vec<(u32, u32)>,
    rig: Roles,
    lib: Vec<crate::pose::NamedPose>,
    joints: Vec<volume::JointPolyline>,
    o: CorrectiveOptions,
    /// The mid-plane's x (the pelvis head, else the middle of the skin).
    mid_x: f32,
    /// The weighted garments, with their links to the skin: each gets its own shape
    /// of every corrective ([`super::garment_correctives`]).
    garments: Vec<super::garment_correctives::Worn>,
}

/// Builds the correctives of `c` (see the module docs). `masks` is the preserve-volume
/// mask per part name (sparse, as the sidecar keeps it); empty for plain LBS.
pub fn build_correctives(
    c: &Character,
    masks: &BTreeMap<String, Vec<(u32, f32)>>,
) -> BuiltCorrectives {
    build_correctives_with(c, masks, &CorrectiveOptions::default())
}

/// [`build_correctives`] with its knobs.
pub fn build_correctives_with(
    c: &Character,
    masks: &BTreeMap<String, Vec<(u32, f32)>>,
    o: &CorrectiveOptions,
) -> BuiltCorrectives {
    let mut out = BuiltCorrectives::default();
    let (Some(s), Ok(body)) = (c.skeleton.as_ref(), c.body()) else {
        out.notes.push("correctives: no skeleton or no skin".into());
        return out;
    };
    let Some(w) = body.union_weights(c) else {
        out.notes
            .push("correctives: the skin carries no weights".into());
        return out;
    };
    let mask = super::runtime_masks::skin_mask(c, &body, masks);
    let rig = Roles::of(s, c.vrm.as_ref().map(|v| &v.humanoid));
    let rules = crate::deform::twist_rules(s, &rig);
    let (lib, _) = crate::pose::library::library_for(s, &rig);
    let lib = crate::deform::twist::library_with_rules(s, &rules, lib);
    let joints = volume::joints(s, &rig);
    let edges = body.mesh.edges();
    let nb = neighbours(body.mesh.positions.len(), &edges);
    let (lo, hi) = bounds(&body.mesh.positions);
    let mid_x = rig
        .get(Role::Pelvis)
        .map_or(0.5 * (lo.x + hi.x), |p| s.bones[p].head.x);
    let garments = super::garment_correctives::worn_parts(c, &body, masks);
    let su = Setup {
        edges,
        mid_x,
        garments,
        s,
        body,
        w,
        mask,
        nb,
        rig,
        lib,
        joints,
        o: *o,
    };
    let jobs: Vec<(Side, Spec)> = [Side::Left, Side::Right]
        .into_iter()
        .flat_map(|side| specs(side).map(|sp| (side, sp)))
        .collect();
    let parts: Vec<BuiltCorrectives> = jobs
        .par_iter()
        .map(|(side, sp)| {
            let mut one = BuiltCorrectives::default();
            build_one(&su, *side, sp, &mut one);
            one
        })
        .collect();
    for p in parts {
        out.correctives.extend(p.correctives);
        out.morphs.extend(p.morphs);
        out.notes.extend(p.notes);
    }
    build_neck(&su, &mut out);
    out
}

/// The name of the neck's collision corrective for the nod ([`super::nod_corrective`]).
pub const NECK_NOD: &str = "CS_neck_nod";
/// The neck's collision corrective for the head turned left (the library's
/// `head_turn`).
pub const NECK_TURN_L: &str = "CS_neck_turn_l";
/// The neck's collision corrective for the head turned right
/// ([`crate::pose::library::HEAD_TURN_RIGHT`]).
pub const NECK_TURN_R: &str = "CS_neck_turn_r";

/// Builds the neck's collision correctives into `out`: [`NECK_NOD`] when `head_nod`,
/// and [`NECK_TURN_L`] / [`NECK_TURN_R`] when the head turned left / right, leaves new
/// pairs near the collar and the chin (a line in the notes either way when the rig can
/// make the pose).
fn build_neck(su: &Setup<'_>, out: &mut BuiltCorrectives) {
    let s = su.s;
    let (Some(neck), Some(head)) = (su.rig.get(Role::Neck), su.rig.get(Role::Head)) else {
        return;
    };
    let Some(chest) = s.bones[neck].parent else {
        return;
    };
    let right = crate::pose::library::extra_pose(s, &su.rig, crate::pose::library::HEAD_TURN_RIGHT);
    let poses = [
        (
            NECK_NOD,
            su.lib.iter().find(|p| p.name == "head_nod").cloned(),
        ),
        (
            NECK_TURN_L,
            su.lib.iter().find(|p| p.name == "head_turn").cloned(),
        ),
        (NECK_TURN_R, right),
    ];
    for (name, np) in poses {
        let Some(np) = np else { continue };
        let driver = if name == NECK_NOD {
            driver_for(s, chest, head, true, &np.pose)
        } else {
            turn_driver(s, chest, head, &np.pose)
        };
        let Some(driver) = driver else {
            out.notes.push(format!(
                "{name} skipped: {} moves the head less than 10 deg",
                np.name
            ));
            continue;
        };
        build_neck_one(su, name, &np, driver, out);
    }
}

/// The driver of a turn of bone `b` about its own axis relative to `a` in `pose`: the
/// twist about `b`'s axis, signed the way the pose turns, the 40-115 ramp scaled to
/// end at the pose's turn; `None` below 10 deg.
fn turn_driver(
    s: &crate::model::Skeleton,
    a: usize,
    b: usize,
    pose: &Pose,
) -> Option<CorrectiveDriver> {
    let m = posed_matrices(s, pose);
    let y = s.bones[b].y_axis();
    let deg = crate::deform::correctives::turn_about(m[a], m[b], y);
    if deg.abs() < 10.0 {
        return None;
    }
    let axis = if deg < 0.0 { -y } else { y };
    let to_deg = deg.abs().min(RAMP_TO_DEG);
    Some(CorrectiveDriver {
        a: s.bones[a].name.clone(),
        b: s.bones[b].name.clone(),
        from_deg: to_deg * RAMP_FROM_DEG / RAMP_TO_DEG,
        to_deg,
        toward: None,
        twist: Some(axis.to_array()),
    })
}

/// Builds the neck's collision corrective `name` in pose `np` (see [`build_neck`]).
fn build_neck_one(
    su: &Setup<'_>,
    name: &str,
    np: &crate::pose::NamedPose,
    driver: CorrectiveDriver,
    out: &mut BuiltCorrectives,
) {
    use super::nod_corrective::collar_chin_segment;
    let s = su.s;
    let m = posed_matrices(s, &np.pose);
    let rest_m = posed_matrices(s, &Pose::rest(s));
    let (Some(axis_rest), Some(axis_posed)) = (
        collar_chin_segment(s, &su.rig, &rest_m),
        collar_chin_segment(s, &su.rig, &m),
    ) else {
        return;
    };
    let shape = super::nod_corrective::nod_offsets(&super::nod_corrective::NodInput {
        body: &su.body,
        w: &su.w,
        mask: &su.mask,
        nb: &su.nb,
        edges: &su.edges,
        axis_rest,
        axis_posed,
        m: &m,
        rest_relax_passes: su.o.rest_relax_passes,
        edge_strain: su.o.edge_strain,
    });
    let pose = &np.name;
    if shape.pairs_before == 0 {
        out.notes.push(format!(
            "{name} not needed: {pose} leaves no new pairs near the collar and the chin"
        ));
        return;
    }
    if shape.pairs_after >= shape.pairs_before {
        out.notes.push(format!(
            "{name} not kept: it leaves {pose}'s {} new pairs near the collar and the chin as they are",
            shape.pairs_before
        ));
        return;
    }
    out.notes.push(format!(
        "{name}: {pose}'s new pairs near the collar and the chin {} -> {}{}",
        shape.pairs_before,
        shape.pairs_after,
        if shape.singular > 0 {
            format!(
                "; {} vertices with a singular skinning map get no offset",
                shape.singular
            )
        } else {
            String::new()
        }
    ));
    let region: Vec<(u32, u8)> = (0..shape.offsets.len() as u32)
        .filter(|&v| shape.offsets[v as usize] != Vec3::ZERO)
        .map(|v| (v, 0))
        .collect();
    let worn = worn_offsets(su, Side::Center, &region, &shape.offsets, &m);
    push_morphs(su, name, &shape.offsets, worn, out);
    out.correctives.push(Corrective {
        name: name.to_string(),
        joint: "neck".into(),
        pose: pose.clone(),
        side: Side::Center,
        driver,
    });
}

/// The morph target `name` of every skin part (its vertices' `offsets` on the welded
/// skin) and of every garment in `worn`, where it moves anything.
fn push_morphs(
    su: &Setup<'_>,
    name: &str,
    offsets: &[Vec3],
    worn: Vec<(usize, Vec<Vec3>)>,
    out: &mut BuiltCorrectives,
) {
    let skin = su.body.skin.iter().map(|&i| {
        let deltas: Vec<Vec3> = su.body.map[i]
            .iter()
            .map(|&u| offsets[u as usize])
            .collect();
        (i, deltas)
    });
    for (i, deltas) in skin.chain(worn) {
        if deltas.iter().any(|d| *d != Vec3::ZERO) {
            out.morphs.push((
                i,
                MorphTarget {
                    name: name.to_string(),
                    position_deltas: deltas,
                    normal_deltas: None,
                },
            ));
        }
    }
}

/// The box of `pts`.
fn bounds(pts: &[Vec3]) -> (Vec3, Vec3) {
    pts.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(a, b), p| (a.min(*p), b.max(*p)),
    )
}

/// Builds the corrective of `sp` on `side` into `out` (or a line saying why not).
fn build_one(su: &Setup<'_>, side: Side, sp: &Spec, out: &mut BuiltCorrectives) {
    let (s, l) = (su.s, side.letter());
    let name = format!(
        "{}{}_{}",
        crate::deform::correctives::NAME_PREFIX,
        sp.name,
        l.to_ascii_lowercase()
    );
    let (Some(a), Some(b)) = (su.rig.get(sp.a), su.rig.get(sp.b)) else {
        out.notes.push(format!(
            "{name} skipped: the rig has no bone for {} or {}",
            sp.a.key(),
            sp.b.key()
        ));
        return;
    };
    let pname = format!("{}.{l}", sp.pose);
    let jname = format!("{}.{l}", sp.joint);
    let (Some(np), Some(j)) = (
        su.lib.iter().find(|p| p.name == pname),
        su.joints.iter().find(|j| j.name == jname),
    ) else {
        out.notes
            .push(format!("{name} skipped: no {pname} pose or {jname} joint"));
        return;
    };
    // Everything within reach (the garments' region: a sleeve pressed into the chest
    // lies over flesh the spine carries); the corrective restores what the joint carries.
    let reach = volume::flesh_along(j, &su.body.mesh.positions, su.o.reach);
    let Some(fl) = reach.clone().and_then(|f| volume::carried(f, s, &su.w)) else {
        out.notes
            .push(format!("{name} skipped: {jname} has no flesh"));
        return;
    };
    let Some(driver) = driver_for(s, a, b, sp.ball, &np.pose) else {
        out.notes.push(format!(
            "{name} skipped: {pname} swings {} less than 10 deg",
            s.bones[b].name
        ));
        return;
    };
    let m = posed_matrices(s, &np.pose);
    let o = coarse_relax(su, &fl, su.o.for_joint(sp.joint));
    let (offsets, singular) = restore_offsets(su, &o, &fl, &m, side);
    if singular > 0 {
        out.notes.push(format!(
            "{name}: {singular} vertices with a singular skinning map get no offset"
        ));
    }
    let region = reach.map_or_else(Vec::new, |f| f.vertices);
    let worn = worn_offsets(su, side, &region, &offsets, &m);
    push_morphs(su, &name, &offsets, worn, out);
    out.correctives.push(Corrective {
        name,
        joint: jname,
        pose: pname,
        side,
        driver,
    });
}

/// The median edge of the flesh over the joint's radius on the MakeHuman bodies
/// (0.32 to 0.38 at most elbows and knees), which the relax passes are set for.
pub const REFERENCE_EDGE_RATIO: f32 = 0.38;
/// A skin is coarse at a joint when its edges there are longer than this times the
/// joint's radius ([`coarse_relax`]): 1.3 times the MakeHuman bodies' longest (their
/// knees reach 0.42 on `short`, and shortening their passes lowered those knees to
/// 0.84); the Quaternius characters' elbows and knees are 0.51 to 1.03.
pub const COARSE_EDGE_RATIO: f32 = 0.5;

/// Most target-and-invert passes on a coarse skin ([`coarse_relax`]). The knight's
/// elbow, blended before the joint ([`crate::bind::joint_blend`]), kept 0.840 / 0.848
/// (limit 0.85) at 24 and 0.847 / 0.85 or more at 32; 48 restore both.
pub const COARSE_PASSES: usize = 48;
/// The strain bound of a coarse skin's offsets ([`limit_strain`]): its few long edges
/// amplify more under the pose (`men_Farmer`'s knee: 0.51 of the smoothness limit's
/// 0.5 at the default 0.4).
pub const COARSE_EDGE_STRAIN: f32 = 0.35;
/// Largest push on a coarse skin, times the posed distance from the axis.
pub const COARSE_MAX_PUSH: f32 = 5.0;

/// `o` scaled to the skin's resolution at the joint. A relax pass spreads the push by
/// about one edge, and repeated passes over a distance growing as their square root,
/// so a coarse skin, whose edges at the joint are longer than [`COARSE_EDGE_RATIO`]
/// times its radius (`ratio`), gets `scale = (REFERENCE_EDGE_RATIO / ratio)^2` of the relax
/// passes (at least one); its target-and-invert passes are divided by `scale` (at most
/// [`COARSE_PASSES`]) and its largest push by `sqrt(scale)` (at most
/// [`COARSE_MAX_PUSH`]), since a few long edges bend the flesh into a crease that
/// fewer vertices must fill. A low-poly game character's knee (Quaternius'
/// `men_Casual`: edges 0.94 of the radius) otherwise has its push relaxed over the
/// whole leg. MakeHuman bodies (0.32 to 0.38) keep the options as they are.
fn coarse_relax(su: &Setup<'_>, fl: &volume::Flesh, o: CorrectiveOptions) -> CorrectiveOptions {
    let p = &su.body.mesh.positions;
    let inside: std::collections::HashSet<u32> = fl.vertices.iter().map(|v| v.0).collect();
    let inside = &inside;
    // The flesh's own edges, from its vertices' neighbours (each once: lower end first).
    let mut e: Vec<f32> = fl
        .vertices
        .iter()
        .flat_map(|&(a, _)| {
            su.nb[a as usize]
                .iter()
                .filter(move |&&b| a < b && inside.contains(&b))
                .map(move |&b| (p[a as usize] - p[b as usize]).length())
        })
        .collect();
    if e.is_empty() || fl.radius <= 0.0 {
        return o;
    }
    let mid = e.len() / 2;
    let ratio = *e.select_nth_unstable_by(mid, f32::total_cmp).1 / fl.radius;
    if !o.coarse || ratio <= COARSE_EDGE_RATIO {
        return o;
    }
    let scale = (REFERENCE_EDGE_RATIO / ratio).powi(2);
    CorrectiveOptions {
        relax_passes: ((o.relax_passes as f32 * scale).round() as usize).max(1),
        passes: ((o.passes as f32 / scale).ceil() as usize).clamp(o.passes, COARSE_PASSES),
        max_push: (o.max_push / scale.sqrt()).min(COARSE_MAX_PUSH),
        edge_strain: o.edge_strain.min(COARSE_EDGE_STRAIN),
        ..o
    }
}

/// The driver of a corrective on bones `a` (proximal) and `b` built in `pose`. A
/// hinge ramps from [`RAMP_FROM_DEG`] to [`RAMP_TO_DEG`] between the two axes, its
/// start past the joint's rest bend; a ball joint reads the swing toward the pose's
/// direction of `b`, its keys the 40-115 ramp scaled so that it reaches 1 at the
/// pose's swing (when under 115 deg). `None` when a ball joint's pose swings less
/// than 10 deg.
fn driver_for(
    s: &crate::model::Skeleton,
    a: usize,
    b: usize,
    ball: bool,
    pose: &Pose,
) -> Option<CorrectiveDriver> {
    let mut d = CorrectiveDriver {
        a: s.bones[a].name.clone(),
        b: s.bones[b].name.clone(),
        from_deg: RAMP_FROM_DEG,
        to_deg: RAMP_TO_DEG,
        toward: None,
        twist: None,
    };
    if !ball {
        // A joint modelled bent starts its ramp past its rest bend.
        let rest = d.angle(s, &Pose::rest(s)).unwrap_or(0.0);
        d.from_deg = d
            .from_deg
            .max(rest + REST_MARGIN_DEG)
            .min(RAMP_TO_DEG - 30.0);
        return Some(d);
    }
    let m = posed_matrices(s, pose);
    let yb = m[b].transform_vector3(s.bones[b].y_axis());
    let t = m[a].inverse().transform_vector3(yb).normalize_or_zero();
    d.toward = Some(t.to_array());
    let swing = d.angle(s, pose)?;
    if swing < 10.0 {
        return None;
    }
    d.to_deg = swing.min(RAMP_TO_DEG);
    d.from_deg = d.to_deg * RAMP_FROM_DEG / RAMP_TO_DEG;
    Some(d)
}

/// The rest-space offsets (n) that restore the flesh of `fl` under skinning matrices
/// `m`, and how many vertices had a singular map (see the module docs): each of the
/// options' passes targets the rest distances from the positions the previous passes
/// gave.
fn restore_offsets(
    su: &Setup<'_>,
    o: &CorrectiveOptions,
    fl: &volume::Flesh,
    m: &[glam::Mat4],
    side: Side,
) -> (Vec<Vec3>, usize) {
    let rest = &su.body.mesh.positions;
    let own: Vec<f32> = rest.iter().map(|p| own_side(su, side, *p)).collect();
    let mut total = vec![Vec3::ZERO; rest.len()];
    let mut singular = 0;
    for pass in 0..o.passes.max(1) {
        let cur: Vec<Vec3> = rest.iter().zip(&total).map(|(p, d)| *p + *d).collect();
        let mut off = posed_offsets(su, o, fl, &cur, m);
        for (o, k) in off.iter_mut().zip(&own) {
            *o *= *k;
        }
        let (rest_off, sing) = inverse_skin(su, &cur, &off, m);
        if pass == 0 {
            singular = sing;
        }
        for ((t, o), k) in total.iter_mut().zip(&rest_off).zip(&own) {
            *t += *o * *k;
        }
    }
    limit_strain(&mut total, rest, &su.edges, o.edge_strain);
    (total, singular)
}

/// The side factor of a corrective on `side` at rest position `p`: 1 from the
/// mid-plane outward on `side`, 0 on the other, a ramp over half [`OTHER_SIDE_H`].
fn own_side(su: &Setup<'_>, side: Side, p: Vec3) -> f32 {
    let band = 0.5 * OTHER_SIDE_H * su.body.height;
    let x = match side {
        Side::Left => p.x - su.mid_x,
        Side::Right => su.mid_x - p.x,
        Side::Center => band,
    };
    (x / band).clamp(0.0, 1.0)
}

/// Every garment's own shape of the corrective whose skin offsets are `offsets` in
/// its pose (matrices `m`), over the skin vertices `region` within the joint's reach
/// ([`super::garment_correctives`]).
fn worn_offsets(
    su: &Setup<'_>,
    side: Side,
    region: &[(u32, u8)],
    offsets: &[Vec3],
    m: &[glam::Mat4],
) -> Vec<(usize, Vec<Vec3>)> {
    use super::garment_correctives::{garment_offsets, posed_skin, Knobs};
    if su.garments.is_empty() {
        return Vec::new();
    }
    let sk = posed_skin(&su.body, &su.w, &su.mask, offsets, m, region);
    let k = Knobs {
        h: su.body.height,
        rest_relax_passes: su.o.rest_relax_passes,
        edge_strain: su.o.edge_strain,
    };
    let own = |p: Vec3| own_side(su, side, p);
    su.garments
        .iter()
        .map(|g| (g.part, garment_offsets(g, &sk, &own, &k).0))
        .collect()
}

/// The posed offsets (n) that push the flesh of `fl`, skinned from `cur`, back to its
/// rest distance from the limb axis, faded along the limb and relaxed; 0 outside.
fn posed_offsets(
    su: &Setup<'_>,
    o: &CorrectiveOptions,
    fl: &volume::Flesh,
    cur: &[Vec3],
    m: &[glam::Mat4],
) -> Vec<Vec3> {
    let (rest, h) = (&su.body.mesh.positions, su.body.height);
    let n = rest.len();
    // Only the flesh is skinned: the rest of the mesh keeps no offset.
    let idx: Vec<usize> = fl.vertices.iter().map(|&(v, _)| v as usize).collect();
    let sub = |f: &dyn Fn(usize) -> Vec3| idx.iter().map(|&v| f(v)).collect::<Vec<Vec3>>();
    let weights = Weights {
        vertices: idx
            .iter()
            .map(|&v| su.w.vertices.get(v).cloned().unwrap_or_default())
            .collect(),
    };
    let blend: Vec<f32> = idx
        .iter()
        .map(|&v| su.mask.get(v).copied().unwrap_or(0.0))
        .collect();
    let posed_sub = crate::deform::dqs_mask::skin_blend(&sub(&|v| cur[v]), &weights, m, &blend);
    let r_pts = fl.joint.posed(&[]);
    let p_pts = fl.joint.posed(m);
    let [ra, rc, re] = r_pts;
    let (lp, ld) = ((rc - ra).length(), (re - rc).length());
    let mut off = vec![Vec3::ZERO; n];
    let mut inside = vec![false; n];
    for (&v, &pv) in idx.iter().zip(&posed_sub) {
        let (dr, s) = volume::polyline(rest[v], r_pts);
        let (dp, _) = volume::polyline(pv, p_pts);
        if dp < 1e-6 * h {
            continue;
        }
        let half = if s < 0.0 { o.reach * lp } else { o.reach * ld };
        let u = (s / half.max(1e-9)).abs().min(1.0);
        let u = ((u - o.flat) / (1.0 - o.flat).max(1e-6)).max(0.0);
        let fade = 0.5 * (1.0 + (std::f32::consts::PI * u).cos());
        // The closest point on the posed axis: back along the vertex's line to it.
        let q = closest_on(pv, p_pts);
        let target = q + (pv - q) * (dr / dp).min(o.max_push);
        off[v] = fade * (target - pv);
        inside[v] = true;
    }
    relax(&mut off, &inside, &su.nb, o.relax_passes);
    off
}

/// The rest-space offsets of the posed offsets `off` at rest positions `cur`, through
/// the measured 3x3 skinning map of each moved vertex, relaxed where non-zero; and
/// how many vertices had a singular map.
fn inverse_skin(
    su: &Setup<'_>,
    cur: &[Vec3],
    off: &[Vec3],
    m: &[glam::Mat4],
) -> (Vec<Vec3>, usize) {
    let (mut out, singular) = inverse_map(cur, off, &su.w, &su.mask, m, su.body.height);
    // The Smooth-brush pass on the rest-space field: the inverse map amplifies in the
    // crease, so the offsets are relaxed again where they are non-zero.
    let live: Vec<bool> = out.iter().map(|o| *o != Vec3::ZERO).collect();
    relax(&mut out, &live, &su.nb, su.o.rest_relax_passes);
    (out, singular)
}

/// The closest point to `p` on the polyline `a -> c -> e`.
fn closest_on(p: Vec3, [a, c, e]: [Vec3; 3]) -> Vec3 {
    let x = crate::geom::segment::closest_on_segment(p, a, c);
    let y = crate::geom::segment::closest_on_segment(p, c, e);
    if (x - p).length_squared() <= (y - p).length_squared() {
        x
    } else {
        y
    }
}

/// Section E checks of every corrective of `list` whose morph target the view's skin
/// (part 0 of `c`) carries: `correctives.NAME.rest` (0 at rest), `.ramp` (1 at its
/// pose, about 0.4 at 70 deg), `.own_side` (no offset beyond [`OTHER_SIDE_H`] on the
/// other side of the mid-plane `mid_x`) and `.smooth` (largest edge strain at full
/// weight at most [`CORRECTIVE_STRAIN_MAX`]); `library` holds the poses (rules
/// applied). A corrective whose target or bones are missing gets a line in `skipped`.
pub fn corrective_checks(
    c: &Character,
    list: &[Corrective],
    library: &[crate::pose::NamedPose],
    mid_x: f32,
    h: f32,
    skipped: &mut Vec<String>,
) -> Vec<Check> {
    let mut out = Vec::new();
    let (Some(s), Some(body)) = (c.skeleton.as_ref(), c.parts.first()) else {
        return out;
    };
    let edges = body.mesh.edges();
    for k in list {
        let Some(mt) = body.morphs.iter().find(|m| m.name == k.name) else {
            skipped.push(format!(
                "{}: the skin has no morph target of that name",
                k.name
            ));
            continue;
        };
        if s.find(&k.driver.a).is_none() || s.find(&k.driver.b).is_none() {
            skipped.push(format!("{}: the rig lacks its driver bones", k.name));
            continue;
        }
        let rest = k.driver.value(s, &Pose::rest(s));
        out.push(
            Check::new(format!("correctives.{}.rest", k.name), "E", Severity::Major)
                .title(format!("{} is 0 at rest", k.name))
                .measure("driver value in the rest pose")
                .at_most(rest as f64, 0.0)
                .detail(format!(
                    "{} deg between {} and {} at rest",
                    k.driver.angle(s, &Pose::rest(s)).unwrap_or(0.0).round(),
                    k.driver.a,
                    k.driver.b
                )),
        );
        let built_in = library
            .iter()
            .find(|p| p.name == k.pose)
            .cloned()
            .or_else(|| crate::pose::library::extra_pose(s, &Roles::of(s, None), &k.pose));
        let at_pose = built_in
            .as_ref()
            .map_or(0.0, |p| k.driver.value(s, &p.pose));
        // 70 deg on the 40-115 ramp: 40 % of the way from the first key to the second.
        let at = k.driver.from_deg + 0.4 * (k.driver.to_deg - k.driver.from_deg);
        let mid = k.driver.ramp(at);
        let ok = (at_pose - 1.0).abs() < 1e-3 && (mid - 0.4).abs() <= 0.1;
        out.push(
            Check::new(format!("correctives.{}.ramp", k.name), "E", Severity::Major)
                .title(format!("{} ramps late to 1 at its pose", k.name))
                .measure("|value 40 % of the way along the ramp (70 deg on 40-115) - 0.4| when the pose reaches 1, else 1")
                .at_most(if ok { (mid - 0.4).abs() as f64 } else { 1.0 }, 0.1)
                .detail(format!(
                    "{at_pose:.3} in {}, {mid:.3} at {at:.0} deg, keys {} and {} deg",
                    k.pose, k.driver.from_deg, k.driver.to_deg
                )),
        );
        let other = |p: Vec3| match k.side {
            Side::Left => p.x < mid_x - OTHER_SIDE_H * h,
            Side::Right => p.x > mid_x + OTHER_SIDE_H * h,
            Side::Center => false,
        };
        let leak = body
            .mesh
            .positions
            .iter()
            .zip(&mt.position_deltas)
            .filter(|(p, _)| other(**p))
            .map(|(_, d)| d.length())
            .fold(0.0f32, f32::max);
        out.push(
            Check::new(
                format!("correctives.{}.own_side", k.name),
                "E",
                Severity::Major,
            )
            .title(format!("{} moves only its own side", k.name))
            .measure("largest offset on the other side of the mid-plane, H")
            .at_most((leak / h) as f64, 0.0)
            .detail(format!(
                "vertices beyond {OTHER_SIDE_H} H past the mid-plane"
            )),
        );
        // In its pose: how much the offsets stretch or shrink an edge there, against
        // its rest length (a spike stretches its edges).
        let pose = built_in.map_or_else(|| Pose::rest(s), |p| p.pose);
        let m = posed_matrices(s, &pose);
        let strain = match &body.weights {
            Some(w) => {
                let with: Vec<Vec3> = body
                    .mesh
                    .positions
                    .iter()
                    .zip(&mt.position_deltas)
                    .map(|(p, d)| *p + *d)
                    .collect();
                let a0 = crate::pose::skin_lbs(&body.mesh.positions, w, &m);
                let a1 = crate::pose::skin_lbs(&with, w, &m);
                edges
                    .iter()
                    .filter_map(|&(a, b)| {
                        let (a, b) = (a as usize, b as usize);
                        if mt.position_deltas[a] == Vec3::ZERO
                            && mt.position_deltas[b] == Vec3::ZERO
                        {
                            return None;
                        }
                        let r = (body.mesh.positions[a] - body.mesh.positions[b]).length();
                        (r > 0.0).then(|| {
                            ((a1[a] - a1[b]).length() - (a0[a] - a0[b]).length()).abs() / r
                        })
                    })
                    .fold(0.0f32, f32::max)
            }
            None => 0.0,
        };
        out.push(
            Check::new(format!("correctives.{}.smooth", k.name), "E", Severity::Major)
                .title(format!("{} has no spikes", k.name))
                .measure("largest change of a posed edge's length the offsets make in its pose, over its rest length")
                .at_most(strain as f64, CORRECTIVE_STRAIN_MAX as f64)
                .detail(format!("{} vertices moved", mt.position_deltas.iter().filter(|d| **d != Vec3::ZERO).count())),
        );
    }
    out
}
