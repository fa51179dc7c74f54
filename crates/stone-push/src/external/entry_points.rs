//! Plugins written as Python packages: entry points of the `stone.plugins` group (the
//! spec's plugin group, literally) in the Python environment stone is configured for.
//!
//! A package declares `[project.entry-points."stone.plugins"] acc = "acc_plugin:Handler"`
//! and depends on `stone-plugin-sdk`; once it is `pip install`ed, stone lists the group
//! with `python -I -m stone_plugin_sdk --list` and runs each entry point in its own process as
//! `python -I -m stone_plugin_sdk --entry-point acc` (isolated, see
//! `stone_package::program`: a `stone_plugin_sdk.py` in the folder stone runs from is
//! never imported), which checks the object with
//! `isinstance(obj, PackagePushHandler)` and speaks the same protocol as any executable
//! plugin. An entry point that fails the check exits before `initialize`, so the host names
//! it and skips it like any plugin that cannot start.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde::Deserialize;
use stone_package::program::{Launch, Program};

use super::{PluginSource, PluginSpec};

/// The module of the Python SDK that lists and serves entry points.
pub const SDK_MODULE: &str = "stone_plugin_sdk";
/// Python's isolated mode: no working directory or script folder on `sys.path`, no
/// `PYTHON*` variables, no user site (put back by [`Launch::python_module`]).
const ISOLATED: &str = "-I";
/// Largest `--list` answer read (a listing is a few hundred bytes per plugin).
const MAX_LISTING_BYTES: u64 = 1 << 20;

/// One entry of `python -m stone_plugin_sdk --list`.
#[derive(Debug, Deserialize)]
struct Listed {
    name: String,
}

/// Why the entry points could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum EntryPointError {
    #[error("cannot run {python}: {source}")]
    Spawn {
        python: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{python} did not list its `stone.plugins` entry points within {seconds} s")]
    Timeout { python: String, seconds: u64 },
    #[error(
        "{python} cannot list `stone.plugins` entry points ({status}): is `stone-plugin-sdk` installed there? {stderr}"
    )]
    Failed {
        python: String,
        status: String,
        stderr: String,
    },
    #[error("{python} listed its entry points as something else than JSON: {reason}")]
    Garbage { python: String, reason: String },
}

/// The Python to ask: `explicit` (`STONE_PLUGIN_PYTHON`) when set, else `python3` in an
/// absolute directory of `path` (a relative `PATH` entry is never searched). `None`: no
/// Python, so no entry-point plugins.
pub fn python(explicit: Option<PathBuf>, path: Option<&std::ffi::OsString>) -> Option<PathBuf> {
    if explicit.is_some() {
        return explicit;
    }
    let exe = if cfg!(windows) { "python" } else { "python3" };
    Program::find_in(exe, path.map(|p| p.as_os_str()))
        .ok()
        .map(|found| found.path().to_owned())
}

/// The entry points of the `stone.plugins` group in `python`'s environment, as plugins.
/// An environment without `stone-plugin-sdk` (so without any plugin built on it) is an
/// error the caller may choose to ignore ([`EntryPointError::Failed`]).
pub fn discover(python: &Path, timeout: Duration) -> Result<Vec<PluginSpec>, EntryPointError> {
    let shown = python.display().to_string();
    let found = Program::find(python).map_err(|e| EntryPointError::Spawn {
        python: shown.clone(),
        source: e.into(),
    })?;
    let mut child = Launch::python_module(&found, SDK_MODULE)
        .arg("--list")
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| EntryPointError::Spawn {
            python: shown.clone(),
            source,
        })?;
    // Read both pipes on threads, so that a chatty interpreter cannot block on a full pipe.
    let stdout = child.stdout.take().map(capped_reader);
    let stderr = child.stderr.take().map(capped_reader);
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < timeout => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EntryPointError::Timeout {
                    python: shown,
                    seconds: timeout.as_secs(),
                });
            }
        }
    };
    let join = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
        h.and_then(|h| h.join().ok()).unwrap_or_default()
    };
    let (out, err) = (join(stdout), join(stderr));
    if !status.success() {
        let stderr = String::from_utf8_lossy(&err);
        return Err(EntryPointError::Failed {
            python: shown,
            status: status.to_string(),
            stderr: stderr.lines().last().unwrap_or_default().to_owned(),
        });
    }
    let listed: Vec<Listed> =
        serde_json::from_slice(&out).map_err(|e| EntryPointError::Garbage {
            python: shown.clone(),
            reason: e.to_string(),
        })?;
    Ok(listed
        .into_iter()
        .filter(|l| is_plugin_name(&l.name))
        .map(|l| PluginSpec {
            command: vec![
                shown.clone(),
                ISOLATED.into(),
                "-m".into(),
                SDK_MODULE.into(),
                "--entry-point".into(),
                l.name.clone(),
            ],
            name: l.name,
            source: PluginSource::EntryPoint,
        })
        .collect())
}

/// How an entry-point plugin's command (`[python, "-I", "-m", module, args…]`, as
/// [`discover`] makes it and `stone plugin list` shows it) is started: the Python found as
/// any program, the module run isolated ([`Launch::python_module`]).
pub fn launch(command: &[String]) -> Result<Launch, std::io::Error> {
    match command {
        [python, isolated, m, module, args @ ..] if isolated == ISOLATED && m == "-m" => {
            let python = Program::find(python)?;
            Ok(Launch::python_module(&python, module).args(args))
        }
        _ => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not an entry point's command: {command:?}"),
        )),
    }
}

fn capped_reader(pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.take(MAX_LISTING_BYTES).read_to_end(&mut buf);
        buf
    })
}

/// A name shown in messages and used as a key: what a `stone-plugin-<name>` file could be
/// named (no separators, no control characters, not empty).
fn is_plugin_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_names_are_plain() {
        assert!(is_plugin_name("acc"));
        assert!(is_plugin_name("my_plugin-2.x"));
        for bad in ["", "a/b", "a b", "\u{1b}[31m", &"x".repeat(65)] {
            assert!(!is_plugin_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_relative_path_entry_is_never_searched() {
        // A folder beside the tests' working directory, named relatively: a cloned
        // repository's `./python3` must not be run.
        let dir = tempfile::tempdir_in(".").unwrap();
        std::fs::write(dir.path().join("python3"), "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(dir.path().join("python3"), mode).unwrap();
        }
        let relative = dir.path().file_name().unwrap().to_owned();
        assert!(std::path::Path::new(&relative).join("python3").is_file());
        assert_eq!(python(None, Some(&relative)), None);
        let absolute = dir.path().canonicalize().unwrap();
        assert_eq!(
            python(None, Some(&absolute.as_os_str().to_owned())),
            Some(absolute.join("python3"))
        );
        let explicit = PathBuf::from("/opt/py/bin/python");
        assert_eq!(python(Some(explicit.clone()), None), Some(explicit));
    }
}
