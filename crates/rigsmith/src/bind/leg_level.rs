//! A garment hanging off a leg (a long skirt, a dress, wide trousers) shares its leg's
//! weight among the thigh, the shin and the foot as the skin at its level along the leg
//! does.
//!
//! The robust transfer (`bind::transfer`) inpaints what lies off the skin from what lies
//! on it. A flared skirt touches the leg at the hip and the knee and hangs free below
//! it: the inpainting has no fixed value under the knee and carries the knee's blend
//! down to the hem. On the corpus's ankle-long skirt the front of the hem held 0.72
//! shin and 0.25 thigh; MakeHuman's artists give their own ankle-long skirts 0.92-0.96
//! shin there (0.06-0.08 H below the knee and lower), and Blender's heat 0.88-0.92.
//!
//! [`level_along_legs`]: each vertex marked (inpainted, off the skin) below the hip
//! joints keeps its weight on each leg; within a leg that weight is shared as the skin
//! vertex nearest to it among that leg's skin at the same level shares it. The level is
//! the arc length of the closest point on the leg's axis (hip, knee, ankle joints).
//! Every bone off the legs keeps its weight.

use glam::Vec3;

use crate::geom::segment::closest_on_segment;
use crate::humanoid::Roles;
use crate::model::{Influence, Side, Skeleton, Weights};

/// How far apart in level (in units of the leg's length) a skin vertex may lie from a
/// garment vertex and still give it its share, beyond the nearest level the skin has
/// (a low-poly leg's rings are far apart). Measured on the re-weighting benchmark
/// (knee_120 p95 % H, `base.mhskirt` / `female.mhskirt` / `female.skirted`; Blender
/// 1.633 / 1.302 / 9.941): 0: 1.215 / 0.957 / 5.065, **0.03: 1.227 / 0.949 / 2.939**,
/// 0.06: 1.274 / 1.171 / 2.205, 0.1: 1.274 / 1.181 / 1.658. The artists' skirts are the
/// fairer reference; the copied one wants a wider band.
pub const LEVEL_BAND: f32 = 0.03;

/// Share of a skin vertex's weight a leg's bones must hold for it to give that leg its
/// profile (a buttock or crotch vertex held mostly by the pelvis does not).
const SKIN_LEG_SHARE: f32 = 0.5;

/// A leg's axis: hip, knee and ankle joints, and the arc length at each.
struct Axis {
    points: [Vec3; 3],
    at: [f32; 3],
}

impl Axis {
    fn of(s: &Skeleton, roles: &Roles, side: Side) -> Option<Axis> {
        let k = match side {
            Side::Left => 0,
            Side::Right => 1,
            _ => return None,
        };
        let thigh = roles.upper_leg[k]?;
        let shin = roles.lower_leg[k]?;
        let ankle = match roles.foot[k] {
            Some(f) => s.bones[f].head,
            None => s.bones[shin].tail,
        };
        let points = [s.bones[thigh].head, s.bones[shin].head, ankle];
        let a = (points[1] - points[0]).length();
        let b = (points[2] - points[1]).length();
        (a > 1e-6 && b > 1e-6).then_some(Axis {
            points,
            at: [0.0, a, a + b],
        })
    }

    fn length(&self) -> f32 {
        self.at[2]
    }

    /// The arc length of the closest point to `p` on the axis.
    fn level(&self, p: Vec3) -> f32 {
        let mut best = (f32::INFINITY, 0.0);
        for k in 0..2 {
            let a = self.points[k];
            let q = closest_on_segment(p, a, self.points[k + 1]);
            let d = (p - q).length_squared();
            if d < best.0 {
                best = (d, self.at[k] + (q - a).length());
            }
        }
        best.1
    }
}

/// One leg's skin, sorted by level: level, position, and the leg's bones' shares.
struct LegSkin {
    side: Side,
    axis: Axis,
    samples: Vec<(f32, Vec3, Vec<Influence>)>,
}

impl LegSkin {
    fn of(
        side: Side,
        axis: Axis,
        skin: &[Vec3],
        skin_w: &Weights,
        roles: &Roles,
    ) -> Option<LegSkin> {
        let mut samples = Vec::new();
        for (p, list) in skin.iter().zip(&skin_w.vertices) {
            let on_leg = |i: &&Influence| roles.leg_side(i.bone as usize) == Some(side);
            let total: f32 = list.iter().map(|i| i.weight).sum();
            let sum: f32 = list.iter().filter(on_leg).map(|i| i.weight).sum();
            if total <= 0.0 || sum < SKIN_LEG_SHARE * total {
                continue;
            }
            let level = axis.level(*p);
            // The foot's and the hip's skin lie past the axis's ends: the same level
            // as the ankle or the hip joint, not the same share.
            if level <= 0.0 || level >= axis.length() {
                continue;
            }
            let shares = list
                .iter()
                .filter(on_leg)
                .map(|i| Influence {
                    bone: i.bone,
                    weight: i.weight / sum,
                })
                .collect();
            samples.push((level, *p, shares));
        }
        samples.sort_by(|a, b| a.0.total_cmp(&b.0));
        (!samples.is_empty()).then_some(LegSkin {
            side,
            axis,
            samples,
        })
    }

    /// The leg's shares at `p`: those of the nearest skin vertex within the band of
    /// levels about `p`'s.
    fn shares_at(&self, p: Vec3) -> &[Influence] {
        let level = self.axis.level(p);
        let i = self.samples.partition_point(|s| s.0 < level);
        let gap = [i.checked_sub(1), Some(i)]
            .into_iter()
            .flatten()
            .filter_map(|j| self.samples.get(j))
            .map(|s| (s.0 - level).abs())
            .fold(f32::INFINITY, f32::min);
        let band = gap + LEVEL_BAND * self.axis.length();
        let lo = self.samples.partition_point(|s| s.0 < level - band);
        let hi = self.samples.partition_point(|s| s.0 <= level + band);
        let best = self.samples[lo..hi].iter().min_by(|a, b| {
            (a.1 - p)
                .length_squared()
                .total_cmp(&(b.1 - p).length_squared())
        });
        best.map_or(&[], |s| s.2.as_slice())
    }
}

/// Shares each marked vertex's weight on a leg among that leg's bones as the skin at
/// its level along the leg does (module docs). Only vertices below the hip joints that
/// `only` marks are touched; each leg's total and every other bone stay. `skin` and
/// `skin_w` are the skin's positions and weights, in the frame of `positions` and `s`.
/// Returns the number of vertices changed.
pub(crate) fn level_along_legs(
    w: &mut Weights,
    positions: &[Vec3],
    only: &[bool],
    skin: &[Vec3],
    skin_w: &Weights,
    s: &Skeleton,
    roles: &Roles,
) -> usize {
    let legs: Vec<LegSkin> = [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|side| {
            let axis = Axis::of(s, roles, side)?;
            LegSkin::of(side, axis, skin, skin_w, roles)
        })
        .collect();
    let Some(top) = legs
        .iter()
        .map(|l| l.axis.points[0].y)
        .min_by(f32::total_cmp)
    else {
        return 0;
    };
    let mut changed = 0;
    for (v, list) in w.vertices.iter_mut().enumerate() {
        let (Some(&p), Some(true)) = (positions.get(v), only.get(v).copied()) else {
            continue;
        };
        if p.y >= top {
            continue;
        }
        let mut touched = false;
        for leg in &legs {
            let sum: f32 = list
                .iter()
                .filter(|i| roles.leg_side(i.bone as usize) == Some(leg.side))
                .map(|i| i.weight)
                .sum();
            if sum <= 1e-6 {
                continue;
            }
            let shares = leg.shares_at(p);
            if shares.is_empty() {
                continue;
            }
            list.retain(|i| roles.leg_side(i.bone as usize) != Some(leg.side));
            list.extend(shares.iter().map(|i| Influence {
                bone: i.bone,
                weight: i.weight * sum,
            }));
            touched = true;
        }
        if touched {
            list.sort_by_key(|i| i.bone);
            changed += 1;
        }
    }
    if changed > 0 {
        w.normalize();
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Bone;

    fn inf(b: u32, w: f32) -> Influence {
        Influence { bone: b, weight: w }
    }

    use crate::model::weight_of as weight;

    /// Pelvis at 1.0; thighs 1.0 -> 0.5, shins 0.5 -> 0.1, feet forward from 0.1.
    fn legs() -> Skeleton {
        let y = Vec3::Y;
        Skeleton {
            bones: vec![
                Bone::new("pelvis", None, Vec3::new(0.0, 1.0, 0.0), y),
                Bone::new("thigh_l", Some(0), Vec3::new(0.1, 1.0, 0.0), -y),
                Bone::new("calf_l", Some(1), Vec3::new(0.1, 0.5, 0.0), -y),
                Bone::new("foot_l", Some(2), Vec3::new(0.1, 0.1, 0.0), Vec3::Z),
                Bone::new("thigh_r", Some(0), Vec3::new(-0.1, 1.0, 0.0), -y),
                Bone::new("calf_r", Some(4), Vec3::new(-0.1, 0.5, 0.0), -y),
                Bone::new("foot_r", Some(5), Vec3::new(-0.1, 0.1, 0.0), Vec3::Z),
            ],
        }
    }

    /// Rings of skin about both legs every 0.05 from 0.95 down to 0.15: thigh above
    /// 0.55, shin below 0.45, half and half between; the front of the ring at the knee
    /// blended lower than its back (0.3 shin in front at 0.5, 0.7 behind).
    fn skin() -> (Vec<Vec3>, Weights) {
        let mut p = Vec::new();
        let mut w = Weights::default();
        for (x, thigh, shin) in [(0.1, 1, 2), (-0.1, 4, 5)] {
            for k in 0..=16 {
                let y = 0.95 - 0.05 * k as f32;
                for a in 0..8 {
                    let t = a as f32 / 8.0 * std::f32::consts::TAU;
                    let q = Vec3::new(x + 0.06 * t.cos(), y, 0.06 * t.sin());
                    let s = if y > 0.55 {
                        0.0
                    } else if y < 0.45 {
                        1.0
                    } else if (y - 0.5).abs() < 1e-3 {
                        0.5 - 0.2 * t.sin()
                    } else {
                        0.5
                    };
                    p.push(q);
                    w.vertices.push(
                        [inf(thigh, 1.0 - s), inf(shin, s)]
                            .into_iter()
                            .filter(|i| i.weight > 0.0)
                            .collect(),
                    );
                }
            }
        }
        // A buttock held by the pelvis: no share of the leg's.
        p.push(Vec3::new(0.1, 0.9, -0.07));
        w.vertices.push(vec![inf(0, 0.8), inf(1, 0.2)]);
        (p, w)
    }

    #[test]
    fn a_hem_off_the_leg_shares_its_legs_weight_as_the_skin_at_its_level() {
        let s = legs();
        let roles = Roles::of(&s, None);
        let (sp, sw) = skin();
        let mut w = Weights {
            vertices: vec![
                // A flared hem in front of the left shin, with the knee's blend carried
                // down by the inpainting: it takes the shin's share; the pelvis keeps
                // its 0.2.
                vec![inf(0, 0.2), inf(1, 0.3), inf(2, 0.5)],
                // Off the front of the left knee: the skin's front at the knee, 0.3 shin.
                vec![inf(1, 0.9), inf(2, 0.1)],
                // Behind it: 0.7 shin.
                vec![inf(1, 0.9), inf(2, 0.1)],
                // Between the legs at the shins, half on each leg: each side on its shin.
                vec![inf(1, 0.25), inf(2, 0.25), inf(4, 0.25), inf(5, 0.25)],
                // Not marked: kept.
                vec![inf(1, 0.5), inf(2, 0.5)],
                // Above the hips: kept.
                vec![inf(1, 0.5), inf(2, 0.5)],
                // On no leg: kept.
                vec![inf(0, 1.0)],
            ],
        };
        let before = w.clone();
        let p = [
            Vec3::new(0.12, 0.2, 0.2),
            Vec3::new(0.1, 0.5, 0.15),
            Vec3::new(0.1, 0.5, -0.15),
            Vec3::new(0.0, 0.3, -0.1),
            Vec3::new(0.12, 0.2, 0.2),
            Vec3::new(0.1, 1.1, 0.1),
            Vec3::new(0.1, 0.3, 0.2),
        ];
        let only = [true, true, true, true, false, true, true];
        assert_eq!(level_along_legs(&mut w, &p, &only, &sp, &sw, &s, &roles), 4);
        let v = &w.vertices;
        assert!((weight(&v[0], 2) - 0.8).abs() < 1e-5, "{:?}", v[0]);
        assert!((weight(&v[0], 0) - 0.2).abs() < 1e-5);
        assert_eq!(weight(&v[0], 1), 0.0);
        assert!((weight(&v[1], 2) - 0.3).abs() < 1e-5, "{:?}", v[1]);
        assert!((weight(&v[2], 2) - 0.7).abs() < 1e-5, "{:?}", v[2]);
        for (b, want) in [(2, 0.5), (5, 0.5), (1, 0.0), (4, 0.0)] {
            assert!((weight(&v[3], b) - want).abs() < 1e-5, "{:?}", v[3]);
        }
        for k in [4, 5, 6] {
            assert_eq!(v[k], before.vertices[k], "vertex {k}");
        }
        // Without a shin the leg has no axis and nothing moves.
        let mut no_shin = s.clone();
        no_shin.bones.truncate(2);
        let r = Roles::of(&no_shin, None);
        let mut kept = before.clone();
        assert_eq!(
            level_along_legs(&mut kept, &p, &only, &sp, &sw, &no_shin, &r),
            0
        );
        assert_eq!(kept, before);
    }
}
