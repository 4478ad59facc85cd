//! New chains for unrigged parts: a radial grid of chains for a skirt, chains of 2 to 4
//! bones from the scalp for each hair lock, and the parts' weights from those chains.
//!
//! **Skirts** (any loose tube-like garment hanging from the trunk: a skirt, a dress, a
//! long coat) get `panels x segments` chains: panels spaced evenly around the
//! vertical axis through the garment (panel 0 at the front, +Z), their number chosen
//! so a panel is about [`ChainOptions::panel_width`] H wide at the hem; segments chosen
//! so a bone is about [`ChainOptions::segment_length`] H long. Joints sit on the
//! garment's own surface (the mean radius of its vertices at that angle and height).
//! Each vertex is weighted to the two nearest panels (linear in angle) and the two
//! nearest bones along them (linear between bone middles); in the top half-segment it
//! fades to the hips, the attachment line. Never to a leg: a skirt skinned to a thigh
//! becomes trousers.
//!
//! **Hair** parts are split into locks: connected pieces of the mesh, and the pieces
//! left when the scalp cap (vertices within 1.15 head radii of the head centre, for a
//! piece that wraps the head) is taken away; a piece much wider than long (a fringe)
//! is cut into strands across. Each lock at least [`ChainOptions::min_lock`] H long
//! gets a chain of 2 to 4 bones from its point nearest the head centre, following the
//! centroids of its vertices by distance from that root. The cap and tiny pieces go to
//! the head; lock vertices blend from the head at the root into their chain.
//!
//! The bones are appended to the skeleton (parents first, names `skirt.NN[.00S]`,
//! `hair.NN[.00S]`, made unique), and the rigged parts' weights are REPLACED: run this
//! after binding, so a binder's leg weights on a skirt are thrown away.

use std::collections::{BTreeMap, HashMap};
use std::f32::consts::TAU;

use glam::Vec3;

use super::chains::{bone_class, chains_from_skeleton, is_cloth_class, is_spring_class, Chain};
use super::colliders::body_points;
use super::surfaces::{
    axis_of, class_from_name, hip_height, is_hanging_panel, is_loose_garment, SurfaceClass,
};
use crate::error::{Error, Result};
use crate::humanoid::Roles;
use crate::model::{Bone, Character, Part, Weights};

/// Options of [`build_chains`]. Lengths in units of the body height H.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainOptions {
    /// Target skirt panel width at the hem, H (default 0.04).
    pub panel_width: f32,
    /// Target skirt bone length, H (default 0.05).
    pub segment_length: f32,
    /// Panel count bounds (default 8..=24).
    pub panels: (usize, usize),
    /// Segment count bounds (default 2..=12): a long skirt needs short bones so the
    /// joints' hit spheres cover the cloth between them.
    pub segments: (usize, usize),
    /// Target hair bone length, H (default 0.06); 2 to 4 bones per lock.
    pub hair_bone_length: f32,
    /// Shortest hair lock that gets a chain, H (default 0.03).
    pub min_lock: f32,
}

impl Default for ChainOptions {
    fn default() -> Self {
        ChainOptions {
            panel_width: 0.04,
            segment_length: 0.05,
            panels: (8, 24),
            segments: (2, 12),
            hair_bone_length: 0.06,
            min_lock: 0.03,
        }
    }
}

/// Whether a part is already driven by spring-chain bones (5 % of its weight).
fn already_chained(c: &Character, p: &Part) -> bool {
    let (Some(w), Some(s)) = (&p.weights, &c.skeleton) else {
        return false;
    };
    let mut tot = 0.0;
    let mut on = 0.0;
    for i in w.vertices.iter().flatten() {
        tot += i.weight;
        if s.bones
            .get(i.bone as usize)
            .is_some_and(|b| bone_class(&b.name).is_some_and(is_spring_class))
        {
            on += i.weight;
        }
    }
    tot > 0.0 && on / tot >= 0.05
}

/// Every bone's name and index: the names new bones must not take.
pub(crate) fn bone_names(skel: &crate::model::Skeleton) -> HashMap<String, usize> {
    skel.bones
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.clone(), i))
        .collect()
}

fn unique_name(taken: &HashMap<String, usize>, base: String) -> String {
    if !taken.contains_key(&base) {
        return base;
    }
    (1..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| !taken.contains_key(n))
        .unwrap()
}

/// The first rule of separate parts, enforced: a cloth chain (skirt, cloth, cape,
/// coat) found hanging from a limb (a skirt bone under a thigh becomes trousers) is
/// re-hung from the trunk: its first bone's parent becomes its nearest ancestor on
/// neither a leg nor an arm (the hips, for a skirt under a thigh). Rest positions do
/// not move, so the skinning is unchanged; each move is a warning on the character.
pub fn hang_cloth_from_trunk(c: &mut Character) {
    let vrm = c.vrm.as_ref().map(|v| v.humanoid.clone());
    let Some(skel) = c.skeleton.as_mut() else {
        return;
    };
    let roles = Roles::of(skel, vrm.as_ref());
    let cloth = |name: &str| bone_class(name).is_some_and(is_cloth_class);
    let on_limb = |i: usize| roles.is_leg(i) || roles.is_arm(i);
    for i in 0..skel.len() {
        let b = &skel.bones[i];
        let Some(p) = b.parent else { continue };
        if !cloth(&b.name) || cloth(&skel.bones[p].name) {
            continue;
        }
        let mut limb = None;
        let mut cur = Some(p);
        while let Some(a) = cur {
            if on_limb(a) {
                limb = Some(a);
            } else if limb.is_some() && bone_class(&skel.bones[a].name).is_none() {
                break;
            }
            cur = skel.bones[a].parent;
        }
        let Some(limb) = limb else { continue };
        let msg = format!(
            "cloth chain {} hung from {} (a limb): re-hung from {} (cloth parents only to the trunk)",
            skel.bones[i].name,
            skel.bones[limb].name,
            cur.map_or("nothing (it is now a root)", |a| skel.bones[a].name.as_str())
        );
        skel.bones[i].parent = cur;
        c.warnings.push(msg);
    }
}

/// [`super::build_chains`], with `extend` extending an artist's skirt chains (part
/// index, height H) before the unrigged parts get theirs.
pub(super) fn build_chains_with(
    c: &mut Character,
    opts: &ChainOptions,
    extend_skirt: fn(&mut Character, usize, f32, &ChainOptions),
) -> Result<Vec<Chain>> {
    hang_cloth_from_trunk(c);
    let Some(skel) = c.skeleton.clone() else {
        return Err(Error::stage(
            "parts",
            "the character has no skeleton: fit one before building chains",
        ));
    };
    let h = c.height();
    if h <= 0.0 {
        return Err(Error::stage("parts", "the character has no extent"));
    }
    let roles = Roles::of(&skel, c.vrm.as_ref().map(|v| &v.humanoid));
    let mut work: Vec<(usize, Work)> = Vec::new();
    // Pieces of the skin (model::Body) are never chained: a painted skirt on a game
    // character is the body surface, bound with it, and a character in one part is its
    // own skin (legs close together in armour ring like a skirt).
    let skin: Vec<usize> = c.body().map(|b| b.skin).unwrap_or_default();
    let mut extend = Vec::new();
    for (i, p) in c.parts.iter().enumerate() {
        if skin.contains(&i) {
            continue;
        }
        if already_chained(c, p) {
            if is_loose_garment(c, p) {
                extend.push(i);
            }
            continue;
        }
        if is_loose_garment(c, p) {
            work.push((i, Work::Skirt));
        } else if is_hanging_panel(c, i) {
            work.push((i, Work::Panel));
        } else {
            let class = p
                .material
                .as_deref()
                .and_then(class_from_name)
                .or_else(|| class_from_name(&p.name));
            if class == Some(SurfaceClass::Hair) && p.mesh.positions.len() >= 3 {
                work.push((i, Work::Hair));
            }
        }
    }
    for pi in extend {
        extend_skirt(c, pi, h, opts);
    }
    if work.is_empty() {
        return Ok(chains_from_skeleton(c));
    }
    let head_sphere = roles.head.map(|hd| head_sphere(c, hd, h));
    let waist = hip_height(c) + SKIRT_WAIST * h;
    let legs: Vec<bool> = (0..skel.len()).map(|i| roles.is_leg(i)).collect();
    let mut skirt_no = 0;
    let mut hair_no = 0;
    let mut panel_no = 0;
    for (pi, kind) in work {
        let skel = c.skeleton.as_mut().expect("checked");
        let mut taken = bone_names(skel);
        let part = &c.parts[pi];
        // The error for a part whose chains need a bone the skeleton lacks.
        let lacks = |what: &str| Error::stage("parts", format!("part {:?} {what}", part.name));
        // The chains' base name: `kind`, then `kind2`, `kind3`...
        let numbered = |kind: &str, no: &mut usize| {
            *no += 1;
            if *no == 1 {
                kind.to_string()
            } else {
                format!("{kind}{no}")
            }
        };
        let weights = if kind == Work::Panel {
            let parent = trunk_bone_at(skel, &roles, &part.mesh.positions)
                .ok_or_else(|| lacks("hangs from the trunk but the skeleton has no spine"))?;
            let base = numbered("cape", &mut panel_no);
            build_panel(
                skel,
                &mut taken,
                parent,
                &part.mesh.positions,
                h,
                opts,
                &base,
            )
        } else if kind == Work::Skirt {
            let hips = roles
                .hips
                .or(roles.spine)
                .ok_or_else(|| lacks("looks like a skirt but the skeleton has no hips"))?;
            let base = numbered("skirt", &mut skirt_no);
            let bodice = Bodice {
                waist,
                weights: part.weights.as_ref(),
                legs: &legs,
            };
            build_skirt(
                skel,
                &mut taken,
                hips,
                &part.mesh.positions,
                h,
                opts,
                &base,
                bodice,
            )
        } else {
            let (hd, (centre, radius)) = match (roles.head, head_sphere) {
                (Some(hd), Some(s)) => (hd, s),
                _ => return Err(lacks("is hair but the skeleton has no head")),
            };
            let head = HairHead {
                bone: hd,
                centre,
                radius,
            };
            build_hair(skel, &mut taken, &head, &part.mesh, h, opts, &mut hair_no)
        };
        c.parts[pi].weights = Some(weights);
    }
    // Bones were appended after their parents: indices of old bones are unchanged.
    Ok(chains_from_skeleton(c))
}

/// What an unrigged part gets chains as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    /// A loose garment around the legs: a radial grid from the hips.
    Skirt,
    /// A panel hanging down the back or the front: a row of chains from the trunk.
    Panel,
    /// Hair: a chain per lock from the head.
    Hair,
}

/// The trunk bone a panel hangs from: of the hips and the spine bones (up to the neck),
/// the one nearest the middle of the panel's top (its vertices within 5 % of its height
/// of its highest).
fn trunk_bone_at(skel: &crate::model::Skeleton, roles: &Roles, pos: &[Vec3]) -> Option<usize> {
    let (lo, hi) = crate::model::bounds_of(pos);
    let near: Vec<Vec3> = pos
        .iter()
        .copied()
        .filter(|q| q.y >= hi.y - 0.05 * (hi.y - lo.y))
        .collect();
    let at = near.iter().copied().sum::<Vec3>() / near.len().max(1) as f32;
    let mut trunk = roles.spine_chain(skel);
    trunk.extend(roles.hips);
    trunk.into_iter().min_by(|&a, &b| {
        let d = |i: usize| {
            let bn = &skel.bones[i];
            (crate::geom::segment::closest_on_segment(at, bn.head, bn.tail) - at).length()
        };
        d(a).total_cmp(&d(b))
    })
}

/// Chains for a panel hanging from the trunk bone `parent`: `cols` chains across its
/// width (about [`ChainOptions::panel_width`] H apart at the hem, 3 to 12), each of
/// `segs` bones down its length ([`ChainOptions::segment_length`]), named
/// `BASE.NN[.00S]`. A joint lies at the mean of the panel's vertices nearest its place
/// (its share of the width at its height). A vertex is weighted to the two nearest
/// chains (linear across the width) and the two nearest bones along them, fading to
/// `parent` over the top half-bone, where the panel is fastened.
fn build_panel(
    skel: &mut crate::model::Skeleton,
    taken: &mut HashMap<String, usize>,
    parent: usize,
    pos: &[Vec3],
    h: f32,
    o: &ChainOptions,
    base: &str,
) -> Weights {
    let (lo, hi) = crate::model::bounds_of(pos);
    let len = (hi.y - lo.y).max(1e-6);
    let segs = ((len / (o.segment_length * h)).round() as usize).clamp(o.segments.0, o.segments.1);
    // The width at each of 2 * segs bands of height.
    let nb = 2 * segs;
    let band = |y: f32| ((((hi.y - y) / len) * nb as f32) as usize).min(nb - 1);
    let mut span = vec![(f32::INFINITY, f32::NEG_INFINITY); nb];
    for q in pos {
        let s = &mut span[band(q.y)];
        *s = (s.0.min(q.x), s.1.max(q.x));
    }
    for b in 0..nb {
        if !span[b].0.is_finite() {
            span[b] = if b > 0 { span[b - 1] } else { (lo.x, hi.x) };
        }
    }
    let u = |q: Vec3| {
        let (a, b) = span[band(q.y)];
        if b - a > 1e-6 {
            ((q.x - a) / (b - a)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    };
    let hem = span[nb - 1];
    let cols = (((hem.1 - hem.0) / (o.panel_width * h)).round() as usize + 1).clamp(3, 12);
    let step = len / segs as f32;
    let row_y = |j: usize| hi.y - step * j as f32;
    // Per joint row, the vertices within half a bone of its height, with their share
    // of the width: each vertex is in one or two rows, found once.
    let mut rows: Vec<Vec<(f32, Vec3)>> = vec![Vec::new(); segs + 1];
    for &q in pos {
        let j0 = ((hi.y - q.y) / step).floor().max(0.0) as usize;
        for j in [j0, j0 + 1] {
            if j <= segs && (q.y - row_y(j)).abs() <= 0.5 * step {
                rows[j].push((u(q), q));
            }
        }
    }
    let mut ids: Vec<Vec<u32>> = Vec::with_capacity(cols);
    for k in 0..cols {
        let uk = k as f32 / (cols - 1) as f32;
        let mut joints: Vec<Vec3> = Vec::with_capacity(segs + 1);
        for (j, row) in rows.iter().enumerate() {
            let y = row_y(j);
            let mut near: Vec<(f32, Vec3)> =
                row.iter().map(|&(uq, q)| ((uq - uk).abs(), q)).collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            near.truncate(6);
            let p = if near.is_empty() {
                joints.last().map_or(
                    Vec3::new(lo.x + uk * (hi.x - lo.x), y, 0.5 * (lo.z + hi.z)),
                    |&l| l - Vec3::Y * step,
                )
            } else {
                let m = near.iter().map(|n| n.1).sum::<Vec3>() / near.len() as f32;
                Vec3::new(m.x, y, m.z)
            };
            joints.push(p);
        }
        ids.push(add_chain(
            skel,
            taken,
            parent,
            &joints,
            &format!("{base}.{k:02}"),
            Vec3::X,
        ));
    }
    let mut w = Weights::empty(pos.len());
    for (v, &q) in pos.iter().enumerate() {
        let x = u(q) * (cols - 1) as f32;
        let k0 = (x.floor() as usize).min(cols - 2);
        let a = x - k0 as f32;
        let (anchor, bones) = along((hi.y - q.y) / step, segs);
        if anchor > 0.0 {
            w.add(v, parent as u32, anchor);
        }
        for (kk, wa) in [(k0, 1.0 - a), (k0 + 1, a)] {
            for (j, wb) in bones {
                if wa * wb > 0.0 {
                    w.add(v, ids[kk][j], wa * wb);
                }
            }
        }
    }
    w.limit(4);
    w
}

/// Head centre and radius from the body vertices above the neck.
fn head_sphere(c: &Character, head: usize, h: f32) -> (Vec3, f32) {
    let skel = c.skeleton.as_ref().expect("checked");
    let b = &skel.bones[head];
    let top: Vec<Vec3> = body_points(c)
        .into_iter()
        .filter(|p| p.y > b.head.y)
        .collect();
    let top = super::colliders::one_per_cell(&top, super::colliders::HEAD_CELL_H * h);
    if top.len() < 8 {
        return (b.middle(), 0.06 * h);
    }
    let centre = top.iter().copied().sum::<Vec3>() / top.len() as f32;
    let mut d: Vec<f32> = top.iter().map(|p| (*p - centre).length()).collect();
    d.sort_by(f32::total_cmp);
    (centre, d[d.len() / 2].max(0.02 * h))
}

/// Appends one chain of bones through `joints` (n+1 points -> n bones) under `parent`.
pub(crate) fn add_chain(
    skel: &mut crate::model::Skeleton,
    taken: &mut HashMap<String, usize>,
    parent: usize,
    joints: &[Vec3],
    base: &str,
    hinge: Vec3,
) -> Vec<u32> {
    let mut ids = Vec::with_capacity(joints.len().saturating_sub(1));
    let mut par = parent;
    for j in 0..joints.len() - 1 {
        let name = if j == 0 {
            base.to_string()
        } else {
            format!("{base}.{j:03}")
        };
        par = push_bone(skel, taken, name, par, [joints[j], joints[j + 1]], hinge);
        ids.push(par as u32);
    }
    ids
}

/// Appends one centre bone from `ends[0]` to `ends[1]` under `parent`, named `name`
/// (made unique), its local X along `hinge` (made square to the bone); its index.
pub(crate) fn push_bone(
    skel: &mut crate::model::Skeleton,
    taken: &mut HashMap<String, usize>,
    name: String,
    parent: usize,
    ends: [Vec3; 2],
    hinge: Vec3,
) -> usize {
    let name = unique_name(taken, name);
    let mut bone = Bone::new(name.clone(), Some(parent), ends[0], ends[1]);
    let y = bone.y_axis();
    let x = hinge - y * hinge.dot(y);
    if x.length_squared() > 1e-6 {
        bone.x_axis = x.normalize();
    }
    bone.side = crate::model::Side::Center;
    let idx = skel.bones.len();
    skel.bones.push(bone);
    taken.insert(name, idx);
    idx
}

/// Weight along a chain of `n` bones at parameter `v` in `[0, n]` (0 at the root):
/// `(anchor_weight, [(bone_k, w)])`, linear between bone middles, fading to the anchor
/// over the first half bone.
pub(crate) fn along(v: f32, n: usize) -> (f32, [(usize, f32); 2]) {
    let v = v.clamp(0.0, n as f32);
    if v < 0.5 {
        let w = v / 0.5;
        return (1.0 - w, [(0, w), (0, 0.0)]);
    }
    let jf = v - 0.5;
    let j0 = (jf.floor() as usize).min(n - 1);
    if j0 + 1 >= n {
        return (0.0, [(n - 1, 1.0), (n - 1, 0.0)]);
    }
    let b = jf - j0 as f32;
    (0.0, [(j0, 1.0 - b), (j0 + 1, b)])
}

/// The radial grid a skirt-like garment asks for: its vertical axis, its extent, and
/// the panel and segment counts of [`ChainOptions`] (panels from the hem's girth,
/// segments from the mean slanted length).
pub(crate) struct SkirtGrid<'a> {
    pos: &'a [Vec3],
    /// The garment's vertical axis: its x.
    pub cx: f32,
    /// The garment's vertical axis: its z.
    pub cz: f32,
    /// The top of the garment (y).
    pub y_top: f32,
    /// The bottom of the garment, its hem (y).
    pub y_hem: f32,
    /// Mean radius of the bottom 15 % of the garment.
    pub hem_r: f32,
    /// Panels around the axis.
    pub panels: usize,
    /// Segments (bones) down each panel.
    pub segs: usize,
}

impl<'a> SkirtGrid<'a> {
    /// The grid of the garment whose vertices are `pos`, on a body of height `h`.
    pub(crate) fn of(pos: &'a [Vec3], h: f32, o: &ChainOptions) -> SkirtGrid<'a> {
        let (cx, cz) = axis_of(pos);
        let (lo, hi) = crate::model::Mesh {
            positions: pos.to_vec(),
            ..Default::default()
        }
        .bounds();
        let len = (hi.y - lo.y).max(1e-6 * h);
        let mut g = SkirtGrid {
            pos,
            cx,
            cz,
            y_top: hi.y,
            y_hem: hi.y - len,
            hem_r: 0.1 * h,
            panels: 1,
            segs: 1,
        };
        let hem: Vec<f32> = pos
            .iter()
            .filter(|q| q.y < lo.y + 0.15 * len)
            .map(|q| g.radial(q))
            .collect();
        if !hem.is_empty() {
            g.hem_r = hem.iter().sum::<f32>() / hem.len() as f32;
        }
        g.panels = ((TAU * g.hem_r / (o.panel_width * h)).round() as usize)
            .clamp(o.panels.0, o.panels.1.max(o.panels.0));
        let segs_guess = ((len / (o.segment_length * h)).round() as usize)
            .clamp(o.segments.0, o.segments.1.max(o.segments.0));
        // Segments from the mean slanted length.
        let slant = {
            let rt = g.radius_at(0.0, g.y_top, 0.5 * len / segs_guess as f32);
            ((g.hem_r - rt).powi(2) + len * len).sqrt()
        };
        g.segs = ((slant / (o.segment_length * h)).round() as usize)
            .clamp(o.segments.0, o.segments.1.max(o.segments.0));
        g
    }

    /// The garment's height, top to hem.
    pub(crate) fn len(&self) -> f32 {
        self.y_top - self.y_hem
    }

    /// Distance of `q` from the axis.
    pub(crate) fn radial(&self, q: &Vec3) -> f32 {
        ((q.x - self.cx).powi(2) + (q.z - self.cz).powi(2)).sqrt()
    }

    /// Angle of `q` about the axis, 0 at the front (+Z), in `[0, TAU)`.
    pub(crate) fn angle(&self, q: &Vec3) -> f32 {
        (q.x - self.cx).atan2(q.z - self.cz).rem_euclid(TAU)
    }

    /// Mean radius of the vertices within a panel's width of angle `theta` and `dy` of
    /// height `y` (the ring at that height when none is; the hem's radius when the ring
    /// is empty too).
    pub(crate) fn radius_at(&self, theta: f32, y: f32, dy: f32) -> f32 {
        let win = TAU / self.panels as f32;
        let mut near: Vec<f32> = Vec::new();
        for q in self.pos {
            let da = (self.angle(q) - theta + TAU * 1.5).rem_euclid(TAU) - TAU * 0.5;
            if da.abs() <= win && (q.y - y).abs() <= dy {
                near.push(self.radial(q));
            }
        }
        if near.is_empty() {
            let ring: Vec<f32> = self
                .pos
                .iter()
                .filter(|q| (q.y - y).abs() <= 2.0 * dy)
                .map(|q| self.radial(q))
                .collect();
            if ring.is_empty() {
                return self.hem_r;
            }
            return ring.iter().sum::<f32>() / ring.len() as f32;
        }
        near.iter().sum::<f32>() / near.len() as f32
    }

    /// The joint on the garment's surface at angle `theta` and height `y`.
    pub(crate) fn joint(&self, theta: f32, y: f32) -> Vec3 {
        let r = self.radius_at(theta, y, 0.5 * self.len() / self.segs as f32);
        Vec3::new(self.cx + r * theta.sin(), y, self.cz + r * theta.cos())
    }
}

/// The hinge (local X) of a skirt bone hanging at angle `theta`: along the hem.
pub(crate) fn skirt_hinge(theta: f32) -> Vec3 {
    Vec3::new(theta.cos(), 0.0, -theta.sin())
}

#[allow(clippy::too_many_arguments)]
fn build_skirt(
    skel: &mut crate::model::Skeleton,
    taken: &mut HashMap<String, usize>,
    hips: usize,
    pos: &[Vec3],
    h: f32,
    o: &ChainOptions,
    base: &str,
    bodice: Bodice<'_>,
) -> Weights {
    // A dress or long coat rising above the waist hangs its chains from the waist; its
    // bodice keeps the weights it was bound with (it follows the spine and the arms).
    let (lo, hi) = crate::model::bounds_of(pos);
    let keep = bodice
        .weights
        .filter(|w| w.vertices.len() == pos.len() && hi.y > bodice.waist && lo.y < bodice.waist);
    let skirt: Vec<Vec3> = match keep {
        Some(_) => pos
            .iter()
            .copied()
            .filter(|q| q.y <= bodice.waist)
            .collect(),
        None => pos.to_vec(),
    };
    let g = SkirtGrid::of(&skirt, h, o);
    let (panels, segs, len) = (g.panels, g.segs, g.len());
    // A chain for every panel with cloth in the lower half within a panel's width of
    // it: a coat open down the front has none in its opening. The cloth above that
    // between two panels with none (the coat's front closed at the hips) stays on the
    // hips.
    let mut cloth = vec![false; panels];
    for q in skirt.iter().filter(|q| q.y < g.y_top - 0.5 * len) {
        let u = g.angle(q) / TAU * panels as f32;
        let k0 = (u.floor() as usize) % panels;
        cloth[k0] = true;
        cloth[(k0 + 1) % panels] = true;
    }
    let mut chain_ids: Vec<Vec<u32>> = vec![Vec::new(); panels];
    for k in (0..panels).filter(|&k| cloth[k]) {
        let theta = TAU * k as f32 / panels as f32;
        let joints: Vec<Vec3> = (0..=segs)
            .map(|j| g.joint(theta, g.y_top - len * j as f32 / segs as f32))
            .collect();
        chain_ids[k] = add_chain(
            skel,
            taken,
            hips,
            &joints,
            &format!("{base}.{k:02}"),
            skirt_hinge(theta),
        );
    }
    let mut w = Weights::empty(pos.len());
    for (v, q) in pos.iter().enumerate() {
        let u = g.angle(q) / TAU * panels as f32;
        let k0 = (u.floor() as usize) % panels;
        let k1 = (k0 + 1) % panels;
        // A side with no chain gives its share to the other.
        let a = match (cloth[k0], cloth[k1]) {
            (true, false) => 0.0,
            (false, true) => 1.0,
            _ => u - u.floor(),
        };
        let s = ((g.y_top - q.y) / len).clamp(0.0, 1.0);
        // The bodice's share: all of it above the waist, fading over the chains' first
        // half-bone below it.
        let kept = match keep {
            Some(_) => (1.0 - (g.y_top - q.y) / (0.5 * len / segs as f32)).clamp(0.0, 1.0),
            None => 0.0,
        };
        if let Some(old) = keep.filter(|_| kept > 0.0) {
            for inf in &old.vertices[v] {
                let leg = bodice.legs.get(inf.bone as usize).copied().unwrap_or(false);
                let bone = if leg { hips as u32 } else { inf.bone };
                w.add(v, bone, kept * inf.weight);
            }
        }
        let hang = 1.0 - kept;
        if hang <= 0.0 {
            continue;
        }
        let (anchor, bones) = along(s * segs as f32, segs);
        let anchor = if cloth[k0] || cloth[k1] { anchor } else { 1.0 };
        if anchor > 0.0 {
            w.add(v, hips as u32, hang * anchor);
        }
        for (kk, wa) in [(k0, 1.0 - a), (k1, a)] {
            for (j, wb) in bones {
                if wa * wb > 0.0 && !chain_ids[kk].is_empty() {
                    w.add(v, chain_ids[kk][j], hang * wa * wb);
                }
            }
        }
    }
    w.limit(4);
    w
}

/// What a loose garment's bodice keeps ([`build_skirt`]): above `waist` (y) a dress or
/// long coat keeps `weights`, the weights it was bound with, when it has them, with the
/// share of the bones marked in `legs` given to the hips (cloth never follows a leg).
struct Bodice<'a> {
    waist: f32,
    weights: Option<&'a Weights>,
    legs: &'a [bool],
}

/// How far above the hip line (H) a loose garment's chains start at most: a skirt's
/// waistband is about this high; a dress or long coat reaching higher keeps its bound
/// weights above it ([`build_skirt`]).
pub const SKIRT_WAIST: f32 = 0.1;

/// Connected pieces of `idx` (a vertex subset) through triangles of `mesh`, welding
/// vertices at the same position. Sorted by their lowest vertex index.
fn pieces(mesh: &crate::model::Mesh, keep: &[bool]) -> Vec<Vec<usize>> {
    let n = mesh.positions.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let union = |p: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (root(p, a), root(p, b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            p[hi] = lo;
        }
    };
    let mut seen: HashMap<[u32; 3], usize> = HashMap::new();
    for (i, q) in mesh.positions.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let key = q.to_array().map(f32::to_bits);
        if let Some(&j) = seen.get(&key) {
            union(&mut parent, i, j);
        } else {
            seen.insert(key, i);
        }
    }
    for t in &mesh.triangles {
        for e in 0..3 {
            let (a, b) = (t[e] as usize, t[(e + 1) % 3] as usize);
            if a < n && b < n && keep[a] && keep[b] {
                union(&mut parent, a, b);
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        if keep[i] {
            let r = root(&mut parent, i);
            groups.entry(r).or_default().push(i);
        }
    }
    groups.into_values().collect()
}

/// The head hair hangs from: its bone and the sphere of the skin above the neck.
struct HairHead {
    bone: usize,
    centre: Vec3,
    radius: f32,
}

/// Chains for one hair part: its locks (pieces, a cap wrapping the head removed),
/// fringes split into strands, a chain of 2 to 4 bones down each strand long enough,
/// and weights along it; the rest of the hair follows the head.
fn build_hair(
    skel: &mut crate::model::Skeleton,
    taken: &mut HashMap<String, usize>,
    head: &HairHead,
    mesh: &crate::model::Mesh,
    h: f32,
    o: &ChainOptions,
    counter: &mut usize,
) -> Weights {
    let pos = &mesh.positions;
    let n = pos.len();
    let mut w = Weights::empty(n);
    let mut in_lock = vec![false; n];
    for s in hair_strands(pos, hair_locks(mesh, head), head.centre) {
        let Some(strand) = strand_joints(pos, &s, head.centre, o, h) else {
            continue;
        };
        let name = format!("hair.{:02}", *counter);
        *counter += 1;
        let ids = add_chain(skel, taken, head.bone, &strand.joints, &name, Vec3::X);
        for (k, &i) in s.iter().enumerate() {
            let (anchor, bones) = along(strand.dist[k] / strand.step, strand.bones);
            if anchor > 0.0 {
                w.add(i, head.bone as u32, anchor);
            }
            for (j, wb) in bones {
                if wb > 0.0 {
                    w.add(i, ids[j], wb);
                }
            }
            in_lock[i] = true;
        }
    }
    for i in 0..n {
        if !in_lock[i] {
            w.add(i, head.bone as u32, 1.0);
        }
    }
    w.limit(4);
    w
}

/// The hair's pieces; a piece wrapping the head loses its cap (the vertices within
/// 1.15 head radii of the head's centre), leaving the locks below it.
fn hair_locks(mesh: &crate::model::Mesh, head: &HairHead) -> Vec<Vec<usize>> {
    let (pos, n) = (&mesh.positions, mesh.positions.len());
    let (centre, radius) = (head.centre, head.radius);
    let all = vec![true; n];
    let mut locks: Vec<Vec<usize>> = Vec::new();
    for piece in pieces(mesh, &all) {
        let pts: Vec<Vec3> = piece.iter().map(|&i| pos[i]).collect();
        let (lo, hi) = crate::model::Mesh {
            positions: pts.clone(),
            ..Default::default()
        }
        .bounds();
        let cen = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
        let wraps = (cen - centre).length() < radius
            && hi.x - lo.x > 1.2 * radius
            && hi.z - lo.z > 1.2 * radius;
        if wraps {
            let mut keep = vec![false; n];
            for &i in &piece {
                if (pos[i] - centre).length() >= 1.15 * radius {
                    keep[i] = true;
                }
            }
            locks.extend(pieces(mesh, &keep));
        } else {
            locks.push(piece);
        }
    }
    locks
}

/// The vertex of `lock` nearest the head's centre (lowest index on ties): its root.
fn lock_root(pos: &[Vec3], lock: &[usize], centre: Vec3) -> usize {
    *lock
        .iter()
        .min_by(|&&a, &&b| {
            (pos[a] - centre)
                .length()
                .total_cmp(&(pos[b] - centre).length())
                .then(a.cmp(&b))
        })
        .expect("non-empty")
}

/// The locks with every fringe (a lock much wider than long) split across into 2 to 5
/// strands.
fn hair_strands(pos: &[Vec3], locks: Vec<Vec<usize>>, centre: Vec3) -> Vec<Vec<usize>> {
    let mut strands: Vec<Vec<usize>> = Vec::new();
    for lock in locks {
        let root_i = lock_root(pos, &lock, centre);
        let far = lock
            .iter()
            .map(|&i| (pos[i] - pos[root_i]).length())
            .fold(0.0, f32::max);
        let dir = lock
            .iter()
            .map(|&i| pos[i] - pos[root_i])
            .max_by(|a, b| a.length().total_cmp(&b.length()))
            .unwrap_or(Vec3::NEG_Y)
            .try_normalize()
            .unwrap_or(Vec3::NEG_Y);
        let across = dir
            .cross(pos[root_i] - centre)
            .try_normalize()
            .unwrap_or(Vec3::X);
        let coords: Vec<f32> = lock
            .iter()
            .map(|&i| (pos[i] - centre).dot(across))
            .collect();
        let (a0, a1) = coords
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), c| {
                (l.min(*c), h.max(*c))
            });
        let width = a1 - a0;
        if far > 0.0 && width > 1.5 * far {
            let m = ((width / far).round() as usize).clamp(2, 5);
            let mut parts: Vec<Vec<usize>> = vec![Vec::new(); m];
            for (k, &i) in lock.iter().enumerate() {
                let s = (((coords[k] - a0) / width * m as f32) as usize).min(m - 1);
                parts[s].push(i);
            }
            strands.extend(parts.into_iter().filter(|p| !p.is_empty()));
        } else {
            strands.push(lock);
        }
    }
    strands
}

/// The chain down one strand.
struct StrandJoints {
    /// Per strand vertex, its distance from the root.
    dist: Vec<f32>,
    /// The joints, root first (`bones + 1`).
    joints: Vec<Vec3>,
    /// Distance between joints.
    step: f32,
    /// Number of bones.
    bones: usize,
}

/// The joints of a chain down strand `s`: 2 to 4 bones of about
/// [`ChainOptions::hair_bone_length`] H, joint `j` the centroid of the vertices around
/// `j / bones` of the strand's length. `None` for a strand shorter than
/// [`ChainOptions::min_lock`] H.
fn strand_joints(
    pos: &[Vec3],
    s: &[usize],
    centre: Vec3,
    o: &ChainOptions,
    h: f32,
) -> Option<StrandJoints> {
    let root = pos[lock_root(pos, s, centre)];
    let d: Vec<f32> = s.iter().map(|&i| (pos[i] - root).length()).collect();
    let len = d.iter().copied().fold(0.0, f32::max);
    if len < o.min_lock * h {
        return None;
    }
    let nb = ((len / (o.hair_bone_length * h)).round() as usize).clamp(2, 4);
    let step = len / nb as f32;
    let mut joints: Vec<Vec3> = Vec::with_capacity(nb + 1);
    for j in 0..=nb {
        let target = j as f32 * step;
        let (mut acc, mut cnt) = (Vec3::ZERO, 0.0);
        for (k, &i) in s.iter().enumerate() {
            if (d[k] - target).abs() <= 0.5 * step {
                acc += pos[i];
                cnt += 1.0;
            }
        }
        let p = if cnt > 0.0 {
            acc / cnt
        } else {
            joints.last().copied().unwrap_or(root)
        };
        joints.push(p);
    }
    // Degenerate joints (no spread) would make zero-length bones: nudge them.
    for j in 1..joints.len() {
        if (joints[j] - joints[j - 1]).length() < 0.1 * step {
            joints[j] = joints[j - 1] + Vec3::NEG_Y * step;
        }
    }
    Some(StrandJoints {
        dist: d,
        joints,
        step,
        bones: nb,
    })
}
