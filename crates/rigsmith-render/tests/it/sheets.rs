//! The review sheets on the synthetic figure, the mannequin and the MakeHuman body.

use glam::Vec3;
use rigsmith::mannequin::{self, MannequinOptions};
use rigsmith::review::{posed_character, Skinning};
use rigsmith::Character;
use rigsmith_render::sheet::Sheet;
use rigsmith_render::{
    demo, joint_sheet, placement_sheet, pose_sheet, render, weight_heatmap, Camera, DrawPart,
    Image, RenderOptions, View,
};

use crate::common::{count_in, makehuman};

const BG: [u8; 3] = [44, 46, 52];

/// Non-background pixels in a cell of a sheet (`cell` square cells under the header).
fn cell_ink(img: &Image, cell: u32, col: u32, row: u32) -> usize {
    let h = Sheet::header_height(cell);
    // Skip the caption corner and the border rules.
    count_in(
        img,
        col * cell + 2,
        h + row * cell + 30,
        (col + 1) * cell - 2,
        h + (row + 1) * cell - 2,
        |c| c != BG,
    )
}

/// A left-side bone's blue (shaded): blue well above red.
fn is_left_blue(c: [u8; 3]) -> bool {
    c[2] > 110 && c[2] as i32 > c[0] as i32 + 60
}

/// A right-side bone's red (shaded): red well above green and blue.
fn is_right_red(c: [u8; 3]) -> bool {
    c[0] > 110 && c[0] as i32 > c[1] as i32 + 45 && c[0] as i32 > c[2] as i32 + 45
}

fn rest_rows(c: &Character) -> (Vec<Vec<Vec3>>, Vec<(Vec3, Vec3)>) {
    let s = c.skeleton.as_ref().unwrap();
    (
        c.parts.iter().map(|p| p.mesh.positions.clone()).collect(),
        s.bones.iter().map(|b| (b.head, b.tail)).collect(),
    )
}

#[test]
fn placement_sheet_of_the_figure_shows_body_and_side_coloured_bones() {
    let c = demo::figure(12);
    let s = c.skeleton.clone().unwrap();
    let img = placement_sheet(&c, &s, 512);
    let cell = 256;
    assert_eq!(
        (img.width, img.height),
        (512, 512 + Sheet::header_height(cell))
    );
    for (col, row) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        assert!(
            cell_ink(&img, cell, col, row) > 2000,
            "panel {col},{row} is empty"
        );
    }
    // Front panel: the character's left bones (blue) on the right half, right (red) on the left.
    let h = Sheet::header_height(cell);
    let blue_right = count_in(&img, 128, h, 256, h + 256, is_left_blue);
    let blue_left = count_in(&img, 0, h, 128, h + 256, is_left_blue);
    let red_left = count_in(&img, 0, h, 128, h + 256, is_right_red);
    assert!(
        blue_right > 100 && blue_left < 10,
        "blue {blue_left} | {blue_right}"
    );
    assert!(red_left > 100, "red {red_left}");
    // Head close-up: the eye bones are labelled (white text).
    let white = count_in(&img, 256, h + 256, 512, h + 512, |c| c == [255, 255, 255]);
    assert!(white > 150, "labels in the close-up: {white}");
}

#[test]
fn placement_sheet_of_the_makehuman_body() {
    let c = makehuman();
    let s = c.skeleton.clone().unwrap();
    let img = placement_sheet(&c, &s, 512);
    let cell = 256;
    let h = Sheet::header_height(cell);
    // The body fills the front panel's height: ink in the top and bottom tenths.
    assert!(count_in(&img, 0, h + 14, 256, h + 40, |c| c != BG) > 100);
    assert!(count_in(&img, 0, h + 220, 256, h + 244, |c| c != BG) > 100);
    // Bones of both sides are visible in front, and bones are visible in the side view.
    assert!(count_in(&img, 0, h, 256, h + 256, is_left_blue) > 150);
    assert!(count_in(&img, 0, h, 256, h + 256, is_right_red) > 150);
    assert!(
        count_in(&img, 256, h, 512, h + 256, |c| is_left_blue(c)
            || is_right_red(c))
            > 150
    );
}

#[test]
fn pose_sheet_has_a_row_per_pose_and_says_what_it_could_not_draw() {
    let c = makehuman();
    let (lib, _) = rigsmith::pose::library::default_library(c.skeleton.as_ref().unwrap());
    let wanted = ["arm_down.L", "elbow_120.L"];
    let mut rows = Vec::new();
    for p in lib.iter().filter(|p| wanted.contains(&p.name.as_str())) {
        let (pos, bones) = posed_character(&c, p, Skinning::Lbs);
        rows.push((p.name.clone(), pos, bones));
    }
    assert_eq!(
        rows.len(),
        2,
        "poses {:?}",
        lib.iter().map(|p| &p.name).collect::<Vec<_>>()
    );
    let img = pose_sheet(&rows, &c, 512);
    assert_eq!(img.height, 2 * 256 + Sheet::header_height(256));
    for r in 0..2 {
        for col in 0..2 {
            assert!(cell_ink(&img, 256, col, r) > 2000, "row {r} col {col}");
        }
    }
    // The posed arm differs from rest: the two rows' front panels differ.
    let (rest, rb) = rest_rows(&c);
    let a = pose_sheet(&[("rest".into(), rest.clone(), rb.clone())], &c, 512);
    let row0 = |img: &Image| {
        let h = Sheet::header_height(256) as usize;
        img.pixels[(h + 40) * 512 * 4..(h + 256) * 512 * 4].to_vec()
    };
    assert_ne!(row0(&a), row0(&img));
    // A part with the wrong vertex count is left out and said.
    let mut broken = rest;
    broken[0].pop();
    let b = pose_sheet(&[("rest".into(), broken, rb)], &c, 512);
    let good = count_in(&a, 0, 40, 256, 280, |c| c != BG);
    let bad = count_in(&b, 0, 40, 256, 280, |c| c != BG);
    assert!(
        bad * 2 < good,
        "the broken body is not drawn: {bad} vs {good}"
    );
    // No rows: a sheet saying so, not a panic.
    let e = pose_sheet(&[], &c, 256);
    assert_eq!(e.width, 256);
}

#[test]
fn joint_sheet_frames_the_joint_and_marks_it() {
    let c = demo::figure(16);
    let s = c.skeleton.clone().unwrap();
    let elbow = s.bones[6].head;
    let (rest, _) = rest_rows(&c);
    let items = vec![("elbow.L".to_string(), rest, elbow, 0.05f32)];
    let img = joint_sheet(&items, &c, 512);
    let h = Sheet::header_height(256);
    // The marker (yellow) sits in the middle of each panel.
    let yellow = |c: [u8; 3]| c[0] > 230 && c[1] > 200 && c[2] < 100;
    for col in 0..2 {
        let n = count_in(
            &img,
            col * 256 + 108,
            h + 108,
            col * 256 + 148,
            h + 148,
            yellow,
        );
        assert!(n > 20, "marker in panel {col}: {n}");
    }
    // The arm fills a good part of the close-up (a 0.05 m limb in a 0.25 m frame).
    assert!(cell_ink(&img, 256, 0, 0) > 8000);
    // Bad radius: still a picture.
    let (rest, _) = rest_rows(&c);
    let img = joint_sheet(&[("x".into(), rest, elbow, f32::NAN)], &c, 256);
    assert!(img.count_not(BG) > 100);
    assert!(joint_sheet(&[], &c, 256).count_not(BG) > 0);
}

#[test]
fn weight_heatmap_is_hot_where_the_bone_pulls() {
    let c = demo::figure(12);
    let forearm = 6; // forearm.L
    let img = weight_heatmap(&c, forearm, 512);
    let h = Sheet::header_height(256);
    let red = |c: [u8; 3]| c[0] > 150 && c[1] < 90 && c[2] < 80;
    // Front: the character's left arm is on the right of the picture.
    let hot_right = count_in(&img, 128, h + 20, 256, h + 256, red);
    let hot_left = count_in(&img, 0, h + 20, 128, h + 256, red);
    assert!(
        hot_right > 100 && hot_left == 0,
        "front {hot_left} | {hot_right}"
    );
    // Back: mirrored.
    let back_left = count_in(&img, 256, h + 20, 384, h + 256, red);
    assert!(back_left > 50, "back {back_left}");
    // A bone outside the skeleton: no heat anywhere, and the title says it.
    let none = weight_heatmap(&c, 99, 512);
    assert_eq!(count_in(&none, 0, h, 512, h + 256, red), 0);
    assert_ne!(
        none.pixels[..512 * 4 * h as usize],
        img.pixels[..512 * 4 * h as usize]
    );
}

#[test]
fn weight_heatmap_of_the_makehuman_forearm() {
    let c = makehuman();
    let s = c.skeleton.as_ref().unwrap();
    let b = s.find("lowerarm_l").expect("lowerarm_l");
    let img = weight_heatmap(&c, b, 512);
    let h = Sheet::header_height(256);
    let red = |c: [u8; 3]| c[0] > 150 && c[1] < 90 && c[2] < 80;
    assert!(count_in(&img, 128, h + 20, 256, h + 256, red) > 30);
    assert_eq!(count_in(&img, 0, h + 20, 110, h + 256, red), 0);
}

#[test]
fn the_mannequin_renders_front_and_side() {
    let c = mannequin::build(&MannequinOptions::default());
    let parts = DrawPart::parts_of(&c);
    let (lo, hi) = c.bounds();
    for view in [View::Front, View::Right, View::Top] {
        let cam = Camera::frame(view, lo, hi, 256, 256);
        let img = render(&parts, None, &cam, &RenderOptions::default());
        let ink = img.count_not(BG);
        assert!(ink > 3000, "{view:?}: {ink}");
        // The framed figure touches the margins: ink near both ends of its long axis.
        let m = (Camera::MARGIN * 256.0) as u32;
        let near_edge = count_in(&img, 0, m, 256, m + 4, |c| c != BG)
            + count_in(&img, m, 0, m + 4, 256, |c| c != BG);
        assert!(near_edge > 0, "{view:?}: not framed");
    }
}

#[test]
fn sheets_are_deterministic_and_bounded_in_size() {
    let c = demo::figure(10);
    let s = c.skeleton.clone().unwrap();
    assert_eq!(
        placement_sheet(&c, &s, 300).to_png_bytes(),
        placement_sheet(&c, &s, 300).to_png_bytes()
    );
    assert_eq!(
        weight_heatmap(&c, 3, 300).to_png_bytes(),
        weight_heatmap(&c, 3, 300).to_png_bytes()
    );
    // A silly width is capped, not allocated.
    let big = weight_heatmap(&c, 3, u32::MAX);
    assert_eq!(big.width, rigsmith_render::sheets::MAX_SIZE);
}

#[test]
fn joint_closeups_leave_out_flesh_far_from_the_joint() {
    let c = demo::figure(16);
    let s = c.skeleton.clone().unwrap();
    let elbow = s.bones[6].head; // elbow.L
    let (mut posed, _) = rest_rows(&c);
    // Positive control: move the shirt right in front of the elbow, 0.5 m away from it.
    let clean = joint_sheet(&[("elbow.L".into(), posed.clone(), elbow, 0.1)], &c, 256);
    let wall = c.parts[2]
        .mesh
        .positions
        .iter()
        .map(|p| *p + (elbow - Vec3::new(0.0, 1.15, -0.6)))
        .collect();
    posed[2] = wall;
    let with_far = joint_sheet(&[("elbow.L".into(), posed.clone(), elbow, 0.1)], &c, 256);
    assert_eq!(
        clean.pixels, with_far.pixels,
        "flesh 0.6 m away is not drawn in a 0.05 m joint close-up"
    );
    // Twin: the same shirt moved onto the elbow is drawn.
    posed[2] = c.parts[2]
        .mesh
        .positions
        .iter()
        .map(|p| *p + (elbow - Vec3::new(0.0, 1.15, 0.0)))
        .collect();
    let with_near = joint_sheet(&[("elbow.L".into(), posed, elbow, 0.1)], &c, 256);
    let differ = clean
        .pixels
        .chunks_exact(4)
        .zip(with_near.pixels.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ > 500,
        "the shirt on the elbow is drawn: {differ} pixels differ"
    );
}
