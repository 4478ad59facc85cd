//! The mannequin's proportions: where each primitive and joint sits, in generator units
//! (the head top is near 1.0; the figure is rescaled to the requested height at the end).
//!
//! glTF axes: +Y up, the figure faces +Z, its left is +X. Proportions follow a
//! classic 7.5-heads adult: crotch at about 0.5, shoulders at 0.81, knees at 0.29.

use glam::{Mat3, Vec3};

use super::sdf::Shape;
use super::{ArmPose, MannequinOptions};

/// What a primitive is, for region lookups (the shirt is cut by region).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    Head,
    Neck,
    Chest,
    Abdomen,
    Pelvis,
    Deltoid,
    UpperArm,
    Forearm,
    Hand,
    Thigh,
    Shin,
    Foot,
}

/// Primitives, joints and head geometry for one set of options.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub shapes: Vec<(Shape, Region)>,
    pub joints: Vec<(&'static str, Vec3)>,
    pub head_center: Vec3,
    pub head_radii: Vec3,
    /// Eye centres (left, right) and radius.
    pub eyes: [Vec3; 2],
    pub eye_radius: f32,
}

fn ell(c: Vec3, r: Vec3) -> Shape {
    Shape::Ellipsoid {
        c,
        r,
        frame: Mat3::IDENTITY,
    }
}

fn cap(a: Vec3, b: Vec3, r1: f32, r2: f32) -> Shape {
    Shape::Capsule { a, b, r1, r2 }
}

/// Builds the layout. `o.head_scale` and `o.arm_angle_deg` must already be sane.
pub(crate) fn layout(o: &MannequinOptions) -> Layout {
    let hs = o.head_scale;
    let head_r = Vec3::new(0.058, 0.075, 0.068) * hs;
    let neck_top = Vec3::new(0.0, 0.885 + 0.05 * (hs - 1.0), 0.004);
    let hc = Vec3::new(0.0, neck_top.y + 0.04 * hs, 0.012);
    let neck_base = Vec3::new(0.0, 0.815, -0.006);
    let mut shapes = vec![
        (ell(hc, head_r), Region::Head),
        (cap(neck_base, neck_top, 0.031, 0.029), Region::Neck),
        (
            ell(Vec3::new(0.0, 0.735, 0.0), Vec3::new(0.11, 0.10, 0.07)),
            Region::Chest,
        ),
        (
            ell(Vec3::new(0.0, 0.632, 0.004), Vec3::new(0.092, 0.085, 0.064)),
            Region::Abdomen,
        ),
        (
            ell(Vec3::new(0.0, 0.548, -0.004), Vec3::new(0.104, 0.072, 0.07)),
            Region::Pelvis,
        ),
    ];
    let mut joints: Vec<(&'static str, Vec3)> = vec![
        ("pelvis", Vec3::new(0.0, 0.545, -0.004)),
        ("spine_01", Vec3::new(0.0, 0.60, 0.0)),
        ("spine_02", Vec3::new(0.0, 0.665, 0.0)),
        ("spine_03", Vec3::new(0.0, 0.735, -0.004)),
        ("neck_01", neck_base),
        ("head", neck_top),
        ("head_end", hc + Vec3::Y * head_r.y),
    ];
    let angle = match o.pose {
        ArmPose::T => 0.0,
        ArmPose::A => o.arm_angle_deg.to_radians(),
    };
    let eye_r = 0.012 * hs;
    let mut eyes = [Vec3::ZERO; 2];
    for (k, s) in [1.0f32, -1.0].into_iter().enumerate() {
        let left = k == 0;
        let name = |l: &'static str, r: &'static str| if left { l } else { r };
        let shoulder = Vec3::new(0.12 * s, 0.812, -0.006);
        let dir = Vec3::new(angle.cos() * s, -angle.sin(), 0.0);
        let elbow = shoulder + dir * 0.165;
        let wrist = elbow + dir * 0.14;
        // The hand: flat, palm down in T pose; its thin axis is the arm's "up" in the
        // frontal plane.
        let up = Vec3::new(-dir.y, dir.x, 0.0) * s;
        let frame = Mat3::from_cols(dir, up, dir.cross(up));
        shapes.push((
            ell(
                Vec3::new(0.112 * s, 0.808, -0.006),
                Vec3::new(0.05, 0.045, 0.045),
            ),
            Region::Deltoid,
        ));
        shapes.push((cap(shoulder, elbow, 0.034, 0.027), Region::UpperArm));
        shapes.push((cap(elbow, wrist, 0.027, 0.02), Region::Forearm));
        shapes.push((
            Shape::Ellipsoid {
                c: wrist + dir * 0.053,
                r: Vec3::new(0.053, 0.014, 0.032),
                frame,
            },
            Region::Hand,
        ));
        let hip = Vec3::new(0.064 * s, 0.518, -0.004);
        let knee = Vec3::new(0.068 * s, 0.29, 0.004);
        let ankle = Vec3::new(0.07 * s, 0.055, -0.014);
        shapes.push((cap(hip, knee, 0.062, 0.043), Region::Thigh));
        shapes.push((cap(knee, ankle, 0.043, 0.027), Region::Shin));
        shapes.push((
            ell(
                Vec3::new(0.07 * s, 0.026, 0.035),
                Vec3::new(0.036, 0.026, 0.085),
            ),
            Region::Foot,
        ));
        // Eyes: half sunk into the front of the head.
        let ex = 0.024 * hs * s;
        let ey = 0.012 * hs;
        let zs = head_r.z
            * (1.0 - (ex / head_r.x).powi(2) - (ey / head_r.y).powi(2))
                .max(0.0)
                .sqrt();
        eyes[k] = Vec3::new(ex, hc.y + ey, hc.z + zs - 0.5 * eye_r);
        joints.extend([
            (
                name("clavicle_l", "clavicle_r"),
                Vec3::new(0.02 * s, 0.80, 0.0),
            ),
            (name("upperarm_l", "upperarm_r"), shoulder),
            (name("lowerarm_l", "lowerarm_r"), elbow),
            (name("hand_l", "hand_r"), wrist),
            (name("hand_end_l", "hand_end_r"), wrist + dir * 0.106),
            (name("thigh_l", "thigh_r"), hip),
            (name("calf_l", "calf_r"), knee),
            (name("foot_l", "foot_r"), ankle),
            (name("ball_l", "ball_r"), Vec3::new(0.07 * s, 0.02, 0.085)),
            (
                name("toe_end_l", "toe_end_r"),
                Vec3::new(0.07 * s, 0.015, 0.118),
            ),
            (name("eye_l", "eye_r"), eyes[k]),
        ]);
    }
    Layout {
        shapes,
        joints,
        head_center: hc,
        head_radii: head_r,
        eyes,
        eye_radius: eye_r,
    }
}
