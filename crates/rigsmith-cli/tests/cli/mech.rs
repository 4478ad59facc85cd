//! Mechanical characters on the command line: the built-in robot written by
//! `mannequin --robot`, rigged by `rig` (from its sidecar or with `--robot`) and
//! checked by `check`, each under the mechanical review (the rigid and action checks,
//! the `mech` sheet), never the biped's skin and garment checks.

use std::path::Path;

use serde_json::Value;

use crate::common::{assert_ok, rigsmith};

/// The failed checks of a report (`{"checks": [...]}`) as `id: detail`.
fn failed(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["passed"] == false)
        .map(|k| format!("{}: {}", k["id"], k["detail"]))
        .collect()
}

/// The ids of the checks of a report.
fn ids(report: &Value) -> Vec<String> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].as_str().unwrap().to_string())
        .collect()
}

/// Asserts the report is the mechanical review, all passed: the rigid and the action
/// checks, none of the biped's skin or garment checks.
fn assert_mechanical_review(report: &Value) {
    let ids = ids(report);
    assert!(ids.contains(&"mech.rigid".to_string()), "{ids:?}");
    assert!(
        ids.contains(&"mech.action.visor_open".to_string()),
        "{ids:?}"
    );
    assert!(
        !ids.iter().any(|i| i.contains("far_bone")
            || i.contains("garment")
            || i.contains("penetration")
            || i.starts_with("deform.")),
        "{ids:?}"
    );
    assert_eq!(failed(report), Vec::<String>::new());
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn rig_robot_gets_its_own_review_exit_0_and_no_false_blocker() {
    let d = tempfile::tempdir().unwrap();
    let o = d.path().join("robot.glb");
    let rep = d.path().join("rep");
    let out = rigsmith(&[
        "rig",
        "--robot",
        "-o",
        o.to_str().unwrap(),
        "--report",
        rep.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&out);
    let v = json(&out);
    assert_mechanical_review(&v["result"]["review"]);
    assert!(rep.join("mech.png").is_file());
    assert!(rep.join("report.html").is_file());
}

#[test]
fn mannequin_robot_writes_the_robot_and_its_sidecar_and_rig_and_check_review_it_as_mechanical() {
    let d = tempfile::tempdir().unwrap();
    let robot = d.path().join("robot.glb");
    assert_ok(&rigsmith(&[
        "mannequin",
        "--robot",
        "-o",
        robot.to_str().unwrap(),
    ]));
    let side: Value =
        serde_json::from_str(&std::fs::read_to_string(d.path().join("robot.rig.json")).unwrap())
            .unwrap();
    assert_eq!(side["mech"]["own"].as_array().unwrap().len(), 5);
    assert_eq!(side["mech"]["actions"][0]["name"], "visor_open");
    let rigged = d.path().join("rigged.glb");
    let out = rigsmith(&[
        "rig",
        robot.to_str().unwrap(),
        "-o",
        rigged.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&out);
    let v = json(&out);
    assert_mechanical_review(&v["result"]["review"]);
    assert!(v["result"]["route_reasons"][0]
        .as_str()
        .unwrap()
        .starts_with("mechanical"));
    let rep = d.path().join("check");
    let out = rigsmith(&[
        "check",
        rigged.to_str().unwrap(),
        "--json",
        "--report",
        rep.to_str().unwrap(),
    ]);
    assert_ok(&out);
    assert_mechanical_review(&json(&out));
    assert!(rep.join("mech.png").is_file());
}

/// Writes the robot with its visor sunk into the head block (a closed piece inside
/// another at rest) and its sidecar to `dir/sunk.glb`.
fn sunk_visor_robot(dir: &Path) -> std::path::PathBuf {
    use rigsmith::mannequin::robot;
    let (mut c, own) = robot::build(1.8);
    let visor = c.find_part("visor").unwrap();
    for p in &mut c.parts[visor].mesh.positions {
        p.z -= 0.05 * 1.8;
    }
    let path = dir.join("sunk.glb");
    rigsmith::io::write_character(&path, &c, &Default::default()).unwrap();
    let mut side = rigsmith::parts::Sidecar::build(&c, &[], &[]);
    side.mech = Some(rigsmith::mech::MechSpec::of(
        &c,
        &own,
        vec![robot::visor_action(1.8)],
    ));
    std::fs::write(rigsmith::parts::sidecar_path(&path), side.to_string()).unwrap();
    path
}

#[test]
fn a_robot_whose_islands_interpenetrate_at_rest_is_reported_without_failing() {
    let d = tempfile::tempdir().unwrap();
    let input = sunk_visor_robot(d.path());
    let rigged = d.path().join("rigged.glb");
    let out = rigsmith(&[
        "rig",
        input.to_str().unwrap(),
        "-o",
        rigged.to_str().unwrap(),
        "--json",
    ]);
    assert_ok(&out);
    let v = json(&out);
    let notes = crate::common::strs(&v["result"]["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("interpenetrate at rest") && n.contains("visor#0 inside body#2")),
        "{notes:?}"
    );
    // Reported in the review's section F, judged nowhere.
    let review = &v["result"]["review"];
    assert!(review["not_verified"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("visor#0 inside body#2")));
    assert_mechanical_review(review);
}
