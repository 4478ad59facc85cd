//! The report's interactive 3D viewer: one `<section>` of HTML that carries the rigged
//! character, the poses the review measured and three.js, and works offline from a
//! `file://` URL (no network, no module imports).
//!
//! [`viewer_section`] writes:
//! * the page data as JSON (`<script type="application/json">`): per model its bones
//!   (name, parent, head, tail, deform, side, rest matrix), its parts, its poses (the
//!   bone rotations and translations of every pose of the library, exactly the
//!   [`Pose`](rigsmith::pose::Pose) the review measured), the failed checks with the pose
//!   and joint they name and the offending vertices, and the motion frames `simulate`
//!   computed when there are some;
//! * the rigged GLB of each model (base64): the bytes `rig` wrote, or the character
//!   written by rigsmith's glTF writer; the page builds every part's geometry from its
//!   accessors (positions, normals, triangles, joints, weights: f32, as in the file);
//! * one binary buffer (base64) with the motion frames as f32 skinning matrices;
//! * three.js (a pinned, minified build vendored by `scripts/vendor-three.sh`, licence in
//!   `assets/three.LICENSE`) and the viewer script (`assets/viewer.js`).
//!
//! The viewer poses the rig with the review's own forward kinematics (the formula of
//! [`rigsmith::pose::fk::world_matrices`], in double precision) and linear blend
//! skinning on the GPU (three.js `SkinnedMesh`): the GLB's `JOINTS_0` / `WEIGHTS_0`,
//! each vertex's four strongest influences (the writer sorts them strongest first). A
//! vertex with more than four is counted and the page says so. A character with no skeleton or no
//! weights is shown static, saying so; a browser without WebGL gets a line saying why
//! the viewer is off, and the rest of the page is unchanged.
//!
//! Space is glTF's: metres, +Y up, the character faces +Z, its left side is +X.

use std::collections::BTreeSet;

use glam::{Mat4, Vec3};
use rigsmith::control::sweep::ControlSweep;
use rigsmith::humanoid::{Role, Roles};
use rigsmith::model::naming::Side;
use rigsmith::model::Character;
use rigsmith::parts::SimFrame;
use rigsmith::pose::NamedPose;
use rigsmith::review::leak::LEAK_MAX_H;
use rigsmith::review::strain::STRAIN_RANGE;
use rigsmith::review::{posed_character, CheckReport, Skinning};
use serde_json::{json, Value};

/// The pinned three.js build (see `scripts/vendor-three.sh`).
pub const THREE_JS: &str = include_str!("../assets/three.min.js");
/// The three.js version vendored.
pub const THREE_VERSION: &str = include_str!("../assets/three.VERSION");
/// The viewer script.
const VIEWER_JS: &str = include_str!("../assets/viewer.js");

/// At most this many offending vertices are highlighted per check (the worst region
/// shows long before).
pub const MAX_MARKED: usize = 5000;

/// One character in the viewer: what it is called, the character and the poses to
/// offer (named; the second model of a comparison takes the pose of the same name).
#[derive(Debug, Clone)]
pub struct ViewerModel<'a> {
    /// A short label (`rigged.glb`).
    pub label: String,
    /// The character.
    pub character: &'a Character,
    /// The poses, in the order of the list.
    pub poses: &'a [NamedPose],
    /// The character's GLB as written (`rig` passes the rigged file's bytes); `None`:
    /// the viewer writes it from `character` with rigsmith's glTF writer. The page
    /// builds its geometry from these bytes.
    pub glb: Option<&'a [u8]>,
}

/// Motion frames to play (from `simulate`): every frame's skinning matrices, one per
/// bone of the first model's skeleton.
#[derive(Debug, Clone)]
pub struct ViewerMotion<'a> {
    /// What the motion is (`walk`).
    pub label: String,
    /// The frames, evenly spaced in time.
    pub frames: &'a [SimFrame],
}

/// Everything the viewer shows.
#[derive(Debug, Clone)]
pub struct Viewer<'a> {
    /// The character reviewed.
    pub model: ViewerModel<'a>,
    /// Its check report: failed checks become links to their pose and joint.
    pub report: Option<&'a CheckReport>,
    /// The skinning the review measured with (the viewer skins with LBS and says so
    /// when the review used DQS).
    pub skinning: Skinning,
    /// A second character shown beside it, in the same pose and camera, with the
    /// per-vertex distance as colour (`check A --compare B`).
    pub compare: Option<ViewerModel<'a>>,
    /// Motion frames to play.
    pub motion: Option<ViewerMotion<'a>>,
    /// The control rig's controls (an FK/IK switch, a foot roll), each sampled at slider
    /// steps by the control rig's evaluator as poses of the first model's skeleton
    /// ([`rigsmith::control::sweep`]): the viewer gives each a slider and interpolates
    /// between the steps. Empty: the panel says the file carries no control rig.
    pub controls: &'a [ControlSweep],
}

/// The binary buffer being filled: 4-byte aligned chunks.
struct Blob(Vec<u8>);

impl Blob {
    fn push(&mut self, bytes: &[u8]) -> Value {
        while self.0.len() % 4 != 0 {
            self.0.push(0);
        }
        let at = self.0.len();
        self.0.extend_from_slice(bytes);
        json!(at)
    }

    fn f32s(&mut self, v: &[f32]) -> Value {
        self.push(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
    }
}

fn v3(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

/// The GLB the page carries for `m`: the bytes given (the file the rig wrote), else the
/// character written by rigsmith's glTF writer with its defaults (every part one mesh
/// with one primitive, in the character's order; each vertex's 4 strongest influences,
/// renormalized, as a game engine limited to 4 plays the file).
fn model_glb(m: &ViewerModel) -> Result<Vec<u8>, String> {
    if let Some(b) = m.glb {
        return Ok(b.to_vec());
    }
    rigsmith::io::gltf::write_glb_bytes(m.character, &Default::default()).map_err(|e| e.to_string())
}

/// How many vertices of `c` carry more than four influences (on bones of the skeleton).
fn count_over4(c: &Character, nb: usize) -> usize {
    c.parts
        .iter()
        .filter_map(|p| p.weights.as_ref())
        .flat_map(|w| &w.vertices)
        .filter(|list| {
            list.iter()
                .filter(|i| (i.bone as usize) < nb && i.weight.is_finite() && i.weight != 0.0)
                .count()
                > 4
        })
        .count()
}

/// The model's data (JSON) and its GLB (or why there is none). The page builds every
/// part's geometry (positions, normals, triangles, joints, weights) from the GLB's
/// accessors: mesh `i` of the GLB is part `i`.
fn model_json(m: &ViewerModel) -> (Value, Result<Vec<u8>, String>) {
    let c = m.character;
    let skel = c.skeleton.as_ref().filter(|s| !s.is_empty());
    let nb = skel.map_or(0, |s| s.len());
    let bones: Vec<Value> = skel
        .map(|s| {
            let rest = s.rest_matrices();
            s.bones
                .iter()
                .zip(&rest)
                .map(|(b, r)| {
                    json!({
                        "name": b.name,
                        "parent": b.parent,
                        "head": v3(b.head),
                        "tail": v3(b.tail),
                        "deform": b.deform,
                        "side": b.side.letter(),
                        "rest": r.to_cols_array().to_vec(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let over4 = count_over4(c, nb);
    let parts: Vec<Value> = c
        .parts
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "vertices": p.mesh.positions.len(),
                "triangles": p.mesh.triangles.len(),
                "skinned": p.weights.is_some() && nb > 0,
            })
        })
        .collect();
    let poses: Vec<Value> = m.poses.iter().map(|np| pose_json(np, nb)).collect();
    let skinned = nb > 0 && c.parts.iter().any(|p| p.weights.is_some());
    let glb = model_glb(m);
    let data = json!({
        "label": m.label,
        "bones": bones,
        "parts": parts,
        "poses": poses,
        "skinned": skinned,
        "over4": over4,
        "glb_error": glb.as_ref().err(),
    });
    (data, glb)
}

/// A pose as the page carries it: its name, the `[bone, qx, qy, qz, qw, tx, ty, tz]` of
/// every bone it moves (of the first `nb`), the joints it measures, the bone framed.
fn pose_json(np: &NamedPose, nb: usize) -> Value {
    json!({
        "name": np.name,
        "bones": pose_bones(&np.pose, nb),
        "joints": np.tests.iter().map(|t| t.joint.clone()).collect::<Vec<_>>(),
        "focus": first_moved(np, nb),
    })
}

/// A control as the page carries it: its name, what it does, the slider's values and
/// default, the bones of the pose at each step (as [`pose_json`]) and the bone to look
/// at.
fn control_json(c: &ControlSweep, nb: usize) -> Value {
    json!({
        "name": c.name,
        "what": c.what,
        "values": c.values,
        "default": c.default,
        "steps": c.poses.iter().map(|p| pose_bones(p, nb)).collect::<Vec<_>>(),
        "focus": (c.focus < nb).then_some(c.focus),
    })
}

/// The `[bone, qx, qy, qz, qw, tx, ty, tz]` of every bone `pose` moves (of the first `nb`).
fn pose_bones(pose: &rigsmith::pose::Pose, nb: usize) -> Vec<Value> {
    let mut set = Vec::new();
    for (i, (q, t)) in pose
        .rotations
        .iter()
        .zip(&pose.translations)
        .enumerate()
        .take(nb)
    {
        let q = q.normalize();
        let rest =
            q.abs_diff_eq(glam::Quat::IDENTITY, 1e-9) || q.abs_diff_eq(-glam::Quat::IDENTITY, 1e-9);
        if !rest || t.length_squared() > 0.0 {
            set.push(json!([i, q.x, q.y, q.z, q.w, t.x, t.y, t.z]));
        }
    }
    set
}

/// The first bone (parents first) a pose moves: the joint the camera frames.
fn first_moved(np: &NamedPose, nb: usize) -> Option<usize> {
    (0..nb.min(np.pose.rotations.len())).find(|&i| {
        let q = np.pose.rotations[i];
        !(q.abs_diff_eq(glam::Quat::IDENTITY, 1e-6) || q.abs_diff_eq(-glam::Quat::IDENTITY, 1e-6))
    })
}

/// The pose a check id names (`deform.elbow_120.L.band` -> `elbow_120.L`): the longest
/// pose name `n` with the id starting `deform.n.`.
fn pose_of<'p>(id: &str, poses: &'p [NamedPose]) -> Option<&'p NamedPose> {
    poses
        .iter()
        .filter(|p| id.starts_with(&format!("deform.{}.", p.name)))
        .max_by_key(|p| p.name.len())
}

/// Unique edges of a triangle list.
fn edges(tris: &[[u32; 3]]) -> BTreeSet<(u32, u32)> {
    let mut e = BTreeSet::new();
    for t in tris {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            e.insert((a.min(b), a.max(b)));
        }
    }
    e
}

/// One failed check as the viewer links it: the pose (if it names one), the joint or
/// bone the camera frames (centre, radius, metres) and the offending vertices as
/// `[part, vertex]` pairs, found by the check's own measure:
/// * `deform.P.strain`: both ends of every edge stretched or shrunk out of
///   [`STRAIN_RANGE`];
/// * `deform.P.leak`: vertices beyond 0.02 H on the side the pose does not move that
///   move more than [`LEAK_MAX_H`];
/// * `deform.P.band` / `.bulge`: the flesh of the flagged joint (skinned vertices within
///   1.5 limb radii of the posed joint centre);
/// * `deform.P.self_intersections` / `.collar_chin`: the vertices of the skin triangles
///   in new intersecting pairs (at the collar and the chin: the pairs near the neck),
///   and `deform.P.penetration.PART`: the garment's vertices newly inside the body
///   ([`rigsmith::review::findings::offending_vertices`]);
/// * other `deform.P.*`: the pose and its joint, no vertices;
/// * any other check: the first bone its detail names, framed at rest.
fn check_links(c: &Character, r: &CheckReport, skinning: Skinning) -> Vec<Value> {
    let Some(s) = c.skeleton.as_ref().filter(|s| !s.is_empty()) else {
        return Vec::new();
    };
    let (lo, hi) = c.bounds();
    let h = (hi.y - lo.y).max(1e-9);
    let rig = Roles::of_character(c).unwrap_or_default();
    let mid_x = rig
        .get(Role::Pelvis)
        .map_or(0.5 * (lo.x + hi.x), |p| s.bones[p].head.x);
    let mut out = Vec::new();
    let mut posed_cache: Vec<crate::PoseRow> = Vec::new();
    let findings = rigsmith::review::findings::Findings::new(c);
    for k in r.checks.iter().filter(|k| !k.passed) {
        let mut link = json!({"id": k.id});
        if let Some(np) = pose_of(&k.id, &r.poses) {
            let kind = &k.id[format!("deform.{}.", np.name).len()..];
            if !posed_cache.iter().any(|p| p.0 == np.name) {
                let (parts, bones) = posed_character(c, np, skinning);
                posed_cache.push((np.name.clone(), parts, bones));
            }
            let (_, posed, bones) = posed_cache
                .iter()
                .find(|p| p.0 == np.name)
                .expect("cached above");
            link["pose"] = json!(np.name);
            let flagged = r.flagged_joints.iter().find(|f| f.pose == np.name);
            let (centre, radius, joint) = match (flagged, first_moved(np, s.len())) {
                (Some(f), _) => (f.centre, f.radius, f.joint.clone()),
                (None, Some(b)) => (
                    bones[b].0,
                    0.08 * h,
                    np.tests
                        .first()
                        .map_or(s.bones[b].name.clone(), |t| t.joint.clone()),
                ),
                (None, None) => (0.5 * (lo + hi), 0.5 * h, String::new()),
            };
            link["joint"] = json!(joint);
            link["centre"] = v3(centre);
            link["radius"] = json!(radius);
            let mut marked: Vec<[usize; 2]> = Vec::new();
            if kind == "self_intersections"
                || kind == "collar_chin"
                || kind.starts_with("penetration.")
            {
                marked.extend(
                    findings
                        .offending_vertices(np, kind, skinning)
                        .into_iter()
                        .map(|(p, v)| [p, v]),
                );
            }
            for (pi, p) in c.parts.iter().enumerate() {
                let rest = &p.mesh.positions;
                let now = &posed[pi];
                match kind {
                    "strain" => {
                        let mut set = BTreeSet::new();
                        for (a, b) in edges(&p.mesh.triangles) {
                            let (a, b) = (a as usize, b as usize);
                            let l0 = (rest[a] - rest[b]).length();
                            if l0 <= 1e-12 {
                                continue;
                            }
                            let x = (now[a] - now[b]).length() / l0;
                            if x < STRAIN_RANGE.0 || x > STRAIN_RANGE.1 {
                                set.insert(a);
                                set.insert(b);
                            }
                        }
                        marked.extend(set.into_iter().map(|v| [pi, v]));
                    }
                    "leak" => {
                        let sgn = match np.side {
                            Side::Left => 1.0,
                            Side::Right => -1.0,
                            Side::Center => 0.0,
                        };
                        for (v, (a, b)) in rest.iter().zip(now).enumerate() {
                            if sgn != 0.0
                                && (a.x - mid_x) * sgn < -0.02 * h
                                && (*b - *a).length() / h > LEAK_MAX_H
                            {
                                marked.push([pi, v]);
                            }
                        }
                    }
                    "band" | "bulge" if p.weights.is_some() => {
                        for (v, q) in now.iter().enumerate() {
                            if (*q - centre).length() <= 1.5 * radius {
                                marked.push([pi, v]);
                            }
                        }
                    }
                    _ => {}
                }
            }
            link["marked_total"] = json!(marked.len());
            marked.truncate(MAX_MARKED);
            link["marked"] = json!(marked);
        } else if let Some(b) = named_bone(s, &format!("{} {}", k.id, k.detail)) {
            let bone = &s.bones[b];
            link["joint"] = json!(bone.name);
            link["centre"] = v3(bone.head);
            link["radius"] = json!(((bone.tail - bone.head).length()).max(0.04 * h));
        }
        out.push(link);
    }
    out
}

/// The bone whose name appears in `text` as a whole word (the longest such name).
fn named_bone(s: &rigsmith::model::Skeleton, text: &str) -> Option<usize> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == ':' || c == '-';
    let words: BTreeSet<&str> = text
        .split(|c: char| !word(c))
        .flat_map(|w| [w, w.trim_end_matches(['.', ':'])])
        .collect();
    (0..s.len())
        .filter(|&i| words.contains(s.bones[i].name.as_str()))
        .max_by_key(|&i| s.bones[i].name.len())
}

/// The viewer's data: the JSON, the binary buffer it points into (motion frames) and
/// each model's GLB (empty when it could not be written: the JSON's `glb_error` says
/// why).
pub fn viewer_data(v: &Viewer) -> (Value, Vec<u8>, Vec<Vec<u8>>) {
    let mut blob = Blob(Vec::new());
    let (mut models, mut glbs) = (Vec::new(), Vec::new());
    for m in std::iter::once(&v.model).chain(v.compare.as_ref()) {
        let (j, g) = model_json(m);
        models.push(j);
        glbs.push(g.unwrap_or_default());
    }
    let c = v.model.character;
    let (lo, hi) = c.bounds();
    let checks = v
        .report
        .map(|r| check_links(c, r, v.skinning))
        .unwrap_or_default();
    let motion = v.motion.as_ref().and_then(|m| {
        let nb = c.skeleton.as_ref().map_or(0, |s| s.len());
        if m.frames.is_empty() || nb == 0 || m.frames.iter().any(|f| f.skin.len() != nb) {
            return None;
        }
        let data: Vec<f32> = m
            .frames
            .iter()
            .flat_map(|f| f.skin.iter().flat_map(Mat4::to_cols_array))
            .collect();
        let times: Vec<f32> = m.frames.iter().map(|f| f.time).collect();
        Some(json!({
            "label": m.label,
            "frames": m.frames.len(),
            "times": times,
            "skin": blob.f32s(&data),
        }))
    });
    let nb = c.skeleton.as_ref().map_or(0, |s| s.len());
    let controls: Vec<Value> = v.controls.iter().map(|c| control_json(c, nb)).collect();
    let data = json!({
        "format": 1,
        "controls": controls,
        "three": THREE_VERSION.trim(),
        "height": hi.y - lo.y,
        "skinning": match v.skinning { Skinning::Lbs => "lbs", Skinning::Dqs => "dqs" },
        "models": models,
        "checks": checks,
        "motion": motion,
    });
    (data, blob.0, glbs)
}

/// JSON safe inside a `<script>` element (no `</`, no `<!--`).
fn script_json(v: &Value) -> String {
    serde_json::to_string(v)
        .expect("viewer data is plain JSON")
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}

/// The viewer as one `<section id="viewer">` of self-contained HTML (style, data,
/// three.js and the viewer script inline).
pub fn viewer_section(v: &Viewer) -> String {
    let (data, blob, glbs) = viewer_data(v);
    let mut h = String::new();
    h.push_str(VIEWER_HTML);
    h.push_str("<script type=\"application/json\" id=\"rs-viewer-data\">");
    h.push_str(&script_json(&data));
    h.push_str("</script>\n<script type=\"application/octet-stream\" id=\"rs-viewer-bin\">");
    h.push_str(&rigsmith::review::html::base64(&blob));
    for (k, g) in glbs.iter().enumerate() {
        h.push_str(&format!(
            "</script>\n<script type=\"model/gltf-binary\" id=\"rs-viewer-glb-{k}\">"
        ));
        h.push_str(&rigsmith::review::html::base64(g));
    }
    h.push_str("</script>\n<script>\n");
    h.push_str(THREE_JS);
    h.push_str("\n</script>\n<script>\n");
    h.push_str(VIEWER_JS);
    h.push_str("\n</script>\n</section>\n");
    h
}

/// A page holding only the viewer, titled `title` (for `simulate --report`).
pub fn viewer_page(title: &str, v: &Viewer) -> String {
    let t = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{t}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:16px 24px;color:#222;background:#fafafa}}h1{{font-size:22px}}h2{{font-size:17px}}</style></head><body>\n<h1>{t}</h1>\n{}</body></html>\n",
        viewer_section(v)
    )
}

/// The viewer's markup and style (before its data and scripts).
const VIEWER_HTML: &str = r#"<section id="viewer">
<h2>Viewer</h2>
<style>
#viewer .vwrap{display:flex;gap:10px;align-items:flex-start;flex-wrap:wrap}
#viewer .vcanvas{position:relative;width:760px;height:560px;border:1px solid #ccc;background:#30343a}
#viewer canvas{display:block}
#viewer .vside{font-size:13px;width:300px;max-height:560px;overflow:auto}
#viewer .vside h3{font-size:13px;margin:8px 0 3px 0}
#viewer .vbar{font-size:13px;margin:4px 0}
#viewer .vbar button,#viewer .vside button{font-size:12px;margin:1px 2px 1px 0}
#viewer ul.vposes{list-style:none;margin:0;padding:0;columns:2}
#viewer ul.vposes li button{width:100%;text-align:left}
#viewer button.on{background:#1f4e8c;color:#fff}
#viewer .vnote{font-size:13px;color:#8a4b00;margin:4px 0}
#viewer .vinfo{font-size:12px;white-space:pre-wrap;font-family:ui-monospace,monospace;margin:4px 0}
#viewer .vlabel{position:absolute;top:4px;color:#eee;font-size:12px;pointer-events:none}
#viewer .vlegend{font-size:12px}
</style>
<p class="vnote" id="rs-viewer-off" hidden></p>
<div class="vbar" id="rs-viewer-bar"></div>
<div class="vwrap"><div class="vcanvas" id="rs-viewer-canvas"></div><div class="vside" id="rs-viewer-side"></div></div>
<p class="vinfo" id="rs-viewer-info"></p>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    /// A tube of two bones (upper arm, forearm along +X), skinned rigidly to the
    /// forearm beyond x = 1, and an unskinned cap.
    fn arm() -> Character {
        use rigsmith::model::{Bone, Influence, Mesh, Part, Skeleton, Weights};
        let s = Skeleton {
            bones: vec![
                Bone::new("upperarm_l", None, Vec3::ZERO, Vec3::X),
                Bone::new("lowerarm_l", Some(0), Vec3::X, Vec3::new(2.0, 0.0, 0.0)),
            ],
        };
        let positions: Vec<Vec3> = (0..6)
            .map(|i| Vec3::new(0.4 * i as f32, 0.1 * (i % 2) as f32, 0.0))
            .collect();
        let weights = Weights {
            vertices: positions
                .iter()
                .map(|p| {
                    vec![Influence {
                        bone: u32::from(p.x > 1.0),
                        weight: 1.0,
                    }]
                })
                .collect(),
        };
        let tube = Part {
            name: "arm".into(),
            mesh: Mesh {
                positions,
                triangles: vec![[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4]],
                ..Default::default()
            },
            weights: Some(weights),
            ..Default::default()
        };
        let cap = Part {
            name: "cap".into(),
            mesh: Mesh {
                positions: vec![Vec3::ZERO, Vec3::Y, Vec3::Z],
                triangles: vec![[0, 1, 2]],
                ..Default::default()
            },
            ..Default::default()
        };
        Character {
            parts: vec![tube, cap],
            skeleton: Some(s),
            ..Default::default()
        }
    }

    /// The viewer of `c` labelled `arm`, with `poses`, no report, comparison or motion.
    fn plain<'a>(c: &'a Character, poses: &'a [NamedPose]) -> Viewer<'a> {
        Viewer {
            model: ViewerModel {
                label: "arm".into(),
                character: c,
                poses,
                glb: None,
            },
            report: None,
            skinning: Skinning::Lbs,
            compare: None,
            motion: None,
            controls: &[],
        }
    }

    #[test]
    fn the_page_data_carries_the_poses_rotations_and_which_parts_are_skinned() {
        use rigsmith::pose::{ops, Pose};
        let c = arm();
        let s = c.skeleton.as_ref().unwrap();
        let mut pose = Pose::rest(s);
        ops::rotate_world(s, &mut pose, 1, Vec3::Z, 90.0);
        let poses = vec![NamedPose {
            name: "elbow_90.L".into(),
            pose: pose.clone(),
            side: Side::Left,
            tests: Vec::new(),
            planted: Vec::new(),
        }];
        let v = plain(&c, &poses);
        let (d, _, glbs) = viewer_data(&v);
        let m = &d["models"][0];
        assert_eq!(m["skinned"], true);
        assert_eq!(m["parts"][0]["skinned"], true);
        assert_eq!(m["parts"][1]["skinned"], false, "the cap is static");
        // Only the moved bone is listed, with the review's own quaternion.
        let set = m["poses"][0]["bones"].as_array().unwrap();
        assert_eq!(set.len(), 1);
        let q = pose.rotations[1];
        assert_eq!(set[0][0], 1);
        for (k, want) in [q.x, q.y, q.z, q.w].into_iter().enumerate() {
            assert!((set[0][k + 1].as_f64().unwrap() as f32 - want).abs() < 1e-7);
        }
        assert_eq!(m["poses"][0]["focus"], 1);
        // The geometry travels as the character's GLB: read back, it is the character.
        let back = rigsmith::io::gltf::read_gltf_bytes(&glbs[0], std::path::Path::new("page.glb"))
            .unwrap();
        assert_eq!(back.parts.len(), 2);
        assert_eq!(back.parts[0].mesh.positions, c.parts[0].mesh.positions);
        assert_eq!(back.parts[0].mesh.triangles, c.parts[0].mesh.triangles);
        let w = &back.parts[0].weights.as_ref().unwrap().vertices[5];
        assert_eq!((w[0].bone, w[0].weight), (1, 1.0));
        assert!(back.parts[1].weights.is_none());
    }

    #[test]
    fn the_page_carries_the_glb_it_is_given_byte_for_byte() {
        let c = arm();
        let bytes = rigsmith::io::gltf::write_glb_bytes(&c, &Default::default()).unwrap();
        let mut v = plain(&c, &[]);
        v.model.glb = Some(&bytes);
        let html = viewer_section(&v);
        let at = html.find("id=\"rs-viewer-glb-0\">").unwrap() + "id=\"rs-viewer-glb-0\">".len();
        let end = at + html[at..].find("</script>").unwrap();
        assert_eq!(&html[at..end], rigsmith::review::html::base64(&bytes));
    }

    #[test]
    fn controls_travel_as_poses_at_slider_steps() {
        use rigsmith::pose::{ops, Pose};
        let c = arm();
        let s = c.skeleton.as_ref().unwrap();
        let mut pose = Pose::rest(s);
        ops::rotate_world(s, &mut pose, 1, Vec3::Z, 45.0);
        let controls = vec![ControlSweep {
            name: "arm_ik.L".into(),
            what: "switch".into(),
            values: vec![0.0, 1.0],
            default: 0.0,
            poses: vec![Pose::rest(s), pose],
            focus: 1,
            side: Side::Left,
        }];
        let mut v = plain(&c, &[]);
        v.controls = &controls;
        let (d, _, _) = viewer_data(&v);
        let k = &d["controls"][0];
        assert_eq!(k["name"], "arm_ik.L");
        assert_eq!(k["values"], json!([0.0, 1.0]));
        assert_eq!(k["steps"][0], json!([]), "rest moves nothing");
        assert_eq!(k["steps"][1][0][0], 1);
        assert_eq!(k["focus"], 1);
        v.controls = &[];
        assert_eq!(viewer_data(&v).0["controls"], json!([]));
    }

    #[test]
    fn a_character_without_skeleton_is_marked_static() {
        let mut c = arm();
        c.skeleton = None;
        let v = plain(&c, &[]);
        let (d, _, _) = viewer_data(&v);
        assert_eq!(d["models"][0]["skinned"], false);
        assert_eq!(d["models"][0]["parts"][0]["skinned"], false);
        assert!(viewer_section(&v).contains("three.js 0.181.0"));
    }

    #[test]
    fn a_placement_check_links_to_the_bone_its_detail_names() {
        let c = arm();
        let s = c.skeleton.as_ref().unwrap();
        assert_eq!(named_bone(s, "lowerarm_l: head outside the limb"), Some(1));
        assert_eq!(named_bone(s, "elbow (lowerarm_l.) bends"), Some(1));
        assert_eq!(named_bone(s, "no bone here: upperarm_lx"), None);
    }

    #[test]
    fn script_json_never_closes_the_script() {
        let s = script_json(&json!({"a": "</script><!--"}));
        assert!(!s.contains("</") && !s.contains("<!--"));
    }
}
