//! The neck's blend: the chin, the lips and the throat follow the head as an artist
//! paints them, so the head poses leave the collar and the chin clear.

use std::sync::OnceLock;

use rigsmith::deform::neck_blend::NeckBlend;
use rigsmith::humanoid::Roles;
use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::review::{check, CheckOptions};
use rigsmith::{Influence, RigOptions, RigOutput, Rigged};

use crate::common;

/// The MakeHuman `male` body rigged here (its artist rig replaced), with the review.
fn male() -> &'static RigOutput {
    static R: OnceLock<RigOutput> = OnceLock::new();
    R.get_or_init(|| {
        let corpus = Corpus::open(&common::mpfb2_dir()).expect("open corpus");
        let c = corpus
            .build(&CorpusOptions {
                variant: Some("male".into()),
                ..Default::default()
            })
            .expect("build male");
        let o = RigOptions {
            rigged: Rigged::Replace,
            ..RigOptions::default()
        };
        rigsmith::rig(&c, &o, &mut |_, _| {}).expect("rig male")
    })
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
