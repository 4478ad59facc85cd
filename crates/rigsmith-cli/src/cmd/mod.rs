//! One module per subcommand; each parses its own arguments and calls the library.

pub mod bake;
pub mod check;
pub mod corpus;
pub mod fit;
pub mod inspect;
pub mod mannequin;
pub mod rig;
pub mod simulate;
pub mod twod;
pub mod vrm;
pub mod weights;
pub mod weights_mask;
