//! Body-shape targets and the named body variants.
//!
//! A target (`targets/**/*.target.gz`) is gzipped text, one line per moved vertex:
//! `vertex dx dy dz` in OBJ units (decimetres). A body is the base mesh plus the sum of
//! `weight x target` over a list of targets. MakeHuman's macro targets split the shape
//! into a race-gender-age part (`caucasian-female-young`, ...; the three races mixed
//! one third each give a neutral ethnicity) and a muscle/weight part
//! (`universal-GENDER-AGE-MUSCLE-WEIGHT`; the `averagemuscle-averageweight` ones are
//! empty). The named [`VARIANTS`] below are such lists.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use glam::Vec3;

use crate::error::{Error, Result};

/// A named body variant: a list of `(target path relative to targets/, weight)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Variant {
    /// Short name (`female`, `baby`, ...).
    pub name: &'static str,
    /// One line describing the body.
    pub description: &'static str,
    /// Targets and weights added to the base mesh.
    pub targets: &'static [(&'static str, f32)],
}

const T: f32 = 1.0 / 3.0;

/// The named variants: adults of both sexes, heavy, thin, muscular, tall, short, old,
/// child and baby. `base` is the base mesh alone (a neutral adult about 1.67 m tall).
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "base",
        description: "the base mesh alone: a neutral young adult",
        targets: &[],
    },
    Variant {
        name: "female",
        description: "young adult woman, average muscle and weight",
        targets: &[
            ("macrodetails/african-female-young.target.gz", T),
            ("macrodetails/asian-female-young.target.gz", T),
            ("macrodetails/caucasian-female-young.target.gz", T),
        ],
    },
    Variant {
        name: "male",
        description: "young adult man, average muscle and weight",
        targets: &[
            ("macrodetails/african-male-young.target.gz", T),
            ("macrodetails/asian-male-young.target.gz", T),
            ("macrodetails/caucasian-male-young.target.gz", T),
        ],
    },
    Variant {
        name: "heavy",
        description: "young adult man at maximum weight",
        targets: &[
            ("macrodetails/african-male-young.target.gz", T),
            ("macrodetails/asian-male-young.target.gz", T),
            ("macrodetails/caucasian-male-young.target.gz", T),
            (
                "macrodetails/universal-male-young-averagemuscle-maxweight.target.gz",
                1.0,
            ),
        ],
    },
    Variant {
        name: "heavy_female",
        description: "young adult woman at maximum weight",
        targets: &[
            ("macrodetails/african-female-young.target.gz", T),
            ("macrodetails/asian-female-young.target.gz", T),
            ("macrodetails/caucasian-female-young.target.gz", T),
            (
                "macrodetails/universal-female-young-averagemuscle-maxweight.target.gz",
                1.0,
            ),
        ],
    },
    Variant {
        name: "thin",
        description: "young adult woman at minimum weight",
        targets: &[
            ("macrodetails/african-female-young.target.gz", T),
            ("macrodetails/asian-female-young.target.gz", T),
            ("macrodetails/caucasian-female-young.target.gz", T),
            (
                "macrodetails/universal-female-young-averagemuscle-minweight.target.gz",
                1.0,
            ),
        ],
    },
    Variant {
        name: "muscular",
        description: "young adult man at maximum muscle",
        targets: &[
            ("macrodetails/african-male-young.target.gz", T),
            ("macrodetails/asian-male-young.target.gz", T),
            ("macrodetails/caucasian-male-young.target.gz", T),
            (
                "macrodetails/universal-male-young-maxmuscle-averageweight.target.gz",
                1.0,
            ),
        ],
    },
    Variant {
        name: "tall",
        description: "tall young adult man (about 2.0 m)",
        targets: &[
            ("macrodetails/african-male-young.target.gz", T),
            ("macrodetails/asian-male-young.target.gz", T),
            ("macrodetails/caucasian-male-young.target.gz", T),
            (
                "macrodetails/height/male-young-averagemuscle-averageweight-maxheight.target.gz",
                0.4,
            ),
        ],
    },
    Variant {
        name: "short",
        description: "short young adult woman (about 1.4 m)",
        targets: &[
            ("macrodetails/african-female-young.target.gz", T),
            ("macrodetails/asian-female-young.target.gz", T),
            ("macrodetails/caucasian-female-young.target.gz", T),
            (
                "macrodetails/height/female-young-averagemuscle-averageweight-minheight.target.gz",
                0.5,
            ),
        ],
    },
    Variant {
        name: "old",
        description: "old man, average muscle and weight",
        targets: &[
            ("macrodetails/african-male-old.target.gz", T),
            ("macrodetails/asian-male-old.target.gz", T),
            ("macrodetails/caucasian-male-old.target.gz", T),
        ],
    },
    Variant {
        name: "old_female",
        description: "old woman, average muscle and weight",
        targets: &[
            ("macrodetails/african-female-old.target.gz", T),
            ("macrodetails/asian-female-old.target.gz", T),
            ("macrodetails/caucasian-female-old.target.gz", T),
        ],
    },
    Variant {
        name: "child",
        description: "child (girl), about 11 years",
        targets: &[
            ("macrodetails/african-female-child.target.gz", T),
            ("macrodetails/asian-female-child.target.gz", T),
            ("macrodetails/caucasian-female-child.target.gz", T),
        ],
    },
    Variant {
        name: "child_male",
        description: "child (boy), about 11 years",
        targets: &[
            ("macrodetails/african-male-child.target.gz", T),
            ("macrodetails/asian-male-child.target.gz", T),
            ("macrodetails/caucasian-male-child.target.gz", T),
        ],
    },
    Variant {
        name: "baby",
        description: "baby, about one year (about 0.6 m)",
        targets: &[
            ("macrodetails/african-male-baby.target.gz", T),
            ("macrodetails/asian-male-baby.target.gz", T),
            ("macrodetails/caucasian-male-baby.target.gz", T),
        ],
    },
];

/// The named variant, if any (see [`VARIANTS`]).
pub fn variant(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

/// Largest decompressed target accepted (the biggest shipped target is under 1 MB).
const MAX_TARGET_BYTES: u64 = 64 << 20;

/// Resolves a target path relative to `targets_dir`, refusing absolute paths and `..`.
pub(crate) fn resolve(targets_dir: &Path, rel: &str) -> Result<PathBuf> {
    let rel = rel.strip_prefix("targets/").unwrap_or(rel);
    let p = Path::new(rel);
    if p.components().any(|c| !matches!(c, Component::Normal(_))) || rel.is_empty() {
        return Err(Error::format(
            p,
            "",
            "a target path must be relative to the corpus targets/ folder (no `..`, not absolute)",
        ));
    }
    Ok(targets_dir.join(p))
}

/// Reads a gzipped target: `(vertex, delta)` pairs, deltas in OBJ units, each vertex
/// checked against `vertex_count`.
pub(crate) fn read_target(path: &Path, vertex_count: usize) -> Result<Vec<(u32, Vec3)>> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(f)
        .take(MAX_TARGET_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| Error::format(path, "", format!("not a gzipped text target: {e}")))?;
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("line {}", ln + 1);
        let f: Vec<&str> = line.split_ascii_whitespace().collect();
        if f.len() != 4 {
            return Err(Error::format(path, at(), "expected `vertex dx dy dz`"));
        }
        let v: usize = f[0]
            .parse()
            .map_err(|_| Error::format(path, at(), format!("bad vertex index {:?}", f[0])))?;
        if v >= vertex_count {
            return Err(Error::format(
                path,
                at(),
                format!("vertex {v} out of range (base mesh has {vertex_count})"),
            ));
        }
        let mut d = [0f32; 3];
        for k in 0..3 {
            d[k] = f[k + 1]
                .parse()
                .map_err(|_| Error::format(path, at(), format!("bad offset {:?}", f[k + 1])))?;
        }
        let d = Vec3::from(d);
        if !d.is_finite() {
            return Err(Error::format(path, at(), "non-finite offset"));
        }
        out.push((v as u32, d));
    }
    Ok(out)
}
