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

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use futures::stream::{self, FuturesUnordered, StreamExt};
use serde_json::{Value, json};
use stone_api::{
    AssetKind, CreatePush, DatasetDetail, DatasetManifest, DatasetState, DatasetStatus, Engine,
    PackageNode, PackageResource, Problem, PushReport, PushState, ResultCounts, StagingStoreKind,
    codes,
};
use tokio::sync::{Notify, Semaphore, watch};
use tokio::task::JoinSet;

use crate::config::{Settings, env_vars};
use crate::engines::Engines;
use crate::engines::blob::{BlobError, BlobFile, BlobOutcome, BlobPut, BlobStatus};
use crate::engines::graph::{GraphError, RdfFile, RdfFormat};
use crate::engines::graph_versions;
use crate::engines::iceberg::{
    AppendOptions, AppendStatus, ExpireOutcome, Retention, SchemaChange, StagedFile,
};
use crate::error::{blob_problem, graph_problem, iceberg_problem, staging_problem};
use crate::guards::Guards;
use crate::iri::{dataset_urls, graph_iri, graph_version_iri, namespace_urls};
use crate::report::error_chain;
use crate::staging::{LocalContent, StagingError, StagingStore};
use crate::state::{
    DatasetRecord, HeadUpdate, Operation, PushRecord, StateDb, StateError, WriteOutcome,
    WritingMark, now,
};
use crate::straight::Reliance;

mod blob_batch;
mod commit;
mod graph_batch;
mod paged;
mod runner;
mod stall;

use blob_batch::blob_put;
use commit::{
    StoreWait, any_failed, forced, head_update, outcome_of, ready_to_write, unavailable,
    writing_marks,
};

pub use commit::package_node;

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
    /// `[jobs] dependency_retry_seconds`: how long a dataset write is tried again while a
    /// store it depends on does not answer.
    dependency_retry: Duration,
    owner: String,
    /// The pushes this runner's jobs are committing. A claim may hand one back: its lease
    /// ran out while the state database did not answer the renewals; its job still runs,
    /// and a second one beside it would judge the first one's writes `unchanged`.
    running: std::sync::Mutex<HashSet<String>>,
    notify: Notify,
    pause_at: Option<String>,
    shutdown: watch::Receiver<bool>,
    /// `[retention]`: snapshot expiry after a TABULAR write; `None`: never.
    retention: Option<Retention>,
    /// Which branches are protected (their history is expired only by a forced push).
    guards: Guards,
    /// `[gc] clock_margin_seconds` (`straight.rs`).
    clock_margin: chrono::Duration,
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
