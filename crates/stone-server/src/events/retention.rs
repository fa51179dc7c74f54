//! Events retention (issue 58): the outbox is pruned of events older than `[events]
//! retention_days` that no subscription needs any more ([`StateDb::prune_events`]), in
//! batches, by every replica (pruning twice is harmless).

use std::time::Duration;

use tokio::sync::watch;

use crate::state::{PRUNE_BATCH, StateDb};

/// The wait between two prunings: a tenth of the retention, between a second and an hour.
pub fn interval(retention: Duration) -> Duration {
    (retention / 10).clamp(Duration::from_secs(1), Duration::from_secs(3600))
}

/// Prunes now and then until shutdown (at once at start). Does nothing when events are
/// kept for ever (`retention` `None`).
pub async fn run(db: StateDb, retention: Option<Duration>, mut shutdown: watch::Receiver<bool>) {
    let Some(retention) = retention else {
        return;
    };
    loop {
        if *shutdown.borrow() {
            return;
        }
        let cutoff = chrono::Utc::now()
            - chrono::Duration::from_std(retention).unwrap_or(chrono::Duration::MAX);
        let cutoff = cutoff.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        match db.prune_events(&cutoff, PRUNE_BATCH).await {
            Ok(0) => {}
            Ok(pruned) => tracing::info!(pruned, before = %cutoff, "events pruned"),
            Err(error) => {
                tracing::warn!(error = ?error, "cannot prune events; trying again later")
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(interval(retention)) => {}
            _ = shutdown.changed() => {}
        }
    }
}
