//! Read access: `GET /v1/info`, `GET /v1/openapi.yaml`, the package node, what an engine
//! holds for a dataset, and a read-only SPARQL endpoint over the named graphs.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use stone_api::{
    API_VERSION, AssetKind, AuthMode, ColumnInfo, DatasetInfo, Engine, FileInfo, Identity,
    OPENAPI_YAML, OidcInfo, PackageNode, ServerInfo, StagingInfo, StepUp, codes,
};

use super::App;
use super::content;
use crate::auth::Caller;
use crate::engines::iceberg::TableRef;
use crate::error::{ApiError, ApiResult};
use crate::jobs::{dataset_urls, graph_iri, graph_version_iri, graph_versions};

/// `GET /v1/info`.
pub async fn info(State(app): State<Arc<App>>) -> Json<ServerInfo> {
    let staging = &app.settings.config.staging;
    let auth = &app.settings.config.auth;
    let oidc = app.verifier.as_ref().map(|verifier| OidcInfo {
        issuer: verifier.issuer().to_owned(),
        audience: auth.audience.clone().unwrap_or_default(),
        roles_claim: auth.roles_claim.clone(),
        step_up: StepUp {
            acr_values: auth.step_up.acr_values.clone(),
            max_age: auth.step_up.max_age,
        },
    });
    Json(ServerInfo {
        server_version: env!("CARGO_PKG_VERSION").to_owned(),
        api_version: API_VERSION.to_owned(),
        public_host: app.settings.public_host.clone(),
        protected_refs: app.guards.patterns().to_vec(),
        auth_mode: if oidc.is_some() {
            AuthMode::Oidc
        } else {
            AuthMode::Local
        },
        identity: oidc.is_none().then(|| Identity {
            user: app.principal.user.clone(),
            roles: app.principal.roles.clone(),
        }),
        oidc,
        staging: StagingInfo {
            store: app.staging.kind(),
            part_size: staging.part_size,
            url_ttl_seconds: staging.url_ttl_seconds,
        },
    })
}

/// `GET /v1/openapi.yaml`.
pub async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML).into_response()
}

/// The one read check, called by every read route: see [`crate::authz::authorize_read`].
pub async fn authorize_read(
    app: &App,
    caller: &Caller,
    namespace: &str,
    branch: &str,
) -> ApiResult<()> {
    crate::authz::authorize_read(app, caller, namespace, branch).await
}

/// What a read of a dataset may see, decided once per request: the branch the caller is
/// authorized to read and, optionally, a version OF THAT BRANCH. [`ReadScope::authorize`]
/// is the only way to make one, and it runs [`authorize_read`] on the branch; every
/// dataset read takes its branch and version from here and resolves the engine's ref
/// through it ([`ReadScope::table_ref`], [`ReadScope::graph_iri`]; object storage keeps
/// versions under the branch). So `version` never names a branch, nor a version another
/// branch holds.
#[derive(Debug, Clone)]
pub(super) struct ReadScope {
    branch: String,
    version: Option<String>,
}

impl ReadScope {
    /// The scope of a read of `namespace/name` asked with `query` (`branch=`, `version=`),
    /// once the caller may read the branch. A `version` no push could have given (the
    /// push API's rule: `[A-Za-z0-9_.+-]`, not starting with `.`, at most 255 bytes) names
    /// no version: 404, before it reaches an engine.
    pub(super) async fn authorize(
        app: &App,
        caller: &Caller,
        namespace: &str,
        name: &str,
        query: &HashMap<String, String>,
    ) -> ApiResult<Self> {
        let branch = branch_of(query);
        authorize_read(app, caller, namespace, &branch).await?;
        let version = match query.get("version").filter(|v| !v.is_empty()) {
            Some(version) if !stone_api::validate::is_version_name(version) => {
                return Err(content::no_such_version(namespace, name, &branch, version));
            }
            version => version.cloned(),
        };
        Ok(Self { branch, version })
    }

    /// The authorized branch.
    pub(super) fn branch(&self) -> &str {
        &self.branch
    }

    /// The version of the branch asked for, if any.
    pub(super) fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// The Iceberg ref: the branch's head, or the branch's version.
    pub(super) fn table_ref(&self) -> TableRef<'_> {
        TableRef::of(&self.branch, self.version.as_deref())
    }

    /// The named graph: the branch's graph, or the snapshot graph of the branch's version.
    pub(super) fn graph_iri(&self, public_host: &str, namespace: &str, name: &str) -> String {
        match &self.version {
            Some(version) => graph_version_iri(public_host, namespace, name, &self.branch, version),
            None => graph_iri(public_host, namespace, name, &self.branch),
        }
    }
}

/// The `branch` query parameter; `main` when absent.
pub(super) fn branch_of(query: &HashMap<String, String>) -> String {
    query
        .get("branch")
        .filter(|b| !b.is_empty())
        .cloned()
        .unwrap_or_else(|| "main".to_owned())
}

fn not_found(detail: String) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::REQUEST_NOT_FOUND,
        "Not found",
        detail,
    )
}

/// 404 `dataset.not_found`.
pub(super) fn not_found_dataset(detail: String) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::DATASET_NOT_FOUND,
        "No such dataset",
        detail,
    )
}

/// `GET /v1/namespaces/{namespace}/package[?branch=…]`.
pub async fn package_node(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(namespace): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<PackageNode>> {
    let branch = branch_of(&query);
    authorize_read(&app, &caller, &namespace, &branch).await?;
    app.db
        .package_node(&namespace, &branch)
        .await?
        .map(Json)
        .ok_or_else(|| not_found(format!("namespace {namespace} has no package on {branch}")))
}

/// The kind of a dataset on a branch: from the package node, else from the last write's
/// head. `None` when neither knows it.
pub(super) async fn kind_of(
    app: &App,
    namespace: &str,
    name: &str,
    branch: &str,
) -> ApiResult<Option<AssetKind>> {
    let from_node = app
        .db
        .package_node(namespace, branch)
        .await?
        .and_then(|node| node.resources.into_iter().find(|r| r.name == name))
        .map(|r| r.kind);
    Ok(match from_node {
        Some(kind) => Some(kind),
        None => app
            .db
            .dataset_head(namespace, name, branch)
            .await?
            .map(|(kind, _)| kind),
    })
}

/// `GET /v1/namespaces/{namespace}/datasets/{name}[?branch=…][&kind=…][&version=…]`.
pub async fn dataset(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, name)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<DatasetInfo>> {
    let scope = ReadScope::authorize(&app, &caller, &namespace, &name, &query).await?;
    let kind = query
        .get("kind")
        .map(|kind| {
            kind.parse::<AssetKind>()
                .map_err(|why| ApiError::invalid_field("kind", why))
        })
        .transpose()?;
    dataset_info(&app, &namespace, &name, &scope, kind)
        .await
        .map(Json)
}

/// What the engine holds for a dataset on a branch, with the branch's own versions, schema,
/// files and the formats it is served in. With `version`, the files are the version's
/// (object storage), and a version the branch does not have is 404.
pub(super) async fn dataset_info(
    app: &App,
    namespace: &str,
    name: &str,
    scope: &ReadScope,
    kind: Option<AssetKind>,
) -> ApiResult<DatasetInfo> {
    let (branch, version) = (scope.branch(), scope.version());
    let kind = match kind {
        Some(kind) => kind,
        None => kind_of(app, namespace, name, branch).await?.ok_or_else(|| {
            not_found(format!(
                "no dataset {namespace}/{name} is known on {branch} (pass kind= to ask the engine)"
            ))
        })?,
    };
    let public_host = &app.settings.public_host;
    let detail = app
        .engines
        .describe(kind, namespace, name, branch, public_host)
        .await
        .map_err(ApiError::internal)?;
    let (url, iri) = dataset_urls(public_host, namespace, name);
    let mut info = DatasetInfo {
        name: name.to_owned(),
        url,
        iri,
        branch: branch.to_owned(),
        kind,
        engine: kind.engine(),
        exists: detail.is_some(),
        detail,
        versions: Vec::new(),
        schema: None,
        files: Vec::new(),
        size: None,
        sha256: None,
        formats: content::format_names(kind),
    };
    if !info.exists {
        return Ok(info);
    }
    match kind.engine() {
        Engine::Iceberg => {
            let iceberg = &app.engines.iceberg;
            info.versions = iceberg
                .versions(namespace, name, branch)
                .await
                .map_err(ApiError::internal)?
                .into_iter()
                .map(|r| r.name)
                .collect();
            info.schema = iceberg
                .snapshot_of(namespace, name, branch)
                .await
                .map_err(ApiError::internal)?
                .map(|snapshot| {
                    snapshot
                        .schema
                        .into_iter()
                        .map(|column| ColumnInfo {
                            name: column.name,
                            data_type: column.data_type,
                            required: column.required,
                        })
                        .collect()
                });
        }
        Engine::Graph => {
            info.versions =
                graph_versions(&app.engines.graph, public_host, namespace, name, branch)
                    .await
                    .map_err(ApiError::internal)?;
        }
        Engine::ObjectStorage => {
            let blob = &app.engines.blob;
            info.versions = blob
                .versions(namespace, name, branch)
                .await
                .map_err(ApiError::internal)?;
            let head = match version {
                Some(version) => blob.version(namespace, name, branch, version).await,
                None => blob.head(namespace, name, branch).await,
            }
            .map_err(ApiError::internal)?;
            if let Some(head) = head {
                info.size = Some(head.files.iter().map(|f| f.size).sum());
                if let [one] = head.files.as_slice() {
                    info.sha256 = Some(one.sha256.clone());
                }
                info.files = head
                    .files
                    .into_iter()
                    .map(|f| FileInfo {
                        path: f.path,
                        sha256: f.sha256,
                        size: f.size,
                    })
                    .collect();
            }
        }
    }
    if let Some(version) = version
        && !info.versions.iter().any(|v| v == version)
    {
        return Err(content::no_such_version(namespace, name, branch, version));
    }
    Ok(info)
}

/// Runs the query over the graphs the caller may read ([`crate::authz::query_scope`]).
async fn run_query(app: &App, caller: &Caller, sparql: &str) -> ApiResult<Response> {
    let readable = crate::authz::readable_graphs(app, caller).await?;
    let scope = crate::authz::query_scope(sparql, &readable)?;
    match app.engines.graph.query_within(sparql, &scope).await {
        Ok(results) => Ok((
            [(header::CONTENT_TYPE, "application/sparql-results+json")],
            serde_json::to_vec(&results).map_err(ApiError::internal)?,
        )
            .into_response()),
        Err(crate::engines::graph::GraphError::InvalidQuery { message }) => {
            Err(ApiError::invalid_field("query", message))
        }
        Err(error @ crate::engines::graph::GraphError::QueryTimeout { seconds }) => {
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                codes::SPARQL_TIMEOUT,
                "Query timeout",
                error.to_string(),
            )
            .with("timeout_seconds", seconds))
        }
        Err(error @ crate::engines::graph::GraphError::ResultTooLarge { max, unit }) => {
            Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                codes::SPARQL_TOO_LARGE,
                "Result too large",
                error.to_string(),
            )
            .with(
                "limit",
                if unit == "rows" {
                    "max_rows"
                } else {
                    "max_result_bytes"
                },
            )
            .with(
                if unit == "rows" {
                    "max_rows"
                } else {
                    "max_result_bytes"
                },
                max,
            ))
        }
        Err(error) => Err(ApiError::internal(error)),
    }
}

/// `GET /v1/sparql?query=…`: a read-only SPARQL 1.1 query over the named graphs the
/// caller may read (without a token: those of public packages).
pub async fn sparql(
    State(app): State<Arc<App>>,
    caller: Caller,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let sparql = query
        .get("query")
        .ok_or_else(|| ApiError::invalid_field("query", "the query parameter query is required"))?;
    run_query(&app, &caller, sparql).await
}

/// `POST /v1/sparql` with `query=…` as a form or the query as `application/sparql-query`.
pub async fn sparql_post(
    State(app): State<Arc<App>>,
    caller: Caller,
    headers: axum::http::HeaderMap,
    body: String,
) -> ApiResult<Response> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    let sparql = if form {
        url_form_value(&body, "query")
            .ok_or_else(|| ApiError::invalid_field("query", "the form has no query"))?
    } else {
        body
    };
    run_query(&app, &caller, &sparql).await
}

fn url_form_value(body: &str, key: &str) -> Option<String> {
    body.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| percent_decode(&v.replace('+', " ")))
    })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(hex) = std::str::from_utf8(&bytes[i + 1..i + 3])
            && let Ok(value) = u8::from_str_radix(hex, 16)
        {
            out.push(value);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
