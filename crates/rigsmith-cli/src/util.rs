//! Shared CLI glue: output verbosity, progress bars, exit codes, and the one way every
//! command writes a file ([`Outputs`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

/// Global output settings.
pub struct Ctx {
    /// Errors only.
    pub quiet: bool,
    /// Extra detail level.
    pub verbose: u8,
}

/// What a command reports back: success, or a failed check (exit 1).
pub enum Outcome {
    /// Exit 0.
    Ok,
    /// Exit 1: the command ran but a check failed.
    CheckFailed,
}

/// An error that is the user's input's or usage's fault (exit 2), said in plain words.
#[derive(Debug)]
pub struct BadInput(pub String);
impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadInput {}

/// Exit code 1: the command ran and a blocker check failed.
pub const EXIT_BLOCKER: u8 = 1;
/// Exit code 2: bad input or usage (a malformed or missing file, a wrong argument,
/// an input a stage cannot work on).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code 3: reading or writing a file failed (permissions, a full disk, a folder
/// that cannot be created).
pub const EXIT_IO: u8 = 3;

/// The exit code of an error: the first cause in its chain that says what kind it is.
/// A library error says it itself ([`rigsmith::error::ErrorKind`]); an operating
/// system error is an I/O failure, except a file that does not exist, which is a path
/// the user gave wrong; anything else is bad input.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if cause.downcast_ref::<BadInput>().is_some() {
            return EXIT_BAD_INPUT;
        }
        if let Some(r) = cause.downcast_ref::<rigsmith::Error>() {
            return match r.kind() {
                rigsmith::error::ErrorKind::Input => EXIT_BAD_INPUT,
                rigsmith::error::ErrorKind::Io => io_code(std::error::Error::source(r)),
            };
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return io_code(Some(io));
        }
    }
    EXIT_BAD_INPUT
}

/// [`EXIT_IO`], or [`EXIT_BAD_INPUT`] for a file that does not exist.
fn io_code(e: Option<&(dyn std::error::Error + 'static)>) -> u8 {
    match e.and_then(|e| e.downcast_ref::<std::io::Error>()) {
        Some(io) if io.kind() == std::io::ErrorKind::NotFound => EXIT_BAD_INPUT,
        _ => EXIT_IO,
    }
}

impl Ctx {
    /// A spinner for a stage that may take over a second; hidden when quiet or when
    /// stderr is not a terminal.
    pub fn stage(&self, msg: &str) -> ProgressBar {
        let pb = if self.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new_spinner()
        };
        pb.set_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        pb.set_message(msg.to_string());
        pb.enable_steady_tick(Duration::from_millis(120));
        pb
    }
    /// Prints a line to stderr unless quiet.
    pub fn info(&self, msg: &str) {
        if !self.quiet {
            eprintln!("{msg}");
        }
    }
}

/// The message of an error chain with each cause said once: a cause whose text the
/// message already holds (an I/O error wrapped with its file) is not repeated.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let t = cause.to_string();
        if t.is_empty() || msg.contains(&t) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&t);
    }
    msg
}

/// Maps a command's result to the process exit code ([`exit_code`]; a failed check
/// exits [`EXIT_BLOCKER`]) and prints the error with the flag that answers it.
pub fn finish(res: anyhow::Result<Outcome>) -> ExitCode {
    match res {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::CheckFailed) => ExitCode::from(EXIT_BLOCKER),
        Err(e) => {
            let msg = error_text(&e);
            eprintln!("error: {msg}{}", hint(&e, &msg));
            ExitCode::from(exit_code(&e))
        }
    }
}

/// The flags that answer a known error, when there are some (`docs/troubleshooting.md`
/// lists them). The library names no flag; the command line adds them here.
fn hint(e: &anyhow::Error, msg: &str) -> String {
    let rigid = unskinned_parts(msg)
        .iter()
        .map(|n| format!("--rigid {n}"))
        .collect::<Vec<_>>()
        .join(" ");
    let known = known_hint(e, msg);
    match (rigid.is_empty(), known.is_empty()) {
        (true, _) => known.to_string(),
        (false, true) => format!(" (pass {rigid})"),
        // One parenthesis for both.
        (false, false) => {
            let inner = known.trim_start_matches(" (").trim_end_matches(')');
            let inner = inner.strip_prefix("pass ").unwrap_or(inner);
            format!(" (pass {rigid}; or {inner})")
        }
    }
}

/// The parts the fit's refusal names as unskinned in a skinned file
/// ([`rigsmith::pipeline::UNSKINNED_HINT`]).
fn unskinned_parts(msg: &str) -> Vec<String> {
    let Some(end) = msg.find(rigsmith::pipeline::UNSKINNED_HINT) else {
        return Vec::new();
    };
    let head = &msg[..end];
    let Some(start) = head.rfind("; part") else {
        return Vec::new();
    };
    let names = head[start + 2..]
        .trim_start_matches("parts ")
        .trim_start_matches("part ")
        .trim_end()
        .trim_end_matches(" are")
        .trim_end_matches(" is");
    names.split(", ").map(str::to_string).collect()
}

/// The flag that answers a known error other than unskinned parts.
fn known_hint(e: &anyhow::Error, msg: &str) -> &'static str {
    let rigged = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<rigsmith::Error>(),
            Some(rigsmith::Error::AlreadyRigged { .. })
        )
    });
    if rigged {
        " (pass --rerig to replace its skeleton and weights)"
    } else if msg.contains(rigsmith::fit::quadruped::CHAIN_HINT) {
        // A Z-up file reads as a body lying down or, for an animal (its length along
        // the file's Y), as one standing on its nose: neither a biped nor a quadruped.
        " (pass --template chain; if the file is Z-up, pass --up z)"
    } else if msg.contains("lying down") {
        " (if the file is Z-up, pass --up z; a four-legged animal: --template auto or quadruped)"
    } else {
        ""
    }
}

/// Whether `a` and `b` name the same existing file: the same path, a symbolic link to
/// it, or a hard link (the same device and file id).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// Every file a command reads and every file or folder it will write, checked
/// together before anything is written, and the one way a command writes.
///
/// [`Outputs::verify`] refuses, naming the path and the cause:
/// * an output that is one of the inputs (same path, a symbolic link to it, or a hard
///   link to it), including the files a report folder receives;
/// * an output file that is an existing folder, or a report folder that is an
///   existing file;
/// * an output whose parent is an existing file.
///
/// [`Outputs::write`] and [`Outputs::character`] check the path again, create its
/// folder and write atomically (a temporary file beside the target, then a rename), so
/// a failed run never leaves a half-written file.
#[derive(Default)]
pub struct Outputs {
    inputs: Vec<PathBuf>,
    files: Vec<PathBuf>,
    dirs: Vec<(PathBuf, Vec<String>)>,
}

/// The files [`crate::sheets::write_review_dir`] can write into a report folder.
pub const REPORT_FILES: [&str; 7] = [
    "report.html",
    "report.json",
    "placement.png",
    "poses.png",
    "joints.png",
    "face_placement.png",
    "face.png",
];

impl Outputs {
    /// A plan that protects `inputs`.
    pub fn new(inputs: &[&Path]) -> Outputs {
        Outputs {
            inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
            ..Outputs::default()
        }
    }
    /// Adds an input to protect.
    pub fn input(&mut self, p: &Path) -> &mut Outputs {
        self.inputs.push(p.to_path_buf());
        self
    }
    /// Plans an output file (a `.gltf` also plans its `.bin`).
    pub fn file(&mut self, p: &Path) -> &mut Outputs {
        self.files.push(p.to_path_buf());
        if p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("gltf"))
        {
            if let Some(stem) = p.file_stem() {
                let mut bin = stem.to_os_string();
                bin.push(".bin");
                self.files.push(p.with_file_name(bin));
            }
        }
        self
    }
    /// Plans an output folder that will receive the files `names`.
    pub fn dir(&mut self, p: &Path, names: &[&str]) -> &mut Outputs {
        self.dirs.push((
            p.to_path_buf(),
            names.iter().map(|s| s.to_string()).collect(),
        ));
        self
    }

    fn check_file(&self, p: &Path) -> Result<(), BadInput> {
        if p.is_dir() {
            return Err(BadInput(format!(
                "{}: is a directory (the output needs a file name)",
                p.display()
            )));
        }
        if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            if parent.exists() && !parent.is_dir() {
                return Err(BadInput(format!(
                    "{}: {} is a file, not a folder",
                    p.display(),
                    parent.display()
                )));
            }
        }
        for i in &self.inputs {
            if same_file(p, i) {
                let how = if p == i.as_path() {
                    String::new()
                } else {
                    format!(" ({} is the same file)", i.display())
                };
                return Err(BadInput(format!(
                    "{}: refusing to overwrite an input{how}; choose another output path",
                    p.display()
                )));
            }
        }
        Ok(())
    }

    /// Checks every planned output (see the type's doc). Call before writing anything.
    pub fn verify(&self) -> Result<(), BadInput> {
        for f in &self.files {
            self.check_file(f)?;
        }
        for (d, names) in &self.dirs {
            if d.exists() && !d.is_dir() {
                return Err(BadInput(format!(
                    "{}: exists and is a file; the report goes into a folder (give a folder path)",
                    d.display()
                )));
            }
            for n in names {
                self.check_file(&d.join(n))?;
            }
        }
        Ok(())
    }

    /// Writes `bytes` to `path` (checked again, folder created, atomic).
    pub fn write(&self, path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
        self.check_file(path)?;
        make_parent(path)?;
        rigsmith::io::atomic::write_atomic(path, bytes)?;
        Ok(())
    }

    /// Writes a character as `.glb` or `.gltf` (checked again, folder created, atomic).
    pub fn character(
        &self,
        path: &Path,
        c: &rigsmith::Character,
        opts: &rigsmith::io::gltf::WriteOptions,
    ) -> anyhow::Result<()> {
        let mut plan = Outputs::new(&[]);
        plan.inputs.clone_from(&self.inputs);
        plan.file(path).verify()?;
        make_parent(path)?;
        rigsmith::io::write_character(path, c, opts)?;
        Ok(())
    }
}

/// Creates the folder `path` goes into.
fn make_parent(path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| rigsmith::Error::io(dir, e))
            .context("cannot create the output folder")?;
    }
    Ok(())
}

/// Reads a character, with the file named in the error and a folder said to be one.
/// The library's error is kept whole (its kind decides the exit code).
pub fn read_character(path: &Path) -> anyhow::Result<rigsmith::Character> {
    if path.is_dir() {
        return Err(BadInput(format!(
            "{}: is a directory (give a file: .glb, .gltf, .vrm, .obj or .fbx)",
            path.display()
        ))
        .into());
    }
    Ok(rigsmith::io::read_character(path)?)
}

/// Refuses an input that does not exist or is a folder, naming it.
pub fn check_input(path: &Path) -> Result<(), BadInput> {
    if path.is_dir() {
        return Err(BadInput(format!(
            "{}: is a directory (give a file)",
            path.display()
        )));
    }
    if !path.exists() {
        return Err(BadInput(format!("{}: no such file", path.display())));
    }
    Ok(())
}

/// The skeleton template (naming scheme) of `rig` and `fit`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum TemplateArg {
    /// Unreal-mannequin names (MakeHuman's `game_engine` rig), with fingers.
    #[default]
    Game,
    /// As `game` without fingers.
    Basic,
    /// Mixamo names (`mixamorig:` prefix).
    Mixamo,
    /// VRM 1.0 humanoid bone names.
    Vrm,
    /// Biped (game names) or quadruped, read from the cross-sections.
    Auto,
    /// A basic quadruped (Rigify-like names).
    Quadruped,
    /// A horse: hooves, a long neck.
    Horse,
    /// A wolf or dog: paws, ears, tail, jaw.
    Wolf,
    /// A cat: as the wolf, low hocks.
    Cat,
    /// A chain of bones along the body's long axis (a snake).
    Chain,
}

impl TemplateArg {
    /// The body plan the template asks for.
    pub fn plan(self) -> rigsmith::fit::quadruped::Plan {
        use rigsmith::fit::quadruped::{Plan, QuadrupedKind};
        match self {
            TemplateArg::Game | TemplateArg::Basic | TemplateArg::Mixamo | TemplateArg::Vrm => {
                Plan::Biped
            }
            TemplateArg::Auto => Plan::Auto,
            TemplateArg::Quadruped => Plan::Quadruped(QuadrupedKind::Quadruped),
            TemplateArg::Horse => Plan::Quadruped(QuadrupedKind::Horse),
            TemplateArg::Wolf => Plan::Quadruped(QuadrupedKind::Wolf),
            TemplateArg::Cat => Plan::Quadruped(QuadrupedKind::Cat),
            TemplateArg::Chain => Plan::Chain,
        }
    }
}

impl From<TemplateArg> for rigsmith::fit::Template {
    /// The biped naming scheme (`game` for the body plans that are not biped templates).
    fn from(t: TemplateArg) -> Self {
        use rigsmith::fit::Template;
        match t {
            TemplateArg::Basic => Template::Basic,
            TemplateArg::Mixamo => Template::Mixamo,
            TemplateArg::Vrm => Template::Vrm,
            _ => Template::Game,
        }
    }
}

/// How much face `rig` and `vrm` build (`--face`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FaceArg {
    /// No face bones, weights or keys.
    #[default]
    None,
    /// Jaw, eyes and lids, face weights, blink and aa (or the presets from units).
    Basic,
    /// Basic plus brows, cheeks, lip corners, the nose and the upper and lower lip
    /// bones.
    Full,
}

/// The face arguments of `rig` and `vrm`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FaceArgs {
    /// Build a face: jaw, eyes, lids, face weights and expression keys (basic), also
    /// brows, cheeks, lip corners, the nose and the lip bones (full), or none.
    #[arg(long, value_enum, default_value = "none")]
    pub face: FaceArg,
    /// Expression recipes, JSON {"name": {"unit": weight, ...}}, added to the built-in
    /// ones (with --face basic or full).
    #[arg(long, value_name = "FILE")]
    pub expressions: Option<std::path::PathBuf>,
}

impl FaceArgs {
    /// The library's face options; reads the recipes file.
    pub fn options(&self) -> anyhow::Result<rigsmith::face::FaceOptions> {
        use rigsmith::face::FaceMode;
        let mode = match self.face {
            FaceArg::None => FaceMode::None,
            FaceArg::Basic => FaceMode::Basic,
            FaceArg::Full => FaceMode::Full,
        };
        if mode == FaceMode::None && self.expressions.is_some() {
            anyhow::bail!(rigsmith::Error::invalid(
                "--expressions",
                "needs --face basic or --face full"
            ));
        }
        let recipes = match &self.expressions {
            Some(p) => Some(rigsmith::face::read_recipes(p)?),
            None => None,
        };
        Ok(rigsmith::face::FaceOptions { mode, recipes })
    }
}

/// Which axis is up in the input file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum UpArg {
    /// +Y up (glTF's convention).
    #[default]
    Y,
    /// +Z up (Blender, CAD): turned to Y up on reading.
    Z,
}

/// Which way the character faces in the input file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FacingArg {
    /// Read from the toes (feet with no toes say nothing: +Z, glTF's front, is assumed
    /// and the report says so).
    #[default]
    Auto,
    /// +Z (glTF's front).
    #[value(name = "+z")]
    PlusZ,
    /// -Z (some exports; VRM 0.x files are turned by their reader): turned half a
    /// turn on reading.
    #[value(name = "-z")]
    MinusZ,
    /// +X: turned a quarter turn on reading.
    #[value(name = "+x")]
    PlusX,
    /// -X: turned a quarter turn on reading.
    #[value(name = "-x")]
    MinusX,
}

/// The input file's length unit.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default)]
pub enum UnitsArg {
    /// Read from the height: up to 10 units metres, 30 to 400 centimetres, 400 to 4000
    /// millimetres (otherwise left as it is, with a note).
    #[default]
    Auto,
    /// Metres.
    M,
    /// Centimetres.
    Cm,
    /// Millimetres.
    Mm,
}

/// The part roles a user tells (every command that judges a character's parts): each
/// overrides what geometry would say for the parts it names; the others are judged.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PartsArgs {
    /// Parts (or materials) that are pieces of the skin, comma-separated; by default
    /// every part's role comes from geometry.
    #[arg(long, value_delimiter = ',', value_name = "PART,...")]
    pub body: Vec<String>,
    /// Parts (or materials) that are garments over the skin, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "PART,...")]
    pub garment: Vec<String>,
    /// A rigid part, optionally with its bone: `PART` or `PART=BONE` (repeatable).
    #[arg(long = "rigid", value_name = "PART[=BONE]")]
    pub rigid: Vec<String>,
}

impl PartsArgs {
    /// The roles told, as the library takes them (`PART=BONE` split at its `=`).
    pub fn options(&self) -> rigsmith::model::BodyOptions {
        rigsmith::model::BodyOptions::told(self.body.clone(), self.garment.clone(), &self.rigid)
    }

    /// Tells `c` the roles (as its own [`rigsmith::Character::body_options`]), refusing
    /// a name that is no part or material of the file at `path`.
    pub fn tell(&self, c: &mut rigsmith::Character, path: &Path) -> Result<(), BadInput> {
        c.tell_roles(self.options())
            .map_err(|e| BadInput(format!("{}: {e}", path.display())))
    }
}

/// As `rig` does on its fit's refusal: the parts a rigged file leaves unskinned that make
/// the figure no biped or quadruped (Blender's bone-display ball written out to FBX,
/// [`rigsmith::pipeline::unskinned_helpers`]) are told rigid, out of the figure, each
/// said with `line` (`NAME` in it replaced by the part's name). Their names.
pub fn leave_out_helpers(
    c: &mut rigsmith::Character,
    plan: rigsmith::fit::quadruped::Plan,
    line: &str,
    ctx: &Ctx,
) -> Vec<String> {
    let helpers = rigsmith::pipeline::unskinned_helpers(c, &c.body_options, plan);
    for n in &helpers {
        ctx.info(&format!("{n}: {}", line.replace("NAME", n)));
        c.body_options.rigid.push((n.clone(), None));
    }
    helpers
}

/// How to read an input's axes and units (every command that reads a character).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SpaceArgs {
    /// Which axis is up in the input file.
    #[arg(long, value_enum, default_value = "y")]
    pub up: UpArg,
    /// The input file's length unit (auto: read from the height, said in the summary).
    #[arg(long, value_enum, default_value = "auto")]
    pub units: UnitsArg,
    /// Which way the character faces in the input file (auto: read from the toes);
    /// turned to face +Z on reading.
    #[arg(long, value_enum, default_value = "auto", allow_hyphen_values = true)]
    pub facing: FacingArg,
}

/// Reads a character and brings it into glTF space (+Y up, metres) as `space` says;
/// returns it with what was done, in plain words.
pub fn read_in(
    path: &Path,
    space: &SpaceArgs,
) -> anyhow::Result<(rigsmith::Character, Vec<String>)> {
    let mut c = read_character(path)?;
    let notes = to_space(&mut c, space);
    Ok((c, notes))
}

/// Brings a character into glTF space as `space` says (see [`read_in`]).
pub fn to_space(c: &mut rigsmith::Character, space: &SpaceArgs) -> Vec<String> {
    use rigsmith::io::space::{face_front, to_gltf_space, Facing, Units, Up};
    let mut notes = to_gltf_space(
        c,
        match space.up {
            UpArg::Y => Up::Y,
            UpArg::Z => Up::Z,
        },
        match space.units {
            UnitsArg::Auto => Units::Auto,
            UnitsArg::M => Units::M,
            UnitsArg::Cm => Units::Cm,
            UnitsArg::Mm => Units::Mm,
        },
    );
    let facing = match space.facing {
        FacingArg::Auto => None,
        FacingArg::PlusZ => Some(Facing::PlusZ),
        FacingArg::MinusZ => Some(Facing::MinusZ),
        FacingArg::PlusX => Some(Facing::PlusX),
        FacingArg::MinusX => Some(Facing::MinusX),
    };
    if let Some(f) = facing {
        notes.extend(face_front(c, f));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unskinned_parts_are_named_back_as_flags() {
        let one = format!(
            "fit: no biped; part Icosphere is {} (a helper shape?): leave it out",
            rigsmith::pipeline::UNSKINNED_HINT
        );
        assert_eq!(unskinned_parts(&one), vec!["Icosphere"]);
        let e = anyhow::anyhow!(one.clone());
        assert_eq!(hint(&e, &one), " (pass --rigid Icosphere)");
        let two = format!(
            "fit: x; y; parts Ball, Cube.001 are {}: leave them out; {}",
            rigsmith::pipeline::UNSKINNED_HINT,
            rigsmith::fit::quadruped::CHAIN_HINT
        );
        assert_eq!(unskinned_parts(&two), vec!["Ball", "Cube.001"]);
        let e = anyhow::anyhow!(two.clone());
        assert_eq!(
            hint(&e, &two),
            " (pass --rigid Ball --rigid Cube.001; or --template chain; if the file is Z-up, pass --up z)"
        );
        assert!(unskinned_parts("fit: crotch: no cut").is_empty());
    }
}
