//! `rigsmith weights --smooth-bones` and `--smooth-vertices`: the smoothing restricted
//! to bones and a vertex mask (the library's `smooth_masked`), parsed from the command
//! line.

use rigsmith::model::{Character, Skeleton};

use crate::util::BadInput;

/// A restricted smoothing: the bones whose weights are averaged and, per part, the
/// vertices that may change.
pub struct Masked {
    bones: Vec<u32>,
    /// Per part (in part order): the mask, `None` for a part left alone.
    masks: Vec<Option<Vec<bool>>>,
    /// What was asked, for the reasons line.
    what: String,
}

/// `I` or `I-J` (inclusive) against a part of `n` vertices.
fn range(text: &str, n: usize, part: &str) -> Result<(usize, usize), BadInput> {
    let bad = || {
        BadInput(format!(
            "--smooth-vertices: {text:?} is not a vertex index or a range I-J of part {part:?}"
        ))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let i: usize = text.trim().parse().map_err(|_| bad())?;
            (i, i)
        }
    };
    if a > b || b >= n {
        return Err(BadInput(format!(
            "--smooth-vertices: {text:?} is outside part {part:?}, which has {n} vertices (0-{})",
            n.saturating_sub(1)
        )));
    }
    Ok((a, b))
}

impl Masked {
    /// Reads the flags; `None` when neither is given (the bind smooths as usual).
    pub fn parse(
        bones: &[String],
        vertices: &[String],
        passes: usize,
        c: &Character,
        s: &Skeleton,
    ) -> Result<Option<Masked>, BadInput> {
        if bones.is_empty() && vertices.is_empty() {
            return Ok(None);
        }
        if passes == 0 {
            return Err(BadInput(
                "--smooth-bones and --smooth-vertices restrict the smoothing: give the passes with --smooth N (N >= 1)".into(),
            ));
        }
        let ids: Vec<u32> = if bones.is_empty() {
            (0..s.len() as u32).collect()
        } else {
            bones
                .iter()
                .map(|b| {
                    s.find(b).map(|i| i as u32).ok_or_else(|| {
                        BadInput(format!(
                            "--smooth-bones: the skeleton has no bone named {b:?}"
                        ))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let mut masks: Vec<Option<Vec<bool>>> = if vertices.is_empty() {
            c.parts
                .iter()
                .map(|p| Some(vec![true; p.mesh.positions.len()]))
                .collect()
        } else {
            vec![None; c.parts.len()]
        };
        for v in vertices {
            let (pi, text) = match v.split_once(':') {
                Some((name, r)) => {
                    let pi = c.parts.iter().position(|p| p.name == name).ok_or_else(|| {
                        BadInput(format!("--smooth-vertices: no part named {name:?}"))
                    })?;
                    (pi, r)
                }
                None => (0, v.as_str()),
            };
            let p = &c.parts[pi];
            let n = p.mesh.positions.len();
            let (a, b) = range(text, n, &p.name)?;
            let m = masks[pi].get_or_insert_with(|| vec![false; n]);
            m[a..=b].iter_mut().for_each(|x| *x = true);
        }
        let what = format!(
            "{} ({}), {}",
            if bones.is_empty() {
                "every bone".to_string()
            } else {
                bones.join(", ")
            },
            ids.len(),
            if vertices.is_empty() {
                "every vertex".to_string()
            } else {
                vertices.join(", ")
            },
        );
        Ok(Some(Masked {
            bones: ids,
            masks,
            what,
        }))
    }

    /// Smooths `c`'s weights in place; returns the reasons line.
    pub fn apply(&self, c: &mut Character, passes: usize) -> String {
        let mut changed = 0usize;
        for (p, m) in c.parts.iter_mut().zip(&self.masks) {
            let (Some(m), Some(w)) = (m, p.weights.as_mut()) else {
                continue;
            };
            rigsmith::bind::smooth_masked(w, &p.mesh, passes, &self.bones, m);
            changed += m.iter().filter(|&&x| x).count();
        }
        format!(
            "smoothed {passes} passes on {}: {changed} vertices in the mask",
            self.what
        )
    }
}
