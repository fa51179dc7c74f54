//! Issue 27, the server side of a folder of many files pushed in batches (`paged_files`):
//! an unchanged re-push of 200,000 files to a freshly started server is found unchanged
//! from the digest of its listing, without the commit reading the push's files back, the
//! head being rewritten or the server's memory growing with the folder; a new or changed
//! folder is committed page by page, its files never all in the server's memory.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::api_support::{Answer, Contents, Server, Site, client, send_batch};

const FILES: usize = 200_000;
/// Distinct contents (the test is about files, not uploads).
const DISTINCT: usize = 100;
const BATCH: usize = 10_000;
/// The server's peak RSS (VmHWM) during an unchanged re-push of the folder, from its
/// start. Before the listing digest, the commit read the 200,000 files back twice (the
/// commit's route and its job), the whole head, and merged 200,000 contents into the
/// state database: 648–702 MB measured (debug build).
const REPUSH_BUDGET: u64 = 300 << 20;

/// The server's peak RSS (VmHWM) from its start through the first push of the folder
/// (200,000 files created), and again from a fresh start through a push that changes one
/// of them. Before the commit went page by page (`million` branch), the commit's route and
/// job read the push's files back whole, the job built the put and the head of 200,000
/// files several times over, and the state database's record of the head's contents was a
/// list of them: 288 MB through the first push with main's server (`03de7ad`, debug build),
/// 138 MB and 108 MB after (debug build, 2026-11-27).
const WRITE_BUDGET: u64 = 200 << 20;

/// The peak resident memory of a process so far, in bytes.
fn peak_rss(pid: u32) -> u64 {
    crate::support::hostile::memory_bytes(pid, "VmHWM")
}

fn content(i: usize) -> Vec<u8> {
    format!("scan {:04} {}\n", i % DISTINCT, "x".repeat(100)).into_bytes()
}

use stone_package::digest::sha256_hex as sha256;

/// A paged push of the folder `scans` (files `d{i/1000}/f{i}.txt`, one changed content
/// when `changed`), uploads included, committed and waited for: the dataset's status.
async fn push_folder(server: &Server, changed: Option<usize>) -> Value {
    let mut contents = Contents::new();
    let digests: Vec<String> = (0..DISTINCT)
        .map(|i| {
            let bytes = content(i);
            let digest = sha256(&bytes);
            contents.insert(digest.clone(), bytes);
            digest
        })
        .collect();
    let other = b"a changed scan\n".to_vec();
    let other_digest = sha256(&other);
    contents.insert(other_digest.clone(), other.clone());
    let created = Answer::of(
        client()
            .post(server.url("/v1/pushes"))
            .json(&json!({
                "namespace": "big", "branch": "dev",
                "options": {"yes": false, "force": false, "replace": false, "manual": true},
                "package": {"public": false},
                "datasets": [{"name": "scans", "kind": "BLOB", "files": []}],
                "paged_files": true,
            }))
            .send()
            .await
            .unwrap(),
    )
    .await
    .expect(201)
    .body;
    let id = created["push_id"].as_str().unwrap().to_owned();
    for at in (0..FILES).step_by(BATCH) {
        let files: Vec<Value> = (at..at + BATCH)
            .map(|i| {
                let (sha256, size) = match changed {
                    Some(c) if c == i => (other_digest.clone(), other.len()),
                    _ => (digests[i % DISTINCT].clone(), content(i).len()),
                };
                json!({"path": format!("d{:03}/f{i:06}.txt", i / 1000), "sha256": sha256, "size": size})
            })
            .collect();
        send_batch(server, &id, "scans", files, &contents).await;
    }
    server.commit(&id).await.expect(202);
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        let status = server.status(&id).await;
        if matches!(status["state"].as_str(), Some("succeeded" | "failed")) {
            assert_eq!(status["state"], "succeeded", "{status:#}\n{}", server.log());
            return status["datasets"][0].clone();
        }
        assert!(Instant::now() < deadline, "{status:#}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_paged_folder_of_200k_files_is_committed_without_reading_it_back() {
    let site = Site::with_config("[limits]\nmax_contents = 1000000\n");
    let head = site.data_dir().join("blobs/big/scans/dev/head.json");
    let server = site.start();
    let first = push_folder(&server, None).await;
    assert_eq!(first["status"], "created", "{first:#}");
    assert_eq!(first["detail"]["files"], FILES as u64, "{first:#}");
    drop(server);
    let written = std::fs::metadata(&head).unwrap().modified().unwrap();

    // A fresh server: its peak memory is the re-push's.
    let server = site.start();
    let again = push_folder(&server, None).await;
    assert_eq!(again["status"], "unchanged", "{again:#}");
    assert_eq!(again["detail"]["files"], FILES as u64, "{again:#}");
    let peak = peak_rss(server.pid());
    assert!(
        peak < REPUSH_BUDGET,
        "server peak RSS {} MB during an unchanged re-push of {FILES} files (budget {} MB)",
        peak >> 20,
        REPUSH_BUDGET >> 20
    );
    assert_eq!(
        std::fs::metadata(&head).unwrap().modified().unwrap(),
        written,
        "the head was not rewritten"
    );
    assert!(
        server
            .log()
            .contains("listings unchanged: nothing to write for them"),
        "{}",
        server.log()
    );

    // One file changes: the folder is written again, the head lists the new content.
    let changed = push_folder(&server, Some(123_456)).await;
    assert_eq!(changed["status"], "appended", "{changed:#}");
    let listed: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    let entry = listed["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "d123/f123456.txt")
        .cloned()
        .unwrap();
    assert_eq!(entry["sha256"], sha256(b"a changed scan\n"));
    assert_eq!(listed["files"].as_array().unwrap().len(), FILES);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_or_changed_paged_folder_of_200k_files_is_committed_page_by_page() {
    let site = Site::with_config("[limits]\nmax_contents = 1000000\n");
    let head = site.data_dir().join("blobs/big/scans/dev/head.json");
    let server = site.start();
    let first = push_folder(&server, None).await;
    assert_eq!(first["status"], "created", "{first:#}");
    assert_eq!(first["detail"]["files"], FILES as u64, "{first:#}");
    let peak = peak_rss(server.pid());
    eprintln!("server peak RSS through the first push: {} MB", peak >> 20);
    assert!(
        peak < WRITE_BUDGET,
        "server peak RSS {} MB through the first push of {FILES} files (budget {} MB)",
        peak >> 20,
        WRITE_BUDGET >> 20
    );
    assert!(
        server.log().contains("paged put: head moved"),
        "the folder was not written page by page:\n{}",
        server.log()
    );
    drop(server);

    // A fresh server: one file changes, the folder is written again.
    let server = site.start();
    let changed = push_folder(&server, Some(7)).await;
    assert_eq!(changed["status"], "appended", "{changed:#}");
    assert_eq!(changed["detail"]["files"], FILES as u64, "{changed:#}");
    let peak = peak_rss(server.pid());
    eprintln!("server peak RSS through a changed push: {} MB", peak >> 20);
    assert!(
        peak < WRITE_BUDGET,
        "server peak RSS {} MB through a push that changes one of {FILES} files (budget {} MB)",
        peak >> 20,
        WRITE_BUDGET >> 20
    );
    // The head lists every file once, in path order, the changed one with its new
    // content, under the digest of its listing.
    let listed: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    let files = listed["files"].as_array().unwrap();
    assert_eq!(files.len(), FILES);
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(paths.windows(2).all(|w| w[0] < w[1]), "sorted, distinct");
    assert_eq!(files[7]["path"], "d000/f000007.txt");
    assert_eq!(files[7]["sha256"], sha256(b"a changed scan\n"));
    assert_eq!(files[8]["sha256"], sha256(&content(8)));
    let mut digest = String::new();
    for f in files {
        digest.push_str(&format!(
            "{}\0{}\0{}\n",
            f["path"].as_str().unwrap(),
            f["sha256"].as_str().unwrap(),
            f["size"]
        ));
    }
    assert_eq!(listed["listing"], sha256(digest.as_bytes()));
    // Every file is readable from the branch, the changed one as changed.
    let read = client()
        .get(
            server
                .url("/v1/namespaces/big/datasets/scans/content?branch=dev&path=d000/f000007.txt"),
        )
        .send()
        .await
        .unwrap();
    let status = read.status();
    let body = read.bytes().await.unwrap();
    assert_eq!(
        (status.as_u16(), body.as_ref()),
        (200, b"a changed scan\n".as_ref()),
        "{}",
        server.log()
    );

    // The same push again: unchanged, nothing rewritten.
    let written = std::fs::metadata(&head).unwrap().modified().unwrap();
    let again = push_folder(&server, Some(7)).await;
    assert_eq!(again["status"], "unchanged", "{again:#}");
    assert_eq!(
        std::fs::metadata(&head).unwrap().modified().unwrap(),
        written
    );
}
