//! Bounds-checked access to glTF buffers, buffer views and accessors.
//!
//! Every number in the JSON is untrusted. Before a single element is read, the accessor's
//! byte range (`bufferView.byteOffset + accessor.byteOffset + stride * (count - 1) +
//! element size`) is checked, in 64-bit arithmetic, against the bytes the buffer really
//! holds; output vectors are only sized from counts that passed that check. Sparse
//! accessors are applied on top (indices checked against `count`). Errors carry the glTF
//! path given by the caller (`meshes[2].primitives[0].attributes.JOINTS_0`).

//!
//! Compressed data is decoded once, when the document is loaded: buffer views compressed
//! with `EXT_meshopt_compression` / `KHR_meshopt_compression` are replaced by their
//! decoded bytes ([`super::meshopt`]), and the accessors of `KHR_draco_mesh_compression`
//! primitives by their decoded values ([`super::draco`]). Everything after that reads
//! them like any other accessor. A file that *requires* an extension the reader does
//! not handle is refused by name ([`SUPPORTED_REQUIRED`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::container::base64_decode;
use super::draco::Decoded;
use crate::error::{Error, Result};

/// Extensions a file may list in `extensionsRequired`: the ones the reader decodes
/// (quantized attributes, meshopt and Draco compression) and the ones that only change
/// how a surface is shaded or add lights (material, texture and light extensions, and
/// every `KHR_materials_*`), which a rig does not read. Any other required extension
/// is refused by name, as the specification asks of a loader that does not support it.
pub const SUPPORTED_REQUIRED: &[&str] = &[
    "KHR_mesh_quantization",
    "EXT_meshopt_compression",
    "KHR_meshopt_compression",
    "KHR_draco_mesh_compression",
    "KHR_texture_transform",
    "KHR_texture_basisu",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "KHR_lights_punctual",
];

fn supported_required(name: &str) -> bool {
    SUPPORTED_REQUIRED.contains(&name) || name.starts_with("KHR_materials_")
}

/// The meshopt extension of a buffer view or buffer, under either name.
fn meshopt_ext(v: &Value) -> Option<&Value> {
    let e = v.get("extensions")?;
    e.get("EXT_meshopt_compression")
        .or_else(|| e.get("KHR_meshopt_compression"))
}

/// A parsed glTF document with its buffers loaded.
pub struct Doc {
    /// The file, for errors.
    pub path: PathBuf,
    /// The JSON document.
    pub json: Value,
    /// The bytes of each buffer (`buffers[i]`), as found (never longer than the source).
    /// A meshopt fallback buffer with no data is empty.
    pub buffers: Vec<Vec<u8>>,
    /// Decoded bytes of meshopt-compressed buffer views, by buffer view index.
    views: HashMap<u64, Vec<u8>>,
    /// Decoded values of Draco-compressed accessors, by accessor index.
    decoded: HashMap<u64, Decoded>,
}

/// The array `json[key]`, empty when absent.
pub fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

impl Doc {
    /// Loads the buffers of `json`: buffer 0 may be the GLB `bin` chunk; others are data
    /// URIs or files beside `path`.
    pub fn load(path: &Path, json: Value, bin: Option<&[u8]>) -> Result<Doc> {
        if !json.is_object() {
            return Err(Error::format(path, "", "the glTF JSON is not an object"));
        }
        let version = json
            .pointer("/asset/version")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !version.starts_with("2.") {
            return Err(Error::format(
                path,
                "asset.version",
                format!("glTF version {version:?} is not supported (expected 2.x)"),
            ));
        }
        let unsupported: Vec<&str> = array(&json, "extensionsRequired")
            .iter()
            .filter_map(Value::as_str)
            .filter(|e| !supported_required(e))
            .collect();
        if !unsupported.is_empty() {
            return Err(Error::format(
                path,
                "extensionsRequired",
                format!(
                    "the file requires {} that rigsmith does not support: {}",
                    if unsupported.len() == 1 {
                        "an extension"
                    } else {
                        "extensions"
                    },
                    unsupported.join(", ")
                ),
            ));
        }
        let mut buffers = Vec::new();
        for (i, b) in array(&json, "buffers").iter().enumerate() {
            let at = format!("buffers[{i}]");
            let declared = b.get("byteLength").and_then(Value::as_u64).ok_or_else(|| {
                Error::format(path, format!("{at}.byteLength"), "missing or not a number")
            })?;
            let fallback = meshopt_ext(b)
                .and_then(|e| e.get("fallback"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let bytes: Vec<u8> = match b.get("uri").and_then(Value::as_str) {
                // A meshopt fallback buffer without data: only compressed views use it,
                // and they are decoded from another buffer.
                None if fallback && (i != 0 || bin.is_none()) => Vec::new(),
                None => {
                    if i != 0 {
                        return Err(Error::format(path, format!("{at}.uri"), "missing uri"));
                    }
                    bin.ok_or_else(|| {
                        Error::format(path, &at, "refers to the GLB BIN chunk but there is none")
                    })?
                    .to_vec()
                }
                Some(uri) if uri.starts_with("data:") => {
                    let data = uri.split_once(";base64,").map(|x| x.1).ok_or_else(|| {
                        Error::format(path, format!("{at}.uri"), "data URI is not base64")
                    })?;
                    base64_decode(data).ok_or_else(|| {
                        Error::format(path, format!("{at}.uri"), "data URI holds invalid base64")
                    })?
                }
                Some(uri) => {
                    let rel = percent_decode(uri);
                    if rel.contains("://") {
                        return Err(Error::format(
                            path,
                            format!("{at}.uri"),
                            format!("remote buffer {uri:?} is not supported"),
                        ));
                    }
                    let file = path.parent().unwrap_or(Path::new(".")).join(&rel);
                    std::fs::read(&file).map_err(|e| {
                        Error::format(
                            path,
                            format!("{at}.uri"),
                            format!("cannot read external buffer {}: {e}", file.display()),
                        )
                    })?
                }
            };
            if (bytes.len() as u64) < declared && !(fallback && bytes.is_empty()) {
                return Err(Error::format(
                    path,
                    format!("{at}.byteLength"),
                    format!(
                        "declares {declared} bytes but the buffer holds only {}",
                        bytes.len()
                    ),
                ));
            }
            buffers.push(bytes);
        }
        let mut doc = Doc {
            path: path.to_path_buf(),
            json,
            buffers,
            views: HashMap::new(),
            decoded: HashMap::new(),
        };
        doc.decode_meshopt()?;
        doc.decode_draco()?;
        Ok(doc)
    }

    /// Decodes every meshopt-compressed buffer view.
    fn decode_meshopt(&mut self) -> Result<()> {
        let mut views = HashMap::new();
        for (i, v) in array(&self.json, "bufferViews").iter().enumerate() {
            let Some(e) = meshopt_ext(v) else { continue };
            let at = format!("bufferViews[{i}].extensions.EXT_meshopt_compression");
            let num = |k: &str| -> Result<u64> {
                e.get(k)
                    .and_then(Value::as_u64)
                    .ok_or_else(|| self.err(format!("{at}.{k}"), "missing or not a number"))
            };
            let b = num("buffer")?;
            let off = e.get("byteOffset").and_then(Value::as_u64).unwrap_or(0);
            let len = num("byteLength")?;
            let stride = num("byteStride")?;
            let count = num("count")?;
            let mode = e.get("mode").and_then(Value::as_str).unwrap_or("");
            let filter = e.get("filter").and_then(Value::as_str).unwrap_or("NONE");
            let buf = self.buffers.get(b as usize).ok_or_else(|| {
                self.err(format!("{at}.buffer"), format!("buffer {b} does not exist"))
            })?;
            let src = off
                .checked_add(len)
                .filter(|&end| end <= buf.len() as u64)
                .map(|end| &buf[off as usize..end as usize])
                .ok_or_else(|| {
                    self.err(
                        format!("{at}.byteLength"),
                        format!(
                            "compressed bytes {off}..{} lie past the end of buffer {b} ({} bytes)",
                            off.saturating_add(len),
                            buf.len()
                        ),
                    )
                })?;
            // The codecs cannot expand data more than about 1000 times: a larger
            // claim is corrupt, and must not size an allocation.
            let out_len = count.saturating_mul(stride);
            if stride == 0 || out_len > len.saturating_mul(1024).saturating_add(1 << 16) {
                return Err(self.err(
                    format!("{at}.count"),
                    format!("{count} elements of {stride} bytes cannot come from {len} compressed bytes"),
                ));
            }
            let bytes = super::meshopt::decode(src, count as usize, stride as usize, mode, filter)
                .map_err(|m| self.err(&at, format!("meshopt {mode} data: {m}")))?;
            views.insert(i as u64, bytes);
        }
        self.views = views;
        Ok(())
    }

    /// Decodes every Draco-compressed primitive into its accessors' values.
    fn decode_draco(&mut self) -> Result<()> {
        let mut decoded = HashMap::new();
        for (m, mesh) in array(&self.json, "meshes").iter().enumerate() {
            for (p, prim) in array(mesh, "primitives").iter().enumerate() {
                let Some(e) = prim.pointer("/extensions/KHR_draco_mesh_compression") else {
                    continue;
                };
                let at =
                    format!("meshes[{m}].primitives[{p}].extensions.KHR_draco_mesh_compression");
                if prim.get("indices").and_then(Value::as_u64).is_none() {
                    return Err(self.err(
                        format!("meshes[{m}].primitives[{p}].indices"),
                        "a Draco-compressed primitive must have an indices accessor",
                    ));
                }
                let vi = e.get("bufferView").and_then(Value::as_u64).ok_or_else(|| {
                    self.err(format!("{at}.bufferView"), "missing or not an index")
                })?;
                let (bytes, _) = self.view(vi, &format!("{at}.bufferView"))?;
                let acc = super::draco::decode_primitive(prim, e, bytes)
                    .map_err(|msg| self.err(&at, msg))?;
                decoded.extend(acc);
            }
        }
        self.decoded = decoded;
        Ok(())
    }

    /// A format error in this document.
    pub fn err(&self, at: impl Into<String>, msg: impl Into<String>) -> Error {
        Error::format(&self.path, at, msg)
    }

    /// `json[key][i]`, or an error naming `at` when the index is out of range.
    pub fn item(&self, key: &str, i: u64, at: &str) -> Result<&Value> {
        array(&self.json, key).get(i as usize).ok_or_else(|| {
            self.err(
                at,
                format!(
                    "refers to {key}[{i}] but there are {}",
                    array(&self.json, key).len()
                ),
            )
        })
    }

    /// Total bytes over all buffers (a bound for accessors without a buffer view).
    fn total_bytes(&self) -> u64 {
        self.buffers.iter().map(|b| b.len() as u64).sum()
    }

    /// The bytes of a buffer view and its stride (0 when unset).
    fn view(&self, i: u64, at: &str) -> Result<(&[u8], u64)> {
        let vat = format!("bufferViews[{i}]");
        let v = self.item("bufferViews", i, at)?;
        if let Some(bytes) = self.views.get(&i) {
            let stride = v.get("byteStride").and_then(Value::as_u64).unwrap_or(0);
            return Ok((bytes, stride));
        }
        let b = v
            .get("buffer")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(format!("{vat}.buffer"), "missing or not an index"))?;
        let buf = self.buffers.get(b as usize).ok_or_else(|| {
            self.err(
                format!("{vat}.buffer"),
                format!("buffer {b} does not exist"),
            )
        })?;
        let off = v.get("byteOffset").and_then(Value::as_u64).unwrap_or(0);
        let len = v
            .get("byteLength")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(format!("{vat}.byteLength"), "missing or not a number"))?;
        let end = off
            .checked_add(len)
            .filter(|&e| e <= buf.len() as u64)
            .ok_or_else(|| {
                self.err(
                    format!("{vat}.byteLength"),
                    format!(
                        "bytes {off}..{} lie past the end of buffer {b} ({} bytes)",
                        off.saturating_add(len),
                        buf.len()
                    ),
                )
            })?;
        let stride = v.get("byteStride").and_then(Value::as_u64).unwrap_or(0);
        Ok((&buf[off as usize..end as usize], stride))
    }

    /// Reads accessor `i` as raw component values converted to `f64` (integers as they
    /// are, not normalized), returning `(values, components per element)`. `at` is the
    /// path of the reference, for errors.
    fn raw(&self, i: u64, at: &str) -> Result<(Vec<f64>, usize, u64, bool)> {
        let aat = format!("accessors[{i}]");
        let a = self.item("accessors", i, at)?;
        let ct = a.get("componentType").and_then(Value::as_u64).unwrap_or(0);
        let csize: u64 = match ct {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            5125 | 5126 => 4,
            _ => {
                return Err(self.err(
                    format!("{at} ({aat}.componentType)"),
                    format!("unknown component type {ct}"),
                ))
            }
        };
        let ty = a.get("type").and_then(Value::as_str).unwrap_or("");
        let comps: u64 = match ty {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            _ => {
                return Err(self.err(
                    format!("{at} ({aat}.type)"),
                    format!("accessor type {ty:?} is not supported here"),
                ))
            }
        };
        let count = a
            .get("count")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(format!("{at} ({aat}.count)"), "missing or not a number"))?;
        let normalized = a
            .get("normalized")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let elem = comps * csize;
        if let Some(d) = self.decoded.get(&i) {
            if d.comps != comps as usize || d.values.len() as u64 != count * comps {
                return Err(self.err(
                    format!("{at} ({aat})"),
                    format!(
                        "declares {count} elements of {comps} components but the Draco data holds {} of {}",
                        d.values.len() / d.comps.max(1),
                        d.comps
                    ),
                ));
            }
            return Ok((d.values.clone(), comps as usize, ct, normalized));
        }
        let mut out: Vec<f64>;
        match a.get("bufferView").and_then(Value::as_u64) {
            Some(vi) => {
                let (bytes, stride) = self.view(vi, at)?;
                let stride = if stride == 0 { elem } else { stride };
                if stride < elem {
                    return Err(self.err(
                        format!("{at} (bufferViews[{vi}].byteStride)"),
                        format!("stride {stride} is shorter than an element ({elem} bytes)"),
                    ));
                }
                let off = a.get("byteOffset").and_then(Value::as_u64).unwrap_or(0);
                let need = if count == 0 {
                    Some(off)
                } else {
                    stride
                        .checked_mul(count - 1)
                        .and_then(|x| x.checked_add(elem))
                        .and_then(|x| x.checked_add(off))
                };
                match need {
                    Some(n) if n <= bytes.len() as u64 => {}
                    _ => {
                        return Err(self.err(
                            format!("{at} ({aat})"),
                            format!(
                                "{count} elements of {elem} bytes at offset {off} (stride {stride}) lie past the end of bufferViews[{vi}] ({} bytes)",
                                bytes.len()
                            ),
                        ))
                    }
                }
                out = Vec::with_capacity((count * comps) as usize);
                for e in 0..count {
                    let base = (off + e * stride) as usize;
                    for c in 0..comps as usize {
                        let p = base + c * csize as usize;
                        out.push(component(&bytes[p..p + csize as usize], ct));
                    }
                }
            }
            None => {
                // All zeros, filled by a sparse accessor: bound the count by the data we hold.
                if count > (self.total_bytes() / 4).max(1 << 16) {
                    return Err(self.err(
                        format!("{at} ({aat}.count)"),
                        format!("declares {count} elements without a buffer view; the file holds only {} bytes", self.total_bytes()),
                    ));
                }
                out = vec![0.0; (count * comps) as usize];
            }
        }
        if let Some(sp) = a.get("sparse") {
            self.apply_sparse(
                sp,
                &mut out,
                count,
                comps as usize,
                ct,
                &format!("{at} ({aat}.sparse)"),
            )?;
        }
        Ok((out, comps as usize, ct, normalized))
    }

    fn apply_sparse(
        &self,
        sp: &Value,
        out: &mut [f64],
        count: u64,
        comps: usize,
        ct: u64,
        at: &str,
    ) -> Result<()> {
        let n = sp.get("count").and_then(Value::as_u64).unwrap_or(0);
        if n > count {
            return Err(self.err(
                at,
                format!("{n} sparse elements for an accessor of {count}"),
            ));
        }
        let iv = sp
            .pointer("/indices/bufferView")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(format!("{at}.indices.bufferView"), "missing"))?;
        let ict = sp
            .pointer("/indices/componentType")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let isz: u64 = match ict {
            5121 => 1,
            5123 => 2,
            5125 => 4,
            _ => {
                return Err(self.err(
                    format!("{at}.indices.componentType"),
                    format!("invalid {ict}"),
                ))
            }
        };
        let ioff = sp
            .pointer("/indices/byteOffset")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let (ib, _) = self.view(iv, at)?;
        let vv = sp
            .pointer("/values/bufferView")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(format!("{at}.values.bufferView"), "missing"))?;
        let voff = sp
            .pointer("/values/byteOffset")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let (vb, _) = self.view(vv, at)?;
        let csz = match ct {
            5120 | 5121 => 1u64,
            5122 | 5123 => 2,
            _ => 4,
        };
        let vel = csz * comps as u64;
        if ioff.saturating_add(n.saturating_mul(isz)) > ib.len() as u64 {
            return Err(self.err(
                format!("{at}.indices"),
                "indices lie past the end of their buffer view",
            ));
        }
        if voff.saturating_add(n.saturating_mul(vel)) > vb.len() as u64 {
            return Err(self.err(
                format!("{at}.values"),
                "values lie past the end of their buffer view",
            ));
        }
        for k in 0..n {
            let p = (ioff + k * isz) as usize;
            let idx = component(&ib[p..p + isz as usize], ict) as u64;
            if idx >= count {
                return Err(self.err(
                    format!("{at}.indices"),
                    format!("sparse index {idx} is out of range (count {count})"),
                ));
            }
            for c in 0..comps {
                let q = (voff + k * vel + c as u64 * csz) as usize;
                out[idx as usize * comps + c] = component(&vb[q..q + csz as usize], ct);
            }
        }
        Ok(())
    }

    /// Reads accessor `i` as floats (normalized integers mapped to [0, 1] or [-1, 1] as
    /// the specification says), checking it has `comps` components per element.
    /// Returns the flat values (count x comps).
    pub fn floats(&self, i: u64, comps: usize, at: &str) -> Result<Vec<f32>> {
        let (raw, c, ct, normalized) = self.raw(i, at)?;
        if c != comps {
            return Err(self.err(
                at,
                format!("expected {comps} components per element, found {c}"),
            ));
        }
        let scale = match (ct, normalized) {
            (5126, _) | (_, false) => 1.0,
            (5120, true) => 127.0,
            (5121, true) => 255.0,
            (5122, true) => 32767.0,
            (5123, true) => 65535.0,
            (5125, true) => 4294967295.0,
            _ => 1.0,
        };
        if scale == 1.0 {
            return Ok(raw.into_iter().map(|x| x as f32).collect());
        }
        // Normalized signed integers: -128 maps to -1 as well as -127 (clamp).
        Ok(raw
            .into_iter()
            .map(|x| ((x / scale) as f32).max(-1.0))
            .collect())
    }

    /// Reads accessor `i` as unsigned integers (indices, joints), checking the
    /// component type is an unsigned integer and there are `comps` per element.
    pub fn uints(&self, i: u64, comps: usize, at: &str) -> Result<Vec<u32>> {
        let (raw, c, ct, _) = self.raw(i, at)?;
        if !matches!(ct, 5121 | 5123 | 5125) {
            return Err(self.err(
                at,
                format!("component type {ct} is not an unsigned integer type"),
            ));
        }
        if c != comps {
            return Err(self.err(
                at,
                format!("expected {comps} components per element, found {c}"),
            ));
        }
        Ok(raw.into_iter().map(|x| x as u32).collect())
    }

    /// The `count` of accessor `i`.
    pub fn count(&self, i: u64, at: &str) -> Result<u64> {
        self.item("accessors", i, at)?
            .get("count")
            .and_then(Value::as_u64)
            .ok_or_else(|| self.err(at, "accessor count missing"))
    }
}

fn component(b: &[u8], ct: u64) -> f64 {
    match ct {
        5120 => b[0] as i8 as f64,
        5121 => b[0] as f64,
        5122 => i16::from_le_bytes([b[0], b[1]]) as f64,
        5123 => u16::from_le_bytes([b[0], b[1]]) as f64,
        5125 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        _ => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
    }
}

/// Decodes `%XX` escapes in a URI.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
