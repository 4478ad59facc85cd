//! Reading and writing characters: glTF/GLB, VRM, OBJ, `skeleton.json`, and the
//! MakeHuman (MPFB2) corpus.
//!
//! [`read_character`] picks the reader from the file extension.

pub mod atomic;
pub mod gltf;
pub mod mpfb2;
pub mod obj;
pub mod skeleton_json;
pub mod vrm;

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::Character;

/// Reads a character from a `.glb`, `.gltf`, `.vrm` or `.obj` file.
pub fn read_character(path: &Path) -> Result<Character> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        _ => Err(Error::format(
            path,
            "",
            format!("unsupported file type {ext:?} (expected .glb, .gltf, .vrm or .obj)"),
        )),
    }
}
