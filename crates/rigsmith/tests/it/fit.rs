//! Tests for the fit stage.
