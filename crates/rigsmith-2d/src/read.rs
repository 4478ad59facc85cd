//! The one read path: a stored rig document -> the model the checks and the builder use.
//!
//! Every reader of a rig (the checks, the builder, the renderer, Spine export, the
//! command line) goes through [`read_value`] or [`read_file`], so the legacy rest-pose
//! rule holds everywhere:
//!
//! 1. the document's kind ([`ReadOptions::kind`]) is looked up in the
//!    [`RestPoseRegistry`], which says from which version the kind applies its bones'
//!    rest pose (`since`);
//! 2. the kind's migrations run from the version the document declares; the protective
//!    step writes `rest_rotation: false` onto a pre-rest-pose document whose bones
//!    carry a pose, and that is said ([`RestPoseCause::Migrated`]);
//! 3. a document the migrations could not see (no version, or one older than `since`
//!    with no migration from it) whose bones carry a pose and which says nothing about
//!    `rest_rotation` is read without the pose (`rest_rotation: false`, as it was drawn)
//!    and said ([`RestPoseCause::Unversioned`]).
//!
//! The warnings are [`RestPoseWarning`]s, their own type. A flag the author wrote is a
//! choice and silent.
//!
//! ```
//! use rigsmith_2d::read::{read_value, ReadOptions};
//! let raw = serde_json::json!({"bones": [{"name": "a", "rotation_deg": 9}]});
//! let read = read_value(&raw, &ReadOptions::default()).unwrap();
//! assert!(!read.doc.applies_rest_pose());
//! assert_eq!(read.rest_pose_warnings.len(), 1);
//! ```

use std::path::Path;

use serde_json::Value;

use crate::error::RigError;
use crate::model::RigDocument;
use crate::rest_pose::{
    legacy_rest_pose_unknown, rest_pose_protection, rest_pose_warning, DocumentKind, RestPoseCause,
    RestPoseRegistry, RestPoseWarning, DEFAULT_KIND,
};

/// How to read a rig document.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// The kinds, their `since` versions and migrations.
    pub registry: RestPoseRegistry,
    /// The kind to read the document as (a name the registry knows).
    pub kind: String,
}

impl Default for ReadOptions {
    /// The default registry, read as [`DEFAULT_KIND`].
    fn default() -> Self {
        ReadOptions {
            registry: RestPoseRegistry::default(),
            kind: DEFAULT_KIND.into(),
        }
    }
}

/// A document as read: the model, the stored and migrated JSON, and what was said.
#[derive(Clone, Debug)]
pub struct ReadRig {
    /// The model, from the migrated document.
    pub doc: RigDocument,
    /// The document as stored.
    pub stored: Value,
    /// The document after the migrations and the guard (`rest_rotation: false` when
    /// the pose was kept unapplied).
    pub migrated: Value,
    /// The kind it was read as.
    pub kind: DocumentKind,
    /// The migration steps taken, `(from, to)`.
    pub steps: Vec<(String, String)>,
    /// Why the bones' rest pose was not applied, if it was not.
    pub rest_pose_warnings: Vec<RestPoseWarning>,
}

impl ReadRig {
    /// The migrated document stamped with its kind's current version when it declares
    /// none: what `rigsmith 2d migrate` writes. It builds exactly as the stored one
    /// did (a pose the guard kept unapplied stays so, now written down).
    pub fn current_document(&self) -> Value {
        let mut v = self.migrated.clone();
        if let Some(m) = v.as_object_mut() {
            if !m.contains_key(&self.kind.version_field) {
                m.insert(
                    self.kind.version_field.clone(),
                    Value::String(self.kind.current.clone()),
                );
            }
        }
        v
    }
}

/// Reads a raw document as `opts.kind` (see the module docs for the rule).
pub fn read_value(raw: &Value, opts: &ReadOptions) -> Result<ReadRig, RigError> {
    let kind = opts.registry.kind(&opts.kind).cloned().ok_or_else(|| {
        RigError::UnknownKind(format!(
            "'{}' is not a registered rig document kind (known: {})",
            opts.kind,
            opts.registry
                .kinds
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    // Refuse a malformed document with the path of its fault before anything else.
    RigDocument::from_value(raw)?;
    let (mut migrated, steps) = opts.registry.migrate(raw, &kind);
    let mut warnings = Vec::new();
    if let Some(message) = rest_pose_protection(raw, &migrated, &kind.name) {
        warnings.push(RestPoseWarning {
            kind: kind.name.clone(),
            cause: RestPoseCause::Migrated,
            message,
        });
    }
    if let Some(since) = opts.registry.since.get(&kind.name) {
        if legacy_rest_pose_unknown(&migrated, &kind, since) {
            warnings.push(RestPoseWarning {
                kind: kind.name.clone(),
                cause: RestPoseCause::Unversioned,
                message: rest_pose_warning(raw, &kind.name),
            });
            if let Some(m) = migrated.as_object_mut() {
                m.insert("rest_rotation".into(), Value::Bool(false));
            }
        }
    }
    let doc = RigDocument::from_value(&migrated)?;
    Ok(ReadRig {
        doc,
        stored: raw.clone(),
        migrated,
        kind,
        steps,
        rest_pose_warnings: warnings,
    })
}

/// Reads a document file (errors name the file).
pub fn read_file(path: &Path, opts: &ReadOptions) -> Result<ReadRig, RigError> {
    let (_, raw) = RigDocument::read(path)?;
    read_value(&raw, opts).map_err(|e| e.in_file(path))
}
