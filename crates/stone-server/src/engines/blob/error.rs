//! The one error type of the blob engine.

use std::ops::Range;
use std::path::PathBuf;

/// Errors of the blob engine. Variants up to [`BlobError::VersionExists`] are the caller's
/// (bad input or a refused change: answer 4xx); the others are the engine's or the
/// storage's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BlobError {
    /// A namespace, dataset or branch name that the engine does not accept.
    #[error("invalid {what} name {name:?}: {reason}")]
    InvalidName {
        /// `namespace`, `dataset` or `branch`.
        what: &'static str,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A file path inside the resource that the engine does not accept.
    #[error("invalid file path {path:?}: it {reason}")]
    InvalidPath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// Two files of one `put` have the same path.
    #[error("the file path {path:?} is given twice")]
    DuplicatePath {
        /// The path.
        path: String,
    },

    /// A sha256 that is not 64 lowercase hex digits.
    #[error("invalid sha256 {sha256:?} for {path:?}")]
    InvalidSha256 {
        /// The file path inside the resource.
        path: String,
        /// The digest as given.
        sha256: String,
    },

    /// A staged file does not have the size and sha256 it was announced with.
    #[error(
        "the staged file {} does not match its manifest: expected {expected_size} bytes with sha256 {expected_sha256}, found {actual_size} bytes with sha256 {actual_sha256}",
        local.display()
    )]
    Digest {
        /// The staged file.
        local: PathBuf,
        /// Announced sha256.
        expected_sha256: String,
        /// Announced size.
        expected_size: u64,
        /// sha256 of the bytes read.
        actual_sha256: String,
        /// Number of bytes read.
        actual_size: u64,
    },

    /// The byte range asked for is not inside the file.
    #[error("the range {}..{} is not inside {path:?} ({size} bytes)", range.start, range.end)]
    InvalidRange {
        /// The file path inside the resource.
        path: String,
        /// The range asked for.
        range: Range<u64>,
        /// The file's size.
        size: u64,
    },

    /// The named version already names other files of the dataset on the branch, and
    /// moving it was not forced.
    #[error("version {version} already names other content of {location}; moving it needs force")]
    VersionExists {
        /// The version.
        version: String,
        /// The dataset's keys (`{prefix}/{ns}/{dataset}/{branch}`).
        location: String,
    },

    /// A version was to be recorded for a dataset that has no head on the branch.
    #[error("{location} has no head to record version {version} of")]
    NoHead {
        /// The version.
        version: String,
        /// The dataset's keys.
        location: String,
    },

    /// A staged file could not be read.
    #[error("cannot read the staged file {}", local.display())]
    ReadStaged {
        /// The staged file.
        local: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },

    /// The local store's directory could not be created or cleaned.
    #[error("blob storage I/O failed on {}", path.display())]
    LocalIo {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },

    /// The storage settings are not usable (bad endpoint, missing bucket, …).
    #[error("invalid blob storage settings")]
    Settings(#[source] object_store::Error),

    /// A storage operation failed (unavailable, denied, …).
    #[error("blob storage {operation} of {location} failed")]
    Storage {
        /// What was done: `put`, `get`, `head`, `delete`, `list`, ….
        operation: &'static str,
        /// The object (or prefix), relative to the store's root.
        location: String,
        /// The storage error.
        #[source]
        source: object_store::Error,
    },

    /// A head document this engine cannot read.
    #[error("the head document {location} is corrupt: {message}")]
    CorruptHead {
        /// The head document.
        location: String,
        /// What is wrong.
        message: String,
    },

    /// The head kept changing under this writer (another process writing the same
    /// dataset and branch); nothing of this put is visible.
    #[error("the head of {location} changed concurrently {attempts} times; try again")]
    Conflict {
        /// The head document.
        location: String,
        /// Attempts made.
        attempts: u32,
    },

    /// A failure injected by a test (see [`super::BlobFault`]).
    #[error("injected fault: {fault}")]
    InjectedFault {
        /// Which fault.
        fault: &'static str,
    },
}

impl BlobError {
    pub(crate) fn storage(
        operation: &'static str,
        location: &object_store::path::Path,
    ) -> impl FnOnce(object_store::Error) -> Self {
        let location = location.to_string();
        move |source| Self::Storage {
            operation,
            location,
            source,
        }
    }
}
