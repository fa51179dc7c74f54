//! The fault campaign: pushes interrupted at random points (client killed, server killed
//! during commit, a network that fails 15 % of requests) must all end in the same server
//! state as an uninterrupted push — every row once, every triple, every object with its
//! hash — checked with readers no one here wrote (pyiceberg, a SPARQL engine, sha256 of
//! the stored bytes).
//!
//! Repeatable: every random choice comes from a seeded generator; the seed is printed and
//! `FAULT_SEED=<n>` replays a campaign. `FAULT_PUSHES=<n>` changes the number of client
//! kills (default 50).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{FaultProxy, SplitMix64, StoneServer};
use stone_test::tools::{asset, python};

const HOST: &str = "faults.test";
const NS: &str = "faults";
const BLOBS: usize = 3;

fn seed() -> u64 {
    let seed = std::env::var("FAULT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0005_707e_5eed);
    eprintln!("fault campaign seed: {seed} (replay with FAULT_SEED={seed})");
    seed
}

/// What one package must leave on its branch.
struct Expected {
    branch: String,
    rows: u64,
    triples: u64,
    /// Blob dataset name → sha256 of its only file.
    blobs: BTreeMap<String, String>,
    dir: PathBuf,
}

/// `rows` CSV rows `id,label,value` whose labels are unique to package `index`.
pub(crate) fn random_csv(index: usize, rows: u64, rng: &mut SplitMix64) -> String {
    let mut csv = String::from("id,label,value\n");
    for r in 0..rows {
        csv.push_str(&format!("{r},p{index}-r{r},{}\n", rng.below(1_000_000)));
    }
    csv
}

/// `triples` Turtle triples whose subjects are unique to package `index`.
pub(crate) fn random_ttl(index: usize, triples: u64, rng: &mut SplitMix64) -> String {
    let mut ttl = String::from("@prefix ex: <http://example.org/> .\n");
    for t in 0..triples {
        ttl.push_str(&format!(
            "ex:p{index}-s{t} ex:value {} .\n",
            rng.below(1000)
        ));
    }
    ttl
}

/// A package of one table, one graph and a few blobs whose content is unique to `index`
/// (so nothing is already staged from another package), on branch `branch`.
fn package(ctx: &TestContext, index: usize, branch: &str, rng: &mut SplitMix64) -> Expected {
    let rows = 40 + rng.below(200);
    let csv = random_csv(index, rows, rng);
    let triples = 10 + rng.below(40);
    let ttl = random_ttl(index, triples, rng);
    let mut descriptor = format!(
        "name: faults\npublish: {{to: \"stone:{NS}\"}}\nresources:\n  - path: t.csv\n  - path: g.ttl\n"
    );
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("t.csv".into(), csv.into_bytes()),
        ("g.ttl".into(), ttl.into_bytes()),
    ];
    let mut blobs = BTreeMap::new();
    for b in 0..BLOBS {
        let size = 64 * 1024 + rng.below(192 * 1024) as usize;
        let mut bytes = Vec::with_capacity(size + 8);
        while bytes.len() < size {
            bytes.extend_from_slice(&rng.next_u64().to_le_bytes());
        }
        bytes.truncate(size);
        blobs.insert(format!("b{b}"), stone_package::digest::sha256_hex(&bytes));
        descriptor.push_str(&format!("  - path: b{b}.bin\n"));
        files.push((format!("b{b}.bin"), bytes));
    }
    let borrowed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let dir = ctx.package(&format!("p{index:03}"), &descriptor, &borrowed);
    Expected {
        branch: branch.to_owned(),
        rows,
        triples,
        blobs,
        dir,
    }
}

fn push_command(ctx: &TestContext, expected: &Expected) -> Command {
    let mut cmd = ctx.stone();
    cmd.args(["package", "push", "--env", "local", "--json", "--branch"])
        .arg(&expected.branch)
        .arg(&expected.dir);
    cmd
}

/// The `--json` result of a push that succeeded, with `datasets` results.
pub(crate) fn push_result(out: &Output, what: &str, datasets: usize) -> Value {
    assert!(
        out.status.success(),
        "{what}: the push failed ({:?}):\n{}",
        out.status,
        crate::stderr(out)
    );
    let result: Value = serde_json::from_slice(&out.stdout).expect("a JSON result");
    let count = result["datasets"].as_array().expect("datasets").len();
    assert_eq!(count, datasets, "{what}: {result}");
    result
}

/// A finished push: every dataset written (created, or appended to a table that other
/// branches already have) or unchanged, when an interrupted run had already finished it.
/// Whether anything was written twice is checked on the server's state, not here.
fn assert_pushed(out: &Output, what: &str) -> Value {
    let result = push_result(out, what, 2 + BLOBS);
    for d in result["datasets"].as_array().expect("datasets") {
        let status = d["status"].as_str().unwrap_or_default();
        assert!(
            matches!(status, "created" | "appended" | "unchanged"),
            "{what}: unexpected status {status}: {result}"
        );
    }
    result
}

/// The staged contents of the server: sha256 → size.
fn staged(data: &Path) -> BTreeMap<String, u64> {
    files_in(&data.join("staging/contents"))
}

/// The files of `dir` and their sizes.
fn files_in(dir: &Path) -> BTreeMap<String, u64> {
    std::fs::read_dir(dir)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let size = e.metadata().ok()?.len();
                    Some((e.file_name().to_string_lossy().into_owned(), size))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The `error:` line of a failed push's stderr (progress lines may come before it).
fn error_line(stderr: &str) -> Option<&str> {
    stderr.lines().find(|line| line.starts_with("error:"))
}

/// The staged contents once the server has finished with what a killed client had already
/// sent (an upload whose body arrived whole is still verified and renamed into place after
/// the client is gone): no upload in `staging/incoming` and the contents unchanged for
/// 300 ms, or after 10 s whatever is there. (Without the first condition, a loaded machine
/// let a 300 ms pause pass while the server still wrote a killed client's last upload,
/// which then counted as the rerun's.)
fn staged_settled(data: &Path) -> BTreeMap<String, u64> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let incoming = data.join("staging/incoming");
    let mut last = (staged(data), files_in(&incoming));
    let mut stable_since = Instant::now();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        let now = (staged(data), files_in(&incoming));
        if now != last {
            last = now;
            stable_since = Instant::now();
        } else if last.1.is_empty() && stable_since.elapsed() >= Duration::from_millis(300) {
            break;
        }
    }
    last.0
}

/// `?g → ?n` of a `SELECT ?g (COUNT(*) AS ?n) … GROUP BY ?g` answer (SPARQL JSON results).
pub(crate) fn graph_counts(answer: &Value) -> BTreeMap<String, u64> {
    answer["results"]["bindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["g"]["value"].as_str().unwrap().to_owned(),
                b["n"]["value"].as_str().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

/// A branch's table rows (each exactly once, from `iceberg_counts.py`) and the triples of
/// its graph `g`.
pub(crate) fn assert_table_and_graph(
    tables: &Value,
    graphs: &BTreeMap<String, u64>,
    host: &str,
    ns: &str,
    branch: &str,
    rows: u64,
    triples: u64,
) {
    let table = &tables[branch];
    assert_eq!(
        (table["rows"].as_u64(), table["distinct"].as_u64()),
        (Some(rows), Some(rows)),
        "branch {branch}: every row exactly once: {tables}"
    );
    let graph = format!("https://{host}/{ns}/g/branch/{branch}");
    assert_eq!(
        graphs.get(&graph).copied(),
        Some(triples),
        "branch {branch}: every triple of {graph}"
    );
}

/// The rows and distinct rows of `table` (`ns.name`) on each of `branches`, read by
/// pyiceberg from a local server's catalog and warehouse in `data` (`iceberg_counts.py`).
pub(crate) fn iceberg_counts(data: &Path, table: &str, branches: &[&str]) -> Value {
    let out = Command::new(python())
        .arg(asset("iceberg_counts.py"))
        .arg("--catalog-db")
        .arg(data.join("iceberg/catalog.db"))
        .arg("--warehouse")
        .arg(format!(
            "file://{}",
            data.join("iceberg/warehouse").display()
        ))
        .args(["--table", table, "--catalog-name", "stone"])
        .args(["--branches", &branches.join(",")])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyiceberg: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Checks every package's branch with independent readers.
fn verify(data: &Path, all: &[Expected]) {
    // Tables: pyiceberg, every branch in one process.
    let branches: Vec<&str> = all.iter().map(|e| e.branch.as_str()).collect();
    let tables = iceberg_counts(data, &format!("{NS}.t"), &branches);

    // Graphs: one SPARQL query over the server's graph store (RocksDB, read-only).
    let mut sparql = Command::new(python());
    sparql
        .arg(asset("sparql.py"))
        .arg("--store")
        .arg(data.join("graph/store"));
    let out = sparql
        .args([
            "--query",
            "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sparql.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let graphs = graph_counts(&answer);

    for e in all {
        assert_table_and_graph(&tables, &graphs, HOST, NS, &e.branch, e.rows, e.triples);
        for (name, sha) in &e.blobs {
            let dir = data.join("blobs").join(NS).join(name).join(&e.branch);
            let head: Value =
                serde_json::from_slice(&std::fs::read(dir.join("head.json")).unwrap()).unwrap();
            let files = head["files"].as_array().unwrap();
            assert_eq!(files.len(), 1, "{}: {head}", e.branch);
            assert_eq!(files[0]["sha256"].as_str(), Some(sha.as_str()), "{head}");
            let bytes = std::fs::read(dir.join("objects").join(sha)).unwrap();
            assert_eq!(
                &stone_package::digest::sha256_hex(&bytes),
                sha,
                "branch {}: the stored object of {name} has the pushed bytes",
                e.branch
            );
        }
    }
}

fn start_server(data: &Path, staging_base: Option<&str>) -> StoneServer {
    let mut config = format!("public_host = \"{HOST}\"\n");
    if let Some(base) = staging_base {
        config.push_str(&format!("[staging]\nbase_url = \"{base}\"\n"));
    }
    StoneServer::start(data, Some(&config), &[])
}

/// Waits (60 s at most) until the server's commit paused after writing `dataset` (the
/// test hook's file `paused` exists).
pub(crate) fn wait_paused(paused: &Path, server: &StoneServer, dataset: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !paused.exists() {
        assert!(
            Instant::now() < deadline,
            "the commit never reached {dataset}:\n{}",
            server.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn socket(server: &StoneServer) -> std::net::SocketAddr {
    server.url().trim_start_matches("http://").parse().unwrap()
}

#[test]
fn pushes_killed_at_random_points_finish_on_rerun_with_nothing_lost_or_doubled() {
    let mut rng = SplitMix64(seed());
    let pushes: usize = std::env::var("FAULT_PUSHES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let data = tempfile::Builder::new()
        .prefix("stone-faults-")
        .tempdir()
        .unwrap();
    let server = start_server(data.path(), None);
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());

    // An uninterrupted push sets the scale of the kill points.
    let reference = package(&ctx, 0, "reference", &mut rng);
    let started = Instant::now();
    assert_pushed(
        &push_command(&ctx, &reference).output().unwrap(),
        "reference",
    );
    // The first push is the slowest (the table is new, nothing is cached): the span shrinks
    // to what a push takes once the kills show it (a push that finished before its kill).
    let mut span = started.elapsed().as_millis() as u64 * 12 / 10 + 1;

    let mut all = vec![reference];
    let mut killed = 0;
    let mut saved_state = 0;
    for i in 1..=pushes {
        let expected = package(&ctx, i, &format!("k{i:03}"), &mut rng);
        let delay = Duration::from_millis(rng.below(span));
        let spawned = Instant::now();
        let mut child = push_command(&ctx, &expected)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let finished = loop {
            if child.try_wait().unwrap().is_some() {
                break Some(spawned.elapsed());
            }
            if spawned.elapsed() >= delay {
                break None;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        match finished {
            None => {
                child.kill().unwrap(); // SIGKILL: no cleanup of any kind
                killed += 1;
            }
            Some(took) => span = took.as_millis() as u64 * 12 / 10 + 1,
        }
        child.wait().unwrap();
        let state = expected
            .dir
            .join(".stone/pushes/local")
            .join(format!("{}.json", expected.branch));
        saved_state += usize::from(state.is_file());

        let before = staged_settled(data.path());
        let out = push_command(&ctx, &expected).output().unwrap();
        let what = format!("push {i} killed after {delay:?}");
        let result = assert_pushed(&out, &what);
        // Nothing that reached the server before the kill went up again.
        let after = staged(data.path());
        let new_bytes: u64 = after
            .iter()
            .filter(|(sha, _)| !before.contains_key(*sha))
            .map(|(_, size)| size)
            .sum();
        assert_eq!(
            result["uploaded_bytes"].as_u64(),
            Some(new_bytes),
            "{what}: the rerun uploaded exactly what the server lacked: {result}"
        );
        assert!(!state.exists(), "{what}: a finished push leaves no state");
        all.push(expected);
    }
    eprintln!(
        "{pushes} pushes: {killed} killed mid-way ({saved_state} after their push ID was saved)"
    );
    assert!(
        killed >= pushes / 2,
        "most kills landed inside a push ({killed} of {pushes})"
    );
    assert!(
        saved_state > 0 && saved_state < pushes,
        "kills landed both before and after the push was created ({saved_state} of {pushes})"
    );
    verify(data.path(), &all);
}

#[test]
fn a_server_killed_during_commit_resumes_or_fails_cleanly_and_the_rerun_completes() {
    let mut rng = SplitMix64(seed() ^ 0x5e4e);
    let data = tempfile::Builder::new()
        .prefix("stone-faults-")
        .tempdir()
        .unwrap();
    // The proxy stays where it is while the server behind it restarts on another port.
    let proxy = FaultProxy::start("127.0.0.1:9".parse().unwrap(), Vec::new());
    let mut server = start_server(data.path(), Some(&proxy.url()));
    proxy.set_target(socket(&server));
    let mut ctx = crate::context();
    ctx.add_env("local", HOST, &format!("{}/v1", proxy.url()));
    // Enough patience to outlast a restart.
    ctx.set_var("STONE_HTTP_RETRIES", "12");

    let datasets: Vec<String> = ["t", "g"]
        .into_iter()
        .map(String::from)
        .chain((0..BLOBS).map(|b| format!("b{b}")))
        .collect();
    let mut all = Vec::new();
    let mut reruns = 0;
    for i in 0..2 * datasets.len() {
        let expected = package(&ctx, i, &format!("s{i:03}"), &mut rng);
        // The first half stops the commit right after a given dataset was written (the
        // server's test hook); the second half kills at a random time once the push exists.
        let hook = datasets.get(i).cloned();
        server.kill();
        drop(server);
        server = match &hook {
            Some(dataset) => StoneServer::start(
                data.path(),
                Some(&format!(
                    "public_host = \"{HOST}\"\n[staging]\nbase_url = \"{}\"\n",
                    proxy.url()
                )),
                &[("STONE_SERVER_TEST_PAUSE_COMMIT", dataset.as_str())],
            ),
            None => start_server(data.path(), Some(&proxy.url())),
        };
        proxy.set_target(socket(&server));
        let paused = data.path().join("test-hooks/paused");
        let _ = std::fs::remove_file(&paused);

        let child = push_command(&ctx, &expected)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        match &hook {
            Some(dataset) => wait_paused(&paused, &server, dataset),
            None => {
                let state = expected
                    .dir
                    .join(format!(".stone/pushes/local/{}.json", expected.branch));
                while !state.exists() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(2));
                }
                std::thread::sleep(Duration::from_millis(rng.below(400)));
            }
        }
        server.kill();
        drop(server);
        server = start_server(data.path(), Some(&proxy.url()));
        proxy.set_target(socket(&server));

        let out = child.wait_with_output().unwrap();
        if !out.status.success() {
            // Allowed: the push stops with a clear error and can be run again.
            let stderr = crate::stderr(&out);
            assert!(
                error_line(&stderr).is_some() && !stderr.contains("panicked"),
                "push {i}: a clear error: {stderr}"
            );
            reruns += 1;
            let out = push_command(&ctx, &expected).output().unwrap();
            assert_pushed(&out, &format!("rerun of push {i}"));
        } else {
            assert_pushed(&out, &format!("push {i}"));
        }
        all.push(expected);
    }
    eprintln!(
        "{} server kills during pushes, {reruns} needed a rerun",
        all.len()
    );
    verify(data.path(), &all);
}

#[test]
fn pushes_through_a_network_failing_15_percent_of_requests_complete() {
    let seed = seed();
    let mut rng = SplitMix64(seed ^ 0x4e7);
    let data = tempfile::Builder::new()
        .prefix("stone-faults-")
        .tempdir()
        .unwrap();
    // Every request between client and server, uploads included, crosses the proxy.
    let proxy = FaultProxy::chaos("127.0.0.1:9".parse().unwrap(), seed, 0.15);
    let server = start_server(data.path(), Some(&proxy.url()));
    proxy.set_target(socket(&server));
    let ctx = crate::context();
    ctx.add_env("local", HOST, &format!("{}/v1", proxy.url()));

    let mut all = Vec::new();
    let mut failures = BTreeSet::new();
    for i in 0..10 {
        let expected = package(&ctx, i, &format!("n{i:03}"), &mut rng);
        let mut attempts = 0;
        loop {
            attempts += 1;
            let out = push_command(&ctx, &expected).output().unwrap();
            if out.status.success() {
                assert_pushed(&out, &format!("push {i}"));
                break;
            }
            let stderr = crate::stderr(&out);
            assert!(
                error_line(&stderr).is_some() && !stderr.contains("panicked"),
                "push {i}: a clear error: {stderr}"
            );
            failures.insert(format!(
                "exit {:?}: {}",
                out.status.code(),
                error_line(&stderr).unwrap_or_default()
            ));
            assert!(
                attempts < 6,
                "push {i} did not get through in {attempts} attempts: {stderr}"
            );
        }
        all.push(expected);
    }
    let faults = proxy.faults();
    eprintln!(
        "{} requests, faults injected: {faults:?}; failed attempts: {failures:#?}",
        proxy.seen()
    );
    assert!(
        faults.len() >= 5,
        "the campaign met most kinds of fault: {faults:?}"
    );
    verify(data.path(), &all);
}

/// A server whose state database lost a commit (restored from a backup, or failed over to
/// a replica without its last writes: a push committed and followed is listed as staging
/// again). The client commits it again (a commit is idempotent) and the push lands, each
/// row once. The loss is made by hand (the server stopped mid-commit, the push's state set
/// back to `staging` in its SQLite database with Python's sqlite3): a database that
/// forgets acknowledged writes cannot be caused otherwise on demand.
#[test]
fn a_commit_the_server_lost_is_sent_again_and_the_push_lands_once() {
    let mut rng = SplitMix64(seed() ^ 0x1057);
    let data = tempfile::Builder::new()
        .prefix("stone-faults-")
        .tempdir()
        .unwrap();
    let proxy = FaultProxy::start("127.0.0.1:9".parse().unwrap(), Vec::new());
    let config = format!(
        "public_host = \"{HOST}\"\n[staging]\nbase_url = \"{}\"\n",
        proxy.url()
    );
    let mut server = StoneServer::start(
        data.path(),
        Some(&config),
        &[("STONE_SERVER_TEST_PAUSE_COMMIT", "t")],
    );
    proxy.set_target(socket(&server));
    let mut ctx = crate::context();
    ctx.add_env("local", HOST, &format!("{}/v1", proxy.url()));
    ctx.set_var("STONE_HTTP_RETRIES", "12");
    // Without a second commit the follow would wait for the lost one: stop soon.
    ctx.set_var("STONE_PUSH_STALL_TIMEOUT", "30");
    let expected = package(&ctx, 0, "lost", &mut rng);
    let paused = data.path().join("test-hooks/paused");
    let child = push_command(&ctx, &expected)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_paused(&paused, &server, "t");
    server.kill();
    drop(server);
    let forget = Command::new(python())
        .arg("-c")
        .arg(
            "import sqlite3, sys\n\
             db = sqlite3.connect(sys.argv[1])\n\
             n = db.execute(\"UPDATE pushes SET state = 'staging' WHERE state = 'committing'\").rowcount\n\
             db.commit()\n\
             assert n == 1, n\n",
        )
        .arg(data.path().join("state.db"))
        .output()
        .unwrap();
    assert!(
        forget.status.success(),
        "setting the push back to staging: {}",
        String::from_utf8_lossy(&forget.stderr)
    );
    let server = start_server(data.path(), Some(&proxy.url()));
    proxy.set_target(socket(&server));
    let out = child.wait_with_output().unwrap();
    // Without the second commit the follow stops after 30 s without progress.
    assert_pushed(&out, "the push whose commit the server lost");
    verify(data.path(), &[expected]);
}
