//! Tests of `rigsmith rig`: the demo, a MakeHuman body as an unrigged GLB, batch mode
//! with a bad file, and the refusal of an already rigged input.

use crate::common::{assert_ok, mpfb2_dir, rigsmith};

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn demo_rigs_the_mannequin_with_report() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("m.glb");
    let rep = dir.path().join("report");
    let out = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        glb.to_str().unwrap(),
        "--report",
        rep.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    assert_eq!(v["counts"]["blocker"], 0, "{}", v["counts"]);
    assert!(glb.exists() && dir.path().join("m.rig.json").exists());
    for f in ["report.json", "report.html", "placement.png", "poses.png"] {
        assert!(rep.join(f).exists(), "{f} missing");
    }
    // The written file reads back with every part and a 61-bone game skeleton (53
    // bones and a twist bone on each upper arm, forearm, thigh and calf).
    let c = rigsmith::io::read_character(&glb).unwrap();
    assert_eq!(c.skeleton.as_ref().unwrap().len(), 61);
    assert!(c.parts.iter().all(|p| p.weights.is_some()));
    let stages: Vec<&str> = v["result"]["timings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        ["model", "fit", "weights", "chains", "sidecar", "review"]
    );
    // Every decision of the later stages is in the report, the correctives not built
    // with why (`rig -v` prints them).
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    let notes = crate::common::strs(&report["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("CS_neck_nod not needed: head_nod leaves no new pairs")),
        "{notes:?}"
    );
}

#[test]
fn demo_says_where_its_outputs_went_and_what_to_open_first() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("out/mannequin.glb");
    let rep = dir.path().join("out/report");
    let out = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        glb.to_str().unwrap(),
        "--report",
        rep.to_str().unwrap(),
        "-v",
    ]);
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("  note      CS_neck_nod not needed"),
        "{text}"
    );
    let sidecar = dir.path().join("out/mannequin.rig.json");
    for p in [&glb, &sidecar, &rep] {
        assert!(
            text.contains(p.to_str().unwrap()),
            "{} not named:\n{text}",
            p.display()
        );
    }
    let first = format!("open first: {}", rep.join("report.html").display());
    assert!(text.contains(&first), "{text}");
    assert!(rep.join("report.html").is_file());
}

#[test]
fn refuses_a_rigged_input_unless_rerig() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("rigged.glb");
    let data = mpfb2_dir();
    let out = rigsmith(&[
        "corpus",
        "mpfb2",
        "--variant",
        "base",
        "-o",
        src.to_str().unwrap(),
    ]);
    assert_ok(&out);
    let _ = data;
    let dst = dir.path().join("out.glb");
    let out = rigsmith(&[
        "rig",
        src.to_str().unwrap(),
        "-o",
        dst.to_str().unwrap(),
        "--no-review",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("already rigged") && err.contains("--rerig"),
        "{err}"
    );
    assert!(!dst.exists());
    let out = rigsmith(&[
        "rig",
        src.to_str().unwrap(),
        "-o",
        dst.to_str().unwrap(),
        "--rerig",
        "--no-review",
        "-q",
    ]);
    assert_ok(&out);
    assert!(dst.exists());
}

#[test]
fn refuses_to_overwrite_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("m.glb");
    assert!(rigsmith(&["mannequin", "-o", src.to_str().unwrap()])
        .status
        .success());
    let before = std::fs::read(&src).unwrap();
    let out = rigsmith(&["rig", src.to_str().unwrap(), "-o", src.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&src).unwrap(), before);
}

#[test]
fn batch_keeps_going_past_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in");
    std::fs::create_dir_all(&inp).unwrap();
    let a = inp.join("a_pose.glb");
    assert!(
        rigsmith(&["mannequin", "--pose", "a", "-o", a.to_str().unwrap()])
            .status
            .success()
    );
    let t = inp.join("b_unrigged_body.glb");
    let out = rigsmith(&[
        "corpus",
        "mpfb2",
        "--variant",
        "base",
        "--unrigged",
        "--parts",
        "body,eyes",
        "-o",
        t.to_str().unwrap(),
    ]);
    assert_ok(&out);
    std::fs::write(inp.join("c_broken.glb"), b"glTF not really").unwrap();
    std::fs::write(inp.join("fake.blend"), b"BLENDER-v500").unwrap();
    std::fs::create_dir(inp.join("textures")).unwrap();
    let outdir = dir.path().join("out");
    let out = rigsmith(&[
        "rig",
        inp.to_str().unwrap(),
        "-o",
        outdir.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-review",
        "--json",
    ]);
    // One bad file: exit 1, the others rigged.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json_of(&out);
    let rows = doc["rigged"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    // What was skipped is listed, with why.
    let skipped = doc["skipped"].as_array().unwrap();
    let why = |name: &str| {
        skipped
            .iter()
            .find(|s| s["path"].as_str().unwrap().ends_with(name))
            .map(|s| s["why"].as_str().unwrap().to_string())
            .unwrap_or_else(|| panic!("{name} not listed: {doc}"))
    };
    assert!(why("fake.blend").contains(".blend is not read"), "{doc}");
    assert!(why("textures").contains("folder"), "{doc}");
    assert_eq!(rows[0]["ok"], true, "{}", rows[0]);
    assert_eq!(rows[1]["ok"], true, "{}", rows[1]);
    assert_eq!(rows[2]["ok"], false);
    assert!(
        rows[2]["error"].as_str().unwrap().contains("c_broken.glb"),
        "{}",
        rows[2]
    );
    assert!(outdir.join("a_pose.glb").exists() && outdir.join("b_unrigged_body.glb").exists());
    assert!(outdir.join("summary.json").exists());
}

#[test]
fn rigs_an_obj_in_a_pose() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("a.obj");
    assert!(
        rigsmith(&["mannequin", "--pose", "a", "-o", obj.to_str().unwrap()])
            .status
            .success()
    );
    let glb = dir.path().join("a.glb");
    let out = rigsmith(&[
        "rig",
        obj.to_str().unwrap(),
        "-o",
        glb.to_str().unwrap(),
        "--template",
        "mixamo",
        "--no-review",
        "--json",
    ]);
    assert_ok(&out);
    let c = rigsmith::io::read_character(&glb).unwrap();
    let s = c.skeleton.as_ref().unwrap();
    assert!(s.find("mixamorig:LeftForeArm").is_some());
    assert!(c.parts.iter().all(|p| p.weights.is_some()));
}

#[test]
fn check_draws_sheets_and_a_heat_map_per_bone() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("m.glb");
    let out = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        glb.to_str().unwrap(),
        "--template",
        "basic",
        "--no-review",
        "-q",
    ]);
    assert_ok(&out);
    let sheets = dir.path().join("sheets");
    let out = rigsmith(&[
        "check",
        glb.to_str().unwrap(),
        "--sheets",
        sheets.to_str().unwrap(),
        "--heatmaps",
        "--json",
    ]);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(sheets.join("placement.png").exists() && sheets.join("poses.png").exists());
    let heat = std::fs::read_dir(&sheets)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("weights_")
        })
        .count();
    // The basic template has 23 deform bones (no fingers); every one that carries weight gets a map.
    assert!(heat >= 15, "{heat} heat maps");
    assert!(sheets.join("weights_thigh_l.png").exists());
}

#[test]
fn rig_height_scales_the_character_before_rigging() {
    let tmp = tempfile::tempdir().unwrap();
    let out_glb = tmp.path().join("tall.glb");
    let out = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        out_glb.to_str().unwrap(),
        "--no-review",
        "--height",
        "1.8",
    ]);
    assert_ok(&out);
    let c = rigsmith::io::read_character(&out_glb).unwrap();
    let h = c.height();
    assert!((h - 1.8).abs() < 2e-3, "body height {h}");
    let (lo, _) = c.bounds();
    assert!(lo.y.abs() < 1e-3, "feet at {}", lo.y);
    assert!(String::from_utf8_lossy(&out.stdout).contains("scaled every part"));
    // A height that is not a positive number is bad input, said with the value.
    let bad = rigsmith(&[
        "rig",
        "--demo",
        "-o",
        tmp.path().join("bad.glb").to_str().unwrap(),
        "--height",
        "0",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("height"));
}

#[test]
fn rigs_a_body_in_a_robe_welded_to_its_skin_and_says_how_it_found_the_legs() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("robed.glb");
    let _ = mpfb2_dir();
    assert_ok(&rigsmith(&[
        "corpus",
        "mpfb2",
        "--variant",
        "female",
        "--dress",
        "shirt,skirt",
        "--weld",
        "-o",
        src.to_str().unwrap(),
    ]));
    let c = rigsmith::io::read_character(&src).unwrap();
    assert_eq!(c.parts.len(), 1, "one welded mesh");
    let dst = dir.path().join("out.glb");
    let rep = dir.path().join("report");
    let out = rigsmith(&[
        "rig",
        src.to_str().unwrap(),
        "--rerig",
        "-o",
        dst.to_str().unwrap(),
        "--report",
        rep.to_str().unwrap(),
    ]);
    // Exit 0: rigged, no blocker failed.
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("legs      legs under cloth, measured"),
        "{text}"
    );
    for f in ["report.html", "placement.png", "poses.png"] {
        assert!(rep.join(f).is_file(), "{f} missing");
    }
}
