//! Issue 24: a single upload to S3 staging that the store checked against its signed
//! SHA-256 becomes the content where it landed, the caller's own direct key
//! (`<prefix>direct/<holder>/<sha256>`), instead of being copied server-side to the
//! content's key. On the real SeaweedFS (`scripts/install-tools`):
//!
//! - what the store enforces, probed with presigned URLs signed as the server signs them
//!   (the design relies on the checksum and on the signature covering the key and the
//!   signed headers; it does not use `If-None-Match: *` on a shared content key, because
//!   the store answers `412` to any body once the key exists, which would tell a caller
//!   that another tenant staged that content);
//! - a tenant can neither plant other bytes as a content nor overwrite another's content
//!   through a direct URL, and URLs look the same whether or not someone staged the
//!   content;
//! - a second push of the same content uploads nothing, and no copy is made;
//! - a server killed between the upload and the commit finds the upload again and commits
//!   it without a new upload.

use std::collections::BTreeMap;
use std::time::Duration;

use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::signer::{HeaderName, HeaderValue, Method, SignedUrlOptions, Signer};
use serde_json::json;
use stone_test::services::SeaweedFs;

use crate::api_s3::{new_bucket, s3_table};
use crate::api_support::{
    Dataset, File, Options, Site, blob_files, client, manifest, noise, put, sha256_hex,
};
use crate::hostile_tenant_staging::{blob, headers, world_with};

/// The base64 `x-amz-checksum-sha256` of some bytes.
fn checksum(bytes: &[u8]) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(bytes))
}

/// A presigned `PUT` of `key` in `bucket` that binds `signed` headers, as the server signs.
async fn presigned_put(
    seaweed: &SeaweedFs,
    bucket: &str,
    key: &str,
    signed: &[(&'static str, String)],
) -> String {
    let store = AmazonS3Builder::new()
        .with_endpoint(seaweed.endpoint())
        .with_bucket_name(bucket)
        .with_region(seaweed.region())
        .with_access_key_id(seaweed.access_key())
        .with_secret_access_key(seaweed.secret_key())
        .with_allow_http(true)
        .build()
        .unwrap();
    let options = signed
        .iter()
        .fold(SignedUrlOptions::default(), |options, (name, value)| {
            options.with_signed_header(
                HeaderName::from_static(name),
                HeaderValue::from_str(value).unwrap(),
            )
        });
    store
        .signed_url_opts(
            Method::PUT,
            &ObjectPath::from(key),
            Duration::from_secs(300),
            &options,
        )
        .await
        .unwrap()
        .to_string()
}

fn sent(headers: &[(&'static str, String)]) -> BTreeMap<String, String> {
    headers
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seaweedfs_enforces_what_direct_uploads_rely_on() {
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "probe");
    let body = noise(41, 3000);
    let key = format!("direct/{}", sha256_hex(&body));
    let signed = [("x-amz-checksum-sha256", checksum(&body))];
    let url = presigned_put(seaweed, &bucket, &key, &signed).await;

    // The signed digest: other bytes are refused, nothing is stored.
    let (status, text) = put(client(), url.clone(), sent(&signed), noise(42, 3000)).await;
    assert_eq!(status.as_u16(), 400, "{text}");
    assert!(text.contains("BadDigest"), "{text}");
    assert!(seaweed.get_object(&bucket, &key).is_none());
    // The signature covers the signed header: left out, the request is refused.
    let (status, _) = put(client(), url.clone(), BTreeMap::new(), body.clone()).await;
    assert_eq!(status.as_u16(), 403);
    // And the key: the same signature on another key is refused.
    let elsewhere = url.replacen("/direct/", "/direct/x", 1);
    let (status, _) = put(client(), elsewhere, sent(&signed), body.clone()).await;
    assert_eq!(status.as_u16(), 403);
    // The right bytes land; the object reports the digest (what completion checks).
    let (status, text) = put(client(), url.clone(), sent(&signed), body.clone()).await;
    assert!(status.is_success(), "{status} {text}");
    assert_eq!(seaweed.get_object(&bucket, &key), Some(body.clone()));
    // The same URL again writes only the same bytes: another body is refused.
    let (status, _) = put(client(), url.clone(), sent(&signed), noise(43, 3000)).await;
    assert_eq!(status.as_u16(), 400);
    assert_eq!(seaweed.get_object(&bucket, &key), Some(body.clone()));

    // A signed metadata header is enforced, and an unsigned one is refused.
    let marked = [
        ("x-amz-checksum-sha256", checksum(&body)),
        ("x-amz-meta-stone-holder", "alice".to_owned()),
    ];
    let marked_key = format!("{key}-marked");
    let url = presigned_put(seaweed, &bucket, &marked_key, &marked).await;
    let mut forged = sent(&marked);
    forged.insert("x-amz-meta-stone-holder".into(), "mallory".into());
    let (status, _) = put(client(), url.clone(), forged, body.clone()).await;
    assert_eq!(status.as_u16(), 403);
    let mut extra = sent(&signed);
    extra.insert("x-amz-meta-stone-holder".into(), "mallory".into());
    let plain = presigned_put(seaweed, &bucket, &marked_key, &signed).await;
    let (status, _) = put(client(), plain, extra, body.clone()).await;
    assert_eq!(status.as_u16(), 403);

    // `If-None-Match: *` signed: honoured, and checked before the body: once the key
    // exists, any body gets 412. On a shared content key that would tell whoever holds
    // such a URL that the content is staged: the server does not use it.
    let conditional = [
        ("x-amz-checksum-sha256", checksum(&body)),
        ("if-none-match", "*".to_owned()),
    ];
    let url = presigned_put(seaweed, &bucket, &key, &conditional).await;
    let (status, _) = put(client(), url.clone(), sent(&conditional), vec![0; 3000]).await;
    assert_eq!(status.as_u16(), 412);
    let (status, _) = put(client(), url, sent(&conditional), body.clone()).await;
    assert_eq!(status.as_u16(), 412);
}

/// The key a URL of `bucket` names.
fn key_of(url: &str, seaweed: &SeaweedFs, bucket: &str) -> String {
    url.split('?')
        .next()
        .unwrap()
        .strip_prefix(&format!("{}/{bucket}/", seaweed.endpoint()))
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tenant_can_neither_plant_nor_overwrite_a_content_through_a_direct_url() {
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "direct");
    let world = tokio::task::block_in_place(|| {
        world_with(&format!(
            "[staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}",
            s3_table(seaweed, &bucket, "uploads/")
        ))
    });
    let secret = File::new("secret.bin", noise(44, 5000));
    let never_seen = File::new("other.bin", noise(45, 5000));
    let sha = secret.sha256();

    // alice stages her file through her direct URL; her resumed push finds it.
    let (mine, created) = world
        .create_push(&world.alice, "alice-ns", &[blob("secret", &secret)])
        .await;
    let upload = &created["uploads"][0];
    let alice_url = upload["url"].as_str().unwrap().to_owned();
    let alice_key = key_of(&alice_url, seaweed, &bucket);
    assert!(alice_key.starts_with("uploads/direct/"), "{alice_key}");
    assert!(alice_key.ends_with(&format!("/{sha}")), "{alice_key}");
    let (status, text) = put(
        client(),
        alice_url.clone(),
        headers(upload),
        secret.bytes.clone(),
    )
    .await;
    assert!(status.is_success(), "{status}: {text}");
    let mut resumed = mine.clone();
    resumed["push_id"] = created["push_id"].clone();
    let again = world
        .post(&world.alice, "/v1/pushes", Some(&resumed))
        .await
        .expect(200)
        .body;
    assert_eq!(again["already_staged"], json!([sha]), "{again:#}");
    // Kept where it landed: no copy at the content's key.
    let staged = seaweed.list_objects(&bucket, "uploads/");
    assert_eq!(staged, vec![alice_key.clone()], "no copy was made");
    assert!(
        world
            .server
            .log()
            .contains("caller's upload kept in place as the content (no copy)"),
        "{}",
        world.server.log()
    );

    // bob names the same content and one nobody has: two URLs alike, each at his own
    // direct key (nothing says alice staged it).
    let (_, answer) = world
        .create_push(
            &world.bob,
            "bob-ns",
            &[blob("copy", &secret), blob("fresh", &never_seen)],
        )
        .await;
    assert_eq!(answer["already_staged"], json!([]), "{answer:#}");
    let uploads = answer["uploads"].as_array().unwrap().clone();
    let upload_of = |sha: &str| uploads.iter().find(|u| u["sha256"] == sha).unwrap().clone();
    let (his, fresh) = (upload_of(&sha), upload_of(&never_seen.sha256()));
    let his_url = his["url"].as_str().unwrap().to_owned();
    let his_key = key_of(&his_url, seaweed, &bucket);
    let fresh_key = key_of(fresh["url"].as_str().unwrap(), seaweed, &bucket);
    assert_eq!(
        his_key.trim_end_matches(&sha),
        fresh_key.trim_end_matches(&never_seen.sha256()),
        "a content someone staged is asked for like one nobody has"
    );
    assert_ne!(his_key, alice_key);
    let id = answer["push_id"].as_str().unwrap().to_owned();

    // His URL signed for his key cannot write alice's: the signature names the key.
    let (status, _) = put(
        client(),
        his_url.replacen(&his_key, &alice_key, 1),
        headers(&his),
        secret.bytes.clone(),
    )
    .await;
    assert_eq!(status.as_u16(), 403);
    // Other bytes through his URL: refused by the store.
    let (status, _) = put(client(), his_url.clone(), headers(&his), vec![7; 5000]).await;
    assert_eq!(status.as_u16(), 400);
    // Nor can alice change her content through her URL (still valid): only its bytes
    // pass the signed digest.
    let (status, _) = put(client(), alice_url, headers(upload), vec![7; 5000]).await;
    assert_eq!(status.as_u16(), 400);
    // Bytes planted at his key without the store's check (the bucket's own keys, as a
    // store that keeps no checksum would hold them): read back, refused, deleted.
    let mut planted = secret.bytes.clone();
    planted[100] ^= 1;
    seaweed.put_object(&bucket, &his_key, &planted);
    let (status, _) = put(
        client(),
        fresh["url"].as_str().unwrap().to_owned(),
        headers(&fresh),
        never_seen.bytes.clone(),
    )
    .await;
    assert!(status.is_success());
    let refused = world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(409);
    assert_eq!(refused.body["missing"], json!([sha]), "{:#}", refused.body);
    assert!(seaweed.get_object(&bucket, &his_key).is_none());
    assert_eq!(
        seaweed
            .get_object(&bucket, &alice_key)
            .map(|b| sha256_hex(&b)),
        Some(sha.clone()),
        "alice's content is untouched"
    );

    // With the bytes in hand he uploads them: his commit takes the content alice staged
    // (no copy), and his own upload is deleted.
    let (status, text) = put(client(), his_url, headers(&his), secret.bytes.clone()).await;
    assert!(status.is_success(), "{status}: {text}");
    world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(202);
    let done = world.wait(&world.bob, &id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    let (_, objects) = blob_files(&world.server.data_dir, "bob-ns", "copy", "dev");
    assert!(objects.values().all(|o| *o == secret.bytes));
    assert!(seaweed.get_object(&bucket, &his_key).is_none());
    assert!(
        seaweed
            .get_object(&bucket, &format!("uploads/{sha}"))
            .is_none()
    );
    assert!(
        !world
            .server
            .log()
            .contains("copied server-side to the content's key"),
        "{}",
        world.server.log()
    );

    // A second push of the same content by alice (a new push): nothing to upload.
    let (_, second) = world
        .create_push(&world.alice, "alice-ns", &[blob("again", &secret)])
        .await;
    assert_eq!(second["uploads"], json!([]), "{second:#}");
    assert_eq!(second["already_staged"], json!([sha]), "{second:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_between_a_direct_upload_and_the_commit_commits_it_without_a_new_upload() {
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "direct-crash");
    let site = Site::with_config(&format!(
        "[staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}",
        s3_table(seaweed, &bucket, "uploads/")
    ));
    let mut server = site.start();
    let file = File::new("data.bin", noise(46, 70_000));
    let (m, _) = manifest(
        "crash",
        "main",
        Options::default(),
        None,
        &[Dataset::new("raw", "BLOB", vec![file.clone()])],
    );
    let created = server.create_push(&m).await.expect(201);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    let upload = &created.body["uploads"][0];
    let (status, text) = put(
        client(),
        upload["url"].as_str().unwrap().to_owned(),
        headers(upload),
        file.bytes.clone(),
    )
    .await;
    assert!(status.is_success(), "{status}: {text}");

    // Killed before anything completed the upload: the bucket holds it, no record does.
    server.kill();
    let server = site.start();
    let mut again = m.clone();
    again["push_id"] = json!(id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(resumed.body["uploads"], json!([]), "{:#}", resumed.body);
    assert_eq!(resumed.body["already_staged"], json!([file.sha256()]));
    server.commit(&id).await.expect(202);
    let done = server.wait(&id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    let (_, objects) = blob_files(&server.data_dir, "crash", "raw", "main");
    assert!(objects.values().all(|o| *o == file.bytes));
    // One object in the bucket: the upload, kept as the content.
    let staged = seaweed.list_objects(&bucket, "uploads/");
    assert_eq!(staged.len(), 1, "{staged:?}");
    assert!(staged[0].starts_with("uploads/direct/"), "{staged:?}");

    // Pushed again after a restart: found staged, nothing uploaded.
    drop(server);
    let server = site.start();
    let (second, _) = manifest(
        "crash",
        "main",
        Options::default(),
        None,
        &[Dataset::new("raw2", "BLOB", vec![file.clone()])],
    );
    let created = server.create_push(&second).await.expect(201);
    assert_eq!(created.body["uploads"], json!([]), "{:#}", created.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blobs_in_the_staging_bucket_are_copied_server_side_not_downloaded() {
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "one-bucket");
    let site = Site::with_config(&format!(
        "[staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}[blob]\nstore = \"s3\"\n[blob.s3]\n{}",
        s3_table(seaweed, &bucket, "uploads/"),
        s3_table(seaweed, &bucket, "datasets"),
    ));
    let server = site.start();
    // A single upload two datasets name (staged, the store vouches for it: copied into
    // each; a content one dataset names alone goes straight into it: see s3_straight.rs)
    // and a multipart one (copied if the store reports its digest, otherwise downloaded
    // and hashed, then uploaded).
    let small = noise(47, 300_000);
    let large = noise(48, 6 * 1024 * 1024 + 5);
    let (m, contents) = manifest(
        "one",
        "main",
        Options::default(),
        None,
        &[
            Dataset::new(
                "scans",
                "RASTER",
                vec![
                    File::new("small.bin", small.clone()),
                    File::new("large.bin", large.clone()),
                ],
            ),
            Dataset::new(
                "thumbs",
                "RASTER",
                vec![File::new("small.bin", small.clone())],
            ),
        ],
    );
    let done = server.push(&m, &contents).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
    for (dataset, bytes) in [("scans", &small), ("scans", &large), ("thumbs", &small)] {
        let key = format!("datasets/one/{dataset}/main/objects/{}", sha256_hex(bytes));
        let stored = seaweed
            .get_object(&bucket, &key)
            .unwrap_or_else(|| panic!("no {key}"));
        assert_eq!(sha256_hex(&stored), sha256_hex(bytes), "{key}");
    }
    let log = server.log();
    let logged = |text: &str, bytes: &[u8]| {
        log.lines()
            .any(|line| line.contains(text) && line.contains(&sha256_hex(bytes)))
    };
    assert!(
        logged("object copied server-side from staging", &small),
        "{log}"
    );
    assert!(!logged("staged content downloaded", &small), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_garbage_collection_keeps_a_direct_upload_a_pending_push_needs() {
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "direct-gc");
    let site = Site::with_config(&format!(
        "[staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}\
         [gc]\ninterval_seconds = 1\npush_expiry_seconds = 600\nstaged_content_seconds = 3\nmultipart_seconds = 1\n",
        s3_table(seaweed, &bucket, "uploads/")
    ));
    let server = site.start();
    let (used, pending) = (noise(49, 40_000), noise(50, 50_000));
    let push_of = |name: &str, bytes: &[u8]| {
        manifest(
            "gc",
            "main",
            Options::default(),
            None,
            &[Dataset::new(
                name,
                "BLOB",
                vec![File::new("f.bin", bytes.to_vec())],
            )],
        )
    };
    // A committed push: its content, kept in place, is used by no live push afterwards
    // (and is swept once 3 s old: time enough to see it first).
    let (m, contents) = push_of("done", &used);
    server.push(&m, &contents).await;
    // A push uploaded and not committed: its upload stays while the push lives.
    let (m, _) = push_of("waiting", &pending);
    let created = server.create_push(&m).await.expect(201);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    let upload = &created.body["uploads"][0];
    let (status, text) = put(
        client(),
        upload["url"].as_str().unwrap().to_owned(),
        headers(upload),
        pending.clone(),
    )
    .await;
    assert!(status.is_success(), "{status}: {text}");
    let direct_key = |bytes: &[u8]| {
        seaweed
            .list_objects(&bucket, "uploads/direct/")
            .into_iter()
            .find(|key| key.ends_with(&sha256_hex(bytes)))
    };
    assert!(direct_key(&used).is_some());

    // The sweep deletes the object before it logs it: both are waited for.
    let swept_line = |log: &str| {
        log.lines().any(|line| {
            line.contains("gc: staged content deleted") && line.contains(&sha256_hex(&used))
        })
    };
    crate::gc::eventually("the unused content is swept", &server, async || {
        direct_key(&used).is_none() && swept_line(&server.log())
    })
    .await;
    // Several sweeps later the pending push's upload is there, and commits.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(direct_key(&pending).is_some(), "{}", server.log());
    server.commit(&id).await.expect(202);
    let done = server.wait(&id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}");
}
