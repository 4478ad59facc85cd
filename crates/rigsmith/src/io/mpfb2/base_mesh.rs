//! The HM08 base mesh (`3dobjs/base.obj`) and its vertex groups
//! (`mesh_metadata/basemesh_vertex_groups.json`, `mesh_metadata/hm08.mirror`).
//!
//! The OBJ is read with a small dedicated parser (only `v` and `f` lines matter):
//! polygons are split into triangles as a fan from their first corner, texture and
//! normal indices are ignored. Positions stay in OBJ units (decimetres, Y up, facing +Z).

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec3;

use crate::error::{Error, Result};

/// The base mesh in OBJ units.
///
/// * `positions`: n x 3 (19,158 for HM08), decimetres.
/// * `triangles`: m x 3 indices into `positions` (quads split into two).
#[derive(Debug, Clone)]
pub(crate) struct BaseMesh {
    pub positions: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
}

fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}

/// Reads the `v` and `f` records of an OBJ file.
pub(crate) fn read_obj(path: &Path) -> Result<BaseMesh> {
    let text = read_text(path)?;
    let mut positions = Vec::new();
    let mut polys: Vec<(usize, Vec<i64>)> = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        let mut it = line.split_ascii_whitespace();
        match it.next() {
            Some("v") => {
                let mut c = [0f32; 3];
                for k in &mut c {
                    let s = it.next().ok_or_else(|| {
                        Error::format(
                            path,
                            format!("line {}", ln + 1),
                            "vertex with fewer than 3 coordinates",
                        )
                    })?;
                    *k = s.parse::<f32>().map_err(|_| {
                        Error::format(
                            path,
                            format!("line {}", ln + 1),
                            format!("bad coordinate {s:?}"),
                        )
                    })?;
                }
                let p = Vec3::from(c);
                if !p.is_finite() {
                    return Err(Error::format(
                        path,
                        format!("line {}", ln + 1),
                        "non-finite vertex",
                    ));
                }
                positions.push(p);
            }
            Some("f") => {
                let mut idx = Vec::with_capacity(4);
                for tok in it {
                    let first = tok.split('/').next().unwrap_or("");
                    let i: i64 = first.parse().map_err(|_| {
                        Error::format(
                            path,
                            format!("line {}", ln + 1),
                            format!("bad face index {tok:?}"),
                        )
                    })?;
                    idx.push(i);
                }
                if idx.len() < 3 {
                    return Err(Error::format(
                        path,
                        format!("line {}", ln + 1),
                        "face with fewer than 3 corners",
                    ));
                }
                polys.push((ln + 1, idx));
            }
            _ => {}
        }
    }
    let n = positions.len() as i64;
    let mut triangles = Vec::with_capacity(polys.len() * 2);
    for (ln, idx) in polys {
        let mut res = Vec::with_capacity(idx.len());
        for i in idx {
            // OBJ indices are 1-based; negative ones count back from the last vertex.
            let r = if i > 0 { i - 1 } else { n + i };
            if r < 0 || r >= n {
                return Err(Error::format(
                    path,
                    format!("line {ln}"),
                    format!("face index {i} out of range (1..={n})"),
                ));
            }
            res.push(r as u32);
        }
        for k in 1..res.len() - 1 {
            triangles.push([res[0], res[k], res[k + 1]]);
        }
    }
    if positions.is_empty() {
        return Err(Error::format(path, "", "no vertices"));
    }
    Ok(BaseMesh {
        positions,
        triangles,
    })
}

/// Reads `basemesh_vertex_groups.json`: `{group: [[first, last], ...]}` with inclusive
/// ranges, each checked against `vertex_count`.
pub(crate) fn read_groups(
    path: &Path,
    vertex_count: usize,
) -> Result<BTreeMap<String, Vec<(u32, u32)>>> {
    let text = read_text(path)?;
    let raw: BTreeMap<String, Vec<[u64; 2]>> = serde_json::from_str(&text).map_err(|e| {
        Error::format(
            path,
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    let mut out = BTreeMap::new();
    for (name, ranges) in raw {
        let mut v = Vec::with_capacity(ranges.len());
        for (k, [a, b]) in ranges.into_iter().enumerate() {
            if a > b || b as usize >= vertex_count {
                return Err(Error::format(
                    path,
                    format!("{name}[{k}]"),
                    format!("range [{a}, {b}] is not inside 0..{vertex_count}"),
                ));
            }
            v.push((a as u32, b as u32));
        }
        out.insert(name, v);
    }
    Ok(out)
}

/// Reads `hm08.mirror` (`vertex mirror_vertex side` per line) into a per-vertex map
/// (vertices without a line map to themselves).
pub(crate) fn read_mirror(path: &Path, vertex_count: usize) -> Result<Vec<u32>> {
    let text = read_text(path)?;
    let mut m: Vec<u32> = (0..vertex_count as u32).collect();
    for (ln, line) in text.lines().enumerate() {
        let mut it = line.split_ascii_whitespace();
        let (Some(a), Some(b)) = (it.next(), it.next()) else {
            continue;
        };
        let parse = |s: &str| -> Result<usize> {
            let v: usize = s.parse().map_err(|_| {
                Error::format(
                    path,
                    format!("line {}", ln + 1),
                    format!("bad vertex index {s:?}"),
                )
            })?;
            if v >= vertex_count {
                return Err(Error::format(
                    path,
                    format!("line {}", ln + 1),
                    format!("vertex {v} out of range (mesh has {vertex_count})"),
                ));
            }
            Ok(v)
        };
        let (a, b) = (parse(a)?, parse(b)?);
        m[a] = b as u32;
    }
    Ok(m)
}

/// Expands inclusive ranges into a sorted, deduplicated vertex list.
pub(crate) fn expand(ranges: &[(u32, u32)]) -> Vec<u32> {
    let mut v: Vec<u32> = ranges.iter().flat_map(|&(a, b)| a..=b).collect();
    v.sort_unstable();
    v.dedup();
    v
}
