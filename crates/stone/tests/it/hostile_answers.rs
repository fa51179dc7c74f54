//! Hostile answers: every answer the client parses is read up to a byte cap and with a
//! read timeout (`stone-http`), whoever sends it: the dataset metadata and error bodies of
//! `stone data import`, the issuer's documents at login, the previous `datapackage.json` of
//! a blob-store push. And a package whose table does not parse is refused before anything
//! is sent, naming the file, line and column.
//!
//! The hostile servers are the FAKE of `hostile.rs` (a small HTTP server in the test): the
//! real `stone-server` never sends a 256 MiB answer, nor stops answering on purpose.

use std::io::Write as _;
use std::net::TcpStream;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use stone_test::TestContext;

use crate::hostile::{FakeServer, Seen, assert_clear_error, respond, rss_kib, run_bounded};
use crate::push_e2e::{staged, with_server};

/// Runs `cmd` to its end (killed after `limit`: a hang is a failure), watching its peak
/// resident set (KiB).
pub(crate) fn run_watched(cmd: &mut Command, limit: Duration) -> (Output, u64) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stone runs");
    let start = Instant::now();
    let mut peak = 0;
    loop {
        if let Some(rss) = rss_kib(child.id()) {
            peak = peak.max(rss);
        }
        if child.try_wait().expect("wait").is_some() {
            return (child.wait_with_output().expect("output"), peak);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "stone did not finish within {limit:?} (a hang):\n{}",
                crate::stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The peak memory a run may reach: the CLI itself, a 16 MiB answer and some slack. A run
/// that buffers the 256 MiB answers below goes far past it.
const PEAK_KIB: u64 = 120 * 1024;

/// Answers `status` with 256 MiB of JSON-looking bytes and no length, until the client
/// hangs up.
fn flood(stream: &mut TcpStream, status: &str) {
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n[\"x\""
    );
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = ",\"x\"".repeat(1 << 18);
    for _ in 0..256 {
        if stream.write_all(chunk.as_bytes()).is_err() {
            return;
        }
    }
    let _ = stream.write_all(b"]");
}

/// A context whose `local` environment's API is `server`, with a consumer package.
fn importer(server: &FakeServer) -> (TestContext, std::path::PathBuf) {
    let mut ctx = crate::context();
    ctx.add_env(
        "local",
        "data.test",
        &format!("http://127.0.0.1:{}/v1", server.port),
    );
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let dir = ctx.package(
        "consumer",
        "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: notes.csv\n",
        &[("notes.csv", b"note\nhello\n")],
    );
    (ctx, dir)
}

fn import(ctx: &TestContext, dir: &std::path::Path, source: &str) -> Command {
    let mut cmd = ctx.stone();
    cmd.args(["data", "import", source, "--env", "local"])
        .arg(dir);
    cmd
}

#[test]
fn import_reads_dataset_metadata_within_a_cap() {
    let server = FakeServer::start(
        "127.0.0.1",
        Arc::new(|_: &Seen, s: &mut TcpStream| flood(s, "200 OK")),
    );
    let (ctx, dir) = importer(&server);
    let (out, peak) = run_watched(
        &mut import(&ctx, &dir, "stone:demo/big"),
        Duration::from_secs(120),
    );
    assert_clear_error(&out, "dataset metadata larger than 16 MiB");
    assert!(peak < PEAK_KIB, "the import grew to {peak} KiB");
}

#[test]
fn import_reads_an_error_body_within_a_cap() {
    let server = FakeServer::start(
        "127.0.0.1",
        Arc::new(|_: &Seen, s: &mut TcpStream| flood(s, "404 Not Found")),
    );
    let (ctx, dir) = importer(&server);
    let (out, peak) = run_watched(
        &mut import(&ctx, &dir, "stone:demo/big"),
        Duration::from_secs(120),
    );
    assert_clear_error(&out, "an error body larger than 64 KiB (not read)");
    assert!(peak < PEAK_KIB, "the import grew to {peak} KiB");
}

#[test]
fn import_from_a_server_that_never_answers_times_out() {
    let server = FakeServer::start(
        "127.0.0.1",
        // Reads the request, then holds the connection without a word.
        Arc::new(|_: &Seen, _: &mut TcpStream| std::thread::sleep(Duration::from_secs(300))),
    );
    let (mut ctx, dir) = importer(&server);
    ctx.set_var("STONE_HTTP_READ_TIMEOUT", "2");
    // A hang is killed after 60 s (and fails the test); the timeout ends it long before.
    let out = run_bounded(
        &mut import(&ctx, &dir, "stone:demo/silent"),
        Duration::from_secs(60),
    );
    assert_clear_error(&out, "timed out");
}

#[test]
fn login_reads_the_issuer_documents_within_a_cap() {
    let port = Arc::new(std::sync::OnceLock::<u16>::new());
    let issuer_port = port.clone();
    let server = FakeServer::start(
        "127.0.0.1",
        Arc::new(move |seen: &Seen, s: &mut TcpStream| {
            if seen.path.ends_with("/info") {
                let issuer = format!("http://127.0.0.1:{}", issuer_port.get().unwrap());
                let info = serde_json::json!({
                    "server_version": "0.0.0-fake",
                    "api_version": "1",
                    "public_host": "data.test",
                    "protected_refs": [],
                    "auth_mode": "oidc",
                    "oidc": {"issuer": issuer, "audience": "https://data.test/api",
                             "roles_claim": "roles",
                             "step_up": {"acr_values": [], "max_age": 600}},
                    "staging": {"store": "local", "part_size": 8388608, "url_ttl_seconds": 3600}
                });
                respond(
                    s,
                    "200 OK",
                    &[("content-type", "application/json")],
                    info.to_string().as_bytes(),
                );
            } else {
                // The discovery document: 256 MiB.
                flood(s, "200 OK");
            }
        }),
    );
    port.set(server.port).unwrap();
    let (mut ctx, _) = importer(&server);
    ctx.set_var("STONE_NO_BROWSER", "1");
    let (out, peak) = run_watched(
        ctx.stone().args(["login", "--env", "local"]),
        Duration::from_secs(120),
    );
    assert_clear_error(&out, "larger than 1 MiB");
    assert!(peak < PEAK_KIB, "the login grew to {peak} KiB");
    assert!(
        server
            .seen()
            .iter()
            .any(|r| r.path.contains("/.well-known/openid-configuration")),
        "{:?}",
        server.seen()
    );
}

#[test]
fn a_blob_store_push_reads_the_previous_descriptor_within_a_cap() {
    let ctx = crate::context();
    let dir = ctx.package(
        "pkg",
        "name: demo\npublish: {to: \"stone:demo\"}\nresources:\n  - path: a.bin\n",
        &[("a.bin", b"one blob")],
    );
    let store = ctx.root().join("store/demo");
    std::fs::create_dir_all(&store).unwrap();
    // 200 MiB of a previous descriptor (the destination may hold anything; sparse here:
    // the size alone refuses it).
    let descriptor = std::fs::File::create(store.join("datapackage.json")).unwrap();
    descriptor.set_len(200 << 20).unwrap();
    let out = run_bounded(
        ctx.stone()
            .args(["package", "push", "--env", "dev", "--to"])
            .arg(format!("file://{}", store.display()))
            .arg(&dir),
        Duration::from_secs(120),
    );
    assert_clear_error(&out, "larger than 128 MiB");
    assert!(
        !store.join("a.bin").exists(),
        "nothing is uploaded after the refusal"
    );
}

#[test]
fn a_table_that_does_not_parse_is_refused_before_anything_is_sent() {
    let (ctx, _server, data) = with_server();
    let dir = ctx.package(
        "broken",
        "publish: {to: \"stone:e2e\"}\nresources:\n  - path: blob.bin\n  - path: t.csv\n",
        &[
            ("blob.bin", b"a blob that must not be uploaded"),
            // Before the fix: one row whose `name` held the rest of the file, exit 0.
            ("t.csv", b"id,name\n1,ok\n2,\"never closed\n3,lost\n"),
        ],
    );
    let out = run_bounded(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "b"])
            .arg(&dir),
        Duration::from_secs(120),
    );
    assert_clear_error(
        &out,
        "t.csv: line 3, column 3: a quoted field opens here and is never closed",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(staged(data.path()), 0, "nothing was staged");
}

#[test]
fn a_table_of_the_wrong_shape_is_refused_naming_line_and_column_before_anything_is_sent() {
    let (ctx, _server, data) = with_server();
    let dir = ctx.package(
        "ragged",
        "publish: {to: \"stone:e2e\"}\nresources:\n  - path: blob.bin\n  - path: t.csv\n",
        &[
            ("blob.bin", b"a blob that must not be uploaded"),
            // The third record spans lines 3 and 4; its extra field starts on line 4,
            // column 8. Before the fix: "line 3" (a record count) and no column.
            ("t.csv", b"id,name\n1,ok\n2,\"two\nlines\",extra\n"),
        ],
    );
    let out = run_bounded(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "b"])
            .env_remove("STONE_CSV_MAX_RECORD_BYTES")
            .arg(&dir),
        Duration::from_secs(120),
    );
    assert_clear_error(
        &out,
        "t.csv: line 4, column 8: the record has 3 fields, more than the table's 2 columns",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(staged(data.path()), 0, "nothing was staged");
}

#[test]
fn the_csv_record_cap_is_read_from_the_environment() {
    let (ctx, _server, data) = with_server();
    let dir = ctx.package(
        "long",
        "publish: {to: \"stone:e2e\"}\nresources:\n  - path: t.csv\n",
        &[(
            "t.csv",
            b"id,name\n1,ok\n2,a record of forty bytes or so........\n",
        )],
    );
    let push = |cap: &str| {
        run_bounded(
            ctx.stone()
                .args(["package", "push", "--env", "local", "--branch", "b"])
                .env("STONE_CSV_MAX_RECORD_BYTES", cap)
                .arg(&dir),
            Duration::from_secs(120),
        )
    };
    let out = push("32");
    assert_clear_error(
        &out,
        "t.csv: line 3, column 1: the record starting here is longer than 32 bytes",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(staged(data.path()), 0, "nothing was staged");
    let out = push("many");
    assert_clear_error(
        &out,
        "$STONE_CSV_MAX_RECORD_BYTES must be a positive whole number",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = push("1048576");
    assert!(out.status.success(), "{}", crate::stderr(&out));
}
