//! The input of the deformation examples: the GLB named by the first argument, else the
//! mannequin, rigged here without the review (an existing rig is replaced).

/// The input rigged, and how long the rig took, seconds.
pub fn rig_input() -> rigsmith::Result<(rigsmith::RigOutput, f32)> {
    let input = match std::env::args().nth(1) {
        Some(p) => rigsmith::io::read_character(std::path::Path::new(&p))?,
        None => rigsmith::mannequin::build(&Default::default()),
    };
    let o = rigsmith::RigOptions {
        review: false,
        rigged: rigsmith::Rigged::Replace,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let out = rigsmith::rig(&input, &o, &mut |_, _| {})?;
    Ok((out, t.elapsed().as_secs_f32()))
}
