//! Named versions of GRAPH and object-storage datasets on the real binary: the package
//! version becomes a snapshot graph and a version head per dataset and branch, each
//! version is served with `version=` after the content moved on, the metadata lists the
//! versions, an unknown version is 404, and on a protected ref moving a version needs
//! `force`. Run with the embedded graph store and local blobs, and with a real
//! `oxigraph serve` and SeaweedFS S3.
//!
//! What the server wrote is also checked without it: pyoxigraph over the embedded store's
//! files or SPARQL straight to the Oxigraph server, the version documents on disk or in
//! the bucket.

use reqwest::StatusCode;
use serde_json::{Value, json};
use stone_test::services::{OxigraphServer, SeaweedFs};

use crate::api_contract::Contract;
use crate::api_read::{Read, read};
use crate::api_support::{
    Contents, Dataset, File, Options, Server, Site, graph_count_on_disk, manifest, noise,
    sha256_hex, sparql_count, statuses, turtle,
};

const FORCER: &str = "[local]\nroles = [\"protected-write\", \"protected-force\"]\n";
const GRAPH: &str = "https://data.test/demo/vocab/branch";

/// Where the engines keep what they write, read without the server.
enum Backing {
    /// Embedded graph store and local blobs under the server's data directory.
    Local,
    /// A remote Oxigraph server and a SeaweedFS bucket (prefix `datasets`).
    Remote {
        oxigraph: Box<OxigraphServer>,
        seaweed: &'static SeaweedFs,
        bucket: String,
    },
}

impl Backing {
    fn remote() -> Self {
        let seaweed = SeaweedFs::shared();
        let bucket = format!(
            "stone-versions-{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        );
        seaweed.create_bucket(&bucket);
        Self::Remote {
            oxigraph: Box::new(OxigraphServer::start()),
            seaweed,
            bucket,
        }
    }

    fn config(&self, roles: &str) -> String {
        match self {
            Self::Local => roles.to_owned(),
            Self::Remote {
                oxigraph,
                seaweed,
                bucket,
            } => format!(
                "{roles}[graph]\nremote_url = \"{}\"\n[blob]\nstore = \"s3\"\n[blob.s3]\nendpoint = \"{}\"\nbucket = \"{bucket}\"\nprefix = \"datasets\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
                oxigraph.base_url(),
                seaweed.endpoint(),
                seaweed.region(),
                seaweed.access_key(),
                seaweed.secret_key(),
            ),
        }
    }

    /// Triples in a named graph, counted without the server.
    fn triples(&self, server: &Server, graph: &str) -> u64 {
        match self {
            Self::Local => graph_count_on_disk(&server.data_dir, graph),
            Self::Remote { oxigraph, .. } => {
                let query =
                    format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}");
                sparql_count(&stone_test::tools::run_python_json(
                    "sparql.py",
                    &["--endpoint", &oxigraph.query_url(), "--query", &query],
                ))
            }
        }
    }

    /// A blob version document (`{ns}/{dataset}/{branch}/versions/{V}.json`), read
    /// without the server.
    fn version_document(&self, server: &Server, key: &str) -> Value {
        let bytes = match self {
            Self::Local => std::fs::read(server.data_dir.join("blobs").join(key)).ok(),
            Self::Remote {
                seaweed, bucket, ..
            } => seaweed.get_object(bucket, &format!("datasets/{key}")),
        };
        serde_json::from_slice(&bytes.unwrap_or_else(|| panic!("{key} is missing"))).unwrap()
    }
}

/// Non-empty lines of an N-Triples answer.
fn lines(read: &Read) -> usize {
    read.text().lines().filter(|l| !l.trim().is_empty()).count()
}

/// Both datasets under `version` on `branch` of `demo`.
fn versioned(
    branch: &str,
    options: Options,
    version: &str,
    triples: usize,
    blob: &[u8],
) -> (Value, Contents) {
    manifest(
        "demo",
        branch,
        options,
        Some(version),
        &datasets(triples, blob),
    )
}

fn datasets(triples: usize, blob: &[u8]) -> Vec<Dataset> {
    vec![
        Dataset::new(
            "vocab",
            "GRAPH",
            vec![File::new("vocab.ttl", turtle(triples))],
        ),
        Dataset::new("blob", "BLOB", vec![File::new("data/a.bin", blob.to_vec())]),
    ]
}

/// v1 and v2 pushed to `dev`, both read back after v2, then the metadata and the 404s.
async fn versions_round_trip(backing: &Backing) {
    let site = Site::with_config(&backing.config(""));
    let server = site.start();
    let (one, two) = (noise(1, 5000), noise(2, 7000));
    let (m, c) = versioned("dev", Options::default(), "1.0.0", 4, &one);
    server.push(&m, &c).await;
    let (m, c) = versioned("dev", Options::default(), "2.0.0", 6, &two);
    let status = server.push(&m, &c).await;
    assert_eq!(statuses(&status)["vocab"], "appended", "{status:#}");
    assert_eq!(statuses(&status)["blob"], "appended", "{status:#}");
    for dataset in status["datasets"].as_array().unwrap() {
        assert_eq!(dataset["detail"]["tag"], "2.0.0", "{dataset:#}");
    }

    // Written where documented, checked without the server.
    assert_eq!(
        backing.triples(&server, &format!("{GRAPH}/dev/version/1.0.0")),
        4
    );
    assert_eq!(
        backing.triples(&server, &format!("{GRAPH}/dev/version/2.0.0")),
        6
    );
    assert_eq!(backing.triples(&server, &format!("{GRAPH}/dev")), 6);
    let document = backing.version_document(&server, "demo/blob/dev/versions/1.0.0.json");
    assert_eq!(document["format"], "stone.blob-head/1");
    assert_eq!(
        document["files"],
        json!([{"path": "data/a.bin", "sha256": sha256_hex(&one), "size": 5000}])
    );

    // GRAPH: each version in every format; the branch is the latest.
    let graph = "/v1/namespaces/demo/datasets/vocab/content?branch=dev";
    let v1 = read(&server, &format!("{graph}&version=1.0.0&format=nt"), &[]).await;
    assert_eq!(v1.status, 200);
    assert_eq!(lines(&v1), 4);
    let v2 = read(&server, &format!("{graph}&version=2.0.0&format=nt"), &[]).await;
    assert_eq!(lines(&v2), 6);
    assert_eq!(
        lines(&read(&server, &format!("{graph}&format=nt"), &[]).await),
        6
    );
    assert_ne!(v1.header("etag"), v2.header("etag"));
    let turtle_v1 = read(&server, &format!("{graph}&version=1.0.0"), &[]).await;
    assert_eq!(turtle_v1.header("content-type"), "text/turtle");
    assert!(String::from_utf8_lossy(&turtle_v1.body).contains("item 1"));
    assert!(!String::from_utf8_lossy(&turtle_v1.body).contains("item 2"));
    let jsonld = read(
        &server,
        &format!("{graph}&version=1.0.0&format=jsonld"),
        &[],
    )
    .await;
    assert_eq!(jsonld.status, 200);
    assert!(jsonld.json().is_array() || jsonld.json().is_object());
    let cached = read(
        &server,
        &format!("{graph}&version=1.0.0&format=nt"),
        &[("if-none-match", v1.header("etag"))],
    )
    .await;
    assert_eq!(cached.status, StatusCode::NOT_MODIFIED);

    // BLOB: each version's bytes, ETag, ranges; the IRI route too.
    let blob = "/v1/namespaces/demo/datasets/blob/content?branch=dev";
    let old = read(&server, &format!("{blob}&version=1.0.0"), &[]).await;
    assert_eq!(old.status, 200);
    assert_eq!(old.body, one);
    assert_eq!(old.header("etag"), format!("\"{}\"", sha256_hex(&one)));
    assert_eq!(old.header("content-length"), "5000");
    let part = read(
        &server,
        &format!("{blob}&version=1.0.0"),
        &[("range", "bytes=10-19")],
    )
    .await;
    assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.body, &one[10..20]);
    assert_eq!(part.header("content-range"), "bytes 10-19/5000");
    assert_eq!(
        read(&server, &format!("{blob}&version=2.0.0"), &[])
            .await
            .body,
        two
    );
    assert_eq!(read(&server, blob, &[]).await.body, two);
    assert_eq!(
        read(&server, "/demo/blob?branch=dev&version=1.0.0", &[])
            .await
            .body,
        one
    );

    // The metadata lists the versions; with version= a blob's files are the version's.
    let mut contract = Contract::load();
    for name in ["vocab", "blob"] {
        let info = server
            .get(&format!("/v1/namespaces/demo/datasets/{name}?branch=dev"))
            .await;
        contract.answer(&info, 200, "DatasetInfo");
        assert_eq!(info.body["versions"], json!(["1.0.0", "2.0.0"]), "{name}");
    }
    let info = server
        .get("/v1/namespaces/demo/datasets/blob?branch=dev&version=1.0.0")
        .await;
    contract.answer(&info, 200, "DatasetInfo");
    assert_eq!(info.body["sha256"], sha256_hex(&one));
    assert_eq!(info.body["size"], 5000);
    let iri_info = read(
        &server,
        "/demo/blob?branch=dev&version=1.0.0",
        &[("accept", "application/json")],
    )
    .await;
    assert_eq!(iri_info.json()["files"][0]["sha256"], sha256_hex(&one));

    // Unknown or impossible versions: 404 dataset.not_found, saying which.
    for path in [
        format!("{graph}&version=3.0.0"),
        format!("{blob}&version=3.0.0"),
        "/v1/namespaces/demo/datasets/vocab?branch=dev&version=3.0.0".to_owned(),
        "/v1/namespaces/demo/datasets/blob?branch=dev&version=3.0.0".to_owned(),
        format!("{blob}&version=..%2Fhead"),
        format!("{graph}&version=a%3Eb"),
    ] {
        let missing = server.get(&path).await;
        contract.answer(&missing, 404, "Problem");
        assert_eq!(missing.code(), "dataset.not_found", "{path}");
        assert!(
            missing.body["detail"]
                .as_str()
                .unwrap()
                .contains("has no version"),
            "{path}: {:#}",
            missing.body
        );
    }
    // A version lives on its branch.
    assert_eq!(
        server
            .get("/v1/namespaces/demo/datasets/blob/content?branch=main&version=1.0.0")
            .await
            .status,
        404
    );

    // v2 pushed again: unchanged, the versions stay as they are.
    let (m, c) = versioned("dev", Options::default(), "2.0.0", 6, &two);
    let status = server.push(&m, &c).await;
    assert_eq!(statuses(&status)["vocab"], "unchanged", "{status:#}");
    assert_eq!(statuses(&status)["blob"], "unchanged", "{status:#}");
    assert_eq!(
        read(&server, &format!("{blob}&version=1.0.0"), &[])
            .await
            .body,
        one
    );
    assert_eq!(
        backing.triples(&server, &format!("{GRAPH}/dev/version/1.0.0")),
        4
    );

    // Both datasets leave the package (--replace): deleted from the branch with their
    // versions.
    let replace = Options {
        replace: true,
        ..Options::default()
    };
    let (m, c) = manifest(
        "demo",
        "dev",
        replace,
        Some("3.0.0"),
        &[Dataset::new(
            "other",
            "BLOB",
            vec![File::new("o.bin", noise(5, 10))],
        )],
    );
    let status = server.push(&m, &c).await;
    assert_eq!(statuses(&status)["vocab"], "deleted", "{status:#}");
    assert_eq!(statuses(&status)["blob"], "deleted", "{status:#}");
    for version in ["1.0.0", "2.0.0"] {
        assert_eq!(
            backing.triples(&server, &format!("{GRAPH}/dev/version/{version}")),
            0
        );
    }
    for kind in ["vocab?branch=dev&kind=GRAPH", "blob?branch=dev&kind=BLOB"] {
        let info = server
            .get(&format!("/v1/namespaces/demo/datasets/{kind}"))
            .await;
        assert_eq!(info.body["exists"], false, "{:#}", info.body);
        assert_eq!(info.body.get("versions"), None, "{:#}", info.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_and_blob_versions_are_kept_embedded_and_local() {
    versions_round_trip(&Backing::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graph_and_blob_versions_are_kept_on_a_graph_server_and_s3() {
    versions_round_trip(&Backing::remote()).await;
}

/// On `main` (protected), other content under an existing version is refused at
/// `POST /pushes` for each dataset; the same content is fine; `force` moves the version.
async fn moving_versions_needs_force(backing: &Backing) {
    let site = Site::with_config(&backing.config(FORCER));
    let server = site.start();
    let (one, two) = (noise(3, 4000), noise(4, 4000));
    let (m, c) = versioned("main", Options::default(), "1.0", 4, &one);
    server.push(&m, &c).await;

    // The same content under the same version: accepted, unchanged.
    let (m, c) = versioned("main", Options::default(), "1.0", 4, &one);
    let status = server.push(&m, &c).await;
    assert_eq!(statuses(&status)["vocab"], "unchanged");
    assert_eq!(statuses(&status)["blob"], "unchanged");

    // Other content under 1.0: both datasets refused before any upload.
    let (m, _) = versioned("main", Options::default(), "1.0", 6, &two);
    let refused = server.create_push(&m).await;
    assert_eq!(refused.status, 409, "{:#}", refused.body);
    assert_eq!(refused.code(), "version.exists");
    assert!(refused.body.get("uploads").is_none());
    let refused_datasets: Vec<&str> = refused.body["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!(v["code"], "version.exists", "{v:#}");
            v["dataset"].as_str().unwrap()
        })
        .collect();
    assert_eq!(refused_datasets, ["vocab", "blob"], "{:#}", refused.body);
    // Only the blob changes: only the blob is refused.
    let (m, _) = versioned("main", Options::default(), "1.0", 4, &two);
    let refused = server.create_push(&m).await;
    assert_eq!(refused.status, 409, "{:#}", refused.body);
    assert_eq!(refused.body["violations"].as_array().unwrap().len(), 1);
    assert_eq!(refused.body["violations"][0]["dataset"], "blob");

    // A new version is fine, and 1.0 still names the first content.
    let (m, c) = versioned("main", Options::default(), "1.1", 6, &two);
    server.push(&m, &c).await;
    let blob = "/v1/namespaces/demo/datasets/blob/content";
    let graph = "/v1/namespaces/demo/datasets/vocab/content?format=nt";
    assert_eq!(
        read(&server, &format!("{blob}?version=1.0"), &[])
            .await
            .body,
        one
    );
    assert_eq!(
        lines(&read(&server, &format!("{graph}&version=1.0"), &[]).await),
        4
    );
    // 1.0 again with 1.1's content (what the branch holds now) would move 1.0: refused.
    let (m, _) = versioned("main", Options::default(), "1.0", 6, &two);
    assert_eq!(server.create_push(&m).await.status, 409);

    // With force, 1.0 moves to the branch's content.
    let forced = Options {
        force: true,
        ..Options::default()
    };
    let (m, c) = versioned("main", forced, "1.0", 6, &two);
    server.push(&m, &c).await;
    assert_eq!(
        read(&server, &format!("{blob}?version=1.0"), &[])
            .await
            .body,
        two
    );
    assert_eq!(
        lines(&read(&server, &format!("{graph}&version=1.0"), &[]).await),
        6
    );
    assert_eq!(
        backing.triples(&server, &format!("{GRAPH}/main/version/1.0")),
        6
    );
    assert_eq!(
        backing.triples(&server, &format!("{GRAPH}/main/version/1.1")),
        6
    );

    // On an unprotected ref a version moves without force.
    let (m, c) = versioned("dev", Options::default(), "d1", 4, &one);
    server.push(&m, &c).await;
    let (m, c) = versioned("dev", Options::default(), "d1", 6, &two);
    server.push(&m, &c).await;
    assert_eq!(
        read(
            &server,
            "/v1/namespaces/demo/datasets/blob/content?branch=dev&version=d1",
            &[]
        )
        .await
        .body,
        two
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_a_graph_or_blob_version_on_a_protected_ref_needs_force() {
    moving_versions_needs_force(&Backing::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_a_version_on_a_graph_server_and_s3_needs_force() {
    moving_versions_needs_force(&Backing::remote()).await;
}
