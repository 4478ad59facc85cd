//! The preserve-volume mask between a character's parts and its skin view.
//!
//! The sidecar keeps the mask per part (`dqs_blend`, by part name), as the glTF keeps
//! `_DQS_BLEND` on each primitive. The review measures a character through its skin
//! view ([`super::rubric::skin_view`]), where the pieces of a multi-piece skin are
//! welded into one part: [`masks_on_view`] takes the parts' masks onto the view (a
//! welded vertex takes the largest of its copies'), and [`masks_on_parts`] takes the
//! masks the review played back onto the parts, so that the sheets, which draw the
//! parts, pose them as the review measured them.

use std::collections::BTreeMap;

use crate::deform::dqs_mask::{dense, sparse};
use crate::model::{Body, Character};

/// A mask per part name, sparse (`(vertex, weight)`), as the sidecar keeps it.
pub type Masks = BTreeMap<String, Vec<(u32, f32)>>;

/// The preserve-volume mask on the skin's vertices (dense): per welded vertex the
/// largest over the pieces it comes from; 0 where no piece has a mask.
pub fn skin_mask(c: &Character, body: &Body, masks: &Masks) -> Vec<f32> {
    let mut mask = vec![0.0f32; body.mesh.positions.len()];
    for &i in &body.skin {
        if let Some(sp) = masks.get(&c.parts[i].name) {
            let d = dense(sp, c.parts[i].mesh.positions.len());
            for (v, &u) in body.map[i].iter().enumerate() {
                mask[u as usize] = mask[u as usize].max(d[v]);
            }
        }
    }
    mask
}

/// The masks of `c`'s parts on the parts of its skin view `view`, by the view's part
/// names: the skin (part 0) from its pieces ([`skin_mask`]), every other part its own.
pub fn masks_on_view(c: &Character, view: &Character, masks: &Masks) -> Masks {
    if c.parts.is_empty() || c.is_one_welded_part() {
        return masks.clone();
    }
    let Ok(body) = c.body() else {
        return masks.clone();
    };
    let mut out = Masks::new();
    let skin = sparse(&skin_mask(c, &body, masks));
    if !skin.is_empty() {
        out.insert(view.parts[0].name.clone(), skin);
    }
    for p in view.parts.iter().skip(1) {
        if let Some(m) = masks.get(&p.name) {
            out.insert(p.name.clone(), m.clone());
        }
    }
    out
}

/// The dense masks of the parts of `c`'s skin view `view` (one per view part, in
/// order; an empty one for none) back on `c`'s parts, by part name: each skin piece
/// takes its welded vertices' weights, every other part the view's part of its name.
pub fn masks_on_parts(c: &Character, view: &Character, view_masks: &[Vec<f32>]) -> Masks {
    let mut out = Masks::new();
    let body = c.body().ok().filter(|_| !c.is_one_welded_part());
    for (i, p) in c.parts.iter().enumerate() {
        let values = match &body {
            Some(b) if b.is_skin(i) => view_masks
                .first()
                .filter(|m| !m.is_empty())
                .map(|m| b.spread(i, m)),
            _ => view
                .parts
                .iter()
                .position(|q| q.name == p.name)
                .and_then(|k| view_masks.get(k))
                .filter(|m| m.len() == p.mesh.positions.len())
                .cloned(),
        };
        let sp = values.map(|v| sparse(&v)).unwrap_or_default();
        if !sp.is_empty() {
            out.insert(p.name.clone(), sp);
        }
    }
    out
}
