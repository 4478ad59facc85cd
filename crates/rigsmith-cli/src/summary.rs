//! The review as the terminal shows it: counts per severity and per section, the worst
//! few failures of each section with what to do, and where the rest is.

use std::path::Path;

use rigsmith::review::{html::SECTIONS, CheckReport};
use rigsmith::Severity;

/// Failures shown per section (all of them with `-v`).
pub const WORST_PER_SECTION: usize = 3;

fn sev(s: Severity) -> &'static str {
    match s {
        Severity::Blocker => "blocker",
        Severity::Major => "major",
        Severity::Minor => "minor",
    }
}

/// `s` cut to at most `n` characters.
pub fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push_str("...");
        t
    }
}

/// The review lines, each indented by `indent`. `report`: the HTML report the rest
/// is in (else the `--report DIR` hint); `all`: every failure (no "N more").
pub fn review_lines(
    r: &CheckReport,
    report: Option<&Path>,
    all: bool,
    indent: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    let c = &r.counts;
    out.push(format!(
        "{indent}{} checks: {} blocker, {} major, {} minor failed",
        r.checks.len(),
        c.blocker,
        c.major,
        c.minor
    ));
    let mut hidden = 0;
    for (sec, title) in SECTIONS.iter().chain([("F", "F. Chains and other")].iter()) {
        let mut f: Vec<_> = r
            .checks
            .iter()
            .filter(|k| {
                !k.passed
                    && (k.section == *sec
                        || (*sec == "F" && !SECTIONS.iter().any(|(s, _)| *s == k.section)))
            })
            .collect();
        if f.is_empty() {
            continue;
        }
        f.sort_by_key(|k| std::cmp::Reverse(k.severity));
        let count = |s: Severity| f.iter().filter(|k| k.severity == s).count();
        let counts: Vec<String> = [Severity::Blocker, Severity::Major, Severity::Minor]
            .into_iter()
            .filter(|&s| count(s) > 0)
            .map(|s| format!("{} {}", count(s), sev(s)))
            .collect();
        out.push(format!("{indent}{title}: {}", counts.join(", ")));
        let n = if all { f.len() } else { WORST_PER_SECTION };
        for k in f.iter().take(n) {
            out.push(format!(
                "{indent}  {:<7} {}: {} = {:.4} (limit {}) {}",
                sev(k.severity),
                k.id,
                k.measure,
                k.value,
                k.limit.text(),
                short(&k.detail, 110)
            ));
            out.push(format!("{indent}          -> {}", k.remedy));
        }
        if f.len() > n {
            hidden += f.len() - n;
            out.push(format!("{indent}  {} more", f.len() - n));
        }
    }
    if hidden > 0 {
        out.push(match report {
            Some(h) => format!("{indent}{hidden} more in {} (or -v)", h.display()),
            None => format!("{indent}{hidden} more with -v, or all in the report: --report DIR"),
        });
    }
    out
}
