//! A state database written by an older server opens with this one: migrations run and
//! nothing stored is lost. Each test builds the older database with the older migrations
//! (the first files of `migrations/`), stores a push the way that server did, and opens it
//! with [`StateDb`].

use std::path::{Path, PathBuf};

use sqlx::migrate::Migrator;
use stone_api::{CreatePush, DatasetManifest, ManifestFile, PackageMetadata, PushFlags};
use stone_server::state::StateDb;

/// The first `count` migrations of `dir` (of this crate), in a directory of their own.
fn older_migrations(dir: &str, count: usize, into: &Path) -> PathBuf {
    let source = stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&source)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    assert!(
        files.len() > count,
        "{dir} has a migration after the first {count}"
    );
    let target = into.join(dir);
    std::fs::create_dir_all(&target).unwrap();
    for file in &files[..count] {
        std::fs::copy(file, target.join(file.file_name().unwrap())).unwrap();
    }
    target
}

/// A new SQLite database in `dir`.
fn sqlite_url(dir: &Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("state.db").display())
}

fn manifest() -> CreatePush {
    CreatePush {
        push_id: None,
        namespace: "demo".into(),
        branch: "dev".into(),
        options: PushFlags::default(),
        package: PackageMetadata::default(),
        datasets: vec![DatasetManifest {
            name: "notes".into(),
            kind: stone_api::AssetKind::Blob,
            metadata: Default::default(),
            schema: None,
            files: vec![ManifestFile {
                path: "notes.txt".into(),
                sha256: "a".repeat(64),
                size: 5,
            }],
            listing: None,
        }],
        paged_files: false,
    }
}

/// Stores push `p1` (with its manifest in the push row) as migrations 0001–0002 had it,
/// opens the database with this server and reads the push and its live contents back.
async fn manifest_survives(url: &str, dir: &str, scratch: &Path) {
    sqlx::any::install_default_drivers();
    let older = Migrator::new(older_migrations(dir, 2, scratch))
        .await
        .unwrap();
    {
        let pool = sqlx::AnyPool::connect(url).await.unwrap();
        older.run(&pool).await.unwrap();
        sqlx::query(
            "INSERT INTO pushes (id, principal, namespace, branch, state, manifest, protected, created_at, updated_at)
             VALUES ('p1', 'me', 'demo', 'dev', 'staging', $1, 0, '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z')",
        )
        .bind(serde_json::to_string(&manifest()).unwrap())
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
    }
    let db = StateDb::connect(url, 2)
        .await
        .expect("the older database migrates");
    let push = db
        .push("p1")
        .await
        .unwrap()
        .expect("the push is still there");
    assert_eq!(
        serde_json::to_value(&push.manifest).unwrap(),
        serde_json::to_value(manifest()).unwrap(),
        "the manifest moved to its own table unchanged"
    );
    assert!(
        db.live_contents().await.unwrap().contains(&"a".repeat(64)),
        "the staging push still keeps its contents from garbage collection"
    );
}

#[tokio::test]
async fn a_manifest_stored_before_0003_is_kept_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(dir.path());
    manifest_survives(&url, "migrations", dir.path()).await;
}

#[tokio::test]
async fn a_manifest_stored_before_0003_is_kept_on_postgresql() {
    let dir = tempfile::tempdir().unwrap();
    let postgres = stone_test::services::Postgres::start();
    manifest_survives(&postgres.url(), "migrations-postgres", dir.path()).await;
}

/// Stores three pushes as migrations 0001–0009 had them (a paged manifest, an inline
/// one, one from before `paged_files`), opens the database with this server and checks
/// that migration 0010 marked only the paged one (issue 27: batches read that column).
async fn paged_pushes_stay_paged(url: &str, dir: &str, scratch: &Path) {
    sqlx::any::install_default_drivers();
    let older = Migrator::new(older_migrations(dir, 9, scratch))
        .await
        .unwrap();
    let stored = [
        ("paged", r#"{"namespace":"demo","paged_files":true}"#, true),
        (
            "inline",
            r#"{"namespace":"demo","paged_files":false}"#,
            false,
        ),
        ("older", r#"{"namespace":"demo"}"#, false),
    ];
    {
        let pool = sqlx::AnyPool::connect(url).await.unwrap();
        older.run(&pool).await.unwrap();
        for (id, manifest, _) in stored {
            sqlx::query(
                "INSERT INTO pushes (id, principal, namespace, branch, state, protected, created_at, updated_at)
                 VALUES ($1, 'me', 'demo', 'dev', 'staging', 0, '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z')",
            )
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
            sqlx::query("INSERT INTO push_manifests (push_id, manifest) VALUES ($1, $2)")
                .bind(id)
                .bind(manifest)
                .execute(&pool)
                .await
                .unwrap();
        }
        pool.close().await;
    }
    let db = StateDb::connect(url, 2)
        .await
        .expect("the older database migrates");
    for (id, _, paged) in stored {
        let summary = db
            .push_summary(id)
            .await
            .unwrap()
            .expect("the push is kept");
        assert_eq!(summary.paged_files, paged, "push {id}");
    }
}

#[tokio::test]
async fn paged_pushes_stored_before_0010_stay_paged_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(dir.path());
    paged_pushes_stay_paged(&url, "migrations", dir.path()).await;
}

#[tokio::test]
async fn paged_pushes_stored_before_0010_stay_paged_on_postgresql() {
    let dir = tempfile::tempdir().unwrap();
    let postgres = stone_test::services::Postgres::start();
    paged_pushes_stay_paged(&postgres.url(), "migrations-postgres", dir.path()).await;
}
