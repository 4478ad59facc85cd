//! The VRM export's extensions in the reference runtime: roll constraints on twist
//! bones (`VRMC_node_constraint`) and inside and plane colliders (the
//! `VRMC_springBone_extended_collider` draft), loaded and stepped by `@pixiv/three-vrm`
//! through `scripts/three-vrm-load.mjs`, and checked by the Khronos glTF-Validator.

use glam::Vec3;
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::parts::{self, Collider, ColliderShape};
use rigsmith::Bone;

/// Runs a Node script of `scripts/` on `file` and parses its JSON (the Node packages
/// are installed on first use; panics with the reason when they cannot be).
fn node(script: &str, file: &std::path::Path) -> serde_json::Value {
    node_env(script, file, &[])
}

/// Runs `scripts/SCRIPT` on `file` under Node with extra environment variables and
/// returns the JSON it prints; fails with the reason when Node or the scripts' packages
/// cannot be had.
pub(crate) fn node_env(
    script: &str,
    file: &std::path::Path,
    env: &[(&str, &str)],
) -> serde_json::Value {
    let scripts = rigsmith_testdata::node_scripts();
    let o = std::process::Command::new("node")
        .arg(scripts.join(script))
        .arg(file)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("could not run node on scripts/{script}: {e}"));
    assert!(
        o.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{script} printed no JSON ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    })
}

#[test]
fn twist_roll_constraints_and_extended_colliders_load_in_three_vrm() {
    let c = mannequin::build(&MannequinOptions {
        pose: ArmPose::A,
        skirt: true,
        hair: true,
        ..Default::default()
    });
    let mut p = rigsmith::rig(&c, &rigsmith::RigOptions::vrm(), &mut |_, _| {}).unwrap();
    let mut c = std::mem::take(&mut p.character);
    let skel = c.skeleton.as_mut().unwrap();
    // A twist bone half way down the left upper arm: rolled by half the forearm's roll.
    let ua = skel.find(&p.humanoid["leftUpperArm"]).unwrap();
    let (head, tail) = (skel.bones[ua].head, skel.bones[ua].tail);
    let mut tw = Bone::new("upperarm_twist_01_l", Some(ua), head.lerp(tail, 0.5), tail);
    tw.deform = false;
    skel.bones.push(tw);
    p.sidecar.twist_bones.push("upperarm_twist_01_l".into());
    // A floor plane under the skirt and an inside sphere bounding the hair.
    let hips = skel.find(&p.humanoid["hips"]).unwrap();
    let head_b = skel.find(&p.humanoid["head"]).unwrap();
    let hm = skel.bones[hips].rest_matrix().inverse();
    p.sidecar.colliders.push(Collider {
        name: "floor".into(),
        bone: skel.bones[hips].name.clone(),
        shape: ColliderShape::Plane {
            offset: hm.transform_point3(Vec3::ZERO).to_array(),
            normal: hm.transform_vector3(Vec3::Y).normalize().to_array(),
        },
        group: "legs".into(),
        inside: false,
        measured: false,
    });
    p.sidecar.colliders.push(Collider {
        name: "hair_bound".into(),
        bone: skel.bones[head_b].name.clone(),
        shape: ColliderShape::Sphere {
            offset: [0.0, 0.0, 0.0],
            radius: 0.6,
        },
        group: "head".into(),
        inside: true,
        measured: false,
    });
    // The same file simulates (rigsmith's solver reads the same colliders) ...
    let rep = parts::simulate(&c, &p.sidecar, parts::Motion::Walk, 1.0).unwrap();
    assert!(rep.stable && rep.passed, "{rep:?}");
    // ... and exports.
    let dir = tempfile::tempdir().unwrap();
    let vrm = dir.path().join("twist.vrm");
    rigsmith::parts::vrm_write::write_vrm(
        &vrm,
        &c,
        &p.humanoid,
        &p.sidecar,
        &rigsmith::parts::vrm_write::VrmMeta::default(),
    )
    .unwrap();
    let json = rigsmith::io::gltf::load_doc(&std::fs::read(&vrm).unwrap(), &vrm)
        .unwrap()
        .json;
    let used: Vec<&str> = json["extensionsUsed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert!(used.contains(&"VRMC_node_constraint"), "{used:?}");
    assert!(
        used.contains(&"VRMC_springBone_extended_collider"),
        "{used:?}"
    );
    let v = node("validate-gltf.mjs", &vrm);
    assert_eq!(v["errors"], 0, "{v}");
    let v = node("three-vrm-load.mjs", &vrm);
    assert_eq!(v["finite"], true, "{v}");
    assert_eq!(v["constraints"], 1, "{v}");
    // The roll constraint (weight 0.5) follows half of a 60 degree roll of its source.
    let roll = v["rollFollowDeg"].as_f64().unwrap();
    assert!((roll - 30.0).abs() < 1.0, "{v}");
    // three-vrm reads the extended colliders: the plane and the inside sphere, beside
    // the standard capsules and sphere.
    let shapes = &v["colliderShapes"];
    assert_eq!(shapes["plane"], 1, "{v}");
    assert_eq!(shapes["insideSphere"], 1, "{v}");
    assert!(shapes["capsule"].as_u64().unwrap() >= 9, "{v}");
    assert!(v["maxTailTravel"].as_f64().unwrap() > 0.01, "{v}");
}

/// Builds the MakeHuman body with its skirt and tights on artist rig `rig`, exports it
/// with `rigsmith vrm`, checks the glTF-Validator finds 0 errors and returns the VRM's
/// path and what three-vrm reports of it (finite springs checked).
fn skirted_makehuman_vrm(
    dir: &std::path::Path,
    rig: &str,
) -> (std::path::PathBuf, serde_json::Value) {
    let glb = dir.join(format!("mh_{rig}.glb"));
    let data = crate::common::mpfb2_dir();
    crate::common::assert_ok(&crate::common::rigsmith(&[
        "corpus",
        "mpfb2",
        "--data",
        data.to_str().unwrap(),
        "--rig",
        rig,
        "--parts",
        "body,skirt,tights",
        "-o",
        glb.to_str().unwrap(),
    ]));
    let vrm = dir.join(format!("mh_{rig}.vrm"));
    // The export itself is what is loaded here; its springs under the VRM runtime's
    // model are judged by `vrm_fails_when_its_springs_misbehave_in_a_vrm_runtime`.
    crate::common::assert_ok(&crate::common::rigsmith(&[
        "vrm",
        glb.to_str().unwrap(),
        "-o",
        vrm.to_str().unwrap(),
        "--no-verify",
    ]));
    let v = node("validate-gltf.mjs", &vrm);
    assert_eq!(v["errors"], 0, "{v}");
    let v = node("three-vrm-load.mjs", &vrm);
    assert_eq!(v["finite"], true, "{v}");
    (vrm, v)
}

#[test]
fn makehuman_skirt_and_tights_vrm_loads_in_three_vrm() {
    let dir = tempfile::tempdir().unwrap();
    let (_, v) = skirted_makehuman_vrm(dir.path(), "game_engine");
    assert!(v["humanBones"].as_array().unwrap().len() >= 50, "{v}");
    // 17 skirt panels of 11 bones; 8 leg capsules and the waist lid in their groups.
    assert_eq!(v["springs"], 17, "{v}");
    assert_eq!(v["joints"], 187, "{v}");
    assert_eq!(v["colliderShapes"]["capsule"], 9, "{v}");
}

#[test]
fn makehuman_default_rig_exports_a_vrm_mapped_from_its_structure() {
    // MakeHuman's own `default` rig (163 bones: spine05..01, upperarm01.L, wrist.L,
    // finger1-1.L...) has none of the template names: the humanoid comes from its
    // structure.
    let dir = tempfile::tempdir().unwrap();
    let (vrm, v) = skirted_makehuman_vrm(dir.path(), "default");
    let bones: Vec<&str> = v["humanBones"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b.as_str())
        .collect();
    for b in rigsmith::humanoid::REQUIRED_BONES {
        assert!(bones.contains(&b), "{b} missing: {bones:?}");
    }
    // 23 body bones (no single toes bone: five toe chains per foot) and 30 fingers.
    assert_eq!(bones.len(), 53, "{bones:?}");
    // The file maps the bones a rigger would pick.
    let back = rigsmith::io::read_character(&vrm).unwrap();
    let h = &back.vrm.unwrap().humanoid;
    for (k, b) in [
        ("hips", "root"),
        ("spine", "spine04"),
        ("leftUpperArm", "upperarm01.L"),
        ("leftLowerArm", "lowerarm01.L"),
        ("leftHand", "wrist.L"),
        ("rightUpperLeg", "upperleg01.R"),
        ("rightFoot", "foot.R"),
    ] {
        assert_eq!(h.get(k).map(String::as_str), Some(b), "{k}: {h:?}");
    }
    // A quadruped is refused with exit 2, naming the file and the missing bones.
    let fox = crate::common::quaternius("animals_Fox.glb");
    assert!(
        fox.exists(),
        "the Quaternius fox is missing at {}",
        fox.display()
    );
    let out = crate::common::rigsmith(&[
        "vrm",
        fox.to_str().unwrap(),
        "-o",
        dir.path().join("fox.vrm").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("animals_Fox.glb") && err.contains("leftUpperLeg"),
        "{err}"
    );
}

#[test]
fn vrm_fails_when_its_springs_misbehave_in_a_vrm_runtime() {
    // The MakeHuman female's skirt swings between her legs under the VRM runtime's
    // model (no panel links): the file is written, the command exits 1 and says why.
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("mh_female.glb");
    let data = crate::common::mpfb2_dir();
    crate::common::assert_ok(&crate::common::rigsmith(&[
        "corpus",
        "mpfb2",
        "--data",
        data.to_str().unwrap(),
        "--variant",
        "female",
        "--parts",
        "body,skirt,tights",
        "-o",
        glb.to_str().unwrap(),
    ]));
    let vrm = dir.path().join("out.vrm");
    let out = crate::common::rigsmith(&["vrm", glb.to_str().unwrap(), "-o", vrm.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(vrm.exists());
    assert!(
        err.contains("misbehave in a VRM runtime") && err.contains("between the legs"),
        "{err}"
    );
    assert!(err.contains("rigsmith simulate"), "{err}");
}

#[test]
fn vrm_passes_its_own_check_on_the_rigged_skirted_mannequin() {
    // Rigged by `rigsmith rig` (game skeleton, skirt and hair chains), the mannequin's
    // springs behave under the VRM runtime's model in the walk and the jump.
    let dir = tempfile::tempdir().unwrap();
    let m = crate::common::skirted_mannequin(dir.path());
    let rigged = dir.path().join("rigged.glb");
    crate::common::assert_ok(&crate::common::rigsmith(&[
        "rig",
        m.to_str().unwrap(),
        "-o",
        rigged.to_str().unwrap(),
        "--no-review",
        "-q",
    ]));
    let vrm = dir.path().join("m.vrm");
    let out =
        crate::common::rigsmith(&["vrm", rigged.to_str().unwrap(), "-o", vrm.to_str().unwrap()]);
    crate::common::assert_ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("springs verified"), "{err}");
}
