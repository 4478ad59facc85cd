//! Face key combinations on every named MakeHuman variant: new self-intersections of
//! the face under two keys together.
//!
//! Each variant is rigged with `--face basic` ([`rigsmith::rig`], no review) twice:
//! without expression units (procedural `blink + aa`) and with the caucasian units
//! (`happy + aa`, `blink + relaxed`). The `face.combinations` check counts triangle
//! pairs of the skin that intersect under both keys at 1 but not at rest nor under
//! either key alone; this prints them per combination as a Markdown table, with the
//! pairs already intersecting at rest for scale, and what easing the keys took
//! (`rigsmith::face::combine`: the report's `eased` lines).
//!
//! ```text
//! cargo run --release --example face_combinations [-- CORPUS_DIR]
//! ```

#[path = "face_support/mh.rs"]
mod mh;

use rigsmith::face::{FaceMode, FaceOptions};
use rigsmith::io::mpfb2::VARIANTS;
use rigsmith::RigOptions;

fn main() {
    let corpus = mh::open_corpus();
    println!("| variant | keys | new self-intersections | passes | eased |");
    println!("|---|---|---|---|---|");
    let mut total = 0.0f64;
    for v in VARIANTS {
        for units in [false, true] {
            let parts = ["body", "eyes", "eyelashes", "teeth", "tongue"];
            let mut c = mh::unrigged(&corpus, v.name, &parts);
            if units {
                corpus
                    .add_expression_units(&mut c, "caucasian", 1.0)
                    .expect("units");
            }
            let o = RigOptions {
                review: false,
                face: FaceOptions {
                    mode: FaceMode::Basic,
                    recipes: None,
                },
                ..RigOptions::default()
            };
            let out = rigsmith::rig(&c, &o, &mut |_, _| {}).expect("rig");
            let f = out.face.expect("face");
            let k = f.checks.iter().find(|c| c.id == "face.combinations");
            let (detail, value, passed) = k.map_or(("-".to_string(), 0.0, true), |k| {
                (k.detail.clone(), k.value, k.passed)
            });
            total += value;
            let eased: Vec<&str> = f
                .notes
                .iter()
                .filter(|n| n.contains(" eased "))
                .map(|n| n.trim_start_matches("face: "))
                .collect();
            println!(
                "| {} | {} | {} | {} | {} |",
                v.name,
                if units { "units" } else { "procedural" },
                detail,
                if passed { "yes" } else { "no" },
                if eased.is_empty() {
                    "-".to_string()
                } else {
                    eased.join("; ")
                }
            );
        }
    }
    println!();
    println!("total new self-intersecting pairs: {total}");
}
