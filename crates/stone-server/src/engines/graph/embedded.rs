//! The embedded graph store: Oxigraph on its RocksDB store, on disk.
//!
//! Layout under the engine's directory:
//!
//! ```text
//! <dir>/store/             the Oxigraph (RocksDB) store: every named graph, and the graph
//!                          `urn:stone:graph-store:meta` holding each graph's triple count
//! <dir>/journal/<id>.json  a multi-step change in progress (see journal.rs)
//! <dir>/graphs/<sha256>.nq N-Quads files of the former in-memory engine: loaded into the
//!                          store once when it opens, then removed
//! ```
//!
//! What a change costs follows the change, not the graph:
//!
//! - a load into an empty graph streams the parsed files into the bulk loader (never one
//!   in-memory set of the triples: the loader's batches are bounded), which writes sorted
//!   files that RocksDB takes in at commit;
//! - an append to a graph looks up each parsed triple in the store and writes those it
//!   lacks in one transaction (up to [`MAX_TRANSACTION_TRIPLES`]); a larger append is
//!   bulk-loaded into a staging graph, then copied in;
//! - a replace bulk-loads the new content into a staging graph, compares it with the
//!   graph (reading both), and when they differ clears the graph and copies the staging
//!   graph in: it costs about twice a load of the new content plus a read of the old;
//! - a snapshot (named version) is a copy of the graph: RocksDB cannot share the triples
//!   of two graphs, so a version costs one bulk load of the graph's size on disk and in
//!   time.
//!
//! Blank nodes: triples that name blank nodes are held in memory while a load runs, to
//! compare their components with the graph's (the graph's are read only when the files
//! have some): a graph of mostly blank nodes costs memory in proportion to them.
//!
//! Crash safety: a change that fits one transaction commits atomically. A larger one is
//! made in steps recorded in the journal first, so that after a crash the store, when it
//! opens, removes a load that did not finish or finishes a copy that had begun: each
//! graph is seen with its old or its new content, never a mix. Readers (queries, exports)
//! running *while* a large change is in progress may see it half done (a graph being
//! loaded or copied); the outcome is only reported once the change is complete.

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use oxigraph::io::{RdfFormat as OxFormat, RdfParser};
use oxigraph::model::{GraphName, NamedNode, NamedOrBlankNode, Quad, Term, Triple};
use oxigraph::sparql::CancellationToken;
use oxigraph::store::{BulkLoader, Store};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::batch::{BatchGraph, BatchResult};
use super::content::{Content, has_blank_node};
use super::count;
use super::journal::{Entry, Journal, Step, sync_dir};
use super::loaded::{meta_nodes, set_count_in};
use super::parse;
use super::query::{self, CancelOnDrop, Visibility};
use super::spool::{Exported, spool_triples};
use super::{GraphError, GraphLimits, GraphOutcome, QueryLimits, RdfFormat};

const STORE_DIR: &str = "store";
const JOURNAL_DIR: &str = "journal";
/// The former in-memory engine's N-Quads files.
const LEGACY_DIR: &str = "graphs";
const LEGACY_EXTENSION: &str = "nq";
const LEGACY_TEMP_MARKER: &str = ".tmp-";
/// The graph of the store's own bookkeeping: `<graph> <TRIPLES_PREDICATE> count`, and the
/// files each graph was loaded from (`loaded.rs`).
pub(super) const META_GRAPH: &str = "urn:stone:graph-store:meta";
pub(super) const TRIPLES_PREDICATE: &str = "urn:stone:graph-store:triples";
/// Staging graphs are named `<STAGING_PREFIX><uuid>`.
const STAGING_PREFIX: &str = "urn:stone:graph-store:staging:";
/// The most new triples an append writes in one transaction (held in memory until it
/// commits, ~1 KB each with the lookup set); a larger append goes through a staging graph.
pub(super) const MAX_TRANSACTION_TRIPLES: usize = 100_000;
/// Quads removed per transaction when a graph is cleared.
const CLEAR_BATCH: usize = 20_000;

pub(super) struct EmbeddedGraphs {
    inner: Arc<Inner>,
    locks: GraphLocks,
}

pub(super) struct Inner {
    pub(super) store: Store,
    pub(super) journal: Journal,
    /// The engine's directory.
    dir: PathBuf,
    /// What the bulk loader's batches may hold (its own estimate, in MB, over all its
    /// threads; `GraphLimits::bulk_load_memory_mb`): the loader's default is 2 GB per
    /// thread.
    bulk_load_memory_mb: AtomicUsize,
}

impl std::fmt::Debug for EmbeddedGraphs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedGraphs")
            .field("dir", &self.inner.dir)
            .finish_non_exhaustive()
    }
}

impl EmbeddedGraphs {
    pub async fn open(dir: &Path) -> Result<Self, GraphError> {
        let dir = dir.to_path_buf();
        let inner = tokio::task::spawn_blocking(move || Inner::open(dir))
            .await
            .map_err(GraphError::task)??;
        Ok(Self {
            inner: Arc::new(inner),
            locks: GraphLocks::default(),
        })
    }

    /// Sets what the bulk loader's batches may hold, in MB (at least 16).
    pub fn set_bulk_load_memory(&self, megabytes: usize) {
        self.inner
            .bulk_load_memory_mb
            .store(megabytes.max(16), Ordering::Relaxed);
    }

    /// Runs `work` on a blocking thread with the store.
    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Inner) -> Result<T, GraphError> + Send + 'static,
    ) -> Result<T, GraphError> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || work(&inner))
            .await
            .map_err(GraphError::task)?
    }

    /// Parses the files as a stream into the graph (see the module documentation); with
    /// `keep`, refuses ([`GraphError::VersionExists`]) a load that would leave the graph
    /// with other content than that snapshot graph holds, when it holds any.
    pub async fn load_files(
        &self,
        graph: NamedNode,
        files: Vec<(PathBuf, RdfFormat)>,
        digests: Option<BTreeSet<String>>,
        limits: GraphLimits,
        replace: bool,
        keep: Option<NamedNode>,
    ) -> Result<GraphOutcome, GraphError> {
        let lock = self.locks.get(graph.as_str());
        let _guard = lock.lock().await;
        self.blocking(move |inner| {
            inner.load_files(
                &graph,
                &files,
                digests.as_ref(),
                limits,
                replace,
                keep.as_ref(),
            )
        })
        .await
    }

    /// Loads the graphs of `batch` that are empty together (`batch.rs`): one result per
    /// graph, `None` for those left to a load of their own. Each graph is locked as a load
    /// locks it, all before any is written (in one order: two batches never wait on
    /// each other).
    pub async fn load_new_graphs(
        &self,
        batch: Vec<BatchGraph>,
        limits: GraphLimits,
    ) -> Result<Vec<BatchResult>, GraphError> {
        let mut names: Vec<&str> = batch.iter().map(|g| g.graph.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() < batch.len() {
            // One graph twice: each is loaded alone, in turn.
            return Ok(batch.iter().map(|_| None).collect());
        }
        let locks: Vec<_> = names.iter().map(|name| self.locks.get(name)).collect();
        let mut guards = Vec::with_capacity(locks.len());
        for lock in &locks {
            guards.push(lock.lock().await);
        }
        let loaded = self
            .blocking(move |inner| inner.load_new_graphs(&batch, limits))
            .await;
        drop(guards);
        loaded
    }

    pub async fn count(&self, graph: NamedNode) -> Result<u64, GraphError> {
        self.blocking(move |inner| inner.count(&graph)).await
    }

    /// [`Self::count`] of each graph, in one blocking task (a commit's batch of graphs).
    pub async fn counts(
        &self,
        graphs: Vec<NamedNode>,
    ) -> Result<Vec<Result<u64, GraphError>>, GraphError> {
        self.blocking(move |inner| Ok(graphs.iter().map(|g| inner.count(g)).collect()))
            .await
    }

    pub async fn drop_graph(&self, graph: NamedNode) -> Result<bool, GraphError> {
        let lock = self.locks.get(graph.as_str());
        let _guard = lock.lock().await;
        self.blocking(move |inner| inner.drop_graph(&graph)).await
    }

    pub async fn export(
        &self,
        graph: NamedNode,
        format: RdfFormat,
    ) -> Result<Exported, GraphError> {
        self.blocking(move |inner| inner.export(&graph, format))
            .await
    }

    /// Whether two graphs hold the same content (as `GraphEngine::same_content`).
    pub async fn same_content(&self, a: NamedNode, b: NamedNode) -> Result<bool, GraphError> {
        self.blocking(move |inner| inner.same_content(&a, &b)).await
    }

    /// Makes `target` a copy of `source` (as `GraphEngine::snapshot`).
    pub async fn snapshot(
        &self,
        source: NamedNode,
        target: NamedNode,
        force: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let lock = self.locks.get(target.as_str());
        let _guard = lock.lock().await;
        self.blocking(move |inner| inner.snapshot(&source, &target, force))
            .await
    }

    /// Runs the query on a blocking thread over the graphs of `scope` (all, without one),
    /// stopped through a cancellation token when the timeout passes or this future is
    /// dropped (the request went away): the thread then ends at its next check and frees
    /// what the query held.
    pub async fn query(
        &self,
        sparql: &str,
        visibility: Visibility,
        limits: QueryLimits,
    ) -> Result<Value, GraphError> {
        let token = CancellationToken::new();
        let _stop = CancelOnDrop(token.clone());
        let sparql = sparql.to_owned();
        let work = {
            let token = token.clone();
            self.blocking(move |inner| {
                query::run(&inner.store, &sparql, visibility, &token, limits)
            })
        };
        match tokio::time::timeout(limits.timeout, work).await {
            Ok(answer) => answer,
            Err(_) => Err(GraphError::QueryTimeout {
                seconds: limits.timeout.as_secs(),
            }),
        }
    }

    /// The IRIs of the named graphs that start with `prefix`, sorted.
    pub async fn graphs_with_prefix(&self, prefix: &str) -> Result<Vec<String>, GraphError> {
        let prefix = prefix.to_owned();
        self.blocking(move |inner| {
            let mut found = Vec::new();
            for graph in inner.store.named_graphs() {
                if let NamedOrBlankNode::NamedNode(graph) = graph?
                    && graph.as_str().starts_with(&prefix)
                    && !graph.as_str().starts_with(STAGING_PREFIX)
                    && graph.as_str() != META_GRAPH
                {
                    found.push(graph.into_string());
                }
            }
            found.sort();
            Ok(found)
        })
        .await
    }
}

impl Inner {
    pub(super) fn open(dir: PathBuf) -> Result<Self, GraphError> {
        std::fs::create_dir_all(&dir).map_err(GraphError::persist(&dir))?;
        let store = Store::open(dir.join(STORE_DIR))?;
        let journal = Journal::open(dir.join(JOURNAL_DIR))?;
        let inner = Self {
            store,
            journal,
            dir,
            bulk_load_memory_mb: AtomicUsize::new(GraphLimits::default().bulk_load_memory_mb),
        };
        inner.recover()?;
        inner.migrate_legacy_files()?;
        Ok(inner)
    }

    /// Finishes (or undoes) what a crash interrupted.
    fn recover(&self) -> Result<(), GraphError> {
        for (entry, step) in self.journal.pending()? {
            tracing::warn!(?step, "finishing a graph change a crash interrupted");
            self.run(&entry, step)?;
            self.finish(entry)?;
        }
        Ok(())
    }

    /// The last step of a change that went through a staging graph: copies `from` into
    /// `to` (replacing `to`'s triples with `replace`) and drops `from`, recorded in the
    /// journal first so that a crash from here on finishes the copy; then closes `entry`.
    fn copy_and_finish(
        &self,
        entry: Entry,
        from: &str,
        to: &str,
        replace: bool,
    ) -> Result<(), GraphError> {
        let step = Step::Copy {
            from: from.to_owned(),
            to: to.to_owned(),
            replace,
            then_discard: true,
        };
        self.journal.set(&entry, &step)?;
        self.run(&entry, step)?;
        self.finish(entry)
    }

    /// Runs a journal step to its end (also when it ran in part before).
    fn run(&self, entry: &Entry, step: Step) -> Result<(), GraphError> {
        match step {
            Step::Discard { graphs } => {
                for graph in graphs {
                    self.clear(&node(&graph)?)?;
                }
            }
            Step::Drop { graph } => self.clear(&node(&graph)?)?,
            Step::Copy {
                from,
                to,
                replace,
                then_discard,
            } => {
                let (from, to) = (node(&from)?, node(&to)?);
                if replace {
                    self.clear(&to)?;
                }
                let copied = self.bulk_copy(&from, &to)?;
                // Emptied first, `to` holds what was copied: the triples of one graph, each
                // once (not read back to count them).
                let total = if replace {
                    copied
                } else {
                    self.sparql_count(&to)?
                };
                self.set_count(&to, total)?;
                if then_discard {
                    let discard = Step::Discard {
                        graphs: vec![from.as_str().to_owned()],
                    };
                    self.journal.set(entry, &discard)?;
                    self.clear(&from)?;
                }
            }
        }
        Ok(())
    }

    /// Loads the N-Quads files of the former in-memory engine, each in one bulk load, and
    /// removes each once it is in the store (a crash in between loads it again).
    fn migrate_legacy_files(&self) -> Result<(), GraphError> {
        let legacy = self.dir.join(LEGACY_DIR);
        if !legacy.is_dir() {
            return Ok(());
        }
        let mut names = Vec::new();
        let entries = std::fs::read_dir(&legacy).map_err(GraphError::persist(&legacy))?;
        for entry in entries {
            let entry = entry.map_err(GraphError::persist(&legacy))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        for name in names {
            let path = legacy.join(&name);
            if name.contains(LEGACY_TEMP_MARKER) {
                // An interrupted write of the former engine: its graph file is intact.
                tracing::warn!(path = %path.display(), "removing an unfinished graph write");
                std::fs::remove_file(&path).map_err(GraphError::persist(&path))?;
                continue;
            }
            let Some(hash) = name.strip_suffix(&format!(".{LEGACY_EXTENSION}")) else {
                tracing::warn!(path = %path.display(), "ignoring a foreign file in the graph store");
                continue;
            };
            self.migrate_legacy_file(&path, hash)?;
            // In the store for good before the file goes.
            self.store.flush()?;
            std::fs::remove_file(&path).map_err(GraphError::persist(&path))?;
            sync_dir(&legacy)?;
        }
        if std::fs::remove_dir(&legacy).is_ok() {
            sync_dir(&self.dir)?;
        }
        Ok(())
    }

    fn migrate_legacy_file(&self, path: &Path, hash: &str) -> Result<(), GraphError> {
        let corrupt = |message: String| GraphError::CorruptStore {
            path: path.to_path_buf(),
            message,
        };
        let file = File::open(path).map_err(GraphError::persist(path))?;
        let mut quads = RdfParser::from_format(OxFormat::NQuads)
            .for_reader(BufReader::with_capacity(1 << 16, file))
            .map(|quad| quad.map_err(|e| corrupt(e.to_string())));
        let Some(first) = quads.next().transpose()? else {
            return Ok(());
        };
        let graph = match &first.graph_name {
            GraphName::NamedNode(g) if file_stem(g) == hash => g.clone(),
            other => return Err(corrupt(format!("holds a triple of the graph {other}"))),
        };
        tracing::info!(graph = %graph, path = %path.display(), "loading a graph file of the former in-memory store");
        // What an interrupted migration left of it.
        self.clear(&graph)?;
        let rest = quads.map(|quad| {
            let quad = quad?;
            if quad.graph_name != GraphName::NamedNode(graph.clone()) {
                return Err(corrupt(format!(
                    "holds a triple of the graph {}",
                    quad.graph_name
                )));
            }
            Ok(quad)
        });
        let mut loader = self.loader();
        loader.load_ok_quads::<GraphError, GraphError>(std::iter::once(Ok(first)).chain(rest))?;
        // Without commit the bulk loader drops everything it was given.
        loader.commit()?;
        let total = self.sparql_count(&graph)?;
        self.set_count(&graph, total)
    }

    /// Makes what was written durable (RocksDB's writes reach its log without an fsync:
    /// a flush writes and syncs them as table files), then removes the journal entry.
    pub(super) fn finish(&self, entry: Entry) -> Result<(), GraphError> {
        self.store.flush()?;
        self.journal.finish(entry)
    }

    pub(super) fn loader(&self) -> BulkLoader<'_> {
        self.store
            .bulk_loader()
            .with_max_memory_size_in_megabytes(self.bulk_load_memory_mb.load(Ordering::Relaxed))
    }

    fn graph_triples(&self, graph: &NamedNode) -> impl Iterator<Item = Result<Triple, GraphError>> {
        self.store
            .quads_for_pattern(None, None, None, Some(graph.as_ref().into()))
            .map(|q| q.map(Triple::from).map_err(GraphError::from))
    }

    /// The graph's triples that name blank nodes (reads the whole graph).
    fn blank_triples(&self, graph: &NamedNode) -> Result<Vec<Triple>, GraphError> {
        let mut blank = Vec::new();
        for triple in self.graph_triples(graph) {
            let triple = triple?;
            if has_blank_node(&triple) {
                blank.push(triple);
            }
        }
        Ok(blank)
    }

    /// The graph's size: its recorded count, or counted (an empty graph has none).
    pub(super) fn count(&self, graph: &NamedNode) -> Result<u64, GraphError> {
        match self.recorded_count(graph)? {
            Some(n) => Ok(n),
            // A graph not written yet (each graph of a new package's commit): one seek, not
            // a query.
            None if self.is_empty(graph) => Ok(0),
            None => self.sparql_count(graph),
        }
    }

    pub(super) fn recorded_count(&self, graph: &NamedNode) -> Result<Option<u64>, GraphError> {
        let (_, predicate) = meta_nodes();
        for quad in self.meta_records(graph, Some(&predicate)) {
            if let Term::Literal(literal) = quad?.object
                && let Ok(n) = literal.value().parse()
            {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Counts the graph's triples in the store's own encoding (no term is decoded).
    pub(super) fn sparql_count(&self, graph: &NamedNode) -> Result<u64, GraphError> {
        count::sparql_count(&self.store, graph)
    }

    /// Whether the graph has no triple (`false` when it cannot be read). A graph the store
    /// does not name holds nothing: one key looked up, where a seek opens an iterator over
    /// every file of the index (a commit asks it of each new graph: issue 56).
    pub(super) fn is_empty(&self, graph: &NamedNode) -> bool {
        if matches!(self.store.contains_named_graph(graph), Ok(false)) {
            return true;
        }
        self.store
            .quads_for_pattern(None, None, None, Some(graph.as_ref().into()))
            .next()
            .is_none()
    }

    /// Records the graph's size (none when empty) in its own transaction.
    pub(super) fn set_count(&self, graph: &NamedNode, total: u64) -> Result<(), GraphError> {
        let mut transaction = self.store.start_transaction()?;
        set_count_in(&mut transaction, graph, total)?;
        transaction.commit()?;
        Ok(())
    }

    /// Removes every triple of the graph, a batch per transaction, then the graph itself
    /// and its count. Only the journal makes this look atomic.
    pub(super) fn clear(&self, graph: &NamedNode) -> Result<(), GraphError> {
        // Before any triple goes: the files it was loaded from are no longer all in it.
        self.forget_loaded(graph)?;
        let mut batch = Vec::with_capacity(CLEAR_BATCH);
        // The iterator reads a snapshot: the removals do not disturb it.
        for quad in self
            .store
            .quads_for_pattern(None, None, None, Some(graph.as_ref().into()))
        {
            batch.push(quad?);
            if batch.len() >= CLEAR_BATCH {
                self.remove_all(&batch)?;
                batch.clear();
            }
        }
        self.remove_all(&batch)?;
        let mut transaction = self.store.start_transaction()?;
        set_count_in(&mut transaction, graph, 0)?;
        transaction.remove_named_graph(NamedOrBlankNode::from(graph.clone()).as_ref())?;
        transaction.commit()?;
        Ok(())
    }

    pub(super) fn remove_all(&self, quads: &[Quad]) -> Result<(), GraphError> {
        if quads.is_empty() {
            return Ok(());
        }
        let mut transaction = self.store.start_transaction()?;
        for quad in quads {
            transaction.remove(quad);
        }
        transaction.commit()?;
        Ok(())
    }

    /// Adds the triples of `from` to `to` through the bulk loader; returns how many it
    /// read from `from`.
    fn bulk_copy(&self, from: &NamedNode, to: &NamedNode) -> Result<u64, GraphError> {
        let mut copied = 0u64;
        let mut loader = self.loader();
        loader.load_ok_quads::<GraphError, GraphError>(self.graph_triples(from).map(|t| {
            copied += 1;
            t.map(|t| t.in_graph(to.clone()))
        }))?;
        loader.commit()?;
        Ok(copied)
    }

    /// A load; `digests`, when every file's is known, are remembered once the content is
    /// in (see [`Self::loaded_from`]), and an append of files the graph was all loaded from
    /// answers `unchanged` without reading them.
    fn load_files(
        &self,
        graph: &NamedNode,
        files: &[(PathBuf, RdfFormat)],
        digests: Option<&BTreeSet<String>>,
        limits: GraphLimits,
        replace: bool,
        keep: Option<&NamedNode>,
    ) -> Result<GraphOutcome, GraphError> {
        let before = self.count(graph)?;
        let keep = match keep {
            Some(keep) if self.count(keep)? > 0 => Some(keep),
            _ => None,
        };
        if let Some(digests) = digests
            && !replace
            && keep.is_none()
            && before > 0
            && !digests.is_empty()
            && digests.is_subset(&self.loaded_from(graph)?)
        {
            tracing::debug!(graph = %graph, "graph unchanged: loaded from every one of these files before");
            return Ok(unchanged(before));
        }
        let (outcome, recorded) = if replace || before == 0 {
            self.load_whole(graph, files, limits, before, keep, digests)?
        } else {
            (self.append(graph, files, limits, before, keep)?, false)
        };
        if !recorded
            && let Some(digests) = digests
            && outcome.total_triples > 0
        {
            self.remember_loaded(graph, digests)?;
        }
        Ok(outcome)
    }

    /// A load that makes the files the graph's content: the graph is empty (`before` is
    /// 0) and they go straight into it, or they replace it through a staging graph.
    /// Returns whether the graph's records (count, and `digests`) are written.
    fn load_whole(
        &self,
        graph: &NamedNode,
        files: &[(PathBuf, RdfFormat)],
        limits: GraphLimits,
        before: u64,
        keep: Option<&NamedNode>,
        digests: Option<&BTreeSet<String>>,
    ) -> Result<(GraphOutcome, bool), GraphError> {
        let target = if before == 0 {
            graph.clone()
        } else {
            staging_graph()
        };
        let entry = self.journal.begin(&Step::Discard {
            graphs: vec![target.as_str().to_owned()],
        })?;
        let abandon = |entry: Entry, error: GraphError| {
            // Undo now what the journal would undo at the next start.
            match self.clear(&target).and_then(|()| self.finish(entry)) {
                Ok(()) => error,
                Err(cleanup) => {
                    tracing::error!(error = %cleanup, "cannot remove an abandoned graph load; it is removed at the next start");
                    error
                }
            }
        };
        // Empty (as it should be): it then holds the distinct triples given to the load.
        let empty = self.is_empty(&target);
        let started = std::time::Instant::now();
        let distinct = match self.bulk_load_files(&target, graph, files, limits) {
            Ok(distinct) => distinct,
            Err(error) => return Err(abandon(entry, error)),
        };
        let loaded = started.elapsed();
        let counted = if empty {
            distinct
        } else {
            self.sparql_count(&target)
        };
        let total = match counted {
            Ok(total) => total,
            Err(error) => return Err(abandon(entry, error)),
        };
        tracing::info!(
            graph = %graph,
            triples = total,
            load_ms = loaded.as_millis() as u64,
            count_ms = (started.elapsed() - loaded).as_millis() as u64,
            "graph bulk-loaded"
        );
        if let Some(keep) = keep {
            match self.same_content(&target, keep) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(abandon(
                        entry,
                        GraphError::VersionExists {
                            graph: keep.as_str().to_owned(),
                        },
                    ));
                }
                Err(error) => return Err(abandon(entry, error)),
            }
        }
        if before == 0 {
            if total == 0 {
                // An empty file into an empty graph: nothing to keep.
                self.clear(&target)?;
                self.finish(entry)?;
                return Ok((unchanged(0), false));
            }
            // Ingested as the triples were, not written (see `ingest_records`).
            if let Err(error) = self.ingest_records(graph, total, digests) {
                return Err(abandon(entry, error));
            }
            self.journal.finish(entry)?;
            return Ok((
                GraphOutcome {
                    triples_added: total,
                    triples_removed: 0,
                    total_triples: total,
                    unchanged: false,
                },
                true,
            ));
        }
        // A replace: what changes, as the comparison of contents sees it.
        let diff = self.diff(&target, graph);
        let (added, removed) = match diff {
            Ok(diff) => diff,
            Err(error) => return Err(abandon(entry, error)),
        };
        if added == 0 && removed == 0 {
            self.clear(&target)?;
            self.finish(entry)?;
            return Ok((unchanged(before), false));
        }
        // From here on the replace happens: a crash finishes it.
        self.copy_and_finish(entry, target.as_str(), graph.as_str(), true)?;
        Ok((
            GraphOutcome {
                triples_added: added,
                triples_removed: removed,
                total_triples: total,
                unchanged: false,
            },
            false,
        ))
    }

    /// Streams the files into `target` through the bulk loader (blank-node components
    /// collapsed first: they are held until the end) and commits. `graph` is the IRI
    /// relative IRIs resolve against. Returns the number of distinct triples given
    /// ([`count::Distinct`], counted beside the loader's last batches).
    fn bulk_load_files(
        &self,
        target: &NamedNode,
        graph: &NamedNode,
        files: &[(PathBuf, RdfFormat)],
        limits: GraphLimits,
    ) -> Result<Result<u64, GraphError>, GraphError> {
        let mut blank = Vec::new();
        let mut distinct = count::Distinct::new(self.bulk_load_memory_mb.load(Ordering::Relaxed));
        let mut loader = self.loader();
        let ground =
            parse::stream_files(files, graph.as_str(), limits)?.filter_map(|triple| match triple {
                Ok(triple) if has_blank_node(&triple) => {
                    blank.push(triple);
                    None
                }
                Ok(triple) => Some(
                    distinct
                        .add(&triple)
                        .map(|()| triple.in_graph(target.clone())),
                ),
                Err(error) => Some(Err(error)),
            });
        let started = std::time::Instant::now();
        loader.load_ok_quads::<GraphError, GraphError>(ground)?;
        let parsed = started.elapsed();
        let blank = Content::collapsed(blank).triples();
        for triple in &blank {
            distinct.add(triple)?;
        }
        loader.load_quads(blank.into_iter().map(|t| t.in_graph(target.clone())))?;
        // Without commit the bulk loader drops everything it was given. Its last batches
        // and the ingestion leave a core to the count.
        let (committed, counted) = std::thread::scope(|scope| {
            let counting = scope.spawn(move || {
                let started = std::time::Instant::now();
                let counted = distinct.finish();
                tracing::debug!(
                    ms = started.elapsed().as_millis() as u64,
                    "bulk load: the distinct triples given counted"
                );
                counted
            });
            let committed = loader.commit();
            let counted = counting.join().unwrap_or_else(|_| {
                Err(GraphError::Query {
                    message: format!("the count of the graph {target} stopped"),
                })
            });
            (committed, counted)
        });
        committed?;
        tracing::debug!(
            parse_ms = parsed.as_millis() as u64,
            commit_ms = (started.elapsed() - parsed).as_millis() as u64,
            "bulk load: files parsed and handed to the loader, then its last batches and the ingestion"
        );
        Ok(counted)
    }

    /// How many ground triples of `a` are not in `b` (reads `a`).
    fn ground_missing(&self, a: &NamedNode, b: &NamedNode) -> Result<u64, GraphError> {
        Ok(self.compare(a, b)?.0)
    }

    /// One read of `a`: how many of its ground triples are not in `b`, and its triples
    /// that name blank nodes.
    fn compare(&self, a: &NamedNode, b: &NamedNode) -> Result<(u64, Vec<Triple>), GraphError> {
        let mut missing = 0;
        let mut blank = Vec::new();
        for triple in self.graph_triples(a) {
            let triple = triple?;
            if has_blank_node(&triple) {
                blank.push(triple);
            } else if !self.store.contains(triple.as_ref().in_graph(b.as_ref()))? {
                missing += 1;
            }
        }
        Ok((missing, blank))
    }

    /// Adds the files to a graph that is not empty: only the triples it lacks are
    /// written, in one transaction, or through a staging graph when they are many.
    fn append(
        &self,
        graph: &NamedNode,
        files: &[(PathBuf, RdfFormat)],
        limits: GraphLimits,
        before: u64,
        keep: Option<&NamedNode>,
    ) -> Result<GraphOutcome, GraphError> {
        let mut new: HashSet<Triple> = HashSet::new();
        let mut blank = Vec::new();
        // A large append: (staging graph, its journal entry, its loader).
        let mut staged: Option<(NamedNode, Entry, BulkLoader<'_>)> = None;
        let outcome = (|| {
            for triple in parse::stream_files(files, graph.as_str(), limits)? {
                let triple = triple?;
                if has_blank_node(&triple) {
                    blank.push(triple);
                    continue;
                }
                if new.contains(&triple)
                    || self
                        .store
                        .contains(triple.as_ref().in_graph(graph.as_ref()))?
                {
                    continue;
                }
                new.insert(triple);
                if new.len() >= MAX_TRANSACTION_TRIPLES {
                    if staged.is_none() {
                        let staging = staging_graph();
                        let entry = self.journal.begin(&Step::Discard {
                            graphs: vec![staging.as_str().to_owned()],
                        })?;
                        staged = Some((staging, entry, self.loader()));
                    }
                    if let Some((staging, _, loader)) = &mut staged {
                        loader.load_quads(new.drain().map(|t| t.in_graph(staging.clone())))?;
                    }
                }
            }
            // Blank-node components the graph does not already hold.
            let mut inserted_blank = Vec::new();
            if !blank.is_empty() {
                let stored = Content::stored(self.blank_triples(graph)?);
                inserted_blank = stored
                    .plan(&Content::collapsed(std::mem::take(&mut blank)), false)
                    .insert;
            }
            if let Some(keep) = keep {
                let staging = staged.as_ref().map(|(s, _, _)| s);
                if !self.append_keeps(graph, staging, &new, &inserted_blank, keep)? {
                    return Err(GraphError::VersionExists {
                        graph: keep.as_str().to_owned(),
                    });
                }
            }
            let Some((staging, entry, mut loader)) = staged.take() else {
                if new.is_empty() && inserted_blank.is_empty() {
                    return Ok(unchanged(before));
                }
                let added = (new.len() + inserted_blank.len()) as u64;
                let mut transaction = self.store.start_transaction()?;
                for triple in new.iter().chain(&inserted_blank) {
                    transaction.insert(triple.as_ref().in_graph(graph.as_ref()));
                }
                set_count_in(&mut transaction, graph, before + added)?;
                transaction.commit()?;
                // Durable before the push records it.
                self.store.flush()?;
                return Ok(GraphOutcome {
                    triples_added: added,
                    triples_removed: 0,
                    total_triples: before + added,
                    unchanged: false,
                });
            };
            let quads = new
                .drain()
                .chain(inserted_blank)
                .map(|t| t.in_graph(staging.clone()));
            let loaded = loader
                .load_quads(quads)
                .and_then(|()| loader.commit())
                .map_err(GraphError::from)
                .and_then(|()| self.sparql_count(&staging));
            let added = match loaded {
                Ok(added) => added,
                Err(error) => {
                    staged = Some((staging, entry, self.loader()));
                    return Err(error);
                }
            };
            // From here on the append happens: a crash finishes it.
            self.copy_and_finish(entry, staging.as_str(), graph.as_str(), false)?;
            Ok(GraphOutcome {
                triples_added: added,
                triples_removed: 0,
                total_triples: self.count(graph)?,
                unchanged: false,
            })
        })();
        if outcome.is_err()
            && let Some((staging, entry, loader)) = staged
        {
            drop(loader);
            if let Err(cleanup) = self.clear(&staging).and_then(|()| self.finish(entry)) {
                tracing::error!(error = %cleanup, "cannot remove an abandoned graph load; it is removed at the next start");
            }
        }
        outcome
    }

    /// Whether the graph plus what an append adds (ground triples in `staging` and
    /// `new`, and blank-node triples `blank`) has the same content as `keep`.
    fn append_keeps(
        &self,
        graph: &NamedNode,
        staging: Option<&NamedNode>,
        new: &HashSet<Triple>,
        blank: &[Triple],
        keep: &NamedNode,
    ) -> Result<bool, GraphError> {
        // Everything of the result is in `keep`…
        for triple in new {
            if !self
                .store
                .contains(triple.as_ref().in_graph(keep.as_ref()))?
            {
                return Ok(false);
            }
        }
        if self.ground_missing(graph, keep)? > 0 {
            return Ok(false);
        }
        if let Some(staging) = staging
            && self.ground_missing(staging, keep)? > 0
        {
            return Ok(false);
        }
        // … and everything of `keep` is in the result.
        for triple in self.graph_triples(keep) {
            let triple = triple?;
            if has_blank_node(&triple) || new.contains(&triple) {
                continue;
            }
            let in_graph = self
                .store
                .contains(triple.as_ref().in_graph(graph.as_ref()))?;
            let in_staging = match staging {
                Some(s) => self.store.contains(triple.as_ref().in_graph(s.as_ref()))?,
                None => false,
            };
            if !in_graph && !in_staging {
                return Ok(false);
            }
        }
        let mut after = self.blank_triples(graph)?;
        after.extend(blank.iter().cloned());
        Ok(Content::stored(self.blank_triples(keep)?)
            .plan(&Content::collapsed(after), true)
            .is_empty())
    }

    /// What turns `old` into `new`: (triples added, triples removed), blank-node
    /// components compared as loads compare them (reads both graphs).
    fn diff(&self, new: &NamedNode, old: &NamedNode) -> Result<(u64, u64), GraphError> {
        let (added, new_blank) = self.compare(new, old)?;
        let (removed, old_blank) = self.compare(old, new)?;
        let plan = Content::stored(old_blank).plan(&Content::collapsed(new_blank), true);
        Ok((
            added + plan.insert.len() as u64,
            removed + plan.remove.len() as u64,
        ))
    }

    /// Whether `a` and `b` hold the same content: the same ground triples, and blank-node
    /// components compared as loads compare them.
    fn same_content(&self, a: &NamedNode, b: &NamedNode) -> Result<bool, GraphError> {
        Ok(self.diff(b, a)? == (0, 0))
    }

    fn snapshot(
        &self,
        source: &NamedNode,
        target: &NamedNode,
        force: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let existing = self.count(target)?;
        let total = self.count(source)?;
        let (added, removed) = if existing > 0 {
            let diff = self.diff(source, target)?;
            if diff == (0, 0) {
                return Ok(unchanged(existing));
            }
            if !force {
                return Err(GraphError::VersionExists {
                    graph: target.as_str().to_owned(),
                });
            }
            diff
        } else if total == 0 {
            return Ok(unchanged(0));
        } else {
            (total, 0)
        };
        // The copy happens once it is journaled: a crash finishes it.
        let step = Step::Copy {
            from: source.as_str().to_owned(),
            to: target.as_str().to_owned(),
            replace: true,
            then_discard: false,
        };
        let entry = self.journal.begin(&step)?;
        self.run(&entry, step)?;
        self.finish(entry)?;
        Ok(GraphOutcome {
            triples_added: added,
            triples_removed: removed,
            total_triples: total,
            unchanged: false,
        })
    }

    fn drop_graph(&self, graph: &NamedNode) -> Result<bool, GraphError> {
        let node = NamedOrBlankNode::from(graph.clone());
        let existed = self.store.contains_named_graph(node.as_ref())? || self.count(graph)? > 0;
        if !existed {
            return Ok(false);
        }
        let step = Step::Drop {
            graph: graph.as_str().to_owned(),
        };
        let entry = self.journal.begin(&step)?;
        self.run(&entry, step)?;
        self.finish(entry)?;
        Ok(true)
    }

    fn export(&self, graph: &NamedNode, format: RdfFormat) -> Result<Exported, GraphError> {
        spool_triples(format, self.graph_triples(graph))
    }
}

/// The file name of a graph in the former in-memory engine: the sha256 of its IRI.
fn file_stem(graph: &NamedNode) -> String {
    hex::encode(Sha256::digest(graph.as_str().as_bytes()))
}

fn node(iri: &str) -> Result<NamedNode, GraphError> {
    NamedNode::new(iri).map_err(|e| GraphError::InvalidGraphIri {
        iri: iri.to_owned(),
        reason: e.to_string(),
    })
}

/// A fresh staging graph's name.
fn staging_graph() -> NamedNode {
    NamedNode::new_unchecked(format!("{STAGING_PREFIX}{}", uuid::Uuid::new_v4().simple()))
}

fn unchanged(total: u64) -> GraphOutcome {
    GraphOutcome {
        triples_added: 0,
        triples_removed: 0,
        total_triples: total,
        unchanged: true,
    }
}

/// One async mutex per graph IRI: writes to a graph through one engine are serialized.
pub(super) type GraphLocks = crate::engines::locks::KeyedLocks;
