//! Deformation fixes: twist chains in the `game` template by default, weights that
//! follow them, their follow rules (sidecar, VRM) and the review applying the rules.

use std::sync::OnceLock;

use glam::{Quat, Vec3};
use rigsmith::deform::{apply_twist_rules, twist_rules, TwistKind};
use rigsmith::humanoid::Roles;
use rigsmith::pose::{default_library, ops, Pose};
use rigsmith::review::{check, CheckOptions, CheckReport};
use rigsmith::{RigOptions, RigOutput};

fn demo() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| {
        let c = rigsmith::mannequin::build(&Default::default());
        let o = RigOptions {
            review: false,
            ..RigOptions::default()
        };
        rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
    })
}

fn skel() -> &'static rigsmith::Skeleton {
    demo().character.skeleton.as_ref().unwrap()
}

/// The review of the demo in the named poses, with or without the twist rules.
fn review(poses: &[&str], rules: bool) -> CheckReport {
    let (lib, _) = default_library(skel());
    let lib = lib
        .into_iter()
        .filter(|p| poses.contains(&p.name.as_str()))
        .collect();
    check(
        &demo().character,
        &CheckOptions {
            library: Some(lib),
            self_intersections: false,
            twist_rules: rules,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

fn value(r: &CheckReport, id: &str) -> f64 {
    r.get(id).unwrap_or_else(|| panic!("no check {id}")).value
}

/// The angle (deg) of bone `i`'s own rotation in `p` about its Y axis.
fn own_roll_deg(p: &Pose, i: usize) -> f32 {
    rigsmith::deform::twist::twist_angle(p.rotations[i], Vec3::Y).to_degrees()
}

#[test]
fn the_game_template_has_one_twist_bone_per_limb_segment_by_default() {
    let s = skel();
    for n in [
        "upperarm_twist_01_l",
        "lowerarm_twist_01_r",
        "thigh_twist_01_l",
        "calf_twist_01_r",
    ] {
        assert!(s.find(n).is_some(), "{n} missing");
    }
    let rules = &demo().sidecar.twist_rules;
    assert_eq!(rules.len(), 8, "{rules:?}");
    let lt = rules
        .iter()
        .find(|r| r.bone == "lowerarm_twist_01_l")
        .unwrap();
    assert_eq!(
        (lt.kind, lt.source.as_str(), lt.limb.as_str()),
        (TwistKind::Distal, "hand_l", "lowerarm_l")
    );
    assert!((lt.weight - 0.75).abs() < 1e-3, "{lt:?}");
    let ut = rules
        .iter()
        .find(|r| r.bone == "thigh_twist_01_r")
        .unwrap();
    assert_eq!((ut.kind, ut.source.as_str()), (TwistKind::Proximal, "pelvis"));
    assert!((ut.weight - 0.75).abs() < 1e-3 && (ut.at - 0.25).abs() < 1e-3, "{ut:?}");
    // The sidecar's rules are the ones the skeleton gives.
    assert_eq!(*rules, twist_rules(s, &Roles::of(s, None)));
}

#[test]
fn a_distal_twist_bone_takes_its_share_of_the_hands_roll() {
    let s = skel();
    let rules = twist_rules(s, &Roles::of(s, None));
    for side in ["l", "r"] {
        let hand = s.find(&format!("hand_{side}")).unwrap();
        let tw = s.find(&format!("lowerarm_twist_01_{side}")).unwrap();
        // The hand turned 80 deg about the forearm's axis (a pronation).
        let mut p = Pose::rest(s);
        ops::rotate_world(s, &mut p, hand, s.bones[tw].y_axis(), 80.0);
        let q = apply_twist_rules(s, &rules, &p);
        let roll = own_roll_deg(&q, tw);
        eprintln!("{side}: twist bone {roll:.2}");
        assert!((roll - 0.75 * 80.0).abs() < 0.5, "{roll}");
        // Without the rules the twist bone stays at rest under its forearm.
        assert_eq!(own_roll_deg(&p, tw), 0.0);
    }
}

#[test]
fn a_proximal_twist_bone_cancels_its_share_of_the_limbs_roll() {
    let s = skel();
    let rules = twist_rules(s, &Roles::of(s, None));
    let ua = s.find("upperarm_l").unwrap();
    let tw = s.find("upperarm_twist_01_l").unwrap();
    let mut p = Pose::rest(s);
    ops::twist(s, &mut p, ua, 60.0);
    let q = apply_twist_rules(s, &rules, &p);
    // Its world roll is the limb's 60 minus 0.75 of it: a quarter, as its place.
    let world = rigsmith::pose::world_matrices(s, &q);
    let rest = s.rest_matrices();
    let rel = Quat::from_mat4(&(rest[tw].inverse() * world[tw])).normalize();
    let roll = rigsmith::deform::twist::twist_angle(rel, Vec3::Y).to_degrees();
    assert!((roll.abs() - 15.0).abs() < 0.5, "world roll {roll}");
    // A swing of the limb is not cancelled: its roll part is 0.
    let mut p = Pose::rest(s);
    let swing_axis = s.bones[ua].y_axis().cross(Vec3::Y).normalize();
    ops::rotate_world(s, &mut p, ua, swing_axis, 40.0);
    let q = apply_twist_rules(s, &rules, &p);
    assert!(own_roll_deg(&q, tw).abs() < 0.5);
}

#[test]
fn weights_along_the_forearm_follow_the_twist_chain() {
    let c = &demo().character;
    let s = skel();
    let body = &c.parts[0];
    let w = body.weights.as_ref().unwrap();
    let (la, tw) = (
        s.find("lowerarm_l").unwrap() as u32,
        s.find("lowerarm_twist_01_l").unwrap() as u32,
    );
    let (a, b) = (s.bones[la as usize].head, s.bones[la as usize].tail);
    // The twist bone's share of the forearm's weight, in thirds of the forearm.
    let mut sum = [0.0f32; 3];
    let mut n = [0usize; 3];
    for (v, p) in body.mesh.positions.iter().enumerate() {
        let t = (*p - a).dot(b - a) / (b - a).length_squared();
        let (wl, wt) = (w.get(v, la), w.get(v, tw));
        if !(0.0..1.0).contains(&t) || wl + wt < 0.5 {
            continue;
        }
        let k = ((t * 3.0) as usize).min(2);
        sum[k] += wt / (wl + wt);
        n[k] += 1;
    }
    let share: Vec<f32> = (0..3).map(|k| sum[k] / n[k].max(1) as f32).collect();
    eprintln!("twist share by third: {share:?} ({n:?} vertices)");
    assert!(n.iter().all(|&k| k > 10), "{n:?}");
    assert!(share[0] < 0.3 && share[1] > 0.4 && share[2] > 0.9, "{share:?}");
}

#[test]
fn the_twist_rules_keep_the_wrist_from_the_candy_wrapper() {
    let poses = ["wrist_twist_80.L", "wrist_twist_80.R"];
    let on = review(&poses, true);
    let off = review(&poses, false);
    for side in ["L", "R"] {
        let id = format!("deform.wrist_twist_80.{side}.band");
        let (a, b) = (value(&off, &id), value(&on, &id));
        eprintln!("{id}: {a:.3} without the rules, {b:.3} with");
        assert!(b > a + 0.05, "{id}: {a} -> {b}");
    }
    assert!(on.route.contains("twist rules (8 twist bones"), "{}", on.route);
    assert!(off.route.starts_with("runtime model: plain LBS;"), "{}", off.route);
}
