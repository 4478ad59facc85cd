//! The shape of a check: its limit decides its verdict, and its JSON carries the limit.

use rigsmith::report::{Check, Limit, Severity};

#[test]
fn each_limit_decides_the_verdict_bounds_included() {
    let k = |l: Limit, v: f64| Check::new("x.y", "A", Severity::Major).judge(v, l);
    assert!(k(Limit::AtMost(0.0), 0.0).passed);
    assert!(!k(Limit::AtMost(0.0), 1.0).passed);
    assert!(k(Limit::AtLeast(0.98), 0.98).passed);
    assert!(!k(Limit::AtLeast(0.98), 0.5).passed);
    assert!(k(Limit::Between(1.0, 15.0), 1.0).passed);
    assert!(k(Limit::Between(1.0, 15.0), 15.0).passed);
    assert!(!k(Limit::Between(1.0, 15.0), 0.0).passed);
    assert!(!k(Limit::Between(1.0, 15.0), 40.0).passed);
    assert!(!k(Limit::AtMost(1.0), f64::NAN).passed, "NaN never passes");
    // A range reports the bound it is nearer to as its threshold.
    assert_eq!(k(Limit::Between(1.0, 15.0), 40.0).threshold, 15.0);
    assert_eq!(k(Limit::Between(1.0, 15.0), -3.0).threshold, 1.0);
    assert_eq!(Limit::Between(1.0, 15.0).text(), "1 to 15");
    assert_eq!(Limit::AtLeast(0.98).text(), ">= 0.98");
    assert_eq!(Limit::AtMost(0.0).text(), "<= 0");
}

#[test]
fn the_json_carries_the_limit_and_reads_back() {
    let k = Check::new("place.knee_bend.L", "A", Severity::Blocker)
        .title("Knee pre-bend")
        .measure("deg")
        .between(0.0, 1.0, 15.0)
        .detail("straight");
    let v = serde_json::to_value(&k).unwrap();
    assert_eq!(v["limit"]["between"], serde_json::json!([1.0, 15.0]));
    assert_eq!(v["passed"], false);
    assert!(v["remedy"].as_str().unwrap().contains("pre-bend the knee"));
    let back: Check = serde_json::from_value(v).unwrap();
    assert_eq!(back, k);
    // A report written before checks carried their limit still reads: the limit is
    // rebuilt from the threshold and the verdict.
    let old = serde_json::json!({"id": "place.hinge_roll", "section": "A", "title": "t",
        "measure": "m", "value": 0.5, "threshold": 0.98, "severity": "major",
        "passed": false, "detail": "d"});
    let k: Check = serde_json::from_value(old).unwrap();
    assert_eq!(k.limit, Limit::AtLeast(0.98));
    assert_eq!(k.judged(), k.passed);
}
