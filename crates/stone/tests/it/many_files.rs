//! Issue 27: a package whose size is its count of files. One BLOB folder resource of
//! 200,000 files goes to the real `stone-server` in batches (`paged_files`), is SIGKILLed at
//! a random point of its uploads and resumed (one push, exactly once), and an unchanged
//! re-push uploads nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::StoneServer;

use crate::push_e2e::{push, staged, with_server_config, with_slow_staging};

/// Files of the folder; contents repeat every [`DISTINCT`] files (the paging is about
/// files, the uploads about contents: 25,000 uploads keep the test near a minute here).
const FILES: usize = 200_000;
const DISTINCT: usize = 25_000;

fn folder_package(root: &Path) -> std::path::PathBuf {
    let dir = root.join("many");
    let files = dir.join("scans");
    for shard in 0..FILES / 1000 {
        std::fs::create_dir_all(files.join(format!("{shard:03}"))).unwrap();
    }
    for i in 0..FILES {
        let content = format!("scan {:06} {}\n", i % DISTINCT, "x".repeat(100));
        std::fs::write(files.join(format!("{:03}/{i:06}.txt", i / 1000)), content).unwrap();
    }
    std::fs::write(
        dir.join("datasets.yaml"),
        "publish: {to: \"stone:many\"}\nresources:\n  - path: scans\n    name: scans\n    kind: BLOB\n",
    )
    .unwrap();
    dir
}

/// The push's one dataset, from a `--json` result: (status, files after the write).
fn scans(result: &Value) -> (String, u64) {
    let dataset = &result["datasets"][0];
    (
        dataset["status"].as_str().unwrap_or("?").to_owned(),
        dataset["detail"]["files"].as_u64().unwrap_or(0),
    )
}

/// The client's peak resident memory (`VmHWM`) on any command of this test, at 200,000
/// files. A client that holds a vector of the folder's files (its paths, digests, the
/// push's records) spends ~330 bytes a file: 93 MB on the dry run of this test and
/// 125–131 MB on a push (debug build of `bb7fdc5`, measured 2026-11-27); one that walks and
/// hashes the folder a batch at a time: 24 MB (dry run), 46 MB (resumed push), 38 MB
/// (unchanged re-push).
const CLIENT_BUDGET: u64 = 70 << 20;

/// Runs `command` to its end, sampling its peak resident memory: (output, peak bytes).
pub(crate) fn run_measured(command: &mut std::process::Command) -> (std::process::Output, u64) {
    use std::io::Read;
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipes = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        pipes.0.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        pipes.1.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let mut peak = 0;
    // What the largest resident sample was made of (anonymous, file-backed, threads): a
    // peak over budget says which.
    let (mut largest, mut breakdown) = (0, String::new());
    let status = loop {
        // The high-water mark: a sample after the peak sees it.
        if let Ok(text) = std::fs::read_to_string(format!("/proc/{}/status", child.id())) {
            let field = |name: &str| stone_test::tools::status_bytes(&text, name).unwrap_or(0);
            peak = peak.max(field("VmHWM"));
            if field("VmRSS") > largest {
                largest = field("VmRSS");
                breakdown = ["VmRSS", "RssAnon", "RssFile", "Threads"]
                    .iter()
                    .filter_map(|name| {
                        text.lines()
                            .find(|l| l.starts_with(&format!("{name}:")))
                            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    assert!(peak > 0, "the client's memory could not be read from /proc");
    eprintln!("largest sample: {breakdown}");
    let output = std::process::Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, peak)
}

/// Starts `stone package push --env local --branch <branch> --quiet <dir>` and SIGKILLs it
/// once a random count of contents (1 to 60 % of `contents`) is staged in the server's
/// `data`; returns the count staged after the kill (fewer than `contents`) and the push
/// record the client saved before its uploads.
pub(crate) fn push_killed_midway(
    ctx: &TestContext,
    server: &StoneServer,
    data: &Path,
    dir: &Path,
    branch: &str,
    contents: usize,
) -> (usize, Value) {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as usize;
    let kill_at = 1 + seed % (contents * 6 / 10);
    let mut child = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", branch, "--quiet",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while staged(data) < kill_at {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the push ended before {kill_at} contents were staged:\n{}",
            server.log_tail(30)
        );
        assert!(
            std::time::Instant::now() < deadline,
            "uploads did not reach {kill_at} contents:\n{}",
            server.log_tail(30)
        );
        // Each look lists a directory of up to thousands of contents: every 20 ms leaves
        // the cores to the processes under test.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = staged(data);
    assert!(
        before < contents,
        "the kill came before every upload ({before} staged)"
    );
    let saved: Value = serde_json::from_slice(
        &std::fs::read(dir.join(format!(".stone/pushes/local/{branch}.json")))
            .expect("the push ID was saved before the uploads"),
    )
    .unwrap();
    (before, saved)
}

/// `stone package push --env local --json <extra> <dir>`: its result and peak memory,
/// which must stay within [`CLIENT_BUDGET`].
fn push_measured(ctx: &TestContext, dir: &Path, extra: &[&str]) -> Value {
    let (out, peak) = run_measured(
        ctx.stone()
            .args(["package", "push", "--env", "local", "--json"])
            .args(extra)
            .arg(dir),
    );
    assert!(
        out.status.success(),
        "push failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    eprintln!(
        "client peak RSS {} MB: stone package push {}",
        peak >> 20,
        extra.join(" ")
    );
    assert!(
        peak < CLIENT_BUDGET,
        "`stone package push {}` of {FILES} files peaked at {} MB, over {} MB: the client's memory grows with the count of files again\n{}",
        extra.join(" "),
        peak >> 20,
        CLIENT_BUDGET >> 20,
        crate::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("JSON result")
}

#[test]
fn a_push_of_200k_files_resumes_after_sigkill_and_an_unchanged_repush_uploads_nothing() {
    let (ctx, server, data) = with_server_config("[limits]\nmax_contents = 1000000\n");
    let dir = folder_package(ctx.root());

    // The dry run (a cold hash cache: every file read) lists every file's digest, as the
    // plan always did, in bounded memory.
    let plan = push_measured(&ctx, &dir, &["--branch", "many", "--dry-run"]);
    let files = plan["plan"]["datasets"][0]["files"].as_array().unwrap();
    assert_eq!(files.len(), FILES, "every file in the plan");
    assert_eq!(
        plan["plan"]["totals"]["files"], FILES,
        "{}",
        plan["plan"]["totals"]
    );
    assert_eq!(
        files[1]["path"], "scans/000/000001.txt",
        "in path order: {}",
        files[1]
    );
    let listing = {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        for f in files {
            let inner = f["path"].as_str().unwrap().strip_prefix("scans/").unwrap();
            hasher.update(format!(
                "{} {} {inner}\n",
                f["sha256"].as_str().unwrap(),
                f["size"]
            ));
        }
        hex::encode(hasher.finalize())
    };
    assert_eq!(
        plan["plan"]["datasets"][0]["sha256"], listing,
        "the folder's digest is its listing's"
    );
    drop(plan);

    // Killed at a random point of its uploads (between 1 and 60 % of the contents).
    let (before, saved) = push_killed_midway(&ctx, &server, data.path(), &dir, "many", DISTINCT);

    // The rerun resumes the same push and uploads only what is missing.
    let result = push_measured(&ctx, &dir, &["--branch", "many"]);
    assert_eq!(
        result["push_id"], saved["push_id"],
        "the rerun resumed the saved push (one push, exactly once): {result}"
    );
    assert_eq!(scans(&result), ("created".into(), FILES as u64), "{result}");
    let content_size = format!("scan {:06} {}\n", 0, "x".repeat(100)).len();
    let uploaded = result["uploaded_bytes"].as_u64().unwrap();
    assert!(
        uploaded <= ((DISTINCT - before) * content_size) as u64,
        "only the missing contents went up again: {uploaded} bytes, {before} of {DISTINCT} were staged"
    );
    assert!(
        !dir.join(".stone/pushes/local/many.json").exists(),
        "a finished push leaves no resume state"
    );

    // Unchanged: nothing goes up, the dataset stays as it is.
    let again = push_measured(&ctx, &dir, &["--branch", "many"]);
    assert_eq!(again["uploaded_bytes"], 0, "{again}");
    assert_eq!(scans(&again).0, "unchanged", "{again}");
    assert_ne!(again["push_id"], result["push_id"], "a new push: {again}");
    // Its folder's listing is the head's: not one batch of its files was sent.
    let id = again["push_id"].as_str().unwrap().to_owned();
    let log = server.log_tail(1_000_000);
    assert!(log.contains(&id), "the re-push is in the server's log");
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("file batch recorded") && l.contains(&id))
            .count(),
        0,
        "an unchanged folder is not sent"
    );
}

/// A package `paged` publishing to `stone:<namespace>` one BLOB folder `scans` of `files`
/// small files holding `distinct` different contents.
fn paged_folder(ctx: &TestContext, namespace: &str, files: usize, distinct: usize) -> PathBuf {
    let dir = ctx.root().join("paged");
    std::fs::create_dir_all(dir.join("scans")).unwrap();
    for i in 0..files {
        std::fs::write(
            dir.join(format!("scans/{i:05}.txt")),
            format!("scan {}\n", i % distinct),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("datasets.yaml"),
        format!(
            "publish: {{to: \"stone:{namespace}\"}}\nresources:\n  - path: scans\n    kind: BLOB\n"
        ),
    )
    .unwrap();
    dir
}

#[test]
fn staging_urls_that_expire_during_a_paged_push_are_asked_for_again_with_their_batch() {
    // One file more than a batch (the manifest names the dataset; its files go in two
    // batches). Uploads cross a proxy that holds the first connection 4.5 s, longer than
    // the URLs' 3 s life: the first batch is sent again for fresh URLs.
    let (proxy, ctx, _server, data) = with_slow_staging();
    let files = stone_api::push::MAX_FILE_BATCH + 1;
    let dir = paged_folder(&ctx, "slow", files, 3);
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", "b", "--jobs", "1", "--json",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = crate::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("sent in batches of"),
        "a paged push: {stderr}"
    );
    assert_eq!(proxy.injected(), 1, "the delay was met");
    assert!(
        stderr.contains("staging URLs expired: asking for fresh ones"),
        "the renewal is shown: {stderr}"
    );
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(scans(&result), ("created".into(), files as u64), "{result}");
    assert_eq!(staged(data.path()), 3, "three distinct contents");
}

/// The head of the folder pushed to `branch` (`blobs/<ns>/<dataset>/<branch>/head.json`):
/// its bytes and its (inode, modification time), which a rewrite changes.
fn head_of(data: &Path, branch: &str) -> (Vec<u8>, (u64, std::time::SystemTime)) {
    use std::os::unix::fs::MetadataExt;
    let head = data
        .join("blobs/paged/scans")
        .join(branch)
        .join("head.json");
    let meta = std::fs::metadata(&head).unwrap_or_else(|e| panic!("{}: {e}", head.display()));
    (
        std::fs::read(&head).unwrap(),
        (meta.ino(), meta.modified().unwrap()),
    )
}

#[test]
fn an_unchanged_paged_folder_is_not_rewritten_and_a_changed_one_is() {
    // Issue 27: more files than a batch, so the push is paged; the head records the
    // digest of its listing, and an unchanged re-push finds it from the head's first bytes.
    let (ctx, server, data) = with_server_config("");
    let files = stone_api::push::MAX_FILE_BATCH + 1;
    let dir = paged_folder(&ctx, "paged", files, 50);
    let first = push(&ctx, &dir, &["--branch", "b"]);
    assert_eq!(scans(&first), ("created".into(), files as u64), "{first}");
    let (body, written) = head_of(data.path(), "b");
    let text = String::from_utf8_lossy(&body[..400]);
    assert!(
        text.contains("\"listing\": \"") && text.find("\"listing\"") < text.find("\"files\""),
        "the head records its listing's digest before the files: {text}"
    );

    // Unchanged: recorded so, the head not rewritten (same file, same time), the server
    // says it wrote nothing.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = push(&ctx, &dir, &["--branch", "b"]);
    assert_eq!(scans(&again), ("unchanged".into(), files as u64), "{again}");
    assert_eq!(again["uploaded_bytes"], 0, "{again}");
    assert_eq!(head_of(data.path(), "b"), (body.clone(), written));
    let log = server.log_tail(400);
    assert!(
        log.contains("listings unchanged: nothing to write for them"),
        "the commit took the listing's digest: {log}"
    );
    // The client declared the folder's listing, the server found it its head's: not one
    // batch of files was sent (the first push sent two).
    let batches = |result: &Value| {
        let id = result["push_id"].as_str().unwrap().to_owned();
        server
            .log_tail(100_000)
            .lines()
            .filter(|l| l.contains("file batch recorded") && l.contains(&id))
            .count()
    };
    assert_eq!(batches(&first), 2, "{}", server.log_tail(100));
    assert_eq!(batches(&again), 0, "{}", server.log_tail(100));

    // One file's content changes: written (the folder is appended to), the head moves,
    // with another digest; it lists the file's new content.
    std::fs::write(dir.join("scans/00007.txt"), "scan changed\n").unwrap();
    let changed = push(&ctx, &dir, &["--branch", "b"]);
    assert_eq!(
        scans(&changed),
        ("appended".into(), files as u64),
        "{changed}"
    );
    assert_eq!(batches(&changed), 2, "a changed folder is sent");
    let (new_body, _) = head_of(data.path(), "b");
    assert_ne!(new_body, body, "the head was rewritten");
    let listing = |b: &[u8]| {
        let t = String::from_utf8_lossy(&b[..400]).into_owned();
        let at = t.find("\"listing\": \"").unwrap() + 12;
        t[at..at + 64].to_owned()
    };
    assert_ne!(
        listing(&new_body),
        listing(&body),
        "another listing, another digest"
    );
    let head: Value = serde_json::from_slice(&new_body).unwrap();
    let entry = head["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "00007.txt")
        .cloned();
    let expected = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(b"scan changed\n"))
    };
    assert_eq!(
        entry.map(|e| e["sha256"].clone()),
        Some(Value::from(expected))
    );

    // And unchanged again.
    let last = push(&ctx, &dir, &["--branch", "b"]);
    assert_eq!(scans(&last), ("unchanged".into(), files as u64), "{last}");
    assert_eq!(batches(&last), 0, "{}", server.log_tail(100));
}
