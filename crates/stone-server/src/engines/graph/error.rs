//! The one error type of the graph engine.

use std::path::PathBuf;

use super::RdfFormat;

/// Errors of the graph engine. Variants up to [`GraphError::VersionExists`] are the
/// caller's (bad input or a refused change: answer 4xx); the others are the engine's or
/// the server's.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The graph name is not an absolute IRI.
    #[error("invalid graph IRI {iri:?}: {reason}")]
    InvalidGraphIri {
        /// The IRI as given.
        iri: String,
        /// What is wrong with it.
        reason: String,
    },

    /// The RDF file is not valid in its format. `line`/`column` (1-based) point at the
    /// error when the parser says where it is; `message` includes them too.
    #[error("invalid {format} in {}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The format it was parsed as.
        format: RdfFormat,
        /// Line of the error, from 1.
        line: Option<u64>,
        /// Column of the error (in characters), from 1.
        column: Option<u64>,
        /// The parser's message.
        message: String,
    },

    /// A JSON-LD file refers to a remote `@context`; the server does not fetch documents.
    #[error(
        "{} uses the remote JSON-LD context {url}: remote contexts are not fetched; inline the context in the file",
        path.display()
    )]
    RemoteContext {
        /// The file.
        path: PathBuf,
        /// The context's URL.
        url: String,
    },

    /// The SPARQL query is not valid, or is not a query (updates are refused).
    #[error("invalid SPARQL query: {message}")]
    InvalidQuery {
        /// The parser's (or the remote server's) message.
        message: String,
    },

    /// A file, or a literal or IRI in it, is larger than the engine takes
    /// ([`super::GraphLimits`]).
    #[error("{}: {what} is larger than the server takes ({size} bytes, at most {max}); split the data into smaller files, or ask the operator to raise [graph] {key}", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// What is too large: "the file", "a literal at line N"…
        what: String,
        /// Its size in bytes.
        size: u64,
        /// The bound.
        max: u64,
        /// The configuration key of the bound.
        key: &'static str,
    },

    /// A query ran longer than the engine allows ([`super::QueryLimits::timeout`]) and
    /// was stopped (or its caller went away).
    #[error(
        "the SPARQL query ran longer than {seconds} s and was stopped; narrow it (fewer solutions, a LIMIT)"
    )]
    QueryTimeout {
        /// The bound, in seconds.
        seconds: u64,
    },

    /// A query's result is larger than the engine answers ([`super::QueryLimits`]).
    #[error("the SPARQL query's result has more than {max} {unit}; page it with LIMIT and OFFSET")]
    ResultTooLarge {
        /// The bound.
        max: u64,
        /// `rows` or `bytes`.
        unit: &'static str,
    },

    /// The snapshot graph of a named version already holds other content, and moving it
    /// was not forced ([`super::GraphEngine::snapshot`]).
    #[error("the version graph {graph} already holds other content; moving it needs force")]
    VersionExists {
        /// IRI of the snapshot graph.
        graph: String,
    },

    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },

    /// The embedded store could not write or read its files.
    #[error("graph store I/O failed on {}", path.display())]
    Persist {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },

    /// A file of the embedded store is not what this engine wrote.
    #[error("the graph store file {} is corrupt: {message}", path.display())]
    CorruptStore {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },

    /// The embedded Oxigraph (RocksDB) store failed, or is opened by another engine.
    #[error("the Oxigraph store failed")]
    Store(#[source] oxigraph::store::StorageError),

    /// Evaluating a (valid) query failed.
    #[error("SPARQL query evaluation failed: {message}")]
    Query {
        /// The evaluator's message.
        message: String,
    },

    /// The remote graph server could not be reached (or the connection broke).
    #[error("the graph server at {url} is unavailable")]
    Unavailable {
        /// The URL requested.
        url: String,
        /// The HTTP client's error.
        #[source]
        source: reqwest::Error,
    },

    /// The remote graph server answered with an unexpected status.
    #[error("the graph server answered {method} {url} with HTTP {status}: {body}")]
    Remote {
        /// The HTTP method.
        method: &'static str,
        /// The URL requested.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The start of the response body.
        body: String,
    },

    /// The remote graph server answered with data this engine cannot read.
    #[error("the graph server at {url} answered with unreadable data: {message}")]
    RemoteData {
        /// The URL requested.
        url: String,
        /// What is wrong.
        message: String,
    },

    /// A blocking task of the engine panicked or was cancelled.
    #[error("a graph engine task failed: {message}")]
    Task {
        /// The panic message or cancellation.
        message: String,
    },
}

impl GraphError {
    pub(crate) fn task(error: tokio::task::JoinError) -> Self {
        Self::Task {
            message: error.to_string(),
        }
    }

    pub(crate) fn persist(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Persist { path, source }
    }
}

impl From<oxigraph::store::StorageError> for GraphError {
    fn from(error: oxigraph::store::StorageError) -> Self {
        Self::Store(error)
    }
}
