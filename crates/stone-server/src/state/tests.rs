use super::*;
use stone_api::{PackageMetadata, PushFlags, ResultCounts};

fn manifest() -> CreatePush {
    CreatePush {
        push_id: None,
        namespace: "demo".into(),
        branch: "dev".into(),
        options: PushFlags::default(),
        package: PackageMetadata::default(),
        datasets: vec![],
        paged_files: false,
    }
}

fn datasets() -> Vec<NewDataset> {
    vec![
        NewDataset {
            name: "a".into(),
            kind: AssetKind::Tabular,
            operation: Operation::Write,
        },
        NewDataset {
            name: "old".into(),
            kind: AssetKind::Blob,
            operation: Operation::Delete,
        },
    ]
}

#[tokio::test]
async fn a_push_goes_through_its_states_and_leases() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    db.create_push("p1", "me", &manifest(), false, &datasets())
        .await
        .unwrap();
    let push = db.push("p1").await.unwrap().unwrap();
    assert_eq!(push.state, PushState::Staging);
    let rows = db.datasets("p1").await.unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].operation, Operation::Delete);
    assert_eq!(rows[0].state, DatasetState::Pending);

    assert_eq!(db.claim("r1", Duration::from_secs(30)).await.unwrap(), None);
    assert_eq!(
        db.start_commit("p1").await.unwrap(),
        Some(PushState::Committing)
    );
    // Committing again leaves it as it is.
    assert_eq!(
        db.start_commit("p1").await.unwrap(),
        Some(PushState::Committing)
    );
    assert_eq!(
        db.claim("r1", Duration::from_secs(30)).await.unwrap(),
        Some("p1".into())
    );
    // Held: no second claim.
    assert_eq!(db.claim("r2", Duration::from_secs(30)).await.unwrap(), None);
    // A runner stopped at shutdown gives back what it holds.
    assert_eq!(db.release_owned("r2").await.unwrap(), 0);
    assert_eq!(db.release_owned("r1").await.unwrap(), 1);
    assert_eq!(
        db.claim("r1", Duration::from_secs(30)).await.unwrap(),
        Some("p1".into())
    );
    // A runner whose lease ran out (it stalled) and went to another gives its start
    // back: the other's start does not see a crash.
    db.release_all_leases().await.unwrap();
    assert_eq!(
        db.claim("r1", Duration::from_millis(1)).await.unwrap(),
        Some("p1".into())
    );
    let before = db.count_commit_start("p1", "r1").await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(
        db.claim("r2", Duration::from_secs(30)).await.unwrap(),
        Some("p1".into())
    );
    assert!(!db.renew("p1", "r1", Duration::from_secs(30)).await.unwrap());
    db.give_back_start("p1").await.unwrap();
    assert_eq!(
        db.count_commit_start("p1", "r2").await.unwrap(),
        Some(before),
        "the stalled runner's start is not a crash"
    );
    db.release("p1", "r2").await.unwrap();
    // After a restart every lease is forgotten.
    db.release_all_leases().await.unwrap();
    assert_eq!(
        db.claim("r2", Duration::from_secs(30)).await.unwrap(),
        Some("p1".into())
    );

    let checkpoint = serde_json::json!({"snapshot_id": null});
    let other = serde_json::json!({"x": 1});
    db.datasets_writing("p1", &[("a", &checkpoint, DatasetState::Pending)])
        .await
        .unwrap();
    // A second run of the push that read the datasets before the first marked them (its
    // lease ran out while the database was away) may not mark them too: it would take
    // the first run's writes for its own state before (issue 54). Nothing of its
    // transaction is kept, the other dataset's mark included.
    let taken = db
        .datasets_writing(
            "p1",
            &[
                ("old", &other, DatasetState::Pending),
                ("a", &other, DatasetState::Pending),
            ],
        )
        .await;
    assert!(
        matches!(taken, Err(StateError::TakenOver { .. })),
        "{taken:?}"
    );
    assert_eq!(
        db.datasets("p1").await.unwrap()[1].state,
        DatasetState::Pending
    );
    // A run that read the dataset writing resumes it, with the first run's checkpoint.
    db.datasets_writing("p1", &[("a", &other, DatasetState::Writing)])
        .await
        .unwrap();
    assert_eq!(
        db.datasets("p1").await.unwrap()[0].checkpoint,
        Some(checkpoint),
        "the first checkpoint is kept"
    );
    db.dataset_done(
        &push,
        "a",
        DatasetStatus::Created,
        &DatasetDetail::default(),
        Some(HeadUpdate::Set {
            kind: AssetKind::Tabular,
            files: vec!["aa".into()],
            merge: true,
        }),
    )
    .await
    .unwrap();
    assert_eq!(
        db.dataset_head("demo", "a", "dev").await.unwrap(),
        Some((AssetKind::Tabular, vec!["aa".to_owned()]))
    );
    let problem = Problem::new(500, "engine.failed", "Engine failed");
    db.dataset_failed("p1", "old", &problem).await.unwrap();
    let result = PushReport {
        finished_at: now(),
        counts: ResultCounts::default(),
        iris: vec![],
    };
    db.finish_push("p1", PushState::Failed, None, &result, None)
        .await
        .unwrap();
    // A failed push can be committed again; done datasets stay done.
    assert_eq!(
        db.start_commit("p1").await.unwrap(),
        Some(PushState::Committing)
    );
    let rows = db.datasets("p1").await.unwrap();
    assert_eq!(rows[0].state, DatasetState::Done);
    assert_eq!(rows[1].state, DatasetState::Pending);
    assert_eq!(rows[1].error, None);
}

#[tokio::test]
async fn pushes_finishing_at_once_write_the_package_node_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    let node = |push: &str, version: &str| PackageNode {
        namespace: "demo".into(),
        branch: "dev".into(),
        url: "stone:demo".into(),
        iri: "https://h/demo".into(),
        package: PackageMetadata {
            version: Some(version.into()),
            ..PackageMetadata::default()
        },
        resources: vec![],
        push_id: push.into(),
        updated_at: now(),
    };
    let result = PushReport {
        finished_at: now(),
        counts: ResultCounts::default(),
        iris: vec![],
    };
    let ids: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
    for id in &ids {
        db.create_push(id, "me", &manifest(), false, &[])
            .await
            .unwrap();
    }
    // Eight pushes of the same package finish at once: the status is decided where
    // the node is written, so exactly one of them created it.
    let finishing = ids.iter().map(|id| {
        let db = db.clone();
        let node = node(id, "1");
        let result = result.clone();
        let id = id.clone();
        tokio::spawn(async move {
            db.finish_push(&id, PushState::Succeeded, Some(&node), &result, None)
                .await
                .unwrap()
        })
    });
    let statuses: Vec<Option<NodeStatus>> = futures::future::join_all(finishing)
        .await
        .into_iter()
        .map(|s| s.unwrap())
        .collect();
    let created = statuses
        .iter()
        .filter(|s| **s == Some(NodeStatus::Created))
        .count();
    let unchanged = statuses
        .iter()
        .filter(|s| **s == Some(NodeStatus::Unchanged))
        .count();
    assert_eq!((created, unchanged), (1, 7), "{statuses:?}");
    db.create_push("q", "me", &manifest(), false, &[])
        .await
        .unwrap();
    assert_eq!(
        db.finish_push(
            "q",
            PushState::Succeeded,
            Some(&node("q", "2")),
            &result,
            None
        )
        .await
        .unwrap(),
        Some(NodeStatus::Updated)
    );
    let stored = db.package_node("demo", "dev").await.unwrap().unwrap();
    assert_eq!(stored.package.version.as_deref(), Some("2"));
    assert_eq!(
        db.push("q").await.unwrap().unwrap().node_status,
        Some(NodeStatus::Updated)
    );
}

#[tokio::test]
async fn multipart_bookkeeping() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    let record = MultipartRecord {
        sha256: "s".into(),
        owner: "a".into(),
        size: 10,
        part_size: 4,
        upload_id: "u1".into(),
    };
    assert_eq!(db.create_multipart(&record).await.unwrap(), record);
    let other = MultipartRecord {
        upload_id: "u2".into(),
        ..record.clone()
    };
    assert_eq!(
        db.create_multipart(&other).await.unwrap(),
        record,
        "the first upload of an owner wins"
    );
    // Another owner's upload of the same content is its own.
    let theirs = MultipartRecord {
        owner: "b".into(),
        size: 99,
        upload_id: "u3".into(),
        ..record.clone()
    };
    assert_eq!(db.create_multipart(&theirs).await.unwrap(), theirs);
    db.record_part("u1", 2, 4).await.unwrap();
    db.record_part("u1", 1, 4).await.unwrap();
    assert_eq!(db.received_parts("u1").await.unwrap(), vec![1, 2]);
    assert_eq!(db.received_parts("u3").await.unwrap(), Vec::<u32>::new());
    assert_eq!(
        db.multipart_upload("s", "u3").await.unwrap(),
        Some(theirs.clone())
    );
    db.delete_multipart("u1").await.unwrap();
    assert_eq!(db.multipart("s", "a").await.unwrap(), None);
    assert_eq!(db.received_parts("u1").await.unwrap(), Vec::<u32>::new());
    assert_eq!(db.multipart("s", "b").await.unwrap(), Some(theirs.clone()));
    // A content verified (from another caller's upload) leaves b's upload alone.
    db.mark_verified("s", 10).await.unwrap();
    assert_eq!(db.multipart("s", "b").await.unwrap(), Some(theirs));
    assert_eq!(db.verified_content("s").await.unwrap(), Some(10));
    assert_eq!(
        db.verified_content_at("s").await.unwrap(),
        Some((10, String::new()))
    );
    // A content kept where a caller's direct upload put it (issue 24).
    db.mark_verified_at("d", 7, "a").await.unwrap();
    assert_eq!(
        db.verified_content_at("d").await.unwrap(),
        Some((7, "a".to_owned()))
    );
    // Possession.
    db.record_holder("s", "a").await.unwrap();
    db.record_holder("s", "a").await.unwrap();
    assert_eq!(
        db.held_among("a", &["s", "t"]).await.unwrap(),
        BTreeSet::from(["s".to_owned()])
    );
    assert!(db.held_among("b", &["s"]).await.unwrap().is_empty());
}

/// Issue 27: holders recorded at once go in shared transactions, and every call returns
/// only once its own record is there (a duplicate, and another caller's record of the same
/// content, included).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn holders_recorded_together_are_each_there_when_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    let calls: Vec<_> = (0..300)
        .map(|i| {
            let db = db.clone();
            tokio::spawn(async move {
                let (sha256, holder) = (format!("c{}", i % 150), format!("h{}", i % 2));
                db.record_holder(&sha256, &holder).await.unwrap();
                // Returned: it is there, whoever wrote it.
                let held = db.held_among(&holder, &[&sha256]).await.unwrap();
                assert!(held.contains(&sha256), "{sha256} of {holder} not recorded");
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    let all: Vec<String> = (0..150).map(|i| format!("c{i}")).collect();
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let even = db.held_among("h0", &all).await.unwrap();
    let odd = db.held_among("h1", &all).await.unwrap();
    assert_eq!(even.len() + odd.len(), 150, "each (content, holder) once");
    assert!(
        even.iter()
            .all(|c| c[1..].parse::<usize>().unwrap() % 2 == 0)
    );
}

/// Issue 27: what the commit of a paged push takes from the files its batches recorded,
/// in the database: pages in path order, the quota's figures, the head's contents.
#[tokio::test]
async fn a_paged_push_is_read_in_pages_and_its_head_and_quota_come_from_its_files() {
    use stone_api::{DatasetFiles, ManifestFile};
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    let mut paged = manifest();
    paged.paged_files = true;
    let rows = vec![NewDataset {
        name: "f".into(),
        kind: AssetKind::Blob,
        operation: Operation::Write,
    }];
    db.create_push("p", "me", &paged, false, &rows)
        .await
        .unwrap();
    let file = |path: &str, sha256: &str, size: u64| ManifestFile {
        path: path.into(),
        sha256: sha256.repeat(32),
        size,
    };
    let batch = DatasetFiles {
        name: "f".into(),
        // "B" sorts before "a" bytewise; "c" shares a content with "a".
        files: vec![
            file("b", "22", 2),
            file("a", "11", 1),
            file("c", "11", 1),
            file("B", "33", 3),
        ],
    };
    db.record_files("p", &[batch]).await.unwrap().unwrap();
    assert_eq!(
        db.paged_file_counts("p").await.unwrap(),
        std::collections::BTreeMap::from([("f".to_owned(), 4u64)])
    );
    let paths = |page: Vec<ManifestFile>| page.into_iter().map(|f| f.path).collect::<Vec<_>>();
    assert_eq!(
        paths(db.paged_files_after("p", "f", None, 2).await.unwrap()),
        ["B", "a"]
    );
    assert_eq!(
        paths(db.paged_files_after("p", "f", Some("a"), 2).await.unwrap()),
        ["b", "c"]
    );
    assert!(
        db.paged_files_after("p", "f", Some("c"), 2)
            .await
            .unwrap()
            .is_empty()
    );

    // The quota: three distinct contents, 6 bytes, of which nothing is held yet.
    let change = QuotaChange {
        namespace: "demo",
        branch: "dev",
        writes: vec![],
        units: vec![],
        deletes: vec![],
    };
    let (figures, recorded) = db
        .reserve_paged_quota(&change, "p", &[], Some(5))
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked, recorded), (0, 6, false));
    let (figures, recorded) = db
        .reserve_paged_quota(&change, "p", &["f"], Some(5))
        .await
        .unwrap();
    assert_eq!(
        (figures.asked, recorded),
        (0, true),
        "a skipped dataset adds nothing"
    );
    let (figures, recorded) = db
        .reserve_paged_quota(&change, "p", &[], Some(6))
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked, recorded), (0, 6, true));
    let (figures, _) = db
        .reserve_paged_quota(&change, "p", &[], Some(6))
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked), (6, 0), "recorded: held now");
    let delete = QuotaChange {
        deletes: vec!["f"],
        ..change.clone()
    };
    let figures = db.quota_figures(&delete).await.unwrap();
    assert_eq!(figures.used, 0, "what a deleted dataset holds is freed");
    // Issue 56: each file counts once per unit of its dataset, in another namespace that
    // holds nothing (the units joined by index, not a scan of them for each file).
    let units = QuotaChange {
        namespace: "units",
        units: vec![("f", "a".to_owned()), ("f", "b".to_owned())],
        deletes: vec![],
        ..change.clone()
    };
    let (figures, recorded) = db
        .reserve_paged_quota(&units, "p", &[], None)
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked, recorded), (0, 12, true));
    let (figures, _) = db
        .reserve_paged_quota(&units, "p", &[], None)
        .await
        .unwrap();
    assert_eq!(
        (figures.used, figures.asked),
        (12, 0),
        "both units recorded"
    );
    db.record_paged_contents("p", &[]).await.unwrap();
    db.record_paged_contents("p", &[]).await.unwrap();

    // The head: the push's distinct contents, sorted, with those it held when merging.
    let push = db.push("p").await.unwrap().unwrap();
    let detail = DatasetDetail::default();
    // An outcome is recorded once per write (a done dataset takes no other): each head
    // move below is a write of its own.
    let checkpoint = serde_json::json!({});
    let done = async |head| {
        let seen = db.datasets("p").await.unwrap()[0].state;
        db.datasets_writing("p", &[("f", &checkpoint, seen)])
            .await
            .unwrap();
        db.dataset_done(&push, "f", DatasetStatus::Created, &detail, Some(head))
            .await
    };
    done(HeadUpdate::Set {
        kind: AssetKind::Blob,
        files: vec!["44".repeat(32)],
        merge: false,
    })
    .await
    .unwrap();
    done(HeadUpdate::Paged {
        kind: AssetKind::Blob,
        merge: true,
    })
    .await
    .unwrap();
    let all: Vec<String> = ["11", "22", "33", "44"]
        .iter()
        .map(|s| s.repeat(32))
        .collect();
    assert_eq!(
        db.dataset_head("demo", "f", "dev").await.unwrap(),
        Some((AssetKind::Blob, all.clone()))
    );
    done(HeadUpdate::Paged {
        kind: AssetKind::Blob,
        merge: false,
    })
    .await
    .unwrap();
    assert_eq!(
        db.dataset_head("demo", "f", "dev").await.unwrap(),
        Some((AssetKind::Blob, all[..3].to_vec()))
    );
}

/// Issue 27: a batch reads the push's summary and the datasets it names, not the
/// manifest: the outline holds only the named datasets the push writes, with their kinds,
/// and whether the push is paged follows the manifest last posted.
#[tokio::test]
async fn a_batch_outline_holds_only_the_datasets_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    db.create_push("p", "me", &manifest(), false, &datasets())
        .await
        .unwrap();
    let (summary, outline) = db
        .push_outline("p", ["a", "old", "nope", "a"])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(summary.principal, "me");
    assert!(!outline.paged_files);
    assert_eq!(
        outline.datasets,
        [OutlinedDataset {
            name: "a".into(),
            kind: AssetKind::Tabular,
        }],
        "a dataset the push deletes, or does not have, is not in the outline"
    );
    let mut paged = manifest();
    paged.paged_files = true;
    db.replace_manifest("p", &paged, false, &datasets())
        .await
        .unwrap()
        .unwrap();
    let (summary, outline) = db.push_outline("p", []).await.unwrap().unwrap();
    assert!(summary.paged_files && outline.paged_files);
    assert!(outline.datasets.is_empty());
    assert!(db.push_outline("other", ["a"]).await.unwrap().is_none());
}

/// Two runs of a push: the first marks a dataset writing and stalls (its lease runs out),
/// the second takes the push over, resumes the dataset and records it. The first one's
/// late record is refused as a lost lease, nothing of its transaction kept: the dataset
/// has one outcome and one event.
#[tokio::test]
async fn a_run_that_lost_its_lease_cannot_record_an_outcome_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    db.create_push("p1", "me", &manifest(), false, &datasets())
        .await
        .unwrap();
    let push = db.push("p1").await.unwrap().unwrap();
    let checkpoint = serde_json::json!({"snapshot_id": null});
    db.datasets_writing("p1", &[("a", &checkpoint, DatasetState::Pending)])
        .await
        .unwrap();
    // The second run read the dataset writing: it resumes it, and finishes first.
    db.datasets_writing("p1", &[("a", &checkpoint, DatasetState::Writing)])
        .await
        .unwrap();
    let done = |status| WriteOutcome::Done {
        name: "a".into(),
        status,
        detail: DatasetDetail::default(),
        head: Some(HeadUpdate::Set {
            kind: AssetKind::Tabular,
            files: vec!["aa".into()],
            merge: false,
        }),
    };
    db.datasets_finished(&push, &[done(DatasetStatus::Created)])
        .await
        .unwrap();
    let events = async || {
        db.events_after(&EventQuery {
            namespace: Some("demo"),
            branch: None,
            after: 0,
            limit: 100,
        })
        .await
        .unwrap()
        .0
    };
    assert_eq!(events().await.len(), 1, "{:#?}", events().await);

    // The first run comes back with its outcome, and the next dataset's mark.
    let late = db
        .datasets_moved(
            &push,
            &[done(DatasetStatus::Replaced)],
            &[("old", &checkpoint, DatasetState::Pending)],
        )
        .await;
    assert!(
        matches!(late, Err(StateError::TakenOver { .. })),
        "{late:?}"
    );
    let late = db
        .datasets_finished(
            &push,
            &[WriteOutcome::Failed {
                name: "a".into(),
                problem: Problem::new(500, "push.engine_failed", "Engine failed"),
            }],
        )
        .await;
    assert!(
        matches!(late, Err(StateError::TakenOver { .. })),
        "{late:?}"
    );
    let rows = db.datasets("p1").await.unwrap();
    assert_eq!(
        (rows[0].state, rows[0].status),
        (DatasetState::Done, Some(DatasetStatus::Created)),
        "the second run's outcome stands"
    );
    assert_eq!(rows[1].state, DatasetState::Pending, "the late mark undone");
    let events = events().await;
    assert_eq!(events.len(), 1, "one event for the dataset: {events:#?}");
    assert_eq!(events[0].dataset.as_deref(), Some("a"));
}

/// Issue 56: each pack's check asks, for every content in the pack, whether a batch of
/// the push declared it. Without an index on the content, each lookup read every file of
/// the push (a push of 20,000 one-file graph datasets: ~60 s between its file batches and
/// its commit, quadratic in its files). The lookup answers from the batches, and SQLite
/// plans it as a search of `push_files_by_content`.
#[tokio::test]
async fn a_paged_push_finds_a_declared_content_by_an_index() {
    use stone_api::{DatasetFiles, ManifestFile};
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    let mut paged = manifest();
    paged.paged_files = true;
    let rows: Vec<NewDataset> = (0..3)
        .map(|i| NewDataset {
            name: format!("g{i}"),
            kind: AssetKind::Graph,
            operation: Operation::Write,
        })
        .collect();
    db.create_push("p", "me", &paged, false, &rows)
        .await
        .unwrap();
    let batch: Vec<DatasetFiles> = (0..3u64)
        .map(|i| DatasetFiles {
            name: format!("g{i}"),
            files: vec![ManifestFile {
                path: "graph.nt".into(),
                sha256: format!("{i}").repeat(64),
                size: 10 + i,
            }],
        })
        .collect();
    db.record_files("p", &batch).await.unwrap().unwrap();
    assert_eq!(
        db.paged_file_size("p", &"2".repeat(64)).await.unwrap(),
        Some(12)
    );
    assert_eq!(
        db.paged_file_size("p", &"9".repeat(64)).await.unwrap(),
        None
    );
    assert_eq!(
        db.paged_file_size("other", &"1".repeat(64)).await.unwrap(),
        None
    );

    assert_searches_the_content_index(&db, super::push_files::PAGED_FILE_SIZE, "2".repeat(64))
        .await;

    // A pack's contents, looked up together: those the batches named, by the same index.
    let asked: Vec<String> = ["0", "2", "9"].iter().map(|c| c.repeat(64)).collect();
    let found = db.paged_contents_among("p", &asked).await.unwrap();
    assert_eq!(
        found,
        ["0", "2"]
            .iter()
            .map(|c| c.repeat(64))
            .collect::<std::collections::HashSet<_>>()
    );
    assert!(
        db.paged_contents_among("other", &asked)
            .await
            .unwrap()
            .is_empty()
    );
    assert_searches_the_content_index(
        &db,
        &super::push_files::paged_contents_sql(super::Backend::Sqlite),
        serde_json::json!([{ "sha256": "2".repeat(64) }]).to_string(),
    )
    .await;
}

/// SQLite plans `sql` (parameters: push `p`, then `second`) as a search of
/// `push_files_by_content` by sha256.
async fn assert_searches_the_content_index(db: &StateDb, sql: &str, second: String) {
    let plan: Vec<String> = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
        .bind("p")
        .bind(second)
        .fetch_all(&db.pool)
        .await
        .unwrap()
        .iter()
        .map(|row| row.get::<String, _>("detail"))
        .collect();
    assert!(
        plan.iter()
            .any(|step| step.contains("push_files_by_content") && step.contains("sha256=?")),
        "not a search of push_files_by_content: {sql}\n{plan:?}"
    );
}
