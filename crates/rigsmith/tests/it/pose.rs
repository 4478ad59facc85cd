//! Tests for the pose stage.
