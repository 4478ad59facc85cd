//! The `.rig.json` sidecar: everything the parts stage knows about a rig, beside every
//! rig rigsmith writes (`hero.glb` -> `hero.rig.json`), read back by `check` and
//! `simulate`. The schema is documented field by field in `docs/sidecar.md`.
//!
//! Measuring is the default and hand-authoring the override: colliders marked
//! `"measured": false` in an existing sidecar replace the measured ones of the same
//! name ([`Sidecar::merge_colliders`]), and edited `springs` parameters are kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::chains::{is_cloth_class, Chain};
use super::colliders::{Collider, ColliderShape};
use super::surfaces::{surface_classes, SurfaceClass};
use crate::error::{Error, Result};
use crate::model::{Character, Skeleton};

/// The schema version this build writes and the newest it reads.
pub const SIDECAR_VERSION: u32 = 1;

/// One part of the character, as listed in the sidecar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartInfo {
    /// Part name.
    pub name: String,
    /// Material name, if any.
    pub material: Option<String>,
    /// The surface class of its material (or name).
    pub surface: SurfaceClass,
    /// Vertex count.
    pub vertices: usize,
    /// Whether it carries weights.
    pub skinned: bool,
}

/// A sideways distance link between two bones of neighbouring chains (their tips are
/// kept near their rest distance), found from shared vertices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// First bone.
    pub a: String,
    /// Second bone.
    pub b: String,
    /// Rest distance between their tips, metres.
    pub rest: f32,
    /// Shared-vertex weight that justified the link.
    pub weight: f32,
}

/// Spring parameters for one chain class, VRM 1.0 style. `stiffness` and
/// `gravity_power` are given for a 1.7 m figure (the solver and the VRM exporter scale
/// them by H / 1.7 m); `hit_radius` is in units of H.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpringParams {
    /// Pull back toward the rest direction, per second.
    pub stiffness: f32,
    /// Velocity damping per step, 0..1.
    pub drag: f32,
    /// Gravity pull, per second.
    pub gravity_power: f32,
    /// Gravity direction (unit, world).
    pub gravity_dir: [f32; 3],
    /// Joint collision radius, H.
    pub hit_radius: f32,
    /// Collider groups the class collides with.
    pub collider_groups: Vec<String>,
    /// Integrate in the space of the chain's root parent (VRM's spring `center`): the
    /// body's own travel (walking, running) then drags nothing; only its turns, bobs and
    /// the colliders move the chain. On for cloth, off for hair.
    #[serde(default)]
    pub center: bool,
}

impl SpringParams {
    /// The default parameters of a chain class.
    pub fn for_class(class: &str) -> SpringParams {
        let (stiffness, drag, gravity_power, groups): (f32, f32, f32, &[&str]) = match class {
            "skirt" | "cloth" | "coat" | "cape" => (2.5, 0.2, 0.1, &["legs", "waist"]),
            "hair" => (1.0, 0.4, 0.2, &["head", "chest"]),
            "breast" | "bust" => (4.0, 0.6, 0.0, &[]),
            _ => (1.5, 0.5, 0.1, &["head", "chest"]),
        };
        SpringParams {
            stiffness,
            drag,
            gravity_power,
            gravity_dir: [0.0, -1.0, 0.0],
            // Cloth joints are too big to slip into the gap between the knees.
            hit_radius: if super::chains::is_cloth_class(class) {
                0.015
            } else {
                0.008
            },
            collider_groups: groups.iter().map(|s| s.to_string()).collect(),
            center: super::chains::is_cloth_class(class),
        }
    }
}

/// What a source model carried, measured before rigsmith rigged it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceFacts {
    /// It had a skeleton (at least one bone).
    pub skeleton: bool,
    /// Its weights look authored ([`crate::inspect::weights_authored`]).
    pub weights_authored: bool,
}

impl SourceFacts {
    /// The facts of `c`.
    pub fn of(c: &Character) -> SourceFacts {
        SourceFacts {
            skeleton: c.skeleton.as_ref().is_some_and(|s| !s.is_empty()),
            weights_authored: crate::inspect::weights_authored(c),
        }
    }
}

/// The `.rig.json` sidecar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    /// Schema version ([`SIDECAR_VERSION`]).
    pub version: u32,
    /// Body height H, metres.
    pub height: f32,
    /// Whether the source model had a skeleton (`None` in files written before this was
    /// recorded). An unrigged source was fitted and bound here: its chains are only
    /// those built for skirt and hair parts.
    #[serde(default)]
    pub source_skeleton: Option<bool>,
    /// Whether the source model's weights look authored
    /// ([`crate::inspect::weights_authored`], measured on the source, never on
    /// rigsmith's own weights): `false` for an unrigged source.
    pub weights_authored: bool,
    /// Surface class per material name.
    pub surfaces: BTreeMap<String, SurfaceClass>,
    /// The parts, in order.
    pub parts: Vec<PartInfo>,
    /// Cosmetic chains.
    pub chains: Vec<Chain>,
    /// Colliders (measured, or authored when `measured` is false).
    pub colliders: Vec<Collider>,
    /// Sideways links between neighbouring cloth chains.
    pub links: Vec<Link>,
    /// Twist (roll) bones.
    pub twist_bones: Vec<String>,
    /// How each twist bone of a limb follows ([`crate::deform::TwistRule`]): distal
    /// ones take part of the hand's or foot's roll, proximal ones cancel part of their
    /// limb bone's roll. Empty in files written before the rules were recorded.
    #[serde(default)]
    pub twist_rules: Vec<crate::deform::TwistRule>,
    /// The preserve-volume mask per part name: `[vertex, blend]` pairs for the vertices
    /// where dual-quaternion skinning should be blended in
    /// ([`crate::deform::dqs_mask`]; the same weights as the glTF attribute
    /// `_DQS_BLEND`). Empty when not measured.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dqs_blend: BTreeMap<String, Vec<(u32, f32)>>,
    /// Corrective shapes: each one's morph target name on the skin parts, joint, pose,
    /// side and driver ([`crate::deform::correctives::Corrective`]). Empty when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub correctives: Vec<crate::deform::correctives::Corrective>,
    /// Spring parameters per chain class.
    pub springs: BTreeMap<String, SpringParams>,
    /// On-face controls and their shape-key drivers ([`super::face_controls`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub face_controls: Vec<super::face_controls::FaceControl>,
    /// The control rig (`rig --control`), when built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<crate::control::ControlRig>,
    /// A mechanical character's own-bone islands and keyed actions
    /// ([`crate::mech::MechSpec`]), when it was rigged as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mech: Option<crate::mech::MechSpec>,
}

/// Cloth chains longer than this (units of H) get a larger hit radius.
pub const LONG_CLOTH: f32 = 0.275;

/// Rest length of a chain (metres): its bones' heads to their tips.
fn chain_length(ch: &Chain, skel: Option<&Skeleton>) -> f32 {
    let Some(skel) = skel else { return 0.0 };
    ch.bones
        .iter()
        .zip(ch.world_tips(skel))
        .filter_map(|(b, t)| Some((t - skel.bones[skel.find(b)?].head).length()))
        .sum()
}

/// The sidecar path of a model: `dir/hero.glb` -> `dir/hero.rig.json`.
pub fn sidecar_path(model: &Path) -> PathBuf {
    let stem = model
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    model.with_file_name(format!("{stem}.rig.json"))
}

impl Sidecar {
    /// Builds the sidecar of a character from its chains and colliders. The source facts
    /// (`source_skeleton`, `weights_authored`) are measured on `c`: when `c` was rigged
    /// here, record the source's with [`Sidecar::set_source`].
    pub fn build(c: &Character, chains: &[Chain], colliders: &[Collider]) -> Sidecar {
        let surfaces = surface_classes(c, chains);
        let parts = c
            .parts
            .iter()
            .map(|p| PartInfo {
                name: p.name.clone(),
                material: p.material.clone(),
                surface: surfaces
                    .get(p.material.as_ref().unwrap_or(&p.name))
                    .copied()
                    .unwrap_or(SurfaceClass::Other),
                vertices: p.mesh.positions.len(),
                skinned: p.weights.is_some(),
            })
            .collect();
        let mut springs = BTreeMap::new();
        let h = c.height();
        for ch in chains.iter().filter(|c| c.springs()) {
            let p = springs
                .entry(ch.class.clone())
                .or_insert_with(|| SpringParams::for_class(&ch.class));
            // Cloth hit radius and stiffness by chain length: a long skirt swings its
            // hem further, so it needs fatter joints to keep the striding shins out of
            // the gaps between them, and stiffer ones so its many short bones do not
            // fold (both x1 up to 0.275 H of chain, growing to x2 at 0.55 H).
            if is_cloth_class(&ch.class) && h > 0.0 {
                let len = chain_length(ch, c.skeleton.as_ref());
                let k = (len / (LONG_CLOTH * h)).clamp(1.0, 2.0);
                let base = SpringParams::for_class(&ch.class);
                let round = |x: f32| (x * 1000.0).round() / 1000.0;
                p.hit_radius = p.hit_radius.max(round(base.hit_radius * k));
                p.stiffness = p.stiffness.max(round(base.stiffness * k));
            }
        }
        Sidecar {
            version: SIDECAR_VERSION,
            height: c.height(),
            source_skeleton: Some(SourceFacts::of(c).skeleton),
            weights_authored: SourceFacts::of(c).weights_authored,
            surfaces,
            parts,
            chains: chains.to_vec(),
            colliders: colliders.to_vec(),
            links: c
                .skeleton
                .as_ref()
                .map(|s| links(c, s, chains))
                .unwrap_or_default(),
            twist_bones: crate::humanoid::character_twist_bones(c),
            twist_rules: c
                .skeleton
                .as_ref()
                .map(|s| {
                    let roles = crate::humanoid::Roles::of(s, c.vrm.as_ref().map(|v| &v.humanoid));
                    crate::deform::twist_rules(s, &roles)
                })
                .unwrap_or_default(),
            dqs_blend: BTreeMap::new(),
            correctives: Vec::new(),
            springs,
            face_controls: Vec::new(),
            control: None,
            mech: None,
        }
    }

    /// Records what the source model carried ([`SourceFacts::of`] the model as it was
    /// read): [`Sidecar::build`] measures the character it is given, which is
    /// rigsmith's result when the source was rigged here.
    pub fn set_source(&mut self, source: SourceFacts) {
        self.source_skeleton = Some(source.skeleton);
        self.weights_authored = source.weights_authored;
    }

    /// Keeps what an existing sidecar's artist authored: its hand-authored colliders
    /// (`measured: false`, see [`Sidecar::merge_colliders`]) on bones `skel` has, and
    /// its spring parameters per class. Returns one line per authored collider left
    /// out because its bone is gone.
    pub fn keep_authored(&mut self, authored: &Sidecar, skel: &Skeleton) -> Vec<String> {
        let (keep, gone): (Vec<Collider>, Vec<Collider>) = authored
            .colliders
            .iter()
            .filter(|c| !c.measured)
            .cloned()
            .partition(|c| skel.find(&c.bone).is_some());
        self.merge_colliders(&keep);
        for (k, p) in &authored.springs {
            self.springs.insert(k.clone(), p.clone());
        }
        gone.iter()
            .map(|c| {
                format!(
                    "authored collider {:?} left out: its bone {:?} is not in the skeleton",
                    c.name, c.bone
                )
            })
            .collect()
    }

    /// Replaces measured colliders by the authored ones of the same name
    /// (`measured: false`) and adds the other authored ones.
    pub fn merge_colliders(&mut self, authored: &[Collider]) {
        for a in authored.iter().filter(|a| !a.measured) {
            if let Some(m) = self.colliders.iter_mut().find(|m| m.name == a.name) {
                *m = a.clone();
            } else {
                self.colliders.push(a.clone());
            }
        }
    }

    /// Serialises to pretty JSON (deterministic: maps are sorted, lists in rig order).
    pub fn to_string(&self) -> String {
        serde_json::to_string_pretty(self).expect("sidecar serialises") + "\n"
    }

    /// Parses sidecar text; `path` names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Sidecar> {
        let s: Sidecar = serde_json::from_str(text).map_err(|e| {
            Error::format(
                path,
                format!("line {} column {}", e.line(), e.column()),
                e.to_string(),
            )
        })?;
        s.validate(path)?;
        Ok(s)
    }

    /// Reads a sidecar file.
    pub fn read(path: &Path) -> Result<Sidecar> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Sidecar::parse(&text, path)
    }

    /// Writes the sidecar atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::io::atomic::write_atomic(path, self.to_string().as_bytes())
    }

    /// Checks the structure: version, per-bone list lengths, finite numbers, positive
    /// radii. `path` names the file in errors.
    pub fn validate(&self, path: &Path) -> Result<()> {
        let bad = |at: String, msg: &str| Err(Error::format(path, at, msg.to_string()));
        if self.version == 0 || self.version > SIDECAR_VERSION {
            return bad(
                "version".into(),
                &format!(
                    "unsupported version {} (this build reads 1..={SIDECAR_VERSION})",
                    self.version
                ),
            );
        }
        if !(self.height.is_finite() && self.height > 0.0) {
            return bad("height".into(), "must be a positive number of metres");
        }
        for (i, ch) in self.chains.iter().enumerate() {
            if ch.bones.is_empty() {
                return bad(
                    format!("chains[{i}].bones"),
                    "a chain needs at least one bone",
                );
            }
            for (field, len) in [
                ("tips", ch.tips.len()),
                ("hulls", ch.hulls.len()),
                ("neighbours", ch.neighbours.len()),
            ] {
                if len != ch.bones.len() {
                    return bad(
                        format!("chains[{i}].{field}"),
                        &format!("has {len} entries for {} bones", ch.bones.len()),
                    );
                }
            }
            if !ch.hit_radii.is_empty() && ch.hit_radii.len() != ch.bones.len() {
                return bad(
                    format!("chains[{i}].hit_radii"),
                    &format!(
                        "has {} entries for {} bones (or leave it out)",
                        ch.hit_radii.len(),
                        ch.bones.len()
                    ),
                );
            }
            if ch.hit_radii.iter().any(|r| !(r.is_finite() && *r >= 0.0)) {
                return bad(
                    format!("chains[{i}].hit_radii"),
                    "hit radii must be finite and not negative",
                );
            }
            if ch
                .tips
                .iter()
                .flatten()
                .chain(ch.hulls.iter().flatten().flatten())
                .any(|v| !v.is_finite())
            {
                return bad(format!("chains[{i}]"), "non-finite coordinate");
            }
        }
        for (i, col) in self.colliders.iter().enumerate() {
            let ok = match col.shape {
                ColliderShape::Sphere { offset, radius } => {
                    offset.iter().all(|v| v.is_finite()) && radius.is_finite() && radius > 0.0
                }
                ColliderShape::Capsule {
                    offset,
                    tail,
                    radius,
                } => {
                    offset.iter().chain(&tail).all(|v| v.is_finite())
                        && radius.is_finite()
                        && radius > 0.0
                }
                ColliderShape::Plane { offset, normal } => {
                    offset.iter().chain(&normal).all(|v| v.is_finite())
                        && glam::Vec3::from_array(normal).length() > 0.5
                }
            };
            if !ok {
                return bad(
                    format!("colliders[{i}].shape"),
                    "needs finite coordinates, a positive radius and a unit normal",
                );
            }
        }
        for (k, p) in &self.springs {
            let ok = [p.stiffness, p.drag, p.gravity_power, p.hit_radius]
                .iter()
                .all(|v| v.is_finite() && *v >= 0.0)
                && p.drag <= 1.0
                && p.gravity_dir.iter().all(|v| v.is_finite());
            if !ok {
                return bad(
                    format!("springs.{k}"),
                    "parameters must be finite and non-negative, drag at most 1",
                );
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if !(l.rest.is_finite() && l.rest >= 0.0) {
                return bad(
                    format!("links[{i}].rest"),
                    "must be a non-negative distance",
                );
            }
        }
        Ok(())
    }

    /// Checks that every bone the sidecar names exists in `skel`.
    pub fn check_bones(&self, skel: &Skeleton) -> Result<()> {
        let missing = |b: &str| skel.find(b).is_none();
        for (i, ch) in self.chains.iter().enumerate() {
            if let Some(b) = ch.bones.iter().find(|b| missing(b)) {
                return Err(Error::invalid(
                    "sidecar",
                    format!("chains[{i}] names bone {b:?}, which the skeleton lacks"),
                ));
            }
        }
        for (i, col) in self.colliders.iter().enumerate() {
            if missing(&col.bone) {
                return Err(Error::invalid(
                    "sidecar",
                    format!(
                        "colliders[{i}] rides bone {:?}, which the skeleton lacks",
                        col.bone
                    ),
                ));
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            if missing(&l.a) || missing(&l.b) {
                return Err(Error::invalid(
                    "sidecar",
                    format!("links[{i}] names a bone the skeleton lacks"),
                ));
            }
        }
        Ok(())
    }
}

/// Sideways links between cloth chains of the same class: for each bone and each
/// neighbouring chain, the bone of that chain sharing the most vertex weight with it.
fn links(c: &Character, skel: &Skeleton, chains: &[Chain]) -> Vec<Link> {
    let mut where_: BTreeMap<usize, (usize, usize)> = BTreeMap::new(); // bone -> (chain, k)
    for (ci, ch) in chains.iter().enumerate() {
        if !(ch.springs() && is_cloth_class(&ch.class)) {
            continue;
        }
        for (k, b) in ch.bones.iter().enumerate() {
            if let Some(i) = skel.find(b) {
                where_.insert(i, (ci, k));
            }
        }
    }
    let mut shared: BTreeMap<(usize, usize), f32> = BTreeMap::new();
    for p in &c.parts {
        let Some(w) = &p.weights else { continue };
        for list in &w.vertices {
            for a in list {
                for b in list {
                    let (ia, ib) = (a.bone as usize, b.bone as usize);
                    if ia >= ib {
                        continue;
                    }
                    if let (Some(ca), Some(cb)) = (where_.get(&ia), where_.get(&ib)) {
                        if ca.0 != cb.0 && chains[ca.0].class == chains[cb.0].class {
                            *shared.entry((ia, ib)).or_insert(0.0) += a.weight.min(b.weight);
                        }
                    }
                }
            }
        }
    }
    // Best partner per (bone, other chain), from both ends.
    let mut best: BTreeMap<(usize, usize), (usize, f32)> = BTreeMap::new();
    for (&(a, b), &w) in &shared {
        for (x, y) in [(a, b), (b, a)] {
            let key = (x, where_[&y].0);
            let e = best.entry(key).or_insert((y, 0.0));
            if w > e.1 {
                *e = (y, w);
            }
        }
    }
    let mut pairs: BTreeMap<(usize, usize), f32> = BTreeMap::new();
    for (&(x, _), &(y, w)) in &best {
        if w > 0.0 {
            pairs.insert((x.min(y), x.max(y)), w);
        }
    }
    let tip = |i: usize| -> glam::Vec3 {
        let (ci, k) = where_[&i];
        skel.bones[i]
            .rest_matrix()
            .transform_point3(glam::Vec3::from_array(chains[ci].tips[k]))
    };
    pairs
        .into_iter()
        .map(|((a, b), w)| Link {
            a: skel.bones[a].name.clone(),
            b: skel.bones[b].name.clone(),
            rest: (tip(a) - tip(b)).length(),
            weight: (w * 1000.0).round() / 1000.0,
        })
        .collect()
}
