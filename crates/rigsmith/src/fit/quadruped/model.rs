//! The model check of a four-legged body: what the biped model check
//! ([`crate::fit::model_check`]) measures that still holds for an animal, measured the
//! animal's way.
//!
//! A quadruped is longer than it is tall, so the biped's `model.up` ("standing along
//! +Y") and its facing from the shins to the toes do not apply. Instead:
//!
//! | id | what | fixable |
//! |---|---|---|
//! | `model.floor` | the lowest point is off y = 0 by more than 1% of the height | yes |
//! | `model.center` | the body's centre is off x = 0 by more than 1% of the height | yes |
//! | `model.facing` | the head (the higher end beyond the legs) is toward -Z | yes (half a turn about Y) |
//! | `model.part_apart` | a part lies entirely outside the body's bounds | no |
//!
//! [`crate::fit::fix_model`] fixes it as it fixes a biped's report. Its checks
//! ([`ModelReport::checks`]) leave out `model.standing`.

use super::classify::{classify, BodyPlan};
use super::landmarks::head_end;
use crate::fit::landmarks::{body_mesh, LandmarkOptions};
use crate::fit::model_check::{floor_and_centre, parts_apart, symmetry, ModelReport, Problem};
use crate::fit::sections::bounds;
use crate::model::Character;

/// The plan the report was measured for, as [`ModelReport::plan`] names it.
pub const QUADRUPED_PLAN: &str = "quadruped";

/// The model check for the body plan the sections show: the quadruped's (see the
/// module docs) when they show four legs in a front and a back pair, else the biped's.
pub fn model_check_for(c: &Character) -> ModelReport {
    match body_mesh(c, &LandmarkOptions::default()) {
        Ok((m, _)) if classify(&m).plan == BodyPlan::Quadruped => quadruped_model_check(c),
        _ => crate::fit::model_check(c),
    }
}

/// The quadruped's model check (see the module docs); an empty model is reported as
/// the biped check reports it.
pub fn quadruped_model_check(c: &Character) -> ModelReport {
    let Ok((m, what)) = body_mesh(c, &LandmarkOptions::default()) else {
        return crate::fit::model_check(c);
    };
    if m.positions.is_empty() {
        return crate::fit::model_check(c);
    }
    let cls = classify(&m);
    let (lo, hi) = bounds(&m.positions);
    let ext = hi - lo;
    let h = ext.y;
    let mut r = ModelReport {
        body: what,
        height: h,
        floor: lo.y,
        center_x: 0.5 * (lo.x + hi.x),
        standing: h / ext.x.max(ext.z).max(1e-12),
        plan: Some(QUADRUPED_PLAN.into()),
        ..Default::default()
    };
    let (flip, front, back) = head_end(&m, &cls);
    // A front stated on reading (`--facing`) is taken as it is.
    let flip = flip && !c.facing_stated;
    r.facing_stated = c.facing_stated;
    r.facing = if flip { "-Z" } else { "+Z" }.into();
    r.facing_deg = if flip { 180.0 } else { 0.0 };
    if flip {
        r.problems.push(Problem {
            id: "model.facing".into(),
            message: format!(
                "the head faces -Z: the highest point beyond the back legs ({back:.3}) is above \
                 the one beyond the front legs ({front:.3})"
            ),
            fixable: true,
        });
    }
    // The feet's middle along Z, as the fix centres it.
    r.mid_foot_z = crate::fit::model_check::mid_foot_z(&m.positions, lo.y, h);
    r.problems.extend(floor_and_centre(lo.y, r.center_x, h));
    (r.symmetry_general, r.symmetry_vertex) = symmetry(&m.positions, r.center_x, h);
    r.problems.extend(parts_apart(c, lo, hi, h));
    r.problems.sort_by(|a, b| a.id.cmp(&b.id));
    r
}
