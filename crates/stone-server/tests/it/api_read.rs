//! Reading content back on the real binary: formats and content negotiation, the package
//! dialect in CSV, `ETag`/`If-None-Match`, byte ranges, named versions, the IRI routes
//! (`/{ns}`, `/{ns}/{name}`), and every JSON answer checked against openapi.yaml.

use reqwest::StatusCode;
use serde_json::json;

use crate::api_contract::Contract;
use crate::api_support::{
    Dataset, File, Options, Server, Site, client, manifest, noise, people_parquet, sha256_hex,
    turtle,
};

pub(crate) struct Read {
    pub(crate) status: StatusCode,
    pub(crate) headers: reqwest::header::HeaderMap,
    pub(crate) body: Vec<u8>,
}

impl Read {
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|_| json!(self.text()))
    }
}

pub(crate) async fn read(server: &Server, path: &str, headers: &[(&str, &str)]) -> Read {
    let mut request = client().get(server.url(path));
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

/// Pushes `people` (TABULAR, version 1.0.0), `vocab` (GRAPH) and `blob` (BLOB) to
/// `demo` on `dev`, with a `;` dialect that quotes everything.
async fn pushed(server: &Server) -> Vec<u8> {
    let blob = noise(7, 300_000);
    let (mut m, contents) = manifest(
        "demo",
        "dev",
        Options::default(),
        Some("1.0.0"),
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2, 3]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(4))]),
            Dataset::new(
                "blob",
                "BLOB",
                vec![File::new("data/readings.bin", blob.clone())],
            ),
        ],
    );
    m["package"]["dialect"] =
        json!({"delimiter": ";", "quoting": "all", "line_terminator": "\r\n"});
    server.push(&m, &contents).await;
    blob
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_served_as_parquet_csv_and_tsv_with_the_package_dialect() {
    let site = Site::new();
    let server = site.start();
    pushed(&server).await;
    let base = "/v1/namespaces/demo/datasets/people/content?branch=dev";

    // CSV by default, in the package's dialect: `;`, every field quoted, CRLF.
    let csv = read(&server, base, &[]).await;
    assert_eq!(csv.status, 200, "{}", csv.text());
    assert!(csv.header("content-type").starts_with("text/csv"));
    assert_eq!(
        csv.text(),
        "\"id\";\"name\"\r\n\"1\";\"person-1\"\r\n\"2\";\"person-2\"\r\n\"3\";\"person-3\"\r\n"
    );
    assert!(!csv.header("stone-snapshot-id").is_empty());

    // TSV by Accept keeps its tab.
    let tsv = read(&server, base, &[("accept", "text/tab-separated-values")]).await;
    assert!(
        tsv.header("content-type")
            .starts_with("text/tab-separated-values")
    );
    assert!(
        tsv.text().starts_with("\"id\"\t\"name\"\r\n"),
        "{}",
        tsv.text()
    );

    // Parquet, read back with arrow-rs: same rows.
    let parquet = read(&server, &format!("{base}&format=parquet"), &[]).await;
    assert_eq!(parquet.status, 200);
    assert_eq!(
        parquet.header("content-type"),
        "application/vnd.apache.parquet"
    );
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        bytes::Bytes::from(parquet.body.clone()),
    )
    .unwrap()
    .build()
    .unwrap();
    let batches: Vec<_> = reader.map(Result::unwrap).collect();
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, 3);
    let names: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["id", "name"]);

    // The ETag answers If-None-Match with 304 and no body.
    let etag = parquet.header("etag").to_owned();
    assert!(etag.starts_with('"'), "{etag}");
    let again = read(
        &server,
        &format!("{base}&format=parquet"),
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    // Another format has another ETag.
    assert_ne!(csv.header("etag"), etag);

    // The named version is the Iceberg tag; an unknown one is 404.
    let tagged = read(&server, &format!("{base}&version=1.0.0"), &[]).await;
    assert_eq!(tagged.text(), csv.text());
    let missing = read(&server, &format!("{base}&version=9.9.9"), &[]).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["code"], "dataset.not_found");

    // A format the kind is not served in is 406 with the formats it is served in.
    let refused = read(&server, &format!("{base}&format=ttl"), &[]).await;
    assert_eq!(refused.status, 406, "{}", refused.text());
    assert_eq!(refused.json()["code"], "request.not_acceptable");
    assert_eq!(
        refused.json()["formats"],
        json!(["csv", "parquet", "tsv", "arrow"])
    );
    let unknown = read(&server, &format!("{base}&format=xlsx"), &[]).await;
    assert_eq!(unknown.status, 400);
    // No such dataset or branch.
    let absent = read(&server, "/v1/namespaces/demo/datasets/nope/content", &[]).await;
    assert_eq!(absent.status, 404);
    assert_eq!(absent.json()["code"], "dataset.not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graphs_and_blobs_have_etags_ranges_and_iri_routes() {
    let site = Site::new();
    let server = site.start();
    let blob = pushed(&server).await;

    // GRAPH: Turtle by default, N-Triples by Accept; the ETag is the document's sha256.
    let graph = "/v1/namespaces/demo/datasets/vocab/content?branch=dev";
    let nt = read(&server, graph, &[("accept", "application/n-triples")]).await;
    assert_eq!(nt.status, 200, "{}", nt.text());
    assert_eq!(nt.header("content-type"), "application/n-triples");
    assert_eq!(nt.text().lines().filter(|l| !l.is_empty()).count(), 4);
    assert_eq!(nt.header("etag"), format!("\"{}\"", sha256_hex(&nt.body)));
    assert_eq!(
        nt.header("content-length"),
        nt.body.len().to_string(),
        "graphs have a Content-Length"
    );
    let ttl = read(&server, graph, &[]).await;
    assert_eq!(ttl.header("content-type"), "text/turtle");
    let jsonld = read(&server, &format!("{graph}&format=jsonld"), &[]).await;
    assert!(jsonld.json().is_array() || jsonld.json().is_object());
    let same = read(
        &server,
        graph,
        &[
            ("accept", "application/n-triples"),
            ("if-none-match", nt.header("etag")),
        ],
    )
    .await;
    assert_eq!(same.status, StatusCode::NOT_MODIFIED);
    // The graph keeps the version it was pushed with; another one is not found.
    assert_eq!(
        read(&server, &format!("{graph}&version=1.0.0"), &[])
            .await
            .status,
        200
    );
    assert_eq!(
        read(&server, &format!("{graph}&version=0.1"), &[])
            .await
            .status,
        404
    );

    // BLOB: the bytes, Content-Length, ETag = sha256, ranges, 304.
    let path = "/v1/namespaces/demo/datasets/blob/content?branch=dev";
    let whole = read(&server, path, &[]).await;
    assert_eq!(whole.status, 200);
    assert_eq!(whole.body, blob);
    let sha = sha256_hex(&blob);
    assert_eq!(whole.header("etag"), format!("\"{sha}\""));
    assert_eq!(whole.header("content-length"), blob.len().to_string());
    assert_eq!(whole.header("accept-ranges"), "bytes");
    assert_eq!(
        whole.header("content-disposition"),
        "attachment; filename=\"readings.bin\""
    );
    let part = read(&server, path, &[("range", "bytes=100-199")]).await;
    assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.body, &blob[100..200]);
    assert_eq!(
        part.header("content-range"),
        format!("bytes 100-199/{}", blob.len())
    );
    let tail = read(&server, path, &[("range", "bytes=-10")]).await;
    assert_eq!(tail.body, &blob[blob.len() - 10..]);
    let outside = read(&server, path, &[("range", "bytes=300000-")]).await;
    assert_eq!(outside.status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(outside.header("content-range"), "bytes */300000");
    let cached = read(&server, path, &[("if-none-match", &format!("\"{sha}\""))]).await;
    assert_eq!(cached.status, StatusCode::NOT_MODIFIED);
    assert!(cached.body.is_empty());

    // The IRI routes: content, metadata for Accept: application/json, the package node.
    let iri = read(&server, "/demo/blob?branch=dev", &[]).await;
    assert_eq!(iri.body, blob);
    let iri_nt = read(&server, "/demo/vocab?branch=dev&format=nt", &[]).await;
    assert_eq!(iri_nt.body, nt.body);
    let mut contract = Contract::load();
    let info = read(
        &server,
        "/demo/blob?branch=dev",
        &[("accept", "application/json")],
    )
    .await;
    contract.check("DatasetInfo", &info.json());
    assert_eq!(info.json()["sha256"], sha);
    assert_eq!(info.json()["size"], 300_000);
    assert_eq!(info.json()["files"][0]["path"], "data/readings.bin");
    assert_eq!(info.json()["versions"], json!(["1.0.0"]));
    let people = server
        .get("/v1/namespaces/demo/datasets/people?branch=dev")
        .await;
    contract.answer(&people, 200, "DatasetInfo");
    assert_eq!(people.body["versions"], json!(["1.0.0"]));
    assert_eq!(
        people.body["schema"],
        json!([{"name": "id", "type": "long", "required": true},
               {"name": "name", "type": "string", "required": false}])
    );
    assert_eq!(
        people.body["formats"],
        json!(["csv", "parquet", "tsv", "arrow"])
    );
    let node = read(&server, "/demo?branch=dev", &[]).await;
    assert_eq!(node.status, 200);
    contract.check("PackageNode", &node.json());
    let names: Vec<String> = node.json()["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["people", "vocab", "blob"]);
    // Problems of the read side match the document too.
    contract.answer(
        &server
            .get("/v1/namespaces/demo/datasets/vocab/content?branch=dev&format=csv")
            .await,
        406,
        "Problem",
    );
    contract.answer(
        &server
            .get("/v1/namespaces/demo/datasets/nope/content")
            .await,
        404,
        "Problem",
    );
    contract.answer(&server.get("/nobody").await, 404, "Problem");
}

/// A named version's metadata shows the version's schema, not the head's: after a column
/// was added on the branch, `version=1.0` still describes the columns its rows have.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_versions_metadata_shows_the_versions_schema() {
    use arrow_array::{Float64Array, Int64Array, StringArray};
    use std::sync::Arc;

    let site = Site::new();
    let server = site.start();
    let people = |file: File| Dataset::new("people", "TABULAR", vec![file]);
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        Some("1.0"),
        &[people(File::new("people.parquet", people_parquet(&[1, 2])))],
    );
    server.push(&m, &c).await;
    let dir = tempfile::tempdir().unwrap();
    let wider = dir.path().join("wider.parquet");
    crate::support::write_parquet(
        &wider,
        &crate::support::batch(vec![
            ("id", Arc::new(Int64Array::from(vec![3])), true),
            ("name", Arc::new(StringArray::from(vec!["person-3"])), false),
            ("score", Arc::new(Float64Array::from(vec![0.5])), true),
        ]),
        1024,
    );
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[people(File::new(
            "people.parquet",
            std::fs::read(&wider).unwrap(),
        ))],
    );
    server.push(&m, &c).await;
    let columns = |info: &serde_json::Value| -> Vec<String> {
        info["schema"]
            .as_array()
            .unwrap_or_else(|| panic!("no schema: {info:#}"))
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let head = server
        .get("/v1/namespaces/demo/datasets/people?branch=dev")
        .await;
    assert_eq!(columns(&head.body), ["id", "name", "score"]);
    let version = server
        .get("/v1/namespaces/demo/datasets/people?branch=dev&version=1.0")
        .await;
    assert_eq!(columns(&version.body), ["id", "name"], "{:#}", version.body);
}
