//! Retries with exponential backoff and jitter, for connection errors, 429 and 5xx,
//! honouring `Retry-After`.

use std::time::Duration;

const BASE: Duration = Duration::from_millis(250);
const CAP: Duration = Duration::from_secs(8);

/// The wait before attempt `attempt + 1` (from 0): exponential, capped, with full jitter in
/// its upper half; `retry_after` (seconds) wins when the server gave one.
pub fn backoff(attempt: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(after) = retry_after {
        return after.min(Duration::from_secs(60));
    }
    let exp = BASE.saturating_mul(1u32 << attempt.min(8)).min(CAP);
    let half = exp / 2;
    half + half.mul_f64(fastrand::f64())
}

/// Whether a status is worth retrying.
pub fn retryable_status(status: u16) -> bool {
    status == 429 || status == 408 || (500..600).contains(&status)
}

/// `Retry-After` in seconds (the HTTP-date form is not used by our servers).
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_caps_and_honours_retry_after() {
        for attempt in 0..12 {
            let d = backoff(attempt, None);
            let exp = BASE.saturating_mul(1 << attempt.min(8)).min(CAP);
            assert!(d >= exp / 2 && d <= exp, "{attempt}: {d:?}");
        }
        assert_eq!(
            backoff(3, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert!(
            retryable_status(503)
                && retryable_status(429)
                && !retryable_status(404)
                && !retryable_status(403)
        );
    }
}
