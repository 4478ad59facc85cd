//! glTF 2.0 / GLB reading and writing.
