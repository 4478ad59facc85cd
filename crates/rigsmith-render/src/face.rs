//! The face's two sheets: where the face was fitted, and what its keys do.
//!
//! * [`face_placement_sheet`]: a head close-up (x-ray) from the front and the right
//!   with the face bones over it and markers on what the fit measured: the jaw pivot
//!   (at the hinge below the ear?), the chin and the nose tip (on the surface?), the
//!   eye centres (in the eyeballs' middle?) and the lid margins (around the eyeball?);
//!   then the left eye close, from the front and the side.
//! * [`face_sheet`]: `neutral`, `blink`, `aa` and `happy` at 1, a column each, from
//!   the front, the right and close on the eyes. A key the character does not carry is
//!   drawn at rest and says so in its caption.
//!
//! Both take the character at rest (its parts and morph targets) and the face fit
//! ([`rigsmith::face::FaceFit`]); the close-up frames the face from the fit (the eyes,
//! the jaw pivot, the chin and the nose tip), so nothing depends on absolute size.

use glam::Vec3;
use rigsmith::face::FaceFit;
use rigsmith::{Character, Skeleton};

use crate::sheet::Sheet;
use crate::{part_colour, render, BoneStyle, Bones, Camera, DrawPart, Image, RenderOptions, View};

/// The expressions of [`face_sheet`], in column order.
pub const FACE_SHEET_KEYS: [&str; 4] = ["neutral", "blink", "aa", "happy"];

/// Marker colours: jaw (orange), eyes (cyan), lids (green), nose and chin (magenta).
const JAW: [u8; 3] = [255, 150, 40];
const EYE: [u8; 3] = [60, 220, 255];
const LID: [u8; 3] = [110, 240, 110];
const SURFACE: [u8; 3] = [255, 80, 220];

/// The sphere `(centre, radius)` a head close-up frames: around the eyes, the jaw
/// pivot, the chin and the nose tip, with a margin; `None` when the fit found none.
pub fn face_sphere(f: &FaceFit) -> Option<(Vec3, f32)> {
    let mut pts: Vec<Vec3> = f.nose_tip.into_iter().collect();
    if let Some(e) = &f.eyes {
        pts.extend(e.iter().map(|e| e.centre));
    }
    if let Some(m) = &f.mouth {
        pts.extend([m.pivot, m.chin]);
    }
    if pts.is_empty() {
        return None;
    }
    let (lo, hi) = pts.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let centre = 0.5 * (lo + hi);
    // At least a head's size (14% H across): a face without a mouth (eyes and a
    // nose only) still shows the whole head.
    let r = (0.5 * (hi - lo).length() * 1.35).max(0.07 * f.height);
    Some((centre, r))
}

/// The left eye's close-up sphere: 3 eyeball radii around its centre.
fn eye_sphere(f: &FaceFit) -> Option<(Vec3, f32)> {
    f.eyes.as_ref().map(|e| (e[0].centre, 3.0 * e[0].radius))
}

/// The face's markers with their names: jaw pivot, chin, nose tip, eye centres, lid
/// margins.
fn markers(f: &FaceFit) -> Vec<(Vec3, [u8; 3], &'static str)> {
    let mut out = Vec::new();
    if let Some(m) = &f.mouth {
        out.push((m.pivot, JAW, "jaw pivot"));
        out.push((m.chin, SURFACE, "chin"));
    }
    if let Some(n) = f.nose_tip {
        out.push((n, SURFACE, "nose"));
    }
    if let Some(e) = &f.eyes {
        for (k, e) in e.iter().enumerate() {
            out.push((e.centre, EYE, if k == 0 { "eye" } else { "" }));
            out.push((e.upper, LID, if k == 0 { "lid" } else { "" }));
            out.push((e.lower, LID, ""));
        }
    }
    out
}

/// Where the face was fitted (see the module docs). `s` is the skeleton holding the
/// face bones (only the face bones, named in `f`, and the bones they hang from are
/// drawn). The sheet is `size` wide, panels are `size / 2` squares.
pub fn face_placement_sheet(c: &Character, s: &Skeleton, f: &FaceFit, size: u32) -> Image {
    let cell = (size.min(crate::sheets::MAX_SIZE) / 2).max(8);
    let mut sheet = Sheet::new("face placement (x-ray)", 2, 2, cell, cell);
    let Some((centre, r)) = face_sphere(f) else {
        sheet.place(
            0,
            0,
            &Image::new(cell, cell, [44, 46, 52]),
            "no face fitted: no eyes, no mouth, no nose tip",
        );
        return sheet.finish();
    };
    let parts = DrawPart::parts_of(c);
    // The face bones only: a whole skeleton would hide the face behind the neck.
    let face: Vec<&rigsmith::Bone> = s
        .bones
        .iter()
        .filter(|b| f.bones.iter().any(|(fb, _)| fb.name == b.name))
        .collect();
    let heads: Vec<Vec3> = face.iter().map(|b| b.head).collect();
    let tails: Vec<Vec3> = face.iter().map(|b| b.tail).collect();
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &[],
        highlight: &[],
    };
    let marks = markers(f);
    let scale = Sheet::text_scale(cell);
    let mut opts = RenderOptions {
        xray: true,
        bone_style: BoneStyle::Stick,
        label_scale: scale,
        markers: marks.iter().map(|m| (m.0, m.1)).collect(),
        ..RenderOptions::default()
    };
    let eye = eye_sphere(f);
    let panels = [
        (View::Front, (centre, r), "face front"),
        (View::Right, (centre, r), "face right"),
        (View::Front, eye.unwrap_or((centre, r)), "left eye front"),
        (View::Left, eye.unwrap_or((centre, r)), "left eye side"),
    ];
    for (k, (view, (c0, r0), caption)) in panels.into_iter().enumerate() {
        let mut cam = Camera::closeup(view, c0, r0, cell, cell);
        cam.near = None;
        // Labels only where they read: the whole face in the first panel.
        opts.labels = if k == 0 {
            marks
                .iter()
                .filter(|m| !m.2.is_empty())
                .map(|m| (m.0, m.2.to_string()))
                .collect()
        } else {
            Vec::new()
        };
        let img = render(&parts, Some(&bones), &cam, &opts);
        sheet.place(k as u32 % 2, k as u32 / 2, &img, caption);
    }
    sheet.note(&format!("{} face bones", face.len()));
    sheet.finish()
}

/// Every part's positions with the morph target `key` at 1 (rest where a part does not
/// carry it), and whether any part carries it.
pub fn with_key(c: &Character, key: &str) -> (Vec<Vec<Vec3>>, bool) {
    let mut any = false;
    let posed = c
        .parts
        .iter()
        .map(|p| match p.morphs.iter().find(|m| m.name == key) {
            Some(m) if m.position_deltas.len() == p.mesh.positions.len() => {
                any = true;
                p.mesh
                    .positions
                    .iter()
                    .zip(&m.position_deltas)
                    .map(|(a, d)| *a + *d)
                    .collect()
            }
            _ => p.mesh.positions.clone(),
        })
        .collect();
    (posed, any)
}

/// The face's expressions (see the module docs): a column per key of
/// [`FACE_SHEET_KEYS`], rows front, right and the eyes close. The sheet is `size`
/// wide, panels are `size / 4` squares.
pub fn face_sheet(c: &Character, f: &FaceFit, size: u32) -> Image {
    let cols = FACE_SHEET_KEYS.len() as u32;
    let cell = (size.min(crate::sheets::MAX_SIZE) / cols).max(8);
    let mut sheet = Sheet::new("face: expressions at 1", cols, 3, cell, cell);
    let Some(face) = face_sphere(f) else {
        sheet.place(
            0,
            0,
            &Image::new(cell, cell, [44, 46, 52]),
            "no face fitted: no eyes, no mouth, no nose tip",
        );
        return sheet.finish();
    };
    // Both eyes, close.
    let eyes = f.eyes.as_ref().map_or(face, |e| {
        let mid = 0.5 * (e[0].centre + e[1].centre);
        (
            mid,
            0.5 * (e[0].centre - e[1].centre).length() + 2.0 * e[0].radius,
        )
    });
    let opts = RenderOptions::default();
    let mut missing = Vec::new();
    for (col, key) in FACE_SHEET_KEYS.iter().enumerate() {
        let (posed, any) = if *key == "neutral" {
            (
                c.parts.iter().map(|p| p.mesh.positions.clone()).collect(),
                true,
            )
        } else {
            with_key(c, key)
        };
        if !any {
            missing.push(*key);
        }
        let parts: Vec<DrawPart> = c
            .parts
            .iter()
            .zip(&posed)
            .enumerate()
            .map(|(i, (p, pos))| DrawPart::new(pos, &p.mesh.triangles, part_colour(i)))
            .collect();
        let rows = [
            (View::Front, face, "front"),
            (View::Right, face, "right"),
            (View::Front, eyes, "eyes"),
        ];
        for (row, (view, (c0, r0), what)) in rows.into_iter().enumerate() {
            let mut cam = Camera::closeup(view, c0, r0, cell, cell);
            cam.near = None;
            let img = render(&parts, None, &cam, &opts);
            let caption = if any {
                format!("{key}  {what}")
            } else {
                format!("{key}: no key (rest)")
            };
            sheet.place(col as u32, row as u32, &img, &caption);
        }
    }
    if !missing.is_empty() {
        sheet.note(&format!("not on this mesh: {}", missing.join(", ")));
    }
    sheet.finish()
}
