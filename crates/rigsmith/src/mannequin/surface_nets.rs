//! Surface extraction from a sampled signed distance field by *surface nets*: one
//! vertex per grid cell the surface crosses (the mean of the crossing points on the
//! cell's edges), one quad per grid edge the surface crosses (joining the vertices of
//! the four cells around that edge), split along its shorter diagonal. The result is a
//! closed, consistently oriented (outward, counter-clockwise) triangle mesh whose
//! vertex density is set by the grid spacing. Fully sequential: deterministic.

use glam::Vec3;

/// The corners of a cell, as offsets from its lowest corner.
const CORNERS: [[usize; 3]; 8] = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [1, 1, 0],
    [0, 0, 1],
    [1, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
];

/// The 12 edges of a cell, as pairs of [`CORNERS`].
const EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// The mean of the points where the surface crosses a cell's edges, in the cell's
/// unit cube, from the field at its corners `v` (`None` when it does not cross).
fn crossing_mean(v: &[f32; 8]) -> Option<Vec3> {
    let inside = v.iter().filter(|x| **x < 0.0).count();
    if inside == 0 || inside == 8 {
        return None;
    }
    let corner = |c: usize| {
        Vec3::new(
            CORNERS[c][0] as f32,
            CORNERS[c][1] as f32,
            CORNERS[c][2] as f32,
        )
    };
    let mut acc = Vec3::ZERO;
    let mut cnt = 0.0;
    for (a, b) in EDGES {
        if (v[a] < 0.0) != (v[b] < 0.0) {
            let t = v[a] / (v[a] - v[b]);
            let (pa, pb) = (corner(a), corner(b));
            acc += pa + (pb - pa) * t;
            cnt += 1.0;
        }
    }
    Some(acc / cnt)
}

/// Extracts the zero set of `f` sampled on the grid `origin + (i, j, k) * h`,
/// `0 <= i < n[0]` etc. (`f` negative inside). Returns positions and triangles.
pub(crate) fn extract(
    f: &dyn Fn(Vec3) -> f32,
    origin: Vec3,
    h: f32,
    n: [usize; 3],
) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let [nx, ny, nz] = n;
    let at = |i: usize, j: usize, k: usize| (k * ny + j) * nx + i;
    let mut s = vec![0f32; nx * ny * nz];
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                let p = origin + Vec3::new(i as f32, j as f32, k as f32) * h;
                let v = f(p);
                // Never exactly zero: keeps every crossing on one side.
                s[at(i, j, k)] = if v == 0.0 { 1e-9 } else { v };
            }
        }
    }
    let (cx, cy, cz) = (nx - 1, ny - 1, nz - 1);
    let cell = |i: usize, j: usize, k: usize| (k * cy + j) * cx + i;
    let mut vid = vec![u32::MAX; cx * cy * cz];
    let mut positions = Vec::new();
    for k in 0..cz {
        for j in 0..cy {
            for i in 0..cx {
                let v: [f32; 8] = CORNERS.map(|c| s[at(i + c[0], j + c[1], k + c[2])]);
                let Some(local) = crossing_mean(&v) else {
                    continue;
                };
                vid[cell(i, j, k)] = positions.len() as u32;
                positions.push(origin + (Vec3::new(i as f32, j as f32, k as f32) + local) * h);
            }
        }
    }
    let mut tris = Vec::new();
    let mut quad = |q: [u32; 4], positions: &Vec<Vec3>| {
        if q.contains(&u32::MAX) {
            return;
        }
        let p = q.map(|i| positions[i as usize]);
        if p[0].distance_squared(p[2]) <= p[1].distance_squared(p[3]) {
            tris.push([q[0], q[1], q[2]]);
            tris.push([q[0], q[2], q[3]]);
        } else {
            tris.push([q[0], q[1], q[3]]);
            tris.push([q[1], q[2], q[3]]);
        }
    };
    // Edges along x: the four cells around it lie in the (y, z) plane; the order
    // (-,-) (+,-) (+,+) (-,+) is counter-clockwise seen from +x.
    for k in 1..cz {
        for j in 1..cy {
            for i in 0..cx {
                let (a, b) = (s[at(i, j, k)], s[at(i + 1, j, k)]);
                if (a < 0.0) == (b < 0.0) {
                    continue;
                }
                let mut q = [
                    vid[cell(i, j - 1, k - 1)],
                    vid[cell(i, j, k - 1)],
                    vid[cell(i, j, k)],
                    vid[cell(i, j - 1, k)],
                ];
                if b < 0.0 {
                    q.reverse();
                }
                quad(q, &positions);
            }
        }
    }
    // Edges along y: plane (z, x).
    for k in 1..cz {
        for j in 0..cy {
            for i in 1..cx {
                let (a, b) = (s[at(i, j, k)], s[at(i, j + 1, k)]);
                if (a < 0.0) == (b < 0.0) {
                    continue;
                }
                let mut q = [
                    vid[cell(i - 1, j, k - 1)],
                    vid[cell(i - 1, j, k)],
                    vid[cell(i, j, k)],
                    vid[cell(i, j, k - 1)],
                ];
                if b < 0.0 {
                    q.reverse();
                }
                quad(q, &positions);
            }
        }
    }
    // Edges along z: plane (x, y).
    for k in 0..cz {
        for j in 1..cy {
            for i in 1..cx {
                let (a, b) = (s[at(i, j, k)], s[at(i, j, k + 1)]);
                if (a < 0.0) == (b < 0.0) {
                    continue;
                }
                let mut q = [
                    vid[cell(i - 1, j - 1, k)],
                    vid[cell(i, j - 1, k)],
                    vid[cell(i, j, k)],
                    vid[cell(i - 1, j, k)],
                ];
                if b < 0.0 {
                    q.reverse();
                }
                quad(q, &positions);
            }
        }
    }
    (positions, tris)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sphere_is_closed_and_outward() {
        let f = |p: Vec3| p.length() - 1.0;
        let (p, t) = extract(&f, Vec3::splat(-1.3), 0.1, [27, 27, 27]);
        // Signed volume > 0 means outward orientation; close to 4/3 pi.
        let vol: f32 = t
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| p[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum();
        assert!((vol - 4.18879).abs() < 0.15, "volume {vol}");
        // Closed: every edge used by exactly two triangles.
        let mut e = std::collections::HashMap::new();
        for t in &t {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                *e.entry((a.min(b), a.max(b))).or_insert(0) += 1;
            }
        }
        assert!(e.values().all(|&c| c == 2));
    }
}
