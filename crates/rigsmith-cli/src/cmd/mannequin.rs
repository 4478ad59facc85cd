//! `rigsmith mannequin`: writes the built-in procedural mannequin (unrigged) as GLB,
//! glTF or OBJ, and optionally the joint positions the generator used; `--animal` a
//! procedural four-legged animal instead, `--robot` the mechanical test character
//! with its skeleton and, beside it, the sidecar `rig` binds it by.

use std::path::PathBuf;

use rigsmith::io::gltf::WriteOptions;
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};

use crate::util::{Ctx, Outcome, Outputs};

/// The arm pose.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum PoseArg {
    /// Arms horizontal.
    T,
    /// Arms lowered (see --arm-angle).
    A,
}

/// A procedural test animal instead of the mannequin.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum AnimalArg {
    /// A wolf: paws, pointed ears, a long tail.
    Wolf,
    /// A horse: hooves, a long neck.
    Horse,
    /// A cat: short legs, a long thin tail.
    Cat,
}

/// Arguments of `rigsmith mannequin`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith mannequin -o mannequin.glb
  rigsmith mannequin --pose a --skirt --hair -o dressed.glb
  rigsmith mannequin --height 0.5 --head-scale 2 -o chibi.obj
  rigsmith mannequin --animal wolf --height 0.9 -o wolf.glb
  rigsmith mannequin --robot -o robot.glb && rigsmith rig robot.glb -o rigged.glb")]
pub struct Args {
    /// T or A pose.
    #[arg(long, value_enum, default_value = "t")]
    pub pose: PoseArg,
    /// A pose: degrees below horizontal (0..=80).
    #[arg(long, default_value_t = 45.0)]
    pub arm_angle: f32,
    /// Height in metres.
    #[arg(long, default_value_t = 1.75)]
    pub height: f32,
    /// Head size relative to a realistic head (0.5..=3; above 1 is stylized).
    #[arg(long, default_value_t = 1.0)]
    pub head_scale: f32,
    /// Leave out the eyes part.
    #[arg(long)]
    pub no_eyes: bool,
    /// Leave out the shirt part.
    #[arg(long)]
    pub no_shirt: bool,
    /// Intersecting primitives instead of one smooth shell.
    #[arg(long)]
    pub raw: bool,
    /// Add a skirt part.
    #[arg(long)]
    pub skirt: bool,
    /// Add a hair part (cap, bangs, twin tails).
    #[arg(long)]
    pub hair: bool,
    /// Output: .glb, .gltf or .obj.
    #[arg(short = 'o', long)]
    pub output: PathBuf,
    /// Also write the generator's joint positions as JSON ({"name": [x, y, z], ...}).
    #[arg(long)]
    pub joints_out: Option<PathBuf>,
    /// Build a procedural four-legged animal instead (its height is --height; the
    /// mannequin's other options do not apply).
    #[arg(long, value_enum)]
    pub animal: Option<AnimalArg>,
    /// With --animal: the surface grid spacing, generator units (the trunk is about 0.8
    /// long; default 1/70, about 7k vertices for the wolf; 0.018 gives about 5k).
    #[arg(long, requires = "animal")]
    pub grid: Option<f32>,
    /// Build the procedural robot instead (its height is --height): hard-surface
    /// islands, its own skeleton, and `OUT.rig.json` beside a .glb/.gltf naming the
    /// islands on bones of their own and the visor action, so `rigsmith rig OUT` binds
    /// it as a mechanical character.
    #[arg(long, conflicts_with = "animal")]
    pub robot: bool,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let o = MannequinOptions {
        pose: match a.pose {
            PoseArg::T => ArmPose::T,
            PoseArg::A => ArmPose::A,
        },
        arm_angle_deg: a.arm_angle,
        height: a.height,
        head_scale: a.head_scale,
        eyes: !a.no_eyes,
        shirt: !a.no_shirt,
        raw: a.raw,
        skirt: a.skirt,
        hair: a.hair,
    };
    o.validate()?;
    if a.robot {
        return robot(&a, ctx);
    }
    let mut plan = Outputs::new(&[]);
    plan.file(&a.output);
    if let Some(p) = &a.joints_out {
        plan.file(p);
    }
    plan.verify()?;
    let animal = a.animal.map(|k| {
        use mannequin::animal::{AnimalOptions, Beast};
        let d = AnimalOptions::default();
        AnimalOptions {
            beast: match k {
                AnimalArg::Wolf => Beast::Wolf,
                AnimalArg::Horse => Beast::Horse,
                AnimalArg::Cat => Beast::Cat,
            },
            height: a.height,
            grid: a.grid.filter(|g| *g > 0.001 && *g < 0.1).unwrap_or(d.grid),
            ..d
        }
    });
    let c = match &animal {
        Some(ao) => mannequin::animal::build(ao),
        None => mannequin::build(&o),
    };
    if ext(&a.output) == "obj" {
        plan.write(&a.output, mannequin::obj_text(&c).as_bytes())?;
    } else {
        plan.character(&a.output, &c, &WriteOptions::default())?;
    }
    if let Some(p) = &a.joints_out {
        let mut m = serde_json::Map::new();
        let joints = match &animal {
            Some(ao) => mannequin::animal::reference_joints(ao),
            None => mannequin::reference_joints(&o),
        };
        for (n, v) in joints {
            m.insert(n.to_string(), serde_json::json!([v.x, v.y, v.z]));
        }
        let text = serde_json::to_string_pretty(&serde_json::Value::Object(m))? + "\n";
        plan.write(p, text.as_bytes())?;
    }
    let parts: Vec<String> = c
        .parts
        .iter()
        .map(|p| format!("{} {}", p.name, p.mesh.positions.len()))
        .collect();
    ctx.info(&format!(
        "wrote {}: mannequin {:.2} m ({} vertices)",
        a.output.display(),
        o.height,
        parts.join(", ")
    ));
    Ok(Outcome::Ok)
}

/// The extension of `p`, lower case.
fn ext(p: &std::path::Path) -> String {
    p.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// `--robot`: the procedural robot with its skeleton, and for a .glb/.gltf the sidecar
/// with its mechanical spec (the islands on bones of their own, the visor action).
/// The height was validated with the mannequin's options.
fn robot(a: &Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    use rigsmith::mannequin::robot;
    if a.joints_out.is_some() {
        anyhow::bail!(crate::util::BadInput(
            "--joints-out: the robot's joints are its skeleton, written in the file".into()
        ));
    }
    let obj = ext(&a.output) == "obj";
    let sidecar_path = rigsmith::parts::sidecar_path(&a.output);
    let mut plan = Outputs::new(&[]);
    plan.file(&a.output);
    if !obj {
        plan.file(&sidecar_path);
    }
    plan.verify()?;
    let (c, own) = robot::build(a.height);
    if obj {
        plan.write(&a.output, mannequin::obj_text(&c).as_bytes())?;
    } else {
        plan.character(&a.output, &c, &WriteOptions::default())?;
        let mut side = rigsmith::parts::Sidecar::build(&c, &[], &[]);
        side.mech = Some(rigsmith::mech::MechSpec::of(
            &c,
            &own,
            vec![robot::visor_action(a.height)],
        ));
        plan.write(&sidecar_path, side.to_string().as_bytes())?;
    }
    ctx.info(&format!(
        "wrote {}{}: robot {:.2} m ({} islands in {} parts, {} bones)",
        a.output.display(),
        if obj {
            String::new()
        } else {
            format!(" and {}", sidecar_path.display())
        },
        a.height,
        rigsmith::mech::islands(&c).len(),
        c.parts.len(),
        c.skeleton.as_ref().map_or(0, |s| s.len())
    ));
    Ok(Outcome::Ok)
}
