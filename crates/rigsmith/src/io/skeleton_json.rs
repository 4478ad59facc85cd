//! `skeleton.json`: the shared skeleton file format (glTF space).
//!
//! ```json
//! {"bones": [{"name": "pelvis", "parent": null, "head": [0, 0.95, 0.01],
//!             "tail": [0, 1.05, 0.0], "deform": true, "x_axis": [1, 0, 0]}]}
//! ```
//!
//! `deform` defaults to true and `x_axis` is optional on input; bones may come in any
//! order. Written parents-first, every field present.

use std::path::Path;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::naming::side_of;
use crate::model::{Bone, Skeleton};

#[derive(Serialize, Deserialize)]
struct FileBone {
    name: String,
    #[serde(default)]
    parent: Option<String>,
    head: [f32; 3],
    tail: [f32; 3],
    #[serde(default = "yes")]
    deform: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    x_axis: Option<[f32; 3]>,
}

fn yes() -> bool {
    true
}

#[derive(Serialize, Deserialize)]
struct FileSkeleton {
    bones: Vec<FileBone>,
}

/// Parses skeleton.json text; `path` is only used in error messages.
pub fn parse(text: &str, path: &Path) -> Result<Skeleton> {
    let f: FileSkeleton = serde_json::from_str(text).map_err(|e| {
        Error::format(
            path,
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    let index: std::collections::HashMap<&str, usize> = f
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    let mut bones = Vec::with_capacity(f.bones.len());
    for (i, b) in f.bones.iter().enumerate() {
        let at = format!("bones[{i}]");
        let parent = match &b.parent {
            None => None,
            Some(p) => Some(*index.get(p.as_str()).ok_or_else(|| {
                Error::format(
                    path,
                    format!("{at}.parent"),
                    format!(
                        "bone {:?} has parent {p:?}, which is not in the file",
                        b.name
                    ),
                )
            })?),
        };
        let head = Vec3::from(b.head);
        let tail = Vec3::from(b.tail);
        if !head.is_finite() || !tail.is_finite() {
            return Err(Error::format(path, at, "head or tail is not finite"));
        }
        let mut bone = Bone::new(b.name.clone(), parent, head, tail);
        bone.deform = b.deform;
        bone.side = side_of(&b.name);
        if let Some(x) = b.x_axis {
            let x = Vec3::from(x);
            if !x.is_finite() || x.length_squared() < 1e-12 {
                return Err(Error::format(
                    path,
                    format!("{at}.x_axis"),
                    "x_axis is zero or not finite",
                ));
            }
            bone.x_axis = x.normalize();
        }
        bones.push(bone);
    }
    let (s, _) =
        Skeleton::from_unordered(bones).map_err(|e| Error::format(path, "bones", e.to_string()))?;
    Ok(s)
}

/// Reads a skeleton.json file.
pub fn read(path: &Path) -> Result<Skeleton> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse(&text, path)
}

/// Serializes a skeleton (parents first, x_axis made orthogonal to the bone).
pub fn to_string(s: &Skeleton) -> String {
    let r = |v: Vec3| [round6(v.x), round6(v.y), round6(v.z)];
    let f = FileSkeleton {
        bones: s
            .bones
            .iter()
            .map(|b| FileBone {
                name: b.name.clone(),
                parent: b.parent.map(|p| s.bones[p].name.clone()),
                head: r(b.head),
                tail: r(b.tail),
                deform: b.deform,
                x_axis: Some(r(b.frame().x_axis)),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&f).expect("skeleton serializes") + "\n"
}

fn round6(x: f32) -> f32 {
    ((x as f64 * 1e6).round() / 1e6) as f32
}

/// Writes a skeleton.json file atomically.
pub fn write(path: &Path, s: &Skeleton) -> Result<()> {
    super::atomic::write_atomic(path, to_string(s).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_any_order() {
        let text = r#"{"bones":[{"name":"hand_l","parent":"pelvis","head":[0.5,1,0],"tail":[0.6,1,0]},
            {"name":"pelvis","parent":null,"head":[0,0.95,0.01],"tail":[0,1.05,0],"deform":true,"x_axis":[1,0,0]}]}"#;
        let s = parse(text, Path::new("t.json")).unwrap();
        assert_eq!(s.bones[0].name, "pelvis");
        assert_eq!(s.bones[1].parent, Some(0));
        let s2 = parse(&to_string(&s), Path::new("t2.json")).unwrap();
        assert_eq!(s2.bones.len(), 2);
        assert!((s2.bones[1].head - s.bones[1].head).length() < 1e-6);
    }

    #[test]
    fn dangling_parent_is_named() {
        let text = r#"{"bones":[{"name":"a","parent":"nope","head":[0,0,0],"tail":[0,1,0]}]}"#;
        let e = parse(text, Path::new("s.json")).unwrap_err().to_string();
        assert!(
            e.contains("s.json") && e.contains("bones[0].parent") && e.contains("nope"),
            "{e}"
        );
    }
}
