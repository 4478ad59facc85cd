//! Ears hung beside the head: the head's share of a thin appendage whose root sits on
//! the head but whose bones do not descend from it.
//!
//! An ear chain under the head bone follows the head through the hierarchy: its weights
//! stay as bound. Some artists' rigs hang the ears from the last neck bone instead,
//! beside the head (the Quaternius fox: `Ear1.L` is a child of `Neck3`). Such an ear
//! follows neither motion whole: weighted only to its own chain, it is left behind
//! whenever the head turns alone (it tears off the skull at its root); weighted only to
//! the head, it no longer flicks.
//!
//! A vertex on such an ear, weighted `k` to the head and `1 - k` to its ear chain, lags
//! `(1 - k) * t * d_head` behind the head when the head turns by `t`, and `k * t *
//! d_root` behind the ear when the ear turns by `t` about its root (`d_head`, `d_root`:
//! its distance from the head's pivot and from the ear's root, for small turns). The
//! share that makes the larger of the two lags smallest makes them equal:
//!
//! `k = d_head / (d_head + d_root)`
//!
//! so the root stays on the skull (`k` = 1 there) and the head keeps a little more than
//! half of the tip (its pivot is farther from the tip than the ear's root is). The ear
//! chain's weight of every vertex is split so (a vertex also weighted to other bones
//! keeps those), at most the bind's influences kept. On the fox, with its own skeleton,
//! under the quadruped pose library: the largest distance to the artist's skinning went
//! from 3.90 to about 2.4 % H (`BENCHMARKS.md`, re-weighting the fox).
//!
//! Ears are read from the skeleton's structure ([`crate::pose::quadruped::QuadRoles`]):
//! a skeleton that is not four-legged, or whose ears descend from the head, is left
//! as bound.

use crate::model::{Character, Influence, Skeleton, Weights};
use crate::pose::quadruped::QuadRoles;

/// Whether `anc` is `b` or one of its ancestors.
fn descends(s: &Skeleton, mut b: usize, anc: usize) -> bool {
    loop {
        if b == anc {
            return true;
        }
        match s.bones[b].parent {
            Some(p) => b = p,
            None => return false,
        }
    }
}

/// Keeps the `n` largest influences of `list` (ties by bone index) and renormalizes.
fn keep(list: &mut Vec<Influence>, n: usize) {
    crate::model::sort_influences(list);
    list.truncate(n.max(1));
    let sum: f32 = list.iter().map(|i| i.weight).sum();
    if sum > 0.0 {
        for i in list.iter_mut() {
            i.weight /= sum;
        }
    }
}

/// Gives the head its share (see the module docs) of every vertex weighted to an ear
/// chain that does not descend from the head. `weights`: per part of `c`, bound to `s`;
/// at most `max_influences` kept on a changed vertex. Returns the vertices changed
/// (0 when `s` is not four-legged or its ears hang from the head).
pub fn carry_ears(
    c: &Character,
    s: &Skeleton,
    weights: &mut [Option<Weights>],
    max_influences: usize,
) -> usize {
    let Some(roles) = QuadRoles::of(s) else {
        return 0;
    };
    let head = roles.head;
    let pivot = s.bones[head].head;
    let mut changed = 0;
    for (_, chain) in &roles.ears {
        let Some(&root) = chain.first() else {
            continue;
        };
        if descends(s, root, head) {
            continue;
        }
        let base = s.bones[root].head;
        let on_ear = |i: &Influence| chain.contains(&(i.bone as usize));
        for (part, w) in c.parts.iter().zip(weights.iter_mut()) {
            let Some(w) = w else { continue };
            for (list, &p) in w.vertices.iter_mut().zip(&part.mesh.positions) {
                let ear: f32 = list.iter().filter(|i| on_ear(i)).map(|i| i.weight).sum();
                if ear <= 0.0 {
                    continue;
                }
                let (dh, dr) = ((p - pivot).length(), (p - base).length());
                let k = if dh + dr > 0.0 { dh / (dh + dr) } else { 1.0 };
                for i in list.iter_mut().filter(|i| on_ear(i)) {
                    i.weight *= 1.0 - k;
                }
                match list.iter_mut().find(|i| i.bone as usize == head) {
                    Some(i) => i.weight += k * ear,
                    None => list.push(Influence {
                        bone: head as u32,
                        weight: k * ear,
                    }),
                }
                list.retain(|i| i.weight > 0.0);
                keep(list, max_influences);
                changed += 1;
            }
        }
    }
    changed
}
