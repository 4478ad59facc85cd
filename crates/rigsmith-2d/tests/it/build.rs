//! The scene builder on the sample character (bones nesting) and prop (flat nesting).

use rigsmith_2d::art::PartProbe;
use rigsmith_2d::build::{build_rig, build_rig_subtree, BuildOptions, BuiltRig};
use rigsmith_2d::check::check;
use rigsmith_2d::paint_order::chain_paint_order;
use rigsmith_2d::rest_pose::RestPoseCause;
use rigsmith_2d::RigError;
use serde_json::{json, Value};

use crate::common::{read_sample, sample};

const K: f64 = 345.0 / 1024.0;

fn opts(dir: &std::path::Path, entity: &str) -> BuildOptions {
    BuildOptions {
        probe: Some(PartProbe {
            root: dir.to_path_buf(),
            prefix: format!("characters/{entity}/"),
        }),
        ..BuildOptions::default()
    }
}

/// The node at a `/`-separated path under the entity.
fn node<'a>(built: &'a BuiltRig, path: &str) -> &'a Value {
    let mut cur = &built.node;
    for part in path.split('/') {
        cur = cur["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == part)
            .unwrap_or_else(|| panic!("no node {part} in {path}"));
    }
    cur
}

fn close(v: &Value, want: [f64; 2]) {
    let a = v.as_array().unwrap();
    for i in 0..2 {
        let got = a[i].as_f64().unwrap();
        assert!((got - want[i]).abs() < 1e-5, "{v} vs {want:?}");
    }
}

#[test]
fn kit_builds_with_bone_nesting() {
    let (_t, dir) = sample("kit");
    let (doc, raw) = read_sample(&dir);
    assert!(check(&doc).is_clean(), "{}", check(&doc).to_text());
    let built = build_rig_subtree("kit", &raw, &opts(&dir, "kit")).unwrap();
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    assert!(built.resolutions.is_empty());
    assert!((built.scale - K).abs() < 1e-12);
    // Origin: the bones' extent centre (x 402..622, y 350..980).
    close(&built.node["origin"], [512.0, 665.0]);
    close(&node(&built, "torso")["position"], [0.0, -15.0 * K]);
    close(&node(&built, "torso/head")["position"], [0.0, -300.0 * K]);
    close(
        &node(&built, "torso/head/eyes")["position"],
        [0.0, -110.0 * K],
    );
    close(
        &node(&built, "torso/arm_upper_l")["position"],
        [110.0 * K, -270.0 * K],
    );
    close(
        &node(&built, "torso/arm_upper_l/arm_lower_l")["position"],
        [0.0, 150.0 * K],
    );
    close(&node(&built, "leg_l")["position"], [50.0 * K, -15.0 * K]);
    let arm = node(&built, "torso/arm_upper_l");
    assert!((arm["rotation"].as_f64().unwrap() - (-20f64).to_radians()).abs() < 1e-6);
    // A face part on its head's bone does not turn twice.
    assert_eq!(node(&built, "torso/head/eyes")["rotation"], json!(0.0));
    // Boxes: viewBox-only SVG, width/height SVG, PNG with a declared width.
    close(
        &node(&built, "torso")["visual"]["box"],
        [200.0 * K, 300.0 * K],
    );
    close(
        &node(&built, "torso/head")["visual"]["box"],
        [180.0 * K, 200.0 * K],
    );
    close(
        &node(&built, "torso/head/eyes")["visual"]["box"],
        [80.0 * K, 24.0 * K],
    );
    // The open mouth is drawn on another canvas: its geometry travels with it.
    let mouth = &node(&built, "torso/head/mouth")["visual"];
    assert_eq!(mouth["attachment"], "smile");
    close(&mouth["box"], [60.0 * K, 20.0 * K]);
    close(
        &mouth["asset_geometry"]["open"]["box"],
        [40.0 * K, 30.0 * K],
    );
    // Raster textures are addressed by their bytes, SVG ones are plain.
    let aliases: Vec<&str> = built.textures.iter().map(|t| t.alias.as_str()).collect();
    assert!(aliases.contains(&"kit/torso/torso"));
    let eyes = built
        .textures
        .iter()
        .find(|t| t.alias.starts_with("kit/eyes/eyes@"))
        .unwrap();
    assert_eq!(eyes.alias.len(), "kit/eyes/eyes@".len() + 12);
    assert_eq!(eyes.src, "characters/kit/parts/eyes.png");
    assert_eq!(built.textures.len(), 11);
    // Paint orders.
    assert_eq!(
        built.node["paint_order"],
        json!([
            "leg_l",
            "leg_r",
            "torso/arm_upper_r",
            "torso/arm_upper_r/arm_lower_r",
            "torso",
            "torso/head",
            "torso/head/eyes",
            "torso/head/mouth",
            "torso/arm_upper_l",
            "torso/arm_upper_l/arm_lower_l"
        ])
    );
    assert_eq!(
        chain_paint_order(&doc, None)[&Some("torso".to_string())],
        ["arm_upper_r", "torso", "head", "arm_upper_l"]
    );
    let torso = node(&built, "torso");
    assert_eq!(torso["visual"]["z"], 1);
    let kids: Vec<&str> = torso["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(kids, ["arm_upper_r", "head", "arm_upper_l"]);
    // Deterministic: same input, same bytes.
    let again = build_rig_subtree("kit", &raw, &opts(&dir, "kit")).unwrap();
    assert_eq!(
        serde_json::to_string(&again.to_value()).unwrap(),
        serde_json::to_string(&built.to_value()).unwrap()
    );
}

#[test]
fn lamp_builds_flat_from_its_declared_origin() {
    let (_t, dir) = sample("lamp");
    let (doc, raw) = read_sample(&dir);
    assert!(check(&doc).is_clean());
    let o = BuildOptions {
        probe: Some(PartProbe {
            root: dir.clone(),
            prefix: "props/lamp/".into(),
        }),
        art_prefix: "props/".into(),
        ..BuildOptions::default()
    };
    let built = build_rig_subtree("lamp", &raw, &o).unwrap();
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    close(&built.node["origin"], [512.0, 1000.0]);
    close(&node(&built, "base")["position"], [0.0, 0.0]);
    close(&node(&built, "pole")["position"], [0.0, -40.0 * K]);
    close(&node(&built, "shade")["position"], [0.0, -510.0 * K]);
    close(&node(&built, "shade/glow")["position"], [0.0, 90.0 * K]);
    close(
        &node(&built, "pole")["visual"]["box"],
        [24.0 * K, 460.0 * K],
    );
    close(
        &node(&built, "shade/glow")["visual"]["box"],
        [160.0 * K, 100.0 * K],
    );
    let wide = &node(&built, "shade")["visual"]["asset_geometry"]["shade_wide"];
    close(&wide["box"], [300.0 * K, 100.0 * K]);
    close(&wide["anchor"], [0.5, 0.4]);
    assert_eq!(
        built.node["paint_order"],
        json!(["pole", "base", "shade", "shade/glow"])
    );
    assert!(built
        .textures
        .iter()
        .all(|t| t.src.starts_with("props/lamp/parts/")));
}

#[test]
fn missing_art_is_a_fallback_or_fatal_when_strict() {
    let (_t, dir) = sample("kit");
    std::fs::remove_file(dir.join("parts/eyes.png")).unwrap();
    let (_, raw) = read_sample(&dir);
    let built = build_rig_subtree("kit", &raw, &opts(&dir, "kit")).unwrap();
    assert_eq!(built.resolutions.len(), 1);
    assert_eq!(built.resolutions[0].slot, "eyes");
    assert_eq!(built.resolutions[0].src, "characters/kit/parts/eyes.png");
    assert_eq!(
        node(&built, "torso/head/eyes")["visual"]["texture"],
        Value::Null
    );
    let strict = BuildOptions {
        strict: true,
        ..opts(&dir, "kit")
    };
    let err = build_rig_subtree("kit", &raw, &strict).unwrap_err();
    assert!(matches!(err, RigError::MissingArt(_)), "{err}");
    assert!(err.to_string().contains("eyes.png"));
}

#[test]
fn art_present_but_unmeasurable_is_not_absent() {
    let (_t, dir) = sample("kit");
    std::fs::write(
        dir.join("parts/mouth.svg"),
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>"#,
    )
    .unwrap();
    let (_, raw) = read_sample(&dir);
    let built = build_rig_subtree("kit", &raw, &opts(&dir, "kit")).unwrap();
    assert!(built.resolutions.is_empty());
    let mouth = &node(&built, "torso/head/mouth")["visual"];
    assert_eq!(mouth["texture"], "kit/mouth/smile");
    assert_eq!(mouth["box"], Value::Null);
    assert!(
        built.warnings.iter().any(|w| w.contains("unmeasurable")),
        "{:?}",
        built.warnings
    );
}

#[test]
fn art_that_lies_about_its_extension_is_measured_and_said() {
    let (_t, dir) = sample("kit");
    std::fs::copy(
        dir.join("parts/mouth_open.png"),
        dir.join("parts/mouth.svg"),
    )
    .unwrap();
    let (_, raw) = read_sample(&dir);
    let built = build_rig_subtree("kit", &raw, &opts(&dir, "kit")).unwrap();
    let mouth = &node(&built, "torso/head/mouth")["visual"];
    close(&mouth["box"], [40.0 * K, 30.0 * K]);
    assert!(mouth["texture"]
        .as_str()
        .unwrap()
        .starts_with("kit/mouth/smile@"));
    assert!(
        built
            .warnings
            .iter()
            .any(|w| w.contains("extension says Svg")),
        "{:?}",
        built.warnings
    );
}

#[test]
fn refused_structures() {
    let (_t, dir) = sample("kit");
    let (doc, _) = read_sample(&dir);
    let o = opts(&dir, "kit");
    // A cycle.
    let mut cyc = doc.clone();
    cyc.bones[0].parent = Some("torso".into());
    assert!(
        matches!(build_rig("kit", &cyc, &o), Err(RigError::Structure(m)) if m.contains("cycle"))
    );
    // A slot on a missing bone.
    let mut dangling = doc.clone();
    dangling.slots[0].bone = "tail".into();
    assert!(
        matches!(build_rig("kit", &dangling, &o), Err(RigError::Structure(m)) if m.contains("'tail'"))
    );
    // A draw order the stage cannot give: the torso chain around the legs.
    let mut order = doc.clone();
    order
        .slots
        .iter_mut()
        .find(|s| s.name == "torso")
        .unwrap()
        .draw_order = 0;
    assert!(matches!(
        build_rig("kit", &order, &o),
        Err(RigError::DrawOrder(_))
    ));
    let interleaved = build_rig(
        "kit",
        &order,
        &BuildOptions {
            interleave: true,
            ..o.clone()
        },
    )
    .unwrap();
    assert_eq!(interleaved.node["paint_order"][0], "torso");
    assert!(interleaved
        .warnings
        .iter()
        .any(|w| w.starts_with("the stage paints")));
    // A pose on a slotless bone inside a chain.
    let mut pose = doc.clone();
    pose.bones.push(
        rigsmith_2d::Bone::new("shoulder")
            .with_parent("torso")
            .rotated(15.0),
    );
    pose.bones
        .iter_mut()
        .find(|b| b.name == "arm_upper_l")
        .unwrap()
        .parent = Some("shoulder".into());
    assert!(
        matches!(build_rig("kit", &pose, &o), Err(RigError::Pose(m)) if m.starts_with("bone 'shoulder' carries no slot"))
    );
    // The clean twin builds.
    assert!(build_rig("kit", &doc, &o).is_ok());
}

#[test]
fn skipped_slots_take_their_nested_parts_with_them() {
    let (_t, dir) = sample("kit");
    let (doc, _) = read_sample(&dir);
    let o = BuildOptions {
        skip_slots: Some(vec!["head".into()]),
        ..opts(&dir, "kit")
    };
    let built = build_rig("kit", &doc, &o).unwrap();
    for s in ["head", "eyes", "mouth"] {
        assert!(!built.built.contains(s), "{s}");
    }
    assert_eq!(built.built.len(), 7);
    // The legacy rule: without a face overlay, the parts nested under the head's slot.
    let legacy = BuildOptions {
        skip_slots: None,
        face_overlay: false,
        ..opts(&dir, "kit")
    };
    let built = build_rig("kit", &doc, &legacy).unwrap();
    assert!(
        built.built.contains("head")
            && !built.built.contains("eyes")
            && !built.built.contains("mouth")
    );
}

#[test]
fn legacy_rest_pose_guard() {
    let (_t, dir) = sample("kit");
    let (_, mut raw) = read_sample(&dir);
    let mut o = opts(&dir, "kit");
    o.read
        .registry
        .register_rest_pose_migration("CharacterDescriptor", "0.1.0", "0.2.0");
    o.read.kind = "CharacterDescriptor".into();
    // Versioned: the pose applies.
    let built = build_rig_subtree("kit", &raw, &o).unwrap();
    assert!(
        node(&built, "torso/arm_upper_l")["rotation"]
            .as_f64()
            .unwrap()
            < -0.3
    );
    assert!(built.rest_pose_warnings.is_empty());
    // No version: built without the pose, and said with its own type.
    raw.as_object_mut().unwrap().remove("schema_version");
    let built = build_rig_subtree("kit", &raw, &o).unwrap();
    assert_eq!(node(&built, "torso/arm_upper_l")["rotation"], json!(0.0));
    assert_eq!(built.rest_pose_warnings.len(), 1);
    let w = &built.rest_pose_warnings[0];
    assert_eq!(w.cause, RestPoseCause::Unversioned);
    assert_eq!(w.kind, "CharacterDescriptor");
    assert!(
        w.message.starts_with("rest pose NOT applied"),
        "{}",
        w.message
    );
    assert!(built.warnings.is_empty(), "{:?}", built.warnings);
    assert_eq!(
        built.to_value()["rest_pose_warnings"][0]["cause"],
        "unversioned"
    );
    // The author's own flag is a choice.
    raw["rest_rotation"] = json!(true);
    let built = build_rig_subtree("kit", &raw, &o).unwrap();
    assert!(built.rest_pose_warnings.is_empty());
    assert!(built.to_value().get("rest_pose_warnings").is_none());
}

#[test]
fn without_a_probe_no_part_is_dropped() {
    let (_t, dir) = sample("kit");
    let (doc, _) = read_sample(&dir);
    let built = build_rig("kit", &doc, &BuildOptions::default()).unwrap();
    assert!(built.resolutions.is_empty());
    assert_eq!(built.textures.len(), 11);
    assert_eq!(node(&built, "torso")["visual"]["box"], Value::Null);
}

#[test]
fn recoloured_textures_are_addressed_by_their_content() {
    let (_t, dir) = sample("kit");
    let (doc, _) = read_sample(&dir);
    std::fs::create_dir_all(dir.join("style")).unwrap();
    std::fs::write(
        dir.join("style/torso_red.svg"),
        r#"<svg width="200" height="300"><rect width="200" height="300" fill="red"/></svg>"#,
    )
    .unwrap();
    let mut o = opts(&dir, "kit");
    o.texture_srcs.insert(
        "parts/torso.svg".into(),
        "characters/kit/style/torso_red.svg".into(),
    );
    let built = build_rig("kit", &doc, &o).unwrap();
    let t = built
        .textures
        .iter()
        .find(|t| t.alias.starts_with("kit/torso/torso"))
        .unwrap();
    assert_eq!(t.src, "characters/kit/style/torso_red.svg");
    assert_eq!(t.alias.len(), "kit/torso/torso@".len() + 12);
    // Sized from the stored file.
    close(
        &node(&built, "torso")["visual"]["box"],
        [200.0 * K, 300.0 * K],
    );
    // A different recolour is a different texture.
    std::fs::write(
        dir.join("style/torso_red.svg"),
        r#"<svg width="200" height="300"><rect width="200" height="300" fill="blue"/></svg>"#,
    )
    .unwrap();
    let again = build_rig("kit", &doc, &o).unwrap();
    let t2 = again
        .textures
        .iter()
        .find(|t| t.alias.starts_with("kit/torso/torso"))
        .unwrap();
    assert_ne!(t.alias, t2.alias);
}

#[test]
fn a_declared_box_of_another_aspect_contains_the_art_and_is_said() {
    let (_t, dir) = sample("lamp");
    let (mut doc, _) = read_sample(&dir);
    let o = BuildOptions {
        probe: Some(PartProbe {
            root: dir.clone(),
            prefix: "characters/lamp/".into(),
        }),
        ..BuildOptions::default()
    };
    let clean = build_rig("lamp", &doc, &o).unwrap();
    assert!(clean.warnings.is_empty());
    doc.skins[0].get_mut("glow", "glow").unwrap().height = Some(160.0);
    let built = build_rig("lamp", &doc, &o).unwrap();
    close(
        &node(&built, "shade/glow")["visual"]["box"],
        [160.0 * K, 100.0 * K],
    );
    assert_eq!(built.warnings.len(), 1, "{:?}", built.warnings);
    assert!(built.warnings[0]
        .contains("declared box 160.0x160.0 and the art's 160.0x100.0 differ in aspect"));
}

/// Sums the positions of the nodes along a `/` path: the node's place in the entity's
/// frame when no node on the way is rotated or scaled.
fn absolute(built: &BuiltRig, path: &str) -> [f64; 2] {
    let mut cur = &built.node;
    let mut at = [0.0, 0.0];
    for part in path.split('/') {
        cur = cur["children"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == part)
            .unwrap();
        at[0] += cur["position"][0].as_f64().unwrap();
        at[1] += cur["position"][1].as_f64().unwrap();
    }
    at
}

fn offset_chain(rotation: f64) -> Value {
    json!({"schema_version": "0.2.0", "nesting": "bones", "origin": [0, 0],
        "bones": [{"name": "arm", "x": 100, "y": 200, "rotation_deg": rotation},
                  {"name": "hand", "parent": "arm", "x": 0, "y": 150}],
        "slots": [{"name": "arm", "bone": "arm", "draw_order": 1}, {"name": "hand", "bone": "hand", "draw_order": 2}],
        "skins": {"default": {"slots": {
            "arm": {"arm": {"path": "arm.svg", "x": 30, "y": 40}},
            "hand": {"hand": {"path": "hand.svg", "x": 5, "y": 7}}}}}})
}

#[test]
fn nested_part_is_placed_from_its_parent_bone_not_its_parent_offset() {
    let built = build_rig_subtree("r", &offset_chain(0.0), &BuildOptions::default()).unwrap();
    // The arm's node sits at its bone plus its own offset.
    close(&node(&built, "arm")["position"], [130.0 * K, 240.0 * K]);
    // The hand's node, nested under the arm's, lands at the hand's bone plus the
    // hand's own offset: the arm's (30, 40) is taken back out, not inherited.
    let hand = absolute(&built, "arm/hand");
    assert!((hand[0] - 105.0 * K).abs() < 1e-5, "{hand:?}");
    assert!((hand[1] - 357.0 * K).abs() < 1e-5, "{hand:?}");
    close(
        &node(&built, "arm/hand")["position"],
        [(5.0 - 30.0) * K, (150.0 + 7.0 - 40.0) * K],
    );
}

#[test]
fn nested_part_turns_with_its_parent_rest_pose() {
    // The local position is the same under a rotated parent: the rotation composes
    // through the chain (the parent node turns, and its children with it), and the
    // child carries no copy of the parent's rotation.
    let built = build_rig_subtree("r", &offset_chain(30.0), &BuildOptions::default()).unwrap();
    close(
        &node(&built, "arm/hand")["position"],
        [(5.0 - 30.0) * K, (150.0 + 7.0 - 40.0) * K],
    );
    assert!((node(&built, "arm")["rotation"].as_f64().unwrap() - 30f64.to_radians()).abs() < 1e-6);
    assert_eq!(node(&built, "arm/hand")["rotation"], json!(0.0));
}
