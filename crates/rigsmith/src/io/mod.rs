//! Reading and writing characters: glTF/GLB, VRM, OBJ, FBX (read), `skeleton.json`,
//! and the MakeHuman (MPFB2) corpus.
//!
//! [`read_character`] picks the reader from the file extension; [`write_character`]
//! writes `.glb` or `.gltf` (sidecar `.bin`) atomically.
//!
//! ```no_run
//! use std::path::Path;
//! use rigsmith::io::{read_character, write_character, gltf::WriteOptions};
//! let c = read_character(Path::new("in.vrm")).unwrap();
//! write_character(Path::new("out.glb"), &c, &WriteOptions::default()).unwrap();
//! ```

pub mod atomic;
pub mod fbx;
pub mod gltf;
pub mod mpfb2;
pub mod obj;
pub mod skeleton_json;
pub mod space;
pub mod vrm;

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::Character;

fn ext_of(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Reads a character from a `.glb`, `.gltf`, `.vrm`, `.obj` or `.fbx` file.
///
/// A part whose separate pieces are of different kinds (a head, its hat and its eyes in
/// one object) is split, with a warning ([`crate::model::pieces`]).
pub fn read_character(path: &Path) -> Result<Character> {
    let mut c = read_as_written(path)?;
    let split = crate::model::pieces::separate_mixed_parts(&mut c);
    c.warnings.extend(split);
    Ok(c)
}

/// Reads a character as the file holds it, every part as it comes.
pub fn read_as_written(path: &Path) -> Result<Character> {
    let ext = ext_of(path);
    match ext.as_str() {
        "glb" | "gltf" => gltf::read_gltf(path),
        "vrm" => vrm::read_vrm(path),
        "obj" => obj::read_obj(path),
        "fbx" => fbx::read_fbx(path),
        _ => Err(Error::format(
            path,
            "",
            format!("unsupported file type {ext:?} (expected .glb, .gltf, .vrm, .obj or .fbx)"),
        )),
    }
}

/// Writes a character as `.glb`, or as `.gltf` with a sidecar `.bin`, atomically.
/// (Refusing to overwrite an input is the caller's job: see [`atomic::ensure_not_input`].)
pub fn write_character(path: &Path, c: &Character, opts: &gltf::WriteOptions) -> Result<()> {
    match ext_of(path).as_str() {
        "glb" => atomic::write_atomic(path, &gltf::write_glb_bytes(c, opts)?),
        "gltf" => gltf::write_gltf(path, c, opts, gltf::GltfBuffers::Sidecar),
        e => Err(Error::format(
            path,
            "",
            format!("cannot write {e:?} files (expected .glb or .gltf)"),
        )),
    }
}
