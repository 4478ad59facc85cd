//! Tests for the fit stage: sections, landmarks, templates, fitting accuracy against the
//! MakeHuman `game_engine` skeleton, placement checks (positive controls and clean
//! twins), model check and fix, and bad input.

#[path = "../../examples/fit_accuracy.rs"]
#[allow(dead_code)]
pub(crate) mod acc;
#[path = "../../examples/fit_quaternius.rs"]
#[allow(dead_code)]
pub(crate) mod quat;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use glam::{Mat4, Vec3};
use rigsmith::fit::{
    cross_sections, find_landmarks, fit, fix_model, model_check, placement_checks, FitOptions,
    LandmarkOptions, Template,
};
use rigsmith::report::Limit;
use rigsmith::{Character, Mesh, Part, Severity, Skeleton};

use crate::common;

type Gt = BTreeMap<String, (Vec3, Vec3)>;

fn corpus() -> &'static rigsmith::io::mpfb2::Corpus {
    static B: OnceLock<rigsmith::io::mpfb2::Corpus> = OnceLock::new();
    B.get_or_init(|| acc::open(&common::mpfb2_dir()))
}

fn variant(name: &str) -> (Character, Gt) {
    acc::load(corpus(), name)
}

fn base_body() -> &'static (Character, Gt) {
    static C: OnceLock<(Character, Gt)> = OnceLock::new();
    C.get_or_init(|| variant("base"))
}

fn base_fit() -> &'static rigsmith::fit::FitResult {
    static F: OnceLock<rigsmith::fit::FitResult> = OnceLock::new();
    F.get_or_init(|| fit(&base_body().0, &FitOptions::default()).unwrap())
}

fn height(c: &Character) -> f32 {
    let (lo, hi) = c.bounds();
    hi.y - lo.y
}

fn failed<'a>(checks: &'a [rigsmith::Check], id: &str) -> Option<&'a rigsmith::Check> {
    checks.iter().find(|k| k.id == id && !k.passed)
}

fn check<'a>(checks: &'a [rigsmith::Check], id: &str) -> &'a rigsmith::Check {
    checks
        .iter()
        .find(|k| k.id == id)
        .unwrap_or_else(|| panic!("no check {id}"))
}

fn transformed(c: &Character, m: Mat4) -> Character {
    let mut c = c.clone();
    for p in &mut c.parts {
        for v in &mut p.mesh.positions {
            *v = m.transform_point3(*v);
        }
    }
    c
}

fn one_part(mesh: Mesh) -> Character {
    Character {
        parts: vec![Part {
            name: "body".into(),
            mesh,
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn merge(ms: &[Mesh]) -> Mesh {
    let mut out = Mesh::default();
    for m in ms {
        out.append(m);
    }
    out
}

// ---------------------------------------------------------------- sections

#[test]
fn sections_split_touching_parts_by_topology() {
    // Two boxes sharing a face plane (touching thighs) stay two loops.
    let m = merge(&[
        Mesh::cuboid(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 1.0)),
        Mesh::cuboid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 1.0)),
    ]);
    let loops = cross_sections(&[&m], Vec3::new(0.0, 0.5, 0.0), Vec3::Y);
    assert_eq!(loops.len(), 2);
    for l in &loops {
        assert!(l.closed);
        assert!((l.perimeter - 4.0).abs() < 1e-4, "{}", l.perimeter);
        assert!((l.center.y - 0.5).abs() < 1e-6);
        assert!((l.center.x.abs() - 0.5).abs() < 1e-4);
    }
    // Clean twin: one box, one loop; a plane missing the mesh: none.
    let one = Mesh::cuboid(Vec3::ZERO, Vec3::ONE);
    assert_eq!(cross_sections(&[&one], Vec3::splat(0.5), Vec3::Y).len(), 1);
    assert!(cross_sections(&[&one], Vec3::new(0.0, 2.0, 0.0), Vec3::Y).is_empty());
    assert!(cross_sections(&[&one], Vec3::splat(0.5), Vec3::ZERO).is_empty());
}

#[test]
fn sections_on_open_meshes_return_open_chains() {
    // The box without its -X face: the cut is an open chain of 3 sides.
    let mut m = Mesh::cuboid(Vec3::ZERO, Vec3::ONE);
    m.triangles.drain(8..10);
    let loops = cross_sections(&[&m], Vec3::splat(0.5), Vec3::Y);
    assert_eq!(loops.len(), 1);
    assert!(!loops[0].closed);
    assert!(
        (loops[0].perimeter - 4.0).abs() < 1e-4,
        "closed by a straight line: {}",
        loops[0].perimeter
    );
}

// ---------------------------------------------------------------- accuracy

fn accuracy(name: &str) -> (f32, f32, f32, String) {
    let (c, gt) = variant(name);
    let r = fit(&c, &FitOptions::default()).unwrap();
    let e = acc::errors(&r.skeleton, &gt, height(&c));
    let (mm, mw, mk) = acc::summary(&e, |k| acc::MAJOR.contains(&k));
    let (fm, _, _) = acc::summary(&e, acc::is_finger);
    assert!(
        !r.checks
            .iter()
            .any(|k| !k.passed && k.severity == Severity::Blocker),
        "{name}: blocker failed: {:?}",
        r.checks.iter().filter(|k| !k.passed).collect::<Vec<_>>()
    );
    (mm, mw, fm, mk)
}

#[test]
fn fitted_joints_match_the_game_engine_rig_of_four_body_shapes() {
    for name in ["base", "heavy", "child", "baby"] {
        let (mm, mw, fm, mk) = accuracy(name);
        eprintln!("{name}: major mean {mm:.2}% worst {mw:.2}% ({mk}) fingers {fm:.2}%");
        assert!(mm <= 2.0, "{name}: major joints mean {mm:.2}% H");
        assert!(mw <= 5.0, "{name}: worst major joint {mk} {mw:.2}% H");
        assert!(fm <= 2.5, "{name}: fingers mean {fm:.2}% H");
    }
}

#[test]
fn game_template_matches_game_engine_names_and_parents() {
    let rig: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::mpfb2_dir().join("rigs/standard/rig.game_engine.json"))
            .unwrap(),
    )
    .unwrap();
    let s = &base_fit().skeleton;
    assert_eq!(s.bones.len(), 53);
    for (name, b) in rig.as_object().unwrap() {
        let i = s.find(name).unwrap_or_else(|| panic!("{name} missing"));
        let parent = s.bones[i].parent.map_or("", |p| s.bones[p].name.as_str());
        assert_eq!(parent, b["parent"].as_str().unwrap(), "parent of {name}");
    }
}

#[test]
fn fit_is_scale_invariant_and_deterministic() {
    let (c, _) = base_body();
    let r0 = base_fit();
    let h = height(c);
    for k in [0.3f32, 100.0] {
        let ck = transformed(c, Mat4::from_scale(Vec3::splat(k)));
        let rk = fit(&ck, &FitOptions::default()).unwrap();
        for (a, b) in r0.skeleton.bones.iter().zip(&rk.skeleton.bones) {
            assert_eq!(a.name, b.name);
            let d = (a.head * k - b.head).length() / (k * h);
            assert!(d < 2e-3, "scale {k}: {} off by {:.4}% H", a.name, 100.0 * d);
        }
    }
    let again = fit(c, &FitOptions::default()).unwrap();
    assert_eq!(again.skeleton, r0.skeleton);
}

// ---------------------------------------------------------------- fitting rules

#[test]
fn base_fit_passes_placement_checks_and_mirrors_exactly() {
    let r = base_fit();
    let sym = check(&r.checks, "place.symmetry");
    assert!(sym.passed && sym.value < 1e-3, "{sym:?}");
    for id in [
        "place.inside",
        "place.knee_bend.L",
        "place.knee_bend.R",
        "place.elbow_bend.L",
        "place.hinge_roll.arm.L",
        "place.hinge_roll.leg.R",
        "place.finger_axes",
        "place.disjoint",
        "place.landmarks",
    ] {
        let k = check(&r.checks, id);
        assert!(k.passed, "{k:?}");
    }
    let knee = check(&r.checks, "place.knee_bend.L").value;
    assert!((1.0..=15.0).contains(&knee), "knee bend {knee}");
    // Every landmark has a method and a confidence.
    for (n, l) in &r.landmarks.points {
        assert!(
            !l.method.is_empty() && (0.0..=1.0).contains(&l.confidence),
            "{n}"
        );
    }
    assert_eq!(r.landmarks.pose, "A");
    assert!(
        (40.0..60.0).contains(&r.landmarks.arm_angle_deg),
        "{}",
        r.landmarks.arm_angle_deg
    );
}

#[test]
fn templates_rename_the_same_joints() {
    let (c, _) = base_body();
    let g = &base_fit().skeleton;
    let mix = fit(
        c,
        &FitOptions {
            template: Template::Mixamo,
            ..Default::default()
        },
    )
    .unwrap();
    let vrm = fit(
        c,
        &FitOptions {
            template: Template::Vrm,
            ..Default::default()
        },
    )
    .unwrap();
    let basic = fit(
        c,
        &FitOptions {
            template: Template::Basic,
            ..Default::default()
        },
    )
    .unwrap();
    let head = |s: &Skeleton, n: &str| s.bones[s.find(n).unwrap_or_else(|| panic!("{n}"))].head;
    assert_eq!(
        head(&mix.skeleton, "mixamorig:LeftForeArm"),
        head(g, "lowerarm_l")
    );
    assert_eq!(head(&vrm.skeleton, "rightUpperLeg"), head(g, "thigh_r"));
    assert_eq!(
        head(&vrm.skeleton, "leftThumbMetacarpal"),
        head(g, "thumb_01_l")
    );
    assert_eq!(mix.skeleton.bones.len(), 52);
    assert_eq!(basic.skeleton.bones.len(), 53 - 30);
    assert!(basic.skeleton.find("index_01_l").is_none());
    assert_eq!(vrm.humanoid["hips"], "hips");
    assert_eq!(base_fit().humanoid["leftLowerArm"], "lowerarm_l");
    assert_eq!(mix.humanoid["rightHand"], "mixamorig:RightHand");
    assert_eq!(base_fit().humanoid.len(), 52);
    // Twist bones.
    let tw = fit(
        c,
        &FitOptions {
            twist: 2,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(tw.skeleton.bones.len(), 53 + 2 * 8);
    let t = tw.skeleton.find("upperarm_twist_02_l").unwrap();
    assert_eq!(
        tw.skeleton.bones[tw.skeleton.bones[t].parent.unwrap()].name,
        "upperarm_l"
    );
    assert!(fit(
        c,
        &FitOptions {
            twist: 99,
            ..Default::default()
        }
    )
    .is_err());
}

#[test]
fn overrides_replace_landmarks_by_name() {
    let (c, _) = base_body();
    let k = base_fit().landmarks.get("knee_l").unwrap() + Vec3::new(0.0, 0.0, 0.01);
    let r = fit(
        c,
        &FitOptions {
            overrides: vec![("knee_l".into(), k)],
            ..Default::default()
        },
    )
    .unwrap();
    let s = &r.skeleton;
    assert_eq!(s.bones[s.find("calf_l").unwrap()].head, k);
    assert_eq!(r.landmarks.points["knee_l"].method, "override");
    let bad = LandmarkOptions {
        overrides: vec![("knee_l".into(), Vec3::NAN)],
        ..Default::default()
    };
    assert!(find_landmarks(c, &bad).is_err());
}

// ---------------------------------------------------------------- placement controls

#[test]
fn placement_checks_fire_on_broken_skeletons() {
    let (c, _) = base_body();
    let good = base_fit().skeleton.clone();
    let clean = placement_checks(c, &good);
    let idx = |n: &str| good.find(n).unwrap();
    // Knee bent backward: the blocker fires.
    let mut s = good.clone();
    let (hip, ankle) = (s.bones[idx("thigh_l")].head, s.bones[idx("calf_l")].tail);
    let back = hip.lerp(ankle, 0.5) - Vec3::Z * 0.03;
    s.bones[idx("thigh_l")].tail = back;
    s.bones[idx("calf_l")].head = back;
    let broken = placement_checks(c, &s);
    let k = failed(&broken, "place.knee_bend.L").expect("knee backward must fail");
    assert!(k.value < 0.0 && k.severity == Severity::Blocker, "{k:?}");
    assert!(check(&clean, "place.knee_bend.L").passed);
    // Hinge rolled 90 deg.
    let mut s = good.clone();
    let b = &mut s.bones[idx("calf_r")];
    b.x_axis = b.frame().z_axis;
    assert!(failed(&placement_checks(c, &s), "place.hinge_roll.leg.R").is_some());
    assert!(check(&clean, "place.hinge_roll.leg.R").passed);
    // A bone moved out of the body.
    let mut s = good.clone();
    let i = idx("spine_02");
    s.bones[i].head += Vec3::Z * 0.5;
    s.bones[i].tail += Vec3::Z * 0.5;
    let out = placement_checks(c, &s);
    assert!(failed(&out, "place.inside")
        .unwrap()
        .detail
        .contains("spine_02"));
    // ... which also disconnects its chain and breaks nothing on the other side.
    assert!(failed(&out, "place.disjoint").is_some());
    assert!(check(&clean, "place.disjoint").passed && check(&clean, "place.inside").passed);
    // One hand moved: asymmetry.
    let mut s = good.clone();
    s.bones[idx("hand_r")].tail += Vec3::Y * 0.05;
    let a = placement_checks(c, &s);
    assert!(failed(&a, "place.symmetry").unwrap().value > 2.0);
    // A finger rolled: its chain no longer curls on one axis.
    let mut s = good.clone();
    let b = &mut s.bones[idx("index_02_l")];
    b.x_axis = b.frame().z_axis;
    assert!(failed(&placement_checks(c, &s), "place.finger_axes").is_some());
    assert!(check(&clean, "place.finger_axes").passed);
}

// ---------------------------------------------------------------- model check

#[test]
fn model_check_finds_and_fix_model_repairs_placement() {
    let (raw, _) = base_body();
    // The corpus leaves the feet 4% of the height forward of z = 0: found and fixed.
    let r = model_check(raw);
    let ids: Vec<&str> = r.problems.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["model.mid_foot"], "{:?}", r.problems);
    assert!((r.mid_foot_z - 0.07).abs() < 0.01, "{}", r.mid_foot_z);
    assert_eq!(r.facing, "+Z");
    assert!(
        r.symmetry_general < 0.1 && r.symmetry_vertex > 0.95,
        "{r:?}"
    );
    let mut centred = raw.clone();
    assert_eq!(fix_model(&mut centred, &r).len(), 1);
    assert!(model_check(&centred).problems.is_empty());
    let c = &centred;
    // Turned around, lifted and moved sideways.
    let m = Mat4::from_translation(Vec3::new(0.3, 0.2, -0.4))
        * Mat4::from_rotation_y(std::f32::consts::PI);
    let mut moved = transformed(c, m);
    let bad = model_check(&moved);
    for id in ["model.facing", "model.floor", "model.center"] {
        assert!(bad.has(id), "{id}: {:?}", bad.problems);
    }
    let did = fix_model(&mut moved, &bad);
    assert_eq!(did.len(), 2, "{did:?}");
    let after = model_check(&moved);
    assert!(after.problems.is_empty(), "{:?}", after.problems);
    // The fixed body fits like the original, moved to the same place.
    let r2 = fit(&moved, &FitOptions::default()).unwrap();
    let a = &base_fit().skeleton.bones[base_fit().skeleton.find("pelvis").unwrap()];
    let b = &r2.skeleton.bones[r2.skeleton.find("pelvis").unwrap()];
    assert!(
        (a.head.y - b.head.y).abs() < 0.005,
        "{} vs {}",
        a.head,
        b.head
    );
    // Lying down is reported, not fixed.
    let lying = transformed(c, Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2));
    assert!(model_check(&lying).has("model.up"));
}

// ---------------------------------------------------------------- bad input

fn fit_err(c: &Character) -> String {
    match fit(c, &FitOptions::default()) {
        Ok(_) => panic!("fit must fail"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_input_names_the_landmark() {
    // No mesh at all, and a part without triangles.
    assert!(fit_err(&Character::default()).contains("no mesh"));
    assert!(fit_err(&one_part(Mesh {
        positions: vec![Vec3::ZERO],
        ..Default::default()
    }))
    .contains("no triangles"));
    // Lying down.
    let (c, _) = base_body();
    let e = fit_err(&transformed(
        c,
        Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2),
    ));
    assert!(e.contains("lying down"), "{e}");
    // A column (legs not separated) and a sphere-like blob (not a biped).
    let e = fit_err(&one_part(Mesh::cuboid(
        Vec3::new(-0.2, 0.0, -0.1),
        Vec3::new(0.2, 1.8, 0.1),
    )));
    assert!(
        e.contains("crotch") && e.contains("legs not separated"),
        "{e}"
    );
    let e = fit_err(&one_part(Mesh::cuboid(Vec3::splat(-0.5), Vec3::splat(0.5))));
    assert!(e.contains("crotch"), "{e}");
    // A quadruped: four legs under a long body.
    let leg = |x: f32, z: f32| {
        Mesh::cuboid(
            Vec3::new(x - 0.05, 0.0, z - 0.05),
            Vec3::new(x + 0.05, 0.5, z + 0.05),
        )
    };
    let dog = merge(&[
        leg(-0.15, -0.3),
        leg(0.15, -0.3),
        leg(-0.15, 0.3),
        leg(0.15, 0.3),
        Mesh::cuboid(Vec3::new(-0.2, 0.45, -0.45), Vec3::new(0.2, 0.75, 0.45)),
    ]);
    let e = fit_err(&one_part(dog));
    assert!(e.contains("not a biped"), "{e}");
    // Arms removed (or fused into the body): the armpit cannot be found.
    let h = height(c);
    let crotch = base_fit().landmarks.get("crotch").unwrap().y;
    let m = &c.parts[0].mesh;
    let keep = |p: Vec3| !(p.x.abs() > 0.1 * h && p.y > crotch);
    let armless = Mesh {
        positions: m.positions.clone(),
        triangles: m
            .triangles
            .iter()
            .copied()
            .filter(|t| t.iter().all(|&i| keep(m.positions[i as usize])))
            .collect(),
        ..Default::default()
    };
    let e = fit_err(&one_part(armless));
    assert!(e.contains("armpit"), "{e}");
}

// ---------------------------------------------------------------- every placement check passes

/// Every placement check of a fit that failed, as text.
fn failures(r: &rigsmith::fit::FitResult) -> Vec<String> {
    r.checks
        .iter()
        .filter(|k| !k.passed)
        .map(|k| format!("{} {:.2}: {}", k.id, k.value, k.detail))
        .collect()
}

#[test]
fn mannequin_fits_with_every_placement_check_passing() {
    use rigsmith::mannequin::{build, reference_joints, ArmPose, MannequinOptions};
    for (pose, arm) in [(ArmPose::T, 0.0f32), (ArmPose::A, 45.0)] {
        for hs in [1.0f32, 1.5] {
            let o = MannequinOptions {
                pose,
                arm_angle_deg: arm,
                head_scale: hs,
                ..Default::default()
            };
            let c = build(&o);
            let r = fit(&c, &FitOptions::default()).unwrap();
            let (fails, inside) = (failures(&r), check(&r.checks, "place.inside"));
            assert!(fails.is_empty(), "{pose:?} x{hs}: {fails:?}");
            assert!(
                inside.detail.contains("all 52 bone middles inside"),
                "{inside:?}"
            );
            // In A pose the sections' armpit sits inward of the joint: the shoulder is
            // moved out along the arm so the clavicle lies inside, and lands within
            // 1% H of the generator's joint; in T pose it is not moved.
            let sh = &r.landmarks.points["shoulder_l"];
            assert_eq!(
                sh.method.contains("clavicle lies inside"),
                pose == ArmPose::A,
                "{pose:?} x{hs}: {}",
                sh.method
            );
            let want = reference_joints(&o)
                .into_iter()
                .find(|(n, _)| *n == "upperarm_l")
                .unwrap()
                .1;
            let s = r.skeleton.find("upperarm_l").unwrap();
            let d = 100.0 * (r.skeleton.bones[s].head - want).length() / o.height;
            assert!(d < 1.0, "{pose:?} x{hs} shoulder: {d:.2}% H");
            // The mannequin's hands are mittens: the chains are spread inside them.
            assert!(
                r.landmarks.notes.iter().any(|n| n.contains("mitten")),
                "{:?}",
                r.landmarks.notes
            );
            // Eyes from the `eyes` part, one per side, within 0.5% H of the generator's.
            let reference = reference_joints(&o);
            for e in ["eye_l", "eye_r"] {
                let want = reference.iter().find(|(n, _)| *n == e).unwrap().1;
                let got = &r.landmarks.points[e];
                assert_eq!(got.confidence, 1.0, "{e}: {}", got.method);
                let d = 100.0 * (got.position - want).length() / o.height;
                assert!(d < 0.5, "{pose:?} x{hs} {e}: {d:.2}% H");
            }
            // The arm angle is measured.
            assert!(
                (r.landmarks.arm_angle_deg - arm).abs() < 5.0,
                "{pose:?}: arm angle {}",
                r.landmarks.arm_angle_deg
            );
        }
    }
}

#[test]
fn every_variant_passes_every_placement_check() {
    for v in rigsmith::io::mpfb2::VARIANTS {
        let (c, _) = variant(v.name);
        let r = fit(&c, &FitOptions::default()).unwrap();
        assert!(failures(&r).is_empty(), "{}: {:?}", v.name, failures(&r));
    }
}

#[test]
fn a_pose_from_0_to_60_deg_is_measured() {
    use rigsmith::mannequin::{build, ArmPose, MannequinOptions};
    for arm in [10.0f32, 30.0, 60.0] {
        let o = MannequinOptions {
            pose: ArmPose::A,
            arm_angle_deg: arm,
            ..Default::default()
        };
        let r = fit(&build(&o), &FitOptions::default()).unwrap();
        assert!(
            (r.landmarks.arm_angle_deg - arm).abs() < 5.0,
            "{arm}: measured {}",
            r.landmarks.arm_angle_deg
        );
        assert_eq!(r.landmarks.pose, if arm <= 20.0 { "T" } else { "A" });
        let fails = failures(&r);
        assert!(fails.is_empty(), "{arm} deg: {fails:?}");
        assert!(!r
            .checks
            .iter()
            .any(|k| !k.passed && k.severity == Severity::Blocker));
    }
}

/// Moves the middle joint of the chain `upper` -> `lower` so that the chain bends
/// `deg` toward `dir` (negative: away from it), in the plane of the chain's line and
/// `dir`, keeping the joint halfway.
fn bend_chain(s: &mut Skeleton, upper: &str, lower: &str, dir: Vec3, deg: f32) {
    let (iu, il) = (s.find(upper).unwrap(), s.find(lower).unwrap());
    let (a, e) = (s.bones[iu].head, s.bones[il].tail);
    let u = (e - a).normalize();
    let f = (dir - u * dir.dot(u)).normalize();
    let j = a.lerp(e, 0.5) + f * (0.5 * (e - a).length() * (0.5 * deg).to_radians().tan());
    s.bones[iu].tail = j;
    s.bones[il].head = j;
}

#[test]
fn elbow_bend_follows_the_modelled_limb() {
    use rigsmith::fit::{bend_angle, modelled_bend};
    use rigsmith::mannequin::{build, ArmPose, MannequinOptions};
    // A straight-modelled arm (mannequin, T pose): measured straight, the fit pre-bends
    // it 1 to 15 deg and passes; a 40 deg bone bend fails.
    let o = MannequinOptions {
        pose: ArmPose::T,
        ..Default::default()
    };
    let man = build(&o);
    let r = fit(&man, &FitOptions::default()).unwrap();
    let s = &r.skeleton;
    let (a, e) = (
        s.bones[s.find("upperarm_l").unwrap()].head,
        s.bones[s.find("lowerarm_l").unwrap()].tail,
    );
    let mb = modelled_bend(&man.parts[0].mesh, a, e, -Vec3::Z, o.height).unwrap();
    assert!(mb.abs() < 3.0, "mannequin arm modelled bent {mb}");
    let k = check(&r.checks, "place.elbow_bend.L");
    assert!(k.passed && (1.0..=15.0).contains(&k.value), "{k:?}");
    let mut bent = s.clone();
    bend_chain(&mut bent, "upperarm_l", "lowerarm_l", -Vec3::Z, 40.0);
    let k = failed(&placement_checks(&man, &bent), "place.elbow_bend.L")
        .expect("a straight arm fitted with a 40 deg bend must fail")
        .clone();
    assert!((k.value - 40.0).abs() < 0.5, "{k:?}");
    assert_eq!(k.limit, Limit::Between(1.0, 15.0), "{k:?}");
    assert_eq!(k.severity, Severity::Blocker);
    assert!(k.detail.contains("modelled straight"), "{k:?}");
    // A bent-modelled arm (MakeHuman's A pose): measured about 40 deg, the fit follows
    // it; fitted straight (4 deg) it fails, and so does a bend the wrong way.
    let (c, gt) = base_body();
    let r = base_fit();
    let s = &r.skeleton;
    let (a, e) = (
        s.bones[s.find("upperarm_l").unwrap()].head,
        s.bones[s.find("lowerarm_l").unwrap()].tail,
    );
    let mb = modelled_bend(&c.parts[0].mesh, a, e, -Vec3::Z, height(c)).unwrap();
    assert!((35.0..45.0).contains(&mb), "base arm modelled bent {mb}");
    // The artist rig bends it 46.9 deg.
    let artist = bend_angle(gt["upperarm_l"].0, gt["lowerarm_l"].0, gt["lowerarm_l"].1);
    assert!((artist - 46.9).abs() < 0.5, "{artist}");
    let k = check(&r.checks, "place.elbow_bend.L");
    assert!(k.passed && (k.value - mb as f64).abs() <= 15.0, "{k:?}");
    assert!(k.detail.contains("modelled bent 40 deg"), "{k:?}");
    let mut straight = s.clone();
    bend_chain(&mut straight, "upperarm_l", "lowerarm_l", -Vec3::Z, 4.0);
    let k = failed(&placement_checks(c, &straight), "place.elbow_bend.L")
        .expect("a bent arm fitted straight must fail")
        .clone();
    assert!((k.value - 4.0).abs() < 0.5, "{k:?}");
    let Limit::Between(lo, hi) = k.limit else {
        panic!("{k:?}")
    };
    assert!((lo - (mb - 15.0) as f64).abs() < 0.01 && (hi - (mb + 15.0) as f64).abs() < 0.01);
    let mut wrong = s.clone();
    bend_chain(&mut wrong, "upperarm_l", "lowerarm_l", -Vec3::Z, -40.0);
    let w = placement_checks(c, &wrong);
    let k = failed(&w, "place.elbow_bend.L").expect("wrong way is a blocker");
    assert!(k.value < 0.0 && k.severity == Severity::Blocker, "{k:?}");
    // The right arm (clean twin) is untouched.
    assert!(check(&w, "place.elbow_bend.R").passed);
    // Knees: MakeHuman models them straight; the fit pre-bends them 1 to 15 deg.
    let (a, e) = (
        s.bones[s.find("thigh_l").unwrap()].head,
        s.bones[s.find("calf_l").unwrap()].tail,
    );
    let mk = modelled_bend(&c.parts[0].mesh, a, e, Vec3::Z, height(c)).unwrap();
    assert!(mk.abs() < 8.0, "base knee modelled bent {mk}");
    let k = check(&r.checks, "place.knee_bend.L");
    assert!(k.passed && (1.0..=15.0).contains(&k.value), "{k:?}");
    let mut knee = s.clone();
    bend_chain(&mut knee, "thigh_l", "calf_l", Vec3::Z, 30.0);
    assert!(failed(&placement_checks(c, &knee), "place.knee_bend.L").is_some());
}

#[test]
fn thumb_and_fingers_lie_inside_their_digits() {
    // `short` and `old_female` had their thumb's middle bones just outside the thumb.
    for name in ["short", "old_female", "baby"] {
        let (c, gt) = variant(name);
        let r = fit(&c, &FitOptions::default()).unwrap();
        assert!(
            check(&r.checks, "place.inside").passed,
            "{name}: {:?}",
            failures(&r)
        );
        let h = height(&c);
        let s = &r.skeleton;
        for b in ["thumb_02_l", "thumb_03_l", "index_03_l", "pinky_03_l"] {
            let d = 100.0 * (s.bones[s.find(b).unwrap()].head - gt[b].0).length() / h;
            assert!(d < 1.1, "{name} {b}: {d:.2}% H from the artist joint");
        }
        let m = &r.landmarks.points["thumb_02_l"].method;
        assert!(m.contains("thumb's axis"), "{m}");
    }
}

#[test]
fn bodies_with_holes_fit_like_the_closed_body() {
    // Cut small holes (every 40th triangle of the torso and arms) into the base body.
    let (c, _) = base_body();
    let r0 = base_fit();
    let mut holed = c.clone();
    let crotch = r0.landmarks.get("crotch").unwrap().y;
    let m = &mut holed.parts[0].mesh;
    let pos = m.positions.clone();
    let mut k = 0;
    m.triangles.retain(|t| {
        if pos[t[0] as usize].y > crotch {
            k += 1;
            k % 40 != 0
        } else {
            true
        }
    });
    let r = fit(&holed, &FitOptions::default()).unwrap();
    let h = height(c);
    let mut worst = 0.0f32;
    for (a, b) in r0.skeleton.bones.iter().zip(&r.skeleton.bones) {
        worst = worst.max((a.head - b.head).length() / h * 100.0);
    }
    assert!(worst < 1.0, "holes moved a joint {worst:.2}% H");
    assert!(
        !r.checks
            .iter()
            .any(|k| !k.passed && k.severity == Severity::Blocker),
        "{:?}",
        failures(&r)
    );
}

#[test]
fn face_landmarks_sit_on_the_face() {
    let r = base_fit();
    let lm = &r.landmarks;
    let h = lm.height;
    let (head, top) = (lm.get("head").unwrap(), lm.get("head_top").unwrap());
    let nose = lm.get("nose_tip").unwrap();
    let chin = lm.get("chin").unwrap();
    let jaw = lm.get("jaw").unwrap();
    // Nose ahead of the head pivot, chin below the nose, jaw between pivot and chin.
    assert!((nose.x - lm.center_x).abs() < 1e-4);
    assert!(
        nose.z - head.z > 0.04 * h && nose.z - head.z < 0.09 * h,
        "{nose} {head}"
    );
    // MakeHuman's head pivot sits level with the nose tip; the chin is 4% H lower.
    assert!(
        (nose.y - head.y).abs() < 0.03 * h && nose.y < top.y,
        "{nose}"
    );
    assert!(
        (nose.y - chin.y) / h > 0.03 && (nose.y - chin.y) / h < 0.07,
        "{nose} {chin}"
    );
    assert!(
        chin.y < nose.y - 0.02 * h && chin.y > head.y - 0.05 * h,
        "{chin}"
    );
    assert!(jaw.y < nose.y && jaw.y > chin.y && jaw.z < chin.z, "{jaw}");
    // Without eye parts the eyes come from the sockets: within 0.5% H of the corpus'
    // eye parts (mean of each eye's vertices).
    let o = rigsmith::io::mpfb2::CorpusOptions {
        variant: Some("base".into()),
        rig: None,
        parts: vec!["body".into(), "eyes".into()],
        ..Default::default()
    };
    let with_eyes = corpus().build(&o).unwrap();
    let eyes = &with_eyes.parts[with_eyes.find_part("eyes").unwrap()].mesh;
    for (e, left) in [("eye_l", true), ("eye_r", false)] {
        let l = &lm.points[e];
        assert!(l.confidence == 0.7 && l.method.contains("socket"), "{l:?}");
        let pts: Vec<Vec3> = eyes
            .positions
            .iter()
            .copied()
            .filter(|p| (p.x > lm.center_x) == left)
            .collect();
        let want = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let d = 100.0 * (l.position - want).length() / h;
        assert!(d < 0.5, "{e}: {d:.2}% H from the eye part");
    }
    // With the eye parts, the parts decide.
    let r2 = fit(&with_eyes, &FitOptions::default()).unwrap();
    assert_eq!(r2.landmarks.points["eye_l"].confidence, 1.0);
    // A head without sockets (the mannequin's ellipsoid, no eye part): an estimate.
    let plain = rigsmith::mannequin::build(&rigsmith::mannequin::MannequinOptions {
        eyes: false,
        ..Default::default()
    });
    let r3 = fit(&plain, &FitOptions::default()).unwrap();
    let l = &r3.landmarks.points["eye_l"];
    assert!(
        l.confidence < 0.5 && l.method.starts_with("estimate"),
        "{l:?}"
    );
    // The knuckle line: the finger bases (index to pinky) and the hand bone's tail
    // lie within 1% H of the artist's.
    let (_, gt) = base_body();
    let s = &r.skeleton;
    let hand = &s.bones[s.find("hand_l").unwrap()];
    let d = (hand.tail - gt["hand_l"].1).length() / h * 100.0;
    assert!(d < 1.0, "hand tail {d:.2}% H from the artist's");
    for f in ["index_01_l", "middle_01_l", "ring_01_l", "pinky_01_l"] {
        let d = (s.bones[s.find(f).unwrap()].head - gt[f].0).length() / h * 100.0;
        assert!(d < 1.0, "{f}: {d:.2}% H");
    }
}

#[test]
fn quaternius_humanoids_fit_without_blocker_and_odd_ones_are_refused() {
    let dir = common::quaternius_dir();
    let read = |f: &str| rigsmith::io::read_character(&dir.join(format!("{f}.glb"))).unwrap();
    // The man (T pose) and the knight (A pose, 5.6 m tall): fitted, no blocker fails,
    // the legs within 5% H of the artist's joints.
    for (f, names) in [
        ("men_Casual", ["UpperLeg.L", "LowerLeg.L", "UpperArm.L"]),
        (
            "knight_KnightCharacter",
            ["UpperLeg.L", "LowerLeg.L", "UpperArm.L"],
        ),
    ] {
        let c = read(f);
        let artist = c.skeleton.clone().unwrap();
        let body = quat::as_one_body(&c, "");
        let r = fit(&body, &FitOptions::default()).unwrap();
        assert!(
            !r.checks
                .iter()
                .any(|k| !k.passed && k.severity == Severity::Blocker),
            "{f}: {:?}",
            failures(&r)
        );
        let h = height(&body);
        for n in names {
            let g = quat::MAP.iter().find(|m| m.0 == n).unwrap().1;
            let a = artist.bones[artist.find(n).unwrap()].head;
            let b = r.skeleton.bones[r.skeleton.find(g).unwrap()].head;
            let d = 100.0 * (a - b).length() / h;
            assert!(d < 5.0, "{f} {g}: {d:.2}% H from the artist's {n}");
        }
    }
    // The chibi's ears reach as wide as its arms, above the head: the arms are looked
    // for below the neck and it fits (more in `fit_real`).
    let r = fit(
        &quat::as_one_body(&read("platformer_Character_HumanoidRig"), ""),
        &FitOptions::default(),
    )
    .unwrap();
    assert!(
        !r.checks
            .iter()
            .any(|k| !k.passed && k.severity == Severity::Blocker),
        "{:?}",
        failures(&r)
    );
    // The fox lies along Z: refused.
    let e = fit_err(&quat::as_one_body(&read("animals_Fox"), ""));
    assert!(e.contains("biped"), "{e}");
}

#[test]
fn fix_model_moves_every_part_with_the_body() {
    use rigsmith::mannequin::{build, MannequinOptions};
    let mut c = build(&MannequinOptions::default());
    assert!(c.parts.len() >= 3, "body, eyes, shirt");
    // The mannequin stands with its mid-foot 6% H forward: centred first.
    let r = model_check(&c);
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    fix_model(&mut c, &r);
    assert!(
        model_check(&c).problems.is_empty(),
        "{:?}",
        model_check(&c).problems
    );
    // Turned around and moved: fixed back onto the original, every part together.
    let m = Mat4::from_translation(Vec3::new(0.3, 0.2, -0.4))
        * Mat4::from_rotation_y(std::f32::consts::PI);
    let mut moved = transformed(&c, m);
    let r = model_check(&moved);
    assert!(
        r.has("model.facing") && r.has("model.floor"),
        "{:?}",
        r.problems
    );
    fix_model(&mut moved, &r);
    let h = height(&c);
    let mut worst = 0.0f32;
    for (a, b) in c.parts.iter().zip(&moved.parts) {
        for (p, q) in a.mesh.positions.iter().zip(&b.mesh.positions) {
            worst = worst.max((*p - *q).length() / h);
        }
    }
    assert!(
        worst < 1e-4,
        "a part is {:.4}% H from where it was",
        100.0 * worst
    );
    // Positive control: the eyes left behind when the body moved.
    let mut apart = c.clone();
    let eyes = apart.find_part("eyes").unwrap();
    for v in &mut apart.parts[eyes].mesh.positions {
        *v += Vec3::new(0.0, 0.0, 1.0);
    }
    let r = model_check(&apart);
    assert!(r.has("model.part_apart"), "{:?}", r.problems);
    assert!(!model_check(&c).has("model.part_apart"));
}

#[test]
fn straight_and_landmark_checks_fire() {
    let (c, _) = base_body();
    let good = base_fit().skeleton.clone();
    let clean = placement_checks(c, &good);
    // The knee moved sideways: bent in the front view.
    let mut s = good.clone();
    let (t, k) = (s.find("thigh_l").unwrap(), s.find("calf_l").unwrap());
    let side = s.bones[t].tail + Vec3::X * 0.03;
    s.bones[t].tail = side;
    s.bones[k].head = side;
    let f = failed(&placement_checks(c, &s), "place.knee_straight.L")
        .expect("a knee bent sideways must fail")
        .clone();
    assert!(f.value > 2.0 && f.severity == Severity::Major, "{f:?}");
    let k = check(&clean, "place.knee_straight.L");
    assert!(k.passed && k.value < 0.1, "{k:?}");
    // A landmark the bones use found only as an estimate: the landmark check fires.
    let mut lm = base_fit().landmarks.clone();
    lm.points.get_mut("knee_l").unwrap().confidence = 0.3;
    let used = vec!["knee_l".to_string(), "hip_l".to_string()];
    let bad = rigsmith::fit::landmark_checks(&lm, &used);
    assert!(
        !bad[0].passed && bad[0].detail.contains("knee_l"),
        "{:?}",
        bad[0]
    );
    let ok = rigsmith::fit::landmark_checks(&base_fit().landmarks, &used);
    assert!(ok[0].passed, "{:?}", ok[0]);
    lm.points.remove("hip_l");
    let gone = rigsmith::fit::landmark_checks(&lm, &used);
    assert!(gone[0].detail.contains("hip_l (missing)"), "{:?}", gone[0]);
}

#[test]
fn pre_bend_is_a_blocker_outside_one_to_fifteen_on_a_straight_leg() {
    // MakeHuman models its legs straight: the rubric's 1 to 15 deg forward applies, and
    // a straight knee (0 deg) or one bent 40 deg is a blocker like a knee bent back.
    let (c, _) = base_body();
    let good = base_fit().skeleton.clone();
    for (deg, pass) in [(0.0f32, false), (40.0, false), (-10.0, false), (8.0, true)] {
        let mut s = good.clone();
        bend_chain(&mut s, "thigh_l", "calf_l", Vec3::Z, deg);
        let out = placement_checks(c, &s);
        let k = check(&out, "place.knee_bend.L");
        assert_eq!(k.passed, pass, "{deg} deg: {k:?}");
        assert!((k.value - deg as f64).abs() < 0.5, "{deg} deg: {k:?}");
        assert_eq!(k.severity, Severity::Blocker);
        assert_eq!(k.limit, Limit::Between(1.0, 15.0));
        // The hinge of a straight leg is judged on its ideal axis, not on the noise of
        // a degenerate bend plane: the fitted roll passes.
        let r = check(&out, "place.hinge_roll.leg.L");
        assert!(r.passed && r.value > 0.98, "{deg} deg: {r:?}");
    }
    // Positive control on the straight leg: the calf rolled 90 deg fails.
    let mut s = good.clone();
    bend_chain(&mut s, "thigh_l", "calf_l", Vec3::Z, 0.0);
    let i = s.find("calf_l").unwrap();
    s.bones[i].x_axis = s.bones[i].frame().z_axis;
    let r = check(&placement_checks(c, &s), "place.hinge_roll.leg.L").clone();
    assert!(!r.passed && r.value < 0.1, "{r:?}");
    assert!(r.detail.contains("ideal axis"), "{r:?}");
}

#[test]
fn model_check_problems_are_blockers_of_the_fit() {
    let (raw, _) = base_body();
    let mut centred = raw.clone();
    let r = model_check(&centred);
    fix_model(&mut centred, &r);
    let clean = fit(&centred, &FitOptions::default()).unwrap();
    for id in [
        "model.standing",
        "model.floor",
        "model.center",
        "model.facing",
        "model.part_apart",
    ] {
        assert!(
            check(&clean.checks, id).passed,
            "{id}: {:?}",
            check(&clean.checks, id)
        );
    }
    // Moved 3 cm sideways (1.8 % H) and lifted 2.5 cm (1.5 % H): blockers of the fit.
    let moved = transformed(
        &centred,
        Mat4::from_translation(Vec3::new(0.03, 0.025, 0.0)),
    );
    let r = fit(&moved, &FitOptions::default()).unwrap();
    for id in ["model.center", "model.floor"] {
        let k = failed(&r.checks, id).unwrap_or_else(|| panic!("{id} must fail"));
        assert_eq!(k.severity, Severity::Blocker);
        assert!(k.value > 1.0 && k.value < 2.0, "{k:?}");
    }
    // Within the rubric's 1 % of H: passes (0.5 % H sideways).
    let near = transformed(&centred, Mat4::from_translation(Vec3::new(0.008, 0.0, 0.0)));
    assert!(
        check(
            &fit(&near, &FitOptions::default()).unwrap().checks,
            "model.center"
        )
        .passed
    );
    // Turned to face -Z: the facing blocker.
    let turned = transformed(&centred, Mat4::from_rotation_y(std::f32::consts::PI));
    let k = model_check(&turned).checks();
    let f = k.iter().find(|k| k.id == "model.facing").unwrap();
    assert!(!f.passed && f.value > 170.0, "{f:?}");
}

#[test]
fn scale_to_height_scales_every_part_with_the_feet_on_the_floor() {
    use rigsmith::fit::scale_to_height;
    let (raw, _) = base_body();
    let mut c = raw.clone();
    let before = model_check(&c);
    let did = scale_to_height(&mut c, 1.8).unwrap();
    assert!(did.contains("1.800 m"), "{did}");
    let after = model_check(&c);
    assert!((after.height - 1.8).abs() < 1e-4, "{}", after.height);
    assert!(
        (after.floor - before.floor).abs() < 1e-4,
        "the feet stay on the floor"
    );
    assert!(scale_to_height(&mut c, -1.0).is_none());
    assert!(scale_to_height(&mut c, f32::NAN).is_none());
}

// ---------------------------------------------------------------- chain integrity

#[test]
fn disjoint_judges_a_parent_with_several_children_at_1e_4_h() {
    let (c, _) = base_body();
    let good = base_fit().skeleton.clone();
    let h = height(c);
    let idx = |n: &str| good.find(n).unwrap();
    // The chest has three children (neck, both clavicles): the neck continues it.
    assert_eq!(
        rigsmith::fit::chain_child(&good, idx("spine_03")),
        Some(idx("neck_01"))
    );
    // The hand is a branch: every finger starts a chain of its own.
    assert_eq!(rigsmith::fit::chain_child(&good, idx("hand_l")), None);
    assert!(check(&placement_checks(c, &good), "place.disjoint").passed);
    // The neck moved 5 cm forward off the chest's tail fires, naming the neck.
    let mut s = good.clone();
    let n = idx("neck_01");
    s.bones[n].head += Vec3::Z * 0.05;
    let out = placement_checks(c, &s);
    let k = failed(&out, "place.disjoint").expect("5 cm gap must fail");
    assert!(
        k.detail.contains("neck_01") && k.severity == Severity::Blocker,
        "{k:?}"
    );
    // So does a gap of 3e-4 H (the old 0.5 % H limit let 50 times that through) ...
    let mut s = good.clone();
    s.bones[n].head += Vec3::X * 3e-4 * h;
    assert!(failed(&placement_checks(c, &s), "place.disjoint").is_some());
    // ... and 5e-5 H passes.
    let mut s = good.clone();
    s.bones[n].head += Vec3::X * 5e-5 * h;
    assert!(check(&placement_checks(c, &s), "place.disjoint").passed);
    // A finger moved off the hand's tail is not a chain break: the hand is a branch.
    let mut s = good.clone();
    s.bones[idx("index_01_l")].head += Vec3::Z * 0.005;
    assert!(check(&placement_checks(c, &s), "place.disjoint").passed);
}

#[test]
fn the_artist_rigs_keep_their_chains_under_the_disjoint_rule() {
    // MakeHuman's chest stops 9.4 % H below the neck, about its own length, with the
    // clavicles nearer its tail: an end by design, not a break.
    let c = corpus()
        .build(&rigsmith::io::mpfb2::CorpusOptions::default())
        .unwrap();
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(
        rigsmith::fit::chain_child(s, s.find("spine_03").unwrap()),
        None
    );
    assert_eq!(
        rigsmith::fit::chain_child(s, s.find("spine_02").unwrap()),
        s.find("spine_03")
    );
}

#[test]
fn a_quaternius_file_read_back_has_connected_chains() {
    // The glTF reader rebuilds tails: a bone with several children reaches the one on
    // its +Y. The fox's Torso2 used to end level with its shoulders, 4.6 % H past
    // Torso3, and its neck 0.018 % H off the head.
    let c =
        rigsmith::io::read_character(&common::quaternius_dir().join("animals_Fox.glb")).unwrap();
    let s = c.skeleton.as_ref().unwrap();
    let h = height(&c);
    for (p, child) in [("Torso2", "Torso3"), ("Neck3", "Head")] {
        let (pi, ci) = (s.find(p).unwrap(), s.find(child).unwrap());
        let gap = (s.bones[ci].head - s.bones[pi].tail).length() / h;
        assert!(gap < 1e-6, "{p} -> {child}: {gap} H");
        assert_eq!(rigsmith::fit::chain_child(s, pi), Some(ci), "{p}");
    }
    // A humanoid with fingers: every chain joint closes within 1e-4 H.
    let c = rigsmith::io::read_character(&common::quaternius_dir().join("men_Casual.glb")).unwrap();
    let k = placement_checks(&c, c.skeleton.as_ref().unwrap());
    assert!(
        check(&k, "place.disjoint").passed,
        "{:?}",
        check(&k, "place.disjoint")
    );
}
