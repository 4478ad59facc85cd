//! Bone-name conventions: which side a bone is on, its side-less stem, its mirror, and
//! its whole-word tokens.
//!
//! Every common spelling is read: `.L`/`.R`, `_l`/`_r`, `-L`, ` L`, `Left`/`Right` as a
//! prefix or suffix (`LeftArm`, `mixamorig:LeftArm`, `left_arm`, `arm_left`), and VRM
//! humanoid names (`leftUpperArm`). `Side::Center` is everything else.

use serde::{Deserialize, Serialize};

/// Which side of the body a bone belongs to (the character's own left is +X).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Side {
    /// The character's left (+X).
    #[serde(rename = "L")]
    Left,
    /// The character's right (-X).
    #[serde(rename = "R")]
    Right,
    /// On the mid-plane.
    #[default]
    #[serde(rename = "C")]
    Center,
}

impl Side {
    /// The other side (Center stays Center).
    pub fn mirror(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
            Side::Center => Side::Center,
        }
    }
    /// `"L"`, `"R"` or `"C"`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::Left => "L",
            Side::Right => "R",
            Side::Center => "C",
        }
    }
}

/// The name without a namespace prefix such as `mixamorig:` or `Armature|`.
pub fn strip_namespace(name: &str) -> &str {
    let n = name.rsplit(':').next().unwrap_or(name);
    n.rsplit('|').next().unwrap_or(n)
}

/// Splits a name into its side and a lower-case, side-less stem.
///
/// ```
/// use rigsmith::model::naming::{split_side, Side};
/// assert_eq!(split_side("upperarm_l"), ("upperarm".to_string(), Side::Left));
/// assert_eq!(split_side("mixamorig:RightForeArm"), ("forearm".to_string(), Side::Right));
/// assert_eq!(split_side("thigh.L"), ("thigh".to_string(), Side::Left));
/// assert_eq!(split_side("leftUpperLeg"), ("upperleg".to_string(), Side::Left));
/// assert_eq!(split_side("spine_01"), ("spine_01".to_string(), Side::Center));
/// assert_eq!(split_side("DEF-upper_arm.R.001"), ("def-upper_arm.001".to_string(), Side::Right));
/// assert_eq!(split_side("Hips"), ("hips".to_string(), Side::Center));
/// ```
pub fn split_side(name: &str) -> (String, Side) {
    let n = strip_namespace(name);
    let lower = n.to_ascii_lowercase();
    // Word prefixes: Left/Right (CamelCase or separated).
    for (word, side) in [("left", Side::Left), ("right", Side::Right)] {
        if let Some(rest) = lower.strip_prefix(word) {
            if !rest.is_empty() {
                let rest = rest.trim_start_matches(['_', '-', '.', ' ']);
                return (rest.to_string(), side);
            }
        }
        if let Some(rest) = lower.strip_suffix(word) {
            let rest = rest.trim_end_matches(['_', '-', '.', ' ']);
            if !rest.is_empty() {
                return (rest.to_string(), side);
            }
        }
    }
    // Single-letter side tokens delimited by . _ - or space, anywhere (".L.001").
    let bytes = lower.as_bytes();
    let is_sep = |c: u8| matches!(c, b'.' | b'_' | b'-' | b' ');
    for i in 0..bytes.len() {
        let c = bytes[i];
        if c != b'l' && c != b'r' {
            continue;
        }
        let before_ok = i > 0 && is_sep(bytes[i - 1]);
        let after_ok = i + 1 == bytes.len() || is_sep(bytes[i + 1]);
        let start_ok = i == 0 && i + 1 < bytes.len() && is_sep(bytes[i + 1]);
        if (before_ok && after_ok) || start_ok {
            let side = if c == b'l' { Side::Left } else { Side::Right };
            let (a, b) = if i > 0 { (i - 1, i + 1) } else { (0, i + 2) };
            let mut stem = String::new();
            stem.push_str(&lower[..a]);
            stem.push_str(&lower[b.min(lower.len())..]);
            return (stem, side);
        }
    }
    (lower, Side::Center)
}

/// The side a bone name belongs to.
pub fn side_of(name: &str) -> Side {
    split_side(name).1
}

/// The name of the mirrored bone, keeping the spelling (`hand_l` -> `hand_r`,
/// `LeftHand` -> `RightHand`, `thigh.L` -> `thigh.R`). Centre names map to themselves.
pub fn mirror_name(name: &str) -> String {
    let swaps: [(&str, &str); 12] = [
        (".L", ".R"),
        ("_L", "_R"),
        ("_l", "_r"),
        (".l", ".r"),
        ("-L", "-R"),
        ("-l", "-r"),
        ("Left", "Right"),
        ("left", "right"),
        ("LEFT", "RIGHT"),
        (" L", " R"),
        ("L_", "R_"),
        ("l_", "r_"),
    ];
    let side = side_of(name);
    if side == Side::Center {
        return name.to_string();
    }
    for (l, r) in swaps {
        let (from, to) = if side == Side::Left { (l, r) } else { (r, l) };
        // Replace the occurrence that carries the side: try suffix, then the first
        // occurrence followed by a separator or end.
        if let Some(pos) = find_side_token(name, from) {
            let mut s = String::with_capacity(name.len());
            s.push_str(&name[..pos]);
            s.push_str(to);
            s.push_str(&name[pos + from.len()..]);
            if side_of(&s) == side.mirror() {
                return s;
            }
        }
    }
    name.to_string()
}

fn find_side_token(name: &str, tok: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(p) = name[start..].find(tok) {
        let pos = start + p;
        let end = pos + tok.len();
        let next = name.as_bytes().get(end).copied();
        let word = tok.len() > 2; // Left/Right: accept anywhere
        if word || next.is_none() || matches!(next, Some(b'.' | b'_' | b'-' | b' ')) {
            return Some(pos);
        }
        start = pos + 1;
    }
    None
}

/// Whole-word lower-case tokens of a name: split at non-alphanumerics, at
/// lower-to-upper case changes and between letters and digits.
///
/// ```
/// use rigsmith::model::naming::tokens;
/// assert_eq!(tokens("DEF-skirt.seg1"), vec!["def", "skirt", "seg", "1"]);
/// assert_eq!(tokens("HairFront_L"), vec!["hair", "front", "l"]);
/// assert_eq!(tokens("chairbone"), vec!["chairbone"]);
/// ```
pub fn tokens(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in strip_namespace(name).chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_alphabetic() && c.is_ascii_digit())
                || (p.is_ascii_digit() && c.is_alphabetic());
            if boundary && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The cosmetic classes matched on whole tokens of bone names. A bone named
/// `hair_root` is hair; `chairbone` and `shoulder` are not anything.
pub const COSMETIC_CLASSES: [&str; 15] = [
    "hair", "skirt", "cloth", "ribbon", "tail", "cape", "coat", "scarf", "sleeve", "breast",
    "bust", "feather", "strap", "antenna", "wing",
];

/// The cosmetic class of a bone name by whole token, if any (plural tokens such as
/// `wings` count).
pub(crate) fn cosmetic_class(name: &str) -> Option<&'static str> {
    let toks = tokens(name);
    COSMETIC_CLASSES.into_iter().find(|class| {
        toks.iter()
            .any(|t| t == class || t.strip_suffix('s') == Some(*class))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_names() {
        assert_eq!(mirror_name("hand_l"), "hand_r");
        assert_eq!(mirror_name("thigh.L"), "thigh.R");
        assert_eq!(mirror_name("mixamorig:LeftHand"), "mixamorig:RightHand");
        assert_eq!(mirror_name("leftUpperArm"), "rightUpperArm");
        assert_eq!(mirror_name("DEF-upper_arm.R.001"), "DEF-upper_arm.L.001");
        assert_eq!(mirror_name("spine_01"), "spine_01");
        assert_eq!(mirror_name("upperarm_twist_01_l"), "upperarm_twist_01_r");
    }

    #[test]
    fn sides() {
        assert_eq!(side_of("upperarm_twist_01_l"), Side::Left);
        assert_eq!(side_of("Spine1"), Side::Center);
        assert_eq!(side_of("l_eye"), Side::Left);
        assert_eq!(side_of("shoulder"), Side::Center);
        assert_eq!(side_of("LeftEye"), Side::Left);
    }

    #[test]
    fn cosmetic() {
        assert_eq!(cosmetic_class("hair_root"), Some("hair"));
        assert_eq!(cosmetic_class("chairbone"), None);
        assert_eq!(cosmetic_class("shoulder.L"), None);
        assert_eq!(cosmetic_class("DEF-skirt.seg1"), Some("skirt"));
        assert_eq!(cosmetic_class("J_Sec_Hair1_01"), Some("hair"));
    }
}
