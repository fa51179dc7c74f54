//! Issue 24: with the blob store in the S3 staging store's bucket, a single upload of a
//! content that one object-storage dataset of the push names goes straight into that
//! dataset's object (`<blob prefix>/<ns>/<dataset>/<branch>/objects/<sha256>`), through a
//! presigned `PUT` that binds the content's SHA-256: the commit finds it in place and
//! moves no bytes. On the real SeaweedFS (`scripts/install-tools`):
//!
//! - the URL names the dataset's object; the store refuses any other body there;
//! - a commit before the upload is refused as incomplete; a resumed push and a later push
//!   of the same dataset find the object and upload nothing;
//! - a content two datasets name is staged as before (and copied into each);
//! - the garbage collection removes what an expired push uploaded straight into a dataset
//!   and nothing lists, and keeps what the head lists.

use serde_json::{Value, json};
use stone_test::services::SeaweedFs;

use crate::api_s3::{new_bucket, s3_table};
use crate::api_support::{Dataset, File, Options, Server, Site, client, manifest, noise, put};
use crate::hostile_tenant_staging::headers;

/// A server whose staging (`uploads/`) and blob store (`datasets`) share one new bucket.
fn one_bucket(seaweed: &SeaweedFs, name: &str, extra: &str) -> (String, Site) {
    let bucket = new_bucket(seaweed, name);
    let site = Site::with_config(&format!(
        "[staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}[blob]\nstore = \"s3\"\n[blob.s3]\n{}{extra}",
        s3_table(seaweed, &bucket, "uploads/"),
        s3_table(seaweed, &bucket, "datasets"),
    ));
    (bucket, site)
}

/// The manifest (and contents) of a push of one BLOB dataset on `main`.
fn one_blob(ns: &str, dataset: &str, files: Vec<File>) -> (Value, crate::api_support::Contents) {
    manifest(
        ns,
        "main",
        Options::default(),
        None,
        &[Dataset::new(dataset, "BLOB", files)],
    )
}

/// The upload of `file` in a push's answer.
fn upload_of<'a>(created: &'a Value, file: &File) -> &'a Value {
    created["uploads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["sha256"] == file.sha256())
        .unwrap_or_else(|| panic!("no upload of {}: {created:#}", file.path))
}

/// The key, in `bucket`, that an upload's URL names.
fn key_of(upload: &Value, seaweed: &SeaweedFs, bucket: &str) -> String {
    let url = upload["url"].as_str().expect("a single upload");
    url.split('?')
        .next()
        .unwrap()
        .strip_prefix(&format!("{}/{bucket}/", seaweed.endpoint()))
        .unwrap_or_else(|| panic!("{url} is not in {bucket}"))
        .to_owned()
}

async fn upload(upload: &Value, bytes: &[u8]) -> (reqwest::StatusCode, String) {
    put(
        client(),
        upload["url"].as_str().unwrap().to_owned(),
        headers(upload),
        bytes.to_vec(),
    )
    .await
}

fn push_id(created: &Value) -> String {
    created["push_id"].as_str().unwrap().to_owned()
}

async fn committed(server: &Server, id: &str) {
    server.commit(id).await.expect(202);
    let done = server.wait(id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}\n{}", server.log());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_upload_one_dataset_names_goes_straight_into_its_object() {
    let seaweed = SeaweedFs::shared();
    let (bucket, site) = one_bucket(seaweed, "straight", "");
    let server = site.start();
    let own = File::new("own.bin", noise(61, 200_000));
    let shared = File::new("shared.bin", noise(62, 150_000));
    let (m, _) = manifest(
        "straight",
        "main",
        Options::default(),
        None,
        &[
            Dataset::new("scans", "BLOB", vec![own.clone(), shared.clone()]),
            Dataset::new("thumbs", "RASTER", vec![shared.clone()]),
        ],
    );
    let created = server.create_push(&m).await.expect(201).body;
    let id = push_id(&created);
    let object = format!("datasets/straight/scans/main/objects/{}", own.sha256());
    assert_eq!(key_of(upload_of(&created, &own), seaweed, &bucket), object);
    // Named by two datasets: staged, as before.
    assert!(
        key_of(upload_of(&created, &shared), seaweed, &bucket).starts_with("uploads/direct/"),
        "{created:#}"
    );

    // Nothing there yet: the commit is refused, naming the content.
    let refused = server.commit(&id).await.expect(409).body;
    assert!(refused.to_string().contains(&own.sha256()), "{refused:#}");
    // Other bytes to the dataset's object: refused by the store, nothing written.
    let (status, _) = upload(upload_of(&created, &own), &noise(63, 200_000)).await;
    assert!(status.is_client_error(), "{status}");
    assert!(seaweed.get_object(&bucket, &object).is_none());

    for file in [&own, &shared] {
        let (status, text) = upload(upload_of(&created, file), &file.bytes).await;
        assert!(status.is_success(), "{status}: {text}");
    }
    // Resumed: both are there, nothing to upload.
    let mut again = m.clone();
    again["push_id"] = json!(id);
    let resumed = server.create_push(&again).await.expect(200).body;
    assert_eq!(resumed["uploads"], json!([]), "{resumed:#}");
    let mut there: Vec<String> = serde_json::from_value(resumed["already_staged"].clone()).unwrap();
    there.sort();
    let mut expected = vec![own.sha256(), shared.sha256()];
    expected.sort();
    assert_eq!(there, expected);

    committed(&server, &id).await;
    for (dataset, file) in [("scans", &own), ("scans", &shared), ("thumbs", &shared)] {
        let key = format!("datasets/straight/{dataset}/main/objects/{}", file.sha256());
        let stored = seaweed
            .get_object(&bucket, &key)
            .unwrap_or_else(|| panic!("no {key}"));
        assert_eq!(stored, file.bytes, "{key}");
    }
    let log = server.log();
    let logged = |text: &str, file: &File| {
        log.lines()
            .any(|line| line.contains(text) && line.contains(&file.sha256()))
    };
    assert!(
        logged("content found in the dataset's object", &own),
        "{log}"
    );
    assert!(!logged("object copied server-side", &own), "{log}");
    assert!(!logged("staged content downloaded", &own), "{log}");
    assert!(logged("object copied server-side", &shared), "{log}");
    // Staging never held it.
    let staged = seaweed.list_objects(&bucket, "uploads/");
    assert!(
        !staged.iter().any(|key| key.ends_with(&own.sha256())),
        "{staged:?}"
    );

    // A later push of the dataset with one more file: only that one is asked for.
    let new = File::new("new.bin", noise(64, 90_000));
    let (m, contents) = one_blob("straight", "scans", vec![own.clone(), new.clone()]);
    let created = server.create_push(&m).await.expect(201).body;
    let asked: Vec<&str> = created["uploads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["sha256"].as_str().unwrap())
        .collect();
    assert_eq!(asked, [new.sha256().as_str()], "{created:#}");
    assert_eq!(
        key_of(upload_of(&created, &new), seaweed, &bucket),
        format!("datasets/straight/scans/main/objects/{}", new.sha256())
    );
    let (status, text) = upload(upload_of(&created, &new), &contents[&new.sha256()]).await;
    assert!(status.is_success(), "{status}: {text}");
    committed(&server, &push_id(&created)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_push_leaves_no_straight_upload_behind() {
    let seaweed = SeaweedFs::shared();
    let (bucket, site) = one_bucket(
        seaweed,
        "straight-gc",
        "[gc]\ninterval_seconds = 1\npush_expiry_seconds = 4\nclock_margin_seconds = 1\nstaged_content_seconds = 600\nmultipart_seconds = 600\n",
    );
    let server = site.start();
    let listed = File::new("listed.bin", noise(65, 70_000));
    let abandoned = File::new("abandoned.bin", noise(66, 80_000));
    let object = |file: &File| format!("datasets/gc/kept/main/objects/{}", file.sha256());

    // Committed: its object is listed by the head.
    let (m, _) = one_blob("gc", "kept", vec![listed.clone()]);
    let created = server.create_push(&m).await.expect(201).body;
    let (status, text) = upload(upload_of(&created, &listed), &listed.bytes).await;
    assert!(status.is_success(), "{status}: {text}");
    committed(&server, &push_id(&created)).await;

    // Uploaded straight into the same dataset, never committed.
    let (m, _) = one_blob("gc", "kept", vec![listed.clone(), abandoned.clone()]);
    let created = server.create_push(&m).await.expect(201).body;
    assert_eq!(created["already_staged"], json!([listed.sha256()]));
    let (status, text) = upload(upload_of(&created, &abandoned), &abandoned.bytes).await;
    assert!(status.is_success(), "{status}: {text}");
    assert!(seaweed.get_object(&bucket, &object(&abandoned)).is_some());

    crate::gc::eventually(
        "the expired push's upload is removed",
        &server,
        async || {
            seaweed.get_object(&bucket, &object(&abandoned)).is_none()
                && server
                    .log()
                    .contains("gc: an expired push's direct uploads removed")
        },
    )
    .await;
    assert_eq!(
        seaweed.get_object(&bucket, &object(&listed)),
        Some(listed.bytes.clone()),
        "the head's object stays"
    );
}

/// The sweep that deletes an expired push's straight uploads decides from the live pushes
/// it read at its start. A push created after that read, naming the same content in the
/// same dataset, finds the expired push's object at its straight key: it must not rely on
/// it (the sweep may delete it under the push, and on another replica even after that
/// push's commit listed it). The rule (`straight.rs`): a push relies on an object there
/// only if the head lists it or it was written after the push was created (less the
/// clocks' margin, here 1 s); the sweep deletes only what was written before its read,
/// less twice the margin. The sweep is held at that point by the test hook
/// `STONE_SERVER_TEST_PAUSE_AT` while the later push is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_created_while_a_sweep_runs_keeps_what_it_uploads_straight() {
    let seaweed = SeaweedFs::shared();
    let (bucket, site) = one_bucket(
        seaweed,
        "straight-window",
        "[gc]\ninterval_seconds = 1\npush_expiry_seconds = 4\nclock_margin_seconds = 1\nstaged_content_seconds = 600\nmultipart_seconds = 600\n",
    );
    let hooks = tempfile::tempdir().unwrap();
    let hook_dir = hooks.path().to_str().unwrap().to_owned();
    let server = tokio::task::block_in_place(|| {
        site.start_with_env(&[("STONE_SERVER_TEST_PAUSE_AT", hook_dir.as_str())])
    });
    let pause = hooks.path().join("pause-gc-live-read");
    let paused = hooks.path().join("paused-gc-live-read");
    let until = async |what: &str, done: &dyn Fn() -> bool| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
        while !done() {
            assert!(
                std::time::Instant::now() < deadline,
                "{what}: not within 90 s\n{}",
                server.log()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    };
    let file = File::new("scan.bin", noise(67, 60_000));
    let object = format!("datasets/window/scans/main/objects/{}", file.sha256());
    let (m, _) = one_blob("window", "scans", vec![file.clone()]);

    // Uploaded straight into the dataset's object, never committed.
    let created = server.create_push(&m).await.expect(201).body;
    let abandoned = push_id(&created);
    let (status, text) = upload(upload_of(&created, &file), &file.bytes).await;
    assert!(status.is_success(), "{status}: {text}");

    // Hold the sweep that expires that push, right after it read the live pushes: each
    // sweep stops there; the first that finds the push expired stays.
    std::fs::write(&pause, "").unwrap();
    loop {
        until("a sweep reached its read of the live pushes", &|| {
            paused.exists()
        })
        .await;
        let status = server.get(&format!("/v1/pushes/{abandoned}")).await;
        if status.body["code"] == "push.expired" {
            break;
        }
        std::fs::remove_file(&pause).unwrap();
        until("the sweep went on", &|| !paused.exists()).await;
        std::fs::write(&pause, "").unwrap();
    }

    // Created now, after the sweep's read: the object is older than this push and no head
    // lists it, so it is asked for again (before the rule it was answered as there, and
    // the sweep deleted it under this push).
    let created = server.create_push(&m).await.expect(201).body;
    let id = push_id(&created);
    assert_eq!(created["already_staged"], json!([]), "{created:#}");
    assert_eq!(key_of(upload_of(&created, &file), seaweed, &bucket), object);
    let (status, text) = upload(upload_of(&created, &file), &file.bytes).await;
    assert!(status.is_success(), "{status}: {text}");

    // The sweep goes on, and the next one is held too: the first has finished.
    std::fs::remove_file(&pause).unwrap();
    until("the sweep went on", &|| !paused.exists()).await;
    std::fs::write(&pause, "").unwrap();
    until("the next sweep started", &|| paused.exists()).await;
    std::fs::remove_file(&pause).unwrap();
    assert_eq!(
        seaweed.get_object(&bucket, &object),
        Some(file.bytes.clone()),
        "the sweep deleted the object of a push created after its read\n{}",
        server.log()
    );
    committed(&server, &id).await;
    assert_eq!(
        seaweed.get_object(&bucket, &object),
        Some(file.bytes.clone())
    );

    // Later, past the margin: the head lists it, so a push of the dataset with one more
    // file relies on it and asks for the new file only.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let more = File::new("more.bin", noise(68, 50_000));
    let (m, contents) = one_blob("window", "scans", vec![file.clone(), more.clone()]);
    let created = server.create_push(&m).await.expect(201).body;
    assert_eq!(
        created["already_staged"],
        json!([file.sha256()]),
        "{created:#}"
    );
    let (status, text) = upload(upload_of(&created, &more), &contents[&more.sha256()]).await;
    assert!(status.is_success(), "{status}: {text}");
    committed(&server, &push_id(&created)).await;
}
