//! The MakeHuman (MPFB2) corpus: base mesh, body-shape targets, artist skeletons and
//! artist weights, as ground truth for fitting and weighting.
//!
//! ```no_run
//! use rigsmith::io::mpfb2::{self, CorpusOptions, Corpus};
//! let dir = mpfb2::data_dir().expect("set RIGSMITH_DATA or run scripts/fetch-data.sh");
//! let corpus = Corpus::open(&dir)?;                       // base mesh, groups, mirror
//! let opts = CorpusOptions { variant: Some("female".into()), ..Default::default() };
//! let c = corpus.build(&opts)?;                           // body part, game_engine rig
//! assert_eq!(c.parts[0].mesh.positions.len(), 13_380);
//! assert_eq!(c.skeleton.as_ref().unwrap().len(), 53);
//! # Ok::<(), rigsmith::Error>(())
//! ```
//!
//! ## What a build does
//! 1. **Body shape**: base mesh + Σ weight × target ([`targets`], [`VARIANTS`]), in OBJ
//!    units (decimetres, Y up, facing +Z): all 19,158 vertices, helpers included.
//! 2. **Parts**: each part is a set of base-mesh vertex groups ([`PARTS`]); its vertices
//!    keep base-mesh order, its triangles are the base-mesh faces (quads split in two)
//!    whose corners are all in the part, re-indexed. The joint cubes are never exported.
//! 3. **glTF space**: `p_gltf = (p_obj - (0, y_min, 0)) × 0.1 × scale`, with `y_min` the
//!    lowest body vertex: metres, feet at y = 0.
//! 4. **Skeleton** ([`Corpus::skeleton`]): each bone's head and tail by the rig's
//!    strategies on the shaped body ([`rig`]), Blender roll turned into `x_axis`
//!    ([`roll_to_x_axis`]); `deform` = the bone has artist weights.
//! 5. **Weights**: the body gets the artist weights with every influence kept
//!    (normalized, sorted); helper parts (skirt, tights, hair, ...) get the artist's
//!    own weights of their vertices, which the file holds too, or the nearest body
//!    vertex's when it leaves one out; the eyes are rigid on the head bone.
//!
//! ## Pieces and garments
//! A built character can then be cut the way game characters arrive ([`split_parts`]:
//! head, torso, arms, legs, feet, seams duplicated, artist weights kept) and dressed
//! ([`dress`]: shirt, trousers, ankle-long skirt, hat as separate parts, weighted from
//! the nearest skin vertex). Dress first, then split: the garments follow the welded
//! body's normals.

mod base_mesh;
pub mod dress;
pub mod expressions;
pub mod rig;
pub mod split;
pub mod targets;
mod weights;
mod weld;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use glam::Vec3;

pub use dress::{dress, keep_triangles, take_out_legs, Garment, GARMENTS};
pub use rig::roll_to_x_axis;
pub use split::{split_parts, PartOrigin, Split, PIECES};
pub use targets::{variant, Variant, VARIANTS};
pub use weld::weld_parts;

use crate::error::{Error, Result};
use crate::model::{naming, Bone, Character, Mesh, Part, Skeleton, Weights};

use base_mesh::BaseMesh;
use weights::ArtistWeights;

/// The parts a build can export: `(part name, material name, base-mesh vertex groups)`.
pub const PARTS: &[(&str, &str, &[&str])] = &[
    ("body", "skin", &["body"]),
    ("eyes", "eyes", &["helper-l-eye", "helper-r-eye"]),
    (
        "eyelashes",
        "eyelashes",
        &[
            "helper-l-eyelashes-1",
            "helper-l-eyelashes-2",
            "helper-r-eyelashes-1",
            "helper-r-eyelashes-2",
        ],
    ),
    (
        "teeth",
        "teeth",
        &["helper-upper-teeth", "helper-lower-teeth"],
    ),
    ("tongue", "tongue", &["helper-tongue"]),
    ("tights", "cloth_tights", &["helper-tights"]),
    ("skirt", "cloth_skirt", &["helper-skirt"]),
    ("hair", "hair", &["helper-hair"]),
];

/// Parts weighted rigidly to the head bone instead of by nearest-vertex transfer.
const RIGID_HEAD_PARTS: &[&str] = &["eyes"];

/// The rigs a build can use: `(name, folder under rigs/)`. Not every rig ships artist
/// weights (`default_no_toes`, `human` have none: they build with a skeleton only and
/// a warning).
pub const RIGS: &[(&str, &str)] = &[
    ("game_engine", "standard"),
    ("game_engine_with_breast", "standard"),
    ("default", "standard"),
    ("default_no_toes", "standard"),
    ("mixamo", "standard"),
    ("cmu_mb", "standard"),
    ("human", "rigify"),
    ("human_toes", "rigify"),
];

/// Number of body vertices in the HM08 base mesh (vertices `0..13380`).
pub const BODY_VERTICES: usize = 13_380;

/// Where the corpus is: `$RIGSMITH_DATA` when set (returned even if it is wrong, so the
/// error names it); else the first `shared/data/mpfb2` found beside the current folder
/// or any of its parents, then beside the executable or any of its parents (so a
/// checkout next to `shared/` finds it); else `./data/mpfb2` (what
/// `scripts/fetch-data.sh` writes) in the current folder or a parent; else the user's
/// cache folder ([`cache_dir`]). `None` when nothing is found.
///
/// This only looks: nothing is ever downloaded here. `scripts/fetch-data.sh` downloads
/// the corpus (set `RIGSMITH_DATA` to choose where); the test suites do it on first
/// use into [`cache_dir`].
pub fn data_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RIGSMITH_DATA") {
        return Some(PathBuf::from(p));
    }
    let mut starts = Vec::new();
    if let Ok(c) = std::env::current_dir() {
        starts.push(c);
    }
    if let Ok(e) = std::env::current_exe() {
        if let Some(d) = e.parent() {
            starts.push(d.to_path_buf());
        }
    }
    for s in &starts {
        for a in s.ancestors() {
            let p = a.join("shared/data/mpfb2");
            if is_corpus(&p) {
                return Some(p);
            }
        }
    }
    for s in &starts {
        for a in s.ancestors() {
            let p = a.join("data/mpfb2");
            if is_corpus(&p) {
                return Some(p);
            }
        }
    }
    cache_dir().filter(|p| is_corpus(p))
}

/// The user's cache folder for the corpus, whether or not it holds it:
/// `$XDG_CACHE_HOME/rigsmith/mpfb2`, else `$HOME/.cache/rigsmith/mpfb2` (on Windows
/// `%LOCALAPPDATA%\rigsmith\mpfb2`). `None` when none of those variables is set.
pub fn cache_dir() -> Option<PathBuf> {
    let nonempty = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        nonempty("LOCALAPPDATA")
    } else {
        nonempty("XDG_CACHE_HOME").or_else(|| nonempty("HOME").map(|h| h.join(".cache")))
    };
    base.map(|b| b.join("rigsmith").join("mpfb2"))
}

/// Whether `dir` holds the corpus (its `3dobjs/base.obj`, the file [`Corpus::open`]
/// reads first).
pub fn is_corpus(dir: &Path) -> bool {
    dir.join("3dobjs/base.obj").is_file()
}

/// What to build from the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusOptions {
    /// A named variant ([`VARIANTS`]); `None` is the base mesh.
    pub variant: Option<String>,
    /// Extra targets `(path relative to targets/, weight)`, added after the variant's.
    pub targets: Vec<(String, f32)>,
    /// Uniform scale after the conversion to metres (1.0 = real size).
    pub scale: f32,
    /// The rig ([`RIGS`]); `None` builds an unrigged character (no skeleton, no weights).
    pub rig: Option<String>,
    /// Parts to export, by name ([`PARTS`]), in this order.
    pub parts: Vec<String>,
}

impl Default for CorpusOptions {
    /// The base body, real size, `game_engine` rig, body part only.
    fn default() -> Self {
        CorpusOptions {
            variant: None,
            targets: Vec::new(),
            scale: 1.0,
            rig: Some("game_engine".into()),
            parts: vec!["body".into()],
        }
    }
}

/// The corpus, opened once: base mesh, vertex groups and mirror map are read at
/// [`Corpus::open`]; rigs and artist weights are read on first use and cached. Safe to
/// share between threads.
pub struct Corpus {
    dir: PathBuf,
    base: BaseMesh,
    groups: BTreeMap<String, Vec<(u32, u32)>>,
    mirror: Vec<u32>,
    rigs: Mutex<BTreeMap<String, Arc<rig::Rig>>>,
    weights: Mutex<BTreeMap<String, Arc<Option<ArtistWeights>>>>,
}

impl std::fmt::Debug for Corpus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Corpus")
            .field("dir", &self.dir)
            .field("vertices", &self.base.positions.len())
            .finish()
    }
}

impl Corpus {
    /// Opens the corpus folder (see [`data_dir`]): reads `3dobjs/base.obj`,
    /// `mesh_metadata/basemesh_vertex_groups.json` and `mesh_metadata/hm08.mirror`.
    pub fn open(dir: &Path) -> Result<Corpus> {
        let obj = dir.join("3dobjs/base.obj");
        if !obj.is_file() {
            return Err(Error::format(
                dir,
                "",
                "not a MakeHuman corpus folder (no 3dobjs/base.obj): set RIGSMITH_DATA or run scripts/fetch-data.sh",
            ));
        }
        let base = base_mesh::read_obj(&obj)?;
        let n = base.positions.len();
        let groups =
            base_mesh::read_groups(&dir.join("mesh_metadata/basemesh_vertex_groups.json"), n)?;
        if n < BODY_VERTICES {
            return Err(Error::format(
                &obj,
                "",
                format!("{n} vertices: the HM08 base mesh has at least {BODY_VERTICES}"),
            ));
        }
        let mirror = base_mesh::read_mirror(&dir.join("mesh_metadata/hm08.mirror"), n)?;
        Ok(Corpus {
            dir: dir.to_path_buf(),
            base,
            groups,
            mirror,
            rigs: Mutex::new(BTreeMap::new()),
            weights: Mutex::new(BTreeMap::new()),
        })
    }

    /// The corpus folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Base-mesh positions, all vertices (19,158), OBJ units (decimetres).
    pub fn base_positions_obj(&self) -> &[Vec3] {
        &self.base.positions
    }

    /// Base-mesh triangles over all vertices (quads split in two).
    pub fn base_triangles(&self) -> &[[u32; 3]] {
        &self.base.triangles
    }

    /// For each base-mesh vertex, its mirror vertex (itself on the mid-plane or when
    /// `hm08.mirror` has no line for it).
    pub fn mirror(&self) -> &[u32] {
        &self.mirror
    }

    /// The vertices (base-mesh indices, ascending) of a named vertex group.
    pub fn group(&self, name: &str) -> Option<Vec<u32>> {
        self.groups.get(name).map(|r| base_mesh::expand(r))
    }

    /// The base-mesh vertices of a part ([`PARTS`]), ascending.
    pub fn part_vertices(&self, part: &str) -> Result<Vec<u32>> {
        let (_, _, groups) = PARTS.iter().find(|(n, _, _)| *n == part).ok_or_else(|| {
            let known: Vec<&str> = PARTS.iter().map(|p| p.0).collect();
            Error::invalid(
                "parts",
                format!("unknown part {part:?} (known: {})", known.join(", ")),
            )
        })?;
        let mut v = Vec::new();
        for g in *groups {
            let r = self.groups.get(*g).ok_or_else(|| {
                Error::format(
                    self.dir.join("mesh_metadata/basemesh_vertex_groups.json"),
                    *g,
                    "vertex group missing",
                )
            })?;
            v.extend(base_mesh::expand(r));
        }
        v.sort_unstable();
        v.dedup();
        Ok(v)
    }

    /// Body positions (all base-mesh vertices, OBJ units) for a variant and extra
    /// targets: base + Σ weight × target.
    pub fn shape_obj(
        &self,
        variant_name: Option<&str>,
        extra: &[(String, f32)],
    ) -> Result<Vec<Vec3>> {
        let mut list: Vec<(String, f32)> = Vec::new();
        if let Some(name) = variant_name {
            let v = variant(name).ok_or_else(|| {
                let known: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
                Error::invalid(
                    "variant",
                    format!("unknown variant {name:?} (known: {})", known.join(", ")),
                )
            })?;
            list.extend(v.targets.iter().map(|(p, w)| (p.to_string(), *w)));
        }
        list.extend(extra.iter().cloned());
        let mut pos = self.base.positions.clone();
        let n = pos.len();
        let tdir = self.dir.join("targets");
        for (rel, w) in &list {
            if !w.is_finite() {
                return Err(Error::invalid(
                    "targets",
                    format!("weight of {rel:?} is not finite"),
                ));
            }
            let path = targets::resolve(&tdir, rel)?;
            for (v, d) in targets::read_target(&path, n)? {
                pos[v as usize] += *w * d;
            }
        }
        Ok(pos)
    }

    /// The height of the lowest body vertex of these positions (OBJ units): the floor.
    fn floor_obj(positions_obj: &[Vec3]) -> f32 {
        positions_obj[..BODY_VERTICES]
            .iter()
            .map(|p| p.y)
            .fold(f32::INFINITY, f32::min)
    }

    /// Converts OBJ positions to glTF space the way [`Corpus::build`] does: metres, the
    /// lowest body vertex of `positions_obj` at y = 0, times `scale`.
    pub fn to_gltf(positions_obj: &[Vec3], points_obj: &[Vec3], scale: f32) -> Vec<Vec3> {
        let floor = Self::floor_obj(positions_obj);
        let s = 0.1 * scale;
        points_obj
            .iter()
            .map(|p| Vec3::new(p.x, p.y - floor, p.z) * s)
            .collect()
    }

    fn rig(&self, name: &str) -> Result<Arc<rig::Rig>> {
        if let Some(r) = self.rigs.lock().map_err(|_| poisoned())?.get(name) {
            return Ok(r.clone());
        }
        let folder = rig_folder(name)?;
        let path = self.dir.join(format!("rigs/{folder}/rig.{name}.json"));
        let r = Arc::new(rig::read_rig(
            &path,
            &self.groups,
            self.base.positions.len(),
        )?);
        self.rigs
            .lock()
            .map_err(|_| poisoned())?
            .insert(name.to_string(), r.clone());
        Ok(r)
    }

    fn artist_weights(&self, name: &str) -> Result<Arc<Option<ArtistWeights>>> {
        if let Some(w) = self.weights.lock().map_err(|_| poisoned())?.get(name) {
            return Ok(w.clone());
        }
        let folder = rig_folder(name)?;
        let path = self.dir.join(format!("rigs/{folder}/weights.{name}.json"));
        let w = if path.is_file() {
            Some(weights::read_weights(&path, self.base.positions.len())?)
        } else {
            None
        };
        let w = Arc::new(w);
        self.weights
            .lock()
            .map_err(|_| poisoned())?
            .insert(name.to_string(), w.clone());
        Ok(w)
    }

    /// The artist skeleton of `rig` fitted to body positions (in OBJ units, before the
    /// glTF conversion; all base-mesh vertices, as [`Corpus::shape_obj`] returns them) by
    /// the rig's strategies (CUBE/MEAN/VERTEX/XYZ), in glTF space at scale 1 (metres,
    /// feet at y = 0). Bones come parents first; `deform` is true for bones with artist
    /// weights (all bones when the rig ships none).
    pub fn skeleton(&self, rig: &str, variant_positions_obj: &[Vec3]) -> Result<Skeleton> {
        self.skeleton_scaled(rig, variant_positions_obj, 1.0)
    }

    /// [`Corpus::skeleton`] at a uniform `scale`.
    pub fn skeleton_scaled(
        &self,
        rig: &str,
        positions_obj: &[Vec3],
        scale: f32,
    ) -> Result<Skeleton> {
        let n = self.base.positions.len();
        if positions_obj.len() != n {
            return Err(Error::invalid(
                "body positions",
                format!(
                    "{} positions for a base mesh of {n} vertices",
                    positions_obj.len()
                ),
            ));
        }
        let r = self.rig(rig)?;
        let aw = self.artist_weights(rig)?;
        let names: BTreeMap<&str, usize> = r
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.as_str(), i))
            .collect();
        let mut bones = Vec::with_capacity(r.bones.len());
        for b in &r.bones {
            let parent = match &b.parent {
                None => None,
                Some(p) => Some(*names.get(p.as_str()).ok_or_else(|| {
                    Error::invalid(
                        format!("rig {rig:?}"),
                        format!(
                            "bone {:?} has parent {p:?}, which is not in the rig",
                            b.name
                        ),
                    )
                })?),
            };
            let ends = Self::to_gltf(
                positions_obj,
                &[b.head.eval(positions_obj), b.tail.eval(positions_obj)],
                scale,
            );
            let (head, tail) = (ends[0], ends[1]);
            let deform = match aw.as_ref() {
                Some(w) => w.by_bone.get(&b.name).is_some_and(|l| !l.is_empty()),
                None => true,
            };
            bones.push(Bone {
                name: b.name.clone(),
                parent,
                head,
                tail,
                x_axis: roll_to_x_axis(tail - head, b.roll),
                deform,
                side: naming::side_of(&b.name),
            });
        }
        let (s, _) = Skeleton::from_unordered(bones)?;
        Ok(s)
    }

    /// Builds a character: the chosen parts of the shaped body in glTF space, and (when
    /// `o.rig` is set) the artist skeleton and weights. Deterministic.
    pub fn build(&self, o: &CorpusOptions) -> Result<Character> {
        if !(o.scale.is_finite() && o.scale > 0.0) {
            return Err(Error::invalid(
                "scale",
                format!("{} is not a positive number", o.scale),
            ));
        }
        if o.parts.is_empty() {
            return Err(Error::invalid("parts", "no parts requested"));
        }
        for (i, p) in o.parts.iter().enumerate() {
            if o.parts[..i].contains(p) {
                return Err(Error::invalid(
                    "parts",
                    format!("part {p:?} requested twice"),
                ));
            }
        }
        let pos_obj = self.shape_obj(o.variant.as_deref(), &o.targets)?;
        let n = pos_obj.len();
        let mut warnings = Vec::new();

        let mut parts = Vec::with_capacity(o.parts.len());
        let mut part_verts = Vec::with_capacity(o.parts.len());
        for name in &o.parts {
            let verts = self.part_vertices(name)?;
            let mut local = vec![u32::MAX; n];
            for (i, &v) in verts.iter().enumerate() {
                local[v as usize] = i as u32;
            }
            let triangles: Vec<[u32; 3]> = self
                .base
                .triangles
                .iter()
                .filter_map(|t| {
                    let l = t.map(|v| local[v as usize]);
                    (!l.contains(&u32::MAX)).then_some(l)
                })
                .collect();
            let pts: Vec<Vec3> = verts.iter().map(|&v| pos_obj[v as usize]).collect();
            let material = PARTS.iter().find(|p| p.0 == name).map(|p| p.1.to_string());
            parts.push(Part {
                name: name.clone(),
                material,
                mesh: Mesh {
                    positions: Self::to_gltf(&pos_obj, &pts, o.scale),
                    triangles,
                    normals: None,
                    uvs: None,
                },
                weights: None,
                morphs: Vec::new(),
            });
            part_verts.push(verts);
        }

        let mut skeleton = None;
        if let Some(rig) = &o.rig {
            let s = self.skeleton_scaled(rig, &pos_obj, o.scale)?;
            match self.artist_weights(rig)?.as_ref() {
                None => warnings.push(format!(
                    "rig {rig:?} ships no artist weights: the parts are not skinned"
                )),
                Some(aw) => {
                    let index = |b: &str| s.find(b);
                    let body_verts: Vec<u32> = (0..BODY_VERTICES as u32).collect();
                    let body_w = aw.for_vertices(&body_verts, n, &index, rig)?;
                    let body_pos: Vec<Vec3> = pos_obj[..BODY_VERTICES].to_vec();
                    let unweighted = body_w.vertices.iter().filter(|l| l.is_empty()).count();
                    if unweighted > 0 {
                        warnings.push(format!(
                            "rig {rig:?}: {unweighted} body vertices have no artist weight"
                        ));
                    }
                    let head = head_bone(&s);
                    for (part, verts) in parts.iter_mut().zip(&part_verts) {
                        let w = if part.name == "body" {
                            body_w.clone()
                        } else if RIGID_HEAD_PARTS.contains(&part.name.as_str()) {
                            match head {
                                Some(h) => Weights::rigid(verts.len(), h as u32),
                                None => {
                                    warnings.push(format!(
                                        "rig {rig:?} has no head bone: part {:?} weighted from the nearest body vertex",
                                        part.name
                                    ));
                                    let pp: Vec<Vec3> =
                                        verts.iter().map(|&v| pos_obj[v as usize]).collect();
                                    weights::transfer(&body_w, &body_pos, &pp)
                                }
                            }
                        } else {
                            // The artist weighted the helpers too (every vertex of
                            // each on `game_engine`): their own weights are the
                            // answer. A vertex the file leaves out takes the nearest
                            // body vertex's.
                            let mut own = aw.for_vertices(verts, n, &index, rig)?;
                            let missing: Vec<usize> = (0..verts.len())
                                .filter(|&i| own.vertices[i].is_empty())
                                .collect();
                            if !missing.is_empty() {
                                let pp: Vec<Vec3> = missing
                                    .iter()
                                    .map(|&i| pos_obj[verts[i] as usize])
                                    .collect();
                                let near = weights::transfer(&body_w, &body_pos, &pp);
                                for (&i, l) in missing.iter().zip(near.vertices) {
                                    own.vertices[i] = l;
                                }
                                warnings.push(format!(
                                    "rig {rig:?} leaves {} of the {} vertices of part {:?} unweighted: they take the nearest body vertex's weights",
                                    missing.len(),
                                    verts.len(),
                                    part.name
                                ));
                            }
                            own
                        };
                        part.weights = Some(w);
                    }
                }
            }
            skeleton = Some(s);
        }
        let c = Character {
            parts,
            skeleton,
            vrm: None,
            warnings,
            ..Default::default()
        };
        c.validate()?;
        Ok(c)
    }
}

/// The head bone: a bone whose side-less name is `head` (any namespace/case).
fn head_bone(s: &Skeleton) -> Option<usize> {
    s.bones
        .iter()
        .position(|b| naming::strip_namespace(&b.name).eq_ignore_ascii_case("head"))
}

fn rig_folder(name: &str) -> Result<&'static str> {
    RIGS.iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let known: Vec<&str> = RIGS.iter().map(|r| r.0).collect();
            Error::invalid(
                "rig",
                format!("unknown rig {name:?} (known: {})", known.join(", ")),
            )
        })
}

fn poisoned() -> Error {
    Error::stage("corpus", "a previous load panicked (poisoned cache)")
}

/// Parses `"rel/path.target.gz=w,other.target.gz=0.5"` into `(path, weight)` pairs (a
/// missing `=w` means 1.0).
pub fn parse_targets(spec: &str) -> Result<Vec<(String, f32)>> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (p, w) = match item.rsplit_once('=') {
            Some((p, w)) => {
                let w: f32 = w.trim().parse().map_err(|_| {
                    Error::invalid("targets", format!("bad weight {w:?} in {item:?}"))
                })?;
                (p.trim(), w)
            }
            None => (item, 1.0),
        };
        if !w.is_finite() {
            return Err(Error::invalid(
                "targets",
                format!("weight in {item:?} is not finite"),
            ));
        }
        out.push((p.to_string(), w));
    }
    Ok(out)
}
