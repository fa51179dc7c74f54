//! A folder resource of more than [`stone_package::LISTED_FILES`] files as a push takes it:
//! its files walked and hashed (from the hash cache) a chunk at a time, or listed for a
//! handler that takes the whole record.

use std::path::Path;

use stone_package::{DigestError, FileDigest, Folder, FolderHasher, LISTED_FILES};

use crate::PushError;
use crate::record::{PushFile, PushPackage};

/// A package as [`crate::prepare::prepare`] hands it to a handler: the push's record, and
/// the folders of more than [`stone_package::LISTED_FILES`] files whose files the record
/// does not list (issue 27: a handler that streams them holds one batch at a time).
#[derive(Debug, Clone)]
pub struct PreparedPackage {
    pub package: PushPackage,
    /// For each resource of `package`: its folder when its `files` are not listed.
    /// Boxed: a package of 100,000 one-file resources holds 100,000 `None`s.
    pub folders: Vec<Option<Box<Folder>>>,
    /// Threads hashing the folders' files again (from the hash cache the plan wrote).
    pub jobs: usize,
    /// For each resource of `package` with a folder: the listing the plan digested
    /// (issue 27: declared to the server, which then may need none of its files).
    pub listings: Vec<Option<stone_api::FolderListing>>,
    /// What must pass before anything is committed (the graphs' RDF validation), run by
    /// the handler ([`crate::checks::Checking`]).
    pub checks: Vec<crate::checks::GraphCheck>,
}

impl PreparedPackage {
    /// Whether every file is in the record.
    pub fn is_listed(&self) -> bool {
        self.folders.iter().all(Option::is_none)
    }

    /// The record with every folder's files listed (its memory then grows with the count
    /// of files: about 250 bytes a file).
    pub fn listed(&self) -> Result<PushPackage, PushError> {
        let mut package = self.package.clone();
        for (resource, folder) in package.resources.iter_mut().zip(&self.folders) {
            let Some(folder) = folder else { continue };
            let digests = list_folder(folder, self.jobs).map_err(|e| folder_error(folder, e))?;
            resource.files = digests
                .into_iter()
                .map(|d| push_file(&folder.root, &folder.path, d))
                .collect();
        }
        Ok(package)
    }
}

/// Every file of `folder`, hashed (from the cache) a chunk at a time.
pub fn list_folder(folder: &Folder, jobs: usize) -> Result<Vec<FileDigest>, DigestError> {
    let mut hasher = FolderHasher::read_only(folder, jobs)?;
    let mut files = Vec::with_capacity(folder.files);
    loop {
        let chunk = hasher.next_chunk(LISTED_FILES, &())?;
        if chunk.is_empty() {
            return Ok(files);
        }
        files.extend(chunk);
    }
}

/// The path of a file of a folder (`path`, relative to the package) inside the resource
/// (`resource`: the resource's path).
pub fn inner_path<'p>(resource: &str, path: &'p str) -> &'p str {
    path.strip_prefix(resource)
        .map(|p| p.trim_start_matches('/'))
        .filter(|p| !p.is_empty())
        .unwrap_or(path)
}

/// The record of one file of a folder as a handler pushes it: its path inside the
/// resource (`resource`: the resource's path), where it is on disk.
pub fn push_file(root: &Path, resource: &str, digest: FileDigest) -> PushFile {
    let inner = inner_path(resource, &digest.path).to_owned();
    PushFile {
        path: inner,
        local: root.join(&digest.path),
        sha256: digest.sha256,
        size: digest.size,
    }
}

/// A folder that could not be walked or hashed, as a push error naming it.
pub(crate) fn folder_error(folder: &Folder, e: DigestError) -> PushError {
    PushError::Io {
        path: folder.root.join(&folder.path),
        source: std::io::Error::other(format!("{:#}", anyhow::Error::new(e))),
    }
}

/// Runs `work` (walking and hashing a folder's next chunk: it blocks) so that, on a
/// runtime with other threads, the uploads already under way go on meanwhile.
pub(crate) fn blocking<T>(work: impl FnOnce() -> T) -> T {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_thread {
        tokio::task::block_in_place(work)
    } else {
        work()
    }
}
