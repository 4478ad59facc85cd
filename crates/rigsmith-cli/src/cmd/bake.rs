//! `rigsmith bake`: control animation (JSON keys of control poses) -> deform-bone
//! animation in the GLB, through the control rig of the file's sidecar
//! (`rigsmith rig --control`). Also the control rig's sidecar reader `check` uses.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rigsmith::control::bake::{self, ControlAnimation};
use rigsmith::control::ControlRig;
use rigsmith::io::gltf::WriteOptions;
use rigsmith::parts;

use crate::util::{BadInput, Ctx, Outcome, Outputs};

/// Arguments of `rigsmith bake`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith rig body.glb -o rigged.glb --control
  rigsmith bake rigged.glb --anim walk.json -o walking.glb
  rigsmith bake rigged.glb --walk 2 -o walking.glb   # the built-in 2-second walk")]
pub struct Args {
    /// A file rigged with `rigsmith rig --control` (its `.rig.json` holds the control rig).
    pub input: PathBuf,
    /// The control animation (JSON: `{"fps": 30, "keys": [{"time", "bones", "props"}]}`).
    #[arg(long, conflicts_with = "walk", required_unless_present = "walk")]
    pub anim: Option<PathBuf>,
    /// Bake the built-in walk of this many seconds instead of a file.
    #[arg(long, value_name = "SECONDS")]
    pub walk: Option<f32>,
    /// Output .glb: the character with the baked animation.
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Print the result as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

/// The control rig in the sidecar beside `input`, if there is one: a rig with a
/// dependency cycle or a broken reference is refused, naming the file and the bones.
pub fn control_rig(input: &Path) -> anyhow::Result<Option<ControlRig>> {
    let path = parts::sidecar_path(input);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| BadInput(format!("{}: not JSON: {e}", path.display())))?;
    let Some(c) = v.get("control") else {
        return Ok(None);
    };
    let what = format!("{} (control)", path.display());
    Ok(Some(
        ControlRig::from_json(&c.to_string(), &what).map_err(|e| BadInput(e.to_string()))?,
    ))
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let mut plan = Outputs::new(&[a.input.as_path()]);
    plan.file(&a.output);
    plan.verify()?;
    crate::util::check_input(&a.input)?;
    let c = crate::util::read_character(&a.input)?;
    let rig = control_rig(&a.input)?.ok_or_else(|| {
        BadInput(format!(
            "{}: no control rig in {} (rig it with `rigsmith rig --control`)",
            a.input.display(),
            parts::sidecar_path(&a.input).display()
        ))
    })?;
    let skel = c
        .skeleton
        .as_ref()
        .ok_or_else(|| BadInput(format!("{}: has no skeleton", a.input.display())))?;
    let anim = match (&a.anim, a.walk) {
        (Some(p), _) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("{}: cannot read", p.display()))?;
            ControlAnimation::from_json(&text, &p.display().to_string())
                .map_err(|e| BadInput(e.to_string()))?
        }
        (None, Some(s)) => {
            if !(s > 0.0 && s <= 600.0) {
                return Err(BadInput(format!("--walk {s}: give 0 to 600 seconds")).into());
            }
            bake::walk(&rig, s)
        }
        (None, None) => return Err(BadInput("give --anim FILE or --walk SECONDS".into()).into()),
    };
    let baked = bake::bake(&rig, skel, &anim)
        .map_err(|e| BadInput(format!("{}: {e}", a.input.display())))?;
    let bytes = bake::write_glb(&c, &baked, &WriteOptions::default(), "control")?;
    plan.write(&a.output, &bytes)?;
    if a.json {
        println!(
            "{}",
            serde_json::json!({"output": a.output, "frames": baked.times.len(), "seconds": baked.times.last(), "bones": skel.len()})
        );
    } else {
        ctx.info(&format!(
            "baked {} frames ({:.2} s) of {} bones into {}",
            baked.times.len(),
            baked.times.last().copied().unwrap_or(0.0),
            skel.len(),
            a.output.display()
        ));
    }
    Ok(Outcome::Ok)
}

/// `OUT.control.py`: the Blender script beside a rigged file.
pub fn script_path(output: &Path) -> PathBuf {
    output.with_extension("control.py")
}
