//! Webhook subscriptions of a namespace (issue 58), for its admins (`[authz]` admin
//! access): `POST/GET /v1/namespaces/{ns}/subscriptions`,
//! `DELETE /v1/namespaces/{ns}/subscriptions/{id}`, and its deliveries:
//! `GET …/{id}/deliveries`, `POST …/{id}/redeliver` (dead ones, again). The secret is in
//! the answer of the creation only, and never logged.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use stone_api::{
    CreateSubscription, DeliveryList, Redelivered, Subscription, SubscriptionCreated,
    SubscriptionList, TargetFormat, codes,
};

use super::App;
use crate::auth::{Caller, Principal};
use crate::authz::Access;
use crate::error::{ApiError, ApiResult};
use crate::events::envelope::new_secret;
use crate::events::target::Refusal;
use crate::state::{Filters, SubscriptionRecord, now};

/// Filters a subscription may hold at most, each.
const MAX_FILTERS: usize = 100;

/// The caller, with admin access to the namespace.
fn admin<'a>(app: &App, caller: &'a Caller, namespace: &str) -> ApiResult<&'a Principal> {
    let Some(principal) = &caller.0 else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            codes::AUTH_REQUIRED,
            "Authentication required",
            format!("managing the webhooks of {namespace} needs a bearer token (`stone login`)"),
        )
        .with_challenge("Bearer"));
    };
    app.authz.require(
        principal,
        namespace,
        Access::Admin,
        "manage the webhooks of",
    )?;
    Ok(principal)
}

/// The refusal of a target as the API says it.
pub fn target_forbidden(url: &str, refusal: &Refusal) -> ApiError {
    let error = ApiError::new(
        StatusCode::BAD_REQUEST,
        codes::SUBSCRIPTION_TARGET_FORBIDDEN,
        "Target refused",
        format!("the webhook target {url} is refused: {refusal}"),
    )
    .with("url", url);
    match refusal.address {
        Some(address) => error.with("address", address.to_string()),
        None => error,
    }
}

/// The API's view of a stored subscription (no secret).
async fn listed(app: &App, record: &SubscriptionRecord) -> ApiResult<Subscription> {
    Ok(Subscription {
        id: record.id.clone(),
        namespace: record.namespace.clone(),
        url: record.url.clone(),
        format: record.format,
        types: record.filters.types.clone(),
        branches: record.filters.branches.clone(),
        datasets: record.filters.datasets.clone(),
        origin: record.origin.clone(),
        created_by: record.created_by.clone(),
        created_at: record.created_at.clone(),
        deliveries: app.db.delivery_counts(&record.id).await?,
    })
}

/// `POST /v1/namespaces/{namespace}/subscriptions`.
pub async fn create(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(namespace): Path<String>,
    body: axum::body::Bytes,
) -> ApiResult<(StatusCode, Json<SubscriptionCreated>)> {
    let principal = admin(&app, &caller, &namespace)?;
    let request: CreateSubscription = serde_json::from_slice(&body)
        .map_err(|e| ApiError::invalid_field("body", format!("not a subscription: {e}")))?;
    if request.format == TargetFormat::Unknown {
        return Err(ApiError::invalid_field(
            "format",
            "cloudevents (the default) or openlineage",
        ));
    }
    if request.format == TargetFormat::Openlineage && request.types.iter().any(|t| t.is_dataset()) {
        return Err(ApiError::invalid_field(
            "types",
            "an openlineage subscription receives one RunEvent per push outcome: its types are push.committed and push.failed (the datasets are the events' outputs)",
        ));
    }
    if request.types.contains(&stone_api::EventType::Unknown) {
        return Err(ApiError::invalid_field(
            "types",
            "an event type is not known to this server (see docs/server.md, \"Events\")",
        ));
    }
    for (field, list) in [
        ("branches", &request.branches),
        ("datasets", &request.datasets),
    ] {
        if list.len() > MAX_FILTERS || list.iter().any(|p| p.is_empty() || p.len() > 256) {
            return Err(ApiError::invalid_field(
                field,
                format!("at most {MAX_FILTERS} patterns of 1 to 256 characters"),
            ));
        }
    }
    app.target_policy
        .check_url(&request.url)
        .await
        .map_err(|refusal| target_forbidden(&request.url, &refusal))?;
    let record = SubscriptionRecord {
        id: format!("sub_{}", uuid::Uuid::new_v4().simple()),
        namespace: namespace.clone(),
        url: request.url,
        secret: new_secret(),
        format: request.format,
        filters: Filters {
            types: request.types,
            branches: request.branches,
            datasets: request.datasets,
        },
        origin: "api".into(),
        created_by: Some(principal.user.clone()),
        created_at: now(),
        cursor: 0,
    };
    app.db.put_subscription(&record).await?;
    tracing::info!(namespace = %namespace, subscription = %record.id, url = %record.url, by = %principal.user, "webhook subscription created");
    Ok((
        StatusCode::CREATED,
        Json(SubscriptionCreated {
            subscription: listed(&app, &record).await?,
            secret: record.secret,
        }),
    ))
}

/// `GET /v1/namespaces/{namespace}/subscriptions`.
pub async fn list(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(namespace): Path<String>,
) -> ApiResult<Json<SubscriptionList>> {
    admin(&app, &caller, &namespace)?;
    let mut subscriptions = Vec::new();
    for record in app.db.subscriptions(Some(&namespace)).await? {
        subscriptions.push(listed(&app, &record).await?);
    }
    Ok(Json(SubscriptionList { subscriptions }))
}

fn not_found(namespace: &str, id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        codes::SUBSCRIPTION_NOT_FOUND,
        "Not found",
        format!("namespace {namespace} has no subscription {id}"),
    )
}

/// `DELETE /v1/namespaces/{namespace}/subscriptions/{id}`.
pub async fn delete(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    admin(&app, &caller, &namespace)?;
    match app.db.subscription(&namespace, &id).await? {
        Some(record) if record.origin == "config" => Err(ApiError::new(
            StatusCode::CONFLICT,
            codes::PUSH_CONFLICT,
            "Conflict",
            format!(
                "{id} is a subscription of the server's configuration ([[events.subscriptions]]): the operator removes it there"
            ),
        )),
        Some(_) => {
            app.db.delete_subscription(&namespace, &id).await?;
            Ok(StatusCode::NO_CONTENT)
        }
        None => Err(not_found(&namespace, &id)),
    }
}

/// The query of `GET …/deliveries`.
#[derive(Debug, Deserialize)]
pub struct DeliveryQuery {
    /// `pending`, `delivered` or `dead` (default: any).
    state: Option<String>,
    /// At most this many, latest first (default 100, at most 1000).
    limit: Option<usize>,
}

/// `GET /v1/namespaces/{namespace}/subscriptions/{id}/deliveries`.
pub async fn deliveries(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, id)): Path<(String, String)>,
    query: Result<Query<DeliveryQuery>, QueryRejection>,
) -> ApiResult<Json<DeliveryList>> {
    let Query(query) = query.map_err(ApiError::bad_query)?;
    admin(&app, &caller, &namespace)?;
    if app.db.subscription(&namespace, &id).await?.is_none() {
        return Err(not_found(&namespace, &id));
    }
    if let Some(state) = &query.state
        && !["pending", "delivered", "dead"].contains(&state.as_str())
    {
        return Err(ApiError::invalid_field(
            "state",
            "pending, delivered or dead",
        ));
    }
    let limit = query.limit.unwrap_or(100).clamp(1, 1000);
    let deliveries = app
        .db
        .deliveries(&id, query.state.as_deref(), limit)
        .await?;
    Ok(Json(DeliveryList { deliveries }))
}

/// `POST /v1/namespaces/{namespace}/subscriptions/{id}/redeliver`: the dead deliveries are
/// sent again, with a fresh retry window.
pub async fn redeliver(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((namespace, id)): Path<(String, String)>,
) -> ApiResult<Json<Redelivered>> {
    admin(&app, &caller, &namespace)?;
    if app.db.subscription(&namespace, &id).await?.is_none() {
        return Err(not_found(&namespace, &id));
    }
    let redelivered = app.db.redeliver(&id).await?;
    Ok(Json(Redelivered { redelivered }))
}
