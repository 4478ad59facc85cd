//! Face bones fitted from the mesh: the eyes, the lids around them, the jaw hinge and
//! chin, and (with [`FaceMode::Full`]) brows, lip corners, cheeks, the nose and the lip
//! bones (each lip's, each side: from the middle of the lip to the mouth corner).
//!
//! Everything is measured in units of the body height `H` on the skin (the welded
//! union of the skin parts), in glTF space, from the face landmarks
//! ([`crate::fit::find_landmarks`]). The left side is measured and the right side is
//! its mirror about the body's centre plane.
//!
//! * **Eyes.** The centre is the eye landmark (the mean of an eye part's vertices, else
//!   in front of the socket's deepest point); the radius is the median distance of the
//!   eye part's vertices from it, else [`SOCKET_EYE_RADIUS_OF_SPACING`] of the
//!   distance between the eye centres. No eye part and no
//!   socket: no eye bones (a note says so).
//! * **Lids.** Looking from the eye centre, skin vertices in front of the eyeball
//!   (within 1.6 radii, not inside the eyeball, within 0.2 radii of the eye's vertical
//!   plane, or the wider bands of [`LID_BANDS`] on a skin too coarse to hold a vertex
//!   in the narrowest) are sorted by their elevation angle: the upper lid's margin is the one
//!   with the smallest angle above the eye's axis, the lower lid's the one with the
//!   smallest angle below it (each taken onto the eye's vertical plane at its angle
//!   and distance). With no skin there (a closed, painted eye), the margins
//!   are set at [`LID_ANGLE_DEG`] above and below at 1.1 radii (an estimate, noted).
//!   Each lid bone runs from the eye centre to its margin; it hinges on local X.
//! * **Mouth.** The front profile of the face (rays along -Z on the centre plane every
//!   0.1% H) from just below the eyes down to below the chin, read top-down as
//!   bulges and hollows (a turn counts when the profile goes back by [`MIN_CREASE`]
//!   H): the first bulge is the nose, the next two are the upper and lower lips, and
//!   the lips' line is the deepest point between them. (The most forward point of a
//!   baby's face can be its upper lip, so the nose-tip landmark does not bound it.) The mouth has an opening when skin lies
//!   inside the head behind the lips (a mouth cavity: at least
//!   [`MOUTH_CAVITY_MIN`] vertices 2% H or more behind the lips' line, within 1.5% H
//!   of it); a helmet or a mask has none, and jaw and lip features are left out.
//! * **Jaw.** Its pivot lies at the hinge below the ear: at [`JAW_PIVOT_UP`] of the
//!   way from the lips' line up to the eyes, and at [`JAW_PIVOT_DEPTH`] of the way from
//!   the back of the head to the lips (both calibrated on the MakeHuman variants
//!   against the artist's `default` rig); its tail is the chin. It hinges on local X.

use glam::Vec3;
use serde::Serialize;

use super::FaceMode;
use crate::fit::says_eye;
use crate::fit::Landmarks;
use crate::model::{Bone, Character, Mesh};

/// A typical adult eyeball radius, in units of H (bounds searches near the eyes).
pub const SOCKET_EYE_RADIUS: f32 = 0.009;
/// The eyeball radius of an eye without a part (from a socket), as a fraction of the
/// distance between the eye centres: the eye parts of the MakeHuman variants measure
/// 0.24 to 0.29 (adults and children) and 0.35 (the baby), whose eyes are large for
/// its height, so a fixed fraction of H would miss a baby's lids.
pub const SOCKET_EYE_RADIUS_OF_SPACING: f32 = 0.27;
/// The lids' estimated margin angle above and below the eye's axis, degrees, when the
/// skin shows no eye opening.
pub const LID_ANGLE_DEG: f32 = 18.0;
/// The shallowest lips' crease that makes a mouth, in units of H.
pub const MIN_CREASE: f32 = 0.0005;
/// Vertices inside the head behind the lips that make a mouth opening.
pub const MOUTH_CAVITY_MIN: usize = 8;
/// The jaw pivot's height: this fraction of the way from the lips' line to the eyes.
pub const JAW_PIVOT_UP: f32 = 0.51;
/// The jaw pivot's depth: this fraction of the way from the back of the head to the
/// lips, at the pivot's height.
pub const JAW_PIVOT_DEPTH: f32 = 0.47;

/// One eye as measured (left side: +X).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Eye {
    /// Centre of the eyeball, metres.
    pub centre: Vec3,
    /// Eyeball radius, metres.
    pub radius: f32,
    /// The upper lid's margin (middle of the lid's edge).
    pub upper: Vec3,
    /// The lower lid's margin.
    pub lower: Vec3,
    /// Whether the margins were measured on the skin (`false`: estimated).
    pub measured_lids: bool,
    /// The skin points the upper and lower margins were measured at (off the eye's
    /// vertical plane by up to [`LID_BANDS`] radii; the estimates when not measured).
    pub margin_at: [Vec3; 2],
}

impl Eye {
    /// How far across the eye the lids keep their full weight, metres: the margins'
    /// larger distance from the eye's vertical plane when they were found off the
    /// narrowest band of [`LID_BANDS`] (a coarse skin, whose margin vertices lie to
    /// the side), else 0.
    pub fn margin_offset(&self) -> f32 {
        let off = self
            .margin_at
            .iter()
            .map(|p| (p.x - self.centre.x).abs())
            .fold(0.0f32, f32::max);
        if off > LID_BANDS[0] * self.radius {
            off.min(0.9 * self.radius)
        } else {
            0.0
        }
    }

    /// The elevation angle of a point about the eye's X axis, radians (0 straight ahead
    /// along +Z, positive up).
    pub fn elevation(&self, p: Vec3) -> f32 {
        let q = p - self.centre;
        q.y.atan2(q.z)
    }
}

/// The mouth as measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mouth {
    /// The jaw's pivot (the hinge).
    pub pivot: Vec3,
    /// The chin (the jaw's tail).
    pub chin: Vec3,
    /// Height of the lips' line, metres.
    pub line_y: f32,
    /// The upper lip's most forward point on the centre plane.
    pub upper_lip: Vec3,
    /// The lower lip's most forward point on the centre plane.
    pub lower_lip: Vec3,
    /// Depth of the lips' crease, metres.
    pub crease: f32,
    /// Height of the upper lip's top: the hollow between the nose and the upper lip
    /// on the profile, metres.
    pub upper_top_y: f32,
    /// Height of the lower lip's bottom: the hollow between the lower lip and the
    /// chin on the profile (halfway to the chin when the profile shows none), metres.
    pub lower_bottom_y: f32,
}

/// What the face fit found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FaceFit {
    /// Body height H, metres.
    pub height: f32,
    /// X of the centre plane.
    pub center_x: f32,
    /// Left and right eye (right mirrors left); `None` without eyes.
    pub eyes: Option<[Eye; 2]>,
    /// The mouth; `None` without a mouth opening.
    pub mouth: Option<Mouth>,
    /// The nose tip landmark.
    pub nose_tip: Option<Vec3>,
    /// The bones to add below the head, parents before children: `(bone, parent name)`
    /// where the parent is `None` for the head bone.
    #[serde(skip)]
    pub bones: Vec<(Bone, Option<String>)>,
    /// Plain-words notes (what was left out and why, what was estimated).
    pub notes: Vec<String>,
}

impl FaceFit {
    /// Moves every measured point by `m` (a rigid move: the pipeline's move back to
    /// the input's origin), so the fit stays on the moved character. The centre
    /// plane's `x` and the lips' height move with `m`'s translation.
    pub fn transform(&mut self, m: glam::Mat4) {
        let t = |p: &mut Vec3| *p = m.transform_point3(*p);
        if let Some(e) = &mut self.eyes {
            for e in e {
                t(&mut e.centre);
                t(&mut e.upper);
                t(&mut e.lower);
                for p in &mut e.margin_at {
                    t(p);
                }
            }
        }
        if let Some(mo) = &mut self.mouth {
            for p in [
                &mut mo.pivot,
                &mut mo.chin,
                &mut mo.upper_lip,
                &mut mo.lower_lip,
            ] {
                t(p);
            }
            mo.line_y += m.w_axis.y;
            mo.upper_top_y += m.w_axis.y;
            mo.lower_bottom_y += m.w_axis.y;
        }
        if let Some(n) = &mut self.nose_tip {
            t(n);
        }
        for (b, _) in &mut self.bones {
            t(&mut b.head);
            t(&mut b.tail);
        }
        self.center_x += m.w_axis.x;
    }
}

/// Bone names the face adds.
pub mod names {
    /// The jaw.
    pub const JAW: &str = "jaw";
    /// Left and right eyes.
    pub const EYE: [&str; 2] = ["eye_l", "eye_r"];
    /// Upper lids, left and right.
    pub const LID_UPPER: [&str; 2] = ["lid_upper_l", "lid_upper_r"];
    /// Lower lids, left and right.
    pub const LID_LOWER: [&str; 2] = ["lid_lower_l", "lid_lower_r"];
    /// Upper lip bones ([`super::FaceMode::Full`]): mid-lip to the corner, left and
    /// right.
    pub const LIP_UPPER: [&str; 2] = ["lip_upper_l", "lip_upper_r"];
    /// Lower lip bones, left and right.
    pub const LIP_LOWER: [&str; 2] = ["lip_lower_l", "lip_lower_r"];
    /// Mouth-corner bones, left and right.
    pub const LIP_CORNER: [&str; 2] = ["lip_corner_l", "lip_corner_r"];
}

fn mirror(p: Vec3, cx: f32) -> Vec3 {
    Vec3::new(2.0 * cx - p.x, p.y, p.z)
}

/// Fits the face (see the module docs). `skin` is the welded skin; `c` gives the eye
/// parts.
pub fn fit_face(c: &Character, skin: &Mesh, lm: &Landmarks, mode: FaceMode) -> FaceFit {
    let h = lm.height;
    let cx = lm.center_x;
    let mut out = FaceFit {
        height: h,
        center_x: cx,
        eyes: None,
        mouth: None,
        nose_tip: lm.get("nose_tip"),
        bones: Vec::new(),
        notes: Vec::new(),
    };
    if mode == FaceMode::None {
        return out;
    }
    let eye_method = lm.points.get("eye_l").map(|l| l.method.as_str());
    match (lm.get("eye_l"), eye_method) {
        (Some(e), Some(m)) if !m.starts_with("estimate") => {
            let radius = eye_radius(c, e, cx).unwrap_or_else(|| socket_eye_radius(e, cx, h));
            let left = lids(skin, e, radius, h);
            if !left.measured_lids {
                out.notes.push(format!(
                    "face: no eye opening in the skin around the eyes: lid margins estimated at {LID_ANGLE_DEG} deg above and below"
                ));
            }
            let right = Eye {
                centre: mirror(left.centre, cx),
                upper: mirror(left.upper, cx),
                lower: mirror(left.lower, cx),
                margin_at: left.margin_at.map(|p| mirror(p, cx)),
                ..left
            };
            out.eyes = Some([left, right]);
        }
        _ => out
            .notes
            .push("face: no eye parts and no eye sockets: no eye or lid bones".into()),
    }
    match mouth(skin, lm, out.eyes.as_ref().map(|e| e[0].centre.y)) {
        Ok(m) => out.mouth = Some(m),
        Err(why) => out.notes.push(format!(
            "face: no mouth opening ({why}: a closed head, a helmet or a mask): jaw and lip features left out"
        )),
    }
    out.bones = bones(&out, skin, mode);
    out
}

/// The eyeball radius of an eye found from its socket: [`SOCKET_EYE_RADIUS_OF_SPACING`]
/// of the distance between the eye centres (`centre` mirrored about `cx`), at least
/// half of [`SOCKET_EYE_RADIUS`] H.
fn socket_eye_radius(centre: Vec3, cx: f32, h: f32) -> f32 {
    let spacing = 2.0 * (centre.x - cx).abs();
    (SOCKET_EYE_RADIUS_OF_SPACING * spacing).max(0.5 * SOCKET_EYE_RADIUS * h)
}

/// Whether part `p` is an eye (its name or its material says "eye", not a lash or a
/// brow).
pub fn is_eye_part(p: &crate::model::Part) -> bool {
    [Some(p.name.as_str()), p.material.as_deref()]
        .into_iter()
        .flatten()
        .any(says_eye)
}

/// The eye part's radius around `centre` (left side: vertices with x > cx).
fn eye_radius(c: &Character, centre: Vec3, cx: f32) -> Option<f32> {
    let mut d: Vec<f32> = Vec::new();
    for p in &c.parts {
        if says_eye(&p.name) {
            d.extend(
                p.mesh
                    .positions
                    .iter()
                    .filter(|v| v.x > cx)
                    .map(|v| (*v - centre).length()),
            );
        }
    }
    if d.len() < 4 {
        return None;
    }
    d.sort_by(f32::total_cmp);
    Some(d[d.len() / 2])
}

/// The half widths of the band about the eye's vertical plane in which the lid
/// margins are looked for, in eyeball radii, narrowest first: a coarse skin (edges
/// longer than the eyeball's radius, as the mannequin's) may hold no vertex in the
/// narrowest.
pub const LID_BANDS: [f32; 3] = [0.2, 0.4, 0.6];

/// The skin vertices nearest the eye's axis above and below it, within `band` radii
/// of the eye's vertical plane (see the module docs): `(upper, lower)`.
fn margins(skin: &Mesh, centre: Vec3, radius: f32, band: f32) -> (Option<Vec3>, Option<Vec3>) {
    let mut upper: Option<(f32, Vec3)> = None;
    let mut lower: Option<(f32, Vec3)> = None;
    for &p in &skin.positions {
        let q = p - centre;
        let d = q.length();
        if q.z <= 0.3 * radius || q.x.abs() > band * radius || d < radius || d > 1.6 * radius {
            continue;
        }
        let a = q.y.atan2(q.z);
        if a > 0.0 {
            if upper.map_or(true, |(b, _)| a < b) {
                upper = Some((a, p));
            }
        } else if lower.map_or(true, |(b, _)| -a < b) {
            lower = Some((-a, p));
        }
    }
    (upper.map(|u| u.1), lower.map(|l| l.1))
}

/// The lid margins of the eye at `centre` (see the module docs).
fn lids(skin: &Mesh, centre: Vec3, radius: f32, _h: f32) -> Eye {
    let (upper, lower) = LID_BANDS
        .iter()
        .map(|b| margins(skin, centre, radius, *b))
        .find(|(u, l)| u.is_some() && l.is_some())
        .unwrap_or((None, None));
    // The margin on the eye's vertical plane, at the vertex's angle and distance.
    let on_plane = |p: Vec3| {
        let q = p - centre;
        let d = q.length();
        let a = q.y.atan2(q.z);
        centre + d * Vec3::new(0.0, a.sin(), a.cos())
    };
    match (upper, lower) {
        (Some(u), Some(l)) => Eye {
            centre,
            radius,
            upper: on_plane(u),
            lower: on_plane(l),
            measured_lids: true,
            margin_at: [u, l],
        },
        _ => {
            let a = LID_ANGLE_DEG.to_radians();
            let r = 1.1 * radius;
            let (upper, lower) = (
                centre + r * Vec3::new(0.0, a.sin(), a.cos()),
                centre + r * Vec3::new(0.0, -a.sin(), a.cos()),
            );
            Eye {
                centre,
                radius,
                upper,
                lower,
                measured_lids: false,
                margin_at: [upper, lower],
            }
        }
    }
}

/// The mouth (see the module docs); `eye_y` is the eyes' height.
fn mouth(skin: &Mesh, lm: &Landmarks, eye_y: Option<f32>) -> std::result::Result<Mouth, String> {
    let h = lm.height;
    let cx = lm.center_x;
    let (Some(nose), Some(chin)) = (lm.get("nose_tip"), lm.get("chin")) else {
        return Err("no nose tip or chin landmark".into());
    };
    let eye_y = eye_y.unwrap_or(nose.y + 0.3 * (nose.y - chin.y));
    // The profile, top-down from just below the eyes to below the chin: a ray from the
    // front along -Z on the centre plane every 0.1% H.
    let top = eye_y - SOCKET_EYE_RADIUS * h;
    let bottom = chin.y - 0.01 * h;
    if top <= bottom {
        return Err("the chin is not below the eyes".into());
    }
    let bw = 0.001 * h;
    let nb = (((top - bottom) / bw).ceil() as usize).max(1);
    let bvh = crate::geom::bvh::Bvh::build(&skin.positions, &skin.triangles);
    let (lo_b, hi_b) = skin.bounds();
    let y_at = |k: usize| top - k as f32 * bw;
    let zf: Vec<f32> = (0..nb)
        .map(|k| {
            let a = Vec3::new(cx, y_at(k), hi_b.z + 0.01 * h);
            let b = Vec3::new(cx, y_at(k), lo_b.z - 0.01 * h);
            bvh.first_hit(a, b, 0.0, 1.0)
                .map_or(f32::NEG_INFINITY, |t| a.z + t * (b.z - a.z))
        })
        .collect();
    // Peaks and valleys with hysteresis: the nose, the upper lip, the lower lip.
    let delta = MIN_CREASE * h;
    let mut peaks: Vec<usize> = Vec::new();
    let mut valleys: Vec<usize> = Vec::new();
    let mut rising = true;
    let mut cand = 0usize;
    for k in 0..nb {
        if !zf[k].is_finite() {
            continue;
        }
        if !zf[cand].is_finite() {
            cand = k;
        }
        if rising {
            if zf[k] > zf[cand] {
                cand = k;
            } else if zf[k] < zf[cand] - delta {
                peaks.push(cand);
                rising = false;
                cand = k;
            }
        } else if zf[k] < zf[cand] {
            cand = k;
        } else if zf[k] > zf[cand] + delta {
            valleys.push(cand);
            rising = true;
            cand = k;
        }
    }
    if rising && zf[cand].is_finite() {
        peaks.push(cand);
    }
    if peaks.len() < 3 {
        return Err(format!(
            "the face profile below the eyes shows {} bulges, not the nose and two lips",
            peaks.len()
        ));
    }
    let (p1, p2) = (peaks[1], peaks[2]);
    let i = (p1 + 1..p2)
        .filter(|&k| zf[k].is_finite())
        .min_by(|&a, &b| zf[a].total_cmp(&zf[b]))
        .ok_or("no crease between the lips")?;
    let crease = zf[p1].min(zf[p2]) - zf[i];
    if crease < MIN_CREASE * h {
        return Err(format!(
            "the lips' crease is {:.3}% H deep",
            100.0 * crease / h
        ));
    }
    let line_y = y_at(i);
    let (ul, ll) = (p1, p2);
    let at = |k: usize| Vec3::new(cx, y_at(k), zf[k]);
    let lip_z = zf[i];
    // A mouth opening: skin inside the head, behind the lips' line.
    let cavity = skin
        .positions
        .iter()
        .filter(|p| {
            (p.x - cx).abs() < 0.015 * h
                && (p.y - line_y).abs() < 0.015 * h
                && p.z < lip_z - 0.02 * h
                && p.z > lip_z - 0.06 * h
        })
        .count();
    if cavity < MOUTH_CAVITY_MIN {
        return Err(format!("{cavity} vertices inside the head behind the lips"));
    }
    // The pivot: up toward the eyes, in depth between the back of the head and the lips.
    let py = line_y + JAW_PIVOT_UP * (eye_y - line_y);
    let back = skin
        .positions
        .iter()
        .filter(|p| (p.x - cx).abs() < 0.03 * h && (p.y - py).abs() < 0.005 * h)
        .map(|p| p.z)
        .fold(f32::INFINITY, f32::min);
    if !back.is_finite() {
        return Err("no back of the head at the pivot's height".into());
    }
    let pz = back + JAW_PIVOT_DEPTH * (zf[ul].max(zf[ll]) - back);
    Ok(Mouth {
        pivot: Vec3::new(cx, py, pz),
        chin,
        line_y,
        upper_lip: at(ul),
        lower_lip: at(ll),
        crease,
        upper_top_y: valleys
            .first()
            .map_or(at(ul).y + (at(ul).y - line_y), |&k| y_at(k)),
        lower_bottom_y: valleys
            .get(2)
            .map_or(0.5 * (at(ll).y + chin.y), |&k| y_at(k)),
    })
}

/// The most forward skin point near `(x, y)` (within 0.5% H), or `None`.
pub(crate) fn surface_at(skin: &Mesh, x: f32, y: f32, h: f32) -> Option<Vec3> {
    skin.positions
        .iter()
        .filter(|p| (p.x - x).abs() < 0.005 * h && (p.y - y).abs() < 0.005 * h)
        .copied()
        .max_by(|a, b| a.z.total_cmp(&b.z))
}

/// A bone with its hinge on world X (made normal to the bone).
fn hinge_bone(name: &str, head: Vec3, tail: Vec3) -> Bone {
    let mut b = Bone::new(name, None, head, tail);
    let y = b.y_axis();
    let x = Vec3::X - y * Vec3::X.dot(y);
    if x.length_squared() > 1e-6 {
        b.x_axis = x.normalize();
    }
    b
}

/// The lip bones of [`FaceMode::Full`], as Rigify lays them: each lip's bone runs from
/// the middle of the lip on the centre plane (its most forward point on the profile)
/// to the mouth corner, so the upper and lower bones of a side meet at the corner
/// `corner` (left; the right mirrors it).
fn lip_bones(m: &Mouth, corner: Vec3, cx: f32) -> Vec<(Bone, Option<String>)> {
    let right = mirror(corner, cx);
    vec![
        (
            Bone::new(names::LIP_UPPER[0], None, m.upper_lip, corner),
            None,
        ),
        (
            Bone::new(names::LIP_UPPER[1], None, m.upper_lip, right),
            None,
        ),
        (
            Bone::new(names::LIP_LOWER[0], None, m.lower_lip, corner),
            None,
        ),
        (
            Bone::new(names::LIP_LOWER[1], None, m.lower_lip, right),
            None,
        ),
    ]
}

/// The bones of the face (see the module docs).
fn bones(f: &FaceFit, skin: &Mesh, mode: FaceMode) -> Vec<(Bone, Option<String>)> {
    let (h, cx) = (f.height, f.center_x);
    let mut out = Vec::new();
    if let Some(m) = &f.mouth {
        out.push((hinge_bone(names::JAW, m.pivot, m.chin), None));
    }
    if let Some(eyes) = &f.eyes {
        for (k, e) in eyes.iter().enumerate() {
            let tail = e.centre + Vec3::Z * (2.0 * e.radius);
            out.push((hinge_bone(names::EYE[k], e.centre, tail), None));
        }
        for (k, e) in eyes.iter().enumerate() {
            out.push((hinge_bone(names::LID_UPPER[k], e.centre, e.upper), None));
            out.push((hinge_bone(names::LID_LOWER[k], e.centre, e.lower), None));
        }
    }
    if mode != FaceMode::Full {
        return out;
    }
    // Full: bones on the surface, each 1% H long, pointing out of the face (forward).
    let fwd = Vec3::Z * 0.01 * h;
    let mut left: Vec<(String, Vec3)> = Vec::new();
    if let Some(eyes) = &f.eyes {
        let e = eyes[0];
        if let Some(p) = surface_at(skin, e.centre.x, e.centre.y + 1.8 * e.radius, h) {
            left.push(("brow".into(), p));
        }
        let cheek_y = f.mouth.map_or(e.centre.y - 2.5 * e.radius, |m| {
            0.5 * (e.centre.y + m.line_y)
        });
        if let Some(p) = surface_at(skin, cx + 1.1 * (e.centre.x - cx), cheek_y, h) {
            left.push(("cheek".into(), p));
        }
        if let Some(m) = &f.mouth {
            if let Some(p) = surface_at(skin, cx + 0.8 * (e.centre.x - cx), m.line_y, h) {
                left.push(("lip_corner".into(), p));
                out.extend(lip_bones(m, p, cx));
            }
        }
        if let (Some(top), Some(tip)) = (surface_at(skin, cx, e.centre.y, h), f.nose_tip) {
            if (tip - top).length() > 0.005 * h {
                out.push((Bone::new("nose", None, top, tip), None));
            }
        }
    }
    for (n, p) in left {
        out.push((Bone::new(format!("{n}_l"), None, p, p + fwd), None));
        let q = mirror(p, cx);
        out.push((Bone::new(format!("{n}_r"), None, q, q + fwd), None));
    }
    out
}
