//! Faces through the binary: a MakeHuman head exported as VRM 1.0 with `--face basic`,
//! validated by the Khronos glTF-Validator and driven in `@pixiv/three-vrm` through
//! `scripts/three-vrm-face.mjs` (blink closes the lids, aa opens the mouth).

use crate::common::{assert_ok, mpfb2_dir, rigsmith};
use rigsmith::face::{FaceMode, FaceOptions};

/// The nearest vertex of part 0 (the body) to `p`.
fn nearest(c: &rigsmith::Character, p: glam::Vec3) -> usize {
    let pos = &c.parts[0].mesh.positions;
    (0..pos.len())
        .min_by(|&a, &b| (pos[a] - p).length().total_cmp(&(pos[b] - p).length()))
        .unwrap()
}

/// Writes the unrigged MakeHuman body with the parts a face needs (eyes, lashes,
/// teeth, tongue; the caucasian expression units when `units`) to `glb` through
/// `corpus mpfb2`.
fn write_unrigged_head(glb: &std::path::Path, units: bool) {
    let data = mpfb2_dir();
    let mut args = vec![
        "corpus",
        "mpfb2",
        "--data",
        data.to_str().unwrap(),
        "--unrigged",
        "--parts",
        "body,eyes,eyelashes,teeth,tongue",
        "-o",
        glb.to_str().unwrap(),
    ];
    if units {
        args.extend(["--expression-units", "caucasian"]);
    }
    assert_ok(&rigsmith(&args));
}

/// Builds a MakeHuman head (with expression units when `units`), exports it with
/// `vrm --face basic`, and returns (the three-vrm probe's JSON, H).
fn export_and_probe(units: bool) -> (serde_json::Value, f32) {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("mh.glb");
    let vrm = dir.path().join("mh.vrm");
    write_unrigged_head(&glb, units);
    assert_ok(&rigsmith(&[
        "vrm",
        glb.to_str().unwrap(),
        "-o",
        vrm.to_str().unwrap(),
        "--face",
        "basic",
        "--no-verify",
    ]));
    let v = crate::vrm::node_env("validate-gltf.mjs", &vrm, &[]);
    assert_eq!(v["errors"], 0, "{v}");
    // Where the lid margins and the lips are: the same face fit the export ran.
    let c = rigsmith::io::read_character(&glb).unwrap();
    let out = rigsmith::rig(
        &c,
        &rigsmith::RigOptions {
            face: FaceOptions {
                mode: FaceMode::Basic,
                recipes: None,
            },
            ..rigsmith::RigOptions::vrm()
        },
        &mut |_, _| {},
    )
    .unwrap();
    let f = out.face.unwrap().fit;
    let eyes = f.eyes.unwrap();
    let m = f.mouth.unwrap();
    let probe = serde_json::json!({
        "mesh": "body",
        "lids": eyes.iter().map(|e| [nearest(&c, e.upper), nearest(&c, e.lower)]).collect::<Vec<_>>(),
        "lips": [nearest(&c, m.upper_lip), nearest(&c, m.lower_lip)],
    });
    let p = crate::vrm::node_env(
        "three-vrm-face.mjs",
        &vrm,
        &[("FACE_PROBE", probe.to_string().as_str())],
    );
    (p, f.height)
}

fn check_blink_and_aa(p: &serde_json::Value, h: f32) {
    assert_eq!(p["lookAtType"], "bone", "{p}");
    let rest = p["lidGap"]["rest"].as_f64().unwrap();
    let blink = p["lidGap"]["blink"].as_f64().unwrap();
    assert!(rest > 0.003 * h as f64, "{p}");
    assert!(blink <= 0.15 * rest, "blink leaves the lids open: {p}");
    let m0 = p["mouthGap"]["rest"].as_f64().unwrap();
    let m1 = p["mouthGap"]["aa"].as_f64().unwrap();
    assert!(
        m1 - m0 >= 0.02 * h as f64,
        "aa opens the mouth {} m: {p}",
        m1 - m0
    );
}

#[test]
fn vrm_face_from_expression_units_loads_in_three_vrm_with_blink_and_aa() {
    let (p, h) = export_and_probe(true);
    assert!(p["expressions"].as_u64().unwrap() >= 18, "{p}");
    check_blink_and_aa(&p, h);
}

#[test]
fn vrm_face_without_expression_units_gets_procedural_blink_and_aa_in_three_vrm() {
    let (p, h) = export_and_probe(false);
    assert_eq!(p["expressions"].as_u64().unwrap(), 18, "{p}");
    check_blink_and_aa(&p, h);
}

#[test]
fn expressions_without_a_face_is_bad_usage() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("r.json");
    std::fs::write(&r, "{}").unwrap();
    let out = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        dir.path().join("m.glb").to_str().unwrap(),
        "--expressions",
        r.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--face"));
}

/// The ids of the failed and of all checks in a report's JSON `checks`.
fn check_ids(v: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    let checks = v["checks"].as_array().expect("checks");
    let id = |c: &serde_json::Value| c["id"].as_str().unwrap().to_string();
    (
        checks
            .iter()
            .filter(|c| c["passed"] == false)
            .map(id)
            .collect(),
        checks.iter().map(id).collect(),
    )
}

#[test]
fn rig_with_a_face_writes_the_face_sheets_and_check_measures_the_face_again() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("mh.glb");
    let out = dir.path().join("rigged.glb");
    let report = dir.path().join("review");
    write_unrigged_head(&glb, false);
    assert_ok(&rigsmith(&[
        "rig",
        glb.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--face",
        "basic",
        "--report",
        report.to_str().unwrap(),
    ]));
    for f in ["face.png", "face_placement.png"] {
        let png = std::fs::read(report.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(&png[1..4], b"PNG", "{f}");
        let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
        assert!(w >= 1024, "{f}: {w}");
    }
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(
        html.contains("face_placement"),
        "the report shows the face sheets"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("report.json")).unwrap())
            .unwrap();
    let (failed, ids) = check_ids(&json);
    for id in ["face.blink_gap", "face.jaw_chin", "face.lids_around_eye"] {
        assert!(
            ids.contains(&id.to_string()),
            "{id} not in the review: {ids:?}"
        );
    }
    let face_failed: Vec<&String> = failed.iter().filter(|f| f.starts_with("face.")).collect();
    assert!(face_failed.is_empty(), "{face_failed:?}");
    // `check` on the written file measures the face again from its bones and keys.
    let r = rigsmith(&["check", out.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let (failed, ids) = check_ids(&v);
    for id in [
        "face.blink_gap",
        "face.blink_clear",
        "face.jaw_chin",
        "face.jaw_upper_lip",
        "face.lr_sum",
        "face.jaw_hinge",
        "face.region",
    ] {
        assert!(ids.contains(&id.to_string()), "{id} not checked: {ids:?}");
    }
    let face_failed: Vec<&String> = failed.iter().filter(|f| f.starts_with("face.")).collect();
    assert!(face_failed.is_empty(), "{face_failed:?}");
    // The file's joint correctives are not face keys: `rig` and `check` count the same
    // vertices outside the face.
    let value = |v: &serde_json::Value, id: &str| {
        v["checks"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .and_then(|c| c["value"].as_f64())
    };
    assert_eq!(
        value(&json, "face.region"),
        value(&v, "face.region"),
        "face.region in the rig's report and in check"
    );
}
