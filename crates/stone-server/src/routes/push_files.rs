//! `POST /v1/pushes/{id}/files` (issue 27): a batch of files of a push created with
//! `paged_files`. The server records the batch and answers what to upload for it, as
//! `POST /v1/pushes` does for a whole manifest: no request or answer grows with the count
//! of files of the package, and the push stays one push (its ID, its resume, its commit).

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use stone_api::{CreatePush, FileBatch, FilesAccepted, PushState, codes};

use super::App;
use super::push_uploads::{Planned, plan_uploads};
use super::pushes::refusal;
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::heads_declared;

/// `POST /v1/pushes/{id}/files`.
pub async fn add_files(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Json<FileBatch>, JsonRejection>,
) -> ApiResult<Json<FilesAccepted>> {
    let principal = caller.require()?;
    let Json(batch) = body.map_err(|rejection| ApiError::invalid(rejection.body_text()))?;
    let (record, manifest) = app
        .db
        .push_outline(&id, batch.datasets.iter().map(|d| d.name.as_str()))
        .await?
        .filter(|(record, _)| record.principal == principal.user)
        .ok_or_else(|| ApiError::push_not_found(&id))?;
    if record.expired {
        return Err(ApiError::push_expired(&id));
    }
    let conflict = |detail: String| {
        ApiError::new(
            StatusCode::CONFLICT,
            codes::PUSH_CONFLICT,
            "Push conflict",
            detail,
        )
    };
    if !manifest.paged_files {
        return Err(conflict(format!(
            "push {id} was created with its files in the manifest (no paged_files): it takes no batches"
        )));
    }
    if record.state != PushState::Staging {
        return Err(conflict(format!(
            "push {id} is not staging any more: post its manifest again (push_id) to resume it"
        )));
    }
    let limits = app.settings.config.limits.push_limits();
    let contents =
        stone_api::validate::validate_batch(&manifest, &batch, &limits).map_err(refusal)?;
    // The push's limits, over all its batches: files count as contents here (a file sent
    // twice with the same content counts once per path).
    let before = app.db.file_totals(&id).await?;
    let files = batch.datasets.iter().flat_map(|d| d.files.iter());
    let batch_files = files.clone().count() as u64;
    let batch_bytes = files.fold(0u64, |sum, f| sum.saturating_add(f.size));
    let too_large = |what: String| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            codes::PUSH_TOO_LARGE,
            "Push too large",
            format!("{what}; split the package"),
        )
        .with("field", "files")
    };
    if before.files.saturating_add(batch_files) > limits.max_contents as u64 {
        return Err(too_large(format!(
            "with this batch, push {id} would name more than {} files, the most this server takes in one push",
            limits.max_contents
        )));
    }
    if before.bytes.saturating_add(batch_bytes) > limits.max_push_bytes {
        return Err(too_large(format!(
            "with this batch, push {id} would declare more than {} bytes, the most this server takes in one push",
            limits.max_push_bytes
        )));
    }
    let Some(totals) = app.db.record_files(&id, &batch.datasets).await? else {
        return Err(conflict(format!("push {id} is being committed; poll it")));
    };
    // In a resumed push (its manifest posted again: its change number moved), a batch may
    // name a small upload of the caller's still to verify (S3); a first push asks for
    // none of those checks (a request each on S3).
    let resumed = record.changes > 0;
    let Planned {
        uploads,
        already_staged,
        more_uploads,
        pack,
    } = plan_uploads(
        &app,
        &principal,
        &id,
        &contents,
        &Default::default(),
        (resumed, chrono::Utc::now()),
    )
    .await?;
    tracing::info!(push = %id, files = batch_files, uploads = uploads.len(), total = totals.files, "file batch recorded");
    Ok(Json(FilesAccepted {
        uploads,
        already_staged,
        more_uploads,
        files: totals.files,
        pack,
    }))
}

/// Issue 27: the datasets of a `paged_files` manifest whose declared listing
/// ([`stone_api::DatasetManifest::listing`]) is their head's listing now: the answer to
/// `POST /v1/pushes` names them (`unchanged`) and the client sends none of their files.
/// None on a protected ref without `force`: its guards read every file at commit. A head
/// that cannot be read is not unchanged (its files are sent).
pub(super) async fn unchanged_declared(
    app: &App,
    manifest: &CreatePush,
    protected: bool,
) -> Vec<String> {
    if protected && !manifest.options.force {
        return Vec::new();
    }
    let unchanged: Vec<String> = heads_declared(&app.engines.blob, manifest, |_| true)
        .await
        .into_iter()
        .map(|(dataset, _)| dataset.name.clone())
        .collect();
    if !unchanged.is_empty() {
        tracing::debug!(
            datasets = unchanged.len(),
            "declared listings are the heads': files not asked for"
        );
    }
    unchanged
}
