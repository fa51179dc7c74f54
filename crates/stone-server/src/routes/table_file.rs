//! A table's Parquet answer as ONE file per snapshot, so that byte ranges are stable; and
//! the same for its Arrow answers: the IPC stream compressed whole with zstd
//! (`<snapshot id>-<sha256>.arrows.zst`, sent as it is to the clients that accept
//! `Content-Encoding: zstd`) and the IPC stream whose buffers are compressed with zstd
//! (`<snapshot id>-<sha256>.zstd.arrows`, to the clients that ask `compression=zstd`):
//! written once, each is sent at the speed of a file.
//!
//! A snapshot may hold several data files (one per push), written with other schemas: the
//! Parquet answer is the snapshot scanned (by id, one data file at a time, in the
//! manifests' order) and encoded once, into
//! `<data>/cache/content/<table key>/<snapshot id>-<sha256>.parquet` (the key hashes
//! namespace and table; the sha256 is of the file's bytes), then served from there with
//! ranges. The file is written under a temporary name and renamed into place, never
//! rewritten: every range of one `ETag` comes from the same bytes, across requests and
//! restarts. The `ETag` names the snapshot and the bytes' sha256, so a copy written again
//! (after eviction, or by another replica with its own data directory) has the same `ETag`
//! exactly when it has the same bytes; a reader's `If-Range` never splices two encodings.
//! One materialisation at a time (the lock), so two first readers do not encode twice. The
//! cache keeps the [`KEPT_PER_TABLE`] most recently written snapshots of a table, and the
//! periodic sweep ([`crate::content_cache`]) removes the files of snapshots and tables that
//! are gone and keeps the whole cache to `[gc] content_cache_bytes`. Both may remove a
//! file at any time: a reader is handed the file already open ([`TableFile::file`]), and an
//! open file stays readable after its removal (Unix), so a read never meets a file gone
//! between finding and opening it.

use std::path::Path;

use futures::StreamExt;
use serde_json::Map;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncSeekExt, AsyncWriteExt};
use tokio::sync::Mutex;

use super::App;
use super::encode::{EncodeError, TableEncoder};
use super::negotiate::ContentFormat;

/// Snapshots of one table kept in the cache.
pub const KEPT_PER_TABLE: usize = 4;

/// One materialisation at a time.
static MATERIALISING: Mutex<()> = Mutex::const_new(());

/// The encodings of a snapshot kept as files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cached {
    /// Parquet (zstd pages), served with byte ranges.
    Parquet,
    /// The Arrow IPC stream, compressed whole with zstd.
    ArrowZstd,
    /// The Arrow IPC stream, each batch's buffers compressed with zstd.
    ArrowBuffersZstd,
}

impl Cached {
    fn suffix(self) -> &'static str {
        match self {
            Self::Parquet => ".parquet",
            Self::ArrowZstd => ".arrows.zst",
            Self::ArrowBuffersZstd => ".zstd.arrows",
        }
    }

    fn encoder(self, schema: arrow_schema::SchemaRef) -> Result<TableEncoder, EncodeError> {
        match self {
            Self::Parquet => TableEncoder::new(ContentFormat::Parquet, &Map::new(), schema),
            Self::ArrowZstd => TableEncoder::arrow_zstd(schema),
            Self::ArrowBuffersZstd => TableEncoder::arrow_buffers_zstd(schema),
        }
    }
}

/// A snapshot's Parquet file in the cache, open for reading.
#[derive(Debug)]
pub(super) struct TableFile {
    /// Open at its start; readable whatever the sweep does to its name.
    pub file: tokio::fs::File,
    pub size: u64,
    /// The sha256 of the file's bytes (hex): what the `ETag` names besides the snapshot.
    pub sha256: String,
}

/// The cached file of `snapshot_id` in `dir`, opened, if there is one (a file removed
/// between the listing and its opening is not there).
async fn find(dir: &Path, snapshot_id: i64, kind: Cached) -> std::io::Result<Option<TableFile>> {
    let prefix = format!("{snapshot_id}-");
    let mut entries = match tokio::fs::read_dir(dir).await {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    while let Some(entry) = entries.next_entry().await? {
        let file_name = entry.file_name();
        let Some(sha256) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(kind.suffix()))
            .filter(|n| !n.contains('.'))
        else {
            continue;
        };
        let file = match tokio::fs::File::open(entry.path()).await {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(error),
        };
        let size = file.metadata().await?.len();
        return Ok(Some(TableFile {
            file,
            size,
            sha256: sha256.to_owned(),
        }));
    }
    Ok(None)
}

/// The Parquet file of the snapshot `snapshot_id` of `namespace.name`: materialised on
/// first use. `Ok(None)` when the snapshot is gone.
pub(super) async fn parquet_of(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
) -> anyhow::Result<Option<TableFile>> {
    file_of(app, namespace, name, snapshot_id, Cached::Parquet).await
}

/// The file of the snapshot `snapshot_id` of `namespace.name` in the encoding `kind`:
/// materialised on first use. `Ok(None)` when the snapshot is gone.
pub(super) async fn file_of(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
    kind: Cached,
) -> anyhow::Result<Option<TableFile>> {
    let dir = app.content_cache.table_dir(namespace, name).await?;
    if let Some(file) = find(&dir, snapshot_id, kind).await? {
        return Ok(Some(file));
    }
    let _one = MATERIALISING.lock().await;
    // The sweep may have removed the folder since (its table gone a moment): made again.
    let dir = app.content_cache.table_dir(namespace, name).await?;
    if let Some(file) = find(&dir, snapshot_id, kind).await? {
        return Ok(Some(file));
    }
    let Some((schema, mut batches)) = app
        .engines
        .iceberg
        .scan_snapshot(namespace, name, snapshot_id)
        .await?
    else {
        return Ok(None);
    };
    let spool = tempfile::Builder::new()
        .prefix(".writing-")
        .tempfile_in(&dir)?;
    let (file, spool_path) = spool.into_parts();
    let mut file = tokio::fs::File::from_std(file);
    let mut encoder = kind.encoder(schema)?;
    let mut hash = Sha256::new();
    let mut size = 0u64;
    while let Some(batch) = batches.next().await {
        let chunk = encoder.write(&batch?)?;
        hash.update(&chunk);
        size += chunk.len() as u64;
        file.write_all(&chunk).await?;
    }
    let chunk = encoder.finish()?;
    hash.update(&chunk);
    size += chunk.len() as u64;
    file.write_all(&chunk).await?;
    file.sync_all().await?;
    // The handle the reader gets: the same file once renamed, whatever removes the name.
    file.seek(std::io::SeekFrom::Start(0)).await?;
    let sha256 = hex::encode(hash.finalize());
    let path = dir.join(format!("{snapshot_id}-{sha256}{}", kind.suffix()));
    spool_path
        .persist_noclobber(&path)
        .map_err(|error| error.error)?;
    evict(&dir, &path, kind).await;
    tracing::info!(
        table = %format!("{namespace}.{name}"),
        snapshot_id,
        bytes = size,
        encoding = kind.suffix(),
        "materialised the answer of a snapshot"
    );
    Ok(Some(TableFile { file, size, sha256 }))
}

/// Removes the table's cached snapshots in the encoding `kind` beyond the
/// [`KEPT_PER_TABLE`] newest.
async fn evict(dir: &Path, keep: &Path, kind: Cached) {
    let Ok(mut entries) = tokio::fs::read_dir(dir).await else {
        return;
    };
    let mut files = Vec::new();
    while let Ok(Some(entry)) = entries.next_entry().await {
        let path = entry.path();
        let cached = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(kind.suffix()))
            .is_some_and(|n| !n.starts_with('.') && !n.contains('.'));
        if !cached || path == keep {
            continue;
        }
        if let Ok(modified) = entry.metadata().await.and_then(|m| m.modified()) {
            files.push((modified, path));
        }
    }
    files.sort();
    let excess = files.len().saturating_sub(KEPT_PER_TABLE - 1);
    for (_, path) in files.into_iter().take(excess) {
        let _ = tokio::fs::remove_file(path).await;
    }
}
