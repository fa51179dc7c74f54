//! The binary wheels (maturin `bindings = "bin"`) `stone-cli` (python/stone-cli) and
//! `stone-server` (python/stone-server): built, installed into a fresh virtual environment
//! with no index, and run from there.
//!
//! The wheel is built with the dev profile, the `rdf` feature and this build's target
//! directory, so maturin's cargo reuses what is compiled already (docs/install.md builds the
//! release wheels).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;
use stone_test::TestContext;
use stone_test::context::isolate;
use stone_test::services::StoneServer;
use stone_test::tools::{python, venv_bin, workspace_root};

use crate::copy_dir;

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

/// Builds the wheel of `python/<project>` into `out_dir`.
fn build_wheel(project: &str, out_dir: &Path) -> PathBuf {
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

/// A fresh venv under `dir` with `wheel` installed; pip may not reach any index: the
/// wheels have no dependencies.
fn install_into_fresh_venv(dir: &Path, wheel: &Path) -> PathBuf {
    let venv = dir.join("venv");
    let mut command = Command::new(python());
    isolate(&mut command, dir);
    run(command.arg("-m").arg("venv").arg(&venv), "python -m venv");
    let mut command = Command::new(venv.join("bin/python"));
    isolate(&mut command, dir);
    command
        .args([
            "-m",
            "pip",
            "install",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(wheel);
    run(&mut command, "pip install <wheel>");
    venv
}

#[test]
fn the_wheel_installs_into_a_fresh_venv_and_pushes_a_dry_run() {
    let started = Instant::now();
    let temp = tempfile::Builder::new()
        .prefix("stone-wheel-")
        .tempdir()
        .unwrap();
    let wheel = build_wheel("stone-cli", &temp.path().join("dist"));
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(&format!("stone_cli-{}-", env!("CARGO_PKG_VERSION"))),
        "{name}"
    );
    let built = started.elapsed();

    let venv = install_into_fresh_venv(temp.path(), &wheel);
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
    let version = run(ctx.stone().arg("--version"), "stone --version");
    assert_eq!(
        version.trim(),
        format!("stone {}", env!("CARGO_PKG_VERSION"))
    );

    ctx.add_env("local", "data.test", "http://127.0.0.1:9/v1");
    let package = ctx.root().join("quickstart");
    copy_dir(&workspace_root().join("examples/quickstart"), &package);
    let plan = run(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "wheel"])
            .args(["--dry-run", "--json"])
            .arg(&package),
        "stone package push --dry-run (from the wheel)",
    );
    let plan: Value = serde_json::from_str(&plan).unwrap_or_else(|e| panic!("{e}: {plan}"));
    let text = plan.to_string();
    // The graph is planned, so the wheel's stone has the rdf feature.
    for expected in ["stone:demo/cities", "GRAPH", "capitals.ttl", "wheel"] {
        assert!(text.contains(expected), "{expected} in {plan:#}");
    }
    eprintln!(
        "wheel {name}: {} bytes, built in {:.1?}, whole test {:.1?}",
        std::fs::metadata(&wheel).unwrap().len(),
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
    let venv = install_into_fresh_venv(temp.path(), &wheel);
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
