//! Issue 27, a package of many one-file resources: a paged push of thousands of datasets.
//! The answer to `POST /v1/pushes` does not list them (it grew with the count: 14 MB at
//! 100,000 datasets, near the client's 16 MiB bound), and `GET /v1/pushes/{id}?limit=`
//! lists what changed a page at a time (`after`), each dataset exactly once, in (change,
//! position) order, however many moved together.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::api_support::{Contents, Server, Site, upload_all};

/// Datasets of the push: a few commit batches (256) and several pages.
const DATASETS: usize = 2_500;
const PAGE: usize = 700;

use stone_package::digest::sha256_hex as sha256;

fn content(i: usize) -> Vec<u8> {
    format!("resource {i}\n").into_bytes()
}

/// The names of a status's datasets, in its order.
fn names(status: &Value) -> Vec<String> {
    status["datasets"]
        .as_array()
        .unwrap_or_else(|| panic!("datasets: {status:#}"))
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Every page from `since` (`None`: from the start) with `?limit=PAGE`: the pages' names,
/// and the last answer.
async fn pages(server: &Server, id: &str, since: Option<u64>) -> (Vec<Vec<String>>, Value) {
    let mut cursor: (Option<u64>, Option<u64>) = (since, None);
    let mut pages = Vec::new();
    loop {
        let path = match cursor {
            (Some(since), Some(after)) => {
                format!("/v1/pushes/{id}?since={since}&after={after}&limit={PAGE}")
            }
            (Some(since), None) => format!("/v1/pushes/{id}?since={since}&limit={PAGE}"),
            (None, _) => format!("/v1/pushes/{id}?limit={PAGE}"),
        };
        let status = server.get(&path).await.expect(200).body;
        let page = names(&status);
        assert!(
            page.len() <= PAGE,
            "a page of {} datasets, over the limit of {PAGE}",
            page.len()
        );
        pages.push(page);
        match status["after"].as_u64() {
            Some(after) => {
                assert!(pages.len() <= DATASETS / PAGE + 2, "pages without end");
                cursor = (Some(status["changes"].as_u64().unwrap()), Some(after));
            }
            None => return (pages, status),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_of_thousands_of_datasets_is_followed_a_page_at_a_time() {
    let site = Site::new();
    let server = site.start();
    let mut contents = Contents::new();
    let files: Vec<Value> = (0..DATASETS)
        .map(|i| {
            let bytes = content(i);
            let digest = sha256(&bytes);
            contents.insert(digest.clone(), bytes.clone());
            json!({"name": format!("r{i:05}"), "files": [{"path": format!("r{i:05}.txt"), "sha256": digest, "size": bytes.len()}]})
        })
        .collect();
    let datasets: Vec<Value> = (0..DATASETS)
        .map(|i| json!({"name": format!("r{i:05}"), "kind": "BLOB", "files": []}))
        .collect();
    let created = server
        .create_push(&json!({
            "namespace": "many", "branch": "dev",
            "options": {"yes": false, "force": false, "replace": false, "manual": true},
            "package": {"public": false},
            "datasets": datasets,
            "paged_files": true,
        }))
        .await
        .expect(201)
        .body;
    assert_eq!(
        created["datasets"],
        json!([]),
        "a paged push's datasets are not listed in its creation's answer"
    );
    let id = created["push_id"].as_str().unwrap().to_owned();
    let start = created["changes"].as_u64().expect("a change number");
    let mut batch = server
        .post(
            &format!("/v1/pushes/{id}/files"),
            &json!({"datasets": files}),
        )
        .await
        .expect(200)
        .body;
    batch["push_id"] = json!(id);
    upload_all(&server, &batch, &contents).await;
    server.commit(&id).await.expect(202);
    let done = server.wait(&id).await;
    assert_eq!(done["state"], "succeeded", "{:#}", done["error"]);

    // From the creation's change number on: every dataset once, a page at a time.
    let expected: Vec<String> = (0..DATASETS).map(|i| format!("r{i:05}")).collect();
    let (listed, last) = pages(&server, &id, Some(start)).await;
    assert!(
        listed.len() >= DATASETS.div_ceil(PAGE),
        "{} pages for {DATASETS} datasets of at most {PAGE}",
        listed.len()
    );
    let all: Vec<String> = listed.concat();
    let once: BTreeSet<&String> = all.iter().collect();
    assert!(
        all.len() == DATASETS && once.into_iter().eq(expected.iter()),
        "each dataset exactly once: {} listed",
        all.len()
    );
    assert_eq!(last["state"], "succeeded");
    assert_eq!(last["result"]["counts"]["created"], DATASETS);
    // Nothing after the last page.
    let quiet = server
        .get(&format!(
            "/v1/pushes/{id}?since={}&limit={PAGE}",
            last["changes"].as_u64().unwrap()
        ))
        .await
        .expect(200)
        .body;
    assert_eq!(names(&quiet), Vec::<String>::new(), "{quiet:#}");
    assert!(quiet["after"].is_null());

    // Without `since`, from the start: every dataset once, paged too, in (change,
    // position) order (the commit writes two batches at once: not the manifest's).
    let (listed, _) = pages(&server, &id, None).await;
    let all = listed.concat();
    let once: BTreeSet<&String> = all.iter().collect();
    assert!(
        all.len() == DATASETS && once.into_iter().eq(expected.iter()),
        "each dataset exactly once, from the start: {} listed",
        all.len()
    );
    // Without `limit`, as before: one answer, every dataset, in manifest order.
    assert!(
        names(&server.status(&id).await) == expected,
        "every dataset, in manifest order"
    );
    // A limit past the largest page counts as it; a limit of 0 as 1.
    let one = server
        .get(&format!("/v1/pushes/{id}?limit=0"))
        .await
        .expect(200)
        .body;
    assert_eq!(names(&one).len(), 1, "{one:#}");
    assert!(one["after"].is_u64(), "{one:#}");
}
