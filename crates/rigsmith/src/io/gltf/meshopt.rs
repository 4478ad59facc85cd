//! Decoding `EXT_meshopt_compression` / `KHR_meshopt_compression` buffer views.
//!
//! A compressed buffer view names the compressed bytes (`buffer`, `byteOffset`,
//! `byteLength`) and what they decode to: `count` elements of `byteStride` bytes in one
//! of three modes, then an optional filter:
//! - `ATTRIBUTES`: the vertex codec (versions 0 and 1): per block of up to 256
//!   elements, each byte lane of the elements is stored as zigzag deltas from the
//!   previous element, in groups of 16 with 0/1/2/4/8-bit headers; version 1 adds
//!   per-lane control modes and per-channel 2-byte and XOR deltas.
//! - `TRIANGLES`: the index codec (edge and vertex FIFOs, header `0xE1`).
//! - `INDICES`: the index sequence codec (LEB128 zigzag deltas, header `0xD1`).
//! - Filters: `NONE`, `OCTAHEDRAL` (normals and tangents as 2 signed components plus a
//!   scale), `QUATERNION` (3 components plus the index of the dropped one),
//!   `EXPONENTIAL` (a shared exponent byte and a 24-bit mantissa per float) and
//!   `COLOR` (YCoCg).
//!
//! The output is `count * byteStride` bytes laid out as the uncompressed buffer view
//! would be, so accessors read it as usual. Every read of the compressed bytes is
//! bounds-checked: a corrupt stream is an error (`Err(message)`), never a panic or
//! an allocation sized by anything but the declared output size (which the caller
//! bounds).

/// Decodes one compressed buffer view into `count * stride` bytes.
/// `mode` is `ATTRIBUTES`, `TRIANGLES` or `INDICES`; `filter` is `NONE` (or absent),
/// `OCTAHEDRAL`, `QUATERNION`, `EXPONENTIAL` or `COLOR`.
pub fn decode(
    src: &[u8],
    count: usize,
    stride: usize,
    mode: &str,
    filter: &str,
) -> Result<Vec<u8>, String> {
    let len = count
        .checked_mul(stride)
        .ok_or_else(|| "count * byteStride overflows".to_string())?;
    let mut out = vec![0u8; len];
    match mode {
        "ATTRIBUTES" => {
            if stride == 0 || stride > 256 || stride % 4 != 0 {
                return Err(format!(
                    "byteStride {stride} is not a multiple of 4 up to 256"
                ));
            }
            decode_vertices(&mut out, count, stride, src)?;
        }
        "TRIANGLES" => {
            check_index_stride(stride)?;
            if count % 3 != 0 {
                return Err(format!(
                    "{count} indices is not a whole number of triangles"
                ));
            }
            let idx = decode_triangles(count, src)?;
            write_indices(&mut out, stride, &idx);
        }
        "INDICES" => {
            check_index_stride(stride)?;
            let idx = decode_sequence(count, src)?;
            write_indices(&mut out, stride, &idx);
        }
        _ => return Err(format!("unknown mode {mode:?}")),
    }
    match (mode, filter) {
        (_, "NONE" | "") => {}
        ("ATTRIBUTES", "OCTAHEDRAL") => filter_oct(&mut out, stride)?,
        ("ATTRIBUTES", "QUATERNION") => filter_quat(&mut out, stride)?,
        ("ATTRIBUTES", "EXPONENTIAL") => filter_exp(&mut out),
        ("ATTRIBUTES", "COLOR") => filter_color(&mut out, stride)?,
        _ => return Err(format!("filter {filter:?} is not supported in mode {mode}")),
    }
    Ok(out)
}

fn check_index_stride(stride: usize) -> Result<(), String> {
    if stride == 2 || stride == 4 {
        Ok(())
    } else {
        Err(format!("index byteStride {stride} is neither 2 nor 4"))
    }
}

fn write_indices(out: &mut [u8], stride: usize, idx: &[u32]) {
    for (k, &i) in idx.iter().enumerate() {
        if stride == 2 {
            out[k * 2..k * 2 + 2].copy_from_slice(&(i as u16).to_le_bytes());
        } else {
            out[k * 4..k * 4 + 4].copy_from_slice(&i.to_le_bytes());
        }
    }
}

const TRUNCATED: &str = "the compressed data is truncated or corrupt";

fn byte(src: &[u8], at: usize) -> Result<u8, String> {
    src.get(at).copied().ok_or_else(|| TRUNCATED.to_string())
}

fn dezig(v: u32) -> u32 {
    (v >> 1) ^ (v & 1).wrapping_neg()
}

/// The vertex codec (`ATTRIBUTES`).
fn decode_vertices(out: &mut [u8], count: usize, stride: usize, src: &[u8]) -> Result<(), String> {
    let head = byte(src, 0)?;
    let version = match head {
        0xA0 => 0,
        0xA1 => 1,
        _ => return Err(format!("unknown vertex codec header 0x{head:02X}")),
    };
    let block_max = ((0x2000 / stride) & !0xF).min(0x100);
    let tail_size = if version == 0 {
        stride
    } else {
        stride + stride / 4
    };
    let tail_padded = tail_size.max(if version == 0 { 32 } else { 24 });
    if src.len() < 1 + tail_padded {
        return Err(TRUNCATED.into());
    }
    let tail_at = src.len() - tail_size;
    let mut last: Vec<u8> = src[tail_at..tail_at + stride].to_vec();
    let channels: &[u8] = if version == 0 {
        &[]
    } else {
        &src[tail_at + stride..tail_at + tail_size]
    };
    // The data proper ends where the (padded) tail starts.
    let data = &src[..src.len() - tail_padded];
    let mut at = 1usize;
    let mut deltas = vec![0u8; block_max * stride];
    let mut base = 0usize;
    while base < count {
        let n = (count - base).min(block_max);
        let groups = n.div_ceil(16);
        let header_bytes = groups.div_ceil(4);
        let control_at = at;
        if version == 1 {
            at += stride / 4;
        }
        deltas.fill(0);
        for b in 0..stride {
            let lane = b * n;
            let control = if version == 0 {
                0
            } else {
                (byte(data, control_at + b / 4)? >> ((b & 3) * 2)) & 3
            };
            if control == 2 {
                continue;
            }
            if control == 3 {
                let raw = data.get(at..at + n).ok_or(TRUNCATED)?;
                deltas[lane..lane + n].copy_from_slice(raw);
                at += n;
                continue;
            }
            let header_at = at;
            at += header_bytes;
            for g in 0..groups {
                let m = (byte(data, header_at + g / 4)? >> ((g & 3) * 2)) & 3;
                let bits = match (version, control) {
                    (0, _) => [0, 2, 4, 8][m as usize],
                    (_, 0) => [0, 1, 2, 4][m as usize],
                    _ => [1, 2, 4, 8][m as usize],
                };
                // A group may run past the block's last element: decode into a scratch
                // group of 16 and keep what fits.
                let mut group = [0u8; 16];
                match bits {
                    0 => {}
                    8 => {
                        group.copy_from_slice(data.get(at..at + 16).ok_or(TRUNCATED)?);
                        at += 16;
                    }
                    _ => {
                        let head_len = 2 * bits; // 16 * bits / 8
                        let hb = data.get(at..at + head_len).ok_or(TRUNCATED)?;
                        at += head_len;
                        let per = 8 / bits;
                        let mask = (1u8 << bits) - 1;
                        for (k, slot) in group.iter_mut().enumerate() {
                            let v = if bits == 1 {
                                (hb[k / 8] >> (k & 7)) & 1
                            } else {
                                (hb[k / per] >> (8 - bits - (k % per) * bits)) & mask
                            };
                            *slot = if v == mask {
                                let x = byte(data, at)?;
                                at += 1;
                                x
                            } else {
                                v
                            };
                        }
                    }
                }
                let start = g * 16;
                let keep = (n - start).min(16);
                deltas[lane + start..lane + start + keep].copy_from_slice(&group[..keep]);
            }
        }
        for e in 0..n {
            let o = (base + e) * stride;
            for g in (0..stride).step_by(4) {
                let ch = if version == 0 { 0 } else { channels[g / 4] };
                let d = |b: usize| deltas[b * n + e] as u32;
                match ch & 3 {
                    0 => {
                        for b in g..g + 4 {
                            let v = last[b].wrapping_add(dezig(d(b)) as u8);
                            last[b] = v;
                            out[o + b] = v;
                        }
                    }
                    1 => {
                        for b in (g..g + 4).step_by(2) {
                            let delta = dezig(d(b) | d(b + 1) << 8);
                            let prev = last[b] as u32 | (last[b + 1] as u32) << 8;
                            let v = (prev.wrapping_add(delta) & 0xFFFF) as u16;
                            let [lo, hi] = v.to_le_bytes();
                            last[b] = lo;
                            last[b + 1] = hi;
                            out[o + b] = lo;
                            out[o + b + 1] = hi;
                        }
                    }
                    2 => {
                        let delta = d(g) | d(g + 1) << 8 | d(g + 2) << 16 | d(g + 3) << 24;
                        let prev =
                            u32::from_le_bytes([last[g], last[g + 1], last[g + 2], last[g + 3]]);
                        let v = prev ^ delta.rotate_right((ch >> 4) as u32);
                        let bytes = v.to_le_bytes();
                        last[g..g + 4].copy_from_slice(&bytes);
                        out[o + g..o + g + 4].copy_from_slice(&bytes);
                    }
                    _ => return Err("invalid channel mode 3".into()),
                }
            }
        }
        base += n;
    }
    if at != data.len() {
        return Err(TRUNCATED.into());
    }
    Ok(())
}

struct Fifo<const N: usize> {
    v: [u32; N],
    at: usize,
}

impl<const N: usize> Fifo<N> {
    fn new() -> Self {
        Fifo { v: [0; N], at: 0 }
    }
    fn get(&self, n: usize) -> u32 {
        self.v[(self.at + N - 1 - (n & (N - 1))) & (N - 1)]
    }
    fn push(&mut self, x: u32) {
        self.v[self.at] = x;
        self.at = (self.at + 1) & (N - 1);
    }
}

fn leb128(src: &[u8], at: &mut usize) -> Result<u32, String> {
    let mut n = 0u32;
    let mut shift = 0u32;
    loop {
        let b = byte(src, *at)?;
        *at += 1;
        if shift < 32 {
            n |= ((b & 0x7F) as u32) << shift;
        }
        if b < 0x80 {
            return Ok(n);
        }
        shift += 7;
        if shift > 35 {
            return Err(TRUNCATED.into());
        }
    }
}

/// The index codec (`TRIANGLES`).
fn decode_triangles(count: usize, src: &[u8]) -> Result<Vec<u32>, String> {
    let head = byte(src, 0)?;
    if head != 0xE1 {
        return Err(format!("unknown index codec header 0x{head:02X}"));
    }
    let tris = count / 3;
    if src.len() < 1 + tris + 16 {
        return Err(TRUNCATED.into());
    }
    let aux = &src[src.len() - 16..];
    let data = &src[..src.len() - 16];
    let mut at = 1 + tris;
    let (mut next, mut last) = (0u32, 0u32);
    let mut edges = Fifo::<32>::new();
    let mut verts = Fifo::<16>::new();
    let mut out = Vec::with_capacity(count);
    for code_at in 1..=tris {
        let code = data[code_at];
        let (b0, b1) = ((code >> 4) as usize, (code & 0xF) as usize);
        if b0 < 0xF {
            let a = edges.get(b0 * 2);
            let b = edges.get(b0 * 2 + 1);
            let c = match b1 {
                0 => {
                    let c = next;
                    next = next.wrapping_add(1);
                    verts.push(c);
                    c
                }
                1..=12 => verts.get(b1),
                13 => {
                    last = last.wrapping_sub(1);
                    verts.push(last);
                    last
                }
                14 => {
                    last = last.wrapping_add(1);
                    verts.push(last);
                    last
                }
                _ => {
                    last = last.wrapping_add(dezig(leb128(data, &mut at)?));
                    verts.push(last);
                    last
                }
            };
            edges.push(b);
            edges.push(c);
            edges.push(c);
            edges.push(a);
            out.extend_from_slice(&[a, b, c]);
        } else {
            let (a, b, c);
            if b1 < 0xE {
                let e = aux[b1];
                let (z, w) = ((e >> 4) as usize, (e & 0xF) as usize);
                a = next;
                next = next.wrapping_add(1);
                if z == 0 {
                    b = next;
                    next = next.wrapping_add(1);
                } else {
                    b = verts.get(z - 1);
                }
                if w == 0 {
                    c = next;
                    next = next.wrapping_add(1);
                } else {
                    c = verts.get(w - 1);
                }
                verts.push(a);
                if z == 0 {
                    verts.push(b);
                }
                if w == 0 {
                    verts.push(c);
                }
            } else {
                let e = byte(data, at)?;
                at += 1;
                if e == 0 {
                    next = 0;
                }
                let (z, w) = ((e >> 4) as usize, (e & 0xF) as usize);
                if b1 == 0xE {
                    a = next;
                    next = next.wrapping_add(1);
                } else {
                    last = last.wrapping_add(dezig(leb128(data, &mut at)?));
                    a = last;
                }
                if z == 0 {
                    b = next;
                    next = next.wrapping_add(1);
                } else if z == 0xF {
                    last = last.wrapping_add(dezig(leb128(data, &mut at)?));
                    b = last;
                } else {
                    b = verts.get(z - 1);
                }
                if w == 0 {
                    c = next;
                    next = next.wrapping_add(1);
                } else if w == 0xF {
                    last = last.wrapping_add(dezig(leb128(data, &mut at)?));
                    c = last;
                } else {
                    c = verts.get(w - 1);
                }
                verts.push(a);
                if z == 0 || z == 0xF {
                    verts.push(b);
                }
                if w == 0 || w == 0xF {
                    verts.push(c);
                }
            }
            edges.push(a);
            edges.push(b);
            edges.push(b);
            edges.push(c);
            edges.push(c);
            edges.push(a);
            out.extend_from_slice(&[a, b, c]);
        }
    }
    Ok(out)
}

/// The index sequence codec (`INDICES`).
fn decode_sequence(count: usize, src: &[u8]) -> Result<Vec<u32>, String> {
    let head = byte(src, 0)?;
    if head != 0xD1 {
        return Err(format!("unknown index sequence header 0x{head:02X}"));
    }
    // Each index takes at least one byte: a short stream cannot claim a huge count.
    if count > src.len() {
        return Err(TRUNCATED.into());
    }
    let mut at = 1usize;
    let mut last = [0u32; 2];
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let v = leb128(src, &mut at)?;
        let b = (v & 1) as usize;
        last[b] = last[b].wrapping_add(dezig(v >> 1));
        out.push(last[b]);
    }
    Ok(out)
}

fn i16_at(out: &[u8], k: usize) -> i16 {
    i16::from_le_bytes([out[k * 2], out[k * 2 + 1]])
}

fn set_i16(out: &mut [u8], k: usize, v: i16) {
    out[k * 2..k * 2 + 2].copy_from_slice(&v.to_le_bytes());
}

fn filter_oct(out: &mut [u8], stride: usize) -> Result<(), String> {
    type Get = fn(&[u8], usize) -> f32;
    type Set = fn(&mut [u8], usize, f32);
    let (get, set, max): (Get, Set, f32) = match stride {
        4 => (
            |o, k| o[k] as i8 as f32,
            |o, k, v| o[k] = v.round() as i8 as u8,
            127.0,
        ),
        8 => (
            |o, k| i16_at(o, k) as f32,
            |o, k, v| set_i16(o, k, v.round() as i16),
            32767.0,
        ),
        _ => {
            return Err(format!(
                "OCTAHEDRAL filter needs byteStride 4 or 8, not {stride}"
            ))
        }
    };
    let n = out.len() / stride;
    for e in 0..n {
        let k = e * 4;
        let one = get(out, k + 2);
        if one == 0.0 {
            continue;
        }
        let (mut x, mut y) = (get(out, k) / one, get(out, k + 1) / one);
        let z = 1.0 - x.abs() - y.abs();
        let t = (-z).max(0.0);
        x -= if x >= 0.0 { t } else { -t };
        y -= if y >= 0.0 { t } else { -t };
        let h = max / (x * x + y * y + z * z).sqrt();
        set(out, k, x * h);
        set(out, k + 1, y * h);
        set(out, k + 2, z * h);
    }
    Ok(())
}

fn filter_quat(out: &mut [u8], stride: usize) -> Result<(), String> {
    if stride != 8 {
        return Err(format!(
            "QUATERNION filter needs byteStride 8, not {stride}"
        ));
    }
    for e in 0..out.len() / 8 {
        let k = e * 4;
        let iw = i16_at(out, k + 3);
        let max = (iw & 3) as usize;
        let s = std::f32::consts::FRAC_1_SQRT_2 / (iw | 3) as f32;
        let x = i16_at(out, k) as f32 * s;
        let y = i16_at(out, k + 1) as f32 * s;
        let z = i16_at(out, k + 2) as f32 * s;
        let w = (1.0 - x * x - y * y - z * z).max(0.0).sqrt();
        let q = |v: f32| (v * 32767.0).round() as i16;
        set_i16(out, k + (max + 1) % 4, q(x));
        set_i16(out, k + (max + 2) % 4, q(y));
        set_i16(out, k + (max + 3) % 4, q(z));
        set_i16(out, k + max, q(w));
    }
    Ok(())
}

fn filter_exp(out: &mut [u8]) {
    for c in out.chunks_exact_mut(4) {
        let v = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let exp = v >> 24;
        let mantissa = (v << 8) >> 8;
        let scale = f32::from_bits(((exp + 127).clamp(0, 255) as u32) << 23);
        c.copy_from_slice(&(scale * mantissa as f32).to_le_bytes());
    }
}

fn filter_color(out: &mut [u8], stride: usize) -> Result<(), String> {
    let wide = match stride {
        4 => false,
        8 => true,
        _ => {
            return Err(format!(
                "COLOR filter needs byteStride 4 or 8, not {stride}"
            ))
        }
    };
    let max_int = ((1u32 << (stride * 2)) - 1) as f32;
    for e in 0..out.len() / stride {
        let k = e * 4;
        let (y, co, cg, ai) = if wide {
            (
                i16_at(out, k) as u16 as f32,
                i16_at(out, k + 1) as f32,
                i16_at(out, k + 2) as f32,
                i16_at(out, k + 3) as u16 as u32,
            )
        } else {
            (
                out[k] as f32,
                out[k + 1] as i8 as f32,
                out[k + 2] as i8 as f32,
                out[k + 3] as u32,
            )
        };
        let bit = 31 - ai.max(1).leading_zeros();
        let as_ = (1u32 << (bit + 1)) - 1;
        let mut a = ai & (as_ >> 1);
        a = (a << 1) | (a & 1);
        let ss = max_int / as_ as f32;
        let vals = [
            (y + co - cg) * ss,
            (y + cg) * ss,
            (y - co - cg) * ss,
            a as f32 * ss,
        ];
        for (c, v) in vals.iter().enumerate() {
            let v = v.round().clamp(0.0, max_int);
            if wide {
                set_i16(out, k + c, v as u16 as i16);
            } else {
                out[k + c] = v as u8;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_sequence_decodes_zigzag_deltas() {
        // 0xD1, then per index LEB128 of (zigzag(delta) << 1 | baseline).
        // indices 5, 6, 4: deltas +5, +1, -2 against baseline 0.
        let enc = |d: i32| (((d << 1) ^ (d >> 31)) as u32) << 1;
        let src = [0xD1, enc(5) as u8, enc(1) as u8, enc(-2) as u8, 0, 0, 0, 0];
        let out = decode(&src, 3, 4, "INDICES", "NONE").unwrap();
        let v: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(v, [5, 6, 4]);
    }

    #[test]
    fn vertex_codec_v0_with_verbatim_and_zero_groups() {
        // 2 elements of 4 bytes: [1,2,3,4] then [3,2,3,4]. Tail (baseline) = zeros.
        // Lane deltas (zigzag): lane0: 1->2, 2->4 ; lane1: 2->4, 0 ; lane2: 3->6, 0;
        // lane3: 4->8, 0. Each lane: one group, header mode 3 (verbatim 16 bytes).
        let mut src = vec![0xA0];
        for first in [2u8, 4, 6, 8] {
            src.push(0b11); // header: group 0 in mode 3
            let mut g = [0u8; 16];
            g[0] = first;
            if first == 2 {
                g[1] = 4;
            }
            src.extend_from_slice(&g);
        }
        src.extend_from_slice(&[0u8; 28]); // padding to 32 bytes of tail
        src.extend_from_slice(&[0u8; 4]); // the tail: baseline element
        let out = decode(&src, 2, 4, "ATTRIBUTES", "NONE").unwrap();
        assert_eq!(out, [1, 2, 3, 4, 3, 2, 3, 4]);
    }

    #[test]
    fn truncated_stream_is_an_error() {
        assert!(decode(&[0xA0, 1, 2], 10, 4, "ATTRIBUTES", "NONE").is_err());
        assert!(decode(&[0xE1], 3, 4, "TRIANGLES", "NONE").is_err());
        assert!(decode(&[0xD1, 0x80], 1, 4, "INDICES", "NONE").is_err());
    }

    #[test]
    fn exponential_filter_scales_mantissa() {
        // exponent -2, mantissa 3 -> 0.75
        let v: i32 = (-2i32 << 24) | 3;
        let mut b = v.to_le_bytes().to_vec();
        filter_exp(&mut b);
        assert_eq!(f32::from_le_bytes([b[0], b[1], b[2], b[3]]), 0.75);
    }
}
