//! Tests of `rigsmith inspect`.
