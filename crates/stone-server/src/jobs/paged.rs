//! Issue 27: the commit of a big folder of a paged push (an object-storage dataset of at
//! least [`PAGED_FROM_FILES`] files recorded in batches) without its files in memory:
//! they are read from the state database a page at a time, in path order, their contents
//! looked up in staging and stored page by page, and the head written by merging
//! ([`crate::engines::blob::PagedPut`]); the state database's record of the head's
//! contents is built by the database from the same rows ([`HeadUpdate::Paged`]). A
//! crash leaves the old head or the new one (the head moves in one step, last), and the
//! dataset `writing` with its checkpoint: the rerun does the same put again, which
//! finds the objects there.

use std::collections::BTreeMap;

use stone_api::ManifestFile;

use super::*;
use crate::state::FileTotals;

/// Files of a dataset of a paged push from which its commit goes page by page (a batch
/// of the push API).
pub(super) const PAGED_FROM_FILES: u64 = 10_000;

/// Files read from the state database, looked up and stored at once.
const PAGE_FILES: usize = 10_000;

impl JobRunner {
    /// The object-storage datasets of `push` to write page by page: those of a paged push
    /// with at least [`PAGED_FROM_FILES`] files, still to write, not found `unchanged`.
    /// None with `[retention]` (a write then records what it retires from the whole
    /// heads before and after).
    pub(super) async fn paged_datasets(
        &self,
        push: &PushRecord,
        datasets: &[DatasetRecord],
        unchanged: &BTreeMap<String, FileTotals>,
    ) -> anyhow::Result<BTreeMap<String, ()>> {
        let mut paged = BTreeMap::new();
        if !push.manifest.paged_files || self.retention.is_some() {
            return Ok(paged);
        }
        let counts = self.db.paged_file_counts(&push.id).await?;
        for manifest in &push.manifest.datasets {
            let name = manifest.name.as_str();
            let wanted = manifest.kind.engine() == Engine::ObjectStorage
                && !unchanged.contains_key(name)
                && counts.get(name).is_some_and(|n| *n >= PAGED_FROM_FILES)
                && datasets.iter().any(|d| {
                    d.name == name
                        && d.operation == Operation::Write
                        && d.state != DatasetState::Done
                });
            if wanted {
                paged.insert(name.to_owned(), ());
            }
        }
        Ok(paged)
    }

    /// Writes the datasets of `paged` one by one: checkpoint, `writing`, the put page by
    /// page, the outcome. `Ok(false)`: stopped (shutdown, lost lease) between two.
    pub(super) async fn commit_paged(
        &self,
        push: &PushRecord,
        datasets: &[DatasetRecord],
        paged: &BTreeMap<String, ()>,
        writes_failed: &mut bool,
        lost: &AtomicBool,
    ) -> anyhow::Result<bool> {
        for name in paged.keys() {
            if self.halted(lost) {
                return Ok(false);
            }
            let (Some(record), Some(manifest)) = (
                datasets.iter().find(|d| &d.name == name),
                push.manifest.datasets.iter().find(|d| &d.name == name),
            ) else {
                continue;
            };
            // Whether the head exists, without reading it.
            let checkpoints = self.blob_checkpoints(push, &[(record, manifest)]).await;
            let (ready, outcomes) = self.mark_writing(&push.id, checkpoints).await?;
            self.record(push, &outcomes, writes_failed).await?;
            for (record, manifest, checkpoint) in &ready {
                let written = self.write_paged(push, record, manifest, checkpoint).await?;
                let outcome = outcome_of(&push.id, record, written, false);
                self.record(push, &[outcome], writes_failed).await?;
            }
        }
        Ok(true)
    }

    /// [`Self::write`] of an object-storage dataset page by page. The outer error is the
    /// state database; the inner one the dataset's failure.
    async fn write_paged(
        &self,
        push: &PushRecord,
        record: &DatasetRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
    ) -> anyhow::Result<Written> {
        let (ns, name, branch) = (
            push.namespace.as_str(),
            manifest.name.as_str(),
            push.branch.as_str(),
        );
        let replace = push.manifest.options.replace;
        let resumed = record.state == DatasetState::Writing;
        // Without force, a version that names other files stops the put before it writes
        // its head (the guard at POST /pushes saw an earlier state).
        let keep = push
            .manifest
            .package
            .version
            .as_deref()
            .filter(|_| !forced(push));
        let started = Instant::now();
        let mut put = match self.engines.blob.begin_paged(ns, name, branch, keep).await {
            Ok(put) => put,
            Err(error) => return Ok(Err(blob_problem(name, &error))),
        };
        let mut after: Option<String> = None;
        let mut pages = 0u64;
        loop {
            let page = self
                .db
                .paged_files_after(&push.id, name, after.as_deref(), PAGE_FILES)
                .await?;
            let Some(last) = page.last() else {
                break;
            };
            after = Some(last.path.clone());
            let (files, sources, held) = match self.page_contents(name, page).await {
                Ok(found) => found,
                Err(problem) => return Ok(Err(problem)),
            };
            if let Err(error) = put.add_page(files, &sources).await {
                return Ok(Err(blob_problem(name, &error)));
            }
            // Downloaded copies (a staging store that is not local) go with their page.
            drop(held);
            pages += 1;
        }
        let outcome = put.finish(replace).await;
        tracing::info!(push = %push.id, dataset = %name, pages, elapsed_ms = started.elapsed().as_millis() as u64, "paged put done");
        let (status, detail) = match self
            .blob_finish(push, manifest, checkpoint, resumed, outcome)
            .await
        {
            Ok(finished) => finished,
            Err(problem) => return Ok(Err(problem)),
        };
        self.test_pause(&push.id, name).await;
        let head = HeadUpdate::Paged {
            kind: manifest.kind,
            merge: !replace,
        };
        Ok(Ok((status, detail, head)))
    }

    /// The files of one page as the engine takes them: where each content is staged (or,
    /// in `sources`, the staging key the engine copies it from), and the downloaded copies
    /// to keep until the page is stored.
    async fn page_contents(
        &self,
        name: &str,
        page: Vec<ManifestFile>,
    ) -> Result<(Vec<BlobFile>, HashMap<String, String>, Vec<LocalContent>), Problem> {
        // A paged push's contents are all staged (no batch uploads straight to a dataset).
        let sources = self.copy_sources(name, &page, None).await?;
        let mut wanted: Vec<(&str, u64)> = page
            .iter()
            .filter(|f| !sources.contains_key(&f.sha256))
            .map(|f| (f.sha256.as_str(), f.size))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut local: HashMap<&str, LocalContent> = HashMap::with_capacity(wanted.len());
        if let Some(found) = self.staging.local_files_in_place(&wanted).await {
            let found = found.map_err(|error| staging_problem(name, error))?;
            for ((sha256, _), content) in wanted.iter().zip(found) {
                if let Some(content) = content {
                    local.insert(*sha256, content);
                }
            }
        }
        // What is not in place: one by one (a download, or the staging store's error).
        for (sha256, size) in &wanted {
            if local.contains_key(sha256) {
                continue;
            }
            let content = self
                .staging
                .local_file(sha256, *size)
                .await
                .map_err(|error| staging_problem(name, error))?;
            local.insert(*sha256, content);
        }
        let files = page
            .iter()
            .map(|file| BlobFile {
                path: file.path.clone(),
                local: local
                    .get(file.sha256.as_str())
                    .map(|content| content.path.clone())
                    .unwrap_or_default(),
                sha256: file.sha256.clone(),
                size: file.size,
                // Staged contents are verified on receipt (local) or on download (S3).
                verified: true,
            })
            .collect();
        let held = local.into_values().collect();
        Ok((files, sources, held))
    }
}
