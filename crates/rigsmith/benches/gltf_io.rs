//! glTF reading and writing speed on the largest Quaternius character (men_Casual:
//! 10 parts, 12,516 vertices, 49 joints) and its inspect report.
//!
//! `cargo bench -p rigsmith --bench gltf_io`

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::io::gltf::{read_gltf_bytes, write_glb_bytes, WriteOptions};

fn casual() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/quaternius/men_Casual.glb")
}

fn bench(c: &mut Criterion) {
    let path = casual();
    let bytes = std::fs::read(&path).expect("read men_Casual.glb");
    let ch = read_gltf_bytes(&bytes, &path).unwrap();
    let out = write_glb_bytes(&ch, &WriteOptions::default()).unwrap();
    let mut g = c.benchmark_group("gltf_io");
    g.sample_size(20);
    g.bench_function("read_casual_glb", |b| {
        b.iter(|| read_gltf_bytes(&bytes, &path).unwrap())
    });
    g.bench_function("write_casual_glb", |b| {
        b.iter(|| write_glb_bytes(&ch, &WriteOptions::default()).unwrap())
    });
    g.bench_function("read_written_glb", |b| {
        b.iter(|| read_gltf_bytes(&out, &path).unwrap())
    });
    g.bench_function("inspect_casual", |b| {
        b.iter(|| rigsmith::inspect::inspect(&ch))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
