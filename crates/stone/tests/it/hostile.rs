//! Hostile input and hostile peers: packages that try to escape their folder or exhaust
//! the loader, and push API servers that redirect, flood or lie. Each case must end in a
//! clear error (or a correct result), never a panic (exit 101) or a hang.
//!
//! The hostile servers are a small HTTP server written here: a FAKE, because the real
//! `stone-server` never redirects, never sends a 100 MB answer and never hands out
//! `file://` upload URLs; these faults cannot be caused with it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use stone_test::TestContext;

use crate::{context_with_prod, stderr, stdout};

/// Runs `cmd`, killing it after `limit` (a hang is a failure, not a stuck test).
pub(crate) fn run_bounded(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stone runs");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "stone did not finish within {limit:?} (a hang):\n{}",
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A clear error: not a success, not a panic, an `error:` line, no backtrace.
pub(crate) fn assert_clear_error(out: &Output, expected: &str) {
    let err = stderr(out);
    assert!(
        !out.status.success(),
        "unexpected success:\n{}",
        stdout(out)
    );
    assert_ne!(out.status.code(), Some(101), "a panic:\n{err}");
    assert!(out.status.code().is_some(), "killed by a signal:\n{err}");
    assert!(err.lines().any(|l| l.starts_with("error: ")), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(expected), "expected {expected:?} in:\n{err}");
}

pub(crate) fn dry_run(ctx: &TestContext, dir: &Path) -> Output {
    run_bounded(
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "x"])
            .arg(dir),
        Duration::from_secs(60),
    )
}

pub(crate) fn descriptor(resource_path: &str) -> String {
    format!(
        "name: hostile\npublish: {{to: \"stone:demo\"}}\nresources:\n  - path: {resource_path}\n"
    )
}

#[test]
fn paths_out_of_the_package_are_refused() {
    let ctx = context_with_prod();
    for (path, expected) in [
        ("../secret.csv", "uses `..`"),
        ("/etc/passwd", "is absolute"),
        ("ext/../../secret.csv", "uses `..`"),
        ("dir/../../secret.csv", "uses `..`"),
    ] {
        std::fs::write(ctx.root().join("secret.csv"), "x\n1\n").unwrap();
        let dir = ctx.package(
            "p",
            &descriptor(&format!("{path:?}")),
            &[("a.csv", b"x\n1\n")],
        );
        let out = dry_run(&ctx, &dir);
        assert_clear_error(&out, expected);
        assert!(stderr(&out).contains("hint: "), "{}", stderr(&out));
    }
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_package_are_refused() {
    let ctx = context_with_prod();
    let outside = ctx.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.csv"), "x\n1\n").unwrap();

    // A file symlink as the resource.
    let dir = ctx.package("file-link", &descriptor("link.csv"), &[]);
    std::os::unix::fs::symlink(outside.join("secret.csv"), dir.join("link.csv")).unwrap();
    assert_clear_error(&dry_run(&ctx, &dir), "points outside the package");

    // A directory resource holding a symlink to a directory outside.
    let dir = ctx.package("dir-link", &descriptor("data"), &[("data/ok.txt", b"ok")]);
    std::os::unix::fs::symlink("../../outside", dir.join("data/escape")).unwrap();
    assert_clear_error(&dry_run(&ctx, &dir), "points outside the package");

    // A relative file symlink climbing out from a subdirectory.
    let dir = ctx.package("rel-link", &descriptor("data"), &[("data/ok.txt", b"ok")]);
    std::os::unix::fs::symlink("../../outside/secret.csv", dir.join("data/s.csv")).unwrap();
    assert_clear_error(&dry_run(&ctx, &dir), "points outside the package");
}

#[test]
fn enormous_yaml_is_refused_without_reading_it_whole() {
    let ctx = context_with_prod();
    let mut text = descriptor("a.csv");
    text.push_str("metadata:\n  blob: \"");
    text.push_str(&"x".repeat(50 << 20));
    text.push_str("\"\n");
    let dir = ctx.package("big", &text, &[("a.csv", b"x\n1\n")]);
    let out = dry_run(&ctx, &dir);
    assert_clear_error(&out, "the limit is");
}

#[test]
fn deeply_nested_yaml_ends_in_an_error_not_a_stack_overflow() {
    let ctx = context_with_prod();
    for (open, close, expected) in [
        ("[", "]", "recursion limit exceeded"),
        ("{a: ", "}", "nesting deeper than 64 levels"),
    ] {
        let mut text = descriptor("a.csv");
        text.push_str("metadata: ");
        text.push_str(&open.repeat(100_000));
        text.push_str(&close.repeat(100_000));
        text.push('\n');
        let dir = ctx.package("deep", &text, &[("a.csv", b"x\n1\n")]);
        assert_clear_error(&dry_run(&ctx, &dir), expected);
    }
    // A block-style nesting, one level per line.
    let mut text = descriptor("a.csv");
    text.push_str("metadata:\n");
    for depth in 1..5_000 {
        text.push_str(&" ".repeat(depth));
        text.push_str("k:\n");
    }
    let dir = ctx.package("deep-block", &text, &[("a.csv", b"x\n1\n")]);
    let out = dry_run(&ctx, &dir);
    assert_ne!(out.status.code(), Some(101), "{}", stderr(&out));
    assert!(out.status.code().is_some(), "killed: {}", stderr(&out));
}

#[test]
fn an_alias_bomb_is_refused() {
    let ctx = context_with_prod();
    let mut text = descriptor("a.csv");
    text.push_str("metadata:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        text.push_str(&format!("  a{i}: &a{i} [{refs}]\n"));
    }
    let dir = ctx.package("bomb", &text, &[("a.csv", b"x\n1\n")]);
    assert_clear_error(&dry_run(&ctx, &dir), "anchors and aliases");
}

#[cfg(unix)]
#[test]
fn names_with_control_characters_or_invalid_utf8_are_refused_escaped() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let ctx = context_with_prod();
    for (name, shown) in [
        (&b"a\nb.txt"[..], "\"a\\nb.txt\""),
        (&b"\x1b[31mred"[..], "\\u{1b}[31mred"),
        (&b"bad\xff.bin"[..], "\"bad\\xFF.bin\""),
        (&b"bell\x07"[..], "\\u{7}"),
    ] {
        let dir = ctx.package("names", &descriptor("data"), &[("data/ok.txt", b"ok")]);
        let file = dir.join("data").join(OsStr::from_bytes(name));
        std::fs::write(&file, b"x").unwrap();

        let out = dry_run(&ctx, &dir);
        assert_clear_error(&out, shown);
        // Nothing raw reaches the terminal: no escape, no bell, no broken line.
        let err = stderr(&out);
        assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
        assert!(!err.contains("a\nb"), "{err:?}");

        // The JSON output stays valid JSON, with the name escaped inside it.
        let json = run_bounded(
            ctx.stone()
                .args(["package", "push", "--dry-run", "--json", "--branch", "x"])
                .arg(&dir),
            Duration::from_secs(60),
        );
        assert_ne!(json.status.code(), Some(101));
        let value: serde_json::Value =
            serde_json::from_slice(&json.stdout).expect("--json output is JSON");
        let code = value["error"]["code"].as_str().unwrap_or_default();
        assert!(code.starts_with("package."), "{value:#}");
        assert!(
            value["error"]["causes"][0]
                .as_str()
                .is_some_and(|cause| cause.contains(shown)),
            "{value:#}"
        );
        assert!(!stdout(&json).contains('\x1b'));
        std::fs::remove_file(&file).unwrap();
    }
}

/// The resident set of a running process, in KiB (Linux `/proc`).
pub(crate) fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A 10 GiB sparse file: the dry run hashes it as a stream, in bounded memory. Hashing all
/// of it takes minutes on a slow machine (RELIABILITY.md has a full run); the test watches
/// the first 10 seconds of it, then stops it.
#[cfg(target_os = "linux")]
#[test]
fn a_10_gib_sparse_file_is_hashed_in_bounded_memory() {
    let ctx = context_with_prod();
    let dir = ctx.package("sparse", &descriptor("huge.bin"), &[]);
    let file = std::fs::File::create(dir.join("huge.bin")).unwrap();
    file.set_len(10 << 30).unwrap();
    drop(file);

    let mut child = ctx
        .stone()
        .args(["package", "push", "--dry-run", "--branch", "x"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut peak = 0;
    let mut samples = 0;
    while start.elapsed() < Duration::from_secs(10) {
        if let Some(status) = child.try_wait().unwrap() {
            // A fast machine may hash all of it in time: then it must have succeeded.
            assert!(
                status.success(),
                "dry run of the sparse file failed: {status}"
            );
            break;
        }
        if let Some(rss) = rss_kib(child.id()) {
            peak = peak.max(rss);
            samples += 1;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(samples > 10, "the dry run ended too soon to be watched");
    assert!(
        peak < 200 * 1024,
        "the dry run of a 10 GiB file grew to {peak} KiB: it is not streaming"
    );
}

// ---------------------------------------------------------------------------------------
// Hostile servers (a fake: see the module comment).

/// One request the fake server received.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: Vec<(String, String)>,
}

pub(crate) type Handler = dyn Fn(&Seen, &mut TcpStream) + Send + Sync;

/// A tiny HTTP/1.1 server: one request per connection, answered by `handler`.
pub(crate) struct FakeServer {
    pub(crate) port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl FakeServer {
    pub(crate) fn start(ip: &str, handler: Arc<Handler>) -> FakeServer {
        let listener = TcpListener::bind((ip, 0)).expect("bind the fake server");
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let log = log.clone();
                let handler = handler.clone();
                std::thread::spawn(move || {
                    let Some(request) = read_request(&mut stream) else {
                        return;
                    };
                    log.lock().unwrap().push(request.clone());
                    handler(&request, &mut stream);
                });
            }
        });
        FakeServer { port, seen }
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Seen> {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
        if name == "content-length" {
            length = value.parse().ok()?;
        }
        headers.push((name, value));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Seen {
        method,
        path,
        headers,
    })
}

pub(crate) fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!(
        "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

const TOKEN: &str = "hostile-test-token-5f2c1e";

/// An OIDC server's info: stone sends `STONE_TOKEN` with every API call.
fn info() -> String {
    serde_json::json!({
        "server_version": "0.0.0-fake",
        "api_version": "1",
        "public_host": "data.test",
        "protected_refs": [],
        "auth_mode": "oidc",
        "oidc": {
            "issuer": "https://issuer.invalid",
            "audience": "https://data.test/api",
            "roles_claim": "roles",
            "step_up": {"acr_values": ["mfa"], "max_age": 600}
        },
        "staging": {"store": "local", "part_size": 8388608, "url_ttl_seconds": 3600}
    })
    .to_string()
}

/// The fake push API: `GET /info` answered as an OIDC server's, every other request by
/// `other`.
pub(crate) fn fake_api(
    other: impl Fn(&Seen, &mut TcpStream) + Send + Sync + 'static,
) -> FakeServer {
    FakeServer::start(
        "127.0.0.1",
        Arc::new(move |seen: &Seen, s: &mut TcpStream| {
            if seen.path.ends_with("/info") {
                respond(
                    s,
                    "200 OK",
                    &[("content-type", "application/json")],
                    info().as_bytes(),
                );
            } else {
                other(seen, s);
            }
        }),
    )
}

/// Answers every request with `status` and the JSON `body`.
pub(crate) fn json_answer(status: &'static str, body: Vec<u8>) -> impl Fn(&Seen, &mut TcpStream) {
    move |_: &Seen, s: &mut TcpStream| {
        respond(s, status, &[("content-type", "application/json")], &body)
    }
}

/// A `POST /pushes` answer asking for `upload_url`.
fn created(sha256: &str, size: u64, upload_url: &str) -> String {
    serde_json::json!({
        "push_id": "p-1",
        "state": "staging",
        "uploads": [{
            "sha256": sha256, "size": size, "method": "PUT", "url": upload_url,
            "headers": {}, "expires_at": "2099-01-01T00:00:00Z"
        }],
        "already_staged": [],
        "datasets": []
    })
    .to_string()
}

/// A context whose `local` environment is the fake server, and a one-blob package.
pub(crate) fn against(server: &FakeServer) -> (TestContext, PathBuf) {
    let mut ctx = crate::context();
    ctx.add_env(
        "local",
        "data.test",
        &format!("http://127.0.0.1:{}/v1", server.port),
    );
    ctx.set_var("STONE_TOKEN", TOKEN);
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let dir = ctx.package(
        "p",
        "name: p\npublish: {to: \"stone:demo\"}\nresources:\n  - path: blob.bin\n",
        &[("blob.bin", b"hostile servers get nothing")],
    );
    (ctx, dir)
}

pub(crate) fn push(ctx: &TestContext, dir: &Path) -> Output {
    run_bounded(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "x"])
            // The most verbose logging there is (stone has no --verbose flag).
            .env("STONE_LOG", "trace")
            .arg(dir),
        Duration::from_secs(90),
    )
}

fn assert_no_token(out: &Output) {
    assert!(
        !stderr(out).contains(TOKEN) && !stdout(out).contains(TOKEN),
        "the token is in the output:\n{}",
        stderr(out)
    );
}

#[test]
fn a_redirect_to_another_host_is_not_followed_with_the_token() {
    // The other host: 127.0.0.2 (another address; only loopback is reachable here).
    let elsewhere = FakeServer::start(
        "127.0.0.2",
        Arc::new(|_: &Seen, s: &mut TcpStream| respond(s, "200 OK", &[], b"{}")),
    );
    let target = format!("http://127.0.0.2:{}/steal", elsewhere.port);
    let api = fake_api(move |_: &Seen, s: &mut TcpStream| {
        respond(s, "307 Temporary Redirect", &[("location", &target)], b"")
    });
    let (ctx, dir) = against(&api);
    let out = push(&ctx, &dir);
    assert_clear_error(&out, "does not follow");
    assert_no_token(&out);
    assert!(
        elsewhere.seen().is_empty(),
        "the redirect was followed: {:?}",
        elsewhere.seen()
    );
    // The API itself did get the token (it is the API).
    let pushes: Vec<Seen> = api
        .seen()
        .into_iter()
        .filter(|r| r.method == "POST")
        .collect();
    assert!(!pushes.is_empty(), "{:?}", api.seen());
    assert!(
        pushes[0]
            .headers
            .iter()
            .any(|(n, v)| n == "authorization" && v == &format!("Bearer {TOKEN}"))
    );
}

#[test]
fn a_huge_answer_is_refused_in_bounded_memory() {
    let api = fake_api(|_: &Seen, s: &mut TcpStream| {
        // 200 MB of JSON, streamed without a length: the client must stop reading.
        let _ = s.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n[",
        );
        let chunk = "1,".repeat(1 << 19);
        for _ in 0..200 {
            if s.write_all(chunk.as_bytes()).is_err() {
                return;
            }
        }
        let _ = s.write_all(b"1]");
    });
    let (ctx, dir) = against(&api);
    let out = push(&ctx, &dir);
    assert_clear_error(&out, "larger than 16 MiB");
    assert_no_token(&out);
}

#[test]
fn malformed_json_is_an_error_naming_the_server() {
    let api = fake_api(json_answer(
        "201 Created",
        b"{\"push_id\": \"p-1\", \"uploads\": [tru".to_vec(),
    ));
    let (ctx, dir) = against(&api);
    let out = push(&ctx, &dir);
    assert_clear_error(&out, &format!("127.0.0.1:{}", api.port));
    assert!(
        stderr(&out).contains("not the expected JSON"),
        "{}",
        stderr(&out)
    );
    assert_no_token(&out);
}

#[test]
fn staging_urls_on_unexpected_schemes_are_refused_before_upload() {
    let sha256 = stone_package::digest::sha256_hex(b"hostile servers get nothing");
    for (url, expected) in [
        ("file:///etc/passwd".to_owned(), "the scheme `file`"),
        ("ftp://127.0.0.1/x".to_owned(), "the scheme `ftp`"),
        (
            "http://192.0.2.7/v1/staging/x?sig=SECRET".to_owned(),
            "not a loopback address",
        ),
        ("not a url".to_owned(), "not a URL"),
    ] {
        let answer = created(&sha256, 27, &url);
        let api = fake_api(json_answer("201 Created", answer.into_bytes()));
        let (ctx, dir) = against(&api);
        let start = Instant::now();
        let out = push(&ctx, &dir);
        assert_clear_error(&out, expected);
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "slow refusal: {url}"
        );
        // The signature of a presigned URL is not shown.
        assert!(!stderr(&out).contains("SECRET"), "{}", stderr(&out));
        assert_no_token(&out);
        // Nothing but the API calls reached the fake server: no upload, no commit.
        assert!(
            api.seen().iter().all(|r| !r.path.contains("commit")),
            "{:?}",
            api.seen()
        );
    }
}

#[test]
fn a_pack_url_on_an_unexpected_host_is_refused_before_upload() {
    // Issue 27: the answer's pack URL is checked as every upload URL is, before a byte is
    // read, even where no pack would be sent.
    let sha256 = stone_package::digest::sha256_hex(b"hostile servers get nothing");
    for (url, expected) in [
        (
            "http://192.0.2.7/v1/staging/pack?sig=SECRET",
            "not a loopback address",
        ),
        ("file:///etc/passwd", "the scheme `file`"),
    ] {
        let mut answer: serde_json::Value =
            serde_json::from_str(&created(&sha256, 27, "http://127.0.0.1:9/v1/staging/x")).unwrap();
        answer["pack"] = serde_json::json!({
            "url": url, "max_members": 1000, "max_bytes": 16777216,
            "max_member_size": 1048576, "expires_at": "2099-01-01T00:00:00Z"
        });
        let api = fake_api(json_answer("201 Created", answer.to_string().into_bytes()));
        let (ctx, dir) = against(&api);
        let out = push(&ctx, &dir);
        assert_clear_error(&out, expected);
        assert!(!stderr(&out).contains("SECRET"), "{}", stderr(&out));
        assert_no_token(&out);
        assert!(
            api.seen()
                .iter()
                .all(|r| r.method != "PUT" && !r.path.contains("commit")),
            "{:?}",
            api.seen()
        );
    }
}

// ---------------------------------------------------------------------------------------
// Following a commit (issue 27): what a server can make the client hold and how long. A
// fake again: the real `stone-server` never reports datasets a push does not have, nor
// keeps a commit going forever.

/// The push API of a push that stays `committing` forever: `POST /pushes` answers it, and
/// every poll answers `page(n)` for the n-th poll (its datasets, and whether another page
/// of the same change follows).
fn committing_forever(
    page: impl Fn(u64) -> (Vec<serde_json::Value>, bool) + Send + Sync + 'static,
) -> FakeServer {
    let polls = std::sync::atomic::AtomicU64::new(0);
    fake_api(move |seen: &Seen, s: &mut TcpStream| {
        let json = [("content-type", "application/json")];
        if seen.method == "POST" && seen.path.ends_with("/pushes") {
            let created = serde_json::json!({
                "push_id": "p-1", "state": "committing", "uploads": [],
                "already_staged": [], "datasets": []
            });
            respond(s, "201 Created", &json, created.to_string().as_bytes());
        } else if seen.method == "GET" && seen.path.contains("/pushes/p-1") {
            let n = polls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let (datasets, more) = page(n);
            let mut status = serde_json::json!({
                "push_id": "p-1", "state": "committing", "namespace": "demo",
                "branch": "x", "created_at": "2026-11-27T00:00:00Z",
                "updated_at": "2026-11-27T00:00:00Z", "datasets": datasets,
                "changes": n + 1,
                "package_node": {"url": "stone:demo", "iri": "https://data.test/demo"}
            });
            if more {
                status["after"] = serde_json::json!(n + 1);
            }
            respond(s, "200 OK", &json, status.to_string().as_bytes());
        } else {
            respond(s, "404 Not Found", &json, b"{}");
        }
    })
}

fn progress(name: &str, state: &str) -> serde_json::Value {
    serde_json::json!({
        "name": name, "url": format!("stone:demo/{name}"),
        "iri": format!("https://data.test/demo/{name}"),
        "kind": "BLOB", "engine": "object_storage", "state": state
    })
}

/// Pages of 10,000 dataset names never seen before, forever, each page another change
/// with more to come.
fn new_names(n: u64) -> (Vec<serde_json::Value>, bool) {
    let names = (0..10_000).map(|i| progress(&format!("x{n}-{i:05}"), "pending"));
    (names.collect(), true)
}

/// The client's peak on these (debug build): the CLI, a page of 10,000 datasets, the
/// datasets a `--replace` may delete (bounded) and slack. One that keeps every name it is
/// sent grows past it within seconds (about 6 MB a page), or hangs.
const FOLLOW_PEAK_KIB: u64 = 200 * 1024;

#[test]
fn a_server_paging_unknown_datasets_forever_is_refused_in_bounded_memory() {
    // Without `--replace`, a push writes only the package's datasets: the first other
    // name is an error.
    let api = committing_forever(new_names);
    let (ctx, dir) = against(&api);
    let start = Instant::now();
    let (out, peak) = crate::hostile_answers::run_watched(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--branch", "x"])
            .arg(&dir),
        Duration::from_secs(90),
    );
    assert_clear_error(&out, "which is not in the package");
    assert!(stderr(&out).contains("`x0-00000`"), "{}", stderr(&out));
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert!(peak < FOLLOW_PEAK_KIB, "peak {peak} KiB");
    assert_no_token(&out);

    // With it, the datasets it deletes are not in the package: kept up to a bound, then
    // an error (the server would otherwise grow the client for as long as it likes).
    let api = committing_forever(new_names);
    let (ctx, dir) = against(&api);
    let (out, peak) = crate::hostile_answers::run_watched(
        ctx.stone()
            // Quiet: 100,000 lines of progress would fill the pipe nobody reads meanwhile.
            .args([
                "-q",
                "package",
                "push",
                "--replace",
                "--yes",
                "--env",
                "local",
                "--branch",
                "x",
            ])
            .arg(&dir),
        Duration::from_secs(120),
    );
    assert_clear_error(&out, "datasets that are not in the package");
    assert!(
        stderr(&out).contains("more than 100000"),
        "{}",
        stderr(&out)
    );
    assert!(peak < FOLLOW_PEAK_KIB, "peak {peak} KiB");
    let polls = api.seen().iter().filter(|r| r.method == "GET").count();
    assert!((10..=12).contains(&polls), "{polls} polls");
}

#[test]
fn a_dataset_the_follow_never_reported_is_read_from_the_whole_list() {
    // Followed from the push's creation (its change number), the dataset never changes:
    // the push ends without a poll naming it. The client then reads the whole list once,
    // so that the result names every dataset of the package.
    let api = fake_api(|seen: &Seen, s: &mut TcpStream| {
        let json = [("content-type", "application/json")];
        let status = |datasets: Vec<serde_json::Value>| {
            serde_json::json!({
                "push_id": "p-1", "state": "succeeded", "namespace": "demo",
                "branch": "x", "created_at": "2026-11-28T00:00:00Z",
                "updated_at": "2026-11-28T00:00:00Z", "datasets": datasets,
                "changes": 6,
                "package_node": {"url": "stone:demo", "iri": "https://data.test/demo"}
            })
        };
        if seen.method == "POST" && seen.path.ends_with("/pushes") {
            let created = serde_json::json!({
                "push_id": "p-1", "state": "staging", "uploads": [],
                "already_staged": [], "datasets": [], "changes": 5
            });
            respond(s, "201 Created", &json, created.to_string().as_bytes());
        } else if seen.method == "POST" && seen.path.ends_with("/commit") {
            let accepted = serde_json::json!({"push_id": "p-1", "state": "committing"});
            respond(s, "202 Accepted", &json, accepted.to_string().as_bytes());
        } else if seen.method == "GET" && seen.path.contains("since=") {
            respond(s, "200 OK", &json, status(vec![]).to_string().as_bytes());
        } else if seen.method == "GET" && seen.path.contains("/pushes/p-1") {
            let mut blob = progress("blob", "done");
            blob["status"] = serde_json::json!("unchanged");
            respond(
                s,
                "200 OK",
                &json,
                status(vec![blob]).to_string().as_bytes(),
            );
        } else {
            respond(s, "404 Not Found", &json, b"{}");
        }
    });
    let (ctx, dir) = against(&api);
    let out = run_bounded(
        ctx.stone()
            .args([
                "package", "push", "--json", "--env", "local", "--branch", "x",
            ])
            .arg(&dir),
        Duration::from_secs(90),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let urls: Vec<&str> = result["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["url"].as_str())
        .collect();
    assert_eq!(urls, ["stone:demo/blob"], "{result:#}");
    let polls: Vec<String> = api
        .seen()
        .iter()
        .filter(|r| r.method == "GET" && r.path.contains("/pushes/p-1"))
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(polls.len(), 2, "{polls:?}");
    assert!(polls[0].contains("since=5"), "{polls:?}");
    assert!(!polls[1].contains("since="), "{polls:?}");
    assert_no_token(&out);
}

#[test]
fn a_commit_where_nothing_moves_is_left_after_the_stall_timeout() {
    // The package's one dataset, pending forever (answered at once: a server that does
    // not wait), and datasets going back and forth, which is no progress either.
    let api = committing_forever(|n| {
        let state = if n % 2 == 0 { "pending" } else { "writing" };
        (vec![progress("blob", state)], false)
    });
    let (mut ctx, dir) = against(&api);
    ctx.set_var("STONE_PUSH_STALL_TIMEOUT", "3");
    let start = Instant::now();
    let out = push(&ctx, &dir);
    let took = start.elapsed();
    assert_clear_error(&out, "no dataset of the push moved forward for 3 s");
    assert!(
        stderr(&out).contains("run the same command again"),
        "{}",
        stderr(&out)
    );
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(30),
        "{took:?}"
    );
    assert_eq!(out.status.code(), Some(5), "resumable: {}", stderr(&out));
    assert_no_token(&out);
}
