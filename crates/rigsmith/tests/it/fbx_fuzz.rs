//! Fuzzing the FBX reader on the knight's FBX (Blender's export of the Quaternius file):
//! its record tree edited at random (values of the wrong type, NaN, huge and negative
//! numbers, arrays cut or lengthened, records dropped or doubled, connections to objects
//! that are not there), its ASCII form with characters replaced or cut short, and its
//! binary form with bytes flipped. Each is read or refused with an error naming the
//! file; none panics, and a character that reads is inspected, model-checked, bound to
//! its skeleton, written as GLB and read back.

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;

use crate::common::read_or_refuse_naming;
use rigsmith::io::fbx::tree::{self, Document, Node, Value};
use rigsmith::io::fbx::{read_document, read_fbx_bytes};

const NAME: &str = "mutant.fbx";

fn knight_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let path = crate::common::quaternius_dir()
            .parent()
            .unwrap()
            .join("fbx/knight_KnightCharacter.fbx");
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}

fn knight() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(|| tree::parse(knight_bytes(), Path::new("knight.fbx")).unwrap())
}

fn knight_ascii() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| tree::to_ascii(knight()))
}

/// The index paths of every record of the tree.
fn records(nodes: &[Node], here: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    for (i, n) in nodes.iter().enumerate() {
        here.push(i);
        out.push(here.clone());
        records(&n.children, here, out);
        here.pop();
    }
}

fn record<'a>(doc: &'a mut Document, path: &[usize]) -> &'a mut Node {
    let mut n = &mut doc.nodes[path[0]];
    for &i in &path[1..] {
        n = &mut n.children[i];
    }
    n
}

/// One edit of a record: what a broken exporter or a hand edit leaves.
fn edit(n: &mut Node, kind: u8, x: i64) {
    let k = if n.values.is_empty() {
        0
    } else {
        x.unsigned_abs() as usize % n.values.len()
    };
    match kind % 12 {
        0 => n.values.clear(),
        1 => n.children.clear(),
        2 if !n.children.is_empty() => {
            let c = n.children[k % n.children.len()].clone();
            n.children.push(c);
        }
        3 if !n.values.is_empty() => n.values[k] = Value::Int(x),
        4 if !n.values.is_empty() => n.values[k] = Value::Int(i64::MAX - x.abs()),
        5 if !n.values.is_empty() => n.values[k] = Value::Float(f64::NAN),
        6 if !n.values.is_empty() => n.values[k] = Value::Str(format!("Model::{x}\0\x01Bone")),
        7 => {
            for v in &mut n.values {
                match v {
                    Value::Floats(a) => a.truncate(x.unsigned_abs() as usize % (a.len() + 1)),
                    Value::Ints(a) => a.truncate(x.unsigned_abs() as usize % (a.len() + 1)),
                    _ => {}
                }
            }
        }
        8 => {
            for v in &mut n.values {
                match v {
                    Value::Floats(a) => a.extend([f64::INFINITY, -1e300, f64::NAN]),
                    Value::Ints(a) => a.extend([x, -x - 1, i64::MIN]),
                    _ => {}
                }
            }
        }
        9 if !n.values.is_empty() => n.values[k] = Value::Floats(vec![x as f64; 3]),
        10 if !n.values.is_empty() => n.values[k] = Value::Ints(vec![x, -1, x]),
        _ => n.values.push(Value::Bool(x % 2 == 0)),
    }
}

fn exercise(read: rigsmith::Result<rigsmith::Character>) {
    read_or_refuse_naming(read, NAME);
}

#[test]
fn the_knight_reads_from_its_tree_and_from_its_ascii_form() {
    let a = read_document(knight(), Path::new(NAME)).unwrap();
    let b = read_fbx_bytes(knight_ascii().as_bytes(), Path::new(NAME)).unwrap();
    assert_eq!(a.vertex_count(), b.vertex_count());
    assert!(a.vertex_count() > 1000, "{}", a.vertex_count());
}

/// Positive control: the harness does see a refusal, and it names the file.
#[test]
fn a_cut_file_is_refused_naming_the_file() {
    let bytes = &knight_bytes()[..knight_bytes().len() / 2];
    let msg = read_fbx_bytes(bytes, Path::new(NAME))
        .unwrap_err()
        .to_string();
    assert!(msg.contains(NAME), "{msg}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn edited_trees_never_panic(edits in proptest::collection::vec((any::<u32>(), any::<u8>(), -100_000i64..100_000), 1..6)) {
        let mut doc = knight().clone();
        let mut all = Vec::new();
        records(&doc.nodes, &mut Vec::new(), &mut all);
        for (which, kind, x) in edits {
            let path = &all[which as usize % all.len()];
            edit(record(&mut doc, path), kind, x);
            // Dropping children may have removed records the later paths name.
            all.clear();
            records(&doc.nodes, &mut Vec::new(), &mut all);
        }
        exercise(read_document(&doc, Path::new(NAME)));
    }

    #[test]
    fn edited_ascii_never_panics(
        cut in any::<u32>(),
        writes in proptest::collection::vec((any::<u32>(), prop::sample::select(vec!["", "{", "}", ":", ",", "*", "\"", "-", "9e999", "ü", "\n", "a: 1", "*4 {"])), 1..12)
    ) {
        let mut text = knight_ascii().as_bytes().to_vec();
        for (where_, what) in writes {
            let o = where_ as usize % text.len();
            let end = (o + 3).min(text.len());
            text.splice(o..end, what.bytes());
        }
        if cut % 4 == 0 {
            text.truncate(cut as usize % text.len());
        }
        exercise(read_fbx_bytes(&text, Path::new(NAME)));
    }

    #[test]
    fn flipped_binary_never_panics(flips in proptest::collection::vec((any::<u32>(), any::<u8>()), 1..16)) {
        let mut bytes = knight_bytes().to_vec();
        for (where_, b) in flips {
            let o = where_ as usize % bytes.len();
            bytes[o] = b;
        }
        exercise(read_fbx_bytes(&bytes, Path::new(NAME)));
    }
}
