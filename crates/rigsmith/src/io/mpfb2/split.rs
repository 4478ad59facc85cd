//! Cutting a welded, rigged body into the pieces a game character arrives in: head
//! (with the neck), torso, arms, legs and feet, with the seam vertices duplicated.
//!
//! The HM08 base mesh has no region groups of its own (its vertex groups are the body,
//! the helpers and the joint cubes); its body-part vertex groups are the artist rig's
//! weight groups, one per bone. The cut follows them:
//!
//! 1. Each bone gets a [`Region`] from its name ([`bone_region`]): `head`/`neck`/`jaw`
//!    are the head, `upperarm`/`lowerarm`/`hand`/fingers an arm, `thigh`/`calf` a leg,
//!    `foot`/`ball`/`toe` a foot, the rest (pelvis, spine, clavicles, root) the torso.
//! 2. Each triangle goes to the piece ([`PIECES`]) with the largest artist weight summed
//!    over its three corners (ties to the earlier piece), then three rounds of a
//!    majority filter move a triangle to the piece of at least two of its three edge
//!    neighbours (so the seams run along edge loops without single-triangle teeth).
//! 3. Each piece holds the vertices its triangles use, in the original order; a vertex
//!    used by several pieces (a seam vertex) is copied into each, at the identical
//!    position and with the identical weights. A vertex no triangle uses stays with the
//!    piece of its strongest weight group. Every triangle is in exactly one piece.
//!
//! The pieces keep the artist weights untouched, so the right answer for a binder that
//! sees them is known vertex by vertex ([`Split::origin`]).

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::model::naming::{split_side, Side};
use crate::model::{Character, Mesh, Part, Skeleton, Weights};

/// The pieces a split body is cut into, in output order.
pub const PIECES: [&str; 8] = [
    "head", "torso", "arm.L", "arm.R", "leg.L", "leg.R", "foot.L", "foot.R",
];

/// A limb segment, the finest body region the cut and the garments use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodySegment {
    /// Head and neck (head, neck, jaw, eyes, tongue, ...).
    Head,
    /// Spine, chest, clavicles, breasts, root: the torso above the pelvis.
    Chest,
    /// Pelvis / hips (centre).
    Pelvis,
    /// Upper arm.
    UpperArm,
    /// Forearm.
    LowerArm,
    /// Hand and fingers.
    Hand,
    /// Thigh.
    Thigh,
    /// Shin / calf.
    Calf,
    /// Foot and toes.
    Foot,
}

/// A bone's body region: its limb segment and side (`Center` for head, chest, pelvis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// The limb segment.
    pub limb: BodySegment,
    /// The side (`Center` for the head, chest and pelvis).
    pub side: Side,
}

impl Region {
    /// Index into [`PIECES`] of the piece this region belongs to.
    pub fn piece(self) -> usize {
        let s = usize::from(self.side == Side::Right);
        match self.limb {
            BodySegment::Head => 0,
            BodySegment::Chest | BodySegment::Pelvis => 1,
            BodySegment::UpperArm | BodySegment::LowerArm | BodySegment::Hand => 2 + s,
            BodySegment::Thigh | BodySegment::Calf => 4 + s,
            BodySegment::Foot => 6 + s,
        }
    }

    /// A dense index (0..15) for per-vertex tallies.
    fn slot(self) -> usize {
        let s = usize::from(self.side == Side::Right);
        match self.limb {
            BodySegment::Head => 0,
            BodySegment::Chest => 1,
            BodySegment::Pelvis => 2,
            BodySegment::UpperArm => 3 + 6 * s,
            BodySegment::LowerArm => 4 + 6 * s,
            BodySegment::Hand => 5 + 6 * s,
            BodySegment::Thigh => 6 + 6 * s,
            BodySegment::Calf => 7 + 6 * s,
            BodySegment::Foot => 8 + 6 * s,
        }
    }

    fn from_slot(k: usize) -> Region {
        let c = |limb| Region {
            limb,
            side: Side::Center,
        };
        match k {
            0 => c(BodySegment::Head),
            1 => c(BodySegment::Chest),
            2 => c(BodySegment::Pelvis),
            _ => {
                let side = if k >= 9 { Side::Right } else { Side::Left };
                let limb = [
                    BodySegment::UpperArm,
                    BodySegment::LowerArm,
                    BodySegment::Hand,
                    BodySegment::Thigh,
                    BodySegment::Calf,
                    BodySegment::Foot,
                ][(k - 3) % 6];
                Region { limb, side }
            }
        }
    }
}

const SLOTS: usize = 15;

/// The region of a bone, from its name (any common spelling of side and namespace).
/// Limb names on no side fall back to the chest.
///
/// ```
/// use rigsmith::io::mpfb2::split::{bone_region, BodySegment};
/// use rigsmith::Side;
/// assert_eq!(bone_region("lowerarm_l").limb, BodySegment::LowerArm);
/// assert_eq!(bone_region("mixamorig:RightHandIndex1").limb, BodySegment::Hand);
/// assert_eq!(bone_region("mixamorig:RightHandIndex1").side, Side::Right);
/// assert_eq!(bone_region("neck_01").limb, BodySegment::Head);
/// assert_eq!(bone_region("clavicle_l").limb, BodySegment::Chest);
/// assert_eq!(bone_region("LowerLeg.L").limb, BodySegment::Calf);
/// assert_eq!(bone_region("Fist.R").limb, BodySegment::Hand);
/// assert_eq!(bone_region("Shoulder.L").limb, BodySegment::Chest);
/// ```
pub fn bone_region(name: &str) -> Region {
    let (stem, side) = split_side(name);
    let has = |ks: &[&str]| ks.iter().any(|k| stem.contains(k));
    let limb = if has(&[
        "thumb", "index", "middle", "ring", "pinky", "little", "finger", "hand", "wrist", "palm",
        "fist",
    ]) {
        BodySegment::Hand
    } else if has(&["lowerarm", "lower_arm", "forearm", "elbow"]) {
        BodySegment::LowerArm
    } else if has(&["upperarm", "upper_arm", "arm"]) {
        BodySegment::UpperArm
    } else if has(&["foot", "ball", "toe", "ankle"]) {
        BodySegment::Foot
    } else if has(&["calf", "shin", "knee", "lowerleg", "lower_leg"]) {
        BodySegment::Calf
    } else if has(&["thigh", "upperleg", "upper_leg", "leg"])
        || (side != Side::Center && has(&["hip"]))
    {
        BodySegment::Thigh
    } else if has(&[
        "head", "neck", "jaw", "eye", "tongue", "teeth", "ear", "nose", "lip", "brow", "cheek",
        "chin",
    ]) {
        BodySegment::Head
    } else if has(&["pelvis", "hip"]) {
        BodySegment::Pelvis
    } else {
        BodySegment::Chest
    };
    let limb_sided = !matches!(
        limb,
        BodySegment::Head | BodySegment::Chest | BodySegment::Pelvis
    );
    match (limb_sided, side) {
        (true, Side::Center) => Region {
            limb: BodySegment::Chest,
            side: Side::Center,
        },
        (true, s) => Region { limb, side: s },
        (false, _) => Region {
            limb,
            side: Side::Center,
        },
    }
}

/// Per vertex, the region holding the largest summed weight (ties to the earlier of
/// head, chest, pelvis, left limbs, right limbs; unweighted vertices: chest).
pub fn vertex_regions(w: &Weights, s: &Skeleton) -> Vec<Region> {
    let slots: Vec<usize> = s
        .bones
        .iter()
        .map(|b| bone_region(&b.name).slot())
        .collect();
    w.vertices
        .iter()
        .map(|l| {
            let mut acc = [0f32; SLOTS];
            for i in l {
                if let Some(&k) = slots.get(i.bone as usize) {
                    acc[k] += i.weight;
                }
            }
            let mut best = 1;
            for k in 0..SLOTS {
                if acc[k] > acc[best] || (acc[k] == acc[best] && k < best && acc[k] > 0.0) {
                    best = k;
                }
            }
            Region::from_slot(best)
        })
        .collect()
}

/// Where each vertex of an output part came from.
#[derive(Debug, Clone, PartialEq)]
pub struct PartOrigin {
    /// The index of the source part in the input character.
    pub part: usize,
    /// For each vertex of the output part, its index in the source part.
    pub vertices: Vec<u32>,
}

/// A split character and the map back to the welded one.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The character with the body replaced by its pieces (in [`PIECES`] order, empty
    /// pieces left out), at the body's place; every other part unchanged after them.
    pub character: Character,
    /// One entry per part of `character`.
    pub origin: Vec<PartOrigin>,
}

/// Cuts the part named `body` (welded and weighted, with the character's skeleton) into
/// [`PIECES`] along its weight groups (see the module docs). Positions, normals, UVs,
/// weights and morph targets go with every vertex unchanged.
pub fn split_parts(c: &Character) -> Result<Split> {
    let bi = c
        .find_part("body")
        .ok_or_else(|| Error::invalid("split", "the character has no part named \"body\""))?;
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::invalid(
            "split",
            "the body is cut along its weights: it needs a skeleton",
        )
    })?;
    let body = &c.parts[bi];
    let w = body
        .weights
        .as_ref()
        .ok_or_else(|| Error::invalid("split", "the body is cut along its weights: it has none"))?;
    let pieces = triangle_pieces(&body.mesh, w, s);
    let regions = vertex_regions(w, s);

    let n = body.mesh.positions.len();
    let mut used = vec![[false; PIECES.len()]; n];
    for (t, &p) in body.mesh.triangles.iter().zip(&pieces) {
        for &v in t {
            used[v as usize][p] = true;
        }
    }
    for (v, u) in used.iter_mut().enumerate() {
        if !u.iter().any(|&x| x) {
            u[regions[v].piece()] = true;
        }
    }
    let mut parts = Vec::with_capacity(c.parts.len() + PIECES.len());
    let mut origin = Vec::with_capacity(c.parts.len() + PIECES.len());
    for (k, _) in c.parts.iter().enumerate().take(bi) {
        origin.push(identity(k, c.parts[k].mesh.positions.len()));
        parts.push(c.parts[k].clone());
    }
    for (p, name) in PIECES.iter().enumerate() {
        let verts: Vec<u32> = (0..n as u32).filter(|&v| used[v as usize][p]).collect();
        if verts.is_empty() {
            continue;
        }
        let mut local = vec![u32::MAX; n];
        for (i, &v) in verts.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let triangles: Vec<[u32; 3]> = body
            .mesh
            .triangles
            .iter()
            .zip(&pieces)
            .filter(|(_, &q)| q == p)
            .map(|(t, _)| t.map(|v| local[v as usize]))
            .collect();
        let pick = |i: &u32| *i as usize;
        let mesh = Mesh {
            positions: verts.iter().map(|i| body.mesh.positions[pick(i)]).collect(),
            triangles,
            normals: body
                .mesh
                .normals
                .as_ref()
                .map(|ns| verts.iter().map(|i| ns[pick(i)]).collect()),
            uvs: body
                .mesh
                .uvs
                .as_ref()
                .map(|us| verts.iter().map(|i| us[pick(i)]).collect()),
        };
        let morphs = body
            .morphs
            .iter()
            .map(|m| crate::model::MorphTarget {
                name: m.name.clone(),
                position_deltas: verts.iter().map(|i| m.position_deltas[pick(i)]).collect(),
                normal_deltas: m
                    .normal_deltas
                    .as_ref()
                    .map(|d| verts.iter().map(|i| d[pick(i)]).collect()),
            })
            .collect();
        parts.push(Part {
            name: (*name).to_string(),
            material: body.material.clone(),
            mesh,
            weights: Some(Weights {
                vertices: verts.iter().map(|i| w.vertices[pick(i)].clone()).collect(),
            }),
            morphs,
        });
        origin.push(PartOrigin {
            part: bi,
            vertices: verts,
        });
    }
    for k in bi + 1..c.parts.len() {
        origin.push(identity(k, c.parts[k].mesh.positions.len()));
        parts.push(c.parts[k].clone());
    }
    let character = Character {
        parts,
        skeleton: c.skeleton.clone(),
        vrm: c.vrm.clone(),
        warnings: c.warnings.clone(),
        ..Default::default()
    };
    character.validate()?;
    Ok(Split { character, origin })
}

fn identity(part: usize, n: usize) -> PartOrigin {
    PartOrigin {
        part,
        vertices: (0..n as u32).collect(),
    }
}

/// The piece ([`PIECES`] index) of each triangle: the largest corner-summed weight,
/// then three rounds of the two-of-three-neighbours majority filter.
pub(crate) fn triangle_pieces(mesh: &Mesh, w: &Weights, s: &Skeleton) -> Vec<usize> {
    let bone_piece: Vec<usize> = s
        .bones
        .iter()
        .map(|b| bone_region(&b.name).piece())
        .collect();
    let vp: Vec<[f32; PIECES.len()]> = w
        .vertices
        .iter()
        .map(|l| {
            let mut a = [0f32; PIECES.len()];
            for i in l {
                if let Some(&p) = bone_piece.get(i.bone as usize) {
                    a[p] += i.weight;
                }
            }
            a
        })
        .collect();
    let mut label: Vec<usize> = mesh
        .triangles
        .iter()
        .map(|t| {
            let mut a = [0f32; PIECES.len()];
            for &v in t {
                for (k, x) in vp[v as usize].iter().enumerate() {
                    a[k] += x;
                }
            }
            let mut best = 1;
            for k in 0..PIECES.len() {
                if a[k] > a[best] || (a[k] == a[best] && k < best && a[k] > 0.0) {
                    best = k;
                }
            }
            best
        })
        .collect();
    // Edge neighbours.
    let mut by_edge: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (i, t) in mesh.triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            by_edge.entry((a.min(b), a.max(b))).or_default().push(i);
        }
    }
    let nbrs: Vec<Vec<usize>> = mesh
        .triangles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut out = Vec::new();
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                for &j in &by_edge[&(a.min(b), a.max(b))] {
                    if j != i {
                        out.push(j);
                    }
                }
            }
            out
        })
        .collect();
    for _ in 0..3 {
        let prev = label.clone();
        for (i, ns) in nbrs.iter().enumerate() {
            let mut count = [0usize; PIECES.len()];
            for &j in ns {
                count[prev[j]] += 1;
            }
            if let Some(p) = (0..PIECES.len()).find(|&p| p != prev[i] && count[p] >= 2) {
                label[i] = p;
            }
        }
    }
    label
}
