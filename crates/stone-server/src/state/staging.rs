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
