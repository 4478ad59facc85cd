//! Face weights: the head bone's share of each skin vertex is divided between the head,
//! the lids and the jaw by smooth masks measured from the fitted face
//! ([`super::fit::FaceFit`]); eyes, teeth and tongue are rigid to their bones.
//!
//! * **Lids** (each eye, upper and lower): only around the eye opening. A vertex takes
//!   the lid mask `radial x lateral x angular x front`, where, with `q` the vertex
//!   seen from the eye centre and `r` the eyeball's radius:
//!   radial is 1 up to 1.45 r from the centre and 0 from 1.9 r; lateral is
//!   `sqrt(1 - (q.x / r)^2)` (so the margin's travel follows the opening's elliptic
//!   outline and the lids meet along their whole length; 0 at the corners), 1 out to
//!   the margins' own offset from the eye's vertical plane on a coarse skin
//!   ([`super::fit::Eye::margin_offset`]) and elliptic beyond it; angular
//!   is 1 from a third of the way past the middle of the opening to 35 deg above the
//!   upper margin (20 deg below the lower margin) and 0 from 60 deg (40 deg);
//!   front is 0 behind the eyeball's centre.
//! * **Jaw**: the lower lip, chin and jaw line, never the upper lip: 1 below the lips'
//!   line (0 from 0.05% H above it), forward of the pivot (0 from 1% H behind it,
//!   1 from 2% H in front), above the neck (0 from 3.5% H below the chin), within
//!   3.5% H of the centre plane (0 from 6% H).
//! * **Rigid parts**: an eye part's vertices go to the eye bone of their side; a teeth
//!   part's islands below the lips' line to the jaw, the others to the head; a tongue
//!   to the jaw. Lashes and brows take the weights of the nearest skin vertex.

use glam::Vec3;

use super::fit::{names, Eye, FaceFit, Mouth};
use crate::model::{Body, Character, Influence, Weights};

use super::split::smoothstep;

/// The lid mask of `p` for an eye (upper lid when `upper`), in 0..=1.
pub fn lid_mask(e: &Eye, p: Vec3, upper: bool) -> f32 {
    let r = e.radius;
    let q = p - e.centre;
    let radial = 1.0 - smoothstep(1.45 * r, 1.9 * r, q.length());
    let flat = e.margin_offset();
    let across = (q.x.abs() - flat).max(0.0) / (r - flat);
    let lateral = (1.0 - across * across).max(0.0).sqrt();
    let front = smoothstep(-0.1 * r, 0.3 * r, q.z);
    if radial * lateral * front == 0.0 {
        return 0.0;
    }
    let (au, al) = (e.elevation(e.upper), e.elevation(e.lower));
    let mid = 0.5 * (au + al);
    let a = q.y.atan2(q.z);
    let angular = if upper {
        smoothstep(mid, mid + 0.33 * (au - mid), a)
            * (1.0 - smoothstep(au + 35f32.to_radians(), au + 60f32.to_radians(), a))
    } else {
        smoothstep(-mid, -mid + 0.33 * (mid - al), -a)
            * (1.0 - smoothstep(-al + 20f32.to_radians(), -al + 40f32.to_radians(), -a))
    };
    radial * lateral * front * angular
}

/// The jaw mask of `p` in 0..=1 (see the module docs).
pub fn jaw_mask(m: &Mouth, p: Vec3, h: f32, cx: f32) -> f32 {
    let line = 1.0 - smoothstep(m.line_y - 0.002 * h, m.line_y + 0.0005 * h, p.y);
    let depth = smoothstep(m.pivot.z - 0.01 * h, m.pivot.z + 0.02 * h, p.z);
    let neck = smoothstep(m.chin.y - 0.035 * h, m.chin.y - 0.005 * h, p.y);
    let lateral = 1.0 - smoothstep(0.035 * h, 0.06 * h, (p.x - cx).abs());
    line * depth * neck * lateral
}

/// Indices of the face bones in the skeleton, by role.
#[derive(Debug, Clone, Copy, Default)]
pub struct FaceBones {
    /// The head bone.
    pub head: u32,
    /// The jaw.
    pub jaw: Option<u32>,
    /// Eyes, left and right.
    pub eye: [Option<u32>; 2],
    /// Upper lids.
    pub lid_upper: [Option<u32>; 2],
    /// Lower lids.
    pub lid_lower: [Option<u32>; 2],
}

impl FaceBones {
    /// Finds the face bones by name in `skel` (`head` is the head bone's index).
    pub fn find(skel: &crate::model::Skeleton, head: u32) -> FaceBones {
        let f = |n: &str| skel.find(n).map(|i| i as u32);
        FaceBones {
            head,
            jaw: f(names::JAW),
            eye: names::EYE.map(f),
            lid_upper: names::LID_UPPER.map(f),
            lid_lower: names::LID_LOWER.map(f),
        }
    }
}

/// Moves a fraction `frac` of vertex `v`'s weight on `from` to `to`.
fn shift(w: &mut Weights, v: usize, from: u32, to: u32, frac: f32) {
    if frac <= 0.0 {
        return;
    }
    let hw = w.get(v, from);
    if hw <= 0.0 {
        return;
    }
    let moved = hw * frac.min(1.0);
    let list = &mut w.vertices[v];
    for i in list.iter_mut() {
        if i.bone == from {
            i.weight -= moved;
        }
    }
    list.retain(|i| i.weight > 1e-6 || i.bone != from);
    match list.iter_mut().find(|i| i.bone == to) {
        Some(i) => i.weight += moved,
        None => list.push(Influence {
            bone: to,
            weight: moved,
        }),
    }
}

/// The face weights of one skin vertex at `p` on weights `w` (see the module docs).
fn face_vertex(w: &mut Weights, v: usize, p: Vec3, f: &FaceFit, b: &FaceBones) {
    if let (Some(m), Some(jaw)) = (&f.mouth, b.jaw) {
        shift(w, v, b.head, jaw, jaw_mask(m, p, f.height, f.center_x));
    }
    if let Some(eyes) = &f.eyes {
        for (k, e) in eyes.iter().enumerate() {
            // Each eye sees its own side in its own frame: the right eye's x mirrored.
            if let Some(lu) = b.lid_upper[k] {
                shift(w, v, b.head, lu, lid_mask(e, p, true));
            }
            if let Some(ll) = b.lid_lower[k] {
                shift(w, v, b.head, ll, lid_mask(e, p, false));
            }
        }
    }
}

/// Applies the face weights to every skin part of `c` and makes the eyes, teeth and
/// tongue rigid (see the module docs). Returns one note per rigid part.
pub fn apply(c: &mut Character, body: &Body, f: &FaceFit, b: &FaceBones) -> Vec<String> {
    let mut notes = Vec::new();
    for &i in &body.skin {
        let part = &mut c.parts[i];
        let Some(w) = part.weights.as_mut() else {
            continue;
        };
        for (v, p) in part.mesh.positions.iter().enumerate() {
            face_vertex(w, v, *p, f, b);
        }
        w.normalize();
    }
    // Skin positions and weights for the nearest-vertex copy to lashes and brows.
    let mut skin_pts: Vec<Vec3> = Vec::new();
    let mut skin_w: Vec<Vec<Influence>> = Vec::new();
    let near_head = |p: &Vec3| {
        f.eyes
            .as_ref()
            .is_some_and(|e| (*p - e[0].centre).length() < 0.12 * f.height)
    };
    for &i in &body.skin {
        if let Some(w) = &c.parts[i].weights {
            for (p, l) in c.parts[i].mesh.positions.iter().zip(&w.vertices) {
                if near_head(p) {
                    skin_pts.push(*p);
                    skin_w.push(l.clone());
                }
            }
        }
    }
    for (pi, part) in c.parts.iter_mut().enumerate() {
        if body.is_skin(pi) || part.mesh.positions.is_empty() {
            continue;
        }
        let name = part.name.to_ascii_lowercase();
        let n = part.mesh.positions.len();
        let cx = f.center_x;
        let new: Option<Weights> = if name.contains("lash") || name.contains("brow") {
            if skin_pts.is_empty() || !part.mesh.positions.iter().all(near_head) {
                None
            } else {
                let mut w = Weights::empty(n);
                for (v, p) in part.mesh.positions.iter().enumerate() {
                    let k = (0..skin_pts.len())
                        .min_by(|&a, &b| {
                            (skin_pts[a] - *p)
                                .length_squared()
                                .total_cmp(&(skin_pts[b] - *p).length_squared())
                        })
                        .expect("not empty");
                    w.vertices[v] = skin_w[k].clone();
                }
                Some(w)
            }
        } else if name.contains("eye") {
            match b.eye {
                [Some(l), Some(r)] => {
                    let mut w = Weights::empty(n);
                    for (v, p) in part.mesh.positions.iter().enumerate() {
                        w.add(v, if p.x >= cx { l } else { r }, 1.0);
                    }
                    Some(w)
                }
                _ => None,
            }
        } else if name.contains("tongue") {
            b.jaw.map(|j| Weights::rigid(n, j))
        } else if name.contains("teeth") || name.contains("tooth") {
            match (&f.mouth, b.jaw) {
                (Some(m), Some(j)) => {
                    let (label, k) = crate::geom::weld::islands(n, &part.mesh.triangles);
                    let mut sum = vec![(0.0f32, 0usize); k];
                    for (v, p) in part.mesh.positions.iter().enumerate() {
                        sum[label[v] as usize].0 += p.y;
                        sum[label[v] as usize].1 += 1;
                    }
                    let mut w = Weights::empty(n);
                    for v in 0..n {
                        let (s, cnt) = sum[label[v] as usize];
                        let lower = s / cnt.max(1) as f32 <= m.line_y;
                        w.add(v, if lower { j } else { b.head }, 1.0);
                    }
                    Some(w)
                }
                _ => None,
            }
        } else {
            None
        };
        if let Some(w) = new {
            notes.push(format!(
                "face: part {:?} weighted to the face bones",
                part.name
            ));
            part.weights = Some(w);
        }
    }
    notes
}
