//! The object-storage engine for RASTER, ARRAY, TILES, BLOB and GEOFEATURES datasets:
//! a dataset's files, per branch, on local disk or S3-compatible storage.
//!
//! ## Layout
//!
//! ```text
//! {prefix}/{ns}/{dataset}/{branch}/objects/{sha256}   one object per distinct content
//! {prefix}/{ns}/{dataset}/{branch}/head.json          the file list (see HeadDocument)
//! {prefix}/{ns}/{dataset}/{branch}/versions/{V}.json  the file list of named version V
//! {prefix}/{ns}/{dataset}/{branch}/retired/{ms}-{id}.json  objects a head change stopped
//!                                                      listing (with `[retention]` only)
//! ```
//!
//! The head document lists `path → (sha256, size)` for every file of the dataset on the
//! branch (`format: "stone.blob-head/1"`, `updated_at`, `files` sorted by path). Objects
//! are content-addressed per dataset *and* branch, so branches share nothing and a
//! branch can be deleted by prefix. Heads written since issue 27 also record `listing`,
//! the digest of `files` ([`ListingDigest`]), before them: a commit that knows the digest
//! of what it would write reads the head's first bytes ([`BlobEngine::head_listing`]) to
//! find a dataset unchanged without reading its whole listing.
//!
//! ## A put
//!
//! 1. reads the head; the target list is the given files (`replace`) or the head's files
//!    with the given ones added or overriding by path;
//! 2. if the head already lists exactly that, stops: [`BlobStatus::Unchanged`], nothing
//!    written;
//! 3. uploads each missing object from its staged file (an object that exists with the
//!    right size is skipped), checking size and sha256 while reading: one PUT below
//!    [`BlobTuning::multipart_threshold`], a multipart upload above it; a mismatch
//!    aborts the upload before the object is visible;
//! 4. writes the head last, in one atomic object write. On S3 the write is conditional
//!    (`If-None-Match: *` for a new head, `If-Match: <etag>` otherwise) and retried from
//!    step 1 when another writer got there first (SeaweedFS and AWS S3 honour both); on
//!    local disk the writes of one engine are serialized (one engine per directory).
//!
//! Step 3 trusts an object of the right size because only verified bytes reach an object
//! key: the engine's own uploads and copies are checked, and the one URL a caller gets for
//! an object key (issue 24: [`BlobEngine::object_key`], with the S3 staging store in the
//! same bucket) binds the content's SHA-256, on a store that proved it refuses any other
//! body.
//!
//! A reader who reads the head and then the objects never sees a half-written dataset.
//! A crash before step 4 leaves the previous head and some unreferenced objects, which
//! the same put run again finds and skips. Objects a new head no longer references are
//! kept (a reader of the previous head can still fetch them) until
//! [`BlobEngine::collect_garbage`].
//!
//! ## Named versions
//!
//! [`BlobEngine::record_version`] copies the head, as it is, to `versions/{V}.json` (a
//! version name is one key segment: see [`BlobEngine::record_version`]). Objects are
//! content-addressed, so nothing else is copied, and the garbage collector keeps every
//! object a version lists. The version is written after the head it copies: a crash in
//! between leaves the version where it was, and recording it again (the same push run
//! again) finishes the job. Moving a version that names other files needs `force`.

mod batch;
mod cleanup;
mod error;
mod known_heads;
mod layout;
mod local;
mod paged;
mod read;
mod retire;
mod upload;
mod versions;

use batch::Waiting;
use known_heads::KnownHeads;
use local::{OpenDirs, link_verified, local_path, prepare_head, put_local, read_local_document};

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use chrono::{DateTime, Utc};
use futures::stream::{self, BoxStream, StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::local::LocalFileSystem;
use object_store::path::Path as StorePath;
use object_store::{
    GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload,
    UpdateVersion,
};
use serde::{Deserialize, Serialize};

pub use error::BlobError;
pub use layout::ListingDigest;
pub use paged::PagedPut;
pub use retire::RetiredExpiry;

use layout::{
    DatasetLocation, HEAD_PREFIX_LEN, HeadDocument, VERSION_EXTENSION, check_path, check_sha256,
    listing_of_prefix,
};

/// How many times a put re-reads the head after losing a conditional head write.
const MAX_HEAD_ATTEMPTS: u32 = 10;

/// Puts of [`BlobEngine::put_many`] that take the general path, at once.
pub const PUTS_AT_ONCE: usize = 8;

/// Blocking tasks a local [`BlobEngine::put_many`] splits its puts into (the file-system
/// work of a commit of small datasets keeps two cores busy), unless that leaves fewer
/// than [`LOCAL_PUTS_PER_TASK`] each.
const LOCAL_PUT_TASKS: usize = 2;

const LOCAL_PUTS_PER_TASK: usize = 16;

/// Where an S3-compatible bucket is and how to sign for it. Serialized (the Iceberg
/// warehouse's storage is serializable) without the secret key.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct S3Settings {
    /// `http(s)://host:port` of an S3-compatible server (path-style requests); `None`
    /// for AWS itself.
    pub endpoint: Option<String>,
    /// The bucket (it must exist).
    pub bucket: String,
    /// The signing region (`us-east-1` when empty).
    pub region: String,
    /// Access key; empty to use the ambient AWS credentials (instance metadata, …).
    pub access_key_id: String,
    /// Secret key (never shown by `Debug`, never serialized).
    #[serde(skip_serializing, default)]
    pub secret_access_key: String,
    /// Key prefix under which every dataset lives (`a/b`, no leading or trailing `/`
    /// needed); empty for the bucket's root.
    pub prefix: String,
    /// Allow a plain-http endpoint (tests, loopback).
    pub allow_http: bool,
}

impl std::fmt::Debug for S3Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Settings")
            .field("endpoint", &self.endpoint)
            .field("bucket", &self.bucket)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<redacted>")
            .field("prefix", &self.prefix)
            .field("allow_http", &self.allow_http)
            .finish()
    }
}

impl S3Settings {
    /// A client of the bucket (no request is made).
    pub fn store(&self) -> Result<AmazonS3, object_store::Error> {
        let region = if self.region.is_empty() {
            "us-east-1"
        } else {
            &self.region
        };
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&self.bucket)
            .with_region(region)
            .with_allow_http(self.allow_http);
        if let Some(endpoint) = &self.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if !self.access_key_id.is_empty() {
            builder = builder
                .with_access_key_id(&self.access_key_id)
                .with_secret_access_key(&self.secret_access_key);
        }
        builder.build()
    }
}

/// Tuning of uploads.
#[derive(Debug, Clone)]
pub struct BlobTuning {
    /// Files of at least this many bytes go up in a multipart upload (default 16 MiB).
    pub multipart_threshold: u64,
    /// Part size of multipart uploads (default 16 MiB; S3 wants at least 5 MiB).
    pub part_size: usize,
    /// Parts of one file in flight at once (default 4).
    pub part_concurrency: usize,
    /// Files uploaded at once (default 4).
    pub file_concurrency: usize,
}

impl Default for BlobTuning {
    fn default() -> Self {
        Self {
            multipart_threshold: 16 << 20,
            part_size: 16 << 20,
            part_concurrency: 4,
            file_concurrency: 4,
        }
    }
}

/// One file of a put.
#[derive(Debug, Clone)]
pub struct BlobFile {
    /// Path inside the resource (`a/b.tif`): relative, `/`-separated.
    pub path: String,
    /// The staged file on this server.
    pub local: PathBuf,
    /// sha256 of the content, 64 lowercase hex digits (checked while uploading).
    pub sha256: String,
    /// Size in bytes (checked while uploading).
    pub size: u64,
    /// The staging store already checked `local` against `sha256` and `size`, and never
    /// changes it afterwards. A local engine then hard-links it into place instead of
    /// reading, hashing and copying it again (it falls back to the copy when the link is
    /// not possible, e.g. another file system).
    pub verified: bool,
}

/// One dataset of a [`BlobEngine::put_many`]: the arguments of [`BlobEngine::put_keeping`].
#[derive(Debug, Clone)]
pub struct BlobPut {
    pub dataset: String,
    pub files: Vec<BlobFile>,
    pub replace: bool,
    /// The version the put must not contradict (see [`BlobEngine::put_keeping`]).
    pub keep: Option<String>,
}

/// One file as the head lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlobEntry {
    /// Path inside the resource.
    pub path: String,
    /// sha256 of the content, lowercase hex.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// The current state of a dataset on a branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobHead {
    /// The files, sorted by path.
    pub files: Vec<BlobEntry>,
    /// When the head was written.
    pub updated_at: DateTime<Utc>,
}

/// What [`BlobEngine::record_version`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionStatus {
    /// The version did not exist on the branch.
    Created,
    /// The version named other files and was moved (forced).
    Moved,
    /// The version already named exactly the head's files; nothing was written.
    Unchanged,
}

/// What a put did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlobStatus {
    /// The dataset had no head on this branch.
    Created,
    /// The head changed.
    Updated,
    /// The head already listed exactly these files; nothing was written.
    Unchanged,
}

/// The outcome of a put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlobOutcome {
    pub status: BlobStatus,
    /// Files the head lists now.
    pub files: u64,
    /// Their total size.
    pub bytes: u64,
    /// Objects this put uploaded (objects already there are not counted).
    pub uploaded_files: u64,
    /// Their total size.
    pub uploaded_bytes: u64,
}

/// Failures a test can inject into the next put.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlobFault {
    /// Fail after the objects are uploaded, before the head is written (a crash there).
    BeforeHead,
}

/// The object-storage engine. Every method takes `&self`; share it behind an `Arc`.
pub struct BlobEngine {
    store: Arc<dyn ObjectStore>,
    prefix: StorePath,
    /// `local:<dir>` or `s3://<bucket>/<prefix>`, for logs.
    description: String,
    /// The directory of a local store: its staging leftovers (`<key>#<n>`, invisible
    /// to listings) are removed by deletes and garbage collection.
    local_dir: Option<PathBuf>,
    /// Whether head writes are compare-and-swap (S3; switched off if the server refuses).
    conditional: AtomicBool,
    options: BlobTuning,
    locks: DatasetLocks,
    #[cfg(feature = "test-hooks")]
    fault: Mutex<Option<BlobFault>>,
    /// Datasets of pushes to prepare once their contents are staged (local store).
    waiting: Mutex<Waiting>,
    /// Listing digests of local heads read before; every head write calls
    /// [`KnownHeads::changed`].
    known_heads: Arc<KnownHeads>,
}

impl std::fmt::Debug for BlobEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobEngine")
            .field("store", &self.description)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl BlobEngine {
    /// Datasets under the local directory `dir` (created if missing).
    pub fn local(dir: &Path) -> Result<Self, BlobError> {
        std::fs::create_dir_all(dir).map_err(|source| BlobError::LocalIo {
            path: dir.to_path_buf(),
            source,
        })?;
        let store = LocalFileSystem::new_with_prefix(dir)
            .map_err(BlobError::Settings)?
            .with_automatic_cleanup(true);
        let mut engine = Self::new(
            Arc::new(store),
            StorePath::default(),
            format!("local:{}", dir.display()),
            false,
        );
        engine.local_dir = Some(dir.to_path_buf());
        Ok(engine)
    }

    /// Datasets in an S3-compatible bucket. Nothing is requested yet (see [`Self::probe`]).
    pub fn s3(settings: S3Settings) -> Result<Self, BlobError> {
        let store = settings.store().map_err(BlobError::Settings)?;
        let prefix = StorePath::parse(settings.prefix.trim_matches('/'))
            .map_err(|e| BlobError::Settings(object_store::Error::InvalidPath { source: e }))?;
        let description = format!("s3://{}/{prefix}", settings.bucket);
        Ok(Self::new(Arc::new(store), prefix, description, true))
    }

    fn new(
        store: Arc<dyn ObjectStore>,
        prefix: StorePath,
        description: String,
        conditional: bool,
    ) -> Self {
        Self {
            store,
            prefix,
            description,
            local_dir: None,
            conditional: AtomicBool::new(conditional),
            options: BlobTuning::default(),
            locks: DatasetLocks::default(),
            #[cfg(feature = "test-hooks")]
            fault: Mutex::new(None),
            waiting: Mutex::new(Waiting::default()),
            known_heads: Arc::default(),
        }
    }

    /// Replaces the upload tuning.
    pub fn with_options(mut self, options: BlobTuning) -> Self {
        self.options = options;
        self
    }

    /// `local:<dir>` or `s3://<bucket>/<prefix>`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The key, in the store, of the dataset's object of a content on the branch. Issue
    /// 24: with the blob store in the S3 staging store's bucket, a caller's single upload
    /// goes straight there (a presigned `PUT` that binds the content's SHA-256), and the
    /// commit finds the object in place.
    pub fn object_key(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        sha256: &str,
    ) -> Result<String, BlobError> {
        check_sha256(dataset, sha256)?;
        Ok(DatasetLocation::new(&self.prefix, ns, dataset, branch)?
            .object(sha256)
            .to_string())
    }

    /// The contents the head lists of the dataset whose object is at `key` (a key
    /// [`Self::object_key`] made); empty when the dataset has no head or `key` is not such
    /// a key.
    pub async fn listed_by_head_of(
        &self,
        key: &str,
    ) -> Result<std::collections::HashSet<String>, BlobError> {
        let Ok(key) = StorePath::parse(key) else {
            return Ok(Default::default());
        };
        let parts: Vec<_> = key.parts().collect();
        let root = match parts.as_slice() {
            [root @ .., objects, _sha256] if objects.as_ref() == layout::OBJECTS_DIR => {
                StorePath::from_iter(root.iter().cloned())
            }
            _ => return Ok(Default::default()),
        };
        if !root.prefix_matches(&self.prefix) {
            return Ok(Default::default());
        }
        let location = DatasetLocation { root };
        Ok(match self.read_head(&location).await? {
            Some((head, _)) => head.files.into_iter().map(|e| e.sha256).collect(),
            None => Default::default(),
        })
    }

    /// Checks that the storage answers (reads a key that need not exist).
    pub async fn probe(&self) -> Result<(), BlobError> {
        let location = self.prefix.clone().join(".stone-probe");
        match self.store.head(&location).await {
            Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(BlobError::storage("head", &location)(e)),
        }
    }

    /// Test hook (feature `test-hooks`): the next put fails with `fault`.
    #[cfg(feature = "test-hooks")]
    pub fn inject_fault(&self, fault: Option<BlobFault>) {
        *self.fault.lock().unwrap_or_else(|e| e.into_inner()) = fault;
    }

    /// Stores a dataset's files on `ns/dataset/branch` and moves its head (see the module
    /// documentation); `replace` makes `files` the dataset's whole content, otherwise they
    /// are added (a path already listed gets the new content).
    pub async fn put(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        files: &[BlobFile],
        replace: bool,
    ) -> Result<BlobOutcome, BlobError> {
        self.put_keeping(ns, dataset, branch, files, replace, None)
            .await
    }

    /// [`Self::put`] that first makes sure the put does not leave the dataset with other
    /// files than the named version `keep` lists, when that version exists: otherwise
    /// nothing is written ([`BlobError::VersionExists`]). Checked against the head under
    /// the dataset's lock, so that a push that is to record `keep` without force does not
    /// change the content and then fail to record it.
    pub async fn put_keeping(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        files: &[BlobFile],
        replace: bool,
        keep: Option<&str>,
    ) -> Result<BlobOutcome, BlobError> {
        self.put_copying(ns, dataset, branch, files, replace, keep, &HashMap::new())
            .await
    }

    /// [`Self::put_keeping`] where the objects of some contents are copied server-side
    /// (S3 CopyObject, inside the engine's bucket) from the keys `sources` names by
    /// sha256, verified contents of an S3 staging store in the same bucket, instead of
    /// being uploaded from their local files (which such a file need not have).
    #[allow(clippy::too_many_arguments)]
    pub async fn put_copying(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        files: &[BlobFile],
        replace: bool,
        keep: Option<&str>,
        sources: &HashMap<String, String>,
    ) -> Result<BlobOutcome, BlobError> {
        let PutTarget {
            location,
            keep,
            given,
        } = PutTarget::new(&self.prefix, ns, dataset, branch, files, keep)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;

        if let Some(dir) = self.local_fast_path(&given).filter(|_| sources.is_empty()) {
            let (root, given, keep) = (location.root.clone(), given.clone(), keep.clone());
            let known = Arc::clone(&self.known_heads);
            let done = tokio::task::spawn_blocking(move || {
                put_local(
                    &dir,
                    &root,
                    &given,
                    replace,
                    keep.as_ref(),
                    (&mut OpenDirs::default(), &known),
                )
            })
            .await;
            // A put remembers the head it writes; one that stopped may have written one.
            if done.is_err() {
                self.known_heads.changed();
            }
            let done = done.map_err(|e| BlobError::LocalIo {
                path: PathBuf::from(location.root.as_ref()),
                source: std::io::Error::other(e),
            })??;
            if let Some(outcome) = done {
                return Ok(outcome);
            }
        }

        let (mut uploaded_files, mut uploaded_bytes) = (0, 0);
        for attempt in 1..=MAX_HEAD_ATTEMPTS {
            let current = self.read_head(&location).await?;
            let target = target_files(current.as_ref().map(|(head, _)| head), &given, replace);
            let summary = summarize(&target);
            if let Some((version, key)) = &keep
                && let Some((named, _)) = self.read_document(key).await?
                && named.files != target
            {
                return Err(BlobError::VersionExists {
                    version: version.clone(),
                    location: location.root.to_string(),
                });
            }
            if let Some((head, _)) = &current
                && head.files == target
            {
                return Ok(summary(
                    BlobStatus::Unchanged,
                    uploaded_files,
                    uploaded_bytes,
                ));
            }

            let (files, bytes) = self.upload_missing(&location, &given, sources).await?;
            uploaded_files += files;
            uploaded_bytes += bytes;

            #[cfg(feature = "test-hooks")]
            if let Some(fault) = self.fault.lock().unwrap_or_else(|e| e.into_inner()).take() {
                return Err(BlobError::InjectedFault {
                    fault: match fault {
                        BlobFault::BeforeHead => "before the head write",
                    },
                });
            }

            let status = match current {
                None => BlobStatus::Created,
                Some(_) => BlobStatus::Updated,
            };
            let document = HeadDocument::new(target);
            if self
                .write_head(&location, &document, current.map(|(_, version)| version))
                .await?
            {
                return Ok(summary(status, uploaded_files, uploaded_bytes));
            }
            tracing::debug!(head = %location.head(), attempt, "head changed concurrently, retrying");
            // Jittered backoff, so that writers that collided do not collide again.
            let jitter = u64::from(uuid::Uuid::new_v4().as_bytes()[0]) % 20;
            tokio::time::sleep(Duration::from_millis(jitter + 10 * u64::from(attempt))).await;
        }
        Err(BlobError::Conflict {
            location: location.head().to_string(),
            attempts: MAX_HEAD_ATTEMPTS,
        })
    }

    /// The local store's directory when a put of `files` can take [`put_local`]: every
    /// file verified by staging, no fault injected.
    fn local_fast_path(&self, files: &BTreeMap<String, BlobFile>) -> Option<PathBuf> {
        #[cfg(feature = "test-hooks")]
        let fault = self
            .fault
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some();
        #[cfg(not(feature = "test-hooks"))]
        let fault = false;
        let verified = files.values().all(|f| f.verified);
        self.local_dir.clone().filter(|_| verified && !fault)
    }

    /// Uploads the objects of `files` that are not there yet (or copies them from
    /// `sources`, see [`Self::put_copying`]); (objects, bytes) uploaded.
    async fn upload_missing(
        &self,
        location: &DatasetLocation,
        files: &BTreeMap<String, BlobFile>,
        sources: &HashMap<String, String>,
    ) -> Result<(u64, u64), BlobError> {
        let mut by_digest: HashMap<String, BlobFile> = HashMap::new();
        for file in files.values() {
            by_digest
                .entry(file.sha256.clone())
                .or_insert_with(|| file.clone());
        }
        // Owned items and captures only: the future stays `Send` for any caller.
        let jobs = by_digest.into_values().map(|file| {
            let store = Arc::clone(&self.store);
            let options = self.options.clone();
            let object = location.object(&file.sha256);
            let local_dir = self.local_dir.clone();
            let source = sources
                .get(&file.sha256)
                .map(|key| StorePath::from(key.as_str()));
            async move {
                match store.head(&object).await {
                    Ok(meta) if meta.size == file.size => return Ok(None),
                    Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => return Err(BlobError::storage("head", &object)(e)),
                }
                if let Some(source) = source {
                    let started = std::time::Instant::now();
                    store
                        .copy(&source, &object)
                        .await
                        .map_err(BlobError::storage("copy", &object))?;
                    tracing::debug!(
                        sha256 = %file.sha256,
                        size = file.size,
                        elapsed_us = started.elapsed().as_micros() as u64,
                        "object copied server-side from staging"
                    );
                    return Ok(Some(file.size));
                }
                if let (true, Some(dir)) = (file.verified, local_dir)
                    && link_verified(&dir, &object, &file).await
                {
                    return Ok(Some(file.size));
                }
                upload::upload(store.as_ref(), &object, &file, &options).await?;
                Ok::<_, BlobError>(Some(file.size))
            }
        });
        let uploaded: Vec<Option<u64>> = stream::iter(jobs.collect::<Vec<_>>())
            .buffer_unordered(self.options.file_concurrency.max(1))
            .try_collect()
            .await?;
        let sizes: Vec<u64> = uploaded.into_iter().flatten().collect();
        Ok((sizes.len() as u64, sizes.iter().sum()))
    }

    /// The head and its version, `None` when there is none.
    async fn read_head(
        &self,
        location: &DatasetLocation,
    ) -> Result<Option<(HeadDocument, UpdateVersion)>, BlobError> {
        self.read_document(&location.head()).await
    }

    /// A head document (the head or a named version) and its storage version, `None` when
    /// there is none.
    async fn read_document(
        &self,
        head: &StorePath,
    ) -> Result<Option<(HeadDocument, UpdateVersion)>, BlobError> {
        let head = head.clone();
        // A local store is read in one blocking task (the store's `get` takes several).
        if let Some(dir) = &self.local_dir
            && local_path(dir, &head).is_some()
        {
            let (dir, key) = (dir.clone(), head.clone());
            let document = tokio::task::spawn_blocking(move || read_local_document(&dir, &key))
                .await
                .map_err(|e| BlobError::LocalIo {
                    path: PathBuf::from(head.as_ref()),
                    source: std::io::Error::other(e),
                })??;
            let version = UpdateVersion {
                e_tag: None,
                version: None,
            };
            return Ok(document.map(|document| (document, version)));
        }
        let result = match self.store.get(&head).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(BlobError::storage("get", &head)(e)),
        };
        let version = UpdateVersion {
            e_tag: result.meta.e_tag.clone(),
            version: result.meta.version.clone(),
        };
        let bytes = result
            .bytes()
            .await
            .map_err(BlobError::storage("get", &head))?;
        Ok(Some((HeadDocument::parse(&head, &bytes)?, version)))
    }

    /// Writes the head; `false` when a conditional write lost to another writer.
    async fn write_head(
        &self,
        location: &DatasetLocation,
        document: &HeadDocument,
        previous: Option<UpdateVersion>,
    ) -> Result<bool, BlobError> {
        let body = serde_json::to_vec_pretty(document).expect("a head document serializes");
        self.write_head_bytes(&location.head(), body, previous)
            .await
    }

    /// [`Self::write_head`] of a document's bytes.
    async fn write_head_bytes(
        &self,
        head: &StorePath,
        body: Vec<u8>,
        previous: Option<UpdateVersion>,
    ) -> Result<bool, BlobError> {
        let written = self.put_head_bytes(head, body, previous).await;
        self.known_heads.changed();
        written
    }

    /// The put of [`Self::write_head_bytes`] (its only caller, which then forgets the
    /// heads read, whatever the put's outcome).
    async fn put_head_bytes(
        &self,
        head: &StorePath,
        body: Vec<u8>,
        previous: Option<UpdateVersion>,
    ) -> Result<bool, BlobError> {
        let head = head.clone();
        let payload = PutPayload::from(body);
        let conditional = self.conditional.load(Ordering::Relaxed);
        let mode = match (conditional, previous) {
            (false, _) => PutMode::Overwrite,
            (true, None) => PutMode::Create,
            (true, Some(version)) => PutMode::Update(version),
        };
        let options = PutOptions {
            mode,
            ..PutOptions::default()
        };
        match self.store.put_opts(&head, payload.clone(), options).await {
            Ok(_) => Ok(true),
            Err(
                object_store::Error::Precondition { .. }
                | object_store::Error::AlreadyExists { .. },
            ) => Ok(false),
            Err(
                object_store::Error::NotImplemented { .. }
                | object_store::Error::NotSupported { .. },
            ) if conditional => {
                tracing::warn!(store = %self.description, "conditional writes are not supported: head writes are serialized by this engine only");
                self.conditional.store(false, Ordering::Relaxed);
                self.store
                    .put(&head, payload)
                    .await
                    .map_err(BlobError::storage("put", &head))?;
                Ok(true)
            }
            Err(e) => Err(BlobError::storage("put", &head)(e)),
        }
    }
}

/// One async mutex per dataset and branch: puts and deletes of one dataset on one branch
/// through one engine are serialized.
/// A put's checked arguments: where the dataset is, the version to keep (name and key)
/// and the given files by path.
struct PutTarget {
    location: DatasetLocation,
    keep: Option<(String, StorePath)>,
    given: BTreeMap<String, BlobFile>,
}

impl PutTarget {
    fn new(
        prefix: &StorePath,
        ns: &str,
        dataset: &str,
        branch: &str,
        files: &[BlobFile],
        keep: Option<&str>,
    ) -> Result<Self, BlobError> {
        Self::owned(prefix, ns, dataset, branch, files.to_vec(), keep)
    }

    /// [`Self::new`] that takes the files (no copy of a million of them).
    fn owned(
        prefix: &StorePath,
        ns: &str,
        dataset: &str,
        branch: &str,
        files: Vec<BlobFile>,
        keep: Option<&str>,
    ) -> Result<Self, BlobError> {
        let location = DatasetLocation::new(prefix, ns, dataset, branch)?;
        let keep = location.kept(keep)?;
        let mut given: BTreeMap<String, BlobFile> = BTreeMap::new();
        for file in files {
            check_path(&file.path)?;
            check_sha256(&file.path, &file.sha256)?;
            let path = file.path.clone();
            if given.insert(path.clone(), file).is_some() {
                return Err(BlobError::DuplicatePath { path });
            }
        }
        Ok(Self {
            location,
            keep,
            given,
        })
    }
}

/// One writer per dataset branch in this engine.
type DatasetLocks = super::locks::KeyedLocks;

/// The files a put leaves the head with: the given ones (`replace`), or the head's with
/// the given ones added or overriding by path; sorted by path.
fn target_files(
    current: Option<&HeadDocument>,
    given: &BTreeMap<String, BlobFile>,
    replace: bool,
) -> Vec<BlobEntry> {
    let mut target: BTreeMap<String, BlobEntry> = BTreeMap::new();
    if let (Some(head), false) = (current, replace) {
        target.extend(head.files.iter().map(|e| (e.path.clone(), e.clone())));
    }
    target.extend(given.values().map(|f| {
        let entry = BlobEntry {
            path: f.path.clone(),
            sha256: f.sha256.clone(),
            size: f.size,
        };
        (f.path.clone(), entry)
    }));
    target.into_values().collect()
}

/// The outcome of a put that leaves the head listing `target`.
fn summarize(target: &[BlobEntry]) -> impl Fn(BlobStatus, u64, u64) -> BlobOutcome + use<> {
    let (files, bytes) = (
        target.len() as u64,
        target.iter().map(|e| e.size).sum::<u64>(),
    );
    move |status, uploaded_files, uploaded_bytes| BlobOutcome {
        status,
        files,
        bytes,
        uploaded_files,
        uploaded_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's job runner spawns puts and reads on the runtime: their futures must be
    /// `Send + 'static` once the engine is behind an `Arc` (type-checked, never run).
    #[allow(dead_code)]
    fn futures_can_be_spawned(engine: Arc<BlobEngine>, files: Vec<BlobFile>) {
        tokio::spawn(async move {
            let ns = String::from("ns");
            engine.put(&ns, "ds", "main", &files, false).await?;
            engine.head(&ns, "ds", "main").await?;
            engine.get(&ns, "ds", "main", "a").await?;
            engine
                .record_version(&ns, "ds", "main", "1.0", false)
                .await?;
            engine.version(&ns, "ds", "main", "1.0").await?;
            engine.versions(&ns, "ds", "main").await?;
            engine
                .get_at(&ns, "ds", "main", Some("1.0"), "a", None)
                .await?;
            engine
                .collect_garbage(&ns, "ds", "main", Duration::ZERO)
                .await?;
            engine.delete_dataset(&ns, "ds", "main").await
        });
    }
}
