//! Garbage collection of staging (issue 3) on the real binary, with ages of seconds set
//! in `[gc]`: an abandoned push expires (410 `push.expired`) and its staged contents and
//! multipart uploads go, a live push keeps what it names, and committed datasets stay
//! readable. Local staging on disk, and S3 staging on SeaweedFS.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stone_test::services::SeaweedFs;

use crate::api_support::{
    Contents, Dataset, File, Options, Server, Site, client, manifest, noise, put, sha256_hex,
    upload_all,
};

/// Sweeps every second; pushes expire after 6 s; unused contents and uploads go after 1 s.
const GC: &str = "[gc]\ninterval_seconds = 1\npush_expiry_seconds = 6\nstaged_content_seconds = 1\nmultipart_seconds = 1\n";

/// Polls `check` for up to 30 s.
pub(crate) async fn eventually(what: &str, server: &Server, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !check().await {
        assert!(
            Instant::now() < deadline,
            "{what} within 30 s:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn blob(name: &str, files: Vec<File>) -> Dataset {
    Dataset::new(name, "BLOB", files)
}

async fn content(server: &Server, dataset: &str) -> (u16, Vec<u8>) {
    let response = client()
        .get(server.url(&format!(
            "/v1/namespaces/demo/datasets/{dataset}/content?branch=dev"
        )))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.bytes().await.unwrap().to_vec())
}

async fn create(server: &Server, m: &Value, contents: &Contents, upload: bool) -> (String, Value) {
    let created = server.create_push(m).await.expect(201);
    if upload {
        upload_all(server, &created.body, contents).await;
    }
    (
        created.body["push_id"].as_str().unwrap().to_owned(),
        created.body,
    )
}

/// The staged content files of the local store.
fn staged(data: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data.join("staging/contents"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// An abandoned push of `demo@dev`: `lost` (dataset `abandoned`) uploaded whole, the
/// multipart upload of `large` (dataset `abandoned-large`) started with its first part
/// only. Returns the push ID and the second part
/// (its URL, offset and size) as the server announced it.
async fn abandon(server: &Server, lost: &[u8], large: &[u8]) -> (String, Value) {
    let (m, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[
            blob("abandoned", vec![File::new("lost.bin", lost.to_vec())]),
            blob(
                "abandoned-large",
                vec![File::new("large.bin", large.to_vec())],
            ),
        ],
    );
    let created = server.create_push(&m).await.expect(201);
    let mut second_part = None;
    for upload in created.body["uploads"].as_array().unwrap() {
        let (url, headers, body) = match upload["parts"].as_array() {
            None => (
                &upload["url"],
                serde_json::from_value(upload["headers"].clone()).unwrap_or_default(),
                contents[upload["sha256"].as_str().unwrap()].clone(),
            ),
            Some(parts) => {
                second_part = Some(parts[1].clone());
                let size = parts[0]["size"].as_u64().unwrap() as usize;
                (&parts[0]["url"], Default::default(), large[..size].to_vec())
            }
        };
        let (status, text) = put(client(), url.as_str().unwrap().to_owned(), headers, body).await;
        assert!(status.is_success(), "{text}");
    }
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    (id, second_part.expect("a multipart upload"))
}

/// Uploads the rest of an upload to the second part's URL: the answer's status.
async fn upload_second_part(part: &Value, large: &[u8]) -> reqwest::StatusCode {
    let offset = part["offset"].as_u64().unwrap() as usize;
    let size = part["size"].as_u64().unwrap() as usize;
    let url = part["url"].as_str().unwrap().to_owned();
    put(
        client(),
        url,
        Default::default(),
        large[offset..offset + size].to_vec(),
    )
    .await
    .0
}

/// Waits for the push to expire, and checks every push endpoint says so.
async fn assert_expires(server: &Server, id: &str, resumed: &Value) {
    eventually("the abandoned push expired", server, async || {
        server.get(&format!("/v1/pushes/{id}")).await.status == 410
    })
    .await;
    assert_eq!(
        server.get(&format!("/v1/pushes/{id}")).await.code(),
        "push.expired"
    );
    assert_eq!(server.commit(id).await.expect(410).code(), "push.expired");
    let mut resumed = resumed.clone();
    resumed["push_id"] = json!(id);
    assert_eq!(
        server.create_push(&resumed).await.expect(410).code(),
        "push.expired"
    );
}

/// The committed dataset `kept` reads back, and pushing it again is a new push that
/// uploads its (swept) content anew.
async fn assert_kept_and_pushed_again(server: &Server, kept: &[u8]) {
    assert_eq!(content(server, "kept").await, (200, kept.to_vec()));
    let (m, contents) = kept_manifest(kept);
    let created = server.create_push(&m).await.expect(201);
    assert_eq!(created.body["uploads"].as_array().unwrap().len(), 1);
    upload_all(server, &created.body, &contents).await;
    let id = created.body["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let status = server.wait(id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
}

fn kept_manifest(kept: &[u8]) -> (Value, Contents) {
    manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[blob("kept", vec![File::new("kept.bin", kept.to_vec())])],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_staging_an_abandoned_push_expires_and_its_contents_go() {
    // Parts of 1 MiB: a 1.5 MiB file is a multipart upload.
    let site = Site::with_config(&format!("[staging]\npart_size = 1048576\n{GC}"));
    let server = site.start();
    let data = site.data_dir();

    // A committed dataset.
    let kept = noise(1, 50_000);
    let (m, contents) = kept_manifest(&kept);
    server.push(&m, &contents).await;

    let (lost, large) = (noise(2, 40_000), noise(3, 1_500_000));
    let (abandoned, second_part) = abandon(&server, &lost, &large).await;
    let lost_sha = sha256_hex(&lost);
    assert!(staged(&data).contains(&lost_sha));
    // The dataset whose content arrived was prepared (a directory and a prepared head),
    // and is not a dataset; the one whose upload did not finish was not prepared at all.
    let prepared = data.join("blobs/demo/abandoned");
    eventually(
        "the abandoned push's dataset is prepared",
        &server,
        async || prepared.join("dev/head.json#0").exists(),
    )
    .await;
    assert!(!prepared.join("dev/head.json").exists());
    assert!(!data.join("blobs/demo/abandoned-large").exists());
    assert_eq!(
        std::fs::read_dir(data.join("staging/parts"))
            .unwrap()
            .count(),
        1
    );

    // A live push created now keeps its content through the sweeps before it expires.
    let fresh = noise(4, 30_000);
    let (live_manifest, live_contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[blob("fresh", vec![File::new("fresh.bin", fresh.clone())])],
    );
    let (live, _) = create(&server, &live_manifest, &live_contents, true).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(
        staged(&data).contains(&sha256_hex(&fresh)),
        "a live push's content is kept although older than gc.staged_content_seconds:\n{}",
        server.log()
    );
    // The committed dataset's own staged content is not needed any more: gone.
    assert!(
        !staged(&data).contains(&sha256_hex(&kept)),
        "{:?}",
        staged(&data)
    );
    server.commit(&live).await.expect(202);
    assert_eq!(server.wait(&live).await["state"], "succeeded");

    // The abandoned push expires; its content and its multipart upload go.
    assert_expires(&server, &abandoned, &m).await;
    eventually(
        "the abandoned push's staging is swept",
        &server,
        async || {
            !staged(&data).contains(&lost_sha)
                && std::fs::read_dir(data.join("staging/parts"))
                    .unwrap()
                    .count()
                    == 0
        },
    )
    .await;
    // What its dataset was prepared with goes too.
    eventually(
        "the abandoned push's prepared dataset is removed",
        &server,
        async || !prepared.exists(),
    )
    .await;
    assert!(data.join("blobs/demo/fresh/dev/head.json").exists());
    // The aborted upload's URLs lead nowhere.
    let status = upload_second_part(&second_part, &large).await;
    assert!(status.is_client_error(), "{status}");

    assert_eq!(content(&server, "fresh").await, (200, fresh));
    assert_kept_and_pushed_again(&server, &kept).await;
    assert!(server.log().contains("gc: staging swept"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_staging_an_abandoned_push_expires_and_its_objects_and_uploads_go() {
    let seaweed = SeaweedFs::shared();
    let suffix = &uuid::Uuid::new_v4().simple().to_string()[..12];
    let (staging_bucket, blob_bucket) =
        (format!("gc-staging-{suffix}"), format!("gc-blobs-{suffix}"));
    seaweed.create_bucket(&staging_bucket);
    seaweed.create_bucket(&blob_bucket);
    let site = Site::with_config(&format!(
        "{}{GC}",
        crate::api_s3::config(seaweed, &staging_bucket, &blob_bucket, 3600)
    ));
    let server = site.start();

    let kept = noise(11, 60_000);
    let (m, contents) = kept_manifest(&kept);
    server.push(&m, &contents).await;

    // A multipart upload S3 knows and the push state does not (as if a server died right
    // after CreateMultipartUpload): found by ListMultipartUploads, aborted too.
    let s3 = seaweed.client();
    let orphan = format!("/{staging_bucket}/uploads/{}", sha256_hex(b"orphan"));
    let created = s3
        .request("POST", &orphan, &[("uploads", "")], b"")
        .unwrap();
    assert_eq!(created.status, 200, "{}", created.text());
    let uploads = || {
        let listed = s3
            .request(
                "GET",
                &format!("/{staging_bucket}"),
                &[("uploads", ""), ("prefix", "uploads/")],
                b"",
            )
            .unwrap();
        assert_eq!(listed.status, 200, "{}", listed.text());
        listed.text().matches("<UploadId>").count()
    };
    assert_eq!(uploads(), 1);

    // Parts of 5 MiB: a 6 MiB file is a multipart upload.
    let (lost, large) = (noise(12, 40_000), noise(13, 6 * 1024 * 1024));
    let (abandoned, second_part) = abandon(&server, &lost, &large).await;
    // The caller's own (direct) upload, never verified into a content.
    let lost_key = seaweed
        .list_objects(&staging_bucket, "uploads/")
        .into_iter()
        .find(|key| key.ends_with(&sha256_hex(&lost)))
        .expect("the abandoned push's upload is in the bucket");
    assert!(lost_key.starts_with("uploads/direct/"), "{lost_key}");

    assert_expires(&server, &abandoned, &m).await;
    eventually("the staging bucket is swept", &server, async || {
        seaweed.get_object(&staging_bucket, &lost_key).is_none()
            && server.log().contains("gc: multipart upload aborted")
    })
    .await;
    eventually("every multipart upload is aborted", &server, async || {
        uploads() == 0
    })
    .await;
    assert!(
        !server.log().contains("cannot list the multipart uploads"),
        "{}",
        server.log()
    );
    // S3 forgot the upload: its part URLs are refused.
    let status = upload_second_part(&second_part, &large).await;
    assert!(
        status.is_client_error(),
        "an aborted upload takes no part: {status}"
    );
    // Only what no live push names went: nothing of the staging bucket is left.
    assert_eq!(
        seaweed.list_objects(&staging_bucket, "uploads/"),
        Vec::<String>::new()
    );
    assert_kept_and_pushed_again(&server, &kept).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_one_replica_sweeps_at_a_time_and_pushes_expire() {
    use std::sync::Arc;
    use stone_server::config::GcOptions;
    use stone_server::gc::Sweeper;
    use stone_server::staging::local::LocalStaging;
    use stone_server::state::StateDb;

    let postgres = stone_test::services::Postgres::start();
    // Two replicas' views of one database.
    let first = StateDb::connect(&postgres.url(), 2).await.unwrap();
    let second = StateDb::connect(&postgres.url(), 2).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    // The second replica's sweeper, on a local staging store.
    let sweeper_of = |options: GcOptions| {
        let key =
            stone_server::staging::signature::load_or_create(&dir.path().join("key")).unwrap();
        let staging = LocalStaging::open(
            &dir.path().join("staging"),
            "http://127.0.0.1:1",
            key,
            second.clone(),
            1 << 20,
        )
        .unwrap();
        Sweeper::new(second.clone(), Arc::new(staging), options)
    };
    let sweeper = sweeper_of(GcOptions::default());

    // While the first replica sweeps (holds the lock), the second skips its round.
    let held = first
        .try_lock("stone-server/gc")
        .await
        .unwrap()
        .expect("the lock is free");
    assert!(
        second.try_lock("stone-server/gc").await.unwrap().is_none(),
        "one holder at a time"
    );
    let report = sweeper.sweep().await.unwrap();
    assert!(report.skipped, "{report:?}");
    held.release().await;
    let report = sweeper.sweep().await.unwrap();
    assert!(!report.skipped, "{report:?}");
    // And the lock was given back after the sweep.
    assert!(first.try_lock("stone-server/gc").await.unwrap().is_some());

    // Expiry on PostgreSQL: a push left in staging past the age expires, its contents are
    // no longer live, and it can no longer be committed.
    let (m, _) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[blob("b", vec![File::new("b.bin", noise(21, 100))])],
    );
    let manifest: stone_api::CreatePush = serde_json::from_value(m).unwrap();
    first
        .create_push("old-push", "local", &manifest, false, &[])
        .await
        .unwrap();
    assert_eq!(first.live_contents().await.unwrap().len(), 1);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let quick = GcOptions {
        interval_seconds: 1,
        push_expiry_seconds: 1,
        staged_content_seconds: 1,
        multipart_seconds: 1,
        ..GcOptions::default()
    };
    let report = sweeper_of(quick.clone()).sweep().await.unwrap();
    assert_eq!(report.expired, vec!["old-push".to_owned()]);
    assert!(first.push("old-push").await.unwrap().unwrap().expired);
    assert!(first.live_contents().await.unwrap().is_empty());
    assert_eq!(first.start_commit("old-push").await.unwrap(), None);

    // A content the sweep deletes takes its holders with it (possession is proved again
    // by the next upload).
    let gone = "ab".repeat(32);
    std::fs::write(dir.path().join("staging/contents").join(&gone), b"x").unwrap();
    first.record_holder(&gone, "holder").await.unwrap();
    assert_eq!(first.held_among("holder", &[&gone]).await.unwrap().len(), 1);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let report = sweeper_of(quick).sweep().await.unwrap();
    assert!(report.swept.contents >= 1, "{report:?}");
    assert!(!dir.path().join("staging/contents").join(&gone).exists());
    assert!(
        first
            .held_among("holder", &[&gone])
            .await
            .unwrap()
            .is_empty()
    );
}
