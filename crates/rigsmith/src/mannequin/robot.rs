//! A procedural robot: the mechanical test character, built in as the mannequin is.
//! Hard-surface pieces, each a closed box or cylinder (an island): pelvis, torso and
//! head blocks, a visor on its own hinge, shoulder plates, arm and leg plates, hinge
//! pins through the elbows and knees (they interpenetrate the plates at rest, as pins
//! do), and a piston on each thigh whose rod rides the shin. It comes with its
//! skeleton (a robot is built on its joints) and the bones its own pieces move on.
//!
//! Space: glTF (metres, +Y up, facing +Z, left +X), feet on y = 0, top at `height`.

use glam::Vec3;

use crate::mech::{Action, ActionKey, OwnBone};
use crate::model::{Bone, Character, Mesh, Part, Skeleton};
use crate::pose::library::NamedPose;
use crate::pose::{ops, Pose};
use crate::Side;

fn add_box(m: &mut Mesh, c: Vec3, half: Vec3) {
    let base = m.positions.len() as u32;
    for k in 0..8u32 {
        let s = Vec3::new(
            if k & 1 == 0 { -1.0 } else { 1.0 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        );
        m.positions.push(c + s * half);
    }
    for t in [
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ] {
        m.triangles.push(t.map(|i| base + i));
    }
}

/// A closed cylinder from `a` to `b`, radius `r`, 12 sides.
fn add_cylinder(m: &mut Mesh, a: Vec3, b: Vec3, r: f32) {
    let n = 12u32;
    let d = (b - a).normalize_or_zero();
    let u = d.any_orthonormal_vector();
    let v = d.cross(u);
    let base = m.positions.len() as u32;
    for end in [a, b] {
        for k in 0..n {
            let t = k as f32 / n as f32 * std::f32::consts::TAU;
            m.positions.push(end + (u * t.cos() + v * t.sin()) * r);
        }
    }
    m.positions.push(a);
    m.positions.push(b);
    let (ca, cb) = (base + 2 * n, base + 2 * n + 1);
    for k in 0..n {
        let (i, j) = (base + k, base + (k + 1) % n);
        let (i2, j2) = (i + n, j + n);
        m.triangles.push([i, i2, j]);
        m.triangles.push([j, i2, j2]);
        m.triangles.push([ca, j, i]);
        m.triangles.push([cb, i2, j2]);
    }
}

/// The robot's joints in units of its height: name, parent, head, tail, deform.
type BoneRow = (String, String, Vec3, Vec3, bool);

/// The limb bones of the left side (+X; the right mirrors them, its names end in `_r`):
/// name stem, parent (a stem of this table takes the side's suffix), head, tail.
const LIMBS: [(&str, &str, [f32; 3], [f32; 3]); 5] = [
    ("upperarm", "spine", [0.17, 0.82, 0.0], [0.17, 0.62, 0.0]),
    (
        "lowerarm",
        "upperarm",
        [0.17, 0.62, 0.0],
        [0.17, 0.44, 0.01],
    ),
    ("thigh", "pelvis", [0.08, 0.5, 0.0], [0.08, 0.27, 0.01]),
    ("calf", "thigh", [0.08, 0.27, 0.01], [0.08, 0.04, 0.0]),
    ("piston", "thigh", [0.08, 0.45, 0.07], [0.08, 0.33, 0.07]),
];

fn bones() -> Vec<BoneRow> {
    let v = Vec3::new;
    let r = |n: &str, p: &str, a: Vec3, b: Vec3, d: bool| (n.to_string(), p.to_string(), a, b, d);
    let mut b = vec![
        r("root", "", v(0.0, 0.0, 0.0), v(0.0, 0.0, 0.1), false),
        r("pelvis", "root", v(0.0, 0.5, 0.0), v(0.0, 0.6, 0.0), true),
        r("spine", "pelvis", v(0.0, 0.6, 0.0), v(0.0, 0.85, 0.0), true),
        r("head", "spine", v(0.0, 0.85, 0.0), v(0.0, 1.0, 0.0), true),
        r(
            "visor",
            "head",
            v(0.0, 0.96, 0.07),
            v(0.0, 0.90, 0.08),
            true,
        ),
        r(
            "visor_lever",
            "head",
            v(0.06, 0.97, 0.0),
            v(0.06, 1.0, 0.0),
            false,
        ),
    ];
    for (s, x) in [("l", 1.0f32), ("r", -1.0)] {
        let mirror = |p: [f32; 3]| v(p[0] * x, p[1], p[2]);
        for (stem, parent, head, tail) in LIMBS {
            let parent = if LIMBS.iter().any(|l| l.0 == parent) {
                format!("{parent}_{s}")
            } else {
                parent.to_string()
            };
            b.push(r(
                &format!("{stem}_{s}"),
                &parent,
                mirror(head),
                mirror(tail),
                true,
            ));
        }
    }
    b
}

/// Builds the robot about `height` tall: parts `body` (blocks and limb plates),
/// `visor`, `plates` (shoulder plates), `hinges` (pins), `pistons` (cylinder and rod
/// per leg), its skeleton, and the bones its own pieces move on.
pub fn build(height: f32) -> (Character, Vec<OwnBone>) {
    let h = if height.is_finite() && height > 0.0 {
        height
    } else {
        1.8
    };
    let v = Vec3::new;
    let mut body = Mesh::default();
    add_box(&mut body, v(0.0, 0.55, 0.0), v(0.1, 0.05, 0.07));
    add_box(&mut body, v(0.0, 0.73, 0.0), v(0.12, 0.11, 0.08));
    add_box(&mut body, v(0.0, 0.92, 0.0), v(0.07, 0.07, 0.07));
    let mut plates = Mesh::default();
    let mut hinges = Mesh::default();
    let mut pistons = Mesh::default();
    let mut own: Vec<OwnBone> = Vec::new();
    for x in [1.0f32, -1.0] {
        add_box(&mut body, v(0.17 * x, 0.72, 0.0), v(0.035, 0.09, 0.035));
        add_box(&mut body, v(0.17 * x, 0.53, 0.005), v(0.03, 0.08, 0.03));
        add_box(&mut body, v(0.08 * x, 0.385, 0.005), v(0.045, 0.1, 0.045));
        add_box(&mut body, v(0.08 * x, 0.15, 0.005), v(0.04, 0.1, 0.04));
        add_box(&mut body, v(0.08 * x, 0.02, 0.03), v(0.045, 0.02, 0.07));
        add_box(&mut plates, v(0.17 * x, 0.84, 0.0), v(0.055, 0.015, 0.055));
        add_cylinder(
            &mut hinges,
            v(0.13 * x, 0.62, 0.0),
            v(0.21 * x, 0.62, 0.0),
            0.025,
        );
        add_cylinder(
            &mut hinges,
            v(0.03 * x, 0.27, 0.01),
            v(0.13 * x, 0.27, 0.01),
            0.03,
        );
        add_cylinder(
            &mut pistons,
            v(0.08 * x, 0.45, 0.07),
            v(0.08 * x, 0.33, 0.07),
            0.015,
        );
        add_cylinder(
            &mut pistons,
            v(0.08 * x, 0.34, 0.07),
            v(0.08 * x, 0.22, 0.07),
            0.008,
        );
    }
    let mut visor = Mesh::default();
    add_box(&mut visor, v(0.0, 0.92, 0.077), v(0.06, 0.03, 0.006));
    // Own bones: the visor, each piston's cylinder (the piston bone) and rod (the calf).
    own.push((1, 0, "visor".into()));
    own.push((4, 0, "piston_l".into()));
    own.push((4, 1, "calf_l".into()));
    own.push((4, 2, "piston_r".into()));
    own.push((4, 3, "calf_r".into()));
    let scale = |mut m: Mesh| {
        for p in &mut m.positions {
            *p *= h;
        }
        m
    };
    let part = |name: &str, m: Mesh| Part {
        name: name.into(),
        material: Some(format!("metal_{name}")),
        mesh: scale(m),
        weights: None,
        morphs: Vec::new(),
    };
    let mut bs: Vec<Bone> = Vec::new();
    for (name, parent, head, tail, deform) in bones() {
        let p = bs.iter().position(|b| b.name == parent);
        let mut b = Bone::new(name, p, head * h, tail * h);
        b.deform = deform;
        bs.push(b);
    }
    let c = Character {
        parts: vec![
            part("body", body),
            part("visor", visor),
            part("plates", plates),
            part("hinges", hinges),
            part("pistons", pistons),
        ],
        skeleton: Some(Skeleton { bones: bs }),
        ..Default::default()
    };
    (c, own)
}

/// The robot's action: the visor lever's travel (0 to 5% of `height`, metres) opens
/// the visor 70 deg and swings both pistons 10 deg.
pub fn visor_action(height: f32) -> Action {
    Action {
        name: "visor_open".into(),
        control: "visor_lever".into(),
        travel: 0.05 * height,
        keys: vec![
            ActionKey {
                bone: "visor".into(),
                axis: [1.0, 0.0, 0.0],
                degrees: -70.0,
            },
            ActionKey {
                bone: "piston_l".into(),
                axis: [1.0, 0.0, 0.0],
                degrees: 10.0,
            },
            ActionKey {
                bone: "piston_r".into(),
                axis: [1.0, 0.0, 0.0],
                degrees: 10.0,
            },
        ],
    }
}

/// The robot's test poses: knees, elbows, head turn, spine twist, the visor action at
/// half and full travel.
pub fn poses(s: &Skeleton) -> Vec<NamedPose> {
    let np = |name: &str, pose: Pose| NamedPose {
        name: name.into(),
        pose,
        side: Side::Center,
        tests: vec![],
        planted: vec![],
    };
    let mut out = Vec::new();
    let id = |n: &str| s.find(n);
    let mut p = Pose::rest(s);
    for n in ["calf_l", "calf_r"] {
        if let Some(i) = id(n) {
            ops::rotate_world(s, &mut p, i, Vec3::X, 70.0);
        }
    }
    out.push(np("knees_70", p));
    let mut p = Pose::rest(s);
    for n in ["lowerarm_l", "lowerarm_r"] {
        if let Some(i) = id(n) {
            ops::rotate_world(s, &mut p, i, Vec3::X, -90.0);
        }
    }
    out.push(np("elbows_90", p));
    let mut p = Pose::rest(s);
    if let Some(i) = id("head") {
        ops::rotate_world(s, &mut p, i, Vec3::Y, 45.0);
    }
    out.push(np("head_turn", p));
    let mut p = Pose::rest(s);
    if let Some(i) = id("spine") {
        ops::rotate_world(s, &mut p, i, Vec3::Y, 30.0);
    }
    out.push(np("spine_twist", p));
    let h = s.height();
    for (name, f) in [("visor_half", 0.5), ("visor_open", 1.0)] {
        let mut p = Pose::rest(s);
        let a = visor_action(h);
        a.apply(s, &mut p, f * a.travel);
        out.push(np(name, p));
    }
    out
}
