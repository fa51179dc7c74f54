//! Identity end to end: the real `stone` binary, the real `stone-server` in `oidc` mode and
//! the real npm `oidc-provider` (PKCE, acr_values, max_age, refresh are its own). The tests
//! read the authorization URL `stone` prints on stderr, log in through the provider's
//! forms with the harness `Browser`, and let the redirect reach stone's loopback listener.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{
    ACR_MFA, ACR_PASSWORD, AuthorizationRequest, Browser, Credentials, OidcConfig, OidcProvider,
    OidcUser, StoneServer, agent,
};

const HOST: &str = "data.test";

pub(crate) struct World {
    pub(crate) provider: OidcProvider,
    pub(crate) server: StoneServer,
    pub(crate) ctx: TestContext,
    pub(crate) _data: tempfile::TempDir,
}

pub(crate) fn alice() -> OidcUser {
    OidcUser::new("alice", "alice-password").with_roles(&["protected-write", "reader"])
}

pub(crate) fn bob() -> OidcUser {
    OidcUser::new("bob", "bob-password").with_roles(&["reader"])
}

/// The provider, a server trusting it (step-up: MFA within 600 s on protected refs), and
/// a context with the environment `dev` (its issuer learned from the server).
pub(crate) fn world() -> World {
    world_with(OidcConfig::default())
}

/// [`world`] with the provider configured by `config` (alice and bob added).
fn world_with(config: OidcConfig) -> World {
    let provider = OidcProvider::start(config.with_user(alice()).with_user(bob()));
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let config = format!(
        "public_host = \"{HOST}\"\n[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n[auth.step_up]\nacr_values = [\"{ACR_MFA}\"]\nmax_age = 600\n",
        provider.issuer(),
        provider.config().resource
    );
    let server = StoneServer::start(data.path(), Some(&config), &[]);
    let mut ctx = crate::context();
    ctx.set_var("STONE_NO_BROWSER", "1");
    ctx.add_env("dev", HOST, &server.api());
    World {
        provider,
        server,
        ctx,
        _data: data,
    }
}

/// What a run of stone gave, with the authorization URLs it printed.
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) authorization_urls: Vec<String>,
}

impl Run {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }

    pub(crate) fn output(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }
}

/// Runs `cmd`; each authorization URL it prints on stderr is opened in `browser` with
/// `credentials` and the redirect delivered to stone's loopback listener.
pub(crate) fn run(
    world: &World,
    cmd: &mut Command,
    browser: &mut Browser,
    credentials: &Credentials,
) -> Run {
    run_with(world, cmd, |url| {
        let redirect = browser
            .authorize(url, credentials)
            .unwrap_or_else(|e| panic!("the browser login failed: {e}"));
        redirect
            .deliver()
            .expect("stone's loopback listener answers");
    })
}

fn run_with(world: &World, cmd: &mut Command, mut on_url: impl FnMut(&str)) -> Run {
    let endpoint = world.provider.endpoint("authorization_endpoint");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stone starts");
    let stderr = child.stderr.take().unwrap();
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let mut text = String::new();
    let mut urls = Vec::new();
    loop {
        match received.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => {
                text.push_str(&line);
                text.push('\n');
                let trimmed = line.trim();
                if trimmed.starts_with(&endpoint) {
                    urls.push(trimmed.to_owned());
                    on_url(trimmed);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("stone printed nothing for 120 s:\n{text}");
            }
        }
    }
    let status = child.wait().unwrap();
    Run {
        code: status.code(),
        stdout: reader.join().unwrap(),
        stderr: text,
        authorization_urls: urls,
    }
}

pub(crate) fn login(world: &World, user: &OidcUser) -> Run {
    let run = run(
        world,
        world.ctx.stone().args(["login", "--env", "dev"]),
        &mut Browser::new(),
        &user.credentials(),
    );
    assert_eq!(run.code, Some(0), "login failed:\n{}", run.output());
    run
}

fn token_dir(ctx: &TestContext) -> PathBuf {
    ctx.home.join(".local/share/stone/tokens")
}

fn token_file(ctx: &TestContext) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(token_dir(ctx))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

pub(crate) fn stored(ctx: &TestContext) -> Value {
    serde_json::from_slice(&std::fs::read(token_file(ctx)).unwrap()).unwrap()
}

/// No token string (nor a long piece of one) in any output.
pub(crate) fn assert_no_token(outputs: &[&str], tokens: &[&str]) {
    for token in tokens.iter().filter(|t| !t.is_empty()) {
        let piece = &token[..token.len().min(24)];
        let tail = &token[token.len().saturating_sub(24)..];
        for output in outputs {
            assert!(
                !output.contains(piece) && !output.contains(tail),
                "a token shows in the output:\n{output}"
            );
        }
    }
}

/// Every regular file under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

pub(crate) fn query_param(url: &str, name: &str) -> Option<String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

pub(crate) fn package(ctx: &TestContext, name: &str, public: bool) -> PathBuf {
    ctx.package(
        name,
        &format!(
            "name: {name}\npublish: {{to: \"stone:{name}\", public: {public}}}\nresources:\n  - path: notes.bin\n"
        ),
        &[("notes.bin", &[42u8; 3000])],
    )
}

pub(crate) fn push(world: &World, dir: &Path, args: &[&str]) -> Command {
    let mut cmd = world.ctx.stone();
    cmd.args(["package", "push", "--env", "dev", "--json"])
        .args(args)
        .arg(dir);
    cmd
}

pub(crate) fn simple(cmd: &mut Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        authorization_urls: Vec::new(),
    }
}

/// Hole 1 of issue 52 (one way to start a program): the browser opener at login is found
/// on the absolute entries of PATH only, so an `xdg-open` planted in the folder stone runs
/// from, or in a relative `PATH` entry, never runs; the real opener (here a script in an
/// absolute folder) gets the URL, in a folder of stone's choosing, without `STONE_*`
/// variables.
#[cfg(unix)]
#[test]
fn a_planted_opener_never_runs_at_login_and_the_real_one_gets_no_stone_variables() {
    use std::os::unix::fs::PermissionsExt;
    let mut world = world();
    let root = world.ctx.root().to_owned();
    let marker = root.join("a-planted-opener-ran");
    let opened = root.join("opened");
    let script = |path: &Path, body: String| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    for name in ["xdg-open", "open"] {
        for dir in [root.clone(), root.join("bin")] {
            script(
                &dir.join(name),
                format!("echo \"$0 $*\" >> '{}'", marker.display()),
            );
        }
        script(
            &root.join("real-opener").join(name),
            format!(
                "{{ echo \"url=$1\"; echo \"cwd=$(pwd)\"; env | grep '^STONE_' ; }} > '{}'",
                opened.display()
            ),
        );
    }
    let path = std::env::var("PATH").unwrap_or_default();
    world.ctx.set_var(
        "PATH",
        format!("bin:.::{}:{path}", root.join("real-opener").display()),
    );
    world.ctx.set_var("STONE_NO_BROWSER", "0");
    let run = login(&world, &alice());
    assert!(
        !marker.exists(),
        "a planted opener ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
    let shown = std::fs::read_to_string(&opened).expect("the real opener ran");
    assert!(
        shown.contains(&format!("url={}", run.authorization_urls[0])),
        "{shown}"
    );
    assert!(shown.contains("cwd=/\n"), "{shown}");
    assert!(!shown.contains("STONE_"), "{shown}");
}

#[test]
fn login_whoami_refresh_logout() {
    let world = world();
    let ctx = &world.ctx;
    let run = login(&world, &alice());
    let url = &run.authorization_urls[0];
    assert_eq!(run.authorization_urls.len(), 1);
    // PKCE S256, state and nonce, on a loopback redirect.
    assert_eq!(
        query_param(url, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(
        query_param(url, "code_challenge").map(|c| c.len()),
        Some(43)
    );
    assert!(query_param(url, "state").is_some_and(|s| s.len() >= 16));
    assert!(query_param(url, "nonce").is_some_and(|s| s.len() >= 16));
    let redirect_uri = query_param(url, "redirect_uri").unwrap();
    assert!(
        redirect_uri.starts_with("http://127.0.0.1:") && redirect_uri.ends_with("/callback"),
        "{redirect_uri}"
    );

    // The store: a 0600 file in a 0700 directory.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&token_file(ctx)), 0o600);
        assert_eq!(mode(&token_dir(ctx)), 0o700);
    }
    let first = stored(ctx);
    let access = first["access_token"].as_str().unwrap().to_owned();
    let refresh = first["refresh_token"]
        .as_str()
        .expect("a refresh token")
        .to_owned();

    let who = simple(ctx.stone().args(["whoami", "--env", "dev", "--json"]));
    assert_eq!(who.code, Some(0), "{}", who.output());
    let shown = who.json();
    assert_eq!(shown["subject"], "alice");
    assert_eq!(
        shown["roles"],
        serde_json::json!(["protected-write", "reader"])
    );
    assert_eq!(shown["acr"], ACR_PASSWORD);
    assert_eq!(shown["source"], "login");
    assert_eq!(shown["expired"], false);
    let human = simple(ctx.stone().args(["whoami", "--env", "dev"]));
    assert!(
        human.stdout.contains("Subject:     alice"),
        "{}",
        human.stdout
    );

    // An expired access token is refreshed silently with the refresh token.
    let mut expired = first.clone();
    expired["expires_at"] = serde_json::json!(1);
    std::fs::write(token_file(ctx), serde_json::to_vec(&expired).unwrap()).unwrap();
    let again = simple(ctx.stone().args(["whoami", "--env", "dev", "--json"]));
    assert_eq!(again.code, Some(0), "{}", again.output());
    assert_eq!(again.json()["subject"], "alice");
    let second = stored(ctx);
    assert_ne!(
        second["access_token"], first["access_token"],
        "a new access token"
    );
    assert!(second["expires_at"].as_u64().unwrap() > 1);
    let new_access = second["access_token"].as_str().unwrap().to_owned();
    let new_refresh = second["refresh_token"]
        .as_str()
        .unwrap_or_default()
        .to_owned();

    // Logout forgets it; whoami then says how to log in (exit 3).
    let out = simple(ctx.stone().args(["logout", "--env", "dev"]));
    assert_eq!(out.code, Some(0), "{}", out.output());
    assert_eq!(std::fs::read_dir(token_dir(ctx)).unwrap().count(), 0);
    let gone = simple(ctx.stone().args(["whoami", "--env", "dev"]));
    assert_eq!(gone.code, Some(3), "{}", gone.output());
    assert!(
        gone.stderr.contains("stone login --env dev"),
        "{}",
        gone.stderr
    );

    assert_no_token(
        &[
            &run.output(),
            &who.output(),
            &human.output(),
            &again.output(),
            &out.output(),
            &gone.output(),
        ],
        &[&access, &refresh, &new_access, &new_refresh],
    );
}

/// With an OS keyring (a real Secret Service on a private session bus), the login goes
/// there and nowhere on disk; `STONE_KEYRING=0` and a machine without a bus use the file.
#[test]
fn a_login_goes_to_the_os_keyring_when_there_is_one() {
    let world = world();
    let ctx = &world.ctx;
    let keyring = stone_test::services::SecretService::start();
    let on_bus = |cmd: &mut Command| {
        cmd.env("DBUS_SESSION_BUS_ADDRESS", keyring.address());
    };
    let mut cmd = ctx.stone();
    on_bus(&mut cmd);
    let run = run(
        &world,
        cmd.args(["login", "--env", "dev"]),
        &mut Browser::new(),
        &alice().credentials(),
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    assert!(
        run.stderr
            .contains("stored in the OS keyring (service `stone`, account `dev`)"),
        "{}",
        run.stderr
    );
    assert!(
        files_under(&token_dir(ctx)).is_empty(),
        "no token file next to the keyring: {:?}",
        files_under(&token_dir(ctx))
    );
    let secret = keyring
        .lookup(&["service", "stone", "username", "dev"])
        .expect("the login is in the keyring");
    let entry: Value = serde_json::from_str(&secret).expect("the entry is the stored JSON");
    assert_eq!(entry["env"], "dev");
    let access = entry["access_token"].as_str().unwrap().to_owned();

    // The keyring's login serves whoami and pushes.
    let mut cmd = ctx.stone();
    on_bus(&mut cmd);
    let who = simple(cmd.args(["whoami", "--env", "dev", "--json"]));
    assert_eq!(who.code, Some(0), "{}", who.output());
    assert_eq!(who.json()["subject"], "alice");
    let dir = package(ctx, "notes", true);
    let mut cmd = push(&world, &dir, &["--branch", "feature"]);
    on_bus(&mut cmd);
    let pushed = simple(&mut cmd);
    assert_eq!(pushed.code, Some(0), "{}", pushed.output());

    // Without a bus (a headless machine) there is no keyring: not logged in there.
    let alone = simple(ctx.stone().args(["whoami", "--env", "dev", "--json"]));
    assert_ne!(alone.code, Some(0), "{}", alone.output());

    // STONE_KEYRING=0: files even with a keyring.
    let mut cmd = ctx.stone();
    on_bus(&mut cmd);
    cmd.env("STONE_KEYRING", "0");
    let filed = run_with(&world, cmd.args(["login", "--env", "dev"]), |url| {
        Browser::new()
            .authorize(url, &alice().credentials())
            .expect("login")
            .deliver()
            .expect("stone's loopback listener answers");
    });
    assert_eq!(filed.code, Some(0), "{}", filed.output());
    assert_eq!(stored(ctx)["env"], "dev");

    // Logout removes the keyring entry (and the file).
    let mut cmd = ctx.stone();
    on_bus(&mut cmd);
    let out = simple(cmd.args(["logout", "--env", "dev"]));
    assert_eq!(out.code, Some(0), "{}", out.output());
    assert_eq!(
        keyring.lookup(&["service", "stone", "username", "dev"]),
        None
    );
    assert!(files_under(&token_dir(ctx)).is_empty());
    assert_no_token(
        &[
            &run.output(),
            &who.output(),
            &pushed.output(),
            &out.output(),
        ],
        &[&access],
    );
}

#[test]
fn a_wrong_code_verifier_is_refused_by_the_provider() {
    let world = world();
    let mut browser = Browser::new();
    let credentials = alice().credentials();
    let provider = &world.provider;
    let run = run_with(
        &world,
        world.ctx.stone().args(["login", "--env", "dev"]),
        |url| {
            let redirect = browser.authorize(url, &credentials).unwrap();
            let code = redirect.code().unwrap();
            let redirect_uri = query_param(url, "redirect_uri").unwrap();
            // Someone who caught the code cannot use it without stone's verifier.
            let refused = provider
                .exchange_code(
                    &code,
                    &redirect_uri,
                    "a-wrong-verifier-a-wrong-verifier-a-wrong-verifier",
                )
                .unwrap_err();
            assert_eq!(refused.error(), "invalid_grant", "{refused}");
            // Without any verifier either.
            let refused = provider
                .token_request(&[
                    ("grant_type", "authorization_code"),
                    ("code", &code),
                    ("redirect_uri", &redirect_uri),
                ])
                .unwrap_err();
            assert_eq!(refused.error(), "invalid_grant", "{refused}");
            redirect.deliver().unwrap();
        },
    );
    // stone's own exchange, with the right verifier, works.
    assert_eq!(run.code, Some(0), "{}", run.output());
    assert_eq!(stored(&world.ctx)["env"], "dev");
}

#[test]
fn push_to_an_unprotected_branch_with_a_plain_token_and_no_cloud_credentials() {
    let world = world();
    login(&world, &alice());
    let dir = package(&world.ctx, "notes", true);
    let mut cmd = push(&world, &dir, &["--branch", "feature-x", "--verbose"]);
    // The environment of stone holds no cloud credentials at all (TestContext clears
    // AWS_*, GOOGLE_*, AZURE_*): only the identity token and the presigned URLs.
    for (key, _) in cmd.get_envs() {
        let key = key.to_string_lossy();
        assert!(
            !["AWS_", "GOOGLE_", "AZURE_"]
                .iter()
                .any(|p| key.starts_with(p)),
            "{key} is set"
        );
    }
    let run = simple(&mut cmd);
    assert_eq!(run.code, Some(0), "{}", run.output());
    let result = run.json();
    assert!(
        result["uploaded_bytes"].as_u64().unwrap() >= 3000,
        "{result:#}"
    );
    // --verbose shows every request, the API calls with the token, the uploads without,
    // and never a presigned URL's signature nor the token itself (below).
    let api_calls: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("/pushes") && l.contains("with the bearer token"))
        .collect();
    assert!(
        api_calls.iter().any(|l| l.contains("POST ")),
        "{}",
        run.stderr
    );
    let uploads: Vec<&str> = run.stderr.lines().filter(|l| l.contains("PUT ")).collect();
    assert!(!uploads.is_empty(), "{}", run.stderr);
    for line in &uploads {
        assert!(line.contains("(no token)"), "{line}");
        // The signature's value never shows: its key may, with `REDACTED` for a value
        // (stone_api::redact_url).
        for key in ["sig=", "signature=", "Signature="] {
            for (at, _) in line.match_indices(key) {
                assert!(
                    line[at + key.len()..].starts_with("REDACTED"),
                    "a presigned URL's signature shows: {line}"
                );
            }
        }
    }
    assert!(
        run.stderr.contains("token: the stored login of `dev`"),
        "{}",
        run.stderr
    );
    // The local staging route refuses any request that carries an Authorization header
    // (staging.credentials_sent): the uploads carried none, the API calls carried the token.
    assert!(!world.server.log_tail(400).contains("credentials_sent"));

    // In CI: the token comes from STONE_TOKEN, with no stored login and no browser.
    let token = world
        .provider
        .login(&bob(), &AuthorizationRequest::new(40_123))["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ci = world.ctx.stone();
    ci.args([
        "package",
        "push",
        "--env",
        "dev",
        "--json",
        "--branch",
        "ci-branch",
    ])
    .arg(&dir)
    .env("CI", "true")
    .env("STONE_TOKEN", &token)
    .env("STONE_TOKEN_DIR", world.ctx.root().join("no-tokens-here"));
    let run_ci = simple(&mut ci);
    assert_eq!(run_ci.code, Some(0), "{}", run_ci.output());
    assert!(!world.ctx.root().join("no-tokens-here").exists());
    assert_no_token(
        &[&run.output(), &run_ci.output()],
        &[&token, stored(&world.ctx)["access_token"].as_str().unwrap()],
    );
}

#[test]
fn a_protected_ref_without_yes_is_refused_before_anything_is_uploaded() {
    let world = world();
    let dir = package(&world.ctx, "notes", true);
    // Not even logged in: the refusal comes first, from what the server says it protects.
    let run = simple(&mut push(&world, &dir, &["--branch", "main"]));
    assert_eq!(run.code, Some(4), "{}", run.output());
    assert!(
        run.stderr.contains("main is a protected ref"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--yes"), "{}", run.stderr);
    assert_eq!(run.json()["error"]["code"], "push.confirmation_required");
    assert!(!run.stderr.contains("files to upload"), "{}", run.stderr);
    let staged = world.server.data_dir().join("staging");
    assert_eq!(
        files_under(&staged),
        Vec::<PathBuf>::new(),
        "nothing staged"
    );
    assert!(
        !world
            .server
            .log_tail(400)
            .contains("push manifest accepted")
    );
}

#[test]
fn yes_without_the_role_and_force_without_the_elevated_role_are_refused() {
    let world = world();
    let dir = package(&world.ctx, "notes", true);
    login(&world, &bob());
    let run = simple(&mut push(&world, &dir, &["--branch", "main", "--yes"]));
    assert_eq!(run.code, Some(4), "{}", run.output());
    assert_eq!(run.json()["error"]["code"], "push.protected_ref");
    assert!(run.stderr.contains("protected-write"), "{}", run.stderr);

    simple(world.ctx.stone().args(["logout", "--env", "dev"]));
    login(&world, &alice());
    let run = simple(&mut push(
        &world,
        &dir,
        &["--branch", "main", "--yes", "--force"],
    ));
    assert_eq!(run.code, Some(4), "{}", run.output());
    assert_eq!(run.json()["error"]["code"], "push.force_forbidden");
    assert!(run.stderr.contains("protected-force"), "{}", run.stderr);
}

#[test]
fn a_non_public_dataset_is_unreadable_without_a_token() {
    let world = world();
    login(&world, &alice());
    let token = stored(&world.ctx)["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = package(&world.ctx, "secret", false);
    let run = simple(&mut push(&world, &dir, &["--branch", "feature-y"]));
    assert_eq!(run.code, Some(0), "{}", run.output());
    let url = format!(
        "{}/namespaces/secret/datasets/notes?branch=feature-y",
        world.server.api()
    );
    let anonymous = agent().get(&url).call().unwrap();
    assert_eq!(anonymous.status().as_u16(), 401);
    let with_token = agent()
        .get(&url)
        .header("authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(with_token.status().as_u16(), 200);

    // `stone data import` reads it with the stored login, and is refused without one.
    let importer = world.ctx.package(
        "importer",
        "name: importer\npublish: {to: \"stone:importer\"}\nresources:\n  - path: a.bin\n",
        &[("a.bin", b"x")],
    );
    let import = |name: &str| {
        let mut cmd = world.ctx.stone();
        cmd.args([
            "data",
            "import",
            "--json",
            "--env",
            "dev",
            "--branch",
            "feature-y",
        ])
        .args(["stone:secret/notes", "--as", name])
        .arg(&importer);
        simple(&mut cmd)
    };
    let imported = import("with-login");
    assert_eq!(imported.code, Some(0), "{}", imported.output());
    assert_eq!(
        std::fs::read(importer.join("ext/with-login/notes.bin")).unwrap(),
        vec![42u8; 3000]
    );
    let logout = simple(world.ctx.stone().args(["logout", "--env", "dev"]));
    assert_eq!(logout.code, Some(0), "{}", logout.output());
    let refused = import("without-login");
    assert_eq!(refused.code, Some(3), "{}", refused.output());
    assert!(refused.stderr.contains("stone login"), "{}", refused.stderr);
    assert!(!importer.join("ext/without-login").exists());
    assert_no_token(&[&imported.output(), &refused.output()], &[&token]);
}

/// Reads stone's stderr up to the device flow's instruction: the verification URI and the
/// user code (no browser login may show up before it).
fn device_code(world: &World, stderr: &mut impl BufRead, shown: &mut String) -> (String, String) {
    loop {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "no device code shown:\n{shown}"
        );
        shown.push_str(&line);
        assert!(
            !line.contains(&world.provider.endpoint("authorization_endpoint")),
            "a browser login instead of the device flow:\n{shown}"
        );
        if let Some(rest) = line.trim().strip_prefix("To log in, open ") {
            let (uri, code) = rest.split_once(" and enter the code ").unwrap();
            return (uri.to_owned(), code.to_owned());
        }
    }
}

#[test]
fn device_flow_login() {
    let world = world();
    let mut cmd = world.ctx.stone();
    cmd.args(["login", "--env", "dev", "--device"]);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut shown = String::new();
    let (uri, code) = device_code(&world, &mut stderr, &mut shown);
    Browser::new()
        .approve_device(&uri, &code, &alice().credentials())
        .unwrap();
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(status.success(), "{shown}{rest}");
    assert!(rest.contains("as alice"), "{rest}");
    let who = simple(world.ctx.stone().args(["whoami", "--env", "dev", "--json"]));
    assert_eq!(who.json()["subject"], "alice");
}

#[test]
fn a_step_up_with_device_shows_a_code_and_the_same_push_goes_on() {
    let world = world();
    let dir = package(&world.ctx, "notes", true);
    login(&world, &alice());
    let mut cmd = push(&world, &dir, &["--branch", "main", "--yes", "--device"]);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut shown = String::new();
    let (uri, code) = device_code(&world, &mut stderr, &mut shown);
    Browser::new()
        .approve_device(&uri, &code, &alice().credentials().with_acr(ACR_MFA))
        .unwrap();
    let mut stdout = String::new();
    std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(status.success(), "{shown}{rest}");
    let result: Value = serde_json::from_str(&stdout).expect("the push result");
    let push_id = result["push_id"].as_str().unwrap();
    assert!(
        shown.contains(&format!("push {push_id} needs a fresh authentication")),
        "the challenged push is the one that succeeded:\n{shown}{rest}"
    );
    let claims = stone_test::services::decode_jwt_claims(
        stored(&world.ctx)["access_token"].as_str().unwrap(),
    );
    assert_eq!(claims["acr"], ACR_MFA);
}

/// The environment `prod`: the world's server and provider, a step-up to MFA within 600 s.
fn add_prod(world: &World) {
    let add = simple(world.ctx.stone().args([
        "env",
        "add",
        "prod",
        "--host",
        "prod.test",
        "--api",
        &world.server.api(),
        "--issuer",
        world.provider.issuer(),
        "--acr-values",
        ACR_MFA,
        "--max-age",
        "600",
    ]));
    assert_eq!(add.code, Some(0), "{}", add.output());
}

/// An access token of `user` from a fresh login with a second factor (what a CI job would
/// be given as STONE_TOKEN for a prod push).
fn mfa_token(world: &World, user: &OidcUser) -> String {
    let mut request = AuthorizationRequest::new(40_126);
    request.acr_values = Some(ACR_MFA.to_owned());
    let redirect = Browser::new()
        .authorize(
            &world.provider.authorization_url(&request),
            &user.credentials().with_acr(ACR_MFA),
        )
        .unwrap_or_else(|e| panic!("the login of {} failed: {e}", user.sub));
    let code = redirect.code().unwrap();
    let verifier = &request.pkce.as_ref().unwrap().verifier;
    let tokens = world
        .provider
        .exchange_code(&code, &request.redirect_uri, verifier)
        .unwrap_or_else(|e| panic!("{e}"));
    let token = tokens["access_token"].as_str().unwrap().to_owned();
    assert_eq!(
        stone_test::services::decode_jwt_claims(&token)["acr"],
        ACR_MFA
    );
    token
}

fn base64url(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A blob-store push to prod with `token` as STONE_TOKEN, refused by the guard: exit 3,
/// `code`, a message holding `why`, nothing written, the token never shown. Returns the
/// error and the run's output.
fn refused_blob_push_to_prod(
    world: &World,
    token: &str,
    code: &str,
    why: &str,
) -> (serde_json::Value, String) {
    let (run, store) = ci_blob_push_to_prod(world, token);
    let output = run.output();
    assert_eq!(run.code, Some(3), "{output}");
    let error = run.json()["error"].clone();
    assert_eq!(error["code"], code, "{output}");
    assert!(
        error["message"].as_str().unwrap_or_default().contains(why),
        "{why:?} in:\n{output}"
    );
    assert!(!store.exists(), "written before the guard:\n{output}");
    assert_no_token(&[&output], &[token]);
    (error, output)
}

/// A blob-store push of a small package to `file://<root>/store` with `--env prod --yes`
/// in CI with `STONE_TOKEN=token`; the store's directory.
fn ci_blob_push_to_prod(world: &World, token: &str) -> (Run, PathBuf) {
    let ctx = &world.ctx;
    let dir = package(ctx, "notes", true);
    let store = ctx.root().join("store");
    let to = format!("file://{}", store.display());
    let mut cmd = ctx.stone();
    cmd.args([
        "package", "push", "--branch", "b", "--json", "--yes", "--to", &to,
    ])
    .arg(&dir)
    .env("CI", "true")
    .env("STONE_TOKEN", token);
    (simple(&mut cmd), store)
}

/// Issue 22, hole 9: the prod guard of a blob-store push decides on a token's roles and
/// `acr`, and no server checks that token afterwards, so the CLI verifies it against the
/// keys prod's issuer publishes before believing it. Hand-made tokens that claim the role
/// and the second factor are refused and nothing is written; the provider's own token
/// with the role passes.
#[test]
fn a_blob_store_push_to_prod_believes_only_a_token_its_issuer_signed() {
    let world = world();
    add_prod(&world);
    let real_bob = mfa_token(&world, &bob());
    let real_alice = mfa_token(&world, &alice());

    // bob's real token with the role written into its claims: the issuer's signature no
    // longer matches.
    let [header, _, signature]: [&str; 3] =
        real_bob.split('.').collect::<Vec<_>>().try_into().unwrap();
    let mut claims = stone_test::services::decode_jwt_claims(&real_bob);
    claims["roles"] = serde_json::json!(["protected-write"]);
    let tampered = format!(
        "{header}.{}.{signature}",
        base64url(&serde_json::to_vec(&claims).unwrap())
    );
    // A token nobody signed (`alg: none`) with alice's claims.
    let unsigned = format!(
        "{}.{}.",
        base64url(br#"{"alg":"none","typ":"at+jwt"}"#),
        base64url(
            &serde_json::to_vec(&stone_test::services::decode_jwt_claims(&real_alice)).unwrap()
        )
    );
    let mut outputs = Vec::new();
    for (token, why) in [
        (&tampered, "signature does not verify"),
        (&unsigned, "not a well-formed JWT"),
    ] {
        let (error, output) = refused_blob_push_to_prod(&world, token, "auth.invalid_token", why);
        let message = error["message"].as_str().unwrap();
        assert!(
            message.starts_with("STONE_TOKEN is not a valid token of the environment `prod`"),
            "{message}"
        );
        assert!(
            error["hint"]
                .as_str()
                .unwrap()
                .contains("set STONE_TOKEN to a current access token"),
            "{output}"
        );
        outputs.push(output);
    }

    // The provider's own token, with the role and the second factor: the push lands.
    let (run, store) = ci_blob_push_to_prod(&world, &real_alice);
    assert_eq!(run.code, Some(0), "{}", run.output());
    assert!(store.join("datapackage.json").is_file());
    outputs.push(run.output());
    let outputs: Vec<&str> = outputs.iter().map(String::as_str).collect();
    assert_no_token(&outputs, &[&real_alice, &real_bob, &tampered, &unsigned]);
}

/// The same guard refuses a real token of the issuer once it has expired (beyond the
/// verifier's 30 s leeway), though it still has the role and a recent enough `auth_time`.
#[test]
fn a_blob_store_push_to_prod_refuses_an_expired_token() {
    let world = world_with(OidcConfig {
        access_token_ttl: 1,
        ..OidcConfig::default()
    });
    add_prod(&world);
    let token = mfa_token(&world, &alice());
    let claims = stone_test::services::decode_jwt_claims(&token);
    // Past `exp` and the leeway (`stone_auth::verify::LEEWAY`), well within max_age.
    let expired_at = claims["exp"].as_u64().unwrap() + stone_auth::verify::LEEWAY + 2;
    while stone_auth::now() < expired_at {
        std::thread::sleep(Duration::from_millis(500));
    }
    refused_blob_push_to_prod(
        &world,
        &token,
        "auth.invalid_token",
        "the token has expired",
    );
}

/// A token the guard cannot check (the issuer does not answer for its keys) is not
/// believed either: `auth.unavailable`, exit 3, nothing written.
#[test]
fn a_blob_store_push_to_prod_is_refused_while_the_issuer_keys_cannot_be_fetched() {
    let mut world = world();
    add_prod(&world);
    let token = mfa_token(&world, &alice());
    world.provider.stop();
    let (error, output) = refused_blob_push_to_prod(
        &world,
        &token,
        "auth.unavailable",
        "cannot fetch the issuer's keys",
    );
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains(world.provider.issuer()),
        "{output}"
    );
}

/// The prod guard of pushes outside the platform (spec 4.3): a blob-store push with
/// `--env prod` needs `--yes`, a step-up (the environment's `acr_values`/`max_age`) and the
/// `protected-write` role, all checked by the CLI before anything is written.
#[test]
fn a_blob_store_push_to_prod_needs_yes_a_step_up_and_the_role() {
    let world = world();
    let ctx = &world.ctx;
    add_prod(&world);
    let dir = package(ctx, "notes", true);
    let store = ctx.root().join("store");
    let to = format!("file://{}", store.display());
    let blob_push = |yes: bool| {
        let mut cmd = ctx.stone();
        cmd.args(["package", "push", "--branch", "b", "--json", "--to", &to]);
        if yes {
            cmd.arg("--yes");
        }
        cmd.arg(&dir);
        cmd
    };

    // In CI, a password-level token of a user with the role: the step-up is missing.
    let password_token = world
        .provider
        .login(&alice(), &AuthorizationRequest::new(40_125))["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ci = blob_push(true);
    ci.env("CI", "true").env("STONE_TOKEN", &password_token);
    let refused = simple(&mut ci);
    assert_eq!(refused.code, Some(3), "{}", refused.output());
    assert!(
        refused
            .stderr
            .contains(&format!("{ACR_PASSWORD}, not one of {ACR_MFA}")),
        "{}",
        refused.stderr
    );
    assert!(!store.exists(), "written before the guard");
    assert!(
        refused.stderr.contains("run the command outside CI"),
        "in CI, the hint says to authenticate outside it:\n{}",
        refused.stderr
    );

    // The same token outside CI: no login runs (STONE_TOKEN is used as it is), and the hint
    // says so rather than "outside CI" (issue 55, item 3).
    let mut outside = blob_push(true);
    outside.env_remove("CI").env("STONE_TOKEN", &password_token);
    let refused_outside = simple(&mut outside);
    assert_eq!(
        refused_outside.code,
        Some(3),
        "{}",
        refused_outside.output()
    );
    assert!(
        refused_outside
            .stderr
            .contains("STONE_TOKEN is used as it is: unset it")
            && !refused_outside.stderr.contains("outside CI"),
        "{}",
        refused_outside.stderr
    );

    // In CI with no token at all: what is missing is a token (issue 55, item 7: it said the
    // token had no authentication level).
    let mut no_token = blob_push(true);
    no_token.env("CI", "true").env_remove("STONE_TOKEN");
    let missing = simple(&mut no_token);
    assert_eq!(missing.code, Some(3), "{}", missing.output());
    assert_eq!(
        missing.json()["error"]["code"],
        "auth.login_required",
        "{}",
        missing.output()
    );
    assert!(
        missing.stderr.contains("set STONE_TOKEN") && !missing.stderr.contains("acr"),
        "{}",
        missing.stderr
    );
    assert!(!store.exists(), "written before the guard");

    // A person with a fresh MFA login but without the role.
    let run_bob = run(
        &world,
        &mut blob_push(true),
        &mut Browser::new(),
        &bob().credentials().with_acr(ACR_MFA),
    );
    assert_eq!(run_bob.code, Some(4), "{}", run_bob.output());
    assert_eq!(run_bob.authorization_urls.len(), 1, "{}", run_bob.stderr);
    let url = &run_bob.authorization_urls[0];
    assert_eq!(query_param(url, "acr_values").as_deref(), Some(ACR_MFA));
    assert_eq!(query_param(url, "max_age").as_deref(), Some("600"));
    assert!(
        run_bob.stderr.contains("lacks the `protected-write` role"),
        "{}",
        run_bob.stderr
    );
    assert!(!store.exists(), "written before the guard");
    let logout = simple(ctx.stone().args(["logout", "--env", "prod"]));
    assert_eq!(logout.code, Some(0), "{}", logout.output());

    // Without --yes nothing is asked at all.
    let unconfirmed = simple(&mut blob_push(false));
    assert_eq!(unconfirmed.code, Some(4), "{}", unconfirmed.output());
    assert_eq!(
        unconfirmed.json()["error"]["code"],
        "push.prod_confirmation_required"
    );

    // Alice, stepped up, with the role: the push lands.
    let run_alice = run(
        &world,
        &mut blob_push(true),
        &mut Browser::new(),
        &alice().credentials().with_acr(ACR_MFA),
    );
    assert_eq!(run_alice.code, Some(0), "{}", run_alice.output());
    assert_eq!(
        run_alice.authorization_urls.len(),
        1,
        "{}",
        run_alice.stderr
    );
    assert!(store.join("datapackage.json").is_file());
    let token = stored(ctx)["access_token"].as_str().unwrap().to_owned();
    assert_no_token(
        &[&refused.output(), &run_bob.output(), &run_alice.output()],
        &[&password_token, &token],
    );
}
