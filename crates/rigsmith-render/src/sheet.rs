//! Composing labelled panels into one sheet.
//!
//! A [`Sheet`] is a title strip over a grid of equal cells. Each cell takes a rendered
//! panel and a caption drawn in its top-left corner; thin rules separate the cells.
//!
//! ```
//! use rigsmith_render::{sheet::Sheet, Image};
//! let mut s = Sheet::new("placement", 2, 1, 100, 80);
//! s.place(1, 0, &Image::new(100, 80, [90, 90, 90]), "right");
//! let img = s.finish();
//! assert_eq!((img.width, img.height), (200, 80 + s_header(100)));
//! # fn s_header(cell: u32) -> u32 { Sheet::header_height(cell) }
//! ```

use crate::{font, Image};

/// Background of the title strip.
const HEADER_BG: [u8; 3] = [24, 25, 29];
/// Colour of the rules between cells.
const RULE: [u8; 3] = [80, 82, 90];

/// A grid of `cols x rows` cells of `cell_w x cell_h` pixels under a title strip.
#[derive(Debug, Clone)]
pub struct Sheet {
    image: Image,
    cols: u32,
    rows: u32,
    cell_w: u32,
    cell_h: u32,
    header: u32,
}

impl Sheet {
    /// Font scale used for captions in cells `cell_w` pixels wide.
    pub fn text_scale(cell_w: u32) -> u32 {
        if cell_w >= 360 {
            2
        } else {
            1
        }
    }

    /// Height of the title strip for cells `cell_w` pixels wide.
    pub fn header_height(cell_w: u32) -> u32 {
        let s = Self::text_scale(cell_w);
        font::LINE_H * s + 8
    }

    /// An empty sheet titled `title`.
    pub fn new(title: &str, cols: u32, rows: u32, cell_w: u32, cell_h: u32) -> Sheet {
        let header = Self::header_height(cell_w);
        let mut image = Image::new(cols * cell_w, header + rows * cell_h, [44, 46, 52]);
        image.fill_rect(0, 0, image.width, header, HEADER_BG);
        let s = Self::text_scale(cell_w);
        font::draw_text(
            &mut image,
            4 * s as i32,
            4 + s as i32,
            title,
            s,
            [235, 235, 235],
        );
        Sheet {
            image,
            cols,
            rows,
            cell_w,
            cell_h,
            header,
        }
    }

    /// Size `(w, h)` of a cell in pixels.
    pub fn cell_size(&self) -> (u32, u32) {
        (self.cell_w, self.cell_h)
    }

    /// Top-left pixel of cell `(col, row)`.
    pub fn cell_origin(&self, col: u32, row: u32) -> (i32, i32) {
        (
            (col * self.cell_w) as i32,
            (self.header + row * self.cell_h) as i32,
        )
    }

    /// Copies `panel` into cell `(col, row)` (cropped to the cell) and writes `caption`
    /// in its top-left corner. Cells outside the grid are ignored.
    pub fn place(&mut self, col: u32, row: u32, panel: &Image, caption: &str) {
        if col >= self.cols || row >= self.rows {
            return;
        }
        let (x, y) = self.cell_origin(col, row);
        let mut cropped = panel.clone();
        if panel.width > self.cell_w || panel.height > self.cell_h {
            cropped = crop(panel, self.cell_w, self.cell_h);
        }
        self.image.blit(&cropped, x, y);
        self.image.stroke_rect(x, y, self.cell_w, self.cell_h, RULE);
        if !caption.is_empty() {
            let s = Self::text_scale(self.cell_w);
            font::draw_label(
                &mut self.image,
                (x + 3, y + 3),
                caption,
                s,
                [255, 255, 255],
                [0, 0, 0],
                0.6,
            );
        }
    }

    /// Writes `text` in the title strip, right-aligned (for a legend or a count).
    pub fn note(&mut self, text: &str) {
        let s = Self::text_scale(self.cell_w);
        let (tw, _) = font::text_size(text, s);
        let x = self.image.width as i32 - tw as i32 - 4 * s as i32;
        font::draw_text(&mut self.image, x, 4 + s as i32, text, s, [200, 200, 200]);
    }

    /// Mutable access to the whole picture (for legends drawn by the caller).
    pub fn image_mut(&mut self) -> &mut Image {
        &mut self.image
    }

    /// The finished picture.
    pub fn finish(self) -> Image {
        self.image
    }
}

/// The top-left `w x h` pixels of `img`.
fn crop(img: &Image, w: u32, h: u32) -> Image {
    let mut out = Image::new(w.min(img.width), h.min(img.height), [0, 0, 0]);
    for y in 0..out.height {
        let s = (y * img.width * 4) as usize;
        let d = (y * out.width * 4) as usize;
        let n = (out.width * 4) as usize;
        out.pixels[d..d + n].copy_from_slice(&img.pixels[s..s + n]);
    }
    out
}
