//! Appending on main: creation, further appends, idempotence, replace, read-back.

use serde_json::json;
use stone_server::engines::iceberg::{AppendOptions, AppendStatus, IcebergError};

use crate::support::{Lake, NS, col, people};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_append_creates_the_table() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1, 2, 3]));

    let outcome = lake.append_ok("people", "main", &[&file]).await;
    assert_eq!(outcome.status, AppendStatus::Created);
    assert_eq!((outcome.rows_added, outcome.total_rows), (3, 3));
    let schema: Vec<_> = outcome
        .schema
        .iter()
        .map(|c| (c.name.as_str(), c.data_type.as_str(), c.required))
        .collect();
    assert_eq!(
        schema,
        vec![("id", "long", true), ("name", "string", false)]
    );
    assert!(lake.engine.table_exists(NS, "people").await.unwrap());

    let read = lake.pyiceberg("people");
    assert!(read.exists());
    assert_eq!(read.0["format_version"], json!(2));
    assert_eq!(read.ref_names(), vec!["main"]);
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("main"), outcome.snapshot_id);
    assert_eq!(read.parent_id("main"), None);
    assert_eq!(
        read.rows("main"),
        vec![
            json!({"id": 1, "name": "person-1"}),
            json!({"id": 2, "name": "person-2"}),
            json!({"id": 3, "name": "person-3"}),
        ]
    );
    assert_eq!(read.current_rows(), read.rows("main"));
    assert_eq!(
        read.schema("main"),
        vec![col("id", "long", true), col("name", "string", false)]
    );
    assert_eq!(read.summary("main", "total-records").as_deref(), Some("3"));
    // The name mapping lets pyiceberg read files without field ids.
    assert_eq!(
        read.0["name_mapping"],
        json!([{"field-id": 1, "names": ["id"]}, {"field-id": 2, "names": ["name"]}])
    );
    // Content-addressed data file.
    let files = read.files("main");
    assert_eq!(files.len(), 1);
    assert!(
        files[0].ends_with(&format!("/data/{}.parquet", file.sha256)),
        "{files:?}"
    );
    assert_eq!(
        lake.data_dir_files("people"),
        vec![format!("{}.parquet", file.sha256)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn second_append_adds_a_snapshot() {
    let lake = Lake::new().await;
    let first = lake.stage(&people(&[1, 2, 3]));
    let second = lake.stage(&people(&[4, 5]));

    let one = lake.append_ok("people", "main", &[&first]).await;
    let two = lake.append_ok("people", "main", &[&second]).await;
    assert_eq!(two.status, AppendStatus::Appended);
    assert_eq!((two.rows_added, two.total_rows), (2, 5));
    assert_ne!(one.snapshot_id, two.snapshot_id);

    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 2);
    assert_eq!(
        read.ancestry("main"),
        vec![two.snapshot_id, one.snapshot_id]
    );
    assert_eq!(read.ids("main"), vec![1, 2, 3, 4, 5]);
    assert_eq!(read.operation("main"), "append");
    assert_eq!(read.summary("main", "added-records").as_deref(), Some("2"));
    assert_eq!(read.summary("main", "total-records").as_deref(), Some("5"));
    assert_eq!(
        read.summary("main", "total-data-files").as_deref(),
        Some("2")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeating_an_append_changes_nothing() {
    let lake = Lake::new().await;
    let first = lake.stage(&people(&[1, 2, 3]));
    let second = lake.stage(&people(&[4, 5]));

    let one = lake.append_ok("people", "main", &[&first]).await;
    let again = lake.append_ok("people", "main", &[&first]).await;
    assert_eq!(again.status, AppendStatus::Unchanged);
    assert_eq!(again.snapshot_id, one.snapshot_id);
    assert_eq!((again.rows_added, again.total_rows), (0, 3));
    let metadata_files = lake.metadata_files("people").len();
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);

    // Only the new file of a mixed push is added; a file given twice counts once.
    let mixed = lake
        .append_ok("people", "main", &[&first, &second, &second])
        .await;
    assert_eq!(mixed.status, AppendStatus::Appended);
    assert_eq!((mixed.rows_added, mixed.total_rows), (2, 5));
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 2);
    assert_eq!(read.ids("main"), vec![1, 2, 3, 4, 5]);
    assert_eq!(lake.metadata_files("people").len(), metadata_files + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replace_overwrites_the_branch_content() {
    let lake = Lake::new().await;
    let first = lake.stage(&people(&[1, 2, 3]));
    let second = lake.stage(&people(&[4, 5]));
    let replace = AppendOptions {
        replace: true,
        ..AppendOptions::default()
    };

    let one = lake.append_ok("people", "main", &[&first]).await;
    let replaced = lake
        .append("people", "main", &[&second], &replace)
        .await
        .unwrap();
    assert_eq!(replaced.status, AppendStatus::Replaced);
    assert_eq!(
        (
            replaced.rows_added,
            replaced.rows_removed,
            replaced.total_rows
        ),
        (2, 3, 2)
    );

    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![4, 5]);
    assert_eq!(read.operation("main"), "overwrite");
    assert_eq!(read.parent_id("main"), Some(one.snapshot_id));
    assert_eq!(
        read.summary("main", "deleted-records").as_deref(),
        Some("3")
    );
    assert_eq!(read.summary("main", "total-records").as_deref(), Some("2"));
    assert_eq!(read.files("main").len(), 1);

    // Replacing with the same content again: unchanged.
    let again = lake
        .append("people", "main", &[&second], &replace)
        .await
        .unwrap();
    assert_eq!(again.status, AppendStatus::Unchanged);
    assert_eq!(again.snapshot_id, replaced.snapshot_id);
    assert_eq!(lake.pyiceberg("people").snapshot_count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replace_keeps_files_that_are_given_again() {
    let lake = Lake::new().await;
    let first = lake.stage(&people(&[1, 2]));
    let second = lake.stage(&people(&[3, 4]));
    let third = lake.stage(&people(&[5]));

    lake.append_ok("people", "main", &[&first, &second]).await;
    let replaced = lake
        .append(
            "people",
            "main",
            &[&second, &third],
            &AppendOptions {
                replace: true,
                ..AppendOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (
            replaced.rows_added,
            replaced.rows_removed,
            replaced.total_rows
        ),
        (1, 2, 3)
    );

    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![3, 4, 5]);
    assert_eq!(read.files("main").len(), 2);

    // Appending on top of the overwrite carries only the live files.
    let fourth = lake.stage(&people(&[6]));
    let appended = lake.append_ok("people", "main", &[&fourth]).await;
    assert_eq!(appended.total_rows, 4);
    assert_eq!(lake.pyiceberg("people").ids("main"), vec![3, 4, 5, 6]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_reads_rows_back() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1, 2]))])
        .await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[3]))])
        .await;

    let batches = lake
        .engine
        .read_batches(NS, "people", "main")
        .await
        .unwrap();
    let rows = crate::api_arrow::id_and_text(&batches, "name");
    assert_eq!(
        rows,
        vec![
            (1, "person-1".to_owned()),
            (2, "person-2".to_owned()),
            (3, "person-3".to_owned()),
        ]
    );
    assert!(matches!(
        lake.engine.read_batches(NS, "people", "nope").await,
        Err(IcebergError::RefNotFound { .. })
    ));
    assert!(matches!(
        lake.engine.read_batches(NS, "absent", "main").await,
        Err(IcebergError::TableNotFound { .. })
    ));
    let info = lake
        .engine
        .snapshot_of(NS, "people", "main")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(info.total_rows, Some(3));
    assert_eq!(info.operation, "append");
    assert!(
        lake.engine
            .snapshot_of(NS, "absent", "main")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_before_anything_is_written() {
    let lake = Lake::new().await;
    let mut file = lake.stage(&people(&[1]));
    file.sha256 = "0".repeat(64);
    let error = lake
        .append("people", "main", &[&file], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, IcebergError::ChecksumMismatch { .. }),
        "{error:?}"
    );

    let unsigned = lake.stage(&crate::support::batch(vec![(
        "big",
        std::sync::Arc::new(arrow_array::UInt64Array::from(vec![1u64])),
        false,
    )]));
    let error = lake
        .append("people", "main", &[&unsigned], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, IcebergError::UnsupportedColumnType { column, .. } if column == "big"),
        "{error:?}"
    );

    let error = lake
        .append("people", "main", &[], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(error, IcebergError::NoFiles { .. }), "{error:?}");
    let error = lake
        .append(
            "people",
            "feature/x",
            &[&lake.stage(&people(&[1]))],
            &AppendOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(error, IcebergError::InvalidName { what: "branch", .. }),
        "{error:?}"
    );

    assert!(!lake.pyiceberg("people").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_table_removes_it() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    assert!(!lake.data_dir_files("people").is_empty());

    assert!(lake.engine.drop_table(NS, "people", true).await.unwrap());
    assert!(!lake.engine.table_exists(NS, "people").await.unwrap());
    assert!(!lake.pyiceberg("people").exists());
    assert!(lake.data_dir_files("people").is_empty());
    assert!(!lake.engine.drop_table(NS, "people", true).await.unwrap());

    // A dataset pushed again after its removal starts over.
    let outcome = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[7]))])
        .await;
    assert_eq!(outcome.status, AppendStatus::Created);
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main"), vec![7]);
    assert_eq!(read.snapshot_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_without_rows_makes_an_empty_dataset() {
    // A CSV with only a header becomes a Parquet file with a schema and no rows.
    let lake = Lake::new().await;
    let empty = lake.stage(&people(&[]));
    let outcome = lake.append_ok("people", "main", &[&empty]).await;
    assert_eq!(outcome.status, AppendStatus::Created);
    assert_eq!((outcome.rows_added, outcome.total_rows), (0, 0));

    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert!(read.rows("main").is_empty());
    assert_eq!(
        read.schema("main"),
        vec![col("id", "long", true), col("name", "string", false)]
    );

    let outcome = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    assert_eq!(outcome.total_rows, 1);
    assert_eq!(lake.pyiceberg("people").ids("main"), vec![1]);
}
