//! Spring chains of a four-legged rig: the tail and the ears swing, and the body they
//! swing against carries colliders.
//!
//! [`animal_chains`] reads the rig's roles from its structure
//! ([`crate::pose::quadruped::QuadRoles`], so a fitted template and an artist's rig with
//! its own names read the same) and returns:
//!
//! * a `tail` chain of the tail bones (when the skeleton's names did not already make
//!   one) and one `ear` chain per ear;
//! * capsules along the body bones those chains can hit, measured from the body as the
//!   leg colliders are ([`crate::parts::measure_colliders`]): `haunch.L` / `haunch.R`
//!   along the hind legs' swing bones (group `haunches`), `rump` along the spine's
//!   first bone (group `rump`), `neck.<n>` along the neck bones (group `animal_neck`);
//! * the springs of both classes: the tail collides with the haunches (a tail swung
//!   sideways meets the thighs), the ears with the neck (an ear laid back meets it).
//!   The rump and the head are left out of the groups: the tail's root and the ears'
//!   bases sit in them at rest, and a collider the rest pose enters pushes the chain
//!   off its rest.
//!
//! Nothing is returned for a skeleton that is not four-legged.

use std::collections::BTreeMap;

use super::chains::{measure_chains, Chain};
use super::colliders::{bone_capsules, Collider};
use super::sidecar::{Sidecar, SpringParams};
use crate::model::Character;
use crate::pose::quadruped::QuadRoles;

/// The collider group the tail swings against.
pub const HAUNCHES: &str = "haunches";
/// The collider group of the spine's first bone, where the tail starts.
pub const RUMP: &str = "rump";
/// The collider group the ears swing against.
pub const ANIMAL_NECK: &str = "animal_neck";

/// What [`animal_chains`] found.
#[derive(Debug, Clone, Default)]
pub struct AnimalChains {
    /// The tail chain (when the names did not give one) and the ear chains.
    pub chains: Vec<Chain>,
    /// The measured body colliders.
    pub colliders: Vec<Collider>,
    /// Spring parameters by class (`tail`, `ear`).
    pub springs: BTreeMap<String, SpringParams>,
    /// What was built, in plain words.
    pub notes: Vec<String>,
}

impl AnimalChains {
    /// Puts the springs into `sidecar` (replacing the class defaults) and adds the
    /// colliders a measured one of the same name does not already hold.
    pub fn apply(&self, sidecar: &mut Sidecar) {
        for (class, p) in &self.springs {
            sidecar.springs.insert(class.clone(), p.clone());
        }
        for col in &self.colliders {
            if !sidecar.colliders.iter().any(|c| c.name == col.name) {
                sidecar.colliders.push(col.clone());
            }
        }
    }
}

/// The tail's and the ears' spring chains of a four-legged rig (see the module docs);
/// `None` when the skeleton is not four-legged. `existing` are the chains already
/// built (a tail named `tail` is one): their bones are not chained again.
pub fn animal_chains(c: &Character, existing: &[Chain]) -> Option<AnimalChains> {
    let skel = c.skeleton.as_ref()?;
    let roles = QuadRoles::of(skel)?;
    let taken = |i: usize| {
        existing
            .iter()
            .any(|ch| ch.bones.iter().any(|b| *b == skel.bones[i].name))
    };
    let mut lists: Vec<Vec<usize>> = Vec::new();
    let mut classes: Vec<&str> = Vec::new();
    let mut out = AnimalChains::default();
    let tail_named = roles.tail.iter().any(|&i| taken(i));
    if roles.tail.len() >= 2 && !tail_named {
        lists.push(roles.tail.clone());
        classes.push("tail");
    }
    for (_, ear) in &roles.ears {
        if !ear.is_empty() && !ear.iter().any(|&i| taken(i)) {
            lists.push(ear.clone());
            classes.push("ear");
        }
    }
    out.chains = measure_chains(c, &lists, &classes);
    let has_tail = tail_named || classes.contains(&"tail");
    let has_ears = classes.contains(&"ear");
    out.notes.push(format!(
        "four-legged rig: {} tail bones{}, {} ear chains as springs",
        roles.tail.len(),
        if tail_named { " (chained by name)" } else { "" },
        classes.iter().filter(|c| **c == "ear").count()
    ));
    let mut wanted: Vec<(usize, String, &str)> = Vec::new();
    if has_tail {
        for leg in roles.legs.iter().filter(|l| l.hind) {
            wanted.push((leg.swing, format!("haunch.{}", leg.side.letter()), HAUNCHES));
        }
        if let Some(&first) = roles.spine.first() {
            wanted.push((first, "rump".into(), RUMP));
        }
    }
    if has_ears {
        for (k, &n) in roles.neck.iter().enumerate() {
            wanted.push((n, format!("neck.{k}"), ANIMAL_NECK));
        }
    }
    // The tail and the ears (chained here or by name) are not the body they hit.
    let mut swinging = vec![false; skel.len()];
    for &i in roles
        .tail
        .iter()
        .chain(roles.ears.iter().flat_map(|(_, e)| e))
    {
        swinging[i] = true;
    }
    for ch in existing.iter().filter(|ch| ch.springs()) {
        for b in ch.bones.iter().filter_map(|b| skel.find(b)) {
            swinging[b] = true;
        }
    }
    out.colliders = bone_capsules(c, &wanted, &swinging);
    let groups = |g: &str| -> Vec<String> {
        if out.colliders.iter().any(|c| c.group == g) {
            vec![g.to_string()]
        } else {
            Vec::new()
        }
    };
    if has_tail {
        let mut p = SpringParams::for_class("tail");
        p.collider_groups = groups(HAUNCHES);
        out.springs.insert("tail".into(), p);
    }
    if has_ears {
        // Ears are short and stiff: they flick and settle back.
        let mut p = SpringParams::for_class("ear");
        p.stiffness = 3.0;
        p.drag = 0.6;
        p.gravity_power = 0.0;
        p.collider_groups = groups(ANIMAL_NECK);
        out.springs.insert("ear".into(), p);
    }
    Some(out)
}
