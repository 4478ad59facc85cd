//! Cross-side leak: in a pose that moves only one side (left arm up), how far do
//! vertices on the OTHER side move? Clean weights keep them still; weights that leak
//! across the mid-plane drag the other side along.
//!
//! Vertices count as "other side" when they lie beyond `margin` (units of height H)
//! on the far side of the mid-plane `x = mid_x`. The leak is the largest displacement
//! among them, in units of H (rubric C: flag above 0.001 H).

use glam::Vec3;

use crate::model::naming::Side;

/// Leak threshold, units of body height (rubric C, [added] calibration).
pub const LEAK_MAX_H: f32 = 0.001;

/// Largest displacement (units of `h`) of vertices on the side opposite `moved`, and
/// the index of that vertex. `(0, None)` for a centre pose or no such vertex.
pub fn cross_side_leak(
    rest: &[Vec3],
    posed: &[Vec3],
    moved: Side,
    mid_x: f32,
    h: f32,
    margin: f32,
) -> (f32, Option<usize>) {
    let s = match moved {
        Side::Left => 1.0,
        Side::Right => -1.0,
        Side::Center => return (0.0, None),
    };
    let mut best = (0.0f32, None);
    for (i, (a, b)) in rest.iter().zip(posed).enumerate() {
        if (a.x - mid_x) * s < -margin * h {
            let d = (*b - *a).length() / h;
            if d > best.0 {
                best = (d, Some(i));
            }
        }
    }
    best
}
