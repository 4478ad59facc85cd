//! The built-in mannequin: determinism, poses, height, head scale, parts, raw variant,
//! skirt and hair.

use std::collections::HashMap;

use glam::Vec3;
use rigsmith::mannequin::{self, ArmPose, MannequinOptions};
use rigsmith::{Character, Mesh};

/// Generalized winding number of a triangle mesh around `p` (1 inside a closed
/// outward mesh, 0 outside).
pub(crate) fn winding(m: &Mesh, p: Vec3) -> f32 {
    let mut total = 0.0f64;
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| (m.positions[i as usize] - p).as_dvec3());
        let (la, lb, lc) = (a.length(), b.length(), c.length());
        let num = a.dot(b.cross(c));
        let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2.0 * num.atan2(den);
    }
    (total / (4.0 * std::f64::consts::PI)) as f32
}

/// Number of edges not shared by exactly two triangles (0 for a closed manifold surface).
pub(crate) fn open_edges(m: &Mesh) -> usize {
    let mut e: HashMap<(u32, u32), u32> = HashMap::new();
    for t in &m.triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *e.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    e.values().filter(|&&c| c != 2).count()
}

/// Connected components of the triangles (vertices used by no triangle are ignored).
pub(crate) fn components(m: &Mesh) -> usize {
    let n = m.positions.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut a: usize) -> usize {
        while p[a] != a {
            p[a] = p[p[a]];
            a = p[a];
        }
        a
    }
    let mut used = vec![false; n];
    for t in &m.triangles {
        for k in 0..3 {
            used[t[k] as usize] = true;
            let (a, b) = (
                find(&mut parent, t[k] as usize),
                find(&mut parent, t[(k + 1) % 3] as usize),
            );
            if a != b {
                parent[a] = b;
            }
        }
    }
    (0..n)
        .filter(|&i| used[i] && find(&mut parent, i) == i)
        .count()
}

fn part<'a>(c: &'a Character, name: &str) -> &'a Mesh {
    &c.parts[c
        .find_part(name)
        .unwrap_or_else(|| panic!("no part {name}"))]
    .mesh
}

fn joint(j: &[(&'static str, Vec3)], name: &str) -> Vec3 {
    j.iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no joint {name}"))
        .1
}

/// A part's name, the bit patterns of its positions, and its triangles.
type PartBits = (String, Vec<[u32; 3]>, Vec<[u32; 3]>);

fn bits(c: &Character) -> Vec<PartBits> {
    c.parts
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.mesh
                    .positions
                    .iter()
                    .map(|v| v.to_array().map(f32::to_bits))
                    .collect(),
                p.mesh.triangles.clone(),
            )
        })
        .collect()
}

#[test]
fn default_body_is_a_realistic_closed_shell() {
    let o = MannequinOptions::default();
    let c = mannequin::build(&o);
    c.validate().unwrap();
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["body", "eyes", "shirt"]);
    assert!(c.skeleton.is_none() && c.warnings.is_empty());
    let body = part(&c, "body");
    let n = body.positions.len();
    assert!((10_000..=20_000).contains(&n), "{n} vertices");
    assert_eq!(components(body), 1);
    assert_eq!(open_edges(body), 0);
    // Positive control: a hole opens three edges.
    let mut holed = body.clone();
    holed.triangles.pop();
    assert_eq!(open_edges(&holed), 3);
    // Outward orientation: positive volume, about that of a 1.75 m person (60-90 l).
    let vol: f32 = body
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| body.positions[i as usize]);
            a.dot(b.cross(c)) / 6.0
        })
        .sum();
    assert!((0.045..0.095).contains(&vol), "volume {vol} m3");
    let (lo, hi) = body.bounds();
    assert!(lo.y.abs() < 1e-6, "feet at {}", lo.y);
    assert!((hi.y - 1.75).abs() < 1e-4, "top at {}", hi.y);
    // T pose: arm span about the height.
    assert!(
        (hi.x - lo.x) / 1.75 > 0.95 && (hi.x - lo.x) / 1.75 < 1.1,
        "span {}",
        hi.x - lo.x
    );
}

#[test]
fn same_options_same_numbers() {
    let o = MannequinOptions {
        skirt: true,
        hair: true,
        pose: ArmPose::A,
        ..Default::default()
    };
    assert_eq!(bits(&mannequin::build(&o)), bits(&mannequin::build(&o)));
    assert_eq!(
        mannequin::reference_joints(&o),
        mannequin::reference_joints(&o)
    );
    // Clean twin of the comparison: a different option gives different numbers.
    let o2 = MannequinOptions {
        head_scale: 1.01,
        ..o.clone()
    };
    assert_ne!(bits(&mannequin::build(&o)), bits(&mannequin::build(&o2)));
}

#[test]
fn joints_sit_inside_the_body() {
    for pose in [ArmPose::T, ArmPose::A] {
        let o = MannequinOptions {
            pose,
            ..Default::default()
        };
        let c = mannequin::build(&o);
        let body = part(&c, "body");
        for (name, p) in mannequin::reference_joints(&o) {
            if name.contains("_end") || name.starts_with("eye") {
                continue;
            }
            let w = winding(body, p);
            assert!(w > 0.5, "{pose:?} joint {name} at {p} has winding {w}");
        }
        // Positive control: a point in front of the chest is outside.
        let out = joint(&mannequin::reference_joints(&o), "spine_03") + Vec3::Z * 0.3;
        assert!(winding(body, out) < 0.5);
    }
}

#[test]
fn t_and_a_pose() {
    let t = mannequin::reference_joints(&MannequinOptions::default());
    let (s, h) = (joint(&t, "upperarm_l"), joint(&t, "hand_l"));
    assert!((s.y - h.y).abs() < 1e-5, "T arm is horizontal");
    for deg in [30.0f32, 45.0, 60.0] {
        let o = MannequinOptions {
            pose: ArmPose::A,
            arm_angle_deg: deg,
            ..Default::default()
        };
        let j = mannequin::reference_joints(&o);
        let (s, h) = (joint(&j, "upperarm_r"), joint(&j, "hand_r"));
        let angle = ((s.y - h.y) / (s.x - h.x).abs()).atan().to_degrees();
        assert!((angle - deg).abs() < 0.01, "{deg}: measured {angle}");
        // The body's width shrinks as the arms come down.
        let c = mannequin::build(&o);
        let (lo, hi) = part(&c, "body").bounds();
        let want = 2.0 * (joint(&j, "hand_end_l").x + 0.01 * 1.75);
        assert!(
            (hi.x - lo.x - want).abs() < 0.05,
            "{deg}: width {} vs {want}",
            hi.x - lo.x
        );
    }
}

#[test]
fn height_is_exact_and_shape_is_scale_free() {
    let a = mannequin::build(&MannequinOptions::default());
    let b = mannequin::build(&MannequinOptions {
        height: 0.5,
        ..Default::default()
    });
    for (pa, pb) in a.parts.iter().zip(&b.parts) {
        assert_eq!(pa.mesh.triangles, pb.mesh.triangles, "{}", pa.name);
        for (x, y) in pa.mesh.positions.iter().zip(&pb.mesh.positions) {
            assert!((*x * (0.5 / 1.75) - *y).length() < 1e-5, "{}", pa.name);
        }
    }
    let (_, hi) = part(&b, "body").bounds();
    assert!((hi.y - 0.5).abs() < 1e-5);
}

#[test]
fn head_scale_makes_a_bigger_head() {
    let head = |hs: f32| {
        let j = mannequin::reference_joints(&MannequinOptions {
            head_scale: hs,
            ..Default::default()
        });
        (
            joint(&j, "head_end").y - joint(&j, "head").y,
            joint(&j, "head_end").y,
        )
    };
    let (h1, top1) = head(1.0);
    let (h2, top2) = head(1.6);
    assert!((top1 - 1.75).abs() < 1e-3 && (top2 - 1.75).abs() < 1e-3);
    // The head grows 1.6x in generator units; the whole figure is renormalised to the
    // same height, so the head's share of the height grows by more than 1.3x.
    assert!(h2 / h1 > 1.3, "head {h1} -> {h2}");
}

#[test]
fn eyes_and_shirt_are_separate_overlapping_parts() {
    let c = mannequin::build(&MannequinOptions::default());
    let body = part(&c, "body");
    let eyes = part(&c, "eyes");
    assert_eq!(components(eyes), 2);
    assert_eq!(c.parts[1].material.as_deref(), Some("eyes"));
    // Eyes sit in the head, in front.
    let j = mannequin::reference_joints(&MannequinOptions::default());
    let (lo, hi) = eyes.bounds();
    assert!(lo.y > joint(&j, "head").y && hi.y < joint(&j, "head_end").y);
    // The shirt is an offset copy of the torso: each of its vertices about H/170
    // outside the body surface.
    let shirt = part(&c, "shirt");
    assert!(shirt.positions.len() > 2000, "{}", shirt.positions.len());
    let (slo, shi) = shirt.bounds();
    assert!(slo.y > joint(&j, "pelvis").y - 0.1 && shi.y < joint(&j, "head").y);
    let mut outside = 0;
    for p in shirt.positions.iter().step_by(25) {
        if winding(body, *p) < 0.5 {
            outside += 1;
        }
    }
    let sampled = shirt.positions.len().div_ceil(25);
    assert!(
        outside as f32 >= 0.97 * sampled as f32,
        "{outside}/{sampled} outside"
    );
    // Without eyes and shirt: only the body.
    let bare = mannequin::build(&MannequinOptions {
        eyes: false,
        shirt: false,
        ..Default::default()
    });
    assert_eq!(bare.parts.len(), 1);
}

#[test]
fn raw_variant_is_intersecting_primitives() {
    let o = MannequinOptions {
        raw: true,
        ..Default::default()
    };
    let c = mannequin::build(&o);
    c.validate().unwrap();
    let body = part(&c, "body");
    // About thirty closed shells, not one.
    let k = components(body);
    assert!(k >= 25, "{k} components");
    // Intersecting: many vertices of the shells lie inside the union of the others
    // (a point inside another shell has total winding above 1.5).
    let inside = body
        .positions
        .iter()
        .step_by(37)
        .filter(|p| winding(body, **p) > 0.75)
        .count();
    assert!(inside > 20, "{inside} buried vertices");
    let (lo, hi) = body.bounds();
    assert!(lo.y.abs() < 1e-6 && (hi.y - 1.75).abs() < 1e-4);
    // The smooth shell has no buried vertices (clean twin).
    let shell = mannequin::build(&MannequinOptions::default());
    let sb = part(&shell, "body");
    let buried = sb
        .positions
        .iter()
        .step_by(37)
        .filter(|p| winding(sb, **p) > 0.75)
        .count();
    assert_eq!(buried, 0);
}

#[test]
fn skirt_hangs_from_the_waist_and_hair_from_the_scalp() {
    let o = MannequinOptions {
        skirt: true,
        hair: true,
        ..Default::default()
    };
    let c = mannequin::build(&o);
    c.validate().unwrap();
    let j = mannequin::reference_joints(&o);
    let body = part(&c, "body");
    let skirt = part(&c, "skirt");
    let (lo, hi) = skirt.bounds();
    // Waistband between the pelvis and spine_02; hem above the knees.
    assert!(
        hi.y > joint(&j, "pelvis").y && hi.y < joint(&j, "spine_02").y,
        "top {}",
        hi.y
    );
    assert!(lo.y > joint(&j, "calf_l").y + 0.1, "hem {}", lo.y);
    // It flares: the hem ring is wider than the waistband.
    let width = |y0: f32| {
        skirt
            .positions
            .iter()
            .filter(|p| (p.y - y0).abs() < 0.005)
            .map(|p| p.x.abs())
            .fold(0.0f32, f32::max)
    };
    assert!(width(lo.y) > 1.4 * width(hi.y));
    for p in skirt.positions.iter().step_by(7) {
        assert!(winding(body, *p) < 0.5, "skirt vertex {p} inside the body");
    }
    let hair = part(&c, "hair");
    assert_eq!(components(hair), 3, "cap and two tails");
    let (hlo, hhi) = hair.bounds();
    assert!(hhi.y > joint(&j, "head_end").y, "cap over the scalp");
    // Tails hang down the back to below the shoulders, behind the body.
    assert!(
        hlo.y < joint(&j, "upperarm_l").y - 0.05,
        "tails end at {}",
        hlo.y
    );
    let lowest = hair
        .positions
        .iter()
        .min_by(|a, b| a.y.total_cmp(&b.y))
        .unwrap();
    assert!(lowest.z < joint(&j, "spine_03").z - 0.1);
    for p in hair.positions.iter().step_by(5) {
        assert!(winding(body, *p) < 0.5, "hair vertex {p} inside the body");
    }
    // Parts stay separate and named.
    let names: Vec<&str> = c.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["body", "eyes", "shirt", "skirt", "hair"]);
}

#[test]
fn bad_options_are_refused_or_reported() {
    let bad = MannequinOptions {
        height: f32::NAN,
        ..Default::default()
    };
    assert!(bad.validate().unwrap_err().to_string().contains("height"));
    let c = mannequin::build(&bad);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    let (_, hi) = part(&c, "body").bounds();
    assert!((hi.y - 1.75).abs() < 1e-4);
    let hs = MannequinOptions {
        head_scale: 9.0,
        ..Default::default()
    };
    assert!(hs.validate().is_err());
    assert!(MannequinOptions::default().validate().is_ok());
}

#[test]
fn same_glb_bytes_twice() {
    let tmp = crate::common::tmpdir();
    let o = MannequinOptions {
        hair: true,
        skirt: true,
        ..Default::default()
    };
    let (a, b) = (tmp.path().join("a.glb"), tmp.path().join("b.glb"));
    rigsmith::io::write_character(&a, &mannequin::build(&o), &Default::default()).unwrap();
    rigsmith::io::write_character(&b, &mannequin::build(&o), &Default::default()).unwrap();
    let (x, y) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(x.len() > 100_000);
    assert_eq!(x, y);
    assert_eq!(crate::common::validate_gltf(&a).0, 0, "validator errors");
    // The raw variant too.
    let r = tmp.path().join("raw.glb");
    let raw = mannequin::build(&MannequinOptions {
        raw: true,
        pose: ArmPose::A,
        ..Default::default()
    });
    rigsmith::io::write_character(&r, &raw, &Default::default()).unwrap();
    assert_eq!(crate::common::validate_gltf(&r).0, 0, "validator errors");
}

#[test]
fn the_skin_around_the_eyes_is_finer_and_stays_closed_and_outward() {
    // The grid's edges are about two thirds of an eyeball's radius; around each eye the
    // triangles are split twice (a quarter of that), the mesh staying closed and every
    // new triangle facing out.
    let o = MannequinOptions::default();
    let c = mannequin::build(&o);
    let body = part(&c, "body");
    let eyes = part(&c, "eyes");
    assert_eq!(open_edges(body), 0);
    assert_eq!(components(body), 1);
    let (lo, hi) = eyes.bounds();
    let centres: Vec<Vec3> = {
        let mid = 0.5 * (lo.x + hi.x);
        let mut s = [(Vec3::ZERO, 0usize); 2];
        for p in &eyes.positions {
            let k = usize::from(p.x < mid);
            s[k].0 += *p;
            s[k].1 += 1;
        }
        s.iter().map(|(v, n)| *v / *n as f32).collect()
    };
    let radius = eyes
        .positions
        .iter()
        .map(|p| {
            centres
                .iter()
                .map(|c| (*p - *c).length())
                .fold(f32::MAX, f32::min)
        })
        .fold(0.0f32, f32::max);
    assert!(
        radius > 0.0 && radius < 0.25 * (hi.x - lo.x),
        "eye radius {radius}"
    );
    let head = 0.5 * (centres[0] + centres[1]) - Vec3::Z * 4.0 * radius;
    let (mut near_len, mut near_n, mut far_len, mut far_n) = (0.0f32, 0, 0.0f32, 0);
    let mut worst_facing = f32::MAX;
    for t in &body.triangles {
        let [a, b, cc] = t.map(|i| body.positions[i as usize]);
        let m = (a + b + cc) / 3.0;
        let d = centres
            .iter()
            .map(|e| (m - *e).length())
            .fold(f32::MAX, f32::min);
        let e = ((a - b).length() + (b - cc).length() + (cc - a).length()) / 3.0;
        if d < 1.5 * radius {
            near_len += e;
            near_n += 1;
            let n = (b - a).cross(cc - a).normalize_or_zero();
            worst_facing = worst_facing.min(n.dot((m - head).normalize()));
        } else if d > 4.0 * radius && d < 8.0 * radius {
            far_len += e;
            far_n += 1;
        }
    }
    let (near, far) = (near_len / near_n as f32, far_len / far_n as f32);
    eprintln!(
        "eye radius {radius:.4}; mean edge near the eyes {:.2} r ({near_n} triangles), \
         farther {:.2} r; worst facing {worst_facing:.2}",
        near / radius,
        far / radius
    );
    assert!(near < 0.35 * far, "near {near} far {far}");
    assert!(
        worst_facing > 0.0,
        "a triangle near the eyes faces in: {worst_facing}"
    );
}
