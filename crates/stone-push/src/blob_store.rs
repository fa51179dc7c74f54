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
//!   interrupted push leaves the previous descriptor in place. On a `file://` store the
//!   files reach the disk before the descriptor is written, and the descriptor before the
//!   push reports success ([`durable`]).
//!
//! Credentials come from each store's usual environment variables (`AWS_*`, `GOOGLE_*`,
//! `AZURE_*`); stone's own tokens are never sent to a store.

mod durable;
mod held;
mod listing;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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

use held::Held;
pub use listing::LISTINGS_DIR;
use listing::{ListingRef, ListingWriter, PreviousDescriptor};
use stone_http::transport::{self, is_loopback};
use stone_package::package::STATE_DIR;
use stone_package::{Folder, FolderHasher, LISTED_FILES};

use crate::folder::{PreparedPackage, folder_error, push_file};
use crate::handler::BoxFuture;
use crate::{
    DatasetOutcome, NoProgress, PackagePushHandler, ProgressEvent, PushError, PushFile,
    PushOptions, PushPackage, PushProgress, PushResult,
};

/// The package descriptor written last under the prefix.
pub const DESCRIPTOR: &str = "datapackage.json";
/// Names the objects a push is about to overwrite, one marker a chunk of uploads under this
/// folder; removed once the descriptor is written.
pub const PENDING_DIR: &str = ".stone-push-pending";
/// The single marker of pushes before issue 27's chunks: still read (and removed).
pub const PENDING: &str = ".stone-push-pending.json";
/// The largest previous descriptor a push reads (a package of ~300,000 one-file resources;
/// a large folder's files are in a listing of their own, see [`LISTINGS_DIR`]).
const MAX_DESCRIPTOR: usize = 128 * 1024 * 1024;
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
        // Removing the last pending-push marker removes its folder too.
        ObjectStoreScheme::Local => {
            Arc::new(object_store::local::LocalFileSystem::new().with_automatic_cleanup(true)) as _
        }
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

/// `push` and `push_prepared` of a handler that mirrors the package into a store
/// ([`mirror`]; a prepared package's large folders a chunk of files at a time).
macro_rules! mirrors {
    () => {
        fn push<'a>(
            &'a self,
            package: &'a PushPackage,
            options: &'a PushOptions,
            progress: Arc<dyn PushProgress>,
        ) -> BoxFuture<'a, Result<PushResult, PushError>> {
            Box::pin(mirror(self.name(), package, &[], 1, options, progress))
        }

        fn push_prepared<'a>(
            &'a self,
            prepared: &'a PreparedPackage,
            options: &'a PushOptions,
            progress: Arc<dyn PushProgress>,
        ) -> BoxFuture<'a, Result<PushResult, PushError>> {
            Box::pin(async move {
                // Files go as they are (no checks are listed for them), but a package
                // prepared with checks gets them run first, as by every handler.
                crate::checks::Checking::start(prepared.checks.clone())
                    .wait()
                    .await?;
                mirror(
                    self.name(),
                    &prepared.package,
                    &prepared.folders,
                    prepared.jobs,
                    options,
                    progress,
                )
                .await
            })
        }
    };
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

    mirrors!();
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

    mirrors!();
}

/// The HTTP handler writes with WebDAV (`PROPFIND` to list, `MKCOL`, `PUT`): asked once,
/// before anything else, with one `PROPFIND` of the destination (`Depth: 0`). A server that
/// answers 501 (Not Implemented: a plain file server such as `python3 -m http.server`) or
/// 405 (Method Not Allowed: nginx without `dav_methods`) lacks it, for good: the push
/// stops with one message saying so (issue 55, item 10: the store's client retried the
/// 501 six times, then told to run the command again, with the server's HTML page three
/// times). Any other answer, or none, goes on: the store's client tells what follows.
async fn require_webdav(url: &str) -> Result<(), PushError> {
    let Ok(client) = stone_http::client_builder(stone_http::API_READ_TIMEOUT).build() else {
        return Ok(());
    };
    let Ok(method) = reqwest::Method::from_bytes(b"PROPFIND") else {
        return Ok(());
    };
    let Ok(answer) = client
        .request(method, url)
        .header("Depth", "0")
        .send()
        .await
    else {
        return Ok(());
    };
    let status = answer.status();
    if status == reqwest::StatusCode::NOT_IMPLEMENTED
        || status == reqwest::StatusCode::METHOD_NOT_ALLOWED
    {
        return Err(PushError::Unsupported {
            url: url.to_owned(),
            lacks: format!(
                "is not a WebDAV server: it answered PROPFIND with {status}, and the HTTP handler writes with WebDAV (PROPFIND, MKCOL, PUT); nothing was written"
            ),
        });
    }
    Ok(())
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

/// A JSON document of the store, read within `limit` bytes; `None` when it is not there or
/// not a `T`.
async fn get_json<T: for<'de> Deserialize<'de>>(
    store: &dyn ObjectStore,
    location: &StorePath,
    limit: usize,
) -> Result<Option<(T, Bytes)>, object_store::Error> {
    match store.get_opts(location, GetOptions::default()).await {
        Ok(result) => {
            // Read within a cap: the destination may hold anything under this name.
            let size = result.meta.size;
            let bytes =
                match stone_http::collect_capped(result.into_stream(), Some(size), limit).await {
                    Ok(bytes) => Bytes::from(bytes),
                    Err(stone_http::Capped::Failed(e)) => return Err(e),
                    Err(stone_http::Capped::TooLarge) => {
                        // Not `Generic`: that one is transient, and this is not.
                        return Err(object_store::Error::NotSupported {
                            source: format!(
                                "{location} is {size} bytes, larger than {}, stone's limit for it: \
                             refused unread (remove it, or push to another prefix)",
                                stone_http::size_in_words(limit)
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

/// A file of the package where it goes: its key under the prefix, and the object there.
struct Placed<'a> {
    resource: usize,
    key: String,
    location: StorePath,
    file: Cow<'a, PushFile>,
}

/// The package's files a chunk at a time: a listed resource's from the record, a large
/// folder's walked and hashed (from the hash cache) as their turn comes, so that a push
/// holds [`LISTED_FILES`] of them at most, whatever the folder's count (issue 27).
struct Chunks<'a> {
    package: &'a PushPackage,
    prefix: &'a StorePath,
    folders: &'a [Option<Box<Folder>>],
    jobs: usize,
    resource: usize,
    file: usize,
    walking: Option<FolderHasher>,
}

impl<'a> Chunks<'a> {
    fn new(
        package: &'a PushPackage,
        prefix: &'a StorePath,
        folders: &'a [Option<Box<Folder>>],
        jobs: usize,
    ) -> Self {
        Chunks {
            package,
            prefix,
            folders,
            jobs,
            resource: 0,
            file: 0,
            walking: None,
        }
    }

    /// The next files (at most [`LISTED_FILES`]), each with its key checked; empty at the end.
    fn next(&mut self) -> Result<Vec<Placed<'a>>, PushError> {
        let mut chunk = Vec::new();
        while chunk.len() < LISTED_FILES {
            let index = self.resource;
            let Some(resource) = self.package.resources.get(index) else {
                break;
            };
            let files: Vec<Cow<'a, PushFile>> =
                match self.folders.get(index).and_then(Option::as_deref) {
                    Some(folder) => {
                        let walking = match &mut self.walking {
                            Some(walking) => walking,
                            None => self.walking.insert(
                                FolderHasher::read_only(folder, self.jobs)
                                    .map_err(|e| folder_error(folder, e))?,
                            ),
                        };
                        let want = LISTED_FILES - chunk.len();
                        let digests = crate::folder::blocking(|| walking.next_chunk(want, &()))
                            .map_err(|e| folder_error(folder, e))?;
                        if digests.len() < want {
                            self.walking = None;
                            self.resource += 1;
                        }
                        digests
                            .into_iter()
                            .map(|d| Cow::Owned(push_file(&folder.root, &folder.path, d)))
                            .collect()
                    }
                    None => {
                        let take =
                            (resource.files.len() - self.file).min(LISTED_FILES - chunk.len());
                        let files = resource.files[self.file..self.file + take]
                            .iter()
                            .map(Cow::Borrowed)
                            .collect();
                        self.file += take;
                        if self.file == resource.files.len() {
                            self.file = 0;
                            self.resource += 1;
                        }
                        files
                    }
                };
            for file in files {
                let key = key_of(self.package, &resource.path, &file);
                check_key(&key).map_err(|e| {
                    PushError::Destination(format!(
                        "a file of the resource `{}` cannot be an object key: {e}",
                        resource.path
                    ))
                })?;
                chunk.push(Placed {
                    resource: index,
                    location: child(self.prefix, &key),
                    key,
                    file,
                });
            }
        }
        Ok(chunk)
    }
}

/// The one path rule (a key is a file name in every copy of the store), and the names the
/// push itself writes under the prefix, which no file of the package may take.
fn check_key(key: &str) -> Result<(), String> {
    stone_package::check_relative_path(key).map_err(|e| e.to_string())?;
    let first = key.split('/').next().unwrap_or(key);
    if key == DESCRIPTOR || [PENDING, PENDING_DIR, LISTINGS_DIR].contains(&first) {
        return Err(format!(
            "`{key}` is where the push writes its own {}; rename the file",
            if key == DESCRIPTOR {
                "descriptor"
            } else {
                "state"
            }
        ));
    }
    Ok(())
}

/// What the first pass found: what goes up, and each resource's count of files.
#[derive(Default)]
struct Tally {
    files: usize,
    bytes: u64,
    held: usize,
    per_resource: Vec<usize>,
}

/// Pushes every file and then the descriptor to the store named by the destination.
///
/// Two passes over the files, a chunk at a time: the first checks every key, counts what
/// the store lacks and writes the large folders' listings; the second (only when something
/// is lacking) uploads it, each chunk's keys first named in a pending-push marker. The
/// descriptor goes last, then the markers and the listings it no longer names are removed.
async fn mirror(
    handler: &str,
    package: &PushPackage,
    folders: &[Option<Box<Folder>>],
    hash_jobs: usize,
    options: &PushOptions,
    progress: Arc<dyn PushProgress>,
) -> Result<PushResult, PushError> {
    let url = package.destination.as_str();
    let (store, prefix) = store_from_url(url, options.retries)
        .map_err(|e| store_error("opening the blob store", url, e))?;
    if url.starts_with("http://") || url.starts_with("https://") {
        require_webdav(url).await?;
    }
    let store = store.as_ref();
    let descriptor_at = child(&prefix, DESCRIPTOR);
    let jobs = options.jobs.max(1);

    // What the store holds: the previous descriptor's hashes, trusted for an object only if
    // no unfinished push touched it and it still has the listed size.
    let previous = get_json::<PreviousDescriptor>(store, &descriptor_at, MAX_DESCRIPTOR)
        .await
        .map_err(|e| store_error("reading the previous descriptor at", url, e))?;
    let held = Held::read(store, &prefix, url, previous.as_ref().map(|(d, _)| d)).await?;

    // First pass: every key checked before anything is written.
    let state_dir = package.root.join(STATE_DIR);
    let mut tally = Tally {
        per_resource: vec![0; package.resources.len()],
        ..Tally::default()
    };
    let state_error = |source| PushError::Io {
        path: state_dir.clone(),
        source,
    };
    if folders.iter().any(Option::is_some) {
        std::fs::create_dir_all(&state_dir).map_err(state_error)?;
    }
    let mut writers: Vec<Option<ListingWriter>> = Vec::new();
    for folder in folders {
        writers.push(match folder {
            Some(_) => Some(ListingWriter::new(&state_dir).map_err(state_error)?),
            None => None,
        });
    }
    let mut chunks = Chunks::new(package, &prefix, folders, hash_jobs);
    loop {
        let chunk = chunks.next()?;
        if chunk.is_empty() {
            break;
        }
        let missing = held.missing(store, &chunk, jobs).await;
        for (placed, missing) in chunk.iter().zip(missing) {
            tally.per_resource[placed.resource] += 1;
            if missing {
                tally.files += 1;
                tally.bytes += placed.file.size;
            } else {
                tally.held += 1;
            }
            if let Some(Some(writer)) = writers.get_mut(placed.resource) {
                writer
                    .add(&placed.key, &placed.file.sha256, placed.file.size)
                    .map_err(state_error)?;
            }
        }
    }
    let mut listings = Vec::new();
    for writer in writers {
        listings.push(match writer {
            Some(writer) => Some(writer.finish().map_err(state_error)?),
            None => None,
        });
    }

    let push_id = format!("{handler}-{}", unix_millis());
    progress.event(ProgressEvent::Created {
        push_id: push_id.clone(),
        resumed: !held.markers.is_empty(),
        to_upload: tally.bytes,
        files: tally.files,
        already_staged: tally.held,
    });

    // Second pass: the uploads, a chunk at a time, each chunk's keys named first.
    let mut uploaded_bytes = 0u64;
    let mut markers = Vec::new();
    if tally.files > 0 {
        let mut chunks = Chunks::new(package, &prefix, folders, hash_jobs);
        // An HTTP (WebDAV) server needs each parent collection before a PUT into it, and
        // object_store's HTTP store makes them on demand (MKCOL after a 409): two uploads
        // racing to make the same collection fail for the one that loses (405). So there,
        // the first file of each folder goes up alone, in order; the rest in parallel.
        let mut collections = HashSet::new();
        loop {
            let chunk = chunks.next()?;
            if chunk.is_empty() {
                break;
            }
            let missing = held.missing(store, &chunk, jobs).await;
            let uploads: Vec<Placed> = chunk
                .into_iter()
                .zip(missing)
                .filter_map(|(placed, missing)| missing.then_some(placed))
                .collect();
            if uploads.is_empty() {
                continue;
            }
            let marker = child(
                &prefix,
                &format!("{PENDING_DIR}/{push_id}-{}.json", markers.len()),
            );
            let body = serde_json::to_vec(&Pending {
                paths: uploads.iter().map(|u| u.key.clone()).collect(),
            })
            .expect("serializes");
            store
                .put_opts(&marker, PutPayload::from(body), PutOptions::default())
                .await
                .map_err(|e| store_error("writing the pending-push marker to", url, e))?;
            markers.push(marker);

            let (leaders, others): (Vec<_>, Vec<_>) = uploads.iter().partition(|u| {
                handler == "http"
                    && collections.insert(u.key.rsplit_once('/').map_or("", |(c, _)| c).to_owned())
            });
            for upload in leaders {
                uploaded_bytes += transfer(store, url, upload, progress.as_ref()).await?;
            }
            let transfers: Vec<_> = others
                .into_iter()
                .map(|u| transfer(store, url, u, progress.as_ref()))
                .collect();
            uploaded_bytes += futures::stream::iter(transfers)
                .buffer_unordered(jobs)
                .try_fold(0u64, |sum, n| async move { Ok(sum + n) })
                .await?;
        }
    }

    // The large folders' listings, then the descriptor: readers see the old package or the
    // new one, never a half.
    progress.event(ProgressEvent::Committing {
        push_id: push_id.clone(),
    });
    let mut named = Vec::with_capacity(listings.len());
    for listing in listings {
        named.push(match listing {
            Some((file, size, at)) => {
                let location = child(&prefix, &at.path);
                if !held.has(store, &location, size).await {
                    let listing = PushFile {
                        path: at.path.clone(),
                        local: file.path().to_owned(),
                        sha256: String::new(), // not read by an upload
                        size,
                    };
                    upload_file(store, &location, &listing, &NoProgress)
                        .await
                        .map_err(|e| upload_error(url, &at.path, &listing, e))?;
                }
                Some(at)
            }
            None => None,
        });
    }
    let descriptor = frictionless(package, &named);
    let body = serde_json::to_vec_pretty(&descriptor).expect("serializes");
    let unchanged = previous
        .as_ref()
        .is_some_and(|(_, bytes)| bytes.as_ref() == body.as_slice());
    // The files on disk before a descriptor names them (also those an unfinished push had
    // overwritten and this one wrote again under an unchanged descriptor).
    durable::flush(url).await?;
    if !unchanged {
        store
            .put_opts(
                &descriptor_at,
                PutPayload::from(body),
                PutOptions::default(),
            )
            .await
            .map_err(|e| store_error("writing the descriptor to", url, e))?;
        durable::flush(url).await?;
    }
    let kept: HashSet<String> = named
        .iter()
        .flatten()
        .map(|at| child(&prefix, &at.path).to_string())
        .collect();
    let stale: Vec<StorePath> = store
        .list(Some(&child(&prefix, LISTINGS_DIR)))
        .try_filter_map(|m| {
            let stale = !kept.contains(m.location.as_ref());
            async move { Ok(stale.then_some(m.location)) }
        })
        .try_collect()
        .await
        .unwrap_or_default();
    let removed: Vec<StorePath> = held
        .markers
        .iter()
        .chain(&markers)
        .cloned()
        .chain(stale)
        .collect();
    let gone: Vec<_> = store
        .delete_stream(futures::stream::iter(removed.into_iter().map(Ok)).boxed())
        .collect()
        .await;
    if let Some(e) = gone
        .into_iter()
        .filter_map(Result::err)
        .find(|e| !matches!(e, object_store::Error::NotFound { .. }))
    {
        progress.event(ProgressEvent::Note(format!(
            "the pushed package is complete, but the push's markers or old listings under \
             {PENDING_DIR}/ and {LISTINGS_DIR}/ could not all be removed: {e}"
        )));
    }

    let previous_resources: HashMap<&str, &str> = previous
        .iter()
        .flat_map(|(d, _)| &d.resources)
        .filter_map(|r| Some((r.name.as_deref()?, r.hash.as_deref()?)))
        .collect();
    let datasets = package
        .resources
        .iter()
        .zip(&tally.per_resource)
        .map(|(r, files)| {
            let status = match previous_resources.get(r.name.as_str()) {
                None => "created",
                Some(hash) if hash.strip_prefix("sha256:") == Some(r.sha256.as_str()) => {
                    "unchanged"
                }
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
                    &json!({ "files": files, "bytes": r.size }),
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
        already_staged: tally.held,
    })
}

/// One upload of the second pass: its bytes, or the error naming the file and the key.
async fn transfer(
    store: &dyn ObjectStore,
    url: &str,
    upload: &Placed<'_>,
    progress: &dyn PushProgress,
) -> Result<u64, PushError> {
    upload_file(store, &upload.location, &upload.file, progress)
        .await
        .map_err(|e| upload_error(url, &upload.key, &upload.file, e))
        .map(|()| upload.file.size)
}

/// A failed upload of `file` to `key`, as a push error naming both.
fn upload_error(url: &str, key: &str, file: &PushFile, e: UploadError) -> PushError {
    match e {
        UploadError::Io(source) => PushError::Io {
            path: file.local.clone(),
            source,
        },
        UploadError::Store(e) => PushError::Store {
            action: format!("uploading {key} to"),
            url: url.to_owned(),
            transient: matches!(e, object_store::Error::Generic { .. }),
            source: Box::new(e),
        },
    }
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
/// stone kind, and its files with their own hashes and sizes: in `stone:files`, or, for a
/// folder of more than [`LISTED_FILES`] files, in the listing `stone:listing` names (and
/// `path` is the folder's).
fn frictionless(package: &PushPackage, listings: &[Option<ListingRef>]) -> Value {
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
        .enumerate()
        .map(|(i, r)| {
            let mut resource = json!({
                "name": r.name,
                "hash": format!("sha256:{}", r.sha256),
                "bytes": r.size,
                "stone:kind": r.kind,
            });
            match listings.get(i).and_then(Option::as_ref) {
                Some(listing) => {
                    resource["path"] = json!(r.path);
                    resource["stone:listing"] = json!(listing);
                }
                None => {
                    let files: BTreeMap<String, &PushFile> = r
                        .files
                        .iter()
                        .map(|f| (key_of(package, &r.path, f), f))
                        .collect();
                    let paths: Vec<&String> = files.keys().collect();
                    resource["path"] = if paths.len() == 1 {
                        json!(paths[0])
                    } else {
                        json!(paths)
                    };
                    resource["stone:files"] = files
                        .iter()
                        .map(|(path, f)| {
                            json!({
                                "path": path,
                                "hash": format!("sha256:{}", f.sha256),
                                "bytes": f.size,
                            })
                        })
                        .collect();
                }
            }
            if !r.metadata.is_empty() {
                resource["stone:metadata"] = Value::Object(r.metadata.clone());
            }
            resource
        })
        .collect();
    out.insert("resources".into(), Value::Array(resources));
    Value::Object(out)
}
