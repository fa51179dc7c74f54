//! How the stone CLI reads HTTP answers, in one place: every client is built by
//! [`client_builder`] (user agent, connect timeout, and a read timeout, so that a server
//! that never answers ends in an error, not a hang), and every answer the CLI parses is
//! read by [`read_capped`] (or [`collect_capped`] for a byte stream from elsewhere, such as
//! an object store) up to a byte cap: a larger answer is refused, never buffered. Streamed
//! downloads (data) are not capped, but their reads time out all the same.
//!
//! The rest of the policy lives here too: [`retry`] (which failures are sent again, the
//! back-off, and the one send loop), [`transport`] (https, or plain http to this machine
//! only) and [`describe`] (a transport error in a few words, without its URL). What of a
//! URL may be printed is [`stone_api::redact_url`], shared with the server.

pub mod retry;
pub mod transport;

use std::time::Duration;

use bytes::Bytes;
use futures::{Stream, StreamExt};

/// Seconds a read may wait for the server (for its answer, or between two pieces of it)
/// before the request fails as timed out. Overrides [`API_READ_TIMEOUT`] and
/// [`UPLOAD_READ_TIMEOUT`]; a value that is not a positive whole number is ignored.
pub const STONE_HTTP_READ_TIMEOUT: &str = "STONE_HTTP_READ_TIMEOUT";

/// How long a connection may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The read timeout of API calls, metadata, downloads and login (default).
pub const API_READ_TIMEOUT: Duration = Duration::from_secs(120);
/// The read timeout of uploads: the server may hash a whole part before it answers.
pub const UPLOAD_READ_TIMEOUT: Duration = Duration::from_secs(300);

/// The largest answer parsed whole (push API answers, dataset metadata, a previous
/// `datapackage.json`): 16 MiB.
pub const MAX_ANSWER: usize = 16 << 20;
/// The largest error body read (a problem document, or a proxy's error page): 64 KiB.
pub const MAX_PROBLEM: usize = 64 << 10;
/// The largest OpenID provider document read (discovery, token answers): 1 MiB.
pub const MAX_DOCUMENT: usize = 1 << 20;

/// `default`, unless [`STONE_HTTP_READ_TIMEOUT`] says otherwise.
pub fn read_timeout(default: Duration) -> Duration {
    std::env::var(STONE_HTTP_READ_TIMEOUT)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .map_or(default, Duration::from_secs)
}

/// A client builder with stone's user agent, [`CONNECT_TIMEOUT`] and a read timeout of
/// `read` (or [`STONE_HTTP_READ_TIMEOUT`]). Callers add their redirect policy.
pub fn client_builder(read: Duration) -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .user_agent(concat!("stone/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(CONNECT_TIMEOUT)
        .read_timeout(read_timeout(read))
}

/// Why a capped read stopped.
#[derive(Debug)]
pub enum Capped<E = reqwest::Error> {
    /// The transfer failed (timed out, cut off).
    Failed(E),
    /// The answer is larger than the cap (said by its length, or found while reading).
    TooLarge,
}

/// The body of `response`, read only up to `limit` bytes.
pub async fn read_capped(response: reqwest::Response, limit: usize) -> Result<Vec<u8>, Capped> {
    let length = response.content_length();
    collect_capped(response.bytes_stream(), length, limit).await
}

/// The bytes of `stream` (which states `length`, if it does), read only up to `limit`.
pub async fn collect_capped<E>(
    stream: impl Stream<Item = Result<Bytes, E>>,
    length: Option<u64>,
    limit: usize,
) -> Result<Vec<u8>, Capped<E>> {
    if length.is_some_and(|length| length > limit as u64) {
        return Err(Capped::TooLarge);
    }
    let mut stream = std::pin::pin!(stream);
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(Capped::Failed)?;
        if body.len() + chunk.len() > limit {
            return Err(Capped::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A transport error in a few words, without its URL (which may be presigned), with its
/// causes: `cannot connect: …`, `timed out`, `the answer was cut off: …`.
pub fn describe(e: &reqwest::Error) -> String {
    let mut message = String::from(if e.is_connect() {
        "cannot connect"
    } else if e.is_timeout() {
        "timed out"
    } else if e.is_body() || e.is_decode() {
        "the answer was cut off"
    } else if e.is_redirect() {
        "too many redirects"
    } else {
        "the request failed"
    });
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    message
}

/// A limit in words: `16 MiB`, `64 KiB`, `100 bytes`.
pub fn size_in_words(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(sizes: &[usize]) -> impl Stream<Item = Result<Bytes, ()>> {
        futures::stream::iter(
            sizes
                .iter()
                .map(|&n| Ok(Bytes::from(vec![b'x'; n])))
                .collect::<Vec<_>>(),
        )
    }

    #[tokio::test]
    async fn reads_up_to_the_cap_and_no_further() {
        let body = collect_capped(chunks(&[3, 4]), None, 7).await.unwrap();
        assert_eq!(body.len(), 7);
        assert!(matches!(
            collect_capped(chunks(&[3, 5]), None, 7).await,
            Err(Capped::TooLarge)
        ));
        // A stated length past the cap is refused before a byte is read.
        assert!(matches!(
            collect_capped(chunks(&[1]), Some(8), 7).await,
            Err(Capped::TooLarge)
        ));
    }

    #[test]
    fn limits_in_words() {
        assert_eq!(size_in_words(MAX_ANSWER), "16 MiB");
        assert_eq!(size_in_words(MAX_PROBLEM), "64 KiB");
        assert_eq!(size_in_words(100), "100 bytes");
    }
}
