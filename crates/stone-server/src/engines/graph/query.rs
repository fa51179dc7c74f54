//! SPARQL over the embedded store, bounded: the query stops at its cancellation token
//! (the timeout, or a caller that went away), its result at `max_rows` and `max_bytes`,
//! and a caller's scope limits the graphs it reads.

use std::io::Write;

use oxigraph::model::{GraphName, NamedNode, NamedOrBlankNode};
use oxigraph::sparql::results::{QueryResultsFormat, QueryResultsSerializer};
use oxigraph::sparql::{CancellationToken, QueryEvaluationError, QueryResults, SparqlEvaluator};
use oxigraph::store::Store;
use serde_json::{Value, json};

use super::{GraphError, GraphFilter, QueryLimits, QueryScope};

/// The graphs a query sees.
pub(super) enum Visibility {
    /// Every graph of the store.
    All,
    /// Those listed (`QueryScope`), whatever the query's own `FROM`/`FROM NAMED` say.
    Scope(QueryScope),
    /// Those the filter accepts, asked where the query touches a graph (see
    /// [`GraphFilter`]).
    Readable(GraphFilter),
}

/// Runs `sparql` on `store` over the graphs `visibility` lets it see, as a JSON result
/// document within `limits`.
pub(super) fn run(
    store: &Store,
    sparql: &str,
    visibility: Visibility,
    token: &CancellationToken,
    limits: QueryLimits,
) -> Result<Value, GraphError> {
    let mut query = SparqlEvaluator::new()
        .with_cancellation_token(token.clone())
        .parse_query(sparql)
        .map_err(|e| GraphError::InvalidQuery {
            message: e.to_string(),
        })?;
    let bound = match visibility {
        Visibility::All => query.on_store(store),
        Visibility::Scope(scope) => {
            restrict(&mut query, &scope)?;
            query.on_store(store)
        }
        Visibility::Readable(readable) => {
            restrict_to_readable(&mut query, &readable);
            query.on_store_with_graph_filter(store, move |graph| readable(graph.as_str()))
        }
    };
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
    let results = bound.execute().map_err(evaluation_error)?;
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
pub(super) struct CancelOnDrop(pub(super) CancellationToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Leaves out of the query's own `FROM` and `FROM NAMED` the graphs `readable` refuses
/// (as graphs that do not exist are), so that a graph the caller may not read is never
/// asked for: without `FROM` the default graph stays empty, without `FROM NAMED` `GRAPH`
/// reaches every named graph the store's view lets through (the filter, lazily).
fn restrict_to_readable(query: &mut oxigraph::sparql::PreparedSparqlQuery, readable: &GraphFilter) {
    let dataset = query.dataset_mut();
    if let Some(graphs) = dataset.default_graph_graphs() {
        let default = graphs
            .iter()
            .filter(|g| matches!(g, GraphName::NamedNode(node) if readable(node.as_str())))
            .cloned()
            .collect();
        dataset.set_default_graph(default);
    }
    if let Some(graphs) = dataset.available_named_graphs() {
        let named = graphs
            .iter()
            .filter(|g| matches!(g, NamedOrBlankNode::NamedNode(node) if readable(node.as_str())))
            .cloned()
            .collect();
        dataset.set_available_named_graphs(named);
    }
}

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
