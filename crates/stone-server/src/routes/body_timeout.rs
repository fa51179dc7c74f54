//! The body-read timeout of uploads: a body that sends no byte for `[server]
//! body_read_timeout_seconds` ends in an error where the handler reads it (so the handler
//! keeps nothing, as for any broken body), and the answer is 408 `request.timeout`.
//!
//! A layer on the upload routes, so that the handlers read their bodies as before.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use stone_api::codes;

use crate::error::ApiError;

/// Runs the request with its body cut off after a silence of the configured length.
pub(super) async fn limit_body_reads(
    State(seconds): State<u64>,
    request: Request,
    next: Next,
) -> Response {
    let stalled = Arc::new(AtomicBool::new(false));
    let (parts, body) = request.into_parts();
    let body = Body::from_stream(stalling(
        body.into_data_stream(),
        Duration::from_secs(seconds),
        stalled.clone(),
    ));
    let response = next.run(Request::from_parts(parts, body)).await;
    if stalled.load(Ordering::SeqCst) {
        return ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            codes::REQUEST_TIMEOUT,
            "Request timeout",
            format!(
                "the upload body sent no byte for {seconds} s; nothing was kept; upload it again"
            ),
        )
        .into_response();
    }
    response
}

/// `body`, ending with an error once a chunk takes longer than `timeout` to come; the
/// error sets `stalled`.
fn stalling(
    body: axum::body::BodyDataStream,
    timeout: Duration,
    stalled: Arc<AtomicBool>,
) -> impl futures::Stream<Item = Result<bytes::Bytes, std::io::Error>> + Send + 'static {
    futures::stream::unfold(Some(body), move |body| {
        let stalled = stalled.clone();
        async move {
            let mut body = body?;
            match tokio::time::timeout(timeout, body.next()).await {
                Ok(Some(chunk)) => Some((chunk.map_err(std::io::Error::other), Some(body))),
                Ok(None) => None,
                Err(_) => {
                    stalled.store(true, Ordering::SeqCst);
                    let error = std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!("no byte of the body for {} s", timeout.as_secs()),
                    );
                    // The body ends after the error.
                    Some((Err(error), None))
                }
            }
        }
    })
}
