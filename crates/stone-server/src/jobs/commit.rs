//! One push's commit: checkpoints, per-kind writes, deletions, the final state and the
//! package node.

use super::*;

/// Unchanged datasets whose outcomes are recorded in one transaction.
const UNCHANGED_RECORDED: usize = 2_000;

impl JobRunner {
    /// Runs a push to its end. `Ok(false)`: parked for shutdown, or the lease was lost.
    pub(super) async fn commit(&self, id: &str, lost: &AtomicBool) -> anyhow::Result<bool> {
        let Some(mut push) = self.db.push(id).await? else {
            return Ok(true);
        };
        let Some(crashes) = self.db.count_commit_start(id, &self.owner).await? else {
            // The lease went to another runner already.
            return Ok(false);
        };
        if crashes >= i64::from(self.max_crashes) {
            self.fail_crashed(&push, crashes).await?;
            return Ok(true);
        }
        tracing::info!(push = %id, namespace = %push.namespace, branch = %push.branch, crashes, "commit started");
        let datasets = self.db.datasets(id).await?;
        // Issue 27: the files of a paged push, recorded in batches, except those of the
        // object-storage datasets whose listing is their head's: those are recorded
        // unchanged here, without their files being read or their head rewritten (an
        // unchanged folder of a million files costs a scan of its rows and one small
        // read). Only datasets not started: a rerun finishes a started one the full way,
        // whose checkpoint tells what the first attempt did.
        let not_started: HashSet<&str> = datasets
            .iter()
            .filter(|d| d.operation == Operation::Write && d.state == DatasetState::Pending)
            .map(|d| d.name.as_str())
            .collect();
        let unchanged = self
            .db
            .unchanged_listings(&self.engines.blob, id, &push.manifest, |name| {
                not_started.contains(name)
            })
            .await?;
        // The big folders that did change are written page by page, their files never
        // read into the manifest (`paged.rs`).
        let paged = self.paged_datasets(&push, &datasets, &unchanged).await?;
        // Folders whose files were not sent (their declared listing was their head's) and
        // whose head changed since the commit was accepted: failed, never written empty.
        let stale = self.stale_declared(&push, &datasets, &unchanged).await?;
        let mut writes_failed = false;
        let mut skip = paged.clone();
        skip.extend(unchanged.keys().map(|name| (name.clone(), ())));
        skip.extend(stale.iter().filter_map(|outcome| match outcome {
            WriteOutcome::Failed { name, .. } => Some((name.clone(), ())),
            WriteOutcome::Done { .. } => None,
        }));
        if !stale.is_empty() {
            self.record(&push, &stale, &mut writes_failed).await?;
        }
        self.db
            .fill_paged_files_except(id, &mut push.manifest, &skip)
            .await?;
        let manifests: HashMap<&str, &DatasetManifest> = push
            .manifest
            .datasets
            .iter()
            .map(|d| (d.name.as_str(), d))
            .collect();
        if !unchanged.is_empty() {
            // Recorded a slice at a time: 100,000 unchanged one-file datasets (an unchanged
            // re-push) are not one vector of outcomes and one statement's JSON.
            let records: HashMap<&str, &DatasetRecord> =
                datasets.iter().map(|d| (d.name.as_str(), d)).collect();
            let unchanged: Vec<(&String, &crate::state::FileTotals)> = unchanged.iter().collect();
            tracing::info!(push = %id, datasets = unchanged.len(), "listings unchanged: nothing to write for them");
            for slice in unchanged.chunks(UNCHANGED_RECORDED) {
                let outcomes = self
                    .unchanged_outcomes(&push, &records, &manifests, slice)
                    .await;
                self.record(&push, &outcomes, &mut writes_failed).await?;
            }
        }
        if !paged.is_empty()
            && !self
                .commit_paged(&push, &datasets, &paged, &mut writes_failed, lost)
                .await?
        {
            return Ok(false);
        }
        let pending: Vec<(&DatasetRecord, &DatasetManifest)> = datasets
            .iter()
            .filter(|d| d.operation == Operation::Write && d.state != DatasetState::Done)
            .filter(|d| !skip.contains_key(&d.name))
            .filter_map(|d| manifests.get(d.name.as_str()).map(|m| (d, *m)))
            .collect();
        // Object-storage datasets go in batches: the checkpoints of a batch are recorded in
        // one transaction before any of its engine writes, and the outcomes in another after
        // them (one fsync each instead of three per dataset), and several write at once
        // (distinct datasets are independent and mostly wait on the store). A crash in
        // between leaves the batch `writing` with its checkpoints, which tell the rerun what
        // the writes did. Tables and graphs go one by one, as slow writes recorded one by one.
        fn is_blob(manifest: &DatasetManifest) -> bool {
            manifest.kind.engine() == Engine::ObjectStorage
        }
        // With local staging, a run of object-storage batches is pipelined: the file work
        // of one batch overlaps the state database's work of the batches before and after
        // it (see `commit_blob_run`).
        // (Not with `[retention]`: a blob write then records what it retires and may expire
        // older contents, dataset by dataset: see `retire`.)
        let pipelined = self.staging.kind() == StagingStoreKind::Local && self.retention.is_none();
        // Graphs go in runs too: the small new ones of a batch are loaded together
        // (`graph_batch.rs`), the others one by one.
        fn is_graph(manifest: &DatasetManifest) -> bool {
            manifest.kind.engine() == Engine::Graph
        }
        let runs: Vec<(bool, Vec<&[Pending<'_>]>)> = pending
            .chunk_by(|a, b| (is_blob(a.1) && is_blob(b.1)) || (is_graph(a.1) && is_graph(b.1)))
            .map(|run| {
                let batches = if is_graph(run[0].1) {
                    super::graph_batch::graph_batches(run)
                } else {
                    run.chunks(COMMIT_BATCH).collect()
                };
                (is_blob(run[0].1), batches)
            })
            .collect();
        // Whether a write of this run failed (a dataset that failed in an earlier run is
        // pending again): deletes are then skipped.
        for (blob, batches) in runs {
            if blob && pipelined {
                if !self
                    .commit_blob_run(&push, &batches, &mut writes_failed, lost)
                    .await?
                {
                    return Ok(false);
                }
                continue;
            }
            for batch in batches {
                if self.halted(lost) {
                    return Ok(false);
                }
                let blob = is_blob(batch[0].1);
                let concurrency = if blob { BLOB_WRITES } else { 1 };
                let push = &push;
                let started = Instant::now();
                let checkpoints = if blob {
                    self.blob_checkpoints(push, batch).await
                } else if batch.iter().all(|(_, manifest)| is_graph(manifest)) {
                    self.graph_checkpoints(push, batch).await
                } else {
                    // Futures are collected first (plain iterator): a stream combinator's
                    // closure over references would make the commit future not `Send` for
                    // every lifetime.
                    let checkpointing: Vec<_> = batch
                        .iter()
                        .map(|(record, manifest)| self.checkpoint_of(push, record, manifest))
                        .collect();
                    stream::iter(checkpointing)
                        .buffered(concurrency)
                        .collect()
                        .await
                };
                let checkpointed = started.elapsed();
                let (ready, mut outcomes) = self.mark_writing(id, checkpoints).await?;
                let marked = started.elapsed();
                // Small graphs together (issue 56), then the rest one by one.
                let (graphs, rest) = if blob {
                    (Vec::new(), ready.iter().collect())
                } else {
                    Self::split_graphs(push, &ready)
                };
                let mut written = 0;
                if !graphs.is_empty() {
                    for (record, outcome) in self.write_graphs(push, &graphs).await? {
                        written += 1;
                        outcomes.push(outcome_of(id, record, outcome?, false));
                    }
                    if written < graphs.len() {
                        self.record(push, &outcomes, &mut writes_failed).await?;
                        return Ok(false);
                    }
                }
                // No write starts once the server is stopping; those under way finish.
                let writing: Vec<_> = rest
                    .into_iter()
                    .map(|(record, manifest, checkpoint)| {
                        self.write_unless_stopping(push, record, manifest, checkpoint)
                    })
                    .collect();
                let mut writes = stream::iter(writing).buffered(concurrency);
                let mut recorded = Instant::now();
                while let Some(next) = writes.next().await {
                    let Some((record, outcome)) = next else {
                        continue;
                    };
                    written += 1;
                    outcomes.push(outcome_of(id, record, outcome?, false));
                    // Slow writes (tables, graphs) still show up one by one in the progress.
                    if recorded.elapsed() >= COMMIT_RECORD_EVERY {
                        self.record(push, &outcomes, &mut writes_failed).await?;
                        outcomes.clear();
                        recorded = Instant::now();
                    }
                }
                drop(writes);
                let wrote = started.elapsed();
                self.record(push, &outcomes, &mut writes_failed).await?;
                tracing::debug!(
                    push = %id,
                    datasets = batch.len(),
                    checkpoints_ms = checkpointed.as_millis(),
                    mark_ms = (marked - checkpointed).as_millis(),
                    writes_ms = (wrote - marked).as_millis(),
                    record_ms = (started.elapsed() - wrote).as_millis(),
                    "batch committed"
                );
                if written < ready.len() {
                    return Ok(false);
                }
            }
        }
        for record in datasets.iter().filter(|d| d.operation == Operation::Delete) {
            if record.state == DatasetState::Done {
                continue;
            }
            if self.halted(lost) {
                return Ok(false);
            }
            if writes_failed {
                let problem = Problem::new(409, codes::PUSH_SKIPPED, "Skipped")
                    .with_detail("not deleted, because a dataset of the push failed")
                    .with("dataset", &record.name);
                self.db.dataset_failed(id, &record.name, &problem).await?;
                continue;
            }
            match self.delete(&push, record).await {
                Ok(existed) => {
                    let detail = DatasetDetail::default();
                    let _ = existed;
                    self.db
                        .dataset_done(
                            &push,
                            &record.name,
                            DatasetStatus::Deleted,
                            &detail,
                            Some(HeadUpdate::Delete),
                        )
                        .await?;
                }
                Err(problem) => self.db.dataset_failed(id, &record.name, &problem).await?,
            }
        }
        if lost.load(Ordering::SeqCst) {
            return Ok(false);
        }
        self.finish(&push).await?;
        Ok(true)
    }

    /// The outcomes of the datasets whose listing is their head's
    /// ([`StateDb::unchanged_listings`]): unchanged, with the version the push names
    /// recorded as for any put (a version that names other files fails without force).
    async fn unchanged_outcomes(
        &self,
        push: &PushRecord,
        records: &HashMap<&str, &DatasetRecord>,
        manifests: &HashMap<&str, &DatasetManifest>,
        unchanged: &[(&String, &crate::state::FileTotals)],
    ) -> Vec<WriteOutcome> {
        let mut outcomes = Vec::new();
        for &(name, totals) in unchanged {
            let (Some(record), Some(manifest)) = (
                records.get(name.as_str()).copied(),
                manifests.get(name.as_str()).copied(),
            ) else {
                continue;
            };
            let outcome = BlobOutcome {
                status: BlobStatus::Unchanged,
                files: totals.files,
                bytes: totals.bytes,
                uploaded_files: 0,
                uploaded_bytes: 0,
            };
            tracing::debug!(push = %push.id, dataset = %name, files = totals.files, "listing unchanged: nothing to write");
            let checkpoint = json!({"exists": true});
            let finished = self
                .blob_finish(push, manifest, &checkpoint, false, Ok(outcome))
                .await;
            // The head keeps its contents: the state database's record of them too.
            let outcome = match finished {
                Ok((status, detail)) => WriteOutcome::Done {
                    name: record.name.clone(),
                    status,
                    detail,
                    head: None,
                },
                Err(problem) => WriteOutcome::Failed {
                    name: record.name.clone(),
                    problem,
                },
            };
            outcomes.push(outcome);
        }
        outcomes
    }

    /// Issue 27: the datasets of a paged push still to write whose files no batch named
    /// (the client was told their declared listing was their head's) and that are not
    /// `unchanged` now: the head moved between the commit's acceptance and this run. They
    /// fail (409 `push.incomplete`), instead of being written without files.
    async fn stale_declared(
        &self,
        push: &PushRecord,
        datasets: &[DatasetRecord],
        unchanged: &std::collections::BTreeMap<String, crate::state::FileTotals>,
    ) -> anyhow::Result<Vec<WriteOutcome>> {
        let to_write: HashSet<&str> = datasets
            .iter()
            .filter(|d| d.operation == Operation::Write && d.state != DatasetState::Done)
            .map(|d| d.name.as_str())
            .collect();
        let declared: Vec<&str> = crate::state::declared_listings(&push.manifest)
            .map(|(d, _)| d.name.as_str())
            .filter(|name| !unchanged.contains_key(*name) && to_write.contains(name))
            .collect();
        if declared.is_empty() {
            return Ok(Vec::new());
        }
        let counts = self.db.paged_file_counts(&push.id).await?;
        Ok(declared
            .into_iter()
            .filter(|name| counts.get(*name).is_none_or(|n| *n == 0))
            .map(|name| {
                tracing::warn!(push = %push.id, dataset = %name, "declared listing no longer the head's and no files sent: failed");
                WriteOutcome::Failed {
                    name: name.to_owned(),
                    problem: Problem::new(409, codes::PUSH_INCOMPLETE, "Content is missing")
                        .with_detail(format!(
                            "dataset {name} changed on the server after this push was created, and its files were not sent (they were unchanged then): push again"
                        ))
                        .with("dataset", name),
                }
            })
            .collect())
    }

    /// Records finished writes; `failed` becomes true when one of them failed.
    pub(super) async fn record(
        &self,
        push: &PushRecord,
        outcomes: &[WriteOutcome],
        failed: &mut bool,
    ) -> anyhow::Result<()> {
        *failed |= any_failed(outcomes);
        self.db.datasets_finished(push, outcomes).await?;
        Ok(())
    }

    /// A dataset's checkpoint: the recorded one, or the engine's state now.
    pub(super) async fn checkpoint_of<'a>(
        &self,
        push: &PushRecord,
        record: &'a DatasetRecord,
        manifest: &'a DatasetManifest,
    ) -> Checkpointed<'a> {
        let checkpoint = match &record.checkpoint {
            Some(checkpoint) => Ok(checkpoint.clone()),
            None => {
                let mut waiting = StoreWait::new(self.dependency_retry);
                loop {
                    let checkpoint = self
                        .checkpoint(manifest.kind, &push.namespace, &manifest.name, &push.branch)
                        .await;
                    if matches!(&checkpoint, Err(problem) if unavailable(problem))
                        && waiting.again(self, push, &manifest.name).await
                    {
                        continue;
                    }
                    break checkpoint;
                }
            }
        };
        (record, manifest, checkpoint)
    }

    /// [`Self::write`], unless the server is stopping when its turn comes (`None`).
    pub(super) async fn write_unless_stopping<'a>(
        &self,
        push: &PushRecord,
        record: &'a DatasetRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
    ) -> Option<(&'a DatasetRecord, anyhow::Result<Written>)> {
        if self.stopping() {
            return None;
        }
        // A store the write depends on that does not answer is waited for (issue 54).
        // Each try after the first is a resumed write (its checkpoint tells what an
        // earlier try did), as after a crash.
        let retried = DatasetRecord {
            state: DatasetState::Writing,
            ..record.clone()
        };
        let mut waiting = StoreWait::new(self.dependency_retry);
        let mut attempt = record;
        let written = loop {
            let write = self.write(push, attempt, manifest, checkpoint);
            let written = super::stall::watched(write, super::stall::STALL_LOG_EVERY, |so_far| {
                tracing::warn!(
                    push = %push.id,
                    dataset = %manifest.name,
                    kind = ?manifest.kind,
                    seconds = so_far.as_secs(),
                    "a dataset write has not finished yet: a store it depends on (S3, the \
                     database, the disk) may be stalled"
                )
            })
            .await;
            if matches!(&written, Ok(Err(problem)) if unavailable(problem))
                && waiting.again(self, push, &manifest.name).await
            {
                attempt = &retried;
                continue;
            }
            break written;
        };
        Some((record, written))
    }

    /// Final state, summary and package node.
    pub(super) async fn finish(&self, push: &PushRecord) -> anyhow::Result<()> {
        let datasets = self.db.dataset_states(&push.id).await?;
        let mut counts = ResultCounts::default();
        let mut iris = Vec::new();
        for (name, state, status) in &datasets {
            match (*state, *status) {
                (DatasetState::Failed, _) => counts.failed += 1,
                (_, Some(status)) => {
                    match status {
                        DatasetStatus::Created => counts.created += 1,
                        DatasetStatus::Appended => counts.appended += 1,
                        DatasetStatus::Replaced => counts.replaced += 1,
                        DatasetStatus::Unchanged => counts.unchanged += 1,
                        DatasetStatus::Deleted => counts.deleted += 1,
                        DatasetStatus::Unknown => {}
                    }
                    if status != DatasetStatus::Deleted {
                        iris.push(dataset_urls(&self.public_host, &push.namespace, name).1);
                    }
                }
                _ => {}
            }
        }
        let result = PushReport {
            finished_at: now(),
            counts,
            iris,
        };
        if counts.failed > 0 {
            self.db
                .finish_push(&push.id, PushState::Failed, None, &result, None)
                .await?;
            tracing::info!(push = %push.id, failed = counts.failed, "commit failed");
            return Ok(());
        }
        let node = package_node(&self.public_host, &push.id, &push.manifest);
        let status = self
            .db
            .finish_push(&push.id, PushState::Succeeded, Some(&node), &result, None)
            .await?;
        tracing::info!(push = %push.id, node = ?status, "commit succeeded");
        Ok(())
    }

    /// Where each of `files`' contents can be copied from server-side, by sha256: the S3
    /// staging store's key, when the blob engine copies from it (issue 24) and the store
    /// vouches for the content; the others are absent. With `in_place` (namespace, branch,
    /// the push's `created_at`), a content that is not staged may be in the dataset's own
    /// object already, where the caller uploaded it straight
    /// (`routes::push_uploads::direct_targets`): its source is then that object's own key,
    /// which the engine finds holding it and copies nothing, if the push may rely on it
    /// (`straight.rs`).
    pub(super) async fn copy_sources(
        &self,
        dataset: &str,
        files: &[stone_api::ManifestFile],
        in_place: Option<(&str, &str, &str)>,
    ) -> Result<HashMap<String, String>, Problem> {
        let mut sources = HashMap::new();
        if !self.engines.blob_copies_from_staging {
            return Ok(sources);
        }
        let reliance = in_place.map(|(_, _, created_at)| {
            Reliance::of_record(
                self.staging.as_ref(),
                &self.engines.blob,
                created_at,
                self.clock_margin,
            )
        });
        for file in files {
            if sources.contains_key(&file.sha256) {
                continue;
            }
            let source = match self.staging.copy_source(&file.sha256, file.size).await {
                Err(StagingError::NotStaged { .. })
                    if let (Some(in_place), Some(reliance)) = (in_place, &reliance) =>
                {
                    let (ns, branch, _) = in_place;
                    self.in_place(dataset, file, (ns, branch), reliance).await
                }
                source => source,
            }
            .map_err(|error| staging_problem(dataset, error))?;
            if let Some(key) = source {
                sources.insert(file.sha256.clone(), key);
            }
        }
        Ok(sources)
    }

    /// The key of the dataset's object of a content that is not staged, when that object
    /// holds it and the push may rely on it (see [`Self::copy_sources`], `straight.rs`);
    /// otherwise the content is not staged.
    async fn in_place(
        &self,
        dataset: &str,
        file: &stone_api::ManifestFile,
        (ns, branch): (&str, &str),
        reliance: &Reliance<'_>,
    ) -> Result<Option<String>, StagingError> {
        let not_staged = || StagingError::NotStaged {
            sha256: file.sha256.clone(),
        };
        let key = self
            .engines
            .blob
            .object_key(ns, dataset, branch, &file.sha256)
            .map_err(|_| not_staged())?;
        if reliance.holds(&key, &file.sha256, file.size).await? {
            tracing::debug!(sha256 = %file.sha256, size = file.size, %key, "content found in the dataset's object, uploaded there by the caller");
            Ok(Some(key))
        } else {
            Err(not_staged())
        }
    }

    /// Local files of a dataset's contents, by sha256, but those in `copied` (which the
    /// engine copies server-side from staging).
    pub(super) async fn contents(
        &self,
        manifest: &DatasetManifest,
        copied: &HashMap<String, String>,
    ) -> Result<HashMap<String, LocalContent>, Problem> {
        let mut contents = HashMap::new();
        for file in &manifest.files {
            if contents.contains_key(&file.sha256) || copied.contains_key(&file.sha256) {
                continue;
            }
            let content = self
                .staging
                .local_file(&file.sha256, file.size)
                .await
                .map_err(|error| staging_problem(&manifest.name, error))?;
            contents.insert(file.sha256.clone(), content);
        }
        Ok(contents)
    }

    /// Writes one dataset. The outer error is the state database; the inner one the
    /// dataset's failure.
    pub(super) async fn write(
        &self,
        push: &PushRecord,
        record: &DatasetRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
    ) -> anyhow::Result<Written> {
        let ns = push.namespace.as_str();
        let branch = push.branch.as_str();
        let name = manifest.name.as_str();
        let options = &push.manifest.options;
        let replace = options.replace;
        let force = forced(push);
        let resumed = record.state == DatasetState::Writing;
        // An object-storage dataset in the S3 staging store's bucket: contents the store
        // vouches for are copied server-side, not downloaded (issue 24).
        let copied = if matches!(manifest.kind.engine(), Engine::ObjectStorage) {
            match self
                .copy_sources(
                    &manifest.name,
                    &manifest.files,
                    Some((ns, branch, push.created_at.as_str())),
                )
                .await
            {
                Ok(copied) => copied,
                Err(problem) => return Ok(Err(problem)),
            }
        } else {
            HashMap::new()
        };
        let contents = match self.contents(manifest, &copied).await {
            Ok(contents) => contents,
            Err(problem) => return Ok(Err(problem)),
        };
        let new_files: BTreeSet<String> = manifest.files.iter().map(|f| f.sha256.clone()).collect();

        let written: Result<(DatasetStatus, DatasetDetail), Problem> =
            match manifest.kind.engine() {
                Engine::Iceberg => {
                    let files: Vec<StagedFile> = new_files
                        .iter()
                        .map(|sha| StagedFile {
                            path: contents[sha].path.clone(),
                            sha256: sha.clone(),
                        })
                        .collect();
                    let mut copy_sources = HashMap::new();
                    if self.engines.warehouse_copies_from_staging {
                        for sha in &new_files {
                            if let Some(location) = self.staging.object_location(sha).await {
                                copy_sources.insert(sha.clone(), location);
                            }
                        }
                    }
                    // (The update fills the test hooks of a build with `test-hooks`.)
                    #[allow(clippy::needless_update)]
                    let append = AppendOptions {
                        replace,
                        force,
                        tag: push.manifest.package.version.clone(),
                        copy_sources,
                        ..AppendOptions::default()
                    };
                    // With expiry on, one writer per table across replicas: an expiry must not
                    // delete a data file an append reuses (within this process the engine
                    // keeps them apart).
                    let lock = match self.retention {
                        Some(_) => self.db.lock(&format!("iceberg/{ns}.{name}")).await?,
                        None => None,
                    };
                    let appended = self
                        .engines
                        .iceberg
                        .append(ns, name, branch, &files, &append)
                        .await;
                    let expired = match (&appended, &self.retention) {
                        (Ok(_), Some(retention)) if force => {
                            Some(self.expire(ns, name, branch, retention).await)
                        }
                        _ => None,
                    };
                    if let Some(lock) = lock {
                        lock.release().await;
                    }
                    match appended {
                        Ok(outcome) => {
                            let before = checkpoint.get("snapshot_id").and_then(Value::as_i64);
                            let status = match outcome.status {
                                AppendStatus::Created => DatasetStatus::Created,
                                AppendStatus::Appended => DatasetStatus::Appended,
                                AppendStatus::Replaced => DatasetStatus::Replaced,
                                _ if resumed && before != Some(outcome.snapshot_id) => {
                                    // Redone after a crash: the first attempt changed the branch.
                                    match (before, replace) {
                                        (None, _) => DatasetStatus::Created,
                                        (Some(_), true) => DatasetStatus::Replaced,
                                        (Some(_), false) => DatasetStatus::Appended,
                                    }
                                }
                                _ => DatasetStatus::Unchanged,
                            };
                            Ok((
                                status,
                                DatasetDetail {
                                    table: Some(format!("{ns}.{name}")),
                                    snapshot_id: Some(outcome.snapshot_id),
                                    rows_added: Some(outcome.rows_added),
                                    rows_removed: replace.then_some(outcome.rows_removed),
                                    total_rows: Some(outcome.total_rows),
                                    schema_changes: outcome
                                        .schema_changes
                                        .iter()
                                        .map(describe_change)
                                        .collect(),
                                    tag: push.manifest.package.version.clone(),
                                    expired_snapshots: expired.map(|e| e.expired_snapshots),
                                    expired_files: expired.map(|e| e.deleted_files),
                                    expired_bytes: expired.map(|e| e.deleted_bytes),
                                    ..DatasetDetail::default()
                                },
                            ))
                        }
                        Err(error) => Err(iceberg_problem(name, &error)),
                    }
                }
                Engine::Graph => {
                    let iri = graph_iri(&self.public_host, ns, name, branch);
                    let mut files = Vec::new();
                    for file in &manifest.files {
                        let Some(format) = RdfFormat::from_path(std::path::Path::new(&file.path))
                        else {
                            return Ok(Err(Problem::new(
                                422,
                                codes::GRAPH_INVALID_RDF,
                                "Invalid RDF",
                            )
                            .with_detail(format!("{}: not a .ttl, .nt or .jsonld file", file.path))
                            .with("dataset", name)));
                        };
                        files.push(RdfFile {
                            path: &contents[&file.sha256].path,
                            format,
                            sha256: Some(&file.sha256),
                        });
                    }
                    // Across replicas, one writer per graph: an append is computed against
                    // the graph's current content.
                    let lock = self.db.lock(&format!("graph/{iri}")).await?;
                    let snapshot = push.manifest.package.version.as_deref().map(|version| {
                        graph_version_iri(&self.public_host, ns, name, branch, version)
                    });
                    // Without force, a version that names other content stops the load before
                    // it writes anything (the guard at POST /pushes saw an earlier state).
                    let keep = snapshot.as_deref().filter(|_| !force);
                    let mut loaded = self
                        .engines
                        .graph
                        .load_files_keeping(&iri, &files, replace, keep)
                        .await;
                    // The version names the graph as this push leaves it (also when unchanged).
                    if let (Ok(_), Some(snapshot)) = (&loaded, &snapshot)
                        && let Err(error) = self.engines.graph.snapshot(&iri, snapshot, force).await
                    {
                        loaded = Err(error);
                    }
                    if let Some(lock) = lock {
                        lock.release().await;
                    }
                    super::graph_batch::graph_written(push, record, checkpoint, iri, loaded)
                }
                Engine::ObjectStorage => {
                    let put = blob_put(push, manifest, |sha256| {
                        contents
                            .get(sha256)
                            .map(|content| content.path.clone())
                            .unwrap_or_default()
                    });
                    // With `[retention]`: the head before the write, to record what it retires.
                    let before = match &self.retention {
                        Some(_) => self
                            .engines
                            .blob
                            .head(ns, name, branch)
                            .await
                            .ok()
                            .flatten(),
                        None => None,
                    };
                    let outcome = self
                        .engines
                        .blob
                        .put_copying(
                            ns,
                            name,
                            branch,
                            &put.files,
                            put.replace,
                            put.keep.as_deref(),
                            &copied,
                        )
                        .await;
                    let expired = match (&outcome, &self.retention) {
                        (Ok(_), Some(retention)) => {
                            self.retire(ns, name, branch, before, retention, force)
                                .await
                        }
                        _ => None,
                    };
                    self.blob_finish(push, manifest, checkpoint, resumed, outcome)
                        .await
                        .map(|(status, mut detail)| {
                            if let Some(expired) = expired {
                                detail.expired_snapshots = Some(expired.heads);
                                detail.expired_files = Some(expired.files);
                                detail.expired_bytes = Some(expired.bytes);
                            }
                            (status, detail)
                        })
                }
            };
        drop(contents);
        let (status, detail) = match written {
            Ok(written) => written,
            Err(problem) => return Ok(Err(problem)),
        };
        self.test_pause(&push.id, name).await;

        Ok(Ok((status, detail, head_update(manifest, replace))))
    }

    /// Expires the snapshots of a table just written on `branch` (a forced push, or an
    /// unprotected branch) under `[retention]`. The histories of other protected branches
    /// stay whole. A failure is logged, not the dataset's: its data is committed.
    async fn expire(
        &self,
        ns: &str,
        name: &str,
        branch: &str,
        retention: &Retention,
    ) -> ExpireOutcome {
        let keep_history = |other: &str| other != branch && self.guards.is_protected(other);
        match self
            .engines
            .iceberg
            .expire_snapshots(ns, name, retention, &keep_history)
            .await
        {
            Ok(outcome) => outcome,
            Err(error) => {
                tracing::warn!(dataset = %name, error = %error_chain(&error), "snapshot expiry failed; nothing expired");
                ExpireOutcome::default()
            }
        }
    }

    /// With `[retention]`, after a write of an object-storage dataset: records the objects
    /// the head stopped listing (the head `before` the write against the head now), and,
    /// where expiry runs (`expire`: a forced push, or an unprotected branch), expires what
    /// older records list ([`crate::engines::blob::BlobEngine::expire_retired`]). `None`
    /// when no expiry ran. A failure is logged, not the dataset's: its data is committed.
    async fn retire(
        &self,
        ns: &str,
        name: &str,
        branch: &str,
        before: Option<crate::engines::blob::BlobHead>,
        retention: &Retention,
        expire: bool,
    ) -> Option<crate::engines::blob::RetiredExpiry> {
        let blob = &self.engines.blob;
        if let Some(before) = before {
            let retired = match blob.head(ns, name, branch).await {
                Ok(after) => {
                    let listed: std::collections::HashSet<&str> = after
                        .iter()
                        .flat_map(|head| head.files.iter().map(|e| e.sha256.as_str()))
                        .collect();
                    let mut dropped: Vec<String> = before
                        .files
                        .into_iter()
                        .map(|e| e.sha256)
                        .filter(|sha256| !listed.contains(sha256.as_str()))
                        .collect();
                    dropped.sort();
                    dropped.dedup();
                    blob.record_retired(ns, name, branch, dropped).await
                }
                Err(error) => Err(error),
            };
            if let Err(error) = retired {
                tracing::warn!(dataset = %name, error = %error_chain(&error), "cannot record the objects a head change retired; they stay");
            }
        }
        if !expire {
            return None;
        }
        let keep = retention.min_snapshots_to_keep.max(1) as usize - 1;
        match blob
            .expire_retired(ns, name, branch, retention.max_snapshot_age, keep)
            .await
        {
            Ok(expired) => Some(expired),
            Err(error) => {
                tracing::warn!(dataset = %name, error = %error_chain(&error), "object expiry failed; nothing more expired");
                None
            }
        }
    }

    /// The engine's state before a write, to tell after a crash what the write did.
    async fn checkpoint(
        &self,
        kind: AssetKind,
        ns: &str,
        name: &str,
        branch: &str,
    ) -> Result<Value, Problem> {
        let failed = |error: anyhow::Error| {
            let problem = crate::error::engine_failure("Engine failed", &*error);
            let detail = crate::error::engine_detail(problem.status, &*error);
            problem.with_detail(detail).with("dataset", name)
        };
        Ok(match kind.engine() {
            Engine::Iceberg => {
                let snapshot = self
                    .engines
                    .iceberg
                    .snapshot_of(ns, name, branch)
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"snapshot_id": snapshot.map(|s| s.snapshot_id)})
            }
            Engine::Graph => {
                let count = self
                    .engines
                    .graph
                    .count(&graph_iri(&self.public_host, ns, name, branch))
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"triples": count})
            }
            Engine::ObjectStorage => {
                let head = self
                    .engines
                    .blob
                    .head(ns, name, branch)
                    .await
                    .map_err(|e| failed(e.into()))?;
                json!({"exists": head.is_some()})
            }
        })
    }

    /// Deletes a dataset that left the package from the branch.
    async fn delete(&self, push: &PushRecord, record: &DatasetRecord) -> Result<bool, Problem> {
        let (ns, name, branch) = (
            push.namespace.as_str(),
            record.name.as_str(),
            push.branch.as_str(),
        );
        match record.kind.engine() {
            Engine::Iceberg => self
                .engines
                .iceberg
                .remove_branch(ns, name, branch)
                .await
                .map_err(|e| iceberg_problem(name, &e)),
            Engine::Graph => {
                // The same cross-replica lock as loads: a drop must not interleave with an
                // append another replica computes against the graph's content. (No test
                // provokes that interleaving: it needs a load and a `--replace` deletion of
                // the same graph landing within the same milliseconds on two replicas.)
                // The dataset's graph first (readers see it gone), then its versions on
                // the branch, as a blob dataset's versions go with its prefix. A crash in
                // between leaves the delete to be done again, which finds the versions.
                let graph = &self.engines.graph;
                let host = &self.public_host;
                let iri = graph_iri(host, ns, name, branch);
                let lock = self.db.lock(&format!("graph/{iri}")).await.map_err(|e| {
                    let problem = crate::error::engine_failure("Graph engine failed", &e);
                    let detail = crate::error::engine_detail(problem.status, &e);
                    problem.with_detail(detail).with("dataset", name)
                })?;
                let problem = |e: GraphError| graph_problem(name, &e);
                let dropped = async {
                    let mut existed = graph.drop_graph(&iri).await.map_err(problem)?;
                    for version in graph_versions(graph, host, ns, name, branch)
                        .await
                        .map_err(problem)?
                    {
                        existed |= graph
                            .drop_graph(&graph_version_iri(host, ns, name, branch, &version))
                            .await
                            .map_err(problem)?;
                    }
                    Ok(existed)
                }
                .await;
                if let Some(lock) = lock {
                    lock.release().await;
                }
                dropped
            }
            Engine::ObjectStorage => self
                .engines
                .blob
                .delete_dataset(ns, name, branch)
                .await
                .map_err(|e| blob_problem(name, &e)),
        }
    }
}

/// Datasets with their checkpoints: those ready to write (checkpoint taken), and the
/// outcomes of those whose checkpoint failed.
pub(super) fn ready_to_write<'a>(checkpoints: Vec<Checkpointed<'a>>) -> Batch<'a> {
    let mut ready = Vec::with_capacity(checkpoints.len());
    let mut outcomes = Vec::new();
    for (record, manifest, checkpoint) in checkpoints {
        match checkpoint {
            Ok(checkpoint) => ready.push((record, manifest, checkpoint)),
            Err(problem) => outcomes.push(WriteOutcome::Failed {
                name: record.name.clone(),
                problem,
            }),
        }
    }
    (ready, outcomes)
}

/// Whether a push may move what its branch's guards keep (a version naming other files):
/// it was forced, or its branch is not protected.
pub(super) fn forced(push: &PushRecord) -> bool {
    push.manifest.options.force || !push.protected
}

/// The `writing` marks of datasets ready to write: name, checkpoint, and the state this
/// run read them in.
pub(super) fn writing_marks<'r>(ready: &'r [Ready<'_>]) -> Vec<WritingMark<'r>> {
    ready
        .iter()
        .map(|(record, _, checkpoint)| (record.name.as_str(), checkpoint, record.state))
        .collect()
}

/// Whether one of these writes failed.
pub(super) fn any_failed(outcomes: &[WriteOutcome]) -> bool {
    outcomes
        .iter()
        .any(|o| matches!(o, WriteOutcome::Failed { .. }))
}

/// A dataset write's outcome as recorded, logged (a success at debug level when `batched`:
/// the batch has an info line of its own).
pub(super) fn outcome_of(
    push_id: &str,
    record: &DatasetRecord,
    result: Written,
    batched: bool,
) -> WriteOutcome {
    match result {
        Ok((status, detail, head)) => {
            if batched {
                tracing::debug!(push = %push_id, dataset = %record.name, status = ?status, "dataset written");
            } else {
                tracing::info!(push = %push_id, dataset = %record.name, status = ?status, "dataset written");
            }
            WriteOutcome::Done {
                name: record.name.clone(),
                status,
                detail,
                head: Some(head),
            }
        }
        Err(problem) => {
            tracing::warn!(push = %push_id, dataset = %record.name, code = %problem.code, detail = ?problem.detail, "dataset failed");
            WriteOutcome::Failed {
                name: record.name.clone(),
                problem,
            }
        }
    }
}

/// How a written dataset moves its head: to the manifest's contents, or without
/// `replace` to these and the ones it held (the union is taken in the transaction that
/// moves it: another replica may move it meanwhile).
pub(super) fn head_update(manifest: &DatasetManifest, replace: bool) -> HeadUpdate {
    let files: BTreeSet<String> = manifest.files.iter().map(|f| f.sha256.clone()).collect();
    HeadUpdate::Set {
        kind: manifest.kind,
        files: files.into_iter().collect(),
        merge: !replace,
    }
}

/// The package node a push writes.
pub fn package_node(public_host: &str, push_id: &str, manifest: &CreatePush) -> PackageNode {
    let (url, iri) = namespace_urls(public_host, &manifest.namespace);
    PackageNode {
        namespace: manifest.namespace.clone(),
        branch: manifest.branch.clone(),
        url,
        iri,
        package: manifest.package.clone(),
        resources: manifest
            .datasets
            .iter()
            .map(|d| {
                let (url, iri) = dataset_urls(public_host, &manifest.namespace, &d.name);
                PackageResource {
                    name: d.name.clone(),
                    url,
                    iri,
                    kind: d.kind,
                    engine: d.kind.engine(),
                    metadata: d.metadata.clone(),
                }
            })
            .collect(),
        push_id: push_id.to_owned(),
        updated_at: now(),
    }
}

fn describe_change(change: &SchemaChange) -> String {
    match change {
        SchemaChange::ColumnAdded { column, data_type } => {
            format!("added column {column} ({data_type})")
        }
        SchemaChange::ColumnWidened { column, from, to } => {
            format!("widened column {column} from {from} to {to}")
        }
        SchemaChange::ColumnMadeOptional { column } => format!("made column {column} optional"),
        SchemaChange::Forced { column, change } => format!("forced: column {column}: {change}"),
    }
}

/// Whether a dataset's problem says a store it depends on did not answer.
pub(super) fn unavailable(problem: &Problem) -> bool {
    problem.code == codes::ENGINE_UNAVAILABLE
}

/// Waiting, with back-off (1, 2, 4, 8, 15, 15… s), for a store a dataset's write depends
/// on, for up to `[jobs] dependency_retry_seconds` (issue 54: a graph server or S3 away
/// for a while failed the dataset at once).
pub(super) struct StoreWait {
    deadline: tokio::time::Instant,
    wait: Duration,
}

impl StoreWait {
    pub(super) fn new(window: Duration) -> Self {
        Self {
            deadline: tokio::time::Instant::now() + window,
            wait: Duration::from_secs(1),
        }
    }

    /// Waits before the next try and says so in the log; `false` (at once) when the
    /// window would be over or the server is stopping.
    pub(super) async fn again(
        &mut self,
        runner: &JobRunner,
        push: &PushRecord,
        dataset: &str,
    ) -> bool {
        if runner.stopping() || tokio::time::Instant::now() + self.wait > self.deadline {
            return false;
        }
        tracing::warn!(
            push = %push.id,
            dataset,
            wait_seconds = self.wait.as_secs(),
            "a store the dataset's write depends on did not answer: trying again"
        );
        tokio::time::sleep(self.wait).await;
        self.wait = (self.wait * 2).min(Duration::from_secs(15));
        true
    }
}
