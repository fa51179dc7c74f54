//! Appends on branches other than main, and concurrent commits.

use std::sync::Arc;

use stone_server::engines::iceberg::{AppendHooks, AppendOptions, AppendStatus, RefKind};

use crate::support::{Lake, NS, people};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn append_on_a_branch_leaves_main_untouched() {
    let lake = Lake::new().await;
    let main_file = lake.stage(&people(&[1, 2, 3]));
    let branch_file = lake.stage(&people(&[10, 11]));
    let later_file = lake.stage(&people(&[12]));

    let main = lake.append_ok("people", "main", &[&main_file]).await;
    let before = lake.pyiceberg("people");

    let branch = lake.append_ok("people", "feature-x", &[&branch_file]).await;
    assert_eq!(branch.status, AppendStatus::Appended);
    assert_eq!((branch.rows_added, branch.total_rows), (2, 5));

    let read = lake.pyiceberg("people");
    assert_eq!(read.ref_names(), vec!["feature-x", "main"]);
    assert_eq!(read.ref_type("feature-x"), "branch");
    // The branch starts from main's head …
    assert_eq!(read.parent_id("feature-x"), Some(main.snapshot_id));
    assert_eq!(read.ids("feature-x"), vec![1, 2, 3, 10, 11]);
    // … and main did not move.
    assert_eq!(read.snapshot_id("main"), main.snapshot_id);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
    assert_eq!(read.current_rows(), before.current_rows());
    assert_eq!(read.0["current_schema_id"], before.0["current_schema_id"]);

    // The next append on the branch builds on the branch head.
    let next = lake.append_ok("people", "feature-x", &[&later_file]).await;
    let read = lake.pyiceberg("people");
    assert_eq!(
        read.ancestry("feature-x"),
        vec![next.snapshot_id, branch.snapshot_id, main.snapshot_id]
    );
    assert_eq!(read.ids("feature-x"), vec![1, 2, 3, 10, 11, 12]);
    assert_eq!(
        read.summary("feature-x", "total-records").as_deref(),
        Some("6")
    );
    assert_eq!(read.snapshot_id("main"), main.snapshot_id);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
    assert_eq!(read.snapshot_count(), 3);

    // Main moves on independently.
    let main_two = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[4]))])
        .await;
    let read = lake.pyiceberg("people");
    assert_eq!(read.parent_id("main"), Some(main.snapshot_id));
    assert_eq!(read.snapshot_id("main"), main_two.snapshot_id);
    assert_eq!(read.ids("main"), vec![1, 2, 3, 4]);
    assert_eq!(read.ids("feature-x"), vec![1, 2, 3, 10, 11, 12]);

    let refs = lake.engine.refs(NS, "people").await.unwrap();
    let names: Vec<_> = refs.iter().map(|r| (r.name.as_str(), r.kind)).collect();
    assert_eq!(
        names,
        vec![("feature-x", RefKind::Branch), ("main", RefKind::Branch)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_push_on_a_branch_creates_the_table_without_main() {
    let lake = Lake::new().await;
    let outcome = lake
        .append_ok("people", "feature-x", &[&lake.stage(&people(&[1, 2]))])
        .await;
    assert_eq!(outcome.status, AppendStatus::Created);

    let read = lake.pyiceberg("people");
    assert_eq!(read.ref_names(), vec!["feature-x"]);
    assert_eq!(read.parent_id("feature-x"), None);
    assert_eq!(read.ids("feature-x"), vec![1, 2]);
    assert!(read.current_rows().is_empty());
    assert!(
        lake.engine
            .read_batches(NS, "people", "main")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        lake.engine
            .snapshot_of(NS, "people", "main")
            .await
            .unwrap()
            .is_none()
    );

    // Main's first push then starts main from nothing.
    let main = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[5]))])
        .await;
    assert_eq!(main.status, AppendStatus::Appended);
    let read = lake.pyiceberg("people");
    assert_eq!(read.parent_id("main"), None);
    assert_eq!(read.ids("main"), vec![5]);
    assert_eq!(read.ids("feature-x"), vec![1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_branch_of_content_already_on_main_starts_at_main_head() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1, 2]));
    let main = lake.append_ok("people", "main", &[&file]).await;

    let branch = lake.append_ok("people", "feature-y", &[&file]).await;
    assert_eq!(branch.status, AppendStatus::Unchanged);
    assert_eq!(branch.snapshot_id, main.snapshot_id);

    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("feature-y"), main.snapshot_id);
    assert_eq!(read.ref_type("feature-y"), "branch");
    assert_eq!(read.ids("feature-y"), vec![1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replace_on_a_branch_keeps_main() {
    let lake = Lake::new().await;
    let main = lake
        .append_ok(
            "people",
            "main",
            &[&lake.stage(&people(&[1, 2])), &lake.stage(&people(&[3]))],
        )
        .await;
    let replaced = lake
        .append(
            "people",
            "feature-x",
            &[&lake.stage(&people(&[9]))],
            &AppendOptions {
                replace: true,
                ..AppendOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(replaced.status, AppendStatus::Replaced);
    assert_eq!((replaced.rows_removed, replaced.total_rows), (3, 1));

    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("feature-x"), vec![9]);
    assert_eq!(read.operation("feature-x"), "overwrite");
    assert_eq!(read.parent_id("feature-x"), Some(main.snapshot_id));
    assert_eq!(read.snapshot_id("main"), main.snapshot_id);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_to_one_branch_both_land() {
    let lake = Arc::new(Lake::new().await);
    let base = lake
        .append_ok("people", "feature-x", &[&lake.stage(&people(&[1]))])
        .await;
    let left = lake.stage(&people(&[2, 3]));
    let right = lake.stage(&people(&[4]));

    // Both appends read the same branch head and meet before their compare-and-swap:
    // exactly one swap wins, the other must re-read and retry.
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let options = AppendOptions {
        hooks: AppendHooks {
            before_first_commit: Some(barrier),
            ..AppendHooks::default()
        },
        ..AppendOptions::default()
    };
    let (left, right) = ([&left], [&right]);
    let (one, two) = tokio::join!(
        lake.append("people", "feature-x", &left, &options),
        lake.append("people", "feature-x", &right, &options),
    );
    let (one, two) = (one.unwrap(), two.unwrap());
    let mut attempts = [one.commit_attempts, two.commit_attempts];
    attempts.sort_unstable();
    assert_eq!(attempts[0], 1);
    assert!(
        attempts[1] >= 2,
        "the loser must have retried: {attempts:?}"
    );
    assert_eq!(one.total_rows.max(two.total_rows), 4);

    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("feature-x"), vec![1, 2, 3, 4]);
    let ancestry = read.ancestry("feature-x");
    assert_eq!(ancestry.len(), 3);
    assert_eq!(ancestry[2], base.snapshot_id);
    assert_eq!(read.snapshot_count(), 3);
}
