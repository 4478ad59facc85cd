//! The quick check of a model: what a rigger looks at first, without
//! Blender.
//!
//! ```no_run
//! use std::path::Path;
//! let c = rigsmith::io::read_character(Path::new("knight.glb")).unwrap();
//! let report = rigsmith::inspect::inspect(&c);
//! println!("{}", report.to_text());
//! ```
//!
//! [`inspect`] reports:
//! * each part: name, material, vertices, triangles, skinned or not, morph targets;
//! * the skeleton: joints, roots, depth (the longest root-to-leaf chain, in bones), names;
//! * twist bones, as the sidecar lists them ([`crate::humanoid::twist`]): a whole
//!   `twist` or `roll` token (`upperarm_twist_01_l`), or a limb bone that is a Blender
//!   numbered copy (`thigh.L.001`) of its parent (a subdivided skirt is not);
//! * cosmetic chains: connected runs of bones sharing a cosmetic class by whole token
//!   ([`crate::model::naming::cosmetic_class`]: `hair_root` is hair, `chairbone` is not);
//! * weights: whether any were authored, the influence-count histogram, unweighted and
//!   non-normalized vertices, and vertices pulled by both legs.
//!
//! `weights_authored` ([`weights_authored`], the rule the sidecar records too) is true
//! when the character has weights and fewer than 90 % of its weighted vertices sit at
//! exactly 4 influences: a binder that fills every slot is the signature of automatic
//! weighting, an artist's weights vary.
//!
//! The JSON field names of [`InspectReport`] are stable (see `docs/inspect.md`).

use serde::Serialize;

use crate::bind::report::is_unweighted;
use crate::humanoid::{character_twist_bones, Roles};
use crate::model::naming::cosmetic_class;
use crate::model::{Character, Side, Skeleton};

/// A vertex counts as pulled by a leg when that leg's chain holds more than this share
/// of its weight; "both legs" needs it on each side.
pub const BOTH_LEGS_SHARE: f32 = 0.1;
/// A weighted vertex is non-normalized when its weights sum differs from 1 by more.
pub const NORMALIZED_TOLERANCE: f32 = 1e-3;

/// One part of the character.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartSummary {
    /// Part name.
    pub name: String,
    /// Material name, if any.
    pub material: Option<String>,
    /// Vertex count.
    pub vertices: usize,
    /// Triangle count.
    pub triangles: usize,
    /// Whether the part carries skin weights.
    pub skinned: bool,
    /// Morph target names.
    pub morphs: Vec<String>,
}

/// The skeleton's shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkeletonInfo {
    /// Number of joints (bones).
    pub joints: usize,
    /// Names of the root bones.
    pub roots: Vec<String>,
    /// Bones on the longest root-to-leaf chain (a lone root has depth 1).
    pub depth: usize,
    /// All bone names, parents first.
    pub names: Vec<String>,
}

/// A connected run of bones of one cosmetic class (a hair strand, a skirt panel...).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainInfo {
    /// The class (`hair`, `skirt`, ...).
    pub class: String,
    /// The bone the chain hangs from (not of the class), if any.
    pub root_parent: Option<String>,
    /// The chain's bones, parents first.
    pub bones: Vec<String>,
}

/// Skin-weight statistics over all skinned parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WeightsInfo {
    /// Whether weights look authored (see the module docs).
    pub authored: bool,
    /// Parts with weights.
    pub skinned_parts: usize,
    /// Vertices in skinned parts.
    pub skinned_vertices: usize,
    /// Vertices in parts without weights.
    pub unskinned_vertices: usize,
    /// Most influences on one vertex.
    pub max_influences: usize,
    /// `influence_histogram[k]` = vertices of skinned parts with exactly `k` influences
    /// (`k` = 0..=8; the last bucket counts 8 or more).
    pub influence_histogram: Vec<usize>,
    /// Vertices of skinned parts with no influence at all.
    pub unweighted_vertices: usize,
    /// Weighted vertices whose weights do not sum to 1 (within 1e-3).
    pub non_normalized_vertices: usize,
    /// Left and right leg chain roots found (bone names), if both were.
    pub legs: Option<[String; 2]>,
    /// Vertices with more than 10 % of their weight on each leg chain.
    pub both_legs_vertices: usize,
}

/// VRM data found in the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VrmInfo {
    /// 0 for VRM 0.x, 1 for VRM 1.0.
    pub version: u8,
    /// Number of humanoid bones mapped.
    pub humanoid_bones: usize,
    /// Whether spring-bone data is present.
    pub spring_bones: bool,
}

/// The quick check's result. Field names are stable (`docs/inspect.md`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InspectReport {
    /// Parts, in file order.
    pub parts: Vec<PartSummary>,
    /// Total vertices.
    pub vertices: usize,
    /// Total triangles.
    pub triangles: usize,
    /// Bounds `[min, max]` over all parts, metres.
    pub bounds: [[f32; 3]; 2],
    /// The skeleton, if any.
    pub skeleton: Option<SkeletonInfo>,
    /// Twist bone names.
    pub twist_bones: Vec<String>,
    /// Cosmetic chains.
    pub cosmetic_chains: Vec<ChainInfo>,
    /// Weight statistics.
    pub weights: WeightsInfo,
    /// VRM data, when read from a VRM.
    pub vrm: Option<VrmInfo>,
    /// Warnings collected while reading.
    pub warnings: Vec<String>,
}

/// Whether a character's weights look authored (the rule `inspect` and the sidecar
/// share): it has weighted vertices and fewer than 90 % of them sit at exactly 4
/// influences (positive weights). A binder that fills every slot is the signature of
/// automatic weighting; an artist's weights vary. An unrigged model: `false`.
pub fn weights_authored(c: &Character) -> bool {
    let (mut weighted, mut four) = (0usize, 0usize);
    for w in c.parts.iter().filter_map(|p| p.weights.as_ref()) {
        for list in &w.vertices {
            match list.iter().filter(|i| i.weight > 0.0).count() {
                0 => {}
                4 => {
                    weighted += 1;
                    four += 1;
                }
                _ => weighted += 1,
            }
        }
    }
    weighted > 0 && (four as f64) < 0.9 * weighted as f64
}

fn chains(s: &Skeleton) -> Vec<ChainInfo> {
    let class: Vec<Option<&str>> = s.bones.iter().map(|b| cosmetic_class(&b.name)).collect();
    let children = s.children();
    let mut out = Vec::new();
    for i in 0..s.len() {
        let Some(c) = class[i] else { continue };
        let parent_same = s.bones[i].parent.is_some_and(|p| class[p] == Some(c));
        if parent_same {
            continue;
        }
        let mut bones = Vec::new();
        let mut stack = vec![i];
        while let Some(b) = stack.pop() {
            bones.push(b);
            for &ch in children[b].iter().rev() {
                if class[ch] == Some(c) {
                    stack.push(ch);
                }
            }
        }
        bones.sort_unstable();
        out.push(ChainInfo {
            class: c.to_string(),
            root_parent: s.bones[i].parent.map(|p| s.bones[p].name.clone()),
            bones: bones.iter().map(|&b| s.bones[b].name.clone()).collect(),
        });
    }
    out
}

/// Runs the quick check on a character.
pub fn inspect(c: &Character) -> InspectReport {
    let parts: Vec<PartSummary> = c
        .parts
        .iter()
        .map(|p| PartSummary {
            name: p.name.clone(),
            material: p.material.clone(),
            vertices: p.mesh.positions.len(),
            triangles: p.mesh.triangles.len(),
            skinned: p.weights.is_some(),
            morphs: p.morphs.iter().map(|m| m.name.clone()).collect(),
        })
        .collect();
    let (lo, hi) = c.bounds();
    let skel = c.skeleton.as_ref().filter(|s| !s.is_empty());
    let skeleton = skel.map(|s| SkeletonInfo {
        joints: s.len(),
        roots: s.roots().iter().map(|&r| s.bones[r].name.clone()).collect(),
        depth: s.depths().iter().max().map_or(0, |d| d + 1),
        names: s.bones.iter().map(|b| b.name.clone()).collect(),
    });
    let twist_bones = character_twist_bones(c);
    let cosmetic_chains = skel.map(chains).unwrap_or_default();

    // Leg chains: membership per bone.
    let roles = skel.and_then(|_| Roles::of_character(c));
    let legs = skel
        .zip(roles.as_ref())
        .and_then(|(s, r)| Some((s, r.leg_root(Side::Left)?, r.leg_root(Side::Right)?)));
    let leg_of: Vec<u8> = match legs {
        Some((s, l, r)) => (0..s.len())
            .map(|i| {
                if s.is_ancestor(l, i) {
                    1
                } else if s.is_ancestor(r, i) {
                    2
                } else {
                    0
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let mut hist = vec![0usize; 9];
    let (mut skinned_parts, mut skinned_vertices, mut unskinned_vertices) = (0, 0, 0);
    let (mut unweighted, mut non_norm, mut both, mut max_inf) = (0, 0, 0, 0);
    for p in &c.parts {
        let Some(w) = &p.weights else {
            unskinned_vertices += p.mesh.positions.len();
            continue;
        };
        skinned_parts += 1;
        skinned_vertices += w.vertices.len();
        for list in &w.vertices {
            let k = list.iter().filter(|i| i.weight > 0.0).count();
            hist[k.min(8)] += 1;
            max_inf = max_inf.max(k);
            if skel.map_or(k == 0, |s| is_unweighted(list, s)) {
                unweighted += 1;
                continue;
            }
            let sum: f32 = list.iter().map(|i| i.weight).sum();
            if (sum - 1.0).abs() > NORMALIZED_TOLERANCE {
                non_norm += 1;
            }
            if !leg_of.is_empty() {
                let mut share = [0.0f32; 3];
                for i in list {
                    share[*leg_of.get(i.bone as usize).unwrap_or(&0) as usize] += i.weight;
                }
                if share[1] > BOTH_LEGS_SHARE * sum && share[2] > BOTH_LEGS_SHARE * sum {
                    both += 1;
                }
            }
        }
    }
    let authored = weights_authored(c);
    InspectReport {
        vertices: parts.iter().map(|p| p.vertices).sum(),
        triangles: parts.iter().map(|p| p.triangles).sum(),
        parts,
        bounds: [lo.to_array(), hi.to_array()],
        skeleton,
        twist_bones,
        cosmetic_chains,
        weights: WeightsInfo {
            authored,
            skinned_parts,
            skinned_vertices,
            unskinned_vertices,
            max_influences: max_inf,
            influence_histogram: hist,
            unweighted_vertices: unweighted,
            non_normalized_vertices: non_norm,
            legs: legs.map(|(s, l, r)| [s.bones[l].name.clone(), s.bones[r].name.clone()]),
            both_legs_vertices: both,
        },
        vrm: c.vrm.as_ref().map(|v| VrmInfo {
            version: v.version,
            humanoid_bones: v.humanoid.len(),
            spring_bones: v.spring_bone.is_some(),
        }),
        warnings: c.warnings.clone(),
    }
}

impl InspectReport {
    /// The report as human-readable text (what `rigsmith inspect` prints).
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let size: Vec<String> = (0..3)
            .map(|k| format!("{:.3}", self.bounds[1][k] - self.bounds[0][k]))
            .collect();
        let _ = writeln!(
            s,
            "{} parts, {} vertices, {} triangles, size {} m",
            self.parts.len(),
            self.vertices,
            self.triangles,
            size.join(" x ")
        );
        for p in &self.parts {
            let _ = writeln!(
                s,
                "  part {:<24} material {:<20} {:>7} vertices {:>7} triangles  {}{}",
                p.name,
                p.material.as_deref().unwrap_or("-"),
                p.vertices,
                p.triangles,
                if p.skinned { "skinned" } else { "unskinned" },
                if p.morphs.is_empty() {
                    String::new()
                } else {
                    format!(", {} morphs", p.morphs.len())
                }
            );
        }
        match &self.skeleton {
            None => {
                let _ = writeln!(s, "skeleton: none (the model is unrigged)");
            }
            Some(k) => {
                let _ = writeln!(
                    s,
                    "skeleton: {} joints, roots [{}], depth {}",
                    k.joints,
                    k.roots.join(", "),
                    k.depth
                );
                let _ = writeln!(s, "  bones: {}", k.names.join(" "));
            }
        }
        let _ = writeln!(
            s,
            "twist bones: {}{}",
            self.twist_bones.len(),
            if self.twist_bones.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.twist_bones.join(", "))
            }
        );
        let _ = writeln!(s, "cosmetic chains: {}", self.cosmetic_chains.len());
        for ch in &self.cosmetic_chains {
            let _ = writeln!(
                s,
                "  {:<8} from {:<16} {}",
                ch.class,
                ch.root_parent.as_deref().unwrap_or("-"),
                ch.bones.join(" ")
            );
        }
        let w = &self.weights;
        let _ = writeln!(
            s,
            "weights: {} ({} skinned parts, {} skinned vertices, {} unskinned vertices)",
            if w.authored {
                "authored"
            } else if w.skinned_parts > 0 {
                "look automatic"
            } else {
                "none"
            },
            w.skinned_parts,
            w.skinned_vertices,
            w.unskinned_vertices
        );
        if w.skinned_parts > 0 {
            let h: Vec<String> = w
                .influence_histogram
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(k, n)| format!("{k}{}:{n}", if k == 8 { "+" } else { "" }))
                .collect();
            let _ = writeln!(
                s,
                "  influences per vertex: {} (max {})",
                h.join(" "),
                w.max_influences
            );
            let _ = writeln!(s, "  unweighted vertices: {}", w.unweighted_vertices);
            let _ = writeln!(
                s,
                "  non-normalized vertices: {}",
                w.non_normalized_vertices
            );
            match &w.legs {
                Some([l, r]) => {
                    let _ = writeln!(
                        s,
                        "  vertices pulled by both legs ({l}, {r}): {}",
                        w.both_legs_vertices
                    );
                }
                None => {
                    let _ = writeln!(s, "  vertices pulled by both legs: no leg chains found");
                }
            }
        }
        if let Some(v) = &self.vrm {
            let _ = writeln!(
                s,
                "vrm: {}, {} humanoid bones, spring bones {}",
                if v.version == 0 { "0.x" } else { "1.0" },
                v.humanoid_bones,
                if v.spring_bones { "yes" } else { "no" }
            );
        }
        for wn in &self.warnings {
            let _ = writeln!(s, "warning: {wn}");
        }
        s
    }
}
