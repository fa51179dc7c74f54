//! The authorization matrix: every route of the API × every kind of caller × {public,
//! private package} × {protected, unprotected ref} × {branch, named version}, each cell
//! the exact answer, in ONE table ([`TABLE`]). A route of `stone_server::routes::routes()`
//! without a row fails the test, and so does a row without a route. Beside the statuses,
//! the content (issue 52): the public namespace has a private branch whose names (branch,
//! a column, datasets, the package's title) hold [`MARKER`]; no answer of any cell to a
//! caller without read access may hold it.
//!
//! The server runs in `oidc` mode with an `[authz]` policy; tokens come from the test
//! issuer of `api_oidc.rs` (a fake that signs whatever claims a cell needs: groups, roles
//! and a fresh step-up; the hostile tenant suite uses the real OpenID provider).

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::api_oidc::{AUDIENCE, claims, fake_issuer, now, sign};
use crate::api_support::{
    Answer, Contents, Dataset, File, Options, Server, Site, client, manifest, people_parquet,
    turtle, upload_all,
};

const MFA: &str = "urn:stone:acr:mfa";

/// The kinds of callers, in the order of a row's columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Caller {
    /// No token.
    Anonymous,
    /// A valid token with no grant on the namespaces.
    Other,
    /// Read access to the namespaces.
    Reader,
    /// Write access, no role for protected refs.
    Writer,
    /// Write access and the `protected-write` role, with a fresh step-up.
    ProtectedWrite,
    /// Write access, `protected-write` and `protected-force`, with a fresh step-up.
    ProtectedForce,
}

const CALLERS: [Caller; 6] = [
    Caller::Anonymous,
    Caller::Other,
    Caller::Reader,
    Caller::Writer,
    Caller::ProtectedWrite,
    Caller::ProtectedForce,
];

/// One cell's place: the namespace `pub` (public package) or `priv`; the branch `main`
/// (protected) or `dev`; the branch itself or its named version `v1`.
#[derive(Debug, Clone, Copy)]
struct Place {
    public: bool,
    protected: bool,
    version: bool,
}

impl Place {
    fn namespace(self) -> &'static str {
        if self.public { "pub" } else { "priv" }
    }
    fn branch(self) -> &'static str {
        if self.protected { "main" } else { "dev" }
    }
}

/// The 8 places, in the order of a row's cells: public (main branch, main version, dev
/// branch, dev version), then private in the same order.
fn places() -> Vec<Place> {
    let mut all = Vec::new();
    for public in [true, false] {
        for protected in [true, false] {
            for version in [false, true] {
                all.push(Place {
                    public,
                    protected,
                    version,
                });
            }
        }
    }
    all
}

/// A row: a route (and a variant of the request where one route does several things),
/// and per caller (in [`CALLERS`] order) the 8 answers (in [`places`] order; `|`
/// separates public from private for reading). An answer is the status; SPARQL answers
/// are `200` when the graph's triples are seen and `200-` when the query sees nothing.
struct Row {
    method: &'static str,
    path: &'static str,
    variant: &'static str,
    answers: [&'static str; 6],
}

const ALL_200: &str = "200 200 200 200 | 200 200 200 200";
/// Reading: public to all, private to read access.
const READ_ANON: &str = "200 200 200 200 | 401 401 401 401";
const READ_NONE: &str = "200 200 200 200 | 403 403 403 403";
/// SPARQL: the graph is seen, or not.
const SEEN: &str = "200 200 200 200 | 200 200 200 200";
const HIDDEN_PRIVATE: &str = "200 200 200 200 | 200- 200- 200- 200-";
const ALL_401: &str = "401 401 401 401 | 401 401 401 401";
const ALL_403: &str = "403 403 403 403 | 403 403 403 403";
const ALL_400: &str = "400 400 400 400 | 400 400 400 400";
const ALL_404: &str = "404 404 404 404 | 404 404 404 404";
const ALL_409: &str = "409 409 409 409 | 409 409 409 409";
const ALL_201: &str = "201 201 201 201 | 201 201 201 201";
/// Unprotected only: protected refs refuse (403), `dev` takes it.
const DEV_ONLY_201: &str = "403 403 201 201 | 403 403 201 201";
const DEV_ONLY_202: &str = "403 403 202 202 | 403 403 202 202";

/// THE table. Columns: anonymous, other user, reader, writer, protected-write,
/// protected-force.
const TABLE: &[Row] = &[
    Row {
        method: "GET",
        path: "/v1/info",
        variant: "",
        answers: [ALL_200, ALL_200, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/v1/openapi.yaml",
        variant: "",
        answers: [ALL_200, ALL_200, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    // A push of the content already there, `public` as it is.
    Row {
        method: "POST",
        path: "/v1/pushes",
        variant: "write",
        answers: [ALL_401, ALL_403, ALL_403, DEV_ONLY_201, ALL_201, ALL_201],
    },
    Row {
        method: "POST",
        path: "/v1/pushes",
        variant: "force",
        answers: [
            ALL_401,
            ALL_403,
            ALL_403,
            DEV_ONLY_201,
            DEV_ONLY_201,
            ALL_201,
        ],
    },
    // Changing `public` needs admin, which no caller of the table has.
    Row {
        method: "POST",
        path: "/v1/pushes",
        variant: "flip public",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    // `--replace` with a package that no longer lists `vocab` deletes it: admin.
    Row {
        method: "POST",
        path: "/v1/pushes",
        variant: "replace deleting",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    // Pushes are their creator's (the writer's): others do not find them.
    Row {
        method: "GET",
        path: "/v1/pushes/{push_id}",
        variant: "",
        answers: [ALL_401, ALL_404, ALL_404, ALL_200, ALL_404, ALL_404],
    },
    Row {
        method: "POST",
        path: "/v1/pushes/{push_id}/commit",
        variant: "",
        answers: [ALL_401, ALL_404, ALL_404, DEV_ONLY_202, ALL_404, ALL_404],
    },
    // A batch of files for the owner's push: only the owner gets past authorization, to
    // 409 `push.conflict` (the push was made with its files in the manifest).
    Row {
        method: "POST",
        path: "/v1/pushes/{push_id}/files",
        variant: "",
        answers: [ALL_401, ALL_404, ALL_404, ALL_409, ALL_404, ALL_404],
    },
    Row {
        method: "POST",
        path: "/v1/pushes/{push_id}/uploads/{sha256}/complete",
        variant: "",
        answers: [ALL_401, ALL_404, ALL_404, ALL_200, ALL_404, ALL_404],
    },
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/package",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/datasets/{name}",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    // The events feed (issue 58): one branch's, readable as the branch is; the whole
    // namespace's, for its readers only (the private branch's events never reach others:
    // the content check).
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/events",
        variant: "branch",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/events",
        variant: "whole",
        answers: [ALL_401, ALL_403, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    // Webhook subscriptions (issue 58): the namespace's admins only, which no caller of
    // the table is.
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/subscriptions",
        variant: "",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/v1/namespaces/{namespace}/subscriptions",
        variant: "",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "DELETE",
        path: "/v1/namespaces/{namespace}/subscriptions/{id}",
        variant: "",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/subscriptions/{id}/deliveries",
        variant: "",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/v1/namespaces/{namespace}/subscriptions/{id}/redeliver",
        variant: "",
        answers: [ALL_401, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "GET",
        path: "/v1/namespaces/{namespace}/datasets/{name}/content",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "HEAD",
        path: "/v1/namespaces/{namespace}/datasets/{name}/content",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/v1/sparql",
        variant: "",
        answers: [HIDDEN_PRIVATE, HIDDEN_PRIVATE, SEEN, SEEN, SEEN, SEEN],
    },
    Row {
        method: "POST",
        path: "/v1/sparql",
        variant: "",
        answers: [HIDDEN_PRIVATE, HIDDEN_PRIVATE, SEEN, SEEN, SEEN, SEEN],
    },
    Row {
        method: "GET",
        path: "/{namespace}",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/{namespace}/{name}",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    // The Iceberg REST catalog (`routes/iceberg_rest.rs`). Listing namespaces is `200`
    // when the place's namespace is listed, `200-` when not; loading `people` is `200`
    // when the place's branch (or its version's tag) is among the refs, `200-` when not.
    Row {
        method: "GET",
        path: "/iceberg/v1/config",
        variant: "",
        answers: [ALL_200, ALL_200, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/iceberg/v1/namespaces",
        variant: "",
        answers: [HIDDEN_PRIVATE, HIDDEN_PRIVATE, SEEN, SEEN, SEEN, SEEN],
    },
    Row {
        method: "GET",
        path: "/iceberg/v1/namespaces/{namespace}",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/iceberg/v1/namespaces/{namespace}/tables",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    Row {
        method: "GET",
        path: "/iceberg/v1/namespaces/{namespace}/tables/{table}",
        variant: "",
        answers: [READ_ANON, READ_NONE, SEEN, SEEN, SEEN, SEEN],
    },
    // The S3 signer of a table: the read check first; the matrix's warehouse is on local
    // disk, so a caller who may read gets 400 (nothing to sign).
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces/{namespace}/tables/{table}/sign",
        variant: "",
        answers: [
            "400 400 400 400 | 401 401 401 401",
            "400 400 400 400 | 403 403 403 403",
            ALL_400,
            ALL_400,
            ALL_400,
            ALL_400,
        ],
    },
    // Writes through the catalog: refused to everyone (pushes are the way in).
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "DELETE",
        path: "/iceberg/v1/namespaces/{namespace}",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces/{namespace}/properties",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces/{namespace}/tables",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces/{namespace}/tables/{table}",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "DELETE",
        path: "/iceberg/v1/namespaces/{namespace}/tables/{table}",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/namespaces/{namespace}/register",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/tables/rename",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "POST",
        path: "/iceberg/v1/transactions/commit",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "HEAD",
        path: "/{namespace}/{name}",
        variant: "",
        answers: [READ_ANON, READ_NONE, ALL_200, ALL_200, ALL_200, ALL_200],
    },
    // Upload URLs carry their own signature and no identity counts: without a valid
    // signature nothing is taken (403 staging.invalid_signature), whoever calls.
    Row {
        method: "PUT",
        path: "/v1/staging/{sha256}",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "PUT",
        path: "/v1/staging/{sha256}/parts/{number}",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
    Row {
        method: "PUT",
        path: "/v1/staging/pack",
        variant: "",
        answers: [ALL_403, ALL_403, ALL_403, ALL_403, ALL_403, ALL_403],
    },
];

fn config(issuer: &str) -> String {
    format!(
        r#"[auth]
mode = "oidc"
issuer = "{issuer}"
audience = "{AUDIENCE}"
[auth.step_up]
acr_values = ["{MFA}"]
max_age = 600
[authz]
claim = "groups"
[authz.grants]
"readers" = [{{ namespaces = ["pub", "priv"], access = "read" }}]
"writers" = [{{ namespaces = ["pub", "priv"], access = "write" }}]
"admins" = [{{ namespaces = ["*"], access = "admin" }}]
"#
    )
}

/// A token of the test issuer: `sub`, `groups`, `roles`, a fresh MFA step-up.
fn token(issuer: &str, sub: &str, groups: &[&str], roles: &[&str]) -> String {
    let mut claims = claims(issuer, sub, roles, MFA, 10);
    claims["groups"] = json!(groups);
    claims["exp"] = json!(now() + 3600);
    sign(&claims)
}

struct World {
    server: Server,
    _site: Site,
    tokens: Vec<Option<String>>,
    /// The writer with the protected-write role: creates the pushes the push rows use,
    /// under the writer's `sub`.
    owner: String,
    admin: String,
    /// Answers to callers without read access that held [`MARKER`] (the content check).
    leaks: std::sync::Mutex<Vec<String>>,
}

impl World {
    fn token(&self, caller: Caller) -> Option<&str> {
        let index = CALLERS.iter().position(|c| *c == caller).unwrap();
        self.tokens[index].as_deref()
    }

    /// Notes an answer to a caller who may read no private branch that holds the private
    /// branch's marker.
    fn watch(&self, caller: Caller, what: &str, answer: &Answer) {
        if matches!(caller, Caller::Anonymous | Caller::Other)
            && answer.body.to_string().contains(MARKER)
        {
            self.leaks.lock().unwrap().push(format!(
                "{what} as {caller:?} ({}): {:.400}",
                answer.status, answer.body
            ));
        }
    }
}

/// The names of a private branch of the public namespace (issue 52): its branch, a
/// column of its `people`, a dataset only it has, its package's title. No answer to a
/// caller without read access may hold it, whatever the route (the content check).
const MARKER: &str = "zqxmarker";

/// A request of the matrix, its answer watched for [`MARKER`].
async fn send_watched(
    world: &World,
    caller: Caller,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let answer = send(&world.server, method, path, token, body).await;
    world.watch(caller, &format!("{method} {path}"), &answer);
    answer
}

fn notes() -> File {
    File::new("notes.txt", b"notes of the matrix\n".to_vec())
}

fn datasets() -> Vec<Dataset> {
    vec![
        Dataset::new("notes", "BLOB", vec![notes()]),
        Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(4))]),
        Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("people.parquet", people_parquet(&[1, 2]))],
        ),
    ]
}

/// The manifest of a place: the content already there, `public` as the namespace has it.
fn place_manifest(place: Place, options: Options, datasets: &[Dataset]) -> (Value, Contents) {
    let version = place.version.then_some("v1");
    let (mut m, contents) = manifest(
        place.namespace(),
        place.branch(),
        options,
        version,
        datasets,
    );
    m["package"]["public"] = json!(place.public);
    (m, contents)
}

pub(crate) async fn send(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Answer {
    let mut request = client().request(method.parse().unwrap(), server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    Answer::of(request.send().await.unwrap()).await
}

/// Create, upload, commit, wait: as `token`; asserts that it succeeded.
pub(crate) async fn push_as(server: &Server, token: &str, manifest: &Value, contents: &Contents) {
    let created = send(server, "POST", "/v1/pushes", Some(token), Some(manifest)).await;
    assert!(created.status.is_success(), "{:#}", created.body);
    upload_all(server, &created.body, contents).await;
    let id = created.body["push_id"].as_str().unwrap();
    send(
        server,
        "POST",
        &format!("/v1/pushes/{id}/commit"),
        Some(token),
        None,
    )
    .await
    .expect(202);
    loop {
        let status = send(
            server,
            "GET",
            &format!("/v1/pushes/{id}"),
            Some(token),
            None,
        )
        .await
        .expect(200)
        .body;
        match status["state"].as_str() {
            Some("succeeded") => return,
            Some("failed") => panic!("fixture push failed: {status:#}\n{}", server.log()),
            _ => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
        }
    }
}

async fn world() -> World {
    let issuer = fake_issuer();
    let site = Site::with_config(&config(&issuer));
    let server = site.start();
    let writers = &["writers"][..];
    let tokens = CALLERS
        .iter()
        .map(|caller| match caller {
            Caller::Anonymous => None,
            Caller::Other => Some(token(&issuer, "mallory", &["outsiders"], &[])),
            Caller::Reader => Some(token(&issuer, "reader", &["readers"], &[])),
            Caller::Writer => Some(token(&issuer, "writer", writers, &[])),
            Caller::ProtectedWrite => Some(token(&issuer, "pw", writers, &["protected-write"])),
            Caller::ProtectedForce => Some(token(
                &issuer,
                "pf",
                writers,
                &["protected-write", "protected-force"],
            )),
        })
        .collect();
    let owner = token(&issuer, "writer", writers, &["protected-write"]);
    let admin = token(
        &issuer,
        "admin",
        &["admins"],
        &["protected-write", "protected-force"],
    );
    // Every namespace and branch, with the named version v1 of both datasets.
    for place in places().into_iter().filter(|p| p.version) {
        let options = Options {
            yes: true,
            ..Options::default()
        };
        let (m, contents) = place_manifest(place, options, &datasets());
        push_as(&server, &admin, &m, &contents).await;
    }
    // The public namespace's private branch, named with the marker.
    let branch = format!("dev-{MARKER}");
    let marked = vec![
        Dataset::new(
            "people",
            "TABULAR",
            vec![File::new(
                "people.parquet",
                crate::api_support::people_with_column(&[3], &format!("{MARKER}_note")),
            )],
        ),
        Dataset::new(&format!("{MARKER}-notes"), "BLOB", vec![notes()]),
        Dataset::new(
            &format!("{MARKER}-vocab"),
            "GRAPH",
            vec![File::new("vocab.ttl", turtle(2))],
        ),
    ];
    let (mut m, contents) = manifest(
        "pub",
        &branch,
        Options {
            yes: true,
            ..Options::default()
        },
        Some("v1"),
        &marked,
    );
    m["package"]["public"] = json!(false);
    m["package"]["title"] = json!(format!("The {MARKER} package"));
    push_as(&server, &admin, &m, &contents).await;
    World {
        server,
        _site: site,
        tokens,
        owner,
        admin,
        leaks: Default::default(),
    }
}

/// A fresh push of the owner (the writer's `sub`) at the place: its ID.
async fn owners_push(world: &World, place: Place) -> String {
    let options = Options {
        yes: true,
        ..Options::default()
    };
    let (m, _) = place_manifest(place, options, &datasets());
    let created = send(
        &world.server,
        "POST",
        "/v1/pushes",
        Some(&world.owner),
        Some(&m),
    )
    .await;
    assert!(created.status.is_success(), "{:#}", created.body);
    created.body["push_id"].as_str().unwrap().to_owned()
}

/// What the caller gets for the row's request at the place, as the table writes it.
async fn answer(world: &World, row: &Row, caller: Caller, place: Place) -> String {
    let token = world.token(caller);
    let server = &world.server;
    let (ns, branch) = (place.namespace(), place.branch());
    let read_query = if place.version {
        format!("?branch={branch}&version=v1")
    } else {
        format!("?branch={branch}")
    };
    let yes = Options {
        yes: true,
        ..Options::default()
    };
    let status = |a: Answer| a.status.as_u16().to_string();
    match (row.method, row.path, row.variant) {
        ("GET", "/v1/info", _) | ("GET", "/v1/openapi.yaml", _) => {
            status(send_watched(world, caller, "GET", row.path, token, None).await)
        }
        ("POST", "/v1/pushes", variant) => {
            let (options, public, sets) = match variant {
                "write" => (yes, place.public, datasets()),
                "force" => (Options { force: true, ..yes }, place.public, datasets()),
                "flip public" => (yes, !place.public, datasets()),
                "replace deleting" => (
                    Options {
                        replace: true,
                        ..yes
                    },
                    place.public,
                    datasets()[..1].to_vec(),
                ),
                other => panic!("no request for the variant {other:?}"),
            };
            let (mut m, _) = place_manifest(place, options, &sets);
            m["package"]["public"] = json!(public);
            status(send_watched(world, caller, "POST", "/v1/pushes", token, Some(&m)).await)
        }
        ("GET", "/v1/pushes/{push_id}", _) => {
            let id = owners_push(world, place).await;
            status(
                send_watched(
                    world,
                    caller,
                    "GET",
                    &format!("/v1/pushes/{id}"),
                    token,
                    None,
                )
                .await,
            )
        }
        ("POST", "/v1/pushes/{push_id}/commit", _) => {
            let id = owners_push(world, place).await;
            let path = format!("/v1/pushes/{id}/commit");
            status(send_watched(world, caller, "POST", &path, token, None).await)
        }
        ("POST", "/v1/pushes/{push_id}/files", _) => {
            let id = owners_push(world, place).await;
            let path = format!("/v1/pushes/{id}/files");
            let batch = json!({ "datasets": [{ "name": "notes", "files": [notes().manifest()] }] });
            status(send_watched(world, caller, "POST", &path, token, Some(&batch)).await)
        }
        ("POST", "/v1/pushes/{push_id}/uploads/{sha256}/complete", _) => {
            let id = owners_push(world, place).await;
            let path = format!("/v1/pushes/{id}/uploads/{}/complete", notes().sha256());
            status(send_watched(world, caller, "POST", &path, token, None).await)
        }
        ("GET", "/v1/namespaces/{namespace}/package", _) => {
            let path = format!("/v1/namespaces/{ns}/package{read_query}");
            status(send_watched(world, caller, "GET", &path, token, None).await)
        }
        ("GET", "/v1/namespaces/{namespace}/events", variant) => {
            let query = match variant {
                "branch" => format!("?branch={branch}"),
                "whole" => String::new(),
                other => panic!("no request for the variant {other:?}"),
            };
            let path = format!("/v1/namespaces/{ns}/events{query}");
            status(send_watched(world, caller, "GET", &path, token, None).await)
        }
        (method, path, _) if path.starts_with("/v1/namespaces/{namespace}/subscriptions") => {
            let path = path
                .replace("{namespace}", ns)
                .replace("{id}", "sub_0123456789abcdef0123456789abcdef");
            let body = (method == "POST" && path.ends_with("/subscriptions"))
                .then(|| json!({ "url": "https://93.184.216.34/hook" }));
            status(send_watched(world, caller, method, &path, token, body.as_ref()).await)
        }
        ("GET", "/v1/namespaces/{namespace}/datasets/{name}", _) => {
            let path = format!("/v1/namespaces/{ns}/datasets/notes{read_query}");
            status(send_watched(world, caller, "GET", &path, token, None).await)
        }
        (method @ ("GET" | "HEAD"), "/v1/namespaces/{namespace}/datasets/{name}/content", _) => {
            let path = format!("/v1/namespaces/{ns}/datasets/notes/content{read_query}");
            status(send_watched(world, caller, method, &path, token, None).await)
        }
        ("GET" | "POST", "/v1/sparql", _) => {
            let mut graph = format!("https://data.test/{ns}/vocab/branch/{branch}");
            if place.version {
                graph.push_str("/version/v1");
            }
            let query =
                format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}");
            let mut request = if row.method == "GET" {
                client()
                    .get(server.url("/v1/sparql"))
                    .query(&[("query", query.as_str())])
            } else {
                client()
                    .post(server.url("/v1/sparql"))
                    .header("content-type", "application/sparql-query")
                    .body(query)
            };
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let answer = Answer::of(request.send().await.unwrap()).await;
            world.watch(caller, &format!("{} /v1/sparql", row.method), &answer);
            if answer.status != 200 {
                return status(answer);
            }
            match crate::api_support::sparql_count(&answer.body) {
                0 => "200-".to_owned(),
                _ => "200".to_owned(),
            }
        }
        ("GET", "/{namespace}", _) => status(
            send_watched(
                world,
                caller,
                "GET",
                &format!("/{ns}{read_query}"),
                token,
                None,
            )
            .await,
        ),
        (method @ ("GET" | "HEAD"), "/{namespace}/{name}", _) => {
            let path = format!("/{ns}/notes{read_query}");
            status(send_watched(world, caller, method, &path, token, None).await)
        }
        ("GET", "/iceberg/v1/config", _) => {
            status(send_watched(world, caller, "GET", row.path, token, None).await)
        }
        ("GET", "/iceberg/v1/namespaces", _) => {
            let answer = send_watched(world, caller, "GET", row.path, token, None).await;
            if answer.status != 200 {
                return status(answer);
            }
            let listed = answer.body["namespaces"]
                .as_array()
                .is_some_and(|all| all.contains(&json!([ns])));
            (if listed { "200" } else { "200-" }).to_owned()
        }
        ("GET", "/iceberg/v1/namespaces/{namespace}", _) => {
            let path = format!("/iceberg/v1/namespaces/{ns}");
            status(send_watched(world, caller, "GET", &path, token, None).await)
        }
        ("GET", "/iceberg/v1/namespaces/{namespace}/tables", _) => {
            let path = format!("/iceberg/v1/namespaces/{ns}/tables");
            status(send_watched(world, caller, "GET", &path, token, None).await)
        }
        ("GET", "/iceberg/v1/namespaces/{namespace}/tables/{table}", _) => {
            let path = format!("/iceberg/v1/namespaces/{ns}/tables/people");
            let answer = send_watched(world, caller, "GET", &path, token, None).await;
            if answer.status != 200 {
                return status(answer);
            }
            let reference = if place.version {
                format!("{branch}@v1")
            } else {
                branch.to_owned()
            };
            let refs = &answer.body["metadata"]["refs"];
            (if refs.get(&reference).is_some() {
                "200"
            } else {
                "200-"
            })
            .to_owned()
        }
        (method, path, _) if path.starts_with("/iceberg/v1/") => {
            let path = path.replace("{namespace}", ns).replace("{table}", "people");
            status(send_watched(world, caller, method, &path, token, Some(&json!({}))).await)
        }
        ("PUT", "/v1/staging/{sha256}", _) => {
            let path = format!("/v1/staging/{}", notes().sha256());
            status(send_watched(world, caller, "PUT", &path, token, None).await)
        }
        ("PUT", "/v1/staging/{sha256}/parts/{number}", _) => {
            let path = format!("/v1/staging/{}/parts/1", notes().sha256());
            status(send_watched(world, caller, "PUT", &path, token, None).await)
        }
        ("PUT", "/v1/staging/pack", _) => {
            status(send_watched(world, caller, "PUT", "/v1/staging/pack", token, None).await)
        }
        (method, path, variant) => {
            panic!("the table has a row no request is made for: {method} {path} {variant}")
        }
    }
}

#[test]
fn every_route_has_a_row_and_every_row_a_route() {
    let routes: BTreeSet<(&str, &str)> = stone_server::routes::routes().into_iter().collect();
    let rows: BTreeSet<(&str, &str)> = TABLE.iter().map(|r| (r.method, r.path)).collect();
    let without_row: Vec<_> = routes.difference(&rows).collect();
    assert!(
        without_row.is_empty(),
        "routes without a row in the authorization matrix (add one to TABLE): {without_row:?}"
    );
    let without_route: Vec<_> = rows.difference(&routes).collect();
    assert!(
        without_route.is_empty(),
        "rows of the authorization matrix for no route: {without_route:?}"
    );
    for row in TABLE {
        for answers in row.answers {
            assert_eq!(
                answers.split_whitespace().filter(|a| *a != "|").count(),
                8,
                "{} {} {}: a caller needs 8 answers",
                row.method,
                row.path,
                row.variant
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorization_matrix() {
    let world = world().await;
    let mut wrong = Vec::new();
    let mut cells = 0;
    for row in TABLE {
        for (caller, answers) in CALLERS.iter().zip(row.answers) {
            let expected: Vec<&str> = answers.split_whitespace().filter(|a| *a != "|").collect();
            for (place, expected) in places().into_iter().zip(expected) {
                let got = answer(&world, row, *caller, place).await;
                cells += 1;
                if got != expected {
                    wrong.push(format!(
                        "{} {} {:?} as {caller:?} on {}@{}{}: expected {expected}, got {got}",
                        row.method,
                        row.path,
                        row.variant,
                        place.namespace(),
                        place.branch(),
                        if place.version { " version v1" } else { "" },
                    ));
                }
            }
        }
    }
    assert_eq!(cells, TABLE.len() * CALLERS.len() * 8);
    let leaks = world.leaks.lock().unwrap().clone();
    assert!(
        leaks.is_empty(),
        "{} answers to callers without read access hold the private branch's names:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    assert!(
        wrong.is_empty(),
        "{} of {cells} cells differ:\n{}\n{}",
        wrong.len(),
        wrong.join("\n"),
        world.server.log()
    );
    // The admin (not a column: it sets the scene) may change `public`.
    let place = Place {
        public: false,
        protected: false,
        version: false,
    };
    let (mut m, _) = place_manifest(
        place,
        Options {
            yes: true,
            ..Options::default()
        },
        &datasets(),
    );
    m["package"]["public"] = json!(true);
    send(
        &world.server,
        "POST",
        "/v1/pushes",
        Some(&world.admin),
        Some(&m),
    )
    .await
    .expect(201);
}
