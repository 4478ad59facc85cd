//! The MakeHuman corpus: body, parts, variants, artist skeletons and weights.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use glam::Vec3;
use rigsmith::io::mpfb2::{self, Corpus, CorpusOptions, VARIANTS};
use rigsmith::{Character, Weights};

use crate::common;
use crate::mannequin::{components, winding};

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| Corpus::open(&common::mpfb2_dir()).expect("open corpus"))
}

fn base() -> &'static Character {
    static C: OnceLock<Character> = OnceLock::new();
    C.get_or_init(|| {
        corpus()
            .build(&CorpusOptions::default())
            .expect("build base")
    })
}

/// The artist weights read independently from the file: per body vertex, bone name ->
/// normalized weight.
fn artist_body_weights(rig: &str) -> Vec<BTreeMap<String, f64>> {
    let path = common::mpfb2_dir().join(format!("rigs/standard/weights.{rig}.json"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = vec![BTreeMap::new(); mpfb2::BODY_VERTICES];
    for (bone, list) in v["weights"].as_object().unwrap() {
        for e in list.as_array().unwrap() {
            let (i, w) = (e[0].as_u64().unwrap() as usize, e[1].as_f64().unwrap());
            if i < mpfb2::BODY_VERTICES && w > 0.0 {
                *out[i].entry(bone.clone()).or_insert(0.0) += w;
            }
        }
    }
    for m in &mut out {
        let s: f64 = m.values().sum();
        m.values_mut().for_each(|w| *w /= s);
    }
    out
}

/// Number of vertices whose weights differ from the artist's (a bone missing or extra,
/// or a weight off by more than `tol`).
fn weight_mismatches(
    c: &Character,
    w: &Weights,
    truth: &[BTreeMap<String, f64>],
    tol: f64,
) -> usize {
    let s = c.skeleton.as_ref().unwrap();
    let mut bad = 0;
    for (v, want) in truth.iter().enumerate() {
        let got: BTreeMap<String, f64> = w.vertices[v]
            .iter()
            .map(|i| (s.bones[i.bone as usize].name.clone(), i.weight as f64))
            .collect();
        let same = got.len() == want.len()
            && want
                .iter()
                .all(|(b, x)| got.get(b).is_some_and(|y| (x - y).abs() <= tol));
        if !same {
            bad += 1;
        }
    }
    bad
}

#[test]
fn base_body_has_the_game_engine_rig() {
    let c = base();
    c.validate().unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.parts.len(), 1);
    let body = &c.parts[0];
    assert_eq!(
        (body.name.as_str(), body.material.as_deref()),
        ("body", Some("skin"))
    );
    assert_eq!(body.mesh.positions.len(), 13_380);
    assert!(
        body.mesh.triangles.len() > 26_000,
        "{}",
        body.mesh.triangles.len()
    );
    // Vertex order is the base mesh's: vertex i is base vertex i, converted.
    let base = corpus().base_positions_obj();
    let floor = base[..13_380]
        .iter()
        .map(|p| p.y)
        .fold(f32::INFINITY, f32::min);
    for i in [0usize, 777, 13_379] {
        let want = Vec3::new(base[i].x, base[i].y - floor, base[i].z) * 0.1;
        assert!((body.mesh.positions[i] - want).length() < 1e-6);
    }
    let (lo, hi) = body.mesh.bounds();
    assert!(lo.y.abs() < 1e-7);
    assert!((hi.y - 1.666).abs() < 0.01, "base height {}", hi.y);
    // 53 bones named as the rig file.
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(s.len(), 53);
    let rig: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::mpfb2_dir().join("rigs/standard/rig.game_engine.json"))
            .unwrap(),
    )
    .unwrap();
    let mut want: Vec<&str> = rig
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut got: Vec<&str> = s.bones.iter().map(|b| b.name.as_str()).collect();
    want.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, want);
    // Parents as in the file.
    let thigh = &s.bones[s.find("thigh_l").unwrap()];
    assert_eq!(s.bones[thigh.parent.unwrap()].name, "pelvis");
    // The root carries no weights: not a deform bone.
    assert!(!s.bones[s.find("Root").unwrap()].deform);
    assert_eq!(s.deform_bones().len(), 52);
}

#[test]
fn body_weights_equal_the_artist_file() {
    let c = base();
    let w = c.parts[0].weights.as_ref().unwrap();
    let truth = artist_body_weights("game_engine");
    assert_eq!(weight_mismatches(c, w, &truth, 1e-3), 0);
    // Every influence kept: up to 6 a vertex.
    assert_eq!(w.max_influences(), 6);
    assert_eq!(w.vertices.iter().filter(|l| l.len() > 4).count(), 608);
    // Positive control: limiting to 4 influences breaks the equality on those vertices.
    let mut four = w.clone();
    four.limit(4);
    assert_eq!(weight_mismatches(c, &four, &truth, 1e-3), 608);
}

#[test]
fn skeleton_follows_the_body_variant_and_sits_inside_it() {
    for v in ["base", "female", "heavy", "child", "baby"] {
        let c = corpus()
            .build(&CorpusOptions {
                variant: Some(v.into()),
                ..Default::default()
            })
            .unwrap();
        let s = c.skeleton.as_ref().unwrap();
        let body = &c.parts[0].mesh;
        let (_, hi) = body.bounds();
        let mut outside = 0;
        for b in &s.bones {
            if b.name == "Root" {
                continue;
            }
            // Inside, or (the toe joints of a baby) within 1 % of the height of the skin.
            let w = winding(body, b.head);
            let gap = body
                .positions
                .iter()
                .map(|p| p.distance(b.head))
                .fold(f32::INFINITY, f32::min);
            assert!(
                w > 0.5 || gap < 0.01 * hi.y,
                "{v}: {} head {} winding {w} gap {gap}",
                b.name,
                b.head
            );
            outside += usize::from(w <= 0.5);
        }
        assert!(outside <= 2, "{v}: {outside} joints on the skin");
        // Positive control: a joint pushed out of the chest is outside.
        let spine = s.bones[s.find("spine_03").unwrap()].head;
        assert!(winding(body, spine + Vec3::Z * 0.5) < 0.5);
    }
}

#[test]
fn blender_roll_gives_hinge_axes() {
    let s = base().skeleton.as_ref().unwrap();
    let b = |n: &str| &s.bones[s.find(n).unwrap()];
    for side in ["l", "r"] {
        // Knees hinge about ±X.
        let calf = b(&format!("calf_{side}"));
        assert!(calf.x_axis.x.abs() > 0.95, "{} {}", calf.name, calf.x_axis);
        // Elbows hinge about the normal of the plane of the bent arm.
        let (up, lo) = (
            b(&format!("upperarm_{side}")),
            b(&format!("lowerarm_{side}")),
        );
        let hinge = (up.tail - up.head).cross(lo.tail - lo.head).normalize();
        assert!(
            lo.x_axis.dot(hinge).abs() > 0.95,
            "{} {} vs {hinge}",
            lo.name,
            lo.x_axis
        );
        // Positive control: a quarter turn more roll is far from the hinge.
        let roll = if side == "l" { 2.3047 } else { -2.3047 };
        let right = mpfb2::roll_to_x_axis(lo.tail - lo.head, roll);
        assert!((right - lo.x_axis).length() < 1e-3);
        let wrong = mpfb2::roll_to_x_axis(lo.tail - lo.head, roll + std::f32::consts::FRAC_PI_2);
        assert!(wrong.dot(hinge).abs() < 0.5);
    }
    // The frames are orthonormal.
    for bone in &s.bones {
        let f = bone.frame();
        assert!((f.x_axis.dot(f.y_axis)).abs() < 1e-5 && (f.determinant() - 1.0).abs() < 1e-4);
    }
}

#[test]
fn every_named_variant_builds_with_plausible_height() {
    let want: &[(&str, f32, f32)] = &[
        ("baby", 0.5, 0.7),
        ("child", 1.1, 1.45),
        ("child_male", 1.1, 1.5),
        ("short", 1.3, 1.5),
        ("tall", 1.9, 2.15),
    ];
    for v in VARIANTS {
        let c = corpus()
            .build(&CorpusOptions {
                variant: Some(v.name.into()),
                rig: None,
                ..Default::default()
            })
            .unwrap();
        assert!(c.skeleton.is_none() && c.parts[0].weights.is_none());
        let m = &c.parts[0].mesh;
        assert!(m.positions.iter().all(|p| p.is_finite()));
        let (lo, hi) = m.bounds();
        assert!(lo.y.abs() < 1e-6, "{}: feet at {}", v.name, lo.y);
        let (a, b) = want
            .iter()
            .find(|w| w.0 == v.name)
            .map(|w| (w.1, w.2))
            .unwrap_or((1.5, 1.85));
        assert!(hi.y > a && hi.y < b, "{}: height {}", v.name, hi.y);
    }
    // Weight really changes the body: compare volumes (m3, from the signed volume of
    // the nearly closed body).
    let volume = |name: &str| {
        let c = corpus()
            .build(&CorpusOptions {
                variant: Some(name.into()),
                rig: None,
                ..Default::default()
            })
            .unwrap();
        let m = &c.parts[0].mesh;
        m.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| m.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum::<f32>()
    };
    let (male, heavy, female, thin) = (
        volume("male"),
        volume("heavy"),
        volume("female"),
        volume("thin"),
    );
    assert!(male > 0.04 && male < 0.12, "male volume {male}");
    assert!(heavy > 1.05 * male, "heavy {heavy} male {male}");
    assert!(thin < 0.95 * female, "thin {thin} female {female}");
}

#[test]
fn helper_parts_are_separate_and_weighted() {
    let names = [
        "body",
        "eyes",
        "eyelashes",
        "teeth",
        "tongue",
        "tights",
        "skirt",
        "hair",
    ];
    let c = corpus()
        .build(&CorpusOptions {
            parts: names.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        })
        .unwrap();
    c.validate().unwrap();
    let got: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(got, names);
    let count = |n: &str| corpus().part_vertices(n).unwrap().len();
    for p in &c.parts {
        assert_eq!(p.mesh.positions.len(), count(&p.name), "{}", p.name);
        assert!(!p.mesh.triangles.is_empty(), "{}", p.name);
        let w = p.weights.as_ref().unwrap();
        assert!(
            w.vertices.iter().all(|l| !l.is_empty()),
            "{} unweighted",
            p.name
        );
    }
    // No joint cube is exported.
    let total: usize = c.parts.iter().map(|p| p.mesh.positions.len()).sum();
    let cubes = corpus().group("JointCubes").unwrap().len();
    let genital = count_group("helper-genital");
    assert_eq!(total + cubes + genital, corpus().base_positions_obj().len());
    // Eyes are rigid on the head; two eyeballs.
    let s = c.skeleton.as_ref().unwrap();
    let head = s.find("head").unwrap() as u32;
    let eyes = &c.parts[1];
    assert_eq!(components(&eyes.mesh), 2);
    assert!(eyes
        .weights
        .as_ref()
        .unwrap()
        .vertices
        .iter()
        .all(|l| l.len() == 1 && l[0].bone == head));
    // Tights carry the artist's weights: at the knee, the calf/thigh.
    let tights = &c.parts[5];
    let calf = s.find("calf_l").unwrap() as u32;
    let knee = s.bones[calf as usize].head;
    let near = nearest(&tights.mesh.positions, knee);
    let l = &tights.weights.as_ref().unwrap().vertices[near];
    assert!(l.iter().any(|i| i.bone == calf), "{l:?}");
    // The skirt helper hangs from the hips.
    let (slo, shi) = c.parts[6].mesh.bounds();
    let pelvis = s.bones[s.find("pelvis").unwrap()].head;
    assert!(
        shi.y > pelvis.y - 0.05 && slo.y < pelvis.y - 0.3,
        "{slo} {shi}"
    );
}

/// The index of the point of `pts` nearest `p`.
fn nearest(pts: &[glam::Vec3], p: glam::Vec3) -> usize {
    (0..pts.len())
        .min_by(|&a, &b| pts[a].distance(p).total_cmp(&pts[b].distance(p)))
        .expect("points")
}

fn count_group(g: &str) -> usize {
    corpus().group(g).unwrap().len()
}

#[test]
fn scale_is_exact() {
    let small = corpus()
        .build(&CorpusOptions {
            scale: 0.01,
            ..Default::default()
        })
        .unwrap();
    let a = &base().parts[0].mesh.positions;
    let b = &small.parts[0].mesh.positions;
    for (x, y) in a.iter().zip(b) {
        assert!((*x * 0.01 - *y).length() <= 1e-6 * x.length().max(1.0) * 0.01 + 1e-9);
    }
    let (sa, sb) = (
        base().skeleton.as_ref().unwrap(),
        small.skeleton.as_ref().unwrap(),
    );
    for (x, y) in sa.bones.iter().zip(&sb.bones) {
        assert!((x.head * 0.01 - y.head).length() < 1e-7);
        assert!((x.x_axis - y.x_axis).length() < 1e-5);
    }
    // Same weights at every scale.
    assert_eq!(base().parts[0].weights, small.parts[0].weights);
}

#[test]
fn other_rigs_build() {
    for (rig, bones) in [
        ("mixamo", 52usize),
        ("cmu_mb", 31),
        ("default", 163),
        ("game_engine_with_breast", 55),
    ] {
        let c = corpus()
            .build(&CorpusOptions {
                rig: Some(rig.into()),
                ..Default::default()
            })
            .unwrap();
        c.validate().unwrap();
        assert_eq!(c.skeleton.as_ref().unwrap().len(), bones, "{rig}");
        let w = c.parts[0].weights.as_ref().unwrap();
        assert!(w.vertices.iter().all(|l| !l.is_empty()), "{rig}");
        let truth = artist_body_weights(rig);
        assert_eq!(weight_mismatches(&c, w, &truth, 1e-3), 0, "{rig}");
    }
}

#[test]
fn explicit_targets_equal_the_variant() {
    let v = mpfb2::variant("female").unwrap();
    let spec: Vec<String> = v.targets.iter().map(|(p, w)| format!("{p}={w}")).collect();
    let t = mpfb2::parse_targets(&spec.join(",")).unwrap();
    let a = corpus().shape_obj(Some("female"), &[]).unwrap();
    let b = corpus().shape_obj(None, &t).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert!((*x - *y).length() < 1e-5);
    }
    assert_eq!(
        mpfb2::parse_targets("a.target.gz").unwrap(),
        vec![("a.target.gz".to_string(), 1.0)]
    );
    assert!(mpfb2::parse_targets("a.target.gz=x").is_err());
}

#[test]
fn bad_requests_are_clear_errors() {
    let err = |o: CorpusOptions| corpus().build(&o).unwrap_err().to_string();
    let e = err(CorpusOptions {
        variant: Some("giant".into()),
        ..Default::default()
    });
    assert!(e.contains("giant") && e.contains("baby"), "{e}");
    let e = err(CorpusOptions {
        rig: Some("nope".into()),
        ..Default::default()
    });
    assert!(e.contains("nope") && e.contains("game_engine"), "{e}");
    let e = err(CorpusOptions {
        parts: vec!["cape".into()],
        ..Default::default()
    });
    assert!(e.contains("cape"), "{e}");
    let e = err(CorpusOptions {
        targets: vec![("../../etc/passwd".into(), 1.0)],
        ..Default::default()
    });
    assert!(e.contains("relative"), "{e}");
    let e = err(CorpusOptions {
        targets: vec![("macrodetails/missing.target.gz".into(), 1.0)],
        ..Default::default()
    });
    assert!(e.contains("missing.target.gz"), "{e}");
    let e = err(CorpusOptions {
        scale: 0.0,
        ..Default::default()
    });
    assert!(e.contains("scale"), "{e}");
    let e = corpus()
        .skeleton("game_engine", &[Vec3::ZERO; 10])
        .unwrap_err()
        .to_string();
    assert!(e.contains("10 positions"), "{e}");
    // Not a corpus folder.
    let tmp = common::tmpdir();
    let e = Corpus::open(tmp.path()).unwrap_err().to_string();
    assert!(
        e.contains("base.obj") && e.contains(&tmp.path().display().to_string()),
        "{e}"
    );
}

/// A temporary corpus folder with the real corpus's folders `dirs` linked into it.
fn linked_corpus(dirs: &[&str]) -> tempfile::TempDir {
    let tmp = common::tmpdir();
    let real = common::mpfb2_dir();
    for d in dirs {
        std::os::unix::fs::symlink(real.join(d), tmp.path().join(d)).unwrap();
    }
    tmp
}

#[test]
fn broken_targets_name_the_file_and_line() {
    // A corpus folder whose data is the real one (linked), with broken targets added.
    let tmp = linked_corpus(&["3dobjs", "mesh_metadata", "rigs"]);
    std::fs::create_dir(tmp.path().join("targets")).unwrap();
    let gz = |name: &str, text: &str| {
        use std::io::Write;
        let f = std::fs::File::create(tmp.path().join("targets").join(name)).unwrap();
        let mut e = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap();
    };
    gz("ok.target.gz", "0 0.1 0 0\n");
    gz("range.target.gz", "0 0.1 0 0\n99999 0 0 0\n");
    gz("nan.target.gz", "5 NaN 0 0\n");
    std::fs::write(tmp.path().join("targets/plain.target.gz"), "0 1 2 3\n").unwrap();
    let c = Corpus::open(tmp.path()).unwrap();
    let ok = c.shape_obj(None, &[("ok.target.gz".into(), 2.0)]).unwrap();
    assert!((ok[0].x - c.base_positions_obj()[0].x - 0.2).abs() < 1e-6);
    let e = c
        .shape_obj(None, &[("range.target.gz".into(), 1.0)])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("range.target.gz") && e.contains("line 2") && e.contains("99999"),
        "{e}"
    );
    let e = c
        .shape_obj(None, &[("nan.target.gz".into(), 1.0)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("nan.target.gz") && e.contains("line 1"), "{e}");
    let e = c
        .shape_obj(None, &[("plain.target.gz".into(), 1.0)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("plain.target.gz") && e.contains("gzip"), "{e}");
}

#[test]
fn data_dir_finds_the_corpus_the_tests_use() {
    // Wherever the tests found or downloaded the corpus, the library's resolver (what
    // the CLI uses) finds the same folder.
    let used = common::mpfb2_dir().canonicalize().unwrap();
    let found = mpfb2::data_dir().expect("data_dir finds the corpus");
    assert!(mpfb2::is_corpus(&found), "{}", found.display());
    assert_eq!(found.canonicalize().unwrap(), used);
}

#[test]
fn weights_survive_a_glb_round_trip() {
    let tmp = common::tmpdir();
    let path = tmp.path().join("base.glb");
    let opts = rigsmith::io::gltf::WriteOptions {
        max_influences: 8,
        ..Default::default()
    };
    rigsmith::io::write_character(&path, base(), &opts).unwrap();
    assert_eq!(common::validate_gltf(&path).0, 0, "validator errors");
    let c = rigsmith::io::read_character(&path).unwrap();
    let body = &c.parts[c.find_part("body").unwrap()];
    assert_eq!(body.mesh.positions.len(), 13_380);
    for (a, b) in body
        .mesh
        .positions
        .iter()
        .zip(&base().parts[0].mesh.positions)
    {
        assert!((*a - *b).length() < 1e-6);
    }
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(s.len(), 53);
    let truth = artist_body_weights("game_engine");
    let w = body.weights.as_ref().unwrap();
    assert_eq!(weight_mismatches(&c, w, &truth, 1e-3), 0);
    // Positive control: written with 4 influences, the 608 richer vertices differ.
    rigsmith::io::write_character(&path, base(), &Default::default()).unwrap();
    let c4 = rigsmith::io::read_character(&path).unwrap();
    let w4 = c4.parts[0].weights.as_ref().unwrap();
    assert_eq!(weight_mismatches(&c4, w4, &truth, 1e-3), 608);
}

#[test]
fn all_parts_glb_is_valid() {
    let tmp = common::tmpdir();
    let path = tmp.path().join("female.glb");
    let c = corpus()
        .build(&CorpusOptions {
            variant: Some("female".into()),
            parts: mpfb2::PARTS.iter().map(|p| p.0.to_string()).collect(),
            ..Default::default()
        })
        .unwrap();
    let opts = rigsmith::io::gltf::WriteOptions {
        max_influences: 8,
        ..Default::default()
    };
    rigsmith::io::write_character(&path, &c, &opts).unwrap();
    assert_eq!(common::validate_gltf(&path).0, 0, "validator errors");
    let back = rigsmith::io::read_character(&path).unwrap();
    let names: Vec<&str> = back.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "body",
            "eyes",
            "eyelashes",
            "teeth",
            "tongue",
            "tights",
            "skirt",
            "hair"
        ]
    );
    for (a, b) in c.parts.iter().zip(&back.parts) {
        assert_eq!(a.mesh.positions.len(), b.mesh.positions.len(), "{}", a.name);
        assert_eq!(a.mesh.triangles, b.mesh.triangles, "{}", a.name);
    }
}

#[test]
fn builds_are_deterministic_and_helper_weights_are_the_artists() {
    let opts = CorpusOptions {
        variant: Some("heavy".into()),
        parts: ["body", "tights", "skirt", "hair"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ..Default::default()
    };
    let a = corpus().build(&opts).unwrap();
    assert_eq!(a, corpus().build(&opts).unwrap());
    // The artist file weights the helper vertices too: the helper parts carry those
    // weights, normalized, and not a copy of the nearest body vertex's.
    let path = common::mpfb2_dir().join("rigs/standard/weights.game_engine.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut file: BTreeMap<usize, BTreeMap<String, f64>> = BTreeMap::new();
    for (bone, list) in v["weights"].as_object().unwrap() {
        for e in list.as_array().unwrap() {
            let (i, w) = (e[0].as_u64().unwrap() as usize, e[1].as_f64().unwrap());
            if w > 0.0 {
                file.entry(i).or_default().insert(bone.clone(), w);
            }
        }
    }
    let s = a.skeleton.as_ref().unwrap();
    let body = &a.parts[0];
    let body_pos = &body.mesh.positions;
    for part in a.parts.iter().skip(1) {
        let verts = corpus().part_vertices(&part.name).unwrap();
        let w = part.weights.as_ref().unwrap();
        let mut worst = 0.0f64;
        for (l, g) in verts.iter().enumerate() {
            let want = &file[&(*g as usize)];
            let total: f64 = want.values().sum();
            let ours: BTreeMap<String, f64> = w.vertices[l]
                .iter()
                .map(|i| (s.bones[i.bone as usize].name.clone(), i.weight as f64))
                .collect();
            assert_eq!(
                ours.keys().collect::<Vec<_>>(),
                want.keys().collect::<Vec<_>>(),
                "{} vertex {l}",
                part.name
            );
            for (b, x) in want {
                worst = worst.max((ours[b] - x / total).abs());
            }
        }
        assert!(worst < 1e-3, "{}: {worst}", part.name);
        // Positive control: the nearest body vertex's weights, the other way to weight
        // a helper, differ from the artist's on many skirt and hair vertices.
        let bw = body.weights.as_ref().unwrap();
        let differ = part
            .mesh
            .positions
            .iter()
            .zip(&w.vertices)
            .filter(|(p, own)| bw.vertices[nearest(body_pos, **p)][0].bone != own[0].bone)
            .count() as f32
            / verts.len() as f32;
        eprintln!(
            "{}: nearest body vertex's top bone differs on {:.1} %",
            part.name,
            differ * 100.0
        );
        assert!(differ > 0.02, "{}: {differ}", part.name);
    }
}

/// A weights file that leaves a helper vertex out: that vertex takes the nearest body
/// vertex's weights, the others keep the artist's, and the build says so, naming the
/// part.
#[test]
fn a_helper_the_weights_file_leaves_out_takes_the_nearest_body_vertex() {
    let tmp = linked_corpus(&["3dobjs", "mesh_metadata", "targets"]);
    let real = common::mpfb2_dir();
    let rigs = tmp.path().join("rigs/standard");
    std::fs::create_dir_all(&rigs).unwrap();
    std::os::unix::fs::symlink(
        real.join("rigs/standard/rig.game_engine.json"),
        rigs.join("rig.game_engine.json"),
    )
    .unwrap();
    // The file without the skirt's first vertex.
    let skirt: Vec<u32> = corpus().part_vertices("skirt").unwrap();
    let gone = skirt[0] as u64;
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(real.join("rigs/standard/weights.game_engine.json")).unwrap(),
    )
    .unwrap();
    for list in v["weights"].as_object_mut().unwrap().values_mut() {
        list.as_array_mut()
            .unwrap()
            .retain(|e| e[0].as_u64() != Some(gone));
    }
    std::fs::write(rigs.join("weights.game_engine.json"), v.to_string()).unwrap();
    let c = Corpus::open(tmp.path())
        .unwrap()
        .build(&CorpusOptions {
            parts: vec!["body".into(), "skirt".into()],
            ..Default::default()
        })
        .unwrap();
    assert!(
        c.warnings.iter().any(|w| w.contains("\"skirt\"")
            && w.contains("1 of the 720")
            && w.contains("nearest body vertex")),
        "{:?}",
        c.warnings
    );
    let w = c.parts[1].weights.as_ref().unwrap();
    assert!(w.vertices.iter().all(|l| !l.is_empty()));
    // The vertex left out took the nearest body vertex's weights; every other vertex
    // kept the artist's, as the full file gives them.
    let body = &c.parts[0];
    let bw = body.weights.as_ref().unwrap();
    let p = c.parts[1].mesh.positions[0];
    let k = nearest(&body.mesh.positions, p);
    assert_eq!(w.vertices[0], bw.vertices[k]);
    let full = corpus()
        .build(&CorpusOptions {
            parts: vec!["body".into(), "skirt".into()],
            ..Default::default()
        })
        .unwrap();
    let artist = full.parts[1].weights.as_ref().unwrap();
    assert_eq!(w.vertices[1..], artist.vertices[1..]);
    assert_ne!(w.vertices[0], artist.vertices[0]);
}

// ---- Pieces and garments -------------------------------------------------------------

fn split_base() -> &'static mpfb2::Split {
    static S: OnceLock<mpfb2::Split> = OnceLock::new();
    S.get_or_init(|| mpfb2::split_parts(base()).expect("split"))
}

fn dressed_base() -> &'static Character {
    static C: OnceLock<Character> = OnceLock::new();
    C.get_or_init(|| mpfb2::dress(base(), &mpfb2::GARMENTS).expect("dress"))
}

#[test]
fn split_cuts_the_body_into_the_named_pieces() {
    let names: Vec<&str> = split_base()
        .character
        .parts
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, mpfb2::PIECES);
    let c = &split_base().character;
    let centre = |n: &str| {
        let (lo, hi) = c.parts[c.find_part(n).unwrap()].mesh.bounds();
        (lo + hi) * 0.5
    };
    // The character's left is +X; head on top, feet at the bottom.
    assert!(centre("arm.L").x > 0.2 && centre("arm.R").x < -0.2);
    assert!(centre("leg.L").x > 0.0 && centre("leg.R").x < 0.0);
    assert!(centre("head").y > centre("torso").y);
    assert!(centre("torso").y > centre("leg.L").y);
    assert!(centre("leg.L").y > centre("foot.L").y);
    assert!(centre("foot.R").y < 0.1);
}

#[test]
fn split_keeps_every_vertex_position_and_weight() {
    let welded = &base().parts[0];
    let ww = welded.weights.as_ref().unwrap();
    let sp = split_base();
    let mut seen = vec![0usize; welded.mesh.positions.len()];
    for (p, o) in sp.character.parts.iter().zip(&sp.origin) {
        assert_eq!(o.part, 0);
        assert_eq!(o.vertices.len(), p.mesh.positions.len());
        let w = p.weights.as_ref().unwrap();
        for (i, &g) in o.vertices.iter().enumerate() {
            let g = g as usize;
            seen[g] += 1;
            assert_eq!(
                p.mesh.positions[i], welded.mesh.positions[g],
                "{} v{i}",
                p.name
            );
            assert_eq!(w.vertices[i], ww.vertices[g], "{} v{i}", p.name);
        }
        // Vertices keep the welded order within a piece.
        assert!(o.vertices.windows(2).all(|x| x[0] < x[1]), "{}", p.name);
    }
    assert!(
        seen.iter().all(|&k| k >= 1),
        "every welded vertex is in a piece"
    );
}

#[test]
fn split_puts_every_triangle_in_exactly_one_piece() {
    let welded = &base().parts[0];
    let sp = split_base();
    let mut back: Vec<[u32; 3]> = Vec::new();
    for (p, o) in sp.character.parts.iter().zip(&sp.origin) {
        assert!(!p.mesh.triangles.is_empty(), "{}", p.name);
        back.extend(
            p.mesh
                .triangles
                .iter()
                .map(|t| t.map(|v| o.vertices[v as usize])),
        );
    }
    let mut orig = welded.mesh.triangles.clone();
    orig.sort_unstable();
    back.sort_unstable();
    assert_eq!(back, orig);
}

#[test]
fn split_duplicates_seam_vertices_at_identical_positions() {
    let sp = split_base();
    let mut copies: BTreeMap<u32, Vec<(usize, Vec3)>> = BTreeMap::new();
    for (k, (p, o)) in sp.character.parts.iter().zip(&sp.origin).enumerate() {
        for (i, &g) in o.vertices.iter().enumerate() {
            copies.entry(g).or_default().push((k, p.mesh.positions[i]));
        }
    }
    let seams: Vec<&Vec<(usize, Vec3)>> = copies.values().filter(|l| l.len() > 1).collect();
    // Seven cuts (neck, two shoulders, two hips, two ankles), each a loop of vertices.
    eprintln!("{} seam vertices", seams.len());
    assert!(
        seams.len() > 7 * 12 && seams.len() < 2_000,
        "{}",
        seams.len()
    );
    for l in &seams {
        assert!(l.iter().all(|(_, p)| *p == l[0].1));
        assert!(l.windows(2).all(|x| x[0].0 != x[1].0), "one copy per piece");
    }
    // Each piece is one connected sheet: the cut has no stray islands.
    for p in &sp.character.parts {
        let n = components(&p.mesh);
        assert_eq!(n, 1, "{}: {n} components", p.name);
    }
}

#[test]
fn split_is_deterministic_and_keeps_other_parts() {
    let c = corpus()
        .build(&CorpusOptions {
            variant: Some("child".into()),
            parts: vec!["eyes".into(), "body".into(), "hair".into()],
            ..Default::default()
        })
        .unwrap();
    let a = mpfb2::split_parts(&c).unwrap();
    assert_eq!(a, mpfb2::split_parts(&c).unwrap());
    let names: Vec<&str> = a.character.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names[0], "eyes");
    assert_eq!(names[1..9], mpfb2::PIECES);
    assert_eq!(names[9], "hair");
    assert_eq!(a.character.parts[0], c.parts[0]);
    assert_eq!(a.origin[9].part, 2);
}

#[test]
fn split_needs_a_weighted_body() {
    let mut c = base().clone();
    c.parts[0].weights = None;
    assert!(mpfb2::split_parts(&c).is_err());
    let mut c = base().clone();
    c.parts[0].name = "skin".into();
    assert!(mpfb2::split_parts(&c).is_err());
}

/// For each point, the distance to the nearest of `pts` and that point's index.
fn nearest_of(pts: &[Vec3], q: Vec3) -> (f32, usize) {
    let mut best = (f32::INFINITY, 0);
    for (i, p) in pts.iter().enumerate() {
        let d = p.distance(q);
        if d < best.0 {
            best = (d, i);
        }
    }
    best
}

fn garment_clearance(name: &str) -> (f32, f32, f32, f32) {
    let c = dressed_base();
    let body = &c.parts[0].mesh;
    let (lo, hi) = body.bounds();
    let h = hi.y - lo.y;
    let normals = body.compute_normals();
    let g = &c.parts[c.find_part(name).unwrap()].mesh;
    let mut min = f32::INFINITY;
    let mut sum = 0.0;
    let mut inside = 0usize;
    for &q in &g.positions {
        let (d, i) = nearest_of(&body.positions, q);
        min = min.min(d);
        sum += d;
        if (q - body.positions[i]).dot(normals[i]) <= 0.0 {
            inside += 1;
        }
    }
    (
        min / h,
        sum / g.positions.len() as f32 / h,
        inside as f32 / g.positions.len() as f32,
        h,
    )
}

#[test]
fn garments_are_separate_parts_with_their_own_triangles() {
    let c = dressed_base();
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["body", "shirt", "trousers", "skirt", "hat"]);
    for p in &c.parts[1..] {
        assert!(p.mesh.triangles.len() > 200, "{}", p.name);
        assert_eq!(
            p.material.as_deref(),
            Some(format!("cloth_{}", p.name).as_str())
        );
        let w = p.weights.as_ref().unwrap();
        assert!(w.vertices.iter().all(|l| !l.is_empty()), "{}", p.name);
    }
    let height = |n: &str| {
        let (lo, hi) = c.parts[c.find_part(n).unwrap()].mesh.bounds();
        (lo.y, hi.y)
    };
    let (_, h) = (0.0, height("body").1);
    let (hat_lo, hat_hi) = height("hat");
    assert!(
        hat_lo > 0.9 * h && hat_hi > h,
        "hat {hat_lo}..{hat_hi} of {h}"
    );
    let (skirt_lo, skirt_hi) = height("skirt");
    assert!(
        skirt_lo < 0.12 * h && skirt_hi > 0.5 * h && skirt_hi < 0.65 * h,
        "skirt {skirt_lo}..{skirt_hi}"
    );
    let (tr_lo, _) = height("trousers");
    assert!(tr_lo < 0.12 * h, "trousers reach the ankles: {tr_lo}");
}

#[test]
fn shell_garments_lie_outside_the_skin_at_their_offset() {
    for g in [
        mpfb2::Garment::Shirt,
        mpfb2::Garment::Trousers,
        mpfb2::Garment::Hat,
    ] {
        let (min, mean, inside, _) = garment_clearance(g.name());
        eprintln!(
            "{}: nearest skin min {min:.4} H, mean {mean:.4} H, {inside:.4} inside",
            g.name()
        );
        assert!(min > 0.5 * g.offset(), "{}: {min}", g.name());
        assert!(
            (mean - g.offset()).abs() < 0.25 * g.offset(),
            "{}: {mean}",
            g.name()
        );
        assert!(inside < 0.002, "{}: {inside}", g.name());
    }
}

#[test]
fn skirt_lies_outside_the_torso_and_legs_and_flares() {
    let c = dressed_base();
    let (min, _, inside, h) = garment_clearance("skirt");
    eprintln!("skirt: nearest skin min {min:.4} H, {inside:.4} inside");
    let s = c.skeleton.as_ref().unwrap();
    let regions = mpfb2::split::vertex_regions(c.parts[0].weights.as_ref().unwrap(), s);
    // Against the torso and legs (the arms hang beside it and are not fitted).
    use mpfb2::split::BodySegment;
    let legs: Vec<Vec3> = c.parts[0]
        .mesh
        .positions
        .iter()
        .zip(&regions)
        .filter(|(_, r)| {
            matches!(
                r.limb,
                BodySegment::Chest
                    | BodySegment::Pelvis
                    | BodySegment::Thigh
                    | BodySegment::Calf
                    | BodySegment::Foot
            )
        })
        .map(|(p, _)| *p)
        .collect();
    let skirt = &c.parts[c.find_part("skirt").unwrap()].mesh;
    let min_legs = skirt
        .positions
        .iter()
        .map(|&q| nearest_of(&legs, q).0)
        .fold(f32::INFINITY, f32::min)
        / h;
    assert!(
        min_legs > 0.5 * mpfb2::Garment::Skirt.offset(),
        "{min_legs}"
    );
    // The hem ring is wider than the waist ring.
    let ring = |k: usize| {
        let pts = &skirt.positions[k * 64..(k + 1) * 64];
        let c = pts.iter().fold(Vec3::ZERO, |a, p| a + *p) / 64.0;
        pts.iter().map(|p| (*p - c).length()).sum::<f32>() / 64.0
    };
    assert!(ring(31) > ring(0) + 0.05 * h, "{} {}", ring(0), ring(31));
    // Normals point outwards.
    let n = skirt.compute_normals();
    let out = skirt
        .positions
        .iter()
        .zip(&n)
        .filter(|(p, n)| Vec3::new(p.x, 0.0, p.z).dot(**n) > 0.0)
        .count();
    assert!(out as f32 > 0.95 * skirt.positions.len() as f32, "{out}");
}

#[test]
fn garment_weights_come_from_the_covered_skin() {
    let c = dressed_base();
    let s = c.skeleton.as_ref().unwrap();
    let regions = |p: &str| {
        let w = c.parts[c.find_part(p).unwrap()].weights.as_ref().unwrap();
        mpfb2::split::vertex_regions(w, s)
    };
    use mpfb2::split::BodySegment;
    assert!(regions("hat").iter().all(|r| r.limb == BodySegment::Head));
    assert!(regions("shirt")
        .iter()
        .all(|r| matches!(r.limb, BodySegment::Chest | BodySegment::UpperArm)));
    for g in ["trousers", "skirt"] {
        assert!(regions(g).iter().all(|r| matches!(
            r.limb,
            BodySegment::Pelvis | BodySegment::Thigh | BodySegment::Calf
        )));
    }
    // Ground truth: each garment vertex carries exactly the weights of a body vertex.
    let body_w = c.parts[0].weights.as_ref().unwrap();
    let hat_w = c.parts[c.find_part("hat").unwrap()]
        .weights
        .as_ref()
        .unwrap();
    assert!(hat_w.vertices.iter().all(|l| body_w.vertices.contains(l)));
}

#[test]
fn dress_refuses_bad_requests() {
    use mpfb2::Garment;
    assert!(mpfb2::dress(base(), &[Garment::Hat, Garment::Hat]).is_err());
    assert!(Garment::parse("cape")
        .unwrap_err()
        .to_string()
        .contains("cape"));
    let helper = corpus()
        .build(&CorpusOptions {
            parts: vec!["body".into(), "skirt".into()],
            ..Default::default()
        })
        .unwrap();
    assert!(mpfb2::dress(&helper, &[Garment::Skirt]).is_err());
    assert!(mpfb2::dress(&helper, &[Garment::Shirt]).is_ok());
}

#[test]
fn split_dressed_glb_is_valid_and_round_trips() {
    let tmp = common::tmpdir();
    let path = tmp.path().join("dressed.glb");
    let c = mpfb2::split_parts(dressed_base()).unwrap().character;
    let opts = rigsmith::io::gltf::WriteOptions {
        max_influences: 8,
        ..Default::default()
    };
    rigsmith::io::write_character(&path, &c, &opts).unwrap();
    assert_eq!(common::validate_gltf(&path).0, 0, "validator errors");
    let back = rigsmith::io::read_character(&path).unwrap();
    let names: Vec<&str> = back.parts.iter().map(|p| p.name.as_str()).collect();
    let mut want: Vec<&str> = mpfb2::PIECES.to_vec();
    want.extend(["shirt", "trousers", "skirt", "hat"]);
    assert_eq!(names, want);
    for (a, b) in c.parts.iter().zip(&back.parts) {
        assert_eq!(a.mesh.triangles, b.mesh.triangles, "{}", a.name);
        let (wa, wb) = (a.weights.as_ref().unwrap(), b.weights.as_ref().unwrap());
        assert_eq!(wa.vertices.len(), wb.vertices.len());
        for (x, y) in wa.vertices.iter().zip(&wb.vertices) {
            assert_eq!(x.len(), y.len(), "{}", a.name);
            for (i, j) in x.iter().zip(y) {
                assert_eq!(i.bone, j.bone);
                assert!((i.weight - j.weight).abs() < 2e-3);
            }
        }
    }
}
