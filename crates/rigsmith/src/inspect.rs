//! The quick check of a model (seed 003): parts, skeleton, chains, weights.
