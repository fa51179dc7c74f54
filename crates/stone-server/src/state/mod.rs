//! Push state in SQLite or PostgreSQL (sqlx; migrations in `migrations/`).
//!
//! Everything a push is and has done lives here, so that a restart loses nothing: the
//! manifest, the push's state, each dataset's state and engine outcome, the leases of the
//! job runner, the package nodes, and the staging bookkeeping (verified S3 contents,
//! multipart uploads). Every change that must be atomic is one transaction.
//!
//! Push states: `staging` → `committing` (commit) → `succeeded` | `failed`; a `failed` push
//! may be committed again. Dataset states: `pending` → `writing` → `done` | `failed`.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Connection, Row};
use stone_api::{
    AssetKind, CreatePush, DatasetDetail, DatasetState, DatasetStatus, NodeStatus, OutlinedDataset,
    PackageNode, Problem, PushOutline, PushReport, PushState,
};

mod datasets;
// Issue 58: the transactional outbox.
mod events;
mod gc;
mod leases;
mod migrations;
// Issue 27: files of `paged_files` pushes, recorded in batches.
mod push_files;
mod pushes;
mod quotas;
mod staging;
// Issue 58: webhook subscriptions and deliveries.
mod subscriptions;
#[cfg(test)]
mod tests;

pub use datasets::WritingMark;
pub use events::{EventQuery, PRUNE_BATCH};
pub use gc::ago;
pub use leases::EngineLock;
pub use push_files::{FileTotals, declared_listings, heads_declared};
pub use quotas::{QuotaChange, QuotaFigures};
pub use staging::{DELETIONS_KEPT, DeletionMark, Keeps};
pub use subscriptions::{Attempt, Claimed, Filters, SubscriptionRecord, time_after};

/// Errors of the state database.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    #[error("cannot open the state database {path}")]
    Open {
        path: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("cannot migrate the state database")]
    Migrate(#[source] sqlx::migrate::MigrateError),
    #[error("state database query failed: {what}")]
    Query {
        what: &'static str,
        #[source]
        source: sqlx::Error,
    },
    #[error("the state database holds an unreadable {what}: {message}")]
    Corrupt { what: &'static str, message: String },
    /// A dataset a commit was about to mark `writing` is no longer in the state this run
    /// read: another run of the same push (a replica that claimed it when this run's
    /// lease ran out) took it first. Nothing of the transaction was kept.
    #[error("another run of push {push} is writing its datasets: this run stops")]
    TakenOver { push: String },
}

type Result<T> = std::result::Result<T, StateError>;

/// How one dataset write ended, for [`StateDb::datasets_finished`].
#[derive(Debug, Clone)]
pub enum WriteOutcome {
    Done {
        name: String,
        status: DatasetStatus,
        detail: DatasetDetail,
        head: Option<HeadUpdate>,
    },
    Failed {
        name: String,
        problem: Problem,
    },
}

/// Rows for a set-based statement: `WITH r AS MATERIALIZED (SELECT … FROM <json array
/// param>)`, whose columns are the given keys of each array element (objects; `int`
/// columns cast to integers), so that one statement reads or writes a whole batch instead
/// of one round trip a row. Materialized, so that the planner looks rows up by key from
/// `r` (inlined, SQLite scans `r` once per row of the table: seconds for a batch).
fn json_rows(backend: Backend, param: &str, columns: &[(&str, bool)]) -> String {
    let select = columns
        .iter()
        .map(|(name, int)| match (backend, int) {
            (Backend::Postgres, true) => format!("(j.value ->> '{name}')::bigint AS {name}"),
            _ => format!("j.value ->> '{name}' AS {name}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    match backend {
        Backend::Sqlite => {
            format!("WITH r AS MATERIALIZED (SELECT {select} FROM json_each({param}) AS j)")
        }
        Backend::Postgres => format!(
            "WITH r AS MATERIALIZED \
             (SELECT {select} FROM jsonb_array_elements({param}::jsonb) AS j(value))"
        ),
    }
}

/// Touches a push inside the caller's transaction and takes the next number of its
/// change counter, to stamp the dataset rows the transaction changes (see
/// `0002_dataset_changes.sql`). Taken before those rows change: the push's row is then
/// locked until the transaction ends, so change numbers become visible in order.
async fn touch_in(tx: &mut sqlx::AnyConnection, push_id: &str, now: &str) -> Result<i64> {
    let changes: Option<i64> = sqlx::query_scalar(
        "UPDATE pushes SET updated_at = $1, changes = changes + 1 WHERE id = $2 RETURNING changes",
    )
    .bind(now)
    .bind(push_id)
    .fetch_optional(&mut *tx)
    .await
    .map_err(query_error("touching a push"))?;
    Ok(changes.unwrap_or(0))
}

/// Serialises the transactions that name `key` across replicas: PostgreSQL's
/// transaction-scoped advisory lock (SQLite needs none: its first write takes the
/// database's write lock).
async fn lock_key(
    backend: Backend,
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    key: &str,
    what: &'static str,
) -> Result<()> {
    if backend == Backend::Postgres {
        sqlx::query("SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS l")
            .bind(key)
            .execute(&mut **tx)
            .await
            .map_err(query_error(what))?;
    }
    Ok(())
}

fn query_error(what: &'static str) -> impl FnOnce(sqlx::Error) -> StateError {
    move |source| StateError::Query { what, source }
}

/// Now, RFC 3339 UTC with seconds.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A unit enum as its wire text (`"staging"`).
fn text<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(text)) => text,
        other => panic!("not a unit enum: {other:?}"),
    }
}

fn from_text<T: DeserializeOwned>(what: &'static str, text: &str) -> Result<T> {
    serde_json::from_value(Value::String(text.to_owned())).map_err(|e| StateError::Corrupt {
        what,
        message: format!("{text:?}: {e}"),
    })
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("wire types serialize")
}

/// The JSON array text of `rows` (for [`json_rows`]), each row made as it is written: no
/// vector of every row's `Value` beside the text (issue 27: a push of 100,000 datasets
/// held ~30 MB of `Value`s for a text of ~10 MB, at each of its largest statements).
fn json_array<T: Serialize>(rows: impl IntoIterator<Item = T>) -> String {
    json(&Rows(std::cell::Cell::new(Some(rows.into_iter()))))
}

/// An iterator written once as a JSON array ([`json_array`]).
struct Rows<I>(std::cell::Cell<Option<I>>);

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Rows<I> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.take().into_iter().flatten())
    }
}

fn from_json<T: DeserializeOwned>(what: &'static str, text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| StateError::Corrupt {
        what,
        message: e.to_string(),
    })
}

fn opt_json<T: DeserializeOwned>(what: &'static str, text: Option<String>) -> Result<Option<T>> {
    text.map(|t| from_json(what, &t)).transpose()
}

/// What a dataset row of a push does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Write the manifest's files.
    Write,
    /// Delete the dataset from the branch (it left the package; `replace`).
    Delete,
}

impl Operation {
    fn as_str(self) -> &'static str {
        match self {
            Self::Write => "write",
            Self::Delete => "delete",
        }
    }
}

/// A push as stored.
#[derive(Debug, Clone)]
pub struct PushRecord {
    pub id: String,
    pub principal: String,
    pub namespace: String,
    pub branch: String,
    pub state: PushState,
    pub manifest: CreatePush,
    pub protected: bool,
    pub created_at: String,
    pub updated_at: String,
    pub commits: i64,
    pub node_status: Option<NodeStatus>,
    pub result: Option<PushReport>,
    pub error: Option<Problem>,
    /// Expired by the garbage collection (`gc.rs`): left uncommitted too long. Its state
    /// is then [`PushState::Unknown`]; the API answers `410 push.expired`.
    pub expired: bool,
}

/// A push without its manifest, for progress reports.
#[derive(Debug, Clone)]
pub struct PushSummary {
    pub id: String,
    pub principal: String,
    pub namespace: String,
    pub branch: String,
    pub state: PushState,
    pub created_at: String,
    pub updated_at: String,
    /// The push's change counter: every transaction that changes its datasets takes the
    /// next number and stamps the rows it changes with it.
    pub changes: i64,
    /// Whether it takes its files in batches ([`CreatePush::paged_files`]).
    pub paged_files: bool,
    pub node_status: Option<NodeStatus>,
    pub result: Option<PushReport>,
    pub error: Option<Problem>,
    /// See [`PushRecord::expired`].
    pub expired: bool,
}

/// The stored state of an expired push (not a wire state: the API answers 410).
pub const EXPIRED: &str = "expired";

/// A dataset of a push as stored.
#[derive(Debug, Clone)]
pub struct DatasetRecord {
    pub position: i64,
    pub name: String,
    pub kind: AssetKind,
    pub operation: Operation,
    pub state: DatasetState,
    pub status: Option<DatasetStatus>,
    pub detail: Option<DatasetDetail>,
    pub error: Option<Problem>,
    /// Engine state before the first write attempt (see `jobs.rs`).
    pub checkpoint: Option<Value>,
}

/// A dataset row to create.
#[derive(Debug, Clone)]
pub struct NewDataset {
    pub name: String,
    pub kind: AssetKind,
    pub operation: Operation,
}

/// How a finished dataset write moves the dataset's head.
#[derive(Debug, Clone)]
pub enum HeadUpdate {
    /// The branch now holds these contents (sorted, distinct sha256), or with `merge`
    /// these and the ones it held (the union is taken inside the transaction that moves
    /// the head, so concurrent writers on other replicas lose nothing).
    Set {
        kind: AssetKind,
        files: Vec<String>,
        merge: bool,
    },
    /// Issue 27: [`HeadUpdate::Set`] with the contents the batches of the push recorded
    /// for the dataset (`push_files`), taken by the database inside the transaction that
    /// moves the head: a folder of a million files is never a list in the server.
    Paged { kind: AssetKind, merge: bool },
    /// The dataset is gone from the branch.
    Delete,
}

/// A multipart upload in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultipartRecord {
    pub sha256: String,
    /// The holder key of the caller who started it (`""` on S3, where one upload per
    /// content is shared).
    pub owner: String,
    pub size: u64,
    pub part_size: u64,
    pub upload_id: String,
}

/// Which database holds the push state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in the data directory: one server process.
    Sqlite,
    /// PostgreSQL: shared by every replica.
    Postgres,
}

impl Backend {
    /// The backend of a database URL (`sqlite:…`, `postgres://…`, `postgresql://…`).
    pub fn of_url(url: &str) -> Option<Self> {
        if url.starts_with("sqlite:") {
            Some(Self::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Self::Postgres)
        } else {
            None
        }
    }
}

/// The state database.
#[derive(Debug, Clone)]
pub struct StateDb {
    pool: AnyPool,
    backend: Backend,
    /// Woken by every change of a push's state or datasets made through this process
    /// (see [`Self::changed`]).
    changed: Arc<tokio::sync::Notify>,
    /// Content holders waiting to be recorded together ([`Self::record_holder`]).
    holders: Arc<staging::HolderQueue>,
    /// Woken when this process records events ([`Self::events_added`]).
    events_added: Arc<tokio::sync::Notify>,
    /// The host of the IRIs events name (`https://<public_host>/<ns>/<name>`).
    public_host: Arc<str>,
    /// Package node writes committed through this process ([`Self::package_generation`]).
    package_writes: Arc<std::sync::atomic::AtomicU64>,
}

impl StateDb {
    /// Opens (creating it if needed) and migrates the SQLite database at `path`.
    pub async fn open(path: &Path) -> Result<Self> {
        Self::connect(&format!("sqlite://{}?mode=rwc", path.display()), 4).await
    }

    /// Opens and migrates the database at `url`: `sqlite://…` or `postgres://…`.
    /// Several processes may share a PostgreSQL database (replicas); migrations take
    /// PostgreSQL's advisory lock.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Self> {
        sqlx::any::install_default_drivers();
        let shown = stone_api::redact_url(url);
        let backend = Backend::of_url(url).ok_or_else(|| StateError::Open {
            path: shown.clone(),
            source: sqlx::Error::Configuration(
                "the database URL must start with sqlite: or postgres://".into(),
            ),
        })?;
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections.max(1))
            .after_connect(move |connection, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // Persistent in the file; the rest is per connection.
                        sqlx::query("PRAGMA journal_mode = WAL")
                            .execute(&mut *connection)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 10000")
                            .execute(&mut *connection)
                            .await?;
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *connection)
                            .await?;
                        sqlx::query("PRAGMA synchronous = FULL")
                            .execute(&mut *connection)
                            .await?;
                    }
                    Ok(())
                })
            })
            // A connection whose transaction did not end (a COMMIT that failed on a full
            // disk, whose rollback failed too) holds SQLite's write lock for as long as it
            // lives: returned to the pool, it kept every later write waiting until
            // `database is locked`, until a restart (issue 54). Such a connection is
            // closed instead, which rolls the transaction back.
            .after_release(|connection, _| {
                Box::pin(async move {
                    if !connection.is_in_transaction() {
                        return Ok(true);
                    }
                    // A transaction dropped without its commit has its rollback queued:
                    // a round trip lets it run, then the depth says whether it did.
                    connection.ping().await?;
                    let ended = !connection.is_in_transaction();
                    if !ended {
                        tracing::warn!(
                            "a state database connection still in a transaction was closed \
                             (its commit or rollback failed)"
                        );
                    }
                    Ok(ended)
                })
            })
            .connect(url)
            .await
            .map_err(|source| StateError::Open {
                path: shown,
                source,
            })?;
        migrations::migrator(matches!(backend, Backend::Postgres))
            .run(&pool)
            .await
            .map_err(StateError::Migrate)?;
        Ok(Self {
            pool,
            backend,
            changed: Arc::default(),
            holders: Arc::default(),
            events_added: Arc::default(),
            public_host: Arc::from("localhost"),
            package_writes: Arc::default(),
        })
    }

    /// A number that changes whenever a package node may have changed, when this process
    /// is the database's only writer (SQLite: the data directory is locked by it): what
    /// was read of the package nodes while it held stays true until it moves. `None` on
    /// PostgreSQL, where other replicas write too.
    pub fn package_generation(&self) -> Option<u64> {
        (self.backend == Backend::Sqlite).then(|| {
            self.package_writes
                .load(std::sync::atomic::Ordering::SeqCst)
        })
    }

    /// The host the IRIs of events name (the server's `public_host`).
    pub fn with_public_host(mut self, public_host: &str) -> Self {
        self.public_host = Arc::from(public_host);
        self
    }

    /// Wakes whoever waits on [`Self::changed`] and [`Self::events_added`], after a commit.
    fn notify_changed(&self) {
        self.changed.notify_waiters();
        self.events_added.notify_waiters();
    }

    /// Completes at the next change of a push's state or datasets made by this process
    /// (another replica's changes do not wake it: wait with a timeout). Enable the future
    /// before reading the state it is to report changes of.
    pub fn changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.changed.notified()
    }

    /// One change of a push's rows, as one transaction: takes the push's next change
    /// number ([`touch_in`]), runs `change` with the transaction, that number and the time,
    /// commits, and wakes whoever waits on [`Self::changed`].
    async fn change_push<T>(
        &self,
        push_id: &str,
        change: impl AsyncFnOnce(&mut sqlx::AnyConnection, i64, &str) -> Result<T>,
    ) -> Result<T> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        let number = touch_in(&mut tx, push_id, &now).await?;
        let value = change(&mut tx, number, &now).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.notify_changed();
        Ok(value)
    }

    /// The database this state lives in.
    pub fn backend(&self) -> Backend {
        self.backend
    }
}

/// Contents looked up at once by the possession queries.
const POSSESSION_BATCH: usize = 1000;

fn multipart_record(row: sqlx::any::AnyRow) -> MultipartRecord {
    MultipartRecord {
        sha256: row.get("sha256"),
        owner: row.get("owner"),
        size: row.get::<i64, _>("size") as u64,
        part_size: row.get::<i64, _>("part_size") as u64,
        upload_id: row.get("upload_id"),
    }
}
