//! The local staging store: contents on the server's disk, uploaded to the server itself
//! through signed URLs.
//!
//! Layout under its root (`<data dir>/staging`):
//!
//! - `contents/<sha256>`: verified contents (a file is renamed here only after its size and
//!   digest matched);
//! - `incoming/<uuid>`: single uploads in flight (removed on failure, and at startup);
//! - `parts/<sha256>.<upload>`: multipart assemblies (one per content and caller): each
//!   part is written at its offset; completion seals the assembly (no part upload writes
//!   into it any more), hashes it where it is and renames it into `contents/`; when a part
//!   upload is writing into it then, completion copies it into `incoming/` while hashing
//!   the copy, and only that copy, never written again, becomes the content (see
//!   [`assembly`]).
//!
//! Every content file is read-only.

mod assembly;
mod pack;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use bytes::Bytes;
use futures::{Stream, StreamExt};
use sha2::{Digest, Sha256};
use stone_api::{StagingStoreKind, Upload, UploadPart};
use tokio::io::AsyncSeekExt;

use super::signature::{SigningKey, held_content_message, part_message};
use super::{
    Completion, KeyedLocks, LocalContent, StagingError, StagingStore, Swept, expiry, is_sha256,
    layout, part_size_for, rfc3339,
};
use crate::state::{MultipartRecord, StateDb};

/// Why a signed URL was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlRefusal {
    /// The signature does not match the URL.
    InvalidSignature,
    /// The URL has expired.
    Expired,
}

/// The local staging store.
#[derive(Debug)]
pub struct LocalStaging {
    root: PathBuf,
    base_url: String,
    key: SigningKey,
    db: StateDb,
    part_size: u64,
    locks: KeyedLocks,
    contents_sync: DirSync,
    /// Part uploads writing into each multipart assembly, and the sealed ones.
    assemblies: assembly::Assemblies,
    /// Free bytes an upload may not take ([`Self::with_reserve`]).
    reserve: u64,
}

/// A file removed on drop unless kept (a cancelled upload leaves nothing behind).
struct TempFile {
    path: PathBuf,
    keep: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl LocalStaging {
    /// Opens the store under `root`; URLs start with `base_url` (`http://host:port`).
    pub fn open(
        root: &Path,
        base_url: &str,
        key: SigningKey,
        db: StateDb,
        part_size: u64,
    ) -> Result<Self, StagingError> {
        for dir in ["contents", "incoming", "parts"] {
            let path = root.join(dir);
            std::fs::create_dir_all(&path).map_err(StagingError::io(&path))?;
        }
        // Uploads that were in flight when the server stopped: never verified, never kept.
        let incoming = root.join("incoming");
        for entry in std::fs::read_dir(&incoming).map_err(StagingError::io(&incoming))? {
            let entry = entry.map_err(StagingError::io(&incoming))?;
            let _ = std::fs::remove_file(entry.path());
        }
        Ok(Self {
            root: root.to_owned(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            key,
            db,
            part_size,
            locks: KeyedLocks::default(),
            contents_sync: DirSync::default(),
            assemblies: assembly::Assemblies::default(),
            reserve: 0,
        })
    }

    /// Keeps `bytes` of the disk free: an upload (and a push whose new contents) would
    /// take the free space below it is refused before a byte is written
    /// ([`Self::admit`]), so that the state database, the engines and the logs can still
    /// write when uploads have filled the disk (issue 54).
    pub fn with_reserve(mut self, bytes: u64) -> Self {
        self.reserve = bytes;
        self
    }

    /// Whether `bytes` more fit on the staging disk above the reserve; a file system that
    /// cannot tell is taken to have room.
    pub fn admit(&self, bytes: u64) -> Result<(), StagingError> {
        let Ok(stat) = rustix::fs::statvfs(&self.root) else {
            return Ok(());
        };
        let available = stat.f_bavail.saturating_mul(stat.f_frsize);
        if bytes.saturating_add(self.reserve) > available {
            return Err(StagingError::NoSpace {
                needed: bytes,
                available,
                reserve: self.reserve,
            });
        }
        Ok(())
    }

    fn content_path(&self, sha256: &str) -> PathBuf {
        self.root.join("contents").join(sha256)
    }

    fn assembly_path(&self, sha256: &str, upload: &str) -> PathBuf {
        self.root.join("parts").join(format!("{sha256}.{upload}"))
    }

    /// Checks a URL's signature, then its expiry.
    pub fn check_url(
        &self,
        message: &str,
        expires: u64,
        signature: &str,
    ) -> Result<(), UrlRefusal> {
        if !self.key.verify(message, signature) {
            return Err(UrlRefusal::InvalidSignature);
        }
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        if now >= expires {
            return Err(UrlRefusal::Expired);
        }
        Ok(())
    }

    /// Checks a single-upload URL.
    pub fn check_content_url(
        &self,
        sha256: &str,
        size: u64,
        holder: &str,
        expires: u64,
        signature: &str,
    ) -> Result<(), UrlRefusal> {
        self.check_url(
            &held_content_message(sha256, size, holder, expires),
            expires,
            signature,
        )
    }

    /// Checks a part URL.
    #[allow(clippy::too_many_arguments)]
    pub fn check_part_url(
        &self,
        sha256: &str,
        number: u32,
        upload: &str,
        offset: u64,
        size: u64,
        expires: u64,
        signature: &str,
    ) -> Result<(), UrlRefusal> {
        self.check_url(
            &part_message(sha256, number, upload, offset, size, expires),
            expires,
            signature,
        )
    }

    /// Receives a whole content from `holder`: streamed to a temporary file while hashed,
    /// renamed into place (read-only) only if its size and digest are the announced ones.
    /// A content already staged is verified all the same (that is what makes `holder` one
    /// of its holders), then the copy is dropped: the staged file is never replaced.
    pub async fn receive<S, E>(
        &self,
        sha256: &str,
        size: u64,
        holder: &str,
        body: S,
    ) -> Result<(), StagingError>
    where
        S: Stream<Item = Result<Bytes, E>> + Send + Unpin,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        self.admit(size)?;
        let target = self.content_path(sha256);
        let temp = TempFile {
            path: self
                .root
                .join("incoming")
                .join(uuid::Uuid::new_v4().simple().to_string()),
            keep: false,
        };
        let started = std::time::Instant::now();
        let file = tokio::fs::File::create(&temp.path)
            .await
            .map_err(StagingError::io(&temp.path))?
            .into_std()
            .await;
        let (file, actual_size, actual) = write_hashed(file, &temp.path, size, body).await?;
        if actual_size != size {
            return Err(StagingError::SizeMismatch {
                expected: size,
                actual: actual_size,
            });
        }
        if actual != sha256 {
            return Err(StagingError::DigestMismatch {
                expected: sha256.to_owned(),
                actual,
            });
        }
        let synced = temp.path.clone();
        tokio::task::spawn_blocking(move || seal(&file))
            .await
            .map_err(|e| StagingError::io(&synced)(std::io::Error::other(e)))?
            .map_err(StagingError::io(&synced))?;
        if !target.exists() {
            tokio::fs::rename(&temp.path, &target)
                .await
                .map_err(StagingError::io(&target))?;
            self.contents_sync.sync(&self.root.join("contents")).await;
        }
        self.db.record_holder(sha256, holder).await?;
        let elapsed = started.elapsed();
        // The figure bench/staging.py reads: the server's own receive throughput.
        tracing::debug!(
            sha256,
            size,
            elapsed_us = elapsed.as_micros() as u64,
            "content staged"
        );
        Ok(())
    }

    /// Receives one part of a multipart upload, written at its offset.
    pub async fn receive_part<S, E>(
        &self,
        sha256: &str,
        upload: &str,
        number: u32,
        offset: u64,
        size: u64,
        body: S,
    ) -> Result<(), StagingError>
    where
        S: Stream<Item = Result<Bytes, E>> + Send + Unpin,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let unknown = || StagingError::UnknownUpload {
            sha256: sha256.to_owned(),
            upload_id: upload.to_owned(),
        };
        // Counted as a writer before anything else: a completion that sealed the assembly
        // refuses the part, one that did not copies the assembly (see `assembly`).
        let _writer = self.assemblies.enter(upload).ok_or_else(unknown)?;
        let record = self
            .db
            .multipart_upload(sha256, upload)
            .await?
            .ok_or_else(unknown)?;
        let expected = layout(record.size, record.part_size)
            .into_iter()
            .find(|(n, _, _)| *n == number);
        if expected != Some((number, offset, size)) {
            return Err(StagingError::BadPart {
                sha256: sha256.to_owned(),
                number,
                reason: format!(
                    "expected {expected:?} for (number, offset, size), got ({number}, {offset}, {size})"
                ),
            });
        }
        self.admit(size)?;
        let path = self.assembly_path(sha256, upload);
        let written = self.write_part(&path, offset, size, body).await;
        if let Err(StagingError::Io { source, .. }) = &written
            && crate::outage::is_disk_full(source)
        {
            // The disk is full: the assembly's bytes would keep it full for every other
            // caller until the sweep (a day). The whole upload is dropped at once; the
            // client's next push asks for a new one (issue 54: "nothing was kept").
            tracing::warn!(
                sha256,
                upload,
                "no space left for a part: the multipart upload is dropped"
            );
            let _ = tokio::fs::remove_file(&path).await;
            self.db.delete_multipart(upload).await?;
        }
        written?;
        // Completed (or aborted) while this part was coming: the part has nowhere to go.
        if self.db.multipart_upload(sha256, upload).await?.is_none() {
            return Err(unknown());
        }
        self.db.record_part(upload, number, size).await?;
        tracing::debug!(sha256, number, size, "part received");
        Ok(())
    }

    /// Writes one part's `size` bytes at `offset` of the assembly file and makes them
    /// durable.
    async fn write_part<S, E>(
        &self,
        path: &Path,
        offset: u64,
        size: u64,
        body: S,
    ) -> Result<(), StagingError>
    where
        S: Stream<Item = Result<Bytes, E>> + Send + Unpin,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let path = path.to_path_buf();
        let mut file = tokio::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .await
            .map_err(StagingError::io(&path))?;
        file.seek(std::io::SeekFrom::Start(offset))
            .await
            .map_err(StagingError::io(&path))?;
        let file = file.into_std().await;
        let (file, actual, _) = write_hashed(file, &path, size, body).await?;
        if actual != size {
            return Err(StagingError::SizeMismatch {
                expected: size,
                actual,
            });
        }
        let synced = path.clone();
        tokio::task::spawn_blocking(move || file.sync_data())
            .await
            .map_err(|e| StagingError::io(&synced)(std::io::Error::other(e)))?
            .map_err(StagingError::io(&synced))?;
        Ok(())
    }
}

/// Body chunks are handed to the writer thread in batches of about this many bytes.
const WRITE_BATCH: usize = 1 << 20;
/// Batches in flight between the connection and the writer thread.
const WRITE_QUEUE: usize = 4;
/// Written data is handed to the kernel's writeback every this many bytes, so that the
/// final fsync has little left to flush.
const WRITEBACK_EVERY: u64 = 8 << 20;
/// From this many contents on, [`StagingStore::staged_among`] checks them in two threads.
const STAT_SPLIT: usize = 512;

/// Writes the body to `file` (at its current position) while hashing it; stops past
/// `limit` bytes (the size is then reported as `limit + 1`). The connection task only
/// receives: hashing and writing run on a blocking thread, fed through a short queue, so
/// that receiving, hashing and the disk overlap. Returns the file, the bytes received and
/// their sha256.
async fn write_hashed<S, E>(
    file: std::fs::File,
    path: &Path,
    limit: u64,
    mut body: S,
) -> Result<(std::fs::File, u64, String), StagingError>
where
    S: Stream<Item = Result<Bytes, E>> + Send + Unpin,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (sender, mut receiver) = tokio::sync::mpsc::channel::<Vec<Bytes>>(WRITE_QUEUE);
    let writer = tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut file = file;
        let mut hasher = Sha256::new();
        let mut writeback = Writeback::new(&file);
        while let Some(batch) = receiver.blocking_recv() {
            for chunk in &batch {
                hasher.update(chunk);
                file.write_all(chunk)?;
                writeback.advance(&file, chunk.len() as u64);
            }
        }
        Ok::<_, std::io::Error>((file, hex::encode(hasher.finalize())))
    });
    let mut written: u64 = 0;
    let received = async {
        let mut batch = Vec::new();
        let mut batched = 0;
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| StagingError::Body(e.into()))?;
            written += chunk.len() as u64;
            if written > limit {
                return Ok(());
            }
            batched += chunk.len();
            batch.push(chunk);
            if batched >= WRITE_BATCH {
                batched = 0;
                if sender.send(std::mem::take(&mut batch)).await.is_err() {
                    // The writer failed: its error is reported below.
                    return Ok(());
                }
            }
        }
        if !batch.is_empty() {
            let _ = sender.send(batch).await;
        }
        Ok::<_, StagingError>(())
    }
    .await;
    drop(sender);
    let written_out = writer
        .await
        .map_err(|e| StagingError::io(path)(std::io::Error::other(e)))?;
    received?;
    let (file, digest) = written_out.map_err(StagingError::io(path))?;
    if written > limit {
        return Ok((file, limit + 1, String::new()));
    }
    Ok((file, written, digest))
}

/// Starts the writeback of what was written so far, every [`WRITEBACK_EVERY`] bytes
/// (`sync_file_range(SYNC_FILE_RANGE_WRITE)`: asynchronous, no metadata, no barrier). The
/// fsync that makes the content durable still follows; this only spreads the disk writes
/// over the upload instead of leaving them all to it.
struct Writeback {
    start: u64,
    pending: u64,
}

impl Writeback {
    fn new(file: &std::fs::File) -> Self {
        use std::io::Seek;
        let mut handle = file;
        let start = handle.stream_position().unwrap_or(0);
        Self { start, pending: 0 }
    }

    fn advance(&mut self, file: &std::fs::File, bytes: u64) {
        self.pending += bytes;
        if self.pending < WRITEBACK_EVERY {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            // SAFETY: the descriptor is open for the whole call; the range is plain numbers.
            // A failure only means the final fsync has more to do.
            unsafe {
                libc::sync_file_range(
                    file.as_raw_fd(),
                    self.start as libc::off64_t,
                    self.pending as libc::off64_t,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = file;
        self.start += self.pending;
        self.pending = 0;
    }
}

/// Hashes `from`, copying it into a new file `to` (created here, read-only, synced) when
/// one is given; returns its sha256 and size. Reading stops past `limit` bytes (the size
/// is then `limit + 1`). `to` is only ever written through this call's own handle, so the
/// digest is the digest of `to`, whatever happens to `from` meanwhile; without `to`, the
/// caller makes sure nothing writes `from` (a sealed assembly, see [`assembly`]).
async fn read_hashed(
    from: &Path,
    to: Option<&Path>,
    limit: u64,
) -> Result<(String, u64), StagingError> {
    let (from, to) = (from.to_owned(), to.map(Path::to_owned));
    let failed = to.clone().unwrap_or_else(|| from.clone());
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut source = std::fs::File::open(&from).map_err(StagingError::io(&from))?;
        let mut target = match &to {
            Some(to) => Some((
                std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(to)
                    .map_err(StagingError::io(to))?,
                to,
            )),
            None => None,
        };
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 1 << 20];
        let mut total = 0u64;
        loop {
            let read = source.read(&mut buffer).map_err(StagingError::io(&from))?;
            if read == 0 {
                break;
            }
            total += read as u64;
            if total > limit {
                return Ok((String::new(), limit + 1));
            }
            hasher.update(&buffer[..read]);
            if let Some((file, to)) = &mut target {
                file.write_all(&buffer[..read])
                    .map_err(StagingError::io(*to))?;
            }
        }
        if let Some((file, to)) = &target {
            seal(file).map_err(StagingError::io(to))?;
        }
        Ok((hex::encode(hasher.finalize()), total))
    })
    .await
    .map_err(|e| StagingError::io(&failed)(std::io::Error::other(e)))?
}

/// Makes a verified content's file read-only and durable before it is renamed into
/// `contents/`: nothing writes a content once verified.
fn seal(file: &std::fs::File) -> std::io::Result<()> {
    let mut permissions = file.metadata()?.permissions();
    permissions.set_readonly(true);
    file.set_permissions(permissions)?;
    file.sync_all()
}

/// Coalesced fsyncs of one directory: a caller whose rename is already covered by an fsync
/// that started after it returns without one of its own, so that many small uploads
/// finishing together share their directory fsyncs.
#[derive(Debug, Default)]
struct DirSync {
    /// Tickets handed out, one per caller, each taken after the caller's rename.
    requested: std::sync::atomic::AtomicU64,
    /// The highest ticket an fsync has covered.
    covered: tokio::sync::Mutex<u64>,
}

impl DirSync {
    async fn sync(&self, dir: &Path) {
        use std::sync::atomic::Ordering;
        let ticket = self.requested.fetch_add(1, Ordering::SeqCst) + 1;
        let mut covered = self.covered.lock().await;
        if *covered >= ticket {
            return;
        }
        // Every ticket handed out so far belongs to a rename done before this fsync.
        let upto = self.requested.load(Ordering::SeqCst);
        sync_dir(dir).await;
        *covered = upto;
    }
}

async fn sync_dir(dir: &Path) {
    if let Ok(handle) = tokio::fs::File::open(dir).await {
        let _ = handle.sync_all().await;
    }
}

#[async_trait]
impl StagingStore for LocalStaging {
    fn kind(&self) -> StagingStoreKind {
        StagingStoreKind::Local
    }

    async fn is_staged(&self, sha256: &str, size: u64) -> Result<bool, StagingError> {
        Ok(self.staged_among(&[(sha256, size)]).await?[0])
    }

    /// Blocking tasks check them (a file's size each, looked up from `contents/` opened
    /// once: a content is there only once verified), two for [`STAT_SPLIT`] or more.
    async fn staged_among(&self, contents: &[(&str, u64)]) -> Result<Vec<bool>, StagingError> {
        let mut names: Vec<(String, u64)> = contents
            .iter()
            .map(|(sha256, size)| ((*sha256).to_owned(), *size))
            .collect();
        // Thousands of checks (a package of many small files) go in two threads.
        let half = if names.len() >= STAT_SPLIT {
            names.split_off(names.len() / 2)
        } else {
            Vec::new()
        };
        let dir = self.root.join("contents");
        let checks: Vec<_> = [names, half]
            .into_iter()
            .filter(|names| !names.is_empty())
            .map(|names| {
                let dir = dir.clone();
                tokio::task::spawn_blocking(move || {
                    let sizes = crate::fs_at::sizes_under(
                        &dir,
                        &names.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                    );
                    names
                        .iter()
                        .zip(sizes)
                        .map(|((name, size), found)| match found {
                            Ok(found) => Ok(found == Some(*size)),
                            Err(source) => Err(StagingError::Io {
                                path: dir.join(name),
                                source,
                            }),
                        })
                        .collect::<Result<Vec<bool>, StagingError>>()
                })
            })
            .collect();
        let mut staged = Vec::with_capacity(contents.len());
        for check in checks {
            staged.extend(check.await.map_err(|e| StagingError::Io {
                path: dir.clone(),
                source: std::io::Error::other(e),
            })??);
        }
        Ok(staged)
    }

    async fn upload(
        &self,
        sha256: &str,
        size: u64,
        ttl: Duration,
        holder: &str,
    ) -> Result<Upload, StagingError> {
        let (expires_at, expires) = expiry(ttl);
        if size <= self.part_size {
            let signature = self
                .key
                .sign(&held_content_message(sha256, size, holder, expires));
            return Ok(Upload {
                sha256: sha256.to_owned(),
                size,
                method: "PUT".into(),
                url: Some(format!(
                    "{}/v1/staging/{sha256}?size={size}&holder={holder}&expires={expires}&sig={signature}",
                    self.base_url
                )),
                headers: Default::default(),
                expires_at,
                parts: None,
            });
        }
        let _guard = self.locks.lock(&format!("{sha256}.{holder}")).await;
        let record = match self.db.multipart(sha256, holder).await? {
            Some(record) if record.size == size => record,
            stale => {
                if let Some(stale) = stale {
                    // Announced before with another size by the same caller: that upload
                    // can never verify.
                    let _ = std::fs::remove_file(self.assembly_path(sha256, &stale.upload_id));
                    self.db.delete_multipart(&stale.upload_id).await?;
                }
                self.db
                    .create_multipart(&MultipartRecord {
                        sha256: sha256.to_owned(),
                        owner: holder.to_owned(),
                        size,
                        part_size: part_size_for(size, self.part_size),
                        upload_id: uuid::Uuid::new_v4().simple().to_string(),
                    })
                    .await?
            }
        };
        // The assembly file is created by the first part that arrives: nothing is made on
        // disk for an upload that never comes.
        let received = self.db.received_parts(&record.upload_id).await?;
        let parts = layout(size, record.part_size)
            .into_iter()
            .filter(|(number, _, _)| !received.contains(number))
            .map(|(number, offset, length)| {
                let signature = self.key.sign(&part_message(
                    sha256,
                    number,
                    &record.upload_id,
                    offset,
                    length,
                    expires,
                ));
                UploadPart {
                    number,
                    offset,
                    size: length,
                    url: format!(
                        "{}/v1/staging/{sha256}/parts/{number}?upload={}&offset={offset}&size={length}&expires={expires}&sig={signature}",
                        self.base_url, record.upload_id
                    ),
                }
            })
            .collect();
        Ok(Upload::in_parts(sha256, size, expires_at, parts))
    }

    async fn complete(
        &self,
        sha256: &str,
        size: u64,
        holder: &str,
    ) -> Result<Completion, StagingError> {
        let _guard = self.locks.lock(&format!("{sha256}.{holder}")).await;
        let Some(record) = self.db.multipart(sha256, holder).await? else {
            return Ok(Completion::NoUpload);
        };
        if record.size != size {
            return Ok(Completion::NoUpload);
        }
        let received = self.db.received_parts(&record.upload_id).await?;
        let missing: Vec<u32> = layout(size, record.part_size)
            .into_iter()
            .map(|(number, _, _)| number)
            .filter(|number| !received.contains(number))
            .collect();
        if !missing.is_empty() {
            return Ok(Completion::PartsMissing(missing));
        }
        let path = self.assembly_path(sha256, &record.upload_id);
        let verified = match self.assemblies.seal(&record.upload_id) {
            // No part upload writes into the assembly, and none will: it is hashed where it
            // is, and becomes the content.
            Some(sealed) => {
                let hashed = read_hashed(&path, None, size).await;
                let file = TempFile {
                    path: path.clone(),
                    keep: false,
                };
                hashed.map(|hashed| (hashed, file, Some(sealed)))
            }
            // A part upload still writes into it (a part sent again with a slow body holds
            // it open): it is never the content. Its bytes are copied into a private file
            // that only this call ever opens for writing, hashing exactly what is written;
            // that copy, once it matches, becomes the content, read-only.
            None => {
                let copy = TempFile {
                    path: self
                        .root
                        .join("incoming")
                        .join(uuid::Uuid::new_v4().simple().to_string()),
                    keep: false,
                };
                let copied = read_hashed(&path, Some(&copy.path), size).await;
                // The assembly has served: a part upload that still writes into it writes
                // into a file nobody reads.
                let _ = tokio::fs::remove_file(&path).await;
                copied.map(|copied| (copied, copy, None))
            }
        };
        let ((actual, actual_size), verified, sealed) = match verified {
            Ok(verified) => verified,
            Err(error) => {
                // The assembly is gone (removed with what was read of it): the next
                // manifest post starts a fresh upload rather than completing nothing.
                self.db.delete_multipart(&record.upload_id).await?;
                return Err(error);
            }
        };
        if let Some(mismatch) = StagingError::mismatch(sha256, size, actual, actual_size) {
            // Nothing is kept (`verified` is removed): the next manifest post starts a
            // fresh upload.
            self.db.delete_multipart(&record.upload_id).await?;
            return Err(mismatch);
        }
        if sealed.is_some() {
            // The copy path made its copy read-only and durable as it wrote it.
            let file = verified.path.clone();
            tokio::task::spawn_blocking(move || std::fs::File::open(&file).and_then(|f| seal(&f)))
                .await
                .map_err(|e| StagingError::io(&verified.path)(std::io::Error::other(e)))?
                .map_err(StagingError::io(&verified.path))?;
        }
        let copy = verified;
        let target = self.content_path(sha256);
        // Staged already (by another caller): that verified file stays as it is.
        if !target.exists() {
            tokio::fs::rename(&copy.path, &target)
                .await
                .map_err(StagingError::io(&target))?;
            sync_dir(&self.root.join("contents")).await;
        }
        self.db.record_holder(sha256, holder).await?;
        self.db.delete_multipart(&record.upload_id).await?;
        tracing::debug!(sha256, size, "multipart content assembled and verified");
        Ok(Completion::Staged)
    }

    async fn local_file(&self, sha256: &str, size: u64) -> Result<LocalContent, StagingError> {
        if !self.is_staged(sha256, size).await? {
            return Err(StagingError::NotStaged {
                sha256: sha256.to_owned(),
            });
        }
        Ok(LocalContent {
            path: self.content_path(sha256),
            temporary: false,
        })
    }

    async fn local_files_in_place(
        &self,
        contents: &[(&str, u64)],
    ) -> Option<Result<Vec<Option<LocalContent>>, StagingError>> {
        let staged = match self.staged_among(contents).await {
            Ok(staged) => staged,
            Err(error) => return Some(Err(error)),
        };
        Some(Ok(contents
            .iter()
            .zip(staged)
            .map(|((sha256, _), staged)| {
                staged.then(|| LocalContent {
                    path: self.content_path(sha256),
                    temporary: false,
                })
            })
            .collect()))
    }

    async fn touch(&self, sha256s: &[String]) -> Result<Vec<String>, StagingError> {
        if sha256s.is_empty() {
            return Ok(Vec::new());
        }
        let paths: Vec<PathBuf> = sha256s.iter().map(|s| self.content_path(s)).collect();
        let root = self.root.clone();
        let names: Vec<String> = sha256s.to_vec();
        let contents = self.root.join("contents");
        let all = sha256s.to_vec();
        tokio::task::spawn_blocking(move || {
            match crate::fs_at::touch_under(&contents, &names) {
                Some(Ok(())) => return Ok(()),
                Some(Err((i, error))) => return Err(StagingError::io(&paths[i])(error)),
                None => {}
            }
            let now = SystemTime::now();
            for path in paths {
                match std::fs::File::open(&path).and_then(|file| file.set_modified(now)) {
                    Ok(()) => {}
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                    Err(error) => return Err(StagingError::io(&path)(error)),
                }
            }
            Ok(())
        })
        .await
        .map_err(|e| StagingError::io(&root)(std::io::Error::other(e)))??;
        Ok(all)
    }

    async fn sweep(
        &self,
        live: &BTreeSet<String>,
        contents_before: SystemTime,
        uploads_before: SystemTime,
    ) -> Result<Swept, StagingError> {
        let mut swept = Swept::default();
        // Multipart uploads: the recorded ones, then assemblies no record names.
        for record in self.db.multiparts_before(&rfc3339(uploads_before)).await? {
            let _guard = self.locks.lock(&record.sha256).await;
            if self
                .db
                .delete_multipart_upload(&record.sha256, &record.upload_id)
                .await?
            {
                let _ = std::fs::remove_file(self.assembly_path(&record.sha256, &record.upload_id));
                tracing::info!(sha256 = %record.sha256, upload = %record.upload_id, "gc: multipart upload aborted");
                swept.uploads += 1;
            }
        }
        let root = self.root.clone();
        let live = live.clone();
        let db = self.db.clone();
        let recorded: BTreeSet<String> = db
            .multiparts_before(&rfc3339(SystemTime::now() + Duration::from_secs(3600)))
            .await?
            .into_iter()
            .map(|r| format!("{}.{}", r.sha256, r.upload_id))
            .collect();
        let (scanned, deleted) = tokio::task::spawn_blocking(move || {
            let mut swept = Swept::default();
            let mut deleted = Vec::new();
            let old = |path: &Path, before: SystemTime| {
                std::fs::metadata(path)
                    .ok()
                    .and_then(|m| Some((m.modified().ok()?, m.len())))
                    .filter(|(modified, _)| *modified < before)
                    .map(|(_, len)| len)
            };
            for entry in std::fs::read_dir(root.join("contents"))?.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !is_sha256(&name) || live.contains(&name) {
                    continue;
                }
                // The age is read right before the removal: a push that found the content
                // staged touched it, and keeps it.
                let path = entry.path();
                if let Some(len) = old(&path, contents_before)
                    && std::fs::remove_file(&path).is_ok()
                {
                    tracing::info!(sha256 = %name, bytes = len, "gc: staged content deleted");
                    swept.contents += 1;
                    swept.bytes += len;
                    deleted.push(name);
                }
            }
            for entry in std::fs::read_dir(root.join("parts"))?.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if !recorded.contains(&name) && old(&entry.path(), uploads_before).is_some() {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
            for entry in std::fs::read_dir(root.join("incoming"))?.flatten() {
                if old(&entry.path(), uploads_before).is_some() {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
            Ok::<_, std::io::Error>((swept, deleted))
        })
        .await
        .map_err(|e| StagingError::io(&self.root)(std::io::Error::other(e)))?
        .map_err(StagingError::io(&self.root))?;
        let deleted: Vec<&str> = deleted.iter().map(String::as_str).collect();
        self.db.forget_holders(&deleted).await?;
        swept.contents += scanned.contents;
        swept.bytes += scanned.bytes;
        Ok(swept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(
        data: &[u8],
        size: usize,
    ) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Unpin {
        let owned: Vec<Result<Bytes, std::io::Error>> = data
            .chunks(size.max(1))
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        futures::stream::iter(owned)
    }

    fn sha(data: &[u8]) -> String {
        hex::encode(Sha256::digest(data))
    }

    async fn store(part_size: u64) -> (tempfile::TempDir, LocalStaging) {
        let dir = tempfile::tempdir().unwrap();
        let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
        let staging = LocalStaging::open(
            &dir.path().join("staging"),
            "http://127.0.0.1:9",
            SigningKey::from_bytes(&[1; 32]),
            db,
            part_size,
        )
        .unwrap();
        (dir, staging)
    }

    #[tokio::test]
    async fn a_content_is_kept_only_when_verified() {
        let (_dir, staging) = store(1024).await;
        let data = b"hello staging".to_vec();
        let digest = sha(&data);
        let size = data.len() as u64;
        // Wrong bytes: refused, nothing kept.
        let error = staging
            .receive(&digest, size, "h", chunks(b"hello stagin!", 4))
            .await
            .unwrap_err();
        assert!(
            matches!(error, StagingError::DigestMismatch { .. }),
            "{error:?}"
        );
        // Too many bytes.
        let error = staging
            .receive(&digest, size, "h", chunks(b"hello staging, and more", 4))
            .await
            .unwrap_err();
        assert!(
            matches!(error, StagingError::SizeMismatch { .. }),
            "{error:?}"
        );
        assert!(!staging.is_staged(&digest, size).await.unwrap());
        assert_eq!(
            std::fs::read_dir(staging.root.join("incoming"))
                .unwrap()
                .count(),
            0,
            "no temporary file left"
        );
        staging
            .receive(&digest, size, "h", chunks(&data, 3))
            .await
            .unwrap();
        assert!(staging.is_staged(&digest, size).await.unwrap());
        let file = staging.local_file(&digest, size).await.unwrap();
        assert_eq!(std::fs::read(&file.path).unwrap(), data);
    }

    #[tokio::test]
    async fn parts_are_assembled_and_verified() {
        let (_dir, staging) = store(4).await;
        let data = b"0123456789".to_vec();
        let digest = sha(&data);
        let upload = staging
            .upload(&digest, 10, Duration::from_secs(60), "h")
            .await
            .unwrap();
        let parts = upload.parts.unwrap();
        assert_eq!(
            parts
                .iter()
                .map(|p| (p.number, p.offset, p.size))
                .collect::<Vec<_>>(),
            vec![(1, 0, 4), (2, 4, 4), (3, 8, 2)]
        );
        let upload_id = staging
            .db
            .multipart(&digest, "h")
            .await
            .unwrap()
            .unwrap()
            .upload_id;
        // Parts in any order.
        for (number, offset, length) in [(3u32, 8u64, 2u64), (1, 0, 4)] {
            let range = &data[offset as usize..(offset + length) as usize];
            staging
                .receive_part(
                    &digest,
                    &upload_id,
                    number,
                    offset,
                    length,
                    chunks(range, 3),
                )
                .await
                .unwrap();
        }
        assert_eq!(
            staging.complete(&digest, 10, "h").await.unwrap(),
            Completion::PartsMissing(vec![2])
        );
        // A resumed push gets only the missing part.
        let again = staging
            .upload(&digest, 10, Duration::from_secs(60), "h")
            .await
            .unwrap();
        assert_eq!(
            again
                .parts
                .unwrap()
                .iter()
                .map(|p| p.number)
                .collect::<Vec<_>>(),
            vec![2]
        );
        // A part that does not fit the layout is refused.
        let error = staging
            .receive_part(&digest, &upload_id, 2, 5, 4, chunks(b"4567", 4))
            .await
            .unwrap_err();
        assert!(matches!(error, StagingError::BadPart { .. }), "{error:?}");
        // Part 2 sent now is refused as a part of no upload.
        let refused = || async {
            let error = staging
                .receive_part(&digest, &upload_id, 2, 4, 4, chunks(b"4567", 4))
                .await
                .unwrap_err();
            assert!(
                matches!(error, StagingError::UnknownUpload { .. }),
                "{error:?}"
            );
        };
        // While a completion holds the assembly sealed, no part goes in.
        let sealed = staging.assemblies.seal(&upload_id).unwrap();
        refused().await;
        drop(sealed);
        staging
            .receive_part(&digest, &upload_id, 2, 4, 4, chunks(b"4567", 4))
            .await
            .unwrap();
        use std::os::unix::fs::MetadataExt;
        let assembled = std::fs::metadata(staging.assembly_path(&digest, &upload_id))
            .unwrap()
            .ino();
        assert_eq!(
            staging.complete(&digest, 10, "h").await.unwrap(),
            Completion::Staged
        );
        assert_eq!(
            std::fs::metadata(staging.content_path(&digest))
                .unwrap()
                .ino(),
            assembled,
            "with no part being written, the assembly itself becomes the content (no copy)"
        );
        assert!(staging.assemblies.is_empty());
        assert!(staging.is_staged(&digest, 10).await.unwrap());
        assert_eq!(
            staging.db.held_among("h", &[&digest]).await.unwrap().len(),
            1,
            "the uploader holds it"
        );
        // The upload is over: its parts have nowhere to go any more.
        assert_eq!(
            staging.complete(&digest, 10, "h").await.unwrap(),
            Completion::NoUpload
        );
        refused().await;
        let file = staging.local_file(&digest, 10).await.unwrap();
        assert_eq!(std::fs::read(&file.path).unwrap(), data);
        assert!(
            std::fs::metadata(&file.path)
                .unwrap()
                .permissions()
                .readonly(),
            "a verified content is read-only"
        );
    }

    #[tokio::test]
    async fn a_corrupt_assembly_is_dropped() {
        let (_dir, staging) = store(4).await;
        let digest = sha(b"0123456789");
        staging
            .upload(&digest, 10, Duration::from_secs(60), "h")
            .await
            .unwrap();
        let upload_id = staging
            .db
            .multipart(&digest, "h")
            .await
            .unwrap()
            .unwrap()
            .upload_id;
        for (number, offset, part) in [(1u32, 0u64, &b"0123"[..]), (2, 4, b"XXXX"), (3, 8, b"89")] {
            staging
                .receive_part(
                    &digest,
                    &upload_id,
                    number,
                    offset,
                    part.len() as u64,
                    chunks(part, 4),
                )
                .await
                .unwrap();
        }
        let error = staging.complete(&digest, 10, "h").await.unwrap_err();
        assert!(
            matches!(error, StagingError::DigestMismatch { .. }),
            "{error:?}"
        );
        assert!(!staging.is_staged(&digest, 10).await.unwrap());
        assert_eq!(staging.db.multipart(&digest, "h").await.unwrap(), None);
        assert_eq!(
            staging.complete(&digest, 10, "h").await.unwrap(),
            Completion::NoUpload
        );
    }
}
