//! Tests for the corpus stage.
