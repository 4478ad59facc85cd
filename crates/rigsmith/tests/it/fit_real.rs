//! Fitting the characters people bring: a chibi (a head a third of its height, big
//! ears, short arms pushed into the trunk), a thin body whose arms hang near the torso,
//! a farmer in a straw hat, and MakeHuman bodies split into pieces and dressed. Each
//! test states the figure measured and asserts it with a margin.

use std::sync::OnceLock;

use rigsmith::fit::{fit, FitOptions, FitResult};
use rigsmith::io::mpfb2::{Corpus, CorpusOptions, VARIANTS};
use rigsmith::model::{Body, BodyOptions, PartClass};
use rigsmith::{Character, Severity, Skeleton};

use crate::common;
use crate::fit::{acc, quat};

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| acc::open(&common::mpfb2_dir()))
}

/// A Quaternius character as it comes, and its artist skeleton taken off (with the
/// weights): what `rig --rerig` fits.
fn quaternius(name: &str) -> (Character, Skeleton) {
    let path = common::quaternius_dir().join(format!("{name}.glb"));
    let mut c = rigsmith::io::read_character(&path).unwrap();
    let s = c.skeleton.take().unwrap();
    for p in &mut c.parts {
        p.weights = None;
    }
    (c, s)
}

fn blockers(r: &FitResult) -> Vec<String> {
    r.checks
        .iter()
        .filter(|k| !k.passed && k.severity == Severity::Blocker)
        .map(|k| format!("{}: {}", k.id, k.detail))
        .collect()
}

/// Per mapped joint (Quaternius name -> `game` bone), the distance between the artist's
/// joint and the fitted one in % of `h`.
fn artist_errors(artist: &Skeleton, fitted: &Skeleton, h: f32) -> Vec<(&'static str, f32)> {
    quat::MAP
        .iter()
        .filter_map(|(a, g)| {
            let (ia, ig) = (artist.find(a)?, fitted.find(g)?);
            Some((
                *g,
                100.0 * (artist.bones[ia].head - fitted.bones[ig].head).length() / h,
            ))
        })
        .collect()
}

fn mean(e: &[(&str, f32)]) -> f32 {
    e.iter().map(|x| x.1).sum::<f32>() / e.len().max(1) as f32
}

fn chibi_fit(parts: BodyOptions) -> (Vec<(&'static str, f32)>, FitResult) {
    let (c, artist) = quaternius("platformer_Character_HumanoidRig");
    let h = Body::of(&c, &parts).unwrap().height;
    let r = fit(
        &c,
        &FitOptions {
            parts,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("the chibi must fit: {e}"));
    assert!(blockers(&r).is_empty(), "{:?}", blockers(&r));
    (artist_errors(&artist, &r.skeleton, h), r)
}

#[test]
fn chibi_fits_near_the_artist_joints() {
    // Measured: 12 mapped joints, mean 4.58% H (the artist's spine sits in the middle
    // of the round body, ours nearer the back), arms 2.5 / 1.6 / 1.8% H.
    let (e, r) = chibi_fit(BodyOptions::default());
    assert_eq!(e.len(), 12, "{e:?}");
    assert!(mean(&e) < 5.5, "mean {:.2}% H: {e:?}", mean(&e));
    for (g, d) in &e {
        if ["upperarm_l", "lowerarm_l", "hand_l"].contains(g) {
            assert!(*d < 3.5, "{g}: {d:.2}% H");
        }
    }
    // The ears are above the head's top (off the centre plane), not arms.
    assert!(r.landmarks.notes.iter().any(|n| n.contains("head top")));
    let hand = r.landmarks.get("wrist_l").unwrap();
    let neck = r.landmarks.get("neck_narrowest").unwrap();
    assert!(hand.y < neck.y, "{hand} above the neck {neck}");
}

#[test]
fn chibi_with_its_ears_rigid_fits() {
    // Measured: mean 4.86% H of the height of the skin without the ears.
    let (e, _) = chibi_fit(BodyOptions {
        rigid: vec![("Ears".into(), Some("head".into()))],
        ..Default::default()
    });
    assert!(mean(&e) < 5.8, "mean {:.2}% H: {e:?}", mean(&e));
}

#[test]
fn thin_male_with_arms_near_the_torso_fits() {
    // MakeHuman's young male at minimum muscle and weight, default pose: the arm's
    // section joins the torso 5.8% H from the centre. Measured: 22 major joints, mean
    // 1.76% H, worst the upper arm at 3.9% H.
    let t = 1.0 / 3.0;
    let mut targets: Vec<(String, f32)> = ["african", "asian", "caucasian"]
        .iter()
        .map(|r| (format!("macrodetails/{r}-male-young.target.gz"), t))
        .collect();
    targets.push((
        "macrodetails/universal-male-young-minmuscle-minweight.target.gz".into(),
        1.0,
    ));
    let mut c = corpus()
        .build(&CorpusOptions {
            targets,
            ..Default::default()
        })
        .unwrap();
    let gt = c.skeleton.take().unwrap();
    for p in &mut c.parts {
        p.weights = None;
    }
    let h = c.bounds().1.y - c.bounds().0.y;
    let r = fit(&c, &FitOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(blockers(&r).is_empty(), "{:?}", blockers(&r));
    let gt = gt
        .bones
        .iter()
        .map(|b| (b.name.clone(), (b.head, b.tail)))
        .collect();
    let (m, w, wk) = acc::summary(&acc::errors(&r.skeleton, &gt, h), |k| {
        acc::MAJOR.contains(&k)
    });
    assert!(m <= 2.2, "major mean {m:.2}% H (worst {w:.2} {wk})");
    assert!(w <= 5.0, "worst {w:.2}% H ({wk})");
}

#[test]
fn farmer_head_joint_sits_under_the_straw_hat() {
    let (c, artist) = quaternius("men_Farmer");
    let body = Body::of(&c, &BodyOptions::default()).unwrap();
    // The hat (the brimmed piece and its band) is an accessory, not skin.
    for hat in ["Farmer_Head.1", "Farmer_Head.3"] {
        let i = c.find_part(hat).unwrap();
        assert_eq!(body.roles[i].class, PartClass::Accessory, "{hat}");
    }
    let h = body.height;
    let r = fit(&c, &FitOptions::default()).unwrap();
    let head = r.skeleton.bones[r.skeleton.find("head").unwrap()].head;
    let a = artist.bones[artist.find("Head").unwrap()].head;
    // Measured: 2.4% H from the artist's head joint (was 3.8% H with the hat as skin),
    // below the eyes as the artist's, and the head's top under the hat's crown.
    let d = 100.0 * (head - a).length() / h;
    assert!(d < 3.0, "head {d:.2}% H from the artist's");
    let eye = c.parts[c.find_part("Farmer_Head.4").unwrap()]
        .mesh
        .bounds()
        .0
        .y;
    assert!(
        a.y < eye && head.y < eye,
        "head {head}, artist {a}, eyes at {eye}"
    );
    let hat_top = c.parts[c.find_part("Farmer_Head.1").unwrap()]
        .mesh
        .bounds()
        .1
        .y;
    let top = r.landmarks.get("head_top").unwrap().y;
    assert!(
        top < hat_top - 0.03 * h,
        "head top {top}, hat top {hat_top}"
    );
    // Bones outside the body: the pelvis (trousers over the hips) and the fingers were
    // 25; measured 2 (the index finger's middle bones of the flat hands).
    let inside = r.checks.iter().find(|k| k.id == "place.inside").unwrap();
    assert!(inside.value <= 4.0, "{}", inside.detail);
    assert!(!inside.detail.contains("pelvis"), "{}", inside.detail);
}

/// The mean over the named variants of the major joints' mean error, in `form`.
fn form_mean(form: &str) -> f32 {
    let mut sum = 0.0;
    for v in VARIANTS {
        let (c, gt) = acc::load_form(corpus(), v.name, form);
        let h = acc::height_of(&c);
        let r = fit(&c, &FitOptions::default()).unwrap_or_else(|e| panic!("{v:?}: {e}"));
        let (m, _, _) = acc::summary(&acc::errors(&r.skeleton, &gt, h), |k| {
            acc::MAJOR.contains(&k)
        });
        sum += m;
    }
    sum / VARIANTS.len() as f32
}

#[test]
fn split_bodies_fit_within_2_percent() {
    let m = form_mean("split");
    assert!(m <= 2.0, "major mean {m:.2}% H");
}

#[test]
fn dressed_bodies_fit_within_2_percent() {
    let m = form_mean("dressed");
    assert!(m <= 2.0, "major mean {m:.2}% H");
}

#[test]
fn split_bodies_in_long_skirts_fit_within_2_percent() {
    let m = form_mean("skirt");
    assert!(m <= 2.0, "major mean {m:.2}% H");
}

/// `rig --rerig` of the shared character `name` (its file without `.glb`), reviewed.
fn rerig(name: &str) -> rigsmith::pipeline::RigOutput {
    let path = common::quaternius_dir().join(format!("{name}.glb"));
    let c = rigsmith::io::read_character(&path).unwrap();
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        ..Default::default()
    };
    rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap()
}

/// `rig --rerig` on each shared humanoid as it comes: no blocker, from the fit (the
/// chibi's arms, modelled bent but read as straight, were pre-bent to 15.00002 deg,
/// past the rubric's 15) or from any other stage.
fn rerigs_without_blocker(name: &str) {
    let out = rerig(name);
    let review = out.review.as_ref().unwrap();
    let bad: Vec<String> = review
        .checks
        .iter()
        .filter(|k| !k.passed && k.severity == Severity::Blocker)
        .map(|k| format!("{}: {}", k.id, k.detail))
        .collect();
    assert!(bad.is_empty(), "{name}: {bad:#?}");
}

#[test]
fn the_chibi_rerigs_without_blocker() {
    rerigs_without_blocker("platformer_Character_HumanoidRig");
}

/// `c`'s parts as one part with every corner kept as it is (no vertex shared between
/// the parts' triangles): what an exporter writes for a low-poly character as one
/// object, each face or material keeping its own copies of the corners it shares.
fn as_one_object(c: &Character) -> Character {
    let mut one = rigsmith::Part {
        name: "Knight".into(),
        ..c.parts[0].clone()
    };
    one.mesh.positions.clear();
    one.mesh.triangles.clear();
    one.mesh.normals = None;
    one.mesh.uvs = None;
    one.morphs.clear();
    for p in &c.parts {
        let base = one.mesh.positions.len() as u32;
        one.mesh.positions.extend_from_slice(&p.mesh.positions);
        one.mesh
            .triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    Character {
        parts: vec![one],
        ..Default::default()
    }
}

#[test]
fn a_character_as_one_object_with_split_corners_rigs_as_its_pieces_do() {
    // The knight written as one object at its materials' and faces' seams (2058
    // vertices for 480 positions, as Blender writes an OBJ without materials) was fitted on
    // its unwelded triangles: each face group judged alone as a solid, 50 bones were
    // "outside the body", the armoured legs' lower third rang like a skirt and the
    // whole body was hung with 15 skirt chains (241 bones), and 15 major bones came out
    // empty (a blocker). It is now welded as a character in pieces is.
    let (pieces, _) = quaternius("knight_KnightCharacter");
    let one = as_one_object(&pieces);
    assert!(!one.is_one_welded_part(), "the corners are split");
    let base = corpus().build(&CorpusOptions::default()).unwrap();
    assert!(base.is_one_welded_part(), "MakeHuman's body is welded");
    let rig =
        |c: &Character| rigsmith::rig(c, &rigsmith::RigOptions::default(), &mut |_, _| {}).unwrap();
    let (a, b) = (rig(&pieces), rig(&one));
    let (sa, sb) = (
        a.character.skeleton.as_ref().unwrap(),
        b.character.skeleton.as_ref().unwrap(),
    );
    assert_eq!(
        sb.bones.len(),
        sa.bones.len(),
        "no skirt chain on the body itself"
    );
    assert!(sb.bones.iter().all(|x| !x.name.starts_with("skirt")));
    let h = a.character.height();
    for (x, y) in sa.bones.iter().zip(&sb.bones) {
        assert!((x.head - y.head).length() <= 1e-5 * h, "{} moved", x.name);
    }
    // The same weights, vertex for vertex, as the pieces' in the same order.
    let wb = b.character.parts[0].weights.as_ref().unwrap();
    let mut v = 0;
    let mut worst = 0.0f32;
    for p in &a.character.parts {
        for wa in &p.weights.as_ref().unwrap().vertices {
            for i in wa {
                let other = wb.vertices[v]
                    .iter()
                    .find(|j| j.bone == i.bone)
                    .map_or(0.0, |j| j.weight);
                worst = worst.max((other - i.weight).abs());
            }
            v += 1;
        }
    }
    assert!(worst <= 1e-4, "weights differ by {worst}");
    let review = b.review.as_ref().unwrap();
    let failed = |sev: Severity| {
        review
            .checks
            .iter()
            .filter(|k| !k.passed && k.severity == sev && !k.id.starts_with("deform."))
            .map(|k| k.id.clone())
            .collect::<Vec<_>>()
    };
    assert!(
        failed(Severity::Blocker).is_empty(),
        "{:?}",
        failed(Severity::Blocker)
    );
    assert!(
        failed(Severity::Major).is_empty(),
        "{:?}",
        failed(Severity::Major)
    );
}

#[test]
fn the_chibi_rerigs_by_bone_heat_with_its_head_clear_of_the_arms() {
    // Rigged anew, the chibi's short thigh read as empty (its twist bone carried the
    // flesh), which sent the bind to the coarse volume (H/45); the volume's heat
    // reached the head ball from the arms beside it, and under the arm poses the head
    // sagged and the eyes sank into it (penetration.Head.4 in six poses, 11 majors).
    // Now: bone heat, each closed piece heated by the bones it holds; the majors left
    // are the elbow's volume under a 120 degree bend and the head ball nodding into the
    // chest (the artist's own rig fails both, worse).
    let path = common::quaternius_dir().join("platformer_Character_HumanoidRig.glb");
    let c = rigsmith::io::read_character(&path).unwrap();
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        ..Default::default()
    };
    let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
    assert_eq!(
        out.route,
        Some(rigsmith::bind::Route::BoneHeat),
        "{:?}",
        out.route_reasons
    );
    let review = out.review.as_ref().unwrap();
    let failed = |part: &str| {
        review
            .checks
            .iter()
            .filter(|k| !k.passed && k.severity == Severity::Major && k.id.contains(part))
            .map(|k| k.id.clone())
            .collect::<Vec<_>>()
    };
    assert!(
        failed("penetration").is_empty(),
        "{:?}",
        failed("penetration")
    );
    // Turning the head, the ball's lower front sweeps the top of the belly patch: its
    // pairs there are the junction sliding, not counted; the collar is clear.
    assert!(
        failed("head_turn")
            .iter()
            .all(|id| id == "deform.head_turn.collar_chin"),
        "{:?}",
        failed("head_turn")
    );
    assert!(failed("deform.").len() <= 3, "{:?}", failed("deform."));
    // The ears, closed pieces set into the head ball and holding no bone, follow the
    // head alone (free, their tips took the right forearm's and hand's weight and bent
    // with the arm in `arm_down`).
    let ears = &out.character.parts[out.character.find_part("Ears").unwrap()];
    let head = out
        .character
        .skeleton
        .as_ref()
        .unwrap()
        .find("head")
        .unwrap() as u32;
    for l in &ears.weights.as_ref().unwrap().vertices {
        assert!(l.len() == 1 && l[0].bone == head, "{l:?}");
    }
}

#[test]
fn the_chibi_whose_feet_have_no_toes_is_not_turned_around() {
    // Its round feet reach 1.0 % H ahead of the shins, toward its back (its belly juts
    // forward above them): read as toes, they turned it 180 degrees and it was rigged
    // facing away. Under 2.5 % H the feet say nothing and +Z, glTF's front, is kept
    // (the MakeHuman bodies' toes reach 6 to 9 % H; one turned around is still turned
    // back: `fit::model_check_finds_and_fix_model_repairs_placement`).
    let (c, _) = quaternius("platformer_Character_HumanoidRig");
    let r = rigsmith::fit::model_check(&c);
    assert_eq!(r.facing, "+Z");
    assert!(!r.has("model.facing"), "{:?}", r.problems);
    assert!(
        r.toe_reach < rigsmith::fit::FACING_MIN_H && r.toe_reach > 0.005,
        "{}",
        r.toe_reach
    );
    assert!(
        r.warnings.iter().any(|w| w.contains("no toes")),
        "{:?}",
        r.warnings
    );
    // Rigged, its face (the eyes and the mouth, `Head.4`) is still at the front.
    let z = part_z(&rerigged(&c).character, "Head.4");
    assert!(z > 0.3, "the face at z = {z}");
}

/// The mean z of part `name`'s vertices.
fn part_z(c: &Character, name: &str) -> f32 {
    let p = &c.parts[c.find_part(name).unwrap()];
    p.mesh.positions.iter().map(|p| p.z).sum::<f32>() / p.mesh.positions.len() as f32
}

/// `c` rigged as `rig --rerig --no-review` rigs it.
fn rerigged(c: &Character) -> rigsmith::pipeline::RigOutput {
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        review: false,
        ..Default::default()
    };
    rigsmith::rig(c, &o, &mut |_, _| {}).unwrap()
}

#[test]
fn a_chibi_facing_away_or_sideways_is_turned_by_the_knees_of_its_own_skeleton() {
    // Its feet have no toes, so they say nothing of the front. Its artist's knees lie
    // 1.9 % H ahead of the hip-to-ankle line, as riggers bend them: facing -Z or +X in
    // the file, it is turned to face +Z. Before, +Z was assumed: facing away it was
    // rigged with its knees and elbows bending backward (2 majors, elbow volume 0.77),
    // and facing +X it was refused ("neither a biped nor a quadruped").
    let path = common::quaternius_dir().join("platformer_Character_HumanoidRig.glb");
    let src = rigsmith::io::read_character(&path).unwrap();
    let r = rigsmith::fit::model_check(&src);
    assert_eq!(r.facing, "+Z");
    assert!(!r.has("model.facing"), "{:?}", r.problems);
    assert!((r.knee_reach - 0.019).abs() < 0.004, "{}", r.knee_reach);
    for (turn, axis) in [
        (std::f32::consts::PI, "-Z"),
        (std::f32::consts::FRAC_PI_2, "+X"),
    ] {
        let mut c = src.clone();
        c.transform(glam::Mat4::from_rotation_y(turn));
        let r = rigsmith::fit::model_check(&c);
        assert_eq!(r.facing, axis);
        assert!(r.has("model.facing"), "{:?}", r.problems);
        assert!(
            !r.warnings.iter().any(|w| w.contains("no toes")),
            "{:?}",
            r.warnings
        );
        // `rig --rerig` drops the skeleton before the model check; its knees still tell.
        let out = rerigged(&c);
        assert!(
            out.fixes.iter().any(|f| f.starts_with("turned every part")),
            "{:?}",
            out.fixes
        );
        let z = part_z(&out.character, "Head.4");
        assert!(z > 0.3, "{axis}: the face at z = {z}");
    }
    // Without a skeleton (the weights and joints taken off) nothing tells: +Z is
    // assumed and a warning says so, naming `--facing`.
    let (mut bare, _) = quaternius("platformer_Character_HumanoidRig");
    bare.transform(glam::Mat4::from_rotation_y(std::f32::consts::PI));
    let r = rigsmith::fit::model_check(&bare);
    assert_eq!((r.facing.as_str(), r.knee_reach), ("+Z", 0.0));
    assert!(
        r.warnings.iter().any(|w| w.contains("--facing")),
        "{:?}",
        r.warnings
    );
    // Facing +X with nothing to tell, it cannot be fitted; the refusal names `--facing`
    // (it stands 2.2 times as deep along Z as wide along X).
    bare.transform(glam::Mat4::from_rotation_y(-std::f32::consts::FRAC_PI_2));
    let e = rigsmith::rig(&bare, &Default::default(), &mut |_, _| {})
        .expect_err("refused")
        .to_string();
    assert!(e.contains("a biped facing +X or -X? (pass --facing"), "{e}");
}

#[test]
fn a_stated_front_turns_the_character_and_is_taken_as_it_is() {
    use rigsmith::io::space::{face_front, Facing};
    // The chibi without its skeleton, facing -Z: stated, it is turned back to where it
    // stood and the model check takes +Z without reading the toes.
    let (orig, _) = quaternius("platformer_Character_HumanoidRig");
    let mut c = orig.clone();
    c.transform(glam::Mat4::from_rotation_y(std::f32::consts::PI));
    let notes = face_front(&mut c, Facing::MinusZ);
    assert!(notes[0].contains("180 deg"), "{notes:?}");
    for (a, b) in c.parts.iter().zip(&orig.parts) {
        for (p, q) in a.mesh.positions.iter().zip(&b.mesh.positions) {
            assert!((*p - *q).length() < 1e-4, "{p} {q}");
        }
    }
    let r = rigsmith::fit::model_check(&c);
    assert!(r.facing_stated && r.facing == "+Z" && !r.has("model.facing"));
    assert!(
        !r.warnings.iter().any(|w| w.contains("no toes")),
        "{:?}",
        r.warnings
    );
    // A body whose toes point along -Z, stated as facing +Z: taken as it is (the toes
    // are not read); unstated, the toes turn it (the positive control).
    let (mut casual, _) = quaternius("men_Casual");
    casual.transform(glam::Mat4::from_rotation_y(std::f32::consts::PI));
    assert_eq!(rigsmith::fit::model_check(&casual).facing, "-Z");
    face_front(&mut casual, Facing::PlusZ);
    let r = rigsmith::fit::model_check(&casual);
    assert!(
        r.facing == "+Z" && !r.has("model.facing"),
        "{:?}",
        r.problems
    );
    for f in [Facing::PlusZ, Facing::MinusZ, Facing::PlusX, Facing::MinusX] {
        let d = glam::Mat4::from_rotation_y(f.turn()).transform_vector3(match f {
            Facing::PlusZ => glam::Vec3::Z,
            Facing::MinusZ => -glam::Vec3::Z,
            Facing::PlusX => glam::Vec3::X,
            Facing::MinusX => -glam::Vec3::X,
        });
        assert!(
            (d - glam::Vec3::Z).length() < 1e-5,
            "{f:?} turns its front to {d}"
        );
        assert_eq!(Facing::of_axis(f.axis()), Some(f));
    }
}

#[test]
fn the_knight_rerigs_without_blocker() {
    rerigs_without_blocker("knight_KnightCharacter");
}

#[test]
fn men_casual_rerigs_without_blocker() {
    rerigs_without_blocker("men_Casual");
}

/// The value of review check `id` of a rig.
fn check_value(out: &rigsmith::pipeline::RigOutput, id: &str) -> f64 {
    let review = out.review.as_ref().expect("reviewed");
    let k = review.checks.iter().find(|k| k.id == id);
    k.unwrap_or_else(|| panic!("no check {id}")).value
}

/// `men_Casual`'s body piece rises behind the head piece's neck (a high trapezius):
/// the neck's base, its depth read at its own height, fell 3 cm behind the neck (7.8 cm
/// behind the artist's joint, 4.7 % H), its bone leaned 30 degrees forward, and the
/// head turn swung the collar's front with the head (92 new pairs at the collar and the
/// chin, the nod 14). Kept in the neck: 2.75 % H from the artist's joint, turn 14, nod 0
/// (turn 1 once the neck sliding through the shirt's top is not counted).
#[test]
fn men_casual_neck_base_lies_in_its_neck_and_the_head_poses_keep_the_collar() {
    let (c, artist) = quaternius("men_Casual");
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        ..Default::default()
    };
    let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
    // `rig` moves the character (feet on the floor, centred): the same move applies to
    // the artist's joints.
    let centroid = |c: &Character| {
        let pts: Vec<glam::Vec3> = c
            .parts
            .iter()
            .flat_map(|p| p.mesh.positions.clone())
            .collect();
        pts.iter().copied().sum::<glam::Vec3>() / pts.len() as f32
    };
    let shift = centroid(&out.character) - centroid(&c);
    let s = out.character.skeleton.as_ref().unwrap();
    let neck = s.bones[s.find("neck_01").unwrap()].head;
    let want = artist.bones[artist.find("Neck").unwrap()].head + shift;
    let h = 1.870;
    let off = 100.0 * (neck - want).length() / h;
    assert!(
        off < 3.5,
        "neck_01 {off} % H from the artist's Neck ({neck} against {want})"
    );
    assert!(
        neck.z > want.z - 0.05,
        "the neck's base {} behind the artist's {}",
        neck.z,
        want.z
    );
    let turn = check_value(&out, "deform.head_turn.collar_chin");
    let nod = check_value(&out, "deform.head_nod.collar_chin");
    // 0 since the neck's turn corrective (2 without it: tests/it/neck.rs).
    assert_eq!(
        turn, 0.0,
        "head turn: {turn} pairs at the collar and the chin"
    );
    assert!(
        nod <= 2.0,
        "head nod: {nod} pairs at the collar and the chin"
    );
}

#[test]
fn men_farmer_rerigs_without_blocker() {
    rerigs_without_blocker("men_Farmer");
}

/// The chibi's skin is closed pieces sunk into each other (arms into the torso, the
/// head ball resting on it). A pose slides each junction inside the other piece: those
/// pairs (one triangle inside the other piece at rest) are not self-intersections
/// anyone sees, and `deform.*.self_intersections` no longer counts them, as the collar
/// and the chin did not. Measured per 1000 triangles, with them -> without: head turn
/// 55.6 -> 18.0, head nod 56.7 -> 29.1, arm up 63.3 -> 47.9 (head turn 13.6 once pairs
/// of two triangles that both crossed into the other piece are left out too).
#[test]
fn the_chibis_sunk_pieces_sliding_are_not_counted_as_self_intersections() {
    let out = rerig("platformer_Character_HumanoidRig");
    for (pose, before) in [("head_turn", 55.6), ("head_nod", 56.7), ("arm_up.L", 63.3)] {
        let v = check_value(&out, &format!("deform.{pose}.self_intersections"));
        eprintln!("{pose}: {v:.1} per 1000 triangles (all pairs {before})");
        assert!(v < 0.9 * before, "{pose}: {v}");
    }
    assert!(check_value(&out, "deform.head_turn.self_intersections") < 25.0);
}

/// A low-poly neck crosses men_Casual's shirt top in one row of long triangles, half in
/// the shirt, and the shirt's closed top crosses the neck: turning the head slides the
/// line where they cut through each other along those same triangles. Each triangle of
/// such a pair had a corner inside the other's piece at rest (`review::intersect::
/// Pieces`); counted, they were majors at the collar and the chin (rerigged men_Casual
/// turn 14, men_Farmer turn 7 and nod 5). A pair whose collar triangle has no corner
/// in the neck still counts: the artist's own rig of men_Casual keeps some in the turn,
/// and the rerig 2 (1 when its twist bones were bound as bones of their own, bone heat
/// then weighting it, not the volume), which the neck's turn corrective clears
/// (`tests/it/neck.rs`).
#[test]
fn a_neck_sliding_through_a_shirts_top_is_not_a_collar_and_chin_pair() {
    let casual = rerig("men_Casual");
    let turn = check_value(&casual, "deform.head_turn.collar_chin");
    assert_eq!(turn, 0.0, "men_Casual head turn: {turn} pairs");
    let farmer = rerig("men_Farmer");
    for pose in ["head_turn", "head_nod"] {
        let v = check_value(&farmer, &format!("deform.{pose}.collar_chin"));
        assert_eq!(v, 0.0, "men_Farmer {pose}: {v} pairs");
    }
    let path = common::quaternius_dir().join("men_Casual.glb");
    let artist = rigsmith::io::read_character(&path).unwrap();
    let r = rigsmith::review::check(&artist, &rigsmith::review::CheckOptions::default()).unwrap();
    let k = r
        .checks
        .iter()
        .find(|k| k.id == "deform.head_turn.collar_chin")
        .expect("the artist's collar check");
    assert!(!k.passed && k.value >= 2.0, "{k:?}");
}

/// A symmetric character rerigged weighs both sides alike (`bind::mirror`, and the
/// volume's grid laid symmetric about the mid-plane): the knight (bone heat) had a
/// right shoulder at `upperarm_twist_01` 0.71 against the left's 0.47 (`weights.symmetry`
/// 0.072, limit 0.05), men_Farmer (the volume at H/90) a ring finger's tip 0.49
/// against 0.01 (0.38).
#[test]
fn symmetric_characters_rerig_with_both_sides_alike() {
    for name in ["knight_KnightCharacter", "men_Farmer"] {
        let out = rerig(name);
        assert!(
            out.route_reasons
                .iter()
                .any(|r| r.starts_with("mirrored: ")),
            "{name}: {:?}",
            out.route_reasons
        );
        let sym = check_value(&out, "weights.symmetry");
        eprintln!("{name}: weights.symmetry {sym:.4}");
        assert!(sym < 0.01, "{name}: worst left/right difference {sym}");
    }
}

/// The fit of a Quaternius character as `rig --rerig` makes it, and its `place.inside`
/// check.
fn inside_check(name: &str) -> (FitResult, rigsmith::Check) {
    let (c, _) = quaternius(name);
    let r = fit(&c, &FitOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let k = r
        .checks
        .iter()
        .find(|k| k.id == "place.inside")
        .cloned()
        .expect("place.inside");
    (r, k)
}

/// The knight's mitten has a thumb of its own hanging below the palm: the thumb chain
/// runs down its axis (it was spread inside the palm, thumb_01 and thumb_02 outside).
#[test]
fn the_knight_thumbs_lie_along_the_thumb() {
    let (r, k) = inside_check("knight_KnightCharacter");
    assert!(k.passed, "{}", k.detail);
    let lm = &r.landmarks;
    for j in ["thumb_02_l", "thumb_03_l", "thumb_04_l"] {
        let how = &lm.points[j].method;
        assert!(how.contains("digit's axis"), "{j}: {how}");
    }
    // The thumb runs down and out from the palm: its tip well below its base
    // (measured 0.17 m on a 5.6 m knight).
    let drop = lm.get("thumb_01_l").unwrap().y - lm.get("thumb_04_l").unwrap().y;
    assert!(drop > 0.1, "thumb drops {drop:.3}");
}

/// Spread fingers (a star hand): the wrist is found before the arm's section splits
/// into digits (it was found in the index finger), and each finger lies along its
/// digit, named in order across the hand.
fn spread_fingers_lie_along_their_digits(name: &str) {
    let (r, k) = inside_check(name);
    assert!(k.passed, "{name}: {}", k.detail);
    let lm = &r.landmarks;
    // The hand joint near the artist's (measured 4.5 and 4.1 % H on the two men; 11.2
    // and 11.3 with the wrist in the index finger).
    let (c, artist) = quaternius(name);
    let h = Body::of(&c, &BodyOptions::default()).unwrap().height;
    let e = artist_errors(&artist, &r.skeleton, h);
    let hand = e.iter().find(|x| x.0 == "hand_l").unwrap().1;
    assert!(hand < 6.0, "{name}: hand_l {hand:.2}% H from the artist's");
    // Index to pinky from the thumb side (+Z here) back.
    let z: Vec<f32> = ["index", "middle", "ring", "pinky"]
        .iter()
        .map(|f| lm.get(&format!("{f}_02_l")).unwrap().z)
        .collect();
    assert!(z.windows(2).all(|w| w[0] > w[1]), "{name}: {z:?}");
}

#[test]
fn men_casual_spread_fingers_lie_along_their_digits() {
    spread_fingers_lie_along_their_digits("men_Casual");
}

#[test]
fn men_farmer_spread_fingers_lie_along_their_digits() {
    spread_fingers_lie_along_their_digits("men_Farmer");
}

/// A biped in a Z-up file (men_Casual turned as a Z-up tool writes it: flat, 0.38 m
/// tall and 1.83 m long) is refused as lying down, which the command line answers with
/// `--up z` (`rigsmith-cli`'s hint). So is one turned the other way (head toward -Z),
/// whose sections show 4 leg-like loops under it (the message named only the count);
/// turned back to Y up (`io::space::to_gltf_space`, what `--up z` does) it rigs. The
/// knight lying on its back shows one section at every low cut (its legs together):
/// it was called a snake or a blob.
#[test]
fn a_biped_in_a_z_up_file_is_refused_as_lying_down_and_rigs_turned_back() {
    a_biped_lying_down("men_Casual");
    a_biped_lying_down("knight_KnightCharacter");
}

fn a_biped_lying_down(name: &str) {
    use rigsmith::io::space::{to_gltf_space, Units, Up};
    let path = common::quaternius_dir().join(format!("{name}.glb"));
    let c = rigsmith::io::read_character(&path).unwrap();
    let o = rigsmith::RigOptions {
        rigged: rigsmith::Rigged::Replace,
        review: false,
        ..Default::default()
    };
    let turned = |angle: f32| {
        let mut t = c.clone();
        t.transform(glam::Mat4::from_rotation_x(angle));
        t
    };
    for angle in [std::f32::consts::FRAC_PI_2, -std::f32::consts::FRAC_PI_2] {
        let e = match rigsmith::rig(&turned(angle), &o, &mut |_, _| {}) {
            Ok(_) => panic!("a biped lying down must not rig as it is"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("lying down"), "{name} turned {angle}: {e}");
    }
    let mut z_up = turned(std::f32::consts::FRAC_PI_2);
    to_gltf_space(&mut z_up, Up::Z, Units::Auto);
    let out = rigsmith::rig(&z_up, &o, &mut |_, _| {}).unwrap();
    assert!(out.character.skeleton.is_some());
}

/// A twist bone lies along its limb and shares the limb's flesh, so it changes neither
/// the weight route nor the limb's weights: binding the knight on its fitted skeleton
/// with one twist bone per limb segment and with none takes the same route, and on
/// every vertex the twist chain's weights sum to what the limb alone takes (measured:
/// the largest difference 0.0000 with eight influences). When the twist bone was a
/// bone of its own the two took different routes: bone heat with twist bones (nearest
/// bone by distance and by reach differing on 28 % of the skin), the volume without
/// (under 25 %).
#[test]
fn twist_bones_along_their_limbs_change_neither_the_route_nor_the_limbs_weights() {
    use rigsmith::bind::{bind, BindOptions};
    let (c, _) = quaternius("knight_KnightCharacter");
    let fitted = |twist| {
        fit(
            &c,
            &FitOptions {
                twist,
                ..Default::default()
            },
        )
        .unwrap()
        .skeleton
    };
    let (s1, s0) = (fitted(1), fitted(0));
    assert_eq!(s1.len(), s0.len() + 8, "one twist bone per limb segment");
    // Eight influences, so that the limit does not cut the chain's shares (with four,
    // the largest difference is 0.10, on 8 of the 2,058 vertices).
    let o = BindOptions {
        max_influences: 8,
        ..BindOptions::default()
    };
    let (b1, b0) = (bind(&c, &s1, &o).unwrap(), bind(&c, &s0, &o).unwrap());
    assert_eq!(b1.route, b0.route, "{:?}\n{:?}", b1.reasons, b0.reasons);
    // Each bone of s1 as the bone of s0 it weighs for: a twist bone as its limb.
    let to0: Vec<usize> = s1
        .bones
        .iter()
        .map(|b| match s0.find(&b.name) {
            Some(i) => i,
            None => s0.find(&s1.bones[b.parent.unwrap()].name).unwrap(),
        })
        .collect();
    let (mut max, mut over, mut n) = (0.0f32, 0usize, 0usize);
    for (w1, w0) in b1.weights.iter().zip(&b0.weights) {
        let (Some(w1), Some(w0)) = (w1, w0) else {
            continue;
        };
        for (v1, v0) in w1.vertices.iter().zip(&w0.vertices) {
            let mut d = vec![0.0f32; s0.len()];
            for i in v1 {
                d[to0[i.bone as usize]] += i.weight;
            }
            for i in v0 {
                d[i.bone as usize] -= i.weight;
            }
            let m = d.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            max = max.max(m);
            over += usize::from(m > 0.01);
            n += 1;
        }
    }
    eprintln!("knight, twist chains against limbs: largest difference {max:.4}, {over} of {n} vertices over 0.01");
    assert!(max < 1e-3, "largest difference {max}");
    assert!(over * 100 < n, "{over} of {n} vertices differ by over 0.01");
}

/// men_Farmer's straw hat (`Farmer_Head.1`, a crown and a brim that meet along a seam)
/// and its band (`Farmer_Head.3`) are accessories rigid to the bone they sit on: each
/// moves as one piece on `head`. Voted island by island, the hat's back brim over the
/// nape (48 of its 512 vertices) and the band's back (16 of 128) went to `neck_01`, so
/// a nod or a turn split them.
#[test]
fn men_farmers_hat_moves_in_one_piece_with_the_head() {
    let out = rerig("men_Farmer");
    let c = &out.character;
    let s = c.skeleton.as_ref().unwrap();
    for name in ["Farmer_Head.1", "Farmer_Head.3"] {
        let p = &c.parts[c.find_part(name).unwrap()];
        let w = p.weights.as_ref().unwrap();
        let mut bones = std::collections::BTreeMap::<&str, usize>::new();
        for v in &w.vertices {
            assert_eq!(v.len(), 1, "{name}: a rigid vertex has one bone: {v:?}");
            *bones
                .entry(s.bones[v[0].bone as usize].name.as_str())
                .or_default() += 1;
        }
        eprintln!("{name}: {bones:?}");
        assert_eq!(
            bones.keys().copied().collect::<Vec<_>>(),
            ["head"],
            "{name}"
        );
    }
}

/// men_Farmer with its left arm lowered `deg` degrees by its own skin (an asymmetric
/// pose, as a character exported from an animation frame comes), the weights then taken
/// off; with the artist's posed bones.
fn farmer_left_arm_down(deg: f32) -> (Character, Skeleton, Vec<(glam::Vec3, glam::Vec3)>) {
    use rigsmith::pose::{fk, ops, posed_matrices, skin_lbs, Pose};
    let path = common::quaternius_dir().join("men_Farmer.glb");
    let mut c = rigsmith::io::read_character(&path).unwrap();
    let s = c.skeleton.take().unwrap();
    let mut p = Pose::rest(&s);
    ops::rotate_world(
        &s,
        &mut p,
        s.find("UpperArm.L").unwrap(),
        glam::Vec3::Z,
        -deg,
    );
    let m = posed_matrices(&s, &p);
    for part in &mut c.parts {
        if let Some(w) = part.weights.take() {
            part.mesh.positions = skin_lbs(&part.mesh.positions, &w, &m);
            part.mesh.normals = None;
        }
    }
    let bones = fk::posed_bones(&s, &m);
    (c, s, bones)
}

/// The fit of [`farmer_left_arm_down`] and its elbows' and wrists' distances from the
/// artist's posed joints (left, right, left, right), % H.
fn farmer_arm_errors(deg: f32) -> (FitResult, Character, [f32; 4]) {
    let (c, s, posed) = farmer_left_arm_down(deg);
    let r = fit(&c, &FitOptions::default()).expect("the posed farmer must fit");
    assert!(blockers(&r).is_empty(), "{:?}", blockers(&r));
    let h = r.landmarks.height;
    let at = |artist: &str, fitted: &str| {
        let a = posed[s.find(artist).unwrap()].0;
        let f = r.skeleton.bones[r.skeleton.find(fitted).unwrap()].head;
        100.0 * (a - f).length() / h
    };
    let e = [
        at("LowerArm.L", "lowerarm_l"),
        at("LowerArm.R", "lowerarm_r"),
        at("Hand.L", "hand_l"),
        at("Hand.R", "hand_r"),
    ];
    (r, c, e)
}

#[test]
fn a_pose_that_is_not_symmetric_is_fitted_side_by_side() {
    // Measured: as it comes the fitted elbows lie 5.8 % H and the wrists 4.3 % H
    // from the artist's; with the left arm lowered 40 degrees the sides differ by up to
    // 27 % H and each side is fitted on its own: 5.4 / 5.8 and 4.1 / 4.3 % H, as far as
    // unposed.
    let (_, _, rest) = farmer_arm_errors(0.0);
    let (r, c, e) = farmer_arm_errors(40.0);
    eprintln!(
        "asymmetry {:.3} H; posed {e:?}, as it comes {rest:?}",
        r.landmarks.asymmetry
    );
    assert!(
        r.landmarks.per_side(),
        "asymmetry {}",
        r.landmarks.asymmetry
    );
    assert!(r
        .landmarks
        .notes
        .iter()
        .any(|n| n.contains("not symmetric")));
    assert!(
        e.iter().zip(&rest).all(|(p, u)| *p < u + 1.0),
        "posed {e:?}, as it comes {rest:?}"
    );
    let h = r.landmarks.height;
    let passed = |id: &str| r.checks.iter().find(|k| k.id == id).map(|k| k.passed);
    assert_eq!(passed("place.inside"), Some(true));
    // The body is posed: the arm's bones keep the pose, the rest must mirror.
    let sym = r.checks.iter().find(|k| k.id == "place.symmetry").unwrap();
    assert!(
        sym.passed && sym.detail.contains("posed asymmetrically"),
        "{}",
        sym.detail
    );
    // Positive control: a leg moved on that posed body still fails the symmetry.
    let mut bad = r.skeleton.clone();
    let k = bad.find("calf_r").unwrap();
    bad.bones[k].head.z += 0.05 * h;
    let out = rigsmith::fit::placement_checks(&c, &bad);
    let sym = out.iter().find(|k| k.id == "place.symmetry").unwrap();
    assert!(
        !sym.passed && sym.value > 3.0,
        "{} {}",
        sym.value,
        sym.detail
    );
}

/// The knight with both arms lowered `deg` degrees from its T pose by its own skin (its
/// hands then hang beside its thighs, as in its animations' first frame), each
/// vertex's bone with the most artist weight, and the height of its posed elbows (the
/// lower of the two).
fn knight_arms_down(deg: f32) -> (Character, Vec<Vec<String>>, f32) {
    use rigsmith::pose::{fk, ops, posed_matrices, skin_lbs, Pose};
    let path = common::quaternius_dir().join("knight_KnightCharacter.glb");
    let mut c = rigsmith::io::read_character(&path).unwrap();
    let s = c.skeleton.take().unwrap();
    let mut p = Pose::rest(&s);
    for (arm, sign) in [("UpperArm.L", -1.0), ("UpperArm.R", 1.0)] {
        ops::rotate_world(&s, &mut p, s.find(arm).unwrap(), glam::Vec3::Z, sign * deg);
    }
    let m = posed_matrices(&s, &p);
    let posed = fk::posed_bones(&s, &m);
    let elbow = ["LowerArm.L", "LowerArm.R"]
        .map(|b| posed[s.find(b).unwrap()].0.y)
        .into_iter()
        .fold(f32::INFINITY, f32::min);
    let mut dominant = Vec::new();
    for part in &mut c.parts {
        let w = part.weights.take().unwrap();
        part.mesh.positions = skin_lbs(&part.mesh.positions, &w, &m);
        part.mesh.normals = None;
        dominant.push(
            w.vertices
                .iter()
                .map(|v| {
                    let top = v.iter().max_by(|a, b| a.weight.total_cmp(&b.weight));
                    top.map_or(String::new(), |i| s.bones[i.bone as usize].name.clone())
                })
                .collect(),
        );
    }
    (c, dominant, elbow)
}

#[test]
fn arms_hanging_beside_the_trunk_do_not_heat_its_flanks_in_the_volume() {
    // In the volume each cell was heated by its nearest bone by plain distance: the
    // flanks of a trunk with the arms hanging 2 % H beside it lay nearer the arm's bone
    // than the spine, took up to half their weight from the arm, and raising the arms
    // pulled the trunk's sides up in a flap. A cell is now heated by the nearest bone it
    // sees through the solid.
    let (c, dominant, elbow) = knight_arms_down(75.0);
    let o = rigsmith::RigOptions {
        route: Some(rigsmith::bind::Route::Volumetric),
        ..Default::default()
    };
    let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
    let s = out.character.skeleton.as_ref().unwrap();
    let arm = |b: u32| {
        let n = &s.bones[b as usize].name;
        [
            "upperarm", "lowerarm", "hand", "thumb", "index", "middle", "ring", "pinky",
        ]
        .iter()
        .any(|k| n.starts_with(k))
    };
    let (mut trunk, mut pulled, mut worst) = (0usize, 0usize, 0.0f32);
    // The trunk under the elbows, where the forearms and hands hang beside it (higher
    // up, the armpit is the arm's and the trunk's both).
    for ((p, dom), input) in out.character.parts.iter().zip(&dominant).zip(&c.parts) {
        let w = p.weights.as_ref().unwrap();
        for ((v, d), q) in w.vertices.iter().zip(dom).zip(&input.mesh.positions) {
            if !["Torso", "Abdomen", "Hips"].contains(&d.as_str()) || q.y > elbow {
                continue;
            }
            trunk += 1;
            let on_arm: f32 = v.iter().filter(|i| arm(i.bone)).map(|i| i.weight).sum();
            worst = worst.max(on_arm);
            pulled += usize::from(on_arm > 0.25);
        }
    }
    let strain = out
        .review
        .as_ref()
        .unwrap()
        .checks
        .iter()
        .find(|k| k.id == "deform.arm_up.L.strain")
        .unwrap()
        .value;
    eprintln!("trunk vertices {trunk}, pulled by the arm over 0.25: {pulled}, worst {worst:.2}; arm_up.L strain {strain:.2} %");
    // Measured: 0 of 66 (the largest share 0.00); by the plain nearest bone 8 (0.40),
    // and arm_up.L strain 0.98 against 1.46 % of the edges.
    assert!(trunk >= 50, "{trunk} trunk vertices under the elbows");
    assert_eq!(pulled, 0, "{pulled} of {trunk}");
    assert!(worst <= 0.1, "{worst}");
    assert!(strain <= 1.2, "{strain}");
}

/// men_Farmer with its five head primitives (head, hat, hair, hat band, eyes) in one
/// part, as an OBJ written without materials or a file drawn from one texture atlas
/// holds them.
fn farmer_head_in_one_part() -> (Character, Skeleton) {
    let (c, artist) = quaternius("men_Farmer");
    let mut out = c.clone();
    out.parts.retain(|p| !p.name.starts_with("Farmer_Head"));
    let mut head = rigsmith::Part {
        name: "Farmer_Head".into(),
        ..Default::default()
    };
    for p in c.parts.iter().filter(|p| p.name.starts_with("Farmer_Head")) {
        head.mesh.append(&rigsmith::Mesh {
            normals: None,
            uvs: None,
            ..p.mesh.clone()
        });
    }
    out.parts.push(head);
    (out, artist)
}

#[test]
fn a_head_its_hat_and_its_eyes_in_one_part_are_told_apart() {
    let (mut one, artist) = farmer_head_in_one_part();
    let (pieces, _) = quaternius("men_Farmer");
    let before = one.body().unwrap();
    let head = one.find_part("Farmer_Head").unwrap();
    assert_eq!(before.roles[head].class, PartClass::Skin);
    // The mean over the mapped joints and the head joint's error, in % of the
    // artist's pieces' H (the same unit for all three).
    let h_pieces = pieces.body().unwrap().height;
    let fit_h = |c: &Character| {
        let h = c.body().unwrap().height;
        let r = fit(c, &FitOptions::default()).unwrap();
        assert!(blockers(&r).is_empty(), "{:?}", blockers(&r));
        let e = artist_errors(&artist, &r.skeleton, h_pieces);
        let head = e.iter().find(|x| x.0 == "head").unwrap().1;
        (mean(&e), head, h)
    };
    let (err_before, head_before, h_before) = fit_h(&one);

    let said = rigsmith::model::pieces::separate_mixed_parts(&mut one);
    eprintln!("{said:?}");
    assert_eq!(said.len(), 1, "{said:?}");
    let body = one.body().unwrap();
    let role = |name: &str| body.roles[one.find_part(name).unwrap()].class;
    assert_eq!(role("Farmer_Head"), PartClass::Skin);
    assert_eq!(role("Farmer_Head.garment"), PartClass::Garment);
    assert_eq!(role("Farmer_Head.rigid"), PartClass::Rigid);
    // The eyes are the rigid part: the artist's eye primitive (`Farmer_Head.4`, 48
    // vertices) and the eyeballs its head primitive holds (48), nothing else.
    let eyes = &pieces.parts[pieces.find_part("Farmer_Head.4").unwrap()].mesh;
    let rigid = &one.parts[one.find_part("Farmer_Head.rigid").unwrap()].mesh;
    assert!(eyes.positions.iter().all(|q| rigid.positions.contains(q)));
    assert_eq!(rigid.positions.len(), 96);
    let (lo, hi) = rigid.bounds();
    assert!(hi.y - lo.y < 0.02 * before.height, "{lo} {hi}");
    // The hat's crown and brim left the skin: every vertex of the artist's hat is in
    // the garment part.
    let hat = &pieces.parts[pieces.find_part("Farmer_Head.1").unwrap()].mesh;
    let garment = &one.parts[one.find_part("Farmer_Head.garment").unwrap()].mesh;
    assert!(hat.positions.iter().all(|q| garment.positions.contains(q)));
    let (err_after, head_after, h_after) = fit_h(&one);
    let (err_pieces, head_pieces, _) = fit_h(&pieces);
    eprintln!(
        "H {h_before:.3} -> {h_after:.3} (pieces {h_pieces:.3}); mean joint error \
         {err_before:.2} -> {err_after:.2} % H (pieces {err_pieces:.2}); head \
         {head_before:.2} -> {head_after:.2} (pieces {head_pieces:.2})"
    );
    // The skin's top is the hair under the hat (welded to the head, so skin), no longer
    // the hat's crown.
    assert!(h_after < h_before - 0.02, "{h_before} -> {h_after}");
    assert!(head_after < head_before, "{head_before} -> {head_after}");
    assert!(
        err_after < err_pieces + 0.5,
        "{err_after} against {err_pieces}"
    );

    // Rigged, the eyes are weighted 1.0 to the head, and no rigid or garment check fails.
    let out = rigsmith::rig(&one, &rigsmith::RigOptions::default(), &mut |_, _| {}).unwrap();
    let c = &out.character;
    let s = c.skeleton.as_ref().unwrap();
    let w = c.parts[c.find_part("Farmer_Head.rigid").unwrap()]
        .weights
        .as_ref()
        .unwrap();
    for v in &w.vertices {
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(s.bones[v[0].bone as usize].name, "head");
    }
    let failed: Vec<String> = out
        .review
        .as_ref()
        .unwrap()
        .checks
        .iter()
        .filter(|k| !k.passed && k.severity >= Severity::Major && k.id.starts_with("weights."))
        .map(|k| format!("{}: {}", k.id, k.detail))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn characters_split_by_material_are_read_part_for_part() {
    for name in [
        "men_Casual",
        "men_Farmer",
        "knight_KnightCharacter",
        "platformer_Character_HumanoidRig",
        "animals_Fox",
    ] {
        let path = common::quaternius_dir().join(format!("{name}.glb"));
        let read = rigsmith::io::read_character(&path).unwrap();
        let written = rigsmith::io::read_as_written(&path).unwrap();
        assert_eq!(read.parts, written.parts, "{name}");
    }
}
