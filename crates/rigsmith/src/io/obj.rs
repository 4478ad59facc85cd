//! Wavefront OBJ reading: each object/group and material run becomes a part.
//!
//! Faces are triangulated (fans). Within a part, vertices are numbered in order of
//! first use by its faces, and positions are never split at UV seams (rigging needs a
//! connected surface), so UVs and normals are kept only when the file indexes them
//! like the positions; otherwise they are dropped with a warning. Part names are the
//! object/group names (`part{i}` when unnamed; `.N` appended to repeats); materials are
//! named from the `.mtl` library (a missing library is a warning). OBJ has no
//! skeleton: the character is unrigged.

use std::path::Path;

use glam::{Vec2, Vec3};

use crate::error::{Error, Result};
use crate::model::{Character, Mesh, Part};

/// Reads an `.obj` file (and its `.mtl`, if present) into an unrigged character.
pub fn read_obj(path: &Path) -> Result<Character> {
    if !path.exists() {
        return Err(Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::NotFound, "file not found"),
        ));
    }
    let opts = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, mats) = tobj::load_obj(path, &opts)
        .map_err(|e| Error::format(path, "", format!("not a readable OBJ file: {e}")))?;
    let mut warnings = Vec::new();
    let materials = match mats {
        Ok(m) => m,
        Err(e) => {
            warnings.push(format!("material library not loaded: {e}"));
            Vec::new()
        }
    };
    let file_order = vertex_file_order(path);
    let mut parts: Vec<Part> = Vec::new();
    for (i, model) in models.iter().enumerate() {
        let m = &model.mesh;
        let at = format!("object {:?}", model.name);
        let positions: Vec<Vec3> = m.positions.chunks_exact(3).map(Vec3::from_slice).collect();
        if let Some(k) = positions.iter().position(|p| !p.is_finite()) {
            return Err(Error::format(
                path,
                at,
                format!("vertex {k} has a non-finite position"),
            ));
        }
        let nv = positions.len() as u32;
        if let Some(&bad) = m.indices.iter().find(|&&x| x >= nv) {
            return Err(Error::format(
                path,
                at,
                format!("index {bad} is out of range ({nv} vertices)"),
            ));
        }
        let triangles: Vec<[u32; 3]> = m
            .indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        if triangles.is_empty() {
            warnings.push(format!("{at}: no faces, skipped"));
            continue;
        }
        let aligned = |idx: &[u32], len: usize, comps: usize| {
            len == positions.len() * comps && (idx.is_empty() || idx == m.indices.as_slice())
        };
        let uvs = if !m.texcoords.is_empty() && aligned(&m.texcoord_indices, m.texcoords.len(), 2) {
            Some(m.texcoords.chunks_exact(2).map(Vec2::from_slice).collect())
        } else {
            if !m.texcoords.is_empty() {
                warnings.push(format!(
                    "{at}: UVs are indexed apart from positions; dropped"
                ));
            }
            None
        };
        let normals = if !m.normals.is_empty() && aligned(&m.normal_indices, m.normals.len(), 3) {
            Some(
                m.normals
                    .chunks_exact(3)
                    .map(|n| Vec3::from_slice(n).normalize_or_zero())
                    .collect(),
            )
        } else {
            None
        };
        let material = m.material_id.map(|id| {
            materials
                .get(id)
                .map(|mt| mt.name.clone())
                .unwrap_or_else(|| format!("material{id}"))
        });
        let base = if model.name.is_empty() {
            format!("part{i}")
        } else {
            model.name.clone()
        };
        let mut name = base.clone();
        let mut k = 1;
        while parts.iter().any(|p| p.name == name) {
            name = format!("{base}.{k}");
            k += 1;
        }
        let mut mesh = Mesh {
            positions,
            triangles,
            normals,
            uvs,
        };
        mesh.repair_attributes_noting(&at, &at, &mut warnings);
        if let Some(order) = &file_order {
            to_file_order(&mut mesh, order);
        }
        parts.push(Part {
            name,
            material,
            mesh,
            weights: None,
            morphs: Vec::new(),
        });
    }
    if parts.is_empty() {
        return Err(Error::format(
            path,
            "",
            "no triangles: the file has no faces to rig",
        ));
    }
    Ok(Character {
        parts,
        skeleton: None,
        vrm: None,
        warnings,
        ..Default::default()
    })
}

/// Key of a position for matching it with the file's `v` lines.
fn key(p: Vec3) -> [u32; 3] {
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

/// For every `v` line's position, the index of its first occurrence in the file (parsed
/// both straight to `f32` and through `f64`, so either rounding matches). `None` when
/// the file cannot be read again (the part then keeps the reader's order).
fn vertex_file_order(path: &Path) -> Option<std::collections::HashMap<[u32; 3], u32>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut map = std::collections::HashMap::new();
    let mut n = 0u32;
    for line in text.lines() {
        let mut it = line.split_whitespace();
        if it.next() != Some("v") {
            continue;
        }
        let f: Vec<&str> = it.take(3).collect();
        if f.len() == 3 {
            let a = f
                .iter()
                .map(|t| t.parse::<f32>().unwrap_or(f32::NAN))
                .collect::<Vec<_>>();
            let b = f
                .iter()
                .map(|t| t.parse::<f64>().unwrap_or(f64::NAN) as f32)
                .collect::<Vec<_>>();
            map.entry(key(Vec3::new(a[0], a[1], a[2]))).or_insert(n);
            map.entry(key(Vec3::new(b[0], b[1], b[2]))).or_insert(n);
        }
        n += 1;
    }
    Some(map)
}

/// Puts a part's vertices in the order their `v` lines have in the file (the reader
/// numbers them by first use in a face), so vertex order is preserved from input to
/// output. Vertices not found keep their relative order, after the others.
fn to_file_order(mesh: &mut Mesh, order: &std::collections::HashMap<[u32; 3], u32>) {
    let n = mesh.positions.len();
    let keys: Vec<u32> = mesh
        .positions
        .iter()
        .map(|p| order.get(&key(*p)).copied().unwrap_or(u32::MAX))
        .collect();
    let mut perm: Vec<usize> = (0..n).collect();
    perm.sort_by_key(|&i| keys[i]); // stable: ties keep the reader's order
    if perm.iter().enumerate().all(|(a, &b)| a == b) {
        return;
    }
    let mut new_index = vec![0u32; n];
    for (new, &old) in perm.iter().enumerate() {
        new_index[old] = new as u32;
    }
    mesh.positions = perm.iter().map(|&i| mesh.positions[i]).collect();
    if let Some(nr) = &mesh.normals {
        mesh.normals = Some(perm.iter().map(|&i| nr[i]).collect());
    }
    if let Some(uv) = &mesh.uvs {
        mesh.uvs = Some(perm.iter().map(|&i| uv[i]).collect());
    }
    for t in &mut mesh.triangles {
        *t = t.map(|i| new_index[i as usize]);
    }
}
