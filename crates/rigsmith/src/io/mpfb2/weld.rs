//! One mesh from many parts: a dressed body as a character modelled in its clothes
//! arrives, the shirt and the ankle-long skirt part of the skin's mesh (a robe, a long
//! dress). No part boundary says where the cloth is, so the fit must find the legs
//! under it ([`crate::fit`]); the artist weights still say what each vertex should do.

use crate::model::{Character, Mesh, Part, Weights};

/// Every part of `c` in one part named `body`: positions and triangles in the parts'
/// order (vertex `k` of part `i` lands after all vertices of parts `0..i`), weights
/// concatenated when every part has them, the skeleton kept. Morph targets, normals
/// and texture coordinates are dropped (the parts need not share them).
pub fn weld_parts(c: &Character) -> Character {
    let mut mesh = Mesh::default();
    let mut weights = Some(Weights::default());
    for p in &c.parts {
        let off = mesh.positions.len() as u32;
        mesh.positions.extend_from_slice(&p.mesh.positions);
        mesh.triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|k| k + off)));
        weights = match (weights, &p.weights) {
            (Some(mut w), Some(pw)) => {
                w.vertices.extend(pw.vertices.iter().cloned());
                Some(w)
            }
            _ => None,
        };
    }
    Character {
        parts: vec![Part {
            name: "body".into(),
            mesh,
            weights,
            ..Default::default()
        }],
        skeleton: c.skeleton.clone(),
        ..Default::default()
    }
}
