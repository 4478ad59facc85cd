//! Integration tests of `rigsmith-2d`: one module per feature.

mod common;

mod art;
mod build;
mod check;
mod fuzz;
mod model;
mod pivot;
mod read;
mod render;
mod seed;
mod spine;
