//! The neck's blend as an artist paints it: the jaw, the chin, the lips and the throat
//! below them follow the head, the share of the head fading toward the collar along a
//! line that slopes down to the front (the jaw line), not along the nearest bone.
//!
//! Bone heat weights a vertex from its nearest bone. The chin hangs in front of the
//! neck, below the head's joint (the skull's base), so the neck bone is nearer to it
//! than the head bone is; on the MakeHuman bodies the lower lip and the chin took 0.1
//! to 0.5 of their weight from `neck_01` and `spine_03`, and the lips 0.03 from the
//! clavicles. The lips touch at rest: in `head_nod` and `head_turn` a lower lip that
//! lags its upper lip cuts through it, the chin folds into the throat, and the review
//! counted 8 to 267 new self-intersecting triangle pairs at the chin
//! (`deform.head_*.collar_chin`). The MakeHuman artist instead paints the chin and the
//! lips 1.0 head, the throat 1.0 head from about 0.6 neck lengths below the skull's
//! base, and the nape half head at the skull's base.
//!
//! The rule, in units of the neck's length `L` (from the neck bone's head, the collar,
//! to the head bone's head, the skull's base): a vertex at `p` has the slanted height
//! `s = n . (p - skull) / L`, `n` the neck's axis tilted [`TILT_DEG`] toward the face
//! (+Z made perpendicular to the axis), and the height above the collar
//! `g = axis . (p - collar) / L`. The head's share it should have is
//! `smoothstep(FROM, TO, s) * smoothstep(0, COLLAR_FADE, g)`, faded out to the side
//! between [`LATERAL_FROM`] and [`LATERAL_TO`] neck lengths from the axis. Where the vertex's
//! share on the head and the bones below it in the tree (jaw, ears, eyes) is lower,
//! the head takes the difference from the vertex's other bones, in proportion to
//! their weights; a share that is already higher is kept (the rule only raises the
//! head). Below the collar (measured along the neck's own axis) nothing changes, so
//! the shoulders, the chest and the clavicles keep their weights; a neck leaning
//! forward (MakeHuman's, 18 deg) lets the rule reach just under the collar's height
//! in front, at the notch of the sternum (on `male` 23 vertices there get half head).
//!
//! Only an upright neck (its axis within 45 deg of +Y) is blended: a quadruped's neck
//! runs forward, its jaw line is another shape.
//!
//! ```
//! use rigsmith::deform::neck_blend::NeckBlend;
//! use rigsmith::humanoid::Roles;
//! let c = rigsmith::mannequin::build(&Default::default());
//! let o = rigsmith::RigOptions { review: false, ..Default::default() };
//! let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
//! let s = out.character.skeleton.as_ref().unwrap();
//! let nb = NeckBlend::of(s, &Roles::of(s, None)).unwrap();
//! let head = s.bones[s.find("head").unwrap()].clone();
//! assert_eq!(nb.share(head.tail), 1.0); // the crown follows the head
//! let below = head.head - 2.0 * (head.head - s.bones[s.find("neck_01").unwrap()].head);
//! assert_eq!(nb.share(below), 0.0); // under the collar nothing changes
//! ```

use glam::Vec3;

use crate::geom::smoothstep;
use crate::humanoid::{Role, Roles};
use crate::model::{Influence, Skeleton, Weights};

/// How far the jaw line slopes down to the front, degrees from the plane
/// perpendicular to the neck's axis. The MakeHuman artist's half-head line runs from
/// the skull's base at the nape to 0.7 neck lengths lower at the throat, 0.9 neck
/// lengths in front: about 40 deg.
pub const TILT_DEG: f32 = 40.0;
/// Slanted height (neck lengths from the skull's base) where the head's share starts.
pub const FROM: f32 = -0.8;
/// Slanted height where the head's share reaches 1.
pub const TO: f32 = -0.1;
/// Height above the collar (neck lengths) over which the rule fades in. 0.3 left the
/// demo's throat a step from clavicle to head 0.3 neck lengths high, which folded in
/// `head_nod` (35 new pairs at the chin); 0.6 and 1.0 leave none on the 15 bodies.
pub const COLLAR_FADE: f32 = 0.6;
/// Distance to the side of the neck's axis (neck lengths) up to which the rule holds
/// in full; it fades to nothing at [`LATERAL_TO`]. The jaw and the neck lie within it,
/// the shoulders beside the neck (the mannequin's rise above its collar) do not.
pub const LATERAL_FROM: f32 = 0.6;
/// Distance to the side where the rule has faded out (neck lengths).
pub const LATERAL_TO: f32 = 1.0;

/// The neck blend of one skeleton (see the module docs).
#[derive(Debug, Clone)]
pub struct NeckBlend {
    /// The neck bone's head (the collar), metres.
    collar: Vec3,
    /// The head bone's head (the skull's base), metres.
    skull: Vec3,
    /// The neck's length, metres.
    len: f32,
    /// The neck's axis, unit.
    axis: Vec3,
    /// The axis tilted toward the face, unit.
    slant: Vec3,
    /// The character's side, perpendicular to the axis and the face, unit.
    across: Vec3,
    /// The head bone.
    head: u32,
    /// Per bone: the head or a bone below it in the tree.
    head_side: Vec<bool>,
}

impl NeckBlend {
    /// The blend of `s`: `None` without a neck and a head bone, for a neck shorter
    /// than 1e-6 of the skeleton, or one that is not upright.
    pub fn of(s: &Skeleton, rig: &Roles) -> Option<NeckBlend> {
        let (neck, head) = (rig.get(Role::Neck)?, rig.get(Role::Head)?);
        let (collar, skull) = (s.bones[neck].head, s.bones[head].head);
        let len = (skull - collar).length();
        let size = s
            .bones
            .iter()
            .map(|b| b.head.y.max(b.tail.y))
            .fold(f32::MIN, f32::max)
            - s.bones
                .iter()
                .map(|b| b.head.y.min(b.tail.y))
                .fold(f32::MAX, f32::min);
        if !(len > 1e-6 * size.max(1e-6)) {
            return None;
        }
        let axis = (skull - collar) / len;
        if axis.y < std::f32::consts::FRAC_1_SQRT_2 {
            return None;
        }
        let front = (Vec3::Z - axis * axis.dot(Vec3::Z)).normalize_or_zero();
        let t = TILT_DEG.to_radians();
        let slant = (axis * t.cos() + front * t.sin()).normalize();
        let across = front.cross(axis).normalize_or_zero();
        let head_side = (0..s.len())
            .map(|i| i == head || s.is_ancestor(head, i))
            .collect();
        Some(NeckBlend {
            collar,
            skull,
            len,
            axis,
            slant,
            across,
            head: head as u32,
            head_side,
        })
    }

    /// The head's share a vertex at rest position `p` should have at least (0..1).
    pub fn share(&self, p: Vec3) -> f32 {
        let s = self.slant.dot(p - self.skull) / self.len;
        let g = self.axis.dot(p - self.collar) / self.len;
        let side = self.across.dot(p - self.collar).abs() / self.len;
        smoothstep(FROM, TO, s)
            * smoothstep(0.0, COLLAR_FADE, g)
            * (1.0 - smoothstep(LATERAL_FROM, LATERAL_TO, side))
    }

    /// Raises the head's share of every vertex of `positions` (n, metres, the rest
    /// pose) to [`Self::share`], taking it from the vertex's other bones in proportion;
    /// then limits each vertex to `max_influences`. Returns how many vertices changed.
    pub fn apply(&self, positions: &[Vec3], w: &mut Weights, max_influences: usize) -> usize {
        let mut changed = 0;
        for (list, &p) in w.vertices.iter_mut().zip(positions) {
            let want = self.share(p);
            if want <= 0.0 {
                continue;
            }
            let side = |i: &Influence| self.head_side.get(i.bone as usize) == Some(&true);
            let (mut have, mut other) = (0.0, 0.0);
            for i in list.iter() {
                if side(i) {
                    have += i.weight;
                } else {
                    other += i.weight;
                }
            }
            let take = (want * (have + other) - have).min(other);
            if take <= 1e-6 {
                continue;
            }
            let keep = 1.0 - take / other;
            for i in list.iter_mut().filter(|i| !side(i)) {
                i.weight *= keep;
            }
            match list.iter_mut().find(|i| i.bone == self.head) {
                Some(i) => i.weight += take,
                None => list.push(Influence {
                    bone: self.head,
                    weight: take,
                }),
            }
            list.retain(|i| i.weight > 1e-6);
            changed += 1;
        }
        if changed > 0 {
            w.limit(max_influences.max(1));
        }
        changed
    }
}

/// Applies the neck blend of `c`'s skeleton to every weighted part; parts flagged in
/// `rigid` (in part order) are left as they are. Returns how many vertices changed.
pub fn blend_on_character(
    c: &mut crate::model::Character,
    rigid: &[bool],
    max_influences: usize,
) -> usize {
    let Some(s) = c.skeleton.as_ref() else {
        return 0;
    };
    let Some(nb) = NeckBlend::of(s, &Roles::of(s, None)) else {
        return 0;
    };
    let mut changed = 0;
    for (k, p) in c.parts.iter_mut().enumerate() {
        if rigid.get(k).copied().unwrap_or(false) {
            continue;
        }
        if let Some(w) = p.weights.as_mut() {
            changed += nb.apply(&p.mesh.positions, w, max_influences);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothstep_is_clamped() {
        assert_eq!(smoothstep(-0.8, -0.1, -2.0), 0.0);
        assert_eq!(smoothstep(-0.8, -0.1, 0.5), 1.0);
        assert!((smoothstep(-0.8, -0.1, -0.45) - 0.5).abs() < 1e-6);
    }
}
