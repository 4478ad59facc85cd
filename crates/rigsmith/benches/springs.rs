//! Speed of the spring solver as `simulate` runs it: one 60 Hz step (integration,
//! collisions of tails and whole skirt bones settled with the length constraint, the web
//! between the legs, sideways skirt links) under a walk, on the built-in mannequin
//! with skirt and hair (28 chains, 132 joints, 12 colliders) and on the MakeHuman body
//! with its skirt and tights (17 skirt chains of 11 bones, 187 joints, 12 colliders);
//! and a whole 3 s walk report on each.
//!
//! Needs the MakeHuman corpus: `$RIGSMITH_DATA` or `../shared/data/mpfb2` beside the
//! repository.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::humanoid::Roles;
use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::parts::{self, Motion};
use rigsmith::Character;

/// The MakeHuman corpus (`$RIGSMITH_DATA`, else `shared/data/mpfb2` beside the checkout).
fn data() -> PathBuf {
    rigsmith::io::mpfb2::data_dir().expect("MakeHuman corpus missing: set RIGSMITH_DATA")
}

fn prepared(c: Character) -> (Character, parts::Sidecar) {
    let p = rigsmith::rig(&c, &rigsmith::RigOptions::vrm(), &mut |_, _| {}).unwrap();
    (p.character, p.sidecar)
}

fn bench(cr: &mut Criterion) {
    let mannequin = prepared(mannequin::build(&MannequinOptions {
        pose: ArmPose::A,
        skirt: true,
        hair: true,
        ..Default::default()
    }));
    let corpus = Corpus::open(&data()).unwrap();
    let mh = prepared(
        corpus
            .build(&CorpusOptions {
                parts: vec!["body".into(), "skirt".into(), "tights".into()],
                rig: Some("game_engine".into()),
                ..Default::default()
            })
            .unwrap(),
    );
    let mut g = cr.benchmark_group("springs");
    for (name, (c, sc)) in [("mannequin_132", &mannequin), ("makehuman_187", &mh)] {
        let skel = c.skeleton.as_ref().unwrap();
        let roles = Roles::of(skel, None);
        let h = sc.height;
        let poses: Vec<_> = (0..60)
            .map(|k| {
                Motion::Walk
                    .pose(skel, &roles, h, 0.5 + k as f32 / 60.0)
                    .skinning(skel)
            })
            .collect();
        let mut sys = parts::spring_system(c, sc, parts::SpringModel::Fitted).unwrap();
        let mut k = 0usize;
        g.bench_function(format!("step_{name}"), |b| {
            b.iter(|| {
                let mut skin = poses[k % poses.len()].clone();
                sys.step(skel, &mut skin, 1.0 / 60.0);
                k += 1;
                skin
            })
        });
    }
    g.sample_size(10);
    for (name, (c, sc)) in [("mannequin_132", &mannequin), ("makehuman_187", &mh)] {
        g.bench_function(format!("walk_3s_{name}"), |b| {
            b.iter(|| parts::simulate(c, sc, Motion::Walk, 3.0).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
