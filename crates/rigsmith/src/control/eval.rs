//! The evaluator: control transforms and property values in, every bone's posed world
//! matrix out (the deform bones' are what skinning needs).
//!
//! [`Evaluator::new`] resolves names once, builds the dependency graph (parent ->
//! child, constraint target -> owner, driver bone -> owner, IK owner -> every bone that
//! hangs on its chain) and orders it; a cycle is refused with the bones on it named.
//! [`Evaluator::evaluate`] then poses a frame with no allocation.
//!
//! Each bone, as Blender evaluates it: `parent_posed * rest_offset * local` (location,
//! rotation, scale channels), then its constraint stack top to bottom, each constraint
//! read and written in its spaces and blended with the matrix before it by its
//! influence (a driver's value, clamped to 0..1) in world space
//! ([`super::math::interp`]).
//!
//! IK (chain 1 or 2) is solved in closed form: the lower bone bends about its X axis
//! (a hinge: IK locked on Y and Z) until the chain's reach equals the distance to the
//! goal (on the same side of straight as at rest; straight when out of reach), the
//! chain turns by the shortest arc onto the goal, then about the root -> goal axis
//! until the root's `X cos(a) + Z sin(a)` points at the pole. That is the unique
//! configuration Blender's iterative solver converges to for such a chain.

use std::collections::HashMap;

use glam::{Mat3, Mat4, Quat, Vec3};

use super::math::{arc, compose, decompose, from_euler, interp, quat_of, rotate_about, to_euler};
use super::model::{
    Channel, ControlPose, ControlRig, DriverExpr, DriverVar, Kind, RotMix, Space, TransMix,
};
use crate::error::{Error, Result};

const NONE: usize = usize::MAX;

/// A constraint with its bones resolved to indices.
#[derive(Debug, Clone)]
struct Con {
    kind: Kind,
    target: usize,
    pole: usize,
    owner_space: Space,
    target_space: Space,
    influence: f32,
    driver: Option<Drv>,
}

#[derive(Debug, Clone)]
enum Var {
    Prop(usize),
    RotDiff(usize, usize),
}

#[derive(Debug, Clone)]
struct Drv {
    vars: Vec<Var>,
    expr: DriverExpr,
}

/// One frame's inputs, by index: each bone's local channel matrix and each property's
/// value (see [`Evaluator::channels`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Channels {
    /// Local channel matrix per bone (`T * R * S`), identity at rest.
    pub local: Vec<Mat4>,
    /// Value per property, in [`ControlRig::properties`] order.
    pub props: Vec<f32>,
}

/// A control rig prepared for posing (see the module docs).
#[derive(Debug, Clone)]
pub struct Evaluator {
    names: Vec<String>,
    index: HashMap<String, usize>,
    parent: Vec<Option<usize>>,
    rest: Vec<Mat4>,
    offset: Vec<Mat4>,
    length: Vec<f32>,
    cons: Vec<Vec<Con>>,
    order: Vec<usize>,
    props: Vec<(String, f32)>,
    deform: Vec<usize>,
}

impl Evaluator {
    /// Prepares `rig`: every name must resolve, IK chains must be 1 or 2 bones (a 2-bone
    /// chain's owner locked on IK Y and Z), and the dependency graph must have no cycle
    /// (the error names one).
    pub fn new(rig: &ControlRig) -> Result<Evaluator> {
        let n = rig.bones.len();
        let mut index = HashMap::with_capacity(n);
        for (i, b) in rig.bones.iter().enumerate() {
            if index.insert(b.name.clone(), i).is_some() {
                return Err(Error::invalid(
                    "control rig",
                    format!("bone name {:?} is used twice", b.name),
                ));
            }
            if !(b.head.is_finite() && b.tail.is_finite() && b.x_axis.is_finite()) {
                return Err(Error::invalid(
                    "control rig",
                    format!("bone {:?} has a non-finite head, tail or x_axis", b.name),
                ));
            }
        }
        let find = |name: &str, what: &str| -> Result<usize> {
            index.get(name).copied().ok_or_else(|| {
                Error::invalid(
                    "control rig",
                    format!("{what} names a missing bone {name:?}"),
                )
            })
        };
        let mut parent = Vec::with_capacity(n);
        for b in &rig.bones {
            parent.push(match &b.parent {
                Some(p) => Some(find(p, &format!("bone {:?}'s parent", b.name))?),
                None => None,
            });
        }
        let rest: Vec<Mat4> = rig
            .bones
            .iter()
            .map(|b| b.as_bone().rest_matrix())
            .collect();
        let offset: Vec<Mat4> = (0..n)
            .map(|i| match parent[i] {
                Some(p) => rest[p].inverse() * rest[i],
                None => rest[i],
            })
            .collect();
        let mut prop_index = HashMap::new();
        let mut props = Vec::new();
        for p in &rig.properties {
            if !p.default.is_finite() {
                return Err(Error::invalid(
                    "control rig",
                    format!("property {:?} has a non-finite default", p.name),
                ));
            }
            prop_index.insert((p.bone.clone(), p.name.clone()), props.len());
            props.push((p.name.clone(), p.default));
        }
        let mut cons = Vec::with_capacity(n);
        for (i, b) in rig.bones.iter().enumerate() {
            let mut v = Vec::new();
            for c in &b.constraints {
                let what = format!("bone {:?} constraint {:?}", b.name, c.name);
                let t = c.kind.targets();
                let target = match t.first() {
                    Some(t) => find(t, &what)?,
                    None => NONE,
                };
                let pole = match t.get(1) {
                    Some(p) => find(p, &what)?,
                    None => NONE,
                };
                if !c.influence.is_finite() {
                    return Err(Error::invalid(
                        "control rig",
                        format!("{what}: influence is not finite"),
                    ));
                }
                if let Kind::Ik { chain, .. } = &c.kind {
                    match chain {
                        1 => {}
                        2 => {
                            if parent[i].is_none() {
                                return Err(Error::invalid(
                                    "control rig",
                                    format!("{what}: a chain of 2 needs a parent"),
                                ));
                            }
                            if !(b.ik_lock[1] && b.ik_lock[2]) {
                                return Err(Error::invalid(
                                    "control rig",
                                    format!("{what}: the lower bone of a 2-bone chain must lock IK Y and Z (a hinge)"),
                                ));
                            }
                        }
                        _ => {
                            return Err(Error::invalid(
                                "control rig",
                                format!("{what}: chain {chain}: chains of 1 or 2 bones are solved"),
                            ))
                        }
                    }
                }
                let driver = match &c.driver {
                    None => None,
                    Some(d) => {
                        let mut vars = Vec::new();
                        for var in &d.vars {
                            vars.push(match var {
                                DriverVar::SingleProp { bone, prop } => Var::Prop(
                                    *prop_index.get(&(bone.clone(), prop.clone())).ok_or_else(|| {
                                        Error::invalid(
                                            "control rig",
                                            format!("{what}: driver reads a missing property {prop:?} on {bone:?}"),
                                        )
                                    })?,
                                ),
                                DriverVar::RotationDiff { a, b } => {
                                    Var::RotDiff(find(a, &what)?, find(b, &what)?)
                                }
                            });
                        }
                        Some(Drv { vars, expr: d.expr })
                    }
                };
                v.push(Con {
                    kind: c.kind.clone(),
                    target,
                    pole,
                    owner_space: c.owner_space,
                    target_space: c.target_space,
                    influence: c.influence,
                    driver,
                });
            }
            cons.push(v);
        }
        let mut ev = Evaluator {
            names: rig.bones.iter().map(|b| b.name.clone()).collect(),
            index,
            parent,
            rest,
            offset,
            length: rig.bones.iter().map(|b| b.length()).collect(),
            cons,
            order: Vec::new(),
            props,
            deform: (0..n).filter(|&i| rig.bones[i].deform).collect(),
        };
        ev.order = ev.sort()?;
        Ok(ev)
    }

    /// The dependency edges `(from, to)`: `to` is evaluated after `from`.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let n = self.names.len();
        let mut e = Vec::new();
        let mut chain_of = vec![NONE; n]; // chain bone (not the owner) -> IK owner
        for (i, cs) in self.cons.iter().enumerate() {
            for c in cs {
                if let Kind::Ik { chain: 2, .. } = c.kind {
                    if let Some(p) = self.parent[i] {
                        chain_of[p] = i;
                    }
                }
            }
        }
        for i in 0..n {
            let mut deps: Vec<usize> = Vec::new();
            if let Some(p) = self.parent[i] {
                deps.push(p);
            }
            for c in &self.cons[i] {
                for t in [c.target, c.pole] {
                    if t != NONE {
                        deps.push(t);
                    }
                }
                if let Some(d) = &c.driver {
                    for v in &d.vars {
                        if let Var::RotDiff(a, b) = v {
                            deps.extend([*a, *b]);
                        }
                    }
                }
            }
            for d in deps {
                e.push((d, i));
                // Whatever reads a chain bone waits for the IK that moves it.
                let owner = chain_of[d];
                if owner != NONE && owner != i {
                    e.push((owner, i));
                }
            }
        }
        e.sort_unstable();
        e.dedup();
        e
    }

    fn sort(&self) -> Result<Vec<usize>> {
        let n = self.names.len();
        let edges = self.edges();
        let mut out_edges = vec![Vec::new(); n];
        let mut indeg = vec![0usize; n];
        for &(a, b) in &edges {
            out_edges[a].push(b);
            indeg[b] += 1;
        }
        let mut ready: std::collections::BTreeSet<usize> =
            (0..n).filter(|&i| indeg[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(i) = ready.pop_first() {
            order.push(i);
            for &j in &out_edges[i] {
                indeg[j] -= 1;
                if indeg[j] == 0 {
                    ready.insert(j);
                }
            }
        }
        if order.len() == n {
            return Ok(order);
        }
        let cyc = find_cycle(&out_edges, &indeg);
        let names: Vec<&str> = cyc.iter().map(|&i| self.names[i].as_str()).collect();
        Err(Error::invalid(
            "control rig",
            format!("dependency cycle: {}", names.join(" -> ")),
        ))
    }

    /// Number of bones.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the rig has no bones.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Bone names, in the rig's order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of a bone.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Indices of the deform bones.
    pub fn deform(&self) -> &[usize] {
        &self.deform
    }

    /// Rest matrices (world), one per bone.
    pub fn rest(&self) -> &[Mat4] {
        &self.rest
    }

    /// Parent of each bone.
    pub fn parents(&self) -> &[Option<usize>] {
        &self.parent
    }

    /// The rest inputs: identity channels, properties at their defaults.
    pub fn rest_channels(&self) -> Channels {
        Channels {
            local: vec![Mat4::IDENTITY; self.names.len()],
            props: self.props.iter().map(|p| p.1).collect(),
        }
    }

    /// Index of a property.
    pub fn prop_index(&self, name: &str) -> Option<usize> {
        self.props.iter().position(|p| p.0 == name)
    }

    /// The inputs of a [`ControlPose`]: unknown bones or properties and non-finite
    /// values are refused, naming them.
    pub fn channels(&self, pose: &ControlPose) -> Result<Channels> {
        let mut ch = self.rest_channels();
        for (name, t) in &pose.bones {
            let i = self.find(name).ok_or_else(|| {
                Error::invalid(
                    "control pose",
                    format!("no bone {name:?} in the control rig"),
                )
            })?;
            let ok = t.location.is_finite() && t.rotation.is_finite() && t.scale.is_finite();
            if !ok || t.rotation.length_squared() < 1e-12 {
                return Err(Error::invalid(
                    "control pose",
                    format!("bone {name:?} has a non-finite or zero transform"),
                ));
            }
            ch.local[i] = t.matrix();
        }
        for (name, &v) in &pose.props {
            let k = self.prop_index(name).ok_or_else(|| {
                Error::invalid(
                    "control pose",
                    format!("no property {name:?} in the control rig"),
                )
            })?;
            if !v.is_finite() {
                return Err(Error::invalid(
                    "control pose",
                    format!("property {name:?} is {v}: a property value must be a number"),
                ));
            }
            ch.props[k] = v;
        }
        Ok(ch)
    }

    /// Every bone's posed world matrix for these inputs, into `out` (resized to the
    /// bone count).
    pub fn evaluate(&self, ch: &Channels, out: &mut Vec<Mat4>) {
        out.resize(self.names.len(), Mat4::IDENTITY);
        for &i in &self.order {
            let local = ch.local.get(i).copied().unwrap_or(Mat4::IDENTITY);
            let mut m = match self.parent[i] {
                Some(p) => out[p] * self.offset[i] * local,
                None => self.offset[i] * local,
            };
            for c in &self.cons[i] {
                let inf = match &c.driver {
                    Some(d) => self.drive(d, ch, out),
                    None => c.influence,
                }
                .clamp(0.0, 1.0);
                if inf <= 0.0 {
                    continue;
                }
                let old = m;
                let new = if let Kind::Ik {
                    pole_angle, chain, ..
                } = c.kind
                {
                    self.solve_ik(i, m, c.target, c.pole, pole_angle, chain, inf, out)
                } else {
                    // Tracking constraints work in world space whatever the owner space.
                    let os = match c.kind {
                        Kind::DampedTrack { .. } | Kind::StretchTo { .. } => Space::World,
                        _ => c.owner_space,
                    };
                    let own = self.to_space(i, &m, os, out);
                    let r = self.apply(c, &own, out);
                    self.out_of_space(i, &r, os, out)
                };
                m = if inf < 1.0 {
                    interp(&old, &new, inf)
                } else {
                    new
                };
            }
            out[i] = m;
        }
    }

    /// The deform bones' skinning matrices (`posed * rest^-1`), in [`Self::deform`] order.
    pub fn deform_skinning(&self, posed: &[Mat4]) -> Vec<Mat4> {
        self.deform
            .iter()
            .map(|&i| posed[i] * self.rest[i].inverse())
            .collect()
    }

    fn drive(&self, d: &Drv, ch: &Channels, out: &[Mat4]) -> f32 {
        let mut s = 0.0;
        for v in &d.vars {
            s += match *v {
                Var::Prop(k) => ch.props[k],
                Var::RotDiff(a, b) => {
                    let qa = quat_of(&decompose(&out[a]).1);
                    let qb = quat_of(&decompose(&out[b]).1);
                    let q = qa.inverse() * qb;
                    (2.0 * q.w.clamp(-1.0, 1.0).acos()).abs()
                }
            };
        }
        match d.expr {
            DriverExpr::Sum => s,
            DriverExpr::Scale { factor, offset } => s * factor + offset,
            DriverExpr::Clamp { min, max } => s.clamp(min, max),
        }
    }

    /// The frame a bone's local channels are expressed in: parent posed * rest offset.
    fn local_frame(&self, i: usize, out: &[Mat4]) -> Mat4 {
        match self.parent[i] {
            Some(p) => out[p] * self.offset[i],
            None => self.offset[i],
        }
    }

    fn to_space(&self, i: usize, m: &Mat4, s: Space, out: &[Mat4]) -> Mat4 {
        match s {
            Space::World => *m,
            Space::LocalWithParent => self.rest[i].inverse() * *m,
            Space::Local => self.local_frame(i, out).inverse() * *m,
        }
    }

    fn out_of_space(&self, i: usize, m: &Mat4, s: Space, out: &[Mat4]) -> Mat4 {
        match s {
            Space::World => *m,
            Space::LocalWithParent => self.rest[i] * *m,
            Space::Local => self.local_frame(i, out) * *m,
        }
    }

    /// The target's matrix with its location moved `head_tail` along the bone, in `s`.
    fn target(&self, t: usize, head_tail: f32, s: Space, out: &[Mat4]) -> Mat4 {
        let mut m = out[t];
        if head_tail != 0.0 {
            let p = m.transform_point3(Vec3::new(0.0, head_tail * self.length[t], 0.0));
            m.w_axis = p.extend(1.0);
        }
        self.to_space(t, &m, s, out)
    }

    fn apply(&self, c: &Con, own: &Mat4, out: &[Mat4]) -> Mat4 {
        let ts = c.target_space;
        match &c.kind {
            Kind::CopyLocation {
                head_tail, axes, ..
            } => {
                let t = self.target(c.target, *head_tail, ts, out);
                let mut m = *own;
                for a in 0..3 {
                    if axes[a] {
                        m.w_axis[a] = t.w_axis[a];
                    }
                }
                m
            }
            Kind::CopyRotation { axes, mix, .. } => {
                let t = self.target(c.target, 0.0, ts, out);
                let (l, r, s) = decompose(own);
                let tr = decompose(&t).1;
                let new = if axes.iter().all(|&a| a) {
                    tr
                } else {
                    let (et, eo) = (to_euler(&tr), to_euler(&r));
                    let mut e = eo;
                    for a in 0..3 {
                        if axes[a] {
                            e[a] = et[a];
                        }
                    }
                    from_euler(e)
                };
                compose(l, mix_rot(r, new, *mix), s)
            }
            Kind::CopyScale { axes, .. } => {
                let t = self.target(c.target, 0.0, ts, out);
                let (l, r, mut s) = decompose(own);
                let ts = decompose(&t).2;
                for a in 0..3 {
                    if axes[a] {
                        s[a] = ts[a];
                    }
                }
                compose(l, r, s)
            }
            Kind::CopyTransforms { mix, .. } => {
                let t = self.target(c.target, 0.0, ts, out);
                match mix {
                    TransMix::Replace => t,
                    TransMix::BeforeFull => t * *own,
                    TransMix::AfterFull => *own * t,
                }
            }
            Kind::DampedTrack { .. } | Kind::StretchTo { .. } => self.track(c, own, out),
            Kind::LimitRotation { limits } => {
                let (l, r, s) = decompose(own);
                let mut e = to_euler(&r);
                for a in 0..3 {
                    if let Some([lo, hi]) = limits[a] {
                        e[a] = e[a].clamp(lo, hi);
                    }
                }
                compose(l, from_euler(e), s)
            }
            Kind::LimitLocation { limits, .. } => {
                let mut m = *own;
                for a in 0..3 {
                    if let Some(lo) = limits[a][0] {
                        m.w_axis[a] = m.w_axis[a].max(lo);
                    }
                    if let Some(hi) = limits[a][1] {
                        m.w_axis[a] = m.w_axis[a].min(hi);
                    }
                }
                m
            }
            Kind::Transformation { .. } => self.transformation(c, own, out),
            Kind::ChildOf { inverse, .. } => {
                let t = self.target(c.target, 0.0, ts, out);
                t * *inverse * *own
            }
            Kind::Ik { .. } => *own,
        }
    }

    /// Damped Track and Stretch To (world space, the target's point `head_tail` along
    /// it): the owner's Y turned onto the target by the shortest arc; Stretch To also
    /// scales Y by the distance over its rest length (no volume kept) and keeps X in
    /// the plane of the owner's X.
    fn track(&self, c: &Con, own: &Mat4, out: &[Mat4]) -> Mat4 {
        match &c.kind {
            Kind::DampedTrack { head_tail, .. } => {
                let t = self.target(c.target, *head_tail, Space::World, out);
                let w = *own;
                let y = w.y_axis.truncate().normalize_or_zero();
                let to = (t.w_axis.truncate() - w.w_axis.truncate()).normalize_or_zero();
                if y == Vec3::ZERO || to == Vec3::ZERO {
                    return *own;
                }
                let q = arc(y, to);
                let mut r = Mat4::from_quat(q) * w;
                r.w_axis = w.w_axis;
                r
            }
            Kind::StretchTo {
                head_tail,
                rest_length,
                ..
            } => {
                let t = self.target(c.target, *head_tail, Space::World, out);
                let (l, r, s) = decompose(own);
                let d = t.w_axis.truncate() - l;
                let dist = d.length();
                if dist <= 0.0 || *rest_length <= 0.0 {
                    return *own;
                }
                let y = d / dist;
                let z = r.x_axis.cross(y).normalize_or_zero();
                let x = y.cross(z);
                let scale = Vec3::new(s.x, s.y * dist / rest_length, s.z);
                compose(l, Mat3::from_cols(x, y, z), scale)
            }
            _ => *own,
        }
    }

    /// Transformation: a channel of the target (location, XYZ Euler rotation or scale,
    /// each output axis from the input axis `map` names) mapped linearly from
    /// `from_min..from_max` (clamped unless it extrapolates) to `to_min..to_max`, added
    /// to the owner's location, mixed into its rotation or replacing its scale.
    fn transformation(&self, c: &Con, own: &Mat4, out: &[Mat4]) -> Mat4 {
        let Kind::Transformation {
            from,
            to,
            map,
            from_min,
            from_max,
            to_min,
            to_max,
            extrapolate,
            mix,
            ..
        } = &c.kind
        else {
            return *own;
        };
        let t = self.target(c.target, 0.0, c.target_space, out);
        let (tl, tr, tsc) = decompose(&t);
        let src = match from {
            Channel::Location => tl,
            Channel::Rotation => to_euler(&tr),
            Channel::Scale => tsc,
        };
        let mut val = Vec3::ZERO;
        for i in 0..3 {
            let k = map[i].min(2);
            let (a, b) = (from_min[k], from_max[k]);
            let mut v = src[k];
            if !extrapolate {
                v = v.clamp(a.min(b), a.max(b));
            }
            let f = if (b - a).abs() > 1e-12 {
                (v - a) / (b - a)
            } else {
                0.0
            };
            val[i] = to_min[i] + f * (to_max[i] - to_min[i]);
        }
        let (l, r, s) = decompose(own);
        match to {
            Channel::Location => compose(l + val, r, s),
            Channel::Rotation => compose(l, mix_rot(r, from_euler(val), *mix), s),
            Channel::Scale => compose(l, r, val),
        }
    }

    /// Solves an IK constraint on bone `o` (see the module docs); writes the chain's
    /// upper bone into `out` and returns the owner's matrix.
    #[allow(clippy::too_many_arguments)]
    fn solve_ik(
        &self,
        o: usize,
        m: Mat4,
        target: usize,
        pole: usize,
        pole_angle: f32,
        chain: usize,
        inf: f32,
        out: &mut [Mat4],
    ) -> Mat4 {
        let g = out[target].w_axis.truncate();
        if chain == 1 {
            let h = m.w_axis.truncate();
            let y = m.y_axis.truncate().normalize_or_zero();
            let to = (g - h).normalize_or_zero();
            if y == Vec3::ZERO || to == Vec3::ZERO {
                return m;
            }
            return rotate_about(&m, arc(y, to), h);
        }
        let u = self.parent[o].expect("checked in new");
        let mu = out[u];
        let pu = mu.w_axis.truncate();
        let pk = m.w_axis.truncate();
        let pe = m.transform_point3(Vec3::new(0.0, self.length[o], 0.0));
        let xk = m.x_axis.truncate().normalize_or_zero();
        let (uv, l) = (pk - pu, pe - pk);
        let lpar = xk * xk.dot(l);
        let lperp = l - lpar;
        let a = uv.dot(lperp);
        let b = uv.dot(xk.cross(lperp));
        let cc = uv.dot(lpar);
        let dist = (g - pu).length();
        let k = 0.5 * (dist * dist - uv.length_squared() - l.length_squared()) - cc;
        let r = a.hypot(b);
        let theta = if r > 1e-12 {
            let phi = b.atan2(a);
            let alpha = (k / r).clamp(-1.0, 1.0).acos();
            let mut rel = -phi;
            while rel > std::f32::consts::PI {
                rel -= std::f32::consts::TAU;
            }
            while rel <= -std::f32::consts::PI {
                rel += std::f32::consts::TAU;
            }
            if rel >= 0.0 {
                phi + alpha
            } else {
                phi - alpha
            }
        } else {
            0.0
        };
        let bend = Quat::from_axis_angle(xk, theta);
        let mo = rotate_about(&m, bend, pk);
        let e = (pk - pu) + bend * l;
        let mut q = Quat::IDENTITY;
        let dir = (g - pu).normalize_or_zero();
        if dir != Vec3::ZERO && e.length_squared() > 0.0 {
            q = arc(e.normalize(), dir);
        }
        if pole != NONE && dir != Vec3::ZERO {
            let x = q * mu.x_axis.truncate().normalize_or_zero();
            let z = q * mu.z_axis.truncate().normalize_or_zero();
            let up = x * pole_angle.cos() + z * pole_angle.sin();
            let up_p = up - dir * dir.dot(up);
            let pv = out[pole].w_axis.truncate() - pu;
            let pole_p = pv - dir * dir.dot(pv);
            if up_p.length_squared() > 1e-14 && pole_p.length_squared() > 1e-14 {
                let psi = dir.dot(up_p.cross(pole_p)).atan2(up_p.dot(pole_p));
                q = Quat::from_axis_angle(dir, psi) * q;
            }
        }
        let new_u = rotate_about(&mu, q, pu);
        out[u] = if inf < 1.0 {
            interp(&mu, &new_u, inf)
        } else {
            new_u
        };
        rotate_about(&mo, q, pu)
    }
}

fn mix_rot(old: Mat3, new: Mat3, mix: RotMix) -> Mat3 {
    match mix {
        RotMix::Replace => new,
        RotMix::Add => from_euler(to_euler(&old) + to_euler(&new)),
        RotMix::Before => new * old,
        RotMix::After => old * new,
    }
}

/// A cycle among the nodes Kahn's sort left (indegree > 0), in evaluation order with
/// the first bone repeated at the end. Each leftover node has a leftover predecessor,
/// so walking predecessors must meet itself.
fn find_cycle(out_edges: &[Vec<usize>], indeg: &[usize]) -> Vec<usize> {
    let n = indeg.len();
    let left: Vec<bool> = (0..n).map(|i| indeg[i] > 0).collect();
    let mut pred = vec![NONE; n];
    for (a, js) in out_edges.iter().enumerate() {
        for &b in js {
            if left[a] && left[b] && pred[b] == NONE {
                pred[b] = a;
            }
        }
    }
    let Some(start) = (0..n).find(|&i| left[i]) else {
        return Vec::new();
    };
    let mut pos = vec![NONE; n];
    let mut path = Vec::new();
    let mut cur = start;
    while cur != NONE && pos[cur] == NONE {
        pos[cur] = path.len();
        path.push(cur);
        cur = pred[cur];
    }
    if cur == NONE {
        return path;
    }
    let mut cyc: Vec<usize> = path[pos[cur]..].to_vec();
    cyc.reverse();
    cyc.push(cyc[0]);
    cyc
}

impl ControlRig {
    /// Reads a control rig from JSON text, checking that it evaluates (names resolve,
    /// no dependency cycle): `what` names the source in errors.
    pub fn from_json(text: &str, what: &str) -> crate::Result<ControlRig> {
        let rig: ControlRig = serde_json::from_str(text)
            .map_err(|e| crate::Error::invalid(what, format!("not a control rig: {e}")))?;
        Evaluator::new(&rig).map_err(|e| crate::Error::invalid(what, e.to_string()))?;
        Ok(rig)
    }
}
