//! Keys that combine cleanly: the self-intersections of the face under two keys
//! together, and the easing of one key where it fights the other.
//!
//! Expression units are authored one at a time: MakeHuman's corner puller and mouth
//! opening each leave the lips clear, but together they push the lips through each
//! other, and an eye closure over a half eye slit drives the upper lid through the
//! lower. A VRM runtime adds expressions linearly, so the only fix it plays is in the
//! keys themselves. [`ease_combinations`] eases the first key of each pair of
//! [`EASED`] (the expression that is not a viseme or the blink) where the pair makes
//! new self-intersections: the vertices of the crossing triangles get their offsets
//! scaled by [`STEP`], their neighbours by `STEP^(1/2)` and the next ring by
//! `STEP^(1/4)` (a smooth falloff), until the pair makes none
//! ([`super::checks::combinations`]' measure: not at rest, not under either key
//! alone); at most [`MAX_PASSES`] passes. The other key is never changed (`aa` still
//! opens the mouth as far, `blink` still closes the lids). Parts that carry the same
//! key (the lashes) take the scale of their nearest skin vertex, so they stay on
//! the lids.

use std::collections::HashSet;

use glam::Vec3;

use crate::model::{Body, Character, Mesh};

/// The key pairs eased: `(eased, kept)`, measured as the `face.combinations` check
/// measures them (`happy + aa`, `blink + relaxed`).
pub const EASED: [(&str, &str); 2] = [("happy", "aa"), ("relaxed", "blink")];
/// The scale a crossing triangle's vertices take per pass.
pub const STEP: f32 = 0.7;
/// Passes before giving up (the scale left is then `STEP^MAX_PASSES`, about 1e-6).
pub const MAX_PASSES: usize = 40;
/// How far a vertex of another part looks for the skin vertex whose scale it takes,
/// in units of H.
pub const REACH_H: f32 = 0.01;

/// Whether a morph target of the skin is a face key: every one but the joint
/// correctives (which the rig adds after the face, for the body's bends, and which a
/// rigged file carries beside the face's keys; their own checks judge them).
pub fn is_face_key(name: &str) -> bool {
    !crate::deform::correctives::is_corrective(name)
}

/// The face of a skin part: the vertices some face key moves (more than 1e-5 H).
pub fn face_vertices(p: &crate::model::Part, h: f32) -> Vec<bool> {
    (0..p.mesh.positions.len())
        .map(|v| {
            p.morphs
                .iter()
                .filter(|m| is_face_key(&m.name))
                .any(|m| m.position_deltas[v].length() > 1e-5 * h)
        })
        .collect()
}

/// Self-intersecting triangle pairs of a mesh's face under sums of key offsets.
pub struct FacePairs<'a> {
    mesh: &'a Mesh,
    active: Vec<bool>,
}

impl<'a> FacePairs<'a> {
    /// The triangles with a vertex flagged in `face` are looked at.
    pub fn new(mesh: &'a Mesh, face: &[bool]) -> FacePairs<'a> {
        let active = mesh
            .triangles
            .iter()
            .map(|t| t.iter().any(|&v| face[v as usize]))
            .collect();
        FacePairs { mesh, active }
    }

    /// The intersecting pairs with the offsets `keys` added to the rest positions.
    pub fn under(&self, keys: &[&[Vec3]]) -> HashSet<(u32, u32)> {
        let posed: Vec<Vec3> = (0..self.mesh.positions.len())
            .map(|v| self.mesh.positions[v] + keys.iter().map(|x| x[v]).sum::<Vec3>())
            .collect();
        crate::review::intersect::intersecting_pairs(
            &posed,
            &self.mesh.triangles,
            Some(&self.active),
        )
        .into_iter()
        .collect()
    }

    /// The pairs under `a + b` that are not in `base` (the pairs at rest and under
    /// `b` alone) nor under `a` alone.
    pub fn new_under(&self, base: &HashSet<(u32, u32)>, a: &[Vec3], b: &[Vec3]) -> Vec<(u32, u32)> {
        let alone = self.under(&[a]);
        let mut v: Vec<(u32, u32)> = self
            .under(&[a, b])
            .into_iter()
            .filter(|p| !base.contains(p) && !alone.contains(p))
            .collect();
        v.sort_unstable();
        v
    }
}

/// What easing one key did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Eased {
    /// Passes run.
    pub passes: usize,
    /// Vertices whose offsets were scaled down.
    pub vertices: usize,
    /// The smallest scale left on a vertex.
    pub least: f32,
    /// The largest offset a vertex lost, metres.
    pub lost: f32,
    /// New pairs the combination still makes (0 unless [`MAX_PASSES`] ran out).
    pub left: usize,
}

/// Each vertex's ring distance (0, 1, 2) from the flagged vertices, `u8::MAX` beyond.
fn rings(hit: &[bool], nb: &[Vec<u32>]) -> Vec<u8> {
    let mut d: Vec<u8> = hit.iter().map(|h| if *h { 0 } else { u8::MAX }).collect();
    for r in 1..=2u8 {
        let prev = d.clone();
        for (v, n) in nb.iter().enumerate() {
            if prev[v] == u8::MAX && n.iter().any(|&u| prev[u as usize] == r - 1) {
                d[v] = r;
            }
        }
    }
    d
}

/// Each vertex's neighbours over the mesh's edges.
pub(crate) fn neighbours(mesh: &Mesh) -> Vec<Vec<u32>> {
    let mut nb: Vec<Vec<u32>> = vec![Vec::new(); mesh.positions.len()];
    for (a, b) in mesh.edges() {
        nb[a as usize].push(b);
        nb[b as usize].push(a);
    }
    nb
}

/// The per-vertex scale of key `a` that leaves `a + b` no new pairs (see the module
/// docs); `base` holds the pairs at rest and under `b` alone.
pub fn ease(
    fp: &FacePairs<'_>,
    base: &HashSet<(u32, u32)>,
    a: &[Vec3],
    b: &[Vec3],
) -> (Vec<f32>, Eased) {
    let tris = &fp.mesh.triangles;
    let nb = neighbours(fp.mesh);
    let mut s = vec![1.0f32; a.len()];
    let scaled = |s: &[f32]| -> Vec<Vec3> { a.iter().zip(s).map(|(d, k)| *d * *k).collect() };
    let mut passes = 0;
    let mut left = fp.new_under(base, a, b);
    while !left.is_empty() && passes < MAX_PASSES {
        let mut hit = vec![false; a.len()];
        for (i, j) in &left {
            for t in [*i, *j] {
                for v in tris[t as usize] {
                    hit[v as usize] = true;
                }
            }
        }
        for (k, r) in s.iter_mut().zip(rings(&hit, &nb)) {
            *k *= match r {
                0 => STEP,
                1 => STEP.sqrt(),
                2 => STEP.sqrt().sqrt(),
                _ => 1.0,
            };
        }
        passes += 1;
        left = fp.new_under(base, &scaled(&s), b);
    }
    let moved = |v: usize| a[v].length_squared() > 0.0;
    let vertices = (0..a.len()).filter(|&v| s[v] < 1.0 && moved(v)).count();
    let least = (0..a.len())
        .filter(|&v| moved(v))
        .map(|v| s[v])
        .fold(1.0f32, f32::min);
    let lost = a
        .iter()
        .zip(&s)
        .map(|(d, k)| d.length() * (1.0 - k))
        .fold(0.0f32, f32::max);
    let e = Eased {
        passes,
        vertices,
        least,
        lost,
        left: left.len(),
    };
    (s, e)
}

/// The offsets of key `name` on part `pi`.
fn key(c: &Character, pi: usize, name: &str) -> Option<Vec<Vec3>> {
    c.parts[pi]
        .morphs
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.position_deltas.clone())
}

/// Scales key `name` on part `pi` by `s` per vertex.
fn scale_key(c: &mut Character, pi: usize, name: &str, s: &[f32]) {
    if let Some(m) = c.parts[pi].morphs.iter_mut().find(|m| m.name == name) {
        for (d, k) in m.position_deltas.iter_mut().zip(s) {
            *d *= *k;
        }
    }
}

/// Key `name`'s scale `s` on skin part `skin`, carried to every other part carrying
/// the key: each vertex takes its nearest skin vertex's (within [`REACH_H`]), else 1.
fn carry_scale(c: &mut Character, skin: usize, name: &str, s: &[f32], h: f32) {
    let reach = REACH_H * h;
    let grid = crate::geom::grid::Grid::new(&c.parts[skin].mesh.positions, reach);
    for pi in 0..c.parts.len() {
        if pi == skin || key(c, pi, name).is_none() {
            continue;
        }
        let t: Vec<f32> = c.parts[pi]
            .mesh
            .positions
            .iter()
            .map(|q| grid.nearest_within(*q, reach).map_or(1.0, |v| s[v]))
            .collect();
        scale_key(c, pi, name, &t);
    }
}

/// Eases the keys of [`EASED`] on the first skin part carrying a pair (the part the
/// `face.combinations` check measures), and carries the scale to the other parts.
/// Returns one note per key eased.
pub fn ease_combinations(c: &mut Character, body: &Body, h: f32) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(&pi) = body.skin.iter().find(|&&pi| {
        EASED
            .iter()
            .any(|(a, b)| key(c, pi, a).is_some() && key(c, pi, b).is_some())
    }) else {
        return notes;
    };
    let mut scales = Vec::new();
    {
        let p = &c.parts[pi];
        let face = face_vertices(p, h);
        let fp = FacePairs::new(&p.mesh, &face);
        let rest = fp.under(&[]);
        for (ea, kb) in EASED {
            let (Some(a), Some(b)) = (key(c, pi, ea), key(c, pi, kb)) else {
                continue;
            };
            let mut base = fp.under(&[&b]);
            base.extend(rest.iter().copied());
            let (s, e) = ease(&fp, &base, &a, &b);
            if e.passes > 0 {
                notes.push(format!(
                    "face: {ea} eased where it crosses {kb}: {} vertices scaled (least {:.2}, largest offset lost {:.2}% H) in {} passes, {} new self-intersections left",
                    e.vertices,
                    e.least,
                    100.0 * e.lost / h,
                    e.passes,
                    e.left
                ));
                scales.push((ea, s));
            }
        }
    }
    for (name, s) in scales {
        scale_key(c, pi, name, &s);
        carry_scale(c, pi, name, &s, h);
    }
    notes
}
