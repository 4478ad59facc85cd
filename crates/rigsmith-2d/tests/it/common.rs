//! Shared helpers: the sample rigs (a character and a prop) and their raster parts.

use std::path::{Path, PathBuf};

use image::{Rgba, RgbaImage};
use rigsmith_2d::model::RigDocument;
use serde_json::Value;

/// The fixtures folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A model from a JSON literal (panics on a bad literal: test input).
pub fn doc(v: Value) -> RigDocument {
    RigDocument::from_value(&v).expect("valid test document")
}

fn ellipse(img: &mut RgbaImage, cx: f32, cy: f32, rx: f32, ry: f32, c: [u8; 4]) {
    for y in 0..img.height() {
        for x in 0..img.width() {
            let dx = (x as f32 + 0.5 - cx) / rx;
            let dy = (y as f32 + 0.5 - cy) / ry;
            if dx * dx + dy * dy <= 1.0 {
                img.put_pixel(x, y, Rgba(c));
            }
        }
    }
}

fn png(img: &RgbaImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// The raster parts of the sample rigs, `(path relative to fixtures, PNG bytes)`,
/// generated deterministically.
pub fn raster_parts() -> Vec<(&'static str, Vec<u8>)> {
    // Eyes: 80 x 24, two eyes with pupils on transparent.
    let mut eyes = RgbaImage::new(80, 24);
    for cx in [20.0, 60.0] {
        ellipse(&mut eyes, cx, 12.0, 14.0, 10.0, [255, 255, 255, 255]);
        ellipse(&mut eyes, cx, 12.0, 6.0, 7.0, [30, 30, 40, 255]);
    }
    // Open mouth: 40 x 30 (a different canvas from the smile's 60 x 20).
    let mut mouth = RgbaImage::new(40, 30);
    ellipse(&mut mouth, 20.0, 15.0, 18.0, 13.0, [120, 20, 20, 255]);
    // Glow: 160 x 100, soft yellow.
    let mut glow = RgbaImage::new(160, 100);
    for y in 0..100 {
        for x in 0..160 {
            let dx = (x as f32 - 80.0) / 80.0;
            let dy = (y as f32 - 50.0) / 50.0;
            let d = (dx * dx + dy * dy).sqrt();
            let a = ((1.0 - d).max(0.0) * 200.0) as u8;
            glow.put_pixel(x, y, Rgba([255, 230, 120, a]));
        }
    }
    vec![
        ("kit/parts/eyes.png", png(&eyes)),
        ("kit/parts/mouth_open.png", png(&mouth)),
        ("lamp/parts/glow.png", png(&glow)),
    ]
}

/// A temporary copy of a sample rig's folder (so a test may break it).
pub fn sample(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join(name), &tmp.path().join(name));
    let dir = tmp.path().join(name);
    (tmp, dir)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Reads a sample rig: model and raw JSON.
pub fn read_sample(dir: &Path) -> (RigDocument, Value) {
    RigDocument::read(&dir.join("rig.json")).unwrap()
}
