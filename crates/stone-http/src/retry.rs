//! Retries: which failures are worth another attempt, how long to wait (exponential
//! back-off with jitter, or the server's `Retry-After`), and [`send`], the one loop every
//! client of the CLI sends through.

use std::future::Future;
use std::time::{Duration, Instant};

use reqwest::{RequestBuilder, Response};

use crate::describe;

const BASE: Duration = Duration::from_millis(250);
const CAP: Duration = Duration::from_secs(8);
/// The longest `Retry-After` obeyed.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// The wait before attempt `attempt + 1` (from 0): exponential, capped, with full jitter in
/// its upper half; `retry_after` wins when the server gave one (at most a minute).
pub fn backoff(attempt: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(after) = retry_after {
        return after.min(MAX_RETRY_AFTER);
    }
    let exp = BASE.saturating_mul(1u32 << attempt.min(8)).min(CAP);
    let half = exp / 2;
    half + half.mul_f64(fastrand::f64())
}

/// Whether an answer's status is worth another attempt: 408, 429 and 5xx.
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

/// Which failures a request may be sent again after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resend {
    /// Any connection error, 408, 429 and 5xx: the request is idempotent (a `GET`, or a
    /// push API call the server deduplicates).
    Idempotent,
    /// Only a failure to connect (the request never reached the server) and 429 (the
    /// server refused it unread): a form `POST` that spends a one-time code.
    Unsent,
}

/// One more attempt about to be made, for the caller's progress line.
#[derive(Debug)]
pub struct Retrying {
    /// The attempt that failed, from 0.
    pub attempt: u32,
    /// What went wrong, in a few words (`HTTP 503`, `cannot connect: …`).
    pub reason: String,
    /// The wait before the next attempt.
    pub wait: Duration,
}

/// Why [`send`] gave up without an answer.
#[derive(Debug)]
pub enum SendError<E> {
    /// The request could not be made (its body could not be read, say).
    Build(E),
    /// The last attempt got no answer (connection refused, timed out, cut off).
    Transport(reqwest::Error),
}

/// Sends the request `build` makes (afresh for every attempt, so that a streamed body
/// starts again) up to `retries + 1` times, waiting [`backoff`] between attempts, while
/// the failure is worth another attempt under `resend`. Returns the first answer not
/// worth retrying, or the last answer when attempts are spent (a 5xx, say: the caller
/// reads its problem); an error only when the last attempt got no answer. Each attempt
/// is logged at debug level with the method, the redacted URL, the status and the time;
/// `note` hears of each retry.
pub async fn send<E, F, Fut>(
    retries: u32,
    resend: Resend,
    mut build: F,
    mut note: impl FnMut(&Retrying),
) -> Result<Response, SendError<E>>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<RequestBuilder, E>>,
{
    let mut attempt = 0;
    loop {
        let (client, request) = build().await.map_err(SendError::Build)?.build_split();
        let request = request.map_err(SendError::Transport)?;
        let (method, url) = (request.method().clone(), redact_url(request.url().as_str()));
        // Said on every line, so that a verbose log shows where the token went (and where not).
        let token = if request
            .headers()
            .contains_key(reqwest::header::AUTHORIZATION)
        {
            "with the bearer token"
        } else {
            "no token"
        };
        let started = Instant::now();
        let sent = client.execute(request).await;
        let (reason, after) = match &sent {
            Ok(response) => {
                tracing::debug!(
                    "{method} {url} → {} in {:.0?} ({token})",
                    response.status(),
                    started.elapsed()
                );
                let status = response.status().as_u16();
                let again = match resend {
                    Resend::Idempotent => retryable_status(status),
                    Resend::Unsent => status == 429,
                };
                if !again {
                    return sent.map_err(SendError::Transport);
                }
                (
                    format!("HTTP {}", response.status()),
                    retry_after(response.headers()),
                )
            }
            Err(e) => {
                tracing::debug!("{method} {url} → {} ({token})", describe(e));
                if resend == Resend::Unsent && !e.is_connect() {
                    return sent.map_err(SendError::Transport);
                }
                (describe(e), None)
            }
        };
        if attempt >= retries {
            return sent.map_err(SendError::Transport);
        }
        let wait = backoff(attempt, after);
        note(&Retrying {
            attempt,
            reason,
            wait,
        });
        drop(sent);
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// What [`send`] tried, for a message that says so: a person can tell a server that is down
/// (six attempts over 13 s) from a network that dropped one request. Call [`Tries::note`]
/// from `send`'s `note`.
pub struct Tries {
    started: Instant,
    retries: std::sync::atomic::AtomicU32,
}

impl Default for Tries {
    fn default() -> Self {
        Self {
            started: Instant::now(),
            retries: std::sync::atomic::AtomicU32::new(0),
        }
    }
}

impl Tries {
    pub fn note(&self) {
        self.retries
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The last attempt's failure, with how many attempts were made over how long.
    pub fn describe(&self, error: &reqwest::Error) -> String {
        format!("{} {}", crate::describe(error), self.attempts())
    }

    /// `(one attempt)` or `(N attempts over S s)`.
    pub fn attempts(&self) -> String {
        match self.retries.load(std::sync::atomic::Ordering::Relaxed) {
            0 => "(one attempt)".into(),
            retries => format!(
                "({} attempts over {} s)",
                retries + 1,
                self.started.elapsed().as_secs()
            ),
        }
    }
}

fn redact_url(url: &str) -> String {
    stone_api::redact_url(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A loopback server answering one connection per status of `statuses` (then 200s),
    /// with `Retry-After: 0`; returns its URL.
    async fn server(statuses: Vec<u16>) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/x", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let mut statuses = statuses.into_iter();
            loop {
                let (mut stream, _) = listener.accept().await.unwrap();
                let mut head = [0u8; 4096];
                let _ = stream.read(&mut head).await;
                let status = statuses.next().unwrap_or(200);
                let answer = format!(
                    "HTTP/1.1 {status} X\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            }
        });
        url
    }

    async fn get(url: &str, retries: u32, resend: Resend) -> (Result<u16, String>, Vec<String>) {
        let client = reqwest::Client::new();
        let mut notes = Vec::new();
        let build = || std::future::ready(Ok::<_, ()>(client.get(url)));
        let sent = send(retries, resend, build, |r| notes.push(r.reason.clone())).await;
        let sent = match sent {
            Ok(response) => Ok(response.status().as_u16()),
            Err(SendError::Transport(e)) => Err(describe(&e)),
            Err(SendError::Build(())) => Err("build".into()),
        };
        (sent, notes)
    }

    #[tokio::test]
    async fn failures_worth_it_are_sent_again_until_the_retries_are_spent() {
        let url = server(vec![503, 429, 500]).await;
        let (sent, notes) = get(&url, 5, Resend::Idempotent).await;
        assert_eq!(sent, Ok(200));
        assert_eq!(
            notes,
            [
                "HTTP 503 Service Unavailable",
                "HTTP 429 Too Many Requests",
                "HTTP 500 Internal Server Error"
            ]
        );

        // Spent: the last answer comes back for the caller to read.
        let url = server(vec![503, 503, 503]).await;
        let (sent, notes) = get(&url, 1, Resend::Idempotent).await;
        assert_eq!((sent, notes.len()), (Ok(503), 1));

        // Not worth it: a 404 at once.
        let url = server(vec![404]).await;
        assert_eq!(get(&url, 5, Resend::Idempotent).await, (Ok(404), vec![]));
    }

    #[tokio::test]
    async fn a_request_that_spends_a_code_is_sent_again_only_when_unsent_or_refused_unread() {
        // A 500 may have spent the code: not sent again. A 429 was refused unread: sent again.
        let url = server(vec![500]).await;
        assert_eq!(get(&url, 5, Resend::Unsent).await, (Ok(500), vec![]));
        let url = server(vec![429]).await;
        let (sent, notes) = get(&url, 5, Resend::Unsent).await;
        assert_eq!((sent, notes.len()), (Ok(200), 1));

        // Nobody listens: never reached the server, so sent again, then given up.
        let port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let (sent, notes) = get(&format!("http://127.0.0.1:{port}/x"), 2, Resend::Unsent).await;
        assert!(
            sent.as_ref()
                .is_err_and(|e| e.starts_with("cannot connect")),
            "{sent:?}"
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
    }

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
        assert_eq!(backoff(0, Some(Duration::from_secs(3600))), MAX_RETRY_AFTER);
        assert!(
            retryable_status(503)
                && retryable_status(429)
                && retryable_status(408)
                && !retryable_status(404)
                && !retryable_status(403)
        );
    }
}
