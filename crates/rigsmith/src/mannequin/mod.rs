//! The built-in procedural test mannequin: a realistic, deterministic humanoid body to
//! rig when no other character is at hand, and the ground truth for fitting tests.
//!
//! ```
//! use rigsmith::mannequin::{self, MannequinOptions, ArmPose};
//! let o = MannequinOptions { pose: ArmPose::A, skirt: true, hair: true, ..Default::default() };
//! let c = mannequin::build(&o);                 // parts: body, eyes, shirt, skirt, hair
//! let joints = mannequin::reference_joints(&o); // where the generator put each joint
//! assert_eq!(c.parts[0].name, "body");
//! assert!(joints.iter().any(|(n, _)| *n == "lowerarm_l"));
//! ```
//!
//! ## How it is made
//! The body is a smooth union of about thirty primitives (ellipsoids for head, chest,
//! abdomen, pelvis, deltoids, hands and feet; tapered capsules for neck and limbs; see
//! `layout.rs`) given as signed distance fields, extracted as one closed manifold-like
//! shell by surface nets on a grid of spacing H/125 (about 15,000 vertices at any
//! height: the mesh density is relative to the height). This is the kind of mesh a
//! sculpt and a voxel remesh give. `raw: true` keeps the primitives as separate,
//! intersecting closed shells in one part instead (the kind of mesh on which bone heat
//! fails, to test fallbacks).
//!
//! Separate parts, each with its own material name:
//! * `body` (`skin`); `eyes` (`eyes`, two UV spheres half sunk into the head);
//! * `shirt` (`cloth_shirt`): the torso region of the body pushed out by H/170 along the
//!   normals, an overlapping garment;
//! * `skirt` (`cloth_skirt`, optional): a flared open tube from the waist to above the
//!   knees, kept outside the body;
//! * `hair` (`hair`, optional): a scalp cap with bangs and two twin tails down the back.
//!
//! Space: glTF (metres, +Y up, facing +Z, left = +X), feet at y = 0, head top at
//! `height`. The mannequin is unrigged: [`reference_joints`] gives the joint positions
//! the generator used.

pub mod animal;
mod garments;
mod layout;
mod primitives;
mod refine;
pub mod robot;
mod sdf;
mod surface_nets;

use glam::Vec3;

use crate::model::{Character, Mesh, Part};

/// The arm pose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ArmPose {
    /// Arms horizontal.
    #[default]
    T,
    /// Arms lowered by [`MannequinOptions::arm_angle_deg`] below horizontal.
    A,
}

/// What to build.
#[derive(Debug, Clone, PartialEq)]
pub struct MannequinOptions {
    /// T or A pose.
    pub pose: ArmPose,
    /// A pose only: degrees below horizontal (default 45, sane range 0..=80).
    pub arm_angle_deg: f32,
    /// Total height, metres (feet at 0, head top at `height`). Default 1.75.
    pub height: f32,
    /// Head size relative to a realistic head (> 1 is stylized). Default 1.0, sane 0.5..=3.
    pub head_scale: f32,
    /// Add the `eyes` part (default on).
    pub eyes: bool,
    /// Add the `shirt` part (default on).
    pub shirt: bool,
    /// Intersecting primitives instead of one shell (default off).
    pub raw: bool,
    /// Add the `skirt` part (default off).
    pub skirt: bool,
    /// Add the `hair` part (default off).
    pub hair: bool,
}

impl Default for MannequinOptions {
    fn default() -> Self {
        MannequinOptions {
            pose: ArmPose::T,
            arm_angle_deg: 45.0,
            height: 1.75,
            head_scale: 1.0,
            eyes: true,
            shirt: true,
            raw: false,
            skirt: false,
            hair: false,
        }
    }
}

impl MannequinOptions {
    /// Checks the numbers: height positive and finite, head scale in 0.5..=3, arm angle
    /// in 0..=80 degrees.
    pub fn validate(&self) -> crate::Result<()> {
        use crate::Error;
        if !(self.height.is_finite() && self.height > 0.0) {
            return Err(Error::invalid(
                "mannequin options",
                format!("height {} is not a positive number", self.height),
            ));
        }
        if !(0.5..=3.0).contains(&self.head_scale) {
            return Err(Error::invalid(
                "mannequin options",
                format!("head scale {} is outside 0.5..=3", self.head_scale),
            ));
        }
        if !(0.0..=80.0).contains(&self.arm_angle_deg) {
            return Err(Error::invalid(
                "mannequin options",
                format!("arm angle {} is outside 0..=80 degrees", self.arm_angle_deg),
            ));
        }
        Ok(())
    }

    /// The options with out-of-range numbers replaced by the nearest sane value (NaN
    /// by the default), and what was changed.
    fn sanitized(&self) -> (MannequinOptions, Vec<String>) {
        let d = MannequinOptions::default();
        let mut o = self.clone();
        let mut w = Vec::new();
        if !(o.height.is_finite() && o.height > 0.0) {
            w.push(format!(
                "mannequin: height {} replaced by {}",
                o.height, d.height
            ));
            o.height = d.height;
        }
        let hs = if o.head_scale.is_nan() {
            1.0
        } else {
            o.head_scale.clamp(0.5, 3.0)
        };
        if hs != o.head_scale {
            w.push(format!(
                "mannequin: head scale {} replaced by {hs}",
                o.head_scale
            ));
            o.head_scale = hs;
        }
        let a = if o.arm_angle_deg.is_nan() {
            45.0
        } else {
            o.arm_angle_deg.clamp(0.0, 80.0)
        };
        if a != o.arm_angle_deg {
            w.push(format!(
                "mannequin: arm angle {} replaced by {a}",
                o.arm_angle_deg
            ));
            o.arm_angle_deg = a;
        }
        (o, w)
    }
}

/// Blend band of the smooth union, generator units.
const BLEND: f32 = 0.02;
/// Grid spacing, generator units (body height ≈ 1).
const GRID: f32 = 1.0 / 125.0;

/// Generator units -> glTF metres: `(p - (0, floor, 0)) * factor`.
#[derive(Debug, Clone, Copy)]
struct Normalize {
    floor: f32,
    factor: f32,
}

impl Normalize {
    fn apply(&self, p: Vec3) -> Vec3 {
        Vec3::new(p.x, p.y - self.floor, p.z) * self.factor
    }
}

fn body_union(lay: &layout::Layout) -> sdf::Union {
    let shapes: Vec<sdf::Shape> = lay.shapes.iter().map(|(s, _)| *s).collect();
    sdf::Union::new(&shapes, BLEND)
}

fn body_mesh(
    o: &MannequinOptions,
    lay: &layout::Layout,
    u: &sdf::Union,
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    if o.raw {
        let mut m = (Vec::new(), Vec::new());
        for (s, _) in &lay.shapes {
            primitives::append(&mut m, primitives::shape_mesh(s));
        }
        return m;
    }
    let (lo, hi) = u.bounds();
    let lo = lo - Vec3::splat(2.0 * GRID);
    let hi = hi + Vec3::splat(2.0 * GRID);
    let n = ((hi - lo) / GRID).ceil();
    let dims = [n.x as usize + 1, n.y as usize + 1, n.z as usize + 1];
    let (mut pos, mut tris) = surface_nets::extract(&|p| u.distance(p), lo, GRID, dims);
    refine::refine_near_eyes(&mut pos, &mut tris, &lay.eyes, lay.eye_radius, &|p| {
        u.distance(p)
    });
    (pos, tris)
}

fn normalization(body: &[Vec3], height: f32) -> Normalize {
    let (lo, hi) = crate::model::Mesh {
        positions: body.to_vec(),
        ..Default::default()
    }
    .bounds();
    Normalize {
        floor: lo.y,
        factor: height / (hi.y - lo.y).max(1e-6),
    }
}

fn part(name: &str, material: &str, m: (Vec<Vec3>, Vec<[u32; 3]>), nz: Normalize) -> Part {
    Part {
        name: name.into(),
        material: Some(material.into()),
        mesh: Mesh {
            positions: m.0.into_iter().map(|p| nz.apply(p)).collect(),
            triangles: m.1,
            normals: None,
            uvs: None,
        },
        weights: None,
        morphs: Vec::new(),
    }
}

/// Builds the mannequin: parts `body`, then (as enabled) `eyes`, `shirt`, `skirt`,
/// `hair`; no skeleton. Deterministic: the same options give the same numbers, bit for
/// bit. Out-of-range options are clamped with a warning in `warnings` (use
/// [`MannequinOptions::validate`] to refuse them instead).
pub fn build(o: &MannequinOptions) -> Character {
    let (o, warnings) = o.sanitized();
    let lay = layout::layout(&o);
    let u = body_union(&lay);
    let body = body_mesh(&o, &lay, &u);
    let nz = normalization(&body.0, o.height);
    remember_normalization(&o, nz);
    let body_normals = Mesh {
        positions: body.0.clone(),
        triangles: body.1.clone(),
        ..Default::default()
    }
    .compute_normals();
    let mut parts = Vec::new();
    let shirt = o
        .shirt
        .then(|| garments::shirt(&body.0, &body.1, &body_normals, &lay, 0.006));
    parts.push(part("body", "skin", body, nz));
    if o.eyes {
        let mut m = (Vec::new(), Vec::new());
        for c in lay.eyes {
            primitives::append(
                &mut m,
                primitives::uv_ellipsoid(
                    c,
                    Vec3::splat(lay.eye_radius),
                    glam::Mat3::IDENTITY,
                    16,
                    8,
                ),
            );
        }
        parts.push(part("eyes", "eyes", m, nz));
    }
    if let Some(s) = shirt {
        parts.push(part("shirt", "cloth_shirt", s, nz));
    }
    if o.skirt {
        parts.push(part(
            "skirt",
            "cloth_skirt",
            garments::skirt(&u, 48, 16, 0.008),
            nz,
        ));
    }
    if o.hair {
        parts.push(part("hair", "hair", garments::hair(&u, &lay, 0.006), nz));
    }
    Character {
        parts,
        skeleton: None,
        vrm: None,
        warnings,
        ..Default::default()
    }
}

/// The joint positions the generator used, glTF metres, in the same space as
/// [`build`]'s parts: centre joints `pelvis`, `spine_01`..`spine_03`, `neck_01` (neck
/// base), `head` (top of the neck), `head_end` (top of the skull), and per side (`_l`
/// = +X, `_r`) `clavicle`, `upperarm` (shoulder), `lowerarm` (elbow), `hand` (wrist),
/// `hand_end` (hand tip), `thigh` (hip), `calf` (knee), `foot` (ankle), `ball`,
/// `toe_end`, `eye` (eyeball centre). Named after the bones of a game-engine skeleton
/// that start there.
pub fn reference_joints(o: &MannequinOptions) -> Vec<(&'static str, Vec3)> {
    let (o, _) = o.sanitized();
    let lay = layout::layout(&o);
    let nz = match cached_normalization(&o) {
        Some(nz) => nz,
        None => {
            let u = body_union(&lay);
            let body = body_mesh(&o, &lay, &u);
            let nz = normalization(&body.0, o.height);
            remember_normalization(&o, nz);
            nz
        }
    };
    lay.joints.iter().map(|(n, p)| (*n, nz.apply(*p))).collect()
}

/// The normalization depends on the extracted body; remember the last few so that
/// [`reference_joints`] after [`build`] does not extract the body again. The cached
/// value is exactly the one a fresh extraction gives (extraction is deterministic).
static NORMALIZATIONS: std::sync::Mutex<Vec<(MannequinOptions, Normalize)>> =
    std::sync::Mutex::new(Vec::new());

/// Options that change the body's shape (eyes, shirt, skirt, hair do not).
fn shape_key(o: &MannequinOptions) -> MannequinOptions {
    MannequinOptions {
        eyes: false,
        shirt: false,
        skirt: false,
        hair: false,
        ..o.clone()
    }
}

fn cached_normalization(o: &MannequinOptions) -> Option<Normalize> {
    let k = shape_key(o);
    let cache = NORMALIZATIONS.lock().ok()?;
    cache.iter().find(|(c, _)| *c == k).map(|(_, n)| *n)
}

fn remember_normalization(o: &MannequinOptions, nz: Normalize) {
    if let Ok(mut cache) = NORMALIZATIONS.lock() {
        let k = shape_key(o);
        if !cache.iter().any(|(c, _)| *c == k) {
            if cache.len() >= 16 {
                cache.remove(0);
            }
            cache.push((k, nz));
        }
    }
}

/// Wavefront OBJ text of a character's parts: one `o` object per part (named as the
/// part, with `usemtl` when it has a material), positions in glTF space, 1-based
/// faces. Deterministic (shortest round-trip float formatting).
pub fn obj_text(c: &Character) -> String {
    use std::fmt::Write;
    let mut s = String::from("# rigsmith mannequin (glTF space: metres, +Y up, facing +Z)\n");
    let mut base = 1usize;
    for p in &c.parts {
        let _ = writeln!(s, "o {}", p.name);
        if let Some(m) = &p.material {
            let _ = writeln!(s, "usemtl {m}");
        }
        for v in &p.mesh.positions {
            let _ = writeln!(s, "v {} {} {}", v.x, v.y, v.z);
        }
        for t in &p.mesh.triangles {
            let _ = writeln!(
                s,
                "f {} {} {}",
                t[0] as usize + base,
                t[1] as usize + base,
                t[2] as usize + base
            );
        }
        base += p.mesh.positions.len();
    }
    s
}
