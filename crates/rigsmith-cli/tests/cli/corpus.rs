//! Tests of `rigsmith corpus`.
