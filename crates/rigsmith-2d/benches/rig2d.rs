//! Speed of the 2D rig stages on the sample character and on a large generated rig.
//!
//! `cargo bench -p rigsmith-2d --bench rig2d`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use rigsmith_2d::art::PartProbe;
use rigsmith_2d::build::{build_rig, BuildOptions};
use rigsmith_2d::check::check;
use rigsmith_2d::render::{render, Pose, RenderOptions};
use rigsmith_2d::spine::{export_spine, import_spine};
use rigsmith_2d::RigDocument;
use serde_json::json;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A rig of `n` bones in chains of 8 (bones nesting), one slot per bone.
fn big_rig(n: usize) -> RigDocument {
    let bones: Vec<_> = (0..n)
        .map(|i| {
            let mut b = json!({"name": format!("b{i}"), "x": 3.0, "y": -10.0, "rotation_deg": 2.0});
            if i % 8 != 0 {
                b["parent"] = json!(format!("b{}", i - 1));
            } else {
                b["x"] = json!(512.0 + i as f64);
                b["y"] = json!(900.0);
            }
            b
        })
        .collect();
    let slots: Vec<_> = (0..n)
        .map(|i| json!({"name": format!("b{i}"), "bone": format!("b{i}"), "draw_order": i}))
        .collect();
    RigDocument::from_value(&json!({"nesting": "bones", "bones": bones, "slots": slots})).unwrap()
}

fn benches(c: &mut Criterion) {
    let dir = fixtures().join("kit");
    let (kit, _) = RigDocument::read(&dir.join("rig.json")).unwrap();
    let probe = PartProbe {
        root: dir.clone(),
        prefix: "characters/kit/".into(),
    };
    let opts = BuildOptions {
        probe: Some(probe.clone()),
        ..BuildOptions::default()
    };
    let scene = build_rig("kit", &kit, &opts).unwrap().to_value();
    let pose = Pose::parse(br#"{"bones": {"arm_upper_r": {"rotation_deg": 60}}}"#).unwrap();
    let spine = std::fs::read(fixtures().join("spine/hero.json")).unwrap();
    let big = big_rig(1000);

    c.bench_function("kit/check", |b| b.iter(|| check(black_box(&kit))));
    c.bench_function("kit/build (probing 11 art files)", |b| {
        b.iter(|| build_rig("kit", black_box(&kit), &opts).unwrap())
    });
    c.bench_function("kit/render 512px", |b| {
        b.iter(|| render(black_box(&scene), &probe, &pose, &RenderOptions::default()).unwrap())
    });
    c.bench_function("spine/import+export hero", |b| {
        b.iter(|| {
            let (d, _) = import_spine(black_box(&spine)).unwrap();
            export_spine(&d, None).unwrap()
        })
    });
    c.bench_function("big1000/check", |b| b.iter(|| check(black_box(&big))));
    c.bench_function("big1000/build (no art)", |b| {
        b.iter(|| build_rig("big", black_box(&big), &BuildOptions::default()).unwrap())
    });
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = benches
}
criterion_main!(group);
