//! Shared helpers for CLI tests.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `rigsmith` binary with `args`.
#[allow(dead_code)]
pub fn rigsmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigsmith"))
        .args(args)
        .output()
        .expect("run rigsmith")
}

/// The MakeHuman corpus folder (fails loudly when missing).
#[allow(dead_code)]
pub fn mpfb2_dir() -> PathBuf {
    let p = match std::env::var_os("RIGSMITH_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/mpfb2"),
    };
    assert!(
        p.join("3dobjs/base.obj").exists(),
        "the MakeHuman corpus is missing at {}",
        p.display()
    );
    p
}

/// The repository root.
#[allow(dead_code)]
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Asserts that a run succeeded, showing its stderr when it did not.
#[allow(dead_code)]
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes the built-in mannequin in A pose with its skirt and hair to `dir/m.glb`.
#[allow(dead_code)]
pub fn skirted_mannequin(dir: &std::path::Path) -> PathBuf {
    let m = dir.join("m.glb");
    assert_ok(&rigsmith(&[
        "mannequin",
        "--pose",
        "a",
        "--skirt",
        "--hair",
        "-o",
        m.to_str().unwrap(),
    ]));
    m
}
