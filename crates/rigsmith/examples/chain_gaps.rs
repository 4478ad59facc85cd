//! Measures the chain gaps `place.disjoint` judges: for every bone with a parent that
//! is not a root, the distance from the parent's tail to the head of the child that
//! continues the parent's chain ([`rigsmith::fit::chain_child`]), in % of the body
//! height, on the skeletons the check meets: the fitted mannequin in every template
//! (and read back from the GLB rigsmith writes), the MakeHuman artist rigs (tails from
//! the rig files) and the Quaternius characters (tails rebuilt by the glTF reader).
//!
//! ```text
//! cargo run --release --example chain_gaps [-- VERBOSE]
//! ```
//!
//! Prints one line per skeleton: the number of chain joints judged, the largest gap
//! and the bone it is at, and how many are over 1e-4 H (the check's limit).

use rigsmith::fit::{chain_child, fit, FitOptions};
use rigsmith::humanoid::Template;
use rigsmith::io::mpfb2::Corpus;
use rigsmith::mannequin::{build, MannequinOptions};
use rigsmith::Skeleton;

fn report(label: &str, s: &Skeleton, h: f32, verbose: bool) {
    let mut judged = 0;
    let mut over = Vec::new();
    let mut worst = (0.0f32, String::new());
    for (p, b) in s.bones.iter().enumerate() {
        if b.parent.map_or(true, |q| s.bones[q].parent.is_none()) {
            continue;
        }
        let Some(c) = chain_child(s, p) else {
            let n = s.bones.iter().filter(|k| k.parent == Some(p)).count();
            if verbose && n > 1 {
                println!("    {}: a branch of {n} children", b.name);
            }
            continue;
        };
        judged += 1;
        let gap = (s.bones[c].head - b.tail).length() / h;
        if verbose {
            let all: Vec<String> = s
                .bones
                .iter()
                .filter(|k| k.parent == Some(p))
                .map(|k| {
                    format!(
                        "{} {:.3}/{:.3} at {:.1} deg",
                        k.name,
                        100.0 * (k.head - b.tail).length() / h,
                        100.0 * (k.head - b.head).length() / h,
                        (k.head - b.head)
                            .normalize_or_zero()
                            .dot(b.y_axis())
                            .clamp(-1.0, 1.0)
                            .acos()
                            .to_degrees()
                    )
                })
                .collect();
            println!(
                "    {} -> {}: {:.5} % H   [children, % H from tail/head: {}]",
                b.name,
                s.bones[c].name,
                100.0 * gap,
                all.join(", ")
            );
        }
        if gap > worst.0 {
            worst = (gap, s.bones[c].name.clone());
        }
        if gap > 1e-4 {
            over.push(format!("{} {:.3}%", s.bones[c].name, 100.0 * gap));
        }
    }
    println!(
        "| {label} | {judged} | {:.4} ({}) | {} {} |",
        100.0 * worst.0,
        worst.1,
        over.len(),
        over.join(", ")
    );
}

fn main() {
    let verbose = std::env::args().any(|a| a == "VERBOSE");
    println!("| skeleton | chain joints | largest gap, % H (bone) | over 1e-4 H |");
    println!("|---|---|---|---|");
    let m = build(&MannequinOptions::default());
    let (lo, hi) = m.bounds();
    let h = hi.y - lo.y;
    for t in [
        Template::Game,
        Template::Basic,
        Template::Mixamo,
        Template::Vrm,
    ] {
        let r = fit(
            &m,
            &FitOptions {
                template: t,
                ..Default::default()
            },
        )
        .expect("the mannequin fits");
        report(
            &format!("mannequin, fitted, {t:?}"),
            &r.skeleton,
            h,
            verbose,
        );
        // The GLB rigsmith writes, read back (the weights are not needed for tails).
        let mut c = m.clone();
        c.skeleton = Some(r.skeleton.clone());
        let bytes = rigsmith::io::gltf::write_glb_bytes(&c, &Default::default()).unwrap();
        let back =
            rigsmith::io::gltf::read_gltf_bytes(&bytes, std::path::Path::new("m.glb")).unwrap();
        report(
            &format!("mannequin, fitted, {t:?}, GLB read back"),
            back.skeleton.as_ref().unwrap(),
            h,
            verbose,
        );
    }
    let dir = rigsmith::io::mpfb2::data_dir().unwrap_or_default();
    match Corpus::open(&dir) {
        Err(e) => println!("MakeHuman corpus not read: {e}"),
        Ok(corpus) => {
            for (rig, _) in rigsmith::io::mpfb2::RIGS {
                let c = match corpus.build(&rigsmith::io::mpfb2::CorpusOptions {
                    rig: Some(rig.to_string()),
                    ..Default::default()
                }) {
                    Ok(c) => c,
                    Err(e) => {
                        println!("| MakeHuman artist `{rig}` | not read: {e} | | |");
                        continue;
                    }
                };
                let (lo, hi) = c.bounds();
                report(
                    &format!("MakeHuman artist `{rig}`"),
                    c.skeleton.as_ref().unwrap(),
                    hi.y - lo.y,
                    verbose,
                );
            }
        }
    }
    let q = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/quaternius");
    for f in [
        "men_Casual",
        "men_Farmer",
        "knight_KnightCharacter",
        "platformer_Character_HumanoidRig",
        "animals_Fox",
    ] {
        let c = rigsmith::io::gltf::read_gltf(&q.join(format!("{f}.glb"))).unwrap();
        let (lo, hi) = c.bounds();
        report(
            &format!("Quaternius `{f}` (glTF reader)"),
            c.skeleton.as_ref().unwrap(),
            hi.y - lo.y,
            verbose,
        );
    }
}
