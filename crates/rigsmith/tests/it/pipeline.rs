//! The one-call pipeline (`rigsmith::pipeline::rig`) on every named MakeHuman variant
//! and on the mannequin in T and A pose.

use rigsmith::fit::Template;
use rigsmith::io::mpfb2::{BuildOptions, Corpus, VARIANTS};
use rigsmith::mannequin::{self, MannequinOptions, Pose};
use rigsmith::pipeline::{rig, RigOptions};

use crate::common::mpfb2_dir;

#[test]
fn issue6_every_variant_and_the_mannequin_rig_without_blocker() {
    let corpus = Corpus::open(&mpfb2_dir()).unwrap();
    let parts: Vec<String> = ["body", "eyes", "teeth", "tights", "skirt"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut cases = Vec::new();
    for v in VARIANTS {
        let o = BuildOptions {
            variant: Some(v.name.into()),
            rig: None,
            parts: parts.clone(),
            ..BuildOptions::default()
        };
        cases.push((v.name.to_string(), corpus.build(&o).unwrap()));
    }
    for (name, pose) in [("mannequin T", Pose::T), ("mannequin A", Pose::A)] {
        cases.push((
            name.into(),
            mannequin::build(&MannequinOptions {
                pose,
                ..MannequinOptions::default()
            }),
        ));
    }
    assert!(cases.len() >= 16);
    let opts = RigOptions {
        self_intersections: false,
        ..RigOptions::default()
    };
    for (name, c) in &cases {
        let out = rig(c, &opts, &mut |_, _| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        let k = out.counts();
        let blockers: Vec<_> = out
            .review
            .as_ref()
            .unwrap()
            .checks
            .iter()
            .filter(|k| !k.passed && k.severity == rigsmith::Severity::Blocker)
            .map(|k| k.id.clone())
            .collect();
        assert_eq!(k.blocker, 0, "{name}: blockers {blockers:?}");
        let rc = &out.character;
        // Parts, vertex order and count preserved; every vertex weighted.
        assert_eq!(rc.parts.len(), c.parts.len(), "{name}");
        for (a, b) in rc.parts.iter().zip(&c.parts) {
            assert_eq!(a.name, b.name);
            assert_eq!(a.mesh.positions.len(), b.mesh.positions.len());
            let w = a
                .weights
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: part {} unweighted", a.name));
            assert!(
                w.vertices.iter().all(|l| !l.is_empty() && l.len() <= 4),
                "{name}: part {}",
                a.name
            );
        }
        // The skirt got chains of its own and no leg weight.
        if let Some(skirt) = rc.parts.iter().find(|p| p.name == "skirt") {
            let s = rc.skeleton.as_ref().unwrap();
            let legs: Vec<usize> = ["thigh_l", "thigh_r", "calf_l", "calf_r"]
                .iter()
                .filter_map(|n| s.find(n))
                .collect();
            let on_legs: f32 = skirt
                .weights
                .as_ref()
                .unwrap()
                .vertices
                .iter()
                .flatten()
                .filter(|i| legs.contains(&(i.bone as usize)))
                .map(|i| i.weight)
                .sum();
            assert_eq!(on_legs, 0.0, "{name}: skirt weighted to legs");
            assert!(
                out.chains.iter().any(|ch| ch.class == "skirt"),
                "{name}: no skirt chain"
            );
        }
    }
}

#[test]
fn vrm_template_gives_a_complete_humanoid_map() {
    let c = mannequin::build(&MannequinOptions::default());
    let out = rig(
        &c,
        &RigOptions {
            template: Template::Vrm,
            review: false,
            ..RigOptions::default()
        },
        &mut |_, _| {},
    )
    .unwrap();
    // Every bone VRM 1.0 requires, plus the chest and neck the template also maps.
    let required = rigsmith::io::vrm_write::REQUIRED_BONES
        .iter()
        .chain(&["chest", "neck"]);
    let s = out.character.skeleton.as_ref().unwrap();
    for r in required {
        let bone = out
            .humanoid
            .get(*r)
            .unwrap_or_else(|| panic!("humanoid map lacks {r}"));
        assert!(s.find(bone).is_some(), "{r} -> {bone} is not a bone");
    }
    assert!(out.humanoid.len() >= 50, "{}", out.humanoid.len());
    // The rigged file passes the Khronos validator and reads back with its weights.
    let dir = crate::common::tmpdir();
    let glb = dir.path().join("vrm_template.glb");
    rigsmith::io::write_character(&glb, &out.character, &Default::default()).unwrap();
    let (errors, _) = crate::common::validate_gltf(&glb);
    assert_eq!(errors, 0);
    let back = rigsmith::io::read_character(&glb).unwrap();
    assert_eq!(back.skeleton.as_ref().unwrap().len(), s.len());
    assert!(back.parts.iter().all(|p| p.weights.is_some()));
}

#[test]
fn already_rigged_is_refused_and_empty_is_an_error() {
    let corpus = Corpus::open(&mpfb2_dir()).unwrap();
    let c = corpus.build(&BuildOptions::default()).unwrap();
    let e = rig(&c, &RigOptions::default(), &mut |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("already rigged"), "{e}");
    let e = rig(
        &rigsmith::Character::default(),
        &RigOptions::default(),
        &mut |_, _| {},
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("no mesh"), "{e}");
}

#[test]
fn check_runs_the_cloth_rules_on_a_rig_with_a_skirt() {
    let c = mannequin::build(&MannequinOptions {
        skirt: true,
        ..MannequinOptions::default()
    });
    let out = rig(
        &c,
        &RigOptions {
            review: false,
            ..RigOptions::default()
        },
        &mut |_, _| {},
    )
    .unwrap();
    let opts = rigsmith::review::CheckOptions {
        self_intersections: false,
        library: Some(Vec::new()),
        ..Default::default()
    };
    let clean = rigsmith::review::check(&out.character, &opts).unwrap();
    let id = "parts.cloth_on_leg";
    let k = clean
        .checks
        .iter()
        .find(|k| k.id == id)
        .expect("check runs the cloth rules");
    assert!(k.passed, "{k:?}");
    // The rule's positive controls (a skirt skinned to a thigh, cloth parented to a leg,
    // a joined garment) are in `parts.rs`.
}

#[test]
fn mannequin_with_skirt_and_hair_is_fully_weighted() {
    let c = mannequin::build(&MannequinOptions {
        skirt: true,
        hair: true,
        ..MannequinOptions::default()
    });
    let out = rig(
        &c,
        &RigOptions {
            review: false,
            ..RigOptions::default()
        },
        &mut |_, _| {},
    )
    .unwrap();
    for p in &out.character.parts {
        let w = p.weights.as_ref().unwrap();
        let empty = w.vertices.iter().filter(|l| l.is_empty()).count();
        assert_eq!(
            empty,
            0,
            "part {} has {empty} unweighted vertices of {}",
            p.name,
            w.len()
        );
    }
    assert!(
        out.chains.iter().any(|c| c.class == "skirt")
            && out.chains.iter().any(|c| c.class == "hair")
    );
}
