//! Poses: world-term ops, forward kinematics, LBS and DQS, role names, the library.

use glam::{Quat, Vec3};
use rigsmith::humanoid::{Role, Roles};
use rigsmith::model::naming::Side;
use rigsmith::model::{Bone, Influence, Skeleton, Weights};
use rigsmith::pose::{default_library, ops, posed_matrices, skin_dqs, skin_lbs, Pose};

use crate::review::mh;

fn arm(angle_deg: f32) -> Skeleton {
    // Shoulder at the origin, arm going out and down by `angle_deg` (0 = T-pose).
    let d = Quat::from_rotation_z(-angle_deg.to_radians()) * Vec3::X;
    let root = Bone::new("pelvis", None, Vec3::new(0.0, -1.0, 0.0), Vec3::ZERO);
    let ua = Bone::new("upperarm_l", Some(0), Vec3::ZERO, d * 0.3);
    let mut fa = Bone::new("lowerarm_l", Some(1), d * 0.3, d * 0.6);
    fa.x_axis = d.cross(Vec3::Z).normalize();
    Skeleton {
        bones: vec![root, ua, fa],
    }
}

#[test]
fn aim_down_works_on_t_and_a_pose() {
    for a in [0.0, 45.0] {
        let s = arm(a);
        let mut p = Pose::rest(&s);
        ops::aim(&s, &mut p, 1, Vec3::NEG_Y);
        let m = posed_matrices(&s, &p);
        let hand = m[2].transform_point3(s.bones[2].tail);
        assert!(
            (hand - Vec3::new(0.0, -0.6, 0.0)).length() < 1e-4,
            "{a}: {hand}"
        );
    }
}

#[test]
fn hinge_bends_toward_the_front_and_a_rolled_hinge_does_not() {
    let s = arm(0.0);
    let mut p = Pose::rest(&s);
    ops::hinge(&s, &mut p, 2, 90.0, Vec3::Z);
    let m = posed_matrices(&s, &p);
    let tip = m[2].transform_point3(s.bones[2].tail);
    assert!((tip - Vec3::new(0.3, 0.0, 0.3)).length() < 1e-4, "{tip}");
    assert!(ops::hinge_alignment(&s, 2, Vec3::Z) > 0.999);
    let mut r = s.clone();
    r.bones[2].x_axis = Vec3::Z; // rolled 90 deg
    assert!(ops::hinge_alignment(&r, 2, Vec3::Z) < 1e-4);
    let mut p = Pose::rest(&r);
    ops::hinge(&r, &mut p, 2, 90.0, Vec3::Z);
    let tip = posed_matrices(&r, &p)[2].transform_point3(r.bones[2].tail);
    assert!(tip.z.abs() < 1e-4, "a rolled hinge bends sideways: {tip}");
}

#[test]
fn lbs_collapses_a_twist_and_dqs_does_not() {
    let s = arm(0.0);
    let mut p = Pose::rest(&s);
    ops::twist(&s, &mut p, 2, 180.0);
    let m = posed_matrices(&s, &p);
    // A vertex on the forearm surface at the elbow, half upper arm, half forearm.
    let v = Vec3::new(0.3, 0.05, 0.0);
    let w = Weights {
        vertices: vec![vec![
            Influence {
                bone: 1,
                weight: 0.5,
            },
            Influence {
                bone: 2,
                weight: 0.5,
            },
        ]],
    };
    let l = skin_lbs(&[v], &w, &m)[0];
    let d = skin_dqs(&[v], &w, &m)[0];
    assert!(
        (l - Vec3::new(0.3, 0.0, 0.0)).length() < 1e-4,
        "LBS collapses onto the axis: {l}"
    );
    assert!(
        ((d - Vec3::new(0.3, 0.0, 0.0)).length() - 0.05).abs() < 1e-4,
        "DQS keeps the radius: {d}"
    );
    assert!(Pose::rest(&s).is_rest() && !p.is_rest());
}

#[test]
fn move_and_rotate_world() {
    let s = arm(0.0);
    let mut p = Pose::rest(&s);
    ops::move_by(&s, &mut p, 0, Vec3::new(0.0, 0.1, 0.0), 2.0);
    ops::rotate_world(&s, &mut p, 1, Vec3::Y, 90.0);
    let m = posed_matrices(&s, &p);
    let tip = m[2].transform_point3(s.bones[2].tail);
    assert!((tip - Vec3::new(0.0, 0.2, -0.6)).length() < 1e-4, "{tip}");
}

#[test]
fn names_of_every_convention() {
    let names = |ns: &[&str]| {
        let mut bones = Vec::new();
        for (i, n) in ns.iter().enumerate() {
            bones.push(Bone::new(
                *n,
                if i == 0 { None } else { Some(0) },
                Vec3::ZERO,
                Vec3::Y,
            ));
        }
        Roles::of(&Skeleton { bones }, None)
    };
    let cases: [(&[&str], &str); 5] = [
        (
            &["pelvis", "upperarm_l", "lowerarm_l", "calf_r", "thigh_r"],
            "game_engine",
        ),
        (
            &[
                "mixamorig:Hips",
                "mixamorig:LeftArm",
                "mixamorig:LeftForeArm",
                "mixamorig:RightLeg",
                "mixamorig:RightUpLeg",
            ],
            "mixamo",
        ),
        (
            &[
                "DEF-spine",
                "DEF-upper_arm.L",
                "DEF-forearm.L",
                "DEF-shin.R",
                "DEF-thigh.R",
            ],
            "rigify",
        ),
        (
            &[
                "hips",
                "leftUpperArm",
                "leftLowerArm",
                "rightLowerLeg",
                "rightUpperLeg",
            ],
            "vrm",
        ),
        (
            &[
                "J_Bip_C_Hips",
                "J_Bip_L_UpperArm",
                "J_Bip_L_LowerArm",
                "J_Bip_R_LowerLeg",
                "J_Bip_R_UpperLeg",
            ],
            "vroid",
        ),
    ];
    for (ns, what) in cases {
        let r = names(ns);
        assert_eq!(r.get(Role::UpperArm(Side::Left)), Some(1), "{what}");
        assert_eq!(r.get(Role::Forearm(Side::Left)), Some(2), "{what}");
        assert_eq!(r.get(Role::Calf(Side::Right)), Some(3), "{what}");
        assert_eq!(r.get(Role::Thigh(Side::Right)), Some(4), "{what}");
        assert!(
            r.unknown.iter().any(|u| u.starts_with("hand.L")),
            "{what}: unknown roles are said"
        );
    }
    // Rigify's pelvis is DEF-spine: found as the thighs' common ancestor.
    let r = names(&["DEF-spine", "DEF-thigh.L", "DEF-thigh.R"]);
    assert_eq!(r.get(Role::Pelvis), Some(0));
}

#[test]
fn default_library_on_makehuman() {
    let c = mh::character(&crate::common::mpfb2_dir(), "game_engine");
    let (lib, skipped) = default_library(c.skeleton.as_ref().unwrap());
    let names: Vec<&str> = lib.iter().map(|p| p.name.as_str()).collect();
    for n in [
        "arm_down.L",
        "elbow_120.R",
        "wrist_twist_80.L",
        "knee_120.L",
        "squat",
        "spine_twist",
        "head_nod",
        "fist.R",
    ] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    assert_eq!(lib.len(), 25);
    assert_eq!(
        skipped,
        vec!["jaw_open: the rig has no jaw bone".to_string()]
    );
    // The squat keeps the ankles at their rest height.
    let s = c.skeleton.as_ref().unwrap();
    let sq = lib.iter().find(|p| p.name == "squat").unwrap();
    let m = posed_matrices(s, &sq.pose);
    let f = s.find("foot_l").unwrap();
    let dy = m[f].transform_point3(s.bones[f].head).y - s.bones[f].head.y;
    assert!(dy.abs() < 1e-3, "ankle moved {dy}");
    // Elbow 120 bends the forearm to the front (+Z) on an A-pose body.
    let e = lib.iter().find(|p| p.name == "elbow_120.L").unwrap();
    let m = posed_matrices(s, &e.pose);
    let h = s.find("hand_l").unwrap();
    let moved = m[h].transform_point3(s.bones[h].head) - s.bones[h].head;
    assert!(moved.z > 0.02, "{moved}");
    let ua = s.find("upperarm_l").unwrap();
    let fa = s.find("lowerarm_l").unwrap();
    let dir = |i: usize| {
        (m[i].transform_point3(s.bones[i].tail) - m[i].transform_point3(s.bones[i].head))
            .normalize()
    };
    let flex = dir(ua).dot(dir(fa)).acos().to_degrees();
    assert!((flex - 120.0).abs() < 3.0, "elbow flexion {flex}");
}
