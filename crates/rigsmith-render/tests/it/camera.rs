//! Camera framing: views, margins, scale invariance.

use glam::Vec3;
use rigsmith_render::{demo, part_colour, render, Camera, DrawPart, RenderOptions, View};

#[test]
fn views_put_the_characters_left_where_a_rigger_expects() {
    let (lo, hi) = (Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 2.0, 1.0));
    let left = Vec3::new(1.0, 1.0, 0.0); // character's left hand
    let face = Vec3::new(0.0, 1.0, 1.0); // in front
    let x = |v: View, p: Vec3| Camera::frame(v, lo, hi, 100, 100).project(p).0;
    assert!(
        x(View::Front, left) > 60.0,
        "front: left side on the right of the picture"
    );
    assert!(x(View::Back, left) < 40.0, "back: left side on the left");
    assert!(
        x(View::Right, face) > 60.0,
        "right view: faces the right of the picture"
    );
    assert!(x(View::Left, face) < 40.0, "left view: faces the left");
    let top = Camera::frame(View::Top, lo, hi, 100, 100);
    assert!(top.project(face).1 > 60.0, "top: face towards the bottom");
    assert!(top.project(left).0 > 60.0, "top: left on the right");
    // Depth grows away from the viewer.
    let f = Camera::frame(View::Front, lo, hi, 100, 100);
    assert!(f.project(face).2 < f.project(Vec3::new(0.0, 1.0, -1.0)).2);
}

#[test]
fn framing_fills_the_picture_minus_the_margin() {
    for view in [View::Front, View::Back, View::Right, View::Left, View::Top] {
        let (lo, hi) = (Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.5, 1.8, 0.25));
        let cam = Camera::frame(view, lo, hi, 300, 200);
        let mut xs = (f32::MAX, f32::MIN);
        let mut ys = (f32::MAX, f32::MIN);
        for i in 0..8 {
            let p = Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            );
            let (x, y, _) = cam.project(p);
            xs = (xs.0.min(x), xs.1.max(x));
            ys = (ys.0.min(y), ys.1.max(y));
        }
        let m = Camera::MARGIN * 200.0;
        // Inside the margin on every side, touching it on at least one axis.
        assert!(
            xs.0 >= m - 1e-3 && xs.1 <= 300.0 - m + 1e-3,
            "{view:?} x {xs:?}"
        );
        assert!(
            ys.0 >= m - 1e-3 && ys.1 <= 200.0 - m + 1e-3,
            "{view:?} y {ys:?}"
        );
        let touch_x = (xs.1 - xs.0) - (300.0 - 2.0 * m);
        let touch_y = (ys.1 - ys.0) - (200.0 - 2.0 * m);
        assert!(
            touch_x.abs() < 1e-2 || touch_y.abs() < 1e-2,
            "{view:?}: not framed tight"
        );
        // Centred.
        assert!(((xs.0 + xs.1) / 2.0 - 150.0).abs() < 1e-2);
        assert!(((ys.0 + ys.1) / 2.0 - 100.0).abs() < 1e-2);
    }
}

#[test]
fn a_degenerate_box_or_a_zero_size_picture_does_not_panic() {
    let p = Vec3::new(1.0, 2.0, 3.0);
    let cam = Camera::frame(View::Front, p, p, 64, 64);
    assert!(cam.scale.is_finite() && cam.scale > 0.0);
    let (x, y, _) = cam.project(p);
    assert!((x - 32.0).abs() < 1e-3 && (y - 32.0).abs() < 1e-3);
    let cam = Camera::frame(
        View::Custom {
            eye_dir: Vec3::Y,
            up: Vec3::Y,
        },
        Vec3::ZERO,
        Vec3::ONE,
        0,
        0,
    );
    let img = render(&[], None, &cam, &RenderOptions::default());
    assert_eq!((img.width, img.height, img.pixels.len()), (0, 0, 0));
}

/// The same figure at 1 mm, 1.8 m and 1 km renders to (nearly) the same picture.
#[test]
fn pictures_do_not_depend_on_absolute_size() {
    let c = demo::figure(10);
    let picture = |k: f32| {
        let pos: Vec<Vec<Vec3>> = c
            .parts
            .iter()
            .map(|p| p.mesh.positions.iter().map(|v| *v * k).collect())
            .collect();
        let parts: Vec<DrawPart> = c
            .parts
            .iter()
            .zip(&pos)
            .enumerate()
            .map(|(i, (p, v))| DrawPart::new(v, &p.mesh.triangles, part_colour(i)))
            .collect();
        let (lo, hi) = c.bounds();
        let cam = Camera::frame(View::Right, lo * k, hi * k, 160, 160);
        render(&parts, None, &cam, &RenderOptions::default())
    };
    let base = picture(1.0);
    for k in [1e-3f32, 1e3] {
        let other = picture(k);
        let differ = base
            .pixels
            .chunks_exact(4)
            .zip(other.pixels.chunks_exact(4))
            .filter(|(a, b)| a != b)
            .count();
        assert!(
            differ * 1000 < 160 * 160 * 5,
            "scale {k}: {differ} pixels differ"
        );
    }
}
