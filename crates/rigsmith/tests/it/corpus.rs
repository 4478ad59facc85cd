//! The MakeHuman corpus: body, parts, variants, artist skeletons and weights.

use std::sync::OnceLock;

use glam::Vec3;
use rigsmith::io::mpfb2::{self, BuildOptions, Corpus, VARIANTS};
use rigsmith::{Character, Mesh};

use crate::common;

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| Corpus::open(&common::mpfb2_dir()).expect("open corpus"))
}

fn base() -> &'static Character {
    static C: OnceLock<Character> = OnceLock::new();
    C.get_or_init(|| {
        corpus()
            .build(&BuildOptions::default())
            .expect("build base")
    })
}

/// Generalized winding number of a closed-ish triangle mesh around `p` (1 inside, 0 outside).
fn winding(m: &Mesh, p: Vec3) -> f32 {
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

#[test]
fn probe() {
    let c = base();
    let s = c.skeleton.as_ref().unwrap();
    for b in &s.bones {
        eprintln!(
            "{:12} {:?} h {:.3} t {:.3} x {:.2} d {}",
            b.name,
            b.parent.map(|p| s.bones[p].name.clone()),
            b.head,
            b.tail,
            b.x_axis,
            b.deform
        );
    }
    let (lo, hi) = c.parts[0].mesh.bounds();
    eprintln!("bounds {lo} {hi} warnings {:?}", c.warnings);
    for v in VARIANTS {
        let c = corpus()
            .build(&BuildOptions {
                variant: Some(v.name.into()),
                rig: None,
                ..Default::default()
            })
            .unwrap();
        let (lo, hi) = c.parts[0].mesh.bounds();
        eprintln!("{:12} {lo:.3} {hi:.3}", v.name);
    }
    let body = &c.parts[0].mesh;
    for b in &s.bones {
        eprintln!(
            "{:12} wn head {:.2} mid {:.2}",
            b.name,
            winding(body, b.head),
            winding(body, b.middle())
        );
    }
    let _ = mpfb2::data_dir();
}
