//! The rig model: bones, slots, skins, attachments and the document that holds them.
//!
//! A *rig* is a skeleton of [`Bone`]s, draw-ordered [`Slot`]s bound to them, and
//! [`Skin`]s mapping each slot to the drawable [`Attachment`]s it can show. Props and
//! characters are both rigs; a [`RigDocument`] is the stored form of one.
//!
//! Coordinates are **view_box units** (the SVG user space the art is drawn in): `+x`
//! right, `+y` DOWN, rotations in degrees, positive clockwise on screen.
//!
//! Reading is forward compatible: a field this version does not know is kept in the
//! `extra` map of the object it sits on and written back unchanged. Writing is strict
//! and canonical: a field at its default (`x: 0`, `scale_x: 1`, an unset `origin`, an
//! empty `bones` list) is omitted, so a document that never set a field reads back, and
//! hashes, as it did before the field existed. Non-finite numbers are refused.
//!
//! ```
//! use rigsmith_2d::model::RigDocument;
//! let doc = RigDocument::parse(br#"{"bones": [{"name": "root", "x": 512, "y": 980}]}"#).unwrap();
//! assert_eq!(doc.bones[0].y, 980.0);
//! assert_eq!(RigDocument::default().to_value(), serde_json::json!({}));
//! ```

use serde_json::{Map, Value};

use crate::error::RigError;

/// Canonical character view_box `(x, y, width, height)`: 1024 x 1024 with the feet
/// near y = 980.
pub const DEFAULT_VIEW_BOX: [f64; 4] = [0.0, 0.0, 1024.0, 1024.0];

/// The fields [`RigDocument`] adds about the rig as a whole, each omitted from the
/// stored document when unset ([`crate::rest_pose::omit_unset_rig_fields`]).
pub const RIG_DOCUMENT_OPTIONAL_FIELDS: [&str; 3] = ["origin", "rest_rotation", "nesting"];

/// The nesting modes of [`RigDocument::nesting`], by name; unset means the first.
pub const NESTINGS: [&str; 2] = ["flat", "bones"];

/// How slot nodes nest ([`crate::nesting::slot_parent_chain`] is the rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Nesting {
    /// A slot nests under its OWN bone's primary slot only: limbs are siblings of the torso.
    #[default]
    Flat,
    /// A slot nests under the primary slot of the nearest ancestor bone that has one,
    /// to any depth: a forearm turns with its upper arm (forward kinematics).
    Bones,
}

impl Nesting {
    /// `"flat"` or `"bones"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Nesting::Flat => "flat",
            Nesting::Bones => "bones",
        }
    }
}

/// A skeleton joint with a local transform relative to its parent.
///
/// `x`, `y`: offset from the parent bone (from the rig's view_box origin for a root),
/// view_box units. `rotation_deg`, `scale_x`, `scale_y`: the rest pose of the part(s)
/// the bone carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Unique bone name.
    pub name: String,
    /// Parent bone name; `None` for a root.
    pub parent: Option<String>,
    /// X offset from the parent, view_box units.
    pub x: f64,
    /// Y offset from the parent, view_box units (+y down).
    pub y: f64,
    /// Rest rotation, degrees, clockwise on screen.
    pub rotation_deg: f64,
    /// Rest scale along the part's x.
    pub scale_x: f64,
    /// Rest scale along the part's y.
    pub scale_y: f64,
    /// Optional pivot name (a circle in the art's `skeleton` group).
    pub pivot: Option<String>,
    /// Fields this version does not know, kept for writing back.
    pub extra: Map<String, Value>,
}

impl Bone {
    /// A root bone at the origin with no rest pose.
    pub fn new(name: &str) -> Self {
        Bone {
            name: name.into(),
            parent: None,
            x: 0.0,
            y: 0.0,
            rotation_deg: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            pivot: None,
            extra: Map::new(),
        }
    }

    /// The same bone under `parent`.
    pub fn with_parent(mut self, parent: &str) -> Self {
        self.parent = Some(parent.into());
        self
    }

    /// The same bone at `(x, y)` from its parent.
    pub fn at(mut self, x: f64, y: f64) -> Self {
        self.x = x;
        self.y = y;
        self
    }

    /// The same bone with a rest rotation in degrees.
    pub fn rotated(mut self, deg: f64) -> Self {
        self.rotation_deg = deg;
        self
    }

    /// Whether the bone carries a rest pose (a rotation or a non-unit scale).
    pub fn carries_rest_pose(&self) -> bool {
        self.rotation_deg != 0.0 || self.scale_x != 1.0 || self.scale_y != 1.0
    }
}

/// A draw-order slot bound to a bone, displaying one attachment at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// Unique slot name (also the name of the scene node built for it).
    pub name: String,
    /// The bone the slot follows.
    pub bone: String,
    /// Paint order: lower paints first (behind).
    pub draw_order: i64,
    /// Default attachment name; unset, the attachment named like the slot, else the
    /// slot's first attachment ([`RigDocument::drawn_attachment`]).
    pub attachment: Option<String>,
    /// Fields this version does not know.
    pub extra: Map<String, Value>,
}

impl Slot {
    /// A slot bound to `bone`, draw order 0.
    pub fn new(name: &str, bone: &str) -> Self {
        Slot {
            name: name.into(),
            bone: bone.into(),
            draw_order: 0,
            attachment: None,
            extra: Map::new(),
        }
    }

    /// The same slot with a draw order.
    pub fn drawn(mut self, draw_order: i64) -> Self {
        self.draw_order = draw_order;
        self
    }
}

/// A drawable: an art file (SVG, PNG, JPEG, WebP) and an anchor point.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// Art path, relative to the rig's art folder (`parts/head.svg`).
    pub path: String,
    /// The point of the art placed at the node's origin, in 0..1 per axis of its box
    /// (Pixi's `Sprite.anchor`). Default `(0.5, 0.5)`.
    pub anchor: (f64, f64),
    /// X offset from the slot's bone, view_box units.
    pub x: f64,
    /// Y offset from the slot's bone, view_box units.
    pub y: f64,
    /// Declared draw width, view_box units; wins over the art's extent.
    pub width: Option<f64>,
    /// Declared draw height, view_box units.
    pub height: Option<f64>,
    /// Where this part's art came from, when not the document's source (any JSON).
    pub source: Option<Value>,
    /// Fields this version does not know.
    pub extra: Map<String, Value>,
}

impl Attachment {
    /// An attachment of `path`, anchored at its centre, no offset, art-sized.
    pub fn new(path: &str) -> Self {
        Attachment {
            path: path.into(),
            anchor: (0.5, 0.5),
            x: 0.0,
            y: 0.0,
            width: None,
            height: None,
            source: None,
            extra: Map::new(),
        }
    }
}

/// A named outfit: maps slot -> {attachment name -> [`Attachment`]}, in declared order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Skin {
    /// Skin name.
    pub name: String,
    /// `(slot name, [(attachment name, attachment)])`, in declared order.
    pub slots: Vec<(String, Vec<(String, Attachment)>)>,
    /// Fields this version does not know.
    pub extra: Map<String, Value>,
}

impl Skin {
    /// The attachments a slot can show in this skin.
    pub fn attachments(&self, slot: &str) -> Option<&[(String, Attachment)]> {
        self.slots
            .iter()
            .find(|(s, _)| s == slot)
            .map(|(_, a)| a.as_slice())
    }

    /// One attachment by slot and name.
    pub fn get(&self, slot: &str, name: &str) -> Option<&Attachment> {
        self.attachments(slot)?
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }

    /// Mutable access to one attachment.
    pub fn get_mut(&mut self, slot: &str, name: &str) -> Option<&mut Attachment> {
        self.slots
            .iter_mut()
            .find(|(s, _)| s == slot)?
            .1
            .iter_mut()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }

    /// Adds (or replaces) an attachment.
    pub fn insert(&mut self, slot: &str, name: &str, att: Attachment) {
        let i = match self.slots.iter().position(|(s, _)| s == slot) {
            Some(i) => i,
            None => {
                self.slots.push((slot.into(), Vec::new()));
                self.slots.len() - 1
            }
        };
        let list = &mut self.slots[i].1;
        match list.iter_mut().find(|(n, _)| n == name) {
            Some(e) => e.1 = att,
            None => list.push((name.into(), att)),
        }
    }
}

/// The stored form of a rig (a prop or a character).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RigDocument {
    /// `(x, y, width, height)` of the art's user space; unset = [`DEFAULT_VIEW_BOX`].
    pub view_box: Option<[f64; 4]>,
    /// The point of the art that lands at the entity's placement, view_box units;
    /// unset = the centre of the bones' extent ([`crate::positions::rig_origin`]).
    pub origin: Option<(f64, f64)>,
    /// How slots nest; unset = flat.
    pub nesting: Option<Nesting>,
    /// Whether the bones' rest pose poses the built parts; unset = yes. `false` is
    /// written only by the legacy migration ([`crate::rest_pose::protect_legacy_rest_pose`]).
    pub rest_rotation: Option<bool>,
    /// The skeleton, any order.
    pub bones: Vec<Bone>,
    /// The slots, any order (draw order is [`Slot::draw_order`]).
    pub slots: Vec<Slot>,
    /// The skins, by name, in declared order.
    pub skins: Vec<Skin>,
    /// Fields this version does not know (a genre's own: `name`, `schema_version`, ...).
    pub extra: Map<String, Value>,
}

impl RigDocument {
    /// The view_box, defaulted.
    pub fn view_box(&self) -> [f64; 4] {
        self.view_box.unwrap_or(DEFAULT_VIEW_BOX)
    }

    /// The nesting, defaulted (flat).
    pub fn nesting(&self) -> Nesting {
        self.nesting.unwrap_or_default()
    }

    /// Whether the bones' rest pose is applied (`rest_rotation` unset or true).
    pub fn applies_rest_pose(&self) -> bool {
        self.rest_rotation != Some(false)
    }

    /// A bone by name (the first, should names repeat).
    pub fn bone(&self, name: &str) -> Option<&Bone> {
        self.bones.iter().find(|b| b.name == name)
    }

    /// A slot by name.
    pub fn slot(&self, name: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.name == name)
    }

    /// A skin by name.
    pub fn skin(&self, name: &str) -> Option<&Skin> {
        self.skins.iter().find(|s| s.name == name)
    }

    /// The skin drawn by default: the one named `default`, else the first.
    pub fn default_skin(&self) -> Option<&Skin> {
        self.skin("default").or(self.skins.first())
    }

    /// The `(name, attachment)` `slot` draws by default in `skin`, or `None`: the slot's
    /// declared `attachment`; unset, the attachment named like the slot, else the slot's
    /// first attachment.
    pub fn drawn_attachment<'a>(
        &'a self,
        skin: &'a Skin,
        slot: &Slot,
    ) -> Option<(&'a str, &'a Attachment)> {
        let list = skin.attachments(&slot.name)?;
        let pick = match &slot.attachment {
            Some(name) => list.iter().find(|(n, _)| n == name),
            None => list
                .iter()
                .find(|(n, _)| *n == slot.name)
                .or_else(|| list.first()),
        };
        pick.map(|(n, a)| (n.as_str(), a))
    }

    /// Parses a document from JSON bytes.
    pub fn parse(bytes: &[u8]) -> Result<Self, RigError> {
        let v: Value = serde_json::from_slice(bytes).map_err(|e| {
            RigError::format(
                format!("line {} column {}", e.line(), e.column()),
                format!("not valid JSON: {e}"),
            )
        })?;
        Self::from_value(&v)
    }

    /// Reads a document file: the model and the raw JSON it came from (the raw form
    /// is what the legacy rest-pose guard reads).
    pub fn read(path: &std::path::Path) -> Result<(Self, Value), RigError> {
        let bytes = std::fs::read(path).map_err(|e| RigError::io(path, e))?;
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| RigError::Format {
            file: path.display().to_string(),
            at: format!("line {} column {}", e.line(), e.column()),
            msg: format!("not valid JSON: {e}"),
        })?;
        let doc = Self::from_value(&v).map_err(|e| e.in_file(path))?;
        Ok((doc, v))
    }

    /// Builds the model from a parsed JSON value.
    pub fn from_value(v: &Value) -> Result<Self, RigError> {
        let obj = as_object(v, "$")?;
        let mut doc = RigDocument::default();
        for (k, val) in obj {
            match k.as_str() {
                "view_box" => {
                    if !val.is_null() {
                        let a = as_array(val, "view_box")?;
                        if a.len() != 4 {
                            return Err(RigError::format(
                                "view_box",
                                format!(
                                    "expected 4 numbers (x, y, width, height), got {}",
                                    a.len()
                                ),
                            ));
                        }
                        let mut vb = [0.0; 4];
                        for (i, x) in a.iter().enumerate() {
                            vb[i] = finite(x, &format!("view_box[{i}]"))?;
                        }
                        if vb[2] <= 0.0 || vb[3] <= 0.0 {
                            return Err(RigError::format(
                                "view_box",
                                "width and height must be positive",
                            ));
                        }
                        doc.view_box = Some(vb);
                    }
                }
                "origin" => {
                    if !val.is_null() {
                        doc.origin = Some(pair(val, "origin")?);
                    }
                }
                "nesting" => {
                    doc.nesting = match val {
                        Value::Null => None,
                        Value::String(s) if s == "flat" => Some(Nesting::Flat),
                        Value::String(s) if s == "bones" => Some(Nesting::Bones),
                        other => {
                            return Err(RigError::format(
                                "nesting",
                                format!("expected \"flat\" or \"bones\", got {other}"),
                            ))
                        }
                    }
                }
                "rest_rotation" => {
                    doc.rest_rotation = match val {
                        Value::Null => None,
                        Value::Bool(b) => Some(*b),
                        other => {
                            return Err(RigError::format(
                                "rest_rotation",
                                format!("expected true or false, got {other}"),
                            ))
                        }
                    }
                }
                "bones" => {
                    if !val.is_null() {
                        for (i, b) in as_array(val, "bones")?.iter().enumerate() {
                            doc.bones.push(parse_bone(b, &format!("bones[{i}]"))?);
                        }
                    }
                }
                "slots" => {
                    if !val.is_null() {
                        for (i, s) in as_array(val, "slots")?.iter().enumerate() {
                            doc.slots.push(parse_slot(s, &format!("slots[{i}]"))?);
                        }
                    }
                }
                "skins" => {
                    if !val.is_null() {
                        for (name, s) in as_object(val, "skins")? {
                            doc.skins
                                .push(parse_skin(name, s, &format!("skins.{name}"))?);
                        }
                    }
                }
                _ => {
                    doc.extra.insert(k.clone(), val.clone());
                }
            }
        }
        Ok(doc)
    }

    /// The canonical JSON form: unset and default fields omitted, unknown fields kept.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in &self.extra {
            if !matches!(
                k.as_str(),
                "view_box" | "origin" | "nesting" | "rest_rotation" | "bones" | "slots" | "skins"
            ) {
                m.insert(k.clone(), v.clone());
            }
        }
        if let Some(vb) = self.view_box {
            m.insert("view_box".into(), Value::from(vb.to_vec()));
        }
        if let Some((x, y)) = self.origin {
            m.insert("origin".into(), Value::from(vec![x, y]));
        }
        if let Some(n) = self.nesting {
            m.insert("nesting".into(), n.as_str().into());
        }
        if let Some(r) = self.rest_rotation {
            m.insert("rest_rotation".into(), r.into());
        }
        if !self.bones.is_empty() {
            m.insert(
                "bones".into(),
                Value::Array(self.bones.iter().map(bone_value).collect()),
            );
        }
        if !self.slots.is_empty() {
            m.insert(
                "slots".into(),
                Value::Array(self.slots.iter().map(slot_value).collect()),
            );
        }
        if !self.skins.is_empty() {
            let mut skins = Map::new();
            for s in &self.skins {
                skins.insert(s.name.clone(), skin_value(s));
            }
            m.insert("skins".into(), Value::Object(skins));
        }
        Value::Object(m)
    }

    /// The canonical JSON text (pretty, two-space indent, trailing newline).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(&self.to_value()).unwrap_or_default();
        s.push('\n');
        s
    }
}

fn as_object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, RigError> {
    v.as_object()
        .ok_or_else(|| RigError::format(at, format!("expected an object, got {}", kind(v))))
}

fn as_array<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>, RigError> {
    v.as_array()
        .ok_or_else(|| RigError::format(at, format!("expected an array, got {}", kind(v))))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn finite(v: &Value, at: &str) -> Result<f64, RigError> {
    let x = v
        .as_f64()
        .ok_or_else(|| RigError::format(at, format!("expected a number, got {}", kind(v))))?;
    if !x.is_finite() {
        return Err(RigError::format(at, "the number is not finite"));
    }
    Ok(x)
}

fn opt_finite(v: &Value, at: &str) -> Result<Option<f64>, RigError> {
    if v.is_null() {
        Ok(None)
    } else {
        finite(v, at).map(Some)
    }
}

fn string(v: &Value, at: &str) -> Result<String, RigError> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| RigError::format(at, format!("expected a string, got {}", kind(v))))
}

fn opt_string(v: &Value, at: &str) -> Result<Option<String>, RigError> {
    if v.is_null() {
        Ok(None)
    } else {
        string(v, at).map(Some)
    }
}

fn pair(v: &Value, at: &str) -> Result<(f64, f64), RigError> {
    let a = as_array(v, at)?;
    if a.len() != 2 {
        return Err(RigError::format(
            at,
            format!("expected 2 numbers, got {}", a.len()),
        ));
    }
    Ok((
        finite(&a[0], &format!("{at}[0]"))?,
        finite(&a[1], &format!("{at}[1]"))?,
    ))
}

fn required<'a>(obj: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value, RigError> {
    obj.get(key)
        .ok_or_else(|| RigError::format(at, format!("missing required field `{key}`")))
}

fn parse_bone(v: &Value, at: &str) -> Result<Bone, RigError> {
    let obj = as_object(v, at)?;
    let name = string(required(obj, "name", at)?, &format!("{at}.name"))?;
    let mut b = Bone::new(&name);
    for (k, val) in obj {
        let p = format!("{at}.{k}");
        match k.as_str() {
            "name" => {}
            "parent" => b.parent = opt_string(val, &p)?,
            "x" => b.x = finite(val, &p)?,
            "y" => b.y = finite(val, &p)?,
            "rotation_deg" => b.rotation_deg = finite(val, &p)?,
            "scale_x" => b.scale_x = finite(val, &p)?,
            "scale_y" => b.scale_y = finite(val, &p)?,
            "pivot" => b.pivot = opt_string(val, &p)?,
            _ => {
                b.extra.insert(k.clone(), val.clone());
            }
        }
    }
    Ok(b)
}

fn parse_slot(v: &Value, at: &str) -> Result<Slot, RigError> {
    let obj = as_object(v, at)?;
    let name = string(required(obj, "name", at)?, &format!("{at}.name"))?;
    let bone = string(required(obj, "bone", at)?, &format!("{at}.bone"))?;
    let mut s = Slot::new(&name, &bone);
    for (k, val) in obj {
        let p = format!("{at}.{k}");
        match k.as_str() {
            "name" | "bone" => {}
            "draw_order" => {
                let d = finite(val, &p)?;
                if d.fract() != 0.0 || d.abs() > 9.0e15 {
                    return Err(RigError::format(p, "expected a whole number"));
                }
                s.draw_order = d as i64;
            }
            "attachment" => s.attachment = opt_string(val, &p)?,
            _ => {
                s.extra.insert(k.clone(), val.clone());
            }
        }
    }
    Ok(s)
}

fn parse_attachment(v: &Value, at: &str) -> Result<Attachment, RigError> {
    let obj = as_object(v, at)?;
    let path = string(required(obj, "path", at)?, &format!("{at}.path"))?;
    let mut a = Attachment::new(&path);
    for (k, val) in obj {
        let p = format!("{at}.{k}");
        match k.as_str() {
            "path" => {}
            "anchor" => a.anchor = pair(val, &p)?,
            "x" => a.x = finite(val, &p)?,
            "y" => a.y = finite(val, &p)?,
            "width" => a.width = opt_finite(val, &p)?,
            "height" => a.height = opt_finite(val, &p)?,
            "source" => {
                a.source = if val.is_null() {
                    None
                } else {
                    Some(val.clone())
                }
            }
            _ => {
                a.extra.insert(k.clone(), val.clone());
            }
        }
    }
    for (d, p) in [(a.width, "width"), (a.height, "height")] {
        if let Some(d) = d {
            if d <= 0.0 {
                return Err(RigError::format(
                    format!("{at}.{p}"),
                    format!(
                        "a declared size must be positive, got {}",
                        crate::error::num(d)
                    ),
                ));
            }
        }
    }
    Ok(a)
}

fn parse_skin(key: &str, v: &Value, at: &str) -> Result<Skin, RigError> {
    let obj = as_object(v, at)?;
    let mut skin = Skin {
        name: key.into(),
        ..Skin::default()
    };
    for (k, val) in obj {
        let p = format!("{at}.{k}");
        match k.as_str() {
            "name" => {
                let n = string(val, &p)?;
                if n != key {
                    skin.extra.insert("name".into(), val.clone());
                }
            }
            "slots" => {
                if val.is_null() {
                    continue;
                }
                for (slot, atts) in as_object(val, &p)? {
                    let sp = format!("{p}.{slot}");
                    let mut list = Vec::new();
                    for (name, a) in as_object(atts, &sp)? {
                        list.push((name.clone(), parse_attachment(a, &format!("{sp}.{name}"))?));
                    }
                    skin.slots.push((slot.clone(), list));
                }
            }
            _ => {
                skin.extra.insert(k.clone(), val.clone());
            }
        }
    }
    Ok(skin)
}

fn put_extra(m: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (k, v) in extra {
        if !m.contains_key(k) {
            m.insert(k.clone(), v.clone());
        }
    }
}

fn bone_value(b: &Bone) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), b.name.clone().into());
    if let Some(p) = &b.parent {
        m.insert("parent".into(), p.clone().into());
    }
    for (k, v, d) in [
        ("x", b.x, 0.0),
        ("y", b.y, 0.0),
        ("rotation_deg", b.rotation_deg, 0.0),
        ("scale_x", b.scale_x, 1.0),
        ("scale_y", b.scale_y, 1.0),
    ] {
        if v != d {
            m.insert(k.into(), v.into());
        }
    }
    if let Some(p) = &b.pivot {
        m.insert("pivot".into(), p.clone().into());
    }
    put_extra(&mut m, &b.extra);
    Value::Object(m)
}

fn slot_value(s: &Slot) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), s.name.clone().into());
    m.insert("bone".into(), s.bone.clone().into());
    if s.draw_order != 0 {
        m.insert("draw_order".into(), s.draw_order.into());
    }
    if let Some(a) = &s.attachment {
        m.insert("attachment".into(), a.clone().into());
    }
    put_extra(&mut m, &s.extra);
    Value::Object(m)
}

/// The canonical JSON form of one attachment.
pub fn attachment_value(a: &Attachment) -> Value {
    let mut m = Map::new();
    m.insert("path".into(), a.path.clone().into());
    if a.anchor != (0.5, 0.5) {
        m.insert("anchor".into(), Value::from(vec![a.anchor.0, a.anchor.1]));
    }
    if a.x != 0.0 {
        m.insert("x".into(), a.x.into());
    }
    if a.y != 0.0 {
        m.insert("y".into(), a.y.into());
    }
    if let Some(w) = a.width {
        m.insert("width".into(), w.into());
    }
    if let Some(h) = a.height {
        m.insert("height".into(), h.into());
    }
    if let Some(s) = &a.source {
        m.insert("source".into(), s.clone());
    }
    put_extra(&mut m, &a.extra);
    Value::Object(m)
}

fn skin_value(s: &Skin) -> Value {
    let mut m = Map::new();
    let mut slots = Map::new();
    for (slot, list) in &s.slots {
        let mut atts = Map::new();
        for (n, a) in list {
            atts.insert(n.clone(), attachment_value(a));
        }
        slots.insert(slot.clone(), Value::Object(atts));
    }
    m.insert("slots".into(), Value::Object(slots));
    put_extra(&mut m, &s.extra);
    Value::Object(m)
}
