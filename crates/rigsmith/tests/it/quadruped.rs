//! Quadrupeds: the body plan from the sections, landmarks and templates on held-out
//! procedural animals and the fox, refusals, placement checks with positive controls,
//! the quadruped pose library and the whole rig.

use glam::Vec3;
use rigsmith::fit::quadruped::{
    classify, fit_plan, BodyPlan, Plan, PlanFit, QuadrupedKind, MIN_BEND_DEG,
};
use rigsmith::fit::FitOptions;
use rigsmith::mannequin::animal::{self, AnimalOptions, Beast, Oddity};
use rigsmith::pose::quadruped::{quadruped_library, QuadRoles};
use rigsmith::{Character, Skeleton};

fn wolf() -> AnimalOptions {
    AnimalOptions::default()
}

fn fit_as(c: &Character, plan: Plan) -> PlanFit {
    fit_plan(c, &FitOptions::default(), plan).expect("fit")
}

fn body(c: &Character) -> &rigsmith::Mesh {
    &c.parts[0].mesh
}

fn bone(s: &Skeleton, n: &str) -> rigsmith::Bone {
    s.bones[s.find(n).unwrap_or_else(|| panic!("no bone {n}"))].clone()
}

#[test]
fn the_sections_of_the_procedural_wolf_show_a_quadruped() {
    let c = animal::build(&wolf());
    let k = classify(body(&c));
    assert_eq!(k.plan, BodyPlan::Quadruped, "{}", k.why);
    assert_eq!(k.legs, 4);
    assert!(k.why.contains("four leg sections"), "{}", k.why);
}

#[test]
fn auto_picks_the_biped_template_for_the_mannequin_and_says_why() {
    let c = rigsmith::mannequin::build(&Default::default());
    let r = fit_as(&c, Plan::Auto);
    assert_eq!(r.plan, "biped");
    assert!(r.why.contains("two leg sections"), "{}", r.why);
    assert!(r.fit.skeleton.find("thigh_l").is_some());
}

#[test]
fn auto_picks_the_quadruped_template_for_the_wolf() {
    let c = animal::build(&wolf());
    let r = fit_as(&c, Plan::Auto);
    assert_eq!(r.plan, "quadruped (quadruped)");
    assert!(r.fit.skeleton.find("thigh.L").is_some());
    assert!(r.fit.skeleton.find("upper_arm.R").is_some());
}

/// Held-out animals: four leg chains, a spine, a neck and head chain and a tail of at
/// least three bones, read back from the structure alone.
fn assert_complete_animal(beast: Beast, kind: QuadrupedKind) {
    let c = animal::build(&AnimalOptions { beast, ..wolf() });
    let r = fit_as(&c, Plan::Quadruped(kind));
    let s = &r.fit.skeleton;
    let roles = QuadRoles::of(s).expect("a quadruped skeleton");
    assert_eq!(roles.legs.len(), 4);
    assert_eq!(roles.legs.iter().filter(|l| l.hind).count(), 2);
    for l in &roles.legs {
        assert!(l.bones.len() >= 4, "{:?}", l);
    }
    assert!(roles.spine.len() >= 3, "spine {:?}", roles.spine);
    assert!(!roles.neck.is_empty());
    assert_eq!(s.bones[roles.head].name, "head");
    assert!(roles.tail.len() >= 3, "tail {:?}", roles.tail);
    // Ears are found on the wolf and the cat; the horse's small ears are lost at the
    // default surface grid (no ear bones then, as the template allows).
    if beast != Beast::Horse {
        assert_eq!(roles.ears.len(), 2, "{:?}", roles.ears);
    }
    let blockers: Vec<_> = r
        .fit
        .checks
        .iter()
        .filter(|k| !k.passed && k.severity != rigsmith::Severity::Minor)
        .map(|k| format!("{} {} {}", k.id, k.value, k.detail))
        .collect();
    assert!(blockers.is_empty(), "{beast:?}: {blockers:?}");
}

#[test]
fn a_held_out_wolf_gets_four_legs_a_spine_a_neck_and_head_and_a_tail() {
    assert_complete_animal(Beast::Wolf, QuadrupedKind::Wolf);
}

#[test]
fn a_held_out_horse_gets_four_legs_a_spine_a_neck_and_head_and_a_tail() {
    assert_complete_animal(Beast::Horse, QuadrupedKind::Horse);
}

#[test]
fn a_held_out_cat_gets_four_legs_a_spine_a_neck_and_head_and_a_tail() {
    assert_complete_animal(Beast::Cat, QuadrupedKind::Cat);
}

#[test]
fn the_horse_template_has_hooves_and_a_long_neck() {
    let c = animal::build(&AnimalOptions {
        beast: Beast::Horse,
        ..wolf()
    });
    let s = fit_as(&c, Plan::Quadruped(QuadrupedKind::Horse))
        .fit
        .skeleton;
    for n in ["hoof.L", "hoof_front.R", "neck.002"] {
        assert!(s.find(n).is_some(), "{n}");
    }
}

#[test]
fn wolf_landmarks_lie_near_the_generator_joints() {
    let o = wolf();
    let c = animal::build(&o);
    let r = fit_as(&c, Plan::Quadruped(QuadrupedKind::Wolf));
    let lm = &r.fit.landmarks;
    let h = lm.height;
    let refs = animal::reference_joints(&o);
    let at = |n: &str| refs.iter().find(|(k, _)| *k == n).unwrap().1;
    // (generator joint, landmark, tolerance in % H): measured about 5.6, 1.5, 0.6, 2.6,
    // 2.1, 5.4, 1.6 when written (the head pivot is the narrowest cut of the neck, a
    // little behind the generator's neck-to-head joint).
    for (g, l, tol) in [
        ("hip_l", "hip_l", 8.0),
        ("knee_l", "knee_l", 4.0),
        ("hock_l", "hock_l", 3.0),
        ("shoulder_l", "shoulder_l", 5.0),
        ("elbow_l", "elbow_l", 4.0),
        ("head", "head", 7.0),
        ("ear_tip_l", "ear_tip_l", 4.0),
    ] {
        let d = 100.0 * (lm.get(l).unwrap() - at(g)).length() / h;
        assert!(d < tol, "{l}: {d:.2}% H from the generator's {g}");
    }
    for l in lm.points.values() {
        assert!(!l.method.is_empty() && (0.0..=1.0).contains(&l.confidence));
    }
}

#[test]
fn the_knee_bends_forward_the_hock_and_elbow_back_with_hinges_on_local_x() {
    let c = animal::build(&wolf());
    let s = fit_as(&c, Plan::Quadruped(QuadrupedKind::Wolf))
        .fit
        .skeleton;
    let (thigh, shin, foot) = (bone(&s, "thigh.L"), bone(&s, "shin.L"), bone(&s, "foot.L"));
    // The knee lies forward (+Z) of the hip-hock line; the hock behind knee-paw.
    let u = (shin.tail - thigh.head).normalize();
    let off = thigh.tail - thigh.head - u * (thigh.tail - thigh.head).dot(u);
    assert!(off.z > 0.0, "knee offset {off:?}");
    let u = (foot.tail - shin.head).normalize();
    let off = shin.tail - shin.head - u * (shin.tail - shin.head).dot(u);
    assert!(off.z < 0.0, "hock offset {off:?}");
    for n in ["thigh.L", "shin.L", "foot.L", "upper_arm.L", "forearm.L"] {
        assert!(bone(&s, n).x_axis.dot(Vec3::X) > 0.95, "{n}");
        let r = n.replace(".L", ".R");
        assert!(bone(&s, &r).x_axis.dot(-Vec3::X) > 0.95, "{r}");
    }
    const { assert!(MIN_BEND_DEG > 1.0) };
}

#[test]
fn a_wolf_facing_minus_z_is_found_by_its_head_and_fits_the_same_skeleton_turned() {
    let front = fit_as(
        &animal::build(&wolf()),
        Plan::Quadruped(QuadrupedKind::Wolf),
    );
    let back = fit_as(
        &animal::build(&AnimalOptions {
            facing_back: true,
            ..wolf()
        }),
        Plan::Quadruped(QuadrupedKind::Wolf),
    );
    assert!(back.fit.landmarks.pose.contains("facing -Z"));
    let h = front.fit.landmarks.height;
    for b in &front.fit.skeleton.bones {
        let q = bone(&back.fit.skeleton, &b.name);
        let turn = |p: Vec3| Vec3::new(-p.x, p.y, -p.z);
        let d = (turn(b.head) - q.head).length() / h;
        assert!(d < 0.01, "{}: {:.3}% H", b.name, 100.0 * d);
    }
}

#[test]
fn the_fit_does_not_depend_on_size() {
    let a = fit_as(
        &animal::build(&wolf()),
        Plan::Quadruped(QuadrupedKind::Wolf),
    )
    .fit;
    let b = fit_as(
        &animal::build(&AnimalOptions {
            height: 90.0,
            ..wolf()
        }),
        Plan::Quadruped(QuadrupedKind::Wolf),
    )
    .fit;
    assert_eq!(a.skeleton.len(), b.skeleton.len());
    for (x, y) in a.skeleton.bones.iter().zip(&b.skeleton.bones) {
        assert_eq!(x.name, y.name);
        let d = (x.head * 100.0 - y.head).length() / 90.0;
        assert!(d < 0.005, "{}: {:.4} H", x.name, d);
    }
}

fn refused(c: &Character, plan: Plan) -> String {
    fit_plan(c, &FitOptions::default(), plan)
        .expect_err("refused")
        .to_string()
}

#[test]
fn a_snake_is_refused_naming_the_sections_or_fitted_as_a_chain() {
    let c = animal::oddity(Oddity::Snake, 0.12);
    let e = refused(&c, Plan::Auto);
    assert!(
        e.contains("no separate legs")
            && e.contains(rigsmith::fit::quadruped::CHAIN_HINT)
            && !e.contains("--template")
            && !e.contains("lying down"),
        "{e}"
    );
    let r = fit_as(&c, Plan::Chain);
    assert_eq!(r.fit.skeleton.len(), rigsmith::fit::quadruped::CHAIN_BONES);
    // The chain runs along the snake: its ends lie near the body's ends.
    let (lo, hi) = body(&c).bounds();
    let s = &r.fit.skeleton;
    let span = (s.bones[s.len() - 1].tail - s.bones[0].head).length();
    assert!(span > 0.8 * (hi - lo).z, "{span} of {}", (hi - lo).z);
}

#[test]
fn a_spider_is_refused_naming_its_leg_sections() {
    let e = refused(&animal::oddity(Oddity::Spider, 0.5), Plan::Auto);
    assert!(e.contains("8 leg sections"), "{e}");
}

#[test]
fn a_bird_with_spread_wings_is_refused() {
    let e = refused(&animal::oddity(Oddity::Bird, 0.6), Plan::Auto);
    assert!(e.contains("two leg sections under a body lower"), "{e}");
}

#[test]
fn three_legs_are_refused_and_named() {
    let c = animal::build(&AnimalOptions { legs: 3, ..wolf() });
    let e = refused(&c, Plan::Quadruped(QuadrupedKind::Wolf));
    assert!(e.contains("three legs"), "{e}");
}

/// The ids of the failed checks of skeleton `s` on the wolf's body.
fn failed(c: &Character, s: &Skeleton) -> Vec<String> {
    rigsmith::fit::quadruped::quadruped_checks(s, body(c))
        .into_iter()
        .filter(|k| !k.passed)
        .map(|k| k.id)
        .collect()
}

#[test]
fn every_quadruped_placement_rule_fires_on_a_broken_skeleton() {
    let c = animal::build(&wolf());
    let good = fit_as(&c, Plan::Quadruped(QuadrupedKind::Wolf))
        .fit
        .skeleton;
    assert!(failed(&c, &good).is_empty(), "{:?}", failed(&c, &good));
    let broken = |f: &dyn Fn(&mut Skeleton)| {
        let mut s = good.clone();
        f(&mut s);
        failed(&c, &s)
    };
    let idx = |s: &Skeleton, n: &str| s.find(n).unwrap();
    // Knee pushed behind the hip-hock line.
    let f = broken(&|s| {
        let (t, k) = (idx(s, "thigh.L"), idx(s, "shin.L"));
        let p = s.bones[t].tail - Vec3::Z * 0.15;
        s.bones[t].tail = p;
        s.bones[k].head = p;
    });
    assert!(f.contains(&"quad.knee_bend.L".to_string()), "{f:?}");
    // Hock pushed forward.
    let f = broken(&|s| {
        let (a, b) = (idx(s, "shin.L"), idx(s, "foot.L"));
        let p = s.bones[a].tail + Vec3::Z * 0.15;
        s.bones[a].tail = p;
        s.bones[b].head = p;
    });
    assert!(f.contains(&"quad.hock_bend.L".to_string()), "{f:?}");
    // Elbow pushed forward.
    let f = broken(&|s| {
        let (a, b) = (idx(s, "upper_arm.R"), idx(s, "forearm.R"));
        let p = s.bones[a].tail + Vec3::Z * 0.15;
        s.bones[a].tail = p;
        s.bones[b].head = p;
    });
    assert!(f.contains(&"quad.elbow_bend.R".to_string()), "{f:?}");
    // A toe lifted off the floor, which also breaks the symmetry.
    let f = broken(&|s| {
        let t = idx(s, "toe.L");
        s.bones[t].tail.y += 0.2;
    });
    assert!(f.contains(&"quad.feet_on_floor".to_string()), "{f:?}");
    assert!(f.contains(&"quad.symmetry".to_string()), "{f:?}");
    // A bone out in the air.
    let f = broken(&|s| {
        let t = idx(s, "spine.001");
        s.bones[t].tail.y += 1.0;
    });
    assert!(f.contains(&"quad.inside".to_string()), "{f:?}");
    // A hind leg that does not deform, and a tail cut to two bones.
    let f = broken(&|s| {
        for n in ["thigh.R", "shin.R", "foot.R", "toe.R"] {
            let t = idx(s, n);
            s.bones[t].deform = false;
        }
        let n = s.len();
        for b in &mut s.bones[..n] {
            if b.name.starts_with("tail.") && b.name != "tail.001" {
                b.name = format!("x{}", b.name);
            }
        }
    });
    assert!(f.contains(&"quad.legs".to_string()), "{f:?}");
    assert!(f.contains(&"quad.tail".to_string()), "{f:?}");
}

#[test]
fn the_quadruped_pose_library_moves_what_it_names() {
    let c = animal::build(&wolf());
    let s = fit_as(&c, Plan::Quadruped(QuadrupedKind::Wolf))
        .fit
        .skeleton;
    let (lib, skipped) = quadruped_library(&s).expect("quadruped");
    assert!(skipped.is_empty(), "{skipped:?}");
    let names: Vec<&str> = lib.iter().map(|p| p.name.as_str()).collect();
    for n in [
        "leg_forward.hind.L",
        "leg_back.front.R",
        "hock_bend.L",
        "graze",
        "head_turn",
        "spine_arch",
        "spine_twist",
        "tail_swing",
        "ear_flick.L",
        "ear_flick.R",
    ] {
        assert!(names.contains(&n), "{n} not in {names:?}");
    }
    let posed = |name: &str, b: &str| {
        let p = lib.iter().find(|p| p.name == name).unwrap();
        let m = rigsmith::pose::posed_matrices(&s, &p.pose);
        let i = s.find(b).unwrap();
        m[i].transform_point3(s.bones[i].tail)
    };
    let rest = |b: &str| bone(&s, b).tail;
    // Graze: the snout goes down; a forward swing takes the toe forward; the tail
    // swings sideways; the left ear flicks out to +X.
    assert!(posed("graze", "head").y < rest("head").y - 0.05);
    assert!(posed("leg_forward.hind.L", "toe.L").z > rest("toe.L").z + 0.05);
    assert!(posed("leg_back.hind.L", "toe.L").z < rest("toe.L").z - 0.05);
    let last_tail = s
        .bones
        .iter()
        .rev()
        .find(|b| b.name.starts_with("tail"))
        .unwrap()
        .name
        .clone();
    assert!((posed("tail_swing", &last_tail).x - rest(&last_tail).x).abs() > 0.05);
    assert!(posed("ear_flick.L", "ear.001.L").x > rest("ear.001.L").x + 0.005);
}

fn fox() -> Character {
    rigsmith::io::read_character(&crate::common::quaternius_dir().join("animals_Fox.glb"))
        .expect("fox")
}

#[test]
fn the_fox_artist_skeleton_reads_as_a_quadruped_without_its_ik_bones() {
    let c = fox();
    let s = c.skeleton.as_ref().unwrap();
    let r = QuadRoles::of(s).expect("quadruped roles");
    let name = |i: usize| s.bones[i].name.as_str();
    assert_eq!(name(r.head), "Head");
    assert_eq!(r.tail.len(), 8);
    assert_eq!(r.ears.len(), 2);
    let swings: Vec<&str> = r.legs.iter().map(|l| name(l.swing)).collect();
    assert!(
        swings
            .iter()
            .all(|n| !n.contains("IK") && !n.contains("Pole")),
        "{swings:?}"
    );
    assert_eq!(r.legs.iter().filter(|l| l.hind).count(), 2);
}

#[test]
fn the_fox_reading_reports_its_skin_skeleton_root_without_failing() {
    let c = fox();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("SKIN_SKELETON_INVALID") && w.contains("skins[0].skeleton")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn rig_auto_rigs_the_fox_with_a_tail_spring_chain_and_no_blocker() {
    let c = fox();
    let o = rigsmith::RigOptions {
        plan: Plan::Auto,
        rigged: rigsmith::Rigged::Replace,
        self_intersections: false,
        ..Default::default()
    };
    let out = rigsmith::rig(&c, &o, &mut |_, _| {}).expect("rig");
    assert!(out
        .notes
        .iter()
        .any(|n| n.starts_with("body plan quadruped")));
    let r = out.review.as_ref().unwrap();
    assert_eq!(r.counts.blocker, 0, "{:?}", r.counts);
    assert_eq!(out.weight_report.as_ref().unwrap().unweighted, 0);
    // The review posed it through the quadruped library.
    assert!(r.checks.iter().any(|k| k.id.starts_with("deform.graze")));
    assert!(out.sidecar.chains.iter().any(|ch| ch.class == "tail"));
    assert!(!out.sidecar.colliders.is_empty());
    // Corrective shapes belong to the biped pose library: none on a quadruped, said in
    // a note, and no corrective check fails for want of its biped pose.
    assert!(out.sidecar.correctives.is_empty());
    assert!(out
        .notes
        .iter()
        .any(|n| n.starts_with("no corrective shapes")));
    assert!(
        !r.checks
            .iter()
            .any(|k| k.id.starts_with("correctives.") && !k.passed),
        "{:?}",
        r.checks
            .iter()
            .filter(|k| k.id.starts_with("correctives.") && !k.passed)
            .map(|k| &k.id)
            .collect::<Vec<_>>()
    );
}

/// The hock angle (between the bone above the hock and the bone below it, degrees) of
/// every `hock_bend` pose of `s`, at rest and posed; asserts there is one per hind leg.
fn hock_angles(s: &Skeleton) -> Vec<(String, f32, f32)> {
    let r = QuadRoles::of(s).expect("quadruped roles");
    let (lib, skipped) = quadruped_library(s).expect("quadruped");
    assert!(
        skipped.iter().all(|k| !k.starts_with("hock_bend")),
        "{skipped:?}"
    );
    let mut out = Vec::new();
    for leg in r.legs.iter().filter(|l| l.hind) {
        let name = format!("hock_bend.{}", leg.side.letter());
        let p = lib.iter().find(|p| p.name == name).expect("hock bend pose");
        let foot = rigsmith::pose::quadruped::hock_bone(s, leg, r.forward).expect("hock bone");
        let above = s.bones[foot].parent.unwrap();
        let m = rigsmith::pose::posed_matrices(s, &p.pose);
        let angle = |knee: Vec3, hock: Vec3, paw: Vec3| (knee - hock).angle_between(paw - hock);
        let b = &s.bones[foot];
        let rest = angle(s.bones[above].head, b.head, b.tail);
        let posed = angle(
            m[above].transform_point3(s.bones[above].head),
            m[foot].transform_point3(b.head),
            m[foot].transform_point3(b.tail),
        );
        out.push((name, rest.to_degrees(), posed.to_degrees()));
    }
    assert_eq!(out.len(), 2, "{out:?}");
    out
}

#[test]
fn the_hock_bend_closes_the_hock_on_the_fox_artist_skeleton() {
    let c = fox();
    for (name, rest, posed) in hock_angles(c.skeleton.as_ref().unwrap()) {
        // 40 deg about the lateral axis: a little less when the leg is splayed.
        assert!(
            (30.0..=40.5).contains(&(rest - posed)),
            "{name}: {rest} -> {posed}"
        );
    }
}

#[test]
fn the_hock_bend_closes_the_hock_on_the_fitted_wolf() {
    let c = animal::build(&wolf());
    let s = fit_as(&c, Plan::Quadruped(QuadrupedKind::Wolf))
        .fit
        .skeleton;
    for (name, rest, posed) in hock_angles(&s) {
        assert!(
            (30.0..=40.5).contains(&(rest - posed)),
            "{name}: {rest} -> {posed}"
        );
    }
}

/// Asserts `out`'s sidecar has a tail chain and two ear chains that swing (spring
/// parameters per class), each class colliding with measured capsules on body bones.
fn assert_tail_and_ears_swing_against_the_body(out: &rigsmith::RigOutput) {
    let sc = &out.sidecar;
    let s = out.character.skeleton.as_ref().unwrap();
    assert_eq!(sc.chains.iter().filter(|c| c.class == "tail").count(), 1);
    assert_eq!(sc.chains.iter().filter(|c| c.class == "ear").count(), 2);
    let roles = QuadRoles::of(s).expect("quadruped");
    for (class, group) in [
        ("tail", rigsmith::parts::animal::HAUNCHES),
        ("ear", rigsmith::parts::animal::ANIMAL_NECK),
    ] {
        let p = sc
            .springs
            .get(class)
            .unwrap_or_else(|| panic!("no {class} springs"));
        assert_eq!(p.collider_groups, vec![group.to_string()], "{class}");
        let cols: Vec<_> = sc.colliders.iter().filter(|c| c.group == group).collect();
        assert!(!cols.is_empty(), "{class}: no {group} colliders");
        for col in cols {
            let b = s.find(&col.bone).expect("collider bone");
            // On the body: a hind leg's swing bone for the tail, a neck bone for the ears.
            let on_body = if class == "tail" {
                roles.legs.iter().any(|l| l.hind && l.swing == b)
            } else {
                roles.neck.contains(&b)
            };
            assert!(on_body, "{class}: collider {} on {}", col.name, col.bone);
            let rigsmith::parts::ColliderShape::Capsule { radius, .. } = col.shape else {
                panic!("{}: not a capsule", col.name);
            };
            assert!(radius > 0.005 * sc.height, "{}: radius {radius}", col.name);
        }
    }
}

#[test]
fn rig_gives_the_fox_tail_and_ears_spring_chains_against_colliders_on_its_body() {
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        review: false,
        ..Default::default()
    };
    let out = rigsmith::rig(&fox(), &o, &mut |_, _| {}).expect("rig");
    assert_tail_and_ears_swing_against_the_body(&out);
}

#[test]
fn rig_gives_the_built_in_wolf_tail_and_ears_spring_chains_against_colliders_on_its_body() {
    let o = rigsmith::RigOptions {
        review: false,
        ..Default::default()
    };
    let out = rigsmith::rig(&animal::build(&wolf()), &o, &mut |_, _| {}).expect("rig");
    assert_tail_and_ears_swing_against_the_body(&out);
}

#[test]
fn rig_reads_the_body_plan_by_default_and_says_why() {
    assert_eq!(rigsmith::RigOptions::default().plan, Plan::Auto);
    let o = rigsmith::RigOptions {
        review: false,
        ..Default::default()
    };
    let m = rigsmith::mannequin::build(&Default::default());
    let out = rigsmith::rig(&m, &o, &mut |_, _| {}).expect("rig the mannequin");
    assert!(
        out.notes
            .iter()
            .any(|n| n.starts_with("body plan biped: biped: ")),
        "{:?}",
        out.notes
    );
    assert!(out
        .character
        .skeleton
        .as_ref()
        .unwrap()
        .find("pelvis")
        .is_some());
    assert_eq!(out.model.plan, None);
    let out = rigsmith::rig(&animal::build(&wolf()), &o, &mut |_, _| {}).expect("rig the wolf");
    assert!(out
        .notes
        .iter()
        .any(|n| n.starts_with("body plan quadruped")));
    assert_eq!(out.model.plan.as_deref(), Some("quadruped"));
}

#[test]
fn the_quadruped_model_check_does_not_ask_an_animal_to_stand_and_turns_one_facing_back() {
    let c = fox();
    // The biped check calls the fox lying down; the quadruped's has no standing check.
    assert!(rigsmith::fit::model_check(&c).has("model.up"));
    let r = rigsmith::fit::quadruped::model_check_for(&c);
    assert_eq!(r.plan.as_deref(), Some("quadruped"));
    assert!(!r.has("model.up"), "{:?}", r.problems);
    assert!(r.checks().iter().all(|k| k.id != "model.standing"));
    assert_eq!(r.facing, "+Z");
    // Positive control: a wolf facing -Z is found by its head and turned.
    let mut w = animal::build(&AnimalOptions {
        facing_back: true,
        ..wolf()
    });
    let r = rigsmith::fit::quadruped::quadruped_model_check(&w);
    assert!(r.has("model.facing"), "{:?}", r.problems);
    let k = r
        .checks()
        .into_iter()
        .find(|k| k.id == "model.facing")
        .unwrap();
    assert!(!k.passed);
    let fixes = rigsmith::fit::fix_model(&mut w, &r);
    assert!(fixes.iter().any(|f| f.starts_with("turned")), "{fixes:?}");
    assert!(!rigsmith::fit::quadruped::quadruped_model_check(&w).has("model.facing"));
}

/// The fox fitted with its own skeleton taken off: the hip above its thigh, the hock at
/// the back of the hind leg's bend, pre-bends kept in the legs. Its shins and front
/// paws lay outside the body (the hip at the trunk's fraction in front of the thigh
/// dragged the knee to the leg's front; the wrist pre-bent forward out of the leg).
#[test]
fn the_fox_shins_and_front_paws_lie_inside_its_body() {
    let mut c = fox();
    let artist = c.skeleton.take().unwrap();
    for p in &mut c.parts {
        p.weights = None;
    }
    let r = fit_as(&c, Plan::Auto).fit;
    let k = r.checks.iter().find(|k| k.id == "quad.inside").unwrap();
    assert!(k.passed, "{}", k.detail);
    // The hip and the hock near the artist's (measured 7.5 and 4.9 % H; 20.8 and 13.7
    // before).
    let h = r.landmarks.height;
    let joint = |b: &str| artist.bones[artist.find(b).unwrap()].head;
    for (lm, b, tol) in [
        ("hip_l", "BackLeg.L", 9.0),
        ("hock_l", "BackLowerLeg.L", 6.5),
    ] {
        let d = 100.0 * (r.landmarks.get(lm).unwrap() - joint(b)).length() / h;
        assert!(d < tol, "{lm}: {d:.2}% H from the artist's {b}");
    }
    // The bends the rubric asks for survive the limited pre-bends.
    for id in ["quad.knee_bend.L", "quad.hock_bend.L", "quad.elbow_bend.L"] {
        let k = r.checks.iter().find(|k| k.id == id).unwrap();
        assert!(k.passed, "{id}: {}", k.detail);
    }
}

/// A closed 8-sided cylinder of radius 1 and length 9 along Y with rings only at its
/// ends and middle (the glTF sample `RiggedSimple`'s mesh).
fn three_ring_cylinder() -> Character {
    let mut positions = Vec::new();
    for y in [0.0f32, 4.5, 9.0] {
        for k in 0..8 {
            let a = k as f32 * std::f32::consts::TAU / 8.0;
            positions.push(Vec3::new(a.cos(), y, a.sin()));
        }
    }
    positions.push(Vec3::new(0.0, 0.0, 0.0));
    positions.push(Vec3::new(0.0, 9.0, 0.0));
    let mut triangles = Vec::new();
    for r in 0..2u32 {
        for k in 0..8u32 {
            let (a, b) = (r * 8 + k, r * 8 + (k + 1) % 8);
            triangles.push([a, b + 8, b]);
            triangles.push([a, a + 8, b + 8]);
        }
    }
    for k in 0..8u32 {
        triangles.push([24, k, (k + 1) % 8]);
        triangles.push([25, 16 + (k + 1) % 8, 16 + k]);
    }
    Character {
        parts: vec![crate::common::mesh_part("Cylinder", positions, triangles)],
        ..Default::default()
    }
}

/// A chain has no more bones than the mesh has vertex rings along it less one: eight
/// bones over three rings left five weighting nothing (`weights.empty_major`, a
/// blocker); two bones rig it clean.
#[test]
fn a_coarse_cylinder_rigged_as_a_chain_gets_a_bone_per_gap_between_rings() {
    let c = three_ring_cylinder();
    let r = fit_as(&c, Plan::Chain);
    assert_eq!(r.fit.skeleton.len(), 2);
    let o = rigsmith::pipeline::RigOptions {
        plan: Plan::Chain,
        ..Default::default()
    };
    let out = rigsmith::pipeline::rig(&c, &o, &mut |_, _| {}).expect("rigged");
    let rep = out.weight_report.as_ref().expect("weight report");
    assert!(rep.empty_major.is_empty(), "{:?}", rep.empty_major);
    assert_eq!(out.counts().blocker, 0, "{:?}", out.counts());
}
