//! Expressions: shape keys built from expression units by recipes, or made
//! procedurally from the face bones when the mesh carries no units.
//!
//! **Recipes.** A recipe is a named sum of units, `{"happy": {"mouth-corner-puller":
//! 1.0, "eye-left-slit": 0.3, ...}}`: the key's offsets are `Σ weight x unit` on the
//! part that carries the units (morph targets named as the units). The built-in
//! recipes ([`default_recipes`]) use MakeHuman's 34 expression units and make the VRM
//! 1.0 presets (`happy`, `angry`, `sad`, `relaxed`, `surprised`, `aa`, `ih`, `ou`,
//! `ee`, `oh`, `blink`) plus `mouth_smile` and `mouth_frown` for the on-face controls.
//! A user's recipes ([`read_recipes`], `--expressions FILE`) replace built-in ones of
//! the same name and add new ones; a recipe naming a unit no part carries is refused,
//! naming the file, the recipe and the unit.
//!
//! **Splits.** `blink` is split into `blinkLeft` and `blinkRight`, and `mouth_smile` /
//! `mouth_frown` into `.L` / `.R`, with the smooth seam of [`super::split`].
//!
//! **Procedural keys** (no units on the mesh): `blink` rotates each lid's weighted
//! region about the eye centre through the lid bones (the upper lid down to where the
//! lids meet, [`MEET`] of the way from the lower margin to the upper, the lower lid up
//! to it), skinned by the face weights; `aa` rotates the jaw open by [`AA_DEG`] about
//! its pivot (the upper lip is not weighted to the jaw, so it holds). Each is written
//! on every part it moves (skin, lashes, teeth, tongue).
//!
//! **Combinations.** Keys built from units are eased where they fight the keys they
//! are played with: `happy` where it crosses `aa`, `relaxed` where it crosses `blink`
//! ([`super::combine`]).
//!
//! `lookUp`, `lookDown`, `lookLeft`, `lookRight` are eye-bone rotations (the VRM
//! `lookAt` of type bone), and `neutral` is the rest: none of them needs a key.

use std::collections::BTreeMap;
use std::path::Path;

use glam::{Quat, Vec3};

use super::fit::FaceFit;
use super::split::{mask_of_width, seam_half_width, split_lr};
use super::weights::FaceBones;
use crate::error::{Error, Result};
use crate::model::{Body, Character, MorphTarget};

/// Where the lids meet when a procedural blink closes them: this fraction of the way
/// from the lower margin's angle to the upper's.
pub const MEET: f32 = 0.3;
/// How far the procedural `aa` opens the jaw, degrees.
pub const AA_DEG: f32 = 24.0;

pub use crate::parts::vrm_face::VRM_PRESETS;

/// Named recipes: expression name -> unit name -> weight.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recipes {
    /// Where they came from (a file path, or `built-in`), for messages.
    pub source: String,
    /// The recipes.
    pub list: BTreeMap<String, BTreeMap<String, f32>>,
}

/// The built-in recipes over MakeHuman's expression units (see the module docs and
/// `docs/face.md`).
pub fn default_recipes() -> Recipes {
    let r: &[(&str, &[(&str, f32)])] = &[
        (
            "happy",
            &[
                ("mouth-corner-puller", 1.0),
                ("eye-left-slit", 0.3),
                ("eye-right-slit", 0.3),
            ],
        ),
        (
            "angry",
            &[
                ("eyebrows-left-down", 1.0),
                ("eyebrows-right-down", 1.0),
                ("mouth-compression", 0.6),
                ("nose-left-elevation", 0.3),
                ("nose-right-elevation", 0.3),
            ],
        ),
        (
            "sad",
            &[
                ("eyebrows-left-inner-up", 1.0),
                ("eyebrows-right-inner-up", 1.0),
                ("mouth-depression", 0.7),
            ],
        ),
        (
            "relaxed",
            &[
                ("eye-left-slit", 0.5),
                ("eye-right-slit", 0.5),
                ("mouth-corner-puller", 0.3),
            ],
        ),
        (
            "surprised",
            &[
                ("eyebrows-left-up", 1.0),
                ("eyebrows-right-up", 1.0),
                ("eye-left-opened-up", 1.0),
                ("eye-right-opened-up", 1.0),
                ("mouth-open", 0.5),
            ],
        ),
        ("aa", &[("mouth-open", 1.0)]),
        ("ih", &[("mouth-open", 0.3), ("mouth-retraction", 0.6)]),
        ("ou", &[("mouth-pursing", 1.0), ("mouth-protusion", 0.5)]),
        ("ee", &[("mouth-retraction", 1.0), ("mouth-open", 0.15)]),
        ("oh", &[("mouth-open", 0.6), ("mouth-pursing", 0.5)]),
        (
            "blink",
            &[("eye-left-closure", 1.0), ("eye-right-closure", 1.0)],
        ),
        ("mouth_smile", &[("mouth-corner-puller", 1.0)]),
        ("mouth_frown", &[("mouth-depression", 1.0)]),
    ];
    Recipes {
        source: "built-in".into(),
        list: r
            .iter()
            .map(|(n, u)| {
                (
                    n.to_string(),
                    u.iter().map(|(k, w)| (k.to_string(), *w)).collect(),
                )
            })
            .collect(),
    }
}

/// Reads recipes from a JSON file `{"name": {"unit": weight, ...}, ...}`.
pub fn read_recipes(path: &Path) -> Result<Recipes> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse_recipes(&text, &path.display().to_string())
}

/// Parses recipes from JSON text; `source` names it in messages.
pub fn parse_recipes(text: &str, source: &str) -> Result<Recipes> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| Error::invalid(source, format!("not JSON: {e}")))?;
    let obj = v.as_object().ok_or_else(|| {
        Error::invalid(
            source,
            "expected an object {\"expression\": {\"unit\": weight, ...}}",
        )
    })?;
    let mut list = BTreeMap::new();
    for (name, units) in obj {
        let u = units.as_object().ok_or_else(|| {
            Error::invalid(
                source,
                format!("expression {name:?}: expected an object of unit weights"),
            )
        })?;
        let mut m = BTreeMap::new();
        for (unit, w) in u {
            let w = w.as_f64().filter(|w| w.is_finite()).ok_or_else(|| {
                Error::invalid(
                    source,
                    format!("expression {name:?}: weight of {unit:?} is not a number"),
                )
            })?;
            m.insert(unit.clone(), w as f32);
        }
        if name.is_empty() {
            return Err(Error::invalid(source, "an expression has an empty name"));
        }
        list.insert(name.clone(), m);
    }
    Ok(Recipes {
        source: source.into(),
        list,
    })
}

/// What [`build`] made.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Built {
    /// Keys made, by name, with how (`recipe`, `split`, `procedural`).
    pub keys: BTreeMap<String, String>,
    /// One line per decision.
    pub notes: Vec<String>,
}

/// Adds (or replaces) morph `name` on part `pi`.
fn put_morph(c: &mut Character, pi: usize, name: &str, deltas: Vec<Vec3>) {
    let p = &mut c.parts[pi];
    let m = MorphTarget {
        name: name.to_string(),
        position_deltas: deltas,
        normal_deltas: None,
    };
    match p.morphs.iter_mut().find(|x| x.name == name) {
        Some(x) => *x = m,
        None => p.morphs.push(m),
    }
}

fn morph<'a>(c: &'a Character, pi: usize, name: &str) -> Option<&'a [Vec3]> {
    c.parts[pi]
        .morphs
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.position_deltas.as_slice())
}

/// A bone turned about world X through a pivot: `(bone, pivot, angle in radians)`.
pub type Rotation = (u32, Vec3, f32);

/// The offsets of every vertex of `part` when bones rotate about world X through their
/// pivots by the given angles (radians), skinned by the part's weights.
pub fn rotation_deltas(c: &Character, pi: usize, rotations: &[Rotation]) -> Option<Vec<Vec3>> {
    let p = &c.parts[pi];
    let w = p.weights.as_ref()?;
    let mut any = false;
    let d: Vec<Vec3> = p
        .mesh
        .positions
        .iter()
        .zip(&w.vertices)
        .map(|(x, l)| {
            let mut d = Vec3::ZERO;
            for (b, pivot, a) in rotations {
                let wt = crate::model::weight_of(l, *b);
                if wt > 0.0 {
                    let r = Quat::from_axis_angle(Vec3::X, *a);
                    d += wt * (r * (*x - *pivot) + *pivot - *x);
                }
            }
            any |= d.length_squared() > 0.0;
            d
        })
        .collect();
    any.then_some(d)
}

/// The procedural blink rotations of one eye (`k`: 0 left, 1 right).
pub fn blink_rotations(f: &FaceFit, b: &FaceBones, k: usize) -> Vec<Rotation> {
    let Some(eyes) = &f.eyes else {
        return Vec::new();
    };
    let e = eyes[k];
    let (au, al) = (e.elevation(e.upper), e.elevation(e.lower));
    let m = al + MEET * (au - al);
    let mut r = Vec::new();
    if let Some(u) = b.lid_upper[k] {
        r.push((u, e.centre, au - m));
    }
    if let Some(l) = b.lid_lower[k] {
        r.push((l, e.centre, -(m - al)));
    }
    r
}

/// The procedural `aa` rotation (the jaw open by [`AA_DEG`]).
pub fn aa_rotations(f: &FaceFit, b: &FaceBones) -> Vec<Rotation> {
    match (&f.mouth, b.jaw) {
        (Some(m), Some(j)) => vec![(j, m.pivot, AA_DEG.to_radians())],
        _ => Vec::new(),
    }
}

/// Each vertex's weight on `bones` (the lid bones of one eye) on part `pi`.
fn lid_weights(c: &Character, pi: usize, bones: [Option<u32>; 2]) -> Vec<f32> {
    let p = &c.parts[pi];
    let n = p.mesh.positions.len();
    let Some(w) = &p.weights else {
        return vec![0.0; n];
    };
    (0..n)
        .map(|v| bones.iter().flatten().map(|&b| w.get(v, b)).sum())
        .collect()
}

/// The eyes that stand out of the skin ([`super::cover`]), with a note for each.
fn standing_out(
    c: &Character,
    body: &Body,
    f: &FaceFit,
    notes: &mut Vec<String>,
) -> Vec<(usize, super::fit::Eye)> {
    let Some(eyes) = &f.eyes else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, (e, side)) in eyes.iter().zip(["left", "right"]).enumerate() {
        let inside: usize = body
            .skin
            .iter()
            .map(|&pi| super::cover::inside_count(&c.parts[pi].mesh.positions, e))
            .sum();
        if inside >= super::cover::INSIDE_MIN && super::cover::round_eye_part(c, e) {
            notes.push(format!(
                "face: the {side} eye stands out of a skin with no lids ({inside} skin vertices inside the eyeball): the blink closes the skin over it at {} eyeball radii",
                1.0 + super::cover::CLEARANCE
            ));
            out.push((k, *e));
        }
    }
    out
}

/// Builds the expression keys (see the module docs). `user` recipes are added to (and
/// win over) the built-in ones.
pub fn build(
    c: &mut Character,
    body: &Body,
    f: &FaceFit,
    b: &FaceBones,
    user: Option<&Recipes>,
) -> Result<Built> {
    let mut out = Built::default();
    let mut recipes = default_recipes();
    if let Some(u) = user {
        for (k, v) in &u.list {
            recipes.list.insert(k.clone(), v.clone());
        }
    }
    // Parts carrying units: any unit named by a recipe.
    let units: std::collections::BTreeSet<&String> =
        recipes.list.values().flat_map(|m| m.keys()).collect();
    let carriers: Vec<usize> = (0..c.parts.len())
        .filter(|&i| c.parts[i].morphs.iter().any(|m| units.contains(&m.name)))
        .collect();
    if let Some(u) = user {
        for (name, m) in &u.list {
            for unit in m.keys() {
                if !carriers.iter().any(|&i| morph(c, i, unit).is_some()) {
                    return Err(Error::invalid(
                        &u.source,
                        format!("expression {name:?} uses unit {unit:?}, which no part of the character carries as a morph target"),
                    ));
                }
            }
        }
    }
    for &pi in &carriers {
        let n = c.parts[pi].mesh.positions.len();
        for (name, m) in &recipes.list {
            let mut d = vec![Vec3::ZERO; n];
            let mut all = true;
            for (unit, w) in m {
                match morph(c, pi, unit) {
                    Some(u) if u.len() == n => {
                        for (a, b) in d.iter_mut().zip(u) {
                            *a += *w * *b;
                        }
                    }
                    Some(u) => {
                        return Err(Error::invalid(
                            format!("part {:?}", c.parts[pi].name),
                            format!(
                                "expression unit {unit:?} has {} offsets for {n} vertices",
                                u.len()
                            ),
                        ))
                    }
                    None => all = false,
                }
            }
            if all && !m.is_empty() {
                put_morph(c, pi, name, d);
                out.keys.insert(name.clone(), "recipe".into());
            }
        }
    }
    // Procedural keys where no recipe made them.
    let procedural: [(&str, Vec<Rotation>); 2] = [
        ("blink", {
            let mut r = blink_rotations(f, b, 0);
            r.extend(blink_rotations(f, b, 1));
            r
        }),
        ("aa", aa_rotations(f, b)),
    ];
    for (name, rot) in procedural {
        if out.keys.contains_key(name) {
            continue;
        }
        if rot.is_empty() {
            out.notes.push(format!(
                "face: no {name} (no {} bones)",
                if name == "aa" { "jaw" } else { "lid" }
            ));
            continue;
        }
        let standing = if name == "blink" {
            standing_out(c, body, f, &mut out.notes)
        } else {
            Vec::new()
        };
        let mut made = false;
        for pi in 0..c.parts.len() {
            if let Some(mut d) = rotation_deltas(c, pi, &rot) {
                if body.skin.contains(&pi) && !standing.is_empty() {
                    let mesh = &c.parts[pi].mesh;
                    let nb = super::combine::neighbours(mesh);
                    for (k, e) in &standing {
                        let lid = lid_weights(c, pi, [b.lid_upper[*k], b.lid_lower[*k]]);
                        super::cover::close_over(&mesh.positions, &nb, &mut d, &lid, e);
                    }
                }
                put_morph(c, pi, name, d);
                made = true;
            }
        }
        if made {
            out.keys.insert(name.into(), "procedural".into());
        }
    }
    // Splits, on every part that carries the symmetric key.
    let h = f.height;
    for (src, l, r) in [
        ("blink", "blinkLeft", "blinkRight"),
        ("mouth_smile", "mouth_smile.L", "mouth_smile.R"),
        ("mouth_frown", "mouth_frown.L", "mouth_frown.R"),
    ] {
        let mut made = false;
        for pi in 0..c.parts.len() {
            let Some(s) = morph(c, pi, src).map(<[Vec3]>::to_vec) else {
                continue;
            };
            let mesh = &c.parts[pi].mesh;
            let w = seam_half_width(mesh, f.center_x, h);
            let mask: Vec<f32> = mesh
                .positions
                .iter()
                .map(|p| mask_of_width(p.x, f.center_x, w))
                .collect();
            let (dl, dr) = split_lr(&s, &mask);
            put_morph(c, pi, l, dl);
            put_morph(c, pi, r, dr);
            made = true;
        }
        if made {
            out.keys.insert(l.into(), format!("split of {src}"));
            out.keys.insert(r.into(), format!("split of {src}"));
        }
    }
    out.notes
        .extend(super::combine::ease_combinations(c, body, h));
    Ok(out)
}
