//! Section D: the pose library, skinned and measured pose by pose (in parallel), then
//! judged: edge strain, joint bands and bulges, cross-side leak, new
//! self-intersections and garment penetration.

use std::collections::HashSet;

use glam::Vec3;
use rayon::prelude::*;

use super::weights::Worn;
use super::{Ctx, Out};
use crate::geom::bvh::Bvh;
use crate::model::naming::Side;
use crate::pose::library::library_for;
use crate::pose::library::JointTest;
use crate::pose::{posed_matrices, NamedPose};
use crate::report::{Check, Severity};
pub(crate) use crate::review::nod_corrective::collar_chin_segment;
use crate::review::nod_corrective::within;
pub use crate::review::nod_corrective::COLLAR_CHIN_RADIUS_H;
use crate::review::{intersect, leak, penetration, strain, volume, FlaggedJoint};

/// One joint test's numbers: joint name, band ratios, posed centre, local radius, bend
/// plane normal.
type JointBand = (String, Option<volume::Band>, Vec3, f32, Option<Vec3>);

/// The numbers of one pose.
struct PoseNumbers {
    strain: strain::Strain,
    /// Skin torn open ([`strain::torn_area`]), % of H².
    torn: f32,
    /// Where the strained edges are (their posed midpoints).
    strained: Vec<Vec3>,
    /// Per joint test, its numbers.
    bands: Vec<JointBand>,
    leak: (f32, Option<usize>),
    /// New self-intersecting triangle pairs of the body.
    new_pairs: usize,
    /// Where they are (posed triangle centroids).
    pair_points: Vec<Vec3>,
    /// New pairs near the collar and the chin (head poses; `None` without neck and
    /// head bones).
    collar_chin: Option<usize>,
    /// Per garment part: % of its vertices newly inside the body, and where they are.
    penetration: Vec<(usize, f32, Vec<Vec3>)>,
    /// The largest displacement of a planted bone's head or tail (H), and the bone.
    planted: Option<(f32, String)>,
}

/// How far (H) a planted bone (the squat's feet) may move: rounding only.
pub const PLANTED_MAX_H: f32 = 1e-4;

/// What every pose is measured against: the rest state.
struct Rest {
    fleshes: Vec<volume::Flesh>,
    pairs: HashSet<(u32, u32)>,
    /// The skin's closed pieces, when it is several that interpenetrate (hidden
    /// junctions are not counted near the collar and the chin).
    pieces: Option<intersect::Pieces>,
    edges: Vec<Vec<(u32, u32)>>,
    garments: Vec<usize>,
    /// Per garment, its vertices inside the body at rest, or not checked (a bodice's
    /// hanging part), which are never counted as newly inside.
    garment_inside: Vec<Vec<bool>>,
    /// Per garment, how many of its vertices are checked.
    garment_checked: Vec<usize>,
    /// The preserve-volume mask of every part, when the review blends DQS in.
    blend: Option<Vec<Vec<f32>>>,
}

/// Measures and judges every pose of the library (the options' own, else the default
/// one built from the bone names); returns the library.
pub(super) fn section(cx: &Ctx<'_>, garments: &[Worn], out: &mut Out) -> Vec<NamedPose> {
    let (library, skipped) = match &cx.o.library {
        Some(l) => (l.clone(), Vec::new()),
        None => crate::pose::quadruped::quadruped_library(cx.s)
            .unwrap_or_else(|| library_for(cx.s, &cx.rig)),
    };
    for sk in &skipped {
        out.not_verified.push(format!("pose skipped: {sk}"));
    }
    let library = if cx.o.twist_rules {
        let rules = crate::deform::twist_rules(cx.s, &cx.rig);
        crate::deform::twist::library_with_rules(cx.s, &rules, library)
    } else {
        library
    };
    let mut rest = rest_state(cx, garments, out);
    if cx.o.dqs_blend {
        rest.blend = Some(blend_masks(cx, &library));
        out.masks = rest.blend.clone();
    }
    let numbers: Vec<PoseNumbers> = library
        .par_iter()
        .map(|np| measure(cx, &rest, np))
        .collect();
    let mut worst_leak: (f32, String) = (0.0, String::new());
    for (np, n) in library.iter().zip(&numbers) {
        judge(cx, &rest, np, n, out);
        if np.side != Side::Center && (n.leak.0 > worst_leak.0 || worst_leak.1.is_empty()) {
            worst_leak = (n.leak.0, np.name.clone());
        }
    }
    if library.iter().any(|p| p.side != Side::Center) {
        out.checks.push(
            Check::new("weights.cross_side_leak", "C", Severity::Major)
                .title("Cross-side leak")
                .measure("largest displacement on the other side over one-sided poses, H")
                .at_most(worst_leak.0 as f64, leak::LEAK_MAX_H as f64)
                .detail(format!("worst pose: {}", worst_leak.1)),
        );
    } else {
        out.not_verified
            .push("cross-side leak: no one-sided pose could be built".into());
    }
    library
}

/// The preserve-volume mask of every part: the file's (the options' `dqs_masks`, by
/// part name; a part it lacks blends nothing) or, without one, measured on the rig.
fn blend_masks(cx: &Ctx<'_>, library: &[NamedPose]) -> Vec<Vec<f32>> {
    use crate::deform::dqs_mask::{dense, dqs_mask, mask_poses};
    if !cx.o.dqs_masks.is_empty() {
        return cx
            .c
            .parts
            .iter()
            .map(|p| {
                let n = p.mesh.positions.len();
                cx.o.dqs_masks
                    .get(&p.name)
                    .map_or_else(|| vec![0.0; n], |sp| dense(sp, n))
            })
            .collect();
    }
    let poses = mask_poses(library);
    cx.c.parts
        .iter()
        .map(|p| match &p.weights {
            Some(w) => dqs_mask(&p.mesh, w, cx.s, &poses, cx.h),
            None => Vec::new(),
        })
        .collect()
}

fn rest_state(cx: &Ctx<'_>, garments: &[Worn], out: &mut Out) -> Rest {
    let body = cx.body;
    let joints = volume::joints(cx.s, &cx.rig);
    let fleshes = joints
        .iter()
        .filter_map(|j| {
            volume::flesh(j, &body.mesh.positions).and_then(|f| volume::carried(f, cx.s, cx.bw))
        })
        .collect();
    let pairs = if cx.o.self_intersections {
        intersect::intersecting_pairs(&body.mesh.positions, &body.mesh.triangles, None)
            .into_iter()
            .collect()
    } else {
        out.not_verified
            .push("self-intersections: turned off".into());
        HashSet::new()
    };
    let edges =
        cx.c.parts
            .iter()
            .map(|p| {
                if p.weights.is_some() {
                    p.mesh.edges()
                } else {
                    Vec::new()
                }
            })
            .collect();
    let body_bvh = Bvh::build(&body.mesh.positions, &body.mesh.triangles);
    // Per garment counted: its part, its vertices inside the body at rest or not
    // counted (never newly inside), and how many are counted.
    let mut worn: Vec<(usize, Vec<bool>, usize)> = Vec::new();
    for g in garments {
        let counted = g.counted(cx.c, &body_bvh, cx.h);
        let n = counted.iter().filter(|&&k| k).count();
        if n == 0 {
            continue;
        }
        let mut inside = penetration::inside_flags(&body_bvh, &cx.c.parts[g.part].mesh.positions);
        for (f, &k) in inside.iter_mut().zip(&counted) {
            *f |= !k;
        }
        worn.push((g.part, inside, n));
    }
    let garments: Vec<usize> = worn.iter().map(|w| w.0).collect();
    let garment_checked: Vec<usize> = worn.iter().map(|w| w.2).collect();
    let garment_inside: Vec<Vec<bool>> = worn.into_iter().map(|w| w.1).collect();
    let pieces =
        cx.o.self_intersections
            .then(|| intersect::Pieces::of(&body.mesh.positions, &body.mesh.triangles))
            .flatten();
    Rest {
        fleshes,
        pairs,
        pieces,
        edges,
        garments,
        garment_inside,
        garment_checked,
        blend: None,
    }
}

fn measure(cx: &Ctx<'_>, rest: &Rest, np: &NamedPose) -> PoseNumbers {
    let (c, body) = (cx.c, cx.body);
    let m = posed_matrices(cx.s, &np.pose);
    // The runtime: correctives added before skinning, DQS blended in by the mask.
    let posed: Vec<Vec<Vec3>> = c
        .parts
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let morphed =
                crate::deform::correctives::morphed_rest(p, cx.s, &cx.o.correctives, &np.pose);
            let pos = morphed.as_deref().unwrap_or(&p.mesh.positions);
            match (&p.weights, &rest.blend) {
                (Some(w), Some(masks)) => {
                    crate::deform::dqs_mask::skin_blend(pos, w, &m, &masks[k])
                }
                (Some(w), None) => match cx.o.skinning {
                    crate::review::Skinning::Lbs => crate::pose::skin_lbs(pos, w, &m),
                    crate::review::Skinning::Dqs => crate::pose::skin_dqs(pos, w, &m),
                },
                (None, _) => p.mesh.positions.clone(),
            }
        })
        .collect();
    // Strain over all skinned parts together.
    let mut all_rest = Vec::new();
    let mut all_posed = Vec::new();
    let mut all_edges = Vec::new();
    let mut torn = 0.0f32;
    for (k, p) in c.parts.iter().enumerate() {
        let off = all_rest.len() as u32;
        all_rest.extend_from_slice(&p.mesh.positions);
        all_posed.extend_from_slice(&posed[k]);
        all_edges.extend(rest.edges[k].iter().map(|&(a, b)| (a + off, b + off)));
        if !rest.edges[k].is_empty() {
            torn += strain::torn_area(&p.mesh.positions, &posed[k], &p.mesh.triangles, cx.h);
        }
    }
    let bands = np
        .tests
        .iter()
        .filter_map(|t| {
            let fl = rest.fleshes.iter().find(|fl| fl.joint.name == t.joint)?;
            let b = volume::band_ratio(fl, &body.mesh.positions, &posed[0], &m);
            let [a, c, e] = fl.joint.posed(&m);
            let n = (c - a)
                .normalize_or_zero()
                .cross((e - c).normalize_or_zero());
            // Bent by more than about 10 degrees: a plane to look across.
            let across = (n.length() > 0.17).then(|| n.normalize());
            Some((t.joint.clone(), b, c, fl.radius, across))
        })
        .collect();
    // A pair of two interpenetrating skin pieces where one triangle lay inside the other
    // piece at rest, or both crossed into the other's piece, is their hidden junction
    // sliding (the chibi's arm sunk into its torso, its head ball resting on it, a neck
    // through a shirt's top), not a self-intersection anyone sees (`intersect::Pieces`):
    // neither the count nor the collar and the chin take it.
    let pairs: Vec<(u32, u32)> = if cx.o.self_intersections {
        intersect::new_pair_list(
            &body.mesh.positions,
            &posed[0],
            &body.mesh.triangles,
            &rest.pairs,
            1e-4 * cx.h,
        )
        .into_iter()
        .filter(|&(a, b)| !rest.pieces.as_ref().is_some_and(|x| x.hidden(a, b)))
        .collect()
    } else {
        Vec::new()
    };
    let tris = &body.mesh.triangles;
    let centroid = |t: u32| -> Vec3 {
        tris[t as usize]
            .iter()
            .map(|&v| posed[0][v as usize])
            .sum::<Vec3>()
            / 3.0
    };
    let pair_points: Vec<Vec3> = pairs
        .iter()
        .flat_map(|&(a, b)| [centroid(a), centroid(b)])
        .collect();
    let collar_chin = if np.name.starts_with("head_") && cx.o.self_intersections {
        collar_chin_segment(cx.s, &cx.rig, &m).map(|(a, b)| {
            let r = COLLAR_CHIN_RADIUS_H * cx.h;
            pair_points
                .chunks(2)
                .filter(|q| q.iter().any(|&p| within(p, (a, b), r)))
                .count()
        })
    } else {
        None
    };
    let penetration = if rest.garments.is_empty() {
        Vec::new()
    } else {
        let pb = Bvh::build(&posed[0], &body.mesh.triangles);
        rest.garments
            .iter()
            .zip(&rest.garment_inside)
            .zip(&rest.garment_checked)
            .map(|((&g, ri), &checked)| {
                let inside = penetration::new_inside(&pb, &posed[g], ri);
                let pct = 100.0 * inside.len() as f32 / checked.max(1) as f32;
                (g, pct, inside.iter().map(|&v| posed[g][v]).collect())
            })
            .collect()
    };
    let planted = (!np.planted.is_empty()).then(|| {
        let bones = crate::pose::fk::posed_bones(cx.s, &m);
        np.planted
            .iter()
            .filter_map(|n| cx.s.find(n))
            .map(|i| {
                let b = &cx.s.bones[i];
                let d = (bones[i].0 - b.head)
                    .length()
                    .max((bones[i].1 - b.tail).length());
                (d / cx.h, b.name.clone())
            })
            .fold(
                (0.0f32, String::new()),
                |a, b| if b.0 >= a.0 { b } else { a },
            )
    });
    PoseNumbers {
        planted,
        strain: strain::strain(&all_rest, &all_posed, &all_edges),
        torn,
        strained: strain::strained_midpoints(&all_rest, &all_posed, &all_edges),
        bands,
        leak: leak::cross_side_leak(&all_rest, &all_posed, np.side, cx.mid_x, cx.h, 0.02),
        new_pairs: pairs.len(),
        pair_points,
        collar_chin,
        penetration,
    }
}

/// Where a failure sits, for a close-up: the centre of the densest cluster of
/// `points` (cells of 0.1 H) and a radius covering it, between 0.03 and 0.15 H.
fn spot(points: &[Vec3], h: f32) -> Option<(Vec3, f32)> {
    let cell = 0.1 * h;
    let mut cells: std::collections::BTreeMap<(i32, i32, i32), (usize, Vec3)> =
        std::collections::BTreeMap::new();
    for p in points {
        let k = (p / cell).floor();
        let e = cells
            .entry((k.x as i32, k.y as i32, k.z as i32))
            .or_insert((0, Vec3::ZERO));
        e.0 += 1;
        e.1 += *p;
    }
    let (n, sum) = cells.values().max_by_key(|(n, _)| *n)?;
    let c0 = *sum / *n as f32;
    let near: Vec<Vec3> = points
        .iter()
        .copied()
        .filter(|p| (*p - c0).length() <= 1.5 * cell)
        .collect();
    let c = near.iter().sum::<Vec3>() / near.len().max(1) as f32;
    let rms = (near.iter().map(|p| (*p - c).length_squared()).sum::<f32>()
        / near.len().max(1) as f32)
        .sqrt();
    Some((c, rms.clamp(0.03 * h, 0.15 * h)))
}

/// Flags a failed check's spot for a close-up.
fn flag(out: &mut Out, pose: &str, what: String, points: &[Vec3], h: f32) {
    if let Some((centre, radius)) = spot(points, h) {
        out.flagged.push(FlaggedJoint {
            pose: pose.to_string(),
            joint: what,
            centre,
            radius,
            across: None,
        });
    }
}

fn judge(cx: &Ctx<'_>, rest: &Rest, np: &NamedPose, n: &PoseNumbers, out: &mut Out) {
    let name = &np.name;
    // Major when the skin tears open (a flap dragged by a bone it does not belong to),
    // minor otherwise.
    let torn = n.torn > strain::TEAR_PCT;
    let severity = if torn {
        Severity::Major
    } else {
        Severity::Minor
    };
    let ck = Check::new(format!("deform.{name}.strain"), "D", severity)
        .title(format!("Edge strain in {name}"))
        .measure("% of edges outside 0.5..1.6 of rest length")
        .at_most(n.strain.outside_pct as f64, strain::STRAIN_FLAG_PCT as f64)
        .detail(format!(
            "p1 {:.3}, p99 {:.3} over {} edges; skin torn open {:.2} % of H2{}",
            n.strain.p1,
            n.strain.p99,
            n.strain.edges,
            n.torn,
            if torn {
                format!(
                    " (over {}: a flap dragged by a bone it does not belong to, major)",
                    strain::TEAR_PCT
                )
            } else {
                String::new()
            }
        ));
    if !ck.passed {
        flag(out, name, "strain".into(), &n.strained, cx.h);
    }
    out.checks.push(ck);
    for t in &np.tests {
        band_checks(name, t, n, out);
    }
    if np.side != Side::Center {
        out.checks.push(
            Check::new(format!("deform.{name}.leak"), "D", Severity::Major)
                .title(format!("Cross-side leak in {name}"))
                .measure("largest displacement on the other side, H")
                .at_most(n.leak.0 as f64, leak::LEAK_MAX_H as f64)
                .detail("vertices beyond 0.02 H on the side the pose does not move"),
        );
    }
    if cx.o.self_intersections {
        let ntri = cx.body.mesh.triangles.len().max(1) as f32;
        let ck = Check::new(
            format!("deform.{name}.self_intersections"),
            "D",
            Severity::Minor,
        )
        .title(format!("New self-intersections in {name}"))
        .measure("new intersecting triangle pairs per 1000 body triangles")
        .at_most((1000.0 * n.new_pairs as f32 / ntri) as f64, 1.0)
        .detail(format!(
            "{} new pairs against rest ({} at rest)",
            n.new_pairs,
            rest.pairs.len()
        ));
        if !ck.passed {
            flag(out, name, "self-intersections".into(), &n.pair_points, cx.h);
        }
        out.checks.push(ck);
    }
    if let Some(k) = n.collar_chin {
        let ck = Check::new(format!("deform.{name}.collar_chin"), "D", Severity::Major)
            .title(format!("Collar and chin clear in {name}"))
            .measure(format!(
                "new intersecting triangle pairs within {COLLAR_CHIN_RADIUS_H} H of the neck, collar to chin"
            ))
            .at_most(k as f64, 0.0)
            .detail(format!(
                "{k} of {} new pairs near the collar and the chin",
                n.new_pairs
            ));
        if !ck.passed {
            let r = COLLAR_CHIN_RADIUS_H * cx.h;
            let near: Vec<Vec3> =
                match collar_chin_segment(cx.s, &cx.rig, &posed_matrices(cx.s, &np.pose)) {
                    Some((a, b)) => n
                        .pair_points
                        .iter()
                        .copied()
                        .filter(|&p| within(p, (a, b), r))
                        .collect(),
                    None => Vec::new(),
                };
            flag(out, name, "collar and chin".into(), &near, cx.h);
        }
        out.checks.push(ck);
    }
    if let Some((d, bone)) = &n.planted {
        out.checks.push(
            Check::new(format!("deform.{name}.feet_planted"), "D", Severity::Major)
                .title(format!("Feet stay planted in {name}"))
                .measure("largest displacement of a planted bone's head or tail, H")
                .at_most(*d as f64, PLANTED_MAX_H as f64)
                .detail(format!(
                    "worst: {bone} ({:.2}% H); the pose solves the legs by IK with the feet planted",
                    100.0 * d
                )),
        );
    }
    for (g, pct, points) in &n.penetration {
        let part = &cx.c.parts[*g].name;
        let ck = Check::new(
            format!("deform.{name}.penetration.{part}"),
            "D",
            Severity::Major,
        )
        .title(format!("Garment {part:?} inside the body in {name}"))
        .measure("% of garment vertices newly inside the body")
        .at_most(*pct as f64, penetration::PENETRATION_MAX_PCT as f64)
        .detail("garment vertices inside the posed body that were outside at rest");
        if !ck.passed {
            flag(out, name, format!("{part} penetration"), points, cx.h);
        }
        out.checks.push(ck);
    }
}

/// The band (collapse) and bulge checks of one joint test; a failed one flags the
/// joint for a close-up.
fn band_checks(name: &str, t: &JointTest, n: &PoseNumbers, out: &mut Out) {
    let Some((_, band, centre, radius, across)) = n.bands.iter().find(|b| b.0 == t.joint) else {
        out.not_verified.push(format!(
            "{name}: joint {} not measurable (bones or flesh missing)",
            t.joint
        ));
        return;
    };
    let Some(band) = band else {
        out.not_verified.push(format!(
            "{name}: joint {} has too few vertices per band",
            t.joint
        ));
        return;
    };
    let detail = format!(
        "{}: worst band {:.2}, best band {:.2} over {} bands",
        t.joint, band.worst, band.best, band.bands
    );
    let push = |ck: Check, out: &mut Out| {
        if !ck.passed {
            out.flagged.push(FlaggedJoint {
                pose: name.to_string(),
                joint: t.joint.clone(),
                centre: *centre,
                radius: *radius,
                across: *across,
            });
        }
        out.checks.push(ck);
    };
    if let Some(min) = t.band_min {
        let ck = Check::new(format!("deform.{name}.band"), "D", Severity::Major)
            .title(format!("Joint volume in {name}"))
            .measure("worst band: mean sq. distance to the limb axis, posed / rest")
            .at_least(band.worst as f64, min as f64)
            .detail(detail.clone());
        push(ck, out);
    }
    if let Some(max) = t.bulge_max {
        let ck = Check::new(format!("deform.{name}.bulge"), "D", Severity::Major)
            .title(format!("Joint bulge in {name}"))
            .measure("best band: mean sq. distance to the limb axis, posed / rest")
            .at_most(band.best as f64, max as f64)
            .detail(detail);
        push(ck, out);
    }
}
