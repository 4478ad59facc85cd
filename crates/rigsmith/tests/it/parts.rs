//! Tests for the parts stage.
