//! Tests of `rigsmith inspect`: text (snapshot), JSON fields, OBJ, exit codes.

use crate::common::{assert_ok, quaternius, rigsmith};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn inspect_text_knight() {
    let out = rigsmith(&[
        "inspect",
        quaternius("knight_KnightCharacter.glb").to_str().unwrap(),
    ]);
    assert_ok(&out);
    insta::assert_snapshot!("inspect_knight", stdout(&out));
}

#[test]
fn inspect_json_casual() {
    let out = rigsmith(&[
        "inspect",
        "--json",
        quaternius("men_Casual.glb").to_str().unwrap(),
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(v["parts"].as_array().unwrap().len(), 10);
    assert_eq!(v["vertices"], 12_516);
    assert_eq!(v["triangles"], 6_206);
    assert_eq!(v["parts"][3]["name"], "Casual_Feet.1");
    assert_eq!(v["parts"][3]["material"], "White");
    assert_eq!(v["parts"][3]["skinned"], true);
    assert_eq!(v["skeleton"]["joints"], 49);
    assert_eq!(v["skeleton"]["roots"][0], "Root");
    assert_eq!(v["skeleton"]["depth"], 12);
    let w = &v["weights"];
    assert_eq!(w["authored"], true);
    assert_eq!(w["max_influences"], 4);
    let hist: Vec<u64> = w["influence_histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(hist, [0, 5726, 4650, 898, 1242, 0, 0, 0, 0]);
    assert_eq!(w["unweighted_vertices"], 0);
    assert_eq!(w["non_normalized_vertices"], 0);
    assert_eq!(w["legs"][0], "UpperLeg.L");
    assert_eq!(w["both_legs_vertices"], 66);
    assert!(v["vrm"].is_null());
}

#[test]
fn inspect_obj() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("box.obj");
    std::fs::write(
        &p,
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\ng panel\nf 1 2 3 4\n",
    )
    .unwrap();
    let out = rigsmith(&["inspect", "--json", p.to_str().unwrap()]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["parts"][0]["name"], "panel");
    assert_eq!(v["parts"][0]["triangles"], 2);
    assert!(v["skeleton"].is_null());
    assert_eq!(v["weights"]["authored"], false);
    let text = stdout(&rigsmith(&["inspect", p.to_str().unwrap()]));
    assert!(text.contains("skeleton: none"), "{text}");
}

#[test]
fn inspect_bad_input_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.glb");
    std::fs::write(&bad, b"glTF\x02\x00\x00\x00\xff\xff\xff\x7f").unwrap();
    for (path, needle) in [
        (bad.to_str().unwrap().to_string(), "header.length"),
        (
            dir.path().join("absent.glb").to_str().unwrap().to_string(),
            "absent.glb",
        ),
        ("model.blend".to_string(), "unsupported"),
    ] {
        let out = rigsmith(&["inspect", &path]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{err}");
        assert!(
            err.contains(
                std::path::Path::new(&path)
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
            ),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    // Usage error: no file.
    assert_eq!(rigsmith(&["inspect"]).status.code(), Some(2));
}

#[test]
fn inspect_lists_the_measured_chains_of_a_real_rig() {
    // The Quaternius fox carries a tail chain of 8 bones.
    let fox = quaternius("animals_Fox.glb");
    let out = rigsmith(&["inspect", "--json", fox.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let chains = v["chains"].as_array().unwrap();
    assert_eq!(chains.len(), 1, "{chains:?}");
    let tail = &chains[0];
    assert_eq!(tail["class"], "tail");
    assert_eq!(tail["springs"], true);
    assert_eq!(tail["root_parent"], "Back");
    let n = tail["bones"].as_array().unwrap().len();
    assert_eq!(n, 8);
    assert_eq!(tail["tips"].as_array().unwrap().len(), n);
    assert_eq!(tail["hull_sizes"].as_array().unwrap().len(), n);
    assert!(tail["lengths"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l.as_f64().unwrap() > 0.0));
    assert!(tail["hull_sizes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s.as_u64().unwrap() > 0));
    let text = stdout(&rigsmith(&["inspect", fox.to_str().unwrap()]));
    assert!(text.contains("measured chains: 1"), "{text}");
    assert!(text.contains("tail     spring from Back"), "{text}");
    // The knight has none: its text output has no chain section.
    let knight = quaternius("knight_KnightCharacter.glb");
    let text = stdout(&rigsmith(&["inspect", knight.to_str().unwrap()]));
    assert!(!text.contains("measured chains"), "{text}");
}

#[test]
fn inspect_lists_skirt_and_hair_chains_of_a_rigged_mannequin() {
    let dir = tempfile::tempdir().unwrap();
    let m = crate::common::skirted_mannequin(dir.path());
    let vrm = dir.path().join("m.vrm");
    crate::common::assert_ok(&rigsmith(&[
        "vrm",
        m.to_str().unwrap(),
        "-o",
        vrm.to_str().unwrap(),
        "--no-verify",
    ]));
    let out = rigsmith(&["inspect", "--json", vrm.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let chains = v["chains"].as_array().unwrap();
    let of = |class: &str| -> Vec<&serde_json::Value> {
        chains.iter().filter(|c| c["class"] == class).collect()
    };
    let (skirt, hair) = (of("skirt"), of("hair"));
    assert!(skirt.len() >= 12, "{} skirt chains", skirt.len());
    assert!(hair.len() >= 2, "{} hair chains", hair.len());
    for ch in skirt.iter().chain(&hair) {
        let n = ch["bones"].as_array().unwrap().len();
        assert_eq!(ch["tips"].as_array().unwrap().len(), n);
        assert_eq!(ch["hull_sizes"].as_array().unwrap().len(), n);
        assert!(ch["hull_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.as_u64().unwrap() > 0));
    }
    // Skirt panels are sewn to their neighbours (shared vertices), hair hangs from the head.
    assert!(skirt
        .iter()
        .all(|c| c["neighbours"].as_object().unwrap().len() >= 2));
    assert!(hair.iter().all(|c| c["root_parent"] == "head"));
    let text = stdout(&rigsmith(&["inspect", vrm.to_str().unwrap()]));
    assert!(text.contains("skirt    spring from hips"), "{text}");
    assert!(text.contains("hair     spring from head"), "{text}");
    assert!(text.contains("neighbours  skirt."), "{text}");
}
