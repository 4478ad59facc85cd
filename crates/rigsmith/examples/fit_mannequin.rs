//! Fits the built-in mannequin (T and A pose, head scale 1.0 and 1.5; A pose at 10, 30
//! and 60 deg) and prints the joint errors against the joints the generator used, in %
//! of height, and the placement checks that failed.
//!
//! ```text
//! cargo run --release --example fit_mannequin
//! ```

use rigsmith::fit::{fit, FitOptions};
use rigsmith::mannequin::{build, reference_joints, ArmPose, MannequinOptions};

/// Mannequin joint name -> the `game` bone whose head sits there.
pub const JOINTS: &[(&str, &str)] = &[
    ("pelvis", "pelvis"),
    ("spine_01", "spine_01"),
    ("spine_02", "spine_02"),
    ("spine_03", "spine_03"),
    ("neck_01", "neck_01"),
    ("head", "head"),
    ("clavicle_l", "clavicle_l"),
    ("upperarm_l", "upperarm_l"),
    ("lowerarm_l", "lowerarm_l"),
    ("hand_l", "hand_l"),
    ("thigh_l", "thigh_l"),
    ("calf_l", "calf_l"),
    ("foot_l", "foot_l"),
    ("ball_l", "ball_l"),
];

/// The four mannequins of the done-when list, then the A pose at 10, 30 and 60 deg.
pub fn cases() -> Vec<(String, MannequinOptions)> {
    let mut v = Vec::new();
    for (pn, pose) in [("T", ArmPose::T), ("A", ArmPose::A)] {
        for hs in [1.0f32, 1.5] {
            let o = MannequinOptions {
                pose,
                head_scale: hs,
                ..Default::default()
            };
            v.push((format!("{pn} pose, head x{hs}"), o));
        }
    }
    for arm in [10.0f32, 30.0, 60.0] {
        let o = MannequinOptions {
            pose: ArmPose::A,
            arm_angle_deg: arm,
            ..Default::default()
        };
        v.push((format!("A pose {arm} deg, head x1"), o));
    }
    v
}

fn main() {
    println!("| mannequin | mean % H | worst % H (joint) | failed checks |");
    println!("|---|---|---|---|");
    for (name, o) in cases() {
        let c = build(&o);
        let reference = reference_joints(&o);
        let h = o.height;
        match fit(&c, &FitOptions::default()) {
            Err(e) => println!("| {name} | fit failed: {e} | | |"),
            Ok(r) => {
                let mut errs = Vec::new();
                for (j, b) in JOINTS {
                    let Some((_, p)) = reference.iter().find(|(n, _)| n == j) else {
                        continue;
                    };
                    let s = &r.skeleton;
                    let Some(i) = s.find(b) else { continue };
                    errs.push((*b, 100.0 * (s.bones[i].head - *p).length() / h));
                }
                let mean = errs.iter().map(|e| e.1).sum::<f32>() / errs.len().max(1) as f32;
                let worst = errs
                    .iter()
                    .cloned()
                    .fold(("", 0.0f32), |a, b| if b.1 > a.1 { b } else { a });
                let failed: Vec<String> = r
                    .checks
                    .iter()
                    .filter(|k| !k.passed)
                    .map(|k| format!("{} ({:.2}: {})", k.id, k.value, k.detail))
                    .collect();
                println!(
                    "| {name} | {mean:.2} | {:.2} ({}) | {} |",
                    worst.1,
                    worst.0,
                    failed.join(", ")
                );
                if std::env::var_os("VERBOSE").is_some() {
                    for (b, e) in &errs {
                        let s = &r.skeleton;
                        let fitted = s.find(b).map(|i| s.bones[i].head / h);
                        let want = reference.iter().find(|(n, _)| n == b).map(|(_, p)| *p / h);
                        println!("|   {b} | {e:.2} | fitted {fitted:.3?} | reference {want:.3?} |");
                    }
                }
            }
        }
    }
}
