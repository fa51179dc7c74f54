//! One behaviour suite for both blob engines: [`blob_behaviour`] runs against the local
//! filesystem and against SeaweedFS's S3 API.
//!
//! Everything the engine writes is also read back without it: on local disk the files
//! under the engine's directory, on S3 with stone-test's own signed client (SigV4 by
//! hand, not object_store). The layout checked here is the documented one:
//! `{prefix}/{ns}/{dataset}/{branch}/objects/{sha256}` and `…/head.json`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use stone_server::engines::blob::{
    BlobEngine, BlobEntry, BlobError, BlobFile, BlobPut, BlobStatus, BlobTuning, S3Settings,
    VersionStatus,
};
use stone_test::services::SeaweedFs;
use tempfile::TempDir;

pub const NS: &str = "demo";
pub const DATASET: &str = "scenes";

/// Small files so that tests go quickly; multipart from 5 MiB (the S3 minimum part).
pub fn test_options() -> BlobTuning {
    BlobTuning {
        multipart_threshold: 5 << 20,
        part_size: 5 << 20,
        part_concurrency: 2,
        file_concurrency: 2,
    }
}

/// Where a suite run stores, and how it reads back without the engine.
pub enum Target {
    Local {
        dir: TempDir,
    },
    S3 {
        seaweed: &'static SeaweedFs,
        bucket: String,
        prefix: String,
    },
}

impl Target {
    pub fn local() -> Self {
        Self::Local {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    /// A bucket of its own on the shared SeaweedFS, and a key prefix.
    pub fn s3(name: &str) -> Self {
        let seaweed = SeaweedFs::shared();
        let bucket = format!("stone-{name}-{}", std::process::id());
        seaweed.create_bucket(&bucket);
        Self::S3 {
            seaweed,
            bucket,
            prefix: "datasets/v1".to_owned(),
        }
    }

    pub fn engine(&self) -> BlobEngine {
        match self {
            Self::Local { dir } => BlobEngine::local(dir.path()),
            Self::S3 {
                seaweed,
                bucket,
                prefix,
            } => BlobEngine::s3(S3Settings {
                endpoint: Some(seaweed.endpoint().to_owned()),
                bucket: bucket.clone(),
                region: seaweed.region().to_owned(),
                access_key_id: seaweed.access_key().to_owned(),
                secret_access_key: seaweed.secret_key().to_owned(),
                prefix: prefix.clone(),
                allow_http: true,
            }),
        }
        .expect("open the blob engine")
        .with_options(test_options())
    }

    /// The key of a dataset's file, as documented.
    pub fn key(&self, branch: &str, name: &str) -> String {
        self.key_of(DATASET, branch, name)
    }

    /// [`Self::key`] of another dataset.
    pub fn key_of(&self, dataset: &str, branch: &str, name: &str) -> String {
        let root = format!("{NS}/{dataset}/{branch}/{name}");
        match self {
            Self::Local { .. } => root,
            Self::S3 { prefix, .. } => format!("{prefix}/{root}"),
        }
    }

    /// An object's bytes, read without the engine; `None` when missing.
    pub fn read(&self, key: &str) -> Option<Vec<u8>> {
        match self {
            Self::Local { dir } => std::fs::read(dir.path().join(key)).ok(),
            Self::S3 {
                seaweed, bucket, ..
            } => seaweed.get_object(bucket, key),
        }
    }

    /// The keys under `prefix`, sorted, read without the engine.
    pub fn list(&self, prefix: &str) -> Vec<String> {
        match self {
            Self::Local { dir } => {
                let mut keys = Vec::new();
                let root = dir.path().join(prefix);
                list_files(&root, &mut keys);
                let mut keys: Vec<String> = keys
                    .iter()
                    .map(|p| {
                        p.strip_prefix(dir.path())
                            .unwrap()
                            .to_string_lossy()
                            .into_owned()
                    })
                    .collect();
                keys.sort();
                keys
            }
            Self::S3 {
                seaweed, bucket, ..
            } => seaweed.list_objects(bucket, prefix),
        }
    }

    /// The branch's head document, read without the engine.
    pub fn head_document(&self, branch: &str) -> Option<Value> {
        self.head_document_of(DATASET, branch)
    }

    /// [`Self::head_document`] of another dataset.
    pub fn head_document_of(&self, dataset: &str, branch: &str) -> Option<Value> {
        self.read(&self.key_of(dataset, branch, "head.json"))
            .map(|bytes| serde_json::from_slice(&bytes).expect("head.json is JSON"))
    }

    /// `path → sha256` as the head document lists them.
    pub fn head_files(&self, branch: &str) -> Vec<(String, String, u64)> {
        self.head_files_of(DATASET, branch)
    }

    /// [`Self::head_files`] of another dataset.
    pub fn head_files_of(&self, dataset: &str, branch: &str) -> Vec<(String, String, u64)> {
        let Some(head) = self.head_document_of(dataset, branch) else {
            return Vec::new();
        };
        assert_eq!(head["format"], "stone.blob-head/1");
        head["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["path"].as_str().unwrap().to_owned(),
                    f["sha256"].as_str().unwrap().to_owned(),
                    f["size"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    /// Checks that every file the head lists is there, with its sha256 and size.
    pub fn check_objects(&self, branch: &str) {
        self.check_objects_of(DATASET, branch);
    }

    /// [`Self::check_objects`] of another dataset.
    pub fn check_objects_of(&self, dataset: &str, branch: &str) {
        for (path, sha256, size) in self.head_files_of(dataset, branch) {
            let bytes = self
                .read(&self.key_of(dataset, branch, &format!("objects/{sha256}")))
                .unwrap_or_else(|| panic!("object of {path} ({sha256}) is missing"));
            assert_eq!(bytes.len() as u64, size, "{path}");
            assert_eq!(sha256_hex(&bytes), sha256, "{path}");
        }
    }
}

fn list_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            list_files(&path, into);
        } else {
            into.push(path);
        }
    }
}

pub use stone_package::digest::sha256_hex;

/// Deterministic pseudo-random bytes (xorshift), so that sizes and digests are stable.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

/// Staged files in a temporary directory.
pub struct Staging {
    dir: TempDir,
}

impl Staging {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    /// Stages `content` for the resource path `path`.
    pub fn file(&self, path: &str, content: &[u8]) -> BlobFile {
        let local = self.dir.path().join(sha256_hex(path.as_bytes()));
        std::fs::write(&local, content).expect("write a staged file");
        BlobFile {
            path: path.to_owned(),
            local,
            sha256: sha256_hex(content),
            size: content.len() as u64,
            verified: false,
        }
    }
}

/// The suite. Leaves `dev` with one file and `main` deleted.
pub async fn blob_behaviour(target: &Target) {
    let engine = target.engine();
    let staging = Staging::new();
    let a = staging.file("a.tif", &bytes(1, 1000));
    let b = staging.file("tiles/b.png", &bytes(2, 70_000));
    let empty = staging.file("empty.txt", b"");

    // New dataset.
    assert_eq!(engine.head(NS, DATASET, "main").await.unwrap(), None);
    let created = engine
        .put(
            NS,
            DATASET,
            "main",
            &[a.clone(), b.clone(), empty.clone()],
            false,
        )
        .await
        .unwrap();
    assert_eq!(created.status, BlobStatus::Created);
    assert_eq!((created.files, created.bytes), (3, 71_000));
    assert_eq!(
        (created.uploaded_files, created.uploaded_bytes),
        (3, 71_000)
    );
    assert_eq!(
        target.head_files("main"),
        [
            ("a.tif".to_owned(), a.sha256.clone(), 1000),
            ("empty.txt".to_owned(), empty.sha256.clone(), 0),
            ("tiles/b.png".to_owned(), b.sha256.clone(), 70_000),
        ]
    );
    target.check_objects("main");
    let head = engine.head(NS, DATASET, "main").await.unwrap().unwrap();
    assert_eq!(head.files.len(), 3);

    // The same files again: nothing written, the head document untouched.
    let document = target.read(&target.key("main", "head.json")).unwrap();
    let again = engine
        .put(
            NS,
            DATASET,
            "main",
            &[b.clone(), empty.clone(), a.clone()],
            false,
        )
        .await
        .unwrap();
    assert_eq!(again.status, BlobStatus::Unchanged);
    assert_eq!((again.uploaded_files, again.files), (0, 3));
    let replaced_same = engine
        .put(
            NS,
            DATASET,
            "main",
            &[a.clone(), b.clone(), empty.clone()],
            true,
        )
        .await
        .unwrap();
    assert_eq!(replaced_same.status, BlobStatus::Unchanged);
    // A subset without replace is already there too.
    let subset = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&a), false)
        .await
        .unwrap();
    assert_eq!(subset.status, BlobStatus::Unchanged);
    assert_eq!(
        target.read(&target.key("main", "head.json")).unwrap(),
        document
    );

    // Add a file, and the same content under a second path: one object per content.
    let c = staging.file("c.bin", &bytes(3, 5000));
    let a_copy = staging.file("copies/a.tif", &bytes(1, 1000));
    let added = engine
        .put(NS, DATASET, "main", &[c.clone(), a_copy.clone()], false)
        .await
        .unwrap();
    assert_eq!(added.status, BlobStatus::Updated);
    assert_eq!(
        (added.files, added.uploaded_files, added.uploaded_bytes),
        (5, 1, 5000)
    );
    target.check_objects("main");
    assert_eq!(target.list(&target.key("main", "objects")).len(), 4);

    // A path gets new content.
    let a2 = staging.file("a.tif", &bytes(4, 1200));
    let changed = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&a2), false)
        .await
        .unwrap();
    assert_eq!(changed.status, BlobStatus::Updated);
    assert_eq!((changed.files, changed.uploaded_files), (5, 1));
    let listed = target.head_files("main");
    assert!(listed.contains(&("a.tif".to_owned(), a2.sha256.clone(), 1200)));
    assert!(listed.contains(&("copies/a.tif".to_owned(), a.sha256.clone(), 1000)));

    // Reads: whole files and ranges, checked against the staged bytes.
    let read = engine
        .get(NS, DATASET, "main", "a.tif")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.entry.sha256, a2.sha256);
    assert_eq!(read.range, 0..1200);
    assert_eq!(
        read.bytes().await.unwrap().as_ref(),
        bytes(4, 1200).as_slice()
    );
    let part = engine
        .get_range(NS, DATASET, "main", "tiles/b.png", 100..4196)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(part.range, 100..4196);
    assert_eq!(
        part.bytes().await.unwrap().as_ref(),
        &bytes(2, 70_000)[100..4196]
    );
    let nothing = engine
        .get(NS, DATASET, "main", "empty.txt")
        .await
        .unwrap()
        .unwrap();
    assert!(nothing.bytes().await.unwrap().is_empty());
    assert!(
        engine
            .get(NS, DATASET, "main", "missing.bin")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        engine
            .get(NS, DATASET, "nobranch", "a.tif")
            .await
            .unwrap()
            .is_none()
    );
    let beyond = engine
        .get_range(NS, DATASET, "main", "a.tif", 1000..1201)
        .await
        .unwrap_err();
    assert!(
        matches!(beyond, BlobError::InvalidRange { size: 1200, .. }),
        "{beyond:?}"
    );

    // Branches are isolated: their own head, their own objects.
    let d = staging.file("d.bin", &bytes(5, 3000));
    let dev = engine
        .put(NS, DATASET, "dev", &[d.clone(), c.clone()], false)
        .await
        .unwrap();
    assert_eq!(dev.status, BlobStatus::Created);
    assert_eq!(
        dev.uploaded_files, 2,
        "objects are not shared across branches"
    );
    assert_eq!(target.head_files("dev").len(), 2);
    assert_eq!(target.head_files("main").len(), 5);
    assert!(
        engine
            .get(NS, DATASET, "main", "d.bin")
            .await
            .unwrap()
            .is_none()
    );
    target.check_objects("dev");

    // Replace: the head lists only the new files; old objects stay until collected.
    let replaced = engine
        .put(NS, DATASET, "main", std::slice::from_ref(&d), true)
        .await
        .unwrap();
    assert_eq!(replaced.status, BlobStatus::Updated);
    assert_eq!(
        (replaced.files, replaced.bytes, replaced.uploaded_files),
        (1, 3000, 1)
    );
    assert_eq!(
        target.head_files("main"),
        [("d.bin".to_owned(), d.sha256.clone(), 3000)]
    );
    assert!(
        engine
            .get(NS, DATASET, "main", "a.tif")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(target.list(&target.key("main", "objects")).len(), 6);
    // Recent objects survive a collection with a grace period; without one they go.
    let young = engine
        .collect_garbage(NS, DATASET, "main", Duration::from_secs(3600))
        .await
        .unwrap();
    assert_eq!(young, 0);
    let collected = engine
        .collect_garbage(NS, DATASET, "main", Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(collected, 5);
    assert_eq!(
        target.list(&target.key("main", "objects")),
        [target.key("main", &format!("objects/{}", d.sha256))]
    );
    target.check_objects("main");
    target.check_objects("dev");

    // Bad input.
    let error = engine
        .put(NS, "a/b", "main", std::slice::from_ref(&d), false)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            BlobError::InvalidName {
                what: "dataset",
                ..
            }
        ),
        "{error:?}"
    );
    let error = engine
        .put(NS, DATASET, "..", std::slice::from_ref(&d), false)
        .await
        .unwrap_err();
    assert!(
        matches!(error, BlobError::InvalidName { what: "branch", .. }),
        "{error:?}"
    );
    let mut escaping = d.clone();
    escaping.path = "../d.bin".to_owned();
    let error = engine
        .put(NS, DATASET, "main", &[escaping], false)
        .await
        .unwrap_err();
    assert!(matches!(error, BlobError::InvalidPath { .. }), "{error:?}");
    let error = engine
        .put(NS, DATASET, "main", &[d.clone(), d.clone()], false)
        .await
        .unwrap_err();
    assert!(
        matches!(error, BlobError::DuplicatePath { .. }),
        "{error:?}"
    );

    // Delete: head first, then objects; the other branch stays.
    assert!(engine.delete_dataset(NS, DATASET, "main").await.unwrap());
    assert_eq!(engine.head(NS, DATASET, "main").await.unwrap(), None);
    assert_eq!(target.head_document("main"), None);
    assert!(target.list(&target.key("main", "")).is_empty());
    assert!(!engine.delete_dataset(NS, DATASET, "main").await.unwrap());
    assert_eq!(target.head_files("dev").len(), 2);
    assert!(engine.delete_dataset(NS, DATASET, "dev").await.unwrap());
    let e = staging.file("e.bin", &bytes(6, 10));
    engine.put(NS, DATASET, "dev", &[e], false).await.unwrap();
    target.check_objects("dev");
    assert_eq!(target.list(&target.key("dev", "objects")).len(), 1);
}

/// Large files go up in parts and come back intact; a file that does not match its
/// digest never becomes an object.
pub async fn blob_large_files(target: &Target) {
    let engine = target.engine();
    let staging = Staging::new();
    let big_content = bytes(7, (11 << 20) + 12_345);
    let big = staging.file("big.nc", &big_content);
    let outcome = engine
        .put(NS, DATASET, "large", std::slice::from_ref(&big), false)
        .await
        .unwrap();
    assert_eq!(outcome.status, BlobStatus::Created);
    assert_eq!(outcome.uploaded_bytes, big_content.len() as u64);
    target.check_objects("large");
    let read = engine
        .get(NS, DATASET, "large", "big.nc")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(sha256_hex(&read.bytes().await.unwrap()), big.sha256);
    let tail = engine
        .get_range(NS, DATASET, "large", "big.nc", (10 << 20)..big.size)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        tail.bytes().await.unwrap().as_ref(),
        &big_content[(10 << 20)..]
    );

    // A staged file whose content is not what the manifest said, small and large.
    for (name, len) in [("lying-small.bin", 4096usize), ("lying-large.bin", 6 << 20)] {
        let mut lying = staging.file(name, &bytes(8, len));
        lying.sha256 = sha256_hex(b"something else");
        let error = engine
            .put(NS, DATASET, "large", std::slice::from_ref(&lying), false)
            .await
            .unwrap_err();
        assert!(
            matches!(error, BlobError::Digest { .. }),
            "{name}: {error:?}"
        );
        assert_eq!(
            target.read(&target.key("large", &format!("objects/{}", lying.sha256))),
            None,
            "{name}: no object under the announced digest"
        );
    }
    let mut short = staging.file("short.bin", &bytes(9, 100));
    short.size = 101;
    let error = engine
        .put(NS, DATASET, "large", &[short], false)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            BlobError::Digest {
                actual_size: 100,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(target.head_files("large").len(), 1);
    assert_eq!(target.list(&target.key("large", "objects")).len(), 1);
}

/// Named versions: a version is a copy of the head under `versions/{V}.json`, read back
/// at that version after the head moved on; moving it needs force; the garbage collector
/// keeps what a version lists; a version name is one key segment.
pub async fn blob_versions(target: &Target) {
    let engine = target.engine();
    // One staging directory per content: staged files are named by resource path.
    let (staging_one, staging_two) = (Staging::new(), Staging::new());
    let (one, two) = (bytes(11, 2000), bytes(12, 3000));
    let v1 = staging_one.file("data/a.bin", &one);
    let v2 = staging_two.file("data/a.bin", &two);
    let branch = "versions";
    let record = |version: &'static str, force: bool| {
        let engine = &engine;
        async move {
            engine
                .record_version(NS, DATASET, branch, version, force)
                .await
        }
    };
    let collect = || {
        let engine = &engine;
        async move {
            engine
                .collect_garbage(NS, DATASET, branch, Duration::ZERO)
                .await
                .unwrap()
        }
    };

    engine
        .put(NS, DATASET, branch, std::slice::from_ref(&v1), true)
        .await
        .unwrap();
    assert_eq!(
        record("1.0.0", false).await.unwrap(),
        VersionStatus::Created
    );
    // Recording it again for the same head writes nothing.
    assert_eq!(
        record("1.0.0", false).await.unwrap(),
        VersionStatus::Unchanged
    );
    // The version document is the documented copy of the head.
    let document: Value = serde_json::from_slice(
        &target
            .read(&target.key(branch, "versions/1.0.0.json"))
            .expect("versions/1.0.0.json"),
    )
    .unwrap();
    assert_eq!(document["format"], "stone.blob-head/1");
    assert_eq!(
        document["files"],
        target.head_document(branch).unwrap()["files"]
    );

    engine
        .put(NS, DATASET, branch, std::slice::from_ref(&v2), true)
        .await
        .unwrap();
    record("2.0.0+build.7", false).await.unwrap();
    assert_eq!(
        engine.versions(NS, DATASET, branch).await.unwrap(),
        ["1.0.0", "2.0.0+build.7"]
    );
    let read = |version: Option<&'static str>, range: Option<std::ops::Range<u64>>| {
        let engine = &engine;
        async move {
            engine
                .get_at(NS, DATASET, branch, version, "data/a.bin", range)
                .await
                .unwrap()
                .expect("the file is listed")
                .bytes()
                .await
                .unwrap()
        }
    };
    assert_eq!(read(Some("1.0.0"), None).await.as_ref(), one.as_slice());
    assert_eq!(
        read(Some("2.0.0+build.7"), None).await.as_ref(),
        two.as_slice()
    );
    assert_eq!(read(None, None).await.as_ref(), two.as_slice());
    assert_eq!(
        read(Some("1.0.0"), Some(10..20)).await.as_ref(),
        &one[10..20]
    );
    let named = engine
        .version(NS, DATASET, branch, "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(named.files[0].sha256, v1.sha256);
    assert_eq!(
        engine.version(NS, DATASET, branch, "9.9").await.unwrap(),
        None
    );
    assert!(
        engine
            .get_at(NS, DATASET, branch, Some("9.9"), "data/a.bin", None)
            .await
            .unwrap()
            .is_none()
    );

    // A put that would leave other files than 1.0.0 names while keeping 1.0.0 writes
    // nothing; one that leaves them is fine.
    let kept = engine
        .put_keeping(
            NS,
            DATASET,
            branch,
            std::slice::from_ref(&v1),
            true,
            Some("2.0.0+build.7"),
        )
        .await
        .unwrap_err();
    assert!(matches!(kept, BlobError::VersionExists { .. }), "{kept:?}");
    assert_eq!(read(None, None).await.as_ref(), two.as_slice());
    let same = engine
        .put_keeping(
            NS,
            DATASET,
            branch,
            std::slice::from_ref(&v2),
            true,
            Some("2.0.0+build.7"),
        )
        .await
        .unwrap();
    assert_eq!(same.status, BlobStatus::Unchanged);

    // 1.0.0 names other files than the head now: moving it needs force.
    let refused = record("1.0.0", false).await.unwrap_err();
    assert!(
        matches!(refused, BlobError::VersionExists { .. }),
        "{refused:?}"
    );
    assert_eq!(read(Some("1.0.0"), None).await.as_ref(), one.as_slice());

    // The collector keeps the objects a version lists, even without a grace period.
    assert_eq!(collect().await, 0);
    assert_eq!(target.list(&target.key(branch, "objects")).len(), 2);
    assert_eq!(read(Some("1.0.0"), None).await.as_ref(), one.as_slice());

    // Forced, 1.0.0 moves to the head; its old object is then garbage.
    assert_eq!(record("1.0.0", true).await.unwrap(), VersionStatus::Moved);
    assert_eq!(read(Some("1.0.0"), None).await.as_ref(), two.as_slice());
    assert_eq!(collect().await, 1);
    assert_eq!(
        target.list(&target.key(branch, "objects")),
        [target.key(branch, &format!("objects/{}", v2.sha256))]
    );

    // Version names are one key segment; a dataset without a head has nothing to name.
    for bad in ["../head", "a/b", ".hidden", ""] {
        let error = engine
            .record_version(NS, DATASET, branch, bad, true)
            .await
            .unwrap_err();
        assert!(
            matches!(
                error,
                BlobError::InvalidName {
                    what: "version",
                    ..
                }
            ),
            "{bad:?}: {error:?}"
        );
    }
    let error = engine
        .record_version(NS, "nothing-here", branch, "1.0.0", false)
        .await
        .unwrap_err();
    assert!(matches!(error, BlobError::NoHead { .. }), "{error:?}");

    // Deleting the dataset on the branch deletes its versions too.
    assert!(engine.delete_dataset(NS, DATASET, branch).await.unwrap());
    assert!(
        engine
            .versions(NS, DATASET, branch)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(target.list(&target.key(branch, "")).is_empty());
}

/// Many datasets put at once (a commit batch): each gets its own result, in order, and the
/// files and heads that single puts would write. A dataset named twice, a file that was
/// not verified by staging and a file of the wrong size take the general path; a bad path
/// fails its dataset only.
async fn blob_put_many(target: &Target) {
    let engine = target.engine();
    let staging = Staging::new();
    let verified = |path: &str, seed: u64| {
        let mut file = staging.file(path, &bytes(seed, 2000 + seed as usize));
        file.verified = true;
        file
    };
    let put = |dataset: &str, files: Vec<BlobFile>, keep: Option<&str>| BlobPut {
        dataset: dataset.to_owned(),
        files,
        replace: false,
        keep: keep.map(str::to_owned),
    };
    let x = verified("x.bin", 1);
    engine
        .put(NS, "one", "main", std::slice::from_ref(&x), false)
        .await
        .unwrap();
    let (y, w, z) = (
        verified("y.bin", 2),
        verified("w.bin", 3),
        verified("z.bin", 4),
    );
    let unverified = staging.file("u.bin", &bytes(5, 700));
    let mut wrong_size = verified("s.bin", 6);
    wrong_size.size += 1;
    let mut bad_path = verified("b.bin", 7);
    bad_path.path = "../b.bin".into();
    let puts = [
        put("one", vec![x.clone()], None),
        put("two", vec![y.clone()], None),
        put("three", vec![bad_path], None),
        put("four", vec![z.clone()], Some("v1")),
        put("two", vec![w.clone()], None),
        put("five", vec![unverified.clone()], None),
        put("six", vec![wrong_size], None),
    ];
    let results = engine.put_many(NS, "main", puts.to_vec()).await;
    assert_eq!(results.len(), puts.len(), "one result per put");
    let statuses: Vec<Option<BlobStatus>> = results
        .iter()
        .map(|r| r.as_ref().ok().map(|o| o.status))
        .collect();
    assert_eq!(
        statuses,
        [
            Some(BlobStatus::Unchanged),
            Some(BlobStatus::Created),
            None,
            Some(BlobStatus::Created),
            Some(BlobStatus::Updated),
            Some(BlobStatus::Created),
            None,
        ],
        "{results:?}"
    );
    assert!(
        matches!(results[2], Err(BlobError::InvalidPath { .. })),
        "{:?}",
        results[2]
    );
    assert!(results[6].is_err(), "a staged file of the wrong size fails");

    let entry = |f: &BlobFile| (f.path.clone(), f.sha256.clone(), f.size);
    assert_eq!(target.head_files_of("one", "main"), [entry(&x)]);
    assert_eq!(
        target.head_files_of("two", "main"),
        [entry(&w), entry(&y)],
        "the dataset named twice has both puts"
    );
    assert_eq!(target.head_files_of("four", "main"), [entry(&z)]);
    assert_eq!(target.head_files_of("five", "main"), [entry(&unverified)]);
    for dataset in ["three", "six"] {
        assert!(
            target.head_files_of(dataset, "main").is_empty(),
            "{dataset}"
        );
    }
    for dataset in ["one", "two", "four", "five"] {
        target.check_objects_of(dataset, "main");
    }

    // Enough datasets to be split between blocking tasks on a local store.
    let many: Vec<BlobPut> = (0..40)
        .map(|i| {
            put(
                &format!("many-{i:02}"),
                vec![verified(&format!("m{i}.bin"), 100 + i)],
                None,
            )
        })
        .collect();
    let results = engine.put_many(NS, "main", many.clone()).await;
    for (put, result) in many.iter().zip(&results) {
        assert_eq!(result.as_ref().unwrap().status, BlobStatus::Created);
        assert_eq!(
            target.head_files_of(&put.dataset, "main"),
            [entry(&put.files[0])]
        );
        target.check_objects_of(&put.dataset, "main");
    }

    let exist = engine
        .heads_exist(NS, "main", &["one", "three", "two", "nope"])
        .await;
    let exist: Vec<bool> = exist.into_iter().map(Result::unwrap).collect();
    assert_eq!(exist, [true, false, true, false]);

    // The listings asked for are the heads' as written (a local store remembers the
    // heads its puts write): read together, and after each of many rewrites of one
    // dataset with contents of the same size (a new head file each time, whose inode a
    // file system may give again).
    let listing = |dataset: &str| -> Option<String> {
        target
            .head_document_of(dataset, "main")
            .and_then(|head| head["listing"].as_str().map(str::to_owned))
    };
    let names = ["one", "two", "three", "four", "five", "many-00", "many-39"];
    let listed: Vec<Option<String>> = engine
        .head_listings(NS, &names, "main")
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let written: Vec<Option<String>> = names.iter().map(|name| listing(name)).collect();
    assert_eq!(listed, written);
    assert!(
        written.iter().filter(|l| l.is_some()).count() >= 5,
        "{written:?}"
    );
    for round in 0..30u64 {
        let file = verified("r.bin", 1_000 + round);
        let mut put = put("rewritten", vec![file], None);
        put.replace = true;
        let results = engine.put_many(NS, "main", vec![put]).await;
        assert!(results[0].is_ok(), "{results:?}");
        let read = engine.head_listing(NS, "rewritten", "main").await.unwrap();
        assert_eq!(read, listing("rewritten"), "round {round}");
        assert!(read.is_some());
    }
}

/// A local store prepares the heads of new datasets while a push uploads (`prepare`):
/// the put then rewrites the prepared head in place and renames it, so the head is the
/// prepared file, with the put's time. A prepared head that does not fit is left alone
/// (the put writes the head as usual) and goes with the dataset's leftovers; a dataset
/// that has a head gets no prepared one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_prepared_heads() {
    use std::os::unix::fs::MetadataExt;
    let target = Target::local();
    let Target::Local { dir } = &target else {
        unreachable!()
    };
    let engine = target.engine();
    let staging = Staging::new();
    let mut file = staging.file("a.bin", &bytes(21, 3000));
    file.verified = true;
    let entry = |f: &BlobFile| BlobEntry {
        path: f.path.clone(),
        sha256: f.sha256.clone(),
        size: f.size,
    };
    let prepared = |dataset: &str| {
        dir.path()
            .join(target.key_of(dataset, "main", "head.json#0"))
    };
    let wait_for = |path: std::path::PathBuf| async move {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while !path.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "{} never came",
                path.display()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };

    engine.prepare(NS, "main", &[("fresh".to_owned(), vec![entry(&file)])]);
    wait_for(prepared("fresh")).await;
    assert!(
        target.head_document_of("fresh", "main").is_none(),
        "not a dataset yet"
    );
    let inode = std::fs::metadata(prepared("fresh")).unwrap().ino();
    let before = chrono::Utc::now();
    let put = engine
        .put(NS, "fresh", "main", std::slice::from_ref(&file), false)
        .await
        .unwrap();
    assert_eq!(put.status, BlobStatus::Created);
    let head_path = dir.path().join(target.key_of("fresh", "main", "head.json"));
    assert_eq!(
        std::fs::metadata(&head_path).unwrap().ino(),
        inode,
        "the head is the prepared file"
    );
    assert!(!prepared("fresh").exists());
    assert_eq!(
        target.head_files_of("fresh", "main"),
        [(file.path.clone(), file.sha256.clone(), 3000)]
    );
    let head = engine.head(NS, "fresh", "main").await.unwrap().unwrap();
    assert!(
        head.updated_at >= before,
        "the put's time, not the preparation's"
    );
    target.check_objects_of("fresh", "main");

    // A dataset with a head gets no prepared head.
    engine.prepare(
        NS,
        "main",
        &[
            ("fresh".to_owned(), vec![entry(&file)]),
            ("marker".to_owned(), vec![]),
        ],
    );
    wait_for(prepared("marker")).await;
    assert!(!prepared("fresh").exists());

    // A prepared head longer than the head to write is not used, and is a leftover.
    let stale = prepared("stale");
    std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
    std::fs::write(&stale, vec![b' '; 100_000]).unwrap();
    let put = engine
        .put(NS, "stale", "main", std::slice::from_ref(&file), false)
        .await
        .unwrap();
    assert_eq!(put.status, BlobStatus::Created);
    assert_eq!(target.head_files_of("stale", "main").len(), 1);
    assert!(stale.exists());
    engine
        .collect_garbage(NS, "stale", "main", Duration::ZERO)
        .await
        .unwrap();
    assert!(!stale.exists(), "collected with the dataset's leftovers");
    assert_eq!(target.head_files_of("stale", "main").len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_put_many() {
    blob_put_many(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_blob_put_many() {
    blob_put_many(&Target::s3("many")).await;
}

/// Retired records and their expiry (`retire.rs`): a record lists what a head change
/// dropped; an expiry deletes what records older than the age list, unless the head or a
/// version lists it, keeps the newest records asked for, and removes the records it
/// expired. Read back without the engine, on either store.
pub async fn blob_retired(target: &Target) {
    let engine = target.engine();
    let staging = Staging::new();
    let (a, b, c) = (bytes(21, 1000), bytes(22, 2000), bytes(23, 3000));
    let branch = "retired";
    let files = [
        staging.file("a.bin", &a),
        staging.file("b.bin", &b),
        staging.file("c.bin", &c),
    ];
    let sha = |data: &[u8]| crate::api_support::sha256_hex(data);
    let [fa, fb, fc] = files;
    // a and c, named 1.0; then a and b (c dropped); then a (b dropped). The commit
    // records each drop (with `[retention]`); here the test does, in the same order.
    engine
        .put(NS, DATASET, branch, &[fa.clone(), fc], true)
        .await
        .unwrap();
    engine
        .record_version(NS, DATASET, branch, "1.0", false)
        .await
        .unwrap();
    engine
        .put(NS, DATASET, branch, &[fa.clone(), fb], true)
        .await
        .unwrap();
    engine
        .record_retired(NS, DATASET, branch, vec![sha(&c)])
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    engine.put(NS, DATASET, branch, &[fa], true).await.unwrap();
    engine
        .record_retired(NS, DATASET, branch, vec![sha(&b), "not-a-sha".to_owned()])
        .await
        .unwrap();
    let records = target.list(&target.key(branch, "retired/"));
    assert_eq!(records.len(), 2, "{records:?}");
    // Younger than the age: nothing.
    let none = engine
        .expire_retired(NS, DATASET, branch, Duration::from_secs(3600), 0)
        .await
        .unwrap();
    assert_eq!((none.heads, none.files), (0, 0));
    // Every record old enough, the newest kept: only c's record expires, and c is listed
    // by version 1.0, so it stays.
    let kept_newest = engine
        .expire_retired(NS, DATASET, branch, Duration::ZERO, 1)
        .await
        .unwrap();
    assert_eq!((kept_newest.heads, kept_newest.files), (1, 0));
    assert!(
        target
            .read(&target.key(branch, &format!("objects/{}", sha(&c))))
            .is_some()
    );
    // Then b's record: nothing lists b any more.
    let expired = engine
        .expire_retired(NS, DATASET, branch, Duration::ZERO, 0)
        .await
        .unwrap();
    assert_eq!((expired.heads, expired.files, expired.bytes), (1, 1, 2000));
    assert!(
        target
            .read(&target.key(branch, &format!("objects/{}", sha(&b))))
            .is_none()
    );
    assert!(
        target
            .read(&target.key(branch, &format!("objects/{}", sha(&a))))
            .is_some()
    );
    assert!(target.list(&target.key(branch, "retired/")).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_retired() {
    blob_retired(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_blob_retired() {
    blob_retired(&Target::s3("retired")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_versions() {
    blob_versions(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_blob_versions() {
    blob_versions(&Target::s3("versions")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_behaviour() {
    blob_behaviour(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_blob_behaviour() {
    blob_behaviour(&Target::s3("behaviour")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_large_files() {
    blob_large_files(&Target::local()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn s3_blob_large_files() {
    blob_large_files(&Target::s3("large")).await;
}

/// A file the staging store verified is hard-linked into a local store, not copied: the
/// object is the staged inode, reads back intact, and a second put finds it in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_blob_links_verified_files() {
    use std::os::unix::fs::MetadataExt;
    let target = Target::local();
    let engine = target.engine();
    let staging = Staging::new();
    let content = bytes(11, 3 << 20);
    let mut file = staging.file("linked.bin", &content);
    file.verified = true;
    let outcome = engine
        .put(NS, DATASET, "linked", std::slice::from_ref(&file), false)
        .await
        .unwrap();
    assert_eq!(outcome.status, BlobStatus::Created);
    assert_eq!(outcome.uploaded_bytes, content.len() as u64);
    let Target::Local { dir } = &target else {
        unreachable!()
    };
    let object = dir
        .path()
        .join(target.key("linked", &format!("objects/{}", file.sha256)));
    assert_eq!(
        std::fs::metadata(&object).unwrap().ino(),
        std::fs::metadata(&file.local).unwrap().ino(),
        "the object is the staged file, linked"
    );
    let read = engine
        .get(NS, DATASET, "linked", "linked.bin")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.bytes().await.unwrap().as_ref(), content.as_slice());
    target.check_objects("linked");

    // The same content under another path: the object is there already.
    let mut again = file.clone();
    again.path = "again.bin".into();
    let outcome = engine
        .put(NS, DATASET, "linked", &[again], false)
        .await
        .unwrap();
    assert_eq!(
        (outcome.status, outcome.uploaded_files),
        (BlobStatus::Updated, 0)
    );
}
