use std::collections::BTreeMap;

use super::{Mesh, MorphTarget, Skeleton, Weights};
use crate::error::{Error, Result};

/// One separate part of a character (body, eyes, a garment, hair...). Parts are never
/// joined: vertex order and count of every part are preserved from input to output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Part {
    /// The part's name (glTF mesh/node name, OBJ object or group).
    pub name: String,
    /// The material's name, if any.
    pub material: Option<String>,
    /// The geometry, in glTF space.
    pub mesh: Mesh,
    /// Skin weights on the character's skeleton, if the part is skinned.
    pub weights: Option<Weights>,
    /// Morph targets (blend shapes).
    pub morphs: Vec<MorphTarget>,
}

/// VRM data carried through from a `.vrm` file for later stages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VrmData {
    /// `0` for VRM 0.x, `1` for VRM 1.0.
    pub version: u8,
    /// VRM humanoid bone name (VRM 1.0 spelling, e.g. `leftUpperArm`) -> skeleton bone name.
    pub humanoid: BTreeMap<String, String>,
    /// The raw spring-bone extension (VRM 0.x `secondaryAnimation` or `VRMC_springBone`).
    pub spring_bone: Option<serde_json::Value>,
    /// The raw meta object.
    pub meta: Option<serde_json::Value>,
}

/// How a material is drawn, as the source file says (glTF `alphaMode`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AlphaMode {
    /// Drawn solid (the glTF default).
    #[default]
    Opaque,
    /// Cut out below an alpha threshold.
    Mask,
    /// Blended (transparent).
    Blend,
}

/// The flags of a material the source file carried, read for classifying surfaces
/// (an inverted-hull outline pass is a single-sided, solid material on an inside-out
/// shell).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MaterialFlags {
    /// Both faces are drawn (glTF `doubleSided`).
    pub double_sided: bool,
    /// How alpha is drawn (glTF `alphaMode`).
    pub alpha_mode: AlphaMode,
    /// Drawn without lighting (`KHR_materials_unlit`).
    pub unlit: bool,
}

/// A character: separate parts, an optional skeleton, and whatever the source carried.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Character {
    /// The parts, in source order.
    pub parts: Vec<Part>,
    /// The skeleton all parts' weights refer to.
    pub skeleton: Option<Skeleton>,
    /// VRM humanoid and spring data, when read from a VRM.
    pub vrm: Option<VrmData>,
    /// Non-fatal problems found while reading (lenient import).
    pub warnings: Vec<String>,
    /// Material name -> the flags the source file gave it (empty for formats without
    /// them: a material missing here has the defaults).
    pub materials: BTreeMap<String, MaterialFlags>,
    /// The user's part-role overrides (`--body`, `--garment`, `--rigid`), used by every
    /// stage that asks [`Character::body`].
    pub body_options: super::body::BodyOptions,
    /// The last [`super::Body`] computed for this geometry (see [`BodyCache`]).
    pub body_cache: BodyCache,
    /// The front was stated when the file was read and the character turned to face +Z
    /// ([`crate::io::space::face_front`], `--facing`): the model check takes +Z as it
    /// is, whatever the toes say.
    pub facing_stated: bool,
}

/// A memo of the last [`BODY_MEMOS`] answers of [`super::Body::of`], keyed by a
/// fingerprint of the parts' names, materials and geometry and of the role overrides:
/// every stage asks for the body, and it is computed once per geometry. Two answers,
/// because binding a character in one part asks with that part told as its skin while
/// the other stages ask with the character's own overrides; with one, the two would
/// replace each other at every turn. A character whose parts change gets a new
/// fingerprint, so a stale body is never returned. Clones share the memo; it never
/// takes part in equality.
#[derive(Clone, Default)]
pub struct BodyCache(std::sync::Arc<std::sync::Mutex<Vec<Memo>>>);

/// How many answers [`BodyCache`] keeps.
const BODY_MEMOS: usize = 2;

/// A fingerprint and the body computed for it.
type Memo = (u64, std::sync::Arc<super::Body>);

impl BodyCache {
    pub(crate) fn get(&self, key: u64) -> Option<std::sync::Arc<super::Body>> {
        let g = self.0.lock().ok()?;
        g.iter().find(|(k, _)| *k == key).map(|(_, b)| b.clone())
    }

    pub(crate) fn put(&self, key: u64, body: std::sync::Arc<super::Body>) {
        if let Ok(mut g) = self.0.lock() {
            g.retain(|(k, _)| *k != key);
            g.insert(0, (key, body));
            g.truncate(BODY_MEMOS);
        }
    }
}

impl std::fmt::Debug for BodyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BodyCache")
    }
}

impl PartialEq for BodyCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Character {
    /// Total number of vertices over all parts.
    pub fn vertex_count(&self) -> usize {
        self.parts.iter().map(|p| p.mesh.positions.len()).sum()
    }

    /// Index of the part with this name.
    pub fn find_part(&self, name: &str) -> Option<usize> {
        self.parts.iter().position(|p| p.name == name)
    }

    /// Bounds over all parts.
    pub fn bounds(&self) -> (glam::Vec3, glam::Vec3) {
        let pts: Vec<glam::Vec3> = self
            .parts
            .iter()
            .flat_map(|p| p.mesh.positions.iter().copied())
            .collect();
        super::mesh::bounds_of(&pts)
    }

    /// Applies a similarity map `m` (rotation, uniform scale, translation) to every part
    /// and the skeleton together: positions, normals, morph deltas, bone heads, tails
    /// and x axes. Weights and vertex order are untouched.
    pub fn transform(&mut self, m: glam::Mat4) {
        if m == glam::Mat4::IDENTITY {
            return;
        }
        let lin = glam::Mat3::from_mat4(m);
        for p in &mut self.parts {
            for v in &mut p.mesh.positions {
                *v = m.transform_point3(*v);
            }
            if let Some(n) = &mut p.mesh.normals {
                for v in n.iter_mut() {
                    *v = (lin * *v).normalize_or_zero();
                }
            }
            for mt in &mut p.morphs {
                for d in &mut mt.position_deltas {
                    *d = lin * *d;
                }
                if let Some(nd) = &mut mt.normal_deltas {
                    for d in nd.iter_mut() {
                        *d = lin * *d;
                    }
                }
            }
        }
        if let Some(s) = &mut self.skeleton {
            s.transform(m);
        }
    }

    /// Whether any part carries weights.
    pub fn is_skinned(&self) -> bool {
        self.skeleton.is_some() && self.parts.iter().any(|p| p.weights.is_some())
    }

    /// Checks every invariant: meshes, skeleton, weights against the skeleton, morph lengths.
    pub fn validate(&self) -> Result<()> {
        if let Some(s) = &self.skeleton {
            s.validate()?;
        }
        let nb = self.skeleton.as_ref().map_or(0, Skeleton::len);
        for p in &self.parts {
            let what = format!("part {:?}", p.name);
            p.mesh.validate(&what)?;
            if let Some(w) = &p.weights {
                if self.skeleton.is_none() {
                    return Err(Error::invalid(
                        what,
                        "has weights but the character has no skeleton",
                    ));
                }
                w.validate(p.mesh.positions.len(), nb, &what)?;
            }
            for m in &p.morphs {
                if m.position_deltas.len() != p.mesh.positions.len() {
                    return Err(Error::invalid(
                        what,
                        format!(
                            "morph {:?} has {} deltas for {} vertices",
                            m.name,
                            m.position_deltas.len(),
                            p.mesh.positions.len()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
