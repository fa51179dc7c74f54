//! Issue 54: a store a commit depends on, away for a while and back. The store is stopped
//! for real and started again on its data and ports; the commit waits for it (`[jobs]
//! dependency_retry_seconds`) and the push lands, each row once. (The graph server's case
//! is `api_push::a_graph_server_away_for_a_while_…`.)

use stone_test::services::SeaweedFs;

use crate::api_support::{
    Dataset, File, Options, Site, manifest, people_parquet, statuses, upload_all,
};

/// The Iceberg warehouse in SeaweedFS: S3 stopped while a push is committed, started again
/// a few seconds later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_away_during_a_commit_is_waited_for_and_the_push_lands_once() {
    let mut seaweed = SeaweedFs::start();
    let bucket = format!("lake-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    seaweed.create_bucket(&bucket);
    let site = Site::with_config(&format!(
        "[jobs]\ndependency_retry_seconds = 90\n\
         [iceberg]\nwarehouse = \"s3://{bucket}/warehouse\"\n[iceberg.s3]\nendpoint = \"{}\"\n\
         region = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    ));
    let server = site.start();
    let people = |ids: &[i64]| {
        Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("people.parquet", people_parquet(ids))],
        )
    };
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[people(&[1, 2, 3])],
    );
    assert_eq!(statuses(&server.push(&m, &c).await)["people"], "created");

    seaweed.stop();
    let (m, c) = manifest("demo", "dev", Options::default(), None, &[people(&[4, 5])]);
    let created = server.create_push(&m).await.expect(201);
    upload_all(&server, &created.body, &c).await;
    let id = created.body["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let seaweed = restarted_once_waited_for(&server, seaweed).await;
    let done = server.wait(id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    assert_eq!(statuses(&done)["people"], "appended", "{done:#}");
    let info = server
        .get("/v1/namespaces/demo/datasets/people?branch=dev")
        .await
        .expect(200)
        .body;
    assert_eq!(info["detail"]["total_rows"], 5, "each row once: {info:#}");
    drop(seaweed);
}

/// Object-storage datasets in S3, committed in batches (local staging: the pipelined
/// path): S3 killed before the commit and started again a few seconds later. Their head
/// reads and writes wait for it as a lone dataset's do; every file lands once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_killed_during_a_batched_blob_commit_is_waited_for_and_every_file_lands() {
    let mut seaweed = SeaweedFs::start();
    let bucket = format!("blobs-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    seaweed.create_bucket(&bucket);
    let site = Site::with_config(&format!(
        "[jobs]\ndependency_retry_seconds = 90\n\
         [blob]\nstore = \"s3\"\n[blob.s3]\nendpoint = \"{}\"\nbucket = \"{bucket}\"\n\
         prefix = \"datasets\"\nregion = \"{}\"\naccess_key_id = \"{}\"\n\
         secret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    ));
    let server = site.start();
    let blobs: Vec<Dataset> = (0..6)
        .map(|i| {
            Dataset::new(
                &format!("b{i}"),
                "BLOB",
                vec![File::new(
                    "f.bin",
                    format!("contents of blob {i}").into_bytes(),
                )],
            )
        })
        .collect();
    let (m, c) = manifest("demo", "dev", Options::default(), None, &blobs);
    let created = server.create_push(&m).await.expect(201);
    upload_all(&server, &created.body, &c).await;
    // Killed, as a crash would (the table's case above is a stop).
    seaweed.kill();
    let id = created.body["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let seaweed = restarted_once_waited_for(&server, seaweed).await;
    let done = server.wait(id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    let statuses = statuses(&done);
    for i in 0..6 {
        assert_eq!(statuses[&format!("b{i}")], "created", "{done:#}");
        let key = format!("datasets/demo/b{i}/dev/head.json");
        let head = seaweed
            .get_object(&bucket, &key)
            .unwrap_or_else(|| panic!("no {key} in S3"));
        let head: serde_json::Value = serde_json::from_slice(&head).unwrap();
        assert_eq!(head["files"].as_array().map(Vec::len), Some(1), "{head}");
    }
    drop(seaweed);
}

/// SeaweedFS started again once the server's log says a commit waits for it.
async fn restarted_once_waited_for(
    server: &crate::api_support::Server,
    mut seaweed: SeaweedFs,
) -> SeaweedFs {
    server
        .wait_for_log("did not answer: trying again", 60)
        .await;
    tokio::task::spawn_blocking(move || {
        seaweed.restart();
        seaweed
    })
    .await
    .unwrap()
}
