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
    out.checks.extend(crate::fit::model_check(cx.c).checks());
    let solid = Solid::new(&cx.body.mesh);
    for mut k in placement_checks_with(cx.c, &body_bones, Some(&solid)) {
        if k.id == "place.inside" && n_chain > 0 {
            k.detail.push_str(&format!(
                "; {n_chain} chain bones (hair, skirt...) are judged by the chain rules"
            ));
        }
        out.checks.push(k);
    }
}
