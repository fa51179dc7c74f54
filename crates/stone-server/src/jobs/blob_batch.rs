//! Pipelined commits of many object-storage datasets: checkpoints, writes and records in
//! batches.

use super::*;

impl JobRunner {
    /// Writes consecutive batches of object-storage datasets (local staging), pipelined:
    /// a *state lane* takes each batch's checkpoints and records them (`writing`) together
    /// with the outcomes of the batches written meanwhile, one transaction each time (the
    /// next batch's checkpoints are read meanwhile), and hands the batch to a *file lane*, which writes it ([`FILE_BATCHES`] at once) and hands
    /// its outcomes back. A batch's checkpoints are recorded before any of its writes and its
    /// outcomes after them; neither lane waits for the other batch by batch. `Ok(false)`:
    /// stopped (shutdown, lost lease) between two batches.
    pub(super) async fn commit_blob_run(
        &self,
        push: &PushRecord,
        batches: &[&[Pending<'_>]],
        failed: &mut bool,
        lost: &AtomicBool,
    ) -> anyhow::Result<bool> {
        let (to_write, mut writable) = tokio::sync::mpsc::channel::<Batch<'_>>(1);
        let (to_record, mut written) = tokio::sync::mpsc::unbounded_channel::<Vec<WriteOutcome>>();

        // Two batches are written at once: a batch's own steps (its staged contents looked
        // up, its puts built, its locks taken, its outcomes made) would otherwise leave a
        // core idle between the blocking writes. (A loop over a set of futures, not a
        // stream combinator: a closure over these references would make the commit's
        // future `Send` for one lifetime only.)
        let files = async move {
            let to_record = to_record;
            let mut writing = FuturesUnordered::new();
            let mut open = true;
            loop {
                tokio::select! {
                    batch = writable.recv(), if open && writing.len() < FILE_BATCHES => match batch {
                        Some(batch) => writing.push(self.write_blob_batch(push, batch, lost)),
                        None => open = false,
                    },
                    Some(outcomes) = writing.next(), if !writing.is_empty() => {
                        if to_record.send(outcomes?).is_err() {
                            break;
                        }
                    }
                    else => break,
                }
            }
            Ok::<(), anyhow::Error>(())
        };

        let state = async {
            let mut finished: Vec<WriteOutcome> = Vec::new();
            let mut complete = true;
            let mut read_ahead = None;
            for (i, batch) in batches.iter().enumerate() {
                if self.halted(lost) {
                    complete = false;
                    break;
                }
                let checkpoints = match read_ahead.take() {
                    Some(checkpoints) => checkpoints,
                    None => self.blob_checkpoints(push, batch).await,
                };
                let (ready, outcomes) = ready_to_write(checkpoints);
                // Whatever the file lane finished meanwhile goes with these checkpoints.
                while let Ok(done) = written.try_recv() {
                    finished.extend(done);
                }
                *failed |= any_failed(&finished);
                let record = async {
                    self.db
                        .datasets_moved(push, &finished, &writing_marks(&ready))
                        .await?;
                    Ok::<bool, anyhow::Error>(to_write.send((ready, outcomes)).await.is_ok())
                };
                // The next batch's heads are read while this one is recorded and handed over.
                let read_next = async {
                    match batches.get(i + 1) {
                        Some(next) => Some(self.blob_checkpoints(push, next).await),
                        None => None,
                    }
                };
                let (handed_over, next) = tokio::join!(record, read_next);
                if !handed_over? {
                    // The file lane stopped on an error of its own (returned below).
                    break;
                }
                finished.clear();
                read_ahead = next;
            }
            drop(to_write);
            while let Some(done) = written.recv().await {
                *failed |= any_failed(&done);
                self.db.datasets_finished(push, &done).await?;
            }
            Ok::<bool, anyhow::Error>(complete)
        };

        let (files, complete) = tokio::join!(files, state);
        files?;
        Ok(complete? && !self.halted(lost))
    }

    /// One batch of a pipelined commit ([`Self::commit_blob_run`]): written, unless the
    /// commit halted meanwhile (the rerun then finds it `writing`, with what its
    /// checkpoints tell); its outcomes, with those of its failed checkpoints.
    async fn write_blob_batch<'a>(
        &self,
        push: &PushRecord,
        (ready, mut outcomes): Batch<'a>,
        lost: &AtomicBool,
    ) -> anyhow::Result<Vec<WriteOutcome>> {
        if self.halted(lost) {
            return Ok(outcomes);
        }
        let begun = Instant::now();
        let done = match self.write_blobs(push, &ready).await {
            Some(done) => done,
            None => self.write_each(push, &ready).await?,
        };
        let done = self.waited_for(push, &ready, done).await?;
        let (first, last) = (
            ready.first().map(|(record, _, _)| record.name.as_str()),
            ready.last().map(|(record, _, _)| record.name.as_str()),
        );
        tracing::info!(push = %push.id, datasets = ready.len(), first, last, files_ms = begun.elapsed().as_millis(), "object-storage batch written");
        outcomes.extend(
            done.into_iter()
                .map(|(record, result)| outcome_of(&push.id, record, result, true)),
        );
        Ok(outcomes)
    }

    /// The writes of a batch whose store did not answer (`engine.unavailable`), tried
    /// again as a lone write is ([`Self::write_unless_stopping`]): after 1, 2, 4… s, each
    /// try a resumed write, within one `[jobs] dependency_retry_seconds` window for the
    /// whole batch (issue 54: the batched path failed them at once).
    async fn waited_for<'a>(
        &self,
        push: &PushRecord,
        ready: &[Ready<'a>],
        done: Vec<(&'a DatasetRecord, Written)>,
    ) -> anyhow::Result<Vec<(&'a DatasetRecord, Written)>> {
        let mut waiting = StoreWait::new(self.dependency_retry);
        let mut all = Vec::with_capacity(done.len());
        for (record, mut result) in done {
            let Some((_, manifest, checkpoint)) =
                ready.iter().find(|(r, _, _)| std::ptr::eq(*r, record))
            else {
                all.push((record, result));
                continue;
            };
            let resumed = DatasetRecord {
                state: DatasetState::Writing,
                ..record.clone()
            };
            while matches!(&result, Err(problem) if unavailable(problem))
                && waiting.again(self, push, &manifest.name).await
            {
                result = self.write(push, &resumed, manifest, checkpoint).await?;
            }
            all.push((record, result));
        }
        Ok(all)
    }

    /// Records the datasets whose checkpoint was taken as `writing`, with it: the datasets
    /// ready to write, and the outcomes of those whose checkpoint failed.
    pub(super) async fn mark_writing<'a>(
        &self,
        push_id: &str,
        checkpoints: Vec<Checkpointed<'a>>,
    ) -> anyhow::Result<Batch<'a>> {
        let (ready, outcomes) = ready_to_write(checkpoints);
        self.db
            .datasets_writing(push_id, &writing_marks(&ready))
            .await?;
        Ok((ready, outcomes))
    }

    /// [`Self::write`] of each dataset, [`BLOB_WRITES`] at once.
    async fn write_each<'a>(
        &self,
        push: &PushRecord,
        ready: &[Ready<'a>],
    ) -> anyhow::Result<Vec<(&'a DatasetRecord, Written)>> {
        let writing: Vec<_> = ready
            .iter()
            .map(|(record, manifest, checkpoint)| async move {
                Ok::<_, anyhow::Error>((
                    *record,
                    self.write(push, record, manifest, checkpoint).await?,
                ))
            })
            .collect();
        stream::iter(writing)
            .buffered(BLOB_WRITES)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect()
    }

    /// The staged files of `manifests`' contents where the staging store keeps them in
    /// place (local staging), looked up together (one query, not one a file); `None`: the
    /// store would download them (S3) or cannot say, and each dataset fetches its own.
    pub(super) async fn staged_in_place<'m>(
        &self,
        manifests: impl Iterator<Item = &'m DatasetManifest>,
    ) -> Option<HashMap<&'m str, LocalContent>> {
        let mut wanted: Vec<(&str, u64)> = manifests
            .flat_map(|manifest| manifest.files.iter())
            .map(|f| (f.sha256.as_str(), f.size))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let found = self.staging.local_files_in_place(&wanted).await?.ok()?;
        Some(
            wanted
                .iter()
                .zip(found)
                .filter_map(|((sha256, _), content)| Some((*sha256, content?)))
                .collect(),
        )
    }

    /// [`Self::checkpoint_of`] of a batch of object-storage datasets, the heads read
    /// together (one blocking task on a local store).
    pub(super) async fn blob_checkpoints<'a>(
        &self,
        push: &PushRecord,
        batch: &[Pending<'a>],
    ) -> Vec<Checkpointed<'a>> {
        let unknown: Vec<&str> = batch
            .iter()
            .filter(|(record, _)| record.checkpoint.is_none())
            .map(|(_, manifest)| manifest.name.as_str())
            .collect();
        // A store that does not answer is waited for, as by a lone dataset's checkpoint
        // ([`Self::checkpoint_of`]).
        let mut waiting = StoreWait::new(self.dependency_retry);
        let heads = loop {
            let heads = self
                .engines
                .blob
                .heads_exist(&push.namespace, &push.branch, &unknown)
                .await;
            let away = heads.iter().any(|head| {
                matches!(head, Err(error)
                    if crate::outage::outage(error) == Some(crate::outage::Outage::Unavailable))
            });
            if away
                && waiting
                    .again(self, push, unknown.first().copied().unwrap_or(""))
                    .await
            {
                continue;
            }
            break heads;
        };
        let mut read = heads.into_iter();
        batch
            .iter()
            .map(|&(record, manifest)| {
                let checkpoint = match &record.checkpoint {
                    Some(checkpoint) => Ok(checkpoint.clone()),
                    None => match read.next().expect("a head read per dataset") {
                        Ok(exists) => Ok(json!({"exists": exists})),
                        Err(error) => {
                            let problem = crate::error::engine_failure("Engine failed", &error);
                            let detail = crate::error::engine_detail(problem.status, &error);
                            Err(problem.with_detail(detail).with("dataset", &manifest.name))
                        }
                    },
                };
                (record, manifest, checkpoint)
            })
            .collect()
    }

    /// What an object-storage put leaves a push with: the package version recorded on
    /// the dataset when the push names one (it names the files as this push leaves them,
    /// also when unchanged), then the status and details the push reports.
    pub(super) async fn blob_finish(
        &self,
        push: &PushRecord,
        manifest: &DatasetManifest,
        checkpoint: &Value,
        resumed: bool,
        outcome: Result<BlobOutcome, BlobError>,
    ) -> Result<(DatasetStatus, DatasetDetail), Problem> {
        let (ns, name, branch) = (&push.namespace, &manifest.name, &push.branch);
        let version = push.manifest.package.version.clone();
        let force = forced(push);
        let mut outcome = outcome;
        if let (Ok(_), Some(version)) = (&outcome, &version)
            && let Err(error) = self
                .engines
                .blob
                .record_version(ns, name, branch, version, force)
                .await
        {
            outcome = Err(error);
        }
        match outcome {
            Ok(outcome) => Ok(blob_written(
                &outcome,
                checkpoint,
                resumed,
                push.manifest.options.replace,
                version,
            )),
            Err(error) => Err(blob_problem(name, &error)),
        }
    }

    /// [`Self::write`] of a batch of object-storage datasets, together: the staged
    /// contents looked up at once and the puts made by [`BlobEngine::put_many`]. `None`
    /// when the staging store would download the contents (S3), or cannot say where they
    /// are: the caller then writes them one by one ([`Self::write_each`]).
    async fn write_blobs<'a>(
        &self,
        push: &PushRecord,
        ready: &[Ready<'a>],
    ) -> Option<Vec<(&'a DatasetRecord, Written)>> {
        let (ns, branch) = (push.namespace.as_str(), push.branch.as_str());
        let contents = self
            .staged_in_place(ready.iter().map(|(_, manifest, _)| *manifest))
            .await?;

        let mut results: Vec<Option<Result<_, Problem>>> = ready.iter().map(|_| None).collect();
        let mut puts = Vec::new();
        let mut put_of = Vec::new();
        for (i, (_, manifest, _)) in ready.iter().enumerate() {
            let missing = manifest
                .files
                .iter()
                .find(|f| !contents.contains_key(f.sha256.as_str()));
            if let Some(file) = missing {
                let error = StagingError::NotStaged {
                    sha256: file.sha256.clone(),
                };
                results[i] = Some(Err(staging_problem(&manifest.name, error)));
                continue;
            }
            puts.push(blob_put(push, manifest, |sha256| {
                contents[sha256].path.clone()
            }));
            put_of.push(i);
        }
        // The puts hold their files' staged paths: the lookup goes before they are written
        // (a folder of a million files is a million paths).
        drop(contents);
        let done = self.engines.blob.put_many(ns, branch, puts).await;
        for (i, outcome) in put_of.into_iter().zip(done) {
            let (record, manifest, checkpoint) = &ready[i];
            let resumed = record.state == DatasetState::Writing;
            let finished = self
                .blob_finish(push, manifest, checkpoint, resumed, outcome)
                .await;
            results[i] = Some(finished.map(|(status, detail)| {
                (
                    status,
                    detail,
                    head_update(manifest, push.manifest.options.replace),
                )
            }));
        }
        // Written, not yet recorded: where the test hook pauses a commit.
        for (_, manifest, _) in ready {
            self.test_pause(&push.id, &manifest.name).await;
        }
        Some(
            ready
                .iter()
                .zip(results)
                .map(|((record, _, _), result)| {
                    (*record, result.expect("every dataset has a result"))
                })
                .collect(),
        )
    }
}

/// The put of an object-storage dataset of `push`, its staged contents at `local(sha256)`.
pub(super) fn blob_put(
    push: &PushRecord,
    manifest: &DatasetManifest,
    local: impl Fn(&str) -> PathBuf,
) -> BlobPut {
    let force = forced(push);
    BlobPut {
        dataset: manifest.name.clone(),
        files: manifest
            .files
            .iter()
            .map(|file| BlobFile {
                path: file.path.clone(),
                local: local(&file.sha256),
                sha256: file.sha256.clone(),
                size: file.size,
                // Staged contents are verified on receipt (local) or on download (S3).
                verified: true,
            })
            .collect(),
        replace: push.manifest.options.replace,
        // Without force, a version that names other files stops the put before it writes
        // anything (the guard at POST /pushes saw an earlier state).
        keep: push.manifest.package.version.clone().filter(|_| !force),
    }
}

/// What an object-storage put did, as a push reports it. `existed` is the checkpoint's
/// word (whether the dataset had a head before the first attempt); `resumed`, whether
/// this is a rerun after a crash.
fn blob_written(
    outcome: &BlobOutcome,
    checkpoint: &Value,
    resumed: bool,
    replace: bool,
    tag: Option<String>,
) -> (DatasetStatus, DatasetDetail) {
    let existed = checkpoint
        .get("exists")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let status = match outcome.status {
        BlobStatus::Created => DatasetStatus::Created,
        BlobStatus::Updated if replace => DatasetStatus::Replaced,
        BlobStatus::Updated => DatasetStatus::Appended,
        BlobStatus::Unchanged if resumed && !existed => DatasetStatus::Created,
        BlobStatus::Unchanged => DatasetStatus::Unchanged,
    };
    let detail = DatasetDetail {
        files: Some(outcome.files),
        bytes: Some(outcome.bytes),
        tag,
        ..DatasetDetail::default()
    };
    (status, detail)
}
