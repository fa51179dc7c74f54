//! The S3 staging store: contents in an S3-compatible bucket, uploaded by the client
//! directly to S3 through presigned URLs.
//!
//! - A content is the object `<prefix><sha256>`.
//! - A single upload is a presigned `PUT` that binds `x-amz-checksum-sha256` (the base64
//!   of the digest): S3 stores the body only if it has that digest (else `400 BadDigest`),
//!   so an object at a content's key that no multipart upload wrote is verified by S3. The
//!   server still checks its size (HEAD) before trusting it, and records it in the state
//!   database.
//! - A multipart upload (created by the server) gets presigned `UploadPart` URLs. Parts
//!   cannot be bound to digests the server does not know, so after `CompleteMultipartUpload`
//!   the server reads the object back and hashes it; a mismatch deletes it. While the
//!   upload is recorded in the state database, the object is not trusted.
//! - Engines get a verified local copy ([`StagingStore::local_file`]), hashed again while
//!   it is downloaded.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use base64::Engine as _;
use futures::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path as ObjectPath;
use object_store::signer::{HeaderName, HeaderValue, Method, SignedUrlOptions, Signer};
use object_store::{ObjectStore, ObjectStoreExt, RetryConfig};
use sha2::{Digest, Sha256};
use stone_api::{StagingStoreKind, Upload, UploadPart};
use tokio::io::AsyncWriteExt;

use super::{
    Completion, KeyedLocks, LocalContent, StagingError, StagingStore, Swept, expiry, is_sha256,
    layout, part_size_for, rfc3339,
};
use crate::config::S3Options;
use crate::state::{MultipartRecord, StateDb};

/// The owner of every multipart upload of this store: one upload per content, shared
/// (the bucket's key is the content's).
const SHARED: &str = "";

/// The S3 staging store.
#[derive(Debug)]
pub struct S3Staging {
    store: Arc<AmazonS3>,
    bucket: String,
    prefix: String,
    db: StateDb,
    part_size: u64,
    cache: PathBuf,
    http: reqwest::Client,
    locks: KeyedLocks,
}

fn s3_error(what: impl Into<String>) -> impl FnOnce(object_store::Error) -> StagingError {
    let what = what.into();
    move |source| StagingError::S3 {
        what,
        source: Box::new(source),
    }
}

/// The object_store client of a bucket.
pub fn amazon_s3(options: &S3Options) -> Result<AmazonS3, object_store::Error> {
    let mut builder = AmazonS3Builder::new()
        .with_bucket_name(&options.bucket)
        .with_region(&options.region)
        .with_access_key_id(&options.access_key_id)
        .with_secret_access_key(&options.secret_access_key)
        .with_allow_http(options.allow_http)
        .with_retry(RetryConfig {
            max_retries: 3,
            ..RetryConfig::default()
        });
    if let Some(endpoint) = &options.endpoint {
        builder = builder.with_endpoint(endpoint);
    }
    builder.build()
}

impl S3Staging {
    /// The store on `options`' bucket; downloads for engines go to `cache`.
    pub fn open(
        options: &S3Options,
        db: StateDb,
        part_size: u64,
        cache: PathBuf,
    ) -> Result<Self, StagingError> {
        let store = amazon_s3(options).map_err(s3_error("configuring the bucket"))?;
        std::fs::create_dir_all(&cache).map_err(StagingError::io(&cache))?;
        for entry in std::fs::read_dir(&cache)
            .map_err(StagingError::io(&cache))?
            .flatten()
        {
            let _ = std::fs::remove_file(entry.path());
        }
        let mut prefix = options.prefix.trim_start_matches('/').to_owned();
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        Ok(Self {
            store: Arc::new(store),
            bucket: options.bucket.clone(),
            prefix,
            db,
            part_size,
            cache,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .map_err(|e| StagingError::S3 {
                    what: "building the HTTP client".into(),
                    source: Box::new(e),
                })?,
            locks: KeyedLocks::default(),
        })
    }

    fn key(&self, sha256: &str) -> ObjectPath {
        ObjectPath::from(format!("{}{sha256}", self.prefix))
    }

    /// The object's size, `None` when it does not exist.
    async fn object_size(&self, sha256: &str) -> Result<Option<u64>, StagingError> {
        match self.store.head(&self.key(sha256)).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(s3_error(format!("HEAD {sha256}"))(error)),
        }
    }

    /// Parts of a multipart upload: `(number, etag)`. `None` when S3 no longer knows the
    /// upload (completed or aborted).
    async fn list_parts(
        &self,
        sha256: &str,
        upload_id: &str,
    ) -> Result<Option<Vec<(u32, String)>>, StagingError> {
        let (status, text) = self
            .signed_get(
                "ListParts",
                &self.key(sha256),
                SignedUrlOptions::default().with_query([("uploadId", upload_id)]),
            )
            .await?;
        if status == reqwest::StatusCode::NOT_FOUND || text.contains("NoSuchUpload") {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(StagingError::S3 {
                what: format!("ListParts answered HTTP {status}"),
                source: text.into(),
            });
        }
        let mut parts = Vec::new();
        for part in xml_elements(&text, "Part") {
            let number = xml_elements(part, "PartNumber")
                .first()
                .and_then(|n| n.trim().parse().ok());
            let etag = xml_elements(part, "ETag").first().map(|e| xml_unescape(e));
            if let (Some(number), Some(etag)) = (number, etag) {
                parts.push((number, etag));
            }
        }
        parts.sort();
        Ok(Some(parts))
    }

    /// Hashes the object while copying it to a local file (or to nothing).
    async fn download(
        &self,
        sha256: &str,
        to: Option<&std::path::Path>,
    ) -> Result<(String, u64), StagingError> {
        let result = self
            .store
            .get(&self.key(sha256))
            .await
            .map_err(s3_error(format!("GET {sha256}")))?;
        let mut stream = result.into_stream();
        let mut file = match to {
            Some(path) => Some(
                tokio::fs::File::create(path)
                    .await
                    .map_err(StagingError::io(path))?,
            ),
            None => None,
        };
        let mut hasher = Sha256::new();
        let mut total = 0u64;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(s3_error(format!("reading {sha256}")))?;
            hasher.update(&chunk);
            total += chunk.len() as u64;
            if let (Some(file), Some(path)) = (file.as_mut(), to) {
                file.write_all(&chunk)
                    .await
                    .map_err(StagingError::io(path))?;
            }
        }
        if let (Some(mut file), Some(path)) = (file, to) {
            file.flush().await.map_err(StagingError::io(path))?;
        }
        Ok((hex::encode(hasher.finalize()), total))
    }

    /// Reads the object back and records it as verified, or deletes it.
    async fn verify_object(&self, sha256: &str, size: u64) -> Result<(), StagingError> {
        let (actual, actual_size) = self.download(sha256, None).await?;
        if actual != sha256 || actual_size != size {
            let _ = self.store.delete(&self.key(sha256)).await;
            self.db.delete_multiparts_of(sha256).await?;
            self.db.forget_content(sha256).await?;
            return Err(if actual_size != size {
                StagingError::SizeMismatch {
                    expected: size,
                    actual: actual_size,
                }
            } else {
                StagingError::DigestMismatch {
                    expected: sha256.to_owned(),
                    actual,
                }
            });
        }
        self.db.mark_verified(sha256, size).await?;
        Ok(())
    }
}

#[async_trait]
impl StagingStore for S3Staging {
    fn kind(&self) -> StagingStoreKind {
        StagingStoreKind::S3
    }

    async fn is_staged(&self, sha256: &str, size: u64) -> Result<bool, StagingError> {
        if let Some(verified) = self.db.verified_content(sha256).await? {
            return Ok(verified == size);
        }
        if self.db.multipart(sha256, SHARED).await?.is_some() {
            // Written by a multipart upload: trusted only after `complete` read it back.
            return Ok(false);
        }
        match self.object_size(sha256).await? {
            Some(found) if found == size => {
                // Only a checksum-bound PUT writes this key outside a multipart upload.
                self.db.mark_verified(sha256, size).await?;
                Ok(true)
            }
            Some(found) => {
                tracing::warn!(
                    sha256,
                    found,
                    size,
                    "staged object has the wrong size; deleting it"
                );
                let _ = self.store.delete(&self.key(sha256)).await;
                Ok(false)
            }
            None => Ok(false),
        }
    }

    async fn upload(
        &self,
        sha256: &str,
        size: u64,
        ttl: Duration,
        holder: &str,
    ) -> Result<Upload, StagingError> {
        // The bucket verifies the bytes (checksum-bound URL, or read back at completion)
        // but does not tell the server who sent them: the caller handed an upload URL is
        // taken as a holder. (The local store records a holder only from a verified
        // upload it received.)
        self.db.record_holder(sha256, holder).await?;
        let (expires_at, _) = expiry(ttl);
        let key = self.key(sha256);
        if size <= self.part_size {
            let digest = hex::decode(sha256).map_err(|e| StagingError::S3 {
                what: "decoding the digest".into(),
                source: Box::new(e),
            })?;
            let checksum = base64::engine::general_purpose::STANDARD.encode(digest);
            let header = HeaderName::from_static("x-amz-checksum-sha256");
            let value = HeaderValue::from_str(&checksum).expect("base64 is a header value");
            let url = self
                .store
                .signed_url_opts(
                    Method::PUT,
                    &key,
                    ttl,
                    &SignedUrlOptions::default().with_signed_header(header, value),
                )
                .await
                .map_err(s3_error("signing a PUT"))?;
            return Ok(Upload {
                sha256: sha256.to_owned(),
                size,
                method: "PUT".into(),
                url: Some(url.to_string()),
                headers: [("x-amz-checksum-sha256".to_owned(), checksum)].into(),
                expires_at,
                parts: None,
            });
        }
        let _guard = self.locks.lock(sha256).await;
        let existing = self.db.multipart(sha256, SHARED).await?;
        let mut received: Vec<u32> = Vec::new();
        let record = match existing {
            Some(record) if record.size == size => {
                match self.list_parts(sha256, &record.upload_id).await? {
                    Some(parts) => {
                        received = parts.into_iter().map(|(number, _)| number).collect();
                        Some(record)
                    }
                    None => {
                        // S3 forgot it (completed but not verified, or aborted).
                        self.db.delete_multiparts_of(sha256).await?;
                        None
                    }
                }
            }
            Some(stale) => {
                let _ = self.store.abort_multipart(&key, &stale.upload_id).await;
                self.db.delete_multiparts_of(sha256).await?;
                None
            }
            None => None,
        };
        let record = match record {
            Some(record) => record,
            None => {
                let upload_id = self
                    .store
                    .create_multipart(&key)
                    .await
                    .map_err(s3_error("CreateMultipartUpload"))?;
                self.db
                    .create_multipart(&MultipartRecord {
                        sha256: sha256.to_owned(),
                        owner: SHARED.to_owned(),
                        size,
                        part_size: part_size_for(size, self.part_size),
                        upload_id,
                    })
                    .await?
            }
        };
        let mut parts = Vec::new();
        for (number, offset, length) in layout(size, record.part_size) {
            if received.contains(&number) {
                continue;
            }
            let number_text = number.to_string();
            let url = self
                .store
                .signed_url_opts(
                    Method::PUT,
                    &key,
                    ttl,
                    &SignedUrlOptions::default().with_query([
                        ("partNumber", number_text.as_str()),
                        ("uploadId", record.upload_id.as_str()),
                    ]),
                )
                .await
                .map_err(s3_error("signing UploadPart"))?;
            parts.push(UploadPart {
                number,
                offset,
                size: length,
                url: url.to_string(),
            });
        }
        Ok(Upload::in_parts(sha256, size, expires_at, parts))
    }

    async fn complete(
        &self,
        sha256: &str,
        size: u64,
        _holder: &str,
    ) -> Result<Completion, StagingError> {
        let _guard = self.locks.lock(sha256).await;
        if self.db.verified_content(sha256).await? == Some(size) {
            return Ok(Completion::Staged);
        }
        let Some(record) = self.db.multipart(sha256, SHARED).await? else {
            return Ok(if self.is_staged(sha256, size).await? {
                Completion::Staged
            } else {
                Completion::NoUpload
            });
        };
        if record.size != size {
            return Ok(Completion::NoUpload);
        }
        let key = self.key(sha256);
        match self.list_parts(sha256, &record.upload_id).await? {
            Some(parts) => {
                let expected = layout(size, record.part_size);
                let missing: Vec<u32> = expected
                    .iter()
                    .map(|(number, _, _)| *number)
                    .filter(|number| !parts.iter().any(|(n, _)| n == number))
                    .collect();
                if !missing.is_empty() {
                    return Ok(Completion::PartsMissing(missing));
                }
                let ids: Vec<PartId> = expected
                    .iter()
                    .map(|(number, _, _)| PartId {
                        content_id: parts
                            .iter()
                            .find(|(n, _)| n == number)
                            .map(|(_, etag)| etag.clone())
                            .unwrap_or_default(),
                    })
                    .collect();
                self.store
                    .complete_multipart(&key, &record.upload_id, ids)
                    .await
                    .map_err(s3_error("CompleteMultipartUpload"))?;
            }
            None => {
                // Completed before a crash, or aborted: the object tells.
                if self.object_size(sha256).await?.is_none() {
                    self.db.delete_multiparts_of(sha256).await?;
                    return Ok(Completion::NoUpload);
                }
            }
        }
        self.verify_object(sha256, size).await?;
        tracing::debug!(sha256, size, "multipart content completed and verified");
        Ok(Completion::Staged)
    }

    fn object_location(&self, sha256: &str) -> Option<String> {
        Some(format!("s3://{}/{}", self.bucket, self.key(sha256)))
    }

    async fn local_file(&self, sha256: &str, size: u64) -> Result<LocalContent, StagingError> {
        if !self.is_staged(sha256, size).await? {
            return Err(StagingError::NotStaged {
                sha256: sha256.to_owned(),
            });
        }
        let path = self
            .cache
            .join(format!("{sha256}.{}", uuid::Uuid::new_v4().simple()));
        let content = LocalContent {
            path,
            temporary: true,
        };
        let (actual, actual_size) = match self.download(sha256, Some(&content.path)).await {
            Ok(downloaded) => downloaded,
            Err(StagingError::S3 { source, .. })
                if matches!(
                    source.downcast_ref::<object_store::Error>(),
                    Some(object_store::Error::NotFound { .. })
                ) =>
            {
                // Gone from the bucket (deleted by hand, or by the garbage collection in
                // the instant a push found it staged): not staged any more, so that the
                // next push uploads it again.
                self.db.forget_content(sha256).await?;
                return Err(StagingError::NotStaged {
                    sha256: sha256.to_owned(),
                });
            }
            Err(error) => return Err(error),
        };
        if actual != sha256 || actual_size != size {
            let _ = self.store.delete(&self.key(sha256)).await;
            self.db.forget_content(sha256).await?;
            return Err(StagingError::DigestMismatch {
                expected: sha256.to_owned(),
                actual,
            });
        }
        Ok(content)
    }

    async fn touch(&self, sha256s: &[String]) -> Result<(), StagingError> {
        Ok(self.db.touch_contents(sha256s).await?)
    }

    async fn sweep(
        &self,
        live: &BTreeSet<String>,
        contents_before: SystemTime,
        uploads_before: SystemTime,
    ) -> Result<Swept, StagingError> {
        let mut swept = Swept::default();
        // Multipart uploads: the recorded ones, then those S3 knows and no record names.
        for record in self.db.multiparts_before(&rfc3339(uploads_before)).await? {
            let _guard = self.locks.lock(&record.sha256).await;
            self.abort_upload(&record.sha256, &record.upload_id).await?;
            swept.uploads += 1;
        }
        match self.list_multipart_uploads().await {
            Ok(uploads) => {
                for (sha256, upload_id, initiated) in uploads {
                    if initiated >= uploads_before {
                        continue;
                    }
                    let _guard = self.locks.lock(&sha256).await;
                    if self
                        .db
                        .multipart(&sha256, SHARED)
                        .await?
                        .is_some_and(|r| r.upload_id == upload_id)
                    {
                        // Recorded and younger than the threshold by the record's clock.
                        continue;
                    }
                    self.abort_upload(&sha256, &upload_id).await?;
                    swept.uploads += 1;
                }
            }
            Err(error) => {
                tracing::warn!(error = %crate::jobs::error_chain(&error), "gc: cannot list the multipart uploads of the staging bucket; only recorded ones were aborted")
            }
        }
        // Contents.
        let before = rfc3339(contents_before);
        let prefix = ObjectPath::from(self.prefix.trim_end_matches('/'));
        let mut listing = self.store.list(Some(&prefix));
        let mut candidates = Vec::new();
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(s3_error("listing the staging bucket"))?;
            let Some(sha256) = meta.location.as_ref().strip_prefix(&self.prefix) else {
                continue;
            };
            if !is_sha256(sha256) || live.contains(sha256) {
                continue;
            }
            if SystemTime::from(meta.last_modified) < contents_before {
                candidates.push((sha256.to_owned(), meta.size));
            }
        }
        drop(listing);
        for (sha256, size) in candidates {
            let _guard = self.locks.lock(&sha256).await;
            if self.db.multipart(&sha256, SHARED).await?.is_some() {
                // Completed but not verified yet: the upload's own age decides.
                continue;
            }
            // A push that reused it since keeps it (its record was touched).
            if !self
                .db
                .forget_content_unused_since(&sha256, &before)
                .await?
            {
                continue;
            }
            match self.store.delete(&self.key(&sha256)).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                Err(error) => return Err(s3_error(format!("DELETE {sha256}"))(error)),
            }
            tracing::info!(sha256 = %sha256, bytes = size, "gc: staged content deleted");
            swept.contents += 1;
            swept.bytes += size;
        }
        Ok(swept)
    }
}

impl S3Staging {
    /// The multipart uploads in progress under the prefix, from S3 itself
    /// (ListMultipartUploads; `object_store` has no call for it, so a presigned GET):
    /// `(sha256, upload ID, initiated)`. Finds the uploads no record names (the server
    /// died between CreateMultipartUpload and recording it). One page (1000 uploads).
    async fn list_multipart_uploads(
        &self,
    ) -> Result<Vec<(String, String, SystemTime)>, StagingError> {
        let (status, text) = self
            .signed_get(
                "ListMultipartUploads",
                &ObjectPath::from(""),
                SignedUrlOptions::default()
                    .with_query([("uploads", ""), ("prefix", self.prefix.as_str())]),
            )
            .await?;
        if !status.is_success() {
            return Err(StagingError::S3 {
                what: format!("ListMultipartUploads answered HTTP {status}"),
                source: text.into(),
            });
        }
        let mut uploads = Vec::new();
        for upload in xml_elements(&text, "Upload") {
            let key = xml_elements(upload, "Key").first().map(|k| xml_unescape(k));
            let id = xml_elements(upload, "UploadId")
                .first()
                .map(|i| xml_unescape(i));
            let initiated = xml_elements(upload, "Initiated")
                .first()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t.trim()).ok())
                .map(SystemTime::from);
            if let (Some(key), Some(id), Some(initiated)) = (key, id, initiated)
                && let Some(sha256) = key.strip_prefix(&self.prefix)
                && is_sha256(sha256)
            {
                uploads.push((sha256.to_owned(), id, initiated));
            }
        }
        Ok(uploads)
    }

    /// A presigned GET of an S3 call `object_store` does not offer: status and body.
    async fn signed_get(
        &self,
        what: &str,
        path: &ObjectPath,
        options: SignedUrlOptions,
    ) -> Result<(reqwest::StatusCode, String), StagingError> {
        let url = self
            .store
            .signed_url_opts(Method::GET, path, Duration::from_secs(300), &options)
            .await
            .map_err(s3_error(format!("signing {what}")))?;
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| StagingError::S3 {
                what: what.to_owned(),
                source: Box::new(e),
            })?;
        let status = response.status();
        Ok((status, response.text().await.unwrap_or_default()))
    }

    /// Aborts a multipart upload (S3 forgets its parts) and its record.
    async fn abort_upload(&self, sha256: &str, upload_id: &str) -> Result<(), StagingError> {
        match self
            .store
            .abort_multipart(&self.key(sha256), &upload_id.to_owned())
            .await
        {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(error) => return Err(s3_error(format!("AbortMultipartUpload {sha256}"))(error)),
        }
        self.db.delete_multipart_upload(sha256, upload_id).await?;
        tracing::info!(sha256, upload = upload_id, "gc: multipart upload aborted");
        Ok(())
    }
}

/// The texts of every `<tag>…</tag>` (no attributes, no nesting of the same tag).
fn xml_elements<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut found = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find(&open) {
        let after = &rest[start + open.len()..];
        let Some(end) = after.find(&close) else { break };
        found.push(&after[..end]);
        rest = &after[end + close.len()..];
    }
    found
}

fn xml_unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_parts_answers_are_read() {
        let xml = r#"<?xml version="1.0"?><ListPartsResult><Bucket>b</Bucket>
            <Part><PartNumber>2</PartNumber><ETag>&quot;bb&quot;</ETag><Size>5</Size></Part>
            <Part><PartNumber>1</PartNumber><ETag>"aa"</ETag><Size>5</Size></Part>
            </ListPartsResult>"#;
        let parts: Vec<(u32, String)> = xml_elements(xml, "Part")
            .into_iter()
            .map(|p| {
                (
                    xml_elements(p, "PartNumber")[0].parse().unwrap(),
                    xml_unescape(xml_elements(p, "ETag")[0]),
                )
            })
            .collect();
        assert_eq!(parts, vec![(2, "\"bb\"".into()), (1, "\"aa\"".into())]);
    }
}
