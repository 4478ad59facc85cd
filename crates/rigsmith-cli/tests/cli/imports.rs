//! The rigged GLB in other tools: the Khronos validator, three.js (its morph targets)
//! and Blender 5 (its shape keys); and `check` reading the fixes beside the file.
//! A tool that is not installed skips its test with a printed reason.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{assert_ok, repo_root, rigsmith};

/// The demo rigged with the fixes into `dir/demo.glb` (and its sidecar).
fn rig_demo(dir: &Path) -> PathBuf {
    let glb = dir.join("demo.glb");
    assert_ok(&rigsmith(&[
        "rig",
        "--demo",
        "-o",
        glb.to_str().unwrap(),
        "--no-review",
    ]));
    glb
}

fn has(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The corrective names the demo carries, both sides.
const CORRECTIVES: [&str; 10] = [
    "CS_arm_down_l",
    "CS_arm_down_r",
    "CS_arm_up_l",
    "CS_arm_up_r",
    "CS_elbow_l",
    "CS_elbow_r",
    "CS_knee_l",
    "CS_knee_r",
    "CS_leg_forward_l",
    "CS_leg_forward_r",
];

#[test]
fn three_js_loads_the_corrective_morph_targets() {
    if !has("node", "--version") {
        println!("skipped: node is not installed; three.js is not tried");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let glb = rig_demo(dir.path());
    let v = crate::vrm::node_env("three-morphs.mjs", &glb, &[]);
    assert_eq!(v["finite"], true, "{v}");
    let names: Vec<&str> = v["correctives"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .collect();
    assert_eq!(names, CORRECTIVES, "{v}");
    // Every target moves something, by at most a tenth of the figure's height.
    for m in v["meshes"].as_array().unwrap() {
        for (name, d) in m["targets"].as_object().unwrap() {
            let d = d.as_f64().unwrap();
            assert!(d > 1e-4 && d < 0.18, "{name}: {d} m");
        }
    }
    let (errors, _) = validate(&glb);
    assert_eq!(errors, 0);
}

/// Errors and warnings the Khronos validator reports on `path`.
fn validate(path: &Path) -> (u64, u64) {
    let o = Command::new("node")
        .arg(repo_root().join("scripts/validate-gltf.mjs"))
        .arg(path)
        .output()
        .expect("run the validator");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("validator JSON");
    (
        v["errors"].as_u64().unwrap_or(u64::MAX),
        v["warnings"].as_u64().unwrap_or(0),
    )
}

/// The Python of the bpy venv, when Blender's module is installed there.
fn bpy_python() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let py = Path::new(&home).join(".cache/rigsmith/bpy-venv/bin/python");
    let ok = Command::new(&py)
        .args(["-c", "import bpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(py)
}

#[test]
fn blender_imports_the_correctives_as_shape_keys() {
    let Some(py) = bpy_python() else {
        println!("skipped: no bpy module in ~/.cache/rigsmith/bpy-venv (python 3.11 with `pip install bpy==5.0.1`): Blender's import is not tried");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let glb = rig_demo(dir.path());
    let o = Command::new(py)
        .arg(repo_root().join("bench/blender_import.py"))
        .arg(&glb)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let keys = text
        .lines()
        .find(|l| l.contains("shape keys:"))
        .unwrap_or_else(|| panic!("no shape keys line: {text}"));
    for n in CORRECTIVES {
        assert!(keys.contains(n), "{n} missing: {keys}");
    }
}

#[test]
fn check_plays_the_fixes_the_sidecar_names_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let glb = rig_demo(dir.path());
    let run = |extra: &[&str]| {
        let mut args = vec!["check", glb.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = rigsmith(&args);
        serde_json::from_slice::<serde_json::Value>(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
    };
    let with = run(&[]);
    let route = with["route"].as_str().unwrap();
    assert!(
        route.contains("DQS blend (the file's preserve-volume mask) + correctives (10)"),
        "{route}"
    );
    let plain = run(&["--no-fixes"]);
    let route = plain["route"].as_str().unwrap();
    assert!(
        !route.contains("DQS blend") && !route.contains("correctives"),
        "{route}"
    );
    let band = |v: &serde_json::Value, id: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no {id}"))
            .clone()
    };
    let id = "deform.elbow_120.L.band";
    let (a, b) = (band(&plain, id), band(&with, id));
    eprintln!(
        "{id}: {} plain, {} with the fixes ({})",
        a["value"], b["value"], b["detail"]
    );
    assert!(b["value"].as_f64().unwrap() > a["value"].as_f64().unwrap() + 0.1);
    // The check with the fixes gives the figure without them too.
    assert!(
        b["detail"].as_str().unwrap().contains("without the fixes"),
        "{b}"
    );
}
