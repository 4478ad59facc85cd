//! Decoding `KHR_draco_mesh_compression` primitives.
//!
//! A Draco primitive keeps its accessors in the JSON (type, component type, count,
//! `normalized`) but without buffer views; its extension names one buffer view holding
//! a Draco mesh and, for each attribute, the Draco attribute's unique id. The mesh is
//! decoded with [`draco_core`] (a pure-Rust decoder of the reference bitstream:
//! sequential and edgebreaker connectivity, standard and valence traversal, every
//! prediction scheme and quantization transform the reference encoder writes). Each
//! attribute's values become the raw component values of its accessor (integers as
//! stored, so `normalized` applies as for an ordinary accessor) and the faces become
//! the `indices` accessor. Draco reorders vertices: the decoded order is the file's
//! vertex order from then on.
//!
//! Choice of decoder: `draco-core` is Apache-2.0, forbids `unsafe`, has no C or C++
//! build step, and is tested against the C++ library's fixtures and output; writing
//! an edgebreaker decoder here would duplicate it.

use std::collections::HashMap;

use draco_core::decoder_buffer::DecoderBuffer;
use draco_core::mesh::Mesh;
use draco_core::mesh_decoder::MeshDecoder;
use serde_json::Value;

/// One decoded accessor: raw component values, `comps` per element.
pub struct Decoded {
    /// Flat values, `count x comps`.
    pub values: Vec<f64>,
    /// Components per element.
    pub comps: usize,
}

/// Decodes a Draco mesh held in `bytes` for primitive `prim`, returning the decoded
/// values of each accessor the primitive's Draco extension covers (by accessor index).
/// `Err` holds a message for the caller to place at the primitive's path.
pub(crate) fn decode_primitive(
    prim: &Value,
    ext: &Value,
    bytes: &[u8],
) -> Result<HashMap<u64, Decoded>, String> {
    let mut buf = DecoderBuffer::new(bytes);
    let mut mesh = Mesh::new();
    MeshDecoder::new()
        .decode(&mut buf, &mut mesh)
        .map_err(|e| format!("the Draco mesh does not decode: {e}"))?;
    let np = mesh.num_points();
    let mut out = HashMap::new();
    let attrs = ext
        .get("attributes")
        .and_then(Value::as_object)
        .ok_or_else(|| "the extension has no attributes".to_string())?;
    for (name, id) in attrs {
        let id = id
            .as_u64()
            .and_then(|x| u32::try_from(x).ok())
            .ok_or_else(|| format!("attributes.{name} is not a Draco attribute id"))?;
        let Some(acc) = prim
            .get("attributes")
            .and_then(|a| a.get(name))
            .and_then(Value::as_u64)
        else {
            continue; // an attribute the primitive does not list: nothing reads it
        };
        let att = mesh
            .attribute_by_unique_id(id)
            .ok_or_else(|| format!("attributes.{name}: the Draco mesh has no attribute {id}"))?;
        let comps = att.num_components() as usize;
        let values = att
            .read_f32s(np, comps)
            .into_iter()
            .map(f64::from)
            .collect();
        out.insert(acc, Decoded { values, comps });
    }
    if let Some(acc) = prim.get("indices").and_then(Value::as_u64) {
        let values = mesh
            .faces()
            .iter()
            .flat_map(|f| f.iter().map(|p| p.0 as f64))
            .collect();
        out.insert(acc, Decoded { values, comps: 1 });
    }
    Ok(out)
}
