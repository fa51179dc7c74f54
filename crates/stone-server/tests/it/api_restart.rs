//! The server process: a crash during a commit (kill -9 at the worst moment, through the
//! test-only `STONE_SERVER_TEST_PAUSE_COMMIT` hook) loses nothing and duplicates nothing;
//! SIGTERM stops cleanly; no identity provider means loopback only; one server per data
//! directory.

use std::time::{Duration, Instant};

use crate::api_support::{
    Dataset, File, Options, Site, binary, dataset, graph_count_on_disk, manifest, people_parquet,
    pyiceberg, statuses, turtle, upload_all,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_during_commit_resumes_on_restart_without_duplicates() {
    let site = Site::new();
    let (manifest, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        Some("0.1.0"),
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2, 3, 4]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(6))]),
        ],
    );
    let push_id = {
        // The job stops right after the Iceberg append returned, before the state records
        // it: the table has the rows, the push state says `writing`.
        let mut server = site.start_with_env(&[("STONE_SERVER_TEST_PAUSE_COMMIT", "people")]);
        let created = server.create_push(&manifest).await.expect(201);
        let push_id = created.body["push_id"].as_str().unwrap().to_owned();
        upload_all(&server, &created.body, &contents).await;
        server.commit(&push_id).await.expect(202);
        let marker = server.data_dir.join("test-hooks/paused");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !marker.exists() {
            assert!(
                Instant::now() < deadline,
                "the commit never paused:\n{}",
                server.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let status = server.status(&push_id).await;
        assert_eq!(status["state"], "committing");
        assert_eq!(dataset(&status, "people")["state"], "writing");
        assert_eq!(dataset(&status, "vocab")["state"], "pending");
        assert_eq!(
            pyiceberg(&server.data_dir, "demo", "people").ids("dev"),
            vec![1, 2, 3, 4]
        );
        server.kill();
        push_id
    };

    // Restarted on the same data directory, the server claims the push again and finishes
    // it; the redone append finds its files already there.
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    // The push still reports what it did, not "unchanged".
    assert_eq!(statuses(&status)["people"], "created");
    assert_eq!(statuses(&status)["vocab"], "created");
    let read = pyiceberg(&server.data_dir, "demo", "people");
    assert_eq!(read.ids("dev"), vec![1, 2, 3, 4], "no duplicate rows");
    assert_eq!(read.snapshot_count(), 1, "no second snapshot");
    assert_eq!(read.snapshot_id("0.1.0"), read.snapshot_id("dev"));
    assert_eq!(
        graph_count_on_disk(&server.data_dir, "https://data.test/demo/vocab/branch/dev"),
        6
    );
    assert_eq!(status["package_node"]["status"], "created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_server_cleanly() {
    let site = Site::new();
    let mut server = site.start();
    server.get("/v1/info").await.expect(200);
    let status = server.terminate();
    assert!(status.success(), "exit status {status}:\n{}", server.log());
    assert!(server.log().contains("shutting down"), "{}", server.log());
    // The data directory is free again.
    let again = site.start();
    again.get("/v1/info").await.expect(200);
}

#[test]
fn without_an_identity_provider_only_loopback_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(binary())
        .arg("--data-dir")
        .arg(dir.path())
        .args(["--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("refusing to listen on 0.0.0.0:0"),
        "{stderr}"
    );
    assert!(stderr.contains("loopback"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_mode_is_announced_and_a_data_dir_has_one_server() {
    let site = Site::new();
    let server = site.start();
    assert!(
        server.log().contains("no identity provider"),
        "the server says it runs without an identity provider:\n{}",
        server.log()
    );
    let output = std::process::Command::new(binary())
        .arg("--data-dir")
        .arg(&server.data_dir)
        .args(["--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("another stone-server uses the data directory"),
        "{stderr}"
    );
}
