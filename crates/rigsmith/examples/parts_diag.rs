//! Spring verdicts of the two reference figures, one row per motion: the built-in
//! mannequin (A pose, skirt and hair) and the MakeHuman body with its `skirt` and
//! `tights` helpers (`RIGSMITH_DATA` names the MakeHuman corpus directory).
//!
//! ```sh
//! RIGSMITH_DATA=/path/to/mpfb2 cargo run --release -p rigsmith --example parts_diag [vrm]
//! ```
//!
//! With `vrm`, the springs run as a VRM runtime runs the exported file
//! ([`SpringModel::Vrm`]). With `variants` (after the model, or alone), every named
//! MakeHuman variant with its skirt and tights gets one row: body entry and joints
//! between the legs per motion.

use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::parts::{self, Motion, SpringModel};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = mannequin::build(&MannequinOptions {
        pose: ArmPose::A,
        skirt: true,
        hair: true,
        ..Default::default()
    });
    let dir =
        std::env::var("RIGSMITH_DATA").map_err(|_| "set RIGSMITH_DATA to the mpfb2 corpus")?;
    let h = Corpus::open(std::path::Path::new(&dir))?.build(&CorpusOptions {
        parts: vec!["body".into(), "skirt".into(), "tights".into()],
        rig: Some("game_engine".into()),
        ..Default::default()
    })?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let model = if args.iter().any(|a| a == "vrm") {
        SpringModel::Vrm
    } else {
        SpringModel::Fitted
    };
    println!("model: {model:?}");
    if args.iter().any(|a| a == "variants") {
        let corpus = Corpus::open(std::path::Path::new(&dir))?;
        println!("| variant | H (m) | walk | run | jump | spin | verdicts |");
        println!("|---|---|---|---|---|---|---|");
        for v in rigsmith::io::mpfb2::VARIANTS {
            let c = corpus.build(&CorpusOptions {
                variant: Some(v.name.into()),
                parts: vec!["body".into(), "skirt".into(), "tights".into()],
                rig: Some("game_engine".into()),
                ..Default::default()
            })?;
            let p = rigsmith::rig(&c, &rigsmith::RigOptions::vrm(), &mut |_, _| {})?;
            let c = &p.character;
            let mut cells = Vec::new();
            let mut passed = 0;
            for mo in [Motion::Walk, Motion::Run, Motion::Jump, Motion::Spin] {
                let r = parts::simulate_model(c, &p.sidecar, mo, 3.0, model)?;
                passed += usize::from(r.passed);
                cells.push(format!(
                    "{:.1} mm, {}{}",
                    r.worst_penetration_mm_at_1_7m,
                    r.skirt_joints_between_legs,
                    if r.stable { "" } else { ", UNSTABLE" }
                ));
            }
            println!(
                "| {} | {:.2} | {} | {passed}/4 |",
                v.name,
                p.sidecar.height,
                cells.join(" | ")
            );
        }
        return Ok(());
    }
    println!("| figure | motion | body entry (mm at 1.7 m) | sidecar colliders (mm) | between legs | hair in head | max swing (deg) | stable | verdict |");
    for (name, c) in [("mannequin", &m), ("MakeHuman", &h)] {
        let p = rigsmith::rig(c, &rigsmith::RigOptions::vrm(), &mut |_, _| {})?;
        let c = &p.character;
        for mo in Motion::ALL {
            let r = parts::simulate_model(c, &p.sidecar, mo, 3.0, model)?;
            println!(
                "| {name} | {} | {:.1} | {:.1} | {} | {} | {:.1} | {} | {} |",
                mo.name(),
                r.worst_penetration_mm_at_1_7m,
                r.worst_collider_mm_at_1_7m,
                r.skirt_joints_between_legs,
                r.hair_in_head,
                r.max_swing_deg,
                if r.stable { "yes" } else { "no" },
                if r.passed { "pass" } else { "FAIL" },
            );
            eprintln!(
                "  {name} {}: entry at {}; between at {}",
                mo.name(),
                r.worst_at,
                r.between_at
            );
        }
    }
    Ok(())
}
