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
    let mut p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/quaternius");
    if !p.exists() {
        if let Some(d) = std::env::var_os("RIGSMITH_DATA") {
            p = PathBuf::from(d).join("../quaternius");
        }
    }
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

/// Runs the Khronos glTF-Validator (`scripts/validate-gltf.mjs`) on `path` and returns
/// `(errors, warnings)`. When node or the `gltf-validator` package is missing it panics
/// if `CI` is set, else prints a loud message and returns `(0, 0)`
/// (`cd scripts && npm install` sets it up). The validator's messages are printed when
/// there are errors.
#[allow(dead_code)]
pub fn validate_gltf(path: &std::path::Path) -> (usize, usize) {
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    let have_pkg = scripts.join("node_modules/gltf-validator").exists();
    let out = if have_pkg {
        std::process::Command::new("node")
            .arg(scripts.join("validate-gltf.mjs"))
            .arg(path)
            .output()
            .ok()
    } else {
        None
    };
    let Some(out) = out else {
        let msg = format!(
            "glTF-Validator unavailable (node or scripts/node_modules/gltf-validator missing): {} NOT VALIDATED; run `cd scripts && npm install`",
            path.display()
        );
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("\n!!!!!!!! {msg} !!!!!!!!\n");
        return (0, 0);
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "validator output is not JSON ({e}): {text} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let errors = v["errors"].as_u64().unwrap_or(u64::MAX) as usize;
    let warnings = v["warnings"].as_u64().unwrap_or(0) as usize;
    if errors > 0 {
        eprintln!("validator on {}: {}", path.display(), v["messages"]);
    }
    (errors, warnings)
}
