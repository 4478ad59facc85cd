//! Integration tests of the renderer and the review sheets, one module per feature.

mod camera;
mod common;
mod font;
mod raster;
mod sheets;
