//! The embedded graph store's own durability: the former engine's files loaded once,
//! corrupt files, restart, one engine per directory; and the engines' refusals (remote
//! JSON-LD contexts, unreachable servers). Crashes mid-change: graph_scale.rs.

use sha2::{Digest, Sha256};
use stone_server::engines::graph::{GraphEngine, GraphError, RdfFormat};
use stone_test::services::free_port;

use crate::graph_behaviour::{DEV, MAIN, PEOPLE_TTL, Staged, Target, stored_graphs};

fn graph_file_stem(graph: &str) -> String {
    hex::encode(Sha256::digest(graph.as_bytes()))
}

/// One N-Quads line of `graph`, as the former in-memory engine wrote its files.
fn legacy_line(graph: &str, n: usize) -> String {
    format!("<http://example.org/s{n}> <http://example.org/p> \"legacy {n}\" <{graph}> .\n")
}

/// A data directory of the former in-memory engine (one N-Quads file per graph, and the
/// leftovers of an interrupted write) is loaded into the store once, when it opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_files_of_the_former_in_memory_engine_are_loaded_once() {
    let target = Target::embedded();
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    let graphs = dir.path().join("graphs");
    std::fs::create_dir_all(&graphs).unwrap();
    let main: String = (0..5).map(|n| legacy_line(MAIN, n)).collect();
    std::fs::write(graphs.join(format!("{}.nq", graph_file_stem(MAIN))), &main).unwrap();
    // A crash mid-write of the former engine: a half-written temporary file next to the
    // graph's file, and one for a graph that was never committed.
    std::fs::write(
        graphs.join(format!("{}.nq.tmp-0123456789abcdef", graph_file_stem(MAIN))),
        &main[..main.len() / 2],
    )
    .unwrap();
    std::fs::write(
        graphs.join(format!("{}.nq.tmp-fedcba9876543210", graph_file_stem(DEV))),
        legacy_line(DEV, 9),
    )
    .unwrap();

    let engine = target.engine().await;
    assert_eq!(engine.count(MAIN).await.unwrap(), 5);
    assert_eq!(engine.count(DEV).await.unwrap(), 0);
    // The files are gone: loaded, or never committed.
    assert!(!graphs.exists(), "the former engine's folder is removed");
    drop(engine);
    assert_eq!(target.independent_count(MAIN), 5);
    assert_eq!(target.independent_count(DEV), 0);

    // Opened again: loaded once, not twice; writing goes on as before.
    let engine = target.engine().await;
    assert_eq!(engine.count(MAIN).await.unwrap(), 5);
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);
    let outcome = engine
        .load(MAIN, &people, RdfFormat::Turtle, false)
        .await
        .unwrap();
    assert_eq!(outcome.triples_added, 11);
    assert_eq!(outcome.total_triples, 16);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_change_is_in_the_store_when_it_returns() {
    let target = Target::embedded();
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);
    {
        let engine = target.engine().await;
        engine
            .load(MAIN, &people, RdfFormat::Turtle, false)
            .await
            .unwrap();
        engine
            .load(DEV, &people, RdfFormat::Turtle, false)
            .await
            .unwrap();
        assert!(
            engine
                .load(MAIN, &people, RdfFormat::Turtle, false)
                .await
                .unwrap()
                .unchanged
        );
        assert!(engine.drop_graph(DEV).await.unwrap());
        assert!(!engine.drop_graph(DEV).await.unwrap());
    }
    // Read without the engine, then by a new one: MAIN only, no change left unfinished.
    assert_eq!(stored_graphs(dir.path()), [MAIN]);
    assert_eq!(target.independent_count(MAIN), 11);
    assert_eq!(
        std::fs::read_dir(dir.path().join("journal"))
            .unwrap()
            .count(),
        0
    );
    let reopened = target.engine().await;
    assert_eq!(reopened.count(MAIN).await.unwrap(), 11);
    assert_eq!(reopened.count(DEV).await.unwrap(), 0);
    // One engine per directory: the store is locked while one is open.
    let error = GraphEngine::embedded(dir.path()).await.unwrap_err();
    assert!(matches!(error, GraphError::Store(_)), "{error:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_graph_file_of_the_former_engine_stops_the_store_from_opening() {
    let target = Target::embedded();
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    let graphs = dir.path().join("graphs");
    std::fs::create_dir_all(&graphs).unwrap();
    // A file under another graph's name.
    let moved = graphs.join(format!("{}.nq", graph_file_stem(DEV)));
    std::fs::write(&moved, legacy_line(MAIN, 1)).unwrap();
    let error = GraphEngine::embedded(dir.path()).await.unwrap_err();
    assert!(
        matches!(&error, GraphError::CorruptStore { path, .. } if *path == moved),
        "{error:?}"
    );

    // Garbage.
    std::fs::write(&moved, b"this is not N-Quads\n").unwrap();
    let error = GraphEngine::embedded(dir.path()).await.unwrap_err();
    assert!(
        matches!(error, GraphError::CorruptStore { .. }),
        "{error:?}"
    );
    // A garbled journal entry too: the store does not open on a state it cannot read.
    std::fs::remove_file(&moved).unwrap();
    std::fs::write(dir.path().join("journal/0.json"), b"{").unwrap();
    let error = GraphEngine::embedded(dir.path()).await.unwrap_err();
    assert!(
        matches!(error, GraphError::CorruptStore { .. }),
        "{error:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_json_ld_contexts_are_refused_not_fetched() {
    let target = Target::embedded();
    let staged = Staged::new();
    let file = staged.file(
        "schema.jsonld",
        r#"{"@context": "https://schema.org/", "@id": "http://example.org/x", "name": "X"}"#,
    );
    let engine = target.engine().await;
    let error = engine
        .load(MAIN, &file, RdfFormat::JsonLd, false)
        .await
        .unwrap_err();
    match &error {
        GraphError::RemoteContext { url, path } => {
            assert_eq!(url, "https://schema.org/");
            assert_eq!(path, &file);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(engine.count(MAIN).await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_graph_server_is_reported_as_unavailable() {
    let port = free_port();
    let error = GraphEngine::remote(&format!("http://127.0.0.1:{port}"))
        .await
        .unwrap_err();
    assert!(matches!(error, GraphError::Unavailable { .. }), "{error:?}");
}
