//! Writing a review folder: the JSON report, the HTML report and the sheets
//! (placement, poses, flagged joints). Shared by `check` and `rig`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith::control::sweep::ControlSweep;
use rigsmith::control::ControlRig;
use rigsmith::model::Character;
use rigsmith::review::{self, CheckReport, Skinning};
use rigsmith_render::viewer::{viewer_section, Viewer, ViewerModel, ViewerMotion};
use rigsmith_render::Image;

use crate::util::Outputs;

/// Renders the three review sheets of a rigged character as `(name, image)`:
/// `placement`, `poses` and `joints`, posed through `control` when the file has a
/// control rig that fits its skeleton ([`rigsmith_render::review::review_sheets_with`]).
pub fn render_sheets(
    c: &Character,
    r: &CheckReport,
    skinning: Skinning,
    control: Option<&ControlRig>,
) -> Vec<(String, Image)> {
    rigsmith_render::review::review_sheets_with(c, r, skinning, control)
}

/// The face's sheets when `out` built a face: `face_placement` (a head close-up
/// with the face bones and the fitted points) and `face` (neutral, blink, aa and
/// happy from the front, the right and close on the eyes).
pub fn face_sheets(out: &rigsmith::RigOutput) -> Vec<(String, Image)> {
    let (Some(f), Some(s)) = (&out.face, out.character.skeleton.as_ref()) else {
        return Vec::new();
    };
    vec![
        (
            "face_placement".to_string(),
            rigsmith_render::face_placement_sheet(&out.character, s, &f.fit, 1024),
        ),
        (
            "face".to_string(),
            rigsmith_render::face_sheet(&out.character, &f.fit, 1536),
        ),
    ]
}

/// A mechanical character's own sheet (`mech`): a row per test pose
/// ([`rigsmith::mech::test_poses`]: each bone bent, each action at half and full
/// travel), LBS; empty without a mechanical spec (the sidecar's `mech`).
pub fn mech_sheet(c: &Character, mech: Option<&rigsmith::mech::MechSpec>) -> Vec<(String, Image)> {
    let (Some(spec), Some(s)) = (mech, &c.skeleton) else {
        return Vec::new();
    };
    let rows: Vec<rigsmith_render::sheets::PoseRow> = rigsmith::mech::test_poses(s, &spec.actions)
        .iter()
        .map(|p| {
            let (parts, bones) = review::posed_character(c, p, Skinning::Lbs);
            (p.name.clone(), parts, bones)
        })
        .collect();
    vec![(
        "mech".to_string(),
        rigsmith_render::pose_sheet(&rows, c, 384),
    )]
}

/// One weight heat map per deform bone that carries weight, named `weights_<bone>`
/// (bone names with `:` and `/` replaced by `_`).
pub fn render_heatmaps(c: &Character) -> Vec<(String, Image)> {
    let Some(s) = c.skeleton.as_ref() else {
        return Vec::new();
    };
    let mut used = vec![false; s.len()];
    for p in &c.parts {
        if let Some(w) = &p.weights {
            for i in w.vertices.iter().flatten() {
                if let Some(u) = used.get_mut(i.bone as usize) {
                    *u |= i.weight > 0.0;
                }
            }
        }
    }
    (0..s.len())
        .filter(|&b| used[b] && s.bones[b].deform)
        .map(|b| {
            let name = s.bones[b].name.replace([':', '/', '\\'], "_");
            (
                format!("weights_{name}"),
                rigsmith_render::weight_heatmap(c, b, 512),
            )
        })
        .collect()
}

/// The report's 3D viewer for `c` as the review `r` measured it (its poses, its failed
/// checks), labelled `label`; with `compare`, a second character `(label, character)`
/// beside it in the same pose and camera; `controls`: the control rig's sweeps.
pub fn viewer_html(
    c: &Character,
    r: &CheckReport,
    skinning: Skinning,
    label: &str,
    compare: Option<(&str, &Character)>,
    controls: &[ControlSweep],
) -> String {
    let other_poses = compare
        .and_then(|(_, b)| b.skeleton.as_ref())
        .map(|s| rigsmith::pose::default_library(s).0)
        .unwrap_or_default();
    viewer_section(&Viewer {
        model: ViewerModel {
            label: label.to_string(),
            character: c,
            poses: &r.poses,
            glb: None,
        },
        report: Some(r),
        skinning,
        compare: compare.map(|(l, b)| ViewerModel {
            label: l.to_string(),
            character: b,
            poses: &other_poses,
            glb: None,
        }),
        motion: None,
        controls,
    })
}

/// The sweeps the viewer gives sliders for `rig` on `c`'s skeleton (none without
/// either). A rig the evaluator refuses gives none: the rubric's control checks say why.
pub fn control_sweeps(
    c: &Character,
    rig: Option<&rigsmith::control::ControlRig>,
) -> Vec<ControlSweep> {
    match (rig, c.skeleton.as_ref()) {
        (Some(rig), Some(s)) => rigsmith::control::sweep::sweeps(rig, s).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Seconds of walk the rig report's viewer plays on the chains.
pub const REPORT_WALK_SECONDS: f32 = 3.0;

/// The rig report's viewer: as [`viewer_html`], and when the sidecar has chains, the
/// walk `simulate` computes on them (rigsmith's spring model, [`REPORT_WALK_SECONDS`]
/// at 30 frames a second) to play with the chains swinging. A simulation that fails
/// leaves the viewer without the motion and says why in the returned note. `glb`: the
/// rigged file's bytes, which the page carries and builds its geometry from.
pub fn rig_viewer_html(
    c: &Character,
    r: &CheckReport,
    label: &str,
    sidecar: &rigsmith::parts::Sidecar,
    glb: Option<&[u8]>,
) -> (String, Option<String>) {
    use rigsmith::parts::{simulate_frames, Motion, SpringModel, STEPS_PER_SECOND};
    let mut note = None;
    let frames = if sidecar.chains.is_empty() {
        Vec::new()
    } else {
        let every = ((STEPS_PER_SECOND / 30.0).round() as usize).max(1);
        match simulate_frames(
            c,
            sidecar,
            Motion::Walk,
            SpringModel::Fitted,
            REPORT_WALK_SECONDS,
            every,
        ) {
            Ok((_, f)) => f,
            Err(e) => {
                note = Some(format!("the viewer plays no walk: {e}"));
                Vec::new()
            }
        }
    };
    let controls = control_sweeps(c, sidecar.control.as_ref());
    let html = viewer_section(&Viewer {
        model: ViewerModel {
            label: label.to_string(),
            character: c,
            poses: &r.poses,
            glb,
        },
        report: Some(r),
        skinning: Skinning::Lbs,
        compare: None,
        motion: (!frames.is_empty()).then(|| ViewerMotion {
            label: "walk".to_string(),
            frames: &frames,
        }),
        controls: &controls,
    });
    (html, note)
}

/// A page holding only the viewer playing `frames` (a motion `simulate` computed) on
/// `c`, titled `title`.
pub fn motion_page(
    c: &Character,
    title: &str,
    label: &str,
    frames: &[rigsmith::parts::SimFrame],
) -> String {
    rigsmith_render::viewer::viewer_page(
        title,
        &Viewer {
            model: ViewerModel {
                label: title.to_string(),
                character: c,
                poses: &[],
                glb: None,
            },
            report: None,
            skinning: Skinning::Lbs,
            compare: None,
            motion: Some(ViewerMotion {
                label: label.to_string(),
                frames,
            }),
            controls: &[],
        },
    )
}

/// What a report folder holds besides the check report (see [`write_review_dir`]).
pub struct ReviewExtras<'a> {
    /// Fields merged into `report.json`.
    pub extra: Option<serde_json::Value>,
    /// The report page: title, changes, the viewer when already made.
    pub page: &'a review::Page,
    /// The skinning the sheets and the viewer show.
    pub skinning: Skinning,
    /// More `(name, image)` sheets to write and embed.
    pub extra_sheets: Vec<(String, Image)>,
    /// The file's control rig: the sheets pose the character through it.
    pub control: Option<&'a ControlRig>,
    /// Parts the sheets do not draw: helper shapes left out of the figure
    /// ([`rigsmith::pipeline::unskinned_helpers`]; Blender's 2 m bone-display
    /// ball around the feet hid the legs and set the framing).
    pub hidden: &'a [String],
}

/// `c` with the parts named in `hidden` emptied (no vertices, no triangles), in place,
/// so every other part keeps its index.
fn without_parts(c: &Character, hidden: &[String]) -> Character {
    let mut shown = c.clone();
    for p in shown.parts.iter_mut().filter(|p| hidden.contains(&p.name)) {
        p.mesh = rigsmith::Mesh::default();
        p.weights = p
            .weights
            .as_ref()
            .map(|_| rigsmith::model::Weights::default());
        p.morphs.clear();
    }
    shown
}

/// Writes `report.json` (the check report merged with `extra` fields), `report.html`
/// (led by `page`; with the 3D viewer of `c` unless `page.viewer` already holds one)
/// and the sheets into `dir`, each through `out` (checked, atomic).
/// Returns the files written.
pub fn write_review_dir(
    out: &Outputs,
    dir: &Path,
    c: &Character,
    r: &CheckReport,
    more: ReviewExtras<'_>,
) -> anyhow::Result<Vec<PathBuf>> {
    let ReviewExtras {
        extra,
        page,
        skinning,
        extra_sheets,
        control,
        hidden,
    } = more;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("{}: cannot create folder", dir.display()))?;
    let mut imgs = if hidden.is_empty() {
        render_sheets(c, r, skinning, control)
    } else {
        render_sheets(&without_parts(c, hidden), r, skinning, control)
    };
    imgs.extend(extra_sheets);
    let sheets: Vec<(String, Vec<u8>)> = imgs
        .into_iter()
        .map(|(n, img)| (n, img.to_png_bytes()))
        .collect();
    let mut written = Vec::new();
    for (name, png) in &sheets {
        let p = dir.join(format!("{name}.png"));
        out.write(&p, png)?;
        written.push(p);
    }
    let mut json = serde_json::to_value(r)?;
    if let (Some(serde_json::Value::Object(extra)), Some(obj)) = (extra, json.as_object_mut()) {
        for (k, v) in extra {
            obj.insert(k, v);
        }
    }
    let p = dir.join("report.json");
    out.write(&p, (serde_json::to_string_pretty(&json)? + "\n").as_bytes())?;
    written.push(p);
    let p = dir.join("report.html");
    let mut page = page.clone();
    if page.viewer.is_empty() {
        let label = page
            .title
            .rsplit(": ")
            .next()
            .filter(|l| !l.is_empty())
            .unwrap_or("character")
            .to_string();
        page.viewer = viewer_html(c, r, skinning, &label, None, &[]);
    }
    out.write(&p, review::html_page(r, &sheets, &page).as_bytes())?;
    written.push(p);
    Ok(written)
}

#[cfg(test)]
mod hidden_tests {
    use super::*;

    #[test]
    fn hidden_parts_are_emptied_in_place() {
        let part = |name: &str| rigsmith::Part {
            name: name.into(),
            mesh: rigsmith::Mesh {
                positions: vec![glam::Vec3::ZERO, glam::Vec3::X, glam::Vec3::Y],
                triangles: vec![[0, 1, 2]],
                ..Default::default()
            },
            ..Default::default()
        };
        let c = Character {
            parts: vec![part("Body"), part("Icosphere"), part("Head")],
            ..Default::default()
        };
        let shown = without_parts(&c, &["Icosphere".to_string()]);
        let names: Vec<&str> = shown.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Body", "Icosphere", "Head"]);
        assert!(
            shown.parts[1].mesh.positions.is_empty() && shown.parts[1].mesh.triangles.is_empty()
        );
        assert_eq!(shown.parts[0].mesh, c.parts[0].mesh);
        assert_eq!(shown.parts[2].mesh, c.parts[2].mesh);
    }
}
