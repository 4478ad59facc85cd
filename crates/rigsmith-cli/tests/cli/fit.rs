//! Tests of `rigsmith fit`.

use crate::common::{assert_ok, mpfb2_dir, rigsmith};

fn unrigged_base(dir: &std::path::Path) -> std::path::PathBuf {
    let glb = dir.join("base.glb");
    let out = rigsmith(&[
        "corpus",
        "mpfb2",
        "--variant",
        "base",
        "--unrigged",
        "-o",
        glb.to_str().unwrap(),
        "--data",
        mpfb2_dir().to_str().unwrap(),
    ]);
    assert_ok(&out);
    glb
}

#[test]
fn fit_writes_skeleton_json_and_reports_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = unrigged_base(tmp.path());
    let skel = tmp.path().join("skeleton.json");
    let out = rigsmith(&[
        "-q",
        "fit",
        glb.to_str().unwrap(),
        "-o",
        skel.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bones"].as_array().unwrap().len(), 53);
    assert_eq!(v["failed"]["blocker"], 0);
    assert!(
        v["landmarks"]["points"]["knee_l"]["confidence"]
            .as_f64()
            .unwrap()
            > 0.5
    );
    assert_eq!(v["humanoid"]["leftUpperArm"], "upperarm_l");
    let s = rigsmith::io::skeleton_json::read(&skel).unwrap();
    assert_eq!(s.bones.len(), 53);
    assert!(s.find("pinky_03_r").is_some());
    // Same input, same bytes.
    let skel2 = tmp.path().join("skeleton2.json");
    let out = rigsmith(&[
        "-q",
        "fit",
        glb.to_str().unwrap(),
        "-o",
        skel2.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read(&skel).unwrap(),
        std::fs::read(&skel2).unwrap()
    );
    // Mixamo names with twist bones.
    let out = rigsmith(&[
        "-q",
        "fit",
        glb.to_str().unwrap(),
        "--template",
        "mixamo",
        "--twist",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bones = crate::common::strs(&v["bones"]);
    assert!(
        bones.contains(&"mixamorig:LeftForeArm") && bones.contains(&"mixamorig:LeftArmTwist01"),
        "{bones:?}"
    );
}

#[test]
fn fit_check_only_and_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = unrigged_base(tmp.path());
    // The corpus leaves the feet forward of z = 0: the check finds it, --fix fixes it.
    let out = rigsmith(&["fit", glb.to_str().unwrap(), "--check-only"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("facing +Z") && text.contains("problem model.mid_foot"),
        "{text}"
    );
    let out = rigsmith(&["-q", "fit", glb.to_str().unwrap(), "--check-only", "--fix"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A blocker: a knee forced behind the leg exits 1.
    let out = rigsmith(&[
        "fit",
        glb.to_str().unwrap(),
        "--override",
        "knee_l=0.1,0.45,-0.2",
        "--override",
        "knee_r=-0.1,0.45,-0.2",
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL place.knee_bend.L"));
    // Bad input: exit 2 with the reason.
    for args in [
        vec!["fit", glb.to_str().unwrap(), "--template", "quadruped"],
        vec!["fit", glb.to_str().unwrap(), "--override", "knee_l=1,2"],
        vec!["fit", "/nonexistent/body.glb"],
    ] {
        let out = rigsmith(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn fit_height_scales_the_body_with_the_feet_on_the_floor() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = unrigged_base(tmp.path());
    let out = rigsmith(&[
        "fit",
        glb.to_str().unwrap(),
        "--check-only",
        "--fix",
        "--height",
        "1.8",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let h = v["model"]["height"].as_f64().unwrap();
    assert!((h - 1.8).abs() < 1e-3, "{h}");
    assert!(v["model"]["floor"].as_f64().unwrap().abs() < 1e-4);
    assert!(v["fixed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f.as_str().unwrap().starts_with("scaled every part")));
    let bad = rigsmith(&[
        "fit",
        glb.to_str().unwrap(),
        "--check-only",
        "--height",
        "0",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--height"));
}

#[test]
fn a_body_neither_biped_nor_quadruped_is_refused_with_the_chain_flag_the_cli_adds() {
    let tmp = tempfile::tempdir().unwrap();
    let snake = tmp.path().join("snake.glb");
    let c = rigsmith::mannequin::animal::oddity(rigsmith::mannequin::animal::Oddity::Snake, 0.12);
    rigsmith::io::write_character(&snake, &c, &Default::default()).unwrap();
    let out = rigsmith(&["fit", snake.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    // The library names the chain template; the command line adds its flag.
    assert!(
        err.contains("no separate legs")
            && err.contains(rigsmith::fit::quadruped::CHAIN_HINT)
            && err.contains("(pass --template chain; if the file is Z-up, pass --up z)"),
        "{err}"
    );
    let json = tmp.path().join("chain.json");
    assert_ok(&rigsmith(&[
        "fit",
        snake.to_str().unwrap(),
        "--template",
        "chain",
        "-o",
        json.to_str().unwrap(),
    ]));
}

/// A closed UV sphere of radius `r` at the origin (12 x 8), unskinned: the ball
/// Blender's glTF importer adds to draw bones with, which its FBX exporter writes out.
fn helper_ball(r: f32) -> rigsmith::Part {
    let (seg, rings) = (12u32, 8u32);
    let mut positions = vec![glam::Vec3::Y * r];
    for i in 1..rings {
        let t = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..seg {
            let a = std::f32::consts::TAU * j as f32 / seg as f32;
            positions.push(r * glam::Vec3::new(t.sin() * a.cos(), t.cos(), t.sin() * a.sin()));
        }
    }
    positions.push(-glam::Vec3::Y * r);
    let last = positions.len() as u32 - 1;
    let at = |i: u32, j: u32| 1 + (i - 1) * seg + j % seg;
    let mut triangles = Vec::new();
    for j in 0..seg {
        triangles.push([0, at(1, j + 1), at(1, j)]);
        triangles.push([last, at(rings - 1, j), at(rings - 1, j + 1)]);
        for i in 1..rings - 1 {
            triangles.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
            triangles.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    let mesh = rigsmith::Mesh {
        positions,
        triangles,
        ..Default::default()
    };
    rigsmith::Part {
        name: "Icosphere".into(),
        mesh,
        ..Default::default()
    }
}

/// men_Farmer with Blender's helper ball: `fit` and `rig --rerig` leave the ball out of
/// the figure, rigid, and say so; with it taken as skin (`--body` every part) the figure
/// is no biped (the positive control).
#[test]
fn a_helper_ball_in_a_rigged_file_is_left_out_by_fit_and_rig_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let mut c = rigsmith::io::read_character(&crate::common::quaternius("men_Farmer.glb")).unwrap();
    let all: Vec<String> = c.parts.iter().map(|p| p.name.clone()).collect();
    c.parts.push(helper_ball(1.0));
    let glb = tmp.path().join("farmer_ball.glb");
    rigsmith::io::write_character(&glb, &c, &Default::default()).unwrap();
    let g = glb.to_str().unwrap();
    let line = "unskinned in a file whose other parts are skinned, and with it \
                the figure is no biped (a helper shape the exporter wrote out, or a loose \
                prop): left out of the fit and carried rigid";
    let left_out = "Icosphere: unskinned in a file whose other parts are skinned";
    let skel = tmp.path().join("skeleton.json");
    let out = rigsmith(&["fit", g, "-o", skel.to_str().unwrap()]);
    assert_ok(&out);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains(left_out), "{text}");
    // `check` judges the artist's rig without the ball as the figure: the floor and the
    // joints are the character's own; the ball itself is counted unweighted, by name.
    let out = rigsmith(&["check", g, "--json"]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains(left_out), "{text}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let failed = |id: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == id)
            .map(|k| (k["passed"] == false, k["detail"].to_string()))
    };
    for id in ["model.floor", "place.inside", "model.part_apart"] {
        assert!(!failed(id).is_some_and(|f| f.0), "{id}: {:?}", failed(id));
    }
    let (unweighted, detail) = failed("weights.unweighted").unwrap();
    assert!(unweighted && detail.contains("Icosphere"), "{detail}");
    let rigged = tmp.path().join("rigged.glb");
    let out = rigsmith(&["rig", "--rerig", g, "-o", rigged.to_str().unwrap()]);
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains(line) && text.contains("0 blocker, 0 major"),
        "{text}"
    );
    // `weights` with the file's own skeleton binds the ball rigid, and its report judges
    // it so (a part told rigid had failed `weights.unlike_nearest`: 98%).
    let w = tmp.path().join("weighted.glb");
    let out = rigsmith(&["weights", g, "--skeleton", g, "-o", w.to_str().unwrap()]);
    assert_ok(&out);
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains(line) && !text.contains("FAILED"), "{text}");
    let body = all.join(",") + ",Icosphere";
    let bad = tmp.path().join("bad.glb");
    let out = rigsmith(&[
        "rig",
        "--rerig",
        g,
        "--body",
        &body,
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("neither a biped nor a quadruped"), "{err}");
}

/// `fit`, `check`, `vrm` and `simulate` take the part roles told, as `rig` and `weights` do: the artist's
/// trousers told a garment leave the figure without legs (the fit refuses, saying so;
/// the check finds the leg joints outside the skin and judges the trousers as cloth),
/// and a name that is no part is refused, listing the parts there are.
#[test]
fn fit_check_and_vrm_take_the_part_roles_told_and_refuse_a_name_that_is_no_part() {
    let tmp = tempfile::tempdir().unwrap();
    let farmer = crate::common::quaternius("men_Farmer.glb");
    let f = farmer.to_str().unwrap();
    let checks = |extra: &[&str]| {
        let mut args = vec!["check", f, "--json"];
        args.extend_from_slice(extra);
        let out = rigsmith(&args);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        let failed: Vec<String> = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| k["passed"] == false)
            .map(|k| k["id"].as_str().unwrap().to_string())
            .collect();
        (out.status.code(), failed)
    };
    let (code, failed) = checks(&[]);
    assert_eq!(code, Some(0), "{failed:?}");
    assert!(
        !failed.iter().any(|id| id.contains("Farmer_Pants"))
            && !failed.contains(&"place.inside".into()),
        "{failed:?}"
    );
    let (code, failed) = checks(&["--garment", "Farmer_Pants"]);
    assert_eq!(code, Some(1), "{failed:?}");
    for id in ["place.inside", "weights.garment.Farmer_Pants"] {
        assert!(failed.contains(&id.to_string()), "{id}: {failed:?}");
    }
    // The summary and the JSON say how each part was judged, and that it was told.
    let out = rigsmith(&["check", f, "--garment", "Farmer_Pants"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("parts: skin Farmer_Body.0, ") && text.contains("  Farmer_Pants: garment, "),
        "{text}"
    );
    let out = rigsmith(&["check", f, "--json", "--garment", "Farmer_Pants"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pants = v["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["part"] == "Farmer_Pants")
        .unwrap();
    assert_eq!(pants["class"], "garment", "{pants}");
    assert!(
        pants["reason"].as_str().unwrap().contains("told"),
        "{pants}"
    );
    // Told rigid to the head bone, the eyes are judged so: nothing new fails.
    let (code, told) = checks(&["--rigid", "Farmer_Head.4=Head"]);
    assert_eq!(code, Some(0), "{told:?}");
    let json = tmp.path().join("skeleton.json");
    let j = json.to_str().unwrap();
    assert_ok(&rigsmith(&["fit", f, "-o", j]));
    let out = rigsmith(&["fit", f, "--garment", "Farmer_Pants", "-o", j]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no separate legs"), "{err}");
    // `vrm` rigs an unrigged input with the roles told, as `rig` does.
    let mut bare = rigsmith::io::read_character(&farmer).unwrap();
    bare.skeleton = None;
    for p in &mut bare.parts {
        p.weights = None;
    }
    let bare_glb = tmp.path().join("farmer_bare.glb");
    rigsmith::io::write_character(&bare_glb, &bare, &Default::default()).unwrap();
    let b = bare_glb.to_str().unwrap();
    let vrm = tmp.path().join("farmer.vrm");
    let v = vrm.to_str().unwrap();
    let out = rigsmith(&["vrm", b, "--garment", "Farmer_Pants", "-o", v]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot rig") && err.contains("a standing biped"),
        "{err}"
    );
    for cmd in [
        vec!["fit", f, "--body", "Nope", "-o", j],
        vec!["check", f, "--rigid", "Nope=Head"],
        vec!["vrm", b, "--garment", "Nope", "-o", v],
        vec!["simulate", b, "--body", "Nope"],
    ] {
        let out = rigsmith(&cmd);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{}: invalid part roles", cmd[1]))
                && err.contains("no part or material named \"Nope\"")
                && err.contains("Farmer_Pants, "),
            "{err}"
        );
    }
}
