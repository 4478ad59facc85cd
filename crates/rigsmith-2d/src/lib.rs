//! 2D cut-out rigs: bones, slots, skins and attachments; their checks; paint order;
//! the scene builder; a renderer; Spine JSON interop.
//!
//! A *rig* is a skeleton of bones, draw-ordered slots bound to them, and skins mapping
//! each slot to drawable attachments (SVG or raster art). Props use it as well as
//! characters. The crate has three layers:
//!
//! 1. **the model** ([`model`]): [`RigDocument`] and its parts, read forward-compatibly
//!    and written canonically;
//! 2. **the rules and checks**: where bones are ([`positions`]), how slot nodes nest
//!    ([`nesting`]), who paints over whom ([`paint_order`]), what is structurally
//!    wrong ([`structure`], [`chain_pose`]), the rest pose and its legacy migration
//!    ([`rest_pose`], read on every path through [`read`]), bones' pivots against the
//!    skeleton art ([`pivot`]), what a rig affords ([`affordances`]), how big a part draws
//!    ([`attachment_box`], [`art`]); [`check`] runs them all;
//! 3. **the outputs**: the scene builder ([`build`]), a PNG renderer for a posed rig
//!    ([`render`]), and Spine JSON import/export ([`spine`]).
//!
//! Coordinates are view_box units: `+x` right, `+y` down, degrees clockwise on screen.
//!
//! ```
//! use rigsmith_2d::{check::check, model::RigDocument};
//! let doc = RigDocument::parse(br#"{
//!   "bones": [{"name": "root", "x": 512, "y": 980}, {"name": "torso", "parent": "root", "y": -300}],
//!   "slots": [{"name": "torso", "bone": "torso"}],
//!   "skins": {"default": {"slots": {"torso": {"torso": {"path": "parts/torso.svg"}}}}}
//! }"#).unwrap();
//! assert!(check(&doc).is_clean());
//! ```

pub mod affordances;
pub mod art;
pub mod attachment_box;
pub mod build;
pub mod chain_pose;
pub mod check;
pub mod error;
pub mod model;
pub mod nesting;
pub mod paint_order;
pub mod pivot;
pub mod positions;
pub mod read;
pub mod render;
pub mod rest_pose;
pub mod spine;
pub mod structure;

pub use build::{build_rig, build_rig_subtree, BuildOptions, BuiltRig};
pub use error::RigError;
pub use model::{Attachment, Bone, Nesting, RigDocument, Skin, Slot};
