//! The `stone-cli` binary wheel (python/stone-cli, maturin `bindings = "bin"`): built, installed
//! into a fresh virtual environment with no index, and run from there.
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

fn build_wheel(out_dir: &Path) -> PathBuf {
    let maturin = venv_bin("maturin");
    let mut command = Command::new(maturin);
    command
        .current_dir(workspace_root().join("python/stone-cli"))
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
    run(&mut command, "maturin build (python/stone-cli)");
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

#[test]
fn the_wheel_installs_into_a_fresh_venv_and_pushes_a_dry_run() {
    let started = Instant::now();
    let temp = tempfile::Builder::new()
        .prefix("stone-wheel-")
        .tempdir()
        .unwrap();
    let wheel = build_wheel(&temp.path().join("dist"));
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(&format!("stone_cli-{}-", env!("CARGO_PKG_VERSION"))),
        "{name}"
    );
    let built = started.elapsed();

    // A fresh venv; pip may not reach any index: the wheel has no dependencies.
    let venv = temp.path().join("venv");
    let mut command = Command::new(python());
    isolate(&mut command, temp.path());
    run(command.arg("-m").arg("venv").arg(&venv), "python -m venv");
    let mut command = Command::new(venv.join("bin/python"));
    isolate(&mut command, temp.path());
    command
        .args([
            "-m",
            "pip",
            "install",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(&wheel);
    run(&mut command, "pip install <wheel>");
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
