//! `stone env`: environments in the config file; `--env` defaults to prod.

use stone_test::stone_snapshot;

use crate::{context, stdout};

#[test]
fn add_list_show_remove() {
    let ctx = context();
    ctx.add_env("prod", "data.example.org", "https://api.example.org/v1");
    let out = ctx
        .stone()
        .args([
            "env",
            "add",
            "dev",
            "--host",
            "localhost:8443",
            "--api",
            "http://127.0.0.1:8080",
        ])
        .args([
            "--issuer",
            "http://127.0.0.1:9000",
            "--client-id",
            "stone-cli",
            "--acr-values",
            "mfa",
            "--max-age",
            "300",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    stone_snapshot!(ctx.filters(), ctx.stone().args(["env", "list"]), "env_list");
    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args(["env", "show", "dev"]),
        "env_show_dev"
    );
    let out = ctx
        .stone()
        .args(["env", "show", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["name"], "prod", "show defaults to prod");
    assert_eq!(v["host"], "data.example.org");

    let out = ctx
        .stone()
        .args(["env", "show", "dev", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v["step_up"],
        serde_json::json!({"acr_values": "mfa", "max_age": 300})
    );

    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args([
            "env",
            "add",
            "dev",
            "--host",
            "x.org",
            "--api",
            "https://x.org"
        ]),
        "env_add_exists"
    );
    let out = ctx.stone().args(["env", "remove", "dev"]).output().unwrap();
    assert!(out.status.success());
    let out = ctx
        .stone()
        .args(["env", "list", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v.as_object().unwrap().keys().collect::<Vec<_>>(), ["prod"]);
}

#[test]
fn invalid_settings_are_refused() {
    let ctx = context();
    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args([
            "env",
            "add",
            "prod",
            "--host",
            "https://x.org",
            "--api",
            "https://x.org"
        ]),
        "env_add_bad_host"
    );
    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args([
            "env",
            "add",
            "prod",
            "--host",
            "x.org",
            "--api",
            "http://api.x.org"
        ]),
        "env_add_plain_http"
    );
    assert!(!ctx.config.exists(), "nothing written on error");
}

#[test]
fn push_defaults_to_prod_and_explains_an_unconfigured_environment() {
    let ctx = context();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[("a.csv", b"x\n")],
    );
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
        "push_unconfigured_prod"
    );
    assert_eq!(out.status.code(), Some(2));
    ctx.add_env("dev", "dev.example.org", "https://api.dev.example.org");
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args([
                "package",
                "push",
                "--dry-run",
                "--branch",
                "b",
                "--env",
                "staging"
            ])
            .arg(&dir),
        "push_unknown_env"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_broken_config_file_is_reported_with_its_place() {
    let ctx = context();
    std::fs::create_dir_all(ctx.config.parent().unwrap()).unwrap();
    std::fs::write(
        &ctx.config,
        "[environments.prod]\nhost = \"x.org\"\napi = \"https://x.org\"\nport = 1\n",
    )
    .unwrap();
    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args(["env", "list"]),
        "config_unknown_key"
    );
}

/// A misspelt environment is answered with the close one (issue 55, item 8); removing one
/// that is not configured never suggests adding it.
#[test]
fn a_misspelt_or_missing_environment_gets_the_hint_of_its_situation() {
    let ctx = context();
    ctx.add_env("local", "data.localhost", "http://127.0.0.1:8080/v1");
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[("a.csv", b"x\n")],
    );
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--dry-run",
            "--branch",
            "b",
            "--env",
            "lcoal",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let errors = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{errors}");
    assert!(
        errors.contains("did you mean `local`? (`--env local`)") && !errors.contains("env add"),
        "{errors}"
    );
    let out = ctx
        .stone()
        .args(["env", "remove", "locl"])
        .output()
        .unwrap();
    let errors = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{errors}");
    assert!(
        errors.contains("did you mean `local`? (`stone env remove local`)"),
        "{errors}"
    );
    let out = ctx
        .stone()
        .args(["env", "remove", "nope"])
        .output()
        .unwrap();
    let errors = crate::stderr(&out);
    assert!(
        errors.contains("`stone env list` shows the configured ones") && !errors.contains("add it"),
        "{errors}"
    );
}

/// `stone login` with the server down says it could not read the server's information
/// (issue 55, item 6: it said "creating the push"), what it tried, and that nothing
/// reached the server.
#[test]
fn login_with_the_server_down_says_what_it_could_not_read() {
    let mut ctx = context();
    // Nothing listens on port 9 of loopback.
    ctx.add_env("local", "data.localhost", "http://127.0.0.1:9/v1");
    ctx.set_var("STONE_HTTP_RETRIES", "1");
    let out = ctx
        .stone()
        .args(["login", "--env", "local"])
        .output()
        .unwrap();
    let errors = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{errors}");
    assert!(
        errors.contains("reading the server's information: the push API at http://127.0.0.1:9/v1/info is unavailable")
            && errors.contains("hint: nothing reached the server yet")
            && !errors.contains("creating the push"),
        "{errors}"
    );
}
