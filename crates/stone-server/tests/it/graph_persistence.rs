//! The embedded graph store's own durability: interrupted writes, corrupt files, restart;
//! and the engines' refusals (remote JSON-LD contexts, unreachable servers).

use sha2::{Digest, Sha256};
use stone_server::engines::graph::{GraphEngine, GraphError, RdfFormat};
use stone_test::services::free_port;

use crate::graph_behaviour::{DEV, MAIN, PEOPLE_TTL, Staged, Target, graph_files};

fn graph_file_stem(graph: &str) -> String {
    hex::encode(Sha256::digest(graph.as_bytes()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leftovers_of_an_interrupted_write_do_not_change_the_graph() {
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
    }
    let graphs = dir.path().join("graphs");
    let committed = std::fs::read(graphs.join(format!("{}.nq", graph_file_stem(MAIN)))).unwrap();

    // A crash mid-write: a half-written temporary file next to the graph's file (cut in
    // the middle of a line), and one for a graph that was never committed.
    let half = &committed[..committed.len() / 2];
    std::fs::write(
        graphs.join(format!("{}.nq.tmp-0123456789abcdef", graph_file_stem(MAIN))),
        half,
    )
    .unwrap();
    std::fs::write(
        graphs.join(format!("{}.nq.tmp-fedcba9876543210", graph_file_stem(DEV))),
        b"<http://example.org/a> <http://example.org/b> \"never committed\" <https://data.example.org/demo/people/dev> .\n",
    )
    .unwrap();

    let engine = target.engine().await;
    assert_eq!(engine.count(MAIN).await.unwrap(), 11);
    assert_eq!(engine.count(DEV).await.unwrap(), 0);
    assert_eq!(target.independent_count(MAIN), 11);
    assert_eq!(target.independent_count(DEV), 0);
    // The leftovers are gone, the committed file is untouched.
    let names: Vec<String> = std::fs::read_dir(&graphs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [format!("{}.nq", graph_file_stem(MAIN))]);
    assert_eq!(
        std::fs::read(graphs.join(format!("{}.nq", graph_file_stem(MAIN)))).unwrap(),
        committed
    );
    // And writing goes on as before.
    let outcome = engine
        .load(MAIN, &people, RdfFormat::Turtle, false)
        .await
        .unwrap();
    assert!(outcome.unchanged);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_change_is_on_disk_before_it_is_visible() {
    let target = Target::embedded();
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);
    let engine = target.engine().await;
    engine
        .load(MAIN, &people, RdfFormat::Turtle, false)
        .await
        .unwrap();
    engine
        .load(DEV, &people, RdfFormat::Turtle, false)
        .await
        .unwrap();
    // No temporary file is left; each graph is one file, readable by pyoxigraph.
    assert_eq!(graph_files(dir.path()).len(), 2);
    let all = std::fs::read_dir(dir.path().join("graphs"))
        .unwrap()
        .count();
    assert_eq!(all, 2);
    assert_eq!(target.independent_count(MAIN), 11);
    assert_eq!(target.independent_count(DEV), 11);

    // An unchanged load does not rewrite the file.
    let file = dir
        .path()
        .join("graphs")
        .join(format!("{}.nq", graph_file_stem(MAIN)));
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(
        engine
            .load(MAIN, &people, RdfFormat::Turtle, false)
            .await
            .unwrap()
            .unchanged
    );
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );

    // Dropping removes the file.
    assert!(engine.drop_graph(DEV).await.unwrap());
    assert_eq!(graph_files(dir.path()).len(), 1);
    drop(engine);
    let reopened = target.engine().await;
    assert_eq!(reopened.count(MAIN).await.unwrap(), 11);
    assert_eq!(reopened.count(DEV).await.unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_graph_file_stops_the_store_from_opening() {
    let target = Target::embedded();
    let Target::Embedded { dir } = &target else {
        unreachable!()
    };
    let staged = Staged::new();
    let people = staged.file("people.ttl", PEOPLE_TTL);
    target
        .engine()
        .await
        .load(MAIN, &people, RdfFormat::Turtle, false)
        .await
        .unwrap();
    let graphs = dir.path().join("graphs");
    let file = graphs.join(format!("{}.nq", graph_file_stem(MAIN)));

    // A file under another graph's name.
    let moved = graphs.join(format!("{}.nq", graph_file_stem(DEV)));
    std::fs::rename(&file, &moved).unwrap();
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
