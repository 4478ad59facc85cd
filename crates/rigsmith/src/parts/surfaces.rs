//! Surface classes: every material is tagged with what it is (skin, face, eye, hair,
//! cloth, line-work, other) so shading and later stages can treat classes differently.
//!
//! The table is keyed on the MATERIAL name (mesh node names such as `Object_7` or
//! `Casual_Body` carry no meaning: a purple shirt on a mesh called `Casual_Body` is not
//! skin; material names survive the glTF round trip and are what the artist chose). A
//! part without a material is keyed, and named, by its part name: the only case where a
//! mesh name is read. It is decided in descending order of trust:
//!
//! 1. **the name**: VRoid's formal infixes (`N00_000_00_Body_00_SKIN_Instance`: `SKIN`,
//!    `FACE`, `EYE`, `HAIR`, `CLOTH`), then whole tokens (`skirt`, `bangs`, `iris`...);
//!    an `outline`/`line` token makes it line-work whatever else it says (an outline
//!    material named `Hair_Outline` is line-work).
//! 2. **the weights**: a surface pulled at least 5 % (of its total vertex weight) by the
//!    bones of a spring chain takes that chain's class (hair -> hair, skirt/cape/ribbon...
//!    -> cloth). The threshold is deliberately low: a hair mesh welded to the head
//!    at the cap and sprung only at the strands is still hair.
//! 3. **the flags**: line-work (an inverted-hull outline pass) is not a surface of the
//!    character at all. Its material is outline-like: single-sided (`doubleSided`
//!    false) and drawn solid (`alphaMode` `OPAQUE` or `MASK`), on a shell turned inside
//!    out (every part of it encloses a negative volume about its centroid, at least
//!    [`INSIDE_OUT_SHARE`] of its bounding box: the hull's faces point inward so only
//!    its back shows behind the body).
//!
//! A surface none of the three decides is `other`.

use std::collections::BTreeMap;
use std::f32::consts::TAU;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::chains::Chain;
use crate::humanoid::Roles;
use crate::model::naming::tokens;
use crate::model::{AlphaMode, Character, Mesh, Part};

/// What a surface is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SurfaceClass {
    /// Body skin.
    Skin,
    /// The face (skin shading with face-specific treatment).
    Face,
    /// Eyes (iris, whites, highlights, lashes).
    Eye,
    /// Hair.
    Hair,
    /// Garments.
    Cloth,
    /// Outline / line-work passes.
    LineWork,
    /// Rigid props and anything not recognised.
    Other,
}

/// The minimum share of a surface's vertex weight pulled by a chain class for the
/// weights to decide its class (5 %).
pub const CHAIN_WEIGHT_SHARE: f32 = 0.05;

/// A shell counts as turned inside out when its signed volume about its centroid is
/// below minus this share of its bounding box's volume.
pub const INSIDE_OUT_SHARE: f32 = 0.05;

/// Class from a name's tokens, or `None` when the name says nothing.
pub(crate) fn class_from_name(name: &str) -> Option<SurfaceClass> {
    use SurfaceClass::*;
    let toks = tokens(name);
    let has = |w: &[&str]| toks.iter().any(|t| w.contains(&t.as_str()));
    // VRoid's formal infixes are whole upper-case tokens.
    for raw in name.split(['_', '-', '.', ' ']) {
        match raw {
            "SKIN" | "BODY" => return Some(Skin),
            "FACE" => return Some(Face),
            "EYE" | "EYEIRIS" | "EYEHIGHLIGHT" | "EYEWHITE" | "EYELINE" | "EYELASH" => {
                return Some(Eye)
            }
            "HAIR" | "HAIRBACK" => return Some(Hair),
            "CLOTH" => return Some(Cloth),
            _ => {}
        }
    }
    if has(&[
        "eye",
        "eyes",
        "iris",
        "pupil",
        "sclera",
        "cornea",
        "eyelash",
        "eyelashes",
        "lash",
        "lashes",
        "highlight",
        "eyewhite",
    ]) {
        return Some(Eye);
    }
    if has(&[
        "hair",
        "bangs",
        "fringe",
        "ponytail",
        "twintail",
        "twintails",
        "braid",
        "ahoge",
        "tails",
        "tail",
        "bun",
    ]) {
        return Some(Hair);
    }
    if has(&[
        "face", "head", "mouth", "teeth", "tongue", "brow", "eyebrow", "eyebrows",
    ]) {
        return Some(Face);
    }
    if has(&[
        "cloth",
        "clothes",
        "skirt",
        "shirt",
        "tshirt",
        "dress",
        "pants",
        "trousers",
        "shorts",
        "jeans",
        "tights",
        "stockings",
        "socks",
        "sock",
        "shoe",
        "shoes",
        "boot",
        "boots",
        "jacket",
        "coat",
        "cape",
        "sleeve",
        "sleeves",
        "top",
        "tops",
        "bottom",
        "bottoms",
        "uniform",
        "garment",
        "ribbon",
        "scarf",
        "glove",
        "gloves",
        "hat",
        "cap",
        "vest",
        "hood",
        "hoodie",
        "belt",
        "collar",
        "apron",
        "kimono",
        "robe",
        "leotard",
        "bra",
        "panties",
        "underwear",
        "sweater",
        "blouse",
        "tie",
        "cloak",
        "armor",
        "armour",
        "suit",
        "outfit",
        "costume",
    ]) {
        return Some(Cloth);
    }
    if has(&[
        "skin", "body", "base", "human", "arms", "legs", "hands", "feet",
    ]) {
        return Some(Skin);
    }
    None
}

fn is_line_work(name: &str) -> bool {
    let toks = tokens(name);
    toks.iter().any(|t| {
        matches!(
            t.as_str(),
            "outline" | "outlines" | "line" | "lines" | "lineart" | "linework" | "inkline"
        )
    })
}

/// The surface class of every material (parts without a material are keyed by their
/// part name). `chains` are the character's chains (from [`super::chains_from_skeleton`]
/// or [`super::build_chains`]), used by the weights rule.
pub fn surface_classes(c: &Character, chains: &[Chain]) -> BTreeMap<String, SurfaceClass> {
    // Bone index -> surface class its chain pulls toward.
    let mut pull: BTreeMap<usize, SurfaceClass> = BTreeMap::new();
    if let Some(skel) = &c.skeleton {
        for ch in chains.iter().filter(|ch| ch.springs()) {
            let class = if ch.class == "hair" {
                SurfaceClass::Hair
            } else if matches!(ch.class.as_str(), "breast" | "bust") {
                continue;
            } else {
                SurfaceClass::Cloth
            };
            for b in &ch.bones {
                if let Some(i) = skel.find(b) {
                    pull.insert(i, class);
                }
            }
        }
    }
    // Group parts by key, in part order.
    let mut keys: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in c.parts.iter().enumerate() {
        let key = p.material.clone().unwrap_or_else(|| p.name.clone());
        if !groups.contains_key(&key) {
            keys.push(key.clone());
        }
        groups.entry(key).or_default().push(i);
    }
    let mut out = BTreeMap::new();
    for key in keys {
        let parts = &groups[&key];
        // The key is the material name, or the part name of a part without one.
        let class = if is_line_work(&key) {
            SurfaceClass::LineWork
        } else if let Some(k) = class_from_name(&key) {
            k
        } else if let Some(k) = by_weights(c, parts, &pull) {
            k
        } else if outline_like(c, &key, parts) {
            SurfaceClass::LineWork
        } else {
            SurfaceClass::Other
        };
        out.insert(key, class);
    }
    out
}

/// The flags rule: an outline-like material (single-sided, drawn solid) on parts that
/// are all shells turned inside out (see the module docs).
fn outline_like(c: &Character, key: &str, parts: &[usize]) -> bool {
    let Some(flags) = c.materials.get(key) else {
        return false;
    };
    !flags.double_sided
        && flags.alpha_mode != AlphaMode::Blend
        && parts.iter().all(|&i| inside_out(&c.parts[i].mesh))
}

/// Whether a mesh is a shell turned inside out: its signed volume about its centroid
/// is below minus [`INSIDE_OUT_SHARE`] of its bounding box's volume.
pub(crate) fn inside_out(m: &Mesh) -> bool {
    if m.positions.is_empty() || m.triangles.is_empty() {
        return false;
    }
    let centroid = m.positions.iter().copied().sum::<glam::Vec3>() / m.positions.len() as f32;
    let mut v = 0.0f64;
    for t in &m.triangles {
        let p = |k: usize| m.positions.get(t[k] as usize).copied().unwrap_or(centroid) - centroid;
        v += f64::from(p(0).dot(p(1).cross(p(2)))) / 6.0;
    }
    let (lo, hi) = m.bounds();
    let d = hi - lo;
    let bbox = f64::from(d.x) * f64::from(d.y) * f64::from(d.z);
    bbox > 0.0 && v < -f64::from(INSIDE_OUT_SHARE) * bbox
}

/// The chain class pulling at least [`CHAIN_WEIGHT_SHARE`] of these parts' weight.
fn by_weights(
    c: &Character,
    parts: &[usize],
    pull: &BTreeMap<usize, SurfaceClass>,
) -> Option<SurfaceClass> {
    let mut total = 0.0f32;
    let mut per: BTreeMap<SurfaceClass, f32> = BTreeMap::new();
    for &pi in parts {
        let Some(w) = &c.parts[pi].weights else {
            continue;
        };
        for list in &w.vertices {
            for inf in list {
                total += inf.weight;
                if let Some(k) = pull.get(&(inf.bone as usize)) {
                    *per.entry(*k).or_insert(0.0) += inf.weight;
                }
            }
        }
    }
    if total <= 0.0 {
        return None;
    }
    per.into_iter()
        .filter(|(_, w)| *w / total >= CHAIN_WEIGHT_SHARE)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// The height of the hip joints (crotch line): from the thighs' heads, else 0.5 H above
/// the character's lowest point.
pub(crate) fn hip_height(c: &Character) -> f32 {
    if let Some(s) = &c.skeleton {
        let r = Roles::of(s, c.vrm.as_ref().map(|v| &v.humanoid));
        let ys: Vec<f32> = r
            .upper_leg
            .iter()
            .flatten()
            .map(|&i| s.bones[i].head.y)
            .collect();
        if !ys.is_empty() {
            return ys.iter().sum::<f32>() / ys.len() as f32;
        }
    }
    let (lo, _) = c.bounds();
    lo.y + 0.5 * c.height()
}

/// Whether `p` is a loose garment hanging from the trunk (a skirt, dress, long coat):
/// named as a skirt/dress, or a cloth (or unnamed) part that spans the hip line and
/// whose lower third surrounds the body's vertical axis (at least 14 of 16 sectors), or
/// goes more than half around it with one opening (a coat open down the front: at
/// least [`OPEN_COAT_SECTORS`] sectors, the empty ones one run; trouser legs cover
/// about half, with two gaps, before and behind).
pub(crate) fn is_loose_garment(c: &Character, p: &Part) -> bool {
    let names = [p.material.as_deref().unwrap_or(""), p.name.as_str()];
    let class = names.iter().find_map(|n| class_from_name(n));
    if !matches!(class, None | Some(SurfaceClass::Cloth)) {
        return false;
    }
    let named = names.iter().any(|n| {
        crate::model::naming::tokens(n)
            .iter()
            .any(|t| matches!(t.as_str(), "skirt" | "skirts" | "dress" | "miniskirt"))
    });
    let pos = &p.mesh.positions;
    if pos.len() < 8 {
        return false;
    }
    if named {
        return true;
    }
    let (lo, hi) = p.mesh.bounds();
    let hy = hip_height(c);
    if !(lo.y < hy && hi.y > hy) {
        return false;
    }
    let (cx, cz) = axis_of(pos);
    let cut = lo.y + (hi.y - lo.y) / 3.0;
    let mut bins = [false; 16];
    for q in pos.iter().filter(|q| q.y <= cut) {
        let a = (q.x - cx).atan2(q.z - cz).rem_euclid(TAU);
        bins[((a / TAU * 16.0) as usize).min(15)] = true;
    }
    let covered = bins.iter().filter(|b| **b).count();
    // All around; or, a coat open down the front (or a cloak open at the back), more
    // than half around with one opening: the sectors it leaves are one run.
    let gaps = (0..16).filter(|&k| bins[k] && !bins[(k + 1) % 16]).count();
    covered >= 14 || (covered >= OPEN_COAT_SECTORS && gaps == 1)
}

/// Sectors (of 16 around the body's axis) a loose garment open down one side (a long
/// coat open at the front) covers at least in its lower third ([`is_loose_garment`]).
pub const OPEN_COAT_SECTORS: usize = 9;

/// Whether part `i` is a loose panel hanging down the back (a cape, a cloak) or the front
/// (a tabard) from the upper trunk: a garment, or an accessory that is an open sheet
/// (a cape standing off the back farther than a garment lies), a cloth (or unnamed)
/// part, not a loose
/// garment ([`is_loose_garment`]), that spans the hip line and reaches at least
/// [`PANEL_ABOVE_HIP`] H above it, whose vertices below the hip line lie, nine in ten,
/// on one side of the trunk's centre (behind or before it) and cover at most half of
/// the sectors around the trunk's axis. Its lower part would otherwise copy the legs'
/// weights and tear when they part.
pub(crate) fn is_hanging_panel(c: &Character, i: usize) -> bool {
    let p = &c.parts[i];
    let names = [p.material.as_deref().unwrap_or(""), p.name.as_str()];
    let class = names.iter().find_map(|n| class_from_name(n));
    if !matches!(class, None | Some(SurfaceClass::Cloth)) || p.mesh.positions.len() < 8 {
        return false;
    }
    let Ok(body) = c.body() else {
        return false;
    };
    // A garment, or an accessory that is an open sheet (not a shield or a box).
    let sheet = match body.roles[i].class {
        crate::model::PartClass::Garment => true,
        crate::model::PartClass::Accessory => has_open_border(&p.mesh),
        _ => false,
    };
    if !sheet || body.skin.contains(&i) || is_loose_garment(c, p) {
        return false;
    }
    let h = body.height;
    let (lo, hi) = p.mesh.bounds();
    let hy = hip_height(c);
    if !(lo.y < hy && hi.y > hy + PANEL_ABOVE_HIP * h) {
        return false;
    }
    // The trunk's centre at the hip line: the skin there.
    let band: Vec<Vec3> = body
        .mesh
        .positions
        .iter()
        .copied()
        .filter(|q| (q.y - hy).abs() < 0.05 * h)
        .collect();
    if band.is_empty() {
        return false;
    }
    let (cx, cz) = axis_of(&band);
    let below: Vec<&Vec3> = p.mesh.positions.iter().filter(|q| q.y < hy).collect();
    let behind = below.iter().filter(|q| q.z < cz).count() as f32;
    let n = below.len() as f32;
    let one_side = behind >= 0.9 * n || behind <= 0.1 * n;
    let mut bins = [false; 16];
    for q in &below {
        let a = (q.x - cx).atan2(q.z - cz).rem_euclid(TAU);
        bins[((a / TAU * 16.0) as usize).min(15)] = true;
    }
    one_side && bins.iter().filter(|b| **b).count() <= 8
}

/// Whether `m` has an edge on one triangle only (its vertices welded at 1e-6 of its
/// size, as [`crate::model::rigid_by_shape`] welds them).
fn has_open_border(m: &Mesh) -> bool {
    let (lo, hi) = m.bounds();
    let w = crate::geom::weld::weld(&m.positions, &m.triangles, 1e-6 * (hi - lo).length());
    crate::model::edge_uses(&w.triangles).contains(&1)
}

/// How far above the hip line (H) a hanging panel reaches at least: it hangs from the
/// upper trunk ([`is_hanging_panel`]).
pub const PANEL_ABOVE_HIP: f32 = 0.15;

/// The vertical axis of a point set: the midpoint of its x and z ranges.
pub(crate) fn axis_of(pos: &[Vec3]) -> (f32, f32) {
    let (lo, hi) = crate::model::Mesh {
        positions: pos.to_vec(),
        ..Default::default()
    }
    .bounds();
    (0.5 * (lo.x + hi.x), 0.5 * (lo.z + hi.z))
}
