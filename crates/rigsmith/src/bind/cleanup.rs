//! Weight fixes as data: the operations a rigger does with the brush, done on the
//! numbers (P8 of the rigging notes).
//!
//! ```
//! use rigsmith::bind::{drop_below, keep_largest};
//! use rigsmith::{Influence, Weights};
//! let mut w = Weights { vertices: vec![vec![
//!     Influence { bone: 0, weight: 0.6 }, Influence { bone: 1, weight: 0.395 },
//!     Influence { bone: 2, weight: 0.005 }]] };
//! drop_below(&mut w, 0.01);          // the 0.005 goes, the rest renormalizes
//! assert_eq!(w.vertices[0].len(), 2);
//! keep_largest(&mut w, 1);
//! assert_eq!(w.vertices[0][0].weight, 1.0);
//! ```
//!
//! Every operation leaves each vertex sorted by decreasing weight and summing to 1, and
//! never empties a vertex that had weight (it keeps the largest influence instead).

use glam::Vec3;

use crate::model::{Influence, Mesh, Side, Skeleton, Weights};

/// Removes influences below `limit` (a weight in 0..1) and renormalizes. A vertex whose
/// influences are all below the limit keeps its largest one.
pub fn drop_below(w: &mut Weights, limit: f32) {
    drop_below_unnormalized(w, limit);
    w.normalize();
}

/// [`drop_below`] without the renormalization (sorts each vertex).
pub(crate) fn drop_below_unnormalized(w: &mut Weights, limit: f32) {
    w.sort();
    for list in &mut w.vertices {
        if list.is_empty() {
            continue;
        }
        let first = list[0];
        list.retain(|i| i.weight >= limit);
        if list.is_empty() {
            list.push(first);
        }
    }
}

/// Keeps the `n` largest influences of each vertex (ties by bone index), renormalizes.
/// `n = 0` is treated as 1.
pub fn keep_largest(w: &mut Weights, n: usize) {
    w.limit(n.max(1));
}

/// Strips weights of one side's bones off the other half of the body: a vertex more
/// than `centre_band` (in units of the height H of `positions`) to the character's
/// left (+X) of the mid-plane loses its right-side bones, and vice versa. The
/// mid-plane is the mean X of the skeleton's centre bones' heads (X = 0 when there is
/// none). A vertex that would be emptied keeps its weights. Renormalizes. Returns the
/// number of vertices that lost weight.
///
/// * `positions`: the n vertices of the part the weights belong to.
pub fn strip_cross_side(
    w: &mut Weights,
    positions: &[Vec3],
    s: &Skeleton,
    centre_band: f32,
) -> usize {
    let (lo, hi) = crate::model::Mesh {
        positions: positions.to_vec(),
        ..Default::default()
    }
    .bounds();
    let h = (hi - lo).y.max((hi - lo).max_element() * 1e-3);
    strip_side_where(w, positions, s, centre_band * h, |_, _| false)
}

/// [`strip_cross_side`] for what a smoothing carried across the mid-plane: a vertex
/// more than `band` (units of `positions`) off the mid-plane loses the other side's
/// bones that it had no weight on in `before` (the weights before the smoothing).
/// Renormalizes; returns the number of vertices that lost weight.
pub fn strip_smoothed_across(
    w: &mut Weights,
    before: &Weights,
    positions: &[Vec3],
    s: &Skeleton,
    band: f32,
) -> usize {
    strip_side_where(w, positions, s, band, |v, bone| {
        before
            .vertices
            .get(v)
            .is_some_and(|l| l.iter().any(|i| i.bone == bone && i.weight > 0.0))
    })
}

/// Removes, from each vertex more than `band` off the skeleton's mid-plane, the other
/// side's bones except those `kept(vertex, bone)` keeps; a vertex that would be emptied
/// keeps its weights. Renormalizes; returns the number of vertices that lost weight.
fn strip_side_where(
    w: &mut Weights,
    positions: &[Vec3],
    s: &Skeleton,
    band: f32,
    kept: impl Fn(usize, u32) -> bool,
) -> usize {
    let mid = mid_x(s);
    let mut stripped = 0;
    for (v, list) in w.vertices.iter_mut().enumerate() {
        let Some(p) = positions.get(v) else { break };
        let x = p.x - mid;
        let wrong = if x > band {
            Side::Right
        } else if x < -band {
            Side::Left
        } else {
            continue;
        };
        let keep: Vec<_> = list
            .iter()
            .copied()
            .filter(|i| {
                s.bones.get(i.bone as usize).map(|b| b.side) != Some(wrong) || kept(v, i.bone)
            })
            .collect();
        if !keep.is_empty() && keep.len() < list.len() {
            *list = keep;
            stripped += 1;
        }
    }
    w.normalize();
    stripped
}

/// A garment hanging between the legs (a long skirt's hem, a dress's front panel) parts
/// its legs' weight by side as an artist does: the left leg's share of a vertex's leg
/// weight runs from 1/2 at the mid-plane to 1 at [`HEM_SPLIT`] times the hip joints'
/// offset from it, and no less than that ramp on the vertex's own side. Only vertices
/// below the hip joints that `only` marks (inpainted, off the skin: what a copy of the
/// skin did not give) are touched; the legs' total and every other bone stay. A side
/// with no weight borrows the other side's bones mirrored (`mirror`: each bone's mirror,
/// as `bind::mirror::bone_mirrors` gives them). Returns the number of vertices
/// changed.
///
/// The inpainting spreads both legs over the hem: on MakeHuman's ankle-long skirt, which
/// its artist weighted, the near calf got 0.73 at 0.04 H from the mid-plane where the
/// artist paints 0.93 (hip joints 0.06 H off the plane), and the back of the hem followed
/// the other leg's knee.
pub(crate) fn split_between_legs(
    w: &mut Weights,
    positions: &[Vec3],
    s: &Skeleton,
    roles: &crate::humanoid::Roles,
    mirror: &[u32],
    only: &[bool],
) -> usize {
    let (Some(tl), Some(tr)) = (roles.leg_root(Side::Left), roles.leg_root(Side::Right)) else {
        return 0;
    };
    let mid = mid_x(s);
    let (hl, hr) = (s.bones[tl].head, s.bones[tr].head);
    let reach = HEM_SPLIT * 0.5 * ((hl.x - mid).abs() + (hr.x - mid).abs());
    let top = hl.y.min(hr.y);
    if reach <= 0.0 {
        return 0;
    }
    let side = |b: u32| roles.leg_side(b as usize);
    let mut changed = 0;
    for (v, list) in w.vertices.iter_mut().enumerate() {
        let (Some(p), Some(true)) = (positions.get(v), only.get(v).copied()) else {
            continue;
        };
        if p.y >= top {
            continue;
        }
        let sum = |sd: Side| -> f32 {
            list.iter()
                .filter(|i| side(i.bone) == Some(sd))
                .map(|i| i.weight)
                .sum()
        };
        let (l, r) = (sum(Side::Left), sum(Side::Right));
        let legs = l + r;
        if legs <= 1e-6 {
            continue;
        }
        let x = p.x - mid;
        if x.abs() < 1e-6 {
            continue;
        }
        let ramp = (0.5 + 0.5 * x / reach).clamp(0.0, 1.0);
        let now = l / legs;
        let want = if x > 0.0 {
            now.max(ramp)
        } else {
            now.min(ramp)
        };
        if (want - now).abs() < 1e-4 {
            continue;
        }
        let (near, far, gain) = if want > now {
            (Side::Left, r, want * legs)
        } else {
            (Side::Right, l, (1.0 - want) * legs)
        };
        let near_now = legs - far;
        let keep = legs - gain;
        if near_now > 1e-6 {
            for i in list.iter_mut() {
                match side(i.bone) {
                    Some(sd) if sd == near => i.weight *= gain / near_now,
                    Some(_) => i.weight *= keep / far,
                    None => {}
                }
            }
        } else {
            // The near side has nothing: it takes the far side's bones, mirrored.
            let borrowed: Vec<Influence> = list
                .iter()
                .filter(|i| side(i.bone).is_some())
                .map(|i| Influence {
                    bone: mirror[i.bone as usize],
                    weight: i.weight * gain / far,
                })
                .collect();
            for i in list.iter_mut() {
                if side(i.bone).is_some() {
                    i.weight *= keep / far;
                }
            }
            list.extend(borrowed);
        }
        list.retain(|i| i.weight > 0.0);
        changed += 1;
    }
    w.normalize();
    changed
}

/// How far from the mid-plane, in units of the hip joints' offset from it, a garment
/// between the legs goes whole to the near leg ([`split_between_legs`]). The MakeHuman
/// artists' ankle-long skirts disagree: on `base` the near leg has 0.93 at 0.7 of the
/// hips' offset and all of it at 1.0, on `female` 0.75 and 0.88. Measured on the
/// re-weighting benchmark (knee_120 p95 % H, `base.mhskirt` / `female.mhskirt`, Blender
/// 1.633 / 1.302, without the split 2.133 / 1.033): 1.0: 1.458 / 1.334, **1.1: 1.589 /
/// 1.270**, 1.15: 1.669 / 1.269, 1.25: 1.742 / 1.220, 1.5: 1.887 / 1.124.
pub const HEM_SPLIT: f32 = 1.1;

/// `a` times `1 - t` plus `b` times `t`, bone by bone (influences of 0 dropped; not
/// renormalized).
pub(crate) fn mix(
    a: &[Influence],
    b: impl IntoIterator<Item = Influence>,
    t: f32,
) -> Vec<Influence> {
    let mut out: Vec<Influence> = a
        .iter()
        .map(|i| Influence {
            bone: i.bone,
            weight: (1.0 - t) * i.weight,
        })
        .collect();
    for i in b {
        match out.iter_mut().find(|o| o.bone == i.bone) {
            Some(o) => o.weight += t * i.weight,
            None => out.push(Influence {
                bone: i.bone,
                weight: t * i.weight,
            }),
        }
    }
    out.retain(|i| i.weight > 0.0);
    out
}

/// The skeleton's mid-plane: the mean X of its centre bones' heads (0 when there is
/// none).
pub(crate) fn mid_x(s: &Skeleton) -> f32 {
    let centre: Vec<f32> = s
        .bones
        .iter()
        .filter(|b| b.side == Side::Center)
        .map(|b| b.head.x)
        .collect();
    if centre.is_empty() {
        0.0
    } else {
        centre.iter().sum::<f32>() / centre.len() as f32
    }
}

/// Laplacian smoothing of the weights over the mesh's edges: each pass replaces every
/// vertex's weights by the average of its own and its neighbours' (uniform weights),
/// then renormalizes. Vertices without edges are unchanged. Deterministic.
pub fn smooth(w: &mut Weights, mesh: &Mesh, iterations: usize) {
    let n = w.vertices.len().min(mesh.positions.len());
    let edges = mesh.edges();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &edges {
        if (a as usize) < n && (b as usize) < n {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
    }
    for _ in 0..iterations {
        let prev = w.vertices.clone();
        for v in 0..n {
            if adj[v].is_empty() || prev[v].is_empty() {
                continue;
            }
            let mut acc: Vec<(u32, f32)> = prev[v].iter().map(|i| (i.bone, i.weight)).collect();
            let mut count = 1.0;
            for &u in &adj[v] {
                if prev[u as usize].is_empty() {
                    continue;
                }
                count += 1.0;
                for i in &prev[u as usize] {
                    match acc.iter_mut().find(|a| a.0 == i.bone) {
                        Some(a) => a.1 += i.weight,
                        None => acc.push((i.bone, i.weight)),
                    }
                }
            }
            w.vertices[v] = acc
                .into_iter()
                .map(|(bone, s)| crate::model::Influence {
                    bone,
                    weight: s / count,
                })
                .collect();
        }
        w.sort();
        w.normalize();
    }
}

/// The continuous form of [`drop_below`]: every weight is lowered by `limit` (at 0 it
/// stays 0), then the vertex is renormalized. Weights under the limit vanish as with
/// `drop_below`, but a weight crossing the limit fades instead of jumping, so a tiny
/// change of the input (a rescaled character) makes a tiny change of the output. A
/// vertex whose weights all fall under the limit keeps its largest influence.
pub fn fade_below(w: &mut Weights, limit: f32) {
    w.sort();
    for list in &mut w.vertices {
        if list.is_empty() {
            continue;
        }
        let first = list[0];
        for i in list.iter_mut() {
            i.weight -= limit;
        }
        list.retain(|i| i.weight > 0.0);
        if list.is_empty() {
            list.push(first);
        }
    }
    w.normalize();
}

/// The continuous form of [`keep_largest`]: subtracts the `(n+1)`-th largest weight
/// from every weight of the vertex, which leaves at most `n` (ties leave fewer), then
/// renormalizes. Unlike truncation it never jumps when the n-th and (n+1)-th weights
/// swap order.
pub fn keep_largest_smooth(w: &mut Weights, n: usize) {
    let n = n.max(1);
    w.sort();
    for list in &mut w.vertices {
        if list.len() <= n {
            continue;
        }
        let cut = list[n].weight;
        for i in list.iter_mut() {
            i.weight -= cut;
        }
        list.retain(|i| i.weight > 0.0);
    }
    w.normalize();
}

/// The export cleanup of the rigging notes (`clean_weights`): removes influences below
/// `limit`, keeps the `max_influences` largest, renormalizes. A vertex whose influences
/// are all below the limit keeps its largest one.
pub fn clean(w: &mut Weights, limit: f32, max_influences: usize) {
    drop_below(w, limit);
    keep_largest(w, max_influences);
}

/// [`smooth`] restricted as a rigger restricts the brush: only the vertices flagged in
/// `mask` change, and only the weights of `bones` are averaged (over the vertex and its
/// neighbours, uniform weights); the other bones keep their weights, then the vertex is
/// renormalized. Vertices past the end of `mask` are not flagged.
pub fn smooth_masked(
    w: &mut Weights,
    mesh: &Mesh,
    iterations: usize,
    bones: &[u32],
    mask: &[bool],
) {
    let n = w.vertices.len().min(mesh.positions.len());
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (a, b) in mesh.edges() {
        if (a as usize) < n && (b as usize) < n {
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        }
    }
    let get = |l: &[crate::model::Influence], b: u32| {
        l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight)
    };
    for _ in 0..iterations {
        let prev = w.vertices.clone();
        for v in (0..n).filter(|&v| mask.get(v).copied().unwrap_or(false)) {
            if adj[v].is_empty() || prev[v].is_empty() {
                continue;
            }
            let ring: Vec<usize> = std::iter::once(v)
                .chain(adj[v].iter().map(|&u| u as usize))
                .filter(|&u| !prev[u].is_empty())
                .collect();
            let mut list: Vec<crate::model::Influence> = prev[v]
                .iter()
                .copied()
                .filter(|i| !bones.contains(&i.bone))
                .collect();
            for &b in bones {
                let avg = ring.iter().map(|&u| get(&prev[u], b)).sum::<f32>() / ring.len() as f32;
                if avg > 0.0 {
                    list.push(crate::model::Influence {
                        bone: b,
                        weight: avg,
                    });
                }
            }
            if !list.is_empty() {
                w.vertices[v] = list;
            }
        }
        w.sort();
        w.normalize();
    }
}

/// Exact seams (the rigging notes' P8): vertices of different parts that coincide
/// (within `tol`, the character's unit) get one weight vector, the mean of theirs (the
/// brush's Mix 0.5), so a seam between two pieces of the skin cannot open in motion.
/// Only skinned parts take part. Returns the number of vertices changed.
pub fn exact_seams(c: &mut crate::model::Character, tol: f32) -> usize {
    let mut weights: Vec<Option<Weights>> = c.parts.iter_mut().map(|p| p.weights.take()).collect();
    let all: Vec<usize> = (0..c.parts.len()).collect();
    let changed = exact_seams_among(c, &mut weights, &all, tol);
    for (p, w) in c.parts.iter_mut().zip(weights) {
        p.weights = w;
    }
    changed
}

/// [`exact_seams`] over the parts `among` of `c` (by index), their weights in
/// `weights` (in part order, `None` for a part without): what [`crate::bind::bind`]
/// runs on the skin pieces. Returns the number of vertices changed.
pub fn exact_seams_among(
    c: &crate::model::Character,
    weights: &mut [Option<Weights>],
    among: &[usize],
    tol: f32,
) -> usize {
    let mut all = Vec::new();
    let mut owner = Vec::new();
    for &pi in among {
        if weights.get(pi).map_or(true, |w| w.is_none()) {
            continue;
        }
        for (v, q) in c.parts[pi].mesh.positions.iter().enumerate() {
            all.push(*q);
            owner.push((pi, v));
        }
    }
    let (label, k) = crate::geom::weld::weld_near(&all, tol);
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); k];
    for (i, &l) in label.iter().enumerate() {
        groups[l as usize].push(i);
    }
    let mut changed = 0;
    for g in groups.iter().filter(|g| g.len() > 1) {
        let first = owner[g[0]].0;
        if g.iter().all(|&i| owner[i].0 == first) {
            continue;
        }
        let mut acc: Vec<(u32, f32)> = Vec::new();
        for &i in g {
            let (pi, v) = owner[i];
            let w = weights[pi].as_ref().expect("skinned part");
            for inf in w.vertices.get(v).into_iter().flatten() {
                match acc.iter_mut().find(|a| a.0 == inf.bone) {
                    Some(a) => a.1 += inf.weight,
                    None => acc.push((inf.bone, inf.weight)),
                }
            }
        }
        let mut list: Vec<crate::model::Influence> = acc
            .into_iter()
            .map(|(bone, s)| crate::model::Influence {
                bone,
                weight: s / g.len() as f32,
            })
            .collect();
        let sum: f32 = list.iter().map(|i| i.weight).sum();
        if sum > 0.0 {
            for i in &mut list {
                i.weight /= sum;
            }
        }
        crate::model::sort_influences(&mut list);
        for &i in g {
            let (pi, v) = owner[i];
            let w = weights[pi].as_mut().expect("skinned part");
            if let Some(slot) = w.vertices.get_mut(v) {
                if *slot != list {
                    *slot = list.clone();
                    changed += 1;
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bone, Influence};

    #[test]
    fn a_hem_between_the_legs_parts_by_side_and_nothing_else_moves() {
        let y = Vec3::Y;
        let s = Skeleton {
            bones: vec![
                Bone::new("pelvis", None, Vec3::new(0.0, 1.0, 0.0), y),
                Bone::new("thigh_l", Some(0), Vec3::new(0.1, 1.0, 0.0), -y),
                Bone::new("calf_l", Some(1), Vec3::new(0.1, 0.5, 0.0), -y),
                Bone::new("thigh_r", Some(0), Vec3::new(-0.1, 1.0, 0.0), -y),
                Bone::new("calf_r", Some(3), Vec3::new(-0.1, 0.5, 0.0), -y),
            ],
        };
        let roles = crate::humanoid::Roles::of(&s, None);
        let inf = |b: u32, w: f32| Influence { bone: b, weight: w };
        let legs = |l: &[Influence], side: [u32; 2]| -> f32 {
            l.iter()
                .filter(|i| side.contains(&i.bone))
                .map(|i| i.weight)
                .sum()
        };
        let mut w = Weights {
            vertices: vec![
                // Left of the mid-plane, half the hips' offset: soft, 0.6 to the left leg.
                vec![inf(2, 0.48), inf(4, 0.32), inf(0, 0.2)],
                // Already sharper than the ramp: kept.
                vec![inf(2, 0.95), inf(4, 0.05)],
                // On the right with nothing on the right leg: borrows it, mirrored.
                vec![inf(2, 1.0)],
                // Not marked: kept.
                vec![inf(2, 0.5), inf(4, 0.5)],
                // Above the hips: kept.
                vec![inf(2, 0.5), inf(4, 0.5)],
                // On the mid-plane: kept.
                vec![inf(2, 0.7), inf(4, 0.3)],
            ],
        };
        let before = w.clone();
        let p = [
            Vec3::new(0.05, 0.3, 0.1),
            Vec3::new(0.02, 0.3, 0.1),
            Vec3::new(-0.11, 0.3, 0.1),
            Vec3::new(0.05, 0.3, 0.1),
            Vec3::new(0.05, 1.2, 0.1),
            Vec3::new(0.0, 0.3, 0.1),
        ];
        let only = [true, true, true, false, true, true];
        assert_eq!(
            split_between_legs(&mut w, &p, &s, &roles, &[0, 3, 4, 1, 2], &only),
            2
        );
        // The ramp at 0.05 of 0.11: 0.5 + 0.5 * 0.05 / 0.11 = 0.727 of the leg weight.
        let l0 = legs(&w.vertices[0], [1, 2]);
        assert!((l0 / 0.8 - 0.7273).abs() < 1e-3, "{:?}", w.vertices[0]);
        assert!((legs(&w.vertices[0], [3, 4]) + l0 - 0.8).abs() < 1e-5);
        let pelvis = w.vertices[0].iter().find(|i| i.bone == 0).unwrap();
        assert!((pelvis.weight - 0.2).abs() < 1e-6);
        // Past 1.1 times the hips' offset the right leg takes it all, on its own bones.
        assert!(
            (legs(&w.vertices[2], [3, 4]) - 1.0).abs() < 1e-5,
            "{:?}",
            w.vertices[2]
        );
        assert!(w.vertices[2].iter().any(|i| i.bone == 4));
        for v in [1, 3, 4, 5] {
            assert_eq!(w.vertices[v], before.vertices[v], "vertex {v}");
        }
        // Without both legs known nothing moves.
        let one = Skeleton {
            bones: s.bones[..3].to_vec(),
        };
        let mut w2 = before.clone();
        let r1 = crate::humanoid::Roles::of(&one, None);
        w2.vertices
            .iter_mut()
            .for_each(|l| l.retain(|i| i.bone < 3));
        let kept = w2.clone();
        assert_eq!(
            split_between_legs(&mut w2, &p, &one, &r1, &[0, 1, 2], &only),
            0
        );
        assert_eq!(w2, kept);
    }

    #[test]
    fn what_a_smoothing_carried_across_the_mid_plane_is_stripped_and_the_rest_kept() {
        let y = Vec3::Y;
        let s = Skeleton {
            bones: vec![
                Bone::new("spine", None, Vec3::ZERO, y),
                Bone::new("clavicle_l", Some(0), Vec3::new(0.05, 1.0, 0.0), y),
                Bone::new("clavicle_r", Some(0), Vec3::new(-0.05, 1.0, 0.0), y),
            ],
        };
        let inf = |b: u32, w: f32| Influence { bone: b, weight: w };
        // Before the smoothing: a vertex on the left with the left clavicle only, and one
        // with both (a skirt's hem between the legs, inpainted from both sides).
        let before = Weights {
            vertices: vec![
                vec![inf(1, 0.8), inf(0, 0.2)],
                vec![inf(1, 0.5), inf(2, 0.5)],
            ],
        };
        // After: the first took 0.04 of the right clavicle.
        let mut w = Weights {
            vertices: vec![
                vec![inf(1, 0.76), inf(0, 0.2), inf(2, 0.04)],
                vec![inf(1, 0.5), inf(2, 0.5)],
            ],
        };
        let p = [Vec3::new(0.03, 1.0, 0.0), Vec3::new(0.03, 0.5, 0.0)];
        assert_eq!(strip_smoothed_across(&mut w, &before, &p, &s, 0.01), 1);
        assert!(w.vertices[0].iter().all(|i| i.bone != 2));
        let sum: f32 = w.vertices[0].iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert_eq!(w.vertices[1].len(), 2, "{:?}", w.vertices[1]);
        // Within the band nothing is stripped; the plain strip takes what the transfer
        // gave too.
        let mut near = Weights {
            vertices: vec![vec![inf(1, 0.96), inf(2, 0.04)]],
        };
        let q = [Vec3::new(0.005, 1.0, 0.0)];
        assert_eq!(strip_smoothed_across(&mut near, &before, &q, &s, 0.01), 0);
        let mut both = before.clone();
        assert_eq!(strip_side_where(&mut both, &p, &s, 0.01, |_, _| false), 1);
        assert_eq!(both.vertices[1].len(), 1);
    }
}
