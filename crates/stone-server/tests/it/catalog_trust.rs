//! Trust boundaries of the Iceberg REST catalog, third reading (issue 52): what a reader
//! of some branches may get from the catalog, from credentials it vends and from its
//! signer, after a private branch was deleted (hole 2), while one exists (holes 3 and 4),
//! and when one is added after credentials were vended (hole 7, suspected). Tokens come
//! from the test issuer of `api_oidc.rs`; the S3 warehouse is a real SeaweedFS and the
//! readers real pyiceberg processes.

use serde_json::{Value, json};
use stone_test::services::{S3Client, SeaweedFs};
use stone_test::tools::{python_script, run_python_json};

use crate::api_oidc::{AUDIENCE, claims, fake_issuer, now, sign};
use crate::api_support::{
    Dataset, File, Options, Server, Site, client, manifest, people_parquet, sha256_hex,
};
use crate::authz_matrix::{push_as, send};

/// `[authz]`: admins everywhere, readers of the namespace `shop`.
const POLICY: &str = r#"
[authz]
claim = "groups"
[authz.grants]
"admins" = [{ namespaces = ["*"], access = "admin" }]
"readers" = [{ namespaces = ["shop"], access = "read" }]
"#;

/// An hour-long token of the test issuer with `groups` (and the role that pushes to
/// protected refs).
fn token(issuer: &str, sub: &str, groups: &[&str]) -> String {
    let mut claims = claims(issuer, sub, &["protected-write"], "", 10);
    claims["groups"] = json!(groups);
    claims["exp"] = json!(now() + 3600);
    sign(&claims)
}

fn oidc(issuer: &str) -> String {
    format!("[auth]\nmode = \"oidc\"\nissuer = \"{issuer}\"\naudience = \"{AUDIENCE}\"\n{POLICY}")
}

fn people(ids: &[i64]) -> Dataset {
    Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("people.parquet", people_parquet(ids))],
    )
}

fn notes() -> Dataset {
    Dataset::new(
        "notes",
        "BLOB",
        vec![File::new("notes.txt", b"notes\n".to_vec())],
    )
}

/// Pushes `datasets` to `namespace`/`branch` as `token`, the package `public` or not.
async fn push(
    server: &Server,
    token: &str,
    (namespace, branch): (&str, &str),
    public: bool,
    replace: bool,
    datasets: &[Dataset],
) {
    let options = Options {
        yes: true,
        replace,
        ..Options::default()
    };
    let (mut m, contents) = manifest(namespace, branch, options, None, datasets);
    m["package"]["public"] = json!(public);
    push_as(server, token, &m, &contents).await;
}

/// A fresh bucket of the shared SeaweedFS and the server configuration of a warehouse
/// in it.
fn s3_warehouse(prefix: &str) -> (&'static SeaweedFs, String, String) {
    let seaweed = SeaweedFs::shared();
    let bucket = format!(
        "{prefix}-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    seaweed.create_bucket(&bucket);
    let config = format!(
        "[iceberg]\nwarehouse = \"s3://{bucket}/warehouse\"\n[iceberg.s3]\nendpoint = \"{}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
        seaweed.endpoint(),
        seaweed.region(),
        seaweed.access_key(),
        seaweed.secret_key()
    );
    (seaweed, bucket, config)
}

/// `loadTable` asking for vended credentials: status and answer.
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

/// The vended credentials of a `loadTable` answer as an S3 client, and as pyiceberg
/// properties (`KEY=VALUE`).
fn vended(seaweed: &SeaweedFs, loaded: &Value) -> (S3Client, Vec<String>) {
    let config = &loaded["config"];
    let key_id = config["s3.access-key-id"]
        .as_str()
        .unwrap_or_else(|| panic!("no credentials vended: {loaded:#}"));
    let client = S3Client::new(
        seaweed.endpoint(),
        seaweed.region(),
        key_id,
        config["s3.secret-access-key"].as_str().unwrap(),
    )
    .with_session_token(config["s3.session-token"].as_str().unwrap());
    let properties = config
        .as_object()
        .unwrap()
        .iter()
        .filter_map(|(key, value)| Some(format!("{key}={}", value.as_str()?)))
        .collect();
    (client, properties)
}

/// pyiceberg's `StaticTable` on one metadata file with `properties` (the vended
/// credentials): the snapshots it lists and the rows of `snapshots`.
fn static_read(metadata_location: &str, properties: &[String], snapshots: &[i64]) -> Value {
    let mut args = vec![
        "--metadata-location".to_owned(),
        metadata_location.to_owned(),
    ];
    for property in properties {
        args.extend(["--property".to_owned(), property.clone()]);
    }
    for id in snapshots {
        args.extend(["--snapshot-id".to_owned(), id.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = python_script("read_iceberg_static.py")
        .args(&args)
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_SESSION_TOKEN")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_ENDPOINT_URL")
        .env("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")
        .env("AWS_CONFIG_FILE", "/nonexistent/config")
        .env("PYICEBERG_MAX_WORKERS", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "read_iceberg_static.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn row_ids(read: &Value) -> Vec<i64> {
    let mut ids: Vec<i64> = read["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {read:#}"))
        .iter()
        .map(|row| row["id"].as_i64().unwrap())
        .collect();
    ids.sort();
    ids
}

/// The S3 key of `uri` (`s3://<bucket>/<key>`).
fn key_of<'a>(bucket: &str, uri: &'a str) -> &'a str {
    uri.strip_prefix(&format!("s3://{bucket}/"))
        .unwrap_or_else(|| panic!("{uri} is not in {bucket}"))
}

/// The manifest list of snapshot `id` in a `loadTable` answer.
fn manifest_list(loaded: &Value, id: i64) -> String {
    loaded["metadata"]["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["snapshot-id"] == id)
        .and_then(|s| s["manifest-list"].as_str())
        .unwrap_or_else(|| panic!("no snapshot {id}: {loaded:#}"))
        .to_owned()
}

/// Hole 2: a public `main` and a private `dev` of one table on an S3 warehouse; `dev`'s
/// dataset is deleted (`--replace` without it). Then a public reader gets credentials
/// for the table's prefix (every remaining branch is public), and before the fix they
/// read the raw metadata file `loadTable` names, which still listed `dev`'s snapshots,
/// and pyiceberg scanned the deleted rows. Now nothing of `dev` is left there: no
/// snapshot in the current metadata, no older metadata file naming it, none of its
/// files; no object a vended or signed request reads holds the deleted bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_2_a_deleted_private_branch_leaves_nothing_credentials_or_the_signer_read() {
    let (seaweed, bucket, warehouse) = s3_warehouse("stone-expunge");
    let issuer = fake_issuer();
    let site = Site::with_config(&format!("{}{warehouse}", oidc(&issuer)));
    let server = site.start();
    let admin = token(&issuer, "admin", &["admins"]);
    let reader = token(&issuer, "reader", &["readers"]);
    push(
        &server,
        &admin,
        ("shop", "main"),
        true,
        false,
        &[people(&[3])],
    )
    .await;
    let private = people(&[7, 8, 9]);
    let private_bytes = private.files[0].bytes.clone();
    let private_file = private.files[0].sha256();
    push(
        &server,
        &admin,
        ("shop", "dev"),
        false,
        false,
        &[private, notes()],
    )
    .await;

    // While dev exists: no credentials for a public reader.
    let (status, before) = load_vended(&server, "shop.people", None).await;
    assert_eq!(status, 200, "{before:#}");
    assert!(
        before["config"].get("s3.access-key-id").is_none(),
        "{before:#}"
    );
    // A reader of dev gets them, and with them the raw metadata file and dev's rows:
    // the way in of hole 2, while it is still allowed.
    let (_, full) = load_vended(&server, "shop.people", Some(&reader)).await;
    let old_metadata = full["metadata-location"].as_str().unwrap().to_owned();
    let dev_head = full["metadata"]["refs"]["dev"]["snapshot-id"]
        .as_i64()
        .unwrap_or_else(|| panic!("dev is a ref: {full:#}"));
    let dev_list = manifest_list(&full, dev_head);
    let location = full["metadata"]["location"].as_str().unwrap().to_owned();
    let table_key = key_of(&bucket, &location).to_owned();
    let dev_data = format!("{table_key}/data/{private_file}.parquet");
    let (_, reader_properties) = vended(seaweed, &full);
    let seen = static_read(&old_metadata, &reader_properties, &[dev_head]);
    let rows = row_ids(&seen["reads"][dev_head.to_string()]);
    assert!(
        [7, 8, 9].iter().all(|id| rows.contains(id)),
        "the reader of dev reads it: {seen:#}"
    );

    // dev's `people` is deleted.
    push(&server, &admin, ("shop", "dev"), false, true, &[notes()]).await;

    let (status, after) = load_vended(&server, "shop.people", None).await;
    assert_eq!(status, 200, "{after:#}");
    assert_eq!(
        after["metadata"]["refs"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["main"],
        "{after:#}"
    );
    let (credentials, properties) = vended(seaweed, &after);
    // The metadata file loadTable names lists nothing of dev, and the older one that
    // did is gone: pyiceberg reads no deleted row through either.
    let current = after["metadata-location"].as_str().unwrap();
    let seen = static_read(current, &properties, &[dev_head]);
    assert!(
        !seen["snapshot_ids"]
            .as_array()
            .unwrap_or_else(|| panic!("the current metadata opens: {seen:#}"))
            .contains(&json!(dev_head)),
        "the current metadata still lists dev's head: {seen:#}"
    );
    assert!(
        seen["reads"][dev_head.to_string()].get("error").is_some(),
        "{seen:#}"
    );
    let seen = static_read(&old_metadata, &properties, &[dev_head]);
    assert!(
        seen.get("error").is_some(),
        "the older metadata file naming dev is still readable: {seen:#}"
    );
    // Every object under the table's prefix, read with the vended credentials: none
    // holds the deleted rows' file, none names dev's snapshot or manifest list.
    let objects = seaweed.list_objects(&bucket, &format!("{table_key}/"));
    assert!(!objects.is_empty());
    assert!(!objects.contains(&dev_data), "{objects:#?}");
    assert!(
        !objects.iter().any(|o| dev_list.ends_with(o.as_str())),
        "{objects:#?}"
    );
    let mut read = 0;
    for key in &objects {
        let answer = credentials
            .request("GET", &format!("/{bucket}/{key}"), &[], b"")
            .unwrap();
        assert_eq!(answer.status, 200, "{key}: {}", answer.text());
        read += 1;
        assert_ne!(answer.body, private_bytes, "{key} holds the deleted rows");
        let text = String::from_utf8_lossy(&answer.body);
        assert!(
            !text.contains(&dev_head.to_string()) && !text.contains(key_of(&bucket, &dev_list)),
            "{key} names the deleted branch's snapshot"
        );
    }
    assert!(read >= 3, "the table's files were read: {objects:#?}");
    // The signer signs a public reader's read of dev's former files; they are gone.
    let object = |key: &str| format!("{}/{bucket}/{key}", seaweed.endpoint());
    for key in [dev_data.clone(), key_of(&bucket, &dev_list).to_owned()] {
        let signed = send(
            &server,
            "POST",
            "/iceberg/v1/namespaces/shop/tables/people/sign",
            None,
            Some(&json!({"method": "GET", "uri": object(&key), "region": seaweed.region(), "headers": {}})),
        )
        .await;
        if signed.status != 200 {
            continue;
        }
        let mut request = client().get(object(&key));
        for (name, values) in signed.body["headers"].as_object().unwrap() {
            request = request.header(name.as_str(), values[0].as_str().unwrap());
        }
        let got = request.send().await.unwrap();
        assert_ne!(got.status(), 200, "a signed read of {key} answered");
    }
    // And main reads as before, through the catalog, with those credentials.
    let seen = run_python_json(
        "read_iceberg_rest.py",
        &["--uri", &server.url("/iceberg"), "--table", "shop.people"],
    );
    assert_eq!(row_ids(&seen["table"]["reads"]["main"]), [3], "{seen:#}");
}

/// Hole 7 (suspected), settled with a test that holds: credentials vended while every
/// branch of a table was public still work for 15 minutes after a private branch is
/// pushed to it. They read only objects whose names the holder knows, and they cannot
/// list: the private branch's metadata file, manifest list and manifests are named with a
/// random UUID (at least 74 random bits; the holder never saw them), and its data files by the sha256 of their
/// bytes (only someone who already has the content can name one). Every name the
/// holder could have learnt (everything its `loadTable` and the files it named showed)
/// leads to nothing of the private branch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suspected_credentials_vended_before_a_private_branch_do_not_reach_it() {
    let (seaweed, bucket, warehouse) = s3_warehouse("stone-later");
    let issuer = fake_issuer();
    let site = Site::with_config(&format!("{}{warehouse}", oidc(&issuer)));
    let server = site.start();
    let admin = token(&issuer, "admin", &["admins"]);
    push(
        &server,
        &admin,
        ("shop", "main"),
        true,
        false,
        &[people(&[1, 2])],
    )
    .await;
    let (status, early) = load_vended(&server, "shop.people", None).await;
    assert_eq!(status, 200, "{early:#}");
    let (credentials, _) = vended(seaweed, &early);
    let location = early["metadata"]["location"].as_str().unwrap().to_owned();
    let table_key = key_of(&bucket, &location).to_owned();
    let before: Vec<String> = seaweed.list_objects(&bucket, &format!("{table_key}/"));

    let private = people(&[40, 41]);
    let private_bytes = private.files[0].bytes.clone();
    push(
        &server,
        &admin,
        ("shop", "secret"),
        false,
        false,
        &[private],
    )
    .await;
    let added: Vec<String> = seaweed
        .list_objects(&bucket, &format!("{table_key}/"))
        .into_iter()
        .filter(|key| !before.contains(key))
        .collect();
    assert!(
        added.len() >= 3,
        "the private branch wrote files: {added:?}"
    );
    // No listing with the credentials.
    let listing = credentials
        .request(
            "GET",
            &format!("/{bucket}"),
            &[("list-type", "2"), ("prefix", table_key.as_str())],
            b"",
        )
        .unwrap();
    assert_eq!(listing.status, 403, "{}", listing.text());
    // Every object the holder could name (the ones that existed when it got the
    // credentials) holds nothing of the private branch.
    for key in &before {
        let answer = credentials
            .request("GET", &format!("/{bucket}/{key}"), &[], b"")
            .unwrap();
        assert_eq!(answer.status, 200, "{key}");
        assert_ne!(answer.body, private_bytes);
        let text = String::from_utf8_lossy(&answer.body);
        for new in &added {
            let name = new.rsplit('/').next().unwrap();
            assert!(!text.contains(name), "{key} names {new}");
        }
    }
    // The private branch's new names: a random UUID in each but the data file, which is
    // the sha256 of its bytes.
    for key in &added {
        let name = key.rsplit('/').next().unwrap();
        if let Some(hash) = name.strip_suffix(".parquet") {
            assert_eq!(hash, sha256_hex(&private_bytes), "{key}");
        } else {
            assert!(holds_uuid(name), "{key} carries no random UUID");
        }
    }
}

/// Whether `name` holds a UUID written as 8-4-4-4-12 hex digits: metadata files (v4),
/// manifest lists and manifests (v7: a time and 74 random bits) are named with one.
fn holds_uuid(name: &str) -> bool {
    let bytes = name.as_bytes();
    (0..bytes.len().saturating_sub(35)).any(|start| {
        let part = &name[start..start + 36];
        part.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
    })
}

/// What a private branch's names hold in the tests of holes 3 and 4.
const MARKER: &str = "zqxmarker";

/// The field ids of a schema (Iceberg JSON), nested ones included.
fn field_ids(value: &Value, ids: &mut Vec<i64>) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object {
                if matches!(key.as_str(), "id" | "element-id" | "key-id" | "value-id")
                    && let Some(id) = inner.as_i64()
                {
                    ids.push(id);
                }
                field_ids(inner, ids);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| field_ids(item, ids)),
        _ => {}
    }
}

/// The names of a name mapping (JSON text), nested ones included.
fn mapped_names(value: &Value, names: &mut Vec<String>) {
    for field in value.as_array().into_iter().flatten() {
        for name in field["names"].as_array().into_iter().flatten() {
            names.push(name.as_str().unwrap_or_default().to_owned());
        }
        mapped_names(&field["fields"], names);
    }
}

/// An answer as the bytes that matter: status, content type, `WWW-Authenticate`, body
/// with `name` written as `{name}`.
async fn shape(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    name: &str,
) -> String {
    let mut request = client().request(method.parse().unwrap(), server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let header = |h: &str| {
        response
            .headers()
            .get(h)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let head = format!(
        "{} {} {}",
        response.status(),
        header("content-type"),
        header("www-authenticate")
    );
    let body = response.text().await.unwrap_or_default();
    format!("{head}\n{}", body.replace(name, "{name}"))
}

/// Holes 3 and 4: a public `main` and a private branch `dev-zqxmarker` whose `people`
/// has one more column (`zqxmarker_note`), and a table `zqxmarker-only` on the private
/// branch alone. A public reader (anonymous, or a token with no grant):
///
/// - hole 3: `loadTable` of `people` holds nothing of the private branch: no marker in
///   any schema, the name mapping or a property; `last-column-id`,
///   `last-sequence-number` and `last-updated-ms` describe what it shows (before the
///   fix they were the private branch's, and the schemas and mapping named its column);
/// - hole 4: `zqxmarker-only` is answered byte for byte as a table that does not exist,
///   on the catalog and on the `/v1` API (before the fix the catalog answered 401 naming
///   the private branch, and a missing table 404).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_3_and_4_a_public_reader_gets_nothing_of_a_private_branch_from_the_catalog() {
    let issuer = fake_issuer();
    let site = Site::with_config(&oidc(&issuer));
    let server = site.start();
    let admin = token(&issuer, "admin", &["admins"]);
    let other = token(&issuer, "other", &["outsiders"]);
    push(
        &server,
        &admin,
        ("shop", "main"),
        true,
        false,
        &[people(&[1, 2])],
    )
    .await;
    let branch = format!("dev-{MARKER}");
    let marked = Dataset::new(
        "people",
        "TABULAR",
        vec![File::new(
            "people.parquet",
            crate::api_support::people_with_column(&[5, 6], &format!("{MARKER}_note")),
        )],
    );
    let only = Dataset::new(
        &format!("{MARKER}-only"),
        "TABULAR",
        vec![File::new("only.parquet", people_parquet(&[9]))],
    );
    push(
        &server,
        &admin,
        ("shop", &branch),
        false,
        false,
        &[marked, only],
    )
    .await;
    // The reader of the private branch sees it all (the fixture is what it says).
    let full = send(
        &server,
        "GET",
        "/iceberg/v1/namespaces/shop/tables/people",
        Some(&admin),
        None,
    )
    .await;
    assert!(full.body.to_string().contains(MARKER), "{:#}", full.body);

    for (who, token) in [("anonymous", None), ("other", Some(other.as_str()))] {
        let loaded = send(
            &server,
            "GET",
            "/iceberg/v1/namespaces/shop/tables/people",
            token,
            None,
        )
        .await;
        assert_eq!(loaded.status, 200, "{who}: {:#}", loaded.body);
        assert!(
            !loaded.body.to_string().contains(MARKER),
            "{who}: the answer names the private branch's column or branch:\n{:#}",
            loaded.body
        );
        let metadata = &loaded.body["metadata"];
        let mut ids = Vec::new();
        field_ids(&metadata["schemas"], &mut ids);
        assert_eq!(
            metadata["last-column-id"].as_i64(),
            ids.iter().max().copied(),
            "{who}: {metadata:#}"
        );
        let snapshots = metadata["snapshots"].as_array().unwrap();
        assert!(!snapshots.is_empty());
        let most = |key: &str| snapshots.iter().filter_map(|s| s[key].as_i64()).max();
        assert_eq!(
            metadata["last-sequence-number"].as_i64(),
            most("sequence-number"),
            "{who}: {metadata:#}"
        );
        assert_eq!(
            metadata["last-updated-ms"].as_i64(),
            most("timestamp-ms"),
            "{who}: {metadata:#}"
        );
        let properties = metadata["properties"].as_object().unwrap();
        for key in properties.keys() {
            assert!(
                matches!(
                    key.as_str(),
                    "write.format.default" | "schema.name-mapping.default"
                ),
                "{who}: property {key} is not one the catalog lists"
            );
        }
        let mapping: Value =
            serde_json::from_str(properties["schema.name-mapping.default"].as_str().unwrap())
                .unwrap();
        let mut names = Vec::new();
        mapped_names(&mapping, &mut names);
        names.sort();
        assert_eq!(names, ["id", "name"], "{who}: {mapping:#}");

        // Hole 4: the table on the private branch alone, as a missing one.
        let hidden = format!("{MARKER}-only");
        for (method, hidden_path, missing_path) in [
            (
                "GET",
                format!("/iceberg/v1/namespaces/shop/tables/{hidden}"),
                "/iceberg/v1/namespaces/shop/tables/nothing-only".to_owned(),
            ),
            (
                "HEAD",
                format!("/iceberg/v1/namespaces/shop/tables/{hidden}"),
                "/iceberg/v1/namespaces/shop/tables/nothing-only".to_owned(),
            ),
            (
                "GET",
                format!("/v1/namespaces/shop/datasets/{hidden}"),
                "/v1/namespaces/shop/datasets/nothing-only".to_owned(),
            ),
            (
                "GET",
                format!("/v1/namespaces/shop/datasets/{hidden}/content"),
                "/v1/namespaces/shop/datasets/nothing-only/content".to_owned(),
            ),
            (
                "GET",
                format!("/shop/{hidden}"),
                "/shop/nothing-only".to_owned(),
            ),
        ] {
            let seen = shape(&server, method, &hidden_path, token, &hidden).await;
            let missing = shape(&server, method, &missing_path, token, "nothing-only").await;
            assert_eq!(
                seen, missing,
                "{who}: {method} {hidden_path} is not answered as a missing table"
            );
            assert!(!seen.contains(MARKER), "{who}: {seen}");
        }
    }
}
