//! The `push_datasets` table: each dataset of a push, its state, outcome and checkpoint,
//! and the dataset heads its writes move.

use super::*;

/// The events of finished dataset writes, recorded in the caller's transaction (see
/// `events.rs`). Deleted datasets are not in the manifest: their kinds are read from their
/// rows.
async fn outcome_events(
    tx: &mut sqlx::AnyConnection,
    db: &StateDb,
    push: &PushRecord,
    outcomes: &[WriteOutcome],
    now: &str,
) -> Result<()> {
    let mut kinds = events::manifest_kinds(push);
    let unlisted: Vec<&str> = outcomes
        .iter()
        .filter_map(|outcome| match outcome {
            WriteOutcome::Done { name, .. } if !kinds.contains_key(name.as_str()) => {
                Some(name.as_str())
            }
            _ => None,
        })
        .collect();
    let mut found: Vec<(String, String)> = Vec::new();
    if !unlisted.is_empty() {
        let rows = json_rows(db.backend, "$2", &[("name", false)]);
        found = sqlx::query_as(&format!(
            "{rows} SELECT name, kind FROM push_datasets
             WHERE push_id = $1 AND name IN (SELECT name FROM r)"
        ))
        .bind(&push.id)
        .bind(json_array(
            unlisted
                .iter()
                .map(|name| serde_json::json!({"name": name})),
        ))
        .fetch_all(&mut *tx)
        .await
        .map_err(query_error("reading the kinds of datasets"))?;
    }
    for (name, kind) in &found {
        kinds.insert(name.as_str(), from_text("kind", kind)?);
    }
    let facts = events::PushFacts::of(push);
    let events = outcomes
        .iter()
        .flat_map(|outcome| match outcome {
            WriteOutcome::Done {
                name,
                status,
                detail,
                ..
            } => events::dataset_events(
                &facts,
                &db.public_host,
                name,
                kinds.get(name.as_str()).copied(),
                *status,
                detail,
                now,
            ),
            WriteOutcome::Failed { .. } => Vec::new(),
        })
        .collect();
    events::record_events(tx, db.backend, events).await
}

/// Records how dataset writes ended (states, outcomes, heads) inside the caller's
/// transaction, in a few set-based statements whatever the number of datasets.
///
/// Fenced: a dataset `done` takes no other outcome (a `failed` one does: a later run of
/// the push writes it again, and records its deletes and its failures without a `writing`
/// mark first). Two runs of a push (one whose lease ran out mid-write, and the one that
/// took over) may both come to record a dataset; the second is refused with
/// [`StateError::TakenOver`] (the caller's transaction is then undone, its events with
/// it): a dataset done has one outcome and one event.
async fn record_outcomes(
    tx: &mut sqlx::AnyConnection,
    db: &StateDb,
    push: &PushRecord,
    outcomes: &[WriteOutcome],
    now: &str,
    change: i64,
) -> Result<()> {
    let backend = db.backend;
    let mut done = Vec::new();
    let mut failed = Vec::new();
    let mut set: Vec<(&str, AssetKind, &[String], bool)> = Vec::new();
    let mut deleted = Vec::new();
    let mut paged: Vec<(&str, AssetKind, bool)> = Vec::new();
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
                    Some(HeadUpdate::Paged { kind, merge }) => {
                        paged.push((name.as_str(), *kind, *merge))
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
    let taken_over = || StateError::TakenOver {
        push: push.id.clone(),
    };
    if !done.is_empty() {
        let rows = json_rows(
            backend,
            "$1",
            &[("name", false), ("status", false), ("detail", false)],
        );
        let recorded = sqlx::query(&format!(
            "{rows} UPDATE push_datasets SET state = 'done', status = r.status, detail = r.detail,
                    error = NULL, changed = $3
             FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name
                  AND push_datasets.state <> 'done'"
        ))
        .bind(json(&done))
        .bind(&push.id)
        .bind(change)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking datasets done"))?
        .rows_affected();
        if recorded != done.len() as u64 {
            return Err(taken_over());
        }
    }
    if !failed.is_empty() {
        let rows = json_rows(backend, "$1", &[("name", false), ("error", false)]);
        let recorded = sqlx::query(&format!(
            "{rows} UPDATE push_datasets SET state = 'failed', status = NULL, detail = NULL,
                    error = r.error, changed = $3
             FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name
                  AND push_datasets.state <> 'done'"
        ))
        .bind(json(&failed))
        .bind(&push.id)
        .bind(change)
        .execute(&mut *tx)
        .await
        .map_err(query_error("marking datasets failed"))?
        .rows_affected();
        if recorded != failed.len() as u64 {
            return Err(taken_over());
        }
    }
    if set.is_empty() && deleted.is_empty() && paged.is_empty() {
        return Ok(());
    }
    // One head writer at a time: SQLite's write lock is already ours (the UPDATEs above);
    // PostgreSQL takes transaction-scoped advisory locks on the heads' keys, in one order
    // so that two batches cannot deadlock, released at commit.
    let names =
        |names: Vec<&str>| json_array(names.iter().map(|name| serde_json::json!({"name": name})));
    if backend == Backend::Postgres {
        let mut keys: Vec<String> = set
            .iter()
            .map(|(name, ..)| *name)
            .chain(deleted.iter().copied())
            .map(|name| format!("dataset_head/{}/{name}/{}", push.namespace, push.branch))
            .collect();
        keys.extend(
            paged.iter().map(|(name, ..)| {
                format!("dataset_head/{}/{name}/{}", push.namespace, push.branch)
            }),
        );
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
    for (name, kind, merge) in paged {
        move_paged_head(&mut *tx, backend, push, name, kind, merge, now).await?;
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
    let heads = json_array(set.iter().map(|(name, kind, files, merge)| {
        let mut files: BTreeSet<&String> = files.iter().collect();
        if *merge && let Some(held) = held.get(*name) {
            files.extend(held);
        }
        serde_json::json!({"name": name, "kind": text(kind), "files": json(&files)})
    }));
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
    .bind(heads)
    .execute(&mut *tx)
    .await
    .map_err(query_error("moving dataset heads"))?;
    Ok(())
}

/// [`HeadUpdate::Paged`]: the dataset's head holds the distinct contents the batches of
/// the push recorded for it (with `merge`, and those it held), sorted: the JSON array is
/// built by the database, from `push_files`, inside the caller's transaction.
async fn move_paged_head(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    push: &PushRecord,
    name: &str,
    kind: AssetKind,
    merge: bool,
    now: &str,
) -> Result<()> {
    let (held, files) = match backend {
        Backend::Sqlite => (
            "SELECT j.value FROM dataset_heads h, json_each(h.files) AS j
             WHERE h.namespace = $1 AND h.name = $2 AND h.branch = $3",
            "SELECT json_group_array(s) FROM (SELECT DISTINCT sha256 AS s FROM push_files
                 WHERE push_id = $5 AND dataset = $2 {held} ORDER BY s)",
        ),
        Backend::Postgres => (
            "SELECT jsonb_array_elements_text(h.files::jsonb) FROM dataset_heads h
             WHERE h.namespace = $1 AND h.name = $2 AND h.branch = $3",
            "SELECT COALESCE(json_agg(s ORDER BY s), '[]'::json)::text
             FROM (SELECT DISTINCT sha256 COLLATE \"C\" AS s FROM push_files
                 WHERE push_id = $5 AND dataset = $2 {held}) AS u",
        ),
    };
    let held = if merge {
        format!("UNION {held}")
    } else {
        String::new()
    };
    let files = files.replace("{held}", &held);
    sqlx::query(&format!(
        "INSERT INTO dataset_heads (namespace, name, branch, kind, files, push_id, updated_at)
         SELECT $1, $2, $3, $4, ({files}), $5, $6 WHERE true
         ON CONFLICT (namespace, name, branch) DO UPDATE SET
            kind = excluded.kind, files = excluded.files,
            push_id = excluded.push_id, updated_at = excluded.updated_at"
    ))
    .bind(&push.namespace)
    .bind(name)
    .bind(&push.branch)
    .bind(text(&kind))
    .bind(&push.id)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(query_error("moving a dataset head"))?;
    Ok(())
}

/// Marks datasets `writing` with their checkpoints (a recorded checkpoint is kept) inside
/// the caller's transaction.
async fn mark_writing(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    push_id: &str,
    datasets: &[WritingMark<'_>],
    change: i64,
) -> Result<()> {
    if datasets.is_empty() {
        return Ok(());
    }
    let rows = json_array(datasets.iter().map(|(name, checkpoint, seen)| {
        serde_json::json!({"name": name, "checkpoint": json(checkpoint), "seen": text(seen)})
    }));
    let table = json_rows(
        backend,
        "$1",
        &[("name", false), ("checkpoint", false), ("seen", false)],
    );
    // Only rows still in the state this run read: a row another run of the push marked
    // (or finished) since is that run's (issue 54: a lease that ran out while the state
    // database was away let a second run start beside the first, which then judged the
    // first one's writes `unchanged`).
    let marked = sqlx::query(&format!(
        "{table} UPDATE push_datasets SET state = 'writing',
                checkpoint = COALESCE(push_datasets.checkpoint, r.checkpoint), changed = $3
         FROM r WHERE push_datasets.push_id = $2 AND push_datasets.name = r.name
                  AND push_datasets.state = r.seen"
    ))
    .bind(rows)
    .bind(push_id)
    .bind(change)
    .execute(&mut *tx)
    .await
    .map_err(query_error("marking datasets writing"))?
    .rows_affected();
    if marked != datasets.len() as u64 {
        return Err(StateError::TakenOver {
            push: push_id.to_owned(),
        });
    }
    Ok(())
}

/// A dataset a commit starts writing: its name, its checkpoint, and the state the commit
/// read it in (the mark holds only if it is still in that state).
pub type WritingMark<'a> = (&'a str, &'a Value, DatasetState);

/// A `push_datasets` row as [`StateDb::dataset_rows`] reads it: position, name, kind,
/// operation, state, status, detail, error, checkpoint.
type DatasetRow = (
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

fn dataset_record(
    (position, name, kind, operation, state, status, detail, error, checkpoint): DatasetRow,
) -> Result<DatasetRecord> {
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
}

impl StateDb {
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
        let rows: Vec<DatasetRow> = self
            .dataset_rows(
                "position, name, kind, operation, state, status, detail, error, checkpoint",
                push_id,
                Some(since),
            )
            .await?;
        rows.into_iter().map(dataset_record).collect()
    }

    /// A page of the datasets of a push changed after `(since, after)`: those changed after
    /// change number `since`, and those changed at `since` whose position is after
    /// `after` (a page before ended there), at most `limit` of them, in (change, position)
    /// order, each with its change number; and whether more follow. The answer to a poll
    /// of a push of 100,000 datasets stays a page, whatever moved.
    pub async fn datasets_page(
        &self,
        push_id: &str,
        since: i64,
        after: Option<i64>,
        limit: usize,
    ) -> Result<(Vec<(i64, DatasetRecord)>, bool)> {
        let columns =
            "changed, position, name, kind, operation, state, status, detail, error, checkpoint";
        let page = "SELECT * FROM push_datasets
                    WHERE push_id = $1 AND (changed > $2 OR (changed = $2 AND position > $3))
                    ORDER BY changed, position LIMIT $4";
        let sql = match self.backend {
            Backend::Sqlite => format!(
                "SELECT json_group_array(json_array({columns}) ORDER BY changed, position) AS rows
                 FROM ({page}) AS d"
            ),
            Backend::Postgres => format!(
                "SELECT COALESCE(json_agg(json_build_array({columns}) ORDER BY changed, position), '[]')::text AS rows
                 FROM ({page}) AS d"
            ),
        };
        let rows: String = sqlx::query_scalar(&sql)
            .bind(push_id)
            .bind(since)
            .bind(after.unwrap_or(i64::MAX))
            .bind(i64::try_from(limit.saturating_add(1)).unwrap_or(i64::MAX))
            .fetch_one(&self.pool)
            .await
            .map_err(query_error("reading datasets"))?;
        type PageRow = (
            i64,
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
        let rows: Vec<PageRow> = from_json("dataset rows", &rows)?;
        let more = rows.len() > limit;
        let page = rows
            .into_iter()
            .take(limit)
            .map(
                |(
                    changed,
                    position,
                    name,
                    kind,
                    operation,
                    state,
                    status,
                    detail,
                    error,
                    checkpoint,
                )| {
                    let record = dataset_record((
                        position, name, kind, operation, state, status, detail, error, checkpoint,
                    ))?;
                    Ok((changed, record))
                },
            )
            .collect::<Result<Vec<_>>>()?;
        Ok((page, more))
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

    /// Dataset writes start, in one transaction (one fsync for the lot); each checkpoint
    /// is kept from the first attempt. [`StateError::TakenOver`] (nothing marked): a
    /// dataset is no longer in the state the caller read it in.
    pub async fn datasets_writing(
        &self,
        push_id: &str,
        datasets: &[WritingMark<'_>],
    ) -> Result<()> {
        self.change_push(push_id, async |tx, change, _| {
            mark_writing(tx, self.backend, push_id, datasets, change).await
        })
        .await
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
        writing: &[WritingMark<'_>],
    ) -> Result<()> {
        if outcomes.is_empty() && writing.is_empty() {
            return Ok(());
        }
        self.change_push(&push.id, async |tx, change, now| {
            record_outcomes(tx, self, push, outcomes, now, change).await?;
            mark_writing(tx, self.backend, &push.id, writing, change).await?;
            // Last: the event cursor's lock is then held the shortest time.
            outcome_events(tx, self, push, outcomes, now).await
        })
        .await
    }

    /// A dataset write failed.
    pub async fn dataset_failed(&self, push_id: &str, name: &str, problem: &Problem) -> Result<()> {
        self.change_push(push_id, async |tx, change, _| {
            sqlx::query(
                "UPDATE push_datasets SET state = 'failed', status = NULL, detail = NULL,
                        error = $1, changed = $2
                 WHERE push_id = $3 AND name = $4",
            )
            .bind(json(problem))
            .bind(change)
            .bind(push_id)
            .bind(name)
            .execute(&mut *tx)
            .await
            .map_err(query_error("marking a dataset failed"))?;
            Ok(())
        })
        .await
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
}
