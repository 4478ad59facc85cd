//! glTF 2.0 / GLB reading and writing.
//!
//! ```no_run
//! use std::path::Path;
//! use rigsmith::io::gltf::{read_gltf_bytes, write_glb_bytes, WriteOptions};
//! let path = Path::new("knight.glb");
//! let bytes = std::fs::read(path).unwrap();
//! let character = read_gltf_bytes(&bytes, path).unwrap();
//! let glb = write_glb_bytes(&character, &WriteOptions::default()).unwrap();
//! ```
//!
//! Reading ([`read_gltf_bytes`]) accepts `.glb` and `.gltf` (embedded data URIs or
//! external buffers next to the file). Everything in the file is untrusted: every
//! declared length and index is checked against what is really there before use, so
//! bad input is an [`Error::Format`](crate::Error::Format) naming the file and the glTF
//! path of the fault (`meshes[2].primitives[0].attributes.JOINTS_0`), never a panic and
//! never an allocation sized from a declared length. See [`read`] for how scenes,
//! skins and primitives become a [`Character`].
//!
//! Writing ([`write_glb_bytes`], [`write_gltf`]) produces a document that passes the
//! Khronos glTF-Validator with no errors; see [`write`] for its layout. Exporters that
//! add extensions (VRM) call [`build_document`], add to the root, then [`pack_glb`].

pub mod accessor;
pub mod animation;
pub mod container;
pub mod draco;
pub mod meshopt;
pub mod read;
pub mod write;

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::Character;

/// Options for the glTF writer.
#[derive(Debug, Clone, PartialEq)]
pub struct WriteOptions {
    /// Influences kept per vertex: 4 (default) writes `JOINTS_0`/`WEIGHTS_0`; more than
    /// 4 writes 8 (`JOINTS_1`/`WEIGHTS_1` as well).
    pub max_influences: usize,
    /// The `asset.generator` string.
    pub generator: String,
    /// Extra float vertex attributes per part name: attribute name (an application
    /// attribute starts with `_`, such as `_DQS_BLEND`) -> one value per vertex. A list
    /// whose length is not the part's vertex count is not written.
    pub vertex_attributes:
        std::collections::BTreeMap<String, std::collections::BTreeMap<String, Vec<f32>>>,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            max_influences: 4,
            generator: format!("rigsmith {}", env!("CARGO_PKG_VERSION")),
            vertex_attributes: Default::default(),
        }
    }
}

/// How a `.gltf` file stores its binary buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GltfBuffers {
    /// A base64 `data:` URI inside the JSON.
    Embedded,
    /// A `.bin` file beside the `.gltf` (same stem).
    Sidecar,
}

/// Parses the JSON of a glTF/GLB held in `bytes` and loads its buffers (external ones
/// relative to `path`, which also names the file in errors).
pub fn load_doc(bytes: &[u8], path: &Path) -> Result<accessor::Doc> {
    let glb_ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| matches!(e.to_ascii_lowercase().as_str(), "glb" | "vrm"))
        .unwrap_or(false);
    let (json, bin) = if container::is_glb(bytes) || glb_ext {
        container::split_glb(bytes, path)?
    } else {
        (bytes, None)
    };
    let value: serde_json::Value = serde_json::from_slice(json).map_err(|e| {
        Error::format(
            path,
            if bin.is_some() || glb_ext {
                "chunks[0]"
            } else {
                ""
            },
            format!("the JSON is not valid JSON: {e}"),
        )
    })?;
    accessor::Doc::load(path, value, bin)
}

/// Reads a character from glTF or GLB bytes. `path` names the file in errors and is
/// where external buffers are looked up.
pub fn read_gltf_bytes(bytes: &[u8], path: &Path) -> Result<Character> {
    let doc = load_doc(bytes, path)?;
    Ok(read::read_scene(&doc)?.character)
}

/// Reads a `.glb` or `.gltf` file.
pub fn read_gltf(path: &Path) -> Result<Character> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    read_gltf_bytes(&bytes, path)
}

/// The glTF document of a character before packing: the root, the binary buffer
/// (buffer 0, padded to 4 bytes) and, for each skeleton bone, its node index.
pub fn build_document(
    c: &Character,
    opts: &WriteOptions,
) -> Result<(gltf_json::Root, Vec<u8>, Vec<u32>)> {
    let (json, bin, nodes) = write::build_json(c, opts)?;
    let root: gltf_json::Root = serde_json::from_value(json)
        .map_err(|e| Error::invalid("glTF document", format!("could not build: {e}")))?;
    Ok((root, bin, nodes))
}

/// Packs a document and its binary buffer into GLB bytes. `root.buffers[0].byteLength`
/// should equal `bin.len()`.
pub fn pack_glb(root: &gltf_json::Root, bin: &[u8]) -> Result<Vec<u8>> {
    let json = serde_json::to_vec(root)
        .map_err(|e| Error::invalid("glTF document", format!("could not serialize: {e}")))?;
    Ok(container::pack(&json, bin))
}

/// A character as GLB bytes.
pub fn write_glb_bytes(c: &Character, opts: &WriteOptions) -> Result<Vec<u8>> {
    let (root, bin, _) = build_document(c, opts)?;
    pack_glb(&root, &bin)
}

/// Writes a character as `.gltf` JSON with its buffer embedded or in a sidecar `.bin`
/// (written first; both atomically).
pub fn write_gltf(
    path: &Path,
    c: &Character,
    opts: &WriteOptions,
    buffers: GltfBuffers,
) -> Result<()> {
    let (mut root, bin, _) = build_document(c, opts)?;
    match buffers {
        GltfBuffers::Embedded => {
            root.buffers[0].uri = Some(format!(
                "data:application/octet-stream;base64,{}",
                container::base64_encode(&bin)
            ));
        }
        GltfBuffers::Sidecar => {
            let stem = path
                .file_stem()
                .ok_or_else(|| Error::format(path, "", "not a file path"))?
                .to_string_lossy()
                .into_owned();
            let name = format!("{stem}.bin");
            super::atomic::write_atomic(&path.with_file_name(&name), &bin)?;
            root.buffers[0].uri = Some(name);
        }
    }
    let json = serde_json::to_vec_pretty(&root)
        .map_err(|e| Error::invalid("glTF document", format!("could not serialize: {e}")))?;
    super::atomic::write_atomic(path, &json)
}
