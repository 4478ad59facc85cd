//! Finer skin around the eyes: the surface-nets grid leaves edges of about two thirds
//! of an eyeball's radius around each eye, too coarse for lids to close over it (the
//! procedural blink turns the ring of skin around the eye, and a ring of four or five
//! edges folds instead of closing). Triangles near each eye are split into four,
//! [`LEVELS`] times, each new vertex put back on the body's surface; a neighbour that
//! shares one or two split edges is split into two or three so the mesh stays closed.
//! Deterministic: the same mesh and eyes give the same vertices in the same order.

use std::collections::BTreeMap;

use glam::Vec3;

/// Times the triangles near each eye are split.
pub const LEVELS: usize = 2;
/// Triangles whose centre lies within this many eyeball radii of an eye centre are
/// split.
pub const REACH: f32 = 2.6;

/// Splits the triangles of `(pos, tris)` near `eyes` (eyeball radius `r`), putting each
/// new vertex on the zero set of `sdf` (see the module docs).
pub fn refine_near_eyes(
    pos: &mut Vec<Vec3>,
    tris: &mut Vec<[u32; 3]>,
    eyes: &[Vec3],
    r: f32,
    sdf: &dyn Fn(Vec3) -> f32,
) {
    for _ in 0..LEVELS {
        let near = |t: &[u32; 3]| {
            let c = (pos[t[0] as usize] + pos[t[1] as usize] + pos[t[2] as usize]) / 3.0;
            eyes.iter().any(|e| (c - *e).length() < REACH * r)
        };
        let key = |a: u32, b: u32| (a.min(b), a.max(b));
        let mut mids: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let marked: Vec<bool> = tris.iter().map(near).collect();
        for (t, _) in tris.iter().zip(&marked).filter(|(_, m)| **m) {
            for k in 0..3 {
                let (a, b) = key(t[k], t[(k + 1) % 3]);
                mids.entry((a, b)).or_insert_with(|| {
                    let m = 0.5 * (pos[a as usize] + pos[b as usize]);
                    pos.push(onto_surface(
                        m,
                        sdf,
                        (pos[a as usize] - pos[b as usize]).length(),
                    ));
                    (pos.len() - 1) as u32
                });
            }
        }
        let mut out = Vec::with_capacity(tris.len() + 4 * mids.len());
        for t in tris.iter() {
            let m: [Option<u32>; 3] =
                std::array::from_fn(|k| mids.get(&key(t[k], t[(k + 1) % 3])).copied());
            split(*t, m, &mut out);
        }
        *tris = out;
    }
}

/// Triangle `t` = `[a, b, c]` with the midpoints `m` of its edges `ab`, `bc`, `ca`
/// (those split), as one to four triangles of the same winding.
fn split(t: [u32; 3], m: [Option<u32>; 3], out: &mut Vec<[u32; 3]>) {
    match m.iter().filter(|x| x.is_some()).count() {
        0 => out.push(t),
        3 => {
            let (ab, bc, ca) = (m[0].unwrap(), m[1].unwrap(), m[2].unwrap());
            out.extend([[t[0], ab, ca], [ab, t[1], bc], [ca, bc, t[2]], [ab, bc, ca]]);
        }
        1 => {
            // Rotate so the split edge is the first (a-b).
            let k = m.iter().position(|x| x.is_some()).unwrap();
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let mab = m[k].unwrap();
            out.extend([[a, mab, c], [mab, b, c]]);
        }
        _ => {
            // Rotate so the edge left whole is the last (c-a).
            let k = (m.iter().position(|x| x.is_none()).unwrap() + 1) % 3;
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            let (mab, mbc) = (m[k].unwrap(), m[(k + 1) % 3].unwrap());
            out.extend([[mab, b, mbc], [a, mab, mbc], [a, mbc, c]]);
        }
    }
}

/// `p` moved onto the zero set of `sdf` by Newton steps along its gradient (central
/// differences at a hundredth of `scale`), never farther than `scale` in all.
fn onto_surface(p: Vec3, sdf: &dyn Fn(Vec3) -> f32, scale: f32) -> Vec3 {
    let h = 0.01 * scale.max(1e-6);
    let mut q = p;
    for _ in 0..4 {
        let d = sdf(q);
        let g = Vec3::new(
            sdf(q + Vec3::X * h) - sdf(q - Vec3::X * h),
            sdf(q + Vec3::Y * h) - sdf(q - Vec3::Y * h),
            sdf(q + Vec3::Z * h) - sdf(q - Vec3::Z * h),
        ) / (2.0 * h);
        let g2 = g.length_squared();
        if g2 < 1e-12 {
            break;
        }
        q -= g * (d / g2);
    }
    if (q - p).length() > scale {
        p
    } else {
        q
    }
}
