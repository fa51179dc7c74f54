//! The Iceberg warehouse on S3-compatible storage (issue 9 part 1): `stone package push`
//! of a CSV to a `stone-server` whose `[iceberg] warehouse` is an `s3://` bucket of a real
//! SeaweedFS (staging on S3 too). Data files, manifests and metadata JSON land in the
//! bucket and nothing under the data directory's warehouse; the table is read back through
//! the server's content API and by pyiceberg (SqlCatalog on the SQLite catalog, pyarrow's
//! S3 file system); a second push appends on the branch, a third changes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{SeaweedFs, StoneServer};
use stone_test::tools::{asset, python};

const HOST: &str = "lake.test";

/// The server's configuration: staging and warehouse in two buckets of `seaweed`.
pub(crate) fn s3_config(seaweed: &SeaweedFs, staging_bucket: &str, warehouse: &str) -> String {
    format!(
        "public_host = \"{HOST}\"\n\
         [staging]\nstore = \"s3\"\npart_size = 5242880\n\
         [staging.s3]\nendpoint = \"{endpoint}\"\nbucket = \"{staging_bucket}\"\nprefix = \"uploads/\"\n\
         region = \"{region}\"\naccess_key_id = \"{key}\"\nsecret_access_key = \"{secret}\"\nallow_http = true\n\
         [iceberg]\nwarehouse = \"{warehouse}\"\n\
         [iceberg.s3]\nendpoint = \"{endpoint}\"\nregion = \"{region}\"\naccess_key_id = \"{key}\"\n\
         secret_access_key = \"{secret}\"\nallow_http = true\n",
        endpoint = seaweed.endpoint(),
        region = seaweed.region(),
        key = seaweed.access_key(),
        secret = seaweed.secret_key(),
    )
}

/// pyiceberg's FileIO properties for the warehouse on `seaweed`.
pub(crate) fn pyiceberg_properties(seaweed: &SeaweedFs) -> Vec<String> {
    [
        ("s3.endpoint", seaweed.endpoint()),
        ("s3.access-key-id", seaweed.access_key()),
        ("s3.secret-access-key", seaweed.secret_key()),
        ("s3.region", seaweed.region()),
    ]
    .iter()
    .flat_map(|(key, value)| ["--property".to_owned(), format!("{key}={value}")])
    .collect()
}

/// A pyiceberg reader process: no AWS settings of the environment (this machine's
/// `AWS_CA_BUNDLE`, a profile) reach pyarrow's S3 client.
pub(crate) fn pyiceberg_command(script: &str) -> Command {
    let mut command = Command::new(python());
    command.arg(asset(script));
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(|k| k.starts_with("AWS_")) {
            command.env_remove(key);
        }
    }
    command
}

fn read_table(data: &Path, seaweed: &SeaweedFs, warehouse: &str, branch: &str) -> Value {
    let out = pyiceberg_command("read_iceberg.py")
        .arg("--catalog-db")
        .arg(data.join("iceberg/catalog.db"))
        .args(["--warehouse", warehouse, "--catalog-name", "stone"])
        .args(["--table", "lake.cities", "--branch", branch])
        .args(["--order-by", "code"])
        .args(pyiceberg_properties(seaweed))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyiceberg could not read lake.cities@{branch} from {warehouse}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn push(ctx: &TestContext, dir: &Path) -> Value {
    crate::push_e2e::push(ctx, dir, &["--branch", "dev"])
}

/// A server on `config` (with `env`), a context whose `local` env is that server, and a
/// package with a two-row `cities.csv`.
fn lake(
    config: &str,
    env: &[(&str, &str)],
) -> (tempfile::TempDir, StoneServer, TestContext, PathBuf) {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let server = StoneServer::start(data.path(), Some(config), env);
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let dir = ctx.package(
        "lake",
        DESCRIPTOR,
        &[("cities.csv", b"city,code\nParis,075\nLyon,069\n")],
    );
    (data, server, ctx, dir)
}

fn status_of(result: &Value) -> &str {
    result["datasets"][0]["status"].as_str().unwrap_or_default()
}

fn content_csv(server: &StoneServer) -> String {
    stone_test::services::agent()
        .get(&format!(
            "{}/namespaces/lake/datasets/cities/content?branch=dev&format=csv",
            server.api()
        ))
        .call()
        .expect("GET the table's content")
        .body_mut()
        .read_to_string()
        .unwrap()
}

const DESCRIPTOR: &str = "name: lake\npublish: {to: \"stone:lake\"}\nresources:\n  - path: cities.csv\n    schema: {fields: [{name: code, type: string}]}\n";

#[test]
fn a_csv_pushed_to_an_s3_warehouse_is_read_back_by_the_api_and_pyiceberg() {
    let seaweed = SeaweedFs::shared();
    let suffix = format!("{:08x}", fastrand::u32(..));
    let (staging_bucket, lake_bucket) =
        (format!("wh-staging-{suffix}"), format!("wh-lake-{suffix}"));
    seaweed.create_bucket(&staging_bucket);
    seaweed.create_bucket(&lake_bucket);
    let warehouse = format!("s3://{lake_bucket}/tables");
    let (data, server, ctx, dir) = lake(&s3_config(seaweed, &staging_bucket, &warehouse), &[]);
    let first = push(&ctx, &dir);
    assert_eq!(
        status_of(&first),
        "created",
        "{first}\nserver log:\n{}",
        server.log_tail(30)
    );

    // Everything is in the bucket, under the warehouse prefix; nothing on local disk.
    let objects = seaweed.list_objects(&lake_bucket, "tables/");
    assert!(
        objects.iter().any(|k| k.starts_with("tables/lake/cities-")
            && k.contains("/data/")
            && k.ends_with(".parquet")),
        "{objects:?}"
    );
    assert!(
        objects.iter().any(|k| k.ends_with(".metadata.json")),
        "{objects:?}"
    );
    assert!(objects.iter().any(|k| k.ends_with(".avro")), "{objects:?}");
    assert!(
        !objects.iter().any(|k| k.contains(".stone-probe")),
        "the start-up probe cleans up: {objects:?}"
    );
    let local = data.path().join("iceberg/warehouse");
    assert!(
        !local.exists() || std::fs::read_dir(&local).unwrap().next().is_none(),
        "nothing in {}",
        local.display()
    );

    let table = read_table(data.path(), seaweed, &warehouse, "dev");
    assert_eq!(table["row_count"], 2, "{table}");
    assert_eq!(table["rows"][0]["code"], "069", "{table}");
    assert!(
        table["metadata_location"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{warehouse}/lake/cities-")),
        "{table}"
    );
    let csv = content_csv(&server);
    assert!(
        csv.starts_with("city,code\n") && csv.contains("Paris,075\n") && csv.contains("Lyon,069\n"),
        "{csv}"
    );

    // A second file on the same branch is appended.
    std::fs::write(dir.join("cities.csv"), b"city,code\nLille,059\n").unwrap();
    let second = push(&ctx, &dir);
    assert_eq!(status_of(&second), "appended", "{second}");
    let table = read_table(data.path(), seaweed, &warehouse, "dev");
    assert_eq!(table["row_count"], 3, "{table}");
    let codes: Vec<&str> = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["059", "069", "075"]);
    let csv = content_csv(&server);
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.contains("Lille,059\n"), "{csv}");

    // The same content again: nothing uploaded, no new snapshot.
    let snapshots = table["snapshot_count"].clone();
    let third = push(&ctx, &dir);
    assert_eq!(status_of(&third), "unchanged", "{third}");
    assert_eq!(third["uploaded_bytes"], 0, "{third}");
    let table = read_table(data.path(), seaweed, &warehouse, "dev");
    assert_eq!(table["snapshot_count"], snapshots, "{table}");
    assert_eq!(table["row_count"], 3, "{table}");
}

#[test]
fn a_warehouse_the_server_cannot_write_stops_it_at_start() {
    let seaweed = SeaweedFs::shared();
    let suffix = format!("{:08x}", fastrand::u32(..));
    let (staging, lake) = (format!("wh-staging-{suffix}"), format!("wh-lake-{suffix}"));
    seaweed.create_bucket(&staging);
    seaweed.create_bucket(&lake);
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("server.toml");
    let warehouse = format!("s3://{lake}/tables");
    // The warehouse's credentials are wrong (SeaweedFS creates a missing bucket on the
    // first PUT of an admin, so a wrong key is what fails here).
    let text = s3_config(seaweed, &staging, &warehouse);
    let at = text.rfind(seaweed.secret_key()).unwrap();
    let text = format!(
        "{}not-the-secret{}",
        &text[..at],
        &text[at + seaweed.secret_key().len()..]
    );
    std::fs::write(&config, text).unwrap();
    let out = crate::replicas::server_start(&data.path().join("data"), &config);
    let stderr = crate::stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot write to the Iceberg warehouse {warehouse}"
        )),
        "{stderr}"
    );
    assert!(
        !stderr.contains(seaweed.secret_key()) && !stderr.contains("not-the-secret"),
        "the secret key is not shown: {stderr}"
    );
}

#[test]
fn a_warehouse_in_the_staging_bucket_copies_data_files_server_side() {
    let seaweed = SeaweedFs::shared();
    let bucket = format!("wh-both-{:08x}", fastrand::u32(..));
    seaweed.create_bucket(&bucket);
    let warehouse = format!("s3://{bucket}/tables");
    let (data, server, ctx, dir) = lake(
        &s3_config(seaweed, &bucket, &warehouse),
        &[("STONE_SERVER_LOG", "stone_server=debug")],
    );
    let first = push(&ctx, &dir);
    assert_eq!(status_of(&first), "created", "{first}");
    let log = server.log_tail(400);
    assert!(
        log.contains("data file copied server-side"),
        "the data file was copied from staging, not uploaded again:\n{log}"
    );
    let staged = seaweed.list_objects(&bucket, "uploads/");
    let copied = seaweed.list_objects(&bucket, "tables/lake/cities-");
    let data_file = copied
        .iter()
        .find(|k| k.contains("/data/"))
        .expect("a data file");
    let sha = data_file
        .rsplit('/')
        .next()
        .unwrap()
        .trim_end_matches(".parquet");
    // The staged content: at its own key, or (a single upload the store checked, issue
    // 24) at the caller's direct key.
    let staged_key = staged
        .iter()
        .find(|k| k.ends_with(&format!("/{sha}")))
        .unwrap_or_else(|| panic!("{staged:?} / {copied:?}"));
    assert_eq!(
        seaweed.get_object(&bucket, data_file),
        seaweed.get_object(&bucket, staged_key),
    );
    let table = read_table(data.path(), seaweed, &warehouse, "dev");
    assert_eq!(table["row_count"], 2, "{table}");
}
