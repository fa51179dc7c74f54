//! The cache of tables' Parquet and Arrow answers (`<data>/cache/content/`, written by
//! `routes::table_file`): where a table's files go, and the sweep that keeps the cache to
//! what can still be read and to a size.
//!
//! Each table has a folder named by a hash of its namespace and name, with a `.table`
//! marker naming the table (so that the sweep can find it again) and one
//! `<snapshot id>-<sha256>.parquet` (or `.arrows.zst`) file per materialised snapshot and
//! encoding. The sweep
//! ([`ContentCache::sweep`], every `[gc] interval_seconds`, on every replica: each has its
//! own data directory) removes:
//!
//! - the folder of a table that no longer exists (its dataset deleted), so that a
//!   deleted dataset's rows do not stay on the server's disk;
//! - the file of a snapshot the table no longer has (expired, or its branch removed);
//! - a spool file (`.writing-…`) an interrupted materialisation left, after an hour;
//! - then, while the cache is over `[gc] content_cache_bytes`, the oldest files first.
//!
//! It is a cache: anything removed is written again on the next read that needs it. A
//! file removed while a reader has it open stays readable to that reader (Unix).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::engines::iceberg::IcebergEngine;

/// What names a table's folder.
const MARKER: &str = ".table";
/// Spool files (and marker-less folders) younger than this are a materialisation under way.
const IN_PROGRESS: Duration = Duration::from_secs(3600);

/// The table a cache folder holds (its `.table` marker).
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    namespace: String,
    name: String,
}

/// The cache of one data directory.
#[derive(Debug, Clone)]
pub struct ContentCache {
    dir: PathBuf,
    max_bytes: u64,
}

/// What one sweep removed and kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheSwept {
    pub files: u64,
    pub bytes: u64,
    /// Bytes the cache holds after the sweep.
    pub kept_bytes: u64,
}

impl ContentCache {
    /// The cache under `data_dir`, kept to `max_bytes` by [`Self::sweep`].
    pub fn new(data_dir: &Path, max_bytes: u64) -> Self {
        Self {
            dir: data_dir.join("cache/content"),
            max_bytes,
        }
    }

    /// The folder of `namespace.name`, created with its marker.
    pub async fn table_dir(&self, namespace: &str, name: &str) -> std::io::Result<PathBuf> {
        let mut hash = Sha256::new();
        hash.update(namespace.as_bytes());
        hash.update([0]);
        hash.update(name.as_bytes());
        let dir = self.dir.join(hex::encode(&hash.finalize()[..12]));
        let marker = dir.join(MARKER);
        if !tokio::fs::try_exists(&marker).await.unwrap_or(false) {
            tokio::fs::create_dir_all(&dir).await?;
            let body = serde_json::to_vec(&Marker {
                namespace: namespace.to_owned(),
                name: name.to_owned(),
            })
            .map_err(std::io::Error::other)?;
            let spool = tempfile::Builder::new()
                .prefix(".writing-")
                .tempfile_in(&dir)?;
            tokio::fs::write(spool.path(), body).await?;
            spool.persist(&marker).map_err(|error| error.error)?;
        }
        Ok(dir)
    }

    /// One sweep (see the module documentation). Errors reading one folder are logged and
    /// that folder is left for the next sweep.
    pub async fn sweep(&self, iceberg: &IcebergEngine) -> CacheSwept {
        let mut swept = CacheSwept::default();
        let mut kept: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        let now = SystemTime::now();
        let young = |modified: SystemTime| {
            now.duration_since(modified)
                .is_ok_and(|age| age < IN_PROGRESS)
                || modified > now
        };
        let Ok(mut tables) = tokio::fs::read_dir(&self.dir).await else {
            return swept;
        };
        while let Ok(Some(table)) = tables.next_entry().await {
            let dir = table.path();
            let Ok(meta) = table.metadata().await else {
                continue;
            };
            if !meta.is_dir() {
                continue;
            }
            let marker = tokio::fs::read(dir.join(MARKER))
                .await
                .ok()
                .and_then(|bytes| serde_json::from_slice::<Marker>(&bytes).ok());
            let view = match &marker {
                Some(marker) => match iceberg.table_view(&marker.namespace, &marker.name).await {
                    Ok(view) => view,
                    Err(error) => {
                        tracing::warn!(table = %format!("{}.{}", marker.namespace, marker.name), error = %crate::report::error_chain(&error), "content cache: cannot read the table; its cached files stay until the next sweep");
                        continue;
                    }
                },
                // A folder just made, or one written before markers: young ones are left.
                None if meta.modified().is_ok_and(young) => continue,
                None => None,
            };
            let Some(view) = view else {
                let bytes = folder_bytes(&dir).await;
                match tokio::fs::remove_dir_all(&dir).await {
                    Ok(()) => {
                        swept.files += bytes.0;
                        swept.bytes += bytes.1;
                        tracing::info!(folder = %dir.display(), files = bytes.0, "content cache: the table is gone, its cached files removed");
                    }
                    Err(error) => {
                        tracing::warn!(folder = %dir.display(), %error, "content cache: cannot remove a gone table's folder")
                    }
                }
                continue;
            };
            let Ok(mut files) = tokio::fs::read_dir(&dir).await else {
                continue;
            };
            while let Ok(Some(file)) = files.next_entry().await {
                let path = file.path();
                let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                let Ok(meta) = file.metadata().await else {
                    continue;
                };
                let modified = meta.modified().unwrap_or(now);
                let stale = if file_name == MARKER {
                    false
                } else if file_name.starts_with(".writing-") {
                    !young(modified)
                } else {
                    file_name
                        .split_once('-')
                        .and_then(|(id, _)| id.parse::<i64>().ok())
                        .is_none_or(|id| !view.has_snapshot(id))
                };
                if stale {
                    if tokio::fs::remove_file(&path).await.is_ok() {
                        swept.files += 1;
                        swept.bytes += meta.len();
                    }
                } else if file_name != MARKER && !file_name.starts_with('.') {
                    kept.push((modified, meta.len(), path));
                }
            }
        }
        // The budget: the oldest written go first.
        kept.sort();
        let mut total: u64 = kept.iter().map(|(_, size, _)| size).sum();
        for (_, size, path) in kept {
            if total <= self.max_bytes {
                break;
            }
            if tokio::fs::remove_file(&path).await.is_ok() {
                swept.files += 1;
                swept.bytes += size;
                total -= size;
            }
        }
        swept.kept_bytes = total;
        swept
    }
}

/// Files and bytes under `dir` (one level: a table's folder).
async fn folder_bytes(dir: &Path) -> (u64, u64) {
    let (mut files, mut bytes) = (0, 0);
    if let Ok(mut entries) = tokio::fs::read_dir(dir).await {
        while let Ok(Some(entry)) = entries.next_entry().await {
            if let Ok(meta) = entry.metadata().await
                && meta.is_file()
                && entry.file_name() != MARKER
            {
                files += 1;
                bytes += meta.len();
            }
        }
    }
    (files, bytes)
}
