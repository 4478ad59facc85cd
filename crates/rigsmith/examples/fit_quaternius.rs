//! Fits the humanoid Quaternius characters (CC0 glTF, `RIGSMITH_QUATERNIUS` or the
//! repository's `data/quaternius`) with their skeleton and weights stripped, and
//! compares the fitted joints with the artist's where the names map. The characters
//! are modular (the body is split into several parts: body, head, legs, feet), so the
//! parts are fitted as one mesh (a copy made for the fit only). The fox (a quadruped)
//! must be refused with a clear error.
//!
//! ```text
//! cargo run --release --example fit_quaternius [-- DIR]
//! ```

use std::path::PathBuf;

use rigsmith::fit::{fit, FitOptions};
use rigsmith::{Character, Mesh, Part, Severity};

/// Artist joint name (Quaternius' Rigify-like names) -> `game` bone whose head sits there.
pub const MAP: &[(&str, &str)] = &[
    ("Hips", "pelvis"),
    ("Abdomen", "spine_01"),
    ("Torso", "spine_02"),
    ("Chest", "spine_03"),
    ("Neck", "neck_01"),
    ("Head", "head"),
    ("Shoulder.L", "clavicle_l"),
    ("UpperArm.L", "upperarm_l"),
    ("LowerArm.L", "lowerarm_l"),
    ("Hand.L", "hand_l"),
    ("Palm.L", "hand_l"),
    ("Fist.L", "hand_l"),
    ("UpperLeg.L", "thigh_l"),
    ("LowerLeg.L", "calf_l"),
    ("Foot.L", "foot_l"),
];

/// The characters, in table order.
pub const FILES: &[&str] = &[
    "men_Casual",
    "men_Farmer",
    "knight_KnightCharacter",
    "platformer_Character_HumanoidRig",
    "animals_Fox",
];

/// The folder of the characters: the first argument, else `RIGSMITH_QUATERNIUS`, else
/// the repository's `data/quaternius`.
pub fn dir() -> PathBuf {
    std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("RIGSMITH_QUATERNIUS").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/quaternius"))
}

/// All parts of `c` (but those whose name contains `skip`, when not empty) as one part
/// named `body` (vertex order kept, part after part), without skeleton or weights.
pub fn as_one_body(c: &Character, skip: &str) -> Character {
    let mut m = Mesh::default();
    for p in c
        .parts
        .iter()
        .filter(|p| skip.is_empty() || !p.name.contains(skip))
    {
        let o = m.positions.len() as u32;
        m.positions.extend(&p.mesh.positions);
        m.triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + o)));
    }
    Character {
        parts: vec![Part {
            name: "body".into(),
            mesh: m,
            ..Default::default()
        }],
        ..Default::default()
    }
}

#[allow(dead_code)]
fn main() {
    println!(
        "| character | height m | joints compared | mean % H | worst % H (joint) | failed checks |"
    );
    println!("|---|---|---|---|---|---|");
    // The chibi again without its ears (wider than its arms).
    let runs = FILES
        .iter()
        .map(|f| (*f, ""))
        .chain([("platformer_Character_HumanoidRig", "Ears")]);
    for (f, skip) in runs {
        let path = dir().join(format!("{f}.glb"));
        let c = rigsmith::io::read_character(&path).unwrap_or_else(|e| panic!("{e}"));
        let artist = c.skeleton.clone().expect("rigged");
        let body = as_one_body(&c, skip);
        let f = if skip.is_empty() {
            f.to_string()
        } else {
            format!("{f} without part {skip}")
        };
        let (lo, hi) = body.bounds();
        let h = hi.y - lo.y;
        match fit(&body, &FitOptions::default()) {
            Err(e) => println!("| {f} | {h:.3} | - | - | fit refused: {e} | |"),
            Ok(r) => {
                let s = &r.skeleton;
                let mut errs: Vec<(&str, f32)> = Vec::new();
                for (a, g) in MAP {
                    let (Some(ia), Some(ig)) = (artist.find(a), s.find(g)) else {
                        continue;
                    };
                    errs.push((
                        g,
                        100.0 * (artist.bones[ia].head - s.bones[ig].head).length() / h,
                    ));
                }
                let mean = errs.iter().map(|e| e.1).sum::<f32>() / errs.len().max(1) as f32;
                let worst = errs
                    .iter()
                    .copied()
                    .fold(("", 0.0f32), |a, b| if b.1 > a.1 { b } else { a });
                let failed: Vec<String> = r
                    .checks
                    .iter()
                    .filter(|k| !k.passed)
                    .map(|k| {
                        format!(
                            "{} ({}{})",
                            k.id,
                            match k.severity {
                                Severity::Blocker => "blocker",
                                Severity::Major => "major",
                                Severity::Minor => "minor",
                            },
                            if std::env::var_os("VERBOSE").is_some() {
                                format!(": {}", k.detail)
                            } else {
                                String::new()
                            }
                        )
                    })
                    .collect();
                println!(
                    "| {f} | {h:.3} | {} | {mean:.2} | {:.2} ({}) | {} |",
                    errs.len(),
                    worst.1,
                    worst.0,
                    if failed.is_empty() {
                        "none".to_string()
                    } else {
                        failed.join(", ")
                    }
                );
                if std::env::var_os("VERBOSE").is_some() {
                    for (g, e) in &errs {
                        println!("|   {g} | | | {e:.2} | | |");
                    }
                }
            }
        }
    }
}
