//! Artist skin weights (`rigs/*/weights.NAME.json`) and their transfer to helper parts.
//!
//! The file is `{"weights": {bone: [[vertex, weight], ...]}}` on the base-mesh topology,
//! valid for every body variant. Every influence is kept (up to 6 a body vertex on
//! `game_engine`), then each vertex is normalized and sorted by decreasing weight.
//!
//! Helper parts (tights, skirt, hair, eyelashes, teeth, tongue) take their own artist
//! weights, which the file holds for every helper vertex; [`transfer`] (the nearest
//! body vertex's weights, on the same body variant) covers a file that leaves a helper
//! vertex out. Rigid parts (the eyes) are weighted 1.0 to the head bone.

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec3;
use rayon::prelude::*;
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::model::{Influence, Weights};

#[derive(Deserialize)]
struct File {
    weights: BTreeMap<String, Vec<(f64, f64)>>,
}

/// Per bone name, its `(vertex, weight)` list, checked against `vertex_count`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ArtistWeights {
    pub by_bone: BTreeMap<String, Vec<(u32, f32)>>,
}

/// Reads an artist weights file.
pub(crate) fn read_weights(path: &Path, vertex_count: usize) -> Result<ArtistWeights> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let f: File = serde_json::from_str(&text).map_err(|e| {
        Error::format(
            path,
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    let mut by_bone = BTreeMap::new();
    for (bone, list) in f.weights {
        let mut out = Vec::with_capacity(list.len());
        for (k, (v, w)) in list.into_iter().enumerate() {
            let at = format!("weights.{bone}[{k}]");
            if !(v >= 0.0 && v.fract() == 0.0 && (v as usize) < vertex_count) {
                return Err(Error::format(
                    path,
                    at,
                    format!("vertex {v} is not an index below {vertex_count}"),
                ));
            }
            if !w.is_finite() || w < 0.0 {
                return Err(Error::format(
                    path,
                    at,
                    format!("weight {w} is not a finite non-negative number"),
                ));
            }
            out.push((v as u32, w as f32));
        }
        by_bone.insert(bone, out);
    }
    Ok(ArtistWeights { by_bone })
}

impl ArtistWeights {
    /// Weights of the vertices `verts` (global indices, in part order) on a skeleton
    /// whose bone indices are given by `bone_index`; bones missing from the skeleton are
    /// an error (the files and rigs ship in pairs).
    pub(crate) fn for_vertices(
        &self,
        verts: &[u32],
        vertex_count: usize,
        bone_index: &dyn Fn(&str) -> Option<usize>,
        rig: &str,
    ) -> Result<Weights> {
        let mut local = vec![u32::MAX; vertex_count];
        for (i, &v) in verts.iter().enumerate() {
            local[v as usize] = i as u32;
        }
        let mut w = Weights::empty(verts.len());
        for (bone, list) in &self.by_bone {
            let b = bone_index(bone).ok_or_else(|| {
                Error::invalid(
                    format!("weights of rig {rig:?}"),
                    format!("bone {bone:?} is not in the rig"),
                )
            })? as u32;
            for &(v, x) in list {
                let l = local[v as usize];
                if l != u32::MAX && x > 0.0 {
                    w.add(l as usize, b, x);
                }
            }
        }
        w.normalize();
        w.sort();
        Ok(w)
    }
}

/// For each point of `query`, the index of the nearest point of `source` (ties to the
/// lower index). Brute force in parallel; deterministic.
pub(crate) fn nearest(source: &[Vec3], query: &[Vec3]) -> Vec<u32> {
    query
        .par_iter()
        .map(|q| {
            let mut best = (f32::INFINITY, 0u32);
            for (i, s) in source.iter().enumerate() {
                let d = s.distance_squared(*q);
                if d < best.0 {
                    best = (d, i as u32);
                }
            }
            best.1
        })
        .collect()
}

/// Copies the influences of the nearest body vertex to every point of `part_pos` (the
/// helper vertices the artist's file leaves out).
pub(crate) fn transfer(body: &Weights, body_pos: &[Vec3], part_pos: &[Vec3]) -> Weights {
    let nn = nearest(body_pos, part_pos);
    Weights {
        vertices: nn
            .into_iter()
            .map(|i| body.vertices[i as usize].clone())
            .collect::<Vec<Vec<Influence>>>(),
    }
}
