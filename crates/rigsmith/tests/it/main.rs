//! Integration tests of the rigsmith library: one module per feature.

mod common;

mod bind;
mod body;
mod checks;
mod corpus;
mod fit;
mod fit_real;
mod gltf_io;
mod gltf_read_compat;
mod humanoid;
mod mannequin;
mod parts;
mod pipeline;
mod pose;
mod review;
mod transfer;
