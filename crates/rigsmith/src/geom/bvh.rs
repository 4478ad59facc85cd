//! A bounding-volume hierarchy over a triangle mesh, shared by every stage that asks
//! where a surface is:
//!
//! * segment occlusion, "is the bone visible from this vertex?" ([`Bvh::segment_blocked`],
//!   [`Bvh::first_hit`]: bone heat, bone reach);
//! * closest points ([`Bvh::closest`]: garment weight transfer);
//! * box overlap ([`Bvh::query`]: self-intersection counting);
//! * ray crossings and inside tests ([`Bvh::ray_crossings`], [`Bvh::contains`]:
//!   placement checks, garment penetration).
//!
//! The tree is built once per mesh by median splits along the longest axis of the
//! triangle centroids (leaves of at most [`LEAF_SIZE`] triangles; ties broken by
//! triangle index, so the tree is deterministic), stored flat (nodes in depth-first
//! order). `O(m log m)` to build for m triangles. Segment and closest-point queries walk
//! it with an explicit stack and no allocation.
//!
//! * `positions`: n x 3, any unit (the binder works in units of the body height).
//! * `triangles`: m x 3 indices. A triangle with an index out of range becomes a
//!   degenerate one at the origin (callers validate meshes first; the tree never panics).
//!
//! Degenerate triangles are kept (they occlude nothing and are never closest by more
//! than their edges allow).

use glam::Vec3;

/// Largest number of triangles in a leaf.
pub const LEAF_SIZE: usize = 4;

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Minimum corner.
    pub lo: Vec3,
    /// Maximum corner.
    pub hi: Vec3,
}

impl Aabb {
    /// The empty box.
    pub const EMPTY: Aabb = Aabb {
        lo: Vec3::splat(f32::INFINITY),
        hi: Vec3::splat(f32::NEG_INFINITY),
    };
    /// The box of a triangle.
    pub fn of_tri(t: [Vec3; 3]) -> Aabb {
        Aabb {
            lo: t[0].min(t[1]).min(t[2]),
            hi: t[0].max(t[1]).max(t[2]),
        }
    }
    /// The union of two boxes.
    pub fn union(self, o: Aabb) -> Aabb {
        Aabb {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
    /// Whether two boxes overlap (touching counts).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.lo.cmple(o.hi).all() && o.lo.cmple(self.hi).all()
    }
}

#[derive(Debug, Clone, Copy)]
struct Node {
    lo: Vec3,
    hi: Vec3,
    /// Leaf: first triangle in `order`; inner: index of the right child (left is next).
    start: u32,
    /// Leaf: triangle count (> 0); inner: 0.
    count: u32,
}

/// A triangle BVH (see the module docs).
#[derive(Debug, Clone)]
pub struct Bvh {
    nodes: Vec<Node>,
    order: Vec<u32>,
    tris: Vec<[Vec3; 3]>,
}

/// The closest point on a mesh to a query point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closest {
    /// Index of the triangle in the mesh's triangle list.
    pub triangle: u32,
    /// Barycentric coordinates of the point on that triangle (sum 1).
    pub bary: [f32; 3],
    /// Squared distance from the query point.
    pub dist2: f32,
}

impl Bvh {
    /// Builds the tree over `triangles` of `positions`.
    pub fn build(positions: &[Vec3], triangles: &[[u32; 3]]) -> Bvh {
        let n = positions.len();
        let tris: Vec<[Vec3; 3]> = triangles
            .iter()
            .map(|t| {
                if t.iter().all(|&i| (i as usize) < n) {
                    t.map(|i| positions[i as usize])
                } else {
                    [Vec3::ZERO; 3]
                }
            })
            .collect();
        let cent: Vec<Vec3> = tris.iter().map(|t| (t[0] + t[1] + t[2]) / 3.0).collect();
        let mut order: Vec<u32> = (0..tris.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * tris.len() / LEAF_SIZE + 1);
        if !tris.is_empty() {
            build_rec(&tris, &cent, &mut order, 0, tris.len(), &mut nodes);
        }
        Bvh { nodes, order, tris }
    }

    /// The triangles' corner positions (m x 3), in the order of the mesh's triangle list.
    pub fn tris(&self) -> &[[Vec3; 3]] {
        &self.tris
    }

    /// Calls `f(j)` for every triangle `j` whose box overlaps `bb`.
    pub fn query(&self, bb: &Aabb, mut f: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let idx = stack[sp];
            let node = self.nodes[idx as usize];
            if !(Aabb {
                lo: node.lo,
                hi: node.hi,
            })
            .overlaps(bb)
            {
                continue;
            }
            if node.count > 0 {
                for k in node.start..node.start + node.count {
                    let t = self.order[k as usize] as usize;
                    if Aabb::of_tri(self.tris[t]).overlaps(bb) {
                        f(t);
                    }
                }
            } else if sp + 2 <= stack.len() {
                stack[sp] = node.start;
                stack[sp + 1] = idx + 1;
                sp += 2;
            }
        }
    }

    /// Number of triangles crossed by the ray `o + t d`, `t > 0`.
    pub fn ray_crossings(&self, o: Vec3, d: Vec3) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let inv = Vec3::new(safe_inv(d.x), safe_inv(d.y), safe_inv(d.z));
        let mut count = 0;
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let idx = stack[sp];
            let node = self.nodes[idx as usize];
            if !slab(node.lo, node.hi, o, inv, 0.0, f32::INFINITY) {
                continue;
            }
            if node.count > 0 {
                for k in node.start..node.start + node.count {
                    if ray_crosses(o, d, &self.tris[self.order[k as usize] as usize]) {
                        count += 1;
                    }
                }
            } else if sp + 2 <= stack.len() {
                stack[sp] = node.start;
                stack[sp + 1] = idx + 1;
                sp += 2;
            }
        }
        count
    }

    /// Whether `p` is inside the (closed or nearly closed) surface: a majority vote of
    /// crossing parity along three skew rays, so a hole or a grazing ray on one of them
    /// does not decide alone.
    pub fn contains(&self, p: Vec3) -> bool {
        let dirs = [
            Vec3::new(0.577, 0.211, 0.789),
            Vec3::new(-0.613, 0.437, -0.659),
            Vec3::new(0.101, -0.947, 0.305),
        ];
        let odd = dirs
            .iter()
            .filter(|d| self.ray_crossings(p, **d) % 2 == 1)
            .count();
        odd >= 2
    }

    /// Number of triangles.
    pub fn len(&self) -> usize {
        self.tris.len()
    }

    /// Whether the tree holds no triangle.
    pub fn is_empty(&self) -> bool {
        self.tris.is_empty()
    }

    /// Whether the open segment `a + t (b - a)`, `t` in `(t_min, t_max)`, crosses any
    /// triangle. `t_min`/`t_max` are fractions of the segment (e.g. `1e-4`, `1 - 1e-4`)
    /// so the triangles around the start vertex do not hide it from itself.
    pub fn segment_blocked(&self, a: Vec3, b: Vec3, t_min: f32, t_max: f32) -> bool {
        self.segment_walk(a, b, t_min, t_max, true).is_some()
    }

    /// The smallest `t` in `(t_min, t_max)` at which the segment `a + t (b - a)` crosses
    /// a triangle, if any.
    pub fn first_hit(&self, a: Vec3, b: Vec3, t_min: f32, t_max: f32) -> Option<f32> {
        self.segment_walk(a, b, t_min, t_max, false)
    }

    /// Walks the boxes the segment crosses; returns the first crossing found (`any`) or
    /// the nearest one.
    fn segment_walk(&self, a: Vec3, b: Vec3, t_min: f32, t_max: f32, any: bool) -> Option<f32> {
        if self.nodes.is_empty() {
            return None;
        }
        let d = b - a;
        let inv = Vec3::new(safe_inv(d.x), safe_inv(d.y), safe_inv(d.z));
        let mut best = t_max;
        let mut found = false;
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let idx = stack[sp];
            let node = self.nodes[idx as usize];
            if !slab(node.lo, node.hi, a, inv, t_min, best) {
                continue;
            }
            if node.count > 0 {
                for k in node.start..node.start + node.count {
                    let t = &self.tris[self.order[k as usize] as usize];
                    if let Some(s) = ray_triangle(a, d, t) {
                        if s > t_min && s < best {
                            if any {
                                return Some(s);
                            }
                            best = s;
                            found = true;
                        }
                    }
                }
            } else if sp + 2 <= stack.len() {
                stack[sp] = node.start;
                stack[sp + 1] = idx + 1;
                sp += 2;
            }
        }
        found.then_some(best)
    }

    /// The closest point of the mesh to `p`; `None` when the mesh has no triangle.
    pub fn closest(&self, p: Vec3) -> Option<Closest> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut best = Closest {
            triangle: 0,
            bary: [1.0, 0.0, 0.0],
            dist2: f32::INFINITY,
        };
        let mut stack = [0u32; 64];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let idx = stack[sp] as usize;
            let node = self.nodes[idx];
            if box_dist2(node.lo, node.hi, p) >= best.dist2 {
                continue;
            }
            if node.count > 0 {
                for k in node.start..node.start + node.count {
                    let ti = self.order[k as usize];
                    let t = &self.tris[ti as usize];
                    let (q, bary) = closest_on_triangle(p, t);
                    let d2 = (q - p).length_squared();
                    if d2 < best.dist2 || (d2 == best.dist2 && ti < best.triangle) {
                        best = Closest {
                            triangle: ti,
                            bary,
                            dist2: d2,
                        };
                    }
                }
            } else if sp + 2 <= stack.len() {
                // Visit the nearer child first (pushed last).
                let l = idx as u32 + 1;
                let r = node.start;
                let dl = box_dist2(self.nodes[l as usize].lo, self.nodes[l as usize].hi, p);
                let dr = box_dist2(self.nodes[r as usize].lo, self.nodes[r as usize].hi, p);
                if dl <= dr {
                    stack[sp] = r;
                    stack[sp + 1] = l;
                } else {
                    stack[sp] = l;
                    stack[sp + 1] = r;
                }
                sp += 2;
            }
        }
        Some(best)
    }
}

fn build_rec(
    tris: &[[Vec3; 3]],
    cent: &[Vec3],
    order: &mut [u32],
    start: usize,
    end: usize,
    nodes: &mut Vec<Node>,
) -> usize {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    let (mut clo, mut chi) = (lo, hi);
    for &t in &order[start..end] {
        for v in tris[t as usize] {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        clo = clo.min(cent[t as usize]);
        chi = chi.max(cent[t as usize]);
    }
    let me = nodes.len();
    nodes.push(Node {
        lo,
        hi,
        start: start as u32,
        count: (end - start) as u32,
    });
    if end - start <= LEAF_SIZE {
        return me;
    }
    let ext = chi - clo;
    let axis = if ext.x >= ext.y && ext.x >= ext.z {
        0
    } else if ext.y >= ext.z {
        1
    } else {
        2
    };
    let mid = (start + end) / 2;
    order[start..end].select_nth_unstable_by(mid - start, |a, b| {
        cent[*a as usize][axis]
            .total_cmp(&cent[*b as usize][axis])
            .then(a.cmp(b))
    });
    build_rec(tris, cent, order, start, mid, nodes);
    let right = build_rec(tris, cent, order, mid, end, nodes);
    nodes[me].start = right as u32;
    nodes[me].count = 0;
    me
}

fn safe_inv(x: f32) -> f32 {
    if x.abs() < 1e-30 {
        1e30_f32.copysign(x)
    } else {
        1.0 / x
    }
}

fn slab(lo: Vec3, hi: Vec3, o: Vec3, inv: Vec3, t0: f32, t1: f32) -> bool {
    let a = (lo - o) * inv;
    let b = (hi - o) * inv;
    let tmin = a.min(b).max_element().max(t0);
    let tmax = a.max(b).min_element().min(t1);
    tmin <= tmax
}

/// Barycentric tolerance of the segment-triangle test.
pub const EDGE_EPS: f32 = 1e-5;

/// Möller–Trumbore: the ray parameter of the hit, if any (two-sided).
fn ray_triangle(o: Vec3, d: Vec3, t: &[Vec3; 3]) -> Option<f32> {
    let e1 = t[1] - t[0];
    let e2 = t[2] - t[0];
    let p = d.cross(e2);
    let det = e1.dot(p);
    let scale = e1.length_squared().max(e2.length_squared()) * d.length();
    if det.abs() <= 1e-12 * scale.max(1e-30) {
        return None;
    }
    let inv = 1.0 / det;
    let s = o - t[0];
    let u = s.dot(p) * inv;
    // Inclusive by EDGE_EPS: a segment through a shared edge (symmetric meshes put
    // many rays exactly in the plane of their centre-line edges) hits both triangles
    // instead of slipping between them by rounding.
    if !(-EDGE_EPS..=1.0 + EDGE_EPS).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    if v < -EDGE_EPS || u + v > 1.0 + EDGE_EPS {
        return None;
    }
    Some(e2.dot(q) * inv)
}

/// Möller-Trumbore ray/triangle crossing test for the parity count, `t > 0`.
fn ray_crosses(o: Vec3, d: Vec3, t: &[Vec3; 3]) -> bool {
    let e1 = t[1] - t[0];
    let e2 = t[2] - t[0];
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-20 {
        return false;
    }
    let inv = 1.0 / det;
    let s = o - t[0];
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return false;
    }
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return false;
    }
    e2.dot(q) * inv > 0.0
}

fn box_dist2(lo: Vec3, hi: Vec3, p: Vec3) -> f32 {
    let q = p.clamp(lo, hi);
    (q - p).length_squared()
}

/// Closest point on a triangle and its barycentric coordinates (Ericson's regions).
pub fn closest_on_triangle(p: Vec3, t: &[Vec3; 3]) -> (Vec3, [f32; 3]) {
    let (a, b, c) = (t[0], t[1], t[2]);
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, [1.0, 0.0, 0.0]);
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, [0.0, 1.0, 0.0]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (a + ab * v, [1.0 - v, v, 0.0]);
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, [0.0, 0.0, 1.0]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (a + ac * w, [1.0 - w, 0.0, w]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (b + (c - b) * w, [0.0, 1.0 - w, w]);
    }
    let denom = va + vb + vc;
    if denom.abs() < 1e-30 {
        return (a, [1.0, 0.0, 0.0]);
    }
    let v = vb / denom;
    let w = vc / denom;
    (a + ab * v + ac * w, [1.0 - v - w, v, w])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let p = vec![
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
        ];
        (p, vec![[0, 1, 2], [0, 2, 3]])
    }

    #[test]
    fn segment_through_quad_is_blocked() {
        let (p, t) = quad();
        let b = Bvh::build(&p, &t);
        assert!(b.segment_blocked(
            Vec3::new(0.2, 1.0, 0.1),
            Vec3::new(0.2, -1.0, 0.1),
            1e-4,
            1.0 - 1e-4
        ));
        assert!(!b.segment_blocked(
            Vec3::new(2.2, 1.0, 0.1),
            Vec3::new(2.2, -1.0, 0.1),
            1e-4,
            1.0 - 1e-4
        ));
    }

    #[test]
    fn closest_point_on_quad() {
        let (p, t) = quad();
        let b = Bvh::build(&p, &t);
        let c = b.closest(Vec3::new(0.5, 2.0, 0.5)).unwrap();
        assert!((c.dist2 - 4.0).abs() < 1e-5);
    }
}
