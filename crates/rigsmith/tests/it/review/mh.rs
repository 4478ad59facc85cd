//! Test fixture: the MakeHuman base body (vertices 0..13379 of `3dobjs/base.obj`) with
//! its artist `game_engine` rig and artist weights, read straight from the corpus
//! folder. Blender rolls become x axes the way Blender builds a bone matrix.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

use glam::{Quat, Vec3};
use rigsmith::model::{Bone, Character, Influence, Mesh, Part, Skeleton, Weights};

/// Number of body vertices in the HM08 base mesh.
pub const BODY: usize = 13380;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// OBJ positions (metres) and the triangles of group `group`.
fn obj(dir: &Path, group: &str) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let text = read(&dir.join("3dobjs/base.obj"));
    let mut pos = Vec::new();
    let mut tris = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let v: Vec<f32> = it.take(3).map(|x| x.parse().unwrap()).collect();
                pos.push(Vec3::new(v[0], v[1], v[2]) * 0.1);
            }
            Some("g") => cur = it.next().unwrap_or("").to_string(),
            Some("f") if cur == group => {
                let idx: Vec<u32> = it
                    .map(|t| t.split('/').next().unwrap().parse::<u32>().unwrap() - 1)
                    .collect();
                for k in 1..idx.len() - 1 {
                    tris.push([idx[0], idx[k], idx[k + 1]]);
                }
            }
            _ => {}
        }
    }
    (pos, tris)
}

/// Blender's bone X axis for a bone along `dir` with `roll` (Blender space, Z up).
fn blender_x(dir: Vec3, roll: f32) -> Vec3 {
    let n = dir.normalize();
    let (x, y, z) = (n.x, n.y, n.z);
    let theta = 1.0 + y;
    let xa = if theta > 1e-4 {
        Vec3::new(1.0 - x * x / theta, -x, -x * z / theta)
    } else {
        Vec3::new(-1.0, 0.0, 0.0)
    };
    Quat::from_axis_angle(n, roll) * xa
}

fn to_blender(p: Vec3) -> Vec3 {
    Vec3::new(p.x, -p.z, p.y)
}
fn from_blender(p: Vec3) -> Vec3 {
    Vec3::new(p.x, p.z, -p.y)
}

/// The skeleton of rig `name` (`game_engine`, `mixamo`, ...) on the base mesh.
pub fn skeleton(dir: &Path, name: &str, pos: &[Vec3]) -> Skeleton {
    let groups: HashMap<String, Vec<[usize; 2]>> = serde_json::from_str(&read(
        &dir.join("mesh_metadata/basemesh_vertex_groups.json"),
    ))
    .unwrap();
    let rig: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&read(&dir.join(format!("rigs/standard/rig.{name}.json")))).unwrap();
    let point = |v: &serde_json::Value| -> Vec3 {
        match v["strategy"].as_str().unwrap() {
            "CUBE" => {
                let r = &groups[v["cube_name"].as_str().unwrap()];
                let ids: Vec<usize> = r.iter().flat_map(|[a, b]| *a..=*b).collect();
                ids.iter().map(|&i| pos[i]).sum::<Vec3>() / ids.len() as f32
            }
            "MEAN" => {
                let ids = v["vertex_indices"].as_array().unwrap();
                ids.iter()
                    .map(|i| pos[i.as_u64().unwrap() as usize])
                    .sum::<Vec3>()
                    / ids.len() as f32
            }
            "VERTEX" => pos[v["vertex_index"].as_u64().unwrap() as usize],
            s => panic!("strategy {s}"),
        }
    };
    let names: Vec<&String> = rig.keys().collect();
    let bones: Vec<Bone> = names
        .iter()
        .map(|n| {
            let b = &rig[*n];
            let head = point(&b["head"]);
            let tail = point(&b["tail"]);
            let parent = b["parent"]
                .as_str()
                .filter(|p| !p.is_empty())
                .map(|p| names.iter().position(|x| *x == p).unwrap());
            let mut bone = Bone::new(n.as_str(), parent, head, tail);
            let roll = b["roll"].as_f64().unwrap_or(0.0) as f32;
            let x = blender_x(to_blender(tail - head), roll);
            bone.x_axis = from_blender(x).normalize();
            bone
        })
        .collect();
    Skeleton::from_unordered(bones).unwrap().0
}

/// The MakeHuman body with the artist rig `name` and its artist weights.
pub fn character(dir: &Path, name: &str) -> Character {
    let (pos, tris) = obj(dir, "body");
    let s = skeleton(dir, name, &pos);
    let wj: serde_json::Value = serde_json::from_str(&read(
        &dir.join(format!("rigs/standard/weights.{name}.json")),
    ))
    .unwrap();
    let mut w = Weights::empty(BODY);
    for (bone, list) in wj["weights"].as_object().unwrap() {
        let Some(b) = s.find(bone) else { continue };
        for pair in list.as_array().unwrap() {
            let v = pair[0].as_u64().unwrap() as usize;
            let x = pair[1].as_f64().unwrap() as f32;
            if v < BODY && x > 0.0 {
                w.vertices[v].push(Influence {
                    bone: b as u32,
                    weight: x,
                });
            }
        }
    }
    w.sort();
    let positions = pos[..BODY].to_vec();
    let triangles: Vec<[u32; 3]> = tris
        .into_iter()
        .filter(|t| t.iter().all(|&i| (i as usize) < BODY))
        .collect();
    Character {
        parts: vec![Part {
            name: "body".into(),
            material: None,
            mesh: Mesh {
                positions,
                triangles,
                normals: None,
                uvs: None,
            },
            weights: Some(w),
            morphs: vec![],
        }],
        skeleton: Some(s),
        vrm: None,
        warnings: vec![],
        ..Default::default()
    }
}
