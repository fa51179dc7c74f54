//! Upload endpoints of the local staging store: `PUT /v1/staging/{sha256}`,
//! `PUT /v1/staging/{sha256}/parts/{number}` and `PUT /v1/staging/pack` (issue 27), reached
//! only through signed URLs.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use stone_api::pack::PackError;
use stone_api::{PacksStaged, UploadCompleted, codes, is_sha256};

use super::App;
use crate::error::{ApiError, ApiResult};
use crate::staging::StagingError;
use crate::staging::local::{LocalStaging, UrlRefusal};

/// Maps a staging failure to its problem.
pub fn staging_error(error: StagingError) -> ApiError {
    match error {
        StagingError::DigestMismatch { expected, actual } => ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::STAGING_DIGEST_MISMATCH,
            "Digest mismatch",
            format!("the uploaded bytes have sha256 {actual}, not {expected}; nothing was kept"),
        )
        .with("expected", expected)
        .with("actual", actual),
        StagingError::SizeMismatch { expected, actual } => ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::STAGING_SIZE_MISMATCH,
            "Size mismatch",
            format!("the upload has {actual} bytes or more, not {expected}; nothing was kept"),
        )
        .with("expected", expected)
        .with("actual", actual),
        StagingError::UnknownUpload { sha256, upload_id } => ApiError::new(
            StatusCode::NOT_FOUND,
            codes::STAGING_UNKNOWN_UPLOAD,
            "Unknown upload",
            format!("no multipart upload {upload_id} of {sha256} is in progress"),
        ),
        StagingError::Pack(PackError::DigestMismatch {
            at,
            expected,
            actual,
        }) => ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::STAGING_DIGEST_MISMATCH,
            "Digest mismatch",
            format!(
                "the content at byte {at} of the pack has sha256 {actual}, not {expected}; nothing of the pack was kept"
            ),
        )
        .with("expected", expected)
        .with("actual", actual),
        StagingError::Pack(error) => ApiError::new(
            if matches!(error, PackError::TooLarge { .. }) {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            },
            codes::STAGING_PACK_INVALID,
            "Invalid pack",
            format!("{error}; nothing of the pack was kept"),
        ),
        StagingError::Undeclared { sha256, push } => ApiError::new(
            StatusCode::FORBIDDEN,
            codes::STAGING_PACK_INVALID,
            "Content not declared",
            format!(
                "content {sha256} of the pack is not one push {push} declares: a pack stages its push's contents only; nothing of the pack was kept"
            ),
        )
        .with("sha256", sha256),
        StagingError::BadPart { .. } => ApiError::invalid(error.to_string()),
        StagingError::Body(source) => {
            ApiError::invalid(format!("the upload body could not be read: {source}"))
        }
        StagingError::Io { ref source, .. } if crate::outage::is_disk_full(source) => ApiError::storage_full(error),
        StagingError::NoSpace {
            needed,
            available,
            reserve,
        } => ApiError::no_space(&error)
            .with("needed_bytes", needed)
            .with("available_bytes", available)
            .with("reserved_bytes", reserve),
        other => ApiError::internal(other),
    }
}

fn local(app: &App) -> ApiResult<&Arc<LocalStaging>> {
    app.local_staging.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            codes::REQUEST_NOT_FOUND,
            "Not found",
            "this server stages uploads in S3; upload to the URLs it returned",
        )
    })
}

/// First refusal of every upload: API credentials sent to a signed URL.
fn refuse_credentials(headers: &HeaderMap) -> ApiResult<()> {
    if headers.contains_key(header::AUTHORIZATION) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::STAGING_CREDENTIALS_SENT,
            "Credentials sent to a signed URL",
            "upload URLs carry their own signature; do not send an Authorization header with them",
        ));
    }
    Ok(())
}

/// Refusals every upload shares once its signature is checked (an unsigned request learns
/// nothing more than that): a digest in the path, a declared length equal to the signed
/// size.
fn check_request(headers: &HeaderMap, sha256: &str, size: u64) -> ApiResult<()> {
    if !is_sha256(sha256) {
        return Err(ApiError::invalid(format!("{sha256:?} is not a sha256")));
    }
    if let Some(length) = declared_length(headers)
        && length != size
    {
        return Err(staging_error(StagingError::SizeMismatch {
            expected: size,
            actual: length,
        }));
    }
    Ok(())
}

/// The body's length as its `Content-Length` declares it.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

fn refusal(refusal: UrlRefusal) -> ApiError {
    match refusal {
        UrlRefusal::Expired => ApiError::new(
            StatusCode::FORBIDDEN,
            codes::STAGING_EXPIRED,
            "Upload URL expired",
            "the upload URL has expired; re-post the manifest with the push ID for a fresh one",
        ),
        UrlRefusal::InvalidSignature => ApiError::new(
            StatusCode::FORBIDDEN,
            codes::STAGING_INVALID_SIGNATURE,
            "Invalid signature",
            "the upload URL's signature does not match it",
        ),
    }
}

fn number(query: &HashMap<String, String>, name: &str) -> ApiResult<u64> {
    query
        .get(name)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| refusal(UrlRefusal::InvalidSignature).with("parameter", name))
}

fn text<'a>(query: &'a HashMap<String, String>, name: &str) -> ApiResult<&'a str> {
    query
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| refusal(UrlRefusal::InvalidSignature).with("parameter", name))
}

/// `PUT /v1/staging/{sha256}?size=…&holder=…&expires=…&sig=…`.
pub async fn put_content(
    State(app): State<Arc<App>>,
    Path(sha256): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Json<UploadCompleted>> {
    let staging = local(&app)?;
    let size = number(&query, "size")?;
    let holder = text(&query, "holder")?;
    let expires = number(&query, "expires")?;
    let signature = text(&query, "sig")?;
    refuse_credentials(&headers)?;
    staging
        .check_content_url(&sha256, size, holder, expires, signature)
        .map_err(refusal)?;
    check_request(&headers, &sha256, size)?;
    // In a task of its own: once the body is in, a client that goes away (killed, timed
    // out) must not cancel the bookkeeping between storing the content and recording who
    // holds it, or its rerun would be asked for content the server has.
    let received = {
        let (app, staging, sha256, holder) = (
            app.clone(),
            staging.clone(),
            sha256.clone(),
            holder.to_owned(),
        );
        tokio::spawn(async move {
            staging
                .receive(&sha256, size, &holder, body.into_data_stream())
                .await?;
            // The datasets that waited for it may be prepared now.
            app.engines.blob.content_staged(&holder, &sha256);
            Ok::<(), crate::staging::StagingError>(())
        })
    };
    received
        .await
        .map_err(ApiError::internal)?
        .map_err(staging_error)?;
    Ok(Json(UploadCompleted {
        sha256,
        size,
        staged: true,
    }))
}

/// `PUT /v1/staging/pack?max=…&holder=…&expires=…&sig=…` (issue 27): many small contents
/// in one body ([`stone_api::pack`]), all staged or none.
pub async fn put_pack(
    State(app): State<Arc<App>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<Json<PacksStaged>> {
    let staging = local(&app)?;
    let max_bytes = number(&query, "max")?;
    let holder = text(&query, "holder")?;
    let push = text(&query, "push")?;
    let expires = number(&query, "expires")?;
    let signature = text(&query, "sig")?;
    refuse_credentials(&headers)?;
    staging
        .check_pack_url(holder, push, max_bytes, expires, signature)
        .map_err(refusal)?;
    if let Some(length) = declared_length(&headers)
        && length > max_bytes
    {
        return Err(staging_error(StagingError::Pack(PackError::TooLarge {
            max_bytes,
        })));
    }
    // In a task of its own, as a single upload: a client that goes away once the body is
    // in does not cancel the bookkeeping.
    let received = {
        let (app, staging, holder, push) = (
            app.clone(),
            staging.clone(),
            holder.to_owned(),
            push.to_owned(),
        );
        tokio::spawn(async move {
            let check =
                async |contents: Vec<String>| match undeclared(&app, &push, &holder, contents)
                    .await?
                {
                    Some(sha256) => Err(StagingError::Undeclared {
                        sha256,
                        push: push.clone(),
                    }),
                    None => Ok(()),
                };
            let staged = staging
                .receive_pack(&holder, max_bytes, body.into_data_stream(), check)
                .await?;
            for sha256 in &staged {
                app.engines.blob.content_staged(&holder, sha256);
            }
            Ok::<_, StagingError>(staged.len())
        })
    };
    let staged = received
        .await
        .map_err(ApiError::internal)?
        .map_err(staging_error)?;
    Ok(Json(PacksStaged {
        staged: u32::try_from(staged).unwrap_or(u32::MAX),
    }))
}

/// The first of `contents` that push `push` of `holder` does not declare (its manifest's
/// files; a paged push's recorded batches), `None` when it declares them all. A push that
/// is not the holder's, or that is gone, declares nothing. A paged push's contents are
/// looked up together, without its manifest (issue 56: each pack read and parsed the
/// manifest of every dataset of the push, and asked for its contents one by one).
async fn undeclared(
    app: &App,
    push: &str,
    holder: &str,
    mut contents: Vec<String>,
) -> Result<Option<String>, StagingError> {
    let Some(summary) = app.db.push_summary(push).await? else {
        return Ok(contents.into_iter().next());
    };
    if crate::staging::holder_key(&summary.principal) != holder {
        return Ok(contents.into_iter().next());
    }
    if summary.paged_files {
        let found = app.db.paged_contents_among(push, &contents).await?;
        contents.retain(|sha256| !found.contains(sha256));
        if contents.is_empty() {
            return Ok(None);
        }
    }
    // The manifest's own files (a push that is not paged; a paged push's, if any).
    let Some(record) = app.db.push(push).await? else {
        return Ok(contents.into_iter().next());
    };
    let declared: std::collections::HashSet<&str> = record
        .manifest
        .datasets
        .iter()
        .flat_map(|d| d.files.iter().map(|f| f.sha256.as_str()))
        .collect();
    Ok(contents
        .into_iter()
        .find(|sha256| !declared.contains(sha256.as_str())))
}

/// `PUT /v1/staging/{sha256}/parts/{number}?upload=…&offset=…&size=…&expires=…&sig=…`.
pub async fn put_part(
    State(app): State<Arc<App>>,
    Path((sha256, part)): Path<(String, u32)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Body,
) -> ApiResult<StatusCode> {
    let staging = local(&app)?;
    let upload = text(&query, "upload")?;
    let offset = number(&query, "offset")?;
    let size = number(&query, "size")?;
    let expires = number(&query, "expires")?;
    let signature = text(&query, "sig")?;
    refuse_credentials(&headers)?;
    staging
        .check_part_url(&sha256, part, upload, offset, size, expires, signature)
        .map_err(refusal)?;
    check_request(&headers, &sha256, size)?;
    staging
        .receive_part(&sha256, upload, part, offset, size, body.into_data_stream())
        .await
        .map_err(staging_error)?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(source: std::io::Error) -> StagingError {
        StagingError::Io {
            path: "staging/incoming/x".into(),
            source,
        }
    }

    #[test]
    fn a_full_disk_is_507_and_another_io_failure_500() {
        let full = staging_error(io(std::io::ErrorKind::StorageFull.into()));
        assert_eq!(full.problem.status, 507);
        assert_eq!(full.problem.code, codes::SERVER_STORAGE_FULL);
        #[cfg(target_os = "linux")]
        assert_eq!(
            staging_error(io(std::io::Error::from_raw_os_error(28)))
                .problem
                .status,
            507,
            "ENOSPC"
        );
        let other = staging_error(io(std::io::ErrorKind::NotADirectory.into()));
        assert_eq!(other.problem.status, 500);
        assert_eq!(other.problem.code, codes::SERVER_INTERNAL);
    }
}
