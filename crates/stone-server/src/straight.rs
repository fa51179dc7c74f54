//! Issue 24, straight uploads: when a push may take the object found at the key its
//! content would be uploaded to (a dataset's object, `BlobEngine::object_key`) as that
//! content, instead of asking for an upload.
//!
//! The garbage collection deletes what an expired push uploaded there and nothing lists
//! (`gc.rs`, `BlobEngine::remove_uploads`), and it decides from the live pushes it read
//! once, at the start of its sweep. A push created after that read is not among them: had
//! it relied on such an object, the sweep could delete it under the push, and across
//! replicas (whose dataset locks are their own) even after the push's commit had listed
//! it in the dataset's head. So the two sides keep to one rule, in time:
//!
//! - a push relies on an object only when the dataset's head lists it (committed: the
//!   sweep never deletes what a head lists), or when the store wrote it after the push was
//!   created, less `margin`; any older object is uploaded again (the same bytes, a new
//!   write time);
//! - the sweep deletes only objects written before it read the live pushes, less twice
//!   `margin`.
//!
//! A push created after the sweep's read relies on nothing written before that read less
//! `margin`, and the sweep deletes nothing written after it less twice `margin`: the
//! margin covers the store's clock against the server's, the second one the replicas'
//! clocks against one another.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};

use crate::engines::blob::BlobEngine;
use crate::staging::{StagingError, StagingStore};

/// A sweep that read the live pushes at `live_read` deletes only objects written before
/// this time (see the module's rule).
pub fn sweep_deletes_before(live_read: DateTime<Utc>, margin: Duration) -> DateTime<Utc> {
    live_read - margin - margin
}

/// One push's reliance on objects at straight keys (one request or one commit: the heads
/// it reads are read once).
pub struct Reliance<'a> {
    staging: &'a dyn StagingStore,
    blob: &'a BlobEngine,
    /// Objects written since then are the push's own uploads (or of a push as recent).
    fresh_since: DateTime<Utc>,
    /// The contents each dataset's head lists, by the key of its objects directory.
    heads: tokio::sync::Mutex<HashMap<String, HashSet<String>>>,
}

impl<'a> Reliance<'a> {
    /// For a push created at `created`.
    pub fn new(
        staging: &'a dyn StagingStore,
        blob: &'a BlobEngine,
        created: DateTime<Utc>,
        margin: Duration,
    ) -> Self {
        Self {
            staging,
            blob,
            fresh_since: created - margin,
            heads: Default::default(),
        }
    }

    /// For a push recorded with `created_at` (RFC 3339); a time that does not read makes
    /// every unlisted object one to upload again.
    pub fn of_record(
        staging: &'a dyn StagingStore,
        blob: &'a BlobEngine,
        created_at: &str,
        margin: Duration,
    ) -> Self {
        let created = DateTime::parse_from_rfc3339(created_at)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        Self::new(staging, blob, created, margin)
    }

    /// Whether the object at `key` is the content and the push may rely on it.
    pub async fn holds(&self, key: &str, sha256: &str, size: u64) -> Result<bool, StagingError> {
        let Some(written) = self.staging.holds_at(key, sha256, size).await? else {
            return Ok(false);
        };
        if written >= self.fresh_since {
            return Ok(true);
        }
        // Older than the push: another push's upload, perhaps of one that expired and that a
        // sweep is deleting. Taken only when the dataset's head lists it.
        let listed = self.listed(key, sha256).await?;
        if !listed {
            tracing::debug!(%key, %written, "an object older than the push that no head lists: uploaded again");
        }
        Ok(listed)
    }

    /// Whether the head of `key`'s dataset lists `sha256` (each head read once).
    async fn listed(&self, key: &str, sha256: &str) -> Result<bool, StagingError> {
        // The dataset's objects directory: one head for every key in it.
        let objects = key.rsplit_once('/').map_or(key, |(dir, _)| dir).to_owned();
        let mut heads = self.heads.lock().await;
        if let Some(listed) = heads.get(&objects) {
            return Ok(listed.contains(sha256));
        }
        let listed = self
            .blob
            .listed_by_head_of(key)
            .await
            .map_err(|error| StagingError::S3 {
                what: format!("reading the head of the dataset of {key}"),
                source: Box::new(error),
            })?;
        let found = listed.contains(sha256);
        heads.insert(objects, listed);
        Ok(found)
    }
}
