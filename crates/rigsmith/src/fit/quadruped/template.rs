//! The quadruped templates: which bones, from which landmark to which, by build.
//!
//! Names are Rigify-like (`.L` / `.R`):
//!
//! | chain | bones (landmark -> landmark) |
//! |---|---|
//! | centre | `root` (floor), `spine` (sacrum -> spine_1), `spine.001`, `spine.002`, `spine.003` (-> chest) |
//! | neck, head | `neck`, `neck.001` (`neck.002` for the horse: a long neck), `head` (pivot -> snout), `jaw` (-> chin) |
//! | ears | `ear.L` (base -> tip; `wolf` and `cat`: `ear.L` base -> middle, `ear.001.L` -> tip), when found |
//! | tail | `tail`, `tail.001`, ... (3 to 6 bones; `wolf` and `cat` 4 to 8), when found |
//! | hind leg | `pelvis.L` (beside the spine -> hip), `thigh.L`, `shin.L` (knee -> hock), `foot.L` (hock -> paw), `toe.L` (`hoof.L` for the horse) |
//! | front leg | `shoulder.L` (scapula -> shoulder joint), `upper_arm.L`, `forearm.L` (elbow -> wrist), `hand.L` (wrist -> paw), `finger.L` (`hoof_front.L` for the horse) |
//!
//! Hinges on local X: every leg bone's `x_axis` is the normal of its leg's bend plane
//! (+X on the left, -X on the right for a leg in the sagittal plane); spine, neck and
//! tail bend about +X too. The knee bends forward, the hock and the elbow back (the
//! landmarks are pre-bent, see [`super::landmarks::MIN_BEND_DEG`]).

use glam::Vec3;

use super::QuadrupedKind;
use crate::error::{Error, Result};
use crate::fit::landmarks::Landmarks;
use crate::model::{Bone, Skeleton};

/// One bone of the template: name, parent, head and tail landmarks.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Bone name.
    pub name: String,
    /// Parent bone name (empty for the root).
    pub parent: String,
    /// Landmark at the head.
    pub head: String,
    /// Landmark at the tail.
    pub tail: String,
}

fn row(name: &str, parent: &str, head: &str, tail: &str) -> Row {
    Row {
        name: name.into(),
        parent: parent.into(),
        head: head.into(),
        tail: tail.into(),
    }
}

/// The template's rows for the landmarks found (ears and tail only when found).
pub fn rows(kind: QuadrupedKind, lm: &Landmarks) -> Vec<Row> {
    let mut r = vec![
        row("root", "", "root", "root_front"),
        row("spine", "root", "sacrum", "spine_1"),
        row("spine.001", "spine", "spine_1", "spine_2"),
        row("spine.002", "spine.001", "spine_2", "spine_3"),
        row("spine.003", "spine.002", "spine_3", "chest"),
    ];
    let last_neck = if kind == QuadrupedKind::Horse {
        r.push(row("neck", "spine.003", "chest", "neck_1"));
        r.push(row("neck.001", "neck", "neck_1", "neck_2"));
        r.push(row("neck.002", "neck.001", "neck_2", "head"));
        "neck.002"
    } else {
        r.push(row("neck", "spine.003", "chest", "neck_mid"));
        r.push(row("neck.001", "neck", "neck_mid", "head"));
        "neck.001"
    };
    r.push(row("head", last_neck, "head", "snout"));
    r.push(row("jaw", "head", "jaw", "chin"));
    if lm.get("ear_base_l").is_some() {
        for s in ["L", "R"] {
            let l = s.to_lowercase();
            if matches!(kind, QuadrupedKind::Wolf | QuadrupedKind::Cat) {
                r.push(row(
                    &format!("ear.{s}"),
                    "head",
                    &format!("ear_base_{l}"),
                    &format!("ear_mid_{l}"),
                ));
                r.push(row(
                    &format!("ear.001.{s}"),
                    &format!("ear.{s}"),
                    &format!("ear_mid_{l}"),
                    &format!("ear_tip_{l}"),
                ));
            } else {
                r.push(row(
                    &format!("ear.{s}"),
                    "head",
                    &format!("ear_base_{l}"),
                    &format!("ear_tip_{l}"),
                ));
            }
        }
    }
    let n_tail = (0..)
        .take_while(|k| lm.get(&format!("tail_{k:02}")).is_some())
        .count();
    for k in 1..n_tail {
        let name = tail_name(k - 1);
        let parent = if k == 1 {
            "spine".to_string()
        } else {
            tail_name(k - 2)
        };
        r.push(row(
            &name,
            &parent,
            &format!("tail_{:02}", k - 1),
            &format!("tail_{k:02}"),
        ));
    }
    let (toe, finger) = if kind == QuadrupedKind::Horse {
        ("hoof", "hoof_front")
    } else {
        ("toe", "finger")
    };
    for s in ["L", "R"] {
        let l = s.to_lowercase();
        let n = |b: &str| format!("{b}.{s}");
        let p = |b: &str| format!("{b}_{l}");
        r.push(row(&n("pelvis"), "spine", &p("pelvis_wing"), &p("hip")));
        r.push(row(&n("thigh"), &n("pelvis"), &p("hip"), &p("knee")));
        r.push(row(&n("shin"), &n("thigh"), &p("knee"), &p("hock")));
        r.push(row(&n("foot"), &n("shin"), &p("hock"), &p("paw")));
        r.push(row(&n(toe), &n("foot"), &p("paw"), &p("toe")));
        r.push(row(
            &n("shoulder"),
            "spine.003",
            &p("scapula"),
            &p("shoulder"),
        ));
        r.push(row(
            &n("upper_arm"),
            &n("shoulder"),
            &p("shoulder"),
            &p("elbow"),
        ));
        r.push(row(
            &n("forearm"),
            &n("upper_arm"),
            &p("elbow"),
            &p("wrist"),
        ));
        r.push(row(&n("hand"), &n("forearm"), &p("wrist"), &p("front_paw")));
        r.push(row(
            &n(finger),
            &n("hand"),
            &p("front_paw"),
            &p("front_toe"),
        ));
    }
    r
}

/// The name of tail bone `k` (0 = `tail`, 1 = `tail.001`, ...).
pub fn tail_name(k: usize) -> String {
    if k == 0 {
        "tail".into()
    } else {
        format!("tail.{k:03}")
    }
}

/// The skeleton of the template on the landmarks: parents first, hinges on local X.
pub fn skeleton(kind: QuadrupedKind, lm: &Landmarks) -> Result<Skeleton> {
    let mut lm = lm.clone();
    if let (Some(a), Some(b)) = (lm.get("neck_1"), lm.get("neck_2")) {
        let mut l = lm.points["neck_1"].clone();
        l.position = 0.5 * (a + b);
        l.method = "sections: neck centre line, half way".into();
        lm.points.insert("neck_mid".into(), l);
    }
    let rows = rows(kind, &lm);
    let mut bones: Vec<Bone> = Vec::with_capacity(rows.len());
    for r in &rows {
        let get = |n: &str| {
            lm.get(n)
                .ok_or_else(|| Error::stage("fit", format!("{}: landmark {n} missing", r.name)))
        };
        let (head, tail) = (get(&r.head)?, get(&r.tail)?);
        let parent = if r.parent.is_empty() {
            None
        } else {
            Some(
                bones
                    .iter()
                    .position(|b| b.name == r.parent)
                    .ok_or_else(|| {
                        Error::stage("fit", format!("{}: parent {} missing", r.name, r.parent))
                    })?,
            )
        };
        let mut b = Bone::new(r.name.clone(), parent, head, tail);
        let right = r.name.ends_with(".R");
        let hint = if right { -Vec3::X } else { Vec3::X };
        let y = b.y_axis();
        if let Some(x) = (hint - y * hint.dot(y)).try_normalize() {
            if !r.name.starts_with("ear") {
                b.x_axis = x;
            }
        }
        if r.name == "root" {
            b.deform = false;
        }
        bones.push(b);
    }
    let s = Skeleton { bones };
    s.validate()?;
    Ok(s)
}
