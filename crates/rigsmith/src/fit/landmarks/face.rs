//! Face: eyes (from eye parts, else the eye sockets), nose tip, chin and jaw (see the
//! module docs of [`super`]).

use super::*;

/// Face landmarks from the head's geometry and eye parts.
pub(super) fn face(c: &Character, m: &Mesh, lm: &mut Landmarks) {
    let h = lm.height;
    let (Some(head), Some(top)) = (lm.get("head"), lm.get("head_top")) else {
        return;
    };
    let neck_y = lm.get("neck_narrowest").map_or(head.y, |p| p.y);
    // The face: points near the mid-line above the neck's narrowest section.
    let head_pts: Vec<Vec3> = m
        .positions
        .iter()
        .copied()
        .filter(|p| p.y > neck_y && (p.x - lm.center_x).abs() < 0.06 * h)
        .collect();
    // Nose tip: the most forward point above the lowest quarter of the head (the chin
    // and lips lie there) and below the crown.
    if let Some(nose) = head_pts
        .iter()
        .copied()
        .filter(|p| p.y > neck_y + 0.25 * (top.y - neck_y) && p.y < top.y - 0.03 * h)
        .max_by(|a, b| a.z.total_cmp(&b.z))
    {
        let nose = Vec3::new(lm.center_x, nose.y, nose.z);
        lm.points.insert(
            "nose_tip".into(),
            Landmark {
                position: nose,
                method: "sections: most forward face point".into(),
                confidence: 0.8,
            },
        );
        let eye_y = nose.y + 0.3 * (top.y - nose.y);
        let mut eyes: Vec<(String, Vec3, &str, f32)> = Vec::new();
        // Eye parts (one part for both eyes, or one per eye): the vertices on each side
        // of the centre plane, averaged.
        let mut sums = [(Vec3::ZERO, 0usize); 2];
        for p in &c.parts {
            if says_eye(&p.name) {
                for v in &p.mesh.positions {
                    let k = usize::from(v.x < lm.center_x);
                    sums[k].0 += *v;
                    sums[k].1 += 1;
                }
            }
        }
        for (k, side) in ["l", "r"].into_iter().enumerate() {
            if sums[k].1 > 0 {
                eyes.push((
                    format!("eye_{side}"),
                    sums[k].0 / sums[k].1 as f32,
                    "eye part: mean of its vertices on this side",
                    1.0,
                ));
            }
        }
        if eyes.is_empty() {
            eyes.extend(eye_sockets(m, lm, nose, head));
        }
        if eyes.is_empty() {
            for s in [1.0f32, -1.0] {
                let p = Vec3::new(lm.center_x + s * 0.019 * h, eye_y, nose.z - 0.03 * h);
                eyes.push((
                    format!("eye_{}", if s > 0.0 { "l" } else { "r" }),
                    p,
                    "estimate: head proportions",
                    0.4,
                ));
            }
        }
        for (n, p, m, c) in eyes {
            lm.points.insert(
                n,
                Landmark {
                    position: p,
                    method: m.into(),
                    confidence: c,
                },
            );
        }
        let chin = head_pts
            .iter()
            .copied()
            .filter(|p| p.z > head.z + 0.5 * (nose.z - head.z) && p.y < nose.y)
            .min_by(|a, b| a.y.total_cmp(&b.y));
        if let Some(chin) = chin {
            lm.points.insert(
                "chin".into(),
                Landmark {
                    position: chin,
                    method: "sections: lowest forward point of the face".into(),
                    confidence: 0.7,
                },
            );
            let jaw = Vec3::new(
                lm.center_x,
                nose.y - 0.25 * (nose.y - chin.y),
                head.z + 0.25 * (nose.z - head.z),
            );
            lm.points.insert(
                "jaw".into(),
                Landmark {
                    position: jaw,
                    method: "estimate: below the ears, behind the chin".into(),
                    confidence: 0.5,
                },
            );
        }
    }
}

/// Eye centre depth in front of the socket's deepest point, as a fraction of the
/// socket's depth (calibrated on the 14 MakeHuman variants against their eye parts).
const EYE_IN_SOCKET: f32 = 0.56;

/// Eyes from the sockets' geometry (a head without eye parts): horizontal cuts of the
/// face from just above the nose tip up to 6% H higher; on each cut, each side's
/// front contour (z, binned every 0.25% H across x) is filled like water between its
/// highest points toward the nose and toward the temple; the deepest water over all
/// cuts is the socket. The eye centre lies in front of that point by
/// [`EYE_IN_SOCKET`] of the depth. A socket shallower than 0.5% H is no socket.
pub(super) fn eye_sockets(
    m: &Mesh,
    lm: &Landmarks,
    nose: Vec3,
    head: Vec3,
) -> Vec<(String, Vec3, &'static str, f32)> {
    let (h, cx) = (lm.height, lm.center_x);
    let y0 = nose.y + 0.005 * h;
    // The face alone, cut many times.
    let face = Mesh {
        positions: m.positions.clone(),
        triangles: m
            .triangles
            .iter()
            .copied()
            .filter(|t| {
                t.iter().all(|&i| {
                    m.positions
                        .get(i as usize)
                        .is_some_and(|p| p.y > y0 - 0.01 * h && p.y < y0 + 0.07 * h && p.z > head.z)
                })
            })
            .collect(),
        normals: None,
        uvs: None,
    };
    const NB: usize = 26;
    let bw = 0.0025 * h;
    let mut best: [Option<(Vec3, f32)>; 2] = [None, None];
    for k in 0..24 {
        let y = y0 + k as f32 * 0.0025 * h;
        let cut = cross_sections(&[&face], Vec3::new(0.0, y, 0.0), Vec3::Y);
        for (si, sgn) in [1.0f32, -1.0].into_iter().enumerate() {
            let mut zb = [f32::NEG_INFINITY; NB];
            for l in &cut {
                let n = l.points.len();
                let segs = if l.closed { n } else { n.saturating_sub(1) };
                for i in 0..segs {
                    let (a, b) = (l.points[i], l.points[(i + 1) % n]);
                    for t in 0..4 {
                        let p = a.lerp(b, t as f32 / 4.0);
                        let bi = (sgn * (p.x - cx) / bw).floor();
                        if (0.0..NB as f32).contains(&bi) {
                            zb[bi as usize] = zb[bi as usize].max(p.z);
                        }
                    }
                }
            }
            for i in 1..NB - 1 {
                if !zb[i].is_finite() {
                    continue;
                }
                let inner = zb[..i].iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let outer = zb[i + 1..]
                    .iter()
                    .copied()
                    .fold(f32::NEG_INFINITY, f32::max);
                let d = inner.min(outer) - zb[i];
                if d.is_finite() && best[si].map_or(true, |b| d > b.1) {
                    let x = cx + sgn * (i as f32 + 0.5) * bw;
                    best[si] = Some((Vec3::new(x, y, zb[i]), d));
                }
            }
        }
    }
    let (Some(l), Some(r)) = (best[0], best[1]) else {
        return Vec::new();
    };
    if l.1 < 0.005 * h || r.1 < 0.005 * h {
        return Vec::new();
    }
    // Both sides averaged (mirrored) so the eyes mirror exactly.
    let (pl, pr) = (
        l.0 + Vec3::Z * (EYE_IN_SOCKET * l.1),
        r.0 + Vec3::Z * (EYE_IN_SOCKET * r.1),
    );
    let mirror = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    let e = 0.5 * (pl + mirror(pr));
    let method = "sections: in front of the eye socket's deepest point";
    vec![
        ("eye_l".to_string(), e, method, 0.7),
        ("eye_r".to_string(), mirror(e), method, 0.7),
    ]
}

/// Whether a part's name (or material) says it is an eye: "eye", not a lash or a brow.
pub(crate) fn says_eye(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.contains("eye") && !n.contains("lash") && !n.contains("brow")
}
