//! One way to start a program (issue 52, hole 1): a cloned repository, where stone runs,
//! holds a `git`, a `python3`, a `stone_plugin_sdk.py`, a `json.py` (a module the SDK
//! imports); `PATH` and `PYTHONPATH` have relative entries. None of them runs; the real
//! programs still do. Each planted file appends its name (and the `STONE_TOKEN` it saw)
//! to one marker file, which must never exist.
//!
//! The browser opener has its test beside the logins (`identity::a_planted_opener_…`).
//! `stone-rdf` is found beside the running `stone` only (`rdf_build::sibling`); the
//! workspace's `stone` is built with RDF support (features are unified with `stone-rdf`),
//! so it never delegates and cannot be exercised here: the source test below holds it to
//! the helper, and `wheel.rs` runs the delegation for real.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::tools::asset;

use crate::{stderr, stdout};

const TOKEN: &str = "planted-programs-must-never-see-this";

/// An executable shell script at `path` that records that it ran, then fails.
fn plant_program(path: &Path, marker: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        path,
        format!(
            "#!/bin/sh\necho \"{} ran with STONE_TOKEN=$STONE_TOKEN\" >> '{}'\nexit 1\n",
            path.display(),
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A Python module at `path` that records that it was imported.
fn plant_module(path: &Path, marker: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        path,
        format!(
            "import os\nwith open({:?}, 'a') as f:\n    f.write({:?} + ' imported with STONE_TOKEN=' + os.environ.get('STONE_TOKEN', '') + '\\n')\n",
            marker.display().to_string(),
            path.display().to_string()
        ),
    )
    .unwrap();
}

/// Plants, in each of `dirs` and in their `bin/`, programs named `programs` and modules
/// named `modules`.
fn plant(dirs: &[&Path], programs: &[&str], modules: &[&str], marker: &Path) {
    for dir in dirs {
        for folder in [dir.to_path_buf(), dir.join("bin")] {
            for name in programs {
                plant_program(&folder.join(name), marker);
            }
            for name in modules {
                plant_module(&folder.join(name), marker);
            }
        }
    }
}

/// `PATH` with relative entries (`bin`, `.`, an empty one) before the real ones.
fn hostile_path() -> String {
    format!("bin:.::{}", std::env::var("PATH").unwrap_or_default())
}

fn assert_none_ran(marker: &Path, what: &str) {
    assert!(
        !marker.exists(),
        "{what}: a planted program or module ran:\n{}",
        std::fs::read_to_string(marker).unwrap_or_default()
    );
}

fn git(dir: &Path, home: &Path, args: &[&str]) {
    let mut cmd = std::process::Command::new("git");
    stone_test::context::isolate(&mut cmd, home);
    let status = cmd
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git is installed");
    assert!(status.success(), "git {args:?}");
}

fn context_with_marker() -> (TestContext, PathBuf) {
    let mut ctx = crate::context_with_prod();
    let marker = ctx.root().join("a-planted-program-ran");
    ctx.set_var("STONE_TOKEN", TOKEN);
    ctx.set_var("PATH", hostile_path());
    (ctx, marker)
}

#[test]
fn a_git_planted_in_the_package_or_a_relative_path_entry_never_runs() {
    let (ctx, marker) = context_with_marker();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[("a.csv", b"x\n1\n")],
    );
    git(&dir, &ctx.home, &["init", "-q", "-b", "feature/real-git"]);
    plant(&[ctx.root(), &dir], &["git"], &[], &marker);
    // From the folder above (`stone package push pkg`) and from the package itself
    // (`stone package push .`).
    for (cwd, arg) in [(ctx.root().to_path_buf(), "pkg"), (dir.clone(), ".")] {
        let out = ctx
            .stone()
            .current_dir(&cwd)
            .args([
                "package",
                "push",
                "--dry-run",
                "--json",
                "--env",
                "prod",
                arg,
            ])
            .output()
            .unwrap();
        assert_none_ran(&marker, &format!("a push from {}", cwd.display()));
        assert!(out.status.success(), "{}", stderr(&out));
        let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            plan["plan"]["branch"]["name"],
            "feature-real-git",
            "the real git still gives the branch: {}",
            stdout(&out)
        );
        assert_eq!(plan["plan"]["branch"]["source"], "git");
    }
}

/// A folder for `PYTHONPATH` holding a copy of the SDK's package and an installed
/// distribution (`demo_plugin` with a `stone.plugins` entry point `demo`), as pip would
/// leave them (a copy: Python writes its bytecode beside what it imports).
fn python_site(ctx: &TestContext) -> PathBuf {
    let site = ctx.root().join("site");
    let sdk = stone_test::tools::workspace_root().join("python/stone-plugin-sdk/stone_plugin_sdk");
    std::fs::create_dir_all(site.join("stone_plugin_sdk")).unwrap();
    for entry in std::fs::read_dir(&sdk).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            let target = site
                .join("stone_plugin_sdk")
                .join(path.file_name().unwrap());
            std::fs::copy(&path, target).unwrap();
        }
    }
    let dist = site.join("demo_plugin-1.0.dist-info");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("METADATA"),
        "Metadata-Version: 2.1\nName: demo-plugin\nVersion: 1.0\n",
    )
    .unwrap();
    std::fs::write(
        dist.join("entry_points.txt"),
        "[stone.plugins]\ndemo = demo_plugin:Handler\n",
    )
    .unwrap();
    std::fs::write(
        site.join("demo_plugin.py"),
        "class Handler:\n    def can_handle(self, destination):\n        return destination.startswith('demo:')\n\n    def push(self, package, options):\n        raise RuntimeError('not pushed in this test')\n",
    )
    .unwrap();
    site
}

#[test]
fn entry_point_plugins_never_import_modules_of_the_working_directory() {
    let (mut ctx, marker) = context_with_marker();
    let site = python_site(&ctx);
    // A relative entry first, as a CI job's `PYTHONPATH=.` would be.
    let python_path = std::env::join_paths([PathBuf::from("."), site.clone()]).unwrap();
    ctx.set_var("PYTHONPATH", python_path);
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"demo:team\"}\nresources: [{path: a.csv}]\n",
        &[("a.csv", b"x\n1\n")],
    );
    // The SDK itself, and modules it imports (`json` first thing in `__main__`,
    // `dataclasses` in the package), in the folders stone runs from.
    plant(
        &[ctx.root(), &dir],
        &["python3"],
        &["stone_plugin_sdk.py", "json.py", "dataclasses.py"],
        &marker,
    );
    for cwd in [ctx.root().to_path_buf(), dir.clone()] {
        let out = ctx
            .stone()
            .current_dir(&cwd)
            .args(["plugin", "list", "--json", "--destination", "demo:team"])
            .output()
            .unwrap();
        assert_none_ran(
            &marker,
            &format!("`stone plugin list` in {}", cwd.display()),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
        let demo = listing["plugins"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "demo")
            .unwrap_or_else(|| {
                panic!(
                    "the installed entry point is still found: {}\n{}",
                    stdout(&out),
                    stderr(&out)
                )
            });
        assert_eq!(demo["source"], "entry_point");
        assert_eq!(demo["claims"], true, "{demo}");
        let out = ctx
            .stone()
            .current_dir(&cwd)
            .args(["package", "push", "--dry-run", "--json", "--branch", "b"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_none_ran(&marker, &format!("a push in {}", cwd.display()));
        assert!(out.status.success(), "{}", stderr(&out));
    }
}

#[test]
fn a_configured_plugin_is_found_on_the_absolute_path_entries_only() {
    let (mut ctx, marker) = context_with_marker();
    // And a plugin on PATH (an absolute folder) that runs `python3` in turn
    // (`exec python3 …`): what it looks up is not found where stone runs either (its
    // PATH keeps the absolute entries only), though it runs there.
    let out = ctx.root().join("out");
    crate::plugins::install(&mut ctx, "nested", "good", "nested://", &out);
    let bin = ctx.root().join("bin");
    let installed = bin.join("stone-plugin-nested");
    let plugins = ctx.root().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::rename(&installed, plugins.join("stone-plugin-nested")).unwrap();
    ctx.set_var(
        "PATH",
        format!(
            "bin:.::{}:{}",
            plugins.display(),
            std::env::var("PATH").unwrap_or_default()
        ),
    );
    std::fs::create_dir_all(ctx.config.parent().unwrap()).unwrap();
    let config = std::fs::read_to_string(&ctx.config).unwrap_or_default();
    std::fs::write(
        &ctx.config,
        format!(
            "{config}\n[plugins.beta]\ncommand = [\"python3\", \"{}\", \"beta\", \"good\", \"beta://\"]\n",
            asset("stone_plugin.py").display()
        ),
    )
    .unwrap();
    plant(&[ctx.root()], &["python3"], &[], &marker);
    let out = ctx
        .stone()
        .args(["plugin", "list", "--json", "--destination", "beta://b/x"])
        .output()
        .unwrap();
    assert_none_ran(&marker, "`stone plugin list` with a configured plugin");
    assert!(out.status.success(), "{}", stderr(&out));
    let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
    let beta = listing["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "beta")
        .expect("beta is listed");
    assert_eq!(beta["claims"], true, "the real python3 ran it: {beta}");
    let nested = listing["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "nested")
        .expect("nested is listed");
    assert_eq!(
        nested["version"], "0.3.1",
        "the real python3 ran it: {nested}"
    );
}

/// The client crates (what `stone` and `stone-rdf` are built from).
const CLIENT_CRATES: &[&str] = &[
    "stone",
    "stone-api",
    "stone-auth",
    "stone-formats",
    "stone-http",
    "stone-package",
    "stone-plugin-protocol",
    "stone-push",
    "stone-rdf",
    "stone-verify",
];

/// The one file allowed to make a process.
const HELPER: &str = "crates/stone-package/src/program.rs";

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn the_client_starts_programs_only_through_the_one_helper() {
    let root = stone_test::tools::workspace_root();
    let mut files = Vec::new();
    for krate in CLIENT_CRATES {
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 50, "the sources were read: {files:?}");
    let mut outside = Vec::new();
    let mut helper_seen = false;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(&root).unwrap().display().to_string();
        for (number, line) in text.lines().enumerate() {
            if line.contains("Command::new") {
                if shown == HELPER {
                    helper_seen = true;
                } else {
                    outside.push(format!("{shown}:{}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    assert!(helper_seen, "{HELPER} makes the processes");
    assert!(
        outside.is_empty(),
        "programs must be started through stone_package::program (absolute PATH entries, \
         a working directory of stone's choosing, no STONE_* variables, Python isolated):\n{}",
        outside.join("\n")
    );
}
