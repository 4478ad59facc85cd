//! CPU software rasterizer and review sheets for rigsmith characters (no GPU needed).
//!
//! A rig is judged by looking at it. This crate draws what a lead rigger opens:
//!
//! * [`render`]: one orthographic picture of shaded parts ([`DrawPart`]), bones over
//!   them ([`Bones`]), markers and text labels, with an x-ray mode. Z-buffered, Lambert
//!   plus ambient from a light at the viewer, back faces shaded (open meshes read), per
//!   part colours ([`part_colour`]) or per vertex colours.
//! * [`Camera::frame`] and [`Camera::closeup`]: front, back, right, left, top or any
//!   view, framed automatically on a box or a sphere; nothing depends on absolute size.
//! * Sheets that compose labelled panels ([`sheet::Sheet`]):
//!   [`placement_sheet`] (bones over an x-ray body: front, right, top, head close-up),
//!   [`pose_sheet`] (a row per pose, front and side), [`joint_sheet`] (close-ups of
//!   flagged joints), [`weight_heatmap`] (one bone's weights as colour, front and back)
//!   [`motion::motion_sheet`] (frames of a spring simulation), and the face's
//!   [`face_placement_sheet`] and [`face_sheet`] (neutral, blink, aa, happy).
//! * [`Image`]: RGBA8 pixels with PNG output ([`Image::save_png`], [`Image::to_png_bytes`]).
//! * [`viewer`]: the report's interactive 3D view (three.js in the browser, inline and
//!   offline): the review's poses, weights, skeleton overlay, check links, motion frames.
//!
//! Space is glTF's: metres, +Y up, the character faces +Z, its left side is +X. Sheets
//! take plain data: the caller poses the mesh and passes positions.
//!
//! ```
//! use rigsmith_render::{placement_sheet, Image};
//! # use rigsmith::{Character, Part, Mesh, Skeleton, Bone};
//! # use glam::Vec3;
//! # let mesh = Mesh { positions: vec![Vec3::ZERO, Vec3::X, Vec3::Y], triangles: vec![[0, 1, 2]], ..Default::default() };
//! # let c = Character { parts: vec![Part { name: "body".into(), mesh, ..Default::default() }], ..Default::default() };
//! # let s = Skeleton { bones: vec![Bone::new("root", None, Vec3::ZERO, Vec3::Y)] };
//! let img: Image = placement_sheet(&c, &s, 256);
//! // Four 128-pixel panels under a title strip.
//! assert_eq!((img.width, img.height), (256, 256 + rigsmith_render::sheet::Sheet::header_height(128)));
//! ```

pub mod bones;
pub mod camera;
pub mod canvas;
pub mod demo;
pub mod face;
pub mod font;
pub mod lines;
pub mod motion;
pub mod palette;
pub mod raster;
pub mod render;
pub mod review;
pub mod sheet;
pub mod sheets;
pub mod viewer;

pub use camera::{Camera, View};
pub use canvas::Image;
pub use face::{face_placement_sheet, face_sheet};
pub use palette::{heat, part_colour};
pub use render::{render, BoneStyle, Bones, DrawPart, RenderOptions};
pub use sheets::{
    joint_sheet, joint_sheet_across, placement_sheet, pose_sheet, weight_heatmap, JointItem,
    PoseRow,
};
