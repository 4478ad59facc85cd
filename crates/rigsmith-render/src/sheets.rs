//! The review sheets a rigger opens: placement, poses, joint close-ups, weight heat maps.
//!
//! Every sheet takes plain data (the caller poses the mesh and passes positions) and
//! returns an [`Image`] made of labelled panels ([`crate::sheet::Sheet`]). Sizes: `size`
//! is the sheet's width in pixels; panels are `size / 2` squares; the height follows
//! from the number of rows plus a title strip ([`Sheet::header_height`]). Widths above
//! [`MAX_SIZE`] are drawn at [`MAX_SIZE`], so a stray size never allocates gigabytes.
//!
//! * [`placement_sheet`]: bones over an x-ray body seen from the front, the right and
//!   the top, plus a close-up of the head with the names of the bones in it. Are the
//!   joints inside the volume, the spine near the body's middle in side view?
//! * [`pose_sheet`]: a row per pose, front and side, all at one scale so rows compare.
//!   The side view looks at the side the pose name is on (`elbow_120.L` from the left).
//! * [`joint_sheet`]: per flagged joint, a front and a side close-up with what stands
//!   in front of the joint cut away and the joint centre marked.
//! * [`weight_heatmap`]: one bone's weights as colour (blue 0 to red 1), front and back.
//!
//! Nothing here fails: data that cannot be drawn (a part whose posed vertex count does
//! not match, a bone index outside the skeleton) is skipped and said in a caption, so a
//! sheet is never silently wrong.

use glam::Vec3;
use rigsmith::model::naming::{side_of, tokens};
use rigsmith::{Character, Side, Skeleton};

use crate::sheet::Sheet;
use crate::{
    heat, part_colour, render, BoneStyle, Bones, Camera, DrawPart, Image, RenderOptions, View,
};

/// One row of a [`pose_sheet`]: the pose's name, posed positions per part (metres),
/// posed bones `(head, tail)` (metres, in skeleton order).
pub type PoseRow = (String, Vec<Vec<Vec3>>, Vec<(Vec3, Vec3)>);

/// One item of a [`joint_sheet`]: a label, posed positions per part, the joint centre
/// and the flesh radius at the joint (metres).
pub type JointItem = (String, Vec<Vec<Vec3>>, Vec3, f32);

/// Joint close-ups keep the triangles within this many joint radii of the centre.
pub const JOINT_KEEP: f32 = 2.6;

/// Joint close-ups cut away what lies more than this many joint radii in front of the centre.
pub const JOINT_NEAR: f32 = 1.8;

/// Colour of parts without weights in a heat map.
const UNWEIGHTED: [u8; 3] = [95, 95, 100];

/// Largest sheet width accepted; larger requests are drawn at this width.
pub const MAX_SIZE: u32 = 8192;

/// Panel size for a sheet `size` wide: half of it, within 8 and [`MAX_SIZE`] / 2.
fn cell_size(size: u32) -> u32 {
    (size.min(MAX_SIZE) / 2).max(8)
}

/// Bounds `(min, max)` of finite points; `None` when there are none.
fn bounds<'a>(points: impl IntoIterator<Item = &'a Vec3>) -> Option<(Vec3, Vec3)> {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    let mut any = false;
    for p in points {
        if p.is_finite() {
            lo = lo.min(*p);
            hi = hi.max(*p);
            any = true;
        }
    }
    any.then_some((lo, hi))
}

fn union(a: Option<(Vec3, Vec3)>, b: Option<(Vec3, Vec3)>) -> Option<(Vec3, Vec3)> {
    match (a, b) {
        (Some((a0, a1)), Some((b0, b1))) => Some((a0.min(b0), a1.max(b1))),
        (x, None) | (None, x) => x,
    }
}

/// Heads, tails and parents of a skeleton as plain arrays.
fn skeleton_arrays(s: &Skeleton) -> (Vec<Vec3>, Vec<Vec3>, Vec<Option<usize>>) {
    (
        s.bones.iter().map(|b| b.head).collect(),
        s.bones.iter().map(|b| b.tail).collect(),
        s.bones.iter().map(|b| b.parent).collect(),
    )
}

/// The head bone: the first bone (parents come first) with a whole-word `head` token
/// and no `end`/`top` token, so `mixamorig:HeadTop_End` is not taken for the head.
fn head_bone(s: &Skeleton) -> Option<usize> {
    s.bones.iter().position(|b| {
        let t = tokens(&b.name);
        t.iter().any(|x| x == "head") && !t.iter().any(|x| x == "end" || x == "top")
    })
}

/// A sphere `(centre, radius)` around the head: from the head bone when there is one,
/// else the top of the bounds. `height` is the figure's height.
fn head_sphere(s: &Skeleton, lo: Vec3, hi: Vec3) -> (Vec3, f32) {
    let height = (hi.y - lo.y).max(f32::MIN_POSITIVE);
    let r = 0.085 * height;
    match head_bone(s) {
        Some(i) => {
            let b = &s.bones[i];
            // The head bone runs from the neck to the crown; the face sits around its
            // middle, or a head's radius above the head when the bone is stubby.
            let c = if b.length() > 0.06 * height {
                b.middle()
            } else {
                b.head + Vec3::Y * 0.06 * height
            };
            (c, r)
        }
        None => (
            Vec3::new(0.5 * (lo.x + hi.x), hi.y - r, 0.5 * (lo.z + hi.z)),
            r,
        ),
    }
}

/// Bones over an x-ray body: front, right and top views and a head close-up.
///
/// `s` is the skeleton to judge (a fitted one, or `c.skeleton`); the parts come from
/// `c` at rest. The sheet is `size` wide, panels are `size / 2` squares.
pub fn placement_sheet(c: &Character, s: &Skeleton, size: u32) -> Image {
    let cell = cell_size(size);
    let title = format!(
        "placement: {} bones over {} parts (x-ray)",
        s.bones.len(),
        c.parts.len()
    );
    let mut sheet = Sheet::new(&title, 2, 2, cell, cell);
    let colours: Vec<[u8; 3]> = (0..c.parts.len()).map(part_colour).collect();
    let parts: Vec<DrawPart> = c
        .parts
        .iter()
        .zip(&colours)
        .map(|(p, &col)| DrawPart::new(&p.mesh.positions, &p.mesh.triangles, col))
        .collect();
    let (heads, tails, parents) = skeleton_arrays(s);
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &parents,
        highlight: &[],
    };
    let mesh_box = bounds(c.parts.iter().flat_map(|p| &p.mesh.positions));
    let bone_box = bounds(heads.iter().chain(&tails));
    let (lo, hi) = union(mesh_box, bone_box).unwrap_or((Vec3::ZERO, Vec3::ONE));
    let mut opts = RenderOptions {
        xray: true,
        ..RenderOptions::default()
    };
    for (k, view) in [View::Front, View::Right, View::Top]
        .into_iter()
        .enumerate()
    {
        let cam = Camera::frame(view, lo, hi, cell, cell);
        let img = render(&parts, Some(&bones), &cam, &opts);
        sheet.place(k as u32 % 2, k as u32 / 2, &img, view.name());
    }
    // Head close-up with bone names.
    let (centre, r) = head_sphere(
        s,
        mesh_box.map_or(lo, |b| b.0),
        mesh_box.map_or(hi, |b| b.1),
    );
    let mut cam = Camera::closeup(View::Front, centre, r, cell, cell);
    cam.near = None;
    opts.label_scale = Sheet::text_scale(cell);
    opts.labels = s
        .bones
        .iter()
        .filter(|b| {
            let (x, y, _) = cam.project(b.head);
            x >= 0.0
                && y >= 0.0
                && x < cell as f32
                && y < cell as f32
                && b.head.distance(centre) < 1.2 * r
        })
        .take(16)
        .map(|b| (b.head, b.name.clone()))
        .collect();
    let img = render(&parts, Some(&bones), &cam, &opts);
    sheet.place(1, 1, &img, "head close-up");
    sheet.finish()
}

/// Draw parts for posed positions: parts whose posed vertex count does not match the
/// character's are left out and counted.
fn posed_parts<'a>(c: &'a Character, posed: &'a [Vec<Vec3>]) -> (Vec<DrawPart<'a>>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for (i, p) in c.parts.iter().enumerate() {
        match posed.get(i) {
            Some(pos) if pos.len() == p.mesh.positions.len() => {
                out.push(DrawPart::new(pos, &p.mesh.triangles, part_colour(i)));
            }
            _ => skipped += 1,
        }
    }
    (out, skipped)
}

/// The view that shows the side a name is on: `.L` names from the left, else the right.
fn side_view(name: &str) -> View {
    match side_of(name) {
        Side::Left => View::Left,
        _ => View::Right,
    }
}

fn skipped_note(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(" ({n} parts not drawn: vertex count differs)")
    }
}

/// A row per pose: its name, a front view and a side view, all rows at one scale.
///
/// Each row is `(pose name, posed positions per part, posed bones (head, tail))`; the
/// positions of part `i` must have as many points as `c.parts[i]` (parts that do not are
/// left out and said in the caption). Bones are drawn as sticks (with the parents of
/// `c.skeleton` when its bone count matches). The sheet is `size` wide.
pub fn pose_sheet(rows: &[PoseRow], c: &Character, size: u32) -> Image {
    let cell = cell_size(size);
    let title = format!("poses: {} ({} parts)", rows.len(), c.parts.len());
    let (mut sheet, per_row) = grid_sheet(&title, rows.len(), cell);
    if rows.is_empty() {
        sheet.place(
            0,
            0,
            &Image::new(cell, cell, [44, 46, 52]),
            "no poses given",
        );
        return sheet.finish();
    }
    // One box over every pose, so all rows share a scale.
    let mut all = None;
    for (_, posed, bones) in rows {
        all = union(all, bounds(posed.iter().flatten()));
        all = union(all, bounds(bones.iter().flat_map(|(h, t)| [h, t])));
    }
    let (lo, hi) = all.unwrap_or((Vec3::ZERO, Vec3::ONE));
    let opts = RenderOptions {
        bone_style: BoneStyle::Stick,
        bone_alpha: 0.75,
        ..RenderOptions::default()
    };
    let rest_parents: Vec<Option<usize>> = c
        .skeleton
        .as_ref()
        .map_or(Vec::new(), |s| s.bones.iter().map(|b| b.parent).collect());
    for (r, (name, posed, bone_pairs)) in rows.iter().enumerate() {
        let (parts, skipped) = posed_parts(c, posed);
        let heads: Vec<Vec3> = bone_pairs.iter().map(|b| b.0).collect();
        let tails: Vec<Vec3> = bone_pairs.iter().map(|b| b.1).collect();
        let parents: &[Option<usize>] = if rest_parents.len() == heads.len() {
            &rest_parents
        } else {
            &[]
        };
        let bones = Bones {
            heads: &heads,
            tails: &tails,
            parents,
            highlight: &[],
        };
        for (k, view) in [View::Front, side_view(name)].into_iter().enumerate() {
            let cam = Camera::frame(view, lo, hi, cell, cell);
            let img = render(&parts, Some(&bones), &cam, &opts);
            let caption = if k == 0 {
                format!("{name}  {}{}", view.name(), skipped_note(skipped))
            } else {
                format!("{name}  {}", view.name())
            };
            let (col, row) = grid_cell(r, k, per_row);
            sheet.place(col, row, &img, &caption);
        }
    }
    sheet.finish()
}

/// A grid sheet of `n` items, each two `cell` panels wide; with its items per row.
fn grid_sheet(title: &str, n: usize, cell: u32) -> (Sheet, u32) {
    let per_row = per_row(n);
    let rows = grid_rows(n, per_row);
    (Sheet::new(title, 2 * per_row, rows, cell, cell), per_row)
}

/// Items per row of a grid sheet (each item two panels wide): about twice as many
/// columns as rows, one item per row up to two items.
fn per_row(n: usize) -> u32 {
    ((n as f32 / 2.0).sqrt().round() as u32).max(1)
}

/// Rows of a grid of `n` items, `per_row` a row.
fn grid_rows(n: usize, per_row: u32) -> u32 {
    (n.max(1) as u32).div_ceil(per_row)
}

/// The panel `(column, row)` of item `i`'s panel `k` (0 or 1).
fn grid_cell(i: usize, k: usize, per_row: u32) -> (u32, u32) {
    let i = i as u32;
    (2 * (i % per_row) + k as u32, i / per_row)
}

/// Close-ups of joints: per item a front and a side view framed on the joint, with
/// everything more than [`JOINT_NEAR`] radii in front of the joint centre cut away, only the
/// flesh within [`JOINT_KEEP`] radii of the centre drawn, and the centre marked.
///
/// Each item is `(label, posed positions per part, joint centre, joint radius)`:
/// metres; the radius is the flesh radius at the joint (a close-up spans 2.5 of it).
/// The side view looks at the side the label is on (`elbow_120.L` from the left).
pub fn joint_sheet(items: &[JointItem], c: &Character, size: u32) -> Image {
    joint_sheet_across(items, &[], c, size)
}

/// [`joint_sheet`] whose second view of item `i` looks across its bend plane when
/// `across[i]` holds the plane's normal (the elbow seen from the side it bends to,
/// not along the forearm); the side view otherwise. Items are laid out as a grid.
pub fn joint_sheet_across(
    items: &[JointItem],
    across: &[Option<Vec3>],
    c: &Character,
    size: u32,
) -> Image {
    let cell = cell_size(size);
    let title = format!("joint close-ups: {}", items.len());
    let (mut sheet, per_row) = grid_sheet(&title, items.len(), cell);
    if items.is_empty() {
        sheet.place(
            0,
            0,
            &Image::new(cell, cell, [44, 46, 52]),
            "no joints flagged",
        );
        return sheet.finish();
    }
    for (r, (label, posed, centre, radius)) in items.iter().enumerate() {
        let radius = if radius.is_finite() && *radius > 0.0 {
            *radius
        } else {
            // Unusable radius: a tenth of the posed figure's size.
            bounds(posed.iter().flatten()).map_or(1.0, |(a, b)| {
                0.1 * (b - a).max_element().max(f32::MIN_POSITIVE)
            })
        };
        // Keep only the flesh around the joint: triangles whose corners all lie within
        // `KEEP` radii of the centre, so a face or a chest far off does not intrude.
        let keep = (JOINT_KEEP * radius).powi(2);
        let mut kept: Vec<Vec<[u32; 3]>> = Vec::with_capacity(c.parts.len());
        let mut skipped = 0;
        for (i, p) in c.parts.iter().enumerate() {
            match posed.get(i) {
                Some(pos) if pos.len() == p.mesh.positions.len() => kept.push(
                    p.mesh
                        .triangles
                        .iter()
                        .filter(|t| {
                            t.iter().all(|&v| {
                                pos.get(v as usize)
                                    .is_some_and(|q| q.distance_squared(*centre) <= keep)
                            })
                        })
                        .copied()
                        .collect(),
                ),
                _ => {
                    skipped += 1;
                    kept.push(Vec::new());
                }
            }
        }
        let parts: Vec<DrawPart> = c
            .parts
            .iter()
            .enumerate()
            .filter(|(i, _)| !kept[*i].is_empty())
            .map(|(i, _)| DrawPart::new(&posed[i], &kept[i], part_colour(i)))
            .collect();
        let opts = RenderOptions {
            markers: vec![(*centre, [255, 230, 60])],
            ..RenderOptions::default()
        };
        let second = match across.get(r).copied().flatten() {
            Some(n) if n.length_squared() > 1e-12 => View::Custom {
                eye_dir: n,
                up: if n.normalize().y.abs() > 0.9 {
                    Vec3::Z
                } else {
                    Vec3::Y
                },
            },
            _ => side_view(label),
        };
        for (k, view) in [View::Front, second].into_iter().enumerate() {
            let mut cam = Camera::closeup(view, *centre, 2.5 * radius, cell, cell);
            cam.near = Some(-JOINT_NEAR * radius);
            let img = render(&parts, None, &cam, &opts);
            let caption = match (k, view) {
                (0, _) => format!("{label}  {}{}", view.name(), skipped_note(skipped)),
                (_, View::Custom { .. }) => format!("{label}  across the bend"),
                _ => format!("{label}  {}", view.name()),
            };
            let (col, row) = grid_cell(r, k, per_row);
            sheet.place(col, row, &img, &caption);
        }
    }
    sheet.finish()
}

/// The weights of one bone as colour over the body at rest, front and back: dark blue
/// 0, cyan, green, yellow, red 1 (a legend sits in the title strip). Parts without
/// weights are grey. The skeleton is drawn as sticks with the bone highlighted.
pub fn weight_heatmap(c: &Character, bone: usize, size: u32) -> Image {
    let cell = cell_size(size);
    let skel = c.skeleton.as_ref();
    let nb = skel.map_or(0, |s| s.bones.len());
    let title = match skel.and_then(|s| s.bones.get(bone)) {
        Some(b) => format!("weights: {}", b.name),
        None => format!("weights: bone {bone} is not in the skeleton ({nb} bones)"),
    };
    let mut sheet = Sheet::new(&title, 2, 1, cell, cell);
    let colours: Vec<Option<Vec<[u8; 3]>>> = c
        .parts
        .iter()
        .map(|p| {
            let w = p
                .weights
                .as_ref()
                .filter(|w| w.vertices.len() == p.mesh.positions.len() && bone < nb)?;
            Some(
                w.vertices
                    .iter()
                    .map(|list| {
                        heat(
                            list.iter()
                                .filter(|i| i.bone as usize == bone)
                                .map(|i| i.weight)
                                .sum(),
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    let parts: Vec<DrawPart> = c
        .parts
        .iter()
        .zip(&colours)
        .map(|(p, vc)| DrawPart {
            vertex_colours: vc.as_deref(),
            ..DrawPart::new(&p.mesh.positions, &p.mesh.triangles, UNWEIGHTED)
        })
        .collect();
    let (heads, tails, parents) =
        skel.map_or((Vec::new(), Vec::new(), Vec::new()), skeleton_arrays);
    let highlight: Vec<bool> = (0..nb).map(|i| i == bone).collect();
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &parents,
        highlight: &highlight,
    };
    let mesh_box = bounds(c.parts.iter().flat_map(|p| &p.mesh.positions));
    let (lo, hi) =
        union(mesh_box, bounds(heads.iter().chain(&tails))).unwrap_or((Vec3::ZERO, Vec3::ONE));
    let opts = RenderOptions {
        bone_style: BoneStyle::Stick,
        bone_alpha: 0.55,
        side_colours: false,
        ..RenderOptions::default()
    };
    for (k, view) in [View::Front, View::Back].into_iter().enumerate() {
        let cam = Camera::frame(view, lo, hi, cell, cell);
        let img = render(&parts, Some(&bones), &cam, &opts);
        sheet.place(k as u32, 0, &img, view.name());
    }
    draw_legend(&mut sheet, cell);
    sheet.finish()
}

/// A 0..1 heat ramp legend at the right of the title strip.
fn draw_legend(sheet: &mut Sheet, cell: u32) {
    let s = Sheet::text_scale(cell);
    let h = Sheet::header_height(cell);
    let img = sheet.image_mut();
    let bar_w = (img.width / 5).max(20);
    let (tw, _) = crate::font::text_size("1", s);
    let x1 = img.width as i32 - 4 * s as i32 - tw as i32 - 3;
    let x0 = x1 - bar_w as i32;
    for k in 0..bar_w as i32 {
        let col = heat(k as f32 / (bar_w - 1).max(1) as f32);
        img.fill_rect(x0 + k, 4, 1, h - 8, col);
    }
    let (zw, _) = crate::font::text_size("0", s);
    crate::font::draw_text(
        img,
        x0 - zw as i32 - 3,
        4 + s as i32,
        "0",
        s,
        [220, 220, 220],
    );
    crate::font::draw_text(img, x1 + 3, 4 + s as i32, "1", s, [220, 220, 220]);
}
