//! A dataset write that does not finish is told in the log while it lasts (issue 54: a
//! 90 s S3 stall during a commit logged nothing, and the operator could not tell a slow
//! store from a hung server).

use std::future::Future;
use std::time::{Duration, Instant};

/// How often a write that has not finished is logged.
pub(super) const STALL_LOG_EVERY: Duration = Duration::from_secs(30);

/// Runs `work`; every `every` it has not finished, calls `on_slow` with the time it has
/// taken so far.
pub(super) async fn watched<T>(
    work: impl Future<Output = T>,
    every: Duration,
    mut on_slow: impl FnMut(Duration),
) -> T {
    let work = std::pin::pin!(work);
    let mut work = work;
    let started = Instant::now();
    let mut tick = tokio::time::interval_at((started + every).into(), every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            out = &mut work => return out,
            _ = tick.tick() => on_slow(started.elapsed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slow_write_is_told_while_it_lasts_and_a_fast_one_never() {
        let mut told = Vec::new();
        let out = watched(
            tokio::time::sleep(Duration::from_millis(150)),
            Duration::from_millis(40),
            |so_far| told.push(so_far),
        )
        .await;
        assert_eq!(out, ());
        assert!(!told.is_empty(), "told while it lasted");
        assert!(
            told.windows(2).all(|w| w[0] < w[1]) && told[0] >= Duration::from_millis(40),
            "{told:?}"
        );
        let mut fast = 0;
        let value = watched(async { 7 }, Duration::from_millis(40), |_| fast += 1).await;
        assert_eq!((value, fast), (7, 0));
    }
}
