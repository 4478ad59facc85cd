//! Mechanical characters: hard-surface pieces that must not bend.
//!
//! * [`islands`]: every connected piece of every part (triangles sharing vertices).
//! * [`bind_islands`]: each island gets one bone at weight 1.0: the bone named for it
//!   (a plate, a visor, a piston that moves on its own), else the deform bone nearest
//!   its centre (distance to the bone segment).
//! * [`rigid_check`] (`mech.rigid`): the largest relative change of an island's edge
//!   lengths over the test poses, at most [`RIGID_TOL`]. A piece bound to two bones
//!   bends and fails it.
//! * [`rest_overlaps`]: pairs of islands that interpenetrate at rest (a vertex of one
//!   inside the other; two pieces crossing with no vertex inside the other, a pin
//!   through a plate edge to edge, are not seen), reported as notes: a piston rod
//!   inside its cylinder is usual, so the rig does not fail for it.
//! * [`Action`]: one control's travel drives several parts' rotations through keys;
//!   [`Action::evaluate`] interpolates linearly, so half the travel gives half the
//!   rotation.
//! * [`crate::review::mech::check_report`]: the review of a mechanical rig, its own and not the biped's
//!   (the weight checks that hold for rigid islands, `mech.rigid`, `mech.action.*`).
//!
//! ```
//! use rigsmith::mannequin::robot;
//! use rigsmith::mech::{bind_islands, rigid_check};
//! let (mut c, own) = robot::build(1.8);
//! let s = c.skeleton.clone().unwrap();
//! let w = bind_islands(&c, &s, &own);
//! for (p, w) in c.parts.iter_mut().zip(w) { p.weights = Some(w); }
//! let poses = robot::poses(&s);
//! let (check, _) = rigid_check(&c, &s, &poses);
//! assert!(check.passed, "{}", check.detail);
//! ```

mod spec;

pub use spec::{review, test_poses, MechSpec, OwnIsland, TEST_BEND_DEG};

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::geom::weld::islands as weld_islands;
use crate::model::{Character, Influence, Skeleton, Weights};
use crate::pose::library::NamedPose;
use crate::pose::posed_matrices;
use crate::report::{Check, Severity};

/// The largest relative edge-length change a rigid island may show in any test pose.
pub const RIGID_TOL: f64 = 1e-4;

/// One connected piece of a part.
#[derive(Debug, Clone, PartialEq)]
pub struct Island {
    /// The part's index.
    pub part: usize,
    /// The island's number within the part (in order of first vertex).
    pub index: usize,
    /// Its vertices (indices into the part's mesh).
    pub vertices: Vec<u32>,
}

/// Every island of every part, parts in order, islands by first vertex.
pub fn islands(c: &Character) -> Vec<Island> {
    let mut out = Vec::new();
    for (pi, p) in c.parts.iter().enumerate() {
        let (id, n) = weld_islands(p.mesh.positions.len(), &p.mesh.triangles);
        let mut vs: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (v, &k) in id.iter().enumerate() {
            vs[k as usize].push(v as u32);
        }
        let mut order: Vec<usize> = (0..n).filter(|&k| !vs[k].is_empty()).collect();
        order.sort_by_key(|&k| vs[k][0]);
        for (index, k) in order.into_iter().enumerate() {
            out.push(Island {
                part: pi,
                index,
                vertices: std::mem::take(&mut vs[k]),
            });
        }
    }
    out
}

/// A bone named for an island: `(part index, island index, bone name)`.
pub type OwnBone = (usize, usize, String);

fn seg_dist(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-20)).clamp(0.0, 1.0);
    (p - (a + ab * t)).length()
}

/// Weights of every part with each island on one bone at 1.0 (see the module docs).
/// Parts in order; a vertex in no triangle goes with the nearest bone on its own.
pub fn bind_islands(c: &Character, s: &Skeleton, own: &[OwnBone]) -> Vec<Weights> {
    let deform = s.deform_bones();
    let nearest = |p: Vec3| -> u32 {
        deform
            .iter()
            .copied()
            .min_by(|&a, &b| {
                let da = seg_dist(p, s.bones[a].head, s.bones[a].tail);
                let db = seg_dist(p, s.bones[b].head, s.bones[b].tail);
                da.total_cmp(&db)
            })
            .unwrap_or(0) as u32
    };
    let mut out: Vec<Weights> = c
        .parts
        .iter()
        .map(|p| Weights {
            vertices: vec![Vec::new(); p.mesh.positions.len()],
        })
        .collect();
    for isl in islands(c) {
        let m = &c.parts[isl.part].mesh;
        let centre = isl
            .vertices
            .iter()
            .map(|&v| m.positions[v as usize])
            .sum::<Vec3>()
            / isl.vertices.len().max(1) as f32;
        let bone = own
            .iter()
            .find(|(p, i, _)| *p == isl.part && *i == isl.index)
            .and_then(|(_, _, n)| s.find(n))
            .map_or_else(|| nearest(centre), |b| b as u32);
        for &v in &isl.vertices {
            out[isl.part].vertices[v as usize] = vec![Influence { bone, weight: 1.0 }];
        }
    }
    out
}

/// The largest relative edge change of one island.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IslandStrain {
    /// Part name.
    pub part: String,
    /// Island index in the part.
    pub island: usize,
    /// The largest |l_posed / l_rest - 1| over its edges and the poses.
    pub strain: f64,
    /// The pose it was found in.
    pub pose: String,
}

/// `mech.rigid`: every island's largest relative edge change over `poses` (LBS with
/// the parts' weights), against [`RIGID_TOL`]. Returns the check and the islands,
/// worst first.
pub fn rigid_check(c: &Character, s: &Skeleton, poses: &[NamedPose]) -> (Check, Vec<IslandStrain>) {
    let mut per: Vec<IslandStrain> = Vec::new();
    let mats: Vec<(String, Vec<glam::Mat4>)> = poses
        .iter()
        .map(|p| (p.name.clone(), posed_matrices(s, &p.pose)))
        .collect();
    for isl in islands(c) {
        let part = &c.parts[isl.part];
        let Some(w) = &part.weights else { continue };
        let m = &part.mesh;
        let inside: std::collections::HashSet<u32> = isl.vertices.iter().copied().collect();
        let edges: Vec<(u32, u32)> = m
            .triangles
            .iter()
            .filter(|t| inside.contains(&t[0]))
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .collect();
        let mut worst = (0.0f64, String::new());
        for (name, mx) in &mats {
            let pos = |v: u32| -> Vec3 {
                let p = m.positions[v as usize];
                let l = &w.vertices[v as usize];
                let sum: f32 = l.iter().map(|i| i.weight).sum();
                if sum <= 0.0 {
                    return p;
                }
                l.iter()
                    .map(|i| mx[i.bone as usize].transform_point3(p) * (i.weight / sum))
                    .sum()
            };
            for &(a, b) in &edges {
                let l0 = (m.positions[a as usize] - m.positions[b as usize]).length() as f64;
                if l0 <= 0.0 {
                    continue;
                }
                let l1 = (pos(a) - pos(b)).length() as f64;
                let e = (l1 / l0 - 1.0).abs();
                if e > worst.0 || worst.1.is_empty() {
                    worst = (e.max(worst.0), name.clone());
                }
            }
        }
        per.push(IslandStrain {
            part: part.name.clone(),
            island: isl.index,
            strain: worst.0,
            pose: worst.1,
        });
    }
    per.sort_by(|a, b| b.strain.total_cmp(&a.strain));
    let value = per.first().map_or(0.0, |x| x.strain);
    let detail = match per.first() {
        Some(x) => format!(
            "{} islands over {} poses; worst {} island {} in {}: {:.2e}",
            per.len(),
            poses.len(),
            x.part,
            x.island,
            x.pose,
            x.strain
        ),
        None => "no weighted islands".into(),
    };
    let check = Check::new("mech.rigid", "C", Severity::Major)
        .title("Rigid parts stay rigid")
        .measure("largest relative edge change of an island in any test pose")
        .detail(detail)
        .at_most(value, RIGID_TOL);
    (check, per)
}

/// Pairs of islands that interpenetrate at rest (a vertex of one strictly inside the
/// other), as notes `part#island inside part#island (N vertices)`: reported, never a
/// failure.
pub fn rest_overlaps(c: &Character) -> Vec<String> {
    let isl = islands(c);
    let solids: Vec<(crate::fit::placement::Solid, glam::Vec3, glam::Vec3)> = isl
        .iter()
        .map(|i| {
            let m = &c.parts[i.part].mesh;
            let set: std::collections::HashSet<u32> = i.vertices.iter().copied().collect();
            let sub = crate::model::Mesh {
                positions: m.positions.clone(),
                triangles: m
                    .triangles
                    .iter()
                    .copied()
                    .filter(|t| set.contains(&t[0]))
                    .collect(),
                normals: None,
                uvs: None,
            };
            let pts: Vec<Vec3> = i
                .vertices
                .iter()
                .map(|&v| m.positions[v as usize])
                .collect();
            let lo = pts
                .iter()
                .fold(Vec3::splat(f32::INFINITY), |a, p| a.min(*p));
            let hi = pts
                .iter()
                .fold(Vec3::splat(f32::NEG_INFINITY), |a, p| a.max(*p));
            (crate::fit::placement::Solid::new(&sub), lo, hi)
        })
        .collect();
    let mut out = Vec::new();
    for (a, ia) in isl.iter().enumerate() {
        let m = &c.parts[ia.part].mesh;
        for (b, ib) in isl.iter().enumerate() {
            if a == b {
                continue;
            }
            let (solid, lo, hi) = &solids[b];
            let n = ia
                .vertices
                .iter()
                .map(|&v| m.positions[v as usize])
                .filter(|p| p.cmpge(*lo).all() && p.cmple(*hi).all() && solid.contains(*p))
                .count();
            if n > 0 {
                out.push(format!(
                    "{}#{} inside {}#{} ({n} vertices)",
                    c.parts[ia.part].name, ia.index, c.parts[ib.part].name, ib.index
                ));
            }
        }
    }
    out
}

/// A keyed action: the control's travel (0 to `travel`) drives each key's bone about
/// its axis, `degrees` at full travel, linearly in between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// Name.
    pub name: String,
    /// The driving control (a bone name).
    pub control: String,
    /// Full travel of the control, metres (or degrees, for a rotating control).
    pub travel: f32,
    /// The driven parts.
    pub keys: Vec<ActionKey>,
}

/// One driven part of an [`Action`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionKey {
    /// The driven bone.
    pub bone: String,
    /// Rotation axis (bone-local).
    pub axis: [f32; 3],
    /// Rotation at full travel, degrees.
    pub degrees: f32,
}

impl Action {
    /// The driven bones' local rotations at control position `at` (clamped to
    /// 0..=travel): each key's rotation scaled by `at / travel`.
    pub fn evaluate(&self, at: f32) -> Vec<(String, Quat)> {
        let t = if self.travel > 0.0 {
            (at / self.travel).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.keys
            .iter()
            .map(|k| {
                let axis = Vec3::from_array(k.axis).try_normalize().unwrap_or(Vec3::X);
                (
                    k.bone.clone(),
                    Quat::from_axis_angle(axis, (k.degrees * t).to_radians()),
                )
            })
            .collect()
    }

    /// Applies [`Action::evaluate`] to `pose` (the driven bones' local rotations are
    /// replaced).
    pub fn apply(&self, s: &Skeleton, pose: &mut crate::pose::Pose, at: f32) {
        for (b, q) in self.evaluate(at) {
            if let Some(i) = s.find(&b) {
                if i < pose.rotations.len() {
                    pose.rotations[i] = q;
                }
            }
        }
    }
}

/// Interpolation check of an action: the angle each driven bone turns at half the
/// travel over the angle at full travel (0.5 exactly for a linear action).
pub fn half_travel_ratio(a: &Action) -> Vec<(String, f32)> {
    let full = a.evaluate(a.travel);
    let half = a.evaluate(0.5 * a.travel);
    full.iter()
        .zip(&half)
        .map(|((n, f), (_, h))| {
            let af = f.to_axis_angle().1;
            (
                n.clone(),
                if af > 0.0 {
                    h.to_axis_angle().1 / af
                } else {
                    0.0
                },
            )
        })
        .collect()
}
