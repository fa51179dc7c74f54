//! Issue 28, "Integrity and bounded input", on the real server (local mode):
//!
//! - stored bytes always equal their sha256: a part upload still being written when
//!   `…/complete` runs never reaches the verified content, nor what a commit links;
//! - no amplification from a small request: declared sizes, datasets, contents and bytes
//!   per push are capped before anything is recorded, and a manifest alone prepares
//!   nothing on disk.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use futures::SinkExt;
use serde_json::Value;

use crate::api_support::{
    Dataset, File, Options, Server, Site, blob_files, client, manifest, noise, upload_all,
};
use crate::support::hostile::blob_manifest;

const NS: &str = "integrity";
/// The part size of these servers: contents above it are uploaded in parts.
const PART: usize = 64 * 1024;

fn server_with(config: &str) -> (Site, Server) {
    let site = Site::with_config(&format!("[staging]\npart_size = {PART}\n{config}"));
    let server = site.start();
    (site, server)
}

/// Files the server process has open whose path starts with `prefix` (`/proc/<pid>/fd`).
fn open_files_under(pid: u32, prefix: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| std::fs::read_link(entry.path()).ok())
        .filter(|target| target.starts_with(prefix))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_part_still_being_written_after_completion_never_reaches_the_verified_content() {
    let (_site, server) = server_with("");
    let bytes = noise(28, 3 * PART - 100);
    let file = File::new("big.bin", bytes.clone());
    let sha256 = file.sha256();
    let (m, contents) = manifest(
        NS,
        "dev",
        Options::default(),
        None,
        &[Dataset::new("big", "BLOB", vec![file])],
    );
    let created = server.create_push(&m).await.expect(201).body;
    let id = created["push_id"].as_str().unwrap().to_owned();
    let parts = created["uploads"][0]["parts"].as_array().unwrap().clone();
    assert_eq!(parts.len(), 3, "{created:#}");
    // Every part, the way the client sends them.
    let http = client();
    for part in &parts {
        let (offset, size) = (
            part["offset"].as_u64().unwrap() as usize,
            part["size"].as_u64().unwrap() as usize,
        );
        let answer = http
            .put(part["url"].as_str().unwrap())
            .body(bytes[offset..offset + size].to_vec())
            .send()
            .await
            .unwrap();
        assert!(answer.status().is_success(), "{}", answer.status());
    }

    // Part 1 sent again through its (still valid) URL with a slow body: the request is in,
    // the server holds the multipart assembly open for it, and no byte has come yet.
    let (mut sender, receiver) =
        futures::channel::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
    let slow = tokio::spawn(
        http.put(parts[0]["url"].as_str().unwrap())
            .body(reqwest::Body::wrap_stream(receiver))
            .send(),
    );
    let assemblies = server.data_dir.join("staging/parts");
    let assemblies = assemblies.canonicalize().unwrap_or(assemblies);
    while open_files_under(server.pid(), &assemblies).is_empty() {
        assert!(!slow.is_finished(), "the slow part upload ended early");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // Completion verifies the content while that part is still coming.
    let completed = server
        .post_empty(&format!("/v1/pushes/{id}/uploads/{sha256}/complete"))
        .await
        .expect(200);
    assert_eq!(completed.body["staged"], true, "{:#}", completed.body);

    // Then the slow part's body arrives: other bytes of the right length.
    let size = parts[0]["size"].as_u64().unwrap() as usize;
    sender
        .send(Ok(Bytes::from(vec![0xEE; size])))
        .await
        .unwrap();
    drop(sender);
    let late = slow.await.unwrap().unwrap();
    assert!(
        !late.status().is_success(),
        "a part of a completed upload is refused: HTTP {}",
        late.status()
    );

    // The verified content is what was verified...
    let staged = server.data_dir.join("staging/contents").join(&sha256);
    assert!(
        std::fs::read(&staged).unwrap() == bytes,
        "the staged content changed after it was verified"
    );
    // ... and so is what the commit links into the dataset, read back.
    server.commit(&id).await.expect(202);
    let status = server.wait(&id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&server.data_dir, NS, "big", "dev");
    assert!(
        objects.values().all(|object| *object == bytes),
        "the dataset holds other bytes than the verified ones"
    );
    let read = client()
        .get(server.url(&format!(
            "/v1/namespaces/{NS}/datasets/big/content?branch=dev"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), 200);
    assert!(
        read.bytes().await.unwrap() == bytes,
        "read back other bytes"
    );

    // A later push of the same file reuses the right bytes.
    let (again, _) = manifest(
        NS,
        "other",
        Options::default(),
        None,
        &[Dataset::new(
            "big",
            "BLOB",
            vec![File::new("big.bin", bytes.clone())],
        )],
    );
    let status = server.push(&again, &contents).await;
    assert_eq!(status["state"], "succeeded");
    let (_, objects) = blob_files(&server.data_dir, NS, "big", "other");
    assert!(objects.values().all(|object| *object == bytes));
}

/// The rows of the push state that a push leaves: pushes and their datasets.
pub(crate) async fn recorded_pushes(server: &Server) -> i64 {
    sqlx::any::install_default_drivers();
    let url = format!(
        "sqlite://{}?mode=ro",
        server.data_dir.join("state.db").display()
    );
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let count: i64 = sqlx::query_scalar(
        "SELECT (SELECT COUNT(*) FROM pushes) + (SELECT COUNT(*) FROM push_datasets)",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    pool.close().await;
    count
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declared_sizes_and_push_sizes_are_capped_before_anything_is_recorded() {
    let (_site, server) = server_with(
        "[limits]\nmax_file_size = 1000000\nmax_push_bytes = 2500000\nmax_datasets = 5\nmax_contents = 4\n",
    );

    // 2^63: more than any database integer; and more than the configured file size.
    for size in [1u64 << 63, u64::MAX, 1_000_001] {
        let answer = server
            .create_push(&blob_manifest(NS, 1, size))
            .await
            .expect(400);
        assert_eq!(answer.code(), "manifest.invalid_size", "{:#}", answer.body);
        assert_eq!(answer.body["field"], "datasets[d0]");
    }
    // Too many datasets, distinct contents, bytes.
    for (datasets, size, why) in [
        (6, 1, "datasets"),
        (5, 1, "distinct files"),
        (3, 1_000_000, "bytes"),
    ] {
        let answer = server
            .create_push(&blob_manifest(NS, datasets, size))
            .await
            .expect(413);
        assert_eq!(answer.code(), "push.too_large", "{:#}", answer.body);
        let detail = answer.body["detail"].as_str().unwrap();
        assert!(detail.contains(why), "{detail}");
    }
    assert_eq!(recorded_pushes(&server).await, 0, "nothing was recorded");
    assert!(
        !server.data_dir.join("blobs").join(NS).exists(),
        "nothing was prepared"
    );

    // Within the limits, a push goes through.
    let answer = server
        .create_push(&blob_manifest(NS, 2, 1_000_000))
        .await
        .expect(201);
    assert_eq!(answer.body["uploads"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manifest_prepares_nothing_on_disk_before_its_uploads_arrive() {
    let (_site, server) = server_with("");
    // 200 new object-storage datasets, none of their contents uploaded.
    let datasets: Vec<Dataset> = (0..200)
        .map(|i| {
            Dataset::new(
                &format!("d{i}"),
                "BLOB",
                vec![File::new("f.bin", format!("file {i}\n").into_bytes())],
            )
        })
        .collect();
    let (waiting, waiting_contents) = manifest(NS, "dev", Options::default(), None, &datasets);
    let created = server.create_push(&waiting).await.expect(201).body;

    // Meanwhile another push goes all the way through.
    let (other, other_contents) = manifest(
        "elsewhere",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "one",
            "BLOB",
            vec![File::new("one.txt", b"one\n".to_vec())],
        )],
    );
    server.push(&other, &other_contents).await;
    assert!(
        !server.data_dir.join("blobs").join(NS).exists(),
        "the manifest alone made directories: {:?}",
        std::fs::read_dir(server.data_dir.join("blobs").join(NS))
            .map(|entries| entries.count())
            .unwrap_or(0)
    );

    // Once the uploads arrive, the push commits every dataset.
    upload_all(&server, &created, &waiting_contents).await;
    let id = created["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let status = server.wait(id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (head, _) = blob_files(&server.data_dir, NS, "d199", "dev");
    assert_eq!(head["files"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_hands_out_a_bounded_number_of_part_urls_and_the_rest_on_the_next_post() {
    let (_site, server) = server_with("[limits]\nmax_part_urls = 5\n");
    // Three contents of three parts each: nine part URLs in all.
    let datasets: Vec<Dataset> = (0..3)
        .map(|i| {
            Dataset::new(
                &format!("big{i}"),
                "BLOB",
                vec![File::new("big.bin", noise(100 + i, 3 * PART - 7))],
            )
        })
        .collect();
    let (mut m, contents) = manifest(NS, "dev", Options::default(), None, &datasets);
    let part_urls = |answer: &Value| -> usize {
        answer["uploads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["parts"].as_array().map_or(0, Vec::len))
            .sum()
    };
    let mut answer = server.create_push(&m).await.expect(201).body;
    m["push_id"] = answer["push_id"].clone();
    let mut rounds = 1;
    loop {
        assert!(part_urls(&answer) <= 5, "{answer:#}");
        upload_all(&server, &answer, &contents).await;
        if answer["more_uploads"] != true {
            break;
        }
        answer = server.create_push(&m).await.expect(200).body;
        rounds += 1;
        assert!(
            rounds <= 3,
            "every content was handed out by the third answer"
        );
    }
    assert_eq!(rounds, 3);
    assert_eq!(answer["already_staged"].as_array().unwrap().len(), 2);
    let id = answer["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let status = server.wait(id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
}
