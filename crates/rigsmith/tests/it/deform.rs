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
    let ut = rules.iter().find(|r| r.bone == "thigh_twist_01_r").unwrap();
    assert_eq!(
        (ut.kind, ut.source.as_str()),
        (TwistKind::Proximal, "pelvis")
    );
    assert!(
        (ut.weight - 0.75).abs() < 1e-3 && (ut.at - 0.25).abs() < 1e-3,
        "{ut:?}"
    );
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
    assert!(
        share[0] < 0.3 && share[1] > 0.4 && share[2] > 0.9,
        "{share:?}"
    );
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
        // Measured on the demo: L 0.778 -> 0.805, R 0.806 -> 0.803 (the demo's right
        // hand bone points off the forearm); the 0.9 band is not reached with one
        // twist bone.
        if side == "L" {
            assert!(b > a + 0.02, "{id}: {a} -> {b}");
        } else {
            assert!(b > a - 0.01, "{id}: {a} -> {b}");
        }
    }
    assert!(
        on.route.contains("twist rules (8 twist bones"),
        "{}",
        on.route
    );
    assert!(
        off.route.starts_with("runtime model: plain LBS;"),
        "{}",
        off.route
    );
}

fn corrective(name: &str) -> &'static rigsmith::deform::correctives::Corrective {
    demo()
        .sidecar
        .correctives
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no corrective {name}"))
}

fn library_with_rules() -> Vec<rigsmith::pose::NamedPose> {
    let s = skel();
    let (lib, _) = default_library(s);
    rigsmith::deform::twist::library_with_rules(s, &twist_rules(s, &Roles::of(s, None)), lib)
}

#[test]
fn correctives_are_zero_at_rest_one_at_their_pose_and_late_between() {
    let s = skel();
    let names: Vec<&str> = demo()
        .sidecar
        .correctives
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    assert_eq!(names, ALL_CORRECTIVES);
    let lib = library_with_rules();
    let pose = |n: &str| &lib.iter().find(|p| p.name == n).unwrap().pose;
    let k = corrective("CS_elbow_l");
    assert_eq!(k.driver.value(s, &Pose::rest(s)), 0.0);
    assert!((k.driver.value(s, pose("elbow_120.L")) - 1.0).abs() < 1e-6);
    let mid = k.driver.ramp(70.0);
    assert!((mid - 0.4).abs() < 0.06, "{mid}");
    assert_eq!(k.driver.ramp(20.0), 0.0);
    assert_eq!(k.driver.ramp(170.0), 1.0);
    // Its own side only: the right elbow's pose leaves it at 0.
    assert_eq!(k.driver.value(s, pose("elbow_120.R")), 0.0);
    assert_eq!(
        corrective("CS_elbow_r")
            .driver
            .value(s, pose("elbow_120.L")),
        0.0
    );
    // The shoulder's two shapes: each 1 in its own pose, 0 in the other and at rest.
    let (up, down) = (corrective("CS_arm_up_l"), corrective("CS_arm_down_l"));
    assert!((up.driver.value(s, pose("arm_up.L")) - 1.0).abs() < 1e-3);
    assert!((down.driver.value(s, pose("arm_down.L")) - 1.0).abs() < 1e-3);
    assert_eq!(up.driver.value(s, pose("arm_down.L")), 0.0);
    assert_eq!(down.driver.value(s, pose("arm_up.L")), 0.0);
    assert_eq!(up.driver.value(s, &Pose::rest(s)), 0.0);
    assert_eq!(up.driver.value(s, pose("arm_up.R")), 0.0);
    let hip = corrective("CS_leg_forward_l");
    assert!((hip.driver.value(s, pose("leg_forward.L")) - 1.0).abs() < 1e-3);
    assert_eq!(hip.driver.value(s, pose("leg_forward.R")), 0.0);
}

/// Every corrective of the demo, in the sidecar's order.
const ALL_CORRECTIVES: [&str; 10] = [
    "CS_elbow_l",
    "CS_knee_l",
    "CS_arm_up_l",
    "CS_arm_down_l",
    "CS_leg_forward_l",
    "CS_elbow_r",
    "CS_knee_r",
    "CS_arm_up_r",
    "CS_arm_down_r",
    "CS_leg_forward_r",
];

#[test]
fn the_left_corrective_moves_no_right_side_vertex_and_holds_no_nan() {
    let c = &demo().character;
    let body = &c.parts[0];
    for name in [
        "CS_elbow_l",
        "CS_knee_l",
        "CS_arm_up_l",
        "CS_arm_down_l",
        "CS_leg_forward_l",
    ] {
        let mt = body.morphs.iter().find(|m| m.name == name).unwrap();
        let moved = mt
            .position_deltas
            .iter()
            .filter(|d| d.length() > 0.0)
            .count();
        assert!(moved > 100, "{name}: {moved}");
        assert!(mt.position_deltas.iter().all(|d| d.is_finite()));
        for (p, d) in body.mesh.positions.iter().zip(&mt.position_deltas) {
            if p.x < 0.0 {
                assert_eq!(*d, Vec3::ZERO, "{name} moves a right-side vertex at {p}");
            }
        }
    }
}

/// The rubric's corrective checks on the demo's skin with the correctives `list`.
fn corrective_checks(
    c: &rigsmith::Character,
    list: &[rigsmith::deform::correctives::Corrective],
) -> Vec<rigsmith::Check> {
    let (view, _) = rigsmith::review::rubric::skin_view(c).unwrap();
    let h = c.height();
    let mut skipped = Vec::new();
    rigsmith::review::correctives::corrective_checks(
        &view,
        list,
        &library_with_rules(),
        0.0,
        h,
        &mut skipped,
    )
}

fn passed(checks: &[rigsmith::Check], id: &str) -> bool {
    checks
        .iter()
        .find(|k| k.id == id)
        .unwrap_or_else(|| panic!("no check {id}"))
        .passed
}

#[test]
fn the_demo_correctives_pass_their_checks() {
    let checks = corrective_checks(&demo().character, &demo().sidecar.correctives);
    assert_eq!(checks.len(), 40);
    for k in &checks {
        eprintln!("{} = {:.3} ({})", k.id, k.value, k.detail);
        assert!(k.passed, "{k:?}");
    }
}

#[test]
fn a_corrective_on_the_wrong_side_fails_its_side_check() {
    // The left elbow's offsets declared as the right side's corrective.
    let mut k = corrective("CS_elbow_l").clone();
    k.side = rigsmith::Side::Right;
    let checks = corrective_checks(&demo().character, &[k]);
    assert!(!passed(&checks, "correctives.CS_elbow_l.own_side"));
    assert!(passed(&checks, "correctives.CS_elbow_l.rest"));
}

#[test]
fn a_corrective_that_fires_at_rest_fails_its_rest_check() {
    let mut k = corrective("CS_elbow_l").clone();
    k.driver.from_deg = 0.0;
    let checks = corrective_checks(&demo().character, &[k]);
    assert!(!passed(&checks, "correctives.CS_elbow_l.rest"));
}

#[test]
fn a_spiked_corrective_fails_its_smoothness_check() {
    let mut c = demo().character.clone();
    let h = c.height();
    let mt = c.parts[0]
        .morphs
        .iter_mut()
        .find(|m| m.name == "CS_elbow_l")
        .unwrap();
    let v = mt
        .position_deltas
        .iter()
        .position(|d| d.length() > 0.0)
        .unwrap();
    mt.position_deltas[v] += Vec3::Y * 0.05 * h;
    let checks = corrective_checks(&c, &[corrective("CS_elbow_l").clone()]);
    assert!(!passed(&checks, "correctives.CS_elbow_l.smooth"));
}

#[test]
fn the_correctives_restore_the_elbow_and_knee_bands() {
    let poses = ["elbow_120.L", "knee_120.L"];
    let (lib, _) = default_library(skel());
    let lib: Vec<_> = lib
        .into_iter()
        .filter(|p| poses.contains(&p.name.as_str()))
        .collect();
    let run = |correctives: Vec<_>| {
        check(
            &demo().character,
            &CheckOptions {
                library: Some(lib.clone()),
                self_intersections: false,
                dqs_blend: true,
                dqs_masks: demo().sidecar.dqs_blend.clone(),
                correctives,
                ..CheckOptions::default()
            },
        )
        .unwrap()
    };
    let off = run(Vec::new());
    let on = run(demo().sidecar.correctives.clone());
    for id in ["deform.elbow_120.L.band", "deform.knee_120.L.band"] {
        let (a, b) = (value(&off, id), value(&on, id));
        eprintln!("{id}: {a:.3} without correctives, {b:.3} with");
        assert!(b >= 0.85 && b > a, "{id}: {a} -> {b}");
    }
    assert!(on.route.contains("+ correctives (10)"), "{}", on.route);
}

#[test]
fn the_dqs_mask_covers_the_joints_and_a_rigid_part_gets_none() {
    let out = demo();
    let body = &out.character.parts[0];
    let mask = &out.sidecar.dqs_blend[&body.name];
    let n = body.mesh.positions.len();
    eprintln!("{} of {n} body vertices blend DQS in", mask.len());
    assert!(mask.len() > n / 20 && mask.len() < n, "{}", mask.len());
    assert!(mask.iter().all(|&(_, b)| b > 0.0 && b <= 1.0));
    // Positive control: one bone everywhere moves rigidly, DQS equals LBS: no mask.
    let s = skel();
    let rigid = rigsmith::Weights::rigid(n, s.find("lowerarm_l").unwrap() as u32);
    let poses: Vec<Pose> = library_with_rules().into_iter().map(|p| p.pose).collect();
    let m = rigsmith::deform::dqs_mask::dqs_mask(&body.mesh, &rigid, s, &poses, out.sidecar.height);
    assert!(m.iter().all(|&b| b == 0.0));
}

#[test]
fn the_exported_glb_validates_with_sparse_correctives_and_the_dqs_attribute() {
    let out = demo();
    let dir = crate::common::tmpdir();
    let path = dir.path().join("demo.glb");
    let wo = rigsmith::io::gltf::WriteOptions {
        vertex_attributes: out.vertex_attributes(),
        ..Default::default()
    };
    rigsmith::io::write_character(&path, &out.character, &wo).unwrap();
    let (errors, _) = crate::common::validate_gltf(&path);
    assert_eq!(errors, 0);
    let bytes = std::fs::read(&path).unwrap();
    let doc = rigsmith::io::gltf::load_doc(&bytes, &path).unwrap().json;
    let text = doc.to_string();
    assert!(text.contains("\"_DQS_BLEND\""));
    assert!(text.contains("\"sparse\""));
    assert!(text.contains("CS_elbow_l"));
    // Read back: the skin keeps its corrective targets.
    let back = rigsmith::io::read_character(&path).unwrap();
    let names: Vec<&str> = back.parts[0]
        .morphs
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ALL_CORRECTIVES);
    // The correctives add at most 15 % to the file.
    let mut bare = out.character.clone();
    for p in &mut bare.parts {
        p.morphs.clear();
    }
    let bare_path = dir.path().join("bare.glb");
    rigsmith::io::write_character(&bare_path, &bare, &wo).unwrap();
    let (a, b) = (
        std::fs::metadata(&bare_path).unwrap().len() as f64,
        bytes.len() as f64,
    );
    eprintln!(
        "file {b} bytes, {a} without correctives: +{:.1} %",
        100.0 * (b / a - 1.0)
    );
    assert!(b <= 1.15 * a, "{a} -> {b}");
}

#[test]
fn the_demo_passes_every_joint_band_with_the_fixes_on() {
    // Every pose with a joint limit, under the runtime the sidecar names: twist rules,
    // the preserve-volume mask and the correctives.
    let lib: Vec<_> = library_with_rules()
        .into_iter()
        .filter(|p| {
            p.tests
                .iter()
                .any(|t| t.band_min.is_some() || t.bulge_max.is_some())
        })
        .collect();
    let r = check(
        &demo().character,
        &CheckOptions {
            library: Some(lib),
            self_intersections: false,
            twist_rules: false,
            dqs_blend: true,
            dqs_masks: demo().sidecar.dqs_blend.clone(),
            correctives: demo().sidecar.correctives.clone(),
            ..CheckOptions::default()
        },
    )
    .unwrap();
    let joints: Vec<_> = r
        .checks
        .iter()
        .filter(|k| k.id.ends_with(".band") || k.id.ends_with(".bulge"))
        .collect();
    assert_eq!(joints.len(), 14);
    for k in joints {
        eprintln!("{} = {:.3} ({})", k.id, k.value, k.detail);
        assert!(k.passed, "{k:?}");
        assert!(k.detail.contains("without the fixes"), "{}", k.detail);
    }
}

/// A piece of a cut part: the part, its sparse preserve-volume mask, and each vertex's
/// index in the part it was cut from.
type Piece = (rigsmith::Part, Vec<(u32, f32)>, Vec<usize>);

/// Part `p` cut in two skin pieces, `NAME_arm` (the triangles whose centre lies past
/// `x`) and `NAME_rest`, every vertex with its weights and corrective offsets, the
/// mask `mask` (dense on `p`) split the same way; with each piece's vertex origins.
fn cut_in_two(p: &rigsmith::Part, x: f32, mask: &[f32]) -> Vec<Piece> {
    let arm = |t: &[u32; 3]| {
        t.iter()
            .map(|&v| p.mesh.positions[v as usize].x)
            .sum::<f32>()
            / 3.0
            > x
    };
    [("arm", true), ("rest", false)]
        .into_iter()
        .map(|(tag, side)| {
            let mut index = vec![u32::MAX; p.mesh.positions.len()];
            let mut origin = Vec::new();
            let mut tris = Vec::new();
            for t in p.mesh.triangles.iter().filter(|t| arm(t) == side) {
                tris.push(t.map(|v| {
                    if index[v as usize] == u32::MAX {
                        index[v as usize] = origin.len() as u32;
                        origin.push(v as usize);
                    }
                    index[v as usize]
                }));
            }
            let w = p.weights.as_ref().unwrap();
            let piece = rigsmith::Part {
                name: format!("{}_{tag}", p.name),
                material: p.material.clone(),
                mesh: rigsmith::Mesh {
                    positions: origin.iter().map(|&v| p.mesh.positions[v]).collect(),
                    triangles: tris,
                    normals: None,
                    uvs: None,
                },
                weights: Some(rigsmith::Weights {
                    vertices: origin.iter().map(|&v| w.vertices[v].clone()).collect(),
                }),
                morphs: p
                    .morphs
                    .iter()
                    .map(|m| rigsmith::MorphTarget {
                        name: m.name.clone(),
                        position_deltas: origin.iter().map(|&v| m.position_deltas[v]).collect(),
                        normal_deltas: None,
                    })
                    .collect(),
            };
            let dense: Vec<f32> = origin.iter().map(|&v| mask[v]).collect();
            (piece, rigsmith::deform::dqs_mask::sparse(&dense), origin)
        })
        .collect()
}

#[test]
fn a_skin_in_pieces_is_measured_and_drawn_with_its_preserve_volume_mask() {
    let out = demo();
    let c = &out.character;
    let body = &c.parts[0];
    let n = body.mesh.positions.len();
    let mask = rigsmith::deform::dqs_mask::dense(&out.sidecar.dqs_blend[&body.name], n);
    // The left arm from the shoulder out as its own piece.
    let x = 0.12 * c.height();
    let pieces = cut_in_two(body, x, &mask);
    let mut split = c.clone();
    split.parts.remove(0);
    let mut masks = out.sidecar.dqs_blend.clone();
    masks.remove(&body.name);
    for (k, (p, m, _)) in pieces.iter().enumerate() {
        split.parts.insert(k, p.clone());
        masks.insert(p.name.clone(), m.clone());
    }
    let skin = split.body().unwrap().skin;
    assert_eq!(skin, vec![0, 1], "both pieces are skin");
    let lib: Vec<_> = library_with_rules()
        .into_iter()
        .filter(|p| ["elbow_120.L", "wrist_twist_80.L"].contains(&p.name.as_str()))
        .collect();
    let run = |ch: &rigsmith::Character,
               masks: &std::collections::BTreeMap<String, Vec<(u32, f32)>>| {
        check(
            ch,
            &CheckOptions {
                library: Some(lib.clone()),
                self_intersections: false,
                twist_rules: false,
                dqs_blend: true,
                dqs_masks: masks.clone(),
                correctives: out.sidecar.correctives.clone(),
                ..CheckOptions::default()
            },
        )
        .unwrap()
    };
    let whole = run(c, &out.sidecar.dqs_blend);
    let cut = run(&split, &masks);
    for id in ["deform.elbow_120.L.band", "deform.wrist_twist_80.L.band"] {
        let (a, b) = (value(&whole, id), value(&cut, id));
        eprintln!("{id}: {a:.4} in one piece, {b:.4} in two");
        assert!((a - b).abs() < 1e-3, "{id}: {a} vs {b}");
    }
    // The sheets pose the pieces as the review played them: mask and correctives on
    // each piece, every vertex where the one-piece skin puts it.
    for (p, _, _) in &pieces {
        assert!(cut.runtime.dqs_masks.contains_key(&p.name), "{}", p.name);
    }
    let pose = lib.iter().find(|p| p.name == "wrist_twist_80.L").unwrap();
    let one =
        rigsmith::review::posed_runtime(c, pose, rigsmith::review::Skinning::Lbs, &whole.runtime);
    let two = rigsmith::review::posed_runtime(
        &split,
        pose,
        rigsmith::review::Skinning::Lbs,
        &cut.runtime,
    );
    let mut worst = 0.0f32;
    for (k, (_, _, origin)) in pieces.iter().enumerate() {
        for (i, &v) in origin.iter().enumerate() {
            worst = worst.max((two[k][i] - one[0][v]).length());
        }
    }
    eprintln!("largest gap between the pieces and the one-piece skin: {worst:.2e} m");
    assert!(worst < 1e-5, "{worst}");
}

#[test]
fn the_shirt_stays_out_of_the_body_with_the_arm_lowered() {
    let out = demo();
    let lib: Vec<_> = library_with_rules()
        .into_iter()
        .filter(|p| p.name.starts_with("arm_down"))
        .collect();
    let run = |c: &rigsmith::Character, correctives: Vec<_>| {
        check(
            c,
            &CheckOptions {
                library: Some(lib.clone()),
                self_intersections: false,
                twist_rules: false,
                dqs_blend: true,
                dqs_masks: out.sidecar.dqs_blend.clone(),
                correctives,
                ..CheckOptions::default()
            },
        )
        .unwrap()
    };
    let off = run(&out.character, Vec::new());
    let on = run(&out.character, out.sidecar.correctives.clone());
    // The control: the skin's correctives with the shirt's own shapes taken out.
    let mut bare = out.character.clone();
    for p in bare.parts.iter_mut().filter(|p| p.name == "shirt") {
        for m in p.morphs.iter_mut() {
            m.position_deltas.iter_mut().for_each(|d| *d = Vec3::ZERO);
        }
    }
    let skin_only = run(&bare, out.sidecar.correctives.clone());
    for side in ["L", "R"] {
        let id = format!("deform.arm_down.{side}.penetration.shirt");
        let (a, s, b) = (value(&off, &id), value(&skin_only, &id), value(&on, &id));
        eprintln!(
            "{id}: {a:.2} % without correctives, {s:.2} % with the skin's alone, {b:.2} % with the shirt's too"
        );
        // Measured: 0.12 / 3.80 / 0.99 % (left), 0.17 / 3.83 / 0.75 % (right). The
        // shoulder's wide blend keeps the lowered arm's flesh out of the sleeve by
        // itself; the skin's corrective restores the shoulder's volume and pushes the
        // chest into it, and the shirt's own shape takes most of that back out.
        assert!(
            s > 2.0 * a.max(0.5),
            "{id}: the control does not fire: {a} -> {s}"
        );
        assert!(b < 0.4 * s, "{id}: {s} -> {b}");
        assert!(b <= 1.0, "{id}: {a} -> {b}");
    }
    // The shirt's own shape of the left shoulder's corrective: finite, left side only.
    let shirt = out
        .character
        .parts
        .iter()
        .find(|p| p.name == "shirt")
        .unwrap();
    let mt = shirt
        .morphs
        .iter()
        .find(|m| m.name == "CS_arm_down_l")
        .unwrap();
    assert!(mt.position_deltas.iter().any(|d| d.length() > 0.0));
    for (p, d) in shirt.mesh.positions.iter().zip(&mt.position_deltas) {
        assert!(d.is_finite());
        if p.x < 0.0 {
            assert_eq!(*d, Vec3::ZERO, "CS_arm_down_l moves the shirt at {p}");
        }
    }
}

#[test]
fn a_joints_flesh_leaves_out_what_another_bone_carries() {
    use rigsmith::review::volume::{carried, flesh, joints};
    let out = demo();
    let body = &out.character.parts[0];
    let s = skel();
    let j = joints(s, &Roles::of(s, None))
        .into_iter()
        .find(|j| j.name == "shoulder.L")
        .unwrap();
    let all = flesh(&j, &body.mesh.positions).unwrap();
    let w = body.weights.as_ref().unwrap();
    let kept = carried(all.clone(), s, w).unwrap();
    eprintln!(
        "shoulder.L flesh: {} vertices, {} carried by the joint",
        all.vertices.len(),
        kept.vertices.len()
    );
    // The T-pose mannequin's shoulder flesh is the arm's and the clavicle's.
    assert!(kept.vertices.len() * 10 >= all.vertices.len() * 9);
    // Positive control: a third of it handed to the spine leaves the flesh.
    let spine = s.find("spine_03").unwrap() as u32;
    let mut w2 = w.clone();
    let moved: Vec<u32> = kept.vertices.iter().step_by(3).map(|&(v, _)| v).collect();
    for &v in &moved {
        w2.vertices[v as usize] = vec![rigsmith::Influence {
            bone: spine,
            weight: 1.0,
        }];
    }
    let fewer = carried(kept.clone(), s, &w2).unwrap();
    assert_eq!(fewer.vertices.len(), kept.vertices.len() - moved.len());
    assert!(fewer.vertices.iter().all(|(v, _)| !moved.contains(v)));
}

/// The MakeHuman baby rigged here (its artist rig replaced), without the review.
fn baby() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| {
        let corpus = rigsmith::io::mpfb2::Corpus::open(&crate::common::mpfb2_dir()).unwrap();
        let c = corpus
            .build(&rigsmith::io::mpfb2::CorpusOptions {
                variant: Some("baby".into()),
                ..Default::default()
            })
            .unwrap();
        let o = RigOptions {
            review: false,
            rigged: rigsmith::Rigged::Replace,
            ..RigOptions::default()
        };
        rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
    })
}

/// The review of `out` in the named poses (twist rules played when `rules`), with its
/// correctives rebuilt with `o`, under the preserve-volume mask its sidecar names.
fn rebuilt_review(
    out: &RigOutput,
    o: &rigsmith::review::correctives::CorrectiveOptions,
    poses: &[&str],
    rules: bool,
) -> CheckReport {
    let masks = out.sidecar.dqs_blend.clone();
    let mut c = out.character.clone();
    for p in &mut c.parts {
        p.morphs
            .retain(|m| !rigsmith::deform::correctives::is_corrective(&m.name));
    }
    let built = rigsmith::review::correctives::build_correctives_with(&c, &masks, o);
    for (i, mt) in built.morphs {
        c.parts[i].morphs.push(mt);
    }
    let s = c.skeleton.as_ref().unwrap();
    let rig = Roles::of(s, None);
    let (lib, _) = rigsmith::pose::library::library_for(s, &rig);
    let lib = rigsmith::deform::twist::library_with_rules(s, &twist_rules(s, &rig), lib)
        .into_iter()
        .filter(|p| poses.contains(&p.name.as_str()))
        .collect();
    check(
        &c,
        &CheckOptions {
            library: Some(lib),
            self_intersections: false,
            twist_rules: rules,
            dqs_blend: true,
            dqs_masks: masks,
            correctives: built.correctives,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

/// The baby's elbow band in `elbow_120.L` with its correctives rebuilt with `o`.
fn baby_elbow_band(o: &rigsmith::review::correctives::CorrectiveOptions) -> f64 {
    let r = rebuilt_review(baby(), o, &["elbow_120.L"], false);
    value(&r, "deform.elbow_120.L.band")
}

#[test]
fn the_babys_short_chubby_elbow_keeps_its_volume_with_the_elbows_own_passes() {
    use rigsmith::review::correctives::CorrectiveOptions;
    // Measured 0.889 shipped (0.865 with eight target passes).
    let shipped = baby_elbow_band(&CorrectiveOptions::default());
    // The knee's settings at the elbow (twelve relax passes, five target passes) average
    // the crease's push away: measured 0.807 (limit 0.85).
    let d = CorrectiveOptions::default();
    let knee_like = baby_elbow_band(&CorrectiveOptions {
        elbow_relax_passes: d.relax_passes,
        elbow_passes: d.passes,
        ..d
    });
    eprintln!("baby elbow band: {shipped:.3} shipped, {knee_like:.3} with the knee's passes");
    assert!(
        shipped >= 0.85 && (shipped - 0.889).abs() < 0.02,
        "{shipped}"
    );
    assert!(
        knee_like < 0.85 && (knee_like - 0.807).abs() < 0.02,
        "{knee_like}"
    );
}

/// Quaternius' `men_Farmer` re-rigged here (a low-poly game character: edges at the
/// knee 0.7 of its radius, 0.32 to 0.38 on MakeHuman), without the review.
fn farmer() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| rerigged("men_Farmer.glb"))
}

/// The Quaternius character `file` rigged again from its mesh, without the review.
fn rerigged(file: &str) -> RigOutput {
    let path = crate::common::quaternius_dir().join(file);
    let c = rigsmith::io::read_character(&path).unwrap();
    let o = RigOptions {
        rigged: rigsmith::Rigged::Replace,
        review: false,
        ..RigOptions::default()
    };
    rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
}

#[test]
fn a_chibis_short_thick_forearm_keeps_its_volume_with_the_elbows_target_passes() {
    use rigsmith::review::correctives::{CorrectiveOptions, CORRECTIVE_STRAIN_MAX, ELBOW_PASSES};
    // Measured with the elbow blended before the joint and the twist bones bound as
    // their limb: 24 target passes (the default) bring the band over the limit, strain
    // under the bound (0.864, 0.360); 16 passes just reach it (0.855), 8 do not
    // (0.839). Before the twist bones bound as their limb, 16 did not either.
    let chibi = rerigged("platformer_Character_HumanoidRig.glb");
    let band = |o: &CorrectiveOptions| {
        let r = rebuilt_review(&chibi, o, &["elbow_120.L"], true);
        (
            value(&r, "deform.elbow_120.L.band"),
            value(&r, "correctives.CS_elbow_l.smooth"),
        )
    };
    assert_eq!(ELBOW_PASSES, 24);
    let (elbow, strain) = band(&CorrectiveOptions::default());
    let passes = |n| {
        band(&CorrectiveOptions {
            elbow_passes: n,
            ..CorrectiveOptions::default()
        })
        .0
    };
    let (e8, e16) = (passes(8), passes(16));
    eprintln!("chibi elbow: 8 passes {e8:.3}, 16 passes {e16:.3}, 24 passes {elbow:.3}, strain {strain:.3}");
    assert!(elbow >= 0.85, "{elbow}");
    assert!(strain <= CORRECTIVE_STRAIN_MAX as f64, "{strain}");
    assert!(
        e8 < 0.85 && e8 > 0.8 && e16 > e8 && elbow > e16,
        "16 passes: {e16}, 8: {e8}"
    );
}

/// The farmer's elbow and knee bands and its correctives' largest strain, with its
/// correctives built again by `o`, under the runtime its sidecar names.
fn farmer_bands(o: &rigsmith::review::correctives::CorrectiveOptions) -> (f64, f64, f64) {
    let r = rebuilt_review(farmer(), o, &["elbow_120.L", "knee_120.L"], true);
    let strain = ["CS_elbow_l", "CS_knee_l"]
        .iter()
        .map(|n| value(&r, &format!("correctives.{n}.smooth")))
        .fold(0.0f64, f64::max);
    (
        value(&r, "deform.elbow_120.L.band"),
        value(&r, "deform.knee_120.L.band"),
        strain,
    )
}

#[test]
fn a_low_poly_characters_elbow_and_knee_keep_their_volume_with_correctives_scaled_to_its_edges() {
    use rigsmith::review::correctives::{CorrectiveOptions, CORRECTIVE_STRAIN_MAX};
    // Measured: elbow 0.920, knee 0.868, strain 0.37 scaled; 0.893 and 0.836 with the
    // MakeHuman bodies' passes (the knee's push relaxed over the whole leg).
    let (elbow, knee, strain) = farmer_bands(&CorrectiveOptions::default());
    let (e0, k0, _) = farmer_bands(&CorrectiveOptions {
        coarse: false,
        ..CorrectiveOptions::default()
    });
    eprintln!("farmer: elbow {e0:.3} -> {elbow:.3}, knee {k0:.3} -> {knee:.3}, strain {strain:.3}");
    assert!(elbow >= 0.85 && knee >= 0.85, "{elbow} {knee}");
    assert!(strain <= CORRECTIVE_STRAIN_MAX as f64, "{strain}");
    assert!(
        k0 < 0.85 && knee > k0 + 0.02 && elbow > e0,
        "unscaled: {e0} {k0}"
    );
}
