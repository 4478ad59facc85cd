//! Rigs every named MakeHuman variant (unrigged body with eyes, teeth, tights and skirt
//! as separate parts) and the mannequin in T and A pose with `rigsmith::pipeline::rig`,
//! and prints a table: failed checks by severity, weight route and per-stage times.
//!
//! ```sh
//! cargo run --release -p rigsmith --example rig_corpus [-- --body-only] [-- --no-review]
//! ```
//! `--body-only` rigs the 13,380-vertex body alone (the end-to-end speed figure).

use std::time::Instant;

use rigsmith::io::mpfb2::{data_dir, Corpus, CorpusOptions, VARIANTS};
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::model::Character;
use rigsmith::pipeline::{rig, RigOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let body_only = args.iter().any(|a| a == "--body-only");
    let review = !args.iter().any(|a| a == "--no-review");
    let dir = data_dir().expect("MakeHuman corpus not found: set RIGSMITH_DATA");
    let corpus = Corpus::open(&dir).expect("open corpus");
    let parts: Vec<String> = if body_only {
        vec!["body".into()]
    } else {
        ["body", "eyes", "teeth", "tights", "skirt"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let mut cases: Vec<(String, Character)> = Vec::new();
    for v in VARIANTS {
        let o = CorpusOptions {
            variant: Some(v.name.to_string()),
            rig: None,
            parts: parts.clone(),
            ..CorpusOptions::default()
        };
        cases.push((
            format!("mpfb2 {}", v.name),
            corpus.build(&o).expect("build variant"),
        ));
    }
    if !body_only {
        for (name, pose) in [("mannequin T", ArmPose::T), ("mannequin A", ArmPose::A)] {
            cases.push((
                name.to_string(),
                mannequin::build(&MannequinOptions {
                    pose,
                    ..MannequinOptions::default()
                }),
            ));
        }
    }
    let opts = RigOptions {
        review,
        ..RigOptions::default()
    };
    println!("| case | vertices | blockers | majors | minors | route | model ms | fit ms | weights ms | chains ms | review ms | total ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = 0;
    for (name, c) in &cases {
        let t0 = Instant::now();
        match rig(c, &opts, &mut |_, _| {}) {
            Ok(out) => {
                let total = t0.elapsed().as_secs_f64() * 1000.0;
                let k = out.counts();
                let ms = |s: &str| {
                    out.timings
                        .iter()
                        .find(|t| t.stage == s)
                        .map_or(0.0, |t| t.seconds * 1000.0)
                };
                println!(
                    "| {name} | {} | {} | {} | {} | {:?} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
                    c.vertex_count(), k.blocker, k.major, k.minor, out.route,
                    ms("model"), ms("fit"), ms("weights"), ms("chains"), ms("review"), total
                );
                if k.blocker > 0 {
                    failures += 1;
                    if let Some(r) = &out.review {
                        for f in r
                            .checks
                            .iter()
                            .filter(|f| !f.passed && f.severity == rigsmith::Severity::Blocker)
                        {
                            eprintln!(
                                "  {name}: blocker {} = {:.4} (limit {}) {}",
                                f.id, f.value, f.threshold, f.detail
                            );
                        }
                    }
                }
            }
            Err(e) => {
                failures += 1;
                println!("| {name} | {} | error: {e} |||||||||| ", c.vertex_count());
            }
        }
    }
    if failures > 0 {
        eprintln!("{failures} case(s) with a blocker or an error");
        std::process::exit(1);
    }
}
