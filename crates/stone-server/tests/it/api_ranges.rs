//! HTTP reads that big-data readers expect (issue 25, part 2), on the real binary: byte
//! ranges of a table's Parquet answer and of object content (single, open, suffix),
//! `If-Range` (match: the part; another ETag: the whole), `HEAD` with the size, 416, an
//! `ETag` that changes with a new push, ranges of a private dataset need the token, and
//! DuckDB reading a pushed table over HTTP: its `count(*)` fetches a small part of the
//! file (counted by the server: the `content sent` lines of its log).

use std::process::Command;
use std::sync::Arc;

use arrow_array::{Int64Array, StringArray};
use reqwest::StatusCode;
use serde_json::json;

use crate::api_oidc::oidc_site_with_token;
use crate::api_read::{Read, read};
use crate::api_support::{Dataset, File, Options, Server, Site, client, manifest, noise};
use crate::support::{batch, python, write_parquet};

async fn head(server: &Server, path: &str, headers: &[(&str, &str)]) -> Read {
    let mut request = client().head(server.url(path));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    Read {
        status: response.status(),
        headers: response.headers().clone(),
        body: response.bytes().await.unwrap().to_vec(),
    }
}

/// A table of `rows` rows: an int64 `id` and a 40-character `label` that does not compress,
/// in row groups of `per_group` rows.
fn labelled_parquet(rows: i64, per_group: usize) -> Vec<u8> {
    let noise = noise(rows as u64, rows as usize * 20);
    let labels: Vec<String> = noise.chunks(20).map(hex::encode).collect();
    let batch = batch(vec![
        (
            "id",
            Arc::new(Int64Array::from((0..rows).collect::<Vec<_>>())) as _,
            true,
        ),
        ("label", Arc::new(StringArray::from(labels)) as _, true),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    write_parquet(&path, &batch, per_group);
    std::fs::read(path).unwrap()
}

fn tabular(name: &str, bytes: Vec<u8>) -> Dataset {
    Dataset::new(
        name,
        "TABULAR",
        vec![File::new(&format!("{name}.parquet"), bytes)],
    )
}

/// Checks the range rules on one content URL whose whole body is `whole`.
async fn check_ranges(server: &Server, url: &str, whole: &[u8], token: &[(&str, &str)]) {
    let size = whole.len();
    let etag = read(server, url, token).await.header("etag").to_owned();
    // The request's headers: the token's (if any) and `extra`.
    let get = |extra: Vec<(&'static str, String)>| async move {
        let mut headers: Vec<(&str, &str)> = token.to_vec();
        headers.extend(extra.iter().map(|(n, v)| (*n, v.as_str())));
        read(server, url, &headers).await
    };
    let with = |extra: &[(&'static str, String)]| extra.to_vec();

    // HEAD: the size, the ETag, ranges accepted, no body.
    let headed = head(server, url, token).await;
    assert_eq!(headed.status, 200);
    assert_eq!(headed.header("content-length"), size.to_string());
    assert_eq!(headed.header("accept-ranges"), "bytes");
    assert_eq!(headed.header("etag"), etag);
    assert!(headed.body.is_empty());

    // One range, an open range, a suffix: 206 with Content-Range.
    let part = get(with(&[("range", "bytes=0-99".into())])).await;
    assert_eq!(part.status, StatusCode::PARTIAL_CONTENT, "{}", part.text());
    assert_eq!(part.body, &whole[..100]);
    assert_eq!(part.header("content-range"), format!("bytes 0-99/{size}"));
    assert_eq!(part.header("etag"), etag);
    let open = get(with(&[("range", format!("bytes={}-", size - 10))])).await;
    assert_eq!(open.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(open.body, &whole[size - 10..]);
    let suffix = get(with(&[("range", "bytes=-8".into())])).await;
    assert_eq!(suffix.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(suffix.body, &whole[size - 8..]);
    assert_eq!(
        suffix.header("content-range"),
        format!("bytes {}-{}/{size}", size - 8, size - 1)
    );

    // If-Range with the current ETag: the part; with another: the whole content.
    let current = get(with(&[
        ("range", "bytes=10-19".into()),
        ("if-range", etag.clone()),
    ]))
    .await;
    assert_eq!(current.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(current.body, &whole[10..20]);
    let stale = get(with(&[
        ("range", "bytes=10-19".into()),
        ("if-range", "\"another\"".into()),
    ]))
    .await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.body, whole);

    // Past the end: 416 with the size.
    let past = get(with(&[("range", format!("bytes={size}-"))])).await;
    assert_eq!(past.status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(past.header("content-range"), format!("bytes */{size}"));
    assert_eq!(past.json()["code"], "request.range_not_satisfiable");
    assert_eq!(past.json()["size"], size);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parquet_and_object_content_answer_ranges_head_and_if_range() {
    let site = Site::new();
    let server = site.start();
    let blob = noise(3, 50_000);
    let (m, contents) = manifest(
        "ranges",
        "main",
        Options::default(),
        None,
        &[
            // Two row groups, so that the table is more than its footer.
            tabular("numbers", labelled_parquet(4_000, 2_000)),
            Dataset::new(
                "blob",
                "BLOB",
                vec![File::new("readings.bin", blob.clone())],
            ),
        ],
    );
    server.push(&m, &contents).await;

    // Object content: the stored bytes.
    let blob_url = "/v1/namespaces/ranges/datasets/blob/content";
    check_ranges(&server, blob_url, &blob, &[]).await;

    // The table's Parquet answer: one stable byte sequence per snapshot.
    let table_url = "/v1/namespaces/ranges/datasets/numbers/content?format=parquet";
    let whole = read(&server, table_url, &[]).await;
    assert_eq!(whole.status, 200, "{}", whole.text());
    assert!(whole.body.ends_with(b"PAR1"));
    let again = read(&server, table_url, &[]).await;
    assert_eq!(
        again.body, whole.body,
        "the same snapshot is the same bytes"
    );
    check_ranges(&server, table_url, &whole.body, &[]).await;
    // Written again (evicted, or by a replica with its own cache): the same bytes, the
    // same ETag, so a reader's If-Range still matches.
    std::fs::remove_dir_all(server.data_dir.join("cache/content")).unwrap();
    let rewritten = read(
        &server,
        table_url,
        &[("range", "bytes=0-99"), ("if-range", whole.header("etag"))],
    )
    .await;
    assert_eq!(rewritten.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(rewritten.header("etag"), whole.header("etag"));
    assert_eq!(rewritten.body, &whole.body[..100]);
    // The IRI form answers the same ranges.
    let iri = read(
        &server,
        "/ranges/numbers?format=parquet",
        &[("range", "bytes=-4")],
    )
    .await;
    assert_eq!(iri.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(iri.body, b"PAR1");
    let iri_head = head(&server, "/ranges/numbers?format=parquet", &[]).await;
    assert_eq!(
        iri_head.header("content-length"),
        whole.body.len().to_string()
    );

    // A new push: a new snapshot, a new ETag; a reader's If-Range of the old one gets the
    // whole new file, not a splice.
    let old_etag = whole.header("etag").to_owned();
    let (m, contents) = manifest(
        "ranges",
        "main",
        Options::default(),
        None,
        &[tabular("numbers", labelled_parquet(10, 10))],
    );
    server.push(&m, &contents).await;
    let newer = read(&server, table_url, &[]).await;
    assert_ne!(newer.header("etag"), old_etag);
    assert_ne!(
        newer.header("stone-snapshot-id"),
        whole.header("stone-snapshot-id")
    );
    let stale = read(
        &server,
        table_url,
        &[("range", "bytes=0-9"), ("if-range", &old_etag)],
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK);
    assert_eq!(stale.body, newer.body);
    // CSV is streamed and says it takes no ranges.
    let csv = read(
        &server,
        "/v1/namespaces/ranges/datasets/numbers/content",
        &[("range", "bytes=0-3")],
    )
    .await;
    assert_eq!(csv.status, 200);
    assert_eq!(csv.header("accept-ranges"), "none");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranges_of_a_private_dataset_need_the_token() {
    let (_site, server, token) = oidc_site_with_token("alice");
    let (mut m, contents) = manifest(
        "hidden",
        "dev",
        Options::default(),
        None,
        &[tabular("numbers", labelled_parquet(1_000, 500))],
    );
    m["package"]["public"] = json!(false);
    server.push_as(Some(&token), &m, &contents).await;

    let url = "/v1/namespaces/hidden/datasets/numbers/content?branch=dev&format=parquet";
    let anonymous = read(&server, url, &[("range", "bytes=-8")]).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text());
    assert!(!anonymous.text().contains("PAR1"));
    let anonymous_head = head(&server, url, &[]).await;
    assert_eq!(anonymous_head.status, 401);
    assert!(anonymous_head.header("content-length") != "0" || anonymous_head.body.is_empty());

    let bearer = format!("Bearer {token}");
    let whole = read(&server, url, &[("authorization", &bearer)]).await;
    assert_eq!(whole.status, 200, "{}", whole.text());
    check_ranges(&server, url, &whole.body, &[("authorization", &bearer)]).await;
}

/// The bytes the server logged as sent (`content sent … bytes=N`).
fn bytes_sent(log: &str) -> u64 {
    log.lines()
        .filter(|line| line.contains("content sent"))
        .filter_map(|line| {
            let at = line.find("bytes=")?;
            line[at + 6..]
                .split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duckdb_counts_a_table_over_http_reading_a_small_part_of_it() {
    let site = Site::new();
    let server = site.start();
    // ~6 MB of Parquet in 20 row groups.
    let rows = 200_000;
    let (m, contents) = manifest(
        "bench",
        "main",
        Options::default(),
        None,
        &[tabular("events", labelled_parquet(rows, 10_000))],
    );
    server.push(&m, &contents).await;
    let url = server.url("/v1/namespaces/bench/datasets/events/content?format=parquet");
    // Materialise once and learn the size (HEAD, as DuckDB does first).
    let size: u64 = head(
        &server,
        "/v1/namespaces/bench/datasets/events/content?format=parquet",
        &[],
    )
    .await
    .header("content-length")
    .parse()
    .unwrap();
    assert!(size > 4_000_000, "the file is big enough to tell: {size}");
    let before = bytes_sent(&server.log());

    let script = r#"
import sys, duckdb
con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute(f"LOAD '{sys.argv[1]}'")
print(con.execute(f"SELECT count(*) FROM read_parquet('{sys.argv[2]}')").fetchone()[0])
"#;
    let httpfs = stone_test::tools::duckdb_extension("httpfs");
    let output = Command::new(python())
        .arg("-c")
        .arg(script)
        .arg(&httpfs)
        .arg(&url)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run duckdb");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "duckdb failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(stdout.trim(), rows.to_string());
    let sent = bytes_sent(&server.log()) - before;
    assert!(sent > 0, "DuckDB read the footer over HTTP");
    assert!(
        sent * 20 < size,
        "count(*) fetched {sent} of {size} bytes (more than 5 %)\n{}",
        server.log()
    );
}

/// The cache folders of `data` (`<data>/cache/content/*`), by the table their `.table`
/// marker names (`namespace.name`), with the files each holds besides the marker.
///
/// The server's sweep runs while this reads: a folder it removed between the listing and
/// the read is left out, and one it is removing (its marker already gone, or a read still
/// writing it) is listed under `?<folder name>`, so that a check waiting for a folder to go
/// waits until all of it has gone.
fn cache_folders(data: &std::path::Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut folders = std::collections::BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(data.join("cache/content")) else {
        return folders;
    };
    for entry in entries.flatten() {
        let Ok(listing) = std::fs::read_dir(entry.path()) else {
            continue; // removed since the listing
        };
        let mut files: Vec<String> = listing
            .flatten()
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .filter(|name| name != ".table")
            .collect();
        files.sort();
        let key = match std::fs::read(entry.path().join(".table")) {
            Ok(bytes) => {
                let marker: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                format!(
                    "{}.{}",
                    marker["namespace"].as_str().unwrap(),
                    marker["name"].as_str().unwrap()
                )
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                format!("?{}", entry.file_name().to_string_lossy())
            }
            Err(error) => panic!("{}: {error}", entry.path().display()),
        };
        folders.insert(key, files);
    }
    folders
}

/// The cache of Parquet answers follows what can still be read (issue 25): the sweep
/// (`[gc] interval_seconds`) removes the folder of a deleted table (its rows do not stay
/// on the server's disk) and a spool an interrupted write left an hour ago, keeps a
/// table that still exists, and holds the cache to `[gc] content_cache_bytes`; a file
/// swept is written again on the next read, with the same bytes and `ETag`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_content_cache_forgets_deleted_tables_and_keeps_to_its_budget() {
    let site = Site::with_config("[gc]\ninterval_seconds = 1\n");
    let server = site.start();
    let (m, contents) = manifest(
        "cache",
        "dev",
        Options::default(),
        None,
        &[
            tabular("kept", labelled_parquet(1_000, 500)),
            tabular("dropped", labelled_parquet(2_000, 500)),
        ],
    );
    server.push(&m, &contents).await;
    for table in ["kept", "dropped"] {
        let url =
            format!("/v1/namespaces/cache/datasets/{table}/content?branch=dev&format=parquet");
        assert_eq!(read(&server, &url, &[]).await.status, 200);
    }
    let folders = cache_folders(&server.data_dir);
    assert_eq!(
        folders.keys().collect::<Vec<_>>(),
        ["cache.dropped", "cache.kept"],
        "{folders:?}"
    );
    // A spool left by a write that died an hour ago.
    let kept_dir = std::fs::read_dir(server.data_dir.join("cache/content"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|dir| {
            std::fs::read_to_string(dir.join(".table"))
                .unwrap()
                .contains("\"kept\"")
        })
        .unwrap();
    let spool = kept_dir.join(".writing-left");
    let file = std::fs::File::create(&spool).unwrap();
    file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(7200))
        .unwrap();
    drop(file);

    // `dropped` leaves the package: replace deletes it.
    let (m, contents) = manifest(
        "cache",
        "dev",
        Options {
            replace: true,
            ..Options::default()
        },
        None,
        &[tabular("kept", labelled_parquet(1_000, 500))],
    );
    server.push(&m, &contents).await;
    crate::gc::eventually(
        "the deleted table's cached files removed",
        &server,
        async || {
            let folders = cache_folders(&server.data_dir);
            folders.keys().eq(["cache.kept"]) && !spool.exists()
        },
    )
    .await;
    let folders = cache_folders(&server.data_dir);
    assert_eq!(
        folders["cache.kept"].len(),
        1,
        "the table that exists keeps its file: {folders:?}"
    );
    assert!(server.log().contains("content cache: the table is gone"));

    // A budget smaller than one file: the sweep empties the cache; a read writes it again.
    let small = Site::with_config("[gc]\ninterval_seconds = 1\ncontent_cache_bytes = 1\n");
    let server = small.start();
    let (url, first) = push_and_read_table(&server, "kept", 1_000).await;
    let url = url.as_str();
    crate::gc::eventually("the cache kept to its budget", &server, async || {
        cache_folders(&server.data_dir)
            .values()
            .all(|files| files.is_empty())
    })
    .await;
    let again = read(&server, url, &[]).await;
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("etag"), first.header("etag"));
}

/// Pushes the table `name` of `rows` rows to the namespace `cache` (main) and reads its
/// Parquet answer once, which caches it: the answer's path and that read.
async fn push_and_read_table(server: &Server, name: &str, rows: i64) -> (String, Read) {
    let (m, contents) = manifest(
        "cache",
        "main",
        Options::default(),
        None,
        &[tabular(name, labelled_parquet(rows, 500))],
    );
    server.push(&m, &contents).await;
    let url = format!("/v1/namespaces/cache/datasets/{name}/content?format=parquet");
    let first = read(server, &url, &[]).await;
    assert_eq!(first.status, 200);
    (url, first)
}

/// The sweep and the eviction may remove a cached Parquet answer at any moment: a read
/// that has found the file is served from it all the same (the server hands out the file
/// open, and an open file outlives its name). The test hook holds a read between finding
/// the file and sending it while the test removes every cached file, as a sweep over its
/// budget would; before, the read opened the path only then and answered 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cached_answer_removed_under_a_read_is_still_served() {
    let hooks = tempfile::tempdir().unwrap();
    let hook_dir = hooks.path().to_str().unwrap().to_owned();
    let site = Site::new();
    let server = tokio::task::block_in_place(|| {
        site.start_with_env(&[("STONE_SERVER_TEST_PAUSE_AT", hook_dir.as_str())])
    });
    let (url, first) = push_and_read_table(&server, "held", 3_000).await;
    let url = url.as_str();

    for range in [None, Some("bytes=100-")] {
        let pause = hooks.path().join("pause-table-file-found");
        let paused = hooks.path().join("paused-table-file-found");
        std::fs::write(&pause, "").unwrap();
        let held = {
            let server_url = server.url(url);
            tokio::spawn(async move {
                let mut request = client().get(server_url);
                if let Some(range) = range {
                    request = request.header("range", range);
                }
                let response = request.send().await.unwrap();
                (response.status(), response.bytes().await.unwrap().to_vec())
            })
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !paused.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "the read reached the hook within 30 s\n{}",
                server.log()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let mut removed = 0;
        for folder in std::fs::read_dir(server.data_dir.join("cache/content")).unwrap() {
            for file in std::fs::read_dir(folder.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                if path.extension().is_some_and(|e| e == "parquet") {
                    std::fs::remove_file(&path).unwrap();
                    removed += 1;
                }
            }
        }
        assert_eq!(removed, 1, "the read's file was cached");
        std::fs::remove_file(&pause).unwrap();
        let (status, body) = held.await.unwrap();
        let (expected_status, expected) = match range {
            None => (StatusCode::OK, &first.body[..]),
            Some(_) => (StatusCode::PARTIAL_CONTENT, &first.body[100..]),
        };
        assert_eq!(status, expected_status, "{}", server.log());
        assert!(
            body == expected,
            "the bytes of the file found: {} bytes served, {} expected",
            body.len(),
            expected.len()
        );
    }
    // Gone from the cache: the next read writes it again, with the same bytes.
    let again = read(&server, url, &[]).await;
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("etag"), first.header("etag"));
}
