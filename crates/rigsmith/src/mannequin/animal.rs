//! Procedural test animals, made as the mannequin is: a smooth union of capsules and
//! ellipsoids (trunk, hips, chest, four legs, neck, head, snout, ears, tail) extracted
//! as one closed shell by surface nets. They are the held-out animals of the quadruped
//! fitting tests (no artist file is needed), and the bad-input controls: a three-legged
//! animal, a snake, a spider and a bird with spread wings.
//!
//! ```
//! use rigsmith::mannequin::animal::{self, AnimalOptions, Beast};
//! let c = animal::build(&AnimalOptions { beast: Beast::Horse, ..Default::default() });
//! assert_eq!(c.parts[0].name, "body");
//! let j = animal::reference_joints(&AnimalOptions { beast: Beast::Horse, ..Default::default() });
//! assert!(j.iter().any(|(n, _)| *n == "hock_l"));
//! ```
//!
//! Space: glTF (metres, +Y up, the animal faces +Z, its left is +X), paws on y = 0,
//! the highest point (ear tips) at `height`. `facing_back` turns it to face -Z.

use glam::{Mat3, Vec3};

use super::sdf::{Shape, Union};
use super::surface_nets;
use crate::model::{Character, Mesh, Part};

/// The build of the animal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Beast {
    /// A wolf: digitigrade paws, pointed ears, a long tail.
    #[default]
    Wolf,
    /// A horse: long legs ending in hooves, a long neck, small ears.
    Horse,
    /// A cat: short legs, small head, a long thin tail.
    Cat,
}

/// What to build.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimalOptions {
    /// The build.
    pub beast: Beast,
    /// Height of the highest point (the ear tips), metres. Default 0.9.
    pub height: f32,
    /// Leg count: 4, or 3 (the front right leg left out: a bad-input control).
    pub legs: usize,
    /// Turn the animal to face -Z (facing must be found from the head).
    pub facing_back: bool,
    /// Grid spacing of the surface extraction, generator units (the trunk is about 0.8
    /// long; default 1/70: about 7k vertices for the wolf; 1/55 gives about 5k).
    pub grid: f32,
}

impl Default for AnimalOptions {
    fn default() -> Self {
        AnimalOptions {
            beast: Beast::Wolf,
            height: 0.9,
            legs: 4,
            facing_back: false,
            grid: 1.0 / 70.0,
        }
    }
}

/// Proportions of one build, generator units (the trunk is about 0.75 long).
struct Proportions {
    leg: f32,
    neck: f32,
    tail: f32,
    ear: f32,
    head: f32,
    hooves: bool,
}

fn proportions(b: Beast) -> Proportions {
    match b {
        Beast::Wolf => Proportions {
            leg: 1.0,
            neck: 1.0,
            tail: 1.0,
            ear: 1.0,
            head: 1.0,
            hooves: false,
        },
        Beast::Horse => Proportions {
            leg: 1.6,
            neck: 1.7,
            tail: 0.8,
            ear: 0.6,
            head: 1.25,
            hooves: true,
        },
        Beast::Cat => Proportions {
            leg: 0.75,
            neck: 0.6,
            tail: 1.3,
            ear: 0.8,
            head: 0.85,
            hooves: false,
        },
    }
}

/// The generator's joints (left side, +X) and shapes.
struct Layout {
    shapes: Vec<Shape>,
    joints: Vec<(&'static str, Vec3)>,
}

fn cap(a: Vec3, b: Vec3, r1: f32, r2: f32) -> Shape {
    Shape::Capsule { a, b, r1, r2 }
}

fn ell(c: Vec3, r: Vec3) -> Shape {
    Shape::Ellipsoid {
        c,
        r,
        frame: Mat3::IDENTITY,
    }
}

fn layout(o: &AnimalOptions) -> Layout {
    let p = proportions(o.beast);
    let v = Vec3::new;
    // Legs stand on y = 0; the trunk's underside at `belly`.
    let leg = 0.34 * p.leg;
    let belly = leg;
    let spine_y = belly + 0.17;
    let mut shapes = vec![
        ell(v(0.0, spine_y - 0.03, 0.0), v(0.13, 0.15, 0.40)),
        ell(v(0.0, spine_y - 0.02, 0.24), v(0.14, 0.16, 0.20)),
        ell(v(0.0, spine_y - 0.01, -0.26), v(0.13, 0.14, 0.18)),
    ];
    let mut joints: Vec<(&'static str, Vec3)> = Vec::new();
    let x = 0.095;
    // Hind leg: hip, knee (forward), hock (back), paw, toe tip.
    let hip = v(x, spine_y - 0.05, -0.27);
    let knee = v(x + 0.005, belly - 0.02 * p.leg, -0.17);
    let hock = v(x + 0.005, 0.33 * leg, -0.31);
    let paw = v(x + 0.005, 0.035, -0.27);
    let toe = v(x + 0.005, 0.02, -0.20);
    // Front leg: shoulder, elbow (back), wrist, paw, toe tip.
    let shoulder = v(x + 0.01, spine_y - 0.06, 0.28);
    let elbow = v(x + 0.01, belly - 0.02 * p.leg, 0.20);
    let wrist = v(x + 0.01, 0.28 * leg, 0.23);
    let fpaw = v(x + 0.01, 0.035, 0.25);
    let ftoe = v(x + 0.01, 0.02, 0.32);
    let s = 1.0 + 0.25 * (p.leg - 1.0);
    for (side, sx) in [(0usize, 1.0f32), (1, -1.0)] {
        let m = |q: Vec3| v(q.x * sx, q.y, q.z);
        shapes.push(cap(m(hip), m(knee), 0.085 * s, 0.05 * s));
        shapes.push(cap(m(knee), m(hock), 0.045 * s, 0.03 * s));
        shapes.push(cap(m(hock), m(paw), 0.03 * s, 0.028 * s));
        let front = o.legs >= 4 || side == 0;
        if front {
            shapes.push(cap(m(shoulder), m(elbow), 0.075 * s, 0.045 * s));
            shapes.push(cap(m(elbow), m(wrist), 0.04 * s, 0.03 * s));
            shapes.push(cap(m(wrist), m(fpaw), 0.03 * s, 0.028 * s));
        }
        if p.hooves {
            shapes.push(cap(m(paw), m(paw) + v(0.0, -0.015, 0.02), 0.032, 0.036));
            if front {
                shapes.push(cap(m(fpaw), m(fpaw) + v(0.0, -0.015, 0.02), 0.032, 0.036));
            }
        } else {
            shapes.push(ell(m(0.5 * (paw + toe)), v(0.035, 0.025, 0.055)));
            if front {
                shapes.push(ell(m(0.5 * (fpaw + ftoe)), v(0.035, 0.025, 0.055)));
            }
        }
    }
    joints.extend([
        ("hip_l", hip),
        ("knee_l", knee),
        ("hock_l", hock),
        ("paw_l", paw),
        ("shoulder_l", shoulder),
        ("elbow_l", elbow),
        ("wrist_l", wrist),
        ("front_paw_l", fpaw),
    ]);
    // Neck and head.
    let neck_base = v(0.0, spine_y + 0.02, 0.36);
    let head_pivot = neck_base + v(0.0, 0.16, 0.13) * p.neck;
    let hr = 0.08 * p.head;
    let head_c = head_pivot + v(0.0, 0.02, 0.06 * p.head);
    let snout = head_c + v(0.0, -0.03, 0.19 * p.head);
    shapes.push(cap(neck_base, head_pivot, 0.095, 0.065));
    shapes.push(ell(head_c, v(hr, hr, 1.2 * hr)));
    shapes.push(cap(
        head_c + v(0.0, -0.01, 0.04),
        snout,
        0.05 * p.head,
        0.028 * p.head,
    ));
    let ear_base = head_c + v(0.045 * p.head, 0.06 * p.head, -0.01);
    let ear_tip = ear_base + v(0.02, 0.12 * p.ear, -0.01);
    for sx in [1.0f32, -1.0] {
        let m = |q: Vec3| v(q.x * sx, q.y, q.z);
        shapes.push(cap(m(ear_base), m(ear_tip), 0.03 * p.ear.max(0.8), 0.006));
    }
    joints.extend([
        ("neck_base", neck_base),
        ("head", head_pivot),
        ("snout", snout),
        ("ear_base_l", ear_base),
        ("ear_tip_l", ear_tip),
    ]);
    // Tail: four capsules hanging back and down.
    let t0 = v(0.0, spine_y + 0.02, -0.40);
    let tail = [
        t0,
        t0 + v(0.0, -0.04, -0.14) * p.tail,
        t0 + v(0.0, -0.10, -0.27) * p.tail,
        t0 + v(0.0, -0.14, -0.40) * p.tail,
    ];
    let r = [0.045, 0.04, 0.03, 0.018];
    for k in 0..3 {
        shapes.push(cap(tail[k], tail[k + 1], r[k], r[k + 1]));
    }
    joints.extend([("tail_root", tail[0]), ("tail_tip", tail[3])]);
    Layout { shapes, joints }
}

/// Builds the animal: one part `body` (material `skin`), no skeleton. Deterministic.
pub fn build(o: &AnimalOptions) -> Character {
    let lay = layout(o);
    let (pos, tris) = extract(&lay.shapes, o.grid);
    finish(pos, tris, o)
}

/// The joint positions the generator used, left side (`_l`, +X) and centre, in the
/// space of [`build`]'s part: `hip_l`, `knee_l`, `hock_l`, `paw_l`, `shoulder_l`,
/// `elbow_l`, `wrist_l`, `front_paw_l`, `neck_base`, `head` (top of the neck),
/// `snout`, `ear_base_l`, `ear_tip_l`, `tail_root`, `tail_tip`.
pub fn reference_joints(o: &AnimalOptions) -> Vec<(&'static str, Vec3)> {
    let lay = layout(o);
    let (pos, _) = extract(&lay.shapes, o.grid);
    let nz = normalize(&pos, o.height);
    lay.joints
        .iter()
        .map(|(n, p)| (*n, place(nz, *p, o.facing_back)))
        .collect()
}

/// A creature that is neither a biped nor a quadruped, for the refusal tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oddity {
    /// A snake lying along the floor (no legs).
    Snake,
    /// A spider: a body on eight legs.
    Spider,
    /// A bird on two legs with its wings spread.
    Bird,
}

/// Builds one of the [`Oddity`] controls, about `height` tall, one part `body`.
pub fn oddity(kind: Oddity, height: f32) -> Character {
    let v = Vec3::new;
    let mut shapes = Vec::new();
    match kind {
        Oddity::Snake => {
            let n = 8;
            for k in 0..n {
                let z = |k: usize| -0.8 + 1.6 * k as f32 / n as f32;
                let xz = |k: usize| 0.12 * (k as f32 * 0.9).sin();
                shapes.push(cap(
                    v(xz(k), 0.06, z(k)),
                    v(xz(k + 1), 0.06, z(k + 1)),
                    0.06,
                    0.06 - 0.005 * (k + 1) as f32,
                ));
            }
        }
        Oddity::Spider => {
            shapes.push(ell(v(0.0, 0.3, 0.0), v(0.15, 0.1, 0.2)));
            for k in 0..4 {
                let z = -0.15 + 0.1 * k as f32;
                for sx in [1.0f32, -1.0] {
                    let knee = v(0.3 * sx, 0.45, z * 1.5);
                    shapes.push(cap(v(0.1 * sx, 0.3, z), knee, 0.03, 0.025));
                    shapes.push(cap(knee, v(0.5 * sx, 0.0, z * 2.0), 0.025, 0.015));
                }
            }
        }
        Oddity::Bird => {
            shapes.push(ell(v(0.0, 0.45, 0.0), v(0.12, 0.12, 0.22)));
            shapes.push(ell(v(0.0, 0.62, 0.2), v(0.07, 0.07, 0.08)));
            for sx in [1.0f32, -1.0] {
                shapes.push(cap(
                    v(0.05 * sx, 0.38, 0.0),
                    v(0.06 * sx, 0.0, 0.02),
                    0.025,
                    0.015,
                ));
                shapes.push(Shape::Ellipsoid {
                    c: v(0.45 * sx, 0.5, 0.0),
                    r: v(0.4, 0.02, 0.12),
                    frame: Mat3::IDENTITY,
                });
            }
        }
    }
    let (pos, tris) = extract(&shapes, 1.0 / 120.0);
    let o = AnimalOptions {
        height,
        ..Default::default()
    };
    finish(pos, tris, &o)
}

/// Surface nets on the union of `shapes`, grid `grid` generator units.
fn extract(shapes: &[Shape], grid: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let u = Union::new(shapes, 0.02);
    let (lo, hi) = u.bounds();
    let lo = lo - Vec3::splat(2.0 * grid);
    let hi = hi + Vec3::splat(2.0 * grid);
    let n = ((hi - lo) / grid).ceil();
    let dims = [n.x as usize + 1, n.y as usize + 1, n.z as usize + 1];
    surface_nets::extract(&|p| u.distance(p), lo, grid, dims)
}

/// `(floor, factor)`: generator units to metres.
fn normalize(pos: &[Vec3], height: f32) -> (f32, f32) {
    let lo = pos.iter().fold(f32::INFINITY, |a, p| a.min(p.y));
    let hi = pos.iter().fold(f32::NEG_INFINITY, |a, p| a.max(p.y));
    let height = if height.is_finite() && height > 0.0 {
        height
    } else {
        0.9
    };
    (lo, height / (hi - lo).max(1e-6))
}

fn place((floor, f): (f32, f32), p: Vec3, back: bool) -> Vec3 {
    let q = Vec3::new(p.x, p.y - floor, p.z) * f;
    if back {
        Vec3::new(-q.x, q.y, -q.z)
    } else {
        q
    }
}

fn finish(pos: Vec<Vec3>, tris: Vec<[u32; 3]>, o: &AnimalOptions) -> Character {
    let nz = normalize(&pos, o.height);
    let positions = pos
        .into_iter()
        .map(|p| place(nz, p, o.facing_back))
        .collect();
    Character {
        parts: vec![Part {
            name: "body".into(),
            material: Some("skin".into()),
            mesh: Mesh {
                positions,
                triangles: tris,
                normals: None,
                uvs: None,
            },
            weights: None,
            morphs: Vec::new(),
        }],
        ..Default::default()
    }
}
