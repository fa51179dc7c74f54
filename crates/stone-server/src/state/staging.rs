//! Staging bookkeeping: verified contents, multipart uploads and who holds which content.

use super::*;

impl StateDb {
    /// Size of a verified content of the S3 staging store.
    pub async fn verified_content(&self, sha256: &str) -> Result<Option<u64>> {
        Ok(self
            .verified_content_at(sha256)
            .await?
            .map(|(size, _)| size))
    }

    /// Size and location of a verified content of the S3 staging store: the owner of
    /// the upload kept in place as the content, `''` for the content's own key.
    pub async fn verified_content_at(&self, sha256: &str) -> Result<Option<(u64, String)>> {
        let row: Option<(i64, String)> =
            sqlx::query_as("SELECT size, owner FROM staged_contents WHERE sha256 = $1")
                .bind(sha256)
                .fetch_optional(&self.pool)
                .await
                .map_err(query_error("reading a staged content"))?;
        Ok(row.map(|(size, owner)| (size as u64, owner)))
    }

    /// Records a verified content of the S3 store at its own key, used now. (Uploads in
    /// progress of it, other callers', go on: each is its caller's.)
    pub async fn mark_verified(&self, sha256: &str, size: u64) -> Result<()> {
        self.mark_verified_at(sha256, size, "").await
    }

    /// [`Self::mark_verified`] of a content that lives where `owner`'s upload put it
    /// (`''`: the content's own key).
    pub async fn mark_verified_at(&self, sha256: &str, size: u64, owner: &str) -> Result<()> {
        sqlx::query(
            "INSERT INTO staged_contents (sha256, size, verified_at, owner) VALUES ($1, $2, $3, $4)
             ON CONFLICT (sha256) DO UPDATE SET size = excluded.size,
                 verified_at = excluded.verified_at, owner = excluded.owner",
        )
        .bind(sha256)
        .bind(size as i64)
        .bind(now())
        .bind(owner)
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a staged content"))?;
        Ok(())
    }

    /// Forgets a content where `owner`'s location has it (it was found missing there),
    /// unless the content was recorded elsewhere meanwhile.
    pub async fn forget_content_at(&self, sha256: &str, owner: &str) -> Result<()> {
        sqlx::query("DELETE FROM staged_contents WHERE sha256 = $1 AND owner = $2")
            .bind(sha256)
            .bind(owner)
            .execute(&self.pool)
            .await
            .map_err(query_error("forgetting a staged content"))?;
        Ok(())
    }

    /// Marks a content used now if it is still recorded with this size at `owner`'s
    /// location; false when it is not (a sweep forgot it: it is not staged any more).
    pub async fn touch_content_at(&self, sha256: &str, size: u64, owner: &str) -> Result<bool> {
        let touched = sqlx::query(
            "UPDATE staged_contents SET verified_at = $1
             WHERE sha256 = $2 AND size = $3 AND owner = $4",
        )
        .bind(now())
        .bind(sha256)
        .bind(size as i64)
        .bind(owner)
        .execute(&self.pool)
        .await
        .map_err(query_error("touching a staged content"))?
        .rows_affected();
        Ok(touched == 1)
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

/// How long a deletion of a staged object may stay under way: one not finished after
/// this (its sweep died) counts as over. A deletion is one S3 `DELETE`.
const DELETION_STALE: Duration = Duration::from_secs(300);

/// How long finished deletions are remembered (see [`StateDb::prune_deletions`]): far
/// longer than a completion takes between reading a mark and recording the content.
pub const DELETIONS_KEPT: Duration = Duration::from_secs(24 * 3600);

/// The last deletion of a staged object that the state recorded (see
/// `0009_staged_deletions.sql`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeletionMark {
    /// Which deletion (a fresh ID each time).
    pub deletion: String,
    /// Not finished yet (and not stale).
    pub under_way: bool,
}

/// What keeps an object from a sweep's deletion ([`StateDb::start_deletion`]).
#[derive(Debug, Clone, Copy)]
pub enum Keeps<'a> {
    /// The object is where `owner`'s location of the content is (`''`: the content's own
    /// key; a holder: its direct upload): kept while the content is recorded there and
    /// was used since `unused_before` (RFC 3339; `None`: kept whenever it is recorded).
    /// A recorded content not used since is forgotten with the deletion.
    Content {
        sha256: &'a str,
        owner: &'a str,
        unused_before: Option<&'a str>,
    },
    /// A caller's multipart upload: kept while `owner`'s upload of the content is
    /// recorded (completed, not verified yet).
    Multipart { sha256: &'a str, owner: &'a str },
}

/// Deletions of staged objects (issue 24): the sweep and a completion on different
/// replicas agree, through the state, on whether an object is deleted or recorded as a
/// content; neither holds a connection across an S3 call.
impl StateDb {
    /// The last deletion of the object at `key`, if one was recorded.
    pub async fn deletion_mark(&self, key: &str) -> Result<Option<DeletionMark>> {
        let row: Option<(String, String, Option<String>)> = sqlx::query_as(
            "SELECT deletion, started_at, finished_at FROM staged_deletions WHERE object_key = $1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await
        .map_err(query_error("reading a deletion of a staged object"))?;
        let stale = ago(DELETION_STALE);
        Ok(row.map(|(deletion, started_at, finished_at)| DeletionMark {
            deletion,
            under_way: finished_at.is_none() && started_at >= stale,
        }))
    }

    /// Begins the deletion of the object at `key` unless `keeps` keeps it: one
    /// transaction under `key`'s cross-replica lock records the deletion (a fresh mark,
    /// under way) and forgets the content if it was recorded there unused (and who held
    /// it, once no location of it is recorded). Returns the deletion's ID and whether a
    /// recorded content was forgotten; `None` when the object is kept. The caller deletes
    /// the object, then [`Self::finish_deletion`].
    pub async fn start_deletion(
        &self,
        key: &str,
        keeps: Keeps<'_>,
    ) -> Result<Option<(String, bool)>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        lock_key(
            self.backend,
            &mut tx,
            &deletion_lock(key),
            "locking a staged object",
        )
        .await?;
        let deletion = uuid::Uuid::new_v4().simple().to_string();
        // A write first: SQLite takes its write lock here, for the whole transaction.
        sqlx::query(
            "INSERT INTO staged_deletions (object_key, deletion, started_at, finished_at)
             VALUES ($1, $2, $3, NULL)
             ON CONFLICT (object_key) DO UPDATE SET deletion = excluded.deletion,
                 started_at = excluded.started_at, finished_at = NULL",
        )
        .bind(key)
        .bind(&deletion)
        .bind(now())
        .execute(&mut *tx)
        .await
        .map_err(query_error("recording a deletion of a staged object"))?;
        let mut forgotten = false;
        match keeps {
            Keeps::Content {
                sha256,
                owner,
                unused_before,
            } => {
                let used: Option<String> = sqlx::query_scalar(
                    "SELECT verified_at FROM staged_contents WHERE sha256 = $1 AND owner = $2",
                )
                .bind(sha256)
                .bind(owner)
                .fetch_optional(&mut *tx)
                .await
                .map_err(query_error("reading a staged content"))?;
                if let Some(used) = used {
                    if unused_before.is_none_or(|before| used.as_str() >= before) {
                        tx.rollback().await.map_err(query_error("rollback"))?;
                        return Ok(None);
                    }
                    sqlx::query("DELETE FROM staged_contents WHERE sha256 = $1 AND owner = $2")
                        .bind(sha256)
                        .bind(owner)
                        .execute(&mut *tx)
                        .await
                        .map_err(query_error("forgetting a staged content"))?;
                    forgotten = true;
                }
                // Possession is proved again by the next upload, once the content is
                // staged nowhere (without this, the table would only grow). A completion
                // records its holder after its content: never lost here.
                sqlx::query(
                    "DELETE FROM content_holders WHERE sha256 = $1
                     AND NOT EXISTS (SELECT 1 FROM staged_contents WHERE sha256 = $2)",
                )
                .bind(sha256)
                .bind(sha256)
                .execute(&mut *tx)
                .await
                .map_err(query_error("forgetting a content's holders"))?;
            }
            Keeps::Multipart { sha256, owner } => {
                let recorded: Option<String> = sqlx::query_scalar(
                    "SELECT upload_id FROM multipart_uploads WHERE sha256 = $1 AND owner = $2",
                )
                .bind(sha256)
                .bind(owner)
                .fetch_optional(&mut *tx)
                .await
                .map_err(query_error("reading a multipart upload"))?;
                if recorded.is_some() {
                    tx.rollback().await.map_err(query_error("rollback"))?;
                    return Ok(None);
                }
            }
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(Some((deletion, forgotten)))
    }

    /// Ends a deletion [`Self::start_deletion`] began (the object is gone, or the delete
    /// failed: either way a completion looks at the object again).
    pub async fn finish_deletion(&self, key: &str, deletion: &str) -> Result<()> {
        sqlx::query(
            "UPDATE staged_deletions SET finished_at = $1 WHERE object_key = $2 AND deletion = $3",
        )
        .bind(now())
        .bind(key)
        .bind(deletion)
        .execute(&self.pool)
        .await
        .map_err(query_error("finishing a deletion of a staged object"))?;
        Ok(())
    }

    /// Records the verified content `sha256` at `key`, `owner`'s location (see
    /// [`Self::mark_verified_at`]), used now, unless a deletion of `key` began since the
    /// caller read `seen` (before it checked or wrote the object), or is under way: one
    /// statement under `key`'s cross-replica lock, so that a sweep either sees the record
    /// and keeps the object, or its deletion mark stops the record. False when it was not
    /// recorded (look at the object again).
    pub async fn record_content_at(
        &self,
        sha256: &str,
        size: u64,
        owner: &str,
        key: &str,
        seen: Option<&DeletionMark>,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        lock_key(
            self.backend,
            &mut tx,
            &deletion_lock(key),
            "locking a staged object",
        )
        .await?;
        let recorded = sqlx::query(
            "INSERT INTO staged_contents (sha256, size, verified_at, owner)
             SELECT $1, $2, $3, $4 WHERE NOT EXISTS (
                 SELECT 1 FROM staged_deletions WHERE object_key = $5
                 AND NOT (deletion = $6 AND (finished_at IS NOT NULL OR started_at < $7)))
             ON CONFLICT (sha256) DO UPDATE SET size = excluded.size,
                 verified_at = excluded.verified_at, owner = excluded.owner",
        )
        .bind(sha256)
        .bind(size as i64)
        .bind(now())
        .bind(owner)
        .bind(key)
        .bind(seen.map_or("", |mark| mark.deletion.as_str()))
        .bind(ago(DELETION_STALE))
        .execute(&mut *tx)
        .await
        .map_err(query_error("recording a staged content"))?
        .rows_affected();
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(recorded == 1)
    }

    /// Forgets the deletions finished (or left under way) before `before` (RFC 3339).
    pub async fn prune_deletions(&self, before: &str) -> Result<u64> {
        Ok(
            sqlx::query(
                "DELETE FROM staged_deletions WHERE COALESCE(finished_at, started_at) < $1",
            )
            .bind(before)
            .execute(&self.pool)
            .await
            .map_err(query_error("forgetting old deletions of staged objects"))?
            .rows_affected(),
        )
    }
}

/// The cross-replica lock of a staged object.
fn deletion_lock(key: &str) -> String {
    format!("stone-server/staged-object/{key}")
}

/// Possession of contents (issue 22): who may reuse a staged content without uploading it.
impl StateDb {
    /// Records that `holder` proved to have the content (its upload was verified), once
    /// it is durable. Uploads arriving together share one transaction (one fsync of the
    /// SQLite journal for many instead of one each: issue 27's 100,000 small uploads spent
    /// seconds queued on the single writer): the first caller to find the queue unwritten
    /// writes all of it, the others wait for that write.
    pub async fn record_holder(&self, sha256: &str, holder: &str) -> Result<()> {
        self.record_holders(&[sha256], holder).await
    }

    /// Records that `holder` proved to have each of these contents, as
    /// [`Self::record_holder`] does for one (issue 27: the contents of a pack).
    pub async fn record_holders(&self, sha256s: &[&str], holder: &str) -> Result<()> {
        if sha256s.is_empty() {
            return Ok(());
        }
        let ticket = self.holders.queue(sha256s, holder);
        let mut written = self.holders.written.lock().await;
        if *written >= ticket {
            return Ok(());
        }
        let (batch, upto) = self.holders.take();
        if let Err(error) = self.insert_holders(&batch).await {
            // Put back for the next caller: those waiting on this write are not covered.
            self.holders.put_back(batch);
            return Err(error);
        }
        *written = upto;
        Ok(())
    }

    /// Inserts holder records (sha256, holder), in one transaction.
    async fn insert_holders(&self, records: &[(String, String)]) -> Result<()> {
        let mut tx = self
            .pool
            .begin()
            .await
            .map_err(query_error("recording contents' holders"))?;
        for chunk in records.chunks(POSSESSION_BATCH) {
            let rows = json_rows(self.backend, "$1", &[("sha256", false), ("holder", false)]);
            let values: Vec<Value> = chunk
                .iter()
                .map(|(sha256, holder)| serde_json::json!({ "sha256": sha256, "holder": holder }))
                .collect();
            sqlx::query(&format!(
                "{rows} INSERT INTO content_holders (sha256, holder)
                 SELECT sha256, holder FROM r WHERE true
                 ON CONFLICT (sha256, holder) DO NOTHING"
            ))
            .bind(json(&values))
            .execute(&mut *tx)
            .await
            .map_err(query_error("recording contents' holders"))?;
        }
        tx.commit()
            .await
            .map_err(query_error("recording contents' holders"))
    }

    /// Forgets who held `sha256s`: the sweep deleted those contents, so possession is
    /// proved again by the next upload (without this, the table would only grow).
    pub async fn forget_holders(&self, sha256s: &[&str]) -> Result<()> {
        for batch in sha256s.chunks(POSSESSION_BATCH) {
            let rows = json_rows(self.backend, "$1", &[("sha256", false)]);
            sqlx::query(&format!(
                "{rows} DELETE FROM content_holders WHERE sha256 IN (SELECT sha256 FROM r)"
            ))
            .bind(json(&sha_rows(batch)))
            .execute(&self.pool)
            .await
            .map_err(query_error("forgetting contents' holders"))?;
        }
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

fn sha_rows(sha256s: &[&str]) -> Vec<Value> {
    sha256s
        .iter()
        .map(|sha256| serde_json::json!({ "sha256": sha256 }))
        .collect()
}

/// Holder records queued for one transaction ([`StateDb::record_holder`]).
#[derive(Debug, Default)]
pub(super) struct HolderQueue {
    /// Records not written yet, and the ticket of the last one queued.
    queued: std::sync::Mutex<(Vec<(String, String)>, u64)>,
    /// The highest ticket a committed transaction covers; held while one is written.
    written: tokio::sync::Mutex<u64>,
}

impl HolderQueue {
    /// Queues records; the ticket of the last.
    fn queue(&self, sha256s: &[&str], holder: &str) -> u64 {
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        for sha256 in sha256s {
            queued.0.push(((*sha256).to_owned(), holder.to_owned()));
            queued.1 += 1;
        }
        queued.1
    }

    /// Every record queued, and the ticket of the last one.
    fn take(&self) -> (Vec<(String, String)>, u64) {
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        (std::mem::take(&mut queued.0), queued.1)
    }

    /// Records a failed write took, queued again.
    fn put_back(&self, batch: Vec<(String, String)>) {
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        let newer = std::mem::replace(&mut queued.0, batch);
        queued.0.extend(newer);
    }
}
