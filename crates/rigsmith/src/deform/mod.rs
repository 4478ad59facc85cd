//! Deformation fixes a game engine plays: twist chains that follow by rules and a
//! preserve-volume mask.
//!
//! Plain linear blend skinning collapses a twisted wrist (the candy wrapper). rigsmith
//! answers with what an engine can run:
//!
//! * [`twist`]: the follow rules of the twist bones ([`TwistRule`], data in the
//!   sidecar, roll constraints in the VRM export) and the evaluator that applies them
//!   to a pose ([`apply_twist_rules`]), which the review runs so that it measures the
//!   rig as an engine applying the rules plays it;
//! * [`twist_weights`]: the weights along a limb spread over its twist chain
//!   ([`follow_twist_chains`]);
//! * [`neck_blend`]: the head's share over the chin, the lips and the throat as an
//!   artist paints it, fading to the collar along the jaw line
//!   ([`neck_blend::NeckBlend`]);
//! * [`dqs_mask`]: the preserve-volume mask, where dual-quaternion skinning replaces
//!   linear blend skinning ([`dqs_mask::dqs_mask`], `_DQS_BLEND` in the glTF and
//!   `dqs_blend` in the sidecar), and the blended skinning that plays it;
//! * [`correctives`]: the drivers of the corrective shapes the review builds by
//!   inverse skinning ([`crate::review::correctives`]) and the morphs applied before
//!   skinning.
//!
//! ```
//! use rigsmith::deform::{apply_twist_rules, twist_rules};
//! use rigsmith::humanoid::Roles;
//! use rigsmith::pose::{default_library, Pose};
//! let c = rigsmith::mannequin::build(&Default::default());
//! let o = rigsmith::RigOptions { review: false, ..Default::default() };
//! let out = rigsmith::rig(&c, &o, &mut |_, _| {}).unwrap();
//! let s = out.character.skeleton.as_ref().unwrap();
//! let rules = twist_rules(s, &Roles::of(s, None));
//! assert_eq!(rules.len(), 8); // one twist bone per arm and leg segment
//! let posed = apply_twist_rules(s, &rules, &Pose::rest(s));
//! assert!(posed.is_rest());
//! ```

pub mod correctives;
pub mod dqs_mask;
pub mod neck_blend;
pub mod twist;
pub mod twist_weights;

pub use twist::{apply_twist_rules, twist_rules, TwistKind, TwistRule};
pub use twist_weights::follow_twist_chains;
