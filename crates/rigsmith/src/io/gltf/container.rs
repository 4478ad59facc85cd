//! The GLB container and data URIs: splitting a `.glb` into its JSON and BIN chunks,
//! packing them back, and base64 for embedded buffers.
//!
//! A GLB is a 12-byte header (`glTF`, version 2, total length) followed by chunks
//! (`length`, `type`, bytes): first the JSON chunk, then an optional BIN chunk. Every
//! declared length is checked against the bytes actually present before anything is
//! sliced, so a truncated file or a header that claims gigabytes is an error, never an
//! allocation.

use std::path::Path;

use crate::error::{Error, Result};

const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// Whether `bytes` start with the GLB magic `glTF`.
pub(crate) fn is_glb(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && &bytes[..4] == MAGIC
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB into its JSON chunk and optional BIN chunk (both borrowed from `bytes`).
/// `path` only names the file in errors.
pub fn split_glb<'a>(bytes: &'a [u8], path: &Path) -> Result<(&'a [u8], Option<&'a [u8]>)> {
    if bytes.len() < 12 {
        return Err(Error::format(
            path,
            "header",
            format!(
                "truncated GLB: {} bytes, a GLB header alone is 12",
                bytes.len()
            ),
        ));
    }
    if !is_glb(bytes) {
        return Err(Error::format(
            path,
            "header",
            format!(
                "wrong magic {:?}: not a GLB file (expected \"glTF\")",
                String::from_utf8_lossy(&bytes[..4])
            ),
        ));
    }
    let version = u32_at(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(Error::format(
            path,
            "header.version",
            format!("GLB version {version} is not supported (expected 2)"),
        ));
    }
    let declared = u32_at(bytes, 8).unwrap_or(0) as usize;
    if declared > bytes.len() {
        return Err(Error::format(
            path,
            "header.length",
            format!(
                "the header declares {declared} bytes but the file has {} (truncated or corrupt)",
                bytes.len()
            ),
        ));
    }
    let data = &bytes[..declared.max(12)];
    let mut at = 12usize;
    let mut json = None;
    let mut bin = None;
    let mut k = 0usize;
    while at < data.len() {
        let len = u32_at(data, at)
            .ok_or_else(|| Error::format(path, format!("chunks[{k}]"), "truncated chunk header"))?
            as usize;
        let ty = u32_at(data, at + 4)
            .ok_or_else(|| Error::format(path, format!("chunks[{k}]"), "truncated chunk header"))?;
        let start = at + 8;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= data.len())
            .ok_or_else(|| {
                Error::format(
                    path,
                    format!("chunks[{k}].length"),
                    format!(
                        "chunk declares {len} bytes but only {} remain in the file",
                        data.len().saturating_sub(start)
                    ),
                )
            })?;
        let chunk = &data[start..end];
        match (k, ty) {
            (0, CHUNK_JSON) => json = Some(chunk),
            (0, _) => {
                return Err(Error::format(
                    path,
                    "chunks[0]",
                    "the first chunk is not the JSON chunk",
                ))
            }
            (_, CHUNK_BIN) if bin.is_none() => bin = Some(chunk),
            _ => {} // unknown chunks are skipped, as the specification asks
        }
        at = end;
        k += 1;
    }
    let json = json.ok_or_else(|| Error::format(path, "chunks[0]", "the GLB has no JSON chunk"))?;
    Ok((json, bin))
}

/// Packs a JSON document and a binary buffer into GLB bytes (JSON padded with spaces,
/// BIN with zeros, to 4 bytes). The BIN chunk is omitted when `bin` is empty.
pub fn pack(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let pad = |n: usize| (4 - n % 4) % 4;
    let jl = json.len() + pad(json.len());
    let bl = bin.len() + pad(bin.len());
    let total = 12 + 8 + jl + if bin.is_empty() { 0 } else { 8 + bl };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(jl as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(out.len() + pad(json.len()), b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bl as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(out.len() + pad(bin.len()), 0);
    }
    out
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            if k <= c.len() {
                s.push(B64[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Decodes standard or URL-safe base64 (padding optional, whitespace ignored); `None`
/// on any other character.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trip() {
        for n in 0..10 {
            let b: Vec<u8> = (0..n).map(|i| (i * 37 + 5) as u8).collect();
            assert_eq!(base64_decode(&base64_encode(&b)).unwrap(), b);
        }
        assert_eq!(base64_encode(b"Man"), "TWFu");
        assert_eq!(base64_encode(b"Ma"), "TWE=");
    }

    #[test]
    fn pack_split() {
        let g = pack(b"{}", &[1, 2, 3]);
        assert_eq!(g.len() % 4, 0);
        let (j, b) = split_glb(&g, Path::new("x.glb")).unwrap();
        assert_eq!(j, b"{}  ");
        assert_eq!(b.unwrap(), &[1, 2, 3, 0]);
    }
}
