//! The rig test suite (rubric B) on a control rig, each check with the limit that
//! decides it:
//!
//! | id | measure | pass |
//! |---|---|---|
//! | `control.static_cycles` | constraint targets among the owner's children, IK targets in their own chain, mutual constraints | 0 (blocker) |
//! | `control.cycle_check` | dependency cycles in the evaluator's graph | 0 (blocker) |
//! | `control.root_follows` | largest deform-bone matrix error after translating, rotating and scaling 1.5 the root (positions in H) | < 1e-4 (blocker) |
//! | `control.fk_ik_rest` | largest deform-bone difference between FK and IK at rest, each switch flipped | < 1e-4 (major) |
//! | `control.pole_angle` | largest rest error of an IK chain with its solved pole angle | < 1e-3 (major) |
//! | `control.ik_chains` | IK constraints not of chain 2, not hinged (IK Y/Z locked), or targeting their own chain | 0 (major) |
//! | `control.switches` | switches whose default is not exactly 0 or 1 or whose range is not 0..1 | 0 (major) |
//! | `control.drivers` | drivers that do not resolve, plus the difference of left and right counts | 0 (major) |
//! | `control.foot_planted` | largest foot and toe displacement when the torso drops 0.1 H with IK legs, H | < 1e-4 (major) |
//! | `control.deform_hygiene` | bones that deform without being DEF bones | 0 (major) |

use std::collections::BTreeMap;

use glam::{Mat4, Quat, Vec3};

use super::build::{ik_chains, pole_error, ROOT};
use super::eval::Evaluator;
use super::math::matrix_error;
use super::model::*;
use crate::model::naming::{side_of, Side};
use crate::report::{Check, Severity};

/// Runs every check on `rig` (see the module docs).
pub fn checks(rig: &ControlRig) -> Vec<Check> {
    let mut out = vec![static_cycles(rig)];
    let ev = Evaluator::new(rig);
    out.push(
        Check::new("control.cycle_check", "B", Severity::Blocker)
            .title("No dependency cycle when the rig is evaluated")
            .measure("dependency cycles")
            .at_most(f64::from(u8::from(ev.is_err())), 0.0)
            .detail(match &ev {
                Ok(e) => format!("{} bones in evaluation order", e.len()),
                Err(e) => e.to_string(),
            }),
    );
    if let Ok(ev) = &ev {
        out.push(root_follows(rig, ev));
        out.push(fk_ik_rest(rig, ev));
        out.push(pole_angle(rig, ev));
        out.push(foot_planted(rig, ev));
    }
    out.push(ik_shape(rig));
    out.push(switches(rig));
    out.push(drivers(rig));
    let bad: Vec<&str> = rig
        .bones
        .iter()
        .filter(|b| b.deform && b.role != BoneRole::Def)
        .map(|b| b.name.as_str())
        .collect();
    out.push(
        Check::new("control.deform_hygiene", "B", Severity::Major)
            .title("Only DEF bones deform")
            .measure("non-DEF bones that deform")
            .at_most(bad.len() as f64, 0.0)
            .detail(if bad.is_empty() {
                format!("{} deform bones, all DEF", rig.deform_names().len())
            } else {
                bad.join(", ")
            }),
    );
    out
}

/// Static cycles: a constraint target among the owner's descendants, an IK target
/// inside its own chain, two bones constraining each other.
pub fn static_cycle_list(rig: &ControlRig) -> Vec<String> {
    let idx: BTreeMap<&str, usize> = rig
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    let parent: Vec<Option<usize>> = rig
        .bones
        .iter()
        .map(|b| b.parent.as_deref().and_then(|p| idx.get(p).copied()))
        .collect();
    let is_desc = |a: usize, of: usize| {
        let mut cur = parent[a];
        let mut steps = 0;
        while let Some(c) = cur {
            if c == of {
                return true;
            }
            steps += 1;
            if steps > parent.len() {
                return false;
            }
            cur = parent[c];
        }
        false
    };
    let mut found = Vec::new();
    for (i, b) in rig.bones.iter().enumerate() {
        for c in &b.constraints {
            for t in c.kind.targets() {
                let Some(&ti) = idx.get(t) else { continue };
                if ti == i || is_desc(ti, i) {
                    found.push(format!("{}: {} targets {t}, its own child", b.name, c.name));
                }
                let mutual = rig.bones[ti]
                    .constraints
                    .iter()
                    .any(|tc| tc.kind.targets().contains(&b.name.as_str()));
                if mutual && i < ti {
                    found.push(format!("{} and {t} constrain each other", b.name));
                }
            }
            if let Kind::Ik { target, chain, .. } = &c.kind {
                let mut root = i;
                for _ in 1..*chain {
                    root = parent[root].unwrap_or(root);
                }
                if let Some(&ti) = idx.get(target.as_str()) {
                    if ti == root || is_desc(ti, root) {
                        found.push(format!(
                            "{}: IK target {target} is inside its own chain",
                            b.name
                        ));
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

fn static_cycles(rig: &ControlRig) -> Check {
    let f = static_cycle_list(rig);
    Check::new("control.static_cycles", "B", Severity::Blocker)
        .title("No static dependency cycle")
        .measure(
            "targets among the owner's children, IK targets in their chain, mutual constraints",
        )
        .at_most(f.len() as f64, 0.0)
        .detail(if f.is_empty() {
            "none".into()
        } else {
            f.join("; ")
        })
}

fn pose_of(ev: &Evaluator, pose: &ControlPose) -> Vec<Mat4> {
    let mut out = Vec::new();
    if let Ok(ch) = ev.channels(pose) {
        ev.evaluate(&ch, &mut out);
    }
    out
}

/// The largest error of the deform bones against `want` (one matrix per bone).
fn worst(
    rig: &ControlRig,
    ev: &Evaluator,
    got: &[Mat4],
    want: impl Fn(usize) -> Mat4,
) -> (f32, String) {
    let mut w = (0.0f32, String::new());
    for &i in ev.deform() {
        let e = if got.is_empty() {
            f32::INFINITY
        } else {
            matrix_error(&got[i], &want(i), rig.height)
        };
        if e > w.0 || !e.is_finite() {
            w = (e, rig.bones[i].name.clone());
        }
    }
    w
}

fn root_follows(rig: &ControlRig, ev: &Evaluator) -> Check {
    let c = Check::new("control.root_follows", "B", Severity::Blocker)
        .title("The root carries every deform bone")
        .measure("largest deform-bone matrix error after moving, turning and scaling 1.5 the root (positions in H)");
    let Some(r) = ev.find(ROOT) else {
        return c.at_most(f64::INFINITY, 1e-4).detail("no root control");
    };
    let h = rig.height;
    let t = Transform {
        location: Vec3::new(0.3 * h, 0.1 * h, -0.2 * h),
        rotation: Quat::from_axis_angle(Vec3::new(0.3, 1.0, 0.2).normalize(), 40f32.to_radians()),
        scale: Vec3::splat(1.5),
    };
    let mut pose = ControlPose::default();
    pose.bones.insert(ROOT.into(), t);
    let got = pose_of(ev, &pose);
    let rest = ev.rest();
    let d = rest[r] * t.matrix() * rest[r].inverse();
    let (e, bone) = worst(rig, ev, &got, |i| d * rest[i]);
    c.at_most(e as f64, 1e-4)
        .detail(format!("worst bone {bone}"))
}

fn switch_props(rig: &ControlRig) -> Vec<&Property> {
    rig.properties.iter().filter(|p| p.switch).collect()
}

fn fk_ik_rest(rig: &ControlRig, ev: &Evaluator) -> Check {
    let c = Check::new("control.fk_ik_rest", "B", Severity::Major)
        .title("FK and IK chains coincide at rest")
        .measure("largest deform-bone difference from rest with each switch at 0 and at 1 (positions in H)");
    let mut w = (0.0f32, String::new());
    for p in switch_props(rig) {
        for v in [0.0, 1.0] {
            let mut pose = ControlPose::default();
            pose.props.insert(p.name.clone(), v);
            let got = pose_of(ev, &pose);
            let (e, bone) = worst(rig, ev, &got, |i| ev.rest()[i]);
            if e > w.0 || !e.is_finite() {
                w = (e, format!("{bone} with {} = {v}", p.name));
            }
        }
    }
    let n = switch_props(rig).len();
    c.at_most(w.0 as f64, 1e-4).detail(if w.1.is_empty() {
        format!("{n} switches")
    } else {
        format!("{n} switches; worst {}", w.1)
    })
}

fn pole_angle(rig: &ControlRig, ev: &Evaluator) -> Check {
    let chains = ik_chains(rig);
    let mut w = (0.0f32, String::new());
    for &(o, u) in &chains {
        let e = pole_error(rig, ev, o, u);
        if e > w.0 || !e.is_finite() {
            w = (e, rig.bones[o].name.clone());
        }
    }
    Check::new("control.pole_angle", "B", Severity::Major)
        .title("IK pole angles keep the rest pose")
        .measure("largest rest error of an IK chain (positions in H)")
        .at_most(w.0 as f64, 1e-3)
        .detail(format!(
            "{} IK chains{}",
            chains.len(),
            if w.1.is_empty() {
                String::new()
            } else {
                format!("; worst {}", w.1)
            }
        ))
}

fn ik_shape(rig: &ControlRig) -> Check {
    let cyc = static_cycle_list(rig);
    let mut bad = Vec::new();
    let mut n = 0;
    for b in &rig.bones {
        for c in &b.constraints {
            if let Kind::Ik { chain, .. } = c.kind {
                n += 1;
                if chain != 2 {
                    bad.push(format!("{}: chain {chain}", b.name));
                } else if !(b.ik_lock[1] && b.ik_lock[2]) {
                    bad.push(format!("{}: IK Y/Z not locked", b.name));
                }
                if cyc
                    .iter()
                    .any(|s| s.starts_with(&format!("{}: IK target", b.name)))
                {
                    bad.push(format!("{}: target in its chain", b.name));
                }
            }
        }
    }
    Check::new("control.ik_chains", "B", Severity::Major)
        .title("IK chains of 2, hinged, targets outside the chain")
        .measure("IK constraints that are not")
        .at_most(bad.len() as f64, 0.0)
        .detail(if bad.is_empty() {
            format!("{n} IK constraints")
        } else {
            bad.join("; ")
        })
}

fn switches(rig: &ControlRig) -> Check {
    let bad: Vec<String> = switch_props(rig)
        .into_iter()
        .filter(|p| !(p.default == 0.0 || p.default == 1.0) || p.min != 0.0 || p.max != 1.0)
        .map(|p| {
            format!(
                "{} default {} range {}..{}",
                p.name, p.default, p.min, p.max
            )
        })
        .collect();
    Check::new("control.switches", "B", Severity::Major)
        .title("Switches are exactly 0 or 1 with defaults set")
        .measure("switches with another default or range")
        .at_most(bad.len() as f64, 0.0)
        .detail(if bad.is_empty() {
            switch_props(rig)
                .iter()
                .map(|p| format!("{} = {}", p.name, p.default))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            bad.join("; ")
        })
}

fn drivers(rig: &ControlRig) -> Check {
    let mut invalid = Vec::new();
    let (mut l, mut r) = (0usize, 0usize);
    for (b, c, d) in rig.drivers() {
        for v in &d.vars {
            let ok = match v {
                DriverVar::SingleProp { bone, prop } => {
                    rig.bone(bone).is_some()
                        && rig
                            .properties
                            .iter()
                            .any(|p| &p.bone == bone && &p.name == prop)
                }
                DriverVar::RotationDiff { a, b } => rig.bone(a).is_some() && rig.bone(b).is_some(),
            };
            if !ok {
                invalid.push(format!("{} / {}", b.name, c.name));
            }
        }
        match side_of(&b.name) {
            Side::Left => l += 1,
            Side::Right => r += 1,
            Side::Center => {}
        }
    }
    let value = invalid.len() + l.abs_diff(r);
    Check::new("control.drivers", "B", Severity::Major)
        .title("Drivers valid, left and right alike")
        .measure("invalid drivers plus the difference of left and right counts")
        .at_most(value as f64, 0.0)
        .detail(format!(
            "{} drivers, left {l}, right {r}{}",
            rig.drivers().len(),
            if invalid.is_empty() {
                String::new()
            } else {
                format!("; invalid: {}", invalid.join(", "))
            }
        ))
}

fn foot_planted(rig: &ControlRig, ev: &Evaluator) -> Check {
    let c = Check::new("control.foot_planted", "B", Severity::Major)
        .title("The IK foot stays planted when the hips drop")
        .measure("largest foot and toe displacement with the torso 0.1 H lower, IK legs (H)");
    let Some(torso) = rig.bone("torso") else {
        return c.at_most(f64::INFINITY, 1e-4).detail("no torso control");
    };
    let h = rig.height;
    // Down in world terms, in the torso's rest frame.
    let down = torso.as_bone().frame().transpose() * Vec3::new(0.0, -0.1 * h, 0.0);
    let mut pose = ControlPose::default();
    pose.bones.insert(
        "torso".into(),
        Transform {
            location: down,
            ..Default::default()
        },
    );
    for p in &rig.properties {
        if p.name.starts_with("leg_ik") {
            pose.props.insert(p.name.clone(), 1.0);
        }
    }
    let got = pose_of(ev, &pose);
    let rest_pose = pose_of(
        ev,
        &ControlPose {
            props: pose.props.clone(),
            ..Default::default()
        },
    );
    let feet: Vec<usize> = ["MCH-foot.L", "MCH-foot.R", "MCH-ball.L", "MCH-ball.R"]
        .iter()
        .filter_map(|n| ev.find(n))
        .collect();
    if feet.is_empty() || got.is_empty() {
        return c.at_most(f64::INFINITY, 1e-4).detail("no IK feet");
    }
    let mut w = (0.0f32, String::new());
    for &f in &feet {
        let e = matrix_error(&got[f], &rest_pose[f], h);
        if e > w.0 {
            w = (e, rig.bones[f].name.clone());
        }
    }
    // The hips really dropped.
    let hips_moved = ev
        .find("hips")
        .map_or(0.0, |i| (got[i].w_axis - rest_pose[i].w_axis).length() / h);
    c.at_most(w.0 as f64, 1e-4).detail(format!(
        "{} feet; hips moved {hips_moved:.3} H{}",
        feet.len(),
        if w.1.is_empty() {
            String::new()
        } else {
            format!("; worst {}", w.1)
        }
    ))
}

/// Adds the checks of `rig` to a review's checks (recount its
/// [`crate::report::Counts`] after) and takes rubric B off its "not verified" lines,
/// adding what the rig could not build.
pub fn add_to(checks: &mut Vec<Check>, not_verified: &mut Vec<String>, rig: &ControlRig) {
    checks.extend(self::checks(rig));
    not_verified.retain(|n| !n.starts_with("B IK, FK/IK"));
    for m in &rig.missing {
        not_verified.push(format!("B control rig: {m}"));
    }
}
