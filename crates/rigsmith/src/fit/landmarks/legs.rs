//! Legs: the crotch, hips, knees, ankles, heels, balls and toes, from horizontal
//! cuts (see the module docs of [`super`]).

use super::*;

// ---- calibration (units of H unless stated; measured on the MakeHuman base body) ----

/// Hip joint height above the crotch.
pub(super) const HIP_Y: f32 = 0.052;
/// Hip joint x as a fraction of the thigh centre's distance from the centre plane.
const HIP_X: f32 = 1.0;
/// Hip joint depth offset from the thigh centre.
const HIP_Z: f32 = -0.018;
/// Ankle height above the floor.
pub(super) const ANK_H: f32 = 0.042;
/// Ankle depth offset from that section's centre.
pub(super) const ANK_Z: f32 = 0.001;
/// Knee height as a fraction from ankle to hip.
pub(super) const KNEE_T: f32 = 0.503;
/// Knee depth offset from the leg section's centre.
const KNEE_Z: f32 = 0.0;
/// Ball of the foot: fraction from heel to toe tip.
const BALL_T: f32 = 0.712;
/// Ball height above the floor.
const BALL_Y: f32 = 0.005;

impl Side<'_> {
    pub(super) fn legs(&mut self, side: &str) -> Result<()> {
        let start = match self.legs_apart(side) {
            Ok(s) => s,
            // A loop around the centre: legs inside a robe or a long dress?
            Err(e) => return self.legs_under_cloth(side, e),
        };
        let (crotch_y, hip) = self.crotch_and_hip(side, start)?;
        let ankle = self.ankle_and_knee(side, crotch_y, hip)?;
        self.foot(side, ankle)
    }

    /// The height fraction where two separate legs show (25%, lower for short legs);
    /// an error when the cut there is not two legs.
    fn legs_apart(&mut self, side: &str) -> Result<f32> {
        let h = self.h;
        // Legs are looked for at 25% of the height; short-legged (stylized, big-headed)
        // figures whose cut there is one body section are looked at lower, down to 8%.
        let two_legs = |f: f32| {
            let cut = self.hcut(self.y(f));
            let left = cut
                .iter()
                .filter(|l| l.lo.x > self.cx && l.perimeter > 0.05 * h)
                .count();
            let spanning = cut.iter().any(|l| l.lo.x < self.cx && l.hi.x > self.cx);
            left == 1 && !spanning
        };
        let start = if two_legs(0.25) {
            0.25
        } else {
            (0..6)
                .map(|k| 0.22 - 0.028 * k as f32)
                .find(|&f| two_legs(f))
                .unwrap_or(0.25)
        };
        if start < 0.25 {
            self.notes.push(format!(
                "{side} leg: the legs separate only below 25% of the height (found at {:.0}%): short legs",
                100.0 * start
            ));
        }
        let y25 = self.y(start);
        let cut = self.hcut(y25);
        let big = |l: &&Loop| l.perimeter > 0.05 * h;
        let this_side = cut.iter().filter(|l| l.lo.x > self.cx).filter(big).count();
        if this_side > 1 {
            return Err(Error::stage(
                "fit",
                format!(
                    "crotch: the cut at {:.0}% of the height (y = {y25:.3}) shows {this_side} leg \
                     sections on the {side} side [{}]: not a biped (a quadruped?)",
                    100.0 * start,
                    describe(&cut)
                ),
            ));
        }
        let spanning = cut.iter().any(|l| l.lo.x < self.cx && l.hi.x > self.cx);
        if spanning || this_side == 0 {
            return Err(Error::stage(
                "fit",
                format!(
                    "crotch: the cut at {:.0}% of the height (y = {y25:.3}) shows {} loop(s) \
                     [{}] where two separate legs, one each side of x = {:.3}, were expected \
                     ({} leg): not a standing biped, or legs not separated",
                    100.0 * start,
                    cut.len(),
                    describe(&cut),
                    self.cx,
                    side
                ),
            ));
        }
        Ok(start)
    }

    /// The crotch (where the legs merge, by bisection) and the hip joint above it:
    /// returns the crotch height and the hip.
    pub(super) fn crotch_and_hip(&mut self, side: &str, start: f32) -> Result<(f32, Vec3)> {
        let h = self.h;
        // Crotch: first cut, going up, where one loop spans the centre.
        let mut below = start;
        let mut above = None;
        let mut f = start;
        while f < 0.8 {
            f += 0.01;
            if self.central_loop(self.y(f)).is_some() {
                above = Some(f);
                break;
            }
            below = f;
        }
        let Some(mut above) = above else {
            return Err(Error::stage(
                "fit",
                format!(
                    "crotch: no horizontal cut between 25% and 80% of the height joins the \
                     legs into one body section ({side} leg); the legs never meet a torso"
                ),
            ));
        };
        for _ in 0..7 {
            let mid = 0.5 * (below + above);
            if self.central_loop(self.y(mid)).is_some() {
                above = mid;
            } else {
                below = mid;
            }
        }
        let crotch_y = self.y(below);
        let thigh = self.leg_loop(crotch_y - 0.02 * h).ok_or_else(|| {
            Error::stage(
                "fit",
                format!("hip: no {side} thigh section just below the crotch"),
            )
        })?;
        let (cb, cf) = self
            .back_front(self.y(above) + 0.005 * h)
            .unwrap_or((thigh.lo.z, thigh.hi.z));
        self.put(
            "crotch_c",
            Vec3::new(self.cx, crotch_y, 0.5 * (cb + cf)),
            "sections: legs merge",
            1.0,
        );
        self.put(
            "thigh_top",
            thigh.center,
            "sections: thigh centre below the crotch",
            1.0,
        );
        let hip = Vec3::new(
            self.cx + HIP_X * (thigh.center.x - self.cx),
            crotch_y + HIP_Y * h,
            thigh.center.z + HIP_Z * h,
        );
        self.put(
            "hip",
            hip,
            "sections: above the crotch, inside the thigh",
            0.9,
        );
        Ok((crotch_y, hip))
    }

    /// The ankle (the first round leg section from the floor, else the narrowest of
    /// the lower leg) and the knee between it and the hip: returns the ankle.
    pub(super) fn ankle_and_knee(&mut self, side: &str, crotch_y: f32, hip: Vec3) -> Result<Vec3> {
        let h = self.h;
        // Ankle: first round leg section from the floor.
        let mut ankle = None;
        let mut f = 0.01;
        while self.y(f) < crotch_y - 0.1 * h {
            if let Some(l) = self.leg_loop(self.y(f)) {
                let e = l.extent();
                if e.z < 1.3 * e.x && f > 0.02 {
                    ankle = Some(l);
                    break;
                }
            }
            f += 0.005;
        }
        // Short stylized legs (boots, no round ankle): the narrowest leg section in the
        // lower half of the leg, as an estimate.
        let mut ankle_conf = 0.9;
        if ankle.is_none() {
            let mut f = 0.02;
            let mut best: Option<Loop> = None;
            while self.y(f) < self.floor + 0.5 * (crotch_y - self.floor) {
                if let Some(l) = self.leg_loop(self.y(f)) {
                    if best.as_ref().map_or(true, |b| l.perimeter < b.perimeter) {
                        best = Some(l);
                    }
                }
                f += 0.005;
            }
            if best.is_some() {
                ankle_conf = 0.5;
                self.notes.push(format!(
                    "{side} ankle: no round leg section; the narrowest section of the lower leg is used"
                ));
            }
            ankle = best;
        }
        let Some(al) = ankle else {
            return Err(Error::stage(
                "fit",
                format!("ankle: no round {side} leg section between the floor and the knee"),
            ));
        };
        let ankle = Vec3::new(al.center.x, self.floor + ANK_H * h, al.center.z + ANK_Z * h);
        self.put(
            "ankle_round",
            al.center,
            "sections: first round leg section",
            1.0,
        );
        self.put(
            "ankle",
            ankle,
            "sections: first round leg section",
            ankle_conf,
        );
        let ky = ankle.y + KNEE_T * (hip.y - ankle.y);
        let kl = self.leg_loop(ky).ok_or_else(|| {
            Error::stage("fit", format!("knee: no {side} leg section at y = {ky:.3}"))
        })?;
        self.put(
            "knee",
            Vec3::new(kl.center.x, ky, kl.center.z + KNEE_Z * h),
            "sections: leg centre between hip and ankle",
            0.85,
        );
        Ok(ankle)
    }

    /// Heel, toe and ball from the foot's vertices below the ankle.
    pub(super) fn foot(&mut self, side: &str, ankle: Vec3) -> Result<()> {
        let h = self.h;
        // Foot: vertices below the ankle near it.
        let foot: Vec<Vec3> = self
            .m
            .positions
            .iter()
            .copied()
            .filter(|p| {
                p.y < ankle.y
                    && p.x > self.cx
                    && (p.x - ankle.x).abs() < 0.1 * h
                    && (p.z - ankle.z).abs() < 0.2 * h
            })
            .collect();
        if foot.len() < 3 {
            return Err(Error::stage(
                "fit",
                format!("ball: no {side} foot below the ankle"),
            ));
        }
        let (flo, fhi) = bounds(&foot);
        let heel_z = flo.z;
        let toe_z = fhi.z;
        let bz = heel_z + BALL_T * (toe_z - heel_z);
        let near = |z: f32, w: f32| -> Vec3 {
            let sel: Vec<Vec3> = foot
                .iter()
                .copied()
                .filter(|p| (p.z - z).abs() < w)
                .collect();
            if sel.is_empty() {
                Vec3::new(ankle.x, 0.0, z)
            } else {
                sel.iter().copied().sum::<Vec3>() / sel.len() as f32
            }
        };
        let ball_x = near(bz, 0.01 * h).x;
        self.put(
            "heel",
            Vec3::new(near(heel_z, 0.01 * h).x, self.floor, heel_z),
            "sections: rearmost foot point",
            1.0,
        );
        self.put(
            "toe",
            {
                let tn = near(toe_z - 0.015 * h, 0.01 * h);
                Vec3::new(tn.x, tn.y, toe_z)
            },
            "sections: foremost foot point",
            1.0,
        );
        self.put(
            "ball",
            Vec3::new(ball_x, self.floor + BALL_Y * h, bz),
            "sections: along the foot from heel to toe",
            0.85,
        );
        Ok(())
    }
}
