//! Fitting accuracy against the MakeHuman `game_engine` skeleton.
//!
//! For each named MakeHuman body variant (`rigsmith::io::mpfb2::VARIANTS`), fits the `game` template to
//! the unrigged body and compares every bone's head (its joint) with the artist
//! skeleton the corpus builds for the same body (its joints follow the body shape). Errors are printed in % of body height, per variant and per joint, as a
//! Markdown table.
//!
//! ```text
//! cargo run --release --example fit_accuracy [-- CORPUS_DIR]
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use glam::Vec3;
use rigsmith::{Character, Skeleton};

use rigsmith::io::mpfb2::{Corpus, CorpusOptions, VARIANTS};

/// Opens the corpus.
pub fn open(dir: &Path) -> Corpus {
    Corpus::open(dir).unwrap_or_else(|e| panic!("{e}"))
}

/// A named variant's unrigged body (part `body`, metres, feet at y = 0) and its
/// ground-truth `game_engine` bones `name -> (head, tail)` in the same space.
pub fn load(corpus: &Corpus, variant: &str) -> (Character, BTreeMap<String, (Vec3, Vec3)>) {
    let o = CorpusOptions {
        variant: Some(variant.to_string()),
        ..Default::default()
    };
    let mut c = corpus
        .build(&o)
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
    let s = c.skeleton.take().expect("game_engine skeleton");
    for p in &mut c.parts {
        p.weights = None;
    }
    let gt = s
        .bones
        .iter()
        .map(|b| (b.name.clone(), (b.head, b.tail)))
        .collect();
    (c, gt)
}

/// The forms a body is measured in: `welded` (one part), `split` (head, torso, arms,
/// legs, feet as parts), `dressed` (welded, with a shirt, trousers and a hat),
/// `skirt` (split, with a shirt, an ankle-long skirt and a hat); `robe` (the body,
/// a shirt and an ankle-long skirt welded into one mesh: the legs under the cloth).
pub const FORMS: &[&str] = &["welded", "split", "dressed", "skirt", "robe"];

/// [`load`] in one of the [`FORMS`]: the parts unrigged, the ground truth the same.
pub fn load_form(
    corpus: &Corpus,
    variant: &str,
    form: &str,
) -> (Character, BTreeMap<String, (Vec3, Vec3)>) {
    use rigsmith::io::mpfb2::{dress, split_parts, weld_parts, Garment};
    let o = CorpusOptions {
        variant: Some(variant.to_string()),
        ..Default::default()
    };
    let c = corpus
        .build(&o)
        .unwrap_or_else(|e| panic!("{variant}: {e}"));
    let split = |c: &Character| split_parts(c).unwrap_or_else(|e| panic!("{e}")).character;
    let mut c = match form {
        "welded" => c,
        "split" => split(&c),
        "dressed" => dress(&c, &[Garment::Shirt, Garment::Trousers, Garment::Hat])
            .unwrap_or_else(|e| panic!("{e}")),
        "skirt" => split(
            &dress(&c, &[Garment::Shirt, Garment::Skirt, Garment::Hat])
                .unwrap_or_else(|e| panic!("{e}")),
        ),
        "robe" => weld_parts(
            &dress(&c, &[Garment::Shirt, Garment::Skirt]).unwrap_or_else(|e| panic!("{e}")),
        ),
        f => panic!("unknown form {f:?}"),
    };
    let s = c.skeleton.take().expect("game_engine skeleton");
    for p in &mut c.parts {
        p.weights = None;
    }
    let gt = s
        .bones
        .iter()
        .map(|b| (b.name.clone(), (b.head, b.tail)))
        .collect();
    (c, gt)
}

/// The corpus folder: the first argument, else `rigsmith::io::mpfb2::data_dir()`.
pub fn corpus_dir() -> PathBuf {
    std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .or_else(rigsmith::io::mpfb2::data_dir)
        .expect("the MakeHuman corpus: pass its folder or set RIGSMITH_DATA")
}

/// The major joints (bone heads) of the accuracy targets.
pub const MAJOR: &[&str] = &[
    "pelvis",
    "spine_01",
    "spine_02",
    "spine_03",
    "neck_01",
    "head",
    "clavicle_l",
    "clavicle_r",
    "upperarm_l",
    "upperarm_r",
    "lowerarm_l",
    "lowerarm_r",
    "hand_l",
    "hand_r",
    "thigh_l",
    "thigh_r",
    "calf_l",
    "calf_r",
    "foot_l",
    "foot_r",
    "ball_l",
    "ball_r",
];

/// Per-bone head error in % of body height, for the bones present in both.
pub fn errors(
    s: &Skeleton,
    gt: &BTreeMap<String, (Vec3, Vec3)>,
    height: f32,
) -> BTreeMap<String, f32> {
    s.bones
        .iter()
        .filter_map(|b| {
            gt.get(&b.name)
                .map(|g| (b.name.clone(), 100.0 * (b.head - g.0).length() / height))
        })
        .collect()
}

/// The height of the skin of `c` (its parts' union without garments and hats: the
/// feet-to-crown height the ground truth is measured in).
pub fn height_of(c: &Character) -> f32 {
    match rigsmith::model::Body::of(c, &Default::default()) {
        Ok(b) => b.height,
        Err(_) => c.bounds().1.y - c.bounds().0.y,
    }
}

/// Whether a bone is a finger bone.
pub fn is_finger(name: &str) -> bool {
    ["thumb", "index", "middle", "ring", "pinky"]
        .iter()
        .any(|f| name.starts_with(f))
}

/// `(mean, worst, worst bone)` of the errors of the bones selected by `f`.
pub fn summary(e: &BTreeMap<String, f32>, f: impl Fn(&str) -> bool) -> (f32, f32, String) {
    let sel: Vec<(&String, &f32)> = e.iter().filter(|(k, _)| f(k)).collect();
    let mean = sel.iter().map(|(_, v)| **v).sum::<f32>() / sel.len().max(1) as f32;
    let (wk, wv) = sel
        .iter()
        .fold((String::new(), 0.0f32), |(k, v), (k2, v2)| {
            if **v2 > v {
                ((*k2).clone(), **v2)
            } else {
                (k, v)
            }
        });
    (mean, wv, wk)
}

#[allow(dead_code)]
fn main() {
    // `FORMS=split,dressed,skirt`: the major-joint mean per variant in those forms
    // (welded included for comparison), and the mean over the variants.
    if let Ok(forms) = std::env::var("FORMS") {
        let corpus = open(&corpus_dir());
        let forms: Vec<&str> = forms.split(',').collect();
        println!("| variant | {} |", forms.join(" | "));
        println!("|---|{}", "---|".repeat(forms.len()));
        let mut sums = vec![0.0f32; forms.len()];
        for v in VARIANTS {
            let mut row = Vec::new();
            for (k, f) in forms.iter().enumerate() {
                let (ch, gt) = load_form(&corpus, v.name, f);
                let h = height_of(&ch);
                match rigsmith::fit::fit(&ch, &rigsmith::fit::FitOptions::default()) {
                    Ok(r) => {
                        let (m, w, wk) =
                            summary(&errors(&r.skeleton, &gt, h), |k| MAJOR.contains(&k));
                        sums[k] += m;
                        row.push(format!("{m:.2} (worst {w:.2} {wk})"));
                    }
                    Err(e) => row.push(format!("refused: {e}")),
                }
            }
            println!("| {} | {} |", v.name, row.join(" | "));
        }
        let n = VARIANTS.len() as f32;
        let means: Vec<String> = sums.iter().map(|s| format!("{:.2}", s / n)).collect();
        println!("| mean | {} |", means.join(" | "));
        return;
    }
    let corpus = open(&corpus_dir());
    let opts = rigsmith::fit::FitOptions::default();
    let mut all: BTreeMap<String, Vec<f32>> = BTreeMap::new();
    let mut bends: Vec<String> = Vec::new();
    println!("| variant | height m | major mean % H | major worst % H (joint) | fingers mean % H | fingers worst % H | fit ms |");
    println!("|---|---|---|---|---|---|---|");
    for v in VARIANTS {
        let (ch, gt) = load(&corpus, v.name);
        let h = ch.bounds().1.y - ch.bounds().0.y;
        let t = std::time::Instant::now();
        let r = match rigsmith::fit::fit(&ch, &opts) {
            Ok(r) => r,
            Err(e) => {
                println!("| {} | {h:.3} | fit failed: {e} | | | | |", v.name);
                continue;
            }
        };
        let ms = t.elapsed().as_secs_f64() * 1e3;
        for k in r.checks.iter().filter(|k| !k.passed) {
            eprintln!(
                "{}: {} {:?} value {:.3} threshold {:.3}: {}",
                v.name, k.id, k.severity, k.value, k.threshold, k.detail
            );
        }
        bends.push(format!(
            "| {} | {} | {} |",
            v.name,
            bend_row(
                &ch,
                &r.skeleton,
                &gt,
                "upperarm_l",
                "lowerarm_l",
                -Vec3::Z,
                h
            ),
            bend_row(&ch, &r.skeleton, &gt, "thigh_l", "calf_l", Vec3::Z, h)
        ));
        let e = errors(&r.skeleton, &gt, h);
        for (k, x) in &e {
            all.entry(k.clone()).or_default().push(*x);
        }
        let (mm, mw, mk) = summary(&e, |k| MAJOR.contains(&k));
        let (fm, fw, fk) = summary(&e, is_finger);
        println!(
            "| {} | {h:.3} | {mm:.2} | {mw:.2} ({mk}) | {fm:.2} | {fw:.2} ({fk}) | {ms:.1} |",
            v.name
        );
    }
    println!();
    println!("| joint (bone head) | mean % H | worst % H |");
    println!("|---|---|---|");
    for (k, xs) in &all {
        if k.ends_with("_r") {
            continue;
        }
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        let worst = xs.iter().cloned().fold(0.0, f32::max);
        println!("| {k} | {mean:.2} | {worst:.2} |");
    }
    println!();
    println!(
        "| variant | elbow modelled / fitted / artist deg | knee modelled / fitted / artist deg |"
    );
    println!("|---|---|---|");
    for b in &bends {
        println!("{b}");
    }
}

/// `modelled / fitted / artist` bend (deg, toward `dir`) of the limb whose upper bone is
/// `upper` and lower bone `lower`: the mesh's modelled bend measured between the fitted
/// root and end joints, the fitted bones' bend and the artist rig's bend.
fn bend_row(
    c: &Character,
    s: &Skeleton,
    gt: &BTreeMap<String, (Vec3, Vec3)>,
    upper: &str,
    lower: &str,
    dir: Vec3,
    h: f32,
) -> String {
    let signed = |a: Vec3, j: Vec3, e: Vec3| {
        let u = (e - a).normalize_or_zero();
        let off = (j - a) - u * (j - a).dot(u);
        rigsmith::fit::bend_angle(a, j, e) * off.dot(dir).signum()
    };
    let (Some(iu), Some(il)) = (s.find(upper), s.find(lower)) else {
        return "- | -".into();
    };
    let (a, j, e) = (s.bones[iu].head, s.bones[il].head, s.bones[il].tail);
    let modelled = rigsmith::fit::modelled_bend(&c.parts[0].mesh, a, e, dir, h)
        .map_or("-".to_string(), |m| format!("{m:.1}"));
    let artist = match (gt.get(upper), gt.get(lower)) {
        (Some(u), Some(l)) => format!("{:.1}", signed(u.0, l.0, l.1)),
        _ => "-".into(),
    };
    format!("{modelled} / {:.1} / {artist}", signed(a, j, e))
}
