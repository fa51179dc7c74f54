//! Issue 24: the sweep of the S3 staging store against the pushes of other replicas. Two
//! real `stone-server` replicas share one PostgreSQL database and one SeaweedFS staging
//! bucket; replica A sweeps every second (contents unused for 1 s go), replica B takes
//! the pushes. The test hook `STONE_SERVER_TEST_PAUSE_AT` (feature `test-hooks`) stops
//! the sweep or a push at the critical point, so that each interleaving is forced, not
//! hoped for:
//!
//! - a sweep about to delete a caller's upload (a content nobody used since) while
//!   replica B completes that same upload for a new push: the completion must not
//!   record a content whose object the sweep then deletes (before the fix it did: the
//!   commit was accepted, then failed on the missing content);
//! - a push that found a content staged, then a sweep that takes it before the push
//!   touched it: the push must ask for the content again instead of answering it
//!   "already staged" (before the fix the commit was then refused as incomplete);
//! - with the blob store in the staging bucket (straight uploads), a sweep on replica A
//!   about to delete an expired push's upload from a dataset's object, and a push of the
//!   same content on replica B committed meanwhile: the committed head must not name an
//!   object the sweep then deletes (before `straight.rs` it did).
//!
//! What is checked is the server's promise, not timing: a content recorded as staged has
//! its object in the bucket, a commit the server accepts succeeds, and the pushed bytes
//! read back.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_server::state::StateDb;
use stone_test::services::{OxigraphServer, Postgres, SeaweedFs};

use crate::api_s3::{new_bucket, s3_table};
use crate::api_support::{
    Contents, Dataset, File, Options, Server, Site, client, manifest, noise, upload_all,
};

const NS: &str = "race";

/// Two replicas on one PostgreSQL database and one staging bucket.
struct Replicas {
    /// Sweeps every second.
    a: Server,
    /// Takes the pushes; never sweeps.
    b: Server,
    hooks: tempfile::TempDir,
    seaweed: &'static SeaweedFs,
    bucket: String,
    db: StateDb,
    _sites: [Site; 2],
    _warehouse: tempfile::TempDir,
    _oxigraph: OxigraphServer,
    _postgres: Postgres,
}

async fn replicas() -> Replicas {
    replicas_with(
        "push_expiry_seconds = 3600\nstaged_content_seconds = 1\n",
        false,
    )
    .await
}

/// [`replicas`] with these `[gc]` settings besides the interval and `multipart_seconds`,
/// and the blob store in the staging bucket (`straight`: uploads go straight into the
/// datasets' objects) or in a bucket of its own.
async fn replicas_with(gc: &str, straight: bool) -> Replicas {
    let (postgres, oxigraph) =
        tokio::task::block_in_place(|| (Postgres::start(), OxigraphServer::start()));
    let seaweed = SeaweedFs::shared();
    let bucket = new_bucket(seaweed, "race");
    let blobs = if straight {
        bucket.clone()
    } else {
        new_bucket(seaweed, "raceblob")
    };
    let warehouse = tempfile::tempdir().unwrap();
    let hooks = tempfile::tempdir().unwrap();
    let config = |interval: u64| {
        format!(
            "[database]\nurl = \"{}\"\n\
             [iceberg]\nwarehouse = \"{}\"\n\
             [graph]\nremote_url = \"{}\"\n\
             [gc]\ninterval_seconds = {interval}\n{gc}multipart_seconds = 3600\n\
             [staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}\
             [blob]\nstore = \"s3\"\n[blob.s3]\n{}",
            postgres.url(),
            warehouse.path().join("lake").display(),
            oxigraph.base_url(),
            s3_table(seaweed, &bucket, "uploads/"),
            s3_table(seaweed, &blobs, "datasets"),
        )
    };
    let sites = [Site::with_config(&config(1)), Site::with_config(&config(0))];
    let hook_dir = hooks.path().to_str().unwrap().to_owned();
    let env = [("STONE_SERVER_TEST_PAUSE_AT", hook_dir.as_str())];
    let (a, b) = tokio::task::block_in_place(|| {
        (sites[0].start_with_env(&env), sites[1].start_with_env(&env))
    });
    let db = StateDb::connect(&postgres.url(), 2).await.unwrap();
    Replicas {
        a,
        b,
        hooks,
        seaweed,
        bucket,
        db,
        _sites: sites,
        _warehouse: warehouse,
        _oxigraph: oxigraph,
        _postgres: postgres,
    }
}

impl Replicas {
    fn pause_file(&self, point: &str) -> PathBuf {
        self.hooks.path().join(format!("pause-{point}"))
    }

    /// From now on, whoever reaches `point` waits there.
    fn pause(&self, point: &str) {
        std::fs::write(self.pause_file(point), "").unwrap();
    }

    /// Waits until a replica waits at `point` (a guard against a hang, not a timing
    /// check); what it wrote there.
    async fn paused(&self, point: &str) -> String {
        let paused = self.hooks.path().join(format!("paused-{point}"));
        let mut detail = String::new();
        self.until(&format!("a replica reached {point}"), || {
            detail = std::fs::read_to_string(&paused).unwrap_or_default();
            !detail.is_empty()
        })
        .await;
        detail
    }

    /// Lets whoever waits at `point` go on, and waits until it did.
    async fn resume(&self, point: &str) {
        std::fs::remove_file(self.pause_file(point)).unwrap();
        let paused = self.hooks.path().join(format!("paused-{point}"));
        self.until(&format!("the replica at {point} went on"), || {
            !paused.exists()
        })
        .await;
    }

    async fn until(&self, what: &str, mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(90);
        while !done() {
            assert!(
                Instant::now() < deadline,
                "{what}: not within 90 s\n--- replica A ---\n{}\n--- replica B ---\n{}",
                self.a.log(),
                self.b.log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The staging bucket's keys of a content.
    fn objects_of(&self, sha256: &str) -> Vec<String> {
        let mut keys = self.seaweed.list_objects(&self.bucket, "uploads/");
        keys.retain(|key| key.ends_with(sha256));
        keys
    }

    /// The invariant: a content the state records as staged has its object, of its size,
    /// where the record says.
    async fn assert_record_has_its_object(&self, sha256: &str, when: &str) {
        let Some((size, owner)) = self.db.verified_content_at(sha256).await.unwrap() else {
            return;
        };
        let key = if owner.is_empty() {
            format!("uploads/{sha256}")
        } else {
            format!("uploads/direct/{owner}/{sha256}")
        };
        let found = self.seaweed.client().head_object(&self.bucket, &key);
        assert_eq!(
            found,
            Some(size),
            "{when}: the state records {sha256} as staged at {key}, and the bucket has {:?} there (objects of it: {:?})\n--- replica A ---\n{}\n--- replica B ---\n{}",
            found,
            self.objects_of(sha256),
            self.a.log(),
            self.b.log()
        );
    }

    /// A content answered as already staged: recorded, and its object there.
    async fn assert_staged(&self, sha256: &str, when: &str) {
        assert!(
            self.db.verified_content_at(sha256).await.unwrap().is_some(),
            "{when}: {sha256} is not staged (no record; objects of it: {:?})\n--- replica A ---\n{}\n--- replica B ---\n{}",
            self.objects_of(sha256),
            self.a.log(),
            self.b.log()
        );
        self.assert_record_has_its_object(sha256, when).await;
    }

    /// Pushes `file` as blob dataset `dataset` on `branch` through replica B, the client's
    /// way: post the manifest (again with the push ID when resuming), upload what is asked
    /// for, commit; a commit refused as incomplete is retried after posting the manifest
    /// again. A commit the server accepts must succeed. Returns the commits refused.
    async fn push(&self, branch: &str, file: &File, push_id: Option<&str>) -> usize {
        let (mut m, contents) = blob_manifest(branch, file);
        let mut refused = 0;
        let mut id = push_id.map(str::to_owned);
        loop {
            if let Some(id) = &id {
                m["push_id"] = Value::String(id.clone());
            }
            let created = self.b.create_push(&m).await;
            assert!(
                created.status.is_success(),
                "{:#}\n{}",
                created.body,
                self.b.log()
            );
            for staged in created.body["already_staged"].as_array().unwrap() {
                self.assert_staged(staged.as_str().unwrap(), "answered as already staged")
                    .await;
            }
            upload_all(&self.b, &created.body, &contents).await;
            let pushed = created.body["push_id"].as_str().unwrap().to_owned();
            id = Some(pushed.clone());
            let commit = self.b.commit(&pushed).await;
            if commit.status.as_u16() == 409 && commit.code() == "push.incomplete" {
                refused += 1;
                assert!(refused < 3, "refused 3 times: {:#}", commit.body);
                continue;
            }
            assert_eq!(commit.status.as_u16(), 202, "{:#}", commit.body);
            let status = self.b.wait(&pushed).await;
            assert_eq!(
                status["state"],
                "succeeded",
                "a commit the server accepted failed: {status:#}\n--- replica A ---\n{}\n--- replica B ---\n{}",
                self.a.log(),
                self.b.log()
            );
            let read = client()
                .get(self.b.url(&format!(
                    "/v1/namespaces/{NS}/datasets/{}/content?branch={branch}",
                    dataset_name(branch)
                )))
                .send()
                .await
                .unwrap();
            assert_eq!(read.status().as_u16(), 200);
            assert!(
                read.bytes().await.unwrap() == file.bytes,
                "the bytes read back"
            );
            return refused;
        }
    }
}

fn dataset_name(branch: &str) -> String {
    format!("blob-{branch}")
}

fn blob_manifest(branch: &str, file: &File) -> (Value, Contents) {
    manifest(
        NS,
        branch,
        Options::default(),
        None,
        &[Dataset::new(
            &dataset_name(branch),
            "BLOB",
            vec![file.clone()],
        )],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_and_a_completion_on_another_replica_never_record_a_deleted_upload() {
    let replicas = replicas().await;
    let file = File::new("c.bin", noise(2401, 5000));
    let sha = file.sha256();
    let delete = format!("delete-{sha}");
    replicas.pause(&delete);

    // A first push stages the content at the caller's direct key and commits it; nobody
    // uses it afterwards, so replica A's next sweep decides to delete it, and waits.
    replicas.push("one", &file, None).await;
    replicas.paused(&delete).await;

    // Meanwhile, on replica B, a second push of the same content: the caller's upload is
    // still in the bucket, and the caller asks B to complete it.
    let (m, _) = blob_manifest("two", &file);
    let created = replicas.b.create_push(&m).await;
    assert!(created.status.is_success(), "{:#}", created.body);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    let complete = tokio::spawn({
        let url = replicas
            .b
            .url(&format!("/v1/pushes/{id}/uploads/{sha}/complete"));
        async move {
            let response = client().post(url).send().await.unwrap();
            response.status().as_u16()
        }
    });
    // Either B answers while the sweep still waits (it must not have recorded the upload:
    // the sweep is deleting it), or B waits for the deletion to end: the sweep goes on
    // after 2 s either way.
    let mut complete = complete;
    let answered = tokio::time::timeout(Duration::from_secs(2), &mut complete).await;
    replicas.resume(&delete).await;
    let answer = match answered {
        Ok(answer) => answer.unwrap(),
        Err(_) => complete.await.unwrap(),
    };
    replicas
        .until("the sweep deleted the upload", || {
            replicas.objects_of(&sha).is_empty()
        })
        .await;
    replicas
        .assert_record_has_its_object(
            &sha,
            &format!("after the sweep (completion answered {answer})"),
        )
        .await;

    // The client's way on: whatever B recorded, a commit it accepts succeeds.
    replicas.push("two", &file, Some(&id)).await;
    replicas
        .assert_record_has_its_object(&sha, "after the second push")
        .await;
    assert!(replicas.a.log().contains("test hook: resumed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_push_that_found_a_content_staged_asks_for_it_again_if_a_sweep_took_it() {
    let replicas = replicas().await;
    let file = File::new("r.bin", noise(2402, 5000));
    let sha = file.sha256();
    let decide = format!("decide-{sha}");
    let reuse = format!("reuse-{sha}");
    replicas.pause(&decide);
    replicas.pause(&reuse);

    // Staged and committed by a first push, then unused: replica A's sweep reads the live
    // pushes (not the next one) and stops before it decides on it, in the first round
    // whose age limit the content's record is older than (earlier rounds keep it: let go).
    replicas.push("one", &file, None).await;
    loop {
        let limit = replicas.paused(&decide).await;
        let used = replicas
            .db
            .content_used_at(&sha)
            .await
            .unwrap()
            .expect("staged");
        if used < limit {
            break;
        }
        replicas.resume(&decide).await;
        replicas.pause(&decide);
    }

    // The second push, on B, finds it staged (the caller holds it) and stops before it
    // touches it.
    let second = tokio::spawn({
        let url = replicas.b.url("/v1/pushes");
        let (m, _) = blob_manifest("two", &file);
        async move {
            let response = client().post(url).json(&m).send().await.unwrap();
            crate::api_support::Answer::of(response).await
        }
    });
    replicas.paused(&reuse).await;
    // The sweep takes it meanwhile (the push's record was not touched yet).
    replicas.resume(&decide).await;
    replicas
        .until("the sweep deleted the content", || {
            replicas.objects_of(&sha).is_empty()
        })
        .await;
    replicas.resume(&reuse).await;
    let created = second.await.unwrap();
    assert!(created.status.is_success(), "{:#}", created.body);
    for staged in created.body["already_staged"].as_array().unwrap() {
        replicas
            .assert_staged(staged.as_str().unwrap(), "answered as already staged")
            .await;
    }
    // The client's way on, from that answer: upload what is asked for, commit.
    let (_, contents) = blob_manifest("two", &file);
    upload_all(&replicas.b, &created.body, &contents).await;
    let id = created.body["push_id"].as_str().unwrap();
    let commit = replicas.b.commit(id).await;
    assert_eq!(
        commit.status.as_u16(),
        202,
        "the content answered as staged was not: {:#}\n--- replica A ---\n{}\n--- replica B ---\n{}",
        commit.body,
        replicas.a.log(),
        replicas.b.log()
    );
    let status = replicas.b.wait(id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    replicas
        .assert_record_has_its_object(&sha, "after the second push")
        .await;
}

/// The state's side of the agreement, on both databases: a deletion starts only while no
/// record keeps the object, and a record is made only if no deletion of its place began
/// since the caller read the place's mark.
async fn deletions_and_records_exclude_each_other(db: &StateDb) {
    use stone_server::state::{Keeps, MultipartRecord};
    let key = "uploads/direct/h/c";
    let content = |unused_before| Keeps::Content {
        sha256: "c",
        owner: "h",
        unused_before,
    };
    // Nothing recorded, no deletion yet: recorded.
    assert_eq!(db.deletion_mark(key).await.unwrap(), None);
    assert!(db.record_content_at("c", 5, "h", key, None).await.unwrap());
    db.record_holder("c", "h").await.unwrap();
    // Recorded and used since: kept; kept whenever recorded without an age.
    assert_eq!(
        db.start_deletion(key, content(Some("2000-01-01T00:00:00Z")))
            .await
            .unwrap(),
        None
    );
    assert_eq!(db.start_deletion(key, content(None)).await.unwrap(), None);
    // A record elsewhere does not keep this key (a leftover copy).
    let (leftover, forgotten) = db
        .start_deletion(
            "uploads/c",
            Keeps::Content {
                sha256: "c",
                owner: "",
                unused_before: None,
            },
        )
        .await
        .unwrap()
        .expect("not the content's place");
    assert!(!forgotten);
    db.finish_deletion("uploads/c", &leftover).await.unwrap();
    assert!(db.held_among("h", &["c"]).await.unwrap().contains("c"));
    // Unused: the deletion starts, forgetting the record and who held it.
    let before = db.deletion_mark(key).await.unwrap();
    let (deletion, forgotten) = db
        .start_deletion(key, content(Some("2999-01-01T00:00:00Z")))
        .await
        .unwrap()
        .expect("unused since");
    assert!(forgotten);
    assert_eq!(db.verified_content_at("c").await.unwrap(), None);
    assert!(db.held_among("h", &["c"]).await.unwrap().is_empty());
    let under_way = db.deletion_mark(key).await.unwrap().unwrap();
    assert!(under_way.under_way);
    // While it is under way, and once it is over, a record by whoever read the mark
    // before it began is refused; a touch does not revive the record.
    assert!(
        !db.record_content_at("c", 5, "h", key, before.as_ref())
            .await
            .unwrap()
    );
    assert!(
        !db.record_content_at("c", 5, "h", key, Some(&under_way))
            .await
            .unwrap()
    );
    assert!(
        db.touch_contents(&["c".to_owned()])
            .await
            .unwrap()
            .is_empty()
    );
    assert!(!db.touch_content_at("c", 5, "h").await.unwrap());
    db.finish_deletion(key, &deletion).await.unwrap();
    assert!(
        !db.record_content_at("c", 5, "h", key, before.as_ref())
            .await
            .unwrap()
    );
    assert_eq!(db.verified_content_at("c").await.unwrap(), None);
    // Read after it ended (the caller then checks the object): recorded.
    let after = db.deletion_mark(key).await.unwrap().unwrap();
    assert!(!after.under_way);
    assert!(
        db.record_content_at("c", 5, "h", key, Some(&after))
            .await
            .unwrap()
    );
    assert_eq!(
        db.touch_contents(&["c".to_owned(), "x".to_owned()])
            .await
            .unwrap(),
        vec!["c".to_owned()]
    );
    assert!(db.touch_content_at("c", 5, "h").await.unwrap());
    // A caller's multipart upload is kept while it is recorded.
    db.create_multipart(&MultipartRecord {
        sha256: "m".into(),
        owner: "h".into(),
        size: 9,
        part_size: 5,
        upload_id: "u".into(),
    })
    .await
    .unwrap();
    let multipart = Keeps::Multipart {
        sha256: "m",
        owner: "h",
    };
    assert_eq!(
        db.start_deletion("uploads/callers/h/m", multipart)
            .await
            .unwrap(),
        None
    );
    db.delete_multipart("u").await.unwrap();
    assert!(
        db.start_deletion("uploads/callers/h/m", multipart)
            .await
            .unwrap()
            .is_some()
    );
    // Old deletions are forgotten.
    assert!(db.prune_deletions("2999-01-01T00:00:00Z").await.unwrap() >= 3);
    assert_eq!(db.deletion_mark(key).await.unwrap(), None);
}

#[tokio::test]
async fn deletions_and_records_exclude_each_other_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = StateDb::open(&dir.path().join("state.db")).await.unwrap();
    deletions_and_records_exclude_each_other(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletions_and_records_exclude_each_other_on_postgresql() {
    let postgres = tokio::task::block_in_place(Postgres::start);
    let db = StateDb::connect(&postgres.url(), 2).await.unwrap();
    deletions_and_records_exclude_each_other(&db).await;
}

/// Straight uploads across replicas (`straight.rs`): replica A's sweep has read the live
/// pushes and what the dataset lists, and is about to remove what an expired push uploaded
/// straight into the dataset's object; a push of the same content into the same dataset,
/// created and committed on replica B meanwhile, keeps its object. Before the rule B answered the content as there
/// (the expired push's object), committed a head listing it, and A then deleted it: A's
/// dataset lock is not B's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_on_one_replica_never_deletes_what_a_commit_on_another_listed() {
    let replicas = replicas_with(
        "push_expiry_seconds = 4\nclock_margin_seconds = 1\nstaged_content_seconds = 600\n",
        true,
    )
    .await;
    let file = File::new("s.bin", noise(2403, 40_000));
    let object = format!(
        "datasets/{NS}/{}/main/objects/{}",
        dataset_name("main"),
        file.sha256()
    );
    let (m, contents) = blob_manifest("main", &file);

    // On B: uploaded straight into the dataset's object, never committed.
    let created = replicas.b.create_push(&m).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    assert!(
        created.body["uploads"][0]["url"]
            .as_str()
            .unwrap()
            .contains(&object),
        "not a straight upload: {:#}",
        created.body
    );
    upload_all(&replicas.b, &created.body, &contents).await;
    assert!(
        replicas
            .seaweed
            .get_object(&replicas.bucket, &object)
            .is_some()
    );

    // A's sweep that expires it is held after it read the live pushes and what the
    // dataset lists, before it deletes.
    replicas.pause("straight-delete");
    replicas.paused("straight-delete").await;

    // On B, meanwhile: a push of the same content, committed.
    let created = replicas.b.create_push(&m).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    upload_all(&replicas.b, &created.body, &contents).await;
    replicas.b.commit(&id).await.expect(202);
    let done = replicas.b.wait(&id).await;
    assert_eq!(done["state"], "succeeded", "{done:#}\n{}", replicas.b.log());

    // A's sweep goes on and ends (the next one is held at its start, then let go).
    replicas.pause("gc-live-read");
    replicas.resume("straight-delete").await;
    replicas.paused("gc-live-read").await;
    replicas.resume("gc-live-read").await;
    assert_eq!(
        replicas.seaweed.get_object(&replicas.bucket, &object),
        Some(file.bytes.clone()),
        "the committed head names an object the sweep on the other replica deleted\n--- replica A ---\n{}\n--- replica B ---\n{}",
        replicas.a.log(),
        replicas.b.log()
    );
}
