//! Staging: content-addressed (sha256) storage of uploads until a commit writes them to
//! the engines.
//!
//! Two stores behind [`StagingStore`]:
//!
//! - [`local::LocalStaging`]: the server's disk. Upload URLs point at the server itself
//!   (`/v1/staging/{sha256}?size=…&expires=…&sig=…`), signed with an HMAC key kept in the
//!   data directory. A body is streamed to a temporary file while it is hashed and renamed
//!   into place only if its size and sha256 match: a content file exists only once
//!   verified.
//! - [`s3::S3Staging`]: an S3-compatible bucket. Upload URLs are S3 presigned URLs
//!   (`object_store`'s signer) of a key of the caller's own that bind
//!   `x-amz-checksum-sha256`, so S3 itself refuses a body with another digest. Multipart
//!   uploads use presigned `UploadPart` URLs and are completed, then verified by reading
//!   the object back, by the server. A single upload the store vouched for stays in
//!   place as the content; any other verified upload is copied server-side to the
//!   content's key.
//!
//! Large contents (more than the part size) are uploaded in parts. Both stores keep one
//! multipart upload per content and caller (another caller naming the same content
//! cannot disturb it). A resumed push gets URLs only for the parts not received yet.
//!
//! Nothing unverified is ever committed: a commit needs [`StagingStore::is_staged`], and
//! [`StagingStore::local_file`] checks the digest again when the S3 store hands a content
//! to an engine. A verified content is immutable: the local store writes it once, through
//! a handle only the verifying call holds, and makes it read-only.
//!
//! Possession: a staged content is reused without an upload only by a caller who holds it
//! (see `routes::pushes::may_reuse`); the stores record a holder only when they verified
//! an upload of the content by that caller (never when they hand out a URL).

pub mod local;
pub mod s3;
pub mod signature;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use stone_api::{StagingStoreKind, Upload};

use crate::config::MAX_PARTS;
use crate::state::StateError;

/// Errors of the staging stores.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StagingError {
    #[error("the content has sha256 {actual}, expected {expected}")]
    DigestMismatch { expected: String, actual: String },
    #[error("the content has {actual} bytes, expected {expected}")]
    SizeMismatch { expected: u64, actual: u64 },
    #[error("content {sha256} is not staged")]
    NotStaged { sha256: String },
    #[error("no multipart upload {upload_id} of {sha256} is in progress")]
    UnknownUpload { sha256: String, upload_id: String },
    #[error("part {number} of {sha256} does not fit the upload: {reason}")]
    BadPart {
        sha256: String,
        number: u32,
        reason: String,
    },
    /// Admission (issue 54): the bytes would take the disk below the space the server
    /// keeps for its state database, engines and logs. Nothing was written.
    #[error(
        "no space for {needed} bytes: {available} bytes are free on the staging disk and the \
         server keeps {reserve} of them for its own writes"
    )]
    NoSpace {
        needed: u64,
        available: u64,
        reserve: u64,
    },
    #[error("staging I/O failed on {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Pack(stone_api::pack::PackError),
    #[error("content {sha256} of the pack is not one push {push} declares")]
    Undeclared { sha256: String, push: String },
    #[error("reading the upload body failed")]
    Body(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("the S3 staging store failed: {what}")]
    S3 {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error(transparent)]
    State(#[from] StateError),
}

impl StagingError {
    /// What a content read back (`actual`, `actual_size`) is against what it should be:
    /// `None` when it is that content.
    pub(crate) fn mismatch(
        sha256: &str,
        size: u64,
        actual: String,
        actual_size: u64,
    ) -> Option<Self> {
        if actual_size != size {
            Some(Self::SizeMismatch {
                expected: size,
                actual: actual_size,
            })
        } else if actual != sha256 {
            Some(Self::DigestMismatch {
                expected: sha256.to_owned(),
                actual,
            })
        } else {
            None
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}

/// What completing a multipart upload found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The content is staged and verified.
    Staged,
    /// No upload of this content is in progress, and it is not staged.
    NoUpload,
    /// These parts have not been received.
    PartsMissing(Vec<u32>),
}

/// A staged content as a local file, for an engine.
#[derive(Debug)]
pub struct LocalContent {
    pub path: PathBuf,
    /// Delete the file when done (a downloaded copy).
    pub temporary: bool,
}

impl Drop for LocalContent {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A staging store.
#[async_trait]
pub trait StagingStore: Send + Sync + std::fmt::Debug {
    /// Which store this is.
    fn kind(&self) -> StagingStoreKind;

    /// Whether the content is staged, with this size, and verified.
    async fn is_staged(&self, sha256: &str, size: u64) -> Result<bool, StagingError>;

    /// [`Self::is_staged`] for many contents (sha256, size), in order: a push names
    /// thousands. By default several at a time.
    async fn staged_among(&self, contents: &[(&str, u64)]) -> Result<Vec<bool>, StagingError> {
        use futures::StreamExt;
        let checks: Vec<_> = contents
            .iter()
            .map(|(sha256, size)| self.is_staged(sha256, *size))
            .collect();
        futures::stream::iter(checks)
            .buffered(16)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect()
    }

    /// How `holder` (a [`holder_key`]) uploads a content it may not reuse: one URL, or the
    /// parts still missing of its own multipart upload (which is started if needed). The
    /// answer is the same whether or not someone else has staged the content.
    async fn upload(
        &self,
        sha256: &str,
        size: u64,
        ttl: Duration,
        holder: &str,
    ) -> Result<Upload, StagingError>;

    /// Whether a caller's single upload counts only once [`Self::complete`] has seen it
    /// (S3: the bucket receives the body, the server does not); otherwise receiving it
    /// records it (local).
    fn single_uploads_need_completion(&self) -> bool {
        false
    }

    /// Assembles and verifies `holder`'s multipart upload of the content if its parts are
    /// all there, and records `holder` as holding the content. A wrong digest is
    /// [`StagingError::DigestMismatch`], and nothing is kept. A content once verified is
    /// never written again: what a commit links is what was verified.
    async fn complete(
        &self,
        sha256: &str,
        size: u64,
        holder: &str,
    ) -> Result<Completion, StagingError>;

    /// The content as a local file (verified).
    async fn local_file(&self, sha256: &str, size: u64) -> Result<LocalContent, StagingError>;

    /// The contents (sha256, size) as local files, in order, `None` for one that is not
    /// staged, when the store keeps them as local files (nothing to download, so a caller
    /// may hold many at once); `None` for a store that would download them (take them one
    /// by one with [`Self::local_file`] then).
    async fn local_files_in_place(
        &self,
        _contents: &[(&str, u64)],
    ) -> Option<Result<Vec<Option<LocalContent>>, StagingError>> {
        None
    }

    /// Marks staged contents used now (a push names them and finds them staged), so that
    /// the garbage collection keeps them for another `gc.staged_content_seconds`; returns
    /// those still staged. A push reuses only those: one the sweep took between the check
    /// and the touch is uploaded again (S3: the touch is the reuse's decision, atomic with
    /// the sweep's; the local store keeps no record and returns them all).
    async fn touch(&self, sha256s: &[String]) -> Result<Vec<String>, StagingError>;

    /// Garbage collection: deletes the contents not in `live` and not uploaded or
    /// touched since `contents_before`, and aborts the multipart uploads started before
    /// `uploads_before`. Each content's age is read again right before it is deleted, so
    /// a push that touches it meanwhile keeps it.
    async fn sweep(
        &self,
        live: &BTreeSet<String>,
        contents_before: SystemTime,
        uploads_before: SystemTime,
    ) -> Result<Swept, StagingError>;

    /// The key, in the store's bucket, of a staged content that an engine writing to the
    /// same bucket may copy server-side without checking it again: `None` when the store
    /// is not a bucket, or cannot vouch for the object's digest (the engine then takes
    /// [`Self::local_file`], which checks it). [`StagingError::NotStaged`] when it is not
    /// staged.
    async fn copy_source(&self, _sha256: &str, _size: u64) -> Result<Option<String>, StagingError> {
        Ok(None)
    }

    /// Issue 24: how a caller uploads a content straight to `key`, an object an engine
    /// keeps in the store's own bucket, so that the commit moves no bytes: one presigned
    /// `PUT` that binds the content's SHA-256, as a single upload to staging. `None` where
    /// the store could not prove what lands there (not a bucket, a bucket that does not
    /// enforce signed checksums, a content larger than one part): the content is then
    /// staged as usual.
    async fn upload_to(
        &self,
        _key: &str,
        _sha256: &str,
        _size: u64,
        _ttl: Duration,
    ) -> Result<Option<Upload>, StagingError> {
        Ok(None)
    }

    /// Whether the object at `key` in the store's bucket is the content (its size, and
    /// the SHA-256 a store that enforces signed checksums kept with it: what
    /// [`Self::upload_to`] binds), and then when it was written (the store's time; the
    /// oldest time when it gives none). `None` for a store that is not a bucket. Whether a
    /// push may rely on it is [`crate::straight::Reliance`]'s question.
    async fn holds_at(
        &self,
        _key: &str,
        _sha256: &str,
        _size: u64,
    ) -> Result<Option<chrono::DateTime<chrono::Utc>>, StagingError> {
        Ok(None)
    }

    /// The content's `s3://<bucket>/<key>` when the store is a bucket (an S3 warehouse in
    /// the same bucket copies it server-side instead of uploading it again).
    async fn object_location(&self, _sha256: &str) -> Option<String> {
        None
    }
}

pub(crate) use crate::test_hooks::{test_pause, test_pause_with};

/// What a sweep of a staging store removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Contents deleted.
    pub contents: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Multipart uploads aborted.
    pub uploads: u64,
}

/// The key under which the staging bookkeeping records a caller (`Principal::user`): the
/// hex sha256 of the subject, so that upload URLs and the database carry no user names.
pub fn holder_key(user: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(user.as_bytes()))
}

/// Whether a name is a content's: 64 lowercase hex digits.
pub fn is_sha256(name: &str) -> bool {
    name.len() == 64
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// RFC 3339 with seconds (the state database's format) of a time.
pub fn rfc3339(time: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(time).to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The part size for a content: the configured one, grown so that there are at most
/// [`MAX_PARTS`] parts (rounded up to a MiB).
pub fn part_size_for(size: u64, configured: u64) -> u64 {
    let needed = size.div_ceil(MAX_PARTS);
    if needed <= configured {
        configured
    } else {
        needed.div_ceil(1 << 20) << 20
    }
}

/// The parts of a content: `(number, offset, size)`, numbers from 1.
pub fn layout(size: u64, part_size: u64) -> Vec<(u32, u64, u64)> {
    let mut parts = Vec::new();
    let mut offset = 0;
    let mut number = 1;
    while offset < size {
        let length = part_size.min(size - offset);
        parts.push((number, offset, length));
        offset += length;
        number += 1;
    }
    parts
}

/// RFC 3339 of `now + ttl`, and the same as Unix seconds.
pub fn expiry(ttl: Duration) -> (String, u64) {
    let at = SystemTime::now() + ttl;
    let seconds = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let text = chrono::DateTime::<chrono::Utc>::from_timestamp(seconds as i64, 0)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    (text, seconds)
}

/// One async mutex per key (a content), so that two completions of the same content do
/// not race.
pub(crate) type KeyedLocks = crate::engines::locks::KeyedLocks;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_content() {
        assert_eq!(layout(10, 4), vec![(1, 0, 4), (2, 4, 4), (3, 8, 2)]);
        assert_eq!(layout(8, 4), vec![(1, 0, 4), (2, 4, 4)]);
        assert_eq!(layout(0, 4), vec![]);
        assert_eq!(part_size_for(10, 4), 4);
        // 2000 MiB with 1 MiB parts would be 2000 parts: grown to 2 MiB.
        assert_eq!(part_size_for(2000 << 20, 1 << 20), 2 << 20);
        assert!(layout(2000 << 20, part_size_for(2000 << 20, 1 << 20)).len() <= 1000);
    }
}
