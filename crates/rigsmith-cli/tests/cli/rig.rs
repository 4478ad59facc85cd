//! Tests of `rigsmith rig`.
