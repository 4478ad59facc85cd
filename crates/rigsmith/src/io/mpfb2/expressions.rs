//! MakeHuman's expression units (`targets/expression/units/ETHNICITY/*.target.gz`, 34
//! per ethnicity: eye closure left and right, brows, mouth open, corner puller,
//! pursing...) as morph targets on the parts of a built character, named as the
//! unit's file without `.target.gz` (`eye-left-closure`). They are what the face's
//! recipes combine into expressions ([`crate::face::expressions`]).

use std::path::Path;

use glam::Vec3;

use super::{targets, Corpus};
use crate::error::{Error, Result};
use crate::model::{Character, MorphTarget};

/// The ethnicities with expression units.
pub const ETHNICITIES: [&str; 3] = ["african", "asian", "caucasian"];

/// One unit: its name and its `(vertex, offset)` pairs (OBJ units).
pub type Unit = (String, Vec<(u32, Vec3)>);

/// Reads every unit of a folder as offsets over `vertex_count` vertices (OBJ units),
/// sorted by name. A unit naming a vertex beyond `vertex_count` is refused, naming
/// the file.
pub fn read_units(dir: &Path, vertex_count: usize) -> Result<Vec<Unit>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut files: Vec<std::path::PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".target.gz"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::format(
            dir,
            "",
            "no *.target.gz expression units here",
        ));
    }
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let name = f
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .trim_end_matches(".target.gz")
                    .to_string()
            })
            .unwrap_or_default();
        out.push((name, targets::read_target(&f, vertex_count)?));
    }
    Ok(out)
}

impl Corpus {
    /// Adds the expression units of `ethnicity` ([`ETHNICITIES`]) as morph targets to
    /// every part of `c` built from this corpus (parts named as in
    /// [`super::PARTS`]) that a unit moves; `scale` is the build's scale. Returns the
    /// number of units read.
    pub fn add_expression_units(
        &self,
        c: &mut Character,
        ethnicity: &str,
        scale: f32,
    ) -> Result<usize> {
        if !ETHNICITIES.contains(&ethnicity) {
            return Err(Error::invalid(
                "expression units",
                format!(
                    "unknown ethnicity {ethnicity:?} (known: {})",
                    ETHNICITIES.join(", ")
                ),
            ));
        }
        let dir = self.dir().join("targets/expression/units").join(ethnicity);
        let n = self.base_positions_obj().len();
        let units = read_units(&dir, n)?;
        let s = 0.1 * scale;
        for p in &mut c.parts {
            let Ok(verts) = self.part_vertices(&p.name) else {
                continue;
            };
            if verts.len() != p.mesh.positions.len() {
                continue;
            }
            let mut local = vec![u32::MAX; n];
            for (i, &v) in verts.iter().enumerate() {
                local[v as usize] = i as u32;
            }
            for (name, d) in &units {
                let mut deltas = vec![Vec3::ZERO; verts.len()];
                let mut any = false;
                for (v, dv) in d {
                    let l = local[*v as usize];
                    if l != u32::MAX {
                        deltas[l as usize] = *dv * s;
                        any = true;
                    }
                }
                if any {
                    p.morphs.push(MorphTarget {
                        name: name.clone(),
                        position_deltas: deltas,
                        normal_deltas: None,
                    });
                }
            }
        }
        Ok(units.len())
    }
}
