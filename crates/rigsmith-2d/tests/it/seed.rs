//! Every example of the rig model's reference, with the same expected outputs.

use std::collections::BTreeMap;

use rigsmith_2d::affordances::{rig_affordances, RIG_HIERARCHY};
use rigsmith_2d::art::{art_src, CHARACTER_ART_PREFIX, PROP_ART_PREFIX};
use rigsmith_2d::attachment_box::{attachment_box, CONTAIN_FIT};
use rigsmith_2d::build::SCENE_PX_PER_VIEW_BOX;
use rigsmith_2d::chain_pose::chain_pose_problems;
use rigsmith_2d::model::{
    Attachment, Bone, RigDocument, Skin, Slot, DEFAULT_VIEW_BOX, NESTINGS,
    RIG_DOCUMENT_OPTIONAL_FIELDS,
};
use rigsmith_2d::nesting::{nesting_of, primary_slot_per_bone, slot_node_paths, slot_parent_chain};
use rigsmith_2d::paint_order::{chain_draw_order_problems, chain_paint_order, global_paint_order};
use rigsmith_2d::positions::{
    bone_extent_centre, declared_origin, declared_origin_raw, rig_origin, rig_origin_problems,
};
use rigsmith_2d::rest_pose::{
    bones_carry_a_rest_pose, legacy_rest_pose_unknown, omit_unset_rig_fields,
    protect_legacy_rest_pose, rest_pose_protection, rest_transform, rig_rest_problems,
    DocumentKind, RestPoseRegistry,
};
use rigsmith_2d::structure::rig_problems;
use serde_json::json;

use crate::common::doc;

#[test]
fn module_attributes() {
    assert_eq!(DEFAULT_VIEW_BOX, [0.0, 0.0, 1024.0, 1024.0]);
    assert_eq!(
        RIG_DOCUMENT_OPTIONAL_FIELDS,
        ["origin", "rest_rotation", "nesting"]
    );
    assert_eq!(NESTINGS, ["flat", "bones"]);
    assert_eq!(RIG_HIERARCHY, "rig.hierarchy");
    assert_eq!(SCENE_PX_PER_VIEW_BOX, 345.0);
    assert_eq!(CONTAIN_FIT, "contain");
    assert_eq!(CHARACTER_ART_PREFIX, "characters/");
    assert_eq!(PROP_ART_PREFIX, "props/");
    let reg = RestPoseRegistry::default();
    assert_eq!(
        reg.since,
        BTreeMap::from([("PropDescriptor".to_string(), "0.2.0".to_string())])
    );
}

#[test]
fn attachment_bone_skin_slot() {
    let a = doc(
        json!({"skins": {"d": {"slots": {"s": {"a": {"path": "parts/head.svg", "anchor": [0.5, 0.78]}}}}}}),
    );
    assert_eq!(a.skins[0].get("s", "a").unwrap().anchor, (0.5, 0.78));
    let b = Bone::new("head").with_parent("torso").at(0.0, -260.0);
    assert_eq!(b.parent.as_deref(), Some("torso"));
    let d = doc(
        json!({"bones": [{"name": "head", "parent": "torso", "x": 0, "y": -260, "pivot": "neck"}]}),
    );
    assert_eq!(d.bones[0].parent.as_deref(), Some("torso"));
    assert_eq!(d.bones[0].pivot.as_deref(), Some("neck"));
    let mut skin = Skin {
        name: "default".into(),
        ..Skin::default()
    };
    skin.insert(
        "mouth",
        "mouth_a",
        Attachment::new("parts/mouth/mouth_a.svg"),
    );
    assert_eq!(skin.slots[0].1[0].1.path, "parts/mouth/mouth_a.svg");
    let s = doc(
        json!({"slots": [{"name": "mouth", "bone": "head", "draw_order": 7, "attachment": "mouth_x"}]}),
    );
    assert_eq!(s.slots[0].attachment.as_deref(), Some("mouth_x"));
    assert_eq!(s.slots[0].draw_order, 7);
    let _ = Slot::new("mouth", "head");
}

#[test]
fn rig_document_origin_dump_and_refusal() {
    assert_eq!(
        doc(json!({"origin": [512, 1010]})).origin,
        Some((512.0, 1010.0))
    );
    assert_eq!(RigDocument::default().to_value(), json!({}));
    // inf cannot be written in JSON; the largest overflowing literal is refused too.
    let err = RigDocument::parse(br#"{"origin": [1e400, 0]}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1"), "{err}");
    let v = serde_json::Value::from(vec![f64::INFINITY, 0.0]); // serde_json turns inf into null
    let err = RigDocument::from_value(&json!({"origin": v}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("origin[0]"), "{err}");
}

#[test]
fn art_src_examples() {
    assert_eq!(
        art_src("maya", "parts/head.svg", CHARACTER_ART_PREFIX),
        "characters/maya/parts/head.svg"
    );
    assert_eq!(
        art_src("lamp", "parts/body.svg", PROP_ART_PREFIX),
        "props/lamp/parts/body.svg"
    );
}

#[test]
fn attachment_box_examples() {
    assert_eq!(
        attachment_box(None, None, Some((40.0, 20.0))),
        Some((40.0, 20.0))
    );
    assert_eq!(
        attachment_box(Some(120.0), None, Some((40.0, 20.0))),
        Some((120.0, 60.0))
    );
    assert_eq!(
        attachment_box(None, Some(30.0), Some((40.0, 20.0))),
        Some((60.0, 30.0))
    );
    assert_eq!(
        attachment_box(Some(120.0), Some(120.0), Some((40.0, 20.0))),
        Some((120.0, 60.0))
    );
    assert_eq!(
        attachment_box(Some(120.0), Some(90.0), None),
        Some((120.0, 90.0))
    );
    assert_eq!(attachment_box(Some(120.0), None, None), None);
}

#[test]
fn bone_extent_centre_example() {
    let m = BTreeMap::from([
        ("root".to_string(), (512.0, 980.0)),
        ("head".to_string(), (512.0, 420.0)),
    ]);
    assert_eq!(bone_extent_centre(&m), Some((512.0, 700.0)));
    assert_eq!(bone_extent_centre(&BTreeMap::new()), None);
}

#[test]
fn bones_carry_a_rest_pose_examples() {
    assert!(bones_carry_a_rest_pose(
        &json!({"bones": [{"name": "a"}, {"name": "b", "rotation_deg": 22}]})
    ));
    assert!(!bones_carry_a_rest_pose(
        &json!({"bones": [{"name": "a", "scale_x": 1.0}]})
    ));
}

fn arm_cord_hand() -> RigDocument {
    doc(json!({"nesting": "bones",
        "bones": [{"name": "arm"}, {"name": "hand", "parent": "arm"}, {"name": "cord"}],
        "slots": [{"name": "arm", "bone": "arm", "draw_order": 1}, {"name": "cord", "bone": "cord", "draw_order": 2},
                  {"name": "hand", "bone": "hand", "draw_order": 3}]}))
}

#[test]
fn chain_draw_order_problems_example() {
    let rig = arm_cord_hand();
    let p = chain_draw_order_problems(&rig);
    assert_eq!(p.len(), 1);
    assert!(
        p[0].starts_with("the stage paints each chain's parts together"),
        "{}",
        p[0]
    );
    // Clean twin: the cord drawn after the chain; and flat nesting says nothing.
    let mut ok = rig.clone();
    ok.slots[1].draw_order = 4;
    assert!(chain_draw_order_problems(&ok).is_empty());
    let mut flat = rig.clone();
    flat.nesting = None;
    assert!(chain_draw_order_problems(&flat).is_empty());
}

#[test]
fn chain_paint_order_example() {
    let rig = doc(json!({"nesting": "bones",
        "bones": [{"name": "torso"}, {"name": "arm", "parent": "torso"}],
        "slots": [{"name": "torso", "bone": "torso", "draw_order": 2}, {"name": "arm", "bone": "arm", "draw_order": 1}]}));
    let got = chain_paint_order(&rig, None);
    let want = BTreeMap::from([
        (None, vec!["torso".to_string()]),
        (
            Some("torso".to_string()),
            vec!["arm".to_string(), "torso".to_string()],
        ),
    ]);
    assert_eq!(got, want);
    assert!(chain_draw_order_problems(&rig).is_empty());
}

#[test]
fn chain_pose_problems_example() {
    let rig = doc(json!({"nesting": "bones",
        "slots": [{"name": "arm", "bone": "arm"}, {"name": "hand", "bone": "hand"}],
        "bones": [{"name": "arm"}, {"name": "elbow", "parent": "arm", "rotation_deg": -70},
                  {"name": "hand", "parent": "elbow"}]}));
    let p = chain_pose_problems(&rig);
    assert_eq!(p.len(), 1);
    assert!(p[0].starts_with("bone 'elbow' carries no slot"), "{}", p[0]);
    let mut ok = rig.clone();
    ok.bones[1].rotation_deg = 0.0;
    assert!(chain_pose_problems(&ok).is_empty());
}

#[test]
fn declared_origin_examples() {
    assert_eq!(
        declared_origin(&doc(json!({"origin": [512, 1010]}))),
        Some((512.0, 1010.0))
    );
    assert_eq!(declared_origin(&doc(json!({}))), None);
    assert_eq!(
        declared_origin_raw(&json!({"origin": [0, 5]})),
        Some((0.0, 5.0))
    );
}

#[test]
fn global_paint_order_example() {
    assert_eq!(
        global_paint_order(&arm_cord_hand(), None),
        ["arm", "cord", "arm/hand"]
    );
}

#[test]
fn legacy_rest_pose_unknown_examples() {
    let k = DocumentKind::new("Demo", "schema_version", "0.2.0");
    assert!(legacy_rest_pose_unknown(
        &json!({"bones": [{"name": "a", "rotation_deg": 9}]}),
        &k,
        "0.2.0"
    ));
    assert!(!legacy_rest_pose_unknown(
        &json!({"schema_version": "0.2.0", "bones": [{"name": "a", "rotation_deg": 9}]}),
        &k,
        "0.2.0"
    ));
    assert!(legacy_rest_pose_unknown(
        &json!({"schema_version": "0.1.9", "bones": [{"name": "a", "rotation_deg": 9}]}),
        &k,
        "0.2.0"
    ));
}

#[test]
fn nesting_of_examples() {
    assert_eq!(
        (
            nesting_of(&json!({"nesting": "bones"})),
            nesting_of(&json!({}))
        ),
        ("bones", "flat")
    );
}

#[test]
fn omit_unset_rig_fields_examples() {
    let mut a = json!({"name": "lamp", "origin": null});
    omit_unset_rig_fields(&mut a);
    assert_eq!(a, json!({"name": "lamp"}));
    let mut b = json!({"origin": [512.0, 1010.0]});
    omit_unset_rig_fields(&mut b);
    assert_eq!(b, json!({"origin": [512.0, 1010.0]}));
}

#[test]
fn primary_slot_per_bone_example() {
    let rig = doc(
        json!({"slots": [{"name": "head", "bone": "head"}, {"name": "mouth", "bone": "head"}]}),
    );
    assert_eq!(primary_slot_per_bone(&rig)["head"], "head");
}

#[test]
fn protect_legacy_rest_pose_examples() {
    let a = protect_legacy_rest_pose(json!({"bones": [{"name": "leg", "rotation_deg": -22}]}));
    assert_eq!(a["rest_rotation"], json!(false));
    let b = protect_legacy_rest_pose(json!({"bones": [{"name": "root"}]}));
    assert!(b.get("rest_rotation").is_none());
    let c = protect_legacy_rest_pose(
        json!({"bones": [{"name": "leg", "rotation_deg": 5}], "rest_rotation": true}),
    );
    assert_eq!(c["rest_rotation"], json!(true));
}

#[test]
fn register_rest_pose_migration_example() {
    let mut reg = RestPoseRegistry::default();
    reg.register_rest_pose_migration("DemoRig", "1.0", "2.0");
    assert_eq!(reg.since["DemoRig"], "2.0");
    let m = reg.migrations[&("DemoRig".to_string(), "1.0".to_string(), "2.0".to_string())];
    assert_eq!(
        m(json!({"version": "1.0", "bones": []})),
        json!({"version": "1.0", "bones": []})
    );
}

#[test]
fn rest_pose_protection_examples() {
    let old = json!({"schema_version": "0.1.0", "bones": [{"name": "leg", "rotation_deg": 20}]});
    let mut migrated = old.clone();
    migrated["rest_rotation"] = json!(false);
    let said = rest_pose_protection(&old, &migrated, "rig document").unwrap();
    assert!(said.starts_with("its bones carry"), "{said}");
    assert_eq!(
        rest_pose_protection(&migrated, &migrated, "rig document"),
        None
    );
}

#[test]
fn rest_transform_examples() {
    assert_eq!(
        rest_transform(&Bone::new("leg").rotated(-22.0)).rotation,
        -0.3839724354387525
    );
    let t = rest_transform(&Bone::new("leg").rotated(-0.0));
    assert_eq!(
        t.to_value(),
        json!({"rotation": 0.0, "scale_x": 1.0, "scale_y": 1.0})
    );
    assert!(t.rotation.is_sign_positive());
}

#[test]
fn rig_affordances_example() {
    let rig = doc(
        json!({"nesting": "bones", "bones": [{"name": "arm"}, {"name": "hand", "parent": "arm"}],
        "slots": [{"name": "arm", "bone": "arm"}, {"name": "hand", "bone": "hand"}, {"name": "sword", "bone": "hand"}]}),
    );
    let got: serde_json::Map<String, serde_json::Value> = rig_affordances(&rig)
        .into_iter()
        .map(|(k, v)| (k, v.to_value()))
        .collect();
    assert_eq!(
        serde_json::Value::Object(got),
        json!({"rig.hierarchy": {"keys": ["arm", "hand", "sword"], "count": 2, "chains": [["arm", "hand", "sword"]]}})
    );
    // A flat rig, and a head with its face, afford nothing.
    let mut flat = rig.clone();
    flat.nesting = None;
    assert!(rig_affordances(&flat).is_empty());
    let face = doc(json!({"nesting": "bones", "bones": [{"name": "head"}],
        "slots": [{"name": "head", "bone": "head"}, {"name": "eyes", "bone": "head"}]}));
    assert!(rig_affordances(&face).is_empty());
}

#[test]
fn rig_origin_examples() {
    let bones = json!([{"name": "root", "parent": null, "x": 512, "y": 980}, {"name": "top", "parent": "root", "x": 0, "y": -560}]);
    assert_eq!(rig_origin(&doc(json!({"bones": bones}))), (512.0, 700.0));
    assert_eq!(
        rig_origin(&doc(json!({"bones": bones, "origin": [512, 980]}))),
        (512.0, 980.0)
    );
}

#[test]
fn rig_origin_problems_examples() {
    let vb = [0.0, 0.0, 1024.0, 1024.0];
    assert!(rig_origin_problems(Some((512.0, 1010.0)), vb).is_empty());
    let p = rig_origin_problems(Some((512.0, 2000.0)), vb);
    assert!(
        p[0].starts_with("origin (512.0, 2000.0) lies outside"),
        "{}",
        p[0]
    );
    let p = rig_origin_problems(Some((f64::NAN, 0.0)), vb);
    assert_eq!(&p[0][..30], "origin (nan, 0.0) is not finit");
    assert!(rig_origin_problems(None, vb).is_empty());
}

#[test]
fn rig_problems_example() {
    let rig = doc(
        json!({"bones": [{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}],
        "slots": [{"name": "s", "bone": "nope"}]}),
    );
    assert_eq!(
        rig_problems(&rig),
        [
            "bones form a cycle (a closed linkage): a -> b -> a; a rig is a tree (forward kinematics only)",
            "slot 's' is bound to bone 'nope', which the rig does not declare"
        ]
    );
    let dangling = doc(json!({"bones": [{"name": "a", "parent": "ghost"}]}));
    assert_eq!(
        rig_problems(&dangling),
        ["bone 'a' names parent 'ghost', which the rig does not declare"]
    );
    let clean = doc(
        json!({"bones": [{"name": "a"}, {"name": "b", "parent": "a"}], "slots": [{"name": "s", "bone": "b"}]}),
    );
    assert!(rig_problems(&clean).is_empty());
}

#[test]
fn rig_rest_problems_examples() {
    let mut raw = json!({"bones": [{"name": "leg", "rotation_deg": 20}],
        "slots": [{"name": "leg", "bone": "leg"}],
        "skins": {"default": {"slots": {"leg": {"leg": {"path": "p.svg", "y": 40}}}}}});
    let p = rig_rest_problems(&doc(raw.clone()));
    assert!(p[0].starts_with("bone 'leg' rests at 20"), "{}", p[0]);
    raw["skins"]["default"]["slots"]["leg"]["leg"]["y"] = json!(0);
    assert!(rig_rest_problems(&doc(raw.clone())).is_empty());
    // A rig that keeps its legacy pose says nothing.
    raw["skins"]["default"]["slots"]["leg"]["leg"]["y"] = json!(40);
    raw["rest_rotation"] = json!(false);
    assert!(rig_rest_problems(&doc(raw)).is_empty());
}

#[test]
fn slot_node_paths_example() {
    let rig = doc(
        json!({"nesting": "bones", "bones": [{"name": "a"}, {"name": "b", "parent": "a"}],
        "slots": [{"name": "a", "bone": "a"}, {"name": "b", "bone": "b"}]}),
    );
    let want = BTreeMap::from([
        ("a".to_string(), "a".to_string()),
        ("b".to_string(), "a/b".to_string()),
    ]);
    assert_eq!(slot_node_paths(&rig), want);
    // A slot caught in a cycle maps to its own name.
    let cyc = doc(
        json!({"nesting": "bones", "bones": [{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}],
        "slots": [{"name": "a", "bone": "a"}, {"name": "b", "bone": "b"}]}),
    );
    assert_eq!(slot_node_paths(&cyc)["a"], "a");
}

#[test]
fn slot_parent_chain_examples() {
    let mut rig = doc(
        json!({"bones": [{"name": "arm", "parent": "torso"}, {"name": "hand", "parent": "arm"}, {"name": "torso"}],
        "slots": [{"name": "torso", "bone": "torso"}, {"name": "arm", "bone": "arm"},
                  {"name": "hand", "bone": "hand"}, {"name": "sword", "bone": "hand"}]}),
    );
    let s = |v: Option<&str>| v.map(str::to_string);
    let flat = BTreeMap::from([
        ("torso".to_string(), None),
        ("arm".to_string(), None),
        ("hand".to_string(), None),
        ("sword".to_string(), s(Some("hand"))),
    ]);
    assert_eq!(slot_parent_chain(&rig), flat);
    rig.nesting = Some(rigsmith_2d::Nesting::Bones);
    let bones = BTreeMap::from([
        ("torso".to_string(), None),
        ("arm".to_string(), s(Some("torso"))),
        ("hand".to_string(), s(Some("arm"))),
        ("sword".to_string(), s(Some("hand"))),
    ]);
    assert_eq!(slot_parent_chain(&rig), bones);
}
