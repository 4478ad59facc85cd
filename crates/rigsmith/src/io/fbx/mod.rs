//! FBX 7.x reading (binary and ASCII): meshes, skins, skeleton and bind pose.
//!
//! ```no_run
//! use std::path::Path;
//! let c = rigsmith::io::fbx::read_fbx(Path::new("mixamo_character.fbx")).unwrap();
//! println!("{} parts, {} bones", c.parts.len(), c.skeleton.map_or(0, |s| s.len()));
//! ```
//!
//! The reader is the project's own ([`tree`] parses the records; this module reads the
//! scene). It does not build a [`Character`] itself: it writes the scene as a glTF
//! document in memory (joints as nodes at their bind pose, one skin, one primitive per
//! material, weights as `JOINTS_n`/`WEIGHTS_n`) and hands it to the glTF reader, so a
//! character read from FBX gets exactly the same treatment as one read from glTF:
//! bone tails, deform flags, leaf bones, weight repairs and part names follow the same
//! rules ([`super::gltf::read`]).
//!
//! What is read:
//! - **Axes and units**: `GlobalSettings` (`UpAxis`, `FrontAxis`, `CoordAxis` and their
//!   signs; `UnitScaleFactor`, centimetres per unit) map the file into glTF space
//!   (metres, +Y up, facing +Z). A left-handed axis system flips the triangles' winding.
//! - **Models**: `Lcl Translation/Rotation/Scaling` with the rotation order,
//!   pre- and post-rotation, rotation and scaling pivots and offsets, parented through
//!   the `OO` connections.
//! - **Skeleton**: every `LimbNode`/`Root` model and every model a skin cluster links.
//!   Each bone's bind pose is its cluster's `TransformLink`, else its `BindPose` matrix,
//!   else its parent's bind pose times its local transform.
//! - **Meshes**: `Geometry` `Vertices` and `PolygonVertexIndex` (polygons fanned into
//!   triangles), one part per material (`LayerElementMaterial`), normals and UVs
//!   (first layer; by polygon vertex, by control point, direct or indexed: a control
//!   point takes the value of its first corner). A skinned mesh is placed by its
//!   first cluster's `TransformLink * Transform` (the mesh at bind time: `Transform`
//!   maps the geometry into the bone's bind space), others by the model's world
//!   transform and geometric offset. Vertex order is the control points' order (a
//!   part of a multi-material mesh keeps the control points its polygons use, in order).
//! - **Weights**: every cluster's `Indexes`/`Weights`, as written (not renormalized).
//!
//! Not read: animation, blend shapes (a warning says how many were skipped), cameras
//! and lights. FBX 6.x and older are refused by version.

pub mod tree;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use glam::{DMat3, DMat4, DVec3};
use serde_json::{json, Value as Json};

use self::tree::{Document, Node, Value};
use crate::error::{Error, Result};
use crate::model::Character;

/// Reads a `.fbx` file (binary or ASCII 7.x).
pub fn read_fbx(path: &Path) -> Result<Character> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    read_fbx_bytes(&bytes, path)
}

/// Reads FBX bytes; `path` names the file in errors.
pub fn read_fbx_bytes(bytes: &[u8], path: &Path) -> Result<Character> {
    let doc = tree::parse(bytes, path)?;
    read_document(&doc, path)
}

/// Reads a parsed FBX document into a character; `path` names the file in errors.
pub fn read_document(doc: &Document, path: &Path) -> Result<Character> {
    let scene = Scene::new(doc, path)?;
    let (json, bin, warnings) = scene.to_gltf()?;
    let places = fbx_places(&json);
    let gl = super::gltf::accessor::Doc::load(path, json, Some(&bin))?;
    let mut c = super::gltf::read::read_scene(&gl)?.character;
    let mut w = warnings;
    w.extend(c.warnings.iter().map(|x| in_fbx_terms(x, &places)));
    c.warnings = w;
    Ok(c)
}

/// Per mesh of the glTF document an FBX scene became, per primitive: where it came
/// from in the FBX file and the part it became (`Objects.Geometry "Knight" (part
/// Knight.1)`; a geometry of one material is one part of its own name).
fn fbx_places(json: &Json) -> Vec<Vec<String>> {
    let meshes = json["meshes"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    meshes
        .iter()
        .map(|m| {
            let name = m["name"].as_str().unwrap_or("");
            let n = m["primitives"].as_array().map_or(0, Vec::len);
            (0..n)
                .map(|j| match n {
                    1 => format!("Objects.Geometry {name:?} (part {name})"),
                    _ => format!("Objects.Geometry {name:?} (part {name}.{j})"),
                })
                .collect()
        })
        .collect()
}

/// A warning of the glTF reader on the document an FBX scene became, in the FBX
/// file's terms: `meshes[i].primitives[j]` named as the geometry it came from, and the
/// attribute as the FBX layer (`LayerElementNormal`, `LayerElementUV`, the skin's
/// weights).
fn in_fbx_terms(warning: &str, places: &[Vec<String>]) -> String {
    let parse = || -> Option<(usize, usize, &str)> {
        let rest = warning.strip_prefix("meshes[")?;
        let (i, rest) = rest.split_once("].primitives[")?;
        let (j, rest) = rest.split_once(']')?;
        Some((i.parse().ok()?, j.parse().ok()?, rest))
    };
    let Some((i, j, rest)) = parse() else {
        return warning.to_string();
    };
    let Some(place) = places.get(i).and_then(|p| p.get(j)) else {
        return warning.to_string();
    };
    let rest = if let Some(r) = rest.strip_prefix(".attributes.NORMAL") {
        format!(".LayerElementNormal{r}")
    } else if let Some(r) = rest.strip_prefix(".attributes.TEXCOORD_0") {
        format!(".LayerElementUV{r}")
    } else if let Some((_, r)) = rest
        .strip_prefix(".attributes.WEIGHTS_")
        .and_then(|r| r.split_once(':'))
    {
        format!(".Skin (its clusters' Weights):{r}")
    } else {
        rest.to_string()
    };
    format!("{place}{rest}")
}

/// The `Properties70` value `name` of a node (the values after the four header
/// strings: one number, or three for a vector).
fn p70<'a>(node: &'a Node, name: &str) -> Option<&'a [Value]> {
    node.child("Properties70")?
        .children_named("P")
        .find(|p| p.values.first().and_then(Value::as_str) == Some(name))
        .map(|p| p.values.get(4..).unwrap_or(&[]))
}

fn p70_f64(node: &Node, name: &str) -> Option<f64> {
    p70(node, name)?.first()?.as_f64()
}

fn p70_vec(node: &Node, name: &str) -> Option<DVec3> {
    let v = p70(node, name)?;
    let f = |i: usize| v.get(i).and_then(Value::as_f64);
    Some(DVec3::new(f(0)?, f(1)?, f(2)?))
}

/// A rotation from Euler angles in degrees, applied in `order` (FBX `RotationOrder`:
/// 0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX; the first letter is applied first).
fn euler(deg: DVec3, order: i64) -> DMat4 {
    let r = deg * (std::f64::consts::PI / 180.0);
    let x = DMat4::from_rotation_x(r.x);
    let y = DMat4::from_rotation_y(r.y);
    let z = DMat4::from_rotation_z(r.z);
    match order {
        1 => y * z * x,
        2 => x * z * y,
        3 => z * x * y,
        4 => y * x * z,
        5 => x * y * z,
        _ => z * y * x,
    }
}

/// A model's transform relative to its parent, as FBX composes it:
/// `T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1`.
fn local_transform(m: &Node) -> DMat4 {
    let v = |n: &str, d: DVec3| p70_vec(m, n).unwrap_or(d);
    let t = DMat4::from_translation;
    let order = p70(m, "RotationOrder")
        .and_then(|v| v.first())
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let rp = v("RotationPivot", DVec3::ZERO);
    let sp = v("ScalingPivot", DVec3::ZERO);
    t(v("Lcl Translation", DVec3::ZERO))
        * t(v("RotationOffset", DVec3::ZERO))
        * t(rp)
        * euler(v("PreRotation", DVec3::ZERO), 0)
        * euler(v("Lcl Rotation", DVec3::ZERO), order)
        * euler(v("PostRotation", DVec3::ZERO), 0).inverse()
        * t(-rp)
        * t(v("ScalingOffset", DVec3::ZERO))
        * t(sp)
        * DMat4::from_scale(v("Lcl Scaling", DVec3::ONE))
        * t(-sp)
}

/// A model's geometric transform (applies to its geometry only, not its children).
fn geometric_transform(m: &Node) -> DMat4 {
    let v = |n: &str, d: DVec3| p70_vec(m, n).unwrap_or(d);
    DMat4::from_translation(v("GeometricTranslation", DVec3::ZERO))
        * euler(v("GeometricRotation", DVec3::ZERO), 0)
        * DMat4::from_scale(v("GeometricScaling", DVec3::ONE))
}

fn matrix_of(v: &Value) -> Option<DMat4> {
    let f = v.floats()?;
    let a: [f64; 16] = f.try_into().ok()?;
    let m = DMat4::from_cols_array(&a);
    m.is_finite().then_some(m)
}

/// The object's class suffix and type: `Model` records carry `(id, "Name\0\x01Model",
/// "LimbNode")`.
fn kind(n: &Node) -> &str {
    n.values.get(2).and_then(Value::as_str).unwrap_or("")
}

fn name_of(n: &Node) -> String {
    n.values
        .get(1)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

struct Scene<'a> {
    path: &'a Path,
    /// Object id -> record.
    objects: HashMap<i64, &'a Node>,
    /// Object ids in file order.
    order: Vec<i64>,
    /// `OO` connections: child -> parents, parent -> children (file order).
    parents: HashMap<i64, Vec<i64>>,
    children: HashMap<i64, Vec<i64>>,
    /// File space -> glTF space (axes and units).
    axes: DMat4,
}

impl<'a> Scene<'a> {
    fn new(doc: &'a Document, path: &'a Path) -> Result<Scene<'a>> {
        let objs = doc.node("Objects").ok_or_else(|| {
            Error::format(
                path,
                "Objects",
                "the file has no Objects record (truncated or not a scene?)",
            )
        })?;
        let mut objects = HashMap::new();
        let mut order = Vec::new();
        for o in &objs.children {
            if let Some(id) = o.values.first().and_then(Value::as_i64) {
                objects.insert(id, o);
                order.push(id);
            }
        }
        let mut parents: HashMap<i64, Vec<i64>> = HashMap::new();
        let mut children: HashMap<i64, Vec<i64>> = HashMap::new();
        if let Some(conns) = doc.node("Connections") {
            for c in conns.children_named("C") {
                let kind = c.values.first().and_then(Value::as_str).unwrap_or("");
                let (Some(a), Some(b)) = (
                    c.values.get(1).and_then(Value::as_i64),
                    c.values.get(2).and_then(Value::as_i64),
                ) else {
                    continue;
                };
                if kind == "OO" {
                    parents.entry(a).or_default().push(b);
                    children.entry(b).or_default().push(a);
                }
            }
        }
        let axes = axis_system(doc);
        Ok(Scene {
            path,
            objects,
            order,
            parents,
            children,
            axes,
        })
    }

    fn err(&self, at: impl Into<String>, msg: impl Into<String>) -> Error {
        Error::format(self.path, at, msg)
    }

    /// The objects of record type `rec` (`Model`, `Geometry`...) connected as children
    /// of `id`.
    fn kids(&self, id: i64, rec: &str) -> Vec<i64> {
        self.children
            .get(&id)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|c| self.objects.get(c).is_some_and(|n| n.name == rec))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first parent of record type `rec`.
    fn parent(&self, id: i64, rec: &str) -> Option<i64> {
        self.parents
            .get(&id)?
            .iter()
            .copied()
            .find(|p| self.objects.get(p).is_some_and(|n| n.name == rec))
    }

    fn model_parent(&self, id: i64) -> Option<i64> {
        self.parent(id, "Model")
    }

    /// The evaluated world transform of a model (file space), by its parents.
    fn world(&self, id: i64, memo: &mut HashMap<i64, DMat4>) -> DMat4 {
        if let Some(m) = memo.get(&id) {
            return *m;
        }
        // Iterative up the chain (no recursion on untrusted depth); a cycle stops.
        let mut chain = vec![id];
        let mut cur = id;
        while let Some(p) = self.model_parent(cur) {
            if chain.contains(&p) || memo.contains_key(&p) {
                if memo.contains_key(&p) {
                    chain.push(p);
                }
                break;
            }
            chain.push(p);
            cur = p;
        }
        let mut acc = DMat4::IDENTITY;
        for &m in chain.iter().rev() {
            acc = match memo.get(&m) {
                Some(w) => *w,
                None => {
                    let w = acc * local_transform(self.objects[&m]);
                    memo.insert(m, w);
                    w
                }
            };
        }
        acc
    }

    /// File-space world matrix of a joint -> glTF space: its position in metres and
    /// its frame made orthonormal (Y kept, X made orthogonal to it), since a bone has a
    /// position and axes but no scale (an armature scaled by 100 is common).
    fn to_gl(&self, m: DMat4) -> DMat4 {
        let g = self.axes * m;
        let y = g.y_axis.truncate().try_normalize().unwrap_or(DVec3::Y);
        let x0 = g.x_axis.truncate();
        let z = x0
            .cross(y)
            .try_normalize()
            .unwrap_or_else(|| y.any_orthonormal_vector());
        let x = y.cross(z);
        DMat4::from_cols(
            x.extend(0.0),
            y.extend(0.0),
            z.extend(0.0),
            g.w_axis.truncate().extend(1.0),
        )
    }

    /// The bones (limb nodes and the models skin clusters link), in file order, and the
    /// links' bind matrices (file space).
    fn bone_ids(&self) -> (Vec<i64>, HashMap<i64, DMat4>) {
        let mut link_bind: HashMap<i64, DMat4> = HashMap::new();
        let mut is_bone: Vec<i64> = Vec::new();
        for &id in &self.order {
            let n = self.objects[&id];
            if n.name == "Model" && matches!(kind(n), "LimbNode" | "Root") {
                is_bone.push(id);
            }
            if n.name == "Deformer" && kind(n) == "Cluster" {
                if let Some(b) = self.kids(id, "Model").first().copied() {
                    if !is_bone.contains(&b) {
                        is_bone.push(b);
                    }
                    if let Some(m) = n.child_value("TransformLink").and_then(matrix_of) {
                        link_bind.entry(b).or_insert(m);
                    }
                }
            }
        }
        (is_bone, link_bind)
    }

    /// The matrices of the bind pose records, by node id (the first record wins).
    fn bind_pose_records(&self) -> HashMap<i64, DMat4> {
        let mut pose_bind: HashMap<i64, DMat4> = HashMap::new();
        for &id in &self.order {
            let n = self.objects[&id];
            if n.name == "Pose" && kind(n) == "BindPose" {
                for pn in n.children_named("PoseNode") {
                    if let (Some(nid), Some(m)) = (
                        pn.child_value("Node").and_then(Value::as_i64),
                        pn.child_value("Matrix").and_then(matrix_of),
                    ) {
                        pose_bind.entry(nid).or_insert(m);
                    }
                }
            }
        }
        pose_bind
    }

    /// The nearest ancestor of bone `b` that is a bone (`None` for a root bone).
    fn bone_parent(&self, b: i64, bone_set: &HashSet<i64>) -> Option<i64> {
        let mut cur = b;
        let mut steps = 0;
        while let Some(p) = self.model_parent(cur) {
            if bone_set.contains(&p) {
                return Some(p);
            }
            cur = p;
            steps += 1;
            if steps > 10_000 {
                break;
            }
        }
        None
    }

    /// Bind world of each bone (file space): its cluster link, its bind pose, or its
    /// parent bone's bind times its evaluated transform relative to that parent.
    fn bind_worlds(
        &self,
        is_bone: &[i64],
        bone_set: &HashSet<i64>,
        link_bind: &HashMap<i64, DMat4>,
        memo: &mut HashMap<i64, DMat4>,
    ) -> Result<HashMap<i64, DMat4>> {
        let pose_bind = self.bind_pose_records();
        let mut bind: HashMap<i64, DMat4> = HashMap::new();
        let mut pending: Vec<i64> = is_bone.to_vec();
        let mut guard = 0;
        while !pending.is_empty() && guard <= is_bone.len() + 1 {
            guard += 1;
            pending.retain(|&b| {
                let known = link_bind.get(&b).or(pose_bind.get(&b)).copied();
                let w = match (known, self.bone_parent(b, bone_set)) {
                    (Some(m), _) => Some(m),
                    (None, None) => Some(self.world(b, memo)),
                    (None, Some(p)) => bind.get(&p).map(|pb| {
                        let pw = self.world(p, memo);
                        let bw = self.world(b, memo);
                        *pb * pw.inverse() * bw
                    }),
                };
                match w {
                    Some(w) => {
                        bind.insert(b, w);
                        false
                    }
                    None => true,
                }
            });
        }
        if !pending.is_empty() {
            return Err(self.err("Connections", "the bones' parent links form a cycle"));
        }
        Ok(bind)
    }

    /// Writes the scene as a glTF document (JSON and its one buffer) plus warnings.
    fn to_gltf(&self) -> Result<(Json, Vec<u8>, Vec<String>)> {
        let mut warnings = Vec::new();
        let mut memo = HashMap::new();
        // Bones in file order, parents first (bone parent = nearest bone ancestor).
        let (is_bone, link_bind) = self.bone_ids();
        let bone_set: HashSet<i64> = is_bone.iter().copied().collect();
        let bone_parent = |b: i64| self.bone_parent(b, &bone_set);
        let bind = self.bind_worlds(&is_bone, &bone_set, &link_bind, &mut memo)?;

        let mut doc = GlBuilder::default();
        let bone_index: HashMap<i64, usize> =
            is_bone.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let gl_world: Vec<DMat4> = is_bone.iter().map(|b| self.to_gl(bind[b])).collect();
        let mut node_children: Vec<Vec<usize>> = vec![Vec::new(); is_bone.len()];
        let mut roots = Vec::new();
        for (i, &b) in is_bone.iter().enumerate() {
            match bone_parent(b) {
                Some(p) => node_children[bone_index[&p]].push(i),
                None => roots.push(i),
            }
        }
        for (i, &b) in is_bone.iter().enumerate() {
            let local = match bone_parent(b) {
                Some(p) => gl_world[bone_index[&p]].inverse() * gl_world[i],
                None => gl_world[i],
            };
            if !local.is_finite() {
                return Err(self.err(
                    format!("Objects.Model {:?}", name_of(self.objects[&b])),
                    "the bone's bind transform cannot be inverted (a zero scale?)",
                ));
            }
            let mut node = json!({
                "name": name_of(self.objects[&b]),
                "matrix": local.to_cols_array().iter().map(|&x| x as f32).collect::<Vec<_>>(),
            });
            if !node_children[i].is_empty() {
                node["children"] = json!(node_children[i]);
            }
            doc.nodes.push(node);
        }
        let mut scene_nodes: Vec<usize> = roots;

        // Meshes.
        let mut blend_shapes = 0usize;
        let mut materials: Vec<String> = Vec::new();
        let mut any_skin = false;
        for &id in &self.order {
            let m = self.objects[&id];
            if m.name != "Model" || kind(m) != "Mesh" {
                continue;
            }
            let Some(gid) = self.kids(id, "Geometry").first().copied() else {
                continue;
            };
            let g = self.objects[&gid];
            let gname = name_of(m);
            let at = format!("Objects.Geometry {:?}", name_of(g));
            let mats: Vec<String> = self
                .kids(id, "Material")
                .iter()
                .map(|&mid| name_of(self.objects[&mid]))
                .collect();
            let geo = Geometry::read(g, &at, self)?;
            let GeometrySkin {
                weights: skin,
                mesh_bind,
                skinned,
                blend_shapes: shapes,
            } = self.geometry_skin(gid, &at, geo.positions.len(), &bone_index, &mut warnings)?;
            blend_shapes += shapes;
            // Where the geometry goes: the mesh at bind time for a skin, else the model.
            let place = if skinned {
                mesh_bind.unwrap_or_else(|| self.world(id, &mut memo))
            } else {
                self.world(id, &mut memo) * geometric_transform(m)
            };
            let place = self.axes * place;
            let mesh_index = doc.meshes.len();
            let mut prims = Vec::new();
            for (mat, polys) in geo.by_material() {
                let mat_name = mats
                    .get(mat)
                    .cloned()
                    .unwrap_or_else(|| format!("{gname}.material{mat}"));
                let mi = match materials.iter().position(|n| *n == mat_name) {
                    Some(i) => i,
                    None => {
                        materials.push(mat_name);
                        materials.len() - 1
                    }
                };
                prims.push(doc.primitive(&geo, &polys, &skin, place, skinned, mi, self.flipped()));
            }
            if prims.is_empty() {
                continue;
            }
            doc.meshes.push(json!({"name": gname, "primitives": prims}));
            let mut node = json!({"name": gname, "mesh": mesh_index});
            if skinned && !is_bone.is_empty() {
                node["skin"] = json!(0);
                any_skin = true;
            }
            scene_nodes.push(doc.nodes.len());
            doc.nodes.push(node);
        }
        if blend_shapes > 0 {
            warnings.push(format!(
                "{blend_shapes} blend shape deformers are not read (FBX morph targets are skipped)"
            ));
        }
        if doc.meshes.is_empty() {
            return Err(self.err("Objects", "the file has no meshes with polygons"));
        }
        let mut root = json!({
            "asset": {"version": "2.0", "generator": "rigsmith FBX reader"},
            "scene": 0,
            "scenes": [{"nodes": scene_nodes}],
            "nodes": doc.nodes,
            "meshes": doc.meshes,
            "materials": materials.iter().map(|n| json!({"name": n})).collect::<Vec<_>>(),
        });
        if any_skin {
            let ibm: Vec<f32> = gl_world
                .iter()
                .flat_map(|w| w.inverse().to_cols_array().map(|x| x as f32))
                .collect();
            let acc = doc.accessor_f32(&ibm, "MAT4", is_bone.len());
            root["skins"] = json!([{"joints": (0..is_bone.len()).collect::<Vec<_>>(), "inverseBindMatrices": acc}]);
        }
        root["accessors"] = json!(doc.accessors);
        root["bufferViews"] = json!(doc.views);
        root["buffers"] = json!([{"byteLength": doc.bin.len()}]);
        Ok((root, doc.bin, warnings))
    }

    /// The skin of geometry `gid` (at `at` in the file, `points` control points): each
    /// point's (bone index, weight) pairs from its skin clusters, the mesh's bind matrix,
    /// and how many blend shape deformers it has (not read). Cluster indexes that are not
    /// control points are skipped with a warning.
    fn geometry_skin(
        &self,
        gid: i64,
        at: &str,
        points: usize,
        bone_index: &HashMap<i64, usize>,
        warnings: &mut Vec<String>,
    ) -> Result<GeometrySkin> {
        let mut out = GeometrySkin {
            weights: vec![Vec::new(); points],
            mesh_bind: None,
            skinned: false,
            blend_shapes: 0,
        };
        for did in self.kids(gid, "Deformer") {
            let d = self.objects[&did];
            match kind(d) {
                "Skin" => {}
                "BlendShape" => {
                    out.blend_shapes += 1;
                    continue;
                }
                _ => continue,
            }
            for cid in self.kids(did, "Deformer") {
                let c = self.objects[&cid];
                let cat = format!("{at}.Skin.Cluster {:?}", name_of(c));
                let Some(bone) = self.kids(cid, "Model").first().copied() else {
                    continue;
                };
                out.skinned = true;
                // `Transform` maps the geometry into the bone's bind space and
                // `TransformLink` is the bone's bind pose: together, the mesh at bind.
                if out.mesh_bind.is_none() {
                    let t = c.child_value("Transform").and_then(matrix_of);
                    let l = c.child_value("TransformLink").and_then(matrix_of);
                    out.mesh_bind = t.zip(l).map(|(t, l)| l * t);
                }
                let idx = c
                    .child_value("Indexes")
                    .and_then(Value::ints)
                    .unwrap_or_default();
                let wts = c
                    .child_value("Weights")
                    .and_then(Value::floats)
                    .unwrap_or_default();
                if idx.len() != wts.len() {
                    return Err(self.err(
                        cat,
                        format!("{} Indexes but {} Weights", idx.len(), wts.len()),
                    ));
                }
                let bi = bone_index[&bone];
                let mut bad = 0usize;
                for (&v, &w) in idx.iter().zip(&wts) {
                    match usize::try_from(v).ok().filter(|&v| v < out.weights.len()) {
                        Some(v) if w != 0.0 => out.weights[v].push((bi, w as f32)),
                        Some(_) => {}
                        None => bad += 1,
                    }
                }
                if bad > 0 {
                    warnings.push(format!(
                        "{cat}: {bad} indexes are not control points of the mesh ({} of them); skipped",
                        out.weights.len()
                    ));
                }
            }
        }
        Ok(out)
    }

    /// Whether the axis system is left-handed (triangles are wound the other way).
    fn flipped(&self) -> bool {
        DMat3::from_mat4(self.axes).determinant() < 0.0
    }
}

/// The file-space -> glTF-space map from `GlobalSettings` (axes, then centimetres per
/// unit to metres).
fn axis_system(doc: &Document) -> DMat4 {
    let gs = doc.node("GlobalSettings");
    let int = |n: &str, d: i64| {
        gs.and_then(|g| p70(g, n))
            .and_then(|v| v.first())
            .and_then(Value::as_i64)
            .unwrap_or(d)
    };
    let axis = |a: i64, s: i64| -> DVec3 {
        let mut v = DVec3::ZERO;
        v[a.clamp(0, 2) as usize] = if s < 0 { -1.0 } else { 1.0 };
        v
    };
    let (up, upx) = (int("UpAxis", 1), int("UpAxisSign", 1));
    let (front, frontx) = (int("FrontAxis", 2), int("FrontAxisSign", 1));
    let (coord, coordx) = (int("CoordAxis", 0), int("CoordAxisSign", 1));
    let distinct = up != front && up != coord && front != coord;
    // Rows: glTF X, Y, Z as combinations of the file's axes.
    let rot = if distinct {
        DMat3::from_cols(axis(coord, coordx), axis(up, upx), axis(front, frontx)).transpose()
    } else {
        DMat3::IDENTITY
    };
    let cm = gs
        .and_then(|g| p70_f64(g, "UnitScaleFactor"))
        .filter(|u| u.is_finite() && *u > 0.0)
        .unwrap_or(1.0);
    DMat4::from_mat3(rot) * DMat4::from_scale(DVec3::splat(cm / 100.0))
}

/// A mesh's geometry as the file holds it.
/// The polygons of `PolygonVertexIndex` (a negative index, bitwise negated, ends a
/// polygon), each with the index of its first corner; every index must be one of the
/// `points` control points and the last polygon closed.
fn polygons_of(
    pvi: &[i64],
    points: usize,
    at: &str,
    s: &Scene,
) -> Result<Vec<(Vec<usize>, usize)>> {
    let n = points as i64;
    let mut polygons = Vec::new();
    let mut cur = Vec::new();
    let mut first = 0usize;
    for (k, &i) in pvi.iter().enumerate() {
        let (v, end) = if i < 0 { (!i, true) } else { (i, false) };
        if v >= n {
            return Err(s.err(
                format!("{at}.PolygonVertexIndex[{k}]"),
                format!("index {v} but the mesh has {n} vertices"),
            ));
        }
        cur.push(v as usize);
        if end {
            polygons.push((std::mem::take(&mut cur), first));
            first = k + 1;
        }
    }
    if !cur.is_empty() {
        return Err(s.err(
            format!("{at}.PolygonVertexIndex"),
            "the last polygon is not closed (its last index must be negative)",
        ));
    }
    Ok(polygons)
}

/// A layer element's `MappingInformationType` (empty when it has none).
fn mapping_of(l: &Node) -> &str {
    l.child_value("MappingInformationType")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The material index of each of `count` polygons from `LayerElementMaterial` (0 where
/// there is none; one for all unless mapped by polygon).
fn polygon_materials(g: &Node, count: usize) -> Vec<usize> {
    let mut materials = vec![0usize; count];
    if let Some(l) = g.child("LayerElementMaterial") {
        let mapping = mapping_of(l);
        let m = l
            .child_value("Materials")
            .and_then(Value::ints)
            .unwrap_or_default();
        match mapping {
            "ByPolygon" => {
                for (p, mat) in materials.iter_mut().enumerate() {
                    *mat = m.get(p).copied().unwrap_or(0).max(0) as usize;
                }
            }
            _ => {
                let all = m.first().copied().unwrap_or(0).max(0) as usize;
                materials.iter_mut().for_each(|x| *x = all);
            }
        }
    }
    materials
}

/// What the skin clusters of one geometry say (see `Scene::geometry_skin`).
struct GeometrySkin {
    /// Per control point, (bone index, weight) pairs (zero weights dropped).
    weights: Vec<Vec<(usize, f32)>>,
    /// The mesh's world matrix at bind time (file space), from the first cluster.
    mesh_bind: Option<DMat4>,
    /// Whether any cluster links a bone.
    skinned: bool,
    /// Blend shape deformers found (not read).
    blend_shapes: usize,
}

struct Geometry {
    positions: Vec<DVec3>,
    /// Polygons: control point indices and the corner index of their first corner.
    polygons: Vec<(Vec<usize>, usize)>,
    /// Per corner normals and UVs (when the file has them).
    normals: Option<Vec<DVec3>>,
    uvs: Option<Vec<[f64; 2]>>,
    /// Material index per polygon.
    materials: Vec<usize>,
}

impl Geometry {
    fn read(g: &Node, at: &str, s: &Scene) -> Result<Geometry> {
        let verts = g
            .child_value("Vertices")
            .and_then(Value::floats)
            .ok_or_else(|| {
                s.err(
                    format!("{at}.Vertices"),
                    "missing or not an array of numbers",
                )
            })?;
        if verts.len() % 3 != 0 {
            return Err(s.err(
                format!("{at}.Vertices"),
                format!("{} numbers, not a multiple of 3", verts.len()),
            ));
        }
        let positions: Vec<DVec3> = verts
            .chunks_exact(3)
            .map(|c| DVec3::new(c[0], c[1], c[2]))
            .collect();
        if let Some(i) = positions.iter().position(|p| !p.is_finite()) {
            return Err(s.err(
                format!("{at}.Vertices"),
                format!("vertex {i} is not finite"),
            ));
        }
        let pvi = g
            .child_value("PolygonVertexIndex")
            .and_then(Value::ints)
            .ok_or_else(|| {
                s.err(
                    format!("{at}.PolygonVertexIndex"),
                    "missing or not an array of integers",
                )
            })?;
        let polygons = polygons_of(&pvi, positions.len(), at, s)?;
        let corners = pvi.len();
        let layer =
            |name: &str, data: &str, index: &str, width: usize| -> Result<Option<Vec<Vec<f64>>>> {
                let Some(l) = g.child(name) else {
                    return Ok(None);
                };
                let lat = format!("{at}.{name}");
                let mapping = mapping_of(l);
                let reference = l
                    .child_value("ReferenceInformationType")
                    .and_then(Value::as_str)
                    .unwrap_or("Direct");
                let Some(vals) = l.child_value(data).and_then(Value::floats) else {
                    return Ok(None);
                };
                let items: Vec<Vec<f64>> = vals.chunks_exact(width).map(<[f64]>::to_vec).collect();
                let idx: Option<Vec<i64>> = if reference == "IndexToDirect" || reference == "Index"
                {
                    Some(l.child_value(index).and_then(Value::ints).ok_or_else(|| {
                        s.err(
                            format!("{lat}.{index}"),
                            "IndexToDirect without an index array",
                        )
                    })?)
                } else {
                    None
                };
                let get = |k: usize| -> Result<Vec<f64>> {
                    let j = match &idx {
                        Some(ix) => ix.get(k).copied().unwrap_or(-1),
                        None => k as i64,
                    };
                    usize::try_from(j)
                        .ok()
                        .and_then(|j| items.get(j))
                        .cloned()
                        .ok_or_else(|| {
                            s.err(
                                format!("{lat}.{data}"),
                                format!("element {k} refers past the {} values", items.len()),
                            )
                        })
                };
                let per_corner: Vec<Vec<f64>> = match mapping {
                    "ByPolygonVertex" => (0..corners).map(get).collect::<Result<_>>()?,
                    "ByControlPoint" | "ByVertice" | "ByVertex" => {
                        let mut out = vec![Vec::new(); corners];
                        for (poly, first) in &polygons {
                            for (c, &v) in poly.iter().enumerate() {
                                out[first + c] = get(v)?;
                            }
                        }
                        out
                    }
                    _ => return Ok(None),
                };
                Ok(Some(per_corner))
            };
        let normals = layer("LayerElementNormal", "Normals", "NormalsIndex", 3)?.map(|v| {
            v.into_iter()
                .map(|n| DVec3::new(n[0], n[1], n[2]))
                .collect()
        });
        let uvs = layer("LayerElementUV", "UV", "UVIndex", 2)?
            .map(|v| v.into_iter().map(|u| [u[0], u[1]]).collect());
        let materials = polygon_materials(g, polygons.len());
        Ok(Geometry {
            positions,
            polygons,
            normals,
            uvs,
            materials,
        })
    }

    /// The polygons of each material, in material order.
    fn by_material(&self) -> BTreeMap<usize, Vec<usize>> {
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (p, &m) in self.materials.iter().enumerate() {
            out.entry(m).or_default().push(p);
        }
        out
    }
}

/// The glTF document being written: nodes, meshes, accessors and the buffer.
#[derive(Default)]
struct GlBuilder {
    nodes: Vec<Json>,
    meshes: Vec<Json>,
    accessors: Vec<Json>,
    views: Vec<Json>,
    bin: Vec<u8>,
}

impl GlBuilder {
    fn view(&mut self, bytes: &[u8]) -> usize {
        while self.bin.len() % 4 != 0 {
            self.bin.push(0);
        }
        let off = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views
            .push(json!({"buffer": 0, "byteOffset": off, "byteLength": bytes.len()}));
        self.views.len() - 1
    }

    fn accessor_f32(&mut self, v: &[f32], ty: &str, count: usize) -> usize {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let view = self.view(&bytes);
        let mut a = json!({"bufferView": view, "componentType": 5126, "count": count, "type": ty});
        if ty == "VEC3" && count > 0 {
            let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
            for p in v.chunks_exact(3) {
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn accessor_u32(&mut self, v: &[u32], ty: &str, component: u32, count: usize) -> usize {
        let bytes: Vec<u8> = if component == 5123 {
            v.iter().flat_map(|&x| (x as u16).to_le_bytes()).collect()
        } else {
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        };
        let view = self.view(&bytes);
        self.accessors.push(
            json!({"bufferView": view, "componentType": component, "count": count, "type": ty}),
        );
        self.accessors.len() - 1
    }

    /// One primitive: the polygons `polys` of `geo`, with the control points they use
    /// (in order; all of them when the mesh has one material), placed by `place`.
    #[allow(clippy::too_many_arguments)]
    fn primitive(
        &mut self,
        geo: &Geometry,
        polys: &[usize],
        skin: &[Vec<(usize, f32)>],
        place: DMat4,
        skinned: bool,
        material: usize,
        flip: bool,
    ) -> Json {
        let nv = geo.positions.len();
        let mut used = vec![false; nv];
        let mut first_corner = vec![usize::MAX; nv];
        for &p in polys {
            let (poly, first) = &geo.polygons[p];
            for (c, &v) in poly.iter().enumerate() {
                used[v] = true;
                if first_corner[v] == usize::MAX {
                    first_corner[v] = first + c;
                }
            }
        }
        let whole = polys.len() == geo.polygons.len();
        let keep: Vec<usize> = (0..nv).filter(|&v| whole || used[v]).collect();
        let mut remap = vec![u32::MAX; nv];
        for (i, &v) in keep.iter().enumerate() {
            remap[v] = i as u32;
        }
        let normal_m = DMat3::from_mat4(place).inverse().transpose();
        let pos: Vec<f32> = keep
            .iter()
            .flat_map(|&v| {
                place
                    .transform_point3(geo.positions[v])
                    .as_vec3()
                    .to_array()
            })
            .collect();
        let mut idx: Vec<u32> = Vec::new();
        for &p in polys {
            let poly = &geo.polygons[p].0;
            for k in 1..poly.len().saturating_sub(1) {
                let (a, b, c) = (remap[poly[0]], remap[poly[k]], remap[poly[k + 1]]);
                if flip {
                    idx.extend([a, c, b]);
                } else {
                    idx.extend([a, b, c]);
                }
            }
        }
        let n = keep.len();
        let mut attrs = serde_json::Map::new();
        attrs.insert("POSITION".into(), json!(self.accessor_f32(&pos, "VEC3", n)));
        let corner = |v: usize| first_corner[v];
        if let Some(nr) = &geo.normals {
            let d: Vec<f32> = keep
                .iter()
                .flat_map(|&v| {
                    let c = corner(v);
                    let x = if c == usize::MAX {
                        DVec3::Y
                    } else {
                        normal_m * nr[c]
                    };
                    // A NaN or zero normal is passed on as zero: the glTF reader
                    // sets it to the faces' normal and says so.
                    x.try_normalize()
                        .unwrap_or(DVec3::ZERO)
                        .as_vec3()
                        .to_array()
                })
                .collect();
            attrs.insert("NORMAL".into(), json!(self.accessor_f32(&d, "VEC3", n)));
        }
        if let Some(uv) = &geo.uvs {
            let d: Vec<f32> = keep
                .iter()
                .flat_map(|&v| {
                    let c = corner(v);
                    let u = if c == usize::MAX { [0.0, 0.0] } else { uv[c] };
                    [u[0] as f32, (1.0 - u[1]) as f32]
                })
                .collect();
            attrs.insert("TEXCOORD_0".into(), json!(self.accessor_f32(&d, "VEC2", n)));
        }
        if skinned {
            let most = keep
                .iter()
                .map(|&v| skin[v].len())
                .max()
                .unwrap_or(0)
                .max(1);
            let sets = most.div_ceil(4);
            for s in 0..sets {
                let mut j = Vec::with_capacity(n * 4);
                let mut w = Vec::with_capacity(n * 4);
                for &v in &keep {
                    let mut list = skin[v].clone();
                    list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                    for k in 0..4 {
                        match list.get(s * 4 + k) {
                            Some(&(b, x)) => {
                                j.push(b as u32);
                                w.push(x);
                            }
                            None => {
                                j.push(0);
                                w.push(0.0);
                            }
                        }
                    }
                }
                attrs.insert(
                    format!("JOINTS_{s}"),
                    json!(self.accessor_u32(&j, "VEC4", 5123, n)),
                );
                attrs.insert(
                    format!("WEIGHTS_{s}"),
                    json!(self.accessor_f32(&w, "VEC4", n)),
                );
            }
        }
        let ia = self.accessor_u32(&idx, "SCALAR", 5125, idx.len());
        json!({"attributes": attrs, "indices": ia, "material": material, "mode": 4})
    }
}
