//! What a push must upload: the contents the caller may reuse, those already staged or
//! already in their dataset's object (issue 24), and the upload URLs of the others, when a
//! push (or a batch of its files) is posted and again when it is committed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::StreamExt;
use stone_api::{CreatePush, Engine};

use super::App;
use crate::auth::{Caller, Principal};
use crate::error::{ApiError, ApiResult};
use crate::staging::{Completion, StagingError, holder_key};
use crate::straight::Reliance;

/// Contents checked at once when a push is created or committed (file checks or S3
/// requests).
const CONTENT_CHECKS: usize = 16;

/// What a push (or a batch of its files) must upload.
pub(super) struct Planned {
    pub uploads: Vec<stone_api::Upload>,
    pub already_staged: Vec<String>,
    pub more_uploads: bool,
    /// Issue 27: where the small ones of `uploads` may go together, when the server stages
    /// them itself and there are several.
    pub pack: Option<stone_api::PackUpload>,
}

/// The uploads of `contents` (sha256 → size), for the manifest of a push or a batch of
/// its files. A package may name thousands of contents. Those the caller may reuse are
/// checked together (one file check each, or a request each on S3, several at a time);
/// any other is asked for, staged or not (the answer never tells whether someone else
/// has it), unless it is a multipart upload of the caller's whose parts are all there,
/// to assemble, or (`resumed`, on a store that needs it) a small upload of the caller's
/// still to verify. Contents found staged are touched, so that the garbage collection
/// keeps them. A content `direct` names (issue 24: [`direct_targets`]) and that is not
/// reused is there when its dataset's object holds it already, and is otherwise uploaded
/// straight to that object where the store can prove what lands there. An object there is
/// the push's (created at `created`) only as `straight.rs` rules.
pub(super) async fn plan_uploads(
    app: &App,
    principal: &Principal,
    push: &str,
    contents: &BTreeMap<String, u64>,
    direct: &HashMap<String, String>,
    (resumed, created): (bool, DateTime<Utc>),
) -> ApiResult<Planned> {
    let holder = holder_key(&principal.user);
    let reliance = &Reliance::new(
        app.staging.as_ref(),
        &app.engines.blob,
        created,
        app.settings.config.gc.clock_margin(),
    );
    let part_size = app.settings.config.staging.part_size;
    let listed: Vec<(&str, u64)> = contents
        .iter()
        .map(|(sha256, size)| (sha256.as_str(), *size))
        .collect();
    let found: Vec<String> = staged_reusable(app, principal, &listed)
        .await?
        .into_iter()
        .map(str::to_owned)
        .collect();
    for sha256 in &found {
        crate::staging::test_pause(&format!("reuse-{sha256}")).await;
    }
    // Reused contents: touched now, so that the garbage collection keeps them for this push
    // (a sweep that read the live pushes before this one existed reads their age again
    // before deleting); one the sweep took since the check is not touched, and uploaded.
    let reused: BTreeSet<String> = app
        .staging
        .touch(&found)
        .await
        .map_err(ApiError::internal)?
        .into_iter()
        .collect();

    let ttl = Duration::from_secs(app.settings.config.staging.url_ttl_seconds);
    let mut uploads = Vec::new();
    let mut already_staged = Vec::new();
    // An answer hands out at most `max_part_urls` part URLs (the first multipart content
    // always gets its own): the contents past that come with the next post of the
    // manifest or batch (`more_uploads`), so that a small request never gets a huge answer.
    let mut part_urls = app.settings.config.limits.max_part_urls;
    let mut multipart_given = false;
    let mut more_uploads = false;
    let listed: Vec<(&String, &u64)> = contents
        .iter()
        .filter(|(sha256, size)| {
            if reused.contains(sha256.as_str()) || **size <= part_size {
                return true;
            }
            let parts =
                usize::try_from(size.div_ceil(crate::staging::part_size_for(**size, part_size)))
                    .unwrap_or(usize::MAX);
            if multipart_given && parts > part_urls {
                more_uploads = true;
                return false;
            }
            multipart_given = true;
            part_urls = part_urls.saturating_sub(parts);
            true
        })
        .collect();
    let small_to_complete = resumed && app.staging.single_uploads_need_completion();
    let checks: Vec<_> = listed
        .into_iter()
        .map(|(sha256, size)| {
            let holder = holder.as_str();
            // Staged and reusable; otherwise a large one may be the caller's multipart
            // upload, to complete, and a small one is asked for (unless it may be the
            // caller's upload to complete, above).
            let known = if reused.contains(sha256.as_str()) {
                Some(true)
            } else {
                (*size <= part_size && !small_to_complete).then_some(false)
            };
            let target = direct.get(sha256.as_str()).filter(|_| known != Some(true));
            async move {
                if let Some(key) = target {
                    if reliance
                        .holds(key, sha256, *size)
                        .await
                        .map_err(ApiError::internal)?
                    {
                        return Ok(Err(sha256.clone()));
                    }
                    if let Some(upload) = app
                        .staging
                        .upload_to(key, sha256, *size, ttl)
                        .await
                        .map_err(ApiError::internal)?
                    {
                        return Ok(Ok(upload));
                    }
                }
                let staged = match known {
                    Some(staged) => staged,
                    None => match app.staging.complete(sha256, *size, holder).await {
                        Ok(Completion::Staged) => true,
                        Ok(_) => false,
                        Err(
                            StagingError::DigestMismatch { .. } | StagingError::SizeMismatch { .. },
                        ) => false,
                        Err(error) => return Err(ApiError::internal(error)),
                    },
                };
                if staged {
                    return Ok(Err(sha256.clone()));
                }
                let upload = app
                    .staging
                    .upload(sha256, *size, ttl, holder)
                    .await
                    .map_err(ApiError::internal)?;
                Ok(Ok(upload))
            }
        })
        .collect();
    let mut checked = futures::stream::iter(checks).buffered(CONTENT_CHECKS);
    while let Some(checked) = checked.next().await {
        match checked? {
            Ok(upload) => uploads.push(upload),
            Err(staged) => already_staged.push(staged),
        }
    }
    drop(checked);
    let pack = app.local_staging.as_ref().and_then(|local| {
        let small = local.pack_member_size();
        let packable = uploads
            .iter()
            .filter(|u| u.url.is_some() && u.parts.is_none() && u.size <= small)
            .count();
        (packable > 1).then(|| local.pack_upload(&holder, push, ttl))
    });
    Ok(Planned {
        uploads,
        already_staged,
        more_uploads,
        pack,
    })
}

/// Issue 24: where the caller uploads contents straight into the blob store, by sha256:
/// the key of the object that the one object-storage dataset naming the content keeps it
/// in on the push's branch ([`crate::engines::blob::BlobEngine::object_key`]), when the blob
/// store is the S3 staging store's bucket (same endpoint and key). The commit then finds
/// the object in place and copies nothing. Not for a content another dataset of the push
/// names too (staged as usual, for each to take), nor in a paged push (its batches stage
/// their contents); the staging store decides whether it can prove what lands there
/// ([`crate::staging::StagingStore::upload_to`]). The caller may write the namespace, so
/// it may read the dataset: that its object holds a content tells it nothing it could not
/// read.
pub(super) fn direct_targets(app: &App, manifest: &CreatePush) -> HashMap<String, String> {
    let mut targets = HashMap::new();
    if !app.engines.blob_copies_from_staging || manifest.paged_files {
        return targets;
    }
    // Each content with the one dataset that names it, `None` once a second one does.
    let mut named_by: HashMap<&str, Option<&stone_api::DatasetManifest>> = HashMap::new();
    for dataset in &manifest.datasets {
        for file in &dataset.files {
            named_by
                .entry(file.sha256.as_str())
                .and_modify(|by| {
                    if by.is_some_and(|by| by.name != dataset.name) {
                        *by = None;
                    }
                })
                .or_insert(Some(dataset));
        }
    }
    for (sha256, by) in named_by {
        let Some(dataset) = by.filter(|d| d.kind.engine() == Engine::ObjectStorage) else {
            continue;
        };
        if let Ok(key) = app.engines.blob.object_key(
            &manifest.namespace,
            &dataset.name,
            &manifest.branch,
            sha256,
        ) {
            targets.insert(sha256.to_owned(), key);
        }
    }
    targets
}

/// The contents among `contents` (sha256, size) that the caller may reuse ([`may_reuse`])
/// and that are staged now, in order.
async fn staged_reusable<'a>(
    app: &App,
    principal: &Principal,
    contents: &[(&'a str, u64)],
) -> ApiResult<Vec<&'a str>> {
    let all: Vec<&str> = contents.iter().map(|(sha256, _)| *sha256).collect();
    let reusable = may_reuse(app, principal, &all).await?;
    let candidates: Vec<(&str, u64)> = contents
        .iter()
        .filter(|(sha256, _)| reusable.contains(*sha256))
        .copied()
        .collect();
    let staged = app
        .staging
        .staged_among(&candidates)
        .await
        .map_err(ApiError::internal)?;
    Ok(candidates
        .into_iter()
        .zip(staged)
        .filter(|(_, staged)| *staged)
        .map(|((sha256, _), _)| sha256)
        .collect())
}

/// The one rule of content reuse: a push may take a staged content without uploading it
/// only if the caller holds it (an upload of it by the caller was verified) or a push that
/// succeeded committed it to a namespace and branch the caller may read
/// ([`super::dataset::authorize_read`]). Returns the reusable ones among `sha256s`. A content
/// that is not reusable is asked for exactly like one nobody has: no answer tells whether
/// someone else holds it.
pub(super) async fn may_reuse(
    app: &App,
    principal: &Principal,
    sha256s: &[&str],
) -> ApiResult<BTreeSet<String>> {
    let mut reusable = app
        .db
        .held_among(&holder_key(&principal.user), sha256s)
        .await?;
    let rest: Vec<&str> = sha256s
        .iter()
        .filter(|sha256| !reusable.contains(**sha256))
        .copied()
        .collect();
    if rest.is_empty() {
        return Ok(reusable);
    }
    let caller = Caller(Some(principal.clone()));
    let mut readable: BTreeMap<(String, String), bool> = BTreeMap::new();
    for (sha256, namespace, branch) in app.db.committed_places(&rest).await? {
        if reusable.contains(&sha256) {
            continue;
        }
        let place = (namespace, branch);
        let may_read = match readable.get(&place) {
            Some(may_read) => *may_read,
            None => {
                let may_read = super::dataset::authorize_read(app, &caller, &place.0, &place.1)
                    .await
                    .is_ok();
                readable.insert(place, may_read);
                may_read
            }
        };
        if may_read {
            reusable.insert(sha256);
        }
    }
    Ok(reusable)
}

/// The contents among `contents` (sha256, size) that are neither staged and reusable by
/// the caller, nor in the object `direct` names for them ([`direct_targets`]), nor
/// completed now: the caller must upload them. `created`: when the push was.
pub(super) async fn unstaged(
    app: &App,
    principal: &Principal,
    contents: &[(&str, u64)],
    direct: &HashMap<String, String>,
    created: &str,
) -> ApiResult<Vec<String>> {
    let reliance = &Reliance::of_record(
        app.staging.as_ref(),
        &app.engines.blob,
        created,
        app.settings.config.gc.clock_margin(),
    );
    // Only contents the caller may reuse count as there; any other must be its own upload.
    let staged: BTreeSet<&str> = staged_reusable(app, principal, contents)
        .await?
        .into_iter()
        .collect();
    let holder = holder_key(&principal.user);
    let checks: Vec<_> = contents
        .iter()
        .filter(|(sha256, _)| !staged.contains(sha256))
        .map(|&(sha256, size)| {
            let holder = holder.as_str();
            let target = direct.get(sha256);
            async move {
                if let Some(key) = target
                    && reliance
                        .holds(key, sha256, size)
                        .await
                        .map_err(ApiError::internal)?
                {
                    return Ok(None);
                }
                match app.staging.complete(sha256, size, holder).await {
                    Ok(Completion::Staged) => Ok(None),
                    Ok(Completion::NoUpload | Completion::PartsMissing(_))
                    | Err(
                        StagingError::DigestMismatch { .. } | StagingError::SizeMismatch { .. },
                    ) => Ok(Some(sha256.to_owned())),
                    Err(error) => Err(ApiError::internal(error)),
                }
            }
        })
        .collect();
    let mut missing = Vec::new();
    let mut checked = futures::stream::iter(checks).buffered(CONTENT_CHECKS);
    while let Some(checked) = checked.next().await {
        missing.extend(checked?);
    }
    drop(checked);
    Ok(missing)
}
