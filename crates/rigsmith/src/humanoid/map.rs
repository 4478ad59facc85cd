//! The VRM humanoid map of any humanoid skeleton: which bone is the hips, the spine,
//! each arm, leg and finger, found from the skeleton itself.
//!
//! Two routes, the names first:
//!
//! 1. **Template names.** A skeleton that uses the names of one of rigsmith's templates
//!    (`vrm`, `game`, `basic`, `mixamo`, see [`super::template_map`]; a namespace
//!    such as `mixamorig1:` is ignored when the name is unique without it) is mapped by
//!    them, when that map has every required bone, is a valid VRM hierarchy and its
//!    left bones lie on the character's left (+X); optional bones the names leave out
//!    (a `basic` rig's fingers) come from the structure where they fit.
//! 2. **Structure and geometry** for every other skeleton (MakeHuman's `default` and
//!    `cmu_mb`, Quaternius, Blender exports...): see [`super::structure`].
//!
//! Every map is checked as a VRM hierarchy: each mapped bone's nearest mapped ancestor
//! in the skeleton must be the bone mapped to its VRM parent (or that parent's nearest
//! mapped VRM ancestor when the parent is optional and unmapped). A skeleton that is not
//! a humanoid (a quadruped, a rig whose feet are not under its shins) gets a partial
//! map and a [`HumanoidMap::problem`] saying why; exporters refuse it naming the missing
//! bones.
//!
//! Everything is measured in units of the body height H.

use std::collections::BTreeMap;

use super::joints::{template_map, Template};
use super::structure::structure_map;
use super::vrm::{hierarchy_problems, missing_required, require_complete, sides_agree};
use crate::error::Result;
use crate::model::naming::strip_namespace;
use crate::model::Skeleton;

/// How a humanoid bone was mapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MappedBy {
    /// By the names of a template.
    Template(Template),
    /// By the skeleton's structure and geometry.
    Structure,
}

/// A skeleton's VRM humanoid map and how it was found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HumanoidMap {
    /// VRM 1.0 humanoid bone name (`leftUpperArm`) -> skeleton bone name.
    pub bones: BTreeMap<String, String>,
    /// VRM bone name -> how it was mapped.
    pub routes: BTreeMap<String, MappedBy>,
    /// One line per decision (which route mapped which bones, what was skipped).
    pub notes: Vec<String>,
    /// Why required bones are missing, when some are (`None` for a complete map).
    pub problem: Option<String>,
}

impl HumanoidMap {
    /// The VRM 1.0 required bones the map lacks, in [`super::REQUIRED_BONES`] order.
    pub fn missing_required(&self) -> Vec<&'static str> {
        missing_required(&self.bones)
    }

    /// `Ok` when every required bone is mapped, else an error naming `what` (the file),
    /// the missing bones and the reason.
    pub fn require_complete(&self, what: &str) -> Result<()> {
        require_complete(&self.bones, self.problem.as_deref(), what)
    }
}

/// Maps `skel` to the VRM humanoid (see the module docs): template names when they
/// give a complete, valid map with the sides where their positions are, else the
/// skeleton's structure, filled with the template's other bones where they fit.
pub fn map_humanoid(skel: &Skeleton) -> HumanoidMap {
    let mut notes = Vec::new();
    // Best template by number of bones present.
    let mut best: Option<(Template, BTreeMap<String, String>)> = None;
    for t in [
        Template::Vrm,
        Template::Game,
        Template::Basic,
        Template::Mixamo,
    ] {
        let present: BTreeMap<String, String> = template_map(t)
            .into_iter()
            .filter_map(|(v, b)| find_by_name(skel, &b).map(|i| (v, skel.bones[i].name.clone())))
            .collect();
        if present.len() > best.as_ref().map_or(0, |(_, m)| m.len()) {
            best = Some((t, present));
        }
    }
    if let Some((t, m)) = &best {
        let missing = missing_required(m);
        let hier = hierarchy_problems(skel, m);
        let sides = sides_agree(skel, m);
        if missing.is_empty() && hier.is_empty() && sides {
            notes.push(format!(
                "humanoid map from bone names ({} template): {} bones",
                template_name(*t),
                m.len()
            ));
            let mut bones = m.clone();
            let mut routes: BTreeMap<String, MappedBy> = m
                .keys()
                .map(|k| (k.clone(), MappedBy::Template(*t)))
                .collect();
            // Optional bones the names leave out (fingers of a `basic` rig, eyes),
            // from the structure where they keep the hierarchy valid.
            let st = structure_map(skel);
            let extra: BTreeMap<String, String> = st
                .slots
                .iter()
                .map(|(k, &i)| (k.to_string(), skel.bones[i].name.clone()))
                .collect();
            let filled = fill(skel, &mut bones, &extra);
            if !filled.is_empty() {
                for k in &filled {
                    routes.insert(k.clone(), MappedBy::Structure);
                }
                notes.push(format!(
                    "{} more from the skeleton's structure: {}",
                    filled.len(),
                    filled.join(", ")
                ));
            }
            return HumanoidMap {
                routes,
                bones,
                notes,
                problem: None,
            };
        }
        let why = if !missing.is_empty() {
            format!("lacks {}", missing.join(", "))
        } else if !sides {
            "its left bones are not on the character's left (+X)".to_string()
        } else {
            format!("is not a VRM hierarchy: {}", hier.join("; "))
        };
        notes.push(format!(
            "{} template names give {} bones but the map {why}: mapping from the skeleton's structure",
            template_name(*t),
            m.len()
        ));
    } else {
        notes.push("no template bone names: mapping from the skeleton's structure".to_string());
    }
    let found = structure_map(skel);
    let mut bones: BTreeMap<String, String> = found
        .slots
        .iter()
        .map(|(k, &i)| (k.to_string(), skel.bones[i].name.clone()))
        .collect();
    let mut routes: BTreeMap<String, MappedBy> = bones
        .keys()
        .map(|k| (k.clone(), MappedBy::Structure))
        .collect();
    notes.push(format!(
        "humanoid map from the skeleton's structure: {} bones ({})",
        bones.len(),
        bones
            .iter()
            .filter(|(k, _)| !is_finger(k))
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    notes.extend(found.notes);
    // Fill slots the structure left empty from the template, where they fit.
    if let Some((t, m)) = best {
        if sides_agree(skel, &m) {
            let filled = fill(skel, &mut bones, &m);
            for k in &filled {
                routes.insert(k.clone(), MappedBy::Template(t));
            }
            if !filled.is_empty() {
                notes.push(format!(
                    "{} filled from {} template names: {}",
                    filled.len(),
                    template_name(t),
                    filled.join(", ")
                ));
            }
        }
    }
    let hier = hierarchy_problems(skel, &bones);
    let mut problems = found.problems;
    problems.extend(hier);
    let problem = if missing_required(&bones).is_empty() && problems.is_empty() {
        None
    } else if problems.is_empty() {
        Some("the skeleton's structure does not show them".to_string())
    } else {
        Some(problems.join("; "))
    };
    if let Some(p) = &problem {
        notes.push(format!("not a complete VRM humanoid: {p}"));
    }
    HumanoidMap {
        bones,
        routes,
        notes,
        problem,
    }
}

/// Adds to `bones` each entry of `extra` whose slot is empty and whose bone is unused,
/// when the map stays a valid VRM hierarchy; returns the slots added.
fn fill(
    skel: &Skeleton,
    bones: &mut BTreeMap<String, String>,
    extra: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut filled = Vec::new();
    for (k, b) in extra {
        if bones.contains_key(k) || bones.values().any(|x| x == b) {
            continue;
        }
        bones.insert(k.clone(), b.clone());
        if hierarchy_problems(skel, bones).is_empty() {
            filled.push(k.clone());
        } else {
            bones.remove(k);
        }
    }
    filled
}

/// The bone named `name`, else, for a namespaced template name (`mixamorig:Hips`), the
/// only bone in another namespace with the same name (`mixamorig1:Hips`). A bare
/// `Hips` does not match: CMU's BVH names are Mixamo's without the namespace, and
/// the structure maps them better (its `LowerBack` is the spine).
fn find_by_name(skel: &Skeleton, name: &str) -> Option<usize> {
    if let Some(i) = skel.find(name) {
        return Some(i);
    }
    if !name.contains(':') {
        return None;
    }
    let want = strip_namespace(name);
    let mut hits = skel
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.name.contains(':') && strip_namespace(&b.name) == want)
        .map(|(i, _)| i);
    let first = hits.next()?;
    hits.next().is_none().then_some(first)
}

fn template_name(t: Template) -> &'static str {
    match t {
        Template::Game => "game",
        Template::Basic => "basic",
        Template::Mixamo => "mixamo",
        Template::Vrm => "vrm",
    }
}

fn is_finger(vrm: &str) -> bool {
    ["Thumb", "Index", "Middle", "Ring", "Little"]
        .iter()
        .any(|f| vrm.contains(f))
}
