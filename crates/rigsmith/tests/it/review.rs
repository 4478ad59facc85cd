//! Tests for the review stage.
