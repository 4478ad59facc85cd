//! The mechanical character's stages of [`crate::rig`] (with
//! [`crate::RigOptions::mech`]): binding on its own skeleton and the review's rigid
//! check.

use super::MechSpec;
use crate::bind::PartRole;
use crate::error::{Error, Result};
use crate::model::Character;
use crate::parts::Sidecar;
use crate::pipeline::{Bound, Stages};
use crate::report::Counts;
use crate::review::CheckReport;

/// The weights stage of a mechanical character: every island on one bone at 1.0
/// ([`MechSpec::bind`]) of the character's own skeleton; no fit.
pub(crate) fn bind_mech(
    c: &mut Character,
    spec: &MechSpec,
    st: &mut Stages<'_, '_>,
) -> Result<Bound> {
    st.start("weights");
    let s = c
        .skeleton
        .clone()
        .ok_or_else(|| Error::invalid("mech", "the character has no skeleton"))?;
    spec.check(c, &s)?;
    let weights = spec.bind(c, &s);
    for (p, w) in c.parts.iter_mut().zip(weights) {
        p.weights = Some(w);
    }
    let n = super::islands(c).len();
    st.done();
    Ok(Bound {
        placement: Vec::new(),
        humanoid: Default::default(),
        route: None,
        reasons: vec![format!(
            "mechanical: each of {n} islands on one bone at 1.0 ({} on bones of their own, \
             the others on the nearest deform bone)",
            spec.own.len()
        )],
        report: None,
        roles: vec![Some(PartRole::Rigid(None)); c.parts.len()],
        landmarks: None,
        plan: Some(format!(
            "body plan mechanical: {n} rigid islands on the character's own skeleton, {} keyed actions",
            spec.actions.len()
        )),
    })
}

/// The review of a mechanical character: `mech.rigid` over the test poses
/// ([`super::test_poses`]) into the review (when run), the islands that interpenetrate
/// at rest into the notes (never a failure), and the spec into the sidecar.
pub(crate) fn review_mech(
    c: &Character,
    spec: &MechSpec,
    review: Option<&mut CheckReport>,
    notes: &mut Vec<String>,
    sidecar: &mut Sidecar,
) {
    sidecar.mech = Some(spec.clone());
    let Some(s) = c.skeleton.as_ref() else {
        return;
    };
    let (check, _, overlaps) = super::review(c, s, spec);
    notes.extend(overlaps);
    if let Some(r) = review {
        r.checks.push(check);
        r.counts = Counts::of(&r.checks);
    }
}
