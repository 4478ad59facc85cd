//! Integration tests of the rigsmith library: one module per feature.

mod common;

mod architecture;
mod bind;
mod body;
mod checks;
mod control;
mod corpus;
mod fit;
mod fit_real;
mod geodesic;
mod gltf_io;
mod gltf_read_compat;
mod humanoid;
mod humanoid_pin;
mod mannequin;
mod parts;
mod pipeline;
mod pose;
mod review;
mod separate_parts;
mod transfer;
