//! Spine JSON interop: a skeleton round-trips with its bones, slots and regions intact.

use rigsmith_2d::spine::{export_spine, import_spine};
use rigsmith_2d::{Nesting, RigDocument};
use serde_json::Value;

use crate::common::fixtures;

fn hero() -> Value {
    serde_json::from_slice(&std::fs::read(fixtures().join("spine/hero.json")).unwrap()).unwrap()
}

fn f(v: &Value, k: &str, d: f64) -> f64 {
    v.get(k).and_then(Value::as_f64).unwrap_or(d)
}

#[test]
fn import_maps_what_maps_and_reports_the_rest() {
    let bytes = std::fs::read(fixtures().join("spine/hero.json")).unwrap();
    let (doc, rep) = import_spine(&bytes).unwrap();
    assert_eq!(doc.nesting, Some(Nesting::Bones));
    assert_eq!(doc.origin, Some((0.0, 0.0)));
    assert_eq!(doc.view_box, Some([-120.5, -472.0, 241.0, 480.0]));
    assert_eq!(doc.bones.len(), 8);
    let torso = doc.bone("torso").unwrap();
    assert_eq!((torso.x, torso.y, torso.rotation_deg), (2.5, -4.0, -90.0));
    assert_eq!(doc.bone("arm_front").unwrap().scale_x, 1.05);
    // Setup draw order.
    let order: Vec<(&str, i64)> = doc
        .slots
        .iter()
        .map(|s| (s.name.as_str(), s.draw_order))
        .collect();
    assert_eq!(order[0], ("cape", 0));
    assert_eq!(order[6], ("hitbox", 6));
    // A region's centre offset becomes its anchor: the part turns about its joint.
    let skin = doc.skin("default").unwrap();
    let t = skin.get("torso", "torso").unwrap();
    assert_eq!(t.path, "torso.png");
    assert_eq!((t.width, t.height), (Some(110.0), Some(150.0)));
    assert!((t.anchor.0 - (0.5 - 58.0 / 110.0)).abs() < 1e-12);
    assert!((t.anchor.1 - (0.5 + 2.0 / 150.0)).abs() < 1e-12);
    assert_eq!((t.x, t.y), (0.0, 0.0));
    assert_eq!(skin.get("leg_front", "leg").unwrap().path, "legs/front.png");
    assert!(skin.get("cape", "cape").is_none());
    assert_eq!(doc.skins.len(), 2);
    let text = rep.unmapped.join("\n");
    for want in [
        "bone 'leg_front': transform 'noScale'",
        "bone 'cape': shear (4.0, 0.0)",
        "attachment 'cape': a mesh attachment",
        "attachment 'hitbox': a boundingbox attachment",
        "attachment 'leg': its rotation 90.0°",
        "1 ik constraint(s)",
        "1 animations are not part of a rig",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    assert_eq!(rep.unmapped.len(), 7, "{text}");
}

#[test]
fn round_trip_keeps_bones_slots_and_regions() {
    let src = hero();
    let (doc, _) = import_spine(serde_json::to_string(&src).unwrap().as_bytes()).unwrap();
    // Through the stored rig document too.
    let doc = RigDocument::parse(doc.to_json().as_bytes()).unwrap();
    let (out, rep) = export_spine(&doc, None).unwrap();
    assert!(rep.unmapped.is_empty(), "{:?}", rep.unmapped);
    assert_eq!(out["skeleton"]["spine"], "4.2.33");
    assert_eq!(out["skeleton"]["hash"], "k2x9QkA1");
    assert_eq!(out["skeleton"]["x"], -120.5);
    assert_eq!(out["skeleton"]["y"], -8.0);
    let (a, b) = (
        src["bones"].as_array().unwrap(),
        out["bones"].as_array().unwrap(),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_eq!(x["name"], y["name"]);
        assert_eq!(x.get("parent"), y.get("parent"));
        for (k, d) in [
            ("x", 0.0),
            ("y", 0.0),
            ("rotation", 0.0),
            ("scaleX", 1.0),
            ("scaleY", 1.0),
            ("length", 0.0),
            ("shearX", 0.0),
        ] {
            assert!(
                (f(x, k, d) - f(y, k, d)).abs() < 1e-9,
                "{} {k}: {x} vs {y}",
                x["name"]
            );
        }
        assert_eq!(x.get("transform"), y.get("transform"));
        assert_eq!(x.get("color"), y.get("color"));
    }
    let (a, b) = (
        src["slots"].as_array().unwrap(),
        out["slots"].as_array().unwrap(),
    );
    assert_eq!(a, b, "slots, in order, with their colours and blends");
    // Regions: every field back within 1e-9; mesh and bounding box reported on import.
    for (si, skin) in src["skins"].as_array().unwrap().iter().enumerate() {
        let oskin = &out["skins"][si];
        assert_eq!(skin["name"], oskin["name"]);
        for (slot, atts) in skin["attachments"].as_object().unwrap() {
            for (name, att) in atts.as_object().unwrap() {
                if att.get("type").is_some() {
                    continue;
                }
                let o = &oskin["attachments"][slot][name];
                assert_eq!(att.get("path"), o.get("path"), "{slot}/{name}");
                assert_eq!(att.get("color"), o.get("color"), "{slot}/{name}");
                for k in ["x", "y", "rotation", "width", "height"] {
                    assert!(
                        (f(att, k, 0.0) - f(o, k, 0.0)).abs() < 1e-9,
                        "{slot}/{name} {k}: {att} vs {o}"
                    );
                }
            }
        }
    }
    // A second trip is byte-identical.
    let (doc2, _) = import_spine(serde_json::to_string(&out).unwrap().as_bytes()).unwrap();
    let (out2, _) = export_spine(&doc2, None).unwrap();
    assert_eq!(
        serde_json::to_string(&out2).unwrap(),
        serde_json::to_string(&out).unwrap()
    );
}

#[test]
fn export_of_a_native_rig() {
    let (doc, _) = crate::common::read_sample(&fixtures().join("kit"));
    let probe = rigsmith_2d::art::PartProbe {
        root: fixtures().join("kit"),
        prefix: String::new(),
    };
    let (out, rep) = export_spine(&doc, Some(&probe)).unwrap();
    assert!(rep.unmapped.is_empty(), "{:?}", rep.unmapped);
    // One root; parents first; y up; clockwise becomes counter-clockwise.
    let bones = out["bones"].as_array().unwrap();
    assert_eq!(bones[0]["name"], "root");
    assert!(bones[0].get("parent").is_none());
    // Root sits at its offset from the rig origin (512, 665), y flipped.
    assert_eq!(bones[0]["y"], -315.0);
    let arm = bones.iter().find(|b| b["name"] == "arm_upper_l").unwrap();
    assert_eq!(arm["rotation"], 20.0);
    assert_eq!(arm["y"], 270.0);
    // Slots in draw order, each with its attachment.
    let names: Vec<&str> = out["slots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[..3], ["leg_l", "leg_r", "arm_upper_r"]);
    assert_eq!(out["slots"][7]["attachment"], "smile");
    // The torso (anchor bottom centre, 200 x 300 from its viewBox) centres 150 above its bone.
    let torso = &out["skins"][0]["attachments"]["torso"]["torso"];
    assert_eq!(
        (
            torso["width"].as_f64(),
            torso["height"].as_f64(),
            torso["y"].as_f64()
        ),
        (Some(200.0), Some(300.0), Some(150.0))
    );
    assert_eq!(torso["path"], "parts/torso");
    // Without a probe, unsized art is reported.
    let (_, rep) = export_spine(&doc, None).unwrap();
    assert_eq!(rep.unmapped.len(), 11, "{:?}", rep.unmapped);
    assert!(rep.unmapped[0].contains("Spine needs width and height"));
}

#[test]
fn several_roots_get_a_root_and_broken_rigs_are_refused() {
    let doc = crate::common::doc(
        serde_json::json!({"bones": [{"name": "a"}, {"name": "b"}], "origin": [0, 0]}),
    );
    let (out, rep) = export_spine(&doc, None).unwrap();
    assert_eq!(out["bones"][0], serde_json::json!({"name": "root"}));
    assert_eq!(out["bones"][1]["parent"], "root");
    assert!(rep.unmapped[0].contains("2 root bones"));
    let bad = crate::common::doc(
        serde_json::json!({"bones": [{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}]}),
    );
    assert!(export_spine(&bad, None)
        .unwrap_err()
        .to_string()
        .contains("cycle"));
    for (text, want) in [
        (r#"{"bones": [{"name": "a", "x": "1"}]}"#, "bones[0].x"),
        (
            r#"{"bones": [{}]}"#,
            "bones[0]: missing required field `name`",
        ),
        (
            r#"{"slots": [{"name": "s"}]}"#,
            "slots[0]: missing required field `bone`",
        ),
        (r#"{"skins": 3}"#, "skins: expected an array or an object"),
        (
            r#"{"skins": {"default": {"s": {"a": {"width": "w"}}}}}"#,
            "skins.default.s.a.width",
        ),
        ("[", "not valid JSON"),
    ] {
        let e = import_spine(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn imported_skeleton_is_current_so_its_pose_applies() {
    let bytes = std::fs::read(fixtures().join("spine/hero.json")).unwrap();
    let (doc, _) = import_spine(&bytes).unwrap();
    assert_eq!(doc.extra["schema_version"], "0.2.0");
    let read = rigsmith_2d::read::read_value(&doc.to_value(), &Default::default()).unwrap();
    assert!(read.rest_pose_warnings.is_empty());
    assert!(read.doc.applies_rest_pose());
}

#[test]
fn legacy_pose_is_exported_without_the_pose() {
    let bytes = std::fs::read(fixtures().join("spine/hero.json")).unwrap();
    let (mut doc, _) = import_spine(&bytes).unwrap();
    doc.rest_rotation = Some(false);
    let (v, rep) = export_spine(&doc, None).unwrap();
    let torso = v["bones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "torso")
        .unwrap();
    assert!(torso.get("rotation").is_none(), "{torso}");
    assert!(rep
        .unmapped
        .iter()
        .any(|u| u.starts_with("bone 'torso': its rest pose is kept unapplied")));
}
