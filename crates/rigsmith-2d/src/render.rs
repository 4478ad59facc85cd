//! Render a built rig to an RGBA image so a person can look at a posed rig.
//!
//! [`render`] walks the scene the builder made ([`crate::build`]), composes each
//! node's world transform (`parent * translate(position) * rotate(rotation) *
//! scale(scale_x, scale_y)`), applies a [`Pose`] (per-bone rotation in degrees added
//! to the rest rotation, and scales multiplied onto the rest scales) and paints the
//! visuals in the entity's `paint_order` (declared draw order). SVG art is drawn by
//! resvg, raster art (PNG, JPEG) by the `image` decoder; both are contained in the
//! part's box (uniformly scaled, never stretched). A part with missing or undrawable
//! art is drawn as a magenta outline and reported in [`Rendered::notes`].
//!
//! The canvas frames every part of the posed rig with a margin; its longest side is
//! [`RenderOptions::size`] pixels. Output is deterministic.
//!
//! A pose file is JSON: `{"bones": {"arm": {"rotation_deg": 30, "scale_x": 1.2}}}`.

use std::collections::BTreeMap;

use resvg::tiny_skia::{
    self, Color, Paint, PathBuilder, Pixmap, PixmapPaint, Rect, Stroke, Transform,
};
use serde_json::Value;

use crate::art::{ArtKind, PartProbe};
use crate::error::RigError;

/// Largest raster art decoded for rendering, pixels per side.
const MAX_ART_SIDE: usize = 8192;

/// One bone's pose on top of its rest pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BonePose {
    /// Degrees added to the rest rotation (clockwise on screen).
    pub rotation_deg: f64,
    /// Factor on the rest x scale.
    pub scale_x: f64,
    /// Factor on the rest y scale.
    pub scale_y: f64,
}

impl Default for BonePose {
    fn default() -> Self {
        BonePose {
            rotation_deg: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
        }
    }
}

/// A pose: per-bone rotation and scale on top of rest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pose {
    /// `{bone name: pose}`.
    pub bones: BTreeMap<String, BonePose>,
}

impl Pose {
    /// Parses `{"bones": {"arm": {"rotation_deg": 30, "scale_x": 1, "scale_y": 1}}}`.
    pub fn parse(bytes: &[u8]) -> Result<Pose, RigError> {
        let v: Value = serde_json::from_slice(bytes)
            .map_err(|e| RigError::format("$", format!("not valid JSON: {e}")))?;
        let bones = v.get("bones").and_then(Value::as_object).ok_or_else(|| {
            RigError::format(
                "bones",
                "expected an object {bone: {rotation_deg, scale_x, scale_y}}",
            )
        })?;
        let mut pose = Pose::default();
        for (name, b) in bones {
            let at = format!("bones.{name}");
            let obj = b
                .as_object()
                .ok_or_else(|| RigError::format(&at, "expected an object"))?;
            let mut bp = BonePose::default();
            for (k, val) in obj {
                let x = val.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                    RigError::format(format!("{at}.{k}"), "expected a finite number")
                })?;
                match k.as_str() {
                    "rotation_deg" => bp.rotation_deg = x,
                    "scale_x" => bp.scale_x = x,
                    "scale_y" => bp.scale_y = x,
                    _ => {
                        return Err(RigError::format(
                            format!("{at}.{k}"),
                            "unknown field (rotation_deg, scale_x, scale_y)",
                        ))
                    }
                }
            }
            pose.bones.insert(name.clone(), bp);
        }
        Ok(pose)
    }
}

/// How to render.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Longest side of the image, pixels.
    pub size: u32,
    /// Background colour, RGBA.
    pub background: [u8; 4],
    /// Draw a small dot at each node's origin (the joints).
    pub joints: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: 512,
            background: [240, 240, 240, 255],
            joints: false,
        }
    }
}

/// A rendered image.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// RGBA8, row-major, `width * height * 4` bytes, straight alpha.
    pub rgba: Vec<u8>,
    /// Parts drawn as placeholders, bones of the pose the rig does not have.
    pub notes: Vec<String>,
    /// The frame: image pixel = `(scene x - view[0], scene y - view[1]) * view[2]`.
    pub view: [f32; 3],
}

impl Rendered {
    /// The image pixel (column, row) a scene point (scene px) lands on.
    pub fn pixel_of(&self, x: f32, y: f32) -> (i64, i64) {
        (
            ((x - self.view[0]) * self.view[2]).floor() as i64,
            ((y - self.view[1]) * self.view[2]).floor() as i64,
        )
    }

    /// The RGBA of the pixel at a scene point, or `None` off the image.
    pub fn at(&self, x: f32, y: f32) -> Option<[u8; 4]> {
        let (c, r) = self.pixel_of(x, y);
        if c < 0 || r < 0 || c >= self.width as i64 || r >= self.height as i64 {
            return None;
        }
        let i = (r as usize * self.width as usize + c as usize) * 4;
        Some([
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ])
    }
}

impl Rendered {
    /// PNG bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, RigError> {
        let img = image::RgbaImage::from_raw(self.width, self.height, self.rgba.clone())
            .ok_or_else(|| RigError::format("image", "buffer size mismatch"))?;
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png)
            .map_err(|e| RigError::format("image", e.to_string()))?;
        Ok(out.into_inner())
    }
}

struct Part {
    world: Transform,
    texture: Option<String>,
    box_px: Option<(f32, f32)>,
    anchor: (f32, f32),
    name: String,
}

fn f(v: &Value, k: &str, d: f64) -> f64 {
    v.get(k)
        .and_then(Value::as_f64)
        .filter(|x| x.is_finite())
        .unwrap_or(d)
}

fn pair(v: Option<&Value>) -> Option<(f32, f32)> {
    let a = v?.as_array()?;
    if a.len() != 2 {
        return None;
    }
    Some((a[0].as_f64()? as f32, a[1].as_f64()? as f32))
}

fn collect(
    node: &Value,
    parent: Transform,
    parent_bone: Option<&str>,
    pose: &Pose,
    parts: &mut BTreeMap<String, Part>,
    joints: &mut Vec<(f32, f32)>,
    depth: usize,
) {
    if depth > 10_000 {
        return;
    }
    let bone = node.get("bone").and_then(Value::as_str).unwrap_or("");
    let p = pair(node.get("position")).unwrap_or((0.0, 0.0));
    let mut rot = f(node, "rotation", 0.0);
    let (mut sx, mut sy) = (f(node, "scale_x", 1.0), f(node, "scale_y", 1.0));
    if parent_bone != Some(bone) {
        if let Some(bp) = pose.bones.get(bone) {
            rot += bp.rotation_deg.to_radians();
            sx *= bp.scale_x;
            sy *= bp.scale_y;
        }
    }
    let local = Transform::from_translate(p.0, p.1)
        .pre_concat(Transform::from_rotate(rot.to_degrees() as f32))
        .pre_concat(Transform::from_scale(sx as f32, sy as f32));
    let world = parent.pre_concat(local);
    joints.push((world.tx, world.ty));
    let path = node
        .get("path")
        .and_then(Value::as_str)
        .or_else(|| node.get("name").and_then(Value::as_str))
        .unwrap_or("")
        .to_string();
    if let Some(v) = node.get("visual") {
        parts.insert(
            path.clone(),
            Part {
                world,
                texture: v.get("texture").and_then(Value::as_str).map(str::to_string),
                box_px: pair(v.get("box")),
                anchor: pair(v.get("anchor")).unwrap_or((0.5, 0.5)),
                name: path,
            },
        );
    }
    for c in node
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(c, world, Some(bone), pose, parts, joints, depth + 1);
    }
}

enum Art {
    Svg(Box<resvg::usvg::Tree>),
    Raster(Pixmap),
}

impl Art {
    fn size(&self) -> (f32, f32) {
        match self {
            Art::Svg(t) => (t.size().width(), t.size().height()),
            Art::Raster(p) => (p.width() as f32, p.height() as f32),
        }
    }
}

fn load_art(path: &std::path::Path) -> Result<Art, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    match ArtKind::sniff(&bytes[..bytes.len().min(512)]) {
        ArtKind::Svg => {
            let opt = resvg::usvg::Options::default();
            resvg::usvg::Tree::from_data(&bytes, &opt)
                .map(|t| Art::Svg(Box::new(t)))
                .map_err(|e| format!("not drawable SVG: {e}"))
        }
        ArtKind::Png | ArtKind::Jpeg => {
            let size =
                imagesize::blob_size(&bytes).map_err(|e| format!("bad image header: {e}"))?;
            if size.width == 0
                || size.height == 0
                || size.width > MAX_ART_SIDE
                || size.height > MAX_ART_SIDE
            {
                return Err(format!(
                    "image {}x{} is outside 1..={MAX_ART_SIDE} px",
                    size.width, size.height
                ));
            }
            let img = image::load_from_memory(&bytes)
                .map_err(|e| format!("not a decodable image: {e}"))?
                .to_rgba8();
            let (w, h) = img.dimensions();
            let mut data = img.into_raw();
            for px in data.chunks_exact_mut(4) {
                let a = px[3] as u16;
                for c in &mut px[..3] {
                    *c = ((*c as u16 * a + 127) / 255) as u8;
                }
            }
            let size = tiny_skia::IntSize::from_wh(w, h).ok_or("empty image")?;
            Pixmap::from_vec(data, size)
                .map(Art::Raster)
                .ok_or_else(|| "image buffer".to_string())
        }
        ArtKind::Webp => Err("WebP art is measured but not drawn by this renderer".into()),
        ArtKind::Unknown => Err("not SVG, PNG or JPEG art".into()),
    }
}

/// The bones of the nodes of `n` and below.
fn bones_of(n: &Value, out: &mut std::collections::BTreeSet<String>) {
    if let Some(b) = n.get("bone").and_then(Value::as_str) {
        out.insert(b.to_string());
    }
    for c in n
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        bones_of(c, out);
    }
}

/// A note for each bone `pose` moves that no built part is on.
fn unmoved_pose_bones(node: &Value, pose: &Pose) -> Vec<String> {
    let mut known_bones = std::collections::BTreeSet::new();
    bones_of(node, &mut known_bones);
    pose.bones
        .keys()
        .filter(|b| !known_bones.contains(*b))
        .map(|b| format!("pose bone '{b}' moves no built part"))
        .collect()
}

/// Each texture the parts use, loaded through `probe` (or why it could not be).
fn load_arts(
    parts: &BTreeMap<String, Part>,
    srcs: &BTreeMap<String, String>,
    probe: &PartProbe,
) -> BTreeMap<String, Result<Art, String>> {
    let mut arts: BTreeMap<String, Result<Art, String>> = BTreeMap::new();
    for p in parts.values() {
        if let Some(t) = &p.texture {
            if !arts.contains_key(t) {
                let loaded = match srcs.get(t).and_then(|s| probe.resolve(s)) {
                    Some(path) => load_art(&path).map_err(|e| format!("{}: {e}", path.display())),
                    None => Err(format!("texture '{t}' has no file in the art folder")),
                };
                arts.insert(t.clone(), loaded);
            }
        }
    }
    arts
}

/// The world-space bounds (x0, y0, x1, y1) of every part's box (`box_of`), or a
/// 100 px square around the origin when they are empty.
fn frame(
    parts: &BTreeMap<String, Part>,
    box_of: &dyn Fn(&Part) -> (f32, f32),
) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in parts.values() {
        let (w, h) = box_of(p);
        for (cx, cy) in [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)] {
            let mut pt = [tiny_skia::Point::from_xy(
                cx - p.anchor.0 * w,
                cy - p.anchor.1 * h,
            )];
            p.world.map_points(&mut pt);
            x0 = x0.min(pt[0].x);
            y0 = y0.min(pt[0].y);
            x1 = x1.max(pt[0].x);
            y1 = y1.max(pt[0].y);
        }
    }
    if !(x0.is_finite() && x1.is_finite() && y0.is_finite() && y1.is_finite())
        || x1 <= x0
        || y1 <= y0
    {
        (x0, y0, x1, y1) = (-50.0, -50.0, 50.0, 50.0);
    }
    (x0, y0, x1, y1)
}

/// A magenta outline of a part's box (`size`, scene px) where its art is missing;
/// `base` maps the box to the canvas, `s` is canvas px per scene px.
fn draw_placeholder(pixmap: &mut Pixmap, (w, h): (f32, f32), base: Transform, s: f32) {
    if let Some(r) = Rect::from_xywh(0.0, 0.0, w.max(1.0), h.max(1.0)) {
        let path = PathBuilder::from_rect(r);
        let mut paint = Paint::default();
        paint.set_color_rgba8(230, 0, 140, 255);
        let stroke = Stroke {
            width: 2.0 / s.max(1e-3),
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, base, None);
    }
}

/// Premultiplied RGBA -> straight alpha.
fn straight_alpha(mut rgba: Vec<u8>) -> Vec<u8> {
    for px in rgba.chunks_exact_mut(4) {
        let a = px[3] as u16;
        if a > 0 && a < 255 {
            for c in &mut px[..3] {
                *c = ((*c as u16 * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
    rgba
}

/// Renders a built scene (`BuiltRig::to_value()`), loading textures through `probe`.
pub fn render(
    scene: &Value,
    probe: &PartProbe,
    pose: &Pose,
    opts: &RenderOptions,
) -> Result<Rendered, RigError> {
    let node = scene
        .get("node")
        .ok_or_else(|| RigError::format("node", "the scene has no entity node"))?;
    let srcs: BTreeMap<String, String> = scene
        .get("textures")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            Some((
                t.get("alias")?.as_str()?.to_string(),
                t.get("src")?.as_str()?.to_string(),
            ))
        })
        .collect();
    let mut notes = unmoved_pose_bones(node, pose);

    let mut parts = BTreeMap::new();
    let mut joints = Vec::new();
    for c in node
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(
            c,
            Transform::identity(),
            None,
            pose,
            &mut parts,
            &mut joints,
            0,
        );
    }

    // Load art and settle each part's box (scene px).
    let arts = load_arts(&parts, &srcs, probe);
    let scale = f(node, "scale", 1.0) as f32;
    let box_of = |p: &Part| -> (f32, f32) {
        if let Some(b) = p.box_px {
            return b;
        }
        match p.texture.as_ref().and_then(|t| arts.get(t)) {
            Some(Ok(a)) => {
                let (w, h) = a.size();
                (w * scale, h * scale)
            }
            _ => (20.0 * scale, 20.0 * scale),
        }
    };

    // Frame: the world-space bounds of every part's box.
    let (x0, y0, x1, y1) = frame(&parts, &box_of);
    let margin = 0.06 * (x1 - x0).max(y1 - y0);
    let (x0, y0, x1, y1) = (x0 - margin, y0 - margin, x1 + margin, y1 + margin);
    let size = opts.size.clamp(16, 8192) as f32;
    let s = size / (x1 - x0).max(y1 - y0);
    let width = (((x1 - x0) * s).round() as u32).max(1);
    let height = (((y1 - y0) * s).round() as u32).max(1);
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| RigError::format("image", "empty canvas"))?;
    let bg = opts.background;
    pixmap.fill(Color::from_rgba8(bg[0], bg[1], bg[2], bg[3]));
    let view = Transform::from_scale(s, s).pre_translate(-x0, -y0);

    // Paint in the entity's paint order; parts it does not list follow in path order.
    let mut order: Vec<String> = node
        .get("paint_order")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .filter(|p| parts.contains_key(p))
        .collect();
    for k in parts.keys() {
        if !order.contains(k) {
            order.push(k.clone());
        }
    }
    for key in &order {
        let p = &parts[key];
        let (w, h) = box_of(p);
        let base = view
            .pre_concat(p.world)
            .pre_translate(-p.anchor.0 * w, -p.anchor.1 * h);
        let art = p.texture.as_ref().and_then(|t| arts.get(t));
        match art {
            Some(Ok(a)) => {
                let (aw, ah) = a.size();
                let k = (w / aw).min(h / ah);
                let t = base
                    .pre_translate((w - aw * k) / 2.0, (h - ah * k) / 2.0)
                    .pre_scale(k, k);
                match a {
                    Art::Svg(tree) => resvg::render(tree, t, &mut pixmap.as_mut()),
                    Art::Raster(img) => {
                        let paint = PixmapPaint {
                            quality: tiny_skia::FilterQuality::Bilinear,
                            ..PixmapPaint::default()
                        };
                        pixmap.draw_pixmap(0, 0, img.as_ref(), &paint, t, None);
                    }
                }
            }
            other => {
                let why = match other {
                    Some(Err(e)) => e.clone(),
                    _ => "no art".to_string(),
                };
                notes.push(format!("part '{}' drawn as a placeholder: {why}", p.name));
                draw_placeholder(&mut pixmap, (w, h), base, s);
            }
        }
    }
    if opts.joints {
        let mut paint = Paint::default();
        paint.set_color_rgba8(20, 90, 220, 255);
        for (x, y) in &joints {
            if let Some(c) = PathBuilder::from_circle(*x, *y, 3.0 / s) {
                pixmap.fill_path(&c, &paint, tiny_skia::FillRule::Winding, view, None);
            }
        }
    }
    // Straight alpha out.
    let rgba = straight_alpha(pixmap.take());
    Ok(Rendered {
        width,
        height,
        rgba,
        notes,
        view: [x0, y0, s],
    })
}
