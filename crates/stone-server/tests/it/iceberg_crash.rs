//! Crash safety: a crash before the catalog compare-and-swap leaves the table as it was,
//! and the same append run again succeeds.

use stone_server::engines::iceberg::{AppendHooks, AppendOptions, AppendStatus, IcebergError};

use crate::support::{Lake, NS, people, table_directories};

fn crashing() -> AppendOptions {
    AppendOptions {
        hooks: AppendHooks {
            fail_before_commit: true,
            ..AppendHooks::default()
        },
        ..AppendOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_before_the_commit_leaves_the_table_as_it_was() {
    let lake = Lake::new().await;
    let first = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[1, 2]))])
        .await;
    let before = lake.pyiceberg("people");
    let metadata_before = lake.metadata_files("people").len();
    let second = lake.stage(&people(&[3]));

    let error = lake
        .append("people", "main", &[&second], &crashing())
        .await
        .unwrap_err();
    assert!(
        matches!(error, IcebergError::InjectedFault { .. }),
        "{error:?}"
    );

    // Everything was written — data file, manifests, new metadata — but not committed.
    assert!(
        lake.data_dir_files("people")
            .contains(&format!("{}.parquet", second.sha256))
    );
    assert_eq!(lake.metadata_files("people").len(), metadata_before + 1);
    let after = lake.pyiceberg("people");
    assert_eq!(after.0, before.0);
    assert_eq!(after.snapshot_id("main"), first.snapshot_id);
    assert_eq!(after.ids("main"), vec![1, 2]);

    // The retry finds the data file in place and commits.
    let retried = lake.append_ok("people", "main", &[&second]).await;
    assert_eq!(retried.status, AppendStatus::Appended);
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
    assert_eq!(read.snapshot_count(), 2);
    assert_eq!(read.parent_id("main"), Some(first.snapshot_id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_on_the_first_append_leaves_an_empty_table() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1]));
    lake.append("people", "feature-x", &[&file], &crashing())
        .await
        .unwrap_err();

    let read = lake.pyiceberg("people");
    assert!(read.exists());
    assert!(read.ref_names().is_empty());
    assert!(read.current_rows().is_empty());

    let retried = lake.append_ok("people", "feature-x", &[&file]).await;
    assert_eq!(retried.status, AppendStatus::Created);
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("feature-x"), vec![1]);
    assert_eq!(read.snapshot_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_data_file_is_replaced() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    let second = lake.stage(&people(&[2, 3]));

    // A copy cut short at the content address (as a crash of a non-atomic writer, or a
    // foreign process, might leave it).
    let directories = table_directories(&lake.warehouse, "people");
    assert_eq!(directories.len(), 1);
    let target = directories[0]
        .join("data")
        .join(format!("{}.parquet", second.sha256));
    let content = std::fs::read(&second.path).unwrap();
    std::fs::write(&target, &content[..content.len() / 2]).unwrap();

    lake.append_ok("people", "main", &[&second]).await;
    assert_eq!(std::fs::read(&target).unwrap(), content);
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![1, 2, 3]);

    // No temporary files are left behind.
    let leftovers: Vec<_> = lake
        .data_dir_files("people")
        .into_iter()
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(lake.engine.table_exists(NS, "people").await.unwrap());
}
