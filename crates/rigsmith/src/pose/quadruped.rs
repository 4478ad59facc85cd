//! The quadruped pose library, on any four-legged skeleton (the fitted templates, an
//! artist's rig with its own names): the roles come from the structure.
//!
//! [`QuadRoles::of`] reads the deform bones of the main tree (the root with the most
//! deform bones under it: separate roots such as IK foot controls are left out): the
//! leaves whose tails lie in the lowest
//! fifth of the skeleton's height end four leg chains (each up to the branch it hangs
//! from); the branch that descends from the other is the front (shoulders), the other
//! the hind (hips); the spine runs from the hind branch to the front one; the head is
//! the front-most centred leaf below the front branch (the parent of a jaw, chin or
//! mouth bone), the neck the bones between; the
//! tail the back-most centred leaf of the hind branch; ears the side leaves under the
//! neck or head. A leg's swing bone is its first bone whose head lies 15% of the
//! branch's height below the branch (below the pelvis or scapula).
//!
//! | pose | what it does | side |
//! |---|---|---|
//! | `leg_forward.hind.L/R`, `leg_forward.front.L/R` | the leg's swing bone 35 deg forward | L/R |
//! | `leg_back.hind.L/R`, `leg_back.front.L/R` | the swing bone 35 deg back | L/R |
//! | `hock_bend.L/R` | the bone below the hock ([`hock_bone`]) hinged 40 deg so the hock closes | L/R |
//! | `graze` | the neck 60 deg down, spread over its bones, the head 20 deg more | - |
//! | `head_turn` | neck and head 50 deg about the vertical, spread | - |
//! | `spine_arch` | the spine 25 deg, spread (the back rounds up) | - |
//! | `spine_twist` | the spine 30 deg about the forward axis, spread | - |
//! | `tail_swing` | the tail 60 deg about the vertical, spread | - |
//! | `ear_flick.L/R` | the ear 30 deg outward | L/R |
//!
//! A pose whose bones are missing (no tail, no ears) is skipped with the reason.

use glam::Vec3;

use super::fk::Pose;
use super::library::NamedPose;
use super::ops;
use crate::model::naming::Side;
use crate::model::Skeleton;

/// One leg chain.
#[derive(Debug, Clone, PartialEq)]
pub struct LegChain {
    /// Bones from the top (pelvis or scapula) down to the toe.
    pub bones: Vec<usize>,
    /// The swing bone (thigh or upper arm).
    pub swing: usize,
    /// Hind leg (else front).
    pub hind: bool,
    /// The animal's side.
    pub side: Side,
}

/// The roles of a quadruped skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadRoles {
    /// Hind left, hind right, front left, front right.
    pub legs: Vec<LegChain>,
    /// From the hind branch to the front branch.
    pub spine: Vec<usize>,
    /// Between the front branch and the head.
    pub neck: Vec<usize>,
    /// The head.
    pub head: usize,
    /// The tail chain from its root (empty when none).
    pub tail: Vec<usize>,
    /// Ear chains (root first) with their side.
    pub ears: Vec<(Side, Vec<usize>)>,
    /// The direction the animal faces (+Z or -Z).
    pub forward: Vec3,
}

impl QuadRoles {
    /// Reads the roles (see the module docs); `None` when the deform bones do not end
    /// in exactly four leg chains under two branches.
    pub fn of(s: &Skeleton) -> Option<QuadRoles> {
        let t = Tree::of(s)?;
        let Legs {
            legs,
            hind_b,
            front_b,
            forward,
        } = t.legs()?;
        let spine = t.spine(hind_b, front_b)?;
        let f = Found {
            legs: &legs,
            forward,
        };
        let (head, neck) = t.head_and_neck(&f, front_b)?;
        let tail = t.tail(&f, hind_b, front_b, &spine);
        let ears = t.ears(&f, head, &neck);
        Some(QuadRoles {
            legs,
            spine,
            neck,
            head,
            tail,
            ears,
            forward,
        })
    }
}

/// The deform bones of the main tree, read once: each bone's nearest deform ancestor,
/// its deform children, the leaves and the skeleton's vertical and lateral extent.
struct Tree<'a> {
    s: &'a Skeleton,
    deform: Vec<bool>,
    kids: Vec<Vec<usize>>,
    leaves: Vec<usize>,
    /// The lowest point of the deform bones.
    lo: f32,
    /// Their height (positive).
    h: f32,
    /// The centre plane's x.
    cx: f32,
}

/// The four leg chains, the branches they hang from and the facing.
struct Legs {
    legs: Vec<LegChain>,
    hind_b: usize,
    front_b: usize,
    forward: Vec3,
}

/// What the later steps need of the legs.
struct Found<'l> {
    legs: &'l [LegChain],
    forward: Vec3,
}

impl Found<'_> {
    fn in_legs(&self, i: usize) -> bool {
        self.legs.iter().any(|l| l.bones.contains(&i))
    }
}

impl<'a> Tree<'a> {
    /// `None` when the main tree has fewer than 8 deform bones.
    fn of(s: &'a Skeleton) -> Option<Tree<'a>> {
        let n = s.len();
        let main = main_tree(s);
        let deform: Vec<bool> = s
            .bones
            .iter()
            .zip(&main)
            .map(|(b, m)| b.deform && *m)
            .collect();
        if deform.iter().filter(|d| **d).count() < 8 {
            return None;
        }
        let mut t = Tree {
            s,
            deform,
            kids: vec![Vec::new(); n],
            leaves: Vec::new(),
            lo: 0.0,
            h: 0.0,
            cx: 0.0,
        };
        for i in 0..n {
            if t.deform[i] {
                if let Some(p) = t.dparent(i) {
                    t.kids[p].push(i);
                }
            }
        }
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        let mut xs = (f32::INFINITY, f32::NEG_INFINITY);
        for (i, b) in s.bones.iter().enumerate() {
            if t.deform[i] {
                for p in [b.head, b.tail] {
                    lo = lo.min(p.y);
                    hi = hi.max(p.y);
                    xs = (xs.0.min(p.x), xs.1.max(p.x));
                }
            }
        }
        t.lo = lo;
        t.h = (hi - lo).max(1e-9);
        t.cx = 0.5 * (xs.0 + xs.1);
        t.leaves = (0..n)
            .filter(|&i| t.deform[i] && t.kids[i].is_empty())
            .collect();
        Some(t)
    }

    /// The nearest deform ancestor.
    fn dparent(&self, mut i: usize) -> Option<usize> {
        while let Some(p) = self.s.bones[i].parent {
            if self.deform[p] {
                return Some(p);
            }
            i = p;
        }
        None
    }

    fn centred(&self, i: usize) -> bool {
        (self.s.bones[i].tail.x - self.cx).abs() < 0.05 * self.h
    }

    fn left(&self, i: usize, forward: Vec3) -> Side {
        if (self.s.bones[i].tail.x - self.cx) * forward.z > 0.0 {
            Side::Left
        } else {
            Side::Right
        }
    }

    /// The leaves in the lowest fifth end the four legs; each chain runs up to the
    /// branch it hangs from; the branch that descends from the other is the front.
    fn legs(&self) -> Option<Legs> {
        let s = self.s;
        let feet: Vec<usize> = self
            .leaves
            .iter()
            .copied()
            .filter(|&i| s.bones[i].tail.y.min(s.bones[i].head.y) < self.lo + 0.2 * self.h)
            .collect();
        if feet.len() != 4 {
            return None;
        }
        let mut chains: Vec<(Vec<usize>, usize)> = Vec::new();
        for &f in &feet {
            let mut chain = vec![f];
            let mut cur = f;
            let branch = loop {
                let p = self.dparent(cur)?;
                if self.kids[p].len() > 1 {
                    break p;
                }
                chain.push(p);
                cur = p;
            };
            chain.reverse();
            chains.push((chain, branch));
        }
        let mut branches: Vec<usize> = chains.iter().map(|c| c.1).collect();
        branches.sort_unstable();
        branches.dedup();
        if branches.len() != 2 {
            return None;
        }
        let (a, b) = (branches[0], branches[1]);
        let (hind_b, front_b) = if s.is_ancestor(a, b) {
            (a, b)
        } else if s.is_ancestor(b, a) {
            (b, a)
        } else {
            return None;
        };
        let forward = if s.bones[front_b].head.z >= s.bones[hind_b].head.z {
            Vec3::Z
        } else {
            -Vec3::Z
        };
        let mut legs = Vec::new();
        for (chain, br) in chains {
            let top_y = s.bones[chain[0]].head.y;
            let swing = chain
                .iter()
                .copied()
                .find(|&i| s.bones[i].head.y < top_y - 0.15 * (top_y - self.lo))
                .unwrap_or(chain[0]);
            let side = self.left(*chain.last()?, forward);
            legs.push(LegChain {
                bones: chain,
                swing,
                hind: br == hind_b,
                side,
            });
        }
        legs.sort_by_key(|l| (!l.hind, l.side != Side::Left));
        if legs.iter().filter(|l| l.hind).count() != 2 {
            return None;
        }
        Some(Legs {
            legs,
            hind_b,
            front_b,
            forward,
        })
    }

    /// From the hind branch to the front branch.
    fn spine(&self, hind_b: usize, front_b: usize) -> Option<Vec<usize>> {
        let mut spine = vec![front_b];
        let mut cur = front_b;
        while cur != hind_b {
            cur = self.dparent(cur)?;
            spine.push(cur);
        }
        spine.reverse();
        Some(spine)
    }

    /// The head (the front-most centred leaf under the front branch, or the parent of
    /// a jaw there) and the neck bones between it and the branch.
    fn head_and_neck(&self, f: &Found<'_>, front_b: usize) -> Option<(usize, Vec<usize>)> {
        let s = self.s;
        let fwd = |i: usize| s.bones[i].tail.dot(f.forward);
        let mut head = self
            .leaves
            .iter()
            .copied()
            .filter(|&i| !f.in_legs(i) && self.centred(i) && s.is_ancestor(front_b, i))
            .max_by(|&i, &j| fwd(i).total_cmp(&fwd(j)))?;
        // A jaw hangs under the head and reaches further forward: the head is its parent.
        let lower = s.bones[head].name.to_ascii_lowercase();
        if ["jaw", "chin", "mouth", "tongue"]
            .iter()
            .any(|w| lower.contains(w))
        {
            head = self.dparent(head)?;
        }
        let mut neck = Vec::new();
        let mut cur = head;
        while let Some(p) = self.dparent(cur) {
            if p == front_b {
                break;
            }
            neck.push(p);
            cur = p;
        }
        neck.reverse();
        Some((head, neck))
    }

    /// The back-most centred leaf of the hind branch and the bones up to the spine.
    fn tail(&self, f: &Found<'_>, hind_b: usize, front_b: usize, spine: &[usize]) -> Vec<usize> {
        let s = self.s;
        let fwd = |i: usize| s.bones[i].tail.dot(f.forward);
        let tail_leaf = self
            .leaves
            .iter()
            .copied()
            .filter(|&i| {
                !f.in_legs(i)
                    && self.centred(i)
                    && s.is_ancestor(hind_b, i)
                    && !s.is_ancestor(front_b, i)
            })
            .min_by(|&i, &j| fwd(i).total_cmp(&fwd(j)));
        let mut tail = Vec::new();
        if let Some(t) = tail_leaf {
            let mut cur = t;
            tail.push(t);
            while let Some(p) = self.dparent(cur) {
                if p == hind_b || spine.contains(&p) {
                    break;
                }
                tail.push(p);
                cur = p;
            }
            tail.reverse();
        }
        tail
    }

    /// The side leaves that hang from the head or the neck, with their chains.
    fn ears(&self, f: &Found<'_>, head: usize, neck: &[usize]) -> Vec<(Side, Vec<usize>)> {
        let mut ears = Vec::new();
        for &leaf in &self.leaves {
            if f.in_legs(leaf) || self.centred(leaf) || leaf == head {
                continue;
            }
            let mut chain = vec![leaf];
            let mut cur = leaf;
            let mut anchored = false;
            while let Some(p) = self.dparent(cur) {
                if p == head || neck.contains(&p) {
                    anchored = true;
                    break;
                }
                chain.push(p);
                cur = p;
            }
            if anchored {
                chain.reverse();
                ears.push((self.left(leaf, f.forward), chain));
            }
        }
        ears
    }
}

/// Per bone, whether it lies under the root with the most deform bones (the body's
/// tree; other roots hold controls such as IK targets).
pub fn main_tree(s: &Skeleton) -> Vec<bool> {
    let root_of = |mut i: usize| {
        while let Some(p) = s.bones[i].parent {
            i = p;
        }
        i
    };
    let roots: Vec<usize> = (0..s.len()).map(root_of).collect();
    let mut count = vec![0usize; s.len()];
    for (i, b) in s.bones.iter().enumerate() {
        if b.deform {
            count[roots[i]] += 1;
        }
    }
    let main = (0..s.len()).max_by_key(|&r| (count[r], std::cmp::Reverse(r)));
    roots.iter().map(|r| Some(*r) == main).collect()
}

/// For a four-legged skeleton ([`QuadRoles::of`]): each bone outside its main tree
/// ([`main_tree`]: IK foot targets, pole targets) with the deform bone of the main tree
/// nearest its head (distance to the bone's segment), the bone it follows when the
/// rig is posed by its deform bones alone (an IK target snapped to the FK foot). Empty
/// for any other skeleton.
pub fn controls_following(s: &Skeleton) -> Vec<(usize, usize)> {
    if QuadRoles::of(s).is_none() {
        return Vec::new();
    }
    let main = main_tree(s);
    let targets: Vec<usize> = (0..s.len())
        .filter(|&i| main[i] && s.bones[i].deform)
        .collect();
    let dist = |p: Vec3, j: usize| {
        let (a, b) = (s.bones[j].head, s.bones[j].tail);
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared().max(1e-20)).clamp(0.0, 1.0);
        (p - (a + ab * t)).length()
    };
    (0..s.len())
        .filter(|&i| !main[i])
        .filter_map(|i| {
            let p = s.bones[i].head;
            targets
                .iter()
                .copied()
                .min_by(|&a, &b| dist(p, a).total_cmp(&dist(p, b)))
                .map(|j| (i, j))
        })
        .collect()
}

/// The quadruped library on `s`, or `None` when `s` is not a quadruped
/// ([`QuadRoles::of`]). Returns the poses and, for each pose skipped, why.
pub fn quadruped_library(s: &Skeleton) -> Option<(Vec<NamedPose>, Vec<String>)> {
    let r = QuadRoles::of(s)?;
    Some(library_on(s, &r))
}

/// How far `hock_bend` closes the hock, degrees.
pub const HOCK_BEND_DEG: f32 = 40.0;

/// The bone below a hind leg's hock: of the chain's bones below the swing bone, the
/// one whose head lies furthest back (the hock points back, the knee forward, the paw
/// stands under or ahead of the hock). A leg that ends at its swing bone has none.
/// The same rule reads the fitted templates (`shin`, `foot`, `toe`: the hock is
/// `foot`'s head) and an artist's rig whose swing bone is read lower down (the fox's
/// `BackUpperLeg`, `BackLowerLeg`: the hock is `BackLowerLeg`'s head).
pub fn hock_bone(s: &Skeleton, leg: &LegChain, forward: Vec3) -> Option<usize> {
    let k = leg.bones.iter().position(|&b| b == leg.swing)?;
    leg.bones[k + 1..].iter().copied().min_by(|&a, &b| {
        let (fa, fb) = (s.bones[a].head.dot(forward), s.bones[b].head.dot(forward));
        fa.total_cmp(&fb)
    })
}

/// `1` or `-1`: the sense of a turn about `axis` that takes bone `i`'s tail toward its
/// parent's head (the joint at `i`'s head closes).
fn closing_sign(s: &Skeleton, i: usize, axis: Vec3) -> f32 {
    let b = &s.bones[i];
    let Some(p) = b.parent else { return 1.0 };
    let up = s.bones[p].head - b.head;
    let v = b.tail - b.head;
    let turned = |deg: f32| glam::Quat::from_axis_angle(axis.normalize(), deg.to_radians()) * v;
    if turned(HOCK_BEND_DEG).dot(up) >= turned(-HOCK_BEND_DEG).dot(up) {
        1.0
    } else {
        -1.0
    }
}

fn spread(s: &Skeleton, p: &mut Pose, bones: &[usize], axis: Vec3, deg: f32) {
    let n = bones.len().max(1) as f32;
    for &b in bones {
        ops::rotate_world(s, p, b, axis, deg / n);
    }
}

/// The library on a skeleton whose roles are read.
pub fn library_on(s: &Skeleton, r: &QuadRoles) -> (Vec<NamedPose>, Vec<String>) {
    let lateral = Vec3::Y.cross(r.forward);
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    let np = |name: String, pose: Pose, side: Side| NamedPose {
        name,
        pose,
        side,
        tests: vec![],
        planted: vec![],
    };
    for leg in &r.legs {
        let l = leg.side.letter();
        let which = if leg.hind { "hind" } else { "front" };
        for (name, deg) in [("leg_forward", -35.0), ("leg_back", 35.0)] {
            let mut p = Pose::rest(s);
            ops::rotate_world(s, &mut p, leg.swing, lateral, deg);
            out.push(np(format!("{name}.{which}.{l}"), p, leg.side));
        }
        if leg.hind {
            match hock_bone(s, leg, r.forward) {
                Some(foot) => {
                    let mut p = Pose::rest(s);
                    let deg = HOCK_BEND_DEG * closing_sign(s, foot, lateral);
                    ops::rotate_world(s, &mut p, foot, lateral, deg);
                    out.push(np(format!("hock_bend.{l}"), p, leg.side));
                }
                None => skipped.push(format!("hock_bend.{l}: no bone below the hock")),
            }
        }
    }
    let c = Side::Center;
    let mut p = Pose::rest(s);
    spread(s, &mut p, &r.neck, lateral, 60.0);
    ops::rotate_world(s, &mut p, r.head, lateral, 20.0);
    out.push(np("graze".into(), p, c));
    let mut turn: Vec<usize> = r.neck.clone();
    turn.push(r.head);
    let mut p = Pose::rest(s);
    spread(s, &mut p, &turn, Vec3::Y, 50.0);
    out.push(np("head_turn".into(), p, c));
    let mut p = Pose::rest(s);
    spread(s, &mut p, &r.spine, lateral, -25.0);
    out.push(np("spine_arch".into(), p, c));
    let mut p = Pose::rest(s);
    spread(s, &mut p, &r.spine, r.forward, 30.0);
    out.push(np("spine_twist".into(), p, c));
    if r.tail.is_empty() {
        skipped.push("tail_swing: no tail chain".into());
    } else {
        let mut p = Pose::rest(s);
        spread(s, &mut p, &r.tail, Vec3::Y, 60.0);
        out.push(np("tail_swing".into(), p, c));
    }
    if r.ears.is_empty() {
        skipped.push("ear_flick: no ear chains".into());
    }
    for (side, ear) in &r.ears {
        let out_dir = if *side == Side::Left { 1.0 } else { -1.0 };
        let mut p = Pose::rest(s);
        spread(s, &mut p, ear, r.forward, -30.0 * out_dir);
        out.push(np(format!("ear_flick.{}", side.letter()), p, *side));
    }
    (out, skipped)
}
