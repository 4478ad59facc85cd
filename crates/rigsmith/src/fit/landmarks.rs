//! Landmarks: where the joints of a standing biped are, found from cross-sections.
//!
//! Everything is measured in units of the body height `H` (so the same body at 0.3x or
//! 100x gives the same landmarks, scaled) in glTF space (+Y up, facing +Z, left +X).
//! The left side is measured on the mesh and the right side on its mirror image about
//! the body's centre plane, then both are averaged so that left and right mirror
//! exactly.
//!
//! How each landmark is found (the `method` string of every [`Landmark`] says which):
//!
//! * **Legs.** A horizontal cut at 25% of `H` must show two leg loops, one each side of
//!   the centre. Cuts move up until one loop spans the centre: the **crotch** (refined
//!   by bisection). The **hip** joint sits above the crotch, inside the thigh; the
//!   **ankle** is the first cut from the floor where the leg section turns round; the
//!   **knee** lies between them, in the middle of the leg section. The foot's
//!   vertices below the ankle give the **heel**, **toe** tip and **ball**.
//! * **Torso.** The neck is the narrowest central section with a wider one above it
//!   (the head) and below it (the chest), from just above the hips to the top, so a
//!   chibi's neck near half its height is found as a human's. The spine joints lie at
//!   fixed fractions between the hips and the narrowest section of the neck, and in
//!   depth at a fixed fraction between the back and the front of the body's mid-line
//!   section (the spine sits behind the middle).
//!   The **head** pivot sits above the neck's narrowest section, **head_top** is the
//!   highest section crossing the centre plane (ears or horns higher than the head
//!   are left out).
//! * **Arms.** Planes normal to X, moved inward from 65% of the half span (the widest
//!   point below the neck), follow the highest limb below the neck until the loop's
//!   perimeter jumps or its centre enters a longer loop (an arm piece pushed into the
//!   trunk) (the **armpit**); the loop centres give the arm's axis (and the arm angle:
//!   T pose 0 deg, A pose up to 60 deg below horizontal). Cuts normal to that axis
//!   give the **wrist** (narrowest section in the outer part of the arm); the
//!   **shoulder** joint lies deep, below the clavicle, inward of the armpit; the
//!   **elbow** between shoulder and wrist.
//! * **Hands.** The hand's principal axes give a frame (length, thumb side, palm
//!   normal); the five finger chains (thumb included), three joints and a tip each,
//!   and the knuckle line come from a hand template scaled to the measured hand and
//!   then centred in each finger's own section.
//! * **Face.** Eyes from eye parts (the mean of their vertices on each side of the
//!   centre plane) when present, else in front of the deepest point of each eye
//!   socket (horizontal cuts of the face), else an estimate from the head proportions
//!   (confidence 0.4); nose tip = most forward
//!   point of the face above its lowest quarter; chin = lowest forward point of the
//!   face above the neck; jaw pivot estimated between them, behind.
//!
//! Overrides replace a landmark by name (method `override`, confidence 1).
//!
//! Bad input is an error naming the landmark that could not be found and what the
//! sections showed: no mesh, a mesh lying down, not a biped, legs not separated, arms
//! touching the body.

use std::collections::BTreeMap;

use glam::{Mat3, Vec3};
use serde::Serialize;

use super::sections::{bounds, cross_sections, Loop, Slicer};
use crate::error::{Error, Result};
use crate::model::{Character, Mesh};

/// One landmark: a point, how it was found, and how sure the finder is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Landmark {
    /// Position, metres, glTF space.
    pub position: Vec3,
    /// How it was found (`sections: ...`, `template: ...`, `override`).
    pub method: String,
    /// Confidence in [0, 1]: 1 measured directly, lower for estimates.
    pub confidence: f32,
}

/// All landmarks of a character.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Landmarks {
    /// Body height `H` (metres): vertical extent of the body part.
    pub height: f32,
    /// The floor (lowest body point), metres.
    pub floor: f32,
    /// X of the body's centre plane, metres.
    pub center_x: f32,
    /// `"T"` (arms within 20 deg of horizontal) or `"A"`.
    pub pose: String,
    /// Mean arm angle below horizontal, degrees.
    pub arm_angle_deg: f32,
    /// Landmarks by name (`crotch`, `hip_l`, `knee_r`, `index_02_l`, ...).
    pub points: BTreeMap<String, Landmark>,
    /// Directions found (unit vectors): `arm_l` (shoulder to hand), `palm_normal_l`,
    /// `thumb_side_l` and the `_r` mirrors.
    pub axes: BTreeMap<String, Vec3>,
    /// Plain-words notes (what was estimated, what was odd).
    pub notes: Vec<String>,
}

impl Landmarks {
    /// The position of a landmark (panics never: `None` when absent).
    pub fn get(&self, name: &str) -> Option<Vec3> {
        self.points.get(name).map(|l| l.position)
    }
}

/// Options of [`find_landmarks`].
#[derive(Debug, Clone, Default)]
pub struct LandmarkOptions {
    /// The part to treat as the body; default: the part named `body`, else the part
    /// with the most vertices.
    pub body_part: Option<String>,
    /// Which parts are skin pieces, garments or rigid (overrides of
    /// [`crate::model::Body::of`]).
    pub parts: crate::model::BodyOptions,
    /// Landmarks to force, by name, metres in glTF space.
    pub overrides: Vec<(String, Vec3)>,
}

/// The finger names in template order (thumb first).
pub const FINGERS: [&str; 5] = ["thumb", "index", "middle", "ring", "pinky"];

// ---- calibration (units of H unless stated; measured on the MakeHuman base body) ----

/// Hip joint height above the crotch.
const HIP_Y: f32 = 0.052;
/// Hip joint x as a fraction of the thigh centre's distance from the centre plane.
const HIP_X: f32 = 1.0;
/// Hip joint depth offset from the thigh centre.
const HIP_Z: f32 = -0.018;
/// Ankle height above the floor.
const ANK_H: f32 = 0.042;
/// Ankle depth offset from that section's centre.
const ANK_Z: f32 = 0.001;
/// Knee height as a fraction from ankle to hip.
const KNEE_T: f32 = 0.503;
/// Knee depth offset from the leg section's centre.
const KNEE_Z: f32 = 0.0;
/// Ball of the foot: fraction from heel to toe tip.
const BALL_T: f32 = 0.712;
/// Ball height above the floor.
const BALL_Y: f32 = 0.005;
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
/// Head pivot as a fraction from the neck's narrowest section to the top.
const HEAD_F: f32 = 0.334;
/// Head pivot depth fraction from back to front.
const HEAD_G: f32 = 0.350;
/// The largest angle, degrees, between a hand's principal axis and the way from the
/// wrist to the centre of its outer half (beyond, that way is the hand's axis).
const HAND_AXIS_DEG: f32 = 20.0;
/// The neck is narrower than the head above it and the chest below it by this factor.
const NECK_WIDER: f32 = 1.15;

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

/// Hand template: joints in the hand frame (along the hand, toward the thumb side,
/// along the palm normal) in units of the hand length (wrist to finger tip). Rows:
/// thumb, index, middle, ring, pinky; four points each (three joints and the tip).
const HAND: [[[f32; 3]; 4]; 5] = [
    [
        [0.367, 0.159, -0.070],
        [0.406, 0.264, -0.009],
        [0.500, 0.376, 0.035],
        [0.590, 0.435, 0.078],
    ],
    [
        [0.635, 0.216, -0.110],
        [0.736, 0.256, -0.097],
        [0.822, 0.289, -0.066],
        [0.915, 0.328, -0.018],
    ],
    [
        [0.652, 0.107, -0.106],
        [0.790, 0.122, -0.076],
        [0.898, 0.144, -0.040],
        [0.998, 0.163, 0.008],
    ],
    [
        [0.645, 0.024, -0.088],
        [0.767, 0.016, -0.062],
        [0.865, 0.020, -0.028],
        [0.965, 0.019, 0.020],
    ],
    [
        [0.624, -0.054, -0.049],
        [0.708, -0.068, -0.021],
        [0.766, -0.072, 0.008],
        [0.840, -0.079, 0.046],
    ],
];
/// The hand bone's tail (the middle knuckle) in the hand frame.
const HAND_TAIL: [f32; 3] = [0.364, 0.068, -0.057];

/// Finds the landmarks of the character's body (see the module docs).
pub fn find_landmarks(c: &Character, o: &LandmarkOptions) -> Result<Landmarks> {
    let (body, what) = body_mesh(c, o)?;
    find_landmarks_on(c, &body, &what, o)
}

/// [`find_landmarks`] on a body mesh the caller has already taken from `c`
/// ([`body_mesh`]); `what` names it in messages.
pub(crate) fn find_landmarks_on(
    c: &Character,
    body: &Mesh,
    what: &str,
    o: &LandmarkOptions,
) -> Result<Landmarks> {
    body.validate(what)?;
    if body.positions.is_empty() || body.triangles.is_empty() {
        return Err(Error::stage(
            "fit",
            format!("body: {what} has no triangles: nothing to fit a skeleton to"),
        ));
    }
    let (lo, hi) = bounds(&body.positions);
    let ext = hi - lo;
    let h = ext.y;
    if !(h > 0.0) || h < 0.5 * ext.x.max(ext.z) {
        return Err(Error::stage(
            "fit",
            format!(
                "body: the mesh is {:.3} tall but {:.3} wide and {:.3} deep: a standing biped \
                 (+Y up) is expected; is it lying down?",
                ext.y, ext.x, ext.z
            ),
        ));
    }
    let cx = 0.5 * (lo.x + hi.x);
    // Left side on the mesh, right side on its mirror image.
    let mirrored = mirror_mesh(body, cx);
    let (left, right) = rayon::join(
        || Side::measure(body, lo, h, cx, "left"),
        || Side::measure(&mirrored, lo, h, cx, "right"),
    );
    let (left, right) = (left?, right?);
    let mut lm = Landmarks {
        height: h,
        floor: lo.y,
        center_x: cx,
        ..Default::default()
    };
    // Average the two sides (right mirrored back) so that they mirror exactly.
    let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    for (name, l) in &left.points {
        let (pos, conf) = match right.points.get(name) {
            Some(r) => (
                0.5 * (l.position + r.position),
                l.confidence.min(r.confidence),
            ),
            None => (l.position, l.confidence),
        };
        let centre = name.ends_with("_c");
        let base = name.trim_end_matches("_c").to_string();
        if centre {
            let p = Vec3::new(cx, pos.y, pos.z);
            lm.points.insert(
                base,
                Landmark {
                    position: p,
                    method: l.method.clone(),
                    confidence: conf,
                },
            );
        } else {
            lm.points.insert(
                format!("{base}_l"),
                Landmark {
                    position: pos,
                    method: l.method.clone(),
                    confidence: conf,
                },
            );
            lm.points.insert(
                format!("{base}_r"),
                Landmark {
                    position: mir(pos),
                    method: l.method.clone(),
                    confidence: conf,
                },
            );
        }
    }
    for (name, v) in &left.axes {
        let r = right.axes.get(name).copied().unwrap_or(*v);
        let a = (*v + r).normalize_or_zero();
        lm.axes.insert(format!("{name}_l"), a);
        lm.axes
            .insert(format!("{name}_r"), Vec3::new(-a.x, a.y, a.z));
    }
    lm.arm_angle_deg = 0.5 * (left.arm_angle + right.arm_angle);
    lm.pose = if lm.arm_angle_deg.abs() <= 20.0 {
        "T"
    } else {
        "A"
    }
    .to_string();
    lm.notes.extend(left.notes);
    lm.notes.extend(right.notes);
    face(c, body, &mut lm);
    for (name, p) in &o.overrides {
        if !p.is_finite() {
            return Err(Error::invalid(
                "landmark override",
                format!("{name:?} is not finite"),
            ));
        }
        lm.points.insert(
            name.clone(),
            Landmark {
                position: *p,
                method: "override".into(),
                confidence: 1.0,
            },
        );
    }
    Ok(lm)
}

/// The body to fit: the welded union of the character's skin pieces
/// ([`crate::model::Body`]), or the part named in the options. Returns the mesh and a
/// name for messages.
pub(crate) fn body_mesh(c: &Character, o: &LandmarkOptions) -> Result<(Mesh, String)> {
    if c.parts.is_empty() {
        return Err(Error::stage("fit", "body: the character has no mesh"));
    }
    if let Some(n) = &o.body_part {
        let i = c
            .find_part(n)
            .ok_or_else(|| Error::stage("fit", format!("body: there is no part named {n:?}")))?;
        return Ok((c.parts[i].mesh.clone(), format!("part {n:?}")));
    }
    if c.parts.len() == 1 {
        return Ok((
            c.parts[0].mesh.clone(),
            format!("part {:?}", c.parts[0].name),
        ));
    }
    let b = crate::model::Body::of(c, &o.parts)
        .map_err(|e| Error::stage("fit", format!("body: {e}")))?;
    let names: Vec<&str> = b.skin.iter().map(|&i| c.parts[i].name.as_str()).collect();
    let what = if names.len() == 1 {
        format!("part {:?}", names[0])
    } else {
        format!("the skin ({} parts: {})", names.len(), names.join(", "))
    };
    Ok((b.mesh, what))
}

fn mirror_mesh(m: &Mesh, cx: f32) -> Mesh {
    Mesh {
        positions: m
            .positions
            .iter()
            .map(|p| Vec3::new(2.0 * cx - p.x, p.y, p.z))
            .collect(),
        triangles: m.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect(),
        normals: None,
        uvs: None,
    }
}

fn at(p: Vec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", p.x, p.y, p.z)
}

fn describe(loops: &[Loop]) -> String {
    if loops.is_empty() {
        return "no loops".into();
    }
    let mut v: Vec<String> = loops
        .iter()
        .take(6)
        .map(|l| format!("centre {} perimeter {:.3}", at(l.center), l.perimeter))
        .collect();
    if loops.len() > 6 {
        v.push(format!("{} more", loops.len() - 6));
    }
    v.join("; ")
}

/// Landmarks of one side, measured on a mesh whose side of interest is +X. Names
/// ending in `_c` are on the centre plane.
struct Side<'a> {
    m: &'a Mesh,
    /// Horizontal cuts of `m`.
    ys: Slicer<'a>,
    /// Cuts of `m` normal to X.
    xs: Slicer<'a>,
    floor: f32,
    h: f32,
    cx: f32,
    points: BTreeMap<String, Landmark>,
    axes: BTreeMap<String, Vec3>,
    arm_angle: f32,
    notes: Vec<String>,
}

impl<'a> Side<'a> {
    fn y(&self, f: f32) -> f32 {
        self.floor + f * self.h
    }

    fn put(&mut self, name: &str, p: Vec3, method: &str, confidence: f32) {
        self.points.insert(
            name.to_string(),
            Landmark {
                position: p,
                method: method.to_string(),
                confidence,
            },
        );
    }

    fn hcut(&self, y: f32) -> Vec<Loop> {
        let min = 0.01 * self.h;
        self.ys
            .cut(Vec3::new(0.0, y, 0.0))
            .into_iter()
            .filter(|l| l.perimeter > min)
            .collect()
    }

    /// The largest loop of a horizontal cut strictly on the +X side of the centre.
    fn leg_loop(&self, y: f32) -> Option<Loop> {
        self.hcut(y)
            .into_iter()
            .filter(|l| l.lo.x > self.cx && l.center.x < self.cx + 0.2 * self.h)
            .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
    }

    /// The largest loop of a horizontal cut spanning the centre plane.
    fn central_loop(&self, y: f32) -> Option<Loop> {
        self.hcut(y)
            .into_iter()
            .filter(|l| l.lo.x < self.cx && l.hi.x > self.cx)
            .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
    }

    /// Back and front z of the body on the centre line at height `y` (or just above,
    /// up to 5% of the height, when the cut there misses the centre).
    fn back_front(&self, y: f32) -> Option<(f32, f32)> {
        let l = (0..10).find_map(|k| self.central_loop(y + k as f32 * 0.005 * self.h))?;
        let z = l.crossings(0, self.cx, 2);
        if z.len() >= 2 {
            Some((z[0], z[z.len() - 1]))
        } else {
            Some((l.lo.z, l.hi.z))
        }
    }

    fn measure(m: &'a Mesh, lo: Vec3, h: f32, cx: f32, side: &str) -> Result<Side<'a>> {
        let mut s = Side {
            m,
            ys: Slicer::new(m, Vec3::Y, 256),
            xs: Slicer::new(m, Vec3::X, 256),
            floor: lo.y,
            h,
            cx,
            points: BTreeMap::new(),
            axes: BTreeMap::new(),
            arm_angle: 0.0,
            notes: Vec::new(),
        };
        s.legs(side)?;
        s.torso(side)?;
        s.arm(side)?;
        Ok(s)
    }

    fn legs(&mut self, side: &str) -> Result<()> {
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

    fn torso(&mut self, side: &str) -> Result<()> {
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
        self.put(
            "neck_narrowest_c",
            Vec3::new(
                self.cx,
                neck_y,
                self.back_front(neck_y).map_or(0.0, |(b, f)| 0.5 * (b + f)),
            ),
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
            self.put(
                n,
                Vec3::new(self.cx, y, b + SPINE_G[k] * (fz - b)),
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

    fn arm(&mut self, side: &str) -> Result<()> {
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
        // The arm: the highest loop between the crotch and the neck.
        let arm_first = first
            .iter()
            .filter(|l| l.center.y > crotch_y && l.center.y < neck_y)
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
            let Some(nx) = loops
                .iter()
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
            // when its centre lies inside a longer loop of the same cut.
            let entered = loops
                .iter()
                .any(|l| l.perimeter > nx.perimeter && l.closed && inside_yz(&l.points, nx.center));
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
        let _ = al;
        self.axes.insert("arm".into(), a);
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
            let near = along
                .cut(p)
                .into_iter()
                .filter(|l| l.perimeter > 0.002 * h && (l.center - p).length() < 0.06 * h)
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

    fn hand(&mut self, side: &str, origin: Vec3, a: Vec3) -> Result<()> {
        let h = self.h;
        let pts: Vec<Vec3> = self
            .m
            .positions
            .iter()
            .copied()
            .filter(|p| {
                let d = *p - origin;
                d.dot(a) > 0.0 && (d - a * d.dot(a)).length() < 0.12 * h
            })
            .collect();
        if pts.len() < 10 {
            return Err(Error::stage(
                "fit",
                format!("hand: fewer than 10 {side} vertices beyond the wrist"),
            ));
        }
        let mean = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let mut cov = Mat3::ZERO;
        for p in &pts {
            let d = *p - mean;
            cov += Mat3::from_cols(d * d.x, d * d.y, d * d.z);
        }
        let (e1, _e2, e3) = principal_frame(cov);
        let mut d = e1;
        if d.dot(a) < 0.0 {
            d = -d;
        }
        // A wide hand (fingers spread, the thumb out) or a round fist has no reliable
        // long axis: the axis is checked against the way from the wrist to the centre
        // of the hand's outer half, and that way wins when they differ by more than
        // [`HAND_AXIS_DEG`].
        let reach = pts
            .iter()
            .map(|p| (*p - origin).dot(a))
            .fold(0.0f32, f32::max);
        let outer: Vec<Vec3> = pts
            .iter()
            .copied()
            .filter(|p| (*p - origin).dot(a) > 0.5 * reach)
            .collect();
        if !outer.is_empty() {
            let d2 = (outer.iter().copied().sum::<Vec3>() / outer.len() as f32 - origin)
                .normalize_or_zero();
            if d2 != Vec3::ZERO && d.dot(d2) < HAND_AXIS_DEG.to_radians().cos() {
                self.notes.push(format!(
                    "{side} hand: its long axis is {:.0} deg off the way to its outer half \
                     (fingers spread or a fist): that way is taken",
                    d.dot(d2).clamp(-1.0, 1.0).acos().to_degrees()
                ));
                d = d2;
            }
        }
        let mut n = (e3 - d * e3.dot(d)).normalize_or_zero();
        // Thumb side: forward (+Z) for a relaxed hand; the palm normal completes the frame.
        let mut w = n.cross(d).normalize_or_zero();
        if w.z < 0.0 {
            w = -w;
            n = -n;
        }
        let len = pts
            .iter()
            .map(|p| (*p - origin).dot(d))
            .fold(0.0f32, f32::max);
        self.axes.insert("hand".into(), d);
        self.axes.insert("thumb_side".into(), w);
        self.axes.insert("palm_normal".into(), n);
        let to = |c: [f32; 3]| origin + len * (c[0] * d + c[1] * w + c[2] * n);
        self.put(
            "hand_tip",
            origin + len * d,
            "sections: farthest hand point",
            1.0,
        );
        self.put(
            "knuckle",
            to(HAND_TAIL),
            "template: hand scaled to the measured hand",
            0.7,
        );
        // The hand alone (triangles with every corner beyond the wrist), cut many times.
        let near = |p: &Vec3| {
            let q = *p - origin;
            q.dot(a) > -0.01 * h && (q - a * q.dot(a)).length() < 0.12 * h
        };
        let hand_mesh = Mesh {
            positions: self.m.positions.clone(),
            triangles: self
                .m
                .triangles
                .iter()
                .copied()
                .filter(|t| t.iter().all(|&i| near(&self.m.positions[i as usize])))
                .collect(),
            normals: None,
            uvs: None,
        };
        let hand_solid = super::placement::Solid::new(&hand_mesh);
        let hand_bvh = crate::geom::bvh::Bvh::build(&hand_mesh.positions, &hand_mesh.triangles);
        // Separate digits or a mitten: count the loops across the finger region.
        let digits = cross_sections(&[&hand_mesh], origin + d * (0.8 * len), d)
            .into_iter()
            .filter(|l| l.perimeter > 0.002 * h)
            .count();
        let mitten = digits < 3;
        if mitten {
            self.notes.push(format!(
                "{side} hand: {digits} loop(s) across the fingers: a mitten; the finger \
                 chains are spread inside it"
            ));
        }
        for (fi, f) in FINGERS.iter().enumerate() {
            let chain: [Vec3; 4] = std::array::from_fn(|j| to(HAND[fi][j]));
            let mut chain_out: Vec<(Vec3, &str)> = Vec::with_capacity(4);
            if mitten {
                for (j, c) in chain.iter().enumerate() {
                    let (p, ok) = inside_mitten(&hand_mesh, *c, origin, d, w, n, len, h);
                    let method = if ok {
                        "sections: spread inside the mitten, centred in its thickness"
                    } else {
                        "template: hand scaled to the measured hand"
                    };
                    let _ = j;
                    chain_out.push((p, method));
                }
            } else {
                for j in 0..4 {
                    let mut p = chain[j];
                    let mut method = "template: hand scaled to the measured hand";
                    // Centre the middle joints in the finger's own section.
                    if j == 1 || j == 2 {
                        let dir = (chain[j + 1] - chain[j - 1]).normalize_or_zero();
                        if let Some(l) = digit_loop(&hand_mesh, p, dir, h, 0.015 * h) {
                            p = l;
                            method = "template, centred in the finger section";
                        }
                    }
                    chain_out.push((p, method));
                }
                // The thumb's base joint sits where its sections merge with the palm's
                // web, and its own cut may catch a neighbour: follow the thumb back
                // from its last joint and put the base joint on that axis, one
                // template phalanx length back (extended straight past the web).
                if fi == 0 {
                    let back = (chain[1] - chain[2]).normalize_or_zero();
                    let span = (chain[1] - chain[2]).length();
                    let axis = follow_digit(&hand_mesh, chain_out[2].0, back, h, span);
                    if axis.len() >= 3 {
                        let (first, last) = (axis[0], axis[axis.len() - 1]);
                        let dir = (last - first).normalize_or_zero();
                        chain_out[1] = (
                            first + dir * span,
                            "sections: on the thumb's axis, followed back from its last joint",
                        );
                    }
                }
                // Follow the digit from its middle joint to its end: the tip is the
                // last section's centre, on the digit's axis.
                let start = chain_out[2].0;
                let dir = (chain[3] - chain[2]).normalize_or_zero();
                let axis = follow_digit(&hand_mesh, start, dir, h, 0.1 * len + 0.05 * h);
                if let Some(&end) = axis.last().filter(|_| axis.len() >= 3) {
                    chain_out[3] = (end, "sections: end of the digit's sections");
                }
            }
            // A thin hand (a flat low-poly hand) may leave a template joint above or
            // below it: such a joint goes to the middle of the hand's thickness along
            // the palm normal.
            for (p, method) in chain_out.iter_mut() {
                if hand_solid.contains(*p) {
                    continue;
                }
                if let Some(q) = mid_thickness(&hand_bvh, *p, n, 0.03 * h) {
                    *p = q;
                    *method = "template, moved into the middle of the hand's thickness";
                }
            }
            // A finger curls on one axis: keep its joints on one plane through the
            // knuckle, spanned by the chain's direction and the palm normal.
            // The plane goes through the two centred middle joints.
            // The thumb's plane goes through its three joints (its metacarpal stays in
            // the thumb's ball), the fingers' through the two middle joints and along
            // the palm normal.
            let axis = if fi == 0 {
                (chain_out[1].0 - chain_out[0].0)
                    .cross(chain_out[2].0 - chain_out[1].0)
                    .normalize_or_zero()
            } else {
                (chain_out[2].0 - chain_out[1].0)
                    .cross(n)
                    .normalize_or_zero()
            };
            let through = chain_out[1].0;
            for (j, (p, method)) in chain_out.into_iter().enumerate() {
                let q = p - axis * (p - through).dot(axis);
                self.put(&format!("{f}_{:02}", j + 1), q, method, 0.6);
            }
        }
        Ok(())
    }
}

/// The middle of the thickness of the mesh of `bvh` on the line through `p` along `n`, for a point
/// `p` outside it: the nearer entry within `reach` on either side, and the exit after
/// it.
fn mid_thickness(bvh: &crate::geom::bvh::Bvh, p: Vec3, n: Vec3, reach: f32) -> Option<Vec3> {
    let mut best: Option<(f32, Vec3)> = None;
    for d in [n, -n] {
        let Some(t) = bvh.first_hit(p, p + d * reach, 0.0, 1.0) else {
            continue;
        };
        let e = p + d * (t * reach);
        let x = bvh
            .first_hit(e, e + d * reach, 1e-4, 1.0)
            .map(|u| e + d * (u * reach))?;
        if best.map_or(true, |b| t < b.0) {
            best = Some((t, 0.5 * (e + x)));
        }
    }
    best.map(|b| b.1)
}

/// Whether `p` lies inside the closed polygon `pts` (a cut normal to X), judged in
/// the (y, z) plane by the crossing rule.
fn inside_yz(pts: &[Vec3], p: Vec3) -> bool {
    let n = pts.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (pts[i], pts[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let z = a.z + (p.y - a.y) / (b.y - a.y) * (b.z - a.z);
            if p.z < z {
                inside = !inside;
            }
        }
    }
    inside
}

/// The centre of the small closed loop (a digit's section) of the cut through `p`
/// normal to `dir` whose centre is nearest `p`, if within `reach`.
fn digit_loop(m: &Mesh, p: Vec3, dir: Vec3, h: f32, reach: f32) -> Option<Vec3> {
    cross_sections(&[m], p, dir)
        .into_iter()
        .filter(|l| l.closed && l.radius < 0.02 * h && l.perimeter > 0.001 * h)
        .map(|l| l.center)
        .filter(|c| (*c - p).length() < reach)
        .min_by(|a, b| (*a - p).length().total_cmp(&(*b - p).length()))
}

/// Follows a digit from `start` along `dir` by sections 0.3% H apart, re-centring in
/// each; returns the centres (the digit's axis) until the sections end or `max_len`.
fn follow_digit(m: &Mesh, start: Vec3, dir: Vec3, h: f32, max_len: f32) -> Vec<Vec3> {
    let step = 0.003 * h;
    let mut out = Vec::new();
    let Some(mut p) = digit_loop(m, start, dir, h, 0.012 * h) else {
        return out;
    };
    out.push(p);
    let mut d = dir;
    let mut gone = 0.0;
    while gone < max_len {
        let q = p + d * step;
        let Some(c) = digit_loop(m, q, d, h, 0.5 * step + 0.002 * h) else {
            break;
        };
        if let Some(nd) = (c - p).try_normalize() {
            d = (0.6 * d + 0.4 * nd).normalize_or_zero();
        }
        gone += (c - p).length();
        p = c;
        out.push(p);
    }
    out
}

/// Puts the template point `c` inside a mitten hand (no separate fingers): the cut
/// normal to the hand direction `d` through `c` gives the hand's section; `c` is kept
/// at its place along the hand (at most 95% of the hand length `len` from the wrist
/// `origin`), moved across the hand (toward the thumb side `w`) to within the middle
/// 60% of the section's width, and centred in the section's thickness (along the palm
/// normal `n`) there. Returns the point and whether a section was found.
#[allow(clippy::too_many_arguments)]
fn inside_mitten(
    m: &Mesh,
    c: Vec3,
    origin: Vec3,
    d: Vec3,
    w: Vec3,
    n: Vec3,
    len: f32,
    h: f32,
) -> (Vec3, bool) {
    let s = (c - origin).dot(d).min(0.95 * len);
    let p = origin + d * s + w * (c - origin).dot(w) + n * (c - origin).dot(n);
    let Some(l) = cross_sections(&[m], p, d)
        .into_iter()
        .filter(|l| l.perimeter > 0.002 * h)
        .min_by(|a, b| (a.center - p).length().total_cmp(&(b.center - p).length()))
    else {
        return (c, false);
    };
    // The loop in (across, thickness) coordinates about its centre.
    let pts: Vec<(f32, f32)> = l
        .points
        .iter()
        .map(|q| ((*q - l.center).dot(w), (*q - l.center).dot(n)))
        .collect();
    let (wlo, whi) = pts
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), q| {
            (a.min(q.0), b.max(q.0))
        });
    let x = (p - l.center)
        .dot(w)
        .clamp(wlo + 0.2 * (whi - wlo), whi - 0.2 * (whi - wlo));
    // Thickness at x: the crossings of the loop with the line across = x.
    let k = pts.len();
    let mut ys = Vec::new();
    for i in 0..k {
        let (a, b) = (pts[i], pts[(i + 1) % k]);
        if (a.0 - x) * (b.0 - x) <= 0.0 && a.0 != b.0 {
            ys.push(a.1 + (x - a.0) / (b.0 - a.0) * (b.1 - a.1));
        }
    }
    let y = if ys.len() >= 2 {
        let lo = ys.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = ys.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        0.5 * (lo + hi)
    } else {
        0.0
    };
    let along = (l.center - origin).dot(d);
    let base = l.center - d * (along - s);
    (base + w * x + n * y, true)
}

/// Face landmarks from the head's geometry and eye parts.
fn face(c: &Character, m: &Mesh, lm: &mut Landmarks) {
    let h = lm.height;
    let (Some(head), Some(top)) = (lm.get("head"), lm.get("head_top")) else {
        return;
    };
    let neck_y = lm.get("neck_narrowest").map_or(head.y, |p| p.y);
    // The face: points near the mid-line above the neck's narrowest section.
    let head_pts: Vec<Vec3> = m
        .positions
        .iter()
        .copied()
        .filter(|p| p.y > neck_y && (p.x - lm.center_x).abs() < 0.06 * h)
        .collect();
    // Nose tip: the most forward point above the lowest quarter of the head (the chin
    // and lips lie there) and below the crown.
    if let Some(nose) = head_pts
        .iter()
        .copied()
        .filter(|p| p.y > neck_y + 0.25 * (top.y - neck_y) && p.y < top.y - 0.03 * h)
        .max_by(|a, b| a.z.total_cmp(&b.z))
    {
        let nose = Vec3::new(lm.center_x, nose.y, nose.z);
        lm.points.insert(
            "nose_tip".into(),
            Landmark {
                position: nose,
                method: "sections: most forward face point".into(),
                confidence: 0.8,
            },
        );
        let eye_y = nose.y + 0.3 * (top.y - nose.y);
        let mut eyes: Vec<(String, Vec3, &str, f32)> = Vec::new();
        // Eye parts (one part for both eyes, or one per eye): the vertices on each side
        // of the centre plane, averaged.
        let mut sums = [(Vec3::ZERO, 0usize); 2];
        for p in &c.parts {
            let name = p.name.to_ascii_lowercase();
            if name.contains("eye") && !name.contains("lash") && !name.contains("brow") {
                for v in &p.mesh.positions {
                    let k = usize::from(v.x < lm.center_x);
                    sums[k].0 += *v;
                    sums[k].1 += 1;
                }
            }
        }
        for (k, side) in ["l", "r"].into_iter().enumerate() {
            if sums[k].1 > 0 {
                eyes.push((
                    format!("eye_{side}"),
                    sums[k].0 / sums[k].1 as f32,
                    "eye part: mean of its vertices on this side",
                    1.0,
                ));
            }
        }
        if eyes.is_empty() {
            eyes.extend(eye_sockets(m, lm, nose, head));
        }
        if eyes.is_empty() {
            for s in [1.0f32, -1.0] {
                let p = Vec3::new(lm.center_x + s * 0.019 * h, eye_y, nose.z - 0.03 * h);
                eyes.push((
                    format!("eye_{}", if s > 0.0 { "l" } else { "r" }),
                    p,
                    "estimate: head proportions",
                    0.4,
                ));
            }
        }
        for (n, p, m, c) in eyes {
            lm.points.insert(
                n,
                Landmark {
                    position: p,
                    method: m.into(),
                    confidence: c,
                },
            );
        }
        let chin = head_pts
            .iter()
            .copied()
            .filter(|p| p.z > head.z + 0.5 * (nose.z - head.z) && p.y < nose.y)
            .min_by(|a, b| a.y.total_cmp(&b.y));
        if let Some(chin) = chin {
            lm.points.insert(
                "chin".into(),
                Landmark {
                    position: chin,
                    method: "sections: lowest forward point of the face".into(),
                    confidence: 0.7,
                },
            );
            let jaw = Vec3::new(
                lm.center_x,
                nose.y - 0.25 * (nose.y - chin.y),
                head.z + 0.25 * (nose.z - head.z),
            );
            lm.points.insert(
                "jaw".into(),
                Landmark {
                    position: jaw,
                    method: "estimate: below the ears, behind the chin".into(),
                    confidence: 0.5,
                },
            );
        }
    }
}

/// Eye centre depth in front of the socket's deepest point, as a fraction of the
/// socket's depth (calibrated on the 14 MakeHuman variants against their eye parts).
const EYE_IN_SOCKET: f32 = 0.56;

/// Eyes from the sockets' geometry (a head without eye parts): horizontal cuts of the
/// face from just above the nose tip up to 6% H higher; on each cut, each side's
/// front contour (z, binned every 0.25% H across x) is filled like water between its
/// highest points toward the nose and toward the temple; the deepest water over all
/// cuts is the socket. The eye centre lies in front of that point by
/// [`EYE_IN_SOCKET`] of the depth. A socket shallower than 0.5% H is no socket.
fn eye_sockets(
    m: &Mesh,
    lm: &Landmarks,
    nose: Vec3,
    head: Vec3,
) -> Vec<(String, Vec3, &'static str, f32)> {
    let (h, cx) = (lm.height, lm.center_x);
    let y0 = nose.y + 0.005 * h;
    // The face alone, cut many times.
    let face = Mesh {
        positions: m.positions.clone(),
        triangles: m
            .triangles
            .iter()
            .copied()
            .filter(|t| {
                t.iter().all(|&i| {
                    m.positions
                        .get(i as usize)
                        .is_some_and(|p| p.y > y0 - 0.01 * h && p.y < y0 + 0.07 * h && p.z > head.z)
                })
            })
            .collect(),
        normals: None,
        uvs: None,
    };
    const NB: usize = 26;
    let bw = 0.0025 * h;
    let mut best: [Option<(Vec3, f32)>; 2] = [None, None];
    for k in 0..24 {
        let y = y0 + k as f32 * 0.0025 * h;
        let cut = cross_sections(&[&face], Vec3::new(0.0, y, 0.0), Vec3::Y);
        for (si, sgn) in [1.0f32, -1.0].into_iter().enumerate() {
            let mut zb = [f32::NEG_INFINITY; NB];
            for l in &cut {
                let n = l.points.len();
                let segs = if l.closed { n } else { n.saturating_sub(1) };
                for i in 0..segs {
                    let (a, b) = (l.points[i], l.points[(i + 1) % n]);
                    for t in 0..4 {
                        let p = a.lerp(b, t as f32 / 4.0);
                        let bi = (sgn * (p.x - cx) / bw).floor();
                        if (0.0..NB as f32).contains(&bi) {
                            zb[bi as usize] = zb[bi as usize].max(p.z);
                        }
                    }
                }
            }
            for i in 1..NB - 1 {
                if !zb[i].is_finite() {
                    continue;
                }
                let inner = zb[..i].iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let outer = zb[i + 1..]
                    .iter()
                    .copied()
                    .fold(f32::NEG_INFINITY, f32::max);
                let d = inner.min(outer) - zb[i];
                if d.is_finite() && best[si].map_or(true, |b| d > b.1) {
                    let x = cx + sgn * (i as f32 + 0.5) * bw;
                    best[si] = Some((Vec3::new(x, y, zb[i]), d));
                }
            }
        }
    }
    let (Some(l), Some(r)) = (best[0], best[1]) else {
        return Vec::new();
    };
    if l.1 < 0.005 * h || r.1 < 0.005 * h {
        return Vec::new();
    }
    // Both sides averaged (mirrored) so the eyes mirror exactly.
    let (pl, pr) = (
        l.0 + Vec3::Z * (EYE_IN_SOCKET * l.1),
        r.0 + Vec3::Z * (EYE_IN_SOCKET * r.1),
    );
    let mirror = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    let e = 0.5 * (pl + mirror(pr));
    let method = "sections: in front of the eye socket's deepest point";
    vec![
        ("eye_l".to_string(), e, method, 0.7),
        ("eye_r".to_string(), mirror(e), method, 0.7),
    ]
}

/// The eigenvector of the largest eigenvalue of a symmetric 3x3 matrix.
pub(crate) fn principal_axis(m: Mat3) -> Vec3 {
    principal_frame(m).0
}

/// Eigenvectors of a symmetric 3x3 matrix by decreasing eigenvalue (Jacobi rotations).
pub(crate) fn principal_frame(m: Mat3) -> (Vec3, Vec3, Vec3) {
    let mut a = [[0.0f64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            a[i][j] = m.col(j)[i] as f64;
        }
    }
    let mut v = [[1.0f64, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..50 {
        let mut off = 0.0;
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            off += a[p][q] * a[p][q];
        }
        if off < 1e-24 {
            break;
        }
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            if a[p][q].abs() < 1e-30 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for k in 0..3 {
                let (akp, akq) = (a[k][p], a[k][q]);
                a[k][p] = c * akp - s * akq;
                a[k][q] = s * akp + c * akq;
            }
            for k in 0..3 {
                let (apk, aqk) = (a[p][k], a[q][k]);
                a[p][k] = c * apk - s * aqk;
                a[q][k] = s * apk + c * aqk;
            }
            for k in 0..3 {
                let (vkp, vkq) = (v[k][p], v[k][q]);
                v[k][p] = c * vkp - s * vkq;
                v[k][q] = s * vkp + c * vkq;
            }
        }
    }
    let mut idx = [0usize, 1, 2];
    idx.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let col =
        |i: usize| Vec3::new(v[0][i] as f32, v[1][i] as f32, v[2][i] as f32).normalize_or_zero();
    (col(idx[0]), col(idx[1]), col(idx[2]))
}
