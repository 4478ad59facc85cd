//! Calibration of the landmark rules against the MakeHuman `game_engine` joints.
//!
//! Prints, for each body variant, the value each calibration constant of
//! `fit/landmarks.rs` would need to hit the artist joint exactly, and the mean over the
//! variants (the constants in the code are these means, rounded).
//!
//! ```text
//! cargo run --release --example fit_calibrate
//! ```

#[path = "fit_accuracy.rs"]
#[allow(dead_code)]
mod acc;

use glam::Vec3;
use rigsmith::fit::{cross_sections, find_landmarks, LandmarkOptions, FINGERS};

fn back_front(m: &rigsmith::Mesh, cx: f32, y: f32) -> (f32, f32) {
    let ls = cross_sections(&[m], Vec3::new(0.0, y, 0.0), Vec3::Y);
    let l = ls
        .iter()
        .filter(|l| l.lo.x < cx && l.hi.x > cx)
        .max_by(|a, b| a.perimeter.total_cmp(&b.perimeter))
        .unwrap();
    let z = l.crossings(0, cx, 2);
    (z[0], z[z.len() - 1])
}

fn main() {
    let corpus = acc::open(&acc::corpus_dir());
    let mut sums: std::collections::BTreeMap<String, Vec<f32>> = Default::default();
    for v in rigsmith::io::mpfb2::VARIANTS {
        let (ch, gt) = acc::load(&corpus, v.name);
        let lm = match find_landmarks(&ch, &LandmarkOptions::default()) {
            Ok(l) => l,
            Err(e) => {
                println!("{}: {e}", v.name);
                continue;
            }
        };
        let m = &ch.parts[0].mesh;
        let h = lm.height;
        let cx = lm.center_x;
        let g = |b: &str| gt[b].0;
        let gtail = |b: &str| gt[b].1;
        let l = |n: &str| lm.get(n).unwrap();
        let mut put = |k: &str, x: f32| sums.entry(k.to_string()).or_default().push(x);
        let hip = g("thigh_l");
        put("HIP_Y", (hip.y - l("crotch").y) / h);
        put("HIP_X", (hip.x - cx) / (l("thigh_top_l").x - cx));
        put("HIP_Z", (hip.z - l("thigh_top_l").z) / h);
        let ank = g("foot_l");
        put("ANK_Y", (ank.y - l("ankle_round_l").y) / h);
        put("ANK_Z", (ank.z - l("ankle_round_l").z) / h);
        put("ANK_H", (ank.y - lm.floor) / h);
        put("KNEE_H", (g("calf_l").y - lm.floor) / h);
        put("CROTCH_H", (l("crotch").y - lm.floor) / h);
        let knee = g("calf_l");
        put("KNEE_T", (knee.y - ank.y) / (hip.y - ank.y));
        put("KNEE_Zdelta", (knee.z - l("knee_l").z) / h);
        let ball = g("ball_l");
        let (heel, toe) = (l("heel_l"), l("toe_l"));
        put("BALL_T", (ball.z - heel.z) / (toe.z - heel.z));
        put("BALL_Y", (ball.y - lm.floor) / h);
        let neck_n = l("neck_narrowest").y;
        let hip_y = l("hip_l").y;
        for (k, b) in ["pelvis", "spine_01", "spine_02", "spine_03", "neck_01"]
            .iter()
            .enumerate()
        {
            let p = g(b);
            put(&format!("SPINE_F{k}"), (p.y - hip_y) / (neck_n - hip_y));
            let (bz, fz) = back_front(m, cx, p.y);
            put(&format!("SPINE_G{k}"), (p.z - bz) / (fz - bz));
        }
        let ap = l("armpit_l").y;
        put("HEADR", (lm.floor + h - neck_n) / h);
        for (k, b) in ["spine_02", "spine_03", "neck_01", "clavicle_l"]
            .iter()
            .enumerate()
        {
            put(&format!("ARMPIT_REL{k}"), (g(b).y - ap) / h);
            put(&format!("ARMPIT_FR{k}"), (g(b).y - hip_y) / (ap - hip_y));
        }
        let hd = g("head");
        let top = lm.floor + h;
        put("HEAD_F", (hd.y - neck_n) / (top - neck_n));
        let (bz, fz) = back_front(m, cx, hd.y);
        put("HEAD_G", (hd.z - bz) / (fz - bz));
        put("HEAD_TOP_dy", (gtail("head").y - top) / h);
        let a = lm.axes["arm_l"];
        let up = (Vec3::Y - a * a.y).normalize();
        let fwd = {
            let f = a.cross(up).normalize() * -1.0;
            if f.z < 0.0 {
                -f
            } else {
                f
            }
        };
        let fr = |d: Vec3| [d.dot(a) / h, d.dot(up) / h, d.dot(fwd) / h];
        let sh = g("upperarm_l");
        let o = fr(sh - l("armpit_l"));
        put("SH0", o[0]);
        put("SH1", o[1]);
        put("SH2", o[2]);
        let wr = g("hand_l");
        let o = fr(wr - l("wrist_narrowest_l"));
        put("WR0", o[0]);
        put("WR1", o[1]);
        put("WR2", o[2]);
        let el = g("lowerarm_l");
        put(
            "ELB_BEND",
            rigsmith::fit::bend_angle(sh, el, wr)
                * if (el - sh)
                    .cross(wr - el)
                    .dot(lm.axes["arm_l"].cross(Vec3::Z))
                    > 0.0
                {
                    1.0
                } else {
                    -1.0
                },
        );
        put("KNEE_BEND", rigsmith::fit::bend_angle(hip, knee, ank));
        put("ELB_T", (el - sh).dot(wr - sh) / (wr - sh).length_squared());
        // The rigging notes' own rules against ours, as errors against the artist
        // joint (% H): hip 13% of the crotch height above the crotch (ours 5.2% H),
        // head pivot 20% of the way from the neck to the top (ours 33.4%), elbow at 53%
        // of shoulder to wrist (ours 50.2%); and where the artist's wrist lies along
        // the arm (shoulder to middle finger tip), against the notes' 60-90% search.
        let crotch = l("crotch").y;
        put(
            "CMP_HIP_notes_err",
            100.0 * (crotch + 0.13 * (crotch - lm.floor) - hip.y).abs() / h,
        );
        put(
            "CMP_HIP_ours_err",
            100.0 * (crotch + 0.052 * h - hip.y).abs() / h,
        );
        put(
            "CMP_HEAD_notes_err",
            100.0 * (neck_n + 0.20 * (top - neck_n) - hd.y).abs() / h,
        );
        put(
            "CMP_HEAD_ours_err",
            100.0 * (neck_n + 0.334 * (top - neck_n) - hd.y).abs() / h,
        );
        let t_el = (el - sh).dot(wr - sh) / (wr - sh).length_squared();
        put(
            "CMP_ELB_notes_err",
            100.0 * (0.53 - t_el).abs() * (wr - sh).length() / h,
        );
        put(
            "CMP_ELB_ours_err",
            100.0 * (0.502 - t_el).abs() * (wr - sh).length() / h,
        );
        let tip = gtail("middle_03_l");
        put(
            "CMP_WRIST_at",
            (wr - sh).dot(tip - sh) / (tip - sh).length_squared(),
        );
        let o = fr(el - l("elbow_l"));
        put("ELB0d", o[0]);
        put("ELB1d", o[1]);
        put("ELB2d", o[2]);
        let cl = g("clavicle_l");
        put("CLAV0", (cl.x - cx) / (sh.x - cx));
        put("CLAV1", (cl.y - sh.y) / h);
        let (bz, fz) = back_front(m, cx, cl.y);
        put("CLAV2", (cl.z - bz) / (fz - bz));
        // Hand frame from the measured wrist.
        let w0 = l("wrist_narrowest_l");
        let (d, ws, n) = (
            lm.axes["hand_l"],
            lm.axes["thumb_side_l"],
            lm.axes["palm_normal_l"],
        );
        let len = (l("hand_tip_l") - w0).length();
        let hf = |p: Vec3| {
            [
                (p - w0).dot(d) / len,
                (p - w0).dot(ws) / len,
                (p - w0).dot(n) / len,
            ]
        };
        let t = hf(gtail("hand_l"));
        for (i, x) in t.iter().enumerate() {
            put(&format!("HAND_TAIL{i}"), *x);
        }
        for f in FINGERS {
            for j in 0..4 {
                let p = if j < 3 {
                    g(&format!("{f}_{:02}_l", j + 1))
                } else {
                    gtail(&format!("{f}_03_l"))
                };
                let c = hf(p);
                for (i, x) in c.iter().enumerate() {
                    put(&format!("HAND_{f}_{j}_{i}"), *x);
                }
            }
        }
        println!(
            "{}: arm angle {:.1} pose {}",
            v.name, lm.arm_angle_deg, lm.pose
        );
    }
    for (k, xs) in &sums {
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / xs.len() as f32).sqrt();
        println!(
            "{k:>20} mean {mean:8.4} sd {sd:7.4}  [{}]",
            xs.iter()
                .map(|x| format!("{x:.3}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
