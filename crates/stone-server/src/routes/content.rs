//! Reading a dataset's content back: `GET /v1/namespaces/{ns}/datasets/{name}/content` and
//! the IRI forms `GET /{ns}/{name}` (content, the metadata JSON for `Accept:
//! application/json`, or a page for a browser: [`super::page`]) and `GET /{ns}` (the
//! package node, or its page).
//!
//! - TABULAR: the Iceberg snapshot of the branch (or of the tag `version`) scanned into
//!   Arrow batches and streamed as Parquet, or as CSV/TSV written with the package's
//!   `publish.dialect` (delimiter, quote character, line terminator, header, `quoting`).
//!   CSV/TSV are chunked; memory stays bounded by a batch plus a Parquet row group
//!   (flushed at [`ROW_GROUP_BYTES`]). `ETag` names the snapshot, the format and the
//!   dialect. Parquet is written once per snapshot into a cached file
//!   ([`super::table_file`]) and served from it with `Content-Length` and byte ranges
//!   ([`super::range`]), so that DuckDB, Polars and pyarrow read a footer and the row
//!   groups they need; its `ETag` names the snapshot and the file's sha256. `format=arrow`
//!   (`application/vnd.apache.arrow.stream`) is the Arrow IPC stream: with
//!   `compression=zstd` a cached file whose batches' buffers are compressed with zstd (the
//!   IPC format's own compression, decompressed on the reader's threads); else, to a
//!   client that accepts `Content-Encoding: zstd`, a cached file of the stream compressed
//!   whole; both sent as they are with `Content-Length` (no ranges); to others it is
//!   encoded as it is scanned.
//! - GRAPH: the named graph of the branch (or the snapshot graph of the version
//!   `version`) as Turtle, N-Triples or JSON-LD, with `Content-Length`; `ETag` is the
//!   sha256 of the document.
//! - other kinds (object storage): the bytes of the file (`path=` when the dataset has more
//!   than one) as the branch's head (or the version `version`) lists it, with
//!   `Content-Length`, `ETag` = its sha256, `Accept-Ranges`, single `Range` requests
//!   (206/416, `If-Range`) and `If-None-Match` (304).
//!
//! `HEAD` answers the headers of the `GET` (size included) without the body.
//!
//! `version` is a version of the branch `branch` only, never a branch or another branch's
//! version; an unknown `version` is 404 `dataset.not_found`.
//!
//! Every read is scoped by [`super::read::ReadScope`], which authorizes the branch and
//! resolves the version within it.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::{SinkExt, StreamExt};
use serde_json::Map;
use sha2::{Digest, Sha256};
use stone_api::{Engine, codes};

use super::App;
use super::dataset::{
    ReadScope, authorize_read, branch_of, dataset_info, kind_of, no_such_version, not_found_dataset,
};
use super::encode::{EncodeError, TableEncoder};
use super::negotiate::{
    ARROW_STREAM_MEDIA_TYPE, ArrowCompression, ContentFormat, PARQUET_MEDIA_TYPE, accepts_zstd,
    arrow_compression, choose_format, wants_json,
};
use super::page;
use super::range;
use super::table_file;
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};

/// Encoded chunks in flight between the encoder and the connection.
const CHANNEL_CHUNKS: usize = 4;

/// Response header naming the Iceberg snapshot a TABULAR answer was read from.
pub const SNAPSHOT_HEADER: &str = "stone-snapshot-id";

/// `GET /v1/namespaces/{namespace}/datasets/{name}/content?format=&branch=&version=&path=`.
pub async fn content(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, name)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let scope = ReadScope::authorize(&app, &caller, &namespace, &name, &query).await?;
    serve_content(&app, &namespace, &name, &scope, &query, &headers).await
}

/// `GET /{namespace}/{name}`: what the dataset IRI resolves to. The metadata JSON when
/// `Accept` prefers `application/json` (or `format=json`), else the content.
pub async fn iri_dataset(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, name)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    reserved(&namespace)?;
    if page::wants_html(&headers, &query) {
        let page = async {
            let scope = ReadScope::authorize(&app, &caller, &namespace, &name, &query).await?;
            page::dataset_page(&app, &namespace, &name, &scope, &headers).await
        };
        return Ok(page.await.unwrap_or_else(|error| {
            page::problem_page(error, &namespace, Some(&name), &branch_of(&query))
        }));
    }
    let scope = ReadScope::authorize(&app, &caller, &namespace, &name, &query).await?;
    if wants_json(&headers, &query) {
        let info = dataset_info(&app, &namespace, &name, &scope, None).await?;
        return Ok(Json(info).into_response());
    }
    serve_content(&app, &namespace, &name, &scope, &query, &headers).await
}

/// `GET /{namespace}`: the package node (branch `main` unless `branch=`); for a browser
/// (`Accept: text/html`), its page listing the datasets.
pub async fn iri_package(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(namespace): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    reserved(&namespace)?;
    let node = async {
        let branch = branch_of(&query);
        authorize_read(&app, &caller, &namespace, &branch).await?;
        app.db
            .package_node(&namespace, &branch)
            .await?
            .ok_or_else(|| {
                not_found_dataset(format!("namespace {namespace} has no package on {branch}"))
            })
    };
    if page::wants_html(&headers, &query) {
        return Ok(
            match node.await.and_then(|node| page::namespace_page(&node)) {
                Ok(page) => page,
                Err(error) => page::problem_page(error, &namespace, None, &branch_of(&query)),
            },
        );
    }
    Ok(Json(node.await?).into_response())
}

/// `/v1/…` is the API, never a namespace: unknown API paths stay `request.not_found`.
fn reserved(namespace: &str) -> ApiResult<()> {
    if namespace == "v1" {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            codes::REQUEST_NOT_FOUND,
            "Not found",
            "no such endpoint under /v1",
        ));
    }
    Ok(())
}

async fn serve_content(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let branch = scope.branch();
    let kind = kind_of(app, namespace, name, branch)
        .await?
        .ok_or_else(|| {
            not_found_dataset(format!("no dataset {namespace}/{name} on branch {branch}"))
        })?;
    let format = choose_format(kind, headers, query)?;
    let compression = arrow_compression(format, query)?;
    match kind.engine() {
        Engine::Iceberg => {
            serve_table(app, namespace, name, scope, format, compression, headers).await
        }
        Engine::Graph => serve_graph(app, namespace, name, scope, format, headers).await,
        Engine::ObjectStorage => {
            serve_blob(
                app,
                namespace,
                name,
                branch,
                scope.version(),
                query,
                headers,
            )
            .await
        }
    }
}

fn etag_matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|value| {
            value.split(',').any(|candidate| {
                let candidate = candidate.trim();
                candidate == "*" || candidate.trim_start_matches("W/") == etag
            })
        })
}

fn not_modified(etag: &str) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    if let Ok(value) = HeaderValue::from_str(etag) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

fn header_value(text: &str) -> ApiResult<HeaderValue> {
    HeaderValue::from_str(text).map_err(ApiError::internal)
}

async fn serve_table(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    format: ContentFormat,
    compression: ArrowCompression,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let iceberg = &app.engines.iceberg;
    let (branch, reference) = (scope.branch(), scope.table_ref());
    let snapshot = iceberg
        .snapshot_of(namespace, name, reference)
        .await
        .map_err(ApiError::internal)?;
    let Some(snapshot) = snapshot else {
        return Err(match scope.version() {
            Some(version) => no_such_version(namespace, name, branch, version),
            None => not_found_dataset(format!(
                "dataset {namespace}/{name} has no content on branch {branch}"
            )),
        });
    };
    let dialect = match format {
        ContentFormat::Csv | ContentFormat::Tsv => app
            .db
            .package_node(namespace, branch)
            .await?
            .and_then(|node| node.package.dialect)
            .unwrap_or_default(),
        _ => Map::new(),
    };
    let etag = {
        let mut hash = Sha256::new();
        hash.update(serde_json::to_vec(&dialect).unwrap_or_default());
        let short = hex::encode(&hash.finalize()[..6]);
        format!("\"{}-{}-{short}\"", snapshot.snapshot_id, format.name())
    };
    if format == ContentFormat::Parquet {
        return serve_table_file(app, namespace, name, snapshot.snapshot_id, headers).await;
    }
    if format == ContentFormat::Arrow {
        let cached = match compression {
            ArrowCompression::Buffers => Some(table_file::Cached::ArrowBuffersZstd),
            ArrowCompression::Negotiated if accepts_zstd(headers) => {
                Some(table_file::Cached::ArrowZstd)
            }
            ArrowCompression::Negotiated => None,
        };
        if let Some(cached) = cached {
            return serve_arrow_file(app, namespace, name, snapshot.snapshot_id, cached, headers)
                .await;
        }
    }
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let schema = iceberg
        .arrow_schema(namespace, name, reference)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| not_found_dataset(format!("dataset {namespace}/{name} is gone")))?;
    let batches = iceberg
        .scan(namespace, name, reference)
        .await
        .map_err(ApiError::internal)?;
    let table = format!("{namespace}.{name}@{reference}");
    let encoder = TableEncoder::new(format, &dialect, schema).map_err(ApiError::internal)?;
    let mut response =
        stream_encoded(format!("{namespace}/{name}"), table, encoder, batches).await?;
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, header_value(format.media_type())?);
    h.insert(header::ETAG, header_value(&etag)?);
    h.insert(
        SNAPSHOT_HEADER,
        header_value(&snapshot.snapshot_id.to_string())?,
    );
    if format == ContentFormat::Arrow {
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(response)
}

/// A table's Arrow answer from the snapshot's cached file ([`table_file::file_of`]), sent
/// as it is: `ArrowZstd` (the IPC stream compressed whole, to a client that accepts zstd)
/// with `Content-Encoding: zstd`; `ArrowBuffersZstd` (`compression=zstd`: the buffers
/// compressed inside the stream) without a `Content-Encoding`.
async fn serve_arrow_file(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
    kind: table_file::Cached,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let whole = kind == table_file::Cached::ArrowZstd;
    let cached = table_file::file_of(app, namespace, name, snapshot_id, kind);
    let file = match cached.await {
        Ok(file) => file,
        // As for Parquet (issue 54): a full disk degrades the answer, never refuses it.
        Err(error)
            if crate::outage::outage(&*error) == Some(crate::outage::Outage::StorageFull) =>
        {
            if !whole {
                // The stream the client asked for, its buffers compressed as it is scanned.
                tracing::warn!(table = %format!("{namespace}.{name}"), snapshot_id, error = %format!("{error:#}"), "the Arrow answer cannot be cached (disk full): streamed, its buffers compressed as it is scanned");
                return stream_uncached(
                    app,
                    namespace,
                    name,
                    snapshot_id,
                    ARROW_STREAM_MEDIA_TYPE,
                    TableEncoder::arrow_buffers_zstd,
                )
                .await;
            }
            tracing::warn!(table = %format!("{namespace}.{name}"), snapshot_id, error = %format!("{error:#}"), "the Arrow answer cannot be cached (disk full): streamed uncompressed");
            let mut response = stream_uncached(
                app,
                namespace,
                name,
                snapshot_id,
                ARROW_STREAM_MEDIA_TYPE,
                |schema| TableEncoder::new(ContentFormat::Arrow, &Map::new(), schema),
            )
            .await?;
            response
                .headers_mut()
                .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
            return Ok(response);
        }
        Err(error) => return Err(ApiError::internal(error)),
    }
    .ok_or_else(|| {
        not_found_dataset(format!(
            "dataset {namespace}/{name} changed while reading; try again"
        ))
    })?;
    let etag = format!(
        "\"{snapshot_id}-{}-{}\"",
        if whole {
            "arrow-zstd"
        } else {
            "arrow-zstd-buffers"
        },
        file.sha256.get(..16).unwrap_or(&file.sha256)
    );
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let stream = tokio_util::io::ReaderStream::with_capacity(file.file, 1 << 16);
    let mut response = range::counted(format!("{namespace}/{name}"), stream).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(file.size));
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("none"));
    if whole {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("zstd"));
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    h.insert(header::CONTENT_TYPE, header_value(ARROW_STREAM_MEDIA_TYPE)?);
    h.insert(header::ETAG, header_value(&etag)?);
    h.insert(SNAPSHOT_HEADER, header_value(&snapshot_id.to_string())?);
    Ok(response)
}

/// A table's rows encoded as they are scanned, streamed (no ranges). The first batch is
/// read and encoded before the answer starts: a table that cannot be read or written (a
/// failure of the server's own) is a 500 with its incident, not a 200 whose body stops
/// at once.
async fn stream_encoded<B, E>(
    dataset: String,
    table: String,
    mut encoder: TableEncoder,
    mut batches: B,
) -> ApiResult<Response>
where
    B: futures::Stream<Item = Result<arrow_array::RecordBatch, E>> + Send + Unpin + 'static,
    E: std::fmt::Display + Into<anyhow::Error> + Send,
{
    let first = match batches.next().await {
        Some(Ok(batch)) => Some(encoder.write(&batch).map_err(ApiError::internal)?),
        Some(Err(error)) => return Err(ApiError::internal(error)),
        None => None,
    };
    let (mut tx, rx) =
        futures::channel::mpsc::channel::<Result<bytes::Bytes, std::io::Error>>(CHANNEL_CHUNKS);
    tokio::spawn(async move {
        let failed = |error: String| {
            tracing::error!(table = %table, error = %error, "streaming a table failed");
            std::io::Error::other(error)
        };
        if let Some(chunk) = first.filter(|chunk| !chunk.is_empty())
            && tx.send(Ok(chunk)).await.is_err()
        {
            return; // the client went away
        }
        while let Some(batch) = batches.next().await {
            let chunk = batch
                .map_err(|e| e.to_string())
                .and_then(|batch| encoder.write(&batch).map_err(|e| e.to_string()));
            match chunk {
                Ok(chunk) if chunk.is_empty() => {}
                Ok(chunk) => {
                    if tx.send(Ok(chunk)).await.is_err() {
                        return; // the client went away
                    }
                }
                Err(error) => {
                    let _ = tx.send(Err(failed(error))).await;
                    return;
                }
            }
        }
        match encoder.finish() {
            Ok(chunk) => {
                let _ = tx.send(Ok(chunk)).await;
            }
            Err(error) => {
                let _ = tx.send(Err(failed(error.to_string()))).await;
            }
        }
    });
    let mut response = range::counted(dataset, rx).into_response();
    response
        .headers_mut()
        .insert(header::ACCEPT_RANGES, HeaderValue::from_static("none"));
    Ok(response)
}

/// A table's Parquet answer: the snapshot's cached file ([`table_file::parquet_of`]), whole
/// or one range of it.
async fn serve_table_file(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let file = match table_file::parquet_of(app, namespace, name, snapshot_id).await {
        Ok(file) => file,
        // The cache cannot be written (its disk is full): the answer is encoded as it is
        // sent, without ranges, rather than refused (issue 54: reads degrade, never 500).
        Err(error)
            if crate::outage::outage(&*error) == Some(crate::outage::Outage::StorageFull) =>
        {
            tracing::warn!(table = %format!("{namespace}.{name}"), snapshot_id, error = %format!("{error:#}"), "the Parquet answer cannot be cached (disk full): streamed without ranges");
            return stream_uncached(
                app,
                namespace,
                name,
                snapshot_id,
                PARQUET_MEDIA_TYPE,
                |schema| TableEncoder::new(ContentFormat::Parquet, &Map::new(), schema),
            )
            .await;
        }
        Err(error) => return Err(ApiError::internal(error)),
    }
    .ok_or_else(|| {
            not_found_dataset(format!(
                "dataset {namespace}/{name} changed while reading; try again"
            ))
        })?;
    // Tests remove the cached file here, as the sweep may.
    crate::test_hooks::test_pause("table-file-found").await;
    let etag = format!(
        "\"{snapshot_id}-parquet-{}\"",
        file.sha256.get(..16).unwrap_or(&file.sha256)
    );
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let range = match range::requested(headers, file.size, &etag) {
        range::Requested::Unsatisfiable => return Ok(range::unsatisfiable(file.size, &etag)),
        range::Requested::Whole => None,
        range::Requested::Part(range) => Some(range),
    };
    let mut opened = file.file;
    let (start, length) = match &range {
        Some(range) => (range.start, range.end - range.start),
        None => (0, file.size),
    };
    if start > 0 {
        use tokio::io::AsyncSeekExt;
        opened
            .seek(std::io::SeekFrom::Start(start))
            .await
            .map_err(ApiError::internal)?;
    }
    use tokio::io::AsyncReadExt;
    let stream = tokio_util::io::ReaderStream::with_capacity(opened.take(length), 1 << 16);
    let mut response = range::counted(format!("{namespace}/{name}"), stream).into_response();
    range::set_range_headers(&mut response, file.size, range.as_ref());
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, header_value(PARQUET_MEDIA_TYPE)?);
    h.insert(header::ETAG, header_value(&etag)?);
    h.insert(SNAPSHOT_HEADER, header_value(&snapshot_id.to_string())?);
    Ok(response)
}

/// A snapshot's Parquet (or Arrow) answer encoded (by `encoder`) as it is sent: no `ETag`
/// (the bytes are not known before they are sent), no ranges.
async fn stream_uncached(
    app: &App,
    namespace: &str,
    name: &str,
    snapshot_id: i64,
    media_type: &'static str,
    encoder: impl FnOnce(arrow_schema::SchemaRef) -> Result<TableEncoder, EncodeError>,
) -> ApiResult<Response> {
    let gone = || {
        not_found_dataset(format!(
            "dataset {namespace}/{name} changed while reading; try again"
        ))
    };
    let (schema, batches) = app
        .engines
        .iceberg
        .scan_snapshot(namespace, name, snapshot_id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(gone)?;
    let encoder = encoder(schema).map_err(ApiError::internal)?;
    let table = format!("{namespace}.{name}@{snapshot_id}");
    let mut response =
        stream_encoded(format!("{namespace}/{name}"), table, encoder, batches).await?;
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, header_value(media_type)?);
    h.insert(SNAPSHOT_HEADER, header_value(&snapshot_id.to_string())?);
    Ok(response)
}

async fn serve_graph(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    format: ContentFormat,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let (branch, version) = (scope.branch(), scope.version());
    let ContentFormat::Rdf(rdf) = format else {
        return Err(ApiError::internal(anyhow::anyhow!(
            "graph served as {format:?}"
        )));
    };
    let host = &app.settings.public_host;
    let iri = scope.graph_iri(host, namespace, name);
    let count = app
        .engines
        .graph
        .count(&iri)
        .await
        .map_err(ApiError::internal)?;
    if count == 0 {
        return Err(match version {
            Some(version) => no_such_version(namespace, name, branch, version),
            None => not_found_dataset(format!(
                "dataset {namespace}/{name} has no content on branch {branch}"
            )),
        });
    }
    // Spooled to disk by the engine, then streamed: no copy of the document in memory.
    // A turn among the exports first: the temporary disk holds at most
    // `GRAPH_EXPORTS` documents, however many connections read graphs.
    let turn = graph_export_turn().await?;
    let exported = app
        .engines
        .graph
        .export(&iri, rdf)
        .await
        .map_err(ApiError::internal)?;
    let etag = format!("\"{}\"", exported.sha256);
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let file = tokio::fs::File::from_std(exported.file);
    // The turn ends with the body (the spooled file is closed, and gone, then).
    let stream = futures::StreamExt::map(
        tokio_util::io::ReaderStream::with_capacity(file, 1 << 16),
        move |chunk| {
            let _turn = &turn;
            chunk
        },
    );
    let mut response = range::counted(format!("{namespace}/{name}"), stream).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, header_value(rdf.media_type())?);
    h.insert(
        header::CONTENT_LENGTH,
        header::HeaderValue::from(exported.size),
    );
    h.insert(header::ETAG, header_value(&etag)?);
    Ok(response)
}

/// Graph documents spooled at once, at most (issue 52, hole 7): a read writes the whole
/// graph to an unnamed temporary file before its first byte goes out (for its `ETag` and
/// length), so without a bound every connection could hold a copy of the largest graph.
pub const GRAPH_EXPORTS: usize = 4;
/// How long a graph read waits for a turn before it is answered 503 (run again).
const GRAPH_EXPORT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// A turn among the [`GRAPH_EXPORTS`] (per process), or 503 after [`GRAPH_EXPORT_WAIT`].
async fn graph_export_turn() -> ApiResult<tokio::sync::OwnedSemaphorePermit> {
    static TURNS: std::sync::OnceLock<Arc<tokio::sync::Semaphore>> = std::sync::OnceLock::new();
    let turns = TURNS
        .get_or_init(|| Arc::new(tokio::sync::Semaphore::new(GRAPH_EXPORTS)))
        .clone();
    match tokio::time::timeout(GRAPH_EXPORT_WAIT, turns.acquire_owned()).await {
        Ok(Ok(turn)) => Ok(turn),
        _ => Err(ApiError::unavailable(format!(
            "{GRAPH_EXPORTS} graph documents are being prepared for other readers; run the read again"
        ))),
    }
}

async fn serve_blob(
    app: &App,
    namespace: &str,
    name: &str,
    branch: &str,
    version: Option<&str>,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
) -> ApiResult<Response> {
    let blob = &app.engines.blob;
    let head = match version {
        Some(version) => blob
            .version(namespace, name, branch, version)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| no_such_version(namespace, name, branch, version))?,
        None => blob
            .head(namespace, name, branch)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| {
                not_found_dataset(format!(
                    "dataset {namespace}/{name} has no content on branch {branch}"
                ))
            })?,
    };
    let entry = match query.get("path").filter(|p| !p.is_empty()) {
        Some(path) => head.files.iter().find(|f| &f.path == path).ok_or_else(|| {
            not_found_dataset(format!("dataset {namespace}/{name} has no file {path}"))
        })?,
        None => match head.files.as_slice() {
            [one] => one,
            files => {
                let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
                return Err(ApiError::invalid_field(
                    "path",
                    format!(
                        "dataset {namespace}/{name} has {} files; name one with path= (see the dataset's metadata)",
                        files.len()
                    ),
                )
                .with("paths", paths));
            }
        },
    };
    let etag = format!("\"{}\"", entry.sha256);
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let size = entry.size;
    let range = match range::requested(headers, size, &etag) {
        range::Requested::Unsatisfiable => return Ok(range::unsatisfiable(size, &etag)),
        range::Requested::Whole => None,
        range::Requested::Part(range) => Some(range),
    };
    let read = match (&range, size) {
        // An empty file has no byte range to ask for.
        (_, 0) => None,
        (range, _) => blob
            .get_at(namespace, name, branch, version, &entry.path, range.clone())
            .await
            .map_err(ApiError::internal)?,
    };
    let body = match read {
        None if size == 0 => Body::empty(),
        None => {
            return Err(not_found_dataset(format!(
                "dataset {namespace}/{name} changed while reading; try again"
            )));
        }
        Some(read) => {
            let stream = read
                .stream
                .map(|chunk| chunk.map_err(std::io::Error::other));
            range::counted(format!("{namespace}/{name}"), stream)
        }
    };
    let mut response = body.into_response();
    range::set_range_headers(&mut response, size, range.as_ref());
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        header_value("application/octet-stream")?,
    );
    h.insert(header::ETAG, header_value(&etag)?);
    let file_name = entry.path.rsplit('/').next().unwrap_or(&entry.path);
    if file_name
        .chars()
        .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\')
    {
        h.insert(
            header::CONTENT_DISPOSITION,
            header_value(&format!("attachment; filename=\"{file_name}\""))?,
        );
    }
    Ok(response)
}
