//! The binary wheels (maturin `bindings = "bin"`) `stone-cli` (python/stone-cli) and
//! `stone-server` (python/stone-server): built, installed into a fresh virtual environment
//! with no index, and run from there.
//!
//! The wheels are built with the dev profile and this build's target directory, so
//! maturin's cargo reuses what is compiled already (docs/install.md builds the release
//! wheels). maturin builds one package alone; for the server, `stone-workspace-hack` gives
//! that build the workspace's dependency features, so nothing compiles again
//! (`scripts/feature-drift` checks it). The CLI's wheels are built without
//! RDF, as users get them, so their dependency features differ and part of the client's
//! tree compiles a second time (no RocksDB, no Iceberg). `stone-cli` has no RDF library; its extra `rdf` adds `stone-cli-rdf`
//! (python/stone-cli-rdf: the executable `stone-rdf`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use stone_test::TestContext;
use stone_test::context::isolate;
use stone_test::services::StoneServer;
use stone_test::tools::{python, venv_bin, workspace_root};

use crate::copy_dir;

mod python_client;

/// The target directory of this build: `<target>/debug/deps/<test binary>`.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<test>")
        .to_owned()
}

fn run(command: &mut Command, what: &str) -> String {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: could not start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The workspace's binaries, kept aside while maturin's cargo writes its own in their
/// place (`<target>/debug/<binary>`, built with the wheel's features) and put back when
/// dropped: the other tests start them. The wheel tests run alone (.config/nextest.toml),
/// so no test sees the swap.
struct KeepBinaries(Vec<(PathBuf, PathBuf)>);

impl KeepBinaries {
    fn aside() -> KeepBinaries {
        let debug = target_dir().join("debug");
        let mut kept = Vec::new();
        for name in ["stone", "stone-server", "stone-rdf"] {
            let path = debug.join(name);
            let aside = debug.join(format!("{name}.before-wheel"));
            let _ = std::fs::remove_file(&aside);
            // A second link to the same file: cargo replaces `path` (it removes it, then
            // links the new binary), so `aside` keeps the workspace's.
            if std::fs::hard_link(&path, &aside).is_ok() {
                kept.push((aside, path));
            }
        }
        KeepBinaries(kept)
    }
}

impl Drop for KeepBinaries {
    fn drop(&mut self) {
        for (aside, path) in &self.0 {
            // When cargo left `path` alone, both names are the same file: `rename` then
            // does nothing, and `aside` is removed below.
            if let Err(e) = std::fs::rename(aside, path) {
                eprintln!("could not put {} back: {e}", path.display());
            }
            let _ = std::fs::remove_file(aside);
        }
    }
}

/// Clears what cargo and nextest set for this test process (`CARGO_PKG_NAME`,
/// `CARGO_MANIFEST_DIR`, `OUT_DIR`, …) from a cargo build started from it. Build scripts
/// name such variables in `rerun-if-env-changed` (ring names all three), and cargo compares
/// them with its own environment: inherited, they made maturin's cargo run ring's build
/// script again and recompile everything above it (rustls, reqwest, iceberg, the workspace),
/// and the next plain `cargo build` recompile it all back.
fn without_test_environment(command: &mut Command) {
    const SET_FOR_CRATES: [&str; 10] = [
        "CARGO_MANIFEST_DIR",
        "CARGO_MANIFEST_PATH",
        "CARGO_MANIFEST_LINKS",
        "CARGO_CRATE_NAME",
        "CARGO_BIN_NAME",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_TARGET_TMPDIR",
        "CARGO_RUSTC_CURRENT_DIR",
        "OUT_DIR",
        "RUST_TEST_THREADS",
    ];
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if SET_FOR_CRATES.contains(&name)
            || name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_BIN_EXE_")
            || name.starts_with("CARGO_CFG_")
            || name.starts_with("NEXTEST")
        {
            command.env_remove(name);
        }
    }
}

/// The wheel of `python/<project>` in `out_dir`: built once per run of the test runner
/// (`NEXTEST_RUN_ID`) and copied for the other tests of the run, which would otherwise
/// each build it again (maturin's compression of a debug binary is most of a build, and the
/// wheel tests run alone). The binaries cannot change within a run; outside nextest every
/// call builds.
fn build_wheel(project: &str, out_dir: &Path) -> PathBuf {
    let Ok(run) = std::env::var("NEXTEST_RUN_ID") else {
        return build_wheel_now(project, out_dir);
    };
    let runs = target_dir().join("stone-wheels");
    let cached = runs.join(&run).join(project);
    let found = std::fs::read_dir(&cached).ok().and_then(|entries| {
        entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|e| e == "whl"))
    });
    let wheel = match found {
        Some(wheel) => wheel,
        None => {
            // Earlier runs' wheels go (the wheel tests run alone: no other test reads them).
            if let Ok(entries) = std::fs::read_dir(&runs) {
                for entry in entries.flatten() {
                    if entry.file_name() != run.as_str() {
                        let _ = std::fs::remove_dir_all(entry.path());
                    }
                }
            }
            build_wheel_now(project, &cached)
        }
    };
    std::fs::create_dir_all(out_dir).unwrap();
    let copy = out_dir.join(wheel.file_name().unwrap());
    std::fs::copy(&wheel, &copy).unwrap();
    copy
}

/// Builds the wheel of `python/<project>` into `out_dir`.
fn build_wheel_now(project: &str, out_dir: &Path) -> PathBuf {
    let _kept = KeepBinaries::aside();
    let maturin = venv_bin("maturin");
    let mut command = Command::new(maturin);
    command
        .current_dir(workspace_root().join("python").join(project))
        .args([
            "build",
            "--profile",
            "dev",
            "--locked",
            "--compatibility",
            "linux",
            "--out",
        ])
        .arg(out_dir)
        .env("CARGO_TARGET_DIR", target_dir())
        // Not a release: no man pages copied anywhere.
        .env_remove("STONE_GEN_DIR");
    without_test_environment(&mut command);
    if project == "stone-server" {
        // The features of the workspace's test build (which turns the test hooks on), so
        // that maturin's cargo reuses what it compiled (stone-workspace-hack does the
        // rest). A user's wheel is built without.
        command.args(["--features", "test-hooks"]);
    }
    run(&mut command, &format!("maturin build (python/{project})"));
    let wheels: Vec<PathBuf> = std::fs::read_dir(out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(
        wheels.len(),
        1,
        "one wheel in {}: {wheels:?}",
        out_dir.display()
    );
    wheels.into_iter().next().unwrap()
}

/// The wheel of `python/stone-plugin-sdk` (pure Python, flit) into `out_dir`, without an
/// index: the `stone-cli` wheel depends on it.
fn build_sdk_wheel(dir: &Path, out_dir: &Path) {
    let mut command = Command::new(python());
    isolate(&mut command, dir);
    command
        .args([
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
        ])
        .args(["--disable-pip-version-check", "--no-cache-dir", "-w"])
        .arg(out_dir)
        .arg(workspace_root().join("python/stone-plugin-sdk"));
    run(&mut command, "pip wheel python/stone-plugin-sdk");
}

/// A fresh venv under `dir` with `wheel` installed; pip may not reach any index: the
/// wheels' dependencies come from `find_links`.
fn install_into_fresh_venv(dir: &Path, wheel: &Path, find_links: &[&Path]) -> PathBuf {
    let venv = dir.join("venv");
    let mut command = Command::new(python());
    isolate(&mut command, dir);
    run(command.arg("-m").arg("venv").arg(&venv), "python -m venv");
    let mut command = Command::new(venv.join("bin/python"));
    isolate(&mut command, dir);
    command.args([
        "-m",
        "pip",
        "install",
        "--no-index",
        "--disable-pip-version-check",
    ]);
    for links in find_links {
        command.arg("--find-links").arg(links);
    }
    command.arg(wheel);
    run(&mut command, "pip install <wheel>");
    venv
}

/// `pip install <requirement>` into `venv`, from the wheels in `find_links` only.
fn pip_install(venv: &Path, dir: &Path, requirement: &str, find_links: &[&Path]) {
    let mut command = Command::new(venv.join("bin/python"));
    isolate(&mut command, dir);
    command.args([
        "-m",
        "pip",
        "install",
        "--no-index",
        "--disable-pip-version-check",
    ]);
    for links in find_links {
        command.arg("--find-links").arg(links);
    }
    run(
        command.arg(requirement),
        &format!("pip install {requirement}"),
    );
}

/// The base wheel has no RDF library (spec 2.3, rule 4): a package with a graph is refused
/// before anything is sent, naming the resource and the extra; `stone-cli[rdf]` adds the
/// `stone-rdf` executable, which the same `stone` command then runs.
#[test]
fn the_wheel_installs_into_a_fresh_venv_and_its_rdf_extra_adds_graphs() {
    let started = Instant::now();
    let temp = tempfile::Builder::new()
        .prefix("stone-wheel-")
        .tempdir()
        .unwrap();
    let base_dist = temp.path().join("dist-base");
    let rdf_dist = temp.path().join("dist-rdf");
    let wheel = build_wheel("stone-cli", &base_dist);
    let rdf_wheel = build_wheel("stone-cli-rdf", &rdf_dist);
    let version = env!("CARGO_PKG_VERSION");
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&format!("stone_cli-{version}-")), "{name}");
    let rdf_name = rdf_wheel
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        rdf_name.starts_with(&format!("stone_cli_rdf-{version}-")),
        "{rdf_name}"
    );
    let pyproject =
        std::fs::read_to_string(workspace_root().join("python/stone-cli/pyproject.toml")).unwrap();
    assert!(
        pyproject.contains(&format!("rdf = [\"stone-cli-rdf=={version}\"]")),
        "python/stone-cli/pyproject.toml: the `rdf` extra pins stone-cli-rdf to this release ({version})"
    );
    let built = started.elapsed();

    assert!(
        pyproject.contains(&format!("dependencies = [\"stone-plugin-sdk=={version}\"]")),
        "python/stone-cli/pyproject.toml: the Python API's dependency pins stone-plugin-sdk to this release ({version})"
    );
    let sdk_pyproject =
        std::fs::read_to_string(workspace_root().join("python/stone-plugin-sdk/pyproject.toml"))
            .unwrap();
    assert!(
        sdk_pyproject.contains(&format!("version = \"{version}\"")),
        "python/stone-plugin-sdk/pyproject.toml is at this release ({version})"
    );
    let sdk_dist = temp.path().join("dist-sdk");
    build_sdk_wheel(temp.path(), &sdk_dist);

    let venv = install_into_fresh_venv(temp.path(), &wheel, &[&sdk_dist]);
    let stone = venv.join("bin/stone");
    assert!(
        stone.is_file(),
        "pip put no stone in {}",
        venv.join("bin").display()
    );
    assert!(
        venv.join("share/doc/stone-cli/README.md").is_file(),
        "the wheel's data folder (python/stone-cli/stone_cli.data) is installed under the prefix"
    );

    let ctx = TestContext::new(&stone);
    let shown = run(ctx.stone().arg("--version"), "stone --version");
    assert_eq!(shown.trim(), format!("stone {version}"));

    // Nothing listens on port 9: a push that sent anything would fail on the connection.
    ctx.add_env("local", "data.test", "http://127.0.0.1:9/v1");
    let package = ctx.root().join("quickstart");
    copy_dir(&workspace_root().join("examples/quickstart"), &package);
    let refused = ctx
        .stone()
        .args(["package", "push", "--env", "local", "--branch", "wheel"])
        .arg(&package)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    for expected in [
        "without RDF support",
        "`capitals-graph` (capitals.ttl)",
        "nothing was sent",
        "pip install 'stone-cli[rdf]'",
    ] {
        assert!(stderr.contains(expected), "{expected:?} in:\n{stderr}");
    }
    assert!(
        !stderr.contains("127.0.0.1:9"),
        "refused before contacting the server:\n{stderr}"
    );

    pip_install(
        &venv,
        temp.path(),
        "stone-cli[rdf]",
        &[&base_dist, &rdf_dist, &sdk_dist],
    );
    assert!(
        venv.join("bin/stone-rdf").is_file(),
        "the extra installs stone-rdf"
    );
    let plan = run(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "wheel"])
            .args(["--dry-run", "--json"])
            .arg(&package),
        "stone package push --dry-run (the base stone, with the rdf extra beside it)",
    );
    let plan: Value = serde_json::from_str(&plan).unwrap_or_else(|e| panic!("{e}: {plan}"));
    let text = plan.to_string();
    for expected in ["stone:demo/cities", "GRAPH", "capitals.ttl", "wheel"] {
        assert!(text.contains(expected), "{expected} in {plan:#}");
    }
    let shown = run(
        ctx.stone().arg("--version"),
        "stone --version (the RDF build)",
    );
    assert_eq!(shown.trim(), format!("stone {version}"));
    eprintln!(
        "wheels {name} ({} bytes), {rdf_name} ({} bytes): built in {:.1?}, whole test {:.1?}",
        std::fs::metadata(&wheel).unwrap().len(),
        std::fs::metadata(&rdf_wheel).unwrap().len(),
        built,
        started.elapsed()
    );
}

#[test]
fn the_server_wheel_installs_into_a_fresh_venv_and_takes_a_push() {
    let started = Instant::now();
    let temp = tempfile::Builder::new()
        .prefix("stone-server-wheel-")
        .tempdir()
        .unwrap();
    let wheel = build_wheel("stone-server", &temp.path().join("dist"));
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(&format!("stone_server-{}-", env!("CARGO_PKG_VERSION"))),
        "{name}"
    );
    let venv = install_into_fresh_venv(temp.path(), &wheel, &[]);
    let server = venv.join("bin/stone-server");
    assert!(
        server.is_file(),
        "pip put no stone-server in {}",
        venv.join("bin").display()
    );
    let mut command = Command::new(&server);
    isolate(&mut command, temp.path());
    let version = run(command.arg("--version"), "stone-server --version");
    assert_eq!(
        version.trim(),
        format!("stone-server {}", env!("CARGO_PKG_VERSION"))
    );

    // The installed server takes a real push from this build's stone.
    let server = StoneServer::start_binary(&server, &temp.path().join("data"), None, &[]);
    let ctx = crate::context();
    ctx.add_env("local", "data.test", &server.api());
    let package = ctx.root().join("quickstart");
    copy_dir(&workspace_root().join("examples/quickstart"), &package);
    let result = run(
        ctx.stone()
            .args([
                "package", "push", "--env", "local", "--branch", "wheel", "--json",
            ])
            .arg(&package),
        "stone package push (to the wheel's stone-server)",
    );
    let result: Value = serde_json::from_str(&result).unwrap_or_else(|e| panic!("{e}: {result}"));
    let datasets = result["datasets"]
        .as_array()
        .expect("datasets in the result");
    assert_eq!(datasets.len(), 4, "{result:#}");
    for dataset in datasets {
        assert_eq!(dataset["status"], "created", "{result:#}");
    }
    eprintln!(
        "wheel {name}: {} bytes, whole test {:.1?}",
        std::fs::metadata(&wheel).unwrap().len(),
        started.elapsed()
    );
}
