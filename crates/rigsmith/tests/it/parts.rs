//! Tests for the parts stage: surface classes, chains, colliders, rules, springs,
//! the sidecar. A small synthetic figure (tubes and a sphere, 1.7 m) with a skirt and
//! hair is built here so every check has a clean twin and a broken positive control.

use glam::Vec3;
use rigsmith::model::naming::tokens;
use rigsmith::parts::{self, Motion, Sidecar, SurfaceClass};
use rigsmith::{Bone, Character, Mesh, Part, Skeleton, Weights};

/// A tube of `segs` sides and `rings` rings from `a` (radius `ra`) to `b` (radius `rb`).
fn tube(m: &mut Mesh, a: Vec3, b: Vec3, ra: f32, rb: f32, rings: usize, segs: usize) {
    let axis = (b - a).normalize();
    let u = axis.any_orthonormal_vector();
    let v = axis.cross(u);
    let base = m.positions.len() as u32;
    for i in 0..=rings {
        let t = i as f32 / rings as f32;
        let c = a.lerp(b, t);
        let r = ra + (rb - ra) * t;
        for j in 0..segs {
            let th = std::f32::consts::TAU * j as f32 / segs as f32;
            m.positions.push(c + (u * th.cos() + v * th.sin()) * r);
        }
    }
    for i in 0..rings as u32 {
        for j in 0..segs as u32 {
            let s = segs as u32;
            let p = base + i * s + j;
            let q = base + i * s + (j + 1) % s;
            m.triangles.push([p, p + s, q]);
            m.triangles.push([q, p + s, q + s]);
        }
    }
}

fn sphere(m: &mut Mesh, c: Vec3, r: f32, keep: impl Fn(Vec3) -> bool) {
    let base = m.positions.len() as u32;
    let (nl, ns) = (10usize, 16usize);
    for i in 0..=nl {
        let phi = std::f32::consts::PI * i as f32 / nl as f32;
        for j in 0..ns {
            let th = std::f32::consts::TAU * j as f32 / ns as f32;
            m.positions
                .push(c + Vec3::new(phi.sin() * th.sin(), phi.cos(), phi.sin() * th.cos()) * r);
        }
    }
    for i in 0..nl as u32 {
        for j in 0..ns as u32 {
            let s = ns as u32;
            let p = base + i * s + j;
            let q = base + i * s + (j + 1) % s;
            let tri = [[p, p + s, q], [q, p + s, q + s]];
            for t in tri {
                if t.iter().all(|&k| keep(m.positions[k as usize])) {
                    m.triangles.push(t);
                }
            }
        }
    }
}

/// The synthetic figure at height `h` (m): body, skirt, hair (cap + twin tails), all
/// separate; the body weighted to its nearest bone; skirt and hair unrigged.
pub(crate) fn figure(h: f32) -> Character {
    let k = h / 1.7;
    let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z) * k;
    let mut bones = vec![
        Bone::new("hips", None, p(0.0, 0.95, 0.0), p(0.0, 1.05, 0.0)),
        Bone::new("spine", Some(0), p(0.0, 1.05, 0.0), p(0.0, 1.25, 0.0)),
        Bone::new("chest", Some(1), p(0.0, 1.25, 0.0), p(0.0, 1.45, 0.0)),
        Bone::new("neck", Some(2), p(0.0, 1.45, 0.0), p(0.0, 1.53, 0.0)),
        Bone::new("head", Some(3), p(0.0, 1.53, 0.0), p(0.0, 1.70, 0.0)),
    ];
    for (s, x) in [("l", 0.09f32), ("r", -0.09)] {
        let base = bones.len();
        bones.push(Bone::new(
            format!("thigh_{s}"),
            Some(0),
            p(x, 0.92, 0.0),
            p(x, 0.50, 0.0),
        ));
        bones.push(Bone::new(
            format!("calf_{s}"),
            Some(base),
            p(x, 0.50, 0.0),
            p(x, 0.08, 0.0),
        ));
        bones.push(Bone::new(
            format!("foot_{s}"),
            Some(base + 1),
            p(x, 0.08, 0.0),
            p(x, 0.0, 0.12),
        ));
        bones.push(Bone::new(
            format!("upperarm_{s}"),
            Some(2),
            p(x * 2.0, 1.42, 0.0),
            p(x * 2.6, 1.15, 0.0),
        ));
    }
    let skel = Skeleton { bones };
    skel.validate().unwrap();
    let mut body = Mesh::default();
    tube(
        &mut body,
        p(0.0, 0.90, 0.0),
        p(0.0, 1.45, 0.0),
        0.15 * k,
        0.14 * k,
        11,
        24,
    );
    for x in [0.09f32, -0.09] {
        tube(
            &mut body,
            p(x, 0.90, 0.0),
            p(x, 0.50, 0.0),
            0.075 * k,
            0.055 * k,
            8,
            16,
        );
        tube(
            &mut body,
            p(x, 0.50, 0.0),
            p(x, 0.05, 0.0),
            0.055 * k,
            0.04 * k,
            8,
            16,
        );
        tube(
            &mut body,
            p(x * 2.0, 1.42, 0.0),
            p(x * 2.6, 1.0, 0.0),
            0.04 * k,
            0.03 * k,
            6,
            12,
        );
    }
    tube(
        &mut body,
        p(0.0, 1.45, 0.0),
        p(0.0, 1.55, 0.0),
        0.05 * k,
        0.05 * k,
        2,
        12,
    );
    sphere(&mut body, p(0.0, 1.62, 0.0), 0.09 * k, |_| true);
    let weights = nearest_bone_weights(&skel, &body.positions);
    let mut skirt = Mesh::default();
    tube(
        &mut skirt,
        p(0.0, 1.00, 0.0),
        p(0.0, 0.68, 0.0),
        0.165 * k,
        0.26 * k,
        8,
        48,
    );
    let mut hair = Mesh::default();
    let hc = p(0.0, 1.62, 0.0);
    sphere(&mut hair, hc, 0.1 * k, |q| q.y > hc.y - 0.02 * k);
    for x in [0.11f32, -0.11] {
        tube(
            &mut hair,
            p(x, 1.66, -0.02),
            p(x * 1.3, 1.30, -0.04),
            0.025 * k,
            0.012 * k,
            8,
            8,
        );
    }
    Character {
        parts: vec![
            Part {
                name: "body".into(),
                material: Some("Body_SKIN".into()),
                mesh: body,
                weights: Some(weights),
                morphs: vec![],
            },
            Part {
                name: "skirt".into(),
                material: Some("Skirt".into()),
                mesh: skirt,
                weights: None,
                morphs: vec![],
            },
            Part {
                name: "hair".into(),
                material: Some("Hair".into()),
                mesh: hair,
                weights: None,
                morphs: vec![],
            },
        ],
        skeleton: Some(skel),
        vrm: None,
        warnings: vec![],
        ..Default::default()
    }
}

/// Every vertex rigid to the bone whose segment is nearest (a crude bind for tests).
fn nearest_bone_weights(skel: &Skeleton, pos: &[Vec3]) -> Weights {
    let mut w = Weights::empty(pos.len());
    for (v, q) in pos.iter().enumerate() {
        let best = (0..skel.len())
            .min_by(|&a, &b| seg(*q, &skel.bones[a]).total_cmp(&seg(*q, &skel.bones[b])))
            .unwrap();
        w.add(v, best as u32, 1.0);
    }
    w
}

fn seg(q: Vec3, b: &Bone) -> f32 {
    let ab = b.tail - b.head;
    let t = ((q - b.head).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    (q - (b.head + ab * t)).length()
}

fn rigged(h: f32) -> (Character, Vec<parts::Chain>, Sidecar) {
    let mut c = figure(h);
    let chains = parts::build_chains(&mut c, &parts::ChainOptions::default()).unwrap();
    c.validate().unwrap();
    let colliders = parts::measure_colliders(&c);
    let sc = Sidecar::build(&c, &chains, &colliders);
    (c, chains, sc)
}

#[test]
fn builds_a_radial_skirt_grid_and_hair_chains() {
    let (c, chains, sc) = rigged(1.7);
    let skirt: Vec<_> = chains.iter().filter(|c| c.class == "skirt").collect();
    let hair: Vec<_> = chains.iter().filter(|c| c.class == "hair").collect();
    // Hem circumference 2*pi*0.26 = 1.63 m over 0.04 H = 0.068 m panels -> 24 (capped).
    assert!(
        (16..=24).contains(&skirt.len()),
        "{} skirt chains",
        skirt.len()
    );
    // Slanted length ~0.33 m over 0.085 m bones -> 4 segments.
    assert!(skirt.iter().all(|c| (3..=5).contains(&c.bones.len())));
    assert!(skirt
        .iter()
        .all(|c| c.root_parent.as_deref() == Some("hips")));
    assert_eq!(
        hair.len(),
        2,
        "{:?}",
        hair.iter().map(|c| &c.bones).collect::<Vec<_>>()
    );
    assert!(hair
        .iter()
        .all(|c| (2..=4).contains(&c.bones.len()) && c.root_parent.as_deref() == Some("head")));
    // Tips: the last skirt tip reaches the hem (y ~ 0.68 m).
    let skel = c.skeleton.as_ref().unwrap();
    for ch in &skirt {
        let tips = ch.world_tips(skel);
        let last = tips.last().unwrap();
        assert!((last.y - 0.68).abs() < 0.04, "tip {last}");
        assert!(ch.hulls.iter().all(|h| !h.is_empty()));
        // Neighbours: each panel shares vertices with the two panels beside it.
        assert!(
            ch.neighbours.iter().map(|m| m.len()).max().unwrap() >= 2,
            "{:?}",
            ch.neighbours
        );
    }
    // Skirt weights never touch a leg; they sum to one.
    let sk = &c.parts[1];
    let w = sk.weights.as_ref().unwrap();
    for list in &w.vertices {
        let s: f32 = list.iter().map(|i| i.weight).sum();
        assert!((s - 1.0).abs() < 1e-4);
        for i in list {
            let name = &skel.bones[i.bone as usize].name;
            assert!(
                !tokens(name).iter().any(|t| t == "thigh" || t == "calf"),
                "{name}"
            );
        }
    }
    assert!(!sc.links.is_empty());
    assert_eq!(sc.surfaces["Skirt"], SurfaceClass::Cloth);
    assert_eq!(sc.surfaces["Hair"], SurfaceClass::Hair);
    assert_eq!(sc.surfaces["Body_SKIN"], SurfaceClass::Skin);
}

#[test]
fn surface_class_from_weights_when_the_name_says_nothing() {
    let (mut c, chains, _) = rigged(1.7);
    c.parts[1].material = Some("Object_7".into());
    c.parts[1].name = "Object_7".into();
    let s = parts::surface_classes(&c, &chains);
    assert_eq!(s["Object_7"], SurfaceClass::Cloth);
    // Positive control: the same mesh weighted to the hips only says nothing -> other.
    let n = c.parts[1].mesh.positions.len();
    c.parts[1].weights = Some(Weights::rigid(n, 0));
    let s = parts::surface_classes(&c, &chains);
    assert_eq!(s["Object_7"], SurfaceClass::Other);
    // VRoid's formal infixes and line-work.
    c.parts[1].material = Some("N00_000_00_Body_00_SKIN_Instance".into());
    assert_eq!(
        parts::surface_classes(&c, &chains)["N00_000_00_Body_00_SKIN_Instance"],
        SurfaceClass::Skin
    );
    c.parts[1].material = Some("Hair_Outline".into());
    assert_eq!(
        parts::surface_classes(&c, &chains)["Hair_Outline"],
        SurfaceClass::LineWork
    );
}

#[test]
fn colliders_are_measured_from_the_body_not_the_skirt() {
    let (c, _, _) = rigged(1.7);
    let cols = parts::measure_colliders(&c);
    let names: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
    for n in [
        "thigh.L", "thigh.R", "shin.L", "shin.R", "waist", "head", "chest", "neck",
    ] {
        assert!(names.contains(&n), "{names:?}");
    }
    let r = |n: &str| match cols.iter().find(|c| c.name == n).unwrap().shape {
        parts::ColliderShape::Capsule { radius, .. }
        | parts::ColliderShape::Sphere { radius, .. } => radius,
        _ => unreachable!(),
    };
    // Thigh tube radius 0.075 -> 0.055 (85th percentile ~0.072); shin 0.055 -> 0.04.
    assert!((r("thigh.L") - 0.07).abs() < 0.01, "{}", r("thigh.L"));
    assert!((r("shin.L") - 0.052).abs() < 0.01, "{}", r("shin.L"));
    assert!((r("head") - 0.09).abs() < 0.012, "{}", r("head"));
    // Waist lid: the trunk tube (r 0.15) at hip height; median half-depth ~0.15.
    assert!((r("waist") - 0.15).abs() < 0.02, "{}", r("waist"));
}

#[test]
fn skirt_swings_without_entering_the_legs_in_every_motion() {
    let (c, _, sc) = rigged(1.7);
    for m in Motion::ALL {
        let rep = parts::simulate(&c, &sc, m, 3.0).unwrap();
        eprintln!("{m:?}: {rep:?}");
        assert!(rep.stable, "{m:?} unstable");
        assert!(
            rep.worst_penetration_mm_at_1_7m < 5.0,
            "{m:?}: {} mm at {}",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_at
        );
        assert_eq!(rep.skirt_joints_between_legs, 0, "{m:?}");
        assert_eq!(rep.hair_in_head, 0, "{m:?}");
        assert!(
            rep.max_swing_deg > 5.0,
            "{m:?}: the chains do not swing ({} deg)",
            rep.max_swing_deg
        );
        assert!(rep.passed);
    }
}

#[test]
fn simulation_does_not_depend_on_scale() {
    let (c1, _, s1) = rigged(1.7);
    let (c2, _, s2) = rigged(0.017);
    // A short horizon: over seconds the swinging cloth is chaotic and rounding differs.
    let a = parts::simulate(&c1, &s1, Motion::Walk, 0.5).unwrap();
    let b = parts::simulate(&c2, &s2, Motion::Walk, 0.5).unwrap();
    assert!(
        (a.max_swing_deg - b.max_swing_deg).abs() < 0.5,
        "{} vs {}",
        a.max_swing_deg,
        b.max_swing_deg
    );
    assert!((a.worst_penetration_mm_at_1_7m - b.worst_penetration_mm_at_1_7m).abs() < 0.5);
    assert_eq!(a.joints, b.joints);
}

#[test]
fn without_colliders_the_skirt_enters_the_legs() {
    // Positive control for the penetration and between-legs measures: the same skirt
    // with its springs told to collide with nothing.
    let (c, _, mut sc) = rigged(1.7);
    sc.springs.get_mut("skirt").unwrap().collider_groups.clear();
    let rep = parts::simulate(&c, &sc, Motion::Run, 3.0).unwrap();
    eprintln!("{rep:?}");
    assert!(rep.stable);
    assert!(rep.worst_penetration_mm_at_1_7m > 5.0, "{rep:?}");
    assert!(rep.worst_collider_mm_at_1_7m > 5.0, "{rep:?}");
    assert!(!rep.passed);
}

#[test]
fn three_rules_fire_on_broken_rigs() {
    let (c, chains, _) = rigged(1.7);
    let ok = parts::rule_checks(&c, &chains, &[]);
    assert_eq!(ok.len(), 4);
    assert!(ok.iter().all(|k| k.passed), "{ok:#?}");
    let id = |v: &[rigsmith::Check], s: &str| v.iter().find(|k| k.id == s).unwrap().clone();
    // Rule 1: a skirt chain re-parented to a thigh.
    let mut bad = c.clone();
    let skel = bad.skeleton.as_mut().unwrap();
    let thigh = skel.find("thigh_l").unwrap();
    let sk0 = skel.find("skirt.00").unwrap();
    skel.bones[sk0].parent = Some(thigh);
    let k = id(
        &parts::rule_checks(&bad, &chains, &[]),
        "parts.cloth_parent",
    );
    assert!(!k.passed && k.value == 1.0, "{k:?}");
    // Rule 2: skirt vertices given a share of the thigh.
    let mut bad = c.clone();
    let w = bad.parts[1].weights.as_mut().unwrap();
    for v in 200..240 {
        w.add(v, thigh as u32, 0.5);
    }
    w.normalize();
    let k = id(
        &parts::rule_checks(&bad, &chains, &[]),
        "parts.cloth_on_leg",
    );
    assert!(!k.passed && k.value == 40.0, "{k:?}");
    // Rule 3: rest tracks baked onto skirt and hair bones.
    let k = id(
        &parts::rule_checks(
            &c,
            &chains,
            &["skirt.00.001".into(), "hair.00".into(), "thigh_l".into()],
        ),
        "parts.cloth_animated",
    );
    assert!(!k.passed && k.value == 2.0, "{k:?}");
    // Joined garment: a body whose lower trunk is pulled 50/50 by both thighs.
    let mut bad = c.clone();
    let thigh_r = bad.skeleton.as_ref().unwrap().find("thigh_r").unwrap() as u32;
    let body = &mut bad.parts[0];
    let mut wts = body.weights.clone().unwrap();
    let mut n = 0;
    for (v, q) in body.mesh.positions.iter().enumerate() {
        if q.y < 1.0 && q.x.abs() < 0.2 && q.y > 0.85 {
            wts.vertices[v] = vec![
                rigsmith::Influence {
                    bone: thigh as u32,
                    weight: 0.5,
                },
                rigsmith::Influence {
                    bone: thigh_r,
                    weight: 0.5,
                },
            ];
            n += 1;
        }
    }
    body.weights = Some(wts);
    let k = id(
        &parts::rule_checks(&bad, &chains, &[]),
        "parts.joined_garment",
    );
    assert!(n > 20 && !k.passed && k.value > 1.0, "{n} {k:?}");
}

#[test]
fn chains_from_a_rigged_skeleton_by_whole_token() {
    let (c, chains, _) = rigged(1.7);
    // Round trip: chains found again from the skeleton alone match the built ones.
    let again = parts::chains_from_skeleton(&c);
    assert_eq!(again, chains);
    // `chairbone` and `shoulder` are not cosmetic; `hair_root` is a hub.
    let mut c2 = c.clone();
    let skel = c2.skeleton.as_mut().unwrap();
    let head = skel.find("head").unwrap();
    skel.bones.push(Bone::new(
        "chairbone",
        Some(head),
        Vec3::new(0.0, 1.7, 0.0),
        Vec3::new(0.0, 1.8, 0.0),
    ));
    let hub = skel.bones.len();
    skel.bones.push(Bone::new(
        "hair_root",
        Some(head),
        Vec3::new(0.0, 1.7, 0.0),
        Vec3::new(0.0, 1.72, 0.0),
    ));
    for i in 0..3 {
        let x = i as f32 * 0.02;
        skel.bones.push(Bone::new(
            format!("HairStrand{i}"),
            Some(hub),
            Vec3::new(x, 1.7, 0.0),
            Vec3::new(x, 1.6, 0.0),
        ));
    }
    let found = parts::chains_from_skeleton(&c2);
    assert!(found.iter().all(|ch| !ch
        .bones
        .iter()
        .any(|b| b == "chairbone" || b == "hair_root")));
    let strands: Vec<_> = found
        .iter()
        .filter(|ch| ch.bones[0].starts_with("HairStrand"))
        .collect();
    assert_eq!(strands.len(), 3);
    assert!(strands
        .iter()
        .all(|s| s.root_parent.as_deref() == Some("hair_root")));
    // Unweighted strand: its tip falls back to the bone's own tail, 0.1 m down its Y.
    let t = strands[0].tips[0];
    assert!((t[1] - 0.1).abs() < 1e-4 && t[0].abs() < 1e-4, "{t:?}");
}

#[test]
fn sidecar_round_trips_and_rejects_bad_files() {
    let (_, _, sc) = rigged(1.7);
    let dir = crate::common::tmpdir();
    let path = dir.path().join("figure.rig.json");
    sc.write(&path).unwrap();
    let back = Sidecar::read(&path).unwrap();
    assert_eq!(back.to_string(), sc.to_string());
    assert_eq!(
        parts::sidecar_path(std::path::Path::new("a/hero.glb")),
        std::path::PathBuf::from("a/hero.rig.json")
    );
    // A chain with one tip too few.
    let mut v: serde_json::Value = serde_json::from_str(&sc.to_string()).unwrap();
    v["chains"][0]["tips"].as_array_mut().unwrap().pop();
    let err = Sidecar::parse(&v.to_string(), &path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("figure.rig.json") && err.contains("chains[0].tips"),
        "{err}"
    );
    // Per-joint hit radii: one per bone, not negative; the clean twin round-trips.
    let mut cleared = sc.clone();
    parts::clear_rest_pose(&mut cleared, rigged(1.7).0.skeleton.as_ref().unwrap());
    let k = cleared
        .chains
        .iter()
        .position(|c| !c.hit_radii.is_empty())
        .unwrap();
    let back = Sidecar::parse(&cleared.to_string(), &path).unwrap();
    assert_eq!(back.chains[k].hit_radii, cleared.chains[k].hit_radii);
    let mut v: serde_json::Value = serde_json::from_str(&cleared.to_string()).unwrap();
    v["chains"][k]["hit_radii"].as_array_mut().unwrap().pop();
    let err = Sidecar::parse(&v.to_string(), &path)
        .unwrap_err()
        .to_string();
    assert!(err.contains(&format!("chains[{k}].hit_radii")), "{err}");
    let mut v: serde_json::Value = serde_json::from_str(&cleared.to_string()).unwrap();
    v["chains"][k]["hit_radii"][0] = (-0.01).into();
    let err = Sidecar::parse(&v.to_string(), &path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not negative"), "{err}");
    let mut v: serde_json::Value = serde_json::from_str(&sc.to_string()).unwrap();
    v["version"] = 99.into();
    let err = Sidecar::parse(&v.to_string(), &path)
        .unwrap_err()
        .to_string();
    assert!(err.contains("version"), "{err}");
    // Authored colliders win over measured ones.
    let mut sc2 = sc.clone();
    let mut mine = sc.colliders[0].clone();
    mine.measured = false;
    mine.shape = parts::ColliderShape::Sphere {
        offset: [0.0; 3],
        radius: 0.5,
    };
    sc2.merge_colliders(&[mine.clone()]);
    assert_eq!(sc2.colliders[0], mine);
    assert_eq!(sc2.colliders.len(), sc.colliders.len());
}

#[test]
fn building_chains_needs_a_skeleton() {
    let mut c = figure(1.7);
    c.skeleton = None;
    c.parts[0].weights = None;
    let err = parts::build_chains(&mut c, &parts::ChainOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no skeleton"), "{err}");
}

/// The done-when check on a prepared character: every motion passes.
fn assert_all_motions_pass(c: &Character, sc: &Sidecar, what: &str) {
    for m in Motion::ALL {
        let rep = parts::simulate(c, sc, m, 3.0).unwrap();
        eprintln!("{what} {m:?}: {rep:?}");
        assert!(rep.stable, "{what} {m:?} unstable");
        assert!(
            rep.worst_penetration_mm_at_1_7m < 5.0,
            "{what} {m:?}: {} mm at {}",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_at
        );
        assert_eq!(
            rep.skirt_joints_between_legs, 0,
            "{what} {m:?}: {}",
            rep.between_at
        );
        assert_eq!(rep.hair_in_head, 0, "{what} {m:?}");
        assert!(rep.max_swing_deg > 5.0, "{what} {m:?}: no swing");
        assert!(rep.passed);
    }
}

#[test]
fn mannequin_with_skirt_and_hair_rigs_swings_and_exports_vrm() {
    use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
    let mut c = mannequin::build(&MannequinOptions {
        pose: ArmPose::A,
        skirt: true,
        hair: true,
        ..Default::default()
    });
    let p = crate::common::prepare(&mut c);
    assert!(p.rigged_here);
    let sc = &p.sidecar;
    let skirt = sc.chains.iter().filter(|c| c.class == "skirt").count();
    let hair = sc.chains.iter().filter(|c| c.class == "hair").count();
    assert!(skirt >= 12, "{skirt} skirt chains");
    assert!(hair >= 2, "{hair} hair chains (twin tails at least)");
    // The sidecar lists each chain with class, tips, hulls and neighbours.
    for ch in &sc.chains {
        assert_eq!(ch.tips.len(), ch.bones.len());
        assert_eq!(ch.hulls.len(), ch.bones.len());
        assert_eq!(ch.neighbours.len(), ch.bones.len());
    }
    assert!(sc
        .chains
        .iter()
        .filter(|c| c.class == "skirt")
        .all(|c| c.neighbours.iter().any(|m| !m.is_empty())));
    assert_eq!(sc.surfaces.get("cloth_skirt"), Some(&SurfaceClass::Cloth));
    assert_eq!(sc.surfaces.get("hair"), Some(&SurfaceClass::Hair));
    // The three rules hold on what rigsmith built.
    let checks = parts::rule_checks(&c, &sc.chains, &[]);
    assert!(checks.iter().all(|k| k.passed), "{checks:#?}");
    assert_all_motions_pass(&c, sc, "mannequin");
    // VRM export: humanoid, springs and colliders present.
    let dir = crate::common::tmpdir();
    let out = dir.path().join("m.vrm");
    let meta = rigsmith::parts::vrm_write::VrmMeta::default();
    rigsmith::parts::vrm_write::write_vrm(&out, &c, &p.humanoid, sc, &meta).unwrap();
    let back = rigsmith::io::read_character(&out).unwrap();
    let vrm = back.vrm.clone().expect("VRM data");
    assert_eq!(vrm.version, 1);
    for b in rigsmith::humanoid::REQUIRED_BONES {
        assert!(vrm.humanoid.contains_key(b), "{b}");
    }
    // Read back as a rigged model with hair and skirt bones, its chains are found again
    // from the skeleton alone, with tips, hulls and neighbours measured from the weights.
    let again = parts::chains_from_skeleton(&back);
    let springing: Vec<_> = again.iter().filter(|c| c.springs()).collect();
    assert_eq!(springing.len(), skirt + hair);
    assert!(springing
        .iter()
        .all(|c| c.hulls.iter().all(|h| !h.is_empty())));
    assert!(springing
        .iter()
        .filter(|c| c.class == "skirt")
        .all(|c| c.neighbours.iter().any(|m| !m.is_empty())));
    let sb = vrm.spring_bone.expect("springs");
    assert_eq!(sb["springs"].as_array().unwrap().len(), skirt + hair);
    assert_eq!(
        sb["colliders"].as_array().unwrap().len(),
        sc.colliders.len()
    );
    // Missing required humanoid bones is an error naming them.
    let mut partial = p.humanoid.clone();
    partial.remove("leftFoot");
    let err = rigsmith::parts::vrm_write::vrm_bytes(&c, &partial, sc, &meta)
        .unwrap_err()
        .to_string();
    assert!(err.contains("leftFoot"), "{err}");
}

#[test]
fn makehuman_body_with_skirt_and_tights_swings_without_entering_the_legs() {
    use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
    let corpus = Corpus::open(&crate::common::mpfb2_dir()).unwrap();
    let mut c = corpus
        .build(&CorpusOptions {
            parts: vec!["body".into(), "skirt".into(), "tights".into()],
            rig: Some("game_engine".into()),
            ..Default::default()
        })
        .unwrap();
    let p = crate::common::prepare(&mut c);
    assert!(!p.rigged_here);
    let sc = &p.sidecar;
    assert!(sc.chains.iter().filter(|c| c.class == "skirt").count() >= 12);
    // The skirt's artist weights (thighs) were replaced by its own chains; tights keep
    // theirs and count as body for the colliders.
    let checks = parts::rule_checks(&c, &sc.chains, &[]);
    let k = checks
        .iter()
        .find(|k| k.id == "parts.cloth_on_leg")
        .unwrap();
    assert!(k.passed, "{k:?}");
    assert!(sc.colliders.iter().any(|c| c.name == "thigh.L"));
    // The MakeHuman skirt reaches the ankles: 11 segments per panel (short bones whose
    // hit spheres cover the cloth), a hit radius for a long chain, leg capsules per half
    // bone shrunk to clear the skirt's rest pose (for the VRM export), hit radius and
    // stiffness doubled for the long chains. The solver collides with the legs at their
    // measured size, each skirt bone (its tail and its whole length) kept at its own
    // rest distance: every motion passes, with no joint between the legs.
    assert!(
        sc.springs["skirt"].hit_radius > 0.028,
        "{:?}",
        sc.springs["skirt"]
    );
    assert!(
        sc.springs["skirt"].stiffness > 4.5,
        "{:?}",
        sc.springs["skirt"]
    );
    assert!(sc
        .chains
        .iter()
        .filter(|c| c.class == "skirt")
        .all(|c| c.bones.len() >= 8));
    for m in Motion::ALL {
        let rep = parts::simulate(&c, sc, m, 3.0).unwrap();
        eprintln!("makehuman {m:?}: {rep:?}");
        assert!(rep.stable, "{m:?}");
        assert!(
            rep.worst_collider_mm_at_1_7m < 5.0,
            "{m:?}: {} mm at {}",
            rep.worst_collider_mm_at_1_7m,
            rep.worst_collider_at
        );
        assert!(
            rep.worst_penetration_mm_at_1_7m < 5.0,
            "{m:?}: {} mm into the body at {}",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_at
        );
        assert!(rep.max_swing_deg > 1.0, "{m:?}");
        assert_eq!(
            rep.skirt_joints_between_legs, 0,
            "{m:?}: {}",
            rep.between_at
        );
        assert!(rep.passed, "{m:?}: {rep:?}");
    }
    // Positive control for the whole-bone collisions and the web between the legs: the
    // VRM runtime model (tails only, one pass, no links, no web) on the same sidecar.
    for m in [Motion::Run, Motion::Jump] {
        let vrm = parts::simulate_model(&c, sc, m, 3.0, parts::SpringModel::Vrm).unwrap();
        eprintln!("makehuman {m:?} as a VRM runtime runs it: {vrm:?}");
        assert!(vrm.stable, "{vrm:?}");
        assert!(vrm.worst_penetration_mm_at_1_7m > 10.0, "{vrm:?}");
        assert!(
            vrm.worst_at.contains("(bone)") || m == Motion::Run,
            "{vrm:?}"
        );
        assert!(!vrm.passed);
        if m == Motion::Jump {
            assert!(vrm.skirt_joints_between_legs > 5, "{vrm:?}");
        }
    }
    // Clean twin of the body entry: standing still, joints that rest inside the measured
    // capsules (the skirt is tight over the hips) are not counted for it.
    let rest = parts::simulate(&c, sc, Motion::Rest, 1.0).unwrap();
    assert!(rest.worst_penetration_mm_at_1_7m < 0.5, "{rest:?}");
    assert!(rest.passed, "{rest:?}");
    // Positive control for the body entry: the same skirt told to collide with nothing
    // walks straight into the legs, and the shrunk colliders alone would hide part of it.
    let mut bare = sc.clone();
    bare.springs
        .get_mut("skirt")
        .unwrap()
        .collider_groups
        .clear();
    let rep = parts::simulate(&c, &bare, Motion::Walk, 3.0).unwrap();
    eprintln!("makehuman without colliders: {rep:?}");
    assert!(rep.worst_penetration_mm_at_1_7m > 20.0, "{rep:?}");
    assert!(!rep.passed);
}

/// A two-joint skinned GLB with one clip: `root` translates by STEP keys (0 -> 1 m in
/// X at 1 s), `tip` (1 m above) turns 90 degrees about Z by LINEAR keys over 1 s.
fn animated_glb() -> Vec<u8> {
    let mut bin: Vec<u8> = Vec::new();
    let f = |b: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| b.extend(x.to_le_bytes()));
    f(&mut bin, &[0.0, 1.0, 0.0, 0.1, 2.0, 0.0, -0.1, 2.0, 0.0]); // 0: positions
    for _ in 0..3 {
        for j in [1u16, 0, 0, 0] {
            bin.extend(j.to_le_bytes()); // 36: joints
        }
    }
    f(&mut bin, &[1.0, 0.0, 0.0, 0.0].repeat(3)); // 60: weights
    for i in [0u16, 1, 2, 0] {
        bin.extend(i.to_le_bytes()); // 108: indices (+ pad)
    }
    f(&mut bin, &[0.0, 1.0]); // 116: times
    let s = std::f32::consts::FRAC_1_SQRT_2;
    f(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s]); // 124: rotations
    f(&mut bin, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]); // 156: translations
    assert_eq!(bin.len(), 180);
    let json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "root", "children": [1]},
            {"name": "tip", "translation": [0.0, 1.0, 0.0]},
            {"name": "body", "mesh": 0, "skin": 0}
        ],
        "skins": [{"joints": [0, 1]}],
        "meshes": [{"name": "body", "primitives": [{
            "attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
        "buffers": [{"byteLength": 180}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 24},
            {"buffer": 0, "byteOffset": 60, "byteLength": 48},
            {"buffer": 0, "byteOffset": 108, "byteLength": 6},
            {"buffer": 0, "byteOffset": 116, "byteLength": 8},
            {"buffer": 0, "byteOffset": 124, "byteLength": 32},
            {"buffer": 0, "byteOffset": 156, "byteLength": 24}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [-0.1, 1.0, 0.0], "max": [0.1, 2.0, 0.0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5123, "count": 3, "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [1.0]},
            {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"},
            {"bufferView": 6, "componentType": 5126, "count": 2, "type": "VEC3"}
        ],
        "animations": [{"name": "wave", "samplers": [
            {"input": 4, "output": 5, "interpolation": "LINEAR"},
            {"input": 4, "output": 6, "interpolation": "STEP"}
        ], "channels": [
            {"sampler": 0, "target": {"node": 1, "path": "rotation"}},
            {"sampler": 1, "target": {"node": 0, "path": "translation"}}
        ]}]
    });
    let mut js = serde_json::to_vec(&json).unwrap();
    while js.len() % 4 != 0 {
        js.push(b' ');
    }
    let mut glb = Vec::new();
    glb.extend(b"glTF");
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + js.len() + 8 + bin.len()) as u32).to_le_bytes());
    glb.extend((js.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(&js);
    glb.extend((bin.len() as u32).to_le_bytes());
    glb.extend(b"BIN\0");
    glb.extend(&bin);
    glb
}

#[test]
fn gltf_animation_channels_are_read_linear_and_step() {
    use rigsmith::io::gltf::animation::{read_animations, Target};
    let dir = crate::common::tmpdir();
    let path = dir.path().join("wave.glb");
    std::fs::write(&path, animated_glb()).unwrap();
    let a = read_animations(&path).unwrap();
    assert_eq!(a.clips.len(), 1);
    assert_eq!(a.find("wave").unwrap(), 0);
    assert_eq!(a.find("0").unwrap(), 0);
    let err = a.find("run").unwrap_err().to_string();
    assert!(err.contains("wave"), "{err}");
    let clip = &a.clips[0];
    assert_eq!(clip.duration, 1.0);
    let rot = clip
        .channels
        .iter()
        .find(|c| c.target == Target::Rotation)
        .unwrap();
    // LINEAR: half way is 45 degrees about Z.
    let q = glam::Quat::from_vec4(rot.sample(0.5));
    let (axis, angle) = q.to_axis_angle();
    assert!((angle.to_degrees() - 45.0).abs() < 0.01, "{angle}");
    assert!(axis.abs_diff_eq(Vec3::Z, 1e-4));
    // STEP: the key holds until the next one.
    let tr = clip
        .channels
        .iter()
        .find(|c| c.target == Target::Translation)
        .unwrap();
    assert_eq!(tr.sample(0.99).x, 0.0);
    assert_eq!(tr.sample(1.0).x, 1.0);
    // Skinning: the tip bone turns its vertex (0, 2, 0) about (0, 1, 0).
    let c = rigsmith::io::read_character(&path).unwrap();
    let skel = c.skeleton.as_ref().unwrap();
    let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
    let tip = skel.find("tip").unwrap();
    let s = a.skinning(0, 0.5, &parents);
    let p = s[tip].transform_point3(Vec3::new(0.0, 2.0, 0.0));
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(p.abs_diff_eq(Vec3::new(-h, 1.0 + h, 0.0), 1e-4), "{p}");
    // At rest (t = 0) every matrix is the identity.
    assert!(a
        .skinning(0, 0.0, &parents)
        .iter()
        .all(|m| m.abs_diff_eq(glam::Mat4::IDENTITY, 1e-5)));
    // A bad file: a channel pointing at a sampler that does not exist names the field.
    let mut bad = animated_glb();
    let needle = b"\"sampler\":1";
    let at = bad.windows(needle.len()).position(|w| w == needle).unwrap();
    bad[at + needle.len() - 1] = b'7';
    std::fs::write(&path, bad).unwrap();
    let err = read_animations(&path).unwrap_err().to_string();
    assert!(err.contains("animations[0].channels[1].sampler"), "{err}");
    assert!(err.contains("wave.glb"), "{err}");
}

#[test]
fn a_real_gallop_drives_the_fox_tail() {
    use rigsmith::io::gltf::animation::read_animations;
    let path = crate::common::quaternius_dir().join("animals_Fox.glb");
    let mut c = rigsmith::io::read_character(&path).unwrap();
    let p = crate::common::prepare(&mut c);
    let tail = p.sidecar.chains.iter().find(|c| c.class == "tail").unwrap();
    assert_eq!(tail.bones.len(), 8);
    let a = read_animations(&path).unwrap();
    assert_eq!(a.clips.len(), 12);
    let gallop = a.find("AnimalArmature|Gallop").unwrap();
    let skel = c.skeleton.as_ref().unwrap();
    let parents: Vec<Option<usize>> = skel.bones.iter().map(|b| b.parent).collect();
    let drive = |t: f32| a.skinning(gallop, t, &parents);
    let (rep, frames) =
        parts::simulate_driven(&c, &p.sidecar, parts::SpringModel::Fitted, 2.0, 30, &drive)
            .unwrap();
    assert_eq!(rep.motion, Motion::Animation);
    assert_eq!(frames.len(), 4);
    assert!(rep.stable);
    // The body moves with the clip (the first leg bone's matrix changes) and the tail
    // swings far more than standing still.
    let still = parts::simulate(&c, &p.sidecar, Motion::Rest, 2.0).unwrap();
    assert!(
        rep.max_swing_deg > still.max_swing_deg + 20.0,
        "{} vs {}",
        rep.max_swing_deg,
        still.max_swing_deg
    );
    let moved = frames
        .windows(2)
        .any(|w| !w[0].skin[0].abs_diff_eq(w[1].skin[0], 1e-4) || w[0].skin != w[1].skin);
    assert!(moved);
}

#[test]
fn colliders_that_hold_a_skirt_joint_at_rest_are_shrunk() {
    let (c, _, sc) = rigged(1.7);
    let skel = c.skeleton.as_ref().unwrap();
    // Clean twin: once cleared, a sidecar is left alone, and colliders the skirt does
    // not collide with (head, neck, chest) are never touched.
    let mut clean = sc.clone();
    parts::clear_rest_pose(&mut clean, skel);
    let once = clean.colliders.clone();
    assert!(parts::clear_rest_pose(&mut clean, skel).is_empty());
    assert_eq!(clean.colliders, once);
    // A collider is only ever made thinner, never below half its measured radius.
    let radius = |c: &parts::Collider| match c.shape {
        parts::ColliderShape::Capsule { radius, .. }
        | parts::ColliderShape::Sphere { radius, .. } => radius,
        parts::ColliderShape::Plane { .. } => 0.0,
    };
    for (a, b) in sc.colliders.iter().zip(&once) {
        assert!(
            radius(b) <= radius(a) && radius(b) >= 0.5 * radius(a) - 1e-6,
            "{a:?} {b:?}"
        );
    }
    let mut broken = clean.clone();
    // Positive control: a fat measured capsule through the skirt's rest joints (a lid
    // across the hips at the hem's first joint), and its authored twin.
    let skirt = sc.chains.iter().find(|c| c.class == "skirt").unwrap();
    let tip = skirt.world_tips(skel)[0];
    let hips = skel.find(skirt.root_parent.as_deref().unwrap()).unwrap();
    let inv = skel.bones[hips].rest_matrix().inverse();
    let lid = |name: &str, measured: bool| parts::Collider {
        name: name.into(),
        bone: skel.bones[hips].name.clone(),
        shape: parts::ColliderShape::Capsule {
            offset: inv
                .transform_point3(Vec3::new(-0.05, tip.y, 0.0))
                .to_array(),
            tail: inv.transform_point3(Vec3::new(0.05, tip.y, 0.0)).to_array(),
            radius: 0.3,
        },
        group: "waist".into(),
        inside: false,
        measured,
    };
    broken.colliders.push(lid("fat", true));
    broken.colliders.push(lid("authored", false));
    let notes = parts::clear_rest_pose(&mut broken, skel);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].starts_with("fat: radius 0.300 -> 0.150"),
        "{notes:?}"
    );
    // The joints the lid still holds (it cannot shrink below half) get hit radius 0.
    assert!(notes[1].starts_with("hit radii: "), "{notes:?}");
    assert!(notes[1].ends_with("down to 0.000 H"), "{notes:?}");
    let r = |n: &str| match broken.colliders.iter().find(|c| c.name == n).unwrap().shape {
        parts::ColliderShape::Capsule { radius, .. } => radius,
        _ => unreachable!(),
    };
    // Floored at half: the skirt's first joints sit well inside 0.3 m of the hips.
    assert!((r("fat") - 0.15).abs() < 1e-6);
    assert_eq!(r("authored"), 0.3);
}

#[test]
fn the_exported_rest_pose_stands_in_a_vrm_runtime() {
    // A VRM runtime keeps every joint its hit radius off every collider: a skirt lying
    // on the body at rest would be kicked off on the first step. The joints resting
    // close get their rest clearance as their own hit radius, written per joint.
    let (c, _, sc) = rigged(1.7);
    let skel = c.skeleton.as_ref().unwrap();
    let mut cleared = sc.clone();
    let notes = parts::clear_rest_pose(&mut cleared, skel);
    let close = cleared
        .chains
        .iter()
        .filter(|ch| !ch.hit_radii.is_empty())
        .count();
    assert!(close > 0, "{notes:?}");
    for ch in cleared.chains.iter().filter(|ch| !ch.hit_radii.is_empty()) {
        let class = cleared.springs[&ch.class].hit_radius;
        assert_eq!(ch.hit_radii.len(), ch.bones.len());
        assert!(
            ch.hit_radii.iter().all(|r| (0.0..=class).contains(r)),
            "{ch:?}"
        );
    }
    // Standing still as a VRM runtime runs it: the skirt stays put.
    let still = |sc: &Sidecar| {
        parts::simulate_model(&c, sc, Motion::Rest, 1.0, parts::SpringModel::Vrm).unwrap()
    };
    let stands = still(&cleared);
    let fitted = parts::simulate(&c, &cleared, Motion::Rest, 1.0).unwrap();
    eprintln!("vrm rest: {stands:?}\nfitted rest: {fitted:?}");
    assert!(
        stands.max_swing_deg < fitted.max_swing_deg + 2.0,
        "{stands:?} {fitted:?}"
    );
    // Positive control: the class's hit radius on every joint kicks the skirt off.
    let mut kicked = cleared.clone();
    for ch in kicked.chains.iter_mut() {
        ch.hit_radii.clear();
    }
    let falls = still(&kicked);
    eprintln!("vrm rest, class hit radii: {falls:?}");
    // Measured: 4.0 deg standing, 8.6 deg kicked.
    assert!(
        falls.max_swing_deg > stands.max_swing_deg + 4.0,
        "{falls:?}"
    );
}

#[test]
fn the_vrm_carries_each_joints_own_hit_radius() {
    let mut c = rigsmith::mannequin::build(&rigsmith::mannequin::MannequinOptions {
        skirt: true,
        ..Default::default()
    });
    let p = crate::common::prepare(&mut c);
    let vrm =
        parts::simulate_model(&c, &p.sidecar, Motion::Walk, 1.0, parts::SpringModel::Vrm).unwrap();
    assert_eq!(vrm.model, parts::SpringModel::Vrm);
    assert!(vrm.stable);
    // Smaller where a joint rests close to a collider, the class's elsewhere.
    let dir = crate::common::tmpdir();
    let out = dir.path().join("m.vrm");
    let meta = rigsmith::parts::vrm_write::VrmMeta::default();
    rigsmith::parts::vrm_write::write_vrm(&out, &c, &p.humanoid, &p.sidecar, &meta).unwrap();
    let back = rigsmith::io::read_character(&out).unwrap();
    let sb = back.vrm.unwrap().spring_bone.unwrap();
    let radii: std::collections::BTreeSet<u64> = sb["springs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["joints"].as_array().unwrap().clone())
        .map(|j| (j["hitRadius"].as_f64().unwrap() * 1e4).round() as u64)
        .collect();
    assert!(radii.len() > 2, "{radii:?}");
    let class = (p.sidecar.springs["skirt"].hit_radius * p.sidecar.height * 1e4).round() as u64;
    assert!(radii.contains(&class), "{radii:?} {class}");
}

#[test]
fn every_makehuman_variant_in_its_skirt_passes_every_motion() {
    // The ankle-length skirt on all 14 named bodies (0.6 to 2.0 m, thin to heavy): no
    // entry into the legs beyond 5 mm on a 1.7 m figure, no joint between the legs.
    use rigsmith::io::mpfb2::{Corpus, CorpusOptions, VARIANTS};
    let corpus = Corpus::open(&crate::common::mpfb2_dir()).unwrap();
    let mut worst = (0.0f32, String::new());
    for v in VARIANTS {
        let mut c = corpus
            .build(&CorpusOptions {
                variant: Some(v.name.into()),
                parts: vec!["body".into(), "skirt".into(), "tights".into()],
                rig: Some("game_engine".into()),
                ..Default::default()
            })
            .unwrap();
        let p = crate::common::prepare(&mut c);
        for m in [Motion::Walk, Motion::Run, Motion::Jump, Motion::Spin] {
            let r = parts::simulate(&c, &p.sidecar, m, 3.0).unwrap();
            assert!(r.passed, "{} {m:?}: {r:?}", v.name);
            if r.worst_penetration_mm_at_1_7m > worst.0 {
                worst = (r.worst_penetration_mm_at_1_7m, format!("{} {m:?}", v.name));
            }
        }
    }
    eprintln!("worst body entry over the variants: {worst:?}");
    assert!(worst.0 > 0.0 && worst.0 < 5.0, "{worst:?}");
}

#[test]
fn a_rig_that_splits_the_legs_in_two_bones_gets_whole_leg_colliders() {
    // MakeHuman's `default` rig: upperleg01.L + upperleg02.L, lowerleg01.L + lowerleg02.L.
    use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
    let corpus = Corpus::open(&crate::common::mpfb2_dir()).unwrap();
    let build = |rig: &str| {
        corpus
            .build(&CorpusOptions {
                parts: vec!["body".into(), "skirt".into(), "tights".into()],
                rig: Some(rig.into()),
                ..Default::default()
            })
            .unwrap()
    };
    let mut c = build("default");
    let p = crate::common::prepare(&mut c);
    let skel = c.skeleton.as_ref().unwrap();
    let body = parts::measure_colliders(&c);
    let cap = |name: &str| {
        let col = body.iter().find(|k| k.name == name).unwrap();
        let m = skel.bones[skel.find(&col.bone).unwrap()].rest_matrix();
        match col.shape {
            parts::ColliderShape::Capsule { offset, tail, .. } => (
                m.transform_point3(Vec3::from_array(offset)),
                m.transform_point3(Vec3::from_array(tail)),
            ),
            _ => panic!("{col:?}"),
        }
    };
    // The thigh's two capsules run from the hip joint to the knee, riding upperleg01.
    let hip = skel.bones[skel.find("upperleg01.L").unwrap()].head;
    let knee = skel.bones[skel.find("lowerleg01.L").unwrap()].head;
    let ankle = skel.bones[skel.find("foot.L").unwrap()].head;
    assert!((cap("thigh.L").0 - hip).length() < 1e-4);
    assert!((cap("thigh.L.lower").1 - knee).length() < 1e-4);
    assert!((cap("shin.L.lower").1 - ankle).length() < 1e-4);
    for m in Motion::ALL {
        let r = parts::simulate(&c, &p.sidecar, m, 3.0).unwrap();
        assert!(r.passed, "{m:?}: {r:?}");
    }
    // Clean twin: on game_engine (one bone per segment) the capsules end at the bone's
    // tail, which is the knee.
    let g = build("game_engine");
    let gs = g.skeleton.as_ref().unwrap();
    let gb = parts::measure_colliders(&g);
    let thigh = gb.iter().find(|k| k.name == "thigh.L.lower").unwrap();
    let bone = &gs.bones[gs.find(&thigh.bone).unwrap()];
    if let parts::ColliderShape::Capsule { tail, .. } = thigh.shape {
        let t = bone.rest_matrix().transform_point3(Vec3::from_array(tail));
        assert!((t - bone.tail).length() < 1e-4);
    }
}

#[test]
fn quaternius_knight_tabard_and_casual_hair_pass_every_motion() {
    // Real rigged files by an artist. The knight's tabard is painted on the skin surface
    // (its primitive shares seams with the boots and the skin), so it is a piece of the
    // skin and gets no chains of its own; the casual man's hair has its own 17 chains.
    let dir = crate::common::quaternius_dir();
    for (file, class, chains) in [
        ("knight_KnightCharacter.glb", "skirt", 0),
        ("men_Casual.glb", "hair", 17),
    ] {
        let path = dir.join(file);
        assert!(path.exists(), "missing {}", path.display());
        let mut c = rigsmith::io::read_character(&path).unwrap();
        let p = crate::common::prepare(&mut c);
        let n = p.sidecar.chains.iter().filter(|k| k.class == class).count();
        assert_eq!(n, chains, "{file}");
        for m in Motion::ALL {
            let r = parts::simulate(&c, &p.sidecar, m, 3.0).unwrap();
            assert!(r.passed, "{file} {m:?}: {r:?}");
        }
    }
}
