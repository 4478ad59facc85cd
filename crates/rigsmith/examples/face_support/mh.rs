//! What the face examples share: the MakeHuman corpus (the folder given as the first
//! argument, else the one `RIGSMITH_DATA` or the cache names) and an unrigged variant
//! with the parts a face needs.

use std::path::PathBuf;

use rigsmith::io::mpfb2::{Corpus, CorpusOptions};
use rigsmith::Character;

/// The corpus named on the command line, else the data folder; panics with the way to
/// name it when there is none.
pub fn open_corpus() -> Corpus {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .or_else(rigsmith::io::mpfb2::data_dir)
        .expect("set RIGSMITH_DATA or pass the corpus folder");
    Corpus::open(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// The named variant, unrigged, with `parts` (the corpus's part names) in that order.
pub fn unrigged(corpus: &Corpus, variant: &str, parts: &[&str]) -> Character {
    let o = CorpusOptions {
        variant: Some(variant.to_string()),
        rig: None,
        parts: parts.iter().map(|p| p.to_string()).collect(),
        ..Default::default()
    };
    corpus
        .build(&o)
        .unwrap_or_else(|e| panic!("{variant}: {e}"))
}
