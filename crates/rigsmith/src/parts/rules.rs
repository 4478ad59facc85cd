//! The three rules that keep separate parts intact, as checks (ids `parts.*`), plus
//! the symptom of a joined body-and-garment mesh.
//!
//! 1. `parts.cloth_parent` (blocker): cloth chains (skirt, cloth, cape, coat) hang
//!    only from the trunk: no cloth bone has an arm or leg among its ancestors. A
//!    skirt parented to a thigh becomes trousers. Value: offending chains.
//! 2. `parts.cloth_on_leg` (blocker): no vertex driven by a cloth chain carries leg
//!    weight. A vertex weighted 0.9 to a thigh cannot be pushed out of that thigh by
//!    its own cloth bone. Value: offending vertices.
//! 3. `parts.cloth_animated` (major): cloth and hair bones (every spring chain) carry
//!    no animation tracks in what is exported; physics owns them. `animated_bones` is
//!    the list of bones that have tracks. Value: offending bones.
//! 4. `parts.joined_garment` (major): per part, the share of vertices pulled by BOTH
//!    legs (each at least 0.1): such a vertex sits between the legs and stays there
//!    while they separate. At most 5 % of a part's vertices (a bound body has a few at
//!    the crotch; a joined garment rebound by nearest bone had 16 %); the worst part
//!    is reported. A loose garment over the skin (a skirt, dress or long coat,
//!    [`super::surfaces::is_loose_garment`]) wraps both legs by design and is not
//!    judged: MakeHuman's artist weights its long skirt to both thighs on 31 % of it.
//!
//! Each check reports its value, threshold and a detail naming the worst offenders.

use std::collections::BTreeSet;

use super::chains::{is_cloth_class, Chain};
use crate::humanoid::Roles;
use crate::model::{Character, Side, Skeleton};
use crate::report::{Check, Severity};

/// Share of a leg's weight on a vertex that counts as "pulled" by it.
const PULL: f32 = 0.1;

/// Rule 1's offenders: each cloth chain with an arm or leg bone among the ancestors of
/// its first bone, as `"skirt.00 hangs from thigh_l"`.
pub(crate) fn cloth_under_limbs(skel: &Skeleton, roles: &Roles, chains: &[Chain]) -> Vec<String> {
    let mut bad = Vec::new();
    for ch in chains.iter().filter(|c| is_cloth_class(&c.class)) {
        let Some(first) = ch.bones.first().and_then(|b| skel.find(b)) else {
            continue;
        };
        let mut cur = skel.bones[first].parent;
        while let Some(p) = cur {
            if roles.is_leg(p) || roles.is_arm(p) {
                bad.push(format!("{} hangs from {}", ch.bones[0], skel.bones[p].name));
                break;
            }
            cur = skel.bones[p].parent;
        }
    }
    bad
}

/// The three rules and the joined-garment check.
pub fn rule_checks(c: &Character, chains: &[Chain], animated_bones: &[String]) -> Vec<Check> {
    let Some(skel) = &c.skeleton else {
        return vec![Check::new("parts.skeleton", "B", Severity::Blocker)
            .title("The character has a skeleton")
            .measure("skeletons missing")
            .at_most(1.0, 0.0)
            .detail("no skeleton: the parts rules cannot be checked")];
    };
    let roles = Roles::of(skel, c.vrm.as_ref().map(|v| &v.humanoid));
    let mut out = Vec::new();
    // 1. Cloth parents only to the trunk.
    let bad_parent = cloth_under_limbs(skel, &roles, chains);
    out.push(
        Check::new("parts.cloth_parent", "B", Severity::Blocker)
            .title("Cloth hangs only from the trunk")
            .measure("cloth chains under a limb")
            .at_most(bad_parent.len() as f64, 0.0)
            .detail(if bad_parent.is_empty() {
                "every cloth chain hangs from the trunk".to_string()
            } else {
                first_few(&bad_parent)
            }),
    );
    // 2. Cloth never skinned to a leg.
    let cloth_bones: BTreeSet<usize> = chains
        .iter()
        .filter(|c| is_cloth_class(&c.class))
        .flat_map(|c| c.bones.iter().filter_map(|b| skel.find(b)))
        .collect();
    let mut on_leg = 0usize;
    let mut worst = (0.0f32, String::new());
    for p in &c.parts {
        let Some(w) = &p.weights else { continue };
        for (v, list) in w.vertices.iter().enumerate() {
            if !list
                .iter()
                .any(|i| cloth_bones.contains(&(i.bone as usize)))
            {
                continue;
            }
            let leg: f32 = list
                .iter()
                .filter(|i| roles.is_leg(i.bone as usize))
                .map(|i| i.weight)
                .sum();
            if leg > 1e-4 {
                on_leg += 1;
                if leg > worst.0 {
                    worst = (
                        leg,
                        format!("worst: part {:?} vertex {v} is {:.2} leg", p.name, leg),
                    );
                }
            }
        }
    }
    out.push(
        Check::new("parts.cloth_on_leg", "C", Severity::Blocker)
            .title("Cloth is never skinned to a leg")
            .measure("cloth vertices with leg weight")
            .at_most(on_leg as f64, 0.0)
            .detail(if on_leg == 0 {
                "no cloth vertex carries leg weight".to_string()
            } else {
                worst.1
            }),
    );
    // 3. Cloth and hair bones carry no animation tracks.
    let spring_bones: BTreeSet<&str> = chains
        .iter()
        .filter(|c| c.springs())
        .flat_map(|c| c.bones.iter().map(String::as_str))
        .collect();
    let keyed: Vec<String> = animated_bones
        .iter()
        .filter(|b| spring_bones.contains(b.as_str()))
        .cloned()
        .collect();
    out.push(
        Check::new("parts.cloth_animated", "B", Severity::Major)
            .title("Cloth and hair bones carry no animation tracks")
            .measure("spring bones with tracks")
            .at_most(keyed.len() as f64, 0.0)
            .detail(if keyed.is_empty() {
                "physics owns every spring bone".to_string()
            } else {
                first_few(&keyed)
            }),
    );
    out.push(joined_garment(c, &roles));
    out
}

/// Rule 4: the worst part's share of vertices pulled by both legs (see the module docs).
fn joined_garment(c: &Character, roles: &Roles) -> Check {
    // 4. Joined garment: vertices pulled by both legs. A skirt, dress or long coat
    // over the skin wraps both legs: its panels span the gap between them by design
    // (an artist weights MakeHuman's long skirt to both thighs on 31 % of it).
    // The skin is found (a scan of every part) only when some part looks loose.
    let loose: Vec<usize> = if c.parts.len() > 1 {
        (0..c.parts.len())
            .filter(|&i| super::surfaces::is_loose_garment(c, &c.parts[i]))
            .collect()
    } else {
        Vec::new()
    };
    let skin: Vec<usize> = if loose.is_empty() {
        Vec::new()
    } else {
        c.body().map(|b| b.skin).unwrap_or_default()
    };
    let mut worst_part = (0.0f64, String::new());
    for (pi, p) in c.parts.iter().enumerate() {
        if loose.contains(&pi) && !skin.contains(&pi) {
            continue;
        }
        let Some(w) = &p.weights else { continue };
        if w.vertices.is_empty() {
            continue;
        }
        let mut both = 0usize;
        let mut worst_min = 0.0f32;
        for list in &w.vertices {
            let mut l = 0.0;
            let mut r = 0.0;
            for i in list {
                match roles.leg_side(i.bone as usize) {
                    Some(Side::Left) => l += i.weight,
                    Some(Side::Right) => r += i.weight,
                    _ => {}
                }
            }
            if l >= PULL && r >= PULL {
                both += 1;
                worst_min = worst_min.max(f32::min(l, r));
            }
        }
        let pct = 100.0 * both as f64 / w.vertices.len() as f64;
        if pct > worst_part.0 || worst_part.1.is_empty() {
            worst_part = (
                pct,
                format!(
                    "part {:?}: {both} of {} vertices pulled by both legs (worst {:.0}/{:.0})",
                    p.name,
                    w.vertices.len(),
                    100.0 * (1.0 - worst_min),
                    100.0 * worst_min
                ),
            );
        }
    }
    Check::new("parts.joined_garment", "C", Severity::Major)
        .title("No vertex is pulled by both legs (joined body and garment)")
        .measure("% of a part's vertices")
        .at_most(worst_part.0, 5.0)
        .detail(if worst_part.1.is_empty() {
            "no skinned part".to_string()
        } else {
            worst_part.1
        })
}

fn first_few(v: &[String]) -> String {
    let mut s = v.iter().take(5).cloned().collect::<Vec<_>>().join("; ");
    if v.len() > 5 {
        s.push_str(&format!("; and {} more", v.len() - 5));
    }
    s
}
