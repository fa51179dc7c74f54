//! One way to start a program. Every program the client starts (git for the branch,
//! plugins and the Python of entry-point plugins, the browser opener, `stone-rdf`) is made
//! here and nowhere else: a test reads the client crates' sources and fails on a
//! `Command::new` outside this file.
//!
//! - **The program is an absolute path.** A bare name is looked up in the absolute entries
//!   of `PATH` only: an empty or relative entry (`.`, `bin`) names a folder of wherever
//!   stone runs, such as a cloned repository's top, whose `git` would otherwise run. A
//!   relative path with a separator (`./plugin`) is refused for the same reason.
//! - **The working directory is stone's choice**: [`neutral_dir`] (the file system's
//!   root, which no user may write), unless the call site names another and says why it is
//!   safe ([`Launch::in_dir`], [`Launch::in_callers_dir`]).
//! - **The program's `PATH` has the absolute entries only**, so that what it looks up in
//!   turn (a `#!/usr/bin/env python3` line, git's helpers, an opener's browser) is not
//!   found in the folder it runs in either.
//! - **No `STONE_*` variable** (tokens among them) reaches the program unless the call
//!   site keeps them ([`Launch::with_stone_variables`]: only stone itself, `stone-rdf`).
//! - **Python starts isolated** ([`Launch::python_module`]): `-I` (neither the working
//!   directory nor a script's folder on `sys.path`, no `PYTHON*` variable, no user
//!   site-packages), then a bootstrap adds back where an installed package may live:
//!   the user's site-packages outside a virtual environment (where Python looks by
//!   default) and the absolute entries of `PYTHONPATH`; then it runs the module as
//!   `python -m` would.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The prefix of the variables kept from a program unless its call site keeps them.
pub const SCRUBBED_PREFIX: &str = "STONE_";

/// Why a program cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    #[error(
        "`{name}` was not found in the absolute folders of PATH (relative entries such as `.` are never searched)"
    )]
    NotFound { name: String },
    #[error(
        "`{name}` is a relative path, which would name a program of wherever stone runs: give an absolute path or a name found on PATH"
    )]
    Relative { name: String },
}

impl From<ProgramError> for std::io::Error {
    fn from(error: ProgramError) -> Self {
        std::io::Error::new(std::io::ErrorKind::NotFound, error)
    }
}

/// A program found: an absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    path: PathBuf,
}

impl Program {
    /// `name` found with this process's `PATH` (see [`Program::find_in`]).
    pub fn find(name: impl AsRef<OsStr>) -> Result<Program, ProgramError> {
        Self::find_in(name, std::env::var_os("PATH").as_deref())
    }

    /// `name` as a program: an absolute path is taken as it is; a bare name is the first
    /// executable file of that name in the absolute entries of `path` ([`searched_dirs`]);
    /// a relative path with a separator is refused.
    pub fn find_in(name: impl AsRef<OsStr>, path: Option<&OsStr>) -> Result<Program, ProgramError> {
        let name = name.as_ref();
        let shown = || name.to_string_lossy().into_owned();
        let given = Path::new(name);
        if given.is_absolute() {
            return Ok(Program {
                path: given.to_owned(),
            });
        }
        if name.is_empty() || given.components().count() != 1 || has_separator(name) {
            return Err(ProgramError::Relative { name: shown() });
        }
        searched_dirs(path)
            .flat_map(|dir| candidates(&dir, name))
            .find(|candidate| is_executable(candidate))
            .map(|path| Program { path })
            .ok_or_else(|| ProgramError::NotFound { name: shown() })
    }

    /// The program's absolute path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A start of this program with no arguments yet, in [`neutral_dir`], without the
    /// `STONE_*` variables.
    pub fn launch(&self) -> Launch {
        Launch {
            program: self.path.clone(),
            args: Vec::new(),
            dir: Dir::Neutral,
            keep_stone_variables: false,
        }
    }
}

/// Where a started program runs.
#[derive(Debug, Clone)]
enum Dir {
    Neutral,
    Given(PathBuf),
    Callers,
}

/// How a program is started; [`Launch::command`] makes the process builder.
#[derive(Debug, Clone)]
pub struct Launch {
    program: PathBuf,
    args: Vec<OsString>,
    dir: Dir,
    keep_stone_variables: bool,
}

/// What [`Launch::python_module`] runs after `-I -c`: puts back where installed packages
/// live (the user site outside a virtual environment, absolute `PYTHONPATH` entries), then
/// runs the module named by the first argument as `python -m` does.
const PYTHON_BOOTSTRAP: &str = "import os, runpy, site, sys\n\
if sys.prefix == sys.base_prefix:\n    \
user = site.getusersitepackages()\n    \
if isinstance(user, str) and os.path.isdir(user): site.addsitedir(user)\n\
for entry in reversed(os.environ.get('PYTHONPATH', '').split(os.pathsep)):\n    \
if os.path.isabs(entry) and entry not in sys.path: sys.path.insert(0, entry)\n\
module = sys.argv.pop(1)\n\
runpy.run_module(module, run_name='__main__', alter_sys=True)\n";

impl Launch {
    /// `python` running `module` as `python -m module` would, isolated (see the module
    /// documentation); arguments added afterwards are the module's.
    pub fn python_module(python: &Program, module: &str) -> Launch {
        let mut launch = python.launch();
        launch.args = vec![
            "-I".into(),
            "-c".into(),
            PYTHON_BOOTSTRAP.into(),
            module.into(),
        ];
        launch
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Runs in `dir`: for a program that must look at that folder and runs no code from
    /// it (git reading the package's repository; the program itself was found on the
    /// absolute entries of `PATH`, never there).
    pub fn in_dir(mut self, dir: &Path) -> Self {
        self.dir = Dir::Given(dir.to_owned());
        self
    }

    /// Runs in stone's own working directory, where relative arguments and destinations
    /// the user gave mean something: `stone-rdf` (stone itself, found beside the running
    /// executable) and plugins (found on the absolute `PATH` entries; their `PATH` keeps
    /// absolute entries only; Python ones isolated).
    pub fn in_callers_dir(mut self) -> Self {
        self.dir = Dir::Callers;
        self
    }

    /// Keeps the `STONE_*` variables (tokens among them): for stone itself (`stone-rdf`).
    pub fn with_stone_variables(mut self) -> Self {
        self.keep_stone_variables = true;
        self
    }

    /// The program to run.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The process builder: the program's absolute path, its arguments, its working
    /// directory, the environment without `STONE_*` unless kept. The caller adds pipes.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        match &self.dir {
            Dir::Neutral => {
                command.current_dir(neutral_dir());
            }
            Dir::Given(dir) => {
                command.current_dir(dir);
            }
            Dir::Callers => {}
        }
        if !self.keep_stone_variables {
            for (key, _) in std::env::vars_os() {
                if is_scrubbed(&key) {
                    command.env_remove(&key);
                }
            }
        }
        if let Some(path) = absolute_path(std::env::var_os("PATH").as_deref()) {
            command.env("PATH", path);
        }
        command
    }
}

/// `path` without its empty and relative entries; `None` when it has none to drop (or
/// cannot be joined again).
fn absolute_path(path: Option<&OsStr>) -> Option<OsString> {
    let path = path?;
    let all: Vec<PathBuf> = std::env::split_paths(path).collect();
    let kept: Vec<&PathBuf> = all.iter().filter(|dir| dir.is_absolute()).collect();
    if kept.len() == all.len() {
        return None;
    }
    std::env::join_paths(kept).ok()
}

/// Whether a variable is kept from programs by default (`STONE_*`, in any case).
pub fn is_scrubbed(key: &OsStr) -> bool {
    key.to_string_lossy()
        .to_ascii_uppercase()
        .starts_with(SCRUBBED_PREFIX)
}

/// The working directory of a started program: the file system's root, which holds no
/// user's files and which no user may write (the system drive's root on Windows).
pub fn neutral_dir() -> PathBuf {
    #[cfg(windows)]
    {
        if let Some(drive) = std::env::var_os("SystemDrive") {
            let mut root = PathBuf::from(drive);
            root.push("\\");
            return root;
        }
        PathBuf::from("C:\\")
    }
    #[cfg(not(windows))]
    {
        PathBuf::from("/")
    }
}

/// The folders of `path` searched for programs: the absolute entries only. A relative
/// entry (`.`, an empty entry, `bin`) names a folder of wherever stone runs.
pub fn searched_dirs(path: Option<&OsStr>) -> impl Iterator<Item = PathBuf> + '_ {
    path.map(std::env::split_paths)
        .into_iter()
        .flatten()
        .filter(|dir| dir.is_absolute())
}

fn has_separator(name: &OsStr) -> bool {
    let text = name.to_string_lossy();
    text.contains('/') || (cfg!(windows) && text.contains(['\\', ':']))
}

/// The files a bare name may be in `dir`: the name, and on Windows the name with each
/// extension of `PATHEXT` when it has none.
fn candidates(dir: &Path, name: &OsStr) -> Vec<PathBuf> {
    let mut found = vec![dir.join(name)];
    if cfg!(windows) && Path::new(name).extension().is_none() {
        let extensions = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into());
        for extension in extensions.split(';').filter(|e| !e.is_empty()) {
            let mut file = name.to_owned();
            file.push(extension);
            found.push(dir.join(file));
        }
    }
    found
}

/// Whether `path` is a file this user may run.
#[cfg(unix)]
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Elsewhere a file is run by its extension (`.exe`, `.cmd`, …), not a mode bit.
#[cfg(not(unix))]
pub fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn plant(dir: &Path, name: &str) -> PathBuf {
        std::fs::create_dir_all(dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, "#!/bin/sh\nexit 0\n").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        file
    }

    #[test]
    fn only_absolute_path_entries_are_searched() {
        // A folder of the tests' working directory, named relatively.
        let here = tempfile::tempdir_in(".").unwrap();
        let relative = here.path().file_name().unwrap().to_owned();
        plant(here.path(), "stone-test-tool");
        for path in [
            relative.clone(),
            OsString::from("."),
            OsString::from(""),
            OsString::from(":"),
        ] {
            assert_eq!(
                Program::find_in("stone-test-tool", Some(&path)),
                Err(ProgramError::NotFound {
                    name: "stone-test-tool".into()
                }),
                "{path:?}"
            );
        }
        let absolute = here.path().canonicalize().unwrap();
        let mut path = relative;
        path.push(":");
        path.push(&absolute);
        let found = Program::find_in("stone-test-tool", Some(&path)).unwrap();
        assert_eq!(found.path(), absolute.join("stone-test-tool"));
    }

    #[test]
    fn relative_paths_are_refused_and_absolute_ones_taken() {
        for name in ["./git", "bin/git", "../git", ""] {
            assert!(
                matches!(
                    Program::find_in(name, Some(OsStr::new("/usr/bin"))),
                    Err(ProgramError::Relative { .. })
                ),
                "{name:?}"
            );
        }
        assert_eq!(
            Program::find_in("/opt/x/python", None).unwrap().path(),
            Path::new("/opt/x/python")
        );
    }

    #[test]
    fn a_file_that_is_not_executable_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("a");
        std::fs::create_dir_all(&first).unwrap();
        std::fs::write(first.join("tool"), "not a program").unwrap();
        let second = plant(&dir.path().join("b"), "tool");
        let path = std::env::join_paths([first, dir.path().join("b")]).unwrap();
        assert_eq!(
            Program::find_in("tool", Some(&path)).unwrap().path(),
            second
        );
    }

    #[test]
    fn a_command_runs_in_the_neutral_folder_without_stone_variables() {
        let program = Program::find_in("/bin/sh", None).unwrap();
        let command = program.launch().arg("-c").command();
        assert_eq!(command.get_current_dir(), Some(Path::new("/")));
        assert_eq!(command.get_program(), OsStr::new("/bin/sh"));
        let kept = program
            .launch()
            .with_stone_variables()
            .in_callers_dir()
            .command();
        assert_eq!(kept.get_current_dir(), None);
        assert!(kept.get_envs().all(|(key, _)| key == "PATH"));
        let dir = Path::new("/tmp");
        assert_eq!(
            program.launch().in_dir(dir).command().get_current_dir(),
            Some(dir)
        );
        assert!(is_scrubbed(OsStr::new("STONE_TOKEN")));
        assert!(is_scrubbed(OsStr::new("stone_token")));
        assert!(!is_scrubbed(OsStr::new("PATH")));
    }

    #[test]
    fn a_programs_path_keeps_the_absolute_entries_only() {
        let path = |p: &str| absolute_path(Some(OsStr::new(p)));
        assert_eq!(path("/usr/bin:/bin"), None, "nothing to drop");
        assert_eq!(path(".:/usr/bin::bin:/bin:"), Some("/usr/bin:/bin".into()));
        assert_eq!(path("."), Some("".into()));
        assert_eq!(absolute_path(None), None);
    }

    #[test]
    fn python_runs_isolated() {
        let python = Program::find_in("/usr/bin/python3", None).unwrap();
        let command = Launch::python_module(&python, "stone_plugin_sdk")
            .arg("--list")
            .command();
        let args: Vec<&OsStr> = command.get_args().collect();
        assert_eq!(args[0], "-I");
        assert_eq!(args[1], "-c");
        assert_eq!(args[3], "stone_plugin_sdk");
        assert_eq!(args[4], "--list");
    }
}
