//! Parts that hold pieces of different kinds, made parts of their own.
//!
//! A character exported as one object per mesh without its materials (an OBJ written
//! with materials off), or drawn from one texture atlas in one primitive, keeps its
//! head, hat, hair and eyes in one part. Roles are given per part ([`Body::of`]), so
//! the hat and the eyes were welded into the skin: the fit measured the hat as the
//! head and the skin's height, and the eyes and the hat were weighted as flesh.
//!
//! [`separate_mixed_parts`] looks at every part's separate pieces (islands of triangles
//! joined by welded vertices, [`crate::geom::weld::islands`]) as if each were a part of
//! its own and asks [`Body::of`] what each is. A part some of whose pieces are skin or
//! garment and others rigid, an accessory or hair keeps its skin and garment pieces;
//! the others leave it, one new part per class (`NAME.accessory`, `NAME.rigid`,
//! `NAME.hair`), each with its vertices in their order, and their weights, normals,
//! texture coordinates and morph targets. A part whose pieces are all of one kind (a
//! body in pieces, a pair of eyes, a head of hair tufts) is left as it is, so files
//! split by material are read as before. Every split is a warning naming the part.

use std::collections::BTreeMap;

use super::body::TOUCH;
use super::{Body, BodyOptions, Character, Mesh, MorphTarget, Part, PartClass, Weights};
use crate::geom::weld::{islands, weld_near};

/// Most pieces a part may have to be looked at piece by piece (a part of more is
/// debris or tufts, judged whole).
pub const MAX_PIECES: usize = 64;

/// Per vertex of a part: the piece (island of welded triangles) it belongs to, `None`
/// for a vertex no triangle uses; and the number of pieces.
fn pieces_of(m: &Mesh, tol: f32) -> (Vec<Option<u32>>, usize) {
    let (gid, ng) = weld_near(&m.positions, tol);
    let tris: Vec<[u32; 3]> = m
        .triangles
        .iter()
        .map(|t| t.map(|k| gid[k as usize]))
        .collect();
    let (label, _) = islands(ng, &tris);
    // Number the pieces that hold triangles, in order of their first triangle.
    let mut id: BTreeMap<u32, u32> = BTreeMap::new();
    for t in &tris {
        let next = id.len() as u32;
        id.entry(label[t[0] as usize]).or_insert(next);
    }
    let mut used = vec![false; m.positions.len()];
    for t in &m.triangles {
        for &k in t {
            used[k as usize] = true;
        }
    }
    let per_vertex = (0..m.positions.len())
        .map(|v| {
            used[v]
                .then(|| id.get(&label[gid[v] as usize]).copied())
                .flatten()
        })
        .collect();
    (per_vertex, id.len())
}

/// The part made of vertices `keep` (ascending) of `p`, named `name`: its triangles
/// whose corners are all kept, and every per-vertex attribute.
fn subset(p: &Part, keep: &[usize], name: String) -> Part {
    let mut new = vec![u32::MAX; p.mesh.positions.len()];
    for (i, &v) in keep.iter().enumerate() {
        new[v] = i as u32;
    }
    let pick = |v: &[glam::Vec3]| keep.iter().map(|&k| v[k]).collect::<Vec<_>>();
    let triangles = p
        .mesh
        .triangles
        .iter()
        .filter(|t| t.iter().all(|&k| new[k as usize] != u32::MAX))
        .map(|t| t.map(|k| new[k as usize]))
        .collect();
    Part {
        name,
        material: p.material.clone(),
        mesh: Mesh {
            positions: pick(&p.mesh.positions),
            triangles,
            normals: p.mesh.normals.as_deref().map(pick),
            uvs: p
                .mesh
                .uvs
                .as_ref()
                .map(|u| keep.iter().map(|&k| u[k]).collect()),
        },
        weights: p.weights.as_ref().map(|w| Weights {
            vertices: keep
                .iter()
                .map(|&k| w.vertices.get(k).cloned().unwrap_or_default())
                .collect(),
        }),
        morphs: p
            .morphs
            .iter()
            .map(|m| MorphTarget {
                name: m.name.clone(),
                position_deltas: pick(&m.position_deltas),
                normal_deltas: m.normal_deltas.as_deref().map(pick),
            })
            .collect(),
    }
}

/// `name`, or `name.2`, `name.3`... when a part is already so named.
fn free_name<'a>(name: String, parts: impl Iterator<Item = &'a Part> + Clone) -> String {
    let taken = |n: &str| parts.clone().any(|p| p.name == n);
    if !taken(&name) {
        return name;
    }
    (2..)
        .map(|k| format!("{name}.{k}"))
        .find(|n| !taken(n))
        .expect("a free name")
}

/// Whether a piece of class `class` leaves a part whose pieces are of classes
/// `classes`. Beside skin, what is rigid, an accessory or hair leaves, and garments
/// leave when `capping` (one of them rises above the skin pieces: a hat or a head of
/// hair welded to the head); garment pieces lying on the skin below its top (a nose,
/// eyebrows modelled as pieces sunk into the face) stay skin. Beside garments, what is
/// rigid, an accessory or hair leaves.
fn leaves(class: PartClass, classes: &[PartClass], capping: bool) -> bool {
    match class {
        PartClass::Skin => false,
        PartClass::Garment => classes.contains(&PartClass::Skin) && capping,
        PartClass::Rigid | PartClass::Accessory | PartClass::Hair => {
            classes.contains(&PartClass::Skin) || classes.contains(&PartClass::Garment)
        }
    }
}

/// The class of piece `k` among a part's pieces `cl`.
fn class_of(cl: &[(u32, PartClass, String)], k: u32) -> PartClass {
    cl.iter()
        .find(|(j, _, _)| *j == k)
        .map_or(PartClass::Skin, |(_, c, _)| *c)
}

/// Splits every part whose pieces are of different kinds (see the module docs) and
/// returns one line per split part. A VRM character is left as it is (its expressions
/// name meshes by index), as is a character no part of which has two pieces.
pub fn separate_mixed_parts(c: &mut Character) -> Vec<String> {
    if c.vrm.is_some() || c.parts.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = c.bounds();
    let size = (hi - lo).max_element();
    if !(size.is_finite() && size > 0.0) {
        return Vec::new();
    }
    let tol = 1e-5 * size;
    let pieces: Vec<(Vec<Option<u32>>, usize)> =
        c.parts.iter().map(|p| pieces_of(&p.mesh, tol)).collect();
    let looked = |n: usize| (2..=MAX_PIECES).contains(&n);
    if !pieces.iter().any(|(_, n)| looked(*n)) {
        return Vec::new();
    }

    // Every looked-at part exploded into its pieces, each a part under the same name.
    let mut exploded = Character::default();
    let mut origin: Vec<(usize, Option<u32>)> = Vec::new();
    for (i, p) in c.parts.iter().enumerate() {
        let (per, n) = &pieces[i];
        if !looked(*n) {
            exploded.parts.push(Part {
                name: p.name.clone(),
                material: p.material.clone(),
                mesh: Mesh {
                    positions: p.mesh.positions.clone(),
                    triangles: p.mesh.triangles.clone(),
                    normals: None,
                    uvs: None,
                },
                ..Part::default()
            });
            origin.push((i, None));
            continue;
        }
        for k in 0..*n as u32 {
            let keep: Vec<usize> = (0..per.len()).filter(|&v| per[v] == Some(k)).collect();
            let mut q = subset(p, &keep, p.name.clone());
            q.weights = None;
            q.morphs.clear();
            q.mesh.normals = None;
            q.mesh.uvs = None;
            exploded.parts.push(q);
            origin.push((i, Some(k)));
        }
    }
    let Ok(body) = Body::of(&exploded, &BodyOptions::default()) else {
        return Vec::new();
    };

    // Per looked-at part: the class and reason of each piece.
    let mut classes: BTreeMap<usize, Vec<(u32, PartClass, String)>> = BTreeMap::new();
    for (e, &(i, k)) in origin.iter().enumerate() {
        if let Some(k) = k {
            let r = &body.roles[e];
            classes
                .entry(i)
                .or_default()
                .push((k, r.class, r.reason.clone()));
        }
    }

    let mut lines = Vec::new();
    let mut out: Vec<Part> = Vec::with_capacity(c.parts.len());
    for (i, p) in c.parts.iter().enumerate() {
        let Some(cl) = classes.get(&i) else {
            out.push(p.clone());
            continue;
        };
        let all: Vec<PartClass> = cl.iter().map(|(_, class, _)| *class).collect();
        let (per, n) = &pieces[i];
        let top = |class: PartClass| {
            (0..per.len())
                .filter(|&v| per[v].is_some_and(|k| class_of(cl, k) == class))
                .map(|v| p.mesh.positions[v].y)
                .fold(f32::NEG_INFINITY, f32::max)
        };
        let capping = top(PartClass::Garment) > top(PartClass::Skin) + TOUCH * body.height;
        if !all.iter().any(|&class| leaves(class, &all, capping)) {
            out.push(p.clone());
            continue;
        }
        let leaving = |v: usize| {
            per[v]
                .map(|k| class_of(cl, k))
                .filter(|&c| leaves(c, &all, capping))
        };
        let kept: Vec<usize> = (0..per.len()).filter(|&v| leaving(v).is_none()).collect();
        out.push(subset(p, &kept, p.name.clone()));
        let mut said = Vec::new();
        for class in [
            PartClass::Garment,
            PartClass::Accessory,
            PartClass::Hair,
            PartClass::Rigid,
        ] {
            let keep: Vec<usize> = (0..per.len())
                .filter(|&v| leaving(v) == Some(class))
                .collect();
            if keep.is_empty() {
                continue;
            }
            let name = free_name(
                format!("{}.{}", p.name, class.name()),
                c.parts.iter().chain(&out),
            );
            let why: Vec<&str> = cl
                .iter()
                .filter(|(_, c, _)| *c == class)
                .map(|(_, _, r)| r.as_str())
                .collect();
            said.push(format!(
                "{name} ({} of its pieces, {} vertices: {})",
                why.len(),
                keep.len(),
                why[0]
            ));
            let mut q = subset(p, &keep, name);
            // A morph target that moves none of these pieces is not theirs.
            q.morphs
                .retain(|m| m.position_deltas.iter().any(|d| *d != glam::Vec3::ZERO));
            out.push(q);
        }
        lines.push(format!(
            "part {:?} holds {n} separate pieces of different kinds: the {} pieces keep \
             its name ({} vertices), the others are parts of their own: {}",
            p.name,
            if all.contains(&PartClass::Skin) {
                "skin"
            } else {
                "garment"
            },
            kept.len(),
            said.join("; ")
        ));
    }
    if !lines.is_empty() {
        c.parts = out;
    }
    lines
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::model::Influence;

    /// A trunk and head (one closed piece) with a small closed eyeball standing out of
    /// its face, in one part; and the two legs (two closed pieces welded nowhere) in
    /// another.
    fn figure() -> Character {
        let mut body = Mesh::cuboid(Vec3::new(-0.2, 0.8, -0.1), Vec3::new(0.2, 1.75, 0.1));
        body.append(&Mesh::cuboid(
            Vec3::new(0.03, 1.62, 0.09),
            Vec3::new(0.06, 1.65, 0.12),
        ));
        let mut legs = Mesh::cuboid(Vec3::new(-0.18, 0.0, -0.08), Vec3::new(-0.02, 0.85, 0.08));
        legs.append(&Mesh::cuboid(
            Vec3::new(0.02, 0.0, -0.08),
            Vec3::new(0.18, 0.85, 0.08),
        ));
        let n = body.positions.len();
        let weights = Weights {
            vertices: (0..n)
                .map(|v| {
                    vec![Influence {
                        bone: v as u32,
                        weight: 1.0,
                    }]
                })
                .collect(),
        };
        let moving = |from: usize, to: usize, d: Vec3| MorphTarget {
            name: String::new(),
            position_deltas: (0..n)
                .map(|v| {
                    if (from..to).contains(&v) {
                        d
                    } else {
                        Vec3::ZERO
                    }
                })
                .collect(),
            normal_deltas: None,
        };
        Character {
            parts: vec![
                Part {
                    name: "Body".into(),
                    material: Some("Atlas".into()),
                    mesh: body,
                    weights: Some(weights),
                    morphs: vec![
                        MorphTarget {
                            name: "blink".into(),
                            ..moving(8, 16, Vec3::new(0.0, -0.01, 0.0))
                        },
                        MorphTarget {
                            name: "breathe".into(),
                            ..moving(0, 8, Vec3::X * 0.01)
                        },
                    ],
                },
                Part {
                    name: "Legs".into(),
                    mesh: legs,
                    ..Part::default()
                },
            ],
            ..Character::default()
        }
    }

    #[test]
    fn an_eyeball_in_the_bodys_part_becomes_a_rigid_part_of_its_own() {
        let mut c = figure();
        let before = c.body().unwrap();
        assert_eq!(before.roles[0].class, PartClass::Skin);
        assert_eq!(
            before.mesh.positions.len(),
            16 + 16,
            "the eye was in the skin"
        );
        let said = separate_mixed_parts(&mut c);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("\"Body\"") && said[0].contains("Body.rigid"));
        let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["Body", "Body.rigid", "Legs"],
            "the legs stay one part"
        );
        let (body, eye) = (&c.parts[0], &c.parts[1]);
        assert_eq!(body.mesh.positions.len(), 8);
        assert_eq!(eye.mesh.positions.len(), 8);
        assert_eq!(eye.mesh.triangles.len(), 12);
        assert_eq!(eye.material.as_deref(), Some("Atlas"));
        // Vertex order and every per-vertex value go with the vertex.
        let w = eye.weights.as_ref().unwrap();
        assert_eq!(w.vertices[0][0].bone, 8);
        assert_eq!(w.vertices[7][0].bone, 15);
        assert_eq!(eye.mesh.positions[0], Vec3::new(0.03, 1.62, 0.09));
        // The eye keeps the morph that moves it, not the trunk's.
        let morphs: Vec<&str> = eye.morphs.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(morphs, ["blink"]);
        assert_eq!(body.morphs.len(), 2);
        assert_eq!(body.morphs[1].position_deltas.len(), 8);
        let roles = c.body().unwrap();
        assert_eq!(roles.roles[0].class, PartClass::Skin);
        assert_eq!(
            roles.roles[1].class,
            PartClass::Rigid,
            "{}",
            roles.roles[1].reason
        );
        assert_eq!(roles.mesh.positions.len(), 8 + 16);
        // Read again, nothing more is split.
        let again = c.clone();
        assert!(separate_mixed_parts(&mut c).is_empty());
        assert_eq!(c, again);
    }

    #[test]
    fn a_part_whose_pieces_are_all_skin_is_left_whole() {
        let mut c = figure();
        c.parts[0] = Part {
            name: "Body".into(),
            mesh: Mesh::cuboid(Vec3::new(-0.2, 0.8, -0.1), Vec3::new(0.2, 1.75, 0.1)),
            ..Part::default()
        };
        let again = c.clone();
        assert!(separate_mixed_parts(&mut c).is_empty());
        assert_eq!(c, again);
    }

    #[test]
    fn a_vrm_is_left_as_it_is() {
        let mut c = figure();
        c.vrm = Some(crate::model::VrmData::default());
        assert!(separate_mixed_parts(&mut c).is_empty());
        assert_eq!(c.parts.len(), 2);
    }
}
