//! MakeHuman rig files (`rigs/standard/rig.NAME.json`, `rigs/rigify/rig.NAME.json`) and
//! how their bones are placed on a body.
//!
//! Each bone's `head` and `tail` is given by a *strategy* evaluated on the body's
//! vertices (OBJ units), so the same rig fits every body variant:
//!
//! * `CUBE`: the mean of the vertices of the named joint cube (`joint-l-elbow`, ...);
//! * `MEAN`: the mean of `vertex_indices`;
//! * `VERTEX`: the single vertex `vertex_index`;
//! * `XYZ`: `vertex_indices = [a, b, c]` give Blender's x, y and z from three vertices
//!   (Blender is Z up: x from `a`, height from `c`, depth from `b`).
//!
//! `roll` is Blender's bone roll; [`roll_to_x_axis`] turns it into our `x_axis`.

use std::collections::BTreeMap;
use std::path::Path;

use glam::{Quat, Vec3};
use serde_json::Value;

use crate::error::{Error, Result};

/// How one end of a bone is placed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Strategy {
    /// Mean of these vertices (`CUBE` and `MEAN`).
    Mean(Vec<u32>),
    /// One vertex.
    Vertex(u32),
    /// Blender x, y, z taken from three vertices.
    Xyz([u32; 3]),
}

impl Strategy {
    /// The point in OBJ space for these body positions (all vertices of the base mesh).
    pub(crate) fn eval(&self, p: &[Vec3]) -> Vec3 {
        match self {
            Strategy::Mean(v) => {
                let s: Vec3 = v.iter().map(|&i| p[i as usize]).sum();
                s / v.len() as f32
            }
            Strategy::Vertex(i) => p[*i as usize],
            // Blender (x, y, z) = OBJ (x, -z, y): x from a, Blender y (= -OBJ z) from b,
            // Blender z (= OBJ y) from c.
            Strategy::Xyz([a, b, c]) => {
                Vec3::new(p[*a as usize].x, p[*c as usize].y, p[*b as usize].z)
            }
        }
    }
}

/// One bone of a rig file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RigBone {
    pub name: String,
    pub parent: Option<String>,
    pub head: Strategy,
    pub tail: Strategy,
    /// Blender roll, radians.
    pub roll: f32,
}

/// A parsed rig file, bones in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rig {
    pub bones: Vec<RigBone>,
}

/// Parses a rig file; `groups` resolves `CUBE` names, `vertex_count` bounds indices.
pub(crate) fn read_rig(
    path: &Path,
    groups: &BTreeMap<String, Vec<(u32, u32)>>,
    vertex_count: usize,
) -> Result<Rig> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let root: Value = serde_json::from_str(&text).map_err(|e| {
        Error::format(
            path,
            format!("line {} column {}", e.line(), e.column()),
            e.to_string(),
        )
    })?;
    // Newer files wrap the bones in {"bones": {...}, ...}.
    let bones = match root.get("bones") {
        Some(b) if b.is_object() => b,
        _ => &root,
    };
    let obj = bones
        .as_object()
        .ok_or_else(|| Error::format(path, "", "expected an object of bones"))?;
    let mut out = Vec::with_capacity(obj.len());
    for (name, b) in obj {
        let at = |f: &str| format!("{name}.{f}");
        let parent = match b.get("parent") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.is_empty() => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(Error::format(path, at("parent"), "expected a string")),
        };
        let roll = match b.get("roll") {
            None => 0.0,
            Some(v) => v
                .as_f64()
                .filter(|r| r.is_finite())
                .ok_or_else(|| Error::format(path, at("roll"), "expected a finite number"))?
                as f32,
        };
        let head = strategy(path, &at("head"), b.get("head"), groups, vertex_count)?;
        let tail = strategy(path, &at("tail"), b.get("tail"), groups, vertex_count)?;
        out.push(RigBone {
            name: name.clone(),
            parent,
            head,
            tail,
            roll,
        });
    }
    if out.is_empty() {
        return Err(Error::format(path, "", "the rig has no bones"));
    }
    Ok(Rig { bones: out })
}

fn strategy(
    path: &Path,
    at: &str,
    v: Option<&Value>,
    groups: &BTreeMap<String, Vec<(u32, u32)>>,
    n: usize,
) -> Result<Strategy> {
    let v = v.ok_or_else(|| Error::format(path, at, "missing"))?;
    let kind = v
        .get("strategy")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::format(path, at, "missing `strategy`"))?;
    let index = |x: &Value| -> Result<u32> {
        let i = x
            .as_u64()
            .ok_or_else(|| Error::format(path, at, "vertex index is not a non-negative integer"))?;
        if i as usize >= n {
            return Err(Error::format(
                path,
                at,
                format!("vertex {i} out of range (base mesh has {n})"),
            ));
        }
        Ok(i as u32)
    };
    let indices = || -> Result<Vec<u32>> {
        let arr = v
            .get("vertex_indices")
            .and_then(Value::as_array)
            .ok_or_else(|| Error::format(path, at, "missing `vertex_indices`"))?;
        arr.iter().map(index).collect()
    };
    match kind {
        "CUBE" => {
            let cube = v
                .get("cube_name")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::format(path, at, "CUBE without `cube_name`"))?;
            let ranges = groups.get(cube).ok_or_else(|| {
                Error::format(
                    path,
                    at,
                    format!("joint cube {cube:?} is not a vertex group of the base mesh"),
                )
            })?;
            let verts = super::base_mesh::expand(ranges);
            if verts.is_empty() {
                return Err(Error::format(
                    path,
                    at,
                    format!("joint cube {cube:?} is empty"),
                ));
            }
            Ok(Strategy::Mean(verts))
        }
        "MEAN" => {
            let verts = indices()?;
            if verts.is_empty() {
                return Err(Error::format(path, at, "MEAN of no vertices"));
            }
            Ok(Strategy::Mean(verts))
        }
        "VERTEX" => {
            let i = v
                .get("vertex_index")
                .ok_or_else(|| Error::format(path, at, "VERTEX without `vertex_index`"))?;
            Ok(Strategy::Vertex(index(i)?))
        }
        "XYZ" => {
            let verts = indices()?;
            let arr: [u32; 3] = verts
                .try_into()
                .map_err(|_| Error::format(path, at, "XYZ needs exactly 3 vertex indices"))?;
            Ok(Strategy::Xyz(arr))
        }
        other => Err(Error::format(
            path,
            at,
            format!("unknown strategy {other:?}"),
        )),
    }
}

/// OBJ / glTF direction (Y up, facing +Z) -> Blender (Z up, facing -Y).
fn to_blender(v: Vec3) -> Vec3 {
    Vec3::new(v.x, -v.z, v.y)
}

/// Blender direction -> glTF / OBJ.
fn from_blender(v: Vec3) -> Vec3 {
    Vec3::new(v.x, v.z, -v.y)
}

/// The bone's local X axis (glTF space) from its direction `dir` (glTF space, any
/// length) and Blender's `roll` (radians).
///
/// Blender builds a bone's rest frame in its own Z-up world: first the smallest
/// rotation taking world +Y onto the bone's direction `n` (the "roll 0" frame), then a
/// rotation by `roll` about `n`. With `n = (x, y, z)` in Blender axes and `t = 1 + y`,
/// the roll-0 X axis is `(1 - x²/t, -x, -xz/t)`; when `n` is (almost) -Y Blender uses
/// the frame diag(-1, -1, 1), whose X axis is -X. We compute that in Blender axes and
/// convert back.
pub fn roll_to_x_axis(dir: Vec3, roll: f32) -> Vec3 {
    let Some(n) = to_blender(dir).try_normalize() else {
        return Vec3::X;
    };
    let (x, y, z) = (n.x, n.y, n.z);
    let mut t = 1.0 + y;
    let t_alt = x * x + z * z;
    const SAFE: f32 = 6.1e-3;
    const CRITICAL: f32 = 2.5e-4;
    let x0 = if t > SAFE || t_alt > CRITICAL * CRITICAL {
        if t <= SAFE {
            // Series form of 1 + y near the -Y pole, as Blender does, for precision.
            t = t_alt * 0.5 + t_alt * t_alt * 0.125;
        }
        Vec3::new(1.0 - x * x / t, -x, -x * z / t)
    } else {
        Vec3::new(-1.0, 0.0, 0.0)
    };
    let xr = Quat::from_axis_angle(n, roll) * x0;
    from_blender(xr).normalize_or_zero()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_zero_frames() {
        // A bone pointing up in glTF (+Y) points up in Blender (+Z): roll-0 X is +X.
        let x = roll_to_x_axis(Vec3::Y, 0.0);
        assert!((x - Vec3::X).length() < 1e-5, "{x}");
        // Pointing down: X stays +X.
        let x = roll_to_x_axis(Vec3::NEG_Y, 0.0);
        assert!((x - Vec3::X).length() < 1e-5, "{x}");
        // Roll of 90 degrees about an up bone turns X toward Blender -Y... = glTF +Z.
        let x = roll_to_x_axis(Vec3::Y, std::f32::consts::FRAC_PI_2);
        assert!(x.dot(Vec3::Y).abs() < 1e-5);
        assert!((x.length() - 1.0).abs() < 1e-5);
        // Always orthogonal to the bone.
        for d in [Vec3::new(0.3, -0.8, 0.2), Vec3::Z, Vec3::NEG_Z, Vec3::X] {
            for r in [-2.0f32, -0.5, 0.0, 1.0, 3.0] {
                let x = roll_to_x_axis(d, r);
                assert!(x.dot(d.normalize()).abs() < 1e-5, "{d} {r} {x}");
                assert!((x.length() - 1.0).abs() < 1e-4);
            }
        }
    }
}
