//! The harness's own tests: each real service starts and does one real interaction, and
//! the independent readers read a table another implementation wrote.

use std::net::TcpListener;
use std::process::Command;

use stone_test::services::{
    ACR_MFA, ACR_PASSWORD, AuthorizationRequest, Browser, Credentials, OidcConfig, OidcProvider,
    OidcUser, OxigraphServer, S3Client, SeaweedFs, WebDavServer, agent, decode_jwt_claims,
};
use stone_test::tools;

#[test]
fn seaweedfs_s3_round_trip() {
    let s3 = SeaweedFs::start();
    assert!(
        s3.endpoint().starts_with("http://127.0.0.1:"),
        "{}",
        s3.endpoint()
    );
    s3.create_bucket("stone-test");
    s3.create_bucket("stone-test"); // again: an existing bucket is fine
    let body: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    s3.put_object("stone-test", "dir/a file.bin", &body);
    s3.put_object("stone-test", "dir/b.txt", b"b");
    assert_eq!(
        s3.get_object("stone-test", "dir/a file.bin").as_deref(),
        Some(&body[..])
    );
    assert_eq!(s3.get_object("stone-test", "missing"), None);
    assert_eq!(
        s3.list_objects("stone-test", "dir/"),
        ["dir/a file.bin", "dir/b.txt"]
    );
    assert_eq!(s3.client().head_object("stone-test", "dir/b.txt"), Some(1));
    assert!(
        s3.client()
            .list_buckets()
            .contains(&"stone-test".to_owned())
    );

    // The signature is really checked: a wrong secret is refused.
    let intruder = S3Client::new(s3.endpoint(), s3.region(), s3.access_key(), "wrong-secret");
    let response = intruder
        .request("GET", "/stone-test/dir/b.txt", &[], b"")
        .expect("request");
    assert_eq!(response.status, 403, "{}", response.text());
}

#[test]
fn seaweedfs_instances_do_not_share_ports_and_clean_up() {
    let a = SeaweedFs::start();
    let b = SeaweedFs::start();
    assert_ne!(a.endpoint(), b.endpoint());
    a.create_bucket("only-in-a");
    assert!(!b.client().list_buckets().contains(&"only-in-a".to_owned()));
    let dir = a.dir().to_path_buf();
    let port = a
        .endpoint()
        .rsplit(':')
        .next()
        .unwrap()
        .parse::<u16>()
        .unwrap();
    drop(a);
    assert!(
        !dir.exists(),
        "the temp dir of a stopped instance is removed"
    );
    assert!(
        TcpListener::bind(("127.0.0.1", port)).is_ok(),
        "port {port} is released"
    );
    let leftovers: Vec<_> = std::fs::read_dir("/tmp")
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("seaweedfs-") && n.ends_with(&format!("-{}.sock", port + 1)))
        .collect();
    assert!(leftovers.is_empty(), "sockets left behind: {leftovers:?}");
}

#[test]
fn seaweedfs_shared_instance() {
    let s3 = SeaweedFs::shared();
    assert!(
        std::ptr::eq(s3, SeaweedFs::shared()),
        "one instance per test binary"
    );
    s3.create_bucket("shared-one");
    s3.put_object("shared-one", "k", b"v");
    assert_eq!(s3.get_object("shared-one", "k").as_deref(), Some(&b"v"[..]));
}

#[test]
fn webdav_put_with_basic_auth() {
    let dav = WebDavServer::start_with_basic_auth("pusher", "secret");
    let url = format!("{}/package/data.csv", dav.base_url());
    let agent = agent();

    let anonymous = agent.put(&url).send(&b"a,b\n1,2\n"[..]).unwrap();
    assert_eq!(anonymous.status(), 401);

    let authorization = dav.authorization().unwrap();
    // WebDAV wants the collection first (MKCOL; ureq does not send that method).
    std::fs::create_dir(dav.root().join("package")).unwrap();
    let put = agent
        .put(&url)
        .header("authorization", &authorization)
        .send(&b"a,b\n1,2\n"[..])
        .unwrap();
    assert_eq!(put.status(), 201);
    assert_eq!(
        std::fs::read(dav.root().join("package/data.csv")).unwrap(),
        b"a,b\n1,2\n"
    );
}

#[test]
fn oxigraph_graph_store_and_sparql() {
    let oxigraph = OxigraphServer::start();
    let graph = "https://stone.test/graphs/demo";
    let turtle =
        b"@prefix ex: <http://example.org/> .\nex:a ex:p ex:b , ex:c .\nex:b ex:p \"x\" .\n";
    assert_eq!(oxigraph.put_graph(graph, "text/turtle", turtle), 201);
    assert_eq!(oxigraph.count_triples(graph), 3);
    // Replacing the graph answers 204 and really replaces it.
    assert_eq!(
        oxigraph.put_graph(
            graph,
            "text/turtle",
            b"<http://example.org/a> <http://example.org/p> 1 ."
        ),
        204
    );
    assert_eq!(oxigraph.count_triples(graph), 1);
    assert_eq!(oxigraph.count_triples("https://stone.test/graphs/none"), 0);
    assert!(
        oxigraph
            .get_graph(graph)
            .unwrap()
            .contains("<http://example.org/a>")
    );

    // The independent reader sees the same through the SPARQL protocol.
    let result = tools::run_python_json(
        "sparql.py",
        &[
            "--endpoint",
            &oxigraph.query_url(),
            "--query",
            &format!("SELECT ?o WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"),
        ],
    );
    assert_eq!(
        result["results"]["bindings"][0]["o"]["value"], "1",
        "{result}"
    );
}

fn oidc_config() -> OidcConfig {
    OidcConfig::default()
        .with_user(
            OidcUser::new("alice", "alice-password").with_roles(&["protected-write", "reader"]),
        )
        .with_user(
            OidcUser::new("bob", "bob-password")
                .with_roles(&["reader"])
                .with_acr_values(&[ACR_PASSWORD]),
        )
}

#[test]
fn oidc_discovery_and_pkce_login() {
    let provider = OidcProvider::start(oidc_config());
    let discovery = provider.discovery();
    assert_eq!(discovery["issuer"], provider.issuer());
    assert_eq!(
        discovery["code_challenge_methods_supported"],
        serde_json::json!(["S256"])
    );
    assert_eq!(
        discovery["acr_values_supported"],
        serde_json::json!([ACR_PASSWORD, ACR_MFA])
    );
    assert!(
        discovery["device_authorization_endpoint"].is_string(),
        "{discovery}"
    );
    assert!(provider.jwks()["keys"][0]["kid"].is_string());

    // A full authorization-code + PKCE login through the HTML forms.
    let port = 49_152; // any loopback port matches the registered redirect URI
    let request = AuthorizationRequest::new(port);
    let redirect = Browser::new()
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("alice", "alice-password"),
        )
        .expect("login");
    assert!(
        redirect
            .url
            .starts_with(&format!("http://127.0.0.1:{port}/callback?")),
        "{}",
        redirect.url
    );
    assert_eq!(redirect.state.as_deref(), Some(request.state.as_str()));
    assert_eq!(redirect.iss.as_deref(), Some(provider.issuer()));
    let code = redirect.code().unwrap();

    // The wrong verifier is refused ...
    let refused = provider
        .exchange_code(
            &code,
            &request.redirect_uri,
            "a-wrong-verifier-a-wrong-verifier-a-wrong-verifier",
        )
        .unwrap_err();
    assert_eq!(refused.error(), "invalid_grant", "{refused}");
    // ... and the code is single-use: a second login gives a fresh one.
    let tokens = provider.login(&oidc_config().users[0], &request);
    let access = decode_jwt_claims(tokens["access_token"].as_str().unwrap());
    assert_eq!(access["iss"], provider.issuer());
    assert_eq!(access["aud"], provider.config().resource);
    assert_eq!(access["sub"], "alice");
    assert_eq!(access["client_id"], "stone-cli");
    assert_eq!(
        access["roles"],
        serde_json::json!(["protected-write", "reader"])
    );
    assert_eq!(access["acr"], ACR_PASSWORD);
    assert!(access["auth_time"].is_u64(), "{access}");
    let id_token = decode_jwt_claims(tokens["id_token"].as_str().unwrap());
    assert_eq!(id_token["sub"], "alice");
    assert_eq!(
        id_token["roles"],
        serde_json::json!(["protected-write", "reader"])
    );

    // Refresh tokens work and keep the claims.
    let refreshed = provider
        .refresh(tokens["refresh_token"].as_str().expect("a refresh token"))
        .expect("refresh");
    let access = decode_jwt_claims(refreshed["access_token"].as_str().unwrap());
    assert_eq!(
        access["roles"],
        serde_json::json!(["protected-write", "reader"])
    );
    assert_eq!(access["acr"], ACR_PASSWORD);
}

#[test]
fn oidc_refuses_what_it_must() {
    let provider = OidcProvider::start(oidc_config());

    // No PKCE: refused at the authorization endpoint, back to the client with an error.
    let mut request = AuthorizationRequest::new(40_000);
    request.pkce = None;
    let redirect = Browser::new()
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("alice", "alice-password"),
        )
        .expect("redirect");
    assert_eq!(
        redirect.error.as_deref(),
        Some("invalid_request"),
        "{redirect:?}"
    );

    // A wrong password: the form says so.
    let request = AuthorizationRequest::new(40_000);
    let error = Browser::new()
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("alice", "nope"),
        )
        .unwrap_err();
    assert!(
        error.message.contains("Invalid login or password"),
        "{error}"
    );

    // A redirect URI that is not loopback (or not registered) never gets a code.
    let mut request = AuthorizationRequest::new(40_000);
    request.redirect_uri = "http://192.0.2.1:40000/callback".to_owned();
    let error = Browser::new()
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("alice", "alice-password"),
        )
        .unwrap_err();
    assert_eq!(error.status, 400, "{error}");

    // Denied consent.
    let request = AuthorizationRequest::new(40_000);
    let redirect = Browser::new()
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("alice", "alice-password").denying_consent(),
        )
        .expect("redirect");
    assert_eq!(
        redirect.error.as_deref(),
        Some("access_denied"),
        "{redirect:?}"
    );
}

#[test]
fn oidc_step_up_and_delivery_to_a_loopback_listener() {
    let provider = OidcProvider::start(oidc_config());
    let mut browser = Browser::new();
    let credentials = Credentials::new("alice", "alice-password");

    // First login: password level.
    let request = AuthorizationRequest::new(41_000);
    let redirect = browser
        .authorize(&provider.authorization_url(&request), &credentials)
        .unwrap();
    let tokens = provider
        .exchange_code(
            &redirect.code().unwrap(),
            &request.redirect_uri,
            &request.pkce.as_ref().unwrap().verifier,
        )
        .unwrap();
    assert_eq!(
        decode_jwt_claims(tokens["access_token"].as_str().unwrap())["acr"],
        ACR_PASSWORD
    );

    // Same browser, no acr_values: the session is reused (no form to fill).
    let request = AuthorizationRequest::new(41_000);
    let redirect = browser
        .authorize(
            &provider.authorization_url(&request),
            &Credentials::new("x", "never-typed"),
        )
        .unwrap();
    assert!(redirect.code.is_some(), "{redirect:?}");

    // Step-up: acr_values the session has not reached prompt a login that reaches it.
    let mut request = AuthorizationRequest::new(41_000);
    request.acr_values = Some(ACR_MFA.to_owned());
    request.max_age = Some(0);
    let redirect = browser
        .authorize(&provider.authorization_url(&request), &credentials)
        .unwrap();

    // Deliver the redirect to a real loopback listener, as the browser would.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let url = redirect.url.replace(":41000/", &format!(":{port}/"));
    let server = std::thread::spawn(move || {
        use std::io::{BufRead, BufReader, Write};
        let (mut stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(&stream).read_line(&mut line).unwrap();
        stream
            .write_all(
                b"HTTP/1.1 200 OK\r\ncontent-length: 9\r\nconnection: close\r\n\r\nlogged in",
            )
            .unwrap();
        line
    });
    let delivered = stone_test::services::AuthorizationRedirect {
        url,
        ..redirect.clone()
    }
    .deliver()
    .unwrap();
    assert_eq!(
        (delivered.status, delivered.text().as_str()),
        (200, "logged in")
    );
    let request_line = server.join().unwrap();
    assert!(
        request_line.starts_with("GET /callback?code="),
        "{request_line}"
    );

    let tokens = provider
        .exchange_code(
            &redirect.code().unwrap(),
            &request.redirect_uri,
            &request.pkce.as_ref().unwrap().verifier,
        )
        .unwrap();
    let access = decode_jwt_claims(tokens["access_token"].as_str().unwrap());
    assert_eq!(access["acr"], ACR_MFA);
    assert_eq!(access["amr"], serde_json::json!(["pwd", "otp"]));
    // The ID token carries acr when acr_values asked for it (the library's rule).
    assert_eq!(
        decode_jwt_claims(tokens["id_token"].as_str().unwrap())["acr"],
        ACR_MFA
    );

    // A user who cannot reach MFA stays at the password level.
    let mut request = AuthorizationRequest::new(41_000);
    request.acr_values = Some(ACR_MFA.to_owned());
    let tokens = provider.login(&oidc_config().users[1], &request);
    assert_eq!(
        decode_jwt_claims(tokens["access_token"].as_str().unwrap())["acr"],
        ACR_PASSWORD
    );
}

#[test]
fn oidc_device_flow() {
    let provider = OidcProvider::start(oidc_config());
    let device = provider.device_authorization("openid roles offline_access");
    let user_code = device["user_code"].as_str().unwrap();
    let device_code = device["device_code"].as_str().unwrap();

    // Before approval: pending.
    let grant = [
        ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
        ("device_code", device_code),
    ];
    assert_eq!(
        provider.token_request(&grant).unwrap_err().error(),
        "authorization_pending"
    );

    Browser::new()
        .approve_device(
            device["verification_uri"].as_str().unwrap(),
            user_code,
            &Credentials::new("alice", "alice-password"),
        )
        .expect("device approval");
    let tokens = provider
        .token_request(&grant)
        .expect("tokens after approval");
    let access = decode_jwt_claims(tokens["access_token"].as_str().unwrap());
    assert_eq!(access["sub"], "alice");
    assert_eq!(
        access["roles"],
        serde_json::json!(["protected-write", "reader"])
    );
}

#[test]
fn iceberg_readers_read_a_pyiceberg_table() {
    for script in ["read_iceberg.py", "read_iceberg_duckdb.py", "sparql.py"] {
        let output = tools::python_script(script).arg("--help").output().unwrap();
        assert!(
            output.status.success(),
            "{script} --help: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(String::from_utf8_lossy(&output.stdout).contains("usage:"));
    }

    let dir = tempfile::tempdir().unwrap();
    let made = tools::run_python_json(
        "make_iceberg_table.py",
        &["--dir", dir.path().to_str().unwrap()],
    );
    let catalog_db = made["catalog_db"].as_str().unwrap();
    let warehouse = made["warehouse"].as_str().unwrap();

    let ids = |result: &serde_json::Value| -> Vec<i64> {
        result["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect()
    };
    let args = [
        "--catalog-db",
        catalog_db,
        "--warehouse",
        warehouse,
        "--table",
        "demo.cities",
        "--order-by",
        "id",
    ];

    let pyiceberg = tools::run_python_json("read_iceberg.py", &args);
    assert_eq!(pyiceberg["row_count"], 4, "{pyiceberg}");
    assert_eq!(ids(&pyiceberg), [1, 2, 3, 4]);
    assert_eq!(pyiceberg["snapshot_count"], 3);
    assert_eq!(pyiceberg["metadata_location"], made["metadata_location"]);
    let fields: Vec<(String, String)> = pyiceberg["schema"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_owned(),
                f["type"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("id", "long"),
            ("name", "string"),
            ("founded", "date"),
            ("population", "long")
        ]
        .map(|(n, t)| (n.to_owned(), t.to_owned()))
    );
    assert_eq!(
        pyiceberg["rows"][1],
        serde_json::json!({"id": 2, "name": "Zürich", "founded": null, "population": 421000})
    );

    let duckdb = tools::run_python_json("read_iceberg_duckdb.py", &args);
    assert_eq!(duckdb["row_count"], 4, "{duckdb}");
    assert_eq!(
        duckdb["rows"], pyiceberg["rows"],
        "both readers see the same rows"
    );
    assert_eq!(duckdb["snapshot_id"], pyiceberg["snapshot_id"]);

    // Branches.
    let mut dev = args.to_vec();
    dev.extend(["--branch", "dev"]);
    let pyiceberg_dev = tools::run_python_json("read_iceberg.py", &dev);
    let duckdb_dev = tools::run_python_json("read_iceberg_duckdb.py", &dev);
    assert_eq!(ids(&pyiceberg_dev), [1, 2, 3, 4, 5]);
    assert_eq!(duckdb_dev["rows"], pyiceberg_dev["rows"]);

    // A missing branch is an error, not an empty table.
    let output = tools::python_script("read_iceberg.py")
        .args(args)
        .args(["--branch", "nope"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no branch or tag 'nope'"));
}

#[test]
fn tools_are_where_the_installer_puts_them() {
    assert!(tools::python().is_file());
    for bin in ["weed", "oxigraph", "wsgidav"] {
        assert!(tools::venv_bin(bin).is_file(), "{bin}");
    }
    for extension in ["iceberg", "avro"] {
        assert!(tools::duckdb_extension(extension).is_file(), "{extension}");
    }
    assert!(
        tools::oidc_provider_dir()
            .join("node_modules/oidc-provider")
            .is_dir()
    );
    let version = Command::new(tools::node())
        .arg("--version")
        .output()
        .unwrap();
    assert!(version.status.success());
}

#[test]
#[should_panic(expected = "run scripts/install-tools")]
fn a_missing_tool_fails_with_the_fix() {
    // Not through STONE_TOOLS_DIR (tests run in parallel): ask for a binary that the
    // installer does not put there.
    tools::venv_bin("no-such-tool");
}
