//! The Iceberg REST catalog, read side (issue 25, part 1): `<server>/iceberg`, read by
//! pyiceberg's `RestCatalog` and DuckDB's `ATTACH … (TYPE iceberg)` as real Python
//! processes, after pushes through the real API; tokens from real logins at the real
//! OpenID provider (npm `oidc-provider`).

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};
use stone_test::services::{AuthorizationRequest, OidcConfig, OidcProvider, OidcUser, SeaweedFs};
use stone_test::tools::{python_script, run_python_json};

use crate::api_support::{
    Dataset, File, Options, Server, Site, client, manifest, numbers_parquet, people_parquet,
};
use crate::authz_matrix::{push_as, send};

fn people(ids: &[i64]) -> Dataset {
    Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("people.parquet", people_parquet(ids))],
    )
}

fn numbers(first: i64, count: i64) -> Dataset {
    Dataset::new(
        "numbers",
        "TABULAR",
        vec![File::new("numbers.parquet", numbers_parquet(first, count))],
    )
}

fn notes() -> Dataset {
    Dataset::new(
        "notes",
        "BLOB",
        vec![File::new("notes.txt", b"not a table\n".to_vec())],
    )
}

fn yes() -> Options {
    Options {
        yes: true,
        ..Options::default()
    }
}

/// pyiceberg's `RestCatalog` on the server: `read_iceberg_rest.py` with `args`.
fn pyiceberg_rest(server: &Server, token: Option<&str>, args: &[&str]) -> Value {
    let uri = server.url("/iceberg");
    let mut all = vec!["--uri", uri.as_str()];
    if let Some(token) = token {
        all.extend(["--token", token]);
    }
    all.extend(args);
    run_python_json("read_iceberg_rest.py", &all)
}

/// DuckDB attached to the server's catalog: `read_iceberg_rest_duckdb.py` with `args`.
fn duckdb_rest(server: &Server, token: Option<&str>, args: &[&str]) -> Value {
    let uri = server.url("/iceberg");
    let mut all = vec!["--uri", uri.as_str()];
    if let Some(token) = token {
        all.extend(["--token", token]);
    }
    all.extend(args);
    run_python_json("read_iceberg_rest_duckdb.py", &all)
}

/// pyiceberg's `SqlCatalog` on the server's own catalog database: what the REST reads
/// are compared with.
fn direct(data: &Path, table: &str, reference: &str) -> Value {
    let db = data.join("iceberg/catalog.db");
    let warehouse = format!("file://{}", data.join("iceberg/warehouse").display());
    run_python_json(
        "read_iceberg.py",
        &[
            "--catalog-db",
            db.to_str().unwrap(),
            "--warehouse",
            &warehouse,
            "--table",
            table,
            "--branch",
            reference,
            "--order-by",
            "id",
        ],
    )
}

fn ids(rows: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids
}

fn names(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {value:#}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// The refs a loaded table shows, by name (in the metadata's order: sorted).
fn ref_names(table: &Value) -> Vec<&str> {
    table["refs"]
        .as_object()
        .map(|refs| refs.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyiceberg_and_duckdb_read_every_table_on_main_a_branch_and_a_version() {
    let site = Site::new();
    let server = site.start();
    // main: version 1.0 (people 1-3, numbers 0-4), then two more people; dev: its own.
    let (m, contents) = manifest(
        "shop",
        "main",
        yes(),
        Some("1.0"),
        &[people(&[1, 2, 3]), numbers(0, 5), notes()],
    );
    server.push(&m, &contents).await;
    let (m, contents) = manifest("shop", "main", yes(), None, &[people(&[4, 5])]);
    server.push(&m, &contents).await;
    let (m, contents) = manifest("shop", "dev", yes(), None, &[people(&[10, 11])]);
    server.push(&m, &contents).await;
    let data = site.data_dir();

    let seen = pyiceberg_rest(
        &server,
        None,
        &[
            "--table",
            "shop.people",
            "--ref",
            "main",
            "--ref",
            "dev",
            "--ref",
            "main@1.0",
            "--order-by",
            "id",
        ],
    );
    assert_eq!(names(&seen["namespaces"]), set(&["shop"]), "{seen:#}");
    assert_eq!(
        names(&seen["tables"]["shop"]),
        set(&["shop.numbers", "shop.people"]),
        "{seen:#}"
    );
    let table = &seen["table"];
    assert_eq!(ref_names(table), ["dev", "main", "main@1.0"], "{table:#}");
    let reads = &table["reads"];
    assert_eq!(ids(&reads["main"]["rows"]), [1, 2, 3, 4, 5], "{table:#}");
    assert_eq!(ids(&reads["main@1.0"]["rows"]), [1, 2, 3], "{table:#}");
    for reference in ["main", "dev", "main@1.0"] {
        let own = direct(&data, "shop.people", reference);
        assert_eq!(
            ids(&reads[reference]["rows"]),
            ids(&own["rows"]),
            "{reference}: {table:#}\n{own:#}"
        );
        assert_eq!(reads[reference]["snapshot_id"], own["snapshot_id"]);
    }
    let numbers = pyiceberg_rest(&server, None, &["--table", "shop.numbers"]);
    assert_eq!(
        ids(&numbers["table"]["reads"]["main"]["rows"]),
        [0, 1, 2, 3, 4]
    );

    // DuckDB: the same tables; the current snapshot (main), the version and the branch by
    // their snapshot ids.
    let version_id = reads["main@1.0"]["snapshot_id"]
        .as_i64()
        .unwrap()
        .to_string();
    let dev_id = reads["dev"]["snapshot_id"].as_i64().unwrap().to_string();
    let duck = duckdb_rest(
        &server,
        None,
        &[
            "--table",
            "shop.people",
            "--snapshot-id",
            &version_id,
            "--snapshot-id",
            &dev_id,
        ],
    );
    assert_eq!(
        names(&duck["tables"]),
        set(&["shop.numbers", "shop.people"]),
        "{duck:#}"
    );
    assert_eq!(ids(&duck["reads"]["current"]["rows"]), [1, 2, 3, 4, 5]);
    assert_eq!(ids(&duck["reads"][&version_id]["rows"]), [1, 2, 3]);
    assert_eq!(
        ids(&duck["reads"][&dev_id]["rows"]),
        ids(&reads["dev"]["rows"])
    );
}

/// The policy of the privacy test: readers read `closed` and `mixed`; the admin pushes.
const POLICY: &str = r#"
[authz.grants]
"readers" = [{ namespaces = ["closed", "mixed"], access = "read" }]
"admins" = [{ namespaces = ["*"], access = "admin" }]
"#;

fn admin() -> OidcUser {
    OidcUser::new("admin", "admin-password").with_roles(&["admins", "protected-write"])
}

fn reader() -> OidcUser {
    OidcUser::new("reader", "reader-password").with_roles(&["readers"])
}

fn outsider() -> OidcUser {
    OidcUser::new("outsider", "outsider-password").with_roles(&["outsiders"])
}

fn login(provider: &OidcProvider, user: &OidcUser) -> String {
    provider.login(user, &AuthorizationRequest::new(40_132))["access_token"]
        .as_str()
        .expect("an access token")
        .to_owned()
}

async fn push_public(
    server: &Server,
    token: &str,
    namespace: &str,
    branch: &str,
    public: bool,
    version: Option<&str>,
    datasets: &[Dataset],
) {
    let (mut m, contents) = manifest(namespace, branch, yes(), version, datasets);
    m["package"]["public"] = json!(public);
    push_as(server, token, &m, &contents).await;
}

/// The error pyiceberg raised, by its class name.
fn error_type(value: &Value) -> &str {
    value["error"]["type"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {value:#}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_tables_and_branches_are_invisible_without_read_access() {
    let provider = OidcProvider::start(
        OidcConfig::default()
            .with_user(admin())
            .with_user(reader())
            .with_user(outsider()),
    );
    let site = Site::with_config(&format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n{POLICY}",
        provider.issuer(),
        provider.config().resource
    ));
    let server = site.start();
    let admin = login(&provider, &admin());
    let reader = login(&provider, &reader());
    let outsider = login(&provider, &outsider());
    // open: public; closed: private; mixed: main public, dev private with version 0.1.
    push_public(&server, &admin, "open", "main", true, None, &[people(&[1])]).await;
    push_public(
        &server,
        &admin,
        "closed",
        "main",
        false,
        None,
        &[people(&[2])],
    )
    .await;
    push_public(
        &server,
        &admin,
        "mixed",
        "main",
        true,
        None,
        &[people(&[3])],
    )
    .await;
    push_public(
        &server,
        &admin,
        "mixed",
        "dev",
        false,
        Some("0.1"),
        &[people(&[7, 8, 9])],
    )
    .await;

    for (who, token) in [("anonymous", None), ("outsider", Some(outsider.as_str()))] {
        let seen = pyiceberg_rest(&server, token, &["--table", "mixed.people"]);
        assert_eq!(
            seen["namespaces"],
            json!(["mixed", "open"]),
            "{who}: {seen:#}"
        );
        let table = &seen["table"];
        assert_eq!(
            ref_names(table),
            ["main"],
            "{who} sees only the public branch of mixed: {table:#}"
        );
        let main = table["refs"]["main"].as_i64().unwrap();
        assert_eq!(
            table["snapshot_ids"],
            json!([main]),
            "{who}: no snapshot of the private branch: {table:#}"
        );
        assert_eq!(ids(&table["reads"]["main"]["rows"]), [3]);
        let closed = pyiceberg_rest(&server, token, &["--table", "closed.people"]);
        let expected = if token.is_some() {
            "ForbiddenError"
        } else {
            "UnauthorizedError"
        };
        assert_eq!(error_type(&closed["table"]), expected, "{who}: {closed:#}");
        let duck = duckdb_rest(&server, token, &[]);
        assert_eq!(
            names(&duck["tables"]),
            set(&["mixed.people", "open.people"]),
            "{who}: {duck:#}"
        );
    }
    // The refusals say nothing about what exists: a namespace that does not exist is
    // refused as a private one is, in the REST spec's error shape.
    for path in [
        "/iceberg/v1/namespaces/closed",
        "/iceberg/v1/namespaces/closed/tables",
        "/iceberg/v1/namespaces/closed/tables/people",
        "/iceberg/v1/namespaces/nothing",
        "/iceberg/v1/namespaces/nothing/tables/people",
    ] {
        let answer = send(&server, "GET", path, None, None).await;
        assert_eq!(answer.status, 401, "{path}: {:#}", answer.body);
        assert_eq!(answer.body["error"]["type"], "NotAuthorizedException");
        assert_eq!(answer.body["error"]["code"], 401);
        assert_eq!(answer.body["error"]["stone_code"], "auth.required");
        let answer = send(&server, "GET", path, Some(&outsider), None).await;
        assert_eq!(answer.status, 403, "{path}: {:#}", answer.body);
        assert_eq!(answer.body["error"]["type"], "ForbiddenException");
    }

    // With read access: everything, the private branch and its version included.
    let seen = pyiceberg_rest(
        &server,
        Some(&reader),
        &[
            "--table",
            "mixed.people",
            "--ref",
            "dev",
            "--ref",
            "dev@0.1",
        ],
    );
    assert_eq!(
        names(&seen["namespaces"]),
        set(&["closed", "mixed", "open"]),
        "{seen:#}"
    );
    let table = &seen["table"];
    assert_eq!(ref_names(table), ["dev", "dev@0.1", "main"], "{table:#}");
    assert_eq!(
        ids(&table["reads"]["dev@0.1"]["rows"]),
        ids(&table["reads"]["dev"]["rows"])
    );
    assert!(
        ids(&table["reads"]["dev"]["rows"]).contains(&7),
        "{table:#}"
    );
    let closed = pyiceberg_rest(&server, Some(&reader), &["--table", "closed.people"]);
    assert_eq!(ids(&closed["table"]["reads"]["main"]["rows"]), [2]);
    let duck = duckdb_rest(&server, Some(&reader), &["--table", "closed.people"]);
    assert_eq!(
        names(&duck["tables"]),
        set(&["closed.people", "mixed.people", "open.people"]),
        "{duck:#}"
    );
    assert_eq!(ids(&duck["reads"]["current"]["rows"]), [2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_through_the_catalog_are_refused() {
    let site = Site::new();
    let server = site.start();
    let (m, contents) = manifest("shop", "main", yes(), None, &[people(&[1])]);
    server.push(&m, &contents).await;
    let table = json!({"name": "t", "schema": {"type": "struct", "schema-id": 0, "fields": []}});
    for (method, path, body) in [
        (
            "POST",
            "/iceberg/v1/namespaces",
            json!({"namespace": ["x"]}),
        ),
        ("DELETE", "/iceberg/v1/namespaces/shop", json!({})),
        (
            "POST",
            "/iceberg/v1/namespaces/shop/properties",
            json!({"updates": {"a": "b"}}),
        ),
        ("POST", "/iceberg/v1/namespaces/shop/tables", table),
        (
            "POST",
            "/iceberg/v1/namespaces/shop/tables/people",
            json!({"requirements": [], "updates": []}),
        ),
        (
            "DELETE",
            "/iceberg/v1/namespaces/shop/tables/people",
            json!({}),
        ),
        (
            "POST",
            "/iceberg/v1/namespaces/shop/register",
            json!({"name": "t", "metadata-location": "file:///etc/passwd"}),
        ),
        (
            "POST",
            "/iceberg/v1/tables/rename",
            json!({"source": {"namespace": ["shop"], "name": "people"},
                   "destination": {"namespace": ["shop"], "name": "p2"}}),
        ),
        (
            "POST",
            "/iceberg/v1/transactions/commit",
            json!({"table-changes": []}),
        ),
    ] {
        let answer = send(&server, method, path, None, Some(&body)).await;
        assert_eq!(answer.status, 403, "{method} {path}: {:#}", answer.body);
        let error = &answer.body["error"];
        assert_eq!(error["type"], "ForbiddenException", "{method} {path}");
        assert_eq!(error["code"], 403);
        assert_eq!(error["stone_code"], "iceberg.read_only");
        assert!(
            error["message"].as_str().unwrap().contains("stone push"),
            "{error:#}"
        );
    }
    // Nothing changed: the table is there, as pushed.
    let seen = pyiceberg_rest(&server, None, &["--table", "shop.people"]);
    assert_eq!(names(&seen["tables"]["shop"]), set(&["shop.people"]));
    assert_eq!(ids(&seen["table"]["reads"]["main"]["rows"]), [1]);
    // HEAD says whether a namespace or table exists (the spec's existence checks).
    for (path, expected) in [
        ("/iceberg/v1/namespaces/shop", 200),
        ("/iceberg/v1/namespaces/shop/tables/people", 200),
        ("/iceberg/v1/namespaces/shop/tables/nothing", 404),
        ("/iceberg/v1/namespaces/nothing", 404),
    ] {
        let answer = client().head(server.url(path)).send().await.unwrap();
        assert_eq!(answer.status(), expected, "HEAD {path}");
    }
    // The config lists the read endpoints only.
    let config = send(&server, "GET", "/iceberg/v1/config", None, None).await;
    assert_eq!(config.status, 200);
    let endpoints = names(&config.body["endpoints"]);
    assert!(
        endpoints
            .iter()
            .all(|e| e.starts_with("GET ") || e.starts_with("HEAD "))
    );
    assert!(endpoints.contains("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}"));
}

/// A namespace may be called `iceberg`: its dataset IRIs (`/iceberg/{name}`, two
/// segments) and the catalog's routes (`/iceberg/v1/…`, three or more) never meet, even
/// for a dataset called `v1`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_namespace_called_iceberg_keeps_its_iris_and_the_catalog_its_routes() {
    let site = Site::new();
    let server = site.start();
    let v1 = Dataset::new(
        "v1",
        "BLOB",
        vec![File::new("v1.txt", b"a dataset called v1\n".to_vec())],
    );
    let (m, contents) = manifest("iceberg", "main", yes(), None, &[people(&[1, 2]), v1]);
    server.push(&m, &contents).await;
    let http = client();
    let text = http
        .get(server.url("/iceberg/v1"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(text, "a dataset called v1\n");
    let iri = http
        .get(server.url("/iceberg/people"))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(iri.status(), 200);
    let info: Value = iri.json().await.unwrap();
    assert_eq!(info["name"], "people", "{info:#}");
    let seen = pyiceberg_rest(&server, None, &["--table", "iceberg.people"]);
    assert_eq!(names(&seen["namespaces"]), set(&["iceberg"]), "{seen:#}");
    assert_eq!(names(&seen["tables"]["iceberg"]), set(&["iceberg.people"]));
    assert_eq!(ids(&seen["table"]["reads"]["main"]["rows"]), [1, 2]);
}

/// An S3 warehouse (SeaweedFS): pyiceberg reads every ref through the catalog with no
/// storage keys at all: `loadTable` turns on remote signing, and the table's signer
/// answers presigned URLs for reads of that table's files only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_s3_warehouse_is_read_through_the_signer_without_storage_keys() {
    let seaweed = SeaweedFs::shared();
    let bucket = format!(
        "stone-rest-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    seaweed.create_bucket(&bucket);
    let site = Site::with_config(&format!(
        "[iceberg]\nwarehouse = \"s3://{bucket}/warehouse\"\n[iceberg.s3]\nendpoint = \"{}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    ));
    let server = site.start();
    let first = people(&[1, 2, 3]);
    let data_file = first.files[0].sha256();
    let (m, contents) = manifest("shop", "main", yes(), Some("1.0"), &[first]);
    server.push(&m, &contents).await;
    let (m, contents) = manifest("shop", "main", yes(), None, &[people(&[4])]);
    server.push(&m, &contents).await;
    let (m, contents) = manifest("shop", "dev", yes(), None, &[people(&[9])]);
    server.push(&m, &contents).await;

    // The signer: reads of the table's files, nothing else.
    let loaded = send(
        &server,
        "GET",
        "/iceberg/v1/namespaces/shop/tables/people",
        None,
        None,
    )
    .await;
    assert_eq!(loaded.body["config"]["s3.remote-signing-enabled"], "true");
    let location = loaded.body["metadata"]["location"].as_str().unwrap();
    let key = location.strip_prefix(&format!("s3://{bucket}/")).unwrap();
    let object = |key: &str| format!("{}/{bucket}/{key}", seaweed.endpoint());
    let sign = "/iceberg/v1/namespaces/shop/tables/people/sign";
    let data = object(&format!("{key}/data/{data_file}.parquet"));
    let signed = send(
        &server,
        "POST",
        sign,
        None,
        Some(&json!({"method": "GET", "uri": data, "region": seaweed.region(), "headers": {}})),
    )
    .await;
    assert_eq!(signed.status, 200, "{:#}", signed.body);
    assert_eq!(signed.body["uri"], data.as_str());
    let mut request = client().get(&data);
    for (name, values) in signed.body["headers"].as_object().unwrap() {
        request = request.header(name.as_str(), values[0].as_str().unwrap());
    }
    let bytes = request.send().await.unwrap();
    assert_eq!(bytes.status(), 200);
    assert_eq!(&bytes.bytes().await.unwrap()[..4], b"PAR1");
    let metadata_file = loaded.body["metadata-location"]
        .as_str()
        .unwrap()
        .strip_prefix(&format!("s3://{bucket}/"))
        .unwrap()
        .to_owned();
    for (method, uri) in [
        ("PUT", data.clone()),
        ("DELETE", data.clone()),
        ("GET", object(&metadata_file)),
        ("GET", object("warehouse/shop/other/data/x.parquet")),
        ("GET", object(&format!("{key}/../../other/data/x.parquet"))),
        ("GET", format!("{data}?acl")),
        (
            "GET",
            format!("http://elsewhere.test/{bucket}/{key}/data/{data_file}.parquet"),
        ),
    ] {
        let answer = send(
            &server,
            "POST",
            sign,
            None,
            Some(&json!({"method": method, "uri": uri, "region": seaweed.region(), "headers": {}})),
        )
        .await;
        assert_eq!(answer.status, 403, "{method} {uri}: {:#}", answer.body);
        assert_eq!(answer.body["error"]["stone_code"], "iceberg.read_only");
    }
    // The reader has no keys: none in its environment, no AWS files.
    let uri = server.url("/iceberg");
    let output = python_script("read_iceberg_rest.py")
        .args([
            "--uri",
            &uri,
            "--table",
            "shop.people",
            "--ref",
            "main",
            "--ref",
            "main@1.0",
            "--ref",
            "dev",
            // pyiceberg asks for vended credentials by default; this test is the signer's.
            "--property",
            "header.X-Iceberg-Access-Delegation=remote-signing",
        ])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("AWS_PROFILE")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
        .env("AWS_CONFIG_FILE", "/nonexistent/config")
        // One request at a time: with pyiceberg's parallel manifest reads, one run in
        // about four had a HEAD refused (403) by SeaweedFS; see docs/readers.md.
        .env("PYICEBERG_MAX_WORKERS", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pyiceberg failed: {}\n--- stone-server log ---\n{}\n--- SeaweedFS log ---\n{}",
        String::from_utf8_lossy(&output.stderr),
        server.log(),
        seaweed.log_tail(30)
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    let table = &seen["table"];
    assert_eq!(table["file_io"], "FsspecFileIO", "{table:#}");
    let log = server.log();
    assert!(
        log.contains("S3 sign request"),
        "pyiceberg used the signer:\n{log}"
    );
    assert!(!log.contains("credentials vended"), "{log}");
    assert!(
        table["metadata_location"]
            .as_str()
            .unwrap()
            .starts_with(&format!("s3://{bucket}/warehouse/shop/people-")),
        "{table:#}"
    );
    let reads = &table["reads"];
    assert_eq!(ids(&reads["main"]["rows"]), [1, 2, 3, 4], "{table:#}");
    assert_eq!(ids(&reads["main@1.0"]["rows"]), [1, 2, 3], "{table:#}");
    assert!(ids(&reads["dev"]["rows"]).contains(&9), "{table:#}");
}

/// `loadTable` asking for vended credentials (`X-Iceberg-Access-Delegation`), as a
/// caller: the status and the answer.
async fn load_vended(server: &Server, table: &str, token: Option<&str>) -> (u16, Value) {
    let (ns, name) = table.split_once('.').unwrap();
    let mut request = client()
        .get(server.url(&format!("/iceberg/v1/namespaces/{ns}/tables/{name}")))
        .header("X-Iceberg-Access-Delegation", "vended-credentials");
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// DuckDB (`read_iceberg_rest_duckdb.py`) with no storage keys of its own: no AWS
/// variables, no AWS files.
fn duckdb_keyless(server: &Server, token: Option<&str>, args: &[&str]) -> Value {
    let uri = server.url("/iceberg");
    let mut all = vec!["--uri", uri.as_str()];
    if let Some(token) = token {
        all.extend(["--token", token]);
    }
    all.extend(args);
    let output = python_script("read_iceberg_rest_duckdb.py")
        .args(&all)
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_ENDPOINT_URL")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
        .env("AWS_CONFIG_FILE", "/nonexistent/config")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "DuckDB failed: {}\n--- stone-server log ---\n{}",
        String::from_utf8_lossy(&output.stderr),
        server.log(),
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// An S3 warehouse (SeaweedFS) read by DuckDB, which does not sign remotely: `loadTable`
/// vends temporary credentials from SeaweedFS's STS, read-only and scoped to the table's
/// prefix, to a caller who may read every branch of the table. DuckDB lists and reads a
/// table on main, a version and a branch with no keys of its own; the credentials of
/// one table read nothing of another and write nothing; a private table is invisible
/// without a token and read with one; a table with a branch the caller may not read
/// gets no credentials (remote signing only).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duckdb_reads_an_s3_warehouse_with_vended_credentials_of_one_table() {
    let seaweed = SeaweedFs::shared();
    let bucket = format!(
        "stone-vend-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    seaweed.create_bucket(&bucket);
    let provider =
        OidcProvider::start(OidcConfig::default().with_user(admin()).with_user(reader()));
    let site = Site::with_config(&format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n{POLICY}\n[iceberg]\nwarehouse = \"s3://{bucket}/warehouse\"\n[iceberg.s3]\nendpoint = \"{}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        provider.issuer(),
        provider.config().resource,
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    ));
    let server = site.start();
    let admin = login(&provider, &admin());
    let reader = login(&provider, &reader());
    let first = people(&[1, 2, 3]);
    let data_file = first.files[0].sha256();
    push_public(
        &server,
        &admin,
        "shop",
        "main",
        true,
        Some("1.0"),
        &[first, numbers(0, 5)],
    )
    .await;
    push_public(&server, &admin, "shop", "main", true, None, &[people(&[4])]).await;
    push_public(&server, &admin, "shop", "dev", true, None, &[people(&[9])]).await;
    push_public(
        &server,
        &admin,
        "closed",
        "main",
        false,
        None,
        &[people(&[2])],
    )
    .await;
    let (mixed_main, mixed_dev) = (people(&[3]), people(&[7]));
    let main_file = mixed_main.files[0].sha256();
    let dev_file = mixed_dev.files[0].sha256();
    push_public(&server, &admin, "mixed", "main", true, None, &[mixed_main]).await;
    push_public(&server, &admin, "mixed", "dev", false, None, &[mixed_dev]).await;

    // The credentials: temporary ones (not the warehouse's keys), for the table's prefix.
    let (status, loaded) = load_vended(&server, "shop.people", None).await;
    assert_eq!(status, 200, "{loaded:#}");
    let config = &loaded["config"];
    let key_id = config["s3.access-key-id"]
        .as_str()
        .unwrap_or_else(|| panic!("no credentials vended: {loaded:#}\n{}", server.log()));
    let secret = config["s3.secret-access-key"].as_str().unwrap();
    let token = config["s3.session-token"].as_str().unwrap();
    assert_ne!(key_id, seaweed.access_key());
    assert_ne!(secret, seaweed.secret_key());
    assert!(!token.is_empty());
    assert_eq!(config["s3.endpoint"], seaweed.endpoint());
    assert!(
        config.get("s3.remote-signing-enabled").is_none(),
        "{config:#}"
    );
    let location = loaded["metadata"]["location"].as_str().unwrap();
    assert_eq!(loaded["storage-credentials"][0]["prefix"], location);
    assert_eq!(loaded["storage-credentials"][0]["config"], *config);
    let body = loaded.to_string();
    assert!(
        !body.contains(seaweed.secret_key()),
        "the warehouse's secret was handed out"
    );

    // What they can do: read that table's files; nothing of another table; no writes,
    // no listing.
    let vended =
        stone_test::services::S3Client::new(seaweed.endpoint(), seaweed.region(), key_id, secret)
            .with_session_token(token);
    let key = location.strip_prefix(&format!("s3://{bucket}/")).unwrap();
    let data = format!("/{bucket}/{key}/data/{data_file}.parquet");
    let read = vended.request("GET", &data, &[], b"").unwrap();
    assert_eq!(read.status, 200, "{}", read.text());
    assert_eq!(&read.body[..4], b"PAR1");
    let (_, numbers_table) = load_vended(&server, "shop.numbers", None).await;
    let numbers_key = numbers_table["metadata"]["location"]
        .as_str()
        .unwrap()
        .strip_prefix(&format!("s3://{bucket}/"))
        .unwrap()
        .to_owned();
    let numbers_files = seaweed.list_objects(&bucket, &format!("{numbers_key}/data/"));
    assert!(!numbers_files.is_empty());
    for (method, path, query) in [
        ("GET", format!("/{bucket}/{}", numbers_files[0]), vec![]),
        ("PUT", format!("/{bucket}/{key}/data/evil.parquet"), vec![]),
        ("DELETE", data.clone(), vec![]),
        (
            "GET",
            format!("/{bucket}"),
            vec![("list-type", "2"), ("prefix", key)],
        ),
    ] {
        let body: &[u8] = if method == "PUT" { b"PAR1" } else { b"" };
        let answer = vended.request(method, &path, &query, body).unwrap();
        assert_eq!(
            answer.status,
            403,
            "{method} {path} with shop.people's credentials: {}",
            answer.text()
        );
    }
    assert!(
        seaweed
            .get_object(&bucket, &format!("{key}/data/evil.parquet"))
            .is_none()
    );
    assert!(
        seaweed
            .get_object(&bucket, &data[bucket.len() + 2..])
            .is_some()
    );

    // A branch the caller may not read: no credentials (they would read it too).
    let (status, mixed) = load_vended(&server, "mixed.people", None).await;
    assert_eq!(status, 200, "{mixed:#}");
    assert!(
        mixed["config"].get("s3.access-key-id").is_none(),
        "{mixed:#}"
    );
    assert!(mixed.get("storage-credentials").is_none(), "{mixed:#}");
    assert_eq!(mixed["config"]["s3.remote-signing-enabled"], "true");
    // Its signer signs main's files for anyone, and the private dev branch's files (its
    // data file, named by its content hash, and its manifest list) only for a reader of
    // dev: knowing a key is not reading the branch.
    let (_, full) = load_vended(&server, "mixed.people", Some(&reader)).await;
    let mixed_key = full["metadata"]["location"]
        .as_str()
        .unwrap()
        .strip_prefix(&format!("s3://{bucket}/"))
        .unwrap()
        .to_owned();
    let dev_head = full["metadata"]["refs"]["dev"]["snapshot-id"].clone();
    let dev_list = full["metadata"]["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["snapshot-id"] == dev_head)
        .and_then(|s| s["manifest-list"].as_str())
        .unwrap_or_else(|| panic!("no manifest list of dev's head: {full:#}"))
        .strip_prefix(&format!("s3://{bucket}/"))
        .unwrap()
        .to_owned();
    let object = |key: &str| format!("{}/{bucket}/{key}", seaweed.endpoint());
    for (token, key, expected) in [
        (None, format!("{mixed_key}/data/{main_file}.parquet"), 200),
        (None, format!("{mixed_key}/data/{dev_file}.parquet"), 403),
        (None, dev_list.clone(), 403),
        (
            Some(&reader),
            format!("{mixed_key}/data/{dev_file}.parquet"),
            200,
        ),
        (Some(&reader), dev_list.clone(), 200),
    ] {
        let answer = send(
            &server,
            "POST",
            "/iceberg/v1/namespaces/mixed/tables/people/sign",
            token.map(String::as_str),
            Some(&json!({"method": "GET", "uri": object(&key), "region": seaweed.region(), "headers": {}})),
        )
        .await;
        assert_eq!(
            answer.status,
            expected,
            "signing {key} for {}: {:#}",
            if token.is_some() {
                "the reader"
            } else {
                "anyone"
            },
            answer.body
        );
        if expected == 200 {
            let mut request = client().get(object(&key));
            for (name, values) in answer.body["headers"].as_object().unwrap() {
                request = request.header(name.as_str(), values[0].as_str().unwrap());
            }
            assert_eq!(request.send().await.unwrap().status(), 200, "{key}");
        } else {
            assert_eq!(answer.body["error"]["stone_code"], "iceberg.read_only");
        }
    }
    // A private table: nothing without a token.
    let (status, closed) = load_vended(&server, "closed.people", None).await;
    assert_eq!(status, 401, "{closed:#}");
    assert!(!closed.to_string().contains("s3.access-key-id"));

    // DuckDB, no keys of its own: main, the version and the branch by snapshot id.
    let refs = &loaded["metadata"]["refs"];
    let version_id = refs["main@1.0"]["snapshot-id"]
        .as_i64()
        .unwrap()
        .to_string();
    let dev_id = refs["dev"]["snapshot-id"].as_i64().unwrap().to_string();
    let duck = duckdb_keyless(
        &server,
        None,
        &[
            "--table",
            "shop.people",
            "--snapshot-id",
            &version_id,
            "--snapshot-id",
            &dev_id,
        ],
    );
    assert_eq!(
        names(&duck["tables"]),
        set(&["mixed.people", "shop.numbers", "shop.people"]),
        "anonymous DuckDB does not see the private table: {duck:#}"
    );
    assert_eq!(
        ids(&duck["reads"]["current"]["rows"]),
        [1, 2, 3, 4],
        "{duck:#}"
    );
    assert_eq!(
        ids(&duck["reads"][&version_id]["rows"]),
        [1, 2, 3],
        "{duck:#}"
    );
    assert!(
        ids(&duck["reads"][&dev_id]["rows"]).contains(&9),
        "{duck:#}"
    );
    let duck = duckdb_keyless(&server, None, &["--table", "shop.numbers"]);
    assert_eq!(ids(&duck["reads"]["current"]["rows"]), [0, 1, 2, 3, 4]);
    // pyiceberg asks for vended credentials by default too, and reads with them.
    let output = python_script("read_iceberg_rest.py")
        .args([
            "--uri",
            &server.url("/iceberg"),
            "--table",
            "shop.people",
            "--ref",
            "main",
            "--ref",
            "main@1.0",
            "--ref",
            "dev",
        ])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_ENDPOINT_URL")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
        .env("AWS_CONFIG_FILE", "/nonexistent/config")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pyiceberg failed: {}\n--- stone-server log ---\n{}",
        String::from_utf8_lossy(&output.stderr),
        server.log()
    );
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    let reads = &seen["table"]["reads"];
    assert_eq!(ids(&reads["main"]["rows"]), [1, 2, 3, 4], "{seen:#}");
    assert_eq!(ids(&reads["main@1.0"]["rows"]), [1, 2, 3], "{seen:#}");
    assert!(ids(&reads["dev"]["rows"]).contains(&9), "{seen:#}");
    // The private table, with a reader's token.
    let duck = duckdb_keyless(&server, Some(&reader), &["--table", "closed.people"]);
    assert!(names(&duck["tables"]).contains("closed.people"), "{duck:#}");
    assert_eq!(ids(&duck["reads"]["current"]["rows"]), [2], "{duck:#}");
}
