//! The blend across a limb joint: where a bone hands over to the one that continues it
//! (upper arm to forearm, shoulder to upper arm, thigh to calf), the skin near the
//! joint is heated by both bones, in shares that run linearly across a band as wide as
//! the limb there.
//!
//! Bone heat heats each vertex from one bone, its nearest by reach. On a low-poly limb
//! the edge ring at the elbow then goes to one bone at about 0.86, where an artist
//! paints it 50/50 (the platformer chibi's elbow ring: forearm 0.86 against the
//! artist's 0.48), and the transition is as sharp as the heat's diffusion length, a
//! third of the limb's radius. A rigger blends a joint over about the limb's radius
//! on either side. So a vertex heated by either bone of a joint, lying within
//! `half` of the joint's plane, is heated by both: the child's share
//! `f = (1 + s / half) / 2`, `s` the signed distance from the joint along the mean
//! direction of the two bones, the parent's `1 - f`. `half` is [`BAND`] times the
//! thickness of the flesh at the joint ([`super::bone_reach`], the thinner of the two
//! bones there).
//!
//! Blended are the joints where the parent's tail is the head of exactly one child and
//! either
//! - both bones are off the centre line and no bone past the joint ends within
//!   [`FLOOR`] of the skeleton's lowest point: the joints of limbs that do not reach
//!   the floor (arms, fingers, ears), band [`BAND`]; or
//! - both bones are on the centre line and the joint lies between the legs' roots and
//!   the arms' root: the trunk's joints (pelvis to the first spine bone, between spine
//!   bones), band [`SPINE_BAND`]. An artist blends the spine bones smoothly; heated
//!   from one bone each, the belly went from one spine bone to the next in a step.
//!   Across the trunk `s` is measured along the vertical (the binder's up), not the
//!   bones' direction: the lumbar spine leans (MakeHuman's `spine_01` 20 degrees
//!   forward), and a band square to it ran lower at the belly than at the back, where
//!   the artist's bands are level or higher in front (the `spine_01` / `spine_02`
//!   hand-over at the front of `base`: artist at 1.04 m, square to the bones 0.98 m,
//!   joint 1.003 m). Pooled p95 against the artist, % H: `base.welded` 0.666 -> 0.651,
//!   `base.dressed` 0.851 -> 0.828, `child.dressed` 0.742 -> 0.736.
//!
//! **The trunk's hand-over is painted after the solve** ([`JointBlend::paint_trunk`]).
//! The band above sets the heat's sources, and the heat follows them where it is
//! strong, near the spine. At the belly, 0.08-0.1 H in front of the spine, the heat is
//! weak and its diffusion decides: the hand-over came out as narrow there as over the
//! spine and centred at the joint's height. A rigger paints the trunk as a fan about
//! the spine: on the MakeHuman artist's 14 bodies the `spine_01` / `spine_02`
//! hand-over rises from 10 to 90 % over 0.05-0.07 H at the back and 0.11-0.13 H at the
//! belly, and is centred 0.004-0.023 H below the joint at the back and from 0.002 H
//! below to 0.028 H above it at the belly. So a solved vertex whose weight lies mostly
//! (more than half) on the two bones of one trunk joint, within [`TRUNK_REACH`]
//! thicknesses of the joint's height, has those two weights' sum shared again along a
//! ramp across the vertical: centred [`TRUNK_CENTRE`] of the thickness above the joint
//! on the spine's vertical and rising [`TRUNK_RISE`] per unit toward the front (+Z, where
//! the reader and the model check turn the character), with a half-width of
//! [`TRUNK_CORE`] of the thickness on that vertical growing by [`TRUNK_SPREAD`] per unit
//! of horizontal distance from it. The spine's joints lie 0.04-0.06 H apart and the
//! belly's ramps are wider than that, so a vertex lies in the reach of two joints; it is
//! painted by the one in whose ramp it lies nearest the middle (chosen by the larger
//! weight on the two bones instead, the belly above a joint was painted by the joint
//! above it, and its ramp there had already reached the upper bone). Its other bones
//! keep their weights. Measured on the re-weighting benchmark (13 cases, 169
//! character-poses) and on `bench/weights_vs_blender.sh` (14 MakeHuman bodies, 182
//! body-poses): behind Blender 23 -> 11 and 15 -> 12, no pose lost, no spine pose
//! behind on either; `base.dressed` spine twist p95 0.249 -> 0.137 % H (Blender 0.158).
//! The pooled p95 fell on the bodies the artist paints higher at the belly (`female`
//! 0.493 -> 0.447, `base.dressed` 0.818 -> 0.742 % H) and rose on those it paints level
//! (`male` 0.625 -> 0.669, `heavy` 0.657 -> 0.714; Blender 1.44-1.45). Coarse skins take
//! the volumetric route, which this does not touch.
//!
//! The elbow (a limb joint whose upper bone follows another off-centre bone and whose
//! lower bone is followed by exactly one: the elbow, and a finger's middle knuckle) is
//! blended as an artist blends it, centred proximal of the joint: the forearm's flesh,
//! the muscles that work the hand, starts on the upper arm. The MakeHuman artist's
//! elbow is half and half 8 % of the upper arm before the joint and 0.80 forearm at it;
//! the platformer chibi's (Blender's heat, touched up) 0.75 forearm on the ring 1.7 cm
//! before it. The band's centre lies [`ELBOW_SHIFT`] of the thickness before the
//! joint, at most [`ELBOW_SHIFT_MAX`] of the upper arm, and its half-width is
//! [`ELBOW_BAND`] of the thickness (narrower than the other limb joints': the elbow p95
//! mean over MakeHuman's 14 bodies 0.248 -> 0.230 % H, the wrist twist 0.187 -> 0.168),
//! at most [`ELBOW_BAND_MAX`] of the shorter of the two bones: a short, thick arm (the chibi's
//! upper arm is 2.6 times as long as it is thick) blended over its thickness gave a
//! quarter of the upper arm's middle to the forearm (0.26 at 13 cm from the joint; the
//! artist 0.15).
//!
//! The shoulder (the joint past an arm's root bone, the clavicle: an off-centre bone no
//! off-centre bone leads into, whose chain does not reach the floor and reaches at least
//! half as far sideways as the widest such, starting within [`SHOULDER_ROOT`] of that
//! reach from the centre line) is blended wider than the other limb joints and toward
//! the clavicle: half-width [`SHOULDER_BAND`] of the thickness, centred
//! [`SHOULDER_SHIFT`] of it before the joint, reaching into the clavicle at most
//! [`SHOULDER_IN`] of its length. The MakeHuman artist spreads the upper arm over the
//! deltoid and the top of the shoulder; blended as the elbow's neighbours, the arm
//! poses stayed at Blender's level on half the bodies (`base` arm forward p95 0.591
//! against 0.573 % H). Wide and shifted, they are won on all 14 bodies and on every
//! re-weighting case (`base.welded` 0.516, `female.split` 0.713 -> 0.526 against
//! 0.827).
//!
//! The knee is blended over a narrow band ([`KNEE_BAND`] of its thickness either side)
//! centred just below it ([`KNEE_SHIFT`]): blended as wide as the arm's, the MakeHuman
//! knee bent 120 degrees moved from p95 0.35 to 0.54 % H against the artist (Blender
//! 0.38; BENCHMARKS.md, *The blend across a limb joint*); the narrow band brings the
//! shin's share at the joint from firm heat's 0.65 toward the artist's 0.42 and the
//! knee's p95 to 0.33. The ankle keeps its firm heat, and so do the neck and the head,
//! which the head poses win by a wide margin.
//!
//! **The knee's hand-over is painted after the solve too** ([`JointBlend::paint_knee`]),
//! in part. The MakeHuman artist's is lower in front and on the inner side: 1.25-1.75
//! % H below the joint the shin holds 0.43-0.57 at the kneecap (the solve 0.68-0.79)
//! and 0.30-0.45 on the inner side (the solve 0.65-0.75); moving the knee's band that
//! way before the solve lost `child`'s knee at every setting (BENCHMARKS.md, *The
//! knee's front and inner side*). A solved vertex on which the thigh and the shin hold
//! more than half of the weight, within [`KNEE_PAINT_REACH`] of its side's knee, has
//! the shin's share of that sum moved [`KNEE_PAINT`] of the way from its own to a
//! ramp's: along the shin, half [`KNEE_PAINT_CENTRE`] below the joint, lower by
//! [`KNEE_PAINT_FRONT`] per unit in front of the shin's axis and by [`KNEE_PAINT_IN`]
//! per unit toward the centre line, over a half-width of [`KNEE_PAINT_HALF`], all in
//! units of the thigh's length. The paint fades to none over [`KNEE_PAINT_EDGE`] of the
//! half-width at the ramp's ends and [`KNEE_PAINT_FADE`] of the reach at its edge: at
//! full strength to the ends, the shin's share jumped there, and the demo mannequin's
//! knee corrective failed its spike check (0.532, limit 0.5; 0.412 with the fade). The
//! constants were searched on the 14 bodies' solved weights (knee bent, squat, leg
//! forward and side against the artist) from a least-squares fit of the artist's shin
//! share; the ramp alone (the share all the ramp's) lost `child`'s knee (0.404 against
//! Blender's 0.346 % H); moved part of the way it keeps all 14 at or below Blender's:
//! `heavy` 0.452 -> 0.433 (Blender 0.449), `heavy_female` 0.350 -> 0.295 (0.345),
//! `child` 0.346 -> 0.329 (0.346).
//!
//! **The hip's hand-over is painted after the solve** ([`JointBlend::paint_hip`]). The
//! thighs start beside the pelvis, not at its tail, so the hip has no band and its heat
//! is firm: the solve handed the crotch and the side of the hip to the thighs, where
//! the MakeHuman artist gives the pelvis 0.7-0.85 of the crotch down to 5-7 % H below
//! the hip joints and 0.3-0.45 of the hip's side at the joint's height. The hips are
//! the two legs' roots (`LimbRoots`) on either side of the centre line, with the
//! centre-line bone nearest the middle of their heads as the pelvis. A solved vertex on
//! which the pelvis and the thighs hold more than half of the weight, within
//! [`HIP_REACH`] of its side's hip joint, has the pelvis's share of that sum moved
//! [`HIP_PAINT`] of the way from its own to a ramp's, in units of `w`, the joint's
//! distance from the centre line (at most [`HIP_MAX`] of the thigh's length): the
//! ramp's share is half [`HIP_CENTRE`] straight below the joint, the line lower toward
//! the centre line and higher outward by [`HIP_TILT`] per unit (the crotch is the
//! pelvis's, the side of the hip the thigh's), higher by [`HIP_FRONT`] per unit in
//! front of the joint (the groin's crease), over a half-width of [`HIP_HALF`]; the
//! paint fades to none over [`HIP_EDGE`] of the half-width at the ramp's ends. The
//! thighs share the rest as they held it. Outside the ramp, and on a closed piece that
//! does not hold the pelvis ([`super::piece_bones`]), the solve stands. A least-squares
//! fit of the artist's pelvis share about the hip over the 14 bodies, painted in full
//! (its rms error there 0.15-0.33 -> 0.09-0.12), raised `old`'s leg poses (leg forward
//! 0.643 -> 0.870 % H), whose groin crease lies higher on its joint; the constants are
//! the best of 160 settings about it scored on the 14 bodies' leg poses, applied to
//! their solved weights in a script. On `bench/weights_vs_blender.sh`, with the knee's
//! paint, the mean of the 14 bodies' pooled p95 went 0.5875 -> 0.5458 % H, lower on
//! every body (`old` 0.566 -> 0.560), and `child_male`'s leg side 0.928 -> 0.373
//! (Blender 0.874); `base.welded` leg forward 1.108 -> 0.564 (Blender 2.047).

use glam::Vec3;

use super::bone_reach::{thickness_at, JOINT_TOL};
use super::bones::Segment;
use crate::geom::segment::closest_on_segment;
use crate::model::{weight_of, Influence};

/// Half-width of the blend band, in units of the flesh's thickness at the joint.
/// Measured on the re-weighting benchmark (MakeHuman arm poses, p95 % H on `female`
/// arm up / arm forward): 0.5: 0.79 / 0.88, **1.0: 0.61 / 0.71**, 1.5: 0.51 / 0.55
/// (Blender 0.74 / 0.83); 1.5 lost the elbow on `base` (0.34 against Blender's 0.33)
/// and the chibi's arm poses (arm up 1.04 -> 1.42).
pub const BAND: f32 = 1.0;

/// A vertex farther than this many times the flesh's thickness at a joint from the
/// joint's axis is not blended there.
pub const PERP: f32 = 2.0;

/// A bone whose head and tail both lie within this distance (units of the mesh, the
/// binder's H) of the centre plane x = 0 is on the centre line.
pub const CENTRE: f32 = 0.01;

/// A limb whose bones end within this distance (units of the mesh, the binder's H) of
/// the lowest bone end of the skeleton reaches the floor: a leg.
pub const FLOOR: f32 = 0.1;

/// Half-width of the blend band at a joint of the trunk, in units of the flesh's
/// thickness at the joint. Measured on the re-weighting benchmark (spine twist p95 % H
/// on `base.dressed` / `child.dressed`, Blender 0.16 / 0.15; unblended 0.37 / 0.32):
/// 0.5: 0.24 / 0.25, **0.75: 0.23 / 0.25**, 1.0: 0.22 / 0.26 with the chibi's legs
/// worse (leg side 1.59 -> 1.60, pooled p95 1.286 -> 1.306; 0.75: 1.284).
pub const SPINE_BAND: f32 = 0.75;

/// Half-width of the elbow's band, in units of the flesh's thickness at the joint (at
/// most [`ELBOW_BAND_MAX`] of the shorter bone). Measured on `bench/weights_vs_blender.sh`
/// (14 MakeHuman bodies; elbow p95 % H on `heavy`, Blender 0.252; mean of the pooled
/// p95s): the limbs' 1.0: 0.258 (0.5899); **0.8: 0.232 (0.5875)**; 0.6: 0.221 (0.5863);
/// 0.4: 0.185 (0.5866), `short`'s elbow worse. At 0.6 the MakeHuman baby's chubby elbow
/// bent 120 degrees kept 0.843 of its volume with its correctives (limit 0.85; 0.874 at
/// 0.8, 0.889 at 1.0). Measured once the shoulder had its own band ([`SHOULDER_BAND`]):
/// with the limbs' band shared, the shoulder's width had set it.
pub const ELBOW_BAND: f32 = 0.8;
/// How far before the joint (toward the upper arm) the elbow's band is centred, in
/// units of the limbs' band (1.0 of the thickness), at most [`ELBOW_SHIFT_MAX`].
/// Measured on `bench/weights_vs_blender.sh` (14 MakeHuman bodies, 182 body-poses):
/// rigsmith behind Blender on 35 -> 23 (elbow p95 mean 0.354 -> 0.248 % H, wrist twist
/// 0.250 -> 0.187); shifted the shoulder too, the chibi's arm poses lost more (arm up
/// 0.70 -> 0.80).
pub const ELBOW_SHIFT: f32 = 0.5;
/// The most the elbow's band is shifted, as a fraction of the upper arm's length.
pub const ELBOW_SHIFT_MAX: f32 = 0.05;
/// Half-width of the knee's band, in units of the flesh's thickness at the knee (the
/// limbs' [`band`](JointBlend::new) is 1.0). Measured on the re-weighting benchmark
/// (knee_120 p95 % H on `base.welded` / `child.dressed` / `heavy.dressed`, Blender
/// 0.384 / 0.508 / 0.576; firm heat 0.348 / 0.462 / 0.640): 0.3: 0.318 / 0.487 / 0.591,
/// **0.4: 0.333 / 0.496 / 0.584**, 0.5: 0.355 / 0.509 / 0.579, 0.6: 0.372 / 0.544 /
/// 0.569; 1.0 (as the arm's) lost every MakeHuman knee.
pub const KNEE_BAND: f32 = 0.4;
/// How far past the knee (toward the shin) its band is centred, in units of the
/// thickness: the MakeHuman artist's thigh-to-shin hand-over lies just below the joint
/// (shin 0.42 on the ring 0-1 % H below it on `base`; firm heat 0.65). 0.08 won
/// `base.dressed`'s knee further (0.530) and lost the chibi's (1.397 against 1.150).
pub const KNEE_SHIFT: f32 = 0.05;
/// A leg's joint is a knee when it stands higher above the floor than this share of
/// the height of its upper bone's head (the ankle does not).
pub const KNEE_HIGH: f32 = 0.33;
/// The elbow's band's half-width is at most this fraction of the shorter of its two
/// bones. Uncapped, the shift lost the chibi's elbow (p95 1.30 -> 1.42 % H, Blender
/// 1.16); at 0.3 it is won (0.94) and its wrist twist gains (1.32 -> 1.07). MakeHuman's
/// arms are long for their thickness and never reach it.
pub const ELBOW_BAND_MAX: f32 = 0.3;

/// Half-width of the shoulder's band (the joint between the arm's root bone, the
/// clavicle, and the upper arm), in units of the flesh's thickness there: the
/// deltoid's flesh spreads the hand-over over the top of the shoulder. Measured with
/// [`SHOULDER_SHIFT`] on the re-weighting benchmark (arm down / up / forward p95 % H
/// on `base.welded`, Blender 0.228 / 0.603 / 0.573): the limbs' 1.0: 0.229 / 0.573 /
/// 0.591; 1.5: 0.224 / 0.558 / 0.567; 1.5 shifted 0.3: 0.200 / 0.506 / 0.528; **1.75
/// shifted 0.3: 0.192 / 0.485 / 0.516**; 2.0 shifted 0.3: 0.185 / 0.479 / 0.491, which
/// lost `child_male`'s arm forward on `bench/weights_vs_blender.sh` (0.632 against
/// Blender's 0.615).
pub const SHOULDER_BAND: f32 = 1.75;
/// How far before the shoulder (toward the clavicle) its band is centred, in units of
/// the thickness (at 1.5: 0.0 / 0.1 / 0.2 / 0.3 / 0.5 gave `base.welded` arm forward
/// 0.567 / 0.551 / 0.554 / 0.528 / 0.517 and `female.split` 0.552 / 0.573 / 0.603 /
/// 0.589 / 0.641).
pub const SHOULDER_SHIFT: f32 = 0.3;
/// The shoulder's band reaches toward the trunk at most this share of the clavicle's
/// length (its shift given up first, then its half-width): a stubby clavicle is not
/// blended into the chest. The platformer chibi's clavicle is 1.3 times as long as
/// the flesh is thick at its shoulder, MakeHuman's 3.4 times; the chibi's artist
/// (Blender's heat) hands its shoulder over sharply and lost every arm pose with any
/// shift (arm forward 0.671 -> 0.880 at 0.15 of the thickness). Its arm up / forward
/// p95 at 0.65 / **0.72** / 0.8: 0.673 / 0.668 / 0.725 and 0.579 / 0.643 / 0.698 % H
/// (before 0.705 / 0.671); on the 14 MakeHuman bodies 0.65 left the baby's, `heavy`'s
/// and `muscular`'s shoulders narrower than they measure best (the baby's arm up 0.600
/// -> 0.661 against 0.536 at 0.8).
pub const SHOULDER_IN: f32 = 0.72;
/// An arm's root bone is a clavicle when its head lies within this share of the arm's
/// reach from the centre line (an arm with no clavicle starts at the shoulder).
pub const SHOULDER_ROOT: f32 = 0.2;

/// The trunk's painted hand-over ([`JointBlend::paint_trunk`]): its centre lies this
/// far above the joint on the vertical through it, in units of the flesh's thickness
/// at the joint...
pub const TRUNK_CENTRE: f32 = 0.2;
/// ...and rises by this much per unit toward the front (+Z): higher at the belly, lower
/// at the back.
pub const TRUNK_RISE: f32 = 0.45;
/// Its half-width at the joint's vertical, in units of the thickness...
pub const TRUNK_CORE: f32 = 0.25;
/// ...grows by this much per unit of horizontal distance from that vertical: narrow at
/// the back over the spine, wide at the belly and the flanks.
pub const TRUNK_SPREAD: f32 = 0.7;
/// A vertex is painted at a trunk joint when it lies within this many thicknesses of
/// the joint's height and the joint's two bones hold more than half of its weight.
pub const TRUNK_REACH: f32 = 2.7;

/// The hip's painted hand-over ([`JointBlend::paint_hip`]), in units of the hip's
/// distance from the centre line: the ramp's pelvis share is half this far below the
/// joint straight down from it...
pub const HIP_CENTRE: f32 = 0.27;
/// ...lower by this much per unit toward the centre line (the crotch is the pelvis's),
/// higher outward (the side of the hip is the thigh's)...
pub const HIP_TILT: f32 = 0.74;
/// ...and higher by this much per unit in front of the joint (the groin's crease).
pub const HIP_FRONT: f32 = 0.25;
/// Its half-width.
pub const HIP_HALF: f32 = 1.08;
/// The ramp's unit is at most this share of the thigh's length: the platformer chibi's
/// stub legs hang from hips 2.2 times as far apart as its thighs are long, and its
/// artist (Blender's heat) gives the pelvis nothing lateral of the crotch. Measured with
/// the first, fitted ramp painted in full: uncapped, its
/// leg forward p95 went 2.136 -> 4.377 % H and its squat 2.706 -> 5.274 (Blender
/// 1.950, 3.215). At 0.3 / **0.25** / 0.2 its leg forward was 2.168 / 2.136 / 2.136,
/// and the mean pooled p95 of `bench/weights_vs_blender.sh`'s 14 bodies 0.5513 /
/// 0.5506 / 0.5596 (0.5875 unpainted; at 0.2 the cap binds on every MakeHuman body).
pub const HIP_MAX: f32 = 0.25;
/// A vertex farther than this from the hip joint is not painted there.
pub const HIP_REACH: f32 = 2.5;
/// How far the pelvis's share is moved from its own to the ramp's...
pub const HIP_PAINT: f32 = 0.88;
/// ...fading to none over this share of the half-width at either end of the ramp.
pub const HIP_EDGE: f32 = 0.28;

/// The knee's painted hand-over ([`JointBlend::paint_knee`]), in units of the thigh's
/// length: the ramp's shin share is half this far below the joint along the shin...
pub const KNEE_PAINT_CENTRE: f32 = 0.03;
/// ...lower by this much per unit in front of the shin's axis (the kneecap is the
/// thigh's)...
pub const KNEE_PAINT_FRONT: f32 = 0.17;
/// ...and by this much per unit toward the centre line (the inner side of the knee).
pub const KNEE_PAINT_IN: f32 = 0.18;
/// Its half-width.
pub const KNEE_PAINT_HALF: f32 = 0.11;
/// How much of the painted shin share is the ramp's; the rest is the solve's.
pub const KNEE_PAINT: f32 = 0.7;
/// A vertex this far from the knee (units of the thigh's length) is not painted there.
pub const KNEE_PAINT_REACH: f32 = 0.3;
/// The paint fades to none over this share of the ramp's half-width at either end...
pub const KNEE_PAINT_EDGE: f32 = 0.2;
/// ...and over this share of the reach at its edge.
pub const KNEE_PAINT_FADE: f32 = 0.3;

/// One blended joint.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Joint {
    /// Segment index of the parent (the bone whose tail is the joint).
    parent: u32,
    /// Segment index of the child.
    child: u32,
    /// The joint.
    at: Vec3,
    /// Unit mean direction of the two bones.
    axis: Vec3,
    /// Half-width of the band.
    half: f32,
    /// Farthest a blended vertex lies from the joint's axis.
    reach: f32,
    /// How far before the joint (toward the parent) the band is centred.
    before: f32,
    /// Whether this is a joint of the trunk (its hand-over is painted:
    /// [`JointBlend::paint_trunk`]).
    trunk: bool,
    /// The flesh's thickness at the joint.
    thick: f32,
    /// Whether this is a knee (its hand-over is painted too: [`JointBlend::paint_knee`]).
    knee: bool,
}

/// The limb joints of a skeleton and the bands around them.
#[derive(Debug, Clone, Default)]
pub struct JointBlend {
    joints: Vec<Joint>,
    /// Per segment, the joints it belongs to.
    by_seg: Vec<Vec<usize>>,
    /// Per segment, whether it is a spine bone: the child of a joint of the trunk.
    spine: Vec<bool>,
    /// The hips, whose hand-over from the pelvis to the thigh is painted
    /// ([`JointBlend::paint_hip`]).
    hips: Option<[Hip; 2]>,
}

/// A hip: where a leg's root bone (the thigh) starts beside the centre-line bone the
/// legs hang from (the pelvis).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Hip {
    /// Segment index of the pelvis.
    pelvis: u32,
    /// Segment index of the thigh.
    thigh: u32,
    /// The hip joint: the thigh's head.
    at: Vec3,
    /// The ramp's unit: how far the joint lies from the centre line (|x|), at most
    /// [`HIP_MAX`] of the thigh's length.
    wide: f32,
}

/// Whether segment `b` starts where segment `a` ends ([`JOINT_TOL`]).
fn meets(a: &Segment, b: &Segment) -> bool {
    let tol = JOINT_TOL * (a.tail - a.head).length().min((b.tail - b.head).length());
    (b.head - a.tail).length() <= tol
}

/// The greatest |x| of the bones from segment `c` on (following the bones that start
/// where one ends).
fn extent(segments: &[Segment], c: usize) -> f32 {
    let mut stack = vec![c];
    let mut seen = vec![false; segments.len()];
    let mut x = 0.0f32;
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        let s = &segments[k];
        x = x.max(s.head.x.abs()).max(s.tail.x.abs());
        stack.extend((0..segments.len()).filter(|&o| o != k && meets(s, &segments[o])));
    }
    x
}

/// Whether a bone lies off the centre line ([`CENTRE`]).
fn off_centre(s: &Segment) -> bool {
    s.head.x.abs() > CENTRE || s.tail.x.abs() > CENTRE
}

/// The roots of the limbs: the off-centre bones no off-centre bone leads into. The legs'
/// (a bone from them on reaches the floor) and the others' (arms, fingers that do not
/// start at the hand's tail, ears), the latter each with how far its chain reaches from
/// the centre line ([`extent`]).
struct LimbRoots {
    legs: Vec<usize>,
    others: Vec<(usize, f32)>,
    /// The farthest reach of the others.
    widest: f32,
}

impl LimbRoots {
    fn new(segments: &[Segment], floor: f32) -> LimbRoots {
        let roots = (0..segments.len())
            .filter(|&c| off_centre(&segments[c]))
            .filter(|&c| {
                !(0..segments.len()).any(|p| {
                    p != c && off_centre(&segments[p]) && meets(&segments[p], &segments[c])
                })
            });
        let (legs, others): (Vec<usize>, Vec<usize>) =
            roots.partition(|&c| reaches(segments, c, floor + FLOOR));
        let others: Vec<(usize, f32)> = others
            .into_iter()
            .map(|c| (c, extent(segments, c)))
            .collect();
        let widest = others.iter().map(|o| o.1).fold(0.0f32, f32::max);
        LimbRoots {
            legs,
            others,
            widest,
        }
    }

    /// The arms' roots: the others reaching at least half as far as the widest.
    fn arms(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.others
            .iter()
            .copied()
            .filter(|&(_, r)| r >= 0.5 * self.widest)
    }
}

/// The trunk between the legs and the arms: the height of the highest leg root and the
/// height of the arm root (of the arms' roots, the one starting nearest the centre
/// line: the clavicle, not a finger whose first bone does not start at the hand's tail).
fn trunk(segments: &[Segment], roots: &LimbRoots) -> Option<(f32, f32)> {
    let leg_y = roots
        .legs
        .iter()
        .map(|&c| segments[c].head.y)
        .reduce(f32::max)?;
    let arm = roots.arms().map(|(c, _)| c).min_by(|&a, &b| {
        segments[a]
            .head
            .x
            .abs()
            .total_cmp(&segments[b].head.x.abs())
    })?;
    Some((leg_y, segments[arm].head.y))
}

/// The clavicles: the arms' roots whose heads lie within [`SHOULDER_ROOT`] of their
/// chain's reach from the centre line (an arm with no clavicle starts at the shoulder).
fn clavicles(segments: &[Segment], roots: &LimbRoots) -> Vec<bool> {
    let mut out = vec![false; segments.len()];
    for (c, r) in roots.arms() {
        out[c] = segments[c].head.x.abs() <= SHOULDER_ROOT * r;
    }
    out
}

/// The hips: each leg's root (the thigh) with the centre-line bone nearest the middle of
/// the legs' heads (the pelvis the legs hang from), when there are two legs set apart.
fn hips(segments: &[Segment], roots: &LimbRoots) -> Option<[Hip; 2]> {
    let [a, b] = roots.legs[..] else {
        return None;
    };
    let (ha, hb) = (segments[a].head, segments[b].head);
    if ha.x.signum() == hb.x.signum() || ha.x.abs() <= CENTRE || hb.x.abs() <= CENTRE {
        return None;
    }
    let mid = (ha + hb) * 0.5;
    let pelvis = (0..segments.len())
        .filter(|&i| !off_centre(&segments[i]))
        .min_by(|&i, &j| {
            let d = |k: usize| {
                let s = &segments[k];
                (closest_on_segment(mid, s.head, s.tail) - mid).length()
            };
            d(i).total_cmp(&d(j))
        })?;
    Some([a, b].map(|c| {
        Hip {
            pelvis: pelvis as u32,
            thigh: c as u32,
            at: segments[c].head,
            wide: segments[c]
                .head
                .x
                .abs()
                .min(HIP_MAX * (segments[c].tail - segments[c].head).length()),
        }
    }))
}

/// `list` with the weights of the bones of `shares` replaced by theirs (a bone given
/// none is left out).
fn reshare<const N: usize>(list: &mut Vec<Influence>, shares: [(u32, f32); N]) {
    list.retain(|i| shares.iter().all(|s| s.0 != i.bone));
    for (bone, weight) in shares {
        if weight > 0.0 {
            list.push(Influence { bone, weight });
        }
    }
}

/// Of `items` (each at `at(item)`), the nearest to `p` on its side of the centre line
/// (either, for `p` on it).
fn nearest_on_side<'a, T>(
    items: impl Iterator<Item = &'a T>,
    at: impl Fn(&T) -> Vec3,
    p: Vec3,
) -> Option<&'a T> {
    items
        .filter(|i| at(i).x.signum() == p.x.signum() || p.x == 0.0)
        .min_by(|a, b| {
            (at(a) - p)
                .length_squared()
                .total_cmp(&(at(b) - p).length_squared())
        })
}

/// Whether a bone from segment `c` on (following the bones that start where one ends)
/// ends at or below `tip`.
fn reaches(segments: &[Segment], c: usize, tip: f32) -> bool {
    let mut stack = vec![c];
    let mut seen = vec![false; segments.len()];
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        let s = &segments[k];
        if s.head.y.min(s.tail.y) <= tip {
            return true;
        }
        stack.extend((0..segments.len()).filter(|&o| o != k && meets(s, &segments[o])));
    }
    false
}

impl JointBlend {
    /// The blended joints of `segments` (see the module docs; thickness profiles
    /// `thick` from [`super::bone_reach`], not raised to a power), with bands `band`
    /// times the thickness at the joint wide on either side at a limb's joints and
    /// `spine` times at the trunk's (`band` <= 0: none; `spine` <= 0: the trunk is not
    /// blended).
    pub fn new(segments: &[Segment], thick: &[[f32; 5]], band: f32, spine: f32) -> JointBlend {
        let mut jb = JointBlend {
            joints: Vec::new(),
            by_seg: vec![Vec::new(); segments.len()],
            spine: vec![false; segments.len()],
            hips: None,
        };
        if band <= 0.0 {
            return jb;
        }
        let floor = segments
            .iter()
            .map(|s| s.head.y.min(s.tail.y))
            .fold(f32::INFINITY, f32::min);
        let roots = LimbRoots::new(segments, floor);
        let trunk = trunk(segments, &roots);
        let clavicle = clavicles(segments, &roots);
        for (c, sc) in segments.iter().enumerate() {
            let parents: Vec<usize> = (0..segments.len())
                .filter(|&p| p != c && meets(&segments[p], sc))
                .collect();
            let [p] = parents[..] else { continue };
            let sp = &segments[p];
            let only = (0..segments.len()).all(|o| o == c || o == p || !meets(sp, &segments[o]));
            let in_trunk = trunk.is_some_and(|(lo, hi)| {
                spine > 0.0
                    && !off_centre(sp)
                    && !off_centre(sc)
                    && sc.head.y > lo
                    && sc.head.y < hi
            });
            let limb = off_centre(sp) && off_centre(sc) && !reaches(segments, c, floor + FLOOR);
            // The knee: a leg's joint between a bone going down and the one below it that
            // reaches the floor through exactly one bone (the foot), high above the
            // floor (not the ankle).
            let knee = off_centre(sp)
                && off_centre(sc)
                && reaches(segments, c, floor + FLOOR)
                && sc.head.y - floor > KNEE_HIGH * (sp.head.y - floor)
                && sp.head.y > sc.head.y
                && sc.head.y > sc.tail.y
                && (0..segments.len())
                    .filter(|&o| o != c && meets(sc, &segments[o]))
                    .count()
                    == 1;
            if !only || !(limb || in_trunk || knee) {
                continue;
            }
            let band = if in_trunk { spine } else { band };
            // The trunk's bands are level (see the module docs); a limb's run square to
            // the mean direction of its two bones.
            let axis = if in_trunk {
                Vec3::Y
            } else {
                let mean = (sp.tail - sp.head).normalize_or_zero()
                    + (sc.tail - sc.head).normalize_or_zero();
                let Some(axis) = mean.try_normalize() else {
                    continue;
                };
                axis
            };
            let r = thickness_at(&thick[p], 1.0).min(thickness_at(&thick[c], 0.0));
            let elbow = limb && {
                let follows = |a: usize, b: usize| a != b && meets(&segments[a], &segments[b]);
                (0..segments.len()).any(|g| off_centre(&segments[g]) && follows(g, p))
                    && (0..segments.len()).filter(|&o| follows(c, o)).count() == 1
            };
            let (half, before) = if knee {
                (KNEE_BAND * r, -KNEE_SHIFT * r)
            } else if elbow {
                let len = |s: &Segment| (s.tail - s.head).length();
                (
                    (ELBOW_BAND * band * r).min(ELBOW_BAND_MAX * len(sp).min(len(sc))),
                    (ELBOW_SHIFT * band * r).min(ELBOW_SHIFT_MAX * len(sp)),
                )
            } else if limb && clavicle[p] {
                // The shoulder: wide and shifted toward the clavicle, reaching into it at
                // most SHOULDER_IN of its length.
                let inward = SHOULDER_IN * (sp.tail - sp.head).length();
                let half = (SHOULDER_BAND * band * r).min(inward);
                (half, (SHOULDER_SHIFT * band * r).min(inward - half))
            } else {
                (band * r, 0.0)
            };
            let k = jb.joints.len();
            jb.joints.push(Joint {
                parent: p as u32,
                child: c as u32,
                at: sc.head,
                axis,
                half,
                reach: PERP * r,
                before,
                trunk: in_trunk,
                thick: r,
                knee,
            });
            jb.by_seg[p].push(k);
            jb.by_seg[c].push(k);
            jb.spine[c] |= in_trunk;
        }
        if spine > 0.0 {
            jb.hips = hips(segments, &roots);
        }
        jb
    }

    /// The hip's hand-over painted on a solved vertex at `p` with weights `list` (see
    /// the module docs): when the pelvis and the thighs hold more than half of its
    /// weight and `p` lies within the ramp of the hip on its side, the pelvis takes
    /// the ramp's share of those bones' sum and the thighs the rest, shared between
    /// them as they held it (all to the side's thigh when they held none). The other
    /// bones keep theirs; the list's sum is unchanged, its order is not kept. A vertex
    /// that may not take the pelvis (`may`, by segment: a leg modelled as a closed piece
    /// of its own, [`super::piece_bones`]) is left as it is. Returns whether the list
    /// was painted.
    pub fn paint_hip(
        &self,
        segments: &[Segment],
        p: Vec3,
        list: &mut Vec<Influence>,
        may: impl Fn(usize) -> bool,
    ) -> bool {
        let Some(hips) = &self.hips else {
            return false;
        };
        let Some(h) = nearest_on_side(hips.iter(), |h| h.at, p) else {
            return false;
        };
        if (p - h.at).length() > HIP_REACH * h.wide || !may(h.pelvis as usize) {
            return false;
        }
        let down = h.at.y - p.y;
        let out = p.x.abs() - h.at.x.abs();
        let front = (p.z - h.at.z).max(0.0);
        let u =
            (down - HIP_CENTRE * h.wide + HIP_TILT * out + HIP_FRONT * front) / (HIP_HALF * h.wide);
        if u.abs() >= 1.0 {
            return false;
        }
        let pelvis = segments[h.pelvis as usize].bone;
        let thighs = hips.map(|o| segments[o.thigh as usize].bone);
        let held = thighs.map(|b| weight_of(list, b));
        let on_pelvis = weight_of(list, pelvis);
        let on_thighs = held[0] + held[1];
        let sum = on_pelvis + on_thighs;
        if sum <= 0.5 {
            return false;
        }
        // Moved HIP_PAINT of the way from its own share to the ramp's, fading to none at
        // the ramp's ends.
        let own = on_pelvis / sum;
        let ends = ((1.0 - u.abs()) / HIP_EDGE).min(1.0);
        let f = own + HIP_PAINT * ends * (0.5 - 0.5 * u - own);
        // The thighs share the rest as they held it; all to the side's thigh when they
        // held none.
        let side = segments[h.thigh as usize].bone;
        let rest = (1.0 - f) * sum;
        let thigh_share = |k: usize| {
            if on_thighs > 0.0 {
                rest * held[k] / on_thighs
            } else if thighs[k] == side {
                rest
            } else {
                0.0
            }
        };
        reshare(
            list,
            [
                (pelvis, f * sum),
                (thighs[0], thigh_share(0)),
                (thighs[1], thigh_share(1)),
            ],
        );
        true
    }

    /// The trunk's hand-over painted on a solved vertex at `p` with weights `list` (see
    /// the module docs). Of the trunk joints whose two bones hold more than half of the
    /// vertex's weight and whose height lies within [`TRUNK_REACH`] thicknesses of
    /// `p`'s, the one in whose ramp `p` lies nearest the middle (in units of the ramp's
    /// half-width) shares those bones' sum between them as its ramp says; the other
    /// bones keep theirs. The list's sum is unchanged; its order is not kept. Returns
    /// whether the list was painted.
    pub fn paint_trunk(&self, segments: &[Segment], p: Vec3, list: &mut Vec<Influence>) -> bool {
        let pair = |j: &Joint| {
            (
                segments[j.parent as usize].bone,
                segments[j.child as usize].bone,
            )
        };
        let held = |j: &Joint| {
            let (a, b) = pair(j);
            weight_of(list, a) + weight_of(list, b)
        };
        // The ramp of a joint at p: (the upper bone's share, |s| / half).
        let ramp = |j: &Joint| {
            let d = p - j.at;
            let centre = TRUNK_CENTRE * j.thick + TRUNK_RISE * d.z;
            let half = TRUNK_CORE * j.thick + TRUNK_SPREAD * (d.x * d.x + d.z * d.z).sqrt();
            if half > 0.0 {
                let u = (d.y - centre) / half;
                ((0.5 + 0.5 * u).clamp(0.0, 1.0), u.abs())
            } else {
                (0.5, 0.0)
            }
        };
        let Some((j, sum, (f, _))) = self
            .joints
            .iter()
            .filter(|j| j.trunk && (p.y - j.at.y).abs() < TRUNK_REACH * j.thick)
            .map(|j| (j, held(j)))
            .filter(|&(_, sum)| sum > 0.5)
            .map(|(j, sum)| (j, sum, ramp(j)))
            .min_by(|a, b| a.2 .1.total_cmp(&b.2 .1))
        else {
            return false;
        };
        let (a, b) = pair(j);
        reshare(list, [(a, (1.0 - f) * sum), (b, f * sum)]);
        true
    }

    /// The knee's hand-over painted on a solved vertex at `p` with weights `list` (see
    /// the module docs): when the thigh and the shin hold more than half of its weight
    /// and `p` lies within the ramp of the knee on its side, the shin's share of those
    /// bones' sum is moved [`KNEE_PAINT`] of the way from its own to the ramp's (less
    /// near the ramp's ends and the reach's edge). The other bones
    /// keep theirs; the list's sum is unchanged, its order is not kept. A vertex that
    /// may not take either bone (`may`, by segment) is left as it is. Returns whether
    /// the list was painted.
    pub fn paint_knee(
        &self,
        segments: &[Segment],
        p: Vec3,
        list: &mut Vec<Influence>,
        may: impl Fn(usize) -> bool,
    ) -> bool {
        let Some(j) = nearest_on_side(self.joints.iter().filter(|j| j.knee), |j| j.at, p) else {
            return false;
        };
        let (thigh, shin) = (&segments[j.parent as usize], &segments[j.child as usize]);
        let len = (thigh.tail - thigh.head).length();
        let d = p - j.at;
        if d.length() >= KNEE_PAINT_REACH * len || !may(j.parent as usize) || !may(j.child as usize)
        {
            return false;
        }
        let Some(down) = (shin.tail - shin.head).try_normalize() else {
            return false;
        };
        let s = d.dot(down);
        let across = d - down * s;
        let inward = -across.x * j.at.x.signum();
        let u =
            (s - KNEE_PAINT_CENTRE * len - KNEE_PAINT_FRONT * across.z - KNEE_PAINT_IN * inward)
                / (KNEE_PAINT_HALF * len);
        if u.abs() >= 1.0 {
            return false;
        }
        let (a, b) = (thigh.bone, shin.bone);
        let (wa, wb) = (weight_of(list, a), weight_of(list, b));
        let sum = wa + wb;
        if sum <= 0.5 {
            return false;
        }
        // Full strength inside, fading to none at the ramp's ends and the reach's edge:
        // the weights stay continuous where the paint stops.
        let ends = ((1.0 - u.abs()) / KNEE_PAINT_EDGE).min(1.0);
        let edge = ((KNEE_PAINT_REACH * len - d.length())
            / (KNEE_PAINT_FADE * KNEE_PAINT_REACH * len))
            .clamp(0.0, 1.0);
        let own = wb / sum;
        let f = own + KNEE_PAINT * ends * edge * (0.5 + 0.5 * u - own);
        reshare(list, [(a, (1.0 - f) * sum), (b, f * sum)]);
        true
    }

    /// The blended joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// Whether no joint is blended.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// Whether segment `seg` is a spine bone: on the centre line, the child at a blended
    /// joint of the trunk (above the legs' root, below the arms' root). The bone the
    /// legs hang from (the pelvis) starts at no such joint and is not one, nor is the
    /// neck, which starts above the arms' root.
    pub fn is_spine(&self, seg: usize) -> bool {
        self.spine.get(seg).copied().unwrap_or(false)
    }

    /// The heat sources of a vertex at `p` heated by segment `seg`: the parent and the
    /// child of the joint of `seg` nearest `p`, with their shares (summing to 1), when
    /// `p` lies within that joint's band; `None` otherwise.
    pub fn shares(&self, seg: u32, p: Vec3) -> Option<[(u32, f32); 2]> {
        let j = self
            .by_seg
            .get(seg as usize)?
            .iter()
            .map(|&k| &self.joints[k])
            .min_by(|a, b| {
                (a.at - p)
                    .length_squared()
                    .total_cmp(&(b.at - p).length_squared())
            })?;
        let along = (p - j.at).dot(j.axis);
        let perp = ((p - j.at) - j.axis * along).length();
        // Measured from the band's centre, `before` the joint.
        let s = along + j.before;
        if j.half <= 0.0 || s.abs() >= j.half || perp > j.reach {
            return None;
        }
        let f = 0.5 * (1.0 + s / j.half);
        Some([(j.parent, 1.0 - f), (j.child, f)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(bone: u32, head: Vec3, tail: Vec3) -> Segment {
        Segment { bone, head, tail }
    }

    /// An arm off the centre line (upper arm 0, forearm 1), a spine on it (2, 3, meeting
    /// at y = 1.2) and a leg (thigh 4, calf 5) reaching the floor with no foot.
    fn arm_spine_leg() -> [Segment; 6] {
        [
            seg(0, Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.45, 1.4, 0.0)),
            seg(1, Vec3::new(0.45, 1.4, 0.0), Vec3::new(0.7, 1.4, 0.0)),
            seg(2, Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.2, 0.0)),
            seg(3, Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.4, 0.0)),
            seg(4, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.5, 0.0)),
            seg(5, Vec3::new(0.1, 0.5, 0.0), Vec3::new(0.1, 0.05, 0.0)),
        ]
    }

    #[test]
    fn an_arm_joint_and_the_trunk_are_blended_linearly_and_the_legs_are_not() {
        // An arm off the centre line (upper arm, forearm), a spine on it and a leg
        // (thigh, calf) reaching the floor with no foot: its joint is no knee (a knee's
        // lower bone leads into the foot: see the knee's test).
        let segs = arm_spine_leg();
        let thick = [[0.04f32; 5]; 6];
        let jb = JointBlend::new(&segs, &thick, BAND, 0.0);
        assert_eq!(jb.len(), 1);
        // On the joint's plane: half and half; a quarter band toward the forearm: 3/4.
        let at = jb.shares(0, Vec3::new(0.45, 1.44, 0.0)).unwrap();
        assert_eq!(at[0].0, 0);
        assert_eq!(at[1].0, 1);
        assert!((at[0].1 - 0.5).abs() < 1e-6 && (at[1].1 - 0.5).abs() < 1e-6);
        let q = jb.shares(1, Vec3::new(0.47, 1.4, 0.0)).unwrap();
        assert!((q[1].1 - 0.75).abs() < 1e-4, "{q:?}");
        // Outside the band, and on the spine: one bone, as before.
        assert!(jb.shares(1, Vec3::new(0.55, 1.4, 0.0)).is_none());
        assert!(jb.shares(2, Vec3::new(0.0, 1.2, 0.05)).is_none());
        assert!(jb.shares(4, Vec3::new(0.12, 0.5, 0.0)).is_none());
        // No band: nothing blended.
        assert!(JointBlend::new(&segs, &thick, 0.0, 0.0).is_empty());
        // The trunk blended: the spine joint between the leg roots (0.95) and the arm
        // root (1.4), over 0.75 of the thickness either side; the legs still not.
        let jb = JointBlend::new(&segs, &thick, BAND, SPINE_BAND);
        assert_eq!(jb.len(), 2);
        let s = jb.shares(2, Vec3::new(0.0, 1.2 - 0.015, 0.05)).unwrap();
        assert_eq!((s[0].0, s[1].0), (2, 3));
        assert!((s[1].1 - 0.25).abs() < 1e-4, "{s:?}");
        assert!(jb.shares(2, Vec3::new(0.0, 1.15, 0.0)).is_none());
        assert!(jb.shares(4, Vec3::new(0.12, 0.5, 0.0)).is_none());
    }

    #[test]
    fn the_trunks_hand_over_is_painted_as_a_fan_narrow_at_the_back_and_high_and_wide_at_the_belly()
    {
        let segs = arm_spine_leg();
        let r = 0.04f32;
        let jb = JointBlend::new(&segs, &[[r; 5]; 6], BAND, SPINE_BAND);
        let inf = |bone, weight| Influence { bone, weight };
        // The upper bone's share at (y above the joint, z in front of the spine), of a
        // vertex holding 0.8 on the two spine bones and 0.2 on the arm.
        let upper = |y: f32, z: f32| {
            let mut l = vec![inf(2, 0.7), inf(3, 0.1), inf(0, 0.2)];
            jb.paint_trunk(&segs, Vec3::new(0.0, 1.2 + y, z), &mut l);
            let w = |b| l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight);
            assert!((l.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-6);
            assert!((w(0) - 0.2).abs() < 1e-6, "the arm keeps its weight: {l:?}");
            w(3) / 0.8
        };
        let expect = |y: f32, z: f32| {
            let centre = TRUNK_CENTRE * r + TRUNK_RISE * z;
            let half = TRUNK_CORE * r + TRUNK_SPREAD * z.abs();
            (0.5 + (y - centre) / (2.0 * half)).clamp(0.0, 1.0)
        };
        for (y, z) in [
            (0.0, 0.0),
            (0.0, -0.03),
            (0.0, 0.1),
            (0.06, 0.1),
            (-0.02, -0.03),
        ] {
            assert!((upper(y, z) - expect(y, z)).abs() < 1e-5, "{y} {z}");
        }
        // Over the spine at the joint's height, a tenth; at the back, more than half;
        // at the belly, under a fifth, and still half way 0.06 above the joint, where
        // the back is all the upper bone.
        assert!((upper(0.0, 0.0) - 0.1).abs() < 0.01);
        assert!(upper(0.0, -0.03) > 0.5);
        assert!(upper(0.0, 0.1) < 0.2);
        assert!((upper(0.06, 0.1) - 0.5).abs() < 0.1);
        assert_eq!(upper(0.06, -0.03), 1.0);
        // Beyond the reach, or held mostly by other bones: left as it is.
        let mut far = vec![inf(2, 0.7), inf(3, 0.3)];
        jb.paint_trunk(
            &segs,
            Vec3::new(0.0, 1.2 + TRUNK_REACH * r + 0.01, 0.0),
            &mut far,
        );
        assert_eq!(far, vec![inf(2, 0.7), inf(3, 0.3)]);
        let mut arm = vec![inf(0, 0.6), inf(2, 0.2), inf(3, 0.2)];
        jb.paint_trunk(&segs, Vec3::new(0.0, 1.2, 0.0), &mut arm);
        assert_eq!(arm, vec![inf(0, 0.6), inf(2, 0.2), inf(3, 0.2)]);
        // A skeleton with the trunk unblended paints nothing.
        let none = JointBlend::new(&segs, &[[r; 5]; 6], BAND, 0.0);
        let mut l = vec![inf(2, 0.7), inf(3, 0.3)];
        none.paint_trunk(&segs, Vec3::new(0.0, 1.2, 0.0), &mut l);
        assert_eq!(l, vec![inf(2, 0.7), inf(3, 0.3)]);
    }

    /// A pelvis (0), a spine bone (1), thighs (2 left, 4 right) from hips 0.1 either side
    /// of the centre line down to calves (3, 5) reaching the floor, a clavicle and an
    /// upper arm (6, 7); the thighs `len` long.
    fn hips_skeleton(len: f32) -> [Segment; 8] {
        let c = |y: f32| Vec3::new(0.0, y, 0.0);
        let knee = 0.95 - len;
        [
            seg(0, c(0.95), c(1.05)),
            seg(1, c(1.05), c(1.3)),
            seg(2, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, knee, 0.0)),
            seg(3, Vec3::new(0.1, knee, 0.0), Vec3::new(0.1, 0.02, 0.0)),
            seg(4, Vec3::new(-0.1, 0.95, 0.0), Vec3::new(-0.1, knee, 0.0)),
            seg(5, Vec3::new(-0.1, knee, 0.0), Vec3::new(-0.1, 0.02, 0.0)),
            seg(6, Vec3::new(0.05, 1.28, 0.0), Vec3::new(0.2, 1.28, 0.0)),
            seg(7, Vec3::new(0.2, 1.28, 0.0), Vec3::new(0.45, 1.28, 0.0)),
        ]
    }

    #[test]
    fn the_hips_hand_over_is_painted_along_a_ramp_low_at_the_crotch_and_high_at_the_side() {
        let segs = hips_skeleton(0.45);
        let jb = JointBlend::new(&segs, &[[0.04f32; 5]; 8], BAND, SPINE_BAND);
        let inf = |bone, weight| Influence { bone, weight };
        // A vertex holding 0.1 on the pelvis, 0.5 and 0.3 on the left and right thighs
        // and 0.1 on the spine: the pelvis's share of the 0.9 at (x, y, z).
        let paint = |p: Vec3, may: bool| {
            let mut l = vec![inf(0, 0.1), inf(2, 0.5), inf(4, 0.3), inf(1, 0.1)];
            let painted = jb.paint_hip(&segs, p, &mut l, |_| may);
            (painted, l)
        };
        let w = |l: &[Influence], b: u32| l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight);
        // The ramp's unit is the hips' distance from the centre line, 0.1 (a quarter
        // of the 0.45 thigh is more).
        // The ramp's share, and the painted one: moved HIP_PAINT of the way from the
        // vertex's own (0.1 of 0.9) to the ramp's, less at the ramp's ends.
        let ramp = |p: Vec3| {
            let (down, out, front) = (0.95 - p.y, p.x.abs() - 0.1, p.z.max(0.0));
            let u =
                (down - HIP_CENTRE * 0.1 + HIP_TILT * out + HIP_FRONT * front) / (HIP_HALF * 0.1);
            (0.5 - 0.5 * u, u)
        };
        let expect = |p: Vec3| {
            let (r, u) = ramp(p);
            let own = 0.1 / 0.9;
            own + HIP_PAINT * ((1.0 - u.abs()) / HIP_EDGE).min(1.0) * (r - own)
        };
        for p in [
            Vec3::new(0.1, 0.95 - HIP_CENTRE * 0.1, 0.0), // straight below the joint: half
            Vec3::new(0.0, 0.90, 0.0),                    // the crotch
            Vec3::new(0.16, 0.95, 0.0),                   // the side of the hip
            Vec3::new(0.1, 0.92, 0.05),                   // the groin, in front
            Vec3::new(-0.05, 0.93, -0.04),                // the right buttock
        ] {
            let (painted, l) = paint(p, true);
            assert!(painted, "{p}");
            let f = expect(p);
            assert!(f > 0.0 && f < 1.0, "{p}: {f}");
            assert!((w(&l, 0) - 0.9 * f).abs() < 1e-5, "{p}: {l:?}");
            // The thighs share the rest as they held it (5 : 3); the spine keeps its own.
            assert!(
                (w(&l, 2) - 0.9 * (1.0 - f) * 5.0 / 8.0).abs() < 1e-5,
                "{p}: {l:?}"
            );
            assert!(
                (w(&l, 4) - 0.9 * (1.0 - f) * 3.0 / 8.0).abs() < 1e-5,
                "{p}: {l:?}"
            );
            assert!((w(&l, 1) - 0.1).abs() < 1e-6);
            assert!((l.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-5);
        }
        // The ramp: half below the joint; most of the crotch to the pelvis, less than half
        // of the hip's side at the joint's height.
        assert!((ramp(Vec3::new(0.1, 0.95 - HIP_CENTRE * 0.1, 0.0)).0 - 0.5).abs() < 1e-6);
        assert!(ramp(Vec3::new(0.0, 0.90, 0.0)).0 > 0.7);
        assert!(ramp(Vec3::new(0.16, 0.95, 0.0)).0 < 0.45);
        assert!(expect(Vec3::new(0.0, 0.90, 0.0)) > 0.6);
        // Past the ramp (down the thigh, up the belly), a piece that may not take the
        // pelvis, a vertex held mostly by other bones: left as it is.
        let before = vec![inf(0, 0.1), inf(2, 0.5), inf(4, 0.3), inf(1, 0.1)];
        assert_eq!(
            paint(Vec3::new(0.1, 0.75, 0.0), true),
            (false, before.clone())
        );
        assert_eq!(
            paint(Vec3::new(0.0, 1.04, 0.0), true),
            (false, before.clone())
        );
        assert_eq!(paint(Vec3::new(0.0, 0.90, 0.0), false), (false, before));
        let mut arm = vec![inf(7, 0.6), inf(0, 0.2), inf(2, 0.2)];
        assert!(!jb.paint_hip(&segs, Vec3::new(0.1, 0.92, 0.0), &mut arm, |_| true));
        // A thigh holding nothing: the side's thigh takes the thighs' share.
        let mut l = vec![inf(0, 0.9), inf(1, 0.1)];
        assert!(jb.paint_hip(&segs, Vec3::new(-0.1, 0.92, 0.0), &mut l, |_| true));
        assert!(w(&l, 4) > 0.0 && w(&l, 2) == 0.0, "{l:?}");
        // The trunk unblended: no hip is painted.
        let none = JointBlend::new(&segs, &[[0.04f32; 5]; 8], BAND, 0.0);
        let mut l = vec![inf(0, 0.1), inf(2, 0.9)];
        assert!(!none.paint_hip(&segs, Vec3::new(0.0, 0.90, 0.0), &mut l, |_| true));
    }

    #[test]
    fn a_stub_of_a_leg_under_wide_hips_is_painted_over_a_quarter_of_its_length() {
        // Thighs 0.2 long under hips 0.1 from the centre line: the unit is 0.05, and the
        // crotch (0.1 in from the joint) lies past the ramp.
        let segs = hips_skeleton(0.2);
        let jb = JointBlend::new(&segs, &[[0.04f32; 5]; 8], BAND, SPINE_BAND);
        let inf = |bone, weight| Influence { bone, weight };
        let mut l = vec![inf(0, 0.2), inf(2, 0.8)];
        let half = Vec3::new(0.1, 0.95 - HIP_CENTRE * 0.05, 0.0);
        assert!(jb.paint_hip(&segs, half, &mut l, |_| true));
        let w = |l: &[Influence], b: u32| l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight);
        assert!((w(&l, 0) - (0.2 + HIP_PAINT * 0.3)).abs() < 1e-5, "{l:?}");
        let mut l = vec![inf(0, 0.9), inf(2, 0.1)];
        assert!(!jb.paint_hip(&segs, Vec3::new(0.0, 0.93, 0.0), &mut l, |_| true));
        let mut l = vec![inf(0, 0.3), inf(2, 0.7)];
        assert!(!jb.paint_hip(&segs, Vec3::new(0.1, 0.95 - 0.08, 0.0), &mut l, |_| true));
    }

    #[test]
    fn between_two_trunk_joints_the_one_whose_ramp_the_vertex_is_in_paints_it() {
        // Pelvis 2 (1.0-1.1), spine_01 3 (1.1-1.2), spine_02 6 (1.2-1.4), the arm at 1.4
        // and the leg below 0.95: two trunk joints 0.1 apart.
        let mut segs = arm_spine_leg().to_vec();
        segs[2].tail.y = 1.1;
        segs[3].head.y = 1.1;
        segs.push(seg(6, Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.4, 0.0)));
        segs[3].tail.y = 1.2;
        let r = 0.04f32;
        let jb = JointBlend::new(&segs, &[[r; 5]; 7], BAND, SPINE_BAND);
        assert_eq!(jb.joints.iter().filter(|j| j.trunk).count(), 2);
        // At the belly (0.1 in front), 0.06 above the lower joint and 0.04 below the
        // upper one, holding more on the upper joint's bones (0.9) than on the lower's
        // (0.6): the lower joint's ramp there is half way, the upper's has not begun.
        let inf = |bone, weight| Influence { bone, weight };
        let mut l = vec![inf(2, 0.1), inf(3, 0.5), inf(6, 0.4)];
        jb.paint_trunk(&segs, Vec3::new(0.0, 1.16, 0.1), &mut l);
        let w = |b| l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight);
        let centre = TRUNK_CENTRE * r + TRUNK_RISE * 0.1;
        let half = TRUNK_CORE * r + TRUNK_SPREAD * 0.1;
        let f = 0.5 + (0.06 - centre) / (2.0 * half);
        assert!((w(3) - 0.6 * f).abs() < 1e-5, "{l:?}");
        assert!((w(2) - 0.6 * (1.0 - f)).abs() < 1e-5, "{l:?}");
        assert!((w(6) - 0.4).abs() < 1e-6, "{l:?}");
    }

    #[test]
    fn the_spine_bones_are_the_trunks_bones_above_the_pelvis_and_below_the_arms() {
        // Pelvis (its head above the thighs' heads, as MakeHuman's), three spine bones, a
        // neck above the clavicles' heads, a clavicle and upper arm, a thigh and calf.
        let c = |y: f32| Vec3::new(0.0, y, 0.0);
        let segs = [
            seg(0, c(1.0), c(1.05)),                                       // pelvis
            seg(1, c(1.05), c(1.15)),                                      // spine_01
            seg(2, c(1.15), c(1.25)),                                      // spine_02
            seg(3, c(1.25), c(1.45)),                                      // spine_03
            seg(4, c(1.45), c(1.55)),                                      // neck
            seg(5, Vec3::new(0.03, 1.42, 0.0), Vec3::new(0.2, 1.42, 0.0)), // clavicle
            seg(6, Vec3::new(0.2, 1.42, 0.0), Vec3::new(0.45, 1.42, 0.0)), // upper arm
            seg(7, Vec3::new(0.1, 0.98, 0.0), Vec3::new(0.1, 0.5, 0.0)),   // thigh
            seg(8, Vec3::new(0.1, 0.5, 0.0), Vec3::new(0.1, 0.05, 0.0)),   // calf
        ];
        let spine = |segs: &[Segment]| {
            let jb = JointBlend::new(segs, &vec![[0.04f32; 5]; segs.len()], BAND, SPINE_BAND);
            (0..segs.len())
                .map(|i| jb.is_spine(i))
                .collect::<Vec<bool>>()
        };
        assert_eq!(
            spine(&segs),
            [false, true, true, true, false, false, false, false, false]
        );
        // No legs (no trunk): no spine bone.
        assert!(spine(&segs[..7]).iter().all(|&b| !b));
    }

    #[test]
    fn a_leaning_trunk_joint_is_blended_level() {
        // The lower spine bone leans 20 degrees forward (+Z), the upper one stands.
        let lean = Vec3::new(
            0.0,
            0.2 * 20f32.to_radians().cos(),
            0.2 * 20f32.to_radians().sin(),
        );
        let j = Vec3::new(0.0, 1.0, 0.0) + lean;
        let segs = [
            seg(0, Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.45, 1.4, 0.0)),
            seg(1, Vec3::new(0.45, 1.4, 0.0), Vec3::new(0.7, 1.4, 0.0)),
            seg(2, Vec3::new(0.0, 1.0, 0.0), j),
            seg(3, j, Vec3::new(0.0, 1.38, j.z)),
            seg(4, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.5, 0.0)),
            seg(5, Vec3::new(0.1, 0.5, 0.0), Vec3::new(0.1, 0.05, 0.0)),
        ];
        let jb = JointBlend::new(&segs, &[[0.04f32; 5]; 6], BAND, SPINE_BAND);
        // The belly in front of the joint, at its height: half and half (measured square
        // to the bones' mean direction, 10 degrees from the vertical, it took 0.67).
        let s = jb.shares(2, j + Vec3::new(0.0, 0.0, 0.06)).unwrap();
        assert!((s[1].1 - 0.5).abs() < 1e-4, "{s:?}");
    }

    #[test]
    fn an_elbow_is_blended_before_the_joint_and_over_at_most_a_share_of_its_bones() {
        // Clavicle, upper arm, forearm and hand off the centre line; a spine on it.
        let arm = |upper: f32, fore: f32| {
            let (a, b) = (0.2 + upper, 0.2 + upper + fore);
            [
                seg(0, Vec3::new(0.05, 1.4, 0.0), Vec3::new(0.2, 1.4, 0.0)),
                seg(1, Vec3::new(0.2, 1.4, 0.0), Vec3::new(a, 1.4, 0.0)),
                seg(2, Vec3::new(a, 1.4, 0.0), Vec3::new(b, 1.4, 0.0)),
                seg(3, Vec3::new(b, 1.4, 0.0), Vec3::new(b + 0.08, 1.4, 0.0)),
                seg(4, Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.4, 0.0)),
                seg(5, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.05, 0.0)),
            ]
        };
        // A long arm: half-width 0.8 x 0.04 = 0.032, centred 0.5 of the thickness before
        // the joint, but no more than 5 % of the 0.3 upper arm: 0.015.
        let segs = arm(0.3, 0.25);
        let jb = JointBlend::new(&segs, &[[0.04f32; 5]; 6], BAND, 0.0);
        let at = jb.shares(1, Vec3::new(0.5, 1.42, 0.0)).unwrap();
        assert_eq!((at[0].0, at[1].0), (1, 2));
        let want = 0.5 * (1.0 + 0.015 / (ELBOW_BAND * 0.04));
        assert!((at[1].1 - want).abs() < 1e-4, "{at:?}");
        // Half and half 0.015 before the joint; the band ends 0.047 before it and 0.017
        // past it.
        let mid = jb.shares(1, Vec3::new(0.485, 1.4, 0.0)).unwrap();
        assert!((mid[1].1 - 0.5).abs() < 1e-4, "{mid:?}");
        assert!(jb.shares(1, Vec3::new(0.456, 1.4, 0.0)).is_some());
        assert!(jb.shares(1, Vec3::new(0.45, 1.4, 0.0)).is_none());
        assert!(jb.shares(2, Vec3::new(0.52, 1.4, 0.0)).is_none());
        assert!(jb.shares(2, Vec3::new(0.514, 1.4, 0.0)).is_some());
        // The wrist (the hand is followed by no bone) is centred on the joint (the
        // shoulder: see its own test).
        let wr = jb.shares(2, Vec3::new(0.75, 1.42, 0.0)).unwrap();
        assert_eq!((wr[0].0, wr[1].0), (2, 3));
        assert!((wr[1].1 - 0.5).abs() < 1e-4, "{wr:?}");
        // A short, thick arm (bones 0.2 and 0.15 long, 0.1 thick): the half-width is
        // 0.3 of the shorter bone (0.045), not the thickness; the centre 0.01 (5 % of
        // the upper arm) before the joint.
        let segs = arm(0.2, 0.15);
        let jb = JointBlend::new(&segs, &[[0.1f32; 5]; 6], BAND, 0.0);
        let at = jb.shares(1, Vec3::new(0.4, 1.45, 0.0)).unwrap();
        let want = 0.5 * (1.0 + 0.01 / 0.045);
        assert!((at[1].1 - want).abs() < 1e-4, "{at:?}");
        assert!(jb.shares(1, Vec3::new(0.34, 1.4, 0.0)).is_none());
    }

    #[test]
    fn the_shoulder_is_blended_wide_and_toward_the_clavicle_within_its_length() {
        // Clavicle (from near the centre line), upper arm, forearm, hand and a finger
        // whose first bone starts inside the hand; a spine on the centre line.
        let arm = |clavicle: f32| {
            let c = 0.2 - clavicle;
            [
                seg(0, Vec3::new(c, 1.4, 0.0), Vec3::new(0.2, 1.4, 0.0)),
                seg(1, Vec3::new(0.2, 1.4, 0.0), Vec3::new(0.5, 1.4, 0.0)),
                seg(2, Vec3::new(0.5, 1.4, 0.0), Vec3::new(0.75, 1.4, 0.0)),
                seg(3, Vec3::new(0.75, 1.4, 0.0), Vec3::new(0.83, 1.4, 0.0)),
                seg(4, Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.4, 0.0)),
                seg(5, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.05, 0.0)),
                seg(6, Vec3::new(0.79, 1.4, 0.02), Vec3::new(0.84, 1.4, 0.02)),
                seg(7, Vec3::new(0.84, 1.4, 0.02), Vec3::new(0.87, 1.4, 0.02)),
            ]
        };
        let r = 0.04f32;
        let segs = arm(0.15);
        let jb = JointBlend::new(&segs, &[[r; 5]; 8], BAND, 0.0);
        // Half-width 1.75 x 0.04 = 0.07, centred 0.3 x 0.04 = 0.012 toward the clavicle
        // (within 0.72 of its 0.15).
        let (half, shift) = (SHOULDER_BAND * r, SHOULDER_SHIFT * r);
        let at = jb.shares(0, Vec3::new(0.2, 1.42, 0.0)).unwrap();
        assert_eq!((at[0].0, at[1].0), (0, 1));
        assert!(
            (at[1].1 - 0.5 * (1.0 + shift / half)).abs() < 1e-4,
            "{at:?}"
        );
        let mid = jb.shares(0, Vec3::new(0.2 - shift, 1.4, 0.0)).unwrap();
        assert!((mid[1].1 - 0.5).abs() < 1e-4, "{mid:?}");
        assert!(jb
            .shares(0, Vec3::new(0.2 - shift - half - 0.002, 1.4, 0.0))
            .is_none());
        assert!(jb
            .shares(1, Vec3::new(0.2 - shift + half - 0.002, 1.4, 0.0))
            .is_some());
        assert!(jb
            .shares(1, Vec3::new(0.2 - shift + half + 0.002, 1.4, 0.0))
            .is_none());
        // The finger's knuckle keeps the limb's band, centred on the joint: its first
        // bone starts far out, no clavicle.
        let k = jb.shares(6, Vec3::new(0.84, 1.41, 0.02)).unwrap();
        assert_eq!((k[0].0, k[1].0), (6, 7));
        assert!((k[1].1 - 0.5).abs() < 1e-4, "{k:?}");
        assert!(jb
            .shares(6, Vec3::new(0.84 - 1.1 * BAND * r, 1.4, 0.02))
            .is_none());
        // A stubby clavicle (0.08): the band reaches 0.72 x 0.08 = 0.0576 into it,
        // centred on the joint (the shift given up first).
        let segs = arm(0.08);
        let jb = JointBlend::new(&segs, &[[r; 5]; 8], BAND, 0.0);
        let inward = SHOULDER_IN * 0.08;
        let at = jb.shares(0, Vec3::new(0.2, 1.42, 0.0)).unwrap();
        assert!((at[1].1 - 0.5).abs() < 1e-4, "{at:?}");
        let q = jb
            .shares(0, Vec3::new(0.2 - 0.5 * inward, 1.4, 0.0))
            .unwrap();
        assert!((q[1].1 - 0.25).abs() < 1e-4, "{q:?}");
        assert!(jb
            .shares(0, Vec3::new(0.2 - inward - 0.002, 1.4, 0.0))
            .is_none());
        // An arm with no clavicle (its root starts at the shoulder, far from the centre
        // line): its first joint keeps the limb's band.
        let segs = arm_spine_leg();
        let jb = JointBlend::new(&segs, &[[r; 5]; 6], BAND, 0.0);
        assert!(jb
            .shares(0, Vec3::new(0.45 - 1.1 * BAND * r, 1.4, 0.0))
            .is_none());
    }

    /// A spine on the centre line (0), and a leg 0.1 left of it: thigh 1 (0.45 long),
    /// shin 2, foot 3, toes 4.
    fn spine_and_leg() -> [Segment; 5] {
        [
            seg(0, Vec3::new(0.0, 0.95, 0.0), Vec3::new(0.0, 1.4, 0.0)),
            seg(1, Vec3::new(0.1, 0.95, 0.0), Vec3::new(0.1, 0.5, 0.0)),
            seg(2, Vec3::new(0.1, 0.5, 0.0), Vec3::new(0.1, 0.08, 0.0)),
            seg(3, Vec3::new(0.1, 0.08, 0.0), Vec3::new(0.1, 0.01, 0.12)),
            seg(4, Vec3::new(0.1, 0.01, 0.12), Vec3::new(0.1, 0.0, 0.18)),
        ]
    }

    #[test]
    fn the_knees_hand_over_is_painted_lower_in_front_and_on_the_inner_side() {
        let segs = spine_and_leg();
        let jb = JointBlend::new(&segs, &[[0.05f32; 5]; 5], BAND, 0.0);
        let inf = |bone, weight| Influence { bone, weight };
        let len = 0.45f32;
        // The shin's share of a vertex holding 0.6 / 0.3 on thigh / shin and 0.1 on the
        // spine, at `dy` below the knee, `z` in front of it and `inward` toward the
        // centre line.
        let paint = |dy: f32, z: f32, inward: f32| {
            let mut l = vec![inf(1, 0.6), inf(2, 0.3), inf(0, 0.1)];
            let p = Vec3::new(0.1 - inward, 0.5 - dy, z);
            let painted = jb.paint_knee(&segs, p, &mut l, |_| true);
            let w = |b| l.iter().find(|i| i.bone == b).map_or(0.0, |i| i.weight);
            assert!((l.iter().map(|i| i.weight).sum::<f32>() - 1.0).abs() < 1e-5);
            assert!((w(0) - 0.1).abs() < 1e-6, "the spine keeps its own: {l:?}");
            (painted, w(2) / 0.9)
        };
        let expect = |dy: f32, z: f32, inward: f32| {
            let u = (dy - KNEE_PAINT_CENTRE * len - KNEE_PAINT_FRONT * z - KNEE_PAINT_IN * inward)
                / (KNEE_PAINT_HALF * len);
            let ends = ((1.0 - u.abs()) / KNEE_PAINT_EDGE).min(1.0);
            let d = Vec3::new(-inward, -dy, z).length();
            let edge = ((KNEE_PAINT_REACH * len - d) / (KNEE_PAINT_FADE * KNEE_PAINT_REACH * len))
                .clamp(0.0, 1.0);
            1.0 / 3.0 + KNEE_PAINT * ends * edge * (0.5 + 0.5 * u - 1.0 / 3.0)
        };
        for (dy, z, inward) in [
            (KNEE_PAINT_CENTRE * len, 0.0, 0.0),
            (0.02, 0.04, 0.0),
            (0.02, -0.04, 0.0),
            (0.02, 0.0, 0.03),
            (0.0, 0.0, -0.03),
        ] {
            let (painted, f) = paint(dy, z, inward);
            assert!(painted, "{dy} {z} {inward}");
            assert!(
                (f - expect(dy, z, inward)).abs() < 1e-5,
                "{dy} {z} {inward}: {f}"
            );
        }
        // At the ramp's centre the shin holds half of the ramp's share and its own
        // share for the rest; the kneecap and the inner side keep more thigh than the
        // back and the outer side at the same height.
        let (_, mid) = paint(KNEE_PAINT_CENTRE * len, 0.0, 0.0);
        assert!((mid - (0.5 * KNEE_PAINT + (1.0 - KNEE_PAINT) / 3.0)).abs() < 1e-5);
        assert!(paint(0.02, 0.04, 0.0).1 < paint(0.02, -0.04, 0.0).1);
        assert!(paint(0.02, 0.0, 0.03).1 < paint(0.02, 0.0, -0.03).1);
        // Past the ramp, past its reach, held mostly by other bones, or on a piece that
        // may not take the shin: left as it is.
        assert!(!paint(0.1, 0.0, 0.0).0);
        assert!(!paint(-0.1, 0.0, 0.0).0);
        let mut other = vec![inf(0, 0.6), inf(1, 0.2), inf(2, 0.2)];
        assert!(!jb.paint_knee(&segs, Vec3::new(0.1, 0.49, 0.0), &mut other, |_| true));
        let mut l = vec![inf(1, 0.6), inf(2, 0.4)];
        assert!(!jb.paint_knee(&segs, Vec3::new(0.1, 0.49, 0.0), &mut l, |b| b != 2));
        assert_eq!(l, vec![inf(1, 0.6), inf(2, 0.4)]);
        // A vertex on the other side of the centre line: no knee there.
        assert!(!jb.paint_knee(&segs, Vec3::new(-0.1, 0.49, 0.0), &mut l, |_| true));
    }

    #[test]
    fn a_knee_is_blended_over_a_narrow_band_just_below_it_and_the_hip_and_ankle_are_not() {
        let segs = spine_and_leg();
        let jb = JointBlend::new(&segs, &[[0.05f32; 5]; 5], BAND, 0.0);
        assert_eq!(jb.len(), 1, "the knee only");
        // Half-width 0.4 x 0.05 = 0.02, centred 0.05 x 0.05 = 0.0025 below the joint.
        let at = jb.shares(1, Vec3::new(0.1, 0.5, 0.03)).unwrap();
        assert_eq!((at[0].0, at[1].0), (1, 2));
        let want = 0.5 * (1.0 - 0.0025 / 0.02);
        assert!((at[1].1 - want).abs() < 1e-4, "{at:?}");
        let mid = jb.shares(2, Vec3::new(0.1, 0.4975, 0.0)).unwrap();
        assert!((mid[1].1 - 0.5).abs() < 1e-4, "{mid:?}");
        assert!(jb.shares(1, Vec3::new(0.1, 0.521, 0.0)).is_none());
        assert!(jb.shares(2, Vec3::new(0.1, 0.481, 0.0)).is_some());
        assert!(jb.shares(2, Vec3::new(0.1, 0.477, 0.0)).is_none());
        // The ankle and the hip keep their firm heat.
        assert!(jb.shares(3, Vec3::new(0.1, 0.08, 0.0)).is_none());
        assert!(jb.shares(0, Vec3::new(0.05, 0.95, 0.0)).is_none());
    }
}
