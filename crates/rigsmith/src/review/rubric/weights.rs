//! Sections B and C: the root test, the binding stage's weight report (the one
//! definition of every weight check, [`crate::bind::report`]), rigid parts and
//! garments weighted like the body under them.

use super::chains::chain_share;
use super::{Ctx, Out};
use crate::model::PartClass;
use crate::report::{Check, Severity};
use crate::review::{structure, weights};

/// `structure.root_follows`: the rig moves as one when its root moves.
pub(super) fn structure(cx: &Ctx<'_>, out: &mut Out) {
    let s = cx.s;
    let root_err = structure::root_follow_error(cx.c, cx.h);
    let roots = s.roots();
    out.checks.push(
        Check::new("structure.root_follows", "B", Severity::Blocker)
            .title("Root follows everything")
            .measure("largest vertex error when the root moves, H")
            .at_most(root_err as f64, 1e-4)
            .detail(format!(
                "{} root bone(s): {}",
                roots.len(),
                roots
                    .iter()
                    .map(|&r| s.bones[r].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
    );
}

/// The weight report's checks (with the export influence limit asked) and rigid
/// parts.
pub(super) fn section(cx: &Ctx<'_>, out: &mut Out) {
    let report = crate::bind::weight_report(cx.c);
    if report.mirror_err.is_none() {
        out.not_verified.push(
            "weight symmetry: no vertex of the body has a mirror vertex (an asymmetric mesh)"
                .into(),
        );
    }
    out.checks.extend(report.checks_with(cx.o.max_influences));
    out.weights = report;
    let mut rigid_seen = false;
    for (p, class) in cx.c.parts.iter().zip(cx.classes) {
        if *class != PartClass::Rigid {
            continue;
        }
        let Some(w) = &p.weights else { continue };
        rigid_seen = true;
        out.checks.push(
            Check::new(format!("weights.rigid.{}", p.name), "C", Severity::Major)
                .title(format!("Rigid part {:?} follows one bone", p.name))
                .measure("largest (1 - top weight) + extra top bones")
                .at_most(weights::rigid_error(&p.mesh, w) as f64, 1e-4)
                .detail("each piece of a rigid part must be weighted 1.0 to exactly one bone"),
        );
    }
    if !rigid_seen {
        out.not_verified
            .push("rigid parts: no skinned part named like eyes, teeth or tongue".into());
    }
}

/// `weights.garment.<part>` on every skinned garment not driven by chains; returns
/// those garments and the bodices of the loose ones driven by chains ([`bodices`]):
/// the poses measure their penetration.
pub(super) fn garments(cx: &Ctx<'_>, chain_bone: &[bool], out: &mut Out) -> Vec<Worn> {
    let c = cx.c;
    let mut chain_driven = Vec::new();
    let garments: Vec<usize> = (1..c.parts.len())
        .filter(|&i| c.parts[i].weights.is_some() && cx.classes[i] == PartClass::Garment)
        .filter(|&i| {
            let share = chain_share(c.parts[i].weights.as_ref().expect("filtered"), chain_bone);
            if share > 0.5 {
                chain_driven.push(format!(
                    "{:?} ({:.0}% of its weight on chain bones)",
                    c.parts[i].name,
                    100.0 * share
                ));
            }
            share <= 0.5
        })
        .collect();
    if !chain_driven.is_empty() {
        out.not_verified.push(format!(
            "garment weight transfer and penetration in test poses: {} driven by chains, judged by the chain rules (parts.*) and by `rigsmith simulate`",
            chain_driven.join(", ")
        ));
    }
    let bodices = bodices(cx, chain_bone);
    if garments.is_empty() && chain_driven.is_empty() {
        out.not_verified
            .push("garments: no skinned garment part".into());
    }
    let worn: Vec<Worn> = garments
        .iter()
        .map(|&part| Worn { part, waist: None })
        .chain(bodices)
        .collect();
    if garments.is_empty() {
        return worn;
    }
    let grid = weights::Grid::new(&cx.body.mesh.positions, 0.02 * cx.h);
    for &g in &garments {
        let gp = &c.parts[g];
        let share = weights::garment_mismatch(
            &gp.mesh.positions,
            gp.weights.as_ref().expect("skinned garment"),
            &grid,
            cx.bw,
            cx.s.len(),
        );
        out.checks.push(
            Check::new(format!("weights.garment.{}", gp.name), "C", Severity::Major)
                .title(format!("Garment {:?} weighted like the body", gp.name))
                .measure("% of garment vertices weighted unlike the nearest body vertex")
                .at_most(share as f64, 5.0)
                .detail("a garment should take its weights from the body under it"),
        );
    }
    worn
}

/// The bodices of the loose garments driven by chains (a dress, a long coat): their
/// vertices above the waist ([`crate::parts::SKIRT_WAIST`] above the hip line) within
/// [`BODICE_NEAR`] of the skin at rest. The cloth there lies on the trunk and must
/// follow it (the chains swing only what hangs below the waist), so the test poses
/// count it for penetration as a garment's.
fn bodices(cx: &Ctx<'_>, chain_bone: &[bool]) -> Vec<Worn> {
    let c = cx.c;
    let waist = crate::parts::hip_height(c) + crate::parts::SKIRT_WAIST * cx.h;
    (1..c.parts.len())
        .filter(|&i| cx.classes[i] == PartClass::Garment)
        .filter(|&i| {
            c.parts[i]
                .weights
                .as_ref()
                .is_some_and(|w| chain_share(w, chain_bone) > 0.5)
        })
        .filter(|&i| crate::parts::is_loose_garment(c, &c.parts[i]))
        .map(|part| Worn {
            part,
            waist: Some(waist),
        })
        .collect()
}

/// How near the skin (H) a loose garment's vertex above the waist lies to count as its
/// bodice ([`bodices`]).
pub const BODICE_NEAR: f32 = 0.03;

/// A garment the test poses check for penetration: `part`, all its vertices or, for a
/// loose garment's bodice ([`bodices`]), those above `waist` (y) within
/// [`BODICE_NEAR`] of the skin at rest.
#[derive(Debug, Clone)]
pub(super) struct Worn {
    pub part: usize,
    pub waist: Option<f32>,
}

impl Worn {
    /// Which vertices of the garment the poses count, given the rest body `bvh` and
    /// the height `h` (all of a garment's; a bodice's above the waist near the skin).
    pub(super) fn counted(
        &self,
        c: &crate::Character,
        bvh: &crate::geom::bvh::Bvh,
        h: f32,
    ) -> Vec<bool> {
        let pos = &c.parts[self.part].mesh.positions;
        match self.waist {
            None => vec![true; pos.len()],
            Some(waist) => pos
                .iter()
                .map(|&q| {
                    q.y > waist
                        && bvh
                            .closest(q)
                            .is_some_and(|x| x.dist2.sqrt() <= BODICE_NEAR * h)
                })
                .collect(),
        }
    }
}
