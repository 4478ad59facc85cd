//! No public type name is defined twice in the library, so a user who imports two of
//! its types never meets two with one name (`use rigsmith::pose::Pose` and the
//! mannequin's stance are different words). Read from the source: every `pub struct`,
//! `pub enum`, `pub union`, `pub trait` and `pub type` of `crates/rigsmith/src`, with
//! comments, string literals and test code left out; `pub(crate)` and narrower are not
//! public and do not count.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::long_functions::{strip, without_test_items};

/// The keywords that define a type (or a trait) after `pub`.
const TYPE_ITEMS: [&str; 5] = ["struct", "enum", "union", "trait", "type"];

/// The public type names `src` (a Rust source file) defines, each with its line.
fn public_types(src: &str) -> Vec<(String, usize)> {
    let code = without_test_items(&strip(src));
    let mut out = Vec::new();
    for (i, line) in code.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for w in words.windows(3) {
            if w[0] == "pub" && TYPE_ITEMS.contains(&w[1]) {
                let name: String = w[2]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push((name, i + 1));
                }
            }
        }
    }
    out
}

/// Each public type name that more than one place defines, with its places
/// (`file:line`), from `(file, source)` pairs.
fn duplicates(files: &[(String, String)]) -> BTreeMap<String, Vec<String>> {
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, text) in files {
        for (name, line) in public_types(text) {
            places
                .entry(name)
                .or_default()
                .push(format!("{file}:{line}"));
        }
    }
    places.retain(|_, p| p.len() > 1);
    places
}

/// Every library source file as (`path under src/`, text), test-only files
/// (`*_tests.rs`) left out.
fn library_sources() -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    super::architecture::rs_files(&root, &mut files);
    files.sort();
    files
        .iter()
        .filter(|f| {
            !f.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
        })
        .map(|f| {
            let rel = f.strip_prefix(&root).expect("under src");
            (
                rel.to_string_lossy().replace('\\', "/"),
                std::fs::read_to_string(f).expect("a readable source file"),
            )
        })
        .collect()
}

#[test]
fn no_public_type_name_is_defined_twice() {
    let files = library_sources();
    // The reader sees the types it must: the joint rotations and the character.
    let names: Vec<String> = files
        .iter()
        .flat_map(|(_, text)| public_types(text))
        .map(|(n, _)| n)
        .collect();
    assert!(names.len() > 100, "{} public types", names.len());
    for must in ["Pose", "Character", "ChainOptions", "Result"] {
        assert!(names.iter().any(|n| n == must), "{must} not found");
    }
    let twice = duplicates(&files);
    assert!(
        twice.is_empty(),
        "public type names defined more than once (give each a name that says what it \
         is): {twice:#?}"
    );
}

#[test]
fn the_name_scan_finds_a_name_defined_twice() {
    let a = "pub struct Options {\n    x: f32,\n}\npub(crate) struct Hidden;\n\
             // pub struct Commented;\n";
    let b = "/// The other options.\npub enum Options {\n    A,\n}\npub(crate) struct Hidden;\n\
             const S: &str = \"pub struct InString\";\n#[cfg(test)]\nmod tests {\n    \
             pub struct Options;\n}\n";
    let c = "pub type Alias = u8;\npub trait Shape {}\n";
    let files: Vec<(String, String)> = [("a.rs", a), ("b.rs", b), ("c.rs", c)]
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect();
    let twice = duplicates(&files);
    assert_eq!(twice.keys().collect::<Vec<_>>(), ["Options"], "{twice:?}");
    assert_eq!(twice["Options"], ["a.rs:1", "b.rs:2"]);
    let found: Vec<String> = public_types(c).into_iter().map(|(n, _)| n).collect();
    assert_eq!(found, ["Alias", "Shape"]);
}
