//! Who paints over whom: the natural, chain and global paint orders, and the draw
//! orders a nested chain cannot give.
//!
//! The stage draws each container's items in order: its slot's own visual and the
//! containers of the slots nested under it (the entity's container, keyed `None`,
//! holds the root slots and no visual). Sorting a container's items by the span of
//! draw orders each covers ([`chain_paint_order`]) gives any order in which every
//! slot's SUBTREE paints contiguously, so a far arm can paint behind the torso it nests
//! under. What no sort can give is an unrelated part ordered BETWEEN the parts of one
//! chain ([`chain_draw_order_problems`]); the [`global_paint_order`] (Spine's slot
//! order: node paths in declared draw order) is the paint list for that case.
//!
//! ```
//! use rigsmith_2d::model::{Bone, Nesting, RigDocument, Slot};
//! use rigsmith_2d::paint_order::global_paint_order;
//! let mut doc = RigDocument::default();
//! doc.nesting = Some(Nesting::Bones);
//! doc.bones = vec![Bone::new("arm"), Bone::new("hand").with_parent("arm"), Bone::new("cord")];
//! doc.slots = vec![Slot::new("arm", "arm").drawn(1), Slot::new("cord", "cord").drawn(2), Slot::new("hand", "hand").drawn(3)];
//! assert_eq!(global_paint_order(&doc, None), ["arm", "cord", "arm/hand"]);
//! ```

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Nesting, RigDocument};
use crate::nesting::{slot_node_paths, slot_parent_chain};

/// A container key: `None` is the entity's own container, `Some(slot)` a slot's node.
pub type Container = Option<String>;

/// What each container holds in the builder's own order: the slot's visual first,
/// then its children by their own `(draw_order, name)`. `chain`: slot -> the slot it
/// nests under; `order`: slot -> draw order. Slot containers with no children are left
/// out (they hold only their visual).
pub fn natural_paint_order(
    chain: &BTreeMap<String, Option<String>>,
    order: &BTreeMap<String, i64>,
) -> BTreeMap<Container, Vec<String>> {
    let mut kids: BTreeMap<Container, Vec<&String>> = BTreeMap::new();
    for (s, p) in chain {
        kids.entry(p.clone()).or_default().push(s);
    }
    let mut out = BTreeMap::new();
    for (c, mut list) in kids {
        list.sort_by_key(|s| (order.get(*s).copied().unwrap_or(0), (*s).clone()));
        let mut items: Vec<String> = Vec::new();
        if let Some(own) = &c {
            items.push(own.clone());
        }
        items.extend(list.into_iter().cloned());
        out.insert(c, items);
    }
    out.entry(None).or_default();
    out
}

fn restricted_chain(
    doc: &RigDocument,
    built: Option<&BTreeSet<String>>,
) -> BTreeMap<String, Option<String>> {
    let mut chain = slot_parent_chain(doc);
    if let Some(b) = built {
        chain.retain(|s, _| b.contains(s));
        for p in chain.values_mut() {
            if p.as_ref().is_some_and(|x| !b.contains(x)) {
                *p = None;
            }
        }
    }
    chain
}

fn draw_orders(doc: &RigDocument) -> BTreeMap<String, i64> {
    let mut m = BTreeMap::new();
    for s in &doc.slots {
        m.entry(s.name.clone()).or_insert(s.draw_order);
    }
    m
}

/// The `(lowest, highest)` draw order of `slot` and everything nested under it.
fn subtree_span(
    slot: &str,
    kids: &BTreeMap<Container, Vec<String>>,
    order: &BTreeMap<String, i64>,
    seen: &mut BTreeSet<String>,
) -> (i64, i64) {
    let d = order.get(slot).copied().unwrap_or(0);
    let mut span = (d, d);
    if !seen.insert(slot.to_string()) {
        return span;
    }
    if let Some(items) = kids.get(&Some(slot.to_string())) {
        for it in items.iter().filter(|i| *i != slot) {
            let (lo, hi) = subtree_span(it, kids, order, seen);
            span = (span.0.min(lo), span.1.max(hi));
        }
    }
    span
}

/// A container's items, each with the `(lowest, highest)` draw order it covers.
type Spanned = Vec<(String, (i64, i64))>;

/// Each container's items with the span of draw orders each covers, in paint order.
fn sorted_containers(
    doc: &RigDocument,
    built: Option<&BTreeSet<String>>,
) -> BTreeMap<Container, Spanned> {
    let chain = restricted_chain(doc, built);
    let order = draw_orders(doc);
    let natural = natural_paint_order(&chain, &order);
    let mut out = BTreeMap::new();
    for (c, items) in &natural {
        let mut spanned: Vec<(String, (i64, i64))> = items
            .iter()
            .map(|it| {
                let span = if Some(it) == c.as_ref() {
                    let d = order.get(it).copied().unwrap_or(0);
                    (d, d)
                } else {
                    subtree_span(it, &natural, &order, &mut BTreeSet::new())
                };
                (it.clone(), span)
            })
            .collect();
        spanned.sort_by_key(|(_, span)| *span);
        out.insert(c.clone(), spanned);
    }
    out
}

/// How each container must order what it holds: items sorted, stably, by the
/// `(lowest, highest)` draw order of their subtree, starting from the
/// [`natural_paint_order`]. `built` limits it to the slots the builder drew.
pub fn chain_paint_order(
    doc: &RigDocument,
    built: Option<&BTreeSet<String>>,
) -> BTreeMap<Container, Vec<String>> {
    sorted_containers(doc, built)
        .into_iter()
        .map(|(c, items)| (c, items.into_iter().map(|(s, _)| s).collect()))
        .collect()
}

/// The node paths of the rig's slots, relative to its entity, in DECLARED draw order
/// (ties keep declared slot order). `built` limits it to the slots the builder drew.
pub fn global_paint_order(doc: &RigDocument, built: Option<&BTreeSet<String>>) -> Vec<String> {
    let paths = slot_node_paths(doc);
    let mut slots: Vec<_> = doc
        .slots
        .iter()
        .filter(|s| built.map_or(true, |b| b.contains(&s.name)))
        .collect();
    slots.sort_by_key(|s| s.draw_order);
    let mut seen = BTreeSet::new();
    slots
        .into_iter()
        .filter(|s| seen.insert(s.name.clone()))
        .map(|s| {
            paths
                .get(&s.name)
                .cloned()
                .unwrap_or_else(|| s.name.clone())
        })
        .collect()
}

/// Where a nested chain asks the stage for a draw order it cannot give: an unrelated
/// part ordered between the members of one chain. Nothing in `flat` nesting.
pub fn chain_draw_order_problems(doc: &RigDocument) -> Vec<String> {
    if doc.nesting() != Nesting::Bones {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (c, items) in sorted_containers(doc, None) {
        for w in items.windows(2) {
            let ((a, sa), (b, sb)) = (&w[0], &w[1]);
            if sa.1 > sb.0 {
                let describe = |s: &str, span: (i64, i64)| {
                    if c.as_deref() == Some(s) {
                        format!("'{s}''s own part (draw_order {})", span.0)
                    } else if span.0 == span.1 {
                        format!("'{s}' (draw_order {})", span.0)
                    } else {
                        format!(
                            "'{s}' with what nests under it (draw orders {}..{})",
                            span.0, span.1
                        )
                    }
                };
                out.push(format!(
                    "the stage paints each chain's parts together, so {} and {} cannot interleave as declared; \
                     reorder their draw orders or paint by the global paint order",
                    describe(a, *sa),
                    describe(b, *sb)
                ));
            }
        }
    }
    out
}
