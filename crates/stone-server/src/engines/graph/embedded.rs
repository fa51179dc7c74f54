//! The embedded graph store: Oxigraph in memory, one N-Quads file per named graph.
//!
//! Layout under the engine's directory:
//!
//! ```text
//! <dir>/graphs/<sha256(graph IRI) as hex>.nq          the graph's triples, as N-Quads
//! <dir>/graphs/<sha256>.nq.tmp-<uuid>                 a write in progress (removed on open)
//! ```
//!
//! A change is written to a temporary file, fsynced, renamed over the graph's file and
//! the directory fsynced, all inside an open Oxigraph transaction that is committed only
//! then: what readers see in memory is always on disk, and a crash at any point leaves
//! either the old or the new file. An emptied graph has no file.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use oxigraph::io::{RdfFormat as OxFormat, RdfParser, RdfSerializer};
use oxigraph::model::{
    GraphName, GraphNameRef, NamedNode, NamedOrBlankNode, Quad, QuadRef, Triple,
};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::content::Content;
use super::spool::{Exported, spool_triples};
use super::{GraphError, GraphOutcome, QueryLimits, QueryScope, RdfFormat};

const GRAPHS_DIR: &str = "graphs";
const GRAPH_FILE_EXTENSION: &str = "nq";
const TEMP_MARKER: &str = ".tmp-";

pub(super) struct EmbeddedGraphs {
    inner: Arc<Inner>,
    locks: GraphLocks,
}

struct Inner {
    store: Store,
    /// `<dir>/graphs`.
    graphs_dir: PathBuf,
}

impl std::fmt::Debug for EmbeddedGraphs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedGraphs")
            .field("graphs_dir", &self.inner.graphs_dir)
            .finish_non_exhaustive()
    }
}

impl EmbeddedGraphs {
    pub async fn open(dir: &Path) -> Result<Self, GraphError> {
        let graphs_dir = dir.join(GRAPHS_DIR);
        let inner = tokio::task::spawn_blocking(move || Inner::open(graphs_dir))
            .await
            .map_err(GraphError::task)??;
        Ok(Self {
            inner: Arc::new(inner),
            locks: GraphLocks::default(),
        })
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

    pub async fn load(
        &self,
        graph: NamedNode,
        new: Content,
        replace: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let lock = self.locks.get(graph.as_str());
        let _guard = lock.lock().await;
        self.blocking(move |inner| inner.load(&graph, &new, replace))
            .await
    }

    pub async fn count(&self, graph: NamedNode) -> Result<u64, GraphError> {
        self.blocking(move |inner| inner.count(&graph)).await
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

    /// Runs the query on a blocking thread over the graphs of `scope` (all, without one),
    /// stopped through a cancellation token when the timeout passes or this future is
    /// dropped (the request went away): the thread then ends at its next check and frees
    /// what the query held.
    pub async fn query(
        &self,
        sparql: &str,
        scope: Option<&QueryScope>,
        limits: QueryLimits,
    ) -> Result<Value, GraphError> {
        let token = CancellationToken::new();
        let _stop = CancelOnDrop(token.clone());
        let sparql = sparql.to_owned();
        let scope = scope.cloned();
        let work = {
            let token = token.clone();
            self.blocking(move |inner| inner.query(&sparql, scope.as_ref(), &token, limits))
        };
        match tokio::time::timeout(limits.timeout, work).await {
            Ok(answer) => answer,
            Err(_) => Err(GraphError::QueryTimeout {
                seconds: limits.timeout.as_secs(),
            }),
        }
    }

    /// Every triple of the graph, blank nodes as stored.
    pub async fn triples(&self, graph: NamedNode) -> Result<Vec<Triple>, GraphError> {
        self.blocking(move |inner| inner.graph_triples(&graph).collect())
            .await
    }

    /// The IRIs of the named graphs that start with `prefix`, sorted.
    pub async fn graphs_with_prefix(&self, prefix: &str) -> Result<Vec<String>, GraphError> {
        let prefix = prefix.to_owned();
        self.blocking(move |inner| {
            let mut found = Vec::new();
            for graph in inner.store.named_graphs() {
                if let NamedOrBlankNode::NamedNode(graph) = graph?
                    && graph.as_str().starts_with(&prefix)
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
    fn open(graphs_dir: PathBuf) -> Result<Self, GraphError> {
        std::fs::create_dir_all(&graphs_dir).map_err(GraphError::persist(&graphs_dir))?;
        let store = Store::new()?;
        let mut loader = store.bulk_loader();
        let entries = std::fs::read_dir(&graphs_dir).map_err(GraphError::persist(&graphs_dir))?;
        for entry in entries {
            let entry = entry.map_err(GraphError::persist(&graphs_dir))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.contains(TEMP_MARKER) {
                // An interrupted write: the graph's file is still the previous version.
                tracing::warn!(path = %path.display(), "removing an unfinished graph write");
                std::fs::remove_file(&path).map_err(GraphError::persist(&path))?;
                continue;
            }
            let Some(hash) = name.strip_suffix(&format!(".{GRAPH_FILE_EXTENSION}")) else {
                tracing::warn!(path = %path.display(), "ignoring a foreign file in the graph store");
                continue;
            };
            let hash = hash.to_owned();
            let file = File::open(&path).map_err(GraphError::persist(&path))?;
            let quads = RdfParser::from_format(OxFormat::NQuads)
                .for_reader(BufReader::with_capacity(1 << 16, file))
                .map(|quad| {
                    let quad = quad.map_err(|e| GraphError::CorruptStore {
                        path: path.clone(),
                        message: e.to_string(),
                    })?;
                    match &quad.graph_name {
                        GraphName::NamedNode(g) if file_stem(g) == hash => Ok(quad),
                        other => Err(GraphError::CorruptStore {
                            path: path.clone(),
                            message: format!("holds a triple of the graph {other}"),
                        }),
                    }
                });
            loader.load_ok_quads::<GraphError, GraphError>(quads)?;
        }
        // Without commit the bulk loader drops everything it was given.
        loader.commit()?;
        Ok(Self { store, graphs_dir })
    }

    fn graph_triples(&self, graph: &NamedNode) -> impl Iterator<Item = Result<Triple, GraphError>> {
        self.store
            .quads_for_pattern(None, None, None, Some(graph.as_ref().into()))
            .map(|q| q.map(Triple::from).map_err(GraphError::from))
    }

    fn count(&self, graph: &NamedNode) -> Result<u64, GraphError> {
        let mut n = 0;
        for triple in self.graph_triples(graph) {
            triple?;
            n += 1;
        }
        Ok(n)
    }

    fn load(
        &self,
        graph: &NamedNode,
        new: &Content,
        replace: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let stored = Content::stored(self.graph_triples(graph).collect::<Result<Vec<_>, _>>()?);
        let plan = stored.plan(new, replace);
        let before = stored.len();
        drop(stored);
        if plan.is_empty() {
            return Ok(GraphOutcome {
                triples_added: 0,
                triples_removed: 0,
                total_triples: before,
                unchanged: true,
            });
        }
        let graph_name = GraphNameRef::NamedNode(graph.as_ref());
        let mut transaction = self.store.start_transaction()?;
        for triple in &plan.remove {
            transaction.remove(triple.as_ref().in_graph(graph_name));
        }
        for triple in &plan.insert {
            transaction.insert(triple.as_ref().in_graph(graph_name));
        }
        let quads: Vec<Quad> = transaction
            .quads_for_pattern(None, None, None, Some(graph_name))
            .collect::<Result<_, _>>()?;
        if quads.is_empty() {
            transaction.remove_named_graph(NamedOrBlankNode::from(graph.clone()).as_ref())?;
        }
        // On disk first: a failure here rolls the transaction back (it is dropped).
        self.write_graph_file(graph, &quads)?;
        transaction.commit()?;
        Ok(GraphOutcome {
            triples_added: plan.insert.len() as u64,
            triples_removed: plan.remove.len() as u64,
            total_triples: quads.len() as u64,
            unchanged: false,
        })
    }

    fn drop_graph(&self, graph: &NamedNode) -> Result<bool, GraphError> {
        let node = NamedOrBlankNode::from(graph.clone());
        let existed = self.store.contains_named_graph(node.as_ref())? || self.count(graph)? > 0;
        self.write_graph_file(graph, &[])?;
        self.store.remove_named_graph(node.as_ref())?;
        Ok(existed)
    }

    /// Replaces the graph's file by `quads` atomically (no file when empty).
    fn write_graph_file(&self, graph: &NamedNode, quads: &[Quad]) -> Result<(), GraphError> {
        let target = self
            .graphs_dir
            .join(format!("{}.{GRAPH_FILE_EXTENSION}", file_stem(graph)));
        if quads.is_empty() {
            match std::fs::remove_file(&target) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                Err(e) => return Err(GraphError::persist(&target)(e)),
            }
            return sync_dir(&self.graphs_dir);
        }
        let temp = self.graphs_dir.join(format!(
            "{}.{GRAPH_FILE_EXTENSION}{TEMP_MARKER}{}",
            file_stem(graph),
            uuid::Uuid::new_v4().simple()
        ));
        let written = (|| {
            let file = File::create(&temp)?;
            let mut serializer = RdfSerializer::from_format(OxFormat::NQuads)
                .for_writer(BufWriter::with_capacity(1 << 16, file));
            for quad in quads {
                serializer.serialize_quad(QuadRef::from(quad))?;
            }
            let mut writer = serializer.finish()?;
            writer.flush()?;
            let file = writer.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            std::fs::rename(&temp, &target)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(GraphError::persist(&target)(e));
        }
        sync_dir(&self.graphs_dir)
    }

    fn export(&self, graph: &NamedNode, format: RdfFormat) -> Result<Exported, GraphError> {
        spool_triples(format, self.graph_triples(graph))
    }

    fn query(
        &self,
        sparql: &str,
        scope: Option<&QueryScope>,
        token: &CancellationToken,
        limits: QueryLimits,
    ) -> Result<Value, GraphError> {
        let mut query = SparqlEvaluator::new()
            .with_cancellation_token(token.clone())
            .parse_query(sparql)
            .map_err(|e| GraphError::InvalidQuery {
                message: e.to_string(),
            })?;
        if let Some(scope) = scope {
            restrict(&mut query, scope)?;
        }
        let timeout = || {
            // The thread lets go here, whoever stopped it (the timeout or a gone client).
            tracing::info!("SPARQL query stopped (timeout, or the client went away)");
            GraphError::QueryTimeout {
                seconds: limits.timeout.as_secs(),
            }
        };
        let evaluation_error = |e: QueryEvaluationError| match e {
            // The caller stopped the query: timed out, or gone.
            QueryEvaluationError::Cancelled => timeout(),
            e => GraphError::Query {
                message: e.to_string(),
            },
        };
        let too_many_rows = || GraphError::ResultTooLarge {
            max: limits.max_rows,
            unit: "rows",
        };
        let mut out = CappedBuffer::new(limits.max_bytes);
        // A failed write is the cap when the buffer says so.
        let write_error = |out: &CappedBuffer, e: &dyn std::fmt::Display| {
            if out.exceeded {
                GraphError::ResultTooLarge {
                    max: limits.max_bytes,
                    unit: "bytes",
                }
            } else {
                GraphError::Query {
                    message: e.to_string(),
                }
            }
        };
        let results = query
            .on_store(&self.store)
            .execute()
            .map_err(evaluation_error)?;
        let serializer = QueryResultsSerializer::from_format(QueryResultsFormat::Json);
        let mut rows: u64 = 0;
        match results {
            QueryResults::Boolean(value) => {
                let written = serializer
                    .serialize_boolean_to_writer(&mut out, value)
                    .map(|_| ());
                if let Err(e) = written {
                    return Err(write_error(&out, &e));
                }
            }
            QueryResults::Solutions(solutions) => {
                let mut writer = serializer
                    .serialize_solutions_to_writer(&mut out, solutions.variables().to_vec())
                    .map_err(|e| GraphError::Query {
                        message: e.to_string(),
                    })?;
                for solution in solutions {
                    // Rows that need no store access (VALUES, BIND) are checked here.
                    if token.is_cancelled() {
                        return Err(timeout());
                    }
                    let solution = solution.map_err(evaluation_error)?;
                    rows += 1;
                    if rows > limits.max_rows {
                        return Err(too_many_rows());
                    }
                    if let Err(e) = writer.serialize(&solution) {
                        drop(writer);
                        return Err(write_error(&out, &e));
                    }
                }
                if let Err(e) = writer.finish() {
                    return Err(write_error(&out, &e));
                }
            }
            QueryResults::Graph(triples) => {
                let mut list = Vec::new();
                let mut size: u64 = 0;
                for triple in triples {
                    if token.is_cancelled() {
                        return Err(timeout());
                    }
                    let t = triple.map_err(evaluation_error)?;
                    rows += 1;
                    if rows > limits.max_rows {
                        return Err(too_many_rows());
                    }
                    let row = [
                        t.subject.to_string(),
                        t.predicate.to_string(),
                        t.object.to_string(),
                    ];
                    size += row.iter().map(|term| term.len() as u64 + 3).sum::<u64>();
                    if size > limits.max_bytes {
                        return Err(GraphError::ResultTooLarge {
                            max: limits.max_bytes,
                            unit: "bytes",
                        });
                    }
                    list.push(json!(row));
                }
                return Ok(json!({ "triples": list }));
            }
        }
        serde_json::from_slice(&out.bytes).map_err(|e| GraphError::Query {
            message: e.to_string(),
        })
    }
}

/// A result document in memory, refusing to grow past `max` bytes (the write fails and
/// `exceeded` is set).
struct CappedBuffer {
    bytes: Vec<u8>,
    max: u64,
    exceeded: bool,
}

impl CappedBuffer {
    fn new(max: u64) -> Self {
        Self {
            bytes: Vec::new(),
            max,
            exceeded: false,
        }
    }
}

impl Write for CappedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() as u64 + buf.len() as u64 > self.max {
            self.exceeded = true;
            return Err(std::io::Error::other("the result is larger than allowed"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Cancels the token when dropped: a query future dropped by its caller stops the query.
struct CancelOnDrop(CancellationToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The file name of a graph: the sha256 of its IRI, so any IRI makes a safe name.
fn file_stem(graph: &NamedNode) -> String {
    hex::encode(Sha256::digest(graph.as_str().as_bytes()))
}

fn sync_dir(dir: &Path) -> Result<(), GraphError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(GraphError::persist(dir))
}

/// One async mutex per graph IRI: writes to a graph through one engine are serialized.
pub(super) type GraphLocks = crate::engines::locks::KeyedLocks;

/// Makes `query` run over the graphs of `scope` only, whatever its own `FROM`/`FROM NAMED`.
fn restrict(
    query: &mut oxigraph::sparql::PreparedSparqlQuery,
    scope: &QueryScope,
) -> Result<(), GraphError> {
    let node = |iri: &String| {
        NamedNode::new(iri.as_str()).map_err(|e| GraphError::InvalidQuery {
            message: format!("{iri}: {e}"),
        })
    };
    let default = scope
        .default
        .iter()
        .map(|g| node(g).map(GraphName::from))
        .collect::<Result<Vec<_>, _>>()?;
    let named = scope
        .named
        .iter()
        .map(|g| node(g).map(NamedOrBlankNode::from))
        .collect::<Result<Vec<_>, _>>()?;
    let dataset = query.dataset_mut();
    dataset.set_default_graph(default);
    dataset.set_available_named_graphs(named);
    Ok(())
}
