//! The fingers: the hand's branches, each followed to its tip, named or ordered by
//! position.

use super::ctx::Ctx;
use crate::humanoid::vrm::slot;

const FINGERS: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Little"];

/// The finger slots of `hand` on `side` (`left`/`right`); `fingers_of` lists the
/// hand's finger branches. Decisions go to `notes`.
pub(super) fn fingers(
    cx: &Ctx,
    hand: usize,
    side: &str,
    fingers_of: impl Fn(usize) -> Vec<usize>,
    notes: &mut Vec<String>,
) -> Vec<(&'static str, usize)> {
    let mut out = Vec::new();
    let roots = fingers_of(hand);
    let chains: Vec<Vec<usize>> = roots.iter().map(|&r| finger_chain(cx, r)).collect();
    let mut which: Vec<Option<usize>> = vec![None; chains.len()];
    for (ci, ch) in chains.iter().enumerate() {
        // Substrings of tokens: CMU's `LThumb` is one token.
        let named = |t: &[&str]| {
            ch.iter().any(|&b| {
                cx.toks[b]
                    .iter()
                    .any(|tok| t.iter().any(|x| tok.starts_with(x) || tok.ends_with(x)))
            })
        };
        which[ci] = if named(&["thumb"]) {
            Some(0)
        } else if named(&["index", "pointer"]) {
            Some(1)
        } else if named(&["middle"]) {
            Some(2)
        } else if named(&["ring"]) {
            Some(3)
        } else if named(&["pinky", "little"]) {
            Some(4)
        } else {
            None
        };
    }
    let unique = (0..5).all(|f| which.iter().filter(|w| **w == Some(f)).count() <= 1);
    if !unique {
        which = vec![None; chains.len()];
    }
    if which.iter().all(|w| w.is_none()) && chains.len() == 5 {
        let wrist = cx.heads[hand];
        // The thumb's base (its carpometacarpal joint) is by the wrist; the other
        // fingers start at the knuckles, past a metacarpal bone when there is one.
        // (Tried first: the branch furthest to the front of the hand, and the one
        // splaying most: both took the little finger of rigsmith's T-pose fit.)
        let base = |i: usize| {
            let ch = &chains[i];
            let k = usize::from(
                ch.len() >= 2
                    && (cx.heads[ch[0]] - wrist).length()
                        < 0.5 * (cx.heads[ch[1]] - wrist).length(),
            );
            (cx.heads[ch[k]] - wrist).length()
        };
        let thumb = (0..5)
            .min_by(|&a, &b| base(a).total_cmp(&base(b)).then(a.cmp(&b)))
            .expect("five");
        let thumb_tip = cx.heads[*chains[thumb].last().expect("chain")];
        let mut rest: Vec<usize> = (0..5).filter(|&i| i != thumb).collect();
        let knuckle = |i: usize| {
            let ch = &chains[i];
            cx.heads[ch[ch.len().saturating_sub(3)]]
        };
        rest.sort_by(|&a, &b| {
            (knuckle(a) - thumb_tip)
                .length()
                .total_cmp(&(knuckle(b) - thumb_tip).length())
                .then(a.cmp(&b))
        });
        which[thumb] = Some(0);
        for (f, &i) in rest.iter().enumerate() {
            which[i] = Some(f + 1);
        }
        notes.push(format!(
            "{side} hand: five unnamed fingers ordered by position (thumb {})",
            cx.skel.bones[chains[thumb][0]].name
        ));
    } else if which.iter().any(|w| w.is_none()) && !chains.is_empty() {
        notes.push(format!(
            "{side} hand: {} finger chain(s) neither named nor five: left unmapped",
            which.iter().filter(|w| w.is_none()).count()
        ));
    }
    for (ci, w) in which.iter().enumerate() {
        let Some(f) = *w else { continue };
        let ch = &chains[ci];
        // A first bone whose head sits by the wrist (nearer than half way to the next
        // joint) is a metacarpal: a finger skips it, a thumb maps it. Past three
        // segments the rest is an end bone.
        let wrist = cx.heads[hand];
        let metacarpal = ch.len() >= 2
            && (cx.heads[ch[0]] - wrist).length() < 0.5 * (cx.heads[ch[1]] - wrist).length();
        let (segs, start): (&[&str], usize) = if f == 0 {
            match ch.len() {
                1 => (&["Proximal"], 0),
                2 if metacarpal => (&["Metacarpal", "Proximal"], 0),
                2 => (&["Proximal", "Distal"], 0),
                _ => (&["Metacarpal", "Proximal", "Distal"], 0),
            }
        } else {
            let s = usize::from(metacarpal);
            let all: &[&str] = &["Proximal", "Intermediate", "Distal"];
            (&all[..(ch.len() - s).min(3)], s)
        };
        for (seg, &b) in segs.iter().zip(&ch[start..]) {
            out.push((slot(side, &format!("{}{seg}", FINGERS[f])), b));
        }
    }
    out
}

/// A finger from its root bone to its tip, following the child that continues it;
/// end/nub leaves are left out.
fn finger_chain(cx: &Ctx, root: usize) -> Vec<usize> {
    let mut ch = vec![root];
    let mut cur = root;
    loop {
        let kids = cx.body_children(cur);
        let d = cx.skel.bones[cur].tail - cx.heads[cur];
        let next = kids.into_iter().max_by(|&a, &b| {
            let s = |c: usize| (cx.heads[c] - cx.heads[cur]).normalize_or_zero().dot(d);
            s(a).total_cmp(&s(b)).then(b.cmp(&a))
        });
        match next {
            Some(nx) if !["end", "nub", "tip"].iter().any(|t| cx.has(nx, t)) => {
                ch.push(nx);
                cur = nx;
            }
            _ => break,
        }
        if ch.len() > 8 {
            break;
        }
    }
    ch
}
