//! Skin weights: bone heat, volumetric fallback, garment transfer, rigid parts, cleanup,
//! the weight report.
