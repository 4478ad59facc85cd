//! A small reader of the MakeHuman (MPFB2) corpus for the bind examples, tests and
//! benchmark: the base mesh's body (13,380 vertices), body-shape targets, the
//! `game_engine` skeleton (bone ends from the joint cubes) and its artist weights.
//! Metres, glTF space (OBJ decimetres times 0.1).
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use glam::Vec3;
use rigsmith::model::{Bone, Influence, Mesh, Skeleton, Weights};

/// Body vertices in the base mesh (0..BODY).
pub const BODY: usize = 13_380;

/// The base mesh with every vertex (helpers and joint cubes included) and the faces of
/// each OBJ group, triangulated.
pub struct Base {
    /// All vertices, metres.
    pub positions: Vec<Vec3>,
    /// Group name -> triangles.
    pub groups: Vec<(String, Vec<[u32; 3]>)>,
    /// Vertex groups: name -> inclusive ranges.
    pub vgroups: HashMap<String, Vec<[usize; 2]>>,
}

/// Reads `3dobjs/base.obj` and the vertex groups.
pub fn base(dir: &Path) -> Base {
    let text = std::fs::read_to_string(dir.join("3dobjs/base.obj")).expect("base.obj");
    let mut positions = Vec::new();
    let mut groups: Vec<(String, Vec<[u32; 3]>)> = Vec::new();
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let v: Vec<f32> = it.take(3).map(|x| x.parse().unwrap()).collect();
                positions.push(Vec3::new(v[0], v[1], v[2]) * 0.1);
            }
            Some("g") => groups.push((it.next().unwrap_or("").to_string(), Vec::new())),
            Some("f") => {
                let idx: Vec<u32> = it
                    .map(|t| t.split('/').next().unwrap().parse::<u32>().unwrap() - 1)
                    .collect();
                if groups.is_empty() {
                    groups.push((String::new(), Vec::new()));
                }
                let g = &mut groups.last_mut().unwrap().1;
                for k in 1..idx.len() - 1 {
                    g.push([idx[0], idx[k], idx[k + 1]]);
                }
            }
            _ => {}
        }
    }
    let vg: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("mesh_metadata/basemesh_vertex_groups.json")).unwrap(),
    )
    .unwrap();
    let vgroups = vg
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let r = v
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    [
                        p[0].as_u64().unwrap() as usize,
                        p[1].as_u64().unwrap() as usize,
                    ]
                })
                .collect();
            (k.clone(), r)
        })
        .collect();
    Base {
        positions,
        groups,
        vgroups,
    }
}

impl Base {
    /// Adds `weight` x the target file (`targets/...target.gz`, relative to the corpus).
    pub fn apply_target(&mut self, dir: &Path, rel: &str, weight: f32) {
        let f = std::fs::File::open(dir.join("targets").join(rel)).expect("target");
        let mut s = String::new();
        flate2::read::GzDecoder::new(f)
            .read_to_string(&mut s)
            .unwrap();
        for line in s.lines() {
            let v: Vec<&str> = line.split_whitespace().collect();
            if v.len() < 4 {
                continue;
            }
            let i: usize = v[0].parse().unwrap();
            let d = Vec3::new(
                v[1].parse().unwrap(),
                v[2].parse().unwrap(),
                v[3].parse().unwrap(),
            );
            self.positions[i] += d * 0.1 * weight;
        }
    }

    /// The triangles of an OBJ group.
    pub fn group(&self, name: &str) -> Vec<[u32; 3]> {
        self.groups
            .iter()
            .filter(|g| g.0 == name)
            .flat_map(|g| g.1.iter().copied())
            .collect()
    }

    /// A part made of an OBJ group's faces, vertices renumbered in input order.
    pub fn part_mesh(&self, name: &str) -> Mesh {
        let tris = self.group(name);
        let mut map: HashMap<u32, u32> = HashMap::new();
        let mut used: Vec<u32> = tris.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        for (k, v) in used.iter().enumerate() {
            map.insert(*v, k as u32);
        }
        Mesh {
            positions: used.iter().map(|&v| self.positions[v as usize]).collect(),
            triangles: tris.iter().map(|t| t.map(|v| map[&v])).collect(),
            ..Default::default()
        }
    }

    /// The body: vertices 0..BODY and the `body` group's triangles.
    pub fn body(&self) -> Mesh {
        Mesh {
            positions: self.positions[..BODY].to_vec(),
            triangles: self.group("body"),
            ..Default::default()
        }
    }

    fn mean(&self, idx: impl Iterator<Item = usize>) -> Vec3 {
        let (mut s, mut n) = (Vec3::ZERO, 0);
        for i in idx {
            s += self.positions[i];
            n += 1;
        }
        s / n.max(1) as f32
    }

    fn end(&self, e: &serde_json::Value) -> Vec3 {
        match e["strategy"].as_str().unwrap() {
            "CUBE" => {
                let r = &self.vgroups[e["cube_name"].as_str().unwrap()];
                self.mean(r.iter().flat_map(|r| r[0]..=r[1]))
            }
            "VERTEX" => self.positions[e["vertex_index"].as_u64().unwrap() as usize],
            _ => self.mean(
                e["vertex_indices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize),
            ),
        }
    }

    /// The skeleton `rigs/standard/rig.NAME.json` on this shape. Bones without artist
    /// weights (the root) are non-deform.
    pub fn skeleton(&self, dir: &Path, rig: &str) -> Skeleton {
        let r: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("rigs/standard/rig.{rig}.json"))).unwrap(),
        )
        .unwrap();
        let w = artist_raw(dir, rig);
        let obj = r.as_object().unwrap();
        let mut names: Vec<&String> = obj.keys().collect();
        names.sort();
        let index: HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let bones: Vec<Bone> = names
            .iter()
            .map(|n| {
                let b = &obj[n.as_str()];
                let parent = b["parent"].as_str().and_then(|p| index.get(p).copied());
                let mut bone = Bone::new(
                    n.as_str(),
                    parent,
                    self.end(&b["head"]),
                    self.end(&b["tail"]),
                );
                bone.deform = w.get(n.as_str()).is_some_and(|l| !l.is_empty());
                bone
            })
            .collect();
        Skeleton::from_unordered(bones).unwrap().0
    }
}

fn artist_raw(dir: &Path, rig: &str) -> HashMap<String, Vec<(usize, f32)>> {
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("rigs/standard/weights.{rig}.json"))).unwrap(),
    )
    .unwrap();
    v["weights"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, l)| {
            let l = l
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    (
                        p[0].as_u64().unwrap() as usize,
                        p[1].as_f64().unwrap() as f32,
                    )
                })
                .collect();
            (k.clone(), l)
        })
        .collect()
}

/// The artist weights of `rig` on the first `n` vertices, on skeleton `s`, normalized.
pub fn artist_weights(dir: &Path, rig: &str, s: &Skeleton, n: usize) -> Weights {
    let mut w = Weights::empty(n);
    for (name, list) in artist_raw(dir, rig) {
        let Some(b) = s.find(&name) else { continue };
        for (v, x) in list {
            if v < n && x > 0.0 {
                w.vertices[v].push(Influence {
                    bone: b as u32,
                    weight: x,
                });
            }
        }
    }
    w.sort();
    w.normalize();
    w
}

/// Splits every triangle into four at its edge midpoints (no smoothing); new vertices
/// are appended after the old ones. Weights, when given, are averaged onto the
/// midpoints.
pub fn subdivide(m: &Mesh, w: Option<&Weights>) -> (Mesh, Option<Weights>) {
    let mut pos = m.positions.clone();
    let mut mid: HashMap<(u32, u32), u32> = HashMap::new();
    let mut ww = w.cloned();
    let mut tris = Vec::with_capacity(m.triangles.len() * 4);
    let mut get = |a: u32, b: u32, pos: &mut Vec<Vec3>, ww: &mut Option<Weights>| -> u32 {
        let k = (a.min(b), a.max(b));
        if let Some(&i) = mid.get(&k) {
            return i;
        }
        let i = pos.len() as u32;
        pos.push(0.5 * (pos[a as usize] + pos[b as usize]));
        if let Some(w) = ww.as_mut() {
            let mut l = Vec::new();
            for inf in w.vertices[a as usize].iter().chain(&w.vertices[b as usize]) {
                l.push(Influence {
                    bone: inf.bone,
                    weight: 0.5 * inf.weight,
                });
            }
            w.vertices.push(Vec::new());
            for inf in l {
                w.add(i as usize, inf.bone, inf.weight);
            }
        }
        mid.insert(k, i);
        i
    };
    for t in &m.triangles {
        let ab = get(t[0], t[1], &mut pos, &mut ww);
        let bc = get(t[1], t[2], &mut pos, &mut ww);
        let ca = get(t[2], t[0], &mut pos, &mut ww);
        tris.push([t[0], ab, ca]);
        tris.push([ab, t[1], bc]);
        tris.push([ca, bc, t[2]]);
        tris.push([ab, bc, ca]);
    }
    if let Some(w) = ww.as_mut() {
        w.sort();
    }
    (
        Mesh {
            positions: pos,
            triangles: tris,
            ..Default::default()
        },
        ww,
    )
}

/// The base mesh with a named variant's targets applied (the library's
/// `rigsmith::io::mpfb2::VARIANTS`, the bodies every other benchmark uses).
pub fn variant(dir: &Path, name: &str) -> Base {
    let mut b = base(dir);
    let v = rigsmith::io::mpfb2::variant(name)
        .expect("a named variant (rigsmith::io::mpfb2::VARIANTS)");
    for (t, w) in v.targets {
        b.apply_target(dir, t, *w);
    }
    b
}
