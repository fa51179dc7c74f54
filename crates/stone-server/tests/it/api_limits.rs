//! Parser limits on the real binary: a staged Parquet file whose schema is nested 20,000
//! deep (160 KB) is refused with `dataset.limit_exceeded`; the server stays up, through a
//! restart too, and takes the next push. The limits come from `[limits] parquet_*`.

use crate::api_support::{Dataset, File, Options, Site, manifest, people_parquet, upload_all};
use stone_test::fixture::nested_parquet;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parquet_schema_nested_too_deep_fails_its_dataset_not_the_server() {
    let site = Site::new();
    let mut server = site.start();
    let (m, c) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "deep",
            "TABULAR",
            vec![File::new("deep.parquet", nested_parquet(20_000))],
        )],
    );
    let created = server.create_push(&m).await;
    upload_all(&server, &created.body, &c).await;
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    server.commit(&id).await.expect(202);
    // Before the fix, the server aborted here (stack overflow in the parquet crate).
    let status = server.wait(&id).await;
    assert_eq!(status["state"], "failed", "{status:#}");
    let error = &status["datasets"][0]["error"];
    assert_eq!(error["code"], "dataset.limit_exceeded", "{status:#}");
    assert_eq!(error["status"], 422, "{status:#}");
    let detail = error["detail"].as_str().unwrap();
    assert!(
        detail.contains("schema nesting levels") && detail.contains("64"),
        "names the limit: {detail}"
    );

    // A restart does not run into it again, and the next push goes through.
    server.terminate();
    let server = site.start();
    assert_eq!(server.status(&id).await["state"], "failed");
    let (m, c) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("p.parquet", people_parquet(&[1, 2]))],
        )],
    );
    server.push(&m, &c).await;
}

/// A Parquet dataset of the two columns of `people_parquet`, pushed; returns the status.
async fn push_people(server: &crate::api_support::Server) -> serde_json::Value {
    let (m, c) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("p.parquet", people_parquet(&[1, 2]))],
        )],
    );
    let created = server.create_push(&m).await;
    upload_all(server, &created.body, &c).await;
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    server.commit(&id).await.expect(202);
    server.wait(&id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_parquet_limits_are_read_from_the_configuration() {
    // The defaults take a two-column file.
    let site = Site::new();
    let server = site.start();
    let status = push_people(&server).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");

    // `[limits] parquet_max_columns = 1` refuses the same file, naming the limit.
    let site = Site::with_config("[limits]\nparquet_max_columns = 1\n");
    let server = site.start();
    let status = push_people(&server).await;
    assert_eq!(status["state"], "failed", "{status:#}");
    let error = &status["datasets"][0]["error"];
    assert_eq!(error["code"], "dataset.limit_exceeded", "{status:#}");
    let detail = error["detail"].as_str().unwrap();
    assert!(
        detail.contains("columns") && detail.contains("limit of 1"),
        "names the limit: {detail}"
    );

    // The depth and footer keys are read too (a schema of depth 1 over a limit of 0).
    let site = Site::with_config("[limits]\nparquet_max_schema_depth = 0\n");
    let server = site.start();
    let status = push_people(&server).await;
    let detail = status["datasets"][0]["error"]["detail"]
        .as_str()
        .unwrap_or("");
    assert!(detail.contains("schema nesting levels"), "{status:#}");
    let site = Site::with_config("[limits]\nparquet_max_footer_bytes = 16\n");
    let server = site.start();
    let status = push_people(&server).await;
    let detail = status["datasets"][0]["error"]["detail"]
        .as_str()
        .unwrap_or("");
    assert!(detail.contains("footer bytes"), "{status:#}");
}
