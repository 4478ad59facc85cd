//! The asset validator's verdicts against the builder's: what each refuses or warns.

use rigsmith_2d::build::{build_rig, BuildOptions};
use rigsmith_2d::check::check;
use rigsmith_2d::RigError;
use serde_json::json;

use crate::common::doc;

/// An arm chain with an unrelated cord ordered between the arm and its hand.
fn interleaved() -> rigsmith_2d::RigDocument {
    doc(json!({"nesting": "bones",
        "bones": [{"name": "arm"}, {"name": "hand", "parent": "arm"}, {"name": "cord"}],
        "slots": [{"name": "arm", "bone": "arm", "draw_order": 1}, {"name": "cord", "bone": "cord", "draw_order": 2},
                  {"name": "hand", "bone": "hand", "draw_order": 3}]}))
}

#[test]
fn chain_draw_order_is_only_a_warning_for_the_asset_validator() {
    let report = check(&interleaved());
    assert_eq!(report.errors(), 0, "{}", report.to_text());
    assert_eq!(report.warnings(), 1, "{}", report.to_text());
    let f = &report.findings[0];
    assert_eq!((f.severity, f.check), ("warning", "chain_draw_order"));
    assert!(f
        .message
        .starts_with("the stage paints each chain's parts together"));
}

#[test]
fn chain_draw_order_is_refused_by_the_builder() {
    let err = build_rig("rig", &interleaved(), &BuildOptions::default()).unwrap_err();
    assert!(matches!(err, RigError::DrawOrder(_)), "{err}");
    // Accepted when the runtime paints by the global paint order.
    let o = BuildOptions {
        interleave: true,
        ..BuildOptions::default()
    };
    assert!(build_rig("rig", &interleaved(), &o).is_ok());
}

#[test]
fn chain_draw_order_clean_twin_says_nothing() {
    let mut ok = interleaved();
    ok.slots[1].draw_order = 4;
    assert!(check(&ok).is_clean(), "{}", check(&ok).to_text());
    assert!(build_rig("rig", &ok, &BuildOptions::default()).is_ok());
}

#[test]
fn chain_pose_stays_an_error_for_the_asset_validator() {
    let rig = doc(json!({"nesting": "bones",
        "slots": [{"name": "arm", "bone": "arm"}, {"name": "hand", "bone": "hand"}],
        "bones": [{"name": "arm"}, {"name": "elbow", "parent": "arm", "rotation_deg": -70},
                  {"name": "hand", "parent": "elbow"}]}));
    let report = check(&rig);
    assert_eq!(report.errors(), 1, "{}", report.to_text());
    assert_eq!(report.findings[0].check, "chain_pose");
}
