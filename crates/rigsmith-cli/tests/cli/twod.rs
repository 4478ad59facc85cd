//! Tests of `rigsmith 2d`: check, build, paint-order, render, import-spine, export-spine.

use std::path::{Path, PathBuf};

use crate::common::rigsmith;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rigsmith-2d/tests/fixtures")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn code(o: &std::process::Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn check_clean_broken_and_malformed() {
    let kit = fixtures().join("kit/rig.json");
    let o = rigsmith(&["2d", "check", s(&kit)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "");
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"bones": [{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}], "slots": [{"name": "s", "bone": "nope"}],
            "origin": [512, 5000]}"#,
    )
    .unwrap();
    let o = rigsmith(&["2d", "check", s(&bad)]);
    assert_eq!(code(&o), 1);
    let out = text(&o.stdout);
    assert!(
        out.contains("error[structure]: bones form a cycle (a closed linkage): a -> b -> a"),
        "{out}"
    );
    assert!(
        out.contains("error[structure]: slot 's' is bound to bone 'nope'"),
        "{out}"
    );
    assert!(
        out.contains("warning[origin]: origin (512.0, 5000.0) lies outside"),
        "{out}"
    );
    let o = rigsmith(&["2d", "check", s(&bad), "--json"]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["errors"].as_u64(), v["warnings"].as_u64()),
        (Some(2), Some(1))
    );
    std::fs::write(&bad, r#"{"bones": [{"name": "a", "rotation_deg": "NaN"}]}"#).unwrap();
    let o = rigsmith(&["2d", "check", s(&bad)]);
    assert_eq!(code(&o), 2);
    let err = text(&o.stderr);
    assert!(
        err.contains("bad.json") && err.contains("bones[0].rotation_deg"),
        "{err}"
    );
}

#[test]
fn build_writes_a_scene_and_honours_strict() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("scene.json");
    let kit = fixtures().join("kit");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["node"]["name"], "kit");
    assert_eq!(v["textures"].as_array().unwrap().len(), 11);
    assert_eq!(v["resolutions"].as_array().unwrap().len(), 0);
    let first = std::fs::read(&out).unwrap();
    rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "-o",
        s(&out),
    ]);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        first,
        "same input, same bytes"
    );

    // Missing art: a fallback, or exit 2 (and nothing written) under --strict.
    let art = tmp.path().join("art");
    std::fs::create_dir_all(art.join("parts")).unwrap();
    for e in std::fs::read_dir(kit.join("parts")).unwrap() {
        let e = e.unwrap();
        if e.file_name() != "eyes.png" {
            std::fs::copy(e.path(), art.join("parts").join(e.file_name())).unwrap();
        }
    }
    let out2 = tmp.path().join("scene2.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&art),
        "-o",
        s(&out2),
    ]);
    assert_eq!(code(&o), 0);
    assert!(
        text(&o.stderr).contains("eyes.png is missing"),
        "{}",
        text(&o.stderr)
    );
    let out3 = tmp.path().join("scene3.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&art),
        "--strict",
        "-o",
        s(&out3),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("missing art (strict)"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out3.exists());
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&tmp.path().join("nope")),
        "-o",
        s(&out3),
    ]);
    assert_eq!(code(&o), 2);
}

#[test]
fn paint_orders() {
    let kit = fixtures().join("kit/rig.json");
    let o = rigsmith(&["2d", "paint-order", s(&kit)]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        text(&o.stdout),
        "leg_l\nleg_r\ntorso/arm_upper_r\ntorso/arm_upper_r/arm_lower_r\ntorso\ntorso/head\ntorso/head/eyes\n\
         torso/head/mouth\ntorso/arm_upper_l\ntorso/arm_upper_l/arm_lower_l\n"
    );
    let o = rigsmith(&["2d", "paint-order", s(&kit), "--containers"]);
    assert_eq!(
        text(&o.stdout),
        ".: leg_l leg_r torso\narm_upper_l: arm_upper_l arm_lower_l\narm_upper_r: arm_upper_r arm_lower_r\n\
         head: head eyes mouth\ntorso: arm_upper_r torso head arm_upper_l\n"
    );
}

#[test]
fn render_a_posed_rig() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = fixtures().join("kit");
    let pose = tmp.path().join("pose.json");
    std::fs::write(&pose, r#"{"bones": {"arm_upper_r": {"rotation_deg": 60}}}"#).unwrap();
    let png = tmp.path().join("kit.png");
    let o = rigsmith(&[
        "2d",
        "render",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "--pose",
        s(&pose),
        "--size",
        "256",
        "-o",
        s(&png),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!(h, 256);
    std::fs::write(
        &pose,
        r#"{"bones": {"arm_upper_r": {"rotation_deg": "lots"}}}"#,
    )
    .unwrap();
    let o = rigsmith(&[
        "2d",
        "render",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "--pose",
        s(&pose),
        "-o",
        s(&png),
    ]);
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("pose.json"), "{}", text(&o.stderr));
}

#[test]
fn spine_import_and_export() {
    let tmp = tempfile::tempdir().unwrap();
    let rig = tmp.path().join("hero.rig.json");
    let o = rigsmith(&[
        "2d",
        "import-spine",
        s(&fixtures().join("spine/hero.json")),
        "-o",
        s(&rig),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(text(&o.stderr)
        .contains("not mapped: skin 'default' slot 'cape' attachment 'cape': a mesh attachment"));
    let back = tmp.path().join("hero.spine.json");
    let o = rigsmith(&["2d", "export-spine", s(&rig), "-o", s(&back)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&back).unwrap()).unwrap();
    assert_eq!(v["bones"].as_array().unwrap().len(), 8);
    assert_eq!(v["slots"].as_array().unwrap().len(), 7);
    assert_eq!(v["skins"][0]["attachments"]["torso"]["torso"]["x"], 58.0);
    // Refuses to overwrite its input; malformed Spine is bad input.
    let o = rigsmith(&["2d", "export-spine", s(&rig), "-o", s(&rig)]);
    assert_eq!(code(&o), 2);
    std::fs::write(&back, r#"{"bones": [{"name": 3}]}"#).unwrap();
    let o = rigsmith(&[
        "2d",
        "import-spine",
        s(&back),
        "-o",
        s(&tmp.path().join("x.json")),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("bones[0].name"),
        "{}",
        text(&o.stderr)
    );
}
