//! The scene builder: a rig document -> a scene subtree, for props and characters alike.
//!
//! [`build_rig_subtree`] turns a document into one entity node whose descendants are
//! the slots' nodes, nested by [`crate::nesting::slot_parent_chain`]:
//!
//! - every part's position comes from its bone plus its attachment's `x`/`y`, relative
//!   to the rig origin ([`crate::positions::rig_origin`]) for a root node, relative to
//!   its parent node's BONE for a nested one (the parent's attachment offset is not
//!   inherited);
//! - every part's extent comes from its own art ([`crate::attachment_box`]); both are
//!   scaled by ONE uniform factor `k = SCENE_PX_PER_VIEW_BOX / view_box height`, so
//!   the art's aspect can never be violated;
//! - a node's rest transform is its bone's ([`crate::rest_pose::rest_transform`]) when
//!   its bone differs from its parent node's (a face on its head's bone turns with the
//!   head, once);
//! - each swap key whose box, anchor or offset differs from the drawn attachment's is
//!   listed in the visual's `asset_geometry`, so a key drawn on another canvas keeps
//!   its own geometry;
//! - raster textures carry a content digest in their alias (`maya/head/head@1a2b..`);
//! - a part whose art is missing is recorded as a fallback in `resolutions` (audible by
//!   default, an error under `strict`); skipped slots and everything nested under them
//!   are not built.
//!
//! Structures the stage cannot draw are refused with a [`RigError`]: a cycle, a
//! dangling reference or duplicate name ([`crate::structure::rig_problems`]), a rest
//! pose on a slotless bone inside a chain ([`crate::chain_pose`]), and a chain whose
//! draw order interleaves with an unrelated part ([`crate::paint_order`]) unless
//! [`BuildOptions::interleave`] says the runtime paints by the global paint order.
//!
//! # Scene JSON
//! ```text
//! {"node": {"name": ENTITY, "type": "rig", "scale": k, "origin": [x, y],
//!           "nesting": "flat"|"bones", "paint_order": [node path, ...],
//!           "children": [NODE, ...]},
//!  "textures": [{"alias": .., "src": ..}], "resolutions": [..], "warnings": [..],
//!  "rest_pose_warnings": [{"kind": .., "cause": .., "message": ..}] (only when some)}
//! NODE = {"name": slot, "bone": bone, "path": "torso/arm", "draw_order": n,
//!         "position": [x, y] (scene px, parent frame), "rotation": rad,
//!         "scale_x": .., "scale_y": .., "z": index in the parent's paint list,
//!         "visual": {"attachment": name, "texture": alias|null, "box": [w, h]|null,
//!                    "anchor": [ax, ay], "fit": "contain", "z": .., "asset_geometry": {..}},
//!         "children": [NODE, ...]}
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use crate::art::{art_src, ArtKind, PartProbe, CHARACTER_ART_PREFIX};
use crate::attachment_box::{aspect_mismatch, attachment_box, CONTAIN_FIT};
use crate::chain_pose::chain_pose_problems;
use crate::error::RigError;
use crate::model::{Attachment, RigDocument, Skin};
use crate::nesting::{primary_slot_per_bone, slot_ancestry, slot_node_paths, slot_parent_chain};
use crate::paint_order::{chain_draw_order_problems, chain_paint_order, global_paint_order};
use crate::positions::{bone_positions, rig_origin, rig_origin_problems};
use crate::read::{read_value, ReadOptions};
use crate::rest_pose::{rest_transform, rig_rest_problems, RestPoseWarning};
use crate::structure::rig_problems;

/// Scene pixels spanned by a document's full view_box height: the one number that maps
/// view_box units to scene pixels (`k = 345 / view_box height`).
pub const SCENE_PX_PER_VIEW_BOX: f64 = 345.0;

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Answers whether each part's art exists and its size; `None` = a store with no
    /// filesystem root: every part is assumed present and unmeasured.
    pub probe: Option<PartProbe>,
    /// The texture `src` prefix ([`CHARACTER_ART_PREFIX`] or [`crate::art::PROP_ART_PREFIX`]).
    pub art_prefix: String,
    /// Missing art is an error instead of a recorded fallback.
    pub strict: bool,
    /// Slots the genre says not to build (their nested parts are not built either).
    /// `None` is the legacy rule: unless `face_overlay`, the slots nested under the
    /// `head` bone's primary slot.
    pub skip_slots: Option<Vec<String>>,
    /// The legacy rule's switch (only read when `skip_slots` is `None`).
    pub face_overlay: bool,
    /// How [`build_rig_subtree`] reads the raw document: its kind and the registry
    /// that says from which version the kind applies its rest pose (the legacy guard
    /// and the migrations, [`crate::read`]).
    pub read: ReadOptions,
    /// Part path -> the `src` its texture loads from instead of the stored file (a
    /// recoloured style pack); its alias carries a digest of that file's content.
    pub texture_srcs: BTreeMap<String, String>,
    /// Accept a chain interleaved with an unrelated part: the runtime paints by the
    /// entity's `paint_order` (the global paint order) instead of refusing.
    pub interleave: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            probe: None,
            art_prefix: CHARACTER_ART_PREFIX.into(),
            strict: false,
            skip_slots: Some(Vec::new()),
            face_overlay: true,
            read: ReadOptions::default(),
            texture_srcs: BTreeMap::new(),
            interleave: false,
        }
    }
}

/// A declared texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// The name the sprite refers to (with `@digest` for raster art).
    pub alias: String,
    /// Where it loads from.
    pub src: String,
}

/// A part drawn with a fallback because its art is missing.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolution {
    /// The slot.
    pub slot: String,
    /// The attachment name.
    pub attachment: String,
    /// The `src` that was not found.
    pub src: String,
    /// Always `"fallback"` today.
    pub resolution: String,
}

/// What the builder made.
#[derive(Clone, Debug)]
pub struct BuiltRig {
    /// The entity node (see the module docs for its shape).
    pub node: Value,
    /// Every texture the nodes refer to, sorted by alias.
    pub textures: Vec<Texture>,
    /// Missing art, recorded.
    pub resolutions: Vec<Resolution>,
    /// Things a person should hear about.
    pub warnings: Vec<String>,
    /// Why the bones' rest pose was not applied, if it was not (from the read).
    pub rest_pose_warnings: Vec<RestPoseWarning>,
    /// The slots that were built.
    pub built: BTreeSet<String>,
    /// The view_box -> scene px factor.
    pub scale: f64,
}

impl BuiltRig {
    /// The whole scene document (`rest_pose_warnings` only when there are some, so
    /// every other scene is byte-identical to before the field existed).
    pub fn to_value(&self) -> Value {
        let mut v = json!({
            "node": self.node,
            "textures": self.textures.iter().map(|t| json!({"alias": t.alias, "src": t.src})).collect::<Vec<_>>(),
            "resolutions": self.resolutions.iter().map(|r| json!({
                "slot": r.slot, "attachment": r.attachment, "src": r.src, "resolution": r.resolution
            })).collect::<Vec<_>>(),
            "warnings": self.warnings,
        });
        if !self.rest_pose_warnings.is_empty() {
            v["rest_pose_warnings"] = self
                .rest_pose_warnings
                .iter()
                .map(RestPoseWarning::to_value)
                .collect();
        }
        v
    }
}

/// The geometry of one attachment as built: box (scene px), anchor, offset (scene px).
#[derive(Clone, Debug, PartialEq)]
struct Geometry {
    texture: Option<String>,
    box_px: Option<(f64, f64)>,
    anchor: (f64, f64),
    offset: (f64, f64),
}

fn round6(v: f64) -> f64 {
    let r = (v * 1e6).round() / 1e6;
    r + 0.0
}

fn pair(p: (f64, f64)) -> Value {
    json!([round6(p.0), round6(p.1)])
}

/// Builds the scene subtree of a rig from its RAW document, read through
/// [`crate::read::read_value`] as `opts.read` says: migrated, and guarded against a
/// legacy rest pose (built without it, and a [`RestPoseWarning`]).
pub fn build_rig_subtree(
    entity: &str,
    raw: &Value,
    opts: &BuildOptions,
) -> Result<BuiltRig, RigError> {
    let read = read_value(raw, &opts.read)?;
    let mut built = build_rig(entity, &read.doc, opts)?;
    built.rest_pose_warnings = read.rest_pose_warnings;
    Ok(built)
}

/// Builds the scene subtree of a rig model (already read: see [`crate::read`]).
pub fn build_rig(
    entity: &str,
    doc: &RigDocument,
    opts: &BuildOptions,
) -> Result<BuiltRig, RigError> {
    build_inner(entity, doc, opts)
}

/// The slots that are built: all but the skipped ones (`opts.skip_slots`, else the
/// face parts nested under the head's slot unless `opts.face_overlay`) and everything
/// nested under them.
fn built_slots(
    doc: &RigDocument,
    opts: &BuildOptions,
    chain: &BTreeMap<String, Option<String>>,
) -> BTreeSet<String> {
    let skipped: BTreeSet<String> = match &opts.skip_slots {
        Some(list) => list.iter().cloned().collect(),
        None if !opts.face_overlay => match primary_slot_per_bone(doc).get("head") {
            Some(head) => chain
                .iter()
                .filter(|(_, p)| p.as_deref() == Some(head.as_str()))
                .map(|(s, _)| s.clone())
                .collect(),
            None => BTreeSet::new(),
        },
        None => BTreeSet::new(),
    };
    let mut built = BTreeSet::new();
    for s in &doc.slots {
        let anc = slot_ancestry(chain, &s.name).unwrap_or_else(|| vec![s.name.clone()]);
        if anc.iter().all(|a| !skipped.contains(a)) {
            built.insert(s.name.clone());
        }
    }

    built
}

/// Where building the attachments' geometry gathers its textures (by alias), its
/// fallbacks and its warnings; `k` is the scene scale (px per view-box unit).
struct ArtSink<'a> {
    entity: &'a str,
    opts: &'a BuildOptions,
    k: f64,
    warnings: Vec<String>,
    textures: BTreeMap<String, String>,
    resolutions: Vec<Resolution>,
}

impl ArtSink<'_> {
    /// The geometry of attachment `name` of `slot`: its texture alias (with a content
    /// digest) when its art exists, else a fallback (an error under `strict`).
    fn geometry(&mut self, slot: &str, name: &str, a: &Attachment) -> Result<Geometry, RigError> {
        let stored_src = art_src(self.entity, &a.path, &self.opts.art_prefix);
        let src = self
            .opts
            .texture_srcs
            .get(&a.path)
            .cloned()
            .unwrap_or_else(|| stored_src.clone());
        let (exists, size, kind) = match &self.opts.probe {
            Some(p) => {
                let info = p.inspect(&stored_src);
                if let Some(n) = &info.note {
                    if info.exists {
                        self.warnings
                            .push(format!("slot '{}' attachment '{name}': {n}", slot));
                    }
                }
                (info.exists, info.size, info.kind)
            }
            None => (true, None, ArtKind::from_extension(&a.path)),
        };
        if let (Some(w), Some(h), Some(art)) = (a.width, a.height, size) {
            if aspect_mismatch(w, h, art) {
                self.warnings.push(format!(
                    "slot '{}' attachment '{name}': declared box {}x{} and the art's {}x{} differ in aspect; \
                     the art is contained, not stretched",
                    slot,
                    crate::error::num(w),
                    crate::error::num(h),
                    crate::error::num(art.0),
                    crate::error::num(art.1)
                ));
            }
        }
        let texture = if exists {
            let mut alias = format!("{}/{slot}/{name}", self.entity);
            let digest = match (
                &self.opts.probe,
                self.opts.texture_srcs.contains_key(&a.path),
            ) {
                (Some(p), true) => p
                    .resolve(&src)
                    .and_then(|f| std::fs::read(f).ok())
                    .map(|b| crate::art::digest(&b)),
                (Some(p), false) if kind.is_raster() => p.raster_digest(&src),
                _ => None,
            };
            if let Some(d) = digest {
                alias = format!("{alias}@{d}");
            }
            self.textures.insert(alias.clone(), src);
            Some(alias)
        } else {
            if self.opts.strict {
                return Err(RigError::MissingArt(format!(
                    "slot '{}' attachment '{name}': {src} is not in the art folder",
                    slot
                )));
            }
            self.resolutions.push(Resolution {
                slot: slot.to_string(),
                attachment: name.into(),
                src: src.clone(),
                resolution: "fallback".into(),
            });
            None
        };
        let b = attachment_box(a.width, a.height, size).map(|(w, h)| (w * self.k, h * self.k));
        Ok(Geometry {
            texture,
            box_px: b,
            anchor: a.anchor,
            offset: (a.x * self.k, a.y * self.k),
        })
    }

    /// The visual of `slot` drawing attachment `dname`, with the geometry of every other
    /// key of the slot whose box, anchor or offset differs.
    fn visual(
        &mut self,
        skin: &Skin,
        slot: &str,
        dname: &str,
        datt: &Attachment,
    ) -> Result<Value, RigError> {
        let dgeom = self.geometry(slot, dname, datt)?;
        let mut extra_geom = Map::new();
        for (name, a) in skin.attachments(slot).unwrap_or(&[]) {
            if name == dname {
                continue;
            }
            let g = self.geometry(slot, name, a)?;
            if g.box_px != dgeom.box_px || g.anchor != dgeom.anchor || g.offset != dgeom.offset {
                extra_geom.insert(
                    name.clone(),
                    json!({
                        "texture": g.texture,
                        "box": g.box_px.map(pair),
                        "anchor": pair(g.anchor),
                        "offset": pair((g.offset.0 - dgeom.offset.0, g.offset.1 - dgeom.offset.1)),
                    }),
                );
            }
        }
        let mut v = json!({
            "attachment": dname,
            "texture": dgeom.texture,
            "box": dgeom.box_px.map(pair),
            "anchor": pair(dgeom.anchor),
            "fit": CONTAIN_FIT,
        });
        if !extra_geom.is_empty() {
            v["asset_geometry"] = Value::Object(extra_geom);
        }
        Ok(v)
    }
}

/// What building the nodes reads (see [`make_node`]).
struct NodeCtx<'a> {
    doc: &'a RigDocument,
    slots: &'a BTreeMap<&'a str, &'a crate::model::Slot>,
    bones: &'a BTreeMap<&'a str, &'a crate::model::Bone>,
    positions: &'a BTreeMap<String, (f64, f64)>,
    origin: (f64, f64),
    k: f64,
    apply_pose: bool,
    paint: &'a BTreeMap<Option<String>, Vec<String>>,
    paths: &'a BTreeMap<String, String>,
    visuals: &'a BTreeMap<String, Value>,
    offset_of: &'a dyn Fn(&str) -> (f64, f64),
    bone_of: &'a dyn Fn(&str) -> String,
}

/// The node of `slot` (nested under `parent`'s node, if any) with its children in
/// paint order.
fn make_node(slot: &str, parent: Option<&str>, ctx: &NodeCtx, depth: usize) -> Value {
    let s = ctx.slots.get(slot).copied();
    let bone = s.map(|s| s.bone.clone()).unwrap_or_default();
    let bp = ctx.positions.get(&bone).copied().unwrap_or((0.0, 0.0));
    let off = (ctx.offset_of)(slot);
    let local = match parent {
        None => (bp.0 + off.0 - ctx.origin.0, bp.1 + off.1 - ctx.origin.1),
        Some(p) => {
            let pb = ctx
                .positions
                .get(&(ctx.bone_of)(p))
                .copied()
                .unwrap_or((0.0, 0.0));
            let po = (ctx.offset_of)(p);
            (bp.0 - pb.0 + off.0 - po.0, bp.1 - pb.1 + off.1 - po.1)
        }
    };
    let own_pose = parent.map_or(true, |p| (ctx.bone_of)(p) != bone);
    let rt = match ctx.bones.get(bone.as_str()).copied() {
        Some(b) if ctx.apply_pose && own_pose => rest_transform(b),
        _ => crate::rest_pose::RestTransform {
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
        },
    };
    let items = ctx
        .paint
        .get(&Some(slot.to_string()))
        .cloned()
        .unwrap_or_else(|| vec![slot.to_string()]);
    let mut children = Vec::new();
    let mut visual_z = 0;
    for (z, it) in items.iter().enumerate() {
        if it == slot {
            visual_z = z;
            continue;
        }
        if depth > ctx.doc.slots.len() {
            continue;
        }
        let mut c = make_node(it, Some(slot), ctx, depth + 1);
        c["z"] = json!(z);
        children.push(c);
    }
    let mut node = json!({
        "name": slot,
        "bone": bone,
        "path": ctx.paths.get(slot).cloned().unwrap_or_else(|| slot.to_string()),
        "draw_order": s.map(|s| s.draw_order).unwrap_or(0),
        "position": [round6(local.0 * ctx.k), round6(local.1 * ctx.k)],
        "rotation": round6(rt.rotation),
        "scale_x": round6(rt.scale_x),
        "scale_y": round6(rt.scale_y),
    });
    if let Some(v) = ctx.visuals.get(slot) {
        let mut v = v.clone();
        v["z"] = json!(visual_z);
        node["visual"] = v;
    }
    node["children"] = Value::Array(children);
    node
}

fn build_inner(entity: &str, doc: &RigDocument, opts: &BuildOptions) -> Result<BuiltRig, RigError> {
    let problems = rig_problems(doc);
    if !problems.is_empty() {
        return Err(RigError::Structure(problems.join("; ")));
    }
    let pose = chain_pose_problems(doc);
    if !pose.is_empty() {
        return Err(RigError::Pose(pose.join("; ")));
    }
    let order_problems = chain_draw_order_problems(doc);
    if !order_problems.is_empty() && !opts.interleave {
        return Err(RigError::DrawOrder(order_problems.join("; ")));
    }
    let mut warnings = Vec::new();
    warnings.extend(rig_origin_problems(doc.origin, doc.view_box()));
    let apply_pose = doc.applies_rest_pose();
    if apply_pose {
        warnings.extend(rig_rest_problems(doc));
    }

    let vb = doc.view_box();
    let k = SCENE_PX_PER_VIEW_BOX / vb[3];
    let origin = rig_origin(doc);
    let positions = bone_positions(doc);
    let chain = slot_parent_chain(doc);
    let paths = slot_node_paths(doc);
    let skin = doc.default_skin();

    let built = built_slots(doc, opts, &chain);

    // Geometry of every attachment a built slot can show.
    let mut art = ArtSink {
        entity,
        opts,
        k,
        warnings,
        textures: BTreeMap::new(),
        resolutions: Vec::new(),
    };
    let mut drawn: BTreeMap<String, (String, Attachment)> = BTreeMap::new();
    let mut visuals: BTreeMap<String, Value> = BTreeMap::new();
    for s in doc.slots.iter().filter(|s| built.contains(&s.name)) {
        let Some(skin) = skin else { continue };
        let Some((dname, datt)) = doc.drawn_attachment(skin, s) else {
            continue;
        };
        drawn.insert(s.name.clone(), (dname.to_string(), datt.clone()));
        visuals.insert(s.name.clone(), art.visual(skin, &s.name, dname, datt)?);
    }
    let ArtSink {
        mut warnings,
        textures,
        resolutions,
        ..
    } = art;

    // Nodes, bottom-up through the chain paint order.
    let paint = chain_paint_order(doc, Some(&built));
    let offset_of = |slot: &str| -> (f64, f64) {
        drawn
            .get(slot)
            .map(|(_, a)| (a.x, a.y))
            .unwrap_or((0.0, 0.0))
    };
    let slot_index: BTreeMap<&str, &crate::model::Slot> = doc
        .slots
        .iter()
        .rev()
        .map(|s| (s.name.as_str(), s))
        .collect();
    let bone_index: BTreeMap<&str, &crate::model::Bone> = doc
        .bones
        .iter()
        .rev()
        .map(|b| (b.name.as_str(), b))
        .collect();
    let bone_of = |slot: &str| -> String {
        slot_index
            .get(slot)
            .map(|s| s.bone.clone())
            .unwrap_or_default()
    };
    let ctx = NodeCtx {
        doc,
        slots: &slot_index,
        bones: &bone_index,
        positions: &positions,
        origin,
        k,
        apply_pose,
        paint: &paint,
        paths: &paths,
        visuals: &visuals,
        offset_of: &offset_of,
        bone_of: &bone_of,
    };
    let mut children = Vec::new();
    for (z, it) in paint
        .get(&None)
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let mut c = make_node(it, None, &ctx, 0);
        c["z"] = json!(z);
        children.push(c);
    }
    let node = json!({
        "name": entity,
        "type": "rig",
        "scale": k,
        "origin": pair(origin),
        "nesting": doc.nesting().as_str(),
        "paint_order": global_paint_order(doc, Some(&built)),
        "children": children,
    });
    if !order_problems.is_empty() {
        warnings.extend(order_problems);
    }
    Ok(BuiltRig {
        node,
        textures: textures
            .into_iter()
            .map(|(alias, src)| Texture { alias, src })
            .collect(),
        resolutions,
        warnings,
        rest_pose_warnings: Vec::new(),
        built,
        scale: k,
    })
}
