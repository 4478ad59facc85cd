//! Chains from an existing skeleton: cosmetic bones matched on whole name tokens,
//! grouped into chains, and measured from the geometry they drive.
//!
//! A bone is cosmetic when a whole token of its name is one of
//! [`COSMETIC_CLASSES`](crate::model::naming::COSMETIC_CLASSES) (`hair_root` is hair,
//! `chairbone` is not) or one of the face/eye words ([`FACE_CLASSES`]): those are
//! cosmetic but must never swing. [`SPRING_CLASSES`] is the narrower set that gets
//! secondary motion.
//!
//! A chain starts at a cosmetic bone whose parent is not of the same class and follows
//! the single same-class child down. A bone with several same-class children (a
//! `hair_root` hub) ends its chain and each child starts its own; a hub that is a chain
//! of one bone on its own is not a chain (it rides its parent rigidly).
//!
//! Per bone, each chain carries:
//! * `tips`: where the bone points, in the bone's own rest frame (metres). The next
//!   bone's head when there is one; for the last bone it is MEASURED from the geometry
//!   the bone dominates (the far end of those vertices along the direction to their
//!   centroid), because a glTF skeleton carries no tails.
//! * `hulls`: up to [`HULL_SAMPLES`] vertices the bone dominates, in its own rest frame.
//! * `neighbours`: for each other chain sharing vertices with this bone, the shared
//!   weight `sum_v min(w_this_bone(v), w_other_chain_bone(v))` keyed by that chain's
//!   first bone: the artist's own answer to which pieces are sewn together.

use std::collections::BTreeMap;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::humanoid::is_face_name;
use crate::model::naming::{cosmetic_class, tokens};
use crate::model::{Character, Skeleton};

/// Cosmetic classes that never swing (face shapes and eyes).
pub const FACE_CLASSES: [&str; 2] = ["face", "eye"];

/// The classes that get secondary motion (springs).
pub const SPRING_CLASSES: [&str; 14] = [
    "hair", "skirt", "cloth", "ribbon", "tail", "cape", "coat", "scarf", "breast", "bust",
    "feather", "strap", "antenna", "ear",
];

/// The cloth classes the three rules apply to (a sleeve rides its arm by design).
pub(crate) const CLOTH_CLASSES: [&str; 4] = ["skirt", "cloth", "cape", "coat"];

/// How many hull points are kept per bone at most.
pub const HULL_SAMPLES: usize = 24;

/// Whether chains of this class get secondary motion.
pub fn is_spring_class(class: &str) -> bool {
    SPRING_CLASSES.contains(&class)
}

/// Whether the three cloth rules apply to this class.
pub(crate) fn is_cloth_class(class: &str) -> bool {
    CLOTH_CLASSES.contains(&class)
}

/// One chain of cosmetic bones, as it lands in `.rig.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chain {
    /// The class (`hair`, `skirt`, `ribbon`, ... or `face`/`eye`).
    pub class: String,
    /// The bone the chain hangs from (`None` for a root chain).
    pub root_parent: Option<String>,
    /// Bone names, root first.
    pub bones: Vec<String>,
    /// Per bone: where it points, in its own rest frame (metres).
    pub tips: Vec<[f32; 3]>,
    /// Per bone: a sample of the geometry it dominates, in its own rest frame (metres).
    pub hulls: Vec<Vec<[f32; 3]>>,
    /// Per bone: other chain (by its first bone) -> shared-vertex weight.
    pub neighbours: Vec<BTreeMap<String, f32>>,
    /// Per bone: the hit radius of its joint (units of H) where it must be smaller than
    /// its class's for the rest pose to stand clear of the colliders (a garment lying on
    /// the body); written per joint to the VRM. Empty: every joint has its class's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hit_radii: Vec<f32>,
}

impl Chain {
    /// Whether this chain gets secondary motion.
    pub fn springs(&self) -> bool {
        is_spring_class(&self.class)
    }

    /// Each bone's length: the length of its tip vector (metres).
    pub fn lengths(&self) -> Vec<f32> {
        self.tips
            .iter()
            .map(|t| Vec3::from_array(*t).length())
            .collect()
    }

    /// Each bone's hull extent: the largest distance between two points of its hull
    /// (metres; 0 for an empty hull).
    pub fn hull_extents(&self) -> Vec<f32> {
        self.hulls
            .iter()
            .map(|h| {
                let mut e = 0.0f32;
                for a in h {
                    for b in h {
                        e = e.max(Vec3::from_array(*a).distance(Vec3::from_array(*b)));
                    }
                }
                e
            })
            .collect()
    }

    /// The world-space rest tips of the chain's bones (one per bone), given the skeleton.
    /// Bones missing from the skeleton are skipped.
    pub fn world_tips(&self, skel: &Skeleton) -> Vec<Vec3> {
        self.bones
            .iter()
            .zip(&self.tips)
            .filter_map(|(b, t)| {
                let i = skel.find(b)?;
                Some(
                    skel.bones[i]
                        .rest_matrix()
                        .transform_point3(Vec3::from_array(*t)),
                )
            })
            .collect()
    }
}

/// The class of a bone name: a cosmetic class, `eye`, `face`, or `None`.
pub(crate) fn bone_class(name: &str) -> Option<&'static str> {
    if let Some(c) = cosmetic_class(name) {
        return Some(c);
    }
    if is_face_name(name) {
        let t = tokens(name);
        if t.iter().any(|x| x == "eye" || x == "eyes" || x == "eyelid") {
            return Some("eye");
        }
        return Some("face");
    }
    None
}

/// Finds the cosmetic chains of the character's skeleton and measures their tips,
/// hulls and neighbours from the parts' weights. Empty without a skeleton.
pub fn chains_from_skeleton(c: &Character) -> Vec<Chain> {
    let Some(skel) = &c.skeleton else {
        return Vec::new();
    };
    let n = skel.len();
    let class: Vec<Option<&'static str>> = skel.bones.iter().map(|b| bone_class(&b.name)).collect();
    let children = skel.children();
    let same_kids = |i: usize| -> Vec<usize> {
        children[i]
            .iter()
            .copied()
            .filter(|&k| class[k] == class[i])
            .collect()
    };
    let mut bone_lists: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let Some(ci) = class[i] else { continue };
        let starts = match skel.bones[i].parent {
            None => true,
            Some(p) => class[p] != Some(ci) || same_kids(p).len() > 1,
        };
        if !starts {
            continue;
        }
        let mut list = vec![i];
        let mut cur = i;
        loop {
            let kids = same_kids(cur);
            if kids.len() != 1 {
                break;
            }
            cur = kids[0];
            list.push(cur);
        }
        // A lone hub (one bone fanning out into several chains) rides its parent.
        if list.len() == 1 && same_kids(i).len() > 1 {
            continue;
        }
        bone_lists.push(list);
    }
    let classes: Vec<&str> = bone_lists
        .iter()
        .map(|l| class[l[0]].unwrap_or("cloth"))
        .collect();
    measure_chains(c, &bone_lists, &classes)
}

/// Chains of the given bones (`lists`: bone indices, root first; `classes`: one class
/// per list), with their tips, hulls and neighbours measured from the parts' weights.
pub(crate) fn measure_chains(
    c: &Character,
    bone_lists: &[Vec<usize>],
    classes: &[&str],
) -> Vec<Chain> {
    let Some(skel) = &c.skeleton else {
        return Vec::new();
    };
    let n = skel.len();
    // Dominant bone per vertex, and per-bone vertex lists over all weighted parts.
    let mut dominated: Vec<Vec<Vec3>> = vec![Vec::new(); n];
    for p in &c.parts {
        let Some(w) = &p.weights else { continue };
        for (v, list) in w.vertices.iter().enumerate() {
            let best = list
                .iter()
                .filter(|i| (i.bone as usize) < n)
                .max_by(|a, b| a.weight.total_cmp(&b.weight).then(b.bone.cmp(&a.bone)));
            if let (Some(b), Some(pos)) = (best, p.mesh.positions.get(v)) {
                dominated[b.bone as usize].push(*pos);
            }
        }
    }
    let h = c.height().max(1e-6);
    // Chain index and position per bone.
    let mut chain_of: Vec<Option<usize>> = vec![None; n];
    for (ci, l) in bone_lists.iter().enumerate() {
        for &b in l {
            chain_of[b] = Some(ci);
        }
    }
    let neighbours = shared_weights(c, bone_lists, &chain_of);
    bone_lists
        .iter()
        .enumerate()
        .map(|(ci, list)| {
            let mut tips = Vec::with_capacity(list.len());
            let mut hulls = Vec::with_capacity(list.len());
            for (k, &b) in list.iter().enumerate() {
                let bone = &skel.bones[b];
                let inv = bone.rest_matrix().inverse();
                let tip_world = if k + 1 < list.len() {
                    skel.bones[list[k + 1]].head
                } else {
                    measured_tip(bone.head, &dominated[b]).unwrap_or_else(|| {
                        if bone.length() > 1e-6 * h {
                            bone.tail
                        } else {
                            bone.head - Vec3::Y * 0.03 * h
                        }
                    })
                };
                tips.push(inv.transform_point3(tip_world).to_array());
                hulls.push(
                    sample(&dominated[b], HULL_SAMPLES)
                        .into_iter()
                        .map(|p| inv.transform_point3(p).to_array())
                        .collect(),
                );
            }
            Chain {
                class: classes[ci].to_string(),
                root_parent: skel.bones[list[0]]
                    .parent
                    .map(|p| skel.bones[p].name.clone()),
                bones: list.iter().map(|&b| skel.bones[b].name.clone()).collect(),
                tips,
                hulls,
                neighbours: neighbours[ci].clone(),
                hit_radii: Vec::new(),
            }
        })
        .collect()
}

/// Per chain, per bone: shared-vertex weight to every other chain (keyed by its first bone).
fn shared_weights(
    c: &Character,
    lists: &[Vec<usize>],
    chain_of: &[Option<usize>],
) -> Vec<Vec<BTreeMap<String, f32>>> {
    let skel = c.skeleton.as_ref().expect("skeleton checked by caller");
    let pos_in_chain: BTreeMap<usize, usize> = lists
        .iter()
        .flat_map(|l| l.iter().enumerate().map(|(k, &b)| (b, k)))
        .collect();
    let mut out: Vec<Vec<BTreeMap<String, f32>>> = lists
        .iter()
        .map(|l| vec![BTreeMap::new(); l.len()])
        .collect();
    for p in &c.parts {
        let Some(w) = &p.weights else { continue };
        for list in &w.vertices {
            let on: Vec<(usize, usize, f32)> = list
                .iter()
                .filter_map(|i| {
                    let b = i.bone as usize;
                    let ch = (*chain_of.get(b)?)?;
                    Some((ch, b, i.weight))
                })
                .collect();
            for &(ca, ba, wa) in &on {
                for &(cb, _, wb) in &on {
                    if ca == cb {
                        continue;
                    }
                    let key = skel.bones[lists[cb][0]].name.clone();
                    *out[ca][pos_in_chain[&ba]].entry(key).or_insert(0.0) += wa.min(wb);
                }
            }
        }
    }
    for chain in &mut out {
        for m in chain.iter_mut() {
            for v in m.values_mut() {
                *v = (*v * 1000.0).round() / 1000.0;
            }
        }
    }
    out
}

/// The far end of `pts` seen from `head`: along the direction to their centroid, at the
/// largest projection. `None` for no points or points all at the head.
fn measured_tip(head: Vec3, pts: &[Vec3]) -> Option<Vec3> {
    if pts.is_empty() {
        return None;
    }
    let centroid = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let dir = (centroid - head).try_normalize()?;
    let reach = pts
        .iter()
        .map(|p| (*p - head).dot(dir))
        .fold(f32::NEG_INFINITY, f32::max);
    (reach > 0.0).then(|| head + dir * reach)
}

/// Up to `k` points spread evenly over `pts` (deterministic stride).
pub(crate) fn sample(pts: &[Vec3], k: usize) -> Vec<Vec3> {
    if pts.len() <= k {
        return pts.to_vec();
    }
    (0..k).map(|i| pts[i * pts.len() / k]).collect()
}
