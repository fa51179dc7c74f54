//! Issue 27, the second shape of a package whose size is its count of files: thousands of
//! one-file resources, each its own dataset. More files than a batch and more datasets
//! than a page of the push's progress: the files go in batches (`paged_files`), the
//! commit is followed a page at a time (`?limit=`), the push is SIGKILLed at a random
//! point of its uploads and resumed (one push, exactly once), an unchanged re-push
//! uploads nothing and names no file (each resource's declared listing is its head's),
//! and a re-push of one changed resource sends only its file. The small contents go up
//! in packs (many in one request).

use std::path::{Path, PathBuf};

use serde_json::Value;
use stone_test::TestContext;

use crate::many_files::{push_killed_midway, run_measured};
use crate::push_e2e::{staged, with_server};

/// Resources of the package: more than a batch of files and a page of datasets (10,000).
const RESOURCES: usize = 12_000;

/// The client's peak resident memory on a push of the package (debug build).
const CLIENT_BUDGET: u64 = 100 << 20;

/// One-file resources of the dry run below: enough that what the client holds for each
/// resource is most of its memory.
const DRY_RUN_RESOURCES: usize = 40_000;

/// The dry run's peak resident memory (debug build). Measured 2026-11-27: 60 MB; 118 MB
/// before `datasets.yaml` was read one resource at a time and the plan's table written as
/// it is made (`337b531`: the whole node tree, the typed resources and the table's cells
/// at once).
const DRY_RUN_BUDGET: u64 = 85 << 20;

fn name(i: usize) -> String {
    format!("r{i:05}")
}

fn resources_package(root: &Path) -> PathBuf {
    package_of(root, "resources", RESOURCES)
}

/// A package of `count` one-file resources of ~120 bytes, named [`name`], in `root/dir`.
fn package_of(root: &Path, dir: &str, count: usize) -> PathBuf {
    let dir = root.join(dir);
    let mut descriptor = String::from("publish: {to: \"stone:many\"}\nresources:\n");
    for shard in 0..count.div_ceil(1000) {
        std::fs::create_dir_all(dir.join(format!("files/{shard:02}"))).unwrap();
    }
    for i in 0..count {
        let path = format!("files/{:02}/{}.txt", i / 1000, name(i));
        std::fs::write(
            dir.join(&path),
            format!("resource {i:05} {}\n", "x".repeat(100)),
        )
        .unwrap();
        descriptor.push_str(&format!(
            "  - path: {path}\n    name: {}\n    kind: BLOB\n",
            name(i)
        ));
    }
    std::fs::write(dir.join("datasets.yaml"), descriptor).unwrap();
    dir
}

/// `stone package push --env local --branch b --json -v <dir>`: its result and its log
/// (stderr), within [`CLIENT_BUDGET`], every poll of the commit asking for a page of what
/// changed.
fn push_measured(ctx: &TestContext, dir: &Path) -> (Value, String) {
    let (out, peak) = run_measured(
        ctx.stone()
            .args([
                "package", "push", "--env", "local", "--branch", "b", "--json", "-v",
            ])
            .arg(dir),
    );
    assert!(
        out.status.success(),
        "push failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    eprintln!("client peak RSS {} MB", peak >> 20);
    assert!(
        peak < CLIENT_BUDGET,
        "the push of {RESOURCES} resources peaked at {} MB, over {} MB",
        peak >> 20,
        CLIENT_BUDGET >> 20
    );
    let log = crate::stderr(&out);
    let polls: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("GET ") && line.contains("/pushes/"))
        .collect();
    assert!(!polls.is_empty(), "the commit was followed");
    assert!(
        polls
            .iter()
            .all(|line| line.contains("?since=") && line.contains("limit=")),
        "every poll asks for a page of changes: {:?}",
        &polls[..polls.len().min(5)]
    );
    (
        serde_json::from_slice(&out.stdout).expect("JSON result"),
        log,
    )
}

/// The batches of files (`POST …/pushes/{id}/files`) a push's `-v` log shows.
fn batches(log: &str) -> usize {
    log.lines()
        .filter(|line| line.contains("POST ") && line.contains("/files"))
        .count()
}

/// The datasets of a result: (name, status), in its order.
fn outcomes(result: &Value) -> Vec<(String, String)> {
    result["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let url = d["url"].as_str().unwrap();
            (
                url.strip_prefix("stone:many/").unwrap_or(url).to_owned(),
                d["status"].as_str().unwrap_or("?").to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_push_of_12k_resources_resumes_after_sigkill_and_an_unchanged_repush_uploads_nothing() {
    let (ctx, server, data) = with_server();
    let dir = resources_package(ctx.root());

    // Killed at a random point of its uploads (between 1 and 60 % of them).
    let (before, saved) = push_killed_midway(&ctx, &server, data.path(), &dir, "b", RESOURCES);

    // The rerun resumes the same push, uploads only what is missing, and reports every
    // dataset once, in the package's order (the progress came a page at a time).
    let (result, log) = push_measured(&ctx, &dir);
    assert_eq!(
        result["push_id"], saved["push_id"],
        "the rerun resumed the saved push (one push, exactly once)"
    );
    // The small contents went up together (issue 27: packs), not a request each.
    let puts = |pack: bool| {
        log.lines()
            .filter(|line| line.contains("PUT ") && line.contains("/v1/staging/"))
            .filter(|line| line.contains("/v1/staging/pack?") == pack)
            .count()
    };
    if RESOURCES - before >= 2 {
        assert!(puts(true) > 0, "no pack was sent:\n{log}");
        assert!(
            puts(false) <= 2,
            "{} contents went up alone (at most one per batch may):\n{log}",
            puts(false)
        );
    }
    let expected: Vec<(String, String)> = (0..RESOURCES)
        .map(|i| (name(i), "created".to_owned()))
        .collect();
    assert!(
        outcomes(&result) == expected,
        "every resource created once, in order; first outcomes: {:?}",
        &outcomes(&result)[..5.min(outcomes(&result).len())]
    );
    let content_size = format!("resource {:05} {}\n", 0, "x".repeat(100)).len();
    let uploaded = result["uploaded_bytes"].as_u64().unwrap();
    assert!(
        uploaded <= ((RESOURCES - before) * content_size) as u64,
        "only the missing contents went up again: {uploaded} bytes, {before} of {RESOURCES} were staged"
    );
    assert_eq!(staged(data.path()), RESOURCES, "each content staged once");

    // Unchanged: nothing goes up, every dataset stays as it is, and no file is even named
    // to the server: each resource's declared listing is its head's (issue 27).
    let (again, log) = push_measured(&ctx, &dir);
    assert_eq!(again["uploaded_bytes"], 0, "{}", again["uploaded_bytes"]);
    let unchanged: Vec<(String, String)> = (0..RESOURCES)
        .map(|i| (name(i), "unchanged".to_owned()))
        .collect();
    assert!(
        outcomes(&again) == unchanged,
        "every resource unchanged; first outcomes: {:?}",
        &outcomes(&again)[..5.min(outcomes(&again).len())]
    );
    assert_ne!(again["push_id"], result["push_id"], "a new push");
    assert_eq!(batches(&log), 0, "no batch of files was sent:\n{log}");
    assert!(
        log.contains(&format!(
            "{RESOURCES} resource(s) of {RESOURCES} files unchanged on the server: not sent"
        )),
        "{log}"
    );

    // One resource changed: only its file is sent (one batch), only its content goes up,
    // and the rest stay unchanged.
    let changed = format!("changed content of {}\n", name(7));
    std::fs::write(dir.join(format!("files/00/{}.txt", name(7))), &changed).unwrap();
    let (third, log) = push_measured(&ctx, &dir);
    assert_eq!(
        batches(&log),
        1,
        "one batch, of the changed resource:\n{log}"
    );
    assert_eq!(third["uploaded_bytes"], changed.len(), "{third}");
    let expected: Vec<(String, String)> = (0..RESOURCES)
        .map(|i| {
            let status = if i == 7 { "appended" } else { "unchanged" };
            (name(i), status.to_owned())
        })
        .collect();
    let got = outcomes(&third);
    let differing: Vec<_> = got
        .iter()
        .zip(&expected)
        .filter(|(a, b)| a != b)
        .take(5)
        .collect();
    assert!(
        got.len() == expected.len() && differing.is_empty(),
        "only {} appended to (its file written again): {differing:?}",
        name(7)
    );
}

#[test]
fn a_dry_run_of_40k_resources_holds_each_resource_compactly() {
    let ctx = crate::context_with_prod();
    let dir = package_of(ctx.root(), "dry", DRY_RUN_RESOURCES);
    let (out, peak) = run_measured(
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
    );
    assert!(
        out.status.success(),
        "dry run failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    let plan = crate::stdout(&out);
    let totals = format!("{DRY_RUN_RESOURCES} datasets, {DRY_RUN_RESOURCES} files");
    assert!(
        plan.contains(&totals),
        "{}",
        &plan[plan.len().saturating_sub(500)..]
    );
    let last = name(DRY_RUN_RESOURCES - 1);
    assert!(
        plan.lines()
            .any(|l| l.trim_start().starts_with(&format!("stone:many/{last} "))),
        "every dataset is listed, the last one too"
    );
    eprintln!("dry run peak RSS {} MB", peak >> 20);
    assert!(
        peak < DRY_RUN_BUDGET,
        "the dry run of {DRY_RUN_RESOURCES} resources peaked at {} MB, over {} MB",
        peak >> 20,
        DRY_RUN_BUDGET >> 20
    );
}
