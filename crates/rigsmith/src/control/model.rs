//! The control-rig model: bones with roles, constraints, drivers and the custom
//! properties of a settings bone. Data only; [`super::eval`] poses it.
//!
//! Space: glTF's (metres, +Y up, the character faces +Z). A bone's frame is the
//! skeleton's ([`crate::model::Bone::frame`]): Y runs head -> tail, X is `x_axis`.
//! Angles are radians. Names refer to bones by name so the JSON form stays readable
//! and survives reordering.

use std::collections::BTreeMap;

use glam::{Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

/// The four classes of bones in a control rig.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum BoneRole {
    /// Deform: the skeleton's own bones, the only ones that move vertices.
    Def,
    /// Mechanism: moved by constraints, never animated.
    Mch,
    /// Control: what the animator keys.
    Ctrl,
    /// Original: a reference copy of a rest bone, never moved.
    Org,
}

impl BoneRole {
    /// The bone collection name used for this role in Blender.
    pub fn collection(self) -> &'static str {
        match self {
            BoneRole::Def => "DEF",
            BoneRole::Mch => "MCH",
            BoneRole::Ctrl => "Controls",
            BoneRole::Org => "ORG",
        }
    }
}

/// The space a constraint reads its target in or writes its owner in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    /// The armature's space (the rig's object sits at the origin).
    #[default]
    World,
    /// The bone's own channels: relative to its parent's posed frame and its rest offset.
    Local,
    /// Relative to the bone's own rest frame, parent motion included.
    LocalWithParent,
}

/// How Copy Rotation and Transformation mix their rotation with the owner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RotMix {
    /// The new rotation replaces the owner's.
    #[default]
    Replace,
    /// XYZ Euler angles added to the owner's.
    Add,
    /// The new rotation applied before the owner's (as if on a parent).
    Before,
    /// The new rotation applied after the owner's (as if on a child).
    After,
}

/// How Copy Transforms mixes the target's matrix with the owner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransMix {
    /// The target's matrix replaces the owner's.
    #[default]
    Replace,
    /// `target * owner`.
    BeforeFull,
    /// `owner * target`.
    AfterFull,
}

/// A transform channel read or written by a Transformation constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// Translation, metres.
    Location,
    /// XYZ Euler rotation, radians.
    Rotation,
    /// Scale factors.
    Scale,
}

/// A per-axis optional bound pair: `[min, max]`, either may be absent.
pub type Bounds = [Option<f32>; 2];

/// What a constraint does. Every kind with a `target` reads that bone's posed matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Kind {
    /// Copies the target's location (point `head_tail` along it: 0 head, 1 tail) on the
    /// chosen axes.
    CopyLocation {
        /// Target bone.
        target: String,
        /// Point along the target bone, 0 head .. 1 tail.
        #[serde(default)]
        head_tail: f32,
        /// Which of X, Y, Z are copied.
        axes: [bool; 3],
    },
    /// Copies the target's rotation on the chosen axes (all three: the whole rotation).
    CopyRotation {
        /// Target bone.
        target: String,
        /// Which Euler axes are copied.
        axes: [bool; 3],
        /// How it mixes with the owner's rotation.
        #[serde(default)]
        mix: RotMix,
    },
    /// Copies the target's scale on the chosen axes.
    CopyScale {
        /// Target bone.
        target: String,
        /// Which axes are copied.
        axes: [bool; 3],
    },
    /// Copies the target's whole matrix.
    CopyTransforms {
        /// Target bone.
        target: String,
        /// How it mixes with the owner's matrix.
        #[serde(default)]
        mix: TransMix,
    },
    /// Turns the owner's Y axis toward a point of the target by the shortest rotation
    /// (never adds roll).
    DampedTrack {
        /// Target bone.
        target: String,
        /// Point along the target bone, 0 head .. 1 tail.
        #[serde(default)]
        head_tail: f32,
    },
    /// Aims Y at the target and stretches Y to reach it (no volume preservation; X kept
    /// in the plane of the owner's X axis).
    StretchTo {
        /// Target bone.
        target: String,
        /// Point along the target bone, 0 head .. 1 tail.
        #[serde(default)]
        head_tail: f32,
        /// The distance at which the scale is 1, metres.
        rest_length: f32,
    },
    /// Clamps the XYZ Euler angles of the owner (in its owner space).
    LimitRotation {
        /// `[min, max]` radians per axis, `None` for a free axis.
        limits: [Option<[f32; 2]>; 3],
    },
    /// Clamps the owner's location per axis.
    LimitLocation {
        /// `[min, max]` per axis, metres; either bound may be absent.
        limits: [Bounds; 3],
        /// Whether the transform tools also respect the limit (a control dragged past
        /// it does not "go dead"); no effect on evaluation.
        #[serde(default)]
        affect_transform: bool,
    },
    /// Inverse kinematics on the owner and its parents (`chain` bones, 2 for limbs),
    /// reaching the target's head with the owner's tail. The pole turns the chain's
    /// plane: the chain root's axis `X cos(pole_angle) + Z sin(pole_angle)` points at
    /// the pole (perpendicular to root -> goal). Bones with `ik_lock` on Y and Z bend
    /// about their X only.
    Ik {
        /// Goal bone (its head).
        target: String,
        /// Pole bone (its head), if any.
        #[serde(default)]
        pole: Option<String>,
        /// Pole angle, radians.
        #[serde(default)]
        pole_angle: f32,
        /// Chain length (bones, the owner included).
        chain: usize,
    },
    /// Maps a channel of the target (its `target_space`) to a channel of the owner:
    /// owner axis `i` takes target axis `map[i]`, `from` range to `to` range.
    Transformation {
        /// Target bone.
        target: String,
        /// Source channel.
        from: Channel,
        /// Destination channel.
        to: Channel,
        /// For each destination axis, the source axis (0 X, 1 Y, 2 Z).
        map: [usize; 3],
        /// Source range minimum per source axis.
        from_min: [f32; 3],
        /// Source range maximum per source axis.
        from_max: [f32; 3],
        /// Destination value at `from_min`, per destination axis.
        to_min: [f32; 3],
        /// Destination value at `from_max`, per destination axis.
        to_max: [f32; 3],
        /// Extrapolate past the source range instead of clamping.
        #[serde(default)]
        extrapolate: bool,
        /// How a rotation result mixes with the owner's (location adds, scale replaces).
        #[serde(default)]
        mix: RotMix,
    },
    /// Parents the owner to the target by constraint: `target * inverse * owner`.
    ChildOf {
        /// Target bone.
        target: String,
        /// The inverse matrix (the target's rest matrix inverted, usually).
        inverse: Mat4,
    },
}

impl Kind {
    /// The bones this constraint reads (target, and pole for IK).
    pub fn targets(&self) -> Vec<&str> {
        match self {
            Kind::LimitRotation { .. } | Kind::LimitLocation { .. } => Vec::new(),
            Kind::Ik { target, pole, .. } => {
                let mut v = vec![target.as_str()];
                if let Some(p) = pole {
                    v.push(p.as_str());
                }
                v
            }
            Kind::CopyLocation { target, .. }
            | Kind::CopyRotation { target, .. }
            | Kind::CopyScale { target, .. }
            | Kind::CopyTransforms { target, .. }
            | Kind::DampedTrack { target, .. }
            | Kind::StretchTo { target, .. }
            | Kind::Transformation { target, .. }
            | Kind::ChildOf { target, .. } => vec![target.as_str()],
        }
    }

    /// The Blender type name (`COPY_ROTATION`).
    pub fn blender_type(&self) -> &'static str {
        match self {
            Kind::CopyLocation { .. } => "COPY_LOCATION",
            Kind::CopyRotation { .. } => "COPY_ROTATION",
            Kind::CopyScale { .. } => "COPY_SCALE",
            Kind::CopyTransforms { .. } => "COPY_TRANSFORMS",
            Kind::DampedTrack { .. } => "DAMPED_TRACK",
            Kind::StretchTo { .. } => "STRETCH_TO",
            Kind::LimitRotation { .. } => "LIMIT_ROTATION",
            Kind::LimitLocation { .. } => "LIMIT_LOCATION",
            Kind::Ik { .. } => "IK",
            Kind::Transformation { .. } => "TRANSFORM",
            Kind::ChildOf { .. } => "CHILD_OF",
        }
    }
}

/// One constraint of a bone's stack (stacks evaluate top to bottom).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    /// Name, unique on its bone (`FK`, `IK`, `twist`).
    pub name: String,
    /// What it does.
    #[serde(flatten)]
    pub kind: Kind,
    /// Space the owner is read and written in.
    #[serde(default)]
    pub owner_space: Space,
    /// Space the target is read in.
    #[serde(default)]
    pub target_space: Space,
    /// Influence 0..1 (replaced by the driver's value when there is one).
    pub influence: f32,
    /// A driver on the influence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub driver: Option<Driver>,
}

impl Constraint {
    /// A constraint with full influence, world spaces and no driver.
    pub fn new(name: impl Into<String>, kind: Kind) -> Constraint {
        Constraint {
            name: name.into(),
            kind,
            owner_space: Space::World,
            target_space: Space::World,
            influence: 1.0,
            driver: None,
        }
    }

    /// The same constraint evaluated in these spaces.
    pub fn spaces(mut self, owner: Space, target: Space) -> Constraint {
        self.owner_space = owner;
        self.target_space = target;
        self
    }

    /// The same constraint with this influence.
    pub fn influence(mut self, v: f32) -> Constraint {
        self.influence = v;
        self
    }

    /// The same constraint with its influence driven.
    pub fn driven(mut self, d: Driver) -> Constraint {
        self.driver = Some(d);
        self
    }
}

/// One input of a driver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DriverVar {
    /// A custom property of a bone (the settings bone's switches).
    SingleProp {
        /// The bone carrying the property.
        bone: String,
        /// The property's name.
        prop: String,
    },
    /// The angle between two bones' posed rotations, radians.
    RotationDiff {
        /// First bone.
        a: String,
        /// Second bone.
        b: String,
    },
}

/// How a driver combines its variables (`s` is their sum).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DriverExpr {
    /// `s`.
    Sum,
    /// `s * factor + offset`.
    Scale {
        /// Multiplier.
        factor: f32,
        /// Added after scaling.
        offset: f32,
    },
    /// `clamp(s, min, max)`.
    Clamp {
        /// Lower bound.
        min: f32,
        /// Upper bound.
        max: f32,
    },
}

/// A driver: variables and an expression; its value sets a constraint's influence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Driver {
    /// The inputs, named `a`, `b`, `c`... in the expression.
    pub vars: Vec<DriverVar>,
    /// How they combine.
    pub expr: DriverExpr,
}

impl Driver {
    /// A driver reading one property of the settings bone as it is.
    pub fn prop(bone: &str, prop: &str) -> Driver {
        Driver {
            vars: vec![DriverVar::SingleProp {
                bone: bone.into(),
                prop: prop.into(),
            }],
            expr: DriverExpr::Sum,
        }
    }

    /// The expression as Blender's simple-expression evaluator reads it (no Python
    /// needed, so it runs with auto-run scripts off).
    pub fn expression(&self) -> String {
        let names: Vec<String> = (0..self.vars.len()).map(var_name).collect();
        let s = if names.is_empty() {
            "0.0".to_string()
        } else {
            names.join(" + ")
        };
        match self.expr {
            DriverExpr::Sum => s,
            DriverExpr::Scale { factor, offset } => format!("({s}) * {factor:?} + {offset:?}"),
            DriverExpr::Clamp { min, max } => format!("clamp({s}, {min:?}, {max:?})"),
        }
    }
}

/// The name of driver variable `i` in expressions: `a`, `b`, ... `z`, `v26`...
pub fn var_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("v{i}")
    }
}

/// How Blender draws a control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Widget {
    /// No custom shape (MCH, DEF).
    #[default]
    None,
    /// A circle around the bone (FK controls).
    Circle,
    /// A box (IK controls, the settings bone).
    Box,
    /// A small sphere (poles, pivots).
    Sphere,
}

/// One bone of a control rig, at rest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ControlBone {
    /// Unique name.
    pub name: String,
    /// DEF, MCH, CTRL or ORG.
    pub role: BoneRole,
    /// Parent bone's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Rest head, metres.
    pub head: Vec3,
    /// Rest tail, metres.
    pub tail: Vec3,
    /// Rest X axis (orthogonal to the bone after [`crate::model::Bone::frame`]).
    pub x_axis: Vec3,
    /// Whether it deforms (only DEF bones may).
    pub deform: bool,
    /// The constraint stack, top first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
    /// IK locks on X, Y, Z (a hinge locks Y and Z).
    #[serde(default)]
    pub ik_lock: [bool; 3],
    /// Custom shape.
    #[serde(default)]
    pub widget: Widget,
}

impl ControlBone {
    /// The rest frame as a skeleton bone (for [`crate::model::Bone::rest_matrix`]).
    pub fn as_bone(&self) -> crate::model::Bone {
        let mut b = crate::model::Bone::new(self.name.clone(), None, self.head, self.tail);
        b.x_axis = self.x_axis;
        b
    }

    /// Rest length, metres.
    pub fn length(&self) -> f32 {
        (self.tail - self.head).length()
    }
}

/// A custom property on a bone (a 0/1 switch or a 0..1 slider), with its UI range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Property {
    /// The bone carrying it (the settings bone).
    pub bone: String,
    /// Its name (`leg_ik.L`).
    pub name: String,
    /// Default value (Reset to Default sets it).
    pub default: f32,
    /// UI minimum.
    pub min: f32,
    /// UI maximum.
    pub max: f32,
    /// Whether it is a switch: exactly 0 or 1 in production (UI step 1).
    pub switch: bool,
    /// What it does, in plain words.
    pub description: String,
}

/// A control rig: bones (DEF first, parents before children), properties, and what the
/// generator could not build.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ControlRig {
    /// Body height H the rig was built for, metres (tolerances scale with it).
    pub height: f32,
    /// The bone carrying the custom properties.
    pub settings: String,
    /// The bones.
    pub bones: Vec<ControlBone>,
    /// Custom properties.
    pub properties: Vec<Property>,
    /// Parts of the template that could not be built, with the bones they need.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

impl ControlRig {
    /// Index of the bone named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// The bone named `name`.
    pub fn bone(&self, name: &str) -> Option<&ControlBone> {
        self.bones.iter().find(|b| b.name == name)
    }

    /// The bone named `name`, mutable.
    pub fn bone_mut(&mut self, name: &str) -> Option<&mut ControlBone> {
        self.bones.iter_mut().find(|b| b.name == name)
    }

    /// Names of the deform bones, in order.
    pub fn deform_names(&self) -> Vec<&str> {
        self.bones
            .iter()
            .filter(|b| b.deform)
            .map(|b| b.name.as_str())
            .collect()
    }

    /// Every driver with the bone and constraint that carry it.
    pub fn drivers(&self) -> Vec<(&ControlBone, &Constraint, &Driver)> {
        let mut v = Vec::new();
        for b in &self.bones {
            for c in &b.constraints {
                if let Some(d) = &c.driver {
                    v.push((b, c, d));
                }
            }
        }
        v
    }

    /// The property named `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
}

/// A bone's local channels: location (metres, rest frame), rotation and scale, on top
/// of its rest pose.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transform {
    /// Location in the bone's rest frame.
    #[serde(default)]
    pub location: Vec3,
    /// Rotation (x, y, z, w).
    #[serde(default = "quat_identity")]
    pub rotation: Quat,
    /// Scale.
    #[serde(default = "vec3_one")]
    pub scale: Vec3,
}

fn quat_identity() -> Quat {
    Quat::IDENTITY
}

fn vec3_one() -> Vec3 {
    Vec3::ONE
}

impl Default for Transform {
    fn default() -> Self {
        Transform {
            location: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
        }
    }
}

impl Transform {
    /// `T(location) * R(rotation) * S(scale)`.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation.normalize(), self.location)
    }
}

/// A pose of the controls: channels of the bones that move and property values (the
/// rest are at rest and at their defaults).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ControlPose {
    /// Bone name -> local channels.
    #[serde(default)]
    pub bones: BTreeMap<String, Transform>,
    /// Property name -> value.
    #[serde(default)]
    pub props: BTreeMap<String, f32>,
}
