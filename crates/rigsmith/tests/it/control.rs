//! The control rig: the generator on the mannequin and every MakeHuman variant, rubric
//! B with a positive control for each check, bad input, the bake, and Blender as the
//! evaluator's peer.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use glam::{Mat4, Quat, Vec3};
use rigsmith::control::bake::{self, ControlAnimation};
use rigsmith::control::model::*;
use rigsmith::control::{self, checks, Evaluator};
use rigsmith::fit::{fit, FitOptions};
use rigsmith::{Check, Skeleton};

use crate::common;

pub(crate) fn fitted(twist: usize) -> (Skeleton, f32) {
    let c = rigsmith::mannequin::build(&Default::default());
    let r = fit(
        &c,
        &FitOptions {
            twist,
            ..Default::default()
        },
    )
    .unwrap();
    (r.skeleton, c.body().unwrap().height)
}

fn mannequin_rig() -> &'static ControlRig {
    static R: OnceLock<ControlRig> = OnceLock::new();
    R.get_or_init(|| {
        let (s, h) = fitted(0);
        control::build(&s, h).unwrap()
    })
}

fn by_id(rig: &ControlRig) -> BTreeMap<String, Check> {
    checks(rig).into_iter().map(|c| (c.id.clone(), c)).collect()
}

pub(crate) fn assert_all_pass(rig: &ControlRig, what: &str) {
    let cs = checks(rig);
    assert_eq!(cs.len(), 10, "{what}: every check ran");
    for c in &cs {
        assert!(c.passed, "{what}: {} = {} ({})", c.id, c.value, c.detail);
    }
}

fn fires(rig: &ControlRig, id: &str) -> Check {
    let c = by_id(rig)
        .remove(id)
        .unwrap_or_else(|| panic!("no check {id}"));
    assert!(!c.passed, "{id} should fire: {} ({})", c.value, c.detail);
    c
}

pub(crate) fn posed(rig: &ControlRig, pose: &ControlPose) -> Vec<Mat4> {
    let ev = Evaluator::new(rig).unwrap();
    let mut out = Vec::new();
    ev.evaluate(&ev.channels(pose).unwrap(), &mut out);
    out
}

pub(crate) fn turn(rig: &ControlRig, bone: &str, world_axis: Vec3, deg: f32) -> Transform {
    let b = rig.bone(bone).unwrap().as_bone();
    let axis = b.frame().transpose() * world_axis;
    Transform {
        rotation: Quat::from_axis_angle(axis.normalize(), deg.to_radians()),
        ..Default::default()
    }
}

#[test]
fn the_mannequin_control_rig_passes_every_rubric_b_check() {
    let rig = mannequin_rig();
    assert!(rig.missing.is_empty(), "{:?}", rig.missing);
    assert_all_pass(rig, "mannequin");
    let cs = by_id(rig);
    // The numbers behind the verdicts.
    assert!(cs["control.root_follows"].value < 1e-4);
    assert!(
        cs["control.pole_angle"].value < 1e-4,
        "{}",
        cs["control.pole_angle"].value
    );
    assert_eq!(cs["control.drivers"].value, 0.0);
    // Switch defaults: legs IK, arms FK.
    assert_eq!(rig.property("leg_ik.L").unwrap().default, 1.0);
    assert_eq!(rig.property("arm_ik.R").unwrap().default, 0.0);
    // About 150 bones: the skeleton's and the controls.
    assert!(rig.bones.len() > 120, "{}", rig.bones.len());
}

/// Every named MakeHuman variant without its artist rig, by name.
pub(crate) fn makehuman_variants() -> Vec<(&'static str, rigsmith::model::Character)> {
    use rigsmith::io::mpfb2::{Corpus, VARIANTS};
    let corpus = Corpus::open(&common::mpfb2_dir()).unwrap();
    VARIANTS
        .iter()
        .map(|v| (v.name, makehuman_variant(&corpus, v.name)))
        .collect()
}

/// The MakeHuman variant `name` of `corpus`, without its artist rig.
pub(crate) fn makehuman_variant(
    corpus: &rigsmith::io::mpfb2::Corpus,
    name: &str,
) -> rigsmith::model::Character {
    let o = rigsmith::io::mpfb2::CorpusOptions {
        variant: Some(name.into()),
        rig: None,
        ..Default::default()
    };
    corpus.build(&o).unwrap()
}

#[test]
fn every_named_makehuman_variant_passes_every_rubric_b_check() {
    for (name, c) in makehuman_variants() {
        let r = fit(&c, &FitOptions::default()).unwrap();
        let rig = control::build(&r.skeleton, c.body().unwrap().height).unwrap();
        assert!(rig.missing.is_empty(), "{name}: {:?}", rig.missing);
        assert_all_pass(&rig, name);
    }
}

/// The control rig `rig --control` makes (the whole pipeline, its default twist bones
/// included) on the mannequin and on every named MakeHuman variant: every rubric B
/// check passes, and the review carries them.
#[test]
fn rig_with_control_passes_rubric_b_on_the_mannequin_and_every_variant() {
    let o = rigsmith::RigOptions {
        control: true,
        ..Default::default()
    };
    let mut chars = vec![("mannequin", rigsmith::mannequin::build(&Default::default()))];
    chars.extend(makehuman_variants());
    for (name, c) in chars {
        let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
        let rig = out.sidecar.control.as_ref().unwrap();
        assert!(rig.missing.is_empty(), "{name}: {:?}", rig.missing);
        let twist = rig
            .bones
            .iter()
            .filter(|b| b.name.contains("_twist_"))
            .count();
        assert_eq!(twist, 8, "{name}: a twist bone a limb segment");
        assert_all_pass(rig, name);
        let review = out.review.as_ref().unwrap();
        let b: Vec<_> = review
            .checks
            .iter()
            .filter(|c| c.id.starts_with("control."))
            .collect();
        assert_eq!(b.len(), 10, "{name}: the review carries rubric B");
        assert!(b.iter().all(|c| c.passed), "{name}");
        println!(
            "{name}: {} control-rig bones, root {:.1e}, pole {:.1e}, feet {:.1e}",
            rig.bones.len(),
            by_id(rig)["control.root_follows"].value,
            by_id(rig)["control.pole_angle"].value,
            by_id(rig)["control.foot_planted"].value,
        );
    }
}

#[test]
fn ik_legs_follow_the_foot_control_and_fk_arms_the_fk_control() {
    let rig = mannequin_rig();
    let h = rig.height;
    let mut pose = ControlPose::default();
    let fb = rig.bone("foot_ik.L").unwrap().as_bone();
    let up = fb.frame().transpose() * Vec3::new(0.0, 0.15 * h, 0.1 * h);
    pose.bones.insert(
        "foot_ik.L".into(),
        Transform {
            location: up,
            ..Default::default()
        },
    );
    pose.bones.insert(
        "upperarm_fk.L".into(),
        turn(rig, "upperarm_fk.L", Vec3::Z, -60.0),
    );
    let out = posed(rig, &pose);
    let i = |n: &str| rig.find(n).unwrap();
    let rest = |n: &str| rig.bone(n).unwrap().as_bone().rest_matrix();
    // The DEF foot moved with the IK control; the ankle is on its target.
    let foot = out[i("foot_l")].w_axis.truncate();
    assert!(
        (foot - (rest("foot_l").w_axis.truncate() + Vec3::new(0.0, 0.15 * h, 0.1 * h))).length()
            < 1e-4 * h
    );
    // The calf's tail meets the ankle: the IK chain reached.
    let calf_tail = out[i("calf_l")].transform_point3(Vec3::new(
        0.0,
        rig.bone("calf_l").unwrap().length(),
        0.0,
    ));
    assert!((calf_tail - foot).length() < 1e-4 * h);
    // The FK arm: the hand went down with the upper arm (turned 60 deg about -Z).
    let hand = out[i("hand_l")].w_axis.truncate();
    assert!(hand.y < rest("hand_l").w_axis.y - 0.1 * h, "{hand}");
}

#[test]
fn the_foot_roll_lifts_the_heel_on_the_toe_and_the_toe_on_the_heel() {
    let rig = mannequin_rig();
    let h = rig.height;
    let i = |n: &str| rig.find(n).unwrap();
    let roll = |deg: f32| {
        let mut p = ControlPose::default();
        p.bones
            .insert("foot_roll.L".into(), turn(rig, "foot_roll.L", Vec3::X, deg));
        posed(rig, &p)
    };
    let rest = posed(rig, &ControlPose::default());
    let ankle = |m: &[Mat4]| m[i("foot_l")].w_axis.y;
    let toe_tip = |m: &[Mat4]| {
        m[i("ball_l")]
            .transform_point3(Vec3::new(0.0, rig.bone("ball_l").unwrap().length(), 0.0))
            .y
    };
    // Positive X on the left side rolls onto the toe: the ankle rises, the toe tip stays.
    let up = roll(30.0);
    assert!(
        ankle(&up) - ankle(&rest) > 0.02 * h,
        "{}",
        ankle(&up) - ankle(&rest)
    );
    // Negative rolls back on the heel: the toe tip rises.
    let back = roll(-30.0);
    assert!(toe_tip(&back) - toe_tip(&rest) > 0.02 * h);
    // The limits hold: the heel pivot does not turn forward.
    let heel = rig.find("MCH-foot_heel.L").unwrap();
    assert!(matrix_close(&up[heel], &rest[heel], h));
}

fn matrix_close(a: &Mat4, b: &Mat4, h: f32) -> bool {
    rigsmith::control::math::matrix_error(a, b, h) < 1e-4
}

#[test]
fn left_and_right_are_built_alike() {
    let rig = mannequin_rig();
    let count = |sfx: &str| rig.bones.iter().filter(|b| b.name.ends_with(sfx)).count();
    assert_eq!(count(".L"), count(".R"));
    let lims = |n: &str| {
        rig.bone(n)
            .unwrap()
            .constraints
            .iter()
            .find_map(|c| match &c.kind {
                Kind::LimitRotation { limits } => Some(*limits),
                _ => None,
            })
    };
    // X limits mirror in sign, Z limits stay.
    let (l, r) = (
        lims("MCH-foot_heel.L").unwrap(),
        lims("MCH-foot_heel.R").unwrap(),
    );
    assert_eq!(l[0].unwrap(), [-r[0].unwrap()[1], -r[0].unwrap()[0]]);
    let (l, r) = (
        lims("MCH-foot_outer.L").unwrap(),
        lims("MCH-foot_outer.R").unwrap(),
    );
    assert_eq!(l[2], r[2]);
}

/// The share of limb bone `limb`'s length at which bone `twist`'s head sits.
pub(crate) fn place(s: &Skeleton, limb: &str, twist: &str) -> f32 {
    let l = &s.bones[s.find(limb).unwrap()];
    let t = &s.bones[s.find(twist).unwrap()];
    let d = l.tail - l.head;
    (t.head - l.head).dot(d) / d.length_squared()
}

#[test]
fn twist_bones_of_every_limb_segment_take_its_twist_by_their_place() {
    let (s, h) = fitted(2);
    let rig = control::build(&s, h).unwrap();
    assert_all_pass(&rig, "mannequin with 2 twist bones a segment");
    let twist_deg = |out: &[Mat4], name: &str| {
        let i = rig.find(name).unwrap();
        let rest = rig.bones[i].as_bone().rest_matrix();
        let rel = Quat::from_mat4(&(rest.inverse() * out[i])).normalize();
        let (axis, angle) = rel.to_axis_angle();
        // About the bone's own Y (twist), signed.
        (angle * axis.y.signum()).to_degrees()
    };
    // Each twist bone takes the share of its segment's twist its head's place along the
    // segment gives (the template decides where they sit), whatever way the control's
    // own axes point: the hand and the foot are turned about the forearm's and the
    // shin's axis, the upper arm and the thigh about their own.
    let cases = [
        ("hand_fk.L", "lowerarm", 80.0),
        ("upperarm_fk.L", "upperarm", 60.0),
        ("foot_fk.L", "calf", 40.0),
        ("thigh_fk.L", "thigh", 40.0),
    ];
    for (control, stem, deg) in cases {
        let limb = format!("{stem}_l");
        let axis = rig.bone(&limb).unwrap().as_bone().y_axis();
        let mut p = ControlPose::default();
        p.bones
            .insert(control.into(), turn(&rig, control, axis, deg));
        p.props.insert("leg_ik.L".into(), 0.0);
        let out = posed(&rig, &p);
        let (n1, n2) = (format!("{stem}_twist_01_l"), format!("{stem}_twist_02_l"));
        let (a, b) = (twist_deg(&out, &n1), twist_deg(&out, &n2));
        let (ea, eb) = (deg * place(&s, &limb, &n1), deg * place(&s, &limb, &n2));
        println!("{control} turned {deg} deg about {limb}: twist bones {a:.2} {b:.2}, expected {ea:.2} {eb:.2}");
        assert!(
            (a - ea).abs() < 0.1 && (b - eb).abs() < 0.1 && b > a,
            "{control}: twists {a} {b}, expected {ea} {eb}"
        );
    }
}

#[test]
fn review_poses_through_the_rig_keep_the_pose_and_twist_the_twist_bones() {
    use rigsmith::control::posing::RigPoser;
    let (s, h) = fitted(2);
    let rig = control::build(&s, h).unwrap();
    let poser = RigPoser::new(&rig, &s).unwrap();
    let twist: Vec<usize> = (0..s.len())
        .filter(|&i| s.bones[i].name.contains("_twist_"))
        .collect();
    assert_eq!(twist.len(), 16, "two a segment, eight segments");
    let (library, _) = rigsmith::pose::default_library(&s);
    assert!(library.len() > 10);
    // Every bone the rig has a control for ends where the pose put it.
    let mut worst = 0.0f32;
    for p in &library {
        let e = poser.difference_from_fk(&p.pose, h, |i| !twist.contains(&i));
        assert!(e < 1e-4, "{}: {e}", p.name);
        worst = worst.max(e);
    }
    println!(
        "rig vs forward kinematics over {} poses: {worst:.1e}",
        library.len()
    );
    // The wrist twist turns only the hand; through the rig the forearm's twist bones
    // follow it by their place (forward kinematics leaves them at rest).
    let p = library
        .iter()
        .find(|p| p.name == "wrist_twist_80.L")
        .unwrap();
    let m = poser.skinning(&p.pose);
    let fk = rigsmith::pose::posed_matrices(&s, &p.pose);
    let turned = |m: &glam::Mat4| {
        Quat::from_mat4(m)
            .normalize()
            .angle_between(Quat::IDENTITY)
            .to_degrees()
    };
    let (a, b) = (
        s.find("lowerarm_twist_01_l").unwrap(),
        s.find("lowerarm_twist_02_l").unwrap(),
    );
    assert!(turned(&fk[a]) < 1e-3 && turned(&fk[b]) < 1e-3);
    let (ta, tb) = (turned(&m[a]), turned(&m[b]));
    // The pronation is about the forearm's axis; the mannequin's hand bone points
    // forward, off that axis, and the twist bones still take their place's share of
    // the 80 deg.
    let (ea, eb) = (
        80.0 * place(&s, "lowerarm_l", "lowerarm_twist_01_l"),
        80.0 * place(&s, "lowerarm_l", "lowerarm_twist_02_l"),
    );
    println!(
        "wrist_twist_80.L through the rig: forearm twist bones {ta:.1} and {tb:.1} deg (expected {ea:.1} and {eb:.1})"
    );
    assert!(
        (ta - ea).abs() < 2.0 && (tb - eb).abs() < 2.0,
        "forearm twist bones {ta} {tb}, expected {ea} {eb}"
    );
    // A rig built for another skeleton is refused, naming a bone it lacks.
    let (s0, _) = fitted(0);
    let rig0 = control::build(&s0, h).unwrap();
    let e = RigPoser::new(&rig0, &s).unwrap_err().to_string();
    assert!(e.contains("_twist_"), "{e}");
}

// Positive controls: each check fires on a rig broken on purpose.

/// A Damped Track to `b`.
fn tracking(b: &str) -> Constraint {
    Constraint::new(
        "track",
        Kind::DampedTrack {
            target: b.into(),
            head_tail: 0.0,
        },
    )
}

/// The mannequin's rig with `torso` and `settings` damped-tracking each other.
fn torso_and_settings_tracking_each_other() -> ControlRig {
    let mut rig = mannequin_rig().clone();
    for (owner, target) in [("torso", "settings"), ("settings", "torso")] {
        let b = rig.bone_mut(owner).unwrap();
        b.constraints.push(tracking(target));
    }
    rig
}

#[test]
fn two_bones_tracking_each_other_fire_both_cycle_checks() {
    let rig = torso_and_settings_tracking_each_other();
    let c = fires(&rig, "control.static_cycles");
    assert!(
        c.detail.contains("settings and torso constrain each other")
            || c.detail.contains("torso and settings"),
        "{}",
        c.detail
    );
    let c = fires(&rig, "control.cycle_check");
    assert!(
        c.detail.contains("dependency cycle") && c.detail.contains("torso"),
        "{}",
        c.detail
    );
}

#[test]
fn a_bone_copying_its_own_child_fires_both_cycle_checks() {
    let mut rig = mannequin_rig().clone();
    rig.bone_mut("torso")
        .unwrap()
        .constraints
        .push(Constraint::new(
            "copy",
            Kind::CopyRotation {
                target: "hips".into(),
                axes: [true; 3],
                mix: RotMix::Replace,
            },
        ));
    let c = fires(&rig, "control.static_cycles");
    assert!(
        c.detail.contains("targets hips, its own child"),
        "{}",
        c.detail
    );
    fires(&rig, "control.cycle_check");
}

fn pole_angle_of(rig: &ControlRig, bone: &str) -> f32 {
    rig.bone(bone)
        .unwrap()
        .constraints
        .iter()
        .find_map(|c| match c.kind {
            Kind::Ik { pole_angle, .. } => Some(pole_angle),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_pole_off_by_10_degrees_fires_the_pole_check() {
    let mut rig = mannequin_rig().clone();
    let a = pole_angle_of(&rig, "MCH-calf_ik.L");
    for c in &mut rig.bone_mut("MCH-calf_ik.L").unwrap().constraints {
        if let Kind::Ik { pole_angle, .. } = &mut c.kind {
            *pole_angle = a + 10f32.to_radians();
        }
    }
    let c = fires(&rig, "control.pole_angle");
    assert!(c.value > 1e-2, "{}", c.value);
    // The IK leg (the default) no longer rests on the skeleton either.
    fires(&rig, "control.fk_ik_rest");
}

#[test]
fn an_fk_chain_that_misses_the_ik_chain_fires_fk_ik_rest() {
    let mut rig = mannequin_rig().clone();
    let h = rig.height;
    let b = rig.bone_mut("calf_fk.L").unwrap();
    b.head += Vec3::new(0.0, 0.0, 0.02 * h);
    let c = fires(&rig, "control.fk_ik_rest");
    assert!(c.detail.contains("leg_ik.L = 0"), "{}", c.detail);
}

#[test]
fn a_root_that_does_not_carry_a_bone_fires_root_follows() {
    let mut rig = mannequin_rig().clone();
    rig.bone_mut("head_fk").unwrap().parent = None;
    let c = fires(&rig, "control.root_follows");
    assert!(c.detail.contains("head"), "{}", c.detail);
}

#[test]
fn a_switch_default_of_one_half_fires_the_switch_check() {
    let mut rig = mannequin_rig().clone();
    rig.properties
        .iter_mut()
        .find(|p| p.name == "arm_ik.L")
        .unwrap()
        .default = 0.5;
    let c = fires(&rig, "control.switches");
    assert!(c.detail.contains("arm_ik.L default 0.5"), "{}", c.detail);
}

#[test]
fn a_driver_missing_on_the_right_fires_the_driver_check() {
    let mut rig = mannequin_rig().clone();
    for c in &mut rig.bone_mut("MCH-hand.R").unwrap().constraints {
        c.driver = None;
    }
    let c = fires(&rig, "control.drivers");
    assert_eq!(c.value, 1.0);
}

#[test]
fn a_foot_control_riding_on_the_torso_fires_foot_planted() {
    let mut rig = mannequin_rig().clone();
    rig.bone_mut("foot_ik.L").unwrap().parent = Some("torso".into());
    let c = fires(&rig, "control.foot_planted");
    assert!(c.value > 0.05, "{}", c.value);
}

#[test]
fn a_deforming_mch_bone_fires_deform_hygiene() {
    let mut rig = mannequin_rig().clone();
    rig.bone_mut("MCH-thigh.L").unwrap().deform = true;
    let c = fires(&rig, "control.deform_hygiene");
    assert!(c.detail.contains("MCH-thigh.L"));
}

#[test]
fn an_unhinged_ik_chain_fires_the_ik_check() {
    let mut rig = mannequin_rig().clone();
    rig.bone_mut("MCH-lowerarm_ik.L").unwrap().ik_lock = [false; 3];
    fires(&rig, "control.ik_chains");
}

// Bad input.

#[test]
fn a_skeleton_without_a_left_arm_names_it_and_builds_the_rest() {
    let (s, h) = fitted(0);
    // Keep the clavicle; drop the upper arm and everything below it.
    let gone = |i: usize| {
        let ua = s.find("upperarm_l").unwrap();
        s.is_ancestor(ua, i)
    };
    let keep: Vec<usize> = (0..s.len()).filter(|&i| !gone(i)).collect();
    let bones = keep
        .iter()
        .map(|&i| {
            let mut b = s.bones[i].clone();
            b.parent = b.parent.and_then(|p| keep.iter().position(|&k| k == p));
            b
        })
        .collect();
    let (s2, _) = Skeleton::from_unordered(bones).unwrap();
    let rig = control::build(&s2, h).unwrap();
    assert!(
        rig.missing
            .iter()
            .any(|m| m.starts_with("arm.L") && m.contains("hand")),
        "{:?}",
        rig.missing
    );
    assert!(
        rig.bone("clavicle_l_fk").is_some(),
        "what is left of the arm gets FK controls"
    );
    assert!(rig.bone("hand_ik.R").is_some(), "the right arm is built");
    assert!(rig.bone("foot_ik.L").is_some(), "the legs are built");
    for c in checks(&rig) {
        if c.id == "control.drivers" {
            // One side has an arm's 4 drivers (3 FK/IK, 1 follow) the other lacks.
            assert_eq!(c.value, 4.0, "{}", c.detail);
        } else {
            assert!(c.passed, "{} = {} ({})", c.id, c.value, c.detail);
        }
    }
}

#[test]
fn a_control_rig_json_with_a_cycle_is_refused_naming_it() {
    let rig = torso_and_settings_tracking_each_other();
    let text = serde_json::to_string(&rig).unwrap();
    let e = ControlRig::from_json(&text, "x.rig.json")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("x.rig.json")
            && e.contains("dependency cycle")
            && e.contains("torso")
            && e.contains("settings"),
        "{e}"
    );
}

#[test]
fn a_control_animation_with_a_bad_number_or_order_is_refused() {
    let e = ControlAnimation::from_json(r#"{"keys": [{"time": 1}, {"time": 0.5}]}"#, "walk.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("walk.json") && e.contains("keys[1].time"), "{e}");
    let e = ControlAnimation::from_json(
        r#"{"keys": [{"time": 0, "props": {"leg_ik.L": NaN}}]}"#,
        "walk.json",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("walk.json"), "{e}");
    let ev = Evaluator::new(mannequin_rig()).unwrap();
    let mut p = ControlPose::default();
    p.props.insert("leg_ik.L".into(), f32::NAN);
    let e = ev.channels(&p).unwrap_err().to_string();
    assert!(e.contains("leg_ik.L") && e.contains("NaN"), "{e}");
}

// The bake.

fn rigged_with_control() -> &'static rigsmith::pipeline::RigOutput {
    static O: OnceLock<rigsmith::pipeline::RigOutput> = OnceLock::new();
    O.get_or_init(|| {
        let c = rigsmith::mannequin::build(&Default::default());
        let o = rigsmith::RigOptions {
            review: false,
            control: true,
            ..Default::default()
        };
        rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
    })
}

/// The built-in 2-second walk baked on the mannequin's rig into `walk.glb` in a
/// temporary folder: (folder, file, the walk).
fn baked_walk() -> (tempfile::TempDir, std::path::PathBuf, ControlAnimation) {
    let out = rigged_with_control();
    let rig = out.sidecar.control.as_ref().unwrap();
    let c = &out.character;
    let anim = bake::walk(rig, 2.0);
    let baked = bake::bake(rig, c.skeleton.as_ref().unwrap(), &anim).unwrap();
    assert_eq!(baked.times.len(), 61);
    let dir = common::tmpdir();
    let path = dir.path().join("walk.glb");
    let bytes = bake::write_glb(c, &baked, &Default::default(), "walk").unwrap();
    std::fs::write(&path, &bytes).unwrap();
    (dir, path, anim)
}

#[test]
fn a_two_second_walk_bakes_into_a_valid_glb_that_replays_the_evaluator() {
    let out = rigged_with_control();
    let rig = out.sidecar.control.as_ref().unwrap();
    let skel = out.character.skeleton.as_ref().unwrap();
    let (_dir, path, anim) = baked_walk();
    let (errors, _) = common::validate_gltf(&path);
    assert_eq!(errors, 0);
    // Read back: the file's animation at three times gives the evaluator's skinning.
    let anims = rigsmith::io::gltf::animation::read_animations(&path).unwrap();
    let back = rigsmith::io::read_character(&path).unwrap();
    let parents: Vec<Option<usize>> = back
        .skeleton
        .as_ref()
        .unwrap()
        .bones
        .iter()
        .map(|b| b.parent)
        .collect();
    let ev = Evaluator::new(rig).unwrap();
    let mut worst = 0.0f32;
    let mut moved = 0.0f32;
    for t in [7.0f32 / 30.0, 1.0, 1.7] {
        let file = anims.skinning(0, t, &parents);
        let mut posed = Vec::new();
        ev.evaluate(&ev.channels(&anim.sample(t)).unwrap(), &mut posed);
        for (i, b) in skel.bones.iter().enumerate() {
            let k = rig.find(&b.name).unwrap();
            let want = posed[k] * ev.rest()[k].inverse();
            // Bones mid-key differ by the linear sampling; on the baked frames they agree.
            let f = (t * 30.0).round() / 30.0;
            let _ = f;
            worst = worst.max(rigsmith::control::math::matrix_error(
                &file[i], &want, rig.height,
            ));
            moved = moved.max((want.w_axis - Mat4::IDENTITY.w_axis).length());
        }
    }
    assert!(worst < 1e-3, "file vs evaluator {worst}");
    assert!(moved > 0.02, "the walk moves the bones");
}

#[test]
fn a_baked_walk_plays_in_three_js_as_rigsmith_skins_it() {
    let node_ok = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node_ok {
        println!("skipped: no `node` on PATH: three.js does not play the baked walk");
        return;
    }
    let out = rigged_with_control();
    let rig = out.sidecar.control.as_ref().unwrap();
    let c = &out.character;
    let skel = c.skeleton.as_ref().unwrap();
    let (_dir, path, anim) = baked_walk();
    let ev = Evaluator::new(rig).unwrap();
    // three.js plays the file: its skinned vertices at three frames are rigsmith's
    // linear-blend skinning of the evaluator's pose.
    let times = [7.0f32 / 30.0, 1.0, 1.7];
    let scripts = rigsmith_testdata::node_scripts();
    let o = std::process::Command::new("node")
        .arg(scripts.join("play-gltf-animation.mjs"))
        .arg(&path)
        .arg("25")
        .args(times.iter().map(|t| t.to_string()))
        .output()
        .expect("run node");
    assert!(
        o.status.success(),
        "{} {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["clip"], "walk");
    let mut worst = 0.0f32;
    let mut checked = 0usize;
    for (k, &t) in times.iter().enumerate() {
        let mut posed = Vec::new();
        ev.evaluate(&ev.channels(&anim.sample(t)).unwrap(), &mut posed);
        let mats: Vec<Mat4> = skel
            .bones
            .iter()
            .map(|b| {
                let i = rig.find(&b.name).unwrap();
                posed[i] * ev.rest()[i].inverse()
            })
            .collect();
        for part in &c.parts {
            let Some(w) = &part.weights else { continue };
            let Some(m) = v["meshes"].get(&part.name) else {
                panic!("three.js has no mesh {}", part.name)
            };
            let ours = rigsmith::pose::skin_lbs(&part.mesh.positions, w, &mats);
            for (j, idx) in m["indices"].as_array().unwrap().iter().enumerate() {
                let p = &m["frames"][k][j];
                let theirs = Vec3::new(
                    p[0].as_f64().unwrap() as f32,
                    p[1].as_f64().unwrap() as f32,
                    p[2].as_f64().unwrap() as f32,
                );
                worst = worst
                    .max((theirs - ours[idx.as_u64().unwrap() as usize]).length() / rig.height);
                checked += 1;
            }
        }
    }
    println!("three.js vs rigsmith skinning at 3 frames: {checked} vertices, worst {worst:.2e} H");
    assert!(checked > 500);
    assert!(worst < 1e-4, "three.js vs rigsmith: {worst} H");
}

// Blender as the peer: the script builds the same rig and poses it alike.

fn bpy_python() -> Option<std::path::PathBuf> {
    let home = std::env::var_os("HOME")?;
    let py = Path::new(&home).join(".cache/rigsmith/bpy-venv/bin/python");
    if !py.exists() {
        return None;
    }
    let ok = std::process::Command::new(&py)
        .args(["-c", "import bpy"])
        .output()
        .ok()?
        .status
        .success();
    ok.then_some(py)
}

/// 20 random control poses (IK targets, FK rotations, switches, foot roll, curls) with
/// a fixed seed.
fn random_poses(rig: &ControlRig, n: usize) -> Vec<ControlPose> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
    };
    let h = rig.height;
    let mut out = Vec::new();
    for k in 0..50 * n {
        let mut p = ControlPose::default();
        for side in [".L", ".R"] {
            p.props
                .insert(format!("arm_ik{side}"), if rnd() > 0.0 { 1.0 } else { 0.0 });
            p.props.insert(
                format!("leg_ik{side}"),
                if rnd() > -0.3 { 1.0 } else { 0.0 },
            );
            p.props
                .insert(format!("arm_follow{side}"), 0.5 + 0.5 * rnd());
            for c in [
                "upperarm_fk",
                "lowerarm_fk",
                "hand_fk",
                "thigh_fk",
                "calf_fk",
                "foot_fk",
            ] {
                let axis = Vec3::new(rnd(), rnd(), rnd()).normalize_or(Vec3::X);
                p.bones.insert(
                    format!("{c}{side}"),
                    Transform {
                        rotation: Quat::from_axis_angle(axis, 0.6 * rnd()),
                        ..Default::default()
                    },
                );
            }
            for c in ["hand_ik", "foot_ik"] {
                let b = rig.bone(&format!("{c}{side}")).unwrap().as_bone();
                let root = if c == "hand_ik" {
                    "MCH-upperarm_ik"
                } else {
                    "MCH-thigh_ik"
                };
                let towards = rig.bone(&format!("{root}{side}")).unwrap().head - b.head;
                let world = towards * (0.05 + 0.25 * rnd().abs())
                    + Vec3::new(rnd(), rnd(), rnd()) * 0.04 * h;
                p.bones.insert(
                    format!("{c}{side}"),
                    Transform {
                        location: b.frame().transpose() * world,
                        rotation: Quat::from_axis_angle(
                            Vec3::new(rnd(), rnd(), rnd()).normalize_or(Vec3::Y),
                            0.4 * rnd(),
                        ),
                        ..Default::default()
                    },
                );
            }
            let roll = if k % 2 == 0 {
                Quat::from_rotation_x(0.7 * rnd())
            } else {
                Quat::from_rotation_z(0.5 * rnd())
            };
            p.bones.insert(
                format!("foot_roll{side}"),
                Transform {
                    rotation: roll,
                    ..Default::default()
                },
            );
            p.bones.insert(
                format!("index_curl{side}"),
                Transform {
                    rotation: Quat::from_rotation_x(rnd()),
                    ..Default::default()
                },
            );
            p.bones.insert(
                format!("arm_pole{side}"),
                Transform {
                    location: Vec3::new(rnd(), rnd(), rnd()) * 0.05 * h,
                    ..Default::default()
                },
            );
        }
        let torso = rig.bone("torso").unwrap().as_bone().frame().transpose();
        p.bones.insert(
            "torso".into(),
            Transform {
                location: torso * (Vec3::new(rnd(), -rnd().abs(), rnd()) * 0.04 * h),
                ..Default::default()
            },
        );
        p.bones.insert(
            "hips".into(),
            Transform {
                rotation: Quat::from_axis_angle(
                    Vec3::new(rnd(), rnd(), rnd()).normalize_or(Vec3::Y),
                    0.3 * rnd(),
                ),
                ..Default::default()
            },
        );
        p.bones.insert(
            "root".into(),
            Transform {
                location: Vec3::new(rnd(), 0.0, rnd()) * 0.2 * h,
                rotation: Quat::from_rotation_y(rnd()),
                scale: Vec3::splat(1.0 + 0.2 * rnd()),
            },
        );
        p.bones.retain(|n, _| rig.bone(n).is_some());
        if within_reach(rig, &p) {
            out.push(p);
        }
        if out.len() == n {
            break;
        }
    }
    assert_eq!(out.len(), n, "not enough poses within reach");
    out
}

/// Whether every IK goal of the pose is within 97% of its chain's reach (Blender's
/// damped iterative solver never fully straightens a chain, so out of reach it stops
/// short of the straight chain the closed form gives).
fn within_reach(rig: &ControlRig, p: &ControlPose) -> bool {
    let ev = Evaluator::new(rig).unwrap();
    let mut m = Vec::new();
    ev.evaluate(&ev.channels(p).unwrap(), &mut m);
    control::build::ik_chains(rig).into_iter().all(|(o, u)| {
        let target = rig.bones[o]
            .constraints
            .iter()
            .find_map(|c| match &c.kind {
                Kind::Ik { target, .. } => rig.find(target),
                _ => None,
            })
            .unwrap();
        let scale = m[u].x_axis.truncate().length();
        let reach = (rig.bones[u].length() + rig.bones[o].length()) * scale;
        (m[target].w_axis - m[u].w_axis).truncate().length() < 0.97 * reach
    })
}

#[test]
fn blender_builds_the_same_rig_without_cycles_and_poses_it_alike() {
    let Some(py) = bpy_python() else {
        println!("skipped: no bpy module in ~/.cache/rigsmith/bpy-venv (python 3.11 with `pip install bpy==5.0.1`): Blender is not compared");
        return;
    };
    let out = rigged_with_control();
    let rig = out.sidecar.control.as_ref().unwrap();
    let dir = common::tmpdir();
    let glb = dir.path().join("rig.glb");
    rigsmith::io::write_character(&glb, &out.character, &Default::default()).unwrap();
    let script = dir.path().join("rig.control.py");
    std::fs::write(&script, control::blender::script(rig)).unwrap();
    let ev = Evaluator::new(rig).unwrap();
    let poses = random_poses(rig, 20);
    let mut items = Vec::new();
    for p in &poses {
        let mut m = Vec::new();
        ev.evaluate(&ev.channels(p).unwrap(), &mut m);
        let expected: BTreeMap<&str, Vec<f32>> = ev
            .deform()
            .iter()
            .map(|&i| (rig.bones[i].name.as_str(), m[i].to_cols_array().to_vec()))
            .collect();
        items.push(serde_json::json!({"bones": p.bones, "props": p.props, "expected": expected}));
    }
    let props: BTreeMap<&str, f32> = rig
        .properties
        .iter()
        .map(|p| (p.name.as_str(), p.default))
        .collect();
    let poses_path = dir.path().join("poses.json");
    std::fs::write(&poses_path, serde_json::json!({"height": rig.height, "settings": rig.settings, "properties": props, "poses": items}).to_string()).unwrap();
    let result = dir.path().join("result.json");
    let bench = common_repo_root().join("bench/control_blender.py");
    let o = std::process::Command::new(&py)
        .arg(&bench)
        .args([&glb, &script, &poses_path, &result])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&result).unwrap()).unwrap();
    println!(
        "blender: {}",
        serde_json::to_string_pretty(&r["per_pose"]).unwrap()
    );
    assert_eq!(
        r["script_errors"].as_array().unwrap().len(),
        0,
        "{}",
        r["script_errors"]
    );
    assert_eq!(r["cycles"].as_array().unwrap().len(), 0, "{}", r["cycles"]);
    assert_eq!(r["poses"], 20);
    // Every deform bone within 1e-4 H. The IK chains included: the script warm-starts
    // each chain from a hidden copy's solve, so Blender's iterative solver ends on the
    // closed form (from rest it stops up to 5e-5 H short of the goal).
    let chain: Vec<&str> = rig
        .bones
        .iter()
        .filter(|b| b.role == BoneRole::Def)
        .filter(|b| {
            b.constraints.iter().any(|c| match &c.kind {
                Kind::CopyTransforms { target, .. } => {
                    ["MCH-upperarm.", "MCH-lowerarm.", "MCH-thigh.", "MCH-calf."]
                        .iter()
                        .any(|p| target.starts_with(p))
                }
                _ => false,
            })
        })
        .map(|b| b.name.as_str())
        .collect();
    let (mut other, mut in_chain) = (0.0f64, 0.0f64);
    for p in r["per_pose"].as_array().unwrap() {
        for (bone, e) in p["errors_h"].as_object().unwrap() {
            let e = e.as_f64().unwrap();
            if chain.contains(&bone.as_str()) {
                in_chain = in_chain.max(e);
            } else {
                other = other.max(e);
            }
        }
    }
    let most = |key: &str| {
        r["per_pose"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p[key].as_f64().unwrap())
            .fold(0.0, f64::max)
    };
    println!(
        "Blender vs evaluator over 20 poses: {other:.2e} H off the IK chains, {in_chain:.2e} H on them; Blender's IK residual {:.2e} H after the warm start, {:.2e} H from rest; worst {}",
        most("ik_residual_h"),
        most("first_solve_residual_h"),
        r["worst"]
    );
    assert!(
        other.max(in_chain) < 1e-4,
        "Blender vs evaluator: {other} H off the IK chains, {in_chain} H on them"
    );
}

fn common_repo_root() -> std::path::PathBuf {
    rigsmith_testdata::repo_root()
}
