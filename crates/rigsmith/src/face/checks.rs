//! Face checks: placement (rubric A, "Face fit") and shape keys and controls (rubric
//! E). Each takes plain data, so a deliberately broken input makes it fire (the tests
//! hold one such positive control per check).
//!
//! | id | what is measured | passes | severity |
//! |---|---|---|---|
//! | `face.lids_around_eye` | largest distance of a lid margin from its eye centre, in eyeball radii | 0.9 to 1.7 | major |
//! | `face.lid_order` | upper margin's elevation minus the lower's, deg | at least 5 | major |
//! | `face.jaw_hinge` | the jaw pivot's height between the lips' line (0) and the eyes (1) | 0.1 to 0.7 | major |
//! | `face.jaw_inside` | jaw pivot outside the head (1) or inside (0) | 0 | major |
//! | `face.surface` | largest distance of the nose tip, the chin and the lip bones' heads from the skin, % H | at most 0.5 | minor |
//! | `face.lip_mid` | lip bone heads' height across their lip, lips' line (0) to the lip's edge (1), the farthest from the middle ([`super::FaceMode::Full`]) | 0.1 to 0.8 | major |
//! | `face.lip_corners` | largest distance between a side's upper and lower lip bones' corner ends and its corner bone, % H | at most 0.05 | major |
//! | `face.controls_rest` | largest key value with every control at rest | 0 | major |
//! | `face.controls_travel` | largest `1 - value` of a driven key at full travel and at 3x travel | at most 1e-6 | major |
//! | `face.opposing` | largest `min` of two keys one control channel drives, over a sweep of 3x travel | 0 | major |
//! | `face.lr_sum` | largest `|L + R - S|` over split pairs, % H | at most 1e-4 (1e-6 H) | major |
//! | `face.seam` | seam second difference ([`super::split`]) | at most [`super::split::SEAM_MAX_SECOND_DIFFERENCE`] | major |
//! | `face.region` | vertices a face key moves (over 0.01% H) outside the head (more than 4% H below the chin, or 15% H from the eyes) | 0 | major |
//! | `face.jaw_chin` | how far `aa` moves the chin, % H | at least 1 | major |
//! | `face.jaw_teeth` | lower teeth's mean travel over the chin's under `aa` | at least 0.5 | major |
//! | `face.jaw_upper_lip` | the upper lip's travel over the chin's under `aa` | at most 0.15 | major |
//! | `face.blink_gap` | the lid gap (between the skin vertices the margins were measured at) with `blink` at 1 over the gap at rest | at most 0.15 | major |
//! | `face.blink_clear` | deepest lid vertex inside the eyeball with `blink` at 1, % H | at most 0.1 | major |
//! | `face.blink_cover` | smallest share, over both eyes, of the eyeball's front (the disc within 0.6 radii of its centre, seen along +Z) that the skin hides with `blink` at 1: sight lines to the eyeball crossing the skin | at least 0.9 | major |
//! | `face.combinations` | new self-intersections of the face under `happy + aa` and `blink + relaxed` (`blink + aa` without them), not present at rest or under either key alone | 0 | major |

use glam::Vec3;

use super::fit::{names, FaceFit};
use super::split;
use crate::model::Mesh;
use crate::parts::face_controls::FaceControl;
use crate::report::{Check, Severity};

fn pct(x: f32, h: f32) -> f64 {
    100.0 * x as f64 / h as f64
}

/// Placement checks of the fitted face (rubric A); `skin` is the welded skin.
pub fn placement(f: &FaceFit, skin: &Mesh) -> Vec<Check> {
    let h = f.height;
    let mut out = Vec::new();
    if let Some(eyes) = &f.eyes {
        let worst = eyes
            .iter()
            .flat_map(|e| [e.upper, e.lower].map(|p| (p - e.centre).length() / e.radius))
            .fold(0.0f32, f32::max);
        out.push(
            Check::new("face.lids_around_eye", "A", Severity::Major)
                .title("Lids around the eyeball")
                .measure("largest lid margin distance from the eye centre, eyeball radii")
                .detail(format!(
                    "eyeball radius {:.2}% H; margins {}",
                    pct(eyes[0].radius, h),
                    if eyes[0].measured_lids {
                        "measured on the skin"
                    } else {
                        "estimated"
                    }
                ))
                .between(worst as f64, 0.9, 1.7),
        );
        let order = eyes
            .iter()
            .map(|e| (e.elevation(e.upper) - e.elevation(e.lower)).to_degrees())
            .fold(f32::INFINITY, f32::min);
        out.push(
            Check::new("face.lid_order", "A", Severity::Major)
                .title("Upper lid above the lower lid")
                .measure("upper margin elevation minus lower, deg")
                .at_least(order as f64, 5.0),
        );
    }
    if let Some(m) = &f.mouth {
        let eye_y = f
            .eyes
            .as_ref()
            .map_or(m.line_y + 0.05 * h, |e| e[0].centre.y);
        let frac = (m.pivot.y - m.line_y) / (eye_y - m.line_y).max(1e-6);
        out.push(
            Check::new("face.jaw_hinge", "A", Severity::Major)
                .title("Jaw pivot at the hinge")
                .measure("pivot height from the lips' line (0) to the eyes (1)")
                .detail(format!(
                    "pivot {:.2}% H behind the lips",
                    pct(m.upper_lip.z - m.pivot.z, h)
                ))
                .between(frac as f64, 0.1, 0.7),
        );
        let bvh = crate::geom::bvh::Bvh::build(&skin.positions, &skin.triangles);
        let outside = if bvh.contains(m.pivot) { 0.0 } else { 1.0 };
        out.push(
            Check::new("face.jaw_inside", "A", Severity::Major)
                .title("Jaw pivot inside the head")
                .measure("1 when the pivot lies outside the skin")
                .at_most(outside, 0.0),
        );
    }
    let near = |p: Vec3| {
        skin.positions
            .iter()
            .map(|q| (*q - p).length())
            .fold(f32::INFINITY, f32::min)
    };
    let pts: Vec<Vec3> = f
        .nose_tip
        .into_iter()
        .chain(f.mouth.map(|m| m.chin))
        .chain(lip_bones(f).iter().map(|b| b.head))
        .collect();
    if !pts.is_empty() {
        let d = pts.iter().map(|p| near(*p)).fold(0.0f32, f32::max);
        out.push(
            Check::new("face.surface", "A", Severity::Minor)
                .title("Nose, chin and lips on the surface")
                .measure("largest distance from the skin, % H")
                .at_most(pct(d, h), 0.5),
        );
    }
    out.extend(lips(f));
    out
}

/// The lip bones among the fit's bones ([`super::FaceMode::Full`]): upper left and
/// right, then lower left and right.
fn lip_bones(f: &FaceFit) -> Vec<&crate::model::Bone> {
    names::LIP_UPPER
        .iter()
        .chain(&names::LIP_LOWER)
        .filter_map(|n| f.bones.iter().find(|(b, _)| b.name == *n).map(|(b, _)| b))
        .collect()
}

/// The lip bones' checks (rubric A, "lip bones mid-lip, corners coincident"), when
/// the face has lip bones and a mouth: `face.lip_mid`, the height of each lip bone's
/// head across its lip, from the lips' line (0) to the lip's outer edge (1: the
/// hollow under the nose for the upper lip, above the chin for the lower), the one
/// farthest from the middle; `face.lip_corners`, the largest distance between the
/// corner ends of a side's upper and lower lip bones and its corner bone's head.
pub fn lips(f: &FaceFit) -> Vec<Check> {
    let (Some(m), h) = (&f.mouth, f.height) else {
        return Vec::new();
    };
    let bone = |n: &str| f.bones.iter().find(|(b, _)| b.name == n).map(|(b, _)| b);
    let mut across: Option<f32> = None;
    let mut worst = |frac: f32| {
        if across.map_or(true, |a| (frac - 0.45).abs() > (a - 0.45).abs()) {
            across = Some(frac);
        }
    };
    for k in 0..2 {
        if let Some(b) = bone(names::LIP_UPPER[k]) {
            worst((b.head.y - m.line_y) / (m.upper_top_y - m.line_y).max(1e-9));
        }
        if let Some(b) = bone(names::LIP_LOWER[k]) {
            worst((m.line_y - b.head.y) / (m.line_y - m.lower_bottom_y).max(1e-9));
        }
    }
    let Some(across) = across else {
        return Vec::new();
    };
    let mut apart = 0.0f32;
    for k in 0..2 {
        let ends: Vec<Vec3> = [
            bone(names::LIP_UPPER[k]).map(|b| b.tail),
            bone(names::LIP_LOWER[k]).map(|b| b.tail),
            bone(names::LIP_CORNER[k]).map(|b| b.head),
        ]
        .into_iter()
        .flatten()
        .collect();
        for a in &ends {
            for b in &ends {
                apart = apart.max((*a - *b).length());
            }
        }
    }
    vec![
        Check::new("face.lip_mid", "A", Severity::Major)
            .title("Lip bones mid-lip")
            .measure("lip bone head's height across its lip, lips' line (0) to the lip's edge (1)")
            .detail(format!(
                "upper lip {:.2}% H tall, lower lip {:.2}% H",
                pct(m.upper_top_y - m.line_y, h),
                pct(m.line_y - m.lower_bottom_y, h)
            ))
            .between(across as f64, 0.1, 0.8),
        Check::new("face.lip_corners", "A", Severity::Major)
            .title("Lip corners coincident")
            .measure(
                "largest distance between a side's lip bone corner ends and its corner bone, % H",
            )
            .at_most(pct(apart, h), 0.05),
    ]
}

/// Control checks (rubric E): rest, full travel, opposing keys.
pub fn controls(ctrls: &[FaceControl]) -> Vec<Check> {
    if ctrls.is_empty() {
        return Vec::new();
    }
    let mut rest = 0.0f32;
    let mut travel = 0.0f32;
    let mut both = 0.0f32;
    for c in ctrls {
        for (_, v) in c.evaluate(Vec3::ZERO) {
            rest = rest.max(v.abs());
        }
        for d in &c.drivers {
            let k = ["LOC_X", "LOC_Y", "LOC_Z"]
                .iter()
                .position(|a| *a == d.channel)
                .unwrap_or(1);
            for mult in [1.0f32, 3.0] {
                let mut l = [0.0f32; 3];
                l[k] = d.sign * d.travel * mult;
                let v = c
                    .evaluate(Vec3::from_array(l))
                    .into_iter()
                    .find(|(n, _)| *n == d.key)
                    .map_or(0.0, |x| x.1);
                travel = travel.max(1.0 - v);
            }
        }
        let t = c.drivers.iter().map(|d| d.travel).fold(0.0f32, f32::max);
        for s in -60..=60 {
            let y = t * s as f32 / 20.0;
            let vals = c.evaluate(Vec3::new(0.0, y, 0.0));
            // Every two keys one channel drives are opposing: never both on.
            for (i, d) in c.drivers.iter().enumerate() {
                for (j, e) in c.drivers.iter().enumerate().skip(i + 1) {
                    if e.channel == d.channel && e.key != d.key {
                        both = both.max(vals[i].1.min(vals[j].1));
                    }
                }
            }
        }
    }
    vec![
        Check::new("face.controls_rest", "E", Severity::Major)
            .title("Keys 0 at rest")
            .measure("largest key value with every control at rest")
            .at_most(rest as f64, 0.0),
        Check::new("face.controls_travel", "E", Severity::Major)
            .title("Full travel gives 1")
            .measure("largest 1 - key value at full travel and at 3x travel")
            .at_most(travel as f64, 1e-6),
        Check::new("face.opposing", "E", Severity::Major)
            .title("Opposing keys never both on")
            .measure("largest min(plus key, minus key) over a sweep of 3x travel")
            .at_most(both as f64, 0.0),
    ]
}

/// `L + R == S` over split pairs `(left, right, symmetric)` of offsets, and the seam's
/// smoothness on `mesh` with the split weight `mask` (see [`super::split`]).
pub fn split_checks(
    pairs: &[(&[Vec3], &[Vec3], &[Vec3])],
    mesh: &Mesh,
    mask: impl Fn(f32) -> f32,
    cx: f32,
    h: f32,
) -> Vec<Check> {
    let mut worst = 0.0f32;
    for (l, r, s) in pairs {
        for ((a, b), c) in l.iter().zip(r.iter()).zip(s.iter()) {
            worst = worst.max((*a + *b - *c).length());
        }
    }
    let e = split::seam_edge_length(mesh, cx, h).unwrap_or(0.0);
    let w = split::seam_half_width(mesh, cx, h);
    let sd = split::seam_second_difference(mask, cx, w, e);
    vec![
        Check::new("face.lr_sum", "E", Severity::Major)
            .title("L + R at 1 equals the symmetric key")
            .measure("largest |L + R - S|, % H")
            .detail(format!("{} split pairs", pairs.len()))
            .at_most(pct(worst, h), 1e-4),
        Check::new("face.seam", "E", Severity::Major)
            .title("Split seam invisible")
            .measure("largest second difference of the split weight at the mesh's edge length")
            .detail(format!(
                "seam half width {:.2}% H, edge length {:.3}% H",
                pct(w, h),
                pct(e, h)
            ))
            .at_most(sd as f64, split::SEAM_MAX_SECOND_DIFFERENCE as f64),
    ]
}

/// Vertices that keys move (more than 0.01% H) outside the face region: more than 4%
/// H below `chin_y` or more than 15% H from `eye_mid`. `keys`: `(positions, deltas)`.
pub fn region(keys: &[(&[Vec3], &[Vec3])], chin_y: f32, eye_mid: Vec3, h: f32) -> Check {
    let mut n = 0usize;
    for (p, d) in keys {
        for (x, dx) in p.iter().zip(d.iter()) {
            if dx.length() > 1e-4 * h
                && (x.y < chin_y - 0.04 * h || (*x - eye_mid).length() > 0.15 * h)
            {
                n += 1;
            }
        }
    }
    Check::new("face.region", "E", Severity::Major)
        .title("Face keys stay on the face")
        .measure("vertices moved outside the face region")
        .at_most(n as f64, 0.0)
}

/// Jaw-open checks on `aa`: displacements of the chin, the upper lip (skin vertices)
/// and the lower teeth (their mean; `None` without teeth).
pub fn jaw_open(chin: f32, upper_lip: f32, lower_teeth: Option<f32>, h: f32) -> Vec<Check> {
    let ratio = upper_lip / chin.max(1e-9);
    let mut out = vec![
        Check::new("face.jaw_chin", "E", Severity::Major)
            .title("Jaw open moves the chin")
            .measure("chin travel under aa, % H")
            .at_least(pct(chin, h), 1.0),
        Check::new("face.jaw_upper_lip", "E", Severity::Major)
            .title("Jaw open holds the upper lip")
            .measure("upper lip travel over the chin's under aa")
            .detail(format!("upper lip {:.3}% H", pct(upper_lip, h)))
            .at_most(ratio as f64, 0.15),
    ];
    if let Some(t) = lower_teeth {
        out.push(
            Check::new("face.jaw_teeth", "E", Severity::Major)
                .title("Lower teeth follow the jaw")
                .measure("lower teeth's mean travel over the chin's under aa")
                .at_least((t / chin.max(1e-9)) as f64, 0.5),
        );
    }
    out
}

/// Blink checks: the lid gap (the opening's height: the upper margin's height over
/// the lower's, 0 once the upper passes below) at rest and with `blink` at 1, and the
/// deepest lid vertex inside the eyeball (metres, 0 when none).
pub fn blink(gap_rest: f32, gap_closed: f32, inside: f32, h: f32) -> Vec<Check> {
    vec![
        Check::new("face.blink_gap", "E", Severity::Major)
            .title("Blink closes the lids")
            .measure("lid gap with blink at 1 over the gap at rest")
            .detail(format!(
                "gap {:.3}% H at rest, {:.3}% H closed",
                pct(gap_rest, h),
                pct(gap_closed, h)
            ))
            .at_most((gap_closed / gap_rest.max(1e-9)) as f64, 0.15),
        Check::new("face.blink_clear", "E", Severity::Major)
            .title("Lids close without passing through the eyeball")
            .measure("deepest lid vertex inside the eyeball, % H")
            .at_most(pct(inside, h), 0.1),
    ]
}

/// Blink covers the eyes: the smallest share, over both eyes, of the eyeball's front
/// the skin hides with `blink` at 1 (`shut`), and at rest (`open`, for the detail).
pub fn blink_cover(open: f32, shut: f32) -> Check {
    Check::new("face.blink_cover", "E", Severity::Major)
        .title("Blink covers the eyes")
        .measure("smallest share of an eyeball's front the skin hides with blink at 1")
        .detail(format!(
            "{:.0}% hidden at rest, {:.0}% with blink at 1",
            100.0 * open,
            100.0 * shut
        ))
        .at_least(shut as f64, 0.9)
}

/// New self-intersections of `mesh` (among triangles with a vertex flagged in `face`)
/// under each combination `(name, a, b)` of two keys' offsets: pairs that intersect
/// with `a + b` applied but neither at rest, nor with `a` alone, nor with `b` alone.
pub fn combinations(
    mesh: &Mesh,
    face: &[bool],
    combos: &[(String, Vec<Vec3>, Vec<Vec3>)],
) -> Check {
    let fp = super::combine::FacePairs::new(mesh, face);
    let rest = fp.under(&[]);
    let mut total = 0usize;
    let mut names = Vec::new();
    for (n, a, b) in combos {
        let mut base = fp.under(&[b]);
        base.extend(rest.iter().copied());
        let k = fp.new_under(&base, a, b).len();
        total += k;
        names.push(format!("{n}: {k}"));
    }
    Check::new("face.combinations", "E", Severity::Major)
        .title("Combinations leave no new self-intersections")
        .measure("new self-intersecting triangle pairs (not at rest, not under either key alone)")
        .detail(names.join(", "))
        .at_most(total as f64, 0.0)
}
