//! Tests of `rigsmith weights`.
