//! Reading glTF animations to drive a character: node rotation, translation and scale
//! channels, LINEAR and STEP samplers (CUBICSPLINE samplers are read through their
//! values, interpolated linearly; morph-weight channels are skipped).
//!
//! [`Animations::skinning`] turns a clip at time `t` into skinning matrices for the
//! character read from the same file: for the bone made from joint node `j`,
//! `S = W_j(t) * W_j(rest)^-1`, where `W_j` is the node's world matrix with the
//! animated local transforms (`t`) or the file's own node transforms (`rest`). That maps
//! a rest vertex (the reader bakes vertices at the nodes' bind pose) to its posed
//! position, in glTF space, metres. Bones without a node (chains added later) take
//! their parent's matrix. A clip loops: `t` is taken modulo its duration.

use std::path::Path;

use glam::{Mat4, Quat, Vec3, Vec4};
use serde_json::Value;

use super::accessor::{array, Doc};
use super::load_doc;
use super::read::read_scene;
use crate::error::{Error, Result};

/// What a channel animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `translation` (x, y, z).
    Translation,
    /// `rotation` (quaternion x, y, z, w).
    Rotation,
    /// `scale` (x, y, z).
    Scale,
}

/// One animated property of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationChannel {
    /// The glTF node index.
    pub node: usize,
    /// The property.
    pub target: Target,
    /// STEP (hold each key) rather than LINEAR.
    pub step: bool,
    /// Key times, seconds, increasing.
    pub times: Vec<f32>,
    /// One value per key (xyz in `x, y, z` for translation and scale; a quaternion
    /// `x, y, z, w` for rotation).
    pub values: Vec<Vec4>,
}

impl AnimationChannel {
    /// The channel's value at time `t` (clamped to its keys).
    pub fn sample(&self, t: f32) -> Vec4 {
        let n = self.times.len().min(self.values.len());
        if n == 0 {
            return Vec4::ZERO;
        }
        if t <= self.times[0] || n == 1 {
            return self.values[0];
        }
        if t >= self.times[n - 1] {
            return self.values[n - 1];
        }
        let k = self.times[..n].partition_point(|&x| x <= t).max(1) - 1;
        let (a, b) = (self.values[k], self.values[k + 1]);
        if self.step {
            return a;
        }
        let span = self.times[k + 1] - self.times[k];
        let u = if span > 0.0 {
            ((t - self.times[k]) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        match self.target {
            Target::Rotation => {
                let qa = Quat::from_vec4(a).normalize();
                let mut qb = Quat::from_vec4(b).normalize();
                if qa.dot(qb) < 0.0 {
                    qb = -qb;
                }
                Vec4::from(qa.slerp(qb, u))
            }
            _ => a.lerp(b, u),
        }
    }
}

/// One animation of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Its name (`animation{i}` when unnamed).
    pub name: String,
    /// The last key time, seconds.
    pub duration: f32,
    /// Its channels.
    pub channels: Vec<AnimationChannel>,
}

/// The animations of a glTF file with what is needed to pose its skeleton.
#[derive(Debug, Clone)]
pub struct Animations {
    /// The clips, in file order.
    pub clips: Vec<Clip>,
    /// `node_bone[node]`: the skeleton bone made from that node (as the reader builds it).
    pub node_bone: Vec<Option<usize>>,
    parent: Vec<Option<usize>>,
    /// Rest local transforms per node: translation, rotation, scale.
    rest: Vec<(Vec3, Quat, Vec3)>,
    rest_world_inv: Vec<Mat4>,
}

fn nums(v: Option<&Value>, n: usize) -> Option<Vec<f32>> {
    let a = v?.as_array()?;
    (a.len() == n)
        .then(|| a.iter().map(|x| x.as_f64().map(|f| f as f32)).collect())
        .flatten()
}

/// The names of the bones of `skel` (the skeleton read from the same file) that the
/// file's animation clips key ([`Animations::keyed_bones`]). `.glb`, `.gltf` and `.vrm`
/// files are read; other formats carry no animations (an empty list).
pub fn keyed_bone_names(path: &Path, skel: &crate::model::Skeleton) -> Result<Vec<String>> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if !matches!(ext.as_str(), "glb" | "gltf" | "vrm") {
        return Ok(Vec::new());
    }
    Ok(read_animations(path)?
        .keyed_bones()
        .into_iter()
        .filter_map(|b| skel.bones.get(b).map(|b| b.name.clone()))
        .collect())
}

/// Reads the animations of a `.glb`, `.gltf` or `.vrm` file (an empty list when it has
/// none). Errors name the file and the field (`animations[0].channels[2].sampler`).
pub fn read_animations(path: &Path) -> Result<Animations> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let doc = load_doc(&bytes, path)?;
    let scene = read_scene(&doc)?;
    animations_of(&doc, scene.node_bone)
}

fn animations_of(doc: &Doc, node_bone: Vec<Option<usize>>) -> Result<Animations> {
    let json = &doc.json;
    let nodes = array(json, "nodes");
    let n = nodes.len();
    let mut parent = vec![None; n];
    for (i, nd) in nodes.iter().enumerate() {
        for c in array(nd, "children") {
            if let Some(c) = c.as_u64().filter(|&c| (c as usize) < n) {
                parent[c as usize] = Some(i);
            }
        }
    }
    let rest: Vec<(Vec3, Quat, Vec3)> = nodes
        .iter()
        .map(|nd| {
            if let Some(m) = nums(nd.get("matrix"), 16) {
                let (s, r, t) = Mat4::from_cols_slice(&m).to_scale_rotation_translation();
                return (t, r, s);
            }
            let t = nums(nd.get("translation"), 3).map_or(Vec3::ZERO, |v| Vec3::from_slice(&v));
            let r = nums(nd.get("rotation"), 4)
                .map(|v| Quat::from_xyzw(v[0], v[1], v[2], v[3]))
                .filter(|q| q.length_squared() > 1e-12)
                .map_or(Quat::IDENTITY, Quat::normalize);
            let s = nums(nd.get("scale"), 3).map_or(Vec3::ONE, |v| Vec3::from_slice(&v));
            (t, r, s)
        })
        .collect();
    let mut clips = Vec::new();
    for (ai, anim) in array(json, "animations").iter().enumerate() {
        let at = format!("animations[{ai}]");
        let samplers = array(anim, "samplers");
        let mut channels = Vec::new();
        for (ci, ch) in array(anim, "channels").iter().enumerate() {
            let cat = format!("{at}.channels[{ci}]");
            let target = ch
                .get("target")
                .ok_or_else(|| doc.err(&cat, "the channel has no target"))?;
            let Some(node) = target.get("node").and_then(Value::as_u64) else {
                continue; // no node: an extension's target
            };
            if node as usize >= n {
                return Err(doc.err(
                    format!("{cat}.target.node"),
                    format!("{node} is not a node (there are {n} nodes)"),
                ));
            }
            let (kind, comps) = match target.get("path").and_then(Value::as_str) {
                Some("translation") => (Target::Translation, 3),
                Some("rotation") => (Target::Rotation, 4),
                Some("scale") => (Target::Scale, 3),
                _ => continue, // morph weights or an extension's path
            };
            let si = ch
                .get("sampler")
                .and_then(Value::as_u64)
                .filter(|&s| (s as usize) < samplers.len())
                .ok_or_else(|| {
                    doc.err(
                        format!("{cat}.sampler"),
                        format!("not a sampler index (there are {})", samplers.len()),
                    )
                })? as usize;
            let sat = format!("{at}.samplers[{si}]");
            let (step, times, values) = sampler_keys(doc, &samplers[si], &sat, comps)?;
            channels.push(AnimationChannel {
                node: node as usize,
                target: kind,
                step,
                times,
                values,
            });
        }
        let duration = channels
            .iter()
            .filter_map(|c| c.times.last().copied())
            .fold(0.0f32, f32::max);
        clips.push(Clip {
            name: anim
                .get("name")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map_or_else(|| format!("animation{ai}"), str::to_string),
            duration,
            channels,
        });
    }
    let mut a = Animations {
        clips,
        node_bone,
        parent,
        rest,
        rest_world_inv: Vec::new(),
    };
    a.rest_world_inv = a
        .world(&a.rest.clone())
        .into_iter()
        .map(|m| m.inverse())
        .collect();
    Ok(a)
}

/// The key times and values of animation sampler `s` (at `sat` in the file) with `comps`
/// components a value (3 or 4; 3 are padded with a 0), and whether it steps: times finite
/// and increasing, one finite value a time (a cubic spline's tangents dropped).
fn sampler_keys(
    doc: &Doc,
    s: &Value,
    sat: &str,
    comps: usize,
) -> Result<(bool, Vec<f32>, Vec<Vec4>)> {
    let interp = s
        .get("interpolation")
        .and_then(Value::as_str)
        .unwrap_or("LINEAR");
    let acc = |k: &str| -> Result<u64> {
        s.get(k)
            .and_then(Value::as_u64)
            .ok_or_else(|| doc.err(format!("{sat}.{k}"), "missing accessor"))
    };
    let times = doc.floats(acc("input")?, 1, &format!("{sat}.input"))?;
    if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] < w[0]) {
        return Err(doc.err(
            format!("{sat}.input"),
            "key times are not finite and increasing",
        ));
    }
    let raw = doc.floats(acc("output")?, comps, &format!("{sat}.output"))?;
    let mut values: Vec<Vec4> = raw
        .chunks_exact(comps)
        .map(|c| {
            if comps == 4 {
                Vec4::from_slice(c)
            } else {
                Vec4::new(c[0], c[1], c[2], 0.0)
            }
        })
        .collect();
    let step = match interp {
        "LINEAR" => false,
        "STEP" => true,
        "CUBICSPLINE" => {
            // (in-tangent, value, out-tangent) per key: keep the values.
            values = values.chunks_exact(3).map(|c| c[1]).collect();
            false
        }
        other => {
            return Err(doc.err(
                format!("{sat}.interpolation"),
                format!("unknown interpolation {other:?}"),
            ))
        }
    };
    if values.len() != times.len() {
        return Err(doc.err(
            format!("{sat}.output"),
            format!("{} values for {} key times", values.len(), times.len()),
        ));
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(doc.err(format!("{sat}.output"), "values are not finite"));
    }
    Ok((step, times, values))
}

impl Animations {
    /// The skeleton bones any clip keys (a channel of any kind on the bone's node),
    /// in bone order: what rule 3 of the parts stage judges (cloth and hair bones carry
    /// no tracks; a baked rest-pose track counts, it overrides the spring solver all
    /// the same).
    pub fn keyed_bones(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .clips
            .iter()
            .flat_map(|c| c.channels.iter())
            .filter_map(|ch| self.node_bone.get(ch.node).copied().flatten())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The clip named `sel`, or at index `sel` (an error listing the clips otherwise).
    pub fn find(&self, sel: &str) -> Result<usize> {
        if let Some(i) = self.clips.iter().position(|c| c.name == sel) {
            return Ok(i);
        }
        if let Ok(i) = sel.parse::<usize>() {
            if i < self.clips.len() {
                return Ok(i);
            }
        }
        let names: Vec<&str> = self.clips.iter().map(|c| c.name.as_str()).collect();
        Err(Error::stage(
            "animation",
            if names.is_empty() {
                format!("no animation {sel:?}: the file has no animations")
            } else {
                format!("no animation {sel:?}; the file has {}", names.join(", "))
            },
        ))
    }

    /// World matrices of all nodes from local TRS.
    fn world(&self, local: &[(Vec3, Quat, Vec3)]) -> Vec<Mat4> {
        let n = local.len();
        let mut world: Vec<Option<Mat4>> = vec![None; n];
        for i in 0..n {
            let mut chain = vec![i];
            let mut cur = self.parent[i];
            while let Some(p) = cur {
                if world[p].is_some() || chain.len() > n {
                    break;
                }
                chain.push(p);
                cur = self.parent[p];
            }
            for &c in chain.iter().rev() {
                if world[c].is_none() {
                    let (t, r, s) = local[c];
                    let pw = self.parent[c]
                        .and_then(|p| world[p])
                        .unwrap_or(Mat4::IDENTITY);
                    world[c] = Some(pw * Mat4::from_scale_rotation_translation(s, r, t));
                }
            }
        }
        world
            .into_iter()
            .map(|m| m.unwrap_or(Mat4::IDENTITY))
            .collect()
    }

    /// Skinning matrices (rest -> posed) for `bones` bones with parents `parents` (the
    /// character's skeleton, possibly grown by added chains) for clip `clip` at time `t`
    /// seconds, looped over the clip's duration (see the module docs).
    pub fn skinning(&self, clip: usize, t: f32, parents: &[Option<usize>]) -> Vec<Mat4> {
        let mut local = self.rest.clone();
        if let Some(c) = self.clips.get(clip) {
            let t = if c.duration > 0.0 {
                t.rem_euclid(c.duration)
            } else {
                0.0
            };
            for ch in &c.channels {
                let v = ch.sample(t);
                let l = &mut local[ch.node];
                match ch.target {
                    Target::Translation => l.0 = v.truncate(),
                    Target::Rotation => l.1 = Quat::from_vec4(v).normalize(),
                    Target::Scale => l.2 = v.truncate(),
                }
            }
        }
        let world = self.world(&local);
        let mut out: Vec<Option<Mat4>> = vec![None; parents.len()];
        for (node, b) in self.node_bone.iter().enumerate() {
            if let Some(b) = *b {
                if b < out.len() {
                    out[b] = Some(world[node] * self.rest_world_inv[node]);
                }
            }
        }
        let mut res = Vec::with_capacity(parents.len());
        for (i, m) in out.iter().enumerate() {
            let m = m.unwrap_or_else(|| {
                parents[i]
                    .filter(|&p| p < i)
                    .map_or(Mat4::IDENTITY, |p| res[p])
            });
            res.push(m);
        }
        res
    }
}
