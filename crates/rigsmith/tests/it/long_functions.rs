//! No library function over [`LIMIT`] lines, in any crate of the workspace.
//!
//! Every `src/**.rs` of every crate is read; comments, string and character literals
//! are blanked (so a brace in a string or a comment cannot end a function), test code is
//! left out (an item under `#[cfg(test)]`, and `*_tests.rs` files), and each `fn` with a
//! body is measured from the line of its `fn` to the line of its closing brace. A nested
//! function counts in its own right and as lines of the function around it.
//!
//! The functions still over the limit that are being split elsewhere are listed in
//! `tests/long_functions.txt` (`path name`, one a line): the test fails on a long
//! function the list does not name AND on a listed one that is no longer long, so the
//! list can only shrink.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The longest a library function may be, in lines.
const LIMIT: usize = 150;

/// A function with a body: its name, the line of its `fn` (1-based) and its length in
/// lines (from the `fn` line to the closing brace's, both counted).
#[derive(Debug, Clone, PartialEq)]
struct Func {
    name: String,
    line: usize,
    lines: usize,
}

/// `src` with every comment (line, block, nested block), string literal (plain, byte,
/// raw with any number of `#`) and character literal replaced by spaces; newlines are
/// kept, so line numbers stay. Lifetimes and labels (`'a`) are kept.
pub(crate) fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let n = c.len();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, s: &[char]| {
        out.extend(s.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    let ident = |i: usize| i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    let mut i = 0;
    while i < n {
        let at = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        // Line comment.
        if at(0) == '/' && at(1) == '/' {
            let mut j = i;
            while j < n && c[j] != '\n' {
                j += 1;
            }
            blank(&mut out, &c[i..j]);
            i = j;
            continue;
        }
        // Block comment (they nest).
        if at(0) == '/' && at(1) == '*' {
            let (mut j, mut depth) = (i + 2, 1);
            while j < n && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &c[i..j.min(n)]);
            i = j.min(n);
            continue;
        }
        // Raw string: r"..", r#".."#, br#".."#.
        if !ident(i) && (at(0) == 'r' || (at(0) == 'b' && at(1) == 'r')) {
            let mut j = i + if at(0) == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while j < n && c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if j < n && c[j] == '"' {
                j += 1;
                loop {
                    if j >= n {
                        break;
                    }
                    if c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                blank(&mut out, &c[i..j.min(n)]);
                i = j.min(n);
                continue;
            }
        }
        // Plain or byte string.
        if at(0) == '"' || (at(0) == 'b' && at(1) == '"' && !ident(i)) {
            let mut j = i + if at(0) == 'b' { 2 } else { 1 };
            while j < n && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(n);
            blank(&mut out, &c[i..end]);
            i = end;
            continue;
        }
        // Character literal ('x', '\n', '\u{7f}', '{'); a lifetime or label is kept.
        if at(0) == '\'' {
            let end = if at(1) == '\\' {
                let mut j = i + 3;
                while j < n && c[j] != '\'' {
                    j += 1;
                }
                Some(j + 1)
            } else if at(1) != '\0' && at(2) == '\'' {
                Some(i + 3)
            } else {
                None
            };
            if let Some(end) = end {
                blank(&mut out, &c[i..end.min(n)]);
                i = end.min(n);
                continue;
            }
        }
        out.push(c[i]);
        i += 1;
    }
    out
}

/// The index of the `{` or `;` that ends the item starting at `from` (outside any
/// parentheses or brackets: `[u8; 4]`), in stripped code.
fn item_end(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (k, &ch) in b.iter().enumerate().skip(from) {
        match ch {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'{' | b';' if depth <= 0 => return Some(k),
            _ => {}
        }
    }
    None
}

/// The index of the `}` matching the `{` at `open`, in stripped code.
fn matching_brace(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &ch) in b.iter().enumerate().skip(open) {
        match ch {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Stripped code with every item under `#[cfg(test)]` blanked (a test module, a test
/// helper, a test-only `use`).
pub(crate) fn without_test_items(code: &str) -> String {
    let mut b = code.as_bytes().to_vec();
    let attr = b"#[cfg(test)]";
    let mut from = 0;
    while let Some(k) = b[from..]
        .windows(attr.len())
        .position(|w| w == attr)
        .map(|k| k + from)
    {
        let end = match item_end(&b, k + attr.len()) {
            Some(e) if b[e] == b'{' => matching_brace(&b, e).unwrap_or(b.len() - 1),
            Some(e) => e,
            None => b.len() - 1,
        };
        for ch in &mut b[k..=end] {
            if *ch != b'\n' {
                *ch = b' ';
            }
        }
        from = end + 1;
    }
    String::from_utf8(b).expect("only ASCII bytes were replaced")
}

/// Every function with a body in `src` (a Rust source file), test items left out.
fn functions(src: &str) -> Vec<Func> {
    let code = without_test_items(&strip(src));
    let b = code.as_bytes();
    let line_of = |k: usize| 1 + b[..k].iter().filter(|&&ch| ch == b'\n').count();
    let is_ident = |ch: u8| ch.is_ascii_alphanumeric() || ch == b'_';
    let mut out = Vec::new();
    let mut k = 0;
    while k + 2 < b.len() {
        let word = &b[k..k + 2] == b"fn"
            && (k == 0 || !is_ident(b[k - 1]))
            && b[k + 2].is_ascii_whitespace();
        if !word {
            k += 1;
            continue;
        }
        let mut s = k + 2;
        while s < b.len() && b[s].is_ascii_whitespace() {
            s += 1;
        }
        let e = (s..b.len()).find(|&j| !is_ident(b[j])).unwrap_or(b.len());
        if e > s {
            if let Some(open) = item_end(b, e).filter(|&o| b[o] == b'{') {
                if let Some(close) = matching_brace(b, open) {
                    let line = line_of(k);
                    out.push(Func {
                        name: code[s..e].to_string(),
                        line,
                        lines: line_of(close) - line + 1,
                    });
                }
            }
        }
        k = e.max(k + 2);
    }
    out
}

/// The workspace's crates folder.
fn crates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate is in a folder")
        .to_path_buf()
}

/// Every function over the limit in the library sources of every crate, as
/// (`crates/CRATE/src/...rs`, name, lines), sorted.
fn long_functions() -> Vec<(String, String, usize)> {
    let root = crates_dir();
    let mut files = Vec::new();
    for e in std::fs::read_dir(&root).expect("the crates folder") {
        let src = e.expect("a crate").path().join("src");
        if src.is_dir() {
            super::architecture::rs_files(&src, &mut files);
        }
    }
    let mut out = Vec::new();
    for f in files {
        if f.file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("a readable source file");
        let rel = Path::new("crates").join(f.strip_prefix(&root).expect("under crates"));
        let rel = rel.to_string_lossy().replace('\\', "/");
        for func in functions(&text) {
            if func.lines > LIMIT {
                out.push((rel.clone(), func.name, func.lines));
            }
        }
    }
    out.sort();
    out
}

/// The allow-list: (`path`, name) a line, `#` comments and blank lines skipped.
fn allowed() -> BTreeSet<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/long_functions.txt");
    let text = std::fs::read_to_string(&path).expect("tests/long_functions.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (p, n) = l
                .split_once(char::is_whitespace)
                .unwrap_or_else(|| panic!("{path:?}: `{l}` is not `path name`"));
            (p.to_string(), n.trim().to_string())
        })
        .collect()
}

#[test]
fn no_library_function_is_longer_than_the_limit() {
    let long = long_functions();
    let allow = allowed();
    let found: BTreeSet<(String, String)> = long
        .iter()
        .map(|(p, n, _)| (p.clone(), n.clone()))
        .collect();
    let unlisted: Vec<String> = long
        .iter()
        .filter(|(p, n, _)| !allow.contains(&(p.clone(), n.clone())))
        .map(|(p, n, l)| format!("{p} {n}: {l} lines"))
        .collect();
    let stale: Vec<String> = allow
        .difference(&found)
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "functions over {LIMIT} lines (split them into named steps):\n  {}\n\
         listed in tests/long_functions.txt but no longer over {LIMIT} lines (take them \
         off the list):\n  {}",
        unlisted.join("\n  "),
        stale.join("\n  ")
    );
}

/// A function of `body` lines between its `fn` line and its closing brace.
fn function_of(name: &str, body: usize) -> String {
    let mut s = format!("fn {name}() {{\n");
    for i in 0..body {
        s.push_str(&format!("    let x{i} = {i};\n"));
    }
    s.push_str("}\n");
    s
}

#[test]
fn the_scanner_measures_a_151_line_function_and_ignores_braces_in_literals() {
    // 149 body lines + the `fn` line + the closing brace = 151 lines.
    let mut src = function_of("long_one", 149);
    // Braces in strings, raw strings, characters and comments do not count.
    src.push_str(concat!(
        "fn tricky<'a>(x: &'a str) -> [u8; 2] {\n",
        "    let s = \"}}}} {{ \\\" }\";\n",
        "    let r = r#\"} \" {\"#;\n",
        "    let c = ['{', '}', '\\'', '\\u{7d}'];\n",
        "    /* } /* nested } */ { */\n",
        "    // }\n",
        "    'outer: loop { break 'outer; }\n",
        "    [0, 1]\n",
        "}\n",
        "#[cfg(test)]\n",
        "mod tests {\n",
        "    fn helper() {}\n",
        "}\n",
        "fn after() {}\n",
    ));
    let f = functions(&src);
    let names: Vec<(&str, usize, usize)> = f
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines))
        .collect();
    assert_eq!(
        names,
        [("long_one", 1, 151), ("tricky", 152, 9), ("after", 165, 1)]
    );
    assert!(f[0].lines > LIMIT, "151 lines are over the limit");
    // One line fewer is within it.
    assert_eq!(functions(&function_of("ok", 148))[0].lines, LIMIT);
}
