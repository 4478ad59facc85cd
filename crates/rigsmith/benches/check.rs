//! Speed of the rubric check on the MakeHuman body (13,380 vertices, 53 bones, artist
//! weights): the full default library with every number, LBS and DQS; and the pieces
//! (posing + skinning one pose, the rest self-intersection pass).
//!
//! Needs the MakeHuman corpus: `$RIGSMITH_DATA` or `../shared/data/mpfb2` beside the
//! repository.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::pose::{default_library, posed_matrices, skin_lbs};
use rigsmith::review::{check, intersect, CheckOptions, Skinning};

#[path = "../tests/it/review/mh.rs"]
mod mh;

/// The MakeHuman corpus (`$RIGSMITH_DATA`, else `shared/data/mpfb2` beside the checkout).
fn data() -> PathBuf {
    rigsmith::io::mpfb2::data_dir().expect("MakeHuman corpus missing: set RIGSMITH_DATA")
}

fn bench(c: &mut Criterion) {
    let ch = mh::character(&data(), "game_engine");
    let mut g = c.benchmark_group("check");
    g.sample_size(10);
    g.bench_function("full_lbs_13k", |b| {
        b.iter(|| check(&ch, &CheckOptions::default()).unwrap())
    });
    g.bench_function("full_dqs_13k", |b| {
        b.iter(|| {
            check(
                &ch,
                &CheckOptions {
                    skinning: Skinning::Dqs,
                    ..CheckOptions::default()
                },
            )
            .unwrap()
        })
    });
    let s = ch.skeleton.as_ref().unwrap();
    let (lib, _) = default_library(s);
    let part = &ch.parts[0];
    g.bench_function("pose_and_skin_one_pose_13k", |b| {
        b.iter(|| {
            let m = posed_matrices(s, &lib[4].pose);
            skin_lbs(&part.mesh.positions, part.weights.as_ref().unwrap(), &m)
        })
    });
    g.bench_function("rest_self_intersections_26k_tris", |b| {
        b.iter(|| intersect::intersecting_pairs(&part.mesh.positions, &part.mesh.triangles, None))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
