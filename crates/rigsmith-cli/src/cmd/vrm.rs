//! `rigsmith vrm FILE -o out.vrm`: exports a character as VRM 1.0 with spring bones,
//! colliders and twist constraints. An unrigged input is fitted (VRM template) and
//! bound first; unrigged skirt and hair parts get chains. A `FILE.rig.json` beside the
//! input is read and its authored colliders win; `out.rig.json` is written beside the
//! output.
//!
//! The export is then verified under the spring model a VRM 1.0 runtime runs on it
//! (its colliders and hit radii, tails only, one collision pass: `rigsmith simulate
//! --model vrm`) in a walk and a jump; when the springs misbehave there (a skirt joint
//! between the legs, hair in the head, a body entry over 5 mm at 1.7 m, an unstable
//! chain) the file is still written and the command exits 1 with the reason.
//! `--no-verify` skips it.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith::parts::vrm_write::{vrm_bytes, VrmMeta};
use rigsmith::parts::{self, sidecar_path, simulate_model, Motion, Sidecar, SpringModel};
use rigsmith::pipeline::{rig, RigOptions, RigOutput};

use crate::util::{Ctx, Outcome, Outputs};

/// Arguments of `rigsmith vrm`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith vrm rigged.glb -o avatar.vrm
  rigsmith vrm body.glb -o avatar.vrm --name Ada --author me   # rigs it first
  rigsmith simulate avatar.vrm --model vrm --motion jump      # the springs as a VRM runtime runs them")]
pub struct Args {
    /// The character: .glb, .gltf, .vrm or .obj (rigged or not).
    pub input: PathBuf,
    /// The VRM file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Avatar name for the VRM meta (default: the input's file name).
    #[arg(long)]
    pub name: Option<String>,
    /// Author for the VRM meta.
    #[arg(long, default_value = "rigsmith")]
    pub author: String,
    /// Skip the check of the springs under the VRM runtime's model.
    #[arg(long)]
    pub no_verify: bool,
    /// The face of an unrigged input (`--face`, `--expressions`): its expression keys
    /// become VRM expressions.
    #[command(flatten)]
    pub face: crate::util::FaceArgs,
    /// The part roles of an unrigged input (`--body`, `--garment`, `--rigid`), as `rig`
    /// takes them.
    #[command(flatten)]
    pub parts: crate::util::PartsArgs,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// The motions the export is verified in, and seconds of each.
pub const VERIFY_MOTIONS: [(Motion, f32); 2] = [(Motion::Walk, 3.0), (Motion::Jump, 3.0)];

/// Reads a character and rigs it as the VRM exporter needs ([`RigOptions::vrm`], shared
/// with `simulate`): its own rig is kept, an unrigged one is rigged; a sidecar beside
/// the input is the authored one (used as it is when it fits the skeleton).
pub fn load(
    input: &Path,
    space: &crate::util::SpaceArgs,
    parts: &crate::util::PartsArgs,
    ctx: &Ctx,
) -> anyhow::Result<RigOutput> {
    load_with_face(input, space, parts, Default::default(), ctx)
}

/// [`load`] building a face on an unrigged input.
pub fn load_with_face(
    input: &Path,
    space: &crate::util::SpaceArgs,
    parts: &crate::util::PartsArgs,
    face: rigsmith::face::FaceOptions,
    ctx: &Ctx,
) -> anyhow::Result<RigOutput> {
    let pb = ctx.stage(&format!("reading {}", input.display()));
    let c = crate::util::read_in(input, space);
    pb.finish_and_clear();
    let (mut c, notes) = c?;
    for n in &notes {
        ctx.info(n);
    }
    parts.tell(&mut c, input)?;
    let sp = sidecar_path(input);
    let authored = if sp.exists() {
        Some(Sidecar::read(&sp)?)
    } else {
        None
    };
    let pb = ctx.stage("rigging secondary motion");
    let out = rig(
        &c,
        &RigOptions {
            authored,
            face,
            parts: c.body_options.clone(),
            ..RigOptions::vrm()
        },
        &mut |_, _| {},
    );
    pb.finish_and_clear();
    let out = out.with_context(|| format!("{}: cannot rig", input.display()))?;
    if ctx.verbose > 0 {
        for n in &out.notes {
            ctx.info(n);
        }
    }
    Ok(out)
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let sp = sidecar_path(&a.output);
    let mut plan = Outputs::new(&[&a.input, &sidecar_path(&a.input)]);
    plan.file(&a.output).file(&sp).verify()?;
    let face = a.face.options()?;
    let p = load_with_face(&a.input, &a.space, &a.parts, face, ctx)?;
    let c = &p.character;
    let meta = VrmMeta {
        name: a.name.unwrap_or_else(|| {
            a.input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "character".into())
        }),
        authors: vec![a.author],
        ..Default::default()
    };
    rigsmith::humanoid::require_complete(
        &p.humanoid,
        p.humanoid_problem.as_deref(),
        &a.input.display().to_string(),
    )?;
    let bytes = vrm_bytes(c, &p.humanoid, &p.sidecar, &meta)?;
    plan.write(&a.output, &bytes)?;
    plan.write(&sp, p.sidecar.to_string().as_bytes())?;
    let springs = p.sidecar.chains.iter().filter(|c| c.springs()).count();
    ctx.info(&format!(
        "wrote {} ({} humanoid bones, {springs} springs, {} colliders) and {}",
        a.output.display(),
        p.humanoid.len(),
        p.sidecar.colliders.len(),
        sp.display()
    ));
    if a.no_verify || springs == 0 {
        return Ok(Outcome::Ok);
    }
    let pb = ctx.stage("verifying the springs under the VRM runtime's model");
    let mut failures = Vec::new();
    let mut first = None;
    for (motion, seconds) in VERIFY_MOTIONS {
        let rep = simulate_model(c, &p.sidecar, motion, seconds, SpringModel::Vrm)?;
        if !rep.passed {
            first.get_or_insert(motion.name());
            failures.push(format!("{}: {}", motion.name(), why(&rep)));
        }
    }
    pb.finish_and_clear();
    let Some(first) = first else {
        ctx.info("springs verified under the VRM runtime's model (walk, jump): pass");
        return Ok(Outcome::Ok);
    };
    eprintln!(
        "FAIL springs misbehave in a VRM runtime ({}): {}",
        a.output.display(),
        failures.join("; ")
    );
    eprintln!(
        "  -> see it with `rigsmith simulate {} --model vrm --motion {first} --report DIR`; a VRM \
         runtime has no links between skirt panels and collides tails only, so chains swing \
         further there than in rigsmith's solver: stiffen or shorten them in {} and run \
         `rigsmith vrm` again (the sidecar beside the input is read)",
        a.input.display(),
        sidecar_path(&a.input).display()
    );
    Ok(Outcome::CheckFailed)
}

/// Why a simulation failed, in plain words.
pub fn why(r: &parts::SimReport) -> String {
    let mut w = Vec::new();
    if r.skirt_joints_between_legs > 0 {
        w.push(format!(
            "{} skirt joints between the legs{}",
            r.skirt_joints_between_legs,
            if r.between_at.is_empty() {
                String::new()
            } else {
                format!(" ({})", r.between_at)
            }
        ));
    }
    if r.hair_in_head > 0 {
        w.push(format!("{} hair joints inside the head", r.hair_in_head));
    }
    if r.worst_penetration_mm_at_1_7m > 5.0 {
        w.push(format!(
            "body entry {:.1} mm at 1.7 m (limit 5){}",
            r.worst_penetration_mm_at_1_7m,
            if r.worst_at.is_empty() {
                String::new()
            } else {
                format!(" at {}", r.worst_at)
            }
        ));
    }
    if !r.stable {
        w.push("unstable (a joint ran away)".into());
    }
    if w.is_empty() {
        w.push("failed".into());
    }
    w.join(", ")
}
