//! VRM 0.x / 1.0: the humanoid bone map and spring-bone data on top of glTF.
