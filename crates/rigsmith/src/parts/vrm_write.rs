//! VRM 1.0 export (beside the sidecar it writes the springs of): the glTF document of a
//! rigged character plus
//!
//! * `VRMC_vrm`: `specVersion` 1.0, `meta` with the license fields ([`VrmMeta`]) and the
//!   humanoid map (`humanBones`: VRM bone name -> node). The required bones (hips,
//!   spine, head, upper/lower arms, hands, upper/lower legs, feet) must be mapped, and
//!   no cloth chain may hang from a limb (the export is refused, naming the chains).
//! * `VRMC_springBone`: one spring per spring chain of the sidecar, its joints the
//!   chain's bones plus an end node at the last bone's measured tip (VRM joints need a
//!   tail node), with per-class parameters (stiffness and gravity scaled from the 1.7 m
//!   reference to the figure's height, hit radius in metres); colliders (sphere and
//!   capsule shapes in their node's space) and collider groups by name; cloth springs
//!   get their root parent as `center`. Inside and plane colliders are written with the
//!   `VRMC_springBone_extended_collider` extension and a sphere fallback.
//! * `VRMC_node_constraint`: a roll constraint (Y axis) on every distal twist bone of
//!   the sidecar's twist rules ([`crate::deform::TwistRule`]): its source the hand or
//!   foot, its weight the rule's. A proximal rule (upper arm, thigh) cancels part of its
//!   limb bone's roll, which needs a negative weight VRM does not allow: those twist
//!   bones get no constraint and follow their limb bone. A twist bone without a rule
//!   gets a roll constraint of weight 0.5, its source the limb bone below it.
//!
//! Node transforms are the skeleton's rest frames (see [`crate::io::gltf`]), so a
//! collider's offset in its bone's rest frame is its offset in node space.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use super::{Collider, ColliderShape, Sidecar, SpringParams};
use crate::error::{Error, Result};
use crate::humanoid::missing_required;
use crate::io::gltf::{build_document, WriteOptions};
use crate::model::{Character, Skeleton};

/// VRM 1.0 meta: who made the avatar and what others may do with it.
#[derive(Debug, Clone, PartialEq)]
pub struct VrmMeta {
    /// Avatar name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// Authors (at least one).
    pub authors: Vec<String>,
    /// License URL (default: the VRM Public License 1.0).
    pub license_url: String,
    /// `onlyAuthor`, `onlySeparatelyLicensedPerson` or `everyone`.
    pub avatar_permission: String,
    /// `personalNonProfit`, `personalProfit` or `corporation`.
    pub commercial_usage: String,
    /// `required` or `unnecessary`.
    pub credit_notation: String,
    /// Whether redistribution is allowed.
    pub allow_redistribution: bool,
    /// `prohibited`, `allowModification` or `allowModificationRedistribution`.
    pub modification: String,
}

impl Default for VrmMeta {
    fn default() -> Self {
        VrmMeta {
            name: "rigsmith character".into(),
            version: "1.0".into(),
            authors: vec!["rigsmith".into()],
            license_url: "https://vrm.dev/licenses/1.0/".into(),
            avatar_permission: "onlyAuthor".into(),
            commercial_usage: "personalNonProfit".into(),
            credit_notation: "required".into(),
            allow_redistribution: false,
            modification: "prohibited".into(),
        }
    }
}

fn r4(v: f32) -> f64 {
    ((v as f64) * 1e5).round() / 1e5
}

fn arr(a: [f32; 3]) -> Value {
    json!([r4(a[0]), r4(a[1]), r4(a[2])])
}

/// Refuses what a VRM cannot hold (see the module docs): no skeleton, sidecar bones
/// missing from it, cloth under a limb, required humanoid bones not mapped, a meta
/// without a name or an author. Returns the skeleton.
fn check_exportable<'a>(
    c: &'a Character,
    humanoid: &BTreeMap<String, String>,
    sc: &Sidecar,
    meta: &VrmMeta,
) -> Result<&'a Skeleton> {
    let skel = c
        .skeleton
        .as_ref()
        .ok_or_else(|| Error::invalid("character", "has no skeleton: a VRM needs a rig"))?;
    sc.check_bones(skel)?;
    let roles = crate::humanoid::Roles::of(skel, Some(humanoid));
    let under_limbs = super::rules::cloth_under_limbs(skel, &roles, &sc.chains);
    if !under_limbs.is_empty() {
        return Err(Error::invalid(
            "VRM export",
            format!(
                "cloth may hang only from the trunk, never from a limb (a skirt under a thigh becomes trousers): {}; rebuild the chains (`hang_cloth_from_trunk`) or re-parent them in the source",
                under_limbs.join(", ")
            ),
        ));
    }
    let missing = missing_required(humanoid);
    if !missing.is_empty() {
        return Err(Error::invalid(
            "VRM humanoid",
            format!("required bones not mapped: {}", missing.join(", ")),
        ));
    }
    if meta.authors.is_empty() || meta.name.is_empty() {
        return Err(Error::invalid(
            "VRM meta",
            "needs a name and at least one author",
        ));
    }
    Ok(skel)
}

/// The skeleton's bones as glTF nodes.
struct BoneNodes<'a> {
    skel: &'a Skeleton,
    /// The node of each bone, in skeleton order.
    nodes: &'a [u32],
}

impl BoneNodes<'_> {
    /// The node of bone `name`; an error naming it when the skeleton has no such bone.
    fn node_of(&self, name: &str) -> Result<usize> {
        let i = self.skel.find(name).ok_or_else(|| {
            Error::invalid(
                "VRM export",
                format!("bone {name:?} is not in the skeleton"),
            )
        })?;
        Ok(self.nodes[i] as usize)
    }
}

/// The collider group names, in the order their first collider comes.
fn group_names(sc: &Sidecar) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for col in &sc.colliders {
        if !names.contains(&col.group) {
            names.push(col.group.clone());
        }
    }
    names
}

/// One `VRMC_springBone` spring per spring chain of `sc`; each chain gets an end node
/// at its last tip, added to `doc`'s nodes under the chain's last bone.
fn springs_json(
    doc: &mut Value,
    bn: &BoneNodes<'_>,
    sc: &Sidecar,
    groups: &[String],
) -> Result<Vec<Value>> {
    let skel = bn.skel;
    let nodes = doc["nodes"]
        .as_array_mut()
        .ok_or_else(|| Error::invalid("glTF document", "no nodes"))?;
    let h = if sc.height > 0.0 {
        sc.height
    } else {
        skel.height()
    };
    let scale = h / 1.7;
    let mut springs = Vec::new();
    for ch in sc.chains.iter().filter(|c| c.springs()) {
        let p = sc
            .springs
            .get(&ch.class)
            .cloned()
            .unwrap_or_else(|| SpringParams::for_class(&ch.class));
        let last = ch.bones.last().expect("validated chains have bones");
        let parent_node = bn.nodes[skel.find(last).expect("checked")] as usize;
        let end = nodes.len();
        let tip = *ch.tips.last().expect("validated");
        nodes.push(json!({"name": format!("{last}_end"), "translation": arr(tip)}));
        let kids = nodes[parent_node]
            .as_object_mut()
            .expect("node objects")
            .entry("children")
            .or_insert_with(|| json!([]));
        kids.as_array_mut()
            .expect("children array")
            .push(json!(end));
        // A joint's hit radius: its chain's own where the rest pose needs a smaller one.
        let hit = |k: usize| {
            ch.hit_radii
                .get(k.min(ch.bones.len() - 1))
                .map_or(p.hit_radius, |r| r.clamp(0.0, p.hit_radius))
                * h
        };
        let joint = |node: usize, k: usize| {
            json!({
                "node": node,
                "hitRadius": r4(hit(k)),
                "stiffness": r4(p.stiffness * scale),
                "gravityPower": r4(p.gravity_power * scale),
                "gravityDir": arr(p.gravity_dir),
                "dragForce": r4(p.drag),
            })
        };
        let mut joints: Vec<Value> = Vec::with_capacity(ch.bones.len() + 1);
        for (k, b) in ch.bones.iter().enumerate() {
            joints.push(joint(bn.nodes[skel.find(b).expect("checked")] as usize, k));
        }
        joints.push(joint(end, ch.bones.len()));
        let gs: Vec<usize> = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| p.collider_groups.contains(g))
            .map(|(i, _)| i)
            .collect();
        let mut spring = json!({"name": ch.bones[0], "joints": joints, "colliderGroups": gs});
        if p.center {
            if let Some(rp) = &ch.root_parent {
                spring["center"] = json!(bn.node_of(rp)?);
            }
        }
        springs.push(spring);
    }
    Ok(springs)
}

/// The colliders and collider groups of `sc`, and whether any needs the
/// extended-collider extension.
fn colliders_json(
    bn: &BoneNodes<'_>,
    sc: &Sidecar,
    group_names: &[String],
) -> Result<(Vec<Value>, Vec<Value>, bool)> {
    let mut colliders = Vec::new();
    let mut groups: Vec<Value> = group_names
        .iter()
        .map(|g| json!({"name": g, "colliders": []}))
        .collect();
    let mut extended = false;
    for (i, col) in sc.colliders.iter().enumerate() {
        let (entry, ext) = collider_json(col, bn.node_of(&col.bone)?);
        extended |= ext;
        colliders.push(entry);
        let g = group_names
            .iter()
            .position(|n| *n == col.group)
            .expect("listed");
        groups[g]["colliders"]
            .as_array_mut()
            .expect("array")
            .push(json!(i));
    }
    Ok((colliders, groups, extended))
}

/// The `VRMC_vrm.meta` object.
fn meta_json(meta: &VrmMeta) -> Value {
    json!({
        "name": meta.name,
        "version": meta.version,
        "authors": meta.authors,
        "licenseUrl": meta.license_url,
        "avatarPermission": meta.avatar_permission,
        "allowExcessivelyViolentUsage": false,
        "allowExcessivelySexualUsage": false,
        "commercialUsage": meta.commercial_usage,
        "allowPoliticalOrReligiousUsage": false,
        "allowAntisocialOrHateUsage": false,
        "creditNotation": meta.credit_notation,
        "allowRedistribution": meta.allow_redistribution,
        "modification": meta.modification,
    })
}

/// Builds the VRM 1.0 GLB bytes (see the module docs).
pub fn vrm_bytes(
    c: &Character,
    humanoid: &BTreeMap<String, String>,
    sc: &Sidecar,
    meta: &VrmMeta,
) -> Result<Vec<u8>> {
    let skel = check_exportable(c, humanoid, sc, meta)?;
    let (root, bin, bone_nodes) = build_document(c, &WriteOptions::default())?;
    let mut doc =
        serde_json::to_value(&root).map_err(|e| Error::invalid("glTF document", e.to_string()))?;
    let bn = BoneNodes {
        skel,
        nodes: &bone_nodes,
    };
    let mut human = serde_json::Map::new();
    for (vrm, bone) in humanoid {
        human.insert(vrm.clone(), json!({"node": bn.node_of(bone)?}));
    }
    let group_names = group_names(sc);
    let springs = springs_json(&mut doc, &bn, sc, &group_names)?;
    let (colliders, groups, extended) = colliders_json(&bn, sc, &group_names)?;
    let constrained = roll_constraints(&mut doc, skel, sc, &bone_nodes);
    let part_nodes = super::vrm_face::part_nodes(&doc, c.parts.len());
    let (expressions, look_at) = super::vrm_face::vrm_face(c, &part_nodes, humanoid);
    doc["extensions"] = json!({
        "VRMC_vrm": {
            "specVersion": "1.0",
            "meta": meta_json(meta),
            "humanoid": {"humanBones": Value::Object(human)},
        },
        "VRMC_springBone": {
            "specVersion": "1.0",
            "colliders": colliders,
            "colliderGroups": groups,
            "springs": springs,
        },
    });
    if let Some(e) = expressions {
        doc["extensions"]["VRMC_vrm"]["expressions"] = e;
    }
    if let Some(l) = look_at {
        doc["extensions"]["VRMC_vrm"]["lookAt"] = l;
    }
    let mut used = vec![json!("VRMC_vrm"), json!("VRMC_springBone")];
    if extended {
        used.push(json!("VRMC_springBone_extended_collider"));
    }
    if constrained > 0 {
        used.push(json!("VRMC_node_constraint"));
    }
    doc["extensionsUsed"] = json!(used);
    let json =
        serde_json::to_vec(&doc).map_err(|e| Error::invalid("VRM document", e.to_string()))?;
    Ok(crate::io::gltf::container::pack(&json, &bin))
}

/// The `VRMC_springBone` entry of one collider on glTF node `node`, and whether it
/// needs the extended-collider extension (inside and plane colliders).
fn collider_json(col: &Collider, node: usize) -> (Value, bool) {
    let mut shape = match col.shape {
        ColliderShape::Sphere { offset, radius } => {
            json!({"sphere": {"offset": arr(offset), "radius": r4(radius)}})
        }
        ColliderShape::Capsule {
            offset,
            tail,
            radius,
        } => {
            json!({"capsule": {"offset": arr(offset), "radius": r4(radius), "tail": arr(tail)}})
        }
        ColliderShape::Plane { offset, .. } => {
            json!({"sphere": {"offset": arr(offset), "radius": 0.0}})
        }
    };
    let mut entry = json!({"node": node});
    let extended = col.inside || matches!(col.shape, ColliderShape::Plane { .. });
    if extended {
        let ext_shape = match col.shape {
            ColliderShape::Plane { offset, normal } => {
                json!({"plane": {"offset": arr(offset), "normal": arr(normal)}})
            }
            ColliderShape::Sphere { offset, radius } => {
                json!({"sphere": {"offset": arr(offset), "radius": r4(radius), "inside": true}})
            }
            ColliderShape::Capsule {
                offset,
                tail,
                radius,
            } => {
                json!({"capsule": {"offset": arr(offset), "radius": r4(radius), "tail": arr(tail), "inside": true}})
            }
        };
        entry["extensions"] = json!({"VRMC_springBone_extended_collider": {"specVersion": "1.0", "shape": ext_shape}});
        // The base shape must not push anything when the extension is unknown.
        if col.inside {
            shape = json!({"sphere": {"offset": [0.0, 0.0, 0.0], "radius": 0.0}});
        }
    }
    entry["shape"] = shape;
    (entry, extended)
}

/// Adds a roll constraint to the node of every twist bone of the sidecar (see the
/// module docs); returns how many were added.
fn roll_constraints(
    doc: &mut Value,
    skel: &crate::model::Skeleton,
    sc: &Sidecar,
    bone_nodes: &[u32],
) -> usize {
    let twist = &sc.twist_bones;
    let children = skel.children();
    let mut constrained = 0;
    for name in twist {
        let Some(i) = skel.find(name) else { continue };
        let rule = sc.twist_rules.iter().find(|r| r.bone == *name);
        let (source, weight) = match rule {
            Some(r) if r.kind == crate::deform::TwistKind::Distal => {
                (skel.find(&r.source), r.weight)
            }
            Some(_) => continue,
            None => (roll_source(skel, &children, twist, i), 0.5),
        };
        let Some(src) = source else { continue };
        let node = bone_nodes[i] as usize;
        let n = doc["nodes"][node].as_object_mut().expect("node object");
        let ext = n.entry("extensions").or_insert_with(|| json!({}));
        ext["VRMC_node_constraint"] = json!({
            "specVersion": "1.0",
            "constraint": {"roll": {"source": bone_nodes[src], "rollAxis": "Y", "weight": weight}}
        });
        constrained += 1;
    }
    constrained
}

/// The limb bone below twist bone `i` (a non-twist child, else a non-twist sibling):
/// the roll source of a twist bone without a rule.
fn roll_source(
    skel: &crate::model::Skeleton,
    children: &[Vec<usize>],
    twist: &[String],
    i: usize,
) -> Option<usize> {
    let is_twist = |k: usize| twist.contains(&skel.bones[k].name);
    children[i]
        .iter()
        .copied()
        .find(|&k| !is_twist(k))
        .or_else(|| {
            skel.bones[i].parent.and_then(|p| {
                children[p]
                    .iter()
                    .copied()
                    .find(|&k| k != i && !is_twist(k))
            })
        })
}

/// Writes `c` as a VRM 1.0 file (atomically). `humanoid` maps VRM bone names to
/// skeleton bone names (the fitter's `FitResult::humanoid`).
pub fn write_vrm(
    path: &Path,
    c: &Character,
    humanoid: &BTreeMap<String, String>,
    sidecar: &Sidecar,
    meta: &VrmMeta,
) -> Result<()> {
    let bytes = vrm_bytes(c, humanoid, sidecar, meta)?;
    crate::io::atomic::write_atomic(path, &bytes)
}
