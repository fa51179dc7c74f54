//! The commit job runner: writes each dataset of a committed push through its engine,
//! then the namespace's package node.
//!
//! A commit (`POST /v1/pushes/{id}/commit`) only moves the push to `committing` in the
//! state database and wakes the runner; the runner claims committing pushes (a lease in
//! the database) and works through their datasets in manifest order:
//!
//! - TABULAR → [`IcebergEngine::append`] on the push's branch, `replace` as asked, the
//!   package version as tag; `force` is passed when the push has `force` or the branch is
//!   not protected; with `[retention]` configured and under the same condition, the
//!   table's snapshots that no ref needs any more are then expired
//!   ([`IcebergEngine::expire_snapshots`]);
//! - GRAPH → [`GraphEngine::load_files`] into the dataset's named graph on the branch,
//!   [`graph_iri`]: `https://{public_host}/{ns}/{name}/branch/{branch}`; the package
//!   version V, if any, then becomes a snapshot of that graph, [`graph_version_iri`]:
//!   `…/branch/{branch}/version/{V}`;
//! - every other kind → [`BlobEngine::put`] on `ns/name/branch`, then
//!   [`BlobEngine::record_version`] for the package version, if any;
//! - with `replace`, the datasets that left the package are deleted from the branch
//!   (only if every write succeeded).
//!
//! Each dataset goes `pending` → `writing` → `done` | `failed`, recorded in batches.
//! Every engine write is idempotent (content-addressed, set semantics, head compare), so
//! a write interrupted by a crash is simply done again when the push is claimed again at
//! startup; the state records the engine's state before the first attempt (the
//! checkpoint) so that a redone write still reports what the push did (`created`,
//! `appended`, …) rather than `unchanged`. The package node is written with the final
//! state, in one transaction, and only when every dataset succeeded.
//!
//! On shutdown a job stops between two datasets and leaves the push `committing`; the
//! next start resumes it.
//!
//! Each start of a push's commit is counted in the state (`commit_starts`) and given back
//! when the job parks at a clean stop; what remains counts the times the process died under
//! the commit. At `[jobs] max_crashes` the push is failed (`push.crashed`) rather than
//! resumed again, so that a push that kills the server cannot do so at every start.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures::stream::{self, FuturesUnordered, StreamExt};
use serde_json::{Value, json};
use stone_api::{
    AssetKind, CreatePush, DatasetDetail, DatasetManifest, DatasetState, DatasetStatus, Engine,
    PackageNode, PackageResource, Problem, PushResult, PushState, ResultCounts, StagingStoreKind,
    codes,
};
use stone_package::StoneUrl;
use tokio::sync::{Notify, Semaphore, watch};
use tokio::task::JoinSet;

use crate::config::{Settings, StoreKind, WarehouseLocation, env_vars};
use crate::engines::blob::{
    BlobEngine, BlobError, BlobFile, BlobOutcome, BlobPut, BlobStatus, S3Settings,
};
use crate::engines::graph::{
    GraphEngine, GraphError, GraphLimits, QueryLimits, RdfFile, RdfFormat,
};
use crate::engines::iceberg::{
    AppendOptions, AppendStatus, ExpireOutcome, IcebergEngine, IcebergError, IcebergSettings,
    Retention, SchemaChange, StagedFile,
};
use crate::guards::Guards;
use crate::staging::{LocalContent, StagingError, StagingStore};
use crate::state::{DatasetRecord, HeadUpdate, Operation, PushRecord, StateDb, WriteOutcome, now};

/// How long a claim on a push lasts without renewal, unless `[jobs] lease_seconds` says.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
/// Datasets of a commit whose checkpoints are recorded in one transaction.
const COMMIT_BATCH: usize = 256;
/// Outcomes of a batch are recorded at least this often.
const COMMIT_RECORD_EVERY: Duration = Duration::from_millis(250);
/// Object-storage datasets of a batch written at once.
const BLOB_WRITES: usize = 8;
/// Batches of object-storage datasets written at once by a pipelined commit.
const FILE_BATCHES: usize = 2;
/// How often the runner looks for work without being woken.
const POLL: Duration = Duration::from_secs(2);

/// The three engines.
#[derive(Debug)]
pub struct Engines {
    pub iceberg: IcebergEngine,
    pub graph: GraphEngine,
    pub blob: BlobEngine,
    /// The S3 warehouse is in the S3 staging bucket (same endpoint and key): data files
    /// are copied from staging server-side.
    pub warehouse_copies_from_staging: bool,
}

impl Engines {
    /// Opens the engines the settings name; embedded defaults live under the data
    /// directory (`iceberg/`, `graph/`, `blobs/`).
    pub async fn open(settings: &Settings) -> anyhow::Result<Self> {
        use anyhow::Context;
        let iceberg_options = &settings.config.iceberg;
        let catalog_db = settings.path("iceberg/catalog.db");
        let mut warehouse_copies_from_staging = false;
        let mut iceberg_settings = match iceberg_options.warehouse_location()? {
            WarehouseLocation::Default => {
                IcebergSettings::local(catalog_db, settings.path("iceberg/warehouse"))
            }
            WarehouseLocation::Local(directory) => IcebergSettings::local(catalog_db, directory),
            WarehouseLocation::S3 { bucket, prefix } => {
                let access = iceberg_options
                    .s3
                    .as_ref()
                    .context("an s3:// warehouse needs [iceberg.s3]")?;
                warehouse_copies_from_staging = settings.config.staging.store == StoreKind::S3
                    && settings.config.staging.s3.as_ref().is_some_and(|staging| {
                        staging.bucket == bucket
                            && staging.endpoint == access.endpoint
                            && staging.access_key_id == access.access_key_id
                    });
                // The catalog stays local (or in [database]); only the files move.
                IcebergSettings::local(catalog_db, settings.path("iceberg/warehouse"))
                    .with_s3_warehouse(S3Settings {
                        endpoint: access.endpoint.clone(),
                        bucket,
                        region: access.region.clone(),
                        access_key_id: access.access_key_id.clone(),
                        secret_access_key: access.secret_access_key.clone(),
                        prefix,
                        allow_http: access.allow_http,
                    })
            }
        };
        iceberg_settings.catalog_name = iceberg_options.catalog_name.clone();
        iceberg_settings.commit_attempts = iceberg_options.commit_attempts;
        iceberg_settings.parquet_limits = settings.config.limits.parquet_limits();
        if let Some(url) = &settings.config.database.url {
            // The catalog's tables live beside the push state.
            iceberg_settings.catalog_uri = url.clone();
        }
        // Replicas starting together may race on the catalog's CREATE TABLE IF NOT EXISTS
        // (PostgreSQL can refuse the loser): try again.
        let mut attempt = 0;
        let iceberg = loop {
            attempt += 1;
            match IcebergEngine::open(iceberg_settings.clone()).await {
                Ok(engine) => break engine,
                Err(error) if attempt < 3 && settings.config.database.is_shared() => {
                    tracing::warn!(error = ?error, "cannot open the Iceberg catalog yet; retrying");
                    tokio::time::sleep(Duration::from_millis(500 * attempt)).await;
                }
                Err(error) => return Err(error).context("cannot open the Iceberg engine"),
            }
        };
        let graph = match &settings.config.graph.remote_url {
            Some(url) => GraphEngine::remote(url)
                .await
                .with_context(|| format!("cannot reach the graph server at {url}"))?,
            None => GraphEngine::embedded(&settings.path("graph"))
                .await
                .context("cannot open the embedded graph store")?,
        };
        let (graph_options, sparql) = (&settings.config.graph, &settings.config.sparql);
        let graph = graph
            .with_limits(GraphLimits {
                max_file_bytes: graph_options.max_file_bytes,
                max_literal_bytes: graph_options.max_literal_bytes,
            })
            .with_query_limits(QueryLimits {
                timeout: Duration::from_secs(sparql.timeout_seconds),
                max_rows: sparql.max_rows,
                max_bytes: sparql.max_result_bytes,
            });
        let blob = match settings.config.blob.store {
            StoreKind::Local => BlobEngine::local(&settings.path("blobs"))
                .context("cannot open the local blob store")?,
            StoreKind::S3 => {
                let s3 = settings
                    .config
                    .blob
                    .s3
                    .as_ref()
                    .context("blob.store = \"s3\" needs [blob.s3]")?;
                let engine = BlobEngine::s3(S3Settings {
                    endpoint: s3.endpoint.clone(),
                    bucket: s3.bucket.clone(),
                    region: s3.region.clone(),
                    access_key_id: s3.access_key_id.clone(),
                    secret_access_key: s3.secret_access_key.clone(),
                    prefix: s3.prefix.clone(),
                    allow_http: s3.allow_http,
                })
                .context("cannot configure the S3 blob store")?;
                engine
                    .probe()
                    .await
                    .context("the S3 blob store does not answer")?;
                engine
            }
        };
        Ok(Self {
            iceberg,
            graph,
            blob,
            warehouse_copies_from_staging,
        })
    }

    /// Whether the engine holds anything for the dataset on the branch.
    pub async fn has_content(
        &self,
        kind: AssetKind,
        namespace: &str,
        name: &str,
        branch: &str,
        public_host: &str,
    ) -> anyhow::Result<bool> {
        Ok(match kind.engine() {
            Engine::Iceberg => self
                .iceberg
                .snapshot_of(namespace, name, branch)
                .await?
                .is_some(),
            Engine::Graph => {
                self.graph
                    .count(&graph_iri(public_host, namespace, name, branch))
                    .await?
                    > 0
            }
            Engine::ObjectStorage => self.blob.head(namespace, name, branch).await?.is_some(),
        })
    }

    /// What the engine holds for a dataset on a branch: `None` when nothing.
    pub async fn describe(
        &self,
        kind: AssetKind,
        namespace: &str,
        name: &str,
        branch: &str,
        public_host: &str,
    ) -> anyhow::Result<Option<DatasetDetail>> {
        Ok(match kind.engine() {
            Engine::Iceberg => self
                .iceberg
                .snapshot_of(namespace, name, branch)
                .await?
                .map(|snapshot| DatasetDetail {
                    table: Some(format!("{namespace}.{name}")),
                    snapshot_id: Some(snapshot.snapshot_id),
                    total_rows: snapshot.total_rows,
                    ..DatasetDetail::default()
                }),
            Engine::Graph => {
                let iri = graph_iri(public_host, namespace, name, branch);
                let count = self.graph.count(&iri).await?;
                (count > 0).then(|| DatasetDetail {
                    graph: Some(iri),
                    total_triples: Some(count),
                    ..DatasetDetail::default()
                })
            }
            Engine::ObjectStorage => {
                self.blob
                    .head(namespace, name, branch)
                    .await?
                    .map(|head| DatasetDetail {
                        files: Some(head.files.len() as u64),
                        bytes: Some(head.files.iter().map(|f| f.size).sum()),
                        ..DatasetDetail::default()
                    })
            }
        })
    }
}

/// IRI of the named graph of a GRAPH dataset on a branch.
pub fn graph_iri(public_host: &str, namespace: &str, name: &str, branch: &str) -> String {
    format!("https://{public_host}/{namespace}/{name}/branch/{branch}")
}

/// IRI of the snapshot graph of a named version of a GRAPH dataset on a branch:
/// `{graph_iri}/version/{version}`. No dataset graph has this form (branch names hold no
/// `/`), and version names (`[A-Za-z0-9_.+-]`, checked by the push API) need no escaping.
pub fn graph_version_iri(
    public_host: &str,
    namespace: &str,
    name: &str,
    branch: &str,
    version: &str,
) -> String {
    format!(
        "{}/version/{version}",
        graph_iri(public_host, namespace, name, branch)
    )
}

/// The named versions of a GRAPH dataset on a branch (its snapshot graphs), sorted.
pub async fn graph_versions(
    graph: &GraphEngine,
    public_host: &str,
    namespace: &str,
    name: &str,
    branch: &str,
) -> Result<Vec<String>, GraphError> {
    let prefix = graph_version_iri(public_host, namespace, name, branch, "");
    Ok(graph
        .graphs_with_prefix(&prefix)
        .await?
        .into_iter()
        .filter_map(|iri| iri.strip_prefix(&prefix).map(str::to_owned))
        .filter(|version| !version.is_empty() && !version.contains('/'))
        .collect())
}

/// `stone:<ns>/<name>` and `https://<host>/<ns>/<name>`.
pub fn dataset_urls(public_host: &str, namespace: &str, name: &str) -> (String, String) {
    match (
        stone_package::Label::parse(namespace),
        stone_package::Label::parse(name),
    ) {
        (Ok(ns), Ok(n)) => {
            let url = StoneUrl::dataset(ns, n);
            (url.to_string(), url.iri(public_host))
        }
        _ => (
            format!("stone:{namespace}/{name}"),
            format!("https://{public_host}/{namespace}/{name}"),
        ),
    }
}

/// `stone:<ns>` and `https://<host>/<ns>`.
pub fn namespace_urls(public_host: &str, namespace: &str) -> (String, String) {
    (
        format!("stone:{namespace}"),
        format!("https://{public_host}/{namespace}"),
    )
}

/// The job runner.
#[derive(Debug)]
pub struct JobRunner {
    db: StateDb,
    staging: Arc<dyn StagingStore>,
    engines: Arc<Engines>,
    public_host: String,
    data_dir: PathBuf,
    concurrency: usize,
    lease: Duration,
    /// Commits of a push cut short this many times fail it ([`Self::fail_crashed`]).
    max_crashes: u32,
    owner: String,
    notify: Notify,
    pause_at: Option<String>,
    shutdown: watch::Receiver<bool>,
    /// `[retention]`: snapshot expiry after a TABULAR write; `None`: never.
    retention: Option<Retention>,
    /// Which branches are protected (their history is expired only by a forced push).
    guards: Guards,
}

impl JobRunner {
    pub fn new(
        settings: &Settings,
        db: StateDb,
        staging: Arc<dyn StagingStore>,
        engines: Arc<Engines>,
        shutdown: watch::Receiver<bool>,
    ) -> Self {
        let pause_at = std::env::var(env_vars::STONE_SERVER_TEST_PAUSE_COMMIT)
            .ok()
            .filter(|v| !v.is_empty());
        if let Some(dataset) = &pause_at {
            tracing::warn!(
                dataset,
                "test hook {} is set: commits pause after writing this dataset",
                env_vars::STONE_SERVER_TEST_PAUSE_COMMIT
            );
        }
        Self {
            db,
            staging,
            engines,
            public_host: settings.public_host.clone(),
            data_dir: settings.data_dir.clone(),
            concurrency: settings.config.jobs.concurrency,
            lease: Duration::from_secs(settings.config.jobs.lease_seconds),
            max_crashes: settings.config.jobs.max_crashes,
            owner: format!("runner-{}", uuid::Uuid::now_v7().simple()),
            notify: Notify::new(),
            pause_at,
            shutdown,
            retention: settings.config.retention.snapshot_retention(),
            guards: Guards::new(&settings.config.guards),
        }
    }

    /// Wakes the runner (a push was committed).
    pub fn wake(&self) {
        self.notify.notify_one();
    }

    /// Claims and runs committing pushes until shutdown; then lets running jobs park
    /// (they stop between datasets) for up to `grace`.
    pub async fn run(self: Arc<Self>, grace: Duration) {
        let permits = Arc::new(Semaphore::new(self.concurrency));
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut shutdown = self.shutdown.clone();
        loop {
            if *shutdown.borrow() {
                break;
            }
            while let Ok(permit) = permits.clone().try_acquire_owned() {
                match self.db.claim(&self.owner, self.lease).await {
                    Ok(Some(id)) => {
                        let runner = self.clone();
                        tasks.spawn(async move {
                            runner.run_push(&id).await;
                            drop(permit);
                        });
                    }
                    Ok(None) => break,
                    Err(error) => {
                        tracing::error!(error = ?error, "cannot claim a push");
                        break;
                    }
                }
            }
            tokio::select! {
                _ = self.notify.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
                _ = shutdown.changed() => {}
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        if !tasks.is_empty() {
            tracing::info!(jobs = tasks.len(), "waiting for running commits to park");
        }
        let parked =
            tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} }).await;
        if parked.is_err() {
            tracing::warn!(
                "commits still running at shutdown were stopped; they resume at the next start"
            );
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
            // Their leases are given back now, so that another replica resumes them at
            // once rather than when the leases run out.
            if let Err(error) = self.db.release_owned(&self.owner).await {
                tracing::warn!(error = ?error, "cannot give back the leases of stopped commits");
            }
        }
    }

    /// Whether a commit stops at its next boundary: the server is stopping, or the push's
    /// lease went to another runner (`lost`).
    fn halted(&self, lost: &AtomicBool) -> bool {
        self.stopping() || lost.load(Ordering::SeqCst)
    }

    fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Becomes true when the server stops.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    async fn run_push(self: &Arc<Self>, id: &str) {
        let lost = Arc::new(AtomicBool::new(false));
        let renewal = {
            let runner = self.clone();
            let id = id.to_owned();
            let lost = lost.clone();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(runner.lease / 3).await;
                    match runner.db.renew(&id, &runner.owner, runner.lease).await {
                        Ok(true) => {}
                        Ok(false) => {
                            // Another runner took the push over: stop at the next dataset
                            // boundary and leave the end of the push to it.
                            tracing::warn!(push = %id, "lease lost to another runner; stopping this job");
                            lost.store(true, Ordering::SeqCst);
                            return;
                        }
                        Err(error) => {
                            tracing::warn!(push = %id, error = ?error, "cannot renew a lease")
                        }
                    }
                }
            })
        };
        let result = self.commit(id, &lost).await;
        renewal.abort();
        match result {
            Ok(true) => {}
            Ok(false) if lost.load(Ordering::SeqCst) => {}
            Ok(false) => {
                tracing::info!(push = %id, "commit parked; it resumes at the next start");
                let _ = self.db.release(id, &self.owner).await;
            }
            Err(error) => {
                // The state database failed: leave the push committing; it is claimed
                // again when the lease runs out.
                tracing::error!(push = %id, error = ?error, "commit interrupted");
            }
        }
    }

    /// Runs a push to its end. `Ok(false)`: parked for shutdown, or the lease was lost.
    async fn commit(&self, id: &str, lost: &AtomicBool) -> anyhow::Result<bool> {
        let Some(push) = self.db.push(id).await? else {
            return Ok(true);
        };
        let Some(crashes) = self.db.count_commit_start(id, &self.owner).await? else {
            // The lease went to another runner already.
            return Ok(false);
        };
        if crashes >= i64::from(self.max_crashes) {
            self.fail_crashed(&push, crashes).await?;
            return Ok(true);
        }
        tracing::info!(push = %id, namespace = %push.namespace, branch = %push.branch, crashes, "commit started");
        let datasets = self.db.datasets(id).await?;
        let manifests: HashMap<&str, &DatasetManifest> = push
            .manifest
            .datasets
            .iter()
            .map(|d| (d.name.as_str(), d))
            .collect();
        let pending: Vec<(&DatasetRecord, &DatasetManifest)> = datasets
            .iter()
            .filter(|d| d.operation == Operation::Write && d.state != DatasetState::Done)
            .filter_map(|d| manifests.get(d.name.as_str()).map(|m| (d, *m)))
            .collect();
        // Object-storage datasets go in batches: the checkpoints of a batch are recorded in
        // one transaction before any of its engine writes, and the outcomes in another after
        // them (one fsync each instead of three per dataset), and several write at once
        // (distinct datasets are independent and mostly wait on the store). A crash in
        // between leaves the batch `writing` with its checkpoints, which tell the rerun what
        // the writes did. Tables and graphs go one by one, as slow writes recorded one by one.
        fn is_blob(manifest: &DatasetManifest) -> bool {
            manifest.kind.engine() == Engine::ObjectStorage
        }
        // With local staging, a run of object-storage batches is pipelined: the file work
        // of one batch overlaps the state database's work of the batches before and after
        // it (see `commit_blob_run`).
        let pipelined = self.staging.kind() == StagingStoreKind::Local;
        let runs: Vec<(bool, Vec<&[Pending<'_>]>)> = pending
            .chunk_by(|a, b| is_blob(a.1) && is_blob(b.1))
            .map(|run| (is_blob(run[0].1), run.chunks(COMMIT_BATCH).collect()))
            .collect();
        // Whether a write of this run failed (a dataset that failed in an earlier run is
        // pending again): deletes are then skipped.
        let mut writes_failed = false;
        for (blob, batches) in runs {
            if blob && pipelined {
                if !self
                    .commit_blob_run(&push, &batches, &mut writes_failed, lost)
                    .await?
                {
                    return Ok(false);
                }
                continue;
            }
            for batch in batches {
                if self.halted(lost) {
                    return Ok(false);
                }
                let blob = is_blob(batch[0].1);
                let concurrency = if blob { BLOB_WRITES } else { 1 };
                let push = &push;
                let checkpoints = if blob {
                    self.blob_checkpoints(push, batch).await
                } else {
                    // Futures are collected first (plain iterator): a stream combinator's
                    // closure over references would make the commit future not `Send` for
                    // every lifetime.
                    let checkpointing: Vec<_> = batch
                        .iter()
                        .map(|(record, manifest)| self.checkpoint_of(push, record, manifest))
                        .collect();
                    stream::iter(checkpointing)
                        .buffered(concurrency)
                        .collect()
                        .await
                };
                let (ready, mut outcomes) = self.mark_writing(id, checkpoints).await?;
                // No write starts once the server is stopping; those under way finish.
                let writing: Vec<_> = ready
                    .iter()
                    .map(|(record, manifest, checkpoint)| {
                        self.write_unless_stopping(push, record, manifest, checkpoint)
                    })
                    .collect();
                let mut writes = stream::iter(writing).buffered(concurrency);
                let mut recorded = Instant::now();
                let mut written = 0;
                while let Some(next) = writes.next().await {
                    let Some((record, outcome)) = next else {
                        continue;
                    };
                    written += 1;
                    outcomes.push(outcome_of(id, record, outcome?, false));
                    // Slow writes (tables, graphs) still show up one by one in the progress.
                    if recorded.elapsed() >= COMMIT_RECORD_EVERY {
                        self.record(push, &outcomes, &mut writes_failed).await?;
                        outcomes.clear();
                        recorded = Instant::now();
                    }
                }
                drop(writes);
                self.record(push, &outcomes, &mut writes_failed).await?;
                if written < ready.len() {
                    return Ok(false);
                }
            }
        }
        for record in datasets.iter().filter(|d| d.operation == Operation::Delete) {
            if record.state == DatasetState::Done {
                continue;
            }
            if self.halted(lost) {
                return Ok(false);
            }
            if writes_failed {
                let problem = Problem::new(409, codes::PUSH_SKIPPED, "Skipped")
                    .with_detail("not deleted, because a dataset of the push failed")
                    .with("dataset", &record.name);
                self.db.dataset_failed(id, &record.name, &problem).await?;
                continue;
            }
            match self.delete(&push, record).await {
                Ok(existed) => {
                    let detail = DatasetDetail::default();
                    let _ = existed;
                    self.db
                        .dataset_done(
                            &push,
                            &record.name,
                            DatasetStatus::Deleted,
                            &detail,
                            Some(HeadUpdate::Delete),
                        )
                        .await?;
                }
                Err(problem) => self.db.dataset_failed(id, &record.name, &problem).await?,
            }
        }
        if lost.load(Ordering::SeqCst) {
            return Ok(false);
        }
        self.finish(&push).await?;
        Ok(true)
    }

    /// Fails a push whose commits were cut short `crashes` times (the process died under
    /// them, see [`StateDb::count_commit_start`]) instead of resuming it once more: whatever
    /// made the process die would likely do it again, at every start. The datasets being
    /// written get `push.crashed` (all not yet written when none was being written), the
    /// others not reached `push.skipped`.
    async fn fail_crashed(&self, push: &PushRecord, crashes: i64) -> anyhow::Result<()> {
        let datasets = self.db.datasets(&push.id).await?;
        let writing: Vec<&str> = datasets
            .iter()
            .filter(|d| d.state == DatasetState::Writing)
            .map(|d| d.name.as_str())
            .collect();
        tracing::error!(
            push = %push.id,
            crashes,
            writing = ?writing,
            "the server stopped {crashes} times while committing this push; failing it instead of resuming it ([jobs] max_crashes)"
        );
        for record in &datasets {
            if matches!(record.state, DatasetState::Done | DatasetState::Failed) {
                continue;
            }
            // Stopped between two datasets: the ones still to write share the blame.
            let problem = if record.state == DatasetState::Writing || writing.is_empty() {
                Problem::new(500, codes::PUSH_CRASHED, "Server crashed").with_detail(format!(
                    "the server stopped {crashes} times while writing this dataset, so the push is not resumed again; the server log may tell why; push again once the cause is fixed"
                ))
            } else {
                Problem::new(409, codes::PUSH_SKIPPED, "Skipped").with_detail(format!(
                    "not written: the server stopped {crashes} times while committing the push (dataset(s) {}), so the push is not resumed again",
                    writing.join(", ")
                ))
            };
            self.db
                .dataset_failed(
                    &push.id,
                    &record.name,
                    &problem.with("dataset", &record.name),
                )
                .await?;
        }
        self.finish(push).await
    }

    /// Records finished writes; `failed` becomes true when one of them failed.
    async fn record(
        &self,
        push: &PushRecord,
        outcomes: &[WriteOutcome],
        failed: &mut bool,
    ) -> anyhow::Result<()> {
        *failed |= any_failed(outcomes);
        self.db.datasets_finished(push, outcomes).await?;
        Ok(())
    }

    /// A dataset's checkpoint: the recorded one, or the engine's state now.
    async fn checkpoint_of<'a>(
        &self,
        push: &PushRecord,
        record: &'a DatasetRecord,
        manifest: &'a DatasetManifest,
    ) -> Checkpointed<'a> {
        let checkpoint = match &record.checkpoint {
            Some(checkpoint) => Ok(checkpoint.clone()),
            None => {
                self.checkpoint(manifest.kind, &push.namespace, &manifest.name, &push.branch)
                    .await
            }
        };
        (record, manifest, checkpoint)
    }

    /// [`Self::write`], unless the server is stopping when its turn comes (`None`).
    async fn write_unless_stopping<'a>(
        &self,
        push: &PushRecord,
        record: &'a DatasetRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
    ) -> Option<(&'a DatasetRecord, anyhow::Result<Written>)> {
        if self.stopping() {
            return None;
        }
        Some((record, self.write(push, record, manifest, checkpoint).await))
    }

    /// Final state, summary and package node.
    async fn finish(&self, push: &PushRecord) -> anyhow::Result<()> {
        let datasets = self.db.dataset_states(&push.id).await?;
        let mut counts = ResultCounts::default();
        let mut iris = Vec::new();
        for (name, state, status) in &datasets {
            match (*state, *status) {
                (DatasetState::Failed, _) => counts.failed += 1,
                (_, Some(status)) => {
                    match status {
                        DatasetStatus::Created => counts.created += 1,
                        DatasetStatus::Appended => counts.appended += 1,
                        DatasetStatus::Replaced => counts.replaced += 1,
                        DatasetStatus::Unchanged => counts.unchanged += 1,
                        DatasetStatus::Deleted => counts.deleted += 1,
                        DatasetStatus::Unknown => {}
                    }
                    if status != DatasetStatus::Deleted {
                        iris.push(dataset_urls(&self.public_host, &push.namespace, name).1);
                    }
                }
                _ => {}
            }
        }
        let result = PushResult {
            finished_at: now(),
            counts,
            iris,
        };
        if counts.failed > 0 {
            self.db
                .finish_push(&push.id, PushState::Failed, None, &result, None)
                .await?;
            tracing::info!(push = %push.id, failed = counts.failed, "commit failed");
            return Ok(());
        }
        let node = package_node(&self.public_host, &push.id, &push.manifest);
        let status = self
            .db
            .finish_push(&push.id, PushState::Succeeded, Some(&node), &result, None)
            .await?;
        tracing::info!(push = %push.id, node = ?status, "commit succeeded");
        Ok(())
    }

    /// Local files of a dataset's contents, by sha256.
    async fn contents(
        &self,
        manifest: &DatasetManifest,
    ) -> Result<HashMap<String, LocalContent>, Problem> {
        let mut contents = HashMap::new();
        for file in &manifest.files {
            if contents.contains_key(&file.sha256) {
                continue;
            }
            let content = self
                .staging
                .local_file(&file.sha256, file.size)
                .await
                .map_err(|error| staging_problem(&manifest.name, error))?;
            contents.insert(file.sha256.clone(), content);
        }
        Ok(contents)
    }

    /// Writes one dataset. The outer error is the state database; the inner one the
    /// dataset's failure.
    async fn write(
        &self,
        push: &PushRecord,
        record: &DatasetRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
    ) -> anyhow::Result<Written> {
        let ns = push.namespace.as_str();
        let branch = push.branch.as_str();
        let name = manifest.name.as_str();
        let options = &push.manifest.options;
        let replace = options.replace;
        let force = forced(push);
        let resumed = record.state == DatasetState::Writing;
        let contents = match self.contents(manifest).await {
            Ok(contents) => contents,
            Err(problem) => return Ok(Err(problem)),
        };
        let new_files: BTreeSet<String> = manifest.files.iter().map(|f| f.sha256.clone()).collect();

        let written: Result<(DatasetStatus, DatasetDetail), Problem> = match manifest.kind.engine()
        {
            Engine::Iceberg => {
                let files: Vec<StagedFile> = new_files
                    .iter()
                    .map(|sha| StagedFile {
                        path: contents[sha].path.clone(),
                        sha256: sha.clone(),
                    })
                    .collect();
                let copy_sources = if self.engines.warehouse_copies_from_staging {
                    new_files
                        .iter()
                        .filter_map(|sha| Some((sha.clone(), self.staging.object_location(sha)?)))
                        .collect()
                } else {
                    HashMap::new()
                };
                let append = AppendOptions {
                    replace,
                    force,
                    tag: push.manifest.package.version.clone(),
                    copy_sources,
                    ..AppendOptions::default()
                };
                // With expiry on, one writer per table across replicas: an expiry must not
                // delete a data file an append reuses (within this process the engine
                // keeps them apart).
                let lock = match self.retention {
                    Some(_) => self.db.lock(&format!("iceberg/{ns}.{name}")).await?,
                    None => None,
                };
                let appended = self
                    .engines
                    .iceberg
                    .append(ns, name, branch, &files, &append)
                    .await;
                let expired = match (&appended, &self.retention) {
                    (Ok(_), Some(retention)) if force => {
                        Some(self.expire(ns, name, branch, retention).await)
                    }
                    _ => None,
                };
                if let Some(lock) = lock {
                    lock.release().await;
                }
                match appended {
                    Ok(outcome) => {
                        let before = checkpoint.get("snapshot_id").and_then(Value::as_i64);
                        let status = match outcome.status {
                            AppendStatus::Created => DatasetStatus::Created,
                            AppendStatus::Appended => DatasetStatus::Appended,
                            AppendStatus::Replaced => DatasetStatus::Replaced,
                            _ if resumed && before != Some(outcome.snapshot_id) => {
                                // Redone after a crash: the first attempt changed the branch.
                                match (before, replace) {
                                    (None, _) => DatasetStatus::Created,
                                    (Some(_), true) => DatasetStatus::Replaced,
                                    (Some(_), false) => DatasetStatus::Appended,
                                }
                            }
                            _ => DatasetStatus::Unchanged,
                        };
                        Ok((
                            status,
                            DatasetDetail {
                                table: Some(format!("{ns}.{name}")),
                                snapshot_id: Some(outcome.snapshot_id),
                                rows_added: Some(outcome.rows_added),
                                rows_removed: replace.then_some(outcome.rows_removed),
                                total_rows: Some(outcome.total_rows),
                                schema_changes: outcome
                                    .schema_changes
                                    .iter()
                                    .map(describe_change)
                                    .collect(),
                                tag: push.manifest.package.version.clone(),
                                expired_snapshots: expired.map(|e| e.expired_snapshots),
                                expired_files: expired.map(|e| e.deleted_files),
                                expired_bytes: expired.map(|e| e.deleted_bytes),
                                ..DatasetDetail::default()
                            },
                        ))
                    }
                    Err(error) => Err(iceberg_problem(name, &error)),
                }
            }
            Engine::Graph => {
                let iri = graph_iri(&self.public_host, ns, name, branch);
                let mut files = Vec::new();
                for file in &manifest.files {
                    let Some(format) = RdfFormat::from_path(std::path::Path::new(&file.path))
                    else {
                        return Ok(Err(Problem::new(
                            422,
                            codes::GRAPH_INVALID_RDF,
                            "Invalid RDF",
                        )
                        .with_detail(format!("{}: not a .ttl, .nt or .jsonld file", file.path))
                        .with("dataset", name)));
                    };
                    files.push(RdfFile {
                        path: &contents[&file.sha256].path,
                        format,
                    });
                }
                // Across replicas, one writer per graph: an append is computed against
                // the graph's current content.
                let lock = self.db.lock(&format!("graph/{iri}")).await?;
                let snapshot =
                    push.manifest.package.version.as_deref().map(|version| {
                        graph_version_iri(&self.public_host, ns, name, branch, version)
                    });
                // Without force, a version that names other content stops the load before
                // it writes anything (the guard at POST /pushes saw an earlier state).
                let keep = snapshot.as_deref().filter(|_| !force);
                let mut loaded = self
                    .engines
                    .graph
                    .load_files_keeping(&iri, &files, replace, keep)
                    .await;
                // The version names the graph as this push leaves it (also when unchanged).
                if let (Ok(_), Some(snapshot)) = (&loaded, &snapshot)
                    && let Err(error) = self.engines.graph.snapshot(&iri, snapshot, force).await
                {
                    loaded = Err(error);
                }
                if let Some(lock) = lock {
                    lock.release().await;
                }
                match loaded {
                    Ok(outcome) => {
                        let before = checkpoint
                            .get("triples")
                            .and_then(Value::as_u64)
                            .unwrap_or(0);
                        let status =
                            if !outcome.unchanged || (resumed && before != outcome.total_triples) {
                                if before == 0 {
                                    DatasetStatus::Created
                                } else if replace {
                                    DatasetStatus::Replaced
                                } else {
                                    DatasetStatus::Appended
                                }
                            } else {
                                DatasetStatus::Unchanged
                            };
                        Ok((
                            status,
                            DatasetDetail {
                                graph: Some(iri),
                                triples_added: Some(outcome.triples_added),
                                total_triples: Some(outcome.total_triples),
                                tag: push.manifest.package.version.clone(),
                                ..DatasetDetail::default()
                            },
                        ))
                    }
                    Err(error) => Err(graph_problem(name, &error)),
                }
            }
            Engine::ObjectStorage => {
                let put = blob_put(push, manifest, |sha256| contents[sha256].path.clone());
                let outcome = self
                    .engines
                    .blob
                    .put_keeping(
                        ns,
                        name,
                        branch,
                        &put.files,
                        put.replace,
                        put.keep.as_deref(),
                    )
                    .await;
                self.blob_finish(push, manifest, checkpoint, resumed, outcome)
                    .await
            }
        };
        drop(contents);
        let (status, detail) = match written {
            Ok(written) => written,
            Err(problem) => return Ok(Err(problem)),
        };
        self.test_pause(&push.id, name).await;

        Ok(Ok((status, detail, head_update(manifest, replace))))
    }

    /// Expires the snapshots of a table just written on `branch` (a forced push, or an
    /// unprotected branch) under `[retention]`. The histories of other protected branches
    /// stay whole. A failure is logged, not the dataset's: its data is committed.
    async fn expire(
        &self,
        ns: &str,
        name: &str,
        branch: &str,
        retention: &Retention,
    ) -> ExpireOutcome {
        let keep_history = |other: &str| other != branch && self.guards.is_protected(other);
        match self
            .engines
            .iceberg
            .expire_snapshots(ns, name, retention, &keep_history)
            .await
        {
            Ok(outcome) => outcome,
            Err(error) => {
                tracing::warn!(dataset = %name, error = %error_chain(&error), "snapshot expiry failed; nothing expired");
                ExpireOutcome::default()
            }
        }
    }

    /// Writes consecutive batches of object-storage datasets (local staging), pipelined:
    /// a *state lane* takes each batch's checkpoints and records them (`writing`) together
    /// with the outcomes of the batches written meanwhile, one transaction each time (the
    /// next batch's checkpoints are read meanwhile), and hands the batch to a *file lane*, which writes it ([`FILE_BATCHES`] at once) and hands
    /// its outcomes back. A batch's checkpoints are recorded before any of its writes and its
    /// outcomes after them; neither lane waits for the other batch by batch. `Ok(false)`:
    /// stopped (shutdown, lost lease) between two batches.
    async fn commit_blob_run(
        &self,
        push: &PushRecord,
        batches: &[&[Pending<'_>]],
        failed: &mut bool,
        lost: &AtomicBool,
    ) -> anyhow::Result<bool> {
        let (to_write, mut writable) = tokio::sync::mpsc::channel::<Batch<'_>>(1);
        let (to_record, mut written) = tokio::sync::mpsc::unbounded_channel::<Vec<WriteOutcome>>();

        // Two batches are written at once: a batch's own steps (its staged contents looked
        // up, its puts built, its locks taken, its outcomes made) would otherwise leave a
        // core idle between the blocking writes. (A loop over a set of futures, not a
        // stream combinator: a closure over these references would make the commit's
        // future `Send` for one lifetime only.)
        let files = async move {
            let to_record = to_record;
            let mut writing = FuturesUnordered::new();
            let mut open = true;
            loop {
                tokio::select! {
                    batch = writable.recv(), if open && writing.len() < FILE_BATCHES => match batch {
                        Some(batch) => writing.push(self.write_blob_batch(push, batch, lost)),
                        None => open = false,
                    },
                    Some(outcomes) = writing.next(), if !writing.is_empty() => {
                        if to_record.send(outcomes?).is_err() {
                            break;
                        }
                    }
                    else => break,
                }
            }
            Ok::<(), anyhow::Error>(())
        };

        let state = async {
            let mut finished: Vec<WriteOutcome> = Vec::new();
            let mut complete = true;
            let mut read_ahead = None;
            for (i, batch) in batches.iter().enumerate() {
                if self.halted(lost) {
                    complete = false;
                    break;
                }
                let checkpoints = match read_ahead.take() {
                    Some(checkpoints) => checkpoints,
                    None => self.blob_checkpoints(push, batch).await,
                };
                let (ready, outcomes) = ready_to_write(checkpoints);
                // Whatever the file lane finished meanwhile goes with these checkpoints.
                while let Ok(done) = written.try_recv() {
                    finished.extend(done);
                }
                *failed |= any_failed(&finished);
                let record = async {
                    self.db
                        .datasets_moved(push, &finished, &writing_marks(&ready))
                        .await?;
                    Ok::<bool, anyhow::Error>(to_write.send((ready, outcomes)).await.is_ok())
                };
                // The next batch's heads are read while this one is recorded and handed over.
                let read_next = async {
                    match batches.get(i + 1) {
                        Some(next) => Some(self.blob_checkpoints(push, next).await),
                        None => None,
                    }
                };
                let (handed_over, next) = tokio::join!(record, read_next);
                if !handed_over? {
                    // The file lane stopped on an error of its own (returned below).
                    break;
                }
                finished.clear();
                read_ahead = next;
            }
            drop(to_write);
            while let Some(done) = written.recv().await {
                *failed |= any_failed(&done);
                self.db.datasets_finished(push, &done).await?;
            }
            Ok::<bool, anyhow::Error>(complete)
        };

        let (files, complete) = tokio::join!(files, state);
        files?;
        Ok(complete? && !self.halted(lost))
    }

    /// One batch of a pipelined commit ([`Self::commit_blob_run`]): written, unless the
    /// commit halted meanwhile (the rerun then finds it `writing`, with what its
    /// checkpoints tell); its outcomes, with those of its failed checkpoints.
    async fn write_blob_batch<'a>(
        &self,
        push: &PushRecord,
        (ready, mut outcomes): Batch<'a>,
        lost: &AtomicBool,
    ) -> anyhow::Result<Vec<WriteOutcome>> {
        if self.halted(lost) {
            return Ok(outcomes);
        }
        let begun = Instant::now();
        let done = match self.write_blobs(push, &ready).await {
            Some(done) => done,
            None => self.write_each(push, &ready).await?,
        };
        let (first, last) = (
            ready.first().map(|(record, _, _)| record.name.as_str()),
            ready.last().map(|(record, _, _)| record.name.as_str()),
        );
        tracing::info!(push = %push.id, datasets = ready.len(), first, last, files_ms = begun.elapsed().as_millis(), "object-storage batch written");
        outcomes.extend(
            done.into_iter()
                .map(|(record, result)| outcome_of(&push.id, record, result, true)),
        );
        Ok(outcomes)
    }

    /// Records the datasets whose checkpoint was taken as `writing`, with it: the datasets
    /// ready to write, and the outcomes of those whose checkpoint failed.
    async fn mark_writing<'a>(
        &self,
        push_id: &str,
        checkpoints: Vec<Checkpointed<'a>>,
    ) -> anyhow::Result<Batch<'a>> {
        let (ready, outcomes) = ready_to_write(checkpoints);
        self.db
            .datasets_writing(push_id, &writing_marks(&ready))
            .await?;
        Ok((ready, outcomes))
    }

    /// [`Self::write`] of each dataset, [`BLOB_WRITES`] at once.
    async fn write_each<'a>(
        &self,
        push: &PushRecord,
        ready: &[Ready<'a>],
    ) -> anyhow::Result<Vec<(&'a DatasetRecord, Written)>> {
        let writing: Vec<_> = ready
            .iter()
            .map(|(record, manifest, checkpoint)| async move {
                Ok::<_, anyhow::Error>((
                    *record,
                    self.write(push, record, manifest, checkpoint).await?,
                ))
            })
            .collect();
        stream::iter(writing)
            .buffered(BLOB_WRITES)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect()
    }

    /// [`Self::checkpoint_of`] of a batch of object-storage datasets, the heads read
    /// together (one blocking task on a local store).
    async fn blob_checkpoints<'a>(
        &self,
        push: &PushRecord,
        batch: &[Pending<'a>],
    ) -> Vec<Checkpointed<'a>> {
        let unknown: Vec<&str> = batch
            .iter()
            .filter(|(record, _)| record.checkpoint.is_none())
            .map(|(_, manifest)| manifest.name.as_str())
            .collect();
        let mut read = self
            .engines
            .blob
            .heads_exist(&push.namespace, &push.branch, &unknown)
            .await
            .into_iter();
        batch
            .iter()
            .map(|&(record, manifest)| {
                let checkpoint = match &record.checkpoint {
                    Some(checkpoint) => Ok(checkpoint.clone()),
                    None => match read.next().expect("a head read per dataset") {
                        Ok(exists) => Ok(json!({"exists": exists})),
                        Err(error) => Err(Problem::new(503, codes::ENGINE_FAILED, "Engine failed")
                            .with_detail(format!("{:#}", anyhow::Error::from(error)))
                            .with("dataset", &manifest.name)),
                    },
                };
                (record, manifest, checkpoint)
            })
            .collect()
    }

    /// What an object-storage put leaves a push with: the package version recorded on
    /// the dataset when the push names one (it names the files as this push leaves them,
    /// also when unchanged), then the status and details the push reports.
    async fn blob_finish(
        &self,
        push: &PushRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
        resumed: bool,
        outcome: Result<BlobOutcome, BlobError>,
    ) -> Result<(DatasetStatus, DatasetDetail), Problem> {
        let (ns, name, branch) = (&push.namespace, &manifest.name, &push.branch);
        let version = push.manifest.package.version.clone();
        let force = forced(push);
        let mut outcome = outcome;
        if let (Ok(_), Some(version)) = (&outcome, &version)
            && let Err(error) = self
                .engines
                .blob
                .record_version(ns, name, branch, version, force)
                .await
        {
            outcome = Err(error);
        }
        match outcome {
            Ok(outcome) => Ok(blob_written(
                &outcome,
                checkpoint,
                resumed,
                push.manifest.options.replace,
                version,
            )),
            Err(error) => Err(blob_problem(name, &error)),
        }
    }

    /// [`Self::write`] of a batch of object-storage datasets, together: the staged
    /// contents looked up at once and the puts made by [`BlobEngine::put_many`]. `None`
    /// when the staging store would download the contents (S3), or cannot say where they
    /// are: the caller then writes them one by one ([`Self::write_each`]).
    async fn write_blobs<'a>(
        &self,
        push: &PushRecord,
        ready: &[Ready<'a>],
    ) -> Option<Vec<(&'a DatasetRecord, Written)>> {
        let (ns, branch) = (push.namespace.as_str(), push.branch.as_str());
        let mut wanted: Vec<(&str, u64)> = ready
            .iter()
            .flat_map(|(_, manifest, _)| manifest.files.iter())
            .map(|f| (f.sha256.as_str(), f.size))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let found = self.staging.local_files_in_place(&wanted).await?.ok()?;
        let contents: HashMap<&str, LocalContent> = wanted
            .iter()
            .zip(found)
            .filter_map(|((sha256, _), content)| Some((*sha256, content?)))
            .collect();

        let mut results: Vec<Option<Result<_, Problem>>> = ready.iter().map(|_| None).collect();
        let mut puts = Vec::new();
        let mut put_of = Vec::new();
        for (i, (_, manifest, _)) in ready.iter().enumerate() {
            let missing = manifest
                .files
                .iter()
                .find(|f| !contents.contains_key(f.sha256.as_str()));
            if let Some(file) = missing {
                let error = StagingError::NotStaged {
                    sha256: file.sha256.clone(),
                };
                results[i] = Some(Err(staging_problem(&manifest.name, error)));
                continue;
            }
            puts.push(blob_put(push, manifest, |sha256| {
                contents[sha256].path.clone()
            }));
            put_of.push(i);
        }
        let done = self.engines.blob.put_many(ns, branch, &puts).await;
        for (i, outcome) in put_of.into_iter().zip(done) {
            let (record, manifest, checkpoint) = &ready[i];
            let resumed = record.state == DatasetState::Writing;
            let finished = self
                .blob_finish(push, manifest, checkpoint, resumed, outcome)
                .await;
            results[i] = Some(finished.map(|(status, detail)| {
                (
                    status,
                    detail,
                    head_update(manifest, push.manifest.options.replace),
                )
            }));
        }
        drop(contents);
        // Written, not yet recorded: where the test hook pauses a commit.
        for (_, manifest, _) in ready {
            self.test_pause(&push.id, &manifest.name).await;
        }
        Some(
            ready
                .iter()
                .zip(results)
                .map(|((record, _, _), result)| {
                    (*record, result.expect("every dataset has a result"))
                })
                .collect(),
        )
    }

    /// The engine's state before a write, to tell after a crash what the write did.
    async fn checkpoint(
        &self,
        kind: AssetKind,
        ns: &str,
        name: &str,
        branch: &str,
    ) -> Result<Value, Problem> {
        let failed = |error: anyhow::Error| {
            Problem::new(503, codes::ENGINE_FAILED, "Engine failed")
                .with_detail(format!("{error:#}"))
                .with("dataset", name)
        };
        Ok(match kind.engine() {
            Engine::Iceberg => {
                let snapshot = self
                    .engines
                    .iceberg
                    .snapshot_of(ns, name, branch)
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"snapshot_id": snapshot.map(|s| s.snapshot_id)})
            }
            Engine::Graph => {
                let count = self
                    .engines
                    .graph
                    .count(&graph_iri(&self.public_host, ns, name, branch))
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"triples": count})
            }
            Engine::ObjectStorage => {
                let head = self
                    .engines
                    .blob
                    .head(ns, name, branch)
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"exists": head.is_some()})
            }
        })
    }

    /// Deletes a dataset that left the package from the branch.
    async fn delete(&self, push: &PushRecord, record: &DatasetRecord) -> Result<bool, Problem> {
        let (ns, name, branch) = (
            push.namespace.as_str(),
            record.name.as_str(),
            push.branch.as_str(),
        );
        match record.kind.engine() {
            Engine::Iceberg => self
                .engines
                .iceberg
                .remove_branch(ns, name, branch)
                .await
                .map_err(|e| iceberg_problem(name, &e)),
            Engine::Graph => {
                // The same cross-replica lock as loads: a drop must not interleave with an
                // append another replica computes against the graph's content. (No test
                // provokes that interleaving: it needs a load and a `--replace` deletion of
                // the same graph landing within the same milliseconds on two replicas.)
                // The dataset's graph first (readers see it gone), then its versions on
                // the branch, as a blob dataset's versions go with its prefix. A crash in
                // between leaves the delete to be done again, which finds the versions.
                let graph = &self.engines.graph;
                let host = &self.public_host;
                let iri = graph_iri(host, ns, name, branch);
                let lock = self.db.lock(&format!("graph/{iri}")).await.map_err(|e| {
                    Problem::new(503, codes::ENGINE_FAILED, "Graph engine failed")
                        .with_detail(error_chain(&e))
                        .with("dataset", name)
                })?;
                let problem = |e: GraphError| graph_problem(name, &e);
                let dropped = async {
                    let mut existed = graph.drop_graph(&iri).await.map_err(problem)?;
                    for version in graph_versions(graph, host, ns, name, branch)
                        .await
                        .map_err(problem)?
                    {
                        existed |= graph
                            .drop_graph(&graph_version_iri(host, ns, name, branch, &version))
                            .await
                            .map_err(problem)?;
                    }
                    Ok(existed)
                }
                .await;
                if let Some(lock) = lock {
                    lock.release().await;
                }
                dropped
            }
            Engine::ObjectStorage => self
                .engines
                .blob
                .delete_dataset(ns, name, branch)
                .await
                .map_err(|e| blob_problem(name, &e)),
        }
    }

    /// Test hook (see [`env_vars::STONE_SERVER_TEST_PAUSE_COMMIT`]).
    async fn test_pause(&self, push_id: &str, dataset: &str) {
        if self.pause_at.as_deref() != Some(dataset) {
            return;
        }
        let dir = self.data_dir.join("test-hooks");
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join("paused"), format!("{push_id} {dataset}\n"));
        tracing::warn!(
            push = push_id,
            dataset,
            "test hook: commit paused until the process is killed or stopped"
        );
        // A stop (SIGTERM) ends the pause: the job goes on as a slow write would, and
        // parks at the next dataset.
        let mut shutdown = self.shutdown.clone();
        let _ = shutdown.wait_for(|stopping| *stopping).await;
    }
}

/// A dataset of a commit still to write, and its manifest.
type Pending<'a> = (&'a DatasetRecord, &'a DatasetManifest);
/// A dataset of a commit with its checkpoint, or why the checkpoint could not be taken.
type Checkpointed<'a> = (
    &'a DatasetRecord,
    &'a DatasetManifest,
    Result<Value, Problem>,
);
/// A dataset of a commit ready to write: its checkpoint is taken.
type Ready<'a> = (&'a DatasetRecord, &'a DatasetManifest, Value);
/// How a dataset's write ended: status, details and head move, or the dataset's failure.
type Written = Result<(DatasetStatus, DatasetDetail, HeadUpdate), Problem>;
/// A batch handed to a pipelined commit's file lane: the datasets to write, and the
/// outcomes of those whose checkpoint failed.
type Batch<'a> = (Vec<Ready<'a>>, Vec<WriteOutcome>);

/// Datasets with their checkpoints: those ready to write (checkpoint taken), and the
/// outcomes of those whose checkpoint failed.
fn ready_to_write<'a>(checkpoints: Vec<Checkpointed<'a>>) -> Batch<'a> {
    let mut ready = Vec::with_capacity(checkpoints.len());
    let mut outcomes = Vec::new();
    for (record, manifest, checkpoint) in checkpoints {
        match checkpoint {
            Ok(checkpoint) => ready.push((record, manifest, checkpoint)),
            Err(problem) => outcomes.push(WriteOutcome::Failed {
                name: record.name.clone(),
                problem,
            }),
        }
    }
    (ready, outcomes)
}

/// Whether a push may move what its branch's guards keep (a version naming other files):
/// it was forced, or its branch is not protected.
fn forced(push: &PushRecord) -> bool {
    push.manifest.options.force || !push.protected
}

/// The `writing` marks of datasets ready to write: name and checkpoint.
fn writing_marks<'r>(ready: &'r [Ready<'_>]) -> Vec<(&'r str, &'r Value)> {
    ready
        .iter()
        .map(|(record, _, checkpoint)| (record.name.as_str(), checkpoint))
        .collect()
}

/// Whether one of these writes failed.
fn any_failed(outcomes: &[WriteOutcome]) -> bool {
    outcomes
        .iter()
        .any(|o| matches!(o, WriteOutcome::Failed { .. }))
}

/// A dataset write's outcome as recorded, logged (a success at debug level when `batched`:
/// the batch has an info line of its own).
fn outcome_of(
    push_id: &str,
    record: &DatasetRecord,
    result: Written,
    batched: bool,
) -> WriteOutcome {
    match result {
        Ok((status, detail, head)) => {
            if batched {
                tracing::debug!(push = %push_id, dataset = %record.name, status = ?status, "dataset written");
            } else {
                tracing::info!(push = %push_id, dataset = %record.name, status = ?status, "dataset written");
            }
            WriteOutcome::Done {
                name: record.name.clone(),
                status,
                detail,
                head: Some(head),
            }
        }
        Err(problem) => {
            tracing::warn!(push = %push_id, dataset = %record.name, code = %problem.code, detail = ?problem.detail, "dataset failed");
            WriteOutcome::Failed {
                name: record.name.clone(),
                problem,
            }
        }
    }
}

/// The put of an object-storage dataset of `push`, its staged contents at `local(sha256)`.
fn blob_put(
    push: &PushRecord,
    manifest: &DatasetManifest,
    local: impl Fn(&str) -> PathBuf,
) -> BlobPut {
    let force = forced(push);
    BlobPut {
        dataset: manifest.name.clone(),
        files: manifest
            .files
            .iter()
            .map(|file| BlobFile {
                path: file.path.clone(),
                local: local(&file.sha256),
                sha256: file.sha256.clone(),
                size: file.size,
                // Staged contents are verified on receipt (local) or on download (S3).
                verified: true,
            })
            .collect(),
        replace: push.manifest.options.replace,
        // Without force, a version that names other files stops the put before it writes
        // anything (the guard at POST /pushes saw an earlier state).
        keep: push.manifest.package.version.clone().filter(|_| !force),
    }
}

/// How a written dataset moves its head: to the manifest's contents, or without
/// `replace` to these and the ones it held (the union is taken in the transaction that
/// moves it: another replica may move it meanwhile).
fn head_update(manifest: &DatasetManifest, replace: bool) -> HeadUpdate {
    let files: BTreeSet<String> = manifest.files.iter().map(|f| f.sha256.clone()).collect();
    HeadUpdate::Set {
        kind: manifest.kind,
        files: files.into_iter().collect(),
        merge: !replace,
    }
}

/// What an object-storage put did, as a push reports it. `existed` is the checkpoint's
/// word (whether the dataset had a head before the first attempt); `resumed`, whether
/// this is a rerun after a crash.
fn blob_written(
    outcome: &BlobOutcome,
    checkpoint: &Value,
    resumed: bool,
    replace: bool,
    tag: Option<String>,
) -> (DatasetStatus, DatasetDetail) {
    let existed = checkpoint
        .get("exists")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let status = match outcome.status {
        BlobStatus::Created => DatasetStatus::Created,
        BlobStatus::Updated if replace => DatasetStatus::Replaced,
        BlobStatus::Updated => DatasetStatus::Appended,
        BlobStatus::Unchanged if resumed && !existed => DatasetStatus::Created,
        BlobStatus::Unchanged => DatasetStatus::Unchanged,
    };
    let detail = DatasetDetail {
        files: Some(outcome.files),
        bytes: Some(outcome.bytes),
        tag,
        ..DatasetDetail::default()
    };
    (status, detail)
}

/// The package node a push writes.
pub fn package_node(public_host: &str, push_id: &str, manifest: &CreatePush) -> PackageNode {
    let (url, iri) = namespace_urls(public_host, &manifest.namespace);
    PackageNode {
        namespace: manifest.namespace.clone(),
        branch: manifest.branch.clone(),
        url,
        iri,
        package: manifest.package.clone(),
        resources: manifest
            .datasets
            .iter()
            .map(|d| {
                let (url, iri) = dataset_urls(public_host, &manifest.namespace, &d.name);
                PackageResource {
                    name: d.name.clone(),
                    url,
                    iri,
                    kind: d.kind,
                    engine: d.kind.engine(),
                    metadata: d.metadata.clone(),
                }
            })
            .collect(),
        push_id: push_id.to_owned(),
        updated_at: now(),
    }
}

fn describe_change(change: &SchemaChange) -> String {
    match change {
        SchemaChange::ColumnAdded { column, data_type } => {
            format!("added column {column} ({data_type})")
        }
        SchemaChange::ColumnWidened { column, from, to } => {
            format!("widened column {column} from {from} to {to}")
        }
        SchemaChange::ColumnMadeOptional { column } => format!("made column {column} optional"),
        SchemaChange::Forced { column, change } => format!("forced: column {column}: {change}"),
    }
}

/// A dataset failure from staging.
pub fn staging_problem(dataset: &str, error: StagingError) -> Problem {
    match error {
        StagingError::DigestMismatch { expected, actual } => {
            Problem::new(400, codes::STAGING_DIGEST_MISMATCH, "Digest mismatch")
                .with_detail(format!(
                    "staged content {expected} has sha256 {actual}; push again to upload it anew"
                ))
                .with("dataset", dataset)
                .with("expected", expected)
                .with("actual", actual)
        }
        StagingError::NotStaged { sha256 } => {
            Problem::new(409, codes::PUSH_INCOMPLETE, "Content is missing")
                .with_detail(format!("content {sha256} is not staged"))
                .with("dataset", dataset)
                .with("missing", [sha256])
        }
        other => Problem::new(503, codes::ENGINE_FAILED, "Staging failed")
            .with_detail(error_chain(&other))
            .with("dataset", dataset),
    }
}

fn iceberg_problem(dataset: &str, error: &IcebergError) -> Problem {
    let problem = match error {
        IcebergError::IncompatibleSchema { column, .. } => Problem::new(
            409,
            codes::SCHEMA_INCOMPATIBLE,
            "Incompatible schema change",
        )
        .with("column", column),
        IcebergError::TypeChangeNeedsReplace { column, .. } => Problem::new(
            409,
            codes::SCHEMA_INCOMPATIBLE,
            "Incompatible schema change",
        )
        .with("column", column),
        IcebergError::TagExists { tag, .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists").with("version", tag)
        }
        IcebergError::RefKindConflict { name, .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version name taken").with("version", name)
        }
        IcebergError::ParquetLimit { .. } => Problem::new(
            422,
            codes::DATASET_LIMIT_EXCEEDED,
            "File past a parser limit",
        ),
        IcebergError::InvalidParquet { .. }
        | IcebergError::UnsupportedColumnType { .. }
        | IcebergError::FileHasFieldIds { .. }
        | IcebergError::ChecksumMismatch { .. } => {
            Problem::new(422, codes::TABULAR_INVALID_FILE, "Invalid TABULAR file")
        }
        IcebergError::InvalidName { .. } => {
            Problem::new(400, codes::REQUEST_INVALID, "Invalid name")
        }
        _ => Problem::new(503, codes::ENGINE_FAILED, "Iceberg engine failed"),
    };
    problem
        .with_detail(error_chain(error))
        .with("dataset", dataset)
}

fn graph_problem(dataset: &str, error: &GraphError) -> Problem {
    let problem = match error {
        GraphError::Parse { .. } | GraphError::RemoteContext { .. } => {
            Problem::new(422, codes::GRAPH_INVALID_RDF, "Invalid RDF")
        }
        GraphError::VersionExists { .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists")
        }
        GraphError::TooLarge { .. } => Problem::new(413, codes::GRAPH_TOO_LARGE, "Graph too large"),
        _ => Problem::new(503, codes::ENGINE_FAILED, "Graph engine failed"),
    };
    problem
        .with_detail(error_chain(error))
        .with("dataset", dataset)
}

fn blob_problem(dataset: &str, error: &BlobError) -> Problem {
    let problem = match error {
        BlobError::Digest { .. } => {
            Problem::new(400, codes::STAGING_DIGEST_MISMATCH, "Digest mismatch")
        }
        BlobError::VersionExists { .. } => {
            Problem::new(409, codes::VERSION_EXISTS, "Version exists")
        }
        BlobError::InvalidPath { .. }
        | BlobError::DuplicatePath { .. }
        | BlobError::InvalidName { .. } => {
            Problem::new(400, codes::REQUEST_INVALID, "Invalid dataset file")
        }
        _ => Problem::new(503, codes::ENGINE_FAILED, "Object storage failed"),
    };
    problem
        .with_detail(error_chain(error))
        .with("dataset", dataset)
}

/// `error: cause: cause`.
pub fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
