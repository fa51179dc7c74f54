//! The state database's set-based batch statements (a commit records hundreds of
//! datasets per statement) and the change numbers behind `GET /v1/pushes/{id}?since=`,
//! on SQLite and on PostgreSQL: rows, heads (merged and replaced), failures, and what a
//! poll after a given change number sees, and what a push's result reads.

use serde_json::json;
use stone_api::{
    AssetKind, CreatePush, DatasetDetail, DatasetState, DatasetStatus, PackageMetadata, Problem,
    PushFlags,
};
use stone_server::state::{
    HeadUpdate, NewDataset, Operation, StateDb, StateError, WriteOutcome, WritingMark,
};

const COUNT: usize = 300;

fn name(i: usize) -> String {
    format!("d{i:04}")
}

fn sha(c: char) -> String {
    c.to_string().repeat(64)
}

async fn batches_and_change_numbers(db: StateDb) {
    let manifest = CreatePush {
        push_id: None,
        namespace: "demo".into(),
        branch: "dev".into(),
        options: PushFlags::default(),
        package: PackageMetadata::default(),
        datasets: vec![],
        paged_files: false,
    };
    let rows: Vec<NewDataset> = (0..COUNT)
        .map(|i| NewDataset {
            name: name(i),
            kind: AssetKind::Blob,
            operation: Operation::Write,
        })
        .collect();
    db.create_push("p1", "me", &manifest, false, &rows)
        .await
        .unwrap();
    let push = db.push("p1").await.unwrap().unwrap();
    let created = db.push_summary("p1").await.unwrap().unwrap().changes;
    let stored = db.datasets("p1").await.unwrap();
    assert_eq!(stored.len(), COUNT);
    assert!(
        stored
            .iter()
            .enumerate()
            .all(|(i, d)| d.name == name(i) && d.position == i as i64),
        "rows in manifest order with their positions"
    );
    assert_eq!(
        db.start_commit("p1")
            .await
            .unwrap()
            .map(|s| s.is_terminal()),
        Some(false)
    );
    let started = db.push_summary("p1").await.unwrap().unwrap().changes;
    assert!(started > created, "starting the commit is a change");
    // Of the push, not of its datasets: they were pending since the push was created, and
    // a poll from then is not sent them all again.
    let since_created = db.datasets_changed_after("p1", created).await.unwrap();
    assert!(
        since_created.is_empty(),
        "{} datasets listed again as pending",
        since_created.len()
    );
    assert_eq!(
        db.datasets_changed_after("p1", -1).await.unwrap().len(),
        COUNT
    );

    // An earlier push left a head on d0001, which a merging write keeps.
    let earlier = WriteOutcome::Done {
        name: name(1),
        status: DatasetStatus::Created,
        detail: DatasetDetail::default(),
        head: Some(HeadUpdate::Set {
            kind: AssetKind::Blob,
            files: vec![sha('a')],
            merge: false,
        }),
    };
    db.datasets_finished(&push, &[earlier]).await.unwrap();
    let before_batch = db.push_summary("p1").await.unwrap().unwrap().changes;

    // One batch: every dataset writing (checkpoints kept from the first attempt).
    let checkpoint = json!({"exists": false});
    let other = json!({"exists": true});
    let names: Vec<String> = (0..COUNT).map(name).collect();
    // Each in the state this run reads it in (d0001 is done already).
    let read = db.datasets("p1").await.unwrap();
    let marks: Vec<WritingMark> = names
        .iter()
        .zip(&read)
        .map(|(n, record)| (n.as_str(), &checkpoint, record.state))
        .collect();
    db.datasets_writing("p1", &marks).await.unwrap();
    // The batch again, as a resumed run reads it (writing).
    let marks: Vec<WritingMark> = names
        .iter()
        .map(|n| (n.as_str(), &other, DatasetState::Writing))
        .collect();
    db.datasets_writing("p1", &marks).await.unwrap();
    let writing = db.push_summary("p1").await.unwrap().unwrap().changes;
    assert_eq!(writing, before_batch + 2);
    let stored = db.datasets("p1").await.unwrap();
    assert!(stored.iter().all(|d| d.state == DatasetState::Writing));
    assert!(
        stored
            .iter()
            .all(|d| d.checkpoint.as_ref() == Some(&checkpoint)),
        "the first checkpoint is kept"
    );

    // Outcomes: the first 200 done (d0001 merging into its head, d0002 replacing), the
    // rest failed; one transaction.
    let outcomes: Vec<WriteOutcome> = (0..COUNT)
        .map(|i| {
            if i < 200 {
                WriteOutcome::Done {
                    name: name(i),
                    status: DatasetStatus::Created,
                    detail: DatasetDetail {
                        files: Some(i as u64),
                        ..DatasetDetail::default()
                    },
                    head: Some(HeadUpdate::Set {
                        kind: AssetKind::Blob,
                        files: vec![sha('b')],
                        merge: i != 2,
                    }),
                }
            } else {
                WriteOutcome::Failed {
                    name: name(i),
                    problem: Problem::new(503, "engine.failed", "Engine failed")
                        .with_detail(format!("dataset {i}")),
                }
            }
        })
        .collect();
    db.datasets_finished(&push, &outcomes).await.unwrap();
    let finished = db.push_summary("p1").await.unwrap().unwrap().changes;
    assert_eq!(finished, writing + 1);

    let stored = db.datasets("p1").await.unwrap();
    for (i, d) in stored.iter().enumerate() {
        if i < 200 {
            assert_eq!(d.state, DatasetState::Done, "{}", d.name);
            assert_eq!(d.status, Some(DatasetStatus::Created));
            assert_eq!(d.detail.as_ref().and_then(|x| x.files), Some(i as u64));
            assert!(d.error.is_none());
        } else {
            assert_eq!(d.state, DatasetState::Failed, "{}", d.name);
            assert_eq!(
                d.error.as_ref().and_then(|e| e.detail.clone()),
                Some(format!("dataset {i}"))
            );
        }
    }
    let head = |n: usize| {
        let db = db.clone();
        async move { db.dataset_head("demo", &name(n), "dev").await.unwrap() }
    };
    assert_eq!(
        head(1).await,
        Some((AssetKind::Blob, vec![sha('a'), sha('b')])),
        "merged with the head it had"
    );
    assert_eq!(head(0).await, Some((AssetKind::Blob, vec![sha('b')])));
    assert_eq!(head(2).await, Some((AssetKind::Blob, vec![sha('b')])));
    assert_eq!(head(250).await, None, "a failed write moves no head");

    // Change numbers: after the writing marks, only the outcomes' rows; after the last
    // change, nothing; from the start, everything.
    assert_eq!(
        db.datasets_changed_after("p1", writing)
            .await
            .unwrap()
            .len(),
        COUNT
    );
    assert!(
        db.datasets_changed_after("p1", finished)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        db.datasets_changed_after("p1", -1).await.unwrap().len(),
        COUNT
    );

    // A single failure later: only that row is new.
    db.dataset_failed(
        "p1",
        &name(0),
        &Problem::new(409, "push.skipped", "Skipped"),
    )
    .await
    .unwrap();
    let changed = db.datasets_changed_after("p1", finished).await.unwrap();
    assert_eq!(
        changed.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
        [name(0).as_str()]
    );
    assert_eq!(changed[0].state, DatasetState::Failed);

    // What a push's result reads: every dataset's name, state and status, in order.
    let states = db.dataset_states("p1").await.unwrap();
    assert_eq!(states.len(), COUNT);
    assert_eq!(states[0], (name(0), DatasetState::Failed, None));
    assert_eq!(
        states[1],
        (name(1), DatasetState::Done, Some(DatasetStatus::Created))
    );
    assert_eq!(states[250], (name(250), DatasetState::Failed, None));

    // A batch's outcomes and the next batch's checkpoints, in one transaction: one change
    // number for both, and the first checkpoint still kept.
    let before_moved = db.push_summary("p1").await.unwrap().unwrap().changes;
    let done = WriteOutcome::Done {
        name: name(250),
        status: DatasetStatus::Created,
        detail: DatasetDetail::default(),
        head: Some(HeadUpdate::Set {
            kind: AssetKind::Blob,
            files: vec![sha('c')],
            merge: true,
        }),
    };
    let next = name(251);
    // d0251 failed above: a rerun writes it again, from the state it read (failed).
    db.datasets_moved(
        &push,
        &[done],
        &[(next.as_str(), &other, DatasetState::Failed)],
    )
    .await
    .unwrap();
    assert_eq!(
        db.push_summary("p1").await.unwrap().unwrap().changes,
        before_moved + 1
    );
    let moved = db.datasets_changed_after("p1", before_moved).await.unwrap();
    let seen: Vec<_> = moved
        .iter()
        .map(|d| (d.name.as_str(), d.state, d.checkpoint.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                name(250).as_str(),
                DatasetState::Done,
                Some(checkpoint.clone())
            ),
            (
                next.as_str(),
                DatasetState::Writing,
                Some(checkpoint.clone())
            ),
        ]
    );
    assert_eq!(head(250).await, Some((AssetKind::Blob, vec![sha('c')])));

    // Issue 58: a late outcome of a dataset done (a run that lost its lease, the push
    // taken over) is refused, and nothing of its transaction is kept: one outcome, one
    // event.
    let late = WriteOutcome::Done {
        name: name(250),
        status: DatasetStatus::Replaced,
        detail: DatasetDetail::default(),
        head: Some(HeadUpdate::Set {
            kind: AssetKind::Blob,
            files: vec![sha('d')],
            merge: false,
        }),
    };
    let before_late = db.push_summary("p1").await.unwrap().unwrap().changes;
    let refused = db
        .datasets_moved(
            &push,
            &[late],
            &[(name(252).as_str(), &other, DatasetState::Failed)],
        )
        .await;
    assert!(
        matches!(refused, Err(StateError::TakenOver { .. })),
        "{refused:?}"
    );
    assert_eq!(head(250).await, Some((AssetKind::Blob, vec![sha('c')])));
    assert_eq!(
        db.push_summary("p1").await.unwrap().unwrap().changes,
        before_late,
        "the late transaction was undone"
    );
    assert_eq!(
        db.dataset_states("p1").await.unwrap()[252],
        (name(252), DatasetState::Failed, None)
    );
}

#[tokio::test]
async fn batches_and_change_numbers_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    batches_and_change_numbers(db).await;
}

#[tokio::test]
async fn batches_and_change_numbers_on_postgresql() {
    let postgres = stone_test::services::Postgres::start();
    let db = StateDb::connect(&postgres.url(), 2).await.unwrap();
    batches_and_change_numbers(db).await;
}

/// A push manifest of `demo`/`dev` whose files follow in batches (its datasets are rows).
fn paged_manifest() -> CreatePush {
    CreatePush {
        push_id: None,
        namespace: "demo".into(),
        branch: "dev".into(),
        options: PushFlags::default(),
        package: PackageMetadata::default(),
        datasets: vec![],
        paged_files: true,
    }
}

/// Issue 27: the digest of a paged push's files, streamed from `push_files`, is the
/// digest of the same files sorted as a head sorts them (bytewise, whatever the
/// database's collation), and batches sent twice or out of order change nothing.
async fn paged_listing_is_the_heads(db: StateDb) {
    use stone_api::{DatasetFiles, ManifestFile};
    use stone_server::engines::blob::ListingDigest;
    let manifest = paged_manifest();
    let rows = vec![NewDataset {
        name: "scans".into(),
        kind: AssetKind::Blob,
        operation: Operation::Write,
    }];
    db.create_push("p2", "me", &manifest, false, &rows)
        .await
        .unwrap();
    // Upper before lower case, '-' before '_', ü after z in bytes; a locale sorts them
    // otherwise.
    let paths = [
        "b/a.txt", "B.txt", "a_b", "a-b", "a.txt", "z", "ü.bin", "A", "a b", "a/b/c",
    ];
    let file = |i: usize, path: &str| ManifestFile {
        path: path.to_owned(),
        sha256: format!("{:064x}", i),
        size: i as u64 * 7,
    };
    let all: Vec<ManifestFile> = paths.iter().enumerate().map(|(i, p)| file(i, p)).collect();
    let batch = |files: &[ManifestFile]| {
        vec![DatasetFiles {
            name: "scans".into(),
            files: files.to_vec(),
        }]
    };
    db.record_files("p2", &batch(&all[5..])).await.unwrap();
    db.record_files("p2", &batch(&all[..7])).await.unwrap();
    let mut sorted = all.clone();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut expected = ListingDigest::default();
    for f in &sorted {
        expected.add(&f.path, &f.sha256, f.size);
    }
    let listing = db.paged_listing("p2", "scans").await.unwrap();
    assert_eq!((listing.files(), listing.bytes()), (10, 7 * 45));
    assert_eq!(listing.finish(), expected.finish());
    let other = db.paged_listing("p2", "other").await.unwrap();
    assert_eq!(other.files(), 0);

    // The commit of a big folder reads the files in pages, in the same order.
    let mut paged = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = db
            .paged_files_after("p2", "scans", after.as_deref(), 3)
            .await
            .unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.path.clone());
        paged.extend(page.into_iter().map(|f| f.path));
    }
    let order: Vec<&str> = sorted.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paged, order);

    // Its quota and recorded contents, computed by the database: ten contents, nothing
    // held yet; held once recorded; a skipped (unchanged) dataset adds nothing.
    let change = stone_server::state::QuotaChange {
        namespace: "demo",
        branch: "dev",
        writes: vec![],
        units: vec![],
        deletes: vec![],
    };
    let (figures, recorded) = db
        .reserve_paged_quota(&change, "p2", &[], Some(7 * 45 - 1))
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked, recorded), (0, 7 * 45, false));
    let (_, recorded) = db
        .reserve_paged_quota(&change, "p2", &["scans"], Some(0))
        .await
        .unwrap();
    assert!(recorded);
    let (figures, recorded) = db
        .reserve_paged_quota(&change, "p2", &[], None)
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked, recorded), (0, 7 * 45, true));
    let (figures, _) = db
        .reserve_paged_quota(&change, "p2", &[], None)
        .await
        .unwrap();
    assert_eq!((figures.used, figures.asked), (7 * 45, 0));
    db.record_paged_contents("p2", &[]).await.unwrap();
    db.record_paged_contents("p2", &["scans"]).await.unwrap();

    // Its head's contents, from the same rows: merged with what the head held, or not.
    let push = db.push("p2").await.unwrap().unwrap();
    let detail = DatasetDetail::default();
    let held = sha('f');
    db.dataset_done(
        &push,
        "scans",
        DatasetStatus::Created,
        &detail,
        Some(HeadUpdate::Set {
            kind: AssetKind::Blob,
            files: vec![held.clone()],
            merge: false,
        }),
    )
    .await
    .unwrap();
    let mut contents: Vec<String> = all.iter().map(|f| f.sha256.clone()).collect();
    contents.sort();
    for merge in [true, false] {
        // Each a write of its own: a done dataset takes no other outcome until marked.
        db.datasets_writing("p2", &[("scans", &json!({}), DatasetState::Done)])
            .await
            .unwrap();
        db.dataset_done(
            &push,
            "scans",
            DatasetStatus::Appended,
            &detail,
            Some(HeadUpdate::Paged {
                kind: AssetKind::Blob,
                merge,
            }),
        )
        .await
        .unwrap();
        let mut expected = contents.clone();
        if merge {
            expected.push(held.clone());
            expected.sort();
        }
        assert_eq!(
            db.dataset_head("demo", "scans", "dev").await.unwrap(),
            Some((AssetKind::Blob, expected)),
            "merge: {merge}"
        );
    }
}

#[tokio::test]
async fn paged_listing_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    paged_listing_is_the_heads(db).await;
}

#[tokio::test]
async fn paged_listing_on_postgresql() {
    let postgres = stone_test::services::Postgres::start();
    let db = StateDb::connect(&postgres.url(), 2).await.unwrap();
    paged_listing_is_the_heads(db).await;
}

/// The check before a paged push's commit walks every file of the push a page at a time
/// across datasets (one query a page, not one a dataset: a push of 100,000 one-file
/// resources): every row once, pages cut inside a dataset and at its end, paths a locale
/// would sort otherwise than bytes.
async fn paged_files_walk_across_datasets(db: StateDb) {
    use stone_api::{DatasetFiles, ManifestFile};
    let manifest = paged_manifest();
    let rows: Vec<NewDataset> = ["e", "f", "g"]
        .into_iter()
        .map(|name| NewDataset {
            name: name.into(),
            kind: AssetKind::Blob,
            operation: Operation::Write,
        })
        .collect();
    db.create_push("p3", "me", &manifest, false, &rows)
        .await
        .unwrap();
    let files = |name: &str, paths: &[&str]| DatasetFiles {
        name: name.into(),
        files: paths
            .iter()
            .enumerate()
            .map(|(i, path)| ManifestFile {
                path: (*path).into(),
                sha256: format!("{i:064x}"),
                size: 4,
            })
            .collect(),
    };
    let f = ["b", "a_b", "a-b", "B", "ü", "a b"];
    db.record_files(
        "p3",
        &[files("g", &["a", "b"]), files("e", &["z"]), files("f", &f)],
    )
    .await
    .unwrap()
    .unwrap();
    let mut walked = Vec::new();
    let mut after: Option<(String, String)> = None;
    let mut pages = 0;
    loop {
        let page = db
            .paged_files_page(
                "p3",
                after.as_ref().map(|(d, p)| (d.as_str(), p.as_str())),
                3,
            )
            .await
            .unwrap();
        assert!(page.len() <= 3, "a page holds at most its limit");
        let Some((dataset, last)) = page.last() else {
            break;
        };
        pages += 1;
        after = Some((dataset.clone(), last.path.clone()));
        walked.extend(page.into_iter().map(|(d, f)| format!("{d}/{}", f.path)));
    }
    assert_eq!(pages, 3, "9 files, 3 a page: {walked:?}");
    // In the database's order, each once.
    let mut sorted = walked.clone();
    sorted.sort();
    sorted.dedup();
    let mut expected: Vec<String> = ["e/z", "g/a", "g/b"].map(String::from).to_vec();
    expected.extend(f.iter().map(|p| format!("f/{p}")));
    expected.sort();
    assert_eq!(sorted, expected, "every file once: {walked:?}");
    assert_eq!(walked.len(), expected.len(), "no file twice: {walked:?}");
    // The datasets come one after the other.
    let datasets: Vec<&str> = walked.iter().map(|w| &w[..1]).collect();
    assert_eq!(datasets, ["e", "f", "f", "f", "f", "f", "f", "g", "g"]);
}

#[tokio::test]
async fn paged_files_walk_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    paged_files_walk_across_datasets(db).await;
}

#[tokio::test]
async fn paged_files_walk_on_postgresql() {
    let postgres = stone_test::services::Postgres::start();
    let db = StateDb::connect(&postgres.url(), 2).await.unwrap();
    paged_files_walk_across_datasets(db).await;
}
