//! Hands: the hand frame and the five finger chains, from a hand template scaled to
//! the measured hand and centred in each finger's section (see the module docs of
//! [`super`]).

use super::*;

// ---- calibration (units of H unless stated; measured on the MakeHuman base body) ----

/// The largest angle, degrees, between a hand's principal axis and the way from the
/// wrist to the centre of its outer half (beyond, that way is the hand's axis).
const HAND_AXIS_DEG: f32 = 20.0;
/// Hand template: joints in the hand frame (along the hand, toward the thumb side,
/// along the palm normal) in units of the hand length (wrist to finger tip). Rows:
/// thumb, index, middle, ring, pinky; four points each (three joints and the tip).
const HAND: [[[f32; 3]; 4]; 5] = [
    [
        [0.367, 0.159, -0.070],
        [0.406, 0.264, -0.009],
        [0.500, 0.376, 0.035],
        [0.590, 0.435, 0.078],
    ],
    [
        [0.635, 0.216, -0.110],
        [0.736, 0.256, -0.097],
        [0.822, 0.289, -0.066],
        [0.915, 0.328, -0.018],
    ],
    [
        [0.652, 0.107, -0.106],
        [0.790, 0.122, -0.076],
        [0.898, 0.144, -0.040],
        [0.998, 0.163, 0.008],
    ],
    [
        [0.645, 0.024, -0.088],
        [0.767, 0.016, -0.062],
        [0.865, 0.020, -0.028],
        [0.965, 0.019, 0.020],
    ],
    [
        [0.624, -0.054, -0.049],
        [0.708, -0.068, -0.021],
        [0.766, -0.072, 0.008],
        [0.840, -0.079, 0.046],
    ],
];
/// The hand bone's tail (the middle knuckle) in the hand frame.
const HAND_TAIL: [f32; 3] = [0.364, 0.068, -0.057];

impl Side<'_> {
    pub(super) fn hand(&mut self, side: &str, origin: Vec3, a: Vec3) -> Result<()> {
        let (d, w, n, len) = self.hand_frame(side, origin, a)?;
        self.fingers(side, origin, a, [d, w, n], len);
        Ok(())
    }

    /// The hand's frame from the vertices beyond the wrist at `origin` (arm axis `a`):
    /// its long axis `d`, thumb side `w`, palm normal `n`, and its length; puts the
    /// hand tip.
    fn hand_frame(&mut self, side: &str, origin: Vec3, a: Vec3) -> Result<(Vec3, Vec3, Vec3, f32)> {
        let h = self.h;
        let near: Vec<u32> = (0..self.m.positions.len() as u32)
            .filter(|&i| {
                let d = self.m.positions[i as usize] - origin;
                d.dot(a) > 0.0 && (d - a * d.dot(a)).length() < 0.12 * h
            })
            .collect();
        let pts = reached_from(self.m, &near, origin, HAND_GAP * h);
        if pts.len() < 10 {
            return Err(Error::stage(
                "fit",
                format!("hand: fewer than 10 {side} vertices beyond the wrist"),
            ));
        }
        let mean = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let mut cov = Mat3::ZERO;
        for p in &pts {
            let d = *p - mean;
            cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let (e1, _e2, e3) = principal_frame(cov);
        let mut d = e1;
        if d.dot(a) < 0.0 {
            d = -d;
        }
        // A wide hand (fingers spread, the thumb out) or a round fist has no reliable
        // long axis: the axis is checked against the way from the wrist to the centre
        // of the hand's outer half, and that way wins when they differ by more than
        // [`HAND_AXIS_DEG`].
        let reach = pts
            .iter()
            .map(|p| (*p - origin).dot(a))
            .fold(0.0f32, f32::max);
        let outer: Vec<Vec3> = pts
            .iter()
            .copied()
            .filter(|p| (*p - origin).dot(a) > 0.5 * reach)
            .collect();
        if !outer.is_empty() {
            let d2 = (outer.iter().copied().sum::<Vec3>() / outer.len() as f32 - origin)
                .normalize_or_zero();
            if d2 != Vec3::ZERO && d.dot(d2) < HAND_AXIS_DEG.to_radians().cos() {
                self.notes.push(format!(
                    "{side} hand: its long axis is {:.0} deg off the way to its outer half \
                     (fingers spread or a fist): that way is taken",
                    d.dot(d2).clamp(-1.0, 1.0).acos().to_degrees()
                ));
                d = d2;
            }
        }
        let mut n = (e3 - d * e3.dot(d)).normalize_or_zero();
        // Thumb side: forward (+Z) for a relaxed hand; the palm normal completes the frame.
        let mut w = n.cross(d).normalize_or_zero();
        if w.z < 0.0 {
            w = -w;
            n = -n;
        }
        let len = pts
            .iter()
            .map(|p| (*p - origin).dot(d))
            .fold(0.0f32, f32::max);
        self.axes.insert("hand".into(), d);
        self.axes.insert("thumb_side".into(), w);
        self.axes.insert("palm_normal".into(), n);
        self.put(
            "hand_tip",
            origin + len * d,
            "sections: farthest hand point",
            1.0,
        );
        Ok((d, w, n, len))
    }

    /// The knuckle and the five finger chains in the hand frame `[d, w, n]` (see
    /// [`Side::hand_frame`]): from the hand template, centred in each finger's
    /// sections, or spread inside a mitten.
    fn fingers(&mut self, side: &str, origin: Vec3, a: Vec3, frame: [Vec3; 3], len: f32) {
        let h = self.h;
        let [d, w, n] = frame;
        let to = |c: [f32; 3]| origin + len * (c[0] * d + c[1] * w + c[2] * n);
        self.put(
            "knuckle",
            to(HAND_TAIL),
            "template: hand scaled to the measured hand",
            0.7,
        );
        // The hand alone (triangles with every corner beyond the wrist), cut many times.
        let near = |p: &Vec3| {
            let q = *p - origin;
            q.dot(a) > -0.01 * h && (q - a * q.dot(a)).length() < 0.12 * h
        };
        let hand_mesh = Mesh {
            positions: self.m.positions.clone(),
            triangles: self
                .m
                .triangles
                .iter()
                .copied()
                .filter(|t| t.iter().all(|&i| near(&self.m.positions[i as usize])))
                .collect(),
            normals: None,
            uvs: None,
        };
        let hand_solid = crate::fit::solid::Solid::new(&hand_mesh);
        let hand_bvh = crate::geom::bvh::Bvh::build(&hand_mesh.positions, &hand_mesh.triangles);
        // Separate digits or a mitten: count the loops across the finger region.
        let digits = cross_sections(&[&hand_mesh], origin + d * (0.8 * len), d)
            .into_iter()
            .filter(|l| l.perimeter > 0.002 * h)
            .count();
        let mitten = digits < 3;
        if mitten {
            self.notes.push(format!(
                "{side} hand: {digits} loop(s) across the fingers: a mitten; the finger \
                 chains are spread inside it"
            ));
        }
        let frame = HandFrame {
            origin,
            d,
            w,
            n,
            len,
        };
        let chains: [[Vec3; 4]; 5] =
            std::array::from_fn(|fi| std::array::from_fn(|j| to(HAND[fi][j])));
        // A mitten's thumb may still be a digit of its own.
        let snapped = snap_to_digits(&hand_mesh, &hand_solid, &chains, &frame, h, !mitten);
        let cut = HandCut {
            mesh: &hand_mesh,
            solid: &hand_solid,
            bvh: &hand_bvh,
            frame,
            h,
            mitten,
        };
        let defaults: Vec<Vec<(Vec3, &str)>> = (0..5)
            .map(|fi| template_chain(fi, chains[fi], &cut))
            .collect();
        // A chain whose bones leave the hand (a thumb modelled apart from a mitten,
        // spread fingers the template misses) goes onto its digit: the thumb alone, the
        // four fingers together (named in their order across the hand).
        let leaves = |c: &[(Vec3, &str)]| {
            c.windows(2)
                .any(|b| !hand_solid.contains(0.5 * (b[0].0 + b[1].0)))
        };
        let thumb_out = leaves(&defaults[0]);
        let fingers_out = defaults[1..].iter().any(|c| leaves(c));
        for (fi, f) in FINGERS.iter().enumerate() {
            let moved = if fi == 0 { thumb_out } else { fingers_out };
            let chain_out: Vec<(Vec3, &str)> = match snapped[fi].filter(|_| moved) {
                Some(axis) => axis
                    .into_iter()
                    .map(|p| {
                        (
                            p,
                            "sections: along the digit's axis, its chain leaving the hand",
                        )
                    })
                    .collect(),
                None => defaults[fi].clone(),
            };
            // A finger curls on one axis: keep its joints on one plane through the
            // knuckle, spanned by the chain's direction and the palm normal.
            // The plane goes through the two centred middle joints.
            // The thumb's plane goes through its three joints (its metacarpal stays in
            // the thumb's ball), the fingers' through the two middle joints and along
            // the palm normal.
            let axis = if fi == 0 {
                (chain_out[1].0 - chain_out[0].0)
                    .cross(chain_out[2].0 - chain_out[1].0)
                    .normalize_or_zero()
            } else {
                (chain_out[2].0 - chain_out[1].0)
                    .cross(n)
                    .normalize_or_zero()
            };
            let through = chain_out[1].0;
            for (j, (p, method)) in chain_out.into_iter().enumerate() {
                let q = p - axis * (p - through).dot(axis);
                self.put(&format!("{f}_{:02}", j + 1), q, method, 0.6);
            }
        }
    }
}

/// What a finger's chain needs from its hand: the hand's mesh, solid and BVH, its
/// frame, the body height and whether it is a mitten.
struct HandCut<'a> {
    mesh: &'a Mesh,
    solid: &'a crate::fit::solid::Solid,
    bvh: &'a crate::geom::bvh::Bvh,
    frame: HandFrame,
    h: f32,
    mitten: bool,
}

/// Finger `fi`'s chain from its template `chain` (see [`Side::fingers`]): spread inside
/// a mitten, or centred in the digit's sections; a joint outside a thin hand moved to
/// the middle of its thickness.
fn template_chain(fi: usize, chain: [Vec3; 4], k: &HandCut<'_>) -> Vec<(Vec3, &'static str)> {
    let (hand_mesh, frame, h) = (k.mesh, &k.frame, k.h);
    let (len, n) = (frame.len, frame.n);
    let mut chain_out: Vec<(Vec3, &'static str)> = Vec::with_capacity(4);
    if k.mitten {
        for c in chain.iter() {
            let (p, ok) = inside_mitten(hand_mesh, *c, frame, h);
            let method = if ok {
                "sections: spread inside the mitten, centred in its thickness"
            } else {
                "template: hand scaled to the measured hand"
            };
            chain_out.push((p, method));
        }
    } else {
        for j in 0..4 {
            let mut p = chain[j];
            let mut method = "template: hand scaled to the measured hand";
            // Centre the middle joints in the finger's own section.
            if j == 1 || j == 2 {
                let dir = (chain[j + 1] - chain[j - 1]).normalize_or_zero();
                if let Some(l) = digit_loop(hand_mesh, p, dir, h, 0.015 * h) {
                    p = l;
                    method = "template, centred in the finger section";
                }
            }
            chain_out.push((p, method));
        }
        // The thumb's base joint sits where its sections merge with the palm's
        // web, and its own cut may catch a neighbour: follow the thumb back
        // from its last joint and put the base joint on that axis, one
        // template phalanx length back (extended straight past the web).
        if fi == 0 {
            let back = (chain[1] - chain[2]).normalize_or_zero();
            let span = (chain[1] - chain[2]).length();
            let axis = follow_digit(hand_mesh, chain_out[2].0, back, h, span);
            if axis.len() >= 3 {
                let (first, last) = (axis[0], axis[axis.len() - 1]);
                let dir = (last - first).normalize_or_zero();
                chain_out[1] = (
                    first + dir * span,
                    "sections: on the thumb's axis, followed back from its last joint",
                );
            }
        }
        // Follow the digit from its middle joint to its end: the tip is the
        // last section's centre, on the digit's axis.
        let start = chain_out[2].0;
        let dir = (chain[3] - chain[2]).normalize_or_zero();
        let axis = follow_digit(hand_mesh, start, dir, h, 0.1 * len + 0.05 * h);
        if let Some(&end) = axis.last().filter(|_| axis.len() >= 3) {
            chain_out[3] = (end, "sections: end of the digit's sections");
        }
    }
    // A thin hand (a flat low-poly hand) may leave a template joint above or
    // below it: such a joint goes to the middle of the hand's thickness along
    // the palm normal.
    for (p, method) in chain_out.iter_mut() {
        if k.solid.contains(*p) {
            continue;
        }
        if let Some(q) = mid_thickness(k.bvh, *p, n, 0.03 * h) {
            *p = q;
            *method = "template, moved into the middle of the hand's thickness";
        }
    }
    chain_out
}

/// Fingers spread wider than the template (a game character's star hand). A digit is
/// followed from a section to its tip and back to the palm, and a finger laid along it
/// from its tip ([`along_digit`]). The thumb, when its two middle template joints do
/// not both lie in one digit's sections (of the hand `m`, inside `solid`), goes to the
/// nearest digit section within 30% of the hand's length, then 60%. When a finger's
/// do not, the digits crossing cuts at 70%, 80% and 90% of the hand (frame `f`), the
/// thumb's left out, are named in their order across the hand (index toward the thumb
/// side) when there are four. Returns the new chain of each finger moved (`chains`:
/// the template chains, thumb first); only the thumb unless `fingers` (a mitten).
fn snap_to_digits(
    m: &Mesh,
    solid: &crate::fit::solid::Solid,
    chains: &[[Vec3; 4]; 5],
    f: &HandFrame,
    h: f32,
    fingers: bool,
) -> [Option<[Vec3; 4]>; 5] {
    let mut out = [None; 5];
    let len = f.len;
    let on_digit = |c: &[Vec3; 4]| {
        let dir = (c[3] - c[1]).normalize_or_zero();
        let found: Vec<Vec3> = [1, 2]
            .iter()
            .filter_map(|&j| digit_loop(m, c[j], dir, h, 0.015 * h))
            .collect();
        // Both on one digit: the way from the first to the second runs along the
        // finger and inside the hand (not across the gap to a neighbour).
        found.len() == 2
            && (found[1] - found[0]).normalize_or_zero().dot(dir) > 0.85
            && [0.25f32, 0.5, 0.75]
                .iter()
                .all(|t| solid.contains(found[0].lerp(found[1], *t)))
    };
    let axis_from = |start: Vec3, dir: Vec3| -> Vec<Vec3> {
        let fwd = follow_digit(m, start, dir, h, 0.6 * len);
        let back = follow_digit(m, start, -dir, h, 0.6 * len);
        let mut axis: Vec<Vec3> = back.into_iter().rev().collect();
        axis.extend(fwd.into_iter().skip(1));
        axis
    };
    let digit = |l: &Loop| l.closed && l.radius < 0.02 * h && l.perimeter > 0.001 * h;
    let mut taken: Vec<(Vec3, Vec3)> = Vec::new();
    // The thumb.
    let c = chains[0];
    let dir = (c[3] - c[1]).normalize_or_zero();
    if on_digit(&c) {
        taken.push((c[1], c[2]));
    } else {
        'reach: for reach in [0.3 * len, 0.6 * len] {
            let mut cand: Vec<(f32, Vec3)> = Vec::new();
            for t in [0.25f32, 0.5, 0.75] {
                let q = c[1].lerp(c[3], t);
                for l in cross_sections(&[m], q, dir).iter().filter(|l| digit(l)) {
                    let d = (l.center - q).length();
                    if d < reach {
                        cand.push((d, l.center));
                    }
                }
            }
            cand.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (_, centre) in cand {
                let axis = axis_from(centre, dir);
                if axis.len() >= 3 {
                    taken.extend(axis.windows(2).map(|p| (p[0], p[1])));
                    out[0] = Some(along_digit(c, &axis));
                    break 'reach;
                }
            }
        }
    }
    // The four fingers.
    if !fingers || chains[1..].iter().all(on_digit) {
        return out;
    }
    let mut axes: Vec<Vec<Vec3>> = Vec::new();
    for t in [0.7f32, 0.8, 0.9] {
        for l in cross_sections(&[m], f.origin + f.d * (t * len), f.d) {
            if !digit(&l)
                || taken
                    .iter()
                    .any(|(a, b)| off_segment(l.center, *a, *b) < 2.0 * l.radius)
            {
                continue;
            }
            let axis = axis_from(l.center, f.d);
            if axis.len() >= 3 {
                taken.extend(axis.windows(2).map(|p| (p[0], p[1])));
                axes.push(axis);
            }
        }
    }
    if axes.len() == 4 {
        let across = |a: &Vec<Vec3>| a.iter().map(|p| p.dot(f.w)).sum::<f32>() / a.len() as f32;
        axes.sort_by(|a, b| across(b).total_cmp(&across(a)));
        for (k, axis) in axes.iter().enumerate() {
            out[k + 1] = Some(along_digit(chains[k + 1], axis));
        }
    }
    out
}

/// The distance of `p` from the segment `a`-`b`.
fn off_segment(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let e = b - a;
    let t = ((p - a).dot(e) / e.length_squared().max(1e-12)).clamp(0.0, 1.0);
    (p - (a + e * t)).length()
}

/// A finger chain on a digit's `axis` (palm end first): the template chain `c`'s
/// length laid back from the digit's tip along the axis, straight on past its palm
/// end, with the joints at the template's phalanx proportions.
fn along_digit(c: [Vec3; 4], axis: &[Vec3]) -> [Vec3; 4] {
    let l = [
        (c[1] - c[0]).length(),
        (c[2] - c[1]).length(),
        (c[3] - c[2]).length(),
    ];
    let total = l[0] + l[1] + l[2];
    // The path from the tip back.
    let mut path: Vec<Vec3> = axis.iter().rev().copied().collect();
    let k = path.len();
    let run = (path[k - 1] - path[k - 2]).normalize_or_zero();
    let so_far: f32 = path.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    path.push(path[k - 1] + run * (total - so_far).max(0.0));
    let at = |s: f32| -> Vec3 {
        let mut left = s;
        for w in path.windows(2) {
            let seg = (w[1] - w[0]).length();
            if left <= seg {
                return w[0].lerp(w[1], left / seg.max(1e-12));
            }
            left -= seg;
        }
        path[path.len() - 1]
    };
    [at(total), at(l[2] + l[1]), at(l[2]), path[0]]
}

/// The middle of the thickness of the mesh of `bvh` on the line through `p` along `n`, for a point
/// `p` outside it: the nearer entry within `reach` on either side, and the exit after
/// it.
pub(super) fn mid_thickness(
    bvh: &crate::geom::bvh::Bvh,
    p: Vec3,
    n: Vec3,
    reach: f32,
) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for d in [n, -n] {
        let Some(t) = bvh.first_hit(p, p + d * reach, 0.0, 1.0) else {
            continue;
        };
        let e = p + d * (t * reach);
        let x = bvh
            .first_hit(e, e + d * reach, 1e-4, 1.0)
            .map(|u| e + d * (u * reach))?;
        if best.map_or(true, |b| t < b.0) {
            best = Some((t, 0.5 * (e + x)));
        }
    }
    best.map(|b| b.1)
}

/// The centre of the small closed loop (a digit's section) of the cut through `p`
/// normal to `dir` whose centre is nearest `p`, if within `reach`.
pub(super) fn digit_loop(m: &Mesh, p: Vec3, dir: Vec3, h: f32, reach: f32) -> Option<Vec3> {
    cross_sections(&[m], p, dir)
        .into_iter()
        .filter(|l| l.closed && l.radius < 0.02 * h && l.perimeter > 0.001 * h)
        .map(|l| l.center)
        .filter(|c| (*c - p).length() < reach)
        .min_by(|a, b| (*a - p).length().total_cmp(&(*b - p).length()))
}

/// Follows a digit from `start` along `dir` by sections 0.3% H apart, re-centring in
/// each; returns the centres (the digit's axis) until the sections end or `max_len`.
pub(super) fn follow_digit(m: &Mesh, start: Vec3, dir: Vec3, h: f32, max_len: f32) -> Vec<Vec3> {
    let step = 0.003 * h;
    let mut out = Vec::new();
    let Some(mut p) = digit_loop(m, start, dir, h, 0.012 * h) else {
        return out;
    };
    out.push(p);
    let mut d = dir;
    let mut gone = 0.0;
    while gone < max_len {
        let q = p + d * step;
        let Some(c) = digit_loop(m, q, d, h, 0.5 * step + 0.002 * h) else {
            break;
        };
        if let Some(nd) = (c - p).try_normalize() {
            d = (0.6 * d + 0.4 * nd).normalize_or_zero();
        }
        gone += (c - p).length();
        p = c;
        out.push(p);
    }
    out
}

/// The measured frame of a hand: the wrist, the hand's direction, its thumb side, its
/// palm normal (unit vectors) and its length.
#[derive(Debug, Clone, Copy)]
pub(super) struct HandFrame {
    /// The wrist.
    pub(super) origin: Vec3,
    /// Along the hand, wrist to fingertips.
    pub(super) d: Vec3,
    /// Across the hand, toward the thumb side.
    pub(super) w: Vec3,
    /// The palm normal.
    pub(super) n: Vec3,
    /// The hand's length from the wrist.
    pub(super) len: f32,
}

/// Puts the template point `c` inside a mitten hand (no separate fingers): the cut
/// normal to the hand direction `f.d` through `c` gives the hand's section; `c` is kept
/// at its place along the hand (at most 95% of the hand length `f.len` from the wrist
/// `f.origin`), moved across the hand (toward the thumb side `f.w`) to within the
/// middle 60% of the section's width, and centred in the section's thickness (along the
/// palm normal `f.n`) there. Returns the point and whether a section was found.
pub(super) fn inside_mitten(m: &Mesh, c: Vec3, f: &HandFrame, h: f32) -> (Vec3, bool) {
    let HandFrame {
        origin,
        d,
        w,
        n,
        len,
    } = *f;
    let s = (c - origin).dot(d).min(0.95 * len);
    let p = origin + d * s + w * (c - origin).dot(w) + n * (c - origin).dot(n);
    let Some(l) = cross_sections(&[m], p, d)
        .into_iter()
        .filter(|l| l.perimeter > 0.002 * h)
        .min_by(|a, b| (a.center - p).length().total_cmp(&(b.center - p).length()))
    else {
        return (c, false);
    };
    // The loop in (across, thickness) coordinates about its centre.
    let pts: Vec<(f32, f32)> = l
        .points
        .iter()
        .map(|q| ((*q - l.center).dot(w), (*q - l.center).dot(n)))
        .collect();
    let (wlo, whi) = pts
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), q| {
            (a.min(q.0), b.max(q.0))
        });
    let x = (p - l.center)
        .dot(w)
        .clamp(wlo + 0.2 * (whi - wlo), whi - 0.2 * (whi - wlo));
    // Thickness at x: the crossings of the loop with the line across = x.
    let k = pts.len();
    let mut ys = Vec::new();
    for i in 0..k {
        let (a, b) = (pts[i], pts[(i + 1) % k]);
        if (a.0 - x) * (b.0 - x) <= 0.0 && a.0 != b.0 {
            ys.push(a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1));
        }
    }
    let y = if ys.len() >= 2 {
        let lo = ys.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = ys.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        0.5 * (lo + hi)
    } else {
        0.0
    };
    let along = (l.center - origin).dot(d);
    let base = l.center - d * (along - s);
    (base + w * x + n * y, true)
}

/// Hand points closer than this (units of the height) are one hand even when no edge
/// joins them: a glove or a hand sunk into its sleeve ([`reached_from`]).
pub const HAND_GAP: f32 = 0.01;

/// The vertices of `m` among `cand` (indices) reached from the one nearest `origin`
/// (the wrist) along the mesh's edges or through gaps of at most `gap` between them:
/// the hand, without the thigh an arm hanging beside the body passes near (the
/// knight's first animation frame: its left hand's points beyond the wrist took the
/// thigh below it, and the hand measured 22 % H long).
fn reached_from(m: &crate::model::Mesh, cand: &[u32], origin: Vec3, gap: f32) -> Vec<Vec3> {
    let p = |i: u32| m.positions[i as usize];
    let Some(start) = (0..cand.len()).min_by(|&i, &j| {
        (p(cand[i]) - origin)
            .length_squared()
            .total_cmp(&(p(cand[j]) - origin).length_squared())
    }) else {
        return Vec::new();
    };
    let mut slot = vec![u32::MAX; m.positions.len()];
    for (k, &i) in cand.iter().enumerate() {
        slot[i as usize] = k as u32;
    }
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); cand.len()];
    for t in &m.triangles {
        for (x, y) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (sx, sy) = (slot[x as usize], slot[y as usize]);
            if sx != u32::MAX && sy != u32::MAX {
                adj[sx as usize].push(sy);
                adj[sy as usize].push(sx);
            }
        }
    }
    // Points within `gap` of each other share a grid cell or touch neighbouring ones.
    let g2 = gap * gap;
    let cell = |q: Vec3| (q / gap.max(1e-12)).floor().as_ivec3();
    let mut grid: std::collections::HashMap<glam::IVec3, Vec<usize>> =
        std::collections::HashMap::new();
    for (k, &i) in cand.iter().enumerate() {
        grid.entry(cell(p(i))).or_default().push(k);
    }
    let mut seen = vec![false; cand.len()];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(i) = stack.pop() {
        let pi = p(cand[i]);
        for &j in &adj[i] {
            if !std::mem::replace(&mut seen[j as usize], true) {
                stack.push(j as usize);
            }
        }
        let c = cell(pi);
        for d in (-1..=1).flat_map(|x| {
            (-1..=1).flat_map(move |y| (-1..=1).map(move |z| glam::IVec3::new(x, y, z)))
        }) {
            for &j in grid.get(&(c + d)).map_or(&[][..], Vec::as_slice) {
                if !seen[j] && (p(cand[j]) - pi).length_squared() <= g2 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }
    cand.iter()
        .zip(&seen)
        .filter(|(_, &s)| s)
        .map(|(&i, _)| p(i))
        .collect()
}
