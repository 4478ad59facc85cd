//! Tests of `rigsmith twod`.
