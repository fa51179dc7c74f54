//! A remote graph server: SPARQL 1.1 Graph Store Protocol for graphs, SPARQL 1.1
//! Protocol for queries.
//!
//! A load reads the graph (`GET`, N-Triples), compares it here with the new content and
//! then sends only what is missing (`POST`, N-Triples) or, with `replace`, the whole new
//! content (`PUT`; `DELETE` when it is empty). Nothing is sent when nothing changes.

use futures::StreamExt;
use oxigraph::io::{RdfFormat as OxFormat, RdfParser, RdfSerializer};
use oxigraph::model::{NamedNode, Triple};
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use super::content::Content;
use super::embedded::GraphLocks;
use super::spool::{Exported, spool, spool_triples};
use super::{GraphError, GraphOutcome, QueryLimits, QueryScope, RdfFormat, RemoteGraphSettings};

/// A graph IRI no dataset has: it keeps a query's dataset given when its scope is empty.
const NO_GRAPH: &str = "urn:stone:no-graph";

const N_TRIPLES: &str = "application/n-triples";
const SPARQL_JSON: &str = "application/sparql-results+json";
/// The bounds of the engine's own queries (listing and counting graphs): no caller waits
/// on them with a deadline of their own, and their answers are as large as the store.
const INTERNAL_QUERY: QueryLimits = QueryLimits {
    timeout: std::time::Duration::from_secs(600),
    max_rows: u64::MAX,
    max_bytes: u64::MAX,
};
/// How much of an error body is kept in [`GraphError::Remote`].
const ERROR_BODY_LIMIT: usize = 2000;

pub(super) struct RemoteGraphs {
    client: reqwest::Client,
    settings: RemoteGraphSettings,
    locks: GraphLocks,
}

impl std::fmt::Debug for RemoteGraphs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteGraphs")
            .field("store_url", &self.settings.store_url)
            .field("query_url", &self.settings.query_url)
            .finish_non_exhaustive()
    }
}

impl RemoteGraphs {
    pub async fn connect(settings: RemoteGraphSettings) -> Result<Self, GraphError> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("stone-server/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|source| GraphError::Unavailable {
                url: settings.store_url.clone(),
                source,
            })?;
        let remote = Self {
            client,
            settings,
            locks: GraphLocks::default(),
        };
        remote.query("ASK {}", None, INTERNAL_QUERY).await?;
        Ok(remote)
    }

    async fn send(
        &self,
        method: Method,
        graph: &NamedNode,
        content: Option<Vec<u8>>,
    ) -> Result<Response, GraphError> {
        let url = &self.settings.store_url;
        let mut request = self
            .client
            .request(method, url)
            .query(&[("graph", graph.as_str())]);
        request = match content {
            Some(body) => request.header("content-type", N_TRIPLES).body(body),
            None => request.header("accept", N_TRIPLES),
        };
        request
            .send()
            .await
            .map_err(|source| GraphError::Unavailable {
                url: graph_url(url, graph),
                source,
            })
    }

    /// The graph as N-Triples, `None` when it does not exist.
    async fn get_graph(&self, graph: &NamedNode) -> Result<Option<Vec<u8>>, GraphError> {
        let response = self.send(Method::GET, graph, None).await?;
        if response.status() == StatusCode::NOT_FOUND {
            return Ok(None);
        }
        let response = expect_success(response, "GET").await?;
        let url = response.url().to_string();
        let bytes = response
            .bytes()
            .await
            .map_err(|source| GraphError::Unavailable { url, source })?;
        Ok(Some(bytes.to_vec()))
    }

    pub async fn load(
        &self,
        graph: NamedNode,
        new: Content,
        replace: bool,
    ) -> Result<GraphOutcome, GraphError> {
        let lock = self.locks.get(graph.as_str());
        let _guard = lock.lock().await;
        let current = self.get_graph(&graph).await?.unwrap_or_default();
        let url = graph_url(&self.settings.store_url, &graph);
        let (plan, before, body) = tokio::task::spawn_blocking(move || {
            let stored = Content::stored(parse_n_triples(&current, &url)?);
            let plan = stored.plan(&new, replace);
            let body = if plan.is_empty() {
                None
            } else if replace {
                Some(n_triples(&new.triples()))
            } else {
                Some(n_triples(&plan.insert))
            };
            Ok::<_, GraphError>((plan, stored.len(), body))
        })
        .await
        .map_err(GraphError::task)??;
        let Some(body) = body else {
            return Ok(GraphOutcome {
                triples_added: 0,
                triples_removed: 0,
                total_triples: before,
                unchanged: true,
            });
        };
        let (method, name) = match replace {
            true if body.is_empty() => (Method::DELETE, "DELETE"),
            true => (Method::PUT, "PUT"),
            false => (Method::POST, "POST"),
        };
        let body = (method != Method::DELETE).then_some(body);
        let response = self.send(method, &graph, body).await?;
        if !(name == "DELETE" && response.status() == StatusCode::NOT_FOUND) {
            expect_success(response, name).await?;
        }
        Ok(GraphOutcome {
            triples_added: plan.insert.len() as u64,
            triples_removed: plan.remove.len() as u64,
            total_triples: self.count(&graph).await?,
            unchanged: false,
        })
    }

    /// Every triple of the graph, blank nodes as the server labels them.
    pub async fn triples(&self, graph: &NamedNode) -> Result<Vec<Triple>, GraphError> {
        let current = self.get_graph(graph).await?.unwrap_or_default();
        let url = graph_url(&self.settings.store_url, graph);
        tokio::task::spawn_blocking(move || parse_n_triples(&current, &url))
            .await
            .map_err(GraphError::task)?
    }

    /// The IRIs of the named graphs that start with `prefix`, sorted. The prefix is
    /// compared here, not in the query: the server is asked for its named graphs only.
    pub async fn graphs_with_prefix(&self, prefix: &str) -> Result<Vec<String>, GraphError> {
        let results = self
            .query(
                "SELECT DISTINCT ?g WHERE { GRAPH ?g { } }",
                None,
                INTERNAL_QUERY,
            )
            .await?;
        let bindings =
            results["results"]["bindings"]
                .as_array()
                .ok_or_else(|| GraphError::RemoteData {
                    url: self.settings.query_url.clone(),
                    message: format!("unexpected answer to a graph listing: {results}"),
                })?;
        let mut found: Vec<String> = bindings
            .iter()
            .filter(|b| b["g"]["type"] == "uri")
            .filter_map(|b| b["g"]["value"].as_str())
            .filter(|g| g.starts_with(prefix))
            .map(str::to_owned)
            .collect();
        found.sort();
        found.dedup();
        Ok(found)
    }

    pub async fn count(&self, graph: &NamedNode) -> Result<u64, GraphError> {
        let results = self
            .query(
                &format!(
                    "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{}> {{ ?s ?p ?o }} }}",
                    graph.as_str()
                ),
                None,
                INTERNAL_QUERY,
            )
            .await?;
        results["results"]["bindings"][0]["n"]["value"]
            .as_str()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| GraphError::RemoteData {
                url: self.settings.query_url.clone(),
                message: format!("unexpected COUNT result {results}"),
            })
    }

    pub async fn drop_graph(&self, graph: NamedNode) -> Result<bool, GraphError> {
        let lock = self.locks.get(graph.as_str());
        let _guard = lock.lock().await;
        let response = self.send(Method::DELETE, &graph, None).await?;
        if response.status() == StatusCode::NOT_FOUND {
            return Ok(false);
        }
        expect_success(response, "DELETE").await?;
        Ok(true)
    }

    /// The graph in `format`, spooled to disk: the server's N-Triples are streamed into a
    /// temporary file, then copied (N-Triples) or converted from it triple by triple.
    pub async fn export(
        &self,
        graph: &NamedNode,
        format: RdfFormat,
    ) -> Result<Exported, GraphError> {
        use futures::TryStreamExt as _;
        use tokio::io::AsyncWriteExt as _;

        let url = graph_url(&self.settings.store_url, graph);
        let temp_error = |e: std::io::Error| GraphError::persist(std::env::temp_dir())(e);
        let mut download = tokio::fs::File::from_std(tempfile::tempfile().map_err(temp_error)?);
        let response = self.send(Method::GET, graph, None).await?;
        if response.status() != StatusCode::NOT_FOUND {
            let response = expect_success(response, "GET").await?;
            let mut body = response.bytes_stream();
            while let Some(chunk) =
                body.try_next()
                    .await
                    .map_err(|source| GraphError::Unavailable {
                        url: url.clone(),
                        source,
                    })?
            {
                download.write_all(&chunk).await.map_err(temp_error)?;
            }
        }
        download.flush().await.map_err(temp_error)?;
        let mut download = download.into_std().await;
        tokio::task::spawn_blocking(move || {
            use std::io::{Seek, SeekFrom};
            download.seek(SeekFrom::Start(0)).map_err(temp_error)?;
            let reader = std::io::BufReader::with_capacity(1 << 16, download);
            if format == RdfFormat::NTriples {
                return spool(|out| {
                    let mut reader = reader;
                    std::io::copy(&mut reader, out).map_err(temp_error)?;
                    Ok(())
                });
            }
            let url = url.clone();
            spool_triples(
                format,
                RdfParser::from_format(OxFormat::NTriples)
                    .for_reader(reader)
                    .map(move |quad| {
                        quad.map(Triple::from).map_err(|e| GraphError::RemoteData {
                            url: url.clone(),
                            message: e.to_string(),
                        })
                    }),
            )
        })
        .await
        .map_err(GraphError::task)?
    }

    pub async fn query(
        &self,
        sparql: &str,
        scope: Option<&QueryScope>,
        limits: QueryLimits,
    ) -> Result<Value, GraphError> {
        let url = &self.settings.query_url;
        // The SPARQL 1.1 Protocol dataset overrides the query's FROM / FROM NAMED. A
        // named graph that cannot exist keeps the dataset given when the scope is empty.
        let mut form = vec![("query", sparql)];
        if let Some(scope) = scope {
            form.extend(
                scope
                    .default
                    .iter()
                    .map(|g| ("default-graph-uri", g.as_str())),
            );
            form.extend(scope.named.iter().map(|g| ("named-graph-uri", g.as_str())));
            form.push(("named-graph-uri", NO_GRAPH));
        }
        let timeout = || GraphError::QueryTimeout {
            seconds: limits.timeout.as_secs(),
        };
        let deadline = tokio::time::Instant::now() + limits.timeout;
        let unavailable = |source: reqwest::Error| {
            if source.is_timeout() {
                timeout()
            } else {
                GraphError::Unavailable {
                    url: url.clone(),
                    source,
                }
            }
        };
        // The whole exchange, answer body included, within the timeout; dropping the
        // future (the client went away) closes the connection, which the graph server
        // may take as a stop.
        let response = tokio::time::timeout_at(
            deadline,
            self.client
                .post(url)
                .header("accept", format!("{SPARQL_JSON}, {N_TRIPLES};q=0.9"))
                .form(&form)
                .send(),
        )
        .await
        .map_err(|_| timeout())?
        .map_err(unavailable)?;
        if response.status() == StatusCode::BAD_REQUEST {
            return Err(GraphError::InvalidQuery {
                message: body_text(response).await,
            });
        }
        let response = expect_success(response, "POST").await?;
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        let too_large = || GraphError::ResultTooLarge {
            max: limits.max_bytes,
            unit: "bytes",
        };
        if response
            .content_length()
            .is_some_and(|length| length > limits.max_bytes)
        {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        let mut body = response.bytes_stream();
        loop {
            let chunk = tokio::time::timeout_at(deadline, body.next())
                .await
                .map_err(|_| timeout())?;
            let Some(chunk) = chunk else { break };
            let chunk = chunk.map_err(unavailable)?;
            if bytes.len() as u64 + chunk.len() as u64 > limits.max_bytes {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        let too_many_rows = || GraphError::ResultTooLarge {
            max: limits.max_rows,
            unit: "rows",
        };
        if content_type.starts_with(N_TRIPLES) {
            let triples = parse_n_triples(&bytes, url)?;
            if triples.len() as u64 > limits.max_rows {
                return Err(too_many_rows());
            }
            let rows: Vec<Value> = triples
                .iter()
                .map(|t| {
                    json!([
                        t.subject.to_string(),
                        t.predicate.to_string(),
                        t.object.to_string()
                    ])
                })
                .collect();
            return Ok(json!({ "triples": rows }));
        }
        let results: Value =
            serde_json::from_slice(&bytes).map_err(|e| GraphError::RemoteData {
                url: url.clone(),
                message: format!("{content_type} answer is not JSON: {e}"),
            })?;
        let rows = results["results"]["bindings"]
            .as_array()
            .or_else(|| results["triples"].as_array())
            .map_or(0, Vec::len);
        if rows as u64 > limits.max_rows {
            return Err(too_many_rows());
        }
        Ok(results)
    }
}

fn graph_url(store_url: &str, graph: &NamedNode) -> String {
    format!("{store_url}?graph={}", graph.as_str())
}

async fn expect_success(response: Response, method: &'static str) -> Result<Response, GraphError> {
    if response.status().is_success() {
        return Ok(response);
    }
    let status = response.status().as_u16();
    let url = response.url().to_string();
    Err(GraphError::Remote {
        method,
        url,
        status,
        body: body_text(response).await,
    })
}

async fn body_text(response: Response) -> String {
    let mut text = response.text().await.unwrap_or_default();
    if text.len() > ERROR_BODY_LIMIT {
        let mut end = ERROR_BODY_LIMIT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text.trim().to_owned()
}

/// Parses what the server sent; its blank node labels are kept as they are.
fn parse_n_triples(bytes: &[u8], url: &str) -> Result<Vec<Triple>, GraphError> {
    RdfParser::from_format(OxFormat::NTriples)
        .for_slice(bytes)
        .map(|q| {
            q.map(Triple::from).map_err(|e| GraphError::RemoteData {
                url: url.to_owned(),
                message: e.to_string(),
            })
        })
        .collect()
}

fn n_triples(triples: &[Triple]) -> Vec<u8> {
    let mut serializer = RdfSerializer::from_format(OxFormat::NTriples)
        .for_writer(Vec::with_capacity(triples.len() * 100));
    for triple in triples {
        serializer
            .serialize_triple(triple)
            .expect("writing to memory does not fail");
    }
    serializer
        .finish()
        .expect("writing to memory does not fail")
}
