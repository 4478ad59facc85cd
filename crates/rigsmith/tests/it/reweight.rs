//! Re-weighting rigged characters with their own skeletons (the figures of
//! `bench/reweight.sh`, in Rust): the artist's weights are stripped, the character is
//! bound again, and both are skinned under test poses; the error is the distance to the
//! artist-skinned position over the vertices the pose moves, p95 in % of the height of
//! all parts. Also which route the binder chooses and why.

use glam::{Mat4, Vec3};
use rigsmith::bind::{bind, BindOptions, BindResult, Route};
use rigsmith::{Character, Skeleton};

use crate::common::{mpfb2_dir, quaternius_dir};

/// A Quaternius character, its skeleton and the binder's result with its weights
/// stripped.
fn rebound(name: &str) -> (Character, Skeleton, BindResult) {
    let c = rigsmith::io::read_character(&quaternius_dir().join(format!("{name}.glb"))).unwrap();
    let s = c.skeleton.clone().unwrap();
    let mut bare = c.clone();
    for p in &mut bare.parts {
        p.weights = None;
    }
    let r = bind(&bare, &s, &BindOptions::default()).unwrap();
    (c, s, r)
}

/// One rotation of a test pose: bone, axis, degrees.
type Turn = (usize, Vec3, f32);

/// The axis that bends a bone pointing along `dir` toward `toward`.
fn bend(dir: Vec3, toward: Vec3) -> Vec3 {
    dir.cross(toward).normalize()
}

fn dir(s: &Skeleton, b: usize) -> Vec3 {
    (s.bones[b].tail - s.bones[b].head).normalize()
}

/// The test poses of the re-weighting harness that move the left arm and leg
/// (`bench/weights_compare.py`): name and rotations.
fn poses(s: &Skeleton, upper_arm: &str, thigh: &str) -> Vec<(&'static str, Vec<Turn>)> {
    let ua = s.find(upper_arm).unwrap();
    let th = s.find(thigh).unwrap();
    vec![
        ("arm_down", vec![(ua, bend(dir(s, ua), -Vec3::Y), 30.0)]),
        ("arm_up", vec![(ua, bend(dir(s, ua), Vec3::Y), 80.0)]),
        ("arm_forward", vec![(ua, bend(dir(s, ua), Vec3::Z), 80.0)]),
        ("leg_forward", vec![(th, bend(dir(s, th), Vec3::Z), 70.0)]),
        ("leg_side", vec![(th, bend(dir(s, th), Vec3::X), 45.0)]),
    ]
}

/// World matrices of every bone for a pose (each turn about the bone's head).
fn pose_matrices(s: &Skeleton, turns: &[Turn]) -> Vec<Mat4> {
    let local: Vec<Mat4> = (0..s.len())
        .map(|b| {
            turns
                .iter()
                .filter(|t| t.0 == b)
                .fold(Mat4::IDENTITY, |m, &(_, axis, deg)| {
                    let h = s.bones[b].head;
                    m * Mat4::from_translation(h)
                        * Mat4::from_axis_angle(axis, deg.to_radians())
                        * Mat4::from_translation(-h)
                })
        })
        .collect();
    fn world(s: &Skeleton, local: &[Mat4], out: &mut [Option<Mat4>], b: usize) -> Mat4 {
        if let Some(m) = out[b] {
            return m;
        }
        let m = match s.bones[b].parent {
            Some(p) => world(s, local, out, p) * local[b],
            None => local[b],
        };
        out[b] = Some(m);
        m
    }
    let mut out = vec![None; s.len()];
    (0..s.len())
        .map(|b| world(s, &local, &mut out, b))
        .collect()
}

/// Linear blend skinning of one vertex; the weight missing from 1 keeps it at rest.
fn skin(p: Vec3, l: &[rigsmith::Influence], m: &[Mat4]) -> Vec3 {
    let total: f32 = l.iter().map(|i| i.weight).sum();
    if total <= 1e-4 {
        return p;
    }
    l.iter()
        .map(|i| m[i.bone as usize].transform_point3(p) * (i.weight / total))
        .sum()
}

/// p95 of the distance between the character's own skinning and `ours`, in % of H, over
/// the vertices the pose moves by more than 0.1 % of H.
fn pose_p95(c: &Character, ours: &BindResult, m: &[Mat4]) -> f32 {
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in c.parts.iter().flat_map(|p| &p.mesh.positions) {
        lo = lo.min(p.y);
        hi = hi.max(p.y);
    }
    let h = hi - lo;
    let mut err = Vec::new();
    for (k, part) in c.parts.iter().enumerate() {
        let (Some(art), Some(w)) = (&part.weights, &ours.weights[k]) else {
            continue;
        };
        for (v, p) in part.mesh.positions.iter().enumerate() {
            let a = skin(*p, &art.vertices[v], m);
            if (a - *p).length() <= 1e-3 * h {
                continue;
            }
            err.push((skin(*p, &w.vertices[v], m) - a).length() / h * 100.0);
        }
    }
    err.sort_by(f32::total_cmp);
    err[((err.len() as f32 * 0.95) as usize).min(err.len() - 1)]
}

/// Per-pose p95 of the re-weighted character (arm and leg poses).
fn pose_errors(c: &Character, s: &Skeleton, r: &BindResult) -> Vec<(&'static str, f32)> {
    poses(s, "UpperArm.L", "UpperLeg.L")
        .into_iter()
        .map(|(n, t)| (n, pose_p95(c, r, &pose_matrices(s, &t))))
        .collect()
}

/// Total weight of a bone over every vertex of every part.
fn bone_total(ws: &[Option<rigsmith::Weights>], bone: u32) -> f32 {
    ws.iter()
        .flatten()
        .flat_map(|w| &w.vertices)
        .flat_map(|l| l.iter())
        .filter(|i| i.bone == bone)
        .map(|i| i.weight)
        .sum()
}

#[test]
fn chibi_shoulders_carry_their_share_and_its_arms_follow() {
    // The platformer chibi: a head a third of the height, a `Belly` bone along the
    // front of the torso. Measured by the reach's thickness as the whole body around
    // the bone, the belly bone took the chest and the shoulders (`Shoulder.L` 12.0
    // units of weight, the artist 60.5; p95 % H arm_down 0.40, arm_up 0.91,
    // arm_forward 1.85, leg_forward 2.94, leg_side 2.04). With the thickness as the
    // flesh each bone carries: 23.9 units; 0.33, 0.82, 1.69, 2.09, 1.57. Its arm pieces
    // are sunk into the torso: the sunk ends' walls hid the shoulder bones from the
    // torso around them and ended their flesh a few centimetres out. Seen and measured
    // through the piece that holds them: 71.0 units (Blender 73.7); 0.41, 1.04, 1.22,
    // 2.15, 1.59 (the arm poses trade: arm_forward, elbow and wrist gain). With the
    // arm joints blended across the limb (bind::joint_blend): 0.50, 1.29, 1.25, 2.17,
    // 1.59 (elbow 1.58 -> 1.30, wrist twist 1.52 -> 1.32; arm down and up lose, all
    // five arm poses still behind Blender's 0.19, 0.45, 0.51, 1.16, 0.60). With each
    // closed piece heated only by the bones it holds (bind::piece_bones: the torso
    // takes no `UpperArm`, the head ball no arm bone): 0.26, 0.70, 0.67, 2.13, 1.59.
    let (c, s, r) = rebound("platformer_Character_HumanoidRig");
    assert_eq!(r.route, Route::BoneHeat, "{:?}", r.reasons);
    assert_eq!(r.report.unweighted, 0);
    let sh = s.find("Shoulder.L").unwrap() as u32;
    let ours = bone_total(&r.weights, sh);
    let artist: Vec<Option<rigsmith::Weights>> =
        c.parts.iter().map(|p| p.weights.clone()).collect();
    let art = bone_total(&artist, sh);
    let e = pose_errors(&c, &s, &r);
    eprintln!("chibi: Shoulder.L {ours:.1} (artist {art:.1}); {e:?}");
    assert!((55.0..66.0).contains(&art), "artist Shoulder.L {art}");
    assert!(ours > SHOULDER_MIN, "Shoulder.L {ours} (artist {art})");
    for (pose, p95, limit) in [
        ("arm_down", e[0].1, 0.32),
        ("arm_up", e[1].1, 0.85),
        ("arm_forward", e[2].1, 0.8),
        ("leg_forward", e[3].1, 2.3),
        ("leg_side", e[4].1, 1.8),
    ] {
        assert!(p95 < limit, "{pose}: p95 {p95} % H (limit {limit})");
    }
}

#[test]
fn chibi_head_ball_and_torso_take_only_the_bones_they_hold() {
    // The chibi's head is a closed piece resting on its shoulders, its arms closed
    // pieces sunk into the torso. Heated by the nearest bone by reach, the lower half
    // of the head ball took `UpperArm` and `Shoulder` (13 units of weight) and the
    // torso `UpperArm` over the chest (16 units a side); the artist gives the head
    // piece `Head` only and the torso no `UpperArm`.
    let (c, s, r) = rebound("platformer_Character_HumanoidRig");
    assert!(
        r.reasons
            .iter()
            .any(|x| x.contains("heated only by the bones they hold")),
        "{:?}",
        r.reasons
    );
    let part = |name: &str| c.parts.iter().position(|p| p.name == name).unwrap();
    let total = |pi: usize, bone: &str| -> f32 {
        let b = s.find(bone).unwrap() as u32;
        r.weights[pi]
            .as_ref()
            .unwrap()
            .vertices
            .iter()
            .flatten()
            .filter(|i| i.bone == b)
            .map(|i| i.weight)
            .sum()
    };
    let (head, torso) = (part("Head.0"), part("Body.0"));
    for bone in [
        "UpperArm.L",
        "UpperArm.R",
        "Shoulder.L",
        "Shoulder.R",
        "LowerArm.L",
    ] {
        assert!(
            total(head, bone) < 1e-3,
            "head piece {bone}: {}",
            total(head, bone)
        );
    }
    for bone in ["UpperArm.L", "UpperArm.R", "Head"] {
        assert!(
            total(torso, bone) < 1e-3,
            "torso {bone}: {}",
            total(torso, bone)
        );
    }
    // The torso still carries the shoulders, the arms their whole chain.
    assert!(total(torso, "Shoulder.L") > 20.0);
    assert!(total(part("Arms.0"), "Shoulder.L") > 10.0);
}

/// Least total weight of the chibi's `Shoulder.L` (measured 71.0, the artist's 60.5;
/// 23.9 before the sunk arm pieces were seen through, 12.0 before the carried
/// thickness: see the test).
const SHOULDER_MIN: f32 = 55.0;

#[test]
fn coarse_game_characters_take_the_volumetric_route_and_say_why() {
    // men_Casual: a low-poly skin in ten pieces (median edge 0.015 H, coarser than the
    // H/90 voxel) whose bones plain distance finds as the reach does: the volume. Its
    // arm and leg poses against the artist (p95 % H) were, by bone heat: arm_up 1.11,
    // arm_forward 0.83, leg_forward 3.05, leg_side 1.87 (Blender 1.24, 0.94, 2.94, 1.82);
    // by the volume 0.80, 0.67, 1.85, 1.15.
    let (c, s, r) = rebound("men_Casual");
    assert_eq!(r.route, Route::Volumetric, "{:?}", r.reasons);
    assert!(
        r.report
            .route_reason
            .starts_with("volumetric: the skin's median edge"),
        "{}",
        r.report.route_reason
    );
    assert!(r
        .reasons
        .iter()
        .any(|l| l.starts_with("route decision: volumetric")));
    assert_eq!(r.report.unweighted, 0);
    assert!(r.report.empty_major.is_empty());
    let e = pose_errors(&c, &s, &r);
    eprintln!("men_Casual: {e:?}");
    for (pose, p95, limit) in [
        ("arm_up", e[1].1, 0.95),
        ("arm_forward", e[2].1, 0.8),
        ("leg_forward", e[3].1, 2.2),
        ("leg_side", e[4].1, 1.4),
    ] {
        assert!(p95 < limit, "{pose}: p95 {p95} % H (limit {limit})");
    }
}

#[test]
fn a_coarse_skin_whose_bones_sit_off_their_flesh_keeps_bone_heat() {
    // The chibi is as coarse as the knight, but plain distance and the reach disagree on
    // its head, ears and belly: forced onto it, the volume gave pooled p95 7.07 % H
    // against bone heat's 2.12 (BENCHMARKS.md).
    let (_, _, r) = rebound("platformer_Character_HumanoidRig");
    assert_eq!(r.route, Route::BoneHeat);
    assert!(
        r.report.route_reason.contains("differ on"),
        "{}",
        r.report.route_reason
    );
    let (_, _, k) = rebound("knight_KnightCharacter");
    assert_eq!(k.route, Route::Volumetric, "{:?}", k.reasons);
}

/// The MakeHuman base body (welded, `game_engine` skeleton) with its artist weights,
/// its skeleton, and the binder's result with the weights stripped.
fn makehuman_base_rebound() -> (Character, Skeleton, BindResult) {
    let dir = mpfb2_dir();
    let base = crate::bind::mh::base(&dir);
    let s = base.skeleton(&dir, "game_engine");
    let artist = crate::bind::mh::artist_weights(&dir, "game_engine", &s, crate::bind::mh::BODY);
    let c = Character {
        parts: vec![rigsmith::Part {
            name: "body".into(),
            mesh: base.body(),
            weights: Some(artist),
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut bare = c.clone();
    bare.parts[0].weights = None;
    let r = bind(&bare, &s, &BindOptions::default()).unwrap();
    (c, s, r)
}

#[test]
fn makehuman_shoulders_blend_and_the_arm_poses_follow_the_artist() {
    // The MakeHuman base body (welded) with its artist weights: bone heat put the
    // shoulder's transition from clavicle to upper arm in a narrow step at the joint
    // (the artist spreads upper-arm weight half a bone length into the chest). Arm up
    // / arm forward p95 % H: 0.64 / 0.65 before the arm joints were blended across the
    // limb (bind::joint_blend), Blender's Automatic Weights 0.60 / 0.57 (harness);
    // blended 0.57 / 0.59.
    let (c, s, r) = makehuman_base_rebound();
    let e: Vec<(&str, f32)> = poses(&s, "upperarm_l", "thigh_l")
        .into_iter()
        .map(|(n, t)| (n, pose_p95(&c, &r, &pose_matrices(&s, &t))))
        .collect();
    eprintln!("base: {e:?}");
    for (pose, p95, limit) in [
        ("arm_down", e[0].1, 0.25),
        ("arm_up", e[1].1, 0.60),
        ("arm_forward", e[2].1, 0.62),
        ("leg_forward", e[3].1, 1.2),
    ] {
        assert!(p95 < limit, "{pose}: p95 {p95} % H (limit {limit})");
    }
}

#[test]
fn makehuman_spine_bones_hand_over_softly_and_the_spine_poses_follow_the_artist() {
    // The MakeHuman base body (welded) with its artist weights, `spine_02` turned 40
    // degrees about the vertical (twist) and about the side axis (bend), as the
    // re-weighting harness does. The back's skin lies within half the flesh's thickness
    // of the spine, and its firm heat made the hand-over between spine bones a step
    // there: p95 % H twist / bend 0.035 / 0.053, Blender's Automatic Weights
    // 0.026 / 0.030 (harness). Heated from no nearer than `SPINE_NEAR` of the
    // thickness: 0.025 / 0.038.
    let (c, s, r) = makehuman_base_rebound();
    let sp = s.find("spine_02").unwrap();
    let twist = pose_p95(&c, &r, &pose_matrices(&s, &[(sp, Vec3::Y, 40.0)]));
    let bend = pose_p95(&c, &r, &pose_matrices(&s, &[(sp, Vec3::X, 40.0)]));
    eprintln!("base spine twist {twist} bend {bend}");
    assert!(twist < 0.029, "spine twist p95 {twist} % H (limit 0.029)");
    assert!(bend < 0.045, "spine bend p95 {bend} % H (limit 0.045)");
}

#[test]
fn a_fine_body_keeps_bone_heat_and_a_forced_route_says_so() {
    let dir = mpfb2_dir();
    let base = crate::bind::mh::base(&dir);
    let s = base.skeleton(&dir, "game_engine");
    let c = Character {
        parts: vec![rigsmith::Part {
            name: "body".into(),
            mesh: base.body(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let edge = {
        let m = &c.parts[0].mesh;
        rigsmith::bind::route_choice::median_edge(&m.positions, &m.triangles)
    };
    assert!(edge > 0.0);
    let r = bind(&c, &s, &BindOptions::default()).unwrap();
    assert_eq!(r.route, Route::BoneHeat);
    assert!(
        r.report
            .route_reason
            .contains("finer than the finest voxel"),
        "{}",
        r.report.route_reason
    );
    let f = bind(
        &c,
        &s,
        &BindOptions {
            force_route: Some(Route::BoneHeat),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(f.report.route_reason, "bone-heat route forced");
}

/// The fox with its own skeleton as the re-weighting benchmark reads it: the bones
/// outside its main tree (IK and pole targets) made controls, each following its
/// nearest leg bone in the poses.
fn fox_as_benchmarked() -> (Character, Skeleton, Vec<(usize, usize)>) {
    let c = rigsmith::io::read_character(&quaternius_dir().join("animals_Fox.glb")).unwrap();
    let mut s = c.skeleton.clone().unwrap();
    let follow = rigsmith::pose::quadruped::controls_following(&s);
    for &(i, _) in &follow {
        s.bones[i].deform = false;
    }
    (c, s, follow)
}

/// Every vertex 1.0 on the deform bone whose segment lies nearest (the benchmark's
/// baseline), per part.
fn nearest_bone(c: &Character, s: &Skeleton) -> Vec<Option<rigsmith::Weights>> {
    let deform: Vec<usize> = (0..s.len()).filter(|&b| s.bones[b].deform).collect();
    let dist = |p: Vec3, b: usize| {
        let (a, t) = (s.bones[b].head, s.bones[b].tail);
        let ab = t - a;
        let u = ((p - a).dot(ab) / ab.length_squared().max(1e-20)).clamp(0.0, 1.0);
        (p - (a + ab * u)).length()
    };
    c.parts
        .iter()
        .map(|p| {
            let vertices = p
                .mesh
                .positions
                .iter()
                .map(|&x| {
                    let b = deform
                        .iter()
                        .copied()
                        .min_by(|&a, &b| dist(x, a).total_cmp(&dist(x, b)))
                        .unwrap();
                    vec![rigsmith::Influence {
                        bone: b as u32,
                        weight: 1.0,
                    }]
                })
                .collect();
            Some(rigsmith::Weights { vertices })
        })
        .collect()
}

/// Distances (% of the height of all parts) between the fox's own skinning and `w`'s
/// over the poses `mats`, at the vertices each pose moves more than 0.1 % H, pooled.
fn fox_errors(c: &Character, mats: &[Vec<Mat4>], w: &[Option<rigsmith::Weights>]) -> Vec<f32> {
    let ys = c.parts.iter().flat_map(|p| &p.mesh.positions).map(|p| p.y);
    let h = ys.clone().fold(f32::NEG_INFINITY, f32::max) - ys.fold(f32::INFINITY, f32::min);
    let mut err = Vec::new();
    for m in mats {
        for (part, w) in c.parts.iter().zip(w) {
            let (Some(art), Some(w)) = (&part.weights, w) else {
                continue;
            };
            for (v, &p) in part.mesh.positions.iter().enumerate() {
                let a = skin(p, &art.vertices[v], m);
                if (a - p).length() > 1e-3 * h {
                    err.push((skin(p, &w.vertices[v], m) - a).length() / h * 100.0);
                }
            }
        }
    }
    err.sort_by(f32::total_cmp);
    err
}

/// The `q` quantile of sorted `x`, interpolated linearly (as numpy's percentile).
fn quantile(x: &[f32], q: f32) -> f32 {
    let at = q * (x.len() - 1) as f32;
    let (i, f) = (at.floor() as usize, at.fract());
    x[i] + (x[(i + 1).min(x.len() - 1)] - x[i]) * f
}

#[test]
fn the_fox_rebound_beats_the_nearest_bone_under_the_quadruped_library() {
    let (c, s, follow) = fox_as_benchmarked();
    let mut bare = c.clone();
    for p in &mut bare.parts {
        p.weights = None;
    }
    let r = bind(&bare, &s, &BindOptions::default()).unwrap();
    assert_eq!(r.report.unweighted, 0);
    assert!(
        r.reasons
            .iter()
            .any(|l| l.starts_with("ears hung beside the head")),
        "{:?}",
        r.reasons
    );
    let (lib, skipped) = rigsmith::pose::quadruped::quadruped_library(&s).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    let mats: Vec<Vec<Mat4>> = lib
        .iter()
        .map(|np| {
            let mut m = rigsmith::pose::posed_matrices(&s, &np.pose);
            for &(i, j) in &follow {
                m[i] = m[j];
            }
            m
        })
        .collect();
    let ours = fox_errors(&c, &mats, &r.weights);
    let near = fox_errors(&c, &mats, &nearest_bone(&c, &s));
    let (p95, max) = (quantile(&ours, 0.95), *ours.last().unwrap());
    let (np95, nmax) = (quantile(&near, 0.95), *near.last().unwrap());
    // bench/reweight.sh on the same case: p95 0.56, max 2.43 against the baseline's
    // 1.97 and 5.76 (% H).
    assert!(p95 < np95, "p95 {p95} against the nearest bone's {np95}");
    assert!(
        max <= 0.6 * nmax,
        "max {max} against the nearest bone's {nmax}"
    );
    assert!((1.8..2.2).contains(&np95), "nearest p95 {np95}");
    assert!((5.5..6.0).contains(&nmax), "nearest max {nmax}");
    assert!(p95 < 0.8, "p95 {p95}");
    assert!(max < 2.9, "max {max}");
}

#[test]
fn the_head_keeps_its_lever_share_of_an_ear_hung_beside_it_and_none_under_it() {
    let (c, s, _) = fox_as_benchmarked();
    let mut w = nearest_bone(&c, &s);
    let changed = rigsmith::bind::ears::carry_ears(&c, &s, &mut w, 4);
    assert!(changed > 100, "{changed}");
    // The vertex nearest the left ear's tip: on Ear4.L alone before, the head keeps
    // d_head / (d_head + d_root) of it after.
    let (head, ear4, root) = (
        s.find("Head").unwrap(),
        s.find("Ear4.L").unwrap(),
        s.find("Ear1.L").unwrap(),
    );
    let tip = s.bones[ear4].tail;
    let (k, v) = (0..c.parts.len())
        .flat_map(|k| (0..c.parts[k].mesh.positions.len()).map(move |v| (k, v)))
        .min_by(|&(a, i), &(b, j)| {
            let d = |k: usize, v: usize| (c.parts[k].mesh.positions[v] - tip).length();
            d(a, i).total_cmp(&d(b, j))
        })
        .unwrap();
    let p = c.parts[k].mesh.positions[v];
    let (dh, dr) = (
        (p - s.bones[head].head).length(),
        (p - s.bones[root].head).length(),
    );
    let share = |b: usize| {
        w[k].as_ref().unwrap().vertices[v]
            .iter()
            .filter(|i| i.bone as usize == b)
            .map(|i| i.weight)
            .sum::<f32>()
    };
    let want = dh / (dh + dr);
    assert!((0.5..0.65).contains(&want), "{want}");
    assert!(
        (share(head) - want).abs() < 1e-5,
        "{} vs {want}",
        share(head)
    );
    assert!((share(ear4) - (1.0 - want)).abs() < 1e-5);
    // Ears hung from the head follow it through the hierarchy: nothing changes.
    let mut under = s.clone();
    for e in ["Ear1.L", "Ear1.R"] {
        let i = under.find(e).unwrap();
        under.bones[i].parent = Some(head);
    }
    let mut w2 = nearest_bone(&c, &under);
    assert_eq!(rigsmith::bind::ears::carry_ears(&c, &under, &mut w2, 4), 0);
    assert_eq!(w2, nearest_bone(&c, &under));
}

/// MakeHuman's ankle-long skirt over `variant` cut into pieces, bound again with its
/// artist's weights stripped (the corpus gives helper parts the artist's own weights):
/// the character with the artist's weights, the skirt's index and the binder's result.
fn in_artists_skirt_rebound(variant: &str) -> (Character, usize, BindResult) {
    use rigsmith::io::mpfb2::split_parts;
    let c = split_parts(&crate::common::in_artists_skirt(variant))
        .unwrap()
        .character;
    let s = c.skeleton.clone().unwrap();
    let mut bare = c.clone();
    for p in &mut bare.parts {
        p.weights = None;
    }
    let r = bind(&bare, &s, &BindOptions::default()).unwrap();
    let k = c.find_part("skirt").unwrap();
    let t = r
        .report
        .garment_transfer
        .iter()
        .find(|g| g.part == "skirt")
        .expect("the skirt is a garment");
    eprintln!("{variant} skirt transfer: {t:?}");
    (c, k, r)
}

/// `base` in MakeHuman's artist-weighted skirt, rebound once for the tests that read
/// it, with its skeleton and the knee_120 p95 (% H) of the rebound weights.
struct BaseSkirt {
    c: Character,
    k: usize,
    r: BindResult,
    s: Skeleton,
    knee_p95: f32,
}

impl BaseSkirt {
    /// A measure of the skirt's weights, the artist's and the rebound ones.
    fn artist_and_ours(
        &self,
        f: fn(&Character, usize, &Skeleton, &rigsmith::Weights) -> f32,
    ) -> (f32, f32) {
        let (c, k) = (&self.c, self.k);
        (
            f(c, k, &self.s, c.parts[k].weights.as_ref().unwrap()),
            f(c, k, &self.s, self.r.weights[k].as_ref().unwrap()),
        )
    }
}

fn base_skirt() -> &'static BaseSkirt {
    static B: std::sync::OnceLock<BaseSkirt> = std::sync::OnceLock::new();
    B.get_or_init(|| {
        let (c, k, r) = in_artists_skirt_rebound("base");
        let s = c.skeleton.clone().unwrap();
        let calf = s.find("calf_l").unwrap();
        let knee = pose_matrices(&s, &[(calf, bend(dir(&s, calf), -Vec3::Z), 120.0)]);
        let knee_p95 = pose_p95(&c, &r, &knee);
        BaseSkirt {
            c,
            k,
            r,
            s,
            knee_p95,
        }
    })
}

/// The skirt's hem between the legs: the mean share of the near leg in the leg weight
/// of the skirt's vertices below the knees lying between 0.55 and 0.85 of the hip
/// joints' offset from the mid-plane.
fn hem_near_share(c: &Character, k: usize, s: &Skeleton, w: &rigsmith::Weights) -> f32 {
    let side = |b: u32| {
        let n = &s.bones[b as usize].name;
        let leg = ["thigh", "calf", "foot", "ball"]
            .iter()
            .any(|x| n.starts_with(x));
        match () {
            _ if leg && n.ends_with("_l") => 1.0,
            _ if leg && n.ends_with("_r") => -1.0,
            _ => 0.0,
        }
    };
    let hip = s.bones[s.find("thigh_l").unwrap()].head.x.abs();
    let knee = s.bones[s.find("calf_l").unwrap()].head.y;
    let (mut sum, mut n) = (0.0, 0);
    for (v, p) in c.parts[k].mesh.positions.iter().enumerate() {
        let f = p.x.abs() / hip;
        if p.y >= knee || !(0.55..0.85).contains(&f) {
            continue;
        }
        let l = &w.vertices[v];
        let on = |sd: f32| -> f32 {
            l.iter()
                .filter(|i| side(i.bone) == sd)
                .map(|i| i.weight)
                .sum()
        };
        let (near, far) = if p.x > 0.0 {
            (on(1.0), on(-1.0))
        } else {
            (on(-1.0), on(1.0))
        };
        if near + far > 0.1 {
            sum += near / (near + far);
            n += 1;
        }
    }
    assert!(n > 10, "{n} hem vertices");
    sum / n as f32
}

/// MakeHuman's ankle-long skirt, which the MakeHuman artist weighted, on the `female`
/// body cut into pieces: the skin is bound again and the skirt takes the skin's weights
/// by robust transfer; its hem between the legs parts by side
/// (`bind::cleanup::split_between_legs`). Under leg forward the p95 against the artist
/// is 2.08 % H (1.71 before the hem was parted; the harness, with shirt and hat: 2.02,
/// Blender's Automatic Weights 2.74); a plain copy of the nearest skin vertex's weights,
/// which tears the hem from one calf to the other, is 5.60 % H.
#[test]
fn an_artist_weighted_long_skirt_follows_the_legs_as_the_artist_made_it() {
    let (c, k, r) = in_artists_skirt_rebound("female");
    let s = c.skeleton.clone().unwrap();
    let legs: Vec<(&str, Vec<Turn>)> = poses(&s, "upperarm_l", "thigh_l")
        .into_iter()
        .filter(|(n, _)| n.starts_with("leg"))
        .collect();
    let (_, turns) = &legs[0];
    let m = pose_matrices(&s, turns);
    let ours = pose_p95(&c, &r, &m);
    // Positive control: the skirt weighted by the plain copy of the nearest skin vertex.
    let mut plain = r.clone();
    let skin: Vec<(Vec3, Vec<rigsmith::Influence>)> = c
        .parts
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .flat_map(|(i, p)| {
            let w = r.weights[i].as_ref().unwrap();
            p.mesh
                .positions
                .iter()
                .copied()
                .zip(w.vertices.iter().cloned())
                .collect::<Vec<_>>()
        })
        .collect();
    let sw = plain.weights[k].as_mut().unwrap();
    for (v, p) in c.parts[k].mesh.positions.iter().enumerate() {
        let near = skin
            .iter()
            .min_by(|a, b| a.0.distance(*p).total_cmp(&b.0.distance(*p)))
            .unwrap();
        sw.vertices[v] = near.1.clone();
    }
    let copied = pose_p95(&c, &plain, &m);
    eprintln!("leg forward p95: robust {ours} % H, plain copy {copied} % H");
    assert!(ours < 2.3, "leg forward p95 {ours} % H");
    assert!(copied > 2.0 * ours, "plain {copied}, robust {ours}");
}

/// The hem of a long skirt between the legs goes to the near leg as the artist paints
/// it. Between 0.55 and 0.85 of the hip joints' offset from the mid-plane, below the
/// knees, MakeHuman's artist gives the near leg 0.93 of the leg weight on `base`; the
/// inpainting alone gave 0.75, and with the knee bent the back of the hem followed the
/// other leg (knee_120 p95 2.16 % H here). Parted by side
/// (`bind::cleanup::split_between_legs`): 0.82, and 1.61 % H (the harness, with shirt
/// and hat: 2.13 -> 1.59, Blender 1.63); 1.25 % H since the skirt below the knee
/// follows the shin (`bind::leg_level`).
#[test]
fn a_long_skirts_hem_between_the_legs_goes_to_the_near_leg() {
    let b = base_skirt();
    let BaseSkirt { c, k, r, s, .. } = b;
    let (k, p95) = (*k, b.knee_p95);
    let (artist, ours) = b.artist_and_ours(hem_near_share);
    let calf = s.find("calf_l").unwrap();
    eprintln!("hem near share: artist {artist}, ours {ours}; knee_120 p95 {p95} % H");
    assert!(artist > 0.9, "the artist's hem: {artist}");
    assert!(ours > 0.8, "our hem: {ours}");
    assert!(p95 < 1.8, "knee_120 p95 {p95} % H");
    // Positive control: every weight below the knees mixed 0.27 with its mirror bone's
    // (a softer parting, as the inpainting left it) is judged so.
    let mut soft = r.weights[k].clone().unwrap();
    for (v, p) in c.parts[k].mesh.positions.iter().enumerate() {
        let l = &mut soft.vertices[v];
        if p.y >= s.bones[calf].head.y {
            continue;
        }
        let mirrored: Vec<rigsmith::Influence> = l
            .iter()
            .map(|i| rigsmith::Influence {
                bone: s
                    .find(&rigsmith::model::naming::mirror_name(
                        &s.bones[i.bone as usize].name,
                    ))
                    .map_or(i.bone, |b| b as u32),
                weight: i.weight * 0.27,
            })
            .collect();
        for i in l.iter_mut() {
            i.weight *= 0.73;
        }
        for m in mirrored {
            match l.iter_mut().find(|i| i.bone == m.bone) {
                Some(i) => i.weight += m.weight,
                None => l.push(m),
            }
        }
    }
    let softened = hem_near_share(c, k, s, &soft);
    assert!(softened < 0.75, "softened hem {softened}");
}

/// Whether bone `b` is on the left leg: `Some(true)` for the shin and below (`calf*`,
/// `foot*`, `ball*`), `Some(false)` for the thigh, `None` off the left leg.
fn left_leg(s: &Skeleton, b: u32) -> Option<bool> {
    let n = &s.bones[b as usize].name;
    let shin = ["calf", "foot", "ball"].iter().any(|x| n.starts_with(x));
    (n.ends_with("_l") && (shin || n.starts_with("thigh"))).then_some(shin)
}

/// The left leg's share held by the shin and below ([`left_leg`]), mean over the
/// skirt's vertices on the left at least 0.06 H below the left knee.
fn below_knee_shin_share(c: &Character, k: usize, s: &Skeleton, w: &rigsmith::Weights) -> f32 {
    let (lo, hi) = c.bounds();
    let knee = s.bones[s.find("calf_l").unwrap()].head.y - 0.06 * (hi.y - lo.y);
    let shares: Vec<f32> = c.parts[k]
        .mesh
        .positions
        .iter()
        .zip(&w.vertices)
        .filter(|(p, _)| p.y < knee && p.x > 0.0)
        .filter_map(|(_, l)| {
            let on = |shin_only: bool| -> f32 {
                l.iter()
                    .filter(|i| left_leg(s, i.bone).is_some_and(|shin| shin || !shin_only))
                    .map(|i| i.weight)
                    .sum()
            };
            let all = on(false);
            (all > 0.1).then(|| on(true) / all)
        })
        .collect();
    assert!(
        shares.len() > 10,
        "{} skirt vertices below the knee",
        shares.len()
    );
    shares.iter().sum::<f32>() / shares.len() as f32
}

/// A long skirt below the knee follows the shin as the artist paints it. MakeHuman's
/// artist gives the shin all of the left leg's weight on its skirt 0.06 H and more
/// below the knee (`base`); the inpainting had carried the knee's blend down to the
/// hem (0.94, knee_120 p95 1.57 % H here). Shared along the leg as the skin at its
/// level (`bind::leg_level`): 0.99 and 1.25 % H (the harness, with shirt and hat: 1.55
/// -> 1.23, Blender 1.63).
#[test]
fn a_long_skirt_below_the_knee_follows_the_shin() {
    let b = base_skirt();
    let BaseSkirt { c, k, r, s, .. } = b;
    let (k, p95) = (*k, b.knee_p95);
    let (artist, ours) = b.artist_and_ours(below_knee_shin_share);
    eprintln!("shin share below the knee: artist {artist}, ours {ours}; knee_120 p95 {p95} % H");
    assert!(artist > 0.9, "the artist's skirt: {artist}");
    assert!(ours > 0.97, "our skirt: {ours}");
    assert!(p95 < 1.4, "knee_120 p95 {p95} % H");
    // Positive control: the knee's blend carried down (every skirt vertex below the knee
    // holding 0.25 of its left shin's weight on the thigh) is judged so.
    let mut carried = r.weights[k].clone().unwrap();
    let thigh = s.find("thigh_l").unwrap() as u32;
    for l in &mut carried.vertices {
        let mut moved = 0.0;
        for i in l.iter_mut().filter(|i| left_leg(s, i.bone) == Some(true)) {
            moved += 0.25 * i.weight;
            i.weight *= 0.75;
        }
        if moved > 0.0 {
            l.push(rigsmith::Influence {
                bone: thigh,
                weight: moved,
            });
        }
    }
    let softened = below_knee_shin_share(c, k, s, &carried);
    assert!(softened < 0.75, "carried down {softened}");
}
