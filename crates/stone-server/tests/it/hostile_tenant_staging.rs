//! Issue 22, "staged content is shared across tenants by hash", on the real server in
//! `oidc` mode with the real OpenID provider (npm `oidc-provider`): two users, alice and
//! bob, each with a token of their own.
//!
//! - Content reuse needs possession: naming a sha256 and size someone else staged gets an
//!   upload URL like any content nobody has, and a commit without that upload is refused.
//!   The same holds for a paged push's file batches (`POST /v1/pushes/{id}/files`).
//! - Multipart uploads are per caller: another caller naming the same hash, with another
//!   size or the same, cannot disturb an upload in progress.
//!
//! Each holds for both staging stores: the server's disk, and an S3 bucket (SeaweedFS,
//! where the bucket, not the server, receives the uploads).

use serde_json::{Value, json};
use stone_test::services::{AuthorizationRequest, OidcConfig, OidcProvider, OidcUser};

use crate::api_oidc::call;
use crate::api_s3::{new_bucket, s3_table};
use crate::api_support::{
    Answer, Dataset, File, Options, Server, Site, blob_files, client, manifest, noise, put,
    put_part,
};

/// Where the server stages uploads.
#[derive(Clone, Copy)]
enum Store {
    Local,
    S3,
}

impl Store {
    /// A part size small enough for multipart uploads of a few parts (S3's smallest part
    /// is 5 MiB).
    fn part_size(self) -> usize {
        match self {
            Store::Local => 64 * 1024,
            Store::S3 => 5 * 1024 * 1024,
        }
    }

    /// The `[staging]` section.
    fn config(self) -> String {
        let part = self.part_size();
        match self {
            Store::Local => format!("[staging]\npart_size = {part}\n"),
            Store::S3 => {
                let seaweed = stone_test::services::SeaweedFs::shared();
                format!(
                    "[staging]\nstore = \"s3\"\npart_size = {part}\n[staging.s3]\n{}",
                    s3_table(seaweed, &new_bucket(seaweed, "staging"), "uploads/")
                )
            }
        }
    }
}

/// Dropped in this order: the server stops before its directory goes.
pub(crate) struct World {
    pub(crate) server: Server,
    _site: Site,
    _provider: OidcProvider,
    pub(crate) alice: String,
    pub(crate) bob: String,
}

/// The provider with alice and bob, a server staging in `store` trusting it, and a token
/// for each.
fn world(store: Store) -> World {
    world_with(&store.config())
}

/// [`world`] with this `[staging]` section (and whatever else it holds).
pub(crate) fn world_with(staging: &str) -> World {
    let users = [
        OidcUser::new("alice", "alice-password"),
        OidcUser::new("bob", "bob-password"),
    ];
    let provider = OidcProvider::start(users.iter().fold(OidcConfig::default(), |config, user| {
        config.with_user(user.clone())
    }));
    let site = Site::with_config(&format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n{}",
        provider.issuer(),
        provider.config().resource,
        staging
    ));
    let server = site.start();
    let [alice, bob] = users.map(|user| {
        let tokens = provider.login(&user, &AuthorizationRequest::new(40_000));
        tokens["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no access token for {}: {tokens:#}", user.sub))
            .to_owned()
    });
    World {
        server,
        _site: site,
        _provider: provider,
        alice,
        bob,
    }
}

impl World {
    /// `GET /v1/pushes/{id}` with `token` until the push ends: its last status.
    pub(crate) async fn wait(&self, token: &str, id: &str) -> Value {
        for _ in 0..1200 {
            let status = call(
                &self.server,
                "GET",
                &format!("/v1/pushes/{id}"),
                Some(token),
                None,
            )
            .await
            .answer
            .expect(200)
            .body;
            if matches!(status["state"].as_str(), Some("succeeded" | "failed")) {
                return status;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("push {id} did not end:\n{}", self.server.log());
    }

    pub(crate) async fn post(&self, token: &str, path: &str, body: Option<&Value>) -> Answer {
        call(&self.server, "POST", path, Some(token), body)
            .await
            .answer
    }

    /// `POST /v1/pushes` of `datasets` to `ns` on `dev` with `token`: the manifest and
    /// the 201 answer.
    pub(crate) async fn create_push(
        &self,
        token: &str,
        ns: &str,
        datasets: &[Dataset],
    ) -> (Value, Value) {
        let (manifest, _) = manifest(ns, "dev", Options::default(), None, datasets);
        let answer = self
            .post(token, "/v1/pushes", Some(&manifest))
            .await
            .expect(201)
            .body;
        (manifest, answer)
    }
}

/// An upload as the answer shows it, without what differs from one content to another
/// (digest, size, URL, expiry, the values of headers such as S3's signed checksum): the
/// same for every content asked for.
fn shape(upload: &Value) -> Value {
    let mut shape = upload.clone();
    for field in ["sha256", "size", "url", "expires_at"] {
        shape.as_object_mut().unwrap().remove(field);
    }
    if let Some(headers) = shape["headers"].as_object_mut() {
        headers.values_mut().for_each(|value| *value = json!("…"));
    }
    shape
}

pub(crate) fn blob(name: &str, file: &File) -> Dataset {
    Dataset::new(name, "BLOB", vec![file.clone()])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hash_someone_else_staged_is_asked_for_and_never_committed_without_its_upload() {
    a_hash_someone_else_staged_is_asked_for(Store::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hash_someone_else_staged_on_s3_is_asked_for_and_never_committed_without_its_upload() {
    a_hash_someone_else_staged_is_asked_for(Store::S3).await;
}

/// The headers an upload asks for (S3: the signed checksum).
pub(crate) fn headers(upload: &Value) -> std::collections::BTreeMap<String, String> {
    serde_json::from_value(upload["headers"].clone()).unwrap_or_default()
}

async fn a_hash_someone_else_staged_is_asked_for(store: Store) {
    let world = tokio::task::block_in_place(|| world(store));
    let secret = File::new("secret.bin", noise(22, 5000));
    let never_seen = File::new("other.bin", noise(23, 5000));

    // alice stages her secret file (and does not commit it).
    let (theirs, created) = world
        .create_push(&world.alice, "alice-ns", &[blob("secret", &secret)])
        .await;
    let upload = &created["uploads"][0];
    let url = upload["url"].as_str().unwrap().to_owned();
    let (status, text) = put(client(), url, headers(upload), secret.bytes.clone()).await;
    assert!(status.is_success(), "{status}: {text}");
    // Her push, resumed, finds her upload: she uploads each content once.
    let mut resumed = theirs.clone();
    resumed["push_id"] = created["push_id"].clone();
    let again = world
        .post(&world.alice, "/v1/pushes", Some(&resumed))
        .await
        .expect(200)
        .body;
    assert_eq!(again["uploads"], json!([]), "{again:#}");
    assert_eq!(
        again["already_staged"],
        json!([secret.sha256()]),
        "{again:#}"
    );

    // bob names its sha256 and size, and a content nobody has: both are asked for, alike.
    let (_, answer) = world
        .create_push(
            &world.bob,
            "bob-ns",
            &[blob("copy", &secret), blob("fresh", &never_seen)],
        )
        .await;
    assert_eq!(answer["already_staged"], json!([]), "{answer:#}");
    let uploads = answer["uploads"].as_array().unwrap();
    let asked: Vec<&str> = uploads
        .iter()
        .map(|u| u["sha256"].as_str().unwrap())
        .collect();
    assert!(asked.contains(&secret.sha256().as_str()), "{answer:#}");
    assert!(asked.contains(&never_seen.sha256().as_str()), "{answer:#}");
    assert_eq!(shape(&uploads[0]), shape(&uploads[1]), "{answer:#}");
    let id = answer["push_id"].as_str().unwrap().to_owned();
    let upload_of = |sha256: &str| uploads.iter().find(|u| u["sha256"] == sha256).unwrap();
    let url_of = |sha256: &str| upload_of(sha256)["url"].as_str().unwrap().to_owned();
    let headers_of = |sha256: &str| headers(upload_of(sha256));

    // Without uploading, his commit is refused: alice's bytes never reach his dataset.
    let (status, _) = put(
        client(),
        url_of(&never_seen.sha256()),
        headers_of(&never_seen.sha256()),
        never_seen.bytes.clone(),
    )
    .await;
    assert!(status.is_success());
    let refused = world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(409);
    assert_eq!(refused.code(), "push.incomplete");
    assert_eq!(refused.body["missing"], json!([secret.sha256()]));
    // Other bytes under that name are refused too.
    let (status, _) = put(
        client(),
        url_of(&secret.sha256()),
        headers_of(&secret.sha256()),
        vec![0; 5000],
    )
    .await;
    assert_eq!(status, 400);
    world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(409);
    assert!(
        !world
            .server
            .data_dir
            .join("blobs/bob-ns")
            .join("copy")
            .exists(),
        "nothing of bob's datasets was written"
    );

    // With the file in hand, he uploads it (the server keeps its one verified copy), and
    // his push commits it.
    let (status, text) = put(
        client(),
        url_of(&secret.sha256()),
        headers_of(&secret.sha256()),
        secret.bytes.clone(),
    )
    .await;
    assert!(status.is_success(), "{status}: {text}");
    world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(202);
    let status = world.wait(&world.bob, &id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&world.server.data_dir, "bob-ns", "copy", "dev");
    assert!(objects.values().all(|o| *o == secret.bytes));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hash_someone_else_staged_is_asked_for_in_a_file_batch_too() {
    a_hash_someone_else_staged_is_asked_for_in_a_batch(Store::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hash_someone_else_staged_on_s3_is_asked_for_in_a_file_batch_too() {
    a_hash_someone_else_staged_is_asked_for_in_a_batch(Store::S3).await;
}

/// The paged push (issue 27): a `POST /v1/pushes/{id}/files` batch naming a sha256 and
/// size someone else staged gets an upload like a content nobody has, and the commit
/// without that upload is refused: the batch route plans uploads by the same holder rule
/// as `POST /v1/pushes`.
async fn a_hash_someone_else_staged_is_asked_for_in_a_batch(store: Store) {
    let world = tokio::task::block_in_place(|| world(store));
    let secret = File::new("secret.bin", noise(25, 5000));
    let never_seen = File::new("other.bin", noise(26, 5000));
    let (_, created) = world
        .create_push(&world.alice, "alice-ns", &[blob("secret", &secret)])
        .await;
    let upload = &created["uploads"][0];
    let url = upload["url"].as_str().unwrap().to_owned();
    let (status, text) = put(client(), url, headers(upload), secret.bytes.clone()).await;
    assert!(status.is_success(), "{status}: {text}");

    // bob's paged push: the datasets first, their files in a batch.
    let (mut paged, _) = manifest(
        "bob-ns",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "copies",
            "BLOB",
            vec![secret.clone(), never_seen.clone()],
        )],
    );
    let files = paged["datasets"][0]["files"].take();
    paged["datasets"][0]["files"] = json!([]);
    paged["paged_files"] = json!(true);
    let created = world
        .post(&world.bob, "/v1/pushes", Some(&paged))
        .await
        .expect(201)
        .body;
    assert_eq!(created["uploads"], json!([]), "{created:#}");
    let id = created["push_id"].as_str().unwrap().to_owned();
    let batch = json!({"datasets": [{"name": paged["datasets"][0]["name"], "files": files}]});
    let answer = world
        .post(&world.bob, &format!("/v1/pushes/{id}/files"), Some(&batch))
        .await
        .expect(200)
        .body;
    assert_eq!(answer["already_staged"], json!([]), "{answer:#}");
    let uploads = answer["uploads"].as_array().unwrap();
    let asked: Vec<&str> = uploads
        .iter()
        .map(|u| u["sha256"].as_str().unwrap())
        .collect();
    assert!(asked.contains(&secret.sha256().as_str()), "{answer:#}");
    assert!(asked.contains(&never_seen.sha256().as_str()), "{answer:#}");
    assert_eq!(shape(&uploads[0]), shape(&uploads[1]), "{answer:#}");
    let fresh = uploads
        .iter()
        .find(|u| u["sha256"] == never_seen.sha256())
        .unwrap();
    let (status, _) = put(
        client(),
        fresh["url"].as_str().unwrap().to_owned(),
        headers(fresh),
        never_seen.bytes.clone(),
    )
    .await;
    assert!(status.is_success());
    let refused = world
        .post(&world.bob, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(409);
    assert_eq!(refused.code(), "push.incomplete");
    assert_eq!(refused.body["missing"], json!([secret.sha256()]));
    // The batch sent again (a resume) still asks for it.
    let again = world
        .post(&world.bob, &format!("/v1/pushes/{id}/files"), Some(&batch))
        .await
        .expect(200)
        .body;
    assert_eq!(
        again["already_staged"],
        json!([never_seen.sha256()]),
        "{again:#}"
    );
    assert_eq!(again["uploads"][0]["sha256"], secret.sha256(), "{again:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_caller_naming_the_same_hash_does_not_disturb_an_upload_in_progress() {
    another_caller_does_not_disturb_an_upload(Store::Local).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_caller_naming_the_same_hash_does_not_disturb_an_s3_upload_in_progress() {
    another_caller_does_not_disturb_an_upload(Store::S3).await;
}

async fn another_caller_does_not_disturb_an_upload(store: Store) {
    let world = tokio::task::block_in_place(|| world(store));
    let bytes = noise(24, 3 * store.part_size() - 10);
    let big = File::new("big.bin", bytes.clone());
    let (_, created) = world
        .create_push(&world.alice, "alice-ns", &[blob("big", &big)])
        .await;
    let id = created["push_id"].as_str().unwrap().to_owned();
    let parts = created["uploads"][0]["parts"].as_array().unwrap().clone();
    assert_eq!(parts.len(), 3, "{created:#}");
    for part in &parts[..2] {
        let (status, text) = put_part(part, &bytes).await;
        assert!(status.is_success(), "{status}: {text}");
    }

    // bob names the same sha256 with another size, then with the same: each time he gets
    // an upload of his own, and nothing of alice's.
    for size in [bytes.len() + 1, bytes.len()] {
        let mut mine = manifest(
            "bob-ns",
            "dev",
            Options::default(),
            None,
            &[blob("big", &big)],
        )
        .0;
        mine["datasets"][0]["files"][0]["size"] = json!(size);
        let answer = world
            .post(&world.bob, "/v1/pushes", Some(&mine))
            .await
            .expect(201)
            .body;
        assert_eq!(answer["already_staged"], json!([]), "{answer:#}");
        let his = answer["uploads"][0]["parts"].as_array().unwrap();
        assert_eq!(his.len(), 3, "all of his parts are asked for: {answer:#}");
        // The upload's ID in a part URL: ours (local) or S3's.
        let upload_of = |url: &str| {
            url.split(['?', '&'])
                .find_map(|pair| {
                    pair.strip_prefix("upload=")
                        .or_else(|| pair.strip_prefix("uploadId="))
                })
                .unwrap()
                .to_owned()
        };
        assert_ne!(
            upload_of(his[0]["url"].as_str().unwrap()),
            upload_of(parts[0]["url"].as_str().unwrap()),
            "bob was handed alice's upload"
        );
    }

    // alice goes on where she was: her last part, completion, commit.
    let (status, text) = put_part(&parts[2], &bytes).await;
    assert!(
        status.is_success(),
        "alice's upload was disturbed: {status}: {text}"
    );
    let completed = world
        .post(
            &world.alice,
            &format!("/v1/pushes/{id}/uploads/{}/complete", big.sha256()),
            None,
        )
        .await
        .expect(200);
    assert_eq!(completed.body["staged"], true);
    world
        .post(&world.alice, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(202);
    let (_, objects) = loop {
        let status = call(
            &world.server,
            "GET",
            &format!("/v1/pushes/{id}"),
            Some(&world.alice),
            None,
        )
        .await
        .answer
        .expect(200)
        .body;
        if status["state"] == "succeeded" {
            break blob_files(&world.server.data_dir, "alice-ns", "big", "dev");
        }
        assert_ne!(status["state"], "failed", "{status:#}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert!(objects.values().all(|o| *o == bytes));
}

/// A paged push (issue 27) completes its multipart uploads from the files its batches
/// recorded (its manifest names none): the content of a batch completes, a sha256 no
/// batch named is an unknown upload, and another caller's push is not found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paged_push_completes_the_uploads_its_batches_asked_for_and_no_others() {
    let store = Store::Local;
    let world = tokio::task::block_in_place(|| world(store));
    let bytes = noise(27, 2 * store.part_size() + 7);
    let big = File::new("big.bin", bytes.clone());
    let (mut paged, _) = manifest(
        "alice-ns",
        "dev",
        Options::default(),
        None,
        &[blob("big", &big)],
    );
    let files = paged["datasets"][0]["files"].take();
    paged["datasets"][0]["files"] = json!([]);
    paged["paged_files"] = json!(true);
    let created = world
        .post(&world.alice, "/v1/pushes", Some(&paged))
        .await
        .expect(201)
        .body;
    let id = created["push_id"].as_str().unwrap().to_owned();
    let complete = |sha256: String| format!("/v1/pushes/{id}/uploads/{sha256}/complete");
    // Before the batch, the push has no such content.
    let early = world
        .post(&world.alice, &complete(big.sha256()), None)
        .await
        .expect(404);
    assert_eq!(early.code(), "staging.unknown_upload");
    let batch = json!({"datasets": [{"name": paged["datasets"][0]["name"], "files": files}]});
    let answer = world
        .post(
            &world.alice,
            &format!("/v1/pushes/{id}/files"),
            Some(&batch),
        )
        .await
        .expect(200)
        .body;
    let parts = answer["uploads"][0]["parts"].as_array().unwrap().clone();
    assert_eq!(parts.len(), 3, "{answer:#}");
    for part in &parts {
        let (status, text) = put_part(part, &bytes).await;
        assert!(status.is_success(), "{status}: {text}");
    }
    let other = world
        .post(&world.bob, &complete(big.sha256()), None)
        .await
        .expect(404);
    assert_eq!(other.code(), "push.not_found", "{:#}", other.body);
    let unnamed = world
        .post(&world.alice, &complete("c".repeat(64)), None)
        .await
        .expect(404);
    assert_eq!(unnamed.code(), "staging.unknown_upload");
    let completed = world
        .post(&world.alice, &complete(big.sha256()), None)
        .await
        .expect(200)
        .body;
    assert_eq!(completed["staged"], true);
    assert_eq!(completed["size"], bytes.len());
    world
        .post(&world.alice, &format!("/v1/pushes/{id}/commit"), None)
        .await
        .expect(202);
}
