//! Prints, for a rig built here, every failed deformation check with the fixes on and
//! the per-band ratios of the joints in their test poses with and without the fixes.
//!
//! ```text
//! cargo run --release --example deform_diag            # the mannequin
//! cargo run --release --example deform_diag -- rig.glb # any humanoid GLB (re-rigged)
//! ```

#[path = "deform_support/rigged.rs"]
mod rigged;

use glam::Vec3;
use rigsmith::review::volume::{flesh, joints, polyline, BANDS};
use rigsmith::review::{check, CheckOptions, Runtime, Skinning};

fn main() -> rigsmith::Result<()> {
    let (out, secs) = rigged::rig_input()?;
    eprintln!("rig {secs:.2}s");
    // The knobs from the environment (the shipped defaults otherwise).
    let env = |k: &str, d: f32| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse::<f32>().ok())
            .unwrap_or(d)
    };
    let md = rigsmith::deform::dqs_mask::MaskOptions::default();
    let mo = rigsmith::deform::dqs_mask::MaskOptions {
        threshold_h: env("MASK_H", md.threshold_h),
        radius: env("MASK_RADIUS", md.radius),
        smooth_passes: env("MASK_PASSES", md.smooth_passes as f32) as usize,
    };
    let bd = rigsmith::review::correctives::CorrectiveOptions::default();
    let bo = rigsmith::review::correctives::CorrectiveOptions {
        relax_passes: env("CS_RELAX", bd.relax_passes as f32) as usize,
        rest_relax_passes: env("CS_REST_RELAX", bd.rest_relax_passes as f32) as usize,
        passes: env("CS_PASSES", bd.passes as f32) as usize,
        reach: env("CS_REACH", bd.reach),
        flat: env("CS_FLAT", bd.flat),
        max_push: env("CS_PUSH", bd.max_push),
        edge_strain: env("CS_STRAIN", bd.edge_strain),
        elbow_relax_passes: env("CS_ELBOW_RELAX", bd.elbow_relax_passes as f32) as usize,
        elbow_passes: env("CS_ELBOW_PASSES", bd.elbow_passes as f32) as usize,
        coarse: env("CS_COARSE", 1.0) > 0.5,
    };
    println!("{mo:?} {bo:?}");
    let mut ch = out.character.clone();
    let rigid: Vec<bool> = out
        .part_roles
        .iter()
        .map(|(_, r)| r.starts_with("rigid"))
        .collect();
    let t = std::time::Instant::now();
    let masks = rigsmith::deform::dqs_mask::character_masks_with(&ch, &rigid, &mo);
    for p in &mut ch.parts {
        p.morphs.retain(|m| !m.name.starts_with("CS_"));
    }
    let built = rigsmith::review::correctives::build_correctives_with(&ch, &masks, &bo);
    eprintln!("mask and correctives {:.2}s", t.elapsed().as_secs_f32());
    for (i, mt) in built.morphs {
        ch.parts[i].morphs.push(mt);
    }
    for n in &built.notes {
        println!("note: {n}");
    }
    let c = &ch;
    let rt = Runtime {
        dqs_masks: masks,
        correctives: built.correctives,
    };
    let r = check(
        c,
        &CheckOptions {
            self_intersections: false,
            dqs_blend: true,
            dqs_masks: rt.dqs_masks.clone(),
            correctives: rt.correctives.clone(),
            ..Default::default()
        },
    )?;
    let mut line = String::from("joints:");
    let mut smooth = 0.0f64;
    for k in &r.checks {
        if !k.passed && k.severity != rigsmith::Severity::Minor {
            println!("FAIL {} = {:.3} ({})", k.id, k.value, k.detail);
        }
        if k.id.ends_with(".band") || k.id.ends_with(".bulge") {
            let short = k.id.replace("deform.", "");
            line += &format!(" {short}={:.3}{}", k.value, if k.passed { "" } else { "!" });
        }
        if k.id.starts_with("correctives.") && k.id.ends_with(".smooth") {
            smooth = smooth.max(k.value);
        }
    }
    println!("{line}");
    println!(
        "majors {} largest corrective strain {smooth:.3}",
        r.counts.major
    );
    let (view, _) = rigsmith::review::rubric::skin_view(c)?;
    let s = view.skeleton.as_ref().unwrap();
    let rig = rigsmith::humanoid::Roles::of(s, None);
    let js = joints(s, &rig);
    let body = &view.parts[0];
    let none = Runtime::default();
    for np in &r.poses {
        let Some(t) = np.tests.first() else { continue };
        if !np.name.ends_with(".L") {
            continue;
        }
        let Some(j) = js.iter().find(|j| j.name == t.joint) else {
            continue;
        };
        let Some(fl) = flesh(j, &body.mesh.positions)
            .and_then(|f| rigsmith::review::volume::carried(f, s, body.weights.as_ref().unwrap()))
        else {
            continue;
        };
        let m = rigsmith::pose::posed_matrices(s, &np.pose);
        for (tag, run) in [("plain", &none), ("fixed", &rt)] {
            let posed = rigsmith::review::posed_runtime(&view, np, Skinning::Lbs, run);
            let (mut num, mut den, mut cnt) = ([0f64; BANDS], [0f64; BANDS], [0usize; BANDS]);
            for &(v, b) in &fl.vertices {
                let dr = polyline(body.mesh.positions[v as usize], j.posed(&[])).0 as f64;
                let dp = polyline(posed[0][v as usize], j.posed(&m)).0 as f64;
                num[b as usize] += dp * dp;
                den[b as usize] += dr * dr;
                cnt[b as usize] += 1;
            }
            let bands: Vec<String> = (0..BANDS)
                .map(|b| format!("{:.2}({})", num[b] / den[b].max(1e-12), cnt[b]))
                .collect();
            if tag == "fixed" {
                let vm = rigsmith::review::runtime_masks::masks_on_view(c, &view, &rt.dqs_masks);
                let d = vm
                    .get(&body.name)
                    .map(|sp| rigsmith::deform::dqs_mask::dense(sp, body.mesh.positions.len()))
                    .unwrap_or_default();
                let mut ms = [0f32; BANDS];
                for &(v, b) in &fl.vertices {
                    ms[b as usize] += d.get(v as usize).copied().unwrap_or(0.0);
                }
                let ms: Vec<String> = (0..BANDS)
                    .map(|b| format!("{:.2}", ms[b] / cnt[b].max(1) as f32))
                    .collect();
                println!("{} {} mask: {}", np.name, t.joint, ms.join(" "));
            }
            println!("{} {} {tag}: {}", np.name, t.joint, bands.join(" "));
            if tag == "plain" && std::env::var("BONES").is_ok() {
                // Per band: the heaviest bones of its vertices, and their mean d ratio.
                let w = body.weights.as_ref().unwrap();
                for band in 0..BANDS as u8 {
                    let mut by: std::collections::BTreeMap<String, (usize, f64, f64)> =
                        Default::default();
                    for &(v, b) in &fl.vertices {
                        if b != band {
                            continue;
                        }
                        let top = w.vertices[v as usize]
                            .iter()
                            .max_by(|a, b| a.weight.total_cmp(&b.weight))
                            .map_or("-".to_string(), |i| s.bones[i.bone as usize].name.clone());
                        let dr = polyline(body.mesh.positions[v as usize], j.posed(&[])).0 as f64;
                        let dp = polyline(posed[0][v as usize], j.posed(&m)).0 as f64;
                        let e = by.entry(top).or_default();
                        e.0 += 1;
                        e.1 += dr * dr;
                        e.2 += dp * dp;
                    }
                    let txt: Vec<String> = by
                        .iter()
                        .map(|(k, (n, r, p))| format!("{k}:{n}@{:.2}", p / r.max(1e-12)))
                        .collect();
                    println!("   band {band}: {}", txt.join(" "));
                }
            }
        }
    }
    // The garments newly inside the body, pose by pose.
    let mask_of = |name: &str, n: usize| {
        rt.dqs_masks
            .get(name)
            .map(|sp| rigsmith::deform::dqs_mask::dense(sp, n))
            .unwrap_or_else(|| vec![0.0; n])
    };
    let bm = mask_of(&body.name, body.mesh.positions.len());
    let masked = bm.iter().filter(|&&b| b > 0.0).count();
    println!("body mask: {masked} of {} vertices", bm.len());
    for np in &r.poses {
        if !np.name.starts_with("arm_down") {
            continue;
        }
        let posed = rigsmith::review::posed_runtime(&view, np, Skinning::Lbs, &rt);
        let pb = rigsmith::geom::bvh::Bvh::build(&posed[0], &body.mesh.triangles);
        let rb = rigsmith::geom::bvh::Bvh::build(&body.mesh.positions, &body.mesh.triangles);
        for (k, p) in view.parts.iter().enumerate().skip(1) {
            if p.weights.is_none() {
                continue;
            }
            let mut inside = Vec::new();
            for (v, q) in posed[k].iter().enumerate() {
                if !rb.contains(p.mesh.positions[v]) && pb.contains(*q) {
                    inside.push(v);
                }
            }
            if inside.is_empty() {
                continue;
            }
            let moved: Vec<usize> = p
                .morphs
                .iter()
                .filter(|mt| mt.name.starts_with("CS_arm_down"))
                .flat_map(|mt| {
                    mt.position_deltas
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| **d != Vec3::ZERO)
                        .map(|(v, _)| v)
                })
                .collect();
            let with_offset = inside.iter().filter(|v| moved.contains(v)).count();
            let depth: Vec<f32> = inside
                .iter()
                .map(|&v| pb.closest(posed[k][v]).map_or(0.0, |cl| cl.dist2.sqrt()))
                .collect();
            let mean = depth.iter().sum::<f32>() / depth.len() as f32;
            let max = depth.iter().copied().fold(0.0, f32::max);
            let lo = inside
                .iter()
                .map(|&v| p.mesh.positions[v])
                .fold(Vec3::splat(9.0), Vec3::min);
            let hi = inside
                .iter()
                .map(|&v| p.mesh.positions[v])
                .fold(Vec3::splat(-9.0), Vec3::max);
            println!(
                "{} {}: {} of {} inside ({} with a CS_arm_down offset), depth mean {:.4} max {:.4} m, rest box {lo:.3} .. {hi:.3}",
                np.name,
                p.name,
                inside.len(),
                p.mesh.positions.len(),
                with_offset,
                mean,
                max
            );
        }
    }
    Ok(())
}
