//! An artist's skirt chains extended to the radial grid.
//!
//! A skirt (any loose tube-like garment) that arrives already driven by cloth chains
//! keeps them: their bones, names, rest positions and parents are never changed. When
//! the chains are fewer than the grid asks for ([`SkirtGrid`]: panels from the hem's
//! girth, segments from the slanted length, the rules of an unrigged skirt's grid), the
//! missing ones are added:
//!
//! * **panels**: the artist's chains are placed around the garment's vertical axis by
//!   the mean angle of their joints; each gap between two neighbours gets its share of
//!   the grid's panel count (by its angle, at least its own chain), and the missing
//!   panels are spread evenly in it: chains from the neighbours' top (interpolated) down
//!   to the hem, the grid's segment count, joints on the garment's own surface, hung
//!   from the bone the left neighbour hangs from. Named after that neighbour's first
//!   bone: `skirt.04.p1`, `skirt.04.p1.001`, ...
//! * **segments**: an artist's chain that stops above the hem by more than half a grid
//!   segment gets bones appended after its last one, at the grid's spacing, down to the
//!   hem at its angle: `skirt.04.seg2`, `skirt.04.seg3`, ... (`.segN`: the bone's place
//!   in the chain). A chain that reaches the hem in fewer, longer bones is kept as it
//!   is (its bones are the artist's) and said.
//!
//! When anything was added the skirt is re-weighted to the whole grid, as an unrigged
//! skirt is: each vertex to the two panels either side of its angle (linear in angle)
//! and, along each, to the two bones either side of its place on the chain (its
//! projection on the nearest bone), fading to the panel's anchor over the first half
//! bone. A warning on the character says what was added. A skirt whose chains meet the
//! grid is left exactly as it is, weights included.

use std::collections::HashMap;
use std::f32::consts::TAU;

use glam::Vec3;

use super::chain_build::{
    add_chain, along, bone_names, push_bone, skirt_hinge, ChainOptions, SkirtGrid,
};
use super::chains::{chains_from_skeleton, is_cloth_class};
use crate::model::{Character, Skeleton, Weights};

/// One panel of the grid: a chain of bones hanging at an angle about the skirt's axis.
#[derive(Debug, Clone)]
struct Panel {
    /// Angle about the axis, 0 at the front (+Z), in `[0, TAU)`.
    theta: f32,
    /// The bone the chain hangs from.
    anchor: usize,
    /// The chain's bones, root first.
    bones: Vec<usize>,
}

/// What [`extend_skirt`] added to one skirt.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Extension {
    /// The artist's panels and their most segments.
    before: (usize, usize),
    /// The grid's panels and segments.
    grid: (usize, usize),
    /// The first bone of every panel added.
    panels_added: Vec<String>,
    /// Per artist chain extended (by its first bone), the segments appended.
    segments_added: Vec<(String, usize)>,
    /// Artist chains reaching the hem in fewer bones than the grid's segments.
    kept_short: Vec<String>,
}

impl Extension {
    fn added(&self) -> bool {
        !self.panels_added.is_empty() || !self.segments_added.is_empty()
    }

    /// The warning that says what was added to part `part`.
    fn message(&self, part: &str) -> String {
        let mut m = format!(
            "skirt chains of part {part:?} extended to the radial grid: the artist's {} panels x {} segments, the grid {} x {}",
            self.before.0, self.before.1, self.grid.0, self.grid.1
        );
        if !self.panels_added.is_empty() {
            m += &format!(
                "; {} panels added ({})",
                self.panels_added.len(),
                self.panels_added.join(", ")
            );
        }
        if !self.segments_added.is_empty() {
            let list: Vec<String> = self
                .segments_added
                .iter()
                .map(|(b, k)| format!("{b} +{k}"))
                .collect();
            m += &format!(
                "; segments appended to {} artist chains ({})",
                list.len(),
                list.join(", ")
            );
        }
        if !self.kept_short.is_empty() {
            m += &format!(
                "; kept as they are, reaching the hem in fewer bones: {}",
                self.kept_short.join(", ")
            );
        }
        m + "; the artist's bones kept, the part re-weighted to the grid"
    }
}

/// The artist's cloth chains that drive part `pi` (bones carrying some of its weight),
/// as panels (each with its joints: heads, then the last bone's tail).
fn artist_panels(c: &Character, pi: usize, g: &SkirtGrid) -> Vec<(Panel, Vec<Vec3>)> {
    let (Some(s), Some(w)) = (c.skeleton.as_ref(), c.parts[pi].weights.as_ref()) else {
        return Vec::new();
    };
    let mut carried = vec![false; s.len()];
    for i in w.vertices.iter().flatten() {
        if i.weight > 0.0 {
            if let Some(x) = carried.get_mut(i.bone as usize) {
                *x = true;
            }
        }
    }
    let mut out = Vec::new();
    for ch in chains_from_skeleton(c) {
        if !is_cloth_class(&ch.class) {
            continue;
        }
        let bones: Vec<usize> = ch.bones.iter().filter_map(|n| s.find(n)).collect();
        let Some(anchor) = bones.first().and_then(|&b| s.bones[b].parent) else {
            continue;
        };
        if bones.len() != ch.bones.len() || !bones.iter().any(|&b| carried[b]) {
            continue;
        }
        let mut joints: Vec<Vec3> = bones.iter().map(|&b| s.bones[b].head).collect();
        joints.push(s.bones[*bones.last().expect("a chain has bones")].tail);
        let mean = joints.iter().copied().sum::<Vec3>() / joints.len() as f32;
        let panel = Panel {
            theta: g.angle(&mean),
            anchor,
            bones,
        };
        out.push((panel, joints));
    }
    out.sort_by(|a, b| a.0.theta.total_cmp(&b.0.theta));
    out
}

/// How many grid panels each gap between consecutive artist angles holds (its own
/// artist panel included): `panels` shared by angle, at least one each.
fn shares(thetas: &[f32], panels: usize) -> Vec<usize> {
    let n = thetas.len();
    let gap = |i: usize| -> f32 {
        if n == 1 {
            TAU
        } else {
            (thetas[(i + 1) % n] - thetas[i]).rem_euclid(TAU)
        }
    };
    let quota: Vec<f32> = (0..n).map(|i| gap(i) / TAU * panels as f32).collect();
    let mut slots: Vec<usize> = quota.iter().map(|q| (q.floor() as usize).max(1)).collect();
    let frac = |slots: &[usize], i: usize| quota[i] - slots[i] as f32;
    while slots.iter().sum::<usize>() < panels {
        let i = (0..n)
            .max_by(|&a, &b| frac(&slots, a).total_cmp(&frac(&slots, b)))
            .expect("n > 0");
        slots[i] += 1;
    }
    while slots.iter().sum::<usize>() > panels {
        let Some(i) = (0..n)
            .filter(|&i| slots[i] > 1)
            .min_by(|&a, &b| frac(&slots, a).total_cmp(&frac(&slots, b)))
        else {
            break;
        };
        slots[i] -= 1;
    }
    slots
}

/// Extends part `pi`'s artist skirt chains to the grid and re-weights it when anything
/// was added (see the module docs); the warning says what. Nothing happens when the
/// part has no artist cloth chain hanging from a bone.
pub(crate) fn extend_skirt(c: &mut Character, pi: usize, h: f32, o: &ChainOptions) {
    let pos = c.parts[pi].mesh.positions.clone();
    let g = SkirtGrid::of(&pos, h, o);
    let artist = artist_panels(c, pi, &g);
    if artist.is_empty() {
        return;
    }
    let mut ext = Extension {
        before: (
            artist.len(),
            artist.iter().map(|a| a.0.bones.len()).max().unwrap_or(0),
        ),
        grid: (g.panels, g.segs),
        ..Default::default()
    };
    let skel = c.skeleton.as_mut().expect("artist chains need a skeleton");
    let mut taken = bone_names(skel);
    let mut panels = Vec::new();
    for (mut p, joints) in artist.iter().cloned() {
        append_segments(skel, &mut taken, &g, (&mut p, joints.as_slice()), &mut ext);
        panels.push(p);
    }
    if artist.len() < g.panels {
        let added = fill_gaps(skel, &mut taken, &g, &artist, &mut ext);
        panels.extend(added);
    }
    if !ext.added() {
        if !ext.kept_short.is_empty() {
            let m = ext.message(&c.parts[pi].name);
            c.warnings.push(m);
        }
        return;
    }
    panels.sort_by(|a, b| a.theta.total_cmp(&b.theta));
    let w = grid_weights(skel, &panels, &g, &pos);
    let part = &mut c.parts[pi];
    part.weights = Some(w);
    let m = ext.message(&part.name);
    c.warnings.push(m);
}

/// Appends bones after an artist chain that stops above the hem (more than half a
/// grid segment), at the grid's spacing down to the hem; a chain reaching the hem in
/// fewer bones than the grid's is noted in `ext.kept_short`.
fn append_segments(
    skel: &mut Skeleton,
    taken: &mut HashMap<String, usize>,
    g: &SkirtGrid,
    (p, joints): (&mut Panel, &[Vec3]),
    ext: &mut Extension,
) {
    let first = skel.bones[p.bones[0]].name.clone();
    let last = *joints.last().expect("a chain has joints");
    let step = g.len() / g.segs as f32;
    let remaining = last.y - g.y_hem;
    if remaining <= 0.5 * step {
        if p.bones.len() < g.segs {
            ext.kept_short.push(first);
        }
        return;
    }
    let k = ((remaining / step).round() as usize).max(1);
    let mut prev = last;
    let mut parent = *p.bones.last().expect("a chain has bones");
    for j in 1..=k {
        let next = g.joint(p.theta, last.y - remaining * j as f32 / k as f32);
        let name = format!("{first}.seg{}", p.bones.len());
        parent = push_bone(
            skel,
            taken,
            name,
            parent,
            [prev, next],
            skirt_hinge(p.theta),
        );
        p.bones.push(parent);
        prev = next;
    }
    ext.segments_added.push((first, k));
}

/// The panels missing between the artist's (sorted by angle), each a chain from its
/// neighbours' interpolated top down to the hem in the grid's segments.
fn fill_gaps(
    skel: &mut Skeleton,
    taken: &mut HashMap<String, usize>,
    g: &SkirtGrid,
    artist: &[(Panel, Vec<Vec3>)],
    ext: &mut Extension,
) -> Vec<Panel> {
    let n = artist.len();
    let thetas: Vec<f32> = artist.iter().map(|a| a.0.theta).collect();
    let mut out = Vec::new();
    for (i, slots) in shares(&thetas, g.panels).into_iter().enumerate() {
        let (a, b) = (&artist[i], &artist[(i + 1) % n]);
        let gap = if n == 1 {
            TAU
        } else {
            (b.0.theta - a.0.theta).rem_euclid(TAU)
        };
        let first = skel.bones[a.0.bones[0]].name.clone();
        for m in 1..slots {
            let f = m as f32 / slots as f32;
            let theta = (a.0.theta + gap * f).rem_euclid(TAU);
            let top = a.1[0].y + (b.1[0].y - a.1[0].y) * f;
            let joints: Vec<Vec3> = (0..=g.segs)
                .map(|j| g.joint(theta, top - (top - g.y_hem) * j as f32 / g.segs as f32))
                .collect();
            let name = format!("{first}.p{m}");
            let ids = add_chain(skel, taken, a.0.anchor, &joints, &name, skirt_hinge(theta));
            ext.panels_added
                .push(skel.bones[ids[0] as usize].name.clone());
            out.push(Panel {
                theta,
                anchor: a.0.anchor,
                bones: ids.into_iter().map(|b| b as usize).collect(),
            });
        }
    }
    out
}

/// Where `q` lies along a chain, in bones from its root (`0..=bones`): its projection
/// on the nearest bone.
fn place_on_chain(skel: &Skeleton, bones: &[usize], q: Vec3) -> f32 {
    let mut best = (f32::INFINITY, 0.0);
    for (j, &b) in bones.iter().enumerate() {
        let (a, e) = (skel.bones[b].head, skel.bones[b].tail);
        let d = e - a;
        let t = ((q - a).dot(d) / d.length_squared().max(1e-20)).clamp(0.0, 1.0);
        let dist = (q - (a + d * t)).length();
        if dist < best.0 {
            best = (dist, j as f32 + t);
        }
    }
    best.1
}

/// The skirt's weights on the grid's `panels` (sorted by angle): see the module docs.
fn grid_weights(skel: &Skeleton, panels: &[Panel], g: &SkirtGrid, pos: &[Vec3]) -> Weights {
    let n = panels.len();
    let mut w = Weights::empty(pos.len());
    for (v, q) in pos.iter().enumerate() {
        let u = g.angle(q);
        // The last panel at or before `u` (cyclic) and the next one.
        let k0 = panels.iter().rposition(|p| p.theta <= u).unwrap_or(n - 1);
        let k1 = (k0 + 1) % n;
        let gap = if n == 1 {
            TAU
        } else {
            (panels[k1].theta - panels[k0].theta).rem_euclid(TAU)
        };
        let a = ((u - panels[k0].theta).rem_euclid(TAU) / gap.max(1e-6)).clamp(0.0, 1.0);
        for (p, wa) in [(&panels[k0], 1.0 - a), (&panels[k1], a)] {
            if wa <= 0.0 {
                continue;
            }
            let nb = p.bones.len();
            let (anchor, bones) = along(place_on_chain(skel, &p.bones, *q), nb);
            if anchor > 0.0 {
                w.add(v, p.anchor as u32, wa * anchor);
            }
            for (j, wb) in bones {
                if wb > 0.0 {
                    w.add(v, p.bones[j] as u32, wa * wb);
                }
            }
        }
    }
    w.limit(4);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_give_each_gap_its_part_of_the_grid() {
        let q = TAU / 4.0;
        assert_eq!(shares(&[0.0, q, 2.0 * q, 3.0 * q], 20), vec![5, 5, 5, 5]);
        assert_eq!(shares(&[0.0], 12), vec![12]);
        // Uneven: a quarter and three quarters of 8.
        assert_eq!(shares(&[0.0, q], 8), vec![2, 6]);
        // More gaps than panels left: every artist panel keeps its own slot.
        assert_eq!(shares(&[0.0, 0.1, 0.2], 2).iter().sum::<usize>(), 3);
    }
}
