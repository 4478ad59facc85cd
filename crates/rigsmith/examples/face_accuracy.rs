//! Face fitting accuracy against the MakeHuman artist rigs.
//!
//! For each named MakeHuman body variant, fits the landmarks and the face
//! ([`rigsmith::face::fit_face`]) to the unrigged body (with its eye parts, and again
//! without them: eyes from the sockets) and compares:
//!
//! * the jaw pivot and the eye centres with the `default` rig's `jaw` and `eye.L`
//!   heads;
//! * the lid margins with the Rigify `human` rig's middle lid points (the tail of
//!   `lid.T.L.001` for the upper lid, of `lid.B.L.001` for the lower).
//!
//! Errors are printed in % of body height H as a Markdown table.
//!
//! ```text
//! cargo run --release --example face_accuracy [-- CORPUS_DIR]
//! ```

#[path = "face_support/mh.rs"]
mod mh;

use rigsmith::face::{fit_face, FaceMode};
use rigsmith::fit::{find_landmarks, LandmarkOptions};
use rigsmith::io::mpfb2::VARIANTS;

fn main() {
    let corpus = mh::open_corpus();
    println!("| variant | eyes from | jaw pivot | eye centre | upper lid | lower lid | worst |");
    println!("|---|---|---|---|---|---|---|");
    let mut worst_all = 0.0f32;
    for v in VARIANTS {
        let pos = corpus.shape_obj(Some(v.name), &[]).expect("shape");
        let def = corpus.skeleton("default", &pos).expect("default rig");
        let hum = corpus.skeleton("human", &pos).expect("human rig");
        let b = |s: &rigsmith::Skeleton, n: &str| s.bones[s.find(n).expect(n)].clone();
        for parts in [vec!["body", "eyes"], vec!["body"]] {
            let c = mh::unrigged(&corpus, v.name, &parts);
            let lm = find_landmarks(&c, &LandmarkOptions::default()).expect("landmarks");
            let h = lm.height;
            let body = c.body().expect("body");
            let f = fit_face(&c, &body.mesh, &lm, FaceMode::Basic);
            let e = |a: glam::Vec3, b: glam::Vec3| 100.0 * (a - b).length() / h;
            let jaw = f.mouth.map(|m| e(m.pivot, b(&def, "jaw").head));
            let eyes = f.eyes.map(|ey| {
                (
                    e(ey[0].centre, b(&def, "eye.L").head),
                    e(ey[0].upper, b(&hum, "lid.T.L.001").tail),
                    e(ey[0].lower, b(&hum, "lid.B.L.001").tail),
                )
            });
            let fmt = |x: Option<f32>| x.map_or("-".to_string(), |x| format!("{x:.2}"));
            let worst = [jaw, eyes.map(|e| e.0), eyes.map(|e| e.1), eyes.map(|e| e.2)]
                .into_iter()
                .flatten()
                .fold(0.0f32, f32::max);
            worst_all = worst_all.max(worst);
            println!(
                "| {} | {} | {} | {} | {} | {} | {:.2} |",
                v.name,
                if parts.len() == 2 {
                    "eye parts"
                } else {
                    "sockets"
                },
                fmt(jaw),
                fmt(eyes.map(|e| e.0)),
                fmt(eyes.map(|e| e.1)),
                fmt(eyes.map(|e| e.2)),
                worst
            );
            if std::env::var_os("FACE_CALIBRATE").is_some() {
                eprintln!("{}: {:?}", v.name, f.notes);
                if let Some(ey) = f.eyes {
                    eprintln!(
                        "  eye {:?} r {:.4} up {:?} gt {:?} low {:?} gt {:?}",
                        ey[0].centre,
                        ey[0].radius,
                        ey[0].upper,
                        b(&hum, "lid.T.L.001").tail,
                        ey[0].lower,
                        b(&hum, "lid.B.L.001").tail
                    );
                }
                if let (Some(m), Some(ey)) = (f.mouth, f.eyes) {
                    let gt = b(&def, "jaw").head;
                    let up = (gt.y - m.line_y) / (ey[0].centre.y - m.line_y);
                    let back = (m.pivot.z
                        - rigsmith::face::fit::JAW_PIVOT_DEPTH * m.upper_lip.z.max(m.lower_lip.z))
                        / (1.0 - rigsmith::face::fit::JAW_PIVOT_DEPTH);
                    let depth = (gt.z - back) / (m.upper_lip.z.max(m.lower_lip.z) - back);
                    let ch = (gt.y - m.chin.y) / (ey[0].centre.y - m.chin.y);
                    eprintln!(
                        "{}: up {up:.3} chin-eye {ch:.3} depth {depth:.3} line {:.4} lips {:.4} {:.4} pivot {:?} gt {:?} crease {:.4}",
                        v.name, m.line_y, m.upper_lip.y, m.lower_lip.y, m.pivot, gt, m.crease
                    );
                }
            }
        }
    }
    println!();
    println!("worst: {worst_all:.2}% H");
}
