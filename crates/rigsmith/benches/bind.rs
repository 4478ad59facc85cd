//! Criterion bench of the binder on the MakeHuman body (13,380 vertices, 52 deform
//! bones): the whole `bind` (bone heat route) and bone heat alone.
//! Needs the corpus (`RIGSMITH_DATA` or `../shared/data/mpfb2`).

#[path = "../examples/bind_support/mh.rs"]
mod mh;

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::bind::{bind, BindOptions};
use rigsmith::{Character, Part};

/// The MakeHuman corpus (`$RIGSMITH_DATA`, else `shared/data/mpfb2` beside the checkout).
fn corpus() -> PathBuf {
    rigsmith::io::mpfb2::data_dir().expect("MakeHuman corpus missing: set RIGSMITH_DATA")
}

fn bench(c: &mut Criterion) {
    let dir = corpus();
    let base = mh::base(&dir);
    let s = base.skeleton(&dir, "game_engine");
    let ch = Character {
        parts: vec![Part {
            name: "body".into(),
            mesh: base.body(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut g = c.benchmark_group("bind");
    g.sample_size(10);
    g.bench_function("makehuman_body_13k", |b| {
        b.iter(|| bind(&ch, &s, &BindOptions::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
