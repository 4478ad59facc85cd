//! One exit code per kind of failure: 0 done, 1 a blocker (a check failed), 2 bad input
//! or usage, 3 a file that could not be read or written. The message says which file.

use crate::common::rigsmith;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_failed_check_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("cycle.json");
    std::fs::write(
        &bad,
        r#"{"bones": [{"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}]}"#,
    )
    .unwrap();
    let o = rigsmith(&["2d", "check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["rig", "--no-such-flag"],
        vec!["rig", "--demo", "-o", "x.glb", "--template", "quadruped"],
        vec!["mannequin", "--height", "-1", "-o", "x.glb"],
    ] {
        let o = rigsmith(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn a_malformed_or_missing_input_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("broken.glb");
    std::fs::write(&bad, b"glTF\x02\x00\x00\x00\xff\xff\xff\x7f").unwrap();
    let missing = tmp.path().join("absent.glb");
    for p in [&bad, &missing] {
        let o = rigsmith(&["inspect", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(stderr(&o).contains(name), "{}", stderr(&o));
    }
}

/// `/sys` refuses new files to everyone, root included: writing there is an I/O
/// failure, not bad input.
#[cfg(target_os = "linux")]
#[test]
fn a_write_failure_exits_3() {
    for out in [
        "/sys/rigsmith-exit-code.glb",
        "/sys/rigsmith-exit-code/m.obj",
    ] {
        let o = rigsmith(&["mannequin", "-o", out]);
        assert_eq!(o.status.code(), Some(3), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("rigsmith-exit-code"), "{}", stderr(&o));
    }
}
