//! Tests of `rigsmith corpus` and `rigsmith mannequin`.

use crate::common::{mpfb2_dir, rigsmith};

fn run_ok(args: &[&str]) -> String {
    let out = rigsmith(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn run_bad(args: &[&str]) -> String {
    let out = rigsmith(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should be bad input");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn corpus_base_game_engine_glb() {
    let data = mpfb2_dir();
    let tmp = tempfile::tempdir().unwrap();
    let glb = tmp.path().join("base.glb");
    let skel = tmp.path().join("skeleton.json");
    run_ok(&[
        "corpus",
        "mpfb2",
        "--variant",
        "base",
        "--rig",
        "game_engine",
        "-o",
        glb.to_str().unwrap(),
        "--skeleton-out",
        skel.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    let c = rigsmith::io::read_character(&glb).unwrap();
    let body = &c.parts[c.find_part("body").unwrap()];
    assert_eq!(body.mesh.positions.len(), 13_380);
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(s.len(), 53);
    assert!(s.find("lowerarm_l").is_some() && s.find("Root").is_some());
    let w = body.weights.as_ref().unwrap();
    assert_eq!(w.max_influences(), 6, "all artist influences kept");
    let sj = rigsmith::io::skeleton_json::read(&skel).unwrap();
    assert_eq!(sj.len(), 53);
}

#[test]
fn corpus_lists_variants_and_refuses_bad_requests() {
    let out = run_ok(&["corpus", "mpfb2", "--list-variants"]);
    for v in [
        "base", "female", "male", "heavy", "thin", "old", "child", "baby",
    ] {
        assert!(out.lines().any(|l| l.starts_with(v)), "{v} in {out}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("x.glb");
    let o = o.to_str().unwrap();
    let e = run_bad(&["corpus", "mpfb2", "--variant", "giant", "-o", o]);
    assert!(e.contains("giant"), "{e}");
    run_bad(&[
        "corpus",
        "mpfb2",
        "--variant",
        "baby",
        "--targets",
        "a.target.gz=1",
        "-o",
        o,
    ]);
    let e = run_bad(&["corpus", "mpfb2", "--parts", "body,cape", "-o", o]);
    assert!(e.contains("cape"), "{e}");
    let e = run_bad(&["corpus", "mpfb2", "--variant", "baby"]);
    assert!(e.contains("--output"), "{e}");
    let e = run_bad(&[
        "corpus",
        "mpfb2",
        "--data",
        tmp.path().to_str().unwrap(),
        "-o",
        o,
    ]);
    assert!(e.contains("base.obj"), "{e}");
    assert!(!tmp.path().join("x.glb").exists());
}

#[test]
fn corpus_unrigged_parts_and_targets() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = tmp.path().join("baby.glb");
    run_ok(&[
        "corpus",
        "mpfb2",
        "--targets",
        "macrodetails/caucasian-male-baby.target.gz=1",
        "--parts",
        "body,eyes,skirt",
        "--unrigged",
        "-o",
        glb.to_str().unwrap(),
    ]);
    let c = rigsmith::io::read_character(&glb).unwrap();
    assert!(c.skeleton.is_none());
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["body", "eyes", "skirt"]);
    let (lo, hi) = c.bounds();
    assert!(lo.y.abs() < 1e-5 && hi.y > 0.5 && hi.y < 0.7, "{lo} {hi}");
}

#[test]
fn corpus_split_and_dressed_glb() {
    let tmp = tempfile::tempdir().unwrap();
    let glb = tmp.path().join("female.glb");
    let glb2 = tmp.path().join("female2.glb");
    for p in [&glb, &glb2] {
        run_ok(&[
            "corpus",
            "mpfb2",
            "--variant",
            "female",
            "--split",
            "--dress",
            "shirt,trousers,skirt,hat",
            "--parts",
            "body,eyes",
            "-o",
            p.to_str().unwrap(),
        ]);
    }
    assert_eq!(std::fs::read(&glb).unwrap(), std::fs::read(&glb2).unwrap());
    let c = rigsmith::io::read_character(&glb).unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "head", "torso", "arm.L", "arm.R", "leg.L", "leg.R", "foot.L", "foot.R", "eyes",
            "shirt", "trousers", "skirt", "hat"
        ]
    );
    assert!(c.parts.iter().all(|p| p.weights.is_some()));
    // The pieces hold the welded body's vertices plus the seam copies.
    let pieces: usize = c.parts[..8].iter().map(|p| p.mesh.positions.len()).sum();
    assert!(pieces > 13_380 && pieces < 13_380 + 2_000, "{pieces}");
    let o = tmp.path().join("x.glb");
    let o = o.to_str().unwrap();
    let e = run_bad(&["corpus", "mpfb2", "--dress", "cape", "-o", o]);
    assert!(e.contains("cape"), "{e}");
    run_bad(&["corpus", "mpfb2", "--split", "--unrigged", "-o", o]);
}

#[test]
fn mannequin_writes_the_same_bytes_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.glb");
    let b = tmp.path().join("b.glb");
    let j = tmp.path().join("joints.json");
    for p in [&a, &b] {
        run_ok(&[
            "mannequin",
            "--pose",
            "a",
            "--skirt",
            "--hair",
            "-o",
            p.to_str().unwrap(),
            "--joints-out",
            j.to_str().unwrap(),
        ]);
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let c = rigsmith::io::read_character(&a).unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["body", "eyes", "shirt", "skirt", "hair"]);
    let joints: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    assert!(joints["lowerarm_l"][1].as_f64().unwrap() > 1.0);
    // OBJ output, reread by the OBJ reader.
    let obj = tmp.path().join("m.obj");
    run_ok(&[
        "mannequin",
        "--raw",
        "--no-shirt",
        "-o",
        obj.to_str().unwrap(),
    ]);
    let c = rigsmith::io::read_character(&obj).unwrap();
    assert_eq!(c.vertex_count(), {
        let m = rigsmith::mannequin::build(&rigsmith::mannequin::MannequinOptions {
            raw: true,
            shirt: false,
            ..Default::default()
        });
        m.vertex_count()
    });
    // Bad numbers are refused.
    let e = run_bad(&["mannequin", "--height=-1", "-o", obj.to_str().unwrap()]);
    assert!(e.contains("height"), "{e}");
    run_bad(&["mannequin", "--pose", "x", "-o", obj.to_str().unwrap()]);
}
