//! Leases of the job runner: which process commits which push, until when.

use super::*;

fn later(duration: Duration) -> String {
    (chrono::Utc::now() + chrono::Duration::from_std(duration).unwrap_or_default())
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn now_precise() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A PostgreSQL advisory lock held on its own connection (see [`StateDb::lock`]).
#[derive(Debug)]
pub struct EngineLock {
    /// The keys held (several: [`StateDb::lock_many`]).
    keys: Vec<String>,
    connection: Option<sqlx::pool::PoolConnection<sqlx::Any>>,
}

impl EngineLock {
    /// Releases the lock.
    pub async fn release(mut self) {
        if let Some(mut connection) = self.connection.take() {
            for key in &self.keys {
                let unlocked = sqlx::query("SELECT pg_advisory_unlock(hashtext($1)) AS unlocked")
                    .bind(key)
                    .execute(&mut *connection)
                    .await;
                if unlocked.is_err() {
                    // Closing the session releases them all.
                    drop(connection.detach());
                    return;
                }
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

impl StateDb {
    /// Takes the lock named `key` shared by every replica if no one holds it: `None` when
    /// another replica does. On SQLite (one process) it is always granted.
    pub async fn try_lock(&self, key: &str) -> Result<Option<EngineLock>> {
        if self.backend != Backend::Postgres {
            return Ok(Some(EngineLock {
                keys: vec![key.to_owned()],
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
            keys: vec![key.to_owned()],
            connection: Some(connection),
        }))
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
            keys: vec![key.to_owned()],
            connection: Some(connection),
        }))
    }

    /// [`Self::lock`] of several keys on one connection (a batch of graphs: one
    /// connection, not one per graph), taken in sorted order so that two batches never
    /// wait on each other; released together.
    pub async fn lock_many(&self, keys: &[String]) -> Result<Option<EngineLock>> {
        if self.backend != Backend::Postgres || keys.is_empty() {
            return Ok(None);
        }
        let mut keys = keys.to_vec();
        keys.sort_unstable();
        keys.dedup();
        let mut connection = self
            .pool
            .acquire()
            .await
            .map_err(query_error("acquiring a connection for a lock"))?;
        let mut lock = EngineLock {
            keys: Vec::with_capacity(keys.len()),
            connection: None,
        };
        for key in keys {
            sqlx::query("SELECT 1 AS locked FROM (SELECT pg_advisory_lock(hashtext($1))) AS l")
                .bind(&key)
                .execute(&mut *connection)
                .await
                .map_err(query_error("taking an advisory lock"))?;
            lock.keys.push(key);
        }
        lock.connection = Some(connection);
        Ok(Some(lock))
    }

    /// Forgets every lease (at startup: the data directory is locked by this process, so
    /// no other runner can hold one).
    pub async fn release_all_leases(&self) -> Result<u64> {
        let pushes = sqlx::query(
            "UPDATE pushes SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL",
        )
        .execute(&self.pool)
        .await
        .map_err(query_error("releasing leases"))?
        .rows_affected();
        // Webhook deliveries a crash left claimed (issue 58): sent again now.
        let deliveries = sqlx::query(
            "UPDATE deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL",
        )
        .execute(&self.pool)
        .await
        .map_err(query_error("releasing leases"))?
        .rows_affected();
        Ok(pushes + deliveries)
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

    /// A runner that lost the push's lease to another (its renewals came too late: a
    /// stall, not a crash) gives back its start, so that the push's count of crashes
    /// stays the count of processes that died under it. The lease is not touched: it is
    /// the other runner's now.
    pub async fn give_back_start(&self, id: &str) -> Result<()> {
        sqlx::query(
            "UPDATE pushes SET commit_starts = CASE WHEN commit_starts > 0 THEN commit_starts - 1 ELSE 0 END
             WHERE id = $1",
        )
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(query_error("giving back a commit start"))?;
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
}
