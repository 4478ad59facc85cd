//! The one read path: migrations and the legacy rest-pose guard, on every reader.

use rigsmith_2d::build::{build_rig_subtree, BuildOptions};
use rigsmith_2d::check::check_read;
use rigsmith_2d::read::{read_value, ReadOptions};
use rigsmith_2d::rest_pose::{RestPoseCause, RestPoseRegistry, DEFAULT_KIND};
use rigsmith_2d::RigError;
use serde_json::{json, Value};

/// One posed bone with its part, in the document version `version` (none when `None`).
fn posed(version: Option<&str>) -> Value {
    let mut v = json!({"name": "stick",
        "bones": [{"name": "root", "x": 512, "y": 900}, {"name": "a", "parent": "root", "rotation_deg": 9}],
        "slots": [{"name": "a", "bone": "a"}],
        "skins": {"default": {"slots": {"a": {"a": {"path": "parts/a.svg"}}}}}});
    if let Some(ver) = version {
        v["schema_version"] = json!(ver);
    }
    v
}

fn rotation(built: &rigsmith_2d::BuiltRig) -> f64 {
    built.node["children"][0]["rotation"].as_f64().unwrap()
}

#[test]
fn registry_knows_the_default_kind_and_its_current_version() {
    let reg = RestPoseRegistry::default();
    let k = reg.kind(DEFAULT_KIND).unwrap();
    assert_eq!(
        (k.version_field.as_str(), k.current.as_str()),
        ("schema_version", "0.2.0")
    );
    assert_eq!(reg.since[DEFAULT_KIND], "0.2.0");
}

#[test]
fn unversioned_posed_document_is_built_without_its_pose_by_default() {
    let built = build_rig_subtree("stick", &posed(None), &BuildOptions::default()).unwrap();
    assert_eq!(rotation(&built), 0.0);
    assert_eq!(built.rest_pose_warnings.len(), 1);
    assert_eq!(
        built.rest_pose_warnings[0].cause,
        RestPoseCause::Unversioned
    );
    assert!(built.rest_pose_warnings[0].message.contains("'a' 9.0°"));
}

#[test]
fn current_version_applies_the_pose_silently() {
    let built =
        build_rig_subtree("stick", &posed(Some("0.2.0")), &BuildOptions::default()).unwrap();
    assert!((rotation(&built) - 9f64.to_radians()).abs() < 1e-6);
    assert!(built.rest_pose_warnings.is_empty());
}

#[test]
fn unposed_unversioned_document_says_nothing() {
    let mut raw = posed(None);
    raw["bones"][1]["rotation_deg"] = json!(0);
    let read = read_value(&raw, &ReadOptions::default()).unwrap();
    assert!(read.rest_pose_warnings.is_empty());
    assert!(read.doc.applies_rest_pose());
}

#[test]
fn old_version_is_migrated_and_said() {
    let read = read_value(&posed(Some("0.1.0")), &ReadOptions::default()).unwrap();
    assert_eq!(read.steps, [("0.1.0".to_string(), "0.2.0".to_string())]);
    assert_eq!(read.migrated["schema_version"], "0.2.0");
    assert_eq!(read.migrated["rest_rotation"], false);
    assert!(!read.doc.applies_rest_pose());
    assert_eq!(read.rest_pose_warnings.len(), 1);
    assert_eq!(read.rest_pose_warnings[0].cause, RestPoseCause::Migrated);
    assert!(read.rest_pose_warnings[0]
        .message
        .starts_with("its bones carry"));
}

#[test]
fn version_older_than_any_migration_is_guarded() {
    let read = read_value(&posed(Some("0.0.3")), &ReadOptions::default()).unwrap();
    assert!(read.steps.is_empty());
    assert!(!read.doc.applies_rest_pose());
    assert_eq!(read.rest_pose_warnings[0].cause, RestPoseCause::Unversioned);
}

#[test]
fn author_flag_is_a_choice_and_silent() {
    for flag in [true, false] {
        let mut raw = posed(None);
        raw["rest_rotation"] = json!(flag);
        let read = read_value(&raw, &ReadOptions::default()).unwrap();
        assert!(read.rest_pose_warnings.is_empty(), "{flag}");
        assert_eq!(read.doc.applies_rest_pose(), flag);
    }
}

#[test]
fn guard_follows_the_registry_since() {
    // A kind whose rest pose applies from 2.0: a 1.5 document with no migration from
    // 1.5 is older than that and guarded; a 2.0 one is not.
    let mut o = ReadOptions::default();
    o.registry
        .register_rest_pose_migration("Puppet", "1.0", "2.0");
    o.kind = "Puppet".into();
    let read = read_value(&posed(Some("1.5")), &o).unwrap();
    assert!(!read.doc.applies_rest_pose());
    let read = read_value(&posed(Some("2.0")), &o).unwrap();
    assert!(read.doc.applies_rest_pose());
    let read = read_value(&posed(Some("1.0")), &o).unwrap();
    assert_eq!(read.migrated["schema_version"], "2.0");
}

#[test]
fn unknown_kind_is_refused() {
    let o = ReadOptions {
        kind: "Nope".into(),
        ..ReadOptions::default()
    };
    let err = read_value(&posed(None), &o).unwrap_err();
    assert!(matches!(err, RigError::UnknownKind(_)), "{err}");
    assert!(err.to_string().contains("PropDescriptor"), "{err}");
}

#[test]
fn check_reports_the_unapplied_pose_as_a_warning() {
    let read = read_value(&posed(None), &ReadOptions::default()).unwrap();
    let report = check_read(&read, None);
    assert_eq!((report.errors(), report.warnings()), (0, 1));
    assert_eq!(report.findings[0].check, "legacy_rest_pose");
    // Positive control's twin: the current document is clean.
    let read = read_value(&posed(Some("0.2.0")), &ReadOptions::default()).unwrap();
    assert!(check_read(&read, None).is_clean());
}

#[test]
fn migrated_document_builds_as_the_stored_one_did() {
    let read = read_value(&posed(None), &ReadOptions::default()).unwrap();
    let current = read.current_document();
    assert_eq!(current["schema_version"], "0.2.0");
    assert_eq!(current["rest_rotation"], false);
    let again = read_value(&current, &ReadOptions::default()).unwrap();
    assert!(again.rest_pose_warnings.is_empty());
    assert!(!again.doc.applies_rest_pose());
}
