//! Atomic output: write to a temporary file beside the target, then rename. An input
//! file is never overwritten by an output.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// Writes `bytes` to `path` atomically (temporary file in the same folder, fsync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| Error::format(path, "", "not a file path"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let res = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// Refuses to write `output` when it is the same file as any of `inputs`.
pub fn ensure_not_input(output: &Path, inputs: &[&Path]) -> Result<()> {
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let out = canon(output);
    for i in inputs {
        if out.is_some() && canon(i) == out {
            return Err(Error::format(
                output,
                "",
                "refusing to overwrite an input file",
            ));
        }
    }
    Ok(())
}
