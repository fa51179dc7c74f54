//! The `subscriptions` and `deliveries` tables (issue 58): who receives which events, and
//! each event's delivery to each of them (see `crate::events` for the worker).

use std::time::Duration;

use stone_api::{Delivery, DeliveryCounts, Event, EventType, TargetFormat};

use super::*;

/// What a subscription takes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Filters {
    #[serde(default)]
    pub types: Vec<EventType>,
    #[serde(default)]
    pub branches: Vec<String>,
    #[serde(default)]
    pub datasets: Vec<String>,
}

impl Filters {
    /// Whether the event passes every filter.
    pub fn matches(&self, event: &Event) -> bool {
        let glob = stone_package::branch::glob_match;
        (self.types.is_empty() || self.types.contains(&event.event_type))
            && (self.branches.is_empty() || self.branches.iter().any(|p| glob(p, &event.branch)))
            && (self.datasets.is_empty()
                || match &event.dataset {
                    Some(name) => self.datasets.iter().any(|p| glob(p, name)),
                    None => true,
                })
    }
}

/// A subscription as stored, its secret included (never sent back by the API).
#[derive(Debug, Clone)]
pub struct SubscriptionRecord {
    pub id: String,
    pub namespace: String,
    pub url: String,
    pub secret: String,
    pub format: TargetFormat,
    pub filters: Filters,
    pub origin: String,
    pub created_by: Option<String>,
    pub created_at: String,
    /// Events up to this cursor are fanned out to its deliveries.
    pub cursor: i64,
}

impl SubscriptionRecord {
    /// Whether it takes the event: its filters pass it, and an OpenLineage target takes
    /// only the ends of pushes (`push.*`: one `RunEvent` per push outcome).
    pub fn takes(&self, event: &Event) -> bool {
        self.filters.matches(event)
            && (self.format != TargetFormat::Openlineage || !event.event_type.is_dataset())
    }
}

/// A delivery claimed by [`StateDb::claim_deliveries`].
#[derive(Debug, Clone)]
pub struct Claimed {
    pub subscription: String,
    /// The event's cursor.
    pub seq: i64,
    /// When it was first due (its retry window starts there).
    pub first_at: String,
    /// Attempts so far.
    pub attempts: u32,
}

/// How an attempt of a claimed delivery ended ([`StateDb::deliveries_attempted`]).
#[derive(Debug, Clone)]
pub struct Attempt {
    pub subscription: String,
    pub seq: i64,
    /// Whether it was sent (else given back unsent, due at `next_at`).
    pub sent: bool,
    /// Why it failed; `None`: delivered.
    pub error: Option<String>,
    /// When to try again; `None` after a failure: dead.
    pub next_at: Option<String>,
}

/// The time `after` from now, RFC 3339 UTC, as the delivery columns compare it (text).
pub fn time_after(after: Duration) -> String {
    let at = chrono::Utc::now() + chrono::Duration::from_std(after).unwrap_or_default();
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Now, as the delivery columns compare it ([`time_after`]).
fn now_ms() -> String {
    time_after(Duration::ZERO)
}

const SUBSCRIPTION_COLUMNS: &str =
    "id, namespace, url, secret, format, filters, origin, created_by, created_at, cursor";

fn subscription_of(row: &sqlx::any::AnyRow) -> Result<SubscriptionRecord> {
    Ok(SubscriptionRecord {
        id: row.get("id"),
        namespace: row.get("namespace"),
        url: row.get("url"),
        secret: row.get("secret"),
        format: from_text("subscription format", &row.get::<String, _>("format"))?,
        filters: from_json("subscription filters", &row.get::<String, _>("filters"))?,
        origin: row.get("origin"),
        created_by: row.get("created_by"),
        created_at: row.get("created_at"),
        cursor: row.get("cursor"),
    })
}

/// The ordering key of an event: its deliveries to one subscription go one after the
/// other, in cursor order, per dataset (push events: per namespace and branch).
fn ordering(event: &Event) -> String {
    format!(
        "{}/{}/{}",
        event.namespace,
        event.branch,
        event.dataset.as_deref().unwrap_or("")
    )
}

impl StateDb {
    /// Stores a subscription; it receives the events recorded after this moment. A
    /// subscription of the configuration (`origin = config`) with the same ID is updated
    /// instead (its cursor kept).
    pub async fn put_subscription(&self, record: &SubscriptionRecord) -> Result<()> {
        sqlx::query(
            "INSERT INTO subscriptions (id, namespace, url, secret, format, filters, origin, created_by,
                                        created_at, cursor)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT last FROM event_counter WHERE id = 1))
             ON CONFLICT (id) DO UPDATE SET namespace = excluded.namespace, url = excluded.url,
                 secret = excluded.secret, format = excluded.format, filters = excluded.filters",
        )
        .bind(&record.id)
        .bind(&record.namespace)
        .bind(&record.url)
        .bind(&record.secret)
        .bind(text(&record.format))
        .bind(json(&record.filters))
        .bind(&record.origin)
        .bind(&record.created_by)
        .bind(&record.created_at)
        .execute(&self.pool)
        .await
        .map_err(query_error("storing a subscription"))?;
        Ok(())
    }

    /// Deletes the configuration's subscriptions whose IDs are not in `kept`.
    pub async fn drop_config_subscriptions_except(&self, kept: &[String]) -> Result<u64> {
        let rows = json_rows(self.backend, "$1", &[("id", false)]);
        let done = sqlx::query(&format!(
            "{rows} DELETE FROM subscriptions WHERE origin = 'config'
                 AND id NOT IN (SELECT id FROM r)"
        ))
        .bind(json_array(
            kept.iter().map(|id| serde_json::json!({"id": id})),
        ))
        .execute(&self.pool)
        .await
        .map_err(query_error("dropping subscriptions"))?;
        Ok(done.rows_affected())
    }

    /// The subscriptions of a namespace (`None`: of every namespace), by ID.
    pub async fn subscriptions(&self, namespace: Option<&str>) -> Result<Vec<SubscriptionRecord>> {
        let rows = match namespace {
            Some(namespace) => sqlx::query(&format!(
                "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE namespace = $1 ORDER BY id"
            ))
            .bind(namespace)
            .fetch_all(&self.pool)
            .await,
            None => {
                sqlx::query(&format!(
                    "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions ORDER BY id"
                ))
                .fetch_all(&self.pool)
                .await
            }
        }
        .map_err(query_error("reading subscriptions"))?;
        rows.iter().map(subscription_of).collect()
    }

    /// A subscription of a namespace.
    pub async fn subscription(
        &self,
        namespace: &str,
        id: &str,
    ) -> Result<Option<SubscriptionRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE namespace = $1 AND id = $2"
        ))
        .bind(namespace)
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a subscription"))?;
        row.as_ref().map(subscription_of).transpose()
    }

    /// Deletes a subscription and its deliveries; whether it was there.
    pub async fn delete_subscription(&self, namespace: &str, id: &str) -> Result<bool> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        sqlx::query("DELETE FROM deliveries WHERE subscription_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("deleting deliveries"))?;
        let done = sqlx::query("DELETE FROM subscriptions WHERE namespace = $1 AND id = $2")
            .bind(namespace)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("deleting a subscription"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(done.rows_affected() > 0)
    }

    /// Deliveries of a subscription by state.
    pub async fn delivery_counts(&self, id: &str) -> Result<DeliveryCounts> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT state, count(*) AS n FROM deliveries WHERE subscription_id = $1 GROUP BY state",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("counting deliveries"))?;
        let mut counts = DeliveryCounts::default();
        for (state, n) in rows {
            let n = n.max(0) as u64;
            match state.as_str() {
                "pending" => counts.pending = n,
                "delivered" => counts.delivered = n,
                "dead" => counts.dead = n,
                _ => {}
            }
        }
        Ok(counts)
    }

    /// Fans events out to a subscription: a pending delivery for each of `events` its
    /// filters take, and its cursor moved to `last` (the last event looked at), in one
    /// transaction. Run by any replica at any time: a delivery made twice is one row, and
    /// the cursor only moves forward.
    pub async fn fan_out(
        &self,
        subscription: &SubscriptionRecord,
        events: &[Event],
        last: i64,
    ) -> Result<usize> {
        let taken: Vec<&Event> = events
            .iter()
            .filter(|event| subscription.takes(event))
            .collect();
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        if !taken.is_empty() {
            let now = now_ms();
            let rows = json_array(taken.iter().map(
                |event| serde_json::json!({"seq": event.cursor, "ordering": ordering(event)}),
            ));
            let table = json_rows(self.backend, "$2", &[("seq", true), ("ordering", false)]);
            sqlx::query(&format!(
                "{table} INSERT INTO deliveries (subscription_id, seq, ordering, state, attempts, first_at, next_at)
                 SELECT $1, r.seq, r.ordering, 'pending', 0, $3, $3 FROM r WHERE true
                 ON CONFLICT (subscription_id, seq) DO NOTHING"
            ))
            .bind(&subscription.id)
            .bind(rows)
            .bind(&now)
            .execute(&mut *tx)
            .await
            .map_err(query_error("fanning events out"))?;
        }
        sqlx::query("UPDATE subscriptions SET cursor = $1 WHERE id = $2 AND cursor < $1")
            .bind(last)
            .bind(&subscription.id)
            .execute(&mut *tx)
            .await
            .map_err(query_error("moving a subscription's cursor"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(taken.len())
    }

    /// Claims up to `limit` deliveries that are due, each the first pending one of its
    /// subscription and ordering key, at most `room(subscription)` of each subscription
    /// (none of the `busy` ones'), for `lease`, in one transaction. Another runner's
    /// claim that has not run out is left alone (the `UPDATE` checks it again).
    pub async fn claim_deliveries(
        &self,
        owner: &str,
        lease: Duration,
        limit: usize,
        busy: &[String],
        room: impl Fn(&str) -> usize,
    ) -> Result<Vec<Claimed>> {
        let now = now_ms();
        let rows = json_rows(self.backend, "$3", &[("id", false)]);
        let due: Vec<(String, i64, String, i64)> = sqlx::query_as(&format!(
            // `|| ''`: not the `(state, next_at)` index (every due row, sorted at each
            // claim) but `(state, seq)`, walked in order up to the LIMIT.
            "{rows} SELECT d.subscription_id, d.seq, d.first_at, d.attempts FROM deliveries d
             WHERE d.state = 'pending' AND (d.next_at || '') <= $1
               AND (d.lease_until IS NULL OR d.lease_until < $1)
               AND d.subscription_id NOT IN (SELECT id FROM r)
               AND NOT EXISTS (SELECT 1 FROM deliveries e
                   WHERE e.subscription_id = d.subscription_id AND e.ordering = d.ordering
                     AND e.state = 'pending' AND e.seq < d.seq)
             ORDER BY d.seq LIMIT $2"
        ))
        .bind(&now)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .bind(json_array(
            busy.iter().map(|id| serde_json::json!({"id": id})),
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("finding due deliveries"))?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        // Each subscription's share: claiming more only to give it back costs two writes.
        let mut taken: std::collections::HashMap<String, usize> = Default::default();
        let due: Vec<(String, i64, String, i64)> = due
            .into_iter()
            .filter(|(subscription, ..)| {
                let count = taken.entry(subscription.clone()).or_default();
                *count += 1;
                *count <= room(subscription)
            })
            .collect();
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let until = time_after(lease);
        match self.backend {
            Backend::Postgres => self.claim_at_once(owner, &until, &now, due).await,
            Backend::Sqlite => self.claim_each(owner, &until, &now, due).await,
        }
    }

    /// PostgreSQL: the due deliveries claimed in one statement. Rows another replica is
    /// claiming at this moment are skipped (`SKIP LOCKED`) rather than waited for, and a
    /// claim that has not run out is left alone (the lease is checked under the row lock).
    async fn claim_at_once(
        &self,
        owner: &str,
        until: &str,
        now: &str,
        due: Vec<(String, i64, String, i64)>,
    ) -> Result<Vec<Claimed>> {
        let rows = json_rows(self.backend, "$1", &[("id", false), ("seq", true)]);
        let mut claimed: Vec<(String, i64, String, i64)> = sqlx::query_as(&format!(
            "{rows} UPDATE deliveries SET lease_owner = $2, lease_until = $3
             WHERE (subscription_id, seq) IN (
                 SELECT d.subscription_id, d.seq FROM deliveries d
                 JOIN r ON d.subscription_id = r.id AND d.seq = r.seq
                 WHERE d.state = 'pending' AND (d.lease_until IS NULL OR d.lease_until < $4)
                 FOR UPDATE OF d SKIP LOCKED)
             RETURNING subscription_id, seq, first_at, attempts"
        ))
        .bind(json_array(due.iter().map(
            |(subscription, seq, ..)| serde_json::json!({"id": subscription, "seq": seq}),
        )))
        .bind(owner)
        .bind(until)
        .bind(now)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("claiming deliveries"))?;
        claimed.sort_by_key(|(_, seq, ..)| *seq);
        Ok(claimed
            .into_iter()
            .map(|(subscription, seq, first_at, attempts)| Claimed {
                subscription,
                seq,
                first_at,
                attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
            })
            .collect())
    }

    /// SQLite (one writer at a time, in process): the due deliveries claimed one
    /// statement each, in one transaction.
    async fn claim_each(
        &self,
        owner: &str,
        until: &str,
        now: &str,
        due: Vec<(String, i64, String, i64)>,
    ) -> Result<Vec<Claimed>> {
        let mut claimed = Vec::new();
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        for (subscription, seq, first_at, attempts) in due {
            let taken = sqlx::query(
                "UPDATE deliveries SET lease_owner = $1, lease_until = $2
                 WHERE subscription_id = $3 AND seq = $4 AND state = 'pending'
                   AND (lease_until IS NULL OR lease_until < $5)",
            )
            .bind(owner)
            .bind(until)
            .bind(&subscription)
            .bind(seq)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(query_error("claiming a delivery"))?
            .rows_affected();
            if taken == 1 {
                claimed.push(Claimed {
                    subscription,
                    seq,
                    first_at,
                    attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                });
            }
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(claimed)
    }

    /// The events of these cursors.
    pub async fn events_at(&self, cursors: &[i64]) -> Result<Vec<Event>> {
        if cursors.is_empty() {
            return Ok(Vec::new());
        }
        let rows = json_rows(self.backend, "$1", &[("seq", true)]);
        let bodies: Vec<String> = sqlx::query_scalar(&format!(
            "{rows} SELECT body FROM events WHERE seq IN (SELECT seq FROM r)"
        ))
        .bind(json_array(
            cursors.iter().map(|seq| serde_json::json!({"seq": seq})),
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("reading events"))?;
        bodies.iter().map(|b| from_json("event", b)).collect()
    }

    /// Records attempts of deliveries this owner holds, in one transaction: each
    /// delivered, due again at its `next_at`, dead (an error without `next_at`), or given
    /// back unsent (`sent` false: no attempt counted). Their leases are released.
    pub async fn deliveries_attempted(&self, owner: &str, attempts: &[Attempt]) -> Result<()> {
        if attempts.is_empty() {
            return Ok(());
        }
        let now = now_ms();
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        for attempt in attempts {
            let (state, next) = match (&attempt.error, &attempt.next_at) {
                _ if !attempt.sent => ("pending", attempt.next_at.as_deref().unwrap_or(&now)),
                (None, _) => ("delivered", now.as_str()),
                (Some(_), Some(next)) => ("pending", next.as_str()),
                (Some(_), None) => ("dead", now.as_str()),
            };
            sqlx::query(
                "UPDATE deliveries SET state = $1, attempts = attempts + $2, next_at = $3,
                        delivered_at = CASE WHEN $1 = 'delivered' THEN $4 ELSE delivered_at END,
                        last_error = COALESCE($5, last_error), lease_owner = NULL, lease_until = NULL
                 WHERE subscription_id = $6 AND seq = $7 AND lease_owner = $8",
            )
            .bind(state)
            .bind(i64::from(attempt.sent))
            .bind(next)
            .bind(&now)
            .bind(attempt.error.as_deref())
            .bind(&attempt.subscription)
            .bind(attempt.seq)
            .bind(owner)
            .execute(&mut *tx)
            .await
            .map_err(query_error("recording a delivery"))?;
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(())
    }

    /// The deliveries of a subscription, latest first, in a state (`None`: any), at most
    /// `limit`.
    pub async fn deliveries(
        &self,
        subscription: &str,
        state: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Delivery>> {
        let filter = if state.is_some() {
            "AND d.state = $3"
        } else {
            ""
        };
        let sql = format!(
            "SELECT d.seq, e.id, d.state, d.attempts, d.next_at, d.delivered_at, d.last_error
             FROM deliveries d JOIN events e ON e.seq = d.seq
             WHERE d.subscription_id = $1 {filter} ORDER BY d.seq DESC LIMIT $2"
        );
        type Row = (
            i64,
            String,
            String,
            i64,
            String,
            Option<String>,
            Option<String>,
        );
        let mut query = sqlx::query_as::<_, Row>(&sql)
            .bind(subscription)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX));
        if let Some(state) = state {
            query = query.bind(state);
        }
        let rows = query
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading deliveries"))?;
        Ok(rows
            .into_iter()
            .map(
                |(cursor, event_id, state, attempts, next_at, delivered_at, last_error)| Delivery {
                    next_at: (state == "pending").then_some(next_at),
                    cursor,
                    event_id,
                    state,
                    attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                    delivered_at,
                    last_error,
                },
            )
            .collect())
    }

    /// Makes a subscription's dead deliveries pending again, due now, with a fresh retry
    /// window; how many.
    pub async fn redeliver(&self, subscription: &str) -> Result<u64> {
        let now = now_ms();
        let done = sqlx::query(
            "UPDATE deliveries SET state = 'pending', attempts = 0, first_at = $1, next_at = $1
             WHERE subscription_id = $2 AND state = 'dead'",
        )
        .bind(&now)
        .bind(subscription)
        .execute(&self.pool)
        .await
        .map_err(query_error("redelivering"))?;
        Ok(done.rows_affected())
    }
}
