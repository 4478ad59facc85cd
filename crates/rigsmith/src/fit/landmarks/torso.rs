//! Torso: the spine joints, the neck and the head, from central sections (see the
//! module docs of [`super`]).

use super::*;

// ---- calibration (units of H unless stated; measured on the MakeHuman base body) ----

/// Spine joints (pelvis, spine_01, spine_02, spine_03, neck base) as fractions of the
/// height from the hip joints to the neck's narrowest section: `A + B r`, where `r` is
/// the head's share of the height (neck to top, clamped to 0.1..0.3): big-headed
/// bodies (babies, children, stylized figures) carry the spine joints higher.
const SPINE_A: [f32; 5] = [-0.0897, 0.0978, 0.1407, 0.1811, 0.8377];
/// See [`SPINE_A`].
const SPINE_B: [f32; 5] = [0.7787, 0.3875, 0.9270, 1.5754, 0.9259];
/// Depth of those joints as fractions from the back (0) to the front (1).
// Measured fractions; 0.318 is not 1/pi.
#[allow(clippy::approx_constant)]
const SPINE_G: [f32; 5] = [0.393, 0.182, 0.210, 0.214, 0.318];
/// The neck's base joint lies at least this fraction of the narrowest neck section's
/// depth in front of that section's back. Its depth is otherwise taken at its own
/// height, a little below the narrowest section, where a character whose neck rises
/// from a high trapezius (Quaternius' `men_Casual`: the body piece's shoulders slope up
/// behind the head piece's neck) has its back 6 cm behind the neck's: the base fell
/// 3 cm behind the neck, the neck bone leaned 30 degrees forward, and a head turn
/// swung the collar's front with it (92 new pairs at the collar and the chin; 14 at
/// this floor). On the 14 MakeHuman bodies the fitted base is 0.16-0.41 of the way
/// (the artist's 0.09-0.29), so the floor leaves them as they were.
const NECK_BACK_MIN: f32 = 0.15;
/// Head pivot as a fraction from the neck's narrowest section to the top.
const HEAD_F: f32 = 0.334;
/// Head pivot depth fraction from back to front.
const HEAD_G: f32 = 0.350;
/// The neck is narrower than the head above it and the chest below it by this factor.
const NECK_WIDER: f32 = 1.15;

impl Side<'_> {
    pub(super) fn torso(&mut self, side: &str) -> Result<()> {
        let h = self.h;
        let hip_y = self.points["hip"].position.y;
        let top = self.floor + h;
        // Neck: the narrowest central section with a wider one above it (the head) and
        // below it (the chest), from 10% H above the hips to the top. Sections are
        // sampled every 0.5% H; the upper samples are those of a search between 70% and
        // 97% of the height (what a human proportioned body needs), the lower ones reach
        // big-headed figures (a chibi's neck lies near half the height).
        let mut fs: Vec<f32> = Vec::new();
        let mut f = 0.70;
        while f < 0.97 {
            fs.push(f);
            f += 0.005;
        }
        let mut f = 0.695;
        while self.y(f) > hip_y + 0.1 * h && f > 0.3 {
            fs.push(f);
            f -= 0.005;
        }
        fs.sort_by(f32::total_cmp);
        let prof: Vec<(f32, f32)> = fs
            .iter()
            .filter_map(|&f| {
                let y = self.y(f);
                self.central_loop(y).map(|l| (y, l.perimeter))
            })
            .collect();
        let mut best: Option<(f32, f32)> = None;
        for (i, &(y, p)) in prof.iter().enumerate() {
            let above = prof[i + 1..].iter().map(|q| q.1).fold(0.0f32, f32::max);
            let below = prof[..i].iter().map(|q| q.1).fold(0.0f32, f32::max);
            if above >= NECK_WIDER * p && below >= NECK_WIDER * p && best.map_or(true, |b| p < b.1)
            {
                best = Some((y, p));
            }
        }
        // No section with a wider head above it: the narrowest between 70% and 97%.
        if best.is_none() {
            for &(y, p) in prof.iter().filter(|q| q.0 >= self.y(0.70)) {
                if best.map_or(true, |b| p < b.1) {
                    best = Some((y, p));
                }
            }
        }
        let Some((neck_y, _)) = best else {
            return Err(Error::stage(
                "fit",
                format!("neck: no body section crosses the centre plane above the hips ({side})"),
            ));
        };
        // The head's own top: the highest central section. Ears, horns or a crest
        // higher than the head (two loops off the centre) do not count.
        let top = {
            let mut f = 1.0;
            while f > 0.5 && self.central_loop(self.y(f - 0.0025)).is_none() {
                f -= 0.005;
            }
            if 1.0 - f > 0.02 {
                self.notes.push(format!(
                    "head top: the highest {:.0}% of the height is off the centre plane \
                     (ears, horns): the head's top is taken at {:.0}%",
                    100.0 * (1.0 - f),
                    100.0 * f
                ));
                self.y(f)
            } else {
                top
            }
        };
        let neck_bf = self.back_front(neck_y);
        self.put(
            "neck_narrowest_c",
            Vec3::new(self.cx, neck_y, neck_bf.map_or(0.0, |(b, f)| 0.5 * (b + f))),
            "sections: narrowest neck section",
            1.0,
        );
        self.put(
            "head_top_c",
            Vec3::new(
                self.cx,
                top,
                self.back_front(top - 0.02 * h)
                    .map_or(0.0, |(b, f)| 0.5 * (b + f)),
            ),
            "sections: highest point",
            1.0,
        );
        let names = [
            "pelvis_c",
            "spine_01_c",
            "spine_02_c",
            "spine_03_c",
            "neck_c",
        ];
        for (k, n) in names.iter().enumerate() {
            let r = ((top - neck_y) / h).clamp(0.1, 0.3);
            let y = hip_y + (SPINE_A[k] + SPINE_B[k] * r) * (neck_y - hip_y);
            let (b, fz) = self.back_front(y).ok_or_else(|| {
                Error::stage(
                    "fit",
                    format!(
                        "{}: no body section at y = {y:.3}",
                        n.trim_end_matches("_c")
                    ),
                )
            })?;
            let mut z = b + SPINE_G[k] * (fz - b);
            // The neck's base lies in the neck, not behind it (see NECK_BACK_MIN).
            if let (4, Some((nb, nf))) = (k, neck_bf) {
                z = z.max(nb + NECK_BACK_MIN * (nf - nb));
            }
            self.put(
                n,
                Vec3::new(self.cx, y, z),
                "sections: between back and front of the mid-line",
                0.9,
            );
        }
        // A head far bigger than a human's (a chibi's) has its pivot no higher above the
        // neck than a head of 30% of the height would (its share is clamped as for
        // the spine).
        let hy = neck_y + HEAD_F * (top - neck_y).min(0.3 * h);
        let (b, fz) = self.back_front(hy).unwrap_or((0.0, 0.0));
        self.put(
            "head_c",
            Vec3::new(self.cx, hy, b + HEAD_G * (fz - b)),
            "sections: above the narrowest neck section",
            0.9,
        );
        Ok(())
    }
}
