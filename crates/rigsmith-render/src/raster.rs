//! Z-buffered triangle rasterization into a [`Layer`], split by rows across threads.
//!
//! The renderer works in two steps:
//!
//! 1. **Setup** ([`setup_mesh`]): project every vertex with the [`Camera`], shade it
//!    (Lambert plus ambient from a light that sits with the viewer, slightly above and
//!    to the left, so form reads on flat-on surfaces), and keep one [`ScreenTri`] per
//!    triangle with its pixel bounds. A triangle seen from behind (open meshes: a
//!    sleeve's inside, a cut in a close-up) is shaded with its flipped normal and
//!    darkened by [`BACK_FACE`], never culled.
//! 2. **Raster** ([`rasterize`]): the picture is cut into bands of [`BAND_ROWS`] rows;
//!    bands run in parallel (rayon), each walking the triangles that overlap it in
//!    their given order and keeping, per pixel, the nearest fragment: depth, colour and
//!    the id of what drew it. No allocation happens per pixel or per triangle.
//!
//! Results are deterministic: every pixel is written by one band, and a band visits
//! triangles in input order (ties in depth keep the first triangle).

use glam::Vec3;
use rayon::prelude::*;

use crate::Camera;

/// Rows per band of parallel work.
pub const BAND_ROWS: usize = 16;
/// Share of light a surface gets with no direct light.
pub const AMBIENT: f32 = 0.32;
/// Brightness factor of back faces (surfaces seen from inside).
pub const BACK_FACE: f32 = 0.62;

/// One triangle ready to rasterize: screen-space corners, per-corner shaded colour.
#[derive(Debug, Clone, Copy)]
pub struct ScreenTri {
    /// Corners `(x, y, depth)`: pixels, pixels (y down), metres along the view.
    pub p: [[f32; 3]; 3],
    /// Shaded colour per corner, 0..255 floats.
    pub c: [[f32; 3]; 3],
    /// The id written to [`Layer::id`] (0 is reserved for "nothing").
    pub id: u32,
    /// Pixel bounds `[x0, x1) x [y0, y1)`, already clipped to the picture.
    pub bounds: [i32; 4],
}

/// A depth-buffered picture: per pixel the nearest depth, its colour and the id of what
/// drew it (`0`: nothing, depth `+inf`). Arrays are `width * height`, rows from the top.
#[derive(Debug, Clone)]
pub struct Layer {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Nearest depth per pixel, metres along the view (`+inf` where empty).
    pub depth: Vec<f32>,
    /// Colour of the nearest fragment.
    pub colour: Vec<[u8; 3]>,
    /// Id of the nearest fragment's owner (`0`: empty).
    pub id: Vec<u32>,
}

impl Layer {
    /// An empty layer.
    pub fn new(width: u32, height: u32) -> Layer {
        let n = width as usize * height as usize;
        Layer {
            width: width as usize,
            height: height as usize,
            depth: vec![f32::INFINITY; n],
            colour: vec![[0; 3]; n],
            id: vec![0; n],
        }
    }

    /// Number of pixels something was drawn on.
    pub fn covered(&self) -> usize {
        self.id.iter().filter(|&&i| i != 0).count()
    }
}

/// The direction light comes from (unit, towards the light) for a camera: the viewer's
/// direction tilted up and to the left.
pub fn light_dir(cam: &Camera) -> Vec3 {
    (-cam.forward + 0.45 * cam.up - 0.3 * cam.right).normalize()
}

/// Brightness of a surface whose normal (facing the viewer) makes `n_dot_l` with the
/// light, given the share of `ambient` light.
#[inline]
fn lambert(n_dot_l: f32, ambient: f32) -> f32 {
    ambient + (1.0 - ambient) * n_dot_l.max(0.0)
}

/// How [`setup_mesh`] shades a mesh (see its docs for each field).
#[derive(Debug, Clone, Copy)]
pub struct MeshLook<'a> {
    /// n unit vertex normals for smooth shading, or `None` for flat shading.
    pub normals: Option<&'a [Vec3]>,
    /// The base colour.
    pub colour: [u8; 3],
    /// n vertex colours used instead of `colour`, when given.
    pub vertex_colours: Option<&'a [[u8; 3]]>,
    /// Share of light with no direct light ([`AMBIENT`] for meshes).
    pub ambient: f32,
    /// The id written into the id buffer (0 is the background).
    pub id: u32,
}

/// Projects and shades one mesh, appending its triangles to `out`.
///
/// * `positions`: n world points (metres); `triangles`: m index triples into them
///   (indices out of range are skipped, never a panic).
/// * `look`: the colours, the normals, the ambient light and the id ([`MeshLook`]).
pub fn setup_mesh(
    cam: &Camera,
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    look: &MeshLook<'_>,
    out: &mut Vec<ScreenTri>,
) {
    let MeshLook {
        normals,
        colour,
        vertex_colours,
        ambient,
        id,
    } = *look;
    let n = positions.len();
    let light = light_dir(cam);
    let eye = -cam.forward;
    let (w, h) = (cam.width as f32, cam.height as f32);
    let vc = vertex_colours.filter(|v| v.len() == n);
    let nr = normals.filter(|v| v.len() == n);
    out.reserve(triangles.len());
    for t in triangles {
        if t.iter().any(|&i| i as usize >= n) {
            continue;
        }
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let face = (b - a).cross(c - a);
        if !face.is_finite() || face.length_squared() == 0.0 {
            continue;
        }
        let face = face.normalize();
        let back = face.dot(eye) < 0.0;
        let sign = if back { -1.0 } else { 1.0 };
        let mut p = [[0.0f32; 3]; 3];
        let mut col = [[0.0f32; 3]; 3];
        for k in 0..3 {
            let v = t[k] as usize;
            let (x, y, z) = cam.project(positions[v]);
            p[k] = [x, y, z];
            let nv = nr.map_or(face, |nr| nr[v]);
            // A smooth normal pointing away from the face (sharp folds) falls back to the face's.
            let nv = if nv.dot(face) > 0.0 { nv } else { face };
            let mut s = lambert(sign * nv.dot(light), ambient);
            if back {
                s *= BACK_FACE;
            }
            let base = vc.map_or(colour, |vc| vc[v]);
            col[k] = [base[0] as f32 * s, base[1] as f32 * s, base[2] as f32 * s];
        }
        let minx = p[0][0].min(p[1][0]).min(p[2][0]);
        let maxx = p[0][0].max(p[1][0]).max(p[2][0]);
        let miny = p[0][1].min(p[1][1]).min(p[2][1]);
        let maxy = p[0][1].max(p[1][1]).max(p[2][1]);
        if !(minx.is_finite() && maxx.is_finite() && miny.is_finite() && maxy.is_finite()) {
            continue;
        }
        if maxx < 0.0 || maxy < 0.0 || minx > w || miny > h {
            continue;
        }
        let bounds = [
            (minx.floor().max(0.0)) as i32,
            (miny.floor().max(0.0)) as i32,
            (maxx.ceil().min(w)) as i32,
            (maxy.ceil().min(h)) as i32,
        ];
        out.push(ScreenTri {
            p,
            c: col,
            id,
            bounds,
        });
    }
}

/// Area-weighted unit vertex normals of a triangle mesh (n entries; zero for unused
/// vertices; out-of-range triangles are skipped).
pub fn vertex_normals(positions: &[Vec3], triangles: &[[u32; 3]]) -> Vec<Vec3> {
    let n = positions.len();
    let mut acc = vec![Vec3::ZERO; n];
    for t in triangles {
        if t.iter().any(|&i| i as usize >= n) {
            continue;
        }
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let f = (b - a).cross(c - a);
        if f.is_finite() {
            for &i in t {
                acc[i as usize] += f;
            }
        }
    }
    for v in &mut acc {
        *v = v.normalize_or_zero();
    }
    acc
}

#[inline]
fn edge(a: [f32; 3], b: [f32; 3], px: f32, py: f32) -> f32 {
    (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])
}

/// Draws `tris` into `layer` with a depth test (nearer wins, equal keeps the first).
/// Fragments nearer than `near` (metres along the view) are discarded.
pub fn rasterize(tris: &[ScreenTri], layer: &mut Layer, near: Option<f32>) {
    let w = layer.width;
    if w == 0 || layer.height == 0 {
        return;
    }
    let near = near.unwrap_or(f32::NEG_INFINITY);
    let band = BAND_ROWS * w;
    let bins = bin_by_band(tris, layer.height.div_ceil(BAND_ROWS));
    layer
        .depth
        .par_chunks_mut(band)
        .zip(layer.colour.par_chunks_mut(band))
        .zip(layer.id.par_chunks_mut(band))
        .enumerate()
        .for_each(|(bi, ((depth, colour), ids))| {
            let y_lo = (bi * BAND_ROWS) as i32;
            let y_hi = y_lo + (depth.len() / w) as i32;
            for &ti in &bins.1[bins.0[bi]..bins.0[bi + 1]] {
                let t = &tris[ti as usize];
                let [x0, ty0, x1, ty1] = t.bounds;
                let y0 = ty0.max(y_lo);
                let y1 = ty1.min(y_hi);
                if y0 >= y1 || x0 >= x1 {
                    continue;
                }
                let [a, b, c] = t.p;
                let area = edge(a, b, c[0], c[1]);
                if area.abs() < 1e-9 {
                    continue;
                }
                let inv = 1.0 / area;
                // Barycentric weights as linear forms in the pixel centre: w = A px + B py + C.
                let form = |p: [f32; 3], q: [f32; 3]| {
                    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
                    (-dy * inv, dx * inv, (dy * p[0] - dx * p[1]) * inv)
                };
                let (a0, b0, c0) = form(b, c);
                let (a1, b1, c1) = form(c, a);
                for y in y0..y1 {
                    let py = y as f32 + 0.5;
                    let row = (y - y_lo) as usize * w;
                    let r0 = b0 * py + c0;
                    let r1 = b1 * py + c1;
                    for x in x0..x1 {
                        let px = x as f32 + 0.5;
                        let w0 = a0 * px + r0;
                        let w1 = a1 * px + r1;
                        let w2 = 1.0 - w0 - w1;
                        if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                            continue;
                        }
                        let z = w0 * a[2] + w1 * b[2] + w2 * c[2];
                        let i = row + x as usize;
                        if z < near || z >= depth[i] {
                            continue;
                        }
                        depth[i] = z;
                        ids[i] = t.id;
                        let mut out = [0u8; 3];
                        for k in 0..3 {
                            let v = w0 * t.c[0][k] + w1 * t.c[1][k] + w2 * t.c[2][k];
                            out[k] = v.clamp(0.0, 255.0) as u8;
                        }
                        colour[i] = out;
                    }
                }
            }
        });
}

/// Triangles per band, in input order, as a counting sort: `(offsets, indices)` where
/// band `b` owns `indices[offsets[b]..offsets[b + 1]]`.
fn bin_by_band(tris: &[ScreenTri], bands: usize) -> (Vec<usize>, Vec<u32>) {
    let range = |t: &ScreenTri| -> Option<(usize, usize)> {
        let [x0, y0, x1, y1] = t.bounds;
        if x0 >= x1 || y0 >= y1 || bands == 0 {
            return None;
        }
        let lo = y0.max(0) as usize / BAND_ROWS;
        let hi = ((y1 - 1).max(0) as usize / BAND_ROWS).min(bands - 1);
        (lo <= hi).then_some((lo, hi))
    };
    let mut offsets = vec![0usize; bands + 1];
    for t in tris {
        if let Some((lo, hi)) = range(t) {
            for b in lo..=hi {
                offsets[b + 1] += 1;
            }
        }
    }
    for b in 0..bands {
        offsets[b + 1] += offsets[b];
    }
    let mut fill = offsets.clone();
    let mut indices = vec![0u32; offsets[bands]];
    for (i, t) in tris.iter().enumerate() {
        if let Some((lo, hi)) = range(t) {
            for b in lo..=hi {
                indices[fill[b]] = i as u32;
                fill[b] += 1;
            }
        }
    }
    (offsets, indices)
}

/// Marks the pixels on an outline of `layer`: where the id changes between a pixel and
/// its right or lower neighbour, or the depth jumps by more than `depth_jump` metres.
/// Both pixels of such a pair are marked when drawn. Returns `width * height` flags.
pub fn outline(layer: &Layer, depth_jump: f32) -> Vec<bool> {
    let (w, h) = (layer.width, layer.height);
    let mut mark = vec![false; w * h];
    let differs = |i: usize, j: usize| -> bool {
        let (a, b) = (layer.id[i], layer.id[j]);
        if a != b {
            return true;
        }
        a != 0 && (layer.depth[i] - layer.depth[j]).abs() > depth_jump
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if x + 1 < w && differs(i, i + 1) {
                // Mark the nearer side so outlines hug the front object.
                if layer.depth[i] <= layer.depth[i + 1] {
                    mark[i] = true;
                } else {
                    mark[i + 1] = true;
                }
            }
            if y + 1 < h && differs(i, i + w) {
                if layer.depth[i] <= layer.depth[i + w] {
                    mark[i] = true;
                } else {
                    mark[i + w] = true;
                }
            }
        }
    }
    mark
}
