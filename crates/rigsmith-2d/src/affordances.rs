//! What a rig's structure affords ([`rig_affordances`]).
//!
//! `rig.hierarchy` when the rig nests in `bones` mode and some chain of nested slots
//! links two different bones: `keys` are every slot in such a chain, `count` the
//! deepest chain's number of BONES (`rig.hierarchy>=3` is "a shoulder, an elbow and a
//! hand"), `chains` every such root-to-leaf chain of slots. Parts on one bone (a head
//! with its face) add no depth, and a flat rig affords nothing here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::model::{Nesting, RigDocument};
use crate::nesting::slot_parent_chain;

/// The capability a nested chain affords.
pub const RIG_HIERARCHY: &str = "rig.hierarchy";

/// One affordance: the slots it concerns, a depth, the chains.
#[derive(Clone, Debug, PartialEq)]
pub struct Affordance {
    /// Every slot in a chain that links two bones, in chain order of first appearance.
    pub keys: Vec<String>,
    /// The deepest such chain's number of distinct bones.
    pub count: usize,
    /// Every root-to-leaf chain of slots that links two bones.
    pub chains: Vec<Vec<String>>,
}

impl Affordance {
    /// As JSON: `{"keys": [..], "count": n, "chains": [[..]]}`.
    pub fn to_value(&self) -> Value {
        json!({"keys": self.keys, "count": self.count, "chains": self.chains})
    }
}

/// `{capability: affordance}` of a rig; empty when it affords nothing.
pub fn rig_affordances(doc: &RigDocument) -> BTreeMap<String, Affordance> {
    let mut out = BTreeMap::new();
    if doc.nesting() != Nesting::Bones {
        return out;
    }
    let chain = slot_parent_chain(doc);
    let mut kids: BTreeMap<Option<&str>, Vec<&str>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for s in &doc.slots {
        if seen.insert(s.name.as_str()) {
            let p = chain.get(&s.name).and_then(|p| p.as_deref());
            kids.entry(p).or_default().push(s.name.as_str());
        }
    }
    let bone_of: BTreeMap<&str, &str> = doc
        .slots
        .iter()
        .rev()
        .map(|s| (s.name.as_str(), s.bone.as_str()))
        .collect();
    let mut chains: Vec<Vec<String>> = Vec::new();
    let mut stack: Vec<Vec<&str>> = kids
        .get(&None)
        .map(|r| r.iter().rev().map(|s| vec![*s]).collect())
        .unwrap_or_default();
    while let Some(path) = stack.pop() {
        let last = *path.last().unwrap_or(&"");
        match kids.get(&Some(last)) {
            Some(ch) if path.len() <= doc.slots.len() => {
                for c in ch.iter().rev() {
                    let mut p = path.clone();
                    p.push(c);
                    stack.push(p);
                }
            }
            _ => chains.push(path.iter().map(|s| s.to_string()).collect()),
        }
    }
    let bones_in = |c: &Vec<String>| -> usize {
        c.iter()
            .filter_map(|s| bone_of.get(s.as_str()))
            .collect::<BTreeSet<_>>()
            .len()
    };
    chains.retain(|c| bones_in(c) >= 2);
    if chains.is_empty() {
        return out;
    }
    let mut keys = Vec::new();
    let mut kseen = BTreeSet::new();
    for c in &chains {
        for s in c {
            if kseen.insert(s.clone()) {
                keys.push(s.clone());
            }
        }
    }
    let count = chains.iter().map(bones_in).max().unwrap_or(0);
    out.insert(
        RIG_HIERARCHY.to_string(),
        Affordance {
            keys,
            count,
            chains,
        },
    );
    out
}
