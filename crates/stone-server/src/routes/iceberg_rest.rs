//! The Iceberg REST catalog, read side, at `/iceberg` (clients append the spec's
//! `/v1/...` paths: `RestCatalog(uri="<server>/iceberg")`).
//!
//! What a caller sees is what the rest of the API lets it read, decided by the same
//! checks ([`crate::authz::Authorizer::may_read`], [`crate::authz::Authorizer::authorize_read`]): privacy is per
//! namespace and branch, so a table is listed and loadable when the caller may read at
//! least one of its branches, and `loadTable` shows only those branches, their versions
//! (tags `<branch>@<version>`) and the snapshots reachable from them
//! ([`crate::engines::iceberg::TableView::metadata_for`]). A namespace is listed when its
//! package on `main` is readable or one of its tables is.
//!
//! Writes (create, commit, rename, drop, namespace changes) are refused with 403 and
//! `iceberg.read_only`: pushes are the one way in. Errors on these routes are the REST
//! spec's `ErrorModel` (`{"error": {"message", "type", "code"}}`), which REST clients
//! parse, with stone's dotted code as the extra member `stone_code`.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use stone_api::codes;

use super::App;
use crate::auth::Caller;
use crate::engines::iceberg::TableView;
use crate::error::ApiError;

/// The separator of the levels of a namespace in a path (REST spec); stone namespaces
/// have one level.
const NAMESPACE_SEPARATOR: char = '\u{1f}';

/// An error of the catalog routes, rendered as the REST spec's `ErrorModel`.
#[derive(Debug)]
pub struct RestError(ApiError);

impl From<ApiError> for RestError {
    fn from(error: ApiError) -> Self {
        Self(error)
    }
}

type RestResult<T> = Result<T, RestError>;

impl IntoResponse for RestError {
    fn into_response(self) -> Response {
        let status = self.0.status();
        let problem = &self.0.problem;
        let message = match &problem.detail {
            Some(detail) => detail.clone(),
            None => problem.title.clone(),
        };
        let kind = match status.as_u16() {
            400 => "BadRequestException",
            401 => "NotAuthorizedException",
            403 => "ForbiddenException",
            404 if problem.code == codes::DATASET_NOT_FOUND => "NoSuchTableException",
            404 => "NoSuchNamespaceException",
            405 => "MethodNotAllowedException",
            503 => "ServiceUnavailableException",
            _ => "ServerErrorException",
        };
        let body = json!({
            "error": {
                "message": message,
                "type": kind,
                "code": status.as_u16(),
                "stone_code": problem.code,
            }
        });
        // The problem's own rendering logs it and sets its headers (WWW-Authenticate).
        let mut response = self.0.into_response();
        *response.body_mut() = axum::body::Body::from(body.to_string());
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response.headers_mut().remove(header::CONTENT_LENGTH);
        response
    }
}

/// What `GET /iceberg/v1/config` lists as supported: the read endpoints only, so that
/// clients which honour the list do not even try a write.
const ENDPOINTS: &[&str] = &[
    "GET /v1/{prefix}/namespaces",
    "GET /v1/{prefix}/namespaces/{namespace}",
    "HEAD /v1/{prefix}/namespaces/{namespace}",
    "GET /v1/{prefix}/namespaces/{namespace}/tables",
    "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
    "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
];

/// `GET /iceberg/v1/config[?warehouse=…]`: no prefix, no overrides; the `warehouse` a
/// client passes is ignored (the server has one).
pub async fn config() -> Json<Value> {
    Json(json!({
        "defaults": {},
        "overrides": {},
        "endpoints": ENDPOINTS,
    }))
}

fn no_such_namespace(namespace: &str) -> RestError {
    RestError(ApiError::new(
        StatusCode::NOT_FOUND,
        codes::REQUEST_NOT_FOUND,
        "No such namespace",
        format!("the Iceberg catalog has no namespace {namespace:?}"),
    ))
}

fn no_such_table(namespace: &str, table: &str) -> RestError {
    RestError(ApiError::new(
        StatusCode::NOT_FOUND,
        codes::DATASET_NOT_FOUND,
        "No such table",
        format!("namespace {namespace} has no table {table:?}"),
    ))
}

/// The one namespace level of a path segment (`None` for a multi-level namespace, which
/// stone does not have).
fn single_level(namespace: &str) -> Option<&str> {
    (!namespace.is_empty() && !namespace.contains(NAMESPACE_SEPARATOR)).then_some(namespace)
}

/// Which of `branches` of `namespace` the caller may read.
async fn readable_branches(
    app: &App,
    caller: &Caller,
    namespace: &str,
    branches: &[String],
) -> RestResult<BTreeSet<String>> {
    let mut readable = BTreeSet::new();
    for branch in branches {
        if app
            .authz
            .may_read(&app.db, caller.0.as_ref(), namespace, branch)
            .await?
        {
            readable.insert(branch.clone());
        }
    }
    Ok(readable)
}

/// The tables of `namespace` the caller may read (at least one branch of each);
/// `None` when the catalog has no such namespace.
async fn readable_tables(
    app: &App,
    caller: &Caller,
    namespace: &str,
) -> RestResult<Option<Vec<String>>> {
    let iceberg = &app.engines.iceberg;
    let Some(tables) = iceberg
        .tables(namespace)
        .await
        .map_err(ApiError::internal)?
    else {
        return Ok(None);
    };
    let mut readable = Vec::new();
    for table in tables {
        let Some(view) = iceberg
            .table_view(namespace, &table)
            .await
            .map_err(ApiError::internal)?
        else {
            continue;
        };
        if !readable_branches(app, caller, namespace, &view.branches)
            .await?
            .is_empty()
        {
            readable.push(table);
        }
    }
    Ok(Some(readable))
}

/// The namespace, if the caller may see it (its package on `main` or one of its tables
/// is readable): its readable tables. A namespace the caller may not see is refused as
/// the rest of the API refuses it (401 without a token, 403 with one), whether or not it
/// exists, so that a refusal tells nothing; one that does not exist is 404 to a caller
/// with read access.
async fn visible_namespace(app: &App, caller: &Caller, namespace: &str) -> RestResult<Vec<String>> {
    let Some(namespace) = single_level(namespace) else {
        return Err(no_such_namespace(namespace));
    };
    let main_readable = app
        .authz
        .may_read(&app.db, caller.0.as_ref(), namespace, "main")
        .await?;
    match readable_tables(app, caller, namespace).await? {
        Some(tables) if main_readable || !tables.is_empty() => Ok(tables),
        None if main_readable => Err(no_such_namespace(namespace)),
        _ => {
            super::dataset::authorize_read(app, caller, namespace, "main").await?;
            Err(no_such_namespace(namespace))
        }
    }
}

/// `GET /iceberg/v1/namespaces[?parent=…]`: the namespaces the caller may see. Stone
/// namespaces have one level: a `parent` has no children.
pub async fn list_namespaces(
    State(app): State<Arc<App>>,
    caller: Result<Caller, ApiError>,
    Query(query): Query<HashMap<String, String>>,
) -> RestResult<Json<Value>> {
    let caller = caller?;
    if let Some(parent) = query.get("parent").filter(|p| !p.is_empty()) {
        visible_namespace(&app, &caller, parent).await?;
        return Ok(Json(json!({ "namespaces": [] })));
    }
    let mut visible = Vec::new();
    for namespace in app
        .engines
        .iceberg
        .namespaces()
        .await
        .map_err(ApiError::internal)?
    {
        let main_readable = app
            .authz
            .may_read(&app.db, caller.0.as_ref(), &namespace, "main")
            .await?;
        if main_readable
            || readable_tables(&app, &caller, &namespace)
                .await?
                .is_some_and(|tables| !tables.is_empty())
        {
            visible.push(json!([namespace]));
        }
    }
    Ok(Json(json!({ "namespaces": visible })))
}

/// `GET|HEAD /iceberg/v1/namespaces/{namespace}`.
pub async fn namespace(
    State(app): State<Arc<App>>,
    caller: Result<Caller, ApiError>,
    Path(namespace): Path<String>,
) -> RestResult<Json<Value>> {
    let caller = caller?;
    visible_namespace(&app, &caller, &namespace).await?;
    Ok(Json(json!({ "namespace": [namespace], "properties": {} })))
}

/// `GET /iceberg/v1/namespaces/{namespace}/tables`: the tables the caller may read.
pub async fn list_tables(
    State(app): State<Arc<App>>,
    caller: Result<Caller, ApiError>,
    Path(namespace): Path<String>,
) -> RestResult<Json<Value>> {
    let caller = caller?;
    let tables = visible_namespace(&app, &caller, &namespace).await?;
    let identifiers: Vec<Value> = tables
        .iter()
        .map(|table| json!({ "namespace": [namespace], "name": table }))
        .collect();
    Ok(Json(json!({ "identifiers": identifiers })))
}

/// The table, if the caller may read at least one of its branches: its view and the
/// branches the caller may read. A table with no branch the caller may read is answered
/// byte for byte as a missing one (by the same code: the namespace's refusal, 401/403,
/// or 404 when the caller may see the namespace), so that no answer tells which private
/// tables or branches exist.
async fn readable_table(
    app: &App,
    caller: &Caller,
    namespace: &str,
    table: &str,
) -> RestResult<(TableView, BTreeSet<String>)> {
    let Some(ns) = single_level(namespace) else {
        return Err(no_such_namespace(namespace));
    };
    let view = app
        .engines
        .iceberg
        .table_view(ns, table)
        .await
        .map_err(ApiError::internal)?;
    let found = match view {
        Some(view) => {
            let readable = readable_branches(app, caller, ns, &view.branches).await?;
            (!readable.is_empty()).then_some((view, readable))
        }
        None => None,
    };
    match found {
        Some(found) => Ok(found),
        None => {
            visible_namespace(app, caller, ns).await?;
            Err(no_such_table(ns, table))
        }
    }
}

/// `GET|HEAD /iceberg/v1/namespaces/{namespace}/tables/{table}`: `LoadTableResult` with
/// the metadata restricted to the branches the caller may read. On an S3 warehouse a
/// reader needs no storage keys: a client that asks for vended credentials
/// (`X-Iceberg-Access-Delegation: vended-credentials`, DuckDB) and may read every branch
/// gets temporary read-only credentials of the table's prefix ([`vended_config`]);
/// otherwise `config` turns on remote signing through this table's signer ([`sign`]).
pub async fn load_table(
    State(app): State<Arc<App>>,
    caller: Result<Caller, ApiError>,
    Path((namespace, table)): Path<(String, String)>,
    headers: axum::http::HeaderMap,
) -> RestResult<Json<Value>> {
    let caller = caller?;
    let (view, readable) = readable_table(&app, &caller, &namespace, &table).await?;
    let metadata = view.metadata_for(&readable).map_err(ApiError::internal)?;
    if let Some(config) = vended_config(&app, &headers, &view, &readable).await {
        return Ok(Json(json!({
            "metadata-location": view.metadata_location,
            "metadata": metadata,
            "config": config.clone(),
            "storage-credentials": [{"prefix": view.location, "config": config}],
        })));
    }
    let mut config = serde_json::Map::new();
    if let Some(s3) = app.engines.iceberg.s3_settings() {
        let region = if s3.region.is_empty() {
            "us-east-1"
        } else {
            s3.region.as_str()
        };
        for (key, value) in [
            ("s3.remote-signing-enabled", "true"),
            // pyiceberg: only its fsspec FileIO signs remotely (pyarrow's cannot).
            ("py-io-impl", "pyiceberg.io.fsspec.FsspecFileIO"),
            ("s3.signer", "S3V4RestSigner"),
            ("s3.region", region),
        ] {
            config.insert(key.to_owned(), value.into());
        }
        // Relative to the catalog URI the client uses (`s3.signer.uri` defaults to it).
        config.insert(
            "s3.signer.endpoint".to_owned(),
            format!("v1/namespaces/{namespace}/tables/{table}/sign").into(),
        );
        if let Some(endpoint) = &s3.endpoint {
            config.insert("s3.endpoint".to_owned(), endpoint.clone().into());
        }
    }
    Ok(Json(json!({
        "metadata-location": view.metadata_location,
        "metadata": metadata,
        "config": config,
    })))
}

/// The `config` of vended credentials ([`crate::vended`]) for a `loadTable` that asks for
/// them (`X-Iceberg-Access-Delegation` lists `vended-credentials`) on an S3 warehouse,
/// when the caller may read every branch of the table (the credentials read any object
/// under the table's location, metadata files included, which name every branch);
/// `None` otherwise, and when the store vends none (logged), so that the answer falls
/// back to remote signing.
async fn vended_config(
    app: &App,
    headers: &axum::http::HeaderMap,
    view: &TableView,
    readable: &BTreeSet<String>,
) -> Option<serde_json::Map<String, Value>> {
    let s3 = app.engines.iceberg.s3_settings()?;
    let asked = headers
        .get_all("x-iceberg-access-delegation")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|mode| mode.trim().eq_ignore_ascii_case("vended-credentials"));
    if !asked {
        return None;
    }
    if view.branches.iter().any(|b| !readable.contains(b)) {
        tracing::debug!(table = %view.location, "no vended credentials: the caller may not read every branch of the table");
        return None;
    }
    static HTTP: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    let http = HTTP.get_or_init(reqwest::Client::new);
    let credentials = match crate::vended::for_table(http, s3, &view.location).await {
        Ok(credentials) => credentials,
        Err(error) => {
            tracing::warn!(table = %view.location, %error, "no credentials vended for the table; the reader gets remote signing");
            return None;
        }
    };
    tracing::debug!(table = %view.location, access_key_id = %credentials.access_key_id, expiration = %credentials.expiration, "credentials vended");
    let region = if s3.region.is_empty() {
        "us-east-1"
    } else {
        s3.region.as_str()
    };
    let mut config = serde_json::Map::new();
    let expires_at_ms = chrono::DateTime::parse_from_rfc3339(&credentials.expiration)
        .map(|t| t.timestamp_millis().to_string())
        .ok();
    for (key, value) in [
        ("s3.access-key-id", Some(credentials.access_key_id)),
        ("s3.secret-access-key", Some(credentials.secret_access_key)),
        ("s3.session-token", Some(credentials.session_token)),
        ("s3.session-token-expires-at-ms", expires_at_ms),
        ("s3.region", Some(region.to_owned())),
        ("client.region", Some(region.to_owned())),
        ("s3.endpoint", s3.endpoint.clone()),
        // Path-style requests to an endpoint of its own (DuckDB also takes it to mean
        // plain http, see docs/readers.md).
        (
            "s3.path-style-access",
            s3.endpoint.as_ref().map(|_| "true".to_owned()),
        ),
        (
            "py-io-impl",
            Some("pyiceberg.io.fsspec.FsspecFileIO".to_owned()),
        ),
    ] {
        if let Some(value) = value {
            config.insert(key.to_owned(), value.into());
        }
    }
    Some(config)
}

/// What an S3 remote-signing client asks to have signed (the REST spec's
/// `S3SignRequest`).
#[derive(Debug, Deserialize)]
struct SignRequest {
    method: String,
    uri: String,
    /// The request's headers, each with its values.
    #[serde(default)]
    headers: HashMap<String, Vec<String>>,
}

fn sign_refused(detail: String) -> RestError {
    RestError(ApiError::new(
        StatusCode::FORBIDDEN,
        codes::ICEBERG_READ_ONLY,
        "Not signed",
        detail,
    ))
}

/// `POST /iceberg/v1/namespaces/{namespace}/tables/{table}/sign`: the S3 signer of a
/// table of an S3 warehouse. Signs only reads (`GET`, `HEAD`) of objects under the
/// table's location, except its metadata files (they list every ref; readers get the
/// metadata from `loadTable`), for a caller who may read the table, and for a caller who
/// may read only some of its branches, only the files of those branches' snapshots
/// ([`crate::engines::iceberg::TableView::readable_files`]); the answer is the
/// request's `uri` and the Signature V4 headers of that one request (S3 refuses them
/// after 15 minutes).
pub async fn sign(
    State(app): State<Arc<App>>,
    caller: Result<Caller, ApiError>,
    Path((namespace, table)): Path<(String, String)>,
    body: String,
) -> RestResult<Json<Value>> {
    let caller = caller?;
    let (view, readable) = readable_table(&app, &caller, &namespace, &table).await?;
    let Some(s3) = app.engines.iceberg.s3_settings() else {
        return Err(RestError(ApiError::invalid(
            "the warehouse is on the server's disk, not S3: there is nothing to sign (read the files by path)",
        )));
    };
    let request: SignRequest = serde_json::from_str(&body)
        .map_err(|e| ApiError::invalid(format!("not an S3 sign request: {e}")))?;
    tracing::debug!(method = %request.method, uri = %request.uri, headers = ?request.headers.keys().collect::<Vec<_>>(), "S3 sign request");
    let head = match request.method.as_str() {
        "GET" => false,
        "HEAD" => true,
        other => {
            return Err(sign_refused(format!(
                "{other} is not signed: the catalog signs reads (GET, HEAD) only; tables are written by pushes"
            )));
        }
    };
    let endpoint = s3
        .endpoint
        .as_deref()
        .map(|e| e.trim_end_matches('/').to_owned())
        .unwrap_or_else(|| format!("https://s3.{}.amazonaws.com", s3.region));
    let object_prefix = format!("{endpoint}/{}/", s3.bucket);
    let key = request
        .uri
        .strip_prefix(&object_prefix)
        .filter(|key| {
            !key.is_empty()
                && !key.contains(['?', '#', '%', '\\'])
                && key.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
        })
        .ok_or_else(|| {
            sign_refused(format!(
                "{} is not an object of the warehouse's bucket ({object_prefix}…) named without a query",
                request.uri
            ))
        })?;
    let location = format!("s3://{}/{key}", s3.bucket);
    let table_root = format!("{}/", view.location.trim_end_matches('/'));
    if !location.starts_with(&table_root) || location.ends_with(".metadata.json") {
        return Err(sign_refused(format!(
            "{location} is not a data or manifest file of {namespace}.{table}"
        )));
    }
    // A caller who may not read every branch gets only the files of the snapshots its
    // `loadTable` shows: a file of a branch it may not read is not signed, even named
    // by its exact key (content-addressed names are guessable from the content).
    if readable.len() < view.branches.len() {
        let files = app
            .engines
            .iceberg
            .readable_files(&view, &readable)
            .await
            .map_err(ApiError::internal)?;
        if !files.contains(&location) {
            return Err(sign_refused(format!(
                "{location} is not a file of the branches of {namespace}.{table} you may read"
            )));
        }
    }
    // Every `x-amz-*` header of the request is signed (S3 requires it); the ones this
    // answer sets are replaced, and no other may change what a read does.
    let mut amz_headers = Vec::new();
    for (name, values) in &request.headers {
        let name = name.to_ascii_lowercase();
        if !name.starts_with("x-amz-") || name == "x-amz-date" || name == "x-amz-content-sha256" {
            continue;
        }
        if !matches!(name.as_str(), "x-amz-checksum-mode" | "x-amz-request-payer")
            || values.iter().any(|v| v.contains(['\r', '\n']))
        {
            return Err(sign_refused(format!(
                "a read with the header {name} is not signed (only x-amz-checksum-mode and x-amz-request-payer are)"
            )));
        }
        amz_headers.push((name, values.join(",")));
    }
    let headers = app
        .engines
        .iceberg
        .sign_read(&endpoint, &location, head, &amz_headers, chrono::Utc::now())
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            ApiError::unavailable(
                "the S3 warehouse is reached with ambient credentials: remote signing needs [iceberg.s3] access_key_id and secret_access_key",
            )
        })?;
    let headers: serde_json::Map<String, Value> = headers
        .into_iter()
        .map(|(name, value)| (name.to_owned(), json!([value])))
        .collect();
    Ok(Json(json!({ "uri": request.uri, "headers": headers })))
}

/// Every write of the REST spec: 403 `iceberg.read_only`, whoever asks.
pub async fn refuse_write() -> RestError {
    RestError(ApiError::new(
        StatusCode::FORBIDDEN,
        codes::ICEBERG_READ_ONLY,
        "Read-only catalog",
        "the Iceberg REST catalog of stone is read-only: tables are written by pushes \
         (`stone push` of a data package), never through the catalog",
    ))
}
