//! `rigsmith weights`: binds a skeleton to a character file and writes a skinned GLB.

use crate::common::{assert_ok, rigsmith};

/// A box "character" as OBJ and a two-bone skeleton.json.
fn inputs(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let body = rigsmith::Mesh::cuboid(
        glam::Vec3::new(-0.2, 0.0, -0.1),
        glam::Vec3::new(0.2, 1.0, 0.1),
    );
    let mut obj = String::new();
    for p in &body.positions {
        obj += &format!("v {} {} {}\n", p.x, p.y, p.z);
    }
    for t in &body.triangles {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    let mesh = dir.join("body.obj");
    std::fs::write(&mesh, obj).unwrap();
    let skel = dir.join("skeleton.json");
    std::fs::write(
        &skel,
        r#"{"bones": [
  {"name": "pelvis", "parent": null, "head": [0, 0.1, 0], "tail": [0, 0.5, 0]},
  {"name": "spine", "parent": "pelvis", "head": [0, 0.5, 0], "tail": [0, 0.9, 0]}]}"#,
    )
    .unwrap();
    (mesh, skel)
}

#[test]
fn weights_writes_a_skinned_glb_and_reports_the_route() {
    let dir = tempfile::tempdir().unwrap();
    let (mesh, skel) = inputs(dir.path());
    let out = dir.path().join("out.glb");
    let o = rigsmith(&[
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        skel.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // A box of 12 triangles is coarser than any voxel, and its two bones lie on its
    // axis: the route decision takes the volume, and says why.
    assert_eq!(v["route"], "volumetric");
    assert!(v["report"]["route_reason"]
        .as_str()
        .unwrap()
        .starts_with("volumetric: the skin's median edge"));
    assert_eq!(v["report"]["unweighted"], 0);
    assert_eq!(v["parts"][0]["role"], "body");
    assert!(v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == "weights.unweighted"));
    let c = rigsmith::io::read_character(&out).unwrap();
    assert_eq!(c.skeleton.as_ref().unwrap().bones.len(), 2);
    assert_eq!(c.parts.len(), 1);
    let w = c.parts[0].weights.as_ref().unwrap();
    assert_eq!(w.len(), c.parts[0].mesh.positions.len());
    assert!(w.vertices.iter().all(|l| !l.is_empty()));
}

#[test]
fn weights_rejects_a_bad_skeleton_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (mesh, _) = inputs(dir.path());
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"bones\": 3}").unwrap();
    let out = dir.path().join("out.glb");
    let o = rigsmith(&[
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.json"));
    // An unknown rigid part is bad input too.
    let (mesh, skel) = inputs(dir.path());
    let o = rigsmith(&[
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        skel.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--rigid",
        "hat=head",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("hat"));
}

#[test]
fn weights_clean_keeps_the_largest_influences_and_reports_them() {
    let dir = tempfile::tempdir().unwrap();
    let (mesh, skel) = inputs(dir.path());
    let out = dir.path().join("out.glb");
    let o = rigsmith(&[
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        skel.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--clean",
        "0.001",
        "--max-influences",
        "1",
        "--json",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["report"]["max_influences"], 1);
    assert!(v["reasons"].as_array().unwrap().iter().any(|r| r
        .as_str()
        .unwrap()
        .starts_with("cleaned: influences below 0.001")));
    let k = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "weights.max_influences")
        .unwrap();
    assert_eq!(k["limit"]["at_most"], 1.0);
    assert_eq!(k["passed"], true);
    let c = rigsmith::io::read_character(&out).unwrap();
    let w = c.parts[0].weights.as_ref().unwrap();
    assert!(w
        .vertices
        .iter()
        .all(|l| l.len() == 1 && (l[0].weight - 1.0).abs() < 1e-6));
    // A limit outside 0..1 is bad input.
    let o = rigsmith(&[
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        skel.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--clean",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--clean"));
}

#[test]
fn weights_smooth_restricted_to_bones_and_vertices_changes_only_the_mask() {
    let dir = tempfile::tempdir().unwrap();
    let (mesh, skel) = inputs(dir.path());
    let plain = dir.path().join("plain.glb");
    let masked = dir.path().join("masked.glb");
    let base = [
        "weights",
        mesh.to_str().unwrap(),
        "--skeleton",
        skel.to_str().unwrap(),
    ];
    assert_ok(&rigsmith(
        &[&base[..], &["-o", plain.to_str().unwrap()]].concat(),
    ));
    let o = rigsmith(
        &[
            &base[..],
            &[
                "-o",
                masked.to_str().unwrap(),
                "--smooth",
                "2",
                "--smooth-bones",
                "spine",
                "--smooth-vertices",
                "0-3",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["reasons"].as_array().unwrap().iter().any(|r| r
            .as_str()
            .unwrap()
            .starts_with("smoothed 2 passes on spine (1), 0-3: 4 vertices")),
        "{}",
        v["reasons"]
    );
    let a = rigsmith::io::read_character(&plain).unwrap();
    let b = rigsmith::io::read_character(&masked).unwrap();
    let (wa, wb) = (
        a.parts[0].weights.as_ref().unwrap(),
        b.parts[0].weights.as_ref().unwrap(),
    );
    // Outside the mask nothing moves; inside, the spine's share is averaged.
    for v in 4..8 {
        assert_eq!(wa.vertices[v], wb.vertices[v], "vertex {v}");
    }
    assert!((0..4).any(|v| wa.vertices[v] != wb.vertices[v]));
    // Bad input names the flag: an unknown bone, a range past the end, no passes.
    for (flags, word) in [
        (vec!["--smooth", "1", "--smooth-bones", "tail"], "tail"),
        (
            vec!["--smooth", "1", "--smooth-vertices", "5-99"],
            "8 vertices",
        ),
        (vec!["--smooth-bones", "spine"], "--smooth N"),
    ] {
        let o = rigsmith(&[&base[..], &["-o", masked.to_str().unwrap()], &flags[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(word),
            "{flags:?}"
        );
    }
}
