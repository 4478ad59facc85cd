//! Twist chains bind as their limb: a twist bone lies along its limb bone and shares
//! the limb's flesh, so the routes weight the limb alone and the limb's weight is then
//! spread along the chain by each vertex's place along the limb
//! ([`crate::deform::follow_twist_chains`]).
//!
//! Weighting the twist bone as a bone of its own made the limb's thickness a matter of
//! rounding: the twist bone lies on the limb's axis, as near as the limb to every point
//! around it, so whether it stopped the limb's thickness rays
//! ([`super::bone_reach::carried_thickness`]) was decided by the last bit of a
//! coordinate. The same character read from FBX and from glTF (positions a millionth
//! of a metre apart) measured its upper arm 0.057 and 0.067 H thick and took two
//! different weight routes.
//!
//! The spread runs in the body's cleanup, after the smoothing and before the influence
//! limit, so every route's weights and the weight report that judges them already
//! hold the twist bones' shares.
//!
//! A chain is a deform bone (the limb) and its deform children that lie along it
//! ([`super::report::lies_along`]: both ends on the limb's segment). The spread uses
//! the character's twist rules ([`crate::deform::twist_rules`]) where the skeleton's
//! roles name the limb; a chain the roles do not know (a tail, a tentacle) is spread
//! the same way, its limb anchored at the end farther from its twist bones.

use crate::deform::{TwistKind, TwistRule};
use crate::model::{Skeleton, Weights};

/// An influence count [`Chains::spread`] never reaches: the spread leaves the limit to
/// the cleanup's smooth one ([`super::keep_largest_smooth`]).
pub const UNLIMITED: usize = 64;

/// The twist chains of a skeleton: which deform bones bind as their limb, and the rules
/// that spread a limb's weight back along its chain.
#[derive(Debug, Clone, Default)]
pub struct Chains {
    /// Per bone of the skeleton: it lies along its deform parent and binds as it.
    pub merged: Vec<bool>,
    /// One rule per merged bone.
    pub rules: Vec<TwistRule>,
}

impl Chains {
    /// The chains of `s` (see the module docs).
    pub fn of(s: &Skeleton) -> Chains {
        let along = |k: usize| {
            s.bones[k].parent.is_some_and(|p| {
                s.bones[k].deform && s.bones[p].deform && super::report::lies_along(s, p, k)
            })
        };
        // A twist bone of a twist bone binds with the first (its parent stays a limb).
        let merged: Vec<bool> = (0..s.len())
            .map(|k| along(k) && s.bones[k].parent.is_some_and(|p| !along(p)))
            .collect();
        if !merged.contains(&true) {
            return Chains {
                merged,
                rules: Vec::new(),
            };
        }
        let known = crate::deform::twist_rules(s, &crate::humanoid::Roles::of(s, None));
        let mut rules: Vec<TwistRule> = Vec::new();
        for k in (0..s.len()).filter(|&k| merged[k]) {
            match known.iter().find(|r| r.bone == s.bones[k].name) {
                Some(r) => rules.push(r.clone()),
                None => rules.push(unknown_rule(s, &merged, k)),
            }
        }
        Chains { merged, rules }
    }

    /// Whether any bone binds as its limb.
    pub fn any(&self) -> bool {
        !self.rules.is_empty()
    }

    /// Spreads the limb's weight of every vertex along its chain (`positions` in the
    /// skeleton's frame); returns how many vertices changed.
    pub fn spread(
        &self,
        positions: &[glam::Vec3],
        w: &mut Weights,
        s: &Skeleton,
        max_influences: usize,
    ) -> usize {
        if !self.any() {
            return 0;
        }
        crate::deform::follow_twist_chains(positions, w, s, &self.rules, max_influences)
    }
}

/// The rule of merged bone `k` whose limb the roles do not know: its place is its
/// head's along the limb; the limb carries the end farther from the middle of its
/// merged children (an upper arm's twist bone near the shoulder leaves the limb the
/// elbow, a forearm's near the wrist the elbow).
fn unknown_rule(s: &Skeleton, merged: &[bool], k: usize) -> TwistRule {
    let p = s.bones[k].parent.expect("a merged bone has a parent");
    let (a, b) = (s.bones[p].head, s.bones[p].tail);
    let d = b - a;
    let t = |q: glam::Vec3| ((q - a).dot(d) / d.length_squared().max(1e-20)).clamp(0.0, 1.0);
    let mids: Vec<f32> = (0..s.len())
        .filter(|&j| merged[j] && s.bones[j].parent == Some(p))
        .map(|j| t(0.5 * (s.bones[j].head + s.bones[j].tail)))
        .collect();
    let mean = mids.iter().sum::<f32>() / mids.len().max(1) as f32;
    let kind = if mean < 0.5 {
        TwistKind::Proximal
    } else {
        TwistKind::Distal
    };
    let at = t(s.bones[k].head);
    TwistRule {
        bone: s.bones[k].name.clone(),
        limb: s.bones[p].name.clone(),
        source: s.bones[p].name.clone(),
        kind,
        axis: "Y".into(),
        weight: match kind {
            TwistKind::Distal => at,
            TwistKind::Proximal => 1.0 - at,
        },
        at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bone, Influence};
    use glam::Vec3;

    /// A root, a limb along +X from 0 to 1 and one child lying along it at `[t0, t1]`.
    fn limb(t0: f32, t1: f32) -> Skeleton {
        let root = Bone::new("root", None, Vec3::new(-1.0, 0.0, 0.0), Vec3::ZERO);
        let limb = Bone::new("tail_a", Some(0), Vec3::ZERO, Vec3::X);
        let twist = Bone::new("tail_b", Some(1), Vec3::X * t0, Vec3::X * t1);
        Skeleton {
            bones: vec![root, limb, twist],
        }
    }

    #[test]
    fn a_bone_along_its_parent_binds_as_it_and_takes_its_share_back() {
        let s = limb(0.25, 0.5);
        let c = Chains::of(&s);
        assert_eq!(c.merged, vec![false, false, true]);
        // Twist bone near the head: the limb carries the tail.
        assert_eq!(c.rules[0].kind, TwistKind::Proximal);
        let pos = [
            Vec3::new(0.1, 0.1, 0.0),
            Vec3::new(0.625, 0.1, 0.0),
            Vec3::new(1.0, 0.1, 0.0),
        ];
        let mut w = Weights {
            vertices: pos
                .iter()
                .map(|_| {
                    vec![Influence {
                        bone: 1,
                        weight: 1.0,
                    }]
                })
                .collect(),
        };
        c.spread(&pos, &mut w, &s, 4);
        let on = |v: usize, b: u32| {
            w.vertices[v]
                .iter()
                .find(|i| i.bone == b)
                .map_or(0.0, |i| i.weight)
        };
        // Before the twist bone's place it is all the twist bone's; at the limb's tail
        // all the limb's; half way between, half each.
        assert!((on(0, 2) - 1.0).abs() < 1e-5, "{:?}", w.vertices[0]);
        assert!((on(1, 2) - 0.5).abs() < 1e-5 && (on(1, 1) - 0.5).abs() < 1e-5);
        assert!((on(2, 1) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_child_that_leaves_its_parent_is_no_chain() {
        let mut s = limb(0.25, 0.5);
        s.bones[2].tail = Vec3::new(0.5, 0.3, 0.0);
        assert!(!Chains::of(&s).any());
        let mut s = limb(0.25, 0.5);
        s.bones[2].deform = false;
        assert!(!Chains::of(&s).any());
    }
}
