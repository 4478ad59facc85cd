//! Binds a MakeHuman body with its `game_engine` skeleton and writes what the
//! weights benchmark compares: the mesh (OBJ), the skeleton (skeleton.json), rigsmith's
//! weights and the artist weights (`{bone: [[vertex, weight], ...]}`) and the timing.
//!
//! ```text
//! cargo run -p rigsmith --release --example bind_mpfb2 -- \
//!     --data ../shared/data/mpfb2 --variant baby --scale 1 --subdiv 0 --out /tmp/b
//! ```

#[path = "bind_support/mh.rs"]
mod mh;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use rigsmith::bind::{bind, BindOptions};
use rigsmith::{Character, Part, Skeleton, Weights};

fn weights_json(s: &Skeleton, w: &Weights) -> serde_json::Value {
    let mut m: BTreeMap<String, Vec<(usize, f32)>> = BTreeMap::new();
    for (v, l) in w.vertices.iter().enumerate() {
        for i in l {
            m.entry(s.bones[i.bone as usize].name.clone())
                .or_default()
                .push((v, i.weight));
        }
    }
    serde_json::json!({ "weights": m })
}

fn main() {
    let mut data = PathBuf::from("../shared/data/mpfb2");
    let mut variant = "base".to_string();
    let mut scale = 1.0f32;
    let mut subdiv = 0;
    let mut out = PathBuf::from("target/bind_mpfb2");
    let mut repeat = 1;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i + 1 < args.len() {
        let v = &args[i + 1];
        match args[i].as_str() {
            "--data" => data = v.into(),
            "--variant" => variant = v.clone(),
            "--scale" => scale = v.parse().expect("scale"),
            "--subdiv" => subdiv = v.parse().expect("subdiv"),
            "--out" => out = v.into(),
            "--repeat" => repeat = v.parse().expect("repeat"),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    std::fs::create_dir_all(&out).unwrap();
    let base = mh::variant(&data, &variant);
    let mut s = base.skeleton(&data, "game_engine");
    let mut mesh = base.body();
    let mut artist = mh::artist_weights(&data, "game_engine", &s, mh::BODY);
    for _ in 0..subdiv {
        let (m, w) = mh::subdivide(&mesh, Some(&artist));
        mesh = m;
        artist = w.unwrap();
    }
    for p in &mut mesh.positions {
        *p *= scale;
    }
    for b in &mut s.bones {
        b.head *= scale;
        b.tail *= scale;
    }
    let c = Character {
        parts: vec![Part {
            name: "body".into(),
            mesh: mesh.clone(),
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut best = f64::INFINITY;
    let mut r = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let res = bind(&c, &s, &BindOptions::default()).expect("bind");
        best = best.min(t.elapsed().as_secs_f64());
        r = Some(res);
    }
    let r = r.unwrap();
    eprintln!(
        "{variant} x{scale} subdiv {subdiv}: {} vertices, {:.3} s, route {:?}, unweighted {}, empty major {:?}, mirror {:?}",
        mesh.positions.len(),
        best,
        r.route,
        r.report.unweighted,
        r.report.empty_major,
        r.report.mirror_err
    );
    for line in &r.reasons {
        eprintln!("  {line}");
    }
    let stages: Vec<String> = r
        .stages
        .iter()
        .map(|(n, t)| format!("{n} {:.3}", t))
        .collect();
    eprintln!("  stages (s, last run): {}", stages.join(", "));
    let mut obj = String::new();
    for p in &mesh.positions {
        writeln!(obj, "v {} {} {}", p.x, p.y, p.z).unwrap();
    }
    for t in &mesh.triangles {
        writeln!(obj, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).unwrap();
    }
    std::fs::write(out.join("mesh.obj"), obj).unwrap();
    rigsmith::io::skeleton_json::write(&out.join("skeleton.json"), &s).unwrap();
    let w = r.weights[0].clone().unwrap();
    std::fs::write(
        out.join("rigsmith_weights.json"),
        weights_json(&s, &w).to_string(),
    )
    .unwrap();
    std::fs::write(
        out.join("artist_weights.json"),
        weights_json(&s, &artist).to_string(),
    )
    .unwrap();
    let info = serde_json::json!({
        "variant": variant, "scale": scale, "subdiv": subdiv,
        "vertices": mesh.positions.len(), "seconds": best,
        "route": r.route, "reasons": r.reasons, "report": r.report,
        "stages": r.stages,
    });
    std::fs::write(
        out.join("rigsmith.json"),
        serde_json::to_string_pretty(&info).unwrap(),
    )
    .unwrap();
}
