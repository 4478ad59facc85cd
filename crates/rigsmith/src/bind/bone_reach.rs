//! Which bone a skin vertex belongs to: the distance from a vertex to a bone measured
//! relative to the thickness of the body around that bone.
//!
//! Plain Euclidean distance to the bone segment (Baran and Popović) hands the front of
//! the hip to the thigh (its head is nearer than the thick pelvis and spine), the
//! shoulder blade to the arm and the chin to the thin neck. A rigger instead thinks of
//! each bone as carrying the flesh around it: a thick bone reaches farther. So each
//! vertex `p` measures every bone `b` as
//!
//! ```text
//! reach_b(p) = sqrt(|p - c|² + (k² - 1) o²) / r_b(t)^a
//! ```
//!
//! * `c` the closest point of the segment, at parameter `t` in `[0, 1]`;
//! * `o` how far `p` lies beyond the bone's ends along its axis (0 beside the bone),
//!   weighted by `k` = [`OVERSHOOT`]: past a joint, the bone on the other side wins;
//! * `r_b(t)` the body's thickness around the bone ([`bone_thickness`]), interpolated
//!   along it and tapered at a tail where a thinner bone continues, raised to
//!   `a` = [`THICKNESS_POWER`].
//!
//! The nearest bone by this measure (that the vertex can see) heats the vertex; the heat
//! itself still uses the true distance `|p - c|`. A vertex hidden from every bone (in a
//! fold) takes the nearest bone whose closest point is not a free end
//! ([`past_free_end`]). A uniform scale `s` multiplies every
//! reach by `s^(1 - a)`, so the order of bones, hence the weights, do not depend on the
//! size of the character.
//!
//! The constants were chosen on the MakeHuman `base` and `female` bodies against the
//! artist weights under test poses (BENCHMARKS.md, section *Weights*).

use glam::Vec3;

use super::bones::Segment;
use crate::geom::bvh::Bvh;

/// Where along each bone (fraction from head to tail) the thickness is sampled.
pub const THICKNESS_AT: [f32; 3] = [0.25, 0.5, 0.75];

/// Rays per thickness sample, evenly spread in the plane perpendicular to the bone.
pub const THICKNESS_RAYS: usize = 12;

/// The quantile of the ray lengths taken as the thickness at a sample (0.5 = median).
/// Above the median, a bone flattened against the skin on one side (the spine near the
/// back) still measures the body it carries.
pub const THICKNESS_QUANTILE: f32 = 0.625;

/// Exponent `a` of the thickness in the reach.
pub const THICKNESS_POWER: f32 = 0.75;

/// A bone continues another when its head is within this fraction of the shorter
/// bone's length of the other's tail.
pub const JOINT_TOL: f32 = 0.01;

/// Weight `k` of the distance past a bone's end (1 = plain distance).
pub const OVERSHOOT: f32 = 1.5;

/// The body's thickness around each bone (same unit as the mesh): at each point of
/// [`THICKNESS_AT`], the [`THICKNESS_QUANTILE`] of the distances to the first surface
/// hit along [`THICKNESS_RAYS`] directions perpendicular to the bone (rays longer than
/// `far` or that leave no hit are not counted). A sample with fewer than half of its
/// rays hitting (a bone poking out of the body) takes the median of the bone's other
/// samples, a bone with none the median of all samples of all bones.
///
/// Returns one profile per segment at t = 0, 0.25, 0.5, 0.75, 1: the ends repeat the
/// nearest sample, except that a tail where another bone starts ([`JOINT_TOL`]) takes
/// the smaller of its own and that bone's first sample.
///
/// Every other bone is a neighbour here: see [`carried_thickness`] for the thickness
/// that stops where the flesh of a bone that is not its parent or child begins.
pub fn bone_thickness(bvh: &Bvh, segments: &[Segment], far: f32) -> Vec<[f32; 5]> {
    thickness(bvh, &[], segments, None, far)
}

/// The flesh each bone carries: [`bone_thickness`], with each ray stopped where a
/// bone other than this one's kin (`kin[i]`: the bones within two joints of bone `i`,
/// from [`skeleton_kin`]) comes nearer than this bone. A bone lying along the front of
/// the torso (a chibi's belly bone) otherwise measures the whole torso behind it,
/// spine included, as its own flesh, and takes the chest and shoulders by reach; the
/// kin are not counted, as they share the flesh around the bone's joints (ears
/// starting inside a head do not shrink the head, nor the thighs the pelvis).
pub fn carried_thickness(
    bvh: &Bvh,
    segments: &[Segment],
    kin: &[Vec<u32>],
    far: f32,
) -> Vec<[f32; 5]> {
    thickness(bvh, &[], segments, Some(kin), far)
}

/// [`carried_thickness`] of a skin made of closed `pieces` that may interpenetrate (an
/// arm sunk into the torso; one tree per island of the skin, `bvh` the tree over all
/// of them): a ray from a point inside some pieces stops at the first wall of a piece
/// that holds the point; the walls of pieces that do not hold it are sunk into its
/// flesh and do not end it. A game character's shoulder bone starts inside the torso,
/// beside the sunk end of its arm piece, whose wall a few centimetres away is not
/// where the shoulder's flesh ends. A ray from a point no piece holds stops at the
/// first wall, as with one piece. (The farthest wall of the holders, the union of
/// their solids, was measured too: a chibi's neck, held by its torso and its head,
/// then took the top of the torso.)
pub fn carried_thickness_in(
    bvh: &Bvh,
    pieces: &[Bvh],
    segments: &[Segment],
    kin: &[Vec<u32>],
    far: f32,
) -> Vec<[f32; 5]> {
    thickness(bvh, pieces, segments, Some(kin), far)
}

/// Distance along the ray `o + u d` (`u` in `(0, far]`) to where it leaves the flesh:
/// the nearest first hit among the pieces that hold `o` (`holders`, indices into
/// `pieces`), else the first hit on `bvh`.
fn flesh_length(
    bvh: &Bvh,
    pieces: &[Bvh],
    holders: &[usize],
    o: Vec3,
    d: Vec3,
    far: f32,
) -> Option<f32> {
    let end = o + d * far;
    let own = holders
        .iter()
        .filter_map(|&k| pieces[k].first_hit(o, end, 0.0, 1.0))
        .fold(None, |m: Option<f32>, t| Some(m.map_or(t, |m| m.min(t))));
    own.or_else(|| bvh.first_hit(o, end, 0.0, 1.0))
        .map(|t| t * far)
}

/// A child bone whose head projects onto its parent farther than this fraction of the
/// parent's length from either end branches off the parent's middle ([`skeleton_kin`]).
pub const BRANCH_T: f32 = 0.02;

/// Steps along a ray at which [`carried_thickness`] tests whether another bone is
/// nearer.
pub const CARRIED_STEPS: usize = 32;

/// For each segment, the other segments whose bones are within two joints of its bone
/// in the skeleton `s` (by skeleton index, `Segment::bone`; non-deform bones count as
/// joints): its parent and children, their parents and children (grandparent,
/// siblings, grandchildren). These share the flesh around the bone's joints: a pelvis
/// shares its hips with the thighs and the first spine bone, the spine bones the chest
/// with the clavicles. A child that starts beside the middle of the bone (its head
/// projects inside the bone, [`BRANCH_T`] from either end: a game character's shoulder
/// bone branching off the middle of its torso bone) is no kin, nor are its children:
/// it carries its own flesh beside the bone, which the bone's thickness must not
/// count.
pub fn skeleton_kin(s: &crate::model::Skeleton, segments: &[Segment]) -> Vec<Vec<u32>> {
    let parent = |b: usize| s.bones.get(b).and_then(|x| x.parent);
    // Whether bone `c` starts beside the middle of bone `p` (a shoulder bone branching
    // off the middle of a torso bone), not at one of its ends.
    let branches_off = |c: usize, p: usize| {
        let (bp, bc) = (&s.bones[p], &s.bones[c]);
        let axis = bp.tail - bp.head;
        let l2 = axis.length_squared();
        l2 > 0.0 && {
            let t = (bc.head - bp.head).dot(axis) / l2;
            t > BRANCH_T && t < 1.0 - BRANCH_T
        }
    };
    let near = |a: usize, b: usize| {
        let (pa, pb) = (parent(a), parent(b));
        let child = pb == Some(a) && !branches_off(b, a);
        let grandchild = pb
            .filter(|&m| parent(m) == Some(a))
            .is_some_and(|m| !branches_off(m, a));
        pa == Some(b)
            || child
            || (pa.is_some() && pa == pb)
            || pa.and_then(parent) == Some(b)
            || grandchild
    };
    segments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            segments
                .iter()
                .enumerate()
                .filter(|&(j, b)| j != i && near(a.bone as usize, b.bone as usize))
                .map(|(j, _)| j as u32)
                .collect()
        })
        .collect()
}

/// Where along the ray `o + u d` (`u` in `(0, hit]`) a segment other than `own` and
/// its `kin` first comes nearer than `own`: the hit distance when none does.
fn carried_length(
    segments: &[Segment],
    own: usize,
    kin: &[u32],
    o: Vec3,
    d: Vec3,
    hit: f32,
) -> f32 {
    let me = &segments[own];
    let mut last_inside = 0.0f32;
    for k in 1..=CARRIED_STEPS {
        let u = hit * k as f32 / CARRIED_STEPS as f32;
        let q = o + d * u;
        let mine = (me.closest(q) - q).length_squared();
        let other = segments.iter().enumerate().any(|(j, s)| {
            j != own && !kin.contains(&(j as u32)) && (s.closest(q) - q).length_squared() < mine
        });
        if other {
            return 0.5 * (last_inside + u);
        }
        last_inside = u;
    }
    hit
}

fn thickness(
    bvh: &Bvh,
    pieces: &[Bvh],
    segments: &[Segment],
    kin: Option<&[Vec<u32>]>,
    far: f32,
) -> Vec<[f32; 5]> {
    let mut prof: Vec<[Option<f32>; 3]> = segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let axis = s.tail - s.head;
            let len = axis.length();
            let a = if len > 0.0 { axis / len } else { Vec3::Y };
            let u = a.any_orthonormal_vector();
            let v = a.cross(u);
            THICKNESS_AT.map(|t| {
                let o = s.head + axis * t;
                let holders: Vec<usize> = (0..pieces.len())
                    .filter(|&k| pieces[k].contains(o))
                    .collect();
                let mut d: Vec<f32> = (0..THICKNESS_RAYS)
                    .filter_map(|k| {
                        let ang = k as f32 * std::f32::consts::TAU / THICKNESS_RAYS as f32;
                        let unit = u * ang.cos() + v * ang.sin();
                        let hit = flesh_length(bvh, pieces, &holders, o, unit, far)?;
                        Some(match kin {
                            Some(k) => carried_length(segments, i, &k[i], o, unit, hit),
                            None => hit,
                        })
                    })
                    .collect();
                if d.len() * 2 < THICKNESS_RAYS {
                    return None;
                }
                d.sort_by(f32::total_cmp);
                let i = ((d.len() as f32 * THICKNESS_QUANTILE) as usize).min(d.len() - 1);
                Some(d[i])
            })
        })
        .collect();
    let mut all: Vec<f32> = prof.iter().flatten().flatten().copied().collect();
    all.sort_by(f32::total_cmp);
    let fallback = all.get(all.len() / 2).copied().unwrap_or(far);
    let mid: Vec<[f32; 3]> = prof
        .iter_mut()
        .map(|p| {
            let mut own: Vec<f32> = p.iter().flatten().copied().collect();
            own.sort_by(f32::total_cmp);
            let m = own.get(own.len() / 2).copied().unwrap_or(fallback);
            p.map(|x| x.unwrap_or(m).max(far * 1e-6))
        })
        .collect();
    // Ends: the head keeps the first sample; the tail tapers to the thickness of the
    // bone that continues from it (a child whose head is the tail), so a thick bone
    // does not swallow the thin limb it hands over to (the clavicle the shoulder, the
    // thigh the knee).
    let mut out: Vec<[f32; 5]> = mid.iter().map(|m| [m[0], m[0], m[1], m[2], m[2]]).collect();
    for (c, sc) in segments.iter().enumerate() {
        for (p, sp) in segments.iter().enumerate() {
            let tol = JOINT_TOL
                * (sc.tail - sc.head)
                    .length()
                    .min((sp.tail - sp.head).length());
            if p != c && (sp.tail - sc.head).length() <= tol {
                out[p][4] = out[p][4].min(mid[c][0]);
            }
        }
    }
    out
}

/// Which ends of each segment are joints, `[head, tail]`: another segment's head or
/// tail lies within [`JOINT_TOL`] of the shorter length. The others are free ends (the
/// clavicle's inner end, the pelvis's head, a fingertip).
pub fn joined_ends(segments: &[Segment]) -> Vec<[bool; 2]> {
    segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let ls = (s.tail - s.head).length();
            let at = |e: Vec3| {
                segments.iter().enumerate().any(|(j, o)| {
                    let tol = JOINT_TOL * ls.min((o.tail - o.head).length());
                    j != i && ((o.tail - e).length() <= tol || (o.head - e).length() <= tol)
                })
            };
            [at(s.head), at(s.tail)]
        })
        .collect()
}

/// Whether the closest point of `s` to a vertex ([`Reach::closest`]) is a free end of
/// the bone (`joined` from [`joined_ends`]): the vertex lies past the end of a bone
/// that carries nothing beyond it.
pub fn past_free_end(s: &Segment, joined: [bool; 2], r: &Reach) -> bool {
    ((r.closest - s.head).length_squared() < 1e-12 && !joined[0])
        || ((r.closest - s.tail).length_squared() < 1e-12 && !joined[1])
}

/// The thickness profile `prof` (t = 0, 0.25, 0.5, 0.75, 1) at bone parameter `t`,
/// linear in between.
pub(crate) fn thickness_at(prof: &[f32; 5], t: f32) -> f32 {
    let x = t.clamp(0.0, 1.0) * 4.0;
    let i = (x.floor() as usize).min(3);
    let f = x - i as f32;
    prof[i] * (1.0 - f) + prof[i + 1] * f
}

/// How a vertex sees one bone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reach {
    /// The reach (see the module docs): smaller is nearer.
    pub reach: f32,
    /// The true distance `|p - c|`.
    pub dist: f32,
    /// The closest point `c` of the bone.
    pub closest: Vec3,
}

/// The reach of bone `s` (thickness profile `prof`, already raised to
/// [`THICKNESS_POWER`]) from `p`.
pub fn reach(s: &Segment, prof_pow: &[f32; 5], p: Vec3) -> Reach {
    let axis = s.tail - s.head;
    let l2 = axis.length_squared();
    let traw = if l2 > 0.0 {
        (p - s.head).dot(axis) / l2
    } else {
        0.0
    };
    let t = traw.clamp(0.0, 1.0);
    let c = s.head + axis * t;
    let over = (traw - t).abs() * l2.sqrt();
    let d2 = (c - p).length_squared();
    let eff = (d2 + (OVERSHOOT * OVERSHOOT - 1.0) * over * over).sqrt();
    Reach {
        reach: eff / thickness_at(prof_pow, t),
        dist: d2.sqrt(),
        closest: c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closed cylinder along Y: `radius`, from y = -1 to 1, 32 sides.
    fn cylinder(radius: f32) -> Bvh {
        let n = 32u32;
        let mut p = Vec::new();
        let mut t = Vec::new();
        for y in [-1.0f32, 1.0] {
            for k in 0..n {
                let a = k as f32 * std::f32::consts::TAU / n as f32;
                p.push(Vec3::new(radius * a.cos(), y, radius * a.sin()));
            }
        }
        p.push(Vec3::new(0.0, -1.0, 0.0));
        p.push(Vec3::new(0.0, 1.0, 0.0));
        for k in 0..n {
            let k1 = (k + 1) % n;
            t.push([k, k1, n + k]);
            t.push([k1, n + k1, n + k]);
            t.push([2 * n, k1, k]);
            t.push([2 * n + 1, n + k, n + k1]);
        }
        Bvh::build(&p, &t)
    }

    #[test]
    fn thickness_of_a_cylinder_is_its_radius() {
        let bvh = cylinder(0.2);
        let seg = |bone, a: f32, b: f32| Segment {
            bone,
            head: Vec3::new(0.0, a, 0.0),
            tail: Vec3::new(0.0, b, 0.0),
        };
        // Two bones in a chain inside, one outside the body.
        let outside = Segment {
            bone: 2,
            head: Vec3::new(3.0, 0.0, 0.0),
            tail: Vec3::new(4.0, 0.0, 0.0),
        };
        let t = bone_thickness(&bvh, &[seg(0, -0.5, 0.0), seg(1, 0.0, 0.5), outside], 10.0);
        for prof in &t {
            for r in prof {
                assert!((0.19..=0.2001).contains(r), "{t:?}");
            }
        }
        // A thinner body shrinks it.
        let thin = bone_thickness(&cylinder(0.05), &[seg(0, -0.5, 0.5)], 10.0);
        assert!((0.047..=0.0501).contains(&thin[0][2]), "{thin:?}");
    }

    #[test]
    fn free_ends_are_the_ones_no_other_bone_touches() {
        let seg = |bone, head: Vec3, tail: Vec3| Segment { bone, head, tail };
        // An arm: upper arm -> forearm, and a clavicle whose tail meets the upper arm's
        // head; the clavicle's head and the forearm's tail are free.
        let bones = [
            seg(0, Vec3::new(0.05, 1.4, 0.0), Vec3::new(0.2, 1.42, 0.0)),
            seg(1, Vec3::new(0.2, 1.42, 0.0), Vec3::new(0.45, 1.4, 0.0)),
            seg(2, Vec3::new(0.45, 1.4, 0.0), Vec3::new(0.7, 1.38, 0.0)),
        ];
        let j = joined_ends(&bones);
        assert_eq!(j, vec![[false, true], [true, true], [true, false]]);
        // A vertex past the forearm's free tail is past a free end; one beside the
        // joint between the upper arm and the forearm is not.
        let prof = [1.0; 5];
        let past = reach(&bones[2], &prof, Vec3::new(0.8, 1.38, 0.0));
        assert!(past_free_end(&bones[2], j[2], &past));
        let beside = reach(&bones[1], &prof, Vec3::new(0.1, 1.42, 0.0));
        assert!(!past_free_end(&bones[1], j[1], &beside));
        let inner = reach(&bones[0], &prof, Vec3::new(0.0, 1.4, 0.0));
        assert!(past_free_end(&bones[0], j[0], &inner));
        let middle = reach(&bones[1], &prof, Vec3::new(0.3, 1.5, 0.0));
        assert!(!past_free_end(&bones[1], j[1], &middle));
    }

    #[test]
    fn a_thick_bone_reaches_farther() {
        let thin = Segment {
            bone: 0,
            head: Vec3::ZERO,
            tail: Vec3::Y,
        };
        let p = Vec3::new(0.5, 0.5, 0.0);
        let a = reach(&thin, &[1.0; 5], p);
        let b = reach(&thin, &[2.0; 5], p);
        assert!((a.dist - 0.5).abs() < 1e-6 && (b.dist - 0.5).abs() < 1e-6);
        assert!((a.reach / b.reach - 2.0).abs() < 1e-5);
        // Past the tail the overshoot counts k times.
        let q = reach(&thin, &[1.0; 5], Vec3::new(0.0, 2.0, 0.0));
        assert!((q.reach - OVERSHOOT).abs() < 1e-5);
        assert!((thickness_at(&[1.0, 1.0, 2.0, 4.0, 4.0], 0.625) - 3.0).abs() < 1e-6);
        assert_eq!(thickness_at(&[1.0, 1.0, 2.0, 4.0, 4.0], 0.0), 1.0);
        assert_eq!(thickness_at(&[1.0, 1.0, 2.0, 4.0, 0.5], 1.0), 0.5);
    }
}
