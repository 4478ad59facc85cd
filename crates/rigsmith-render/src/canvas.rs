//! The picture every renderer and sheet returns: an RGBA8 [`Image`].
//!
//! Pixels are stored row by row from the top-left corner, four bytes each
//! (`width * height * 4` bytes). Drawing helpers here are 2D only (rectangles, blits,
//! alpha blending); 3D work lives in [`crate::raster`].

use std::path::Path;

use rigsmith::error::{Error, Result};

/// An RGBA8 picture, `width x height` pixels, rows from the top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes: R, G, B, A per pixel, rows from the top.
    pub pixels: Vec<u8>,
}

impl Image {
    /// A `width x height` image filled with an opaque colour.
    pub fn new(width: u32, height: u32, colour: [u8; 3]) -> Image {
        let n = width as usize * height as usize;
        let pixels = [colour[0], colour[1], colour[2], 255].repeat(n);
        Image {
            width,
            height,
            pixels,
        }
    }

    /// The RGBA value at `(x, y)`; `None` outside the image.
    pub fn get(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        Some([
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ])
    }

    /// Sets the pixel at `(x, y)` to an opaque colour; ignored outside the image.
    pub fn put(&mut self, x: i32, y: i32, colour: [u8; 3]) {
        if x < 0 || y < 0 || x as u32 >= self.width || y as u32 >= self.height {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        self.pixels[i..i + 4].copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
    }

    /// Blends `colour` over the pixel at `(x, y)` with opacity `alpha` in `[0, 1]`;
    /// ignored outside the image.
    pub fn blend(&mut self, x: i32, y: i32, colour: [u8; 3], alpha: f32) {
        if x < 0 || y < 0 || x as u32 >= self.width || y as u32 >= self.height {
            return;
        }
        let a = alpha.clamp(0.0, 1.0);
        let i = (y as usize * self.width as usize + x as usize) * 4;
        for k in 0..3 {
            let d = self.pixels[i + k] as f32;
            self.pixels[i + k] = (d + (colour[k] as f32 - d) * a).round() as u8;
        }
        self.pixels[i + 3] = 255;
    }

    /// Fills the rectangle `[x, x + w) x [y, y + h)` (clipped) with an opaque colour.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: u32, h: u32, colour: [u8; 3]) {
        self.blend_rect(x, y, w, h, colour, 1.0);
    }

    /// Blends `colour` with opacity `alpha` over the rectangle `[x, x + w) x [y, y + h)`.
    pub fn blend_rect(&mut self, x: i32, y: i32, w: u32, h: u32, colour: [u8; 3], alpha: f32) {
        let x0 = x.max(0);
        let y0 = y.max(0);
        let x1 = (x + w as i32).min(self.width as i32);
        let y1 = (y + h as i32).min(self.height as i32);
        for yy in y0..y1 {
            for xx in x0..x1 {
                self.blend(xx, yy, colour, alpha);
            }
        }
    }

    /// Draws a one-pixel rectangle outline.
    pub fn stroke_rect(&mut self, x: i32, y: i32, w: u32, h: u32, colour: [u8; 3]) {
        if w == 0 || h == 0 {
            return;
        }
        let (x1, y1) = (x + w as i32 - 1, y + h as i32 - 1);
        for xx in x..=x1 {
            self.put(xx, y, colour);
            self.put(xx, y1, colour);
        }
        for yy in y..=y1 {
            self.put(x, yy, colour);
            self.put(x1, yy, colour);
        }
    }

    /// Copies `src` with its top-left corner at `(x, y)` (clipped).
    pub fn blit(&mut self, src: &Image, x: i32, y: i32) {
        for sy in 0..src.height as i32 {
            let ty = y + sy;
            if ty < 0 || ty >= self.height as i32 {
                continue;
            }
            for sx in 0..src.width as i32 {
                let tx = x + sx;
                if tx < 0 || tx >= self.width as i32 {
                    continue;
                }
                let si = (sy as usize * src.width as usize + sx as usize) * 4;
                let ti = (ty as usize * self.width as usize + tx as usize) * 4;
                self.pixels[ti..ti + 4].copy_from_slice(&src.pixels[si..si + 4]);
            }
        }
    }

    /// Number of pixels whose colour differs from `colour` (ignoring alpha).
    pub fn count_not(&self, colour: [u8; 3]) -> usize {
        self.pixels
            .chunks_exact(4)
            .filter(|p| p[0] != colour[0] || p[1] != colour[1] || p[2] != colour[2])
            .count()
    }

    /// Encodes the image as PNG bytes (deterministic: same pixels, same bytes).
    pub fn to_png_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let enc = image::codecs::png::PngEncoder::new(&mut out);
        // Writing into a Vec cannot fail and the buffer length matches the size.
        image::ImageEncoder::write_image(
            enc,
            &self.pixels,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
        )
        .expect("PNG encoding into memory");
        out
    }

    /// Writes the image as a PNG file (atomically: a partial file never appears).
    pub fn save_png(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        rigsmith::io::atomic::write_atomic(path, &self.to_png_bytes())
    }

    /// Reads a PNG (or JPEG) file into an RGBA8 image, naming the file on failure.
    pub fn load(path: impl AsRef<Path>) -> Result<Image> {
        let path = path.as_ref();
        let img = image::open(path)
            .map_err(|e| Error::format(path, "", format!("not a readable image: {e}")))?
            .to_rgba8();
        Ok(Image {
            width: img.width(),
            height: img.height(),
            pixels: img.into_raw(),
        })
    }
}
