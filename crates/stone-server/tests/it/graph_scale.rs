//! Graphs at scale on the embedded store (issue 24), on the real server: a graph larger
//! than the server may hold in memory commits and reads back (SPARQL through the server,
//! pyoxigraph on an export, pyoxigraph on the store); appends, replace and versions on
//! it; the server killed in the middle of a graph load and of the copy that finishes a
//! replace leaves the old or the new graph, never a mix.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_server::engines::graph::GraphEngine;

use crate::api_support::{
    Answer, Dataset, File, Options, Server, Site, client, graph_count_on_disk, manifest,
    sparql_count, statuses, upload_all,
};
use crate::graph_behaviour::stored_graphs;

/// The server's peak RSS (VmHWM) may not pass this during the large push, made with 16 MB
/// of bulk-loader batches (`[graph] bulk_load_memory_mb`). The former in-memory engine
/// took ~1.4 KB per triple (2.2 GB for 1.6 M): the graph below would have needed ~350 MB
/// on top of the server's own. What the store takes is the loader's batches and RocksDB's
/// buffers: 176 MB measured alone (debug), 200 MB once under the whole suite's load, so
/// the budget leaves that spread a margin and stays well under what holding the graph
/// would take.
const MEMORY_BUDGET: u64 = 256 << 20;
/// `[graph]` settings of the large push: 16 MB of loader batches (the default is 400).
const SMALL_BATCHES: &str = "[graph]\nbulk_load_memory_mb = 16\n";
/// More triples than one transaction takes (`MAX_TRANSACTION_TRIPLES`, 100,000).
const LARGE: usize = 250_000;

/// `lines` distinct N-Triples lines; `tag` makes the subjects of one file its own.
pub(crate) fn ntriples(lines: usize, tag: &str) -> Vec<u8> {
    let mut out = String::with_capacity(lines * 96);
    for i in 0..lines {
        let (s, k) = (i / 4, i % 4);
        out.push_str(&format!(
            "<http://example.org/{tag}/r{s}> <http://example.org/p{k}> \"value {i} of the generated graph {tag}\" .\n"
        ));
    }
    out.into_bytes()
}

pub(crate) fn graph_iri(name: &str) -> String {
    format!("https://data.test/demo/{name}/branch/dev")
}

/// The peak resident memory of a process so far, in bytes.
fn peak_rss(pid: u32) -> u64 {
    crate::support::hostile::memory_bytes(pid, "VmHWM")
}

async fn sparql(server: &Server, query: &str) -> Value {
    let request = client()
        .post(server.url("/v1/sparql"))
        .header("content-type", "application/sparql-query")
        .body(query.to_owned());
    Answer::of(request.send().await.unwrap())
        .await
        .expect(200)
        .body
}

pub(crate) async fn count_by_sparql(server: &Server, graph: &str) -> u64 {
    sparql_count(
        &sparql(
            server,
            &format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"),
        )
        .await,
    )
}

/// The graph exported by the server as N-Triples, counted by pyoxigraph.
async fn count_of_export(server: &Server, name: &str, version: Option<&str>, dir: &Path) -> u64 {
    let mut path = format!("/v1/namespaces/demo/datasets/{name}/content?branch=dev");
    if let Some(version) = version {
        path.push_str(&format!("&version={version}"));
    }
    let response = client()
        .get(server.url(&path))
        .header("accept", "application/n-triples")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    let body = response.bytes().await.unwrap();
    let file = dir.join(format!("export-{name}.nt"));
    std::fs::write(&file, &body).unwrap();
    let result = stone_test::tools::run_python_json(
        "sparql.py",
        &[
            "--data",
            file.to_str().unwrap(),
            "--query",
            "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
        ],
    );
    std::fs::remove_file(&file).unwrap();
    sparql_count(&result)
}

fn graph_push(
    name: &str,
    bytes: Vec<u8>,
    replace: bool,
    version: Option<&str>,
) -> (Value, crate::api_support::Contents) {
    manifest(
        "demo",
        "dev",
        Options {
            replace,
            ..Options::default()
        },
        version,
        &[Dataset::new(
            name,
            "GRAPH",
            vec![File::new(&format!("{name}.nt"), bytes)],
        )],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graph_larger_than_the_memory_budget_commits_appends_replaces_and_reads_back() {
    let site = Site::with_config(SMALL_BATCHES);
    let mut server = site.start();
    let graph = graph_iri("big");
    let version = "https://data.test/demo/big/branch/dev/version/1.0.0";

    let (m, contents) = graph_push("big", ntriples(LARGE, "a"), false, Some("1.0.0"));
    let status = server.push(&m, &contents).await;
    assert_eq!(statuses(&status)["big"], "created", "{status:#}");
    let peak = peak_rss(server.pid());
    eprintln!("peak RSS with 16 MB of loader batches: {} MB", peak >> 20);
    assert!(
        peak < MEMORY_BUDGET,
        "the server's peak RSS was {} MB (budget {} MB) for a {LARGE}-triple graph loaded with 16 MB batches",
        peak >> 20,
        MEMORY_BUDGET >> 20
    );
    assert_eq!(count_by_sparql(&server, &graph).await, LARGE as u64);
    assert_eq!(
        count_of_export(&server, "big", None, site.dir.path()).await,
        LARGE as u64
    );
    // The version is a copy of the graph as the push left it.
    assert_eq!(count_by_sparql(&server, version).await, LARGE as u64);

    // Pushed again unchanged: nothing written.
    let status = server.push(&m, &contents).await;
    assert_eq!(statuses(&status)["big"], "unchanged", "{status:#}");

    // An append of one triple (and of one already there) adds one.
    let mut one = b"<http://example.org/new> <http://example.org/p0> \"one more\" .\n".to_vec();
    one.extend_from_slice(b"<http://example.org/a/r0> <http://example.org/p0> \"value 0 of the generated graph a\" .\n");
    let (m, contents) = graph_push("big", one, false, None);
    let status = server.push(&m, &contents).await;
    assert_eq!(statuses(&status)["big"], "appended", "{status:#}");
    assert_eq!(count_by_sparql(&server, &graph).await, LARGE as u64 + 1);
    assert_eq!(count_by_sparql(&server, version).await, LARGE as u64);

    // An append larger than one transaction goes through a staging graph.
    let (m, contents) = graph_push("big", ntriples(120_000, "b"), false, None);
    server.push(&m, &contents).await;
    assert_eq!(
        count_by_sparql(&server, &graph).await,
        LARGE as u64 + 120_001
    );

    // Replace: the graph becomes the file; the version keeps its content.
    let (m, contents) = graph_push("big", ntriples(1_000, "c"), true, None);
    let status = server.push(&m, &contents).await;
    assert_eq!(statuses(&status)["big"], "replaced", "{status:#}");
    assert_eq!(count_by_sparql(&server, &graph).await, 1_000);
    assert_eq!(
        count_of_export(&server, "big", Some("1.0.0"), site.dir.path()).await,
        LARGE as u64
    );

    // Restarted: the same graphs, read without the server too.
    server.kill();
    let server = site.start();
    assert_eq!(count_by_sparql(&server, &graph).await, 1_000);
    assert_eq!(count_by_sparql(&server, version).await, LARGE as u64);
    drop(server);
    let graph_dir = site.data_dir().join("graph");
    assert_eq!(graph_count_on_disk(&site.data_dir(), &graph), 1_000);
    assert_eq!(graph_count_on_disk(&site.data_dir(), version), LARGE as u64);
    assert_eq!(
        stored_graphs(&graph_dir),
        [graph.clone(), version.to_owned()]
    );
}

/// What the server may peak at while loading the large graph with the default loader
/// batches (400 MB): 393 MB with glibc's allocator at 600,000 triples, ~470 MB with mimalloc
/// (the server's allocator since it cut a graph load's CPU by a third; it keeps freed pages
/// a little longer). bench/graph.py measures the default from 2 M to 20 M triples.
const DEFAULT_BATCHES_BUDGET: u64 = 512 << 20;

/// The default `[graph] bulk_load_memory_mb` loads the same large graph whole within its
/// budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_bulk_load_memory_loads_the_large_graph_within_its_budget() {
    let site = Site::new();
    let server = site.start();
    let graph = graph_iri("big");
    let (m, contents) = graph_push("big", ntriples(LARGE, "a"), false, None);
    let status = server.push(&m, &contents).await;
    assert_eq!(statuses(&status)["big"], "created", "{status:#}");
    let peak = peak_rss(server.pid());
    eprintln!(
        "peak RSS with the default loader batches: {} MB",
        peak >> 20
    );
    assert_eq!(count_by_sparql(&server, &graph).await, LARGE as u64);
    assert!(
        peak < DEFAULT_BATCHES_BUDGET,
        "the server's peak RSS was {} MB with the default loader batches (bound {} MB)",
        peak >> 20,
        DEFAULT_BATCHES_BUDGET >> 20
    );
    drop(server);
    assert_eq!(graph_count_on_disk(&site.data_dir(), &graph), LARGE as u64);
}

/// The store is built with the patched crates of third_party/: oxigraph (its bulk loader
/// links its files into the store instead of copying them, and writes do not stall on
/// level-0 files: third_party/oxigraph/STONE.md) and oxrocksdb-sys (RocksDB compiled as a
/// few large units, its bindings kept in the tree: third_party/oxrocksdb-sys/STONE.md). A
/// version other than a patch's makes cargo leave the patch unused with only a warning, and
/// the registry's copy back: the lock file then names crates.io as the crate's source.
#[test]
fn the_store_is_built_with_the_patched_crates() {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"))
        .expect("the workspace's Cargo.lock");
    let packages: Vec<&str> = lock.split("[[package]]").collect();
    let named = |name: &str| -> Vec<&str> {
        let line = format!("name = \"{name}\"");
        packages
            .iter()
            .copied()
            .filter(|package| package.lines().any(|l| l == line))
            .collect()
    };
    for crate_name in ["oxigraph", "oxrocksdb-sys"] {
        let found = named(crate_name);
        assert_eq!(found.len(), 1, "one {crate_name} in Cargo.lock: {found:#?}");
        assert!(
            !found[0].contains("source = "),
            "{crate_name} comes from a registry, not third_party/{crate_name} (its \
             [patch.crates-io] is unused: does third_party/{crate_name}/Cargo.toml have the \
             version the workspace asks for? see scripts/vendor):{}",
            found[0]
        );
    }
    // Building needs no libclang: nothing in the tree runs bindgen (a fresh machine has
    // Debian's libclang-cpp at most, which bindgen does not load; issue 51).
    for needs_libclang in ["bindgen", "clang-sys"] {
        assert!(
            named(needs_libclang).is_empty(),
            "{needs_libclang} is in Cargo.lock: the build would need libclang (cargo tree -i \
             {needs_libclang} says who brings it; oxrocksdb-sys keeps its bindings in the tree)"
        );
    }
}

/// Every index of the store takes writes whatever the count of its level-0 files: a bulk
/// load leaves one there per batch, and from RocksDB's defaults (20 slow, 36 stop) the
/// append right after a 16 M-triple load waited 65–84 s (third_party/oxigraph/STONE.md).
/// Read where RocksDB writes the options it runs with (`OPTIONS-<n>` in the store).
#[test]
fn the_store_never_stalls_writes_on_its_level_0_files() {
    let site = Site::new();
    let server = site.start();
    let store = site.data_dir().join("graph/store");
    let newest = std::fs::read_dir(&store)
        .unwrap_or_else(|e| panic!("the store {}: {e}", store.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("OPTIONS-"))
        })
        .max_by_key(|path| {
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            name["OPTIONS-".len()..].parse::<u64>().unwrap_or(0)
        })
        .expect("RocksDB writes an OPTIONS file in the store");
    let options = std::fs::read_to_string(&newest).unwrap();
    let mut families = 0;
    for family in options.split("[CFOptions ").skip(1) {
        families += 1;
        let name = family.lines().next().unwrap_or_default();
        for setting in [
            "level0_slowdown_writes_trigger",
            "level0_stop_writes_trigger",
        ] {
            let value = family
                .lines()
                .find_map(|line| line.trim().strip_prefix(&format!("{setting}=")))
                .unwrap_or_else(|| panic!("no {setting} for {name} in {}", newest.display()));
            assert_eq!(value, "1048576", "{setting} of {name}");
        }
    }
    // The default family and the store's own: quads in six orders, the default graph's
    // three, terms, graphs.
    assert!(
        families >= 10,
        "{families} column families in {}",
        newest.display()
    );
    drop(server);
}

/// Waits until the embedded store's journal holds a step whose JSON contains `step`
/// (a graph change in progress), then kills the server.
async fn kill_during(server: &mut Server, step: &str) {
    let journal = server.data_dir.join("graph/journal");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let found = std::fs::read_dir(&journal)
            .into_iter()
            .flatten()
            .any(|entry| {
                let path = entry.unwrap().path();
                path.extension().is_some_and(|e| e == "json")
                    && std::fs::read_to_string(&path).is_ok_and(|text| text.contains(step))
            });
        if found {
            server.kill();
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no `{step}` step in the graph journal:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// The graph's count once the store has opened (and finished what the crash left), read
/// by the engine and by pyoxigraph on the store; no staging graph is left behind.
async fn count_after_recovery(data_dir: &Path, graph: &str) -> u64 {
    let graph_dir = data_dir.join("graph");
    let engine = GraphEngine::embedded(&graph_dir)
        .await
        .expect("the store opens after the crash");
    let count = engine.count(graph).await.unwrap();
    drop(engine);
    assert_eq!(graph_count_on_disk(data_dir, graph), count);
    assert_eq!(stored_graphs(&graph_dir), [graph.to_owned()]);
    assert_eq!(
        std::fs::read_dir(graph_dir.join("journal"))
            .unwrap()
            .count(),
        0,
        "the journal is empty once the store opened"
    );
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_graph_commit_leaves_the_old_or_the_new_graph() {
    const OLD: usize = 60_000;
    const NEW: usize = 100_000;
    const NEWER: usize = 80_000;
    let site = Site::new();
    let graph = graph_iri("kb");
    let server = site.start();
    let (m, contents) = graph_push("kb", ntriples(OLD, "old"), false, None);
    server.push(&m, &contents).await;
    drop(server);

    // Killed while the replacement is bulk-loaded into its staging graph: the old graph.
    let mut server = site.start();
    let (m, contents) = graph_push("kb", ntriples(NEW, "new"), true, None);
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    kill_during(&mut server, "\"discard\"").await;
    assert_eq!(
        count_after_recovery(&site.data_dir(), &graph).await,
        OLD as u64
    );
    // Restarted, the server finishes the push.
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(count_by_sparql(&server, &graph).await, NEW as u64);
    drop(server);

    // Killed while the staged replacement is copied in: the change had happened, the
    // store finishes it when it opens.
    let mut server = site.start();
    let (m, contents) = graph_push("kb", ntriples(NEWER, "newer"), true, None);
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    kill_during(&mut server, "\"copy\"").await;
    assert_eq!(
        count_after_recovery(&site.data_dir(), &graph).await,
        NEWER as u64
    );
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(count_by_sparql(&server, &graph).await, NEWER as u64);
    assert_eq!(
        count_of_export(&server, "kb", None, site.dir.path()).await,
        NEWER as u64
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_while_small_graphs_load_together_leaves_each_empty_or_whole() {
    // Issue 56: the new small graphs of a commit batch go into the store in bulk loads of
    // 8 MiB of files, each under one journal entry. Killed during one, the store opens
    // with none of that load's graphs (the entry discards them all) and each graph of an
    // earlier load whole; the restarted server loads the rest: each graph whole, every
    // dataset reported as created.
    const GRAPHS: usize = 40;
    // ~0.7 MB each (under the 1 MiB of a batched graph), 28 MB together: a few loads, each
    // long enough to be killed in.
    const LINES: usize = 7_000;
    let site = Site::new();
    let mut server = site.start();
    let names: Vec<String> = (0..GRAPHS).map(|i| format!("g{i:02}")).collect();
    let datasets: Vec<Dataset> = names
        .iter()
        .map(|name| {
            Dataset::new(
                name,
                "GRAPH",
                vec![File::new(&format!("{name}.nt"), ntriples(LINES, name))],
            )
        })
        .collect();
    let (m, contents) = manifest("demo", "dev", Options::default(), None, &datasets);
    let created = server.create_push(&m).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    kill_during(&mut server, "\"discard\"").await;
    let graph_dir = site.data_dir().join("graph");
    let engine = GraphEngine::embedded(&graph_dir)
        .await
        .expect("the store opens after the crash");
    let mut whole = Vec::new();
    for name in &names {
        let count = engine.count(&graph_iri(name)).await.unwrap();
        assert!(
            count == 0 || count == LINES as u64,
            "{name}: {count} triples"
        );
        if count > 0 {
            whole.push(graph_iri(name));
        }
    }
    drop(engine);
    assert!(whole.len() < GRAPHS, "the kill came after the last load");
    assert_eq!(stored_graphs(&graph_dir), whole);
    assert_eq!(
        std::fs::read_dir(graph_dir.join("journal"))
            .unwrap()
            .count(),
        0
    );
    let server = site.start();
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert!(
        statuses(&status).values().all(|s| s == "created"),
        "{status:#}"
    );
    for name in &names {
        assert_eq!(
            count_by_sparql(&server, &graph_iri(name)).await,
            LINES as u64,
            "{name}"
        );
    }
    assert!(
        server.log().contains("new graphs bulk-loaded together"),
        "{}",
        server.log()
    );
    drop(server);
    assert_eq!(
        graph_count_on_disk(&site.data_dir(), &graph_iri("g07")),
        LINES as u64
    );
}
