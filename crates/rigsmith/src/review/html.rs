//! The HTML report: one self-contained file (inline CSS, images as base64 `data:`
//! URLs). It leads: the verdict and the counts, what rigsmith changed, the worst
//! failures of each section with what to do, the sheets; then every check in a table
//! per section (failed ones first) and section F.

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

/// What the page says around the checks: whose report it is and what rigsmith
/// changed on the way (for `rigsmith rig`; empty for `rigsmith check`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The page title (`rigsmith rig: knight.glb`); empty: `rigsmith check`.
    pub title: String,
    /// What rigsmith changed or decided, as `(label, text)` rows: the model fixes, each
    /// part's role, the weight route and why.
    pub changes: Vec<(String, String)>,
    /// An interactive viewer (self-contained HTML, `rigsmith_render::viewer`) placed
    /// after the sheets, before the tables; empty: none. With a viewer, every
    /// failed check gets a `view` link (`a.rs-view[data-check=ID]`) to its pose and joint.
    pub viewer: String,
}

/// How many failed checks of one section the summary at the top shows (the worst
/// first: blockers, then majors, then minors); the rest are in the tables below.
pub const WORST_PER_SECTION: usize = 4;

/// Renders the report as one self-contained HTML page. `sheets` are `(title, PNG
/// bytes)` pairs, embedded in order.
pub fn html_report(r: &CheckReport, sheets: &[(String, Vec<u8>)]) -> String {
    html_page(r, sheets, &Page::default())
}

/// The section titles, in order.
pub const SECTIONS: [(&str, &str); 5] = [
    ("A", "A. Placement"),
    ("B", "B. Structure"),
    ("C", "C. Weights"),
    ("D", "D. Deformation"),
    ("E", "E. Correctives and face"),
];

/// Renders the report as one page that leads with what matters: the verdict and the
/// counts, what rigsmith changed (`page.changes`), the failed checks with what to do,
/// the sheets, the viewer (`page.viewer`), then every check in a table per section,
/// then section F.
pub fn html_page(r: &CheckReport, sheets: &[(String, Vec<u8>)], page: &Page) -> String {
    let title = if page.title.is_empty() {
        "rigsmith check".to_string()
    } else {
        page.title.clone()
    };
    let mut h = page_head(&title);
    h.push_str(&format!("<h1>{}</h1>\n", esc(&title)));
    let c = &r.counts;
    let verdict = if c.blocker > 0 {
        "<span class=\"bad\">NOT USABLE: blockers failed</span>"
    } else if c.major > 0 {
        "<span class=\"bad\">send back: major issues</span>"
    } else {
        "<span class=\"ok\">passes (minor notes only)</span>"
    };
    h.push_str(&format!(
        "<p class=\"verdict\">{verdict}</p>\n<p class=\"counts\"><span>blocker: <b>{}</b></span><span>major: <b>{}</b></span><span>minor: <b>{}</b></span><span>of {} checks</span></p>\n",
        c.blocker,
        c.major,
        c.minor,
        r.checks.len()
    ));
    if !page.changes.is_empty() {
        h.push_str("<h2>What rigsmith did</h2>\n<dl class=\"changes\">\n");
        for (k, v) in &page.changes {
            h.push_str(&format!("<dt>{}</dt><dd>{}</dd>\n", esc(k), esc(v)));
        }
        h.push_str("</dl>\n");
    }
    h.push_str(&what_to_do(r, page));
    h.push_str(&before_after(r));
    h.push_str(&sheets_html(sheets));
    h.push_str(&page.viewer);
    if !r.parts.is_empty() {
        h.push_str("<h2>Parts</h2>\n<table><tr><th>part</th><th>role</th><th>why</th></tr>\n");
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
    h.push_str(&section_tables(r, page));
    h.push_str(&format!(
        "<h2>F. Route</h2>\n<p>{}</p>\n<h2>F. Not verified</h2>\n<ul>\n",
        esc(&r.route)
    ));
    for n in &r.not_verified {
        h.push_str(&format!("<li>{}</li>\n", esc(n)));
    }
    h.push_str("</ul>\n</body></html>\n");
    h
}

/// The page's head: title and style, up to the opened body.
fn page_head(title: &str) -> String {
    let mut h = String::new();
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n",
        esc(title)
    ));
    h.push_str(
        "body{font-family:system-ui,sans-serif;margin:16px 24px;color:#222;background:#fafafa}\n",
    );
    h.push_str("h1{font-size:22px;margin:0 0 6px 0}h2{font-size:17px;margin:14px 0 6px 0}\n");
    h.push_str("table{border-collapse:collapse;width:100%;font-size:13px;margin-bottom:18px}\n");
    h.push_str("th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}\n");
    h.push_str(
        "th{background:#eee}tr.fail td{background:#fde8e8}tr.fail.minor td{background:#fff6dc}\n",
    );
    h.push_str(".ok{color:#197a2c;font-weight:600}.bad{color:#b3141c;font-weight:600}\n");
    h.push_str(".counts span{display:inline-block;margin-right:16px;font-size:16px}\n");
    h.push_str(".verdict{font-size:18px;margin:4px 0}\n");
    h.push_str("dl.changes{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px;margin:0}\ndl.changes dt{font-weight:600}dl.changes dd{margin:0}\n");
    h.push_str("ul.worst{font-size:13px;margin:4px 0;padding-left:18px}ul.worst li{margin-bottom:2px}\n.remedy{color:#1f4e8c}\n");
    h.push_str(".sheets{display:flex;gap:10px;flex-wrap:wrap;align-items:flex-start}\n.sheets figure{margin:0}.sheets img{height:300px;width:auto;max-width:100%;border:1px solid #ccc;background:#fff}\n.sheets figcaption{font-size:12px}\n.sheets img.top{width:300px;object-fit:cover;object-position:top;cursor:zoom-in}\n.sheets img.top:focus{width:auto;height:auto;max-width:100%;object-fit:contain;cursor:zoom-out}\n");
    h.push_str("</style></head><body>\n");
    h.push_str("table.ba{width:auto}\n");
    h
}

/// "What to do": the worst failures of each section with their remedies.
fn what_to_do(r: &CheckReport, page: &Page) -> String {
    let mut h = String::new();
    let failed: Vec<_> = r.checks.iter().filter(|k| !k.passed).collect();
    if !failed.is_empty() {
        h.push_str("<h2>What to do</h2>\n<ul class=\"worst\">\n");
        for (sec, stitle) in SECTIONS {
            let mut f: Vec<_> = failed.iter().filter(|k| k.section == sec).collect();
            if f.is_empty() {
                continue;
            }
            f.sort_by_key(|k| std::cmp::Reverse(k.severity));
            for k in f.iter().take(WORST_PER_SECTION) {
                h.push_str(&format!(
                    "<li><b>{}</b> <code>{}</code>{} {}: {} <span class=\"remedy\">&rarr; {}</span></li>\n",
                    sev_name(k.severity),
                    esc(&k.id),
                    view_link(page, &k.id),
                    esc(&k.title),
                    esc(&short(&k.detail, 160)),
                    esc(&k.remedy)
                ));
            }
            if f.len() > WORST_PER_SECTION {
                h.push_str(&format!(
                    "<li>{} more in {} below</li>\n",
                    f.len() - WORST_PER_SECTION,
                    esc(stitle)
                ));
            }
        }
        h.push_str("</ul>\n");
    }
    h
}

/// The joint checks measured with and without the fixes (their details end with
/// `without the fixes X`), as one table; empty without the fixes.
fn before_after(r: &CheckReport) -> String {
    const TAG: &str = "; without the fixes ";
    let rows: Vec<_> = r
        .checks
        .iter()
        .filter_map(|k| {
            let before = k.detail.rsplit_once(TAG)?.1;
            Some((k, before))
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut h = String::from("<h2>Joints before and after the fixes</h2>\n<table class=\"ba\"><tr><th>check</th><th>without the fixes</th><th>with them</th><th>limit</th></tr>\n");
    for (k, before) in rows {
        h.push_str(&format!(
            "<tr><td><code>{}</code></td><td>{}</td><td>{} {}</td><td>{}</td></tr>\n",
            esc(&k.id),
            esc(before),
            fmt_num(k.value),
            if k.passed { "" } else { "(fails)" },
            esc(&k.limit.text())
        ));
    }
    h.push_str("</table>\n");
    h
}

/// The sheets, embedded.
fn sheets_html(sheets: &[(String, Vec<u8>)]) -> String {
    let mut h = String::new();
    if !sheets.is_empty() {
        h.push_str("<h2>Sheets</h2>\n<div class=\"sheets\">\n");
        for (t, png) in sheets {
            // A sheet much taller than wide (a row per pose) shows its first rows at
            // the size of the others; a click (focus) shows it whole.
            let tall = png_size(png).is_some_and(|(w, ht)| ht > 2 * w);
            h.push_str(&format!(
                "<figure><img{c} alt=\"{t}\" src=\"data:image/png;base64,{b}\"><figcaption>{t}{more}</figcaption></figure>\n",
                t = esc(t),
                b = base64(png),
                c = if tall {
                    " class=\"top\" tabindex=\"0\""
                } else {
                    ""
                },
                more = if tall { " (first rows; click for all)" } else { "" },
            ));
        }
        h.push_str("</div>\n");
    }
    h
}

/// One table per section, failed checks first.
fn section_tables(r: &CheckReport, page: &Page) -> String {
    let mut h = String::new();
    for (sec, stitle) in SECTIONS {
        let mut rows: Vec<_> = r.checks.iter().filter(|k| k.section == sec).collect();
        if rows.is_empty() {
            continue;
        }
        rows.sort_by_key(|k| k.passed);
        h.push_str(&format!("<h2>{stitle}</h2>\n<table><tr><th>id</th><th>result</th><th>severity</th><th>value</th><th>limit</th><th>measure</th><th>detail</th><th>what to do</th></tr>\n"));
        for k in rows {
            let sev = sev_name(k.severity);
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
                "<tr{cls}><td><code>{}</code>{}</td><td>{res}</td><td>{sev}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&k.id),
                if k.passed {
                    String::new()
                } else {
                    view_link(page, &k.id)
                },
                fmt_num(k.value),
                esc(&k.limit.text()),
                esc(&k.measure),
                esc(&k.detail),
                if k.passed { String::new() } else { esc(&k.remedy) }
            ));
        }
        h.push_str("</table>\n");
    }
    h
}

/// The link from a failed check to the viewer (its pose and joint), when the page has one.
fn view_link(page: &Page, id: &str) -> String {
    if page.viewer.is_empty() {
        String::new()
    } else {
        format!(
            " <a class=\"rs-view\" href=\"#viewer\" data-check=\"{}\">view</a>",
            esc(id)
        )
    }
}

/// Width and height of a PNG from its header.
fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[1..4] != b"PNG" {
        return None;
    }
    let w = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(png[20..24].try_into().ok()?);
    Some((w, h))
}

fn sev_name(s: Severity) -> &'static str {
    match s {
        Severity::Blocker => "blocker",
        Severity::Major => "major",
        Severity::Minor => "minor",
    }
}

/// `s` cut to at most `n` characters (with an ellipsis).
fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
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
