//! `rig --control`, `bake` and `check` with a control rig in the sidecar.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::common::{assert_ok, rigsmith};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The mannequin rigged with `--control` (no review), once.
fn rigged() -> &'static (tempfile::TempDir, PathBuf) {
    static R: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    R.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.glb");
        assert_ok(&rigsmith(&[
            "rig",
            "--demo",
            "-o",
            s(&out),
            "--control",
            "--no-review",
        ]));
        (dir, out)
    })
}

#[test]
fn rig_control_writes_the_blender_script_and_the_rig_in_the_sidecar() {
    let (dir, _) = rigged();
    let py = std::fs::read_to_string(dir.path().join("m.control.py")).unwrap();
    assert!(py.contains("import bpy") && py.contains("\"settings\""));
    let sc: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("m.rig.json")).unwrap()).unwrap();
    let bones = sc["control"]["bones"].as_array().unwrap();
    assert!(bones.iter().any(|b| b["name"] == "foot_ik.L"));
    assert!(bones.len() > 150, "{}", bones.len());
}

#[test]
fn check_runs_rubric_b_when_the_sidecar_has_a_control_rig() {
    let (_, glb) = rigged();
    let o = rigsmith(&["check", s(glb), "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let checks = v["checks"]
        .as_array()
        .or_else(|| v["review"]["checks"].as_array())
        .unwrap();
    let control: Vec<&Value> = checks
        .iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("control."))
        .collect();
    assert_eq!(control.len(), 10);
    assert!(control.iter().all(|c| c["passed"] == true), "{control:?}");
}

#[test]
fn bake_writes_the_walk_into_the_glb() {
    let (dir, glb) = rigged();
    let out = dir.path().join("walk.glb");
    let o = rigsmith(&["bake", s(glb), "--walk", "2", "-o", s(&out), "--json"]);
    assert_ok(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["frames"], 61);
    assert!(std::fs::metadata(&out).unwrap().len() > std::fs::metadata(glb).unwrap().len());
}

#[test]
fn bake_without_a_control_rig_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("plain.glb");
    assert_ok(&rigsmith(&["mannequin", "-o", s(&m)]));
    let o = rigsmith(&[
        "bake",
        s(&m),
        "--walk",
        "1",
        "-o",
        s(&dir.path().join("w.glb")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no control rig") && err.contains("--control"),
        "{err}"
    );
}

#[test]
fn a_sidecar_control_rig_with_a_cycle_is_refused_naming_it() {
    let (dir, glb) = rigged();
    let d2 = dir.path().join("cycle");
    std::fs::create_dir_all(&d2).unwrap();
    let glb2 = d2.join("m.glb");
    std::fs::copy(glb, &glb2).unwrap();
    let mut sc: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("m.rig.json")).unwrap()).unwrap();
    for b in sc["control"]["bones"].as_array_mut().unwrap() {
        let target = match b["name"].as_str().unwrap() {
            "torso" => "settings",
            "settings" => "torso",
            _ => continue,
        };
        let c = serde_json::json!({"name": "track", "type": "damped_track", "target": target, "influence": 1.0});
        match b.get_mut("constraints").and_then(Value::as_array_mut) {
            Some(v) => v.push(c),
            None => b["constraints"] = serde_json::json!([c]),
        }
    }
    std::fs::write(d2.join("m.rig.json"), sc.to_string()).unwrap();
    let o = rigsmith(&["check", s(&glb2)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("m.rig.json") && err.contains("dependency cycle") && err.contains("torso"),
        "{err}"
    );
}
