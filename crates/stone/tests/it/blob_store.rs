//! The built-in blob-store push (`file://`, and `s3://` against a real SeaweedFS), the prod
//! guard, an interrupted push, and the generic HTTP handler against a real WebDAV server.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{Fault, FaultProxy, PlainHttpServer, SeaweedFs, WebDavServer};

use crate::stderr;

use stone_package::digest::sha256_hex as sha256;

/// A package with a table, a directory of blobs and a nested file; every path => bytes.
fn package(ctx: &TestContext) -> (PathBuf, BTreeMap<&'static str, Vec<u8>>) {
    let files: BTreeMap<&str, Vec<u8>> = [
        ("cities.csv", b"city,code\nParis,075\nLyon,069\n".to_vec()),
        ("tiles/a.bin", vec![1u8; 3000]),
        ("tiles/deep/b.bin", vec![2u8; 10]),
        ("docs/readme.txt", b"hello".to_vec()),
    ]
    .into_iter()
    .collect();
    let list: Vec<(&str, &[u8])> = files.iter().map(|(k, v)| (*k, v.as_slice())).collect();
    let dir = ctx.package(
        "pkg",
        "name: demo\nversion: \"1.0.0\"\nlicense: CC-BY-4.0\npublish: {to: \"stone:demo\"}\nresources:\n  - path: cities.csv\n  - path: tiles\n  - path: docs/readme.txt\n",
        &list,
    );
    (dir, files)
}

fn push(ctx: &TestContext, dir: &Path, to: &str, extra: &[(&str, String)]) -> std::process::Output {
    let mut cmd = ctx.stone();
    for (k, v) in extra {
        cmd.env(k, v);
    }
    // No --branch: a blob store or an HTTP server has no branches, so none is asked for
    // (the package is in no git repository and no CI variable is set).
    cmd.args(["package", "push", "--env", "dev", "--json", "--to", to])
        .arg(dir)
        .output()
        .unwrap()
}

fn ok_json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "push failed ({:?}):\n{}",
        out.status,
        stderr(out)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON result")
}

/// The pending-push markers under a `file://` store's prefix.
fn markers(store: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(store.join(".stone-push-pending"))
        .map(|dir| dir.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    let legacy = store.join(".stone-push-pending.json");
    if legacy.exists() {
        found.push(legacy);
    }
    found
}

fn assert_no_markers(store: &Path) {
    assert_eq!(markers(store), Vec::<PathBuf>::new(), "markers left behind");
    assert!(
        !store.join(".stone-push-pending").exists(),
        "an empty marker folder left behind"
    );
}

/// Checks the descriptor lists every file with its hash and size, and each object holds
/// exactly those bytes.
fn check_landed(
    descriptor: &[u8],
    files: &BTreeMap<&str, Vec<u8>>,
    get: impl Fn(&str) -> Option<Vec<u8>>,
) {
    let descriptor: Value = serde_json::from_slice(descriptor).expect("datapackage.json is JSON");
    assert_eq!(descriptor["name"], "demo");
    assert_eq!(descriptor["resources"].as_array().unwrap().len(), 3);
    let mut listed = BTreeMap::new();
    for r in descriptor["resources"].as_array().unwrap() {
        assert!(r["hash"].as_str().unwrap().starts_with("sha256:"));
        for f in r["stone:files"].as_array().unwrap() {
            listed.insert(
                f["path"].as_str().unwrap().to_owned(),
                (
                    f["hash"].as_str().unwrap().to_owned(),
                    f["bytes"].as_u64().unwrap(),
                ),
            );
        }
    }
    assert_eq!(listed.len(), files.len(), "{listed:?}");
    for (path, bytes) in files {
        let (hash, size) = &listed[*path];
        assert_eq!(*hash, format!("sha256:{}", sha256(bytes)), "{path}");
        assert_eq!(*size, bytes.len() as u64, "{path}");
        let stored = get(path).unwrap_or_else(|| panic!("{path} is not in the store"));
        assert_eq!(
            sha256(&stored),
            sha256(bytes),
            "{path}: the stored bytes differ"
        );
    }
}

#[test]
fn a_file_url_push_lands_every_file_and_a_repush_uploads_nothing() {
    let ctx = crate::context();
    let (dir, files) = package(&ctx);
    let store = ctx.root().join("store/demo");
    let url = format!("file://{}", store.display());

    let first = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(first["handler"], "blob-store");
    assert_eq!(first["already_staged"], 0);
    let total: u64 = files.values().map(|b| b.len() as u64).sum();
    assert_eq!(first["uploaded_bytes"], total);
    assert_eq!(first["package_node"]["status"], "created");
    let descriptor = std::fs::read(store.join("datapackage.json")).unwrap();
    check_landed(&descriptor, &files, |p| std::fs::read(store.join(p)).ok());
    assert_no_markers(&store);

    let mtimes = |paths: &[&str]| -> Vec<_> {
        paths
            .iter()
            .map(|p| {
                std::fs::metadata(store.join(p))
                    .unwrap()
                    .modified()
                    .unwrap()
            })
            .collect()
    };
    let mut all: Vec<&str> = files.keys().copied().collect();
    all.push("datapackage.json");
    let before = mtimes(&all);
    std::thread::sleep(Duration::from_millis(20));

    let again = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(again["uploaded_bytes"], 0, "{again:#}");
    assert_eq!(again["already_staged"], files.len());
    assert_eq!(again["package_node"]["status"], "unchanged");
    assert!(
        again["datasets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["status"] == "unchanged")
    );
    assert_eq!(mtimes(&all), before, "a re-push rewrote objects");

    // One file changes: only it goes up.
    std::fs::write(dir.join("tiles/a.bin"), vec![9u8; 3000]).unwrap();
    let third = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(third["uploaded_bytes"], 3000);
    assert_eq!(third["already_staged"], files.len() - 1);
}

/// A `file://` push flushes its files to disk (`syncfs`) before the descriptor that names
/// them is written, and the descriptor before the push reports success. A power loss
/// cannot be caused here: the order of the calls is read through strace (a real program,
/// Debian's `strace`; scripts/install-tools installs it).
#[test]
fn a_file_url_push_flushes_its_files_before_the_descriptor_names_them() {
    let strace = std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("strace"))
                .find(|p| p.is_file())
        })
        .expect("strace is not installed: run scripts/install-tools (or apt-get install strace)");
    let ctx = crate::context();
    let (dir, files) = package(&ctx);
    let store = ctx.root().join("store/durable");
    let url = format!("file://{}", store.display());
    let log = ctx.root().join("strace.log");
    let stone = ctx.stone();
    let mut traced = std::process::Command::new(strace);
    traced
        .args([
            "-f",
            "-qq",
            "-e",
            "trace=syncfs,rename,renameat,renameat2",
            "-o",
        ])
        .arg(&log)
        .arg(stone.get_program())
        .args(["package", "push", "--env", "dev", "--json", "--to", &url])
        .arg(&dir)
        .env_clear()
        .current_dir(ctx.root())
        .stdin(std::process::Stdio::null());
    for (key, value) in stone.get_envs() {
        if let Some(value) = value {
            traced.env(key, value);
        }
    }
    let out = traced.output().unwrap();
    ok_json(&out);
    let calls = std::fs::read_to_string(&log).unwrap();
    // Each call where it starts (a call another thread interrupts resumes on a later line).
    let lines: Vec<&str> = calls.lines().filter(|l| !l.contains("resumed>")).collect();
    let renamed_to = |line: &str, path: &Path| {
        line.contains("rename") && line.contains(&format!("\"{}\"", path.display()))
    };
    let descriptor = store.join("datapackage.json");
    let written = lines
        .iter()
        .position(|l| renamed_to(l, &descriptor))
        .unwrap_or_else(|| panic!("no rename into {}:\n{calls}", descriptor.display()));
    let last_file = files
        .keys()
        .filter_map(|p| lines.iter().rposition(|l| renamed_to(l, &store.join(p))))
        .max()
        .unwrap_or_else(|| panic!("no file renamed into place:\n{calls}"));
    let syncs: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("syncfs("))
        .collect();
    assert!(
        syncs.iter().any(|&i| last_file < i && i < written),
        "no syncfs between the last file and the descriptor:\n{calls}"
    );
    assert!(
        syncs.iter().any(|&i| i > written),
        "no syncfs after the descriptor:\n{calls}"
    );
}

#[test]
fn prod_is_guarded_before_any_upload() {
    let ctx = crate::context();
    let (dir, _) = package(&ctx);
    let store = ctx.root().join("store");
    let url = format!("file://{}", store.display());

    // --env prod is the default.
    let out = ctx
        .stone()
        .args(["package", "push", "--branch", "b", "--json", "--to", &url])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["error"]["code"], "push.prod_confirmation_required");
    assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
    assert!(!store.exists(), "something was written before the guard");

    let out = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--env", "prod", "--yes", "--to", &url,
        ])
        .arg(&dir)
        .output()
        .unwrap();
    // With --yes, prod still needs a step-up from its identity provider: here prod is not
    // configured, so there is none to ask (the step-up itself: identity.rs).
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("names no identity provider"),
        "{}",
        stderr(&out)
    );
    assert!(!store.exists(), "something was written before the guard");

    // A dry run shows the plan, guarded or not.
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--branch",
            "b",
            "--dry-run",
            "--to",
            &url,
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(plan.contains("Handler:     blob-store"), "{plan}");
    assert!(plan.contains("Environment: prod (not configured"), "{plan}");
    assert!(
        plan.contains("Guard:       prod: a push outside the platform needs --yes"),
        "{plan}"
    );
}

#[test]
fn an_interrupted_push_leaves_the_old_descriptor_in_place() {
    let ctx = crate::context();
    let (dir, mut files) = package(&ctx);
    let store = ctx.root().join("store");
    let url = format!("file://{}", store.display());
    ok_json(&push(&ctx, &dir, &url, &[]));
    let old = std::fs::read(store.join("datapackage.json")).unwrap();

    // A second version, big enough to be killed mid-upload.
    let big: Vec<u8> = (0..48 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    for i in 0..8 {
        std::fs::write(dir.join(format!("tiles/big-{i}.bin")), &big).unwrap();
    }
    let mut child = ctx
        .stone()
        .args([
            "package", "push", "--branch", "b", "--env", "dev", "--jobs", "1", "--to", &url,
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Uploads have begun once a pending-push marker is there.
    let deadline = Instant::now() + Duration::from_secs(60);
    while markers(&store).is_empty() {
        assert!(
            Instant::now() < deadline,
            "the push never started uploading"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the push ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(30));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(
        std::fs::read(store.join("datapackage.json")).unwrap(),
        old,
        "the descriptor changed although the push was killed"
    );

    // Running again completes it, with correct hashes everywhere.
    let done = ok_json(&push(&ctx, &dir, &url, &[]));
    assert!(done["uploaded_bytes"].as_u64().unwrap() > 0);
    for i in 0..8 {
        files.insert(
            Box::leak(format!("tiles/big-{i}.bin").into_boxed_str()),
            big.clone(),
        );
    }
    let descriptor = std::fs::read(store.join("datapackage.json")).unwrap();
    check_landed(&descriptor, &files, |p| std::fs::read(store.join(p)).ok());
    assert_no_markers(&store);
}

#[test]
fn an_s3_push_to_seaweedfs_lands_every_file_and_a_repush_uploads_nothing() {
    let ctx = crate::context();
    let (dir, files) = package(&ctx);
    let s3 = SeaweedFs::shared();
    let bucket = format!("blob-{}", std::process::id());
    s3.create_bucket(&bucket);
    let url = format!("s3://{bucket}/team/demo");
    let env: Vec<(&str, String)> = s3.aws_env();

    let first = ok_json(&push(&ctx, &dir, &url, &env));
    assert_eq!(first["handler"], "blob-store");
    let descriptor = s3
        .get_object(&bucket, "team/demo/datapackage.json")
        .expect("the descriptor is in the bucket");
    check_landed(&descriptor, &files, |p| {
        s3.get_object(&bucket, &format!("team/demo/{p}"))
    });
    assert_eq!(
        s3.list_objects(&bucket, "team/demo/").len(),
        files.len() + 1,
        "{:?}",
        s3.list_objects(&bucket, "team/demo/")
    );

    let again = ok_json(&push(&ctx, &dir, &url, &env));
    assert_eq!(again["uploaded_bytes"], 0, "{again:#}");
    assert_eq!(again["already_staged"], files.len());
    assert_eq!(again["package_node"]["status"], "unchanged");

    // Without credentials the store refuses, and the message names the blob store.
    let denied = push(
        &ctx,
        &dir,
        &url,
        &[
            ("AWS_ENDPOINT", s3.endpoint().to_owned()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", "nobody".into()),
            ("AWS_SECRET_ACCESS_KEY", "wrong".into()),
        ],
    );
    assert!(!denied.status.success());
    assert!(stderr(&denied).contains(&url), "{}", stderr(&denied));
}

/// A store answering 503 a few times (the fault proxy in front of SeaweedFS: a store that
/// is briefly away cannot be caused otherwise): the push rides it out within the retries
/// `STONE_HTTP_RETRIES` gives it, and fails on the first answer when it gives none.
#[test]
fn an_s3_push_rides_out_a_store_briefly_away_within_stone_http_retries() {
    let ctx = crate::context();
    let (dir, files) = package(&ctx);
    let s3 = SeaweedFs::shared();
    let bucket = format!("retry-{}", std::process::id());
    s3.create_bucket(&bucket);
    let url = format!("s3://{bucket}/team/demo");
    let target: std::net::SocketAddr = s3
        .endpoint()
        .trim_start_matches("http://")
        .parse()
        .expect("SeaweedFS listens on 127.0.0.1:<port>");
    let through = |proxy: &FaultProxy, retries: &str| {
        let mut env = s3.aws_env();
        env.retain(|(name, _)| !name.starts_with("AWS_ENDPOINT"));
        env.push(("AWS_ENDPOINT_URL", proxy.url()));
        env.push(("AWS_ENDPOINT", proxy.url()));
        env.push(("STONE_HTTP_RETRIES", retries.to_owned()));
        push(&ctx, &dir, &url, &env)
    };

    let refusing = FaultProxy::start(target, vec![Fault::Unavailable; 3]);
    let failed = through(&refusing, "0");
    assert!(
        !failed.status.success(),
        "no retries: the first 503 fails the push"
    );
    assert_eq!(refusing.injected(), 1, "{}", stderr(&failed));
    assert!(stderr(&failed).contains(&url), "{}", stderr(&failed));

    let away = FaultProxy::start(target, vec![Fault::Unavailable; 3]);
    let landed = ok_json(&through(&away, "4"));
    assert_eq!(away.injected(), 3, "every 503 was met and retried");
    assert_eq!(landed["handler"], "blob-store");
    let descriptor = s3
        .get_object(&bucket, "team/demo/datapackage.json")
        .expect("the descriptor is in the bucket");
    check_landed(&descriptor, &files, |p| {
        s3.get_object(&bucket, &format!("team/demo/{p}"))
    });
}

#[test]
fn the_http_handler_pushes_to_a_webdav_server() {
    let ctx = crate::context();
    let (dir, files) = package(&ctx);
    let dav = WebDavServer::start();
    let url = format!("{}/shared/demo", dav.base_url().trim_end_matches('/'));

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
            &url,
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(
        String::from_utf8_lossy(&dry.stdout).contains("Handler:     http (no plugin claims it"),
        "{}",
        String::from_utf8_lossy(&dry.stdout)
    );

    let first = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(first["handler"], "http", "{first:#}");
    let root = dav.root().join("shared/demo");
    let descriptor = std::fs::read(root.join("datapackage.json")).unwrap();
    check_landed(&descriptor, &files, |p| std::fs::read(root.join(p)).ok());

    let again = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(
        again["uploaded_bytes"],
        0,
        "{again:#}\n{}",
        dav.log_tail(30)
    );
    assert_eq!(again["already_staged"], files.len());
}

/// An HTTP server that only serves files (`python3 -m http.server` answers 501 to
/// PROPFIND) lacks what the HTTP handler needs, for good: one PROPFIND, one short message
/// that names WebDAV, exit 1, no retries and no "run again" (issue 55, item 10: six
/// retries, exit 5 with the resume hint, the server's HTML page three times).
#[test]
fn an_http_server_without_webdav_is_told_at_once() {
    let ctx = crate::context();
    let (dir, _) = package(&ctx);
    let server = PlainHttpServer::start();
    let url = format!("{}/shared/demo", server.base_url());

    let out = ctx
        .stone()
        .args(["package", "push", "--env", "dev", "--to", &url])
        .arg(&dir)
        .output()
        .unwrap();
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("{url} is not a WebDAV server"))
            && text.contains("PROPFIND")
            && text.contains("501"),
        "{text}"
    );
    assert!(text.contains("hint: push to a WebDAV server"), "{text}");
    assert!(!text.contains("run the same command again"), "{text}");
    assert!(
        !text.contains("<html") && !text.contains("<!DOCTYPE"),
        "the server's error page is not shown: {text}"
    );
    let log = server.log_tail(50);
    let propfinds = log.matches("PROPFIND").count();
    assert!(propfinds >= 1, "the server was asked: {log}");
    // http.server logs a 501 twice (the request line and the error): one request.
    assert!(
        log.matches("\"PROPFIND ").count() == 1,
        "PROPFIND was sent once, not retried:\n{log}"
    );
    assert!(
        !log.contains("\"PUT ") && !log.contains("\"MKCOL "),
        "{log}"
    );
    assert!(
        std::fs::read_dir(server.root()).unwrap().next().is_none(),
        "nothing was written"
    );

    // --json: the code says it, for scripts.
    let out = ctx
        .stone()
        .args(["package", "push", "--env", "dev", "--json", "--to", &url])
        .arg(&dir)
        .output()
        .unwrap();
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        error["error"]["code"], "push.store_unsupported",
        "{error:#}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn dry_run_names_the_handler_for_every_kind_of_destination() {
    let ctx = crate::context_with_prod();
    let (dir, _) = package(&ctx);
    for (to, handler, first_dataset) in [
        ("stone:demo", "service", "stone:demo/cities"),
        (
            "https://data.example.org/demo",
            "service",
            "stone:demo/cities",
        ),
        (
            "https://elsewhere.example.org/dav",
            "http",
            "https://elsewhere.example.org/dav/cities.csv",
        ),
        (
            "s3://bucket/team",
            "blob-store",
            "s3://bucket/team/cities.csv",
        ),
        (
            "gs://bucket/team",
            "blob-store",
            "gs://bucket/team/cities.csv",
        ),
        (
            "az://container/team",
            "blob-store",
            "az://container/team/cities.csv",
        ),
        (
            "file:///srv/team",
            "blob-store",
            "file:///srv/team/cities.csv",
        ),
    ] {
        let out = ctx
            .stone()
            .args([
                "package",
                "push",
                "--branch",
                "b",
                "--dry-run",
                "--json",
                "--to",
                to,
            ])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{to}: {}", stderr(&out));
        let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(plan["plan"]["handler"]["name"], handler, "{to}: {plan:#}");
        assert!(plan["plan"]["handler"]["reason"].as_str().unwrap().len() > 20);
        assert_eq!(plan["plan"]["datasets"][0]["url"], first_dataset, "{to}");
    }
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--branch",
            "b",
            "--dry-run",
            "--to",
            "ftp://host/x",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no handler claims the destination ftp://host/x"));
    assert!(
        stderr(&out).contains("stone plugin list"),
        "{}",
        stderr(&out)
    );
}

/// Issue 27 on the blob-store path: a folder of more than `LISTED_FILES` (10,000) files is
/// walked a chunk at a time, its files listed in a listing of their own (the descriptor
/// names it), a re-push uploads nothing, a change uploads the changed file and replaces
/// the listing, and a key a marker names is never trusted from the previous listing.
#[test]
fn a_large_folder_goes_in_chunks_with_a_listing_of_its_own() {
    const FILES: usize = 60_000;
    let ctx = crate::context();
    let dir = ctx.root().join("frames-pkg");
    for shard in 0..FILES / 1000 {
        std::fs::create_dir_all(dir.join(format!("frames/{shard:02}"))).unwrap();
    }
    let path_of = |i: usize| format!("frames/{:02}/{i:05}.txt", i / 1000);
    let content_of = |i: usize| format!("frame {i:05}\n");
    for i in 0..FILES {
        std::fs::write(dir.join(path_of(i)), content_of(i)).unwrap();
    }
    std::fs::write(dir.join("cities.csv"), "city\nParis\n").unwrap();
    std::fs::write(
        dir.join("datasets.yaml"),
        "name: frames\npublish: {to: \"stone:demo\"}\nresources:\n  - path: frames\n    kind: BLOB\n  - path: cities.csv\n",
    )
    .unwrap();
    let store = ctx.root().join("store");
    let url = format!("file://{}", store.display());
    let total: u64 = (0..FILES).map(|i| content_of(i).len() as u64).sum::<u64>() + 11;

    // The first push, its memory measured: the client holds a chunk of the folder's files,
    // not a record of every one and a descriptor listing them all.
    let mut command = ctx.stone();
    command
        .args(["package", "push", "--env", "dev", "--json", "--to", &url])
        .arg(&dir);
    let (out, peak) = crate::many_files::run_measured(&mut command);
    let first = ok_json(&out);
    eprintln!(
        "client peak RSS on the first push of {FILES} files: {} MB",
        peak >> 20
    );
    assert!(peak < CLIENT_BUDGET, "client peak {} MB", peak >> 20);
    assert_eq!(first["uploaded_bytes"], total, "{first:#}");
    assert_eq!(first["datasets"][0]["detail"]["files"], FILES);

    let listing_of = |store: &Path| -> (Value, Vec<u8>) {
        let descriptor: Value =
            serde_json::from_slice(&std::fs::read(store.join("datapackage.json")).unwrap())
                .unwrap();
        let frames = descriptor["resources"][0].clone();
        assert_eq!(frames["path"], "frames", "{frames:#}");
        assert!(
            frames.get("stone:files").is_none(),
            "the files are listed inline"
        );
        let at = frames["stone:listing"].clone();
        let bytes = std::fs::read(store.join(at["path"].as_str().unwrap())).unwrap();
        assert_eq!(at["hash"], format!("sha256:{}", sha256(&bytes)));
        (at, bytes)
    };
    let (at, bytes) = listing_of(&store);
    assert_eq!(at["files"], FILES);
    let lines: Vec<Value> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), FILES);
    for (i, line) in lines.iter().enumerate().step_by(997) {
        let expected = content_of(i);
        assert_eq!(line["path"], path_of(i));
        assert_eq!(line["bytes"], expected.len());
        assert_eq!(
            line["hash"],
            format!("sha256:{}", sha256(expected.as_bytes()))
        );
        assert_eq!(
            std::fs::read(store.join(path_of(i))).unwrap(),
            expected.as_bytes()
        );
    }
    assert_no_markers(&store);

    // Unchanged: nothing goes up, nothing is rewritten.
    let again = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(again["uploaded_bytes"], 0, "{again:#}");
    assert_eq!(again["already_staged"], FILES + 1);
    assert_eq!(again["package_node"]["status"], "unchanged");
    assert_eq!(again["datasets"][0]["status"], "unchanged");

    // One file changed (same size), one removed: that one file goes up, and the listing
    // that named the old ones is replaced.
    std::fs::write(dir.join(path_of(7)), "FRAME 00007\n").unwrap();
    std::fs::remove_file(dir.join(path_of(8))).unwrap();
    let changed = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(changed["uploaded_bytes"], 12, "{changed:#}");
    assert_eq!(changed["already_staged"], FILES - 2 + 1);
    assert_eq!(changed["datasets"][0]["status"], "updated");
    let (at, _) = listing_of(&store);
    assert_eq!(at["files"], FILES - 1);
    let listings = std::fs::read_dir(store.join(".stone-listings"))
        .unwrap()
        .count();
    assert_eq!(listings, 1, "the replaced listing is still there");
    assert_eq!(
        std::fs::read(store.join(path_of(7))).unwrap(),
        b"FRAME 00007\n"
    );

    // What an interrupted push leaves (its marker naming a key, the object there holding
    // other bytes of the same size; a kill at that point is the SIGKILL test's): the key
    // is uploaded again, though the previous listing names its hash, and the marker goes.
    std::fs::create_dir_all(store.join(".stone-push-pending")).unwrap();
    std::fs::write(
        store.join(".stone-push-pending/blob-store-1-0.json"),
        format!("{{\"paths\":[\"{}\"]}}", path_of(9)),
    )
    .unwrap();
    std::fs::write(store.join(path_of(9)), "half 000009\n").unwrap();
    // The single marker of pushes by an earlier stone is honoured as well.
    std::fs::write(
        store.join(".stone-push-pending.json"),
        format!("{{\"paths\":[\"{}\"]}}", path_of(10)),
    )
    .unwrap();
    std::fs::write(store.join(path_of(10)), "half 000010\n").unwrap();
    let resumed = ok_json(&push(&ctx, &dir, &url, &[]));
    assert_eq!(resumed["uploaded_bytes"], 24, "{resumed:#}");
    for i in [9, 10] {
        assert_eq!(
            std::fs::read(store.join(path_of(i))).unwrap(),
            content_of(i).as_bytes()
        );
    }
    assert_no_markers(&store);
}

/// The client's peak resident memory on the first push of 60,000 files to a `file://`
/// store. Measured with debug builds on 2026-11-27: 216 MB when the blob-store path held
/// every file (the push's record, the previous descriptor and the new one as
/// `serde_json::Value`s, maps of every key), 64 MB a chunk at a time (of which ~29 MB the
/// mapped binary).
const CLIENT_BUDGET: u64 = 100 << 20;

/// A package file at a name the push writes itself (the descriptor, its markers, its
/// listings) would be overwritten or mistaken for the push's own: refused before anything
/// is written.
#[test]
fn a_file_at_a_name_the_push_writes_itself_is_refused() {
    let ctx = crate::context();
    for (name, path) in [
        ("descriptor", "datapackage.json"),
        ("listing", ".stone-listings/a.jsonl"),
    ] {
        let dir = ctx.package(
            &format!("pkg-{name}"),
            &format!(
                "publish: {{to: \"stone:demo\"}}\nresources:\n  - path: {path}\n    kind: BLOB\n"
            ),
            &[(path, b"{}")],
        );
        let store = ctx.root().join(format!("store-{name}"));
        let out = push(&ctx, &dir, &format!("file://{}", store.display()), &[]);
        let err = stderr(&out);
        assert!(!out.status.success(), "{name}: the push succeeded");
        assert!(
            err.contains("where the push writes its own"),
            "{name}: {err}"
        );
        assert!(
            !store.exists() || std::fs::read_dir(&store).unwrap().count() == 0,
            "{name}: something was written"
        );
    }
}
