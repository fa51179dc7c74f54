//! `stone credentials` (hidden): what the Python API (`stone_client`) asks the bundled
//! `stone` for: the environment's API, IRI host and token, as JSON on a pipe, never on a
//! terminal. The Python side is tested from a fresh venv in `wheel::python_client`.

use std::process::Command;

use serde_json::Value;
use stone_test::services::StoneServer;

use crate::identity::{self, alice};

fn credentials(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "stone credentials failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "nothing on stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A server without auth: no token, and the environment's endpoints.
#[test]
fn credentials_of_a_server_without_auth_name_no_token() {
    let data = tempfile::tempdir().unwrap();
    let server = StoneServer::start(data.path(), None, &[]);
    let ctx = crate::context();
    ctx.add_env("local", "data.test", &server.api());
    let shown = credentials(ctx.stone().args(["credentials", "--env", "local"]));
    assert_eq!(shown["env"], "local");
    assert_eq!(shown["api"], server.api());
    assert_eq!(shown["host"], "data.test");
    assert_eq!(shown["token"], Value::Null);
    assert_eq!(shown["source"], "none");

    // An environment that is not configured: the config's error, as JSON.
    let out = ctx
        .stone()
        .args(["credentials", "--env", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["code"], "env.unknown", "{error}");
}

/// An OIDC server: no token before a login (never a login prompt), the stored login
/// (refreshed) after it, and `STONE_TOKEN` as-is before either.
#[test]
fn credentials_hand_over_the_stored_login_or_stone_token() {
    let world = identity::world();
    let before = credentials(world.ctx.stone().args(["credentials", "--env", "dev"]));
    assert_eq!(before["token"], Value::Null, "{before}");
    assert_eq!(before["source"], "none");

    identity::login(&world, &alice());
    let shown = credentials(world.ctx.stone().args(["credentials", "--env", "dev"]));
    assert_eq!(shown["source"], "login");
    let token = shown["token"].as_str().unwrap();
    assert_eq!(
        token,
        identity::stored(&world.ctx)["access_token"]
            .as_str()
            .unwrap(),
        "the stored login's access token"
    );
    let claims = stone_test::services::decode_jwt_claims(token);
    assert_eq!(claims["sub"], "alice");
    assert_eq!(shown["expires_at"], claims["exp"]);

    let shown = credentials(
        world
            .ctx
            .stone()
            .args(["credentials", "--env", "dev"])
            .env("STONE_TOKEN", "a-token-given-as-is"),
    );
    assert_eq!(shown["source"], "stone_token");
    assert_eq!(shown["token"], "a-token-given-as-is");
}

/// On a terminal it prints nothing of the token: refused, exit 2.
#[test]
fn credentials_refuse_a_terminal() {
    let ctx = crate::context();
    ctx.add_env("local", "data.test", "http://127.0.0.1:9/v1");
    let stone = env!("CARGO_BIN_EXE_stone");
    // `script` gives the command a pseudo-terminal as stdout (util-linux).
    let out = ctx
        .command("script")
        .args(["-qec"])
        .arg(format!("{stone} credentials --env local"))
        .arg("/dev/null")
        .env("STONE_TOKEN", "a-secret-token")
        .output()
        .expect("`script` (util-linux) runs: install util-linux");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("usage.secret_on_terminal")
            || shown.contains("does not write to a terminal"),
        "{shown}"
    );
    assert!(!shown.contains("a-secret-token"), "{shown}");
}
