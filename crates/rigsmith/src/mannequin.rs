//! The built-in procedural test mannequin.
