//! The generator: a control rig for a fitted humanoid skeleton (the `game` template's
//! bones, found by role, so any naming works).
//!
//! What it builds, on top of the skeleton's own bones (kept as they are: DEF, each with
//! one Copy Transforms from the bone that drives it, so only DEF bones deform and the
//! exported hierarchy is the skeleton's):
//!
//! * `root` on the floor under the hips, carrying everything; `settings` above the head
//!   with the switches; `torso` (moves hips and spine together) and `hips`.
//! * Arms and legs on a shared MCH chain (`MCH-upperarm.L`...) that follows an FK chain
//!   (`upperarm_fk.L`...) and an IK chain through two Copy Transforms named `FK` and
//!   `IK`, the IK one's influence driven by a 0/1 switch on the settings bone
//!   (`arm_ik.L` default 0 = FK, `leg_ik.L` default 1 = IK).
//! * IK: chain 2 on MCH bones, the lower one a hinge (IK locked on Y and Z), a pole
//!   control in the bend plane, and the pole angle solved numerically so the IK chain
//!   lies on the rest chain (scan in 2 deg, then 0.25, 0.02, then golden section).
//! * The foot: `foot_ik.L` (ankle control) over six pivots: outer, inner, heel, toe
//!   (each a Copy Rotation of `foot_roll.L` plus a one-sided Limit Rotation), the ball
//!   (`foot_ball.L`, a manual control) and the IK target; the toe control hangs on the
//!   toe pivot, so it stays flat when the ball lifts the heel.
//! * Limb isolation: the FK chain hangs on a parent MCH bone under `root` that copies
//!   the location of a socket under the clavicle (or hips) always and its rotation by
//!   `arm_follow.L` / `leg_follow.L` (1 follows the chest or hips, 0 keeps the root's
//!   orientation).
//! * Fingers: one `<finger>_curl.L` control per finger; its X rotation is added to
//!   each phalanx (Transformation, After Original), the phalanges staying keyable.
//! * Twist bones (found by [`crate::humanoid::twist_bones`]), as
//!   [`crate::deform::twist`]'s rules: on an upper segment a twist bone at fraction `t`
//!   of the segment keeps `t` of the segment's twist (a Copy Rotation of a twist-free
//!   helper, influence `1 - t`); on a lower segment it takes `t` of the hand's or foot's
//!   twist about the segment's axis (a Copy Rotation, influence `t`, of a helper with
//!   the segment's orientation parented to the hand or foot, its swing stripped), so a
//!   hand bone that does not continue the forearm still twists it fully.
//! * Every other deform bone (spine, neck, head, clavicles, fingers, chain bones) gets
//!   an FK control `<name>_fk` in the skeleton's hierarchy.
//!
//! Left and right are built by the same code; the right side is the left mirrored
//! (names `.L` -> `.R`, generated bones' X axes mirrored as the skeleton mirrors them,
//! so limits on X and Y change sign and limits on Z stay), its geometry read from the
//! right-side bones. A missing limb bone is named in [`ControlRig::missing`] and that
//! limb gets plain FK controls instead.

use std::collections::HashSet;

use glam::Vec3;

use super::eval::Evaluator;
use super::math::matrix_error;
use super::model::*;
use crate::error::{Error, Result};
use crate::humanoid::{twist_bones, Roles};
use crate::model::{Side, Skeleton};

const DEG: f32 = std::f32::consts::PI / 180.0;

/// The settings bone's name.
pub const SETTINGS: &str = "settings";
/// The root control's name.
pub const ROOT: &str = "root";

/// Builds the control rig of `skel` (see the module docs). `height` is the body height
/// H in metres (0: the skeleton's own height).
pub fn build(skel: &Skeleton, height: f32) -> Result<ControlRig> {
    skel.validate()?;
    if skel.is_empty() {
        return Err(Error::invalid(
            "skeleton",
            "no bones: nothing to build a control rig on",
        ));
    }
    let h = if height > 0.0 {
        height
    } else {
        skel.height().max(1e-3)
    };
    let roles = Roles::of(skel, None);
    let mut b = Builder::new(skel, h, roles);
    b.plan();
    b.def_bones();
    b.trunk();
    for side in [Side::Left, Side::Right] {
        b.arm(side);
        b.leg(side);
    }
    b.generic();
    b.twists();
    let mut rig = ControlRig {
        height: h,
        settings: SETTINGS.into(),
        bones: b.bones,
        properties: b.props,
        missing: b.missing,
    };
    solve_pole_angles(&mut rig)?;
    Evaluator::new(&rig)?;
    Ok(rig)
}

/// The limb bones of one side, when the limb is complete.
#[derive(Clone, Copy)]
struct Limb {
    upper: usize,
    lower: usize,
    end: usize,
    toe: Option<usize>,
}

/// What [`Builder::foot`] built that the rest of the leg hangs on.
struct Foot {
    /// The IK chain's target (`MCH-leg_ik_target.L`).
    target: String,
    /// The knee's pole control.
    pole: String,
    /// The toe's IK control (`ball_ik.L`, when the leg has a toe bone).
    ball_ik: String,
}

/// Where a foot's controls go, from its bones (glTF space, metres).
struct FootFrame {
    /// Ankle (the foot bone's head), ball (its tail) and toe tip.
    ankle: Vec3,
    ball: Vec3,
    tip: Vec3,
    /// Forward along the floor, and the foot's length along it (at least 0.05 H).
    fwd: Vec3,
    flen: f32,
    /// Away from the body's middle, along X.
    outward: Vec3,
    /// A control's length: 0.04 H up.
    up: Vec3,
    /// The generated bones' X axis on this side.
    x: Vec3,
    /// The floor's height.
    floor: f32,
}

impl FootFrame {
    fn of(sk: &Skeleton, l: Limb, side: Side, h: f32, floor: f32) -> FootFrame {
        let ankle = sk.bones[l.end].head;
        let ball = sk.bones[l.end].tail;
        let tip = l.toe.map_or(ball, |t| sk.bones[t].tail);
        let fwd = Vec3::new(tip.x - ankle.x, 0.0, tip.z - ankle.z);
        let flen = fwd.length().max(0.05 * h);
        let sign = if side == Side::Right { -1.0 } else { 1.0 };
        FootFrame {
            ankle,
            ball,
            tip,
            fwd: fwd.normalize_or(Vec3::Z),
            flen,
            outward: Vec3::new(sign, 0.0, 0.0),
            up: Vec3::new(0.0, 0.04 * h, 0.0),
            x: side_x(side),
            floor,
        }
    }

    /// `p` dropped to the floor.
    fn on_floor(&self, p: Vec3) -> Vec3 {
        Vec3::new(p.x, self.floor, p.z)
    }
}

struct Builder<'a> {
    skel: &'a Skeleton,
    h: f32,
    roles: Roles,
    twist: HashSet<usize>,
    /// The bone each skeleton bone copies (None: a twist bone, constrained instead).
    src: Vec<Option<String>>,
    arms: [Option<Limb>; 2],
    legs: [Option<Limb>; 2],
    bones: Vec<ControlBone>,
    props: Vec<Property>,
    missing: Vec<String>,
    /// Curl constraints waiting for the phalanges' FK controls: (control, constraint).
    pending_curl: Vec<(String, Constraint)>,
}

fn sfx(side: Side) -> &'static str {
    if side == Side::Right {
        ".R"
    } else {
        ".L"
    }
}

fn k(side: Side) -> usize {
    usize::from(side == Side::Right)
}

/// The X axis of a generated bone on `side` (world +X on the left, mirrored on the
/// right as the skeleton mirrors its own).
fn side_x(side: Side) -> Vec3 {
    if side == Side::Right {
        Vec3::NEG_X
    } else {
        Vec3::X
    }
}

/// A rotation limit for the left side, mirrored for the right (X and Y change sign).
fn limit(side: Side, axis: usize, lo: f32, hi: f32) -> Option<[f32; 2]> {
    if side == Side::Right && axis < 2 {
        Some([-hi, -lo])
    } else {
        Some([lo, hi])
    }
}

impl<'a> Builder<'a> {
    fn new(skel: &'a Skeleton, h: f32, roles: Roles) -> Self {
        let twist = twist_bones(skel, &roles).into_iter().collect();
        Builder {
            skel,
            h,
            roles,
            twist,
            src: vec![None; skel.len()],
            arms: [None; 2],
            legs: [None; 2],
            bones: Vec::new(),
            props: Vec::new(),
            missing: Vec::new(),
            pending_curl: Vec::new(),
        }
    }

    fn name(&self, i: usize) -> &str {
        &self.skel.bones[i].name
    }

    fn add(
        &mut self,
        name: &str,
        role: BoneRole,
        parent: Option<&str>,
        head: Vec3,
        tail: Vec3,
        x: Vec3,
    ) -> usize {
        self.bones.push(ControlBone {
            name: name.into(),
            role,
            parent: parent.map(str::to_string),
            head,
            tail,
            x_axis: x,
            deform: false,
            constraints: Vec::new(),
            ik_lock: [false; 3],
            widget: match role {
                BoneRole::Ctrl => Widget::Circle,
                _ => Widget::None,
            },
        });
        self.bones.len() - 1
    }

    /// A bone with skeleton bone `i`'s rest frame.
    fn copy(&mut self, name: &str, role: BoneRole, parent: Option<&str>, i: usize) -> usize {
        let b = &self.skel.bones[i];
        let (hd, tl, x) = (b.head, b.tail, b.frame().x_axis);
        self.add(name, role, parent, hd, tl, x)
    }

    fn con(&mut self, bone: usize, c: Constraint) {
        self.bones[bone].constraints.push(c);
    }

    fn prop(&mut self, name: &str, default: f32, switch: bool, description: &str) {
        self.props.push(Property {
            bone: SETTINGS.into(),
            name: name.into(),
            default,
            min: 0.0,
            max: 1.0,
            switch,
            description: description.into(),
        });
    }

    fn limb(
        &self,
        upper: Option<usize>,
        lower: Option<usize>,
        end: Option<usize>,
        toe: Option<usize>,
    ) -> Option<Limb> {
        Some(Limb {
            upper: upper?,
            lower: lower?,
            end: end?,
            toe,
        })
    }

    /// Decides which bone drives each skeleton bone.
    fn plan(&mut self) {
        let r = &self.roles;
        for side in [Side::Left, Side::Right] {
            let j = k(side);
            let s = sfx(side);
            self.arms[j] = self.limb(r.upper_arm[j], r.lower_arm[j], r.hand[j], None);
            self.legs[j] = self.limb(r.upper_leg[j], r.lower_leg[j], r.foot[j], r.toe[j]);
            if self.arms[j].is_none() {
                self.missing.push(format!(
                    "arm{s}: FK/IK needs an upper arm, a forearm and a hand (plain FK controls instead)"
                ));
            }
            if self.legs[j].is_none() {
                self.missing.push(format!(
                    "leg{s}: FK/IK and the foot roll need a thigh, a shin and a foot (plain FK controls instead)"
                ));
            }
        }
        if self.roles.hips.is_none() {
            self.missing
                .push("torso: no hips bone (plain FK controls instead)".into());
        }
        for side in [Side::Left, Side::Right] {
            let s = sfx(side);
            if let Some(a) = self.arms[k(side)] {
                self.src[a.upper] = Some(format!("MCH-upperarm{s}"));
                self.src[a.lower] = Some(format!("MCH-lowerarm{s}"));
                self.src[a.end] = Some(format!("MCH-hand{s}"));
            }
            if let Some(l) = self.legs[k(side)] {
                self.src[l.upper] = Some(format!("MCH-thigh{s}"));
                self.src[l.lower] = Some(format!("MCH-calf{s}"));
                self.src[l.end] = Some(format!("MCH-foot{s}"));
                if let Some(t) = l.toe {
                    self.src[t] = Some(format!("MCH-ball{s}"));
                }
            }
        }
        if let Some(hp) = self.roles.hips {
            self.src[hp] = Some("hips".into());
            let mut cur = self.skel.bones[hp].parent;
            while let Some(c) = cur {
                self.src[c] = Some(format!("MCH-{}", self.name(c)));
                cur = self.skel.bones[c].parent;
            }
        }
        for i in 0..self.skel.len() {
            if self.src[i].is_none() && !self.twist.contains(&i) {
                self.src[i] = Some(format!("{}_fk", self.name(i)));
            }
        }
    }

    /// The driving bone of skeleton bone `i`'s nearest ancestor that has one, else root.
    fn src_parent(&self, i: usize) -> String {
        let mut cur = self.skel.bones[i].parent;
        while let Some(c) = cur {
            if let Some(s) = &self.src[c] {
                return s.clone();
            }
            cur = self.skel.bones[c].parent;
        }
        ROOT.into()
    }

    fn def_bones(&mut self) {
        for i in 0..self.skel.len() {
            let b = &self.skel.bones[i];
            let parent = b.parent.map(|p| self.skel.bones[p].name.clone());
            let role = if b.deform {
                BoneRole::Def
            } else {
                BoneRole::Org
            };
            let (name, deform) = (b.name.clone(), b.deform);
            let bi = self.copy(&name, role, parent.as_deref(), i);
            self.bones[bi].deform = deform;
            if let Some(s) = self.src[i].clone() {
                self.con(
                    bi,
                    Constraint::new(
                        "copy",
                        Kind::CopyTransforms {
                            target: s,
                            mix: TransMix::Replace,
                        },
                    ),
                );
            }
        }
    }

    fn floor(&self) -> f32 {
        self.skel
            .bones
            .iter()
            .flat_map(|b| [b.head.y, b.tail.y])
            .fold(f32::INFINITY, f32::min)
    }

    fn trunk(&mut self) {
        let h = self.h;
        let floor = self.floor();
        let top = self
            .skel
            .bones
            .iter()
            .flat_map(|b| [b.head.y, b.tail.y])
            .fold(f32::NEG_INFINITY, f32::max);
        let centre = self
            .roles
            .hips
            .map_or(Vec3::ZERO, |p| self.skel.bones[p].head);
        let base = Vec3::new(centre.x, floor, centre.z);
        let r = self.add(
            ROOT,
            BoneRole::Ctrl,
            None,
            base,
            base + Vec3::new(0.0, 0.0, -0.25 * h),
            Vec3::X,
        );
        self.bones[r].widget = Widget::Circle;
        let sh = Vec3::new(centre.x, top + 0.08 * h, centre.z);
        let s = self.add(
            SETTINGS,
            BoneRole::Ctrl,
            Some(ROOT),
            sh,
            sh + Vec3::new(0.0, 0.05 * h, 0.0),
            Vec3::X,
        );
        self.bones[s].widget = Widget::Box;
        let Some(hp) = self.roles.hips else { return };
        let ph = self.skel.bones[hp].head;
        let t = self.add(
            "torso",
            BoneRole::Ctrl,
            Some(ROOT),
            ph,
            ph + Vec3::new(0.0, 0.0, -0.15 * h),
            Vec3::X,
        );
        self.bones[t].widget = Widget::Box;
        self.copy("hips", BoneRole::Ctrl, Some("torso"), hp);
        // The skeleton's bones above the hips ride on the root.
        let mut cur = self.skel.bones[hp].parent;
        let mut above = Vec::new();
        while let Some(c) = cur {
            above.push(c);
            cur = self.skel.bones[c].parent;
        }
        for &c in above.iter().rev() {
            let p = self.skel.bones[c]
                .parent
                .map_or(ROOT.to_string(), |p| format!("MCH-{}", self.name(p)));
            let name = format!("MCH-{}", self.name(c));
            self.copy(&name, BoneRole::Mch, Some(&p), c);
        }
    }

    /// A socket under the limb's parent and a parent bone under root that follows it:
    /// location always, rotation by the `follow` property. Returns the parent's name.
    fn isolation(&mut self, stem: &str, s: &str, i: usize, prop: &str, what: &str) -> String {
        let socket_parent = self.src_parent(i);
        let socket = format!("MCH-{stem}_socket{s}");
        let parent = format!("MCH-{stem}_parent{s}");
        self.copy(&socket, BoneRole::Mch, Some(&socket_parent), i);
        let p = self.copy(&parent, BoneRole::Mch, Some(ROOT), i);
        self.con(
            p,
            Constraint::new(
                "socket",
                Kind::CopyLocation {
                    target: socket.clone(),
                    head_tail: 0.0,
                    axes: [true; 3],
                },
            ),
        );
        self.con(
            p,
            Constraint::new(
                "follow",
                Kind::CopyRotation {
                    target: socket,
                    axes: [true; 3],
                    mix: RotMix::Replace,
                },
            )
            .driven(Driver::prop(SETTINGS, prop)),
        );
        self.prop(prop, 1.0, false, what);
        parent
    }

    /// The MCH chain with its FK and IK Copy Transforms.
    fn layered(&mut self, mch: &str, fk: &str, ik: &str, i: usize, parent: &str, prop: &str) {
        let m = self.copy(mch, BoneRole::Mch, Some(parent), i);
        self.con(
            m,
            Constraint::new(
                "FK",
                Kind::CopyTransforms {
                    target: fk.into(),
                    mix: TransMix::Replace,
                },
            ),
        );
        self.con(
            m,
            Constraint::new(
                "IK",
                Kind::CopyTransforms {
                    target: ik.into(),
                    mix: TransMix::Replace,
                },
            )
            .driven(Driver::prop(SETTINGS, prop)),
        );
    }

    /// The pole's position: in the bend plane, on the side the middle joint bends to
    /// (`fallback` when the chain is straight), half the chain's span away.
    fn pole_at(&self, l: Limb, fallback: Vec3) -> Vec3 {
        let b = &self.skel.bones;
        let (a, m, c) = (b[l.upper].head, b[l.lower].head, b[l.lower].tail);
        let d = (c - a).normalize_or_zero();
        let off = (m - a) - d * (m - a).dot(d);
        let n = if off.length() > 1e-3 * (c - a).length() {
            off.normalize()
        } else {
            (fallback - d * fallback.dot(d)).normalize_or_zero()
        };
        m + n * 0.5 * (c - a).length()
    }

    fn ik_chain(&mut self, stems: [&str; 2], s: &str, l: Limb, target: &str, pole: &str) {
        let up = format!("MCH-{}_ik{s}", stems[0]);
        let lo = format!("MCH-{}_ik{s}", stems[1]);
        let sp = self.src_parent(l.upper);
        self.copy(&up, BoneRole::Mch, Some(&sp), l.upper);
        let li = self.copy(&lo, BoneRole::Mch, Some(&up), l.lower);
        self.bones[li].ik_lock = [false, true, true];
        self.con(
            li,
            Constraint::new(
                "IK",
                Kind::Ik {
                    target: target.into(),
                    pole: Some(pole.into()),
                    pole_angle: 0.0,
                    chain: 2,
                },
            ),
        );
    }

    fn arm(&mut self, side: Side) {
        let Some(l) = self.arms[k(side)] else { return };
        let s = sfx(side);
        let h = self.h;
        let follow = format!("arm_follow{s}");
        let parent = self.isolation(
            "upperarm",
            s,
            l.upper,
            &follow,
            "1: the FK arm follows the chest; 0: it keeps the root's orientation",
        );
        let ik_prop = format!("arm_ik{s}");
        self.prop(&ik_prop, 0.0, true, "0: FK arm, 1: IK arm");
        let (ufk, lfk, hfk) = (
            format!("upperarm_fk{s}"),
            format!("lowerarm_fk{s}"),
            format!("hand_fk{s}"),
        );
        self.copy(&ufk, BoneRole::Ctrl, Some(&parent), l.upper);
        self.copy(&lfk, BoneRole::Ctrl, Some(&ufk), l.lower);
        self.copy(&hfk, BoneRole::Ctrl, Some(&lfk), l.end);
        let hik = format!("hand_ik{s}");
        let hi = self.copy(&hik, BoneRole::Ctrl, Some(ROOT), l.end);
        self.bones[hi].widget = Widget::Box;
        let pole = format!("arm_pole{s}");
        let pp = self.pole_at(l, Vec3::NEG_Z);
        let pi = self.add(
            &pole,
            BoneRole::Ctrl,
            Some(ROOT),
            pp,
            pp + Vec3::new(0.0, 0.05 * h, 0.0),
            side_x(side),
        );
        self.bones[pi].widget = Widget::Sphere;
        self.ik_chain(["upperarm", "lowerarm"], s, l, &hik, &pole);
        let sp = self.src_parent(l.upper);
        self.layered(
            &format!("MCH-upperarm{s}"),
            &ufk,
            &format!("MCH-upperarm_ik{s}"),
            l.upper,
            &sp,
            &ik_prop,
        );
        self.layered(
            &format!("MCH-lowerarm{s}"),
            &lfk,
            &format!("MCH-lowerarm_ik{s}"),
            l.lower,
            &format!("MCH-upperarm{s}"),
            &ik_prop,
        );
        self.layered(
            &format!("MCH-hand{s}"),
            &hfk,
            &hik,
            l.end,
            &format!("MCH-lowerarm{s}"),
            &ik_prop,
        );
        self.fingers(side, l.end);
    }

    fn leg(&mut self, side: Side) {
        let Some(l) = self.legs[k(side)] else { return };
        let s = sfx(side);
        let follow = format!("leg_follow{s}");
        let parent = self.isolation(
            "thigh",
            s,
            l.upper,
            &follow,
            "1: the FK leg follows the hips; 0: it keeps the root's orientation",
        );
        let ik_prop = format!("leg_ik{s}");
        self.prop(&ik_prop, 1.0, true, "0: FK leg, 1: IK leg");
        let (tfk, cfk, ffk) = (
            format!("thigh_fk{s}"),
            format!("calf_fk{s}"),
            format!("foot_fk{s}"),
        );
        self.copy(&tfk, BoneRole::Ctrl, Some(&parent), l.upper);
        self.copy(&cfk, BoneRole::Ctrl, Some(&tfk), l.lower);
        self.copy(&ffk, BoneRole::Ctrl, Some(&cfk), l.end);
        let bfk = format!("ball_fk{s}");
        if let Some(t) = l.toe {
            self.copy(&bfk, BoneRole::Ctrl, Some(&ffk), t);
        }
        let foot = self.foot(side, l);
        self.ik_chain(["thigh", "calf"], s, l, &foot.target, &foot.pole);
        let sp = self.src_parent(l.upper);
        let mch = |stem: &str| format!("MCH-{stem}{s}");
        let mut layers = vec![
            (mch("thigh"), tfk, mch("thigh_ik"), l.upper, sp),
            (mch("calf"), cfk, mch("calf_ik"), l.lower, mch("thigh")),
            (mch("foot"), ffk, foot.target.clone(), l.end, mch("calf")),
        ];
        if let Some(t) = l.toe {
            layers.push((mch("ball"), bfk, foot.ball_ik, t, mch("foot")));
        }
        for (m, fk, ik, i, parent) in layers {
            self.layered(&m, &fk, &ik, i, &parent, &ik_prop);
        }
    }

    /// The IK foot of leg `l`: the ankle control `foot_ik`, the roll control, the six
    /// pivots ([`Self::foot_pivots`]), the ball control, the IK target, the toe's IK
    /// control and the knee's pole.
    fn foot(&mut self, side: Side, l: Limb) -> Foot {
        let s = sfx(side);
        let f = FootFrame::of(self.skel, l, side, self.h, self.floor());
        let fik = format!("foot_ik{s}");
        let fi = self.add(
            &fik,
            BoneRole::Ctrl,
            Some(ROOT),
            f.ankle,
            f.ankle + f.fwd * f.flen,
            f.x,
        );
        self.bones[fi].widget = Widget::Box;
        let heel = f.on_floor(f.ankle) - f.fwd * 0.25 * f.flen;
        let roll = format!("foot_roll{s}");
        let rp = heel - f.fwd * 0.2 * f.flen;
        self.add(&roll, BoneRole::Ctrl, Some(&fik), rp, rp + f.up, f.x);
        let toe_pivot = self.foot_pivots(side, &f, heel, &fik, &roll);
        let ballc = format!("foot_ball{s}");
        let bi = self.add(
            &ballc,
            BoneRole::Ctrl,
            Some(&toe_pivot),
            f.ball,
            f.ball + f.up,
            f.x,
        );
        self.bones[bi].widget = Widget::Sphere;
        let target = format!("MCH-leg_ik_target{s}");
        self.copy(&target, BoneRole::Mch, Some(&ballc), l.end);
        let ball_ik = format!("ball_ik{s}");
        if let Some(t) = l.toe {
            self.copy(&ball_ik, BoneRole::Ctrl, Some(&toe_pivot), t);
        }
        let pole = format!("leg_pole{s}");
        let pp = self.pole_at(l, Vec3::Z);
        let pi = self.add(&pole, BoneRole::Ctrl, Some(&fik), pp, pp + f.up, f.x);
        self.bones[pi].widget = Widget::Sphere;
        Foot {
            target,
            pole,
            ball_ik,
        }
    }

    /// The roll pivots under `fik`, outer > inner > heel > toe, each copying the roll
    /// control's local rotation and limited to its side. Returns the toe pivot's name.
    fn foot_pivots(
        &mut self,
        side: Side,
        f: &FootFrame,
        heel: Vec3,
        fik: &str,
        roll: &str,
    ) -> String {
        let s = sfx(side);
        let pivots = [
            ("outer", f.on_floor(f.ball) + f.outward * 0.2 * f.flen),
            ("inner", f.on_floor(f.ball) - f.outward * 0.2 * f.flen),
            ("heel", heel),
            ("toe", f.on_floor(f.tip)),
        ];
        let mut parent = fik.to_string();
        for (stem, at) in pivots {
            let name = format!("MCH-foot_{stem}{s}");
            let pi = self.add(&name, BoneRole::Mch, Some(&parent), at, at + f.up, f.x);
            self.con(
                pi,
                Constraint::new(
                    "roll",
                    Kind::CopyRotation {
                        target: roll.to_string(),
                        axes: [true; 3],
                        mix: RotMix::Replace,
                    },
                )
                .spaces(Space::Local, Space::Local),
            );
            let lim = match stem {
                "outer" => [
                    limit(side, 0, 0.0, 0.0),
                    limit(side, 1, 0.0, 0.0),
                    limit(side, 2, -90.0 * DEG, 0.0),
                ],
                "inner" => [
                    limit(side, 0, 0.0, 0.0),
                    limit(side, 1, 0.0, 0.0),
                    limit(side, 2, 0.0, 90.0 * DEG),
                ],
                "heel" => [
                    limit(side, 0, -90.0 * DEG, 0.0),
                    limit(side, 1, 0.0, 0.0),
                    limit(side, 2, 0.0, 0.0),
                ],
                _ => [
                    limit(side, 0, 0.0, 90.0 * DEG),
                    limit(side, 1, 0.0, 0.0),
                    limit(side, 2, 0.0, 0.0),
                ],
            };
            self.con(
                pi,
                Constraint::new("limit", Kind::LimitRotation { limits: lim })
                    .spaces(Space::Local, Space::World),
            );
            parent = name;
        }
        parent
    }

    /// One curl control per finger (a chain starting at a child of the hand).
    fn fingers(&mut self, side: Side, hand: usize) {
        let s = sfx(side);
        let children = self.skel.children();
        let hand_src = self.src[hand].clone().unwrap_or_else(|| ROOT.into());
        for &f in &children[hand] {
            if self.twist.contains(&f) {
                continue;
            }
            let mut chain = vec![f];
            while let [only] = children[*chain.last().unwrap()].as_slice() {
                chain.push(*only);
            }
            let stem = finger_stem(self.name(f));
            let curl = format!("{stem}_curl{s}");
            let (head, tail) = (
                self.skel.bones[f].head,
                self.skel.bones[*chain.last().unwrap()].tail,
            );
            let x = self.skel.bones[f].frame().x_axis;
            self.add(&curl, BoneRole::Ctrl, Some(&hand_src), head, tail, x);
            for &p in &chain {
                let Some(src) = self.src[p].clone() else {
                    continue;
                };
                let half = 90.0 * DEG;
                let c = Constraint::new(
                    "curl",
                    Kind::Transformation {
                        target: curl.clone(),
                        from: Channel::Rotation,
                        to: Channel::Rotation,
                        map: [0, 1, 2],
                        from_min: [-half, -half, -half],
                        from_max: [half, half, half],
                        to_min: [-half, 0.0, 0.0],
                        to_max: [half, 0.0, 0.0],
                        extrapolate: false,
                        mix: RotMix::After,
                    },
                )
                .spaces(Space::Local, Space::Local);
                self.pending_curl.push((src, c));
            }
        }
    }

    /// FK controls for every bone nothing else drives, in the skeleton's hierarchy
    /// (spine bones on the torso rather than the hips).
    fn generic(&mut self) {
        let pending = std::mem::take(&mut self.pending_curl);
        for i in 0..self.skel.len() {
            let Some(src) = self.src[i].clone() else {
                continue;
            };
            if self.bones.iter().any(|b| b.name == src) {
                continue;
            }
            let on_hips = self.roles.hips.is_some() && self.skel.bones[i].parent == self.roles.hips;
            let leg = self.roles.limb.get(i).copied().flatten().is_some();
            let parent = if on_hips && !leg {
                "torso".to_string()
            } else {
                self.src_parent(i)
            };
            self.copy(&src, BoneRole::Ctrl, Some(&parent), i);
        }
        for (src, c) in pending {
            if let Some(bi) = self.bones.iter().position(|b| b.name == src) {
                self.con(bi, c);
            }
        }
    }

    /// Twist-follow constraints on the skeleton's twist bones.
    fn twists(&mut self) {
        let twist: Vec<usize> = {
            let mut v: Vec<usize> = self.twist.iter().copied().collect();
            v.sort_unstable();
            v
        };
        for tb in twist {
            let Some(seg) = self.skel.bones[tb].parent else {
                continue;
            };
            let found = [Side::Left, Side::Right].into_iter().find_map(|side| {
                let j = k(side);
                let s = sfx(side);
                let arm = self.arms[j].map(|l| (l, "upperarm", "lowerarm"));
                let leg = self.legs[j].map(|l| (l, "thigh", "calf"));
                [arm, leg].into_iter().flatten().find_map(|(l, up, lo)| {
                    if seg == l.upper {
                        Some((true, format!("MCH-{up}{s}"), l, s))
                    } else if seg == l.lower {
                        Some((false, format!("MCH-{lo}{s}"), l, s))
                    } else {
                        None
                    }
                })
            });
            let Some((upper, seg_mch, l, s)) = found else {
                continue;
            };
            let sb = &self.skel.bones[seg];
            let t = ((self.skel.bones[tb].head - sb.head).dot(sb.y_axis()) / sb.length().max(1e-9))
                .clamp(0.0, 1.0);
            let def = self
                .bones
                .iter()
                .position(|b| b.name == self.skel.bones[tb].name)
                .expect("DEF bones come first");
            let helper = self.twist_helper(upper, seg, &seg_mch, l, s);
            self.con(
                def,
                Constraint::new(
                    "twist",
                    Kind::CopyRotation {
                        target: helper,
                        axes: [true; 3],
                        mix: RotMix::Replace,
                    },
                )
                .influence(if upper { 1.0 - t } else { t }),
            );
        }
    }

    /// The helper a segment's twist bones copy (World space, by their influence), made
    /// once a segment; both have the segment's own rest frame, so a twist bone (which
    /// shares it) reads the twist about its own Y whatever the hand's or foot's axes:
    ///
    /// * upper segment (upper arm, thigh): `MCH-upperarm_notwist.L`, a copy of the
    ///   segment under the clavicle's or hips' control that Damped Tracks the segment's
    ///   tail: the segment's swing without its twist, so influence `1 - t` cancels that
    ///   share of the twist;
    /// * lower segment (forearm, shin): `MCH-lowerarm_twisted.L`, a copy of the segment
    ///   parented to the hand's or foot's mechanism bone, so it carries their rotation
    ///   expressed in the segment's axes; a Copy Location of the segment's head and a
    ///   Damped Track of its tail strip the swing, leaving the segment turned by the
    ///   twist of the hand relative to the forearm (its swing-twist decomposition about
    ///   the forearm's Y), so influence `t` gives `t` of that twist.
    fn twist_helper(&mut self, upper: bool, seg: usize, seg_mch: &str, l: Limb, s: &str) -> String {
        let stem = seg_mch.trim_end_matches(s);
        let helper = if upper {
            format!("{stem}_notwist{s}")
        } else {
            format!("{stem}_twisted{s}")
        };
        if self.bones.iter().any(|b| b.name == helper) {
            return helper;
        }
        let parent = if upper {
            self.src_parent(l.upper)
        } else {
            self.src[l.end].clone().unwrap_or_else(|| ROOT.into())
        };
        let hi = self.copy(&helper, BoneRole::Mch, Some(&parent), seg);
        if !upper {
            self.con(
                hi,
                Constraint::new(
                    "at segment",
                    Kind::CopyLocation {
                        target: seg_mch.into(),
                        head_tail: 0.0,
                        axes: [true; 3],
                    },
                ),
            );
        }
        self.con(
            hi,
            Constraint::new(
                "swing",
                Kind::DampedTrack {
                    target: seg_mch.into(),
                    head_tail: 1.0,
                },
            ),
        );
        helper
    }
}

/// `index_01_l` -> `index`: a finger's name without side and segment number.
fn finger_stem(name: &str) -> String {
    let mut s = name.to_string();
    for suf in ["_l", "_r", ".L", ".R", ".l", ".r", "_L", "_R"] {
        if let Some(t) = s.strip_suffix(suf) {
            s = t.to_string();
            break;
        }
    }
    let t = s.trim_end_matches(|c: char| c.is_ascii_digit());
    let t = t.trim_end_matches(['_', '.']);
    if t.is_empty() {
        s
    } else {
        t.to_string()
    }
}

/// The IK chains of a rig: (owner index, upper index) for each 2-bone IK constraint.
pub fn ik_chains(rig: &ControlRig) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, b) in rig.bones.iter().enumerate() {
        if b.constraints
            .iter()
            .any(|c| matches!(c.kind, Kind::Ik { chain: 2, .. }))
        {
            if let Some(p) = b.parent.as_deref().and_then(|p| rig.find(p)) {
                v.push((i, p));
            }
        }
    }
    v
}

/// The rest-pose error of the IK chain owned by bone `owner` (largest matrix
/// difference of its two bones from their rest matrices, positions in units of H).
pub fn pole_error(rig: &ControlRig, ev: &Evaluator, owner: usize, upper: usize) -> f32 {
    let mut out = Vec::new();
    ev.evaluate(&ev.rest_channels(), &mut out);
    let h = rig.height;
    matrix_error(&out[owner], &ev.rest()[owner], h).max(matrix_error(
        &out[upper],
        &ev.rest()[upper],
        h,
    ))
}

fn set_pole_angle(rig: &mut ControlRig, owner: usize, a: f32) {
    for c in &mut rig.bones[owner].constraints {
        if let Kind::Ik { pole_angle, .. } = &mut c.kind {
            *pole_angle = a;
        }
    }
}

/// Solves each IK chain's pole angle numerically: the angle whose IK chain lies on the
/// rest chain (scan 2 deg, refine 0.25 and 0.02 deg, then golden section).
pub fn solve_pole_angles(rig: &mut ControlRig) -> Result<()> {
    for (owner, upper) in ik_chains(rig) {
        let err = |rig: &mut ControlRig, a: f32| -> Result<f32> {
            set_pole_angle(rig, owner, a);
            let ev = Evaluator::new(rig)?;
            Ok(pole_error(rig, &ev, owner, upper))
        };
        let mut best = (f32::INFINITY, 0.0f32);
        for step in 0..180 {
            let a = (-180.0 + 2.0 * step as f32) * DEG;
            let e = err(rig, a)?;
            if e < best.0 {
                best = (e, a);
            }
        }
        for (span, step) in [(2.0f32, 0.25f32), (0.25, 0.02)] {
            let c = best.1;
            let n = (2.0 * span / step).round() as i32;
            for j in 0..=n {
                let a = c + (-span + step * j as f32) * DEG;
                let e = err(rig, a)?;
                if e < best.0 {
                    best = (e, a);
                }
            }
        }
        let (mut lo, mut hi) = (best.1 - 0.02 * DEG, best.1 + 0.02 * DEG);
        let g = 0.618_034f32;
        for _ in 0..40 {
            let a = hi - g * (hi - lo);
            let b = lo + g * (hi - lo);
            if err(rig, a)? < err(rig, b)? {
                hi = b;
            } else {
                lo = a;
            }
        }
        let a = 0.5 * (lo + hi);
        let e = err(rig, a)?;
        set_pole_angle(rig, owner, if e <= best.0 { a } else { best.1 });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::finger_stem;

    #[test]
    fn finger_stems() {
        assert_eq!(finger_stem("index_01_l"), "index");
        assert_eq!(finger_stem("thumb_01.R"), "thumb");
        assert_eq!(finger_stem("f_middle.01.L"), "f_middle");
    }
}
