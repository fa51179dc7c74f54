//! What garbage collection (`gc.rs`) asks of the state: expired pushes, live and unused
//! contents, stale multipart uploads.

use super::*;

/// Garbage collection (`gc.rs`).
impl StateDb {
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
        // Issue 27: and the files of paged pushes.
        contents.extend(self.paged_live_contents().await?);
        Ok(contents)
    }

    /// Marks verified contents of the S3 store used now (a push reuses them), so that the
    /// garbage collection leaves them for another `staged_content_seconds`; returns those
    /// still recorded. A content the sweep forgot meanwhile is not touched (nothing
    /// revives its record): it is not staged any more, and must be uploaded again. One
    /// transaction (one fsync) for them all.
    pub async fn touch_contents(&self, sha256s: &[String]) -> Result<Vec<String>> {
        if sha256s.is_empty() {
            return Ok(Vec::new());
        }
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        let now = now();
        let mut touched = Vec::with_capacity(sha256s.len());
        for sha256 in sha256s {
            let rows = sqlx::query("UPDATE staged_contents SET verified_at = $1 WHERE sha256 = $2")
                .bind(&now)
                .bind(sha256)
                .execute(&mut *tx)
                .await
                .map_err(query_error("touching a staged content"))?
                .rows_affected();
            if rows == 1 {
                touched.push(sha256.clone());
            }
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(touched)
    }

    /// When a verified content of the S3 store was last verified or reused.
    pub async fn content_used_at(&self, sha256: &str) -> Result<Option<String>> {
        sqlx::query_scalar("SELECT verified_at FROM staged_contents WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await
            .map_err(query_error("reading a staged content"))
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
