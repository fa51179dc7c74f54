//! The object-storage engine for RASTER, ARRAY, TILES, BLOB and GEOFEATURES datasets:
//! a dataset's files, per branch, on local disk or S3-compatible storage.
//!
//! ## Layout
//!
//! ```text
//! {prefix}/{ns}/{dataset}/{branch}/objects/{sha256}   one object per distinct content
//! {prefix}/{ns}/{dataset}/{branch}/head.json          the file list (see HeadDocument)
//! {prefix}/{ns}/{dataset}/{branch}/versions/{V}.json  the file list of named version V
//! ```
//!
//! The head document lists `path → (sha256, size)` for every file of the dataset on the
//! branch (`format: "stone.blob-head/1"`, `updated_at`, `files` sorted by path). Objects
//! are content-addressed per dataset *and* branch, so branches share nothing and a
//! branch can be deleted by prefix.
//!
//! ## A put
//!
//! 1. reads the head; the target list is the given files (`replace`) or the head's files
//!    with the given ones added or overriding by path;
//! 2. if the head already lists exactly that, stops: [`BlobStatus::Unchanged`], nothing
//!    written;
//! 3. uploads each missing object from its staged file (an object that exists with the
//!    right size is skipped), checking size and sha256 while reading: one PUT below
//!    [`BlobOptions::multipart_threshold`], a multipart upload above it; a mismatch
//!    aborts the upload before the object is visible;
//! 4. writes the head last, in one atomic object write. On S3 the write is conditional
//!    (`If-None-Match: *` for a new head, `If-Match: <etag>` otherwise) and retried from
//!    step 1 when another writer got there first (SeaweedFS and AWS S3 honour both); on
//!    local disk the writes of one engine are serialized (one engine per directory).
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

mod error;
mod layout;
mod upload;

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

use layout::{
    DatasetLocation, HEAD_FORMAT, HeadDocument, VERSION_EXTENSION, check_path, check_sha256,
};

/// A dataset ready to be prepared: its name and files.
type ReadyDataset = (String, Vec<BlobEntry>);
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
pub struct BlobOptions {
    /// Files of at least this many bytes go up in a multipart upload (default 16 MiB).
    pub multipart_threshold: u64,
    /// Part size of multipart uploads (default 16 MiB; S3 wants at least 5 MiB).
    pub part_size: usize,
    /// Parts of one file in flight at once (default 4).
    pub part_concurrency: usize,
    /// Files uploaded at once (default 4).
    pub file_concurrency: usize,
}

impl Default for BlobOptions {
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

/// A file being read: its entry, the byte range delivered and the bytes.
pub struct BlobRead {
    pub entry: BlobEntry,
    /// The bytes delivered (`0..size` for a whole file).
    pub range: Range<u64>,
    pub stream: BoxStream<'static, Result<Bytes, BlobError>>,
}

impl BlobRead {
    /// Collects the stream.
    pub async fn bytes(self) -> Result<Bytes, BlobError> {
        let chunks: Vec<Bytes> = self.stream.try_collect().await?;
        Ok(match chunks.len() {
            1 => chunks.into_iter().next().expect("one chunk"),
            _ => Bytes::from(chunks.concat()),
        })
    }
}

impl std::fmt::Debug for BlobRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlobRead")
            .field("entry", &self.entry)
            .field("range", &self.range)
            .finish_non_exhaustive()
    }
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
    options: BlobOptions,
    locks: DatasetLocks,
    fault: Mutex<Option<BlobFault>>,
    /// Datasets of pushes to prepare once their contents are staged (local store).
    waiting: Mutex<Waiting>,
}

/// Datasets waiting for contents before they are prepared (see
/// [`BlobEngine::prepare_when_staged`]), by (holder, sha256) of a content they wait for.
#[derive(Debug, Default)]
struct Waiting {
    by_content: HashMap<(String, String), Vec<Arc<WaitingDataset>>>,
    /// Registrations held: at most [`MAX_WAITING`].
    count: usize,
}

/// A dataset of a push and how many of its distinct contents have not arrived.
#[derive(Debug)]
struct WaitingDataset {
    namespace: String,
    branch: String,
    name: String,
    files: Vec<BlobEntry>,
    missing: Mutex<usize>,
}

/// Most registrations [`Waiting`] holds (one per dataset and missing content). Preparing is
/// only a head start: past this, the oldest are dropped, and those datasets are prepared
/// at commit like any other.
const MAX_WAITING: usize = 1_000_000;

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
            options: BlobOptions::default(),
            locks: DatasetLocks::default(),
            fault: Mutex::new(None),
            waiting: Mutex::new(Waiting::default()),
        }
    }

    /// Replaces the upload tuning.
    pub fn with_options(mut self, options: BlobOptions) -> Self {
        self.options = options;
        self
    }

    /// `local:<dir>` or `s3://<bucket>/<prefix>`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Checks that the storage answers (reads a key that need not exist).
    pub async fn probe(&self) -> Result<(), BlobError> {
        let location = self.prefix.clone().join(".stone-probe");
        match self.store.head(&location).await {
            Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(BlobError::storage("head", &location)(e)),
        }
    }

    #[doc(hidden)]
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
        let PutTarget {
            location,
            keep,
            given,
        } = PutTarget::new(&self.prefix, ns, dataset, branch, files, keep)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;

        if let Some(dir) = self.local_fast_path(&given) {
            let (root, given, keep) = (location.root.clone(), given.clone(), keep.clone());
            let done = tokio::task::spawn_blocking(move || {
                put_local(
                    &dir,
                    &root,
                    &given,
                    replace,
                    keep.as_ref(),
                    &mut OpenDirs::default(),
                )
            })
            .await
            .map_err(|e| BlobError::LocalIo {
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

            let (files, bytes) = self.upload_missing(&location, &given).await?;
            uploaded_files += files;
            uploaded_bytes += bytes;

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
            let document = HeadDocument {
                format: HEAD_FORMAT.to_owned(),
                updated_at: Utc::now(),
                files: target.clone(),
            };
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

    /// [`Self::put_keeping`] of many datasets on one branch, each with its own result, in
    /// order. A local store writes them in a few blocking tasks, with every dataset's lock
    /// held across (a commit of many small datasets is otherwise mostly thread hand-offs);
    /// a put that needs the general path, and every put on S3, goes as
    /// [`Self::put_keeping`], [`PUTS_AT_ONCE`] at a time.
    pub async fn put_many(
        &self,
        ns: &str,
        branch: &str,
        puts: &[BlobPut],
    ) -> Vec<Result<BlobOutcome, BlobError>> {
        let mut results: Vec<Option<Result<BlobOutcome, BlobError>>> =
            puts.iter().map(|_| None).collect();
        let mut general = Vec::new();
        let mut local = Vec::new();
        let mut roots = std::collections::HashSet::new();
        for (i, put) in puts.iter().enumerate() {
            let target = PutTarget::new(
                &self.prefix,
                ns,
                &put.dataset,
                branch,
                &put.files,
                put.keep.as_deref(),
            );
            match target {
                Err(error) => results[i] = Some(Err(error)),
                Ok(target) => match self.local_fast_path(&target.given) {
                    // One lock per dataset: a dataset named twice goes the general way.
                    Some(dir) if roots.insert(target.location.root.to_string()) => {
                        local.push((i, dir, target, put.replace));
                    }
                    _ => general.push(i),
                },
            }
        }

        if !local.is_empty() {
            // Locks in key order, so that two such calls cannot wait on each other.
            local.sort_by(|a, b| a.2.location.root.as_ref().cmp(b.2.location.root.as_ref()));
            let mut guards = Vec::with_capacity(local.len());
            for (_, _, target, _) in &local {
                let lock = self.locks.get(target.location.root.as_ref());
                guards.push(lock.lock_owned().await);
            }
            let per_task = local
                .len()
                .div_ceil(LOCAL_PUT_TASKS)
                .max(LOCAL_PUTS_PER_TASK);
            let mut tasks = Vec::new();
            while !local.is_empty() {
                let chunk: Vec<_> = local.drain(..per_task.min(local.len())).collect();
                let indices: Vec<usize> = chunk.iter().map(|(i, _, _, _)| *i).collect();
                let task = tokio::task::spawn_blocking(move || {
                    let mut dirs = OpenDirs::default();
                    chunk
                        .into_iter()
                        .map(|(i, dir, target, replace)| {
                            let root = &target.location.root;
                            let keep = target.keep.as_ref();
                            let put =
                                put_local(&dir, root, &target.given, replace, keep, &mut dirs);
                            (i, put)
                        })
                        .collect::<Vec<_>>()
                });
                tasks.push((indices, task));
            }
            for (indices, task) in tasks {
                match task.await {
                    Ok(done) => {
                        for (i, result) in done {
                            match result {
                                Ok(Some(outcome)) => results[i] = Some(Ok(outcome)),
                                Ok(None) => general.push(i),
                                Err(error) => results[i] = Some(Err(error)),
                            }
                        }
                    }
                    Err(error) => {
                        for i in indices {
                            results[i] = Some(Err(BlobError::LocalIo {
                                path: PathBuf::from(&puts[i].dataset),
                                source: std::io::Error::other(error.to_string()),
                            }));
                        }
                    }
                }
            }
            drop(guards);
        }

        general.sort_unstable();
        let slow: Vec<_> = general
            .iter()
            .map(|&i| {
                let put = &puts[i];
                async move {
                    let result = self
                        .put_keeping(
                            ns,
                            &put.dataset,
                            branch,
                            &put.files,
                            put.replace,
                            put.keep.as_deref(),
                        )
                        .await;
                    (i, result)
                }
            })
            .collect();
        let done: Vec<_> = stream::iter(slow)
            .buffer_unordered(PUTS_AT_ONCE)
            .collect()
            .await;
        for (i, result) in done {
            results[i] = Some(result);
        }
        results
            .into_iter()
            .map(|r| r.expect("every put has a result"))
            .collect()
    }

    /// Whether each dataset has a head on the branch, in order (what a commit checkpoints
    /// before it writes). A local store answers in one blocking task, each head looked up
    /// from the namespace's directory.
    pub async fn heads_exist(
        &self,
        ns: &str,
        branch: &str,
        datasets: &[&str],
    ) -> Vec<Result<bool, BlobError>> {
        let local = self.local_dir.as_ref().and_then(|dir| {
            let ns_dir = local_path(dir, &self.prefix.clone().join(ns))?;
            let heads: Option<Vec<(PathBuf, String)>> = datasets
                .iter()
                .map(|dataset| {
                    let location = DatasetLocation::new(&self.prefix, ns, dataset, branch).ok()?;
                    let path = local_path(dir, &location.head())?;
                    Some((path, format!("{dataset}/{branch}/{}", layout::HEAD_NAME)))
                })
                .collect();
            Some((ns_dir, heads?))
        });
        if let Some((ns_dir, heads)) = local {
            let checked = tokio::task::spawn_blocking(move || {
                let names: Vec<&String> = heads.iter().map(|(_, name)| name).collect();
                let found = crate::fs_at::sizes_under(&ns_dir, &names);
                heads
                    .into_iter()
                    .zip(found)
                    .map(|((path, _), found)| match found {
                        Ok(found) => Ok(found.is_some()),
                        Err(source) => Err(BlobError::LocalIo { path, source }),
                    })
                    .collect::<Vec<_>>()
            })
            .await;
            if let Ok(checked) = checked {
                return checked;
            }
        }
        let reads: Vec<_> = datasets
            .iter()
            .map(|dataset| async move { self.head(ns, dataset, branch).await.map(|h| h.is_some()) })
            .collect();
        stream::iter(reads).buffered(PUTS_AT_ONCE).collect().await
    }

    /// Local store: prepares the datasets a push is about to write, in a background thread
    /// at a lower priority, so that this file-system work (most of a commit of many small
    /// new datasets) overlaps the push's uploads instead of following them: creates their
    /// directories (`{ns}/{dataset}/{branch}/objects/`) and, for a dataset without a head,
    /// the head it will have as a *prepared head* (`head.json#<digits>`, named after its
    /// file list), which the commit rewrites in place with its own time and renames over
    /// `head.json` (see `put_local`). A directory or a prepared head is not a dataset (a
    /// dataset exists once `head.json` does), so a push that never commits leaves nothing
    /// visible; what it leaves behind goes with the dataset's other leftovers (see
    /// [`Self::collect_garbage`], [`Self::delete_dataset`]). Nothing is done for S3.
    pub fn prepare(&self, ns: &str, branch: &str, datasets: &[(String, Vec<BlobEntry>)]) {
        let Some(dir) = self.local_dir.clone() else {
            return;
        };
        let prepared: Vec<(PathBuf, PathBuf, Vec<BlobEntry>)> = datasets
            .iter()
            .filter_map(|(dataset, files)| {
                let location = DatasetLocation::new(&self.prefix, ns, dataset, branch).ok()?;
                let objects = local_path(&dir, &location.objects())?;
                let head = local_path(&dir, &location.head())?;
                Some((objects, head, files.clone()))
            })
            .collect();
        if prepared.is_empty() {
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("blob-prepare".into())
            .spawn(move || {
                // SAFETY: setpriority on this thread's own ID; no memory is passed.
                #[cfg(target_os = "linux")]
                unsafe {
                    libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
                }
                for (objects, head, mut files) in prepared {
                    if let Err(error) = std::fs::create_dir_all(&objects) {
                        tracing::debug!(path = %objects.display(), error = %error, "cannot prepare a dataset directory");
                        return;
                    }
                    if head.exists() {
                        continue;
                    }
                    // The head a put of these files would write now: the commit writes it
                    // again with its own time, over these same bytes.
                    files.sort_by(|a, b| a.path.cmp(&b.path));
                    let document = HeadDocument {
                        format: HEAD_FORMAT.to_owned(),
                        updated_at: Utc::now(),
                        files,
                    };
                    let body =
                        serde_json::to_vec_pretty(&document).expect("a head document serializes");
                    if let Err(error) = prepare_head(&head, &body) {
                        tracing::debug!(path = %head.display(), error = %error, "cannot prepare a head");
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::debug!(error = %error, "cannot start preparing dataset directories");
        }
    }

    /// Local store: [`Self::prepare`]s the datasets of a push whose contents are all
    /// `staged` now, and keeps the others until their contents arrive from `holder` (the
    /// caller whose push it is; see [`Self::content_staged`]). A manifest alone makes
    /// nothing on disk: a dataset is prepared only once the uploads it needs are there.
    pub fn prepare_when_staged(
        &self,
        namespace: &str,
        branch: &str,
        holder: &str,
        datasets: &[(String, Vec<BlobEntry>)],
        staged: impl Fn(&str) -> bool,
    ) {
        if self.local_dir.is_none() {
            return;
        }
        let mut ready = Vec::new();
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        for (name, files) in datasets {
            let missing: std::collections::BTreeSet<&str> = files
                .iter()
                .map(|f| f.sha256.as_str())
                .filter(|sha256| !staged(sha256))
                .collect();
            if missing.is_empty() {
                ready.push((name.clone(), files.clone()));
                continue;
            }
            if waiting.count + missing.len() > MAX_WAITING {
                // Abandoned pushes fill it: start afresh (commits prepare what they need).
                *waiting = Waiting::default();
            }
            let dataset = Arc::new(WaitingDataset {
                namespace: namespace.to_owned(),
                branch: branch.to_owned(),
                name: name.clone(),
                files: files.clone(),
                missing: Mutex::new(missing.len()),
            });
            waiting.count += missing.len();
            for sha256 in missing {
                waiting
                    .by_content
                    .entry((holder.to_owned(), sha256.to_owned()))
                    .or_default()
                    .push(dataset.clone());
            }
        }
        drop(waiting);
        self.prepare(namespace, branch, &ready);
    }

    /// Local store: a content arrived from `holder` (its upload was verified): prepares the
    /// datasets that waited for it and for nothing else any more.
    pub fn content_staged(&self, holder: &str, sha256: &str) {
        if self.local_dir.is_none() {
            return;
        }
        let datasets = {
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            let datasets = waiting
                .by_content
                .remove(&(holder.to_owned(), sha256.to_owned()))
                .unwrap_or_default();
            waiting.count = waiting.count.saturating_sub(datasets.len());
            datasets
        };
        // (namespace, branch) → the datasets whose contents have all arrived, with their files.
        let mut ready: BTreeMap<(String, String), Vec<ReadyDataset>> = BTreeMap::new();
        for dataset in datasets {
            let mut missing = dataset.missing.lock().unwrap_or_else(|e| e.into_inner());
            *missing = missing.saturating_sub(1);
            if *missing == 0 {
                ready
                    .entry((dataset.namespace.clone(), dataset.branch.clone()))
                    .or_default()
                    .push((dataset.name.clone(), dataset.files.clone()));
            }
        }
        for ((namespace, branch), datasets) in ready {
            self.prepare(&namespace, &branch, &datasets);
        }
    }

    /// The local store's directory when a put of `files` can take [`put_local`]: every
    /// file verified by staging, no fault injected.
    fn local_fast_path(&self, files: &BTreeMap<String, BlobFile>) -> Option<PathBuf> {
        let fault = self
            .fault
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some();
        let verified = files.values().all(|f| f.verified);
        self.local_dir.clone().filter(|_| verified && !fault)
    }

    /// Uploads the objects of `files` that are not there yet; (objects, bytes) uploaded.
    async fn upload_missing(
        &self,
        location: &DatasetLocation,
        files: &BTreeMap<String, BlobFile>,
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
            async move {
                match store.head(&object).await {
                    Ok(meta) if meta.size == file.size => return Ok(None),
                    Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => return Err(BlobError::storage("head", &object)(e)),
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
        let head = location.head();
        let body = serde_json::to_vec_pretty(document).expect("a head document serializes");
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

    /// The dataset's current head on the branch, `None` when it has none.
    pub async fn head(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Option<BlobHead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        Ok(self.read_head(&location).await?.map(|(head, _)| BlobHead {
            files: head.files,
            updated_at: head.updated_at,
        }))
    }

    /// A file of the dataset as the head lists it now; `None` when the head does not list
    /// `path` (or there is no head).
    pub async fn get(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        path: &str,
    ) -> Result<Option<BlobRead>, BlobError> {
        self.get_at(ns, dataset, branch, None, path, None).await
    }

    /// Records the dataset's current head on the branch as the named version `version`
    /// (see the module documentation). A version name is what the push API accepts for a
    /// package version: ASCII letters, digits, `_`, `-`, `.`, `+`, not starting with `.`,
    /// at most 255 bytes ([`BlobError::InvalidName`] otherwise). A version that names other
    /// files is moved only with `force` ([`BlobError::VersionExists`] otherwise).
    pub async fn record_version(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: &str,
        force: bool,
    ) -> Result<VersionStatus, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let key = location.version(version)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let Some((head, _)) = self.read_head(&location).await? else {
            return Err(BlobError::NoHead {
                version: version.to_owned(),
                location: location.root.to_string(),
            });
        };
        let status = match self.read_document(&key).await? {
            Some((named, _)) if named.files == head.files => return Ok(VersionStatus::Unchanged),
            Some(_) if !force => {
                return Err(BlobError::VersionExists {
                    version: version.to_owned(),
                    location: location.root.to_string(),
                });
            }
            Some(_) => VersionStatus::Moved,
            None => VersionStatus::Created,
        };
        let document = HeadDocument {
            format: HEAD_FORMAT.to_owned(),
            updated_at: Utc::now(),
            files: head.files,
        };
        let body = serde_json::to_vec_pretty(&document).expect("a head document serializes");
        self.store
            .put(&key, PutPayload::from(body))
            .await
            .map_err(BlobError::storage("put", &key))?;
        Ok(status)
    }

    /// The files the named version lists, `None` when the dataset has no such version on
    /// the branch.
    pub async fn version(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: &str,
    ) -> Result<Option<BlobHead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let key = location.version(version)?;
        Ok(self.read_document(&key).await?.map(|(head, _)| BlobHead {
            files: head.files,
            updated_at: head.updated_at,
        }))
    }

    /// The names of the dataset's versions on the branch, sorted.
    pub async fn versions(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<Vec<String>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        Ok(self
            .version_keys(&location)
            .await?
            .into_iter()
            .map(|(name, _)| name)
            .collect())
    }

    /// `(name, key)` of every version document of the dataset on the branch, by name.
    async fn version_keys(
        &self,
        location: &DatasetLocation,
    ) -> Result<Vec<(String, StorePath)>, BlobError> {
        let prefix = location.versions();
        let mut found = Vec::new();
        let mut listing = self.store.list(Some(&prefix));
        while let Some(meta) = listing.next().await {
            let meta = match meta {
                Ok(meta) => meta,
                Err(object_store::Error::NotFound { .. }) => continue,
                Err(e) => return Err(BlobError::storage("list", &prefix)(e)),
            };
            let name = meta
                .location
                .filename()
                .and_then(|f| f.strip_suffix(VERSION_EXTENSION))
                .filter(|name| layout::check_version(name).is_ok())
                .map(str::to_owned);
            // Only documents directly under versions/ that this engine could have written.
            if let Some(name) = name
                && meta.location.prefix_match(&prefix).map(|p| p.count()) == Some(1)
            {
                found.push((name, meta.location));
            }
        }
        found.sort();
        Ok(found)
    }

    /// Bytes `range` of a file (`start < end <= size`; HTTP `Range` answers map onto it).
    pub async fn get_range(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        path: &str,
        range: Range<u64>,
    ) -> Result<Option<BlobRead>, BlobError> {
        self.get_at(ns, dataset, branch, None, path, Some(range))
            .await
    }

    /// A file of a named version (`None`: the branch's head), or bytes `range` of it;
    /// `None` when the version (or head) does not list `path`.
    pub async fn get_at(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        version: Option<&str>,
        path: &str,
        range: Option<Range<u64>>,
    ) -> Result<Option<BlobRead>, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let document = match version {
            Some(version) => location.version(version)?,
            None => location.head(),
        };
        let Some((head, _)) = self.read_document(&document).await? else {
            return Ok(None);
        };
        let Some(entry) = head.files.into_iter().find(|e| e.path == path) else {
            return Ok(None);
        };
        if let Some(range) = &range
            && (range.start >= range.end || range.end > entry.size)
        {
            return Err(BlobError::InvalidRange {
                path: path.to_owned(),
                range: range.clone(),
                size: entry.size,
            });
        }
        let object = location.object(&entry.sha256);
        let options = GetOptions {
            range: range.map(GetRange::Bounded),
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(&object, options)
            .await
            .map_err(BlobError::storage("get", &object))?;
        let delivered = result.range.clone();
        let location_text = object.to_string();
        let stream = result
            .into_stream()
            .map_err(move |source| BlobError::Storage {
                operation: "get",
                location: location_text.clone(),
                source,
            })
            .boxed();
        Ok(Some(BlobRead {
            entry,
            range: delivered,
            stream,
        }))
    }

    /// Deletes the dataset on the branch: the head first (readers see it gone at once),
    /// then every object. `false` when there was nothing.
    pub async fn delete_dataset(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
    ) -> Result<bool, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let head = location.head();
        // S3 answers a delete of a missing key with success: look first.
        let had_head = match self.store.head(&head).await {
            Ok(_) => true,
            Err(object_store::Error::NotFound { .. }) => false,
            Err(e) => return Err(BlobError::storage("head", &head)(e)),
        };
        if had_head {
            match self.store.delete(&head).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("delete", &head)(e)),
            }
        }
        let deleted = self.delete_all(&location.root, |_| true).await?;
        let leftovers = self.remove_local_leftovers(&location.root, Duration::ZERO)?;
        Ok(had_head || deleted > 0 || leftovers > 0)
    }

    /// Local store only: removes the staging files of interrupted writes under `prefix`
    /// (`<name>#<digits>`, which listings skip) older than `older_than`; how many.
    fn remove_local_leftovers(
        &self,
        prefix: &StorePath,
        older_than: Duration,
    ) -> Result<u64, BlobError> {
        let Some(dir) = &self.local_dir else {
            return Ok(0);
        };
        let mut removed = 0;
        let mut pending = vec![
            prefix
                .parts()
                .fold(dir.clone(), |p, part| p.join(part.as_ref())),
        ];
        let mut visited = Vec::new();
        while let Some(dir) = pending.pop() {
            visited.push(dir.clone());
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(meta) = entry.metadata() else { continue };
                if meta.is_dir() {
                    pending.push(path);
                    continue;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                let is_staging = name
                    .rsplit_once('#')
                    .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                let old_enough = meta
                    .modified()
                    .ok()
                    .and_then(|m| m.elapsed().ok())
                    .is_none_or(|age| age >= older_than);
                if is_staging && old_enough {
                    std::fs::remove_file(&path).map_err(|source| BlobError::LocalIo {
                        path: path.clone(),
                        source,
                    })?;
                    removed += 1;
                }
            }
        }
        // Empty directories left behind go too (as automatic cleanup does), deepest first.
        for dir in visited.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
        Ok(removed)
    }

    /// Deletes the objects of the dataset on the branch that neither its head nor any of
    /// its named versions lists and that are older than `older_than` (so that a put in
    /// progress keeps the objects it just uploaded). Returns how many were deleted.
    pub async fn collect_garbage(
        &self,
        ns: &str,
        dataset: &str,
        branch: &str,
        older_than: Duration,
    ) -> Result<u64, BlobError> {
        let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
        let lock = self.locks.get(location.root.as_ref());
        let _guard = lock.lock().await;
        let mut live: std::collections::HashSet<String> = match self.read_head(&location).await? {
            Some((head, _)) => head.files.into_iter().map(|e| e.sha256).collect(),
            None => Default::default(),
        };
        // A version document that cannot be read fails the collection: nothing is deleted
        // rather than objects a version may list.
        for (_, key) in self.version_keys(&location).await? {
            if let Some((named, _)) = self.read_document(&key).await? {
                live.extend(named.files.into_iter().map(|e| e.sha256));
            }
        }
        let cutoff =
            Utc::now() - chrono::Duration::from_std(older_than).unwrap_or(chrono::Duration::MAX);
        let deleted = self
            .delete_all(&location.objects(), |meta| {
                meta.last_modified < cutoff
                    && !meta
                        .location
                        .filename()
                        .is_some_and(|name| live.contains(name))
            })
            .await?;
        Ok(deleted + self.remove_local_leftovers(&location.root, older_than)?)
    }

    /// Removes what [`Self::prepare`] left for datasets of the branch that still have no
    /// head: called for the datasets of a push that expired without a commit. Their
    /// prepared heads and other leftovers go, then their empty directories (a dataset's own
    /// directory too, unless another branch is in it); a dataset that has a head meanwhile
    /// is left as it is. Each under the dataset's lock, so no put is under way in it; a
    /// live push of the same dataset loses nothing it needs (a put creates the directories
    /// it lacks and writes a head the usual way without a prepared one). Local store only
    /// (nothing is prepared on S3). Returns how many files went.
    pub async fn remove_prepared(
        &self,
        ns: &str,
        branch: &str,
        datasets: &[&str],
    ) -> Result<u64, BlobError> {
        let Some(dir) = &self.local_dir else {
            return Ok(0);
        };
        let exists = self.heads_exist(ns, branch, datasets).await;
        let mut removed = 0;
        for (dataset, exists) in datasets.iter().zip(exists) {
            if exists? {
                continue;
            }
            let location = DatasetLocation::new(&self.prefix, ns, dataset, branch)?;
            let lock = self.locks.get(location.root.as_ref());
            let _guard = lock.lock().await;
            if self.read_head(&location).await?.is_some() {
                continue;
            }
            removed += self.remove_local_leftovers(&location.root, Duration::ZERO)?;
            if let Some(dataset_dir) = local_path(dir, &location.root)
                .as_deref()
                .and_then(Path::parent)
            {
                let _ = std::fs::remove_dir(dataset_dir);
            }
        }
        Ok(removed)
    }

    /// Deletes the objects under `prefix` that `select` picks; how many.
    async fn delete_all(
        &self,
        prefix: &StorePath,
        select: impl Fn(&object_store::ObjectMeta) -> bool,
    ) -> Result<u64, BlobError> {
        let mut doomed = Vec::new();
        let mut listing = self.store.list(Some(prefix));
        while let Some(meta) = listing.next().await {
            match meta {
                Ok(meta) if select(&meta) => doomed.push(meta.location),
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("list", prefix)(e)),
            }
        }
        let count = doomed.len() as u64;
        let locations = stream::iter(doomed.into_iter().map(Ok)).boxed();
        let mut deleted = self.store.delete_stream(locations);
        while let Some(result) = deleted.next().await {
            match result {
                Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
                Err(e) => return Err(BlobError::storage("delete", prefix)(e)),
            }
        }
        Ok(count)
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
        let location = DatasetLocation::new(prefix, ns, dataset, branch)?;
        let keep = keep
            .map(|version| {
                location
                    .version(version)
                    .map(|key| (version.to_owned(), key))
            })
            .transpose()?;
        let mut given: BTreeMap<String, BlobFile> = BTreeMap::new();
        for file in files {
            check_path(&file.path)?;
            check_sha256(&file.path, &file.sha256)?;
            if given.insert(file.path.clone(), file.clone()).is_some() {
                return Err(BlobError::DuplicatePath {
                    path: file.path.clone(),
                });
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

/// The file of a local store's key, when every segment is plain (letters, digits, `.`,
/// `_`, `-`: the store uses such keys as they are, without encoding).
fn local_path(dir: &Path, key: &StorePath) -> Option<PathBuf> {
    let plain = key.parts().all(|part| plain_segment(part.as_ref()));
    // Plain segments joined by `/`: the key is a relative path as it is.
    plain.then(|| dir.join(key.as_ref()))
}

/// Whether a key's segment is plain: letters, digits, `.`, `_`, `-`, and not `.` or `..`.
fn plain_segment(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// A head document of a local store, `None` when the file does not exist.
fn read_local_document(dir: &Path, key: &StorePath) -> Result<Option<HeadDocument>, BlobError> {
    let Some(path) = local_path(dir, key) else {
        return Ok(None);
    };
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Some(HeadDocument::parse(key, &bytes)?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(BlobError::LocalIo { path, source }),
    }
}

/// A put on a local store with every step in the calling (blocking) thread: the same
/// files as the general path writes through `object_store` (objects hard-linked from
/// staging, the head written to `head.json#N` and renamed over `head.json`), without a
/// thread hand-off per step: a commit of many small datasets is mostly such steps. The
/// dataset's directory is opened once and every file of it is reached from there (and a
/// staged file from its directory, kept open in `sources` across puts), so that each
/// step walks one or two path components instead of the whole path.
/// `Ok(None)`: a step needs the general path (an object already there with another
/// size, a link across file systems); nothing visible has changed then (objects are not
/// visible before the head lists them).
#[cfg(target_os = "linux")]
fn put_local(
    dir: &Path,
    root: &StorePath,
    given: &BTreeMap<String, BlobFile>,
    replace: bool,
    keep: Option<&(String, StorePath)>,
    dirs: &mut OpenDirs,
) -> Result<Option<BlobOutcome>, BlobError> {
    use rustix::fs::{Mode, OFlags};

    let head_key = root.clone().join(layout::HEAD_NAME);
    let Some(dataset) = local_path(dir, root) else {
        return Ok(None);
    };
    let head_path = || dataset.join(layout::HEAD_NAME);
    let io = |path: PathBuf| {
        move |errno: rustix::io::Errno| BlobError::LocalIo {
            path,
            source: errno.into(),
        }
    };
    // `{ns}/{dataset}/{branch}`: opened from the namespace's directory.
    let Some(ns_dir) = dataset.parent().and_then(Path::parent) else {
        return Ok(None);
    };
    let below = dataset.strip_prefix(ns_dir).unwrap_or(&dataset);
    let open_dir = |dirs: &mut OpenDirs| {
        rustix::fs::openat(
            dirs.namespace(ns_dir)?,
            below,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
    };
    let dataset_fd = match open_dir(dirs) {
        Err(rustix::io::Errno::NOENT) => {
            let objects = dataset.join(layout::OBJECTS_DIR);
            std::fs::create_dir_all(&objects).map_err(|source| BlobError::LocalIo {
                path: objects,
                source,
            })?;
            // The namespace's directory may be new too.
            dirs.namespace = None;
            open_dir(dirs)
        }
        opened => opened,
    }
    .map_err(io(dataset.clone()))?;

    let current = match rustix::fs::openat(
        &dataset_fd,
        layout::HEAD_NAME,
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(fd) => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::fs::File::from(fd), &mut bytes).map_err(
                |source| BlobError::LocalIo {
                    path: head_path(),
                    source,
                },
            )?;
            Some(HeadDocument::parse(&head_key, &bytes)?)
        }
        Err(rustix::io::Errno::NOENT) => None,
        Err(errno) => return Err(io(head_path())(errno)),
    };
    let target = target_files(current.as_ref(), given, replace);
    let summary = summarize(&target);
    if let Some((version, key)) = keep
        && let Some(named) = read_local_document(dir, key)?
        && named.files != target
    {
        return Err(BlobError::VersionExists {
            version: version.clone(),
            location: root.to_string(),
        });
    }
    if let Some(head) = &current
        && head.files == target
    {
        return Ok(Some(summary(BlobStatus::Unchanged, 0, 0)));
    }

    let (mut linked_files, mut linked_bytes) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    for file in given.values().filter(|f| seen.insert(f.sha256.as_str())) {
        match link_at(dirs, &dataset_fd, file) {
            Some(true) => {
                linked_files += 1;
                linked_bytes += file.size;
            }
            Some(false) => {}
            None => return Ok(None),
        }
    }

    let document = HeadDocument {
        format: HEAD_FORMAT.to_owned(),
        updated_at: Utc::now(),
        files: target.clone(),
    };
    let body = serde_json::to_vec_pretty(&document).expect("a head document serializes");
    let status = match current {
        None => BlobStatus::Created,
        Some(_) => BlobStatus::Updated,
    };
    if status == BlobStatus::Created && use_prepared_head(&dataset_fd, &body) {
        return Ok(Some(summary(status, linked_files, linked_bytes)));
    }
    // As object_store's local put: a new `head.json#N`, renamed over the head.
    let mut n = 1;
    let (mut file, temp) = loop {
        let mut temp = head_path().into_os_string();
        temp.push(format!("#{n}"));
        let temp = PathBuf::from(temp);
        match std::fs::File::create_new(&temp) {
            Ok(file) => break (file, temp),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(source) => return Err(BlobError::LocalIo { path: temp, source }),
        }
    };
    let written = std::io::Write::write_all(&mut file, &body)
        .and_then(|()| std::fs::rename(&temp, head_path()));
    if let Err(source) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(BlobError::LocalIo {
            path: head_path(),
            source,
        });
    }
    Ok(Some(summary(status, linked_files, linked_bytes)))
}

/// Hard-links the verified staged file of `file` to its object in the dataset directory
/// `dataset` (as [`link_blocking`], each step from an open directory): `Some(true)` when
/// linked, `Some(false)` when the object is there with the right size, `None` when the
/// general path must do it.
#[cfg(target_os = "linux")]
fn link_at(dirs: &mut OpenDirs, dataset: &rustix::fd::OwnedFd, file: &BlobFile) -> Option<bool> {
    use rustix::fs::{AtFlags, Mode};
    use rustix::io::Errno;
    if !plain_segment(&file.sha256) {
        return None;
    }
    let (parent, name) = (file.local.parent()?, file.local.file_name()?);
    let source_dir = dirs.staged(parent)?;
    let size_at = |fd, name: &std::ffi::OsStr| {
        rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|stat| stat.st_size as u64)
    };
    if size_at(source_dir, name) != Some(file.size) {
        return None;
    }
    let object = format!("{}/{}", layout::OBJECTS_DIR, file.sha256);
    let link = || rustix::fs::linkat(source_dir, name, dataset, &object, AtFlags::empty());
    let mut linked = link();
    if linked == Err(Errno::NOENT) {
        match rustix::fs::mkdirat(dataset, layout::OBJECTS_DIR, Mode::from(0o755)) {
            Ok(()) | Err(Errno::EXIST) => linked = link(),
            Err(_) => return None,
        }
    }
    match linked {
        Ok(()) => Some(true),
        Err(Errno::EXIST) => {
            (size_at(dataset, object.as_ref()) == Some(file.size)).then_some(false)
        }
        Err(_) => None,
    }
}

/// Makes `body` the head of a new dataset (its directory `dataset`) from its prepared
/// head (see [`BlobEngine::prepare`]), if it has one no longer than `body`: rewritten in
/// place (a document's length does not depend on its time, so this allocates nothing) and
/// renamed over the head, which must then be the file written (not one that replaced the
/// prepared head meanwhile). `false` otherwise: the caller writes the head the usual way,
/// over whatever the rename left.
#[cfg(target_os = "linux")]
fn use_prepared_head(dataset: &rustix::fd::OwnedFd, body: &[u8]) -> bool {
    use rustix::fs::{AtFlags, Mode, OFlags};
    use std::os::unix::fs::{FileExt, MetadataExt};
    let prepared = format!("{}{PREPARED_SUFFIX}", layout::HEAD_NAME);
    let Ok(fd) = rustix::fs::openat(
        dataset,
        prepared.as_str(),
        OFlags::WRONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return false;
    };
    let file = std::fs::File::from(fd);
    let Ok(before) = file.metadata() else {
        return false;
    };
    before.len() <= body.len() as u64
        && file.write_all_at(body, 0).is_ok()
        && rustix::fs::renameat(dataset, prepared.as_str(), dataset, layout::HEAD_NAME).is_ok()
        && rustix::fs::statat(dataset, layout::HEAD_NAME, AtFlags::SYMLINK_NOFOLLOW).is_ok_and(
            |after| {
                after.st_ino == before.ino()
                    && after.st_dev == before.dev()
                    && after.st_size as u64 == body.len() as u64
            },
        )
}

/// Elsewhere (no `O_PATH` descriptors), every put takes the general path.
#[cfg(not(target_os = "linux"))]
fn put_local(
    _dir: &Path,
    _root: &StorePath,
    _given: &BTreeMap<String, BlobFile>,
    _replace: bool,
    _keep: Option<&(String, StorePath)>,
    _dirs: &mut OpenDirs,
) -> Result<Option<BlobOutcome>, BlobError> {
    Ok(None)
}

/// Directories that a blocking task's local puts reach files from, kept open across the
/// puts: where staged files are (a commit's contents are all in one), so that a link walks
/// only the file's name, and the namespace's directory (a commit's datasets are all in
/// one), so that opening a dataset walks only its name and branch.
#[derive(Default)]
struct OpenDirs {
    #[cfg(target_os = "linux")]
    staged: Option<(PathBuf, rustix::fd::OwnedFd)>,
    #[cfg(target_os = "linux")]
    namespace: Option<(PathBuf, rustix::fd::OwnedFd)>,
}

#[cfg(target_os = "linux")]
impl OpenDirs {
    /// The open directory `path` of staged files; `None` when it cannot be opened.
    fn staged(&mut self, path: &Path) -> Option<&rustix::fd::OwnedFd> {
        open_cached(&mut self.staged, path).ok()
    }

    /// The open namespace directory `path`.
    fn namespace(&mut self, path: &Path) -> rustix::io::Result<&rustix::fd::OwnedFd> {
        open_cached(&mut self.namespace, path)
    }
}

/// The directory `path` opened (`O_PATH`) in `slot`, unless it holds it already.
#[cfg(target_os = "linux")]
fn open_cached<'a>(
    slot: &'a mut Option<(PathBuf, rustix::fd::OwnedFd)>,
    path: &Path,
) -> rustix::io::Result<&'a rustix::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    if slot.as_ref().is_none_or(|(open, _)| open != path) {
        *slot = None;
        let fd = rustix::fs::open(
            path,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        *slot = Some((path.to_path_buf(), fd));
    }
    Ok(slot.as_ref().map(|(_, fd)| fd).expect("just opened"))
}

/// The name of a dataset's prepared head next to `head` (see [`BlobEngine::prepare`]), and
/// of the file it is written to first. Both end in `#<digits>`, as the store's own
/// temporary files do (which start at `#1`), so that leftovers are collected with them.
fn prepared_head_paths(head: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let mut path = head.as_os_str().to_owned();
        path.push(suffix);
        PathBuf::from(path)
    };
    (with(PREPARED_SUFFIX), with("#00"))
}

/// What names a dataset's prepared head after its head (see [`prepared_head_paths`]).
const PREPARED_SUFFIX: &str = "#0";

/// Writes `body` as the prepared head of `head`, unless there is one already: written
/// whole under another name first and then given its name without replacing anything,
/// so that a commit that uses a prepared head never has it changed under it.
fn prepare_head(head: &Path, body: &[u8]) -> std::io::Result<()> {
    let (prepared, temporary) = prepared_head_paths(head);
    if prepared.exists() {
        return Ok(());
    }
    std::fs::write(&temporary, body)?;
    let named = rename_no_replace(&temporary, &prepared);
    let _ = std::fs::remove_file(&temporary);
    match named {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        named => named,
    }
}

/// `rename` that fails with `AlreadyExists` instead of replacing `to`.
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
        let (from, to) = (c(from)?, c(to)?);
        // SAFETY: two NUL-terminated paths that outlive the call.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        // A hard link never replaces either; the first name goes after.
        std::fs::hard_link(from, to)
    }
}

/// Local store: hard-links a verified staged file to its object's path; `false` when that
/// is not possible (the caller copies instead). The object path is used only when every
/// part is plain (letters, digits, `.`, `_`, `-`), so that it is the path the store itself
/// uses.
async fn link_verified(dir: &Path, object: &StorePath, file: &BlobFile) -> bool {
    let Some(target) = local_path(dir, object) else {
        return false;
    };
    let (source, size) = (file.local.clone(), file.size);
    tokio::task::spawn_blocking(move || link_blocking(&source, size, &target).is_some())
        .await
        .unwrap_or(false)
}

/// Hard-links the staged file `source` (of `size` bytes) to `target`, creating its
/// directory if needed: `Some(true)` when linked, `Some(false)` when `target` already
/// holds `size` bytes, `None` when that is not possible (a staged file of another size, an
/// object there with another size, a link across file systems).
fn link_blocking(source: &Path, size: u64, target: &Path) -> Option<bool> {
    let size_of = |path: &Path| std::fs::metadata(path).map(|m| m.len()).ok();
    if size_of(source) != Some(size) {
        return None;
    }
    let mut linked = std::fs::hard_link(source, target);
    if matches!(&linked, Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
        std::fs::create_dir_all(target.parent()?).ok()?;
        linked = std::fs::hard_link(source, target);
    }
    match linked {
        Ok(()) => Some(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            (size_of(target) == Some(size)).then_some(false)
        }
        Err(_) => None,
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
