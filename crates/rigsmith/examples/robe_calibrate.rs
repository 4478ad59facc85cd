//! Calibration of the "legs inferred under cloth" rule (`fit/landmarks/cloth.rs`)
//! against the MakeHuman `game_engine` joints.
//!
//! Each named variant is dressed in a shirt and an ankle-long skirt, its legs are
//! taken out of the skin from just above the hem to 1 % H below the crotch
//! ([`take_out_legs`]) and the three are welded into one mesh: a robe over a pelvis
//! and two feet. The fit must infer the legs. For each variant it prints the cut at
//! 25 % H (the cloth alone when the body is truly legless), the value each constant
//! of the rule would need to hit the artist joint exactly, and the fit's leg and
//! major joint errors (% H) with the constants in the code; then the means (the
//! constants are these means, rounded).
//!
//! ```text
//! cargo run --release --example robe_calibrate [-- CORPUS_DIR]
//! BAND=0.30:0.45 cargo run --release --example robe_calibrate   # legs cut over a band
//! ```
//!
//! `BAND=FROM:TO` cuts the legs between those fractions of H instead (leg stubs are
//! left inside the robe: the fit must say so and infer the legs).

#[path = "fit_accuracy.rs"]
#[allow(dead_code)]
mod acc;

use std::collections::BTreeMap;

use glam::Vec3;
use rigsmith::fit::{cross_sections, fit, FitOptions};
use rigsmith::io::mpfb2::{dress, take_out_legs, weld_parts, CorpusOptions, Garment, VARIANTS};

/// The leg joints the rule places.
const LEGS: [&str; 8] = [
    "thigh_l", "thigh_r", "calf_l", "calf_r", "foot_l", "foot_r", "ball_l", "ball_r",
];

/// The bare body's hip height above the crotch (`HIP_Y`, units of H).
const HIP_Y: f32 = 0.052;

fn main() {
    let corpus = acc::open(&acc::corpus_dir());
    let band: Option<(f32, f32)> = std::env::var("BAND").ok().map(|b| {
        let v: Vec<f32> = b
            .split(':')
            .map(|x| x.parse().expect("BAND=FROM:TO, fractions of H"))
            .collect();
        (v[0], v[1])
    });
    let mut sums: BTreeMap<&str, Vec<f32>> = BTreeMap::new();
    println!("| variant | cut at 25% H | crotch | hip_w | hip_zp | knee_t | knee_fwd | legs mean / worst % H | major mean % H |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for v in VARIANTS {
        let c = corpus
            .build(&CorpusOptions {
                variant: Some(v.name.into()),
                ..Default::default()
            })
            .unwrap_or_else(|e| panic!("{}: {e}", v.name));
        let h = acc::height_of(&c);
        let floor = c.parts[0].mesh.bounds().0.y;
        let d = dress(&c, &[Garment::Shirt, Garment::Skirt]).unwrap_or_else(|e| panic!("{e}"));
        let hem = (d.parts[d.find_part("skirt").unwrap()].mesh.bounds().0.y - floor) / h;
        let s = d.skeleton.as_ref().unwrap();
        let thigh = s.bones.iter().find(|b| b.name == "thigh_l").unwrap().head;
        let crotch = (thigh.y - floor) / h - HIP_Y;
        let (from, to) = band.unwrap_or((hem + 0.005, crotch - 0.01));
        let mut w = weld_parts(&take_out_legs(&d, from, to).unwrap_or_else(|e| panic!("{e}")));
        let gt: BTreeMap<String, (Vec3, Vec3)> = w
            .skeleton
            .take()
            .unwrap()
            .bones
            .iter()
            .map(|b| (b.name.clone(), (b.head, b.tail)))
            .collect();
        for p in &mut w.parts {
            p.weights = None;
        }
        let m = &w.parts[0].mesh;
        let cut = |y: f32| cross_sections(&[m], Vec3::new(0.0, y, 0.0), Vec3::Y);
        let low: Vec<String> = cut(floor + 0.25 * h)
            .iter()
            .filter(|l| l.perimeter > 0.01 * h)
            .map(|l| format!("x {:.2} p {:.2}", l.center.x / h, l.perimeter / h))
            .collect();
        let r = match fit(&w, &FitOptions::default()) {
            Ok(r) => r,
            Err(e) => {
                println!(
                    "| {} | {} | refused: {e} | | | | | | |",
                    v.name,
                    low.join("; ")
                );
                continue;
            }
        };
        let lm = &r.landmarks;
        let crotch_y = lm.points["crotch"].position.y;
        let ankle = lm.points["ankle_l"].position;
        let (hip, knee) = (gt["thigh_l"].0, gt["calf_l"].0);
        // The pelvis section at the hip's height: the innermost loop round the centre.
        let pelvis = cut(crotch_y + HIP_Y * h)
            .into_iter()
            .filter(|l| l.lo.x < lm.center_x && l.hi.x > lm.center_x && l.perimeter > 0.05 * h)
            .min_by(|a, b| a.perimeter.total_cmp(&b.perimeter));
        let t = (knee.y - ankle.y) / (hip.y - ankle.y);
        let line = ankle + t * (hip - ankle);
        let mut row = vec![
            (crotch_y - floor) / h,
            f32::NAN,
            f32::NAN,
            t,
            (knee.z - line.z) / h,
        ];
        if let Some(p) = &pelvis {
            row[1] = (hip.x - lm.center_x) / (p.hi.x - lm.center_x);
            row[2] = (hip.z - p.center.z) / h;
        }
        for (k, x) in ["crotch", "hip_w", "hip_zp", "knee_t", "knee_fwd"]
            .iter()
            .zip(&row)
        {
            if x.is_finite() {
                sums.entry(k).or_default().push(*x);
            }
        }
        let e = acc::errors(&r.skeleton, &gt, h);
        let (legs, worst, wk) = acc::summary(&e, |k| LEGS.contains(&k));
        let (major, _, _) = acc::summary(&e, |k| acc::MAJOR.contains(&k));
        let rule = lm
            .notes
            .iter()
            .find(|n| n.starts_with("legs "))
            .map_or("", |n| n.split(':').next().unwrap_or(""));
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.4} | {:.3} | {:.4} | {legs:.2} / {worst:.2} ({wk}) | {major:.2} | {rule}",
            v.name,
            low.join("; "),
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
        );
        sums.entry("legs mean").or_default().push(legs);
        sums.entry("legs worst").or_default().push(worst);
    }
    println!();
    for (k, xs) in &sums {
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        let (lo, hi) = xs
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), x| {
                (a.min(*x), b.max(*x))
            });
        println!(
            "{k}: mean {mean:.4} (from {lo:.4} to {hi:.4}, {} variants)",
            xs.len()
        );
    }
}
