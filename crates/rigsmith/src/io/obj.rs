//! Wavefront OBJ reading (objects/groups and materials become parts).
