//! Art probing: whether a part's art exists, the size it rasterises at, and a short
//! content digest for raster art.
//!
//! **Two questions, deliberately not one.** Whether the art is *there* decides whether
//! the builder declares a texture for it; whether it can be *measured* decides only
//! whether the sprite's box comes from the art or from the runtime's `contain` fit. A
//! degenerate `<svg width="0">` is present but unmeasurable, and must not vanish.
//!
//! Sizes come from a header parse, never a full decode: an SVG root's `width`/`height`
//! in CSS pixels (`10mm`, `1in`, `12pt` converted at 96 px to the inch, as a browser
//! does: [`svg_length_px`]), falling back to its `viewBox` extent as a browser does; a PNG,
//! JPEG or WebP header's pixel size. The kind is sniffed from the bytes, not the
//! extension: art that is not what its extension says is still measured, and the
//! mismatch is reported ([`ArtInfo::note`]).
//!
//! ```
//! use rigsmith_2d::art::{art_src, svg_size};
//! assert_eq!(art_src("maya", "parts/head.svg", "characters/"), "characters/maya/parts/head.svg");
//! assert_eq!(svg_size(br#"<svg viewBox="0 0 40 20"/>"#), Some((40.0, 20.0)));
//! ```

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The `src` prefix a character's art is addressed under.
pub const CHARACTER_ART_PREFIX: &str = "characters/";
/// The `src` prefix a prop's art is addressed under.
pub const PROP_ART_PREFIX: &str = "props/";

/// Largest SVG read for probing, bytes (a bigger file is present but unmeasured).
const MAX_SVG_BYTES: u64 = 32 << 20;

/// The path of a part's art inside the runtime folder: `{prefix}{ref}/{rel_path}`.
pub fn art_src(rig_ref: &str, rel_path: &str, art_prefix: &str) -> String {
    format!("{art_prefix}{rig_ref}/{rel_path}")
}

/// What kind of art a file holds, by its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtKind {
    /// SVG (text, an `<svg` root).
    Svg,
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// WebP.
    Webp,
    /// Anything else.
    Unknown,
}

impl ArtKind {
    /// Whether this is raster art (addressed by its bytes).
    pub fn is_raster(self) -> bool {
        matches!(self, ArtKind::Png | ArtKind::Jpeg | ArtKind::Webp)
    }

    /// Sniffs the kind from the first bytes of a file.
    pub fn sniff(head: &[u8]) -> ArtKind {
        if head.starts_with(b"\x89PNG\r\n\x1a\n") {
            ArtKind::Png
        } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
            ArtKind::Jpeg
        } else if head.len() >= 12 && &head[0..4] == b"RIFF" && &head[8..12] == b"WEBP" {
            ArtKind::Webp
        } else {
            let text = String::from_utf8_lossy(head);
            if text.contains("<svg") {
                ArtKind::Svg
            } else {
                ArtKind::Unknown
            }
        }
    }

    /// The kind a file name's extension claims.
    pub fn from_extension(path: &str) -> ArtKind {
        let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        match ext.as_str() {
            "svg" => ArtKind::Svg,
            "png" => ArtKind::Png,
            "jpg" | "jpeg" => ArtKind::Jpeg,
            "webp" => ArtKind::Webp,
            _ => ArtKind::Unknown,
        }
    }
}

/// Everything a probe learns about one part's art.
#[derive(Clone, Debug, PartialEq)]
pub struct ArtInfo {
    /// The file exists.
    pub exists: bool,
    /// The size it rasterises at (SVG user units or pixels), when measurable.
    pub size: Option<(f64, f64)>,
    /// The kind its bytes say.
    pub kind: ArtKind,
    /// Why it is unmeasurable, or that its extension lies; `None` when all is well.
    pub note: Option<String>,
}

/// A probe answering `(art exists, the size it rasterises at)` for a part's `src`:
/// `src` must start with `prefix`; the rest is a path under `root`.
#[derive(Clone, Debug)]
pub struct PartProbe {
    /// The folder the art lives in.
    pub root: PathBuf,
    /// The `src` prefix that maps to `root` (`characters/` or `characters/maya/`).
    pub prefix: String,
}

/// A probe for a store rooted at `store_root`, or `None` when the store has no
/// filesystem root: a store that can answer nothing must drop no parts rather than
/// all of them.
pub fn part_probe(store_root: Option<&Path>, art_prefix: &str) -> Option<PartProbe> {
    store_root.map(|r| PartProbe {
        root: r.to_path_buf(),
        prefix: art_prefix.to_string(),
    })
}

impl PartProbe {
    /// The file a `src` names, or `None` when it is outside the store (wrong prefix,
    /// an absolute path or a `..` component).
    pub fn resolve(&self, src: &str) -> Option<PathBuf> {
        let rel = src.strip_prefix(&self.prefix)?;
        let rel = Path::new(rel);
        if rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return None;
        }
        Some(self.root.join(rel))
    }

    /// `(exists, size)` for a part's `src`.
    pub fn probe(&self, src: &str) -> (bool, Option<(f64, f64)>) {
        let i = self.inspect(src);
        (i.exists, i.size)
    }

    /// Everything known about a part's art.
    pub fn inspect(&self, src: &str) -> ArtInfo {
        match self.resolve(src) {
            Some(p) => inspect_file(&p),
            None => ArtInfo {
                exists: false,
                size: None,
                kind: ArtKind::Unknown,
                note: Some(format!("'{src}' is outside the art folder")),
            },
        }
    }

    /// `digest(src)`: a short content digest for RASTER art, else `None` (SVG art keeps
    /// its plain alias, so existing documents stay byte-identical).
    pub fn raster_digest(&self, src: &str) -> Option<String> {
        let p = self.resolve(src)?;
        let bytes = std::fs::read(&p).ok()?;
        if ArtKind::sniff(&bytes[..bytes.len().min(64)]).is_raster() {
            Some(digest(&bytes))
        } else {
            None
        }
    }
}

/// Probes one file on disk.
pub fn inspect_file(path: &Path) -> ArtInfo {
    let absent = ArtInfo {
        exists: false,
        size: None,
        kind: ArtKind::Unknown,
        note: None,
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return absent;
    };
    if !meta.is_file() {
        return absent;
    }
    let mut head = [0u8; 512];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let kind = ArtKind::sniff(&head[..n]);
    let claimed = ArtKind::from_extension(&path.to_string_lossy());
    let mut note = None;
    if kind != claimed && kind != ArtKind::Unknown {
        note = Some(format!(
            "{}: the file holds {:?} art but its extension says {:?}",
            path.display(),
            kind,
            claimed
        ));
    }
    let size = match kind {
        ArtKind::Svg => {
            if meta.len() > MAX_SVG_BYTES {
                note = Some(format!("{}: SVG too large to measure", path.display()));
                None
            } else {
                std::fs::read(path).ok().and_then(|b| svg_size(&b))
            }
        }
        ArtKind::Png | ArtKind::Jpeg | ArtKind::Webp => match imagesize::size(path) {
            Ok(s) if s.width > 0 && s.height > 0 => Some((s.width as f64, s.height as f64)),
            _ => None,
        },
        ArtKind::Unknown => {
            note = Some(format!(
                "{}: not SVG, PNG, JPEG or WebP art",
                path.display()
            ));
            None
        }
    };
    if size.is_none() && note.is_none() {
        note = Some(format!("{}: present but unmeasurable", path.display()));
    }
    ArtInfo {
        exists: true,
        size,
        kind,
        note,
    }
}

/// The size an SVG rasterises at, in CSS pixels: the root's `width`/`height` in any
/// absolute CSS unit ([`svg_length_px`]), else its `viewBox` extent; a side that is
/// missing, a percentage or unreadable takes the viewBox's aspect. `None` when nothing
/// positive and finite can be read.
pub fn svg_size(bytes: &[u8]) -> Option<(f64, f64)> {
    let text = String::from_utf8_lossy(bytes);
    let attrs = svg_root_attributes(&text)?;
    let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let len = |v: Option<&str>| svg_length_px(v?).filter(|x| x.is_finite() && *x > 0.0);
    let vb = get("viewBox").and_then(|v| {
        let n: Vec<f64> = v
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        (n.len() == 4 && n[2].is_finite() && n[3].is_finite() && n[2] > 0.0 && n[3] > 0.0)
            .then(|| (n[2], n[3]))
    });
    match (len(get("width")), len(get("height")), vb) {
        (Some(w), Some(h), _) => Some((w, h)),
        (Some(w), None, Some((vw, vh))) => Some((w, w * vh / vw)),
        (None, Some(h), Some((vw, vh))) => Some((h * vw / vh, h)),
        (_, _, vb) => vb,
    }
}

/// CSS pixels per unit, as a browser converts them (96 px to the inch): `px`, `in`,
/// `cm`, `mm`, `Q` (quarter millimetre), `pt` (1/72 in), `pc` (12 pt), and the
/// font-relative `em`/`rem` (16 px, the browsers' default font size) and `ex` (half
/// an em, the value used when no font is measured).
pub const CSS_UNITS_PX: [(&str, f64); 10] = [
    ("px", 1.0),
    ("in", 96.0),
    ("cm", 96.0 / 2.54),
    ("mm", 96.0 / 25.4),
    ("q", 96.0 / 101.6),
    ("pt", 96.0 / 72.0),
    ("pc", 16.0),
    ("rem", 16.0),
    ("em", 16.0),
    ("ex", 8.0),
];

/// An SVG root's `width` or `height` in CSS pixels, converted as a browser does
/// ([`CSS_UNITS_PX`]; a bare number is pixels; units are case-insensitive). `None`
/// for a percentage (the root of an image has no container to resolve it against, so
/// a browser falls back to the viewBox), an unknown unit, or text that is no number.
///
/// ```
/// use rigsmith_2d::art::svg_length_px;
/// assert_eq!(svg_length_px("1in"), Some(96.0));
/// assert_eq!(svg_length_px("12pt"), Some(16.0));
/// assert_eq!(svg_length_px("50%"), None);
/// ```
pub fn svg_length_px(v: &str) -> Option<f64> {
    let v = v.trim();
    let lower = v.to_ascii_lowercase();
    if lower.ends_with('%') {
        return None;
    }
    let (number, factor) = CSS_UNITS_PX
        .iter()
        .find_map(|(unit, f)| lower.strip_suffix(unit).map(|n| (n, *f)))
        .unwrap_or((lower.as_str(), 1.0));
    // Strict, as CSS is: no space between the number and its unit.
    let x: f64 = number.parse().ok()?;
    Some(x * factor)
}

/// The attributes of the first `<svg` element, in order.
fn svg_root_attributes(text: &str) -> Option<Vec<(String, String)>> {
    let mut start = 0;
    let at = loop {
        let i = start + text[start..].find("<svg")?;
        let next = text[i + 4..].chars().next()?;
        if next.is_whitespace() || next == '>' || next == '/' {
            break i + 4;
        }
        start = i + 4;
    };
    let rest = &text[at..];
    let mut out = Vec::new();
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' || b[i] == b'/' {
            break;
        }
        let ns = i;
        while i < b.len() && b[i] != b'=' && !b[i].is_ascii_whitespace() && b[i] != b'>' {
            i += 1;
        }
        let name = rest[ns..i].to_string();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() || b[i] != b'=' {
            continue;
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let q = b[i];
        if q != b'"' && q != b'\'' {
            return Some(out);
        }
        i += 1;
        let vs = i;
        while i < b.len() && b[i] != q {
            i += 1;
        }
        out.push((name, rest[vs..i.min(b.len())].to_string()));
        i += 1;
    }
    Some(out)
}

/// FNV-1a, 64 bits, of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The short content digest of raster art: 12 hex digits of [`fnv1a64`].
pub fn digest(bytes: &[u8]) -> String {
    format!("{:016x}", fnv1a64(bytes))[..12].to_string()
}
