//! The `pushes` table: a push's manifest, state and summary, and the package nodes its
//! commits write.

use super::*;

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
        paged_files: row.get::<i64, _>("paged_files") != 0,
        node_status: row
            .get::<Option<String>, _>("node_status")
            .map(|t| from_text("node status", &t))
            .transpose()?,
        result: opt_json("push result", row.get("result"))?,
        error: opt_json("push error", row.get("error"))?,
        expired,
    })
}

impl StateDb {
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
            "INSERT INTO pushes (id, principal, namespace, branch, state, protected, created_at, updated_at,
                                 paged_files)
             VALUES ($1, $2, $3, $4, 'staging', $5, $6, $7, $8)",
        )
        .bind(id)
        .bind(principal)
        .bind(&manifest.namespace)
        .bind(&manifest.branch)
        .bind(i64::from(protected))
        .bind(&now)
        .bind(&now)
        .bind(i64::from(manifest.paged_files))
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
                    node_status = NULL, result = NULL, error = NULL, paged_files = $3
             WHERE id = $4 AND state IN ('staging', 'failed')",
        )
        .bind(i64::from(protected))
        .bind(now())
        .bind(i64::from(manifest.paged_files))
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
        let Some(row) = self.push_row(id).await? else {
            return Ok(None);
        };
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

    /// A push's summary and the names and kinds of those of its datasets `names` names
    /// (the ones a batch of files is checked against): neither the stored manifest nor the
    /// push's other datasets are read, so a batch costs its own size, not the push's
    /// (issue 27: each batch of a push of 100,000 datasets selected, copied and parsed the
    /// whole manifest, tens of MB). A name the push does not write is left out.
    pub async fn push_outline<'a>(
        &self,
        id: &str,
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Option<(PushSummary, PushOutline)>> {
        let Some(summary) = self.push_summary(id).await? else {
            return Ok(None);
        };
        let names = json_array(
            names
                .into_iter()
                .map(|name| serde_json::json!({ "name": name })),
        );
        let table = json_rows(self.backend, "$2", &[("name", false)]);
        let rows = sqlx::query(&format!(
            "{table} SELECT name, kind FROM push_datasets
             WHERE push_id = $1 AND operation = 'write' AND name IN (SELECT name FROM r)"
        ))
        .bind(id)
        .bind(names)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("reading a push's datasets"))?;
        let datasets = rows
            .iter()
            .map(|row| {
                Ok(OutlinedDataset {
                    name: row.get("name"),
                    kind: from_text("asset kind", &row.get::<String, _>("kind"))?,
                })
            })
            .collect::<Result<_>>()?;
        let outline = PushOutline {
            paged_files: summary.paged_files,
            datasets,
        };
        Ok(Some((summary, outline)))
    }

    /// A push's row with its manifest's text.
    async fn push_row(&self, id: &str) -> Result<Option<sqlx::any::AnyRow>> {
        sqlx::query(
            "SELECT p.id, p.principal, p.namespace, p.branch, p.state, m.manifest, p.protected,
                    p.created_at, p.updated_at, p.commits, p.changes, p.paged_files, p.node_status,
                    p.result, p.error
             FROM pushes p JOIN push_manifests m ON m.push_id = p.id WHERE p.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a push"))
    }

    /// What the progress of a push needs (no manifest: it is the largest part).
    pub async fn push_summary(&self, id: &str) -> Result<Option<PushSummary>> {
        let row = sqlx::query(
            "SELECT id, principal, namespace, branch, state, created_at, updated_at, changes,
                    paged_files, node_status, result, error
             FROM pushes WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a push"))?;
        row.as_ref().map(summary_of).transpose()
    }

    /// Starts (or restarts) the commit: `staging` or `failed` → `committing`, datasets
    /// that are not done back to `pending`. Returns the state after the call (a push
    /// already committing or succeeded is left as it is). A dataset already pending
    /// without an error keeps its change number: a first commit changes none, and a
    /// client following it from the push's creation is not sent every dataset again as
    /// pending (100,000 of them, a second of the server's time, in an unchanged re-push
    /// of as many resources: issue 27).
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
                 WHERE push_id = $2 AND state <> 'done'
                   AND (state <> 'pending' OR error IS NOT NULL)",
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
        result: &PushReport,
        error: Option<&Problem>,
    ) -> Result<Option<NodeStatus>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        let facts: Option<(String, String, String, String)> = sqlx::query_as(
            "UPDATE pushes SET state = $1, node_status = NULL, result = $2, error = $3, updated_at = $4,
                    lease_owner = NULL, lease_until = NULL
             WHERE id = $5
             RETURNING namespace, branch, principal,
                 (SELECT manifest FROM push_manifests WHERE push_id = $5) AS manifest",
        )
        .bind(text(&state))
        .bind(json(result))
        .bind(error.map(json))
        .bind(&now)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(query_error("finishing a push"))?;
        // The push's event, last in the transaction (see `events.rs`).
        let event = match &facts {
            Some((namespace, branch, subject, manifest)) => {
                let version = version_of(manifest);
                let facts = events::PushFacts {
                    id,
                    namespace,
                    branch,
                    subject,
                    version: version.as_deref(),
                };
                vec![events::push_event(
                    &facts,
                    &self.public_host,
                    state,
                    result.counts,
                    error,
                    &now,
                )]
            }
            None => Vec::new(),
        };
        let Some(node) = node else {
            events::record_events(&mut tx, self.backend, event).await?;
            tx.commit().await.map_err(query_error("commit"))?;
            self.notify_changed();
            return Ok(None);
        };
        lock_key(
            self.backend,
            &mut tx,
            &format!("package_node/{}/{}", node.namespace, node.branch),
            "locking a package node",
        )
        .await?;
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
        events::record_events(&mut tx, self.backend, event).await?;
        tx.commit().await.map_err(query_error("commit"))?;
        self.package_writes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.notify_changed();
        Ok(Some(status))
    }

    /// The package node of a namespace on a branch.
    /// What tells one write of the package node of `namespace` on `branch` from another
    /// (the push that wrote it and when), without reading the node: `None` without one.
    pub async fn package_node_stamp(
        &self,
        namespace: &str,
        branch: &str,
    ) -> Result<Option<String>> {
        let stamp: Option<(String, String)> = sqlx::query_as(
            "SELECT push_id, updated_at FROM package_nodes WHERE namespace = $1 AND branch = $2",
        )
        .bind(namespace)
        .bind(branch)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a package node's stamp"))?;
        Ok(stamp.map(|(push, at)| format!("{push} {at}")))
    }

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
}

/// The package version a stored manifest names (`None` when unreadable: an event is not
/// worth failing a push's end for).
fn version_of(manifest: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Package {
        version: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Manifest {
        package: Package,
    }
    serde_json::from_str::<Manifest>(manifest)
        .ok()
        .and_then(|m| m.package.version)
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
    let rows = json_array(datasets.iter().enumerate().map(|(position, dataset)| {
        serde_json::json!({
            "position": position,
            "name": dataset.name,
            "kind": text(&dataset.kind),
            "operation": dataset.operation.as_str(),
        })
    }));
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
    .bind(rows)
    .bind(change)
    .execute(&mut **tx)
    .await
    .map_err(query_error("inserting datasets"))?;
    Ok(())
}
