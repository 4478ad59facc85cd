//! An artist's skirt chains extended to the radial grid: the parts stage's synthetic
//! figure, its skirt given the grid of an unrigged skirt, then cut down to an artist's
//! few panels of few segments (the other skirt bones removed, the skirt weighted to the
//! bones kept).

use glam::Vec3;
use rigsmith::parts::{self, Chain, ChainOptions};
use rigsmith::{Bone, Character, Skeleton, Weights};

use crate::parts::figure;

/// The figure (body and skirt) with its skirt on the full radial grid.
fn full_grid() -> Character {
    let mut c = figure(1.7);
    c.parts.truncate(2);
    parts::build_chains(&mut c, &ChainOptions::default()).unwrap();
    c
}

fn skirt_chains(c: &Character) -> Vec<Chain> {
    parts::chains_from_skeleton(c)
        .into_iter()
        .filter(|ch| ch.class == "skirt")
        .collect()
}

fn dist_to_bone(q: Vec3, b: &Bone) -> f32 {
    let d = b.tail - b.head;
    let t = ((q - b.head).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (q - (b.head + d * t)).length()
}

/// `full` cut to `keep` of its panels, spread evenly around the skirt, each with its
/// first `segs` bones; every skirt vertex weighted to the nearest bone kept.
fn artist_skirt(full: &Character, keep: usize, segs: usize) -> Character {
    let fs = full.skeleton.as_ref().unwrap();
    let chains = skirt_chains(full);
    let first_skirt = fs.find(&chains[0].bones[0]).unwrap();
    let mut bones: Vec<Bone> = fs.bones[..first_skirt].to_vec();
    for i in 0..keep {
        let ch = &chains[i * chains.len() / keep];
        let mut parent = fs.bones[fs.find(&ch.bones[0]).unwrap()].parent;
        for name in &ch.bones[..segs] {
            let mut b = fs.bones[fs.find(name).unwrap()].clone();
            b.parent = parent;
            parent = Some(bones.len());
            bones.push(b);
        }
    }
    let skel = Skeleton { bones };
    skel.validate().unwrap();
    let skirt_bones: Vec<usize> = (first_skirt..skel.len()).collect();
    let pos = &full.parts[1].mesh.positions;
    let mut w = Weights::empty(pos.len());
    for (v, q) in pos.iter().enumerate() {
        let best = skirt_bones
            .iter()
            .copied()
            .min_by(|&a, &b| {
                dist_to_bone(*q, &skel.bones[a]).total_cmp(&dist_to_bone(*q, &skel.bones[b]))
            })
            .unwrap();
        w.add(v, best as u32, 1.0);
    }
    let mut c = full.clone();
    c.skeleton = Some(skel);
    c.parts[1].weights = Some(w);
    c.validate().unwrap();
    c
}

#[test]
fn an_artists_four_by_two_skirt_is_extended_to_the_radial_grid() {
    let full = full_grid();
    let grid = skirt_chains(&full);
    let (panels, segs) = (grid.len(), grid[0].bones.len());
    assert!(panels >= 16 && segs >= 4, "{panels} x {segs}");
    let mut c = artist_skirt(&full, 4, 2);
    let artist = c.skeleton.clone().unwrap();
    assert_eq!(skirt_chains(&c).len(), 4);

    let chains = parts::build_chains(&mut c, &ChainOptions::default()).unwrap();
    c.validate().unwrap();
    let s = c.skeleton.as_ref().unwrap();
    // The artist's bones are untouched: same place in the skeleton, name, ends, axis,
    // parent.
    assert_eq!(&s.bones[..artist.len()], &artist.bones[..]);
    // The grid the rules ask for: every panel of the full grid, each with its segments.
    let skirt: Vec<&Chain> = chains.iter().filter(|ch| ch.class == "skirt").collect();
    assert_eq!(skirt.len(), panels);
    assert!(
        skirt.iter().all(|ch| ch.bones.len() == segs),
        "{:?}",
        skirt.iter().map(|ch| ch.bones.len()).collect::<Vec<_>>()
    );
    // Every joint where the full grid has one (within 1e-4 H): the panels added fill
    // the gaps at the grid's angles, the segments continue the artist's chains down
    // to the hem at the grid's spacing.
    let h = c.height();
    let fs = full.skeleton.as_ref().unwrap();
    let grid_joints: Vec<Vec3> = grid
        .iter()
        .flat_map(|ch| ch.bones.iter().map(|n| fs.bones[fs.find(n).unwrap()].tail))
        .collect();
    for ch in &skirt {
        for n in &ch.bones {
            let t = s.bones[s.find(n).unwrap()].tail;
            let d = grid_joints
                .iter()
                .map(|g| (*g - t).length())
                .fold(f32::INFINITY, f32::min);
            assert!(d < 1e-4 * h, "{n}: {:.2e} H from the grid", d / h);
        }
    }
    // Names: the artist's kept, the segments after them `.segN`, the panels between
    // them after their left neighbour, `.pN`.
    let kept = &skirt_chains(&artist_skirt(&full, 4, 2));
    for a in kept {
        let ch = skirt.iter().find(|ch| ch.bones[0] == a.bones[0]).unwrap();
        assert_eq!(&ch.bones[..2], &a.bones[..]);
        assert_eq!(ch.bones[2], format!("{}.seg2", a.bones[0]));
    }
    let added: Vec<&&Chain> = skirt
        .iter()
        .filter(|ch| kept.iter().all(|a| a.bones[0] != ch.bones[0]))
        .collect();
    assert_eq!(added.len(), panels - 4);
    assert!(added.iter().all(|ch| ch.bones[0].contains(".p")));
    // Re-weighted to the extended chain: every skirt bone drives some of the skirt,
    // weights sum to one on at most four bones, none on a leg.
    let w = c.parts[1].weights.as_ref().unwrap();
    let mut used = vec![false; s.len()];
    for list in &w.vertices {
        let sum: f32 = list.iter().map(|i| i.weight).sum();
        assert!((sum - 1.0).abs() < 1e-4 && list.len() <= 4);
        for i in list {
            used[i.bone as usize] = true;
            let name = &s.bones[i.bone as usize].name;
            assert!(name == "hips" || name.starts_with("skirt"), "{name}");
        }
    }
    for ch in &skirt {
        for n in &ch.bones {
            assert!(used[s.find(n).unwrap()], "{n} drives nothing");
        }
    }
    // What was added is said.
    let said = c
        .warnings
        .iter()
        .find(|w| w.contains("extended to the radial grid"))
        .unwrap_or_else(|| panic!("{:?}", c.warnings));
    assert!(
        said.contains(&format!("{} panels added", panels - 4))
            && said.contains("segments appended to 4 artist chains")
            && said.contains(&format!(
                "the artist's 4 panels x 2 segments, the grid {panels} x {segs}"
            )),
        "{said}"
    );
}

#[test]
fn a_skirt_chain_that_meets_the_grid_is_left_as_it_is() {
    let full = full_grid();
    let mut c = full.clone();
    let chains = parts::build_chains(&mut c, &ChainOptions::default()).unwrap();
    assert_eq!(c.skeleton, full.skeleton);
    assert_eq!(c.parts[1].weights, full.parts[1].weights);
    assert_eq!(
        chains.iter().filter(|ch| ch.class == "skirt").count(),
        skirt_chains(&full).len()
    );
    assert!(
        !c.warnings.iter().any(|w| w.contains("radial grid")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn an_artists_panels_reaching_the_hem_get_panels_between_them_and_no_segments() {
    // All segments of 6 panels: the chains reach the hem, so only panels are added.
    let full = full_grid();
    let grid = skirt_chains(&full);
    let segs = grid[0].bones.len();
    let mut c = artist_skirt(&full, 6, segs);
    let artist = c.skeleton.clone().unwrap();
    let chains = parts::build_chains(&mut c, &ChainOptions::default()).unwrap();
    let s = c.skeleton.as_ref().unwrap();
    assert_eq!(&s.bones[..artist.len()], &artist.bones[..]);
    let skirt: Vec<&Chain> = chains.iter().filter(|ch| ch.class == "skirt").collect();
    assert_eq!(skirt.len(), grid.len());
    assert!(skirt.iter().all(|ch| ch.bones.len() == segs));
    assert!(!skirt
        .iter()
        .any(|ch| ch.bones.iter().any(|n| n.contains(".seg"))));
}
