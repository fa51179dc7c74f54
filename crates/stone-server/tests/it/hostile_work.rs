//! Bounded work (issues 22 and 28): what a hostile client sends cannot make the server
//! work, hold memory or hold connections without end, and a push that kills the server
//! is not resumed for ever. Each test runs the real `stone-server` with small bounds in
//! its configuration (`[server]`, `[sparql]`, `[graph]`, `[jobs]`).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::api_support::{
    Dataset, File, Options, Server, Site, client, dataset, graph_count_on_disk, manifest,
    people_parquet, staged_contents, turtle, upload_all,
};
use crate::support::hostile::{blank_node_clique, cross_product, memory_bytes, stalled_upload};

/// The start of an answer, for a failure message.
fn brief(body: &Value) -> String {
    body.to_string().chars().take(300).collect()
}

pub(crate) async fn sparql(server: &Server, query: &str) -> (u16, Value) {
    let response = client()
        .post(server.url("/v1/sparql"))
        .header("content-type", "application/sparql-query")
        .body(query.to_owned())
        .send()
        .await
        .expect("the query is answered (the client waits 120 s)");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text.chars().take(200).collect())),
    )
}

/// CPU time a process has used so far, in clock ticks (Linux `/proc`).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which may hold spaces): state is field 3, utime 14.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// Waits until the process stops using CPU (less than 0.3 s in a second), failing after
/// `limit`: a query that was stopped lets its thread go.
async fn wait_idle(server: &Server, limit: Duration, what: &str) {
    let pid = server.pid();
    let deadline = Instant::now() + limit;
    let mut before = cpu_ticks(pid);
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = cpu_ticks(pid);
        if now - before < 30 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the server still works after {} s",
            limit.as_secs()
        );
        before = now;
    }
}

/// Waits until the server logs that the query thread let go, failing after 60 s.
async fn wait_stopped(server: &Server) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !server.log().contains("SPARQL query stopped") {
        assert!(
            Instant::now() < deadline,
            "the query is still running 60 s later"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runaway_sparql_query_is_stopped_at_the_timeout_and_its_memory_freed() {
    // Result bounds out of the way: only the timeout can stop this query.
    let site = Site::with_config(
        "[sparql]\ntimeout_seconds = 2\nmax_rows = 100000000000\nmax_result_bytes = 1000000000000\n",
    );
    let server = site.start();
    let idle = memory_bytes(server.pid(), "VmRSS");
    // A billion rows: without a timeout this runs for many minutes and its answer grows
    // in memory without bound.
    let (status, body) = sparql(&server, &cross_product(1000)).await;
    assert_eq!(status, 503, "{}", brief(&body));
    assert_eq!(body["code"], "sparql.timeout", "{}", brief(&body));
    assert_eq!(body["timeout_seconds"], 2, "{}", brief(&body));
    wait_stopped(&server).await;
    wait_idle(&server, Duration::from_secs(60), "after the timeout").await;
    let after = memory_bytes(server.pid(), "VmRSS");
    assert!(
        after < idle + (512 << 20),
        "the stopped query's memory is given back: {} MiB resident, {} MiB before",
        after >> 20,
        idle >> 20
    );
    // The server goes on answering queries.
    let (status, body) = sparql(&server, "ASK {}").await;
    assert_eq!(
        (status, &body["boolean"]),
        (200, &json!(true)),
        "{}",
        brief(&body)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sparql_query_is_stopped_when_its_client_goes_away() {
    let site = Site::with_config(
        "[sparql]\ntimeout_seconds = 3600\nmax_rows = 100000000000\nmax_result_bytes = 1000000000000\n",
    );
    let server = site.start();
    let impatient = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(2))
        .build()
        .unwrap();
    let gone = impatient
        .post(server.url("/v1/sparql"))
        .header("content-type", "application/sparql-query")
        .body(cross_product(1000))
        .send()
        .await;
    assert!(
        gone.as_ref().is_err_and(reqwest::Error::is_timeout),
        "{gone:?}"
    );
    // The server notices the closed connection and stops the query (it would otherwise
    // run for the hour of its timeout), and goes on answering.
    wait_stopped(&server).await;
    wait_idle(&server, Duration::from_secs(60), "after the client left").await;
    let (status, body) = sparql(&server, "ASK {}").await;
    assert_eq!(
        (status, &body["boolean"]),
        (200, &json!(true)),
        "{}",
        brief(&body)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sparql_result_beyond_the_caps_is_refused() {
    let site = Site::with_config("[sparql]\nmax_rows = 1000\n");
    let server = site.start();
    // 8,000 rows.
    let (status, body) = sparql(&server, &cross_product(20)).await;
    assert_eq!(status, 413, "{}", brief(&body));
    assert_eq!(body["code"], "sparql.too_large", "{}", brief(&body));
    assert_eq!(body["limit"], "max_rows", "{}", brief(&body));
    assert_eq!(body["max_rows"], 1000, "{}", brief(&body));
    // The default byte cap (32 MiB) stops a result of 27 million rows long before it is
    // made whole.
    let site = Site::new();
    let server = site.start();
    let (status, body) = sparql(&server, &cross_product(300)).await;
    assert_eq!(status, 413, "{}", brief(&body));
    assert_eq!(body["limit"], "max_result_bytes", "{}", brief(&body));
    // Within the caps, the answer is whole.
    let (status, body) = sparql(&server, &cross_product(10)).await;
    assert_eq!(status, 200, "{}", brief(&body));
    assert_eq!(body["results"]["bindings"].as_array().unwrap().len(), 1000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blank_node_clique_commits_within_bounds() {
    let site = Site::new();
    let server = site.start();
    let push = |options: Options| {
        manifest(
            "demo",
            "dev",
            options,
            None,
            &[Dataset::new(
                "clique",
                "GRAPH",
                vec![File::new("clique.nt", blank_node_clique(16))],
            )],
        )
    };
    // `wait` fails when the commit takes more than 120 s (canonical labelling of the
    // clique is factorial: without a bound it never ends).
    let (first, contents) = push(Options::default());
    let status = server.push(&first, &contents).await;
    assert_eq!(
        dataset(&status, "clique")["status"],
        "created",
        "{status:#}"
    );
    let graph = "https://data.test/demo/clique/branch/dev";
    assert_eq!(graph_count_on_disk(&server.data_dir, graph), 240);
    // Pushed again with replace, the graph holds the clique once.
    let (again, contents) = push(Options {
        replace: true,
        ..Options::default()
    });
    server.push(&again, &contents).await;
    assert_eq!(graph_count_on_disk(&server.data_dir, graph), 240);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_files_and_literals_beyond_the_caps_are_refused() {
    let site = Site::with_config("[graph]\nmax_file_bytes = 4000\nmax_literal_bytes = 100\n");
    let server = site.start();
    let long_literal = format!(
        "<http://example.org/a> <http://example.org/b> \"{}\" .\n",
        "x".repeat(101)
    );
    let (manifest, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[
            // 100 subjects, about 5 KB.
            Dataset::new("big", "GRAPH", vec![File::new("big.ttl", turtle(200))]),
            Dataset::new(
                "long",
                "GRAPH",
                vec![File::new("long.nt", long_literal.into_bytes())],
            ),
            Dataset::new("small", "GRAPH", vec![File::new("small.ttl", turtle(4))]),
        ],
    );
    let created = server.create_push(&manifest).await.expect(201);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&id).await.expect(202);
    let status = server.wait(&id).await;
    assert_eq!(status["state"], "failed", "{status:#}");
    for name in ["big", "long"] {
        let error = &dataset(&status, name)["error"];
        assert_eq!(error["code"], "graph.too_large", "{name}: {status:#}");
    }
    let big = dataset(&status, "big")["error"]["detail"].as_str().unwrap();
    assert!(
        big.contains("at most 4000") && big.contains("max_file_bytes"),
        "{big}"
    );
    let long = dataset(&status, "long")["error"]["detail"]
        .as_str()
        .unwrap();
    assert!(
        long.contains("a literal") && long.contains("max_literal_bytes"),
        "{long}"
    );
    assert_eq!(dataset(&status, "small")["state"], "done", "{status:#}");
}

/// Number of file descriptors a process holds (Linux `/proc`).
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_bounded_and_a_half_request_head_is_closed() {
    const LIMIT: usize = 64;
    let site = Site::with_config(&format!(
        "[server]\nmax_connections = {LIMIT}\nheader_read_timeout_seconds = 2\n"
    ));
    let server = site.start();
    let address = server.base.trim_start_matches("http://").to_owned();
    let baseline = open_files(server.pid());

    // Half a request head, then silence.
    let mut half = TcpStream::connect(&address).unwrap();
    half.write_all(b"GET /v1/info HTTP/1.1\r\nHost: data.test\r\n")
        .unwrap();
    // Hundreds of connections that never send anything.
    let idle: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&address).unwrap())
        .collect();

    // The server holds at most its limit of them.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let held = open_files(server.pid());
    assert!(
        held <= baseline + LIMIT + 8,
        "the server holds {held} file descriptors with 301 connections open ({baseline} before, limit {LIMIT})"
    );

    // `/v1/info` keeps answering (a refused connection is retried, as clients do).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match client().get(server.url("/v1/info")).send().await {
            Ok(response) if response.status() == 200 => break,
            other => assert!(
                Instant::now() < deadline,
                "/v1/info does not answer with 301 connections open: {other:?}"
            ),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The half head is closed by the server (end of stream or reset), not left open.
    half.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut buffer = [0u8; 256];
    match half.read(&mut buffer) {
        Ok(_) => {}
        Err(error) => assert!(
            !matches!(
                error.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
            "half a request head is still open after 60 s"
        ),
    }
    drop(idle);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_upload_body_is_refused_with_408_and_nothing_kept() {
    let site = Site::with_config("[server]\nbody_read_timeout_seconds = 1\n");
    let server = site.start();
    let bytes = crate::api_support::noise(7, 10_000);
    let (manifest, _) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "blob",
            "BLOB",
            vec![File::new("f.bin", bytes.clone())],
        )],
    );
    let created = server.create_push(&manifest).await.expect(201);
    let upload = &created.body["uploads"][0];
    // A tenth of the body, then silence.
    let answer = stalled_upload(upload, &bytes, 1000);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request.timeout\""), "{answer}");
    let sha256 = upload["sha256"].as_str().unwrap();
    assert!(
        !staged_contents(&server.data_dir)
            .iter()
            .any(|name| name.contains(sha256)),
        "nothing of the stalled upload is kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_that_keeps_crashing_the_server_fails_after_max_crashes() {
    let site = Site::with_config("[jobs]\nmax_crashes = 2\n");
    let (manifest, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(2))]),
        ],
    );
    // Every start dies while writing `people` (the test hook pauses the commit there and
    // the test kills the process, as a crash would).
    let crashing = [("STONE_SERVER_TEST_PAUSE_COMMIT", "people")];
    let mut server = site.start_with_env(&crashing);
    let created = server.create_push(&manifest).await.expect(201);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&server, &created.body, &contents).await;
    server.commit(&id).await.expect(202);
    for _ in 0..2 {
        crate::api_restart::wait_paused(&server).await;
        server.kill();
        std::fs::remove_file(server.data_dir.join("test-hooks/paused")).unwrap();
        server = site.start_with_env(&crashing);
    }
    // The third start does not resume the push: it fails it, and the server stays up.
    let status = server.wait(&id).await;
    assert_eq!(status["state"], "failed", "{status:#}");
    let people = &dataset(&status, "people")["error"];
    assert_eq!(people["code"], "push.crashed", "{status:#}");
    assert!(
        people["detail"]
            .as_str()
            .unwrap()
            .contains("stopped 2 times"),
        "{people}"
    );
    assert_eq!(
        dataset(&status, "vocab")["error"]["code"],
        "push.skipped",
        "{status:#}"
    );
    assert!(
        !server.data_dir.join("test-hooks/paused").exists(),
        "the commit was not started a third time"
    );
    server.get("/v1/info").await.expect(200);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_data_directory_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let site = Site::new();
    let server = site.start();
    let (manifest, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(2))]),
            Dataset::new(
                "logo",
                "BLOB",
                vec![File::new("logo.png", crate::api_support::png())],
            ),
        ],
    );
    server.push(&manifest, &contents).await;
    let mut seen = 0;
    let mut stack = vec![server.data_dir.clone()];
    while let Some(path) = stack.pop() {
        let metadata = std::fs::symlink_metadata(&path).unwrap();
        let mode = metadata.permissions().mode() & 0o777;
        assert_eq!(
            mode & 0o077,
            0,
            "{} is {mode:o}: readable by others",
            path.display()
        );
        seen += 1;
        if metadata.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        }
    }
    assert!(seen > 10, "only {seen} entries under the data directory");
    drop(server);

    // A data directory made by someone else with looser bits is tightened at start.
    let loose = Site::new();
    std::fs::create_dir_all(loose.data_dir()).unwrap();
    std::fs::set_permissions(loose.data_dir(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let _server = loose.start();
    let mode = std::fs::metadata(loose.data_dir())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}

/// Descriptors of a process open on deleted files (the graph engine's unnamed spool
/// files), Linux `/proc`.
fn deleted_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|entries| {
            entries
                .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .filter(|target| target.to_string_lossy().ends_with("(deleted)"))
                .count()
        })
        .unwrap_or(0)
}

/// Issue 52, hole 7 (suspected, confirmed): a read of a GRAPH dataset's content spools the
/// whole document to a temporary file before its first byte goes out; twelve readers
/// that asked and then read slowly held twelve copies of the graph on the temporary disk
/// (one per connection, up to `max_connections`). Now at most
/// `GRAPH_EXPORTS` (4) are prepared at once; the others wait for a turn, and are served
/// once a turn ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_reads_spool_at_most_four_documents_at_once() {
    let site = Site::new();
    let server = site.start();
    let (m, contents) = manifest(
        "spool",
        "main",
        Options {
            yes: true,
            ..Options::default()
        },
        None,
        &[Dataset::new(
            "big",
            "GRAPH",
            vec![File::new("big.ttl", turtle(60_000))],
        )],
    );
    server.push(&m, &contents).await;
    let address = server.base.trim_start_matches("http://").to_owned();
    let baseline = deleted_files(server.pid());
    // Twelve readers ask for the N-Triples document and read nothing yet.
    let mut readers: Vec<TcpStream> = (0..12)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).unwrap();
            stream
                .write_all(
                    b"GET /v1/namespaces/spool/datasets/big/content HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/n-triples\r\nConnection: close\r\n\r\n",
                )
                .unwrap();
            stream
        })
        .collect();
    let mut most = 0;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        most = most.max(deleted_files(server.pid()).saturating_sub(baseline));
    }
    assert!(most >= 1, "the readers' documents were spooled");
    assert!(
        most <= 4,
        "{most} graph documents spooled at once for 12 readers"
    );
    // Every reader is served in the end, once the first ones read their answers.
    let reads: Vec<_> = readers
        .drain(..)
        .map(|mut stream| {
            std::thread::spawn(move || {
                stream
                    .set_read_timeout(Some(Duration::from_secs(60)))
                    .unwrap();
                let mut answer = Vec::new();
                let _ = stream.read_to_end(&mut answer);
                answer
            })
        })
        .collect();
    for read in reads {
        let answer = read.join().unwrap();
        assert!(
            answer.starts_with(b"HTTP/1.1 200") && answer.len() > 1_000_000,
            "{}",
            String::from_utf8_lossy(&answer[..answer.len().min(300)])
        );
    }
}
