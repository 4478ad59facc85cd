//! Model check and fix (P1): what would break rigging, found before rigging.
//!
//! [`model_check`] measures the character in glTF space (+Y up, facing +Z, left +X,
//! feet on y = 0, centred on x = 0 and the mid-foot on z = 0) and lists problems with
//! stable ids:
//!
//! | id | what | fixable |
//! |---|---|---|
//! | `model.empty` | no vertices in any part | no |
//! | `model.up` | the body is not standing along +Y (lying down) | no |
//! | `model.floor` | the feet are off y = 0 by more than 1% of the height | yes |
//! | `model.center` | the body's centre is off x = 0 by more than 1% of the height | yes |
//! | `model.mid_foot` | the mid-foot is off z = 0 by more than 1% of the height | yes |
//! | `model.facing` | the toes point along -Z, +X or -X instead of +Z (feet reaching under [`FACING_MIN_H`] ahead of the shins give no facing: +Z kept, a warning) | yes (rotation about Y) |
//! | `model.height` | the height is outside 0.3 to 3 m (wrong units?) | no (a warning) |
//! | `model.part_apart` | a part lies entirely outside the body's bounds (left behind when the body moved) | no |
//!
//! Symmetry is measured two ways and reported as numbers (an asymmetric body is not a
//! problem in itself): general (mean distance of a vertex's mirror image to the
//! nearest vertex, % of height) and vertex for vertex (share of vertices whose mirror
//! image lands on a vertex within 0.1% of the height).
//!
//! [`ModelReport::checks`] turns the report into checks (section A): the rubric makes
//! the model check a blocker (feet at 0, centred, facing), so `model.floor`,
//! `model.center`, `model.standing` and `model.part_apart` are blockers. Two
//! deliberate differences: `model.facing` is major, because its measure (from the
//! shins to the feet) misreads stylized feet (the Quaternius chibi, which faces +Z,
//! reads 180 deg); and the mid-foot on z = 0 (rigsmith's own convention, which the
//! rubric's check does not ask: the built-in mannequin's mid-foot is 3.5 % H forward)
//! stays a fixable problem, not a check. The fit reports the checks with its
//! placement checks, and `rigsmith check` with the rubric.
//!
//! [`fix_model`] applies one rotation and one translation to every part together
//! (positions, normals, morph deltas) and to the skeleton if there is one. Transforms
//! are already baked by the importers, so there is nothing to apply for them.

use glam::{Mat4, Vec3};
use serde::Serialize;

use super::landmarks::{body_mesh, LandmarkOptions};
use super::sections::bounds;
use crate::io::space::Facing;
use crate::model::Character;
use crate::report::{Check, Severity};

/// One problem found by [`model_check`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    /// Stable id (`model.floor`, ...).
    pub id: String,
    /// What is wrong, with the numbers.
    pub message: String,
    /// Whether [`fix_model`] fixes it.
    pub fixable: bool,
}

/// The result of [`model_check`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelReport {
    /// The body part's name.
    pub body: String,
    /// Body height, metres.
    pub height: f32,
    /// Lowest body point, metres.
    pub floor: f32,
    /// X of the body's centre plane (the bounds' middle, or the vertices' median when
    /// the bounds are lopsided: [`super::landmarks::centre_plane`]), metres.
    pub center_x: f32,
    /// Z of the mid-foot, metres.
    pub mid_foot_z: f32,
    /// Where the toes point: `+Z`, `-Z`, `+X` or `-X`.
    pub facing: String,
    /// Angle between the toes' direction (shins to feet, seen from above) and +Z, deg.
    pub facing_deg: f32,
    /// How far the feet reach ahead of the shins, seen from above, in units of the
    /// height: below [`FACING_MIN_H`] the feet say nothing of the facing and +Z, the
    /// front glTF defines, is assumed (`facing` `+Z`, a warning says so).
    pub toe_reach: f32,
    /// The front was stated on reading ([`Character::facing_stated`], `--facing`): +Z
    /// is taken as it is and the toes are not read.
    pub facing_stated: bool,
    /// When the toes give no facing: how far the knees of the file's own skeleton lie
    /// ahead of the line from the hip to the ankle, seen from above, in units of the
    /// height (0 when there is no skeleton with legs, or the toes told). From
    /// [`KNEE_MIN_H`] the knees give the facing.
    pub knee_reach: f32,
    /// Height over the larger of width and depth (below 0.5: lying down).
    pub standing: f32,
    /// General symmetry: mean mirror distance to the nearest vertex, % of height.
    pub symmetry_general: f32,
    /// Vertex-for-vertex symmetry: share of vertices with an exact mirror partner (0..1).
    pub symmetry_vertex: f32,
    /// Problems, in id order.
    pub problems: Vec<Problem>,
    /// Warnings that do not stop rigging.
    pub warnings: Vec<String>,
    /// The body plan measured for when it is not a biped (`quadruped`:
    /// [`crate::fit::quadruped::quadruped_model_check`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
}

/// Below this reach of the feet ahead of the shins (units of the height, seen from
/// above) the toes give no facing. Measured: MakeHuman bodies 6.4 (the baby) to 8.5 %
/// H, the Quaternius men 4.3 and 4.8 % H (toes ahead); the knight 0.5 % H; the
/// platformer chibi, whose round feet have no toes and whose belly juts forward above
/// them, 1.0 % H toward its back: turned by it, the chibi was rigged facing away.
pub const FACING_MIN_H: f32 = 0.025;

/// From this reach of the knees ahead of the hip-to-ankle line (units of the height,
/// seen from above, the two legs' mean) the knees of a file's own skeleton give the
/// facing when the toes do not. Measured on the artist rigs: MakeHuman 1.5-1.8 % H, the
/// Quaternius men 2.2, the knight 4.0 and the chibi 1.9 % H, all forward.
pub const KNEE_MIN_H: f32 = 0.005;

/// When the toes of the report `r`'s body give no facing and none was stated: the
/// facing from the knees of `source`'s own skeleton (the character itself, or the file
/// it was read from when its skeleton is being replaced), which riggers bend forward.
/// Sets `facing`, `facing_deg` and `knee_reach`, replaces the warning that +Z is
/// assumed and adds the fixable `model.facing` problem when the knees point elsewhere
/// than +Z. Nothing when the knees reach less than [`KNEE_MIN_H`] ahead.
pub fn facing_from_knees(r: &mut ModelReport, source: &Character) {
    if r.facing_stated || r.toe_reach >= FACING_MIN_H || r.knee_reach > 0.0 || !(r.height > 0.0) {
        return;
    }
    let Some(d) = knees_point(source).filter(|d| d.length() >= KNEE_MIN_H * r.height) else {
        return;
    };
    r.knee_reach = d.length() / r.height;
    r.facing_deg = d.x.atan2(d.z).abs().to_degrees();
    r.facing = axis_of(d).into();
    r.warnings.retain(|w| !w.starts_with("model.facing:"));
    if r.facing != "+Z" {
        r.problems.retain(|p| p.id != "model.mid_foot");
        r.problems.push(Problem {
            id: "model.facing".into(),
            message: format!(
                "the knees of its skeleton bend along {} instead of +Z (no toes to tell)",
                r.facing
            ),
            fixable: true,
        });
        r.problems.sort_by(|a, b| a.id.cmp(&b.id));
    }
}

/// The axis a horizontal direction points along most: `+Z`, `-Z`, `+X` or `-X`.
fn axis_of(d: Vec3) -> &'static str {
    if d.z.abs() >= d.x.abs() {
        if d.z >= 0.0 {
            "+Z"
        } else {
            "-Z"
        }
    } else if d.x >= 0.0 {
        "+X"
    } else {
        "-X"
    }
}

/// Where the knees of `c`'s own skeleton point, seen from above: the mean over the legs
/// of the knee's offset from the line from the hip to the ankle, horizontal part. `None`
/// without a skeleton whose thighs and calves are found, or when the two knees point
/// more than a quarter turn apart.
fn knees_point(c: &Character) -> Option<Vec3> {
    use crate::humanoid::{Role, Roles};
    use crate::model::Side;
    let s = c.skeleton.as_ref()?;
    let roles = Roles::of_character(c)?;
    let mut offs = Vec::new();
    for side in [Side::Left, Side::Right] {
        let (Some(t), Some(k)) = (roles.get(Role::Thigh(side)), roles.get(Role::Calf(side))) else {
            continue;
        };
        let (hip, knee, ankle) = (s.bones[t].head, s.bones[k].head, s.bones[k].tail);
        let leg = ankle - hip;
        if leg.length_squared() <= 0.0 {
            continue;
        }
        let on = hip + leg * ((knee - hip).dot(leg) / leg.length_squared());
        let d = knee - on;
        offs.push(Vec3::new(d.x, 0.0, d.z));
    }
    match offs[..] {
        [a] => Some(a),
        [a, b] if a.dot(b) > 0.0 => Some(0.5 * (a + b)),
        _ => None,
    }
}

/// How far (fraction of the height) the feet may sit off y = 0, the centre off x = 0
/// and the mid-foot off z = 0: the rubric's 1 % of H.
pub const MODEL_TOL_H: f32 = 0.01;

impl ModelReport {
    /// Whether a problem with this id was found.
    pub fn has(&self, id: &str) -> bool {
        self.problems.iter().any(|p| p.id == id)
    }

    /// The model check as checks (section A; see the module docs). An empty model
    /// gives one failed `model.empty`; a lying one stops at `model.standing`.
    pub fn checks(&self) -> Vec<Check> {
        let msg = |id: &str| {
            self.problems
                .iter()
                .find(|p| p.id == id)
                .map_or_else(|| "ok".to_string(), |p| p.message.clone())
        };
        if self.has("model.empty") {
            return vec![Check::new("model.empty", "A", Severity::Blocker)
                .title("The model has vertices")
                .measure("body height, m")
                .at_least(0.0, f64::MIN_POSITIVE)
                .detail(msg("model.empty"))];
        }
        let h = self.height.max(1e-12) as f64;
        let pct = |x: f32| 100.0 * x.abs() as f64 / h;
        let tol = 100.0 * MODEL_TOL_H as f64;
        let mut out = Vec::new();
        // A four-legged body is longer than it is tall: no standing check.
        if self.plan.is_none() {
            out.push(
                Check::new("model.standing", "A", Severity::Blocker)
                    .title("The model stands along +Y")
                    .measure("height over the larger of width and depth")
                    .at_least(self.standing as f64, 0.5)
                    .detail(msg("model.up")),
            );
        }
        if self.has("model.up") {
            return out;
        }
        out.push(
            Check::new("model.floor", "A", Severity::Blocker)
                .title("Feet on the floor")
                .measure("lowest point off y = 0, % of height")
                .at_most(pct(self.floor), tol)
                .detail(format!("feet at y = {:.4} m", self.floor)),
        );
        out.push(
            Check::new("model.center", "A", Severity::Blocker)
                .title("Centred on x = 0")
                .measure("body centre off x = 0, % of height")
                .at_most(pct(self.center_x), tol)
                .detail(format!("centre at x = {:.4} m", self.center_x)),
        );
        out.push(
            Check::new("model.facing", "A", Severity::Major)
                .title("Facing +Z")
                .measure("toes' direction from +Z, deg")
                .at_most(self.facing_deg as f64, 45.0)
                .detail(if self.facing_stated {
                    "the front was stated on reading (--facing): +Z as turned".to_string()
                } else if self.knee_reach > 0.0 {
                    format!(
                        "no toes to tell the front by (the feet reach {:.1}% H ahead of the \
                         shins); the knees of the file's skeleton bend along {} ({:.1}% H \
                         ahead of the hip-to-ankle line)",
                        100.0 * self.toe_reach,
                        self.facing,
                        100.0 * self.knee_reach
                    )
                } else if self.toe_reach < FACING_MIN_H {
                    format!(
                        "no toes to tell the front by (the feet reach {:.1}% H ahead of the \
                         shins): +Z assumed (give --facing if the character faces elsewhere)",
                        100.0 * self.toe_reach
                    )
                } else {
                    format!("the toes point along {}", self.facing)
                }),
        );
        let apart: Vec<&str> = self
            .problems
            .iter()
            .filter(|p| p.id == "model.part_apart")
            .map(|p| p.message.as_str())
            .collect();
        out.push(
            Check::new("model.part_apart", "A", Severity::Blocker)
                .title("Every part is with the body")
                .measure("parts entirely outside the body's bounds")
                .at_most(apart.len() as f64, 0.0)
                .detail(if apart.is_empty() {
                    "every part overlaps the body's bounds".to_string()
                } else {
                    apart.join("; ")
                }),
        );
        out
    }
}

/// Checks the character (see the module docs).
pub fn model_check(c: &Character) -> ModelReport {
    let mut r = ModelReport::default();
    let Ok((m, what)) = body_mesh(c, &LandmarkOptions::default()) else {
        r.problems.push(Problem {
            id: "model.empty".into(),
            message: "the character has no parts".into(),
            fixable: false,
        });
        return r;
    };
    let m = &m;
    r.body = what;
    if m.positions.is_empty() {
        r.problems.push(Problem {
            id: "model.empty".into(),
            message: format!("{} has no vertices", r.body),
            fixable: false,
        });
        return r;
    }
    let (lo, hi) = bounds(&m.positions);
    let ext = hi - lo;
    let h = ext.y;
    r.height = h;
    r.floor = lo.y;
    r.center_x = super::landmarks::centre_plane(&m.positions, lo, hi);
    r.standing = h / ext.x.max(ext.z).max(1e-12);
    if !(h > 0.0) || h < 0.5 * ext.x.max(ext.z) {
        r.problems.push(Problem {
            id: "model.up".into(),
            message: format!(
                "the body is {:.3} tall, {:.3} wide, {:.3} deep: not standing along +Y",
                ext.y, ext.x, ext.z
            ),
            fixable: false,
        });
        return r;
    }
    // Facing: from the shins to the feet.
    let band = |a: f32, b: f32| -> Option<Vec3> {
        let sel: Vec<Vec3> = m
            .positions
            .iter()
            .copied()
            .filter(|p| p.y >= lo.y + a * h && p.y < lo.y + b * h)
            .collect();
        (!sel.is_empty()).then(|| sel.iter().copied().sum::<Vec3>() / sel.len() as f32)
    };
    r.mid_foot_z = mid_foot_z(&m.positions, lo.y, h);
    r.facing = "+Z".into();
    r.facing_stated = c.facing_stated;
    let toes = if c.facing_stated {
        (None, None)
    } else {
        (band(0.0, 0.03), band(0.10, 0.20))
    };
    if let (Some(f), Some(s)) = toes {
        let d = f - s;
        r.toe_reach = (d.x * d.x + d.z * d.z).sqrt() / h;
        r.facing_deg = d.x.atan2(d.z).abs().to_degrees();
        r.facing = axis_of(d).into();
        if r.toe_reach < FACING_MIN_H {
            r.facing = "+Z".into();
            r.facing_deg = 0.0;
        }
    }
    if !c.facing_stated && r.toe_reach < FACING_MIN_H {
        r.warnings.push(format!(
            "model.facing: the feet reach {:.1}% of the height ahead of the shins (under \
             {:.1}%: no toes to tell the front by) and no skeleton's knees bend; +Z, the \
             front glTF defines, is assumed (give --facing if the character faces elsewhere)",
            100.0 * r.toe_reach,
            100.0 * FACING_MIN_H
        ));
    }
    if r.facing != "+Z" {
        r.problems.push(Problem {
            id: "model.facing".into(),
            message: format!("the toes point along {} instead of +Z", r.facing),
            fixable: true,
        });
    }
    facing_from_knees(&mut r, c);
    r.problems.extend(floor_and_centre(lo.y, r.center_x, h));
    if r.facing == "+Z" && r.mid_foot_z.abs() > MODEL_TOL_H * h {
        r.problems.push(Problem {
            id: "model.mid_foot".into(),
            message: format!("the mid-foot is at z = {:.4}, not 0", r.mid_foot_z),
            fixable: true,
        });
    }
    if !(0.3..=3.0).contains(&h) {
        r.warnings.push(format!(
            "model.height: the body is {h:.3} tall; units other than metres?"
        ));
    }
    (r.symmetry_general, r.symmetry_vertex) = symmetry(&m.positions, r.center_x, h);
    if r.symmetry_general > 1.0 {
        r.warnings.push(format!(
            "model.symmetry: the body is not symmetric (mean mirror distance {:.2}% of the height)",
            r.symmetry_general
        ));
    }
    r.problems.extend(parts_apart(c, lo, hi, h));
    r.problems.sort_by(|a, b| a.id.cmp(&b.id));
    r
}

/// The middle along Z of the vertices within 3 % of `h` above the floor `floor` (the
/// feet), as the model fix centres it.
pub(crate) fn mid_foot_z(positions: &[Vec3], floor: f32, h: f32) -> f32 {
    let feet: Vec<Vec3> = positions
        .iter()
        .copied()
        .filter(|p| p.y < floor + 0.03 * h)
        .collect();
    let (flo, fhi) = bounds(&feet);
    0.5 * (flo.z + fhi.z)
}

/// `model.floor` and `model.center` when the lowest point `floor` or the centre
/// `center_x` is off 0 by more than [`MODEL_TOL_H`] of the height `h`.
pub(crate) fn floor_and_centre(floor: f32, center_x: f32, h: f32) -> Vec<Problem> {
    let mut out = Vec::new();
    if floor.abs() > MODEL_TOL_H * h {
        out.push(Problem {
            id: "model.floor".into(),
            message: format!("the feet are at y = {floor:.4}, not 0"),
            fixable: true,
        });
    }
    if center_x.abs() > MODEL_TOL_H * h {
        out.push(Problem {
            id: "model.center".into(),
            message: format!("the body centre is at x = {center_x:.4}, not 0"),
            fixable: true,
        });
    }
    out
}

/// `model.part_apart` for every part that is not skin and lies entirely outside the
/// body's bounds `lo`-`hi` (with a margin of 5% of the height `h`).
pub(crate) fn parts_apart(c: &Character, lo: Vec3, hi: Vec3, h: f32) -> Vec<Problem> {
    let skin: Vec<usize> = if c.parts.len() == 1 {
        vec![0]
    } else {
        c.body().map(|b| b.skin).unwrap_or_default()
    };
    let mut out = Vec::new();
    for (i, p) in c.parts.iter().enumerate() {
        if skin.contains(&i) || p.mesh.positions.is_empty() {
            continue;
        }
        let (plo, phi) = bounds(&p.mesh.positions);
        let margin = 0.05 * h;
        if phi.x < lo.x - margin
            || plo.x > hi.x + margin
            || phi.y < lo.y - margin
            || plo.y > hi.y + margin
            || phi.z < lo.z - margin
            || plo.z > hi.z + margin
        {
            out.push(Problem {
                id: "model.part_apart".into(),
                message: format!(
                    "part {:?} lies outside the body's bounds: moved without the body?",
                    p.name
                ),
                fixable: false,
            });
        }
    }
    out
}

/// Symmetry about `x = center_x` of the points `pts` (a sample of about 2,000): the
/// mean distance of a mirror image to the nearest point, % of `h`, and the share of
/// points whose mirror image lands within 0.1 % of `h` of a point.
pub(crate) fn symmetry(pts: &[Vec3], center_x: f32, h: f32) -> (f32, f32) {
    let cell = 0.01 * h;
    let grid = crate::geom::grid::Grid::new(pts, cell);
    let step = (pts.len() / 2000).max(1);
    let (mut sum, mut n, mut exact) = (0.0f32, 0usize, 0usize);
    for p in pts.iter().step_by(step) {
        let q = Vec3::new(2.0 * center_x - p.x, p.y, p.z);
        // The nearest mirror vertex in the 27 cells around q, at most 2 cells away.
        let best = grid
            .nearest_within(q, 2.0 * cell)
            .map_or(2.0 * cell, |i| (pts[i] - q).length());
        sum += best;
        n += 1;
        if best < 0.001 * h {
            exact += 1;
        }
    }
    (
        100.0 * sum / n.max(1) as f32 / h,
        exact as f32 / n.max(1) as f32,
    )
}

/// Fixes what [`model_check`] found fixable, moving every part (and the skeleton)
/// together; returns what it did, in plain words.
pub fn fix_model(c: &mut Character, r: &ModelReport) -> Vec<String> {
    let mut did = Vec::new();
    let rot = Facing::of_axis(&r.facing)
        .filter(|_| r.has("model.facing"))
        .map(Facing::turn)
        .filter(|&a| a != 0.0);
    let mut m = Mat4::IDENTITY;
    if let Some(a) = rot {
        m = Mat4::from_rotation_y(a);
        did.push(format!(
            "turned every part {:.0} deg about +Y to face +Z",
            a.to_degrees()
        ));
    }
    apply(c, m);
    if rot.is_some() || r.has("model.floor") || r.has("model.center") || r.has("model.mid_foot") {
        let Ok((m, _)) = body_mesh(c, &LandmarkOptions::default()) else {
            return did;
        };
        let pts = &m.positions;
        let (lo, hi) = bounds(pts);
        let feet: Vec<Vec3> = pts
            .iter()
            .copied()
            .filter(|p| p.y < lo.y + 0.03 * (hi.y - lo.y))
            .collect();
        let (flo, fhi) = bounds(&feet);
        let cx = super::landmarks::centre_plane(pts, lo, hi);
        let t = Vec3::new(-cx, -lo.y, -0.5 * (flo.z + fhi.z));
        if t.length() > 0.0 {
            apply(c, Mat4::from_translation(t));
            did.push(format!(
                "moved every part by ({:.4}, {:.4}, {:.4}): feet on y = 0, centred",
                t.x, t.y, t.z
            ));
        }
    }
    did
}

/// Scales every part (and the skeleton) uniformly so that the body is `target` tall
/// (metres), about the point under the body's centre on the floor, so feet on y = 0
/// stay there. Returns what it did, or `None` when the body has no height or `target`
/// is not a positive number.
pub fn scale_to_height(c: &mut Character, target: f32) -> Option<String> {
    if !(target.is_finite() && target > 0.0) {
        return None;
    }
    let (m, _) = body_mesh(c, &LandmarkOptions::default()).ok()?;
    let (lo, hi) = bounds(&m.positions);
    let h = c.height();
    if !(h > 0.0) {
        return None;
    }
    let k = target / h;
    let o = Vec3::new(0.5 * (lo.x + hi.x), lo.y, 0.5 * (lo.z + hi.z));
    apply(
        c,
        Mat4::from_translation(o) * Mat4::from_scale(Vec3::splat(k)) * Mat4::from_translation(-o),
    );
    Some(format!(
        "scaled every part by {k:.4}: the body is {target:.3} m tall (was {h:.3} m)"
    ))
}

fn apply(c: &mut Character, m: Mat4) {
    c.transform(m);
}
