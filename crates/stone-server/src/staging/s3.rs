//! The S3 staging store: contents in an S3-compatible bucket, uploaded by the client
//! directly to S3 through presigned URLs.
//!
//! - Uploads go to keys of the caller's own (`holder`: [`super::holder_key`], the hashed
//!   subject), so that what one caller uploads never counts as another's upload: the
//!   bucket does not tell who sent a body, the key does. A single upload is a presigned
//!   `PUT` of `<prefix>direct/<holder>/<sha256>`; a multipart upload (created by the
//!   server, one per content and caller) goes to `<prefix>callers/<holder>/<sha256>`.
//!   Every URL is the same whether or not someone else has staged the content: no
//!   answer, and no answer of the store, tells (a PUT of a content key with
//!   `If-None-Match: *` would: SeaweedFS answers `412` to any body once the key exists).
//! - A single upload's URL binds `x-amz-checksum-sha256` (the base64 of the digest): S3
//!   stores the body only if it has that digest (else `400 BadDigest`). The server trusts
//!   that check, without reading the bytes, only where the store proves it: once per
//!   process it sends a body that does not match a signed checksum and must see it
//!   refused ([`S3Staging::enforces_checksums`]), and the caller's object must report
//!   (HEAD with `x-amz-checksum-mode: ENABLED`) the full-object SHA-256 it was asked for
//!   and the right size. Otherwise (a store that ignores the header or does not keep
//!   checksums) the object is read back and hashed.
//! - Multipart uploads get presigned `UploadPart` URLs. Parts cannot be bound to digests
//!   the server does not know, so after `CompleteMultipartUpload` the server reads the
//!   object back and hashes it; a mismatch deletes it. While the upload is recorded in
//!   the state database, the object is not trusted.
//! - Completion (a multipart `complete`, or a commit finding the caller's single upload)
//!   verifies the caller's object and makes it the content unless the content is staged
//!   already: a single upload the store vouched for **stays where it is** (issue 24: no
//!   copy; nothing can change it into other bytes, since the only URLs that write a
//!   direct key bind its digest, and no URL names a direct key once it is a content);
//!   any other (a multipart upload, an unproven one) is copied server-side to the
//!   content's own key `<prefix><sha256>` (CopyObject: nothing is downloaded). The state
//!   database records where each content lives (`staged_contents.owner`). A caller's
//!   object that is not the content is then deleted, and only then is the caller
//!   recorded as a holder of the content.
//! - The sweep against completions and reuses on any replica (issue 24): a content
//!   recorded as staged has its object. The sweep deletes an object only after
//!   [`StateDb::start_deletion`] (one transaction under the key's cross-replica lock) found
//!   no record keeping it and left a deletion mark, and finishes the mark after the
//!   `DELETE`; a completion reads the mark before it checks or writes the object and
//!   records the content only if the mark is unchanged and finished
//!   ([`StateDb::record_content_at`]), else waits and looks again; a reuse is a conditional
//!   touch, which never revives a record the sweep forgot.
//! - Straight into an engine (issue 24): where the blob store is this bucket, a single
//!   upload of a content one object-storage dataset of the push names is presigned for
//!   that dataset's object ([`StagingStore::upload_to`], the same checksum binding, never a
//!   key of staging's own), and the commit finds it there ([`StagingStore::holds_at`]):
//!   nothing is staged, copied or downloaded (`routes::push_uploads::direct_targets`).
//! - Engines get a local copy ([`StagingStore::local_file`]): downloaded in ranges at
//!   once, and hashed again while it is downloaded unless the content's object reports
//!   the expected SHA-256 on a store that enforces checksums (a server-side copy keeps
//!   the checksum).

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
use crate::state::{Keeps, MultipartRecord, StateDb};

mod calls;
mod verify;

/// Where the callers' multipart uploads go (and their single uploads went before issue
/// 24), under the prefix: `callers/<holder>/<sha256>`.
const CALLERS: &str = "callers/";

/// Where the callers' single uploads go, under the prefix: `direct/<holder>/<sha256>`. A
/// verified one the store vouches for stays there as the content (see the module
/// documentation).
const DIRECT: &str = "direct/";

/// What a key under the prefix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// `<sha256>`: a content, written by the server.
    Content,
    /// `callers/<holder>/<sha256>`: a caller's multipart upload (or an older single one).
    Caller,
    /// `direct/<holder>/<sha256>`: a caller's single upload, or a content kept in place.
    Direct,
}

/// The size of the ranges a content is downloaded in when it needs no hashing.
const DOWNLOAD_RANGE: u64 = 32 << 20;

/// How many ranges of a content are downloaded at once.
const RANGES_AT_ONCE: usize = 4;

/// How long a completion waits for a sweep's deletion of the place its content goes
/// (normally one S3 `DELETE`), and how often it looks.
const DELETION_WAIT: Duration = Duration::from_secs(30);
const DELETION_POLL: Duration = Duration::from_millis(50);

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
    /// Whether the store refuses a body that does not match a signed
    /// `x-amz-checksum-sha256` (probed once: [`S3Staging::enforces_checksums`]).
    checksums_enforced: tokio::sync::OnceCell<bool>,
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
            checksums_enforced: tokio::sync::OnceCell::new(),
        })
    }

    /// A single upload of a content to `key`: one presigned `PUT` that binds the content's
    /// SHA-256 (`x-amz-checksum-sha256`), so that the store refuses any other body.
    async fn single_put(
        &self,
        key: &ObjectPath,
        sha256: &str,
        size: u64,
        ttl: Duration,
    ) -> Result<Upload, StagingError> {
        let (expires_at, _) = expiry(ttl);
        let checksum = checksum_of(sha256)?;
        let header = HeaderName::from_static("x-amz-checksum-sha256");
        let value = HeaderValue::from_str(&checksum).expect("base64 is a header value");
        let url = self
            .store
            .signed_url_opts(
                Method::PUT,
                key,
                ttl,
                &SignedUrlOptions::default().with_signed_header(header, value),
            )
            .await
            .map_err(s3_error("signing a PUT"))?;
        Ok(Upload {
            sha256: sha256.to_owned(),
            size,
            method: "PUT".into(),
            url: Some(url.to_string()),
            headers: [("x-amz-checksum-sha256".to_owned(), checksum)].into(),
            expires_at,
            parts: None,
        })
    }

    /// The key of a verified content.
    fn key(&self, sha256: &str) -> ObjectPath {
        ObjectPath::from(format!("{}{sha256}", self.prefix))
    }

    /// The key of `holder`'s own upload of a content.
    fn upload_key(&self, sha256: &str, holder: &str) -> ObjectPath {
        ObjectPath::from(format!("{}{CALLERS}{holder}/{sha256}", self.prefix))
    }

    /// The key of `holder`'s single upload of a content (and of the content, once it is
    /// kept there).
    fn direct_key(&self, sha256: &str, holder: &str) -> ObjectPath {
        ObjectPath::from(format!("{}{DIRECT}{holder}/{sha256}", self.prefix))
    }

    /// Where a verified content lives, by the owner its record names: `''` its own key,
    /// otherwise that caller's direct upload.
    fn location(&self, sha256: &str, owner: &str) -> ObjectPath {
        if owner.is_empty() {
            self.key(sha256)
        } else {
            self.direct_key(sha256, owner)
        }
    }

    /// Where the verified content is now (its record's location; its own key when there
    /// is no record).
    async fn content_location(&self, sha256: &str) -> Result<ObjectPath, StagingError> {
        Ok(match self.db.verified_content_at(sha256).await? {
            Some((_, owner)) => self.location(sha256, &owner),
            None => self.key(sha256),
        })
    }

    /// Forgets the content if its record still names `key` (found missing or corrupt
    /// there); a record made meanwhile at another place stays.
    async fn forget_missing(&self, sha256: &str, key: &ObjectPath) -> Result<(), StagingError> {
        if let Some((_, owner)) = self.db.verified_content_at(sha256).await?
            && self.location(sha256, &owner) == *key
        {
            self.db.forget_content_at(sha256, &owner).await?;
        }
        Ok(())
    }

    /// What a key under the prefix holds: `(place, holder, sha256)`, the holder empty for
    /// [`Place::Content`]; `None` for anything else.
    fn parse_key<'a>(&self, key: &'a str) -> Option<(Place, &'a str, &'a str)> {
        let name = key.strip_prefix(&self.prefix)?;
        if is_sha256(name) {
            return Some((Place::Content, "", name));
        }
        let (place, rest) = match name.strip_prefix(CALLERS) {
            Some(rest) => (Place::Caller, rest),
            None => (Place::Direct, name.strip_prefix(DIRECT)?),
        };
        let (holder, sha256) = rest.split_once('/')?;
        (is_sha256(holder) && is_sha256(sha256)).then_some((place, holder, sha256))
    }

    /// The key of an upload of `owner` (empty: an upload to the content's key, as this
    /// store made them before uploads were per caller).
    fn owned_key(&self, sha256: &str, owner: &str) -> ObjectPath {
        if owner.is_empty() {
            self.key(sha256)
        } else {
            self.upload_key(sha256, owner)
        }
    }

    /// The object's size, `None` when it does not exist.
    async fn object_size(&self, key: &ObjectPath) -> Result<Option<u64>, StagingError> {
        match self.store.head(key).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(s3_error(format!("HEAD {key}"))(error)),
        }
    }

    /// Deletes an object; one already gone is fine.
    async fn delete_object(&self, key: &ObjectPath) -> Result<(), StagingError> {
        match self.store.delete(key).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(s3_error(format!("DELETE {key}"))(error)),
        }
    }

    /// Hashes the object while copying it to a local file (or to nothing).
    async fn download(
        &self,
        key: &ObjectPath,
        to: Option<&std::path::Path>,
    ) -> Result<(String, u64), StagingError> {
        let result = self
            .store
            .get(key)
            .await
            .map_err(s3_error(format!("GET {key}")))?;
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
            let chunk = chunk.map_err(s3_error(format!("reading {key}")))?;
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

    /// Makes `holder`'s verified upload (at `from`) the content, unless the content is
    /// there already: kept where it is (`in_place`: a single upload at `holder`'s direct
    /// key that the store vouched for, which no URL can change into other bytes) or
    /// copied server-side to the content's key. Then the content is recorded as verified
    /// (and used now), `holder` recorded as holding it (after: a holder always has the
    /// content staged), and only then the caller's object deleted, unless it is the
    /// content (before: a process dying in between would leave the caller neither its
    /// upload nor the holding, and its retried commit incomplete). False when the upload
    /// is gone (a sweep deleted it): nothing is recorded, the caller uploads again.
    ///
    /// Against a sweep on any replica (issue 24): a content staged already is kept only
    /// through its record (a conditional touch: a record the sweep forgot is not revived);
    /// this upload is recorded only if no deletion of its location began since the
    /// location's deletion mark was read, before the object was checked or written
    /// ([`StateDb::record_content_at`]); a deletion under way is waited for.
    async fn promote(
        &self,
        sha256: &str,
        size: u64,
        holder: &str,
        from: &ObjectPath,
        in_place: bool,
    ) -> Result<bool, StagingError> {
        // The content's lock: this process's sweep deletes contents under it.
        let _content = self.locks.lock(sha256).await;
        let started = std::time::Instant::now();
        loop {
            if let Some((recorded, owner)) = self.db.verified_content_at(sha256).await?
                && recorded == size
                && self.db.touch_content_at(sha256, size, &owner).await?
            {
                // Touched: no sweep deletes it now for `staged_content_seconds`.
                let location = self.location(sha256, &owner);
                if self.object_size(&location).await? == Some(size) {
                    self.db.record_holder(sha256, holder).await?;
                    self.drop_caller_object(from, &location).await;
                    return Ok(true);
                }
                // Deleted behind the state's back: forgotten; this upload becomes it.
                self.db.forget_content_at(sha256, &owner).await?;
            }
            let (target, owner) = if in_place {
                (from.clone(), holder)
            } else {
                (self.key(sha256), "")
            };
            let seen = self.db.deletion_mark(target.as_ref()).await?;
            if seen.as_ref().is_none_or(|mark| !mark.under_way) {
                if in_place {
                    if self.object_size(from).await? != Some(size) {
                        return Ok(false);
                    }
                    tracing::debug!(
                        sha256,
                        size,
                        "caller's upload kept in place as the content (no copy)"
                    );
                } else {
                    let copied = std::time::Instant::now();
                    match self.store.copy(from, &target).await {
                        Ok(()) => {}
                        Err(object_store::Error::NotFound { .. }) => return Ok(false),
                        Err(error) => {
                            return Err(s3_error(format!("copying {from} to {target}"))(error));
                        }
                    }
                    tracing::debug!(
                        sha256,
                        size,
                        elapsed_us = copied.elapsed().as_micros() as u64,
                        "caller's upload copied server-side to the content's key"
                    );
                }
                // Also marks it used now: the garbage collection keeps it for this push.
                if self
                    .db
                    .record_content_at(sha256, size, owner, target.as_ref(), seen.as_ref())
                    .await?
                {
                    self.db.record_holder(sha256, holder).await?;
                    self.drop_caller_object(from, &target).await;
                    return Ok(true);
                }
            }
            // A sweep is deleting the location, or began since the mark was read: once it
            // is done, look again (the object is gone, or the copy is made again).
            if started.elapsed() > DELETION_WAIT {
                return Err(StagingError::S3 {
                    what: format!("recording {sha256}"),
                    source: format!(
                        "a deletion of {target} has been under way for more than {} s; try again later",
                        DELETION_WAIT.as_secs()
                    )
                    .into(),
                });
            }
            tokio::time::sleep(DELETION_POLL).await;
        }
    }

    /// Deletes a caller's verified upload once the content is recorded elsewhere: a
    /// direct upload only if no completion (of the same caller, on another replica) made
    /// it the content meanwhile.
    async fn drop_caller_object(&self, from: &ObjectPath, content: &ObjectPath) {
        if from == content {
            return;
        }
        let deleted = match self.parse_key(from.as_ref()) {
            Some((Place::Direct, holder, sha256)) => {
                let keeps = Keeps::Content {
                    sha256,
                    owner: holder,
                    unused_before: None,
                };
                self.delete_guarded(sha256, from, keeps, false)
                    .await
                    .map(|_| ())
            }
            _ => self.delete_object(from).await,
        };
        if let Err(error) = deleted {
            // The garbage collection deletes it later.
            tracing::warn!(error = %crate::report::error_chain(&error), "a caller's upload was not deleted after it was verified");
        }
    }

    /// Deletes the object at `key` unless `keeps` keeps it, in the order every replica
    /// agrees on ([`StateDb::start_deletion`]): the deletion recorded (a completion then
    /// records nothing there), the object deleted, the deletion finished. `None` when it
    /// is kept; otherwise whether a recorded content was forgotten with it.
    /// `sweep`: the sweep's deletion (the test hook `delete-<sha256>` may pause it).
    async fn delete_guarded(
        &self,
        sha256: &str,
        key: &ObjectPath,
        keeps: Keeps<'_>,
        sweep: bool,
    ) -> Result<Option<bool>, StagingError> {
        let Some((deletion, forgotten)) = self.db.start_deletion(key.as_ref(), keeps).await? else {
            return Ok(None);
        };
        if sweep {
            super::test_pause(&format!("delete-{sha256}")).await;
        }
        let deleted = self.delete_object(key).await;
        self.db.finish_deletion(key.as_ref(), &deletion).await?;
        deleted?;
        Ok(Some(forgotten))
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
        let key = self.key(sha256);
        // Read before the object is: a sweep deleting it meanwhile stops the record.
        let seen = self.db.deletion_mark(key.as_ref()).await?;
        if seen.as_ref().is_some_and(|mark| mark.under_way) {
            return Ok(false);
        }
        match self.object_size(&key).await? {
            Some(found) if found == size => {
                // Only the server writes this key, with a verified upload (its record was
                // lost: a crash between the copy and the record).
                Ok(self
                    .db
                    .record_content_at(sha256, size, "", key.as_ref(), seen.as_ref())
                    .await?)
            }
            Some(found) => {
                tracing::warn!(
                    sha256,
                    found,
                    size,
                    "staged object has the wrong size; deleting it"
                );
                let keeps = Keeps::Content {
                    sha256,
                    owner: "",
                    unused_before: None,
                };
                if let Err(error) = self.delete_guarded(sha256, &key, keeps, false).await {
                    tracing::warn!(error = %crate::report::error_chain(&error), "cannot delete a staged object of the wrong size");
                }
                Ok(false)
            }
            None => Ok(false),
        }
    }

    fn single_uploads_need_completion(&self) -> bool {
        true
    }

    async fn upload(
        &self,
        sha256: &str,
        size: u64,
        ttl: Duration,
        holder: &str,
    ) -> Result<Upload, StagingError> {
        // The caller's own key: nothing is recorded until its upload is verified.
        let (expires_at, _) = expiry(ttl);
        let key = self.upload_key(sha256, holder);
        if size <= self.part_size {
            // The caller's direct key, unless that key is already the content (the caller
            // announced it with another size): no URL names a content's key once it is one.
            let in_place = self
                .db
                .verified_content_at(sha256)
                .await?
                .is_some_and(|(_, owner)| owner == holder);
            let key = if in_place {
                key
            } else {
                self.direct_key(sha256, holder)
            };
            return self.single_put(&key, sha256, size, ttl).await;
        }
        let _guard = self.locks.lock(&format!("{sha256}.{holder}")).await;
        let existing = self.db.multipart(sha256, holder).await?;
        let mut received: Vec<u32> = Vec::new();
        let record = match existing {
            Some(record) if record.size == size => {
                match self.list_parts(&key, &record.upload_id).await? {
                    Some(parts) => {
                        received = parts.into_iter().map(|(number, _)| number).collect();
                        Some(record)
                    }
                    None => {
                        // S3 forgot it (completed but not verified, or aborted).
                        self.drop_upload(&key, &record.upload_id).await?;
                        None
                    }
                }
            }
            Some(stale) => {
                // Announced before with another size by the same caller: that upload can
                // never verify.
                self.drop_upload(&key, &stale.upload_id).await?;
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
                        owner: holder.to_owned(),
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
        holder: &str,
    ) -> Result<Completion, StagingError> {
        let _guard = self.locks.lock(&format!("{sha256}.{holder}")).await;
        let key = self.upload_key(sha256, holder);
        match self.db.multipart(sha256, holder).await? {
            Some(record) if record.size == size => {
                match self.list_parts(&key, &record.upload_id).await? {
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
                        if self.object_size(&key).await?.is_none() {
                            self.db.delete_multipart(&record.upload_id).await?;
                            return Ok(Completion::NoUpload);
                        }
                    }
                }
                // Parts are not bound to the digest: the whole is read back. While the
                // upload is recorded, its object is never taken for a single upload (which
                // S3 verified); the record goes only once the object is the content, or
                // deleted (a mismatch: the next manifest post starts a fresh upload).
                match self.verify_upload(&key, sha256, size).await {
                    Ok(()) => {}
                    Err(
                        error @ (StagingError::DigestMismatch { .. }
                        | StagingError::SizeMismatch { .. }),
                    ) => {
                        self.db.delete_multipart(&record.upload_id).await?;
                        return Err(error);
                    }
                    Err(error) => return Err(error),
                }
                let staged = self.promote(sha256, size, holder, &key, false).await?;
                self.db.delete_multipart(&record.upload_id).await?;
                if !staged {
                    return Ok(Completion::NoUpload);
                }
                tracing::debug!(
                    sha256,
                    size,
                    "caller's multipart upload verified and staged"
                );
                return Ok(Completion::Staged);
            }
            // Announced with another size: that upload can never verify.
            Some(_) => return Ok(Completion::NoUpload),
            None => {}
        }
        // A single upload: at the caller's direct key, or at its own key (an upload to a
        // URL handed out before issue 24, or for a content already at the direct key).
        let direct = self.direct_key(sha256, holder);
        let (key, found) = match self.stored_checksum(&direct).await? {
            Some(found) => (direct, Some(found)),
            None => {
                let found = self.stored_checksum(&key).await?;
                (key, found)
            }
        };
        let in_place = match found {
            // S3 took the body only with the signed digest, if it enforces checksums; the
            // object says which digest it was given.
            Some((found, stored)) if found == size => {
                let enforced = self.enforces_checksums().await;
                if Self::vouched(enforced, stored.as_deref(), &checksum_of(sha256)?) {
                    tracing::debug!(
                        sha256,
                        size,
                        "caller's upload verified by the store's checksum"
                    );
                    // Only a single PUT bound to the digest ever writes a direct key.
                    self.parse_key(key.as_ref())
                        .is_some_and(|(place, _, _)| place == Place::Direct)
                } else {
                    // Unproven: read back (a mismatch deletes it), then copied.
                    tracing::debug!(
                        sha256,
                        size,
                        enforced,
                        has_checksum = stored.is_some(),
                        "caller's upload read back: the store does not vouch for its digest"
                    );
                    self.verify_upload(&key, sha256, size).await?;
                    false
                }
            }
            Some((found, _)) => {
                // Announced with another size than the bytes have. A content kept at
                // this key stays (it is the right size for its digest).
                let _content = self.locks.lock(sha256).await;
                let keeps = match self.parse_key(key.as_ref()) {
                    Some((Place::Direct, _, _)) => Keeps::Content {
                        sha256,
                        owner: holder,
                        unused_before: None,
                    },
                    _ => Keeps::Multipart {
                        sha256,
                        owner: holder,
                    },
                };
                if self
                    .delete_guarded(sha256, &key, keeps, false)
                    .await?
                    .is_some()
                {
                    tracing::warn!(
                        sha256,
                        found,
                        size,
                        "a caller's upload has the wrong size; deleted"
                    );
                }
                return Ok(Completion::NoUpload);
            }
            None => return Ok(Completion::NoUpload),
        };
        if !self.promote(sha256, size, holder, &key, in_place).await? {
            tracing::info!(
                sha256,
                size,
                "caller's upload deleted by a sweep before it was recorded; to upload again"
            );
            return Ok(Completion::NoUpload);
        }
        tracing::debug!(sha256, size, "caller's upload verified and staged");
        Ok(Completion::Staged)
    }

    async fn object_location(&self, sha256: &str) -> Option<String> {
        match self.content_location(sha256).await {
            Ok(key) => Some(format!("s3://{}/{key}", self.bucket)),
            Err(error) => {
                tracing::warn!(sha256, error = %crate::report::error_chain(&error), "cannot read where a staged content lives; the engine uploads it from a local copy");
                None
            }
        }
    }

    async fn copy_source(&self, sha256: &str, size: u64) -> Result<Option<String>, StagingError> {
        let gone = || StagingError::NotStaged {
            sha256: sha256.to_owned(),
        };
        if !self.is_staged(sha256, size).await? {
            return Err(gone());
        }
        let key = self.content_location(sha256).await?;
        match self.stored_checksum(&key).await? {
            None => {
                // Gone from the bucket: not staged any more (see `local_file`).
                self.forget_missing(sha256, &key).await?;
                Err(gone())
            }
            Some((found, stored)) if found == size => {
                let enforced = self.enforces_checksums().await;
                Ok(
                    Self::vouched(enforced, stored.as_deref(), &checksum_of(sha256)?)
                        .then(|| key.to_string()),
                )
            }
            Some(_) => Ok(None),
        }
    }

    async fn upload_to(
        &self,
        key: &str,
        sha256: &str,
        size: u64,
        ttl: Duration,
    ) -> Result<Option<Upload>, StagingError> {
        let key = ObjectPath::from(key);
        // Never a key of staging's own (the sweep decides those), nor a key under its
        // prefix that a later shape of staging might claim.
        if size > self.part_size
            || self.parse_key(key.as_ref()).is_some()
            || (!self.prefix.is_empty() && key.as_ref().starts_with(&self.prefix))
            || !self.enforces_checksums().await
        {
            return Ok(None);
        }
        self.single_put(&key, sha256, size, ttl).await.map(Some)
    }

    async fn holds_at(
        &self,
        key: &str,
        sha256: &str,
        size: u64,
    ) -> Result<Option<chrono::DateTime<chrono::Utc>>, StagingError> {
        let key = ObjectPath::from(key);
        Ok(match self.stored_object(&key).await? {
            Some((found, stored, modified))
                if found == size
                    && Self::vouched(
                        self.enforces_checksums().await,
                        stored.as_deref(),
                        &checksum_of(sha256)?,
                    ) =>
            {
                Some(modified.unwrap_or(chrono::DateTime::<chrono::Utc>::MIN_UTC))
            }
            _ => None,
        })
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
        let key = self.content_location(sha256).await?;
        let gone = |sha256: &str| StagingError::NotStaged {
            sha256: sha256.to_owned(),
        };
        match self.stored_checksum(&key).await? {
            None => {
                // Gone from the bucket (deleted by hand, or by the garbage collection in
                // the instant a push found it staged): not staged any more, so that the
                // next push uploads it again.
                self.forget_missing(sha256, &key).await?;
                return Err(gone(sha256));
            }
            Some((found, stored)) if found == size => {
                let enforced = self.enforces_checksums().await;
                if Self::vouched(enforced, stored.as_deref(), &checksum_of(sha256)?) {
                    // The store vouches for the digest: copied without hashing, in ranges.
                    let started = std::time::Instant::now();
                    match self.download_ranges(&key, size, &content.path).await {
                        Ok(()) => {}
                        Err(StagingError::S3 { source, .. })
                            if matches!(
                                source.downcast_ref::<object_store::Error>(),
                                Some(object_store::Error::NotFound { .. })
                            ) =>
                        {
                            self.forget_missing(sha256, &key).await?;
                            return Err(gone(sha256));
                        }
                        Err(error) => return Err(error),
                    }
                    tracing::debug!(
                        sha256,
                        size,
                        elapsed_us = started.elapsed().as_micros() as u64,
                        "staged content downloaded (digest vouched for by the store)"
                    );
                    return Ok(content);
                }
            }
            // The wrong size: the read below says so and forgets it.
            Some(_) => {}
        }
        let (actual, actual_size) = match self.download(&key, Some(&content.path)).await {
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
                self.forget_missing(sha256, &key).await?;
                return Err(StagingError::NotStaged {
                    sha256: sha256.to_owned(),
                });
            }
            Err(error) => return Err(error),
        };
        if actual != sha256 || actual_size != size {
            let _ = self.store.delete(&key).await;
            self.forget_missing(sha256, &key).await?;
            return Err(StagingError::DigestMismatch {
                expected: sha256.to_owned(),
                actual,
            });
        }
        Ok(content)
    }

    async fn touch(&self, sha256s: &[String]) -> Result<Vec<String>, StagingError> {
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
            let _guard = self
                .locks
                .lock(&format!("{}.{}", record.sha256, record.owner))
                .await;
            self.abort_upload(&record.sha256, &record.owner, &record.upload_id)
                .await?;
            swept.uploads += 1;
        }
        match self.list_multipart_uploads().await {
            Ok(uploads) => {
                for (owner, sha256, upload_id, initiated) in uploads {
                    if initiated >= uploads_before {
                        continue;
                    }
                    let _guard = self.locks.lock(&format!("{sha256}.{owner}")).await;
                    if self
                        .db
                        .multipart(&sha256, &owner)
                        .await?
                        .is_some_and(|r| r.upload_id == upload_id)
                    {
                        // Recorded and younger than the threshold by the record's clock.
                        continue;
                    }
                    self.abort_upload(&sha256, &owner, &upload_id).await?;
                    swept.uploads += 1;
                }
            }
            Err(error) => {
                tracing::warn!(error = %crate::report::error_chain(&error), "gc: cannot list the multipart uploads of the staging bucket; only recorded ones were aborted")
            }
        }
        // Contents, and callers' uploads never completed (a completed one is deleted when
        // it becomes the content).
        let before = rfc3339(contents_before);
        let prefix = ObjectPath::from(self.prefix.trim_end_matches('/'));
        let mut listing = self.store.list(Some(&prefix));
        let mut candidates = Vec::new();
        while let Some(meta) = listing.next().await {
            let meta = meta.map_err(s3_error("listing the staging bucket"))?;
            let Some((place, owner, sha256)) = self.parse_key(meta.location.as_ref()) else {
                continue;
            };
            if live.contains(sha256) {
                continue;
            }
            if SystemTime::from(meta.last_modified) < contents_before {
                candidates.push((place, owner.to_owned(), sha256.to_owned(), meta.size));
            }
        }
        drop(listing);
        // Each deletion is agreed on with the completions of every replica through the
        // state ([`Self::delete_guarded`]); this process's own completions and sweeps also
        // wait for each other (the caller's lock, then the content's).
        for (place, owner, sha256, size) in candidates {
            let _guard = match place {
                Place::Content => None,
                Place::Caller | Place::Direct => {
                    Some(self.locks.lock(&format!("{sha256}.{owner}")).await)
                }
            };
            let _content = match place {
                Place::Caller => None,
                Place::Content | Place::Direct => Some(self.locks.lock(&sha256).await),
            };
            let (key, keeps) = match place {
                // A caller's single upload, or a content kept there.
                Place::Direct => (
                    self.direct_key(&sha256, &owner),
                    Keeps::Content {
                        sha256: &sha256,
                        owner: &owner,
                        unused_before: Some(&before),
                    },
                ),
                // Completed but not verified yet: the upload's own age decides.
                Place::Caller => (
                    self.upload_key(&sha256, &owner),
                    Keeps::Multipart {
                        sha256: &sha256,
                        owner: &owner,
                    },
                ),
                // The content, or a leftover copy when it lives at a caller's direct key.
                Place::Content => (
                    self.key(&sha256),
                    Keeps::Content {
                        sha256: &sha256,
                        owner: "",
                        unused_before: Some(&before),
                    },
                ),
            };
            super::test_pause_with(&format!("decide-{sha256}"), &before).await;
            // A push that reused it since keeps it (its record was touched).
            let Some(forgotten) = self.delete_guarded(&sha256, &key, keeps, true).await? else {
                continue;
            };
            if forgotten {
                tracing::info!(sha256 = %sha256, bytes = size, "gc: staged content deleted");
            } else if place == Place::Content {
                tracing::info!(sha256 = %sha256, bytes = size, "gc: a staged object no record names deleted");
            } else {
                tracing::info!(sha256 = %sha256, bytes = size, "gc: a caller's upload never committed deleted");
            }
            swept.contents += 1;
            swept.bytes += size;
        }
        if let Err(error) = self
            .db
            .prune_deletions(&crate::state::ago(crate::state::DELETIONS_KEPT))
            .await
        {
            tracing::warn!(error = %crate::report::error_chain(&error), "gc: cannot forget old deletions");
        }
        Ok(swept)
    }
}

impl S3Staging {
    /// Ends a caller's multipart upload at `key` without a content: aborted (S3 forgets
    /// its parts), the object it may have completed into deleted (never verified), then
    /// its record dropped.
    async fn drop_upload(&self, key: &ObjectPath, upload_id: &str) -> Result<(), StagingError> {
        match self.store.abort_multipart(key, &upload_id.to_owned()).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(error) => return Err(s3_error(format!("AbortMultipartUpload {key}"))(error)),
        }
        self.delete_object(key).await?;
        self.db.delete_multipart(upload_id).await?;
        Ok(())
    }

    /// Aborts a multipart upload (S3 forgets its parts) and its record.
    async fn abort_upload(
        &self,
        sha256: &str,
        owner: &str,
        upload_id: &str,
    ) -> Result<(), StagingError> {
        match self
            .store
            .abort_multipart(&self.owned_key(sha256, owner), &upload_id.to_owned())
            .await
        {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(error) => return Err(s3_error(format!("AbortMultipartUpload {sha256}"))(error)),
        }
        if !owner.is_empty() {
            // A caller's key: what the upload may have completed into was never verified.
            self.delete_object(&self.upload_key(sha256, owner)).await?;
        }
        self.db.delete_multipart_upload(sha256, upload_id).await?;
        tracing::info!(sha256, upload = upload_id, "gc: multipart upload aborted");
        Ok(())
    }
}

/// The `x-amz-checksum-sha256` value (base64 of the digest) of a hex SHA-256.
fn checksum_of(sha256: &str) -> Result<String, StagingError> {
    let digest = hex::decode(sha256).map_err(|e| StagingError::S3 {
        what: "decoding the digest".into(),
        source: Box::new(e),
    })?;
    Ok(base64::engine::general_purpose::STANDARD.encode(digest))
}
