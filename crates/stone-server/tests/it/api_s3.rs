//! Staging (and blob storage) on a real S3-compatible server, SeaweedFS from
//! `scripts/install-tools` (started by `stone-test`): presigned URLs that bind the sha256,
//! multipart uploads with presigned `UploadPart` URLs completed by the server, expiry.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use stone_test::services::SeaweedFs;

use crate::api_support::{
    Dataset, File, Options, Site, client, manifest, noise, people_parquet, put, put_part,
    pyiceberg, sha256_hex, statuses, upload_all,
};

fn bucket(kind: &str) -> String {
    format!(
        "stone-{kind}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

/// The keys of an `[….s3]` table for a SeaweedFS bucket.
pub(crate) fn s3_table(seaweed: &SeaweedFs, bucket: &str, prefix: &str) -> String {
    format!(
        "endpoint = \"{}\"\nbucket = \"{bucket}\"\nprefix = \"{prefix}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    )
}

/// A new bucket on the shared SeaweedFS.
pub(crate) fn new_bucket(seaweed: &SeaweedFs, kind: &str) -> String {
    let name = bucket(kind);
    seaweed.create_bucket(&name);
    name
}

/// A server configuration with staging and blobs in two SeaweedFS buckets.
pub(crate) fn config(
    seaweed: &SeaweedFs,
    staging_bucket: &str,
    blob_bucket: &str,
    ttl: u64,
) -> String {
    let table = |bucket: &str, prefix: &str| s3_table(seaweed, bucket, prefix);
    format!(
        "[staging]\nstore = \"s3\"\npart_size = 5242880\nurl_ttl_seconds = {ttl}\n[staging.s3]\n{}[blob]\nstore = \"s3\"\n[blob.s3]\n{}",
        table(staging_bucket, "uploads/"),
        table(blob_bucket, "datasets"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_go_to_s3_presigned_and_verified() {
    let seaweed = SeaweedFs::shared();
    let (staging_bucket, blob_bucket) = (bucket("staging"), bucket("blobs"));
    seaweed.create_bucket(&staging_bucket);
    seaweed.create_bucket(&blob_bucket);
    let site = Site::with_config(&config(seaweed, &staging_bucket, &blob_bucket, 3600));
    let server = site.start();
    assert_eq!(
        server.get("/v1/info").await.expect(200).body["staging"]["store"],
        "s3"
    );

    let small = noise(21, 100_000);
    let large = noise(22, 11 * 1024 * 1024 + 17);
    let (m, contents) = manifest(
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
            Dataset::new(
                "scans",
                "RASTER",
                vec![
                    File::new("small.bin", small.clone()),
                    File::new("large.bin", large.clone()),
                ],
            ),
        ],
    );
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let uploads = created.body["uploads"].as_array().unwrap().clone();
    assert_eq!(uploads.len(), 3);
    let small_upload = uploads
        .iter()
        .find(|u| u["sha256"] == sha256_hex(&small))
        .unwrap();
    let url = small_upload["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/{staging_bucket}/uploads/", seaweed.endpoint())),
        "{url}"
    );
    assert!(url.contains("X-Amz-Signature="), "{url}");
    let headers: BTreeMap<String, String> =
        serde_json::from_value(small_upload["headers"].clone()).unwrap();
    assert!(headers.contains_key("x-amz-checksum-sha256"), "{headers:?}");

    // S3 itself refuses bytes that do not have the signed digest.
    let mut corrupt = small.clone();
    corrupt[10] ^= 0xff;
    let (status, text) = put(client(), url.to_owned(), headers.clone(), corrupt).await;
    assert!(
        !status.is_success(),
        "S3 took a corrupt body: {status} {text}"
    );
    assert!(
        seaweed
            .get_object(&staging_bucket, &format!("uploads/{}", sha256_hex(&small)))
            .is_none()
    );
    // Without the bound header the signature does not match.
    let (status, _) = put(client(), url.to_owned(), BTreeMap::new(), small.clone()).await;
    assert!(!status.is_success());

    let large_upload = uploads
        .iter()
        .find(|u| u["sha256"] == sha256_hex(&large))
        .unwrap();
    let parts = large_upload["parts"].as_array().unwrap();
    assert_eq!(
        parts
            .iter()
            .map(|p| p["size"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![5242880, 5242880, 1048593]
    );
    assert!(parts[0]["url"].as_str().unwrap().contains("uploadId="));
    assert_eq!(
        server.commit(&push_id).await.expect(409).code(),
        "push.incomplete"
    );

    upload_all(&server, &created.body, &contents).await;
    assert_eq!(
        seaweed
            .get_object(&staging_bucket, &format!("uploads/{}", sha256_hex(&large)))
            .map(|b| sha256_hex(&b)),
        Some(sha256_hex(&large)),
        "the server completed the multipart upload"
    );

    // Resuming: nothing left to upload.
    let mut again = m.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(resumed.body["uploads"], json!([]));
    // Each upload went to the caller's own key and was verified. The multipart one
    // (read back) was copied server-side to the content's key and deleted; the single one,
    // which SeaweedFS checked against its signed digest, stays at the caller's direct
    // key as the content (issue 24: no copy).
    let key = format!("uploads/{}", sha256_hex(&large));
    let staged = seaweed.get_object(&staging_bucket, &key);
    assert_eq!(
        staged.map(|b| sha256_hex(&b)),
        Some(sha256_hex(&large)),
        "{key}"
    );
    assert_eq!(
        seaweed.list_objects(&staging_bucket, "uploads/callers/"),
        Vec::<String>::new()
    );
    // (Single uploads: the small file and the Parquet file.)
    let direct = seaweed.list_objects(&staging_bucket, "uploads/direct/");
    assert_eq!(direct.len(), 2, "{direct:?}");
    let small_key = direct
        .iter()
        .find(|key| key.ends_with(&sha256_hex(&small)))
        .unwrap_or_else(|| panic!("{direct:?}"));
    assert_eq!(
        seaweed
            .get_object(&staging_bucket, small_key)
            .map(|b| sha256_hex(&b)),
        Some(sha256_hex(&small))
    );
    assert!(
        seaweed
            .get_object(&staging_bucket, &format!("uploads/{}", sha256_hex(&small)))
            .is_none(),
        "the single upload was not copied"
    );

    server.commit(&push_id).await.expect(202);
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(statuses(&status)["scans"], "created");
    assert_eq!(
        pyiceberg(&server.data_dir, "demo", "people").ids("dev"),
        vec![1, 2, 3]
    );
    // The blob engine wrote to its own bucket.
    for bytes in [&small, &large] {
        let key = format!("datasets/demo/scans/dev/objects/{}", sha256_hex(bytes));
        let stored = seaweed
            .get_object(&blob_bucket, &key)
            .unwrap_or_else(|| panic!("no {key}"));
        assert_eq!(sha256_hex(&stored), sha256_hex(bytes));
    }
    let head: Value = serde_json::from_slice(
        &seaweed
            .get_object(&blob_bucket, "datasets/demo/scans/dev/head.json")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(head["files"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrupt_s3_parts_are_refused_at_completion_and_resumed() {
    let seaweed = SeaweedFs::shared();
    let (staging_bucket, blob_bucket) = (bucket("staging"), bucket("blobs"));
    seaweed.create_bucket(&staging_bucket);
    seaweed.create_bucket(&blob_bucket);
    let site = Site::with_config(&config(seaweed, &staging_bucket, &blob_bucket, 600));
    let server = site.start();
    let large = noise(31, 6 * 1024 * 1024);
    let small = noise(32, 1000);
    let (m, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "raw",
            "BLOB",
            vec![
                File::new("large.bin", large.clone()),
                File::new("small.bin", small.clone()),
            ],
        )],
    );
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let uploads = created.body["uploads"].as_array().unwrap();
    let multipart = uploads.iter().find(|u| u["parts"].is_array()).unwrap();

    // Parts with a flipped byte: S3 cannot check them, the server does at completion.
    let mut corrupt = large.clone();
    corrupt[6_000_000] ^= 1;
    for part in multipart["parts"].as_array().unwrap() {
        let (status, text) = put_part(part, &corrupt).await;
        assert!(status.is_success(), "{status} {text}");
    }
    let sha = sha256_hex(&large);
    let refused = server
        .post_empty(&format!("/v1/pushes/{push_id}/uploads/{sha}/complete"))
        .await
        .expect(400);
    assert_eq!(refused.code(), "staging.digest_mismatch");
    assert!(
        seaweed
            .get_object(&staging_bucket, &format!("uploads/{sha}"))
            .is_none(),
        "the corrupt object never became the content"
    );
    assert!(
        !seaweed
            .list_objects(&staging_bucket, "uploads/")
            .iter()
            .any(|key| key.ends_with(&sha)),
        "the corrupt object is deleted"
    );

    // Resuming renews everything that is missing; then the push goes through.
    let mut again = m.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(resumed.body["uploads"].as_array().unwrap().len(), 2);
    upload_all(&server, &resumed.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    assert_eq!(server.wait(&push_id).await["state"], "succeeded");
}

/// URLs that live 2 s: only a 1,000-byte upload has to fit in that window (a 6 MiB part
/// did not, once, on a loaded machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_s3_urls_are_refused_and_renewed_on_resume() {
    let seaweed = SeaweedFs::shared();
    let (staging_bucket, blob_bucket) = (bucket("staging"), bucket("blobs"));
    seaweed.create_bucket(&staging_bucket);
    seaweed.create_bucket(&blob_bucket);
    let site = Site::with_config(&config(seaweed, &staging_bucket, &blob_bucket, 2));
    let server = site.start();
    let small = noise(32, 1000);
    let (m, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "raw",
            "BLOB",
            vec![File::new("small.bin", small.clone())],
        )],
    );
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let single = &created.body["uploads"][0];

    // An expired presigned URL: S3 refuses it.
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let headers: BTreeMap<String, String> =
        serde_json::from_value(single["headers"].clone()).unwrap();
    let (status, text) = put(
        client(),
        single["url"].as_str().unwrap().to_owned(),
        headers,
        small.clone(),
    )
    .await;
    assert_eq!(status.as_u16(), 403, "{text}");
    assert_eq!(
        server.commit(&push_id).await.expect(409).code(),
        "push.incomplete"
    );

    // Resuming renews everything that is missing; then the push goes through.
    let mut again = m.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(resumed.body["uploads"].as_array().unwrap().len(), 1);
    upload_all(&server, &resumed.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    assert_eq!(server.wait(&push_id).await["state"], "succeeded");
}

/// Issue 56: the new small graphs of a commit batch are loaded together from their staged
/// files. With S3 staging those are copies downloaded for the load: each was deleted as
/// soon as it was looked up, before the load read it. They are held until it is done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_graphs_staged_on_s3_are_loaded_together() {
    use crate::graph_scale::{count_by_sparql, graph_iri, ntriples};
    let seaweed = SeaweedFs::shared();
    let staging_bucket = new_bucket(seaweed, "staging");
    let blob_bucket = new_bucket(seaweed, "blobs");
    let site = Site::with_config(&config(seaweed, &staging_bucket, &blob_bucket, 3600));
    let server = site.start();
    let lines = |i: usize| 20 + i;
    let names: Vec<String> = (0..5).map(|i| format!("g{i}")).collect();
    let datasets: Vec<Dataset> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let file = File::new(&format!("{name}.nt"), ntriples(lines(i), name));
            Dataset::new(name, "GRAPH", vec![file])
        })
        .collect();
    let (m, contents) = manifest("demo", "dev", Options::default(), None, &datasets);
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    for (i, name) in names.iter().enumerate() {
        assert_eq!(
            count_by_sparql(&server, &graph_iri(name)).await,
            lines(i) as u64,
            "{name}"
        );
    }
}
