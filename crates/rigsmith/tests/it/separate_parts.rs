//! What keeps a character's separate parts working, checked on real rigs: one definition
//! of twist bones in `inspect` and the sidecar, the source facts the sidecar records,
//! the animation tracks rule 3 reads from the file's clips, cloth that must hang from
//! the trunk, and authored colliders and springs kept over measured ones.

use glam::Vec3;
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::parts::{self, Sidecar, SurfaceClass};
use rigsmith::{Bone, Character, Skeleton};

use crate::common::quaternius_dir;

/// The A-pose mannequin with a skirt and hair, rigged as the VRM exporter rigs it.
fn skirted() -> (Character, rigsmith::RigOutput) {
    let mut c = mannequin::build(&MannequinOptions {
        pose: ArmPose::A,
        skirt: true,
        hair: true,
        ..Default::default()
    });
    let p = crate::common::prepare(&mut c);
    (c, p)
}

fn check_of<'a>(v: &'a [rigsmith::Check], id: &str) -> &'a rigsmith::Check {
    v.iter()
        .find(|k| k.id == id)
        .unwrap_or_else(|| panic!("no check {id}"))
}

#[test]
fn inspect_lists_the_sidecars_twist_bones_and_no_skirt_segment() {
    let (c, p) = skirted();
    let skel = c.skeleton.as_ref().unwrap();
    // The subdivided skirt has numbered segments under each panel (`skirt.00.001`
    // under `skirt.00`): a Blender numbered copy by name, and a cloth chain.
    let segments = skel
        .bones
        .iter()
        .filter(|b| {
            b.name.starts_with("skirt")
                && b.parent
                    .is_some_and(|q| b.name.starts_with(&format!("{}.", skel.bones[q].name)))
        })
        .count();
    assert!(segments >= 12, "{segments} skirt segments");
    let report = rigsmith::inspect::inspect(&c);
    assert_eq!(report.twist_bones, p.sidecar.twist_bones);
    assert!(
        report
            .twist_bones
            .iter()
            .all(|b| !b.starts_with("skirt") && !b.starts_with("hair")),
        "{:?}",
        report.twist_bones
    );
}

#[test]
fn roll_bones_and_numbered_limb_copies_are_twist_bones() {
    let b =
        |n: &str, parent: Option<usize>, head: Vec3, tail: Vec3| Bone::new(n, parent, head, tail);
    let v = Vec3::new;
    let s = Skeleton {
        bones: vec![
            b("hips", None, v(0.0, 1.0, 0.0), v(0.0, 1.1, 0.0)),
            b("thigh.L", Some(0), v(0.1, 1.0, 0.0), v(0.1, 0.75, 0.0)),
            b("thigh.L.001", Some(1), v(0.1, 0.75, 0.0), v(0.1, 0.5, 0.0)),
            b("shin.L", Some(2), v(0.1, 0.5, 0.0), v(0.1, 0.1, 0.0)),
            b("spine", Some(0), v(0.0, 1.1, 0.0), v(0.0, 1.4, 0.0)),
            b("upper_arm.L", Some(4), v(0.2, 1.4, 0.0), v(0.45, 1.4, 0.0)),
            b("forearm.L", Some(5), v(0.45, 1.4, 0.0), v(0.7, 1.4, 0.0)),
            b(
                "forearm_roll.L",
                Some(5),
                v(0.45, 1.4, 0.0),
                v(0.6, 1.4, 0.0),
            ),
            b("skirt", Some(0), v(0.0, 1.0, 0.1), v(0.0, 0.8, 0.12)),
            b("skirt.001", Some(8), v(0.0, 0.8, 0.12), v(0.0, 0.6, 0.14)),
        ],
    };
    let c = Character {
        skeleton: Some(s),
        ..Default::default()
    };
    let got = rigsmith::inspect::inspect(&c).twist_bones;
    assert_eq!(got, vec!["thigh.L.001", "forearm_roll.L"]);
    assert_eq!(got, rigsmith::humanoid::character_twist_bones(&c));
}

#[test]
fn an_unrigged_source_records_no_skeleton_and_no_authored_weights() {
    let (c, p) = skirted();
    assert!(p.rigged_here);
    assert_eq!(p.sidecar.source_skeleton, Some(false));
    assert!(!p.sidecar.weights_authored);
    // rigsmith's own weights on the result, measured by the same rule, look authored
    // (not every vertex at 4 influences): the source is what the sidecar records.
    assert!(rigsmith::inspect::weights_authored(&c));
}

#[test]
fn a_rigged_source_records_its_skeleton_and_authored_weights() {
    let mut c =
        rigsmith::io::read_character(&quaternius_dir().join("knight_KnightCharacter.glb")).unwrap();
    let authored = rigsmith::inspect::inspect(&c).weights.authored;
    assert!(authored);
    let p = crate::common::prepare(&mut c);
    assert!(!p.rigged_here);
    assert_eq!(p.sidecar.source_skeleton, Some(true));
    assert_eq!(p.sidecar.weights_authored, authored);
}

#[test]
fn weights_at_four_influences_everywhere_look_automatic() {
    // Positive control for the rule: every weighted vertex at exactly 4 influences.
    let (mut c, _) = skirted();
    let n = c.skeleton.as_ref().unwrap().len() as u32;
    for p in &mut c.parts {
        if let Some(w) = &mut p.weights {
            for (v, list) in w.vertices.iter_mut().enumerate() {
                *list = (0..4)
                    .map(|k| rigsmith::Influence {
                        bone: (v as u32 + k) % n,
                        weight: 0.25,
                    })
                    .collect();
            }
        }
    }
    assert!(!rigsmith::inspect::weights_authored(&c));
    assert!(!rigsmith::inspect::inspect(&c).weights.authored);
}

#[test]
fn the_fox_clips_key_its_tail_and_rule_3_says_so() {
    let path = quaternius_dir().join("animals_Fox.glb");
    let c = rigsmith::io::read_character(&path).unwrap();
    let skel = c.skeleton.as_ref().unwrap();
    let keyed = rigsmith::io::gltf::animation::keyed_bone_names(&path, skel).unwrap();
    for k in 3..=8 {
        assert!(keyed.contains(&format!("Tail{k}")), "Tail{k} in {keyed:?}");
    }
    let chains = parts::chains_from_skeleton(&c);
    let tail: Vec<&String> = chains
        .iter()
        .filter(|ch| ch.class == "tail")
        .flat_map(|ch| ch.bones.iter())
        .collect();
    let keyed_tail = tail.iter().filter(|b| keyed.contains(b)).count();
    assert!(keyed_tail >= 6, "{tail:?} {keyed:?}");
    let fired = parts::rule_checks(&c, &chains, &keyed);
    let k = check_of(&fired, "parts.cloth_animated");
    assert!(!k.passed, "{k:?}");
    assert_eq!(k.value, keyed_tail as f64);
    assert!(k.detail.contains("Tail3"), "{}", k.detail);
    // The same chains judged on no tracks pass: the clips decide.
    let quiet = parts::rule_checks(&c, &chains, &[]);
    assert!(check_of(&quiet, "parts.cloth_animated").passed);
}

#[test]
fn a_file_without_animations_keys_nothing() {
    let path = quaternius_dir().join("men_Casual.glb");
    let c = rigsmith::io::read_character(&path).unwrap();
    let keyed =
        rigsmith::io::gltf::animation::keyed_bone_names(&path, c.skeleton.as_ref().unwrap())
            .unwrap();
    let anims = rigsmith::io::gltf::animation::read_animations(&path).unwrap();
    assert_eq!(keyed.is_empty(), anims.clips.is_empty());
}

/// The skirted mannequin with its first skirt panel moved under the left thigh.
fn skirt_under_thigh(c: &Character) -> (Character, String) {
    let mut bad = c.clone();
    let skel = bad.skeleton.as_mut().unwrap();
    let roles = rigsmith::humanoid::Roles::of(skel, None);
    let thigh = roles.upper_leg[0].unwrap();
    let sk0 = skel.find("skirt.00").unwrap();
    assert!(thigh < sk0);
    skel.bones[sk0].parent = Some(thigh);
    let name = skel.bones[thigh].name.clone();
    (bad, name)
}

#[test]
fn a_skirt_under_a_thigh_is_rehung_from_the_trunk() {
    let (c, p) = skirted();
    let (mut bad, thigh) = skirt_under_thigh(&c);
    // The rule fires on the broken rig (positive control)...
    let before = parts::rule_checks(&bad, &p.sidecar.chains, &[]);
    assert!(!check_of(&before, "parts.cloth_parent").passed);
    // ...and building the chains re-hangs the panel from the hips.
    let chains = parts::build_chains(&mut bad, &parts::ChainOptions::default()).unwrap();
    let ch = chains.iter().find(|ch| ch.bones[0] == "skirt.00").unwrap();
    assert_eq!(ch.root_parent.as_deref(), Some("hips"));
    assert!(
        bad.warnings
            .iter()
            .any(|w| w.contains("skirt.00") && w.contains(&thigh)),
        "{:?}",
        bad.warnings
    );
    let after = parts::rule_checks(&bad, &chains, &[]);
    assert!(check_of(&after, "parts.cloth_parent").passed);
    bad.validate().unwrap();
}

#[test]
fn the_vrm_export_refuses_cloth_under_a_limb() {
    let (c, p) = skirted();
    let meta = parts::vrm_write::VrmMeta::default();
    assert!(parts::vrm_write::vrm_bytes(&c, &p.humanoid, &p.sidecar, &meta).is_ok());
    let (bad, thigh) = skirt_under_thigh(&c);
    let mut sc = p.sidecar.clone();
    for ch in sc.chains.iter_mut().filter(|ch| ch.bones[0] == "skirt.00") {
        ch.root_parent = Some(thigh.clone());
    }
    let err = parts::vrm_write::vrm_bytes(&bad, &p.humanoid, &sc, &meta)
        .unwrap_err()
        .to_string();
    assert!(err.contains("skirt.00 hangs from"), "{err}");
    assert!(err.contains(&thigh), "{err}");
}

#[test]
fn authored_colliders_and_springs_are_kept_on_bones_the_rig_has() {
    let (c, p) = skirted();
    let skel = c.skeleton.as_ref().unwrap();
    let mut authored: Sidecar = p.sidecar.clone();
    let mut mine = authored.colliders[0].clone();
    mine.name = "artist.hip".into();
    mine.measured = false;
    let mut gone = mine.clone();
    gone.name = "artist.tail".into();
    gone.bone = "no_such_bone".into();
    authored.colliders = vec![mine.clone(), gone];
    authored.springs.get_mut("skirt").unwrap().stiffness = 7.25;
    let mut sc = p.sidecar.clone();
    let notes = sc.keep_authored(&authored, skel);
    assert!(sc.colliders.contains(&mine));
    assert!(sc.colliders.iter().all(|k| k.name != "artist.tail"));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("no_such_bone"));
    assert_eq!(sc.springs["skirt"].stiffness, 7.25);
}

#[test]
fn a_purple_shirt_on_a_mesh_named_body_is_not_skin() {
    let c = rigsmith::io::read_character(&quaternius_dir().join("men_Casual.glb")).unwrap();
    assert!(c
        .parts
        .iter()
        .any(|p| p.name.starts_with("Casual_Body") && p.material.as_deref() == Some("Purple")));
    let s = parts::surface_classes(&c, &parts::chains_from_skeleton(&c));
    assert_ne!(s["Purple"], SurfaceClass::Skin, "{s:?}");
    assert_eq!(s["Skin"], SurfaceClass::Skin, "{s:?}");
    assert_eq!(s["Hair"], SurfaceClass::Hair, "{s:?}");
    assert_eq!(s["Eye"], SurfaceClass::Eye, "{s:?}");
}

/// A unit box part (`Object_7`) with `material`, its faces wound outward, or inward
/// when `inverted`, the material carrying `flags`.
fn shell(material: &str, inverted: bool, flags: rigsmith::model::MaterialFlags) -> Character {
    let mut part = crate::body::cube("Object_7", Vec3::new(0.0, 1.0, 0.0), 1.0);
    if inverted {
        for t in &mut part.mesh.triangles {
            t.swap(1, 2);
        }
    }
    part.material = Some(material.into());
    let mut c = Character::default();
    c.parts.push(part);
    c.materials.insert(material.into(), flags);
    c
}

#[test]
fn an_inside_out_single_sided_shell_is_line_work_by_its_flags() {
    use rigsmith::model::{AlphaMode, MaterialFlags};
    let solid = MaterialFlags::default();
    let classes = |c: &Character| parts::surface_classes(c, &[]);
    // The inverted hull of a toon outline pass, its material named nothing useful.
    let hull = shell("Material.003", true, solid);
    assert_eq!(classes(&hull)["Material.003"], SurfaceClass::LineWork);
    // Controls: the same shell facing outward, drawn double-sided, or blended, is not.
    let outward = shell("Material.003", false, solid);
    assert_eq!(classes(&outward)["Material.003"], SurfaceClass::Other);
    let two_sided = MaterialFlags {
        double_sided: true,
        ..solid
    };
    assert_eq!(
        classes(&shell("Material.003", true, two_sided))["Material.003"],
        SurfaceClass::Other
    );
    let blended = MaterialFlags {
        alpha_mode: AlphaMode::Blend,
        ..solid
    };
    assert_eq!(
        classes(&shell("Material.003", true, blended))["Material.003"],
        SurfaceClass::Other
    );
    // The name is trusted before the flags: an inside-out shell named hair is hair.
    assert_eq!(
        classes(&shell("Hair", true, solid))["Hair"],
        SurfaceClass::Hair
    );
}

#[test]
fn material_flags_are_read_and_survive_the_round_trip() {
    use rigsmith::model::{AlphaMode, MaterialFlags};
    let flags = MaterialFlags {
        double_sided: true,
        alpha_mode: AlphaMode::Mask,
        unlit: false,
    };
    let c = shell("Lashes", false, flags);
    let dir = crate::common::tmpdir();
    let path = dir.path().join("shell.glb");
    rigsmith::io::write_character(&path, &c, &Default::default()).unwrap();
    let back = rigsmith::io::read_character(&path).unwrap();
    assert_eq!(back.materials.get("Lashes"), Some(&flags));
}
