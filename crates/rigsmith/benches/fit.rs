//! Fitting speed on the MakeHuman base body (13,380 vertices): landmarks alone, and the
//! whole fit (landmarks, `game` template, placement checks). Target: fit < 100 ms.
//!
//! ```text
//! RIGSMITH_DATA=path/to/mpfb2 cargo bench -p rigsmith --bench fit
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::fit::{find_landmarks, fit, FitOptions, LandmarkOptions};
use rigsmith::io::mpfb2::{data_dir, Corpus, CorpusOptions};

fn bench(c: &mut Criterion) {
    let dir = data_dir().expect("the MakeHuman corpus (set RIGSMITH_DATA)");
    let corpus = Corpus::open(&dir).expect("corpus");
    let body = corpus
        .build(&CorpusOptions {
            rig: None,
            ..Default::default()
        })
        .expect("base body");
    let mut g = c.benchmark_group("fit");
    g.sample_size(20);
    g.bench_function("landmarks_base_13k", |b| {
        b.iter(|| find_landmarks(&body, &LandmarkOptions::default()).unwrap())
    });
    g.bench_function("fit_game_base_13k", |b| {
        b.iter(|| fit(&body, &FitOptions::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
