//! Weights that follow a twist chain: along a limb bone with twist bones, the limb's
//! weight is spread over the limb bone and its twist bones by each vertex's place
//! along the limb, so the roll a vertex gets grows smoothly from one end to the other.
//!
//! For a vertex at `t` along the limb bone (0 at its head, 1 at its tail, clamped), the
//! sum of its weights on the limb bone and the chain's twist bones is shared between
//! the two neighbouring anchors by linear interpolation. The anchors are each twist
//! bone at its place along the limb ([`TwistRule::at`]) and the limb bone itself at
//! the end whose roll it carries: the head for a distal chain (the forearm does not
//! roll at the elbow), the tail for a proximal one (the upper arm carries its full roll
//! at the elbow). Weights on other bones are untouched; the vertex's influences are
//! then limited to `max_influences` and renormalized.

use std::collections::BTreeMap;

use glam::Vec3;

use super::twist::{TwistKind, TwistRule};
use crate::model::{Skeleton, Weights};

/// One chain: the limb bone and its anchors `(t, bone)` sorted by `t`.
struct Chain {
    limb: u32,
    head: Vec3,
    tail: Vec3,
    anchors: Vec<(f32, u32)>,
}

fn chains(s: &Skeleton, rules: &[TwistRule]) -> Vec<Chain> {
    let mut by_limb: BTreeMap<usize, (TwistKind, Vec<(f32, u32)>)> = BTreeMap::new();
    for r in rules {
        let (Some(limb), Some(t)) = (s.find(&r.limb), s.find(&r.bone)) else {
            continue;
        };
        by_limb
            .entry(limb)
            .or_insert((r.kind, Vec::new()))
            .1
            .push((r.at, t as u32));
    }
    by_limb
        .into_iter()
        .map(|(limb, (kind, mut anchors))| {
            anchors.push(match kind {
                TwistKind::Distal => (0.0, limb as u32),
                TwistKind::Proximal => (1.0, limb as u32),
            });
            anchors.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            Chain {
                limb: limb as u32,
                head: s.bones[limb].head,
                tail: s.bones[limb].tail,
                anchors,
            }
        })
        .collect()
}

/// The anchors' shares of a vertex at `t`: one or two `(bone, share)` pairs.
fn shares(anchors: &[(f32, u32)], t: f32) -> [(u32, f32); 2] {
    let first = anchors[0];
    let last = anchors[anchors.len() - 1];
    if t <= first.0 {
        return [(first.1, 1.0), (first.1, 0.0)];
    }
    if t >= last.0 {
        return [(last.1, 1.0), (last.1, 0.0)];
    }
    for w in anchors.windows(2) {
        let ((t0, a), (t1, b)) = (w[0], w[1]);
        if t <= t1 {
            let u = if t1 > t0 { (t - t0) / (t1 - t0) } else { 1.0 };
            return [(a, 1.0 - u), (b, u)];
        }
    }
    [(last.1, 1.0), (last.1, 0.0)]
}

/// Spreads the weights of `positions` (n, metres, the rest pose of `s`) along every
/// twist chain of `rules` (see the module docs). Returns how many vertices changed.
pub fn follow_twist_chains(
    positions: &[Vec3],
    w: &mut Weights,
    s: &Skeleton,
    rules: &[TwistRule],
    max_influences: usize,
) -> usize {
    let chains = chains(s, rules);
    let mut changed = 0;
    for (v, list) in w.vertices.iter_mut().enumerate() {
        let Some(&p) = positions.get(v) else { continue };
        let mut touched = false;
        for ch in &chains {
            let in_chain = |b: u32| b == ch.limb || ch.anchors.iter().any(|a| a.1 == b);
            let total: f32 = list
                .iter()
                .filter(|i| in_chain(i.bone))
                .map(|i| i.weight)
                .sum();
            if total <= 0.0 {
                continue;
            }
            let d = ch.tail - ch.head;
            let t = ((p - ch.head).dot(d) / d.length_squared().max(1e-20)).clamp(0.0, 1.0);
            list.retain(|i| !in_chain(i.bone));
            for (bone, share) in shares(&ch.anchors, t) {
                if share > 0.0 {
                    match list.iter_mut().find(|i| i.bone == bone) {
                        Some(i) => i.weight += share * total,
                        None => list.push(crate::model::Influence {
                            bone,
                            weight: share * total,
                        }),
                    }
                }
            }
            touched = true;
        }
        changed += usize::from(touched);
    }
    w.limit(max_influences.max(1));
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_interpolate_between_anchors() {
        let a = [(0.0, 0), (0.75, 1)];
        assert_eq!(shares(&a, -1.0)[0], (0, 1.0));
        let s = shares(&a, 0.375);
        assert!((s[0].1 - 0.5).abs() < 1e-6 && (s[1].1 - 0.5).abs() < 1e-6);
        assert_eq!(shares(&a, 0.9)[0], (1, 1.0));
    }
}
