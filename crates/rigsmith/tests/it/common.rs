//! Shared test helpers.

use std::path::PathBuf;

/// The MakeHuman corpus folder: `$RIGSMITH_DATA`, else `../shared/data/mpfb2` beside the
/// repository. Tests that need it fail loudly when it is missing (never skip).
#[allow(dead_code)]
pub fn mpfb2_dir() -> PathBuf {
    let p = match std::env::var_os("RIGSMITH_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/mpfb2"),
    };
    assert!(
        p.join("3dobjs/base.obj").exists(),
        "the MakeHuman corpus is missing at {} (set RIGSMITH_DATA or run scripts/fetch-data.sh)",
        p.display()
    );
    p
}

/// The folder of the five rigged Quaternius characters beside the repository.
#[allow(dead_code)]
pub fn quaternius_dir() -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/quaternius");
    assert!(
        p.exists(),
        "the Quaternius characters are missing at {}",
        p.display()
    );
    p
}

/// A fresh temporary folder.
#[allow(dead_code)]
pub fn tmpdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}
