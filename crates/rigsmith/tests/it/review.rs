//! The rubric check: the MakeHuman `game_engine` body with artist weights as the clean
//! rig, and a deliberately broken twin for every check (positive controls).

#[path = "review/mh.rs"]
pub mod mh;

use rigsmith::review::{check, CheckOptions};

use crate::common::mpfb2_dir;

#[test]
fn explore_makehuman() {
    let c = mh::character(&mpfb2_dir(), "game_engine");
    let t = std::time::Instant::now();
    let r = check(&c, &CheckOptions::default()).unwrap();
    eprintln!("check took {:?}", t.elapsed());
    for k in &r.checks {
        eprintln!(
            "{} {} {:.4} {:.4} {:?} {}",
            if k.passed { "ok  " } else { "FAIL" },
            k.id,
            k.value,
            k.threshold,
            k.severity,
            k.detail
        );
    }
    eprintln!("{:#?}\n{}", r.not_verified, r.route);
}
