//! A table's Parquet answer as ONE file per snapshot, so that byte ranges are stable.
//!
//! A snapshot may hold several data files (one per push), written with other schemas: the
//! Parquet answer is the snapshot scanned and encoded once, into
//! `<data>/cache/content/<key>-<snapshot id>.parquet` (the key hashes namespace and
//! table), then served from there with ranges. The file is written under a temporary name
//! and renamed into place, never rewritten: every range of one `ETag` comes from the same
//! bytes, across requests and restarts. One materialisation at a time (the lock), so two
//! first readers do not encode twice. The cache keeps the [`KEPT_PER_TABLE`] most recently
//! written snapshots of a table; a read of an evicted one materialises it again, and since
//! a scan may yield its files' batches in another order, the `ETag` names the snapshot AND
//! the file's generation (its write time): a reader's `If-Range` of the evicted copy no
//! longer matches and gets the whole new file, never a splice of two encodings.

use std::path::{Path, PathBuf};

use futures::StreamExt;
use serde_json::Map;
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;

use super::App;
use super::content::{ContentFormat, TableEncoder};

/// Snapshots of one table kept in the cache.
pub const KEPT_PER_TABLE: usize = 4;

/// One materialisation at a time.
static MATERIALISING: Mutex<()> = Mutex::const_new(());

/// The cache folder.
fn cache_dir(app: &App) -> PathBuf {
    app.settings.path("cache/content")
}

fn table_key(namespace: &str, name: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(namespace.as_bytes());
    hash.update([0]);
    hash.update(name.as_bytes());
    hex::encode(&hash.finalize()[..12])
}

/// A snapshot's Parquet file in the cache.
#[derive(Debug)]
pub(super) struct TableFile {
    pub path: PathBuf,
    pub size: u64,
    /// Names this copy of the file (its write time, ns since the epoch, in hex).
    pub generation: String,
}

impl TableFile {
    async fn open(path: PathBuf) -> Option<Self> {
        let meta = tokio::fs::metadata(&path).await.ok()?;
        let written = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        Some(Self {
            path,
            size: meta.len(),
            generation: format!("{:x}", written.as_nanos()),
        })
    }
}

/// The Parquet file of the snapshot `snapshot_id` of `namespace.name`: materialised on
/// first use. `Ok(None)` when the snapshot is gone.
pub(super) async fn parquet_of(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
) -> anyhow::Result<Option<TableFile>> {
    let dir = cache_dir(app);
    let key = table_key(namespace, name);
    let path = dir.join(format!("{key}-{snapshot_id}.parquet"));
    if let Some(file) = TableFile::open(path.clone()).await {
        return Ok(Some(file));
    }
    let _one = MATERIALISING.lock().await;
    if let Some(file) = TableFile::open(path.clone()).await {
        return Ok(Some(file));
    }
    tokio::fs::create_dir_all(&dir).await?;
    let Some((schema, mut batches)) = app
        .engines
        .iceberg
        .scan_snapshot(namespace, name, snapshot_id)
        .await?
    else {
        return Ok(None);
    };
    let spool = tempfile::NamedTempFile::new_in(&dir)?;
    let (file, spool_path) = spool.into_parts();
    let mut file = tokio::fs::File::from_std(file);
    let mut encoder = TableEncoder::new(ContentFormat::Parquet, &Map::new(), schema)?;
    use tokio::io::AsyncWriteExt;
    while let Some(batch) = batches.next().await {
        let chunk = encoder.write(&batch?)?;
        file.write_all(&chunk).await?;
    }
    file.write_all(&encoder.finish()?).await?;
    file.sync_all().await?;
    drop(file);
    spool_path
        .persist_noclobber(&path)
        .map_err(|error| error.error)?;
    evict(&dir, &key, &path).await;
    let file = TableFile::open(path.clone())
        .await
        .ok_or_else(|| anyhow::anyhow!("{} vanished after it was written", path.display()))?;
    tracing::info!(
        table = %format!("{namespace}.{name}"),
        snapshot_id,
        bytes = file.size,
        "materialised the Parquet answer of a snapshot"
    );
    Ok(Some(file))
}

/// Removes the table's cached snapshots beyond the [`KEPT_PER_TABLE`] newest.
async fn evict(dir: &Path, key: &str, keep: &Path) {
    let Ok(mut entries) = tokio::fs::read_dir(dir).await else {
        return;
    };
    let mut files = Vec::new();
    while let Ok(Some(entry)) = entries.next_entry().await {
        let path = entry.path();
        let ours = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(&format!("{key}-")) && n.ends_with(".parquet"));
        if !ours || path == keep {
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
