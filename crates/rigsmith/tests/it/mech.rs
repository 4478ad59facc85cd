//! Mechanical characters: the procedural robot, rigid islands, the rigid check and its
//! positive control, interpenetration at rest reported, action-driven parts.

use rigsmith::mannequin::robot;
use rigsmith::mech::{
    bind_islands, half_travel_ratio, islands, rest_overlaps, rigid_check, RIGID_TOL,
};
use rigsmith::{Character, Influence};

fn bound_robot() -> Character {
    let (mut c, own) = robot::build(1.8);
    let s = c.skeleton.clone().unwrap();
    let w = bind_islands(&c, &s, &own);
    for (p, w) in c.parts.iter_mut().zip(w) {
        p.weights = Some(w);
    }
    c
}

/// Asserts every vertex of island `i` is on one bone at 1.0; returns the bone.
fn one_bone(c: &Character, i: &rigsmith::mech::Island) -> u32 {
    let w = c.parts[i.part].weights.as_ref().unwrap();
    let b = w.vertices[i.vertices[0] as usize][0].bone;
    for &v in &i.vertices {
        assert_eq!(
            w.vertices[v as usize],
            vec![Influence {
                bone: b,
                weight: 1.0
            }],
            "{}#{}",
            c.parts[i.part].name,
            i.index
        );
    }
    b
}

#[test]
fn every_robot_island_gets_one_bone_at_full_weight() {
    let c = bound_robot();
    let s = c.skeleton.as_ref().unwrap();
    let isl = islands(&c);
    // body: 3 blocks + 2 x 5 limb blocks; visor 1; plates 2; hinges 4; pistons 4.
    assert_eq!(isl.len(), 13 + 1 + 2 + 4 + 4);
    for i in &isl {
        one_bone(&c, i);
    }
    // Own bones: the visor on `visor`, the left piston's cylinder on `piston_l`, its rod
    // on the calf.
    let bone_of = |part: usize, island: usize| {
        let i = isl
            .iter()
            .find(|x| x.part == part && x.index == island)
            .unwrap();
        let b = c.parts[part].weights.as_ref().unwrap().vertices[i.vertices[0] as usize][0].bone;
        s.bones[b as usize].name.clone()
    };
    assert_eq!(bone_of(1, 0), "visor");
    assert_eq!(bone_of(4, 0), "piston_l");
    assert_eq!(bone_of(4, 1), "calf_l");
    // The left shoulder plate rides the nearest deform bone: the upper arm.
    assert_eq!(bone_of(2, 0), "upperarm_l");
}

#[test]
fn every_robot_island_stays_rigid_in_every_test_pose() {
    let c = bound_robot();
    let s = c.skeleton.as_ref().unwrap();
    let poses = robot::poses(s);
    assert_eq!(poses.len(), 6);
    let (check, per) = rigid_check(&c, s, &poses);
    assert!(check.passed, "{}", check.detail);
    assert!(per[0].strain < RIGID_TOL, "{:?}", per[0]);
    // The poses do move the pieces (the check is not judging a rest pose).
    let m = rigsmith::pose::posed_matrices(s, &poses[0].pose);
    let calf = s.find("calf_l").unwrap();
    let p = s.bones[calf].tail;
    assert!((m[calf].transform_point3(p) - p).length() > 0.1);
}

#[test]
fn a_plate_split_between_two_bones_fails_the_rigid_check() {
    let mut c = bound_robot();
    let s = c.skeleton.clone().unwrap();
    let (thigh, calf) = (
        s.find("thigh_l").unwrap() as u32,
        s.find("calf_l").unwrap() as u32,
    );
    // The left thigh plate (body island 5): half its vertices moved to the calf.
    let isl = islands(&c);
    let plate = isl
        .iter()
        .find(|i| i.part == 0 && i.index == 5)
        .unwrap()
        .clone();
    let w = c.parts[0].weights.as_mut().unwrap();
    assert_eq!(w.vertices[plate.vertices[0] as usize][0].bone, thigh);
    for &v in plate.vertices.iter().step_by(2) {
        w.vertices[v as usize] = vec![Influence {
            bone: calf,
            weight: 1.0,
        }];
    }
    let (check, per) = rigid_check(&c, &s, &robot::poses(&s));
    assert!(!check.passed, "{}", check.detail);
    assert_eq!(per[0].part, "body");
    assert!(per[0].strain > 0.05, "{:?}", per[0]);
}

#[test]
fn a_piston_rod_inside_its_cylinder_is_reported_at_rest_without_failing() {
    let c = bound_robot();
    let notes = rest_overlaps(&c);
    // Each rod enters its cylinder by 0.01 H: both pistons are named.
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("pistons#1 inside pistons#0")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("pistons#3 inside pistons#2")),
        "{notes:?}"
    );
    // The rig is still rigid: reporting an overlap is not a failure.
    let s = c.skeleton.as_ref().unwrap();
    assert!(rigid_check(&c, s, &robot::poses(s)).0.passed);
}

#[test]
fn half_the_lever_travel_gives_half_the_rotation() {
    let a = robot::visor_action(1.8);
    let r = half_travel_ratio(&a);
    assert_eq!(r.len(), 3);
    for (b, x) in r {
        assert!((x - 0.5).abs() < 1e-5, "{b}: {x}");
    }
    // Evaluated on the skeleton: the visor's tail moves exactly half the angle.
    let (c, _) = robot::build(1.8);
    let s = c.skeleton.as_ref().unwrap();
    let v = s.find("visor").unwrap();
    let angle = |f: f32| {
        let mut p = rigsmith::pose::Pose::rest(s);
        a.apply(s, &mut p, f * a.travel);
        p.rotations[v].to_axis_angle().1.to_degrees()
    };
    assert!((angle(1.0) - 70.0).abs() < 1e-3, "{}", angle(1.0));
    assert!((angle(0.5) - 35.0).abs() < 1e-3, "{}", angle(0.5));
    // Beyond the travel it stays at full.
    assert!((angle(2.0) - 70.0).abs() < 1e-3);
    let json = serde_json::to_string(&a).unwrap();
    let back: rigsmith::mech::Action = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
}

/// The robot rigged by `rig` as a mechanical character (its own skeleton, its visor
/// action).
fn rigged_robot() -> rigsmith::RigOutput {
    let (c, own) = robot::build(1.8);
    let spec = rigsmith::mech::MechSpec::of(&c, &own, vec![robot::visor_action(1.8)]);
    let o = rigsmith::RigOptions {
        mech: Some(spec),
        self_intersections: false,
        ..Default::default()
    };
    rigsmith::rig(&c, &o, &mut |_, _| {}).expect("rig the robot")
}

#[test]
fn rig_binds_every_robot_island_to_one_bone_its_own_when_it_moves_on_its_own() {
    let out = rigged_robot();
    let c = &out.character;
    let s = c.skeleton.as_ref().unwrap();
    let isl = islands(c);
    assert_eq!(isl.len(), 24);
    let bone_of = |part: &str, island: usize| {
        let pi = c.find_part(part).unwrap();
        let i = isl
            .iter()
            .find(|x| x.part == pi && x.index == island)
            .unwrap();
        s.bones[one_bone(c, i) as usize].name.clone()
    };
    assert_eq!(bone_of("visor", 0), "visor");
    assert_eq!(bone_of("pistons", 0), "piston_l");
    assert_eq!(bone_of("pistons", 1), "calf_l");
    assert_eq!(bone_of("plates", 0), "upperarm_l");
    assert!(
        out.route_text().starts_with("mechanical"),
        "{}",
        out.route_text()
    );
}

#[test]
fn rig_reviews_the_robot_rigid_in_every_test_pose_and_reports_rest_overlaps() {
    let out = rigged_robot();
    let r = out.review.as_ref().expect("review");
    let k = r
        .checks
        .iter()
        .find(|k| k.id == "mech.rigid")
        .expect("mech.rigid");
    assert!(k.passed, "{}", k.detail);
    assert!(k.value < RIGID_TOL, "{}", k.value);
    // Every bent bone and the action at half and full travel: 14 + 2 poses.
    let s = out.character.skeleton.as_ref().unwrap();
    let poses = rigsmith::mech::test_poses(s, &out.sidecar.mech.as_ref().unwrap().actions);
    assert!(poses.len() >= 14, "{}", poses.len());
    assert!(
        k.detail.contains(&format!("over {} poses", poses.len())),
        "{}",
        k.detail
    );
    // The piston rods inside their cylinders: reported, not failed.
    assert!(
        out.notes
            .iter()
            .any(|n| n.contains("interpenetrate at rest")
                && n.contains("pistons#1 inside pistons#0")),
        "{:?}",
        out.notes
    );
}

#[test]
fn the_robot_action_is_stored_in_the_sidecar_and_half_travel_gives_half_the_rotation() {
    let out = rigged_robot();
    let text = out.sidecar.to_string();
    let back: rigsmith::parts::Sidecar = serde_json::from_str(&text).expect("sidecar json");
    let mech = back.mech.expect("mech in the sidecar");
    assert_eq!(mech.own.len(), 5);
    let a = &mech.actions[0];
    assert_eq!(a.name, "visor_open");
    let s = out.character.skeleton.as_ref().unwrap();
    // Evaluated from the read sidecar: each driven bone turns exactly half at half travel.
    for key in &a.keys {
        let i = s.find(&key.bone).unwrap();
        let angle = |f: f32| {
            let mut p = rigsmith::pose::Pose::rest(s);
            a.apply(s, &mut p, f * a.travel);
            p.rotations[i].to_axis_angle().1.to_degrees()
        };
        let (half, full) = (angle(0.5), angle(1.0));
        assert!(
            (full - key.degrees.abs()).abs() < 1e-3,
            "{}: {full}",
            key.bone
        );
        assert!(
            (half - 0.5 * full).abs() < 1e-4,
            "{}: {half} of {full}",
            key.bone
        );
    }
}

#[test]
fn a_mechanical_rig_without_a_skeleton_is_refused() {
    let (mut c, own) = robot::build(1.8);
    let spec = rigsmith::mech::MechSpec::of(&c, &own, vec![]);
    c.skeleton = None;
    let o = rigsmith::RigOptions {
        mech: Some(spec),
        ..Default::default()
    };
    let e = rigsmith::rig(&c, &o, &mut |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("own skeleton"), "{e}");
}

#[test]
fn the_robot_review_is_its_own_not_the_biped_rubric() {
    let out = rigged_robot();
    let r = out.review.as_ref().expect("review");
    let ids: Vec<&str> = r.checks.iter().map(|k| k.id.as_str()).collect();
    assert!(ids.contains(&"mech.rigid") && ids.contains(&"mech.action.visor_open"));
    // No skin or garment checks on rigid islands: no false far-bone blocker, no
    // garment majors on the pistons or the visor.
    assert!(
        !ids.iter()
            .any(|i| i.contains("far_bone") || i.contains("garment") || i.starts_with("deform.")),
        "{ids:?}"
    );
    let failed: Vec<&str> = r
        .checks
        .iter()
        .filter(|k| !k.passed)
        .map(|k| k.id.as_str())
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    // Its poses are the mechanical test poses; every part is rigid.
    let s = out.character.skeleton.as_ref().unwrap();
    let spec = out.sidecar.mech.as_ref().unwrap();
    assert_eq!(
        r.poses.len(),
        rigsmith::mech::test_poses(s, &spec.actions).len()
    );
    assert!(r.parts.iter().all(|p| p.class == "rigid"));
    assert!(r.route.starts_with("mechanical"), "{}", r.route);
}

#[test]
fn an_action_keyed_on_a_missing_bone_or_turning_nothing_fails_its_check() {
    let out = rigged_robot();
    let c = &out.character;
    let mut spec = out.sidecar.mech.clone().unwrap();
    let o = rigsmith::review::CheckOptions::default();
    let action = |spec: &rigsmith::mech::MechSpec| {
        rigsmith::review::mech::check_report(c, spec, &o)
            .unwrap()
            .get("mech.action.visor_open")
            .cloned()
            .unwrap()
    };
    assert!(action(&spec).passed);
    assert!(action(&spec).value < rigsmith::review::mech::ACTION_TOL);
    spec.actions[0].keys[1].bone = "no_such_bone".into();
    let k = action(&spec);
    assert!(
        !k.passed && k.detail.contains("no_such_bone"),
        "{}",
        k.detail
    );
    let mut spec = out.sidecar.mech.clone().unwrap();
    spec.actions[0].keys[0].degrees = 0.0;
    let k = action(&spec);
    assert!(!k.passed && k.detail.contains("0 deg"), "{}", k.detail);
}
