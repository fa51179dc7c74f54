//! [`TestContext`]: one isolated world per test — its own HOME, config file, cache and
//! working directories — and the `stone` binary run in it with a controlled environment.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Variables a test always decides itself: removed from every process a test starts unless
/// the test sets them, so a test passes the same inside and outside CI.
const CONTROLLED_PREFIXES: &[&str] = &["STONE_", "CI", "GIT_", "AWS_", "GOOGLE_", "AZURE_", "XDG_"];

/// An isolated environment for running `stone`.
pub struct TestContext {
    pub temp: tempfile::TempDir,
    /// `$HOME` of every command.
    pub home: PathBuf,
    /// `$STONE_CONFIG` of every command.
    pub config: PathBuf,
    bin: PathBuf,
    vars: Vec<(String, OsString)>,
}

impl TestContext {
    /// A new context running the `stone` binary at `bin` (`env!("CARGO_BIN_EXE_stone")`).
    pub fn new(bin: impl Into<PathBuf>) -> Self {
        let temp = tempfile::Builder::new()
            .prefix("stone-test-")
            .tempdir()
            .expect("a temp dir");
        let home = temp.path().join("home");
        fs::create_dir_all(&home).expect("a home dir");
        let config = home.join(".config/stone/config.toml");
        TestContext {
            home,
            config,
            bin: bin.into(),
            vars: Vec::new(),
            temp,
        }
    }

    /// The directory of this context.
    pub fn root(&self) -> &Path {
        self.temp.path()
    }

    /// Sets a variable for every command of this context (e.g. `CI_HEAD_REF`).
    pub fn set_var(&mut self, key: &str, value: impl Into<OsString>) {
        self.vars.retain(|(k, _)| k != key);
        self.vars.push((key.to_owned(), value.into()));
    }

    /// `stone` with only the environment this context allows: PATH, a private HOME and
    /// config, no CI or cloud variables unless set with [`TestContext::set_var`].
    pub fn stone(&self) -> Command {
        self.command(&self.bin)
    }

    /// Another program (a Python that runs `stone` itself, say) with the environment
    /// [`TestContext::stone`] gets.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        isolate(&mut cmd, &self.home);
        cmd.env("STONE_CONFIG", &self.config);
        cmd.env("STONE_NO_PROGRESS", "1");
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        cmd.current_dir(self.root());
        cmd.stdin(Stdio::null());
        cmd
    }

    /// Writes a package: `datasets.yaml` and files (paths relative to the package).
    pub fn package(&self, name: &str, descriptor: &str, files: &[(&str, &[u8])]) -> PathBuf {
        let dir = self.root().join(name);
        fs::create_dir_all(&dir).expect("a package dir");
        fs::write(dir.join("datasets.yaml"), descriptor).expect("datasets.yaml");
        for (path, bytes) in files {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().expect("a parent")).expect("a parent dir");
            fs::write(path, bytes).expect("a package file");
        }
        dir
    }

    /// Configures an environment with `stone env add`, checking it succeeds.
    pub fn add_env(&self, name: &str, host: &str, api: &str) {
        let out = self
            .stone()
            .args(["env", "add", name, "--host", host, "--api", api])
            .output()
            .expect("stone runs");
        assert!(
            out.status.success(),
            "stone env add failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Filters that make output stable across runs: this context's paths.
    pub fn filters(&self) -> Vec<(String, String)> {
        let mut filters = Vec::new();
        for path in [
            self.root().to_path_buf(),
            self.root().canonicalize().unwrap_or_default(),
        ] {
            let shown = path.display().to_string();
            if !shown.is_empty() {
                filters.push((regex_escape(&shown), "[TEMP]".to_owned()));
            }
        }
        filters
    }
}

/// Clears a command's environment down to PATH (and a few locale variables), with HOME set.
/// Every variable of [`CONTROLLED_PREFIXES`] is thereby absent unless set afterwards.
pub fn isolate(cmd: &mut Command, home: &Path) {
    cmd.env_clear();
    for (key, value) in std::env::vars_os() {
        let Some(k) = key.to_str() else { continue };
        let pass = matches!(k, "PATH" | "LANG" | "LC_ALL" | "TZ" | "TMPDIR")
            && !CONTROLLED_PREFIXES.iter().any(|p| k.starts_with(p));
        if pass {
            cmd.env(&key, value);
        }
    }
    cmd.env("HOME", home);
    cmd.env("XDG_CONFIG_HOME", home.join(".config"));
    cmd.env("XDG_CACHE_HOME", home.join(".cache"));
    // Git must not look above the test's directories nor read the user's config.
    cmd.env("GIT_CONFIG_NOSYSTEM", "1");
    cmd.env("GIT_CEILING_DIRECTORIES", home.parent().unwrap_or(home));
}

/// Runs a command and renders its outcome for a snapshot: status, stdout, stderr.
pub fn run_snapshot(cmd: &mut Command) -> (String, Output) {
    let output = cmd.output().expect("the command runs");
    let text = format!(
        "success: {}\nexit_code: {}\n----- stdout -----\n{}\n----- stderr -----\n{}",
        output.status.success(),
        output
            .status
            .code()
            .map(|c| c.to_string())
            .unwrap_or_else(|| "signal".into()),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    (text, output)
}

/// Snapshot of a command's outcome, with the context's filters applied.
#[macro_export]
macro_rules! stone_snapshot {
    ($filters:expr, $cmd:expr, $name:expr) => {{
        let (text, output) = $crate::context::run_snapshot($cmd);
        let filters: Vec<(String, String)> = $filters;
        let mut settings = insta::Settings::clone_current();
        for (pattern, replacement) in &filters {
            settings.add_filter(pattern, replacement.as_str());
        }
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!($name, text));
        output
    }};
}

fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
