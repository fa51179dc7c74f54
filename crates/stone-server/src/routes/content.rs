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
//!   groups they need; its `ETag` names the snapshot and the file's sha256.
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
use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::{SinkExt, StreamExt};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use stone_api::{AssetKind, Engine, codes};

use super::App;
use super::page;
use super::range;
use super::read::{ReadScope, authorize_read, branch_of, dataset_info, kind_of, not_found_dataset};
use super::table_file;
use crate::auth::Caller;
use crate::engines::graph::RdfFormat;
use crate::error::{ApiError, ApiResult};

/// A Parquet row group is written out once its encoded size passes this.
const ROW_GROUP_BYTES: usize = 16 << 20;
/// Encoded chunks in flight between the encoder and the connection.
const CHANNEL_CHUNKS: usize = 4;
/// Media type of Parquet (registered 2024).
const PARQUET_MEDIA_TYPE: &str = "application/vnd.apache.parquet";
/// Response header naming the Iceberg snapshot a TABULAR answer was read from.
pub const SNAPSHOT_HEADER: &str = "stone-snapshot-id";

/// A format the content endpoint serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentFormat {
    Parquet,
    Csv,
    Tsv,
    Rdf(RdfFormat),
    /// The stored bytes (object storage).
    Bytes,
}

impl ContentFormat {
    /// The `format=` value.
    pub fn name(self) -> &'static str {
        match self {
            Self::Parquet => "parquet",
            Self::Csv => "csv",
            Self::Tsv => "tsv",
            Self::Rdf(format) => format.extension(),
            Self::Bytes => "bytes",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Some(match text.to_ascii_lowercase().as_str() {
            "parquet" => Self::Parquet,
            "csv" => Self::Csv,
            "tsv" => Self::Tsv,
            "ttl" | "turtle" => Self::Rdf(RdfFormat::Turtle),
            "nt" | "ntriples" | "n-triples" => Self::Rdf(RdfFormat::NTriples),
            "jsonld" | "json-ld" => Self::Rdf(RdfFormat::JsonLd),
            "bytes" | "raw" => Self::Bytes,
            _ => return None,
        })
    }

    fn from_media_type(media_type: &str) -> Option<Self> {
        match media_type {
            PARQUET_MEDIA_TYPE | "application/x-parquet" | "application/parquet" => {
                Some(Self::Parquet)
            }
            "text/csv" => Some(Self::Csv),
            "text/tab-separated-values" => Some(Self::Tsv),
            "application/octet-stream" => Some(Self::Bytes),
            other => RdfFormat::from_media_type(other)
                .filter(|_| other != "text/plain")
                .map(Self::Rdf),
        }
    }

    fn media_type(self) -> &'static str {
        match self {
            Self::Parquet => PARQUET_MEDIA_TYPE,
            Self::Csv => "text/csv; charset=utf-8",
            Self::Tsv => "text/tab-separated-values; charset=utf-8",
            Self::Rdf(format) => format.media_type(),
            Self::Bytes => "application/octet-stream",
        }
    }

    /// The formats a kind is served in, the default first.
    pub fn for_kind(kind: AssetKind) -> &'static [ContentFormat] {
        match kind.engine() {
            Engine::Iceberg => &[Self::Csv, Self::Parquet, Self::Tsv],
            Engine::Graph => &[
                Self::Rdf(RdfFormat::Turtle),
                Self::Rdf(RdfFormat::NTriples),
                Self::Rdf(RdfFormat::JsonLd),
            ],
            Engine::ObjectStorage => &[Self::Bytes],
        }
    }
}

/// The media types of an `Accept` header, best first (`q=0` dropped; stable for ties).
pub(super) fn accepted(headers: &HeaderMap) -> Vec<String> {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return Vec::new();
    };
    let mut ranked: Vec<(f32, usize, String)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(i, item)| {
            let mut parts = item.split(';');
            let media = parts.next()?.trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (!media.is_empty() && q > 0.0).then_some((q, i, media))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.into_iter().map(|(_, _, m)| m).collect()
}

/// Whether the client asks for the metadata JSON rather than the content (IRI form).
fn wants_json(headers: &HeaderMap, query: &HashMap<String, String>) -> bool {
    if query.contains_key("format") {
        return query.get("format").is_some_and(|f| f == "json");
    }
    accepted(headers)
        .first()
        .is_some_and(|m| m == "application/json")
}

/// Picks the format: `format=` first, else the best `Accept` match the kind serves, else
/// the kind's default. 406 when nothing fits.
fn choose_format(
    kind: AssetKind,
    headers: &HeaderMap,
    query: &HashMap<String, String>,
) -> ApiResult<ContentFormat> {
    let served = ContentFormat::for_kind(kind);
    let refuse = |asked: &str| {
        ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            codes::REQUEST_NOT_ACCEPTABLE,
            "Not acceptable",
            format!(
                "a {kind} dataset cannot be served as {asked}; it is served as {}",
                names(served).join(", ")
            ),
        )
        .with("formats", names(served))
    };
    if let Some(asked) = query.get("format").filter(|f| !f.is_empty()) {
        let format = ContentFormat::parse(asked).ok_or_else(|| {
            ApiError::invalid_field(
                "format",
                format!(
                    "unknown format `{asked}`; use parquet, csv, tsv, ttl, nt, jsonld or bytes"
                ),
            )
        })?;
        return if served.contains(&format) {
            Ok(format)
        } else {
            Err(refuse(asked))
        };
    }
    let media_types = accepted(headers);
    if media_types.is_empty() {
        return Ok(served[0]);
    }
    for media in &media_types {
        if media == "*/*" || media.ends_with("/*") {
            return Ok(served[0]);
        }
        if let Some(format) = ContentFormat::from_media_type(media)
            && served.contains(&format)
        {
            return Ok(format);
        }
    }
    Err(refuse(&media_types.join(", ")))
}

fn names(formats: &[ContentFormat]) -> Vec<&'static str> {
    formats.iter().map(|f| f.name()).collect()
}

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
    match kind.engine() {
        Engine::Iceberg => serve_table(app, namespace, name, scope, format, headers).await,
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

/// 404 for a version the dataset does not have on the branch.
pub(super) fn no_such_version(
    namespace: &str,
    name: &str,
    branch: &str,
    version: &str,
) -> ApiError {
    not_found_dataset(format!(
        "dataset {namespace}/{name} has no version {version} on branch {branch}; its metadata lists its versions"
    ))
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
    if etag_matches(headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let schema = iceberg
        .arrow_schema(namespace, name, reference)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| not_found_dataset(format!("dataset {namespace}/{name} is gone")))?;
    let mut batches = iceberg
        .scan(namespace, name, reference)
        .await
        .map_err(ApiError::internal)?;
    let mut encoder = TableEncoder::new(format, &dialect, schema).map_err(ApiError::internal)?;
    let (mut tx, rx) =
        futures::channel::mpsc::channel::<Result<bytes::Bytes, std::io::Error>>(CHANNEL_CHUNKS);
    let table = format!("{namespace}.{name}@{reference}");
    tokio::spawn(async move {
        let failed = |error: String| {
            tracing::error!(table = %table, error = %error, "streaming a table failed");
            std::io::Error::other(error)
        };
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
    let dataset = format!("{namespace}/{name}");
    let mut response = range::counted(dataset, rx).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, header_value(format.media_type())?);
    h.insert(header::ETAG, header_value(&etag)?);
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("none"));
    h.insert(
        SNAPSHOT_HEADER,
        header_value(&snapshot.snapshot_id.to_string())?,
    );
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
    let file = table_file::parquet_of(app, namespace, name, snapshot_id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            not_found_dataset(format!(
                "dataset {namespace}/{name} changed while reading; try again"
            ))
        })?;
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
    let mut opened = tokio::fs::File::open(&file.path)
        .await
        .map_err(ApiError::internal)?;
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

/// A `Write` whose bytes are taken out after each batch.
#[derive(Clone, Default)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    fn take(&self) -> bytes::Bytes {
        let mut buffer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        bytes::Bytes::from(std::mem::take(&mut *buffer))
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        buffer.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Writer {
    Parquet(Box<parquet::arrow::ArrowWriter<SharedBuffer>>),
    Csv(Box<arrow_csv::Writer<SharedBuffer>>),
}

/// Arrow batches → Parquet or CSV/TSV chunks.
pub(super) struct TableEncoder {
    buffer: SharedBuffer,
    writer: Writer,
}

#[derive(Debug, thiserror::Error)]
pub(super) enum EncodeError {
    #[error(transparent)]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
}

impl TableEncoder {
    pub(super) fn new(
        format: ContentFormat,
        dialect: &Map<String, Value>,
        schema: arrow_schema::SchemaRef,
    ) -> Result<Self, EncodeError> {
        let buffer = SharedBuffer::default();
        let writer = match format {
            ContentFormat::Parquet => {
                let properties = parquet::file::properties::WriterProperties::builder()
                    .set_compression(parquet::basic::Compression::ZSTD(Default::default()))
                    .build();
                Writer::Parquet(Box::new(parquet::arrow::ArrowWriter::try_new(
                    buffer.clone(),
                    schema,
                    Some(properties),
                )?))
            }
            _ => Writer::Csv(Box::new(csv_builder(format, dialect).build(buffer.clone()))),
        };
        Ok(Self { buffer, writer })
    }

    pub(super) fn write(
        &mut self,
        batch: &arrow_array::RecordBatch,
    ) -> Result<bytes::Bytes, EncodeError> {
        match &mut self.writer {
            Writer::Parquet(writer) => {
                writer.write(batch)?;
                if writer.in_progress_size() > ROW_GROUP_BYTES {
                    writer.flush()?;
                }
            }
            Writer::Csv(writer) => writer.write(batch)?,
        }
        Ok(self.buffer.take())
    }

    pub(super) fn finish(self) -> Result<bytes::Bytes, EncodeError> {
        match self.writer {
            Writer::Parquet(writer) => {
                writer.close()?;
            }
            Writer::Csv(writer) => {
                let mut inner = writer.into_inner();
                let _ = inner.flush();
            }
        }
        Ok(self.buffer.take())
    }
}

fn dialect_char(dialect: &Map<String, Value>, key: &str) -> Option<u8> {
    let text = dialect.get(key)?.as_str()?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii() => Some(c as u8),
        _ => None,
    }
}

/// The CSV writer of the package dialect (`publish.dialect`, as the push recorded it:
/// `delimiter`, `quote_char`, `line_terminator`, `header`, `double_quote`, `escape_char`,
/// `null_sequence`, `quoting`). TSV defaults to a tab delimiter.
fn csv_builder(format: ContentFormat, dialect: &Map<String, Value>) -> arrow_csv::WriterBuilder {
    use arrow_csv::QuoteStyle;
    use arrow_csv::writer::Terminator;
    let default_delimiter = if format == ContentFormat::Tsv {
        b'\t'
    } else {
        b','
    };
    // A TSV keeps its tab even when the package dialect names another delimiter.
    let delimiter = match format {
        ContentFormat::Tsv => b'\t',
        _ => dialect_char(dialect, "delimiter").unwrap_or(default_delimiter),
    };
    let mut builder = arrow_csv::WriterBuilder::new()
        .with_delimiter(delimiter)
        .with_header(
            dialect
                .get("header")
                .and_then(Value::as_bool)
                .unwrap_or(true),
        );
    if let Some(quote) = dialect_char(dialect, "quote_char") {
        builder = builder.with_quote(quote);
    }
    if let Some(double_quote) = dialect.get("double_quote").and_then(Value::as_bool) {
        builder = builder.with_double_quote(double_quote);
    }
    if let Some(escape) = dialect_char(dialect, "escape_char") {
        builder = builder.with_escape(escape);
    }
    if let Some(null) = dialect.get("null_sequence").and_then(Value::as_str) {
        builder = builder.with_null(null.to_owned());
    }
    match dialect.get("line_terminator").and_then(Value::as_str) {
        Some("\r\n") => builder = builder.with_line_terminator(Terminator::CRLF),
        Some("\r") => builder = builder.with_line_terminator(Terminator::Any(b'\r')),
        _ => {}
    }
    let style = match dialect.get("quoting").and_then(Value::as_str) {
        Some("all") => QuoteStyle::Always,
        Some("nonnumeric") => QuoteStyle::NonNumeric,
        Some("none") => QuoteStyle::Never,
        _ => QuoteStyle::Necessary,
    };
    builder.with_quote_style(style)
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
    let stream = tokio_util::io::ReaderStream::with_capacity(file, 1 << 16);
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

/// The formats of [`DatasetInfo::formats`].
pub fn format_names(kind: AssetKind) -> Vec<String> {
    names(ContentFormat::for_kind(kind))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_format_then_accept_then_the_default() {
        let query = |f: &str| HashMap::from([("format".to_owned(), f.to_owned())]);
        let accept = |a: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, HeaderValue::from_str(a).unwrap());
            h
        };
        let none = HashMap::new();
        let tab = AssetKind::Tabular;
        assert_eq!(
            choose_format(tab, &HeaderMap::new(), &none).unwrap(),
            ContentFormat::Csv
        );
        assert_eq!(
            choose_format(tab, &HeaderMap::new(), &query("parquet")).unwrap(),
            ContentFormat::Parquet
        );
        assert_eq!(
            choose_format(
                tab,
                &accept("text/html;q=0.9, text/tab-separated-values"),
                &none
            )
            .unwrap(),
            ContentFormat::Tsv
        );
        assert_eq!(
            choose_format(AssetKind::Graph, &accept("application/n-triples"), &none).unwrap(),
            ContentFormat::Rdf(RdfFormat::NTriples)
        );
        let refused =
            choose_format(AssetKind::Graph, &HeaderMap::new(), &query("csv")).unwrap_err();
        assert_eq!(refused.problem.status, 406);
        let unknown = choose_format(tab, &HeaderMap::new(), &query("xlsx")).unwrap_err();
        assert_eq!(unknown.problem.status, 400);
        assert!(choose_format(tab, &accept("image/png"), &none).is_err());
    }

    #[test]
    fn csv_follows_the_package_dialect() {
        let dialect: Map<String, Value> = serde_json::from_value(serde_json::json!({
            "delimiter": ";", "quoting": "all", "line_terminator": "\r\n"
        }))
        .unwrap();
        let schema = Arc::new(arrow_schema::Schema::new(vec![
            arrow_schema::Field::new("id", arrow_schema::DataType::Int64, false),
            arrow_schema::Field::new("name", arrow_schema::DataType::Utf8, true),
        ]));
        let batch = arrow_array::RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(arrow_array::Int64Array::from(vec![1, 2])),
                Arc::new(arrow_array::StringArray::from(vec![Some("a;b"), None])),
            ],
        )
        .unwrap();
        let mut encoder = TableEncoder::new(ContentFormat::Csv, &dialect, schema).unwrap();
        let mut out = encoder.write(&batch).unwrap().to_vec();
        out.extend_from_slice(&encoder.finish().unwrap());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\"id\";\"name\"\r\n\"1\";\"a;b\"\r\n\"2\";\"\"\r\n"
        );
    }
}
