//! Version tags: version V of branch B is the tag `B@V`; a legacy bare tag reads as a
//! version of the branches whose history holds it.

use stone_server::engines::iceberg::{
    AppendOptions, AppendStatus, IcebergError, RefKind, TableRef,
};

use crate::support::{Lake, NS, legacy_tag, people};

fn tagged(tag: &str, force: bool) -> AppendOptions {
    AppendOptions {
        tag: Some(tag.to_owned()),
        force,
        ..AppendOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tag_names_the_new_snapshot() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1, 2]));
    let outcome = lake
        .append("people", "main", &[&file], &tagged("1.0.0", false))
        .await
        .unwrap();

    let read = lake.pyiceberg("people");
    assert_eq!(read.ref_names(), vec!["main", "main@1.0.0"]);
    assert_eq!(read.ref_type("main@1.0.0"), "tag");
    assert_eq!(read.snapshot_id("main@1.0.0"), outcome.snapshot_id);
    assert_eq!(read.ids("main@1.0.0"), vec![1, 2]);

    // Pushing the same content as the next version tags the unchanged head.
    let again = lake
        .append("people", "main", &[&file], &tagged("1.0.1", false))
        .await
        .unwrap();
    assert_eq!(again.status, AppendStatus::Unchanged);
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("main@1.0.1"), outcome.snapshot_id);

    // Re-tagging the same snapshot is a no-op.
    let same = lake
        .append("people", "main", &[&file], &tagged("1.0.0", false))
        .await
        .unwrap();
    assert_eq!(same.status, AppendStatus::Unchanged);

    // Tags live on after their branch moves on.
    lake.append_ok("people", "main", &[&lake.stage(&people(&[3]))])
        .await;
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main@1.0.0"), vec![1, 2]);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
    let version = TableRef::Version {
        branch: "main",
        version: "1.0.0",
    };
    let tagged_rows: usize = lake
        .engine
        .read_batches(NS, "people", version)
        .await
        .unwrap()
        .iter()
        .map(|batch| batch.num_rows())
        .sum();
    assert_eq!(tagged_rows, 2);
    let refs = lake.engine.refs(NS, "people").await.unwrap();
    assert!(
        refs.iter()
            .any(|r| r.name == "main@1.0.0" && r.kind == RefKind::Tag)
    );
    let versions: Vec<String> = lake
        .engine
        .versions(NS, "people", "main")
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.name)
        .collect();
    assert_eq!(versions, ["1.0.0", "1.0.1"]);
    // A version is never read as a branch, nor a branch as a version.
    assert!(
        lake.engine
            .snapshot_of(NS, "people", "main@1.0.0")
            .await
            .unwrap()
            .is_none()
    );
    let main_as_version = TableRef::Version {
        branch: "main",
        version: "main",
    };
    assert!(
        lake.engine
            .snapshot_of(NS, "people", main_as_version)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_a_tag_is_refused_unless_forced() {
    let lake = Lake::new().await;
    let first = lake
        .append(
            "people",
            "main",
            &[&lake.stage(&people(&[1]))],
            &tagged("2.0.0", false),
        )
        .await
        .unwrap();
    let second_file = lake.stage(&people(&[2]));

    let error = lake
        .append("people", "main", &[&second_file], &tagged("2.0.0", false))
        .await
        .unwrap_err();
    match &error {
        IcebergError::TagExists {
            table, tag, tagged, ..
        } => {
            assert_eq!(
                (table.as_str(), tag.as_str(), *tagged),
                ("demo.people", "2.0.0", first.snapshot_id)
            );
        }
        other => panic!("expected TagExists, got {other:?}"),
    }
    // Nothing was committed: neither the tag nor main moved.
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("main"), first.snapshot_id);
    assert_eq!(read.snapshot_id("main@2.0.0"), first.snapshot_id);

    let forced = lake
        .append("people", "main", &[&second_file], &tagged("2.0.0", true))
        .await
        .unwrap();
    assert_eq!(forced.status, AppendStatus::Appended);
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_id("main@2.0.0"), forced.snapshot_id);
    assert_eq!(read.ids("main@2.0.0"), vec![1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_are_per_branch_and_never_branches() {
    let lake = Lake::new().await;
    let (one, two) = (lake.stage(&people(&[1])), lake.stage(&people(&[2])));
    lake.append("people", "main", &[&one], &tagged("1.0.0", false))
        .await
        .unwrap();
    // Another branch's 1.0.0, without force: main's stays.
    let replace = AppendOptions {
        replace: true,
        ..tagged("1.0.0", false)
    };
    let other = lake
        .append("people", "feature-x", &[&two], &replace)
        .await
        .unwrap();
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("main@1.0.0"), vec![1]);
    assert_eq!(read.ids("feature-x@1.0.0"), vec![2]);
    assert_eq!(read.snapshot_id("feature-x@1.0.0"), other.snapshot_id);

    // Versions may be named like branches: they name no branch.
    for version in ["main", "feature-x"] {
        lake.append("people", "feature-x", &[&two], &tagged(version, false))
            .await
            .unwrap();
    }
    let read = lake.pyiceberg("people");
    assert_eq!(read.ids("feature-x@main"), vec![2]);
    assert_eq!(read.ids("main"), vec![1]);

    // Removing a branch removes its versions; main's stay.
    assert!(
        lake.engine
            .remove_branch(NS, "people", "feature-x")
            .await
            .unwrap()
    );
    let read = lake.pyiceberg("people");
    assert_eq!(read.ref_names(), vec!["main", "main@1.0.0"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_tag_is_a_version_of_the_branches_that_hold_it() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1]));
    lake.append_ok("people", "other", &[&lake.stage(&people(&[9]))])
        .await;
    let tagged_snapshot = lake.append_ok("people", "main", &[&file]).await.snapshot_id;
    legacy_tag(
        &lake.catalog_db,
        &lake.warehouse,
        "demo.people",
        "main",
        "v1",
    );
    lake.append_ok("people", "main", &[&lake.stage(&people(&[2]))])
        .await;
    // A branch forked from main after the tag holds it too.
    lake.append_ok("people", "fork", &[&lake.stage(&people(&[3]))])
        .await;

    let lake = &lake;
    let version_of = |branch: &'static str| async move {
        lake.engine
            .snapshot_of(
                NS,
                "people",
                TableRef::Version {
                    branch,
                    version: "v1",
                },
            )
            .await
            .unwrap()
            .map(|s| s.snapshot_id)
    };
    assert_eq!(version_of("main").await, Some(tagged_snapshot));
    assert_eq!(version_of("fork").await, Some(tagged_snapshot));
    assert_eq!(version_of("other").await, None);
    assert!(
        lake.engine
            .versions(NS, "people", "other")
            .await
            .unwrap()
            .is_empty()
    );

    // Other content under v1 on main needs force; on `other`, v1 is its own.
    let moved = lake
        .append(
            "people",
            "main",
            &[&lake.stage(&people(&[4]))],
            &tagged("v1", false),
        )
        .await
        .unwrap_err();
    assert!(matches!(moved, IcebergError::TagExists { .. }), "{moved:?}");
    lake.append("people", "other", &[&file], &tagged("v1", false))
        .await
        .unwrap();
    assert_eq!(version_of("main").await, Some(tagged_snapshot));
    assert_eq!(lake.pyiceberg("people").ids("other@v1"), vec![1, 9]);

    // A branch is still not pushed under a legacy tag's name.
    let error = lake
        .append("people", "v1", &[&file], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, IcebergError::RefKindConflict { name, existing: RefKind::Tag, .. } if name == "v1"),
        "{error:?}"
    );
}
