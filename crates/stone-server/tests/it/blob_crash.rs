//! Interrupted and concurrent writes of the blob engines: readers never see a half
//! dataset, a retry completes, leftovers of a crash change nothing.

use stone_server::engines::blob::{BlobError, BlobFault, BlobStatus};

use crate::blob_behaviour::{DATASET, NS, Staging, Target, bytes};

/// A put that dies after uploading, before its head: the previous head stays, the
/// objects are there, and the same put run again uploads nothing and moves the head.
async fn interrupted_put(target: &Target) {
    let engine = target.engine();
    let staging = Staging::new();
    let a = staging.file("a.bin", &bytes(11, 2000));
    let b = staging.file("b.bin", &bytes(12, 3000));
    engine
        .put(NS, DATASET, "main", std::slice::from_ref(&a), false)
        .await
        .unwrap();
    let document = target.read(&target.key("main", "head.json")).unwrap();

    engine.inject_fault(Some(BlobFault::BeforeHead));
    let error = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&b), false)
        .await
        .unwrap_err();
    assert!(
        matches!(error, BlobError::InjectedFault { .. }),
        "{error:?}"
    );
    // Readers see the dataset as it was.
    assert_eq!(
        target.read(&target.key("main", "head.json")).unwrap(),
        document
    );
    assert!(
        engine
            .get(NS, DATASET, "main", "b.bin")
            .await
            .unwrap()
            .is_none()
    );
    // The uploaded object is there, unreferenced.
    assert_eq!(
        target.read(&target.key("main", &format!("objects/{}", b.sha256))),
        Some(bytes(12, 3000))
    );

    let retried = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&b), false)
        .await
        .unwrap();
    assert_eq!(retried.status, BlobStatus::Updated);
    assert_eq!((retried.files, retried.uploaded_files), (2, 0));
    target.check_objects("main");
    assert_eq!(target.head_files("main").len(), 2);

    // A head on a new branch that dies before its head leaves no head at all.
    engine.inject_fault(Some(BlobFault::BeforeHead));
    engine
        .put(NS, DATASET, "dev", std::slice::from_ref(&a), false)
        .await
        .unwrap_err();
    assert_eq!(engine.head(NS, DATASET, "dev").await.unwrap(), None);
    assert_eq!(target.head_document("dev"), None);
    let created = engine
        .put(NS, DATASET, "dev", std::slice::from_ref(&a), false)
        .await
        .unwrap();
    assert_eq!(
        (created.status, created.uploaded_files),
        (BlobStatus::Created, 0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_interrupted_put_keeps_the_previous_head() {
    interrupted_put(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_interrupted_put_keeps_the_previous_head() {
    interrupted_put(&Target::s3("crash")).await;
}

/// The local store writes `<key>#<n>` and renames it into place; a crash leaves such
/// files behind. They must not be read as objects or heads, and deletes and garbage
/// collection remove them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_staging_leftovers_change_nothing() {
    let target = Target::local();
    let Target::Local { dir } = &target else {
        unreachable!()
    };
    let engine = target.engine();
    let staging = Staging::new();
    let a = staging.file("a.bin", &bytes(21, 2000));
    let b = staging.file("b.bin", &bytes(22, 3000));
    engine
        .put(NS, DATASET, "main", std::slice::from_ref(&a), false)
        .await
        .unwrap();

    // A half-written object (the one the next put needs) and a half-written head.
    let root = dir.path().join(target.key("main", ""));
    std::fs::write(
        root.join("objects").join(format!("{}#1", b.sha256)),
        &bytes(22, 3000)[..1000],
    )
    .unwrap();
    std::fs::write(root.join("head.json#2"), b"{\"format\": \"stone.blob-he").unwrap();

    let head = engine.head(NS, DATASET, "main").await.unwrap().unwrap();
    assert_eq!(head.files.len(), 1);
    assert!(
        engine
            .get(NS, DATASET, "main", "b.bin")
            .await
            .unwrap()
            .is_none()
    );
    let put = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&b), false)
        .await
        .unwrap();
    assert_eq!((put.status, put.uploaded_files), (BlobStatus::Updated, 1));
    target.check_objects("main");
    let read = engine
        .get(NS, DATASET, "main", "b.bin")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        read.bytes().await.unwrap().as_ref(),
        bytes(22, 3000).as_slice()
    );

    // Garbage collection removes the dead staging files (the object's and the head's),
    // not the live objects.
    let collected = engine
        .collect_garbage(NS, DATASET, "main", std::time::Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(collected, 2);
    assert!(
        !root
            .join("objects")
            .join(format!("{}#1", b.sha256))
            .exists()
    );
    assert!(!root.join("head.json#2").exists());
    target.check_objects("main");

    // Delete removes everything, leftovers included.
    assert!(engine.delete_dataset(NS, DATASET, "main").await.unwrap());
    assert!(!root.exists(), "{} is left", root.display());
}

/// Two engines (as two server processes would) add different files to the same dataset
/// at the same time: the conditional head write makes both survive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_concurrent_puts_keep_every_file() {
    let target = Target::s3("concurrent");
    let staging = Staging::new();
    let files: Vec<_> = (0..8)
        .map(|i| staging.file(&format!("f{i}.bin"), &bytes(100 + i, 1000 + i as usize)))
        .collect();
    let engines: Vec<_> = (0..4).map(|_| target.engine()).collect();
    let mut tasks = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let engine = &engines[i % engines.len()];
        tasks.push(engine.put(NS, DATASET, "main", std::slice::from_ref(file), false));
    }
    for outcome in futures::future::join_all(tasks).await {
        outcome.unwrap();
    }
    let listed = target.head_files("main");
    assert_eq!(listed.len(), files.len(), "{listed:?}");
    target.check_objects("main");
}

/// What the S3 head write relies on, checked on SeaweedFS itself with object_store:
/// `If-None-Match: *` refuses to overwrite, `If-Match` refuses a stale ETag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_server_honours_conditional_writes() {
    use object_store::aws::AmazonS3Builder;
    use object_store::path::Path;
    use object_store::{ObjectStore, PutMode, PutOptions, UpdateVersion};

    let Target::S3 {
        seaweed, bucket, ..
    } = Target::s3("conditional")
    else {
        unreachable!()
    };
    let store = AmazonS3Builder::new()
        .with_endpoint(seaweed.endpoint())
        .with_bucket_name(&bucket)
        .with_region(seaweed.region())
        .with_access_key_id(seaweed.access_key())
        .with_secret_access_key(seaweed.secret_key())
        .with_allow_http(true)
        .build()
        .unwrap();
    let key = Path::from("probe/head.json");
    let create = |body: &'static str| {
        let options = PutOptions {
            mode: PutMode::Create,
            ..PutOptions::default()
        };
        store.put_opts(&key, body.into(), options)
    };
    let first = create("1").await.unwrap();
    let error = create("2").await.unwrap_err();
    assert!(
        matches!(error, object_store::Error::AlreadyExists { .. }),
        "{error:?}"
    );

    let update = |body: &'static str, e_tag: Option<String>| {
        let mode = PutMode::Update(UpdateVersion {
            e_tag,
            version: None,
        });
        store.put_opts(
            &key,
            body.into(),
            PutOptions {
                mode,
                ..PutOptions::default()
            },
        )
    };
    let second = update("3", first.e_tag.clone()).await.unwrap();
    let stale = update("4", first.e_tag.clone()).await.unwrap_err();
    assert!(
        matches!(stale, object_store::Error::Precondition { .. }),
        "{stale:?}"
    );
    update("5", second.e_tag.clone()).await.unwrap();
    assert_eq!(
        seaweed.get_object(&bucket, "probe/head.json").unwrap(),
        b"5"
    );
}
