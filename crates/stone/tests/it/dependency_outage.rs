//! Backend faults, second part (issue 54): what the server depends on goes away under it
//! and comes back, without a restart of `stone-server`. PostgreSQL (the state database and
//! the Iceberg catalog) stopped as `pg_ctl stop -m immediate` does, during commits, and
//! started again at once or 20 s later; SeaweedFS (the S3 staging store) killed during
//! uploads. The faults are real (the programs stopped and started again on their data and
//! ports); nothing is faked. After each: every push lands exactly once, on its first run or
//! on a re-run of the same command (pyiceberg and DuckDB rows and snapshots, SPARQL counts,
//! blob bytes), a new push lands, and what the CLI printed when it stopped says what
//! happened: a transient code, exit status 5, a hint to run the same command again.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{SeaweedFs, SplitMix64, StoneServer};

use crate::replicas::{Cluster, Expected, assert_pushed, package, push_command, verify};

/// How many times the server's log says `what`.
fn log_count(server: &StoneServer, what: &str) -> usize {
    std::fs::read_to_string(server.log_path())
        .unwrap_or_default()
        .matches(what)
        .count()
}

/// Waits until the server's log says `what` more than `before` times.
fn wait_log(server: &StoneServer, what: &str, before: usize, seconds: u64) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while log_count(server, what) <= before {
        assert!(
            Instant::now() < deadline,
            "the server never logged {what:?}:\n{}",
            server.log_tail(40)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn(mut command: Command) -> Child {
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A push the CLI gave up on while a dependency was away: exit status 5, a transient code
/// of the server or of the store (never `engine.failed` or an incident to report), and the
/// hint to run the same command again (which resumes the push). Its `--json` error.
fn stopped_as_transient(out: &Output, what: &str) -> Value {
    let err = crate::stderr(out);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(out.status.code(), Some(5), "{what}: exit status 5:\n{err}");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{what}: a JSON error ({e}):\n{err}"));
    let error = report["error"].clone();
    let text = error.to_string();
    assert!(
        [
            "unavailable",
            "storage_full",
            "push.crashed",
            "timeout",
            "upload"
        ]
        .iter()
        .any(|code| text.contains(code)),
        "{what}: a transient code: {error}"
    );
    assert!(
        !text.contains("engine.failed") && !text.contains("incident"),
        "{what}: not a failure to report: {error}"
    );
    assert!(
        text.contains("run the same command again"),
        "{what}: the hint says to run again: {error}"
    );
    error
}

/// A push that finished: each dataset `created` or `appended`, never `unchanged` (each
/// push writes new rows to its own branch). Once, a push's first run reported its datasets
/// `unchanged`: the state database away longer than the commit's lease, the same runner
/// claimed the push again and a second job beside the first took the first one's writes
/// for the state before (a run now marks a dataset only in the state it read it in, and
/// a runner does not start a push its own job still commits).
fn landed(out: &Output, what: &str) {
    let result = crate::faults::push_result(out, what, 3);
    for d in result["datasets"].as_array().expect("datasets") {
        let status = d["status"].as_str().unwrap_or_default();
        assert!(matches!(status, "created" | "appended"), "{what}: {result}");
    }
}

/// PostgreSQL stopped at once (`-m immediate`) while pushes are being committed, started
/// again at once in the first round and after 20 s in the second; then a new push.
#[test]
fn postgresql_stopped_during_commits_is_waited_for_and_every_push_lands_once() {
    let mut cluster = Cluster::start();
    let data = tempfile::Builder::new()
        .prefix("stone-pg-outage-")
        .tempdir()
        .unwrap();
    let server = cluster.replica(data.path(), &[]);
    let ctx = crate::context();
    ctx.add_env("pg", "replicas.test", &server.api());
    let mut rng = SplitMix64(0x9a55_0d0e);
    let mut all: Vec<Expected> = Vec::new();
    let mut reruns = 0;
    for (round, outage) in [0u64, 20].into_iter().enumerate() {
        let started = log_count(&server, "commit started");
        let expected: Vec<Expected> = (0..3)
            .map(|i| package(&ctx, round * 3 + i, &mut rng))
            .collect();
        let children: Vec<Child> = expected
            .iter()
            .map(|e| spawn(push_command(&ctx, "pg", e)))
            .collect();
        wait_log(&server, "commit started", started, 120);
        cluster.postgres.stop_immediate();
        std::thread::sleep(Duration::from_secs(outage));
        cluster.postgres.start_again();
        for (child, e) in children.into_iter().zip(&expected) {
            let what = format!("round {round} (PostgreSQL away {outage} s), {}", e.branch);
            let out = child.wait_with_output().unwrap();
            if out.status.success() {
                landed(&out, &what);
                continue;
            }
            stopped_as_transient(&out, &what);
            reruns += 1;
            let out = push_command(&ctx, "pg", e).output().unwrap();
            landed(&out, &format!("{what}: the same command again"));
        }
        all.extend(expected);
    }
    // A new push after the outages lands on its first run.
    let last = package(&ctx, 6, &mut rng);
    let out = push_command(&ctx, "pg", &last).output().unwrap();
    assert_pushed(&out, "a new push after the outages");
    all.push(last);
    eprintln!(
        "{} pushes through two PostgreSQL outages, {reruns} needed a re-run; leases that ran \
         out without a renewal: {}, taken back by the job holding them: {}",
        all.len(),
        log_count(&server, "the lease ran out without a renewal"),
        log_count(&server, "lease taken back by the job that holds it"),
    );
    verify(&cluster, &all, all.len());
}

/// The state database away longer than a commit's lease while the commit is under way
/// (held by the test hook right after its table's write, before the outcome is recorded):
/// the lease runs out and is claimed again when PostgreSQL is back, but no second job of the
/// push starts beside the one still running (once, in the test above, such a second job took
/// the first one's writes for the state before and reported them `unchanged`). Resumed, the
/// push lands once, its datasets `created`.
#[test]
fn a_commit_that_outlives_its_lease_while_postgresql_is_away_is_not_started_twice() {
    let mut cluster = Cluster::start();
    let data = tempfile::Builder::new()
        .prefix("stone-pg-lease-")
        .tempdir()
        .unwrap();
    let server = cluster.replica(data.path(), &[("STONE_SERVER_TEST_PAUSE_COMMIT", "t")]);
    let ctx = crate::context();
    ctx.add_env("pg", "replicas.test", &server.api());
    let mut rng = SplitMix64(0x1ea5_e0ff);
    let expected = package(&ctx, 0, &mut rng);
    let child = spawn(push_command(&ctx, "pg", &expected));
    let hooks = data.path().join("test-hooks");
    let paused = hooks.join("paused");
    crate::faults::wait_paused(&paused, &server, "t");
    assert_eq!(log_count(&server, "commit started"), 1);
    // Away for over twice the lease (3 s), then back for two of the runner's polls (2 s).
    cluster.postgres.stop_immediate();
    std::thread::sleep(Duration::from_secs(8));
    cluster.postgres.start_again();
    std::thread::sleep(Duration::from_secs(6));
    assert!(
        log_count(&server, "the lease ran out without a renewal") >= 1,
        "the outage outlived the lease:\n{}",
        server.log_tail(40)
    );
    assert_eq!(
        log_count(&server, "commit started"),
        1,
        "a second job of the push started while the first still ran:\n{}",
        server.log_tail(40)
    );
    std::fs::write(hooks.join("resume"), b"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the push lands once resumed:\n{}",
        crate::stderr(&out)
    );
    landed(&out, "a commit that outlived its lease");
    verify(&cluster, &[expected], 1);
}

/// The staging store (SeaweedFS) killed, then stopped, while the CLI uploads a 96 MiB file
/// to it, and started again: the push stops as transient, saying which store failed; the
/// same command resumes it and the file lands whole, once; a new push lands.
#[test]
fn s3_killed_or_stopped_during_uploads_stops_the_push_as_transient_and_the_rerun_lands_it_once() {
    let mut seaweed = SeaweedFs::start();
    let bucket = format!("staging-{:08x}", fastrand::u32(..));
    seaweed.create_bucket(&bucket);
    let data = tempfile::Builder::new()
        .prefix("stone-s3-outage-")
        .tempdir()
        .unwrap();
    let config = format!(
        "public_host = \"outage.test\"\n\
         [staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n\
         endpoint = \"{}\"\nbucket = \"{bucket}\"\nprefix = \"uploads/\"\nregion = \"{}\"\n\
         access_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    );
    let server = StoneServer::start(data.path(), Some(&config), &[]);
    let mut ctx = crate::context();
    ctx.add_env("local", "outage.test", &server.api());
    // Three tries of each request, so that the CLI gives up while the store is away.
    ctx.set_var("STONE_HTTP_RETRIES", "2");
    let mut rng = SplitMix64(0x5eed_f00d);
    let push = |dir: &Path, branch: &str| {
        let mut command = ctx.stone();
        command
            .args([
                "package", "push", "--env", "local", "--json", "--branch", branch,
            ])
            .arg(dir);
        command
    };
    for (fault, killed) in [("killed", true), ("stopped", false)] {
        let branch = format!("dev-{fault}");
        let blob: Vec<u8> = (0..96 << 20).map(|_| rng.next_u64() as u8).collect();
        let dir = ctx.package(
            &format!("big-{fault}"),
            "name: big\npublish: {to: \"stone:outage\"}\nresources:\n  - path: t.csv\n  - path: b.bin\n",
            &[("t.csv", b"id,name\n1,one\n2,two\n"), ("b.bin", &blob)],
        );
        let state = dir.join(format!(".stone/pushes/local/{branch}.json"));
        let mut child = spawn(push(&dir, &branch));
        let deadline = Instant::now() + Duration::from_secs(120);
        while !state.exists() {
            if child.try_wait().unwrap().is_some() {
                let out = child.wait_with_output().unwrap();
                panic!(
                    "{fault}: the push ended before it was created ({:?}):\n{}{}",
                    out.status,
                    crate::stdout(&out),
                    crate::stderr(&out)
                );
            }
            assert!(Instant::now() < deadline, "the push was never created");
            std::thread::sleep(Duration::from_millis(2));
        }
        if killed {
            seaweed.kill();
        } else {
            seaweed.stop();
        }
        let out = child.wait_with_output().unwrap();
        let what = format!("S3 {fault} during the uploads");
        let error = stopped_as_transient(&out, &what);
        let text = error.to_string();
        assert!(
            text.contains("staging store") && !text.contains("push API"),
            "{what}: the message names the store that failed, not the push API: {error}"
        );

        seaweed.restart();
        let out = push(&dir, &branch).output().unwrap();
        let result =
            crate::faults::push_result(&out, &format!("{what}: the same command again"), 2);
        for d in result["datasets"].as_array().unwrap() {
            let status = d["status"].as_str().unwrap_or_default();
            // The table `t` of the second round appends to the first round's table.
            assert!(
                status == "created" || status == "appended",
                "{what}: {result}"
            );
        }
        let bytes = read_blob(&ctx, &server, "b", &branch);
        assert!(
            bytes == blob,
            "{what}: the stored file has the pushed bytes ({} bytes)",
            bytes.len()
        );
    }

    let dir = ctx.package(
        "small",
        "name: small\npublish: {to: \"stone:outage\"}\nresources:\n  - path: s.csv\n",
        &[("s.csv", b"id\n1\n")],
    );
    let out = push(&dir, "dev").output().unwrap();
    crate::faults::push_result(&out, "a new push after the outages", 1);
    drop(seaweed);
}

/// The bytes of blob dataset `stone:outage/<name>` on `branch`, as `stone data import`
/// brings them into a consumer package.
fn read_blob(ctx: &TestContext, server: &StoneServer, name: &str, branch: &str) -> Vec<u8> {
    let consumer = ctx.package(
        &format!("consumer-{branch}"),
        "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: n.csv\n",
        &[("n.csv", b"n\n1\n")],
    );
    let out = ctx
        .stone()
        .args([
            "data", "import", "--json", "--env", "local", "--branch", branch,
        ])
        .arg(format!("stone:outage/{name}"))
        .args(["--as", "imported"])
        .arg(&consumer)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "import: {}\n{}",
        crate::stderr(&out),
        server.log_tail(20)
    );
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    std::fs::read(consumer.join(result["entry"]["path"].as_str().unwrap())).unwrap()
}
