//! The chain bones of a skeleton and the three rules that keep cloth working, from the
//! parts stage ([`crate::parts::rule_checks`]).

use super::{Ctx, Out};
use crate::model::{Skeleton, Weights};

/// Per bone of `s`: whether it belongs to one of the spring `chains` (hair, skirt,
/// ribbon...; face and eye bones are not chain bones here).
pub fn chain_bones(s: &Skeleton, chains: &[crate::parts::Chain]) -> Vec<bool> {
    let mut out = vec![false; s.len()];
    for ch in chains.iter().filter(|c| c.springs()) {
        for b in &ch.bones {
            if let Some(i) = s.find(b) {
                out[i] = true;
            }
        }
    }
    out
}

/// The share of a part's weight (summed over its vertices) carried by chain bones.
pub(super) fn chain_share(w: &Weights, chain_bone: &[bool]) -> f32 {
    let (mut on, mut all) = (0.0f32, 0.0f32);
    for inf in w.vertices.iter().flatten() {
        all += inf.weight;
        if chain_bone.get(inf.bone as usize).copied().unwrap_or(false) {
            on += inf.weight;
        }
    }
    if all > 0.0 {
        on / all
    } else {
        0.0
    }
}

/// The cloth rules on the cosmetic chains found in the skeleton: cloth parents only to
/// the trunk, is never skinned to a leg, carries no animation tracks (judged on the
/// bones the file's clips key, when they were read), and a body joined with a garment
/// shows as vertices pulled by both legs.
pub(super) fn rules(cx: &Ctx<'_>, chains: &[crate::parts::Chain], out: &mut Out) {
    let animated = cx.o.animated_bones.as_deref().unwrap_or(&[]);
    out.checks
        .extend(crate::parts::rule_checks(cx.c, chains, animated));
    if cx.o.animated_bones.is_none() {
        out.not_verified.push(
            "cloth bones carrying animation tracks: the file's animations were not read, so rule 3 (no tracks on cloth bones) is not verified".to_string(),
        );
    }
}
