//! The body plan read from horizontal cross-sections near the floor: how many leg
//! sections stand on the floor, how they are arranged, and what that makes the body.
//!
//! Cuts at 6% to 30% of the height `H` (every 3%) are taken; loops shorter than 2% of
//! the body's largest extent are left out (specks). The leg count is the most frequent
//! loop count over those cuts (ties go to the lower cut). Then:
//!
//! | leg sections | arrangement | plan |
//! |---|---|---|
//! | 2 | one each side of the centre, body taller than half its length | biped |
//! | 2 | body lower than half its length or width | neither (a bird with spread wings, a figure lying down) |
//! | 4 | two each side of the centre, a front pair and a back pair | quadruped |
//! | 3 | - | neither (three legs) |
//! | 0 or 1 | - | neither (no legs: a snake, a blob, legs joined; a flat, broad body: lying down) |
//! | 5 or more | - | neither (a spider, an insect) |

use glam::Vec3;
use serde::Serialize;

use crate::fit::sections::{bounds, Loop, Slicer};
use crate::model::Mesh;

/// What the sections showed the body to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BodyPlan {
    /// Two legs under an upright body.
    Biped,
    /// Four legs, a front pair and a back pair.
    Quadruped,
    /// Neither (see [`Classification::why`]).
    Neither,
}

/// The classification of a body, with the sections it was read from.
#[derive(Debug, Clone, Serialize)]
pub struct Classification {
    /// The plan.
    pub plan: BodyPlan,
    /// The leg sections counted (the most frequent loop count near the floor).
    pub legs: usize,
    /// The cut the legs were read at, as a fraction of the height.
    pub level: f32,
    /// The leg loops' centres at that cut, metres.
    pub leg_centres: Vec<Vec3>,
    /// Why, in plain words, naming what the sections showed.
    pub why: String,
}

/// Loops of the horizontal cut at `y`, specks left out.
pub(crate) fn floor_loops(s: &Slicer<'_>, y: f32, min_perimeter: f32) -> Vec<Loop> {
    s.cut(Vec3::new(0.0, y, 0.0))
        .into_iter()
        .filter(|l| l.perimeter > min_perimeter)
        .collect()
}

/// A flat body with no separate legs whose narrower extent across the floor (X or Z) is
/// at least this share of the wider is said to be lying down, not a snake: a biped on
/// its back is as broad as its arms or shoulders, a snake's body is a few percent of
/// its length across.
pub const BROAD: f32 = 0.3;

/// An upright body refused as neither a biped nor a quadruped whose depth along Z is
/// more than this many times its width along X is said to be a biped facing +X or -X,
/// with `--facing` named: a biped stands wider than deep (the arms, the shoulders), a
/// quadruped longer than tall.
pub const SIDEWAYS: f32 = 1.3;

/// Classifies `body` (see the module docs).
pub fn classify(body: &Mesh) -> Classification {
    let (lo, hi) = bounds(&body.positions);
    let ext = hi - lo;
    let h = ext.y;
    let none = |why: String| Classification {
        plan: BodyPlan::Neither,
        legs: 0,
        level: 0.0,
        leg_centres: Vec::new(),
        why,
    };
    if body.triangles.is_empty() || !(h > 0.0) {
        return none("the body has no height: nothing stands on the floor".into());
    }
    let big = ext.max_element();
    let slicer = Slicer::new(body, Vec3::Y, 128);
    let levels: Vec<f32> = (0..9).map(|k| 0.06 + 0.03 * k as f32).collect();
    let cuts: Vec<Vec<Loop>> = levels
        .iter()
        .map(|f| floor_loops(&slicer, lo.y + f * h, 0.02 * big))
        .collect();
    let counts: Vec<usize> = cuts.iter().map(Vec::len).collect();
    // The most frequent count; ties go to the count seen first (the lower cut).
    let mut best = (0usize, 0usize);
    for &c in &counts {
        let n = counts.iter().filter(|&&d| d == c).count();
        if n > best.1 {
            best = (c, n);
        }
    }
    let legs = best.0;
    let k = counts.iter().position(|&c| c == legs).unwrap_or(0);
    let loops = &cuts[k];
    let cx = 0.5 * (lo.x + hi.x);
    let centres: Vec<Vec3> = loops.iter().map(|l| l.center).collect();
    let shown = format!(
        "horizontal sections at 6-30% of the height show {} ({legs} most often, at {:.0}%), \
         under a body {:.3} tall, {:.3} wide and {:.3} long",
        counts
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        100.0 * levels[k],
        ext.y,
        ext.x,
        ext.z
    );
    let left = centres.iter().filter(|c| c.x > cx).count();
    let (plan, why) = match legs {
        2 if left == 1 && h >= 0.5 * ext.x.max(ext.z) => (
            BodyPlan::Biped,
            format!("biped: {shown}: two leg sections, one each side, under an upright body"),
        ),
        2 => (
            BodyPlan::Neither,
            format!(
                "neither a biped nor a quadruped: {shown}: two leg sections under a body lower \
                 than half its width or length (a bird with spread wings, a figure lying down?)"
            ),
        ),
        4 if left == 2 => {
            let mut z: Vec<f32> = centres.iter().map(|c| c.z).collect();
            z.sort_by(f32::total_cmp);
            let mut x: Vec<f32> = centres.iter().map(|c| c.x).collect();
            x.sort_by(f32::total_cmp);
            // A front pair and a back pair: the gap between the pairs along the length
            // is wider than the spread within each pair.
            let pairs = (z[2] - z[1]) > (z[1] - z[0]).max(z[3] - z[2]);
            if pairs && ext.z >= ext.x {
                (
                    BodyPlan::Quadruped,
                    format!(
                        "quadruped: {shown}: four leg sections, two each side, a front pair and \
                         a back pair {:.3} apart along the body",
                        0.5 * (z[2] + z[3] - z[0] - z[1])
                    ),
                )
            } else if pairs {
                (
                    BodyPlan::Neither,
                    format!(
                        "{shown}: four leg sections, but the body is longer across X than along \
                         Z: turn it to face +Z (or -Z) before fitting a quadruped"
                    ),
                )
            } else {
                (
                    BodyPlan::Neither,
                    format!(
                        "neither a biped nor a quadruped: {shown}: four leg sections that do not \
                         form a front and a back pair"
                    ),
                )
            }
        }
        3 => (
            BodyPlan::Neither,
            format!("neither a biped nor a quadruped: {shown}: three legs"),
        ),
        0 | 1 => (
            BodyPlan::Neither,
            format!(
                "neither a biped nor a quadruped: {shown}: no separate legs (a snake, a blob, \
                 legs joined by a garment?)"
            ),
        ),
        n if n >= 5 => (
            BodyPlan::Neither,
            format!(
                "neither a biped nor a quadruped: {shown}: {n} leg sections (a spider, an insect?)"
            ),
        ),
        _ => (
            BodyPlan::Neither,
            format!(
                "neither a biped nor a quadruped: {shown}: {legs} leg sections not arranged as a \
                 biped's or a quadruped's ({left} on the left)"
            ),
        ),
    };
    let why = if plan == BodyPlan::Neither {
        with_posture(why, legs, ext)
    } else {
        why
    };
    Classification {
        plan,
        legs,
        level: levels[k],
        leg_centres: centres,
        why,
    }
}

/// A refusal's reason `why` (the body neither a biped nor a quadruped, `legs` sections
/// counted, extent `ext`) with what its posture says: lying down, or a biped facing
/// sideways.
fn with_posture(why: String, legs: usize, ext: Vec3) -> String {
    let h = ext.y;
    // Any other refusal of a body with legs lower than half its length or width says
    // so: a biped in a Z-up file reads as legs scattered under a flat body (men_Casual
    // turned Z-up shows 4 sections) or, lying on its back with its legs together, as
    // one section at every low cut under a flat body as broad as it is long (the
    // knight: 6.8 wide, 5.6 long, 1.4 high), and the fix is the file's up axis, not
    // the template. A flat, narrow body with no legs is a snake (said in `classify`).
    let broad = ext.x.min(ext.z) >= BROAD * ext.x.max(ext.z);
    let lying = h < 0.5 * ext.x.max(ext.z) && (legs > 2 || (legs <= 1 && broad));
    if lying {
        format!("{why}; the body is lower than half its width or length (lying down?)")
    } else if h >= 0.5 * ext.x.max(ext.z) && ext.z > SIDEWAYS * ext.x {
        // Upright and deeper than wide: a biped's arms and shoulders run across X; one
        // facing +X or -X in its file shows them along Z and its legs one behind the
        // other (the chibi turned a quarter: 1.56 wide, 3.40 deep).
        format!(
            "{why}; the body stands upright and is {:.1} times as deep along Z as wide along X: \
             a biped facing +X or -X? (pass --facing +x or -x)",
            ext.z / ext.x.max(1e-12)
        )
    } else {
        why
    }
}
