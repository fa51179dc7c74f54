//! A hostile tenant against named versions (issue 22, "Trust boundaries"), on the real
//! binary; one test per hole:
//!
//! - hole 2: a reader without a token, allowed on a public branch, asks that branch for
//!   `version=main` (or for a version only the private `main` has) and must not get
//!   `main`'s rows. Server in `oidc` mode trusting the real npm `oidc-provider`; the
//!   pushes carry tokens from a real login.
//! - hole 3, per engine (Iceberg, graph, blob): a push to an unprotected branch carrying
//!   the version `main` holds must not move `main`'s version; `main`'s version still moves
//!   only with `--force` and the force role.
//! - a legacy tag (a bare Iceberg tag, as pushes wrote before versions were per branch,
//!   written here by pyiceberg) keeps reading on its branch, and only there.

use reqwest::StatusCode;
use serde_json::{Value, json};
use stone_test::services::{AuthorizationRequest, OidcConfig, OidcProvider, OidcUser};

use crate::api_read::read;
use crate::api_support::{
    Dataset, File, Options, Server, Site, client, legacy_tag, manifest, noise, people_parquet,
    turtle,
};

/// `people` (TABULAR), `vocab` (GRAPH) and `notes` (BLOB), told apart by `seed`.
fn datasets(seed: u64) -> Vec<Dataset> {
    let ids: Vec<i64> = (0..3).map(|i| seed as i64 * 100 + i).collect();
    vec![
        Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("people.parquet", people_parquet(&ids))],
        ),
        Dataset::new(
            "vocab",
            "GRAPH",
            vec![File::new("vocab.ttl", turtle(2 * (seed as usize + 1)))],
        ),
        Dataset::new(
            "notes",
            "BLOB",
            vec![File::new("notes.bin", noise(seed, 1000))],
        ),
    ]
}

/// What `seed`'s datasets read as: the `people` ids, the `vocab` triple count, the bytes.
#[derive(Debug, PartialEq, Eq)]
struct Content {
    ids: Vec<i64>,
    triples: usize,
    notes: Vec<u8>,
}

fn expected(seed: u64) -> Content {
    Content {
        ids: (0..3).map(|i| seed as i64 * 100 + i).collect(),
        triples: 2 * (seed as usize + 1),
        notes: noise(seed, 1000),
    }
}

/// A GET with an optional bearer token: status and body.
async fn get(server: &Server, path: &str, token: Option<&str>) -> (StatusCode, Vec<u8>) {
    let mut request = client().get(server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.bytes().await.unwrap().to_vec())
}

/// The three datasets' content on `branch` (at `version`), each read through the content
/// endpoint; `Err` with the statuses when any is not 200.
async fn content(
    server: &Server,
    branch: &str,
    version: Option<&str>,
    token: Option<&str>,
) -> Result<Content, Vec<(String, u16, String)>> {
    let query = match version {
        Some(version) => format!("branch={branch}&version={version}"),
        None => format!("branch={branch}"),
    };
    let mut failures = Vec::new();
    let mut bodies = Vec::new();
    for (name, format) in [("people", "csv"), ("vocab", "nt"), ("notes", "bytes")] {
        let path = format!("/v1/namespaces/demo/datasets/{name}/content?{query}&format={format}");
        let (status, body) = get(server, &path, token).await;
        if status != StatusCode::OK {
            failures.push((
                name.to_owned(),
                status.as_u16(),
                String::from_utf8_lossy(&body).into_owned(),
            ));
        }
        bodies.push(body);
    }
    if !failures.is_empty() {
        return Err(failures);
    }
    let csv = String::from_utf8_lossy(&bodies[0]).into_owned();
    let mut ids: Vec<i64> = csv
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next()?.parse().ok())
        .collect();
    ids.sort();
    let triples = String::from_utf8_lossy(&bodies[1])
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count();
    Ok(Content {
        ids,
        triples,
        notes: bodies[2].clone(),
    })
}

/// The versions the metadata of `name` lists on `branch` (the field is left out when
/// there are none).
async fn versions(server: &Server, name: &str, branch: &str, token: Option<&str>) -> Value {
    let path = format!("/v1/namespaces/demo/datasets/{name}?branch={branch}");
    let (status, body) = get(server, &path, token).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    match &serde_json::from_slice::<Value>(&body).unwrap()["versions"] {
        Value::Null => json!([]),
        versions => versions.clone(),
    }
}

/// Every way of asking a dataset of branch `branch` for version `version` (the content
/// endpoint, the IRI form, the metadata): all must be 404 `dataset.not_found`.
async fn assert_no_version(server: &Server, branch: &str, version: &str, token: Option<&str>) {
    for name in ["people", "vocab", "notes"] {
        for path in [
            format!(
                "/v1/namespaces/demo/datasets/{name}/content?branch={branch}&version={version}"
            ),
            format!("/demo/{name}?branch={branch}&version={version}"),
            format!("/v1/namespaces/demo/datasets/{name}?branch={branch}&version={version}"),
        ] {
            let (status, body) = get(server, &path, token).await;
            let text = String::from_utf8_lossy(&body);
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {text}");
            assert_eq!(
                serde_json::from_slice::<Value>(&body).unwrap()["code"],
                "dataset.not_found",
                "{path}: {text}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_2_a_public_branch_does_not_read_the_private_main_through_version() {
    let alice = OidcUser::new("alice", "alice-password").with_roles(&["protected-write"]);
    let provider = OidcProvider::start(OidcConfig::default().with_user(alice.clone()));
    let site = Site::with_config(&format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n",
        provider.issuer(),
        provider.config().resource
    ));
    let server = site.start();
    let login = provider.login(&alice, &AuthorizationRequest::new(41_001));
    let token = login["access_token"].as_str().unwrap().to_owned();

    // The public branch first (so that it holds none of main's history), then the private
    // main with version 1.0.0.
    let yes = Options {
        yes: true,
        ..Options::default()
    };
    let (public, contents) = manifest("demo", "open", yes, Some("0.1.0"), &datasets(1));
    server.push_as(Some(&token), &public, &contents).await;
    let (mut private, contents) = manifest("demo", "main", yes, Some("1.0.0"), &datasets(2));
    private["package"]["public"] = json!(false);
    server.push_as(Some(&token), &private, &contents).await;

    // The public branch reads without a token; main does not.
    assert_eq!(content(&server, "open", None, None).await, Ok(expected(1)));
    assert_eq!(
        content(&server, "open", Some("0.1.0"), None).await,
        Ok(expected(1))
    );
    let refused = content(&server, "main", None, None).await.unwrap_err();
    assert!(
        refused.iter().all(|(_, status, _)| *status == 401),
        "{refused:?}"
    );

    // `version` names a version of the authorized branch only: neither the branch `main`
    // nor the version only `main` holds.
    assert_no_version(&server, "open", "main", None).await;
    assert_no_version(&server, "open", "1.0.0", None).await;
    for name in ["people", "vocab", "notes"] {
        assert_eq!(
            versions(&server, name, "open", None).await,
            json!(["0.1.0"]),
            "{name}"
        );
    }

    // With a token, main and its version read as they should.
    assert_eq!(
        content(&server, "main", Some("1.0.0"), Some(&token)).await,
        Ok(expected(2))
    );
    for name in ["people", "vocab", "notes"] {
        assert_eq!(
            versions(&server, name, "main", Some(&token)).await,
            json!(["1.0.0"]),
            "{name}"
        );
    }
}

/// Hole 3 for the datasets of `kinds`: `main` holds 1.0.0; a push to the unprotected
/// branch `evil` carrying 1.0.0 with other content succeeds there and leaves `main`'s
/// 1.0.0 alone; moving `main`'s 1.0.0 still needs `--force` and the force role.
async fn hole_3_versions_stay_on_their_branch(name: &str) {
    let site = Site::with_config("[local]\nroles = [\"protected-write\"]\n");
    let server = site.start();
    let only = |seed: u64| {
        datasets(seed)
            .into_iter()
            .filter(|d| d.name == name)
            .collect::<Vec<_>>()
    };
    let yes = Options {
        yes: true,
        ..Options::default()
    };
    let (m, c) = manifest("demo", "main", yes, Some("1.0.0"), &only(1));
    server.push(&m, &c).await;

    // The hostile push: another branch, the same version, other content (replacing what
    // the branch started from), no force.
    let replace = Options {
        replace: true,
        ..Options::default()
    };
    let (m, c) = manifest("demo", "evil", replace, Some("1.0.0"), &only(2));
    server.push(&m, &c).await;

    let read_one = |branch: &'static str| {
        let server = &server;
        async move {
            let format = match name {
                "people" => "csv",
                "vocab" => "nt",
                _ => "bytes",
            };
            read(
                server,
                &format!(
                    "/v1/namespaces/demo/datasets/{name}/content?branch={branch}&version=1.0.0&format={format}"
                ),
                &[],
            )
            .await
        }
    };
    let on_main = read_one("main").await;
    let on_evil = read_one("evil").await;
    assert_eq!(on_main.status, 200, "{}", on_main.text());
    assert_eq!(on_evil.status, 200, "{}", on_evil.text());
    let whole = |seed: u64| {
        let expected = expected(seed);
        match name {
            "people" => expected
                .ids
                .iter()
                .map(|id| id.to_string())
                .collect::<Vec<_>>(),
            "vocab" => vec![expected.triples.to_string()],
            _ => vec![hex::encode(expected.notes)],
        }
    };
    let seen = |read: &crate::api_read::Read| match name {
        "people" => {
            let mut ids: Vec<String> = read
                .text()
                .lines()
                .skip(1)
                .filter_map(|l| l.split(',').next().map(str::to_owned))
                .collect();
            ids.sort();
            ids
        }
        "vocab" => vec![
            read.text()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count()
                .to_string(),
        ],
        _ => vec![hex::encode(&read.body)],
    };
    assert_eq!(seen(&on_main), whole(1), "main's 1.0.0 moved");
    assert_eq!(seen(&on_evil), whole(2), "evil's 1.0.0");

    // Each branch lists its own version once.
    let listed = |branch: &'static str| {
        let server = &server;
        async move { versions(server, name, branch, None).await }
    };
    assert_eq!(listed("main").await, json!(["1.0.0"]));
    assert_eq!(listed("evil").await, json!(["1.0.0"]));

    // Moving main's 1.0.0 to other content is still refused without force…
    let (m, _) = manifest("demo", "main", yes, Some("1.0.0"), &only(3));
    let refused = server.create_push(&m).await;
    assert_eq!(refused.status, 409, "{:#}", refused.body);
    assert_eq!(refused.code(), "version.exists");
    // …and with force but without the force role.
    let forced = Options {
        yes: true,
        force: true,
        ..Options::default()
    };
    let (m, _) = manifest("demo", "main", forced, Some("1.0.0"), &only(3));
    let refused = server.create_push(&m).await;
    assert_eq!(refused.status, 403, "{:#}", refused.body);
    assert_eq!(refused.code(), "push.force_forbidden");
    assert_eq!(seen(&read_one("main").await), whole(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_3_an_iceberg_version_stays_on_its_branch() {
    hole_3_versions_stay_on_their_branch("people").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_3_a_graph_version_stays_on_its_branch() {
    hole_3_versions_stay_on_their_branch("vocab").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hole_3_a_blob_version_stays_on_its_branch() {
    hole_3_versions_stay_on_their_branch("notes").await;
}

/// A legacy tag (bare `1.0.0` on main's head, written by pyiceberg as pushes did before
/// versions were per branch) reads as main's 1.0.0 after main moved on, is listed on main
/// only, is guarded on main, and neither a read nor a push through another branch reaches
/// it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_tag_reads_on_its_branch_only() {
    let site = Site::with_config("[local]\nroles = [\"protected-write\"]\n");
    let server = site.start();
    let people = |ids: &[i64]| {
        vec![Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("people.parquet", people_parquet(ids))],
        )]
    };
    let yes = Options {
        yes: true,
        ..Options::default()
    };
    let (m, c) = manifest("demo", "other", Options::default(), None, &people(&[100]));
    server.push(&m, &c).await;
    let (m, c) = manifest("demo", "main", yes, None, &people(&[1, 2]));
    server.push(&m, &c).await;
    legacy_tag(&site.data_dir(), "demo", "people", "main", "1.0.0");
    let (m, c) = manifest("demo", "main", yes, None, &people(&[3]));
    server.push(&m, &c).await;

    let ids = |read: crate::api_read::Read| {
        assert_eq!(read.status, 200, "{}", read.text());
        let mut ids: Vec<i64> = read
            .text()
            .lines()
            .skip(1)
            .filter_map(|l| l.split(',').next()?.parse().ok())
            .collect();
        ids.sort();
        ids
    };
    let base = "/v1/namespaces/demo/datasets/people/content";
    let main_v1 = format!("{base}?branch=main&version=1.0.0");
    assert_eq!(ids(read(&server, &main_v1, &[]).await), [1, 2]);
    assert_eq!(
        versions(&server, "people", "main", None).await,
        json!(["1.0.0"])
    );

    // Not a version of a branch whose history does not hold it.
    assert_eq!(versions(&server, "people", "other", None).await, json!([]));
    let stray = read(&server, &format!("{base}?branch=other&version=1.0.0"), &[]).await;
    assert_eq!(stray.status, 404, "{}", stray.text());

    // Guarded on main: other content under 1.0.0 needs force.
    let (m, _) = manifest("demo", "main", yes, Some("1.0.0"), &people(&[4]));
    let refused = server.create_push(&m).await;
    assert_eq!(refused.status, 409, "{:#}", refused.body);
    assert_eq!(refused.code(), "version.exists");

    // A push of 1.0.0 to another branch makes that branch's own 1.0.0.
    let (m, c) = manifest(
        "demo",
        "other",
        Options::default(),
        Some("1.0.0"),
        &people(&[200]),
    );
    server.push(&m, &c).await;
    assert_eq!(ids(read(&server, &main_v1, &[]).await), [1, 2]);
    assert_eq!(
        ids(read(&server, &format!("{base}?branch=other&version=1.0.0"), &[]).await),
        [100, 200]
    );
    assert_eq!(
        versions(&server, "people", "other", None).await,
        json!(["1.0.0"])
    );
}
