//! The neck's blend: the chin, the lips and the throat follow the head as an artist
//! paints them, so the head poses leave the collar and the chin clear.

use std::sync::OnceLock;

use rigsmith::deform::neck_blend::NeckBlend;
use rigsmith::humanoid::Roles;
use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::review::{check, CheckOptions};
use rigsmith::{Influence, RigOptions, RigOutput, Rigged};

use crate::common;

/// The MakeHuman body `variant` rigged here (its artist rig replaced), with the review.
fn rigged(variant: &str) -> RigOutput {
    let corpus = Corpus::open(&common::mpfb2_dir()).expect("open corpus");
    let c = corpus
        .build(&CorpusOptions {
            variant: Some(variant.into()),
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("build {variant}: {e}"));
    let o = RigOptions {
        rigged: Rigged::Replace,
        ..RigOptions::default()
    };
    rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap_or_else(|e| panic!("rig {variant}: {e}"))
}

/// The MakeHuman `male` body rigged here.
fn male() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| rigged("male"))
}

fn bone(out: &RigOutput, name: &str) -> usize {
    let s = out.character.skeleton.as_ref().unwrap();
    s.find(name).unwrap_or_else(|| panic!("no bone {name}"))
}

#[test]
fn a_makehuman_body_keeps_the_collar_and_chin_clear_in_the_head_poses() {
    // Before the neck blend: 191 new pairs at the chin in head_turn, 216 in head_nod.
    let r = male().review.as_ref().expect("review");
    for id in [
        "deform.head_turn.collar_chin",
        "deform.head_nod.collar_chin",
    ] {
        let k = r.get(id).unwrap_or_else(|| panic!("no check {id}"));
        eprintln!("{id} = {} ({})", k.value, k.detail);
        assert!(k.passed && k.value == 0.0, "{k:?}");
        assert_eq!(k.severity, rigsmith::Severity::Major);
    }
}

#[test]
fn the_neck_blend_gives_the_face_to_the_head_and_leaves_the_chest() {
    let out = male();
    let s = out.character.skeleton.as_ref().unwrap();
    let nb = NeckBlend::of(s, &Roles::of(s, None)).expect("upright neck");
    let (neck, head) = (bone(out, "neck_01"), bone(out, "head"));
    let body = &out.character.parts[0];
    // Every vertex on the neck bone alone (what bone heat gives a chin nearer the neck).
    let mut w = body.weights.clone().unwrap();
    for list in &mut w.vertices {
        *list = vec![Influence {
            bone: neck as u32,
            weight: 1.0,
        }];
    }
    let changed = nb.apply(&body.mesh.positions, &mut w, 4);
    let (mut full, mut none) = (0, 0);
    for (p, list) in body.mesh.positions.iter().zip(&w.vertices) {
        let sum: f32 = list.iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
        let on_head: f32 = list
            .iter()
            .filter(|i| i.bone as usize == head)
            .map(|i| i.weight)
            .sum();
        assert!((on_head - nb.share(*p)).abs() < 1e-4, "{on_head} at {p}");
        full += usize::from(on_head > 0.999);
        none += usize::from(on_head == 0.0);
    }
    // The head, the face and the throat's top get the head; the rest of the body keeps
    // its weights (measured: 3,2xx head vertices of 13,380).
    eprintln!("changed {changed}, head 1.0 on {full}, untouched {none}");
    assert_eq!(changed + none, body.mesh.positions.len());
    assert!(full > 2500 && full < 4500, "{full}");
    assert!(none > 9000, "{none}");
    // The lips, 0.02 H below the skull's base and 0.08 H in front of it, are the
    // head's; the chest 0.05 H below the collar is not.
    let h = out.character.height();
    let skull = s.bones[head].head;
    let collar = s.bones[neck].head;
    let lips = glam::Vec3::new(0.0, skull.y - 0.02 * h, skull.z + 0.08 * h);
    assert_eq!(nb.share(lips), 1.0);
    let sternum = glam::Vec3::new(0.0, collar.y - 0.05 * h, collar.z + 0.08 * h);
    assert_eq!(nb.share(sternum), 0.0);
}

#[test]
fn a_chin_weighted_to_the_neck_fails_the_collar_and_chin_check() {
    // Positive control: the face below the skull's base given half to the neck again
    // (the bone heat weights before the blend) drives the chin through the lips and
    // the throat in the nod.
    let out = male();
    let s = out.character.skeleton.as_ref().unwrap();
    let (neck, head) = (bone(out, "neck_01"), bone(out, "head"));
    let skull = s.bones[head].head;
    let mut c = out.character.clone();
    let body = &mut c.parts[0];
    let w = body.weights.as_mut().unwrap();
    let mut moved = 0;
    for (p, list) in body.mesh.positions.iter().zip(w.vertices.iter_mut()) {
        if p.y < skull.y && p.z > skull.z + 0.02 * out.character.height() {
            for i in list.iter_mut() {
                i.weight *= 0.5;
            }
            list.push(Influence {
                bone: neck as u32,
                weight: 0.5,
            });
            moved += 1;
        }
    }
    assert!(moved > 100, "{moved}");
    let (lib, _) = rigsmith::pose::default_library(s);
    let lib = lib.into_iter().filter(|p| p.name == "head_nod").collect();
    let r = check(
        &c,
        &CheckOptions {
            library: Some(lib),
            ..CheckOptions::default()
        },
    )
    .unwrap();
    let k = r.get("deform.head_nod.collar_chin").unwrap();
    eprintln!("{k:?}");
    assert!(!k.passed && k.value > 10.0, "{k:?}");
}

/// The MakeHuman baby rigged here: its chin meets its chest in the nod, the one body
/// the neck's blend leaves failing.
fn baby() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| rigged("baby"))
}

/// The review of `out` in the poses of `lib` (the twist rules applied), under the
/// runtime its sidecar names with `correctives` played.
fn review_in(
    out: &RigOutput,
    correctives: Vec<rigsmith::deform::correctives::Corrective>,
    lib: Vec<rigsmith::pose::NamedPose>,
) -> rigsmith::review::CheckReport {
    let s = out.character.skeleton.as_ref().unwrap();
    let rig = Roles::of(s, None);
    let rules = rigsmith::deform::twist_rules(s, &rig);
    let lib = rigsmith::deform::twist::library_with_rules(s, &rules, lib);
    check(
        &out.character,
        &CheckOptions {
            library: Some(lib),
            dqs_blend: true,
            dqs_masks: out.sidecar.dqs_blend.clone(),
            correctives,
            ..CheckOptions::default()
        },
    )
    .unwrap()
}

/// The library's poses of `out` named in `names`.
fn poses_named(out: &RigOutput, names: &[&str]) -> Vec<rigsmith::pose::NamedPose> {
    let s = out.character.skeleton.as_ref().unwrap();
    let (lib, _) = rigsmith::pose::library::library_for(s, &Roles::of(s, None));
    lib.into_iter()
        .filter(|p| names.contains(&p.name.as_str()))
        .collect()
}

/// The review of `out` in `head_nod` alone, under the runtime its sidecar names with
/// `correctives` played.
fn nod_review(
    out: &RigOutput,
    correctives: Vec<rigsmith::deform::correctives::Corrective>,
) -> rigsmith::review::CheckReport {
    review_in(out, correctives, poses_named(out, &["head_nod"]))
}

/// `deform.head_nod.collar_chin` of `out` played with all its correctives and without
/// `CS_neck_nod` (which it must have).
fn collar_chin_with_and_without_nod(
    out: &RigOutput,
    name: &str,
) -> (rigsmith::Check, rigsmith::Check) {
    let others: Vec<_> = out
        .sidecar
        .correctives
        .iter()
        .filter(|k| k.name != "CS_neck_nod")
        .cloned()
        .collect();
    assert!(
        others.len() < out.sidecar.correctives.len(),
        "{name}: no CS_neck_nod"
    );
    let with = nod_review(out, out.sidecar.correctives.clone());
    let without = nod_review(out, others);
    let (a, b) = (
        with.get("deform.head_nod.collar_chin").unwrap().clone(),
        without.get("deform.head_nod.collar_chin").unwrap().clone(),
    );
    eprintln!(
        "{name}: with {} ({}), without {} ({})",
        a.value, a.detail, b.value, b.detail
    );
    (a, b)
}

#[test]
fn the_baby_chin_rests_on_its_chest_in_the_nod_through_a_collision_corrective() {
    // Measured: 77 new pairs near the collar and the chin without CS_neck_nod, 0 with
    // (1 when the strain bound was applied once, after the last pass).
    let out = baby();
    let list = &out.sidecar.correctives;
    let nod = list
        .iter()
        .find(|k| k.name == "CS_neck_nod")
        .expect("the baby gets CS_neck_nod");
    assert_eq!(nod.pose, "head_nod");
    assert_eq!(nod.side, rigsmith::model::naming::Side::Center);
    let s = out.character.skeleton.as_ref().unwrap();
    // The driver reads the head's swing from the neck's parent: 0 at rest.
    assert_eq!(nod.driver.a, "spine_03");
    assert_eq!(nod.driver.b, "head");
    assert_eq!(nod.driver.value(s, &rigsmith::pose::Pose::rest(s)), 0.0);
    let full = out.review.as_ref().expect("review");
    for id in [
        "deform.head_nod.collar_chin",
        "correctives.CS_neck_nod.rest",
        "correctives.CS_neck_nod.ramp",
        "correctives.CS_neck_nod.own_side",
        "correctives.CS_neck_nod.smooth",
    ] {
        let k = full.get(id).unwrap_or_else(|| panic!("no check {id}"));
        eprintln!("{id} = {} ({})", k.value, k.detail);
        assert!(k.passed, "{k:?}");
    }
    assert_eq!(full.get("deform.head_nod.collar_chin").unwrap().value, 0.0);
    // It moves the chin and the throat only: nothing below the collar's level by more
    // than 0.05 H, nothing above the eyes.
    let body = &out.character.parts[0];
    let mt = body
        .morphs
        .iter()
        .find(|m| m.name == "CS_neck_nod")
        .expect("the skin carries CS_neck_nod");
    let h = out.character.height();
    let collar = s.bones[bone(out, "neck_01")].head;
    let crown = s.bones[bone(out, "head")].tail;
    let mut moved = 0;
    for (p, d) in body.mesh.positions.iter().zip(&mt.position_deltas) {
        if d.length() > 1e-4 * h {
            moved += 1;
            assert!(p.y > collar.y - 0.05 * h && p.y < crown.y, "{p} moved {d}");
            assert!(d.is_finite());
        }
    }
    eprintln!("CS_neck_nod moves {moved} vertices");
    assert!(moved > 100, "{moved}");
}

#[test]
fn without_its_collision_corrective_the_baby_chin_cuts_into_the_chest() {
    // Positive control: the same rig played without CS_neck_nod.
    let (a, b) = collar_chin_with_and_without_nod(baby(), "baby");
    assert!(a.passed && a.value == 0.0, "{a:?}");
    assert!(!b.passed && b.value > 50.0, "{b:?}");
}

#[test]
fn a_body_whose_chin_clears_its_chest_gets_no_neck_corrective() {
    assert!(male()
        .sidecar
        .correctives
        .iter()
        .all(|k| k.name != "CS_neck_nod"));
}

#[test]
fn the_chibis_head_ball_clears_its_chest_in_the_nod_its_hidden_junction_left_alone() {
    // The platformer chibi rigged again: its head ball rests sunk in its torso. Measured:
    // 6 visible new pairs near the collar and the chin without CS_neck_nod, 0 with. The
    // ball's hidden junction (10 more pairs inside the torso) is neither counted nor
    // pushed; counted, the shape cleared none and was dropped.
    let path = common::quaternius_dir().join("platformer_Character_HumanoidRig.glb");
    let c = rigsmith::io::read_character(&path).unwrap();
    let o = RigOptions {
        rigged: Rigged::Replace,
        ..RigOptions::default()
    };
    let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
    let (a, b) = collar_chin_with_and_without_nod(&out, "chibi");
    assert!(a.passed && a.value == 0.0, "{a:?}");
    assert!(!b.passed && b.value >= 4.0, "{b:?}");
    let full = out.review.as_ref().expect("review");
    for id in [
        "correctives.CS_neck_nod.rest",
        "correctives.CS_neck_nod.smooth",
    ] {
        let k = full.get(id).unwrap_or_else(|| panic!("no check {id}"));
        assert!(k.passed, "{k:?}");
    }
}

/// The review of `out` in the head turned left (`head_turn`) and right
/// ([`HEAD_TURN_RIGHT`](rigsmith::pose::library::HEAD_TURN_RIGHT)), under the runtime
/// its sidecar names with `correctives` played.
fn turn_review(
    out: &RigOutput,
    correctives: Vec<rigsmith::deform::correctives::Corrective>,
) -> rigsmith::review::CheckReport {
    use rigsmith::pose::library::{extra_pose, HEAD_TURN_RIGHT};
    let s = out.character.skeleton.as_ref().unwrap();
    let mut lib = poses_named(out, &["head_turn"]);
    lib.push(extra_pose(s, &Roles::of(s, None), HEAD_TURN_RIGHT).expect("the right turn"));
    review_in(out, correctives, lib)
}

/// men_Casual rigged again, as it comes (`mirrored`: reflected through its mid-plane
/// first, so that what its left turn meets its right turn meets).
fn casual(mirrored: bool) -> RigOutput {
    let path = common::quaternius_dir().join("men_Casual.glb");
    let mut c = rigsmith::io::read_character(&path).unwrap();
    if mirrored {
        let flip = |v: &mut glam::Vec3| v.x = -v.x;
        for p in &mut c.parts {
            p.mesh.positions.iter_mut().for_each(flip);
            if let Some(n) = p.mesh.normals.as_mut() {
                n.iter_mut().for_each(flip);
            }
            for t in &mut p.mesh.triangles {
                t.swap(1, 2);
            }
            for m in &mut p.morphs {
                m.position_deltas.iter_mut().for_each(flip);
            }
        }
    }
    let o = RigOptions {
        rigged: Rigged::Replace,
        ..RigOptions::default()
    };
    rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
}

/// Turning men_Casual's head swings its jaw's corner through the shirt's collar: 2 new
/// pairs at the collar and the chin in the left turn, none in the right (the shirt is
/// not symmetric there). The neck's turn corrective, built as the nod's is, clears them;
/// the mirrored character gets the right turn's instead. Positive control: each rig
/// played without its turn corrective keeps the pairs.
#[test]
fn turning_the_head_clears_the_collar_through_a_turn_corrective_on_either_side() {
    use rigsmith::pose::library::{extra_pose, HEAD_TURN_RIGHT};
    for (mirrored, name, pose, other) in [
        (false, "CS_neck_turn_l", "head_turn", "CS_neck_turn_r"),
        (true, "CS_neck_turn_r", HEAD_TURN_RIGHT, "CS_neck_turn_l"),
    ] {
        let out = casual(mirrored);
        let list = &out.sidecar.correctives;
        let k = list
            .iter()
            .find(|k| k.name == name)
            .unwrap_or_else(|| panic!("mirrored {mirrored}: no {name} in {list:#?}"));
        assert!(list.iter().all(|k| k.name != other), "{list:#?}");
        assert_eq!(k.pose, pose);
        assert_eq!(k.side, rigsmith::model::naming::Side::Center);
        assert!(k.driver.twist.is_some() && k.driver.toward.is_none());
        // The driver: 0 at rest and in the other turn, 1 in its own.
        let s = out.character.skeleton.as_ref().unwrap();
        let rig = Roles::of(s, None);
        let (lib, _) = rigsmith::pose::library::library_for(s, &rig);
        let left = lib
            .iter()
            .find(|p| p.name == "head_turn")
            .unwrap()
            .pose
            .clone();
        let right = extra_pose(s, &rig, HEAD_TURN_RIGHT).unwrap().pose;
        let (own, away) = if mirrored {
            (right, left)
        } else {
            (left, right)
        };
        assert_eq!(k.driver.value(s, &rigsmith::pose::Pose::rest(s)), 0.0);
        assert!((k.driver.value(s, &own) - 1.0).abs() < 1e-3);
        assert_eq!(k.driver.value(s, &away), 0.0);
        // Its checks, in the full review (the right turn's in the pose it was built in,
        // which the library does not hold).
        let full = out.review.as_ref().expect("review");
        for check in ["rest", "ramp", "own_side", "smooth"] {
            let id = format!("correctives.{name}.{check}");
            let c = full.get(&id).unwrap_or_else(|| panic!("no check {id}"));
            assert!(c.passed, "{c:?}");
        }
        let id = format!("deform.{pose}.collar_chin");
        let with = turn_review(&out, list.clone());
        let others: Vec<_> = list.iter().filter(|k| k.name != name).cloned().collect();
        let without = turn_review(&out, others);
        let (a, b) = (with.get(&id).unwrap(), without.get(&id).unwrap());
        eprintln!(
            "mirrored {mirrored}: {id} with {name} {} ({}), without {} ({})",
            a.value, a.detail, b.value, b.detail
        );
        assert!(a.passed && a.value == 0.0, "{a:?}");
        assert!(!b.passed && b.value >= 2.0, "{b:?}");
    }
}
