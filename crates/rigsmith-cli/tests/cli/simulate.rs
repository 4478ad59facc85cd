//! Tests of `rigsmith simulate` and `rigsmith vrm`, and the VRM loaded by the reference
//! runtime (`@pixiv/three-vrm`, through `scripts/three-vrm-load.mjs`).

use crate::common::{assert_ok, rigsmith, skirted_mannequin};

#[test]
fn simulate_reports_json_and_passes_on_the_mannequin() {
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let out = rigsmith(&[
        "simulate",
        m.to_str().unwrap(),
        "--motion",
        "run",
        "--seconds",
        "2",
        "--json",
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["motion"], "run");
    assert!(v["worst_penetration_mm_at_1_7m"].as_f64().unwrap() < 5.0);
    assert!(v["worst_collider_mm_at_1_7m"].as_f64().unwrap() < 5.0);
    assert_eq!(v["skirt_joints_between_legs"], 0);
    assert!(v["chains"].as_u64().unwrap() >= 14);
    // Bad input: exit 2 with the file named.
    let out = rigsmith(&["simulate", "/nonexistent/x.glb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.glb"));
    let out = rigsmith(&["simulate", m.to_str().unwrap(), "--seconds", "-1"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn vrm_export_loads_in_three_vrm() {
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let vrm = dir.path().join("m.vrm");
    // Loading is what is tested here; the springs' verdict under the VRM runtime's
    // model is `vrm`'s own check (tests/cli/vrm.rs).
    let out = rigsmith(&[
        "vrm",
        m.to_str().unwrap(),
        "-o",
        vrm.to_str().unwrap(),
        "--no-verify",
    ]);
    assert_ok(&out);
    assert!(dir.path().join("m.rig.json").exists());
    let v = crate::vrm::node_env("three-vrm-load.mjs", &vrm, &[]);
    assert_eq!(v["finite"], true);
    assert!(v["humanBones"].as_array().unwrap().len() >= 15);
    assert!(v["joints"].as_u64().unwrap() > 50, "{v}");
    assert!(v["colliders"].as_u64().unwrap() >= 5, "{v}");
    assert!(v["maxTailTravel"].as_f64().unwrap() > 0.1, "{v}");
}

#[test]
fn simulate_sheet_draws_the_motion() {
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let png = dir.path().join("walk.png");
    let out = rigsmith(&[
        "simulate",
        m.to_str().unwrap(),
        "--motion",
        "walk",
        "--seconds",
        "1.5",
        "--sheet",
        png.to_str().unwrap(),
    ]);
    assert_ok(&out);
    let img = rigsmith_render::Image::load(&png).unwrap();
    // Six frames from the front and the right, 240 x 360 each, under a title bar.
    assert_eq!(img.width, 6 * 240);
    let header = rigsmith_render::sheet::Sheet::header_height(240);
    assert_eq!(img.height, header + 2 * 360);
    // Not blank: the body, the chains (yellow) and the leg colliders (blue) are drawn.
    let bg = [44, 46, 52];
    assert!(img.count_not(bg) > (img.width * img.height / 5) as usize);
    let (mut yellow, mut blue) = (0usize, 0usize);
    for y in 0..img.height {
        for x in 0..img.width {
            let p = img.get(x, y).unwrap();
            if p[0] > 200 && p[1] > 160 && p[2] < 120 {
                yellow += 1;
            }
            if p[2] > 180 && p[0] < 150 {
                blue += 1;
            }
        }
    }
    assert!(yellow > 2000, "{yellow} chain pixels");
    assert!(blue > 2000, "{blue} collider pixels");
    // An unwritable sheet path (under a file) is an error naming it.
    let bad = m.join("x.png");
    let out = rigsmith(&[
        "simulate",
        m.to_str().unwrap(),
        "--seconds",
        "0.5",
        "--sheet",
        bad.to_str().unwrap(),
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.png"));
}

#[test]
fn simulate_drives_the_body_with_a_gltf_animation() {
    let fox = crate::common::quaternius("animals_Fox.glb");
    let fox = fox.to_str().unwrap();
    let out = rigsmith(&[
        "simulate",
        fox,
        "--animation",
        "AnimalArmature|Gallop",
        "--seconds",
        "2",
        "--json",
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["motion"], "animation");
    // The tail (8 joints) and the two ears (4 each) swing.
    assert_eq!(v["chains"], 3);
    assert_eq!(v["joints"], 16);
    assert_eq!(v["stable"], true);
    assert!(v["max_swing_deg"].as_f64().unwrap() > 30.0, "{v}");
    // By index, in text.
    let out = rigsmith(&["simulate", fox, "--animation", "3", "--seconds", "1"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("AnimalArmature|Gallop"));
    // No such clip: exit 2, the clips listed.
    let out = rigsmith(&["simulate", fox, "--animation", "Swim"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Swim") && err.contains("AnimalArmature|Idle"),
        "{err}"
    );
}

#[test]
fn the_vrm_model_matches_three_vrm_on_the_exported_file() {
    use rigsmith::parts::{self, Motion, Sidecar, SpringModel};
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let vrm = dir.path().join("m.vrm");
    assert_ok(&rigsmith(&[
        "vrm",
        m.to_str().unwrap(),
        "-o",
        vrm.to_str().unwrap(),
        "--no-verify",
    ]));
    // three-vrm sways the hips for 1 s at 60 Hz; rigsmith's VRM runtime model plays the
    // same motion on the same file and sidecar.
    let three = crate::vrm::node_env("three-vrm-load.mjs", &vrm, &[("THREE_VRM_POSITIONS", "1")]);
    assert!(three["maxTailTravel"].as_f64().unwrap() > 0.1, "{three}");
    let c = rigsmith::io::read_character(&vrm).unwrap();
    let sc = Sidecar::read(&parts::sidecar_path(&vrm)).unwrap();
    let sys = parts::spring_system(&c, &sc, SpringModel::Vrm).unwrap();
    let (_, frames) =
        parts::simulate_frames(&c, &sc, Motion::Sway, SpringModel::Vrm, 1.0, 1).unwrap();
    let last = frames.last().unwrap();
    let mut errors = Vec::new();
    for (ci, (_, joints)) in sys.chains.iter().enumerate() {
        // The node of bone k + 1 sits at bone k's tail.
        for (k, j) in joints.iter().enumerate().skip(1) {
            let p = three["positions"][j.bone.to_string()]
                .as_array()
                .unwrap_or_else(|| panic!("no position for node {}", j.bone));
            let q = glam::Vec3::new(
                p[0].as_f64().unwrap() as f32,
                p[1].as_f64().unwrap() as f32,
                p[2].as_f64().unwrap() as f32,
            );
            errors.push((q - last.tails[ci][k - 1]).length());
        }
    }
    errors.sort_by(f32::total_cmp);
    let (median, max) = (errors[errors.len() / 2], errors[errors.len() - 1]);
    eprintln!(
        "{} joints: median {:.2} mm, max {:.2} mm",
        errors.len(),
        median * 1e3,
        max * 1e3
    );
    assert!(errors.len() > 80);
    assert!(median < 0.001 && max < 0.01, "{median} {max}");
    // Positive control: the same comparison with the skirt's stiffness and drag
    // doubled on rigsmith's side only.
    let mut stiff = sc.clone();
    for p in stiff.springs.values_mut() {
        p.stiffness *= 2.0;
        p.drag = (p.drag * 2.0).min(0.9);
    }
    let (_, off) =
        parts::simulate_frames(&c, &stiff, Motion::Sway, SpringModel::Vrm, 1.0, 1).unwrap();
    let o = off.last().unwrap();
    let apart = o
        .tails
        .iter()
        .flatten()
        .zip(last.tails.iter().flatten())
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0f32, f32::max);
    eprintln!("stiffer and heavier-damped: {:.1} mm apart", apart * 1e3);
    assert!(apart > 3.0 * max.max(0.005), "{apart} vs {max}");
}
