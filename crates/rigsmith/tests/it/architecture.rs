//! The library's module structure: no import cycle between its top-level modules, and
//! none between the files of one module. Read from the source: every `crate::` and
//! `super::` path outside comments and test modules is an edge from the file it is
//! in to the module (or file) it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path inside the crate: `["fit", "landmarks", "hands"]`.
type ModPath = Vec<String>;

fn src_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

pub(crate) fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module a file defines: `fit/landmarks/mod.rs` -> `[fit, landmarks]`.
fn module_of(rel: &Path) -> ModPath {
    let mut m: ModPath = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if m.last().is_some_and(|l| l == "mod") {
        m.pop();
    }
    m
}

/// The code of a file without comments and without its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path after `crate::` or `super::` in `code`, as (`super`?, segments): a brace
/// group contributes one path per item, with the item's first segment.
fn paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let at_word = i == 0 || !is_ident(b[i - 1] as char);
        let base = if !at_word {
            None
        } else if rest.starts_with(b"crate::") {
            Some((false, 7))
        } else if rest.starts_with(b"super::") {
            Some((true, 7))
        } else {
            None
        };
        let Some((sup, skip)) = base else {
            i += 1;
            continue;
        };
        i += skip;
        let mut segs = Vec::new();
        loop {
            if b.get(i) == Some(&b'{') {
                i += 1;
                let (mut depth, mut item_start) = (1, i);
                while i < b.len() && depth > 0 {
                    match b[i] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    if (b[i] == b',' && depth == 1) || depth == 0 {
                        let first: String = code[item_start..i]
                            .trim()
                            .chars()
                            .take_while(|c| is_ident(*c))
                            .collect();
                        if !first.is_empty() && first != "self" {
                            let mut p = segs.clone();
                            p.push(first);
                            out.push((sup, p));
                        }
                        item_start = i + 1;
                    }
                    i += 1;
                }
                segs.clear();
                break;
            }
            let start = i;
            while i < b.len() && is_ident(b[i] as char) {
                i += 1;
            }
            if i == start {
                break;
            }
            segs.push(code[start..i].to_string());
            if b[i..].starts_with(b"::") {
                i += 2;
            } else {
                break;
            }
        }
        if !segs.is_empty() {
            out.push((sup, segs));
        }
    }
    out
}

/// The import graph: `top:A -> top:B` between top-level modules, `A/F -> A/G` between
/// the files (direct submodules) of one module.
pub(crate) fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = src_dir();
    let mut files = Vec::new();
    rs_files(&root, &mut files);
    let mods: BTreeMap<ModPath, String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap();
            (module_of(rel), code(&std::fs::read_to_string(f).unwrap()))
        })
        .collect();
    let tops: BTreeSet<&str> = mods
        .keys()
        .filter_map(|m| m.first().map(String::as_str))
        .collect();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in &mods {
        if m.len() == 1 && m[0] == "lib" {
            continue;
        }
        for (sup, segs) in paths(text) {
            let target: ModPath = if sup {
                m[..m.len().saturating_sub(1)]
                    .iter()
                    .cloned()
                    .chain(segs)
                    .collect()
            } else {
                segs
            };
            let (Some(a), Some(b)) = (m.first(), target.first()) else {
                continue;
            };
            if a != b {
                if tops.contains(b.as_str()) {
                    g.entry(format!("top:{a}"))
                        .or_default()
                        .insert(format!("top:{b}"));
                }
            } else if m.len() >= 2 && target.len() >= 2 && m[1] != target[1] {
                let file = vec![a.clone(), target[1].clone()];
                if mods.contains_key(&file) {
                    g.entry(format!("{a}/{}", m[1]))
                        .or_default()
                        .insert(format!("{a}/{}", target[1]));
                }
            }
        }
    }
    g
}

/// Strongly connected components with more than one node (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        if let Some(ws) = t.g.get(v) {
            for w in ws {
                let w = w.as_str();
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.on.contains(w) {
                    let iw = t.index[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_import_cycles_between_modules_or_files() {
    let g = graph();
    // The reader sees the edges it must: the pipeline uses fit, a file of parts uses
    // another.
    assert!(g["top:pipeline"].contains("top:fit"), "{g:?}");
    assert!(g["parts/chain_build"].contains("parts/surfaces"), "{g:?}");
    let new = cycles(&g);
    assert!(
        new.is_empty(),
        "import cycles (node -> what it uses): {:#?}",
        new.iter()
            .map(|c| c
                .iter()
                .map(|n| format!("{n} -> {:?}", g[n].intersection(c).collect::<Vec<_>>()))
                .collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default().insert("a".into());
    g.entry("c".into()).or_default().insert("d".into());
    let c = cycles(&g);
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].len(), 3);
    let p = paths("use super::{a::{b, c}, d};\nlet x = crate::e::f(1);");
    assert!(p.contains(&(true, vec!["a".into()])), "{p:?}");
    assert!(p.contains(&(true, vec!["d".into()])), "{p:?}");
    assert!(p.contains(&(false, vec!["e".into(), "f".into()])), "{p:?}");
}
