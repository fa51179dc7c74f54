//! The HTTP API (`/v1`): pushes, staging uploads (local store), and read access; plus the
//! dataset IRIs (`/{ns}`, `/{ns}/{name}`) on the server itself.
//!
//! See `crates/stone-api/openapi.yaml` for the contract; every error is an RFC 9457 problem
//! with a stable code ([`crate::error::ApiError`]).

mod body_timeout;
mod content;
mod dataset;
mod encode;
mod events;
mod iceberg_rest;
mod negotiate;
mod origin;
mod page;
mod push_files;
mod push_uploads;
mod pushes;
mod range;
mod read;
mod staging;
mod subscriptions;
mod table_file;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, Uri};
use axum::routing::{MethodRouter, get, post, put};
use stone_api::codes;

use crate::app::App;
use crate::error::ApiError;

/// Largest manifest accepted (JSON).
const MAX_MANIFEST_BYTES: usize = 64 << 20;

/// Every route of the API as `(method, path)`, in the order [`router`] adds them. The
/// authorization matrix test (`tests/it/authz_matrix.rs`) has a row for each one and
/// fails on a route without one.
pub fn routes() -> Vec<(&'static str, &'static str)> {
    table(0).list
}

/// The router of the API.
pub fn router(app: Arc<App>) -> Router {
    table(app.settings.config.server.body_read_timeout_seconds)
        .router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            origin::guard,
        ))
        .with_state(app)
}

/// The routes and the list of them, added in one place so that they cannot differ.
struct Table {
    router: Router<Arc<App>>,
    list: Vec<(&'static str, &'static str)>,
}

impl Table {
    fn add(
        mut self,
        methods: &[&'static str],
        path: &'static str,
        handler: MethodRouter<Arc<App>>,
    ) -> Self {
        self.router = self.router.route(path, handler);
        self.list
            .extend(methods.iter().map(|method| (*method, path)));
        self
    }
}

/// The routes; uploads give up on a body silent for `body_read_timeout_seconds`.
fn table(body_read_timeout_seconds: u64) -> Table {
    let api = Table {
        router: Router::new(),
        list: Vec::new(),
    }
    .add(&["GET"], "/v1/info", get(read::info))
    .add(&["GET"], "/v1/openapi.yaml", get(read::openapi))
    .add(&["POST"], "/v1/pushes", post(pushes::create))
    .add(&["GET"], "/v1/pushes/{push_id}", get(pushes::status))
    .add(
        &["POST"],
        "/v1/pushes/{push_id}/files",
        post(push_files::add_files),
    )
    .add(
        &["POST"],
        "/v1/pushes/{push_id}/commit",
        post(pushes::commit),
    )
    .add(
        &["POST"],
        "/v1/pushes/{push_id}/uploads/{sha256}/complete",
        post(pushes::complete_upload),
    )
    .add(
        &["GET"],
        "/v1/namespaces/{namespace}/package",
        get(read::package_node),
    )
    .add(
        &["GET"],
        "/v1/namespaces/{namespace}/datasets/{name}",
        get(read::dataset),
    )
    .add(
        &["GET"],
        "/v1/namespaces/{namespace}/events",
        get(events::feed),
    )
    .add(
        &["GET", "POST"],
        "/v1/namespaces/{namespace}/subscriptions",
        get(subscriptions::list).post(subscriptions::create),
    )
    .add(
        &["DELETE"],
        "/v1/namespaces/{namespace}/subscriptions/{id}",
        axum::routing::delete(subscriptions::delete),
    )
    .add(
        &["GET"],
        "/v1/namespaces/{namespace}/subscriptions/{id}/deliveries",
        get(subscriptions::deliveries),
    )
    .add(
        &["POST"],
        "/v1/namespaces/{namespace}/subscriptions/{id}/redeliver",
        post(subscriptions::redeliver),
    )
    // `get` answers HEAD too (the GET's headers, no body): readers ask the size first.
    .add(
        &["GET", "HEAD"],
        "/v1/namespaces/{namespace}/datasets/{name}/content",
        get(content::content),
    )
    .add(
        &["GET", "POST"],
        "/v1/sparql",
        get(read::sparql).post(read::sparql_post),
    )
    // The Iceberg REST catalog, read side (`iceberg_rest.rs`): three or more segments,
    // so never the dataset IRIs below, whatever the namespace is called.
    .add(&["GET"], "/iceberg/v1/config", get(iceberg_rest::config))
    .add(
        &["GET", "POST"],
        "/iceberg/v1/namespaces",
        get(iceberg_rest::list_namespaces).post(iceberg_rest::refuse_write),
    )
    .add(
        &["GET", "DELETE"],
        "/iceberg/v1/namespaces/{namespace}",
        get(iceberg_rest::namespace).delete(iceberg_rest::refuse_write),
    )
    .add(
        &["POST"],
        "/iceberg/v1/namespaces/{namespace}/properties",
        post(iceberg_rest::refuse_write),
    )
    .add(
        &["GET", "POST"],
        "/iceberg/v1/namespaces/{namespace}/tables",
        get(iceberg_rest::list_tables).post(iceberg_rest::refuse_write),
    )
    .add(
        &["GET", "POST", "DELETE"],
        "/iceberg/v1/namespaces/{namespace}/tables/{table}",
        get(iceberg_rest::load_table)
            .post(iceberg_rest::refuse_write)
            .delete(iceberg_rest::refuse_write),
    )
    .add(
        &["POST"],
        "/iceberg/v1/namespaces/{namespace}/tables/{table}/sign",
        post(iceberg_rest::sign),
    )
    .add(
        &["POST"],
        "/iceberg/v1/namespaces/{namespace}/register",
        post(iceberg_rest::refuse_write),
    )
    .add(
        &["POST"],
        "/iceberg/v1/tables/rename",
        post(iceberg_rest::refuse_write),
    )
    .add(
        &["POST"],
        "/iceberg/v1/transactions/commit",
        post(iceberg_rest::refuse_write),
    )
    // What `https://{host}/{ns}` and `https://{host}/{ns}/{name}` resolve to.
    .add(&["GET"], "/{namespace}", get(content::iri_package))
    .add(
        &["GET", "HEAD"],
        "/{namespace}/{name}",
        get(content::iri_dataset),
    );
    let api = Table {
        router: api.router.layer(DefaultBodyLimit::max(MAX_MANIFEST_BYTES)),
        list: api.list,
    };
    let uploads = Table {
        router: Router::new(),
        list: Vec::new(),
    }
    .add(&["PUT"], "/v1/staging/pack", put(staging::put_pack))
    .add(&["PUT"], "/v1/staging/{sha256}", put(staging::put_content))
    .add(
        &["PUT"],
        "/v1/staging/{sha256}/parts/{number}",
        put(staging::put_part),
    );
    let mut list = api.list;
    list.extend(uploads.list);
    Table {
        router: api
            .router
            .merge(uploads.router.layer(DefaultBodyLimit::disable()).layer(
                axum::middleware::from_fn_with_state(
                    body_read_timeout_seconds,
                    body_timeout::limit_body_reads,
                ),
            )),
        list,
    }
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
