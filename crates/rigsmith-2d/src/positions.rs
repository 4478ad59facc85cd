//! Where the bones are, and which point of the rig lands at the entity's placement.
//!
//! Bone transforms are parent-relative, so a bone's absolute position is the sum of
//! `(x, y)` along its parent chain ([`bone_positions`]). The rig's origin is the
//! declared [`RigDocument::origin`] when there is one, else the centre of the bones'
//! extent ([`bone_extent_centre`]); every built part is placed relative to it.
//!
//! ```
//! use rigsmith_2d::model::{Bone, RigDocument};
//! use rigsmith_2d::positions::rig_origin;
//! let mut doc = RigDocument::default();
//! doc.bones = vec![Bone::new("root").at(512.0, 980.0), Bone::new("top").with_parent("root").at(0.0, -560.0)];
//! assert_eq!(rig_origin(&doc), (512.0, 700.0));
//! doc.origin = Some((512.0, 980.0));
//! assert_eq!(rig_origin(&doc), (512.0, 980.0));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::error::num;
use crate::model::RigDocument;

/// Absolute `(x, y)` per bone, view_box units: the sum of `(x, y)` along the parent
/// chain. A cycle or a dangling parent stops the walk rather than looping (a malformed
/// rig is [`crate::structure::rig_problems`]'s business).
pub fn bone_positions(doc: &RigDocument) -> BTreeMap<String, (f64, f64)> {
    let index: BTreeMap<&str, usize> = doc
        .bones
        .iter()
        .enumerate()
        .rev()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    let mut out = BTreeMap::new();
    for b in &doc.bones {
        if out.contains_key(&b.name) {
            continue;
        }
        let (mut x, mut y) = (b.x, b.y);
        let mut seen = BTreeSet::from([b.name.as_str()]);
        let mut cur = b.parent.as_deref();
        while let Some(p) = cur {
            if !seen.insert(p) {
                break;
            }
            let Some(&i) = index.get(p) else { break };
            x += doc.bones[i].x;
            y += doc.bones[i].y;
            cur = doc.bones[i].parent.as_deref();
        }
        out.insert(b.name.clone(), (x, y));
    }
    out
}

/// The centre of the bones' extent, view_box units: the DEFAULT point the entity's
/// placement refers to when the rig declares no origin. `None` for a rig with no bones.
///
/// The centre of the extent, not the root bone: a rig whose root is its ground
/// contact would otherwise hang its whole body above the placement point.
pub fn bone_extent_centre(positions: &BTreeMap<String, (f64, f64)>) -> Option<(f64, f64)> {
    let mut it = positions.values();
    let first = it.next()?;
    let (mut x0, mut y0, mut x1, mut y1) = (first.0, first.1, first.0, first.1);
    for &(x, y) in it {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    Some(((x0 + x1) / 2.0, (y0 + y1) / 2.0))
}

/// The rig's DECLARED origin, or `None` when it declares none.
pub fn declared_origin(doc: &RigDocument) -> Option<(f64, f64)> {
    doc.origin
}

/// The declared origin of a RAW document (`{"origin": [0, 5]}`), read leniently:
/// `None` when absent, null or not two numbers. Non-finite values are kept (they are
/// [`rig_origin_problems`]'s to report).
pub fn declared_origin_raw(raw: &Value) -> Option<(f64, f64)> {
    let a = raw.get("origin")?.as_array()?;
    if a.len() != 2 {
        return None;
    }
    Some((a[0].as_f64()?, a[1].as_f64()?))
}

/// The point of the rig, view_box units, that lands at the entity's placement: the
/// declared origin, else the bones' extent centre, else (no bones) the view_box centre.
pub fn rig_origin(doc: &RigDocument) -> (f64, f64) {
    if let Some(o) = doc.origin {
        return o;
    }
    bone_extent_centre(&bone_positions(doc)).unwrap_or_else(|| {
        let vb = doc.view_box();
        (vb[0] + vb[2] / 2.0, vb[1] + vb[3] / 2.0)
    })
}

/// What is wrong with a declared origin, as warnings. Nothing when none is declared.
///
/// A non-finite origin places the rig nowhere; one outside the view_box is legal (a
/// hanging sign's hook can sit above its art) but is more often a unit slip, so it is
/// said, not refused. `view_box` is `(x, y, width, height)`.
pub fn rig_origin_problems(origin: Option<(f64, f64)>, view_box: [f64; 4]) -> Vec<String> {
    let Some((x, y)) = origin else {
        return Vec::new();
    };
    if !x.is_finite() || !y.is_finite() {
        return vec![format!(
            "origin ({}, {}) is not finite: it places the whole rig nowhere",
            num(x),
            num(y)
        )];
    }
    let [vx, vy, vw, vh] = view_box;
    if x < vx || x > vx + vw || y < vy || y > vy + vh {
        return vec![format!(
            "origin ({}, {}) lies outside the view_box ({}, {}, {}, {}): legal (a hook may hang above its art), \
             but more often scene pixels written where view_box units belong",
            num(x),
            num(y),
            num(vx),
            num(vy),
            num(vw),
            num(vh)
        )];
    }
    Vec::new()
}
