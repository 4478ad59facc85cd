//! The whole parts stage in one call, for exporters and the CLI: rig an unrigged
//! character (fit the VRM template, bind), build chains for unrigged skirt and hair
//! parts, measure colliders, and assemble the sidecar, keeping what an artist authored.

use std::collections::BTreeMap;

use super::chain_build::{build_chains, BuildOptions};
use super::colliders::measure_colliders;
use super::sidecar::Sidecar;
use crate::error::Result;
use crate::fit::{fit, FitOptions, Template};
use crate::humanoid::map_humanoid;
use crate::model::Character;

/// What [`prepare`] did and found.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The sidecar (chains, colliders, links, surfaces...).
    pub sidecar: Sidecar,
    /// VRM humanoid bone -> skeleton bone: the character's own VRM map, the fitted
    /// template's, or [`map_humanoid`]'s (template names, else the skeleton's
    /// structure).
    pub humanoid: BTreeMap<String, String>,
    /// Why the humanoid map lacks required bones, when it does (a skeleton that is not
    /// a humanoid, such as a quadruped): `None` when complete. The springs and
    /// colliders are prepared either way; a VRM export refuses.
    pub humanoid_problem: Option<String>,
    /// Whether the character had no skeleton and was fitted and bound here.
    pub rigged_here: bool,
    /// One line per decision.
    pub notes: Vec<String>,
}

/// Runs the parts stage on `c` (see the module docs). `authored` is an existing
/// sidecar whose hand-authored colliders and spring parameters win.
pub fn prepare(c: &mut Character, authored: Option<&Sidecar>) -> Result<Prepared> {
    let mut notes = Vec::new();
    let mut humanoid = c
        .vrm
        .as_ref()
        .map(|v| v.humanoid.clone())
        .unwrap_or_default();
    let source = super::SourceFacts::of(c);
    let rigged_here = c.skeleton.is_none();
    if rigged_here {
        let r = fit(
            c,
            &FitOptions {
                template: Template::Vrm,
                ..Default::default()
            },
        )?;
        notes.push(format!(
            "fitted the vrm template: {} bones",
            r.skeleton.len()
        ));
        let b = crate::bind::bind(c, &r.skeleton, &crate::bind::BindOptions::default())?;
        notes.push(format!("bound {} parts ({:?})", b.weights.len(), b.route));
        for (p, w) in c.parts.iter_mut().zip(b.weights) {
            p.weights = w;
        }
        c.skeleton = Some(r.skeleton);
        humanoid = r.humanoid;
    }
    let mut humanoid_problem = None;
    if humanoid.is_empty() {
        let skel = c.skeleton.as_ref().expect("set above");
        let m = map_humanoid(skel);
        notes.extend(m.notes);
        humanoid = m.bones;
        humanoid_problem = m.problem;
    }
    let before = c.skeleton.as_ref().map_or(0, |s| s.len());
    let chains = build_chains(c, &BuildOptions::default())?;
    let added = c.skeleton.as_ref().map_or(0, |s| s.len()) - before;
    notes.push(format!(
        "{} chains ({added} bones added for unrigged skirt/hair parts)",
        chains.len()
    ));
    let colliders = measure_colliders(c);
    let mut sidecar = Sidecar::build(c, &chains, &colliders);
    sidecar.set_source(source);
    if let Some(skel) = &c.skeleton {
        for n in super::rest_clearance::clear_rest_pose(&mut sidecar, skel) {
            notes.push(format!("collider clears the springs' rest pose: {n}"));
        }
    }
    if let Some(a) = authored {
        if let Some(skel) = &c.skeleton {
            notes.extend(sidecar.keep_authored(a, skel));
        }
        notes.push("kept authored colliders and spring parameters".into());
    }
    Ok(Prepared {
        sidecar,
        humanoid,
        humanoid_problem,
        rigged_here,
        notes,
    })
}
