//! The facts about a skeleton the structural rules share: joint positions, children,
//! cosmetic bones, name tokens, the main tree, its floor and height, and where the legs
//! end.

use glam::Vec3;

use crate::humanoid::names::is_twist_name;
use crate::model::naming::{cosmetic_class, tokens};
use crate::model::Skeleton;

/// Per-skeleton facts the structural rules share.
pub(super) struct Ctx<'a> {
    pub(super) skel: &'a Skeleton,
    pub(super) heads: Vec<Vec3>,
    pub(super) children: Vec<Vec<usize>>,
    /// Hair, skirt and other cosmetic bones: never part of the body's chains.
    pub(super) cosmetic: Vec<bool>,
    pub(super) toks: Vec<Vec<String>>,
    /// Whether each bone is in the tree that holds the top of the head.
    pub(super) in_main: Vec<bool>,
    /// Depth of each bone in the hierarchy.
    pub(super) depth: Vec<usize>,
    /// The top of the head: the highest joint on the centre line.
    pub(super) top: usize,
    /// Body height over the main tree's joints.
    pub(super) h: f32,
    pub(super) floor: f32,
}

impl<'a> Ctx<'a> {
    /// The facts of `skel`; an error when it has no bones or no joint on the centre
    /// line.
    pub(super) fn new(skel: &'a Skeleton) -> Result<Ctx<'a>, String> {
        if skel.is_empty() {
            return Err("the skeleton has no bones".into());
        }
        let n = skel.len();
        let heads: Vec<Vec3> = skel.bones.iter().map(|b| b.head).collect();
        let cosmetic: Vec<bool> = skel
            .bones
            .iter()
            .map(|b| cosmetic_class(&b.name).is_some())
            .collect();
        let (lo, hi) = heads
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| {
                (l.min(p.y), h.max(p.y))
            });
        let h0 = (hi - lo).max(f32::MIN_POSITIVE);
        // Top: the highest joint on the centre line.
        let top = (0..n)
            .filter(|&i| !cosmetic[i] && heads[i].x.abs() < 0.05 * h0)
            .max_by(|&a, &b| heads[a].y.total_cmp(&heads[b].y).then(b.cmp(&a)))
            .ok_or("no joint on the centre line (|x| < 0.05 H)")?;
        let mut cx = Ctx {
            skel,
            children: skel.children(),
            cosmetic,
            toks: skel.bones.iter().map(|b| tokens(&b.name)).collect(),
            in_main: Vec::new(),
            depth: skel.depths(),
            top,
            h: h0,
            floor: lo,
            heads,
        };
        // The main tree: bones sharing the top's root.
        let root_of = |i: usize| *cx.ancestors(i).last().expect("non-empty");
        let main_root = root_of(top);
        let in_main: Vec<bool> = (0..n).map(|i| root_of(i) == main_root).collect();
        cx.in_main = in_main;
        cx.floor = (0..n)
            .filter(|&i| cx.in_main[i])
            .map(|i| cx.heads[i].y)
            .fold(f32::INFINITY, f32::min);
        cx.h = (cx.heads[top].y - cx.floor).max(f32::MIN_POSITIVE);
        Ok(cx)
    }

    /// The lowest joint on a side (`sign` +1 left, -1 right); of the joints within
    /// 0.05 H of it the deepest in the hierarchy, so an IK foot target hanging from
    /// the root beside the real foot (Unreal's `ik_foot_l`) is not taken for the end
    /// of the leg.
    fn lowest(&self, sign: f32) -> Option<usize> {
        let h = self.h;
        let side: Vec<usize> = (0..self.skel.len())
            .filter(|&i| self.in_main[i] && !self.cosmetic[i] && self.heads[i].x * sign > 0.02 * h)
            .collect();
        let min_y = side
            .iter()
            .map(|&i| self.heads[i].y)
            .fold(f32::INFINITY, f32::min);
        side.into_iter()
            .filter(|&i| self.heads[i].y <= min_y + 0.05 * h)
            .min_by(|&a, &b| {
                self.depth[b]
                    .cmp(&self.depth[a])
                    .then(self.heads[a].y.total_cmp(&self.heads[b].y))
                    .then(a.cmp(&b))
            })
    }

    /// The hips (where the two leg branches and the spine meet) and the lowest joint
    /// on each side `[left, right]`; an error when the body is not upright.
    pub(super) fn hips(&self) -> Result<(usize, [usize; 2]), String> {
        let (h, top) = (self.h, self.top);
        let (Some(fl), Some(fr)) = (self.lowest(1.0), self.lowest(-1.0)) else {
            return Err(
                "no joints on both sides of the centre line in the tree that holds the head".into(),
            );
        };
        let hips = self
            .lca(fl, fr)
            .and_then(|a| self.lca(a, top))
            .ok_or("the feet and the head share no ancestor")?;
        if self.heads[top].y - self.heads[hips].y < 0.25 * h {
            return Err(format!(
                "not an upright body: the top of the head ({}) is {:.2} H above the bone where the legs and the spine meet ({}); a standing humanoid's is over 0.25 H",
                self.skel.bones[top].name,
                (self.heads[top].y - self.heads[hips].y) / h,
                self.skel.bones[hips].name
            ));
        }
        Ok((hips, [fl, fr]))
    }
    /// The path from `from` (exclusive) down to `to` (inclusive); `None` when `from`
    /// is not an ancestor of `to`.
    pub(super) fn path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut out = vec![];
        let mut cur = to;
        while cur != from {
            out.push(cur);
            cur = self.skel.bones[cur].parent?;
        }
        out.reverse();
        Some(out)
    }

    pub(super) fn ancestors(&self, i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut cur = i;
        while let Some(p) = self.skel.bones[cur].parent {
            out.push(p);
            cur = p;
        }
        out
    }

    /// Nearest common ancestor (a bone counts as its own ancestor).
    pub(super) fn lca(&self, a: usize, b: usize) -> Option<usize> {
        let up = self.ancestors(a);
        self.ancestors(b).into_iter().find(|x| up.contains(x))
    }

    pub(super) fn has(&self, i: usize, t: &str) -> bool {
        self.toks[i].iter().any(|x| x == t)
    }

    /// Where bone `i` points: the next joint on `path` after it, else its tail.
    pub(super) fn dir_on(&self, path: &[usize], k: usize) -> Vec3 {
        let i = path[k];
        let next = path
            .get(k + 1)
            .map(|&n| self.heads[n])
            .unwrap_or(self.skel.bones[i].tail);
        next - self.heads[i]
    }

    /// The name without digits and side tokens (`upperarm02.L` -> `upperarm`).
    fn stem(&self, i: usize) -> String {
        self.toks[i]
            .iter()
            .filter(|t| {
                !t.chars().all(|c| c.is_ascii_digit())
                    && !matches!(t.as_str(), "l" | "r" | "left" | "right")
            })
            .cloned()
            .collect::<Vec<_>>()
            .join("_")
    }

    /// A twist/roll segment: a `twist`/`roll` token; or a bone lying along its parent
    /// (head on the parent's segment before 90 % of its length, within 5 % of its
    /// length off its axis, pointing its way within 20 degrees: rigsmith's and
    /// Unreal's twist bones beside the forearm); or named like its parent plus a
    /// number (a name stem at most four bones share, sides counted) and continuing the
    /// parent's line within 20 degrees.
    pub(super) fn is_twist(&self, i: usize) -> bool {
        if is_twist_name(&self.skel.bones[i].name) {
            return true;
        }
        let Some(p) = self.skel.bones[i].parent else {
            return false;
        };
        let pb = &self.skel.bones[p];
        let axis = pb.tail - pb.head;
        let len2 = axis.length_squared();
        let own = self.skel.bones[i].tail - self.heads[i];
        if len2 > 0.0 && own.length() > 0.0 {
            let rel = self.heads[i] - pb.head;
            let t = rel.dot(axis) / len2;
            let off = (rel - axis * t).length();
            let along = own.normalize().dot(axis.normalize()) > 0.94;
            if (-0.05..0.9).contains(&t) && off < 0.05 * len2.sqrt() && along {
                return true;
            }
        }
        let stem = self.stem(i);
        if stem != self.stem(p) || stem.is_empty() {
            return false;
        }
        // A stem shared by many bones (`Bone.001`, `finger1-2.L`) says nothing.
        let shared = (0..self.skel.len())
            .filter(|&k| self.stem(k) == stem)
            .take(5)
            .count();
        if shared > 4 {
            return false;
        }
        let a = self.heads[i] - self.heads[p];
        let b = self.skel.bones[i].tail - self.heads[i];
        a.length() > 0.0 && b.length() > 0.0 && a.normalize().dot(b.normalize()) > 0.94
    }

    pub(super) fn body_children(&self, i: usize) -> Vec<usize> {
        self.children[i]
            .iter()
            .copied()
            .filter(|&c| !self.cosmetic[c])
            .collect()
    }
}
