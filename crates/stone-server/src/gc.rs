//! Garbage collection of staging: a periodic sweep (`[gc]` in the configuration).
//!
//! Each sweep, in this order:
//!
//! 1. expires the pushes left in `staging` or `failed` for `push_expiry_seconds`
//!    (untouched: creating, resuming, committing a push touches it): their state becomes
//!    `expired`, and every request naming them answers `410 push.expired` (the client
//!    then starts a new push, as for a push the server does not know);
//! 2. reads the contents the live pushes name (`staging`, `committing`, `failed`);
//! 3. deletes the staged contents no live push names that were not uploaded or reused for
//!    `staged_content_seconds`, and aborts the multipart uploads started more than
//!    `multipart_seconds` ago (S3: AbortMultipartUpload, also for uploads S3 lists that no
//!    record names; local: the assembly file); on S3 also the callers' own uploads
//!    (`callers/<holder>/<sha256>`) no live push names, older than
//!    `staged_content_seconds`, that were never verified into a content;
//! 4. with a local object store (see [`Sweeper::with_engines`]), removes what the
//!    expired pushes' object-storage datasets that still have no head were prepared with
//!    while their uploads ran (directories, prepared heads: see `BlobEngine::prepare`);
//!    with the blob store in the S3 staging bucket, what their callers uploaded straight
//!    into their datasets' objects that nothing lists (issue 24:
//!    `routes::push_uploads::direct_targets`).
//!
//! Committed datasets never depend on staging: the engines copy (Iceberg) or hard-link
//! (object storage) what they keep, and graphs are loaded, so only pushes still to be
//! committed need staged contents. A push that finds a content already staged touches it
//! (`StagingStore::touch`) and reuses it only if the touch found it still there, and the
//! sweep reads a content's age again right before it deletes it, so a push created during
//! a sweep keeps what it found or uploads it again. On S3 the sweep and the completions of
//! every replica agree on each deletion through the state (issue 24: see
//! `staging::s3` and docs/scale-out.md), so a content recorded as staged has its object.
//!
//! 5. (every replica, outside the lock) sweeps its cache of tables' Parquet answers:
//!    see [`crate::content_cache`].
//!
//! Several replicas: every replica runs the timer; a sweep runs only under the
//! cross-replica lock `gc` (PostgreSQL `pg_try_advisory_lock`), so one sweeps at a time
//! and the others skip that round.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::watch;

use crate::config::GcOptions;
use crate::engines::Engines;
use crate::staging::{StagingError, StagingStore, Swept};
use crate::state::{StateDb, StateError, ago};
use stone_api::Engine;

/// Errors of a sweep.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GcError {
    #[error("the garbage collection cannot use the push state")]
    State(#[from] StateError),
    #[error("the garbage collection cannot sweep the staging store")]
    Staging(#[from] StagingError),
}

/// What one sweep did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Another replica held the lock: nothing was done.
    pub skipped: bool,
    /// Pushes expired.
    pub expired: Vec<String>,
    /// Staging contents and uploads removed.
    pub swept: Swept,
}

/// The sweeper.
#[derive(Debug)]
pub struct Sweeper {
    db: StateDb,
    staging: Arc<dyn StagingStore>,
    options: GcOptions,
    engines: Option<Arc<Engines>>,
    content_cache: Option<crate::content_cache::ContentCache>,
}

impl Sweeper {
    pub fn new(db: StateDb, staging: Arc<dyn StagingStore>, options: GcOptions) -> Self {
        Self {
            db,
            staging,
            options,
            engines: None,
            content_cache: None,
        }
    }

    /// Also removes what expired pushes prepared in the object store (step 4 above).
    pub fn with_engines(mut self, engines: Arc<Engines>) -> Self {
        self.engines = Some(engines);
        self
    }

    /// Also sweeps this replica's cache of Parquet answers ([`crate::content_cache`]) at
    /// every tick, whichever replica sweeps staging (each replica has its own cache); needs
    /// [`Self::with_engines`].
    pub fn with_content_cache(mut self, cache: crate::content_cache::ContentCache) -> Self {
        self.content_cache = Some(cache);
        self
    }

    /// Sweeps every `interval_seconds` (the first one soon after the start) until
    /// `shutdown`; does nothing when the interval is 0. A failed sweep is logged and
    /// tried again at the next tick.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        if self.options.interval_seconds == 0 {
            tracing::info!("garbage collection of staging is off (gc.interval_seconds = 0)");
            return;
        }
        let interval = Duration::from_secs(self.options.interval_seconds);
        // Not at the very start: replicas starting together would all try at once.
        let mut wait = interval.min(Duration::from_secs(1) + interval / 10);
        loop {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
            if let (Some(cache), Some(engines)) = (&self.content_cache, &self.engines) {
                let swept = cache.sweep(&engines.iceberg).await;
                if swept.files > 0 {
                    tracing::info!(
                        files = swept.files,
                        bytes = swept.bytes,
                        kept_bytes = swept.kept_bytes,
                        "gc: content cache swept"
                    );
                }
            }
            match self.sweep().await {
                Ok(report) if report.skipped => {
                    tracing::debug!("gc: another replica is sweeping");
                }
                Ok(report) => tracing::info!(
                    expired_pushes = report.expired.len(),
                    contents = report.swept.contents,
                    bytes = report.swept.bytes,
                    multipart_uploads = report.swept.uploads,
                    "gc: staging swept"
                ),
                Err(error) => tracing::warn!(
                    error = %crate::report::error_chain(&error),
                    "gc: the sweep failed; it runs again at the next interval"
                ),
            }
            wait = interval;
        }
    }

    /// One sweep (see the module documentation).
    pub async fn sweep(&self) -> Result<SweepReport, GcError> {
        let Some(lock) = self.db.try_lock("stone-server/gc").await? else {
            return Ok(SweepReport {
                skipped: true,
                ..SweepReport::default()
            });
        };
        let result = self.sweep_locked().await;
        lock.release().await;
        result
    }

    /// Step 4 for one expired push (`live`: the contents the live pushes name). A failure
    /// is logged, not fatal: the leftovers are invisible, and also go when their dataset
    /// is deleted or collected.
    async fn remove_prepared(
        &self,
        id: &str,
        live: &BTreeSet<String>,
        live_read: chrono::DateTime<chrono::Utc>,
    ) {
        let Some(engines) = &self.engines else {
            return;
        };
        let push = match self.db.push(id).await {
            Ok(Some(push)) => push,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(push = %id, error = %crate::report::error_chain(&error), "gc: cannot read an expired push");
                return;
            }
        };
        let datasets: Vec<&str> = push
            .manifest
            .datasets
            .iter()
            .filter(|d| d.kind.engine() == Engine::ObjectStorage)
            .map(|d| d.name.as_str())
            .collect();
        match engines
            .blob
            .remove_prepared(&push.namespace, &push.branch, &datasets)
            .await
        {
            Ok(0) => {}
            Ok(files) => {
                tracing::info!(push = %id, files, "gc: an expired push's prepared datasets removed")
            }
            Err(error) => {
                tracing::warn!(push = %id, error = %crate::report::error_chain(&error), "gc: cannot remove an expired push's prepared datasets")
            }
        }
        if engines.blob_copies_from_staging && !push.manifest.paged_files {
            self.remove_direct_uploads(engines, &push, live, live_read)
                .await;
        }
    }

    /// Issue 24: what an expired push's caller uploaded straight into its datasets'
    /// objects (`routes::push_uploads::direct_targets`), that nothing lists and no live push
    /// names ([`crate::engines::blob::BlobEngine::remove_uploads`]). Objects written since a
    /// little before the push was created (the store's clock may lag the server's) count
    /// as its uploads, if they were written before the live pushes were read (at
    /// `live_read`), less the margins of `straight.rs`: a push created since then may rely
    /// on what was written after.
    async fn remove_direct_uploads(
        &self,
        engines: &Engines,
        push: &crate::state::PushRecord,
        live: &BTreeSet<String>,
        live_read: chrono::DateTime<chrono::Utc>,
    ) {
        let margin = self.options.clock_margin();
        let until = crate::straight::sweep_deletes_before(live_read, margin);
        let Ok(created) = chrono::DateTime::parse_from_rfc3339(&push.created_at) else {
            tracing::warn!(push = %push.id, created_at = %push.created_at, "gc: an expired push's creation time cannot be read: its direct uploads are left");
            return;
        };
        let since = created.with_timezone(&chrono::Utc) - margin;
        for dataset in &push.manifest.datasets {
            if dataset.kind.engine() != Engine::ObjectStorage {
                continue;
            }
            let contents: BTreeSet<&str> =
                dataset.files.iter().map(|f| f.sha256.as_str()).collect();
            match engines
                .blob
                .remove_uploads(
                    &push.namespace,
                    &dataset.name,
                    &push.branch,
                    &contents,
                    since..until,
                    live,
                )
                .await
            {
                Ok(0) => {}
                Ok(objects) => {
                    tracing::info!(push = %push.id, dataset = %dataset.name, objects, "gc: an expired push's direct uploads removed")
                }
                Err(error) => {
                    tracing::warn!(push = %push.id, dataset = %dataset.name, error = %crate::report::error_chain(&error), "gc: cannot remove an expired push's direct uploads")
                }
            }
        }
    }

    async fn sweep_locked(&self) -> Result<SweepReport, GcError> {
        let options = &self.options;
        let expired = self
            .db
            .expire_pushes(&ago(Duration::from_secs(options.push_expiry_seconds)))
            .await?;
        // Taken before the read: a push created after it is not among the live ones.
        let live_read = chrono::Utc::now();
        let live = self.db.live_contents().await?;
        crate::staging::test_pause("gc-live-read").await;
        for id in &expired {
            tracing::info!(push = %id, "gc: push expired (never committed)");
            self.remove_prepared(id, &live, live_read).await;
        }
        let now = SystemTime::now();
        let swept = self
            .staging
            .sweep(
                &live,
                now - Duration::from_secs(options.staged_content_seconds),
                now - Duration::from_secs(options.multipart_seconds),
            )
            .await?;
        Ok(SweepReport {
            skipped: false,
            expired,
            swept,
        })
    }
}
