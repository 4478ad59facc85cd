//! Baking: a control animation (control poses keyed in time, JSON) evaluated frame by
//! frame into deform-bone animation, written into a GLB as a glTF animation, so game
//! engines play it without Blender.
//!
//! The animation file:
//!
//! ```json
//! {"fps": 30, "keys": [
//!   {"time": 0.0, "bones": {"foot_ik.L": {"location": [0, 0, 0.2]}}, "props": {"leg_ik.L": 1}},
//!   {"time": 1.0, "bones": {"foot_ik.L": {"location": [0, 0, -0.2]}}}
//! ]}
//! ```
//!
//! Channels are a bone's local location (its rest frame), rotation `[x, y, z, w]` and
//! scale, as [`Transform`]; between keys each channel is interpolated linearly
//! (rotations by slerp); a bone or property a key leaves out is at rest or at its
//! default in that key. Each frame goes through the [`Evaluator`]; each deform bone's
//! local transform (relative to its parent's posed matrix) is one keyframe of a LINEAR
//! glTF sampler.

use std::collections::{BTreeMap, BTreeSet};

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::eval::Evaluator;
use super::math::{decompose, quat_of};
use super::model::{ControlPose, ControlRig, Transform};
use crate::error::{Error, Result};
use crate::model::{Character, Skeleton};

fn fps30() -> f32 {
    30.0
}

/// One key of a control animation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Key {
    /// Time, seconds.
    pub time: f32,
    /// Bone name -> local channels.
    #[serde(default)]
    pub bones: BTreeMap<String, Transform>,
    /// Property name -> value.
    #[serde(default)]
    pub props: BTreeMap<String, f32>,
}

/// A control animation: keys in increasing time, sampled at `fps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ControlAnimation {
    /// Frames per second of the bake.
    #[serde(default = "fps30")]
    pub fps: f32,
    /// The keys.
    pub keys: Vec<Key>,
}

impl ControlAnimation {
    /// Reads and checks an animation (`what` names the file in errors): at least one
    /// key, times finite and increasing, every value finite, fps in 1..=240.
    pub fn from_json(text: &str, what: &str) -> Result<ControlAnimation> {
        let a: ControlAnimation = serde_json::from_str(text)
            .map_err(|e| Error::invalid(what, format!("not a control animation: {e}")))?;
        if a.keys.is_empty() {
            return Err(Error::invalid(what, "keys: no keys"));
        }
        if !(a.fps >= 1.0 && a.fps <= 240.0) {
            return Err(Error::invalid(
                what,
                format!("fps {}: give 1 to 240", a.fps),
            ));
        }
        for (i, k) in a.keys.iter().enumerate() {
            if !k.time.is_finite() || (i > 0 && k.time <= a.keys[i - 1].time) {
                return Err(Error::invalid(
                    what,
                    format!(
                        "keys[{i}].time {}: times must be finite and increasing",
                        k.time
                    ),
                ));
            }
            for (n, t) in &k.bones {
                if !(t.location.is_finite() && t.rotation.is_finite() && t.scale.is_finite()) {
                    return Err(Error::invalid(
                        what,
                        format!("keys[{i}].bones[{n:?}]: a value is not a number"),
                    ));
                }
            }
            for (n, v) in &k.props {
                if !v.is_finite() {
                    return Err(Error::invalid(
                        what,
                        format!("keys[{i}].props[{n:?}] is {v}: a property value must be a number"),
                    ));
                }
            }
        }
        Ok(a)
    }

    /// Seconds from the first key to the last.
    pub fn duration(&self) -> f32 {
        match (self.keys.first(), self.keys.last()) {
            (Some(a), Some(b)) => b.time - a.time,
            _ => 0.0,
        }
    }

    /// The control pose at time `t` (clamped to the keys).
    pub fn sample(&self, t: f32) -> ControlPose {
        let ks = &self.keys;
        let j = ks.iter().position(|k| k.time > t).unwrap_or(ks.len());
        let (a, b, f) = if j == 0 {
            (&ks[0], &ks[0], 0.0)
        } else if j == ks.len() {
            (&ks[j - 1], &ks[j - 1], 0.0)
        } else {
            let (a, b) = (&ks[j - 1], &ks[j]);
            (a, b, (t - a.time) / (b.time - a.time))
        };
        let mut pose = ControlPose::default();
        let names: BTreeSet<&String> = a.bones.keys().chain(b.bones.keys()).collect();
        for n in names {
            let ta = a.bones.get(n).copied().unwrap_or_default();
            let tb = b.bones.get(n).copied().unwrap_or_default();
            let mut qb = tb.rotation.normalize();
            let qa = ta.rotation.normalize();
            if qa.dot(qb) < 0.0 {
                qb = -qb;
            }
            pose.bones.insert(
                n.clone(),
                Transform {
                    location: ta.location.lerp(tb.location, f),
                    rotation: qa.slerp(qb, f).normalize(),
                    scale: ta.scale.lerp(tb.scale, f),
                },
            );
        }
        let props: BTreeSet<&String> = a.props.keys().chain(b.props.keys()).collect();
        for n in props {
            match (a.props.get(n), b.props.get(n)) {
                (Some(x), Some(y)) => pose.props.insert(n.clone(), x + (y - x) * f),
                (Some(x), None) | (None, Some(x)) => pose.props.insert(n.clone(), *x),
                (None, None) => None,
            };
        }
        pose
    }
}

/// Deform-bone animation: per frame, per skeleton bone, its local location, rotation
/// and scale (relative to its parent's posed frame, as glTF nodes take them).
#[derive(Debug, Clone, PartialEq)]
pub struct Baked {
    /// Frame times, seconds from 0.
    pub times: Vec<f32>,
    /// `frames x bones` local transforms.
    pub local: Vec<Vec<(Vec3, Quat, Vec3)>>,
}

/// Evaluates `anim` on `rig` at its fps for the bones of `skel` (each must be in the
/// rig by name).
pub fn bake(rig: &ControlRig, skel: &Skeleton, anim: &ControlAnimation) -> Result<Baked> {
    let ev = Evaluator::new(rig)?;
    let map: Vec<usize> = skel
        .bones
        .iter()
        .map(|b| {
            ev.find(&b.name).ok_or_else(|| {
                Error::invalid("control rig", format!("the skeleton's bone {:?} is not in the control rig: rig the file again with --control", b.name))
            })
        })
        .collect::<Result<_>>()?;
    let frames = (anim.duration() * anim.fps).round() as usize + 1;
    let t0 = anim.keys[0].time;
    let mut out = Vec::new();
    let mut times = Vec::with_capacity(frames);
    let mut local = Vec::with_capacity(frames);
    for f in 0..frames {
        let t = f as f32 / anim.fps;
        let ch = ev.channels(&anim.sample(t0 + t))?;
        ev.evaluate(&ch, &mut out);
        let row = skel
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let w = out[map[i]];
                let l = match b.parent {
                    Some(p) => out[map[p]].inverse() * w,
                    None => w,
                };
                let (loc, r, s) = decompose(&l);
                (loc, quat_of(&r), s)
            })
            .collect();
        times.push(t);
        local.push(row);
    }
    Ok(Baked { times, local })
}

/// The GLB of `c` with `baked` as an animation named `name` (a LINEAR sampler for the
/// translation, rotation and scale of every bone).
pub fn write_glb(
    c: &Character,
    baked: &Baked,
    opts: &crate::io::gltf::WriteOptions,
    name: &str,
) -> Result<Vec<u8>> {
    let (root, mut bin, nodes) = crate::io::gltf::build_document(c, opts)?;
    let mut doc =
        serde_json::to_value(&root).map_err(|e| Error::invalid("glTF document", e.to_string()))?;
    let n_bones = nodes.len();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let base_view = doc["bufferViews"].as_array().map_or(0, Vec::len);
    let base_acc = doc["accessors"].as_array().map_or(0, Vec::len);
    let mut push = |data: &[f32], kind: &str, count: usize, minmax: Option<(f32, f32)>| -> usize {
        while bin.len() % 4 != 0 {
            bin.push(0);
        }
        let offset = bin.len();
        for v in data {
            bin.extend_from_slice(&v.to_le_bytes());
        }
        views.push(json!({"buffer": 0, "byteOffset": offset, "byteLength": data.len() * 4}));
        let mut a = json!({"bufferView": base_view + views.len() - 1, "componentType": 5126, "count": count, "type": kind});
        if let Some((lo, hi)) = minmax {
            a["min"] = json!([lo]);
            a["max"] = json!([hi]);
        }
        accessors.push(a);
        base_acc + accessors.len() - 1
    };
    let nf = baked.times.len();
    let last = baked.times.last().copied().unwrap_or(0.0);
    let input = push(&baked.times, "SCALAR", nf, Some((0.0, last)));
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for b in 0..n_bones.min(baked.local.first().map_or(0, Vec::len)) {
        let t: Vec<f32> = baked.local.iter().flat_map(|r| r[b].0.to_array()).collect();
        let q: Vec<f32> = baked
            .local
            .iter()
            .flat_map(|r| r[b].1.normalize().to_array())
            .collect();
        let s: Vec<f32> = baked.local.iter().flat_map(|r| r[b].2.to_array()).collect();
        for (data, kind, path) in [
            (t, "VEC3", "translation"),
            (q, "VEC4", "rotation"),
            (s, "VEC3", "scale"),
        ] {
            let out = push(&data, kind, nf, None);
            samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
            channels.push(
                json!({"sampler": samplers.len() - 1, "target": {"node": nodes[b], "path": path}}),
            );
        }
    }
    let arr = |d: &mut serde_json::Value, key: &str| {
        if !d[key].is_array() {
            d[key] = json!([]);
        }
    };
    arr(&mut doc, "bufferViews");
    arr(&mut doc, "accessors");
    arr(&mut doc, "animations");
    if let Some(v) = doc["bufferViews"].as_array_mut() {
        v.extend(views);
    }
    if let Some(v) = doc["accessors"].as_array_mut() {
        v.extend(accessors);
    }
    if let Some(v) = doc["animations"].as_array_mut() {
        v.push(json!({"name": name, "samplers": samplers, "channels": channels}));
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let root: gltf_json::Root =
        serde_json::from_value(doc).map_err(|e| Error::invalid("glTF document", e.to_string()))?;
    crate::io::gltf::pack_glb(&root, &bin)
}

/// A walk of `seconds` (two steps a second) for a rig built by [`super::build`]: the
/// IK feet step forward and back in turn with the foot roll, the torso bobs and sways,
/// the arms swing in FK. The example animation of `rigsmith bake --walk`.
pub fn walk(rig: &ControlRig, seconds: f32) -> ControlAnimation {
    let h = rig.height;
    let fps = 30.0;
    let n = (seconds * 8.0).round().max(1.0) as usize; // 8 keys a second
    let mut keys = Vec::new();
    // A world-space offset in a control's rest frame.
    let local = |name: &str, w: Vec3| -> Vec3 {
        rig.bone(name)
            .map_or(w, |b| b.as_bone().frame().transpose() * w)
    };
    for i in 0..=n {
        let t = seconds * i as f32 / n as f32;
        let ph = std::f32::consts::TAU * t; // one stride (two steps) a second
        let mut k = Key {
            time: t,
            ..Default::default()
        };
        for (side, sign) in [(".L", 1.0f32), (".R", -1.0f32)] {
            let p = ph
                + if sign > 0.0 {
                    0.0
                } else {
                    std::f32::consts::PI
                };
            let fwd = 0.12 * h * p.sin();
            let lift = 0.05 * h * p.cos().max(0.0);
            let foot = format!("foot_ik{side}");
            k.bones.insert(
                foot.clone(),
                Transform {
                    location: local(&foot, Vec3::new(0.0, lift, fwd)),
                    ..Default::default()
                },
            );
            let roll = format!("foot_roll{side}");
            if let Some(b) = rig.bone(&roll) {
                let axis = b.as_bone().frame().transpose() * Vec3::X;
                k.bones.insert(
                    roll,
                    Transform {
                        rotation: Quat::from_axis_angle(axis, -0.35 * p.cos()),
                        ..Default::default()
                    },
                );
            }
            let arm = format!("upperarm_fk{side}");
            if let Some(b) = rig.bone(&arm) {
                let axis = b.as_bone().frame().transpose() * Vec3::X;
                k.bones.insert(
                    arm,
                    Transform {
                        rotation: Quat::from_axis_angle(axis, 0.3 * p.sin()),
                        ..Default::default()
                    },
                );
            }
        }
        if rig.bone("torso").is_some() {
            let w = Vec3::new(
                0.015 * h * ph.sin(),
                -0.02 * h * (2.0 * ph).cos().abs(),
                0.0,
            );
            k.bones.insert(
                "torso".into(),
                Transform {
                    location: local("torso", w),
                    ..Default::default()
                },
            );
        }
        keys.push(k);
    }
    ControlAnimation { fps, keys }
}
