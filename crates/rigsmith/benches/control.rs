//! The control-rig evaluator: one frame of the mannequin's control rig (the fitted
//! skeleton with two twist bones a limb segment, and its controls: about 150 bones),
//! a pose that moves IK targets, FK controls, the foot roll and the switches. Target:
//! under 0.1 ms a frame.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use rigsmith::control::model::{ControlPose, Transform};
use rigsmith::control::{self, Evaluator};
use rigsmith::fit::{fit, FitOptions};

fn bench(c: &mut Criterion) {
    let m = rigsmith::mannequin::build(&Default::default());
    let r = fit(
        &m,
        &FitOptions {
            twist: 2,
            ..Default::default()
        },
    )
    .unwrap();
    let rig = control::build(&r.skeleton, m.body().unwrap().height).unwrap();
    let ev = Evaluator::new(&rig).unwrap();
    let mut pose = ControlPose::default();
    for s in [".L", ".R"] {
        pose.bones.insert(
            format!("foot_ik{s}"),
            Transform {
                location: Vec3::new(0.0, 0.1, 0.05),
                ..Default::default()
            },
        );
        pose.bones.insert(
            format!("foot_roll{s}"),
            Transform {
                rotation: Quat::from_rotation_x(0.3),
                ..Default::default()
            },
        );
        pose.bones.insert(
            format!("upperarm_fk{s}"),
            Transform {
                rotation: Quat::from_rotation_z(0.5),
                ..Default::default()
            },
        );
        pose.props.insert(format!("arm_ik{s}"), 1.0);
    }
    let ch = ev.channels(&pose).unwrap();
    let mut out = Vec::new();
    println!("control rig: {} bones", ev.len());
    c.bench_function(&format!("control_evaluate_{}_bones", ev.len()), |b| {
        b.iter(|| {
            ev.evaluate(std::hint::black_box(&ch), &mut out);
            std::hint::black_box(&out);
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
