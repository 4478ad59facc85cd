//! Reading a glTF scene into a [`Character`].
//!
//! What the reader does, in order:
//! 1. Node transforms: each node's local matrix (`matrix` or TRS), parents from
//!    `children` (a node with two parents or a parent cycle is an error), world matrices.
//! 2. The skeleton: every skin's joints, merged by node into one skeleton. A bone's
//!    rest transform is `M * inverse(inverseBindMatrix)` where `M = world(joint0) *
//!    IBM` maps the skin's bind space into the world: the value most joints agree on
//!    (the mesh node's world matrix when no majority agrees, as when the nodes hold an
//!    animation frame rather than the bind pose); with
//!    no inverse bind matrices it is the joint node's world matrix. Non-joint ancestors
//!    are dropped, their transforms baked. A bone's parent is its nearest joint ancestor.
//!    Heads are the rest positions; the x_axis is the rest rotation's X. glTF keeps no
//!    tails, so they are rebuilt: a bone with one child reaches that child, however
//!    short; with several, the child in line with it (its +Y when the file's joints are
//!    bone-oriented, else its parent's direction) or the average of the children. When
//!    the joints are bone-oriented (at least 2/3 of one-child joints have +Y within 5
//!    degrees of their child, as Blender and rigsmith write them), a bone with several
//!    children reaches the child on its +Y (within 1 degree, where Blender puts a
//!    connected child: the fox's `Torso2` reaches `Torso3`, not 4.6 % H past it level
//!    with the shoulders), else follows its +Y to its farthest child along it. A leaf bone (foot, head,
//!    finger tip) points along its own +Y (bone-oriented files) or its parent's
//!    direction, turned toward the vertices weighted mostly to it when those lie well
//!    off that direction, and reaches as far as those vertices extend along it (see
//!    [`leaf_tail`]). A joint whose node extras carry `rigsmith_bone_length` (rigsmith
//!    writes one on every joint) gets its tail that far along its +Y instead, so a
//!    rig read back is the rig written. A joint that no vertex is weighted to (a root at the floor, IK and
//!    pole targets) is read as a non-deform bone.
//! 3. Parts: every primitive of every mesh node in the scene (depth first), baked into
//!    world space at bind pose (skinned primitives by the skin's `M`, others by the node's
//!    world matrix). Triangle lists, strips and fans; points and lines are skipped with a
//!    warning. Attributes may be quantized (`KHR_mesh_quantization`: positions, normals,
//!    UVs as normalized or plain signed/unsigned bytes and shorts; normalized integers
//!    map to [0, 1] or [-1, 1] as the specification says) or compressed (meshopt,
//!    Draco: see [`super::accessor`]). Weights from every `JOINTS_n`/`WEIGHTS_n` pair
//!    (u8/u16 joints; f32 or normalized u8/u16 weights), joint indices mapped to
//!    skeleton bones, duplicates merged, zeros dropped, sorted by decreasing weight,
//!    **not** renormalized (so a check can still see weights that do not sum to one),
//!    except that NaN or negative weights are set to zero and the vertices that had them
//!    renormalized, with a warning naming the accessor and the counts (a vertex left with
//!    no weight stays unweighted for later stages). Morph targets with names from
//!    `mesh.extras.targetNames`.

use std::collections::{BTreeMap, HashMap};

use glam::{Mat3, Mat4, Quat, Vec2, Vec3};
use serde_json::Value;

use super::accessor::{array, Doc};
use crate::error::Result;
use crate::model::{
    AlphaMode, Bone, Character, MaterialFlags, Mesh, MorphTarget, Part, Skeleton, Weights,
};

/// The character read from a document plus, for each glTF node, the index of the
/// skeleton bone made from it (VRM needs this to map humanoid bones).
pub struct SceneRead {
    /// The character.
    pub character: Character,
    /// `node_bone[node]` = skeleton bone index, for joint nodes.
    pub node_bone: Vec<Option<usize>>,
    /// The name of each node (`node{i}` when unnamed).
    pub node_names: Vec<String>,
}

fn f32s(v: Option<&Value>, n: usize) -> Option<Vec<f32>> {
    let a = v?.as_array()?;
    if a.len() != n {
        return None;
    }
    a.iter().map(|x| x.as_f64().map(|f| f as f32)).collect()
}

fn local_matrix(doc: &Doc, i: usize, node: &Value) -> Result<Mat4> {
    let at = format!("nodes[{i}]");
    let m = if let Some(m) = node.get("matrix") {
        let a = f32s(Some(m), 16)
            .ok_or_else(|| doc.err(format!("{at}.matrix"), "expected 16 numbers"))?;
        Mat4::from_cols_slice(&a)
    } else {
        let get = |k: &str, n: usize, d: &[f32]| -> Result<Vec<f32>> {
            match node.get(k) {
                None => Ok(d.to_vec()),
                Some(v) => f32s(Some(v), n)
                    .ok_or_else(|| doc.err(format!("{at}.{k}"), format!("expected {n} numbers"))),
            }
        };
        let t = get("translation", 3, &[0.0, 0.0, 0.0])?;
        let r = get("rotation", 4, &[0.0, 0.0, 0.0, 1.0])?;
        let s = get("scale", 3, &[1.0, 1.0, 1.0])?;
        let q = Quat::from_xyzw(r[0], r[1], r[2], r[3]);
        let q = if q.length_squared() > 1e-12 {
            q.normalize()
        } else {
            Quat::IDENTITY
        };
        Mat4::from_scale_rotation_translation(Vec3::from_slice(&s), q, Vec3::from_slice(&t))
    };
    if !m.is_finite() {
        return Err(doc.err(at, "the node transform is not finite"));
    }
    Ok(m)
}

/// Reads the scene of a loaded document.
pub fn read_scene(doc: &Doc) -> Result<SceneRead> {
    let mut warnings = Vec::new();
    let tree = node_tree(doc)?;
    let mut sk = skins(doc, &tree, &mut warnings)?;
    let mut materials = BTreeMap::new();
    let mut parts = parts(doc, &tree, &sk, &mut materials, &mut warnings)?;
    let skeleton = skeleton(doc, &tree, &mut sk, &mut parts, &mut warnings)?;
    Ok(SceneRead {
        character: Character {
            parts,
            skeleton,
            vrm: None,
            warnings,
            materials,
            ..Default::default()
        },
        node_bone: sk.node_bone,
        node_names: tree.names,
    })
}

/// The node hierarchy: each node's parent, world matrix and name, and the scene's
/// nodes depth first.
struct NodeTree {
    parent: Vec<Option<usize>>,
    world: Vec<Mat4>,
    names: Vec<String>,
    order: Vec<usize>,
}

/// Reads the node hierarchy (parents checked, no cycle), world matrices and names.
fn node_tree(doc: &Doc) -> Result<NodeTree> {
    let json = &doc.json;
    let nodes = array(json, "nodes");
    let n = nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, node) in nodes.iter().enumerate() {
        for (k, c) in array(node, "children").iter().enumerate() {
            let at = format!("nodes[{i}].children[{k}]");
            let c = c.as_u64().filter(|&c| (c as usize) < n).ok_or_else(|| {
                doc.err(
                    &at,
                    format!("{c} is not a node index (there are {n} nodes)"),
                )
            })? as usize;
            if c == i || parent[c].is_some() {
                return Err(doc.err(at, format!("node {c} has more than one parent")));
            }
            parent[c] = Some(i);
        }
    }
    let local: Vec<Mat4> = nodes
        .iter()
        .enumerate()
        .map(|(i, node)| local_matrix(doc, i, node))
        .collect::<Result<_>>()?;
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    for i in 0..n {
        let mut chain = vec![i];
        let mut cur = parent[i];
        while let Some(p) = cur {
            if world[p].is_some() {
                break;
            }
            if chain.len() > n {
                return Err(doc.err(format!("nodes[{i}]"), "the node hierarchy has a cycle"));
            }
            chain.push(p);
            cur = parent[p];
        }
        for &c in chain.iter().rev() {
            if world[c].is_none() {
                let pw = parent[c].and_then(|p| world[p]).unwrap_or(Mat4::IDENTITY);
                world[c] = Some(pw * local[c]);
            }
        }
    }
    let world: Vec<Mat4> = world
        .into_iter()
        .map(|m| m.unwrap_or(Mat4::IDENTITY))
        .collect();
    let names: Vec<String> = nodes
        .iter()
        .enumerate()
        .map(|(i, nd)| {
            nd.get("name")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .unwrap_or_else(|| format!("node{i}"))
        })
        .collect();

    // Scene nodes, depth first.
    let roots: Vec<usize> = match array(json, "scenes").len() {
        0 => (0..n).filter(|&i| parent[i].is_none()).collect(),
        ns => {
            let s = json.get("scene").and_then(Value::as_u64).unwrap_or(0) as usize;
            if s >= ns {
                return Err(doc.err("scene", format!("scene {s} does not exist")));
            }
            let mut r = Vec::new();
            for (k, v) in array(&array(json, "scenes")[s], "nodes").iter().enumerate() {
                let i = v.as_u64().filter(|&i| (i as usize) < n).ok_or_else(|| {
                    doc.err(format!("scenes[{s}].nodes[{k}]"), "not a node index")
                })?;
                r.push(i as usize);
            }
            r
        }
    };
    let mut order = Vec::new();
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    let mut seen = vec![false; n];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        for c in array(&nodes[i], "children").iter().rev() {
            stack.push(c.as_u64().unwrap_or(0) as usize);
        }
    }

    Ok(NodeTree {
        parent,
        world,
        names,
        order,
    })
}

/// Every skin's joints merged into one bone list by node: the bone of each node, the
/// node and rest world matrix of each bone, each skin's joint -> bone map and bind
/// space.
struct Skins {
    node_bone: Vec<Option<usize>>,
    bone_nodes: Vec<usize>,
    bone_world: Vec<Mat4>,
    skin_joint_bone: Vec<Vec<usize>>,
    skin_bind: Vec<Option<Mat4>>,
}

/// A skin's `skeleton` node that is not an ancestor (or the node itself) of every
/// joint: the Khronos validator's SKIN_SKELETON_INVALID. It is ignored (the joints'
/// own hierarchy is used) and reported as a warning.
fn skeleton_root_warning(
    skin: &Value,
    joints: &[usize],
    tree: &NodeTree,
    at: &str,
    warnings: &mut Vec<String>,
) {
    let Some(root) = skin.get("skeleton").and_then(Value::as_u64) else {
        return;
    };
    let root = root as usize;
    let under = |j: usize| {
        let mut k = Some(j);
        while let Some(x) = k {
            if x == root {
                return true;
            }
            k = tree.parent.get(x).copied().flatten();
        }
        false
    };
    let outside = joints.iter().filter(|&&j| !under(j)).count();
    if outside > 0 {
        warnings.push(format!(
            "{at}.skeleton: node {root} ({:?}) is not a common root of the skin's joints \
             ({outside} of {} lie outside it; the Khronos validator's SKIN_SKELETON_INVALID): \
             ignored, the joints' own hierarchy is used",
            tree.names.get(root).map_or("", String::as_str),
            joints.len()
        ));
    }
}

/// Reads the skins (joints, inverse bind matrices) into one bone list.
fn skins(doc: &Doc, tree: &NodeTree, warnings: &mut Vec<String>) -> Result<Skins> {
    let json = &doc.json;
    let n = tree.parent.len();
    let skins = array(json, "skins");
    let mut node_bone: Vec<Option<usize>> = vec![None; n];
    let mut bone_nodes: Vec<usize> = Vec::new();
    let mut bone_world: Vec<Mat4> = Vec::new();
    let mut skin_joint_bone: Vec<Vec<usize>> = Vec::new();
    let mut skin_bind: Vec<Option<Mat4>> = Vec::new();
    for (s, skin) in skins.iter().enumerate() {
        let at = format!("skins[{s}]");
        if array(skin, "joints").is_empty() {
            let draft = if skin.get("jointNames").is_some() {
                " (it has `jointNames`, the form of a pre-release draft of glTF 2.0: \
                 re-export the file with a current exporter)"
            } else {
                ""
            };
            return Err(doc.err(
                format!("{at}.joints"),
                format!("missing or empty: glTF 2.0 requires a skin's joints{draft}"),
            ));
        }
        let joints: Vec<usize> = array(skin, "joints")
            .iter()
            .enumerate()
            .map(|(k, j)| {
                j.as_u64()
                    .filter(|&j| (j as usize) < n)
                    .map(|j| j as usize)
                    .ok_or_else(|| {
                        doc.err(
                            format!("{at}.joints[{k}]"),
                            format!("joint {j} is not a node (there are {n} nodes)"),
                        )
                    })
            })
            .collect::<Result<_>>()?;
        let ibm: Option<Vec<Mat4>> = match skin.get("inverseBindMatrices").and_then(Value::as_u64) {
            None => None,
            Some(a) => {
                let iat = format!("{at}.inverseBindMatrices");
                let f = doc.floats(a, 16, &iat)?;
                if f.len() / 16 < joints.len() {
                    return Err(doc.err(
                        iat,
                        format!("{} matrices for {} joints", f.len() / 16, joints.len()),
                    ));
                }
                let m: Vec<Mat4> = f.chunks_exact(16).map(Mat4::from_cols_slice).collect();
                if let Some(k) = m.iter().position(|m| !m.is_finite() || singular(m)) {
                    return Err(doc.err(iat, format!("matrix {k} is not finite or not invertible")));
                }
                Some(m)
            }
        };
        skeleton_root_warning(skin, &joints, tree, &at, warnings);
        let bind = bind_space(doc, &tree.world, s, &joints, ibm.as_deref(), warnings);
        let mut jb = Vec::with_capacity(joints.len());
        for (k, &j) in joints.iter().enumerate() {
            let rest = match (&ibm, bind) {
                (Some(m), Some(b)) => b * m[k].inverse(),
                _ => tree.world[j],
            };
            let b = match node_bone[j] {
                Some(b) => b,
                None => {
                    node_bone[j] = Some(bone_nodes.len());
                    bone_nodes.push(j);
                    bone_world.push(rest);
                    bone_nodes.len() - 1
                }
            };
            jb.push(b);
        }
        skin_joint_bone.push(jb);
        skin_bind.push(bind);
    }

    Ok(Skins {
        node_bone,
        bone_nodes,
        bone_world,
        skin_joint_bone,
        skin_bind,
    })
}

/// The bind space -> world map of skin `s`: each joint proposes world(joint) * IBM;
/// they agree when the nodes hold the bind pose. The mesh node's world matrix (what
/// most exporters mean) is proposed first; the proposal most joints agree with wins.
/// `None` without inverse bind matrices.
fn bind_space(
    doc: &Doc,
    world: &[Mat4],
    s: usize,
    joints: &[usize],
    ibm: Option<&[Mat4]>,
    warnings: &mut Vec<String>,
) -> Option<Mat4> {
    let nodes = array(&doc.json, "nodes");
    let at = format!("skins[{s}]");
    match ibm {
        Some(m) if !joints.is_empty() => {
            let per_joint: Vec<Mat4> = joints
                .iter()
                .enumerate()
                .map(|(k, &j)| world[j] * m[k])
                .collect();
            let mesh_world = nodes
                .iter()
                .position(|nd| {
                    nd.get("skin").and_then(Value::as_u64) == Some(s as u64)
                        && nd.get("mesh").is_some()
                })
                .map(|i| world[i]);
            let close = |a: &Mat4, b: &Mat4| {
                let tol = 1e-3
                    * (1.0
                        + a.abs()
                            .to_cols_array()
                            .iter()
                            .fold(0.0f32, |x, y| x.max(*y)));
                (*a - *b).to_cols_array().iter().all(|x| x.abs() <= tol)
            };
            let mut best = (0usize, per_joint[0]);
            for cand in mesh_world.iter().chain(per_joint.iter().take(64)) {
                let votes = per_joint.iter().filter(|m| close(cand, m)).count();
                if votes > best.0 {
                    best = (votes, *cand);
                }
            }
            // Nodes in some other pose (an animation frame): no majority; trust the
            // mesh node's world matrix.
            if best.0 * 2 < joints.len() {
                if let Some(w) = mesh_world {
                    best.1 = w;
                }
            }
            if best.0 < joints.len() {
                warnings.push(format!(
                    "{at}: {} of {} joints are not at their bind pose in the node transforms; the inverse bind matrices define the rest pose",
                    joints.len() - best.0,
                    joints.len()
                ));
            }
            Some(best.1)
        }
        _ => None,
    }
}

/// The parts: one per primitive of every mesh node in scene order, baked into world
/// (a skinned primitive into its skin's bind space), with unique names; each material's
/// flags go into `materials` by name.
fn parts(
    doc: &Doc,
    tree: &NodeTree,
    sk: &Skins,
    materials: &mut BTreeMap<String, MaterialFlags>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Part>> {
    let nodes = array(&doc.json, "nodes");
    let skins = array(&doc.json, "skins");
    let mut parts: Vec<Part> = Vec::new();
    let mut first_empty: Option<String> = None;
    for &ni in &tree.order {
        let node = &nodes[ni];
        let Some(m) = node.get("mesh").and_then(Value::as_u64) else {
            continue;
        };
        let mesh = doc.item("meshes", m, &format!("nodes[{ni}].mesh"))?;
        let skin = match node.get("skin").and_then(Value::as_u64) {
            None => None,
            Some(s) if (s as usize) < skins.len() => Some(s as usize),
            Some(s) => {
                return Err(doc.err(
                    format!("nodes[{ni}].skin"),
                    format!("skin {s} does not exist"),
                ))
            }
        };
        let base = mesh
            .get("name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .or_else(|| {
                node.get("name")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
            })
            .map(str::to_string)
            .unwrap_or_else(|| format!("mesh{m}"));
        let target_names: Vec<String> = mesh
            .pointer("/extras/targetNames")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|v| v.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default();
        let prims = array(mesh, "primitives");
        for (p, prim) in prims.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            let name = if prims.len() > 1 {
                format!("{base}.{p}")
            } else {
                base.clone()
            };
            let skinned = skin.filter(|_| prim.pointer("/attributes/JOINTS_0").is_some());
            let bake = match skinned {
                Some(s) => sk.skin_bind[s].unwrap_or(tree.world[ni]),
                None => tree.world[ni],
            };
            match read_primitive(
                doc,
                prim,
                &at,
                bake,
                &target_names,
                skinned.map(|s| &sk.skin_joint_bone[s][..]),
                warnings,
            )? {
                Some((mesh, weights, morphs)) => {
                    let material = match prim.get("material").and_then(Value::as_u64) {
                        None => None,
                        Some(mi) => {
                            let mat = doc.item("materials", mi, &format!("{at}.material"))?;
                            let mname = mat
                                .get("name")
                                .and_then(Value::as_str)
                                .filter(|s| !s.is_empty())
                                .map(str::to_string)
                                .unwrap_or_else(|| format!("material{mi}"));
                            materials.insert(mname.clone(), material_flags(mat));
                            Some(mname)
                        }
                    };
                    let mut unique = name.clone();
                    let mut k = 1;
                    while parts.iter().any(|q| q.name == unique) {
                        unique = format!("{name}.{k}");
                        k += 1;
                    }
                    parts.push(Part {
                        name: unique,
                        material,
                        mesh,
                        weights,
                        morphs,
                    });
                }
                None => {
                    first_empty.get_or_insert(at);
                }
            }
        }
    }
    if parts.is_empty() {
        return Err(match first_empty {
            Some(at) => doc.err(at, "no triangles: the file has no triangle mesh to rig"),
            None => doc.err("meshes", "the scene has no meshes"),
        });
    }

    Ok(parts)
}

/// Cosine of 1 deg: a child of a bone-oriented joint this close to the joint's +Y is the
/// child its tail reaches (several children).
const ON_AXIS_COS: f32 = 0.999_85;

/// The skeleton from the bones of the skins: unique names, parents through the node
/// hierarchy, tails (a leaf's from [`leaf_tail`]); bones are reordered parents first and the
/// parts' weights and `node_bone` follow.
fn skeleton(
    doc: &Doc,
    tree: &NodeTree,
    sk: &mut Skins,
    parts: &mut [Part],
    warnings: &mut Vec<String>,
) -> Result<Option<Skeleton>> {
    let nodes = array(&doc.json, "nodes");
    let parent = &tree.parent;
    let node_names = &tree.names;
    let (bone_nodes, bone_world) = (&sk.bone_nodes, &sk.bone_world);
    let mut skeleton = None;
    if !bone_nodes.is_empty() {
        let size = parts_size(parts);
        let names = joint_names(node_names, bone_nodes, warnings);
        let bparent: Vec<Option<usize>> = bone_nodes
            .iter()
            .map(|&nd| {
                let mut cur = parent[nd];
                while let Some(p) = cur {
                    if let Some(b) = sk.node_bone[p] {
                        return Some(b);
                    }
                    cur = parent[p];
                }
                None
            })
            .collect();
        let heads: Vec<Vec3> = bone_world.iter().map(|m| m.w_axis.truncate()).collect();
        let mut children = vec![Vec::new(); bone_nodes.len()];
        for (b, p) in bparent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(b);
            }
        }
        let rots: Vec<Mat3> = bone_world.iter().map(|m| Mat3::from_mat4(*m)).collect();
        let bone_oriented = bone_oriented(&heads, &rots, &children);
        let nb = bone_nodes.len();
        let (carries, dominant, any_weights) = carried(parts, nb);
        let tiny = 1e-5 * size;
        let mut bones = Vec::with_capacity(nb);
        for b in 0..nb {
            let head = heads[b];
            let rot = rots[b];
            let y = rot.y_axis.normalize_or_zero();
            let incoming = bparent[b].and_then(|p| (head - heads[p]).try_normalize());
            let kids: Vec<usize> = children[b]
                .iter()
                .copied()
                .filter(|&c| (heads[c] - head).length() > tiny)
                .collect();
            let tail = match kids[..] {
                // One child: the bone reaches it, however short.
                [c] => Some(heads[c]),
                [] => None,
                _ => {
                    let oriented_y = (bone_oriented && y != Vec3::ZERO).then_some(y);
                    tail_among_children(&kids, head, oriented_y, incoming, &heads, tiny)
                }
            };
            // A length written in the node's extras (rigsmith writes one per joint)
            // wins: the tail is that far along the joint's +Y, scaled as the joint is.
            let stored = nodes
                .get(bone_nodes[b])
                .and_then(|n| n.pointer("/extras/rigsmith_bone_length"))
                .and_then(|v| v.as_f64())
                .map(|l| l as f32)
                .filter(|l| l.is_finite() && *l > 0.0)
                .and_then(|l| {
                    let t = head + rot.y_axis * l;
                    ((t - head).length() > tiny).then_some(t)
                });
            let tail = stored.or(tail);
            let tail = tail.unwrap_or_else(|| {
                leaf_tail(
                    head,
                    if bone_oriented {
                        y.try_normalize()
                    } else {
                        None
                    },
                    incoming,
                    rot.y_axis.try_normalize().unwrap_or(Vec3::Y),
                    bparent[b].map(|p| (head - heads[p]).length()),
                    &dominant[b],
                    size,
                )
            });
            let mut bone = Bone::new(names[b].clone(), bparent[b], head, tail);
            // A joint no vertex is weighted to (a root at the floor, IK and pole
            // targets) does not deform.
            bone.deform = carries[b] || !any_weights;
            let y = bone.y_axis();
            let x = rot.x_axis - y * rot.x_axis.dot(y);
            if let Some(x) = x.try_normalize() {
                bone.x_axis = x;
            }
            bones.push(bone);
        }
        let (skel, new_index) = Skeleton::from_unordered(bones)
            .map_err(|e| doc.err("skins", format!("the joints do not form a skeleton: {e}")))?;
        for nb in sk.node_bone.iter_mut().flatten() {
            *nb = new_index[*nb];
        }
        renumber_weights(parts, &new_index);
        skeleton = Some(skel);
    }

    Ok(skeleton)
}

/// The tail of a bone with several children: the child on the joint's +Y, else the
/// farthest reach along that +Y, else the child in line with the bone, else the
/// children's mean (`None` when that is the head itself). `oriented_y` is the joint's +Y
/// when the skeleton is bone-oriented, `incoming` the direction from the parent's head.
fn tail_among_children(
    kids: &[usize],
    head: Vec3,
    oriented_y: Option<Vec3>,
    incoming: Option<Vec3>,
    heads: &[Vec3],
    tiny: f32,
) -> Option<Vec3> {
    // A child on the joint's +Y (within 1 deg: where Blender puts a connected child) is
    // where the bone ends.
    if let Some(y) = oriented_y {
        let along = |c: usize| (heads[c] - head).dot(y);
        let on_axis = kids
            .iter()
            .copied()
            .filter(|&c| (heads[c] - head).normalize().dot(y.normalize()) > ON_AXIS_COS)
            .min_by(|&a, &b| along(a).total_cmp(&along(b)));
        if let Some(c) = on_axis {
            return Some(heads[c]);
        }
        let reach = kids.iter().map(|&c| along(c)).fold(0.0f32, f32::max);
        if reach > tiny {
            return Some(head + y * reach);
        }
    }
    // The child in line with the bone (its +Y, or the parent's direction).
    let in_line = oriented_y.or(incoming).and_then(|a| {
        kids.iter()
            .map(|&c| (c, (heads[c] - head).normalize().dot(a)))
            .filter(|&(_, cos)| cos > 0.966)
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(c, _)| c)
    });
    if let Some(c) = in_line {
        return Some(heads[c]);
    }
    let avg = kids.iter().map(|&c| heads[c]).sum::<Vec3>() / kids.len() as f32;
    ((avg - head).length() > tiny).then_some(avg)
}

/// Whether a matrix cannot be inverted: its determinant is zero or tiny against the
/// lengths of its three axes. The test is relative, so a bind matrix of a character in
/// centimetres, or one an exporter scaled by 0.0001 (a determinant of 1e-12), is
/// read, while one that flattens an axis is refused.
fn singular(m: &Mat4) -> bool {
    let axes =
        m.x_axis.truncate().length() * m.y_axis.truncate().length() * m.z_axis.truncate().length();
    !(axes > 0.0) || m.determinant().abs() <= 1e-6 * axes
}

/// The largest extent of the parts (1 when they have none).
fn parts_size(parts: &[Part]) -> f32 {
    let (lo, hi) = crate::model::Character {
        parts: parts.to_vec(),
        ..Default::default()
    }
    .bounds();
    let e = (hi - lo).max_element();
    if e > 0.0 && e.is_finite() {
        e
    } else {
        1.0
    }
}

/// The bones' names: their nodes' names, a repeated one suffixed `.1`, `.2`... (with a
/// warning).
fn joint_names(
    node_names: &[String],
    bone_nodes: &[usize],
    warnings: &mut Vec<String>,
) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(bone_nodes.len());
    let mut used: HashMap<String, usize> = HashMap::new();
    for &nd in bone_nodes {
        let base = node_names[nd].clone();
        let mut name = base.clone();
        let mut k = 1;
        while used.contains_key(&name) {
            name = format!("{base}.{k}");
            k += 1;
        }
        if name != base {
            warnings.push(format!(
                "joint name {base:?} is used twice; renamed to {name:?}"
            ));
        }
        used.insert(name.clone(), 0);
        names.push(name);
    }
    names
}

/// Do the joints' rest rotations point their +Y at their child (Blender's convention,
/// and rigsmith's)? Then +Y is the bone direction for every bone: true when two thirds
/// of the joints with one child do.
fn bone_oriented(heads: &[Vec3], rots: &[Mat3], children: &[Vec<usize>]) -> bool {
    let (mut single, mut aligned) = (0usize, 0usize);
    for b in 0..heads.len() {
        if let [c] = children[b][..] {
            if let Some(d) = (heads[c] - heads[b]).try_normalize() {
                single += 1;
                if rots[b].y_axis.normalize_or_zero().dot(d) > 0.996 {
                    aligned += 1;
                }
            }
        }
    }
    single > 0 && aligned * 3 >= single * 2
}

/// What each of the `nb` bones carries: whether any vertex has weight on it, and the
/// vertices weighted mostly to it (their positions), which bound a leaf bone's tail;
/// and whether any part has weights.
fn carried(parts: &[Part], nb: usize) -> (Vec<bool>, Vec<Vec<Vec3>>, bool) {
    let mut carries = vec![false; nb];
    let mut dominant: Vec<Vec<Vec3>> = vec![Vec::new(); nb];
    let mut any_weights = false;
    for part in parts {
        let Some(w) = &part.weights else { continue };
        any_weights = true;
        for (v, list) in w.vertices.iter().enumerate() {
            for inf in list {
                carries[inf.bone as usize] = true;
            }
            if let Some(top) = list.iter().max_by(|a, b| a.weight.total_cmp(&b.weight)) {
                dominant[top.bone as usize].push(part.mesh.positions[v]);
            }
        }
    }
    (carries, dominant, any_weights)
}

/// Moves the parts' weights to the bones' new indices (and sorts each vertex's list).
fn renumber_weights(parts: &mut [Part], new_index: &[usize]) {
    for part in parts.iter_mut() {
        if let Some(w) = &mut part.weights {
            for list in &mut w.vertices {
                for inf in list.iter_mut() {
                    inf.bone = new_index[inf.bone as usize] as u32;
                }
            }
            w.sort();
        }
    }
}

/// The flags of a glTF material: `doubleSided` (default false), `alphaMode` (default
/// `OPAQUE`; an unknown mode reads as opaque) and `KHR_materials_unlit`.
fn material_flags(mat: &Value) -> MaterialFlags {
    MaterialFlags {
        double_sided: mat
            .get("doubleSided")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        alpha_mode: match mat.get("alphaMode").and_then(Value::as_str) {
            Some("MASK") => AlphaMode::Mask,
            Some("BLEND") => AlphaMode::Blend,
            _ => AlphaMode::Opaque,
        },
        unlit: mat
            .get("extensions")
            .and_then(|e| e.get("KHR_materials_unlit"))
            .is_some(),
    }
}

/// The tail of a bone with no child to aim at. Its direction is the joint's own +Y
/// when the file's joints are bone-oriented (`own`), else the parent's direction
/// (`incoming`); but when the vertices weighted mostly to the bone (`carried`) lie
/// well off that direction (their centroid more than 60 degrees from it, as a foot's
/// lie forward of an ankle whose parent points down), the direction to their centroid.
/// Its length is the extent of those vertices along the direction (no farther than
/// their bounding box, when the head lies in it), so the tail stays inside what the
/// bone carries (a foot reaches the toes, a head the top of the head);
/// with no such vertices, half the parent's length. Either way at least 1 % and, without
/// vertices, at most 10 % of the body's size `size`.
fn leaf_tail(
    head: Vec3,
    own: Option<Vec3>,
    incoming: Option<Vec3>,
    fallback: Vec3,
    parent_len: Option<f32>,
    carried: &[Vec3],
    size: f32,
) -> Vec3 {
    let mut dir = own.or(incoming).unwrap_or(fallback);
    if !carried.is_empty() {
        let centroid = carried.iter().copied().sum::<Vec3>() / carried.len() as f32;
        if own.is_none() {
            if let Some(e) = (centroid - head).try_normalize() {
                if e.dot(dir) < 0.5 && (centroid - head).length() > 0.01 * size {
                    dir = e;
                }
            }
        }
        let extent = carried
            .iter()
            .map(|p| (*p - head).dot(dir))
            .fold(0.0f32, f32::max);
        // Shortened, when the head lies in the box of those vertices, so the tail does
        // not leave it (a direction turned toward their centroid can, at the far end).
        let (lo, hi) = carried
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(a, b), p| (a.min(*p), b.max(*p)));
        let eps = 1e-5 * size;
        let mut len = extent;
        if head.cmpge(lo - eps).all() && head.cmple(hi + eps).all() {
            for k in 0..3 {
                if dir[k].abs() > 1e-6 {
                    let bound = if dir[k] > 0.0 { hi[k] } else { lo[k] };
                    len = len.min(((bound - head[k]) / dir[k]).max(0.0));
                }
            }
        }
        return head + dir * len.max(0.01 * size);
    }
    let len = parent_len.map_or(0.05 * size, |l| 0.5 * l);
    head + dir * len.clamp(0.01 * size, 0.1 * size)
}

type PrimitiveData = (Mesh, Option<Weights>, Vec<MorphTarget>);

fn attr(prim: &Value, key: &str) -> Option<u64> {
    prim.get("attributes")?.get(key)?.as_u64()
}

fn read_primitive(
    doc: &Doc,
    prim: &Value,
    at: &str,
    bake: Mat4,
    target_names: &[String],
    joint_bone: Option<&[usize]>,
    warnings: &mut Vec<String>,
) -> Result<Option<PrimitiveData>> {
    let mode = prim.get("mode").and_then(Value::as_u64).unwrap_or(4);
    if !matches!(mode, 4..=6) {
        warnings.push(format!("{at}: mode {mode} (points or lines) skipped"));
        return Ok(None);
    }
    let pat = format!("{at}.attributes.POSITION");
    let pa = attr(prim, "POSITION").ok_or_else(|| doc.err(&pat, "missing"))?;
    let raw = doc.floats(pa, 3, &pat)?;
    let nv = raw.len() / 3;
    if let Some(k) = raw.iter().position(|x| !x.is_finite()) {
        return Err(doc.err(
            pat,
            format!(
                "vertex {} has a non-finite position (NaN or infinity)",
                k / 3
            ),
        ));
    }
    let idx: Vec<u32> = match prim.get("indices").and_then(Value::as_u64) {
        Some(ia) => {
            let iat = format!("{at}.indices");
            let idx = doc.uints(ia, 1, &iat)?;
            if let Some(&bad) = idx.iter().find(|&&i| i as usize >= nv) {
                return Err(doc.err(
                    iat,
                    format!("index {bad} is out of range: the primitive has {nv} vertices"),
                ));
            }
            idx
        }
        None => (0..nv as u32).collect(),
    };
    let mut triangles: Vec<[u32; 3]> = match mode {
        4 => idx.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        5 => (2..idx.len())
            .map(|k| {
                if k % 2 == 0 {
                    [idx[k - 2], idx[k - 1], idx[k]]
                } else {
                    [idx[k - 1], idx[k - 2], idx[k]]
                }
            })
            .collect(),
        _ => (2..idx.len())
            .map(|k| [idx[0], idx[k - 1], idx[k]])
            .collect(),
    };
    triangles.retain(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2] || mode == 4);
    if triangles.is_empty() {
        warnings.push(format!("{at}: no triangles, skipped"));
        return Ok(None);
    }
    let lin = Mat3::from_mat4(bake);
    let nrm_m = if lin.determinant().abs() > 1e-20 {
        lin.inverse().transpose()
    } else {
        lin
    };
    let positions: Vec<Vec3> = raw
        .chunks_exact(3)
        .map(|p| bake.transform_point3(Vec3::from_slice(p)))
        .collect();
    if let Some(k) = positions.iter().position(|p| !p.is_finite()) {
        return Err(doc.err(
            pat,
            format!("vertex {k} is not finite once placed by its node or skin transform"),
        ));
    }
    let count_check = |a: u64, key: &str| count_check(doc, at, nv, a, key);
    let normals = match attr(prim, "NORMAL") {
        Some(a) => {
            count_check(a, "attributes.NORMAL")?;
            let f = doc.floats(a, 3, &format!("{at}.attributes.NORMAL"))?;
            Some(
                f.chunks_exact(3)
                    .map(|n| {
                        let v = nrm_m * Vec3::from_slice(n);
                        if v.is_finite() {
                            v.normalize_or_zero()
                        } else {
                            Vec3::ZERO
                        }
                    })
                    .collect(),
            )
        }
        None => None,
    };
    let uvs = match attr(prim, "TEXCOORD_0") {
        Some(a) => {
            count_check(a, "attributes.TEXCOORD_0")?;
            let f = doc.floats(a, 2, &format!("{at}.attributes.TEXCOORD_0"))?;
            Some(f.chunks_exact(2).map(|t| Vec2::new(t[0], t[1])).collect())
        }
        None => None,
    };
    let weights = match joint_bone {
        None => None,
        Some(jb) => Some(read_weights(doc, prim, at, nv, jb, warnings)?),
    };
    let morphs = read_morphs(doc, prim, at, nv, lin, target_names)?;
    let mut mesh = Mesh {
        positions,
        triangles,
        normals,
        uvs,
    };
    mesh.repair_attributes_noting(
        &format!("{at}.attributes.NORMAL"),
        &format!("{at}.attributes.TEXCOORD_0"),
        warnings,
    );
    Ok(Some((mesh, weights, morphs)))
}

/// Checks that accessor `a` (at `AT.KEY`) has one element per vertex.
fn count_check(doc: &Doc, at: &str, nv: usize, a: u64, key: &str) -> Result<()> {
    let c = doc.count(a, &format!("{at}.{key}"))?;
    if c as usize != nv {
        return Err(doc.err(
            format!("{at}.{key}"),
            format!("{c} elements for {nv} vertices"),
        ));
    }
    Ok(())
}

/// The weights of a skinned primitive of `nv` vertices from every `JOINTS_k` /
/// `WEIGHTS_k` pair, joints mapped to bones by `jb`. NaN or negative weights (some
/// exporters write them; Blender and three.js load such files) are zeroed and their
/// vertices renormalized, with a warning; weights that are all zero are an error.
fn read_weights(
    doc: &Doc,
    prim: &Value,
    at: &str,
    nv: usize,
    jb: &[usize],
    warnings: &mut Vec<String>,
) -> Result<Weights> {
    let count_check = |a: u64, key: &str| count_check(doc, at, nv, a, key);
    let mut w = Weights::empty(nv);
    // NaN or negative weights (some exporters write them; Blender and three.js
    // load such files): zeroed, and the vertices they were on renormalized.
    let mut repaired = vec![false; nv];
    let mut repairs: Vec<(String, usize, usize)> = Vec::new();
    let mut k = 0;
    while let Some(ja) = attr(prim, &format!("JOINTS_{k}")) {
        let jat = format!("{at}.attributes.JOINTS_{k}");
        let wat = format!("{at}.attributes.WEIGHTS_{k}");
        let wa = attr(prim, &format!("WEIGHTS_{k}"))
            .ok_or_else(|| doc.err(&wat, format!("missing (JOINTS_{k} has no weights)")))?;
        count_check(ja, &format!("attributes.JOINTS_{k}"))?;
        count_check(wa, &format!("attributes.WEIGHTS_{k}"))?;
        let j = doc.uints(ja, 4, &jat)?;
        let ws = doc.floats(wa, 4, &wat)?;
        let (mut bad, mut bad_vertices) = (0usize, 0usize);
        for v in 0..nv {
            let mut vertex_bad = false;
            for c in 0..4 {
                let mut wt = ws[v * 4 + c];
                if !wt.is_finite() || wt < 0.0 {
                    bad += 1;
                    vertex_bad = true;
                    wt = 0.0;
                }
                if wt == 0.0 {
                    continue;
                }
                let ji = j[v * 4 + c] as usize;
                let b = *jb.get(ji).ok_or_else(|| {
                    doc.err(
                        &jat,
                        format!(
                            "vertex {v} uses joint {ji} but the skin has {} joints",
                            jb.len()
                        ),
                    )
                })?;
                w.add(v, b as u32, wt);
            }
            if vertex_bad {
                bad_vertices += 1;
                repaired[v] = true;
            }
        }
        if bad > 0 {
            repairs.push((wat, bad, bad_vertices));
        }
        k += 1;
    }
    let mut left_empty = 0usize;
    for (v, list) in w.vertices.iter_mut().enumerate() {
        if !repaired[v] {
            continue;
        }
        let s: f32 = list.iter().map(|i| i.weight).sum();
        if s > 0.0 && s.is_finite() {
            for i in list.iter_mut() {
                i.weight /= s;
            }
        } else {
            list.clear();
            left_empty += 1;
        }
    }
    for (r, (wat, bad, verts)) in repairs.iter().enumerate() {
        let tail = if r + 1 == repairs.len() && left_empty > 0 {
            format!("; {left_empty} vertices are left with no weight")
        } else {
            String::new()
        };
        warnings.push(format!(
            "{wat}: {bad} NaN or negative weights on {verts} vertices set to zero and those vertices renormalized{tail}"
        ));
    }
    let empty = w.vertices.iter().filter(|l| l.is_empty()).count();
    if empty == nv && repairs.is_empty() {
        return Err(doc.err(
            format!("{at}.attributes.WEIGHTS_0"),
            "the weights are all zero: no vertex is bound to a joint",
        ));
    }
    if empty > 0 {
        warnings.push(format!("{at}: {empty} of {nv} vertices have no weight"));
    }
    w.sort();
    Ok(w)
}

/// The morph targets of a primitive of `nv` vertices, deltas turned by `lin` (the
/// bake's linear part), named from the mesh's `extras.targetNames`.
fn read_morphs(
    doc: &Doc,
    prim: &Value,
    at: &str,
    nv: usize,
    lin: Mat3,
    target_names: &[String],
) -> Result<Vec<MorphTarget>> {
    let mut morphs = Vec::new();
    for (t, target) in array(prim, "targets").iter().enumerate() {
        let tat = format!("{at}.targets[{t}]");
        let read = |key: &str| -> Result<Option<Vec<Vec3>>> {
            match target.get(key).and_then(Value::as_u64) {
                None => Ok(None),
                Some(a) => {
                    let kat = format!("{tat}.{key}");
                    let c = doc.count(a, &kat)?;
                    if c as usize != nv {
                        return Err(doc.err(kat, format!("{c} elements for {nv} vertices")));
                    }
                    let f = doc.floats(a, 3, &kat)?;
                    if f.iter().any(|x| !x.is_finite()) {
                        return Err(doc.err(kat, "non-finite morph delta"));
                    }
                    let d: Vec<Vec3> = f
                        .chunks_exact(3)
                        .map(|d| lin * Vec3::from_slice(d))
                        .collect();
                    if d.iter().any(|x| !x.is_finite()) {
                        return Err(doc.err(kat, "non-finite morph delta once transformed"));
                    }
                    Ok(Some(d))
                }
            }
        };
        let pos = read("POSITION")?.unwrap_or_else(|| vec![Vec3::ZERO; nv]);
        let nrm = read("NORMAL")?;
        let name = target_names
            .get(t)
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("target{t}"));
        morphs.push(MorphTarget {
            name,
            position_deltas: pos,
            normal_deltas: nrm,
        });
    }
    Ok(morphs)
}
