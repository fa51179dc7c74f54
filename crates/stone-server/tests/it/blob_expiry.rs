//! Expiry of an object-storage dataset's old contents under `[retention]` (spec 4.1,
//! issue 23 part 2), on the real server: the objects a head change stopped listing are
//! deleted once that change is older than `max_snapshot_age_seconds`, unless the head or
//! a named version lists them; younger ones stay, and so does everything without
//! `[retention]`.

use std::time::Duration;

use crate::api_support::{
    Dataset, File, Options, Site, blob_files, dataset, manifest, noise, sha256_hex,
};

fn files(names: &[(&str, u64)]) -> Vec<File> {
    names
        .iter()
        .map(|(name, seed)| File::new(name, noise(*seed, 3000)))
        .collect()
}

fn scenes(names: &[(&str, u64)]) -> Dataset {
    Dataset::new("scenes", "BLOB", files(names))
}

fn replace() -> Options {
    Options {
        replace: true,
        ..Options::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_contents_expire_after_the_retention_and_versions_keep_theirs() {
    let site = Site::with_config("[retention]\nmax_snapshot_age_seconds = 2\n");
    let server = site.start();
    let sha = |seed| sha256_hex(&noise(seed, 3000));
    let objects = || blob_files(&server.data_dir, "demo", "scenes", "dev").1;

    // a and b, named v1; then e added; then replaced by a and c: b and e are retired.
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        Some("v1"),
        &[scenes(&[("a.bin", 1), ("b.bin", 2)])],
    );
    server.push(&m, &c).await;
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[scenes(&[("e.bin", 5)])],
    );
    server.push(&m, &c).await;
    let (m, c) = manifest(
        "demo",
        "dev",
        replace(),
        None,
        &[scenes(&[("a.bin", 1), ("c.bin", 3)])],
    );
    let replaced = server.push(&m, &c).await;
    // Retired just now: younger than the retention, nothing goes yet.
    assert_eq!(
        dataset(&replaced, "scenes")["detail"]["expired_files"],
        0,
        "{replaced:#}"
    );
    for seed in [1, 2, 3, 5] {
        assert!(
            objects().contains_key(&sha(seed)),
            "object {seed} kept for now"
        );
    }

    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (m, c) = manifest(
        "demo",
        "dev",
        replace(),
        None,
        &[scenes(&[("a.bin", 1), ("c.bin", 3), ("d.bin", 4)])],
    );
    let expired = server.push(&m, &c).await;
    let detail = &dataset(&expired, "scenes")["detail"];
    assert_eq!(detail["expired_snapshots"], 1, "{expired:#}");
    assert_eq!(detail["expired_files"], 1, "{expired:#}");
    assert_eq!(detail["expired_bytes"], 3000, "{expired:#}");
    let left = objects();
    assert!(
        !left.contains_key(&sha(5)),
        "e: retired, listed by nothing, expired"
    );
    assert!(
        left.contains_key(&sha(2)),
        "b: retired, but version v1 lists it"
    );
    for seed in [1, 3, 4] {
        assert!(
            left.contains_key(&sha(seed)),
            "object {seed}: the head lists it"
        );
    }
    // The version still reads whole.
    let version = server
        .get("/v1/namespaces/demo/datasets/scenes/content?branch=dev&version=v1&path=b.bin")
        .await;
    assert_eq!(version.status, 200, "{:#}", version.body);

    // Without [retention]: nothing is recorded, nothing expires.
    let plain = Site::new();
    let server = plain.start();
    let (m, c) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[scenes(&[("a.bin", 1), ("b.bin", 2)])],
    );
    server.push(&m, &c).await;
    let (m, c) = manifest("demo", "dev", replace(), None, &[scenes(&[("a.bin", 1)])]);
    let replaced = server.push(&m, &c).await;
    assert!(
        dataset(&replaced, "scenes")["detail"]
            .get("expired_files")
            .is_none(),
        "{replaced:#}"
    );
    assert!(
        !server
            .data_dir
            .join("blobs/demo/scenes/dev/retired")
            .exists()
    );
    assert!(
        blob_files(&server.data_dir, "demo", "scenes", "dev")
            .1
            .contains_key(&sha(2))
    );
}
