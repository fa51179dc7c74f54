//! The server process: a crash during a commit (kill -9 at the worst moment, through the
//! test-only `STONE_SERVER_TEST_PAUSE_COMMIT` hook) loses nothing and duplicates nothing;
//! SIGTERM stops cleanly, also mid-commit (the job parks and the restart finishes it
//! once); no identity provider means loopback only; one server per data directory.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::api_support::{
    Contents, Dataset, File, Options, Server, Site, dataset, graph_count_on_disk, manifest,
    people_parquet, pyiceberg, statuses, turtle, upload_all,
};

/// A server whose commit of `manifest` is paused by the test hook right after the
/// `people` dataset was written.
async fn paused_commit(site: &Site, manifest: &Value, contents: &Contents) -> (Server, String) {
    paused_commit_at(site, manifest, contents, "people").await
}

/// [`paused_commit`] right after `dataset` was written.
async fn paused_commit_at(
    site: &Site,
    manifest: &Value,
    contents: &Contents,
    dataset: &str,
) -> (Server, String) {
    let server = site.start_with_env(&[("STONE_SERVER_TEST_PAUSE_COMMIT", dataset)]);
    let created = server.create_push(manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, contents).await;
    server.commit(&push_id).await.expect(202);
    wait_paused(&server).await;
    (server, push_id)
}

/// Waits until the commit test hook has paused a commit.
pub(crate) async fn wait_paused(server: &Server) {
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
}

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
        let (mut server, push_id) = paused_commit(&site, &manifest, &contents).await;
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
    assert_eq!(read.snapshot_id("dev@0.1.0"), read.snapshot_id("dev"));
    assert_eq!(
        graph_count_on_disk(&server.data_dir, "https://data.test/demo/vocab/branch/dev"),
        6
    );
    assert_eq!(status["package_node"]["status"], "created");
}

/// A commit of many object-storage datasets goes in pipelined batches (one batch's files
/// written while the batches around it are recorded): killed in the middle, with a batch
/// written but not recorded and the next one marked as writing, it finishes on restart
/// with every dataset `created` once and every head in place; pushed again, nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_among_pipelined_blob_batches_resumes_on_restart() {
    const COUNT: usize = 600;
    let site = Site::new();
    let datasets: Vec<Dataset> = (0..COUNT)
        .map(|i| {
            Dataset::new(
                &format!("d{i:03}"),
                "BLOB",
                vec![File::new(
                    "f.bin",
                    crate::api_support::noise(i as u64, 100 + i),
                )],
            )
        })
        .collect();
    let (manifest, contents) = manifest("demo", "dev", Options::default(), None, &datasets);
    let push_id = {
        // d300 is in the second batch of 256.
        let (mut server, push_id) = paused_commit_at(&site, &manifest, &contents, "d300").await;
        let status = server.status(&push_id).await;
        assert_eq!(status["state"], "committing");
        assert_eq!(dataset(&status, "d300")["state"], "writing");
        server.kill();
        push_id
    };
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(
        status["result"]["counts"]["created"], COUNT,
        "{:#}",
        status["result"]
    );
    let statuses = statuses(&status);
    assert_eq!(statuses.len(), COUNT);
    assert!(statuses.values().all(|s| s == "created"), "{statuses:?}");
    for (i, d) in datasets.iter().enumerate() {
        let head = server
            .data_dir
            .join("blobs/demo")
            .join(&d.name)
            .join("dev/head.json");
        let head: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
        assert_eq!(
            head["files"][0]["sha256"],
            d.files[0].sha256(),
            "{}",
            d.name
        );
        assert_eq!(head["files"][0]["size"], 100 + i);
    }
    let again = server.push(&manifest, &contents).await;
    assert_eq!(
        again["result"]["counts"]["unchanged"], COUNT,
        "{:#}",
        again["result"]
    );
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

/// The push state of one push as `stone-server` left it on disk (read with Python's
/// sqlite3, while no server runs): `(state, lease_owner, [(dataset, state)])`.
fn state_on_disk(data_dir: &std::path::Path, push_id: &str) -> serde_json::Value {
    let script = "import json, sqlite3, sys\n\
        db = sqlite3.connect(sys.argv[1])\n\
        state, owner = db.execute('SELECT state, lease_owner FROM pushes WHERE id = ?', (sys.argv[2],)).fetchone()\n\
        rows = db.execute('SELECT name, state FROM push_datasets WHERE push_id = ? ORDER BY position', (sys.argv[2],)).fetchall()\n\
        print(json.dumps({'state': state, 'lease_owner': owner, 'datasets': dict(rows)}))\n";
    let out = std::process::Command::new(crate::support::python())
        .args(["-c", script])
        .arg(data_dir.join("state.db"))
        .arg(push_id)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_during_a_commit_parks_it_and_the_restart_completes_it_once() {
    let site = Site::new();
    let (manifest, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2, 3]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(4))]),
            Dataset::new(
                "staff",
                "TABULAR",
                vec![File::new("staff.parquet", people_parquet(&[7, 8]))],
            ),
        ],
    );
    let push_id = {
        // The commit is held right after the `people` append (a slow write, as far as the
        // server can tell) when SIGTERM arrives.
        let (mut server, push_id) = paused_commit(&site, &manifest, &contents).await;
        let asked = Instant::now();
        let exit = server.terminate();
        let took = asked.elapsed();
        assert!(exit.success(), "exit status {exit}:\n{}", server.log());
        // Well under the 20 s grace: the job parked at the next dataset, nothing was cut.
        assert!(
            took < Duration::from_secs(10),
            "stopped in {took:?}:\n{}",
            server.log()
        );
        let log = server.log();
        assert!(log.contains("commit parked"), "{log}");
        assert!(!log.contains("were stopped"), "no job was aborted: {log}");
        // Parked cleanly: the write under way was recorded, the others did not start,
        // and the lease is given back for the next start.
        let on_disk = state_on_disk(&server.data_dir, &push_id);
        assert_eq!(
            on_disk,
            serde_json::json!({
                "state": "committing",
                "lease_owner": null,
                "datasets": {"people": "done", "vocab": "pending", "staff": "pending"},
            })
        );
        let people = pyiceberg(&server.data_dir, "demo", "people");
        assert_eq!(people.ids("dev"), vec![1, 2, 3]);
        assert_eq!(
            graph_count_on_disk(&server.data_dir, "https://data.test/demo/vocab/branch/dev"),
            0,
            "the graph was not started"
        );
        push_id
    };

    // Restarted, the server finishes the push exactly once.
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(statuses(&status)["people"], "created");
    assert_eq!(statuses(&status)["vocab"], "created");
    assert_eq!(statuses(&status)["staff"], "created");
    let people = pyiceberg(&server.data_dir, "demo", "people");
    assert_eq!(people.ids("dev"), vec![1, 2, 3], "no duplicate rows");
    assert_eq!(people.snapshot_count(), 1, "one append");
    let staff = pyiceberg(&server.data_dir, "demo", "staff");
    assert_eq!(staff.ids("dev"), vec![7, 8]);
    assert_eq!(
        graph_count_on_disk(&server.data_dir, "https://data.test/demo/vocab/branch/dev"),
        4
    );
    assert_eq!(status["package_node"]["status"], "created");
}

#[test]
fn without_an_identity_provider_only_loopback_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let output = crate::api_support::server_command()
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
    let output = crate::api_support::server_command()
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
