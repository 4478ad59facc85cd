//! Shared test helpers.

use std::path::PathBuf;

/// The MakeHuman corpus folder, downloaded on first use when it is nowhere (see
/// `rigsmith_testdata`). Tests that need it fail loudly when it cannot be had (never skip).
#[allow(dead_code)]
pub fn mpfb2_dir() -> PathBuf {
    rigsmith_testdata::mpfb2_dir()
}

/// The folder of the five rigged Quaternius characters (`data/quaternius`).
#[allow(dead_code)]
pub fn quaternius_dir() -> PathBuf {
    rigsmith_testdata::quaternius_dir()
}

/// A fresh temporary folder.
#[allow(dead_code)]
pub fn tmpdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// Runs the Khronos glTF-Validator (`scripts/validate-gltf.mjs`) on `path` and returns
/// `(errors, warnings)`. The validator is installed on first use (`npm ci` in
/// `scripts/`); when node or the package cannot be had, or the validator does not run,
/// the test fails with the reason. The validator's messages are printed when there are
/// errors.
#[allow(dead_code)]
pub fn validate_gltf(path: &std::path::Path) -> (usize, usize) {
    let scripts = rigsmith_testdata::node_scripts();
    let out = std::process::Command::new("node")
        .arg(scripts.join("validate-gltf.mjs"))
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("could not run node on scripts/validate-gltf.mjs: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "validator output is not JSON ({e}): {text} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let errors = v["errors"].as_u64().unwrap_or(u64::MAX) as usize;
    let warnings = v["warnings"].as_u64().unwrap_or(0) as usize;
    if errors > 0 {
        eprintln!("validator on {}: {}", path.display(), v["messages"]);
    }
    (errors, warnings)
}

/// Rigs `c` as the VRM exporter does ([`rigsmith::RigOptions::vrm`]: its own rig kept,
/// an unrigged one fitted and bound; chains, colliders, sidecar) and puts the result
/// in `c`.
pub fn prepare(c: &mut rigsmith::Character) -> rigsmith::pipeline::RigOutput {
    let out = rigsmith::rig(c, &rigsmith::RigOptions::vrm(), &mut |_, _| {}).unwrap();
    c.clone_from(&out.character);
    out
}

/// A MakeHuman body of `variant` (welded) in its own ankle-long skirt with the artist's
/// weights (`corpus mpfb2 --parts body,skirt`).
pub fn in_artists_skirt(variant: &str) -> rigsmith::Character {
    use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
    Corpus::open(&mpfb2_dir())
        .unwrap()
        .build(&CorpusOptions {
            variant: Some(variant.into()),
            parts: vec!["body".into(), "skirt".into()],
            ..Default::default()
        })
        .unwrap()
}

/// The influences of part `part` of the rigged `c` on the bones whose names `on`
/// accepts: how many, and their summed weight.
pub fn influences_on(
    c: &rigsmith::Character,
    part: usize,
    on: impl Fn(&str) -> bool,
) -> (usize, f32) {
    let s = c.skeleton.as_ref().expect("rigged");
    c.parts[part]
        .weights
        .as_ref()
        .expect("weighted")
        .vertices
        .iter()
        .flatten()
        .filter(|x| on(&s.bones[x.bone as usize].name))
        .fold((0, 0.0), |(n, w), x| (n + 1, w + x.weight))
}

/// What a fuzz test asks of a read: a refusal names the file (`name`); a character that
/// reads goes through what every command does with it first (inspect, the model check),
/// and one written as GLB reads back.
#[allow(dead_code)]
pub fn read_or_refuse_naming(read: rigsmith::Result<rigsmith::Character>, name: &str) {
    use rigsmith::io::gltf::{read_gltf_bytes, write_glb_bytes, WriteOptions};
    match read {
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains(name),
                "the error does not name the file: {msg}"
            );
        }
        Ok(c) => {
            let _ = rigsmith::inspect::inspect(&c);
            let _ = rigsmith::fit::model_check(&c);
            if let Some(skeleton) = &c.skeleton {
                let _ = rigsmith::bind::bind(&c, skeleton, &Default::default());
            }
            if let Ok(glb) = write_glb_bytes(&c, &WriteOptions::default()) {
                read_gltf_bytes(&glb, std::path::Path::new("again.glb"))
                    .expect("a character rigsmith read and wrote reads back");
            }
        }
    }
}

/// A part named `name` of these positions and triangles.
pub fn mesh_part(
    name: &str,
    positions: Vec<glam::Vec3>,
    triangles: Vec<[u32; 3]>,
) -> rigsmith::Part {
    rigsmith::Part {
        name: name.into(),
        mesh: rigsmith::Mesh {
            positions,
            triangles,
            normals: None,
            uvs: None,
        },
        ..Default::default()
    }
}
