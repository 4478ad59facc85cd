//! Nothing a user gave is lost: every command refuses an output that is one of its
//! inputs (the same path, a symbolic link to it, a hard link to it) and checks every
//! output path before it writes anything.

use std::path::{Path, PathBuf};

use crate::common::{assert_ok, rigsmith};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The built-in mannequin, unrigged, at `dir/m.glb`.
fn mannequin(dir: &Path) -> PathBuf {
    let m = dir.join("m.glb");
    assert_ok(&rigsmith(&["mannequin", "-o", s(&m)]));
    m
}

/// The built-in mannequin, rigged without review, at `dir/rigged.glb`.
fn rigged(dir: &Path) -> PathBuf {
    let r = dir.join("rigged.glb");
    assert_ok(&rigsmith(&[
        "rig",
        "--demo",
        "--no-review",
        "-q",
        "-o",
        s(&r),
    ]));
    r
}

/// Runs `args`, asserts exit 2 naming the refusal, and that `file` is unchanged.
fn refused(args: &[&str], file: &Path) {
    let before = std::fs::read(file).unwrap();
    let out = rigsmith(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains("refusing to overwrite an input"),
        "{args:?}: {err}"
    );
    assert_eq!(
        std::fs::read(file).unwrap(),
        before,
        "{args:?} changed the input"
    );
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn rig_refuses_its_input_by_path_symlink_and_hard_link() {
    let dir = tempfile::tempdir().unwrap();
    let m = mannequin(dir.path());
    refused(&["rig", s(&m), "-o", s(&m)], &m);
    let hard = dir.path().join("hard.glb");
    std::fs::hard_link(&m, &hard).unwrap();
    refused(&["rig", s(&m), "-o", s(&hard)], &m);
    #[cfg(unix)]
    {
        let link = dir.path().join("link.glb");
        symlink(&m, &link);
        refused(&["rig", s(&m), "-o", s(&link)], &m);
    }
}

#[test]
fn rig_checks_the_report_folder_before_writing_the_glb() {
    let dir = tempfile::tempdir().unwrap();
    let m = mannequin(dir.path());
    let file = dir.path().join("a_file");
    std::fs::write(&file, b"x").unwrap();
    let out_glb = dir.path().join("out.glb");
    let out = rigsmith(&["rig", s(&m), "-o", s(&out_glb), "--report", s(&file)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("a_file") && err.contains("folder"), "{err}");
    assert!(
        !out_glb.exists(),
        "the GLB was written before the report path was checked"
    );
}

#[test]
fn rig_refuses_an_output_that_is_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let m = mannequin(dir.path());
    let d = dir.path().join("out.glb");
    std::fs::create_dir(&d).unwrap();
    let out = rigsmith(&["rig", s(&m), "-o", s(&d)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is a directory"), "{err}");
}

#[test]
fn weights_refuses_its_mesh_and_its_skeleton() {
    let dir = tempfile::tempdir().unwrap();
    let m = mannequin(dir.path());
    let r = rigged(dir.path());
    refused(&["weights", s(&m), "--skeleton", s(&r), "-o", s(&m)], &m);
    refused(&["weights", s(&m), "--skeleton", s(&r), "-o", s(&r)], &r);
}

#[test]
fn fit_refuses_its_input_for_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let m = mannequin(dir.path());
    refused(&["fit", s(&m), "-o", s(&m)], &m);
    refused(&["fit", s(&m), "--glb", s(&m)], &m);
    let hard = dir.path().join("hard.glb");
    std::fs::hard_link(&m, &hard).unwrap();
    refused(&["fit", s(&m), "-o", s(&hard)], &m);
}

#[test]
fn check_refuses_to_write_its_report_over_the_rig() {
    let dir = tempfile::tempdir().unwrap();
    let r = rigged(dir.path());
    refused(&["check", s(&r), "--html", s(&r)], &r);
    // A report folder that would receive a file named like the input.
    let inside = dir.path().join("rep");
    std::fs::create_dir(&inside).unwrap();
    let in_dir = inside.join("report.json");
    std::fs::write(&in_dir, b"{}").unwrap();
    let out = rigsmith(&["check", s(&in_dir), "--report", s(&inside)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&in_dir).unwrap(), b"{}");
}

#[test]
fn vrm_refuses_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let r = rigged(dir.path());
    let v = dir.path().join("a.vrm");
    std::fs::copy(&r, &v).unwrap();
    refused(&["vrm", s(&v), "-o", s(&v)], &v);
    #[cfg(unix)]
    {
        let link = dir.path().join("link.vrm");
        symlink(&v, &link);
        refused(&["vrm", s(&v), "-o", s(&link)], &v);
    }
}

#[test]
fn simulate_refuses_to_draw_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let r = rigged(dir.path());
    refused(&["simulate", s(&r), "--sheet", s(&r)], &r);
}

#[test]
fn corpus_and_mannequin_refuse_an_output_that_is_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["mannequin", "-o", s(dir.path())],
        vec!["corpus", "mpfb2", "--variant", "base", "-o", s(dir.path())],
    ] {
        let out = rigsmith(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("is a directory"), "{args:?}: {err}");
    }
}

#[test]
fn twod_refuses_its_rig_document() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("rig.json");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../rigsmith-2d/tests/fixtures/kit/rig.json"),
        &doc,
    )
    .unwrap();
    refused(&["2d", "export-spine", s(&doc), "-o", s(&doc)], &doc);
}
