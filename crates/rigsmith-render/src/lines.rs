//! Anti-aliased 2D strokes: thick lines, dashed lines, discs and rings, in pixels.
//!
//! Every primitive is a distance field: a pixel's coverage is how far its centre lies
//! inside the shape, clamped to one pixel of soft edge, then blended over the image.
//! Coordinates are fractional pixels with `y` down (as [`crate::Camera::project`]
//! returns them); pixel `(i, j)` has its centre at `(i + 0.5, j + 0.5)`.

use crate::Image;

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(px: f32, py: f32, ax: f32, ay: f32, bx: f32, by: f32) -> f32 {
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (ax + t * dx - px, ay + t * dy - py);
    (qx * qx + qy * qy).sqrt()
}

/// Pixel bounds `[x0, x1) x [y0, y1)` of a box, clipped to the image; `None` if empty
/// or not finite.
fn clip_box(
    img: &Image,
    minx: f32,
    miny: f32,
    maxx: f32,
    maxy: f32,
) -> Option<(i32, i32, i32, i32)> {
    if !(minx.is_finite() && miny.is_finite() && maxx.is_finite() && maxy.is_finite()) {
        return None;
    }
    let x0 = minx.floor().max(0.0) as i32;
    let y0 = miny.floor().max(0.0) as i32;
    let x1 = (maxx.ceil() + 1.0).min(img.width as f32) as i32;
    let y1 = (maxy.ceil() + 1.0).min(img.height as f32) as i32;
    (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
}

/// A line of `width` pixels from `a` to `b` (pixel coordinates `[x, y]`) with round
/// caps, opacity `alpha`.
pub fn line(img: &mut Image, a: [f32; 2], b: [f32; 2], width: f32, colour: [u8; 3], alpha: f32) {
    let ([ax, ay], [bx, by]) = (a, b);
    let r = 0.5 * width.max(0.5);
    let Some((x0, y0, x1, y1)) = clip_box(
        img,
        ax.min(bx) - r - 1.0,
        ay.min(by) - r - 1.0,
        ax.max(bx) + r,
        ay.max(by) + r,
    ) else {
        return;
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let d = segment_distance(x as f32 + 0.5, y as f32 + 0.5, ax, ay, bx, by);
            let cov = (r + 0.5 - d).clamp(0.0, 1.0);
            if cov > 0.0 {
                img.blend(x, y, colour, cov * alpha);
            }
        }
    }
}

/// A dashed line from `a` to `b`: dashes and gaps of `dash` pixels each, starting with
/// a dash at `a`.
pub fn dashed_line(
    img: &mut Image,
    a: [f32; 2],
    b: [f32; 2],
    width: f32,
    dash: f32,
    colour: [u8; 3],
    alpha: f32,
) {
    let ([ax, ay], [bx, by]) = (a, b);
    let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
    if !len.is_finite() || len <= 0.0 {
        return;
    }
    let dash = dash.max(1.0);
    let n = ((len / dash).ceil() as usize).min(4096);
    for k in (0..n).step_by(2) {
        let t0 = k as f32 * dash / len;
        let t1 = ((k + 1) as f32 * dash / len).min(1.0);
        line(
            img,
            [ax + (bx - ax) * t0, ay + (by - ay) * t0],
            [ax + (bx - ax) * t1, ay + (by - ay) * t1],
            width,
            colour,
            alpha,
        );
    }
}

/// A filled disc of radius `r` pixels centred on `(cx, cy)`.
pub fn disc(img: &mut Image, cx: f32, cy: f32, r: f32, colour: [u8; 3], alpha: f32) {
    let Some((x0, y0, x1, y1)) = clip_box(img, cx - r - 1.0, cy - r - 1.0, cx + r, cy + r) else {
        return;
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
            let cov = (r + 0.5 - d).clamp(0.0, 1.0);
            if cov > 0.0 {
                img.blend(x, y, colour, cov * alpha);
            }
        }
    }
}

/// A ring (circle outline) of radius `r` and stroke `width` pixels.
pub fn ring(img: &mut Image, cx: f32, cy: f32, r: f32, width: f32, colour: [u8; 3], alpha: f32) {
    let hw = 0.5 * width.max(0.5);
    let Some((x0, y0, x1, y1)) = clip_box(
        img,
        cx - r - hw - 1.0,
        cy - r - hw - 1.0,
        cx + r + hw,
        cy + r + hw,
    ) else {
        return;
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
            let cov = (hw + 0.5 - (d - r).abs()).clamp(0.0, 1.0);
            if cov > 0.0 {
                img.blend(x, y, colour, cov * alpha);
            }
        }
    }
}

/// A cross (`+`) of half-size `r` pixels, for marking a point.
pub fn cross(img: &mut Image, cx: f32, cy: f32, r: f32, width: f32, colour: [u8; 3], alpha: f32) {
    line(img, [cx - r, cy], [cx + r, cy], width, colour, alpha);
    line(img, [cx, cy - r], [cx, cy + r], width, colour, alpha);
}
