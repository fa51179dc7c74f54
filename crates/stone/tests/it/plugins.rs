//! External plugins: found on PATH, chosen before the built-ins, misbehaving ones reported
//! and survived; the plugins are Python scripts (stone_test asset `stone_plugin.py`), which
//! also proves a plugin can be written in any language.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::tools::asset;

use crate::{stderr, stdout};

/// Puts `stone-plugin-<name>` running the Python plugin in `mode` into the context's bin
/// directory, which is put first on PATH.
pub(crate) fn install(ctx: &mut TestContext, name: &str, mode: &str, prefix: &str, outdir: &Path) {
    let bin = ctx.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join(format!("stone-plugin-{name}"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec python3 '{}' '{name}' '{mode}' '{prefix}' '{}'\n",
            asset("stone_plugin.py").display(),
            outdir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    ctx.set_var("PATH", format!("{}:{path}", bin.display()));
}

pub(crate) fn package(ctx: &TestContext) -> PathBuf {
    ctx.package(
        "pkg",
        "name: demo\npublish: {to: \"stone:demo\"}\nresources:\n  - path: cities.csv\n  - path: tiles\n",
        &[
            ("cities.csv", b"city,code\nParis,075\nLyon,069\n"),
            ("tiles/a.bin", &[1u8; 3000]),
            ("tiles/b.bin", &[2u8; 10]),
        ],
    )
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON on stdout ({e}):\n{}\n--- stderr ---\n{}",
            stdout(out),
            stderr(out)
        )
    })
}

/// The record a plugin gets describes the files it gets: a table's sha256 and size are
/// both the Parquet file's, never the CSV's sha256 beside the Parquet's size (issue 53;
/// before the fix the resource's sha256 was the CSV's).
#[test]
fn a_plugin_gets_the_sha256_and_size_of_the_files_it_receives() {
    use sha2::Digest as _;
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("plugin-out");
    install(&mut ctx, "pycopy", "good", "s3://", &out_dir);
    let dir = package(&ctx);
    let out = ctx
        .stone()
        .args(["package", "push", "--branch", "b", "--env", "dev", "--json"])
        .args(["--to", "s3://bucket/demo"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let package: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("push-package.json")).unwrap()).unwrap();
    let sha256 = |bytes: &[u8]| hex::encode(sha2::Sha256::digest(bytes));
    let csv = std::fs::read(dir.join("cities.csv")).unwrap();
    for resource in package["resources"].as_array().unwrap() {
        let files = resource["files"].as_array().unwrap();
        let mut listing = String::new();
        let mut total = 0;
        for file in files {
            let bytes = std::fs::read(file["local"].as_str().unwrap()).unwrap();
            assert_eq!(file["sha256"], sha256(&bytes), "{file}");
            assert_eq!(file["size"], bytes.len() as u64, "{file}");
            total += bytes.len() as u64;
            listing += &format!(
                "{} {} {}\n",
                file["sha256"].as_str().unwrap(),
                file["size"],
                file["path"].as_str().unwrap()
            );
        }
        assert_eq!(resource["size"], total, "{resource}");
        let expected = match files.as_slice() {
            [one] if resource["kind"] == "TABULAR" => one["sha256"].as_str().unwrap().to_owned(),
            _ => sha256(listing.as_bytes()),
        };
        assert_eq!(resource["sha256"], expected, "{resource}");
        if resource["kind"] == "TABULAR" {
            assert_ne!(resource["sha256"], sha256(&csv), "not the CSV's");
            assert!(files[0]["path"].as_str().unwrap().ends_with(".parquet"));
        }
    }
}

#[test]
fn a_python_plugin_on_path_claiming_s3_wins_over_the_blob_store_push() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("plugin-out");
    install(&mut ctx, "pycopy", "good", "s3://", &out_dir);
    let dir = package(&ctx);

    let dry = ctx
        .stone()
        .args([
            "package",
            "push",
            "--branch",
            "b",
            "--env",
            "dev",
            "--dry-run",
            "--to",
            "s3://bucket/demo",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(
        stdout(&dry).contains("Handler:     pycopy (the plugin `pycopy` 0.3.1"),
        "{}",
        stdout(&dry)
    );

    let mut cmd = ctx.stone();
    // A token in our environment must not reach the plugin.
    cmd.env("STONE_TOKEN", "secret-token-value");
    let out = cmd
        .args([
            "package",
            "push",
            "--branch",
            "b",
            "--env",
            "dev",
            "--json",
            "--to",
            "s3://bucket/demo",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result = json(&out);
    assert_eq!(result["handler"], "pycopy");
    // Plugins get the package as the platform does: tables converted to Parquet.
    assert!(result["uploaded_bytes"].as_u64().unwrap() > 3000 + 10);
    assert_eq!(result["datasets"][0]["kind"], "TABULAR");
    assert_eq!(
        std::fs::read(out_dir.join("tiles/a.bin")).unwrap(),
        vec![1u8; 3000]
    );
    let env: Vec<String> =
        serde_json::from_slice(&std::fs::read(out_dir.join("plugin-env.json")).unwrap()).unwrap();
    assert!(
        !env.iter().any(|k| k.starts_with("STONE_")),
        "the plugin saw {env:?}"
    );
}

#[test]
fn misbehaving_plugins_are_reported_by_name_and_skipped() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("unused");
    for (name, mode) in [
        ("early", "exit-before-hello"),
        ("future", "wrong-version"),
        ("other", "not-a-handler"),
        ("sleepy", "stall"),
        ("noisy", "garbage"),
    ] {
        install(&mut ctx, name, mode, "file://", &out_dir);
    }
    // Long enough for five Pythons to start on a busy machine; the stall costs this much.
    ctx.set_var("STONE_PLUGIN_TIMEOUT", "5");
    let dir = package(&ctx);
    let target = ctx.root().join("store");
    let out = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--env", "dev", "--json", "--to",
        ])
        .arg(format!("file://{}", target.display()))
        .arg(&dir)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert_eq!(json(&out)["handler"], "blob-store");
    for expected in [
        "the plugin `early`",
        "exited during `initialize`",
        "missing configuration",
        "the plugin `future`",
        "answered protocol version 99, which this stone did not offer",
        "the plugin `other`",
        "does not implement PackagePushHandler/1",
        "the plugin `sleepy`",
        "did not answer `can_handle` within 5 s",
        "the plugin `noisy`",
        "not a protocol message",
    ] {
        assert!(err.contains(expected), "missing `{expected}` in:\n{err}");
    }
    assert!(target.join("datapackage.json").exists());

    let list = ctx
        .stone()
        .args(["plugin", "list", "--json", "--destination", "file:///tmp/x"])
        .output()
        .unwrap();
    assert!(list.status.success(), "{}", stderr(&list));
    let listing = json(&list);
    let plugins = listing["plugins"].as_array().unwrap();
    assert_eq!(plugins.len(), 5);
    assert!(
        plugins.iter().all(|p| p["error"].is_string()),
        "{listing:#}"
    );
    assert_eq!(listing["handler"]["name"], "blob-store");
}

#[test]
fn a_plugin_that_crashes_mid_push_fails_the_push_with_exit_6() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("unused");
    install(&mut ctx, "crashy", "crash-mid-push", "crash://", &out_dir);
    let dir = package(&ctx);
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--branch",
            "b",
            "--env",
            "dev",
            "--to",
            "crash://x",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("the plugin `crashy`"), "{err}");
    assert!(err.contains("exited during `push`"), "{err}");
    assert!(err.contains("segmentation fault"), "{err}");
}

#[test]
fn a_plugin_that_stalls_mid_push_is_stopped_at_the_deadline() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("unused");
    install(&mut ctx, "slow", "stall-mid-push", "slow://", &out_dir);
    // Long enough for a Python plugin to start and answer `initialize` on a loaded machine
    // (1 s was not, once), short enough to see the stall stopped.
    ctx.set_var("STONE_PLUGIN_TIMEOUT", "3");
    let dir = package(&ctx);
    let started = std::time::Instant::now();
    let out = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--env", "dev", "--json", "--to", "slow://x",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert_eq!(json(&out)["error"]["code"], "plugin.timeout");
    assert!(
        stderr(&out).contains("the plugin `slow`"),
        "{}",
        stderr(&out)
    );
    // A hang detector, not a speed check: without the deadline the push never ends.
    assert!(started.elapsed() < std::time::Duration::from_secs(120));
}

#[test]
fn plugin_list_shows_version_protocols_and_claims() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("unused");
    install(&mut ctx, "alpha", "good", "alpha://", &out_dir);
    // A configured plugin, with arguments.
    std::fs::create_dir_all(ctx.config.parent().unwrap()).unwrap();
    std::fs::write(
        &ctx.config,
        format!(
            "[plugins.beta]\ncommand = [\"python3\", \"{}\", \"beta\", \"good\", \"beta://\"]\n",
            asset("stone_plugin.py").display()
        ),
    )
    .unwrap();
    let out = ctx
        .stone()
        .args(["plugin", "list", "--json", "--destination", "beta://b/x"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let listing = json(&out);
    let plugins = listing["plugins"].as_array().unwrap();
    assert_eq!(plugins.len(), 2, "{listing:#}");
    assert_eq!(plugins[0]["name"], "alpha");
    assert_eq!(plugins[0]["source"], "path");
    assert_eq!(plugins[0]["version"], "0.3.1");
    assert_eq!(plugins[0]["protocols"][0], "PackagePushHandler/1");
    assert_eq!(plugins[0]["claims"], false);
    assert_eq!(plugins[1]["name"], "beta");
    assert_eq!(plugins[1]["source"], "config");
    assert_eq!(plugins[1]["claims"], true);
    assert_eq!(listing["handler"]["name"], "beta");

    let text = ctx.stone().args(["plugin", "list"]).output().unwrap();
    assert!(text.status.success());
    assert!(
        stdout(&text).contains("alpha 0.3.1 (PATH:"),
        "{}",
        stdout(&text)
    );
}

#[test]
fn ctrl_c_during_a_plugin_push_cancels_then_kills_the_plugin() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("marker");
    install(&mut ctx, "slow", "stall-mid-push", "slow://", &out_dir);
    ctx.set_var("STONE_PLUGIN_TIMEOUT", "60");
    let dir = package(&ctx);
    let child = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--env", "dev", "--to", "slow://x",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let marker = out_dir.join("push-started");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&marker).map_or(true, |pid| pid.trim().is_empty()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the plugin never got the push"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let plugin_pid = std::fs::read_to_string(&marker).unwrap();
    let started = std::time::Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("the push by the plugin `slow`"), "{err}");
    assert!(err.contains("was cancelled"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    // The plugin ignored the cancel (it sleeps): its process group was killed. Until its
    // new parent reaps it, a killed process stays a zombie (state Z) in /proc.
    let stat = format!("/proc/{}/stat", plugin_pid.trim());
    let running = || {
        std::fs::read_to_string(&stat).is_ok_and(|s| {
            s.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!running(), "the plugin (pid {plugin_pid}) is still running");
}

/// A plugin may claim a host-free scheme as the service handler claims `stone:`:
/// `publish.to: acc:somewhere` reaches the plugin's `can_handle` and `push`. Without a
/// claimant, the error names the plugins that were asked and what the built-ins take.
#[test]
fn a_plugin_claims_a_host_free_scheme() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("plugin-out");
    let dir = ctx.package(
        "pkg",
        "name: demo\npublish: {to: \"acc:somewhere\"}\nresources:\n  - path: tiles\n",
        &[("tiles/a.bin", &[1u8; 300])],
    );
    let push = |ctx: &TestContext| {
        ctx.stone()
            .args(["package", "push", "--branch", "b", "--env", "dev", "--json"])
            .arg(&dir)
            .output()
            .unwrap()
    };

    let unused = ctx.root().join("unused");
    install(&mut ctx, "other", "good", "zzz:", &unused);
    let refused = push(&ctx);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let text = stderr(&refused);
    assert!(
        text.contains("no handler claims the destination acc:somewhere")
            && text.contains("none of which claims it: other")
            && text.contains("install a plugin for `acc:`"),
        "{text}"
    );

    install(&mut ctx, "acc", "good", "acc:", &out_dir);
    let out = push(&ctx);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["handler"], "acc");
    assert_eq!(
        std::fs::read(out_dir.join("tiles/a.bin")).unwrap(),
        vec![1u8; 300]
    );
}

/// The spec's plugin group, literally: a Python package declaring a `stone.plugins` entry
/// point, `pip install`ed (no index: wheels built here) into a fresh virtual environment,
/// receives the push with no other step; an entry point whose object is not a
/// `PackagePushHandler` is named and skipped.
#[test]
fn a_pip_installed_entry_point_plugin_receives_the_push() {
    let mut ctx = crate::context();
    let root = ctx.root().to_owned();
    let project = root.join("acc-plugin");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("pyproject.toml"),
        r#"[build-system]
requires = ["flit_core>=3.4,<4"]
build-backend = "flit_core.buildapi"

[project]
name = "acc-plugin"
version = "1.2.3"
description = "An entry-point plugin for the stone tests"
dependencies = ["stone-plugin-sdk"]

[project.entry-points."stone.plugins"]
acc = "acc_plugin:Handler"
broken = "acc_plugin:NotAHandler"
"#,
    )
    .unwrap();
    std::fs::write(
        project.join("acc_plugin.py"),
        r#""""Copies each file to $ACC_OUT; claims acc: destinations."""
import os
import shutil

from stone_plugin_sdk import AssetKind, DatasetOutcome, PushOptions, PushPackage, PushResult, progress


class Handler:
    def can_handle(self, destination: str) -> bool:
        return destination.startswith("acc:")

    def push(self, package: PushPackage, options: PushOptions) -> PushResult:
        out = os.environ["ACC_OUT"]
        datasets, sent = [], 0
        for resource in package.resources:
            assert isinstance(resource.kind, AssetKind)
            for f in resource.files:
                target = os.path.join(out, os.path.relpath(f.local, package.root))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(f.local, target)
                sent += f.size
                progress(bytes=f.size)
            datasets.append(DatasetOutcome(url=package.destination + "/" + resource.name,
                                           iri="file://" + out, status="created",
                                           kind=resource.kind))
        print("printed by the plugin: must not break the protocol")
        return PushResult(push_id="acc-" + options.branch, handler="acc",
                          datasets=datasets, uploaded_bytes=sent)


class NotAHandler:
    def push(self, package, options):
        raise RuntimeError("never called")
"#,
    )
    .unwrap();

    // Wheels of the SDK and the plugin, then a fresh venv that installs them with no index.
    let dist = root.join("dist");
    for source in [
        stone_test::tools::workspace_root().join("python/stone-plugin-sdk"),
        project.clone(),
    ] {
        let built = std::process::Command::new(stone_test::tools::python())
            .args([
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--no-build-isolation",
                "-w",
            ])
            .arg(&dist)
            .arg(&source)
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "pip wheel {}: {}",
            source.display(),
            stderr(&built)
        );
    }
    let venv = root.join("venv");
    let made = std::process::Command::new(stone_test::tools::python())
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "venv: {}", stderr(&made));
    let python = venv.join("bin/python");
    let installed = std::process::Command::new(stone_test::tools::python())
        .args(["-m", "pip", "--python"])
        .arg(&python)
        .args(["install", "--no-index", "--find-links"])
        .arg(&dist)
        .arg("acc-plugin")
        .output()
        .unwrap();
    assert!(
        installed.status.success(),
        "pip install: {}",
        stderr(&installed)
    );

    let out_dir = root.join("acc-out");
    ctx.set_var("STONE_PLUGIN_PYTHON", &python);
    ctx.set_var("ACC_OUT", &out_dir);
    let listed = ctx
        .stone()
        .args(["plugin", "list", "--json", "--destination", "acc:team"])
        .output()
        .unwrap();
    assert!(listed.status.success(), "{}", stderr(&listed));
    let listing = json(&listed);
    let plugins = listing["plugins"].as_array().unwrap();
    let acc = plugins
        .iter()
        .find(|p| p["name"] == "acc")
        .expect("acc is listed");
    assert_eq!(acc["source"], "entry_point");
    assert_eq!(acc["version"], "1.2.3");
    assert_eq!(acc["claims"], true);
    let broken = plugins
        .iter()
        .find(|p| p["name"] == "broken")
        .expect("broken is listed");
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("is not a PackagePushHandler")),
        "{broken}"
    );
    assert_eq!(listing["handler"]["name"], "acc");

    let dir = ctx.package(
        "pkg",
        "name: demo\npublish: {to: \"acc:team\"}\nresources:\n  - path: tiles\n",
        &[("tiles/a.bin", &[7u8; 500]), ("tiles/b.bin", &[8u8; 20])],
    );
    let out = ctx
        .stone()
        .args(["package", "push", "--branch", "b", "--env", "dev", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let result = json(&out);
    assert_eq!(result["handler"], "acc");
    assert_eq!(result["push_id"], "acc-b");
    assert_eq!(result["uploaded_bytes"], 520);
    assert!(
        stderr(&out).contains("broken") && stderr(&out).contains("skipping it"),
        "the broken entry point is named and skipped: {}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(out_dir.join("tiles/a.bin")).unwrap(),
        vec![7u8; 500]
    );
}

/// A plugin's failure shows the causes it sent as `Caused by:` lines (docs/plugins.md says
/// so; they were inline), in --json too, with the plugin's code and exit 6 (issue 55,
/// item 14).
#[test]
fn a_plugins_causes_are_caused_by_lines() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("plugin-out");
    install(&mut ctx, "acc", "fail-with-causes", "acc:", &out_dir);
    let dir = package(&ctx);
    let push = |json: bool| {
        let mut cmd = ctx.stone();
        cmd.args([
            "package", "push", "--branch", "b", "--env", "dev", "--to", "acc:x",
        ]);
        if json {
            cmd.arg("--json");
        }
        cmd.arg(&dir).output().unwrap()
    };
    let out = push(false);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{text}");
    assert!(
        text.contains("failed `push`: the copy failed\n")
            && text.contains("\n  Caused by: cannot write tiles/a.bin\n  Caused by: disk full\n"),
        "{text}"
    );
    assert!(!text.contains("(caused by:"), "{text}");
    let out = push(true);
    let error = &json(&out)["error"];
    assert_eq!(error["code"], "acc.copy_failed", "{error:#}");
    let causes = error["causes"].as_array().unwrap();
    assert_eq!(
        &causes[causes.len() - 2..],
        &[
            Value::from("cannot write tiles/a.bin"),
            Value::from("disk full")
        ],
        "{error:#}"
    );
}

/// The client's prod guard (`--yes` and a step-up) is for the built-in blob-store and HTTP
/// pushes, which guard nothing themselves (spec 4.3); a plugin gets `env`, `yes` and
/// `manual` in its options and guards its destination itself. So a push to a plugin's
/// destination with the default environment `prod` and no `--yes` goes to the plugin, as
/// docs/plugins.md now says (issue 55, item 13: it said `prod` would need `--yes`).
#[test]
fn the_prod_guard_is_the_blob_stores_not_a_plugins() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("plugin-out");
    install(&mut ctx, "acc", "good", "acc:", &out_dir);
    let dir = package(&ctx);
    let out = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--json", "--to", "acc:x",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["handler"], "acc");
    let package: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("push-package.json")).unwrap()).unwrap();
    assert!(package["destination"].as_str().unwrap().starts_with("acc:"));

    // The same package to a blob store with the default `prod`: refused, before anything.
    let out = ctx
        .stone()
        .args(["package", "push", "--to"])
        .arg(format!("file://{}", ctx.root().join("store").display()))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("without --yes"), "{}", stderr(&out));
}
