//! Tests for the mannequin stage.
