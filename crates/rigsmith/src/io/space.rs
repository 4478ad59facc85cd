//! Bringing a character into glTF space (+Y up, metres) when its file is not: a Z-up
//! export (Blender's and most CAD tools' convention) and a model in centimetres or
//! millimetres.
//!
//! glTF is +Y up and metres by definition, so a correct glTF needs nothing; OBJ files
//! and careless exports often do. [`to_gltf_space`] turns a Z-up model -90 deg about X
//! (`(x, y, z) -> (x, z, -y)`: Z up becomes Y up, -Y forward becomes +Z, as Blender's
//! glTF exporter does) and scales it to metres. With [`Units::Auto`] the unit is read
//! from the height (the vertical extent after turning), conservatively: up to 10 units
//! is metres (a 5.6-unit game character is left alone), 30 to 400 units is a figure in
//! centimetres, 400 to 4000 one in millimetres; between 10 and 30 units, and above
//! 4000, the model is left as it is with a note asking for `--units`. Every decision is
//! returned in plain words for the summary line.
//!
//! [`face_front`] turns a character whose front the user states (`--facing -z`, `+x`,
//! `-x`) about +Y to face +Z, glTF's front, and marks the front as stated
//! ([`Character::facing_stated`]): the model check then takes it as it is. Without it
//! the front is read from the toes ([`crate::fit::model_check`]); feet with no toes
//! (a chibi's round feet, feet under a long dress) say nothing, and +Z is assumed.

use glam::Mat4;

use crate::model::Character;

/// Which axis points up in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Up {
    /// +Y up (glTF's convention): nothing to do.
    #[default]
    Y,
    /// +Z up: turned -90 deg about X.
    Z,
}

/// The file's length unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Units {
    /// Read from the height (see the module doc).
    #[default]
    Auto,
    /// Metres (glTF's unit).
    M,
    /// Centimetres: scaled by 0.01.
    Cm,
    /// Millimetres: scaled by 0.001.
    Mm,
}

/// Which way the character faces in the file, when the user states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    /// +Z (glTF's front): nothing to turn.
    PlusZ,
    /// -Z (some exports; VRM 0.x files are turned by their reader): turned 180 deg
    /// about +Y.
    MinusZ,
    /// +X: turned -90 deg about +Y.
    PlusX,
    /// -X: turned 90 deg about +Y.
    MinusX,
}

impl Facing {
    /// The turn about +Y (radians) that brings this front to +Z.
    pub fn turn(self) -> f32 {
        use std::f32::consts::{FRAC_PI_2, PI};
        match self {
            Facing::PlusZ => 0.0,
            Facing::MinusZ => PI,
            Facing::PlusX => -FRAC_PI_2,
            Facing::MinusX => FRAC_PI_2,
        }
    }

    /// The facing written as `axis` (`+Z`, `-Z`, `+X`, `-X`: the model check's
    /// [`crate::fit::ModelReport::facing`]); `None` for anything else.
    pub fn of_axis(axis: &str) -> Option<Facing> {
        [Facing::PlusZ, Facing::MinusZ, Facing::PlusX, Facing::MinusX]
            .into_iter()
            .find(|f| f.axis() == axis)
    }

    /// The axis, as the summary and the report write it (`+Z`, `-Z`, `+X`, `-X`).
    pub fn axis(self) -> &'static str {
        match self {
            Facing::PlusZ => "+Z",
            Facing::MinusZ => "-Z",
            Facing::PlusX => "+X",
            Facing::MinusX => "-X",
        }
    }
}

/// Turns `c`, which faces `facing` in its file, about +Y to face +Z, and marks its front
/// as stated ([`Character::facing_stated`]); returns what was done, in plain words.
pub fn face_front(c: &mut Character, facing: Facing) -> Vec<String> {
    c.facing_stated = true;
    let a = facing.turn();
    if a == 0.0 {
        return vec!["the front is +Z as stated (--facing): the toes are not read".to_string()];
    }
    c.transform(Mat4::from_rotation_y(a));
    vec![format!(
        "turned {:.0} deg about +Y to face +Z: the file faces {} (--facing)",
        a.to_degrees(),
        facing.axis()
    )]
}

/// Height (units of the file) at or below which [`Units::Auto`] reads metres.
pub const AUTO_MAX_M: f32 = 10.0;
/// Height from which [`Units::Auto`] reads centimetres.
pub const AUTO_MIN_CM: f32 = 30.0;
/// Height at or below which [`Units::Auto`] reads centimetres.
pub const AUTO_MAX_CM: f32 = 400.0;
/// Height at or below which [`Units::Auto`] reads millimetres.
pub const AUTO_MAX_MM: f32 = 4000.0;

/// Turns and scales `c` into glTF space; returns what was done and decided, in plain
/// words (empty when the file was already +Y up and in metres by its height).
pub fn to_gltf_space(c: &mut Character, up: Up, units: Units) -> Vec<String> {
    let mut notes = Vec::new();
    if up == Up::Z {
        c.transform(Mat4::from_rotation_x(-std::f32::consts::FRAC_PI_2));
        notes.push("turned from Z up to Y up (--up z)".to_string());
    }
    let (lo, hi) = c.bounds();
    let h = hi.y - lo.y;
    let (scale, why) = match units {
        Units::M => (1.0, None),
        Units::Cm => (0.01, Some("centimetres (--units cm)".to_string())),
        Units::Mm => (0.001, Some("millimetres (--units mm)".to_string())),
        Units::Auto if !(h.is_finite() && h > 0.0) || h <= AUTO_MAX_M => (1.0, None),
        Units::Auto if h < AUTO_MIN_CM => {
            notes.push(format!(
                "units: the model is {h:.1} units tall, too tall for metres and too short for centimetres: left as it is (give --units m or cm)"
            ));
            (1.0, None)
        }
        Units::Auto if h <= AUTO_MAX_CM => (
            0.01,
            Some(format!(
                "centimetres, by its height of {h:.1} units (--units m keeps them)"
            )),
        ),
        Units::Auto if h <= AUTO_MAX_MM => (
            0.001,
            Some(format!(
                "millimetres, by its height of {h:.0} units (--units m keeps them)"
            )),
        ),
        Units::Auto => {
            notes.push(format!(
                "units: the model is {h:.0} units tall, more than millimetres would give a human: left as it is (give --units)"
            ));
            (1.0, None)
        }
    };
    if let Some(why) = why {
        c.transform(Mat4::from_scale(glam::Vec3::splat(scale)));
        notes.push(format!(
            "read as {why}: scaled by {scale} to {:.3} m",
            h * scale
        ));
    }
    notes
}
