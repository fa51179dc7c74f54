//! Pushing a package to a blob store (`s3://`, `gs://`, `az://`, `abfs://`, `file://`) or,
//! through the same code, to a WebDAV-style HTTP server: every file of the package at its
//! package path under the destination's prefix, and a Frictionless `datapackage.json`
//! describing them (path, sha256 hash, bytes, kind).
//!
//! - Files whose sha256 the previous `datapackage.json` already lists, and whose object still
//!   has that size, are skipped (a `.stone-push-pending.json` marker names the objects an
//!   unfinished push may have overwritten; they are never skipped).
//! - Uploads run in parallel (`--jobs`); files from [`MULTIPART_THRESHOLD`] up go in parts
//!   where the store supports it.
//! - The descriptor is written last, so a reader never sees a half package, and an
//!   interrupted push leaves the previous descriptor in place.
//!
//! Credentials come from each store's usual environment variables (`AWS_*`, `GOOGLE_*`,
//! `AZURE_*`); stone's own tokens are never sent to a store.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use object_store::path::Path as StorePath;
use object_store::{
    GetOptions, ObjectStore, ObjectStoreScheme, PutMultipartOptions, PutOptions, PutPayload,
    RetryConfig, WriteMultipart,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

use crate::handler::BoxFuture;
use crate::{
    DatasetOutcome, PackagePushHandler, ProgressEvent, PushError, PushFile, PushOptions,
    PushPackage, PushProgress, PushResult,
};
use stone_http::transport::{self, is_loopback};

/// The package descriptor written last under the prefix.
pub const DESCRIPTOR: &str = "datapackage.json";
/// Names the objects a push is about to overwrite; removed once the descriptor is written.
pub const PENDING: &str = ".stone-push-pending.json";
/// Files from this size up are uploaded in parts (where the store supports it).
pub const MULTIPART_THRESHOLD: u64 = 64 * 1024 * 1024;
/// The size of one part.
const PART_SIZE: usize = 16 * 1024 * 1024;
/// Parts of one file in flight at once.
const PARTS_IN_FLIGHT: usize = 4;

/// Schemes of the blob stores this build can write to.
pub const BLOB_STORE_SCHEMES: &[&str] = &[
    "s3", "s3a", "gs", "az", "adl", "azure", "abfs", "abfss", "file",
];

/// Environment variable prefixes passed to the store builders as configuration.
const STORE_ENV_PREFIXES: &[&str] = &["AWS_", "GOOGLE_", "AZURE_"];

/// A blob store and the prefix inside it, from a URL (`s3://bucket/prefix`, `gs://…`,
/// `az://…`, `abfs://…`, `file:///path`, `https://host/path`). Credentials and settings
/// come from the usual environment variables of each store (`AWS_ACCESS_KEY_ID`,
/// `AWS_ENDPOINT`, `GOOGLE_SERVICE_ACCOUNT`, `AZURE_STORAGE_ACCOUNT_NAME`, …); plain
/// `http://` is allowed only to a loopback address. A failed request is retried `retries`
/// times (`STONE_HTTP_RETRIES`, as every request of a push), with `object_store`'s back-off.
pub fn store_from_url(
    url: &str,
    retries: u32,
) -> Result<(Arc<dyn ObjectStore>, StorePath), object_store::Error> {
    let parsed = url::Url::parse(url).map_err(|e| object_store::Error::Generic {
        store: "blob store",
        source: format!("`{url}` is not a URL: {e}").into(),
    })?;
    let mut options: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| STORE_ENV_PREFIXES.iter().any(|p| k.starts_with(p)))
        .map(|(k, v)| (k.to_ascii_lowercase(), v))
        .collect();
    if parsed.scheme() == "http" {
        if !is_loopback(&parsed) {
            return Err(object_store::Error::Generic {
                store: "HTTP",
                source: format!(
                    "`{url}`: plain http is allowed only to a loopback address; use https"
                )
                .into(),
            });
        }
        options.push(("allow_http".into(), "true".into()));
    }
    let retry = RetryConfig {
        max_retries: retries as usize,
        ..RetryConfig::default()
    };
    let (scheme, path) = ObjectStoreScheme::parse(&parsed)?;
    let prefix = StorePath::parse(path)?;
    // What `object_store::parse_url_opts` does, with the retry configuration it cannot take.
    macro_rules! configured {
        ($builder:ty, $url:expr) => {{
            let builder =
                options
                    .iter()
                    .fold(
                        <$builder>::new().with_url($url),
                        |builder, (key, value)| match key.parse() {
                            Ok(key) => builder.with_config(key, value),
                            Err(_) => builder,
                        },
                    );
            Arc::new(builder.with_retry(retry).build()?) as Arc<dyn ObjectStore>
        }};
    }
    let store = match scheme {
        ObjectStoreScheme::Local => Arc::new(object_store::local::LocalFileSystem::new()) as _,
        ObjectStoreScheme::AmazonS3 => configured!(object_store::aws::AmazonS3Builder, url),
        ObjectStoreScheme::GoogleCloudStorage => {
            configured!(object_store::gcp::GoogleCloudStorageBuilder, url)
        }
        ObjectStoreScheme::MicrosoftAzure => {
            configured!(object_store::azure::MicrosoftAzureBuilder, url)
        }
        ObjectStoreScheme::Http => {
            configured!(
                object_store::http::HttpBuilder,
                &parsed[..url::Position::BeforePath]
            )
        }
        other => {
            return Err(object_store::Error::Generic {
                store: "blob store",
                source: format!("`{url}`: {other:?} is not a store a push writes to").into(),
            });
        }
    };
    Ok((store, prefix))
}

/// The built-in blob-store push: claims every blob-store scheme this build knows.
pub struct BlobStoreHandler;

impl PackagePushHandler for BlobStoreHandler {
    fn name(&self) -> &str {
        "blob-store"
    }

    fn can_handle(&self, destination: &str) -> bool {
        destination
            .split_once("://")
            .is_some_and(|(scheme, _)| BLOB_STORE_SCHEMES.contains(&scheme))
    }

    fn push<'a>(
        &'a self,
        package: &'a PushPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        Box::pin(mirror(self.name(), package, options, progress))
    }
}

/// The generic HTTP handler: other `https://` URLs (and `http://` to loopback), by HTTP PUT
/// of each file and the descriptor (parent collections made with MKCOL, WebDAV-style).
pub struct HttpHandler;

impl PackagePushHandler for HttpHandler {
    fn name(&self) -> &str {
        "http"
    }

    fn can_handle(&self, destination: &str) -> bool {
        transport::secure_str(destination)
    }

    fn push<'a>(
        &'a self,
        package: &'a PushPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        Box::pin(mirror(self.name(), package, options, progress))
    }
}

/// One file of the descriptor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Listed {
    path: String,
    hash: String,
    bytes: u64,
}

/// The objects an unfinished push may have overwritten.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Pending {
    paths: BTreeSet<String>,
}

fn store_error(action: &str, url: &str, e: object_store::Error) -> PushError {
    let transient = matches!(e, object_store::Error::Generic { .. });
    PushError::Store {
        action: action.to_owned(),
        url: url.to_owned(),
        source: Box::new(e),
        transient,
    }
}

/// A file to upload: where it goes and where it is.
struct Upload<'a> {
    key: String,
    file: &'a PushFile,
}

/// The package-relative path of a file (its place under the prefix).
fn key_of(package: &PushPackage, resource_path: &str, file: &PushFile) -> String {
    match file.local.strip_prefix(&package.root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => format!("{resource_path}/{}", file.path),
    }
}

fn child(prefix: &StorePath, rel: &str) -> StorePath {
    rel.split('/')
        .filter(|p| !p.is_empty())
        .fold(prefix.clone(), |p, part| p.clone().join(part))
}

async fn get_json<T: for<'de> Deserialize<'de>>(
    store: &dyn ObjectStore,
    location: &StorePath,
) -> Result<Option<(T, Bytes)>, object_store::Error> {
    match store.get_opts(location, GetOptions::default()).await {
        Ok(result) => {
            // Read within a cap: the destination may hold anything under this name.
            let size = result.meta.size;
            let bytes = match stone_http::collect_capped(
                result.into_stream(),
                Some(size),
                stone_http::MAX_ANSWER,
            )
            .await
            {
                Ok(bytes) => Bytes::from(bytes),
                Err(stone_http::Capped::Failed(e)) => return Err(e),
                Err(stone_http::Capped::TooLarge) => {
                    // Not `Generic`: that one is transient, and this is not.
                    return Err(object_store::Error::NotSupported {
                        source: format!(
                            "{location} is {size} bytes, larger than {}, stone's limit for a \
                             descriptor: refused unread (remove it, or push to another prefix)",
                            stone_http::size_in_words(stone_http::MAX_ANSWER)
                        )
                        .into(),
                    });
                }
            };
            Ok(serde_json::from_slice(&bytes).ok().map(|v| (v, bytes)))
        }
        Err(object_store::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The files a descriptor lists, by path.
fn listed_files(descriptor: &Value) -> HashMap<String, Listed> {
    let mut files = HashMap::new();
    for resource in descriptor["resources"].as_array().into_iter().flatten() {
        for file in resource["stone:files"].as_array().into_iter().flatten() {
            if let Ok(listed) = serde_json::from_value::<Listed>(file.clone()) {
                files.insert(listed.path.clone(), listed);
            }
        }
    }
    files
}

/// Pushes every file and then the descriptor to the store named by the destination.
async fn mirror(
    handler: &str,
    package: &PushPackage,
    options: &PushOptions,
    progress: Arc<dyn PushProgress>,
) -> Result<PushResult, PushError> {
    let url = package.destination.as_str();
    let (store, prefix) = store_from_url(url, options.retries)
        .map_err(|e| store_error("opening the blob store", url, e))?;
    let store = store.as_ref();
    let descriptor_at = child(&prefix, DESCRIPTOR);
    let pending_at = child(&prefix, PENDING);

    // What the store holds: the previous descriptor's hashes, trusted for an object only if
    // no unfinished push touched it and it still has the listed size.
    let previous = get_json::<Value>(store, &descriptor_at)
        .await
        .map_err(|e| store_error("reading the previous descriptor at", url, e))?;
    let previous_files = previous
        .as_ref()
        .map(|(v, _)| listed_files(v))
        .unwrap_or_default();
    let pending = get_json::<Pending>(store, &pending_at)
        .await
        .map_err(|e| store_error("reading the pending-push marker at", url, e))?
        .map(|(p, _)| p.paths)
        .unwrap_or_default();
    let sizes: Option<HashMap<String, u64>> = store
        .list(Some(&prefix))
        .map_ok(|m| (m.location.to_string(), m.size))
        .try_collect()
        .await
        .ok();

    let mut uploads = Vec::new();
    let mut candidates = Vec::new();
    for resource in &package.resources {
        for file in &resource.files {
            let key = key_of(package, &resource.path, file);
            // The one path rule: a key is a file name in every copy of the store.
            stone_package::check_relative_path(&key).map_err(|e| {
                PushError::Destination(format!(
                    "a file of the resource `{}` cannot be an object key: {e}",
                    resource.path
                ))
            })?;
            let trusted = !pending.contains(&key)
                && previous_files.get(&key).is_some_and(|l| {
                    l.hash == format!("sha256:{}", file.sha256) && l.bytes == file.size
                });
            if trusted {
                candidates.push(Upload { key, file });
            } else {
                uploads.push(Upload { key, file });
            }
        }
    }
    // A listed hash counts only if the object is still there with that size.
    let mut skipped = 0usize;
    // (Futures collected first: a closure in the stream would make this future not Send.)
    let checks: Vec<_> = candidates
        .into_iter()
        .map(|u| {
            let location = child(&prefix, &u.key);
            let sizes = &sizes;
            async move {
                let present = match sizes {
                    Some(sizes) => sizes.get(location.as_ref()) == Some(&u.file.size),
                    None => {
                        let head = GetOptions {
                            head: true,
                            ..Default::default()
                        };
                        match store.get_opts(&location, head).await {
                            Ok(r) => r.meta.size == u.file.size,
                            Err(_) => false,
                        }
                    }
                };
                (u, present)
            }
        })
        .collect();
    let checks: Vec<(Upload, bool)> = futures::stream::iter(checks)
        .buffer_unordered(options.jobs.max(1))
        .collect()
        .await;
    for (upload, present) in checks {
        if present {
            skipped += 1;
        } else {
            uploads.push(upload);
        }
    }
    uploads.sort_by(|a, b| a.key.cmp(&b.key));

    let push_id = format!("{handler}-{}", unix_millis());
    let to_upload: u64 = uploads.iter().map(|u| u.file.size).sum();
    progress.event(ProgressEvent::Created {
        push_id: push_id.clone(),
        resumed: !pending.is_empty(),
        to_upload,
        files: uploads.len(),
        already_staged: skipped,
    });

    if !uploads.is_empty() {
        let marker = Pending {
            paths: pending
                .iter()
                .cloned()
                .chain(uploads.iter().map(|u| u.key.clone()))
                .collect(),
        };
        let body = serde_json::to_vec(&marker).expect("serializes");
        store
            .put_opts(&pending_at, PutPayload::from(body), PutOptions::default())
            .await
            .map_err(|e| store_error("writing the pending-push marker to", url, e))?;
    }

    let transfers: Vec<_> = uploads
        .iter()
        .map(|u| {
            let location = child(&prefix, &u.key);
            let progress = progress.clone();
            async move {
                upload_file(store, &location, u.file, progress.as_ref())
                    .await
                    .map_err(|e| match e {
                        UploadError::Io(source) => PushError::Io {
                            path: u.file.local.clone(),
                            source,
                        },
                        UploadError::Store(e) => PushError::Store {
                            action: format!("uploading {} to", u.key),
                            url: url.to_owned(),
                            transient: matches!(e, object_store::Error::Generic { .. }),
                            source: Box::new(e),
                        },
                    })
                    .map(|()| u.file.size)
            }
        })
        .collect();
    // An HTTP (WebDAV) server needs each parent collection before a PUT into it, and
    // object_store's HTTP store makes them on demand (MKCOL after a 409): two uploads racing
    // to make the same collection fail for the one that loses (405). So there, the first
    // file of each folder goes up alone, in order; the rest in parallel.
    let mut folders = std::collections::HashSet::new();
    let (leaders, others): (Vec<_>, Vec<_>) =
        uploads.iter().zip(transfers).partition(|(upload, _)| {
            handler == "http"
                && folders.insert(upload.key.rsplit_once('/').map_or("", |(folder, _)| folder))
        });
    let mut uploaded_bytes = 0u64;
    for (_, transfer) in leaders {
        uploaded_bytes += transfer.await?;
    }
    let others: Vec<_> = others.into_iter().map(|(_, transfer)| transfer).collect();
    uploaded_bytes += futures::stream::iter(others)
        .buffer_unordered(options.jobs.max(1))
        .try_fold(0u64, |sum, n| async move { Ok(sum + n) })
        .await?;

    // The descriptor last: readers see the old package or the new one, never a half.
    progress.event(ProgressEvent::Committing {
        push_id: push_id.clone(),
    });
    let descriptor = frictionless(package);
    let body = serde_json::to_vec_pretty(&descriptor).expect("serializes");
    let unchanged = previous
        .as_ref()
        .is_some_and(|(_, bytes)| bytes.as_ref() == body.as_slice());
    if !unchanged {
        store
            .put_opts(
                &descriptor_at,
                PutPayload::from(body),
                PutOptions::default(),
            )
            .await
            .map_err(|e| store_error("writing the descriptor to", url, e))?;
    }
    if !uploads.is_empty() || !pending.is_empty() {
        let gone: Vec<_> = store
            .delete_stream(futures::stream::iter([Ok(pending_at.clone())]).boxed())
            .collect()
            .await;
        if let Some(Err(e)) = gone.into_iter().next()
            && !matches!(e, object_store::Error::NotFound { .. })
        {
            progress.event(ProgressEvent::Note(format!(
                "the pushed package is complete, but the marker {PENDING} could not be removed: {e}"
            )));
        }
    }

    let previous_resources: HashMap<String, String> = previous
        .as_ref()
        .and_then(|(v, _)| v["resources"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some((
                r["name"].as_str()?.to_owned(),
                r["hash"].as_str()?.to_owned(),
            ))
        })
        .collect();
    let datasets = package
        .resources
        .iter()
        .map(|r| {
            let status = match previous_resources.get(&r.name) {
                None => "created",
                Some(hash) if *hash == format!("sha256:{}", r.sha256) => "unchanged",
                Some(_) => "updated",
            };
            let at = format!("{url}/{}", r.path);
            DatasetOutcome {
                url: at.clone(),
                iri: at,
                kind: Some(r.kind),
                engine: None,
                status: status.into(),
                detail: serde_json::value::to_raw_value(
                    &json!({ "files": r.files.len(), "bytes": r.size }),
                )
                .ok(),
            }
        })
        .collect();
    let node_url = format!("{url}/{DESCRIPTOR}");
    Ok(PushResult {
        push_id,
        handler: handler.to_owned(),
        datasets,
        package_node: Some(DatasetOutcome {
            url: node_url.clone(),
            iri: node_url,
            kind: None,
            engine: None,
            status: match (&previous, unchanged) {
                (None, _) => "created",
                (Some(_), true) => "unchanged",
                (Some(_), false) => "updated",
            }
            .into(),
            detail: None,
        }),
        uploaded_bytes,
        already_staged: skipped,
    })
}

enum UploadError {
    Io(std::io::Error),
    Store(object_store::Error),
}

impl From<std::io::Error> for UploadError {
    fn from(e: std::io::Error) -> Self {
        UploadError::Io(e)
    }
}

impl From<object_store::Error> for UploadError {
    fn from(e: object_store::Error) -> Self {
        UploadError::Store(e)
    }
}

/// One file: a single PUT, or parts for a large file where the store supports them.
async fn upload_file(
    store: &dyn ObjectStore,
    location: &StorePath,
    file: &PushFile,
    progress: &dyn PushProgress,
) -> Result<(), UploadError> {
    if file.size >= MULTIPART_THRESHOLD {
        match store
            .put_multipart_opts(location, PutMultipartOptions::default())
            .await
        {
            Ok(upload) => {
                let mut writer = WriteMultipart::new_with_chunk_size(upload, PART_SIZE);
                let mut reader = tokio::fs::File::open(&file.local).await?;
                loop {
                    let mut buffer = Vec::with_capacity(PART_SIZE);
                    let n = (&mut reader)
                        .take(PART_SIZE as u64)
                        .read_to_end(&mut buffer)
                        .await?;
                    if n == 0 {
                        break;
                    }
                    writer.wait_for_capacity(PARTS_IN_FLIGHT).await?;
                    writer.put(Bytes::from(buffer));
                    progress.event(ProgressEvent::Uploaded { bytes: n as u64 });
                }
                writer.finish().await?;
                return Ok(());
            }
            Err(
                object_store::Error::NotImplemented { .. }
                | object_store::Error::NotSupported { .. },
            ) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let bytes = tokio::fs::read(&file.local).await?;
    let n = bytes.len() as u64;
    store
        .put_opts(location, PutPayload::from(bytes), PutOptions::default())
        .await?;
    progress.event(ProgressEvent::Uploaded { bytes: n });
    Ok(())
}

fn unix_millis() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default()
}

/// The Frictionless data package descriptor: one resource per package resource, with its
/// path(s), `hash` (`sha256:` of the file, or of the listing for a directory), `bytes`, the
/// stone kind, and `stone:files` (every file with its own hash and size).
fn frictionless(package: &PushPackage) -> Value {
    let meta = &package.metadata;
    let mut out = serde_json::Map::new();
    let mut put = |k: &str, v: Option<&String>| {
        if let Some(v) = v {
            out.insert(k.into(), Value::String(v.clone()));
        }
    };
    put("name", meta.name.as_ref());
    put("title", meta.title.as_ref());
    put("description", meta.description.as_ref());
    put("version", meta.version.as_ref());
    if let Some(license) = &meta.license {
        out.insert("licenses".into(), json!([{ "name": license }]));
    }
    let resources: Vec<Value> = package
        .resources
        .iter()
        .map(|r| {
            let files: BTreeMap<String, &PushFile> = r
                .files
                .iter()
                .map(|f| (key_of(package, &r.path, f), f))
                .collect();
            let paths: Vec<&String> = files.keys().collect();
            let path = if paths.len() == 1 {
                json!(paths[0])
            } else {
                json!(paths)
            };
            let mut resource = json!({
                "name": r.name,
                "path": path,
                "hash": format!("sha256:{}", r.sha256),
                "bytes": r.size,
                "stone:kind": r.kind,
                "stone:files": files.iter().map(|(path, f)| json!({
                    "path": path,
                    "hash": format!("sha256:{}", f.sha256),
                    "bytes": f.size,
                })).collect::<Vec<_>>(),
            });
            if !r.metadata.is_empty() {
                resource["stone:metadata"] = Value::Object(r.metadata.clone());
            }
            resource
        })
        .collect();
    out.insert("resources".into(), Value::Array(resources));
    Value::Object(out)
}
