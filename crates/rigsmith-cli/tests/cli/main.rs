//! Integration tests of the `rigsmith` binary: one module per subcommand.

mod common;

mod check;
mod control;
mod corpus;
mod exit_codes;
mod face;
mod fbx;
mod fit;
mod grammar;
mod imports;
mod inspect;
mod mech;
mod outputs;
mod rig;
mod separate_parts;
mod simulate;
mod twod;
mod viewer;
mod vrm;
mod weights;
