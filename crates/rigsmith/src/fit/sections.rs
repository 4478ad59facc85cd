//! Cross-sections: cut meshes with a plane and split the cut into loops by topology.
//!
//! A plane through `plane_point` with normal `plane_normal` crosses a triangle when its
//! vertices lie on both sides (a vertex exactly on the plane counts as the positive
//! side, so every crossed triangle yields exactly one segment). Two segments belong to
//! the same loop when they cross the same mesh edge; following shared edges gives the
//! loops. Topology, not distance, decides: two thighs that touch stay two loops.
//!
//! Open meshes (holes, cut garments) give chains that do not close. Chains whose ends
//! lie within four mean segment lengths of each other (and a quarter of their length)
//! are joined across the gap (a small hole does not split a section); what still does not close is returned too,
//! with `closed == false`, and measured as if closed by a straight line.
//!
//! ```
//! use glam::Vec3;
//! use rigsmith::fit::cross_sections;
//! use rigsmith::Mesh;
//! // A unit cube (12 triangles) cut at half height gives one square loop.
//! let p = [[0.,0.,0.],[1.,0.,0.],[1.,1.,0.],[0.,1.,0.],[0.,0.,1.],[1.,0.,1.],[1.,1.,1.],[0.,1.,1.]];
//! let t = [[0,2,1],[0,3,2],[4,5,6],[4,6,7],[0,1,5],[0,5,4],[1,2,6],[1,6,5],[2,3,7],[2,7,6],[3,0,4],[3,4,7]];
//! let m = Mesh { positions: p.iter().map(|a| Vec3::from_array(*a)).collect(), triangles: t.to_vec(), ..Default::default() };
//! let loops = cross_sections(&[&m], Vec3::new(0.5, 0.5, 0.5), Vec3::Y);
//! assert_eq!(loops.len(), 1);
//! assert!(loops[0].closed);
//! assert!((loops[0].center - Vec3::new(0.5, 0.5, 0.5)).length() < 1e-5);
//! ```

use glam::Vec3;
use serde::Serialize;

use crate::model::Mesh;

/// One loop of a cross-section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loop {
    /// Index of the part (in the slice given to [`cross_sections`]) it comes from.
    pub part: usize,
    /// The points of the loop in order (k x 3, same units as the mesh), on the plane.
    pub points: Vec<Vec3>,
    /// Whether the chain closed on itself (false on open meshes).
    pub closed: bool,
    /// Centre: the length-weighted mean of the loop's segments' midpoints.
    pub center: Vec3,
    /// Mean distance of the points from `center`.
    pub radius: f32,
    /// Perimeter (closing segment included for open chains).
    pub perimeter: f32,
    /// Axis-aligned lower corner of the points.
    pub lo: Vec3,
    /// Axis-aligned upper corner of the points.
    pub hi: Vec3,
}

impl Loop {
    fn from_points(part: usize, points: Vec<Vec3>, closed: bool) -> Loop {
        let n = points.len();
        let mut sum = Vec3::ZERO;
        let mut len = 0.0;
        for i in 0..n {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let l = (b - a).length();
            sum += 0.5 * (a + b) * l;
            len += l;
        }
        let center = if len > 0.0 {
            sum / len
        } else {
            points.iter().copied().sum::<Vec3>() / n.max(1) as f32
        };
        let radius = points.iter().map(|p| (*p - center).length()).sum::<f32>() / n.max(1) as f32;
        let (lo, hi) = bounds(&points);
        Loop {
            part,
            points,
            closed,
            center,
            radius,
            perimeter: len,
            lo,
            hi,
        }
    }

    /// The extent (size of the bounding box) of the loop.
    pub fn extent(&self) -> Vec3 {
        self.hi - self.lo
    }

    /// Where the loop crosses the line `{p : p[axis] = value}` inside the plane: the
    /// coordinates along `other` of every crossing, sorted.
    pub fn crossings(&self, axis: usize, value: f32, other: usize) -> Vec<f32> {
        let n = self.points.len();
        let mut out = Vec::new();
        let segs = if self.closed { n } else { n.saturating_sub(1) };
        for i in 0..segs {
            let (a, b) = (self.points[i], self.points[(i + 1) % n]);
            let (da, db) = (a[axis] - value, b[axis] - value);
            if (da >= 0.0) != (db >= 0.0) {
                let t = da / (da - db);
                out.push(a[other] + t * (b[other] - a[other]));
            }
        }
        out.sort_by(f32::total_cmp);
        out
    }
}

/// Cuts `parts` with the plane through `plane_point` with normal `plane_normal` and
/// returns the loops of every part, in a deterministic order (part, then first crossed
/// triangle). Degenerate input (zero normal, empty meshes) gives no loops.
pub fn cross_sections(parts: &[&Mesh], plane_point: Vec3, plane_normal: Vec3) -> Vec<Loop> {
    let Some(n) = plane_normal.try_normalize() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (pi, m) in parts.iter().enumerate() {
        cut_one(pi, m, plane_point, n, &mut out);
    }
    out
}

fn cut_one(part: usize, m: &Mesh, p0: Vec3, n: Vec3, out: &mut Vec<Loop>) {
    cut_tris(part, &m.positions, m.triangles.iter().copied(), p0, n, out);
}

/// Cuts the triangles `tris` (indices into `positions`, in the mesh's order) with
/// the plane through `p0` with unit normal `n`.
fn cut_tris(
    part: usize,
    positions: &[Vec3],
    tris: impl Iterator<Item = [u32; 3]>,
    p0: Vec3,
    n: Vec3,
    out: &mut Vec<Loop>,
) {
    let nv = positions.len();
    // Per crossed triangle: its two crossed edges (a < b keys) and their crossing points.
    let mut segs: Vec<[(u32, u32); 2]> = Vec::new();
    let mut pts: Vec<[Vec3; 2]> = Vec::new();
    for t in tris {
        if t.iter().any(|&i| i as usize >= nv) {
            continue;
        }
        let dist = t.map(|i| (positions[i as usize] - p0).dot(n));
        let s = dist.map(|d| d >= 0.0);
        if s[0] == s[1] && s[1] == s[2] {
            continue;
        }
        let mut e = [(0u32, 0u32); 2];
        let mut q = [Vec3::ZERO; 2];
        let mut k = 0;
        for j in 0..3 {
            let (a, b) = (t[j], t[(j + 1) % 3]);
            if s[j] != s[(j + 1) % 3] && k < 2 {
                let (da, db) = (dist[j], dist[(j + 1) % 3]);
                let (pa, pb) = (positions[a as usize], positions[b as usize]);
                e[k] = (a.min(b), a.max(b));
                // Same point whichever triangle computes it: interpolate from the smaller index.
                let (lo, hi, dl, dh) = if a < b {
                    (pa, pb, da, db)
                } else {
                    (pb, pa, db, da)
                };
                let wl = dl / (dl - dh);
                q[k] = lo + wl * (hi - lo);
                k += 1;
            }
        }
        if k == 2 && e[0] != e[1] {
            segs.push(e);
            pts.push(q);
        }
    }
    if segs.is_empty() {
        return;
    }
    // Edge key -> segments touching it (sorted list, then paired).
    let mut keys: Vec<((u32, u32), u32)> = Vec::with_capacity(segs.len() * 2);
    for (i, s) in segs.iter().enumerate() {
        keys.push((s[0], i as u32));
        keys.push((s[1], i as u32));
    }
    keys.sort_unstable();
    let mut used = vec![false; segs.len()];
    let mut chains: Vec<(Vec<Vec3>, bool)> = Vec::new();
    let cut = Cut {
        segs: &segs,
        pts: &pts,
        keys: &keys,
    };
    for start in 0..segs.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        // Walk forward from edge 1, then backward from edge 0.
        let mut fwd: Vec<Vec3> = vec![pts[start][0], pts[start][1]];
        let closed = cut.walk(&mut used, start, segs[start][1], &mut fwd);
        if closed {
            // The last point equals the first crossing of `start`: drop the duplicate.
            if fwd.len() > 2 && (fwd[fwd.len() - 1] - fwd[0]).length_squared() < 1e-20 {
                fwd.pop();
            }
        } else {
            let mut back: Vec<Vec3> = Vec::new();
            cut.walk(&mut used, start, segs[start][0], &mut back);
            back.reverse();
            back.extend(fwd);
            fwd = back;
        }
        if fwd.len() >= 2 {
            chains.push((fwd, closed));
        }
    }
    for (points, closed) in stitch(chains) {
        out.push(Loop::from_points(part, points, closed));
    }
}

/// The segments of one cut: each crosses two mesh edges (`segs`, as sorted vertex
/// pairs) at two points (`pts`); `keys` lists (edge, segment) sorted by edge.
struct Cut<'a> {
    segs: &'a [[(u32, u32); 2]],
    pts: &'a [[Vec3; 2]],
    keys: &'a [((u32, u32), u32)],
}

impl Cut<'_> {
    /// The segment other than `not` that crosses edge `key`.
    fn find(&self, key: (u32, u32), not: u32) -> Option<u32> {
        let start = self.keys.partition_point(|(k, _)| *k < key);
        self.keys[start..]
            .iter()
            .take_while(|(k, _)| *k == key)
            .find(|(_, s)| *s != not)
            .map(|(_, s)| *s)
    }

    /// Follows the segments from segment `start` across its edge `key`, marking each one
    /// it takes in `used` and pushing its far crossing onto `out`; true when the walk
    /// comes back to `start` (a closed loop), false when it stops at an open end or a
    /// segment already taken.
    fn walk(
        &self,
        used: &mut [bool],
        start: usize,
        mut key: (u32, u32),
        out: &mut Vec<Vec3>,
    ) -> bool {
        let mut cur = start as u32;
        while let Some(nx) = self.find(key, cur) {
            if nx as usize == start {
                return true;
            }
            if used[nx as usize] {
                break;
            }
            used[nx as usize] = true;
            let s = self.segs[nx as usize];
            let (next_key, p) = if s[0] == key {
                (s[1], self.pts[nx as usize][1])
            } else {
                (s[0], self.pts[nx as usize][0])
            };
            out.push(p);
            key = next_key;
            cur = nx;
        }
        false
    }
}

/// Joins open chains across small holes: an open chain's end is joined to the nearest
/// end of another open chain (or closed onto its own start) when the gap is at most
/// four times the cut's mean segment length and at most a quarter of the joined
/// chains' length (a missing face of a coarse box is not a small hole). Closed chains pass unchanged; the order
/// is kept (a joined chain takes the place of its first piece).
fn stitch(chains: Vec<(Vec<Vec3>, bool)>) -> Vec<(Vec<Vec3>, bool)> {
    if chains.iter().all(|c| c.1) {
        return chains;
    }
    let (mut len, mut n) = (0.0f32, 0usize);
    for (p, closed) in &chains {
        let k = if *closed { p.len() } else { p.len() - 1 };
        for i in 0..k {
            len += (p[(i + 1) % p.len()] - p[i]).length();
            n += 1;
        }
    }
    let tol = 4.0 * len / n.max(1) as f32;
    let mut slots: Vec<Option<(Vec<Vec3>, bool)>> = chains.into_iter().map(Some).collect();
    for i in 0..slots.len() {
        let Some((mut pts, false)) = slots[i].clone() else {
            continue;
        };
        let mut closed = false;
        // Grow the end, then (reversed) the start.
        for _pass in 0..2 {
            loop {
                let end = pts[pts.len() - 1];
                let mut best: Option<(f32, usize, bool)> = None;
                for (j, c) in slots.iter().enumerate() {
                    let Some((q, false)) = c else { continue };
                    if j == i {
                        continue;
                    }
                    let reach = tol.min(0.25 * (polyline(&pts) + polyline(q)));
                    for (rev, e) in [(false, q[0]), (true, q[q.len() - 1])] {
                        let d = (e - end).length();
                        if d <= reach && best.map_or(true, |b| d < b.0) {
                            best = Some((d, j, rev));
                        }
                    }
                }
                let own = (pts[0] - end).length();
                let own_reach = tol.min(0.25 * polyline(&pts));
                match best {
                    Some((d, j, rev)) if pts.len() < 3 || d < own || own > own_reach => {
                        let Some((mut q, _)) = slots[j].take() else {
                            break;
                        };
                        if rev {
                            q.reverse();
                        }
                        pts.extend(q);
                    }
                    _ => break,
                }
            }
            pts.reverse();
        }
        if pts.len() >= 3
            && (pts[0] - pts[pts.len() - 1]).length() <= tol.min(0.25 * polyline(&pts))
        {
            closed = true;
        }
        slots[i] = Some((pts, closed));
    }
    slots.into_iter().flatten().collect()
}

/// Many cuts of one mesh by parallel planes: the triangles are sorted once into slabs
/// along the planes' normal, and each cut looks only at the triangles of its slab.
/// [`Slicer::cut`] returns the loops [`cross_sections`] returns for the same plane, in
/// the same order.
#[derive(Debug, Clone)]
pub struct Slicer<'a> {
    m: &'a Mesh,
    n: Vec3,
    lo: f32,
    width: f32,
    /// Per slab, the triangles (indices into `m.triangles`, increasing) it touches.
    slabs: Vec<Vec<u32>>,
}

impl<'a> Slicer<'a> {
    /// Sorts the triangles of `m` into `count` slabs along `normal` (any length but
    /// zero; a zero normal gives a slicer that finds nothing).
    pub fn new(m: &'a Mesh, normal: Vec3, count: usize) -> Slicer<'a> {
        let n = normal.try_normalize().unwrap_or(Vec3::ZERO);
        let nv = m.positions.len();
        let proj: Vec<f32> = m.positions.iter().map(|p| p.dot(n)).collect();
        let (lo, hi) = proj
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let count = count.max(1);
        let width = if hi > lo {
            (hi - lo) / count as f32
        } else {
            1.0
        };
        let mut slabs = vec![Vec::new(); if n == Vec3::ZERO { 0 } else { count }];
        if !slabs.is_empty() && lo.is_finite() {
            for (k, t) in m.triangles.iter().enumerate() {
                if t.iter().any(|&i| i as usize >= nv) {
                    continue;
                }
                let d = t.map(|i| proj[i as usize]);
                let (a, b) = (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]));
                let (sa, sb) = (slab(a, lo, width, count), slab(b, lo, width, count));
                for s in &mut slabs[sa..=sb] {
                    s.push(k as u32);
                }
            }
        }
        Slicer {
            m,
            n,
            lo,
            width,
            slabs,
        }
    }

    /// The loops of the plane through `plane_point` normal to the slicer's direction.
    pub fn cut(&self, plane_point: Vec3) -> Vec<Loop> {
        let mut out = Vec::new();
        if self.slabs.is_empty() {
            return out;
        }
        let c = plane_point.dot(self.n);
        let k = slab(c, self.lo, self.width, self.slabs.len());
        // A plane beyond the mesh crosses nothing.
        let below = c < self.lo - 1e-6 * self.width;
        let above = c > self.lo + self.width * self.slabs.len() as f32 + 1e-6 * self.width;
        if below || above {
            return out;
        }
        // Every triangle the plane crosses spans c, so slab k holds it.
        let tris = self.slabs[k].iter().map(|&i| self.m.triangles[i as usize]);
        cut_tris(0, &self.m.positions, tris, plane_point, self.n, &mut out);
        out
    }
}

fn slab(x: f32, lo: f32, width: f32, count: usize) -> usize {
    (((x - lo) / width).floor().max(0.0) as usize).min(count - 1)
}

/// Length of a polyline (not closed).
fn polyline(p: &[Vec3]) -> f32 {
    p.windows(2).map(|w| (w[1] - w[0]).length()).sum()
}

/// Axis-aligned bounds of points; `(0, 0)` when empty.
pub(crate) fn bounds(points: &[Vec3]) -> (Vec3, Vec3) {
    if points.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}
