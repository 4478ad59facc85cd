//! The pages of `docs/` (and the README) stay true of the tree: every `crates/...` path
//! they name exists, every file or folder path `docs/architecture.md` names exists, and
//! that page's table of the library's modules is in dependency order (a module uses only
//! the modules above it) and lists every top-level module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// `docs/*.md` and `README.md`, as (name, text), sorted by name.
fn pages() -> Vec<(String, String)> {
    let root = root();
    let mut out = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(root.join("README.md")).expect("README.md"),
    )];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for p in docs {
        let name = format!("docs/{}", p.file_name().unwrap().to_string_lossy());
        out.push((name, std::fs::read_to_string(&p).expect("a readable page")));
    }
    out
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// Every `crates/...` path in `text`, with its line; a sentence's full stop is not part
/// of it, and a pattern (`crates/*/src`, `crates/{a,b}`, a `NAME` placeholder) is left
/// out.
fn crate_paths(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(k) = line[from..].find("crates/").map(|k| k + from) {
            let before = line[..k].chars().next_back();
            let run: String = line[k..].chars().take_while(|&c| is_path_char(c)).collect();
            let after = line[k + run.len()..].chars().next();
            from = k + run.len();
            if before.is_some_and(is_path_char)
                || matches!(after, Some('*' | '{' | '<' | '['))
                || run.contains("NAME")
            {
                continue;
            }
            let path = run.trim_end_matches('.').to_string();
            out.push((path, ln + 1));
        }
    }
    out
}

/// The file and folder paths a page names in backticks (`fit/placement.rs`,
/// `review/rubric/`), with their lines: a token with a `/` that ends in `.rs`, `.md`,
/// `.txt` or `/`; placeholders (`NAME`) left out.
fn backticked_paths(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        for (i, tok) in line.split('`').enumerate() {
            let is_code = i % 2 == 1;
            let looks = tok.contains('/')
                && tok.chars().all(is_path_char)
                && [".rs", ".md", ".txt", "/"].iter().any(|e| tok.ends_with(e));
            if is_code && looks && !tok.contains("NAME") && !tok.starts_with('/') {
                out.push((tok.to_string(), ln + 1));
            }
        }
    }
    out
}

/// Whether `path` exists under one of the folders the docs name paths from: the
/// workspace, `crates/`, the library crate, its `src/`, the CLI's `src/`.
fn exists_somewhere(path: &str) -> bool {
    let root = root();
    [
        "",
        "crates",
        "crates/rigsmith",
        "crates/rigsmith/src",
        "crates/rigsmith-cli/src",
    ]
    .iter()
    .any(|base| root.join(base).join(path).exists())
}

#[test]
fn every_crates_path_named_in_the_docs_exists() {
    let root = root();
    let mut named = 0;
    let mut missing = Vec::new();
    for (page, text) in pages() {
        for (path, line) in crate_paths(&text) {
            named += 1;
            if !root.join(&path).exists() {
                missing.push(format!("{page}:{line}: {path}"));
            }
        }
    }
    assert!(named > 40, "only {named} paths found: the reader is broken");
    assert!(
        missing.is_empty(),
        "paths the docs name that do not exist: {missing:#?}"
    );
}

#[test]
fn every_path_the_architecture_page_names_exists() {
    let text = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let paths = backticked_paths(&text);
    assert!(paths.len() > 20, "{paths:?}");
    let missing: Vec<String> = paths
        .iter()
        .filter(|(p, _)| !exists_somewhere(p))
        .map(|(p, l)| format!("docs/architecture.md:{l}: {p}"))
        .collect();
    assert!(missing.is_empty(), "paths that do not exist: {missing:#?}");
}

#[test]
fn the_path_readers_see_a_missing_path_and_skip_patterns() {
    let text = "See `crates/rigsmith/src/fit/placement.rs`. And crates/rigsmith/src/gone.rs.\n\
                Every crates/*/src, crates/rigsmith-cli/src/cmd/NAME.rs, mycrates/x.\n\
                In `fit/placement.rs`, `review/rubric/`, `io/NAME/` and `no/such_file.rs`.";
    let found = crate_paths(text);
    assert_eq!(
        found,
        [
            ("crates/rigsmith/src/fit/placement.rs".to_string(), 1),
            ("crates/rigsmith/src/gone.rs".to_string(), 1)
        ]
    );
    let root = root();
    assert!(root.join(&found[0].0).exists());
    assert!(!root.join(&found[1].0).exists(), "the positive control");
    let ticked: Vec<String> = backticked_paths(text).into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        ticked,
        [
            "crates/rigsmith/src/fit/placement.rs",
            "fit/placement.rs",
            "review/rubric/",
            "no/such_file.rs"
        ]
    );
    assert!(exists_somewhere("fit/placement.rs") && exists_somewhere("review/rubric/"));
    assert!(!exists_somewhere("no/such_file.rs"), "the positive control");
}

/// The modules of the table under `## Modules of the library` in `page`, in order.
fn module_table(page: &str) -> Vec<String> {
    let start = page
        .find("## Modules of the library")
        .expect("the page has the module table");
    let section = &page[start..];
    let end = section[2..].find("\n## ").map_or(section.len(), |e| e + 2);
    section[..end]
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(m, _)| m.to_string()))
        .collect()
}

/// Each edge `a -> b` of `uses` (top-level modules) where `b` stands below `a` in
/// `order`, and each module of `modules` missing from `order`.
fn order_problems(
    order: &[String],
    uses: &BTreeMap<String, BTreeSet<String>>,
    modules: &BTreeSet<String>,
) -> Vec<String> {
    let at: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut out: Vec<String> = modules
        .iter()
        .filter(|m| !at.contains_key(m.as_str()))
        .map(|m| format!("{m} is not in the table"))
        .collect();
    for (a, bs) in uses {
        for b in bs {
            if let (Some(ia), Some(ib)) = (at.get(a.as_str()), at.get(b.as_str())) {
                if ib > ia {
                    out.push(format!("{a} uses {b}, which the table lists below it"));
                }
            }
        }
    }
    out
}

/// The library's top-level modules (`src/NAME.rs` and `src/NAME/`, not `lib.rs`).
fn top_modules() -> BTreeSet<String> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let stem = Path::new(p.file_name()?)
                .file_stem()?
                .to_string_lossy()
                .into_owned();
            let module = p.is_dir() || p.extension().is_some_and(|e| e == "rs");
            (module && stem != "lib").then_some(stem)
        })
        .collect()
}

/// The import graph between top-level modules, without the `top:` prefixes.
fn top_level_uses() -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in super::architecture::graph() {
        let Some(a) = from.strip_prefix("top:") else {
            continue;
        };
        for to in tos {
            if let Some(b) = to.strip_prefix("top:") {
                out.entry(a.to_string()).or_default().insert(b.to_string());
            }
        }
    }
    out
}

#[test]
fn the_module_table_is_in_dependency_order_and_complete() {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let order = module_table(&page);
    let uses = top_level_uses();
    assert!(uses["pipeline"].contains("fit"), "{uses:?}");
    let problems = order_problems(&order, &uses, &top_modules());
    assert!(
        problems.is_empty(),
        "docs/architecture.md's module table ({order:?}): {problems:#?}"
    );
}

#[test]
fn the_order_check_sees_a_module_above_what_it_uses() {
    let order: Vec<String> = ["model", "fit", "bind"].map(String::from).to_vec();
    let mut uses: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    uses.entry("fit".into()).or_default().insert("model".into());
    let all: BTreeSet<String> = ["model", "fit", "bind"].map(String::from).into();
    assert!(order_problems(&order, &uses, &all).is_empty());
    uses.entry("fit".into()).or_default().insert("bind".into());
    let more: BTreeSet<String> = ["model", "fit", "bind", "io"].map(String::from).into();
    assert_eq!(
        order_problems(&order, &uses, &more),
        [
            "io is not in the table",
            "fit uses bind, which the table lists below it"
        ]
    );
    let table = "## Modules of the library\n\n| module | what |\n|---|---|\n| `geom` | a |\n\
                 | `model` | b |\n\n## The public surface\n| `not` | c |\n";
    assert_eq!(module_table(table), ["geom", "model"]);
}
