//! The whole `rig` (model check, fit, weights, chains, review) of one MakeHuman body,
//! welded and cut into pieces (`corpus mpfb2 --split`: head, torso, arms, legs, feet
//! with duplicated seams), and dressed (the pieces plus a shirt, trousers and a hat).
//! Target: a character in pieces costs at most 1.5x the same body welded.
//!
//! Every iteration rigs a fresh copy (its memo of the body emptied), as a user's run
//! would.
//!
//! ```text
//! RIGSMITH_DATA=path/to/mpfb2 cargo bench -p rigsmith --bench rig
//! ```

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rigsmith::io::mpfb2::{data_dir, dress, split_parts, Corpus, CorpusOptions, Garment};
use rigsmith::model::BodyCache;
use rigsmith::pipeline::{rig, RigOptions};
use rigsmith::Character;

fn unrigged(c: &Character) -> Character {
    let mut c = c.clone();
    c.skeleton = None;
    for p in &mut c.parts {
        p.weights = None;
    }
    c.body_cache = BodyCache::default();
    c
}

fn bench(cr: &mut Criterion) {
    let dir = data_dir().expect("the MakeHuman corpus (set RIGSMITH_DATA)");
    let corpus = Corpus::open(&dir).expect("corpus");
    let body = corpus.build(&CorpusOptions::default()).expect("base body");
    let split = split_parts(&body).expect("split").character;
    let dressed = split_parts(
        &dress(&body, &[Garment::Shirt, Garment::Trousers, Garment::Hat]).expect("dress"),
    )
    .expect("split dressed")
    .character;
    let cases = [
        ("welded", unrigged(&body)),
        ("split", unrigged(&split)),
        ("split_dressed", unrigged(&dressed)),
    ];
    let mut g = cr.benchmark_group("rig");
    g.sample_size(10);
    for (name, c) in &cases {
        let n = c.vertex_count();
        g.bench_function(format!("{name}_{n}v"), |b| {
            b.iter_batched(
                || unrigged(c),
                |c| rig(&c, &RigOptions::default(), &mut |_, _| {}).unwrap(),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
