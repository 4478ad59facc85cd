//! The HTML report: one self-contained file (inline CSS, images as base64 `data:`
//! URLs) with the counts, section F, every check in a table (failed ones first within
//! each section) and the sheets.

use super::CheckReport;
use crate::report::Severity;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// Standard base64 (RFC 4648, with padding).
pub fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut o = String::with_capacity(data.len().div_ceil(3) * 4);
    for ch in data.chunks(3) {
        let b = [ch[0], *ch.get(1).unwrap_or(&0), *ch.get(2).unwrap_or(&0)];
        let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
        o.push(T[(n >> 18) as usize & 63] as char);
        o.push(T[(n >> 12) as usize & 63] as char);
        o.push(if ch.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        o.push(if ch.len() > 2 {
            T[n as usize & 63] as char
        } else {
            '='
        });
    }
    o
}

fn fmt_num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else if x.abs() >= 0.01 {
        format!("{x:.3}")
    } else {
        format!("{x:.2e}")
    }
}

/// Renders the report as one self-contained HTML page. `sheets` are `(title, PNG
/// bytes)` pairs, embedded in order.
pub fn html_report(r: &CheckReport, sheets: &[(String, Vec<u8>)]) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>rigsmith check</title>\n<style>\n");
    h.push_str(
        "body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}\n",
    );
    h.push_str("table{border-collapse:collapse;width:100%;font-size:13px;margin-bottom:18px}\n");
    h.push_str("th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}\n");
    h.push_str(
        "th{background:#eee}tr.fail td{background:#fde8e8}tr.fail.minor td{background:#fff6dc}\n",
    );
    h.push_str(".ok{color:#197a2c;font-weight:600}.bad{color:#b3141c;font-weight:600}\n");
    h.push_str(".counts span{display:inline-block;margin-right:16px;font-size:18px}\n");
    h.push_str(
        "img{max-width:100%;border:1px solid #ccc;background:#fff}figure{margin:0 0 18px 0}\n",
    );
    h.push_str("</style></head><body>\n<h1>rigsmith check</h1>\n");
    let c = &r.counts;
    let verdict = if c.blocker > 0 {
        "<span class=\"bad\">NOT USABLE: blockers failed</span>"
    } else if c.major > 0 {
        "<span class=\"bad\">send back: major issues</span>"
    } else {
        "<span class=\"ok\">passes (minor notes only)</span>"
    };
    h.push_str(&format!(
        "<p class=\"counts\"><span>blocker: <b>{}</b></span><span>major: <b>{}</b></span><span>minor: <b>{}</b></span><span>checks: {}</span></p>\n<p>{verdict}</p>\n",
        c.blocker,
        c.major,
        c.minor,
        r.checks.len()
    ));
    h.push_str(&format!(
        "<h2>F. Route</h2>\n<p>{}</p>\n<h2>F. Not verified</h2>\n<ul>\n",
        esc(&r.route)
    ));
    for n in &r.not_verified {
        h.push_str(&format!("<li>{}</li>\n", esc(n)));
    }
    h.push_str("</ul>\n");
    if !r.parts.is_empty() {
        h.push_str("<h2>F. Parts</h2>\n<table><tr><th>part</th><th>role</th><th>why</th></tr>\n");
        for p in &r.parts {
            h.push_str(&format!(
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                esc(&p.part),
                esc(&p.class),
                esc(&p.reason)
            ));
        }
        h.push_str("</table>\n");
    }
    let titles = [
        ("A", "A. Placement"),
        ("B", "B. Structure"),
        ("C", "C. Weights"),
        ("D", "D. Deformation"),
        ("E", "E. Correctives and face"),
    ];
    for (sec, title) in titles {
        let mut rows: Vec<_> = r.checks.iter().filter(|k| k.section == sec).collect();
        if rows.is_empty() {
            continue;
        }
        rows.sort_by_key(|k| k.passed);
        h.push_str(&format!("<h2>{title}</h2>\n<table><tr><th>id</th><th>result</th><th>severity</th><th>value</th><th>threshold</th><th>measure</th><th>detail</th></tr>\n"));
        for k in rows {
            let sev = match k.severity {
                Severity::Blocker => "blocker",
                Severity::Major => "major",
                Severity::Minor => "minor",
            };
            let cls = if k.passed {
                String::new()
            } else {
                format!(" class=\"fail {sev}\"")
            };
            let res = if k.passed {
                "<span class=\"ok\">pass</span>"
            } else {
                "<span class=\"bad\">FAIL</span>"
            };
            h.push_str(&format!(
                "<tr{cls}><td><code>{}</code></td><td>{res}</td><td>{sev}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&k.id),
                fmt_num(k.value),
                fmt_num(k.threshold),
                esc(&k.measure),
                esc(&k.detail)
            ));
        }
        h.push_str("</table>\n");
    }
    if !sheets.is_empty() {
        h.push_str("<h2>Sheets</h2>\n");
        for (t, png) in sheets {
            h.push_str(&format!(
                "<figure><figcaption>{}</figcaption><img alt=\"{}\" src=\"data:image/png;base64,{}\"></figure>\n",
                esc(t),
                esc(t),
                base64(png)
            ));
        }
    }
    h.push_str("</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn b64() {
        assert_eq!(super::base64(b"Man"), "TWFu");
        assert_eq!(super::base64(b"Ma"), "TWE=");
        assert_eq!(super::base64(b"M"), "TQ==");
    }
}
