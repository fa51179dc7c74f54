//! `stone package push --dry-run`: the plan, as text and JSON.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use stone_test::stone_snapshot;

use crate::{context_with_prod, stdout};

fn quickstart() -> PathBuf {
    stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR")).join("../../examples/quickstart")
}

/// Copies the quickstart example into the context (so its `.stone/` cache stays there).
fn copy_quickstart(root: &Path) -> PathBuf {
    let dir = root.join("quickstart");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(quickstart()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    dir
}

#[test]
fn quickstart_plan() {
    let ctx = context_with_prod();
    let dir = copy_quickstart(ctx.root());
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args([
                "package",
                "push",
                "--dry-run",
                "--branch",
                "feature/Ünïcode branch#1"
            ])
            .arg(&dir),
        "quickstart_plan"
    );
    assert!(out.status.success());
}

#[test]
fn quickstart_plan_as_json() {
    let ctx = context_with_prod();
    let dir = copy_quickstart(ctx.root());
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--dry-run",
            "--json",
            "--branch",
            "x",
            "--yes",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let plan = &v["plan"];
    assert_eq!(v["dry_run"], true);
    assert_eq!(plan["destination"], "stone:demo");
    assert_eq!(plan["environment"]["name"], "prod");
    assert_eq!(plan["branch"]["name"], "x");
    assert_eq!(plan["branch"]["source"], "flag");
    assert_eq!(plan["handler"]["name"], "service");
    assert_eq!(plan["options"]["yes"], true);
    assert_eq!(plan["package_node"]["iri"], "https://data.example.org/demo");
    let datasets = plan["datasets"].as_array().unwrap();
    let summary: Vec<(String, String, String)> = datasets
        .iter()
        .map(|d| {
            (
                d["url"].as_str().unwrap().into(),
                d["kind"].as_str().unwrap().into(),
                d["engine"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "stone:demo/cities".into(),
                "TABULAR".into(),
                "iceberg".into()
            ),
            (
                "stone:demo/capitals-graph".into(),
                "GRAPH".into(),
                "graph".into()
            ),
            (
                "stone:demo/map-tile".into(),
                "RASTER".into(),
                "object_storage".into()
            ),
            (
                "stone:demo/sensor-readings".into(),
                "BLOB".into(),
                "object_storage".into()
            ),
        ]
    );
    let cities = &datasets[0];
    assert_eq!(cities["iri"], "https://data.example.org/demo/cities");
    let bytes = std::fs::read(dir.join("cities.csv")).unwrap();
    assert_eq!(cities["size"], bytes.len() as u64);
    assert_eq!(cities["sha256"], stone_package::digest::sha256_hex(&bytes));
    assert_eq!(cities["files"][0]["path"], "cities.csv");
}

#[test]
fn kinds_detected_declared_and_directories() {
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:lab\"}\nresources:\n  - {path: grid.zarr}\n  - {path: notes.csv, kind: blob}\n  - {path: roads.geojson}\n  - {path: world.pmtiles}\n  - {path: Ünïcode Straße.parquet}\n  - {path: x.nt}\n  - {path: y.jsonld}\n  - {path: z.tiff}\n",
        &[
            ("grid.zarr/.zarray", b"{}"),
            ("grid.zarr/0/0", b"\x00\x01"),
            ("grid.zarr/0/1", b"\x02\x03"),
            ("notes.csv", b"a\n"),
            ("roads.geojson", b"{}"),
            ("world.pmtiles", b"PM"),
            ("Ünïcode Straße.parquet", b"PAR1"),
            ("x.nt", b""),
            ("y.jsonld", b"{}"),
            ("z.tiff", b"II*"),
        ],
    );
    // A table is checked before anything is hashed (its columns, from the footer), a dry
    // run too: a real Parquet file, written by pyarrow.
    let status = std::process::Command::new(stone_test::tools::python())
        .args([
            "-c",
            "import pyarrow as pa, pyarrow.parquet as pq, sys; pq.write_table(pa.table({'x': [1, 2]}), sys.argv[1])",
        ])
        .arg(dir.join("Ünïcode Straße.parquet"))
        .status()
        .unwrap();
    assert!(status.success(), "pyarrow wrote the Parquet input");
    let out = ctx
        .stone()
        .args(["package", "push", "--dry-run", "--json", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<String> = v["plan"]["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {} {} {}",
                d["url"].as_str().unwrap(),
                d["kind"].as_str().unwrap(),
                d["engine"].as_str().unwrap(),
                d["files"].as_array().unwrap().len()
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "stone:lab/grid ARRAY object_storage 3",
            "stone:lab/notes BLOB object_storage 1",
            "stone:lab/roads GEOFEATURES object_storage 1",
            "stone:lab/world TILES object_storage 1",
            "stone:lab/unicode-stra-e TABULAR iceberg 1",
            "stone:lab/x GRAPH graph 1",
            "stone:lab/y GRAPH graph 1",
            "stone:lab/z RASTER object_storage 1",
        ]
    );
    let grid = &v["plan"]["datasets"][0];
    let files: Vec<&str> = grid["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        ["grid.zarr/.zarray", "grid.zarr/0/0", "grid.zarr/0/1"]
    );
    // A directory's digest is the sha256 of its sorted listing.
    let listing: String = grid["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {}\n",
                f["sha256"].as_str().unwrap(),
                f["size"],
                f["path"].as_str().unwrap().trim_start_matches("grid.zarr/")
            )
        })
        .collect();
    assert_eq!(
        grid["sha256"],
        stone_package::digest::sha256_hex(listing.as_bytes())
    );
}

#[test]
fn unchanged_files_come_from_the_hash_cache() {
    let ctx = context_with_prod();
    let dir = copy_quickstart(ctx.root());
    let old = SystemTime::now() - Duration::from_secs(600);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let run = || {
        let out = ctx
            .stone()
            .args(["package", "push", "--dry-run", "--json", "--branch", "b"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::stderr(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let first = run();
    assert_eq!(first["plan"]["hashing"]["cached_files"], 0);
    assert!(
        dir.join(".stone/.gitignore").is_file(),
        ".stone/ keeps itself out of git"
    );
    let second = run();
    assert_eq!(second["plan"]["hashing"]["cached_files"], 4);
    assert_eq!(second["plan"]["hashing"]["hashed_bytes"], 0);
    assert_eq!(first["plan"]["datasets"], second["plan"]["datasets"]);

    std::fs::write(dir.join("cities.csv"), "city\nRoma\n").unwrap();
    let third = run();
    assert_eq!(third["plan"]["hashing"]["cached_files"], 3);
    assert_eq!(
        third["plan"]["datasets"][0]["sha256"],
        stone_package::digest::sha256_hex(b"city\nRoma\n")
    );
}

#[test]
fn an_unreachable_api_fails_resumably() {
    let mut ctx = crate::context();
    // Nothing listens on port 9 of loopback: connections are refused at once.
    ctx.add_env("prod", "data.example.org", "http://127.0.0.1:9/v1");
    ctx.set_var("STONE_HTTP_RETRIES", "1");
    let dir = copy_quickstart(ctx.root());
    let out = ctx
        .stone()
        .args(["package", "push", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("unavailable") && err.contains("cannot connect"),
        "{err}"
    );
    // What was tried, and that nothing started (issue 55, item 5: it said "the push resumes
    // where it stopped" when nothing had started).
    assert!(err.contains("(2 attempts over "), "{err}");
    assert!(
        err.contains("hint: nothing reached the server yet")
            && err.contains("then run the same command again")
            && !err.contains("resumes where it stopped"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

#[test]
fn jobs_must_be_positive() {
    let ctx = context_with_prod();
    let dir = copy_quickstart(ctx.root());
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--dry-run",
            "--branch",
            "b",
            "--jobs",
            "0",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A dry run to a ref the server protects says what the push will need: `--yes` and the
/// role the server's guards ask for (its `[guards] write_role`, as `/info` names it), and
/// whether the server's local user has it (issue 55, item 4: the plan said nothing).
#[test]
fn a_dry_run_to_a_protected_ref_names_yes_and_the_role() {
    let (ctx, _server, _data) = crate::push_e2e::with_server_config(
        "[guards]\nprotected_refs = [\"main\", \"release-*\"]\nwrite_role = \"release-managers\"\n",
    );
    let dir = copy_quickstart(ctx.root());
    let plan = |args: &[&str]| {
        let out = ctx
            .stone()
            .args(["package", "push", "--env", "local", "--dry-run"])
            .args(args)
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::stderr(&out));
        stdout(&out)
    };

    let text = plan(&["--branch", "main"]);
    assert!(
        text.contains(
            "Guard:       main is a protected ref of `local` (pattern `main`): the push needs --yes (not given: the push would be refused) and the `release-managers` role (the server's local user lacks it)"
        ),
        "{text}"
    );
    let text = plan(&["--branch", "release/2.0", "--yes"]);
    assert!(
        text.contains("release-2.0 is a protected ref of `local` (pattern `release-*`): the push needs --yes (given)"),
        "{text}"
    );
    // Not protected: no guard line.
    let text = plan(&["--branch", "feature"]);
    assert!(!text.contains("Guard:"), "{text}");

    // --json: the same, for scripts.
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--env",
            "local",
            "--dry-run",
            "--json",
            "--branch",
            "main",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let needs = &plan["protected_ref"];
    assert_eq!(needs["pattern"], "main", "{plan:#}");
    assert_eq!(needs["role"], "release-managers");
    assert_eq!(needs["yes_needed"], true);
    assert_eq!(needs["yes_given"], false);
    assert_eq!(needs["local_user_has_roles"], false);

    // And the push without --yes is refused as the plan said.
    let out = ctx
        .stone()
        .args(["package", "push", "--env", "local", "--branch", "main"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", crate::stderr(&out));
    assert!(crate::stderr(&out).contains("needs --yes"));
}
