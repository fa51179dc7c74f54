//! What proves an upload's bytes: the SHA-256 the store keeps and enforces (a presigned
//! `x-amz-checksum-sha256`), probed once per store, or else the bytes read back in ranges.

use chrono::{DateTime, Utc};

use super::*;

impl S3Staging {
    /// What the store says of an object (HEAD with `x-amz-checksum-mode: ENABLED`, a
    /// presigned request: `object_store`'s HEAD does not return checksums): its size and
    /// the full-object SHA-256 it keeps (base64; `None` when it keeps none, or only a
    /// composite checksum of parts); `None` when the object does not exist.
    pub(super) async fn stored_checksum(
        &self,
        key: &ObjectPath,
    ) -> Result<Option<(u64, Option<String>)>, StagingError> {
        Ok(self
            .stored_object(key)
            .await?
            .map(|(size, checksum, _)| (size, checksum)))
    }

    /// [`Self::stored_checksum`], with the time the store says the object was written
    /// (its `Last-Modified`; `None` when it gives none that reads).
    pub(super) async fn stored_object(
        &self,
        key: &ObjectPath,
    ) -> Result<Option<(u64, Option<String>, Option<DateTime<Utc>>)>, StagingError> {
        let header = HeaderName::from_static("x-amz-checksum-mode");
        let url = self
            .store
            .signed_url_opts(
                Method::HEAD,
                key,
                Duration::from_secs(300),
                &SignedUrlOptions::default()
                    .with_signed_header(header.clone(), HeaderValue::from_static("ENABLED")),
            )
            .await
            .map_err(s3_error(format!("signing a HEAD of {key}")))?;
        let response = self
            .http
            .head(url)
            .header(header, "ENABLED")
            .send()
            .await
            .map_err(|e| StagingError::S3 {
                what: format!("HEAD {key}"),
                source: Box::new(e),
            })?;
        let status = response.status();
        if status == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(StagingError::S3 {
                what: format!("HEAD {key}"),
                source: format!("answered HTTP {status}").into(),
            });
        }
        let headers = response.headers();
        let size = headers
            .get(reqwest::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
            .ok_or_else(|| StagingError::S3 {
                what: format!("HEAD {key}"),
                source: "no Content-Length in the answer".into(),
            })?;
        let full_object = headers
            .get("x-amz-checksum-type")
            .is_none_or(|t| t.as_bytes().eq_ignore_ascii_case(b"FULL_OBJECT"));
        let checksum = headers
            .get("x-amz-checksum-sha256")
            .and_then(|v| v.to_str().ok())
            .filter(|_| full_object)
            .map(str::to_owned);
        let modified = headers
            .get(reqwest::header::LAST_MODIFIED)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| DateTime::parse_from_rfc2822(v).ok())
            .map(|t| t.with_timezone(&Utc));
        Ok(Some((size, checksum, modified)))
    }

    /// Whether the store refuses a body that does not match the `x-amz-checksum-sha256`
    /// a presigned `PUT` binds, which is what lets an upload's digest be trusted without
    /// reading it back. Probed once per process with a body that does not match: `400`
    /// (S3's `BadDigest`) proves it; a store that takes the body (deleted at once) is
    /// never trusted; any other answer proves nothing and is asked again next time.
    pub(super) async fn enforces_checksums(&self) -> bool {
        if let Some(known) = self.checksums_enforced.get() {
            return *known;
        }
        match self.probe_checksums().await {
            Ok(Some(enforced)) => {
                if !enforced {
                    tracing::warn!(
                        bucket = %self.bucket,
                        "the staging bucket stores bodies that do not match their signed x-amz-checksum-sha256: every upload is read back and hashed"
                    );
                }
                *self
                    .checksums_enforced
                    .get_or_init(|| async { enforced })
                    .await
            }
            Ok(None) => false,
            Err(error) => {
                tracing::warn!(error = %crate::report::error_chain(&error), "cannot probe whether the staging bucket enforces checksums; this upload is read back");
                false
            }
        }
    }

    /// One probe of [`Self::enforces_checksums`]: `Some(answer)`, or `None` when the
    /// store's answer proves nothing either way.
    pub(super) async fn probe_checksums(&self) -> Result<Option<bool>, StagingError> {
        let key = ObjectPath::from(format!(
            "{}checksum-probe/{}",
            self.prefix,
            uuid::Uuid::new_v4().simple()
        ));
        let claimed = checksum_of(&hex::encode(Sha256::digest(
            b"stone: the body that was announced",
        )))?;
        let header = HeaderName::from_static("x-amz-checksum-sha256");
        let url = self
            .store
            .signed_url_opts(
                Method::PUT,
                &key,
                Duration::from_secs(300),
                &SignedUrlOptions::default().with_signed_header(
                    header.clone(),
                    HeaderValue::from_str(&claimed).expect("base64 is a header value"),
                ),
            )
            .await
            .map_err(s3_error("signing the checksum probe"))?;
        let response = self
            .http
            .put(url)
            .header(header, claimed.as_str())
            .body("stone: another body")
            .send()
            .await
            .map_err(|e| StagingError::S3 {
                what: "the checksum probe".into(),
                source: Box::new(e),
            })?;
        let status = response.status();
        if status.is_success() {
            self.delete_object(&key).await?;
            return Ok(Some(false));
        }
        let text = response.text().await.unwrap_or_default();
        if status == reqwest::StatusCode::BAD_REQUEST {
            tracing::debug!(answer = %text, "the staging bucket refuses a body that does not match its checksum");
            return Ok(Some(true));
        }
        tracing::warn!(%status, answer = %text, "the checksum probe of the staging bucket got an unexpected answer");
        Ok(None)
    }

    /// Whether the store itself vouches that the object at `key` is `sha256` (see the
    /// module documentation): it enforces signed checksums and the object reports the
    /// same full-object SHA-256. The size is checked by the caller.
    pub(super) fn vouched(enforced: bool, stored: Option<&str>, expected: &str) -> bool {
        enforced && stored.is_some_and(|stored| stored == expected)
    }

    /// Copies the object, `size` bytes, to a new local file `to` without hashing it:
    /// [`DOWNLOAD_RANGE`]-byte ranges, [`RANGES_AT_ONCE`] at a time, each written at its
    /// offset.
    pub(super) async fn download_ranges(
        &self,
        key: &ObjectPath,
        size: u64,
        to: &std::path::Path,
    ) -> Result<(), StagingError> {
        use futures::TryStreamExt;
        use std::os::unix::fs::FileExt;

        let file = std::fs::File::create(to).map_err(StagingError::io(to))?;
        file.set_len(size).map_err(StagingError::io(to))?;
        let file = Arc::new(file);
        let ranges: Vec<std::ops::Range<u64>> = (0..size)
            .step_by(DOWNLOAD_RANGE as usize)
            .map(|start| start..(start + DOWNLOAD_RANGE).min(size))
            .collect();
        futures::stream::iter(ranges)
            .map(|range| {
                let file = Arc::clone(&file);
                async move {
                    let bytes = self
                        .store
                        .get_range(key, range.clone())
                        .await
                        .map_err(s3_error(format!("GET {key}")))?;
                    if bytes.len() as u64 != range.end - range.start {
                        return Err(StagingError::SizeMismatch {
                            expected: range.end - range.start,
                            actual: bytes.len() as u64,
                        });
                    }
                    let path = to.to_owned();
                    tokio::task::spawn_blocking(move || file.write_all_at(&bytes, range.start))
                        .await
                        .map_err(|e| StagingError::io(&path)(std::io::Error::other(e)))?
                        .map_err(StagingError::io(&path))
                }
            })
            .buffer_unordered(RANGES_AT_ONCE)
            .try_collect::<Vec<()>>()
            .await?;
        Ok(())
    }

    /// Reads a caller's uploaded object back and checks it, or deletes it.
    pub(super) async fn verify_upload(
        &self,
        key: &ObjectPath,
        sha256: &str,
        size: u64,
    ) -> Result<(), StagingError> {
        let (actual, actual_size) = self.download(key, None).await?;
        if let Some(mismatch) = StagingError::mismatch(sha256, size, actual, actual_size) {
            self.delete_object(key).await?;
            return Err(mismatch);
        }
        Ok(())
    }
}
