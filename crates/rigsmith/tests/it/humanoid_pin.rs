//! Which bone is what, pinned: the VRM humanoid map, the roles the parts stage and the
//! pose library use, the leg chains and the twist bones, written out for every
//! Quaternius character, every MakeHuman rig of the corpus and rigsmith's own fitted
//! templates. A change to any answer shows as a snapshot difference.

use std::fmt::Write;

use rigsmith::fit::{fit, FitOptions, Template};
use rigsmith::io::mpfb2::Corpus;
use rigsmith::mannequin::{self, MannequinOptions};
use rigsmith::Skeleton;

use crate::common::{mpfb2_dir, quaternius_dir};

fn name(s: &Skeleton, i: Option<usize>) -> &str {
    i.map_or("-", |i| s.bones[i].name.as_str())
}

/// Every answer the library gives about `s`'s bones, one per line.
fn dump(s: &Skeleton) -> String {
    use rigsmith::humanoid::{map_humanoid, Limb, Role, Roles};
    let mut out = String::new();
    let m = map_humanoid(s);
    let _ = writeln!(out, "map: problem {:?}", m.problem);
    for (v, b) in &m.bones {
        let _ = writeln!(out, "  {v} = {b} [{:?}]", m.routes[v]);
    }
    let r = Roles::of(s, None);
    let _ = writeln!(out, "roles:");
    let _ = writeln!(out, "  hips = {}", name(s, r.hips));
    let _ = writeln!(out, "  spine = {}", name(s, r.spine));
    let _ = writeln!(out, "  chest = {}", name(s, r.chest));
    let _ = writeln!(out, "  neck = {}", name(s, r.neck));
    let _ = writeln!(out, "  head = {}", name(s, r.head));
    for k in 0..2 {
        let _ = writeln!(
            out,
            "  side {k}: upper_leg {} lower_leg {} foot {} upper_arm {} lower_arm {}",
            name(s, r.upper_leg[k]),
            name(s, r.lower_leg[k]),
            name(s, r.foot[k]),
            name(s, r.upper_arm[k]),
            name(s, r.lower_arm[k])
        );
    }
    for (i, l) in r.limb.iter().enumerate() {
        if let Some(l) = l {
            let what = match l {
                Limb::Leg(side) => format!("leg {side:?}"),
                Limb::Arm(side) => format!("arm {side:?}"),
            };
            let _ = writeln!(out, "  limb {} = {what}", s.bones[i].name);
        }
    }
    let _ = writeln!(out, "pose roles:");
    for role in Role::all() {
        let _ = writeln!(out, "  {} = {}", role.key(), name(s, r.get(role)));
    }
    for u in &r.unknown {
        let _ = writeln!(out, "  unknown: {u}");
    }
    let _ = writeln!(out, "leg chains:");
    let _ = writeln!(
        out,
        "  {} {}",
        name(s, r.leg_root(rigsmith::Side::Left)),
        name(s, r.leg_root(rigsmith::Side::Right))
    );
    out
}

fn quaternius(file: &str) -> String {
    let c = rigsmith::io::read_character(&quaternius_dir().join(file)).unwrap();
    dump(&c.skeleton.unwrap())
}

fn corpus(rig: &str) -> String {
    let corpus = Corpus::open(&mpfb2_dir()).unwrap();
    dump(&corpus.skeleton(rig, corpus.base_positions_obj()).unwrap())
}

fn template(t: Template, twist: usize) -> String {
    let c = mannequin::build(&MannequinOptions::default());
    let r = fit(
        &c,
        &FitOptions {
            template: t,
            twist,
            ..Default::default()
        },
    )
    .unwrap();
    let mut out = dump(&r.skeleton);
    let _ = writeln!(out, "fit humanoid:");
    for (v, b) in &r.humanoid {
        let _ = writeln!(out, "  {v} = {b}");
    }
    out
}

macro_rules! pin {
    ($($test:ident: $expr:expr;)*) => {$(
        #[test]
        fn $test() {
            insta::assert_snapshot!(stringify!($test), $expr);
        }
    )*};
}

pin! {
    quaternius_fox: quaternius("animals_Fox.glb");
    quaternius_knight: quaternius("knight_KnightCharacter.glb");
    quaternius_casual: quaternius("men_Casual.glb");
    quaternius_farmer: quaternius("men_Farmer.glb");
    quaternius_platformer: quaternius("platformer_Character_HumanoidRig.glb");
    makehuman_cmu_mb: corpus("cmu_mb");
    makehuman_default: corpus("default");
    makehuman_default_no_toes: corpus("default_no_toes");
    makehuman_game_engine: corpus("game_engine");
    makehuman_game_engine_with_breast: corpus("game_engine_with_breast");
    makehuman_mixamo: corpus("mixamo");
    makehuman_rigify_human: corpus("human");
    makehuman_rigify_human_toes: corpus("human_toes");
    template_game: template(Template::Game, 0);
    template_game_twist: template(Template::Game, 2);
    template_basic: template(Template::Basic, 0);
    template_mixamo: template(Template::Mixamo, 1);
    template_vrm: template(Template::Vrm, 1);
}
