//! The bones' rest pose, and the migration that protects rigs drawn before it applied.
//!
//! A bone's `rotation_deg`, `scale_x` and `scale_y` pose the node(s) built for its
//! slots ([`rest_transform`]). Documents from before that rule were drawn with such a
//! pose already in their pixels, so the migration onto the version that applies it
//! writes `rest_rotation: false` onto any document whose bones carry one
//! ([`protect_legacy_rest_pose`]), and the builder guards against a document whose
//! version the migration could not see ([`legacy_rest_pose_unknown`]).
//!
//! ```
//! use rigsmith_2d::model::Bone;
//! use rigsmith_2d::rest_pose::rest_transform;
//! let t = rest_transform(&Bone::new("leg").rotated(-0.0));
//! assert_eq!((t.rotation, t.scale_x, t.scale_y), (0.0, 1.0, 1.0));
//! assert!(t.rotation.is_sign_positive());
//! ```

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::num;
use crate::model::{Bone, RigDocument, RIG_DOCUMENT_OPTIONAL_FIELDS};

/// The node transform fields a bone's rest pose sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RestTransform {
    /// Rotation, radians, clockwise on screen.
    pub rotation: f64,
    /// Scale along x.
    pub scale_x: f64,
    /// Scale along y.
    pub scale_y: f64,
}

impl RestTransform {
    /// As JSON: `{"rotation": .., "scale_x": .., "scale_y": ..}`.
    pub fn to_value(&self) -> Value {
        serde_json::json!({"rotation": self.rotation, "scale_x": self.scale_x, "scale_y": self.scale_y})
    }
}

/// The rest transform of a bone: its `rotation_deg` in radians and its scales, `-0.0`
/// normalised to `0.0`.
pub fn rest_transform(bone: &Bone) -> RestTransform {
    RestTransform {
        rotation: bone.rotation_deg.to_radians() + 0.0,
        scale_x: bone.scale_x + 0.0,
        scale_y: bone.scale_y + 0.0,
    }
}

/// Whether any bone of a RAW document has a non-zero `rotation_deg` or a non-unit
/// `scale_x`/`scale_y`.
pub fn bones_carry_a_rest_pose(raw: &Value) -> bool {
    let Some(bones) = raw.get("bones").and_then(Value::as_array) else {
        return false;
    };
    bones.iter().any(|b| {
        let f = |k: &str| b.get(k).and_then(Value::as_f64);
        f("rotation_deg").is_some_and(|r| r != 0.0)
            || f("scale_x").is_some_and(|s| s != 1.0)
            || f("scale_y").is_some_and(|s| s != 1.0)
    })
}

/// The migration step every rig kind runs onto the version that applies the rest
/// pose: a document whose bones carry a pose and which says nothing about
/// `rest_rotation` gets `rest_rotation: false` (it keeps its picture); any other is
/// returned unchanged. The caller sets the version.
pub fn protect_legacy_rest_pose(mut doc: Value) -> Value {
    if bones_carry_a_rest_pose(&doc) {
        if let Some(m) = doc.as_object_mut() {
            if !m.contains_key("rest_rotation") {
                m.insert("rest_rotation".into(), Value::Bool(false));
            }
        }
    }
    doc
}

/// A migration: a raw document in, the migrated document out.
pub type Migration = fn(Value) -> Value;

/// The field every registered rig kind keeps its version in.
pub const VERSION_FIELD: &str = "schema_version";

/// The kind a rig document is read as when the reader names none: the prop's schema,
/// which is the rig model's own (a character is a rig with more fields).
pub const DEFAULT_KIND: &str = "PropDescriptor";

/// The rig document kinds that apply the rest pose, and their migrations.
///
/// This is the one place a reader learns from which version a kind applies its bones'
/// rest pose (`since`, the reference's `REST_POSE_SINCE`): every read path
/// ([`crate::read::read_value`]) goes through it.
#[derive(Clone, Debug)]
pub struct RestPoseRegistry {
    /// `{kind: the version from which its bones' rest pose is applied}`.
    pub since: BTreeMap<String, String>,
    /// `{(kind, from, to): migration}`.
    pub migrations: BTreeMap<(String, String, String), Migration>,
    /// `{kind: its version field and current version}`, for every registered kind.
    pub kinds: BTreeMap<String, DocumentKind>,
}

impl Default for RestPoseRegistry {
    /// Knows `PropDescriptor` (rest pose applied since `0.2.0`).
    fn default() -> Self {
        let mut r = RestPoseRegistry {
            since: BTreeMap::new(),
            migrations: BTreeMap::new(),
            kinds: BTreeMap::new(),
        };
        r.register_rest_pose_migration(DEFAULT_KIND, "0.1.0", "0.2.0");
        r
    }
}

impl RestPoseRegistry {
    /// Registers [`protect_legacy_rest_pose`] as `kind`'s `from -> to` migration and
    /// records `to` as the version the builder applies the rest pose from. The kind
    /// keeps its version in [`VERSION_FIELD`]; its current version is the highest `to`
    /// registered for it.
    pub fn register_rest_pose_migration(&mut self, kind: &str, from: &str, to: &str) {
        self.migrations.insert(
            (kind.into(), from.into(), to.into()),
            protect_legacy_rest_pose as Migration,
        );
        self.since.insert(kind.into(), to.into());
        let k = self
            .kinds
            .entry(kind.into())
            .or_insert_with(|| DocumentKind::new(kind, VERSION_FIELD, to));
        if version_less(&k.current, to) {
            k.current = to.into();
        }
    }

    /// A registered kind by name.
    pub fn kind(&self, name: &str) -> Option<&DocumentKind> {
        self.kinds.get(name)
    }

    /// Runs `kind`'s migrations on a raw document, from the version it declares up to
    /// the last one registered, setting the version field after each step. A document
    /// with no version (or a non-text one) is read as current and not migrated, which
    /// is why [`legacy_rest_pose_unknown`] exists. Returns the migrated document and
    /// the `(from, to)` steps taken.
    pub fn migrate(&self, raw: &Value, kind: &DocumentKind) -> (Value, Vec<(String, String)>) {
        let mut doc = raw.clone();
        let mut steps = Vec::new();
        while steps.len() <= self.migrations.len() {
            let Some(from) = doc.get(&kind.version_field).and_then(Value::as_str) else {
                break;
            };
            let from = from.to_string();
            let next = self
                .migrations
                .iter()
                .find(|((k, f, _), _)| *k == kind.name && *f == from);
            let Some(((_, _, to), step)) = next else {
                break;
            };
            doc = step(doc);
            if let Some(m) = doc.as_object_mut() {
                m.insert(kind.version_field.clone(), Value::String(to.clone()));
            }
            steps.push((from, to.clone()));
        }
        (doc, steps)
    }
}

/// Why a rig's bone rest pose was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestPoseCause {
    /// The document declares no version (or one older than the kind's `since` that no
    /// migration reached) and its bones carry a pose: the builder guard
    /// ([`legacy_rest_pose_unknown`]).
    Unversioned,
    /// The migration on this read wrote `rest_rotation: false` onto it
    /// ([`rest_pose_protection`]).
    Migrated,
}

impl RestPoseCause {
    /// `"unversioned"` or `"migrated"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RestPoseCause::Unversioned => "unversioned",
            RestPoseCause::Migrated => "migrated",
        }
    }
}

/// A rig's bone rest pose was NOT applied, because the document may predate it.
///
/// Its own type, apart from the builder's other warnings, so a caller can treat it
/// differently (fail a strict pipeline on it, or write the flag that silences it).
#[derive(Clone, Debug, PartialEq)]
pub struct RestPoseWarning {
    /// The document kind it was read as.
    pub kind: String,
    /// Why.
    pub cause: RestPoseCause,
    /// The sentence (names the posed bones and the flag that decides).
    pub message: String,
}

impl RestPoseWarning {
    /// As JSON: `{"kind": .., "cause": "unversioned"|"migrated", "message": ..}`.
    pub fn to_value(&self) -> Value {
        serde_json::json!({"kind": self.kind, "cause": self.cause.as_str(), "message": self.message})
    }
}

impl std::fmt::Display for RestPoseWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A kind of rig document: its name, the field holding its version, and the current
/// version (what a document without the field is read as).
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentKind {
    /// Kind name (`PropDescriptor`).
    pub name: String,
    /// The version field (`schema_version`).
    pub version_field: String,
    /// The current version.
    pub current: String,
}

impl DocumentKind {
    /// A kind.
    pub fn new(name: &str, version_field: &str, current: &str) -> Self {
        DocumentKind {
            name: name.into(),
            version_field: version_field.into(),
            current: current.into(),
        }
    }

    /// The version a raw document declares, else the current one.
    pub fn version_of<'a>(&'a self, raw: &'a Value) -> &'a str {
        raw.get(&self.version_field)
            .and_then(Value::as_str)
            .unwrap_or(&self.current)
    }
}

/// Compares dotted versions numerically (`0.10.0 > 0.9.1`); a non-numeric component
/// compares as text.
pub fn version_less(a: &str, b: &str) -> bool {
    let parts = |s: &str| -> Vec<(u64, String)> {
        s.split('.')
            .map(|p| (p.parse::<u64>().unwrap_or(u64::MAX), p.to_string()))
            .collect()
    };
    parts(a) < parts(b)
}

/// The builder guard: whether `raw` may be a pre-rest-pose document its migration
/// could not see. A document with no version field is read as current, so the
/// migration never ran on it: if its bones carry a pose and it says nothing about
/// `rest_rotation`, it is built without the pose and warned about. A version older
/// than `since` is caught too.
pub fn legacy_rest_pose_unknown(raw: &Value, kind: &DocumentKind, since: &str) -> bool {
    if raw.get("rest_rotation").is_some_and(|v| !v.is_null()) || !bones_carry_a_rest_pose(raw) {
        return false;
    }
    match raw.get(&kind.version_field).and_then(Value::as_str) {
        None => true,
        Some(v) => version_less(v, since),
    }
}

fn pose_summary(raw: &Value) -> String {
    let mut parts = Vec::new();
    for b in raw
        .get("bones")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = b.get("name").and_then(Value::as_str).unwrap_or("?");
        let f = |k: &str, d: f64| b.get(k).and_then(Value::as_f64).unwrap_or(d);
        let (r, sx, sy) = (f("rotation_deg", 0.0), f("scale_x", 1.0), f("scale_y", 1.0));
        if r != 0.0 || sx != 1.0 || sy != 1.0 {
            parts.push(format!("'{name}' {}° x{}/{}", num(r), num(sx), num(sy)));
        }
    }
    parts.join(", ")
}

/// What to say when the MIGRATION, on this read, kept a rig's pose unapplied: `raw`
/// as stored, `migrated` after the migration. A flag the author wrote (present in the
/// stored document) is a choice, and silent.
pub fn rest_pose_protection(raw: &Value, migrated: &Value, kind: &str) -> Option<String> {
    if raw.get("rest_rotation").is_some() {
        return None;
    }
    if migrated.get("rest_rotation") != Some(&Value::Bool(false)) || !bones_carry_a_rest_pose(raw) {
        return None;
    }
    Some(format!(
        "its bones carry a rest pose ({}) that this {kind} does not apply: it predates the rule, so the \
         pose is taken to be in its art already (rest_rotation: false); write \"rest_rotation\": true to apply it",
        pose_summary(raw)
    ))
}

/// The warning the builder gives when [`legacy_rest_pose_unknown`] holds.
pub fn rest_pose_warning(raw: &Value, kind: &str) -> String {
    format!(
        "rest pose NOT applied: this {kind} has no version and its bones carry a pose ({}), so it may \
         predate the rest pose; write \"rest_rotation\": true (apply) or false (keep) to decide",
        pose_summary(raw)
    )
}

/// Drops every unset (null) [`RigDocument`] field from a raw document, in place.
pub fn omit_unset_rig_fields(data: &mut Value) {
    if let Some(m) = data.as_object_mut() {
        for k in RIG_DOCUMENT_OPTIONAL_FIELDS {
            if m.get(k).is_some_and(Value::is_null) {
                m.shift_remove(k);
            }
        }
    }
}

/// Warnings about a rig's rest pose: a bone with a rest rotation whose drawn part is
/// offset from it turns that part about a point that is not the joint. Nothing for a
/// rig that keeps its legacy pose (`rest_rotation: false`).
pub fn rig_rest_problems(doc: &RigDocument) -> Vec<String> {
    if !doc.applies_rest_pose() {
        return Vec::new();
    }
    let Some(skin) = doc.default_skin() else {
        return Vec::new();
    };
    let mut by_bone: BTreeMap<&str, Vec<&crate::model::Slot>> = BTreeMap::new();
    for s in &doc.slots {
        by_bone.entry(s.bone.as_str()).or_default().push(s);
    }
    let mut out = Vec::new();
    for b in doc.bones.iter().filter(|b| b.rotation_deg != 0.0) {
        for s in by_bone.get(b.name.as_str()).into_iter().flatten() {
            if let Some((name, a)) = doc.drawn_attachment(skin, s) {
                if a.x != 0.0 || a.y != 0.0 {
                    out.push(format!(
                        "bone '{}' rests at {}° but its part '{}' (slot '{}') is offset ({}, {}) from it, so \
                         the part turns about that point, not the joint; set the attachment's x and y to 0 \
                         and put the art's anchor at the joint",
                        b.name,
                        num(b.rotation_deg),
                        name,
                        s.name,
                        num(a.x),
                        num(a.y)
                    ));
                }
            }
        }
    }
    out
}
