//! The control rig's constraints that carry a rotation from one bone to another read
//! it in the right axes: the twist bones follow the deformation module's twist rules
//! (the review's) on the mannequin and a MakeHuman variant, whatever way the hand bone
//! points; the foot roll's pivots, the finger curls and the limb isolation, one pose
//! each.

use glam::{Mat3, Mat4, Quat, Vec3};
use rigsmith::control::math::matrix_error;
use rigsmith::control::model::*;
use rigsmith::control::posing::RigPoser;
use rigsmith::control::{self, Evaluator};
use rigsmith::deform::{apply_twist_rules, twist_rules};
use rigsmith::fit::{fit, FitOptions};
use rigsmith::humanoid::Roles;
use rigsmith::pose::{default_library, posed_matrices};
use rigsmith::{Side, Skeleton};

use crate::common;
use crate::control::{fitted, makehuman_variant, posed, turn};

/// The rotation part of `m`.
fn rotation(m: &Mat4) -> Quat {
    Quat::from_mat3(&Mat3::from_mat4(*m)).normalize()
}

/// The rotation from rest to posed of rig bone `name`, in world axes.
fn world_turn(rig: &ControlRig, out: &[Mat4], name: &str) -> Quat {
    let i = rig.find(name).unwrap();
    let rest = rig.bones[i].as_bone().rest_matrix();
    rotation(&(out[i] * rest.inverse()))
}

/// The angle between two rotations, degrees (from the sine of the half angle, which
/// keeps its digits near 0 where the arc cosine of a dot product loses them).
fn degrees_between(a: Quat, b: Quat) -> f32 {
    let d = a.inverse() * b;
    (2.0 * d.xyz().length().atan2(d.w.abs())).to_degrees()
}

/// `wrist_twist_80.L/R` (80 deg of pronation about the forearm's axis) through the rig
/// of `s`: each forearm twist bone turns by its rule's weight (its place) times 80 deg.
/// Then every pose of the library through the rig against forward kinematics of the
/// pose with the deformation module's twist rules applied: the largest twist-bone
/// matrix difference (rotation columns, positions in H) is returned.
fn twist_through_the_rig(what: &str, s: &Skeleton, h: f32) -> f32 {
    let rig = control::build(s, h).unwrap();
    let poser = RigPoser::new(&rig, s).unwrap();
    let roles = Roles::of(s, None);
    let rules = twist_rules(s, &roles);
    assert!(rules.len() >= 8, "{what}: {} twist rules", rules.len());
    let (library, _) = default_library(s);
    for (side, tag) in [(Side::Left, "L"), (Side::Right, "R")] {
        let forearm = roles.lower_arm[usize::from(side == Side::Right)].unwrap();
        let name = format!("wrist_twist_80.{tag}");
        let p = library.iter().find(|p| p.name == name).unwrap();
        let m = poser.skinning(&p.pose);
        let on_forearm: Vec<_> = rules
            .iter()
            .filter(|r| r.limb == s.bones[forearm].name)
            .collect();
        assert!(!on_forearm.is_empty(), "{what}: no forearm twist bone");
        for r in on_forearm {
            let i = s.find(&r.bone).unwrap();
            let got = degrees_between(rotation(&m[i]), Quat::IDENTITY);
            let want = 80.0 * r.weight;
            println!(
                "{what}: {name} turns {} by {got:.2} deg (its rule: {want:.2})",
                r.bone
            );
            assert!(
                (got - want).abs() < 1.0,
                "{what}: {name}: {} turned {got} deg, its place gives {want}",
                r.bone
            );
        }
    }
    let mut worst = (0.0f32, String::new());
    for p in &library {
        let by_rig = poser.skinning(&p.pose);
        let by_rule = posed_matrices(s, &apply_twist_rules(s, &rules, &p.pose));
        for r in &rules {
            let i = s.find(&r.bone).unwrap();
            let e = matrix_error(&by_rig[i], &by_rule[i], h);
            if e > worst.0 {
                worst = (e, format!("{} in {}", r.bone, p.name));
            }
        }
    }
    println!(
        "{what}: rig vs twist rules over {} poses, {} twist bones: {:.1e} ({})",
        library.len(),
        rules.len(),
        worst.0,
        worst.1
    );
    worst.0
}

#[test]
fn the_mannequins_twist_bones_follow_the_twist_rules_through_the_rig() {
    let (s, h) = fitted(2);
    let e = twist_through_the_rig("mannequin", &s, h);
    assert!(e < 5e-4, "{e}");
}

#[test]
fn a_makehuman_variants_twist_bones_follow_the_twist_rules_through_the_rig() {
    let corpus = rigsmith::io::mpfb2::Corpus::open(&common::mpfb2_dir()).unwrap();
    let c = makehuman_variant(&corpus, "female");
    let o = FitOptions {
        twist: 2,
        ..Default::default()
    };
    let s = fit(&c, &o).unwrap().skeleton;
    let e = twist_through_the_rig("female", &s, c.body().unwrap().height);
    assert!(e < 5e-4, "{e}");
}

/// The foot roll control and its pivots share their rest axes, so each pivot turns in
/// the world as the control does, on its own side of each limit.
#[test]
fn the_foot_roll_pivots_turn_in_the_world_as_the_roll_control_does() {
    let (s, h) = fitted(0);
    let rig = control::build(&s, h).unwrap();
    let cases = [
        (Vec3::X, -30.0, "heel"),
        (Vec3::X, 30.0, "toe"),
        (Vec3::Z, -20.0, "outer"),
        (Vec3::Z, 20.0, "inner"),
    ];
    for (axis, deg, pivot) in cases {
        let roll = rig.bone("foot_roll.L").unwrap().as_bone();
        let world_axis = roll.frame() * axis;
        let mut p = ControlPose::default();
        p.bones.insert(
            "foot_roll.L".into(),
            turn(&rig, "foot_roll.L", world_axis, deg),
        );
        let out = posed(&rig, &p);
        let want = world_turn(&rig, &out, "foot_roll.L");
        let got = world_turn(&rig, &out, &format!("MCH-foot_{pivot}.L"));
        let d = degrees_between(got, want);
        println!("foot roll {deg} deg: MCH-foot_{pivot}.L {d:.1e} deg off the roll control");
        assert!(d < 0.01, "{pivot}: {d} deg off the roll control");
        assert!(
            degrees_between(want, Quat::IDENTITY) > deg.abs() - 0.01,
            "{pivot}"
        );
    }
}

/// A curl control's X turn bends every phalanx of its finger by as much about the
/// phalanx's own X (its hinge), whatever way each phalanx points.
#[test]
fn a_finger_curl_bends_each_phalanx_about_its_own_hinge() {
    let (s, h) = fitted(0);
    let rig = control::build(&s, h).unwrap();
    let ev = Evaluator::new(&rig).unwrap();
    let curl = "index_curl.L";
    let x = rig.bone(curl).unwrap().as_bone().frame().x_axis;
    let mut p = ControlPose::default();
    p.bones.insert(curl.into(), turn(&rig, curl, x, 40.0));
    let out = posed(&rig, &p);
    let phalanges: Vec<usize> = (0..rig.bones.len())
        .filter(|&i| {
            rig.bones[i]
                .constraints
                .iter()
                .any(|c| matches!(&c.kind, Kind::Transformation { target, .. } if target == curl))
        })
        .collect();
    assert!(phalanges.len() >= 3, "{}", phalanges.len());
    for i in phalanges {
        let parent = ev.parents()[i].unwrap();
        let rest = ev.rest();
        let frame = out[parent] * rest[parent].inverse() * rest[i];
        let local = rotation(&(frame.inverse() * out[i]));
        let want = Quat::from_rotation_x(40f32.to_radians());
        let d = degrees_between(local, want);
        println!(
            "{curl} 40 deg: {} {d:.1e} deg off 40 about its X",
            rig.bones[i].name
        );
        assert!(d < 0.01, "{}: {d} deg off 40 about X", rig.bones[i].name);
    }
}

/// The isolated arm: with `arm_follow.L` at 1 the upper arm turns with its clavicle;
/// at 0 it keeps its rest orientation (the root's) while its head still rides on the
/// clavicle.
#[test]
fn limb_isolation_turns_the_arm_with_the_clavicle_or_keeps_it() {
    let (s, h) = fitted(0);
    let rig = control::build(&s, h).unwrap();
    let clavicle = rig
        .bone("MCH-upperarm_socket.L")
        .unwrap()
        .parent
        .clone()
        .unwrap();
    let pose = |follow: f32| {
        let mut p = ControlPose::default();
        p.bones
            .insert(clavicle.clone(), turn(&rig, &clavicle, Vec3::Z, 30.0));
        p.props.insert("arm_follow.L".into(), follow);
        posed(&rig, &p)
    };
    let (on, off) = (pose(1.0), pose(0.0));
    let clav = world_turn(&rig, &on, &clavicle);
    assert!(degrees_between(clav, Quat::IDENTITY) > 29.9);
    let d = degrees_between(world_turn(&rig, &on, "upperarm_l"), clav);
    println!("arm_follow.L 1: the upper arm {d:.1e} deg off the clavicle's turn");
    assert!(d < 0.01, "following: {d} deg off the clavicle's turn");
    let d = degrees_between(world_turn(&rig, &off, "upperarm_l"), Quat::IDENTITY);
    println!("arm_follow.L 0: the upper arm turned {d:.1e} deg");
    assert!(d < 0.01, "isolated: turned {d} deg");
    let i = rig.find("upperarm_l").unwrap();
    let (a, b) = (on[i].w_axis.truncate(), off[i].w_axis.truncate());
    let rest = rig.bones[i].head;
    assert!(
        (a - b).length() < 1e-4 * h,
        "the head rides on the clavicle"
    );
    assert!(
        (a - rest).length() > 0.005 * h,
        "the clavicle moved the head"
    );
}
