//! The document model: forward-compatible reads, strict canonical writes, clear errors.

use rigsmith_2d::model::RigDocument;
use serde_json::json;

use crate::common::{fixtures, read_sample, sample};

#[test]
fn unknown_fields_are_kept_and_written_back() {
    let raw = json!({
        "name": "lamp", "schema_version": "0.3.0", "future": {"a": 1},
        "bones": [{"name": "base", "x": 512, "y": 1000, "ik_hint": "none"}],
        "slots": [{"name": "base", "bone": "base", "blend": "add"}],
        "skins": {"default": {"slots": {"base": {"base": {"path": "p.svg", "tint": "#fff"}}}, "note": "x"}}
    });
    let doc = RigDocument::from_value(&raw).unwrap();
    let back = doc.to_value();
    assert_eq!(back["future"], json!({"a": 1}));
    assert_eq!(back["bones"][0]["ik_hint"], "none");
    assert_eq!(back["slots"][0]["blend"], "add");
    assert_eq!(
        back["skins"]["default"]["slots"]["base"]["base"]["tint"],
        "#fff"
    );
    assert_eq!(back["skins"]["default"]["note"], "x");
    // Same document again: same bytes.
    let again = RigDocument::from_value(&back).unwrap();
    assert_eq!(again.to_json(), doc.to_json());
}

#[test]
fn unset_fields_are_omitted() {
    let doc = RigDocument::from_value(
        &json!({"origin": null, "nesting": null, "rest_rotation": null,
        "bones": [{"name": "a", "x": 0, "scale_x": 1, "parent": null}]}),
    )
    .unwrap();
    assert_eq!(doc.to_value(), json!({"bones": [{"name": "a"}]}));
    let set = RigDocument::from_value(
        &json!({"origin": [1, 2], "nesting": "bones", "rest_rotation": false}),
    )
    .unwrap();
    assert_eq!(
        set.to_value(),
        json!({"origin": [1.0, 2.0], "nesting": "bones", "rest_rotation": false})
    );
}

#[test]
fn samples_round_trip_byte_identically() {
    for name in ["kit", "lamp"] {
        let (_t, dir) = sample(name);
        let (doc, _) = read_sample(&dir);
        let text = doc.to_json();
        let again = RigDocument::parse(text.as_bytes()).unwrap();
        assert_eq!(again, doc, "{name}");
        assert_eq!(again.to_json(), text, "{name}");
    }
}

#[test]
fn bad_documents_name_the_fault() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"bones": [{"name": "a", "x": "far"}]}"#,
            "bones[0].x: expected a number, got a string",
        ),
        (
            r#"{"bones": [{"x": 1}]}"#,
            "bones[0]: missing required field `name`",
        ),
        (
            r#"{"bones": {"name": "a"}}"#,
            "bones: expected an array, got an object",
        ),
        (
            r#"{"nesting": "deep"}"#,
            "nesting: expected \"flat\" or \"bones\"",
        ),
        (r#"{"origin": [1]}"#, "origin: expected 2 numbers, got 1"),
        (
            r#"{"view_box": [0, 0, 0, 10]}"#,
            "view_box: width and height must be positive",
        ),
        (
            r#"{"slots": [{"name": "s", "bone": "b", "draw_order": 1.5}]}"#,
            "slots[0].draw_order: expected a whole number",
        ),
        (
            r#"{"skins": {"d": {"slots": {"s": {"a": {"path": "p.svg", "width": -3}}}}}}"#,
            "skins.d.slots.s.a.width: a declared size must be positive",
        ),
        (
            r#"{"skins": {"d": {"slots": {"s": {"a": {"anchor": [0.5, 0.5]}}}}}}"#,
            "skins.d.slots.s.a: missing required field `path`",
        ),
        (
            r#"{"rest_rotation": "yes"}"#,
            "rest_rotation: expected true or false",
        ),
        (r#"[1, 2]"#, "$: expected an object, got an array"),
        (r#"{"bones": [}"#, "not valid JSON"),
        (r#"{"origin": [1e999, 0]}"#, "not valid JSON"),
    ];
    for (text, want) in cases {
        let err = RigDocument::parse(text.as_bytes()).unwrap_err().to_string();
        assert!(err.contains(want), "{text}: got {err:?}, want {want:?}");
    }
    // The clean twin of each parses.
    assert!(
        RigDocument::parse(br#"{"bones": [{"name": "a", "x": 3}], "nesting": "flat"}"#).is_ok()
    );
}

#[test]
fn read_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("rig.json");
    std::fs::write(&p, r#"{"bones": [{"name": "a", "y": null, "x": true}]}"#).unwrap();
    let err = RigDocument::read(&p).unwrap_err().to_string();
    assert!(
        err.contains("rig.json") && err.contains("bones[0]"),
        "{err}"
    );
    let missing = RigDocument::read(&tmp.path().join("nope.json"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("nope.json"), "{missing}");
    assert!(RigDocument::read(&fixtures().join("kit/rig.json")).is_ok());
}

#[test]
fn committed_raster_parts_match_their_generator() {
    for (rel, bytes) in crate::common::raster_parts() {
        let p = fixtures().join(rel);
        if std::env::var_os("RIGSMITH_WRITE_FIXTURES").is_some() {
            std::fs::write(&p, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&p).unwrap_or_default();
        assert!(
            on_disk == bytes,
            "{} differs from its generator (RIGSMITH_WRITE_FIXTURES=1 rewrites it)",
            p.display()
        );
    }
}
