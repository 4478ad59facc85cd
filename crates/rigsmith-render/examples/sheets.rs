//! Writes the review sheets of the MakeHuman body, the rigged mannequin and the synthetic
//! figure to a folder.
//!
//! ```text
//! cargo run --release -p rigsmith-render --example sheets -- OUT_DIR
//! ```
//!
//! * `makehuman_placement.png`: the game_engine skeleton over the x-ray body.
//! * `makehuman_poses.png`: every pose of the default library, a row each (LBS).
//! * `makehuman_joints.png`: close-ups of the joints the rubric check flags.
//! * `makehuman_weights_lowerarm_l.png`: the artist weights of the left forearm.
//! * `mannequin_*.png`: the same sheets for the built-in mannequin rigged by rigsmith.
//! * `figure_*.png`: the same sheets for the synthetic figure of `rigsmith_render::demo`.
//!
//! The MakeHuman corpus is found through `$RIGSMITH_DATA` or `shared/data/mpfb2` beside
//! the checkout.

use std::path::{Path, PathBuf};

use rigsmith::io::mpfb2::{self, Corpus, CorpusOptions};
use rigsmith::review::{check, posed_character, CheckOptions, Skinning};
use rigsmith::Character;
use rigsmith_render::sheets::{JointItem, PoseRow};
use rigsmith_render::{demo, joint_sheet, placement_sheet, pose_sheet, weight_heatmap};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// All four sheets of a skinned character, named `{prefix}_*.png`; the heat map shows
/// the first of `weight_bones` the skeleton has.
fn sheets(c: &Character, out: &Path, prefix: &str, weight_bones: &[&str]) -> Res<()> {
    let s = c.skeleton.clone().ok_or("no skeleton")?;
    placement_sheet(c, &s, 1024).save_png(out.join(format!("{prefix}_placement.png")))?;

    let report = check(
        c,
        &CheckOptions {
            self_intersections: false,
            ..CheckOptions::default()
        },
    )?;
    let rows: Vec<PoseRow> = report
        .poses
        .iter()
        .map(|p| {
            let (pos, bones) = posed_character(c, p, Skinning::Lbs);
            (p.name.clone(), pos, bones)
        })
        .collect();
    pose_sheet(&rows, c, 768).save_png(out.join(format!("{prefix}_poses.png")))?;

    let items: Vec<JointItem> = report
        .flagged_joints
        .iter()
        .filter_map(|j| {
            let pose = report.poses.iter().find(|p| p.name == j.pose)?;
            let (pos, _) = posed_character(c, pose, Skinning::Lbs);
            Some((format!("{} {}", j.pose, j.joint), pos, j.centre, j.radius))
        })
        .collect();
    joint_sheet(&items, c, 768).save_png(out.join(format!("{prefix}_joints.png")))?;

    let (b, name) = weight_bones
        .iter()
        .find_map(|n| s.find(n).map(|b| (b, *n)))
        .ok_or_else(|| format!("none of the bones {weight_bones:?}"))?;
    weight_heatmap(c, b, 1024).save_png(out.join(format!("{prefix}_weights_{name}.png")))?;
    println!(
        "{prefix}: {} poses, {} flagged joints, {} failed checks",
        rows.len(),
        items.len(),
        report.checks.iter().filter(|k| !k.passed).count()
    );
    Ok(())
}

fn main() -> Res<()> {
    let out = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "sheets".into()));
    std::fs::create_dir_all(&out)?;
    let dir = mpfb2::data_dir().ok_or("the MakeHuman corpus is missing: set RIGSMITH_DATA")?;
    let body = Corpus::open(&dir)?.build(&CorpusOptions {
        parts: vec!["body".into(), "eyes".into()],
        ..CorpusOptions::default()
    })?;
    sheets(&body, &out, "makehuman", &["lowerarm_l"])?;

    // The built-in mannequin, rigged by rigsmith (fit, weights; review left to the sheets).
    let mannequin = rigsmith::mannequin::build(&rigsmith::mannequin::MannequinOptions::default());
    let rigged = rigsmith::pipeline::rig(
        &mannequin,
        &rigsmith::pipeline::RigOptions {
            review: false,
            ..Default::default()
        },
        &mut |_, _| {},
    )?;
    sheets(
        &rigged.character,
        &out,
        "mannequin",
        &["lowerarm_l", "forearm.L", "LeftForeArm"],
    )?;

    sheets(&demo::figure(16), &out, "figure", &["forearm.L"])?;
    println!("wrote the sheets to {}", out.display());
    Ok(())
}
