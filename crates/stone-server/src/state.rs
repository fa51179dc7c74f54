//! Push state in SQLite (sqlx; migrations in `migrations/`).
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
use sqlx::{AnyPool, Row};
use stone_api::{
    AssetKind, CreatePush, DatasetDetail, DatasetState, DatasetStatus, NodeStatus, PackageNode,
    Problem, PushResult, PushState,
};

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

/// Records how dataset writes ended (states, outcomes, heads) inside the caller's
/// transaction, in a few set-based statements whatever the number of datasets.
async fn record_outcomes(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    push: &PushRecord,
    outcomes: &[WriteOutcome],
    now: &str,
    change: i64,
) -> Result<()> {
    let mut done = Vec::new();
    let mut failed = Vec::new();
    let mut set: Vec<(&str, AssetKind, &[String], bool)> = Vec::new();
    let mut deleted = Vec::new();
    for outcome in outcomes {
        match outcome {
            WriteOutcome::Done {
                name,
                status,
                detail,
                head,
            } => {
                done.push(serde_json::json!({"name": name, "status": text(status), "detail": json(detail)}));
                match head {
                    Some(HeadUpdate::Set { kind, files, merge }) => {
                        set.push((name.as_str(), *kind, files.as_slice(), *merge))
                    }
                    Some(HeadUpdate::Delete) => deleted.push(name.as_str()),
                    None => {}
                }
            }
            WriteOutcome::Failed { name, problem } => {
                failed.push(serde_json::json!({"name": name, "error": json(problem)}))
            }
        }
    }
    if !done.is_empty() {
        let rows = json_rows(
            backend,
            "$1",
            &[("name", false), ("status", false), ("detail", false)],
        );
        sqlx::query(&format!(
            "{rows} UPDATE push_datasets SET state = 'done', status = r.status, detail = r.detail,
                    error = NULL, changed = $3
             FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name"
        ))
        .bind(json(&done))
        .bind(&push.id)
        .bind(change)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking datasets done"))?;
    }
    if !failed.is_empty() {
        let rows = json_rows(backend, "$1", &[("name", false), ("error", false)]);
        sqlx::query(&format!(
            "{rows} UPDATE push_datasets SET state = 'failed', status = NULL, detail = NULL,
                    error = r.error, changed = $3
             FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name"
        ))
        .bind(json(&failed))
        .bind(&push.id)
        .bind(change)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking datasets failed"))?;
    }
    if set.is_empty() && deleted.is_empty() {
        return Ok(());
    }
    // One head writer at a time: SQLite's write lock is already ours (the UPDATEs above);
    // PostgreSQL takes transaction-scoped advisory locks on the heads' keys, in one order
    // so that two batches cannot deadlock, released at commit.
    let names = |names: Vec<&str>| {
        let rows: Vec<Value> = names
            .iter()
            .map(|name| serde_json::json!({"name": name}))
            .collect();
        json(&rows)
    };
    if backend == Backend::Postgres {
        let mut keys: Vec<String> = set
            .iter()
            .map(|(name, ..)| *name)
            .chain(deleted.iter().copied())
            .map(|name| format!("dataset_head/{}/{name}/{}", push.namespace, push.branch))
            .collect();
        keys.sort();
        sqlx::query(
            "SELECT count(*) AS locked FROM (
                 SELECT pg_advisory_xact_lock(hashtext(k.key)) AS l -- volatile: never pruned
                 FROM (SELECT key FROM jsonb_array_elements_text($1::jsonb) AS e(key) ORDER BY key) AS k
             ) AS locks",
        )
        .bind(json(&keys))
        .execute(&mut *tx)
        .await
        .map_err(query_error("locking dataset heads"))?;
    }
    if !deleted.is_empty() {
        let rows = json_rows(backend, "$3", &[("name", false)]);
        sqlx::query(&format!(
            "{rows} DELETE FROM dataset_heads WHERE namespace = $1 AND branch = $2
                 AND name IN (SELECT name FROM r)"
        ))
        .bind(&push.namespace)
        .bind(&push.branch)
        .bind(names(deleted))
        .execute(&mut *tx)
        .await
        .map_err(query_error("deleting dataset heads"))?;
    }
    if set.is_empty() {
        return Ok(());
    }
    // Without replace the head gains the files: the union with what it holds now.
    let merging: Vec<&str> = set.iter().filter(|s| s.3).map(|s| s.0).collect();
    let mut held: std::collections::HashMap<String, Vec<String>> = Default::default();
    if !merging.is_empty() {
        let rows = json_rows(backend, "$3", &[("name", false)]);
        let found = sqlx::query(&format!(
            "{rows} SELECT name, files FROM dataset_heads WHERE namespace = $1 AND branch = $2
                 AND name IN (SELECT name FROM r)"
        ))
        .bind(&push.namespace)
        .bind(&push.branch)
        .bind(names(merging))
        .fetch_all(&mut *tx)
        .await
        .map_err(query_error("reading dataset heads"))?;
        for row in found {
            let files: String = row.get("files");
            held.insert(row.get("name"), from_json("head files", &files)?);
        }
    }
    let heads: Vec<Value> = set
        .iter()
        .map(|(name, kind, files, merge)| {
            let mut files: BTreeSet<&String> = files.iter().collect();
            if *merge && let Some(held) = held.get(*name) {
                files.extend(held);
            }
            serde_json::json!({"name": name, "kind": text(kind), "files": json(&files)})
        })
        .collect();
    let rows = json_rows(
        backend,
        "$5",
        &[("name", false), ("kind", false), ("files", false)],
    );
    sqlx::query(&format!(
        "{rows} INSERT INTO dataset_heads (namespace, name, branch, kind, files, push_id, updated_at)
         SELECT $1, r.name, $2, r.kind, r.files, $3, $4 FROM r WHERE true
         ON CONFLICT (namespace, name, branch) DO UPDATE SET
            kind = excluded.kind, files = excluded.files,
            push_id = excluded.push_id, updated_at = excluded.updated_at"
    ))
    .bind(&push.namespace)
    .bind(&push.branch)
    .bind(&push.id)
    .bind(now)
    .bind(json(&heads))
    .execute(&mut *tx)
    .await
    .map_err(query_error("moving dataset heads"))?;
    Ok(())
}

/// Marks datasets `writing` with their checkpoints (a recorded checkpoint is kept) inside
/// the caller's transaction.
async fn mark_writing(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    push_id: &str,
    datasets: &[(&str, &Value)],
    change: i64,
) -> Result<()> {
    if datasets.is_empty() {
        return Ok(());
    }
    let rows: Vec<Value> = datasets
        .iter()
        .map(|(name, checkpoint)| serde_json::json!({"name": name, "checkpoint": json(checkpoint)}))
        .collect();
    let table = json_rows(backend, "$1", &[("name", false), ("checkpoint", false)]);
    sqlx::query(&format!(
        "{table} UPDATE push_datasets SET state = 'writing',
                checkpoint = COALESCE(push_datasets.checkpoint, r.checkpoint), changed = $3
         FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name"
    ))
    .bind(json(&rows))
    .bind(push_id)
    .bind(change)
    .execute(&mut *tx)
    .await
    .map_err(query_error("marking datasets writing"))?;
    Ok(())
}

/// The [`PushSummary`] columns of a row of `pushes`.
fn summary_of(row: &sqlx::any::AnyRow) -> Result<PushSummary> {
    let state_text: String = row.get("state");
    let expired = state_text == EXPIRED;
    Ok(PushSummary {
        id: row.get("id"),
        principal: row.get("principal"),
        namespace: row.get("namespace"),
        branch: row.get("branch"),
        state: if expired {
            PushState::Unknown
        } else {
            from_text("push state", &state_text)?
        },
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
        changes: row.get("changes"),
        node_status: row
            .get::<Option<String>, _>("node_status")
            .map(|t| from_text("node status", &t))
            .transpose()?,
        result: opt_json("push result", row.get("result"))?,
        error: opt_json("push error", row.get("error"))?,
        expired,
    })
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

fn query_error(what: &'static str) -> impl FnOnce(sqlx::Error) -> StateError {
    move |source| StateError::Query { what, source }
}

/// Now, RFC 3339 UTC with seconds.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn later(duration: Duration) -> String {
    (chrono::Utc::now() + chrono::Duration::from_std(duration).unwrap_or_default())
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn now_precise() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
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
    pub result: Option<PushResult>,
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
    pub node_status: Option<NodeStatus>,
    pub result: Option<PushResult>,
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

/// A PostgreSQL advisory lock held on its own connection (see [`StateDb::lock`]).
#[derive(Debug)]
pub struct EngineLock {
    key: String,
    connection: Option<sqlx::pool::PoolConnection<sqlx::Any>>,
}

impl EngineLock {
    /// Releases the lock.
    pub async fn release(mut self) {
        if let Some(mut connection) = self.connection.take() {
            let unlocked = sqlx::query("SELECT pg_advisory_unlock(hashtext($1)) AS unlocked")
                .bind(&self.key)
                .execute(&mut *connection)
                .await;
            if unlocked.is_err() {
                // Closing the session releases it too.
                drop(connection.detach());
            }
        }
    }
}

impl Drop for EngineLock {
    fn drop(&mut self) {
        // Not released (a cancelled job): close the session, which releases the lock,
        // rather than hand a locked connection back to the pool.
        if let Some(connection) = self.connection.take() {
            drop(connection.detach());
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
        let shown = crate::engines::iceberg::redact(url);
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
            .connect(url)
            .await
            .map_err(|source| StateError::Open {
                path: shown,
                source,
            })?;
        match backend {
            Backend::Sqlite => sqlx::migrate!("./migrations").run(&pool).await,
            Backend::Postgres => sqlx::migrate!("./migrations-postgres").run(&pool).await,
        }
        .map_err(StateError::Migrate)?;
        Ok(Self {
            pool,
            backend,
            changed: Arc::default(),
        })
    }

    /// Completes at the next change of a push's state or datasets made by this process
    /// (another replica's changes do not wake it: wait with a timeout). Enable the future
    /// before reading the state it is to report changes of.
    pub fn changed(&self) -> tokio::sync::futures::Notified<'_> {
        self.changed.notified()
    }

    /// The database this state lives in.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Takes a lock on `key` shared by every replica, held until [`EngineLock::release`]
    /// (or until this process dies: PostgreSQL drops a dead session's locks). `None` on
    /// SQLite, where this process is the only writer. For engine writes that read before
    /// they write (a remote graph's append is computed against its current content).
    pub async fn lock(&self, key: &str) -> Result<Option<EngineLock>> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let mut connection = self
            .pool
            .acquire()
            .await
            .map_err(query_error("acquiring a connection for a lock"))?;
        sqlx::query("SELECT 1 AS locked FROM (SELECT pg_advisory_lock(hashtext($1))) AS l")
            .bind(key)
            .execute(&mut *connection)
            .await
            .map_err(query_error("taking an advisory lock"))?;
        Ok(Some(EngineLock {
            key: key.to_owned(),
            connection: Some(connection),
        }))
    }

    /// Stores a new push in `staging` with its datasets; returns its change number (0).
    pub async fn create_push(
        &self,
        id: &str,
        principal: &str,
        manifest: &CreatePush,
        protected: bool,
        datasets: &[NewDataset],
    ) -> Result<i64> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        sqlx::query(
            "INSERT INTO pushes (id, principal, namespace, branch, state, protected, created_at, updated_at)
             VALUES ($1, $2, $3, $4, 'staging', $5, $6, $7)",
        )
        .bind(id)
        .bind(principal)
        .bind(&manifest.namespace)
        .bind(&manifest.branch)
        .bind(i64::from(protected))
        .bind(&now)
        .bind(&now)
        .execute(&mut *tx)
        .await
        .map_err(query_error("inserting a push"))?;
        sqlx::query("INSERT INTO push_manifests (push_id, manifest) VALUES ($1, $2)")
            .bind(id)
            .bind(json(manifest))
            .execute(&mut *tx)
            .await
            .map_err(query_error("inserting a manifest"))?;
        insert_datasets(&mut tx, self.backend, id, datasets, 0).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(0)
    }

    /// Replaces the manifest and datasets of a push that is `staging` or `failed`; the
    /// push is `staging` again. Returns the push's change number after it, `None` if the
    /// push was in another state.
    pub async fn replace_manifest(
        &self,
        id: &str,
        manifest: &CreatePush,
        protected: bool,
        datasets: &[NewDataset],
    ) -> Result<Option<i64>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let changed = sqlx::query(
            "UPDATE pushes SET protected = $1, state = 'staging', updated_at = $2,
                    node_status = NULL, result = NULL, error = NULL
             WHERE id = $3 AND state IN ('staging', 'failed')",
        )
        .bind(i64::from(protected))
        .bind(now())
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(query_error("replacing a manifest"))?
        .rows_affected();
        if changed == 0 {
            return Ok(None);
        }
        sqlx::query("UPDATE push_manifests SET manifest = $1 WHERE push_id = $2")
            .bind(json(manifest))
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("replacing a manifest"))?;
        sqlx::query("DELETE FROM push_datasets WHERE push_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("deleting datasets"))?;
        let change = touch_in(&mut tx, id, &now()).await?;
        insert_datasets(&mut tx, self.backend, id, datasets, change).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(Some(change))
    }

    /// A push by ID.
    pub async fn push(&self, id: &str) -> Result<Option<PushRecord>> {
        let row = sqlx::query(
            "SELECT p.id, p.principal, p.namespace, p.branch, p.state, m.manifest, p.protected,
                    p.created_at, p.updated_at, p.commits, p.changes, p.node_status, p.result,
                    p.error
             FROM pushes p JOIN push_manifests m ON m.push_id = p.id WHERE p.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a push"))?;
        let Some(row) = row else { return Ok(None) };
        let summary = summary_of(&row)?;
        Ok(Some(PushRecord {
            id: summary.id,
            principal: summary.principal,
            namespace: summary.namespace,
            branch: summary.branch,
            state: summary.state,
            manifest: from_json("manifest", row.get::<String, _>("manifest").as_str())?,
            protected: row.get::<i64, _>("protected") != 0,
            created_at: summary.created_at,
            updated_at: summary.updated_at,
            commits: row.get("commits"),
            node_status: summary.node_status,
            result: summary.result,
            error: summary.error,
            expired: summary.expired,
        }))
    }

    /// What the progress of a push needs (no manifest: it is the largest part).
    pub async fn push_summary(&self, id: &str) -> Result<Option<PushSummary>> {
        let row = sqlx::query(
            "SELECT id, principal, namespace, branch, state, created_at, updated_at, changes,
                    node_status, result, error
             FROM pushes WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a push"))?;
        row.as_ref().map(summary_of).transpose()
    }

    /// The datasets of a push, in order.
    pub async fn datasets(&self, push_id: &str) -> Result<Vec<DatasetRecord>> {
        self.datasets_changed_after(push_id, -1).await
    }

    /// Name, state and status of every dataset of a push, in order (what a push's result
    /// needs, without the details).
    pub async fn dataset_states(
        &self,
        push_id: &str,
    ) -> Result<Vec<(String, DatasetState, Option<DatasetStatus>)>> {
        let rows: Vec<(String, String, Option<String>)> = self
            .dataset_rows("name, state, status", push_id, None)
            .await?;
        rows.into_iter()
            .map(|(name, state, status)| {
                Ok((
                    name,
                    from_text("dataset state", &state)?,
                    status
                        .map(|t| from_text("dataset status", &t))
                        .transpose()?,
                ))
            })
            .collect()
    }

    /// `columns` of a push's dataset rows (those changed after `since`, when given), in
    /// order, read as one JSON array of arrays: thousands of rows cost the driver one row
    /// and a JSON parse, instead of a row each.
    async fn dataset_rows<T: serde::de::DeserializeOwned>(
        &self,
        columns: &str,
        push_id: &str,
        since: Option<i64>,
    ) -> Result<Vec<T>> {
        let filter = match since {
            Some(_) => "push_id = $1 AND changed > $2",
            None => "push_id = $1",
        };
        let sql = match self.backend {
            Backend::Sqlite => format!(
                "SELECT json_group_array(json_array({columns}) ORDER BY position) AS rows
                 FROM push_datasets WHERE {filter}"
            ),
            Backend::Postgres => format!(
                "SELECT COALESCE(json_agg(json_build_array({columns}) ORDER BY position), '[]')::text AS rows
                 FROM push_datasets WHERE {filter}"
            ),
        };
        let mut query = sqlx::query_scalar::<_, String>(&sql).bind(push_id);
        if let Some(since) = since {
            query = query.bind(since);
        }
        let rows = query
            .fetch_one(&self.pool)
            .await
            .map_err(query_error("reading datasets"))?;
        from_json("dataset rows", &rows)
    }

    /// The datasets of a push changed after change number `since` (see
    /// [`PushSummary::changes`]), in order.
    pub async fn datasets_changed_after(
        &self,
        push_id: &str,
        since: i64,
    ) -> Result<Vec<DatasetRecord>> {
        type Row = (
            i64,
            String,
            String,
            String,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<Row> = self
            .dataset_rows(
                "position, name, kind, operation, state, status, detail, error, checkpoint",
                push_id,
                Some(since),
            )
            .await?;
        rows.into_iter()
            .map(
                |(position, name, kind, operation, state, status, detail, error, checkpoint)| {
                    Ok(DatasetRecord {
                        position,
                        name,
                        kind: from_text("kind", &kind)?,
                        operation: match operation.as_str() {
                            "delete" => Operation::Delete,
                            _ => Operation::Write,
                        },
                        state: from_text("dataset state", &state)?,
                        status: status
                            .map(|t| from_text("dataset status", &t))
                            .transpose()?,
                        detail: opt_json("dataset detail", detail)?,
                        error: opt_json("dataset error", error)?,
                        checkpoint: opt_json("checkpoint", checkpoint)?,
                    })
                },
            )
            .collect()
    }

    /// Starts (or restarts) the commit: `staging` or `failed` → `committing`, datasets
    /// that are not done back to `pending`. Returns the state after the call (a push
    /// already committing or succeeded is left as it is).
    pub async fn start_commit(&self, id: &str) -> Result<Option<PushState>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let changed = sqlx::query(
            "UPDATE pushes SET state = 'committing', commits = commits + 1, updated_at = $1,
                    lease_owner = NULL, lease_until = NULL, node_status = NULL, result = NULL,
                    error = NULL
             WHERE id = $2 AND state IN ('staging', 'failed')",
        )
        .bind(now())
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(query_error("starting a commit"))?
        .rows_affected();
        if changed > 0 {
            let change = touch_in(&mut tx, id, &now()).await?;
            sqlx::query(
                "UPDATE push_datasets SET state = 'pending', error = NULL, changed = $1
                 WHERE push_id = $2 AND state <> 'done'",
            )
            .bind(change)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("resetting datasets"))?;
        }
        let state: Option<String> = sqlx::query_scalar("SELECT state FROM pushes WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(query_error("reading a push state"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        // An expired push cannot be committed: as if it were gone.
        state
            .filter(|s| s != EXPIRED)
            .map(|s| from_text("push state", &s))
            .transpose()
    }

    /// Forgets every lease (at startup: the data directory is locked by this process, so
    /// no other runner can hold one).
    pub async fn release_all_leases(&self) -> Result<u64> {
        Ok(sqlx::query(
            "UPDATE pushes SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL",
        )
        .execute(&self.pool)
        .await
        .map_err(query_error("releasing leases"))?
        .rows_affected())
    }

    /// Claims the oldest committing push that no runner holds (never held, or its lease
    /// ran out: the runner that held it died or lost the database).
    ///
    /// Safe with several processes on one database: the lease condition is checked again
    /// by the `UPDATE` itself (PostgreSQL re-evaluates it on the row version it locks, so
    /// of two replicas that picked the same push only one gets it), and on PostgreSQL
    /// the candidate row is picked with `FOR UPDATE SKIP LOCKED`, so replicas that claim
    /// at the same time take different pushes instead of queueing on one.
    pub async fn claim(&self, owner: &str, lease: Duration) -> Result<Option<String>> {
        let pick = match self.backend {
            Backend::Sqlite => "LIMIT 1",
            Backend::Postgres => "LIMIT 1 FOR UPDATE SKIP LOCKED",
        };
        let sql = format!(
            "UPDATE pushes SET lease_owner = $1, lease_until = $2
             WHERE id = (SELECT id FROM pushes
                         WHERE state = 'committing' AND (lease_until IS NULL OR lease_until < $3)
                         ORDER BY updated_at, id {pick})
               AND state = 'committing' AND (lease_until IS NULL OR lease_until < $3)
             RETURNING id"
        );
        sqlx::query_scalar(&sql)
            .bind(owner)
            .bind(later(lease))
            .bind(now_precise())
            .fetch_optional(&self.pool)
            .await
            .map_err(query_error("claiming a push"))
    }

    /// Extends a lease. `false`: the lease is no longer ours (it ran out and another
    /// runner claimed the push).
    pub async fn renew(&self, id: &str, owner: &str, lease: Duration) -> Result<bool> {
        let changed =
            sqlx::query("UPDATE pushes SET lease_until = $1 WHERE id = $2 AND lease_owner = $3")
                .bind(later(lease))
                .bind(id)
                .bind(owner)
                .execute(&self.pool)
                .await
                .map_err(query_error("renewing a lease"))?
                .rows_affected();
        Ok(changed == 1)
    }

    /// A runner that holds the push's lease starts working on it: counts the start and
    /// returns how many earlier starts did not end (the process died under them). `None`:
    /// the lease is no longer `owner`'s.
    pub async fn count_commit_start(&self, id: &str, owner: &str) -> Result<Option<i64>> {
        let starts: Option<i64> = sqlx::query_scalar(
            "UPDATE pushes SET commit_starts = commit_starts + 1
             WHERE id = $1 AND lease_owner = $2 RETURNING commit_starts",
        )
        .bind(id)
        .bind(owner)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("counting a commit start"))?;
        Ok(starts.map(|starts| starts - 1))
    }

    /// Gives a lease back (the push stays committing: another claim resumes it). The
    /// runner stopped cleanly: its start is not counted as a crash.
    pub async fn release(&self, id: &str, owner: &str) -> Result<()> {
        sqlx::query(
            "UPDATE pushes SET lease_owner = NULL, lease_until = NULL,
                    commit_starts = CASE WHEN commit_starts > 0 THEN commit_starts - 1 ELSE 0 END
             WHERE id = $1 AND lease_owner = $2",
        )
        .bind(id)
        .bind(owner)
        .execute(&self.pool)
        .await
        .map_err(query_error("releasing a lease"))?;
        Ok(())
    }

    /// Gives back every lease `owner` holds (its jobs were stopped at shutdown: not
    /// crashes, see [`Self::release`]).
    pub async fn release_owned(&self, owner: &str) -> Result<u64> {
        Ok(sqlx::query(
            "UPDATE pushes SET lease_owner = NULL, lease_until = NULL,
                    commit_starts = CASE WHEN commit_starts > 0 THEN commit_starts - 1 ELSE 0 END
             WHERE lease_owner = $1",
        )
        .bind(owner)
        .execute(&self.pool)
        .await
        .map_err(query_error("releasing leases"))?
        .rows_affected())
    }

    /// A dataset write starts; the checkpoint is kept from the first attempt.
    pub async fn dataset_writing(
        &self,
        push_id: &str,
        name: &str,
        checkpoint: Option<&Value>,
    ) -> Result<()> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let change = touch_in(&mut tx, push_id, &now()).await?;
        sqlx::query(
            "UPDATE push_datasets SET state = 'writing', checkpoint = COALESCE(checkpoint, $1),
                    changed = $2
             WHERE push_id = $3 AND name = $4",
        )
        .bind(checkpoint.map(json))
        .bind(change)
        .bind(push_id)
        .bind(name)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking a dataset writing"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(())
    }

    /// A dataset write is done; its head moves in the same transaction.
    pub async fn dataset_done(
        &self,
        push: &PushRecord,
        name: &str,
        status: DatasetStatus,
        detail: &DatasetDetail,
        head: Option<HeadUpdate>,
    ) -> Result<()> {
        let outcome = WriteOutcome::Done {
            name: name.to_owned(),
            status,
            detail: detail.clone(),
            head,
        };
        self.datasets_finished(push, &[outcome]).await
    }

    /// Several dataset writes start, in one transaction (one fsync for the lot, where
    /// [`Self::dataset_writing`] costs one each); each checkpoint is kept from the first
    /// attempt.
    pub async fn datasets_writing(&self, push_id: &str, datasets: &[(&str, &Value)]) -> Result<()> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let change = touch_in(&mut tx, push_id, &now()).await?;
        mark_writing(&mut tx, self.backend, push_id, datasets, change).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(())
    }

    /// The outcomes of several dataset writes, heads included, in one transaction.
    pub async fn datasets_finished(
        &self,
        push: &PushRecord,
        outcomes: &[WriteOutcome],
    ) -> Result<()> {
        self.datasets_moved(push, outcomes, &[]).await
    }

    /// [`Self::datasets_finished`] of some datasets and [`Self::datasets_writing`] of
    /// others, in one transaction (a commit's batch done, the next one about to write).
    pub async fn datasets_moved(
        &self,
        push: &PushRecord,
        outcomes: &[WriteOutcome],
        writing: &[(&str, &Value)],
    ) -> Result<()> {
        if outcomes.is_empty() && writing.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        let change = touch_in(&mut tx, &push.id, &now).await?;
        record_outcomes(&mut tx, self.backend, push, outcomes, &now, change).await?;
        mark_writing(&mut tx, self.backend, &push.id, writing, change).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(())
    }

    /// A dataset write failed.
    pub async fn dataset_failed(&self, push_id: &str, name: &str, problem: &Problem) -> Result<()> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let change = touch_in(&mut tx, push_id, &now()).await?;
        sqlx::query(
            "UPDATE push_datasets SET state = 'failed', status = NULL, detail = NULL, error = $1,
                    changed = $2
             WHERE push_id = $3 AND name = $4",
        )
        .bind(json(problem))
        .bind(change)
        .bind(push_id)
        .bind(name)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking a dataset failed"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(())
    }

    /// Ends a commit: the final state, the summary, and (on success) the package node, in
    /// one transaction. The lease is released. Returns how the node changed.
    ///
    /// The node's status is decided inside the transaction that writes it, under a lock on
    /// the node's key, so two pushes finishing at once on different replicas (same
    /// namespace and branch) cannot both read the old node and both write: the second one
    /// sees the first one's node (compare, then swap). SQLite: the first statement takes
    /// the database's write lock; PostgreSQL: a transaction-scoped advisory lock.
    pub async fn finish_push(
        &self,
        id: &str,
        state: PushState,
        node: Option<&PackageNode>,
        result: &PushResult,
        error: Option<&Problem>,
    ) -> Result<Option<NodeStatus>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        sqlx::query(
            "UPDATE pushes SET state = $1, node_status = NULL, result = $2, error = $3, updated_at = $4,
                    lease_owner = NULL, lease_until = NULL
             WHERE id = $5",
        )
        .bind(text(&state))
        .bind(json(result))
        .bind(error.map(json))
        .bind(&now)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(query_error("finishing a push"))?;
        let Some(node) = node else {
            tx.commit().await.map_err(query_error("commit"))?;
            self.changed.notify_waiters();
            return Ok(None);
        };
        if self.backend == Backend::Postgres {
            sqlx::query(
                "SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS l",
            )
            .bind(format!("package_node/{}/{}", node.namespace, node.branch))
            .execute(&mut *tx)
            .await
            .map_err(query_error("locking a package node"))?;
        }
        let previous: Option<String> = sqlx::query_scalar(
            "SELECT node FROM package_nodes WHERE namespace = $1 AND branch = $2",
        )
        .bind(&node.namespace)
        .bind(&node.branch)
        .fetch_optional(&mut *tx)
        .await
        .map_err(query_error("reading a package node"))?;
        let previous: Option<PackageNode> = previous
            .map(|n| from_json("package node", &n))
            .transpose()?;
        let status = match previous {
            None => NodeStatus::Created,
            Some(previous)
                if previous.package == node.package && previous.resources == node.resources =>
            {
                NodeStatus::Unchanged
            }
            Some(_) => NodeStatus::Updated,
        };
        // An unchanged node keeps the push that wrote it.
        if status != NodeStatus::Unchanged {
            sqlx::query(
                "INSERT INTO package_nodes (namespace, branch, node, push_id, updated_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (namespace, branch) DO UPDATE SET
                    node = excluded.node, push_id = excluded.push_id, updated_at = excluded.updated_at",
            )
            .bind(&node.namespace)
            .bind(&node.branch)
            .bind(json(node))
            .bind(id)
            .bind(&now)
            .execute(&mut *tx)
            .await
            .map_err(query_error("writing a package node"))?;
        }
        sqlx::query("UPDATE pushes SET node_status = $1 WHERE id = $2")
            .bind(text(&status))
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("finishing a push"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.changed.notify_waiters();
        Ok(Some(status))
    }

    /// The contents the last successful write left on a dataset's branch.
    pub async fn dataset_head(
        &self,
        namespace: &str,
        name: &str,
        branch: &str,
    ) -> Result<Option<(AssetKind, Vec<String>)>> {
        let row = sqlx::query(
            "SELECT kind, files FROM dataset_heads WHERE namespace = $1 AND name = $2 AND branch = $3",
        )
        .bind(namespace)
        .bind(name)
        .bind(branch)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a dataset head"))?;
        row.map(|row| {
            Ok((
                from_text("kind", row.get::<String, _>("kind").as_str())?,
                from_json("head files", row.get::<String, _>("files").as_str())?,
            ))
        })
        .transpose()
    }

    /// The package node of a namespace on a branch.
    pub async fn package_node(&self, namespace: &str, branch: &str) -> Result<Option<PackageNode>> {
        let node: Option<String> = sqlx::query_scalar(
            "SELECT node FROM package_nodes WHERE namespace = $1 AND branch = $2",
        )
        .bind(namespace)
        .bind(branch)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a package node"))?;
        node.map(|n| from_json("package node", &n)).transpose()
    }

    /// Size of a verified content of the S3 staging store.
    pub async fn verified_content(&self, sha256: &str) -> Result<Option<u64>> {
        let size: Option<i64> =
            sqlx::query_scalar("SELECT size FROM staged_contents WHERE sha256 = $1")
                .bind(sha256)
                .fetch_optional(&self.pool)
                .await
                .map_err(query_error("reading a staged content"))?;
        Ok(size.map(|s| s as u64))
    }

    /// Records a verified content of the S3 store, used now. (Uploads in progress of it,
    /// other callers', go on: each is its caller's.)
    pub async fn mark_verified(&self, sha256: &str, size: u64) -> Result<()> {
        sqlx::query(
            "INSERT INTO staged_contents (sha256, size, verified_at) VALUES ($1, $2, $3)
             ON CONFLICT (sha256) DO UPDATE SET size = excluded.size, verified_at = excluded.verified_at",
        )
        .bind(sha256)
        .bind(size as i64)
        .bind(now())
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a staged content"))?;
        Ok(())
    }

    /// Forgets a content (it was found corrupt or missing).
    pub async fn forget_content(&self, sha256: &str) -> Result<()> {
        sqlx::query("DELETE FROM staged_contents WHERE sha256 = $1")
            .bind(sha256)
            .execute(&self.pool)
            .await
            .map_err(query_error("forgetting a staged content"))?;
        Ok(())
    }

    /// The multipart upload of a content that `owner` started, if one is in progress.
    pub async fn multipart(&self, sha256: &str, owner: &str) -> Result<Option<MultipartRecord>> {
        let row = sqlx::query(
            "SELECT sha256, owner, size, part_size, upload_id FROM multipart_uploads
             WHERE sha256 = $1 AND owner = $2",
        )
        .bind(sha256)
        .bind(owner)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a multipart upload"))?;
        Ok(row.map(multipart_record))
    }

    /// The multipart upload `upload_id` of a content, if it is in progress.
    pub async fn multipart_upload(
        &self,
        sha256: &str,
        upload_id: &str,
    ) -> Result<Option<MultipartRecord>> {
        let row = sqlx::query(
            "SELECT sha256, owner, size, part_size, upload_id FROM multipart_uploads
             WHERE sha256 = $1 AND upload_id = $2",
        )
        .bind(sha256)
        .bind(upload_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a multipart upload"))?;
        Ok(row.map(multipart_record))
    }

    /// Records a new multipart upload unless its owner has one of this content; returns
    /// the one that is recorded.
    pub async fn create_multipart(&self, record: &MultipartRecord) -> Result<MultipartRecord> {
        sqlx::query(
            "INSERT INTO multipart_uploads (upload_id, sha256, owner, size, part_size, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sha256, owner) DO NOTHING",
        )
        .bind(&record.upload_id)
        .bind(&record.sha256)
        .bind(&record.owner)
        .bind(record.size as i64)
        .bind(record.part_size as i64)
        .bind(now())
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a multipart upload"))?;
        Ok(self
            .multipart(&record.sha256, &record.owner)
            .await?
            .unwrap_or_else(|| record.clone()))
    }

    /// Ends a multipart upload without a content (failed verification, aborted), or once
    /// its content is verified.
    pub async fn delete_multipart(&self, upload_id: &str) -> Result<()> {
        sqlx::query("DELETE FROM multipart_parts WHERE upload_id = $1")
            .bind(upload_id)
            .execute(&self.pool)
            .await
            .map_err(query_error("deleting a multipart upload's parts"))?;
        sqlx::query("DELETE FROM multipart_uploads WHERE upload_id = $1")
            .bind(upload_id)
            .execute(&self.pool)
            .await
            .map_err(query_error("deleting a multipart upload"))?;
        Ok(())
    }

    /// Records a part received by the local store.
    pub async fn record_part(&self, upload_id: &str, number: u32, size: u64) -> Result<()> {
        sqlx::query(
            "INSERT INTO multipart_parts (upload_id, number, size) VALUES ($1, $2, $3)
             ON CONFLICT (upload_id, number) DO UPDATE SET size = excluded.size",
        )
        .bind(upload_id)
        .bind(number as i64)
        .bind(size as i64)
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a part"))?;
        Ok(())
    }

    /// Part numbers of an upload received by the local store.
    pub async fn received_parts(&self, upload_id: &str) -> Result<Vec<u32>> {
        let numbers: Vec<i64> = sqlx::query_scalar(
            "SELECT number FROM multipart_parts WHERE upload_id = $1 ORDER BY number",
        )
        .bind(upload_id)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("reading parts"))?;
        Ok(numbers.into_iter().map(|n| n as u32).collect())
    }
}

/// Possession of contents (issue 22): who may reuse a staged content without uploading it.
impl StateDb {
    /// Records that `holder` proved to have the content (its upload was verified).
    pub async fn record_holder(&self, sha256: &str, holder: &str) -> Result<()> {
        sqlx::query(
            "INSERT INTO content_holders (sha256, holder) VALUES ($1, $2)
             ON CONFLICT (sha256, holder) DO NOTHING",
        )
        .bind(sha256)
        .bind(holder)
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a content's holder"))?;
        Ok(())
    }

    /// Which of `sha256s` `holder` proved to have.
    pub async fn held_among(&self, holder: &str, sha256s: &[&str]) -> Result<BTreeSet<String>> {
        let mut held = BTreeSet::new();
        for batch in sha256s.chunks(POSSESSION_BATCH) {
            let rows = json_rows(self.backend, "$1", &[("sha256", false)]);
            let found: Vec<String> = sqlx::query_scalar(&format!(
                "{rows} SELECT h.sha256 FROM r JOIN content_holders h
                 ON h.sha256 = r.sha256 AND h.holder = $2"
            ))
            .bind(json(&sha_rows(batch)))
            .bind(holder)
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading contents' holders"))?;
            held.extend(found);
        }
        Ok(held)
    }

    /// Records the contents a push is committing.
    pub async fn record_push_contents(&self, push_id: &str, sha256s: &[&str]) -> Result<()> {
        for batch in sha256s.chunks(POSSESSION_BATCH) {
            let rows = json_rows(self.backend, "$1", &[("sha256", false)]);
            sqlx::query(&format!(
                "{rows} INSERT INTO push_contents (push_id, sha256) SELECT $2, r.sha256 FROM r
                 WHERE true ON CONFLICT (push_id, sha256) DO NOTHING"
            ))
            .bind(json(&sha_rows(batch)))
            .bind(push_id)
            .execute(&self.pool)
            .await
            .map_err(query_error("recording a push's contents"))?;
        }
        Ok(())
    }

    /// Where each of `sha256s` was committed by a succeeded push: (sha256, namespace,
    /// branch), each place once.
    pub async fn committed_places(
        &self,
        sha256s: &[&str],
    ) -> Result<Vec<(String, String, String)>> {
        let mut places = BTreeSet::new();
        for batch in sha256s.chunks(POSSESSION_BATCH) {
            let rows = json_rows(self.backend, "$1", &[("sha256", false)]);
            let found = sqlx::query(&format!(
                "{rows} SELECT DISTINCT c.sha256, p.namespace, p.branch FROM r
                 JOIN push_contents c ON c.sha256 = r.sha256
                 JOIN pushes p ON p.id = c.push_id AND p.state = 'succeeded'"
            ))
            .bind(json(&sha_rows(batch)))
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading where contents were committed"))?;
            places.extend(
                found
                    .into_iter()
                    .map(|row| (row.get("sha256"), row.get("namespace"), row.get("branch"))),
            );
        }
        Ok(places.into_iter().collect())
    }
}

/// What a push holds against its namespace's quota, bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaFigures {
    /// What the namespace holds, less what the push deletes.
    pub used: u64,
    /// What the push adds: its contents the namespace does not hold yet.
    pub asked: u64,
}

impl QuotaFigures {
    /// Whether the push goes over `quota` (a push that adds nothing never does).
    pub fn exceeds(&self, quota: Option<u64>) -> bool {
        quota.is_some_and(|quota| self.asked > 0 && self.used.saturating_add(self.asked) > quota)
    }
}

/// What a push writes to and deletes from a namespace, as the quota counts it.
#[derive(Debug, Clone, Default)]
pub struct QuotaChange<'a> {
    pub namespace: &'a str,
    pub branch: &'a str,
    /// `(dataset, sha256, size)` written.
    pub writes: Vec<(&'a str, &'a str, u64)>,
    /// Datasets deleted on the branch.
    pub deletes: Vec<&'a str>,
}

/// Quotas (`[quotas]`): a namespace holds the distinct contents (sha256, size) its
/// datasets were written with on every branch, recorded when a push's commit is accepted
/// (old versions keep their contents, so they count); a push that deletes a dataset on a
/// branch frees what only that dataset held there.
impl StateDb {
    /// The figures of a push against its namespace, recording nothing.
    pub async fn quota_figures(&self, change: &QuotaChange<'_>) -> Result<QuotaFigures> {
        let mut connection = self
            .pool
            .acquire()
            .await
            .map_err(query_error("connecting"))?;
        let held = held_by_namespace(&mut connection, self.backend, change).await?;
        Ok(figures(&held, change))
    }

    /// Records what a push writes and deletes, if the namespace stays within `quota`
    /// (`None`: no quota) or the push adds nothing; returns the figures and whether it
    /// was recorded. Serialised per namespace (PostgreSQL: a transaction-scoped advisory
    /// lock; SQLite: the first statement writes, which takes the database's write lock),
    /// so two pushes accepted at once cannot both pass on the same remaining bytes.
    /// Recording again what is recorded adds nothing.
    pub async fn reserve_quota(
        &self,
        change: &QuotaChange<'_>,
        quota: Option<u64>,
    ) -> Result<(QuotaFigures, bool)> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        if self.backend == Backend::Postgres {
            sqlx::query(
                "SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS l",
            )
            .bind(format!("quota/{}", change.namespace))
            .execute(&mut *tx)
            .await
            .map_err(query_error("locking a namespace's quota"))?;
        }
        let deleted: Vec<Value> = change
            .deletes
            .iter()
            .map(|name| serde_json::json!({ "name": name }))
            .collect();
        let rows = json_rows(self.backend, "$1", &[("name", false)]);
        sqlx::query(&format!(
            "{rows} DELETE FROM namespace_contents
             WHERE namespace = $2 AND branch = $3 AND dataset IN (SELECT r.name FROM r)"
        ))
        .bind(json(&deleted))
        .bind(change.namespace)
        .bind(change.branch)
        .execute(&mut *tx)
        .await
        .map_err(query_error("freeing deleted datasets' contents"))?;
        let held = held_by_namespace(&mut tx, self.backend, change).await?;
        let figures = figures(&held, change);
        if figures.exceeds(quota) {
            tx.rollback().await.map_err(query_error("rollback"))?;
            return Ok((figures, false));
        }
        for batch in change.writes.chunks(POSSESSION_BATCH) {
            let written: Vec<Value> = batch
                .iter()
                .map(|(dataset, sha256, size)| {
                    serde_json::json!({ "dataset": dataset, "sha256": sha256, "size": size })
                })
                .collect();
            let rows = json_rows(
                self.backend,
                "$1",
                &[("dataset", false), ("sha256", false), ("size", true)],
            );
            sqlx::query(&format!(
                "{rows} INSERT INTO namespace_contents (namespace, branch, dataset, sha256, size)
                 SELECT $2, $3, r.dataset, r.sha256, r.size FROM r
                 WHERE true ON CONFLICT (namespace, branch, dataset, sha256) DO NOTHING"
            ))
            .bind(json(&written))
            .bind(change.namespace)
            .bind(change.branch)
            .execute(&mut *tx)
            .await
            .map_err(query_error("recording a namespace's contents"))?;
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok((figures, true))
    }
}

/// The distinct contents (sha256 → size) a namespace holds, less the datasets `change`
/// deletes on its branch.
async fn held_by_namespace(
    connection: &mut sqlx::AnyConnection,
    backend: Backend,
    change: &QuotaChange<'_>,
) -> Result<std::collections::BTreeMap<String, u64>> {
    let deleted: Vec<Value> = change
        .deletes
        .iter()
        .map(|name| serde_json::json!({ "name": name }))
        .collect();
    let rows = json_rows(backend, "$1", &[("name", false)]);
    let found = sqlx::query(&format!(
        "{rows} SELECT DISTINCT c.sha256, c.size FROM namespace_contents c
         WHERE c.namespace = $2
           AND NOT (c.branch = $3 AND c.dataset IN (SELECT r.name FROM r))"
    ))
    .bind(json(&deleted))
    .bind(change.namespace)
    .bind(change.branch)
    .fetch_all(&mut *connection)
    .await
    .map_err(query_error("reading what a namespace holds"))?;
    Ok(found
        .into_iter()
        .map(|row| {
            let size: i64 = row.get("size");
            (row.get("sha256"), u64::try_from(size).unwrap_or(0))
        })
        .collect())
}

fn figures(
    held: &std::collections::BTreeMap<String, u64>,
    change: &QuotaChange<'_>,
) -> QuotaFigures {
    let used = held
        .values()
        .fold(0u64, |sum, size| sum.saturating_add(*size));
    let new: std::collections::BTreeMap<&str, u64> = change
        .writes
        .iter()
        .filter(|(_, sha256, _)| !held.contains_key(*sha256))
        .map(|(_, sha256, size)| (*sha256, *size))
        .collect();
    let asked = new
        .values()
        .fold(0u64, |sum, size| sum.saturating_add(*size));
    QuotaFigures { used, asked }
}

/// Contents looked up at once by the possession queries.
const POSSESSION_BATCH: usize = 1000;

fn sha_rows(sha256s: &[&str]) -> Vec<Value> {
    sha256s
        .iter()
        .map(|sha256| serde_json::json!({ "sha256": sha256 }))
        .collect()
}

fn multipart_record(row: sqlx::any::AnyRow) -> MultipartRecord {
    MultipartRecord {
        sha256: row.get("sha256"),
        owner: row.get("owner"),
        size: row.get::<i64, _>("size") as u64,
        part_size: row.get::<i64, _>("part_size") as u64,
        upload_id: row.get("upload_id"),
    }
}

/// Garbage collection (`gc.rs`).
impl StateDb {
    /// Takes the lock named `key` shared by every replica if no one holds it: `None` when
    /// another replica does. On SQLite (one process) it is always granted.
    pub async fn try_lock(&self, key: &str) -> Result<Option<EngineLock>> {
        if self.backend != Backend::Postgres {
            return Ok(Some(EngineLock {
                key: key.to_owned(),
                connection: None,
            }));
        }
        let mut connection = self
            .pool
            .acquire()
            .await
            .map_err(query_error("acquiring a connection for a lock"))?;
        let locked: bool =
            sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtext($1)) AS locked")
                .bind(key)
                .fetch_one(&mut *connection)
                .await
                .map_err(query_error("trying an advisory lock"))?;
        Ok(locked.then(|| EngineLock {
            key: key.to_owned(),
            connection: Some(connection),
        }))
    }

    /// Expires the pushes left in `staging` or `failed` since before `before` (RFC 3339);
    /// returns their IDs.
    pub async fn expire_pushes(&self, before: &str) -> Result<Vec<String>> {
        sqlx::query_scalar(
            "UPDATE pushes SET state = 'expired', updated_at = $1, lease_owner = NULL, lease_until = NULL
             WHERE state IN ('staging', 'failed') AND updated_at < $2
             RETURNING id",
        )
        .bind(now())
        .bind(before)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("expiring pushes"))
    }

    /// The contents (sha256) that the live pushes name: `staging`, `committing` or
    /// `failed` (a failed push may be committed again).
    pub async fn live_contents(&self) -> Result<BTreeSet<String>> {
        let manifests: Vec<String> = sqlx::query_scalar(
            "SELECT m.manifest FROM pushes p JOIN push_manifests m ON m.push_id = p.id
             WHERE p.state IN ('staging', 'committing', 'failed')",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("reading live manifests"))?;
        let mut contents = BTreeSet::new();
        for manifest in manifests {
            let manifest: CreatePush = from_json("manifest", &manifest)?;
            for dataset in manifest.datasets {
                contents.extend(dataset.files.into_iter().map(|f| f.sha256));
            }
        }
        Ok(contents)
    }

    /// Marks verified contents of the S3 store used now (a push reuses them), so that the
    /// garbage collection leaves them for another `staged_content_seconds`. One
    /// transaction (one fsync) for them all.
    pub async fn touch_contents(&self, sha256s: &[String]) -> Result<()> {
        if sha256s.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        for sha256 in sha256s {
            sqlx::query("UPDATE staged_contents SET verified_at = $1 WHERE sha256 = $2")
                .bind(&now)
                .bind(sha256)
                .execute(&mut *tx)
                .await
                .map_err(query_error("touching a staged content"))?;
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(())
    }

    /// When a verified content of the S3 store was last verified or reused.
    pub async fn content_used_at(&self, sha256: &str) -> Result<Option<String>> {
        sqlx::query_scalar("SELECT verified_at FROM staged_contents WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await
            .map_err(query_error("reading a staged content"))
    }

    /// Forgets a verified content unless it was used since `before`; false when it was.
    pub async fn forget_content_unused_since(&self, sha256: &str, before: &str) -> Result<bool> {
        let held: Option<String> = self.content_used_at(sha256).await?;
        if held.is_none() {
            return Ok(true);
        }
        let forgotten =
            sqlx::query("DELETE FROM staged_contents WHERE sha256 = $1 AND verified_at < $2")
                .bind(sha256)
                .bind(before)
                .execute(&self.pool)
                .await
                .map_err(query_error("forgetting a staged content"))?
                .rows_affected();
        Ok(forgotten == 1)
    }

    /// Multipart uploads started before `before`.
    pub async fn multiparts_before(&self, before: &str) -> Result<Vec<MultipartRecord>> {
        let rows = sqlx::query(
            "SELECT sha256, owner, size, part_size, upload_id FROM multipart_uploads
             WHERE created_at < $1",
        )
        .bind(before)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("reading multipart uploads"))?;
        Ok(rows.into_iter().map(multipart_record).collect())
    }

    /// Ends a multipart upload if it is still this one (the garbage collection aborts it).
    pub async fn delete_multipart_upload(&self, sha256: &str, upload_id: &str) -> Result<bool> {
        sqlx::query("DELETE FROM multipart_parts WHERE upload_id = $1")
            .bind(upload_id)
            .execute(&self.pool)
            .await
            .map_err(query_error("deleting a multipart upload's parts"))?;
        Ok(
            sqlx::query("DELETE FROM multipart_uploads WHERE sha256 = $1 AND upload_id = $2")
                .bind(sha256)
                .bind(upload_id)
                .execute(&self.pool)
                .await
                .map_err(query_error("deleting a multipart upload"))?
                .rows_affected()
                == 1,
        )
    }
}

/// RFC 3339 (the state database's format) of `age` ago.
pub fn ago(age: Duration) -> String {
    (chrono::Utc::now() - chrono::Duration::from_std(age).unwrap_or_default())
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

async fn insert_datasets(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    push_id: &str,
    datasets: &[NewDataset],
    change: i64,
) -> Result<()> {
    if datasets.is_empty() {
        return Ok(());
    }
    let rows: Vec<Value> = datasets
        .iter()
        .enumerate()
        .map(|(position, dataset)| {
            serde_json::json!({
                "position": position,
                "name": dataset.name,
                "kind": text(&dataset.kind),
                "operation": dataset.operation.as_str(),
            })
        })
        .collect();
    let table = json_rows(
        backend,
        "$2",
        &[
            ("position", true),
            ("name", false),
            ("kind", false),
            ("operation", false),
        ],
    );
    sqlx::query(&format!(
        "{table} INSERT INTO push_datasets (push_id, position, name, kind, operation, state, changed)
         SELECT $1, r.position, r.name, r.kind, r.operation, 'pending', $3 FROM r"
    ))
    .bind(push_id)
    .bind(json(&rows))
    .bind(change)
    .execute(&mut **tx)
    .await
    .map_err(query_error("inserting datasets"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use stone_api::{PackageMetadata, PushOptions, ResultCounts};

    fn manifest() -> CreatePush {
        CreatePush {
            push_id: None,
            namespace: "demo".into(),
            branch: "dev".into(),
            options: PushOptions::default(),
            package: PackageMetadata::default(),
            datasets: vec![],
        }
    }

    fn datasets() -> Vec<NewDataset> {
        vec![
            NewDataset {
                name: "a".into(),
                kind: AssetKind::Tabular,
                operation: Operation::Write,
            },
            NewDataset {
                name: "old".into(),
                kind: AssetKind::Blob,
                operation: Operation::Delete,
            },
        ]
    }

    #[tokio::test]
    async fn a_push_goes_through_its_states_and_leases() {
        let dir = tempfile::tempdir().unwrap();
        let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
        db.create_push("p1", "me", &manifest(), false, &datasets())
            .await
            .unwrap();
        let push = db.push("p1").await.unwrap().unwrap();
        assert_eq!(push.state, PushState::Staging);
        let rows = db.datasets("p1").await.unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].operation, Operation::Delete);
        assert_eq!(rows[0].state, DatasetState::Pending);

        assert_eq!(db.claim("r1", Duration::from_secs(30)).await.unwrap(), None);
        assert_eq!(
            db.start_commit("p1").await.unwrap(),
            Some(PushState::Committing)
        );
        // Committing again leaves it as it is.
        assert_eq!(
            db.start_commit("p1").await.unwrap(),
            Some(PushState::Committing)
        );
        assert_eq!(
            db.claim("r1", Duration::from_secs(30)).await.unwrap(),
            Some("p1".into())
        );
        // Held: no second claim.
        assert_eq!(db.claim("r2", Duration::from_secs(30)).await.unwrap(), None);
        // A runner stopped at shutdown gives back what it holds.
        assert_eq!(db.release_owned("r2").await.unwrap(), 0);
        assert_eq!(db.release_owned("r1").await.unwrap(), 1);
        assert_eq!(
            db.claim("r1", Duration::from_secs(30)).await.unwrap(),
            Some("p1".into())
        );
        // After a restart every lease is forgotten.
        db.release_all_leases().await.unwrap();
        assert_eq!(
            db.claim("r2", Duration::from_secs(30)).await.unwrap(),
            Some("p1".into())
        );

        let checkpoint = serde_json::json!({"snapshot_id": null});
        db.dataset_writing("p1", "a", Some(&checkpoint))
            .await
            .unwrap();
        db.dataset_writing("p1", "a", Some(&serde_json::json!({"x": 1})))
            .await
            .unwrap();
        assert_eq!(
            db.datasets("p1").await.unwrap()[0].checkpoint,
            Some(checkpoint),
            "the first checkpoint is kept"
        );
        db.dataset_done(
            &push,
            "a",
            DatasetStatus::Created,
            &DatasetDetail::default(),
            Some(HeadUpdate::Set {
                kind: AssetKind::Tabular,
                files: vec!["aa".into()],
                merge: true,
            }),
        )
        .await
        .unwrap();
        assert_eq!(
            db.dataset_head("demo", "a", "dev").await.unwrap(),
            Some((AssetKind::Tabular, vec!["aa".to_owned()]))
        );
        let problem = Problem::new(500, "engine.failed", "Engine failed");
        db.dataset_failed("p1", "old", &problem).await.unwrap();
        let result = PushResult {
            finished_at: now(),
            counts: ResultCounts::default(),
            iris: vec![],
        };
        db.finish_push("p1", PushState::Failed, None, &result, None)
            .await
            .unwrap();
        // A failed push can be committed again; done datasets stay done.
        assert_eq!(
            db.start_commit("p1").await.unwrap(),
            Some(PushState::Committing)
        );
        let rows = db.datasets("p1").await.unwrap();
        assert_eq!(rows[0].state, DatasetState::Done);
        assert_eq!(rows[1].state, DatasetState::Pending);
        assert_eq!(rows[1].error, None);
    }

    #[tokio::test]
    async fn pushes_finishing_at_once_write_the_package_node_once() {
        let dir = tempfile::tempdir().unwrap();
        let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
        let node = |push: &str, version: &str| PackageNode {
            namespace: "demo".into(),
            branch: "dev".into(),
            url: "stone:demo".into(),
            iri: "https://h/demo".into(),
            package: PackageMetadata {
                version: Some(version.into()),
                ..PackageMetadata::default()
            },
            resources: vec![],
            push_id: push.into(),
            updated_at: now(),
        };
        let result = PushResult {
            finished_at: now(),
            counts: ResultCounts::default(),
            iris: vec![],
        };
        let ids: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
        for id in &ids {
            db.create_push(id, "me", &manifest(), false, &[])
                .await
                .unwrap();
        }
        // Eight pushes of the same package finish at once: the status is decided where
        // the node is written, so exactly one of them created it.
        let finishing = ids.iter().map(|id| {
            let db = db.clone();
            let node = node(id, "1");
            let result = result.clone();
            let id = id.clone();
            tokio::spawn(async move {
                db.finish_push(&id, PushState::Succeeded, Some(&node), &result, None)
                    .await
                    .unwrap()
            })
        });
        let statuses: Vec<Option<NodeStatus>> = futures::future::join_all(finishing)
            .await
            .into_iter()
            .map(|s| s.unwrap())
            .collect();
        let created = statuses
            .iter()
            .filter(|s| **s == Some(NodeStatus::Created))
            .count();
        let unchanged = statuses
            .iter()
            .filter(|s| **s == Some(NodeStatus::Unchanged))
            .count();
        assert_eq!((created, unchanged), (1, 7), "{statuses:?}");
        db.create_push("q", "me", &manifest(), false, &[])
            .await
            .unwrap();
        assert_eq!(
            db.finish_push(
                "q",
                PushState::Succeeded,
                Some(&node("q", "2")),
                &result,
                None
            )
            .await
            .unwrap(),
            Some(NodeStatus::Updated)
        );
        let stored = db.package_node("demo", "dev").await.unwrap().unwrap();
        assert_eq!(stored.package.version.as_deref(), Some("2"));
        assert_eq!(
            db.push("q").await.unwrap().unwrap().node_status,
            Some(NodeStatus::Updated)
        );
    }

    #[tokio::test]
    async fn multipart_bookkeeping() {
        let dir = tempfile::tempdir().unwrap();
        let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
        let record = MultipartRecord {
            sha256: "s".into(),
            owner: "a".into(),
            size: 10,
            part_size: 4,
            upload_id: "u1".into(),
        };
        assert_eq!(db.create_multipart(&record).await.unwrap(), record);
        let other = MultipartRecord {
            upload_id: "u2".into(),
            ..record.clone()
        };
        assert_eq!(
            db.create_multipart(&other).await.unwrap(),
            record,
            "the first upload of an owner wins"
        );
        // Another owner's upload of the same content is its own.
        let theirs = MultipartRecord {
            owner: "b".into(),
            size: 99,
            upload_id: "u3".into(),
            ..record.clone()
        };
        assert_eq!(db.create_multipart(&theirs).await.unwrap(), theirs);
        db.record_part("u1", 2, 4).await.unwrap();
        db.record_part("u1", 1, 4).await.unwrap();
        assert_eq!(db.received_parts("u1").await.unwrap(), vec![1, 2]);
        assert_eq!(db.received_parts("u3").await.unwrap(), Vec::<u32>::new());
        assert_eq!(
            db.multipart_upload("s", "u3").await.unwrap(),
            Some(theirs.clone())
        );
        db.delete_multipart("u1").await.unwrap();
        assert_eq!(db.multipart("s", "a").await.unwrap(), None);
        assert_eq!(db.received_parts("u1").await.unwrap(), Vec::<u32>::new());
        assert_eq!(db.multipart("s", "b").await.unwrap(), Some(theirs.clone()));
        // A content verified (from another caller's upload) leaves b's upload alone.
        db.mark_verified("s", 10).await.unwrap();
        assert_eq!(db.multipart("s", "b").await.unwrap(), Some(theirs));
        assert_eq!(db.verified_content("s").await.unwrap(), Some(10));
        // Possession.
        db.record_holder("s", "a").await.unwrap();
        db.record_holder("s", "a").await.unwrap();
        assert_eq!(
            db.held_among("a", &["s", "t"]).await.unwrap(),
            BTreeSet::from(["s".to_owned()])
        );
        assert!(db.held_among("b", &["s"]).await.unwrap().is_empty());
    }
}
