//! Held-out fitting accuracy: bodies the landmark constants were NOT calibrated on.
//!
//! The constants of `fit/landmarks.rs` were calibrated on the 14 named MakeHuman
//! variants. This example builds 16 other bodies from random (seeded, so the table is
//! reproducible) mixes of the MakeHuman macro targets: gender, age (child, young, old),
//! an ethnic mix, a muscle/weight target and a height target that no named variant
//! uses, each at a random weight. Each body is fitted (`game` template) and compared
//! bone head by bone head with the artist `game_engine` skeleton the corpus builds for
//! the same body. Errors in % of body height.
//!
//! ```text
//! cargo run --release --example fit_heldout [-- CORPUS_DIR]
//! ```

#[path = "fit_accuracy.rs"]
#[allow(dead_code)]
mod acc;

use rigsmith::fit::{fit, FitOptions};
use rigsmith::io::mpfb2::CorpusOptions;
use rigsmith::Severity;

/// A small deterministic generator (64-bit LCG), uniform in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[((self.next() * xs.len() as f32) as usize).min(xs.len() - 1)]
    }
}

/// The held-out bodies: `(label, targets)`.
pub fn bodies(n: usize) -> Vec<(String, Vec<(String, f32)>)> {
    let mut r = Lcg(0x05ee_df17);
    let mut out = Vec::new();
    for _ in 0..n {
        let g = r.pick(&["female", "male"]);
        let age = r.pick(&["child", "young", "old"]);
        let muscle = r.pick(&["minmuscle", "averagemuscle", "maxmuscle"]);
        let weight = r.pick(&["minweight", "averageweight", "maxweight"]);
        let tall = r.pick(&["minheight", "maxheight"]);
        // Ethnic mix: three random weights summing to 1.
        let e: [f32; 3] = [r.next() + 0.1, r.next() + 0.1, r.next() + 0.1];
        let s: f32 = e.iter().sum();
        let mut t: Vec<(String, f32)> = ["african", "asian", "caucasian"]
            .iter()
            .zip(e)
            .map(|(k, w)| (format!("macrodetails/{k}-{g}-{age}.target.gz"), w / s))
            .collect();
        let wm = 0.4 + 0.6 * r.next();
        let wh = 0.3 + 0.7 * r.next();
        if !(muscle == "averagemuscle" && weight == "averageweight") {
            t.push((
                format!("macrodetails/universal-{g}-{age}-{muscle}-{weight}.target.gz"),
                wm,
            ));
        }
        t.push((
            format!("macrodetails/height/{g}-{age}-{muscle}-{weight}-{tall}.target.gz"),
            wh,
        ));
        let label = format!("{g} {age} {muscle} {weight} ({wm:.2}) {tall} ({wh:.2})");
        out.push((label, t));
    }
    out
}

#[allow(dead_code)]
fn main() {
    let corpus = acc::open(&acc::corpus_dir());
    println!("| body | height m | major mean % H | major worst % H (joint) | fingers mean % H | failed checks |");
    println!("|---|---|---|---|---|---|");
    let (mut mm_all, mut fm_all, mut worst_all) = (Vec::new(), Vec::new(), 0.0f32);
    for (label, targets) in bodies(16) {
        let o = CorpusOptions {
            targets,
            ..Default::default()
        };
        let mut c = match corpus.build(&o) {
            Ok(c) => c,
            Err(e) => {
                println!("| {label} | build failed: {e} | | | | |");
                continue;
            }
        };
        let gt_s = c.skeleton.take().expect("game_engine skeleton");
        for p in &mut c.parts {
            p.weights = None;
        }
        let gt = gt_s
            .bones
            .iter()
            .map(|b| (b.name.clone(), (b.head, b.tail)))
            .collect();
        let h = c.bounds().1.y - c.bounds().0.y;
        let r = match fit(&c, &FitOptions::default()) {
            Ok(r) => r,
            Err(e) => {
                println!("| {label} | {h:.3} | fit failed: {e} | | | |");
                continue;
            }
        };
        for k in r.checks.iter().filter(|k| !k.passed) {
            eprintln!("{label}: {} {:.2}: {}", k.id, k.value, k.detail);
        }
        let e = acc::errors(&r.skeleton, &gt, h);
        let (mm, mw, mk) = acc::summary(&e, |k| acc::MAJOR.contains(&k));
        let (fm, _, _) = acc::summary(&e, acc::is_finger);
        mm_all.push(mm);
        fm_all.push(fm);
        worst_all = worst_all.max(mw);
        let failed: Vec<String> = r
            .checks
            .iter()
            .filter(|k| !k.passed)
            .map(|k| {
                format!(
                    "{} ({})",
                    k.id,
                    match k.severity {
                        Severity::Blocker => "blocker",
                        Severity::Major => "major",
                        Severity::Minor => "minor",
                    }
                )
            })
            .collect();
        println!(
            "| {label} | {h:.3} | {mm:.2} | {mw:.2} ({mk}) | {fm:.2} | {} |",
            if failed.is_empty() {
                "none".into()
            } else {
                failed.join(", ")
            }
        );
    }
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
    println!(
        "| **all {}** | | {:.2} | {worst_all:.2} | {:.2} | |",
        mm_all.len(),
        mean(&mm_all),
        mean(&fm_all)
    );
}
