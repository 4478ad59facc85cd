//! The spring-bone solver: the VRM 1.0 `VRMC_springBone` model plus sideways links
//! between neighbouring skirt panels.
//!
//! Each spring joint owns the tail of one chain bone. Per step of `dt` seconds, as the
//! VRM 1.0 specification and `@pixiv/three-vrm` do:
//!
//! ```text
//! inertia   = (current_tail - prev_tail) * (1 - drag)
//! stiffness = dt * parent_world_rotation * rest_direction * stiffness_force
//! external  = dt * gravity_dir * gravity_power
//! next      = current_tail + inertia + stiffness + external
//! next      = head + normalize(next - head) * bone_length
//! next      = pushed out of every collider of the joint's groups by hit_radius
//!             (kept inside "inside" colliders, above planes), length restored
//! prev_tail = current_tail; current_tail = next
//! ```
//!
//! and the bone turns by the shortest arc from its rest direction (after its parent's
//! motion) to `next - head`. After all chains are stepped, each [`Link`] pulls its two
//! tails half-way back toward their rest distance (two passes), and the chains are
//! walked again root to tip to restore bone lengths and collisions. A chain with a
//! `center` (cloth: its root parent) integrates in that bone's space, as VRM's spring
//! `center` does: its state is carried along by the centre's motion each step. Stiffness and
//! gravity are given for a 1.7 m figure and scaled by H / 1.7 m, so the motion of a
//! figure does not depend on its size.
//!
//! That much is what a VRM runtime runs ([`SpringSystem::as_vrm_runtime`]: one collision
//! pass, no links). `simulate` runs more ([`SpringSystem::fit_to_body`],
//! [`SpringSystem::with_leg_web`]): the colliders at their measured size with every
//! joint held at its own rest distance from them, each bone kept out along its
//! whole length (turned about its head until its deepest point is back), the web that
//! keeps a skirt out of the gap between the legs ([`super::leg_gap`]), and up to
//! [`COLLISION_ROUNDS`] rounds of collisions and length per joint.
//!
//! [`Link`]: super::Link

use glam::{Mat4, Quat, Vec3};

/// Rounds of collision resolution and length restoration per joint and step (the VRM
/// runtimes do one; more settle a joint wedged between two colliders).
pub const COLLISION_ROUNDS: usize = 8;

use super::colliders::{Collider, WorldShape};
use super::leg_gap::{push_out_of_web, LegWeb, WebFrame, WEB_MAX_TURN_COS, WEB_THICKNESS};
use super::sidecar::{Sidecar, SpringParams};
use crate::error::{Error, Result};
use crate::model::Skeleton;

/// A link between two simulated joints: (chain, joint), (chain, joint), rest distance
/// in metres.
pub type LinkIndex = ((usize, usize), (usize, usize), f32);

/// One simulated joint (the tail of one chain bone).
#[derive(Debug, Clone, PartialEq)]
pub struct SpringJoint {
    /// The bone index in the skeleton.
    pub bone: usize,
    /// Its parent bone, if any.
    pub parent: Option<usize>,
    /// Rest head, world, metres.
    pub rest_head: Vec3,
    /// Rest tail (the chain's tip), world, metres.
    pub rest_tail: Vec3,
    /// Stiffness displacement per second, metres (already scaled by H).
    pub stiffness: f32,
    /// Drag, 0..1.
    pub drag: f32,
    /// Gravity displacement per second, metres (scaled by H), along `gravity_dir`.
    pub gravity: Vec3,
    /// Collision radius, metres.
    pub hit_radius: f32,
    /// The joint's hit radius as the VRM file carries it, metres: its chain's
    /// [`super::Chain::hit_radii`] entry where the rest pose needs a smaller one, else
    /// `hit_radius` ([`SpringSystem::as_vrm_runtime`] runs with it).
    pub vrm_hit_radius: f32,
    /// Per collider of the system (same order as [`SpringSystem::colliders`]): how far
    /// outside that collider's surface the solver keeps this joint, metres. The hit
    /// radius, unless [`SpringSystem::fit_to_body`] found the joint resting closer (a
    /// garment lying on the body), then its rest distance (negative when it rests
    /// inside).
    pub reach: Vec<f32>,
    /// Per collider, when [`SpringSystem::fit_to_body`] fitted the joint: how far
    /// outside that collider's surface the solver keeps the deepest point of the whole
    /// bone (head to tail), metres: the hit radius, or the bone's rest distance when it
    /// rests closer. Empty: only the tail collides, as in the VRM runtimes.
    pub bone_reach: Vec<f32>,
}

/// A running spring simulation over a skeleton.
#[derive(Debug, Clone)]
pub struct SpringSystem {
    /// Per spring chain: its class and joints, root first.
    pub chains: Vec<(String, Vec<SpringJoint>)>,
    /// Per spring chain: the bone whose space it integrates in (VRM `center`), if any.
    pub centers: Vec<Option<usize>>,
    /// Per spring chain: indices into `colliders` it collides with.
    pub chain_colliders: Vec<Vec<usize>>,
    /// Colliders and the bone index each rides.
    pub colliders: Vec<(Collider, usize)>,
    /// Links: ((chain, joint), (chain, joint), rest distance in metres).
    pub links: Vec<LinkIndex>,
    /// The web across the gap between the legs that cloth joints are kept out of
    /// ([`SpringSystem::with_leg_web`]); `None` as in the VRM runtimes.
    pub web: Option<LegWeb>,
    /// Per chain, per joint: the side of the web (+1 front, -1 behind) the joint last
    /// stood on, and how far beyond the web's face it is kept (metres, negative when it
    /// rests inside the web). Empty without a web.
    web_state: Vec<Vec<(f32, f32)>>,
    /// Rounds of collision resolution per joint and step: [`COLLISION_ROUNDS`], or 1 as
    /// the VRM runtimes do ([`SpringSystem::as_vrm_runtime`]).
    pub rounds: usize,
    prev: Vec<Vec<Vec3>>,
    cur: Vec<Vec<Vec3>>,
    center_prev: Vec<Mat4>,
    started: bool,
}

fn bone_idx(skel: &Skeleton, name: &str) -> Result<usize> {
    skel.find(name).ok_or_else(|| {
        Error::invalid(
            "sidecar",
            format!("names bone {name:?}, which the skeleton lacks"),
        )
    })
}

impl SpringSystem {
    /// Sets up the solver for the sidecar's spring chains on `skel`.
    pub fn new(skel: &Skeleton, sc: &Sidecar) -> Result<SpringSystem> {
        sc.check_bones(skel)?;
        let h = if sc.height > 0.0 {
            sc.height
        } else {
            skel.height().max(1e-6)
        };
        let scale = h / 1.7;
        let colliders: Vec<(Collider, usize)> = sc
            .colliders
            .iter()
            .map(|c| Ok((c.clone(), bone_idx(skel, &c.bone)?)))
            .collect::<Result<_>>()?;
        let mut chains = Vec::new();
        let mut chain_colliders = Vec::new();
        let mut centers = Vec::new();
        let mut where_: std::collections::HashMap<&str, (usize, usize)> = Default::default();
        let mut order: Vec<&super::Chain> = sc.chains.iter().filter(|c| c.springs()).collect();
        order.sort_by_key(|c| skel.find(&c.bones[0]).unwrap_or(usize::MAX));
        for ch in order {
            let p = sc
                .springs
                .get(&ch.class)
                .cloned()
                .unwrap_or_else(|| SpringParams::for_class(&ch.class));
            let tips = ch.world_tips(skel);
            let mut joints = Vec::with_capacity(ch.bones.len());
            for (k, b) in ch.bones.iter().enumerate() {
                let bi = bone_idx(skel, b)?;
                let bone = &skel.bones[bi];
                where_.insert(b.as_str(), (chains.len(), k));
                joints.push(SpringJoint {
                    bone: bi,
                    parent: bone.parent,
                    rest_head: bone.head,
                    rest_tail: tips[k],
                    stiffness: p.stiffness * scale,
                    drag: p.drag.clamp(0.0, 1.0),
                    gravity: Vec3::from_array(p.gravity_dir).normalize_or_zero()
                        * p.gravity_power
                        * scale,
                    hit_radius: p.hit_radius * h,
                    vrm_hit_radius: ch
                        .hit_radii
                        .get(k)
                        .map_or(p.hit_radius, |r| r.clamp(0.0, p.hit_radius))
                        * h,
                    reach: vec![p.hit_radius * h; colliders.len()],
                    bone_reach: Vec::new(),
                });
            }
            chain_colliders.push(
                colliders
                    .iter()
                    .enumerate()
                    .filter(|(_, (c, _))| p.collider_groups.contains(&c.group))
                    .map(|(i, _)| i)
                    .collect(),
            );
            centers.push(if p.center {
                joints.first().and_then(|j: &SpringJoint| j.parent)
            } else {
                None
            });
            chains.push((ch.class.clone(), joints));
        }
        let links = sc
            .links
            .iter()
            .filter_map(|l| {
                Some((
                    *where_.get(l.a.as_str())?,
                    *where_.get(l.b.as_str())?,
                    l.rest,
                ))
            })
            .collect();
        let n = chains.len();
        Ok(SpringSystem {
            center_prev: vec![Mat4::IDENTITY; n],
            centers,
            chains,
            chain_colliders,
            colliders,
            links,
            web: None,
            web_state: Vec::new(),
            rounds: COLLISION_ROUNDS,
            prev: vec![Vec::new(); n],
            cur: vec![Vec::new(); n],
            started: false,
        })
    }

    /// Puts the body's colliders back at their measured size and keeps each joint at its
    /// own rest distance from them. `body` holds colliders as [`super::measure_colliders`]
    /// gives them; each measured collider of the system with the same name and bone takes
    /// its shape (authored colliders are kept). Then every spring joint's
    /// [`SpringJoint::reach`] against an outside collider becomes the smaller of its hit
    /// radius and its rest distance from that collider's surface: a skirt lying on the
    /// thigh at rest stays on the thigh, never sinks into it, and the colliders need no
    /// shrinking to let the rest pose stand (the shrunk ones, [`super::clear_rest_pose`],
    /// are what a VRM runtime gets, with a hit radius per joint). Every bone also gets a
    /// [`SpringJoint::bone_reach`]: the whole bone, not only its tail, is kept out.
    pub fn fit_to_body(mut self, skel: &Skeleton, body: &[Collider]) -> SpringSystem {
        for (col, _) in self.colliders.iter_mut() {
            if let Some(full) = body
                .iter()
                .find(|m| col.measured && m.name == col.name && m.bone == col.bone)
            {
                col.shape = full.shape;
            }
        }
        let rest: Vec<WorldShape> = self
            .colliders
            .iter()
            .map(|(c, b)| c.world(&skel.bones[*b].rest_matrix()))
            .collect();
        for (_, joints) in self.chains.iter_mut() {
            for j in joints.iter_mut() {
                j.bone_reach = vec![j.hit_radius; self.colliders.len()];
                for (s, (c, _)) in self.colliders.iter().enumerate() {
                    if !c.inside {
                        j.reach[s] = j.hit_radius.min(rest[s].signed_distance(j.rest_tail));
                        j.bone_reach[s] = j
                            .hit_radius
                            .min(rest[s].segment_depth(j.rest_head, j.rest_tail).1);
                    }
                }
            }
        }
        self
    }

    /// Keeps the cloth chains out of the gap between the legs (see
    /// [`super::leg_gap`]): `web` names the leg colliders among [`SpringSystem::colliders`].
    /// Each cloth joint starts on the side of the web it rests on; one resting inside
    /// the web's slab keeps its rest distance.
    pub fn with_leg_web(mut self, skel: &Skeleton, web: LegWeb) -> SpringSystem {
        let skin = vec![Mat4::IDENTITY; skel.len()];
        let shapes = self.world_colliders(skel, &skin);
        let rest = web.frame(&shapes, &skin);
        self.web_state = self
            .chains
            .iter()
            .map(|(class, joints)| {
                joints
                    .iter()
                    .map(|j| {
                        if !super::chains::is_cloth_class(class) {
                            return (0.0, 0.0);
                        }
                        match rest.gap(j.rest_tail) {
                            Some(g) => {
                                let half = WEB_THICKNESS * 0.5 * (g.ra + g.rb);
                                let along = g.offset.dot(g.forward).abs();
                                let reach = if g.in_gap() {
                                    (along - half).min(0.0)
                                } else {
                                    0.0
                                };
                                (g.side(), reach)
                            }
                            None => (1.0, 0.0),
                        }
                    })
                    .collect()
            })
            .collect();
        self.web = Some(web);
        self
    }

    /// The model a VRM 1.0 runtime (`@pixiv/three-vrm`, UniVRM) runs on the exported
    /// file: the sidecar's colliders as they are, only each joint's tail colliding, by
    /// its hit radius, one collision pass per joint and step, and no sideways links
    /// (VRM has none).
    pub fn as_vrm_runtime(mut self) -> SpringSystem {
        self.links.clear();
        self.rounds = 1;
        self.web = None;
        self.web_state.clear();
        for (_, joints) in self.chains.iter_mut() {
            for j in joints.iter_mut() {
                j.hit_radius = j.vrm_hit_radius;
                j.reach = vec![j.hit_radius; self.colliders.len()];
                j.bone_reach.clear();
            }
        }
        self
    }

    /// The world shapes of all colliders for the body's skinning matrices.
    pub(crate) fn world_colliders(&self, skel: &Skeleton, skin: &[Mat4]) -> Vec<WorldShape> {
        self.colliders
            .iter()
            .map(|(c, b)| c.world(&(skin[*b] * skel.bones[*b].rest_matrix())))
            .collect()
    }

    /// The current tail of every joint (world, metres), per chain.
    pub fn tails(&self) -> &[Vec<Vec3>] {
        &self.cur
    }

    /// Advances one step of `dt` seconds. `skin` holds the body's skinning matrices
    /// (rest -> posed) for the current frame; the chain bones' entries are overwritten
    /// with the simulated ones.
    pub fn step(&mut self, skel: &Skeleton, skin: &mut [Mat4], dt: f32) {
        let shapes = self.world_colliders(skel, skin);
        // The gap between the legs of this frame (the chains never move the legs).
        let web = self.web.as_ref().map(|w| w.frame(&shapes, skin));
        if !self.started {
            // Start at rest relative to the posed parents.
            for (ci, (_, joints)) in self.chains.iter().enumerate() {
                let mut tails = Vec::with_capacity(joints.len());
                for j in joints {
                    let s = j.parent.map_or(Mat4::IDENTITY, |p| skin[p]);
                    let t = s.transform_point3(j.rest_tail);
                    tails.push(t);
                    skin[j.bone] = s;
                }
                self.prev[ci] = tails.clone();
                self.cur[ci] = tails;
            }
            for (ci, c) in self.centers.iter().enumerate() {
                if let Some(c) = c {
                    self.center_prev[ci] = skin[*c];
                }
            }
            self.started = true;
        }
        // Chains integrating in a centre's space carry their state along with it.
        for (ci, c) in self.centers.iter().enumerate() {
            if let Some(c) = c {
                let d = skin[*c] * self.center_prev[ci].inverse();
                for p in self.prev[ci].iter_mut().chain(self.cur[ci].iter_mut()) {
                    *p = d.transform_point3(*p);
                }
                self.center_prev[ci] = skin[*c];
            }
        }
        for ci in 0..self.chains.len() {
            let next = self.solve_chain(ci, skin, &shapes, web.as_ref(), Some(dt));
            self.prev[ci] = std::mem::replace(&mut self.cur[ci], next);
        }
        if !self.links.is_empty() {
            for _ in 0..2 {
                for &((ca, ja), (cb, jb), rest) in &self.links {
                    let (pa, pb) = (self.cur[ca][ja], self.cur[cb][jb]);
                    let d = pb - pa;
                    let len = d.length();
                    if len > 1e-9 {
                        let corr = d * (0.5 * (len - rest) / len) * 0.5;
                        self.cur[ca][ja] += corr;
                        self.cur[cb][jb] -= corr;
                    }
                }
            }
            for ci in 0..self.chains.len() {
                let fixed = self.solve_chain(ci, skin, &shapes, web.as_ref(), None);
                self.cur[ci] = fixed;
            }
        }
        if let Some(w) = &web {
            self.update_web_sides(w);
        }
    }

    /// Notes which side of the web every cloth joint now stands on, where it is clear
    /// of the web's slab.
    fn update_web_sides(&mut self, web: &WebFrame) {
        for (ci, tails) in self.cur.iter().enumerate() {
            for (k, p) in tails.iter().enumerate() {
                let st = &mut self.web_state[ci][k];
                if st.0 == 0.0 {
                    continue;
                }
                // The side is noted only where the web spans the gap and the joint is
                // clear of its slab, or the joint is beside a leg with the legs side by
                // side (a stride turns the line joining the legs; above the hips there
                // is no gap).
                match web.gap(*p) {
                    Some(g) if g.across >= WEB_MAX_TURN_COS => {
                        let half = WEB_THICKNESS * 0.5 * (g.ra + g.rb);
                        if !g.in_gap()
                            || g.offset.dot(g.forward).abs() >= half + st.1.min(0.0) - 1e-6
                        {
                            st.0 = g.side();
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Walks one chain root to tip: with `dt`, integrates from the current state; without,
    /// only re-projects the current tails (lengths and collisions). Writes skinning
    /// matrices of the chain's bones and returns the new tails.
    fn solve_chain(
        &self,
        ci: usize,
        skin: &mut [Mat4],
        shapes: &[WorldShape],
        web: Option<&WebFrame>,
        dt: Option<f32>,
    ) -> Vec<Vec3> {
        let joints = &self.chains[ci].1;
        let mut out = Vec::with_capacity(joints.len());
        for (k, j) in joints.iter().enumerate() {
            let sp = j.parent.map_or(Mat4::IDENTITY, |p| skin[p]);
            let head = sp.transform_point3(j.rest_head);
            let rest_vec = sp.transform_vector3(j.rest_tail - j.rest_head);
            let len = (j.rest_tail - j.rest_head).length();
            let rest_dir = rest_vec.try_normalize().unwrap_or(Vec3::NEG_Y);
            let cur = self.cur[ci][k];
            let mut next = match dt {
                Some(dt) => {
                    let prev = self.prev[ci][k];
                    cur + (cur - prev) * (1.0 - j.drag)
                        + rest_dir * (j.stiffness * dt)
                        + j.gravity * dt
                }
                None => cur,
            };
            next = head + (next - head).try_normalize().unwrap_or(rest_dir) * len;
            // Collisions and the length constraint fight where a joint sits between two
            // colliders or its bone lies along one: resolve them together, a few rounds.
            for _ in 0..self.rounds.max(1) {
                let mut moved = false;
                if let (Some(web), Some(&(side, reach))) =
                    (web, self.web_state.get(ci).and_then(|v| v.get(k)))
                {
                    if side != 0.0 {
                        if let Some(q) =
                            web.gap(next).and_then(|g| push_out_of_web(&g, side, reach))
                        {
                            next = head + (q - head).try_normalize().unwrap_or(rest_dir) * len;
                            moved = true;
                        }
                    }
                }
                for &s in &self.chain_colliders[ci] {
                    let (c, _) = &self.colliders[s];
                    let shape = &shapes[s];
                    let sd = shape.signed_distance(next);
                    if c.inside {
                        // Keep the joint's sphere inside the shape.
                        if sd > -j.hit_radius {
                            let (surf, n) = shape.surface(next);
                            next = surf - n * j.hit_radius;
                            moved = true;
                        }
                    } else {
                        if sd < j.reach[s] {
                            let (surf, n) = shape.surface(next);
                            next = surf + n * j.reach[s];
                            moved = true;
                        }
                        // The whole bone, not only its tail: turn it about its head
                        // until its deepest point is back at its reach (a bone lying
                        // across a shin would otherwise cut it with its middle).
                        if let Some(&want) = j.bone_reach.get(s) {
                            let (u, d) = shape.segment_depth(head, next);
                            if d < want - 1e-5 && u > 0.05 {
                                let (_, n) = shape.surface(head + (next - head) * u);
                                next += n * ((want - d) / u.max(0.25));
                                moved = true;
                            }
                        }
                    }
                    next = head + (next - head).try_normalize().unwrap_or(rest_dir) * len;
                }
                if !moved {
                    break;
                }
            }
            if !next.is_finite() {
                next = head + rest_dir * len;
            }
            let dir = (next - head).try_normalize().unwrap_or(rest_dir);
            let q = Quat::from_rotation_arc(rest_dir, dir);
            skin[j.bone] = Mat4::from_translation(head)
                * Mat4::from_quat(q)
                * Mat4::from_translation(-head)
                * sp;
            out.push(next);
        }
        out
    }
}
