//! Separate parts and secondary motion: surface classes, chains, colliders, springs,
//! the `.rig.json` sidecar.
