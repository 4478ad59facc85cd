//! Wall-clock and CPU time per picture on the MakeHuman body (13,380 vertices), for
//! machines too busy for criterion's wall-clock numbers to mean much.
//!
//! ```text
//! cargo run --release -p rigsmith-render --example render_timing [-- RUNS]
//! ```
//!
//! CPU time is the process's user + system time (`/proc/self/stat`, Linux) over all
//! threads, divided by the number of runs: the work a picture costs whatever else the
//! machine is doing.

use std::time::Instant;

use rigsmith::io::mpfb2::{self, Corpus, CorpusOptions};
use rigsmith_render::{
    placement_sheet, render, Bones, Camera, DrawPart, Image, RenderOptions, View,
};

/// Process CPU time in seconds (user + system), or `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0) // USER_HZ is 100 on Linux
}

fn time(label: &str, runs: u32, mut f: impl FnMut() -> Image) {
    let c0 = cpu_seconds();
    let t0 = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(f());
    }
    let wall = t0.elapsed().as_secs_f64() * 1e3 / runs as f64;
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.1} ms", (b - a) * 1e3 / runs as f64),
        _ => "n/a".into(),
    };
    println!("{label:<28} wall {wall:7.1} ms   cpu {cpu}");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let dir = mpfb2::data_dir().ok_or("the MakeHuman corpus is missing: set RIGSMITH_DATA")?;
    let c = Corpus::open(&dir)?.build(&CorpusOptions::default())?;
    let s = c.skeleton.clone().ok_or("no skeleton")?;
    let parts = DrawPart::parts_of(&c);
    let (lo, hi) = c.bounds();
    let cam = Camera::frame(View::Front, lo, hi, 512, 512);
    let heads: Vec<_> = s.bones.iter().map(|b| b.head).collect();
    let tails: Vec<_> = s.bones.iter().map(|b| b.tail).collect();
    let parents: Vec<_> = s.bones.iter().map(|b| b.parent).collect();
    let bones = Bones {
        heads: &heads,
        tails: &tails,
        parents: &parents,
        highlight: &[],
    };
    let xray = RenderOptions {
        xray: true,
        ..RenderOptions::default()
    };
    println!(
        "{} vertices, {} triangles, {} threads, {runs} runs",
        c.vertex_count(),
        c.parts
            .iter()
            .map(|p| p.mesh.triangles.len())
            .sum::<usize>(),
        rayon::current_num_threads()
    );
    time("shaded 512x512", runs, || {
        render(&parts, None, &cam, &RenderOptions::default())
    });
    time("x-ray + bones 512x512", runs, || {
        render(&parts, Some(&bones), &cam, &xray)
    });
    time("placement sheet 1024", runs.div_ceil(5), || {
        placement_sheet(&c, &s, 1024)
    });
    Ok(())
}
