//! Orthographic cameras framed automatically on a box or a sphere.
//!
//! A [`Camera`] maps a world point (glTF space: metres, +Y up, the character faces +Z,
//! its left is +X) to a pixel `(x, y)` with `x` to the right and `y` down, plus a depth
//! that grows away from the viewer. Views are named from the viewer's side of the
//! character, as in Blender: [`View::Front`] looks at the face (the character's left
//! appears on the right of the picture), [`View::Right`] looks at its right side (it
//! faces the right of the picture), [`View::Top`] looks down with the face towards the
//! bottom of the picture.
//!
//! ```
//! use glam::Vec3;
//! use rigsmith_render::{Camera, View};
//! let cam = Camera::frame(View::Front, Vec3::new(-0.3, 0.0, -0.1), Vec3::new(0.3, 1.8, 0.1), 256, 256);
//! let (x, y, _) = cam.project(Vec3::new(0.0, 0.9, 0.0));
//! assert!((x - 128.0).abs() < 1e-3 && (y - 128.0).abs() < 1e-3);
//! ```
//!
//! Framing never depends on absolute size: the scale is chosen so the projected box
//! fills the picture minus a margin ([`Camera::MARGIN`] of the shorter side).

use glam::Vec3;

/// Where the viewer stands, relative to the character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View {
    /// In front of the character (at +Z), looking at its face.
    Front,
    /// Behind the character (at -Z).
    Back,
    /// On the character's right (at -X): the character faces the right of the picture.
    Right,
    /// On the character's left (at +X): the character faces the left of the picture.
    Left,
    /// Above (at +Y), the face towards the bottom of the picture.
    Top,
    /// Any direction: `eye_dir` points from the subject to the viewer, `up` is the
    /// world direction that should point up in the picture (made orthogonal to `eye_dir`).
    Custom {
        /// From the subject towards the viewer (any length but zero).
        eye_dir: Vec3,
        /// Up in the picture.
        up: Vec3,
    },
}

impl View {
    /// `(eye_dir, up)`: the unit direction from the subject to the viewer and the
    /// picture's up direction (unit, orthogonal to `eye_dir`).
    pub fn axes(self) -> (Vec3, Vec3) {
        let (eye, up) = match self {
            View::Front => (Vec3::Z, Vec3::Y),
            View::Back => (Vec3::NEG_Z, Vec3::Y),
            View::Right => (Vec3::NEG_X, Vec3::Y),
            View::Left => (Vec3::X, Vec3::Y),
            View::Top => (Vec3::Y, Vec3::NEG_Z),
            View::Custom { eye_dir, up } => (eye_dir, up),
        };
        let eye = eye.try_normalize().unwrap_or(Vec3::Z);
        let mut u = up - eye * up.dot(eye);
        if u.length_squared() < 1e-8 {
            // `up` along the view: pick any world axis that is not.
            u = [Vec3::Y, Vec3::NEG_Z, Vec3::X]
                .into_iter()
                .map(|c| c - eye * c.dot(eye))
                .find(|c| c.length_squared() > 0.1)
                .unwrap_or(Vec3::Y);
        }
        (eye, u.normalize())
    }

    /// A short lowercase name (`front`, `right`, ...; `custom` for [`View::Custom`]).
    pub fn name(self) -> &'static str {
        match self {
            View::Front => "front",
            View::Back => "back",
            View::Right => "right",
            View::Left => "left",
            View::Top => "top",
            View::Custom { .. } => "custom",
        }
    }
}

/// An orthographic camera producing `width x height` pictures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// World point at the centre of the picture.
    pub centre: Vec3,
    /// Unit world direction of the picture's +x (right).
    pub right: Vec3,
    /// Unit world direction of the picture's up (-y in pixels).
    pub up: Vec3,
    /// Unit world direction the camera looks along (depth grows along it).
    pub forward: Vec3,
    /// Pixels per metre.
    pub scale: f32,
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Optional near clip: surfaces with depth below this (metres along `forward`,
    /// measured from `centre`) are not drawn, which cuts away what stands between the
    /// viewer and a close-up subject.
    pub near: Option<f32>,
}

impl Camera {
    /// Margin left around a framed subject, as a fraction of the shorter picture side.
    pub const MARGIN: f32 = 0.06;

    /// A camera looking from `view` at the box `[bounds_min, bounds_max]` (metres),
    /// scaled so the projected box fits a `width x height` picture with a margin.
    /// A degenerate box (a point) is framed as a unit-free 1e-3 cube around it.
    pub fn frame(
        view: View,
        bounds_min: Vec3,
        bounds_max: Vec3,
        width: u32,
        height: u32,
    ) -> Camera {
        let (eye, up) = view.axes();
        let forward = -eye;
        let right = forward.cross(up).normalize();
        let centre = 0.5 * (bounds_min + bounds_max);
        let half = 0.5 * (bounds_max - bounds_min).abs();
        // Half extents of the box's projection on the picture axes.
        let ext = |a: Vec3| half.x * a.x.abs() + half.y * a.y.abs() + half.z * a.z.abs();
        Camera::fit(
            centre,
            right,
            up,
            forward,
            (ext(right), ext(up)),
            (width, height),
        )
    }

    /// A close-up on the sphere `(centre, radius)` seen from `view`, with the near clip
    /// set `radius` in front of the centre so nothing nearer hides the subject.
    pub fn closeup(view: View, centre: Vec3, radius: f32, width: u32, height: u32) -> Camera {
        let (eye, up) = view.axes();
        let forward = -eye;
        let right = forward.cross(up).normalize();
        let r = radius.abs();
        let mut cam = Camera::fit(centre, right, up, forward, (r, r), (width, height));
        cam.near = Some(-r);
        cam
    }

    /// `half`: the subject's half extents `(right, up)`; `size`: the picture's
    /// `(width, height)` in pixels.
    fn fit(
        centre: Vec3,
        right: Vec3,
        up: Vec3,
        forward: Vec3,
        half: (f32, f32),
        size: (u32, u32),
    ) -> Camera {
        let ((half_w, half_h), (width, height)) = (half, size);
        let w = width.max(1) as f32;
        let h = height.max(1) as f32;
        let margin = Self::MARGIN * w.min(h);
        let avail_w = (w - 2.0 * margin).max(1.0);
        let avail_h = (h - 2.0 * margin).max(1.0);
        let size = half_w.max(half_h);
        // A degenerate subject gets a tiny extent relative to itself, never a division by 0.
        let floor = (size * 1e-3).max(f32::MIN_POSITIVE.sqrt());
        let hw = half_w.max(floor);
        let hh = half_h.max(floor);
        let scale = (avail_w / (2.0 * hw)).min(avail_h / (2.0 * hh));
        Camera {
            centre,
            right,
            up,
            forward,
            scale,
            width,
            height,
            near: None,
        }
    }

    /// Projects a world point: `(x, y, depth)` with `x, y` in pixels (fractional, y
    /// down, pixel centres at `i + 0.5`) and depth in metres along [`Camera::forward`]
    /// from [`Camera::centre`] (larger is farther).
    #[inline]
    pub fn project(&self, p: Vec3) -> (f32, f32, f32) {
        let d = p - self.centre;
        (
            0.5 * self.width as f32 + d.dot(self.right) * self.scale,
            0.5 * self.height as f32 - d.dot(self.up) * self.scale,
            d.dot(self.forward),
        )
    }

    /// The world length of one pixel, metres.
    pub fn pixel_size(&self) -> f32 {
        1.0 / self.scale
    }
}
