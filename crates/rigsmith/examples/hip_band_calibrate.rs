//! Measures what a hip band limit for `leg_forward` and `leg_side` would judge: the worst band
//! (mean squared distance to the limb axis, posed over rest, [`rigsmith::review::volume`])
//! of the hip joint on the artist rigs, as the review measures it (linear blend
//! skinning): the MakeHuman variants with their `game_engine` rig and artist weights,
//! the base body with every other MakeHuman rig, and the humanoid Quaternius
//! characters with their own rigs. Then the same on broken twins of the MakeHuman base
//! body (candidate positive controls: weight defects at the hip, the hip pivot moved).
//!
//! ```text
//! cargo run --release --example hip_band_calibrate
//! ```

use rigsmith::pose::default_library;
use rigsmith::review::{check, CheckOptions};
use rigsmith::Character;

/// The leg poses with the hip band judged at `min` (0 judges nothing: every value passes).
fn worst_hip_bands(c: &Character, min: f32) -> rigsmith::Result<Vec<(String, f64, bool)>> {
    let (lib, _) = default_library(c.skeleton.as_ref().unwrap());
    let lib = lib
        .into_iter()
        .filter(|p| p.name.starts_with("leg_forward") || p.name.starts_with("leg_side"))
        .map(|mut p| {
            for t in &mut p.tests {
                t.band_min = Some(min);
            }
            p
        })
        .collect();
    let r = check(
        c,
        &CheckOptions {
            library: Some(lib),
            self_intersections: false,
            ..Default::default()
        },
    )?;
    Ok(r.checks
        .iter()
        .filter(|k| k.id.ends_with(".band"))
        .map(|k| (k.id.clone(), k.value, k.passed))
        .collect())
}

fn fixed(mut c: Character) -> Character {
    let m = rigsmith::fit::model_check(&c);
    rigsmith::fit::fix_model(&mut c, &m);
    c
}

fn line(label: &str, c: &Character, all: &mut Vec<f64>) {
    let v = match worst_hip_bands(c, 0.0) {
        Ok(v) => v,
        Err(e) => {
            println!("| {label} | not checked: {e} |");
            return;
        }
    };
    let text: Vec<String> = v
        .iter()
        .map(|(id, x, _)| {
            format!(
                "{} {x:.3}",
                id.trim_start_matches("deform.").trim_end_matches(".band")
            )
        })
        .collect();
    all.extend(v.iter().map(|x| x.1));
    println!("| {label} | {} |", text.join(", "));
}

fn main() {
    let dir = rigsmith::io::mpfb2::data_dir().unwrap_or_default();
    let corpus = rigsmith::io::mpfb2::Corpus::open(&dir).expect("the MakeHuman corpus");
    let mut mh = Vec::new();
    println!("| rig | worst hip band per pose |");
    println!("|---|---|");
    for v in rigsmith::io::mpfb2::VARIANTS {
        let c = corpus
            .build(&rigsmith::io::mpfb2::CorpusOptions {
                variant: (v.name != "base").then(|| v.name.to_string()),
                ..Default::default()
            })
            .unwrap();
        line(
            &format!("MakeHuman `{}`, game_engine", v.name),
            &fixed(c),
            &mut mh,
        );
    }
    for (rig, _) in rigsmith::io::mpfb2::RIGS.iter().skip(1) {
        let Ok(c) = corpus.build(&rigsmith::io::mpfb2::CorpusOptions {
            rig: Some(rig.to_string()),
            ..Default::default()
        }) else {
            continue;
        };
        line(&format!("MakeHuman base, {rig}"), &fixed(c), &mut mh);
    }
    let mut q = Vec::new();
    let qd = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/quaternius");
    for f in [
        "men_Casual",
        "men_Farmer",
        "knight_KnightCharacter",
        "platformer_Character_HumanoidRig",
    ] {
        let c = rigsmith::io::read_character(&qd.join(format!("{f}.glb"))).unwrap();
        line(&format!("Quaternius `{f}`"), &c, &mut q);
    }
    for (name, v) in [
        ("MakeHuman", &mh),
        ("Quaternius", &q),
        ("all", &[mh.clone(), q.clone()].concat()),
    ] {
        let mut s = v.clone();
        s.sort_by(f64::total_cmp);
        if s.is_empty() {
            continue;
        }
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        let sd = (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / s.len() as f64).sqrt();
        println!(
            "{name}: n {} min {:.3} p5 {:.3} median {:.3} max {:.3} mean {mean:.3} sd {sd:.3}",
            s.len(),
            s[0],
            s[s.len() * 5 / 100],
            s[s.len() / 2],
            s[s.len() - 1]
        );
    }
    // Positive controls on the MakeHuman base body.
    let base = fixed(corpus.build(&Default::default()).unwrap());
    let (lo, hi) = base.bounds();
    let h = hi.y - lo.y;
    let mut cases = vec![
        (
            "hip flesh half pelvis, half thigh".to_string(),
            controls::half_and_half(&base),
        ),
        (
            "thigh weights on the pelvis".to_string(),
            controls::thigh_on_pelvis(&base),
        ),
    ];
    for (name, d) in [
        ("up", glam::Vec3::Y),
        ("down", -glam::Vec3::Y),
        ("forward", glam::Vec3::Z),
        ("back", -glam::Vec3::Z),
        ("in", -glam::Vec3::X),
        ("out", glam::Vec3::X),
    ] {
        for k in [0.03f32, 0.06] {
            cases.push((
                format!("left hip pivot moved {name} {k} H"),
                controls::hip_moved(&base, d * k * h),
            ));
        }
    }
    for (label, c) in cases {
        println!("control, {label}: {:?}", worst_hip_bands(&c, 0.0));
    }
}

/// The broken twins.
mod controls {
    use rigsmith::model::Influence;
    use rigsmith::Character;

    /// A copy of `c` with the indices of `pelvis` and `thigh_l`.
    fn with_hip(c: &Character) -> (Character, u32, u32) {
        let s = c.skeleton.as_ref().unwrap();
        let (pelvis, thigh) = (
            s.find("pelvis").unwrap() as u32,
            s.find("thigh_l").unwrap() as u32,
        );
        (c.clone(), pelvis, thigh)
    }

    /// Every vertex with weight on `thigh_l` gets half `pelvis`, half `thigh_l`.
    pub fn half_and_half(c: &Character) -> Character {
        let (mut c, pelvis, thigh) = with_hip(c);
        let w = c.parts[0].weights.as_mut().unwrap();
        for list in &mut w.vertices {
            if list.iter().any(|i| i.bone == thigh && i.weight > 0.2) {
                *list = vec![
                    Influence {
                        bone: pelvis,
                        weight: 0.5,
                    },
                    Influence {
                        bone: thigh,
                        weight: 0.5,
                    },
                ];
            }
        }
        c
    }

    /// The left hip's pivot (the thigh's head) moved by `d`, weights kept.
    pub fn hip_moved(c: &Character, d: glam::Vec3) -> Character {
        let mut c = c.clone();
        let s = c.skeleton.as_mut().unwrap();
        let t = s.find("thigh_l").unwrap();
        s.bones[t].head += d;
        c
    }

    /// Every weight of `thigh_l` moved to `pelvis`: the leg's flesh stays behind.
    pub fn thigh_on_pelvis(c: &Character) -> Character {
        let (mut c, pelvis, thigh) = with_hip(c);
        let w = c.parts[0].weights.as_mut().unwrap();
        for i in w.vertices.iter_mut().flatten() {
            if i.bone == thigh {
                i.bone = pelvis;
            }
        }
        c
    }
}
