//! Tests for the bind stage.
