//! The default pose library (seed procedure P5): the poses a lead rigger tries first.
//!
//! | pose                     | what it does (world terms)                         | joint measured |
//! | ------------------------ | -------------------------------------------------- | -------------- |
//! | `arm_down.L/R`           | upper arm aimed down beside the body               | shoulder       |
//! | `arm_up.L/R`             | upper arm aimed up and out, clavicle raised 25 deg | shoulder       |
//! | `arm_forward.L/R`        | upper arm aimed to the front                       | shoulder       |
//! | `clavicle_up.L/R`        | clavicle raised 25 deg                             | shoulder       |
//! | `elbow_120.L/R`          | forearm hinged to 120 deg flexion, toward the front | elbow          |
//! | `wrist_twist_80.L/R`     | hand twisted 80 deg about the forearm's axis       | wrist          |
//! | `leg_forward.L/R`        | thigh swung 60 deg forward                         | hip            |
//! | `leg_side.L/R`           | thigh swung 45 deg out                             | hip            |
//! | `knee_120.L/R`           | calf hinged to 120 deg flexion, toward the back    | knee           |
//! | `squat`                  | pelvis down and back, legs solved by two-bone IK with the feet planted (knees about 100 deg forward) | knees; feet planted |
//! | `spine_twist`            | 45 deg about world Y spread over the spine         | -              |
//! | `spine_bend`             | 40 deg forward spread over the spine               | -              |
//! | `head_turn`              | head 60 deg about world Y (neck a third)           | -              |
//! | `head_nod`               | head 30 deg forward (neck a third)                 | -              |
//! | `fist.L/R`               | every finger bone hinged toward the palm           | -              |
//! | `jaw_open`               | jaw hinged 20 deg down, when there is a jaw        | -              |
//!
//! Thresholds on the measured joint come from the rubric (section D): shoulder band at
//! least 0.6 arm down, elbow and knee at least 0.85, wrist twist at least 0.9, bulge at
//! most 1.25 arm up; the hip band (leg forward and to the side) at least
//! [`HIP_BAND_MIN`], calibrated on the artist rigs.
//! A pose whose bones cannot be found is skipped and the reason returned.

use glam::Vec3;

use super::fk::Pose;
use super::ops;
use crate::humanoid::{Role, Roles};
use crate::model::naming::Side;
use crate::model::Skeleton;

/// What a pose is meant to test at one joint.
#[derive(Debug, Clone, PartialEq)]
pub struct JointTest {
    /// The joint (`shoulder.L`, `elbow.R`, `knee.L`, `wrist.L`, `hip.L`).
    pub joint: String,
    /// Minimum worst-band volume ratio (rubric D), if the pose sets one.
    pub band_min: Option<f32>,
    /// Maximum best-band volume ratio (bulge), if the pose sets one.
    pub bulge_max: Option<f32>,
}

/// A named test pose.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedPose {
    /// Stable name, e.g. `elbow_120.L`.
    pub name: String,
    /// The pose.
    pub pose: Pose,
    /// The side a one-sided pose moves (`Center` for poses that move both or the middle).
    /// One-sided poses are used to measure cross-side leak.
    pub side: Side,
    /// Joint measurements the pose is for.
    pub tests: Vec<JointTest>,
    /// Bones the pose keeps where they are at rest (the squat's feet, planted by an IK
    /// solve): the review checks that their heads and tails do not move.
    pub planted: Vec<String>,
}

/// The hip band's limit in `leg_forward` and `leg_side` (the rubric gives no number):
/// the artist rigs' worst hip bands less two standard deviations (80 values, 0.806 to
/// 1.003, mean 0.919, sd 0.071: `examples/hip_band_calibrate.rs`); a hip pivot 0.03 H
/// behind the artist's reads 0.737.
pub const HIP_BAND_MIN: f32 = 0.78;

/// Fraction of the rest hip-to-ankle distance the squat keeps between them.
pub const SQUAT_REACH: f32 = 0.65;
/// How far back the squat moves the pelvis, as a fraction of the hip-to-ankle distance.
pub const SQUAT_BACK: f32 = 0.12;

/// The squat with the feet planted: the pelvis goes down (and a little back) until the
/// hips are [`SQUAT_REACH`] of their rest distance from the ankles, then each leg is
/// solved by two-bone IK ([`ops::two_bone_ik`]) so the ankle stays at its rest point,
/// the knee bending forward (about 100 deg), and each foot is turned back to its rest
/// direction. `b`: pelvis, thigh L, thigh R, calf L, calf R, foot L, foot R.
fn squat(s: &Skeleton, b: &[usize]) -> Pose {
    let mut p = Pose::rest(s);
    let h = s.height().max(1e-6);
    let (hip, ankle) = (
        0.5 * (s.bones[b[1]].head + s.bones[b[2]].head),
        0.5 * (s.bones[b[5]].head + s.bones[b[6]].head),
    );
    let leg = (hip - ankle).length();
    let (reach, back) = (SQUAT_REACH * leg, SQUAT_BACK * leg);
    let drop = (hip.y - ankle.y) - (reach * reach - back * back).max(0.0).sqrt();
    ops::move_by(s, &mut p, b[0], Vec3::new(0.0, -drop, -back) / h, h);
    for k in 0..2 {
        let foot = b[5 + k];
        ops::two_bone_ik(
            s,
            &mut p,
            [b[1 + k], b[3 + k], foot],
            s.bones[foot].head,
            Vec3::Z,
        );
        ops::aim(s, &mut p, foot, s.bones[foot].y_axis());
    }
    p
}

fn sx(side: Side) -> f32 {
    if side == Side::Right {
        -1.0
    } else {
        1.0
    }
}

fn jt(joint: &str, side: Side, band_min: Option<f32>, bulge_max: Option<f32>) -> JointTest {
    JointTest {
        joint: format!("{joint}.{}", side.letter()),
        band_min,
        bulge_max,
    }
}

/// The default library on a skeleton, its roles found by [`Roles::of`].
/// Returns the poses and, for each pose skipped, why.
pub fn default_library(s: &Skeleton) -> (Vec<NamedPose>, Vec<String>) {
    library_for(s, &Roles::of(s, None))
}

/// The default library on a skeleton whose roles are already resolved.
pub fn library_for(s: &Skeleton, rig: &Roles) -> (Vec<NamedPose>, Vec<String>) {
    let mut lib = Library {
        s,
        rig,
        out: Vec::new(),
        skipped: Vec::new(),
    };
    for side in [Side::Left, Side::Right] {
        lib.arm_poses(side);
        lib.leg_poses(side);
        lib.fist(side);
    }
    lib.squat();
    lib.spine_poses();
    lib.head_poses();
    lib.jaw_open();
    (lib.out, lib.skipped)
}

/// The library as it is built: the poses, in order, and why each skipped one was.
struct Library<'a> {
    s: &'a Skeleton,
    rig: &'a Roles,
    out: Vec<NamedPose>,
    skipped: Vec<String>,
}

/// A pose of one side, named `NAME.L` / `NAME.R`.
fn sided(name: &str, side: Side, pose: Pose, tests: Vec<JointTest>) -> NamedPose {
    NamedPose {
        name: format!("{name}.{}", side.letter()),
        pose,
        side,
        tests,
        planted: vec![],
    }
}

/// A pose of the centre, with no joint test.
/// The head (bone `head`) turned `deg` about the world `axis`, a third of it in the
/// neck when the rig has one.
fn head_pose(s: &Skeleton, rig: &Roles, head: usize, axis: Vec3, deg: f32) -> Pose {
    let mut p = Pose::rest(s);
    match rig.get(Role::Neck) {
        Some(nk) => {
            ops::rotate_world(s, &mut p, nk, axis, deg / 3.0);
            ops::rotate_world(s, &mut p, head, axis, deg * 2.0 / 3.0);
        }
        None => ops::rotate_world(s, &mut p, head, axis, deg),
    }
    p
}

/// The head turned the other way from `head_turn` (which turns the face toward +X, the
/// character's left): 60 deg about -Y. The library does not hold it (the review
/// measures one turn), but the neck's corrective for a right turn is built and judged
/// in it ([`extra_pose`]).
pub const HEAD_TURN_RIGHT: &str = "head_turn.R";

/// A pose that correctives are built in and the library does not hold
/// ([`HEAD_TURN_RIGHT`]); `None` for any other name, or when the rig has no head.
pub fn extra_pose(s: &Skeleton, rig: &Roles, name: &str) -> Option<NamedPose> {
    if name != HEAD_TURN_RIGHT {
        return None;
    }
    let head = rig.get(Role::Head)?;
    Some(centred(name, head_pose(s, rig, head, Vec3::NEG_Y, 60.0)))
}

fn centred(name: &str, pose: Pose) -> NamedPose {
    NamedPose {
        name: name.to_string(),
        pose,
        side: Side::Center,
        tests: vec![],
        planted: vec![],
    }
}

impl Library<'_> {
    /// The bones of `roles`, or `None` with the pose `name` recorded as skipped.
    fn need(&mut self, name: &str, roles: &[Role]) -> Option<Vec<usize>> {
        let mut v = Vec::new();
        let mut missing = Vec::new();
        for r in roles {
            match self.rig.get(*r) {
                Some(i) => v.push(i),
                None => missing.push(r.key()),
            }
        }
        if missing.is_empty() {
            Some(v)
        } else {
            self.skipped
                .push(format!("{name}: no bone for {}", missing.join(", ")));
            None
        }
    }

    /// The bone of `role` on `side`, or `None` with the pose `name.L/R` skipped.
    fn need_sided(&mut self, name: &str, side: Side, role: Role) -> Option<usize> {
        self.need(&format!("{name}.{}", side.letter()), &[role])
            .map(|b| b[0])
    }

    /// Arm down, up and forward, the clavicle up, the elbow at 120 deg, the wrist
    /// twisted 80 deg.
    fn arm_poses(&mut self, side: Side) {
        let (s, x) = (self.s, sx(side));
        if let Some(b) = self.need_sided("arm_down", side, Role::UpperArm(side)) {
            let mut p = Pose::rest(s);
            ops::aim(s, &mut p, b, Vec3::new(0.2 * x, -1.0, 0.0));
            self.out.push(sided(
                "arm_down",
                side,
                p,
                vec![jt("shoulder", side, Some(0.6), None)],
            ));
        }
        if let Some(b) = self.need_sided("arm_up", side, Role::UpperArm(side)) {
            let mut p = Pose::rest(s);
            if let Some(c) = self.rig.get(Role::Clavicle(side)) {
                ops::rotate_world(s, &mut p, c, Vec3::Z, 25.0 * x);
            }
            ops::aim(s, &mut p, b, Vec3::new(0.35 * x, 1.0, 0.0));
            self.out.push(sided(
                "arm_up",
                side,
                p,
                vec![jt("shoulder", side, None, Some(1.25))],
            ));
        }
        if let Some(b) = self.need_sided("arm_forward", side, Role::UpperArm(side)) {
            let mut p = Pose::rest(s);
            ops::aim(s, &mut p, b, Vec3::new(0.15 * x, 0.0, 1.0));
            let tests = vec![jt("shoulder", side, None, None)];
            self.out.push(sided("arm_forward", side, p, tests));
        }
        if let Some(b) = self.need_sided("clavicle_up", side, Role::Clavicle(side)) {
            let mut p = Pose::rest(s);
            ops::rotate_world(s, &mut p, b, Vec3::Z, 25.0 * x);
            let tests = vec![jt("shoulder", side, None, None)];
            self.out.push(sided("clavicle_up", side, p, tests));
        }
        if let Some(b) = self.need_sided("elbow_120", side, Role::Forearm(side)) {
            let mut p = Pose::rest(s);
            ops::hinge_to(s, &mut p, b, 120.0, Vec3::Z);
            let tests = vec![jt("elbow", side, Some(0.85), None)];
            self.out.push(sided("elbow_120", side, p, tests));
        }
        if let Some(b) = self.need_sided("wrist_twist_80", side, Role::Hand(side)) {
            // About the forearm's axis (a pronation), so a short hand bone pointing
            // off the forearm still twists the wrist; about the hand's own axis
            // without a forearm.
            let mut p = Pose::rest(s);
            match self.rig.get(Role::Forearm(side)) {
                Some(fa) => ops::rotate_world(s, &mut p, b, s.bones[fa].y_axis(), 80.0),
                None => ops::twist(s, &mut p, b, 80.0),
            }
            let tests = vec![jt("wrist", side, Some(0.9), None)];
            self.out.push(sided("wrist_twist_80", side, p, tests));
        }
    }

    /// The leg forward 60 deg and to the side 45 deg, the knee at 120 deg.
    fn leg_poses(&mut self, side: Side) {
        let (s, x) = (self.s, sx(side));
        if let Some(b) = self.need_sided("leg_forward", side, Role::Thigh(side)) {
            let mut p = Pose::rest(s);
            ops::rotate_world(s, &mut p, b, Vec3::X, -60.0);
            let tests = vec![jt("hip", side, Some(HIP_BAND_MIN), None)];
            self.out.push(sided("leg_forward", side, p, tests));
        }
        if let Some(b) = self.need_sided("leg_side", side, Role::Thigh(side)) {
            let mut p = Pose::rest(s);
            ops::rotate_world(s, &mut p, b, Vec3::Z, 45.0 * x);
            let tests = vec![jt("hip", side, Some(HIP_BAND_MIN), None)];
            self.out.push(sided("leg_side", side, p, tests));
        }
        if let Some(b) = self.need_sided("knee_120", side, Role::Calf(side)) {
            let mut p = Pose::rest(s);
            ops::hinge_to(s, &mut p, b, 120.0, Vec3::NEG_Z);
            let tests = vec![jt("knee", side, Some(0.85), None)];
            self.out.push(sided("knee_120", side, p, tests));
        }
    }

    /// Every bone under the hand curled about the palm normal (the thumb 35 deg, the
    /// others 75 deg).
    fn fist(&mut self, side: Side) {
        let s = self.s;
        let fingers = self
            .rig
            .get(Role::Hand(side))
            .map(|h| descendants(s, h))
            .unwrap_or_default();
        if fingers.is_empty() {
            self.skipped.push(format!(
                "fist.{}: no finger bones under {}",
                side.letter(),
                Role::Hand(side).key()
            ));
        } else if let Some(h) = self.rig.get(Role::Hand(side)) {
            let palm = palm_normal(s, h, &fingers, side);
            let mut p = Pose::rest(s);
            for &f in &fingers {
                let is_thumb = s.bones[f].name.to_ascii_lowercase().contains("thumb");
                let deg = if is_thumb { 35.0 } else { 75.0 };
                ops::hinge(s, &mut p, f, deg, palm);
            }
            self.out.push(sided("fist", side, p, vec![]));
        }
    }

    /// The squat with the feet planted ([`squat`]).
    fn squat(&mut self) {
        let s = self.s;
        let roles = [
            Role::Pelvis,
            Role::Thigh(Side::Left),
            Role::Thigh(Side::Right),
            Role::Calf(Side::Left),
            Role::Calf(Side::Right),
            Role::Foot(Side::Left),
            Role::Foot(Side::Right),
        ];
        if let Some(b) = self.need("squat", &roles) {
            self.out.push(NamedPose {
                tests: vec![
                    jt("knee", Side::Left, None, None),
                    jt("knee", Side::Right, None, None),
                ],
                planted: vec![s.bones[b[5]].name.clone(), s.bones[b[6]].name.clone()],
                ..centred("squat", squat(s, &b))
            });
        }
    }

    /// The spine chain twisted 45 deg and bent 40 deg, shared over its bones.
    fn spine_poses(&mut self) {
        let s = self.s;
        let spine = self.rig.spine_chain(s);
        if spine.is_empty() {
            self.skipped.push(
                "spine_twist, spine_bend: no spine chain between the pelvis and the neck".into(),
            );
            return;
        }
        let n = spine.len() as f32;
        let mut p = Pose::rest(s);
        for &b in &spine {
            ops::rotate_world(s, &mut p, b, Vec3::Y, 45.0 / n);
        }
        self.out.push(centred("spine_twist", p));
        let mut p = Pose::rest(s);
        for &b in &spine {
            ops::rotate_world(s, &mut p, b, Vec3::X, 40.0 / n);
        }
        self.out.push(centred("spine_bend", p));
    }

    /// The head turned 60 deg and nodded 30 deg (a third of it in the neck, when there
    /// is one).
    fn head_poses(&mut self) {
        let s = self.s;
        let Some(b) = self.need("head_turn", &[Role::Head]) else {
            self.skipped.push("head_nod: no bone for head".into());
            return;
        };
        for (name, axis, deg) in [("head_turn", Vec3::Y, 60.0), ("head_nod", Vec3::X, 30.0)] {
            self.out
                .push(centred(name, head_pose(s, self.rig, b[0], axis, deg)));
        }
    }

    /// The jaw opened 20 deg.
    fn jaw_open(&mut self) {
        match self.rig.get(Role::Jaw) {
            Some(j) => {
                let mut p = Pose::rest(self.s);
                ops::hinge(self.s, &mut p, j, 20.0, Vec3::NEG_Y);
                self.out.push(centred("jaw_open", p));
            }
            None => self
                .skipped
                .push("jaw_open: the rig has no jaw bone".into()),
        }
    }
}

/// All descendants of bone `h` (not `h` itself), parents first.
pub fn descendants(s: &Skeleton, h: usize) -> Vec<usize> {
    (h + 1..s.len()).filter(|&i| s.is_ancestor(h, i)).collect()
}

/// The palm's normal (world, unit) of hand `h`: perpendicular to the hand and to the
/// line across the knuckles (pinky -> index), on the side the fingers curl to.
/// Falls back to -Y (a T-pose palm facing down) when the fingers cannot be told apart.
pub(crate) fn palm_normal(s: &Skeleton, h: usize, fingers: &[usize], side: Side) -> Vec3 {
    let y = s.bones[h].y_axis();
    let direct: Vec<usize> = fingers
        .iter()
        .copied()
        .filter(|&f| s.bones[f].parent == Some(h))
        .collect();
    let find = |w: &str| {
        direct
            .iter()
            .copied()
            .find(|&f| s.bones[f].name.to_ascii_lowercase().contains(w))
    };
    if let (Some(i), Some(p)) = (find("index"), find("pinky").or(find("little"))) {
        let across = s.bones[i].head - s.bones[p].head;
        let n = if side == Side::Right {
            across.cross(y)
        } else {
            y.cross(across)
        };
        if let Some(n) = n.try_normalize() {
            return n;
        }
    }
    Vec3::NEG_Y
}
