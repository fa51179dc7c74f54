//! The bundled service handler: pushes to the platform's push API.
//!
//! `POST /pushes` with the manifest → upload only what the server lacks, to the presigned
//! staging URLs it returns, in parallel, streaming from disk → `POST /pushes/{id}/commit`
//! (202) → poll `GET /pushes/{id}` until the result. The push ID is saved before the first
//! upload, so running the same command again resumes. Staging URLs never get our
//! credentials: uploads go through a separate HTTP client that has none.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use reqwest::{Method, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use stone_api::push::{
    CommitAccepted, CreatePush, DatasetFiles, DatasetManifest, DatasetProgress, DatasetState,
    DatasetStatus, FileBatch, FilesAccepted, FolderListing, MAX_FILE_BATCH, MAX_STATUS_PAGE,
    ManifestFile, PushCreated, PushFlags, PushState, PushStatus, Upload,
};
use stone_api::{Engine, Problem, codes, redact_url};
use stone_auth::{Secret, StepUpRequest};
use stone_http::retry::{self, Resend, SendError, retryable_status};
use stone_http::{describe, size_in_words};

use stone_package::{Folder, FolderHasher};

use crate::checks::Checking;
use crate::folder::{PreparedPackage, folder_error};
use crate::handler::{BoxFuture, PackagePushHandler, ProgressEvent, PushProgress};
use crate::identity::TokenSource;
use crate::record::{
    DatasetOutcome, PushFile, PushOptions, PushPackage, PushResource, PushResult, status_name,
};
use crate::resume::{self, ResumeState};
use crate::{Phase, PushError};

mod follow;
mod manifest;
mod read_ahead;
mod uploads;

pub use follow::STONE_PUSH_STALL_TIMEOUT;

/// Rounds of create → upload before giving up on URLs that keep expiring.
const ROUNDS: usize = 5;
/// Polls of a commit against a server that does not wait for changes: every 50 ms at
/// first, then at most every 250 ms.
const POLL_FIRST: Duration = Duration::from_millis(50);
const POLL_MAX: Duration = Duration::from_millis(250);
/// How long a poll asks the server to wait for a change (`?since=…&wait=`, seconds).
const POLL_WAIT_SECONDS: u64 = 10;
/// An upload of at most this many bytes is read whole before it is sent (one read in one
/// blocking task, and a body whose bytes the HTTP client writes with its headers); a larger
/// one streams from disk in chunks. A package of many small files spent a tenth of the
/// client's CPU handing each file's open, seek and reads to blocking threads one by one.
const READ_WHOLE: u64 = 1 << 20;

/// An environment the service handler can push to.
#[derive(Debug, Clone)]
pub struct ServiceTarget {
    /// `--env` name.
    pub env: String,
    /// Host of the environment's IRIs: https URLs on it are claimed.
    pub host: String,
    /// Push API base URL; paths (`/pushes`, …) are relative to it.
    pub api: String,
}

pub struct ServiceHandler {
    targets: Vec<ServiceTarget>,
    /// Bearer tokens for the push API; `None`: no token (a `local` server).
    tokens: Option<Arc<dyn TokenSource>>,
    /// For the push API only.
    api: reqwest::Client,
    /// For staging URLs: no credentials, ever.
    uploads: reqwest::Client,
}

impl ServiceHandler {
    pub fn new(targets: Vec<ServiceTarget>) -> Result<ServiceHandler, PushError> {
        let build = |builder: reqwest::ClientBuilder| {
            builder
                // A redirect could take a request (and later its token) to another host.
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .map_err(|e| PushError::Destination(format!("cannot set up HTTP: {e}")))
        };
        Ok(ServiceHandler {
            targets,
            tokens: None,
            api: build(stone_http::client_builder(stone_http::API_READ_TIMEOUT))?,
            uploads: build(stone_http::client_builder(stone_http::UPLOAD_READ_TIMEOUT))?,
        })
    }

    /// Sends a bearer token from `tokens` with every API call (never with uploads).
    pub fn with_tokens(mut self, tokens: Arc<dyn TokenSource>) -> Self {
        self.tokens = Some(tokens);
        self
    }

    fn target(&self, destination: &str, env: &str) -> Result<&ServiceTarget, PushError> {
        let target = self.targets.iter().find(|t| t.env == env).ok_or_else(|| {
            PushError::Destination(format!(
                "the environment `{env}` is not configured for the service handler"
            ))
        })?;
        if let Some(host) = https_host(destination)
            && !host.eq_ignore_ascii_case(&target.host)
        {
            let owner = self
                .targets
                .iter()
                .find(|t| t.host.eq_ignore_ascii_case(&host))
                .map(|t| t.env.as_str());
            return Err(PushError::Destination(format!(
                "{destination} is on the host of the environment `{}`, but --env is `{env}`",
                owner.unwrap_or("?")
            )));
        }
        Ok(target)
    }
}

/// `host[:port]` of an https URL.
fn https_host(destination: &str) -> Option<String> {
    let url = url::Url::parse(destination).ok()?;
    if url.scheme() != "https" {
        return None;
    }
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    })
}

impl PackagePushHandler for ServiceHandler {
    fn name(&self) -> &str {
        "service"
    }

    fn can_handle(&self, destination: &str) -> bool {
        destination.starts_with(stone_package::name::SCHEME)
            || https_host(destination)
                .is_some_and(|h| self.targets.iter().any(|t| t.host.eq_ignore_ascii_case(&h)))
    }

    fn push<'a>(
        &'a self,
        package: &'a PushPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        Box::pin(self.session(package, None, options, progress))
    }

    fn push_prepared<'a>(
        &'a self,
        prepared: &'a PreparedPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        // The folders' files go in batches, each walked and hashed (from the cache) when
        // its turn comes; the checks run beside the uploads.
        Box::pin(self.session(&prepared.package, Some(prepared), options, progress))
    }
}

impl ServiceHandler {
    /// The push of `package`; `prepared` (the package it is the record of) gives its large
    /// folders, streamed in batches, and its checks.
    async fn session(
        &self,
        package: &PushPackage,
        prepared: Option<&PreparedPackage>,
        options: &PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> Result<PushResult, PushError> {
        let (folders, listings, hash_jobs, checks) = match prepared {
            Some(p) => (&p.folders[..], &p.listings[..], p.jobs, p.checks.clone()),
            None => (&[][..], &[][..], 1, Vec::new()),
        };
        // Started first: the checks run while the push is created and its files go up.
        let mut checking = Checking::start(checks);
        let target = match self.target(&package.destination, &options.env) {
            Ok(target) => target,
            Err(error) => return Err(checking.prefer_failure(error).await),
        };
        let token = match &self.tokens {
            Some(tokens) => match tokens.token(&options.env).await {
                Ok(token) => token,
                Err(error) => return Err(checking.prefer_failure(error).await),
            },
            None => None,
        };
        Session {
            handler: self,
            api: target.api.trim_end_matches('/').to_owned(),
            files: file_count(package, folders),
            package,
            folders,
            listings,
            hash_jobs,
            options,
            progress,
            token: std::sync::Mutex::new(token),
        }
        .run(checking)
        .await
    }
}

struct Session<'a> {
    handler: &'a ServiceHandler,
    api: String,
    package: &'a PushPackage,
    /// For each resource: its folder when its files are not listed in `package`.
    folders: &'a [Option<Box<Folder>>],
    /// For each resource with a folder: its listing as the plan digested it (declared in
    /// a paged manifest: a server whose head has it needs none of the folder's files).
    listings: &'a [Option<FolderListing>],
    /// The package's files, those of its folders included ([`file_count`]).
    files: usize,
    /// Threads hashing a folder's files again.
    hash_jobs: usize,
    options: &'a PushOptions,
    progress: Arc<dyn PushProgress>,
    /// The bearer token of API calls (renewed or stepped up during the push).
    token: std::sync::Mutex<Option<Secret<String>>>,
}

/// The files of a package to push, those of its folders included. Counted once a push:
/// whether the push is paged is asked for each dataset of its manifest (counting there
/// made the manifest of 100,000 resources take 16 s).
fn file_count(package: &PushPackage, folders: &[Option<Box<Folder>>]) -> usize {
    package
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| match folders.get(i).and_then(Option::as_deref) {
            Some(folder) => folder.files,
            None => r.files.len(),
        })
        .sum()
}

enum UploadFailure {
    Expired,
    Failed(PushError),
}

/// A push whose uploads are done (or that the server had committed already).
struct Staged {
    created: PushCreated,
    uploaded_bytes: u64,
    already_staged: usize,
}

impl<'a> Session<'a> {
    /// The push: its uploads beside the package's checks, then (both done) the commit and
    /// its follow. A failed check stops the uploads; a push that fails while the checks
    /// run reports a check's failure first ([`Checking::prefer_failure`]).
    async fn run(&self, mut checking: Checking) -> Result<PushResult, PushError> {
        let state_path =
            resume::state_path(&self.package.root, &self.options.env, &self.options.branch);
        let Staged {
            created,
            uploaded_bytes,
            already_staged,
        } = checking
            .beside(self.stage(&state_path), Duration::from_secs(1), || {
                self.progress.event(ProgressEvent::Note(
                    "uploads done; the commit waits for the graphs' RDF validation".into(),
                ))
            })
            .await?;
        self.commit(created, &state_path, uploaded_bytes, already_staged)
            .await
    }

    /// Creates (or resumes) the push and uploads what the server asks for.
    async fn stage(&self, state_path: &Path) -> Result<Staged, PushError> {
        let mut push_id = resume::load(state_path, &self.api).map(|s| s.push_id);
        // Where each content is on disk, for the uploads the server asks for: the whole
        // package when its manifest lists every file (at most one batch of them), each
        // batch's files when they go in batches (see send_batches).
        let local = if self.paged() {
            HashMap::new()
        } else {
            local_files(
                self.package
                    .resources
                    .iter()
                    .flat_map(|r| &r.files)
                    .cloned(),
            )
        };

        let mut uploaded_bytes = 0u64;
        let mut already_staged = 0usize;
        let mut rounds = 0;
        let mut stepped_up = false;
        let created = loop {
            let resumed = push_id.is_some();
            let created = match self.create(push_id.clone()).await {
                Err(PushError::Refused { problem, .. }) if resumed && is_stale_push(&problem) => {
                    // The saved push is gone, expired or was committed with other content: start
                    // anew.
                    resume::clear(state_path);
                    push_id = None;
                    continue;
                }
                Err(PushError::Refused { problem, .. })
                    if problem.code == codes::AUTH_STEP_UP_REQUIRED && !stepped_up =>
                {
                    // RFC 9470: authenticate again as challenged, then retry the push the
                    // server reserved for us under the same ID.
                    stepped_up = true;
                    push_id = self.step_up(&problem).await?.or(push_id);
                    continue;
                }
                other => other?,
            };
            // The manifest's body and the answer's text are freed.
            crate::memory::give_back();
            push_id = Some(created.push_id.clone());
            resume::save(
                state_path,
                &ResumeState {
                    push_id: created.push_id.clone(),
                    api: self.api.clone(),
                },
            )?;
            if self.paged() {
                if created.state == PushState::Staging {
                    // Issue 27: the resources the server found unchanged from their
                    // declared listing are not sent (only those this push declared).
                    let unchanged = self.unchanged_resources(&created.unchanged);
                    self.progress.event(ProgressEvent::Note(format!(
                        "{} push {}: {} files, sent in batches of {MAX_FILE_BATCH}{}",
                        if resumed { "resuming" } else { "new" },
                        created.push_id,
                        self.files,
                        match unchanged.len() {
                            0 => String::new(),
                            n => format!(
                                "; {n} resource(s) of {} files unchanged on the server: not sent",
                                self.unchanged_files(&unchanged)
                            ),
                        }
                    )));
                    let (bytes, staged) = self.send_batches(&created.push_id, &unchanged).await?;
                    uploaded_bytes += bytes;
                    already_staged += staged;
                }
                break created;
            }
            self.progress.event(ProgressEvent::Created {
                push_id: created.push_id.clone(),
                resumed,
                to_upload: created.uploads.iter().map(|u| u.size).sum(),
                files: created.uploads.len(),
                already_staged: created.already_staged.len(),
            });
            already_staged = created.already_staged.len();
            if created.state != PushState::Staging || created.uploads.is_empty() {
                break created;
            }
            // The server hands out a bounded number of part URLs per answer: the manifest
            // posted again (same push) gives the next ones, or fresh URLs for expired ones.
            let outcome = self
                .upload_all(
                    &created.push_id,
                    &created.uploads,
                    created.pack.as_ref(),
                    &local,
                )
                .await;
            if !self.ask_again(
                outcome,
                created.more_uploads,
                &mut rounds,
                &mut uploaded_bytes,
            )? {
                break created;
            }
        };
        Ok(Staged {
            created,
            uploaded_bytes,
            already_staged,
        })
    }

    /// Commits a staged push and follows it to its result.
    async fn commit(
        &self,
        created: PushCreated,
        state_path: &Path,
        uploaded_bytes: u64,
        already_staged: usize,
    ) -> Result<PushResult, PushError> {
        let push_id = created.push_id.clone();
        // What the commit starts from: the datasets as the server listed them, and its
        // change number then (a server that counts changes), so that following it sends
        // only what the commit changes, from the first poll on.
        let mut start = None;
        if created.state == PushState::Staging {
            let url = format!("{}/pushes/{push_id}/commit", self.api);
            let accepted: CommitAccepted = self
                .request(Phase::Commit, Method::POST, &url, None)
                .await?;
            self.progress.event(ProgressEvent::Committing {
                push_id: accepted.push_id,
            });
            start = created.changes.map(|changes| (created.datasets, changes));
        }
        let (status, datasets) = self.follow(&push_id, start).await?;
        // The follow's pages are freed; the result is built next.
        crate::memory::give_back();
        if status.state == PushState::Failed {
            // Transient when each failure is (the others of the push skipped for them).
            let failed: Vec<&str> = datasets
                .iter()
                .filter_map(|d| d.error.as_deref())
                .chain(status.error.as_ref())
                .map(|e| e.code.as_str())
                .filter(|code| *code != codes::PUSH_SKIPPED)
                .collect();
            let transient = !failed.is_empty() && failed.iter().all(|c| codes::is_transient(c));
            let failed_codes: Vec<String> = failed.iter().map(|c| c.to_string()).collect();
            let mut failures: Vec<String> = datasets
                .iter()
                .filter_map(|d| {
                    d.error
                        .as_ref()
                        .map(|e| format!("{}: {}", d.url, e.brief()))
                })
                .collect();
            if let Some(e) = &status.error {
                failures.push(e.brief());
            }
            return Err(PushError::Failed {
                push_id,
                failures,
                transient,
                codes: failed_codes,
            });
        }
        resume::clear(state_path);
        Ok(PushResult {
            push_id,
            handler: "service".into(),
            datasets: datasets
                .into_iter()
                .map(|d| DatasetOutcome {
                    url: d.url,
                    iri: d.iri,
                    kind: Some(d.kind),
                    engine: Some(d.engine),
                    status: status_name(d.status),
                    detail: d
                        .detail
                        .and_then(|x| serde_json::value::RawValue::from_string(x.into()).ok()),
                })
                .collect(),
            package_node: Some(DatasetOutcome {
                url: status.package_node.url.clone(),
                iri: status.package_node.iri.clone(),
                kind: None,
                engine: None,
                status: status_name(status.package_node.status),
                detail: None,
            }),
            uploaded_bytes,
            already_staged,
        })
    }

    /// Runs the step-up for a challenge; the push ID the server reserved.
    async fn step_up(&self, problem: &Problem) -> Result<Option<String>, PushError> {
        let Some(tokens) = &self.handler.tokens else {
            return Err(PushError::Refused {
                phase: Phase::Stage,
                status: problem.status,
                problem: Box::new(problem.clone()),
            });
        };
        let reserved = problem.extra.get("push_id").and_then(|v| v.as_str());
        let request = StepUpRequest {
            acr_values: problem
                .extra
                .get("acr_values")
                .and_then(|v| v.as_array())
                .map(|values| {
                    values
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
            max_age: problem.extra.get("max_age").and_then(|v| v.as_u64()),
        };
        self.progress.event(ProgressEvent::Note(format!(
            "push {} needs a fresh authentication: {}",
            reserved.unwrap_or("(not reserved)"),
            problem.detail.as_deref().unwrap_or(&problem.title)
        )));
        let current = self.current_token();
        let token = tokens
            .step_up(&self.options.env, &request, current.as_ref())
            .await?;
        *self.token.lock().unwrap_or_else(|e| e.into_inner()) = Some(token);
        Ok(reserved.map(str::to_owned))
    }

    fn current_token(&self) -> Option<Secret<String>> {
        self.token.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The folder of the `i`th resource, when its files are not listed.
    fn folder(&self, i: usize) -> Option<&'a Folder> {
        self.folders.get(i).and_then(Option::as_deref)
    }

    /// Whether the package has more files than one batch: its manifest then names the
    /// datasets only, and their files follow in batches (`POST /pushes/{id}/files`).
    fn paged(&self) -> bool {
        self.files > MAX_FILE_BATCH
    }

    /// The resources (by index) among those the server names `unchanged` whose listing
    /// this push declared.
    fn unchanged_resources(&self, named: &[String]) -> HashSet<usize> {
        let named: HashSet<&str> = named.iter().map(String::as_str).collect();
        self.package
            .resources
            .iter()
            .enumerate()
            .filter(|(i, r)| named.contains(r.name.as_str()) && self.declared(*i).is_some())
            .map(|(i, _)| i)
            .collect()
    }

    /// The files of the resources `unchanged`.
    fn unchanged_files(&self, unchanged: &HashSet<usize>) -> u64 {
        unchanged
            .iter()
            .filter_map(|i| self.declared(*i))
            .map(|l| l.files)
            .sum()
    }

    /// The listing declared for the `i`th resource in a paged manifest: a folder's as the
    /// plan digested it, or the digest of an object-storage resource's listed files (a
    /// push of 100,000 one-file resources whose contents are their heads' then sends no
    /// file at all). `None` for tables and graphs: their engines keep no listing.
    fn declared(&self, i: usize) -> Option<Cow<'a, FolderListing>> {
        if self.folder(i).is_some() {
            return self.listings.get(i)?.as_ref().map(Cow::Borrowed);
        }
        let resource = self.package.resources.get(i)?;
        if resource.kind.engine() != Engine::ObjectStorage || resource.files.is_empty() {
            return None;
        }
        let mut files: Vec<&PushFile> = resource.files.iter().collect();
        files.sort_unstable_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        let mut digest = stone_api::ListingDigest::default();
        files
            .iter()
            .for_each(|f| digest.add(&f.path, &f.sha256, f.size));
        Some(Cow::Owned(FolderListing {
            files: digest.files(),
            bytes: digest.bytes(),
            sha256: digest.finish(),
        }))
    }

    /// A JSON request to the push API, retried on connection errors, 429 and 5xx (the
    /// server deduplicates every call: [`stone_http::retry::Resend::Idempotent`]).
    async fn request<T: DeserializeOwned>(
        &self,
        phase: Phase,
        method: Method,
        url: &str,
        body: Option<bytes::Bytes>,
    ) -> Result<T, PushError> {
        let unavailable = |message: String| PushError::Unavailable {
            phase,
            url: url.to_owned(),
            message,
        };
        let mut renewed = false;
        loop {
            let token = self.current_token();
            let build = || {
                let mut request = self.handler.api.request(method.clone(), url);
                if let Some(token) = &token {
                    request = request.bearer_auth(token.expose());
                }
                if let Some(body) = &body {
                    request = request
                        .header(reqwest::header::CONTENT_TYPE, "application/json")
                        .body(body.clone());
                }
                std::future::ready(Ok::<_, std::convert::Infallible>(request))
            };
            let tries = retry::Tries::default();
            let response = match retry::send(self.options.retries, Resend::Idempotent, build, |r| {
                tries.note();
                self.progress.event(ProgressEvent::Note(format!(
                    "{phase}: {} — retrying in {:.1?}",
                    r.reason, r.wait
                )))
            })
            .await
            {
                Ok(response) => response,
                Err(SendError::Transport(e)) => return Err(unavailable(tries.describe(&e))),
                Err(SendError::Build(never)) => match never {},
            };
            let status = response.status();
            if status.is_success() {
                let bytes = match read_capped(response, MAX_ANSWER).await {
                    Ok(bytes) => bytes,
                    Err(Capped::Failed(e)) => return Err(unavailable(describe(&e))),
                    Err(Capped::TooLarge) => {
                        return Err(PushError::Protocol {
                            phase,
                            url: url.to_owned(),
                            message: format!(
                                "HTTP {status} with an answer larger than {}: refused \
                                 (a push API answer is a small JSON document)",
                                size_in_words(MAX_ANSWER)
                            ),
                        });
                    }
                };
                return serde_json::from_slice(&bytes).map_err(|e| PushError::Protocol {
                    phase,
                    url: url.to_owned(),
                    message: format!(
                        "HTTP {status} with a body that is not the expected JSON: {e}"
                    ),
                });
            }
            if status.is_redirection() {
                // Not followed: the request carries the bearer token.
                let location = response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .map(redact_url)
                    .unwrap_or_else(|| "nowhere".into());
                return Err(PushError::Protocol {
                    phase,
                    url: url.to_owned(),
                    message: format!(
                        "HTTP {status}, a redirect to {location}: stone does not follow \
                         redirects of the push API (the request carries your token); set \
                         the environment's API URL to the final address \
                         (stone env add … --api)"
                    ),
                });
            }
            let problem = read_problem(response).await;
            if retryable_status(status.as_u16()) {
                // Answered, on every try: what the server said (its code, its incident),
                // not only the status (issue 54).
                return Err(PushError::ServerFailed {
                    phase,
                    url: url.to_owned(),
                    problem: Box::new(problem),
                    tries: tries.attempts(),
                });
            }
            if status == StatusCode::UNAUTHORIZED
                && !renewed
                && (problem.code == codes::AUTH_REQUIRED
                    || problem.code == codes::AUTH_INVALID_TOKEN)
                && let Some(tokens) = &self.handler.tokens
                && let Some(token) = tokens.renew(&self.options.env).await?
            {
                // Expired between two calls: refreshed silently, sent again.
                renewed = true;
                *self.token.lock().unwrap_or_else(|e| e.into_inner()) = Some(token);
                continue;
            }
            return Err(PushError::Refused {
                phase,
                status: status.as_u16(),
                problem: Box::new(problem),
            });
        }
    }

    /// Sends the files of every resource in batches of [`MAX_FILE_BATCH`] and uploads what
    /// each answer asks for; the next batch is sent while the uploads of the previous one
    /// run. A batch is sent again for fresh URLs when they expired, and for the rest of its
    /// uploads when the answer held only some (`more_uploads`). Returns the bytes uploaded
    /// and the count of contents the server already had.
    async fn send_batches(
        &self,
        push_id: &str,
        unchanged: &HashSet<usize>,
    ) -> Result<(u64, usize), PushError> {
        let url = format!("{}/pushes/{push_id}/files", self.api);
        // Batches of MAX_FILE_BATCH files, resources after one another (a resource's
        // files may span batches, a batch may hold many small resources).
        let mut cursor = Cursor {
            skip: unchanged.clone(),
            ..Cursor::default()
        };
        let post = |batch: FileBatch| {
            let url = url.clone();
            async move {
                let answer: Result<FilesAccepted, PushError> = self
                    .request(Phase::Stage, Method::POST, &url, Some(json_body(&batch)))
                    .await;
                answer.map(|answer| (batch, answer))
            }
        };
        let (mut bytes, mut staged) = (0u64, 0usize);
        let Some((first, mut local)) = self.next_batch(&mut cursor)? else {
            return Ok((0, 0));
        };
        let mut current = post(first).await?;
        loop {
            let (batch, answer) = current;
            // The next batch goes while this one's uploads run.
            let (next, next_local) = match self.next_batch(&mut cursor)? {
                Some((next, next_local)) => (Some(post(next)), Some(next_local)),
                None => (None, None),
            };
            let uploads = async {
                let mut answer = answer;
                let mut rounds = 0;
                loop {
                    let outcome = self
                        .upload_all(push_id, &answer.uploads, answer.pack.as_ref(), &local)
                        .await;
                    if !self.ask_again(outcome, answer.more_uploads, &mut rounds, &mut bytes)? {
                        staged += answer.already_staged.len();
                        return Ok::<_, PushError>(());
                    }
                    // The same batch again: the rest of its uploads, or fresh URLs.
                    answer = post(batch.clone()).await?.1;
                }
            };
            let following = async {
                match next {
                    Some(next) => next.await.map(Some),
                    None => Ok(None),
                }
            };
            let (uploaded, following) = tokio::join!(uploads, following);
            uploaded?;
            // This batch's files, answer and uploads are freed.
            crate::memory::give_back();
            match (following?, next_local) {
                (Some(following), Some(next_local)) => {
                    current = following;
                    local = next_local;
                }
                _ => return Ok((bytes, staged)),
            }
        }
    }

    /// After a round of uploads (`outcome`) of an answer: whether to ask the server again,
    /// for the rest of the uploads (`more`: the answer held only some; progress was made,
    /// so the rounds allowed for expired URLs count afresh) or for fresh URLs (they
    /// expired: at most [`ROUNDS`] rounds in a row). Counts the bytes sent in `bytes`.
    fn ask_again(
        &self,
        outcome: Result<u64, UploadFailure>,
        more: bool,
        rounds: &mut usize,
        bytes: &mut u64,
    ) -> Result<bool, PushError> {
        match outcome {
            Ok(sent) => {
                *bytes += sent;
                *rounds = 0;
                Ok(more)
            }
            Err(UploadFailure::Expired) => {
                *rounds += 1;
                if *rounds >= ROUNDS {
                    return Err(PushError::Unavailable {
                        phase: Phase::Upload,
                        url: self.api.clone(),
                        message: "the staging URLs kept expiring before the uploads finished"
                            .into(),
                    });
                }
                self.progress.event(ProgressEvent::Note(
                    "staging URLs expired: asking for fresh ones".into(),
                ));
                Ok(true)
            }
            Err(UploadFailure::Failed(e)) => Err(e),
        }
    }

    /// The batch of files from `cursor` on, where its contents are on disk, and the cursor
    /// moved past it. A folder's files are walked and hashed (from the cache) as they are
    /// taken: one batch of them in memory, whatever the folder's count of files.
    fn next_batch(
        &self,
        cursor: &mut Cursor,
    ) -> Result<Option<(FileBatch, LocalFiles)>, PushError> {
        // Walking and hashing block: the uploads of the batch before go on meanwhile.
        crate::folder::blocking(|| self.take_batch(cursor))
    }

    fn take_batch(
        &self,
        cursor: &mut Cursor,
    ) -> Result<Option<(FileBatch, LocalFiles)>, PushError> {
        let package: &'a PushPackage = self.package;
        let mut batch = FileBatch {
            datasets: Vec::new(),
        };
        let mut local = HashMap::new();
        let mut count = 0;
        while count < MAX_FILE_BATCH {
            let Some(resource) = package.resources.get(cursor.resource) else {
                break;
            };
            if cursor.skip.contains(&cursor.resource) {
                // Unchanged on the server: none of its files is sent.
                cursor.resource += 1;
                continue;
            }
            let files: Vec<PushFile> = match self.folder(cursor.resource) {
                Some(folder) => {
                    let hasher = match cursor.folder.take() {
                        Some(hasher) => hasher,
                        None => FolderHasher::read_only(folder, self.hash_jobs)
                            .map_err(|e| folder_error(folder, e))?,
                    };
                    let hasher = cursor.folder.insert(hasher);
                    let chunk = hasher
                        .next_chunk(MAX_FILE_BATCH - count, &())
                        .map_err(|e| folder_error(folder, e))?;
                    if chunk.len() < MAX_FILE_BATCH - count {
                        // The folder's end.
                        cursor.folder = None;
                        cursor.done = true;
                    }
                    chunk
                        .into_iter()
                        .map(|d| crate::folder::push_file(&folder.root, &folder.path, d))
                        .collect()
                }
                None => {
                    let take = (resource.files.len().saturating_sub(cursor.file))
                        .min(MAX_FILE_BATCH - count);
                    let files = resource.files[cursor.file..cursor.file + take].to_vec();
                    cursor.file += take;
                    cursor.done = cursor.file >= resource.files.len();
                    files
                }
            };
            if !files.is_empty() {
                count += files.len();
                batch.datasets.push(DatasetFiles {
                    name: resource.name.clone(),
                    files: files
                        .iter()
                        .map(|f| ManifestFile {
                            path: f.path.clone(),
                            sha256: f.sha256.clone(),
                            size: f.size,
                        })
                        .collect(),
                });
                local.extend(local_files(files));
            }
            if cursor.done {
                *cursor = Cursor {
                    resource: cursor.resource + 1,
                    skip: std::mem::take(&mut cursor.skip),
                    ..Cursor::default()
                };
            }
        }
        Ok((count > 0).then_some((batch, local)))
    }
}

/// Where the contents of some files are on disk, by sha256 (at most a batch of them).
type LocalFiles = HashMap<String, PathBuf>;

fn local_files(files: impl IntoIterator<Item = PushFile>) -> LocalFiles {
    files.into_iter().map(|f| (f.sha256, f.local)).collect()
}

/// Where the next batch starts: a resource, a file of it (listed files), or its folder
/// being walked.
#[derive(Default)]
struct Cursor {
    resource: usize,
    file: usize,
    folder: Option<FolderHasher>,
    /// The resource's files are all taken.
    done: bool,
    /// Resources not sent (unchanged on the server).
    skip: HashSet<usize>,
}

/// A folder walked again for the push failed (a file gone or changed since the plan).
/// A saved push the server no longer resumes: unknown, expired by its garbage
/// collection, or committed with other content.
fn is_stale_push(problem: &Problem) -> bool {
    problem.code == codes::PUSH_NOT_FOUND
        || problem.code == codes::PUSH_EXPIRED
        || problem.code == codes::PUSH_CONFLICT
}

/// The problem document of an error response, or one made from its status.
/// A refusal's problem document (read up to [`MAX_PROBLEM`]), or one made of its status and
/// the start of its body when it is not one.
pub async fn read_problem(response: reqwest::Response) -> Problem {
    let status = response.status();
    let body = read_capped(response, MAX_PROBLEM).await.unwrap_or_default();
    serde_json::from_slice::<Problem>(&body).unwrap_or_else(|_| {
        let text: String = String::from_utf8_lossy(&body).chars().take(200).collect();
        Problem::new(
            status.as_u16(),
            &format!("http.{}", status.as_u16()),
            status.canonical_reason().unwrap_or("error"),
        )
        .with_detail(if text.trim().is_empty() {
            format!("HTTP {status}")
        } else {
            text
        })
    })
}

pub use stone_http::{Capped, MAX_ANSWER, MAX_PROBLEM, read_capped};

/// A request's JSON body, written once whatever the retries.
fn json_body<B: Serialize>(body: &B) -> bytes::Bytes {
    serde_json::to_vec(body)
        .expect("the push API's records serialize")
        .into()
}
