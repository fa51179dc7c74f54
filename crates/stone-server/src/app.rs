//! The application state every request handler shares.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::auth::{Caller, Principal};
use crate::config::Settings;
use crate::engines::Engines;
use crate::error::ApiError;
use crate::guards::Guards;
use crate::jobs::JobRunner;
use crate::staging::StagingStore;
use crate::staging::local::LocalStaging;
use crate::state::StateDb;

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
    /// Namespace permissions: every route asks it ([`crate::authz`]).
    pub authz: crate::authz::Authorizer,
    /// Who requests act as (`local` mode).
    pub principal: Principal,
    /// Checks bearer tokens (`oidc` mode); `None` in `local` mode.
    pub verifier: Option<Arc<crate::auth::Verifier>>,
    pub runner: Arc<JobRunner>,
    /// The tables' Parquet answers ([`crate::content_cache`]).
    pub content_cache: crate::content_cache::ContentCache,
    /// Where webhooks may go ([`crate::events::target`]).
    pub target_policy: Arc<crate::events::target::TargetPolicy>,
}

/// Who called ([`Caller`]), as one axum extractor for every route.
impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        crate::auth::caller(&parts.headers, &app.principal, app.verifier.as_deref()).await
    }
}
