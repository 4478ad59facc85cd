//! `rigsmith simulate FILE --motion walk|run|jump|spin [--animation NAME|INDEX]
//! [--seconds S] [--json] [--report DIR]`: drives the body procedurally (or with one
//! of the file's glTF animations, looped), runs the spring bones (VRM 1.0 model plus skirt links) and
//! reports the skirt's worst entry into the body (beyond its rest depth, against the
//! colliders at their measured size) and its worst depth in the solver's colliders,
//! skirt joints between the legs, hair in the head and stability. Exit 0 when it passes
//! (body entry under 5 mm at 1.7 m, no
//! joint between the legs, no hair in the head, stable), 1 when not, 2 on bad input.
//! The character is prepared as `rigsmith vrm` does (an unrigged one is rigged first;
//! a `FILE.rig.json` beside it is used). `--report DIR` writes `motion.png` (the
//! picture of the motion) and `simulate.json` into DIR (the older `--sheet PNG` still
//! writes the picture alone).

use std::path::PathBuf;

use anyhow::Context;
use glam::{Mat4, Vec3};
use rigsmith::parts::{
    simulate_driven, simulate_frames, simulate_model, ColliderShape, Motion, Sidecar, SimFrame,
    SimReport, SpringModel, STEPS_PER_SECOND,
};
use rigsmith::Character;
use rigsmith_render::{
    lines, render, sheet::Sheet, BoneStyle, Camera, DrawPart, Image, RenderOptions, View,
};

use crate::util::{BadInput, Ctx, Outcome, Outputs};

/// A motion to drive the body with.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum MotionArg {
    /// Standing still.
    Rest,
    /// A walk.
    Walk,
    /// A run.
    Run,
    /// Repeated jumps.
    Jump,
    /// A spin about the vertical.
    Spin,
    /// The hips sway (yaw and slide) as `scripts/three-vrm-load.mjs` plays them in
    /// three-vrm.
    Sway,
}

/// The spring model to run.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ModelArg {
    /// rigsmith's solver: colliders at their measured size, each skirt bone kept at
    /// its rest distance from them along its whole length, links between panels.
    Fitted,
    /// What a VRM 1.0 runtime runs on the exported file: its colliders and hit radii,
    /// tails only, one collision pass, no links.
    Vrm,
}

/// Arguments of `rigsmith simulate`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith simulate rigged.glb --motion walk
  rigsmith simulate avatar.vrm --model vrm --motion jump --report sim/   # sim/motion.png
  rigsmith simulate rigged.glb --animation Run --seconds 5 --json")]
pub struct Args {
    /// The character: .glb, .gltf, .vrm or .obj.
    pub input: PathBuf,
    /// The motion.
    #[arg(long, value_enum, default_value = "walk")]
    pub motion: MotionArg,
    /// Seconds to simulate (0 < S <= 600).
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f32,
    /// The spring model: rigsmith's solver, or the one a VRM runtime runs on the file
    /// `rigsmith vrm` writes (measured the same way).
    #[arg(long, value_enum, default_value = "fitted")]
    pub model: ModelArg,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Drive the body with the file's glTF animation NAME (or INDEX) instead of the
    /// procedural motion; the clip loops for `--seconds`.
    #[arg(long, value_name = "NAME|INDEX")]
    pub animation: Option<String>,
    /// Write the review into this folder: `motion.png` (six frames from the front and
    /// the right: body, spring chains, colliders, the deepest joint marked) and
    /// `simulate.json`.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write the picture of the motion alone to this PNG (older form of --report).
    #[arg(long, value_name = "PNG", hide = true)]
    pub sheet: Option<PathBuf>,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let motion = match a.motion {
        MotionArg::Rest => Motion::Rest,
        MotionArg::Walk => Motion::Walk,
        MotionArg::Run => Motion::Run,
        MotionArg::Jump => Motion::Jump,
        MotionArg::Spin => Motion::Spin,
        MotionArg::Sway => Motion::Sway,
    };
    let model = match a.model {
        ModelArg::Fitted => SpringModel::Fitted,
        ModelArg::Vrm => SpringModel::Vrm,
    };
    let mut plan = Outputs::new(&[&a.input]);
    if let Some(d) = &a.report {
        plan.dir(d, &["motion.png", "simulate.json", "motion.html"]);
    }
    if let Some(p) = &a.sheet {
        plan.file(p);
    }
    plan.verify()?;
    let picture = a.report.is_some() || a.sheet.is_some();
    let clip = match &a.animation {
        None => None,
        Some(sel) => {
            let anims = rigsmith::io::gltf::animation::read_animations(&a.input)
                .map_err(|e| BadInput(e.to_string()))?;
            let i = anims
                .find(sel)
                .map_err(|e| BadInput(format!("{}: {e}", a.input.display())))?;
            Some((anims, i))
        }
    };
    let (c, p) = super::vrm::load(&a.input, &a.space, ctx)?;
    let label = match &clip {
        Some((an, i)) => format!("animation {:?}", an.clips[*i].name),
        None => motion.name().to_string(),
    };
    let pb = ctx.stage(&format!("simulating {label}"));
    let steps = (a.seconds * STEPS_PER_SECOND).round().max(1.0) as usize;
    // The report's viewer plays the motion at 30 frames a second; the picture picks
    // its frames among them.
    let every = if a.report.is_some() {
        ((STEPS_PER_SECOND / 30.0).round() as usize).max(1)
    } else if picture {
        steps.div_ceil(SHEET_FRAMES).max(1)
    } else {
        usize::MAX
    };
    let rep = if let Some((anims, i)) = &clip {
        let parents: Vec<Option<usize>> = c
            .skeleton
            .as_ref()
            .map(|s| s.bones.iter().map(|b| b.parent).collect())
            .unwrap_or_default();
        let drive = |t: f32| anims.skinning(*i, t, &parents);
        simulate_driven(&c, &p.sidecar, model, a.seconds, every, &drive)
    } else if picture {
        simulate_frames(&c, &p.sidecar, motion, model, a.seconds, every)
    } else {
        simulate_model(&c, &p.sidecar, motion, a.seconds, model).map(|r| (r, Vec::new()))
    }
    .map_err(|e| BadInput(e.to_string()));
    pb.finish_and_clear();
    let (rep, frames) = rep?;
    if picture {
        let png = motion_sheet(&c, &p.sidecar, &rep, &label, &frames).to_png_bytes();
        if let Some(path) = &a.sheet {
            plan.write(path, &png)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        if let Some(dir) = &a.report {
            plan.write(&dir.join("motion.png"), &png)?;
            plan.write(
                &dir.join("simulate.json"),
                (serde_json::to_string_pretty(&rep)? + "\n").as_bytes(),
            )?;
            let title = format!(
                "rigsmith simulate: {} ({label})",
                a.input
                    .file_name()
                    .unwrap_or(a.input.as_os_str())
                    .to_string_lossy()
            );
            let page = crate::sheets::motion_page(&c, &title, &label, &frames);
            plan.write(&dir.join("motion.html"), page.as_bytes())?;
            ctx.info(&format!(
                "wrote {}, {} and {}",
                dir.join("motion.png").display(),
                dir.join("simulate.json").display(),
                dir.join("motion.html").display()
            ));
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else if !ctx.quiet {
        println!(
            "motion            {} ({} s, {} steps, {} model)",
            label,
            rep.seconds,
            rep.steps,
            match rep.model {
                SpringModel::Fitted => "fitted",
                SpringModel::Vrm => "VRM runtime",
            }
        );
        println!(
            "springs           {} chains, {} joints",
            rep.chains, rep.joints
        );
        println!(
            "body entry        {:.2} mm at 1.7 m beyond rest depth (worst {:.4} m{})",
            rep.worst_penetration_mm_at_1_7m,
            rep.worst_penetration_m,
            if rep.worst_at.is_empty() {
                String::new()
            } else {
                format!(": {}", rep.worst_at)
            }
        );
        println!(
            "sidecar colliders {:.2} mm at 1.7 m {}",
            rep.worst_collider_mm_at_1_7m, rep.worst_collider_at
        );
        println!(
            "between the legs  {} skirt joints {}",
            rep.skirt_joints_between_legs, rep.between_at
        );
        println!(
            "other springs     {:.2} mm at 1.7 m {}",
            rep.worst_other_mm_at_1_7m, rep.worst_other_at
        );
        println!("hair in head      {} joints", rep.hair_in_head);
        println!("swing             {:.1} deg max", rep.max_swing_deg);
        println!(
            "stable            {} (max speed {:.2} H/s)",
            rep.stable, rep.max_speed_h
        );
        if rep.passed {
            println!("verdict           pass");
        } else {
            println!("verdict           FAIL: {}", super::vrm::why(&rep));
        }
    }
    Ok(if rep.passed {
        Outcome::Ok
    } else {
        Outcome::CheckFailed
    })
}

/// Frames drawn by `--sheet`.
pub const SHEET_FRAMES: usize = 6;
/// Width and height of one cell of the sheet, pixels.
pub const SHEET_CELL: (u32, u32) = (240, 360);

/// The body posed by a frame's skinning matrices (linear blend), one list per part.
fn posed_parts(c: &Character, skin: &[Mat4]) -> Vec<Vec<Vec3>> {
    c.parts
        .iter()
        .map(|p| match &p.weights {
            Some(w) => rigsmith::pose::skin_lbs(&p.mesh.positions, w, skin),
            None => p.mesh.positions.clone(),
        })
        .collect()
}

/// A collider in world space at a frame: `(a, b, radius)` (a sphere has `a == b`);
/// planes are not drawn.
fn collider_world(c: &Character, sc: &Sidecar, skin: &[Mat4]) -> Vec<(Vec3, Vec3, f32, bool)> {
    let Some(skel) = &c.skeleton else {
        return Vec::new();
    };
    sc.colliders
        .iter()
        .filter_map(|col| {
            let i = skel.find(&col.bone)?;
            let m = skin[i] * skel.bones[i].rest_matrix();
            let p = |a: [f32; 3]| m.transform_point3(Vec3::from_array(a));
            match col.shape {
                ColliderShape::Sphere { offset, radius } => {
                    Some((p(offset), p(offset), radius, col.group == "legs"))
                }
                ColliderShape::Capsule {
                    offset,
                    tail,
                    radius,
                } => Some((p(offset), p(tail), radius, col.group == "legs")),
                ColliderShape::Plane { .. } => None,
            }
        })
        .collect()
}

fn closest(q: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 <= 0.0 {
        return a;
    }
    a + ab * ((q - a).dot(ab) / l2).clamp(0.0, 1.0)
}

/// The picture of a motion: [`SHEET_FRAMES`] frames spread over the run, from the front
/// (top row) and the right (bottom row). The body is drawn see-through, spring chains
/// as yellow polylines with their joints, colliders as blue (legs) or grey outlines,
/// and in every frame the joint deepest inside a collider as a red cross (its depth in
/// the caption, mm on a 1.7 m figure).
pub fn motion_sheet(
    c: &Character,
    sc: &Sidecar,
    rep: &SimReport,
    label: &str,
    frames: &[SimFrame],
) -> Image {
    let (cw, ch) = SHEET_CELL;
    let title = format!(
        "simulate {}: worst {:.1} mm, {} between legs, {}",
        label,
        rep.worst_penetration_mm_at_1_7m,
        rep.skirt_joints_between_legs,
        if rep.passed { "pass" } else { "FAIL" }
    );
    let mut sheet = Sheet::new(&title, SHEET_FRAMES as u32, 2, cw, ch);
    let Some(skel) = &c.skeleton else {
        return sheet.finish();
    };
    let h = rep.height.max(1e-6);
    let heads: Vec<Vec<usize>> = sc
        .chains
        .iter()
        .filter(|c| c.springs())
        .map(|c| c.bones.iter().filter_map(|b| skel.find(b)).collect())
        .collect();
    let opts = RenderOptions {
        xray: true,
        bone_style: BoneStyle::Stick,
        ..RenderOptions::default()
    };
    let pick: Vec<&SimFrame> = if frames.len() <= SHEET_FRAMES {
        frames.iter().collect()
    } else {
        (0..SHEET_FRAMES)
            .map(|k| &frames[(k * (frames.len() - 1)) / (SHEET_FRAMES - 1)])
            .collect()
    };
    for (col, f) in pick.iter().enumerate() {
        let posed = posed_parts(c, &f.skin);
        let parts: Vec<DrawPart> = c
            .parts
            .iter()
            .zip(&posed)
            .enumerate()
            .map(|(i, (p, q))| DrawPart::new(q, &p.mesh.triangles, rigsmith_render::part_colour(i)))
            .collect();
        // The frame's box, as tall as the body and centred on it.
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for q in posed.iter().flatten() {
            lo = lo.min(*q);
            hi = hi.max(*q);
        }
        if !lo.is_finite() || !hi.is_finite() {
            continue;
        }
        let mid = 0.5 * (lo + hi);
        let half = Vec3::new(0.35 * h, 0.55 * h, 0.35 * h).max(0.5 * (hi - lo));
        let (lo, hi) = (mid - half, mid + half);
        let cols = collider_world(c, sc, &f.skin);
        // The deepest joint inside any collider.
        let mut worst: Option<(f32, Vec3)> = None;
        for q in f.tails.iter().flatten() {
            for &(a, b, r, _) in &cols {
                let d = r - (*q - closest(*q, a, b)).length();
                if d > 0.0 && worst.map_or(true, |w| d > w.0) {
                    worst = Some((d, *q));
                }
            }
        }
        for (row, view) in [View::Front, View::Right].into_iter().enumerate() {
            let cam = Camera::frame(view, lo, hi, cw, ch);
            let mut img = render(&parts, None, &cam, &opts);
            let px = 1.0 / cam.pixel_size();
            for &(a, b, r, leg) in &cols {
                let (ax, ay, _) = cam.project(a);
                let (bx, by, _) = cam.project(b);
                let colour = if leg { [90, 160, 255] } else { [170, 170, 170] };
                lines::line(&mut img, ax, ay, bx, by, 2.0 * r * px, colour, 0.25);
                lines::ring(&mut img, ax, ay, r * px, 1.0, colour, 0.8);
                lines::ring(&mut img, bx, by, r * px, 1.0, colour, 0.8);
            }
            for (ci, tails) in f.tails.iter().enumerate() {
                let root = heads
                    .get(ci)
                    .and_then(|b| b.first())
                    .map(|&i| f.skin[i].transform_point3(skel.bones[i].head));
                let mut prev = root.map(|p| cam.project(p));
                for q in tails {
                    let (x, y, _) = cam.project(*q);
                    if let Some((px0, py0, _)) = prev {
                        lines::line(&mut img, px0, py0, x, y, 1.5, [255, 210, 60], 0.95);
                    }
                    lines::disc(&mut img, x, y, 1.8, [255, 210, 60], 1.0);
                    prev = Some((x, y, 0.0));
                }
            }
            if let Some((_, q)) = worst {
                let (x, y, _) = cam.project(q);
                lines::cross(&mut img, x, y, 6.0, 2.0, [255, 40, 40], 1.0);
            }
            let caption = if row == 0 {
                format!(
                    "{:.2} s  {:.1} mm",
                    f.time,
                    worst.map_or(0.0, |w| w.0 / h * 1.7 * 1000.0)
                )
            } else {
                format!("{:.2} s  {}", f.time, view.name())
            };
            sheet.place(col as u32, row as u32, &img, &caption);
        }
    }
    sheet.finish()
}
