//! Integration tests of the rigsmith library: one module per feature.

mod common;

mod architecture;
mod bind;
mod body;
mod checks;
mod control;
mod control_spaces;
mod corpus;
mod deform;
mod docs;
mod face;
mod fbx_io;
mod fit;
mod fit_real;
mod geodesic;
mod gltf_fuzz;
mod gltf_io;
mod gltf_read_compat;
mod humanoid;
mod humanoid_pin;
mod long_functions;
mod mannequin;
mod mech;
mod neck;
mod parts;
mod pipeline;
mod pose;
mod public_names;
mod quadruped;
mod review;
mod reweight;
mod robe;
mod separate_parts;
mod skirt_extend;
mod transfer;
