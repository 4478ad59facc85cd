//! The MakeHuman (MPFB2) corpus: base mesh, body-shape targets, artist skeletons and weights.
