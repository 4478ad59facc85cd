//! Landmarks: where the joints of a standing biped are, found from cross-sections.
//!
//! Everything is measured in units of the body height `H` (so the same body at 0.3x or
//! 100x gives the same landmarks, scaled) in glTF space (+Y up, facing +Z, left +X).
//! The left side is measured on the mesh and the right side on its mirror image about
//! the body's centre plane, then both are averaged so that left and right mirror
//! exactly. When the two sides differ by more than [`ASYMMETRY`] of the height (a
//! character exported in a pose, one hand hanging farther out than the other) the
//! mean would put each arm between the two, outside both: each side then keeps its own
//! landmarks ([`Landmarks::asymmetry`], a note says so), and the fitter builds each
//! side's bones from its own ([`super::fitting`]).
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

mod arms;
mod cloth;
mod face;
pub(crate) use face::says_eye;
mod hands;
mod legs;
mod torso;

use super::sections::{bounds, cross_sections, Loop, Slicer};
use crate::error::{Error, Result};
use crate::model::{Character, Mesh};

pub(crate) use crate::geom::frame::{principal_axis, principal_frame};
use face::face;

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

/// Sets landmark `name` in `points` (a later one replaces an earlier one).
pub(crate) fn put_landmark(
    points: &mut BTreeMap<String, Landmark>,
    name: &str,
    position: Vec3,
    method: &str,
    confidence: f32,
) {
    let method = method.to_string();
    points.insert(
        name.to_string(),
        Landmark {
            position,
            method,
            confidence,
        },
    );
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
    /// The farthest a left landmark lies from the mirror image of its right one, in
    /// units of the height: 0 on a symmetric body. Above [`ASYMMETRY`] the pose is not
    /// symmetric and each side keeps its own landmarks (see the module docs).
    pub asymmetry: f32,
}

/// The name of a landmark (or an override) on the other side: `_l` and `_r` swapped,
/// a centre name unchanged.
pub(crate) fn other_side(n: &str) -> String {
    match (n.strip_suffix("_l"), n.strip_suffix("_r")) {
        (Some(b), _) => format!("{b}_r"),
        (_, Some(b)) => format!("{b}_l"),
        _ => n.to_string(),
    }
}

/// The distance (units of the height) between a left landmark and the mirror image of
/// its right one above which each side keeps its own landmarks instead of the mean of
/// the two. A symmetric mesh measures under 1e-5 (rounding); a character posed with
/// one hand hanging farther out (the knight's first animation frame, as OBJ) 0.08.
pub const ASYMMETRY: f32 = 0.02;

impl Landmarks {
    /// The position of a landmark (panics never: `None` when absent).
    pub fn get(&self, name: &str) -> Option<Vec3> {
        self.points.get(name).map(|l| l.position)
    }

    /// Whether each side is fitted on its own (an asymmetric pose, [`ASYMMETRY`]).
    pub fn per_side(&self) -> bool {
        self.asymmetry > ASYMMETRY
    }

    /// The same landmarks seen in a mirror about the centre plane: every position and
    /// axis mirrored, `_l` and `_r` names swapped. Twice is the identity.
    pub fn mirrored(&self) -> Landmarks {
        let cx = self.center_x;
        let swap = |n: &String| other_side(n);
        let mut m = self.clone();
        m.points = self
            .points
            .iter()
            .map(|(n, l)| {
                let mut l = l.clone();
                l.position.x = 2.0 * cx - l.position.x;
                (swap(n), l)
            })
            .collect();
        m.axes = self
            .axes
            .iter()
            .map(|(n, a)| (swap(n), Vec3::new(-a.x, a.y, a.z)))
            .collect();
        m
    }
}

/// Options of [`find_landmarks`].
#[derive(Debug, Clone, Default)]
pub struct LandmarkOptions {
    /// The part to treat as the body, welded; default: the welded union of the skin
    /// pieces ([`crate::model::Body`]).
    pub body_part: Option<String>,
    /// Which parts are skin pieces, garments or rigid (overrides of
    /// [`crate::model::Body::of`]).
    pub parts: crate::model::BodyOptions,
    /// Landmarks to force, by name, metres in glTF space.
    pub overrides: Vec<(String, Vec3)>,
}

/// The finger names in template order (thumb first).
pub const FINGERS: [&str; 5] = ["thumb", "index", "middle", "ring", "pinky"];

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
    let cx = centre_plane(&body.positions, lo, hi);
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
    // Average the two sides (right mirrored back) so that they mirror exactly, unless
    // the pose is not symmetric: then each side keeps its own.
    let mir = |p: Vec3| Vec3::new(2.0 * cx - p.x, p.y, p.z);
    let apart = left
        .points
        .iter()
        .filter(|(n, _)| !n.ends_with("_c"))
        .filter_map(|(n, l)| Some(((l.position - right.points.get(n)?.position).length(), n)))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    lm.asymmetry = apart.map_or(0.0, |(d, _)| d / h);
    if let (true, Some((_, n))) = (lm.per_side(), apart) {
        lm.notes.push(format!(
            "the pose is not symmetric: the left {n} lies {:.1}% H from the mirror image of \
             the right one; each side is fitted on its own",
            100.0 * lm.asymmetry
        ));
    }
    let per_side = lm.per_side();
    for (name, l) in &left.points {
        let own = right.points.get(name).filter(|_| per_side);
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
            let (pl, pr, mr) = match own {
                Some(r) => (l.position, r.position, r.method.clone()),
                None => (pos, pos, l.method.clone()),
            };
            lm.points.insert(
                format!("{base}_l"),
                Landmark {
                    position: pl,
                    method: l.method.clone(),
                    confidence: own.map_or(conf, |_| l.confidence),
                },
            );
            lm.points.insert(
                format!("{base}_r"),
                Landmark {
                    position: mir(pr),
                    method: mr,
                    confidence: own.map_or(conf, |r| r.confidence),
                },
            );
        }
    }
    for (name, v) in &left.axes {
        let r = right.axes.get(name).copied().unwrap_or(*v);
        let (a, b) = if per_side {
            (*v, r)
        } else {
            let a = (*v + r).normalize_or_zero();
            (a, a)
        };
        lm.axes.insert(format!("{name}_l"), a);
        lm.axes
            .insert(format!("{name}_r"), Vec3::new(-b.x, b.y, b.z));
    }
    lm.arm_angle_deg = 0.5 * (left.arm_angle + right.arm_angle);
    lm.pose = if lm.arm_angle_deg.abs() <= 20.0 {
        "T"
    } else {
        "A"
    }
    .to_string();
    lm.notes.extend(left.notes);
    // What both sides say alike (a rule for the whole body) is said once.
    for n in right.notes {
        if !lm.notes.contains(&n) {
            lm.notes.push(n);
        }
    }
    face(c, body, &mut lm);
    apply_overrides(&mut lm, &o.overrides)?;
    Ok(lm)
}

/// Puts the user's landmark overrides `(name, position)` into `lm` (method
/// "override", confidence 1); a position that is not finite is refused.
pub(crate) fn apply_overrides(lm: &mut Landmarks, overrides: &[(String, Vec3)]) -> Result<()> {
    for (name, p) in overrides {
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
    Ok(())
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
        // Welded, as every other body is: a part whose faces keep their own copies of
        // shared corners is one closed surface only once welded.
        let told = crate::model::BodyOptions {
            body: vec![c.parts[i].name.clone()],
            ..Default::default()
        };
        let b = crate::model::Body::of(c, &told)
            .map_err(|e| Error::stage("fit", format!("body: {e}")))?;
        return Ok((b.mesh, format!("part {n:?}")));
    }
    if c.is_one_welded_part() {
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

/// How far (units of the height) the median of the vertices' x may lie from the middle
/// of the bounds before the median is taken as the centre plane ([`centre_plane`]).
pub const LOPSIDED: f32 = 0.005;

/// The x of the body's centre plane: the middle of its bounds, unless the median of
/// its vertices' x lies more than [`LOPSIDED`] of the height from it (a pose that is
/// not symmetric, one hand hanging farther out than the other, widens the bounds on one
/// side): then that median, which the legs, trunk and head hold.
pub(crate) fn centre_plane(positions: &[Vec3], lo: Vec3, hi: Vec3) -> f32 {
    let mid = 0.5 * (lo.x + hi.x);
    let mut xs: Vec<f32> = positions.iter().map(|p| p.x).collect();
    if xs.is_empty() {
        return mid;
    }
    // The mean of the two middle values when their count is even: a symmetric mesh's
    // mirrored pairs then give its centre exactly, however few its vertices.
    let (n, k) = (xs.len(), xs.len() / 2);
    let (below, &mut upper, _) = xs.select_nth_unstable_by(k, f32::total_cmp);
    let median = if n % 2 == 0 {
        let lower = below.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        0.5 * (lower + upper)
    } else {
        upper
    };
    if (median - mid).abs() > LOPSIDED * (hi.y - lo.y) {
        median
    } else {
        mid
    }
}

/// `m` mirrored about the plane x = `cx` (the triangles' winding reversed, so that it
/// stays outward).
pub(crate) fn mirror_mesh(m: &Mesh, cx: f32) -> Mesh {
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
    /// While the legs are measured inside a cloth loop: central sections leave out
    /// loops that enclose a leg (the cloth).
    cloth: bool,
}

impl<'a> Side<'a> {
    fn y(&self, f: f32) -> f32 {
        self.floor + f * self.h
    }

    fn put(&mut self, name: &str, p: Vec3, method: &str, confidence: f32) {
        put_landmark(&mut self.points, name, p, method, confidence);
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
        let cut = if self.cloth {
            self.skin_cut(y)
        } else {
            self.hcut(y)
        };
        cut.into_iter()
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
            cloth: false,
        };
        s.legs(side)?;
        s.torso(side)?;
        s.arm(side)?;
        Ok(s)
    }
}
