//! The `events` table (issue 58): the transactional outbox. Every outcome the state
//! records goes through [`record_events`], inside the transaction that records the outcome:
//! a dataset's write (`record_outcomes` in `datasets.rs`) and a push's end
//! ([`StateDb::finish_push`]). An event is never written for an outcome whose transaction
//! did not commit, and no outcome commits without its events.

use stone_api::{Event, EventType, ResultCounts};

use super::*;

/// Records `events` inside the caller's transaction, giving each its cursor and id.
///
/// The cursors come from `event_counter`'s one row, updated here: the transaction holds
/// that row's lock until it ends, so a transaction that takes cursors after this one waits
/// for it to commit or roll back, and cursors become visible in order (a feed reader that
/// saw cursor N never meets a smaller one later). Taken last in each transaction, so the
/// lock is held for as little as possible and always after any other lock (no cycles).
pub(super) async fn record_events(
    tx: &mut sqlx::AnyConnection,
    backend: Backend,
    mut events: Vec<Event>,
) -> Result<()> {
    if events.is_empty() {
        return Ok(());
    }
    let count = i64::try_from(events.len()).unwrap_or(i64::MAX);
    let last: i64 =
        sqlx::query_scalar("UPDATE event_counter SET last = last + $1 WHERE id = 1 RETURNING last")
            .bind(count)
            .fetch_one(&mut *tx)
            .await
            .map_err(query_error("taking event cursors"))?;
    let first = last - count + 1;
    for (offset, event) in events.iter_mut().enumerate() {
        event.cursor = first + offset as i64;
        event.id = uuid::Uuid::new_v4().to_string();
    }
    let rows = json_array(events.iter().map(|event| {
        serde_json::json!({
            "seq": event.cursor,
            "id": event.id,
            "type": event.event_type.as_str(),
            "namespace": event.namespace,
            "branch": event.branch,
            "dataset": event.dataset,
            "push_id": event.push_id,
            "created_at": event.time,
            "body": json(event),
        })
    }));
    let table = json_rows(
        backend,
        "$1",
        &[
            ("seq", true),
            ("id", false),
            ("type", false),
            ("namespace", false),
            ("branch", false),
            ("dataset", false),
            ("push_id", false),
            ("created_at", false),
            ("body", false),
        ],
    );
    sqlx::query(&format!(
        "{table} INSERT INTO events (seq, id, type, namespace, branch, dataset, push_id, created_at, body)
         SELECT r.seq, r.id, r.type, r.namespace, r.branch, r.dataset, r.push_id, r.created_at, r.body
         FROM r WHERE true"
    ))
    .bind(rows)
    .execute(&mut *tx)
    .await
    .map_err(query_error("recording events"))?;
    Ok(())
}

/// An event of a push before [`record_events`] gives it a cursor and id.
fn blank(
    event_type: EventType,
    push: &PushFacts<'_>,
    public_host: &str,
    dataset: Option<&str>,
    now: &str,
) -> Event {
    let (url, iri) = match dataset {
        Some(name) => crate::iri::dataset_urls(public_host, push.namespace, name),
        None => crate::iri::namespace_urls(public_host, push.namespace),
    };
    Event {
        cursor: 0,
        id: String::new(),
        event_type,
        time: now.to_owned(),
        namespace: push.namespace.to_owned(),
        branch: push.branch.to_owned(),
        dataset: dataset.map(str::to_owned),
        url,
        iri,
        push_id: push.id.to_owned(),
        subject: push.subject.to_owned(),
        kind: None,
        engine: None,
        version: push.version.map(str::to_owned),
        detail: None,
        counts: None,
        error: None,
    }
}

/// What every event of a push says about the push.
pub(super) struct PushFacts<'a> {
    pub id: &'a str,
    pub namespace: &'a str,
    pub branch: &'a str,
    pub subject: &'a str,
    pub version: Option<&'a str>,
}

impl<'a> PushFacts<'a> {
    pub fn of(push: &'a PushRecord) -> Self {
        Self {
            id: &push.id,
            namespace: &push.namespace,
            branch: &push.branch,
            subject: &push.principal,
            version: push.manifest.package.version.as_deref(),
        }
    }
}

/// The events of one finished dataset write: its change (none when unchanged), then a
/// named version and expired snapshots when the write did them.
pub(super) fn dataset_events(
    push: &PushFacts<'_>,
    public_host: &str,
    name: &str,
    kind: Option<AssetKind>,
    status: DatasetStatus,
    detail: &DatasetDetail,
    now: &str,
) -> Vec<Event> {
    let change = match status {
        DatasetStatus::Created => Some(EventType::DatasetCreated),
        DatasetStatus::Appended => Some(EventType::DatasetAppended),
        DatasetStatus::Replaced => Some(EventType::DatasetReplaced),
        DatasetStatus::Deleted => Some(EventType::DatasetDeleted),
        DatasetStatus::Unchanged | DatasetStatus::Unknown => None,
    };
    let mut types: Vec<EventType> = change.into_iter().collect();
    if detail.tag.is_some() && status != DatasetStatus::Deleted {
        types.push(EventType::DatasetVersionNamed);
    }
    if detail.expired_snapshots.is_some_and(|n| n > 0) {
        types.push(EventType::DatasetSnapshotsExpired);
    }
    types
        .into_iter()
        .map(|event_type| Event {
            kind,
            engine: kind.map(|k| k.engine()),
            detail: Some(detail.clone()),
            ..blank(event_type, push, public_host, Some(name), now)
        })
        .collect()
}

/// The event of a push's end.
pub(super) fn push_event(
    push: &PushFacts<'_>,
    public_host: &str,
    state: PushState,
    counts: ResultCounts,
    error: Option<&Problem>,
    now: &str,
) -> Event {
    let event_type = if state == PushState::Succeeded {
        EventType::PushCommitted
    } else {
        EventType::PushFailed
    };
    Event {
        counts: Some(counts),
        error: error.cloned(),
        ..blank(event_type, push, public_host, None, now)
    }
}

/// How [`StateDb::events_after`] chooses events.
#[derive(Debug, Clone)]
pub struct EventQuery<'a> {
    /// Only this namespace's (`None`: every namespace's, for the delivery worker).
    pub namespace: Option<&'a str>,
    /// Only this branch's (`None`: every branch's).
    pub branch: Option<&'a str>,
    /// After this cursor.
    pub after: i64,
    /// At most this many.
    pub limit: usize,
}

impl StateDb {
    /// Events after a cursor, oldest first, and whether more follow.
    pub async fn events_after(&self, query: &EventQuery<'_>) -> Result<(Vec<Event>, bool)> {
        let limit = i64::try_from(query.limit.saturating_add(1)).unwrap_or(i64::MAX);
        // Only the filters asked: each its own statement, so each has its own plan (the
        // `(namespace, seq)` index for a namespace's feed).
        let mut sql = String::from("SELECT body FROM events WHERE seq > $1");
        let mut next = 3;
        for (column, value) in [("namespace", query.namespace), ("branch", query.branch)] {
            if value.is_some() {
                sql.push_str(&format!(" AND {column} = ${next}"));
                next += 1;
            }
        }
        sql.push_str(" ORDER BY seq LIMIT $2");
        let mut statement = sqlx::query_scalar(&sql).bind(query.after).bind(limit);
        for value in [query.namespace, query.branch].into_iter().flatten() {
            statement = statement.bind(value);
        }
        let rows: Vec<String> = statement
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading events"))?;
        let more = rows.len() > query.limit;
        let events = rows
            .iter()
            .take(query.limit)
            .map(|body| from_json("event", body))
            .collect::<Result<Vec<Event>>>()?;
        Ok((events, more))
    }

    /// The last cursor given (0: no event yet).
    pub async fn last_event_cursor(&self) -> Result<i64> {
        sqlx::query_scalar("SELECT last FROM event_counter WHERE id = 1")
            .fetch_one(&self.pool)
            .await
            .map_err(query_error("reading the event cursor"))
    }

    /// Completes when this process next records events (another replica's do not wake it:
    /// wait with a timeout). Enable the future before reading the events it is to report.
    pub fn events_added(&self) -> tokio::sync::futures::Notified<'_> {
        self.events_added.notified()
    }
}

/// The kind of each dataset a push's manifest names.
pub(super) fn manifest_kinds(push: &PushRecord) -> std::collections::HashMap<&str, AssetKind> {
    push.manifest
        .datasets
        .iter()
        .map(|d| (d.name.as_str(), d.kind))
        .collect()
}

/// Events pruned in one transaction at most ([`StateDb::prune_events`]).
pub const PRUNE_BATCH: usize = 1000;

impl StateDb {
    /// The events of a push, oldest first (an OpenLineage delivery's outputs).
    pub async fn push_events(&self, push_id: &str) -> Result<Vec<Event>> {
        let rows: Vec<String> =
            sqlx::query_scalar("SELECT body FROM events WHERE push_id = $1 ORDER BY seq")
                .bind(push_id)
                .fetch_all(&self.pool)
                .await
                .map_err(query_error("reading a push's events"))?;
        rows.iter().map(|body| from_json("event", body)).collect()
    }

    /// The cursor up to which events may have been pruned (0: none was).
    pub async fn pruned_cursor(&self) -> Result<i64> {
        sqlx::query_scalar("SELECT pruned FROM event_counter WHERE id = 1")
            .fetch_one(&self.pool)
            .await
            .map_err(query_error("reading the pruned cursor"))
    }

    /// Deletes the events recorded before `cutoff` (RFC 3339, as [`now`] writes it), oldest
    /// first, in transactions of at most `batch`, and their deliveries; how many. An event
    /// is kept while any subscription still needs it: not yet fanned out to one (its
    /// cursor), a pending delivery of it or of a later event (commit order), or a pending
    /// OpenLineage delivery of its push (whose outputs are the push's dataset events).
    /// Delivered and dead deliveries do not keep it. Run by any replica at any time.
    pub async fn prune_events(&self, cutoff: &str, batch: usize) -> Result<u64> {
        let bound = self.prune_bound().await?;
        let batch = batch.max(1);
        let mut pruned = 0u64;
        loop {
            let rows: Vec<(i64, String)> =
                sqlx::query_as("SELECT seq, created_at FROM events ORDER BY seq LIMIT $1")
                    .bind(i64::try_from(batch).unwrap_or(i64::MAX))
                    .fetch_all(&self.pool)
                    .await
                    .map_err(query_error("reading the oldest events"))?;
            let prefix: Vec<i64> = rows
                .iter()
                .take_while(|(seq, at)| at.as_str() < cutoff && bound.is_none_or(|b| *seq <= b))
                .map(|(seq, _)| *seq)
                .collect();
            let Some(&last) = prefix.last() else {
                return Ok(pruned);
            };
            let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
            sqlx::query("DELETE FROM deliveries WHERE seq <= $1")
                .bind(last)
                .execute(&mut *tx)
                .await
                .map_err(query_error("pruning deliveries"))?;
            let done = sqlx::query("DELETE FROM events WHERE seq <= $1")
                .bind(last)
                .execute(&mut *tx)
                .await
                .map_err(query_error("pruning events"))?;
            // Last, as `record_events` takes this row's lock last.
            sqlx::query("UPDATE event_counter SET pruned = $1 WHERE id = 1 AND pruned < $1")
                .bind(last)
                .execute(&mut *tx)
                .await
                .map_err(query_error("recording the pruned cursor"))?;
            tx.commit().await.map_err(query_error("commit"))?;
            pruned += done.rows_affected();
            if prefix.len() < rows.len() || rows.len() < batch {
                return Ok(pruned);
            }
        }
    }

    /// The last cursor no subscription needs (`None`: no subscription needs any).
    async fn prune_bound(&self) -> Result<Option<i64>> {
        let bounds: Vec<Option<i64>> = vec![
            sqlx::query_scalar("SELECT min(cursor) FROM subscriptions")
                .fetch_one(&self.pool)
                .await
                .map_err(query_error("reading subscriptions' cursors"))?,
            sqlx::query_scalar("SELECT min(seq) - 1 FROM deliveries WHERE state = 'pending'")
                .fetch_one(&self.pool)
                .await
                .map_err(query_error("reading pending deliveries"))?,
            sqlx::query_scalar(
                "SELECT min(p.seq) - 1 FROM deliveries d
                 JOIN subscriptions s ON s.id = d.subscription_id
                 JOIN events e ON e.seq = d.seq
                 JOIN events p ON p.push_id = e.push_id
                 WHERE d.state = 'pending' AND s.format = 'openlineage'",
            )
            .fetch_one(&self.pool)
            .await
            .map_err(query_error("reading pending OpenLineage deliveries"))?,
        ];
        Ok(bounds.into_iter().flatten().min())
    }
}
