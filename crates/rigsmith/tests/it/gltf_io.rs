//! Tests for the gltf_io stage.
