//! A bounding-volume hierarchy over triangles: overlap queries (for self-intersection
//! counting) and ray crossings (for inside/outside tests).
//!
//! Built top-down by splitting the longest axis at the median centroid, leaves of up
//! to 4 triangles; deterministic (ties broken by triangle index). `O(m log m)` to
//! build for m triangles.

use glam::Vec3;

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
    bb: Aabb,
    /// Leaf: first index into `order`; inner: left child (right = left + 1... no: stored).
    a: u32,
    /// Leaf: count (> 0); inner: 0.
    n: u32,
    /// Inner: right child.
    b: u32,
}

/// A BVH over the triangles of one mesh (positions n x 3, triangles m x 3).
#[derive(Debug, Clone)]
pub struct Bvh {
    nodes: Vec<Node>,
    order: Vec<u32>,
    /// Triangle corner positions (m), metres.
    pub tris: Vec<[Vec3; 3]>,
    boxes: Vec<Aabb>,
}

impl Bvh {
    /// Builds the tree. Triangles with an index out of range are dropped (the caller
    /// validates meshes first).
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
        let boxes: Vec<Aabb> = tris.iter().map(|t| Aabb::of_tri(*t)).collect();
        let mut order: Vec<u32> = (0..tris.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * tris.len() / 3 + 2);
        if !tris.is_empty() {
            let cent: Vec<Vec3> = tris.iter().map(|t| (t[0] + t[1] + t[2]) / 3.0).collect();
            build_rec(&mut nodes, &mut order, 0, tris.len(), &boxes, &cent);
        }
        Bvh {
            nodes,
            order,
            tris,
            boxes,
        }
    }

    /// Calls `f(j)` for every triangle `j` whose box overlaps `bb`.
    pub fn query(&self, bb: &Aabb, mut f: impl FnMut(usize)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = vec![0u32];
        while let Some(k) = stack.pop() {
            let nd = &self.nodes[k as usize];
            if !nd.bb.overlaps(bb) {
                continue;
            }
            if nd.n > 0 {
                for &t in &self.order[nd.a as usize..(nd.a + nd.n) as usize] {
                    if self.boxes[t as usize].overlaps(bb) {
                        f(t as usize);
                    }
                }
            } else {
                stack.push(nd.a);
                stack.push(nd.b);
            }
        }
    }

    /// Number of triangles crossed by the ray `o + t d`, `t > 0`.
    pub fn ray_crossings(&self, o: Vec3, d: Vec3) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let inv = Vec3::ONE / d;
        let mut count = 0;
        let mut stack = vec![0u32];
        while let Some(k) = stack.pop() {
            let nd = &self.nodes[k as usize];
            if !ray_box(o, inv, &nd.bb) {
                continue;
            }
            if nd.n > 0 {
                for &t in &self.order[nd.a as usize..(nd.a + nd.n) as usize] {
                    if ray_tri(o, d, &self.tris[t as usize]) {
                        count += 1;
                    }
                }
            } else {
                stack.push(nd.a);
                stack.push(nd.b);
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
}

fn build_rec(
    nodes: &mut Vec<Node>,
    order: &mut [u32],
    start: usize,
    end: usize,
    boxes: &[Aabb],
    cent: &[Vec3],
) -> u32 {
    let mut bb = Aabb::EMPTY;
    let mut cb = Aabb::EMPTY;
    for &t in &order[start..end] {
        bb = bb.union(boxes[t as usize]);
        let c = cent[t as usize];
        cb = cb.union(Aabb { lo: c, hi: c });
    }
    let me = nodes.len() as u32;
    nodes.push(Node {
        bb,
        a: start as u32,
        n: (end - start) as u32,
        b: 0,
    });
    if end - start <= 4 {
        return me;
    }
    let ext = cb.hi - cb.lo;
    let axis = if ext.x >= ext.y && ext.x >= ext.z {
        0
    } else if ext.y >= ext.z {
        1
    } else {
        2
    };
    let mid = (start + end) / 2;
    order[start..end].select_nth_unstable_by(mid - start, |&a, &b| {
        cent[a as usize][axis]
            .total_cmp(&cent[b as usize][axis])
            .then(a.cmp(&b))
    });
    let l = build_rec(nodes, order, start, mid, boxes, cent);
    let r = build_rec(nodes, order, mid, end, boxes, cent);
    nodes[me as usize].a = l;
    nodes[me as usize].b = r;
    nodes[me as usize].n = 0;
    me
}

fn ray_box(o: Vec3, inv: Vec3, bb: &Aabb) -> bool {
    let t1 = (bb.lo - o) * inv;
    let t2 = (bb.hi - o) * inv;
    let tmin = t1.min(t2).max_element();
    let tmax = t1.max(t2).min_element();
    tmax >= tmin.max(0.0)
}

/// Möller-Trumbore ray/triangle test, `t > 0`.
fn ray_tri(o: Vec3, d: Vec3, t: &[Vec3; 3]) -> bool {
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
