//! Fuzzing the glTF reader: a skinned GLB the test writes, mutated (its JSON edited at
//! random places, its binary chunk overwritten with NaN, infinities and huge values, the
//! file cut short, its bytes flipped), is either read or refused with an error naming
//! the file. It never panics, and a character that reads is inspected, model-checked,
//! bound to its own skeleton, written and read back without panicking.

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use rigsmith::io::gltf::{read_gltf_bytes, write_glb_bytes, WriteOptions};
use rigsmith::io::vrm::read_vrm_bytes;
use serde_json::{json, Value};

use crate::common::read_or_refuse_naming;
use crate::gltf_io::{synthetic, vrm_bytes};

const NAME: &str = "mutant.glb";

/// The source file: the synthetic skinned character (bones, weights of up to 4
/// influences, a morph target, UVs, a second part) as a GLB.
fn source() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| write_glb_bytes(&synthetic(4), &WriteOptions::default()).unwrap())
}

/// The GLB's JSON and binary chunks.
fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    let u32_at = |o: usize| u32::from_le_bytes(glb[o..o + 4].try_into().unwrap()) as usize;
    let json_len = u32_at(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin_len = u32_at(bin_at);
    (json, glb[bin_at + 8..bin_at + 8 + bin_len].to_vec())
}

/// A GLB of these chunks, lengths and padding as the format wants them.
fn pack(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).unwrap();
    j.resize(j.len().div_ceil(4) * 4, b' ');
    let mut b = bin.to_vec();
    b.resize(b.len().div_ceil(4) * 4, 0);
    let total = 12 + 8 + j.len() + 8 + b.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&b);
    out
}

/// Every node of a JSON tree, as a path of keys and indices.
fn paths(v: &Value, here: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let mut p = here.clone();
                p.push(json!(k));
                paths(c, p, out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let mut p = here.clone();
                p.push(json!(i));
                paths(c, p, out);
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |cur, k| match k {
        Value::String(s) => cur.get_mut(s.as_str()).unwrap(),
        Value::Number(n) => cur.get_mut(n.as_u64().unwrap() as usize).unwrap(),
        _ => unreachable!(),
    })
}

/// What a mutation puts in place of a JSON node: the values a broken exporter or a
/// hand edit leaves (indices out of range, negative or huge counts and offsets, wrong
/// types, unknown extensions).
fn replacement(kind: u8, x: i64, pick: &str) -> Value {
    match kind % 14 {
        0 => Value::Null,
        1 => json!(x),
        2 => json!(-x),
        3 => json!(u32::MAX as u64 + x.unsigned_abs()),
        4 => json!(x as f64 * 1e30),
        5 => json!(pick),
        6 => json!([x, x, x]),
        7 => json!({ "bufferView": x, "count": x, "componentType": 5126, "type": pick }),
        8 => json!(true),
        9 => json!(0),
        10 => json!([]),
        11 => json!({}),
        12 => json!(["KHR_draco_mesh_compression", pick]),
        _ => json!(x % 8),
    }
}

/// Reads the bytes: read, or refused naming the file ([`read_or_refuse_naming`]).
fn exercise(bytes: &[u8]) {
    read_or_refuse_naming(read_gltf_bytes(bytes, Path::new(NAME)), NAME);
}

#[test]
fn the_source_reads_and_every_check_passes_on_it() {
    let (json, bin) = chunks(source());
    let c = read_gltf_bytes(&pack(&json, &bin), Path::new(NAME)).unwrap();
    assert_eq!(c.parts.len(), synthetic(4).parts.len());
    exercise(source());
}

/// Positive control: the harness does see a refusal, and the refusal names the file.
#[test]
fn a_broken_accessor_is_refused_naming_the_file() {
    let (mut json, bin) = chunks(source());
    json["accessors"][0]["count"] = json!(1_000_000_000u64);
    let e = read_gltf_bytes(&pack(&json, &bin), Path::new(NAME)).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains(NAME) && msg.contains("accessors[0]"), "{msg}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mutated_json_never_panics(
        edits in proptest::collection::vec((any::<u32>(), any::<u8>(), -70_000i64..70_000, "[A-Za-z_]{0,10}"), 1..5)
    ) {
        let (mut json, bin) = chunks(source());
        for (which, kind, x, pick) in edits {
            let mut all = Vec::new();
            paths(&json, Vec::new(), &mut all);
            let p = &all[which as usize % all.len()];
            *at(&mut json, p) = replacement(kind, x, &pick);
        }
        exercise(&pack(&json, &bin));
    }

    #[test]
    fn mutated_vrm_never_panics(
        version in 0u8..2,
        edits in proptest::collection::vec((any::<u32>(), any::<u8>(), -70_000i64..70_000, "[A-Za-z_]{0,10}"), 1..4)
    ) {
        let (mut json, bin) = chunks(&vrm_bytes(version));
        // Most edits land in the VRM extension, the rest anywhere.
        for (which, kind, x, pick) in edits {
            let mut all = Vec::new();
            paths(&json, Vec::new(), &mut all);
            let ext: Vec<Vec<Value>> = all
                .iter()
                .filter(|p| p.first() == Some(&json!("extensions")))
                .cloned()
                .collect();
            let pool = if which % 4 == 0 || ext.is_empty() { &all } else { &ext };
            let p = &pool[which as usize % pool.len()];
            *at(&mut json, p) = replacement(kind, x, &pick);
        }
        let name = format!("{}.vrm", NAME.trim_end_matches(".glb"));
        read_or_refuse_naming(read_vrm_bytes(&pack(&json, &bin), Path::new(&name)), &name);
    }

    #[test]
    fn overwritten_binary_data_never_panics(
        writes in proptest::collection::vec((any::<u32>(), 0u8..6), 1..40)
    ) {
        let (json, mut bin) = chunks(source());
        for (where_, what) in writes {
            let o = (where_ as usize % (bin.len() / 4)) * 4;
            let v: [u8; 4] = match what {
                0 => f32::NAN.to_le_bytes(),
                1 => f32::INFINITY.to_le_bytes(),
                2 => (-1.0f32).to_le_bytes(),
                3 => 1e30f32.to_le_bytes(),
                4 => u32::MAX.to_le_bytes(),
                _ => 0x00ff_ff00u32.to_le_bytes(),
            };
            bin[o..o + 4].copy_from_slice(&v);
        }
        exercise(&pack(&json, &bin));
    }

    #[test]
    fn cut_or_flipped_files_never_panic(
        cut in any::<u32>(),
        flips in proptest::collection::vec((any::<u32>(), any::<u8>()), 0..24)
    ) {
        let mut bytes = source().to_vec();
        for (where_, b) in flips {
            let o = where_ as usize % bytes.len();
            bytes[o] = b;
        }
        if cut % 3 == 0 {
            bytes.truncate(cut as usize % bytes.len());
        }
        exercise(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let mut b = bytes;
        if b.len() >= 4 && b[0] % 2 == 0 {
            b[..4].copy_from_slice(b"glTF");
        }
        exercise(&b);
    }
}
