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

#[test]
fn facing_states_the_front_of_a_character_whose_feet_and_file_say_nothing() {
    // The chibi turned to face -Z, its skeleton and weights taken off: round feet with
    // no toes and no knees to read. Unstated, +Z is assumed, the report says so and
    // names `--facing`, and the rig bends its elbows backward (the elbow volume
    // majors: 0.77 against 0.85). Stated, it is turned on reading and rigs as the chibi
    // facing +Z does (0 majors), its face at the front.
    let dir = tempfile::tempdir().unwrap();
    let mut c =
        rigsmith::io::read_character(&quaternius("platformer_Character_HumanoidRig.glb")).unwrap();
    c.skeleton = None;
    for p in &mut c.parts {
        p.weights = None;
    }
    c.transform(glam::Mat4::from_rotation_y(std::f32::consts::PI));
    let src = dir.path().join("away.glb");
    rigsmith::io::write_character(&src, &c, &Default::default()).unwrap();
    let rig = |facing: Option<&str>, name: &str| {
        let out = dir.path().join(format!("{name}.glb"));
        let rep = dir.path().join(name);
        let mut args = vec!["rig", src.to_str().unwrap(), "-o", out.to_str().unwrap()];
        args.extend(["--report", rep.to_str().unwrap()]);
        if let Some(f) = facing {
            args.extend(["--facing", f]);
        }
        let run = rigsmith(&args);
        assert_ok(&run);
        let report = json(&rep.join("report.json"));
        // The input's model check (the review's is the rigged output's, facing +Z).
        let facing = report["model"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|w| w.as_str())
            .filter(|w| w.starts_with("model.facing:"))
            .collect::<Vec<_>>()
            .join("; ");
        let majors = report["counts"]["major"].as_u64().unwrap();
        let rigged = rigsmith::io::read_character(&out).unwrap();
        let face = &rigged.parts[rigged.find_part("Head.4").unwrap()];
        let z =
            face.mesh.positions.iter().map(|p| p.z).sum::<f32>() / face.mesh.positions.len() as f32;
        (
            String::from_utf8_lossy(&run.stdout).to_string(),
            facing,
            majors,
            z,
        )
    };
    let (stdout, facing, majors, z) = rig(None, "assumed");
    assert!(
        facing.contains("is assumed") && facing.contains("--facing"),
        "{facing}"
    );
    assert!(stdout.contains("warning   model.facing:"), "{stdout}");
    assert!(
        majors >= 1,
        "facing away and rigged as facing +Z: {majors} majors"
    );
    assert!(z < -0.3, "the face at z = {z}");
    let (stdout, facing, majors, z) = rig(Some("-z"), "stated");
    assert!(stdout.contains("the file faces -Z (--facing)"), "{stdout}");
    assert!(facing.is_empty(), "{facing}");
    assert!(!stdout.contains("warning   model.facing:"), "{stdout}");
    assert_eq!(majors, 0);
    assert!(z > 0.3, "the face at z = {z}");
}
