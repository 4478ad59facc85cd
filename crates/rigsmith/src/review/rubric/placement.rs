//! Section A: the model check ([`crate::fit::model_check`]) and placement, measured by
//! the fitting stage's checks
//! ([`crate::fit::placement`], the one definition of every `place.*` id) on the rig's
//! skeleton, with the body solid built once here.

use super::{Ctx, Out};
use crate::fit::placement::{placement_checks_with, Solid};

/// Runs the placement checks. Chain bones (hair, skirt... `chain_bone[i]`) hang
/// outside the body by design: `place.inside` leaves them out and says how many; the
/// chain rules judge them.
pub(super) fn section(cx: &Ctx<'_>, chain_bone: &[bool], out: &mut Out) {
    let n_chain = chain_bone.iter().filter(|&&b| b).count();
    let mut body_bones = cx.s.clone();
    for (bone, &ch) in body_bones.bones.iter_mut().zip(chain_bone) {
        bone.deform &= !ch;
    }
    let solid = Solid::new(&cx.body.mesh);
    // A four-legged skeleton is judged by the quadruped rules (the model check and the
    // biped rules assume a body standing on two legs).
    let quadruped = crate::pose::quadruped::QuadRoles::of(cx.s).is_some();
    let checks = if quadruped {
        crate::fit::quadruped::quadruped_checks_with(&body_bones, &cx.body.mesh, Some(&solid))
    } else {
        out.checks.extend(crate::fit::model_check(cx.c).checks());
        placement_checks_with(cx.c, &body_bones, Some(&solid))
    };
    for mut k in checks {
        if (k.id == "place.inside" || k.id == "quad.inside") && n_chain > 0 {
            k.detail.push_str(&format!(
                "; {n_chain} chain bones (hair, skirt...) are judged by the chain rules"
            ));
        }
        out.checks.push(k);
    }
}
