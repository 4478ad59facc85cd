//! Art probing: existence and size are separate questions; raster art has a digest.

use rigsmith_2d::art::{
    digest, fnv1a64, inspect_file, part_probe, svg_length_px, svg_size, ArtKind, PartProbe,
};

use crate::common::sample;

#[test]
fn svg_sizes() {
    assert_eq!(
        svg_size(br#"<svg width="40" height="20"/>"#),
        Some((40.0, 20.0))
    );
    assert_eq!(
        svg_size(br#"<svg width="40px" height="20px" viewBox="0 0 4 2"/>"#),
        Some((40.0, 20.0))
    );
    assert_eq!(
        svg_size(br#"<?xml version="1.0"?><!-- c --><svg viewBox="0 0 200 300"></svg>"#),
        Some((200.0, 300.0))
    );
    assert_eq!(
        svg_size(br#"<svg viewBox="0,0,200,100" width="100"/>"#),
        Some((100.0, 50.0))
    );
    assert_eq!(svg_size(br#"<svg width="0" height="0"/>"#), None);
    assert_eq!(svg_size(br#"<svgx width="4" height="4"/>"#), None);
    assert_eq!(svg_size(b"\xff\xfe<svg \x85width=\"3\""), None);
    assert_eq!(svg_size(b""), None);
}

fn close(got: Option<(f64, f64)>, want: (f64, f64)) {
    let g = got.expect("a size");
    assert!(
        (g.0 - want.0).abs() < 1e-9 && (g.1 - want.1).abs() < 1e-9,
        "{g:?} vs {want:?}"
    );
}

#[test]
fn svg_millimetres_convert_at_96_px_per_inch() {
    // 10 mm x 5 mm is 37.795.. x 18.897.. CSS px, whatever the viewBox says.
    close(
        svg_size(br#"<svg width="10mm" height="5mm" viewBox="0 0 30 15"/>"#),
        (10.0 * 96.0 / 25.4, 5.0 * 96.0 / 25.4),
    );
}

#[test]
fn svg_inches_points_and_centimetres() {
    close(
        svg_size(br#"<svg width="1in" height="0.5in"/>"#),
        (96.0, 48.0),
    );
    close(
        svg_size(br#"<svg width="12pt" height="6pt"/>"#),
        (16.0, 8.0),
    );
    close(
        svg_size(br#"<svg width="2cm" height="1cm"/>"#),
        (2.0 * 96.0 / 2.54, 96.0 / 2.54),
    );
    close(
        svg_size(br#"<svg width="3pc" height="4Q"/>"#),
        (48.0, 96.0 / 25.4),
    );
    close(svg_size(br#"<svg width="2em" height="1ex"/>"#), (32.0, 8.0));
}

#[test]
fn svg_pixels_and_bare_numbers_are_pixels() {
    close(
        svg_size(br#"<svg width="40px" height="20"/>"#),
        (40.0, 20.0),
    );
    assert_eq!(svg_length_px("40PX"), Some(40.0));
    assert_eq!(svg_length_px("1.5e1px"), Some(15.0));
}

#[test]
fn svg_one_side_in_units_takes_the_viewbox_aspect() {
    close(
        svg_size(br#"<svg width="1in" viewBox="0 0 200 100"/>"#),
        (96.0, 48.0),
    );
}

#[test]
fn svg_percentages_fall_back_to_the_viewbox() {
    close(
        svg_size(br#"<svg width="100%" height="100%" viewBox="0 0 40 20"/>"#),
        (40.0, 20.0),
    );
    close(
        svg_size(br#"<svg width="50%" viewBox="0 0 40 20"/>"#),
        (40.0, 20.0),
    );
    assert_eq!(svg_size(br#"<svg width="100%" height="100%"/>"#), None);
}

#[test]
fn svg_unknown_units_are_unreadable() {
    assert_eq!(svg_length_px("10 mm"), None);
    assert_eq!(svg_length_px("10furlongs"), None);
    assert_eq!(svg_length_px("mm"), None);
    close(
        svg_size(br#"<svg width="10vw" height="10vh" viewBox="0 0 8 4"/>"#),
        (8.0, 4.0),
    );
}

fn webp_vp8x(w: u32, h: u32) -> Vec<u8> {
    let mut b = b"RIFF\x16\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00".to_vec();
    b.extend_from_slice(&(w - 1).to_le_bytes()[..3]);
    b.extend_from_slice(&(h - 1).to_le_bytes()[..3]);
    b
}

#[test]
fn raster_sizes_come_from_the_header() {
    let tmp = tempfile::tempdir().unwrap();
    let img = image::RgbImage::from_pixel(33, 17, image::Rgb([200, 10, 10]));
    let jpg = tmp.path().join("a.jpg");
    img.save(&jpg).unwrap();
    let i = inspect_file(&jpg);
    assert_eq!(
        (i.exists, i.size, i.kind, i.note),
        (true, Some((33.0, 17.0)), ArtKind::Jpeg, None)
    );
    let png = tmp.path().join("b.png");
    img.save(&png).unwrap();
    assert_eq!(inspect_file(&png).size, Some((33.0, 17.0)));
    // WebP: a header is enough (no decode).
    let webp = tmp.path().join("c.webp");
    std::fs::write(&webp, webp_vp8x(300, 120)).unwrap();
    let i = inspect_file(&webp);
    assert_eq!((i.kind, i.size), (ArtKind::Webp, Some((300.0, 120.0))));
    // A truncated PNG is present but unmeasurable.
    let bad = tmp.path().join("d.png");
    std::fs::write(&bad, b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    let i = inspect_file(&bad);
    assert!(i.exists && i.size.is_none() && i.note.is_some());
    // Not art at all.
    let txt = tmp.path().join("e.png");
    std::fs::write(&txt, b"hello").unwrap();
    let i = inspect_file(&txt);
    assert!(i.exists && i.size.is_none() && i.note.unwrap().contains("not SVG, PNG, JPEG or WebP"));
    assert!(!inspect_file(&tmp.path().join("none.png")).exists);
    assert!(!inspect_file(tmp.path()).exists);
}

#[test]
fn probe_resolves_inside_its_store_only() {
    let (_t, dir) = sample("kit");
    let p = PartProbe {
        root: dir.clone(),
        prefix: "characters/kit/".into(),
    };
    assert_eq!(
        p.probe("characters/kit/parts/head.svg"),
        (true, Some((180.0, 200.0)))
    );
    assert_eq!(
        p.probe("characters/kit/parts/eyes.png"),
        (true, Some((80.0, 24.0)))
    );
    assert_eq!(p.probe("characters/kit/parts/nose.svg"), (false, None));
    assert_eq!(
        p.probe("characters/kit/../kit/parts/head.svg"),
        (false, None)
    );
    assert_eq!(p.probe("props/kit/parts/head.svg"), (false, None));
    assert!(part_probe(None, "characters/").is_none());
    let s = part_probe(Some(dir.parent().unwrap()), "characters/").unwrap();
    assert!(s.probe("characters/kit/parts/torso.svg").0);
}

#[test]
fn raster_digest_addresses_bytes() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(digest(b"a"), "af63dc4c8601");
    let (_t, dir) = sample("kit");
    let p = PartProbe {
        root: dir.clone(),
        prefix: "characters/kit/".into(),
    };
    assert_eq!(p.raster_digest("characters/kit/parts/head.svg"), None);
    let d1 = p.raster_digest("characters/kit/parts/eyes.png").unwrap();
    assert_eq!(d1.len(), 12);
    let mut bytes = std::fs::read(dir.join("parts/eyes.png")).unwrap();
    bytes.push(0);
    std::fs::write(dir.join("parts/eyes.png"), bytes).unwrap();
    assert_ne!(
        p.raster_digest("characters/kit/parts/eyes.png").unwrap(),
        d1
    );
}
