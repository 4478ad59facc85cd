//! Re-weights a rigged character with its own skeleton and writes what the re-weighting
//! benchmark (`bench/reweight.sh`) compares: every part's mesh as one OBJ with an `o`
//! line per part, `parts.json` (each part's name and first vertex in the OBJ), the
//! character's own skeleton (`skeleton.json`), its own weights as the reference
//! (`artist_weights.json`), rigsmith's weights computed with those weights stripped
//! (`rigsmith_weights.json`, `{bone: [[vertex, weight], ...]}`, vertex = OBJ index),
//! the same with the geodesic route forced (`geodesic_weights.json`), the timings and
//! routes (`rigsmith.json`), and `roles.json`: which of the skeleton's
//! bones the test poses move (upper arm, forearm, thigh, calf of each side, the middle
//! spine bone, the head), found by the body regions of the bone names. A four-legged
//! skeleton ([`rigsmith::pose::quadruped::QuadRoles`]) gets `poses.json` instead: the
//! quadruped pose library's skinning matrices, `{"bones": [names], "poses": {pose:
//! [[16 floats, column-major] per bone]}}`, which the comparison uses in place of the biped poses.
//!
//! ```text
//! cargo run -p rigsmith --release --example reweight_case -- IN.glb OUT_DIR [REPEAT]
//! ```
//!
//! `GEODESIC=alpha,exponent,reach,margin[,past_end]` sets the geodesic route's falloff (default:
//! [`rigsmith::bind::geodesic::GeodesicOptions::default`]); `ROUTE=volumetric` (or
//! `bone-heat`) forces that route instead of the geodesic one in `geodesic_weights.json`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use rigsmith::bind::geodesic::GeodesicOptions;
use rigsmith::bind::{bind, BindOptions, Route};
use rigsmith::io::mpfb2::split::{bone_region, BodySegment};
use rigsmith::{Side, Skeleton, Weights};

fn push_weights(
    m: &mut BTreeMap<String, Vec<(usize, f32)>>,
    s: &Skeleton,
    w: &Weights,
    start: usize,
) {
    for (v, l) in w.vertices.iter().enumerate() {
        for i in l {
            if i.weight > 0.0 {
                m.entry(s.bones[i.bone as usize].name.clone())
                    .or_default()
                    .push((start + v, i.weight));
            }
        }
    }
}

/// The first weighted bone (parents first) of a limb segment on a side: the root of
/// that segment's chain.
fn first(s: &Skeleton, weighted: &[bool], limb: BodySegment, side: Side) -> Option<String> {
    s.bones
        .iter()
        .zip(weighted)
        .find(|(b, &w)| {
            let r = bone_region(&b.name);
            w && r.limb == limb && r.side == side
        })
        .map(|(b, _)| b.name.clone())
}

/// The bones the poses move; `weighted[b]`: bone `b` has artist weights somewhere.
fn roles(s: &Skeleton, weighted: &[bool]) -> BTreeMap<&'static str, String> {
    let find = |limb, side| first(s, weighted, limb, side);
    let mut m = BTreeMap::new();
    let mut put = |k: &'static str, v: Option<String>| {
        if let Some(v) = v {
            m.insert(k, v);
        }
    };
    put("upperarm_l", find(BodySegment::UpperArm, Side::Left));
    put("lowerarm_l", find(BodySegment::LowerArm, Side::Left));
    put("thigh_l", find(BodySegment::Thigh, Side::Left));
    put("thigh_r", find(BodySegment::Thigh, Side::Right));
    put("calf_l", find(BodySegment::Calf, Side::Left));
    put("calf_r", find(BodySegment::Calf, Side::Right));
    // The head: the first weighted head-region bone whose name says head.
    let head = s
        .bones
        .iter()
        .zip(weighted)
        .find(|(b, &w)| {
            w && bone_region(&b.name).limb == BodySegment::Head
                && rigsmith::model::naming::split_side(&b.name)
                    .0
                    .contains("head")
        })
        .map(|(b, _)| b.name.clone());
    put("head", head);
    // The middle spine bone: of the weighted centre chest-region bones among the head's
    // ancestors, the middle one (root first).
    if let Some(h) = m.get("head").and_then(|h| s.find(h)) {
        let mut chain = Vec::new();
        let mut p = s.bones[h].parent;
        while let Some(i) = p {
            let b = &s.bones[i];
            let r = bone_region(&b.name);
            if weighted[i] && r.limb == BodySegment::Chest && r.side == Side::Center {
                chain.push(i);
            }
            p = b.parent;
        }
        chain.reverse(); // root first
        if !chain.is_empty() {
            let mid = chain[chain.len() / 2];
            m.insert("spine_02", s.bones[mid].name.clone());
        }
    }
    m
}

/// For a four-legged skeleton: marks the bones outside its main tree as non-deform and
/// returns `(bone, followed)` pairs ([`rigsmith::pose::quadruped::controls_following`]).
/// Empty for other skeletons.
fn follow_bones(s: &mut Skeleton) -> Vec<(usize, usize)> {
    let pairs = rigsmith::pose::quadruped::controls_following(s);
    for &(i, j) in &pairs {
        eprintln!("control {} follows {}", s.bones[i].name, s.bones[j].name);
        s.bones[i].deform = false;
    }
    pairs
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: reweight_case IN.glb OUT_DIR [REPEAT]");
        std::process::exit(2);
    }
    let input = PathBuf::from(&args[0]);
    let out = PathBuf::from(&args[1]);
    let repeat: usize = args.get(2).map_or(1, |r| r.parse().expect("repeat"));
    std::fs::create_dir_all(&out).unwrap();
    let c = rigsmith::io::read_character(&input).expect("read character");
    let mut s = c.skeleton.clone().expect("the character has no skeleton");
    // A four-legged rig: bones outside its main tree (IK foot controls, which the
    // artist weighted the paws to) are controls, not deform bones; in the poses they
    // follow the nearest bone of the main tree (the IK target snapped to the FK foot).
    let follow = follow_bones(&mut s);
    let mut stripped = c.clone();
    for p in &mut stripped.parts {
        p.weights = None;
    }
    let mut best = f64::INFINITY;
    let mut r = None;
    for _ in 0..repeat {
        let t = Instant::now();
        let res = bind(&stripped, &s, &BindOptions::default()).expect("bind");
        best = best.min(t.elapsed().as_secs_f64());
        r = Some(res);
    }
    let r = r.unwrap();
    let mut go = GeodesicOptions::default();
    if let Ok(v) = std::env::var("GEODESIC") {
        let x: Vec<f32> = v.split(',').map(|t| t.parse().expect("GEODESIC")).collect();
        go = GeodesicOptions {
            alpha: x[0],
            exponent: x[1],
            reach: x[2],
            margin: x[3],
            past_end: x.get(4).copied().unwrap_or(1.0),
        };
    }
    let t = Instant::now();
    let geo = bind(
        &stripped,
        &s,
        &BindOptions {
            force_route: Some(match std::env::var("ROUTE").as_deref() {
                Ok("volumetric") => Route::Volumetric,
                Ok("bone-heat") => Route::BoneHeat,
                _ => Route::Geodesic,
            }),
            geodesic: go,
            ..Default::default()
        },
    )
    .expect("bind, geodesic route");
    let geo_seconds = t.elapsed().as_secs_f64();

    let mut obj = String::new();
    let mut parts = Vec::new();
    let mut artist = BTreeMap::new();
    let mut ours = BTreeMap::new();
    let mut geodesic = BTreeMap::new();
    let mut start = 0usize;
    let mut unweighted_artist = 0;
    for (k, p) in c.parts.iter().enumerate() {
        writeln!(obj, "o {}", p.name).unwrap();
        for v in &p.mesh.positions {
            writeln!(obj, "v {} {} {}", v.x, v.y, v.z).unwrap();
        }
        for t in &p.mesh.triangles {
            let [a, b, d] = t.map(|i| i as usize + start + 1);
            writeln!(obj, "f {a} {b} {d}").unwrap();
        }
        match &p.weights {
            Some(w) => push_weights(&mut artist, &s, w, start),
            None => unweighted_artist += p.mesh.positions.len(),
        }
        if let Some(w) = &r.weights[k] {
            push_weights(&mut ours, &s, w, start);
        }
        if let Some(w) = &geo.weights[k] {
            push_weights(&mut geodesic, &s, w, start);
        }
        parts.push(serde_json::json!({
            "name": p.name, "start": start, "count": p.mesh.positions.len(),
            "role": r.part_roles.get(k),
        }));
        start += p.mesh.positions.len();
    }
    std::fs::write(out.join("mesh.obj"), obj).unwrap();
    rigsmith::io::skeleton_json::write(&out.join("skeleton.json"), &s).unwrap();
    let wj =
        |m: &BTreeMap<String, Vec<(usize, f32)>>| serde_json::json!({ "weights": m }).to_string();
    std::fs::write(out.join("artist_weights.json"), wj(&artist)).unwrap();
    std::fs::write(out.join("rigsmith_weights.json"), wj(&ours)).unwrap();
    std::fs::write(out.join("geodesic_weights.json"), wj(&geodesic)).unwrap();
    std::fs::write(
        out.join("parts.json"),
        serde_json::to_string_pretty(&parts).unwrap(),
    )
    .unwrap();
    let mut weighted = vec![false; s.len()];
    for p in &c.parts {
        for l in p.weights.iter().flat_map(|w| &w.vertices) {
            for i in l {
                if i.weight > 0.0 {
                    weighted[i.bone as usize] = true;
                }
            }
        }
    }
    if let Some((lib, skipped)) = rigsmith::pose::quadruped::quadruped_library(&s) {
        let mut m = serde_json::Map::new();
        for np in &lib {
            let mut pm = rigsmith::pose::posed_matrices(&s, &np.pose);
            for &(i, j) in &follow {
                pm[i] = pm[j];
            }
            let mats: Vec<Vec<f32>> = pm.iter().map(|x| x.to_cols_array().to_vec()).collect();
            m.insert(np.name.clone(), serde_json::json!(mats));
        }
        std::fs::write(
            out.join("poses.json"),
            serde_json::to_string(&serde_json::json!({
                "bones": s.bones.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
                "poses": m,
                "skipped": skipped
            }))
            .unwrap(),
        )
        .unwrap();
        eprintln!(
            "quadruped: {} poses ({}), skipped {:?}",
            lib.len(),
            lib.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            skipped
        );
    }
    let roles = roles(&s, &weighted);
    std::fs::write(
        out.join("roles.json"),
        serde_json::to_string_pretty(&roles).unwrap(),
    )
    .unwrap();
    let info = serde_json::json!({
        "input": input, "vertices": start, "seconds": best,
        "route": r.route, "reasons": r.reasons, "report": r.report,
        "artist_unweighted_parts_vertices": unweighted_artist,
        "geodesic_seconds": geo_seconds, "geodesic_reasons": geo.reasons,
        "geodesic_unweighted": geo.report.unweighted,
    });
    std::fs::write(
        out.join("rigsmith.json"),
        serde_json::to_string_pretty(&info).unwrap(),
    )
    .unwrap();
    eprintln!(
        "{}: {} parts, {} vertices, {:.3} s, route {:?}, unweighted {}; geodesic {:.3} s, unweighted {}; roles {:?}",
        input.display(),
        c.parts.len(),
        start,
        best,
        r.route,
        r.report.unweighted,
        geo_seconds,
        geo.report.unweighted,
        roles
    );
}
