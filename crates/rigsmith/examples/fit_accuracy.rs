//! Fitting accuracy against the MakeHuman `game_engine` skeleton.
//!
//! For each body variant (the base mesh plus macro targets), fits the `game` template to
//! the unrigged body and compares every bone's head (its joint) with the artist
//! skeleton, whose joints come from the corpus' joint cubes (they follow the body
//! shape). Errors are printed in % of body height, per variant and per joint, as a
//! Markdown table.
//!
//! ```text
//! cargo run --release --example fit_accuracy [-- CORPUS_DIR]
//! ```

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use glam::Vec3;
use rigsmith::{Character, Mesh, Part, Skeleton};

/// A body variant: macro targets and their weights on top of the base mesh.
pub struct Variant {
    /// Short name.
    pub name: &'static str,
    /// `(target file under targets/macrodetails, weight)`.
    pub targets: &'static [(&'static str, f32)],
}

/// The body variants measured.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "base",
        targets: &[],
    },
    Variant {
        name: "male",
        targets: &[("caucasian-male-young", 1.0)],
    },
    Variant {
        name: "female",
        targets: &[("caucasian-female-young", 1.0)],
    },
    Variant {
        name: "male-heavy",
        targets: &[
            ("caucasian-male-young", 1.0),
            ("universal-male-young-averagemuscle-maxweight", 1.0),
        ],
    },
    Variant {
        name: "female-heavy",
        targets: &[
            ("african-female-young", 1.0),
            ("universal-female-young-minmuscle-maxweight", 1.0),
        ],
    },
    Variant {
        name: "male-muscular",
        targets: &[
            ("asian-male-young", 1.0),
            ("universal-male-young-maxmuscle-minweight", 1.0),
        ],
    },
    Variant {
        name: "female-thin",
        targets: &[
            ("asian-female-young", 1.0),
            ("universal-female-young-minmuscle-minweight", 1.0),
        ],
    },
    Variant {
        name: "male-old",
        targets: &[
            ("african-male-old", 1.0),
            ("universal-male-old-averagemuscle-averageweight", 1.0),
        ],
    },
    Variant {
        name: "child",
        targets: &[
            ("caucasian-male-child", 1.0),
            ("universal-male-child-averagemuscle-averageweight", 1.0),
        ],
    },
    Variant {
        name: "baby",
        targets: &[
            ("caucasian-female-baby", 1.0),
            ("universal-female-baby-averagemuscle-averageweight", 1.0),
        ],
    },
];

/// The base mesh: all positions (OBJ units), body triangles and OBJ groups' vertices.
pub struct Base {
    /// Every vertex of base.obj (decimetres).
    pub positions: Vec<Vec3>,
    /// Triangles of the `body` group (quads split), global vertex indices.
    pub body_triangles: Vec<[u32; 3]>,
    /// Vertices used by each group's faces.
    pub groups: BTreeMap<String, Vec<u32>>,
}

/// Reads `3dobjs/base.obj` of the corpus.
pub fn read_base(dir: &Path) -> Base {
    let text = std::fs::read_to_string(dir.join("3dobjs/base.obj")).expect("base.obj");
    let mut positions = Vec::new();
    let mut body_triangles = Vec::new();
    let mut groups: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut group = String::new();
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let v: Vec<f32> = it.take(3).map(|s| s.parse().unwrap()).collect();
                positions.push(Vec3::new(v[0], v[1], v[2]));
            }
            Some("g") => group = it.next().unwrap_or("").to_string(),
            Some("f") => {
                let idx: Vec<u32> = it
                    .map(|s| s.split('/').next().unwrap().parse::<u32>().unwrap() - 1)
                    .collect();
                let g = groups.entry(group.clone()).or_default();
                g.extend(idx.iter().copied());
                if group == "body" {
                    for k in 1..idx.len() - 1 {
                        body_triangles.push([idx[0], idx[k], idx[k + 1]]);
                    }
                }
            }
            _ => {}
        }
    }
    for g in groups.values_mut() {
        g.sort_unstable();
        g.dedup();
    }
    Base {
        positions,
        body_triangles,
        groups,
    }
}

/// Reads a gzipped target: `(vertex, delta)` lines.
pub fn read_target(dir: &Path, name: &str) -> Vec<(usize, Vec3)> {
    let path = dir.join(format!("targets/macrodetails/{name}.target.gz"));
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut s = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut s)
        .unwrap();
    s.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            let p = |i: usize| v[i].parse::<f32>().unwrap();
            (v[0].parse().unwrap(), Vec3::new(p(1), p(2), p(3)))
        })
        .collect()
}

/// A variant's unrigged body (part `body`, metres, feet at y = 0) and the ground-truth
/// `game_engine` bones `name -> (head, tail)` in the same space.
pub fn load(dir: &Path, base: &Base, v: &Variant) -> (Character, BTreeMap<String, (Vec3, Vec3)>) {
    let mut pos = base.positions.clone();
    for (t, w) in v.targets {
        for (i, d) in read_target(dir, t) {
            if i < pos.len() {
                pos[i] += *w * d;
            }
        }
    }
    let body = &base.groups["body"];
    let floor = body
        .iter()
        .map(|&i| pos[i as usize].y)
        .fold(f32::INFINITY, f32::min);
    let to_m = |p: Vec3| Vec3::new(p.x, p.y - floor, p.z) * 0.1;
    let n = body.iter().copied().max().unwrap() as usize + 1;
    let mesh = Mesh {
        positions: pos[..n].iter().map(|&p| to_m(p)).collect(),
        triangles: base.body_triangles.clone(),
        normals: None,
        uvs: None,
    };
    let ch = Character {
        parts: vec![Part {
            name: "body".into(),
            mesh,
            ..Default::default()
        }],
        ..Default::default()
    };
    let rig: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("rigs/standard/rig.game_engine.json")).unwrap(),
    )
    .unwrap();
    let end = |e: &serde_json::Value| -> Vec3 {
        let ids: Vec<u32> = match e["strategy"].as_str().unwrap() {
            "CUBE" => base.groups[e["cube_name"].as_str().unwrap()].clone(),
            "MEAN" => e["vertex_indices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect(),
            _ => vec![e["vertex_index"].as_u64().unwrap() as u32],
        };
        let s: Vec3 = ids.iter().map(|&i| pos[i as usize]).sum();
        to_m(s / ids.len() as f32)
    };
    let gt = rig
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, b)| (k.clone(), (end(&b["head"]), end(&b["tail"]))))
        .collect();
    (ch, gt)
}

/// The corpus folder: the first argument, `$RIGSMITH_DATA`, or `../shared/data/mpfb2`.
pub fn corpus_dir() -> PathBuf {
    std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("RIGSMITH_DATA").map(PathBuf::from))
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/mpfb2")
        })
}

/// The major joints (bone heads) of the accuracy targets.
pub const MAJOR: &[&str] = &[
    "pelvis",
    "spine_01",
    "spine_02",
    "spine_03",
    "neck_01",
    "head",
    "clavicle_l",
    "clavicle_r",
    "upperarm_l",
    "upperarm_r",
    "lowerarm_l",
    "lowerarm_r",
    "hand_l",
    "hand_r",
    "thigh_l",
    "thigh_r",
    "calf_l",
    "calf_r",
    "foot_l",
    "foot_r",
    "ball_l",
    "ball_r",
];

/// Per-bone head error in % of body height, for the bones present in both.
pub fn errors(
    s: &Skeleton,
    gt: &BTreeMap<String, (Vec3, Vec3)>,
    height: f32,
) -> BTreeMap<String, f32> {
    s.bones
        .iter()
        .filter_map(|b| {
            gt.get(&b.name)
                .map(|g| (b.name.clone(), 100.0 * (b.head - g.0).length() / height))
        })
        .collect()
}

/// Whether a bone is a finger bone.
pub fn is_finger(name: &str) -> bool {
    ["thumb", "index", "middle", "ring", "pinky"]
        .iter()
        .any(|f| name.starts_with(f))
}

/// `(mean, worst, worst bone)` of the errors of the bones selected by `f`.
pub fn summary(e: &BTreeMap<String, f32>, f: impl Fn(&str) -> bool) -> (f32, f32, String) {
    let sel: Vec<(&String, &f32)> = e.iter().filter(|(k, _)| f(k)).collect();
    let mean = sel.iter().map(|(_, v)| **v).sum::<f32>() / sel.len().max(1) as f32;
    let (wk, wv) = sel
        .iter()
        .fold((String::new(), 0.0f32), |(k, v), (k2, v2)| {
            if **v2 > v {
                ((*k2).clone(), **v2)
            } else {
                (k, v)
            }
        });
    (mean, wv, wk)
}

#[allow(dead_code)]
fn main() {
    let dir = corpus_dir();
    let base = read_base(&dir);
    let opts = rigsmith::fit::FitOptions::default();
    let mut all: BTreeMap<String, Vec<f32>> = BTreeMap::new();
    println!("| variant | height m | major mean % H | major worst % H (joint) | fingers mean % H | fingers worst % H | fit ms |");
    println!("|---|---|---|---|---|---|---|");
    for v in VARIANTS {
        let (ch, gt) = load(&dir, &base, v);
        let h = ch.bounds().1.y - ch.bounds().0.y;
        let t = std::time::Instant::now();
        let r = match rigsmith::fit::fit(&ch, &opts) {
            Ok(r) => r,
            Err(e) => {
                println!("| {} | {h:.3} | fit failed: {e} | | | | |", v.name);
                continue;
            }
        };
        let ms = t.elapsed().as_secs_f64() * 1e3;
        for k in r.checks.iter().filter(|k| !k.passed) {
            eprintln!(
                "{}: {} {:?} value {:.3} threshold {:.3}: {}",
                v.name, k.id, k.severity, k.value, k.threshold, k.detail
            );
        }
        let e = errors(&r.skeleton, &gt, h);
        for (k, x) in &e {
            all.entry(k.clone()).or_default().push(*x);
        }
        let (mm, mw, mk) = summary(&e, |k| MAJOR.contains(&k));
        let (fm, fw, fk) = summary(&e, is_finger);
        println!(
            "| {} | {h:.3} | {mm:.2} | {mw:.2} ({mk}) | {fm:.2} | {fw:.2} ({fk}) | {ms:.1} |",
            v.name
        );
    }
    println!();
    println!("| joint (bone head) | mean % H | worst % H |");
    println!("|---|---|---|");
    for (k, xs) in &all {
        if k.ends_with("_r") {
            continue;
        }
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        let worst = xs.iter().cloned().fold(0.0, f32::max);
        println!("| {k} | {mean:.2} | {worst:.2} |");
    }
}
