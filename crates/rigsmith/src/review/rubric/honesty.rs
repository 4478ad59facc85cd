//! Sections E and F: morph targets, the route taken and what was not verified.

use super::{Ctx, Out};
use crate::humanoid::Role;
use crate::model::{Character, Part};
use crate::report::{Check, Severity};
use crate::review::Skinning;

/// `face.morphs_move`: every morph target moves something; a glTF carries no drivers,
/// so ramps, splits and combinations are listed as not verified.
pub(super) fn morphs(cx: &Ctx<'_>, out: &mut Out) {
    let c = cx.c;
    let morphs: usize = c.parts.iter().map(|p| p.morphs.len()).sum();
    if morphs == 0 {
        out.not_verified
            .push("E correctives and face: the file has no morph targets".into());
        return;
    }
    let dead: Vec<String> = c
        .parts
        .iter()
        .flat_map(|p| p.morphs.iter().map(move |m| (p, m)))
        .filter(|(_, m)| m.position_deltas.iter().all(|d| d.length() <= 1e-6 * cx.h))
        .map(|(p, m)| format!("{}/{}", p.name, m.name))
        .collect();
    out.checks.push(
        Check::new("face.morphs_move", "E", Severity::Minor)
            .title("Every morph target moves something")
            .measure("morph targets with no displacement")
            .at_most(dead.len() as f64, 0.0)
            .detail(if dead.is_empty() {
                format!("{morphs} morph targets")
            } else {
                dead.join(", ")
            }),
    );
    out.not_verified.push(format!(
        "E correctives and face: {morphs} morph targets found; their drivers, ranges, L/R split and combinations are not verified (a glTF carries no drivers)"
    ));
}

/// Section F: what a skinned file cannot show, the roles not found, and the route in
/// plain words.
pub(super) fn route(
    cx: &Ctx<'_>,
    parts: &[crate::review::PartLine],
    poses: usize,
    out: &mut Out,
) -> String {
    out.not_verified.push(
        "B IK, FK/IK switching, drivers and controls: a skinned file carries deform bones only"
            .into(),
    );
    out.not_verified.push(
        "poses outside the default library; fingers are checked only through the fist pose sheet"
            .into(),
    );
    for u in &cx.rig.unknown {
        out.not_verified.push(format!("role not found: {u}"));
    }
    let c = cx.c;
    let rules = if cx.o.twist_rules {
        crate::deform::twist_rules(cx.s, &cx.rig).len()
    } else {
        0
    };
    format!(
        "runtime model: {}{}{}{}; {} skinning of {} on {} bones; {} of {} roles found; {} test poses measured (strain, joint bands, cross-side leak, {}garment penetration) against rest; body height H = {:.3} m",
        match cx.o.skinning {
            Skinning::Lbs => "plain LBS",
            Skinning::Dqs => "DQS",
        },
        if rules > 0 {
            format!(" + twist rules ({rules} twist bones follow their hand, foot, clavicle or pelvis)")
        } else {
            String::new()
        },
        match (cx.o.dqs_blend, cx.o.dqs_masks.is_empty()) {
            (false, _) => "",
            (true, false) => " + DQS blend (the file's preserve-volume mask)",
            (true, true) => " + DQS blend (the preserve-volume mask measured on the rig)",
        },
        if cx.o.correctives.is_empty() {
            String::new()
        } else {
            format!(" + correctives ({})", cx.o.correctives.len())
        },
        match cx.o.skinning {
            Skinning::Lbs => "linear blend (LBS, as game engines do)",
            Skinning::Dqs => "dual-quaternion (DQS)",
        },
        what_is_skinned(c, cx.body, parts),
        cx.s.len(),
        cx.rig.found(),
        Role::all().len(),
        poses,
        if cx.o.self_intersections { "new self-intersections by BVH, " } else { "" },
        cx.h
    )
}

/// The parts skinned, in the route's words: the file's parts, how many of them are the
/// skin (welded into the view's first part) and the rest (`parts`: the file's part
/// lines, empty for a character given without them).
fn what_is_skinned(view: &Character, skin: &Part, parts: &[crate::review::PartLine]) -> String {
    let skin_v = skin.mesh.positions.len();
    let other_v = view.vertex_count() - skin_v;
    let pieces = parts.iter().filter(|p| p.class == "skin").count().max(1);
    let total = parts.len().max(view.parts.len());
    let others = total - pieces.min(total);
    match (total, others) {
        (1, _) => format!("1 part ({skin_v} vertices)"),
        (_, 0) => format!("{total} parts, all skin, welded into {skin_v} vertices"),
        _ if pieces == 1 => format!(
            "{total} parts: the skin, {} ({skin_v} vertices), and {others} other parts ({other_v} vertices)",
            skin.name
        ),
        _ => format!(
            "{total} parts: {pieces} skin pieces welded into one skin ({skin_v} vertices) and {others} other parts ({other_v} vertices)"
        ),
    }
}
