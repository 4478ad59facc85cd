//! The VRM humanoid map of skeletons whose names are not rigsmith's templates:
//! MakeHuman's `default`, `default_no_toes` and `cmu_mb` rigs and the Quaternius
//! characters mapped from their structure, template-named rigs unchanged, and the
//! refusals (an arm removed, a quadruped, a rig whose feet do not hang from its shins).

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};
use rigsmith::humanoid::{
    hierarchy_problems, map_humanoid, structure_map, template_map, HumanoidMap, MappedBy, Roles,
    Template,
};
use rigsmith::io::mpfb2::Corpus;
use rigsmith::model::naming::mirror_name;
use rigsmith::{Bone, Skeleton};

use crate::common::{mpfb2_dir, quaternius_dir};

fn corpus_skeleton(rig: &str) -> Skeleton {
    let corpus = Corpus::open(&mpfb2_dir()).unwrap();
    corpus.skeleton(rig, corpus.base_positions_obj()).unwrap()
}

fn quaternius_skeleton(file: &str) -> Skeleton {
    let c = rigsmith::io::read_character(&quaternius_dir().join(file)).unwrap();
    c.skeleton.unwrap()
}

/// Asserts `map[vrm] == bone` for every pair.
fn assert_bones(map: &BTreeMap<String, String>, want: &[(&str, &str)], what: &str) {
    for (v, b) in want {
        assert_eq!(
            map.get(*v).map(String::as_str),
            Some(*b),
            "{what}: {v} (map: {map:?})"
        );
    }
}

/// The skeleton without `root` and its descendants.
fn without_subtree(s: &Skeleton, root: &str) -> Skeleton {
    let r = s.find(root).unwrap();
    let keep: Vec<usize> = (0..s.len())
        .filter(|&i| i != r && !s.is_ancestor(r, i))
        .collect();
    let new_index = |old: usize| keep.iter().position(|&k| k == old);
    let bones: Vec<Bone> = keep
        .iter()
        .map(|&i| {
            let mut b = s.bones[i].clone();
            b.parent = b.parent.and_then(new_index);
            b
        })
        .collect();
    Skeleton::from_unordered(bones).unwrap().0
}

fn complete_and_valid(s: &Skeleton, m: &HumanoidMap, what: &str) {
    assert!(
        m.missing_required().is_empty(),
        "{what}: missing {:?} ({:?})",
        m.missing_required(),
        m.problem
    );
    assert_eq!(m.problem, None, "{what}");
    let h = hierarchy_problems(s, &m.bones);
    assert!(h.is_empty(), "{what}: {h:?}");
}

#[test]
fn game_engine_map_is_the_template_names_unchanged() {
    let s = corpus_skeleton("game_engine");
    let m = map_humanoid(&s);
    let want: BTreeMap<String, String> = template_map(Template::Game)
        .into_iter()
        .filter(|(_, b)| s.find(b).is_some())
        .collect();
    assert_eq!(m.bones, want);
    assert_eq!(m.bones.len(), 52);
    assert!(m
        .routes
        .values()
        .all(|r| *r == MappedBy::Template(Template::Game)));
    complete_and_valid(&s, &m, "game_engine");
    // The structure alone finds the same bones as the names (toes included: one
    // `ball_l` per foot).
    let st = structure_map(&s);
    let by_structure: BTreeMap<String, String> = st
        .slots
        .iter()
        .map(|(k, &i)| (k.to_string(), s.bones[i].name.clone()))
        .collect();
    let agree = want
        .iter()
        .filter(|(k, b)| by_structure.get(*k) == Some(b))
        .count();
    assert_eq!(agree, 52, "structure {by_structure:?}");
}

#[test]
fn makehuman_default_rig_maps_from_its_structure() {
    let s = corpus_skeleton("default");
    assert_eq!(s.len(), 163);
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "default");
    assert_bones(
        &m.bones,
        &[
            ("hips", "root"),
            ("spine", "spine04"),
            ("chest", "spine02"),
            ("upperChest", "spine01"),
            ("neck", "neck01"),
            ("head", "head"),
            ("jaw", "jaw"),
            ("leftEye", "eye.L"),
            ("rightEye", "eye.R"),
            ("leftShoulder", "clavicle.L"),
            ("leftUpperArm", "upperarm01.L"),
            ("leftLowerArm", "lowerarm01.L"),
            ("leftHand", "wrist.L"),
            ("rightUpperArm", "upperarm01.R"),
            ("rightHand", "wrist.R"),
            ("leftUpperLeg", "upperleg01.L"),
            ("leftLowerLeg", "lowerleg01.L"),
            ("leftFoot", "foot.L"),
            ("rightUpperLeg", "upperleg01.R"),
            ("rightFoot", "foot.R"),
            ("leftThumbMetacarpal", "finger1-1.L"),
            ("leftThumbDistal", "finger1-3.L"),
            ("leftIndexProximal", "finger2-1.L"),
            ("leftMiddleIntermediate", "finger3-2.L"),
            ("leftRingDistal", "finger4-3.L"),
            ("leftLittleProximal", "finger5-1.L"),
            ("rightLittleDistal", "finger5-3.R"),
        ],
        "default",
    );
    // 23 body bones and 30 finger bones; five toe chains per foot: no single toes bone.
    assert_eq!(m.bones.len(), 53, "{:?}", m.bones);
    assert!(!m.bones.contains_key("leftToes"));
    // Twist segments, the hip helpers, the pelvis-level spine bone and the
    // metacarpals take no slot.
    for helper in [
        "upperarm02.L",
        "lowerarm02.L",
        "upperleg02.L",
        "lowerleg02.R",
        "pelvis.L",
        "pelvis.R",
        "shoulder01.L",
        "spine05",
        "metacarpal1.L",
    ] {
        assert!(
            !m.bones.values().any(|b| b == helper),
            "{helper} took a humanoid slot"
        );
    }
    assert!(m.routes.values().all(|r| *r == MappedBy::Structure));
    assert!(
        m.notes.iter().any(|n| n.contains("structure")),
        "{:?}",
        m.notes
    );
}

#[test]
fn makehuman_default_no_toes_maps_its_single_toe() {
    let s = corpus_skeleton("default_no_toes");
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "default_no_toes");
    assert_bones(
        &m.bones,
        &[
            ("hips", "root"),
            ("leftUpperArm", "upperarm01.L"),
            ("leftHand", "wrist.L"),
            ("leftFoot", "foot.L"),
            ("leftToes", "toe1-1.L"),
            ("rightToes", "toe1-1.R"),
        ],
        "default_no_toes",
    );
    assert_eq!(m.bones.len(), 55);
}

#[test]
fn cmu_rig_maps_from_its_structure() {
    let s = corpus_skeleton("cmu_mb");
    assert_eq!(s.len(), 31);
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "cmu_mb");
    assert_bones(
        &m.bones,
        &[
            ("hips", "Hips"),
            ("spine", "LowerBack"),
            ("chest", "Spine"),
            ("upperChest", "Spine1"),
            ("neck", "Neck"),
            ("head", "Head"),
            ("leftShoulder", "LeftShoulder"),
            ("leftUpperArm", "LeftArm"),
            ("leftLowerArm", "LeftForeArm"),
            ("leftHand", "LeftHand"),
            ("rightHand", "RightHand"),
            ("leftUpperLeg", "LeftUpLeg"),
            ("leftLowerLeg", "LeftLeg"),
            ("leftFoot", "LeftFoot"),
            ("leftToes", "LeftToeBase"),
            ("rightUpperLeg", "RightUpLeg"),
            ("leftThumbProximal", "LThumb"),
            ("rightThumbProximal", "RThumb"),
        ],
        "cmu_mb",
    );
    // The hip joints' helpers stay out; the single four-finger chain is not guessed.
    assert!(!m
        .bones
        .values()
        .any(|b| b == "LHipJoint" || b == "RHipJoint"));
    assert!(!m.bones.values().any(|b| b.contains("Finger")));
    assert_eq!(m.bones.len(), 24);
}

#[test]
fn rigify_rig_maps_the_head_bone_not_the_face_root() {
    // Rigify's `face` starts where the head bone `spine.006` starts and holds the eyes
    // and the jaw: the head is `spine.006`, the face's bones hang below it.
    for rig in ["human", "human_toes"] {
        let s = corpus_skeleton(rig);
        let m = map_humanoid(&s);
        complete_and_valid(&s, &m, rig);
        assert_bones(
            &m.bones,
            &[
                ("neck", "spine.005"),
                ("head", "spine.006"),
                ("leftEye", "eye.L"),
                ("jaw", "jaw_master"),
            ],
            rig,
        );
        let r = Roles::of(&s, Some(&m.bones));
        assert_eq!(r.head.map(|i| s.bones[i].name.as_str()), Some("spine.006"));
    }
}

#[test]
fn mixamo_and_game_engine_with_breast_keep_their_template_names() {
    for (rig, t, hips, hand) in [
        (
            "mixamo",
            Template::Mixamo,
            "mixamorig:Hips",
            "mixamorig:LeftHand",
        ),
        (
            "game_engine_with_breast",
            Template::Game,
            "pelvis",
            "hand_l",
        ),
    ] {
        let s = corpus_skeleton(rig);
        let m = map_humanoid(&s);
        complete_and_valid(&s, &m, rig);
        assert!(
            m.routes.values().all(|r| *r == MappedBy::Template(t)),
            "{rig}"
        );
        assert_bones(&m.bones, &[("hips", hips), ("leftHand", hand)], rig);
        assert!(m.bones.len() >= 50, "{rig}: {}", m.bones.len());
        // The breast bones are no humanoid bones.
        assert!(!m.bones.values().any(|b| b.contains("breast")), "{rig}");
    }
}

#[test]
fn quaternius_humanoids_map_and_the_fox_and_the_ik_knight_are_refused() {
    for (file, n, want) in [
        (
            "men_Casual.glb",
            48,
            [
                ("hips", "Hips"),
                ("spine", "Abdomen"),
                ("upperChest", "Chest"),
                ("leftUpperArm", "UpperArm.L"),
                ("leftHand", "Hand.L"),
                ("leftThumbProximal", "Thumb2.L"),
                ("leftLittleDistal", "Pinky4.L"),
                ("rightFoot", "Foot.R"),
            ],
        ),
        (
            "men_Farmer.glb",
            48,
            [
                ("hips", "Hips"),
                ("spine", "Abdomen"),
                ("upperChest", "Chest"),
                ("leftUpperArm", "UpperArm.L"),
                ("leftHand", "Hand.L"),
                ("leftThumbProximal", "Thumb2.L"),
                ("leftLittleDistal", "Pinky4.L"),
                ("rightFoot", "Foot.R"),
            ],
        ),
        (
            // The legs hang from `Root` at the floor, not from `Hips`: the root is
            // where legs and spine meet.
            "platformer_Character_HumanoidRig.glb",
            20,
            [
                ("hips", "Root"),
                ("spine", "Hips"),
                ("chest", "Abdomen"),
                ("upperChest", "Torso"),
                ("leftUpperArm", "UpperArm.L"),
                ("leftHand", "Fist.L"),
                ("leftLowerLeg", "LowerLeg.L"),
                ("rightFoot", "Foot.R"),
            ],
        ),
    ] {
        let s = quaternius_skeleton(file);
        let m = map_humanoid(&s);
        complete_and_valid(&s, &m, file);
        assert_bones(&m.bones, &want, file);
        assert_eq!(m.bones.len(), n, "{file}: {:?}", m.bones);
    }
    // The fox stands on four legs: its head is barely above its hips.
    let fox = map_humanoid(&quaternius_skeleton("animals_Fox.glb"));
    assert_eq!(fox.missing_required().len(), 15, "{:?}", fox.bones);
    let why = fox.problem.clone().unwrap();
    assert!(why.contains("not an upright body"), "{why}");
    let e = fox
        .require_complete("animals_Fox.glb")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("animals_Fox.glb") && e.contains("leftUpperArm"),
        "{e}"
    );
    // The knight's feet are IK bones under the root, not under its shins.
    let knight = map_humanoid(&quaternius_skeleton("knight_KnightCharacter.glb"));
    assert_eq!(
        knight.missing_required(),
        [
            "leftUpperLeg",
            "leftLowerLeg",
            "leftFoot",
            "rightUpperLeg",
            "rightLowerLeg",
            "rightFoot"
        ]
    );
    assert!(
        knight.problem.as_deref().unwrap().contains("Foot.L"),
        "{:?}",
        knight.problem
    );
}

#[test]
fn a_skeleton_without_its_left_arm_is_refused_naming_the_bones() {
    // Clean twins: both complete (tested above). Positive controls: the left arm gone.
    for (rig, arm_root) in [("default", "clavicle.L"), ("game_engine", "clavicle_l")] {
        let s = without_subtree(&corpus_skeleton(rig), arm_root);
        let m = map_humanoid(&s);
        assert_eq!(
            m.missing_required(),
            ["leftUpperArm", "leftLowerArm", "leftHand"],
            "{rig}"
        );
        let why = m.problem.clone().unwrap();
        assert!(why.contains("no arm on the left (+X) side"), "{rig}: {why}");
        let e = m.require_complete("armless.glb").unwrap_err().to_string();
        assert!(
            e.contains("armless.glb")
                && e.contains("leftUpperArm, leftLowerArm, leftHand")
                && !e.contains("rightHand"),
            "{e}"
        );
        // The rest is still mapped, as a valid hierarchy.
        assert!(m.bones["rightUpperArm"].to_lowercase().contains("upperarm"));
        assert!(hierarchy_problems(&s, &m.bones).is_empty(), "{rig}");
    }
}

#[test]
fn swapped_side_names_get_their_sides_from_positions() {
    // MakeHuman's game_engine rig with every `_l` renamed `_r` and back: the template
    // names give a complete map whose "left" arm is on the character's right (-X).
    let mut s = corpus_skeleton("game_engine");
    for b in &mut s.bones {
        b.name = mirror_name(&b.name);
    }
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "swapped game_engine");
    assert!(rigsmith::humanoid::sides_agree(&s, &m.bones));
    assert_bones(
        &m.bones,
        &[
            ("leftUpperArm", "upperarm_r"),
            ("leftHand", "hand_r"),
            ("rightUpperArm", "upperarm_l"),
            ("leftUpperLeg", "thigh_r"),
            ("leftFoot", "foot_r"),
            ("leftThumbMetacarpal", "thumb_01_r"),
            ("leftLittleDistal", "pinky_03_r"),
        ],
        "swapped",
    );
    let x = |n: &str| s.bones[s.find(&m.bones[n]).unwrap()].head.x;
    assert!(x("leftUpperArm") > 0.1 && x("rightUpperArm") < -0.1);
    assert!(
        m.notes
            .iter()
            .any(|n| n.contains("not on the character's left")),
        "{:?}",
        m.notes
    );
    assert!(m.routes.values().all(|r| *r == MappedBy::Structure));
    // The clean twin: the unswapped names agree with the positions.
    let clean = corpus_skeleton("game_engine");
    assert!(rigsmith::humanoid::sides_agree(
        &clean,
        &template_map(Template::Game)
            .into_iter()
            .filter(|(_, b)| clean.find(b).is_some())
            .collect()
    ));
}

#[test]
fn hierarchy_check_fires_on_a_map_out_of_vrm_order() {
    let s = corpus_skeleton("game_engine");
    let good: BTreeMap<String, String> = template_map(Template::Game)
        .into_iter()
        .filter(|(_, b)| s.find(b).is_some())
        .collect();
    assert!(hierarchy_problems(&s, &good).is_empty());
    // Hand and forearm swapped: the hand hangs from the upper arm.
    let mut bad = good.clone();
    bad.insert("leftHand".into(), "lowerarm_l".into());
    bad.insert("leftLowerArm".into(), "hand_l".into());
    let p = hierarchy_problems(&s, &bad);
    assert!(p.iter().any(|x| x.starts_with("leftHand")), "{p:?}");
    // A twist-like extra bone between the hips and the spine is fine when unmapped,
    // a bone in two slots is not.
    let mut twice = good.clone();
    twice.insert("chest".into(), "spine_01".into());
    let p = hierarchy_problems(&s, &twice);
    assert!(p.iter().any(|x| x.contains("is both")), "{p:?}");
}

#[test]
fn the_map_does_not_depend_on_size() {
    let s = corpus_skeleton("default");
    let m = map_humanoid(&s);
    for k in [0.01f32, 100.0] {
        let mut t = s.clone();
        t.transform(Mat4::from_scale(Vec3::splat(k)));
        assert_eq!(map_humanoid(&t).bones, m.bones, "scale {k}");
    }
}

#[test]
fn prepare_maps_the_humanoid_and_keeps_a_quadruped_preparable() {
    // The fox still gets its chains and colliders for `simulate`; only the VRM
    // export refuses it.
    let mut fox = rigsmith::io::read_character(&quaternius_dir().join("animals_Fox.glb")).unwrap();
    let p = crate::common::prepare(&mut fox);
    assert!(p.humanoid_problem.is_some());
    assert!(!p.sidecar.chains.is_empty());
    // A Quaternius man: the structure route, through the stage.
    let mut man = rigsmith::io::read_character(&quaternius_dir().join("men_Casual.glb")).unwrap();
    let p = crate::common::prepare(&mut man);
    assert_eq!(p.humanoid_problem, None);
    assert_eq!(p.humanoid.len(), 48);
    assert!(
        p.notes.iter().any(|n| n.contains("skeleton's structure")),
        "{:?}",
        p.notes
    );
}

/// `s` with every bone renamed `b000`, `b001`...: names that say nothing.
fn anonymous(s: &Skeleton) -> Skeleton {
    let mut t = s.clone();
    for (i, b) in t.bones.iter_mut().enumerate() {
        b.name = format!("b{i:03}");
    }
    t
}

/// `map` with bone names replaced by their index in `s`.
fn by_index(s: &Skeleton, map: &BTreeMap<String, String>) -> BTreeMap<String, usize> {
    map.iter()
        .map(|(k, b)| (k.clone(), s.find(b).unwrap()))
        .collect()
}

#[test]
fn names_that_say_nothing_map_from_positions_alone() {
    // game_engine: all 52 bones, the same as its names give (head by branching, the
    // five fingers by position).
    let s = corpus_skeleton("game_engine");
    let named = by_index(&s, &map_humanoid(&s).bones);
    let a = anonymous(&s);
    let m = map_humanoid(&a);
    complete_and_valid(&a, &m, "anonymous game_engine");
    assert_eq!(by_index(&a, &m.bones), named);
    // default: the same bones as with its names except the eyes and the jaw, which
    // are only mapped when named (the arms' unnamed twist segments are told from the
    // elbow's bend in the A pose).
    let s = corpus_skeleton("default");
    let mut named = by_index(&s, &map_humanoid(&s).bones);
    for k in ["leftEye", "rightEye", "jaw"] {
        named.remove(k);
    }
    let a = anonymous(&s);
    let m = map_humanoid(&a);
    complete_and_valid(&a, &m, "anonymous default");
    assert_eq!(by_index(&a, &m.bones), named);
    assert_eq!(named.len(), 50);
}

#[test]
fn finger_end_bones_and_namespaces_do_not_shift_the_map() {
    // Mixamo-style end bones past each fingertip (anonymous names, so the structure
    // maps them): the fingers keep their three real bones.
    let s = anonymous(&corpus_skeleton("game_engine"));
    let want = map_humanoid(&s).bones;
    let mut t = s.clone();
    let tips: Vec<usize> = want
        .iter()
        .filter(|(k, _)| k.ends_with("Distal"))
        .map(|(_, b)| t.find(b).unwrap())
        .collect();
    for (k, &tip) in tips.iter().enumerate() {
        let b = &t.bones[tip];
        let d = b.tail - b.head;
        let end = Bone::new(format!("e{k:02}"), Some(tip), b.tail, b.tail + d);
        t.bones.push(end);
    }
    assert_eq!(tips.len(), 10);
    let m = map_humanoid(&t);
    complete_and_valid(&t, &m, "end bones");
    assert_eq!(m.bones, want);
    // A second Mixamo character's namespace (`mixamorig7:`) still reads by name.
    let mut s = corpus_skeleton("mixamo");
    for b in &mut s.bones {
        b.name = b.name.replace("mixamorig:", "mixamorig7:");
    }
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "mixamorig7");
    assert!(m
        .routes
        .values()
        .all(|r| *r == MappedBy::Template(Template::Mixamo)));
    assert_eq!(m.bones["leftHand"], "mixamorig7:LeftHand");
    assert_eq!(m.bones.len(), 52);
}

#[test]
fn template_names_without_fingers_get_them_from_the_structure() {
    // game_engine with its finger bones renamed: the `game` names give the 22 body
    // bones, the structure the 30 finger bones.
    let mut s = corpus_skeleton("game_engine");
    let full = map_humanoid(&s).bones;
    for (i, b) in s.bones.iter_mut().enumerate() {
        if ["thumb", "index", "middle", "ring", "pinky"]
            .iter()
            .any(|f| b.name.starts_with(f))
        {
            b.name = format!("digit_{i:02}");
        }
    }
    let m = map_humanoid(&s);
    complete_and_valid(&s, &m, "fingers renamed");
    assert_eq!(m.bones.len(), 52);
    let fingers = m
        .routes
        .iter()
        .filter(|(_, r)| **r == MappedBy::Structure)
        .count();
    assert_eq!(fingers, 30, "{:?}", m.routes);
    // The same bones as the full names give.
    let named = corpus_skeleton("game_engine");
    for (k, b) in &full {
        let i = named.find(b).unwrap();
        assert_eq!(m.bones[k], s.bones[i].name, "{k}");
    }
}

#[test]
fn ik_foot_targets_under_the_root_are_not_legs() {
    // Unnamed game_engine bones plus IK foot targets hanging from the root at the
    // balls of the feet, 1 mm lower: the legs still end at the real feet.
    let s = anonymous(&corpus_skeleton("game_engine"));
    let want = map_humanoid(&s).bones;
    let mut t = s.clone();
    for (k, v) in ["leftToes", "rightToes"].iter().enumerate() {
        let ball = &t.bones[t.find(&want[*v]).unwrap()];
        let (h, tail) = (ball.head - Vec3::Y * 0.001, ball.tail - Vec3::Y * 0.001);
        t.bones.push(Bone::new(format!("ik{k}"), Some(0), h, tail));
    }
    assert!(t.bones[0].parent.is_none());
    let m = map_humanoid(&t);
    complete_and_valid(&t, &m, "IK targets");
    assert_eq!(m.bones, want);
    // The positive control: with the IK target as the only low joint (the real feet
    // cut off at the ankle), the map is refused instead of going through the root.
    let mut u = without_subtree(&t, &want["leftFoot"]);
    u = without_subtree(&u, &want["rightFoot"]);
    let m = map_humanoid(&u);
    assert!(m.missing_required().contains(&"leftFoot"), "{:?}", m.bones);
}

#[test]
fn fitted_mannequins_in_t_and_a_pose_map_from_structure_alone() {
    use rigsmith::fit::{fit, FitOptions};
    use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
    // rigsmith's own fit (game names, two twist bones per limb segment), names
    // removed: the straight arms of the T pose and the bent ones of the A pose.
    for pose in [ArmPose::T, ArmPose::A] {
        let c = mannequin::build(&MannequinOptions {
            pose,
            ..Default::default()
        });
        let r = fit(
            &c,
            &FitOptions {
                twist: 2,
                ..Default::default()
            },
        )
        .unwrap();
        let s = &r.skeleton;
        let named = map_humanoid(s);
        complete_and_valid(s, &named, "fitted mannequin");
        let want = by_index(s, &named.bones);
        let a = anonymous(s);
        let m = map_humanoid(&a);
        complete_and_valid(&a, &m, "anonymous fitted mannequin");
        let got = by_index(&a, &m.bones);
        let wrong: Vec<(&String, &usize, Option<&usize>)> = want
            .iter()
            .filter(|(k, v)| got.get(*k) != Some(v))
            .map(|(k, v)| (k, v, got.get(k)))
            .collect();
        assert!(wrong.is_empty(), "{pose:?}: {wrong:?} {:?}", m.notes);
        assert_eq!(got.len(), want.len(), "{pose:?}");
    }
}

#[test]
fn parts_roles_take_the_trunk_from_the_humanoid_map() {
    // MakeHuman's default rig names no hips, and `pelvis.L` (a token `pelvis` on the
    // left) is the left leg's hip helper: the roles (where skirts hang, where the
    // waist collider rides) come from the skeleton's humanoid map.
    let s = corpus_skeleton("default");
    let r = Roles::of(&s, None);
    let name = |i: Option<usize>| i.map(|i| s.bones[i].name.as_str());
    assert_eq!(name(r.hips), Some("root"));
    assert_eq!(name(r.upper_leg[0]), Some("upperleg01.L"));
    assert_eq!(name(r.lower_leg[1]), Some("lowerleg01.R"));
    assert_eq!(name(r.upper_arm[0]), Some("upperarm01.L"));
    assert!(r.is_leg(s.find("upperleg02.L").unwrap()));
    // The clean twin: game_engine's roles by name are the same as by its map.
    let g = corpus_skeleton("game_engine");
    let r = Roles::of(&g, None);
    assert_eq!(r.hips.map(|i| g.bones[i].name.as_str()), Some("pelvis"));
}

#[test]
fn every_named_body_maps_the_same_bones() {
    // The 14 named MakeHuman bodies (baby to heavy, female to muscular) with the
    // `default` and `cmu_mb` rigs fitted to them: the same map as on the base body.
    let corpus = Corpus::open(&mpfb2_dir()).unwrap();
    for rig in ["default", "cmu_mb"] {
        let base = map_humanoid(&corpus.skeleton(rig, corpus.base_positions_obj()).unwrap());
        for v in rigsmith::io::mpfb2::VARIANTS {
            let pos = corpus.shape_obj(Some(v.name), &[]).unwrap();
            let s = corpus.skeleton(rig, &pos).unwrap();
            let m = map_humanoid(&s);
            complete_and_valid(&s, &m, v.name);
            let diff: Vec<(&String, Option<&String>, Option<&String>)> = base
                .bones
                .keys()
                .chain(m.bones.keys())
                .filter(|k| base.bones.get(*k) != m.bones.get(*k))
                .map(|k| (k, base.bones.get(k), m.bones.get(k)))
                .collect();
            assert!(diff.is_empty(), "{rig} on {}: {diff:?}", v.name);
        }
    }
}
