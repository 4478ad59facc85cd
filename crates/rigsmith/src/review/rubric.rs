//! The rubric check: every measurement of this module gathered into one report of
//! [`Check`]s (sections A to E) plus section F: the route taken and what was not
//! verified. See `docs/check.md` for every id, measure and threshold.

use std::collections::HashSet;

use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::{
    intersect, leak, penetration, placement, strain, structure, volume, weights, CheckOptions,
    CheckReport, FlaggedJoint, Skinning,
};
use crate::error::{Error, Result};
use crate::geom::bvh::Bvh;
use crate::humanoid::{Role, Roles};
use crate::model::naming::Side;
use crate::model::{Character, PartClass};
use crate::pose::library::library_for;
use crate::pose::{posed_matrices, skin_dqs, skin_lbs, NamedPose};
use crate::report::{Check, Counts, Severity};

/// The character as the review sees it: its skin pieces ([`crate::model::Body`])
/// welded into one part, first, carrying the weights of the skin vertices (a welded
/// vertex takes those of its first copy), then every other part; with the class of
/// every part of the view. A one-part character is its own view.
pub fn skin_view(c: &Character) -> Result<(Character, Vec<PartClass>)> {
    if c.parts.len() == 1 {
        return Ok((c.clone(), vec![PartClass::Skin]));
    }
    let b = c.body()?;
    let weights = b.union_weights(c);
    let name = if b.skin.len() == 1 {
        c.parts[b.skin[0]].name.clone()
    } else {
        "skin".to_string()
    };
    let mut parts = vec![crate::model::Part {
        name,
        material: None,
        mesh: b.mesh.clone(),
        weights,
        morphs: Vec::new(),
    }];
    let mut classes = vec![PartClass::Skin];
    for (i, p) in c.parts.iter().enumerate() {
        if !b.is_skin(i) {
            parts.push(p.clone());
            classes.push(b.roles[i].class);
        }
    }
    // The view keeps the character's overrides, with its welded skin told as skin,
    // so that a stage asking the view for its body finds the same roles.
    let body_options = crate::model::BodyOptions {
        body: vec![parts[0].name.clone()],
        ..c.body_options.clone()
    };
    Ok((
        Character {
            parts,
            skeleton: c.skeleton.clone(),
            vrm: c.vrm.clone(),
            warnings: c.warnings.clone(),
            body_options,
            ..Default::default()
        },
        classes,
    ))
}

/// Posed positions of every part (rest positions for unskinned parts).
pub fn pose_parts(c: &Character, m: &[Mat4], skinning: Skinning) -> Vec<Vec<Vec3>> {
    c.parts
        .iter()
        .map(|p| match &p.weights {
            Some(w) => match skinning {
                Skinning::Lbs => skin_lbs(&p.mesh.positions, w, m),
                Skinning::Dqs => skin_dqs(&p.mesh.positions, w, m),
            },
            None => p.mesh.positions.clone(),
        })
        .collect()
}

struct PoseNumbers {
    strain: strain::Strain,
    bands: Vec<(String, Option<volume::Band>, Vec3, f32)>,
    leak: (f32, Option<usize>),
    new_pairs: usize,
    penetration: Vec<(usize, f32)>,
}

/// Runs the rubric on a skinned character.
///
/// Errors: the character is structurally invalid, has no skeleton, no skinned part, or
/// no extent.
pub fn check(c: &Character, o: &CheckOptions) -> Result<CheckReport> {
    c.validate()?;
    let parts = part_lines(c);
    let (view, classes) = skin_view(c)?;
    let c = &view;
    let s = c.skeleton.as_ref().ok_or_else(|| {
        Error::stage(
            "check",
            "the character has no skeleton: nothing to check (rig it first)",
        )
    })?;
    if c.parts[0].weights.is_none() {
        return Err(Error::stage(
            "check",
            "the skin carries no weights: nothing to check",
        ));
    }
    let bi = 0;
    let (lo, hi) = c.bounds();
    let h = hi.y - lo.y;
    if h.is_nan() || h <= 0.0 {
        return Err(Error::stage("check", "the character has no height"));
    }
    let rig = Roles::of_character(c).unwrap_or_default();
    let body = &c.parts[bi];
    let bw = body.weights.as_ref().expect("body part is skinned");
    let mid_x = rig
        .get(Role::Pelvis)
        .map_or(0.5 * (lo.x + hi.x), |p| s.bones[p].head.x);
    let mut checks: Vec<Check> = Vec::new();
    let mut not_verified: Vec<String> = Vec::new();
    let f = |x: f32| x as f64;

    // ---- A. placement
    let body_bvh = Bvh::build(&body.mesh.positions, &body.mesh.triangles);
    let (outside, tested) = placement::joints_outside(&body_bvh, s, &rig);
    checks.push(Check::at_most(
        "place.joints_inside",
        "A",
        "Joints inside the body",
        "joint heads outside the body mesh",
        outside.len() as f64,
        0.0,
        Severity::Major,
        if outside.is_empty() {
            format!(
                "{tested} joint heads tested, all inside the body part {:?}",
                body.name
            )
        } else {
            format!("outside: {}", outside.join(", "))
        },
    ));
    for side in [Side::Left, Side::Right] {
        let l = side.letter();
        for (knee, what) in [(true, "knee"), (false, "elbow")] {
            if let Some(deg) = placement::pre_bend(s, &rig, knee, side) {
                let dir = if knee { "forward" } else { "back" };
                checks.push(Check::at_least(
                    format!("place.{what}_bend.{l}"),
                    "A",
                    format!("{what} not bent the wrong way ({l})"),
                    format!("signed bend, deg (+ = {dir})"),
                    f(deg),
                    -0.5,
                    Severity::Blocker,
                    format!("{what} bends {deg:.1} deg; an IK solver bends the limb the way it is pre-bent"),
                ));
                checks.push(Check::at_least(
                    format!("place.{what}_prebend.{l}"),
                    "A",
                    format!("{what} pre-bend ({l})"),
                    format!("signed bend, deg (+ = {dir})"),
                    f(deg),
                    1.0,
                    Severity::Minor,
                    format!("{deg:.1} deg; 1 to 15 deg {dir} gives IK a direction"),
                ));
            }
            if let Some((i, dot)) = placement::hinge_roll(s, &rig, knee, side) {
                let bone = if knee { "calf" } else { "forearm" };
                checks.push(Check::at_least(
                    format!("place.hinge_roll.{bone}.{l}"),
                    "A",
                    format!("{bone} hinge on local X ({l})"),
                    "|x_axis . ideal hinge axis|",
                    f(dot),
                    0.98,
                    Severity::Major,
                    format!(
                        "bone {:?}: {:.3}; a rolled hinge bends sideways",
                        s.bones[i].name, dot
                    ),
                ));
            }
        }
    }

    // ---- B. structure
    let root_err = structure::root_follow_error(c, h);
    let roots = s.roots();
    checks.push(Check::at_most(
        "structure.root_follows",
        "B",
        "Root follows everything",
        "largest vertex error when the root moves, H",
        f(root_err),
        1e-4,
        Severity::Blocker,
        format!(
            "{} root bone(s): {}",
            roots.len(),
            roots
                .iter()
                .map(|&r| s.bones[r].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ));
    let (nd, nd_bones) = weights::non_deform(c, s);
    checks.push(Check::at_most(
        "structure.deform_hygiene",
        "B",
        "Only deform bones carry weights",
        "vertices weighted to non-deform bones",
        nd as f64,
        0.0,
        Severity::Major,
        if nd_bones.is_empty() {
            "none".to_string()
        } else {
            nd_bones.join(", ")
        },
    ));

    // ---- C. weights
    let (unw, unw_detail) = weights::unweighted(c);
    checks.push(Check::at_most(
        "weights.unweighted",
        "C",
        "Every vertex weighted",
        "vertices with no weight",
        unw as f64,
        0.0,
        Severity::Blocker,
        if unw == 0 { "none".into() } else { unw_detail },
    ));
    let mass = weights::bone_mass(c, s.len());
    let mut empty = Vec::new();
    for side in [Side::Left, Side::Right] {
        for r in [
            Role::UpperArm(side),
            Role::Forearm(side),
            Role::Hand(side),
            Role::Thigh(side),
            Role::Calf(side),
            Role::Foot(side),
        ] {
            if let Some(i) = rig.get(r) {
                if mass[i] <= 0.0 {
                    empty.push(s.bones[i].name.clone());
                }
            }
        }
    }
    for r in [Role::Pelvis, Role::Head] {
        if let Some(i) = rig.get(r) {
            if mass[i] <= 0.0 {
                empty.push(s.bones[i].name.clone());
            }
        }
    }
    checks.push(Check::at_most(
        "weights.empty_major",
        "C",
        "Major bones carry weight",
        "major deform bones with no weight",
        empty.len() as f64,
        0.0,
        Severity::Blocker,
        if empty.is_empty() {
            "none".into()
        } else {
            empty.join(", ")
        },
    ));
    let (norm, n_off) = weights::normalization(c, 1e-3);
    checks.push(Check::at_most(
        "weights.normalization",
        "C",
        "Weights sum to 1",
        "largest |sum - 1|",
        f(norm),
        1e-3,
        Severity::Major,
        format!("{n_off} vertices off by more than 0.001"),
    ));
    let (maxinf, over) = weights::influences(c, o.max_influences);
    checks.push(Check::at_most(
        "weights.max_influences",
        "C",
        "Influences per vertex",
        "largest number of influences on a vertex",
        maxinf as f64,
        o.max_influences as f64,
        Severity::Major,
        format!("{over} vertices over {}", o.max_influences),
    ));
    let mut rigid_seen = false;
    for (p, class) in c.parts.iter().zip(&classes) {
        if *class != PartClass::Rigid {
            continue;
        }
        if let Some(w) = &p.weights {
            rigid_seen = true;
            let e = weights::rigid_error(w);
            checks.push(Check::at_most(
                format!("weights.rigid.{}", p.name),
                "C",
                format!("Rigid part {:?} follows one bone", p.name),
                "largest (1 - top weight) + extra top bones",
                f(e),
                1e-4,
                Severity::Major,
                "a rigid accessory must be weighted 1.0 to exactly one bone",
            ));
        }
    }
    if !rigid_seen {
        not_verified.push("rigid parts: no skinned part named like eyes, teeth or tongue".into());
    }
    let (merr, share) = weights::mirror_error(&body.mesh.positions, bw, s, mid_x, 0.002 * h);
    if share >= 0.8 {
        checks.push(Check::at_most(
            "weights.symmetry",
            "C",
            "Left/right weight symmetry",
            "mean weight distance to the mirror vertex",
            f(merr),
            0.05,
            Severity::Minor,
            format!(
                "{:.0}% of body vertices have a mirror within 0.002 H",
                share * 100.0
            ),
        ));
    } else {
        not_verified.push(format!(
            "weight symmetry: the body is not symmetric ({:.0}% of vertices have a mirror)",
            share * 100.0
        ));
    }
    // Chain bones (hair, skirt, ribbon... found by class in the skeleton, as rigsmith
    // builds them and as the sidecar lists them) hang outside the body by design and
    // drive their garment themselves: they are judged by the chain rules (seed 003,
    // `parts.*` below), not by the body-volume and garment-transfer checks, which keep
    // judging every other bone and garment.
    let chains = crate::parts::chains_from_skeleton(c);
    let chain_bone = chain_bones(s, &chains);
    let n_chain = chain_bone.iter().filter(|&&b| b).count();
    let mut chain_driven = Vec::new();
    let garments: Vec<usize> = (0..c.parts.len())
        .filter(|&i| i != bi && c.parts[i].weights.is_some() && classes[i] == PartClass::Garment)
        .filter(|&i| {
            let share = chain_share(c.parts[i].weights.as_ref().expect("filtered"), &chain_bone);
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
        not_verified.push(format!(
            "garment weight transfer and penetration in test poses: {} driven by chains, judged by the chain rules (parts.*) and by `rigsmith simulate`",
            chain_driven.join(", ")
        ));
    }
    if garments.is_empty() && chain_driven.is_empty() {
        not_verified.push("garments: no skinned garment part".into());
    } else if garments.is_empty() {
    } else {
        let grid = weights::Grid::new(&body.mesh.positions, 0.02 * h);
        for &g in &garments {
            let gp = &c.parts[g];
            let share = weights::garment_mismatch(
                &gp.mesh.positions,
                gp.weights.as_ref().unwrap(),
                &grid,
                bw,
                s.len(),
            );
            checks.push(Check::at_most(
                format!("weights.garment.{}", gp.name),
                "C",
                format!("Garment {:?} weighted like the body", gp.name),
                "% of garment vertices weighted unlike the nearest body vertex",
                f(share),
                5.0,
                Severity::Major,
                "a garment should take its weights from the body under it",
            ));
        }
    }

    // Placement checks of the fitting stage (any skeleton, by name): gathered under
    // their own ids; where an id is also measured above, ours is kept.
    let mine: HashSet<String> = checks.iter().map(|k| k.id.clone()).collect();
    let body_bones = if n_chain > 0 {
        let mut b = s.clone();
        for (bone, &ch) in b.bones.iter_mut().zip(&chain_bone) {
            bone.deform &= !ch;
        }
        b
    } else {
        s.clone()
    };
    for mut k in crate::fit::placement_checks(c, &body_bones) {
        if !mine.contains(&k.id) {
            if k.id == "place.inside" && n_chain > 0 {
                k.detail.push_str(&format!(
                    "; {n_chain} chain bones (hair, skirt...) are judged by the chain rules"
                ));
            }
            checks.push(k);
        }
    }

    // Weight-report checks of the binding stage that this module does not measure
    // itself (same meaning under another id is not repeated).
    let mine: HashSet<String> = checks.iter().map(|k| k.id.clone()).collect();
    for k in crate::bind::weight_report(c).checks() {
        let dup = matches!(
            k.id.as_str(),
            "weights.sum" | "weights.influences" | "weights.non_deform" | "weights.mirror"
        );
        if !dup && !mine.contains(&k.id) {
            checks.push(k);
        }
    }

    // The three rules that keep cloth working, on the cosmetic chains found in the
    // skeleton: cloth parents only to the trunk, is never skinned to a leg, carries no
    // animation tracks (judged on the bones the file's clips key, when they were read),
    // and a body joined with a garment shows as vertices pulled by both legs.
    let mine: HashSet<String> = checks.iter().map(|k| k.id.clone()).collect();
    let animated = o.animated_bones.as_deref().unwrap_or(&[]);
    for k in crate::parts::rule_checks(c, &chains, animated) {
        if !mine.contains(&k.id) {
            checks.push(k);
        }
    }
    if o.animated_bones.is_none() {
        not_verified.push(
            "cloth bones carrying animation tracks: the file's animations were not read, so rule 3 (no tracks on cloth bones) is not verified".to_string(),
        );
    }

    // ---- D. deformation
    let (library, skipped) = match &o.library {
        Some(l) => (l.clone(), Vec::new()),
        None => library_for(s, &rig),
    };
    for sk in &skipped {
        not_verified.push(format!("pose skipped: {sk}"));
    }
    let joints = volume::joints(s, &rig);
    let fleshes: Vec<volume::Flesh> = joints
        .iter()
        .filter_map(|j| volume::flesh(j, &body.mesh.positions))
        .collect();
    let rest_pairs: HashSet<(u32, u32)> = if o.self_intersections {
        intersect::intersecting_pairs(&body.mesh.positions, &body.mesh.triangles, None)
            .into_iter()
            .collect()
    } else {
        not_verified.push("self-intersections: turned off".into());
        HashSet::new()
    };
    let edges: Vec<Vec<(u32, u32)>> = c
        .parts
        .iter()
        .map(|p| {
            if p.weights.is_some() {
                p.mesh.edges()
            } else {
                Vec::new()
            }
        })
        .collect();
    let garment_rest_inside: Vec<Vec<bool>> = garments
        .iter()
        .map(|&g| penetration::inside_flags(&body_bvh, &c.parts[g].mesh.positions))
        .collect();
    let numbers: Vec<PoseNumbers> = library
        .par_iter()
        .map(|np| {
            let m = posed_matrices(s, &np.pose);
            let posed = pose_parts(c, &m, o.skinning);
            // Strain over all skinned parts together.
            let mut all_rest = Vec::new();
            let mut all_posed = Vec::new();
            let mut all_edges = Vec::new();
            for (k, p) in c.parts.iter().enumerate() {
                let off = all_rest.len() as u32;
                all_rest.extend_from_slice(&p.mesh.positions);
                all_posed.extend_from_slice(&posed[k]);
                all_edges.extend(edges[k].iter().map(|&(a, b)| (a + off, b + off)));
            }
            let st = strain::strain(&all_rest, &all_posed, &all_edges);
            let bands = np
                .tests
                .iter()
                .filter_map(|t| {
                    let fl = fleshes.iter().find(|fl| fl.joint.name == t.joint)?;
                    let b = volume::band_ratio(fl, &body.mesh.positions, &posed[bi], &m);
                    let centre = fl.joint.posed(&m)[1];
                    Some((t.joint.clone(), b, centre, fl.radius))
                })
                .collect();
            let lk = leak::cross_side_leak(&all_rest, &all_posed, np.side, mid_x, h, 0.02);
            let new_pairs = if o.self_intersections {
                intersect::new_pairs(
                    &body.mesh.positions,
                    &posed[bi],
                    &body.mesh.triangles,
                    &rest_pairs,
                    1e-4 * h,
                )
            } else {
                0
            };
            let penetration = if garments.is_empty() {
                Vec::new()
            } else {
                let pb = Bvh::build(&posed[bi], &body.mesh.triangles);
                garments
                    .iter()
                    .zip(&garment_rest_inside)
                    .map(|(&g, ri)| (g, penetration::new_inside_pct(&pb, &posed[g], ri)))
                    .collect()
            };
            PoseNumbers {
                strain: st,
                bands,
                leak: lk,
                new_pairs,
                penetration,
            }
        })
        .collect();
    let ntri = body.mesh.triangles.len().max(1) as f32;
    let mut flagged = Vec::new();
    let mut worst_leak: (f32, String) = (0.0, String::new());
    for (np, n) in library.iter().zip(&numbers) {
        let name = &np.name;
        checks.push(Check::at_most(
            format!("deform.{name}.strain"),
            "D",
            format!("Edge strain in {name}"),
            "% of edges outside 0.5..1.6 of rest length",
            f(n.strain.outside_pct),
            strain::STRAIN_FLAG_PCT as f64,
            Severity::Minor,
            format!(
                "p1 {:.3}, p99 {:.3} over {} edges",
                n.strain.p1, n.strain.p99, n.strain.edges
            ),
        ));
        for t in &np.tests {
            let Some((_, band, centre, radius)) = n.bands.iter().find(|b| b.0 == t.joint) else {
                not_verified.push(format!(
                    "{name}: joint {} not measurable (bones or flesh missing)",
                    t.joint
                ));
                continue;
            };
            let Some(band) = band else {
                not_verified.push(format!(
                    "{name}: joint {} has too few vertices per band",
                    t.joint
                ));
                continue;
            };
            let detail = format!(
                "{}: worst band {:.2}, best band {:.2} over {} bands",
                t.joint, band.worst, band.best, band.bands
            );
            if let Some(min) = t.band_min {
                let ck = Check::at_least(
                    format!("deform.{name}.band"),
                    "D",
                    format!("Joint volume in {name}"),
                    "worst band: mean sq. distance to the limb axis, posed / rest",
                    f(band.worst),
                    min as f64,
                    Severity::Major,
                    detail.clone(),
                );
                if !ck.passed {
                    flagged.push(FlaggedJoint {
                        pose: name.clone(),
                        joint: t.joint.clone(),
                        centre: *centre,
                        radius: *radius,
                    });
                }
                checks.push(ck);
            }
            if let Some(max) = t.bulge_max {
                let ck = Check::at_most(
                    format!("deform.{name}.bulge"),
                    "D",
                    format!("Joint bulge in {name}"),
                    "best band: mean sq. distance to the limb axis, posed / rest",
                    f(band.best),
                    max as f64,
                    Severity::Major,
                    detail,
                );
                if !ck.passed {
                    flagged.push(FlaggedJoint {
                        pose: name.clone(),
                        joint: t.joint.clone(),
                        centre: *centre,
                        radius: *radius,
                    });
                }
                checks.push(ck);
            }
        }
        if np.side != Side::Center {
            let (v, _) = n.leak;
            if v > worst_leak.0 || worst_leak.1.is_empty() {
                worst_leak = (v, name.clone());
            }
            checks.push(Check::at_most(
                format!("deform.{name}.leak"),
                "D",
                format!("Cross-side leak in {name}"),
                "largest displacement on the other side, H",
                f(v),
                leak::LEAK_MAX_H as f64,
                Severity::Major,
                "vertices beyond 0.02 H on the side the pose does not move",
            ));
        }
        if o.self_intersections {
            let head = name.starts_with("head_");
            checks.push(Check::at_most(
                format!("deform.{name}.self_intersections"),
                "D",
                format!("New self-intersections in {name}"),
                "new intersecting triangle pairs per 1000 body triangles",
                f(1000.0 * n.new_pairs as f32 / ntri),
                1.0,
                if head {
                    Severity::Major
                } else {
                    Severity::Minor
                },
                format!(
                    "{} new pairs against rest ({} at rest)",
                    n.new_pairs,
                    rest_pairs.len()
                ),
            ));
        }
        for (g, pct) in &n.penetration {
            checks.push(Check::at_most(
                format!("deform.{name}.penetration.{}", c.parts[*g].name),
                "D",
                format!("Garment {:?} inside the body in {name}", c.parts[*g].name),
                "% of garment vertices newly inside the body",
                f(*pct),
                penetration::PENETRATION_MAX_PCT as f64,
                Severity::Major,
                "garment vertices inside the posed body that were outside at rest",
            ));
        }
    }
    if library.iter().any(|p| p.side != Side::Center) {
        checks.push(Check::at_most(
            "weights.cross_side_leak",
            "C",
            "Cross-side leak",
            "largest displacement on the other side over one-sided poses, H",
            f(worst_leak.0),
            leak::LEAK_MAX_H as f64,
            Severity::Major,
            format!("worst pose: {}", worst_leak.1),
        ));
    } else {
        not_verified.push("cross-side leak: no one-sided pose could be built".into());
    }

    // ---- E. correctives and face
    let morphs: usize = c.parts.iter().map(|p| p.morphs.len()).sum();
    if morphs == 0 {
        not_verified.push("E correctives and face: the file has no morph targets".into());
    } else {
        let dead: Vec<String> = c
            .parts
            .iter()
            .flat_map(|p| p.morphs.iter().map(move |m| (p, m)))
            .filter(|(_, m)| m.position_deltas.iter().all(|d| d.length() <= 1e-6 * h))
            .map(|(p, m)| format!("{}/{}", p.name, m.name))
            .collect();
        checks.push(Check::at_most(
            "face.morphs_move",
            "E",
            "Every morph target moves something",
            "morph targets with no displacement",
            dead.len() as f64,
            0.0,
            Severity::Minor,
            if dead.is_empty() {
                format!("{morphs} morph targets")
            } else {
                dead.join(", ")
            },
        ));
        not_verified.push(format!(
            "E correctives and face: {morphs} morph targets found; their drivers, ranges, L/R split and combinations are not verified (a glTF carries no drivers)"
        ));
    }
    not_verified.push(
        "B IK, FK/IK switching, drivers and controls: a skinned file carries deform bones only"
            .into(),
    );
    not_verified.push(
        "poses outside the default library; fingers are checked only through the fist pose sheet"
            .into(),
    );
    for u in &rig.unknown {
        not_verified.push(format!("role not found: {u}"));
    }

    let route = format!(
        "{} skinning of {} parts ({} vertices, body part {:?}) on {} bones; {} of {} roles found; {} test poses measured (strain, joint bands, cross-side leak, {}garment penetration) against rest; body height H = {:.3} m",
        match o.skinning { Skinning::Lbs => "linear blend (LBS, as game engines do)", Skinning::Dqs => "dual-quaternion (DQS)" },
        c.parts.len(),
        c.vertex_count(),
        body.name,
        s.len(),
        rig.found(),
        Role::all().len(),
        library.len(),
        if o.self_intersections { "new self-intersections by BVH, " } else { "" },
        h
    );
    let counts = Counts::of(&checks);
    Ok(CheckReport {
        checks,
        counts,
        not_verified,
        route,
        poses: library,
        flagged_joints: flagged,
        parts,
    })
}

/// Every part's role in the character and why ([`crate::model::Body`]).
pub fn part_lines(c: &Character) -> Vec<super::PartLine> {
    let Ok(b) = c.body() else {
        return Vec::new();
    };
    c.parts
        .iter()
        .zip(&b.roles)
        .map(|(p, r)| super::PartLine {
            part: p.name.clone(),
            class: r.class.name().to_string(),
            reason: match &r.bone {
                Some(bone) => format!("{} (bone {bone})", r.reason),
                None => r.reason.clone(),
            },
        })
        .collect()
}

/// Per bone of `s`: whether it belongs to one of the spring `chains` (hair, skirt,
/// ribbon...; face and eye bones are not chain bones here).
pub fn chain_bones(s: &crate::model::Skeleton, chains: &[crate::parts::Chain]) -> Vec<bool> {
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
fn chain_share(w: &crate::model::Weights, chain_bone: &[bool]) -> f32 {
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

/// Posed positions (per part) and posed bones `(head, tail)` of `c` in pose `p`,
/// ready for a pose sheet.
pub fn posed_character(
    c: &Character,
    p: &NamedPose,
    skinning: Skinning,
) -> (Vec<Vec<Vec3>>, Vec<(Vec3, Vec3)>) {
    let Some(s) = &c.skeleton else {
        return (
            c.parts.iter().map(|p| p.mesh.positions.clone()).collect(),
            Vec::new(),
        );
    };
    let m = posed_matrices(s, &p.pose);
    (
        pose_parts(c, &m, skinning),
        crate::pose::fk::posed_bones(s, &m),
    )
}
