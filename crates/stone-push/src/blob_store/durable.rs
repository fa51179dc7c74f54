//! A `file://` destination's writes reach the disk in the order readers rely on: every
//! file before the descriptor that names it, the descriptor before the push reports
//! success.
//!
//! object_store's local store writes each file to a temporary name and renames it, without
//! syncing anything: after a power loss the descriptor could name files whose bytes were
//! never written. A sync of each file would cost a disk flush a file (minutes for a folder
//! of 100,000); `syncfs(2)` of the destination's file system flushes them all at once, and
//! reports a write-back error of any of them (Linux 5.8 on). Other stores have their bytes
//! when they answer a write.

use std::path::{Path, PathBuf};

use crate::PushError;

/// Flushes the file system that holds `url`'s directory when `url` is a `file://` URL
/// (nothing to do for other stores).
pub(super) async fn flush(url: &str) -> Result<(), PushError> {
    let Some(dir) = local_dir(url) else {
        return Ok(());
    };
    tokio::task::spawn_blocking(move || flush_dir(&dir))
        .await
        .map_err(|e| PushError::Io {
            path: PathBuf::from(url),
            source: std::io::Error::other(e),
        })?
}

/// The directory of a `file://` URL.
fn local_dir(url: &str) -> Option<PathBuf> {
    let parsed = url::Url::parse(url).ok()?;
    (parsed.scheme() == "file")
        .then(|| parsed.to_file_path().ok())
        .flatten()
}

/// Syncs the file system of `dir` (or of its nearest existing ancestor: a push that wrote
/// nothing yet may not have made it).
fn flush_dir(dir: &Path) -> Result<(), PushError> {
    let existing = dir
        .ancestors()
        .find(|d| d.is_dir())
        .unwrap_or(Path::new("/"));
    let failed = |source| PushError::Io {
        path: existing.to_owned(),
        source,
    };
    let handle = std::fs::File::open(existing).map_err(failed)?;
    sync_file_system(&handle).map_err(failed)
}

#[cfg(target_os = "linux")]
fn sync_file_system(handle: &std::fs::File) -> std::io::Result<()> {
    rustix::fs::syncfs(handle).map_err(std::io::Error::from)
}

/// Other Unix systems: `sync(2)` (which may return before the writes are done on some of
/// them) and the directory's own sync.
#[cfg(all(unix, not(target_os = "linux")))]
fn sync_file_system(handle: &std::fs::File) -> std::io::Result<()> {
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe {
        libc::sync();
    }
    handle.sync_all()
}

/// Elsewhere: nothing (a directory cannot be synced through `std` there).
#[cfg(not(unix))]
fn sync_file_system(_handle: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_file_urls_have_a_directory_to_flush() {
        assert_eq!(
            local_dir("file:///srv/team/pkg"),
            Some(PathBuf::from("/srv/team/pkg"))
        );
        assert_eq!(local_dir("s3://bucket/prefix"), None);
        assert_eq!(local_dir("https://dav.example/pkg"), None);
        assert_eq!(local_dir("not a url"), None);
    }

    #[tokio::test]
    async fn a_directory_not_made_yet_flushes_its_nearest_ancestor() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("file://{}/not/made/yet", dir.path().display());
        flush(&url).await.unwrap();
        flush("s3://bucket/prefix").await.unwrap();
    }
}
