//! Step-up against the real OpenID provider (moved out of identity.rs, whose helpers it
//! uses): a challenge runs PKCE with the challenged values and the same push goes on, and a
//! first login for a protected ref asks for the step-up at once (issue 55, item 3).

use std::path::Path;

use stone_test::services::{ACR_MFA, ACR_PASSWORD, AuthorizationRequest, Browser};

use crate::identity::{
    alice, assert_no_token, login, package, push, query_param, run, simple, stored, world,
};

#[test]
fn a_step_up_challenge_runs_pkce_with_the_challenged_values_and_keeps_the_push_id() {
    let world = world();
    let dir = package(&world.ctx, "notes", true);
    login(&world, &alice());
    assert_eq!(stored(&world.ctx)["env"], "dev");

    // In CI a password-level token cannot step up: exit 3, saying what it lacks.
    let token = world
        .provider
        .login(&alice(), &AuthorizationRequest::new(40_124))["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ci = push(&world, &dir, &["--branch", "main"]);
    ci.env("CI", "true").env("STONE_TOKEN", &token);
    let refused = simple(&mut ci);
    assert_eq!(refused.code, Some(3), "{}", refused.output());
    assert!(
        refused
            .stderr
            .contains(&format!("{ACR_PASSWORD}, not one of {ACR_MFA}")),
        "{}",
        refused.stderr
    );
    assert!(refused.authorization_urls.is_empty());

    // A person: the challenge opens a new login with acr_values and max_age, then the same
    // push goes on.
    let mut browser = Browser::new();
    let run = run(
        &world,
        &mut push(&world, &dir, &["--branch", "main", "--yes"]),
        &mut browser,
        &alice().credentials().with_acr(ACR_MFA),
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    assert_eq!(run.authorization_urls.len(), 1, "{}", run.stderr);
    let url = &run.authorization_urls[0];
    assert_eq!(query_param(url, "acr_values").as_deref(), Some(ACR_MFA));
    assert_eq!(query_param(url, "max_age").as_deref(), Some("600"));
    assert_eq!(
        query_param(url, "code_challenge_method").as_deref(),
        Some("S256")
    );
    let result = run.json();
    let push_id = result["push_id"].as_str().unwrap();
    assert!(
        run.stderr
            .contains(&format!("push {push_id} needs a fresh authentication")),
        "the challenged push is the one that succeeded:\n{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!("resuming push {push_id}")),
        "{}",
        run.stderr
    );
    let after = stored(&world.ctx);
    let claims = stone_test::services::decode_jwt_claims(after["access_token"].as_str().unwrap());
    assert_eq!(claims["acr"], ACR_MFA);
    assert_no_token(
        &[&run.output(), &refused.output()],
        &[&token, after["access_token"].as_str().unwrap()],
    );
}

/// A person not logged in pushes to a protected ref: the first login asks for the step-up
/// the server will want (acr_values, max_age), so there is one login, not a plain one the
/// server then challenges (issue 55, item 3).
#[test]
fn a_first_login_for_a_protected_ref_asks_for_the_step_up_at_once() {
    let world = world();
    let dir = package(&world.ctx, "notes", true);
    let mut browser = Browser::new();
    let run = run(
        &world,
        &mut push(&world, &dir, &["--branch", "main", "--yes"]),
        &mut browser,
        &alice().credentials().with_acr(ACR_MFA),
    );
    assert_eq!(run.code, Some(0), "{}", run.output());
    assert_eq!(
        run.authorization_urls.len(),
        1,
        "one login:\n{}",
        run.stderr
    );
    let url = &run.authorization_urls[0];
    assert_eq!(query_param(url, "acr_values").as_deref(), Some(ACR_MFA));
    assert_eq!(query_param(url, "max_age").as_deref(), Some("600"));
    // The login says why it asks for the stronger level; the server never challenged.
    assert!(
        run.stderr
            .contains("This needs a fresh authentication at level"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr
            .lines()
            .any(|l| l.starts_with("push ") && l.contains("needs a fresh authentication")),
        "the server did not have to challenge:\n{}",
        run.stderr
    );
    let claims = stone_test::services::decode_jwt_claims(
        stored(&world.ctx)["access_token"].as_str().unwrap(),
    );
    assert_eq!(claims["acr"], ACR_MFA);

    // An unprotected branch with no login: a plain login, no step-up asked.
    simple(world.ctx.stone().args(["logout", "--env", "dev"]));
    let run = run_plain(&world, &dir);
    assert_eq!(run.authorization_urls.len(), 1, "{}", run.stderr);
    assert_eq!(query_param(&run.authorization_urls[0], "acr_values"), None);
}

fn run_plain(world: &crate::identity::World, dir: &Path) -> crate::identity::Run {
    run(
        world,
        &mut push(world, dir, &["--branch", "feature"]),
        &mut Browser::new(),
        &alice().credentials(),
    )
}
