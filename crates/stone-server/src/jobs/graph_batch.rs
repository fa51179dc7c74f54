//! Small GRAPH datasets of a commit batch written together (issue 56): a package of
//! thousands of small RDF files (one per entity, module or observation batch) paid a bulk
//! load, two ingestions and a journal entry per dataset. The new ones of a batch now go
//! into the store in a few bulk loads ([`GraphEngine::load_new_graphs`]), each whole or
//! not at all after a crash; the others are written one by one as before
//! ([`JobRunner::write`]). The batch's checkpoints are recorded before, its outcomes after,
//! as for any batch: a crash in between leaves the datasets `writing`, and the rerun
//! finds each graph complete (the files it was loaded from are recorded with it:
//! `unchanged` on the way, reported by its checkpoint as `created`) or empty (loaded again).
//!
//! [`GraphEngine::load_new_graphs`]: crate::engines::graph::GraphEngine::load_new_graphs

use super::*;
use crate::engines::graph::{GraphOutcome, LOAD_BYTES};

/// A GRAPH dataset whose files together are at most this is written with the others of
/// its batch; a larger one alone (its files are parsed in memory when batched).
const SMALL_GRAPH_BYTES: u64 = 1 << 20;

/// Batched graphs: at least this many in a batch, else each alone.
const MIN_BATCHED: usize = 2;

/// Graph datasets in one commit batch, at most; and at most one bulk load's bytes of files
/// ([`LOAD_BYTES`]), so that a batch of small graphs is about one load. Each load adds a file
/// per index to the store's level 0, which every read looks at until compaction has merged
/// them: 100,000 graphs of 50 triples in batches of 256 left 334 files, and SPARQL answered
/// in 1.4–1.9 ms instead of 0.45 for the ~45 s compaction took (issue 56).
const GRAPH_BATCH: usize = 4096;

/// Splits a run of graph datasets into commit batches ([`GRAPH_BATCH`], [`LOAD_BYTES`]; a
/// dataset larger than that is a batch of its own).
pub(super) fn graph_batches<'r, 'a>(run: &'r [Pending<'a>]) -> Vec<&'r [Pending<'a>]> {
    let mut batches = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, (_, manifest)) in run.iter().enumerate() {
        let size: u64 = manifest.files.iter().map(|f| f.size).sum();
        if i > start && (i - start >= GRAPH_BATCH || bytes.saturating_add(size) > LOAD_BYTES) {
            batches.push(&run[start..i]);
            (start, bytes) = (i, 0);
        }
        bytes = bytes.saturating_add(size);
    }
    if start < run.len() {
        batches.push(&run[start..]);
    }
    batches
}

impl JobRunner {
    /// Whether the dataset is written with the other small graphs of its batch: a GRAPH
    /// dataset of small RDF files, in a push without a version (a version snapshots each
    /// graph: written alone).
    pub(super) fn batched_graph(push: &PushRecord, manifest: &DatasetManifest) -> bool {
        manifest.kind.engine() == Engine::Graph
            && push.manifest.package.version.is_none()
            && !manifest.files.is_empty()
            && manifest.files.iter().map(|f| f.size).sum::<u64>() <= SMALL_GRAPH_BYTES
            && manifest
                .files
                .iter()
                .all(|f| RdfFormat::from_path(std::path::Path::new(&f.path)).is_some())
    }

    /// Splits a batch ready to write into its small graphs, written together when there
    /// are enough of them ([`Self::write_graphs`]), and the datasets written one by one.
    pub(super) fn split_graphs<'r, 'a>(
        push: &PushRecord,
        ready: &'r [Ready<'a>],
    ) -> (Vec<&'r Ready<'a>>, Vec<&'r Ready<'a>>) {
        let (graphs, rest): (Vec<_>, Vec<_>) = ready
            .iter()
            .partition(|(_, manifest, _)| Self::batched_graph(push, manifest));
        if graphs.len() < MIN_BATCHED {
            return (Vec::new(), ready.iter().collect());
        }
        (graphs, rest)
    }

    /// [`Self::checkpoint_of`] of a batch of graph datasets, their sizes read together (one
    /// blocking task on the embedded store; one by one, each new graph cost ~0.2 ms).
    /// A graph not counted so is checkpointed alone, which waits for a store that does not
    /// answer.
    pub(super) async fn graph_checkpoints<'a>(
        &self,
        push: &PushRecord,
        batch: &[Pending<'a>],
    ) -> Vec<Checkpointed<'a>> {
        let unknown: Vec<String> = batch
            .iter()
            .filter(|(record, _)| record.checkpoint.is_none())
            .map(|(_, manifest)| {
                graph_iri(
                    &self.public_host,
                    &push.namespace,
                    &manifest.name,
                    &push.branch,
                )
            })
            .collect();
        let mut counts = match self.engines.graph.counts(&unknown).await {
            Ok(counts) => counts.into_iter().map(Result::ok).collect(),
            Err(_) => vec![None; unknown.len()],
        }
        .into_iter();
        let mut checkpointed = Vec::with_capacity(batch.len());
        for &(record, manifest) in batch {
            let counted = match &record.checkpoint {
                Some(checkpoint) => Some(checkpoint.clone()),
                None => counts
                    .next()
                    .flatten()
                    .map(|triples| json!({"triples": triples})),
            };
            checkpointed.push(match counted {
                Some(checkpoint) => (record, manifest, Ok(checkpoint)),
                None => self.checkpoint_of(push, record, manifest).await,
            });
        }
        checkpointed
    }

    /// Writes small graphs together: those that are empty in a few bulk loads, the others
    /// one by one ([`Self::write_unless_stopping`]). Nothing starts once the server is
    /// stopping (the datasets not written are left out of the answer, as there).
    pub(super) async fn write_graphs<'a>(
        &self,
        push: &PushRecord,
        ready: &[&Ready<'a>],
    ) -> anyhow::Result<Vec<(&'a DatasetRecord, anyhow::Result<Written>)>> {
        let mut done: Vec<(&'a DatasetRecord, anyhow::Result<Written>)> =
            Vec::with_capacity(ready.len());
        if self.stopping() {
            return Ok(done);
        }
        let ns = push.namespace.as_str();
        let branch = push.branch.as_str();
        // The staged files of each graph, held until the load is done (a copy downloaded
        // from S3 staging is deleted when dropped); looked up together where the store
        // keeps them in place (one query, not one a file). A dataset whose contents are
        // missing fails.
        let in_place = self
            .staged_in_place(ready.iter().map(|(_, manifest, _)| *manifest))
            .await;
        let mut held: Vec<HashMap<String, LocalContent>> = Vec::with_capacity(ready.len());
        let mut loads: Vec<GraphLoad<'_, 'a>> = Vec::new();
        for &entry in ready {
            let (record, manifest, _) = entry;
            let contents = match &in_place {
                Some(found) => in_place_of(manifest, found),
                None => self.contents(manifest, &HashMap::new()).await,
            };
            let contents = match contents {
                Ok(contents) => contents,
                Err(problem) => {
                    done.push((record, Ok(Err(problem))));
                    continue;
                }
            };
            let files = manifest
                .files
                .iter()
                .filter_map(|file| {
                    let format = RdfFormat::from_path(std::path::Path::new(&file.path))?;
                    Some((
                        contents[&file.sha256].path.clone(),
                        format,
                        file.sha256.clone(),
                    ))
                })
                .collect();
            let iri = graph_iri(&self.public_host, ns, &manifest.name, branch);
            loads.push((entry, iri, files));
            held.push(contents);
        }
        // Across replicas, one writer per graph (as `write` takes it), on one connection.
        let keys: Vec<String> = loads
            .iter()
            .map(|(_, iri, _)| format!("graph/{iri}"))
            .collect();
        let lock = self.db.lock_many(&keys).await?;
        let files: Vec<Vec<RdfFile<'_>>> = loads
            .iter()
            .map(|(_, _, files)| {
                files
                    .iter()
                    .map(|(path, format, sha256)| RdfFile {
                        path,
                        format: *format,
                        sha256: Some(sha256),
                    })
                    .collect()
            })
            .collect();
        let graphs: Vec<(&str, &[RdfFile<'_>])> = loads
            .iter()
            .zip(&files)
            .map(|((_, iri, _), files)| (iri.as_str(), files.as_slice()))
            .collect();
        let loaded = self.engines.graph.load_new_graphs(&graphs).await;
        if let Some(lock) = lock {
            lock.release().await;
        }
        drop(held);
        let mut alone = Vec::new();
        match loaded {
            Ok(results) => {
                for ((entry, iri, _), result) in loads.iter().zip(results) {
                    let &(record, manifest, ref checkpoint) = *entry;
                    match result {
                        None => alone.push(*entry),
                        Some(outcome) => {
                            let written =
                                graph_written(push, record, checkpoint, iri.clone(), outcome).map(
                                    |(status, detail)| {
                                        (
                                            status,
                                            detail,
                                            head_update(manifest, push.manifest.options.replace),
                                        )
                                    },
                                );
                            self.test_pause(&push.id, &manifest.name).await;
                            done.push((record, Ok(written)));
                        }
                    }
                }
            }
            Err(error) => {
                // The load as a whole failed (the store, the journal): each graph with it.
                for ((record, manifest, _), _, _) in loads.iter().map(|(e, i, f)| (*e, i, f)) {
                    done.push((*record, Ok(Err(graph_problem(&manifest.name, &error)))));
                }
            }
        }
        for (record, manifest, checkpoint) in alone {
            match self
                .write_unless_stopping(push, record, manifest, checkpoint)
                .await
            {
                Some(written) => done.push(written),
                None => break,
            }
        }
        Ok(done)
    }
}

/// A graph's staged files among those found in place; a file not staged fails the dataset.
#[allow(clippy::result_large_err)] // the dataset's `Problem` as every write reports it
fn in_place_of(
    manifest: &DatasetManifest,
    found: &HashMap<&str, LocalContent>,
) -> Result<HashMap<String, LocalContent>, Problem> {
    manifest
        .files
        .iter()
        .map(|file| match found.get(file.sha256.as_str()) {
            Some(content) => Ok((
                file.sha256.clone(),
                LocalContent {
                    path: content.path.clone(),
                    temporary: false,
                },
            )),
            None => Err(staging_problem(
                &manifest.name,
                StagingError::NotStaged {
                    sha256: file.sha256.clone(),
                },
            )),
        })
        .collect()
}

/// A graph of a batch to load: the dataset, its graph IRI, its staged files (path,
/// format, sha256).
type GraphLoad<'r, 'a> = (&'r Ready<'a>, String, Vec<(PathBuf, RdfFormat, String)>);

/// A graph dataset's status and details from its load's outcome (`checkpoint`: the
/// graph's size before the push's first attempt).
#[allow(clippy::result_large_err)] // the dataset's `Problem` as every write reports it
pub(super) fn graph_written(
    push: &PushRecord,
    record: &DatasetRecord,
    checkpoint: &Value,
    iri: String,
    loaded: Result<GraphOutcome, GraphError>,
) -> Result<(DatasetStatus, DatasetDetail), Problem> {
    let name = record.name.as_str();
    let replace = push.manifest.options.replace;
    let resumed = record.state == DatasetState::Writing;
    match loaded {
        Ok(outcome) => {
            let before = checkpoint
                .get("triples")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let status = if !outcome.unchanged || (resumed && before != outcome.total_triples) {
                if before == 0 {
                    DatasetStatus::Created
                } else if replace {
                    DatasetStatus::Replaced
                } else {
                    DatasetStatus::Appended
                }
            } else {
                DatasetStatus::Unchanged
            };
            Ok((
                status,
                DatasetDetail {
                    graph: Some(iri),
                    triples_added: Some(outcome.triples_added),
                    total_triples: Some(outcome.total_triples),
                    tag: push.manifest.package.version.clone(),
                    ..DatasetDetail::default()
                },
            ))
        }
        Err(error) => Err(graph_problem(name, &error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_batches_end_at_a_load_of_bytes_or_a_count() {
        let manifest = |name: usize, size: u64| -> DatasetManifest {
            serde_json::from_value(json!({
                "name": format!("g{name}"), "kind": "GRAPH",
                "files": [{"path": "g.nt", "sha256": "0".repeat(64), "size": size}],
            }))
            .unwrap()
        };
        let record = |name: usize| DatasetRecord {
            position: name as i64,
            name: format!("g{name}"),
            kind: AssetKind::Graph,
            operation: Operation::Write,
            state: DatasetState::Pending,
            status: None,
            detail: None,
            error: None,
            checkpoint: None,
        };
        let sizes_of = |sizes: &[u64]| -> Vec<usize> {
            let manifests: Vec<_> = sizes
                .iter()
                .enumerate()
                .map(|(i, s)| manifest(i, *s))
                .collect();
            let records: Vec<_> = (0..sizes.len()).map(record).collect();
            let run: Vec<Pending<'_>> = records.iter().zip(&manifests).collect();
            graph_batches(&run).iter().map(|b| b.len()).collect()
        };
        // Small graphs: a batch ends where the next would pass a load's bytes.
        let quarter = LOAD_BYTES / 4;
        assert_eq!(sizes_of(&[quarter; 9]), [4, 4, 1]);
        // A graph larger than a load is a batch of its own.
        assert_eq!(sizes_of(&[1, LOAD_BYTES * 2, 1]), [1, 1, 1]);
        // Tiny graphs: at most GRAPH_BATCH a batch.
        assert_eq!(sizes_of(&vec![1; GRAPH_BATCH + 5]), [GRAPH_BATCH, 5]);
        assert!(sizes_of(&[]).is_empty());
    }
}
