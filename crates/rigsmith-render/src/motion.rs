//! The picture of a spring simulation: frames of the motion from the front and the
//! right, with the body, the spring chains, the colliders and the deepest joint.

use glam::Vec3;
use rigsmith::parts::{Sidecar, SimFrame, SimReport};
use rigsmith::Character;

use crate::{lines, render, sheet::Sheet, BoneStyle, Camera, DrawPart, Image, RenderOptions, View};

/// Frames drawn.
pub const SHEET_FRAMES: usize = 6;
/// Width and height of one cell of the sheet, pixels.
pub const SHEET_CELL: (u32, u32) = (240, 360);

/// The picture of a motion: [`SHEET_FRAMES`] frames spread over the run, from the front
/// (top row) and the right (bottom row). The body is drawn see-through, spring chains
/// as yellow polylines with their joints, colliders as blue (legs) or grey outlines,
/// and in every frame the joint deepest inside a collider as a red cross (its depth in
/// the caption, mm on a 1.7 m figure).
pub fn motion_sheet(
    c: &Character,
    sc: &Sidecar,
    rep: &SimReport,
    label: &str,
    frames: &[SimFrame],
) -> Image {
    let (cw, ch) = SHEET_CELL;
    let title = format!(
        "simulate {}: worst {:.1} mm, {} between legs, {}",
        label,
        rep.worst_penetration_mm_at_1_7m,
        rep.skirt_joints_between_legs,
        if rep.passed { "pass" } else { "FAIL" }
    );
    let mut sheet = Sheet::new(&title, SHEET_FRAMES as u32, 2, cw, ch);
    let Some(skel) = &c.skeleton else {
        return sheet.finish();
    };
    let h = rep.height.max(1e-6);
    let heads: Vec<Vec<usize>> = sc
        .chains
        .iter()
        .filter(|c| c.springs())
        .map(|c| c.bones.iter().filter_map(|b| skel.find(b)).collect())
        .collect();
    let opts = RenderOptions {
        xray: true,
        bone_style: BoneStyle::Stick,
        ..RenderOptions::default()
    };
    let pick: Vec<&SimFrame> = if frames.len() <= SHEET_FRAMES {
        frames.iter().collect()
    } else {
        (0..SHEET_FRAMES)
            .map(|k| &frames[(k * (frames.len() - 1)) / (SHEET_FRAMES - 1)])
            .collect()
    };
    for (col, f) in pick.iter().enumerate() {
        let posed = f.posed_parts(c);
        let parts: Vec<DrawPart> = c
            .parts
            .iter()
            .zip(&posed)
            .enumerate()
            .map(|(i, (p, q))| DrawPart::new(q, &p.mesh.triangles, crate::part_colour(i)))
            .collect();
        // The frame's box, as tall as the body and centred on it.
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for q in posed.iter().flatten() {
            lo = lo.min(*q);
            hi = hi.max(*q);
        }
        if !lo.is_finite() || !hi.is_finite() {
            continue;
        }
        let mid = 0.5 * (lo + hi);
        let half = Vec3::new(0.35 * h, 0.55 * h, 0.35 * h).max(0.5 * (hi - lo));
        let (lo, hi) = (mid - half, mid + half);
        let cols = f.colliders(c, sc);
        let worst = f.deepest_joint(&cols);
        for (row, view) in [View::Front, View::Right].into_iter().enumerate() {
            let cam = Camera::frame(view, lo, hi, cw, ch);
            let mut img = render(&parts, None, &cam, &opts);
            let px = 1.0 / cam.pixel_size();
            for col in &cols {
                let r = col.radius;
                let (ax, ay, _) = cam.project(col.a);
                let (bx, by, _) = cam.project(col.b);
                let colour = if col.group == "legs" {
                    [90, 160, 255]
                } else {
                    [170, 170, 170]
                };
                lines::line(&mut img, [ax, ay], [bx, by], 2.0 * r * px, colour, 0.25);
                lines::ring(&mut img, ax, ay, r * px, 1.0, colour, 0.8);
                lines::ring(&mut img, bx, by, r * px, 1.0, colour, 0.8);
            }
            for (ci, tails) in f.tails.iter().enumerate() {
                let root = heads
                    .get(ci)
                    .and_then(|b| b.first())
                    .map(|&i| f.skin[i].transform_point3(skel.bones[i].head));
                let mut prev = root.map(|p| cam.project(p));
                for q in tails {
                    let (x, y, _) = cam.project(*q);
                    if let Some((px0, py0, _)) = prev {
                        lines::line(&mut img, [px0, py0], [x, y], 1.5, [255, 210, 60], 0.95);
                    }
                    lines::disc(&mut img, x, y, 1.8, [255, 210, 60], 1.0);
                    prev = Some((x, y, 0.0));
                }
            }
            if let Some((_, q)) = worst {
                let (x, y, _) = cam.project(q);
                lines::cross(&mut img, x, y, 6.0, 2.0, [255, 40, 40], 1.0);
            }
            let caption = if row == 0 {
                format!(
                    "{:.2} s  {:.1} mm",
                    f.time,
                    worst.map_or(0.0, |w| w.0 / h * 1.7 * 1000.0)
                )
            } else {
                format!("{:.2} s  {}", f.time, view.name())
            };
            sheet.place(col as u32, row as u32, &img, &caption);
        }
    }
    sheet.finish()
}
