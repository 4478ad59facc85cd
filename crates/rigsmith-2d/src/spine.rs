//! Spine JSON interop: import a Spine skeleton into the rig model, export the model as
//! Spine JSON.
//!
//! What maps, and how (Spine is y-UP with counter-clockwise degrees; the model is
//! y-DOWN with clockwise degrees):
//!
//! | Spine | model |
//! |---|---|
//! | `skeleton.{x, y, width, height}` | `view_box = (x, -(y + height), width, height)`; `origin = (0, 0)` |
//! | bone `x, y, rotation, scaleX, scaleY` | `x, -y, -rotation, scale_x, scale_y`; `nesting: bones` |
//! | bone `length, color, inherit/transform, skin, shearX, shearY, icon, visible` | kept in the bone's `spine` object (shear is NOT applied: reported) |
//! | slots, in setup draw order | `draw_order` = index; `color, dark, blend` kept in `spine` |
//! | skins (4.x array or 3.x object), region attachments | [`crate::model::Skin`]s of [`crate::model::Attachment`]s |
//! | region `x, y` (centre from the bone) | `anchor = (0.5 - x / w, 0.5 + y / h)`, `x = y = 0`: the part turns about its joint |
//! | region `width * |scaleX|`, `height * |scaleY|` | declared `width`, `height` |
//! | region `path` (else its name) | `path = "{path}.png"` |
//!
//! What does not map is reported in [`SpineReport::unmapped`], never dropped silently:
//! mesh, linked-mesh, bounding-box, path, point and clipping attachments; IK,
//! transform, path and physics constraints; events and animations; a rotated or
//! mirrored region; bone shear.
//!
//! Export writes the fields Spine's own exporter writes, omitting each at its Spine
//! default (`x: 0`, `scaleX: 1`, region `type`, `color`, ...), with bones parents-first,
//! slots in draw order and skins in the 4.x array form. A rig with more than one root
//! bone gets a `root` bone above them (Spine's first bone is the root), reported.
//!
//! ```
//! use rigsmith_2d::spine::{export_spine, import_spine};
//! let spine = br#"{"skeleton": {"spine": "4.2.00"}, "bones": [{"name": "root"}, {"name": "hip", "parent": "root", "y": 100}],
//!   "slots": [{"name": "hip", "bone": "hip", "attachment": "hip"}],
//!   "skins": [{"name": "default", "attachments": {"hip": {"hip": {"x": 0, "y": 10, "width": 40, "height": 60}}}}]}"#;
//! let (doc, report) = import_spine(spine).unwrap();
//! assert!(report.unmapped.is_empty());
//! assert_eq!(doc.bone("hip").unwrap().y, -100.0);
//! let (back, _) = export_spine(&doc, None).unwrap();
//! assert_eq!(back["bones"][1]["y"], 100.0);
//! ```

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use crate::art::PartProbe;
use crate::attachment_box::attachment_box;
use crate::error::{num, RigError};
use crate::model::{Attachment, Bone, Nesting, RigDocument, Skin, Slot};
use crate::positions::rig_origin;
use crate::structure::rig_problems;

/// The Spine version written when the document carries none.
pub const SPINE_VERSION: &str = "4.2.00";

/// What an import or export could not carry across.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpineReport {
    /// One sentence per thing that did not map (kept out of the output, or kept but
    /// not applied).
    pub unmapped: Vec<String>,
}

fn obj<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, RigError> {
    v.as_object()
        .ok_or_else(|| RigError::format(at, "expected an object"))
}

fn fnum(m: &Map<String, Value>, k: &str, d: f64, at: &str) -> Result<f64, RigError> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(d),
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| RigError::format(format!("{at}.{k}"), "expected a finite number")),
    }
}

fn fstr(m: &Map<String, Value>, k: &str, at: &str) -> Result<Option<String>, RigError> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(RigError::format(format!("{at}.{k}"), "expected a string")),
    }
}

fn keep(m: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    let mut out = Map::new();
    for k in keys {
        if let Some(v) = m.get(*k) {
            out.insert((*k).to_string(), v.clone());
        }
    }
    out
}

/// Imports a Spine JSON skeleton (bytes of the `.json` export).
pub fn import_spine(bytes: &[u8]) -> Result<(RigDocument, SpineReport), RigError> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| {
        RigError::format(
            format!("line {} column {}", e.line(), e.column()),
            format!("not valid JSON: {e}"),
        )
    })?;
    import_spine_value(&v)
}

/// The array under `key` (empty when absent or null).
fn list_of<'a>(root: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], RigError> {
    match root.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(b) => Ok(b
            .as_array()
            .ok_or_else(|| RigError::format(key, "expected an array"))?
            .as_slice()),
    }
}

/// Bone `i` of the file: its setup transform (y down, rotation clockwise), with shear
/// and non-normal inheritance kept in its extras but reported as not applied.
fn import_bone(b: &Value, i: usize, rep: &mut SpineReport) -> Result<Bone, RigError> {
    let at = format!("bones[{i}]");
    let m = obj(b, &at)?;
    let name = fstr(m, "name", &at)?
        .ok_or_else(|| RigError::format(&at, "missing required field `name`"))?;
    let mut bone = Bone::new(&name);
    bone.parent = fstr(m, "parent", &at)?;
    bone.x = fnum(m, "x", 0.0, &at)?;
    bone.y = -fnum(m, "y", 0.0, &at)? + 0.0;
    bone.rotation_deg = -fnum(m, "rotation", 0.0, &at)? + 0.0;
    bone.scale_x = fnum(m, "scaleX", 1.0, &at)?;
    bone.scale_y = fnum(m, "scaleY", 1.0, &at)?;
    let (shx, shy) = (fnum(m, "shearX", 0.0, &at)?, fnum(m, "shearY", 0.0, &at)?);
    if shx != 0.0 || shy != 0.0 {
        rep.unmapped.push(format!(
            "bone '{name}': shear ({}, {}) is kept but not applied (the model has no shear)",
            num(shx),
            num(shy)
        ));
    }
    for k in ["transform", "inherit"] {
        if let Some(t) = m.get(k).and_then(Value::as_str) {
            if t != "normal" {
                rep.unmapped.push(format!(
                    "bone '{name}': {k} '{t}' is kept but not applied (the model inherits fully)"
                ));
            }
        }
    }
    let spine = keep(
        m,
        &[
            "length",
            "color",
            "transform",
            "inherit",
            "skin",
            "shearX",
            "shearY",
            "icon",
            "visible",
        ],
    );
    if !spine.is_empty() {
        bone.extra.insert("spine".into(), Value::Object(spine));
    }
    Ok(bone)
}

/// Slot `i` of the file (its index is its setup draw order).
fn import_slot(s: &Value, i: usize) -> Result<Slot, RigError> {
    let at = format!("slots[{i}]");
    let m = obj(s, &at)?;
    let name = fstr(m, "name", &at)?
        .ok_or_else(|| RigError::format(&at, "missing required field `name`"))?;
    let bone = fstr(m, "bone", &at)?
        .ok_or_else(|| RigError::format(&at, "missing required field `bone`"))?;
    let mut slot = Slot::new(&name, &bone);
    slot.draw_order = i as i64;
    slot.attachment = fstr(m, "attachment", &at)?;
    let spine = keep(m, &["color", "dark", "blend"]);
    if !spine.is_empty() {
        slot.extra.insert("spine".into(), Value::Object(spine));
    }
    Ok(slot)
}

/// Attachment `a` (at `aat`) of skin `name`, slot `slot`, key `aname`, when it is a
/// region (other kinds are reported and not imported): its box and anchor from the
/// region's size and offset (an offset stays an offset when it has no size).
fn import_region(
    a: &Value,
    aat: &str,
    (name, slot, aname): (&str, &str, &str),
    rep: &mut SpineReport,
) -> Result<Option<Attachment>, RigError> {
    let m = obj(a, aat)?;
    let kind = fstr(m, "type", aat)?.unwrap_or_else(|| "region".into());
    if kind != "region" {
        rep.unmapped.push(format!(
            "skin '{name}' slot '{slot}' attachment '{aname}': a {kind} attachment does not map to the model (not imported)"
        ));
        return Ok(None);
    }
    let (x, y) = (fnum(m, "x", 0.0, aat)?, fnum(m, "y", 0.0, aat)?);
    let (sx, sy) = (fnum(m, "scaleX", 1.0, aat)?, fnum(m, "scaleY", 1.0, aat)?);
    let rot = fnum(m, "rotation", 0.0, aat)?;
    let (w, h) = (
        fnum(m, "width", 0.0, aat)? * sx.abs(),
        fnum(m, "height", 0.0, aat)? * sy.abs(),
    );
    let path = fstr(m, "path", aat)?
        .or(fstr(m, "name", aat)?)
        .unwrap_or_else(|| aname.to_string());
    let mut att = Attachment::new(&format!("{path}.png"));
    if w > 0.0 && h > 0.0 {
        att.width = Some(w);
        att.height = Some(h);
        att.anchor = (0.5 - x / w + 0.0, 0.5 + y / h + 0.0);
    } else {
        att.x = x;
        att.y = -y + 0.0;
        rep.unmapped.push(format!(
            "skin '{name}' slot '{slot}' attachment '{aname}': no width/height, so its offset stays an offset (not an anchor)"
        ));
    }
    if rot != 0.0 {
        rep.unmapped.push(format!(
            "skin '{name}' slot '{slot}' attachment '{aname}': its rotation {}° is kept but not applied",
            num(rot)
        ));
    }
    if sx < 0.0 || sy < 0.0 {
        rep.unmapped.push(format!(
            "skin '{name}' slot '{slot}' attachment '{aname}': a mirrored region (negative scale) is drawn unmirrored"
        ));
    }
    let spine = keep(m, &["rotation", "color", "sequence"]);
    if !spine.is_empty() {
        att.extra.insert("spine".into(), Value::Object(spine));
    }
    Ok(Some(att))
}

/// Imports a parsed Spine JSON skeleton.
pub fn import_spine_value(v: &Value) -> Result<(RigDocument, SpineReport), RigError> {
    let root = obj(v, "$")?;
    let mut rep = SpineReport::default();
    let mut doc = RigDocument {
        nesting: Some(Nesting::Bones),
        origin: Some((0.0, 0.0)),
        ..RigDocument::default()
    };
    if let Some(sk) = root.get("skeleton") {
        let sk = obj(sk, "skeleton")?;
        let (x, y) = (
            fnum(sk, "x", 0.0, "skeleton")?,
            fnum(sk, "y", 0.0, "skeleton")?,
        );
        let (w, h) = (
            fnum(sk, "width", 0.0, "skeleton")?,
            fnum(sk, "height", 0.0, "skeleton")?,
        );
        if w > 0.0 && h > 0.0 {
            doc.view_box = Some([x, -(y + h), w, h]);
        }
        let mut kept = sk.clone();
        for k in ["x", "y", "width", "height"] {
            kept.remove(k);
        }
        doc.extra.insert("spine".into(), Value::Object(kept));
    }
    // Spine applies its bones' setup pose: the document is of the current version, so
    // no reader takes it for one drawn before the rest pose applied.
    let reg = crate::rest_pose::RestPoseRegistry::default();
    if let Some(k) = reg.kind(crate::rest_pose::DEFAULT_KIND) {
        doc.extra
            .insert(k.version_field.clone(), Value::String(k.current.clone()));
    }

    // Bones.
    for (i, b) in list_of(root, "bones")?.iter().enumerate() {
        doc.bones.push(import_bone(b, i, &mut rep)?);
    }

    // Slots, in setup draw order.
    for (i, s) in list_of(root, "slots")?.iter().enumerate() {
        doc.slots.push(import_slot(s, i)?);
    }

    // Skins: 4.x array of {name, attachments}, or 3.x object {name: {slot: {..}}}.
    let mut skins: Vec<(String, &Map<String, Value>, String)> = Vec::new();
    match root.get("skins") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for (i, s) in list.iter().enumerate() {
                let at = format!("skins[{i}]");
                let m = obj(s, &at)?;
                let name = fstr(m, "name", &at)?
                    .ok_or_else(|| RigError::format(&at, "missing required field `name`"))?;
                for k in m.keys() {
                    if !matches!(k.as_str(), "name" | "attachments") {
                        rep.unmapped.push(format!(
                            "skin '{name}': its '{k}' (skin bones and constraints) do not map to the model"
                        ));
                    }
                }
                if let Some(a) = m.get("attachments") {
                    skins.push((
                        name,
                        obj(a, &format!("{at}.attachments"))?,
                        format!("{at}.attachments"),
                    ));
                } else {
                    doc.skins.push(Skin {
                        name,
                        ..Skin::default()
                    });
                }
            }
        }
        Some(Value::Object(map)) => {
            for (name, s) in map {
                let at = format!("skins.{name}");
                skins.push((name.clone(), obj(s, &at)?, at));
            }
        }
        Some(_) => return Err(RigError::format("skins", "expected an array or an object")),
    }
    for (name, atts, at) in skins {
        let mut skin = Skin {
            name: name.clone(),
            ..Skin::default()
        };
        for (slot, list) in atts {
            let sat = format!("{at}.{slot}");
            for (aname, a) in obj(list, &sat)? {
                let aat = format!("{sat}.{aname}");
                let Some(att) = import_region(a, &aat, (&name, slot, aname), &mut rep)? else {
                    continue;
                };
                skin.insert(slot, aname, att);
            }
        }
        doc.skins.push(skin);
    }

    for k in ["ik", "transform", "path", "physics"] {
        if let Some(list) = root.get(k).and_then(Value::as_array) {
            if !list.is_empty() {
                rep.unmapped.push(format!(
                    "{} {k} constraint(s) do not map to the model (not imported)",
                    list.len()
                ));
            }
        }
    }
    for k in ["events", "animations"] {
        if let Some(m) = root.get(k).and_then(Value::as_object) {
            if !m.is_empty() {
                rep.unmapped.push(format!(
                    "{} {k} are not part of a rig (not imported)",
                    m.len()
                ));
            }
        }
    }

    if doc.view_box.is_none() {
        doc.view_box = Some(fallback_view_box(&doc));
    }
    Ok((doc, rep))
}

/// A square view_box around the bones when the skeleton gives no size.
fn fallback_view_box(doc: &RigDocument) -> [f64; 4] {
    let pos = crate::positions::bone_positions(doc);
    let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (x, y) in pos.values() {
        x0 = x0.min(*x);
        y0 = y0.min(*y);
        x1 = x1.max(*x);
        y1 = y1.max(*y);
    }
    let side = (x1 - x0).max(y1 - y0).max(1.0) * 1.5;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    [cx - side / 2.0, cy - side / 2.0, side, side]
}

fn strip_ext(path: &str) -> &str {
    for ext in [".png", ".svg", ".jpg", ".jpeg", ".webp"] {
        if path.len() > ext.len() && path.to_ascii_lowercase().ends_with(ext) {
            return &path[..path.len() - ext.len()];
        }
    }
    path
}

/// Rounds to 1e-6 (Spine's own exports carry two decimals), so a second round trip
/// writes the same bytes.
fn r6(v: f64) -> f64 {
    let r = (v * 1e6).round() / 1e6;
    if r.is_finite() {
        r + 0.0
    } else {
        v
    }
}

fn put(m: &mut Map<String, Value>, k: &str, v: f64, default: f64) {
    let v = r6(v);
    if v != default {
        m.insert(k.into(), json!(v));
    }
}

fn merge_spine(m: &mut Map<String, Value>, extra: &Map<String, Value>) {
    if let Some(Value::Object(s)) = extra.get("spine") {
        for (k, v) in s {
            if !m.contains_key(k) {
                m.insert(k.clone(), v.clone());
            }
        }
    }
}

fn bone_json(
    b: &Bone,
    (ox, oy): (f64, f64),
    synthetic_root: Option<&str>,
    apply_pose: bool,
) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), b.name.clone().into());
    let (x, y) = if b.parent.is_none() {
        (b.x - ox, -(b.y - oy))
    } else {
        (b.x, -b.y)
    };
    match (&b.parent, synthetic_root) {
        (Some(p), _) => {
            m.insert("parent".into(), p.clone().into());
        }
        (None, Some(r)) => {
            m.insert("parent".into(), r.into());
        }
        _ => {}
    }
    if let Some(Value::Object(s)) = b.extra.get("spine") {
        if let Some(l) = s.get("length") {
            m.insert("length".into(), l.clone());
        }
    }
    // A rig that keeps its legacy pose (rest_rotation: false) has it in its pixels:
    // Spine would apply it a second time.
    let (r, sx, sy) = if apply_pose {
        (b.rotation_deg, b.scale_x, b.scale_y)
    } else {
        (0.0, 1.0, 1.0)
    };
    put(&mut m, "rotation", -r, 0.0);
    put(&mut m, "x", x, 0.0);
    put(&mut m, "y", y, 0.0);
    put(&mut m, "scaleX", sx, 1.0);
    put(&mut m, "scaleY", sy, 1.0);
    merge_spine(&mut m, &b.extra);
    Value::Object(m)
}

/// Exports the model as Spine JSON. `probe` (optional) measures art whose size the
/// attachment does not declare (Spine needs every region's size): an attachment's art
/// is `probe.prefix + path`. Numbers are written rounded to 1e-6.
pub fn export_spine(
    doc: &RigDocument,
    probe: Option<&PartProbe>,
) -> Result<(Value, SpineReport), RigError> {
    let problems = rig_problems(doc);
    if !problems.is_empty() {
        return Err(RigError::Structure(problems.join("; ")));
    }
    let mut rep = SpineReport::default();
    let mut out = Map::new();

    let mut skeleton = match doc.extra.get("spine") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    if !skeleton.contains_key("spine") {
        skeleton.insert("spine".into(), SPINE_VERSION.into());
    }
    let vb = doc.view_box();
    let (ox, oy) = doc.origin.unwrap_or_else(|| rig_origin(doc));
    skeleton.insert("x".into(), json!(r6(vb[0] - ox)));
    skeleton.insert("y".into(), json!(r6(-(vb[1] + vb[3] - oy))));
    skeleton.insert("width".into(), json!(r6(vb[2])));
    skeleton.insert("height".into(), json!(r6(vb[3])));
    out.insert("skeleton".into(), Value::Object(skeleton));

    // Bones, parents first.
    let roots: Vec<&Bone> = doc.bones.iter().filter(|b| b.parent.is_none()).collect();
    let mut synthetic_root = None;
    if roots.len() > 1 {
        let mut name = "root".to_string();
        let mut i = 1;
        while doc.bone(&name).is_some() {
            name = format!("root_{i}");
            i += 1;
        }
        rep.unmapped.push(format!(
            "the rig has {} root bones; Spine has one, so '{name}' was added above them",
            roots.len()
        ));
        synthetic_root = Some(name);
    }
    let mut bones_out = Vec::new();
    if let Some(r) = &synthetic_root {
        bones_out.push(json!({"name": r}));
    }
    // Declared order, each bone once its parent is out (Spine reads parents first).
    let mut done: BTreeSet<&str> = BTreeSet::new();
    let mut pending: Vec<&Bone> = doc.bones.iter().collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = Vec::new();
        for b in pending {
            if b.parent.as_deref().is_some_and(|p| !done.contains(p)) {
                rest.push(b);
                continue;
            }
            done.insert(b.name.as_str());
            if !doc.applies_rest_pose() && b.carries_rest_pose() {
                rep.unmapped.push(format!(
                    "bone '{}': its rest pose is kept unapplied (rest_rotation: false, the pose is in the art), \
                     so it is exported without it",
                    b.name
                ));
            }
            bones_out.push(bone_json(
                b,
                (ox, oy),
                synthetic_root.as_deref(),
                doc.applies_rest_pose(),
            ));
        }
        pending = rest;
        if pending.len() == before {
            break;
        }
    }
    out.insert("bones".into(), Value::Array(bones_out));

    // Slots in draw order.
    let skin = doc.default_skin();
    let mut slots: Vec<&Slot> = doc.slots.iter().collect();
    slots.sort_by_key(|s| s.draw_order);
    let mut slots_out = Vec::new();
    for s in &slots {
        let mut m = Map::new();
        m.insert("name".into(), s.name.clone().into());
        m.insert("bone".into(), s.bone.clone().into());
        let att = match (&s.attachment, skin) {
            (Some(a), _) => Some(a.clone()),
            (None, Some(sk)) => doc.drawn_attachment(sk, s).map(|(n, _)| n.to_string()),
            _ => None,
        };
        merge_spine(&mut m, &s.extra);
        if let Some(a) = att {
            m.insert("attachment".into(), a.into());
        }
        slots_out.push(Value::Object(m));
    }
    out.insert("slots".into(), Value::Array(slots_out));

    // Skins, 4.x array form; default first.
    let mut skins: Vec<&Skin> = doc.skins.iter().collect();
    skins.sort_by_key(|s| s.name != "default");
    let mut skins_out = Vec::new();
    for sk in skins {
        let mut atts = Map::new();
        for (slot, list) in &sk.slots {
            let mut sm = Map::new();
            for (name, a) in list {
                let mut m = Map::new();
                let path = strip_ext(&a.path);
                if path != name {
                    m.insert("path".into(), path.into());
                }
                let art = probe.and_then(|p| p.probe(&format!("{}{}", p.prefix, a.path)).1);
                let bx = attachment_box(a.width, a.height, art);
                let (mut x, mut y) = (a.x, -a.y);
                match bx {
                    Some((w, h)) => {
                        x += (0.5 - a.anchor.0) * w;
                        y += (a.anchor.1 - 0.5) * h;
                        put(&mut m, "x", x, 0.0);
                        put(&mut m, "y", y, 0.0);
                        m.insert("width".into(), json!(r6(w)));
                        m.insert("height".into(), json!(r6(h)));
                    }
                    None => {
                        put(&mut m, "x", x, 0.0);
                        put(&mut m, "y", y, 0.0);
                        rep.unmapped.push(format!(
                            "skin '{}' slot '{slot}' attachment '{name}': no declared or measurable size; Spine needs \
                             width and height (and the anchor is not exported)",
                            sk.name
                        ));
                    }
                }
                merge_spine(&mut m, &a.extra);
                sm.insert(name.clone(), Value::Object(m));
            }
            atts.insert(slot.clone(), Value::Object(sm));
        }
        skins_out.push(json!({"name": sk.name, "attachments": atts}));
    }
    out.insert("skins".into(), Value::Array(skins_out));
    Ok((Value::Object(out), rep))
}
