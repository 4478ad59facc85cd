//! Tests of `rigsmith simulate`.
