//! Version tags.

use stone_server::engines::iceberg::{AppendOptions, AppendStatus, IcebergError, RefKind};

use crate::support::{Lake, people};

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
    assert_eq!(read.ref_names(), vec!["1.0.0", "main"]);
    assert_eq!(read.ref_type("1.0.0"), "tag");
    assert_eq!(read.snapshot_id("1.0.0"), outcome.snapshot_id);
    assert_eq!(read.ids("1.0.0"), vec![1, 2]);

    // Pushing the same content as the next version tags the unchanged head.
    let again = lake
        .append("people", "main", &[&file], &tagged("1.0.1", false))
        .await
        .unwrap();
    assert_eq!(again.status, AppendStatus::Unchanged);
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("1.0.1"), outcome.snapshot_id);

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
    assert_eq!(read.ids("1.0.0"), vec![1, 2]);
    assert_eq!(read.ids("main"), vec![1, 2, 3]);
    let tagged_rows: usize = lake
        .engine
        .read_batches(crate::support::NS, "people", "1.0.0")
        .await
        .unwrap()
        .iter()
        .map(|batch| batch.num_rows())
        .sum();
    assert_eq!(tagged_rows, 2);
    let refs = lake
        .engine
        .refs(crate::support::NS, "people")
        .await
        .unwrap();
    assert!(
        refs.iter()
            .any(|r| r.name == "1.0.0" && r.kind == RefKind::Tag)
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
    assert_eq!(read.snapshot_id("2.0.0"), first.snapshot_id);

    let forced = lake
        .append("people", "main", &[&second_file], &tagged("2.0.0", true))
        .await
        .unwrap();
    assert_eq!(forced.status, AppendStatus::Appended);
    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_id("2.0.0"), forced.snapshot_id);
    assert_eq!(read.ids("2.0.0"), vec![1, 2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tags_and_branches_do_not_share_names() {
    let lake = Lake::new().await;
    let file = lake.stage(&people(&[1]));
    lake.append_ok("people", "feature-x", &[&file]).await;

    for tag in ["main", "feature-x"] {
        let error = lake
            .append("people", "feature-x", &[&file], &tagged(tag, true))
            .await
            .unwrap_err();
        assert!(
            matches!(&error, IcebergError::RefKindConflict { name, existing: RefKind::Branch, .. } if name == tag),
            "{error:?}"
        );
    }
    lake.append("people", "feature-x", &[&file], &tagged("v1", false))
        .await
        .unwrap();
    // …and a branch cannot be pushed under a tag's name.
    let error = lake
        .append("people", "v1", &[&file], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, IcebergError::RefKindConflict { name, existing: RefKind::Tag, .. } if name == "v1"),
        "{error:?}"
    );
    let read = lake.pyiceberg("people");
    assert_eq!(read.ref_names(), vec!["feature-x", "v1"]);
}
