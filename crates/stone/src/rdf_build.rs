//! RDF support as an extra (spec 2.3, rule 4: the base install has no RDF library).
//!
//! `stone` built without the `rdf` feature has no RDF crate. When the executable
//! `stone-rdf` (crate `stone-rdf`: the same program with RDF support; the Python extra
//! `stone-cli[rdf]` installs it) sits in the same directory, the base `stone` runs it in
//! its place, so users keep typing `stone`. Otherwise a push whose package has GRAPH
//! resources stops before anything is hashed or sent, naming those resources and the
//! command that installs RDF support the way this `stone` was installed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use stone_package::{AssetKind, Package};

use crate::codes;
use crate::diagnostics::CliError;

/// The executable of the RDF build, looked for beside the running `stone`.
pub const RDF_EXECUTABLE: &str = "stone-rdf";

/// Set for the RDF build when the base `stone` started it (so it never starts itself).
const DELEGATED: &str = "STONE_RDF_DELEGATED";

/// This build reads RDF.
pub fn supported() -> bool {
    stone_formats::rdf::RDF_SUPPORTED
}

/// Without RDF support: runs `stone-rdf` from this executable's directory with the same
/// arguments, and returns its exit code (on Unix the process becomes `stone-rdf` and this
/// returns only if that fails to start). `None`: this build reads RDF, or there is no
/// `stone-rdf` beside it.
pub fn run_rdf_build() -> Option<ExitCode> {
    if supported() || std::env::var_os(DELEGATED).is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let rdf = sibling(&exe)?;
    // Found beside the running executable (never on PATH); stone itself, so it runs where
    // stone was started (its arguments are relative to there) with the `STONE_*` variables.
    let mut command = stone_package::program::Program::find(&rdf)
        .ok()?
        .launch()
        .args(std::env::args_os().skip(1))
        .in_callers_dir()
        .with_stone_variables()
        .command();
    command.env(DELEGATED, "1");
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = command.exec();
        eprintln!(
            "warning: could not run {} ({error}); going on without RDF support",
            rdf.display()
        );
        None
    }
    #[cfg(not(unix))]
    {
        match command.status() {
            Ok(status) => Some(ExitCode::from(
                status
                    .code()
                    .and_then(|c| u8::try_from(c).ok())
                    .unwrap_or(1),
            )),
            Err(error) => {
                eprintln!(
                    "warning: could not run {} ({error}); going on without RDF support",
                    rdf.display()
                );
                None
            }
        }
    }
}

/// `stone-rdf` in the directory of `exe` (the real one: links resolved), if it is a file.
fn sibling(exe: &Path) -> Option<PathBuf> {
    let exe = exe.canonicalize().ok()?;
    let name = format!("{RDF_EXECUTABLE}{}", std::env::consts::EXE_SUFFIX);
    let candidate = exe.parent()?.join(name);
    (candidate.is_file() && candidate != exe).then_some(candidate)
}

/// Refuses a package with GRAPH resources when this build cannot read RDF.
pub fn require_rdf(package: &Package) -> Result<(), CliError> {
    if supported() {
        return Ok(());
    }
    let graphs: Vec<String> = package
        .resources
        .iter()
        .filter(|r| r.kind == AssetKind::Graph)
        .map(|r| format!("`{}` ({})", r.slug, r.path))
        .collect();
    if graphs.is_empty() {
        return Ok(());
    }
    Err(CliError::new(
        codes::FORMAT_RDF_NOT_BUILT,
        format!(
            "this stone was built without RDF support, and the package has GRAPH {} {}; nothing was sent",
            if graphs.len() == 1 { "resource" } else { "resources" },
            graphs.join(", ")
        ),
    )
    .hint(install_hint()))
}

/// The command that adds RDF support, for the way this `stone` was installed.
pub fn install_hint() -> String {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|e| e.canonicalize().ok());
    match exe.as_deref().and_then(installed_by) {
        Some(Installer::Python) => "install RDF support into the same Python environment: \
             `pip install 'stone-cli[rdf]'` (pipx: `pipx install --force 'stone-cli[rdf]'`, \
             uv: `uv tool install --reinstall 'stone-cli[rdf]'`)"
            .into(),
        Some(Installer::Cargo) => {
            "reinstall with RDF support: `cargo install stone --features rdf`".into()
        }
        None => "install a build with RDF support: `pip install 'stone-cli[rdf]'` (Python) or \
             `cargo install stone --features rdf` (from source)"
            .into(),
    }
}

enum Installer {
    Python,
    Cargo,
}

/// A Python environment holds `pyvenv.cfg` beside its `bin/` (or `Scripts\`), or a
/// `python` executable in it; cargo installs into `…/.cargo/bin`. `None`: neither (a
/// build of the repository, a package manager's copy, …).
fn installed_by(exe: &Path) -> Option<Installer> {
    let dir = exe.parent()?;
    let python_env = dir.parent().is_some_and(|p| p.join("pyvenv.cfg").is_file())
        || ["python", "python3", "python.exe"]
            .iter()
            .any(|name| dir.join(name).exists());
    if python_env {
        Some(Installer::Python)
    } else if dir.ends_with(".cargo/bin") {
        Some(Installer::Cargo)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_follows_where_stone_is_installed() {
        let dir = tempfile::tempdir().unwrap();
        let venv_bin = dir.path().join("venv/bin");
        std::fs::create_dir_all(&venv_bin).unwrap();
        std::fs::write(dir.path().join("venv/pyvenv.cfg"), "home = /usr/bin\n").unwrap();
        assert!(matches!(
            installed_by(&venv_bin.join("stone")),
            Some(Installer::Python)
        ));
        let cargo_bin = dir.path().join("home/.cargo/bin");
        std::fs::create_dir_all(&cargo_bin).unwrap();
        assert!(matches!(
            installed_by(&cargo_bin.join("stone")),
            Some(Installer::Cargo)
        ));
        assert!(installed_by(&dir.path().join("target/debug/stone")).is_none());
    }

    #[test]
    fn no_rdf_executable_is_found_where_there_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("stone");
        std::fs::write(&exe, "").unwrap();
        assert_eq!(sibling(&exe), None);
        std::fs::write(dir.path().join(RDF_EXECUTABLE), "").unwrap();
        assert_eq!(
            sibling(&exe),
            Some(dir.path().canonicalize().unwrap().join(RDF_EXECUTABLE))
        );
    }
}
