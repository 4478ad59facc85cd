//! Garments made from the body, so a dressed character's right weights are known: a
//! shirt, trousers, an ankle-long skirt and a hat, each a separate part with its own
//! vertices and triangles, lying outside the skin.
//!
//! All sizes are fractions of the body height `H` (the body part's vertical extent).
//! Regions are the artist weight groups ([`super::split::vertex_regions`]).
//!
//! | garment | shape | offset from the skin |
//! |---|---|---|
//! | `shirt` | the body triangles whose corners are all chest or upper arm, moved out along the vertex normals | 0.8 % H |
//! | `trousers` | the body triangles whose corners are all pelvis, thigh or calf, moved out along the normals | 0.6 % H |
//! | `hat` | the head triangles whose corners all lie within 5.5 % H of the top of the head, moved out along the normals | 1.2 % H |
//! | `skirt` | a tube of 32 rings x 64 segments around the centre of the pelvis and legs, from the top of the pelvis group down to 1 % H above the feet: each ring's radius per direction is the farthest pelvis/leg/chest vertex within a ring spacing of its height and 3 segments of its direction plus 1 % H, and never less than the ring above plus 0.25 x the drop (the flare) | at least 1 % H |
//!
//! Normals are the welded body's area-weighted vertex normals. The skirt is fitted to
//! the torso and legs only: it ignores the arms, so in the corpus's A-pose it may pass
//! through the hands.
//!
//! **Ground-truth weights**: each garment vertex gets the artist weights of the nearest
//! skin vertex among the regions the garment covers (the chest/upper-arm vertices for
//! the shirt, pelvis/leg vertices for the trousers and the skirt, head vertices for the
//! hat), unchanged. That is the nearest-skin transfer riggers use for clothes; it is
//! the reference a binder's garment weights are compared with, not an artist's own.
//! Everything is deterministic.

use glam::Vec3;

use super::split::{vertex_regions, BodySegment, Region};
use super::weights::transfer;
use crate::error::{Error, Result};
use crate::model::{Character, Mesh, Part};

/// A garment [`dress`] can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Garment {
    /// Over the chest and upper arms.
    Shirt,
    /// Over the hips and legs down to the ankles.
    Trousers,
    /// Ankle-long, flaring from the waist.
    Skirt,
    /// On the crown of the head.
    Hat,
}

/// Every garment, in the order [`dress`] adds them when all are asked for.
pub const GARMENTS: [Garment; 4] = [
    Garment::Shirt,
    Garment::Trousers,
    Garment::Skirt,
    Garment::Hat,
];

impl Garment {
    /// The part name (also the `--dress` keyword).
    pub fn name(self) -> &'static str {
        match self {
            Garment::Shirt => "shirt",
            Garment::Trousers => "trousers",
            Garment::Skirt => "skirt",
            Garment::Hat => "hat",
        }
    }

    /// The garment's distance from the skin, in units of the body height (the skirt's
    /// least clearance).
    pub fn offset(self) -> f32 {
        match self {
            Garment::Shirt => 0.008,
            Garment::Trousers => 0.006,
            Garment::Skirt => 0.01,
            Garment::Hat => 0.012,
        }
    }

    /// The garment named `name` ([`Garment::name`]).
    pub fn parse(name: &str) -> Result<Garment> {
        GARMENTS
            .iter()
            .copied()
            .find(|g| g.name() == name.trim())
            .ok_or_else(|| {
                let known: Vec<&str> = GARMENTS.iter().map(|g| g.name()).collect();
                Error::invalid(
                    "dress",
                    format!("unknown garment {name:?} (known: {})", known.join(", ")),
                )
            })
    }

    /// The body regions the garment covers (and takes its weights from).
    fn covers(self, r: Region) -> bool {
        match self {
            Garment::Shirt => matches!(r.limb, BodySegment::Chest | BodySegment::UpperArm),
            Garment::Trousers => matches!(
                r.limb,
                BodySegment::Pelvis | BodySegment::Thigh | BodySegment::Calf
            ),
            Garment::Skirt => matches!(
                r.limb,
                BodySegment::Pelvis | BodySegment::Thigh | BodySegment::Calf
            ),
            Garment::Hat => r.limb == BodySegment::Head,
        }
    }
}

/// Adds the garments (in the order given, each at most once) to a character whose part
/// named `body` is welded and weighted, after its other parts. Material `cloth_NAME`.
pub fn dress(c: &Character, garments: &[Garment]) -> Result<Character> {
    let bi = c
        .find_part("body")
        .ok_or_else(|| Error::invalid("dress", "the character has no part named \"body\""))?;
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::invalid(
            "dress",
            "garments follow the body's weights: it needs a skeleton",
        )
    })?;
    let body = &c.parts[bi];
    let w = body.weights.as_ref().ok_or_else(|| {
        Error::invalid("dress", "garments follow the body's weights: it has none")
    })?;
    let regions = vertex_regions(w, s);
    let (lo, hi) = body.mesh.bounds();
    let h = hi.y - lo.y;
    if !(h > 0.0) {
        return Err(Error::invalid("dress", "the body has no height"));
    }
    let normals = body.mesh.compute_normals();
    let mut out = c.clone();
    for (i, g) in garments.iter().enumerate() {
        if garments[..i].contains(g) {
            return Err(Error::invalid(
                "dress",
                format!("garment {:?} asked for twice", g.name()),
            ));
        }
        if c.find_part(g.name()).is_some() {
            return Err(Error::invalid(
                "dress",
                format!("the character already has a part named {:?}", g.name()),
            ));
        }
        let covered: Vec<usize> = (0..regions.len())
            .filter(|&v| g.covers(regions[v]))
            .collect();
        let mesh = match g {
            Garment::Skirt => skirt(&body.mesh, &regions, h),
            Garment::Hat => {
                let top = hi.y - 0.055 * h;
                shell(&body.mesh, &normals, g.offset() * h, |v| {
                    g.covers(regions[v]) && body.mesh.positions[v].y >= top
                })
            }
            _ => shell(&body.mesh, &normals, g.offset() * h, |v| {
                g.covers(regions[v])
            }),
        };
        if mesh.triangles.is_empty() {
            return Err(Error::invalid(
                "dress",
                format!(
                    "garment {:?}: the body has no vertices in its regions",
                    g.name()
                ),
            ));
        }
        let src_pos: Vec<Vec3> = covered.iter().map(|&v| body.mesh.positions[v]).collect();
        let src_w = crate::model::Weights {
            vertices: covered.iter().map(|&v| w.vertices[v].clone()).collect(),
        };
        let weights = transfer(&src_w, &src_pos, &mesh.positions);
        out.parts.push(Part {
            name: g.name().to_string(),
            material: Some(format!("cloth_{}", g.name())),
            mesh,
            weights: Some(weights),
            morphs: Vec::new(),
        });
    }
    out.validate()?;
    Ok(out)
}

/// The body triangles whose three corners pass `keep`, with their vertices (in body
/// order) moved `d` along the vertex normals.
fn shell(body: &Mesh, normals: &[Vec3], d: f32, keep: impl Fn(usize) -> bool) -> Mesh {
    let n = body.positions.len();
    let tris: Vec<[u32; 3]> = body
        .triangles
        .iter()
        .filter(|t| t.iter().all(|&v| keep(v as usize)))
        .copied()
        .collect();
    let mut used = vec![false; n];
    for t in &tris {
        for &v in t {
            used[v as usize] = true;
        }
    }
    let verts: Vec<usize> = (0..n).filter(|&v| used[v]).collect();
    let mut local = vec![u32::MAX; n];
    for (i, &v) in verts.iter().enumerate() {
        local[v] = i as u32;
    }
    Mesh {
        positions: verts
            .iter()
            .map(|&v| body.positions[v] + d * normals[v])
            .collect(),
        triangles: tris.iter().map(|t| t.map(|v| local[v as usize])).collect(),
        normals: None,
        uvs: None,
    }
}

/// The ankle-long skirt (see the module table).
fn skirt(body: &Mesh, regions: &[Region], h: f32) -> Mesh {
    const RINGS: usize = 32;
    const SEGS: usize = 64;
    const SPREAD: i32 = 3;
    let clearance = Garment::Skirt.offset() * h;
    let flare = 0.25;
    let pick = |limbs: &[BodySegment]| -> Vec<Vec3> {
        body.positions
            .iter()
            .zip(regions)
            .filter(|(_, r)| limbs.contains(&r.limb))
            .map(|(p, _)| *p)
            .collect()
    };
    let pelvis = pick(&[BodySegment::Pelvis]);
    let feet = pick(&[BodySegment::Foot]);
    let fit = pick(&[
        BodySegment::Chest,
        BodySegment::Pelvis,
        BodySegment::Thigh,
        BodySegment::Calf,
    ]);
    let legs = pick(&[BodySegment::Pelvis, BodySegment::Thigh, BodySegment::Calf]);
    let top = pelvis.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
    let floor = body.bounds().0.y;
    let hem = feet.iter().map(|p| p.y).fold(floor, f32::max) + 0.01 * h;
    if pelvis.is_empty() || legs.is_empty() || !(top > hem) {
        return Mesh::default();
    }
    let centre = legs.iter().fold(Vec3::ZERO, |a, p| a + *p) / legs.len() as f32;
    let spacing = (top - hem) / (RINGS - 1) as f32;
    let mut positions = Vec::with_capacity(RINGS * SEGS);
    let mut prev = [0f32; SEGS];
    for k in 0..RINGS {
        let y = top - k as f32 * spacing;
        let mut reach = [0f32; SEGS];
        for p in fit.iter().filter(|p| (p.y - y).abs() <= spacing) {
            let dx = p.x - centre.x;
            let dz = p.z - centre.z;
            let r = (dx * dx + dz * dz).sqrt();
            let a = dz.atan2(dx).rem_euclid(std::f32::consts::TAU);
            let j =
                ((a / std::f32::consts::TAU * SEGS as f32).round() as i32).rem_euclid(SEGS as i32);
            for o in -SPREAD..=SPREAD {
                let jj = (j + o).rem_euclid(SEGS as i32) as usize;
                reach[jj] = reach[jj].max(r);
            }
        }
        for j in 0..SEGS {
            let mut r = reach[j] + clearance;
            if k > 0 {
                r = r.max(prev[j] + flare * spacing);
            }
            prev[j] = r;
            let a = j as f32 / SEGS as f32 * std::f32::consts::TAU;
            positions.push(Vec3::new(centre.x + r * a.cos(), y, centre.z + r * a.sin()));
        }
    }
    let mut triangles = Vec::with_capacity((RINGS - 1) * SEGS * 2);
    for k in 0..RINGS - 1 {
        for j in 0..SEGS {
            let a = (k * SEGS + j) as u32;
            let b = (k * SEGS + (j + 1) % SEGS) as u32;
            let c = a + SEGS as u32;
            let d = b + SEGS as u32;
            // Counter-clockwise seen from outside (angle grows from +X towards +Z).
            triangles.push([a, b, c]);
            triangles.push([b, d, c]);
        }
    }
    Mesh {
        positions,
        triangles,
        normals: None,
        uvs: None,
    }
}

/// The legs taken out from under a long garment: every triangle of part `body` with a
/// corner of a thigh or calf region (the artist weight groups) between heights `from`
/// and `to` (fractions of the body height above its floor) goes, and with it every
/// vertex no triangle uses any more (its weights too; the kept vertices keep their
/// order). Morph targets of the body are dropped;
/// the other parts, the skeleton and its weights are unchanged.
///
/// This makes the test bodies a fit must place legs in without seeing them: from just
/// above an ankle-long skirt's hem to just below the crotch, a robe modelled as a shell
/// over a pelvis and the feet; over a shorter band, a robe whose legs stop short of
/// its hem (stubs).
pub fn take_out_legs(c: &Character, from: f32, to: f32) -> Result<Character> {
    let bi = c
        .find_part("body")
        .ok_or_else(|| Error::invalid("legs", "the character has no part named \"body\""))?;
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::invalid("legs", "the legs are found by their weights: no skeleton")
    })?;
    let body = &c.parts[bi];
    let w = body
        .weights
        .as_ref()
        .ok_or_else(|| Error::invalid("legs", "the legs are found by their weights: none"))?;
    if !(from < to) {
        return Err(Error::invalid(
            "legs",
            format!("the band from {from} to {to} of the height is empty"),
        ));
    }
    let regions = vertex_regions(w, s);
    let (lo, hi) = body.mesh.bounds();
    let h = hi.y - lo.y;
    let (ya, yb) = (lo.y + from * h, lo.y + to * h);
    let leg = |v: u32| {
        let v = v as usize;
        let y = body.mesh.positions[v].y;
        matches!(regions[v].limb, BodySegment::Thigh | BodySegment::Calf) && y > ya && y < yb
    };
    keep_triangles(c, bi, |t| !t.iter().any(|&v| leg(v)))
}

/// `c` with only the triangles of part `part` that `keep` accepts, and with them only
/// the vertices they use (and those vertices' weights; the kept vertices keep their
/// order). The part's morph targets are dropped; the other parts and the skeleton are
/// unchanged. The test bodies that take flesh out of a skin are made with it
/// ([`take_out_legs`]).
pub fn keep_triangles(
    c: &Character,
    part: usize,
    keep: impl Fn(&[u32; 3]) -> bool,
) -> Result<Character> {
    let body = c
        .parts
        .get(part)
        .ok_or_else(|| Error::invalid("parts", format!("no part {part}")))?;
    let tris: Vec<[u32; 3]> = body
        .mesh
        .triangles
        .iter()
        .filter(|t| keep(t))
        .copied()
        .collect();
    let n = body.mesh.positions.len();
    let mut used = vec![false; n];
    for t in &tris {
        for &v in t {
            used[v as usize] = true;
        }
    }
    let kept: Vec<usize> = (0..n).filter(|&v| used[v]).collect();
    let mut local = vec![u32::MAX; n];
    for (i, &v) in kept.iter().enumerate() {
        local[v] = i as u32;
    }
    fn pick<T: Copy>(kept: &[usize], a: &[T]) -> Vec<T> {
        kept.iter().map(|&v| a[v]).collect()
    }
    let mut out = c.clone();
    let p = &mut out.parts[part];
    p.mesh = Mesh {
        positions: pick(&kept, &body.mesh.positions),
        triangles: tris.iter().map(|t| t.map(|v| local[v as usize])).collect(),
        normals: body.mesh.normals.as_ref().map(|a| pick(&kept, a)),
        uvs: body.mesh.uvs.as_ref().map(|a| pick(&kept, a)),
    };
    p.weights = body.weights.as_ref().map(|w| crate::model::Weights {
        vertices: kept.iter().map(|&v| w.vertices[v].clone()).collect(),
    });
    p.morphs.clear();
    out.validate()?;
    Ok(out)
}
