//! Skeleton fitting: model check, cross-sections, landmarks, templates, placement checks.
