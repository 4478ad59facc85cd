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

/// The MakeHuman corpus folder, downloaded on first use when it is nowhere (fails
/// loudly when it cannot be had).
#[allow(dead_code)]
pub fn mpfb2_dir() -> PathBuf {
    rigsmith_testdata::mpfb2_dir()
}

/// The repository root.
#[allow(dead_code)]
pub fn repo_root() -> PathBuf {
    rigsmith_testdata::repo_root()
}

/// A Quaternius character of `data/quaternius` by file name.
#[allow(dead_code)]
pub fn quaternius(file: &str) -> PathBuf {
    rigsmith_testdata::quaternius_dir().join(file)
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

/// The strings of a JSON array (panics, naming it, when `v` is no array of strings).
pub fn strs(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap_or_else(|| panic!("not a string: {s}")))
        .collect()
}
