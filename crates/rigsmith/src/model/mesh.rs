use glam::{Vec2, Vec3};

use crate::error::{Error, Result};

/// A triangle mesh.
///
/// * `positions`: n x 3, metres, glTF space.
/// * `triangles`: m x 3 indices into `positions`, counter-clockwise seen from outside.
/// * `normals`: optional, n x 3 unit vectors.
/// * `uvs`: optional, n x 2.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions (n).
    pub positions: Vec<Vec3>,
    /// Triangles (m), indices into `positions`.
    pub triangles: Vec<[u32; 3]>,
    /// Per-vertex normals (n), if known.
    pub normals: Option<Vec<Vec3>>,
    /// Per-vertex texture coordinates (n), if known.
    pub uvs: Option<Vec<Vec2>>,
}

/// A morph target (blend shape): per-vertex offsets added to the base mesh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MorphTarget {
    /// The target's name (from glTF `extras.targetNames` or the source file).
    pub name: String,
    /// Position deltas, one per vertex of the part.
    pub position_deltas: Vec<Vec3>,
    /// Normal deltas, if any, one per vertex.
    pub normal_deltas: Option<Vec<Vec3>>,
}

impl Mesh {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Axis-aligned bounds `(min, max)`; `(0, 0)` for an empty mesh.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        bounds_of(&self.positions)
    }

    /// Checks the invariants: finite positions, indices in range, attribute lengths match.
    pub fn validate(&self, what: &str) -> Result<()> {
        let n = self.positions.len();
        if let Some(i) = self.positions.iter().position(|p| !p.is_finite()) {
            return Err(Error::invalid(what, format!("position {i} is not finite")));
        }
        for (t, tri) in self.triangles.iter().enumerate() {
            if tri.iter().any(|&i| i as usize >= n) {
                return Err(Error::invalid(
                    what,
                    format!("triangle {t} has index {:?} but only {n} vertices", tri),
                ));
            }
        }
        if let Some(nr) = &self.normals {
            if nr.len() != n {
                return Err(Error::invalid(
                    what,
                    format!("{} normals for {n} vertices", nr.len()),
                ));
            }
        }
        if let Some(uv) = &self.uvs {
            if uv.len() != n {
                return Err(Error::invalid(
                    what,
                    format!("{} uvs for {n} vertices", uv.len()),
                ));
            }
        }
        Ok(())
    }

    /// Repairs the vertex attributes no consumer can use, as files sometimes hold them
    /// (Blender and three.js load such files; a glTF validator refuses them): a texture
    /// coordinate that is NaN or infinite becomes (0, 0), and a normal that is NaN,
    /// infinite or zero becomes the normal of the faces around its vertex (+Y on a vertex
    /// no face uses). Returns how many normals and how many texture coordinates were
    /// repaired; the readers name them in a warning.
    pub fn repair_attributes(&mut self) -> (usize, usize) {
        let mut fixed_uvs = 0;
        for t in self.uvs.iter_mut().flatten() {
            if !t.is_finite() {
                *t = Vec2::ZERO;
                fixed_uvs += 1;
            }
        }
        let bad = |n: &Vec3| !n.is_finite() || n.length_squared() == 0.0;
        let mut fixed_normals = 0;
        if self.normals.as_ref().is_some_and(|ns| ns.iter().any(bad)) {
            let faces = self.compute_normals();
            for (n, f) in self.normals.iter_mut().flatten().zip(faces) {
                if bad(n) {
                    *n = if f == Vec3::ZERO { Vec3::Y } else { f };
                    fixed_normals += 1;
                }
            }
        }
        (fixed_normals, fixed_uvs)
    }

    /// [`Mesh::repair_attributes`], with a warning for each kind it repaired; the
    /// readers name the place: `normals_at` and `uvs_at` (an accessor, an object).
    pub fn repair_attributes_noting(
        &mut self,
        normals_at: &str,
        uvs_at: &str,
        warnings: &mut Vec<String>,
    ) {
        let (normals, uvs) = self.repair_attributes();
        if normals > 0 {
            warnings.push(format!(
                "{normals_at}: {normals} normals NaN, infinite or zero; set to the normal of the faces around them"
            ));
        }
        if uvs > 0 {
            warnings.push(format!(
                "{uvs_at}: {uvs} texture coordinates NaN or infinite; set to (0, 0)"
            ));
        }
    }

    /// Area-weighted vertex normals computed from the triangles (unit length, or zero
    /// for isolated vertices).
    pub fn compute_normals(&self) -> Vec<Vec3> {
        let mut acc = vec![Vec3::ZERO; self.positions.len()];
        for t in &self.triangles {
            let [a, b, c] = t.map(|i| self.positions[i as usize]);
            let n = (b - a).cross(c - a);
            for &i in t {
                acc[i as usize] += n;
            }
        }
        acc.into_iter().map(|n| n.normalize_or_zero()).collect()
    }

    /// Unique undirected edges `(a, b)` with `a < b`, sorted.
    pub fn edges(&self) -> Vec<(u32, u32)> {
        let mut e: Vec<(u32, u32)> = Vec::with_capacity(self.triangles.len() * 3);
        for t in &self.triangles {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                e.push((a.min(b), a.max(b)));
            }
        }
        e.sort_unstable();
        e.dedup();
        e
    }

    /// Total surface area.
    pub fn area(&self) -> f32 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.positions[i as usize]);
                0.5 * (b - a).cross(c - a).length()
            })
            .sum()
    }

    /// A closed axis-aligned box from `lo` to `hi`: 8 vertices (vertex `k` is at `hi` on
    /// x when bit 0 of `k` is set, on y for bit 1, on z for bit 2, else at `lo`) and 12
    /// triangles, counter-clockwise seen from outside. The test shape of every stage.
    pub fn cuboid(lo: Vec3, hi: Vec3) -> Mesh {
        let corner = |k: u32| {
            Vec3::new(
                if k & 1 == 0 { lo.x } else { hi.x },
                if k & 2 == 0 { lo.y } else { hi.y },
                if k & 4 == 0 { lo.z } else { hi.z },
            )
        };
        // The six faces as quads, each counter-clockwise seen from outside.
        let quads: [[u32; 4]; 6] = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        Mesh {
            positions: (0..8).map(corner).collect(),
            triangles: quads
                .iter()
                .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
                .collect(),
            ..Default::default()
        }
    }

    /// Adds `other`'s vertices and triangles after this mesh's (its indices shifted by
    /// this mesh's vertex count). Normals and uvs are kept when both meshes have them,
    /// else dropped.
    pub fn append(&mut self, other: &Mesh) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.triangles
            .extend(other.triangles.iter().map(|t| t.map(|i| i + base)));
        self.normals = match (self.normals.take(), &other.normals) {
            (Some(mut a), Some(b)) => {
                a.extend_from_slice(b);
                Some(a)
            }
            _ => None,
        };
        self.uvs = match (self.uvs.take(), &other.uvs) {
            (Some(mut a), Some(b)) => {
                a.extend_from_slice(b);
                Some(a)
            }
            _ => None,
        };
    }
}

/// Axis-aligned bounds of a point set; `(0, 0)` when empty.
pub(crate) fn bounds_of(points: &[Vec3]) -> (Vec3, Vec3) {
    if points.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// How many triangles use each distinct edge of `triangles` (in no particular order):
/// 2 everywhere on a closed surface, 1 on an open border.
pub(crate) fn edge_uses(triangles: &[[u32; 3]]) -> Vec<usize> {
    let mut e: Vec<(u32, u32)> = Vec::with_capacity(triangles.len() * 3);
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            e.push((a.min(b), a.max(b)));
        }
    }
    e.sort_unstable();
    e.chunk_by(|a, b| a == b).map(<[_]>::len).collect()
}

/// Largest island diagonal, in units of body height, for shape detection.
pub const SMALL_ISLAND: f32 = 0.1;

/// Whether every island of `mesh` is closed and smaller than `SMALL_ISLAND * h`
/// (`h`: body height, same unit as the mesh).
pub fn rigid_by_shape(mesh: &Mesh, h: f32) -> bool {
    if mesh.triangles.is_empty() {
        return false;
    }
    let w = crate::geom::weld::weld(&mesh.positions, &mesh.triangles, 1e-6 * h);
    if edge_uses(&w.triangles).iter().any(|&n| n != 2) {
        return false;
    }
    let (label, k) = crate::geom::weld::islands(w.positions.len(), &w.triangles);
    let mut lo = vec![Vec3::splat(f32::INFINITY); k];
    let mut hi = vec![Vec3::splat(f32::NEG_INFINITY); k];
    for (v, p) in w.positions.iter().enumerate() {
        let l = label[v] as usize;
        lo[l] = lo[l].min(*p);
        hi[l] = hi[l].max(*p);
    }
    (0..k).all(|l| (hi[l] - lo[l]).length() < SMALL_ISLAND * h)
}
