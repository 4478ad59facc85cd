//! One picture: shaded parts, bones over them, markers and labels.
//!
//! [`render`] is the renderer's single entry point. It rasterizes every [`DrawPart`]
//! (opaque parts into one depth layer, translucent ones into another, so the x-ray
//! view shows the nearest translucent surface over whatever opaque lies behind), draws
//! outlines where parts meet or depth jumps (silhouettes, an arm in front of the
//! chest), lays the [`Bones`] over the result, then markers and labels.
//!
//! ```
//! use glam::Vec3;
//! use rigsmith_render::{render, Camera, DrawPart, RenderOptions, View};
//! let pos = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
//! let part = DrawPart::new(&pos, &[[0, 1, 2]], [200, 160, 120]);
//! let cam = Camera::frame(View::Front, Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0), 64, 64);
//! let img = render(&[part], None, &cam, &RenderOptions::default());
//! assert!(img.count_not(RenderOptions::default().background) > 500);
//! ```

use glam::Vec3;
use rayon::prelude::*;

use crate::bones::{setup_octahedra, side_colours};
use crate::raster::{outline, rasterize, setup_mesh, vertex_normals, Layer};
use crate::{font, lines, Camera, Image};

/// One mesh to draw. Positions are world points (metres); triangles index into them.
#[derive(Debug, Clone, Copy)]
pub struct DrawPart<'a> {
    /// n world points, metres.
    pub positions: &'a [Vec3],
    /// m index triples into `positions` (out-of-range triangles are skipped).
    pub triangles: &'a [[u32; 3]],
    /// Base colour (sRGB).
    pub colour: [u8; 3],
    /// Optional per-vertex colours (n entries; ignored when the count differs).
    pub vertex_colours: Option<&'a [[u8; 3]]>,
    /// Opacity in `[0, 1]`: below 1 the part is drawn translucent (x-ray).
    pub alpha: f32,
}

impl<'a> DrawPart<'a> {
    /// An opaque part of one colour.
    pub fn new(positions: &'a [Vec3], triangles: &'a [[u32; 3]], colour: [u8; 3]) -> DrawPart<'a> {
        DrawPart {
            positions,
            triangles,
            colour,
            vertex_colours: None,
            alpha: 1.0,
        }
    }

    /// Every part of `c` at rest, each in its own colour ([`crate::part_colour`] of its
    /// index).
    pub fn parts_of(c: &'a rigsmith::Character) -> Vec<DrawPart<'a>> {
        c.parts
            .iter()
            .enumerate()
            .map(|(i, p)| {
                DrawPart::new(&p.mesh.positions, &p.mesh.triangles, crate::part_colour(i))
            })
            .collect()
    }
}

/// A skeleton to draw: bone `i` runs from `heads[i]` to `tails[i]` (world, metres).
/// `parents` (same length, or empty) draws dashed relationship lines from a bone's
/// head to its parent's tail when they are apart; `highlight` (same length, or empty)
/// draws chosen bones in the highlight colour.
#[derive(Debug, Clone, Copy)]
pub struct Bones<'a> {
    /// Bone heads, world, metres.
    pub heads: &'a [Vec3],
    /// Bone tails, world, metres.
    pub tails: &'a [Vec3],
    /// Parent of each bone (or empty).
    pub parents: &'a [Option<usize>],
    /// Whether each bone is highlighted (or empty).
    pub highlight: &'a [bool],
}

/// How bones are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoneStyle {
    /// Solid octahedra with joint dots (placement).
    Octahedral,
    /// Thin sticks with joint dots (poses: they hide less of the mesh).
    Stick,
}

/// Everything about a picture but the geometry and the camera.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Draw every part translucent (at most [`RenderOptions::xray_alpha`] opaque).
    pub xray: bool,
    /// Opacity of parts in the x-ray view.
    pub xray_alpha: f32,
    /// Background colour.
    pub background: [u8; 3],
    /// Text labels at world points (a dot marks the point, the text sits beside it).
    pub labels: Vec<(Vec3, String)>,
    /// Font scale of labels (1: 5 x 7 pixel glyphs).
    pub label_scale: u32,
    /// Point markers (a ring and a cross) at world points, with their colour.
    pub markers: Vec<(Vec3, [u8; 3])>,
    /// How bones are drawn.
    pub bone_style: BoneStyle,
    /// Opacity of bones over the mesh.
    pub bone_alpha: f32,
    /// Colour of highlighted bones.
    pub highlight_colour: [u8; 3],
    /// Colour bones by side (left blue, right red, centre pale); otherwise all pale.
    pub side_colours: bool,
    /// Draw outlines at silhouettes and depth jumps.
    pub outlines: bool,
    /// Smooth (per-vertex normal) shading; flat shading otherwise.
    pub smooth: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            xray: false,
            xray_alpha: 0.35,
            background: [44, 46, 52],
            labels: Vec::new(),
            label_scale: 1,
            markers: Vec::new(),
            bone_style: BoneStyle::Octahedral,
            bone_alpha: 0.92,
            highlight_colour: [255, 190, 40],
            side_colours: true,
            outlines: true,
            smooth: true,
        }
    }
}

/// Colour of outlines.
const INK: [u8; 3] = [18, 18, 22];

fn mix(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|k| (a[k] as f32 + (b[k] as f32 - a[k] as f32) * t).round() as u8)
}

/// Renders parts, bones, markers and labels with an orthographic camera into a
/// `cam.width x cam.height` RGBA picture. Deterministic: the same input gives the same
/// pixels whatever the number of threads.
pub fn render(
    parts: &[DrawPart],
    bones: Option<&Bones>,
    cam: &Camera,
    opts: &RenderOptions,
) -> Image {
    let (w, h) = (cam.width, cam.height);
    let mut img = Image::new(w, h, opts.background);
    if w == 0 || h == 0 {
        return img;
    }

    // Scene size (for depth-jump outlines), from the parts' bounds.
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for p in parts {
        for v in p.positions {
            if v.is_finite() {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
        }
    }
    let extent = if lo.x <= hi.x {
        (hi - lo).max_element()
    } else {
        0.0
    };

    // 1. Rasterize opaque parts into one layer, each translucent part into its own
    //    (its nearest surface), so x-ray shows parts inside parts (eyes in a head).
    let mut opaque = Vec::new();
    let mut ghosts: Vec<(Layer, Vec<bool>, f32)> = Vec::new();
    let jump = (4.0 * cam.pixel_size()).max(0.025 * extent);
    let mut tris = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        let a = if opts.xray {
            p.alpha.min(opts.xray_alpha)
        } else {
            p.alpha
        }
        .clamp(0.0, 1.0);
        if a <= 0.0 {
            continue;
        }
        let normals = opts
            .smooth
            .then(|| vertex_normals(p.positions, p.triangles));
        let out = if a >= 1.0 { &mut opaque } else { &mut tris };
        setup_mesh(
            cam,
            p.positions,
            p.triangles,
            &crate::raster::MeshLook {
                normals: normals.as_deref(),
                colour: p.colour,
                vertex_colours: p.vertex_colours,
                ambient: crate::raster::AMBIENT,
                id: i as u32 + 1,
            },
            out,
        );
        if a < 1.0 && !tris.is_empty() {
            let mut layer = Layer::new(w, h);
            rasterize(&tris, &mut layer, cam.near);
            let edge = if opts.outlines {
                outline(&layer, jump)
            } else {
                vec![false; layer.id.len()]
            };
            ghosts.push((layer, edge, a));
            tris.clear();
        }
    }
    let mut solid = Layer::new(w, h);
    rasterize(&opaque, &mut solid, cam.near);

    // 2. Compose: opaque with outlines, then translucent surfaces far to near.
    let solid_edge = if opts.outlines {
        outline(&solid, jump)
    } else {
        Vec::new()
    };
    let wu = w as usize;
    img.pixels
        .par_chunks_mut(wu * 4)
        .enumerate()
        .for_each(|(y, row)| {
            let mut stack: Vec<(f32, usize)> = Vec::new();
            for (x, px) in row.chunks_exact_mut(4).enumerate() {
                let i = y * wu + x;
                let mut c = if solid.id[i] != 0 {
                    solid.colour[i]
                } else {
                    opts.background
                };
                if solid_edge.get(i) == Some(&true) {
                    c = mix(c, INK, 0.75);
                }
                if !ghosts.is_empty() {
                    stack.clear();
                    for (k, g) in ghosts.iter().enumerate() {
                        if g.0.id[i] != 0 && g.0.depth[i] < solid.depth[i] {
                            stack.push((g.0.depth[i], k));
                        }
                    }
                    stack.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    for &(_, k) in &stack {
                        let (layer, edge, a) = &ghosts[k];
                        if edge[i] {
                            c = mix(
                                c,
                                mix(layer.colour[i], [255, 255, 255], 0.35),
                                (a * 2.2).min(0.9),
                            );
                        } else {
                            c = mix(c, layer.colour[i], *a);
                        }
                    }
                }
                px.copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        });

    // 3. Bones over everything.
    if let Some(b) = bones {
        draw_bones(&mut img, b, cam, opts);
    }

    // 4. Markers and labels.
    let unit = (w.min(h) as f32 / 256.0).max(1.0);
    for (p, col) in &opts.markers {
        let (x, y, _) = cam.project(*p);
        lines::ring(&mut img, x, y, 5.0 * unit, 1.5 * unit, *col, 1.0);
        lines::cross(&mut img, x, y, 8.0 * unit, 1.2 * unit, *col, 1.0);
    }
    draw_labels(&mut img, &opts.labels, cam, opts.label_scale);
    img
}

/// Draws bones (see [`crate::bones`]) over `img`.
fn draw_bones(img: &mut Image, b: &Bones, cam: &Camera, opts: &RenderOptions) {
    let n = b.heads.len().min(b.tails.len());
    if n == 0 {
        return;
    }
    let (w, h) = (cam.width, cam.height);
    let mut colours = if opts.side_colours {
        side_colours(&b.heads[..n], &b.tails[..n])
    } else {
        vec![crate::bones::CENTRE; n]
    };
    for (i, c) in colours.iter_mut().enumerate() {
        if b.highlight.get(i) == Some(&true) {
            *c = opts.highlight_colour;
        }
    }
    let unit = (w.min(h) as f32 / 256.0).max(1.0);
    let visible = |p: Vec3| match cam.near {
        Some(nz) => cam.project(p).2 >= nz,
        None => true,
    };

    // Relationship lines first, under the bones.
    if b.parents.len() == n {
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for p in b.heads[..n].iter().chain(&b.tails[..n]) {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        let gap = 1e-3 * (hi - lo).max_element();
        for i in 0..n {
            if let Some(p) = b.parents[i].filter(|&p| p < n) {
                if b.heads[i].distance(b.tails[p]) > gap
                    && visible(b.heads[i])
                    && visible(b.tails[p])
                {
                    let (x0, y0, _) = cam.project(b.heads[i]);
                    let (x1, y1, _) = cam.project(b.tails[p]);
                    lines::dashed_line(
                        img,
                        [x0, y0],
                        [x1, y1],
                        unit,
                        3.0 * unit,
                        [200, 200, 200],
                        0.7,
                    );
                }
            }
        }
    }

    match opts.bone_style {
        BoneStyle::Octahedral => {
            let mut tris = Vec::with_capacity(8 * n);
            setup_octahedra(cam, &b.heads[..n], &b.tails[..n], &colours, &mut tris);
            let mut layer = Layer::new(w, h);
            rasterize(&tris, &mut layer, cam.near);
            let edge = outline(&layer, f32::INFINITY);
            for y in 0..h as usize {
                for x in 0..w as usize {
                    let i = y * w as usize + x;
                    if layer.id[i] != 0 {
                        let c = if edge[i] { INK } else { layer.colour[i] };
                        img.blend(x as i32, y as i32, c, opts.bone_alpha);
                    } else if edge[i] {
                        img.blend(x as i32, y as i32, INK, 0.6 * opts.bone_alpha);
                    }
                }
            }
        }
        BoneStyle::Stick => {
            for i in 0..n {
                if !(visible(b.heads[i]) && visible(b.tails[i])) {
                    continue;
                }
                let (x0, y0, _) = cam.project(b.heads[i]);
                let (x1, y1, _) = cam.project(b.tails[i]);
                lines::line(
                    img,
                    [x0, y0],
                    [x1, y1],
                    2.6 * unit,
                    INK,
                    0.8 * opts.bone_alpha,
                );
                lines::line(
                    img,
                    [x0, y0],
                    [x1, y1],
                    1.4 * unit,
                    colours[i],
                    opts.bone_alpha,
                );
            }
        }
    }

    // Joint dots at heads, and at tails of bones without children.
    let mut has_child = vec![false; n];
    for p in b.parents.iter().take(n).flatten() {
        if *p < n {
            has_child[*p] = true;
        }
    }
    let r = match opts.bone_style {
        BoneStyle::Octahedral => 1.6 * unit,
        BoneStyle::Stick => 1.1 * unit,
    };
    for i in 0..n {
        let mut pts = vec![b.heads[i]];
        if !has_child[i] {
            pts.push(b.tails[i]);
        }
        for p in pts {
            if !visible(p) {
                continue;
            }
            let (x, y, _) = cam.project(p);
            lines::disc(img, x, y, r + unit * 0.8, INK, opts.bone_alpha);
            lines::disc(img, x, y, r, colours[i], opts.bone_alpha);
        }
    }
}

/// Draws labels at projected world points, nudging boxes apart so none overlaps.
fn draw_labels(img: &mut Image, labels: &[(Vec3, String)], cam: &Camera, scale: u32) {
    let mut placed: Vec<[i32; 4]> = Vec::new();
    let unit = (cam.width.min(cam.height) as f32 / 256.0).max(1.0);
    for (p, text) in labels {
        let (x, y, _) = cam.project(*p);
        if !(x.is_finite() && y.is_finite()) {
            continue;
        }
        lines::disc(img, x, y, 2.0 * unit, [255, 255, 255], 1.0);
        let (lw, lh) = font::label_size(text, scale);
        let (lw, lh) = (lw as i32, lh as i32);
        let mut bx = x.round() as i32 + 5;
        if bx + lw > img.width as i32 {
            bx = x.round() as i32 - 5 - lw;
        }
        let by0 = y.round() as i32 - lh / 2;
        let mut by = by0;
        for k in 0..24i32 {
            let step = (k + 1) / 2 * (lh + 1) * if k % 2 == 0 { 1 } else { -1 };
            by = by0 + step;
            let r = [bx, by, bx + lw, by + lh];
            if !placed
                .iter()
                .any(|q| r[0] < q[2] && q[0] < r[2] && r[1] < q[3] && q[1] < r[3])
            {
                break;
            }
        }
        if by != by0 {
            let ly = (by + lh / 2) as f32;
            let lx = if bx > x as i32 {
                bx as f32
            } else {
                (bx + lw) as f32
            };
            lines::line(img, [x, y], [lx, ly], 1.0, [255, 255, 255], 0.7);
        }
        placed.push([bx, by, bx + lw, by + lh]);
        font::draw_label(img, (bx, by), text, scale, [255, 255, 255], [0, 0, 0], 0.65);
    }
}
