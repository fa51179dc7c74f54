//! The Oxigraph server (`oxigraph serve`, PyPI `oxigraph`): SPARQL 1.1 Query/Update at
//! `/query` and `/update`, Graph Store Protocol at `/store?graph=<iri>`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::http::{HttpResponse, agent, form_encode, send};
use super::process::{ServiceProcess, free_port, start_with_retries};
use crate::tools;

/// How to start the server.
#[derive(Debug, Clone, Default)]
pub struct OxigraphOptions {
    /// `--union-default-graph`: the default graph is the union of all named graphs.
    pub union_default_graph: bool,
}

/// A running Oxigraph server with a persistent store in its own directory.
pub struct OxigraphServer {
    base_url: String,
    location: PathBuf,
    port: u16,
    options: OxigraphOptions,
    agent: ureq::Agent,
    process: ServiceProcess,
}

/// `oxigraph serve` on `location` at `127.0.0.1:port`.
fn serve(location: &Path, port: u16, options: &OxigraphOptions) -> Command {
    let mut command = Command::new(tools::venv_bin("oxigraph"));
    command
        .arg("serve")
        .arg("--location")
        .arg(location)
        .arg("--bind")
        .arg(format!("127.0.0.1:{port}"));
    if options.union_default_graph {
        command.arg("--union-default-graph");
    }
    command
}

impl OxigraphServer {
    /// Starts `oxigraph serve` and returns once a SPARQL query answers.
    pub fn start() -> OxigraphServer {
        Self::start_with(OxigraphOptions::default())
    }

    pub fn start_with(options: OxigraphOptions) -> OxigraphServer {
        start_with_retries("Oxigraph server", || Self::try_start(&options))
    }

    fn try_start(options: &OxigraphOptions) -> Result<OxigraphServer, String> {
        let dir = ServiceProcess::temp_dir("oxigraph");
        let location = dir.path().join("store");
        let port = free_port();
        let command = serve(&location, port, options);
        let mut process = ServiceProcess::spawn("oxigraph", command, dir);
        process.wait_ready(Duration::from_secs(30), server_probe(port))?;
        Ok(OxigraphServer {
            base_url: format!("http://127.0.0.1:{port}"),
            location,
            port,
            options: options.clone(),
            agent: agent(),
            process,
        })
    }

    /// Starts the server again on its store and port, after [`Self::stop`] (an outage
    /// that ends), and returns once a SPARQL query answers.
    pub fn restart(&mut self) {
        let command = serve(&self.location, self.port, &self.options);
        self.process.respawn(command);
        self.process
            .wait_ready(Duration::from_secs(30), server_probe(self.port))
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The SPARQL query endpoint.
    pub fn query_url(&self) -> String {
        format!("{}/query", self.base_url)
    }

    /// The SPARQL update endpoint.
    pub fn update_url(&self) -> String {
        format!("{}/update", self.base_url)
    }

    /// The Graph Store Protocol URL of a named graph.
    pub fn store_url(&self, graph: &str) -> String {
        format!(
            "{}/store?{}",
            self.base_url,
            form_encode([("graph", graph)])
        )
    }

    /// The store's directory (RocksDB; locked while the server runs).
    pub fn location(&self) -> &Path {
        &self.location
    }

    /// `PUT` RDF into a named graph, replacing it; returns the status (201 new, 204
    /// replaced).
    pub fn put_graph(&self, graph: &str, content_type: &str, body: &[u8]) -> u16 {
        let response = send(
            self.agent
                .put(&self.store_url(graph))
                .header("content-type", content_type)
                .send(body),
        )
        .unwrap_or_else(|e| panic!("PUT graph {graph}: {e}"));
        assert!(
            response.status < 300,
            "PUT graph {graph}: HTTP {}: {}\n{}",
            response.status,
            response.text(),
            self.process.log_tail(20)
        );
        response.status
    }

    /// `GET` a named graph as N-Triples; `None` when it does not exist.
    pub fn get_graph(&self, graph: &str) -> Option<String> {
        let response = send(
            self.agent
                .get(&self.store_url(graph))
                .header("accept", "application/n-triples")
                .call(),
        )
        .unwrap_or_else(|e| panic!("GET graph {graph}: {e}"));
        match response.status {
            200 => Some(response.text()),
            404 => None,
            status => panic!("GET graph {graph}: HTTP {status}: {}", response.text()),
        }
    }

    /// Runs a SPARQL query; the SPARQL JSON results.
    pub fn query(&self, sparql: &str) -> serde_json::Value {
        let response = self
            .query_response(sparql)
            .unwrap_or_else(|e| panic!("SPARQL query failed: {e}"));
        assert_eq!(
            response.status,
            200,
            "SPARQL query failed: HTTP {}: {}\n{sparql}",
            response.status,
            response.text()
        );
        response.json().unwrap_or_else(|e| panic!("{e}"))
    }

    fn query_response(&self, sparql: &str) -> Result<HttpResponse, String> {
        send(
            self.agent
                .post(&self.query_url())
                .header("accept", "application/sparql-results+json")
                .header("content-type", "application/x-www-form-urlencoded")
                .send(form_encode([("query", sparql)])),
        )
    }

    /// Runs a SPARQL update.
    pub fn update(&self, sparql: &str) {
        let response = send(
            self.agent
                .post(&self.update_url())
                .header("content-type", "application/sparql-update")
                .send(sparql.as_bytes()),
        )
        .unwrap_or_else(|e| panic!("SPARQL update failed: {e}"));
        assert!(
            response.status < 300,
            "SPARQL update failed: HTTP {}: {}",
            response.status,
            response.text()
        );
    }

    /// The number of triples in a named graph (0 when it does not exist).
    pub fn count_triples(&self, graph: &str) -> u64 {
        let iri = graph.replace('>', "%3E");
        let results = self.query(&format!(
            "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{iri}> {{ ?s ?p ?o }} }}"
        ));
        results["results"]["bindings"][0]["n"]["value"]
            .as_str()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected COUNT result: {results}"))
    }

    /// The last lines of the server's output.
    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }

    /// Stops the server now (dropping it does the same).
    pub fn stop(&mut self) {
        self.process.stop();
    }
}

fn server_probe(port: u16) -> impl FnMut() -> Result<(), String> {
    let agent = agent();
    let url = format!(
        "http://127.0.0.1:{port}/query?{}",
        form_encode([("query", "ASK {}")])
    );
    move || {
        let response = send(
            agent
                .get(&url)
                .header("accept", "application/sparql-results+json")
                .call(),
        )?;
        if response.status == 200 {
            Ok(())
        } else {
            Err(format!("HTTP {}: {}", response.status, response.text()))
        }
    }
}
