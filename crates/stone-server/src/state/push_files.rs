//! Issue 27: the files of a push created with `paged_files`, recorded batch by batch
//! (`push_files`), with what they declare all together (`push_file_totals`).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use futures::TryStreamExt;
use sqlx::Row;
use stone_api::{CreatePush, DatasetFiles, DatasetManifest, Engine, FolderListing, ManifestFile};

use super::{Backend, Result, StateDb, query_error};
use crate::engines::blob::{BlobEngine, ListingDigest};

/// Rows of one multi-row insert (5 parameters each: within SQLite's parameter limit).
const ROWS_PER_INSERT: usize = 1_000;

/// Files a dataset of a paged push has from which [`StateDb::unchanged_listings`] looks
/// at its head's digest.
const UNCHANGED_FROM_FILES: i64 = 1_000;

/// The size a batch of a push gave a content: a search of index `push_files_by_content`
/// (migration 0016; each pack's check asks it of every content it holds).
pub(super) const PAGED_FILE_SIZE: &str =
    "SELECT size FROM push_files WHERE push_id = $1 AND sha256 = $2 LIMIT 1";

/// Which of the contents listed in `$2` (a JSON array of `{"sha256": …}`) a push's batches
/// named: each looked up in `push_files_by_content`, the list outside (`CROSS JOIN`).
pub(super) fn paged_contents_sql(backend: Backend) -> String {
    format!(
        "{} SELECT DISTINCT f.sha256 FROM r CROSS JOIN push_files f
         WHERE f.push_id = $1 AND f.sha256 = r.sha256",
        super::json_rows(backend, "$2", &[("sha256", false)])
    )
}

/// What a push's batches declared, all together.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileTotals {
    /// Files recorded (a file sent again counts once).
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

impl StateDb {
    /// Records a batch of files (by dataset) for a push that is `staging`; a file already
    /// recorded (same dataset and path) keeps its first declaration. Returns the push's
    /// totals after the batch, or `None` if the push is not `staging` any more. One
    /// transaction.
    pub async fn record_files(
        &self,
        push_id: &str,
        batch: &[DatasetFiles],
    ) -> Result<Option<FileTotals>> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        // Locks the push row for the transaction: a commit accepted in between is seen.
        let staging =
            sqlx::query("UPDATE pushes SET updated_at = $1 WHERE id = $2 AND state = 'staging'")
                .bind(super::now())
                .bind(push_id)
                .execute(&mut *tx)
                .await
                .map_err(query_error("recording files"))?
                .rows_affected();
        if staging == 0 {
            return Ok(None);
        }
        let mut added = FileTotals::default();
        let rows: Vec<(&str, &ManifestFile)> = batch
            .iter()
            .flat_map(|d| d.files.iter().map(move |f| (d.name.as_str(), f)))
            .collect();
        // SQLite gets anonymous `?` parameters: sqlx asks SQLite for each parameter's name
        // as it binds it, and SQLite finds a numbered one (`$7`, `?7`) by walking the list
        // of them, so 5,000 numbered parameters cost 12.5 million steps a statement (16 %
        // of the server's time in an unchanged re-push of 100,000 one-file resources);
        // a `?` has no name and is bound in order.
        let row = |at: usize| match self.backend {
            Backend::Sqlite => "(?, ?, ?, ?, ?)".to_owned(),
            Backend::Postgres => format!(
                "(${}, ${}, ${}, ${}, ${})",
                at + 1,
                at + 2,
                at + 3,
                at + 4,
                at + 5
            ),
        };
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            let mut sql = String::from(
                "INSERT INTO push_files (push_id, dataset, path, sha256, size) VALUES ",
            );
            for i in 0..chunk.len() {
                if i > 0 {
                    sql.push(',');
                }
                sql.push_str(&row(i * 5));
            }
            sql.push_str(" ON CONFLICT (push_id, dataset, path) DO NOTHING RETURNING size");
            let mut query = sqlx::query(&sql);
            for (dataset, file) in chunk {
                query = query
                    .bind(push_id)
                    .bind(*dataset)
                    .bind(&file.path)
                    .bind(&file.sha256)
                    .bind(i64::try_from(file.size).unwrap_or(i64::MAX));
            }
            let inserted = query
                .fetch_all(&mut *tx)
                .await
                .map_err(query_error("recording files"))?;
            for row in inserted {
                added.files += 1;
                added.bytes = added
                    .bytes
                    .saturating_add(u64::try_from(row.get::<i64, _>("size")).unwrap_or(0));
            }
        }
        let totals: (i64, i64) = sqlx::query_as(
            "INSERT INTO push_file_totals (push_id, files, bytes) VALUES ($1, $2, $3)
             ON CONFLICT (push_id) DO UPDATE
                 SET files = push_file_totals.files + excluded.files,
                     bytes = push_file_totals.bytes + excluded.bytes
             RETURNING files, bytes",
        )
        .bind(push_id)
        .bind(i64::try_from(added.files).unwrap_or(i64::MAX))
        .bind(i64::try_from(added.bytes).unwrap_or(i64::MAX))
        .fetch_one(&mut *tx)
        .await
        .map_err(query_error("counting files"))?;
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(Some(FileTotals {
            files: u64::try_from(totals.0).unwrap_or(0),
            bytes: u64::try_from(totals.1).unwrap_or(0),
        }))
    }

    /// The size a batch of a push gave `sha256`, if one named it.
    pub async fn paged_file_size(&self, push_id: &str, sha256: &str) -> Result<Option<u64>> {
        let size: Option<i64> = sqlx::query_scalar(PAGED_FILE_SIZE)
            .bind(push_id)
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await
            .map_err(query_error("reading files"))?;
        Ok(size.map(|size| u64::try_from(size).unwrap_or(0)))
    }

    /// Which of `sha256s` the batches of a push named, in one statement (a pack's check
    /// asked [`Self::paged_file_size`] of each of its up to 1,000 contents: issue 56).
    pub async fn paged_contents_among(
        &self,
        push_id: &str,
        sha256s: &[String],
    ) -> Result<HashSet<String>> {
        if sha256s.is_empty() {
            return Ok(HashSet::new());
        }
        let listed = super::json_array(sha256s.iter().map(|s| serde_json::json!({ "sha256": s })));
        let found: Vec<String> = sqlx::query_scalar(&paged_contents_sql(self.backend))
            .bind(push_id)
            .bind(listed)
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading files"))?;
        Ok(found.into_iter().collect())
    }

    /// What the batches of a push declared so far.
    pub async fn file_totals(&self, push_id: &str) -> Result<FileTotals> {
        let totals: Option<(i64, i64)> =
            sqlx::query_as("SELECT files, bytes FROM push_file_totals WHERE push_id = $1")
                .bind(push_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(query_error("counting files"))?;
        let (files, bytes) = totals.unwrap_or_default();
        Ok(FileTotals {
            files: u64::try_from(files).unwrap_or(0),
            bytes: u64::try_from(bytes).unwrap_or(0),
        })
    }

    /// Forgets the batches of a push (its manifest was posted again: they are sent again).
    pub async fn forget_files(&self, push_id: &str) -> Result<()> {
        let mut tx = self.pool.begin().await.map_err(query_error("begin"))?;
        for table in ["push_files", "push_file_totals"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE push_id = $1"))
                .bind(push_id)
                .execute(&mut *tx)
                .await
                .map_err(query_error("forgetting files"))?;
        }
        tx.commit().await.map_err(query_error("commit"))?;
        Ok(())
    }

    /// The [`ListingDigest`] of the files the batches of a push recorded for `dataset`,
    /// read in path order (bytewise, as a head lists them) one row at a time: nothing of
    /// the listing is held.
    pub async fn paged_listing(&self, push_id: &str, dataset: &str) -> Result<ListingDigest> {
        let order = match self.backend {
            Backend::Sqlite => "path",
            // The column's collation may be the locale's: bytewise, as Rust orders strings.
            Backend::Postgres => "path COLLATE \"C\"",
        };
        let sql = format!(
            "SELECT path, sha256, size FROM push_files
             WHERE push_id = $1 AND dataset = $2 ORDER BY {order}"
        );
        let mut rows = sqlx::query(&sql)
            .bind(push_id)
            .bind(dataset)
            .fetch(&self.pool);
        let mut digest = ListingDigest::default();
        while let Some(row) = rows
            .try_next()
            .await
            .map_err(query_error("reading files"))?
        {
            let path: String = row.get("path");
            let sha256: String = row.get("sha256");
            let size = u64::try_from(row.get::<i64, _>("size")).unwrap_or(0);
            digest.add(&path, &sha256, size);
        }
        Ok(digest)
    }

    /// How many files the batches of a push recorded, by dataset.
    pub async fn paged_file_counts(&self, push_id: &str) -> Result<BTreeMap<String, u64>> {
        let counts: Vec<(String, i64)> = sqlx::query_as(
            "SELECT dataset, count(*) FROM push_files WHERE push_id = $1 GROUP BY dataset",
        )
        .bind(push_id)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("counting files"))?;
        Ok(counts
            .into_iter()
            .map(|(dataset, files)| (dataset, u64::try_from(files).unwrap_or(0)))
            .collect())
    }

    /// Up to `limit` files the batches of a push recorded for `dataset`, in path order
    /// (bytewise, as a head lists them), those after the path `after` (from the first
    /// without): a commit reads a folder of a million files page by page, and holds no
    /// connection between two pages. (On PostgreSQL the bytewise order cannot use the
    /// primary key's index: each page sorts the dataset's rows.)
    pub async fn paged_files_after(
        &self,
        push_id: &str,
        dataset: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<ManifestFile>> {
        let path = match self.backend {
            Backend::Sqlite => "path",
            Backend::Postgres => "path COLLATE \"C\"",
        };
        // Every path is longer than "" (a path is never empty).
        let sql = format!(
            "SELECT path, sha256, size FROM push_files
             WHERE push_id = $1 AND dataset = $2 AND {path} > $3 ORDER BY {path} LIMIT {limit}"
        );
        let rows = sqlx::query(&sql)
            .bind(push_id)
            .bind(dataset)
            .bind(after.unwrap_or(""))
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading files"))?;
        Ok(rows.iter().map(manifest_file).collect())
    }

    /// A page of the files of a push's batches across its datasets, in (dataset, path)
    /// order, after `after` (a dataset and a path, the last of the page before): a check of
    /// every file asks once per page, not once per dataset (a push of 100,000 one-file
    /// resources). The order is the database's own (its collation), which is all a walk
    /// through every row needs: the comparison and the order agree, and the primary key
    /// serves both.
    pub async fn paged_files_page(
        &self,
        push_id: &str,
        after: Option<(&str, &str)>,
        limit: usize,
    ) -> Result<Vec<(String, ManifestFile)>> {
        // Every dataset name is longer than "" (a name is never empty).
        let (dataset, path) = after.unwrap_or(("", ""));
        let sql = format!(
            "SELECT dataset, path, sha256, size FROM push_files
             WHERE push_id = $1 AND (dataset, path) > ($2, $3)
             ORDER BY dataset, path LIMIT {limit}"
        );
        let rows = sqlx::query(&sql)
            .bind(push_id)
            .bind(dataset)
            .bind(path)
            .fetch_all(&self.pool)
            .await
            .map_err(query_error("reading files"))?;
        Ok(rows
            .iter()
            .map(|row| (row.get("dataset"), manifest_file(row)))
            .collect())
    }

    /// Records the distinct contents of a push's batches, but those of the datasets
    /// `skip` names, as what the push commits ([`StateDb::record_push_contents`]), in one
    /// statement: nothing of them is held.
    pub async fn record_paged_contents(&self, push_id: &str, skip: &[&str]) -> Result<()> {
        let skipped = names_cte(self.backend, "s", "$2");
        sqlx::query(&format!(
            "WITH {skipped} INSERT INTO push_contents (push_id, sha256)
             SELECT DISTINCT $1, f.sha256 FROM push_files f
             WHERE f.push_id = $1 AND f.dataset NOT IN (SELECT name FROM s)
             ON CONFLICT (push_id, sha256) DO NOTHING"
        ))
        .bind(push_id)
        .bind(super::json(&skip))
        .execute(&self.pool)
        .await
        .map_err(query_error("recording a push's contents"))?;
        Ok(())
    }

    /// Issue 27: the object-storage datasets of a `paged_files` push (those `wanted` says,
    /// of at least [`UNCHANGED_FROM_FILES`] files) whose files, as its batches recorded
    /// them, are exactly what their head lists now (same [`ListingDigest`], read from the
    /// head's first bytes): a commit writes nothing for them and needs neither their files
    /// nor their contents, whether the push adds or replaces. By name, with their totals.
    /// A dataset whose head has no digest or cannot be read is not one of them (its write
    /// then goes the full way, which reports what is wrong). A dataset no batch named
    /// whose declared listing ([`declared_listings`]) is its head's is one of them too,
    /// with the declared totals (the client was told at creation it need not send its
    /// files).
    pub async fn unchanged_listings(
        &self,
        blob: &BlobEngine,
        push_id: &str,
        manifest: &CreatePush,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<BTreeMap<String, FileTotals>> {
        let mut unchanged = BTreeMap::new();
        if !manifest.paged_files {
            return Ok(unchanged);
        }
        // Only big datasets: a small one costs little the full way, and a push of 100,000
        // one-file datasets must not read 100,000 heads for it.
        let counts: Vec<(String, i64)> = sqlx::query_as(
            "SELECT dataset, count(*) FROM push_files WHERE push_id = $1 GROUP BY dataset",
        )
        .bind(push_id)
        .fetch_all(&self.pool)
        .await
        .map_err(query_error("counting files"))?;
        let sent: HashSet<&str> = counts.iter().map(|(name, _)| name.as_str()).collect();
        let big: BTreeSet<&str> = counts
            .iter()
            .filter(|(_, files)| *files >= UNCHANGED_FROM_FILES)
            .map(|(dataset, _)| dataset.as_str())
            .collect();
        let (ns, branch) = (&manifest.namespace, &manifest.branch);
        // Datasets whose files were not sent because their declared listing was their
        // head's when the push was created: unchanged if it still is.
        let declared =
            heads_declared(blob, manifest, |name| !sent.contains(name) && wanted(name)).await;
        for (dataset, listing) in declared {
            let totals = FileTotals {
                files: listing.files,
                bytes: listing.bytes,
            };
            unchanged.insert(dataset.name.clone(), totals);
        }
        for dataset in &manifest.datasets {
            if dataset.kind.engine() != Engine::ObjectStorage
                || !big.contains(dataset.name.as_str())
                || !wanted(&dataset.name)
            {
                continue;
            }
            let Ok(Some(head)) = blob.head_listing(ns, &dataset.name, branch).await else {
                continue;
            };
            let listing = self.paged_listing(push_id, &dataset.name).await?;
            let totals = FileTotals {
                files: listing.files(),
                bytes: listing.bytes(),
            };
            if totals.files > 0 && listing.finish() == head {
                unchanged.insert(dataset.name.clone(), totals);
            }
        }
        Ok(unchanged)
    }

    /// Puts the files recorded in batches into the datasets of a `paged_files` manifest
    /// (in path order), for what reads a push's files: the commit and its runner. A
    /// manifest without `paged_files` is left as it is.
    pub async fn fill_paged_files(&self, push_id: &str, manifest: &mut CreatePush) -> Result<()> {
        self.fill_paged_files_except(push_id, manifest, &BTreeMap::<String, ()>::new())
            .await
    }

    /// [`Self::fill_paged_files`], except the datasets of `skip` (left without files):
    /// those [`Self::unchanged_listings`] found.
    pub async fn fill_paged_files_except<T>(
        &self,
        push_id: &str,
        manifest: &mut CreatePush,
        skip: &BTreeMap<String, T>,
    ) -> Result<()> {
        if !manifest.paged_files {
            return Ok(());
        }
        // One query for the whole push, in (dataset, path) order (the primary key's), each
        // row put in its dataset as it comes: a push of 100,000 one-file datasets cost
        // 100,000 queries here (one per dataset), twice per commit (route and job).
        let at: std::collections::HashMap<&str, usize> = manifest
            .datasets
            .iter()
            .enumerate()
            .filter(|(_, d)| !skip.contains_key(&d.name))
            .map(|(i, d)| (d.name.as_str(), i))
            .collect();
        let mut files: Vec<Vec<ManifestFile>> = vec![Vec::new(); manifest.datasets.len()];
        {
            let mut rows = sqlx::query(
                "SELECT dataset, path, sha256, size FROM push_files
                 WHERE push_id = $1 ORDER BY dataset, path",
            )
            .bind(push_id)
            .fetch(&self.pool);
            while let Some(row) = rows
                .try_next()
                .await
                .map_err(query_error("reading files"))?
            {
                let dataset: String = row.get("dataset");
                let Some(&i) = at.get(dataset.as_str()) else {
                    continue;
                };
                files[i].push(manifest_file(&row));
            }
        }
        drop(at);
        for (dataset, files) in manifest.datasets.iter_mut().zip(files) {
            if !skip.contains_key(&dataset.name) {
                dataset.files = files;
            }
        }
        Ok(())
    }

    /// The contents named by the batches of live pushes (`staging`, `committing`,
    /// `failed`): the garbage collection keeps them.
    pub async fn paged_live_contents(&self) -> Result<BTreeSet<String>> {
        // Streamed into the set: the rows of a million files are never all held besides it.
        let mut rows = sqlx::query_scalar::<_, String>(
            "SELECT DISTINCT f.sha256 FROM push_files f JOIN pushes p ON p.id = f.push_id
             WHERE p.state IN ('staging', 'committing', 'failed')",
        )
        .fetch(&self.pool);
        let mut contents = BTreeSet::new();
        while let Some(sha256) = rows
            .try_next()
            .await
            .map_err(query_error("reading live files"))?
        {
            contents.insert(sha256);
        }
        Ok(contents)
    }
}

/// The datasets of a `paged_files` manifest whose files the server may find unchanged
/// from their declared listing alone (`DatasetManifest::listing`): the object-storage
/// ones, whether of one file or a million (a push names at most `limits.max_datasets`).
pub fn declared_listings(
    manifest: &CreatePush,
) -> impl Iterator<Item = (&DatasetManifest, &FolderListing)> {
    manifest
        .datasets
        .iter()
        .filter(|_| manifest.paged_files)
        .filter_map(|d| d.listing.as_ref().map(|listing| (d, listing)))
        .filter(|(d, _)| d.kind.engine() == Engine::ObjectStorage)
}

/// The [`declared_listings`] of the datasets `wanted` names whose head has that listing
/// now, in manifest order (their heads read together: [`BlobEngine::heads_match`]). A
/// head that cannot be read is not one of them: its files are asked for.
pub async fn heads_declared<'m>(
    blob: &BlobEngine,
    manifest: &'m CreatePush,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(&'m DatasetManifest, &'m FolderListing)> {
    let declared: Vec<_> = declared_listings(manifest)
        .filter(|(dataset, _)| wanted(&dataset.name))
        .collect();
    let asked: Vec<(&str, &str)> = declared
        .iter()
        .map(|(dataset, listing)| (dataset.name.as_str(), listing.sha256.as_str()))
        .collect();
    let same = blob
        .heads_match(&manifest.namespace, &manifest.branch, &asked)
        .await;
    declared
        .into_iter()
        .zip(same)
        .filter_map(|(declared, same)| same.then_some(declared))
        .collect()
}

/// A `push_files` row's file (`path`, `sha256`, `size`).
fn manifest_file(row: &sqlx::any::AnyRow) -> ManifestFile {
    ManifestFile {
        path: row.get("path"),
        sha256: row.get("sha256"),
        size: u64::try_from(row.get::<i64, _>("size")).unwrap_or(0),
    }
}

/// `{table} AS MATERIALIZED (SELECT … AS name …)`: the strings of the JSON array bound at
/// `param` as rows of one column `name`, for a `WITH` clause.
pub(super) fn names_cte(backend: Backend, table: &str, param: &str) -> String {
    match backend {
        Backend::Sqlite => {
            format!("{table} AS MATERIALIZED (SELECT j.value AS name FROM json_each({param}) AS j)")
        }
        Backend::Postgres => format!(
            "{table} AS MATERIALIZED (SELECT j.value AS name FROM jsonb_array_elements_text({param}::jsonb) AS j(value))"
        ),
    }
}
