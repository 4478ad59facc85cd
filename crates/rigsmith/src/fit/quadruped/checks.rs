//! Placement checks of a quadruped skeleton, as data: [`RULES`] is the table, and
//! [`quadruped_checks`] the one function that evaluates it. Bones are found by the
//! template's names ([`super::template`]); a rule whose bones are missing is not
//! emitted. The forward direction is read from the skeleton (spine to head).
//!
//! | id | measure | limit | severity |
//! |---|---|---|---|
//! | `quad.inside` | deform bones whose middle lies outside the body | at most 0 | major |
//! | `quad.legs` | leg chains with all their deform bones (hind: thigh, shin, foot; front: upper arm, forearm, hand), or read from the structure ([`crate::pose::quadruped::QuadRoles`]) | at least 4 | blocker |
//! | `quad.knee_bend.L` / `.R` | hind knee bend toward the front, deg | at least 1 | major |
//! | `quad.hock_bend.L` / `.R` | hock bend toward the back, deg | at least 1 | major |
//! | `quad.elbow_bend.L` / `.R` | front elbow bend toward the back, deg | at least 1 | major |
//! | `quad.feet_on_floor` | largest height of a toe or finger bone's tail above the floor, % H | at most 8 | major |
//! | `quad.symmetry` | largest left/right mirror mismatch of heads and tails, % H | at most 1 | major |
//! | `quad.tail` (when there is a tail) | tail bones | at least 3 | minor |

use glam::Vec3;

use super::landmarks::bend_toward;
use crate::fit::sections::bounds;
use crate::fit::solid::Solid;
use crate::model::{Mesh, Skeleton};
use crate::report::{Check, Limit, Severity};

/// What a rule measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// Deform bones whose middle lies outside the body.
    Inside,
    /// Complete leg chains.
    Legs,
    /// The bend at the joint between bones `upper` and `lower` (side suffix added),
    /// toward the front (`front`) or the back.
    Bend {
        /// The upper bone's name without side.
        upper: &'static str,
        /// The lower bone's name without side.
        lower: &'static str,
        /// Whether the joint should bend toward the front.
        front: bool,
    },
    /// Toe and finger tails' height above the floor.
    OnFloor,
    /// Left/right mirror mismatch.
    Symmetry,
    /// Tail bone count.
    Tail,
}

/// One placement rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// Check id (`.L` / `.R` added for per-side bends).
    pub id: &'static str,
    /// Short title.
    pub title: &'static str,
    /// What the value measures, with its unit.
    pub measure: &'static str,
    /// The limit.
    pub limit: Limit,
    /// Severity when it fails.
    pub severity: Severity,
    /// What is measured.
    pub test: Test,
}

/// The quadruped placement rules (see the module docs).
pub const RULES: &[Rule] = &[
    Rule {
        id: "quad.inside",
        title: "bones inside the body",
        measure: "bones whose middle lies outside the body",
        limit: Limit::AtMost(0.0),
        severity: Severity::Major,
        test: Test::Inside,
    },
    Rule {
        id: "quad.legs",
        title: "four leg chains",
        measure: "complete leg chains",
        limit: Limit::AtLeast(4.0),
        severity: Severity::Blocker,
        test: Test::Legs,
    },
    Rule {
        id: "quad.knee_bend",
        title: "hind knee bends forward",
        measure: "bend toward the front, deg",
        limit: Limit::AtLeast(1.0),
        severity: Severity::Major,
        test: Test::Bend {
            upper: "thigh",
            lower: "shin",
            front: true,
        },
    },
    Rule {
        id: "quad.hock_bend",
        title: "hock bends back",
        measure: "bend toward the back, deg",
        limit: Limit::AtLeast(1.0),
        severity: Severity::Major,
        test: Test::Bend {
            upper: "shin",
            lower: "foot",
            front: false,
        },
    },
    Rule {
        id: "quad.elbow_bend",
        title: "front elbow bends back",
        measure: "bend toward the back, deg",
        limit: Limit::AtLeast(1.0),
        severity: Severity::Major,
        test: Test::Bend {
            upper: "upper_arm",
            lower: "forearm",
            front: false,
        },
    },
    Rule {
        id: "quad.feet_on_floor",
        title: "feet reach the floor",
        measure: "largest toe tail height above the floor, % of height",
        limit: Limit::AtMost(8.0),
        severity: Severity::Major,
        test: Test::OnFloor,
    },
    Rule {
        id: "quad.symmetry",
        title: "left and right mirror",
        measure: "largest mirror mismatch, % of height",
        limit: Limit::AtMost(1.0),
        severity: Severity::Major,
        test: Test::Symmetry,
    },
    Rule {
        id: "quad.tail",
        title: "tail chain",
        measure: "tail bones",
        limit: Limit::AtLeast(3.0),
        severity: Severity::Minor,
        test: Test::Tail,
    },
];

const TOES: [&str; 4] = ["toe", "hoof", "finger", "hoof_front"];

/// Evaluates [`RULES`] on skeleton `s` against `body`.
pub fn quadruped_checks(s: &Skeleton, body: &Mesh) -> Vec<Check> {
    let solid = (!body.triangles.is_empty()).then(|| Solid::new(body));
    quadruped_checks_with(s, body, solid.as_ref())
}

pub(crate) fn quadruped_checks_with(
    s: &Skeleton,
    body: &Mesh,
    solid: Option<&Solid>,
) -> Vec<Check> {
    let m = Measured::of(s, body, solid);
    let mut out = Vec::new();
    for r in RULES {
        let mk = |id: String, (detail, v): (String, f64)| {
            Check::new(id, "A", r.severity)
                .title(r.title)
                .measure(r.measure)
                .detail(detail)
                .judge(v, r.limit)
        };
        match r.test {
            Test::Bend {
                upper,
                lower,
                front,
            } => {
                for (side, d) in m.bends(upper, lower, front) {
                    out.push(mk(format!("{}.{side}", r.id), d));
                }
            }
            t => {
                if let Some(d) = m.single(t) {
                    out.push(mk(r.id.into(), d));
                }
            }
        }
    }
    out
}

/// What the rules read: the skeleton, the body's solid, floor, height, centre plane
/// and the facing.
struct Measured<'a> {
    s: &'a Skeleton,
    solid: Option<&'a Solid>,
    floor: f32,
    h: f32,
    cx: f32,
    forward: Vec3,
}

impl<'a> Measured<'a> {
    fn of(s: &'a Skeleton, body: &Mesh, solid: Option<&'a Solid>) -> Measured<'a> {
        let (lo, hi) = bounds(&body.positions);
        let bone = |n: &str| s.find(n).map(|i| &s.bones[i]);
        let forward = match (bone("spine"), bone("head")) {
            (Some(a), Some(b)) if b.tail.z < a.head.z => -Vec3::Z,
            _ => Vec3::Z,
        };
        Measured {
            s,
            solid,
            floor: lo.y,
            h: (hi.y - lo.y).max(1e-9),
            cx: 0.5 * (lo.x + hi.x),
            forward,
        }
    }

    fn bone(&self, n: &str) -> Option<&'a crate::model::Bone> {
        self.s.find(n).map(|i| &self.s.bones[i])
    }

    /// A rule's detail and value; `None` when it does not apply (no solid, no toes, no
    /// tail). [`Test::Bend`] is [`Measured::bends`].
    fn single(&self, t: Test) -> Option<(String, f64)> {
        match t {
            Test::Inside => self.inside(),
            Test::Legs => Some(self.legs()),
            Test::OnFloor => self.on_floor(),
            Test::Symmetry => Some(self.symmetry()),
            Test::Tail => self.tail(),
            Test::Bend { .. } => None,
        }
    }

    fn inside(&self) -> Option<(String, f64)> {
        let solid = self.solid?;
        let out_names: Vec<&str> = self
            .s
            .bones
            .iter()
            .filter(|b| b.deform && !solid.contains(b.middle()))
            .map(|b| b.name.as_str())
            .collect();
        Some((
            if out_names.is_empty() {
                "every deform bone's middle is inside".to_string()
            } else {
                format!("outside: {}", out_names.join(", "))
            },
            out_names.len() as f64,
        ))
    }

    fn legs(&self) -> (String, f64) {
        let mut n = 0;
        for side in ["L", "R"] {
            for chain in [["thigh", "shin", "foot"], ["upper_arm", "forearm", "hand"]] {
                if chain
                    .iter()
                    .all(|b| self.bone(&format!("{b}.{side}")).is_some_and(|b| b.deform))
                {
                    n += 1;
                }
            }
        }
        // An artist's rig with its own names: the legs read from its structure.
        let by_structure =
            crate::pose::quadruped::QuadRoles::of(self.s).map_or(0, |q| q.legs.len());
        let n = n.max(by_structure);
        (format!("{n} of 4 leg chains complete"), n as f64)
    }

    /// Per side with both bones: the bend of `upper` -> `lower` toward the front (or
    /// the back).
    fn bends(&self, upper: &str, lower: &str, front: bool) -> Vec<(&'static str, (String, f64))> {
        let mut out = Vec::new();
        for side in ["L", "R"] {
            let (Some(a), Some(b)) = (
                self.bone(&format!("{upper}.{side}")),
                self.bone(&format!("{lower}.{side}")),
            ) else {
                continue;
            };
            let dir = if front { self.forward } else { -self.forward };
            let deg = bend_toward(a.head, a.tail, b.tail, dir);
            out.push((
                side,
                (
                    format!("{upper}.{side} -> {lower}.{side}: {deg:.1} deg"),
                    deg as f64,
                ),
            ));
        }
        out
    }

    fn on_floor(&self) -> Option<(String, f64)> {
        let tips: Vec<(&str, f32)> = self
            .s
            .bones
            .iter()
            .filter(|b| {
                let stem = b.name.trim_end_matches(".L").trim_end_matches(".R");
                TOES.contains(&stem)
            })
            .map(|b| (b.name.as_str(), 100.0 * (b.tail.y - self.floor) / self.h))
            .collect();
        let worst = tips.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((
            format!("highest: {} at {:.2}% H", worst.0, worst.1),
            worst.1 as f64,
        ))
    }

    fn symmetry(&self) -> (String, f64) {
        let mut worst = (0.0f32, String::new());
        let mut pairs = 0;
        let mir = |p: Vec3| Vec3::new(2.0 * self.cx - p.x, p.y, p.z);
        for b in &self.s.bones {
            let Some(stem) = b.name.strip_suffix(".L") else {
                continue;
            };
            let Some(m) = self.bone(&format!("{stem}.R")) else {
                continue;
            };
            pairs += 1;
            let d = (mir(b.head) - m.head)
                .length()
                .max((mir(b.tail) - m.tail).length());
            if d > worst.0 || worst.1.is_empty() {
                worst = (d, stem.to_string());
            }
        }
        let v = 100.0 * worst.0 / self.h;
        (
            if pairs == 0 {
                "no paired bones".to_string()
            } else {
                format!("{pairs} pairs; worst: {} ({v:.2}% H)", worst.1)
            },
            v as f64,
        )
    }

    fn tail(&self) -> Option<(String, f64)> {
        let n = self
            .s
            .bones
            .iter()
            .filter(|b| b.name == "tail" || b.name.starts_with("tail."))
            .count();
        (n > 0).then(|| (format!("{n} tail bones"), n as f64))
    }
}
