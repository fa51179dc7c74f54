//! Read access: `GET /v1/info`, `GET /v1/openapi.yaml`, the package node, what an engine
//! holds for a dataset, and a read-only SPARQL endpoint over the named graphs.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use stone_api::{
    API_VERSION, AssetKind, AuthMode, DatasetInfo, Identity, OPENAPI_YAML, OidcInfo, PackageNode,
    ServerInfo, StagingInfo, StepUp, codes,
};

use super::App;
use super::dataset::{ReadScope, authorize_read, branch_of, dataset_info, not_found};
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};

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
        protected_roles: Some(app.guards.roles()),
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

/// Runs the query over the graphs the caller may read: the embedded store decides each
/// graph where the query touches it ([`crate::authz::ReadableGraphs`]); a remote server is
/// given the list of them ([`crate::authz::query_scope`]).
async fn run_query(app: &App, caller: &Caller, sparql: &str) -> ApiResult<Response> {
    let answer = if app.engines.graph.filters_graphs() {
        let readable = std::sync::Arc::new(crate::authz::ReadableGraphs::new(
            &app.authz,
            &app.db,
            &app.settings.public_host,
            caller,
        ));
        let filter = {
            let readable = std::sync::Arc::clone(&readable);
            std::sync::Arc::new(move |graph: &str| readable.readable(graph))
        };
        let answer = app.engines.graph.query_readable(sparql, filter).await;
        if let Some(failure) = readable.failure() {
            return Err(failure);
        }
        answer
    } else {
        let readable = app
            .authz
            .readable_graphs(
                &app.db,
                &app.engines.graph,
                &app.settings.public_host,
                caller,
            )
            .await?;
        let scope = crate::authz::query_scope(sparql, &readable)?;
        app.engines.graph.query_within(sparql, &scope).await
    };
    match answer {
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
