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

/// A rig document written to `dir/name`.
fn write_rig(dir: &Path, name: &str, v: serde_json::Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    p
}

fn interleaved() -> serde_json::Value {
    serde_json::json!({"schema_version": "0.2.0", "nesting": "bones",
        "bones": [{"name": "arm"}, {"name": "hand", "parent": "arm"}, {"name": "cord"}],
        "slots": [{"name": "arm", "bone": "arm", "draw_order": 1}, {"name": "cord", "bone": "cord", "draw_order": 2},
                  {"name": "hand", "bone": "hand", "draw_order": 3}]})
}

#[test]
fn check_only_warns_about_a_chain_draw_order() {
    let tmp = tempfile::tempdir().unwrap();
    let rig = write_rig(tmp.path(), "rig.json", interleaved());
    let o = rigsmith(&["2d", "check", s(&rig)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("warning[chain_draw_order]: the stage paints"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn build_refuses_a_chain_draw_order() {
    let tmp = tempfile::tempdir().unwrap();
    let rig = write_rig(tmp.path(), "rig.json", interleaved());
    let out = tmp.path().join("scene.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&rig),
        "--art",
        s(tmp.path()),
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("the rig cannot be built: the stage paints"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists());
    let o = rigsmith(&[
        "2d",
        "build",
        s(&rig),
        "--art",
        s(tmp.path()),
        "--interleave",
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
}

fn unversioned_posed() -> serde_json::Value {
    serde_json::json!({"name": "stick",
        "bones": [{"name": "root", "x": 512, "y": 900}, {"name": "a", "parent": "root", "rotation_deg": 9}],
        "slots": [{"name": "a", "bone": "a"}]})
}

#[test]
fn build_keeps_a_legacy_rest_pose_unapplied_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let rig = write_rig(tmp.path(), "rig.json", unversioned_posed());
    let out = tmp.path().join("scene.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&rig),
        "--art",
        s(tmp.path()),
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("warning[rest_pose]: rest pose NOT applied"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["node"]["children"][0]["rotation"], 0.0);
    assert_eq!(v["rest_pose_warnings"][0]["cause"], "unversioned");
    // Versioned, the pose applies and nothing is said.
    let mut cur = unversioned_posed();
    cur["schema_version"] = "0.2.0".into();
    let rig = write_rig(tmp.path(), "rig.json", cur);
    let o = rigsmith(&[
        "2d",
        "build",
        s(&rig),
        "--art",
        s(tmp.path()),
        "-o",
        s(&out),
    ]);
    assert!(
        !text(&o.stderr).contains("rest_pose"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!((v["node"]["children"][0]["rotation"].as_f64().unwrap() - 0.15708).abs() < 1e-4);
}

#[test]
fn check_warns_about_a_legacy_rest_pose() {
    let tmp = tempfile::tempdir().unwrap();
    let rig = write_rig(tmp.path(), "rig.json", unversioned_posed());
    let o = rigsmith(&["2d", "check", s(&rig)]);
    assert_eq!(code(&o), 0);
    assert!(
        text(&o.stdout).starts_with("warning[legacy_rest_pose]: rest pose NOT applied"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn migrate_writes_the_current_version_and_keeps_the_picture() {
    let tmp = tempfile::tempdir().unwrap();
    let mut old = unversioned_posed();
    old["schema_version"] = "0.1.0".into();
    let rig = write_rig(tmp.path(), "old.json", old);
    let out = tmp.path().join("new.json");
    let o = rigsmith(&["2d", "migrate", s(&rig), "-o", s(&out)]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("0.1.0 -> 0.2.0"),
        "{}",
        text(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["schema_version"], "0.2.0");
    assert_eq!(v["rest_rotation"], false);
    // The migrated file reads silently.
    let o = rigsmith(&["2d", "check", s(&out)]);
    assert_eq!((code(&o), text(&o.stdout)), (0, String::new()));
    let o = rigsmith(&["2d", "migrate", "--list"]);
    assert_eq!(code(&o), 0);
    assert!(
        text(&o.stdout).contains("PropDescriptor: 0.1.0 -> 0.2.0"),
        "{}",
        text(&o.stdout)
    );
    let o = rigsmith(&["2d", "migrate", s(&rig), "--kind", "Nope", "-o", s(&out)]);
    assert_eq!(code(&o), 2);
}

#[test]
fn affordances_of_a_chain_and_of_a_flat_rig() {
    let kit = fixtures().join("kit/rig.json");
    let o = rigsmith(&["2d", "affordances", s(&kit), "--json"]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["rig.hierarchy"]["count"], 3);
    let o = rigsmith(&["2d", "affordances", s(&kit)]);
    assert!(
        text(&o.stdout).starts_with("rig.hierarchy: count 3\n"),
        "{}",
        text(&o.stdout)
    );
    let lamp = fixtures().join("lamp/rig.json");
    let o = rigsmith(&["2d", "affordances", s(&lamp), "--json"]);
    assert_eq!(text(&o.stdout).trim(), "{}");
}

#[test]
fn build_skips_slots_and_loads_recoloured_textures() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = fixtures().join("kit");
    let out = tmp.path().join("scene.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "--skip-slot",
        "head",
        "--texture-src",
        "parts/torso.svg=characters/kit/parts/leg.svg",
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let names: Vec<&str> = v["textures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["alias"].as_str().unwrap())
        .collect();
    assert!(!names
        .iter()
        .any(|n| n.starts_with("kit/head/") || n.starts_with("kit/eyes/")));
    assert_eq!(v["textures"].as_array().unwrap().len(), 7);
    let torso = v["textures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["alias"].as_str().unwrap().starts_with("kit/torso/torso"))
        .unwrap();
    assert_eq!(torso["src"], "characters/kit/parts/leg.svg");
    // Unknown slot: bad input.
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "--skip-slot",
        "tail",
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        text(&o.stderr).contains("no slot 'tail'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn texture_srcs_file_addresses_the_recolour_by_content() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, kitdir) = copy_kit(tmp.path());
    std::fs::create_dir_all(kitdir.join("style")).unwrap();
    std::fs::write(
        kitdir.join("style/torso_red.svg"),
        r#"<svg width="200" height="300"/>"#,
    )
    .unwrap();
    let map = tmp.path().join("style.json");
    std::fs::write(
        &map,
        r#"{"parts/torso.svg": "characters/kit/style/torso_red.svg"}"#,
    )
    .unwrap();
    let out = tmp.path().join("scene.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kitdir.join("rig.json")),
        "--art",
        s(&kitdir),
        "--texture-srcs",
        s(&map),
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let torso = v["textures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["src"] == "characters/kit/style/torso_red.svg")
        .unwrap();
    assert_eq!(
        torso["alias"].as_str().unwrap().len(),
        "kit/torso/torso@".len() + 12
    );
    std::fs::write(&map, "[1]").unwrap();
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kitdir.join("rig.json")),
        "--art",
        s(&kitdir),
        "--texture-srcs",
        s(&map),
        "-o",
        s(&out),
    ]);
    assert_eq!(code(&o), 2);
}

fn copy_kit(root: &Path) -> (PathBuf, PathBuf) {
    let kit = fixtures().join("kit");
    let dir = root.join("kit");
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    std::fs::copy(kit.join("rig.json"), dir.join("rig.json")).unwrap();
    for e in std::fs::read_dir(kit.join("parts")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join("parts").join(e.file_name())).unwrap();
    }
    (kit, dir)
}

#[test]
fn pivots_are_checked_against_the_skeleton_svg() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = fixtures().join("kit");
    let good = tmp.path().join("skeleton.svg");
    std::fs::write(
        &good,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><g id="skeleton"><circle id="neck" r="4"/></g></svg>"#,
    )
    .unwrap();
    let o = rigsmith(&[
        "2d",
        "check",
        s(&kit.join("rig.json")),
        "--skeleton",
        s(&good),
    ]);
    assert_eq!(code(&o), 0, "{}{}", text(&o.stdout), text(&o.stderr));
    let bad = tmp.path().join("other.svg");
    std::fs::write(
        &bad,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><g id="skeleton"><circle id="chin" r="4"/></g></svg>"#,
    )
    .unwrap();
    let o = rigsmith(&[
        "2d",
        "check",
        s(&kit.join("rig.json")),
        "--skeleton",
        s(&bad),
    ]);
    assert_eq!(code(&o), 1);
    let out = text(&o.stdout);
    assert!(
        out.contains("error[pivot]: bone 'head' names pivot 'neck'") && out.contains("other.svg"),
        "{out}"
    );
    let scene = tmp.path().join("scene.json");
    let o = rigsmith(&[
        "2d",
        "build",
        s(&kit.join("rig.json")),
        "--art",
        s(&kit),
        "--skeleton",
        s(&bad),
        "-o",
        s(&scene),
    ]);
    assert_eq!(code(&o), 2);
    let err = text(&o.stderr);
    assert!(
        err.contains("other.svg") && err.contains("bone 'head'"),
        "{err}"
    );
    // Without --skeleton, check says the pivots went unchecked.
    let o = rigsmith(&["2d", "check", s(&kit.join("rig.json"))]);
    assert!(
        text(&o.stderr).contains("pivots not checked"),
        "{}",
        text(&o.stderr)
    );
}
