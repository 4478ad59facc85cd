//! Fuzzing the readers: arbitrary bytes and mutated documents never panic, and a
//! document that reads is checked, ordered, built and exported without panicking.

use proptest::prelude::*;
use rigsmith_2d::build::{build_rig, BuildOptions};
use rigsmith_2d::check::check;
use rigsmith_2d::paint_order::{chain_paint_order, global_paint_order};
use rigsmith_2d::spine::{export_spine, import_spine};
use rigsmith_2d::{
    affordances::rig_affordances, art::svg_size, nesting::slot_node_paths, RigDocument,
};
use serde_json::{json, Value};

use crate::common::fixtures;

fn kit() -> Value {
    serde_json::from_slice(&std::fs::read(fixtures().join("kit/rig.json")).unwrap()).unwrap()
}

/// Every node of a JSON tree, as a path of keys / indices.
fn paths(v: &Value, here: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let mut p = here.clone();
                p.push(json!(k));
                paths(c, p, out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let mut p = here.clone();
                p.push(json!(i));
                paths(c, p, out);
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    let mut cur = v;
    for k in path {
        cur = match k {
            Value::String(s) => cur.get_mut(s.as_str()).unwrap(),
            Value::Number(n) => cur.get_mut(n.as_u64().unwrap() as usize).unwrap(),
            _ => unreachable!(),
        };
    }
    cur
}

fn replacement(kind: u8, x: f64, pick: &str) -> Value {
    match kind % 10 {
        0 => Value::Null,
        1 => json!(x),
        2 => json!(-x * 1e300),
        3 => json!(pick),
        4 => json!([x, x]),
        5 => json!({"name": pick, "parent": pick, "bone": pick, "path": pick}),
        6 => json!(true),
        7 => json!(0),
        8 => json!("bones"),
        _ => json!([]),
    }
}

fn exercise(doc: &RigDocument) {
    let _ = check(doc);
    let _ = chain_paint_order(doc, None);
    let _ = global_paint_order(doc, None);
    let _ = slot_node_paths(doc);
    let _ = rig_affordances(doc);
    let _ = build_rig(
        "e",
        doc,
        &BuildOptions {
            interleave: true,
            ..BuildOptions::default()
        },
    );
    if let Ok((spine, _)) = export_spine(doc, None) {
        let _ = import_spine(serde_json::to_string(&spine).unwrap().as_bytes());
    }
    let _ = RigDocument::parse(doc.to_json().as_bytes()).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = RigDocument::parse(&bytes);
        let _ = import_spine(&bytes);
        let _ = svg_size(&bytes);
        let _ = rigsmith_2d::render::Pose::parse(&bytes);
    }

    #[test]
    fn mutated_documents_never_panic(
        edits in proptest::collection::vec((any::<u32>(), any::<u8>(), -2000.0f64..2000.0, "[a-z_]{0,8}"), 1..6)
    ) {
        let mut v = kit();
        for (which, kind, x, pick) in edits {
            let mut all = Vec::new();
            paths(&v, Vec::new(), &mut all);
            let p = &all[which as usize % all.len()];
            *at(&mut v, p) = replacement(kind, x, &pick);
        }
        if let Ok(doc) = RigDocument::from_value(&v) {
            exercise(&doc);
        }
    }

    #[test]
    fn mutated_spine_never_panics(
        edits in proptest::collection::vec((any::<u32>(), any::<u8>(), -2000.0f64..2000.0, "[a-z_]{0,8}"), 1..6)
    ) {
        let mut v: Value = serde_json::from_slice(&std::fs::read(fixtures().join("spine/hero.json")).unwrap()).unwrap();
        for (which, kind, x, pick) in edits {
            let mut all = Vec::new();
            paths(&v, Vec::new(), &mut all);
            let p = &all[which as usize % all.len()];
            *at(&mut v, p) = replacement(kind, x, &pick);
        }
        if let Ok((doc, _)) = import_spine(serde_json::to_string(&v).unwrap().as_bytes()) {
            exercise(&doc);
        }
    }

    #[test]
    fn random_rigs_never_panic(
        parents in proptest::collection::vec(proptest::option::of(0usize..12), 1..12),
        slots in proptest::collection::vec((0usize..14, -3i64..3), 0..14),
        bones_mode in any::<bool>(),
    ) {
        let n = parents.len();
        let bones: Vec<Value> = parents.iter().enumerate().map(|(i, p)| {
            let mut b = json!({"name": format!("b{i}"), "x": i as f64, "y": -(i as f64) * 10.0, "rotation_deg": (i % 3) as f64 * 10.0});
            if let Some(p) = p { b["parent"] = json!(format!("b{}", p % (n + 1))); }
            b
        }).collect();
        let slots: Vec<Value> = slots.iter().enumerate().map(|(i, (b, d))| {
            let name = if i % 2 == 0 { format!("b{b}") } else { format!("s{i}") };
            json!({"name": name, "bone": format!("b{b}"), "draw_order": d})
        }).collect();
        let v = json!({"nesting": if bones_mode { "bones" } else { "flat" }, "bones": bones, "slots": slots});
        let doc = RigDocument::from_value(&v).unwrap();
        exercise(&doc);
    }
}
