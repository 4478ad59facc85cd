//! The body: which parts form the character's skin, what every other part is, and the
//! height H that every stage measures in.
//!
//! Game characters arrive in pieces: a Body / Head / Legs / Feet mesh each, split again
//! into one primitive per material (skin, shirt, trousers, hair). Most clothing is the
//! same surface painted by material, so the skin is the union of the pieces whose open
//! borders meet. Hats, hair, props and eyes are separate pieces. [`Body::of`] decides
//! from geometry, with names only as hints, and keeps a reason per part:
//!
//! 1. **Seams.** All vertices are welded at `1e-5` of the character's size. Two parts
//!    share a seam when at least [`SEAM_MIN`] open-border vertices of one coincide with
//!    vertices of the other. A part most of whose vertices coincide with another's (a
//!    bodysuit duplicate) shares no seam: it is an overlay.
//! 2. **Skin.** The seam graph's components are grown from each tall component: a
//!    component joins when most of its open border lies on the grown surface (within
//!    [`TOUCH`] H), and a closed piece joins when it enters the surface and reaches
//!    far out of it (an arm pushed into a torso). A piece that caps the top (a hat or
//!    helmet, closed or open below, judged by rays) does not join, and leaves when it
//!    joined beside the head it sits on. The largest result is the skin.
//!    Parts named hair, eyes or teeth whose geometry agrees are kept out of it.
//! 3. **Other parts.** Eyes and teeth (name and size, or small closed islands): rigid.
//!    Hair (name, on the upper body). Garments: shells lying over the skin (most
//!    vertices within [`GARMENT_NEAR`] H). Everything else is an accessory, rigid to
//!    the bone it sits on; a part far from any skin is a floating prop.
//! 4. **The union.** The skin parts welded into one [`Mesh`] ([`Body::mesh`]), with a
//!    map from every skin vertex to its union vertex ([`Body::map`]), so that fitting
//!    sees one surface and binding couples the seams as on a welded body.
//!
//! Overrides ([`BodyOptions`]) win over every rule.

use std::collections::BTreeMap;

use glam::Vec3;
use serde::Serialize;

use super::naming::tokens;
use super::{Character, Mesh};
use crate::error::{Error, Result};
use crate::geom::bvh::Bvh;
use crate::geom::weld::weld_near;

/// What a part of a character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartClass {
    /// A piece of the skin surface (head, torso, legs, feet, hands; painted clothing).
    Skin,
    /// A shell lying over the skin; follows the skin under it.
    Garment,
    /// Hair (and brows, lashes); follows the head or its own chains.
    Hair,
    /// Eyes, teeth, a tongue: one bone at weight 1.0.
    Rigid,
    /// A hat, helmet, glasses, backpack, belt or held prop: rigid to the bone it sits
    /// on (the one given, else the bone carrying most of the skin under it).
    Accessory,
}

impl PartClass {
    /// The class's name as written in reports.
    pub fn name(self) -> &'static str {
        match self {
            PartClass::Skin => "skin",
            PartClass::Garment => "garment",
            PartClass::Hair => "hair",
            PartClass::Rigid => "rigid",
            PartClass::Accessory => "accessory",
        }
    }

    /// Whether the part gets one bone per island.
    pub fn is_rigid(self) -> bool {
        matches!(self, PartClass::Rigid | PartClass::Accessory)
    }
}

/// A part's class and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartRole {
    /// The class.
    pub class: PartClass,
    /// The bone a rigid part or accessory is bound to, when the user named one.
    pub bone: Option<String>,
    /// Why, in plain words (measures in units of H).
    pub reason: String,
}

/// User overrides of [`Body::of`]: part names (or material names) per class.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BodyOptions {
    /// Parts that are skin pieces (`--body A,B`).
    pub body: Vec<String>,
    /// Parts that are garments (`--garment A,B`).
    pub garment: Vec<String>,
    /// Parts that are rigid, optionally to a named bone (`--rigid PART[=BONE]`).
    pub rigid: Vec<(String, Option<String>)>,
}

/// The character's skin and the roles of its parts (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Indices of the skin parts, in part order.
    pub skin: Vec<usize>,
    /// Per part (in part order): its class and why.
    pub roles: Vec<PartRole>,
    /// The skin parts welded into one surface.
    pub mesh: Mesh,
    /// Per part: for each of its vertices its index in [`Body::mesh`]; empty for parts
    /// that are not skin.
    pub map: Vec<Vec<u32>>,
    /// Bounds of the skin, `(min, max)`.
    pub bounds: (Vec3, Vec3),
    /// The height H: the skin's vertical extent (its largest extent when it is flat).
    pub height: f32,
    /// One line per decision that is not a part's role (fallbacks).
    pub notes: Vec<String>,
}

/// Border vertices of one part that must coincide with another part for a seam.
pub const SEAM_MIN: usize = 3;
/// Distance from the skin, in H, within which an open border "lies on" it.
pub const TOUCH: f32 = 0.005;
/// Distance from the skin, in H, within which most of a garment lies.
pub const GARMENT_NEAR: f32 = 0.05;
/// Distance, in H, within which 90% of a tight shell (a shirt, tights) lies over
/// another piece.
pub const SHELL_NEAR: f32 = 0.02;
/// Largest extent, in H, of a part that name-says eye or teeth.
pub const SMALL_PART: f32 = 0.12;

/// Name tokens (part or material) that say eye, teeth or tongue: the one list of rigid
/// part names every stage uses.
pub const RIGID_NAMES: &[&str] = &[
    "eye", "eyes", "eyeball", "eyeballs", "iris", "cornea", "pupil", "teeth", "tooth", "tongue",
];
/// Name tokens that say hair.
pub const HAIR_NAMES: &[&str] = &[
    "hair",
    "hairs",
    "eyebrow",
    "eyebrows",
    "brow",
    "brows",
    "eyelash",
    "eyelashes",
    "lash",
    "lashes",
    "beard",
    "moustache",
    "mustache",
    "ponytail",
    "bangs",
    "fringe",
];
/// Name tokens that say garment.
pub const GARMENT_NAMES: &[&str] = &[
    "shirt", "tshirt", "top", "pants", "trousers", "jeans", "shorts", "skirt", "dress", "robe",
    "coat", "jacket", "cape", "cloak", "vest", "sleeve", "sleeves", "sock", "socks", "glove",
    "gloves", "shoe", "shoes", "boot", "boots", "tights", "suit", "scarf", "tabard", "garment",
    "cloth", "clothes", "outfit", "hoodie", "sweater", "apron", "overalls",
];

fn has_token(p: &super::Part, list: &[&str]) -> bool {
    let mut t = tokens(&p.name);
    if let Some(m) = &p.material {
        t.extend(tokens(m));
    }
    t.iter().any(|t| list.contains(&t.as_str()))
}

/// Whether a part's name or material says eye, teeth or tongue.
pub fn rigid_by_name(name: &str) -> bool {
    tokens(name)
        .iter()
        .any(|t| RIGID_NAMES.contains(&t.as_str()))
}

fn named(p: &super::Part, list: &[String]) -> bool {
    list.iter()
        .any(|n| *n == p.name || p.material.as_deref() == Some(n.as_str()))
}

impl BodyOptions {
    /// Whether `--body`, `--garment` or `--rigid` names part `p` (by its name or its
    /// material).
    pub fn tells(&self, p: &super::Part) -> bool {
        named(p, &self.body)
            || named(p, &self.garment)
            || self
                .rigid
                .iter()
                .any(|(n, _)| named(p, std::slice::from_ref(n)))
    }

    /// The roles as a user tells them: `rigid` entries `PART` or `PART=BONE` (split at
    /// the first `=`), as `--rigid` takes them.
    pub fn told(body: Vec<String>, garment: Vec<String>, rigid: &[String]) -> BodyOptions {
        BodyOptions {
            body,
            garment,
            rigid: rigid
                .iter()
                .map(|r| match r.split_once('=') {
                    Some((p, b)) => (p.to_string(), Some(b.to_string())),
                    None => (r.clone(), None),
                })
                .collect(),
        }
    }
}

struct PartGeom {
    /// Global (welded) id per vertex.
    gid: Vec<u32>,
    /// Distinct global ids on open borders.
    border: Vec<u32>,
    lo: Vec3,
    hi: Vec3,
}

impl Character {
    /// The character's skin and part roles under its own overrides
    /// ([`Character::body_options`]), computed once per geometry ([`Body::of`]).
    pub fn body(&self) -> Result<Body> {
        Body::of(self, &self.body_options)
    }

    /// Takes `o` as its own part roles ([`Character::body_options`]), after refusing a
    /// name that is no part or material of it, with the list of those there are (a
    /// misspelt `--rigid` would otherwise change nothing).
    pub fn tell_roles(&mut self, o: BodyOptions) -> Result<()> {
        check_override_names(self, &o)?;
        self.body_options = o;
        Ok(())
    }

    /// Whether the character is one part whose mesh is already its welded skin: no two
    /// of its vertices coincide, so [`Body::mesh`] would be the part's own mesh, vertex
    /// for vertex. Stages take such a part as it is; a part whose faces carry their
    /// own copies of shared corners (flat shading, UV or material seams: a low-poly
    /// character exported as one object) goes through [`Character::body`] as a
    /// character in pieces does, so that its surface is one closed skin.
    pub fn is_one_welded_part(&self) -> bool {
        let [p] = self.parts.as_slice() else {
            return false;
        };
        self.body().map_or(true, |b| {
            b.skin == [0]
                && b.mesh.positions.len() == p.mesh.positions.len()
                && b.mesh.triangles.len() == p.mesh.triangles.len()
        })
    }

    /// The body height H every stage measures in: the skin's vertical extent
    /// ([`Body::height`]: hair, hats and props above the head do not count); when no
    /// skin can be found, the vertical extent of all parts, else the skeleton's height.
    ///
    /// A one-part character with triangles is its own skin: its H is read from its
    /// bounds ([`height_of_bounds`]) without welding it into a [`Body`].
    pub fn height(&self) -> f32 {
        if let [p] = self.parts.as_slice() {
            if !p.mesh.triangles.is_empty() {
                let (lo, hi) = p.mesh.bounds();
                let h = height_of_bounds(lo, hi);
                if h.is_finite() && h > 0.0 {
                    return h;
                }
            }
        }
        if let Ok(b) = self.body() {
            if b.height > 0.0 {
                return b.height;
            }
        }
        let (lo, hi) = self.bounds();
        let h = hi.y - lo.y;
        if h > 0.0 {
            h
        } else {
            self.skeleton.as_ref().map_or(0.0, super::Skeleton::height)
        }
    }
}

/// The height H of a skin with bounds `(lo, hi)`: its vertical extent, or its largest
/// extent when it is flat (vertical extent at most 1e-3 of the largest). The one rule
/// behind [`Body::height`] and [`Character::height`].
pub fn height_of_bounds(lo: Vec3, hi: Vec3) -> f32 {
    let ext = hi - lo;
    if ext.y > 1e-3 * ext.max_element() {
        ext.y
    } else {
        ext.max_element()
    }
}

/// Fingerprint of what [`Body::of`] reads: part names, materials, positions and
/// triangles, and the overrides.
fn fingerprint(c: &Character, o: &BodyOptions) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    c.parts.len().hash(&mut h);
    for p in &c.parts {
        p.name.hash(&mut h);
        p.material.hash(&mut h);
        p.mesh.positions.len().hash(&mut h);
        for v in &p.mesh.positions {
            v.x.to_bits().hash(&mut h);
            v.y.to_bits().hash(&mut h);
            v.z.to_bits().hash(&mut h);
        }
        p.mesh.triangles.hash(&mut h);
    }
    o.body.hash(&mut h);
    o.garment.hash(&mut h);
    o.rigid.hash(&mut h);
    h.finish()
}

impl Body {
    /// Finds the skin and the role of every part (see the module docs).
    ///
    /// Errors: no part has triangles, an override names no part, or the skin has zero
    /// size.
    ///
    /// Empty overrides mean the character's own ([`Character::body_options`]). The
    /// result is memoized on the character, keyed by a fingerprint of its geometry and
    /// the overrides, so every stage asking for it pays once.
    pub fn of(c: &Character, o: &BodyOptions) -> Result<Body> {
        let o = if *o == BodyOptions::default() {
            &c.body_options
        } else {
            o
        };
        let key = fingerprint(c, o);
        if let Some(b) = c.body_cache.get(key) {
            return Ok((*b).clone());
        }
        let b = Body::compute(c, o)?;
        c.body_cache.put(key, std::sync::Arc::new(b.clone()));
        Ok(b)
    }

    fn compute(c: &Character, o: &BodyOptions) -> Result<Body> {
        check_override_names(c, o)?;
        let mut g = Geometry::of(c)?;
        let mut roles = told_roles(c, o, &g.meshed);
        g.leave_out_told_rigid(&roles);
        let hints = Hints::of(c);
        hinted_roles(c, &g, &hints, &mut roles);
        let (cand, comps) = seam_components(&g, &roles);
        let mut notes = Vec::new();
        let (skin, held) = choose_skin(c, &g, &roles, &cand, &comps, &hints, &mut notes)?;
        let (mesh, map) = weld_skin(c, &g, &skin);
        let bounds = mesh.bounds();
        let height = height_of_bounds(bounds.0, bounds.1);
        if !(height.is_finite() && height > 0.0) {
            return Err(Error::invalid("character", "the skin has zero size"));
        }
        skin_roles(c, &g, &skin, &mut roles);
        for h in &held {
            for &i in &h.parts {
                roles[i].get_or_insert_with(|| PartRole {
                    class: PartClass::Accessory,
                    bone: None,
                    reason: format!(
                        "a rod {:.0}% H long and {:.1}% H wide passing into the skin with no \
                         border on it (a held sword or staff): rigid to the bone it sits on",
                        100.0 * h.long,
                        100.0 * h.wide
                    ),
                });
            }
        }
        other_roles(c, &g, &mesh, height, &hints, &mut roles);
        Ok(Body {
            skin,
            roles: roles
                .into_iter()
                .map(|r| r.expect("every part has a role"))
                .collect(),
            mesh,
            map,
            bounds,
            height,
            notes,
        })
    }

    /// Whether part `i` is a piece of the skin.
    pub fn is_skin(&self, i: usize) -> bool {
        self.map.get(i).is_some_and(|m| !m.is_empty())
    }

    /// Values on the union's vertices taken to skin part `i`'s vertices.
    pub fn spread<T: Clone>(&self, i: usize, values: &[T]) -> Vec<T> {
        self.map[i]
            .iter()
            .map(|&u| values[u as usize].clone())
            .collect()
    }

    /// The union's weights taken to skin part `i` (empty weights when `w` is `None`).
    pub fn spread_weights(&self, i: usize, w: Option<&super::Weights>) -> super::Weights {
        match w {
            Some(w) => super::Weights {
                vertices: self.spread(i, &w.vertices),
            },
            None => super::Weights::empty(self.map[i].len()),
        }
    }

    /// The skin parts' weights on the union's vertices (a welded vertex takes those of
    /// its first copy); `None` when no skin part is weighted.
    pub fn union_weights(&self, c: &Character) -> Option<super::Weights> {
        if !self.skin.iter().any(|&i| c.parts[i].weights.is_some()) {
            return None;
        }
        let mut out: Vec<Option<Vec<super::Influence>>> = vec![None; self.mesh.positions.len()];
        for &i in &self.skin {
            let Some(w) = &c.parts[i].weights else {
                continue;
            };
            for (v, &u) in self.map[i].iter().enumerate() {
                if out[u as usize].is_none() {
                    out[u as usize] = Some(w.vertices.get(v).cloned().unwrap_or_default());
                }
            }
        }
        Some(super::Weights {
            vertices: out.into_iter().map(Option::unwrap_or_default).collect(),
        })
    }

    /// One line per part: `name: class (reason)`.
    pub fn describe(&self, c: &Character) -> Vec<String> {
        c.parts
            .iter()
            .zip(&self.roles)
            .map(|(p, r)| format!("{}: {} ({})", p.name, r.class.name(), r.reason))
            .collect()
    }
}

/// Grows the skin from each tall seam component and keeps the largest result.
/// Refuses overrides that name no part or material of `c`.
fn check_override_names(c: &Character, o: &BodyOptions) -> Result<()> {
    for n in o
        .body
        .iter()
        .chain(&o.garment)
        .chain(o.rigid.iter().map(|(n, _)| n))
    {
        if !c
            .parts
            .iter()
            .any(|p| p.name == *n || p.material.as_deref() == Some(n.as_str()))
        {
            // The part names in part order, then each material not already named once.
            let mut there: Vec<&str> = Vec::new();
            let names = c.parts.iter().map(|p| p.name.as_str());
            let materials: std::collections::BTreeSet<&str> = c
                .parts
                .iter()
                .filter_map(|p| p.material.as_deref())
                .collect();
            for n in names.chain(materials) {
                if !there.contains(&n) {
                    there.push(n);
                }
            }
            return Err(Error::invalid(
                "part roles",
                format!(
                    "no part or material named {n:?} (parts and materials: {})",
                    there.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// What [`Body::compute`] reads from the parts' geometry before any role is given.
struct Geometry {
    /// Per part: whether it has triangles.
    meshed: Vec<bool>,
    /// Bounds of every meshed part together (the parts told rigid left out, once the
    /// roles told are known: [`Geometry::leave_out_told_rigid`]).
    lo_all: Vec3,
    hi_all: Vec3,
    /// Largest extent of those bounds.
    size: f32,
    /// Global vertices after the weld over every part.
    ng: usize,
    /// Per part: its global ids, open border and bounds.
    geoms: Vec<PartGeom>,
    /// `(a, b)` -> border vertices of part `a` that part `b` owns too.
    seam: BTreeMap<(usize, usize), usize>,
    /// Per part: most of its vertices coincide with another part's (a duplicate shell).
    overlay: Vec<bool>,
}

impl Geometry {
    /// Welds every part together (within 1e-5 of the character's size) and measures
    /// the seams between parts. Errors when no part has triangles or the character has
    /// zero size.
    fn of(c: &Character) -> Result<Geometry> {
        let np = c.parts.len();
        let meshed: Vec<bool> = c
            .parts
            .iter()
            .map(|p| !p.mesh.triangles.is_empty())
            .collect();
        if !meshed.iter().any(|&m| m) {
            return Err(Error::invalid("character", "has no mesh with triangles"));
        }
        // Size of the whole character, for the weld tolerance.
        let mut lo_all = Vec3::splat(f32::INFINITY);
        let mut hi_all = Vec3::splat(f32::NEG_INFINITY);
        for (p, _) in c.parts.iter().zip(&meshed).filter(|(_, m)| **m) {
            let (l, h) = p.mesh.bounds();
            lo_all = lo_all.min(l);
            hi_all = hi_all.max(h);
        }
        let size = (hi_all - lo_all).max_element();
        if !(size.is_finite() && size > 0.0) {
            return Err(Error::invalid("character", "has zero size"));
        }
        let tol = 1e-5 * size;

        // Global weld over every part.
        let mut all = Vec::with_capacity(c.vertex_count());
        let mut offset = Vec::with_capacity(np + 1);
        for p in &c.parts {
            offset.push(all.len());
            all.extend_from_slice(&p.mesh.positions);
        }
        offset.push(all.len());
        let (gmap, ng) = weld_near(&all, tol);
        let geoms: Vec<PartGeom> = (0..np)
            .map(|i| part_geom(&c.parts[i].mesh, gmap[offset[i]..offset[i + 1]].to_vec()))
            .collect();
        // Which parts own each global vertex.
        let mut owners: Vec<Vec<u32>> = vec![Vec::new(); ng];
        for (i, g) in geoms.iter().enumerate() {
            for &v in &g.gid {
                let o = &mut owners[v as usize];
                if o.last() != Some(&(i as u32)) && !o.contains(&(i as u32)) {
                    o.push(i as u32);
                }
            }
        }
        // Seam counts and overlay fractions.
        let mut seam: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for (a, g) in geoms.iter().enumerate() {
            for &v in &g.border {
                for &b in &owners[v as usize] {
                    if b as usize != a {
                        *seam.entry((a, b as usize)).or_default() += 1;
                    }
                }
            }
        }
        let distinct = |i: usize| {
            let mut v = geoms[i].gid.clone();
            v.sort_unstable();
            v.dedup();
            v
        };
        let overlay: Vec<bool> = (0..np)
            .map(|i| {
                let d = distinct(i);
                if d.is_empty() {
                    return false;
                }
                let shared = d.iter().filter(|&&v| owners[v as usize].len() > 1).count();
                shared as f32 > 0.5 * d.len() as f32 && d.len() > 2 * geoms[i].border.len()
            })
            .collect();
        Ok(Geometry {
            meshed,
            lo_all,
            hi_all,
            size,
            ng,
            geoms,
            seam,
            overlay,
        })
    }

    /// Leaves the parts told rigid (`--rigid`) out of the character's bounds
    /// ([`Geometry::ext_y`]): a prop the user names is no measure of the figure (a
    /// bone-display ball a 3D tool wrote into the file made men_Farmer 2.9 m tall, and
    /// no piece of its skin reached a quarter of that). The weld tolerance keeps the
    /// whole size.
    fn leave_out_told_rigid(&mut self, roles: &[Option<PartRole>]) {
        let told_rigid = |i: usize| {
            roles[i]
                .as_ref()
                .is_some_and(|r| r.class == PartClass::Rigid)
        };
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for (i, g) in self.geoms.iter().enumerate() {
            if self.meshed[i] && !told_rigid(i) {
                lo = lo.min(g.lo);
                hi = hi.max(g.hi);
            }
        }
        if (hi - lo).y.is_finite() && (hi - lo).y > 0.0 {
            self.lo_all = lo;
            self.hi_all = hi;
        }
    }

    /// The vertical extent of the whole character (at least 1e-3 of its size), the
    /// parts told rigid left out.
    fn ext_y(&self) -> f32 {
        (self.hi_all - self.lo_all).y.max(1e-3 * self.size)
    }

    /// Whether parts `a` and `b` share a seam ([`SEAM_MIN`] border vertices either way).
    fn seamed(&self, a: usize, b: usize) -> bool {
        self.seam.get(&(a, b)).copied().unwrap_or(0) >= SEAM_MIN
            || self.seam.get(&(b, a)).copied().unwrap_or(0) >= SEAM_MIN
    }
}

/// A part's open border (edges used by one triangle, in global ids `gid`) and bounds.
fn part_geom(m: &Mesh, gid: Vec<u32>) -> PartGeom {
    let mut e: Vec<(u32, u32)> = Vec::new();
    for t in &m.triangles {
        for k in 0..3 {
            let (a, b) = (gid[t[k] as usize], gid[t[(k + 1) % 3] as usize]);
            if a != b {
                e.push((a.min(b), a.max(b)));
            }
        }
    }
    e.sort_unstable();
    let mut border = Vec::new();
    let mut j = 0;
    while j < e.len() {
        let mut k = j;
        while k < e.len() && e[k] == e[j] {
            k += 1;
        }
        if k - j == 1 {
            border.push(e[j].0);
            border.push(e[j].1);
        }
        j = k;
    }
    border.sort_unstable();
    border.dedup();
    let (lo, hi) = m.bounds();
    PartGeom {
        gid,
        border,
        lo,
        hi,
    }
}

/// The roles the overrides give (`--rigid`, `--garment`, `--body`), and parts without
/// triangles (rigid to the nearest bone); `None` for every other part.
fn told_roles(c: &Character, o: &BodyOptions, meshed: &[bool]) -> Vec<Option<PartRole>> {
    let mut roles: Vec<Option<PartRole>> = vec![None; c.parts.len()];
    for (i, p) in c.parts.iter().enumerate() {
        if let Some((_, b)) = o
            .rigid
            .iter()
            .find(|(n, _)| *n == p.name || p.material.as_deref() == Some(n.as_str()))
        {
            roles[i] = Some(PartRole {
                class: PartClass::Rigid,
                bone: b.clone(),
                reason: "rigid as told (--rigid)".into(),
            });
        } else if named(p, &o.garment) {
            roles[i] = Some(PartRole {
                class: PartClass::Garment,
                bone: None,
                reason: "garment as told (--garment)".into(),
            });
        } else if named(p, &o.body) {
            roles[i] = Some(PartRole {
                class: PartClass::Skin,
                bone: None,
                reason: "skin as told (--body)".into(),
            });
        } else if !meshed[i] {
            roles[i] = Some(PartRole {
                class: PartClass::Accessory,
                bone: None,
                reason: "no triangles: rigid to the nearest bone".into(),
            });
        }
    }
    roles
}

/// Per part, what its name (or material) hints; geometry must confirm it.
struct Hints {
    /// Eyes and teeth (small).
    rigid: Vec<bool>,
    /// Hair (high).
    hair: Vec<bool>,
    /// A garment.
    garment: Vec<bool>,
}

impl Hints {
    fn of(c: &Character) -> Hints {
        Hints {
            rigid: c
                .parts
                .iter()
                .map(|p| has_token(p, RIGID_NAMES) && !has_token(p, HAIR_NAMES))
                .collect(),
            hair: c.parts.iter().map(|p| has_token(p, HAIR_NAMES)).collect(),
            garment: c
                .parts
                .iter()
                .map(|p| has_token(p, GARMENT_NAMES))
                .collect(),
        }
    }
}

/// Roles of the parts still free that a name hint and their shape confirm (small eyes
/// and teeth, hair on the upper body), scattered debris, and duplicate shells.
fn hinted_roles(c: &Character, g: &Geometry, hints: &Hints, roles: &mut [Option<PartRole>]) {
    let ext_y = g.ext_y();
    for i in 0..c.parts.len() {
        if roles[i].is_some() {
            continue;
        }
        let d = (g.geoms[i].hi - g.geoms[i].lo).max_element();
        if hints.rigid[i] && d < SMALL_PART * ext_y {
            roles[i] = Some(PartRole {
                class: PartClass::Rigid,
                bone: None,
                reason: format!(
                    "named eye/teeth and small ({:.1}% H across): one bone",
                    100.0 * d / ext_y
                ),
            });
        } else if hints.hair[i] && g.geoms[i].hi.y > g.lo_all.y + 0.6 * ext_y {
            roles[i] = Some(PartRole {
                class: PartClass::Hair,
                bone: None,
                reason: "named hair and on the upper body".into(),
            });
        } else if let Some((n, largest)) =
            scattered(&c.parts[i].mesh, &g.geoms[i].gid).filter(|_| !hints.garment[i])
        {
            roles[i] = Some(PartRole {
                class: PartClass::Accessory,
                bone: None,
                reason: format!(
                    "scattered: {n} separate pieces, the largest {:.0}% of its triangles, \
                     is no surface: rigid to the bone it sits on",
                    100.0 * largest
                ),
            });
        } else if g.overlay[i] {
            roles[i] = Some(PartRole {
                class: PartClass::Garment,
                bone: None,
                reason: "most of its vertices coincide with another part's: an overlay \
                         (a duplicate shell), not a piece of the skin"
                    .into(),
            });
        }
    }
}

/// The parts that may be skin (meshed, and free or told skin) and their components
/// joined by seams, in order of their lowest part.
fn seam_components(g: &Geometry, roles: &[Option<PartRole>]) -> (Vec<bool>, Vec<Vec<usize>>) {
    let np = roles.len();
    let cand: Vec<bool> = (0..np)
        .map(|i| {
            g.meshed[i]
                && roles[i]
                    .as_ref()
                    .map_or(true, |r| r.class == PartClass::Skin)
        })
        .collect();
    let mut comp: Vec<usize> = (0..np).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (&(a, b), &n) in &g.seam {
        if cand[a]
            && cand[b]
            && (n >= SEAM_MIN || g.seam.get(&(b, a)).copied().unwrap_or(0) >= SEAM_MIN)
        {
            let (ra, rb) = (find(&mut comp, a), find(&mut comp, b));
            if ra != rb {
                comp[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut comps: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..np {
        if cand[i] {
            let r = find(&mut comp, i);
            comps.entry(r).or_default().push(i);
        }
    }
    (cand, comps.into_values().collect())
}

/// The skin parts: the told ones, else those grown from geometry ([`grow_skin`]), else
/// (with a note) every candidate. Errors when there is none.
fn choose_skin(
    c: &Character,
    g: &Geometry,
    roles: &[Option<PartRole>],
    cand: &[bool],
    comps: &[Vec<usize>],
    hints: &Hints,
    notes: &mut Vec<String>,
) -> Result<(Vec<usize>, Vec<Held>)> {
    let np = c.parts.len();
    let told: Vec<usize> = (0..np)
        .filter(|&i| {
            roles[i]
                .as_ref()
                .is_some_and(|r| r.class == PartClass::Skin)
        })
        .collect();
    let (skin, held): (Vec<usize>, Vec<Held>) = if told.is_empty() && np == 1 && cand[0] {
        // A character in one part is its own skin, whatever its shape (a body whose
        // lower third rings like a skirt is still the body).
        (vec![0], Vec::new())
    } else if told.is_empty() {
        grow_skin(c, &g.geoms, comps, &hints.garment, g.ext_y())
    } else {
        (told, Vec::new())
    };
    let skin: Vec<usize> = if skin.is_empty() {
        notes.push(
            "no part's border meets another's and no piece stands as a body: the union \
             of all parts is taken as the skin"
                .into(),
        );
        (0..np).filter(|&i| cand[i]).collect()
    } else {
        skin
    };
    if skin.is_empty() {
        let why: Vec<String> = c
            .parts
            .iter()
            .zip(roles)
            .filter_map(|(p, r)| {
                r.as_ref()
                    .map(|r| format!("{}: {}, {}", p.name, r.class.name(), r.reason))
            })
            .collect();
        let more = match why.len() {
            0..=3 => String::new(),
            n => format!("; and {} more", n - 3),
        };
        return Err(Error::invalid(
            "character",
            format!(
                "has no part that can be its skin: every part is told or judged otherwise \
                 ({}{more}); pass --body with the parts that are skin",
                why.iter().take(3).cloned().collect::<Vec<_>>().join("; ")
            ),
        ));
    }
    Ok((skin, held))
}

/// The skin parts welded into one mesh (coincident vertices merged), and per part the
/// index of each of its vertices in it (empty for parts that are not skin).
fn weld_skin(c: &Character, g: &Geometry, skin: &[usize]) -> (Mesh, Vec<Vec<u32>>) {
    let mut local: Vec<u32> = vec![u32::MAX; g.ng];
    let mut positions = Vec::new();
    let mut map: Vec<Vec<u32>> = vec![Vec::new(); c.parts.len()];
    let mut triangles = Vec::new();
    for &i in skin {
        let p = &c.parts[i];
        map[i] = g.geoms[i]
            .gid
            .iter()
            .zip(&p.mesh.positions)
            .map(|(&gv, &q)| {
                if local[gv as usize] == u32::MAX {
                    local[gv as usize] = positions.len() as u32;
                    positions.push(q);
                }
                local[gv as usize]
            })
            .collect();
        for t in &p.mesh.triangles {
            let u = t.map(|k| map[i][k as usize]);
            if u[0] != u[1] && u[1] != u[2] && u[0] != u[2] {
                triangles.push(u);
            }
        }
    }
    let mesh = Mesh {
        positions,
        triangles,
        normals: None,
        uvs: None,
    };
    (mesh, map)
}

/// The role of each skin part not told so, with the seams it shares.
fn skin_roles(c: &Character, g: &Geometry, skin: &[usize], roles: &mut [Option<PartRole>]) {
    for &i in skin {
        if roles[i].is_none() {
            let seams: Vec<String> = skin
                .iter()
                .filter(|&&j| j != i && g.seamed(i, j))
                .map(|&j| c.parts[j].name.clone())
                .collect();
            roles[i] = Some(PartRole {
                class: PartClass::Skin,
                bone: None,
                reason: if skin.len() == 1 {
                    "the only piece of skin".into()
                } else if seams.is_empty() {
                    "meets the skin surface (its border lies on it, or it enters it)".into()
                } else {
                    format!("shares seams with {}", seams.join(", "))
                },
            });
        }
    }
}

/// The role of every part still free, by its distance to the skin (`mesh`, height
/// `height`): small closed pieces rigid, shells over the skin garments, the rest
/// accessories.
fn other_roles(
    c: &Character,
    g: &Geometry,
    mesh: &Mesh,
    height: f32,
    hints: &Hints,
    roles: &mut [Option<PartRole>],
) {
    let bvh = Bvh::build(&mesh.positions, &mesh.triangles);
    for i in 0..c.parts.len() {
        if roles[i].is_some() {
            continue;
        }
        let p = &c.parts[i];
        let mut d: Vec<f32> = p
            .mesh
            .positions
            .iter()
            .map(|&q| bvh.closest(q).map_or(f32::INFINITY, |h| h.dist2.sqrt()) / height)
            .collect();
        d.sort_by(f32::total_cmp);
        let q = |f: f32| d[((d.len() - 1) as f32 * f) as usize];
        let (med, p90, near) = (q(0.5), q(0.9), q(0.0));
        let diag = (g.geoms[i].hi - g.geoms[i].lo).length() / height;
        let closed_small = super::rigid_by_shape(&p.mesh, height);
        roles[i] = Some(if closed_small && diag < SMALL_PART {
            PartRole {
                class: PartClass::Rigid,
                bone: None,
                reason: format!("closed and small ({:.1}% H across): one bone", 100.0 * diag),
            }
        } else if p90 <= GARMENT_NEAR || (hints.garment[i] && med <= 3.0 * GARMENT_NEAR) {
            PartRole {
                class: PartClass::Garment,
                bone: None,
                reason: format!(
                    "lies over the skin (median {:.1}% H, 90% within {:.1}% H)",
                    100.0 * med,
                    100.0 * p90
                ),
            }
        } else if near > 0.1 {
            PartRole {
                class: PartClass::Accessory,
                bone: None,
                reason: format!(
                    "floats {:.0}% H away from the body: rigid to its nearest bone",
                    100.0 * near
                ),
            }
        } else {
            PartRole {
                class: PartClass::Accessory,
                bone: None,
                reason: format!(
                    "not a shell over the skin (median {:.1}% H, 90% within {:.1}% H): \
                     rigid to the bone it sits on",
                    100.0 * med,
                    100.0 * p90
                ),
            }
        });
    }
}

/// The share of a closed piece's points (or of a skin piece's) that must lie inside
/// the other for the two to interpenetrate ([`Pieces::sunk`]).
pub const SUNK_MIN: f32 = 0.005;

/// Least ratio of a rod's length to its width ([`Pieces::rod`]).
pub const ROD_LONG: f32 = 6.0;
/// Greatest width of a rod, in H ([`Pieces::rod`]).
pub const ROD_THIN: f32 = 0.05;

/// Fewest separate pieces (islands of welded triangles) that make a part scattered.
pub const SCATTERED_MIN: usize = 20;
/// Largest share of a scattered part's triangles in one piece.
pub const SCATTERED_LARGEST: f32 = 0.2;

/// `Some((islands, largest share))` when a part is scattered debris rather than a
/// surface: at least [`SCATTERED_MIN`] islands of welded triangles, none holding
/// [`SCATTERED_LARGEST`] of them (noise, a scan's dust, loose triangles).
fn scattered(m: &Mesh, gid: &[u32]) -> Option<(usize, f32)> {
    if m.triangles.len() < SCATTERED_MIN {
        return None;
    }
    let mut ids: Vec<u32> = gid.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let local = |g: u32| ids.binary_search(&g).expect("own id") as u32;
    let tris: Vec<[u32; 3]> = m
        .triangles
        .iter()
        .map(|t| t.map(|k| local(gid[k as usize])))
        .collect();
    let (island, _) = crate::geom::weld::islands(ids.len(), &tris);
    let mut count: BTreeMap<u32, usize> = BTreeMap::new();
    for t in &tris {
        *count.entry(island[t[0] as usize]).or_default() += 1;
    }
    let largest = count.values().copied().max().unwrap_or(0) as f32 / m.triangles.len() as f32;
    (count.len() >= SCATTERED_MIN && largest < SCATTERED_LARGEST).then_some((count.len(), largest))
}

/// One seam component of candidate skin parts, as [`grow_skin`] measures it.
struct Piece {
    /// Its highest point's y.
    top: f32,
    /// Its parts.
    parts: Vec<usize>,
    /// Its triangles.
    bvh: Bvh,
    /// Points of its open border (on no other part of the component).
    border: Vec<Vec3>,
    /// Up to about 2000 of its vertices, evenly taken.
    points: Vec<Vec3>,
    /// The inward normals at those vertices.
    inward: Vec<Vec3>,
    /// Its extents along its principal axes, largest first.
    extents: [f32; 3],
}

impl Piece {
    /// Measures the component made of `parts`.
    fn of(c: &Character, geoms: &[PartGeom], parts: &[usize]) -> Piece {
        let mut pos = Vec::new();
        let mut tri = Vec::new();
        let mut border = Vec::new();
        for &i in parts {
            let m = &c.parts[i].mesh;
            let off = pos.len() as u32;
            pos.extend_from_slice(&m.positions);
            tri.extend(m.triangles.iter().map(|t| t.map(|k| k + off)));
        }
        // Open border: global ids on a part border that no other part of this
        // component owns.
        for &i in parts {
            let mut inner = std::collections::HashSet::new();
            for &j in parts {
                if j != i {
                    inner.extend(geoms[j].gid.iter().copied());
                }
            }
            let first: BTreeMap<u32, Vec3> = geoms[i]
                .gid
                .iter()
                .zip(&c.parts[i].mesh.positions)
                .map(|(&g, &q)| (g, q))
                .collect();
            for g in &geoms[i].border {
                if !inner.contains(g) {
                    border.push(first[g]);
                }
            }
        }
        let normals: Vec<Vec3> = parts
            .iter()
            .flat_map(|&i| c.parts[i].mesh.compute_normals())
            .collect();
        let step = (pos.len() / 2000).max(1);
        let points: Vec<Vec3> = pos.iter().step_by(step).copied().collect();
        let inward: Vec<Vec3> = normals.iter().step_by(step).map(|n| -*n).collect();
        let extents = crate::geom::frame::principal_extents(&pos);
        Piece {
            top: pos.iter().map(|q| q.y).fold(f32::NEG_INFINITY, f32::max),
            parts: parts.to_vec(),
            bvh: Bvh::build(&pos, &tri),
            border,
            points,
            inward,
            extents,
        }
    }
}

/// The seam components [`grow_skin`] grows the skin from, and the character's
/// vertical extent every distance is measured against.
struct Pieces {
    cs: Vec<Piece>,
    ext_y: f32,
}

impl Pieces {
    /// Distance from `q` to the nearest component of `set`.
    fn dist_to(&self, q: Vec3, set: &[usize]) -> f32 {
        set.iter()
            .map(|&s| {
                self.cs[s]
                    .bvh
                    .closest(q)
                    .map_or(f32::INFINITY, |h| h.dist2.sqrt())
            })
            .fold(f32::INFINITY, f32::min)
    }

    /// Whether `q` is inside a component of `set`.
    fn inside(&self, q: Vec3, set: &[usize]) -> bool {
        set.iter().any(|&s| self.cs[s].bvh.contains(q))
    }

    /// Whether component `k`, a hat or helmet, caps the set: the top of the set lies
    /// inside it, and so does a good part (8%) of the piece that holds that top (a head
    /// in a hat; a torso whose collar reaches into the neck of a head is not capped).
    fn caps(&self, k: usize, set: &[usize]) -> bool {
        let cs = &self.cs;
        let top = set
            .iter()
            .copied()
            .max_by(|&a, &b| cs[a].top.total_cmp(&cs[b].top))
            .expect("the set is not empty");
        // "Inside" a hat open at the bottom (a straw hat, a cap) is judged by rays: k
        // lies above the point and around it (three of the four horizontal rays meet
        // it), each within 30% H; a closed piece is asked directly.
        let reach = 0.3 * self.ext_y;
        let hits = |q: Vec3, d: Vec3| cs[k].bvh.segment_blocked(q, q + d * reach, 0.0, 1.0);
        let under = |q: Vec3| {
            cs[k].bvh.contains(q)
                || (hits(q, Vec3::Y)
                    && [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z]
                        .iter()
                        .filter(|&&d| hits(q, d))
                        .count()
                        >= 3)
        };
        let mut tops: Vec<Vec3> = cs[top].points.clone();
        tops.sort_by(|a, b| b.y.total_cmp(&a.y));
        tops.truncate((tops.len() / 100).max(3));
        tops.iter().filter(|&&q| under(q)).count() * 2 > tops.len()
            && (cs[top].points.iter().filter(|&&q| under(q)).count() as f32
                >= 0.08 * cs[top].points.len() as f32
                || self.covers(k, set, top))
    }

    /// A brimmed hat `k` covers only the crown of the head: it caps the set also when
    /// half of it looks straight down onto the set before onto itself (a head over a
    /// collar looks down into its own chin and neck), and it rises less than 8% H above
    /// the top of the set (`top`, the component holding it: a crown; a head rises far
    /// above the collar under it).
    fn covers(&self, k: usize, set: &[usize], top: usize) -> bool {
        let cs = &self.cs;
        let reach = 0.3 * self.ext_y;
        let down = cs[k]
            .points
            .iter()
            .filter(|&&q| {
                let end = q - Vec3::Y * reach;
                // The hat's own thickness (3% H) is not "itself below".
                let own = cs[k].bvh.first_hit(q, end, 0.1, 1.0).unwrap_or(1.0);
                set.iter().any(|&j| {
                    cs[j]
                        .bvh
                        .first_hit(q, end, 1e-4, 1.0)
                        .is_some_and(|t| t < own)
                })
            })
            .count();
        down * 2 > cs[k].points.len() && cs[k].top - cs[top].top < 0.08 * self.ext_y
    }

    /// Whether component `k` joins the set `set`: it meets the set (its open border on
    /// or inside it, part of it inside the set, or the set's border or points inside
    /// it), reaches out of it (a quarter of it farther than 5% H: a piece of the body,
    /// not a shell over it), does not cap the set's top (a hat) and is no rod that only
    /// passes into it ([`Pieces::rod`]: a held sword, a staff).
    fn joins(&self, k: usize, set: &[usize]) -> bool {
        let ext_y = self.ext_y;
        let ck = &self.cs[k];
        let far = ck
            .points
            .iter()
            .filter(|&&q| self.dist_to(q, set) > 0.05 * ext_y)
            .count();
        if (far as f32) < 0.25 * ck.points.len() as f32 {
            return false;
        }
        let (border_on, meets) = self.contact(k, set);
        if !meets || (self.rod(k) && !border_on) {
            return false;
        }
        // A closed piece joins only sunk into the set (a chibi's arm, a head ball on
        // its neck) or the set sunk into it; one resting against it from outside is an
        // object worn or carried (a backpack, a pouch).
        if ck.border.is_empty() && !self.sunk(k, set) {
            return false;
        }
        !self.caps(k, set)
    }

    /// Whether component `k` and the set `set` interpenetrate: at least [`SUNK_MIN`] of
    /// `k`'s points (and 3) inside the set deeper than twice [`TOUCH`], or as many of
    /// some set component's points as deep inside `k` (a box pressed onto a curved back
    /// takes in only the skin's outermost points, barely under its face).
    fn sunk(&self, k: usize, set: &[usize]) -> bool {
        let cs = &self.cs;
        let deep = 2.0 * TOUCH * self.ext_y;
        let enough = |n: usize, of: usize| n >= 3 && n as f32 >= SUNK_MIN * of as f32;
        let ck = &cs[k];
        enough(
            ck.points
                .iter()
                .filter(|&&q| self.inside(q, set) && self.dist_to(q, set) > deep)
                .count(),
            ck.points.len(),
        ) || set.iter().any(|&s| {
            let p = &cs[s].points;
            enough(
                p.iter()
                    .filter(|&&q| ck.bvh.contains(q) && self.dist_to(q, &[k]) > deep)
                    .count(),
                p.len(),
            )
        })
    }

    /// How component `k` meets the set `set`: whether its open border lies on or inside
    /// the set, and whether it meets it at all (that, part of it inside the set or
    /// within twice [`TOUCH`] of it, or the set's points inside it or that near it).
    fn contact(&self, k: usize, set: &[usize]) -> (bool, bool) {
        let (cs, ext_y) = (&self.cs, self.ext_y);
        let touch = TOUCH * ext_y;
        let ck = &cs[k];
        let on = |q: Vec3, set: &[usize]| self.dist_to(q, set) <= touch || self.inside(q, set);
        let border_on = !ck.border.is_empty()
            && ck.border.iter().filter(|&&q| on(q, set)).count() as f32
                >= 0.6 * ck.border.len() as f32;
        if border_on {
            return (true, true);
        }
        let enough = |n: usize, of: usize| n >= 5 && n as f32 >= 0.01 * of as f32;
        let k_meets = enough(
            ck.points
                .iter()
                .filter(|&&q| self.dist_to(q, set) <= 2.0 * touch || self.inside(q, set))
                .count(),
            ck.points.len(),
        );
        let set_meets = || {
            set.iter().any(|&s| {
                let p = &cs[s].points;
                enough(
                    p.iter()
                        .filter(|&&q| self.dist_to(q, &[k]) <= 2.0 * touch || cs[k].bvh.contains(q))
                        .count(),
                    p.len(),
                )
            })
        };
        (false, k_meets || set_meets())
    }

    /// Whether component `k` is a rod: at least [`ROD_LONG`] times as long as it is
    /// wide, and at most [`ROD_THIN`] of the height wide (a sword, a spear, a staff, a
    /// wand). A rod that meets the skin with no open border on it passes into it (a
    /// blade through a fist): a held prop, not a piece of the body, and it neither
    /// seeds the skin nor joins it. A limb modelled on its own ends in an open border
    /// on the body, or is no thinner than a twentieth of the height.
    fn rod(&self, k: usize) -> bool {
        let [long, wide, _] = self.cs[k].extents;
        wide <= ROD_THIN * self.ext_y && long >= ROD_LONG * wide
    }

    /// Whether component `k` is a shell: 90% of it within [`SHELL_NEAR`] of the other
    /// components, or, for a piece named as a garment (`hint_garment`, per part), skin
    /// beneath 40% of it (a loose skirt or cape). It neither seeds the skin nor joins
    /// it (a shirt over a body; not the body under it).
    fn shell(&self, k: usize, hint_garment: &[bool]) -> bool {
        let (cs, ext_y) = (&self.cs, self.ext_y);
        let others: Vec<usize> = (0..cs.len()).filter(|&j| j != k).collect();
        let n = cs[k].points.len() as f32;
        let near = cs[k]
            .points
            .iter()
            .filter(|&&q| self.dist_to(q, &others) <= SHELL_NEAR * ext_y)
            .count() as f32;
        // Skin beneath it: a ray inward (against its normal) meets another piece
        // within 20% H (a skirt over the legs; not trousers painted on the legs).
        // Counted along the normal and against it (a mesh may wind either way),
        // each ray up to where it leaves the piece itself.
        let beneath = |sign: f32| {
            cs[k]
                .points
                .iter()
                .zip(&cs[k].inward)
                .filter(|(&q, &d)| {
                    if d == Vec3::ZERO {
                        return false;
                    }
                    let end = q + sign * d * 0.2 * ext_y;
                    let own = cs[k].bvh.first_hit(q, end, 1e-3, 1.0).unwrap_or(1.0);
                    others.iter().any(|&j| {
                        cs[j]
                            .bvh
                            .first_hit(q, end, 1e-4, 1.0)
                            .is_some_and(|t| t < own)
                    })
                })
                .count() as f32
        };
        let covered = match inward_sign(&cs[k].points, &cs[k].inward) {
            Some(s) => beneath(s),
            None => beneath(1.0).max(beneath(-1.0)),
        };
        let named = cs[k].parts.iter().any(|&i| hint_garment[i]);
        !others.is_empty() && (near >= 0.9 * n || (named && covered >= 0.4 * n))
    }

    /// The set grown from component `seed`: every component that joins it, round after
    /// round, shells excluded; then a hat that joined in the same round as the head
    /// under it (the set's top was then lower) and caps the final set leaves.
    fn grow(&self, seed: usize, shell: &[bool]) -> Vec<usize> {
        let mut set = vec![seed];
        loop {
            let add: Vec<usize> = (0..self.cs.len())
                .filter(|k| !set.contains(k) && !shell[*k] && self.joins(*k, &set))
                .collect();
            if add.is_empty() {
                break;
            }
            set.extend(add);
        }
        let grown = set.clone();
        set.retain(|&k| {
            let rest: Vec<usize> = grown.iter().copied().filter(|&j| j != k).collect();
            k == seed || !self.caps(k, &rest)
        });
        set
    }
}

/// Which way a piece's `inward` normals (at `points`) point into it, when its winding
/// says so clearly: `Some(1.0)` when, at [`WINDING_CLEAR`] of its points or more, they
/// point toward its centroid, `Some(-1.0)` when as many point away (a mesh wound inside
/// out), `None` for a sheet or a piece with no clear inside. Trousers under a dress
/// then look into their legs for skin, not out at the dress around them.
fn inward_sign(points: &[Vec3], inward: &[Vec3]) -> Option<f32> {
    let n = points.len();
    if n == 0 {
        return None;
    }
    let c = points.iter().copied().sum::<Vec3>() / n as f32;
    let (mut toward, mut away) = (0usize, 0usize);
    for (&q, &d) in points.iter().zip(inward) {
        let s = (c - q).dot(d);
        if s > 0.0 {
            toward += 1;
        } else if s < 0.0 {
            away += 1;
        }
    }
    if toward as f32 >= WINDING_CLEAR * n as f32 {
        Some(1.0)
    } else if away as f32 >= WINDING_CLEAR * n as f32 {
        Some(-1.0)
    } else {
        None
    }
}

/// The share of a piece's normals that must agree for its winding to tell its inside
/// ([`inward_sign`]).
pub const WINDING_CLEAR: f32 = 0.6;

fn grow_skin(
    c: &Character,
    geoms: &[PartGeom],
    comps: &[Vec<usize>],
    hint_garment: &[bool],
    ext_y: f32,
) -> (Vec<usize>, Vec<Held>) {
    if comps.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let extent = |parts: &[usize]| {
        let lo = parts
            .iter()
            .map(|&i| geoms[i].lo.y)
            .fold(f32::INFINITY, f32::min);
        let hi = parts
            .iter()
            .map(|&i| geoms[i].hi.y)
            .fold(f32::NEG_INFINITY, f32::max);
        hi - lo
    };
    let area = |parts: &[usize]| parts.iter().map(|&i| c.parts[i].mesh.area()).sum::<f32>();
    let pieces = Pieces {
        cs: comps
            .iter()
            .map(|parts| Piece::of(c, geoms, parts))
            .collect(),
        ext_y,
    };
    let cs = &pieces.cs;
    let shell: Vec<bool> = (0..cs.len())
        .map(|k| pieces.shell(k, hint_garment))
        .collect();
    let mut best: Option<(Vec<usize>, f32, f32)> = None;
    for seed in 0..cs.len() {
        if extent(&cs[seed].parts) < 0.25 * ext_y || shell[seed] || pieces.rod(seed) {
            continue;
        }
        let set = pieces.grow(seed, &shell);
        let parts: Vec<usize> = set
            .iter()
            .flat_map(|&k| cs[k].parts.iter().copied())
            .collect();
        let (e, a) = (extent(&parts), area(&parts));
        if best
            .as_ref()
            .map_or(true, |b| e > b.1 * 1.02 || (e >= b.1 * 0.98 && a > b.2))
        {
            best = Some((parts, e, a));
        }
    }
    let mut out = best.map(|b| b.0).unwrap_or_default();
    out.sort_unstable();
    // The rods left out that pass into the skin: held props.
    let set: Vec<usize> = (0..cs.len())
        .filter(|&k| cs[k].parts.iter().all(|i| out.contains(i)))
        .collect();
    let held = (0..cs.len())
        .filter(|&k| !set.contains(&k) && !set.is_empty() && pieces.rod(k))
        .filter(|&k| pieces.contact(k, &set).1)
        .map(|k| Held {
            parts: cs[k].parts.clone(),
            long: cs[k].extents[0] / ext_y,
            wide: cs[k].extents[1] / ext_y,
        })
        .collect();
    (out, held)
}

/// A rod passing into the skin ([`Pieces::rod`]), left out of it: a held prop.
struct Held {
    /// Its parts.
    parts: Vec<usize>,
    /// Its length and width, in H.
    long: f32,
    wide: f32,
}
