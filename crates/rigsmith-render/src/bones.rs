//! Bones as solid octahedra (Blender's shape) or sticks, with joint dots.
//!
//! An octahedral bone has its widest ring at [`RING_AT`] of its length from the head,
//! of radius [`RING_RADIUS`] times its length, so a bone's direction reads at a glance
//! (thick end at the joint it rotates about). The octahedra are rasterized with their
//! own depth buffer so nearer bones hide farther ones, then laid over the mesh:
//! bones are always visible, the point of a placement sheet.
//!
//! Colours follow the side a bone is on, as riggers expect: the character's left (+X of
//! the skeleton's middle) blue, its right red, the centre line pale grey; highlighted
//! bones are drawn in [`crate::RenderOptions::highlight_colour`].

use glam::Vec3;

use crate::raster::{setup_mesh, MeshLook, ScreenTri};
use crate::Camera;

/// Where along the bone the octahedron is widest (fraction of the length from the head).
pub const RING_AT: f32 = 0.12;
/// Radius of the widest ring as a fraction of the bone's length.
pub const RING_RADIUS: f32 = 0.085;

/// Ambient share of bone shading: bones stay bright whatever way their faces turn.
pub const BONE_AMBIENT: f32 = 0.62;

/// Bone colour for the character's left side (+X).
pub const LEFT: [u8; 3] = [110, 175, 255];
/// Bone colour for the character's right side (-X).
pub const RIGHT: [u8; 3] = [255, 120, 120];
/// Bone colour for the centre line.
pub const CENTRE: [u8; 3] = [225, 225, 215];

/// A unit vector orthogonal to `y` (world X made orthogonal, else Z).
fn perpendicular(y: Vec3) -> Vec3 {
    for c in [Vec3::X, Vec3::Z, Vec3::Y] {
        let x = c - y * c.dot(y);
        if x.length_squared() > 0.2 {
            return x.normalize();
        }
    }
    Vec3::X
}

/// The six corners of a bone's octahedron: head, tail, then four ring points.
pub fn octahedron(head: Vec3, tail: Vec3) -> [Vec3; 6] {
    let d = tail - head;
    let len = d.length();
    let y = d.try_normalize().unwrap_or(Vec3::Y);
    let x = perpendicular(y);
    let z = x.cross(y);
    let c = head + d * RING_AT;
    let r = len * RING_RADIUS;
    [head, tail, c + x * r, c + z * r, c - x * r, c - z * r]
}

/// The eight faces of [`octahedron`], counter-clockwise seen from outside.
pub const OCTAHEDRON_FACES: [[u32; 3]; 8] = [
    [0, 2, 3],
    [0, 3, 4],
    [0, 4, 5],
    [0, 5, 2],
    [1, 3, 2],
    [1, 4, 3],
    [1, 5, 4],
    [1, 2, 5],
];

/// Side colours for bones by the x of their middle against the skeleton's centre line
/// (the median middle x); bones within `1%` of the skeleton's height of it are centre.
pub fn side_colours(heads: &[Vec3], tails: &[Vec3]) -> Vec<[u8; 3]> {
    let n = heads.len().min(tails.len());
    if n == 0 {
        return Vec::new();
    }
    let mids: Vec<Vec3> = (0..n).map(|i| 0.5 * (heads[i] + tails[i])).collect();
    let mut xs: Vec<f32> = mids.iter().map(|m| m.x).collect();
    xs.sort_by(f32::total_cmp);
    let mid_x = xs[n / 2];
    let (lo, hi) = heads[..n]
        .iter()
        .chain(&tails[..n])
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    let tol = 0.01 * (hi - lo).max(f32::MIN_POSITIVE);
    mids.iter()
        .map(|m| {
            if m.x > mid_x + tol {
                LEFT
            } else if m.x < mid_x - tol {
                RIGHT
            } else {
                CENTRE
            }
        })
        .collect()
}

/// Screen triangles of octahedral bones, flat shaded; bone `i` gets id `i + 1`.
pub fn setup_octahedra(
    cam: &Camera,
    heads: &[Vec3],
    tails: &[Vec3],
    colours: &[[u8; 3]],
    out: &mut Vec<ScreenTri>,
) {
    let n = heads.len().min(tails.len()).min(colours.len());
    for i in 0..n {
        if (tails[i] - heads[i]).length_squared() == 0.0 {
            continue;
        }
        let pts = octahedron(heads[i], tails[i]);
        setup_mesh(
            cam,
            &pts,
            &OCTAHEDRON_FACES,
            &MeshLook {
                normals: None,
                colour: colours[i],
                vertex_colours: None,
                ambient: BONE_AMBIENT,
                id: i as u32 + 1,
            },
            out,
        );
    }
}
