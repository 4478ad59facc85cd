//! Tests of `rigsmith check`: the MakeHuman `game_engine` body written as GLB (clean,
//! exit 0), its twin with a knee bent backwards (a blocker, exit 1), and bad input
//! (exit 2).

#[path = "../../../rigsmith/tests/it/review/mh.rs"]
mod mh;

use std::path::Path;

use glam::Vec3;
use rigsmith::io::gltf::WriteOptions;

use crate::common::{mpfb2_dir, rigsmith};

fn write(c: &rigsmith::Character, path: &Path) {
    rigsmith::io::write_character(path, c, &WriteOptions::default()).unwrap();
}

#[test]
fn check_makehuman_json_html_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    // The corpus files sit 0.82 m below the floor: the model check's fix puts the
    // feet on y = 0 (the raw file fails `model.floor`, a blocker).
    let mut clean = mh::character(&mpfb2_dir(), "game_engine");
    let m = rigsmith::fit::model_check(&clean);
    rigsmith::fit::fix_model(&mut clean, &m);
    let good = dir.path().join("mh.glb");
    write(&clean, &good);
    let html = dir.path().join("report.html");
    let sheets = dir.path().join("sheets");
    let out = rigsmith(&[
        "check",
        good.to_str().unwrap(),
        "--json",
        "--html",
        html.to_str().unwrap(),
        "--sheets",
        sheets.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "checks",
            "counts",
            "not_verified",
            "route",
            "weights",
            "parts"
        ]
    );
    assert_eq!(v["counts"]["blocker"], 0);
    let ids: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].as_str().unwrap())
        .collect();
    for id in [
        "weights.unweighted",
        "weights.cross_side_leak",
        "deform.elbow_120.L.band",
        "place.knee_bend.R",
        "structure.root_follows",
    ] {
        assert!(ids.contains(&id), "{id} missing");
    }
    // Written with 4 influences: the export limit passes.
    let inf = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == "weights.max_influences")
        .unwrap();
    assert_eq!(inf["passed"], true, "{inf}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("deform.knee_120.L.band"));
    assert_eq!(page.matches("data:image/png;base64,").count(), 3);
    for s in ["placement.png", "poses.png", "joints.png"] {
        let png = std::fs::read(sheets.join(s)).unwrap();
        assert_eq!(&png[1..4], b"PNG", "{s}");
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert!(w >= 256 && h >= 256, "{s}: {w}x{h}");
    }

    // A knee bent backwards is a blocker: exit 1.
    let mut bad = clean.clone();
    let s = bad.skeleton.as_mut().unwrap();
    let calf = s.find("calf_l").unwrap();
    s.bones[calf].head -= Vec3::Z * 0.06;
    let thigh = s.find("thigh_l").unwrap();
    s.bones[thigh].tail = s.bones[calf].head;
    let badp = dir.path().join("bad.glb");
    write(&bad, &badp);
    let out = rigsmith(&["check", badp.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("place.knee_bend.L"), "{text}");

    // Bad input: exit 2 with the file named.
    let missing = dir.path().join("nope.glb");
    let out = rigsmith(&["check", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope.glb"));
}
