//! THE nesting rule: which slot's node each slot's node nests under.
//!
//! A slot is the *primary* slot of its bone when it is named like the bone
//! ([`primary_slot_per_bone`]). In `flat` nesting (the default) a slot nests under its
//! own bone's primary slot when it is not that slot itself, so a face nests under the
//! head and every limb is a child of the entity. In `bones` nesting a primary slot (or
//! a slot whose bone has none) nests under the primary slot of the nearest ANCESTOR
//! bone that has one, to any depth, so a forearm turns with its upper arm.
//!
//! The builder, the paint orders and the node paths all read [`slot_parent_chain`], so
//! a path names the node the builder made.
//!
//! ```
//! use rigsmith_2d::model::{Bone, Nesting, RigDocument, Slot};
//! use rigsmith_2d::nesting::slot_node_paths;
//! let mut doc = RigDocument::default();
//! doc.nesting = Some(Nesting::Bones);
//! doc.bones = vec![Bone::new("a"), Bone::new("b").with_parent("a")];
//! doc.slots = vec![Slot::new("a", "a"), Slot::new("b", "b")];
//! assert_eq!(slot_node_paths(&doc)["b"], "a/b");
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::model::{Nesting, RigDocument};

/// `"flat"` or `"bones"` of a RAW document; unset (or anything else) is flat.
pub fn nesting_of(raw: &Value) -> &'static str {
    match raw.get("nesting").and_then(Value::as_str) {
        Some("bones") => "bones",
        _ => "flat",
    }
}

/// `{bone name: the slot that IS that bone}`: the slot named like its bone.
pub fn primary_slot_per_bone(doc: &RigDocument) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for s in &doc.slots {
        if s.name == s.bone {
            out.entry(s.bone.clone()).or_insert_with(|| s.name.clone());
        }
    }
    out
}

/// `{slot: the slot it nests under, or None}` (see the module docs). A bone cycle
/// stops the walk.
pub fn slot_parent_chain(doc: &RigDocument) -> BTreeMap<String, Option<String>> {
    let primary = primary_slot_per_bone(doc);
    let parent_of: BTreeMap<&str, Option<&str>> = doc
        .bones
        .iter()
        .rev()
        .map(|b| (b.name.as_str(), b.parent.as_deref()))
        .collect();
    let mut out = BTreeMap::new();
    for s in &doc.slots {
        let own = primary.get(&s.bone);
        let nest = match own {
            Some(p) if *p != s.name => Some(p.clone()),
            _ if doc.nesting() == Nesting::Bones => {
                let mut seen = BTreeSet::from([s.bone.as_str()]);
                let mut cur = parent_of.get(s.bone.as_str()).copied().flatten();
                let mut found = None;
                while let Some(b) = cur {
                    if !seen.insert(b) {
                        break;
                    }
                    if let Some(p) = primary.get(b) {
                        found = Some(p.clone());
                        break;
                    }
                    cur = parent_of.get(b).copied().flatten();
                }
                found
            }
            _ => None,
        };
        out.entry(s.name.clone()).or_insert(nest);
    }
    out
}

/// The chain of slots from the entity down to `slot` (root first), or `None` when the
/// slot is caught in a cycle.
pub fn slot_ancestry(chain: &BTreeMap<String, Option<String>>, slot: &str) -> Option<Vec<String>> {
    let mut path = vec![slot.to_string()];
    let mut seen = BTreeSet::from([slot.to_string()]);
    let mut cur = chain.get(slot).cloned().flatten();
    while let Some(p) = cur {
        if !seen.insert(p.clone()) {
            return None;
        }
        cur = chain.get(&p).cloned().flatten();
        path.push(p);
    }
    path.reverse();
    Some(path)
}

/// `{slot: its node path relative to the entity}` (`torso/arm/hand`); a slot caught in
/// a cycle maps to its own name.
pub fn slot_node_paths(doc: &RigDocument) -> BTreeMap<String, String> {
    let chain = slot_parent_chain(doc);
    chain
        .keys()
        .map(|s| {
            let p = slot_ancestry(&chain, s)
                .map(|a| a.join("/"))
                .unwrap_or_else(|| s.clone());
            (s.clone(), p)
        })
        .collect()
}
