//! The hostile campaign of issue 28: one real `stone-server` (embedded engines, small
//! bounds in its configuration) takes, for a few rounds and at the same time, normal pushes
//! (a table, a graph and a blob of unique content each round, one round resumed after its
//! upload connection dropped) and the hostile requests of issues 22 and 28, repeated:
//! amplification manifests, a declared size of 2^63, a Parquet schema nested 20,000 deep,
//! a "Parquet" file that is an unclosed-quote CSV with a 1 MiB record, half request heads
//! and idle connections past `max_connections`, a stalled upload body, a runaway SPARQL
//! query, a blank-node clique, a commit naming a content nobody uploaded, and a part
//! uploaded after its upload was completed.
//!
//! It holds: the server process is the same one from start to end (never restarted, never
//! dead); its peak resident memory (`VmHWM`) stays under [`MEMORY_CEILING`]; every hostile
//! request gets its documented status and code (no 500, no hang: the client's 120 s
//! timeout fails a hang); every normal push succeeds and its data is there exactly once
//! (Iceberg rows read by pyiceberg, triples counted by SPARQL through the server, blob
//! bytes read through the content route); and `/v1/info` answers afterwards.
//!
//! The cross-caller rule of staging reuse (another caller's hash) needs two identities,
//! `oidc` mode: `hostile_tenant_staging` holds it; here (local mode, one caller) the
//! campaign checks its other half, that a commit never takes a content without its upload.

use std::io::Write;
use std::net::TcpStream;

use serde_json::{Value, json};
use stone_test::fixture::nested_parquet;

use crate::api_support::{
    Answer, Dataset, File, Options, Server, Site, client, manifest, noise, people_parquet,
    pyiceberg, sparql_count, upload_all,
};
use crate::hostile_work::sparql;
use crate::support::hostile::{
    blank_node_clique, blob_manifest, cross_product, memory_bytes, stalled_upload, start_upload,
};

/// Rounds of the campaign.
const ROUNDS: usize = 3;
/// Rows of the table each round appends.
const ROWS: i64 = 50;
/// Triples of the graph each round appends.
const TRIPLES: usize = 40;
/// The part size of this server: contents above it are uploaded in parts.
const PART: usize = 64 * 1024;
/// Open connections the server serves at once; the campaign opens many more.
const MAX_CONNECTIONS: usize = 32;
/// Idle connections (and one half request head) held open in each round.
const IDLE: usize = 100;
/// The peak resident memory the server may reach during the campaign. Measured on a
/// loaded 2-core machine: 100 MiB; the ceiling leaves almost four times that.
const MEMORY_CEILING: u64 = 384 << 20;

const NS: &str = "campaign";
const HOSTILE: &str = "hostile";

fn config() -> String {
    format!(
        "[staging]\npart_size = {PART}\n\
         [server]\nmax_connections = {MAX_CONNECTIONS}\nheader_read_timeout_seconds = 2\n\
         body_read_timeout_seconds = 2\n\
         [sparql]\ntimeout_seconds = 2\nmax_rows = 100000000000\nmax_result_bytes = 1000000000000\n\
         [limits]\nmax_file_size = 100000000\nmax_push_bytes = 200000000\nmax_datasets = 20\n\
         max_contents = 20\nmax_part_urls = 100\n"
    )
}

/// The ids of round `round`'s rows.
fn ids(round: usize) -> Vec<i64> {
    let first = round as i64 * ROWS;
    (first..first + ROWS).collect()
}

/// N-Triples of round `round`: `TRIPLES` triples no other round has.
fn triples(round: usize) -> Vec<u8> {
    (0..TRIPLES)
        .map(|i| {
            format!("<http://example.org/r{round}/s{i}> <http://example.org/p> \"{round}-{i}\" .\n")
        })
        .collect::<String>()
        .into_bytes()
}

/// Round `round`'s normal push: the table `people` and the graph `vocab` appended, the blob
/// `blob{round}` created.
fn normal_push(round: usize) -> (Value, crate::api_support::Contents) {
    manifest(
        NS,
        "dev",
        Options::default(),
        None,
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new(
                    &format!("people-{round}.parquet"),
                    people_parquet(&ids(round)),
                )],
            ),
            Dataset::new(
                "vocab",
                "GRAPH",
                vec![File::new(&format!("vocab-{round}.nt"), triples(round))],
            ),
            Dataset::new(
                &format!("blob{round}"),
                "BLOB",
                vec![File::new("data.bin", noise(1000 + round as u64, 20_000))],
            ),
        ],
    )
}

/// The normal lane: one push per round, each to `succeeded`. Odd rounds lose their first
/// upload's connection half way through its body, then resume as the client does (the
/// manifest posted again with the push's id, the missing uploads sent).
async fn normal_lane(server: &Server) {
    for round in 0..ROUNDS {
        let (mut m, contents) = normal_push(round);
        if round % 2 == 0 {
            server.push(&m, &contents).await;
            continue;
        }
        let created = server.create_push(&m).await.expect(201).body;
        let upload = created["uploads"][0].clone();
        let body = contents[upload["sha256"].as_str().unwrap()].clone();
        // Half of the body, then the connection closes.
        tokio::task::spawn_blocking(move || drop(start_upload(&upload, &body, body.len() / 2)))
            .await
            .unwrap();
        m["push_id"] = created["push_id"].clone();
        let resumed = server.create_push(&m).await.expect(200).body;
        assert_eq!(
            resumed["uploads"].as_array().map(Vec::len),
            created["uploads"].as_array().map(Vec::len),
            "the dropped upload is asked for again: {resumed:#}"
        );
        upload_all(server, &resumed, &contents).await;
        let id = created["push_id"].as_str().unwrap();
        server.commit(id).await.expect(202);
        let status = server.wait(id).await;
        assert_eq!(status["state"], "succeeded", "{status:#}");
    }
}

/// Pushes `datasets` to the hostile namespace and waits for the end; returns the status.
async fn hostile_push(server: &Server, datasets: &[Dataset]) -> Value {
    let (m, contents) = manifest(HOSTILE, "dev", Options::default(), None, datasets);
    let created = server.create_push(&m).await.expect(201);
    upload_all(server, &created.body, &contents).await;
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    server.commit(&id).await.expect(202);
    server.wait(&id).await
}

/// Asserts a problem answer's status and code.
fn assert_problem(answer: &Answer, status: u16, code: &str, what: &str) {
    assert_eq!(
        (answer.status.as_u16(), answer.body["code"].as_str()),
        (status, Some(code)),
        "{what}: {:#}",
        answer.body
    );
}

/// The hostile lane: every hostile case once per round.
async fn hostile_lane(server: &Server) {
    let address = server.base.trim_start_matches("http://").to_owned();
    for round in 0..ROUNDS {
        // Idle connections past the limit, and half a request head, held for the round.
        let mut half = TcpStream::connect(&address).unwrap();
        half.write_all(b"GET /v1/info HTTP/1.1\r\nHost: data.test\r\n")
            .unwrap();
        let idle: Vec<TcpStream> = (0..IDLE)
            .map(|_| TcpStream::connect(&address).unwrap())
            .collect();

        // Amplification: a declared size of 2^63, too many datasets and contents.
        let answer = server
            .create_push(&blob_manifest(HOSTILE, 1, 1 << 63))
            .await;
        assert_problem(&answer, 400, "manifest.invalid_size", "a size of 2^63");
        let answer = server
            .create_push(&blob_manifest(HOSTILE, 1, 1 << 40))
            .await;
        assert_problem(&answer, 400, "manifest.invalid_size", "a size of 1 TiB");
        let answer = server.create_push(&blob_manifest(HOSTILE, 21, 1)).await;
        assert_problem(&answer, 413, "push.too_large", "21 datasets");

        // A runaway SPARQL query: stopped at the timeout.
        let (status, body) = sparql(server, &cross_product(1000)).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (503, Some("sparql.timeout")),
            "{body}"
        );

        // A stalled upload body: 408.
        let bytes = noise(round as u64, 10_000);
        let (m, _) = manifest(
            HOSTILE,
            "dev",
            Options::default(),
            None,
            &[Dataset::new(
                &format!("stalled{round}"),
                "BLOB",
                vec![File::new("f.bin", bytes.clone())],
            )],
        );
        let created = server.create_push(&m).await.expect(201).body;
        let upload = created["uploads"][0].clone();
        let answer = tokio::task::spawn_blocking(move || stalled_upload(&upload, &bytes, 1000))
            .await
            .unwrap();
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("\"code\":\"request.timeout\""), "{answer}");

        // A commit naming a content nobody uploaded: 409, nothing committed.
        let id = created["push_id"].as_str().unwrap();
        let answer = server.commit(id).await;
        assert_problem(
            &answer,
            409,
            "push.incomplete",
            "a commit without its upload",
        );

        // A part sent after its upload was completed: refused.
        late_part(server, round).await;

        // A Parquet schema nested 20,000 deep, and a "Parquet" file that is an
        // unclosed-quote CSV with a 1 MiB record: the datasets fail, the server lives on.
        let mut csv = b"id,name\n1,\"never closed\n".to_vec();
        csv.extend(std::iter::repeat_n(b'x', 1 << 20));
        let status = hostile_push(
            server,
            &[
                Dataset::new(
                    &format!("deep{round}"),
                    "TABULAR",
                    vec![File::new("deep.parquet", nested_parquet(20_000))],
                ),
                Dataset::new(
                    &format!("csv{round}"),
                    "TABULAR",
                    vec![File::new("t.parquet", csv)],
                ),
            ],
        )
        .await;
        assert_eq!(status["state"], "failed", "{status:#}");
        let code = |name: &str| {
            status["datasets"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["name"] == name)
                .map(|d| d["error"]["code"].clone())
        };
        assert_eq!(
            code(&format!("deep{round}")),
            Some(json!("dataset.limit_exceeded")),
            "{status:#}"
        );
        assert_eq!(
            code(&format!("csv{round}")),
            Some(json!("tabular.invalid_file")),
            "{status:#}"
        );

        // A blank-node clique: committed within bounds.
        let status = hostile_push(
            server,
            &[Dataset::new(
                &format!("clique{round}"),
                "GRAPH",
                vec![File::new("clique.nt", blank_node_clique(16))],
            )],
        )
        .await;
        assert_eq!(status["state"], "succeeded", "{status:#}");

        drop(idle);
        drop(half);
    }
}

/// A multipart upload completed, then one of its parts sent again: 404
/// `staging.unknown_upload`.
async fn late_part(server: &Server, round: usize) {
    let bytes = noise(500 + round as u64, 3 * PART - 100);
    let file = File::new("big.bin", bytes.clone());
    let sha256 = file.sha256();
    let (m, _) = manifest(
        HOSTILE,
        "dev",
        Options::default(),
        None,
        &[Dataset::new(&format!("big{round}"), "BLOB", vec![file])],
    );
    let created = server.create_push(&m).await.expect(201).body;
    let id = created["push_id"].as_str().unwrap().to_owned();
    let parts = created["uploads"][0]["parts"].as_array().unwrap().clone();
    let http = client();
    let send = |part: &Value| {
        let (offset, size) = (
            part["offset"].as_u64().unwrap() as usize,
            part["size"].as_u64().unwrap() as usize,
        );
        http.put(part["url"].as_str().unwrap())
            .body(bytes[offset..offset + size].to_vec())
            .send()
    };
    for part in &parts {
        let answer = send(part).await.unwrap();
        assert!(answer.status().is_success(), "{}", answer.status());
    }
    server
        .post_empty(&format!("/v1/pushes/{id}/uploads/{sha256}/complete"))
        .await
        .expect(200);
    let late = Answer::of(send(&parts[0]).await.unwrap()).await;
    assert_problem(
        &late,
        404,
        "staging.unknown_upload",
        "a part after completion",
    );
}

/// The triples of a named graph, counted by SPARQL through the server.
async fn triples_in(server: &Server, graph: &str) -> u64 {
    let (status, body) = sparql(
        server,
        &format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    sparql_count(&body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_survives_a_hostile_campaign_and_every_normal_push_lands_once() {
    let site = Site::with_config(&config());
    let server = site.start();
    let pid = server.pid();

    tokio::join!(normal_lane(&server), hostile_lane(&server));

    // The same process, alive.
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = state
        .rsplit_once(')')
        .map(|(_, rest)| rest.trim_start().chars().next());
    assert!(
        matches!(state, Some(Some(c)) if c != 'Z'),
        "the server process {pid} is gone: {state:?}\n{}",
        server.log()
    );
    assert_eq!(server.pid(), pid);
    server.get("/v1/info").await.expect(200);

    // Its peak memory over the whole campaign.
    let peak = memory_bytes(pid, "VmHWM");
    eprintln!("peak resident memory of the server: {} MiB", peak >> 20);
    assert!(
        peak < MEMORY_CEILING,
        "the server peaked at {} MiB, over the campaign's ceiling of {} MiB",
        peak >> 20,
        MEMORY_CEILING >> 20
    );

    // Every normal push is there exactly once.
    let reading = pyiceberg(&server.data_dir, NS, "people");
    let mut rows = reading.ids("dev");
    rows.sort_unstable();
    let expected: Vec<i64> = (0..ROUNDS).flat_map(ids).collect();
    assert_eq!(rows, expected, "every round's rows, once");
    assert_eq!(
        triples_in(&server, &format!("https://data.test/{NS}/vocab/branch/dev")).await,
        (ROUNDS * TRIPLES) as u64,
        "every round's triples, once"
    );
    for round in 0..ROUNDS {
        let read = client()
            .get(server.url(&format!(
                "/v1/namespaces/{NS}/datasets/blob{round}/content?branch=dev"
            )))
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), 200, "blob{round}");
        assert!(
            read.bytes().await.unwrap() == noise(1000 + round as u64, 20_000),
            "blob{round} holds its bytes"
        );
    }
}
