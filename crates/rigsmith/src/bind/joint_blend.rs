//! The blend across a limb joint: where a bone hands over to the one that continues it
//! (upper arm to forearm, shoulder to upper arm, thigh to calf), the skin near the
//! joint is heated by both bones, in shares that run linearly across a band as wide as
//! the limb there.
//!
//! Bone heat heats each vertex from one bone, its nearest by reach. On a low-poly limb
//! the edge ring at the elbow then goes to one bone at about 0.86, where an artist
//! paints it 50/50 (the platformer chibi's elbow ring: forearm 0.86 against the
//! artist's 0.48), and the transition is as sharp as the heat's diffusion length, a
//! third of the limb's radius. A rigger blends a joint over about the limb's radius
//! on either side. So a vertex heated by either bone of a joint, lying within
//! `half` of the joint's plane, is heated by both: the child's share
//! `f = (1 + s / half) / 2`, `s` the signed distance from the joint along the mean
//! direction of the two bones, the parent's `1 - f`. `half` is [`BAND`] times the
//! thickness of the flesh at the joint ([`super::bone_reach`], the thinner of the two
//! bones there).
//!
//! Only the joints of limbs that do not reach the floor are blended (arms, fingers,
//! ears): two bones off the centre line, where the parent's tail is the head of exactly
//! one child, and no bone past the joint ends within [`FLOOR`] of the skeleton's lowest
//! point. The spine keeps the firm heat the leg poses need at the pelvis, and the legs
//! keep theirs: blended, the MakeHuman knee bent 120 degrees moved from p95 0.35 to
//! 0.54 % H against the artist (Blender 0.38), while the shoulder and elbow gained
//! (BENCHMARKS.md, *The blend across a limb joint*).

use glam::Vec3;

use super::bone_reach::{thickness_at, JOINT_TOL};
use super::bones::Segment;

/// Half-width of the blend band, in units of the flesh's thickness at the joint.
/// Measured on the re-weighting benchmark (MakeHuman arm poses, p95 % H on `female`
/// arm up / arm forward): 0.5: 0.79 / 0.88, **1.0: 0.61 / 0.71**, 1.5: 0.51 / 0.55
/// (Blender 0.74 / 0.83); 1.5 lost the elbow on `base` (0.34 against Blender's 0.33)
/// and the chibi's arm poses (arm up 1.04 -> 1.42).
pub const BAND: f32 = 1.0;

/// A vertex farther than this many times the flesh's thickness at a joint from the
/// joint's axis is not blended there.
pub const PERP: f32 = 2.0;

/// A bone whose head and tail both lie within this distance (units of the mesh, the
/// binder's H) of the centre plane x = 0 is on the centre line.
pub const CENTRE: f32 = 0.01;

/// A limb whose bones end within this distance (units of the mesh, the binder's H) of
/// the lowest bone end of the skeleton reaches the floor: a leg.
pub const FLOOR: f32 = 0.1;

/// One blended joint.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Joint {
    /// Segment index of the parent (the bone whose tail is the joint).
    parent: u32,
    /// Segment index of the child.
    child: u32,
    /// The joint.
    at: Vec3,
    /// Unit mean direction of the two bones.
    axis: Vec3,
    /// Half-width of the band.
    half: f32,
    /// Farthest a blended vertex lies from the joint's axis.
    reach: f32,
}

/// The limb joints of a skeleton and the bands around them.
#[derive(Debug, Clone, Default)]
pub struct JointBlend {
    joints: Vec<Joint>,
    /// Per segment, the joints it belongs to.
    by_seg: Vec<Vec<usize>>,
}

/// Whether segment `b` starts where segment `a` ends ([`JOINT_TOL`]).
fn meets(a: &Segment, b: &Segment) -> bool {
    let tol = JOINT_TOL * (a.tail - a.head).length().min((b.tail - b.head).length());
    (b.head - a.tail).length() <= tol
}

/// Whether a bone from segment `c` on (following the bones that start where one ends)
/// ends at or below `tip`.
fn reaches(segments: &[Segment], c: usize, tip: f32) -> bool {
    let mut stack = vec![c];
    let mut seen = vec![false; segments.len()];
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        let s = &segments[k];
        if s.head.y.min(s.tail.y) <= tip {
            return true;
        }
        stack.extend((0..segments.len()).filter(|&o| o != k && meets(s, &segments[o])));
    }
    false
}

impl JointBlend {
    /// The blended joints of `segments` (see the module docs; thickness profiles
    /// `thick` from [`super::bone_reach`], not raised to a power), with bands `band`
    /// times the thickness at the joint wide on either side (`band` <= 0: none).
    pub fn new(segments: &[Segment], thick: &[[f32; 5]], band: f32) -> JointBlend {
        let mut jb = JointBlend {
            joints: Vec::new(),
            by_seg: vec![Vec::new(); segments.len()],
        };
        if band <= 0.0 {
            return jb;
        }
        let off_centre = |s: &Segment| s.head.x.abs() > CENTRE || s.tail.x.abs() > CENTRE;
        let floor = segments
            .iter()
            .map(|s| s.head.y.min(s.tail.y))
            .fold(f32::INFINITY, f32::min);
        for (c, sc) in segments.iter().enumerate() {
            let parents: Vec<usize> = (0..segments.len())
                .filter(|&p| p != c && meets(&segments[p], sc))
                .collect();
            let [p] = parents[..] else { continue };
            let sp = &segments[p];
            let only = (0..segments.len()).all(|o| o == c || o == p || !meets(sp, &segments[o]));
            if !only || !off_centre(sp) || !off_centre(sc) || reaches(segments, c, floor + FLOOR) {
                continue;
            }
            let axis =
                (sp.tail - sp.head).normalize_or_zero() + (sc.tail - sc.head).normalize_or_zero();
            let Some(axis) = axis.try_normalize() else {
                continue;
            };
            let r = thickness_at(&thick[p], 1.0).min(thickness_at(&thick[c], 0.0));
            let k = jb.joints.len();
            jb.joints.push(Joint {
                parent: p as u32,
                child: c as u32,
                at: sc.head,
                axis,
                half: band * r,
                reach: PERP * r,
            });
            jb.by_seg[p].push(k);
            jb.by_seg[c].push(k);
        }
        jb
    }

    /// The blended joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// Whether no joint is blended.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// The heat sources of a vertex at `p` heated by segment `seg`: the parent and the
    /// child of the joint of `seg` nearest `p`, with their shares (summing to 1), when
    /// `p` lies within that joint's band; `None` otherwise.
    pub fn shares(&self, seg: u32, p: Vec3) -> Option<[(u32, f32); 2]> {
        let j = self
            .by_seg
            .get(seg as usize)?
            .iter()
            .map(|&k| &self.joints[k])
            .min_by(|a, b| {
                (a.at - p)
                    .length_squared()
                    .total_cmp(&(b.at - p).length_squared())
            })?;
        let s = (p - j.at).dot(j.axis);
        let perp = ((p - j.at) - j.axis * s).length();
        if j.half <= 0.0 || s.abs() >= j.half || perp > j.reach {
            return None;
        }
        let f = 0.5 * (1.0 + s / j.half);
        Some([(j.parent, 1.0 - f), (j.child, f)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(bone: u32, head: Vec3, tail: Vec3) -> Segment {
        Segment { bone, head, tail }
    }

    #[test]
    fn an_arm_joint_is_blended_linearly_and_the_spine_and_legs_are_not() {
        // An arm off the centre line (upper arm, forearm), a spine on it and a leg
        // (thigh, calf) reaching the floor.
        let segs = [
            seg(0, Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.45, 1.4, 0.0)),
            seg(1, Vec3::new(0.45, 1.4, 0.0), Vec3::new(0.7, 1.4, 0.0)),
            seg(2, Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.2, 0.0)),
            seg(3, Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.4, 0.0)),
            seg(4, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.5, 0.0)),
            seg(5, Vec3::new(0.1, 0.5, 0.0), Vec3::new(0.1, 0.05, 0.0)),
        ];
        let thick = [[0.04f32; 5]; 6];
        let jb = JointBlend::new(&segs, &thick, BAND);
        assert_eq!(jb.len(), 1);
        // On the joint's plane: half and half; a quarter band toward the forearm: 3/4.
        let at = jb.shares(0, Vec3::new(0.45, 1.44, 0.0)).unwrap();
        assert_eq!(at[0].0, 0);
        assert_eq!(at[1].0, 1);
        assert!((at[0].1 - 0.5).abs() < 1e-6 && (at[1].1 - 0.5).abs() < 1e-6);
        let q = jb.shares(1, Vec3::new(0.47, 1.4, 0.0)).unwrap();
        assert!((q[1].1 - 0.75).abs() < 1e-4, "{q:?}");
        // Outside the band, and on the spine: one bone, as before.
        assert!(jb.shares(1, Vec3::new(0.55, 1.4, 0.0)).is_none());
        assert!(jb.shares(2, Vec3::new(0.0, 1.2, 0.05)).is_none());
        assert!(jb.shares(4, Vec3::new(0.12, 0.5, 0.0)).is_none());
        // No band: nothing blended.
        assert!(JointBlend::new(&segs, &thick, 0.0).is_empty());
    }
}
