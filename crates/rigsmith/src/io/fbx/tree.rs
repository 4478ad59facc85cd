//! The FBX node tree, read from binary or ASCII FBX 7.x.
//!
//! An FBX file is a tree of records: each has a name, a list of typed values (its
//! properties) and child records. Binary files (`Kaydara FBX Binary`, versions 7.0 to
//! 7.7) store them with end offsets (32-bit before 7.5, 64-bit from 7.5) and arrays
//! optionally zlib-compressed; ASCII files write `Name: value, value { children }` with
//! arrays as `*N { a: v, v, ... }`. Both give the same [`Node`] tree.
//!
//! Every length and offset in the file is untrusted: each is checked against the bytes
//! that are really there before use, arrays are never allocated from a declared count
//! larger than the data can hold, nesting is limited to [`MAX_DEPTH`], and a fault is a
//! [`Error::Format`] naming the file, the record path (`Objects.Geometry.Vertices`) and
//! the byte offset.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The deepest nesting of records accepted (real files nest 5 or 6 deep).
pub const MAX_DEPTH: usize = 64;

/// The binary file's first 21 bytes.
pub const BINARY_MAGIC: &[u8] = b"Kaydara FBX Binary  \0";

/// One value of a record.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `C`: a boolean.
    Bool(bool),
    /// `Y`, `I`, `L`: an integer.
    Int(i64),
    /// `F`, `D`: a number.
    Float(f64),
    /// `S`: a string (binary object names hold `Name\0\x01Class`).
    Str(String),
    /// `R`: raw bytes.
    Raw(Vec<u8>),
    /// `i`, `l`, `b`: an integer array.
    Ints(Vec<i64>),
    /// `f`, `d`: a number array.
    Floats(Vec<f64>),
}

impl Value {
    /// The value as a number (integers and booleans convert).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// The value as an integer (whole numbers convert).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(i64::from(*b)),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            _ => None,
        }
    }

    /// The value as a string; an object name's class suffix (`\0\x01Class`) is dropped.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s.split("\u{0}\u{1}").next().unwrap_or(s)),
            _ => None,
        }
    }

    /// The value as an array of numbers (an integer array converts).
    pub fn floats(&self) -> Option<Vec<f64>> {
        match self {
            Value::Floats(v) => Some(v.clone()),
            Value::Ints(v) => Some(v.iter().map(|&i| i as f64).collect()),
            _ => None,
        }
    }

    /// The value as an array of integers (whole numbers of a number array convert).
    pub fn ints(&self) -> Option<Vec<i64>> {
        match self {
            Value::Ints(v) => Some(v.clone()),
            Value::Floats(v) => v
                .iter()
                .map(|&f| (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64))
                .collect(),
            _ => None,
        }
    }
}

/// A record: its name, values and children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    /// The record's name (`Objects`, `Model`, `Vertices`...).
    pub name: String,
    /// Its values.
    pub values: Vec<Value>,
    /// Its child records.
    pub children: Vec<Node>,
}

impl Node {
    /// The first child named `name`.
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child named `name`.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The first value of the child `name`.
    pub fn child_value(&self, name: &str) -> Option<&Value> {
        self.child(name).and_then(|c| c.values.first())
    }
}

/// The document: the top-level records and the file's version (7400 for 7.4).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// The FBX version, e.g. 7400.
    pub version: u32,
    /// Whether the file was binary.
    pub binary: bool,
    /// The top-level records (`FBXHeaderExtension`, `GlobalSettings`, `Objects`,
    /// `Connections`...).
    pub nodes: Vec<Node>,
}

impl Document {
    /// The top-level record `name`.
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.name == name)
    }
}

/// Parses FBX bytes, binary or ASCII. `path` names the file in errors.
pub fn parse(bytes: &[u8], path: &Path) -> Result<Document> {
    if bytes.starts_with(BINARY_MAGIC) {
        return Binary { bytes, path }.document();
    }
    if looks_ascii_fbx(bytes) {
        return Ascii::new(bytes, path)?.document();
    }
    Err(Error::format(
        path,
        "",
        "not an FBX file (neither the binary header \"Kaydara FBX Binary\" nor ASCII FBX records)",
    ))
}

/// Whether `bytes` read as ASCII FBX: UTF-8 text whose first record (after `;` comments)
/// is `FBXHeaderExtension:` (as every exporter writes it) or which says it is an FBX
/// project file in its first comment.
fn looks_ascii_fbx(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    for line in text.lines() {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(c) = l.strip_prefix(';') {
            if c.contains("FBX") && c.contains("project file") {
                return true;
            }
            continue;
        }
        return l.starts_with("FBXHeaderExtension:");
    }
    false
}

struct Binary<'a> {
    bytes: &'a [u8],
    path: &'a Path,
}

impl Binary<'_> {
    fn err(&self, at: &str, offset: usize, msg: impl std::fmt::Display) -> Error {
        Error::format(self.path, at, format!("{msg} (at byte {offset})"))
    }

    fn take(&self, pos: &mut usize, n: usize, at: &str, what: &str) -> Result<&[u8]> {
        let end = pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(e) => {
                let s = &self.bytes[*pos..e];
                *pos = e;
                Ok(s)
            }
            None => Err(self.err(
                at,
                *pos,
                format!(
                    "the file ends inside {what}: it needs {n} bytes, {} are left (truncated?)",
                    self.bytes.len().saturating_sub(*pos)
                ),
            )),
        }
    }

    fn u32(&self, pos: &mut usize, at: &str, what: &str) -> Result<u32> {
        let b = self.take(pos, 4, at, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&self, pos: &mut usize, at: &str, what: &str) -> Result<u64> {
        let b = self.take(pos, 8, at, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    fn document(&self) -> Result<Document> {
        let mut pos = BINARY_MAGIC.len();
        self.take(&mut pos, 2, "", "the header")?;
        let version = self.u32(&mut pos, "", "the header")?;
        if !(7000..8000).contains(&version) {
            return Err(self.err(
                "",
                23,
                format!("FBX version {version} is not supported (expected 7.x: 7000 to 7700)"),
            ));
        }
        let wide = version >= 7500;
        let mut nodes = Vec::new();
        loop {
            if pos >= self.bytes.len() {
                return Err(self.err(
                    "",
                    pos,
                    "the file ends before the end-of-records marker (truncated?)",
                ));
            }
            match self.record(&mut pos, wide, "", 0)? {
                Some(n) => nodes.push(n),
                None => break,
            }
        }
        Ok(Document {
            version,
            binary: true,
            nodes,
        })
    }

    /// One record at `pos`; `None` for the null record that ends a list.
    fn record(
        &self,
        pos: &mut usize,
        wide: bool,
        parent: &str,
        depth: usize,
    ) -> Result<Option<Node>> {
        let start = *pos;
        let at_here = if parent.is_empty() { "record" } else { parent };
        let (end, nprops, plen) = if wide {
            (
                self.u64(pos, at_here, "a record header")?,
                self.u64(pos, at_here, "a record header")?,
                self.u64(pos, at_here, "a record header")?,
            )
        } else {
            (
                u64::from(self.u32(pos, at_here, "a record header")?),
                u64::from(self.u32(pos, at_here, "a record header")?),
                u64::from(self.u32(pos, at_here, "a record header")?),
            )
        };
        let name_len = self.take(pos, 1, at_here, "a record header")?[0] as usize;
        if end == 0 {
            return Ok(None);
        }
        let name_bytes = self.take(pos, name_len, at_here, "a record name")?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        let at = if parent.is_empty() {
            name.clone()
        } else {
            format!("{parent}.{name}")
        };
        if depth > MAX_DEPTH {
            return Err(self.err(&at, start, format!("records nest deeper than {MAX_DEPTH}")));
        }
        let end = usize::try_from(end).unwrap_or(usize::MAX);
        if end > self.bytes.len() || end < *pos {
            return Err(self.err(
                &at,
                start,
                format!(
                    "the record claims to end at byte {end} but the file has {} bytes (truncated?)",
                    self.bytes.len()
                ),
            ));
        }
        let props_end = pos
            .checked_add(usize::try_from(plen).unwrap_or(usize::MAX))
            .filter(|&e| e <= end)
            .ok_or_else(|| self.err(&at, start, "its values run past the record's end"))?;
        if nprops > plen {
            return Err(self.err(
                &at,
                start,
                format!("{nprops} values cannot fit in {plen} bytes"),
            ));
        }
        let mut values = Vec::with_capacity(nprops as usize);
        for k in 0..nprops {
            values.push(self.value(pos, props_end, &format!("{at}[{k}]"))?);
        }
        if *pos != props_end {
            return Err(self.err(
                &at,
                *pos,
                "its values do not fill the length the record declares",
            ));
        }
        let mut children = Vec::new();
        while *pos < end {
            match self.record(pos, wide, &at, depth + 1)? {
                Some(c) => children.push(c),
                None => break,
            }
        }
        if *pos != end {
            return Err(self.err(&at, *pos, format!("its children do not end at byte {end}")));
        }
        Ok(Some(Node {
            name,
            values,
            children,
        }))
    }

    fn value(&self, pos: &mut usize, limit: usize, at: &str) -> Result<Value> {
        let bytes = &self.bytes[..limit];
        let me = Binary {
            bytes,
            path: self.path,
        };
        let code = me.take(pos, 1, at, "a value")?[0];
        let v = match code {
            b'C' => Value::Bool(me.take(pos, 1, at, "a value")?[0] != 0),
            b'Y' => {
                let b = me.take(pos, 2, at, "a value")?;
                Value::Int(i64::from(i16::from_le_bytes([b[0], b[1]])))
            }
            b'I' => Value::Int(i64::from(me.u32(pos, at, "a value")? as i32)),
            b'L' => Value::Int(me.u64(pos, at, "a value")? as i64),
            b'F' => Value::Float(f64::from(f32::from_bits(me.u32(pos, at, "a value")?))),
            b'D' => Value::Float(f64::from_bits(me.u64(pos, at, "a value")?)),
            b'S' | b'R' => {
                let n = me.u32(pos, at, "a string length")? as usize;
                let b = me.take(pos, n, at, "a string")?;
                if code == b'S' {
                    Value::Str(String::from_utf8_lossy(b).into_owned())
                } else {
                    Value::Raw(b.to_vec())
                }
            }
            b'f' | b'd' | b'i' | b'l' | b'b' => me.array(pos, code, at)?,
            c => {
                return Err(self.err(
                    at,
                    *pos - 1,
                    format!("unknown value type {:?}", char::from(c)),
                ))
            }
        };
        Ok(v)
    }

    fn array(&self, pos: &mut usize, code: u8, at: &str) -> Result<Value> {
        let start = *pos;
        let count = self.u32(pos, at, "an array header")? as usize;
        let encoding = self.u32(pos, at, "an array header")?;
        let clen = self.u32(pos, at, "an array header")? as usize;
        let data = self.take(pos, clen, at, "an array")?;
        let size = match code {
            b'f' | b'i' => 4,
            b'd' | b'l' => 8,
            _ => 1,
        };
        let need = count
            .checked_mul(size)
            .ok_or_else(|| self.err(at, start, "the array's length overflows"))?;
        let raw: Vec<u8> = match encoding {
            0 => {
                if clen != need {
                    return Err(self.err(
                        at,
                        start,
                        format!("{count} elements need {need} bytes but the array holds {clen}"),
                    ));
                }
                data.to_vec()
            }
            1 => {
                // zlib expands at most about 1032:1, so the buffer is bounded by the data.
                let mut out = Vec::with_capacity(need.min(clen.saturating_mul(1032)));
                flate2::read::ZlibDecoder::new(data)
                    .take(need as u64 + 1)
                    .read_to_end(&mut out)
                    .map_err(|e| {
                        self.err(
                            at,
                            start,
                            format!("the compressed array does not inflate: {e}"),
                        )
                    })?;
                if out.len() != need {
                    return Err(self.err(
                        at,
                        start,
                        format!(
                            "the compressed array inflates to {} bytes, {count} elements need {need}",
                            out.len()
                        ),
                    ));
                }
                out
            }
            e => return Err(self.err(at, start, format!("unknown array encoding {e}"))),
        };
        let chunks = raw.chunks_exact(size);
        Ok(match code {
            b'f' => Value::Floats(
                chunks
                    .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .collect(),
            ),
            b'd' => Value::Floats(
                chunks
                    .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                    .collect(),
            ),
            b'i' => Value::Ints(
                chunks
                    .map(|c| i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .collect(),
            ),
            b'l' => Value::Ints(
                chunks
                    .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                    .collect(),
            ),
            _ => Value::Ints(raw.iter().map(|&b| i64::from(b != 0)).collect()),
        })
    }
}

/// A token of ASCII FBX.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// `Name:`
    Key(String),
    /// A bare word or number.
    Word(String),
    /// A quoted string.
    Str(String),
    /// `*N`, an array's length.
    Star,
    Comma,
    Open,
    Close,
}

struct Ascii<'a> {
    path: &'a Path,
    toks: Vec<(Tok, usize)>,
    i: usize,
}

impl<'a> Ascii<'a> {
    fn new(bytes: &[u8], path: &'a Path) -> Result<Ascii<'a>> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            Error::format(path, "", format!("ASCII FBX that is not UTF-8 text: {e}"))
        })?;
        let mut toks = Vec::new();
        let mut line = 1usize;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '\n' => line += 1,
                c if c.is_whitespace() => {}
                ';' => {
                    while let Some(&(_, c)) = chars.peek() {
                        if c == '\n' {
                            break;
                        }
                        chars.next();
                    }
                }
                ',' => toks.push((Tok::Comma, line)),
                '{' => toks.push((Tok::Open, line)),
                '}' => toks.push((Tok::Close, line)),
                '*' => {
                    while chars.peek().is_some_and(|&(_, c)| c.is_ascii_digit()) {
                        chars.next();
                    }
                    toks.push((Tok::Star, line));
                }
                '"' => {
                    let mut s = String::new();
                    let mut closed = false;
                    for (_, c) in chars.by_ref() {
                        if c == '"' {
                            closed = true;
                            break;
                        }
                        if c == '\n' {
                            line += 1;
                        }
                        s.push(c);
                    }
                    if !closed {
                        return Err(Error::format(
                            path,
                            format!("line {line}"),
                            "a string is not closed before the end of the file (truncated?)",
                        ));
                    }
                    // ASCII FBX writes the binary's `\0\x01` separator as `::`.
                    let s = match s.split_once("::") {
                        Some((class, name)) if !class.contains(' ') => {
                            format!("{name}\u{0}\u{1}{class}")
                        }
                        _ => s,
                    };
                    toks.push((Tok::Str(s), line));
                }
                _ => {
                    let mut end = i + c.len_utf8();
                    while let Some(&(j, c)) = chars.peek() {
                        if c.is_whitespace() || matches!(c, ',' | '{' | '}' | ';' | '"' | ':') {
                            break;
                        }
                        end = j + c.len_utf8();
                        chars.next();
                    }
                    let word = text[i..end].to_string();
                    if chars.peek().is_some_and(|&(_, c)| c == ':') {
                        chars.next();
                        toks.push((Tok::Key(word), line));
                    } else {
                        toks.push((Tok::Word(word), line));
                    }
                }
            }
        }
        Ok(Ascii { path, toks, i: 0 })
    }

    fn err(&self, at: &str, msg: impl Into<String>) -> Error {
        let line = self
            .toks
            .get(self.i)
            .or(self.toks.last())
            .map_or(0, |t| t.1);
        let at = if at.is_empty() {
            format!("line {line}")
        } else {
            format!("{at} (line {line})")
        };
        Error::format(self.path, at, msg)
    }

    fn document(mut self) -> Result<Document> {
        let mut nodes = Vec::new();
        while self.i < self.toks.len() {
            nodes.push(self.node("", 0)?);
        }
        let version = nodes
            .iter()
            .find(|n| n.name == "FBXHeaderExtension")
            .and_then(|h| h.child_value("FBXVersion"))
            .and_then(Value::as_i64)
            .unwrap_or(7400) as u32;
        if !(7000..8000).contains(&version) {
            return Err(Error::format(
                self.path,
                "FBXHeaderExtension.FBXVersion",
                format!("FBX version {version} is not supported (expected 7.x: 7000 to 7700)"),
            ));
        }
        Ok(Document {
            version,
            binary: false,
            nodes,
        })
    }

    fn node(&mut self, parent: &str, depth: usize) -> Result<Node> {
        let name = match self.toks.get(self.i) {
            Some((Tok::Key(k), _)) => k.clone(),
            Some((t, _)) => {
                return Err(self.err(parent, format!("expected a record name, found {t:?}")))
            }
            None => {
                return Err(self.err(
                    parent,
                    "the file ends where a record was expected (truncated?)",
                ))
            }
        };
        self.i += 1;
        let at = if parent.is_empty() {
            name.clone()
        } else {
            format!("{parent}.{name}")
        };
        if depth > MAX_DEPTH {
            return Err(self.err(&at, format!("records nest deeper than {MAX_DEPTH}")));
        }
        let mut node = Node {
            name,
            ..Default::default()
        };
        // An array: `*N { a: v, v, ... }`.
        if matches!(self.toks.get(self.i), Some((Tok::Star, _))) {
            self.i += 1;
            self.expect_open(&at)?;
            let mut vals = Vec::new();
            if matches!(self.toks.get(self.i), Some((Tok::Key(_), _))) {
                self.i += 1;
                vals = self.values();
            }
            self.expect_close(&at)?;
            let all_int = vals.iter().all(|v| matches!(v, Value::Int(_)));
            node.values.push(if all_int {
                Value::Ints(vals.iter().filter_map(Value::as_i64).collect())
            } else {
                let f: Option<Vec<f64>> = vals.iter().map(Value::as_f64).collect();
                Value::Floats(
                    f.ok_or_else(|| self.err(&at, "an array holds a value that is not a number"))?,
                )
            });
            return Ok(node);
        }
        node.values = self.values();
        if matches!(self.toks.get(self.i), Some((Tok::Open, _))) {
            self.i += 1;
            loop {
                match self.toks.get(self.i) {
                    Some((Tok::Close, _)) => {
                        self.i += 1;
                        break;
                    }
                    Some(_) => {
                        let c = self.node(&at, depth + 1)?;
                        node.children.push(c);
                    }
                    None => {
                        return Err(self.err(
                            &at,
                            "the file ends before the record's closing brace (truncated?)",
                        ))
                    }
                }
            }
        }
        Ok(node)
    }

    fn values(&mut self) -> Vec<Value> {
        let mut vals = Vec::new();
        // Some exporters write an empty first value (`Content: , "..."`).
        if matches!(self.toks.get(self.i), Some((Tok::Comma, _))) {
            self.i += 1;
        }
        loop {
            let v = match self.toks.get(self.i) {
                Some((Tok::Str(s), _)) => Value::Str(s.clone()),
                Some((Tok::Word(w), _)) => word_value(w),
                _ => break,
            };
            self.i += 1;
            vals.push(v);
            if matches!(self.toks.get(self.i), Some((Tok::Comma, _))) {
                self.i += 1;
            } else {
                break;
            }
        }
        vals
    }

    fn expect_open(&mut self, at: &str) -> Result<()> {
        match self.toks.get(self.i) {
            Some((Tok::Open, _)) => {
                self.i += 1;
                Ok(())
            }
            _ => Err(self.err(at, "expected `{` after an array length")),
        }
    }

    fn expect_close(&mut self, at: &str) -> Result<()> {
        match self.toks.get(self.i) {
            Some((Tok::Close, _)) => {
                self.i += 1;
                Ok(())
            }
            None => Err(self.err(at, "the file ends inside an array (truncated?)")),
            _ => Err(self.err(at, "expected `}` after an array's values")),
        }
    }
}

/// A bare word: an integer, a number, or a letter (`T`, `Y`, `W`: kept as a string).
fn word_value(w: &str) -> Value {
    if let Ok(i) = w.parse::<i64>() {
        return Value::Int(i);
    }
    if let Ok(f) = w.parse::<f64>() {
        return Value::Float(f);
    }
    Value::Str(w.to_string())
}

/// Writes a document as ASCII FBX 7.x text (object names as `Class::Name`), the form
/// [`parse`] reads back to the same tree (integers and numbers as written, arrays
/// typed by their values).
pub fn to_ascii(doc: &Document) -> String {
    let mut out = format!(
        "; FBX {}.{}.0 project file\n; written by rigsmith\n\n",
        doc.version / 1000,
        doc.version % 1000 / 100
    );
    for n in &doc.nodes {
        write_ascii(&mut out, n, 0);
    }
    out
}

fn write_ascii(out: &mut String, n: &Node, depth: usize) {
    use std::fmt::Write;
    let pad = "\t".repeat(depth);
    let _ = write!(out, "{pad}{}: ", n.name);
    let scalar = |v: &Value| -> String {
        match v {
            Value::Bool(b) => if *b { "1" } else { "0" }.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => float_text(*f),
            Value::Str(s) => match s.split_once("\u{0}\u{1}") {
                Some((name, class)) => format!("\"{class}::{name}\""),
                None => format!("\"{s}\""),
            },
            Value::Raw(r) => format!("\"{}\"", String::from_utf8_lossy(r).replace('"', "")),
            Value::Ints(_) | Value::Floats(_) => String::new(),
        }
    };
    if let [v @ (Value::Ints(_) | Value::Floats(_))] = &n.values[..] {
        let items: Vec<String> = match v {
            Value::Ints(a) => a.iter().map(|i| i.to_string()).collect(),
            Value::Floats(a) => a.iter().map(|f| float_text(*f)).collect(),
            _ => Vec::new(),
        };
        let _ = writeln!(
            out,
            "*{} {{\n{pad}\ta: {}\n{pad}}}",
            items.len(),
            items.join(",")
        );
        return;
    }
    let vals: Vec<String> = n.values.iter().map(scalar).collect();
    out.push_str(&vals.join(", "));
    if n.children.is_empty() {
        out.push('\n');
        return;
    }
    out.push_str(" {\n");
    for c in &n.children {
        write_ascii(out, c, depth + 1);
    }
    let _ = writeln!(out, "{pad}}}");
}

/// A number as ASCII FBX writes it, always with a decimal point or exponent so it
/// reads back as a number, exact to the last bit.
fn float_text(f: f64) -> String {
    let s = format!("{f:?}");
    if s.contains(['.', 'e', 'E']) || !f.is_finite() {
        s
    } else {
        format!("{s}.0")
    }
}
