//! Unit tests of the evaluator on small hand-built rigs.

use glam::{Mat4, Quat, Vec3};

use super::eval::Evaluator;
use super::math::matrix_error;
use super::model::*;

fn bone(name: &str, parent: Option<&str>, head: Vec3, tail: Vec3) -> ControlBone {
    ControlBone {
        name: name.into(),
        role: BoneRole::Mch,
        parent: parent.map(str::to_string),
        head,
        tail,
        x_axis: Vec3::X,
        deform: false,
        constraints: Vec::new(),
        ik_lock: [false; 3],
        widget: Widget::None,
    }
}

/// A pose of the rig with bone `name` given transform `t`, every other at rest.
fn posed(name: &str, t: Transform) -> ControlPose {
    let mut p = ControlPose::default();
    p.bones.insert(name.into(), t);
    p
}

/// A pose of the rig with bone `name` moved to `location`, every other at rest.
fn moved(name: &str, location: Vec3) -> ControlPose {
    posed(
        name,
        Transform {
            location,
            ..Default::default()
        },
    )
}

/// Two unparented bones: `a` from the origin up one unit, `b` from `head` to `tail`.
fn two(a: &str, b: &str, head: Vec3, tail: Vec3) -> ControlRig {
    rig(vec![
        bone(a, None, Vec3::ZERO, Vec3::Y),
        bone(b, None, head, tail),
    ])
}

fn rig(bones: Vec<ControlBone>) -> ControlRig {
    ControlRig {
        height: 1.0,
        settings: bones[0].name.clone(),
        bones,
        properties: Vec::new(),
        missing: Vec::new(),
    }
}

fn eval(r: &ControlRig, pose: &ControlPose) -> Vec<Mat4> {
    let ev = Evaluator::new(r).unwrap();
    let mut out = Vec::new();
    ev.evaluate(&ev.channels(pose).unwrap(), &mut out);
    out
}

fn rot(pose: &mut ControlPose, name: &str, q: Quat) {
    pose.bones.insert(
        name.into(),
        Transform {
            rotation: q,
            ..Default::default()
        },
    );
}

/// A leg: thigh down from (0,1,0) to a knee bent slightly forward (+Z), shin to (0,0,0).
fn leg() -> ControlRig {
    let knee = Vec3::new(0.0, 0.5, 0.05);
    let mut r = rig(vec![
        bone("root", None, Vec3::ZERO, Vec3::new(0.0, 0.0, -0.3)),
        bone("thigh", Some("root"), Vec3::Y, knee),
        bone("shin", Some("thigh"), knee, Vec3::ZERO),
        bone("goal", Some("root"), Vec3::ZERO, Vec3::new(0.0, 0.0, 0.2)),
        bone(
            "pole",
            Some("root"),
            Vec3::new(0.0, 0.5, 0.6),
            Vec3::new(0.0, 0.6, 0.6),
        ),
    ]);
    r.bones[2].ik_lock = [false, true, true];
    r.bones[2].constraints.push(Constraint::new(
        "IK",
        Kind::Ik {
            target: "goal".into(),
            pole: Some("pole".into()),
            pole_angle: 0.0,
            chain: 2,
        },
    ));
    r
}

fn set_pole_angle(r: &mut ControlRig, a: f32) {
    if let Kind::Ik { pole_angle, .. } = &mut r.bones[2].constraints[0].kind {
        *pole_angle = a;
    }
}

#[test]
fn rest_channels_give_rest_matrices() {
    let r = leg();
    let ev = Evaluator::new(&r).unwrap();
    let mut out = Vec::new();
    let mut no_ik = r.clone();
    no_ik.bones[2].constraints.clear();
    let ev2 = Evaluator::new(&no_ik).unwrap();
    ev2.evaluate(&ev2.rest_channels(), &mut out);
    for (m, rest) in out.iter().zip(ev.rest()) {
        assert!(matrix_error(m, rest, 1.0) < 1e-6);
    }
}

#[test]
fn a_child_follows_its_rotated_parent() {
    let mut r = leg();
    r.bones[2].constraints.clear();
    let mut p = ControlPose::default();
    rot(&mut p, "thigh", Quat::from_rotation_x(0.5));
    let out = eval(&r, &p);
    // The knee moved with the thigh; the shin's tail stays at the same distance.
    let knee = out[2].w_axis.truncate();
    let thigh_tail = out[1].transform_point3(Vec3::new(0.0, r.bones[1].length(), 0.0));
    assert!((knee - thigh_tail).length() < 1e-6);
    assert!((knee - Vec3::new(0.0, 0.5, 0.05)).length() > 0.1);
}

#[test]
fn ik_reaches_the_goal_with_the_knee_toward_the_pole() {
    let mut r = leg();
    set_pole_angle(&mut r, -std::f32::consts::FRAC_PI_2);
    // Local (a, b, c) of the goal (Y along world +Z) is world (a, -c, b).
    let p = moved("goal", Vec3::new(0.1, 0.2, -0.3));
    let out = eval(&r, &p);
    let goal = out[3].w_axis.truncate();
    let foot = out[2].transform_point3(Vec3::new(0.0, r.bones[2].length(), 0.0));
    assert!((foot - goal).length() < 1e-5, "foot {foot} goal {goal}");
    // Bone lengths kept.
    let knee = out[2].w_axis.truncate();
    assert!(((knee - Vec3::Y).length() - r.bones[1].length()).abs() < 1e-5);
    // The knee lies in the plane of hip, goal and pole.
    let n = (goal - Vec3::Y)
        .cross(out[4].w_axis.truncate() - Vec3::Y)
        .normalize();
    assert!((knee - Vec3::Y).dot(n).abs() < 1e-5);
}

#[test]
fn the_hinge_bends_only_about_x() {
    let mut r = leg();
    set_pole_angle(&mut r, -std::f32::consts::FRAC_PI_2);
    let p = moved("goal", Vec3::new(0.0, 0.4, 0.1));
    let out = eval(&r, &p);
    // The shin's rotation relative to the thigh is about the shin's own X.
    let rel = out[1].inverse() * out[2];
    let rest_rel =
        r.bones[1].as_bone().rest_matrix().inverse() * r.bones[2].as_bone().rest_matrix();
    let d = rest_rel.inverse() * rel;
    let q = Quat::from_mat4(&d);
    let (axis, angle) = q.to_axis_angle();
    assert!(angle > 0.1);
    assert!(axis.x.abs() > 0.9999, "{axis}");
}

#[test]
fn a_solved_pole_angle_keeps_the_rest_pose() {
    let mut r = leg();
    let rest: Vec<Mat4> = r.bones.iter().map(|b| b.as_bone().rest_matrix()).collect();
    let err = |r: &ControlRig| {
        let out = eval(r, &ControlPose::default());
        matrix_error(&out[1], &rest[1], 1.0).max(matrix_error(&out[2], &rest[2], 1.0))
    };
    let mut best = (f32::INFINITY, 0.0);
    for k in -180..180 {
        let a = (k as f32).to_radians();
        set_pole_angle(&mut r, a);
        let e = err(&r);
        if e < best.0 {
            best = (e, a);
        }
    }
    set_pole_angle(&mut r, best.1);
    assert!(err(&r) < 0.05);
    // Off by 10 degrees, the rest pose moves.
    set_pole_angle(&mut r, best.1 + 10f32.to_radians());
    assert!(err(&r) > 0.01);
}

#[test]
fn copy_transforms_blends_by_influence() {
    let mut r = two("a", "b", Vec3::ZERO, Vec3::Y);
    r.bones[1].constraints.push(
        Constraint::new(
            "copy",
            Kind::CopyTransforms {
                target: "a".into(),
                mix: TransMix::Replace,
            },
        )
        .influence(0.5),
    );
    let p = posed(
        "a",
        Transform {
            location: Vec3::new(1.0, 0.0, 0.0),
            rotation: Quat::from_rotation_z(1.0),
            scale: Vec3::ONE,
        },
    );
    let out = eval(&r, &p);
    let want =
        Mat4::from_rotation_translation(Quat::from_rotation_z(0.5), Vec3::new(0.5, 0.0, 0.0));
    assert!(matrix_error(&out[1], &want, 1.0) < 1e-5);
}

#[test]
fn a_property_driver_switches_a_constraint() {
    let mut r = rig(vec![
        bone("settings", None, Vec3::ZERO, Vec3::Y),
        bone("a", None, Vec3::ZERO, Vec3::Y),
        bone("b", None, Vec3::ZERO, Vec3::Y),
    ]);
    r.properties.push(Property {
        bone: "settings".into(),
        name: "on".into(),
        default: 0.0,
        min: 0.0,
        max: 1.0,
        switch: true,
        description: String::new(),
    });
    r.bones[2].constraints.push(
        Constraint::new(
            "copy",
            Kind::CopyLocation {
                target: "a".into(),
                head_tail: 0.0,
                axes: [true; 3],
            },
        )
        .driven(Driver {
            vars: vec![DriverVar::SingleProp {
                bone: "settings".into(),
                prop: "on".into(),
            }],
            expr: DriverExpr::Scale {
                factor: -1.0,
                offset: 1.0,
            },
        }),
    );
    let mut p = moved("a", Vec3::new(0.0, 0.0, 1.0));
    let out = eval(&r, &p);
    assert!(
        (out[2].w_axis.z - 1.0).abs() < 1e-6,
        "1 - 0 = full influence"
    );
    p.props.insert("on".into(), 1.0);
    let out = eval(&r, &p);
    assert!(out[2].w_axis.z.abs() < 1e-6, "1 - 1 = none");
}

#[test]
fn local_copy_rotation_copies_the_channel() {
    let mut r = two("a", "b", Vec3::X, Vec3::new(2.0, 0.0, 0.0));
    r.bones[1].constraints.push(
        Constraint::new(
            "copy",
            Kind::CopyRotation {
                target: "a".into(),
                axes: [true; 3],
                mix: RotMix::Replace,
            },
        )
        .spaces(Space::Local, Space::Local),
    );
    let mut p = ControlPose::default();
    rot(&mut p, "a", Quat::from_rotation_y(0.7));
    let out = eval(&r, &p);
    // b rotates 0.7 about its own Y (world X), at its head.
    let rest = r.bones[1].as_bone().rest_matrix();
    let want = rest * Mat4::from_rotation_y(0.7);
    assert!(matrix_error(&out[1], &want, 1.0) < 1e-5);
}

#[test]
fn limit_rotation_clamps_euler_angles() {
    let mut r = rig(vec![bone("a", None, Vec3::ZERO, Vec3::Y)]);
    r.bones[0].constraints.push(
        Constraint::new(
            "limit",
            Kind::LimitRotation {
                limits: [Some([-0.5, 0.0]), None, None],
            },
        )
        .spaces(Space::Local, Space::World),
    );
    let mut p = ControlPose::default();
    rot(&mut p, "a", Quat::from_rotation_x(-1.0));
    let out = eval(&r, &p);
    let want = Mat4::from_rotation_x(-0.5);
    assert!(matrix_error(&out[0], &want, 1.0) < 1e-5);
    rot(&mut p, "a", Quat::from_rotation_x(0.4));
    let out = eval(&r, &p);
    assert!(matrix_error(&out[0], &Mat4::IDENTITY, 1.0) < 1e-5);
}

#[test]
fn damped_track_aims_y_without_roll() {
    let mut r = rig(vec![
        bone(
            "t",
            None,
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
        ),
        bone("a", None, Vec3::ZERO, Vec3::Y),
    ]);
    r.bones[1].constraints.push(Constraint::new(
        "track",
        Kind::DampedTrack {
            target: "t".into(),
            head_tail: 0.0,
        },
    ));
    let out = eval(&r, &ControlPose::default());
    let y = out[1].y_axis.truncate();
    assert!((y - Vec3::new(1.0, 1.0, 0.0).normalize()).length() < 1e-6);
    // The shortest arc: Z (the rotation axis) is unchanged.
    assert!((out[1].z_axis.truncate() - Vec3::Z).length() < 1e-6);
}

#[test]
fn mutual_tracking_is_refused_with_the_cycle_named() {
    let mut r = two("a", "b", Vec3::X, Vec3::new(1.0, 1.0, 0.0));
    for (o, t) in [(0, "b"), (1, "a")] {
        r.bones[o].constraints.push(Constraint::new(
            "track",
            Kind::DampedTrack {
                target: t.into(),
                head_tail: 0.0,
            },
        ));
    }
    let e = Evaluator::new(&r).unwrap_err().to_string();
    assert!(
        e.contains("dependency cycle") && e.contains("a") && e.contains("b"),
        "{e}"
    );
}

#[test]
fn copying_its_own_child_is_a_cycle() {
    let mut r = rig(vec![
        bone("a", None, Vec3::ZERO, Vec3::Y),
        bone("child", Some("a"), Vec3::Y, Vec3::new(0.0, 2.0, 0.0)),
    ]);
    r.bones[0].constraints.push(Constraint::new(
        "copy",
        Kind::CopyRotation {
            target: "child".into(),
            axes: [true; 3],
            mix: RotMix::Replace,
        },
    ));
    let e = Evaluator::new(&r).unwrap_err().to_string();
    assert!(
        e.contains("a -> child -> a") || e.contains("child -> a -> child"),
        "{e}"
    );
}

#[test]
fn a_nan_property_value_is_refused() {
    let mut r = rig(vec![bone("s", None, Vec3::ZERO, Vec3::Y)]);
    r.properties.push(Property {
        bone: "s".into(),
        name: "leg_ik.L".into(),
        default: 1.0,
        min: 0.0,
        max: 1.0,
        switch: true,
        description: String::new(),
    });
    let ev = Evaluator::new(&r).unwrap();
    let mut p = ControlPose::default();
    p.props.insert("leg_ik.L".into(), f32::NAN);
    let e = ev.channels(&p).unwrap_err().to_string();
    assert!(e.contains("leg_ik.L") && e.contains("NaN"), "{e}");
}

#[test]
fn child_of_carries_the_owner() {
    let mut r = two("p", "c", Vec3::X, Vec3::new(1.0, 1.0, 0.0));
    let inv = r.bones[0].as_bone().rest_matrix().inverse();
    r.bones[1].constraints.push(Constraint::new(
        "parent",
        Kind::ChildOf {
            target: "p".into(),
            inverse: inv,
        },
    ));
    let mut p = ControlPose::default();
    rot(
        &mut p,
        "p",
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let out = eval(&r, &p);
    assert!((out[1].w_axis.truncate() - Vec3::Y).length() < 1e-5);
}

#[test]
fn transformation_maps_scale_to_rotation() {
    let mut r = two("ctl", "f", Vec3::X, Vec3::new(1.0, 1.0, 0.0));
    r.bones[1].constraints.push(
        Constraint::new(
            "curl",
            Kind::Transformation {
                target: "ctl".into(),
                from: Channel::Scale,
                to: Channel::Rotation,
                map: [1, 1, 1],
                from_min: [1.0; 3],
                from_max: [0.0; 3],
                to_min: [0.0; 3],
                to_max: [std::f32::consts::FRAC_PI_2, 0.0, 0.0],
                extrapolate: true,
                mix: RotMix::After,
            },
        )
        .spaces(Space::Local, Space::Local),
    );
    let p = posed(
        "ctl",
        Transform {
            scale: Vec3::new(1.0, 0.5, 1.0),
            ..Default::default()
        },
    );
    let out = eval(&r, &p);
    let want =
        r.bones[1].as_bone().rest_matrix() * Mat4::from_rotation_x(std::f32::consts::FRAC_PI_4);
    assert!(matrix_error(&out[1], &want, 1.0) < 1e-5);
}
