//! Issue 27: a paged push may declare a folder's listing (`listing` of a dataset of the
//! manifest). When it is the head's, the answer names the dataset `unchanged` and the push
//! is committed without any of its files (no `POST …/files`): recorded unchanged, the head
//! untouched. A wrong digest, a head changed between the creation and the commit, or a
//! protected ref without `force` never yields a dataset written without its files.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::api_support::{Answer, Contents, Server, Site, client, send_batch};

const FILES: usize = 2_500;
const DISTINCT: usize = 10;
const BATCH: usize = 1_000;

use stone_package::digest::sha256_hex as sha256;

fn content(i: usize, salt: &str) -> Vec<u8> {
    format!("scan {salt}{:02}\n", i % DISTINCT).into_bytes()
}

fn path(i: usize) -> String {
    format!("d{:01}/f{i:05}.txt", i / 1000)
}

/// The folder's listing as the API digests it: (digest, files, bytes).
fn listing(salt: &str) -> (String, u64, u64) {
    let mut text = String::new();
    let mut bytes = 0;
    for i in 0..FILES {
        let body = content(i, salt);
        bytes += body.len() as u64;
        text.push_str(&format!("{}\0{}\0{}\n", path(i), sha256(&body), body.len()));
    }
    (sha256(text.as_bytes()), FILES as u64, bytes)
}

fn manifest(branch: &str, declared: Option<(String, u64, u64)>) -> Value {
    let mut dataset = json!({"name": "scans", "kind": "BLOB", "files": []});
    if let Some((sha256, files, bytes)) = declared {
        dataset["listing"] = json!({"sha256": sha256, "files": files, "bytes": bytes});
    }
    json!({
        "namespace": "big", "branch": branch,
        "options": {"yes": true, "force": false, "replace": false, "manual": false},
        "package": {"public": false},
        "datasets": [dataset],
        "paged_files": true,
    })
}

async fn create(server: &Server, manifest: &Value) -> Value {
    Answer::of(
        client()
            .post(server.url("/v1/pushes"))
            .json(manifest)
            .send()
            .await
            .unwrap(),
    )
    .await
    .expect(201)
    .body
}

/// Sends the folder's files (contents salted with `salt`) in batches, uploads included.
async fn send_files(server: &Server, id: &str, salt: &str) {
    let mut contents = Contents::new();
    for i in 0..DISTINCT {
        let bytes = content(i, salt);
        contents.insert(sha256(&bytes), bytes);
    }
    for at in (0..FILES).step_by(BATCH) {
        let files: Vec<Value> = (at..(at + BATCH).min(FILES))
            .map(|i| {
                let body = content(i, salt);
                json!({"path": path(i), "sha256": sha256(&body), "size": body.len()})
            })
            .collect();
        send_batch(server, id, "scans", files, &contents).await;
    }
}

/// Commits push `id` and waits for its end: (state, the dataset's progress).
async fn committed(server: &Server, id: &str) -> (String, Value) {
    server.commit(id).await.expect(202);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let status = server.status(id).await;
        if let Some(state @ ("succeeded" | "failed")) = status["state"].as_str() {
            return (state.to_owned(), status["datasets"][0].clone());
        }
        assert!(Instant::now() < deadline, "{status:#}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A paged push of the folder (contents salted with `salt`) to `branch`, the files sent:
/// the dataset's status.
async fn push_all(server: &Server, branch: &str, salt: &str) -> String {
    let created = create(server, &manifest(branch, Some(listing(salt)))).await;
    let id = created["push_id"].as_str().unwrap();
    send_files(server, id, salt).await;
    let (state, dataset) = committed(server, id).await;
    assert_eq!(state, "succeeded", "{dataset:#}\n{}", server.log());
    dataset["status"].as_str().unwrap().to_owned()
}

fn batches_recorded(server: &Server, id: &str) -> usize {
    server
        .log()
        .lines()
        .filter(|l| l.contains("file batch recorded") && l.contains(id))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_listing_that_is_the_heads_spares_every_batch() {
    let site = Site::with_config("");
    let head = site.data_dir().join("blobs/big/scans/dev/head.json");
    let server = site.start();
    // Nothing there yet: a declared listing is no reason to skip anything.
    let created = create(&server, &manifest("dev", Some(listing("a")))).await;
    assert!(created.get("unchanged").is_none(), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    send_files(&server, &id, "a").await;
    assert_eq!(batches_recorded(&server, &id), FILES.div_ceil(BATCH));
    let (state, first) = committed(&server, &id).await;
    assert_eq!(
        (state.as_str(), &first["status"]),
        ("succeeded", &json!("created"))
    );
    let written = std::fs::metadata(&head).unwrap().modified().unwrap();
    let stored: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    assert_eq!(
        stored["listing"],
        listing("a").0,
        "the client's digest is the head's"
    );

    // The same listing declared: named unchanged; committed without a single batch.
    let created = create(&server, &manifest("dev", Some(listing("a")))).await;
    assert_eq!(created["unchanged"], json!(["scans"]), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    let (state, again) = committed(&server, &id).await;
    assert_eq!(state, "succeeded", "{again:#}");
    assert_eq!(again["status"], "unchanged", "{again:#}");
    assert_eq!(again["detail"]["files"], FILES as u64, "{again:#}");
    assert_eq!(batches_recorded(&server, &id), 0, "no batch was sent");
    assert_eq!(
        std::fs::metadata(&head).unwrap().modified().unwrap(),
        written,
        "the head was not rewritten"
    );

    // Another listing (a file changed): not named; its commit without files is refused,
    // the head stays.
    let created = create(&server, &manifest("dev", Some(listing("b")))).await;
    assert!(created.get("unchanged").is_none(), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    let refused = server.commit(&id).await.expect(409);
    assert_eq!(
        refused.body["code"], "push.incomplete",
        "{:#}",
        refused.body
    );
    // Its files sent, it is written.
    send_files(&server, &id, "b").await;
    let (state, changed) = committed(&server, &id).await;
    assert_eq!(state, "succeeded", "{changed:#}");
    assert_ne!(changed["status"], "unchanged", "{changed:#}");
    let stored: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    assert_eq!(stored["listing"], listing("b").0);

    // Named unchanged, then the head moves (another push) before the commit: refused,
    // nothing written without files; posted again, it is not named any more.
    let created = create(&server, &manifest("dev", Some(listing("b")))).await;
    assert_eq!(created["unchanged"], json!(["scans"]), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    assert_ne!(push_all(&server, "dev", "c").await, "unchanged");
    let refused = server.commit(&id).await.expect(409);
    assert_eq!(
        refused.body["code"], "push.incomplete",
        "{:#}",
        refused.body
    );
    assert!(
        refused.body["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("its declared listing is not its head's"),
        "{:#}",
        refused.body
    );
    let stored: Value = serde_json::from_slice(&std::fs::read(&head).unwrap()).unwrap();
    assert_eq!(
        stored["listing"],
        listing("c").0,
        "the head stays the other push's"
    );
    let mut resumed = manifest("dev", Some(listing("b")));
    resumed["push_id"] = json!(id);
    let answer = Answer::of(
        client()
            .post(server.url("/v1/pushes"))
            .json(&resumed)
            .send()
            .await
            .unwrap(),
    )
    .await
    .expect(200)
    .body;
    assert!(answer.get("unchanged").is_none(), "{answer:#}");

    // A malformed digest is refused before anything is recorded.
    let mut bad = manifest("dev", Some(listing("c")));
    bad["datasets"][0]["listing"]["sha256"] = json!("nope");
    let answer = Answer::of(
        client()
            .post(server.url("/v1/pushes"))
            .json(&bad)
            .send()
            .await
            .unwrap(),
    )
    .await
    .expect(400);
    assert_eq!(answer.body["code"], "request.invalid", "{:#}", answer.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_protected_ref_a_declared_listing_spares_nothing() {
    // Its guards read every file at commit: the files are asked for, unchanged or not.
    let site = Site::with_config("");
    let server = site.start();
    assert_eq!(push_all(&server, "main", "a").await, "created");
    let created = create(&server, &manifest("main", Some(listing("a")))).await;
    assert!(created.get("unchanged").is_none(), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    server.commit(&id).await.expect(409);
    send_files(&server, &id, "a").await;
    let (state, again) = committed(&server, &id).await;
    assert_eq!(
        (state.as_str(), &again["status"]),
        ("succeeded", &json!("unchanged"))
    );
}
