//! The bitmap font.

use rigsmith_render::{font, Image};

#[test]
fn every_printable_glyph_is_drawn_and_distinct() {
    let mut seen = std::collections::BTreeMap::new();
    for code in 33u8..=126 {
        let g = font::glyph(code as char);
        assert!(g.iter().any(|r| *r != 0), "{:?} is blank", code as char);
        assert!(
            g.iter().all(|r| *r < 32),
            "{:?} is wider than 5",
            code as char
        );
        if let Some(other) = seen.insert(g, code) {
            panic!("{:?} and {:?} look the same", other as char, code as char);
        }
    }
    assert!(font::glyph(' ').iter().all(|r| *r == 0));
    // Non-ASCII falls back to '?', never a panic.
    assert_eq!(font::glyph('é'), font::glyph('?'));
}

#[test]
fn text_is_drawn_where_its_size_says() {
    let text = "elbow_120.L\nband 0.68";
    let (w, h) = font::text_size(text, 2);
    assert_eq!((w, h), ((11 * 6 - 1) * 2, (11 + 9) * 2));
    let mut img = Image::new(200, 60, [0, 0, 0]);
    font::draw_text(&mut img, 10, 5, text, 2, [255, 255, 255]);
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..img.height {
        for x in 0..img.width {
            if img.get(x, y).unwrap()[0] == 255 {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    assert!(
        x0 >= 10 && y0 >= 5 && x1 < 10 + w && y1 < 5 + h,
        "ink outside the box"
    );
    assert!(x1 + 1 - x0 >= w - 4, "ink spans the width");
    // Clipping at the border never panics.
    font::draw_text(&mut img, 190, 55, "clipped", 3, [255, 0, 0]);
    font::draw_text(&mut img, -50, -50, "clipped", 3, [255, 0, 0]);
}
