//! The plain data every stage exchanges.
//!
//! A [`Character`] is a list of separate [`Part`]s (body, eyes, each garment: never
//! joined), an optional [`Skeleton`] and, per part, optional sparse [`Weights`] whose
//! bone indices refer to the character's skeleton. Positions are in glTF space
//! (metres, +Y up, facing +Z, the character's left is +X).

pub mod body;
mod character;
mod mesh;
pub mod naming;
pub mod pieces;
mod skeleton;
mod weights;

pub use body::{rigid_by_name, Body, BodyOptions, PartClass, PartRole};
pub use character::{AlphaMode, BodyCache, Character, MaterialFlags, Part, VrmData};
pub(crate) use mesh::{bounds_of, edge_uses};
pub use mesh::{rigid_by_shape, Mesh, MorphTarget, SMALL_ISLAND};
pub use naming::Side;
pub use skeleton::{Bone, Skeleton};
pub use weights::{sort_influences, weight_of, Influence, Weights};
