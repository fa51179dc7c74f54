//! Snapshot expiry (spec 4.1, `--force`): old snapshots of a table go with the files only
//! they referenced; branch heads, named versions and protected histories stay. Checked
//! with pyiceberg and on disk.

use std::time::Duration;

use serde_json::Value;
use stone_server::engines::iceberg::{AppendOptions, IcebergEngine, Retention, StagedFile};
use stone_test::services::SeaweedFs;

use crate::api_support::{Dataset, File, Options, Site, manifest, people_parquet, pyiceberg};
use crate::support::{Lake, NS, Reading, people, sha256_hex, table_directories, write_parquet};

/// Everything older than now goes, except each branch's head.
const ALL_OLD: Retention = Retention {
    max_snapshot_age: Duration::ZERO,
    min_snapshots_to_keep: 1,
};

/// Every file a ref's scan reads exists on disk: no dangling reference.
fn assert_no_dangling(read: &Reading) {
    let refs = read.0["refs"].as_object().expect("refs");
    for name in refs.keys() {
        for file in read.files(name) {
            let path = file.strip_prefix("file://").unwrap_or(&file);
            assert!(
                std::path::Path::new(path).exists(),
                "{name} reads {file}, which is gone"
            );
        }
    }
}

/// Files under the table's `metadata/` directory whose name contains `part`.
fn metadata_files_with(lake: &Lake, table: &str, part: &str) -> Vec<String> {
    let mut names = Vec::new();
    for directory in table_directories(&lake.warehouse, table) {
        for entry in std::fs::read_dir(directory.join("metadata")).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.contains(part) {
                names.push(name);
            }
        }
    }
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expiry_removes_old_snapshots_and_their_files_but_keeps_heads_and_versions() {
    let lake = Lake::new().await;
    let first = lake.stage(&people(&[1, 2]));
    let second = lake.stage(&people(&[3]));
    let third = lake.stage(&people(&[4]));
    let fourth = lake.stage(&people(&[5]));
    let tagged = lake
        .append(
            "people",
            "main",
            &[&first],
            &AppendOptions {
                tag: Some("1.0".to_owned()),
                ..AppendOptions::default()
            },
        )
        .await
        .unwrap();
    let appended = lake.append_ok("people", "main", &[&second]).await;
    // Replace: the snapshot after it no longer reads `first` and `second`.
    let replaced = lake
        .append(
            "people",
            "main",
            &[&third],
            &AppendOptions {
                replace: true,
                ..AppendOptions::default()
            },
        )
        .await
        .unwrap();
    let head = lake.append_ok("people", "main", &[&fourth]).await;
    let before = lake.pyiceberg("people");
    assert_eq!(before.snapshot_count(), 4);
    let lists_before = metadata_files_with(&lake, "people", "snap-");
    assert_eq!(lists_before.len(), 4);

    let outcome = lake
        .engine
        .expire_snapshots("demo", "people", &ALL_OLD, &|_| false)
        .await
        .unwrap();
    assert_eq!(outcome.expired_snapshots, 2, "{outcome:?}");
    // The manifest lists of both expired snapshots, the manifest only the append
    // wrote, and `second`'s data file, which no kept snapshot reads.
    assert_eq!(outcome.deleted_files, 4, "{outcome:?}");
    assert!(outcome.deleted_bytes > 0);

    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 2);
    assert_eq!(read.snapshot_id("main"), head.snapshot_id);
    assert_eq!(read.ids("main"), vec![4, 5]);
    assert_eq!(read.snapshot_id("main@1.0"), tagged.snapshot_id);
    assert_eq!(read.ids("main@1.0"), vec![1, 2]);
    assert_no_dangling(&read);
    let lists = metadata_files_with(&lake, "people", "snap-");
    assert_eq!(lists.len(), 2);
    for expired in [appended.snapshot_id, replaced.snapshot_id] {
        assert!(
            !lists
                .iter()
                .any(|name| name.contains(&format!("snap-{expired}-"))),
            "{lists:?}"
        );
    }
    let data = lake.data_dir_files("people");
    assert!(
        !data.contains(&format!("{}.parquet", second.sha256)),
        "{data:?}"
    );
    for kept in [&first, &third, &fourth] {
        assert!(
            data.contains(&format!("{}.parquet", kept.sha256)),
            "{data:?}"
        );
    }

    // Nothing is left to expire; the table still takes appends.
    let again = lake
        .engine
        .expire_snapshots("demo", "people", &ALL_OLD, &|_| false)
        .await
        .unwrap();
    assert_eq!(again.expired_snapshots, 0);
    lake.append_ok("people", "main", &[&second]).await;
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![3, 4, 5]);
    assert_no_dangling(&read);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_history_and_young_snapshots_are_not_expired() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[2]))])
        .await;
    // A branch off main shares main's history.
    lake.append_ok("people", "topic", &[&lake.stage(&people(&[3]))])
        .await;
    // Young snapshots stay.
    let day = Retention {
        max_snapshot_age: Duration::from_secs(86_400),
        min_snapshots_to_keep: 1,
    };
    let outcome = lake
        .engine
        .expire_snapshots("demo", "people", &day, &|_| false)
        .await
        .unwrap();
    assert_eq!(outcome.expired_snapshots, 0);
    // A protected main keeps its history, also the part topic shares.
    let outcome = lake
        .engine
        .expire_snapshots("demo", "people", &ALL_OLD, &|branch| branch == "main")
        .await
        .unwrap();
    assert_eq!(outcome.expired_snapshots, 0);
    assert_eq!(lake.pyiceberg("people").snapshot_count(), 3);
    // Without it, main's first snapshot goes (topic's head and main's head stay).
    let outcome = lake
        .engine
        .expire_snapshots("demo", "people", &ALL_OLD, &|_| false)
        .await
        .unwrap();
    assert_eq!(outcome.expired_snapshots, 1);
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 2);
    assert_eq!(read.ids("main"), vec![1, 2]);
    assert_eq!(read.ids("topic"), vec![1, 2, 3]);
    assert_no_dangling(&read);
}

fn people_dataset(ids: &[i64]) -> Dataset {
    Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("people.parquet", people_parquet(ids))],
    )
}

/// The push status's detail of the `people` dataset.
fn detail(status: &Value) -> Value {
    status["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "people")
        .map(|d| d["detail"].clone())
        .unwrap_or_else(|| panic!("no people dataset in {status:#}"))
}

/// Through the server: `[retention]` expires on an unprotected branch at every push, on a
/// protected one only with `force` (and the force role); named versions stay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_expires_per_retention_and_only_with_force_on_a_protected_ref() {
    let site = Site::with_config(
        "[local]\nroles = [\"protected-write\", \"protected-force\"]\n\
         [retention]\nmax_snapshot_age_seconds = 0\nmin_snapshots_to_keep = 1\n",
    );
    let server = site.start();
    let data = server.data_dir.clone();
    let push =
        |ids: &'static [i64], branch: &'static str, force: bool, version: Option<&'static str>| {
            let server = &server;
            async move {
                let options = Options {
                    force,
                    ..Options::default()
                };
                let (m, c) = manifest("demo", branch, options, version, &[people_dataset(ids)]);
                server.push(&m, &c).await
            }
        };

    push(&[1], "main", false, Some("1.0")).await;
    let tagged = pyiceberg(&data, "demo", "people").snapshot_id("main@1.0");
    let status = push(&[2], "main", false, None).await;
    // main is protected and the push not forced: nothing expired, and the result says
    // no expiry ran.
    assert!(
        detail(&status).get("expired_snapshots").is_none(),
        "{status:#}"
    );
    push(&[3], "main", false, None).await;
    assert_eq!(pyiceberg(&data, "demo", "people").snapshot_count(), 3);

    let status = push(&[4], "main", true, None).await;
    // The two snapshots between the tagged first one and the new head go (with their
    // manifest lists; their data files are still read by the head).
    assert_eq!(detail(&status)["expired_snapshots"], 2, "{status:#}");
    assert!(detail(&status)["expired_files"].as_u64().unwrap() >= 2);
    let read = pyiceberg(&data, "demo", "people");
    assert_eq!(read.snapshot_count(), 2, "{:#}", read.0);
    assert_eq!(read.ids("main"), vec![1, 2, 3, 4]);
    assert_eq!(read.snapshot_id("main@1.0"), tagged);
    assert_eq!(read.ids("main@1.0"), vec![1]);
    assert_no_dangling(&read);

    // An unprotected branch expires at every push; protected main's history stays.
    let status = push(&[10], "dev", false, None).await;
    assert_eq!(detail(&status)["expired_snapshots"], 0, "{status:#}");
    let status = push(&[11], "dev", false, None).await;
    assert_eq!(detail(&status)["expired_snapshots"], 1, "{status:#}");
    let read = pyiceberg(&data, "demo", "people");
    assert_eq!(read.snapshot_count(), 3, "{:#}", read.0);
    assert_eq!(read.ids("dev"), vec![1, 2, 3, 4, 10, 11]);
    assert_eq!(read.ids("main"), vec![1, 2, 3, 4]);
    assert_eq!(read.ids("main@1.0"), vec![1]);
    assert_no_dangling(&read);
}

/// The same on an S3 warehouse (a real SeaweedFS): the expired snapshot's objects go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expiry_deletes_the_objects_of_an_s3_warehouse() {
    let dir = tempfile::tempdir().unwrap();
    let (settings, bucket) = crate::support::s3_warehouse_settings(dir.path());
    let seaweed = SeaweedFs::shared();
    let engine = IcebergEngine::open(settings).await.expect("open on S3");
    let stage = |name: &str, ids: &[i64]| {
        let path = dir.path().join(name);
        write_parquet(&path, &people(ids), 1024);
        StagedFile {
            sha256: sha256_hex(&std::fs::read(&path).unwrap()),
            path,
        }
    };
    let old = stage("old.parquet", &[1, 2]);
    let new = stage("new.parquet", &[3]);
    engine
        .append(
            NS,
            "people",
            "main",
            std::slice::from_ref(&old),
            &AppendOptions::default(),
        )
        .await
        .unwrap();
    let replace = AppendOptions {
        replace: true,
        ..AppendOptions::default()
    };
    engine
        .append(NS, "people", "main", std::slice::from_ref(&new), &replace)
        .await
        .unwrap();
    let objects = || seaweed.list_objects(&bucket, &format!("wh/{NS}/people-"));
    let has_data = |keys: &[String], file: &StagedFile| {
        keys.iter()
            .any(|key| key.ends_with(&format!("/data/{}.parquet", file.sha256)))
    };
    let before = objects();
    assert!(
        has_data(&before, &old) && has_data(&before, &new),
        "{before:?}"
    );

    let outcome = engine
        .expire_snapshots(NS, "people", &ALL_OLD, &|_| false)
        .await
        .unwrap();
    // The first snapshot's manifest list, its manifest and the data file only it read.
    assert_eq!(outcome.expired_snapshots, 1, "{outcome:?}");
    assert_eq!(outcome.deleted_files, 3, "{outcome:?}");
    let after = objects();
    assert!(!has_data(&after, &old), "{after:?}");
    assert!(has_data(&after, &new), "{after:?}");
    // Three objects gone, one metadata file more (the commit that expired).
    assert_eq!(after.len() + 2, before.len(), "{before:?}\n{after:?}");
    let rows: usize = engine
        .read_batches(NS, "people", "main")
        .await
        .unwrap()
        .iter()
        .map(|batch| batch.num_rows())
        .sum();
    assert_eq!(rows, 1);
}
