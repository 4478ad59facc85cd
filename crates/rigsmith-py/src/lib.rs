//! Python bindings of rigsmith: the native module `rigsmith._rigsmith` under the Python
//! package `rigsmith` (`python/rigsmith`), which checks arrays, converts them and turns
//! the JSON these functions return into dicts.
//!
//! The interchange is deliberately plain: a character is a file path (read and brought
//! into glTF space as the CLI does: `--up y --units auto`) or a list of parts
//! `(name, vertices, faces)` with `vertices` the little-endian `f32` bytes of an n x 3
//! array (metres, glTF space) and `faces` the `u32` bytes of an m x 3 array. Weights come
//! back as `f32` bytes of a dense n x bones array; skeletons and reports as JSON text.
//! Every function releases the GIL while it works. A library error becomes
//! `rigsmith.InputError` (a `ValueError`; bad input) or `OSError` (a file could not be
//! read or written) with the library's message.

use std::path::PathBuf;

use glam::Vec3;
use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use rigsmith::error::ErrorKind;
use rigsmith::io::space::{to_gltf_space, Units, Up};
use rigsmith::model::{Mesh, Part};
use rigsmith::{Character, Skeleton};

create_exception!(
    _rigsmith,
    InputError,
    PyValueError,
    "Bad input: a malformed file, invalid data, or something a stage cannot work on."
);

fn py_err(e: rigsmith::Error) -> PyErr {
    match e.kind() {
        ErrorKind::Input => InputError::new_err(e.to_string()),
        ErrorKind::Io => PyOSError::new_err(e.to_string()),
    }
}

/// JSON text as the CLI prints it (through `serde_json::Value`, so `f32` numbers are
/// written as the CLI writes them).
fn json_text(v: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_value(v)
        .map(|v| v.to_string())
        .map_err(|e| PyValueError::new_err(format!("cannot serialize: {e}")))
}

/// Reads `character`, runs `f` on it (with its source) while the GIL is released, and
/// returns the result as JSON text.
fn json_of<T: serde::Serialize + Send>(
    py: Python<'_>,
    character: &Bound<'_, PyAny>,
    f: impl FnOnce(&Source, Character) -> Result<T, rigsmith::Error> + Send,
) -> PyResult<String> {
    let src = Source::extract(character)?;
    let r = py
        .allow_threads(|| src.character().and_then(|(c, _)| f(&src, c)))
        .map_err(py_err)?;
    json_text(&r)
}

/// The part roles told (as `--body`, `--garment` and `--rigid PART[=BONE]` are), given
/// to `c` after a name that is no part or material of it is refused.
fn tell(
    c: &mut Character,
    (body, garment, rigid): &(Vec<String>, Vec<String>, Vec<String>),
) -> Result<(), rigsmith::Error> {
    c.tell_roles(rigsmith::model::BodyOptions::told(
        body.clone(),
        garment.clone(),
        rigid,
    ))
}

/// A character given as a path or as parts `(name, vertices, faces)`.
enum Source {
    Path(PathBuf),
    Parts(Vec<(String, Vec<u8>, Vec<u8>)>),
}

impl Source {
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        if let Ok(p) = obj.extract::<PathBuf>() {
            return Ok(Source::Path(p));
        }
        obj.extract::<Vec<(String, Vec<u8>, Vec<u8>)>>()
            .map(Source::Parts)
            .map_err(|_| {
                PyValueError::new_err(
                    "character: expected a file path or a list of (name, vertices bytes, faces bytes)",
                )
            })
    }

    /// The character, in glTF space; the notes of the unit/axis conversion.
    fn character(&self) -> Result<(Character, Vec<String>), rigsmith::Error> {
        match self {
            Source::Path(p) => {
                let mut c = rigsmith::io::read_character(p)?;
                let notes = to_gltf_space(&mut c, Up::Y, Units::Auto);
                Ok((c, notes))
            }
            Source::Parts(parts) => {
                let mut c = Character::default();
                for (name, v, f) in parts {
                    c.parts.push(Part {
                        name: name.clone(),
                        mesh: mesh(v, f),
                        ..Default::default()
                    });
                }
                c.validate()?;
                Ok((c, Vec::new()))
            }
        }
    }
}

/// The naming scheme and the body plan a template name gives, as `--template` reads it:
/// `auto` (a biped with game names, or a quadruped, read from the sections), a biped
/// scheme (`game`, `basic`, `mixamo`, `vrm`), a quadruped build or `chain`.
fn template(name: &str) -> PyResult<(rigsmith::fit::Template, rigsmith::fit::quadruped::Plan)> {
    if let Some(plan) = rigsmith::fit::quadruped::Plan::parse(name) {
        return Ok((rigsmith::fit::Template::Game, plan));
    }
    rigsmith::fit::Template::parse(name)
        .map(|t| (t, rigsmith::fit::quadruped::Plan::Biped))
        .map_err(|_| {
            PyValueError::new_err(format!(
                "template: {name:?} is not one of auto, game, basic, mixamo, vrm, quadruped, horse, wolf, cat, chain"
            ))
        })
}

fn route(name: Option<&str>) -> PyResult<Option<rigsmith::bind::Route>> {
    use rigsmith::bind::Route;
    Ok(match name {
        None => None,
        Some("bone-heat" | "bone_heat") => Some(Route::BoneHeat),
        Some("volumetric") => Some(Route::Volumetric),
        Some("geodesic") => Some(Route::Geodesic),
        Some(o) => {
            return Err(PyValueError::new_err(format!(
                "route: {o:?} is not one of bone-heat, volumetric, geodesic"
            )))
        }
    })
}

/// A mesh of little-endian f32 positions (n x 3) and u32 triangles (m x 3).
fn mesh(vertices: &[u8], faces: &[u8]) -> Mesh {
    let triangles = faces
        .chunks_exact(12)
        .map(|b| {
            let x = |k: usize| u32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
            [x(0), x(4), x(8)]
        })
        .collect();
    Mesh {
        positions: points(vertices),
        triangles,
        ..Default::default()
    }
}

/// Little-endian f32 triples (n x 3 bytes) as points.
fn points(bytes: &[u8]) -> Vec<Vec3> {
    let f = |b: &[u8]| f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    bytes
        .chunks_exact(12)
        .map(|b| Vec3::new(f(&b[0..4]), f(&b[4..8]), f(&b[8..12])))
        .collect()
}

/// Dense n x `bones` little-endian f32 weights as sparse [`rigsmith::Weights`]
/// (zeros left out, sorted).
fn sparse(bytes: &[u8], n: usize, bones: usize) -> rigsmith::Weights {
    let mut w = rigsmith::Weights::empty(n);
    for (k, b) in bytes.chunks_exact(4).enumerate() {
        let x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if x != 0.0 {
            w.add(k / bones, (k % bones) as u32, x);
        }
    }
    w.sort();
    w
}

/// Dense weights of `n` vertices over `bones` bones as little-endian f32 bytes.
fn dense(w: Option<&rigsmith::Weights>, n: usize, bones: usize) -> Vec<u8> {
    let mut out = vec![0f32; n * bones];
    if let Some(w) = w {
        for (v, list) in w.vertices.iter().enumerate() {
            for i in list {
                out[v * bones + i.bone as usize] += i.weight;
            }
        }
    }
    out.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A character as a dict: `parts` (name, material, vertices, faces, weights bytes or
/// None), `skeleton` (skeleton.json text or None), `warnings`, `notes`.
fn character_dict<'py>(
    py: Python<'py>,
    c: &Character,
    notes: &[String],
) -> PyResult<Bound<'py, PyDict>> {
    let nb = c.skeleton.as_ref().map_or(0, Skeleton::len);
    let parts = PyList::empty(py);
    for p in &c.parts {
        let d = PyDict::new(py);
        d.set_item("name", &p.name)?;
        d.set_item("material", &p.material)?;
        let v: Vec<u8> = p
            .mesh
            .positions
            .iter()
            .flat_map(|q| q.to_array())
            .flat_map(f32::to_le_bytes)
            .collect();
        let f: Vec<u8> = p
            .mesh
            .triangles
            .iter()
            .flatten()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        d.set_item("vertices", PyBytes::new(py, &v))?;
        d.set_item("faces", PyBytes::new(py, &f))?;
        match &p.weights {
            Some(w) if nb > 0 => d.set_item(
                "weights",
                PyBytes::new(py, &dense(Some(w), p.mesh.positions.len(), nb)),
            )?,
            _ => d.set_item("weights", py.None())?,
        }
        parts.append(d)?;
    }
    let out = PyDict::new(py);
    out.set_item("parts", parts)?;
    out.set_item(
        "skeleton",
        c.skeleton
            .as_ref()
            .map(rigsmith::io::skeleton_json::to_string),
    )?;
    out.set_item("warnings", c.warnings.clone())?;
    out.set_item("notes", notes.to_vec())?;
    Ok(out)
}

/// Reads a character file (glb, gltf, vrm, obj, fbx) into glTF space.
#[pyfunction]
fn load<'py>(py: Python<'py>, character: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let src = Source::extract(character)?;
    let (c, notes) = py.allow_threads(|| src.character()).map_err(py_err)?;
    character_dict(py, &c, &notes)
}

/// `rigsmith inspect --json` as JSON text.
#[pyfunction]
fn inspect(py: Python<'_>, character: &Bound<'_, PyAny>) -> PyResult<String> {
    json_of(py, character, |_, c| Ok(rigsmith::inspect::inspect(&c)))
}

/// Fits a skeleton: JSON `{"skeleton": {...}, "checks": [...], "humanoid": {...}}`.
#[pyfunction]
#[pyo3(signature = (character, template="auto", twist=0, body=Vec::new(), garment=Vec::new(), rigid=Vec::new()))]
fn fit(
    py: Python<'_>,
    character: &Bound<'_, PyAny>,
    template: &str,
    twist: usize,
    body: Vec<String>,
    garment: Vec<String>,
    rigid: Vec<String>,
) -> PyResult<String> {
    let src = Source::extract(character)?;
    let (t, plan) = self::template(template)?;
    let roles = (body, garment, rigid);
    let planned = py
        .allow_threads(|| {
            let (mut c, _) = src.character()?;
            tell(&mut c, &roles)?;
            let o = rigsmith::fit::FitOptions {
                template: t,
                twist,
                ..Default::default()
            };
            rigsmith::fit::quadruped::fit_plan(&c, &o, plan)
        })
        .map_err(py_err)?;
    let r = &planned.fit;
    let skel: serde_json::Value =
        serde_json::from_str(&rigsmith::io::skeleton_json::to_string(&r.skeleton))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_text(&serde_json::json!({
        "skeleton": skel,
        "checks": r.checks,
        "humanoid": r.humanoid,
        "plan": planned.plan,
        "plan_why": planned.why,
    }))
}

/// Skin weights of a character on a skeleton (skeleton.json text): per part the dense
/// f32 bytes (n x bones, bones in the order of the parsed skeleton), the bone names,
/// and the weight report as JSON text.
#[pyfunction]
#[pyo3(signature = (character, skeleton, max_influences=4, route=None, body=Vec::new(), garment=Vec::new(), rigid=Vec::new()))]
fn weights(
    py: Python<'_>,
    character: &Bound<'_, PyAny>,
    skeleton: &str,
    max_influences: usize,
    route: Option<&str>,
    body: Vec<String>,
    garment: Vec<String>,
    rigid: Vec<String>,
) -> PyResult<(Vec<Py<PyBytes>>, Vec<String>, String)> {
    if max_influences == 0 || max_influences > 8 {
        return Err(PyValueError::new_err(format!(
            "max_influences: must be between 1 and 8, got {max_influences}"
        )));
    }
    let src = Source::extract(character)?;
    let s = rigsmith::io::skeleton_json::parse(skeleton, "skeleton".as_ref()).map_err(py_err)?;
    let force = self::route(route)?;
    let roles = (body, garment, rigid);
    let (c, r) = py
        .allow_threads(|| {
            let (mut c, _) = src.character()?;
            tell(&mut c, &roles)?;
            let o = rigsmith::bind::BindOptions {
                max_influences,
                force_route: force,
                body: c.body_options.body.clone(),
                garment: c.body_options.garment.clone(),
                rigid: c.body_options.rigid.clone(),
                ..Default::default()
            };
            let r = rigsmith::bind::bind(&c, &s, &o)?;
            Ok::<_, rigsmith::Error>((c, r))
        })
        .map_err(py_err)?;
    let out = c
        .parts
        .iter()
        .zip(&r.weights)
        .map(|(p, w)| {
            PyBytes::new(py, &dense(w.as_ref(), p.mesh.positions.len(), s.len())).unbind()
        })
        .collect();
    let names = s.bones.iter().map(|b| b.name.clone()).collect();
    let report = serde_json::json!({
        "route": format!("{:?}", r.route),
        "reasons": r.reasons,
        "report": r.report,
        "checks": r.report.checks_with(max_influences),
    });
    Ok((out, names, json_text(&report)?))
}

/// The whole job (`rigsmith rig`): the rigged character as a dict (see `load`) plus
/// `report` (JSON text: the review, route, counts) and, when `output` is given, the
/// files written (`output` .glb/.gltf and its `.rig.json` sidecar).
#[pyfunction]
#[pyo3(signature = (character, template="auto", max_influences=4, rerig=false, route=None, height=None, output=None, keep_origin=false, control=false, body=Vec::new(), garment=Vec::new(), rigid=Vec::new()))]
fn rig<'py>(
    py: Python<'py>,
    character: &Bound<'py, PyAny>,
    template: &str,
    max_influences: usize,
    rerig: bool,
    route: Option<&str>,
    height: Option<f32>,
    output: Option<PathBuf>,
    keep_origin: bool,
    control: bool,
    body: Vec<String>,
    garment: Vec<String>,
    rigid: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let src = Source::extract(character)?;
    let roles = (body, garment, rigid);
    let (template, plan) = self::template(template)?;
    let mut o = rigsmith::RigOptions {
        template,
        plan,
        max_influences,
        rigged: if rerig {
            rigsmith::pipeline::Rigged::Replace
        } else {
            rigsmith::pipeline::Rigged::Refuse
        },
        route: self::route(route)?,
        height,
        keep_origin,
        control,
        ..Default::default()
    };
    let (out, notes, written) = py
        .allow_threads(|| {
            let (mut c, notes) = src.character()?;
            tell(&mut c, &roles)?;
            o.parts = c.body_options.clone();
            if let Source::Path(p) = &src {
                if let Some(o) = &output {
                    rigsmith::io::atomic::ensure_not_input(o, &[p.as_path()])?;
                }
            }
            let out = rigsmith::rig(&c, &o, &mut |_, _| {})?;
            let mut written = Vec::new();
            if let Some(path) = &output {
                let wo = rigsmith::io::gltf::WriteOptions {
                    max_influences,
                    ..Default::default()
                };
                rigsmith::io::write_character(path, &out.character, &wo)?;
                let side = path.with_extension("rig.json");
                rigsmith::io::atomic::write_atomic(&side, out.sidecar.to_string().as_bytes())?;
                written.push(path.clone());
                written.push(side);
                if let Some(rig) = &out.sidecar.control {
                    // `OUT.control.py`, as the CLI writes it beside the rig.
                    let py = path.with_extension("control.py");
                    let text = rigsmith::control::blender::script(rig);
                    rigsmith::io::atomic::write_atomic(&py, text.as_bytes())?;
                    written.push(py);
                }
            }
            Ok::<_, rigsmith::Error>((out, notes, written))
        })
        .map_err(py_err)?;
    let d = character_dict(py, &out.character, &notes)?;
    let report = serde_json::json!({
        "route": out.route.map(|r| format!("{r:?}")),
        "route_text": out.route_text(),
        "counts": out.counts(),
        "checks": out.review,
        "pipeline": out.report_json(),
        "changes": out.changes(),
    });
    d.set_item("report", json_text(&report)?)?;
    d.set_item("written", written)?;
    d.set_item(
        "control_script",
        out.sidecar
            .control
            .as_ref()
            .map(rigsmith::control::blender::script),
    )?;
    Ok(d)
}

/// The rubric check of a rigged character in the default test poses (`rigsmith check
/// --json`) as JSON text, and the review sheets written when `sheets` names a folder
/// (`placement.png`, `poses.png`, `joints.png` when a joint is flagged; their paths).
/// A character given as parts takes `skeleton` (skeleton.json text) and `weights`
/// (per part the dense n x bones f32 bytes in the parsed skeleton's order, or None).
/// A file is measured under the fixes its sidecar names (the preserve-volume mask and
/// the correctives), as `rigsmith check` does, unless `fixes` is false.
#[pyfunction]
#[pyo3(signature = (character, max_influences=4, skeleton=None, weights=None, sheets=None, fixes=true, body=Vec::new(), garment=Vec::new(), rigid=Vec::new()))]
fn check(
    py: Python<'_>,
    character: &Bound<'_, PyAny>,
    max_influences: usize,
    skeleton: Option<&str>,
    weights: Option<Vec<Option<Vec<u8>>>>,
    sheets: Option<PathBuf>,
    fixes: bool,
    body: Vec<String>,
    garment: Vec<String>,
    rigid: Vec<String>,
) -> PyResult<(String, Vec<PathBuf>)> {
    let src = Source::extract(character)?;
    let roles = (body, garment, rigid);
    let skel = skeleton
        .map(|t| rigsmith::io::skeleton_json::parse(t, "skeleton".as_ref()))
        .transpose()
        .map_err(py_err)?;
    let (r, written) = py
        .allow_threads(|| {
            let (mut c, _) = src.character()?;
            tell(&mut c, &roles)?;
            if let Some(s) = skel {
                attach_rig(&mut c, s, weights.as_deref().unwrap_or(&[]))?;
            }
            let animated = match (&src, &c.skeleton) {
                (Source::Path(p), Some(s)) => {
                    Some(rigsmith::io::gltf::animation::keyed_bone_names(p, s)?)
                }
                _ => None,
            };
            let mut o = rigsmith::review::CheckOptions {
                max_influences,
                animated_bones: animated,
                ..Default::default()
            };
            if let (Source::Path(p), true) = (&src, fixes) {
                let sp = rigsmith::parts::sidecar_path(p);
                if sp.exists() {
                    let side = rigsmith::parts::Sidecar::read(&sp)?;
                    o.dqs_blend = !side.dqs_blend.is_empty();
                    o.dqs_masks = side.dqs_blend;
                    o.correctives = side.correctives;
                }
            }
            let r = rigsmith::review::check(&c, &o)?;
            let written = match &sheets {
                Some(dir) => write_sheets(dir, &c, &r, o.skinning)?,
                None => Vec::new(),
            };
            Ok::<_, rigsmith::Error>((r, written))
        })
        .map_err(py_err)?;
    Ok((json_text(&r)?, written))
}

/// Gives a character built from arrays its skeleton and the weights of its parts
/// (dense f32 bytes per part, n x bones in the skeleton's order; None: unweighted).
fn attach_rig(
    c: &mut Character,
    s: Skeleton,
    weights: &[Option<Vec<u8>>],
) -> Result<(), rigsmith::Error> {
    let nb = s.len();
    for (k, p) in c.parts.iter_mut().enumerate() {
        let Some(Some(b)) = weights.get(k) else {
            continue;
        };
        let n = p.mesh.positions.len();
        if b.len() != n * nb * 4 {
            return Err(rigsmith::Error::invalid(
                "weights",
                format!(
                    "part {:?}: expected {n} x {nb} values, got {}",
                    p.name,
                    b.len() / 4
                ),
            ));
        }
        p.weights = Some(sparse(b, n, nb));
    }
    c.skeleton = Some(s);
    c.validate()
}

/// Writes the review sheets as PNG files into `dir`; their paths.
fn write_sheets(
    dir: &std::path::Path,
    c: &Character,
    r: &rigsmith::review::CheckReport,
    skinning: rigsmith::review::Skinning,
) -> Result<Vec<PathBuf>, rigsmith::Error> {
    std::fs::create_dir_all(dir).map_err(|e| rigsmith::Error::io(dir, e))?;
    let mut out = Vec::new();
    for (name, img) in rigsmith_render::review::review_sheets(c, r, skinning) {
        let path = dir.join(format!("{name}.png"));
        rigsmith::io::atomic::write_atomic(&path, &img.to_png_bytes())?;
        out.push(path);
    }
    Ok(out)
}

/// Spring-bone secondary motion (`rigsmith simulate --json`) as JSON text: the
/// character is rigged as the VRM exporter does (a rigged one kept), then driven by a
/// procedural motion (`rest`, `walk`, `run`, `jump`, `spin`, `sway`).
#[pyfunction]
#[pyo3(signature = (character, motion="walk", seconds=3.0))]
fn simulate(
    py: Python<'_>,
    character: &Bound<'_, PyAny>,
    motion: &str,
    seconds: f32,
) -> PyResult<String> {
    use rigsmith::parts::{Motion, SpringModel};
    let m = Motion::parse(motion).ok_or_else(|| {
        PyValueError::new_err(format!(
            "motion: {motion:?} is not one of rest, walk, run, jump, spin, sway"
        ))
    })?;
    if !(seconds > 0.0 && seconds <= 600.0) {
        return Err(PyValueError::new_err(format!(
            "seconds: must be in (0, 600], got {seconds}"
        )));
    }
    json_of(py, character, |_, c| {
        let out = rigsmith::rig(&c, &rigsmith::RigOptions::vrm(), &mut |_, _| {})?;
        rigsmith::parts::simulate_model(
            &out.character,
            &out.sidecar,
            m,
            seconds,
            SpringModel::Fitted,
        )
    })
}

/// Weight fixes as data (no brush) on one part ([`rigsmith::bind::fix::fix_weights`]):
/// `mirror` (`"left"`: the left side's weights onto the right, `"right"`, or None),
/// `strip` the opposite side, `smooth` passes of `smooth_factor` over the edges of
/// `faces` (u32 bytes, m x 3) on the bones `smooth_bones` (names; None: every deform
/// bone) and the vertices flagged in `mask` (one byte per vertex; None: all), then drop
/// influences below `limit`, keep the `max_influences` largest (0: all), `normalize`.
/// `weights`: dense n x bones f32 bytes in the parsed skeleton's order; returns the
/// fixed bytes and the report as JSON text (`mirrored`, `unmatched`, `stripped`,
/// `smoothed`, `changed`).
#[pyfunction]
#[pyo3(signature = (vertices, weights, skeleton, limit=0.001, max_influences=4, strip=true, faces=None, normalize=true, mirror=None, smooth=0, smooth_factor=0.5, smooth_bones=None, mask=None))]
fn fix_weights(
    py: Python<'_>,
    vertices: Vec<u8>,
    weights: Vec<u8>,
    skeleton: &str,
    limit: f32,
    max_influences: usize,
    strip: bool,
    faces: Option<Vec<u8>>,
    normalize: bool,
    mirror: Option<&str>,
    smooth: usize,
    smooth_factor: f32,
    smooth_bones: Option<Vec<String>>,
    mask: Option<Vec<u8>>,
) -> PyResult<(Py<PyBytes>, String)> {
    use rigsmith::bind::fix::{SmoothFix, WeightFixes};
    let s = rigsmith::io::skeleton_json::parse(skeleton, "skeleton".as_ref()).map_err(py_err)?;
    let nb = s.len();
    let n = vertices.len() / 12;
    if weights.len() != n * nb * 4 {
        return Err(PyValueError::new_err(format!(
            "weights: expected {n} x {nb} values, got {}",
            weights.len() / 4
        )));
    }
    if !(0.0..1.0).contains(&limit) || max_influences > 8 {
        return Err(PyValueError::new_err(format!(
            "limit must be in 0..1 and max_influences in 0..8, got {limit} and {max_influences}"
        )));
    }
    let mirror = match mirror {
        None => None,
        Some("left" | "L") => Some(rigsmith::model::Side::Left),
        Some("right" | "R") => Some(rigsmith::model::Side::Right),
        Some(o) => {
            return Err(PyValueError::new_err(format!(
                "mirror: {o:?} is not left, right or None"
            )))
        }
    };
    let bones = smooth_bones
        .unwrap_or_default()
        .iter()
        .map(|b| {
            s.find(b).map(|i| i as u32).ok_or_else(|| {
                PyValueError::new_err(format!("smooth_bones: no bone named {b:?} in the skeleton"))
            })
        })
        .collect::<PyResult<Vec<u32>>>()?;
    let fixes = WeightFixes {
        mirror,
        strip_opposite_side: strip,
        smooth: (smooth > 0).then(|| SmoothFix {
            iterations: smooth,
            factor: smooth_factor,
            bones,
            mask: mask.map(|m| m.iter().map(|&x| x != 0).collect()),
        }),
        limit,
        max_influences,
        normalize,
    };
    let (out, report) = py.allow_threads(|| {
        let m = mesh(&vertices, faces.as_deref().unwrap_or(&[]));
        let mut w = sparse(&weights, n, nb);
        let r = rigsmith::bind::fix::fix_weights(&mut w, &m, &s, &fixes);
        (dense(Some(&w), n, nb), r)
    });
    Ok((PyBytes::new(py, &out).unbind(), json_text(&report)?))
}

/// Linear blend skinning of one part in a pose: `rotations` are `(bone, [w, x, y, z])`
/// unit quaternions in each bone's own rest frame (X = its `x_axis`, Y = head -> tail,
/// as Blender's pose bones hold them); other bones stay at rest. `weights`: dense
/// n x bones f32 bytes in the parsed skeleton's order. Returns the posed positions as
/// f32 bytes (n x 3).
#[pyfunction]
fn pose_lbs(
    py: Python<'_>,
    vertices: Vec<u8>,
    weights: Vec<u8>,
    skeleton: &str,
    rotations: Vec<(String, [f32; 4])>,
) -> PyResult<Py<PyBytes>> {
    let s = rigsmith::io::skeleton_json::parse(skeleton, "skeleton".as_ref()).map_err(py_err)?;
    let nb = s.len();
    let n = vertices.len() / 12;
    if weights.len() != n * nb * 4 {
        return Err(PyValueError::new_err(format!(
            "weights: expected {n} x {nb} values, got {}",
            weights.len() / 4
        )));
    }
    let mut pose = rigsmith::pose::Pose::rest(&s);
    for (name, q) in &rotations {
        let i = s.find(name).ok_or_else(|| {
            PyValueError::new_err(format!("rotations: no bone named {name:?} in the skeleton"))
        })?;
        let q = glam::Quat::from_xyzw(q[1], q[2], q[3], q[0]);
        if !q.is_finite() || q.length() < 1e-6 {
            return Err(PyValueError::new_err(format!(
                "rotations: the quaternion of {name:?} is not a rotation"
            )));
        }
        pose.rotations[i] = q.normalize();
    }
    let out = py.allow_threads(|| {
        let positions = points(&vertices);
        let w = sparse(&weights, n, nb);
        let m = rigsmith::pose::posed_matrices(&s, &pose);
        let posed = rigsmith::pose::skin_lbs(&positions, &w, &m);
        posed
            .iter()
            .flat_map(|p| p.to_array())
            .flat_map(f32::to_le_bytes)
            .collect::<Vec<u8>>()
    });
    Ok(PyBytes::new(py, &out).unbind())
}

/// The bones of a skeleton.json text in the order rigsmith holds them (parents first):
/// the columns of the weights the other functions take and return.
#[pyfunction]
fn bone_order(skeleton: &str) -> PyResult<Vec<String>> {
    let s = rigsmith::io::skeleton_json::parse(skeleton, "skeleton".as_ref()).map_err(py_err)?;
    Ok(s.bones.iter().map(|b| b.name.clone()).collect())
}

/// The native module.
#[pymodule]
fn _rigsmith(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(inspect, m)?)?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(weights, m)?)?;
    m.add_function(wrap_pyfunction!(rig, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(fix_weights, m)?)?;
    m.add_function(wrap_pyfunction!(bone_order, m)?)?;
    m.add_function(wrap_pyfunction!(pose_lbs, m)?)?;
    Ok(())
}
