//! The rules of separate parts through the binary: `check` reads the file's clips for
//! rule 3, `rig` records what the source carried and keeps a sidecar's authored
//! colliders and springs.

use crate::common::{assert_ok, quaternius, rigsmith, skirted_mannequin};

fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn check_finds_the_tracks_the_fox_clips_put_on_its_tail() {
    let out = rigsmith(&[
        "check",
        quaternius("animals_Fox.glb").to_str().unwrap(),
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    let k = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == "parts.cloth_animated")
        .unwrap_or_else(|| panic!("no parts.cloth_animated: {v}"));
    assert_eq!(k["passed"], false, "{k}");
    assert!(k["value"].as_f64().unwrap() >= 6.0, "{k}");
    assert!(k["detail"].as_str().unwrap().contains("Tail3"), "{k}");
    let not_verified = v["not_verified"].to_string();
    assert!(!not_verified.contains("rule 3"), "{not_verified}");
}

#[test]
fn rig_records_the_source_and_keeps_authored_colliders_and_springs() {
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let first = dir.path().join("first.glb");
    assert_ok(&rigsmith(&[
        "rig",
        m.to_str().unwrap(),
        "-o",
        first.to_str().unwrap(),
    ]));
    let mut sc = json(&dir.path().join("first.rig.json"));
    // An unrigged source: no skeleton, no authored weights (rigsmith's own weights do
    // not count).
    assert_eq!(sc["source_skeleton"], false);
    assert_eq!(sc["weights_authored"], false);
    // An artist's sidecar beside the input: one authored collider, stiffer skirts.
    let mut mine = sc["colliders"][0].clone();
    mine["name"] = "artist.waist".into();
    mine["measured"] = false.into();
    mine["shape"]["radius"] = 0.123.into();
    sc["colliders"].as_array_mut().unwrap().push(mine.clone());
    sc["springs"]["skirt"] = serde_json::json!({
        "stiffness": 6.5, "drag": 0.3, "gravity_power": 0.1, "gravity_dir": [0.0, -1.0, 0.0],
        "hit_radius": 0.02, "collider_groups": ["legs"], "center": true
    });
    std::fs::write(dir.path().join("m.rig.json"), sc.to_string()).unwrap();
    let second = dir.path().join("second.glb");
    assert_ok(&rigsmith(&[
        "rig",
        m.to_str().unwrap(),
        "-o",
        second.to_str().unwrap(),
    ]));
    let got = json(&dir.path().join("second.rig.json"));
    let kept = got["colliders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "artist.waist")
        .unwrap_or_else(|| panic!("authored collider dropped: {}", got["colliders"]));
    assert_eq!(kept["measured"], false);
    assert_eq!(kept["shape"]["radius"], 0.123);
    assert_eq!(got["springs"]["skirt"]["stiffness"], 6.5);
}
