//! S3 staging trusts the store's own SHA-256 check of an upload (the presigned `PUT`
//! binds `x-amz-checksum-sha256`) instead of reading the object back, and only where the
//! store proves it: SeaweedFS (the version `scripts/install-tools` installs) refuses a
//! body whose digest is not the signed one, and the object it keeps reports that digest.
//! An object the store does not vouch for (no checksum) is read back and hashed, and
//! bytes that are not the announced content are never committed.

use std::collections::BTreeMap;

use stone_test::services::SeaweedFs;

use crate::api_s3::{config, new_bucket};
use crate::api_support::{
    Dataset, File, Options, Site, client, manifest, noise, put, sha256_hex, statuses,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_uploads_are_trusted_on_the_stores_checksum_and_read_back_otherwise() {
    let seaweed = SeaweedFs::shared();
    let staging_bucket = new_bucket(seaweed, "trust-staging");
    let blob_bucket = new_bucket(seaweed, "trust-blobs");
    let site = Site::with_config(&config(seaweed, &staging_bucket, &blob_bucket, 3600));
    let server = site.start();

    let vouched = noise(31, 200_000);
    let forged = noise(32, 200_000);
    let (m, _) = manifest(
        "trust",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "scans",
            "RASTER",
            vec![
                File::new("vouched.bin", vouched.clone()),
                File::new("forged.bin", forged.clone()),
            ],
        )],
    );
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let uploads = created.body["uploads"].as_array().unwrap().clone();
    let upload_of = |bytes: &[u8]| {
        let upload = uploads
            .iter()
            .find(|u| u["sha256"] == sha256_hex(bytes))
            .unwrap();
        let url = upload["url"].as_str().unwrap().to_owned();
        let headers: BTreeMap<String, String> =
            serde_json::from_value(upload["headers"].clone()).unwrap();
        (url, headers)
    };

    // The store enforces the signed digest: other bytes of the same size are refused
    // and nothing is stored at the caller's key.
    let (url, headers) = upload_of(&forged);
    let caller_key = url
        .split('?')
        .next()
        .unwrap()
        .strip_prefix(&format!("{}/{staging_bucket}/", seaweed.endpoint()))
        .unwrap()
        .to_owned();
    assert!(
        caller_key.starts_with("uploads/direct/"),
        "a single upload goes to the caller's own direct key: {caller_key}"
    );
    let mut other = forged.clone();
    other[1000] ^= 0x55;
    let (status, text) = put(client(), url.clone(), headers.clone(), other.clone()).await;
    assert_eq!(
        status.as_u16(),
        400,
        "SeaweedFS must refuse a body that does not match the signed x-amz-checksum-sha256: {text}"
    );
    assert!(text.contains("BadDigest"), "{text}");
    assert!(seaweed.get_object(&staging_bucket, &caller_key).is_none());

    // An object at the caller's key that the store does not vouch for (written with the
    // bucket's own keys, no checksum, the right size, other bytes): never trusted. The
    // commit reads it back, finds another digest, deletes it and refuses the push.
    seaweed.put_object(&staging_bucket, &caller_key, &other);
    let (url_ok, headers_ok) = upload_of(&vouched);
    let (status, text) = put(client(), url_ok, headers_ok, vouched.clone()).await;
    assert!(status.is_success(), "{status} {text}");
    let refused = server.commit(&push_id).await.expect(409);
    assert_eq!(refused.code(), "push.incomplete");
    assert!(
        seaweed.get_object(&staging_bucket, &caller_key).is_none(),
        "the forged object was deleted"
    );
    let log = server.log();
    let logged = |text: &str, bytes: &[u8]| {
        log.lines()
            .any(|line| line.contains(text) && line.contains(&sha256_hex(bytes)))
    };
    assert!(
        logged(
            "caller's upload read back: the store does not vouch for its digest",
            &forged
        ),
        "the object without a checksum was read back:\n{log}"
    );
    // The good upload was not read back: the store vouched for it.
    assert!(
        logged("caller's upload verified by the store's checksum", &vouched),
        "{log}"
    );
    assert!(!logged("caller's upload read back", &vouched), "{log}");
    assert!(
        seaweed
            .get_object(&staging_bucket, &format!("uploads/{}", sha256_hex(&forged)))
            .is_none(),
        "the forged bytes never became the content"
    );

    // The real bytes through the presigned URL: verified by the store, committed, and
    // the commit copies the content without hashing it again.
    let (status, text) = put(client(), url, headers, forged.clone()).await;
    assert!(status.is_success(), "{status} {text}");
    server.commit(&push_id).await.expect(202);
    let done = server.wait(&push_id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    assert_eq!(statuses(&done)["scans"], "created");
    for bytes in [&vouched, &forged] {
        let key = format!("datasets/trust/scans/main/objects/{}", sha256_hex(bytes));
        let stored = seaweed
            .get_object(&blob_bucket, &key)
            .unwrap_or_else(|| panic!("no {key}"));
        assert_eq!(sha256_hex(&stored), sha256_hex(bytes), "{key}");
    }
    let log = server.log();
    assert!(
        log.contains("staged content downloaded (digest vouched for by the store)"),
        "{log}"
    );
    assert!(
        !log.contains("bodies that do not match their signed x-amz-checksum-sha256"),
        "SeaweedFS passed the server's own checksum probe:\n{log}"
    );
}
