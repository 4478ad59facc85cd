//! Bones' pivots against the skeleton art's circles.

use rigsmith_2d::check::check_read;
use rigsmith_2d::pivot::{pivot_problems, skeleton_pivots, validate_pivots};
use rigsmith_2d::read::{read_value, ReadOptions};
use rigsmith_2d::RigError;
use serde_json::json;

use crate::common::doc;

const SKELETON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
  <g id="art"><circle id="elbow" cx="600" cy="500" r="40"/></g>
  <g id="skeleton" display="none">
    <circle id="hip" cx="512" cy="650" r="6"/>
    <g><circle id="neck" cx="512" cy="350" r="6"/></g>
  </g>
</svg>"#;

fn rig(pivot: &str) -> rigsmith_2d::RigDocument {
    doc(json!({"bones": [{"name": "root", "pivot": "hip"},
                         {"name": "head", "parent": "root", "pivot": pivot},
                         {"name": "arm", "parent": "root"}]}))
}

#[test]
fn skeleton_circles_at_any_depth_of_the_group() {
    let got: Vec<String> = skeleton_pivots(SKELETON).unwrap().into_iter().collect();
    assert_eq!(got, ["hip", "neck"]);
}

#[test]
fn inkscape_layer_label_names_the_group() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">
      <g id="layer3" inkscape:label="skeleton"><circle id="neck" r="3"/></g></svg>"#;
    assert!(skeleton_pivots(svg).unwrap().contains("neck"));
}

#[test]
fn matching_pivots_are_clean() {
    assert!(pivot_problems(&rig("neck"), SKELETON, "parts/skeleton.svg").is_empty());
}

#[test]
fn unknown_pivot_names_the_file_and_the_bone() {
    let p = pivot_problems(&rig("nek"), SKELETON, "parts/skeleton.svg");
    assert_eq!(
        p,
        [
            "bone 'head' names pivot 'nek', which is no circle in the `skeleton` group of \
          parts/skeleton.svg (its circles: hip, neck)"
        ]
    );
}

#[test]
fn a_circle_outside_the_skeleton_group_does_not_count() {
    let p = pivot_problems(&rig("elbow"), SKELETON, "s.svg");
    assert_eq!(p.len(), 1);
    assert!(
        p[0].starts_with("bone 'head' names pivot 'elbow'"),
        "{}",
        p[0]
    );
}

#[test]
fn art_without_a_skeleton_group_is_said_once() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg"><circle id="neck"/></svg>"#;
    let p = pivot_problems(&rig("neck"), svg, "s.svg");
    assert_eq!(p.len(), 1);
    assert!(
        p[0].starts_with("s.svg has no `skeleton` group") && p[0].contains("'root', 'head'"),
        "{}",
        p[0]
    );
    // A rig whose bones name no pivot needs no skeleton.
    let none = doc(json!({"bones": [{"name": "root"}]}));
    assert!(pivot_problems(&none, svg, "s.svg").is_empty());
}

#[test]
fn validate_pivots_refuses_with_the_file_and_the_bone() {
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("skeleton.svg");
    std::fs::write(&f, SKELETON).unwrap();
    assert!(validate_pivots(&rig("neck"), &f).is_ok());
    let err = validate_pivots(&rig("chin"), &f).unwrap_err();
    assert!(matches!(err, RigError::Pivot { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("skeleton.svg") && text.contains("bone 'head' names pivot 'chin'"),
        "{text}"
    );
    let missing = validate_pivots(&rig("neck"), &tmp.path().join("nope.svg")).unwrap_err();
    assert!(matches!(missing, RigError::Io { .. }), "{missing}");
}

#[test]
fn check_reports_a_bad_pivot_as_an_error() {
    let raw = json!({"schema_version": "0.2.0", "bones": [{"name": "root", "pivot": "knee"}]});
    let read = read_value(&raw, &ReadOptions::default()).unwrap();
    let p = pivot_problems(&read.doc, SKELETON, "s.svg");
    let report = check_read(&read, Some(p));
    assert_eq!(report.errors(), 1, "{}", report.to_text());
    assert_eq!(report.findings[0].check, "pivot");
}
