//! One behaviour suite for both graph engines (as arrow-rs-object-store's
//! `integration.rs` does for stores): [`graph_behaviour`] runs against the embedded
//! Oxigraph store and against a real `oxigraph serve` (Graph Store Protocol).
//!
//! Every count is also checked by a reader that does not go through the engine:
//! - embedded: pyoxigraph (`sparql.py --store`) opening the engine's RocksDB store read-only,
//!   and the engine reopened from its directory;
//! - remote: SPARQL queries sent straight to the Oxigraph server (stone-test's own HTTP
//!   client).

use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::Digest as _;
use stone_server::engines::graph::{GraphEngine, GraphError, GraphOutcome, RdfFile, RdfFormat};
use stone_test::services::OxigraphServer;
use stone_test::tools;
use tempfile::TempDir;

pub const MAIN: &str = "https://data.example.org/demo/people/main";
pub const DEV: &str = "https://data.example.org/demo/people/dev";

/// People, with a blank-node address and an RDF list: 11 triples (6 in blank-node
/// components).
pub const PEOPLE_TTL: &str = r#"
@prefix ex: <http://example.org/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
ex:alice a foaf:Person ; foaf:name "Alice" ; foaf:knows ex:bob .
ex:bob a foaf:Person ; foaf:name "Bob"@en .
ex:alice ex:address [ ex:street "Main St 1" ; ex:city "Springfield" ] .
ex:alice ex:tags ( "a" ) .
"#;

/// The same graph in N-Triples, other blank node labels, other order.
const PEOPLE_NT: &str = r#"<http://example.org/bob> <http://xmlns.com/foaf/0.1/name> "Bob"@en .
_:list <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> "a" .
_:list <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
<http://example.org/alice> <http://example.org/tags> _:list .
<http://example.org/alice> <http://example.org/address> _:addr .
_:addr <http://example.org/city> "Springfield" .
_:addr <http://example.org/street> "Main St 1" .
<http://example.org/alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://xmlns.com/foaf/0.1/Person> .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/name> "Alice" .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/knows> <http://example.org/bob> .
<http://example.org/bob> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://xmlns.com/foaf/0.1/Person> .
"#;

/// Part of the same graph in JSON-LD with an inline context.
const PEOPLE_JSONLD: &str = r#"{
  "@context": {"foaf": "http://xmlns.com/foaf/0.1/", "ex": "http://example.org/"},
  "@id": "ex:alice",
  "@type": "foaf:Person",
  "foaf:name": "Alice",
  "ex:address": {"ex:street": "Main St 1", "ex:city": "Springfield"}
}"#;

/// Two new triples and one already loaded.
const MORE_TTL: &str = r#"
@prefix ex: <http://example.org/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
ex:carol a foaf:Person ; foaf:name "Carol" .
ex:alice foaf:knows ex:bob .
"#;

/// Replacement content: one triple kept, one new, with a changed blank node.
const SMALL_TTL: &str = r#"
@prefix ex: <http://example.org/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
ex:alice foaf:name "Alice" .
ex:dave foaf:name "Dave" .
ex:alice ex:address [ ex:street "Elm St 2" ] .
"#;

/// How a suite run reaches the engine and checks it from the outside.
#[allow(clippy::large_enum_variant)] // one per test: its size does not matter
pub enum Target {
    Embedded { dir: TempDir },
    Remote { server: OxigraphServer },
}

impl Target {
    pub fn embedded() -> Self {
        Self::Embedded {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn remote() -> Self {
        Self::Remote {
            server: OxigraphServer::start(),
        }
    }

    /// A fresh engine on the same data (embedded: reopened from its directory).
    pub async fn engine(&self) -> GraphEngine {
        match self {
            Self::Embedded { dir } => GraphEngine::embedded(dir.path()).await,
            Self::Remote { server } => GraphEngine::remote(server.base_url()).await,
        }
        .expect("open the graph engine")
    }

    /// The triple count of a graph, read without the engine.
    pub fn independent_count(&self, graph: &str) -> u64 {
        let results = self.independent_query(&format!(
            "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
        ));
        results["results"]["bindings"][0]["n"]["value"]
            .as_str()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected COUNT result: {results}"))
    }

    /// Whether the graph holds a triple matching `pattern`, read without the engine.
    pub fn independent_ask(&self, graph: &str, pattern: &str) -> bool {
        let results = self.independent_query(&format!("ASK {{ GRAPH <{graph}> {{ {pattern} }} }}"));
        results["boolean"]
            .as_bool()
            .unwrap_or_else(|| panic!("unexpected ASK result: {results}"))
    }

    fn independent_query(&self, sparql: &str) -> Value {
        match self {
            Self::Remote { server } => server.query(sparql),
            Self::Embedded { dir } => independent_store_query(dir.path(), sparql),
        }
    }
}

/// A query over an embedded store's RocksDB directory (`<dir>/store`), read by pyoxigraph
/// opening it read-only (`sparql.py --store`), not through the engine.
pub fn independent_store_query(dir: &Path, sparql: &str) -> Value {
    let store = dir.join("store");
    if !store.exists() {
        // No store, no triple; let pyoxigraph answer on an empty store anyway.
        let empty = dir.join("empty.nt");
        std::fs::write(&empty, "").unwrap();
        return tools::run_python_json(
            "sparql.py",
            &["--data", empty.to_str().unwrap(), "--query", sparql],
        );
    }
    tools::run_python_json(
        "sparql.py",
        &["--store", store.to_str().unwrap(), "--query", sparql],
    )
}

/// The named graphs of an embedded store holding triples (bookkeeping and staging graphs
/// excluded), read by pyoxigraph.
pub fn stored_graphs(dir: &Path) -> Vec<String> {
    let results = independent_store_query(
        dir,
        "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g",
    );
    let mut graphs: Vec<String> = results["results"]["bindings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["g"]["value"].as_str().map(str::to_owned))
        .filter(|g| !g.starts_with("urn:stone:graph-store:"))
        .collect();
    graphs.sort();
    graphs
}

/// Writes `text` to a file named `name` in a new temporary directory.
pub struct Staged {
    dir: TempDir,
}

impl Staged {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).expect("write a staged file");
        path
    }
}

async fn load(engine: &GraphEngine, graph: &str, file: &Path, replace: bool) -> GraphOutcome {
    let format = RdfFormat::from_path(file).expect("known extension");
    engine
        .load(graph, file, format, replace)
        .await
        .unwrap_or_else(|e| panic!("load {} into {graph}: {e}", file.display()))
}

fn outcome(added: u64, removed: u64, total: u64) -> GraphOutcome {
    GraphOutcome {
        triples_added: added,
        triples_removed: removed,
        total_triples: total,
        unchanged: added == 0 && removed == 0,
    }
}

/// The suite. Leaves `DEV` with 2 triples and `MAIN` dropped.
pub async fn graph_behaviour(target: &Target) {
    let engine = target.engine().await;
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);

    // New graph.
    assert_eq!(engine.count(MAIN).await.unwrap(), 0);
    assert_eq!(
        load(&engine, MAIN, &people, false).await,
        outcome(11, 0, 11)
    );
    assert_eq!(engine.count(MAIN).await.unwrap(), 11);
    assert_eq!(target.independent_count(MAIN), 11);
    assert!(target.independent_ask(MAIN, r#"?a <http://example.org/street> "Main St 1""#));

    // The same file again, the same graph in N-Triples and part of it in JSON-LD: all
    // already there, blank nodes included.
    assert_eq!(load(&engine, MAIN, &people, false).await, outcome(0, 0, 11));
    let people_nt = staged.file("people.nt", PEOPLE_NT);
    assert_eq!(
        load(&engine, MAIN, &people_nt, false).await,
        outcome(0, 0, 11)
    );
    let people_jsonld = staged.file("people.jsonld", PEOPLE_JSONLD);
    assert_eq!(
        load(&engine, MAIN, &people_jsonld, false).await,
        outcome(0, 0, 11)
    );
    // Replacing by the same content changes nothing either.
    assert_eq!(
        load(&engine, MAIN, &people_nt, true).await,
        outcome(0, 0, 11)
    );
    assert_eq!(target.independent_count(MAIN), 11);

    // More triples: only the new ones count.
    let more = staged.file("more.ttl", MORE_TTL);
    assert_eq!(load(&engine, MAIN, &more, false).await, outcome(2, 0, 13));
    assert_eq!(target.independent_count(MAIN), 13);

    // Another branch is another graph: isolated both ways.
    let dev_file = staged.file("dev.ttl", MORE_TTL);
    assert_eq!(load(&engine, DEV, &dev_file, false).await, outcome(3, 0, 3));
    assert_eq!(target.independent_count(DEV), 3);
    assert_eq!(target.independent_count(MAIN), 13);
    assert!(!target.independent_ask(DEV, r#"?s ?p "Alice""#));

    // Replace: of 7 ground triples 1 stays and 1 is new; both blank-node components go
    // and a new address (2 triples) comes.
    let small = staged.file("small.ttl", SMALL_TTL);
    let replaced = load(&engine, MAIN, &small, true).await;
    assert_eq!(replaced, outcome(3, 12, 4));
    assert_eq!(target.independent_count(MAIN), 4);
    assert!(target.independent_ask(MAIN, r#"?a <http://example.org/street> "Elm St 2""#));
    assert!(!target.independent_ask(MAIN, r#"?a <http://example.org/street> "Main St 1""#));
    assert!(!target.independent_ask(MAIN, r#"?s ?p "Carol""#));
    assert_eq!(target.independent_count(DEV), 3);

    // Several files as one change.
    let files = [
        RdfFile {
            path: &small,
            format: RdfFormat::Turtle,
            sha256: None,
        },
        RdfFile {
            path: &more,
            format: RdfFormat::Turtle,
            sha256: None,
        },
    ];
    let both = engine.load_files(MAIN, &files, true).await.unwrap();
    assert_eq!(both, outcome(3, 0, 7));
    assert_eq!(
        engine.load_files(MAIN, &files, true).await.unwrap(),
        outcome(0, 0, 7)
    );

    // Export and query through the engine.
    let exported = engine.export(MAIN, RdfFormat::NTriples).await.unwrap();
    let sha256 = exported.sha256.clone();
    let size = exported.size;
    let bytes = exported.into_bytes().unwrap();
    assert_eq!(bytes.len() as u64, size);
    assert_eq!(hex::encode(sha2::Sha256::digest(&bytes)), sha256);
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(text.lines().filter(|l| !l.trim().is_empty()).count(), 7);
    for format in [RdfFormat::Turtle, RdfFormat::JsonLd] {
        let exported = staged.file(
            &format!("export.{}", format.extension()),
            &String::from_utf8(
                engine
                    .export(MAIN, format)
                    .await
                    .unwrap()
                    .into_bytes()
                    .unwrap(),
            )
            .unwrap(),
        );
        // Exported documents load back as the same graph.
        assert_eq!(
            load(&engine, MAIN, &exported, false).await,
            outcome(0, 0, 7),
            "{format}"
        );
    }
    let counted = engine
        .query(&format!(
            "SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{MAIN}> {{ ?s ?p ?o }} }}"
        ))
        .await
        .unwrap();
    assert_eq!(counted["results"]["bindings"][0]["n"]["value"], "7");
    let asked = engine
        .query(&format!("ASK {{ GRAPH <{DEV}> {{ ?s ?p \"Carol\" }} }}"))
        .await
        .unwrap();
    assert_eq!(asked["boolean"], true);
    let constructed = engine
        .query(&format!(
            "CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{DEV}> {{ ?s ?p ?o }} }}"
        ))
        .await
        .unwrap();
    assert_eq!(constructed["triples"].as_array().unwrap().len(), 3);
    // The default graph is not the union of the named graphs.
    let default = engine.query("ASK { ?s ?p ?o }").await.unwrap();
    assert_eq!(default["boolean"], false);

    // Errors of the caller.
    let invalid = engine
        .query("SELEKT * WHERE { ?s ?p ?o }")
        .await
        .unwrap_err();
    assert!(
        matches!(invalid, GraphError::InvalidQuery { .. }),
        "{invalid:?}"
    );
    let update = engine
        .query("INSERT DATA { <http://a> <http://b> <http://c> }")
        .await
        .unwrap_err();
    assert!(
        matches!(update, GraphError::InvalidQuery { .. }),
        "{update:?}"
    );
    let broken = staged.file(
        "broken.ttl",
        "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b \"unterminated .\n",
    );
    let error = engine
        .load(MAIN, &broken, RdfFormat::Turtle, false)
        .await
        .unwrap_err();
    let GraphError::Parse { line, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!(*line, Some(3), "{error}");
    assert!(error.to_string().contains("broken.ttl"), "{error}");
    let bad_iri = engine.count("not an iri").await.unwrap_err();
    assert!(
        matches!(bad_iri, GraphError::InvalidGraphIri { .. }),
        "{bad_iri:?}"
    );
    assert_eq!(
        engine.count(MAIN).await.unwrap(),
        7,
        "failed loads change nothing"
    );

    // Drop.
    assert!(engine.drop_graph(MAIN).await.unwrap());
    assert_eq!(engine.count(MAIN).await.unwrap(), 0);
    assert_eq!(target.independent_count(MAIN), 0);
    assert!(!engine.drop_graph(MAIN).await.unwrap());
    assert_eq!(target.independent_count(DEV), 3);

    // Replace by an empty file empties the graph; loading it again is unchanged.
    let empty = staged.file("empty.nt", "");
    let scratch = "https://data.example.org/demo/scratch/main";
    assert_eq!(load(&engine, scratch, &more, false).await, outcome(3, 0, 3));
    assert_eq!(load(&engine, scratch, &empty, true).await, outcome(0, 3, 0));
    assert_eq!(load(&engine, scratch, &empty, true).await, outcome(0, 0, 0));
    assert_eq!(target.independent_count(scratch), 0);
    assert!(!engine.drop_graph(scratch).await.unwrap());

    // A new engine on the same data sees the same graphs (embedded: one engine at a
    // time opens the store).
    drop(engine);
    let reopened = target.engine().await;
    assert_eq!(reopened.count(DEV).await.unwrap(), 3);
    assert_eq!(reopened.count(MAIN).await.unwrap(), 0);
    assert_eq!(
        load(&reopened, DEV, &dev_file, false).await,
        outcome(0, 0, 3)
    );
}

/// Snapshots (named versions): a snapshot graph holds the source's content, blank nodes
/// included, stays when the source moves on, is rewritten only with force, and the
/// graphs of a prefix are listed.
pub async fn graph_snapshots(target: &Target) {
    const SOURCE: &str = "https://data.example.org/demo/people/branch/snap";
    const V1: &str = "https://data.example.org/demo/people/branch/snap/version/1.0.0";
    const V2: &str = "https://data.example.org/demo/people/branch/snap/version/2.0.0+b.1";
    let engine = target.engine().await;
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);
    let small = staged.file("small.ttl", SMALL_TTL);

    load(&engine, SOURCE, &people, true).await;
    assert_eq!(
        engine.snapshot(SOURCE, V1, false).await.unwrap(),
        outcome(11, 0, 11)
    );
    // Again: the snapshot already holds it, nothing is written.
    assert_eq!(
        engine.snapshot(SOURCE, V1, false).await.unwrap(),
        outcome(0, 0, 11)
    );
    assert_eq!(target.independent_count(V1), 11);
    assert!(target.independent_ask(V1, r#"?a <http://example.org/street> "Main St 1""#));
    assert!(engine.same_content(SOURCE, V1).await.unwrap());

    // A load that would leave other content than 1.0.0 holds, keeping 1.0.0, writes
    // nothing; a load that leaves the same content (here: nothing new) is fine.
    let file = |path| RdfFile {
        path,
        format: RdfFormat::Turtle,
        sha256: None,
    };
    let kept = engine
        .load_files_keeping(SOURCE, &[file(&small)], true, Some(V1))
        .await
        .unwrap_err();
    assert!(matches!(kept, GraphError::VersionExists { .. }), "{kept:?}");
    assert_eq!(target.independent_count(SOURCE), 11);
    let same = engine
        .load_files_keeping(SOURCE, &[file(&people)], false, Some(V1))
        .await
        .unwrap();
    assert!(same.unchanged, "{same:?}");

    // The source moves on; 1.0.0 stays, and moving it needs force.
    load(&engine, SOURCE, &small, true).await;
    assert!(!engine.same_content(SOURCE, V1).await.unwrap());
    let refused = engine.snapshot(SOURCE, V1, false).await.unwrap_err();
    assert!(
        matches!(refused, GraphError::VersionExists { .. }),
        "{refused:?}"
    );
    assert_eq!(target.independent_count(V1), 11);
    assert_eq!(
        engine.snapshot(SOURCE, V2, false).await.unwrap(),
        outcome(4, 0, 4)
    );
    assert_eq!(target.independent_count(V2), 4);
    assert!(target.independent_ask(V2, r#"?a <http://example.org/street> "Elm St 2""#));
    assert_eq!(
        engine
            .graphs_with_prefix("https://data.example.org/demo/people/branch/snap/version/")
            .await
            .unwrap(),
        [V1, V2]
    );

    // Reopened (embedded: from its store), the snapshots are still there.
    drop(engine);
    let engine = target.engine().await;
    assert_eq!(engine.count(V1).await.unwrap(), 11);
    let turtle = engine.export(V1, RdfFormat::Turtle).await.unwrap();
    let text = String::from_utf8(turtle.into_bytes().unwrap()).unwrap();
    assert!(text.contains("Main St 1"), "{text}");

    // Forced, 1.0.0 becomes the source's content.
    assert_eq!(
        engine.snapshot(SOURCE, V1, true).await.unwrap(),
        outcome(3, 10, 4)
    );
    assert!(engine.same_content(SOURCE, V1).await.unwrap());
    assert_eq!(target.independent_count(V1), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_graph_snapshots() {
    graph_snapshots(&Target::embedded()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_graph_snapshots() {
    graph_snapshots(&Target::remote()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_graph_behaviour() {
    let target = Target::embedded();
    graph_behaviour(&target).await;
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    // DEV is the only graph left in the store; no staging graph stays behind.
    assert_eq!(stored_graphs(dir.path()), [DEV]);
    assert_eq!(
        std::fs::read_dir(dir.path().join("journal"))
            .unwrap()
            .count(),
        0,
        "no change left unfinished"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_graph_behaviour() {
    let target = Target::remote();
    graph_behaviour(&target).await;
    let Target::Remote { server } = &target else {
        unreachable!()
    };
    // Straight from the server, not through the engine: DEV's content.
    let dev = server.get_graph(DEV).expect("DEV exists on the server");
    assert_eq!(dev.lines().filter(|l| !l.trim().is_empty()).count(), 3);
    assert_eq!(server.get_graph(MAIN), None);
}

/// Embedded: an append of files a graph was all loaded from (by their sha256) answers
/// unchanged without reading them; a replace forgets what the graph was loaded from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_append_of_files_a_graph_was_loaded_from_reads_nothing() {
    let target = Target::embedded();
    let engine = target.engine().await;
    let dir = TempDir::new().unwrap();
    let write = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        path
    };
    let a = write("a.ttl", "<http://e.org/a> <http://e.org/p> \"one\" .\n");
    let b = write("b.ttl", "<http://e.org/b> <http://e.org/p> \"two\" .\n");
    let file = |path, sha256| RdfFile {
        path,
        format: RdfFormat::Turtle,
        sha256: Some(sha256),
    };
    let (sha_a, sha_b) = ("a".repeat(64), "b".repeat(64));
    let created = engine
        .load_files(MAIN, &[file(&a, &sha_a)], false)
        .await
        .unwrap();
    assert_eq!(created, outcome(1, 0, 1));
    // The same digest, other bytes (not even RDF): not read.
    std::fs::write(&a, "not RDF at all").unwrap();
    let again = engine
        .load_files(MAIN, &[file(&a, &sha_a)], false)
        .await
        .unwrap();
    assert!(again.unchanged, "{again:?}");
    assert_eq!(again.total_triples, 1);
    // Another digest is read (and here refused).
    let other = engine.load_files(MAIN, &[file(&a, &sha_b)], false).await;
    assert!(matches!(other, Err(GraphError::Parse { .. })), "{other:?}");
    // A replace by b forgets a: the same digest is read again.
    std::fs::write(&a, "<http://e.org/a> <http://e.org/p> \"one\" .\n").unwrap();
    let replaced = engine
        .load_files(MAIN, &[file(&b, &sha_b)], true)
        .await
        .unwrap();
    assert_eq!(replaced, outcome(1, 1, 1));
    let appended = engine
        .load_files(MAIN, &[file(&a, &sha_a)], false)
        .await
        .unwrap();
    assert_eq!(appended, outcome(1, 0, 2), "a was forgotten by the replace");
    // What is remembered survives a restart of the store.
    drop(engine);
    let engine = target.engine().await;
    std::fs::write(&b, "not RDF either").unwrap();
    let both = engine
        .load_files(MAIN, &[file(&a, &sha_a), file(&b, &sha_b)], false)
        .await
        .unwrap();
    assert!(both.unchanged, "{both:?}");
    assert_eq!(target.independent_count(MAIN), 2);
}
