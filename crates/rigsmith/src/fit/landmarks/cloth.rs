//! Legs under cloth: a robe or an ankle-long dress modelled as one mesh with the skin,
//! so no part boundary says where the cloth is.
//!
//! The low cut that should show two legs shows a loop around the centre instead: the
//! hem of the cloth. When the feet show below it (a foot loop each side near the
//! floor, nothing around the centre), the figure is a biped in a long garment and its
//! legs are placed by one of two rules, named in the landmarks' notes and methods:
//!
//! * **measured inside the cloth**: the cut shows the legs inside the cloth loop (a
//!   loop that encloses a leg-sized loop of the same cut is cloth, not skin). The
//!   legs are then measured as on a bare body, on the loops inside: the crotch where
//!   they merge, the hip above it, the ankle, the knee in the leg's section.
//! * **inferred under cloth**: no legs inside the cloth (a robe modelled as a shell,
//!   a witch's dress), or only stubs of them: legs seen inside the cloth are measured
//!   only when they are closed sections every 1% H down to the hem and, going up,
//!   merge into a pelvis that lies inside the cloth (else the cloth, once the stubs
//!   end, would be taken for the pelvis), and the note says which stub it saw. The
//!   crotch is the lowest cut where the pelvis shows inside the cloth, at most
//!   [`CROTCH_MAX`] up (else a fixed fraction of the height, confidence 0.4); the hip lies above it at the bare
//!   body's offset, across the pelvis section at a calibrated share of its half
//!   width; the ankle from the foot's section just below the hem; the knee on the
//!   line from hip to ankle at the bare body's proportion, a little in front of it.
//!
//! A body with nothing below the hem (a cone, a column, a robe to the floor hiding
//! the feet) is refused as before, the message saying that no feet show below it.

use super::legs::{ANK_H, ANK_Z, HIP_Y, KNEE_T};
use super::*;

// ---- calibration (units of H unless stated; measured on the 14 MakeHuman variants
// with their legs taken out under the robe: `examples/robe_calibrate.rs`, whose means
// these are, rounded) ----

/// The crotch's height when no pelvis shows inside the cloth (the crotch found inside
/// it: 36.5% on the baby, 43.5% to 50% on the others).
const CROTCH_F: f32 = 0.46;
/// The highest crotch (fraction of the height) the pelvis inside the cloth may give:
/// the MakeHuman bodies' crotch lies at 36.5 % (the baby) to 50 % of the height. A robe
/// modelled as the surface over nothing shows the shirt's tail inside the skirt's waist
/// at 54 to 56 %, which was taken for the pelvis (legs 3.7 to 4.3 % H off); above this
/// the crotch is the fixed share [`CROTCH_F`].
const CROTCH_MAX: f32 = 0.53;
/// Hip joint x as a fraction of the pelvis section's half width (from the centre
/// plane), at the hip's height (0.50 to 0.69: a woman's pelvis is wider).
const HIP_W: f32 = 0.61;
/// Hip joint depth offset from the pelvis section's centre (-0.014 to 0.007).
const HIP_ZP: f32 = -0.005;
/// Knee depth in front of the line from hip to ankle (0.012 to 0.027): the leg's
/// modelled bend, forward.
const KNEE_FWD: f32 = 0.019;
/// A loop at least this long (units of H) inside another makes that one cloth.
const LEG_MIN: f32 = 0.05;
/// A loop enclosing another with a mean gap under this (units of H) is a layer of
/// cloth over it (a sleeve welded on the arm), not a trunk the other has entered.
const LAYER_GAP: f32 = 0.03;

/// Whether `outer`, a loop of a cut enclosing `inner`, is a layer of cloth over it:
/// longer by less than a mean gap of [`LAYER_GAP`] all round.
pub(super) fn layer_over(outer: &Loop, inner: &Loop, h: f32) -> bool {
    let d = outer.perimeter - inner.perimeter;
    d > 0.0 && d < std::f32::consts::TAU * LAYER_GAP * h
}

/// Whether `p` lies inside the closed polygon `pts`, judged in the plane of the axes
/// `u` and `v` (0 x, 1 y, 2 z) by the crossing rule.
pub(super) fn inside_axes(pts: &[Vec3], p: Vec3, u: usize, v: usize) -> bool {
    let n = pts.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        if (a[u] > p[u]) != (b[u] > p[u]) {
            let w = a[v] + (p[u] - a[u]) / (b[u] - a[u]) * (b[v] - a[v]);
            if p[v] < w {
                inside = !inside;
            }
        }
    }
    inside
}

/// Whether `outer` encloses `inner` (a horizontal cut's loops): `inner` is the
/// shorter and its centre lies inside `outer`.
fn encloses(outer: &Loop, inner: &Loop) -> bool {
    inner.perimeter < outer.perimeter && inside_axes(&outer.points, inner.center, 0, 2)
}

/// How the legs were placed under the cloth.
enum Rule {
    /// The legs show inside the cloth loop from this height fraction up.
    Measured(f32),
    /// No legs inside the cloth, or only stubs of them (why, in words).
    Inferred(Option<String>),
}

impl Side<'_> {
    /// A horizontal cut without its cloth: loops enclosing a leg-sized loop of the
    /// same cut are dropped.
    pub(super) fn skin_cut(&self, y: f32) -> Vec<Loop> {
        self.skin_of(&self.hcut(y))
    }

    /// The loops of `cut` that enclose no leg-sized loop of it.
    fn skin_of(&self, cut: &[Loop]) -> Vec<Loop> {
        let big = LEG_MIN * self.h;
        cut.iter()
            .filter(|o| {
                !cut.iter()
                    .any(|i| i.perimeter > big && !std::ptr::eq(*o, i) && encloses(o, i))
            })
            .cloned()
            .collect()
    }

    fn spans(&self, l: &Loop) -> bool {
        l.lo.x < self.cx && l.hi.x > self.cx
    }

    /// The hem: the lowest height fraction (from 1% H up to 25% H) whose cut shows a
    /// loop around the centre, when at least three cuts below it (0.25% H apart) show a
    /// foot on this side; `None` when no feet show below the cloth.
    fn hem(&self) -> Option<f32> {
        let mut f = 0.01;
        let mut feet = 0;
        while f <= 0.25 {
            let cut = self.hcut(self.y(f));
            if cut.iter().any(|l| self.spans(l)) {
                return (feet >= 3).then_some(f);
            }
            if cut.iter().any(|l| l.lo.x > self.cx) {
                feet += 1;
            }
            f += 0.0025;
        }
        None
    }

    /// The legs of a figure whose low cut shows a loop around the centre: measured
    /// inside the cloth or inferred under it (see the module docs). `refusal` is the
    /// bare body's error, returned (with the reason) when no feet show below a cloth.
    pub(super) fn legs_under_cloth(&mut self, side: &str, refusal: Error) -> Result<()> {
        let msg = match &refusal {
            Error::Stage { msg, .. } => msg.clone(),
            _ => return Err(refusal),
        };
        let low = self.hcut(self.y(0.25));
        let Some(cloth) = low
            .iter()
            .filter(|l| self.spans(l))
            .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
            .cloned()
        else {
            return Err(refusal);
        };
        let Some(hem) = self.hem() else {
            return Err(Error::stage(
                "fit",
                format!(
                    "{msg}; no feet show below it either (one section each side near the \
                     floor, nothing around the centre): not a biped in a long garment"
                ),
            ));
        };
        let start = std::iter::once(0.25)
            .chain((0..6).map(|k| 0.22 - 0.028 * k as f32))
            .filter(|&f| f > hem)
            .find(|&f| self.legs_inside(f));
        let rule = match start {
            None => Rule::Inferred(None),
            Some(f) => self
                .stubs(f, hem)
                .map_or(Rule::Measured(f), |why| Rule::Inferred(Some(why))),
        };
        let ankle = match rule {
            Rule::Measured(start) => {
                self.notes.push(format!(
                    "legs under cloth, measured: the cut at {:.0}% of the height \
                     shows the legs inside a cloth loop (perimeter {:.3}, hem at {:.1}%); \
                     they are measured on the loops inside it",
                    100.0 * start,
                    cloth.perimeter,
                    100.0 * hem
                ));
                self.cloth = true;
                let r = self
                    .crotch_and_hip(side, start)
                    .and_then(|(crotch_y, hip)| self.ankle_and_knee(side, crotch_y, hip));
                self.cloth = false;
                r?
            }
            Rule::Inferred(stubs) => self.infer_legs(side, hem, &cloth, stubs)?,
        };
        self.foot(side, ankle)
    }

    /// Why the legs that show inside the cloth from height fraction `start` are no
    /// whole legs to measure (`None` when they are): a leg is a closed section on this
    /// side every 1% H from `start` down to just above the hem at `hem`, and going up
    /// it merges into a pelvis that lies inside the cloth. Leg stubs (a leg modelled
    /// only down to the knee, remnants of a leg cut away) would otherwise be measured
    /// as legs, and the cloth, once no leg shows inside it, taken for the pelvis.
    fn stubs(&self, start: f32, hem: f32) -> Option<String> {
        let h = self.h;
        // This side's leg-sized loops of the cut at `f` (the cloth dropped): whether
        // one is closed, and whether any shows.
        let leg = |f: f32| {
            let legs: Vec<Loop> = self
                .skin_cut(self.y(f))
                .into_iter()
                .filter(|l| {
                    l.lo.x > self.cx && l.center.x < self.cx + 0.2 * h && l.perimeter > LEG_MIN * h
                })
                .collect();
            (legs.iter().any(|l| l.closed), !legs.is_empty())
        };
        let mut f = start;
        while f > hem + 0.01 {
            let (closed, any) = leg(f);
            if !closed {
                let what = if any { "are open strips" } else { "stop" };
                return Some(format!(
                    "the leg sections inside the cloth {what} at {:.0}% of the height, \
                     above the hem at {:.1}% (leg stubs or remnants)",
                    100.0 * f,
                    100.0 * hem
                ));
            }
            f -= 0.01;
        }
        let mut f = start;
        while f < 0.8 {
            f += 0.01;
            let all = self.hcut(self.y(f));
            let Some(pelvis) = self
                .skin_of(&all)
                .into_iter()
                .filter(|l| self.spans(l))
                .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
            else {
                continue;
            };
            return if all.iter().any(|o| encloses(o, &pelvis)) {
                None
            } else {
                Some(format!(
                    "the legs inside the cloth end at {:.0}% of the height with no pelvis \
                     inside the cloth above them (leg stubs)",
                    100.0 * f
                ))
            };
        }
        None
    }

    /// Whether the cut at height fraction `f`, its cloth dropped, shows one leg on this
    /// side and nothing around the centre.
    fn legs_inside(&self, f: f32) -> bool {
        let cut = self.skin_cut(self.y(f));
        let here = cut
            .iter()
            .filter(|l| l.lo.x > self.cx && l.perimeter > LEG_MIN * self.h)
            .count();
        here == 1 && !cut.iter().any(|l| self.spans(l))
    }

    /// The "inferred under cloth" rule (module docs): crotch, hip, ankle and knee;
    /// returns the ankle.
    fn infer_legs(
        &mut self,
        side: &str,
        hem: f32,
        cloth: &Loop,
        stubs: Option<String>,
    ) -> Result<Vec3> {
        let h = self.h;
        // The pelvis inside the cloth: the lowest cut above the hem, at most
        // CROTCH_MAX up, whose loops, the cloth dropped, span the centre.
        let mut f = hem.max(0.1);
        let pelvis = loop {
            if f > CROTCH_MAX {
                break None;
            }
            let all = self.hcut(self.y(f));
            let skin = self.skin_of(&all);
            if skin.len() < all.len() && skin.iter().any(|l| self.spans(l)) {
                break Some(f);
            }
            f += 0.005;
        };
        let (crotch_f, how, conf) = match pelvis {
            Some(f) => (f, "the pelvis shows inside the cloth", 0.7),
            None => (
                CROTCH_F,
                "no pelvis inside the cloth: a fixed share of the height",
                0.4,
            ),
        };
        let crotch_y = self.y(crotch_f);
        let hip_y = crotch_y + HIP_Y * h;
        // The ankle from the foot just below the hem: its first round section, else
        // the highest one below the hem.
        let mut al: Option<Loop> = None;
        let mut g = 0.02;
        while g < hem {
            if let Some(l) = self.leg_loop(self.y(g)) {
                let e = l.extent();
                let round = e.z < 1.3 * e.x;
                al = Some(l);
                if round {
                    break;
                }
            }
            g += 0.0025;
        }
        let al = al.ok_or_else(|| {
            Error::stage(
                "fit",
                format!(
                    "ankle: no {side} foot section below the hem at {:.1}% of the height",
                    100.0 * hem
                ),
            )
        })?;
        let ankle = Vec3::new(al.center.x, self.floor + ANK_H * h, al.center.z + ANK_Z * h);
        // The hip across the pelvis section (the cloth dropped) at its height, else
        // above the ankle.
        let pel = self
            .skin_cut(hip_y)
            .into_iter()
            .filter(|l| self.spans(l))
            .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter));
        let hip = match (&pel, pelvis) {
            (Some(l), Some(_)) => Vec3::new(
                self.cx + HIP_W * (l.hi.x - self.cx),
                hip_y,
                l.center.z + HIP_ZP * h,
            ),
            _ => Vec3::new(ankle.x, hip_y, cloth.center.z + HIP_ZP * h),
        };
        let knee = ankle + KNEE_T * (hip - ankle) + Vec3::new(0.0, 0.0, KNEE_FWD * h);
        let inside = stubs.unwrap_or_else(|| {
            format!(
                "no legs inside the cloth loop at 25% of the height (perimeter {:.3})",
                cloth.perimeter
            )
        });
        self.notes.push(format!(
            "legs inferred under cloth: {inside}; the crotch at {:.0}% ({how}), the ankle \
             from the foot below the hem at {:.1}%, the knee on the line from hip to ankle",
            100.0 * crotch_f,
            100.0 * hem
        ));
        let method = "legs inferred under cloth";
        self.put(
            "crotch_c",
            Vec3::new(self.cx, crotch_y, cloth.center.z),
            &format!("{method}: {how}"),
            conf,
        );
        self.put(
            "hip",
            hip,
            &format!("{method}: above the crotch, across the pelvis"),
            conf,
        );
        self.put(
            "ankle_round",
            al.center,
            &format!("{method}: foot below the hem"),
            0.7,
        );
        self.put(
            "ankle",
            ankle,
            &format!("{method}: foot below the hem"),
            0.7,
        );
        self.put(
            "knee",
            knee,
            &format!("{method}: on the line from hip to ankle"),
            0.5,
        );
        Ok(ankle)
    }
}
