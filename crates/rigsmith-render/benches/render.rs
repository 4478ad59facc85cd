//! Speed of the renderer on the MakeHuman body (13,380 vertices, 26,756 triangles).
//!
//! ```text
//! cargo bench -p rigsmith-render --bench render
//! ```
//!
//! Target: one 512 x 512 picture of a 13k-vertex character in under 50 ms (release).

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith::io::mpfb2::{self, Corpus, CorpusOptions};
use rigsmith::Character;
use rigsmith_render::{placement_sheet, render, Bones, Camera, DrawPart, RenderOptions, View};

fn body() -> Character {
    let dir = mpfb2::data_dir().expect("the MakeHuman corpus is missing: set RIGSMITH_DATA");
    let corpus = Corpus::open(&dir).expect("open the corpus");
    corpus
        .build(&CorpusOptions::default())
        .expect("build the body")
}

fn bench(cr: &mut Criterion) {
    let c = body();
    let s = c.skeleton.clone().expect("skeleton");
    assert_eq!(c.parts[0].mesh.positions.len(), 13_380);
    let parts = DrawPart::parts_of(&c);
    let (lo, hi) = c.bounds();
    let cam = Camera::frame(View::Front, lo, hi, 512, 512);
    let heads: Vec<_> = s.bones.iter().map(|b| b.head).collect();
    let tails: Vec<_> = s.bones.iter().map(|b| b.tail).collect();
    let parents: Vec<_> = s.bones.iter().map(|b| b.parent).collect();
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &parents,
        highlight: &[],
    };
    let mut g = cr.benchmark_group("render_13k_512");
    g.sample_size(20);
    g.bench_function("shaded", |b| {
        b.iter(|| render(&parts, None, &cam, &RenderOptions::default()))
    });
    let xray = RenderOptions {
        xray: true,
        ..RenderOptions::default()
    };
    g.bench_function("xray_with_bones", |b| {
        b.iter(|| render(&parts, Some(&bones), &cam, &xray))
    });
    g.bench_function("placement_sheet_1024", |b| {
        b.iter(|| placement_sheet(&c, &s, 1024))
    });
    g.bench_function("png_encode_512", |b| {
        let img = render(&parts, None, &cam, &RenderOptions::default());
        b.iter(|| img.to_png_bytes())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
