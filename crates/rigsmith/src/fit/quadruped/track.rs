//! Following a limb through the mesh by cross-sections: horizontal cuts for the legs,
//! cuts normal to the running direction for the neck, the tail and the ears.

use glam::Vec3;

use crate::fit::sections::{cross_sections, Loop, Slicer};
use crate::model::Mesh;

/// One station of a tracked limb: the centre and the loop's mean radius and perimeter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Station {
    pub center: Vec3,
    pub radius: f32,
    pub perimeter: f32,
}

impl Station {
    fn of(l: &Loop) -> Station {
        Station {
            center: l.center,
            radius: l.radius,
            perimeter: l.perimeter,
        }
    }
}

/// A leg followed by horizontal cuts from the cut at `y0` (its loop nearest `seed`),
/// up until its loop joins the trunk (the loop spans the centre plane `cx` or its
/// perimeter grows past 1.8 times), and down to the floor. Returns the stations from
/// the floor up.
pub(crate) fn leg(
    slicer: &Slicer<'_>,
    seed: Vec3,
    y0: f32,
    floor: f32,
    h: f32,
    cx: f32,
) -> Vec<Station> {
    let step = 0.01 * h;
    let min = 0.005 * h;
    let pick = |y: f32, prev: &Station| -> Option<Loop> {
        slicer
            .cut(Vec3::new(0.0, y, 0.0))
            .into_iter()
            .filter(|l| l.perimeter > min)
            .map(|l| {
                let d =
                    Vec3::new(l.center.x - prev.center.x, 0.0, l.center.z - prev.center.z).length();
                (d, l)
            })
            .filter(|(d, _)| *d < 2.0 * prev.radius + step)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, l)| l)
    };
    let start = Station {
        center: seed,
        radius: 0.05 * h,
        perimeter: 0.0,
    };
    let Some(first) = pick(y0, &start) else {
        return Vec::new();
    };
    let first = Station::of(&first);
    let mut up = vec![first];
    let mut y = y0;
    loop {
        y += step;
        let prev = *up.last().unwrap();
        let Some(l) = pick(y, &prev) else { break };
        let spans = l.lo.x < cx && l.hi.x > cx;
        if spans || l.perimeter > 1.8 * prev.perimeter || y > floor + h {
            break;
        }
        up.push(Station::of(&l));
    }
    let mut down = Vec::new();
    let mut y = y0;
    let mut prev = first;
    loop {
        y -= step;
        if y <= floor + 0.2 * step {
            break;
        }
        let Some(l) = pick(y, &prev) else { break };
        prev = Station::of(&l);
        down.push(prev);
    }
    down.reverse();
    down.extend(up);
    down
}

/// The centre of a leg at height `y`, interpolated between its stations (clamped to
/// the first and last).
pub(crate) fn at_height(st: &[Station], y: f32) -> Station {
    if st.is_empty() {
        return Station {
            center: Vec3::ZERO,
            radius: 0.0,
            perimeter: 0.0,
        };
    }
    if y <= st[0].center.y {
        return st[0];
    }
    for w in st.windows(2) {
        let (a, b) = (w[0], w[1]);
        if y <= b.center.y {
            let t = (y - a.center.y) / (b.center.y - a.center.y).max(1e-12);
            return Station {
                center: a.center.lerp(b.center, t),
                radius: a.radius + t * (b.radius - a.radius),
                perimeter: a.perimeter + t * (b.perimeter - a.perimeter),
            };
        }
    }
    st[st.len() - 1]
}

/// A limb followed from `start` along `dir` by cuts normal to the running direction,
/// `step` apart: each cut keeps the loop nearest the predicted centre (within twice the
/// last radius plus a step) that `keep` accepts, and the direction turns toward the
/// new centre. Stops when no loop is found, when the loop's perimeter grows past
/// `grow` times the last one, or after `max_steps`.
pub(crate) fn march(
    m: &Mesh,
    start: Vec3,
    dir: Vec3,
    step: f32,
    max_steps: usize,
    grow: f32,
    keep: &dyn Fn(&Loop) -> bool,
) -> Vec<Station> {
    march_from(m, start, dir, step, 4.0 * step, max_steps, grow, keep)
}

/// [`march`] whose first cut keeps a loop within `first_reach` of the predicted centre
/// (a start inside a larger section: the tail from the sacrum).
#[allow(clippy::too_many_arguments)]
pub(crate) fn march_from(
    m: &Mesh,
    start: Vec3,
    dir: Vec3,
    step: f32,
    first_reach: f32,
    max_steps: usize,
    grow: f32,
    keep: &dyn Fn(&Loop) -> bool,
) -> Vec<Station> {
    let mut out = Vec::new();
    let Some(mut d) = dir.try_normalize() else {
        return out;
    };
    let mut p = start;
    let mut last: Option<Station> = None;
    for _ in 0..max_steps {
        let q = p + d * step;
        let reach = last.map_or(first_reach, |s| 2.0 * s.radius + step);
        let best = cross_sections(&[m], q, d)
            .into_iter()
            .filter(|l| keep(l))
            .map(|l| ((l.center - q).length(), l))
            .filter(|(e, _)| *e < reach)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, l)| l);
        let Some(l) = best else { break };
        if let Some(s) = last {
            if l.perimeter > grow * s.perimeter {
                break;
            }
        }
        let s = Station::of(&l);
        // The direction turns toward the line of the centres (not from the start, which
        // may lie off the first section's centre).
        if let Some(nd) = last.and_then(|a| (s.center - a.center).try_normalize()) {
            d = (0.5 * d + 0.5 * nd).normalize();
        }
        p = s.center;
        out.push(s);
        last = Some(s);
    }
    out
}

/// Points `n + 1` evenly spaced by arc length along the polyline `pts` (first and last
/// included).
pub(crate) fn resample(pts: &[Vec3], n: usize) -> Vec<Vec3> {
    if pts.len() < 2 || n == 0 {
        return pts.to_vec();
    }
    let mut acc = vec![0.0f32];
    for w in pts.windows(2) {
        acc.push(acc.last().unwrap() + (w[1] - w[0]).length());
    }
    let total = *acc.last().unwrap();
    let mut out = Vec::with_capacity(n + 1);
    let mut j = 0;
    for k in 0..=n {
        let s = total * k as f32 / n as f32;
        while j + 2 < acc.len() && acc[j + 1] < s {
            j += 1;
        }
        let t = ((s - acc[j]) / (acc[j + 1] - acc[j]).max(1e-12)).clamp(0.0, 1.0);
        out.push(pts[j].lerp(pts[j + 1], t));
    }
    out
}

/// Length of a polyline.
pub(crate) fn length(pts: &[Vec3]) -> f32 {
    pts.windows(2).map(|w| (w[1] - w[0]).length()).sum()
}
