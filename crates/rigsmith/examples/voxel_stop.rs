//! Measures the volumetric route's stopping rule against the rigging notes' one. The
//! route voxelizes the body at H/180, then H/90, then H/45 and stops at the first size
//! whose volume holds at least 90 % of the bones' middles (rigsmith); the notes stop at
//! the first size where the heat covers every vertex (no vertex left unweighted). Here
//! each size is run alone on artist-rigged characters (their skeleton, their weights as
//! the reference): the share of bone middles inside, the vertices the heat leaves
//! unweighted, and the mean distance to the artist's weights (half the L1 distance per
//! vertex, 0 same, 1 disjoint); then which size each rule picks.
//!
//! ```text
//! cargo run --release --example voxel_stop
//! ```

use glam::Vec3;
use rigsmith::bind::volumetric::{volumetric_at, VOXEL_STEPS};
use rigsmith::bind::Segment;
use rigsmith::{Character, Mesh, Weights};

/// The character's parts as one mesh with the artist's weights, part after part.
fn one_mesh(c: &Character) -> (Mesh, Weights) {
    let mut m = Mesh::default();
    let mut w = Weights::default();
    for p in c.parts.iter().filter(|p| p.weights.is_some()) {
        let base = m.positions.len() as u32;
        m.positions.extend_from_slice(&p.mesh.positions);
        m.triangles
            .extend(p.mesh.triangles.iter().map(|t| t.map(|i| i + base)));
        w.vertices
            .extend(p.weights.as_ref().unwrap().vertices.iter().cloned());
    }
    (m, w)
}

/// Half the L1 distance between two vertices' weights.
fn dist(a: &[rigsmith::Influence], b: &[rigsmith::Influence]) -> f32 {
    let mut bones: Vec<u32> = a.iter().chain(b).map(|i| i.bone).collect();
    bones.sort_unstable();
    bones.dedup();
    let get = |l: &[rigsmith::Influence], k: u32| -> f32 {
        l.iter().filter(|i| i.bone == k).map(|i| i.weight).sum()
    };
    0.5 * bones
        .iter()
        .map(|&k| (get(a, k) - get(b, k)).abs())
        .sum::<f32>()
}

fn measure(label: &str, c: &Character) {
    let s = c.skeleton.as_ref().unwrap();
    let (m, artist) = one_mesh(c);
    let (lo, hi) = m.bounds();
    let h = hi.y - lo.y;
    let centre = 0.5 * (lo + hi);
    let norm = |p: Vec3| (p - centre) / h;
    let pos: Vec<Vec3> = m.positions.iter().map(|p| norm(*p)).collect();
    let segs = Segment::deform_bones(s, norm);
    let middles = |voxel_line: &str| -> f32 {
        voxel_line
            .split(": ")
            .nth(1)
            .and_then(|t| t.split('%').next())
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(f32::NAN)
    };
    let mut rows = Vec::new();
    for &step in &VOXEL_STEPS {
        let t = std::time::Instant::now();
        match volumetric_at(&pos, &m.triangles, &segs, &[step]) {
            Err(e) => println!("| {label} | H/{:.0} | failed: {e} | | | |", 1.0 / step),
            Ok(out) => {
                let mut w = out.weights;
                rigsmith::bind::keep_largest(&mut w, 4);
                let unweighted = w.vertices.iter().filter(|l| l.is_empty()).count();
                let d = w
                    .vertices
                    .iter()
                    .zip(&artist.vertices)
                    .map(|(a, b)| dist(a, b))
                    .sum::<f32>()
                    / w.vertices.len().max(1) as f32;
                let inside = out.attempts.last().map_or(f32::NAN, |l| middles(l));
                println!(
                    "| {label} | H/{:.0} | {inside:.0} % | {unweighted} | {d:.3} | {:.1} s |",
                    1.0 / out.voxel,
                    t.elapsed().as_secs_f32()
                );
                rows.push((out.voxel, inside, unweighted, d));
            }
        }
    }
    let ours = rows.iter().find(|r| r.1 >= 90.0).or(rows.last());
    let notes = rows.iter().find(|r| r.2 == 0).or(rows.last());
    if let (Some(a), Some(b)) = (ours, notes) {
        println!(
            "| {label} | picks | 90 % of middles: H/{:.0} ({:.3}) | every vertex weighted: H/{:.0} ({:.3}) | | |",
            1.0 / a.0,
            a.3,
            1.0 / b.0,
            b.3
        );
    }
}

fn main() {
    println!("| character | voxel | bone middles inside | unweighted vertices | distance to the artist | time |");
    println!("|---|---|---|---|---|---|");
    let dir = rigsmith::io::mpfb2::data_dir().unwrap_or_default();
    if let Ok(corpus) = rigsmith::io::mpfb2::Corpus::open(&dir) {
        for v in ["base", "female", "male", "child", "heavy"] {
            let Ok(c) = corpus.build(&rigsmith::io::mpfb2::CorpusOptions {
                variant: (v != "base").then(|| v.to_string()),
                ..Default::default()
            }) else {
                continue;
            };
            measure(&format!("MakeHuman `{v}`"), &c);
        }
    }
    let q = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/quaternius");
    for f in [
        "men_Casual",
        "men_Farmer",
        "knight_KnightCharacter",
        "platformer_Character_HumanoidRig",
    ] {
        let c = rigsmith::io::read_character(&q.join(format!("{f}.glb"))).unwrap();
        measure(&format!("Quaternius `{f}`"), &c);
    }
}
