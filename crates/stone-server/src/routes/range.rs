//! Byte ranges of a content answer (RFC 9110 §14): one rule for every content that has a
//! stable byte sequence per `ETag` (object storage files, a table's Parquet file).
//!
//! - `Range: bytes=a-b`, `bytes=a-`, `bytes=-n` (suffix): 206 with `Content-Range`.
//! - A range that starts at or past the end (or `bytes=-0`): 416 `request.range_not_satisfiable`
//!   with `Content-Range: bytes */size`.
//! - Several ranges (`bytes=0-1,5-6`), other units or a malformed value: ignored, the whole
//!   content (200). Readers (DuckDB, Polars, pyarrow) ask one range at a time.
//! - `If-Range` with an `ETag` other than the current one (or a date: this server sends no
//!   `Last-Modified`): the range is ignored, the whole content (200), so a reader never
//!   splices bytes of two snapshots.
//!
//! Every content answer's body is counted ([`counted`]): when it ends or the client goes
//! away, the server logs `content sent` with the bytes that left (what the benchmark
//! `bench/ranges.py` and the tests read).

use std::ops::Range;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::Stream;
use stone_api::codes;

use crate::error::ApiError;

/// What a request's `Range` (and `If-Range`) asks of a content of `size` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Requested {
    /// The whole content (no `Range`, one this server ignores, or a stale `If-Range`).
    Whole,
    /// One byte range, within the content.
    Part(Range<u64>),
    /// A range past the end: 416.
    Unsatisfiable,
}

/// The range a request asks for, resolved against `size`; `etag` is the content's current
/// `ETag` (an `If-Range` naming another one gets the whole content).
pub(super) fn requested(headers: &HeaderMap, size: u64, etag: &str) -> Requested {
    let Some(value) = headers.get(header::RANGE).and_then(|v| v.to_str().ok()) else {
        return Requested::Whole;
    };
    if let Some(condition) = headers.get(header::IF_RANGE) {
        // Strong comparison only (RFC 9110 §13.1.5): a weak tag or a date never matches.
        if condition.to_str().ok().map(str::trim) != Some(etag) {
            return Requested::Whole;
        }
    }
    match parse(value, size) {
        Ok(Some(range)) => Requested::Part(range),
        Ok(None) => Requested::Whole,
        Err(()) => Requested::Unsatisfiable,
    }
}

/// One `bytes=` range resolved against `size`: `Ok(None)` for a value this server ignores,
/// `Err` when unsatisfiable.
fn parse(value: &str, size: u64) -> Result<Option<Range<u64>>, ()> {
    let Some(spec) = value.trim().strip_prefix("bytes=") else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((start, end)) = spec.trim().split_once('-') else {
        return Ok(None);
    };
    let (start, end) = (start.trim(), end.trim());
    let range = if start.is_empty() {
        let Ok(suffix) = end.parse::<u64>() else {
            return Ok(None);
        };
        if suffix == 0 {
            return Err(());
        }
        size.saturating_sub(suffix)..size
    } else {
        let Ok(start) = start.parse::<u64>() else {
            return Ok(None);
        };
        let end = if end.is_empty() {
            size
        } else {
            match end.parse::<u64>() {
                Ok(last) if last >= start => last.saturating_add(1).min(size),
                _ => return Ok(None),
            }
        };
        start..end
    };
    if range.start >= size || range.start >= range.end {
        return Err(());
    }
    Ok(Some(range))
}

/// 416 `request.range_not_satisfiable`, with `Content-Range: bytes */size` and the `ETag`.
pub(super) fn unsatisfiable(size: u64, etag: &str) -> Response {
    let mut response = ApiError::new(
        StatusCode::RANGE_NOT_SATISFIABLE,
        codes::REQUEST_RANGE_NOT_SATISFIABLE,
        "Range not satisfiable",
        format!("the content has {size} bytes; ask for a range that starts below {size}"),
    )
    .with("size", size)
    .into_response();
    let h = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&format!("bytes */{size}")) {
        h.insert(header::CONTENT_RANGE, value);
    }
    if let Ok(value) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, value);
    }
    response
}

/// The status and headers of a ranged (or whole) answer of `size` bytes: `Content-Length`,
/// `Accept-Ranges`, and `Content-Range` for a part.
pub(super) fn set_range_headers(response: &mut Response, size: u64, range: Option<&Range<u64>>) {
    let h = response.headers_mut();
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    match range {
        Some(range) => {
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            let h = response.headers_mut();
            h.insert(
                header::CONTENT_LENGTH,
                HeaderValue::from(range.end - range.start),
            );
            if let Ok(value) =
                HeaderValue::from_str(&format!("bytes {}-{}/{size}", range.start, range.end - 1))
            {
                h.insert(header::CONTENT_RANGE, value);
            }
        }
        None => {
            h.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
        }
    }
}

/// A content body that counts the bytes it hands to the connection and logs them once
/// (`content sent`, with `dataset` and `bytes`) when it ends or is dropped.
pub(super) fn counted<S, E>(dataset: String, stream: S) -> Body
where
    S: Stream<Item = Result<bytes::Bytes, E>> + Send + 'static,
    E: Into<axum::BoxError> + 'static,
{
    Body::from_stream(Counted {
        dataset,
        bytes: 0,
        inner: Box::pin(stream),
    })
}

struct Counted<S> {
    dataset: String,
    bytes: u64,
    inner: Pin<Box<S>>,
}

impl<S, E> Stream for Counted<S>
where
    S: Stream<Item = Result<bytes::Bytes, E>>,
{
    type Item = Result<bytes::Bytes, E>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let polled = self.inner.as_mut().poll_next(cx);
        if let Poll::Ready(Some(Ok(chunk))) = &polled {
            self.bytes += chunk.len() as u64;
        }
        polled
    }
}

impl<S> Drop for Counted<S> {
    fn drop(&mut self) {
        tracing::info!(dataset = %self.dataset, bytes = self.bytes, "content sent");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn range(value: &str) -> HeaderMap {
        with(&[(header::RANGE, value)])
    }

    #[test]
    fn ranges_resolve_against_the_size() {
        use Requested::*;
        let tag = "\"t\"";
        assert_eq!(requested(&HeaderMap::new(), 10, tag), Whole);
        assert_eq!(requested(&range("bytes=0-3"), 10, tag), Part(0..4));
        assert_eq!(requested(&range("bytes=4-"), 10, tag), Part(4..10));
        assert_eq!(requested(&range("bytes=-3"), 10, tag), Part(7..10));
        assert_eq!(requested(&range("bytes=-30"), 10, tag), Part(0..10));
        assert_eq!(requested(&range("bytes=5-100"), 10, tag), Part(5..10));
        assert_eq!(requested(&range("bytes=10-"), 10, tag), Unsatisfiable);
        assert_eq!(requested(&range("bytes=-0"), 10, tag), Unsatisfiable);
        assert_eq!(requested(&range("bytes=0-1,4-5"), 10, tag), Whole);
        assert_eq!(requested(&range("items=0-1"), 10, tag), Whole);
        assert_eq!(requested(&range("bytes=5-2"), 10, tag), Whole);
    }

    #[test]
    fn a_stale_if_range_gets_the_whole_content() {
        let matching = with(&[(header::RANGE, "bytes=0-3"), (header::IF_RANGE, "\"t\"")]);
        assert_eq!(requested(&matching, 10, "\"t\""), Requested::Part(0..4));
        let stale = with(&[(header::RANGE, "bytes=0-3"), (header::IF_RANGE, "\"old\"")]);
        assert_eq!(requested(&stale, 10, "\"t\""), Requested::Whole);
        let weak = with(&[(header::RANGE, "bytes=0-3"), (header::IF_RANGE, "W/\"t\"")]);
        assert_eq!(requested(&weak, 10, "\"t\""), Requested::Whole);
        let date = with(&[
            (header::RANGE, "bytes=0-3"),
            (header::IF_RANGE, "Wed, 21 Oct 2015 07:28:00 GMT"),
        ]);
        assert_eq!(requested(&date, 10, "\"t\""), Requested::Whole);
    }
}
