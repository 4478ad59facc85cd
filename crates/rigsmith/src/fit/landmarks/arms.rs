//! Arms: armpit, shoulder, clavicle, elbow and wrist, from cuts normal to X and to the
//! arm's axis (see the module docs of [`super`]).

use super::cloth::layer_over;
use super::*;

// ---- calibration (units of H unless stated; measured on the MakeHuman base body) ----

/// Shoulder joint offset from the armpit axis point: along the arm, up, forward.
const SH: [f32; 3] = [0.031, 0.0, 0.007];
/// Wrist offset from the narrowest section centre: along the arm, up, forward.
const WR: [f32; 3] = [0.026, 0.005, 0.022];
/// Elbow as a fraction from shoulder to wrist.
const ELB_T: f32 = 0.502;
/// Elbow offset from the section centre: along, up, forward.
const ELB: [f32; 3] = [0.028, 0.001, -0.0043];
/// Clavicle head: fraction of the shoulder's x offset, height above the shoulder,
/// depth fraction from back to front.
const CLAV: [f32; 3] = [0.137, 0.014, 0.573];

impl Side<'_> {
    pub(super) fn arm(&mut self, side: &str) -> Result<()> {
        let (centres, ax, entered) = self.arm_to_armpit(side)?;
        let (a, armpit_pt) = self.arm_axis(side, &centres, ax)?;
        self.wrist_to_clavicle(side, a, armpit_pt, entered)
    }

    /// Follows the arm inward from 65% of the half span until its section joins the
    /// trunk: the section centres along the way, the armpit plane's x, and whether the
    /// arm entered the trunk as a piece of its own.
    fn arm_to_armpit(&mut self, side: &str) -> Result<(Vec<Vec3>, f32, bool)> {
        let h = self.h;
        let crotch_y = self.points["crotch_c"].position.y;
        let neck_y = self.points["neck_narrowest_c"].position.y;
        // The arms' reach: the widest point between the crotch and the neck (ears, hair
        // or a hat brim wider than the arms lie above the neck).
        let xmax_all = self
            .m
            .positions
            .iter()
            .map(|p| p.x)
            .fold(f32::NEG_INFINITY, f32::max);
        let xmax = self
            .m
            .positions
            .iter()
            .filter(|p| p.y > crotch_y && p.y < neck_y)
            .map(|p| p.x)
            .fold(f32::NEG_INFINITY, f32::max);
        let xmax = if xmax > self.cx { xmax } else { xmax_all };
        let span = xmax - self.cx;
        let xcut = |x: f32| -> Vec<Loop> {
            self.xs
                .cut(Vec3::new(x, 0.0, 0.0))
                .into_iter()
                .filter(|l| l.perimeter > 0.01 * h)
                .collect()
        };
        let x0 = self.cx + 0.65 * span;
        let first = xcut(x0);
        // The arm: the highest loop between the crotch and the neck. A chain that does
        // not close (the edge of a sleeve welded on the arm, cut near its border) is
        // no limb section when a closed loop is there too.
        let band: Vec<&Loop> = first
            .iter()
            .filter(|l| l.center.y > crotch_y && l.center.y < neck_y)
            .collect();
        let any_closed = band.iter().any(|l| l.closed);
        let arm_first = band
            .into_iter()
            .filter(|l| l.closed || !any_closed)
            .max_by(|a, b| a.center.y.total_cmp(&b.center.y))
            .cloned();
        if arm_first.is_none() {
            if let Some(l) = first.iter().find(|l| l.center.y >= neck_y) {
                return Err(Error::stage(
                    "fit",
                    format!(
                        "armpit: the only {side} limb at 65% of the half span (x = {x0:.3}) is at \
                         y = {:.3}, above the neck's narrowest section (y = {neck_y:.3}): ears, \
                         hair or a hat wider than the arms, and no arm below them? Fit the body \
                         part alone",
                        l.center.y
                    ),
                ));
            }
        }
        let Some(mut cur) = arm_first else {
            return Err(Error::stage(
                "fit",
                format!(
                    "armpit: the cut at 65% of the {side} half span (x = {x0:.3}) shows no arm above the crotch [{}]",
                    describe(&first)
                ),
            ));
        };
        let mut centres = vec![cur.center];
        let mut x = x0;
        let step = 0.005 * h;
        let mut armpit = None;
        while x > self.cx + 0.02 * h {
            x -= step;
            let loops = xcut(x);
            // A sleeve modelled on the arm (one mesh with it) is a layer over the arm's
            // own loop: the arm is followed inside it. What lies inside must be a closed
            // loop: the arm is no layer over the open edge of its sleeve.
            let encl = |o: &Loop, i: &Loop| o.closed && inside_yz(&o.points, i.center);
            let sleeve = |o: &Loop| {
                loops
                    .iter()
                    .any(|i| !std::ptr::eq(o, i) && i.closed && encl(o, i) && layer_over(o, i, h))
            };
            let Some(nx) = loops
                .iter()
                .filter(|l| !sleeve(l))
                .min_by(|a, b| {
                    (a.center - cur.center)
                        .length()
                        .total_cmp(&(b.center - cur.center).length())
                })
                .cloned()
            else {
                break;
            };
            // An arm modelled as its own closed piece pushed into the torso (not welded
            // to it) keeps its own loop inside the torso's: it has entered the trunk
            // when its centre lies inside a longer loop of the same cut that is no
            // sleeve over it.
            let entered = loops
                .iter()
                .any(|l| l.perimeter > nx.perimeter && encl(l, &nx) && !layer_over(l, &nx, h));
            if entered
                || nx.perimeter > 1.5 * cur.perimeter
                || (nx.center - cur.center).length() > 0.05 * h
            {
                armpit = Some((x + step, cur.clone(), entered));
                break;
            }
            cur = nx;
            centres.push(cur.center);
        }
        let Some((ax, al, entered)) = armpit else {
            return Err(Error::stage(
                "fit",
                format!("armpit: following the {side} arm inward from x = {x0:.3}, its section never joined the torso"),
            ));
        };
        // A biped's arm leaves the trunk outside its neck: an arm section that stays
        // separate only inside the neck's half width is no arm hanging free of the body
        // (arms fused to the sides, a cloak over them).
        let neck_half = self
            .central_loop(neck_y)
            .map_or(0.0, |l| 0.5 * (l.hi.x - l.lo.x));
        if ax - self.cx <= neck_half {
            return Err(Error::stage(
                "fit",
                format!(
                    "armpit: the {side} arm section joins the body {:.1}% of the height from \
                     the centre, inside the neck's half width ({:.1}% H): arms fused to the \
                     body (no gap under the arm)?",
                    100.0 * (ax - self.cx) / h,
                    100.0 * neck_half / h
                ),
            ));
        }
        let _ = al;
        Ok((centres, ax, entered))
    }

    /// The arm's axis (a line through the outer 80% of the section centres) and the
    /// armpit point on it; sets the arm angle.
    fn arm_axis(&mut self, side: &str, centres: &[Vec3], ax: f32) -> Result<(Vec3, Vec3)> {
        // Arm axis: line fit through the centres (outer 80%, away from the armpit bulge).
        let n = centres.len();
        if n < 4 {
            return Err(Error::stage(
                "fit",
                format!("armpit: the {side} arm is shorter than 4 sections ({n}): arms touching the body?"),
            ));
        }
        let use_c = &centres[..(n * 4 / 5).max(3)];
        let mean = use_c.iter().copied().sum::<Vec3>() / use_c.len() as f32;
        let mut cov = Mat3::ZERO;
        for c in use_c {
            let d = *c - mean;
            cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let mut a = principal_axis(cov);
        if a.x < 0.0 {
            a = -a;
        }
        let arm_angle = (-a.y).atan2(a.x).to_degrees();
        self.arm_angle = arm_angle;
        // Armpit point on the axis at the armpit plane.
        let t = (ax - mean.x) / a.x.max(1e-3);
        let armpit_pt = mean + a * t;
        self.put(
            "armpit",
            armpit_pt,
            "sections: arm section joins the torso",
            1.0,
        );
        self.axes.insert("arm".into(), a);
        Ok((a, armpit_pt))
    }

    /// Wrist (the narrowest section of the outer arm), shoulder, elbow and clavicle,
    /// then the hand.
    fn wrist_to_clavicle(
        &mut self,
        side: &str,
        a: Vec3,
        armpit_pt: Vec3,
        entered: bool,
    ) -> Result<()> {
        let h = self.h;
        let up = (Vec3::Y - a * a.y).normalize_or_zero();
        let fwd = a.cross(up).normalize_or_zero() * -1.0; // +Z-ish for the left arm
        let fwd = if fwd.z < 0.0 { -fwd } else { fwd };
        let frame = |p: Vec3, o: [f32; 3]| p + h * (o[0] * a + o[1] * up + o[2] * fwd);
        // Cuts normal to the axis over the outer part of the arm (wrist search).
        let tip_s = self
            .m
            .positions
            .iter()
            .filter(|p| {
                let d = **p - armpit_pt;
                (d - a * d.dot(a)).length() < 0.1 * h
            })
            .map(|p| (*p - armpit_pt).dot(a))
            .fold(0.0f32, f32::max);
        let along = Slicer::new(self.m, a, 256);
        let mut prof: Vec<(f32, Loop)> = Vec::new();
        let mut s = 0.55 * tip_s;
        while s < 0.9 * tip_s {
            let p = armpit_pt + a * s;
            let loops: Vec<Loop> = along
                .cut(p)
                .into_iter()
                .filter(|l| l.perimeter > 0.002 * h && (l.center - p).length() < 0.06 * h)
                .collect();
            // The hand begins where the arm's section splits into digits (a thumb
            // or fingers modelled apart): the narrowest section is looked for before.
            if prof.last().is_some_and(|(_, prev)| splits(prev, &loops)) {
                break;
            }
            let near = loops
                .into_iter()
                .min_by(|x, y| (x.center - p).length().total_cmp(&(y.center - p).length()));
            if let Some(l) = near {
                prof.push((s, l));
            }
            s += 0.004 * h;
        }
        if prof.len() < 5 || tip_s <= 0.0 {
            return Err(Error::stage(
                "fit",
                format!(
                    "wrist: the {side} arm could not be followed beyond the armpit ({} sections)",
                    prof.len()
                ),
            ));
        }
        let wrist = prof
            .iter()
            .filter(|(s, _)| *s > 0.6 * tip_s && *s < 0.85 * tip_s)
            .min_by(|x, y| x.1.perimeter.total_cmp(&y.1.perimeter))
            .ok_or_else(|| {
                Error::stage(
                    "fit",
                    format!("wrist: no {side} arm section between 60% and 85% of the arm"),
                )
            })?;
        let (ws, wl) = (wrist.0, wrist.1.clone());
        self.put(
            "wrist_narrowest",
            wl.center,
            "sections: narrowest arm section",
            1.0,
        );
        // An arm pushed into the trunk turns at the trunk's surface: the joint is where
        // it enters, not out along it.
        let shoulder = if entered {
            armpit_pt
        } else {
            frame(armpit_pt, SH)
        };
        let wrist_p = frame(wl.center, WR);
        self.put(
            "shoulder",
            shoulder,
            "sections: deep inside the armpit section, below the clavicle",
            0.85,
        );
        self.put("wrist", wrist_p, "sections: narrowest arm section", 0.9);
        let ss = (shoulder - armpit_pt).dot(a);
        let es = ss + ELB_T * (ws - ss);
        let ep = armpit_pt + a * es;
        let el = along
            .cut(ep)
            .into_iter()
            .filter(|l| (l.center - ep).length() < 0.06 * h)
            .min_by(|x, y| {
                (x.center - ep)
                    .length()
                    .total_cmp(&(y.center - ep).length())
            })
            .map_or(ep, |l| l.center);
        self.put(
            "elbow",
            frame(el, ELB),
            "sections: arm centre between shoulder and wrist",
            0.85,
        );
        let (b, fz) = self
            .back_front(shoulder.y + CLAV[1] * h)
            .unwrap_or((shoulder.z, shoulder.z));
        self.put(
            "clavicle",
            Vec3::new(
                self.cx + CLAV[0] * (shoulder.x - self.cx),
                shoulder.y + CLAV[1] * h,
                b + CLAV[2] * (fz - b),
            ),
            "sections: high and deep, near the sternum",
            0.8,
        );
        self.hand(side, wl.center, a)?;
        Ok(())
    }
}

/// Whether the section `prev` of a limb has split into two or more pieces in the next
/// cut's `loops`: at least two loops centred within 1.5 times its radius of its centre,
/// neither within the other's box (a sleeve around the arm is no split).
fn splits(prev: &Loop, loops: &[Loop]) -> bool {
    let near: Vec<&Loop> = loops
        .iter()
        .filter(|l| (l.center - prev.center).length() < 1.5 * prev.radius)
        .collect();
    let nested = |a: &Loop, b: &Loop| a.lo.cmpge(b.lo).all() && a.hi.cmple(b.hi).all();
    near.iter()
        .enumerate()
        .any(|(i, a)| near[i + 1..].iter().any(|b| !nested(a, b) && !nested(b, a)))
}

/// Whether `p` lies inside the closed polygon `pts` (a cut normal to X), judged in
/// the (y, z) plane by the crossing rule.
pub(super) fn inside_yz(pts: &[Vec3], p: Vec3) -> bool {
    super::cloth::inside_axes(pts, p, 1, 2)
}
