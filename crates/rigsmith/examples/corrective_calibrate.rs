//! Sweeps the knobs of the corrective builder
//! ([`rigsmith::review::correctives::CorrectiveOptions`]) on a rig and prints, for each
//! setting, the joint bands and bulges the review measures with the correctives and
//! the preserve-volume mask played, and the correctives' smoothness (largest posed
//! edge change). The shipped defaults come from this sweep.
//!
//! ```text
//! cargo run --release --example corrective_calibrate            # the mannequin
//! cargo run --release --example corrective_calibrate -- rig.glb # any humanoid GLB
//! ```

#[path = "deform_support/rigged.rs"]
mod rigged;

use rigsmith::review::correctives::{build_correctives_with, CorrectiveOptions};
use rigsmith::review::{check, CheckOptions};

fn main() -> rigsmith::Result<()> {
    let (out, _) = rigged::rig_input()?;
    let masks = out.sidecar.dqs_blend.clone();
    let d = CorrectiveOptions::default();
    let mut settings = vec![d];
    for passes in [1, 2, 3] {
        for flat in [0.0, 0.35, 0.6] {
            for rest_relax in [6, 12] {
                settings.push(CorrectiveOptions {
                    passes,
                    flat,
                    rest_relax_passes: rest_relax,
                    ..d
                });
            }
        }
    }
    for bo in settings {
        let mut c = out.character.clone();
        for p in &mut c.parts {
            p.morphs.retain(|m| !m.name.starts_with("CS_"));
        }
        let built = build_correctives_with(&c, &masks, &bo);
        for (i, mt) in built.morphs {
            c.parts[i].morphs.push(mt);
        }
        let r = check(
            &c,
            &CheckOptions {
                self_intersections: false,
                dqs_blend: true,
                dqs_masks: masks.clone(),
                correctives: built.correctives.clone(),
                ..Default::default()
            },
        )?;
        let mut line = format!(
            "passes {} flat {:.2} rest_relax {}:",
            bo.passes, bo.flat, bo.rest_relax_passes
        );
        for k in &r.checks {
            let joint = k.id.ends_with(".L.band") || k.id.ends_with(".L.bulge");
            if joint || (k.id.starts_with("correctives.") && k.id.ends_with("_l.smooth")) {
                let short = k.id.replace("deform.", "").replace("correctives.", "");
                line += &format!(" {short}={:.3}{}", k.value, if k.passed { "" } else { "!" });
            }
        }
        println!("{line}");
    }
    Ok(())
}
