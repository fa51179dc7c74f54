//! The HTTP API (`/v1`): pushes, staging uploads (local store), and read access; plus the
//! dataset IRIs (`/{ns}`, `/{ns}/{name}`) on the server itself.
//!
//! See `crates/stone-api/openapi.yaml` for the contract; every error is an RFC 9457 problem
//! with a stable code ([`crate::error::ApiError`]).

mod body_timeout;
mod content;
mod pushes;
mod read;
mod staging;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, Uri};
use axum::routing::{get, post, put};
use stone_api::codes;

use crate::config::Settings;
use crate::error::ApiError;
use crate::guards::{Guards, Principal};
use crate::jobs::{Engines, JobRunner};
use crate::staging::StagingStore;
use crate::staging::local::LocalStaging;
use crate::state::StateDb;

/// Largest manifest accepted (JSON).
const MAX_MANIFEST_BYTES: usize = 64 << 20;

/// Everything a request handler needs.
#[derive(Debug)]
pub struct App {
    pub settings: Settings,
    pub db: StateDb,
    pub staging: Arc<dyn StagingStore>,
    /// The local store, which serves its own upload URLs (absent with S3 staging).
    pub local_staging: Option<Arc<LocalStaging>>,
    pub engines: Arc<Engines>,
    pub guards: Guards,
    /// Who requests act as (`local` mode).
    pub principal: Principal,
    /// Checks bearer tokens (`oidc` mode); `None` in `local` mode.
    pub verifier: Option<Arc<crate::auth::Verifier>>,
    pub runner: Arc<JobRunner>,
}

/// The router of the API.
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route("/v1/info", get(read::info))
        .route("/v1/openapi.yaml", get(read::openapi))
        .route("/v1/pushes", post(pushes::create))
        .route("/v1/pushes/{push_id}", get(pushes::status))
        .route("/v1/pushes/{push_id}/commit", post(pushes::commit))
        .route(
            "/v1/pushes/{push_id}/uploads/{sha256}/complete",
            post(pushes::complete_upload),
        )
        .route(
            "/v1/namespaces/{namespace}/package",
            get(read::package_node),
        )
        .route(
            "/v1/namespaces/{namespace}/datasets/{name}",
            get(read::dataset),
        )
        .route(
            "/v1/namespaces/{namespace}/datasets/{name}/content",
            get(content::content),
        )
        .route("/v1/sparql", get(read::sparql).post(read::sparql_post))
        // What `https://{host}/{ns}` and `https://{host}/{ns}/{name}` resolve to.
        .route("/{namespace}", get(content::iri_package))
        .route("/{namespace}/{name}", get(content::iri_dataset))
        .layer(DefaultBodyLimit::max(MAX_MANIFEST_BYTES));
    let uploads = Router::new()
        .route("/v1/staging/{sha256}", put(staging::put_content))
        .route(
            "/v1/staging/{sha256}/parts/{number}",
            put(staging::put_part),
        )
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            body_timeout::limit_body_reads,
        ));
    api.merge(uploads)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app)
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::REQUEST_NOT_FOUND,
        "Not found",
        format!("no endpoint {}", uri.path()),
    )
}

async fn method_not_allowed(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        codes::REQUEST_NOT_FOUND,
        "Method not allowed",
        format!("{} does not take this method", uri.path()),
    )
}
