//! The gap between the legs: where a skirt joint stands against it, whether it is in
//! it, and the web that keeps a skirt out of it.
//!
//! A skirt is a tube around BOTH legs: its front and back panels span the gap between
//! them, and no panel can pass into that gap without tearing the tube. The spring
//! chains of a skirt are separate pendulums, tied sideways only by soft links, so
//! nothing in the VRM spring model stops a front panel from swinging back between the
//! legs when they straighten under it (a jump's take-off). The [`LegWeb`] restores the
//! tube's topology in rigsmith's solver: across the gap between the two legs' surfaces
//! (below the hip joints, legs within [`LEG_UPRIGHT_COS`] of the hips' vertical) it is a
//! slab [`WEB_THICKNESS`] of the mean leg radius thick on each side of the line joining
//! the legs' axes, and a skirt joint is kept on the side it last came from, as the
//! fabric stretched from leg to leg would hold it. A VRM runtime has no shape spanning
//! two bones, so the exported file runs without it (measured by
//! [`super::SpringModel::Vrm`]).

use glam::{Mat4, Vec3};

use super::colliders::WorldShape;
use crate::geom::segment::closest_on_segment;

/// Cosine of the largest angle from the hips' vertical at which a leg segment still
/// bounds the gap between the legs (30 degrees): a thigh raised further carries the
/// skirt as a lap.
pub const LEG_UPRIGHT_COS: f32 = 0.866_025_4;

/// The web's half-thickness, in units of the two legs' mean radius there: the fabric
/// spans the legs' front (or back) surfaces.
pub const WEB_THICKNESS: f32 = 1.0;

/// Cosine of the largest angle between the line joining the legs and the hips'
/// left-right axis at which the web still spans the gap (45 degrees).
pub const WEB_MAX_TURN_COS: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Where a point stands against the gap between the legs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LegGap {
    /// Position along the line joining the nearest points of the left and right leg
    /// axes (0 at the left, 1 at the right).
    pub t: f32,
    /// The point's offset from that line (perpendicular to it), metres.
    pub offset: Vec3,
    /// The line's length, metres.
    pub len: f32,
    /// The left and right legs' radii there, metres.
    pub ra: f32,
    /// See `ra`.
    pub rb: f32,
    /// The point of the line nearest the point.
    pub foot: Vec3,
    /// The hips' forward direction, perpendicular to the line (unit; zero when
    /// undefined).
    pub forward: Vec3,
    /// Cosine of the angle between the line and the hips' left-right axis: 1 with the
    /// legs side by side, 0 with one straight in front of the other.
    pub across: f32,
}

impl LegGap {
    /// Distance from the line, metres.
    pub fn d(&self) -> f32 {
        self.offset.length()
    }

    /// Whether the point's projection falls in the gap between the two legs' SURFACES
    /// (beyond each leg's radius from its axis; a point against the inner side of one
    /// leg is at that leg).
    pub fn in_gap(&self) -> bool {
        self.t * self.len >= self.ra && (1.0 - self.t) * self.len >= self.rb
    }

    /// Whether the web spans the gap here: the point is in the gap and the legs stand
    /// side by side within [`WEB_MAX_TURN_COS`] (in a long stride the gap opens front to
    /// back and a skirt's front and back are no longer across it).
    pub fn spans(&self) -> bool {
        self.in_gap() && self.forward != Vec3::ZERO && self.across >= WEB_MAX_TURN_COS
    }

    /// Which side of the line the point is on: +1 in front, -1 behind.
    pub fn side(&self) -> f32 {
        if self.offset.dot(self.forward) >= 0.0 {
            1.0
        } else {
            -1.0
        }
    }

    /// Whether a skirt joint here is between the legs: in the gap between the legs'
    /// surfaces and within half a leg radius (a quarter of the two radii summed) of the
    /// line joining their axes.
    pub fn between(&self) -> bool {
        self.in_gap() && self.d() < 0.25 * (self.ra + self.rb)
    }
}

/// The legs a gap is measured between: indices of the leg capsules among the world
/// shapes, the hips bone and the hip joints' rest height.
#[derive(Debug, Clone, PartialEq)]
pub struct LegWeb {
    /// Indices of the leg colliders (group `legs`, riding leg bones).
    pub legs: Vec<usize>,
    /// The hips bone.
    pub hips: usize,
    /// Rest height of the hip joints, metres.
    pub hip_y0: f32,
}

impl LegWeb {
    /// The web for the shapes and skinning matrices of one frame (see [`WebFrame`]).
    pub(crate) fn frame(&self, shapes: &[WorldShape], skin: &[Mat4]) -> WebFrame {
        let hips = skin[self.hips];
        let to_rest = hips.inverse();
        let up = hips.transform_vector3(Vec3::Y).normalize_or_zero();
        // Upright leg capsules per side (side: the capsule's rest x).
        let mut sides: [Vec<(Vec3, Vec3, f32)>; 2] = [Vec::new(), Vec::new()];
        for &i in &self.legs {
            if let Some(WorldShape::Capsule(a, b, r)) = shapes.get(i).copied() {
                if (b - a).normalize_or_zero().dot(up).abs() <= LEG_UPRIGHT_COS {
                    continue;
                }
                let side = usize::from(to_rest.transform_point3(0.5 * (a + b)).x < 0.0);
                sides[side].push((a, b, r));
            }
        }
        WebFrame {
            to_rest,
            hip_y0: self.hip_y0,
            forward: hips.transform_vector3(Vec3::Z),
            lateral: hips.transform_vector3(Vec3::X).normalize_or_zero(),
            sides,
        }
    }
}

/// The gap between the legs in one frame: the hips' frame and the upright leg capsules
/// of each side, world, metres.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WebFrame {
    to_rest: Mat4,
    hip_y0: f32,
    forward: Vec3,
    lateral: Vec3,
    sides: [Vec<(Vec3, Vec3, f32)>; 2],
}

impl WebFrame {
    /// Where `p` stands against the gap between the legs. `None` above the hip joints
    /// (compared in the hips' rest frame, so a jump or spin does not change it) or when
    /// no pair of upright legs bounds a gap.
    pub(crate) fn gap(&self, p: Vec3) -> Option<LegGap> {
        if self.to_rest.transform_point3(p).y > self.hip_y0 {
            return None;
        }
        // The nearest axis point of each side.
        let nearest = |caps: &[(Vec3, Vec3, f32)]| {
            caps.iter()
                .map(|&(a, b, r)| {
                    let q = closest_on_segment(p, a, b);
                    (q, r, (q - p).length())
                })
                .min_by(|x, y| x.2.total_cmp(&y.2))
        };
        let ((a, ra, _), (b, rb, _)) = (nearest(&self.sides[0])?, nearest(&self.sides[1])?);
        let ab = b - a;
        let l2 = ab.length_squared();
        if l2 <= 0.0 {
            return None;
        }
        let t = (p - a).dot(ab) / l2;
        let foot = a + ab * t;
        let dir = ab / l2.sqrt();
        let fwd = self.forward;
        Some(LegGap {
            across: dir.dot(self.lateral).abs(),
            t,
            offset: p - foot,
            len: l2.sqrt(),
            ra,
            rb,
            foot,
            forward: (fwd - dir * fwd.dot(dir)).normalize_or_zero(),
        })
    }
}

/// Pushes `p` out of the web across the gap between the legs onto side `side` (+1
/// front, -1 behind), keeping it `reach` metres beyond the web's face at most (a
/// joint resting closer keeps its rest distance). Returns the new point, or `None`
/// when `p` is clear.
pub(crate) fn push_out_of_web(g: &LegGap, side: f32, reach: f32) -> Option<Vec3> {
    if !g.spans() {
        return None;
    }
    let half = WEB_THICKNESS * 0.5 * (g.ra + g.rb);
    let want = (half + reach).max(0.0);
    let along = g.offset.dot(g.forward) * side;
    if along >= want {
        return None;
    }
    // Keep the sideways part of the offset (along the legs), move across the web.
    let keep = g.offset - g.forward * g.offset.dot(g.forward);
    Some(g.foot + keep + g.forward * (side * want))
}
