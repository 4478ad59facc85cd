//! Tests of `rigsmith fit`.
