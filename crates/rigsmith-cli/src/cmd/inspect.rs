//! `rigsmith inspect FILE [--json]`: the quick check of a model: parts,
//! skeleton, twist bones, cosmetic chains, weights, and the measured spring chains
//! (`rigsmith::parts::chains_from_skeleton`: class, root parent, bones, tips, hull
//! sizes, neighbours). Human text by default; `--json` prints the same as one JSON
//! object whose field names are documented in `docs/inspect.md` (the spring chains are
//! its `chains` field). Exit 0 when the file reads, 2 when it cannot be read.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use rigsmith::parts::{chains_from_skeleton, Chain};
use serde::Serialize;

use crate::util::{Ctx, Outcome};

/// Arguments of `rigsmith inspect`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  rigsmith inspect character.glb
  rigsmith inspect avatar.vrm --json | jq .chains")]
pub struct Args {
    /// The model: .glb, .gltf, .vrm, .obj or .fbx.
    pub input: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to read the input's axes and units.
    #[command(flatten)]
    pub space: crate::util::SpaceArgs,
}

/// One measured chain as `inspect` shows it.
#[derive(Serialize)]
struct ChainView<'a> {
    class: &'a str,
    springs: bool,
    root_parent: Option<&'a str>,
    bones: &'a [String],
    /// Per bone: where it points in its own rest frame, metres.
    tips: &'a [[f32; 3]],
    /// Per bone: its length (the tip's distance from the head), metres.
    lengths: Vec<f32>,
    /// Per bone: how many hull points it dominates (at most 24 kept).
    hull_sizes: Vec<usize>,
    /// Per bone: the hull's extent (largest distance between two of its points), metres.
    hull_extents: Vec<f32>,
    /// Other chains (by first bone) sharing vertices with this one, shared weight summed
    /// over its bones.
    neighbours: std::collections::BTreeMap<&'a str, f32>,
}

fn view(ch: &Chain) -> ChainView<'_> {
    let mut neighbours = std::collections::BTreeMap::new();
    for m in &ch.neighbours {
        for (k, w) in m {
            *neighbours.entry(k.as_str()).or_insert(0.0) += *w;
        }
    }
    for w in neighbours.values_mut() {
        *w = (*w * 1000.0).round() / 1000.0;
    }
    let round4 = |x: f32| (x * 10000.0).round() / 10000.0;
    ChainView {
        class: &ch.class,
        springs: ch.springs(),
        root_parent: ch.root_parent.as_deref(),
        bones: &ch.bones,
        tips: &ch.tips,
        lengths: ch.lengths().into_iter().map(round4).collect(),
        hull_sizes: ch.hulls.iter().map(Vec::len).collect(),
        hull_extents: ch.hull_extents().into_iter().map(round4).collect(),
        neighbours,
    }
}

/// The text lines of the measured chains (empty when there are none).
fn chains_text(chains: &[ChainView]) -> String {
    let mut s = String::new();
    if chains.is_empty() {
        return s;
    }
    let _ = writeln!(s, "measured chains: {}", chains.len());
    for ch in chains {
        let _ = writeln!(
            s,
            "  {:<8} {:<6} from {:<12} {} bones {}",
            ch.class,
            if ch.springs { "spring" } else { "still" },
            ch.root_parent.unwrap_or("-"),
            ch.bones.len(),
            ch.bones.join(" ")
        );
        let _ = writeln!(
            s,
            "    lengths (m) {}",
            ch.lengths
                .iter()
                .map(|l| format!("{l:.3}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let _ = writeln!(
            s,
            "    hulls       {}",
            ch.hull_sizes
                .iter()
                .zip(&ch.hull_extents)
                .map(|(n, e)| format!("{n} pts/{e:.3} m"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !ch.neighbours.is_empty() {
            let _ = writeln!(
                s,
                "    neighbours  {}",
                ch.neighbours
                    .iter()
                    .map(|(k, w)| format!("{k} {w:.3}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    s
}

/// Runs the command.
pub fn run(a: Args, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let pb = ctx.stage(&format!("reading {}", a.input.display()));
    let c = crate::util::read_in(&a.input, &a.space);
    pb.finish_and_clear();
    let (c, notes) = c?;
    for n in &notes {
        ctx.info(n);
    }
    let report = rigsmith::inspect::inspect(&c);
    let chains = chains_from_skeleton(&c);
    let views: Vec<ChainView> = chains.iter().map(view).collect();
    if a.json {
        let mut v = serde_json::to_value(&report).context("serializing the report")?;
        if let Some(o) = v.as_object_mut() {
            o.insert(
                "chains".into(),
                serde_json::to_value(&views).context("serializing the chains")?,
            );
        }
        let s = serde_json::to_string_pretty(&v).context("serializing the report")?;
        println!("{s}");
    } else {
        print!("{}", report.to_text());
        print!("{}", chains_text(&views));
    }
    Ok(Outcome::Ok)
}
