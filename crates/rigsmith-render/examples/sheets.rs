//! Writes the review sheets of a character to a folder.
//!
//! ```text
//! cargo run --release -p rigsmith-render --example sheets -- OUT_DIR
//! ```
//!
//! Draws the built-in synthetic figure: placement sheet, a pose sheet (rest and the
//! left arm lowered), a joint sheet (left elbow) and the weight heat map of the left
//! forearm.

use std::path::PathBuf;

use glam::{Quat, Vec3};
use rigsmith::Character;
use rigsmith_render::{demo, joint_sheet, placement_sheet, pose_sheet, weight_heatmap};

/// Rotates the vertices weighted to `bones` (by their summed weight, a crude linear
/// blend) about `pivot`: enough to show a pose without a skinning library.
fn pose(c: &Character, bones: &[usize], pivot: Vec3, rot: Quat) -> Vec<Vec<Vec3>> {
    c.parts
        .iter()
        .map(|p| {
            p.mesh
                .positions
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    let w: f32 = p.weights.as_ref().map_or(0.0, |w| {
                        w.vertices[i]
                            .iter()
                            .filter(|inf| bones.contains(&(inf.bone as usize)))
                            .map(|inf| inf.weight)
                            .sum()
                    });
                    let moved = pivot + rot * (x - pivot);
                    x + (moved - x) * w
                })
                .collect()
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "sheets".into()));
    std::fs::create_dir_all(&out)?;
    let c = demo::figure(16);
    let s = c.skeleton.clone().ok_or("no skeleton")?;
    placement_sheet(&c, &s, 1024).save_png(out.join("placement.png"))?;

    let rest: Vec<Vec<Vec3>> = c.parts.iter().map(|p| p.mesh.positions.clone()).collect();
    let rest_bones: Vec<(Vec3, Vec3)> = s.bones.iter().map(|b| (b.head, b.tail)).collect();
    let arm = [5usize, 6, 7];
    let shoulder = s.bones[5].head;
    let down = Quat::from_rotation_z(-1.0);
    let arm_down = pose(&c, &arm, shoulder, down);
    let arm_bones: Vec<(Vec3, Vec3)> = s
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if arm.contains(&i) {
                (
                    shoulder + down * (b.head - shoulder),
                    shoulder + down * (b.tail - shoulder),
                )
            } else {
                (b.head, b.tail)
            }
        })
        .collect();
    let elbow = s.bones[6].head;
    let bend = Quat::from_axis_angle(Vec3::Y, -2.0);
    let elbow_bent = pose(&c, &[6, 7], elbow, bend);
    let rows = vec![
        ("rest".to_string(), rest.clone(), rest_bones.clone()),
        ("arm_down.L".to_string(), arm_down, arm_bones),
    ];
    pose_sheet(&rows, &c, 1024).save_png(out.join("poses.png"))?;
    let items = vec![("elbow_120.L".to_string(), elbow_bent, elbow, 0.05f32)];
    joint_sheet(&items, &c, 1024).save_png(out.join("joints.png"))?;
    weight_heatmap(&c, 6, 1024).save_png(out.join("weights_forearm.L.png"))?;
    println!("wrote 4 sheets to {}", out.display());
    Ok(())
}
