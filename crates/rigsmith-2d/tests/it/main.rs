//! Integration tests of `rigsmith-2d`: one module per feature.

mod common;

mod art;
mod build;
mod fuzz;
mod model;
mod render;
mod seed;
mod spine;
