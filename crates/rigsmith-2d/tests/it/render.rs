//! Rendering the sample rigs, at rest and posed.

use rigsmith_2d::art::PartProbe;
use rigsmith_2d::build::{build_rig, BuildOptions};
use rigsmith_2d::render::{render, Pose, RenderOptions};

use crate::common::{read_sample, sample};

const K: f32 = 345.0 / 1024.0;

fn near(c: [u8; 4], want: [u8; 3], tol: i32) -> bool {
    (0..3).all(|i| (c[i] as i32 - want[i] as i32).abs() <= tol)
}

const SHIRT: [u8; 3] = [0x3a, 0x7b, 0xd5];
const BG: [u8; 3] = [240, 240, 240];

fn kit_scene() -> (tempfile::TempDir, PartProbe, serde_json::Value) {
    let (t, dir) = sample("kit");
    let (doc, _) = read_sample(&dir);
    let probe = PartProbe {
        root: dir,
        prefix: "characters/kit/".into(),
    };
    let o = BuildOptions {
        probe: Some(probe.clone()),
        ..BuildOptions::default()
    };
    let scene = build_rig("kit", &doc, &o).unwrap().to_value();
    (t, probe, scene)
}

#[test]
fn kit_at_rest_and_posed() {
    let (_t, probe, scene) = kit_scene();
    let rest = render(&scene, &probe, &Pose::default(), &RenderOptions::default()).unwrap();
    assert!(rest.notes.is_empty(), "{:?}", rest.notes);
    assert_eq!(rest.height, 512);
    assert!(rest.width > 150 && rest.width < 400, "{}", rest.width);
    // The right upper arm hangs from its shoulder joint; the torso is shirt blue; the
    // eyes are white and dark; the corner is background.
    let shoulder = (-110.0 * K, -285.0 * K);
    assert!(near(
        rest.at(shoulder.0, shoulder.1 + 30.0).unwrap(),
        SHIRT,
        10
    ));
    assert!(near(rest.at(0.0, -150.0 * K).unwrap(), SHIRT, 10));
    assert!(
        near(rest.at(0.0, -50.0 * K).unwrap(), [0x6b, 0x42, 0x26], 10),
        "belt"
    );
    let eye = (-20.0 * K, -(315.0 + 110.0) * K);
    assert!(
        near(rest.at(eye.0, eye.1).unwrap(), [30, 30, 40], 30),
        "{:?}",
        rest.at(eye.0, eye.1)
    );
    assert!(near(
        rest.at(eye.0 - 10.0 * K, eye.1).unwrap(),
        [255, 255, 255],
        30
    ));
    assert_eq!(&rest.rgba[..4], &[240, 240, 240, 255]);

    // Swing the right arm out by 60 degrees: where it hung is background now.
    let pose = Pose::parse(
        br#"{"bones": {"arm_upper_r": {"rotation_deg": 60}, "head": {"rotation_deg": 10}}}"#,
    )
    .unwrap();
    let posed = render(&scene, &probe, &pose, &RenderOptions::default()).unwrap();
    let (s, c) = 60f32.to_radians().sin_cos();
    let out = (shoulder.0 - 30.0 * s, shoulder.1 + 30.0 * c);
    let p_rest = posed.pixel_of(shoulder.0, shoulder.1 + 30.0);
    let p_out = posed.pixel_of(out.0, out.1);
    let px = |r: &rigsmith_2d::render::Rendered, (x, y): (i64, i64)| {
        let i = (y as usize * r.width as usize + x as usize) * 4;
        [r.rgba[i], r.rgba[i + 1], r.rgba[i + 2], r.rgba[i + 3]]
    };
    assert!(near(px(&posed, p_rest), BG, 3), "{:?}", px(&posed, p_rest));
    assert!(
        near(px(&posed, p_out), SHIRT, 10),
        "{:?}",
        px(&posed, p_out)
    );
    // The forearm followed its upper arm (bones nesting): the hand is out there too.
    let hand_len = 150.0 * K + 132.0 * K - 0.08 * 160.0 * K;
    let hand = (shoulder.0 - hand_len * s, shoulder.1 + hand_len * c);
    assert!(
        near(posed.at(hand.0, hand.1).unwrap(), [0xf1, 0xc2, 0x7d], 12),
        "{:?}",
        posed.at(hand.0, hand.1)
    );

    let out_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(out_dir.join("kit_rest.png"), rest.to_png().unwrap()).unwrap();
    std::fs::write(out_dir.join("kit_posed.png"), posed.to_png().unwrap()).unwrap();
    // Deterministic.
    let again = render(&scene, &probe, &pose, &RenderOptions::default()).unwrap();
    assert!(again.rgba == posed.rgba);
}

#[test]
fn lamp_renders_with_raster_glow() {
    let (_t, dir) = sample("lamp");
    let (doc, _) = read_sample(&dir);
    let probe = PartProbe {
        root: dir,
        prefix: "props/lamp/".into(),
    };
    let o = BuildOptions {
        probe: Some(probe.clone()),
        art_prefix: "props/".into(),
        ..BuildOptions::default()
    };
    let scene = build_rig("lamp", &doc, &o).unwrap().to_value();
    let r = render(
        &scene,
        &probe,
        &Pose::default(),
        &RenderOptions {
            size: 300,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    assert_eq!(r.height, 300);
    // The pole is grey, the glow (painted over the shade) tints yellow.
    assert!(near(r.at(0.0, -250.0 * K).unwrap(), [0x99, 0x99, 0x99], 12));
    let g = r.at(0.0, -420.0 * K).unwrap();
    assert!(g[0] > 230 && g[1] > 200 && g[2] < 200, "{g:?}");
    std::fs::write(
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lamp.png"),
        r.to_png().unwrap(),
    )
    .unwrap();
}

#[test]
fn missing_art_renders_as_a_placeholder_and_is_said() {
    let (_t, probe, scene) = kit_scene();
    std::fs::remove_file(probe.root.join("parts/head.svg")).unwrap();
    let r = render(&scene, &probe, &Pose::default(), &RenderOptions::default()).unwrap();
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    assert!(r.notes[0].starts_with("part 'torso/head' drawn as a placeholder"));
    let p = Pose::parse(br#"{"bones": {"tail": {"rotation_deg": 5}}}"#).unwrap();
    std::fs::write(
        probe.root.join("parts/head.svg"),
        "<svg width='10' height='10'/>",
    )
    .unwrap();
    let r = render(&scene, &probe, &p, &RenderOptions::default()).unwrap();
    assert_eq!(r.notes, ["pose bone 'tail' moves no built part"]);
}

#[test]
fn bad_poses_are_refused() {
    for (text, want) in [
        (
            r#"{"bones": {"a": {"rotation_deg": "x"}}}"#,
            "bones.a.rotation_deg",
        ),
        (r#"{"bones": {"a": {"spin": 1}}}"#, "unknown field"),
        (r#"{"bones": []}"#, "bones"),
        (r#"{"bones": {"a": 3}}"#, "bones.a"),
        ("nope", "not valid JSON"),
    ] {
        let e = Pose::parse(text.as_bytes()).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
    }
    assert!(Pose::parse(br#"{"bones": {"a": {"rotation_deg": 5, "scale_x": 2}}}"#).is_ok());
}
