//! The face's checks on the keys built, and the face in the review.
//!
//! [`key_checks`] measures the keys and controls of a character (rubric E: L + R and
//! the seam, the face region, jaw open, blink, combinations); [`add_to`] puts the
//! face's checks into a review ([`crate::review::CheckReport`]), so they count in the
//! report's totals and the exit code of `rig` and `check`; [`file_checks`] measures a
//! face read from a file (the face bones and keys rigsmith wrote, the sidecar's
//! controls) for `rigsmith check`.

use glam::Vec3;

use super::combine::is_face_key;
use super::fit::{names, FaceFit};
use super::{checks, split, FaceControl, FaceMode};
use crate::error::Result;
use crate::geom::bvh::Bvh;
use crate::model::{Body, Character, Mesh};
use crate::report::{Check, Counts};
use crate::review::CheckReport;

/// What the key checks look at: the character, its skin and the face fit.
struct Keys<'a> {
    c: &'a Character,
    body: &'a Body,
    f: &'a FaceFit,
}

impl<'a> Keys<'a> {
    /// The offsets of key `name` on part `pi`.
    fn key(&self, pi: usize, name: &str) -> Option<&'a [Vec3]> {
        self.c.parts[pi]
            .morphs
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.position_deltas.as_slice())
    }

    /// The skin vertex nearest `p`: `(part, vertex)`.
    fn nearest_skin(&self, p: Vec3) -> Option<(usize, usize)> {
        let mut best: Option<(f32, usize, usize)> = None;
        for &pi in &self.body.skin {
            for (v, q) in self.c.parts[pi].mesh.positions.iter().enumerate() {
                let d = (*q - p).length_squared();
                if best.map_or(true, |b| d < b.0) {
                    best = Some((d, pi, v));
                }
            }
        }
        best.map(|b| (b.1, b.2))
    }

    /// How far key `name` moves the skin vertex nearest `p`.
    fn travel_at(&self, p: Vec3, name: &str) -> Option<f32> {
        let (pi, v) = self.nearest_skin(p)?;
        Some(self.key(pi, name)?[v].length())
    }
}

/// The split pairs `(symmetric, left, right)` the checks look for.
const SPLITS: [(&str, &str, &str); 3] = [
    ("blink", "blinkLeft", "blinkRight"),
    ("mouth_smile", "mouth_smile.L", "mouth_smile.R"),
    ("mouth_frown", "mouth_frown.L", "mouth_frown.R"),
];

/// The rubric-E checks of the keys and controls on `c` (see the module docs).
pub fn key_checks(c: &Character, body: &Body, f: &FaceFit, ctrls: &[FaceControl]) -> Vec<Check> {
    let k = Keys { c, body, f };
    let mut out = checks::controls(ctrls);
    out.extend(split_checks(&k));
    out.extend(region_check(&k));
    out.extend(jaw_checks(&k));
    out.extend(blink_checks(&k));
    out.extend(combination_check(&k));
    out
}

/// `L + R == S` and the seam, on every part carrying a split pair.
fn split_checks(k: &Keys<'_>) -> Vec<Check> {
    let (h, cx) = (k.f.height, k.f.center_x);
    let mut pairs = Vec::new();
    let mut seam_mesh: Option<&Mesh> = None;
    for pi in 0..k.c.parts.len() {
        for (s, l, r) in SPLITS {
            if let (Some(s), Some(l), Some(r)) = (k.key(pi, s), k.key(pi, l), k.key(pi, r)) {
                pairs.push((l, r, s));
                if k.body.is_skin(pi) && seam_mesh.is_none() {
                    seam_mesh = Some(&k.c.parts[pi].mesh);
                }
            }
        }
    }
    match seam_mesh {
        Some(mesh) => {
            let w = split::seam_half_width(mesh, cx, h);
            checks::split_checks(&pairs, mesh, |x| split::mask_of_width(x, cx, w), cx, h)
        }
        None => Vec::new(),
    }
}

/// No face key ([`is_face_key`]) moves a skin vertex outside the head.
fn region_check(k: &Keys<'_>) -> Option<Check> {
    let f = k.f;
    let eyes = f.eyes.as_ref()?;
    let chin_y = f
        .mouth
        .map(|m| m.chin.y)
        .or(f.nose_tip.map(|n| n.y - 0.05 * f.height))?;
    let mid = 0.5 * (eyes[0].centre + eyes[1].centre);
    let keys: Vec<(&[Vec3], &[Vec3])> = k
        .body
        .skin
        .iter()
        .flat_map(|&pi| {
            let p = &k.c.parts[pi];
            p.morphs
                .iter()
                .filter(|m| is_face_key(&m.name))
                .map(move |m| (p.mesh.positions.as_slice(), m.position_deltas.as_slice()))
        })
        .collect();
    (!keys.is_empty()).then(|| checks::region(&keys, chin_y, mid, f.height))
}

/// The lower teeth's mean travel under `aa` (the teeth below the lips' line), `None`
/// without teeth carrying `aa`.
fn lower_teeth_travel(c: &Character, line_y: f32, h: f32) -> Option<f32> {
    let mut teeth = None;
    for p in &c.parts {
        let n = p.name.to_ascii_lowercase();
        if !(n.contains("teeth") || n.contains("tooth")) {
            continue;
        }
        let Some(d) = p.morphs.iter().find(|k| k.name == "aa") else {
            continue;
        };
        let low: Vec<f32> = p
            .mesh
            .positions
            .iter()
            .zip(&d.position_deltas)
            .filter(|(q, _)| q.y < line_y - 0.005 * h)
            .map(|(_, d)| d.length())
            .collect();
        if !low.is_empty() {
            teeth = Some(low.iter().sum::<f32>() / low.len() as f32);
        }
    }
    teeth
}

/// Jaw open on `aa`: the chin moves, the lower teeth follow, the upper lip stays.
fn jaw_checks(k: &Keys<'_>) -> Vec<Check> {
    let Some(m) = &k.f.mouth else {
        return Vec::new();
    };
    match (k.travel_at(m.chin, "aa"), k.travel_at(m.upper_lip, "aa")) {
        (Some(chin), Some(ul)) => {
            let teeth = lower_teeth_travel(k.c, m.line_y, k.f.height);
            checks::jaw_open(chin, ul, teeth, k.f.height)
        }
        _ => Vec::new(),
    }
}

/// The lid gap `(at rest, closed)` at one eye's margins (the skin vertices they were
/// measured at) under `blink`; `None` when the margins' skin carries no `blink`.
fn lid_gap(k: &Keys<'_>, e: &super::fit::Eye) -> Option<(f32, f32)> {
    let (pu, vu) = k.nearest_skin(e.margin_at[0])?;
    let (pl, vl) = k.nearest_skin(e.margin_at[1])?;
    let (du, dl) = (k.key(pu, "blink")?, k.key(pl, "blink")?);
    let (u0, l0) = (
        k.c.parts[pu].mesh.positions[vu],
        k.c.parts[pl].mesh.positions[vl],
    );
    Some(((u0 - l0).y.max(0.0), (u0 + du[vu] - l0 - dl[vl]).y.max(0.0)))
}

/// The deepest skin vertex in front of the eyeball pushed inside it by `blink`, metres.
fn deepest_inside(k: &Keys<'_>, e: &super::fit::Eye) -> f32 {
    let mut inside = 0.0f32;
    for &pi in &k.body.skin {
        let Some(d) = k.key(pi, "blink") else {
            continue;
        };
        for (p, dp) in k.c.parts[pi].mesh.positions.iter().zip(d) {
            let q = *p - e.centre;
            if q.z > 0.0 && q.length() >= e.radius && q.length() < 1.6 * e.radius {
                inside = inside.max(e.radius - (*p + *dp - e.centre).length());
            }
        }
    }
    inside
}

/// The skin with `blink` at `w` (0: at rest), one BVH over every skin part.
fn blinked_skin(k: &Keys<'_>, w: f32) -> Bvh {
    let mut pos = Vec::new();
    let mut tris = Vec::new();
    for &pi in &k.body.skin {
        let m = &k.c.parts[pi].mesh;
        let base = pos.len() as u32;
        let d = k.key(pi, "blink");
        pos.extend(
            m.positions
                .iter()
                .enumerate()
                .map(|(v, p)| *p + d.map_or(Vec3::ZERO, |d| d[v] * w)),
        );
        tris.extend(m.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    Bvh::build(&pos, &tris)
}

/// The character's eye parts ([`super::fit::is_eye_part`]) in one BVH at rest, when it has any.
fn eye_parts(c: &Character) -> Option<Bvh> {
    let mut pos = Vec::new();
    let mut tris = Vec::new();
    for p in c.parts.iter().filter(|p| super::fit::is_eye_part(p)) {
        {
            let base = pos.len() as u32;
            pos.extend(p.mesh.positions.iter().copied());
            tris.extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + base)));
        }
    }
    (!tris.is_empty()).then(|| Bvh::build(&pos, &tris))
}

/// Share of the eye's front that `skin` hides, seen along -Z. With eye parts (`eyes`):
/// sight lines on a grid over the square of 1.2 eyeball radii about the eye's axis,
/// from in front of the eye to where each first meets an eye part; the share of those
/// that cross the skin first (the eye as modelled, a ball, a disc or a painted box).
/// Without: sight lines to the eyeball's surface within [`COVER_DISC`] radii of its
/// axis (the sphere the fit measured in the socket).
fn eye_cover(skin: &Bvh, eyes: Option<&Bvh>, e: &super::fit::Eye) -> f32 {
    let r = e.radius;
    let (mut hit, mut all) = (0usize, 0usize);
    let half = if eyes.is_some() { 1.2 } else { COVER_DISC };
    for i in 0..COVER_STEPS {
        for j in 0..COVER_STEPS {
            let x = (2.0 * (i as f32 + 0.5) / COVER_STEPS as f32 - 1.0) * half * r;
            let y = (2.0 * (j as f32 + 0.5) / COVER_STEPS as f32 - 1.0) * half * r;
            let front = e.centre + Vec3::new(x, y, 4.0 * r);
            let on_eye = match eyes {
                Some(b) => {
                    let back = e.centre + Vec3::new(x, y, -2.0 * r);
                    match b.first_hit(front, back, 0.0, 1.0) {
                        Some(t) => front + t * (back - front),
                        None => continue,
                    }
                }
                None => {
                    if x * x + y * y > (COVER_DISC * r).powi(2) {
                        continue;
                    }
                    e.centre + Vec3::new(x, y, (r * r - x * x - y * y).sqrt())
                }
            };
            all += 1;
            if skin.segment_blocked(front, on_eye, 0.0, 1.0 - 1e-3) {
                hit += 1;
            }
        }
    }
    hit as f32 / all.max(1) as f32
}

/// The part of the eye's front disc [`eye_cover`] samples, in eyeball radii.
const COVER_DISC: f32 = 0.6;
/// Samples across the disc's square, each way.
const COVER_STEPS: usize = 15;

/// Blink: the lid gap and the eyeball clearance, over both eyes, and the share of each
/// eye's front the closed lids cover.
fn blink_checks(k: &Keys<'_>) -> Vec<Check> {
    let Some(eyes) = &k.f.eyes else {
        return Vec::new();
    };
    let mut gap = (0.0f32, 0.0f32);
    let mut inside = 0.0f32;
    for e in eyes {
        let Some((rest, closed)) = lid_gap(k, e) else {
            return Vec::new();
        };
        gap = (gap.0.max(rest), gap.1.max(closed));
        inside = inside.max(deepest_inside(k, e));
    }
    let mut out = checks::blink(gap.0, gap.1, inside, k.f.height);
    let (open, shut) = (blinked_skin(k, 0.0), blinked_skin(k, 1.0));
    let parts = eye_parts(k.c);
    let cover = |b: &Bvh| {
        eyes.iter()
            .map(|e| eye_cover(b, parts.as_ref(), e))
            .fold(1.0f32, f32::min)
    };
    out.push(checks::blink_cover(cover(&open), cover(&shut)));
    out
}

/// A combination `(name, a, b)` of two keys on part `pi`, when it carries both.
type Combo = (String, Vec<Vec3>, Vec<Vec3>);

/// The combinations measured on part `pi`: `happy + aa` and `blink + relaxed` with
/// the unit presets, else `blink + aa`.
pub fn combinations_of(c: &Character, pi: usize) -> Vec<Combo> {
    let key = |n: &str| {
        c.parts[pi]
            .morphs
            .iter()
            .find(|m| m.name == n)
            .map(|m| m.position_deltas.clone())
    };
    let pair = |a: &str, b: &str| Some((format!("{a} + {b}"), key(a)?, key(b)?));
    if key("happy").is_some() {
        [pair("happy", "aa"), pair("blink", "relaxed")]
            .into_iter()
            .flatten()
            .collect()
    } else {
        pair("blink", "aa").into_iter().collect()
    }
}

/// New self-intersections under the combinations, on the first skin part carrying
/// them; the face is the vertices any face key ([`is_face_key`]) moves.
fn combination_check(k: &Keys<'_>) -> Option<Check> {
    let h = k.f.height;
    for &pi in &k.body.skin {
        let combos = combinations_of(k.c, pi);
        if combos.is_empty() {
            continue;
        }
        let p = &k.c.parts[pi];
        let face = super::combine::face_vertices(p, h);
        return Some(checks::combinations(&p.mesh, &face, &combos));
    }
    None
}

/// The review's line on morph targets that the face checks replace.
const MORPHS_NOT_VERIFIED: &str = "E correctives and face:";

/// Puts the face's `face_checks` into the review `r` (a check already there by id is
/// replaced) and counts them; the review's line that the keys' ranges, split and
/// combinations were not verified is replaced by what was.
pub fn add_to(r: &mut CheckReport, face_checks: &[Check]) {
    if face_checks.is_empty() {
        return;
    }
    r.checks
        .retain(|c| !face_checks.iter().any(|f| f.id == c.id));
    r.checks.extend(face_checks.iter().cloned());
    r.counts = Counts::of(&r.checks);
    let ids: Vec<&str> = face_checks.iter().map(|c| c.id.as_str()).collect();
    for line in &mut r.not_verified {
        if line.starts_with(MORPHS_NOT_VERIFIED) {
            *line = format!(
                "{MORPHS_NOT_VERIFIED} the face's keys, split, controls and combinations are checked ({}); other morph targets' drivers are not verified (a glTF carries no drivers)",
                ids.join(", ")
            );
        }
    }
}

/// Whether `c` carries a face rigsmith built: lid bones (`lid_upper_l`), or a `jaw`
/// bone and an `aa` key on a part.
pub fn has_face(c: &Character) -> bool {
    let Some(s) = c.skeleton.as_ref() else {
        return false;
    };
    let aa = c
        .parts
        .iter()
        .any(|p| p.morphs.iter().any(|m| m.name == "aa"));
    s.find(names::LID_UPPER[0]).is_some() || (aa && s.find(names::JAW).is_some())
}

/// The face fit of a rigged file: measured on its skin again, then the points its
/// face bones hold replaced by the bones' (eye centres and lid margins from `eye_*`
/// and `lid_*`, the jaw pivot and chin from `jaw`; the bones themselves from the
/// skeleton), so the placement checks judge the file's bones.
pub fn fit_of_file(c: &Character) -> Result<FaceFit> {
    let lm = crate::fit::find_landmarks(c, &crate::fit::LandmarkOptions::default())?;
    let body = c.body()?;
    let full = c
        .skeleton
        .as_ref()
        .is_some_and(|s| s.find("lip_upper_l").is_some());
    let mode = if full {
        FaceMode::Full
    } else {
        FaceMode::Basic
    };
    let mut f = super::fit_face(c, &body.mesh, &lm, mode);
    let Some(s) = c.skeleton.as_ref() else {
        return Ok(f);
    };
    let bone = |n: &str| s.find(n).map(|i| &s.bones[i]);
    if let Some(eyes) = &mut f.eyes {
        for (k, e) in eyes.iter_mut().enumerate() {
            if let Some(b) = bone(names::EYE[k]) {
                e.centre = b.head;
            }
            if let Some(b) = bone(names::LID_UPPER[k]) {
                e.upper = b.tail;
            }
            if let Some(b) = bone(names::LID_LOWER[k]) {
                e.lower = b.tail;
            }
        }
    }
    if let (Some(m), Some(b)) = (&mut f.mouth, bone(names::JAW)) {
        m.pivot = b.head;
        m.chin = b.tail;
    }
    for (b, _) in &mut f.bones {
        if let Some(fb) = bone(&b.name) {
            *b = fb.clone();
        }
    }
    Ok(f)
}

/// The face checks of a rigged file (placement from its face bones, the keys, the
/// sidecar's `ctrls`), for `rigsmith check`; empty when it carries no face
/// ([`has_face`]).
pub fn file_checks(c: &Character, ctrls: &[FaceControl]) -> Result<Vec<Check>> {
    if !has_face(c) {
        return Ok(Vec::new());
    }
    let f = fit_of_file(c)?;
    let body = c.body()?;
    let mut out = checks::placement(&f, &body.mesh);
    out.extend(key_checks(c, &body, &f, ctrls));
    Ok(out)
}
