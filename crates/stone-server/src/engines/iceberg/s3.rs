//! The warehouse on S3-compatible storage: an iceberg-rust [`Storage`] over the
//! `object_store` crate's S3 client (already in the tree for staging and the blob engine;
//! `iceberg-storage-opendal` with `opendal-s3` would add some thirty crates).
//!
//! Locations are `s3://<bucket>/<key>`; the storage serves one bucket and refuses others.
//! Ranged reads are GETs with a `Range`, writes of whole files PUTs, streamed writes
//! multipart uploads once they pass 10 MiB (`object_store`'s `BufWriter`). A PUT is
//! atomic: a reader never sees half an object.
//!
//! iceberg-rust requires storages to be serializable (`typetag`): this one serializes as
//! its [`S3Settings`], without the secret key, so a serialized `FileIO` never carries it.

use std::ops::Range;
use std::sync::Arc;

use ::iceberg::io::{
    FileMetadata, FileRead, FileWrite, InputFile, OutputFile, Storage, StorageConfig,
    StorageFactory,
};
use ::iceberg::{Error, ErrorKind, Result};
use async_trait::async_trait;
use bytes::Bytes;
use futures::stream::{BoxStream, StreamExt, TryStreamExt};
use object_store::buffered::BufWriter;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use crate::engines::blob::S3Settings;

/// Builds [`S3Storage`] for the warehouse's bucket (`prefix` of the settings is unused:
/// the locations carry the whole key).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct S3StorageFactory {
    settings: S3Settings,
}

impl S3StorageFactory {
    /// A factory for the bucket of `settings`.
    pub fn new(settings: S3Settings) -> Self {
        Self { settings }
    }
}

#[typetag::serde]
impl StorageFactory for S3StorageFactory {
    fn build(&self, _config: &StorageConfig) -> Result<Arc<dyn Storage>> {
        Ok(Arc::new(S3Storage::try_from(self.settings.clone())?))
    }
}

/// One bucket of an S3-compatible server.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "S3Settings", into = "S3Settings")]
pub struct S3Storage {
    settings: S3Settings,
    store: Arc<dyn ObjectStore>,
}

impl std::fmt::Debug for S3Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Storage")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl TryFrom<S3Settings> for S3Storage {
    type Error = Error;

    fn try_from(settings: S3Settings) -> Result<Self> {
        let store = settings.store().map_err(|error| {
            Error::new(
                ErrorKind::DataInvalid,
                format!("invalid S3 settings for bucket {:?}", settings.bucket),
            )
            .with_source(error)
        })?;
        Ok(Self {
            settings,
            store: Arc::new(store),
        })
    }
}

impl From<S3Storage> for S3Settings {
    fn from(storage: S3Storage) -> Self {
        storage.settings
    }
}

impl S3Storage {
    /// Where the bucket is and how to reach it.
    pub(crate) fn settings(&self) -> &S3Settings {
        &self.settings
    }

    /// The object key of `location` (`s3://<bucket>/<key>`).
    pub(crate) fn key(&self, location: &str) -> Result<ObjectPath> {
        let key = location
            .strip_prefix("s3://")
            .and_then(|rest| rest.strip_prefix(self.settings.bucket.as_str()))
            .and_then(|rest| rest.strip_prefix('/'))
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::DataInvalid,
                    format!(
                        "{location:?} is not in the warehouse's bucket s3://{}/",
                        self.settings.bucket
                    ),
                )
            })?;
        ObjectPath::parse(key).map_err(|error| {
            Error::new(
                ErrorKind::DataInvalid,
                format!("{location:?} is not a valid object key"),
            )
            .with_source(error)
        })
    }
}

impl S3Storage {
    /// Copies `from` to `to` inside the bucket (S3 CopyObject: the bytes stay on the
    /// server).
    pub(crate) async fn copy(&self, from: &str, to: &str) -> Result<()> {
        self.store
            .copy(&self.key(from)?, &self.key(to)?)
            .await
            .map_err(failed("copying to", to))
    }
}

/// An `object_store` error as an iceberg error naming what was done where.
fn failed(what: &str, location: &str) -> impl FnOnce(object_store::Error) -> Error {
    let message = format!("{what} {location} failed");
    move |error| {
        let kind = match error {
            object_store::Error::NotFound { .. } => ErrorKind::DataInvalid,
            _ => ErrorKind::Unexpected,
        };
        Error::new(kind, message).with_source(error)
    }
}

#[async_trait]
#[typetag::serde]
impl Storage for S3Storage {
    async fn exists(&self, path: &str) -> Result<bool> {
        match self.store.head(&self.key(path)?).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::NotFound { .. }) => Ok(false),
            Err(error) => Err(failed("HEAD", path)(error)),
        }
    }

    async fn metadata(&self, path: &str) -> Result<FileMetadata> {
        let meta = self
            .store
            .head(&self.key(path)?)
            .await
            .map_err(failed("HEAD", path))?;
        Ok(FileMetadata { size: meta.size })
    }

    async fn read(&self, path: &str) -> Result<Bytes> {
        self.store
            .get(&self.key(path)?)
            .await
            .map_err(failed("GET", path))?
            .bytes()
            .await
            .map_err(failed("reading", path))
    }

    async fn reader(&self, path: &str) -> Result<Box<dyn FileRead>> {
        Ok(Box::new(S3Read {
            store: self.store.clone(),
            key: self.key(path)?,
            location: path.to_owned(),
        }))
    }

    async fn write(&self, path: &str, bs: Bytes) -> Result<()> {
        self.store
            .put(&self.key(path)?, PutPayload::from(bs))
            .await
            .map_err(failed("PUT", path))?;
        Ok(())
    }

    async fn writer(&self, path: &str) -> Result<Box<dyn FileWrite>> {
        Ok(Box::new(S3Write {
            writer: Some(BufWriter::new(self.store.clone(), self.key(path)?)),
            location: path.to_owned(),
        }))
    }

    async fn delete(&self, path: &str) -> Result<()> {
        match self.store.delete(&self.key(path)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(failed("DELETE", path)(error)),
        }
    }

    async fn delete_prefix(&self, path: &str) -> Result<()> {
        let prefix = self.key(path.trim_end_matches('/'))?;
        let keys = self
            .store
            .list(Some(&prefix))
            .map_ok(|meta| meta.location)
            .boxed();
        self.store
            .delete_stream(keys)
            .try_for_each(|_| futures::future::ready(Ok(())))
            .await
            .map_err(failed("deleting everything under", path))
    }

    async fn delete_stream(&self, mut paths: BoxStream<'static, String>) -> Result<()> {
        while let Some(path) = paths.next().await {
            self.delete(&path).await?;
        }
        Ok(())
    }

    fn new_input(&self, path: &str) -> Result<InputFile> {
        self.key(path)?;
        Ok(InputFile::new(Arc::new(self.clone()), path.to_owned()))
    }

    fn new_output(&self, path: &str) -> Result<OutputFile> {
        self.key(path)?;
        Ok(OutputFile::new(Arc::new(self.clone()), path.to_owned()))
    }
}

/// Ranged reads of one object.
struct S3Read {
    store: Arc<dyn ObjectStore>,
    key: ObjectPath,
    location: String,
}

#[async_trait]
impl FileRead for S3Read {
    async fn read(&self, range: Range<u64>) -> Result<Bytes> {
        self.store
            .get_range(&self.key, range)
            .await
            .map_err(failed("ranged GET", &self.location))
    }
}

/// A streamed write: buffered, a multipart upload once it is large.
struct S3Write {
    writer: Option<BufWriter>,
    location: String,
}

#[async_trait]
impl FileWrite for S3Write {
    async fn write(&mut self, bs: Bytes) -> Result<()> {
        let writer = self.writer.as_mut().ok_or_else(|| {
            Error::new(
                ErrorKind::Unexpected,
                format!("{} is already closed", self.location),
            )
        })?;
        writer
            .put(bs)
            .await
            .map_err(failed("uploading", &self.location))
    }

    async fn close(&mut self) -> Result<()> {
        let mut writer = self.writer.take().ok_or_else(|| {
            Error::new(
                ErrorKind::Unexpected,
                format!("{} is already closed", self.location),
            )
        })?;
        writer.shutdown().await.map_err(|error| {
            Error::new(
                ErrorKind::Unexpected,
                format!("completing the upload of {} failed", self.location),
            )
            .with_source(error)
        })
    }
}

/// The Signature V4 headers of a bodiless request `method` to `path` (already a valid
/// URI path, no query) on `host`, at `now`: `authorization`, `x-amz-date`,
/// `x-amz-content-sha256` (`UNSIGNED-PAYLOAD`). Signed: `host`, those two, and the
/// request's own `x-amz-*` headers `amz_headers` (S3 wants every `x-amz-*` header signed;
/// botocore sends `x-amz-checksum-mode`).
pub(crate) fn sigv4_read_headers(
    keys: &crate::sigv4::SigV4<'_>,
    method: &str,
    host: &str,
    path: &str,
    amz_headers: &[(String, String)],
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(&'static str, String)> {
    crate::sigv4::headers(
        keys,
        &crate::sigv4::Request {
            service: "s3",
            method,
            host,
            path,
            headers: amz_headers,
            payload_hash: "UNSIGNED-PAYLOAD",
        },
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn storage() -> S3Storage {
        S3Storage::try_from(S3Settings {
            endpoint: Some("http://127.0.0.1:1".into()),
            bucket: "lake".into(),
            region: "us-east-1".into(),
            access_key_id: "id".into(),
            secret_access_key: "very-secret".into(),
            prefix: String::new(),
            allow_http: true,
        })
        .unwrap()
    }

    #[test]
    fn locations_map_to_keys_of_the_one_bucket() {
        let storage = storage();
        assert_eq!(
            storage.key("s3://lake/wh/ns/t/data/a.parquet").unwrap(),
            ObjectPath::from("wh/ns/t/data/a.parquet")
        );
        for other in [
            "s3://other/wh/x",
            "s3://lakehouse/x",
            "file:///lake/x",
            "s3://lake",
        ] {
            let error = storage.key(other).unwrap_err();
            assert!(
                error.to_string().contains("not in the warehouse"),
                "{error}"
            );
        }
        assert!(storage.new_output("s3://other/x").is_err());
    }

    #[test]
    fn serialized_storage_has_no_secret() {
        let storage: Arc<dyn Storage> = Arc::new(storage());
        let json = serde_json::to_string(&storage).unwrap();
        assert!(!json.contains("very-secret"), "{json}");
        assert!(json.contains("lake"), "{json}");
        let back: Arc<dyn Storage> = serde_json::from_str(&json).unwrap();
        assert!(format!("{back:?}").contains("lake"));
        assert!(!format!("{back:?}").contains("very-secret"));
    }
}
