//! `stone package push` against the real `stone-server`, checked with readers no one here
//! wrote: pyiceberg for the Iceberg tables, a SPARQL query for the named graphs, the bytes
//! and sha256 of the stored objects.

use std::path::{Path, PathBuf};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::StoneServer;
use stone_test::tools::{asset, python};

pub(crate) const HOST: &str = "data.test";

/// A context with `local` configured against a fresh server.
pub(crate) fn with_server() -> (TestContext, StoneServer, tempfile::TempDir) {
    with_server_config("")
}

/// [`with_server`], with more lines of server configuration.
pub(crate) fn with_server_config(config: &str) -> (TestContext, StoneServer, tempfile::TempDir) {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let server = StoneServer::start(
        data.path(),
        Some(&format!("public_host = \"{HOST}\"\n{config}")),
        &[],
    );
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    (ctx, server, data)
}

/// A package with every kind the service stores, in every format the client reads.
fn full_package(ctx: &TestContext) -> PathBuf {
    let dir = ctx.package(
        "full",
        r#"name: full
version: "1.0.0"
publish: {to: "stone:e2e", public: true}
resources:
  - path: cities.csv
    schema: {fields: [{name: code, type: string}]}
  - path: rivers.tsv
  - path: lakes.parquet
  - path: capitals.ttl
  - path: borders.nt
  - path: people.jsonld
  - path: tile.png
  - path: readings.bin
"#,
        &[
            ("cities.csv", b"city,code,population\nParis,075,2102650\nLyon,069,522250\nLille,059,236234\n"),
            ("rivers.tsv", b"river\tlength_km\nSeine\t777\nLoire\t1006\n"),
            ("capitals.ttl", b"@prefix ex: <http://example.org/> .\nex:Paris ex:capitalOf ex:France .\nex:Berlin ex:capitalOf ex:Germany .\n"),
            ("borders.nt", b"<http://example.org/France> <http://example.org/borders> <http://example.org/Germany> .\n"),
            ("people.jsonld", br#"{"@id": "http://example.org/ada", "http://xmlns.com/foaf/0.1/name": "Ada"}"#),
            ("tile.png", b"\x89PNG\r\n\x1a\nnot really a png but bytes are bytes"),
            ("readings.bin", &[7u8; 5000]),
        ],
    );
    // A Parquet file written by pyarrow, not by us.
    let status = std::process::Command::new(python())
        .args(["-c", "import pyarrow as pa, pyarrow.parquet as pq, sys; pq.write_table(pa.table({'lake': ['Léman', 'Annecy'], 'area_km2': [580.03, 27.59]}), sys.argv[1])"])
        .arg(dir.join("lakes.parquet"))
        .status()
        .unwrap();
    assert!(status.success(), "pyarrow wrote the Parquet input");
    dir
}

pub(crate) fn push(ctx: &TestContext, dir: &Path, extra: &[&str]) -> Value {
    let out = ctx
        .stone()
        .args(["package", "push", "--env", "local", "--json"])
        .args(extra)
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "push failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("JSON result")
}

fn statuses(result: &Value) -> Vec<(String, String)> {
    result["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["url"].as_str().unwrap().to_owned(),
                d["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn read_table(data: &Path, table: &str, branch: &str) -> Value {
    let out = std::process::Command::new(python())
        .arg(asset("read_iceberg.py"))
        .arg("--catalog-db")
        .arg(data.join("iceberg/catalog.db"))
        .arg("--warehouse")
        .arg(format!(
            "file://{}",
            data.join("iceberg/warehouse").display()
        ))
        .args([
            "--catalog-name",
            "stone",
            "--table",
            table,
            "--branch",
            branch,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyiceberg could not read {table}@{branch}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn count_triples(data: &Path, graph: &str) -> u64 {
    // The server's embedded graph store (RocksDB), opened read-only by pyoxigraph.
    let store = data.join("graph/store");
    if !store.exists() {
        return 0;
    }
    let mut cmd = std::process::Command::new(python());
    cmd.arg(asset("sparql.py")).arg("--store").arg(&store);
    let out = cmd
        .args([
            "--query",
            &format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sparql.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["results"]["bindings"][0]["n"]["value"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_package_lands_in_the_right_engines_and_a_second_push_changes_nothing() {
    let (ctx, server, data) = with_server();
    let dir = full_package(&ctx);
    let result = push(&ctx, &dir, &["--branch", "feature/e2e"]);
    assert_eq!(
        statuses(&result),
        [
            ("stone:e2e/cities".into(), "created".into()),
            ("stone:e2e/rivers".into(), "created".into()),
            ("stone:e2e/lakes".into(), "created".into()),
            ("stone:e2e/capitals".into(), "created".into()),
            ("stone:e2e/borders".into(), "created".into()),
            ("stone:e2e/people".into(), "created".into()),
            ("stone:e2e/tile".into(), "created".into()),
            ("stone:e2e/readings".into(), "created".into()),
        ],
        "server log:\n{}",
        server.log_tail(30)
    );
    assert_eq!(
        result["datasets"][0]["iri"],
        format!("https://{HOST}/e2e/cities")
    );
    assert_eq!(result["package_node"]["iri"], format!("https://{HOST}/e2e"));

    // Tables, read by pyiceberg on the push's branch.
    let cities = read_table(data.path(), "e2e.cities", "feature-e2e");
    assert_eq!(cities["row_count"], 3, "{cities}");
    let codes: Vec<&str> = cities["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"075"),
        "the declared string column kept its leading zero: {codes:?}"
    );
    assert_eq!(
        read_table(data.path(), "e2e.rivers", "feature-e2e")["row_count"],
        2
    );
    assert_eq!(
        read_table(data.path(), "e2e.lakes", "feature-e2e")["row_count"],
        2
    );

    // Graphs, counted by SPARQL.
    assert_eq!(
        count_triples(
            data.path(),
            &format!("https://{HOST}/e2e/capitals/branch/feature-e2e")
        ),
        2
    );
    assert_eq!(
        count_triples(
            data.path(),
            &format!("https://{HOST}/e2e/borders/branch/feature-e2e")
        ),
        1
    );
    assert_eq!(
        count_triples(
            data.path(),
            &format!("https://{HOST}/e2e/people/branch/feature-e2e")
        ),
        1
    );

    // Objects: the bytes, by their sha256.
    let readings = std::fs::read(dir.join("readings.bin")).unwrap();
    let sha = stone_package::digest::sha256_hex(&readings);
    let stored = data
        .path()
        .join("blobs/e2e/readings/feature-e2e/objects")
        .join(&sha);
    assert_eq!(
        std::fs::read(&stored).unwrap(),
        readings,
        "object at {}",
        stored.display()
    );

    // Again: nothing changes, nothing is uploaded, no new snapshot.
    let snapshots_before = cities["snapshot_count"].clone();
    let again = push(&ctx, &dir, &["--branch", "feature/e2e"]);
    assert!(
        statuses(&again).iter().all(|(_, s)| s == "unchanged"),
        "{again}"
    );
    assert_eq!(again["uploaded_bytes"], 0);
    let cities = read_table(data.path(), "e2e.cities", "feature-e2e");
    assert_eq!(cities["row_count"], 3, "no duplicate rows");
    assert_eq!(cities["snapshot_count"], snapshots_before);
}

/// `stone package push --env local --branch b <extra…> <dir>`.
fn push_to_b(ctx: &TestContext, dir: &Path, extra: &[&str]) -> std::process::Output {
    ctx.stone()
        .args(["package", "push", "--env", "local", "--branch", "b"])
        .args(extra)
        .arg(dir)
        .output()
        .unwrap()
}

/// A push of a package (`name`, its `datasets.yaml`, its files) to an environment whose
/// API is unreachable: had stone tried to send anything, it would fail as unavailable
/// (exit 5), so any other error comes from the client's own checks. The context keeps
/// the package.
fn push_without_api(
    name: &str,
    yaml: &str,
    files: &[(&str, &[u8])],
) -> (TestContext, std::process::Output, PathBuf) {
    let mut ctx = crate::context();
    ctx.add_env("local", HOST, "http://127.0.0.1:9/v1");
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let dir = ctx.package(name, yaml, files);
    let out = push_to_b(&ctx, &dir, &[]);
    (ctx, out, dir)
}

#[test]
fn a_schema_mismatch_is_refused_before_anything_is_sent() {
    let (_ctx, out, dir) = push_without_api(
        "bad",
        "publish: {to: \"stone:e2e\"}\nresources:\n  - path: t.csv\n    schema: {fields: [{name: amount, type: integer}]}\n",
        &[("t.csv", b"amount\n12\nabc\n")],
    );
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("abc") && err.contains("t.csv") && err.contains("hint:"),
        "{err}"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.join(".stone/converted"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        leftovers.is_empty(),
        "no half-converted file is kept: {leftovers:?}"
    );
}

#[test]
fn invalid_rdf_is_refused_before_anything_is_sent_naming_file_line_and_column() {
    let (_ctx, out, _) = push_without_api(
        "rdf",
        "publish: {to: \"stone:e2e\"}\nresources: [{path: ok.nt}, {path: g.ttl}]\n",
        &[
            (
                "ok.nt",
                b"<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n",
            ),
            (
                "g.ttl",
                b"@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b \"open .\n",
            ),
        ],
    );
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the graph `g` is not valid RDF") && err.contains("g.ttl:3:11:"),
        "the error names the dataset, the file, the line and the column: {err}"
    );
}

/// The RDF check runs beside the uploads (the server is up, so they start): a mistake on
/// the last line of a large graph stops the push before its commit, and nothing of the
/// package is written; the same push, the file fixed, completes.
#[test]
fn invalid_rdf_found_beside_the_uploads_stops_the_push_before_its_commit() {
    let (ctx, _server, data) = with_server();
    // Over 8 MiB: the parallel parse finds the mistake, the file is read again from its
    // start to name its line.
    let lines = 150_000;
    let mut graph = String::with_capacity(lines * 70);
    for i in 0..lines {
        graph.push_str(&format!(
            "<http://e.org/s{i}> <http://e.org/label> \"the statement number {i}\" .\n"
        ));
    }
    let valid = graph.clone();
    graph.push_str("<http://e.org/last> <http://e.org/label> .\n");
    assert!(graph.len() > 8 << 20);
    let dir = ctx.package(
        "beside",
        "publish: {to: \"stone:checked\"}\nresources: [{path: g.nt}, {path: small.nt}, {path: blob.bin}]\n",
        &[
            ("g.nt", graph.as_bytes()),
            ("small.nt", b"<http://e.org/a> <http://e.org/b> \"c\" .\n"),
            ("blob.bin", b"bytes of a blob"),
        ],
    );
    let out = push_to_b(&ctx, &dir, &[]);
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the graph `g` is not valid RDF")
            && err.contains(&format!("g.nt:{}:", lines + 1)),
        "the error names the dataset, the file and the line: {err}"
    );
    let iri = format!("https://{HOST}/checked/g/branch/b");
    assert_eq!(count_triples(data.path(), &iri), 0, "no graph was written");
    // (The server may have prepared the blob dataset's directories and its head-to-be
    // beside the uploads: a dataset exists once its `head.json` does.)
    let head = data.path().join("blobs/checked/blob/b/head.json");
    assert!(!head.exists(), "no dataset of the package was written");

    let markers = || {
        std::fs::read_dir(dir.join(".stone/checked"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    assert_eq!(
        markers(),
        0,
        "a graph that failed is not remembered as valid"
    );

    std::fs::write(dir.join("g.nt"), &valid).unwrap();
    let out = push_to_b(&ctx, &dir, &["--json"]);
    assert!(out.status.success(), "{}", crate::stderr(&out));
    assert_eq!(count_triples(data.path(), &iri), lines as u64);
    assert!(head.exists());
    assert_eq!(
        markers(),
        1,
        "the valid large graph is remembered (an unchanged push does not parse it again); \
         the small one is not (parsing it costs less than its marker)"
    );
}

#[test]
fn a_dataset_the_server_refuses_is_named_with_its_message_and_code() {
    let (mut ctx, _server, data) = with_server();
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:typed\"}\nresources: [{path: t.csv}, {path: blob.bin}]\n",
        &[("t.csv", b"x\n1\n2\n"), ("blob.bin", b"bytes")],
    );
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let out = push_to_b(&ctx, &dir, &[]);
    assert!(out.status.success(), "{}", crate::stderr(&out));
    // The column's type changes from integer to string: the table refuses the file.
    std::fs::write(dir.join("t.csv"), b"x\none\ntwo\n").unwrap();
    let out = push_to_b(&ctx, &dir, &[]);
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("stone:typed/t: ") && err.contains("(schema.incompatible)"),
        "the failed dataset is named with the server's message and code: {err}"
    );
    assert!(err.contains("hint: fix what failed"), "{err}");
    assert!(
        err.contains("push with --replace"),
        "the way out is named: {err}"
    );
    assert_eq!(read_table(data.path(), "typed.t", "b")["row_count"], 2);

    // The way the message names: the branch's content is replaced, the type changes.
    let out = push_to_b(&ctx, &dir, &["--replace", "--json"]);
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        statuses(&result).contains(&("stone:typed/t".into(), "replaced".into())),
        "{result}"
    );
    let table = read_table(data.path(), "typed.t", "b");
    assert_eq!(table["row_count"], 2, "{table}");
    assert_eq!(table["rows"][0]["x"], "one", "{table}");
}

/// The local staging store's number of staged contents.
pub(crate) fn staged(data: &Path) -> usize {
    std::fs::read_dir(data.join("staging/contents"))
        .map(|d| d.count())
        .unwrap_or(0)
}

/// A push of 40 blobs of 1 MiB and a table `t` to `stone:<namespace>@b`, one upload at a
/// time, SIGKILLed once `uploads` contents are staged: the push ID is saved for a resume.
fn interrupted_push(
    ctx: &TestContext,
    server: &StoneServer,
    data: &Path,
    namespace: &str,
    uploads: usize,
) -> (PathBuf, Vec<(String, Vec<u8>)>) {
    let blobs: Vec<(String, Vec<u8>)> = (0..40u8)
        .map(|i| (format!("part-{i:02}.bin"), vec![i; 1 << 20]))
        .collect();
    let mut descriptor =
        format!("publish: {{to: \"stone:{namespace}\"}}\nresources:\n  - path: t.csv\n");
    for (name, _) in &blobs {
        descriptor.push_str(&format!("  - path: {name}\n"));
    }
    let mut files: Vec<(&str, &[u8])> = blobs
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    files.push(("t.csv", b"x\n1\n2\n3\n"));
    let dir = ctx.package("big", &descriptor, &files);
    let mut child = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", "b", "--jobs", "1", "--quiet",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while staged(data) < uploads {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the push ended before it could be interrupted"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "no upload arrived:\n{}",
            server.log_tail(30)
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    (dir, blobs)
}

#[test]
fn a_push_killed_during_upload_resumes_and_uploads_only_what_is_missing() {
    let (ctx, server, data) = with_server();
    let (dir, blobs) = interrupted_push(&ctx, &server, data.path(), "resume", 3);
    let before = staged(data.path());
    assert!(
        before < 41,
        "the kill came before every upload ({before} staged)"
    );
    assert!(
        dir.join(".stone/pushes/local/b.json").is_file(),
        "the push ID was saved before the uploads"
    );

    let result = push(&ctx, &dir, &["--branch", "b"]);
    let total: u64 = blobs.iter().map(|(_, b)| b.len() as u64).sum();
    let uploaded = result["uploaded_bytes"].as_u64().unwrap();
    assert!(
        uploaded < total,
        "only the missing bytes went up again: {uploaded} of {total}"
    );
    assert!(
        result["already_staged"].as_u64().unwrap() >= before as u64,
        "{result}"
    );
    assert!(
        statuses(&result).iter().all(|(_, s)| s == "created"),
        "{result}"
    );
    assert!(
        !dir.join(".stone/pushes/local/b.json").exists(),
        "a finished push leaves no resume state"
    );
    let table = read_table(data.path(), "resume.t", "b");
    assert_eq!(table["row_count"], 3, "no duplicate rows: {table}");
}

#[test]
fn a_saved_push_the_server_expired_is_started_anew() {
    // The server's garbage collection sweeps every second and expires a push left
    // uncommitted for 2 s, with the contents it staged.
    let (ctx, server, data) = with_server_config(
        "[gc]\ninterval_seconds = 1\npush_expiry_seconds = 2\nstaged_content_seconds = 1\nmultipart_seconds = 1\n",
    );
    let (dir, blobs) = interrupted_push(&ctx, &server, data.path(), "expiry", 2);
    let saved: Value = serde_json::from_slice(
        &std::fs::read(dir.join(".stone/pushes/local/b.json")).expect("the push ID was saved"),
    )
    .unwrap();
    let push_id = saved["push_id"]
        .as_str()
        .expect("a saved push ID")
        .to_owned();

    // The server expires it and sweeps what it staged.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let answer = stone_test::services::agent()
            .get(&format!("{}/pushes/{push_id}", server.api()))
            .call()
            .unwrap();
        if answer.status() == 410 && staged(data.path()) == 0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "push {push_id} did not expire and go within 30 s ({}, {} staged):\n{}",
            answer.status(),
            staged(data.path()),
            server.log_tail(30)
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }

    // The same command again: the saved push is expired, so a new one uploads it all.
    let result = push(&ctx, &dir, &["--branch", "b"]);
    assert_ne!(
        result["push_id"].as_str(),
        Some(push_id.as_str()),
        "{result}"
    );
    let total: u64 = blobs.iter().map(|(_, b)| b.len() as u64).sum();
    assert!(
        result["uploaded_bytes"].as_u64().unwrap() >= total,
        "everything went up again: {result}"
    );
    assert!(
        statuses(&result).iter().all(|(_, s)| s == "created"),
        "{result}"
    );
    assert!(!dir.join(".stone/pushes/local/b.json").exists());
    let table = read_table(data.path(), "expiry.t", "b");
    assert_eq!(table["row_count"], 3, "{table}");
}

#[test]
fn a_server_that_fails_for_a_while_is_outlasted() {
    use stone_test::services::{Fault, FaultProxy};
    let (ctx, server, data) = with_server();
    // Between client and API: a proxy that refuses and drops the first connections
    // (a fake network, for faults the real server does not produce on demand).
    let target: std::net::SocketAddr = server.url().trim_start_matches("http://").parse().unwrap();
    let faults = vec![
        Fault::Unavailable,
        Fault::Drop,
        Fault::TooManyRequests { retry_after: 1 },
        Fault::Unavailable,
        Fault::Drop,
    ];
    let proxy = FaultProxy::start(target, faults);
    let mut ctx = ctx;
    ctx.add_env("flaky", "flaky.test", &format!("{}/v1", proxy.url()));
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:flaky\"}\nresources: [{path: t.csv}]\n",
        &[("t.csv", b"x\n1\n2\n")],
    );
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "flaky", "--branch", "b", "--json",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    assert_eq!(proxy.injected(), 5, "every fault was met");
    assert!(
        crate::stderr(&out).contains("retrying"),
        "the retries are shown: {}",
        crate::stderr(&out)
    );
    assert_eq!(read_table(data.path(), "flaky.t", "b")["row_count"], 2);

    // A server that stays away: the push stops, resumable, with exit code 5.
    drop(server);
    ctx.set_var("STONE_HTTP_RETRIES", "2");
    std::fs::write(dir.join("t.csv"), "x\n1\n2\n3\n").unwrap();
    let out = ctx
        .stone()
        .args(["package", "push", "--env", "flaky", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5), "{}", crate::stderr(&out));
    assert!(crate::stderr(&out).contains("run the same command again"));
}

#[test]
fn an_upload_the_server_keeps_failing_says_its_last_answer_and_the_rerun_completes() {
    let (mut ctx, _server, data) = with_server();
    // A real fault of the server's own disk: its staging directory for incoming uploads
    // is a file, so every upload fails there (500) until an operator repairs it.
    let incoming = data.path().join("staging/incoming");
    std::fs::remove_dir_all(&incoming).unwrap();
    std::fs::write(&incoming, "not a directory").unwrap();
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:broken\"}\nresources: [{path: blob.bin}]\n",
        &[("blob.bin", &[3u8; 3000])],
    );
    ctx.set_var("STONE_HTTP_RETRIES", "1");
    let out = push_to_b(&ctx, &dir, &[]);
    let stderr = crate::stderr(&out);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the staging server kept failing; its last answer: HTTP 500")
            && stderr.contains("server.internal"),
        "the error says what the server answered: {stderr}"
    );
    assert_eq!(staged(data.path()), 0, "nothing was staged");

    std::fs::remove_file(&incoming).unwrap();
    std::fs::create_dir(&incoming).unwrap();
    let out = push_to_b(&ctx, &dir, &[]);
    assert!(out.status.success(), "{}", crate::stderr(&out));
    assert_eq!(staged(data.path()), 1, "the blob is staged once");
}

#[test]
fn an_unchanged_csv_is_converted_once() {
    let (ctx, _server, data) = with_server();
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:conv\"}\nresources: [{path: t.csv}]\n",
        &[("t.csv", b"x,y\n1,a\n2,b\n")],
    );
    let push = || {
        let out = push_to_b(&ctx, &dir, &[]);
        assert!(out.status.success(), "{}", crate::stderr(&out));
        crate::stderr(&out)
    };
    let parquets = || {
        std::fs::read_dir(dir.join(".stone/converted"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "parquet")
            })
            .count()
    };
    assert!(push().contains("converting t to Parquet"));
    assert_eq!(parquets(), 1);

    // The same bytes written again (a new mtime): the cached conversion is used.
    std::fs::write(dir.join("t.csv"), b"x,y\n1,a\n2,b\n").unwrap();
    let again = push();
    assert!(!again.contains("converting"), "converted again: {again}");
    assert_eq!(parquets(), 1);

    // Other bytes: converted again; the server appends the new file (2 + 3 rows).
    std::fs::write(dir.join("t.csv"), b"x,y\n1,a\n2,b\n3,c\n").unwrap();
    assert!(push().contains("converting t to Parquet"));
    assert_eq!(parquets(), 2);
    assert_eq!(read_table(data.path(), "conv.t", "b")["row_count"], 5);
}

/// A server whose staging URLs live 3 s and go through a fault proxy that holds the
/// first upload connection 4.5 s: a slow network, which the real programs do not produce
/// on demand. The URLs of the first uploads expire before they arrive.
pub(crate) fn with_slow_staging() -> (
    stone_test::services::FaultProxy,
    TestContext,
    StoneServer,
    tempfile::TempDir,
) {
    use stone_test::services::{Fault, FaultProxy};
    let proxy = FaultProxy::start(
        "127.0.0.1:9".parse().unwrap(),
        vec![Fault::Delay { millis: 4500 }],
    );
    let (ctx, server, data) = with_server_config(&format!(
        "[staging]\nbase_url = \"{}\"\nurl_ttl_seconds = 3\n",
        proxy.url()
    ));
    proxy.set_target(server.url().trim_start_matches("http://").parse().unwrap());
    (proxy, ctx, server, data)
}

#[test]
fn staging_urls_that_expire_before_the_upload_arrives_are_renewed() {
    // Uploads cross a proxy that holds the first connection 4.5 s, longer than the URLs'
    // 3 s life: a slow network, which the real programs do not produce on demand.
    let (proxy, ctx, _server, data) = with_slow_staging();
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:slow\"}\nresources: [{path: blob.bin}]\n",
        &[("blob.bin", &[5u8; 4000])],
    );
    let out = push_to_b(&ctx, &dir, &["--jobs", "1"]);
    let stderr = crate::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(proxy.injected(), 1, "the delay was met");
    assert!(
        stderr.contains("staging URLs expired: asking for fresh ones"),
        "the renewal is shown: {stderr}"
    );
    assert_eq!(staged(data.path()), 1);
}

#[test]
fn large_files_go_up_in_parts() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    // 1 MiB parts (the smallest the server takes is its own business; the default is 64 MiB).
    let config = format!("public_host = \"{HOST}\"\n[staging]\npart_size = 1048576\n");
    let server = StoneServer::start(data.path(), Some(&config), &[]);
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let big: Vec<u8> = (0..(3 * (1 << 20) + 12345))
        .map(|i: u32| (i % 251) as u8)
        .collect();
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:parts\"}\nresources: [{path: big.bin}]\n",
        &[("big.bin", &big)],
    );
    let result = push(&ctx, &dir, &["--branch", "b"]);
    assert_eq!(
        statuses(&result),
        [("stone:parts/big".into(), "created".into())]
    );
    assert_eq!(result["uploaded_bytes"], big.len() as u64);
    let sha = stone_package::digest::sha256_hex(&big);
    let stored = std::fs::read(data.path().join("blobs/parts/big/b/objects").join(&sha)).unwrap();
    assert!(
        stored == big,
        "the parts were assembled into the same bytes"
    );
}

#[test]
fn following_a_commit_asks_only_for_what_changed() {
    // The push's answer lists every dataset with the server's change number: the client
    // follows the commit from there (`?since=`), never asking for the whole list again,
    // and still ends with every dataset's outcome.
    let (ctx, server, _data) = with_server();
    let dir = ctx.package(
        "many",
        "publish: {to: \"stone:follow\"}\nresources:\n  - path: a.bin\n  - path: b.bin\n  - path: c.bin\n",
        &[("a.bin", b"a"), ("b.bin", b"bb"), ("c.bin", b"ccc")],
    );
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", "dev", "--json", "-v",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).expect("JSON result");
    assert_eq!(
        statuses(&result),
        [
            ("stone:follow/a".into(), "created".into()),
            ("stone:follow/b".into(), "created".into()),
            ("stone:follow/c".into(), "created".into()),
        ],
        "server log:\n{}",
        server.log_tail(30)
    );
    let log = crate::stderr(&out);
    let polls: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("GET ") && line.contains("/pushes/"))
        .collect();
    assert!(!polls.is_empty(), "the commit was followed:\n{log}");
    assert!(
        polls.iter().all(|line| line.contains("?since=")),
        "every poll asks for changes only:\n{}",
        polls.join("\n")
    );
}

/// Snapshot expiry (`[retention]`) on an unprotected branch: the push says what it
/// expired, in its summary line and in `--json`.
#[test]
fn a_push_reports_the_snapshots_it_expired() {
    let (ctx, _server, data) = with_server_config("[retention]\nmax_snapshot_age_seconds = 0\n");
    let dir = ctx.package(
        "p",
        "publish: {to: \"stone:expiry\"}\nresources: [{path: t.csv}]\n",
        &[("t.csv", b"x,y\n1,a\n")],
    );
    let push_human = || {
        let out = push_to_b(&ctx, &dir, &[]);
        assert!(out.status.success(), "{}", crate::stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The first push has nothing to expire, and says so.
    let first = push_human();
    assert!(
        first.contains("Snapshot expiry: 0 snapshots of 1 tables expired, 0 files deleted"),
        "{first}"
    );
    // Each later push expires the snapshot before its new head (the manifest list goes;
    // the data files are all still read by the head).
    std::fs::write(dir.join("t.csv"), b"x,y\n2,b\n").unwrap();
    let second = push_human();
    assert!(
        second.contains("Snapshot expiry: 1 snapshots of 1 tables expired, 1 files deleted"),
        "{second}"
    );
    std::fs::write(dir.join("t.csv"), b"x,y\n3,c\n").unwrap();
    let result = push(&ctx, &dir, &["--branch", "b"]);
    let detail = &result["datasets"][0]["detail"];
    assert_eq!(detail["expired_snapshots"], 1, "{result:#}");
    assert_eq!(detail["expired_files"], 1, "{result:#}");
    let read = read_table(data.path(), "expiry.t", "b");
    assert_eq!(read["row_count"], 3, "{read:#}");
}

/// Pushing an edited CSV again appends all of its rows (the specification's append): the
/// summary says how many rows each table got and has now, and the hint names `--replace`
/// (issue 55, item 17: 6 rows became 13 without a word).
#[test]
fn the_summary_says_a_push_appended_rows_and_how_to_replace() {
    let (ctx, _server, _data) = with_server();
    let dir = ctx.package(
        "appending",
        "name: appending\npublish: {to: \"stone:appends\"}\nresources:\n  - path: cities.csv\n  - path: notes.txt\n",
        &[
            ("cities.csv", b"city,population\nParis,2102650\nLyon,522250\n"),
            ("notes.txt", b"notes"),
        ],
    );
    let push = |extra: &[&str]| {
        let out = ctx
            .stone()
            .args(["package", "push", "--env", "local", "--branch", "dev"])
            .args(extra)
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::stderr(&out));
        crate::stdout(&out)
    };
    let first = push(&[]);
    assert!(
        !first.contains("appended"),
        "a first push creates:\n{first}"
    );

    // The file edited (one row more) and pushed again: its three rows are added.
    std::fs::write(
        dir.join("cities.csv"),
        "city,population\nParis,2102650\nLyon,522250\nLille,236234\n",
    )
    .unwrap();
    let again = push(&[]);
    assert!(
        again.contains("A push appends a table's rows to those already on the branch:")
            && again.contains("  stone:appends/cities: appended 3 rows (5 rows now)"),
        "{again}"
    );
    assert!(
        again.contains("hint: ") && again.contains("push with --replace"),
        "{again}"
    );
    // Only tables are told about: the unchanged text file is not.
    assert!(!again.contains("stone:appends/notes: appended"), "{again}");

    let replaced = push(&["--replace"]);
    assert!(
        !replaced.contains("appended") && replaced.contains("replaced"),
        "{replaced}"
    );
}

/// A dataset's page (its IRI in a browser) and its namespace's page show the resource's
/// `title` and `description` from datasets.yaml, not the slug only (issue 55, item 16: the
/// client did not send them).
#[test]
fn dataset_and_namespace_pages_show_the_titles_of_datasets_yaml() {
    let (ctx, server, _data) = with_server();
    let dir = ctx.package(
        "titled",
        "name: titled\ntitle: Towns of Europe\ndescription: Where people live.\npublish: {to: \"stone:towns\", public: true}\nresources:\n  - path: big.csv\n    title: Big cities\n    description: Cities of more than a million people.\n  - path: small.csv\n    metadata: {title: Its own title}\n    title: Not this one\n",
        &[
            ("big.csv", b"city,population\nParis,2102650\n"),
            ("small.csv", b"city,population\nLille,236234\n"),
        ],
    );
    push(&ctx, &dir, &["--branch", "dev"]);
    let page = |path: &str| {
        let response = stone_test::services::agent()
            .get(&format!("{}{path}", server.url()))
            .header("accept", "text/html")
            .call()
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        response.into_body().read_to_string().unwrap()
    };

    let big = page("/towns/big?branch=dev");
    assert!(big.contains("<h1>Big cities</h1>"), "{big}");
    assert!(
        big.contains("<p>Cities of more than a million people.</p>"),
        "{big}"
    );
    // The resource's own `metadata.title` is the user's word: it wins.
    let small = page("/towns/small?branch=dev");
    assert!(small.contains("<h1>Its own title</h1>"), "{small}");

    let namespace = page("/towns?branch=dev");
    assert!(
        namespace.contains("<h1>Towns of Europe</h1>"),
        "{namespace}"
    );
    assert!(
        namespace.contains("<p>Where people live.</p>"),
        "{namespace}"
    );
    assert!(namespace.contains("<td>Big cities</td>"), "{namespace}");
}
