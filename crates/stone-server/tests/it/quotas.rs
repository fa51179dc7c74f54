//! Issue 22, per-namespace quotas (`[quotas]`), on the real server (local mode): a push
//! that would take its namespace over its quota is refused with
//! `413 namespace.quota_exceeded` (used, quota, asked) before anything is recorded; a
//! delete frees the namespace; two pushes racing past the quota at commit: one lands.

use serde_json::Value;
use stone_server::state::QuotaChange;

use crate::api_support::{
    Dataset, File, Options, Server, Site, blob_files, manifest, noise, numbers_parquet,
};
use crate::integrity::recorded_pushes;

/// 1 MB for every namespace; 3 MB for `big-*`.
const QUOTAS: &str = "[quotas]\ndefault_bytes = 1000000\n[[quotas.namespace]]\npattern = \"big-*\"\nbytes = 3000000\n";

fn server() -> (Site, Server) {
    let site = Site::with_config(QUOTAS);
    let server = site.start();
    (site, server)
}

/// A manifest of one blob dataset per `(name, file)`.
fn blobs(
    namespace: &str,
    replace: bool,
    files: &[(&str, &File)],
) -> (Value, crate::api_support::Contents) {
    let datasets: Vec<Dataset> = files
        .iter()
        .map(|(name, file)| Dataset::new(name, "BLOB", vec![(*file).clone()]))
        .collect();
    let options = Options {
        replace,
        ..Options::default()
    };
    manifest(namespace, "dev", options, None, &datasets)
}

/// The figures of a quota refusal: (used, quota, asked).
fn figures(answer: &crate::api_support::Answer) -> (u64, u64, u64) {
    assert_eq!(
        answer.code(),
        "namespace.quota_exceeded",
        "{:#}",
        answer.body
    );
    let number = |name: &str| {
        answer.body[name]
            .as_u64()
            .unwrap_or_else(|| panic!("no {name}: {:#}", answer.body))
    };
    (number("used"), number("quota"), number("asked"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_over_the_namespace_quota_is_refused_before_anything_is_recorded_and_a_delete_frees_it()
 {
    let (_site, server) = server();
    let first = File::new("first.bin", noise(61, 600_000));
    let second = File::new("second.bin", noise(62, 600_000));

    let (m, contents) = blobs("team", false, &[("first", &first)]);
    server.push(&m, &contents).await;
    let before = recorded_pushes(&server).await;

    // 600 kB more would make 1.2 MB of 1 MB: refused, nothing recorded.
    let (over, _) = blobs("team", false, &[("second", &second)]);
    let refused = server.create_push(&over).await.expect(413);
    assert_eq!(figures(&refused), (600_000, 1_000_000, 600_000));
    assert_eq!(refused.body["namespace"], "team");
    assert_eq!(
        recorded_pushes(&server).await,
        before,
        "nothing was recorded"
    );
    // The same bytes in another namespace, of the 3 MB pattern, fit.
    let (elsewhere, elsewhere_contents) =
        blobs("big-team", false, &[("second", &second), ("first", &first)]);
    server.push(&elsewhere, &elsewhere_contents).await;
    // A content the namespace holds counts again in another dataset, which keeps a copy
    // of its own (issue 52: quotas count what is stored): 1.2 MB of 1 MB, refused.
    let (again, _) = blobs("team", false, &[("first", &first), ("copy", &first)]);
    let refused = server.create_push(&again).await.expect(413);
    assert_eq!(figures(&refused), (600_000, 1_000_000, 600_000));

    // A push that replaces the namespace's datasets with the second file: the first is
    // deleted, which frees its bytes, and the second fits.
    let (replacing, replacing_contents) = blobs("team", true, &[("second", &second)]);
    let status = server.push(&replacing, &replacing_contents).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&server.data_dir, "team", "second", "dev");
    assert!(objects.values().all(|o| *o == second.bytes));
    // Now the second is what the namespace holds.
    let third = File::new("third.bin", noise(63, 500_000));
    let (over, _) = blobs("team", false, &[("second", &second), ("third", &third)]);
    let refused = server.create_push(&over).await.expect(413);
    assert_eq!(figures(&refused), (600_000, 1_000_000, 500_000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pushes_racing_past_the_quota_at_commit_only_one_lands() {
    let (_site, server) = server();
    // Each fits alone (nothing is counted before a commit is accepted); both do not.
    let a = File::new("a.bin", noise(64, 600_000));
    let b = File::new("b.bin", noise(65, 600_000));
    let mut pushes = Vec::new();
    for (name, file) in [("a", &a), ("b", &b)] {
        let (m, contents) = blobs("race", false, &[(name, file)]);
        let created = server.create_push(&m).await.expect(201).body;
        crate::api_support::upload_all(&server, &created, &contents).await;
        pushes.push(created["push_id"].as_str().unwrap().to_owned());
    }
    let (first, second) = tokio::join!(server.commit(&pushes[0]), server.commit(&pushes[1]));
    let mut statuses = [first.status.as_u16(), second.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [202, 413], "{:#} {:#}", first.body, second.body);
    let (landed, refused) = if first.status.as_u16() == 202 {
        (&pushes[0], second)
    } else {
        (&pushes[1], first)
    };
    assert_eq!(figures(&refused), (600_000, 1_000_000, 600_000));
    assert_eq!(server.wait(landed).await["state"], "succeeded");
    let written: Vec<bool> = ["a", "b"]
        .iter()
        .map(|name| {
            server
                .data_dir
                .join("blobs/race")
                .join(name)
                .join("dev/head.json")
                .exists()
        })
        .collect();
    assert_eq!(
        written.iter().filter(|w| **w).count(),
        1,
        "exactly one push's dataset was written: {written:?}"
    );
}

/// The bookkeeping behind the quota, on one database: what counts, deletes, and two
/// reservations at once for the last bytes (one is recorded).
async fn bookkeeping(db: stone_server::state::StateDb) {
    let sha = |c: char| c.to_string().repeat(64);
    let (a, b, c) = (sha('a'), sha('b'), sha('c'));
    // A content written to two datasets and two branches counts once.
    let first = QuotaChange {
        writes: vec![("d1", a.as_str(), 400), ("d2", a.as_str(), 400)],
        ..change("dev", vec![])
    };
    let (figures, recorded) = db.reserve_quota(&first, Some(1000)).await.unwrap();
    assert!(recorded);
    assert_eq!((figures.used, figures.asked), (0, 400));
    let (figures, recorded) = db
        .reserve_quota(&change("main", vec![("d1", a.as_str(), 400)]), Some(1000))
        .await
        .unwrap();
    assert!(recorded, "nothing new");
    assert_eq!((figures.used, figures.asked), (400, 0));
    // Two pushes for the last 600 bytes, at once: one is recorded.
    let (left, right) = (
        change("dev", vec![("d3", b.as_str(), 500)]),
        change("dev", vec![("d4", c.as_str(), 500)]),
    );
    let (left, right) = tokio::join!(
        db.reserve_quota(&left, Some(1000)),
        db.reserve_quota(&right, Some(1000))
    );
    let (left, right) = (left.unwrap(), right.unwrap());
    assert!(
        left.1 != right.1,
        "exactly one is recorded: {left:?} {right:?}"
    );
    let refused = if left.1 { right.0 } else { left.0 };
    assert_eq!((refused.used, refused.asked), (900, 500));
    // Deleting d1 on both branches still leaves d2 holding `a`; deleting d2 frees it.
    db.reserve_quota(&deleting("main", vec!["d1"]), Some(1000))
        .await
        .unwrap();
    let figures = db
        .quota_figures(&deleting("dev", vec!["d1"]))
        .await
        .unwrap();
    assert_eq!(figures.used, 900);
    let figures = db
        .quota_figures(&deleting("dev", vec!["d1", "d2"]))
        .await
        .unwrap();
    assert_eq!(figures.used, 500);
}

/// A change of namespace `ns` on `branch` that writes `(dataset, sha256, size)`.
fn change<'a>(branch: &'a str, writes: Vec<(&'a str, &'a str, u64)>) -> QuotaChange<'a> {
    QuotaChange {
        namespace: "ns",
        branch,
        writes,
        units: Vec::new(),
        deletes: Vec::new(),
    }
}

/// A change of namespace `ns` that deletes datasets on `branch`.
fn deleting<'a>(branch: &'a str, deletes: Vec<&'a str>) -> QuotaChange<'a> {
    QuotaChange {
        deletes,
        ..change(branch, Vec::new())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quota_bookkeeping_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = stone_server::state::StateDb::open(&dir.path().join("state.db"))
        .await
        .unwrap();
    bookkeeping(db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quota_bookkeeping_on_postgresql() {
    let postgres = stone_test::services::Postgres::start();
    let db = stone_server::state::StateDb::connect(&postgres.url(), 2)
        .await
        .unwrap();
    bookkeeping(db).await;
}

/// Issue 52, hole 5: a 1 MiB quota let one push of 40 tables made from one CSV store
/// 6.3 MB: the quota counted a content once per namespace, while the Iceberg engine keeps
/// a copy in every table (and object storage one per dataset and branch, a graph one per
/// version). Now a content counts once per storage unit that keeps it: N tables of one
/// content take N times its size, as many copies as the warehouse holds; the same content
/// on another branch of a table adds nothing (the table's files are shared), on another
/// branch of an object dataset it adds a copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_5_one_content_in_n_datasets_counts_n_times_as_the_engines_store_it() {
    let table = File::new("numbers.parquet", numbers_parquet(0, 20_000));
    let size = table.bytes.len() as u64;
    let quota = 3 * size + size / 2;
    let site = Site::with_config(&format!("[quotas]\ndefault_bytes = {quota}\n"));
    let server = site.start();
    let tables = |names: &[&str], branch: &str| {
        let datasets: Vec<Dataset> = names
            .iter()
            .map(|name| Dataset::new(name, "TABULAR", vec![table.clone()]))
            .collect();
        manifest("lake", branch, Options::default(), None, &datasets)
    };
    let (m, contents) = tables(&["t1", "t2", "t3"], "dev");
    let status = server.push(&m, &contents).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    // What the warehouse stores: one copy per table.
    let copies = stored_copies(&server.data_dir.join("iceberg"), &table.sha256());
    assert_eq!(copies, 3, "one data file per table");
    // A fourth table of the same content: 4 copies would pass the quota.
    let (m, _) = tables(&["t1", "t2", "t3", "t4"], "dev");
    let refused = server.create_push(&m).await.expect(413);
    assert_eq!(figures(&refused), (3 * size, quota, size));
    // The same tables on another branch: the tables' files are shared, nothing is added.
    let (m, contents) = tables(&["t1", "t2", "t3"], "other");
    let status = server.push(&m, &contents).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    assert_eq!(
        stored_copies(&server.data_dir.join("iceberg"), &table.sha256()),
        3
    );
    // Object storage keeps a copy of its own (per dataset and branch): the same bytes as
    // a blob are one more copy, over the quota.
    let blob = File::new("blob.bin", table.bytes.clone());
    let (m, _) = manifest(
        "lake",
        "dev",
        Options::default(),
        None,
        &[Dataset::new("b", "BLOB", vec![blob])],
    );
    let refused = server.create_push(&m).await.expect(413);
    assert_eq!(figures(&refused), (3 * size, quota, size));
}

/// How many files of the folder tree `root` are named `<sha256>.parquet`.
fn stored_copies(root: &std::path::Path, sha256: &str) -> usize {
    let mut count = 0;
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .file_name()
                .is_some_and(|n| n == format!("{sha256}.parquet").as_str())
            {
                count += 1;
            }
        }
    }
    count
}
