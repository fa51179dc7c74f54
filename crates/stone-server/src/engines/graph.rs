//! The GRAPH engine: one named graph per dataset and branch.
//!
//! Two implementations behind one type, [`GraphEngine`]:
//!
//! - **embedded** ([`GraphEngine::embedded`]): Oxigraph's own on-disk store (RocksDB)
//!   under `<dir>/store`, opened by one engine at a time (RocksDB locks it). Loads stream
//!   the parsed files into the store (the bulk loader for a new or replaced graph, one
//!   transaction for an append), so memory follows the loader's batches, not the graph;
//!   a change too large for one transaction is made in steps recorded first in a journal,
//!   and the store finishes or undoes it when it opens after a crash. See `embedded.rs`
//!   for what each change costs.
//! - **remote** ([`GraphEngine::remote`]): any server speaking the SPARQL 1.1 Graph Store
//!   Protocol (`GET/PUT/POST/DELETE <store>?graph=<iri>`) and the SPARQL 1.1 Protocol
//!   for queries (`POST <query>`), e.g. `oxigraph serve` (`/store`, `/query`).
//!
//! ## What a load means
//!
//! [`GraphEngine::load`] parses the file *here* (Turtle, N-Triples or JSON-LD; named
//! graphs inside the file are refused; relative IRIs resolve against the graph IRI;
//! JSON-LD remote `@context`s are refused, never fetched), compares it with the graph's
//! current content and writes only when something changes. A graph is a *set* of
//! triples, and blank nodes are compared up to renaming: the triples that share blank
//! nodes form a component, and a component whose canonical form (RDFC-1.0) is already in
//! the graph is not added again. So loading the same file twice, or a file whose triples
//! are all present, reports `unchanged` and writes nothing — in both modes, even though
//! Graph Store servers (Oxigraph included) give posted blank nodes new labels.
//! Components too ambiguous to canonicalize cheaply (many blank nodes with identical
//! neighbourhoods) are never considered present: they are added on every load.
//! Embedded, a file given with its sha256 ([`RdfFile::sha256`]: the push's contents) is
//! remembered once its triples are in, until something removes triples from the graph;
//! an append of files the graph was all loaded from answers `unchanged` without reading
//! them (an unchanged re-push of a large graph costs no parse).
//!
//! With `replace`, the graph's content becomes exactly the file's (an empty file drops
//! the graph). The outcome counts triples as the comparison saw them; `total_triples` is
//! the graph's size afterwards, as the store reports it.
//!
//! Cost: remote, a load reads the whole current graph (one `GET`) and holds it and the
//! new content in memory. Embedded, an append costs lookups of the file's triples (plus
//! a read of the graph's blank-node triples when the file has blank nodes), a load into
//! an empty graph a bulk load of the file, a replace about two bulk loads and a read of
//! the old graph.

//! ## Graph IRIs
//!
//! The engine takes absolute IRIs (RFC 3987) and attaches no meaning to them: the caller
//! names one graph per dataset *and branch* (branches are isolated only because their
//! IRIs differ). Queries see each named graph through `GRAPH <iri>` or `FROM <iri>`; the
//! default graph is not the union of the named graphs (as with `oxigraph serve` without
//! `--union-default-graph`).
//!
//! Writes to one graph are serialized inside one engine; two processes writing the
//! same graph on a remote server may interleave (the Graph Store Protocol has no
//! compare-and-swap).
//!
//! ## Snapshots (named versions)
//!
//! [`GraphEngine::snapshot`] makes a second graph hold exactly the content of the first
//! (the caller names the snapshot graph; the server uses one per dataset, branch and
//! version): nothing is written when the snapshot already holds it. Remote, it is a load
//! with `replace` of the source's content, and a crash leaves the previous snapshot;
//! embedded, it is a copy through the bulk loader (RocksDB cannot share triples between
//! graphs: a version costs the graph's size on disk), and a crash once the copy began
//! is finished when the store opens. A snapshot
//! that holds other content is replaced only with `force`. [`GraphEngine::load_files_keeping`]
//! refuses, before writing, a load that would leave the graph with other content than a
//! given snapshot (a version recorded without force must not be left behind).

mod batch;
pub(crate) use batch::LOAD_BYTES;
mod content;
mod count;
mod embedded;
mod error;
mod journal;
mod loaded;
mod parse;
mod query;
mod remote;
mod spool;

use std::path::Path;

use serde_json::Value;

pub use error::GraphError;
pub use spool::Exported;

use embedded::EmbeddedGraphs;
use remote::RemoteGraphs;

/// The RDF serializations of a GRAPH resource (`.ttl`, `.nt`, `.jsonld`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RdfFormat {
    /// Turtle, `text/turtle`, `.ttl`.
    Turtle,
    /// N-Triples, `application/n-triples`, `.nt`.
    NTriples,
    /// JSON-LD 1.1, `application/ld+json`, `.jsonld`.
    JsonLd,
}

impl RdfFormat {
    /// The format named by a file's extension (case-insensitive): `ttl`, `nt`, `jsonld`.
    pub fn from_path(path: &Path) -> Option<Self> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "ttl" => Some(Self::Turtle),
            "nt" => Some(Self::NTriples),
            "jsonld" => Some(Self::JsonLd),
            _ => None,
        }
    }

    /// The format of a media type (parameters such as `charset` are ignored).
    pub fn from_media_type(media_type: &str) -> Option<Self> {
        let essence = media_type.split(';').next()?.trim().to_ascii_lowercase();
        match essence.as_str() {
            "text/turtle" | "application/x-turtle" => Some(Self::Turtle),
            "application/n-triples" | "text/plain" => Some(Self::NTriples),
            "application/ld+json" => Some(Self::JsonLd),
            _ => None,
        }
    }

    /// The IANA media type.
    pub fn media_type(self) -> &'static str {
        match self {
            Self::Turtle => "text/turtle",
            Self::NTriples => "application/n-triples",
            Self::JsonLd => "application/ld+json",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Turtle => "ttl",
            Self::NTriples => "nt",
            Self::JsonLd => "jsonld",
        }
    }

    /// The human name: `Turtle`, `N-Triples`, `JSON-LD`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Turtle => "Turtle",
            Self::NTriples => "N-Triples",
            Self::JsonLd => "JSON-LD",
        }
    }

    pub(crate) fn to_oxigraph(self) -> oxigraph::io::RdfFormat {
        use oxigraph::io::{JsonLdProfileSet, RdfFormat as Ox};
        match self {
            Self::Turtle => Ox::Turtle,
            Self::NTriples => Ox::NTriples,
            Self::JsonLd => Ox::JsonLd {
                profile: JsonLdProfileSet::empty(),
            },
        }
    }
}

impl std::fmt::Display for RdfFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a load did to a named graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphOutcome {
    /// Triples that were not in the graph and now are.
    pub triples_added: u64,
    /// Triples that were in the graph and no longer are (only with `replace`).
    pub triples_removed: u64,
    /// The graph's size after the load.
    pub total_triples: u64,
    /// Nothing changed and nothing was written (`triples_added == triples_removed == 0`).
    pub unchanged: bool,
}

/// One RDF file of a GRAPH dataset, for [`GraphEngine::load_files`].
#[derive(Debug, Clone, Copy)]
pub struct RdfFile<'a> {
    /// The file (staged on the server).
    pub path: &'a Path,
    /// Its serialization.
    pub format: RdfFormat,
    /// Its sha256, when known: the embedded store remembers the files a graph was loaded
    /// from, and an append of files it was all loaded from changes nothing, without
    /// reading them.
    pub sha256: Option<&'a str>,
}

/// Bounds of what a load takes ([`GraphEngine::with_limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphLimits {
    /// A file larger than this is refused before it is parsed.
    pub max_file_bytes: u64,
    /// A literal's lexical form, or an IRI, longer than this is refused.
    pub max_literal_bytes: usize,
    /// What the embedded store's bulk loader holds in its batches (its own estimate, in
    /// MB, over all its threads): larger batches load faster (fewer, larger sorted files
    /// for RocksDB to take in) and take more memory. Not used by the remote mode.
    pub bulk_load_memory_mb: usize,
}

impl Default for GraphLimits {
    /// 1 GiB files, 16 MiB literals, 400 MB of loader batches.
    fn default() -> Self {
        Self {
            max_file_bytes: 1 << 30,
            max_literal_bytes: 16 << 20,
            bulk_load_memory_mb: 400,
        }
    }
}

/// Bounds of a query ([`GraphEngine::with_query_limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryLimits {
    /// A query running longer is stopped ([`GraphError::QueryTimeout`]); remote mode: the
    /// HTTP request's timeout.
    pub timeout: std::time::Duration,
    /// Most solutions or triples in a result ([`GraphError::ResultTooLarge`]).
    pub max_rows: u64,
    /// Largest result document, in bytes ([`GraphError::ResultTooLarge`]).
    pub max_bytes: u64,
}

impl Default for QueryLimits {
    /// 30 s, a million rows, 32 MiB.
    fn default() -> Self {
        Self {
            timeout: std::time::Duration::from_secs(30),
            max_rows: 1_000_000,
            max_bytes: 32 << 20,
        }
    }
}

/// The named-graph store of the server: embedded Oxigraph or a remote Graph Store
/// Protocol server. Cheap to share behind an `Arc`; every method takes `&self`.
pub struct GraphEngine {
    backend: Backend,
    limits: GraphLimits,
    query_limits: QueryLimits,
}

enum Backend {
    Embedded(EmbeddedGraphs),
    Remote(RemoteGraphs),
}

/// The endpoints of a remote graph server, for [`GraphEngine::remote_with`].
#[derive(Debug, Clone)]
pub struct RemoteGraphSettings {
    /// Graph Store Protocol endpoint; graphs are addressed as `<store_url>?graph=<iri>`.
    pub store_url: String,
    /// SPARQL 1.1 Protocol query endpoint (queries are POSTed as a form).
    pub query_url: String,
}

impl RemoteGraphSettings {
    /// The Oxigraph server layout: `<base_url>/store` and `<base_url>/query`.
    pub fn oxigraph(base_url: &str) -> Self {
        let base = base_url.trim_end_matches('/');
        Self {
            store_url: format!("{base}/store"),
            query_url: format!("{base}/query"),
        }
    }
}

impl GraphEngine {
    /// Opens (or creates) the embedded store under `dir`: finishes or undoes what a crash
    /// interrupted, and loads the N-Quads files of the former in-memory engine
    /// (`<dir>/graphs/`) once.
    pub async fn embedded(dir: &Path) -> Result<Self, GraphError> {
        Ok(Self::with_backend(Backend::Embedded(
            EmbeddedGraphs::open(dir).await?,
        )))
    }

    /// Connects to a remote Oxigraph-style server at `base_url` (`/store`, `/query`) and
    /// checks that it answers a query.
    pub async fn remote(base_url: &str) -> Result<Self, GraphError> {
        Self::remote_with(RemoteGraphSettings::oxigraph(base_url)).await
    }

    /// Connects to a remote Graph Store Protocol server with explicit endpoints and
    /// checks that it answers a query.
    pub async fn remote_with(settings: RemoteGraphSettings) -> Result<Self, GraphError> {
        Ok(Self::with_backend(Backend::Remote(
            RemoteGraphs::connect(settings).await?,
        )))
    }

    fn with_backend(backend: Backend) -> Self {
        Self {
            backend,
            limits: GraphLimits::default(),
            query_limits: QueryLimits::default(),
        }
    }

    /// The engine with other bounds on loads.
    pub fn with_limits(mut self, limits: GraphLimits) -> Self {
        if let Backend::Embedded(embedded) = &self.backend {
            embedded.set_bulk_load_memory(limits.bulk_load_memory_mb);
        }
        self.limits = limits;
        self
    }

    /// The engine with other bounds on queries.
    pub fn with_query_limits(mut self, limits: QueryLimits) -> Self {
        self.query_limits = limits;
        self
    }

    /// `embedded` or `remote`, for logs.
    pub fn kind(&self) -> &'static str {
        match &self.backend {
            Backend::Embedded(_) => "embedded",
            Backend::Remote(_) => "remote",
        }
    }

    /// Adds the RDF file to the named graph (set semantics: re-adding the same triples
    /// changes nothing); `replace` makes the file the graph's whole content.
    pub async fn load(
        &self,
        graph_iri: &str,
        file: &Path,
        format: RdfFormat,
        replace: bool,
    ) -> Result<GraphOutcome, GraphError> {
        self.load_files(
            graph_iri,
            &[RdfFile {
                path: file,
                format,
                sha256: None,
            }],
            replace,
        )
        .await
    }

    /// [`Self::load`] for a dataset of several files, applied as one change: the files'
    /// union is added to the graph (or, with `replace`, becomes its content). Blank nodes
    /// of different files are different nodes.
    pub async fn load_files(
        &self,
        graph_iri: &str,
        files: &[RdfFile<'_>],
        replace: bool,
    ) -> Result<GraphOutcome, GraphError> {
        self.load_files_keeping(graph_iri, files, replace, None)
            .await
    }

    /// [`Self::load_files`] that first makes sure the load does not leave the graph with
    /// other content than the snapshot graph `keep` holds, when that snapshot exists:
    /// otherwise nothing is written ([`GraphError::VersionExists`]). The caller serializes
    /// writers of the graph (the check reads the graph, then the load reads it again).
    pub async fn load_files_keeping(
        &self,
        graph_iri: &str,
        files: &[RdfFile<'_>],
        replace: bool,
        keep: Option<&str>,
    ) -> Result<GraphOutcome, GraphError> {
        let graph = parse::graph_name(graph_iri)?;
        let owned: Vec<(std::path::PathBuf, RdfFormat)> = files
            .iter()
            .map(|f| (f.path.to_path_buf(), f.format))
            .collect();
        let remote = match &self.backend {
            Backend::Embedded(e) => {
                // Streams the files into the store: nothing holds the graph in memory.
                let keep = keep.map(parse::graph_name).transpose()?;
                let digests: Option<std::collections::BTreeSet<String>> =
                    files.iter().map(|f| f.sha256.map(str::to_owned)).collect();
                return e
                    .load_files(graph, owned, digests, self.limits, replace, keep)
                    .await;
            }
            Backend::Remote(r) => r,
        };
        let base = graph.as_str().to_owned();
        let limits = self.limits;
        let mut new =
            tokio::task::spawn_blocking(move || parse::parse_files(&owned, &base, limits))
                .await
                .map_err(GraphError::task)??;
        if let Some(keep) = keep
            && self.count(keep).await? > 0
        {
            let snapshot = Self::remote_triples(remote, &parse::graph_name(keep)?).await?;
            let current = Self::remote_triples(remote, &graph).await?;
            let (same, given) = tokio::task::spawn_blocking(move || {
                // What the graph holds after the load: the new content (replace), or the
                // current content plus what the new one adds.
                let after = if replace {
                    new.triples()
                } else {
                    let insert = content::Content::stored(current.clone())
                        .plan(&new, false)
                        .insert;
                    current.into_iter().chain(insert).collect()
                };
                let same = content::Content::stored(snapshot)
                    .plan(&content::Content::collapsed(after), true)
                    .is_empty();
                (same, new)
            })
            .await
            .map_err(GraphError::task)?;
            if !same {
                return Err(GraphError::VersionExists {
                    graph: keep.to_owned(),
                });
            }
            new = given;
        }
        remote.load(graph, new, replace).await
    }

    /// Loads many small graphs at once (issue 56): those that are empty now get their
    /// files' content together, a few bulk loads for the whole batch, each change whole or
    /// not at all after a crash (one journal entry per load). One result per graph, in
    /// order: `None` for a graph left to [`Self::load_files`] (it is not empty, or the
    /// engine is remote); the outcome otherwise, or the graph's failure (its files do not
    /// parse, or the load it was part of failed: the loads before it stand). The caller
    /// passes small graphs (their files are parsed in memory) and serializes other writers
    /// of them across processes.
    pub async fn load_new_graphs(
        &self,
        graphs: &[(&str, &[RdfFile<'_>])],
    ) -> Result<Vec<Option<Result<GraphOutcome, GraphError>>>, GraphError> {
        let Backend::Embedded(e) = &self.backend else {
            return Ok(graphs.iter().map(|_| None).collect());
        };
        let mut batch = Vec::with_capacity(graphs.len());
        for (iri, files) in graphs {
            batch.push(batch::BatchGraph {
                graph: parse::graph_name(iri)?,
                files: files
                    .iter()
                    .map(|f| (f.path.to_path_buf(), f.format))
                    .collect(),
                digests: files.iter().map(|f| f.sha256.map(str::to_owned)).collect(),
            });
        }
        e.load_new_graphs(batch, self.limits).await
    }

    /// The number of triples in the named graph (0 when it does not exist).
    pub async fn count(&self, graph_iri: &str) -> Result<u64, GraphError> {
        let graph = parse::graph_name(graph_iri)?;
        match &self.backend {
            Backend::Embedded(e) => e.count(graph).await,
            Backend::Remote(r) => r.count(&graph).await,
        }
    }

    /// [`Self::count`] of each graph, in order: on the embedded store in one blocking task
    /// (a commit checkpoints its batch of graphs with it), one by one on a remote one. The
    /// outer error: nothing was counted.
    pub async fn counts(
        &self,
        graph_iris: &[String],
    ) -> Result<Vec<Result<u64, GraphError>>, GraphError> {
        let graphs = graph_iris
            .iter()
            .map(|iri| parse::graph_name(iri))
            .collect::<Result<Vec<_>, _>>()?;
        match &self.backend {
            Backend::Embedded(e) => e.counts(graphs).await,
            Backend::Remote(r) => {
                let mut counts = Vec::with_capacity(graphs.len());
                for graph in &graphs {
                    counts.push(r.count(graph).await);
                }
                Ok(counts)
            }
        }
    }

    /// Removes the named graph; `false` when there was nothing to remove.
    pub async fn drop_graph(&self, graph_iri: &str) -> Result<bool, GraphError> {
        let graph = parse::graph_name(graph_iri)?;
        match &self.backend {
            Backend::Embedded(e) => e.drop_graph(graph).await,
            Backend::Remote(r) => r.drop_graph(graph).await,
        }
    }

    /// The named graph serialized in `format` (empty document when it does not exist).
    pub async fn export(&self, graph_iri: &str, format: RdfFormat) -> Result<Exported, GraphError> {
        let graph = parse::graph_name(graph_iri)?;
        match &self.backend {
            Backend::Embedded(e) => e.export(graph, format).await,
            Backend::Remote(r) => r.export(&graph, format).await,
        }
    }

    /// The triples of a remote graph, blank nodes as stored.
    async fn remote_triples(
        remote: &RemoteGraphs,
        graph: &oxigraph::model::NamedNode,
    ) -> Result<Vec<oxigraph::model::Triple>, GraphError> {
        remote.triples(graph).await
    }

    /// Whether two graphs hold the same content: the same triples, blank nodes compared up
    /// to renaming as loads compare them (see the module documentation; a component too
    /// ambiguous to canonicalize makes the graphs differ).
    pub async fn same_content(&self, a_iri: &str, b_iri: &str) -> Result<bool, GraphError> {
        let (a, b) = (parse::graph_name(a_iri)?, parse::graph_name(b_iri)?);
        let remote = match &self.backend {
            Backend::Embedded(e) => return e.same_content(a, b).await,
            Backend::Remote(r) => r,
        };
        let (a, b) = (
            Self::remote_triples(remote, &a).await?,
            Self::remote_triples(remote, &b).await?,
        );
        tokio::task::spawn_blocking(move || {
            content::Content::stored(a)
                .plan(&content::Content::collapsed(b), true)
                .is_empty()
        })
        .await
        .map_err(GraphError::task)
    }

    /// Makes the graph `target_iri` hold exactly the content of `source_iri` (see the
    /// module documentation). When `target_iri` already holds other content and `force`
    /// is off, nothing is written: [`GraphError::VersionExists`].
    pub async fn snapshot(
        &self,
        source_iri: &str,
        target_iri: &str,
        force: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let (source, target) = (
            parse::graph_name(source_iri)?,
            parse::graph_name(target_iri)?,
        );
        let remote = match &self.backend {
            // A copy in the store (RocksDB cannot share triples between graphs).
            Backend::Embedded(e) => return e.snapshot(source, target, force).await,
            Backend::Remote(r) => r,
        };
        if !force
            && self.count(target_iri).await? > 0
            && !self.same_content(source_iri, target_iri).await?
        {
            return Err(GraphError::VersionExists {
                graph: target.into_string(),
            });
        }
        let triples = Self::remote_triples(remote, &source).await?;
        let new = tokio::task::spawn_blocking(move || content::Content::collapsed(triples))
            .await
            .map_err(GraphError::task)?;
        remote.load(target, new, true).await
    }

    /// The IRIs of the named graphs that start with `prefix`, sorted (the embedded store
    /// lists its graphs; a remote server is asked `SELECT DISTINCT ?g WHERE { GRAPH ?g {} }`).
    pub async fn graphs_with_prefix(&self, prefix: &str) -> Result<Vec<String>, GraphError> {
        match &self.backend {
            Backend::Embedded(e) => e.graphs_with_prefix(prefix).await,
            Backend::Remote(r) => r.graphs_with_prefix(prefix).await,
        }
    }

    /// Runs a read-only SPARQL 1.1 query. `SELECT`/`ASK` answer SPARQL 1.1 Query Results
    /// JSON (`{"head", "results"}` / `{"head", "boolean"}`); `CONSTRUCT`/`DESCRIBE`
    /// answer `{"triples": [[s, p, o], …]}` with terms in N-Triples syntax. Updates are
    /// refused ([`GraphError::InvalidQuery`]).
    ///
    /// The query is bounded by [`QueryLimits`]: it is stopped after the timeout
    /// ([`GraphError::QueryTimeout`]), and when the returned future is dropped (the
    /// client went away), and a larger result is refused ([`GraphError::ResultTooLarge`]).
    /// The embedded store checks for a stop at each row it produces and each access to
    /// the store; work between two such points (e.g. sorting or aggregating what is
    /// already in memory) runs to its end before it sees the stop.
    pub async fn query(&self, sparql: &str) -> Result<Value, GraphError> {
        match &self.backend {
            Backend::Embedded(e) => {
                e.query(sparql, query::Visibility::All, self.query_limits)
                    .await
            }
            Backend::Remote(r) => r.query(sparql, None, self.query_limits).await,
        }
    }

    /// [`Self::query`] over the graphs of `scope` only, whatever the query's own
    /// `FROM`/`FROM NAMED` say (the caller restricts those to what may be read).
    pub async fn query_within(
        &self,
        sparql: &str,
        scope: &QueryScope,
    ) -> Result<Value, GraphError> {
        match &self.backend {
            Backend::Embedded(e) => {
                let scope = query::Visibility::Scope(scope.clone());
                e.query(sparql, scope, self.query_limits).await
            }
            Backend::Remote(r) => r.query(sparql, Some(scope), self.query_limits).await,
        }
    }

    /// Whether [`Self::query_readable`] decides graph by graph (the embedded store); a
    /// remote server is given the list of graphs ([`Self::query_within`]).
    pub fn filters_graphs(&self) -> bool {
        matches!(self.backend, Backend::Embedded(_))
    }

    /// [`Self::query`] over the named graphs `readable` accepts, asked where the query
    /// touches a graph (each graph once per query), never by listing the store's graphs
    /// first (issue 56): its `FROM` and `FROM NAMED` graphs that `readable` refuses are
    /// left out (without `FROM` the default graph is empty), and `GRAPH` reaches no other
    /// graph. Embedded only ([`Self::filters_graphs`]): a remote engine answers
    /// [`GraphError::Query`].
    pub async fn query_readable(
        &self,
        sparql: &str,
        readable: GraphFilter,
    ) -> Result<Value, GraphError> {
        match &self.backend {
            Backend::Embedded(e) => {
                e.query(
                    sparql,
                    query::Visibility::Readable(readable),
                    self.query_limits,
                )
                .await
            }
            Backend::Remote(_) => Err(GraphError::Query {
                message: "a remote graph server is queried with a list of graphs".to_owned(),
            }),
        }
    }
}

/// Whether a named graph (its IRI) is visible to a query ([`GraphEngine::query_readable`]);
/// asked on the query's blocking thread, at most once per graph and query.
pub type GraphFilter = std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The RDF dataset a query runs over: the graphs merged into its default graph and the
/// named graphs `GRAPH` may reach (graph IRIs). Nothing else is visible to it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryScope {
    pub default: Vec<String>,
    pub named: Vec<String>,
}

impl std::fmt::Debug for GraphEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.backend {
            Backend::Embedded(e) => f.debug_tuple("GraphEngine::Embedded").field(e).finish(),
            Backend::Remote(r) => f.debug_tuple("GraphEngine::Remote").field(r).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's job runner spawns loads on the runtime: the futures must be
    /// `Send + 'static` once the engine is behind an `Arc` (type-checked, never run).
    #[allow(dead_code)]
    fn futures_can_be_spawned(engine: std::sync::Arc<GraphEngine>, path: std::path::PathBuf) {
        tokio::spawn(async move {
            let iri = String::from("https://example.org/g");
            let files = [RdfFile {
                path: &path,
                format: RdfFormat::Turtle,
                sha256: None,
            }];
            engine.load_files(&iri, &files, false).await?;
            engine.load(&iri, &path, RdfFormat::Turtle, true).await?;
            engine.count(&iri).await?;
            engine.export(&iri, RdfFormat::Turtle).await?;
            engine.query("ASK {}").await?;
            engine
                .snapshot(&iri, "https://example.org/g/v", false)
                .await?;
            engine.same_content(&iri, "https://example.org/g/v").await?;
            engine.graphs_with_prefix("https://example.org/").await?;
            engine.drop_graph(&iri).await
        });
    }

    #[test]
    fn formats_by_extension_and_media_type() {
        assert_eq!(
            RdfFormat::from_path(Path::new("a/g.TTL")),
            Some(RdfFormat::Turtle)
        );
        assert_eq!(
            RdfFormat::from_path(Path::new("g.nt")),
            Some(RdfFormat::NTriples)
        );
        assert_eq!(
            RdfFormat::from_path(Path::new("g.jsonld")),
            Some(RdfFormat::JsonLd)
        );
        assert_eq!(RdfFormat::from_path(Path::new("g.json")), None);
        assert_eq!(RdfFormat::from_path(Path::new("ttl")), None);
        for format in [RdfFormat::Turtle, RdfFormat::NTriples, RdfFormat::JsonLd] {
            assert_eq!(
                RdfFormat::from_media_type(format.media_type()),
                Some(format)
            );
        }
        assert_eq!(
            RdfFormat::from_media_type("text/turtle; charset=utf-8"),
            Some(RdfFormat::Turtle)
        );
    }
}
