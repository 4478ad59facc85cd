//! One module per subcommand; each parses its own arguments and calls the library.

pub mod inspect;
pub mod corpus;
pub mod mannequin;
pub mod fit;
pub mod weights;
pub mod check;
pub mod rig;
pub mod simulate;
pub mod vrm;
pub mod twod;
