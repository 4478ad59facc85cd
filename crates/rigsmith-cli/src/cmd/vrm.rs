//! `rigsmith vrm FILE -o out.vrm`: exports a character as VRM 1.0 with spring bones,
//! colliders and twist constraints. An unrigged input is fitted (VRM template) and
//! bound first; unrigged skirt and hair parts get chains. A `FILE.rig.json` beside the
//! input is read and its authored colliders win; `out.rig.json` is written beside the
//! output.

use std::path::{Path, PathBuf};

use rigsmith::io::vrm_write::{write_vrm, VrmMeta};
use rigsmith::parts::{self, sidecar_path, Prepared, Sidecar};

use crate::util::{BadInput, Ctx, Outcome};

/// Arguments of `rigsmith vrm`.
#[derive(clap::Args)]
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
}

/// Reads a character and runs the parts stage on it (shared with `simulate`): a
/// sidecar beside the input whose bones all exist is used as is; otherwise the stage
/// runs and the sidecar's authored colliders and spring parameters are kept.
pub fn load(input: &Path, ctx: &Ctx) -> anyhow::Result<(rigsmith::Character, Prepared)> {
    let pb = ctx.stage(&format!("reading {}", input.display()));
    let c = rigsmith::io::read_character(input).map_err(|e| BadInput(e.to_string()));
    pb.finish_and_clear();
    let mut c = c?;
    let sp = sidecar_path(input);
    let authored = if sp.exists() {
        Some(Sidecar::read(&sp).map_err(|e| BadInput(e.to_string()))?)
    } else {
        None
    };
    if let (Some(sc), Some(skel)) = (&authored, &c.skeleton) {
        if sc.check_bones(skel).is_ok() && !sc.chains.is_empty() {
            let humanoid = c
                .vrm
                .as_ref()
                .map(|v| v.humanoid.clone())
                .unwrap_or_default();
            let mut p = Prepared {
                sidecar: sc.clone(),
                humanoid,
                humanoid_problem: None,
                rigged_here: false,
                notes: vec![],
            };
            if p.humanoid.is_empty() {
                // Map the humanoid as the stage does (names, else structure).
                let m = parts::map_humanoid(skel);
                p.humanoid = m.bones;
                p.humanoid_problem = m.problem;
                p.notes.extend(m.notes);
            }
            p.notes.push(format!("using {}", sp.display()));
            return Ok((c, p));
        }
    }
    let pb = ctx.stage("rigging secondary motion");
    let p = parts::prepare(&mut c, authored.as_ref()).map_err(|e| BadInput(e.to_string()));
    pb.finish_and_clear();
    let p = p?;
    if ctx.verbose > 0 {
        for n in &p.notes {
            ctx.info(n);
        }
    }
    Ok((c, p))
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let (c, p) = load(&a.input, ctx)?;
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
    parts::require_complete(
        &p.humanoid,
        p.humanoid_problem.as_deref(),
        &a.input.display().to_string(),
    )
    .map_err(|e| BadInput(e.to_string()))?;
    write_vrm(&a.output, &c, &p.humanoid, &p.sidecar, &meta)
        .map_err(|e| BadInput(e.to_string()))?;
    let sp = sidecar_path(&a.output);
    p.sidecar.write(&sp)?;
    let springs = p.sidecar.chains.iter().filter(|c| c.springs()).count();
    ctx.info(&format!(
        "wrote {} ({} humanoid bones, {springs} springs, {} colliders) and {}",
        a.output.display(),
        p.humanoid.len(),
        p.sidecar.colliders.len(),
        sp.display()
    ));
    Ok(Outcome::Ok)
}
