//! Writing a review folder: the JSON report, the HTML report and the sheets
//! (placement, poses, flagged joints). Shared by `check` and `rig`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith::model::Character;
use rigsmith::review::{self, CheckReport, Skinning};

/// Edge of one sheet panel in pixels.
pub const SHEET_SIZE: u32 = 384;

/// Renders the three review sheets of a rigged character: `(file name, PNG bytes)`.
pub fn render_sheets(c: &Character, r: &CheckReport) -> Vec<(String, Vec<u8>)> {
    let Some(s) = &c.skeleton else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let placement = rigsmith_render::placement_sheet(c, s, SHEET_SIZE);
    out.push(("placement.png".to_string(), placement.to_png_bytes()));
    let rows: Vec<(String, Vec<Vec<glam::Vec3>>, Vec<(glam::Vec3, glam::Vec3)>)> = r
        .poses
        .iter()
        .map(|p| {
            let (parts, bones) = review::posed_character(c, p, Skinning::Lbs);
            (p.name.clone(), parts, bones)
        })
        .collect();
    if !rows.is_empty() {
        out.push((
            "poses.png".to_string(),
            rigsmith_render::pose_sheet(&rows, c, SHEET_SIZE).to_png_bytes(),
        ));
    }
    let items: Vec<(String, Vec<Vec<glam::Vec3>>, glam::Vec3, f32)> = r
        .flagged_joints
        .iter()
        .filter_map(|f| {
            let pose = r.poses.iter().find(|p| p.name == f.pose)?;
            let (parts, _) = review::posed_character(c, pose, Skinning::Lbs);
            Some((format!("{} {}", f.pose, f.joint), parts, f.centre, f.radius))
        })
        .collect();
    if !items.is_empty() {
        out.push((
            "joints.png".to_string(),
            rigsmith_render::joint_sheet(&items, c, SHEET_SIZE).to_png_bytes(),
        ));
    }
    out
}

/// Writes `report.json` (the check report merged with `extra` fields), `report.html`
/// and the sheets into `dir` (created), atomically each. Returns the files written.
pub fn write_review_dir(
    dir: &Path,
    c: &Character,
    r: &CheckReport,
    extra: Option<serde_json::Value>,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    let sheets = render_sheets(c, r);
    let mut written = Vec::new();
    for (name, png) in &sheets {
        let p = dir.join(name);
        rigsmith::io::atomic::write_atomic(&p, png)?;
        written.push(p);
    }
    let mut json = serde_json::to_value(r)?;
    if let (Some(serde_json::Value::Object(extra)), Some(obj)) = (extra, json.as_object_mut()) {
        for (k, v) in extra {
            obj.insert(k, v);
        }
    }
    let p = dir.join("report.json");
    rigsmith::io::atomic::write_atomic(
        &p,
        (serde_json::to_string_pretty(&json)? + "\n").as_bytes(),
    )?;
    written.push(p);
    let p = dir.join("report.html");
    rigsmith::io::atomic::write_atomic(&p, review::html_report(r, &sheets).as_bytes())?;
    written.push(p);
    Ok(written)
}
