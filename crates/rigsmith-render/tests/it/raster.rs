//! The renderer: coverage, depth order, back faces, x-ray, near clip, bones, labels,
//! determinism.

use glam::Vec3;
use rigsmith_render::{demo, render, Bones, Camera, DrawPart, Image, RenderOptions, View};

use crate::common::{count_in, square};

fn plain() -> RenderOptions {
    RenderOptions {
        outlines: false,
        ..RenderOptions::default()
    }
}

#[test]
fn a_square_covers_exactly_the_pixels_whose_centres_it_contains() {
    let (pos, tris) = square(0.0, 0.0, 1.0, 1.0, 0.0);
    let cam = Camera::frame(View::Front, Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0), 64, 64);
    let bg = RenderOptions::default().background;
    let img = render(
        &[DrawPart::new(&pos, &tris, [200, 200, 200])],
        None,
        &cam,
        &plain(),
    );
    // Expected: pixel centres inside the projected square.
    let (ax, ay, _) = cam.project(Vec3::new(0.0, 1.0, 0.0));
    let (bx, by, _) = cam.project(Vec3::new(1.0, 0.0, 0.0));
    let inside = |lo: f32, hi: f32| {
        (0..64)
            .filter(|i| (*i as f32 + 0.5) >= lo && (*i as f32 + 0.5) <= hi)
            .count()
    };
    let expected = inside(ax, bx) * inside(ay, by);
    assert_eq!(expected, 56 * 56);
    assert_eq!(img.count_not(bg), expected);
}

#[test]
fn a_sphere_covers_a_disc() {
    let mut mesh = rigsmith::Mesh::default();
    demo::capsule(&mut mesh, Vec3::ZERO, Vec3::new(0.0, 1e-6, 0.0), 1.0, 48);
    let cam = Camera::frame(View::Front, Vec3::splat(-1.0), Vec3::splat(1.0), 200, 200);
    let img = render(
        &[DrawPart::new(
            &mesh.positions,
            &mesh.triangles,
            [180, 180, 180],
        )],
        None,
        &cam,
        &plain(),
    );
    let r = cam.scale; // radius 1 m in pixels
    let disc = std::f32::consts::PI * r * r;
    let covered = img.count_not(RenderOptions::default().background) as f32;
    // A 48-gon inscribed in the circle covers a little less than the disc.
    assert!(
        (covered / disc - 0.997).abs() < 0.01,
        "covered {covered} vs disc {disc}"
    );
}

#[test]
fn the_nearer_part_hides_the_farther_whatever_the_order() {
    let (back, t) = square(0.0, 0.0, 1.0, 1.0, 0.0);
    let (front, _) = square(0.5, 0.0, 1.5, 1.0, 0.5);
    let red = [220, 40, 40];
    let green = [40, 220, 40];
    let cam = Camera::frame(View::Front, Vec3::ZERO, Vec3::new(1.5, 1.0, 0.5), 120, 80);
    let opts = plain();
    for swap in [false, true] {
        let mut parts = vec![
            DrawPart::new(&back, &t, red),
            DrawPart::new(&front, &t, green),
        ];
        if swap {
            parts.reverse();
        }
        let img = render(&parts, None, &cam, &opts);
        let (x, y, _) = cam.project(Vec3::new(0.75, 0.5, 0.5));
        let p = img.get(x as u32, y as u32).unwrap();
        assert!(
            p[1] > p[0] + 50,
            "overlap should be green (front), got {p:?}"
        );
        // From behind, the red square is nearer (seen from its back: still drawn).
        let cam_b = Camera::frame(View::Back, Vec3::ZERO, Vec3::new(1.5, 1.0, 0.5), 120, 80);
        let img = render(&parts, None, &cam_b, &opts);
        let (x, y, _) = cam_b.project(Vec3::new(0.75, 0.5, 0.0));
        let p = img.get(x as u32, y as u32).unwrap();
        assert!(
            p[0] > p[1] + 30,
            "from behind the overlap should be red, got {p:?}"
        );
    }
}

#[test]
fn back_faces_are_drawn_darker_not_culled() {
    let (pos, tris) = square(0.0, 0.0, 1.0, 1.0, 0.0);
    let part = [DrawPart::new(&pos, &tris, [200, 200, 200])];
    let bb = (Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0));
    let front = render(
        &part,
        None,
        &Camera::frame(View::Front, bb.0, bb.1, 64, 64),
        &plain(),
    );
    let back = render(
        &part,
        None,
        &Camera::frame(View::Back, bb.0, bb.1, 64, 64),
        &plain(),
    );
    let bg = RenderOptions::default().background;
    assert_eq!(front.count_not(bg), back.count_not(bg));
    let f = front.get(32, 32).unwrap();
    let b = back.get(32, 32).unwrap();
    assert!(
        b[0] > 30 && (b[0] as f32) < 0.8 * f[0] as f32,
        "front {f:?} back {b:?}"
    );
}

#[test]
fn xray_shows_what_is_behind_a_translucent_part() {
    let (back, t) = square(0.0, 0.0, 1.0, 1.0, 0.0);
    let (front, _) = square(0.0, 0.0, 1.0, 1.0, 0.5);
    let red = [230, 30, 30];
    let blue = [30, 30, 230];
    let cam = Camera::frame(View::Front, Vec3::ZERO, Vec3::new(1.0, 1.0, 0.5), 64, 64);
    let opaque_front = DrawPart::new(&front, &t, blue);
    let see_through = DrawPart {
        alpha: 0.4,
        ..opaque_front
    };
    let back_part = DrawPart::new(&back, &t, red);
    let solid = render(&[back_part, opaque_front], None, &cam, &plain());
    let ghost = render(&[back_part, see_through], None, &cam, &plain());
    let s = solid.get(32, 32).unwrap();
    let g = ghost.get(32, 32).unwrap();
    assert!(s[0] < 40, "opaque blue hides red: {s:?}");
    assert!(g[0] > 80 && g[2] > 40, "x-ray mixes red behind blue: {g:?}");
    // The global x-ray switch does the same for opaque parts.
    let xr = RenderOptions {
        xray: true,
        ..plain()
    };
    let all = render(&[DrawPart::new(&front, &t, blue)], None, &cam, &xr);
    let bgc = RenderOptions::default().background;
    let p = all.get(32, 32).unwrap();
    assert!(
        (p[0] as i32 - bgc[0] as i32).abs() < 40,
        "background shows through: {p:?}"
    );
    // Two translucent parts: both tint the pixel.
    let two = render(
        &[
            DrawPart {
                alpha: 0.5,
                ..back_part
            },
            see_through,
        ],
        None,
        &cam,
        &plain(),
    );
    let p = two.get(32, 32).unwrap();
    assert!(p[0] > 40 && p[2] > 60, "both layers visible: {p:?}");
}

#[test]
fn a_closeup_cuts_away_what_stands_in_front() {
    let (back, t) = square(-1.0, -1.0, 1.0, 1.0, 0.0);
    let (front, _) = square(-1.0, -1.0, 1.0, 1.0, 2.0);
    let parts = [
        DrawPart::new(&back, &t, [230, 30, 30]),
        DrawPart::new(&front, &t, [30, 30, 230]),
    ];
    let far = Camera::frame(View::Front, Vec3::splat(-1.0), Vec3::splat(1.0), 64, 64);
    let close = Camera::closeup(View::Front, Vec3::ZERO, 0.5, 64, 64);
    assert_eq!(close.near, Some(-0.5));
    let p = render(&parts, None, &far, &plain()).get(32, 32).unwrap();
    assert!(p[2] > 150, "blue in front without clip: {p:?}");
    let p = render(&parts, None, &close, &plain()).get(32, 32).unwrap();
    assert!(p[0] > 150, "red once the front is cut away: {p:?}");
}

#[test]
fn bones_are_drawn_over_an_opaque_body_with_highlights() {
    let (pos, t) = square(-1.0, 0.0, 1.0, 2.0, 0.5);
    let heads = [Vec3::new(-0.5, 0.2, 0.0), Vec3::new(0.5, 0.2, 0.0)];
    let tails = [Vec3::new(-0.5, 1.8, 0.0), Vec3::new(0.5, 1.8, 0.0)];
    let cam = Camera::frame(
        View::Front,
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(1.0, 2.0, 0.5),
        128,
        128,
    );
    let body = [DrawPart::new(&pos, &t, [120, 120, 120])];
    let opts = RenderOptions {
        side_colours: false,
        ..RenderOptions::default()
    };
    let none = render(&body, None, &cam, &opts);
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &[None, None],
        highlight: &[false, true],
    };
    let with = render(&body, Some(&bones), &cam, &opts);
    let hl = opts.highlight_colour;
    let orange = |c: [u8; 3]| {
        c[0] > 90 && c[0] as i32 > c[2] as i32 + 60 && c[1] as i32 > c[2] as i32 + 40 && c[1] < c[0]
    };
    let (lx, _, _) = cam.project(Vec3::new(-0.5, 0.0, 0.0));
    let (rx, _, _) = cam.project(Vec3::new(0.5, 0.0, 0.0));
    let band = |img: &Image, x: f32, f: &dyn Fn([u8; 3]) -> bool| {
        count_in(img, x as u32 - 8, 0, x as u32 + 8, 128, f)
    };
    assert_eq!(band(&none, rx, &orange), 0);
    assert!(
        band(&with, rx, &orange) > 60,
        "the highlighted bone is orange ({hl:?})"
    );
    assert_eq!(band(&with, lx, &orange), 0, "the other bone is not");
    let pale = |c: [u8; 3]| {
        c.iter().all(|&v| v > 125) && c.iter().max().unwrap() - c.iter().min().unwrap() < 40
    };
    assert_eq!(
        band(&none, lx, &pale),
        0,
        "the body alone is darker than a bone"
    );
    let n = band(&with, lx, &pale);
    assert!(n > 60, "the plain bone is pale: {n}");
}

#[test]
fn labels_put_ink_beside_their_point() {
    let (pos, t) = square(0.0, 0.0, 1.0, 1.0, 0.0);
    let cam = Camera::frame(View::Front, Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0), 128, 128);
    let part = [DrawPart::new(&pos, &t, [90, 90, 90])];
    let white = |c: [u8; 3]| c == [255, 255, 255];
    let quiet = render(&part, None, &cam, &plain());
    let labelled = render(
        &part,
        None,
        &cam,
        &RenderOptions {
            labels: vec![
                (Vec3::new(0.2, 0.5, 0.0), "knee.L".into()),
                (Vec3::new(0.2, 0.52, 0.0), "shin.L".into()),
            ],
            ..plain()
        },
    );
    let (x, y, _) = cam.project(Vec3::new(0.2, 0.5, 0.0));
    let (x, y) = (x as u32, y as u32);
    assert_eq!(count_in(&quiet, x, y - 25, x + 60, y + 25, white), 0);
    let ink = count_in(&labelled, x, y - 25, x + 60, y + 25, white);
    // Two 6-letter labels at scale 1 plus the point dots: well over 100 lit pixels.
    assert!(ink > 100, "label ink {ink}");
}

#[test]
fn same_scene_same_bytes_whatever_the_threads() {
    let c = demo::figure(12);
    let s = c.skeleton.clone().unwrap();
    let heads: Vec<Vec3> = s.bones.iter().map(|b| b.head).collect();
    let tails: Vec<Vec3> = s.bones.iter().map(|b| b.tail).collect();
    let parents: Vec<Option<usize>> = s.bones.iter().map(|b| b.parent).collect();
    let parts = DrawPart::parts_of(&c);
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &parents,
        highlight: &[],
    };
    let (lo, hi) = c.bounds();
    let cam = Camera::frame(View::Front, lo, hi, 200, 300);
    let opts = RenderOptions {
        xray: true,
        labels: vec![(s.bones[6].head, "forearm.L".into())],
        ..RenderOptions::default()
    };
    let a = render(&parts, Some(&bones), &cam, &opts).to_png_bytes();
    let b = render(&parts, Some(&bones), &cam, &opts).to_png_bytes();
    assert_eq!(a, b);
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let c = pool.install(|| render(&parts, Some(&bones), &cam, &opts).to_png_bytes());
        assert_eq!(a, c, "{threads} threads");
    }
}

#[test]
fn broken_geometry_is_skipped_not_a_panic() {
    let pos = [Vec3::ZERO, Vec3::X, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Y];
    let tris = [[0, 1, 3], [0, 1, 2], [0, 1, 99], [0, 0, 0]];
    let cam = Camera::frame(View::Front, Vec3::ZERO, Vec3::ONE, 32, 32);
    let vc = [[1u8, 2, 3]]; // wrong length: ignored
    let part = DrawPart {
        vertex_colours: Some(&vc),
        ..DrawPart::new(&pos, &tris, [200, 100, 50])
    };
    let img = render(&[part], None, &cam, &plain());
    // Only the one good triangle is drawn: half of the framed square.
    let n = img.count_not(RenderOptions::default().background);
    let side = 32.0 - 2.0 * rigsmith_render::Camera::MARGIN * 32.0;
    assert!((n as f32 - side * side / 2.0).abs() < side * 1.5, "{n}");
}

#[test]
fn png_round_trip_and_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut img = Image::new(7, 5, [10, 20, 30]);
    img.put(3, 2, [255, 0, 0]);
    let path = dir.path().join("x.png");
    img.save_png(&path).unwrap();
    assert_eq!(Image::load(&path).unwrap(), img);
    let bad = dir.path().join("missing/dir/x.png");
    let err = img.save_png(&bad).unwrap_err().to_string();
    assert!(err.contains("missing/dir"), "{err}");
    std::fs::write(dir.path().join("not.png"), b"hello").unwrap();
    let err = Image::load(dir.path().join("not.png"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("not.png"), "{err}");
}

#[test]
fn demo_capsules_face_outwards() {
    let mut mesh = rigsmith::Mesh::default();
    let (a, b) = (Vec3::new(0.1, 0.2, 0.3), Vec3::new(0.5, 0.9, -0.2));
    demo::capsule(&mut mesh, a, b, 0.1, 12);
    demo::tube(&mut mesh, a, b, 0.2, 12);
    for t in &mesh.triangles {
        let [p, q, r] = t.map(|i| mesh.positions[i as usize]);
        let n = (q - p).cross(r - p);
        let c = (p + q + r) / 3.0;
        // Outwards: away from the axis.
        let d = b - a;
        let foot = a + d * ((c - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        assert!(n.dot(c - foot) > 0.0, "triangle {t:?} faces inwards");
    }
}

#[test]
fn bone_octahedra_face_outwards() {
    use rigsmith_render::bones::{octahedron, OCTAHEDRON_FACES};
    for (h, t) in [
        (Vec3::ZERO, Vec3::Y),
        (Vec3::new(0.2, 1.0, 0.1), Vec3::new(0.9, 0.4, -0.3)),
        (Vec3::ZERO, Vec3::X),
    ] {
        let p = octahedron(h, t);
        let centre = p.iter().copied().sum::<Vec3>() / 6.0;
        for f in OCTAHEDRON_FACES {
            let [a, b, c] = f.map(|i| p[i as usize]);
            let n = (b - a).cross(c - a);
            assert!(
                n.dot((a + b + c) / 3.0 - centre) > 0.0,
                "face {f:?} of {h}->{t} faces inwards"
            );
        }
    }
}
