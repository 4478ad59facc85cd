//! Structural checks of a rig's bones and slots ([`rig_problems`]).
//!
//! A rig is a tree: each bone names one parent, forward kinematics only. The checks
//! find a parent that names no bone, a cycle in the bone graph (with its path), a slot
//! bound to a bone the rig does not declare, and names declared twice (a node name
//! must be unique). The asset checks warn with these; the builder refuses them.
//!
//! ```
//! use rigsmith_2d::model::{Bone, RigDocument, Slot};
//! use rigsmith_2d::structure::rig_problems;
//! let mut doc = RigDocument::default();
//! doc.bones = vec![Bone::new("a").with_parent("b"), Bone::new("b").with_parent("a")];
//! doc.slots = vec![Slot::new("s", "nope")];
//! assert_eq!(rig_problems(&doc), [
//!     "bones form a cycle (a closed linkage): a -> b -> a; a rig is a tree (forward kinematics only)",
//!     "slot 's' is bound to bone 'nope', which the rig does not declare",
//! ]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use crate::model::RigDocument;

/// Every cycle in the bone graph, each as its path (`["a", "b"]` for `a -> b -> a`),
/// starting at the first of its bones reached in declared order.
pub fn bone_cycles(doc: &RigDocument) -> Vec<Vec<String>> {
    let parent_of: BTreeMap<&str, Option<&str>> = doc
        .bones
        .iter()
        .rev()
        .map(|b| (b.name.as_str(), b.parent.as_deref()))
        .collect();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    let mut cycles = Vec::new();
    for b in &doc.bones {
        let mut path: Vec<&str> = Vec::new();
        let mut cur = Some(b.name.as_str());
        while let Some(n) = cur {
            if done.contains(n) {
                break;
            }
            if let Some(i) = path.iter().position(|p| *p == n) {
                cycles.push(path[i..].iter().map(|s| s.to_string()).collect());
                break;
            }
            path.push(n);
            cur = parent_of.get(n).copied().flatten();
            if let Some(p) = cur {
                if !parent_of.contains_key(p) {
                    break;
                }
            }
        }
        done.extend(path);
    }
    cycles
}

/// What is structurally wrong with a rig's bones and slots, one sentence each, in a
/// stable order: duplicate names, dangling parents, cycles, slots on missing bones.
pub fn rig_problems(doc: &RigDocument) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for b in &doc.bones {
        if !seen.insert(b.name.as_str()) {
            out.push(format!("bone '{}' is declared more than once", b.name));
        }
    }
    let mut seen_slots = BTreeSet::new();
    for s in &doc.slots {
        if !seen_slots.insert(s.name.as_str()) {
            out.push(format!(
                "slot '{}' is declared more than once (a slot names a node)",
                s.name
            ));
        }
    }
    for b in &doc.bones {
        if let Some(p) = &b.parent {
            if !seen.contains(p.as_str()) {
                out.push(format!(
                    "bone '{}' names parent '{}', which the rig does not declare",
                    b.name, p
                ));
            }
        }
    }
    for c in bone_cycles(doc) {
        out.push(format!(
            "bones form a cycle (a closed linkage): {} -> {}; a rig is a tree (forward kinematics only)",
            c.join(" -> "),
            c[0]
        ));
    }
    for s in &doc.slots {
        if !seen.contains(s.bone.as_str()) {
            out.push(format!(
                "slot '{}' is bound to bone '{}', which the rig does not declare",
                s.name, s.bone
            ));
        }
    }
    out
}
