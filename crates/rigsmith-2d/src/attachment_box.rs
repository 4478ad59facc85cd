//! The box a part draws in ([`attachment_box`]).
//!
//! A declared size wins over the art's own extent; the aspect is always the art's.
//! With one side declared the other follows the art's aspect; with both, the art is
//! contained in the box (uniformly scaled to fit, never stretched). Unmeasurable art
//! leaves the declared box as it is, or nothing when only one side is declared.
//!
//! ```
//! use rigsmith_2d::attachment_box::attachment_box;
//! assert_eq!(attachment_box(Some(120.0), Some(120.0), Some((40.0, 20.0))), Some((120.0, 60.0)));
//! ```

/// The fit policy every built sprite carries: the art keeps its shape.
pub const CONTAIN_FIT: &str = "contain";

/// The box `(width, height)` a part draws in, view_box units, or `None` when nothing
/// gives one. `art`: the art's own extent (`None` = unmeasurable).
pub fn attachment_box(
    width: Option<f64>,
    height: Option<f64>,
    art: Option<(f64, f64)>,
) -> Option<(f64, f64)> {
    let art = art.filter(|(w, h)| *w > 0.0 && *h > 0.0 && w.is_finite() && h.is_finite());
    match (width, height, art) {
        (None, None, a) => a,
        (Some(w), Some(h), None) => Some((w, h)),
        (Some(w), None, Some((aw, ah))) => Some((w, w * ah / aw)),
        (None, Some(h), Some((aw, ah))) => Some((h * aw / ah, h)),
        (Some(w), Some(h), Some((aw, ah))) => {
            let s = (w / aw).min(h / ah);
            Some((aw * s, ah * s))
        }
        _ => None,
    }
}

/// Whether a declared box and the art disagree in aspect by more than 1 %: the art is
/// then contained, not stretched, and a checker says so.
pub fn aspect_mismatch(width: f64, height: f64, art: (f64, f64)) -> bool {
    if art.0 <= 0.0 || art.1 <= 0.0 || width <= 0.0 || height <= 0.0 {
        return false;
    }
    let a = (width / height) / (art.0 / art.1);
    !(0.99..=1.01).contains(&a)
}
