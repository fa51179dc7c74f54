//! The guards of protected refs, each refused at `POST /v1/pushes` before any byte is
//! uploaded (no upload URL handed out, nothing staged), and what `force` allows.

use serde_json::{Value, json};

use crate::api_support::{
    Contents, Dataset, File, Options, Server, Site, dataset, manifest, numbers_parquet,
    people_parquet, people_with_string_ids, pyiceberg, staged_contents, statuses, turtle,
};

const WRITER: &str = "[local]\nroles = [\"protected-write\"]\n";
const FORCER: &str = "[local]\nroles = [\"protected-write\", \"protected-force\"]\n";

fn people(ids: &[i64]) -> Dataset {
    Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("people.parquet", people_parquet(ids))],
    )
}

fn ci() -> Options {
    Options::default()
}

fn manual_yes() -> Options {
    Options {
        yes: true,
        manual: true,
        ..Options::default()
    }
}

/// Asserts a refusal at `POST /pushes` and that nothing was handed out or staged.
async fn refused(server: &Server, manifest: &Value, status: u16, code: &str) -> Value {
    let answer = server.create_push(manifest).await;
    assert_eq!(answer.status.as_u16(), status, "{:#}", answer.body);
    assert_eq!(answer.code(), code, "{:#}", answer.body);
    assert!(answer.body.get("uploads").is_none());
    answer.body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_manual_push_to_a_protected_ref_needs_yes_and_the_write_role() {
    let site = Site::with_config(WRITER);
    let server = site.start();
    let before = staged_contents(&server.data_dir);

    let (m, _) = manifest(
        "demo",
        "main",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[people(&[1])],
    );
    let body = refused(&server, &m, 403, "push.confirmation_required").await;
    assert_eq!(body["branch"], "main");
    // `release-*` protects normalized release branches (`release/1.2` arrives as `release-1.2`).
    let (m, _) = manifest(
        "demo",
        "release-1.2",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[people(&[1])],
    );
    refused(&server, &m, 403, "push.confirmation_required").await;
    // A CI push needs no --yes; --yes on a manual push is enough with the role.
    let (m, c) = manifest("demo", "main", ci(), None, &[people(&[1])]);
    server.push(&m, &c).await;
    let (m, c) = manifest("demo", "main", manual_yes(), None, &[people(&[2])]);
    server.push(&m, &c).await;
    // Unprotected refs need nothing.
    let (m, c) = manifest(
        "demo",
        "feature",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[people(&[3])],
    );
    server.push(&m, &c).await;
    assert_eq!(before, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_write_role_protected_refs_are_refused() {
    let site = Site::with_config("[local]\nuser = \"reader\"\nroles = []\n");
    let server = site.start();
    let (m, _) = manifest("demo", "main", manual_yes(), None, &[people(&[1])]);
    let body = refused(&server, &m, 403, "push.protected_ref").await;
    assert_eq!(body["required_role"], "protected-write");
    assert!(staged_contents(&server.data_dir).is_empty());
    // Other branches are fine.
    let (m, c) = manifest("demo", "mine", manual_yes(), None, &[people(&[1])]);
    server.push(&m, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn force_on_a_protected_ref_needs_the_elevated_role() {
    let site = Site::with_config(WRITER);
    let server = site.start();
    let force = Options {
        force: true,
        ..manual_yes()
    };
    let (m, _) = manifest("demo", "main", force, None, &[people(&[1])]);
    let body = refused(&server, &m, 403, "push.force_forbidden").await;
    assert_eq!(body["required_role"], "protected-force");
    // On an unprotected ref, force needs no role.
    let (m, c) = manifest("demo", "topic", force, None, &[people(&[1])]);
    server.push(&m, &c).await;

    let site = Site::with_config(
        "[local]\nroles = [\"protected-write\", \"admin\"]\n[guards]\nforce_role = \"admin\"\nprotected_refs = [\"main\", \"prod-*\"]\n",
    );
    let server = site.start();
    let info = server.get("/v1/info").await.expect(200).body;
    assert_eq!(info["protected_refs"], json!(["main", "prod-*"]));
    let (m, c) = manifest("demo", "main", force, None, &[people(&[1])]);
    server.push(&m, &c).await;
    let (m, _) = manifest(
        "demo",
        "prod-eu",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[people(&[1])],
    );
    refused(&server, &m, 403, "push.confirmation_required").await;
    let (m, c) = manifest(
        "demo",
        "release-1",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[people(&[1])],
    );
    server.push(&m, &c).await;
}

async fn push_ok(server: &Server, manifest: &Value, contents: &Contents) -> Value {
    server.push(manifest, contents).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_incompatible_schema_on_a_protected_ref_needs_force() {
    let site = Site::with_config(FORCER);
    let server = site.start();
    let (m, c) = manifest("demo", "main", ci(), None, &[people(&[1, 2])]);
    push_ok(&server, &m, &c).await;

    // Declared schema: refused at POST, before any upload.
    let string_ids = Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("p2.parquet", people_with_string_ids(&[3]))],
    )
    .with_schema(json!({"fields": [
        {"name": "id", "type": "string", "required": true},
        {"name": "name", "type": "string", "required": false},
    ]}));
    let (m, _) = manifest(
        "demo",
        "main",
        ci(),
        None,
        std::slice::from_ref(&string_ids),
    );
    let body = refused(&server, &m, 409, "schema.incompatible").await;
    assert_eq!(body["violations"][0]["dataset"], "people");
    assert!(
        body["violations"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("long to string"),
        "{body:#}"
    );
    assert_eq!(
        staged_contents(&server.data_dir).len(),
        1,
        "only the first push's file"
    );

    // A compatible declared schema (int widens to long) passes.
    let widened = people(&[5]).with_schema(json!({"fields": [
        {"name": "id", "type": "int", "required": true},
        {"name": "name", "type": "string", "required": false},
    ]}));
    let (m, _) = manifest("demo", "main", ci(), None, &[widened]);
    server.create_push(&m).await.expect(201);

    // Undeclared: found at commit; the dataset fails with schema.incompatible.
    let undeclared = Dataset::new(
        "people",
        "TABULAR",
        vec![File::new("p2.parquet", people_with_string_ids(&[3]))],
    );
    let (m, c) = manifest("demo", "main", ci(), None, &[undeclared]);
    let created = server.create_push(&m).await.expect(201);
    crate::api_support::upload_all(&server, &created.body, &c).await;
    let id = created.body["push_id"].as_str().unwrap();
    server.commit(id).await.expect(202);
    let status = server.wait(id).await;
    assert_eq!(status["state"], "failed");
    let people_status = dataset(&status, "people");
    assert_eq!(people_status["state"], "failed");
    assert_eq!(people_status["error"]["code"], "schema.incompatible");
    assert_eq!(people_status["error"]["column"], "id");
    assert_eq!(status["result"]["counts"]["failed"], 1);
    assert!(
        status["package_node"].get("status").is_none(),
        "no package node on failure"
    );
    assert_eq!(
        pyiceberg(&server.data_dir, "demo", "people").ids("main"),
        vec![1, 2]
    );

    // With force (and the role) and replace, the type changes.
    let (m, c) = manifest(
        "demo",
        "main",
        Options {
            force: true,
            replace: true,
            ..ci()
        },
        None,
        &[string_ids],
    );
    let status = push_ok(&server, &m, &c).await;
    assert_eq!(statuses(&status)["people"], "replaced");
    let read = pyiceberg(&server.data_dir, "demo", "people");
    assert_eq!(
        read.rows("main"),
        vec![json!({"id": "id-3", "name": "person-3"})]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_a_version_on_a_protected_ref_needs_force() {
    let site = Site::with_config(FORCER);
    let server = site.start();
    let (m, c) = manifest("demo", "main", ci(), Some("1.0"), &[people(&[1])]);
    push_ok(&server, &m, &c).await;
    let tagged = pyiceberg(&server.data_dir, "demo", "people").snapshot_id("main@1.0");

    // The same content with the same version: nothing moves, accepted.
    let (m, c) = manifest("demo", "main", ci(), Some("1.0"), &[people(&[1])]);
    let status = push_ok(&server, &m, &c).await;
    assert_eq!(statuses(&status)["people"], "unchanged");

    // Other content under the same version: refused before upload.
    let (m, _) = manifest("demo", "main", ci(), Some("1.0"), &[people(&[2])]);
    let body = refused(&server, &m, 409, "version.exists").await;
    assert!(body["detail"].as_str().unwrap().contains("1.0"));
    // A new version is fine.
    let (m, c) = manifest("demo", "main", ci(), Some("1.1"), &[people(&[2])]);
    push_ok(&server, &m, &c).await;
    let read = pyiceberg(&server.data_dir, "demo", "people");
    assert_eq!(read.snapshot_id("main@1.0"), tagged);
    assert_eq!(read.ids("main@1.1"), vec![1, 2]);
    // With force the version moves.
    let (m, c) = manifest(
        "demo",
        "main",
        Options {
            force: true,
            ..ci()
        },
        Some("1.0"),
        &[people(&[3])],
    );
    push_ok(&server, &m, &c).await;
    let read = pyiceberg(&server.data_dir, "demo", "people");
    assert_eq!(read.ids("main@1.0"), vec![1, 2, 3]);
    assert_ne!(read.snapshot_id("main@1.0"), tagged);

    // On an unprotected ref a version moves without force.
    let (m, c) = manifest("demo", "dev", ci(), Some("dev-1"), &[people(&[10])]);
    push_ok(&server, &m, &c).await;
    let (m, c) = manifest("demo", "dev", ci(), Some("dev-1"), &[people(&[11])]);
    push_ok(&server, &m, &c).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_and_retracting_on_a_protected_ref_need_force() {
    let site = Site::with_config(FORCER);
    let server = site.start();
    let numbers = |first: i64| {
        Dataset::new(
            "numbers",
            "TABULAR",
            vec![File::new("n.parquet", numbers_parquet(first, 5))],
        )
    };
    let vocab = Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(4))]);
    let (m, c) = manifest(
        "demo",
        "main",
        ci(),
        None,
        &[people(&[1]), numbers(0), vocab.clone()],
    );
    push_ok(&server, &m, &c).await;

    // Replace with datasets left out: deletion needs force.
    let replace = Options {
        replace: true,
        ..ci()
    };
    let (m, _) = manifest("demo", "main", replace, None, &[people(&[1])]);
    let body = refused(&server, &m, 409, "push.deletion_requires_force").await;
    let mut deleted: Vec<&str> = body["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["dataset"].as_str().unwrap())
        .collect();
    deleted.sort();
    assert_eq!(deleted, vec!["numbers", "vocab"]);

    // Replace with other content: retraction needs force.
    let (m, _) = manifest(
        "demo",
        "main",
        replace,
        None,
        &[people(&[2]), numbers(0), vocab.clone()],
    );
    let body = refused(&server, &m, 409, "push.retraction_requires_force").await;
    assert_eq!(body["violations"][0]["dataset"], "people");
    // Replace that only adds is no retraction; replace with the same content is fine.
    let (m, c) = manifest(
        "demo",
        "main",
        replace,
        None,
        &[people(&[1]), numbers(0), vocab.clone()],
    );
    let status = push_ok(&server, &m, &c).await;
    assert_eq!(status["result"]["counts"]["unchanged"], 3);

    // With force, both happen.
    let (m, c) = manifest(
        "demo",
        "main",
        Options {
            force: true,
            ..replace
        },
        None,
        &[people(&[2])],
    );
    let status = push_ok(&server, &m, &c).await;
    assert_eq!(statuses(&status)["people"], "replaced");
    assert_eq!(statuses(&status)["numbers"], "deleted");
    assert_eq!(statuses(&status)["vocab"], "deleted");
    assert_eq!(
        pyiceberg(&server.data_dir, "demo", "people").ids("main"),
        vec![2]
    );
    assert!(
        !pyiceberg(&server.data_dir, "demo", "numbers").exists(),
        "the table had only main"
    );
    assert_eq!(
        crate::api_support::graph_count_on_disk(
            &server.data_dir,
            "https://data.test/demo/vocab/branch/main"
        ),
        0
    );
    let node = server
        .get("/v1/namespaces/demo/package?branch=main")
        .await
        .expect(200)
        .body;
    assert_eq!(node["resources"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_tabular_dataset_from_a_branch_keeps_its_other_branches() {
    let site = Site::new();
    let server = site.start();
    let numbers = Dataset::new(
        "numbers",
        "TABULAR",
        vec![File::new("n.parquet", numbers_parquet(0, 3))],
    );
    for branch in ["main", "dev"] {
        let (m, c) = manifest("demo", branch, ci(), None, &[people(&[1]), numbers.clone()]);
        push_ok(&server, &m, &c).await;
    }
    let (m, c) = manifest(
        "demo",
        "dev",
        Options {
            replace: true,
            ..ci()
        },
        None,
        &[people(&[1])],
    );
    let status = push_ok(&server, &m, &c).await;
    assert_eq!(statuses(&status)["numbers"], "deleted");
    let read = pyiceberg(&server.data_dir, "demo", "numbers");
    assert_eq!(read.ref_names(), vec!["main"]);
    assert_eq!(read.ids("main"), vec![0, 1, 2]);
}
