//! Shared helpers: small scenes and pixel counting.

use glam::Vec3;
use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::Character;
use rigsmith_render::Image;
use std::path::PathBuf;

/// The MakeHuman corpus folder, downloaded on first use when it is nowhere (fails
/// loudly when it cannot be had: never skip).
pub fn mpfb2_dir() -> PathBuf {
    rigsmith_testdata::mpfb2_dir()
}

/// The MakeHuman body with its eyes, game_engine skeleton and artist weights.
pub fn makehuman() -> Character {
    let corpus = Corpus::open(&mpfb2_dir()).expect("open corpus");
    corpus
        .build(&CorpusOptions {
            parts: vec!["body".into(), "eyes".into()],
            ..CorpusOptions::default()
        })
        .expect("build body")
}

/// An axis-aligned square in the plane z = `z`, from `(x0, y0)` to `(x1, y1)`, facing +Z.
pub fn square(x0: f32, y0: f32, x1: f32, y1: f32, z: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    (
        vec![
            Vec3::new(x0, y0, z),
            Vec3::new(x1, y0, z),
            Vec3::new(x1, y1, z),
            Vec3::new(x0, y1, z),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
}

/// Pixels where `pred(r, g, b)` holds, inside the rectangle `[x0, x1) x [y0, y1)`.
pub fn count_in(
    img: &Image,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    pred: impl Fn([u8; 3]) -> bool,
) -> usize {
    let mut n = 0;
    for y in y0..y1.min(img.height) {
        for x in x0..x1.min(img.width) {
            let p = img.get(x, y).unwrap();
            if pred([p[0], p[1], p[2]]) {
                n += 1;
            }
        }
    }
    n
}
