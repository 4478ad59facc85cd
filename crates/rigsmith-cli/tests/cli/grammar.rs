//! One grammar for every command: `--version`, shell completions, examples in every
//! help, the main command first, `-q`, errors that say their cause once and name the
//! file, quiet broken pipes, units and axes on reading, and the review's terminal
//! summary (counts per section, what to do, "N more").

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{assert_ok, rigsmith, skirted_mannequin};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn version_prints_the_crate_version() {
    let out = rigsmith(&["--version"]);
    assert_ok(&out);
    assert_eq!(
        stdout(&out).trim(),
        format!("rigsmith {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, needle) in [
        ("bash", "_rigsmith()"),
        ("zsh", "#compdef rigsmith"),
        ("fish", "complete -c rigsmith"),
    ] {
        let out = rigsmith(&["completions", shell]);
        assert_ok(&out);
        let text = stdout(&out);
        assert!(
            text.contains(needle),
            "{shell}: {}",
            &text[..text.len().min(300)]
        );
        assert!(text.contains("--report"), "{shell}");
    }
    assert_eq!(rigsmith(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn every_command_help_has_examples_and_rig_comes_first() {
    let out = rigsmith(&["--help"]);
    let text = stdout(&out);
    let commands: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(commands.first(), Some(&"rig"), "{text}");
    assert!(text.contains("Examples:"), "{text}");
    for c in [
        "rig",
        "check",
        "vrm",
        "simulate",
        "fit",
        "weights",
        "inspect",
        "mannequin",
        "corpus",
        "2d",
        "completions",
    ] {
        let out = rigsmith(&[c, "--help"]);
        assert_ok(&out);
        let h = stdout(&out);
        assert!(
            h.contains("Examples:") && h.contains(&format!("rigsmith {c}")),
            "{c}: {h}"
        );
    }
}

#[test]
fn the_review_flags_are_one_grammar() {
    // `--report DIR` wherever a review is written, `-o` the main output file, `--json`
    // the result on stdout; the older spellings are accepted but hidden.
    for (c, flags, hidden) in [
        ("rig", &["--report", "-o", "--json"][..], &[][..]),
        (
            "check",
            &["--report", "--json"][..],
            &["--html", "--sheets"][..],
        ),
        ("simulate", &["--report", "--json"][..], &["--sheet"][..]),
        (
            "fit",
            &["-o", "--json", "--skeleton-out"][..],
            &["--glb"][..],
        ),
        ("weights", &["-o", "--json"][..], &[][..]),
        ("vrm", &["-o"][..], &[][..]),
    ] {
        let h = stdout(&rigsmith(&[c, "--help"]));
        for f in flags {
            assert!(h.contains(f), "{c} lacks {f}");
        }
        for f in hidden {
            assert!(!h.contains(&format!("{f} ")), "{c} shows {f}");
        }
        for f in ["--up", "--units", "--facing"] {
            assert!(h.contains(f), "{c} lacks {f}");
        }
    }
}

#[test]
fn quiet_quiets_fit() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.glb");
    assert_ok(&rigsmith(&["mannequin", "-o", s(&m)]));
    let out = rigsmith(&["-q", "fit", s(&m), "-o", s(&dir.path().join("f.glb"))]);
    assert_ok(&out);
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(dir.path().join("f.glb").exists());
    // Without -q it reports the fit; -o by extension writes the skeleton as JSON.
    let out = rigsmith(&["fit", s(&m), "-o", s(&dir.path().join("s.json"))]);
    assert_ok(&out);
    assert!(stdout(&out).contains("fitted"));
    let sk = std::fs::read_to_string(dir.path().join("s.json")).unwrap();
    assert!(sk.contains("\"bones\""));
}

#[test]
fn errors_say_the_cause_once_and_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.glb");
    let out = rigsmith(&["check", s(&missing)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("missing.glb"), "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    // A Z-up file says which flag reads it.
    let mut c = rigsmith::mannequin::build(&Default::default());
    c.transform(glam::Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2));
    let z = dir.path().join("zup.glb");
    rigsmith::io::write_character(&z, &c, &Default::default()).unwrap();
    let out = rigsmith(&["fit", s(&z), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--up z"), "{}", stderr(&out));
    for c in ["inspect", "check", "rig", "vrm", "fit"] {
        let mut args = vec![c, s(dir.path())];
        if c == "rig" || c == "vrm" {
            // A folder is a batch input for rig; give vrm an output.
            if c == "rig" {
                continue;
            }
            args.extend(["-o", "x.vrm"]);
        }
        let out = rigsmith(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{c}: {err}");
        assert!(err.contains("is a directory"), "{c}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // The reader is gone before the first line is printed (as `| head -1` is after
    // its line): the next print meets a closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigsmith"))
        .args(["completions", "zsh"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
    assert_ne!(status.code(), Some(101), "{err}");
}

#[test]
fn centimetres_are_detected_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = rigsmith::mannequin::build(&Default::default());
    c.transform(glam::Mat4::from_scale(glam::Vec3::splat(100.0)));
    let cm = dir.path().join("cm.glb");
    rigsmith::io::write_character(&cm, &c, &Default::default()).unwrap();
    let out_glb = dir.path().join("out.glb");
    let out = rigsmith(&["rig", s(&cm), "-o", s(&out_glb), "--no-review"]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(text.contains("read as centimetres"), "{text}");
    let back = rigsmith::io::read_character(&out_glb).unwrap();
    let (lo, hi) = back.bounds();
    assert!((hi.y - lo.y - 1.75).abs() < 0.02, "height {}", hi.y - lo.y);
    // --units m keeps them (and says nothing).
    let out = rigsmith(&[
        "rig",
        s(&cm),
        "-o",
        s(&out_glb),
        "--no-review",
        "--units",
        "m",
    ]);
    assert_ok(&out);
    assert!(!stdout(&out).contains("centimetres"));
    let back = rigsmith::io::read_character(&out_glb).unwrap();
    let (lo, hi) = back.bounds();
    assert!(hi.y - lo.y > 100.0);
}

#[test]
fn a_z_up_file_rigs_with_up_z() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = rigsmith::mannequin::build(&Default::default());
    // Y up -> Z up, as a Z-up tool would have written it.
    c.transform(glam::Mat4::from_rotation_x(std::f32::consts::FRAC_PI_2));
    let z = dir.path().join("zup.glb");
    rigsmith::io::write_character(&z, &c, &Default::default()).unwrap();
    let out_glb = dir.path().join("out.glb");
    let out = rigsmith(&["rig", s(&z), "-o", s(&out_glb), "--no-review", "--up", "z"]);
    assert_ok(&out);
    assert!(stdout(&out).contains("Z up"), "{}", stdout(&out));
}

#[test]
fn keep_origin_leaves_the_model_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = rigsmith::mannequin::build(&Default::default());
    c.transform(glam::Mat4::from_translation(glam::Vec3::new(
        0.5, 0.2, -0.3,
    )));
    let off = dir.path().join("off.glb");
    rigsmith::io::write_character(&off, &c, &Default::default()).unwrap();
    let (lo0, hi0) = c.bounds();
    let out_glb = dir.path().join("out.glb");
    let out = rigsmith(&[
        "rig",
        s(&off),
        "-o",
        s(&out_glb),
        "--no-review",
        "--keep-origin",
    ]);
    assert_ok(&out);
    let back = rigsmith::io::read_character(&out_glb).unwrap();
    let (lo, hi) = back.bounds();
    assert!((lo - lo0).length() < 1e-3 && (hi - hi0).length() < 1e-3);
    // By default it is moved to the floor and centred.
    let out = rigsmith(&["rig", s(&off), "-o", s(&out_glb), "--no-review"]);
    assert_ok(&out);
    let (lo, _) = rigsmith::io::read_character(&out_glb).unwrap().bounds();
    assert!(lo.y.abs() < 1e-3);
}

#[test]
fn rig_summary_counts_sections_says_what_to_do_and_how_many_more() {
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let out_glb = dir.path().join("out.glb");
    let rep = dir.path().join("rep");
    let out = rigsmith(&["rig", s(&m), "-o", s(&out_glb), "--report", s(&rep)]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(text.contains("D. Deformation:"), "{text}");
    assert!(text.contains(" minor"), "{text}");
    assert!(text.contains("-> "), "{text}");
    assert!(
        text.contains(&format!("more in {}", rep.join("report.html").display())),
        "{text}"
    );
    // rigsmith's own chains fail nothing: no body-volume or garment-transfer verdict
    // on its skirt and hair bones.
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(rep.join("report.json")).unwrap()).unwrap();
    let failed: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["passed"] == false)
        .map(|k| k["id"].as_str().unwrap())
        .collect();
    for id in &failed {
        assert!(
            !id.starts_with("place.inside")
                && !id.contains("garment.skirt")
                && !id.contains("garment.hair")
                && !id.contains("penetration.skirt")
                && !id.contains("penetration.hair"),
            "{id} failed: {failed:?}"
        );
    }
    // Every failed check carries what to do.
    for k in v["checks"].as_array().unwrap() {
        if k["passed"] == false {
            assert!(!k["remedy"].as_str().unwrap_or("").is_empty(), "{k}");
        }
    }
    // The page leads: verdict, what rigsmith did, what to do, pictures, then tables.
    let page = std::fs::read_to_string(rep.join("report.html")).unwrap();
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("{needle} not in the page"))
    };
    assert!(page.contains("<title>rigsmith rig: "));
    assert!(at("class=\"verdict\"") < at("What rigsmith did"));
    assert!(at("What rigsmith did") < at("What to do"));
    assert!(at("What to do") < at("<h2>Sheets</h2>"));
    assert!(at("<h2>Sheets</h2>") < at("<h2>A. Placement</h2>"));
    assert!(page.contains("skirt (garment, chains)"));
}

#[test]
fn the_report_first_screen_holds_the_verdict_the_fixes_and_the_pictures() {
    // The rigged skirted mannequin's report in a 1280x900 headless-Chromium window
    // (scripts/check-html-screenshot.sh). With RIGSMITH_UPDATE_DOCS=1 the screenshot
    // is kept as docs/img/report-first-screen.png, the picture the README shows.
    let dir = tempfile::tempdir().unwrap();
    let m = skirted_mannequin(dir.path());
    let rep = dir.path().join("rep");
    let out = rigsmith(&[
        "rig",
        s(&m),
        "-o",
        s(&dir.path().join("out.glb")),
        "--report",
        s(&rep),
        "-q",
    ]);
    assert_ok(&out);
    let html = rep.join("report.html");
    let page = std::fs::read_to_string(&html).unwrap();
    // What a 900-pixel screen shows comes first in the page: the verdict, the fixes,
    // the worst failures and the sheets, before any table.
    let first_table = page.find("<table>").unwrap();
    for needle in ["class=\"verdict\"", "<dt>fixes</dt>", "What to do", "<img "] {
        assert!(page.find(needle).unwrap() < first_table, "{needle}");
    }
    let png = dir.path().join("first-screen.png");
    let script = crate::common::repo_root().join("scripts/check-html-screenshot.sh");
    let shot = Command::new("bash")
        .args([s(&script), s(&html), s(&png), "1280x900"])
        .output()
        .unwrap();
    if shot.status.code() == Some(2) && stderr(&shot).contains("chromium not found") {
        // A browser is a peer like Blender: without one the page's order is checked
        // above and the picture is skipped, saying so; on CI (where .ci/run installs
        // it) its absence fails.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set and Chromium is missing: {}",
            stderr(&shot).trim()
        );
        eprintln!(
            "skipped: the first-screen screenshot needs Chromium \
             (apt-get install chromium-headless-shell): {}",
            stderr(&shot).trim()
        );
        return;
    }
    assert!(
        shot.status.success(),
        "the screenshot failed: {}",
        stderr(&shot)
    );
    let bytes = std::fs::read(&png).unwrap();
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((w, h), (1280, 900));
    if std::env::var_os("RIGSMITH_UPDATE_DOCS").is_some() {
        let dst = crate::common::repo_root().join("docs/img/report-first-screen.png");
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(&png, dst).unwrap();
    }
}
