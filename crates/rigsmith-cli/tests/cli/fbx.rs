//! FBX in: every command reads it; bad FBX is exit 2 with the reason.

use crate::common::{assert_ok, repo_root, rigsmith};

fn knight_fbx() -> std::path::PathBuf {
    repo_root().join("data/fbx/knight_KnightCharacter.fbx")
}

#[test]
fn rig_works_from_an_fbx() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("knight.glb");
    let o = rigsmith(&[
        "rig",
        knight_fbx().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--rerig",
        "--json",
    ]);
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.is_file());
    let i = rigsmith(&["inspect", out.to_str().unwrap(), "--json"]);
    assert_ok(&i);
    let v: serde_json::Value = serde_json::from_slice(&i.stdout).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 3);
    assert!(
        v["skeleton"]["joints"].as_u64().unwrap_or(0) > 20,
        "{}",
        v["skeleton"]
    );
}

#[test]
fn check_and_inspect_read_an_fbx() {
    let f = knight_fbx();
    let i = rigsmith(&["inspect", f.to_str().unwrap()]);
    assert_ok(&i);
    let text = String::from_utf8_lossy(&i.stdout);
    assert!(text.contains("skeleton: 31 joints"), "{text}");
    let c = rigsmith(&["check", f.to_str().unwrap(), "--json"]);
    assert!(
        matches!(c.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&c.stderr)
    );
}

#[test]
fn a_truncated_fbx_is_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(knight_fbx()).unwrap();
    let cut = dir.path().join("cut.fbx");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let o = rigsmith(&["inspect", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cut.fbx") && err.contains("truncated"),
        "{err}"
    );
}

#[test]
fn a_file_named_fbx_that_is_not_fbx_is_exit_2_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.fbx");
    std::fs::write(&fake, b"solid cube\nendsolid cube\n").unwrap();
    for cmd in ["inspect", "check", "fit"] {
        let o = rigsmith(&[cmd, fake.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("fake.fbx: not an FBX file"), "{cmd}: {err}");
    }
}
