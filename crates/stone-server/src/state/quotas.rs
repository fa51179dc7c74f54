//! Namespace quotas (`[quotas]`).

use super::*;

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
    /// `(dataset, unit)`: the storage units that keep a copy of what is written to a
    /// dataset (see `0012_quota_storage_units.sql`); a dataset may have several (a graph
    /// and its named version). A dataset listed in none is counted in the unit `""`
    /// (once per namespace).
    pub units: Vec<(&'a str, String)>,
    /// Datasets deleted on the branch.
    pub deletes: Vec<&'a str>,
}

impl QuotaChange<'_> {
    /// The units of `dataset` (`[""]` when none is listed).
    fn units_of(&self, dataset: &str) -> Vec<&str> {
        let units: Vec<&str> = self
            .units
            .iter()
            .filter(|(name, _)| *name == dataset)
            .map(|(_, unit)| unit.as_str())
            .collect();
        if units.is_empty() { vec![""] } else { units }
    }

    /// `(dataset, unit, sha256, size)`: every copy the writes make.
    fn copies(&self) -> Vec<(&str, &str, &str, u64)> {
        self.writes
            .iter()
            .flat_map(|(dataset, sha256, size)| {
                self.units_of(dataset)
                    .into_iter()
                    .map(move |unit| (*dataset, unit, *sha256, *size))
            })
            .collect()
    }
}

/// Quotas (`[quotas]`): a namespace holds the distinct contents (sha256, size) of each of
/// its storage units (issue 52: what the engines store, a copy per unit), recorded when a
/// push's commit is accepted (old versions keep their contents, so they count); a push
/// that deletes a dataset on a branch frees what only that dataset held there.
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
        lock_key(
            self.backend,
            &mut tx,
            &format!("quota/{}", change.namespace),
            "locking a namespace's quota",
        )
        .await?;
        let deleted = json_array(
            change
                .deletes
                .iter()
                .map(|name| serde_json::json!({ "name": name })),
        );
        let rows = json_rows(self.backend, "$1", &[("name", false)]);
        sqlx::query(&format!(
            "{rows} DELETE FROM namespace_contents
             WHERE namespace = $2 AND branch = $3 AND dataset IN (SELECT r.name FROM r)"
        ))
        .bind(deleted)
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
        for batch in change.copies().chunks(POSSESSION_BATCH) {
            let written = json_array(batch
                .iter()
                .map(|(dataset, unit, sha256, size)| {
                    serde_json::json!({ "dataset": dataset, "unit": unit, "sha256": sha256, "size": size })
                })
            );
            let rows = json_rows(
                self.backend,
                "$1",
                &[
                    ("dataset", false),
                    ("unit", false),
                    ("sha256", false),
                    ("size", true),
                ],
            );
            sqlx::query(&format!(
                "{rows} INSERT INTO namespace_contents (namespace, branch, dataset, unit, sha256, size)
                 SELECT $2, $3, r.dataset, r.unit, r.sha256, r.size FROM r
                 WHERE true ON CONFLICT (namespace, branch, dataset, unit, sha256) DO NOTHING"
            ))
            .bind(written)
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

impl StateDb {
    /// Issue 27: [`Self::reserve_quota`] of a paged push, whose writes are the files its
    /// batches recorded (but those of the datasets `skip` names: unchanged), not
    /// `change.writes`: the figures are computed and the contents recorded by the
    /// database, so that a push of a million files is not a list in the server.
    pub async fn reserve_paged_quota(
        &self,
        change: &QuotaChange<'_>,
        push_id: &str,
        skip: &[&str],
        quota: Option<u64>,
    ) -> Result<(QuotaFigures, bool)> {
        use super::push_files::names_cte;
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        lock_key(
            self.backend,
            &mut tx,
            &format!("quota/{}", change.namespace),
            "locking a namespace's quota",
        )
        .await?;
        let deleted = json(&change.deletes);
        let skipped = json(&skip);
        let units = json_array(
            change
                .units
                .iter()
                .map(|(dataset, unit)| serde_json::json!({ "dataset": dataset, "unit": unit })),
        );
        let d = names_cte(self.backend, "d", "$1");
        sqlx::query(&format!(
            "WITH {d} DELETE FROM namespace_contents
             WHERE namespace = $2 AND branch = $3 AND dataset IN (SELECT name FROM d)"
        ))
        .bind(&deleted)
        .bind(change.namespace)
        .bind(change.branch)
        .execute(&mut *tx)
        .await
        .map_err(query_error("freeing deleted datasets' contents"))?;
        // What the namespace holds but the deleted datasets (each content once a unit).
        let held = "SELECT c.unit, c.sha256, c.size FROM namespace_contents c
             WHERE c.namespace = $2 AND NOT (c.branch = $3 AND c.dataset IN (SELECT name FROM d))";
        let used: i64 = sqlx::query_scalar(&format!(
            "WITH {d} SELECT CAST(COALESCE(sum(h.size), 0) AS BIGINT) FROM (
                 SELECT DISTINCT c.unit, c.sha256, c.size FROM ({held}) AS c) AS h"
        ))
        .bind(&deleted)
        .bind(change.namespace)
        .bind(change.branch)
        .fetch_one(&mut *tx)
        .await
        .map_err(query_error("reading what a namespace holds"))?;
        let s = names_cte(self.backend, "s", "$4");
        let u = unit_cte(self.backend, "$6");
        let copies = paged_copies("$5");
        let asked: i64 = sqlx::query_scalar(&format!(
            "WITH {d}, {s}, {u} SELECT CAST(COALESCE(sum(n.size), 0) AS BIGINT) FROM (
                 SELECT p.unit, p.sha256, p.size FROM ({copies}) AS p
                 EXCEPT SELECT h.unit, h.sha256, h.size FROM ({held}) AS h) AS n"
        ))
        .bind(&deleted)
        .bind(change.namespace)
        .bind(change.branch)
        .bind(&skipped)
        .bind(push_id)
        .bind(&units)
        .fetch_one(&mut *tx)
        .await
        .map_err(query_error("reading what a push adds"))?;
        let figures = QuotaFigures {
            used: u64::try_from(used).unwrap_or(0),
            asked: u64::try_from(asked).unwrap_or(0),
        };
        if figures.exceeds(quota) {
            tx.rollback().await.map_err(query_error("rollback"))?;
            return Ok((figures, false));
        }
        let s = names_cte(self.backend, "s", "$3");
        let u = unit_cte(self.backend, "$5");
        sqlx::query(&format!(
            "WITH {s}, {u} INSERT INTO namespace_contents (namespace, branch, dataset, unit, sha256, size)
             SELECT $1, $2, p.dataset, p.unit, p.sha256, max(p.size) FROM ({copies}) AS p
             WHERE true GROUP BY p.dataset, p.unit, p.sha256
             ON CONFLICT (namespace, branch, dataset, unit, sha256) DO NOTHING",
            copies = paged_copies("$4")
        ))
        .bind(change.namespace)
        .bind(change.branch)
        .bind(&skipped)
        .bind(push_id)
        .bind(&units)
        .execute(&mut *tx)
        .await
        .map_err(query_error("recording a namespace's contents"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        Ok((figures, true))
    }
}

/// The copies of a paged push (`push_files` of the push bound at `push`, but the datasets
/// of CTE `s`): each file once per unit of its dataset in CTE `u` ([`unit_cte`]), once with
/// unit '' when its dataset has none. Columns `dataset, unit, sha256, size`. Not a `LEFT
/// JOIN u`: SQLite scanned all of `u` for each file there (no index on a CTE), and a push
/// of 20,000 one-file datasets spent 126 s in this query holding the database's write lock
/// (issue 56); each side of the union here is an index search or a hashed `IN`. `CROSS
/// JOIN` makes SQLite keep `u` outside (its rows each an index search in `push_files`):
/// with a plain `JOIN`, the server's SQLite still put `push_files` outside and scanned `u`
/// (40 s), though SQLite 3.40 chose the index; PostgreSQL plans it freely.
fn paged_copies(push: &str) -> String {
    format!(
        "SELECT f.dataset, COALESCE(u.unit, '') AS unit, f.sha256, f.size
             FROM u CROSS JOIN push_files f
             WHERE f.push_id = {push} AND f.dataset = u.dataset
               AND f.dataset NOT IN (SELECT name FROM s)
         UNION ALL
         SELECT f.dataset, '' AS unit, f.sha256, f.size FROM push_files f
             WHERE f.push_id = {push} AND f.dataset NOT IN (SELECT name FROM s)
               AND f.dataset NOT IN (SELECT u.dataset FROM u WHERE u.dataset IS NOT NULL)"
    )
}

/// `u (dataset, unit)`: a CTE of the JSON array of `{dataset, unit}` bound at `param`.
fn unit_cte(backend: Backend, param: &str) -> String {
    match backend {
        Backend::Sqlite => format!(
            "u AS MATERIALIZED (SELECT j.value ->> 'dataset' AS dataset, j.value ->> 'unit' AS unit FROM json_each({param}) AS j)"
        ),
        Backend::Postgres => format!(
            "u AS MATERIALIZED (SELECT j.value ->> 'dataset' AS dataset, j.value ->> 'unit' AS unit FROM jsonb_array_elements({param}::jsonb) AS j(value))"
        ),
    }
}

/// The distinct contents (unit and sha256 → size) a namespace holds, less the datasets
/// `change` deletes on its branch.
async fn held_by_namespace(
    connection: &mut sqlx::AnyConnection,
    backend: Backend,
    change: &QuotaChange<'_>,
) -> Result<std::collections::BTreeMap<(String, String), u64>> {
    let deleted = json_array(
        change
            .deletes
            .iter()
            .map(|name| serde_json::json!({ "name": name })),
    );
    let rows = json_rows(backend, "$1", &[("name", false)]);
    let found = sqlx::query(&format!(
        "{rows} SELECT DISTINCT c.unit, c.sha256, c.size FROM namespace_contents c
         WHERE c.namespace = $2
           AND NOT (c.branch = $3 AND c.dataset IN (SELECT r.name FROM r))"
    ))
    .bind(deleted)
    .bind(change.namespace)
    .bind(change.branch)
    .fetch_all(&mut *connection)
    .await
    .map_err(query_error("reading what a namespace holds"))?;
    Ok(found
        .into_iter()
        .map(|row| {
            let size: i64 = row.get("size");
            (
                (row.get("unit"), row.get("sha256")),
                u64::try_from(size).unwrap_or(0),
            )
        })
        .collect())
}

fn figures(
    held: &std::collections::BTreeMap<(String, String), u64>,
    change: &QuotaChange<'_>,
) -> QuotaFigures {
    let used = held
        .values()
        .fold(0u64, |sum, size| sum.saturating_add(*size));
    let new: std::collections::BTreeMap<(&str, &str), u64> = change
        .copies()
        .into_iter()
        .filter(|(_, unit, sha256, _)| {
            !held.contains_key(&((*unit).to_owned(), (*sha256).to_owned()))
        })
        .map(|(_, unit, sha256, size)| ((unit, sha256), size))
        .collect();
    let asked = new
        .values()
        .fold(0u64, |sum, size| sum.saturating_add(*size));
    QuotaFigures { used, asked }
}
