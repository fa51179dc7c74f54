//! `POST /v1/pushes`, `GET /v1/pushes/{id}`, `POST /v1/pushes/{id}/commit`,
//! `POST /v1/pushes/{id}/uploads/{sha256}/complete`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use stone_api::{
    CommitAccepted, CreatePush, DatasetProgress, DatasetState, Engine, PackageNodeProgress,
    PushCreated, PushState, PushStatus, UploadCompleted, codes,
};

use super::App;
use super::push_uploads::{Planned, direct_targets, may_reuse, plan_uploads, unstaged};
use crate::auth::Caller;
use crate::auth::Principal;
use crate::engines::blob::BlobEntry;
use crate::error::{ApiError, ApiResult};
use crate::guards::{force_violations, removed_datasets, violations_problem};
use crate::iri::{dataset_urls, namespace_urls};
use crate::staging::{Completion, holder_key};
use crate::state::{DatasetRecord, NewDataset, Operation, PushRecord, QuotaChange, QuotaFigures};

/// `POST /v1/pushes`.
pub async fn create(
    State(app): State<Arc<App>>,
    caller: Caller,
    body: Result<Json<CreatePush>, JsonRejection>,
) -> ApiResult<Response> {
    let principal = caller.require()?;
    let Json(mut manifest) = body.map_err(|rejection| ApiError::invalid(rejection.body_text()))?;
    let resume = manifest.push_id.take();
    let contents = validate(&app, &manifest)?;
    app.authz
        .authorize_push(&app.db, &principal, &manifest)
        .await?;
    let holder = holder_key(&principal.user);
    if let Err(refusal) = app
        .guards
        .check_identity(&manifest.branch, &manifest.options, &principal)
    {
        if refusal.code() == codes::AUTH_STEP_UP_REQUIRED {
            let id = reserve(&app, &principal, &manifest, resume.as_deref()).await?;
            return Err(refusal.with("push_id", id));
        }
        return Err(refusal);
    }

    let existing = match &resume {
        Some(id) => {
            let record = app
                .db
                .push(id)
                .await?
                .filter(|record| record.principal == principal.user)
                .ok_or_else(|| ApiError::push_not_found(id))?;
            if record.expired {
                return Err(ApiError::push_expired(id));
            }
            if record.namespace != manifest.namespace || record.branch != manifest.branch {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    codes::PUSH_CONFLICT,
                    "Push conflict",
                    format!(
                        "push {id} goes to {}@{}, not {}@{}: start a new push",
                        record.namespace, record.branch, manifest.namespace, manifest.branch
                    ),
                ));
            }
            if matches!(record.state, PushState::Committing | PushState::Succeeded) {
                if record.manifest != manifest {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        codes::PUSH_CONFLICT,
                        "Push conflict",
                        format!(
                            "push {id} is {} with another manifest: start a new push",
                            state_text(record.state)
                        ),
                    ));
                }
                // Nothing to upload any more: everything was verified at commit. (A paged
                // push's datasets are followed with `?since=`: see below.)
                let datasets = if manifest.paged_files {
                    Vec::new()
                } else {
                    app.db.datasets(id).await?
                };
                return Ok((
                    StatusCode::OK,
                    Json(PushCreated {
                        push_id: id.clone(),
                        state: record.state,
                        uploads: Vec::new(),
                        already_staged: contents.keys().cloned().collect(),
                        datasets: if manifest.paged_files {
                            Vec::new()
                        } else {
                            progress(&app, &record.namespace, &datasets)
                        },
                        changes: None,
                        more_uploads: false,
                        unchanged: Vec::new(),
                        pack: None,
                    }),
                )
                    .into_response());
            }
            Some(record)
        }
        None => None,
    };

    let protected = app.guards.is_protected(&manifest.branch);
    // A paged push names its files later: its guards run at commit, on all of them.
    if protected && !manifest.options.force && !manifest.paged_files {
        let violations =
            force_violations(&manifest, &app.engines, &app.db, &app.settings.public_host).await?;
        if !violations.is_empty() {
            return Err(violations_problem(&manifest.branch, violations));
        }
    }

    let mut rows = written_datasets(&manifest);
    if manifest.options.replace {
        rows.extend(
            removed_datasets(&manifest, &app.db)
                .await?
                .into_iter()
                .map(|(name, kind)| NewDataset {
                    name,
                    kind,
                    operation: Operation::Delete,
                }),
        );
    }

    // Over the namespace's quota with what it declares: refused before anything is
    // recorded (checked again, exactly, when the commit is accepted).
    if let Some(quota) = app.settings.config.quotas.bytes_for(&manifest.namespace) {
        let figures = app
            .db
            .quota_figures(&quota_change(&manifest, &rows))
            .await?;
        if figures.exceeds(Some(quota)) {
            return Err(quota_exceeded(&manifest.namespace, figures, quota));
        }
    }

    // When the push was created (a resumed one), or now, once it is recorded (a sweep
    // that did not see it read the live pushes before this): what of its straight
    // uploads is its own (`straight.rs`).
    let resumed_created = existing
        .as_ref()
        .map(|record| chrono::DateTime::parse_from_rfc3339(&record.created_at));
    let store = async {
        match existing {
            Some(record) => {
                let Some(change) = app
                    .db
                    .replace_manifest(&record.id, &manifest, protected, &rows)
                    .await?
                else {
                    // It started committing in between.
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        codes::PUSH_CONFLICT,
                        "Push conflict",
                        format!("push {} is being committed; poll it", record.id),
                    ));
                };
                // The batches of a paged push are sent again after its manifest.
                app.db.forget_files(&record.id).await?;
                Ok((record.id, StatusCode::OK, change))
            }
            None => {
                let id = uuid::Uuid::now_v7().to_string();
                let change = app
                    .db
                    .create_push(&id, &principal.user, &manifest, protected, &rows)
                    .await?;
                Ok((id, StatusCode::CREATED, change))
            }
        }
    };
    let (id, status, change) = store.await?;
    let created = match resumed_created {
        Some(Ok(created)) => created.with_timezone(&chrono::Utc),
        // Unreadable: nothing older than now is the push's own.
        Some(Err(_)) | None => chrono::Utc::now(),
    };
    tracing::info!(push = %id, namespace = %manifest.namespace, branch = %manifest.branch, datasets = manifest.datasets.len(), resumed = (status == StatusCode::OK), paged = manifest.paged_files, "push manifest accepted");

    // In a resumed push, a small content may be the caller's upload still to verify (S3:
    // the bucket took it, the server has not seen it).
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
        &direct_targets(&app, &manifest),
        (status == StatusCode::OK, created),
    )
    .await?;
    // Admission before bytes (issue 54): what the answer asks to upload must fit on the
    // staging disk above the server's reserve, else 507 with the figures, before a byte
    // is sent. The push stays recorded: the same command resumes it once space is freed.
    if let Some(local) = &app.local_staging {
        let asked: u64 = uploads.iter().map(|upload| upload.size).sum();
        local.admit(asked).map_err(super::staging::staging_error)?;
    }

    // The object-storage datasets whose contents are all there are prepared now, the
    // others as their uploads arrive (or at commit): a manifest alone never makes the
    // server write on disk in proportion to it.
    // (A paged push's datasets are prepared at commit.)
    let blobs: Vec<(String, Vec<BlobEntry>)> = manifest
        .datasets
        .iter()
        .filter(|d| d.kind.engine() == Engine::ObjectStorage && !manifest.paged_files)
        .map(|d| (d.name.clone(), blob_entries(&d.files)))
        .collect();
    let there: BTreeSet<&str> = already_staged.iter().map(String::as_str).collect();
    app.engines.blob.prepare_when_staged(
        &manifest.namespace,
        &manifest.branch,
        &holder,
        &blobs,
        |sha256| there.contains(sha256),
    );

    let record = app
        .db
        .push_summary(&id)
        .await?
        .ok_or_else(|| ApiError::push_not_found(&id))?;
    // The rows just stored, as stored: every one pending (not read back: thousands). A
    // paged push lists none (issue 27: 100,000 datasets made an answer of 14 MB, near the
    // client's 16 MiB bound): they all change at commit, followed from `changes`.
    let datasets: Vec<DatasetRecord> = rows
        .iter()
        .filter(|_| !manifest.paged_files)
        .zip(0..)
        .map(|(row, position)| DatasetRecord {
            position,
            name: row.name.clone(),
            kind: row.kind,
            operation: row.operation,
            state: DatasetState::Pending,
            status: None,
            detail: None,
            error: None,
            checkpoint: None,
        })
        .collect();
    // Issue 27: the folders whose declared listing is their head's need not be sent.
    let unchanged = super::push_files::unchanged_declared(&app, &manifest, protected).await;
    let body = PushCreated {
        push_id: id.clone(),
        state: record.state,
        uploads,
        already_staged,
        datasets: progress(&app, &record.namespace, &datasets),
        changes: u64::try_from(change).ok(),
        more_uploads,
        unchanged,
        pack,
    };
    let mut response = (status, Json(body)).into_response();
    if let Ok(location) = HeaderValue::from_str(&format!("/v1/pushes/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// A blob dataset's files as the blob engine takes them.
fn blob_entries(files: &[stone_api::ManifestFile]) -> Vec<BlobEntry> {
    files
        .iter()
        .map(|f| BlobEntry {
            path: f.path.clone(),
            sha256: f.sha256.clone(),
            size: f.size,
        })
        .collect()
}

/// One row per dataset of the manifest, written.
fn written_datasets(manifest: &CreatePush) -> Vec<NewDataset> {
    manifest
        .datasets
        .iter()
        .map(|d| NewDataset {
            name: d.name.clone(),
            kind: d.kind,
            operation: Operation::Write,
        })
        .collect()
}

/// The datasets a push recorded, as the quota counts them.
async fn recorded_datasets(app: &App, id: &str) -> ApiResult<Vec<NewDataset>> {
    Ok(app
        .db
        .datasets(id)
        .await?
        .into_iter()
        .map(|record| NewDataset {
            name: record.name,
            kind: record.kind,
            operation: record.operation,
        })
        .collect())
}

/// A commit refused: `count` contents of push `id` are not staged (`missing` names them,
/// or the first of them).
fn push_incomplete<T: serde::Serialize>(id: &str, count: usize, missing: T) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        codes::PUSH_INCOMPLETE,
        "Content is missing",
        format!(
            "{count} content(s) of push {id} are not staged and verified; upload them (re-post the manifest with the push ID for fresh URLs)"
        ),
    )
    .with("missing", missing)
    .at(format!("/v1/pushes/{id}"))
}

/// What a push writes to and deletes from its namespace, as the quota counts it.
fn quota_change<'a>(manifest: &'a CreatePush, rows: &'a [NewDataset]) -> QuotaChange<'a> {
    QuotaChange {
        namespace: &manifest.namespace,
        branch: &manifest.branch,
        writes: manifest
            .datasets
            .iter()
            .flat_map(|d| {
                d.files
                    .iter()
                    .map(move |f| (d.name.as_str(), f.sha256.as_str(), f.size))
            })
            .collect(),
        units: storage_units(manifest),
        deletes: rows
            .iter()
            .filter(|row| row.operation == Operation::Delete)
            .map(|row| row.name.as_str())
            .collect(),
    }
}

/// The storage units that keep a copy of what a push writes to each dataset, as the
/// quota counts them (issue 52): the dataset's Iceberg table (shared by its branches and
/// versions: data files are content-addressed per table); its objects on the branch
/// (shared by the branch's versions); its named graph on the branch, and the graph of
/// the push's version (a copy of the triples).
fn storage_units(manifest: &CreatePush) -> Vec<(&str, String)> {
    let branch = &manifest.branch;
    let mut units = Vec::new();
    for dataset in &manifest.datasets {
        let name = dataset.name.as_str();
        match dataset.kind.engine() {
            Engine::Iceberg => units.push((name, format!("iceberg/{name}"))),
            Engine::ObjectStorage => units.push((name, format!("objects/{name}/{branch}"))),
            Engine::Graph => {
                units.push((name, format!("graph/{name}/{branch}")));
                if let Some(version) = &manifest.package.version {
                    units.push((name, format!("graph/{name}/{branch}@{version}")));
                }
            }
        }
    }
    units
}

/// 413 `namespace.quota_exceeded`, with the figures.
fn quota_exceeded(namespace: &str, figures: QuotaFigures, quota: u64) -> ApiError {
    let QuotaFigures { used, asked } = figures;
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        codes::NAMESPACE_QUOTA_EXCEEDED,
        "Namespace quota exceeded",
        format!(
            "namespace {namespace} holds {used} bytes of its quota of {quota} bytes, and this push adds {asked} bytes of new content: delete datasets of the namespace (a push with --replace), or ask the server's operator to raise its quota ([quotas])"
        ),
    )
    .with("namespace", namespace)
    .with("used", used)
    .with("quota", quota)
    .with("asked", asked)
}

/// The push a step-up challenge names: the resumed one if it is the caller's, else a new
/// one recorded now (nothing staged, no URLs given). The retry with this ID after the
/// step-up goes through every check again; a commit of a protected push checks the
/// identity again too, so a reserved push cannot be committed without the step-up.
async fn reserve(
    app: &App,
    principal: &Principal,
    manifest: &CreatePush,
    resume: Option<&str>,
) -> ApiResult<String> {
    if let Some(id) = resume
        && app
            .db
            .push(id)
            .await?
            .is_some_and(|record| record.principal == principal.user && !record.expired)
    {
        return Ok(id.to_owned());
    }
    let rows = written_datasets(manifest);
    let id = uuid::Uuid::now_v7().to_string();
    app.db
        .create_push(&id, &principal.user, manifest, true, &rows)
        .await?;
    tracing::info!(push = %id, branch = %manifest.branch, user = %principal.user, "push reserved until the step-up");
    Ok(id)
}

/// Checks the manifest, within the server's `[limits]`, before anything is recorded;
/// returns its distinct contents (sha256 → size). The checks live in
/// `stone_api::validate`, where the fuzz target `push_manifest` reaches them.
fn validate(app: &App, manifest: &CreatePush) -> ApiResult<BTreeMap<String, u64>> {
    let limits = app.settings.config.limits.push_limits();
    stone_api::validate::validate_manifest_within(manifest, &limits).map_err(refusal)
}

/// A manifest or a batch of files the push API does not take, as its problem: each rule
/// ([`stone_api::validate::Refusal`]) with its status and code, naming the field.
pub(super) fn refusal(invalid: stone_api::validate::InvalidField) -> ApiError {
    use stone_api::validate::Refusal;
    match invalid.kind {
        Refusal::InvalidSize => ApiError::new(
            StatusCode::BAD_REQUEST,
            codes::MANIFEST_INVALID_SIZE,
            "Invalid size",
            invalid.message,
        ),
        Refusal::TooLarge => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            codes::PUSH_TOO_LARGE,
            "Push too large",
            invalid.message,
        ),
        _ => ApiError::invalid(invalid.message),
    }
    .with("field", &invalid.field)
}

fn state_text(state: PushState) -> &'static str {
    match state {
        PushState::Staging => "staging",
        PushState::Committing => "committing",
        PushState::Succeeded => "succeeded",
        PushState::Failed => "failed",
        PushState::Unknown => "unknown",
    }
}

/// The datasets of a push as the wire shows them.
fn progress(app: &App, namespace: &str, datasets: &[DatasetRecord]) -> Vec<DatasetProgress> {
    datasets
        .iter()
        .map(|record| {
            let (url, iri) = dataset_urls(&app.settings.public_host, namespace, &record.name);
            DatasetProgress {
                name: record.name.clone(),
                url,
                iri,
                kind: record.kind,
                engine: record.kind.engine(),
                state: record.state,
                status: record.status,
                detail: record.detail.clone(),
                error: record.error.clone(),
            }
        })
        .collect()
}

async fn load(app: &App, caller: Caller, id: &str) -> ApiResult<(PushRecord, Principal)> {
    let principal = caller.require()?;
    let record = visible(id, &principal, app.db.push(id).await?, |r| {
        (r.principal.as_str(), r.expired)
    })?;
    Ok((record, principal))
}

/// A push as the caller may see it: another user's push is not found (404), an expired
/// one is gone (410). `owner` gives a record's principal and whether it expired.
fn visible<T>(
    id: &str,
    principal: &Principal,
    record: Option<T>,
    owner: impl Fn(&T) -> (&str, bool),
) -> ApiResult<T> {
    let record = record
        .filter(|record| owner(record).0 == principal.user)
        .ok_or_else(|| ApiError::push_not_found(id))?;
    if owner(&record).1 {
        return Err(ApiError::push_expired(id));
    }
    Ok(record)
}

/// Query of `GET /v1/pushes/{id}`.
#[derive(Debug, serde::Deserialize)]
pub struct StatusQuery {
    /// Only the datasets changed after this change number (`changes` of an earlier answer).
    since: Option<u64>,
    /// With `since`: answer once something changed after it (and [`STATUS_GATHER`] has
    /// passed since the request came, gathering the changes that follow), or the push is
    /// finished, or after this many seconds (at most [`MAX_STATUS_WAIT`]), whichever
    /// comes first.
    wait: Option<u64>,
    /// At most this many datasets (at most [`stone_api::MAX_STATUS_PAGE`]), in (change,
    /// position) order; the answer's `after` says when more changed (issue 27: a push of
    /// 100,000 datasets). Without it, every dataset changed, in position order.
    limit: Option<usize>,
    /// With `limit`: the page goes on from the dataset at this position of change `since`
    /// (the `changes` and `after` of the page before); the answer comes at once.
    after: Option<u64>,
}

/// The longest a status request waits for a change (`?wait=`).
pub const MAX_STATUS_WAIT: Duration = Duration::from_secs(20);
/// How long a waiting status request that saw a change gathers more before it answers,
/// from when it came (unless the push finishes first): a client that polls again at once
/// asks at most this often, instead of once per change (a commit of thousands of datasets
/// makes a change every few milliseconds, and each answer reads the push's datasets).
pub const STATUS_GATHER: Duration = Duration::from_millis(250);
/// How often a waiting status request reads the push again: changes made by another
/// replica wake no one here.
const STATUS_RECHECK: Duration = Duration::from_millis(250);

/// `GET /v1/pushes/{id}`.
pub async fn status(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(id): Path<String>,
    query: Result<Query<StatusQuery>, QueryRejection>,
) -> ApiResult<Json<PushStatus>> {
    let Query(query) = query.map_err(ApiError::bad_query)?;
    let principal = caller.require()?;
    let since = query
        .since
        .map_or(-1, |since| i64::try_from(since).unwrap_or(i64::MAX));
    let limit = query
        .limit
        .map(|limit| limit.clamp(1, stone_api::MAX_STATUS_PAGE));
    let after = match (limit, query.after) {
        (Some(_), Some(after)) => Some(i64::try_from(after).unwrap_or(i64::MAX)),
        _ => None,
    };
    let wait = match query.since {
        // The next page of what changed: at once.
        Some(_) if after.is_some() => Duration::ZERO,
        Some(_) => Duration::from_secs(query.wait.unwrap_or(0)).min(MAX_STATUS_WAIT),
        None => Duration::ZERO,
    };
    let asked = tokio::time::Instant::now();
    let deadline = asked + wait;
    let gathered = asked + STATUS_GATHER.min(wait);
    let mut shutdown = app.runner.shutdown_signal();
    // The push first, then its datasets: every change up to the push's counter is then
    // among the datasets read (a later one may be too, and comes again next time).
    let record = loop {
        // Listening before reading, so that a change in between is not missed.
        let changed = app.db.changed();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let record = visible(&id, &principal, app.db.push_summary(&id).await?, |r| {
            (r.principal.as_str(), r.expired)
        })?;
        let now = tokio::time::Instant::now();
        let left = deadline.saturating_duration_since(now);
        let moved = record.changes > since;
        if (moved && now >= gathered)
            || record.state.is_terminal()
            || left.is_zero()
            || *shutdown.borrow()
        {
            break record;
        }
        // Moved: more changes are gathered until `gathered` (an end of the push wakes it).
        let sleep = if moved {
            gathered.saturating_duration_since(now)
        } else {
            left.min(STATUS_RECHECK)
        };
        tokio::select! {
            () = &mut changed => {}
            () = tokio::time::sleep(sleep) => {}
            _ = shutdown.changed() => {}
        }
    };
    let (datasets, changes, after) = match limit {
        None => (
            app.db.datasets_changed_after(&id, since).await?,
            record.changes,
            None,
        ),
        Some(limit) => {
            let (page, more) = app.db.datasets_page(&id, since, after, limit).await?;
            // Cut short: the next page starts after the last dataset listed.
            let next = page
                .last()
                .filter(|_| more)
                .map(|(changed, last)| (*changed, last.position));
            let datasets = page.into_iter().map(|(_, record)| record).collect();
            match next {
                Some((changed, position)) => (datasets, changed, u64::try_from(position).ok()),
                None => (datasets, record.changes, None),
            }
        }
    };
    let (url, iri) = namespace_urls(&app.settings.public_host, &record.namespace);
    Ok(Json(PushStatus {
        push_id: record.id.clone(),
        state: record.state,
        namespace: record.namespace.clone(),
        branch: record.branch.clone(),
        created_at: record.created_at.clone(),
        updated_at: record.updated_at.clone(),
        datasets: progress(&app, &record.namespace, &datasets),
        changes: u64::try_from(changes).ok(),
        after,
        package_node: PackageNodeProgress {
            url,
            iri,
            status: record.node_status,
        },
        result: record.result,
        error: record.error,
    }))
}

/// `POST /v1/pushes/{id}/commit`.
pub async fn commit(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (mut record, principal) = load(&app, caller, &id).await?;
    let accepted = |state| {
        (
            StatusCode::ACCEPTED,
            Json(CommitAccepted {
                push_id: id.clone(),
                state,
            }),
        )
            .into_response()
    };
    if matches!(record.state, PushState::Committing | PushState::Succeeded) {
        return Ok(accepted(record.state));
    }
    // Again at commit: the package may have changed since (made public by someone
    // else), and the policy with it.
    app.authz
        .authorize_push(&app.db, &principal, &record.manifest)
        .await?;
    if record.protected {
        // Again at commit: a push reserved by a step-up challenge must not be committed
        // with the token that was challenged.
        app.guards
            .check_identity(&record.branch, &record.manifest.options, &principal)?;
    }
    if record.manifest.paged_files {
        // Issue 27: an object-storage dataset whose listing is its head's adds nothing
        // (no content to check, no quota): its files are not read (the commit finds it
        // unchanged the same way). A protected push's guard reads every file.
        let unchanged = if record.protected && !record.manifest.options.force {
            BTreeMap::new()
        } else {
            app.db
                .unchanged_listings(&app.engines.blob, &id, &record.manifest, |_| true)
                .await?
        };
        if !record.protected || record.manifest.options.force {
            // Issue 27: nothing reads its files whole: checked page by page.
            check_paged(&app, &principal, &id, &record, &unchanged).await?;
            return start_commit(&app, &id).await.map(accepted);
        }
        app.db
            .fill_paged_files_except(&id, &mut record.manifest, &unchanged)
            .await?;
        let empty = record
            .manifest
            .datasets
            .iter()
            .find(|d| d.files.is_empty() && !unchanged.contains_key(&d.name));
        if let Some(empty) = empty {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                codes::PUSH_INCOMPLETE,
                "Content is missing",
                format!(
                    "dataset {} of push {id} has no files: send them (POST /v1/pushes/{id}/files) before the commit",
                    empty.name
                ),
            )
            .at(format!("/v1/pushes/{id}")));
        }
        if record.protected && !record.manifest.options.force {
            let violations = force_violations(
                &record.manifest,
                &app.engines,
                &app.db,
                &app.settings.public_host,
            )
            .await?;
            if !violations.is_empty() {
                return Err(violations_problem(&record.branch, violations));
            }
        }
    }
    let mut contents: BTreeMap<&str, u64> = BTreeMap::new();
    for dataset in &record.manifest.datasets {
        for file in &dataset.files {
            contents.insert(&file.sha256, file.size);
        }
    }
    let contents: Vec<(&str, u64)> = contents.into_iter().collect();
    let all: Vec<&str> = contents.iter().map(|(sha256, _)| *sha256).collect();
    let direct = direct_targets(&app, &record.manifest);
    let missing = unstaged(&app, &principal, &contents, &direct, &record.created_at).await?;
    if !missing.is_empty() {
        return Err(push_incomplete(&id, missing.len(), missing));
    }
    // The namespace's quota, exactly, now that the push is complete: what it adds is
    // recorded (and what it deletes freed) in the same step as the check, one push of a
    // namespace at a time, so two pushes cannot both pass on the same remaining bytes.
    let rows = recorded_datasets(&app, &id).await?;
    let quota = app
        .settings
        .config
        .quotas
        .bytes_for(&record.manifest.namespace);
    let (figures, recorded) = app
        .db
        .reserve_quota(&quota_change(&record.manifest, &rows), quota)
        .await?;
    if !recorded {
        return Err(quota_exceeded(
            &record.manifest.namespace,
            figures,
            quota.unwrap_or_default(),
        )
        .at(format!("/v1/pushes/{id}")));
    }
    // What this push commits: once it succeeds, whoever may read its namespace and
    // branch may reuse these contents.
    app.db.record_push_contents(&id, &all).await?;
    start_commit(&app, &id).await.map(accepted)
}

/// Moves a checked push to `committing` and wakes the runner.
async fn start_commit(app: &App, id: &str) -> ApiResult<PushState> {
    let state = app
        .db
        .start_commit(id)
        .await?
        .ok_or_else(|| ApiError::push_not_found(id))?;
    app.runner.wake();
    tracing::info!(push = %id, "commit accepted");
    Ok(state)
}

/// Files of a paged push whose contents are checked at once at commit.
const PAGED_CHECK: usize = 10_000;

/// Issue 27: the commit checks of a paged push that no guard reads, without its files in
/// memory: every dataset has files (or is `unchanged`), every content of the others is
/// staged and reusable or completed now (page by page from `push_files`), and the
/// namespace's quota takes what they add (computed by the database).
async fn check_paged<T>(
    app: &App,
    principal: &Principal,
    id: &str,
    record: &PushRecord,
    unchanged: &BTreeMap<String, T>,
) -> ApiResult<()> {
    let counts = app.db.paged_file_counts(id).await?;
    let empty =
        record.manifest.datasets.iter().find(|d| {
            counts.get(&d.name).is_none_or(|n| *n == 0) && !unchanged.contains_key(&d.name)
        });
    if let Some(empty) = empty {
        // Issue 27: its files were not sent because its declared listing was its head's,
        // and the head changed since.
        let detail = if empty.listing.is_some() {
            format!(
                "dataset {} of push {id} has no files, and its declared listing is not its head's (any more: the head may have changed since the push was created); post the manifest again (push_id) and send its files (POST /v1/pushes/{id}/files)",
                empty.name
            )
        } else {
            format!(
                "dataset {} of push {id} has no files: send them (POST /v1/pushes/{id}/files) before the commit",
                empty.name
            )
        };
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            codes::PUSH_INCOMPLETE,
            "Content is missing",
            detail,
        )
        .with("dataset", &empty.name)
        .at(format!("/v1/pushes/{id}")));
    }
    let skip: Vec<&str> = unchanged.keys().map(String::as_str).collect();
    let (mut missing, mut count) = (Vec::new(), 0usize);
    let (started, mut checked) = (std::time::Instant::now(), 0usize);
    // Every file of the datasets to write, a page at a time across datasets (a content two
    // pages share is checked twice): one query a page, whether the push has one folder of
    // a million files or a million one-file resources.
    let mut after: Option<(String, String)> = None;
    loop {
        let page = app
            .db
            .paged_files_page(
                id,
                after.as_ref().map(|(d, p)| (d.as_str(), p.as_str())),
                PAGED_CHECK,
            )
            .await?;
        let Some((dataset, last)) = page.last() else {
            break;
        };
        after = Some((dataset.clone(), last.path.clone()));
        let mut contents: Vec<(&str, u64)> = page
            .iter()
            .filter(|(dataset, _)| !unchanged.contains_key(dataset))
            .map(|(_, f)| (f.sha256.as_str(), f.size))
            .collect();
        if contents.is_empty() {
            continue;
        }
        contents.sort_unstable();
        contents.dedup();
        checked += contents.len();
        // A paged push has no straight targets: its creation time is not asked for.
        let unstaged = unstaged(app, principal, &contents, &HashMap::new(), "").await?;
        count += unstaged.len();
        // The first ones name what is missing; the count says how much.
        let room = PAGED_CHECK.saturating_sub(missing.len());
        missing.extend(unstaged.into_iter().take(room));
    }
    if count > 0 {
        return Err(push_incomplete(id, count, missing));
    }
    let contents_ms = started.elapsed().as_millis();
    let rows = recorded_datasets(app, id).await?;
    let written = record
        .manifest
        .datasets
        .iter()
        .any(|d| !unchanged.contains_key(&d.name));
    if !written && !rows.iter().any(|row| row.operation == Operation::Delete) {
        // Nothing added, nothing freed: the quota cannot be exceeded, nothing to record.
        return Ok(());
    }
    let quota = app
        .settings
        .config
        .quotas
        .bytes_for(&record.manifest.namespace);
    // The datasets' files are not in the manifest: the change names only the deletes, and
    // the database adds the push's files.
    let change = quota_change(&record.manifest, &rows);
    let (figures, recorded) = app
        .db
        .reserve_paged_quota(&change, id, &skip, quota)
        .await?;
    if !recorded {
        return Err(quota_exceeded(
            &record.manifest.namespace,
            figures,
            quota.unwrap_or_default(),
        )
        .at(format!("/v1/pushes/{id}")));
    }
    app.db.record_paged_contents(id, &skip).await?;
    tracing::info!(
        push = %id,
        contents = checked,
        contents_ms,
        total_ms = started.elapsed().as_millis(),
        "paged push checked"
    );
    Ok(())
}

/// `POST /v1/pushes/{id}/uploads/{sha256}/complete`.
pub async fn complete_upload(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path((id, sha256)): Path<(String, String)>,
    _headers: HeaderMap,
) -> ApiResult<Json<UploadCompleted>> {
    let principal = caller.require()?;
    // A paged push's files are rows of their own: its manifest (100,000 datasets, tens of
    // MB) is not read for each completed upload.
    let summary = visible(&id, &principal, app.db.push_summary(&id).await?, |r| {
        (r.principal.as_str(), r.expired)
    })?;
    let unknown = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            codes::STAGING_UNKNOWN_UPLOAD,
            "Unknown upload",
            format!("push {id} has no content {sha256} being uploaded"),
        )
    };
    let size = if summary.paged_files {
        app.db.paged_file_size(&id, &sha256).await?
    } else {
        let record = app
            .db
            .push(&id)
            .await?
            .ok_or_else(|| ApiError::push_not_found(&id))?;
        record
            .manifest
            .datasets
            .iter()
            .flat_map(|d| d.files.iter())
            .find(|f| f.sha256 == sha256)
            .map(|f| f.size)
    }
    .ok_or_else(unknown)?;
    let staged = Json(UploadCompleted {
        sha256: sha256.clone(),
        size,
        staged: true,
    });
    match app
        .staging
        .complete(&sha256, size, &holder_key(&principal.user))
        .await
    {
        Ok(Completion::Staged) => {
            app.engines
                .blob
                .content_staged(&holder_key(&principal.user), &sha256);
            Ok(staged)
        }
        Ok(Completion::NoUpload) => {
            // Completed before (a retry), or reusable: staged for this caller all the same.
            let reusable = may_reuse(&app, &principal, &[sha256.as_str()]).await?;
            if reusable.contains(&sha256)
                && app
                    .staging
                    .is_staged(&sha256, size)
                    .await
                    .map_err(ApiError::internal)?
            {
                Ok(staged)
            } else {
                Err(unknown())
            }
        }
        Ok(Completion::PartsMissing(parts)) => Err(ApiError::new(
            StatusCode::CONFLICT,
            codes::STAGING_PARTS_MISSING,
            "Parts missing",
            format!("{} part(s) of {sha256} have not been uploaded", parts.len()),
        )
        .with("missing_parts", parts)),
        Err(error) => Err(super::staging::staging_error(error)),
    }
}
