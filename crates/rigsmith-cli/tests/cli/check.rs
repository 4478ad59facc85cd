//! Tests of `rigsmith check`.
