//! The prod guard of `stone package push`, on the client: a manual push to a ref the server
//! protects needs `--yes`; a push outside the platform (a blob store or an HTTP server, which
//! guard nothing themselves) with `--env prod` needs `--yes` and a fresh step-up carrying the
//! `protected-write` role, checked before any upload.

use anyhow::Context as _;
use stone_api::ServerInfo;
use stone_package::branch::protecting_pattern;

use stone_push::environment::{DEFAULT_ENV, ResolvedEnvironment};

use crate::codes;
use crate::diagnostics::CliError;
use crate::identity;
use crate::settings::http_retries;

/// A manual push (not in CI) to a ref the server protects needs `--yes`.
pub(super) fn confirm_protected_ref(
    info: &ServerInfo,
    branch: &str,
    environment: &ResolvedEnvironment,
    yes: bool,
) -> anyhow::Result<()> {
    if !identity::in_ci()
        && !yes
        && let Some(pattern) = protecting_pattern(&info.protected_refs, branch)
    {
        return Err(CliError::new(
            codes::PUSH_CONFIRMATION_REQUIRED,
            format!(
                "{branch} is a protected ref of `{}` (pattern `{pattern}`): a manual push to it needs --yes",
                environment.environment.name
            ),
        )
        .hint("check that this is the branch you mean, then run the same command with --yes")
        .into());
    }
    Ok(())
}

/// What a push to a protected ref will need, for `--dry-run` (issue 55, item 4: the plan
/// said nothing of `--yes` nor of the role): from the server's `/info`, which names the
/// protected patterns and the roles its guards ask for.
#[derive(Debug, serde::Serialize)]
pub(super) struct ProtectedRefNeeds {
    pub branch: String,
    /// The server's pattern that protects the branch.
    pub pattern: String,
    /// Whether `--yes` is asked for (a manual push; CI pushes are not asked).
    pub yes_needed: bool,
    /// Whether `--yes` was given.
    pub yes_given: bool,
    /// The role a push to the ref needs.
    pub role: String,
    /// The role `--force` needs there, when `--force` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force_role: Option<String>,
    /// `local` mode: whether the server's local user has the roles asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_user_has_roles: Option<bool>,
    /// `oidc` mode: the fresh authentication asked for (RFC 9470).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_up: Option<stone_api::StepUp>,
}

impl ProtectedRefNeeds {
    /// `None` when the branch is not protected by the server of `info`.
    pub(super) fn of(info: &ServerInfo, branch: &str, yes: bool, force: bool) -> Option<Self> {
        let pattern = protecting_pattern(&info.protected_refs, branch)?;
        // An older server does not name its roles: the defaults.
        let (role, force_role) = match &info.protected_roles {
            Some(roles) => (roles.write.clone(), roles.force.clone()),
            None => ("protected-write".to_owned(), "protected-force".to_owned()),
        };
        let force_role = force.then_some(force_role);
        let local_user_has_roles = info.identity.as_ref().map(|identity| {
            std::iter::once(&role)
                .chain(&force_role)
                .all(|r| identity.roles.contains(r))
        });
        Some(ProtectedRefNeeds {
            branch: branch.to_owned(),
            pattern: pattern.to_owned(),
            yes_needed: !identity::in_ci(),
            yes_given: yes,
            role,
            force_role,
            local_user_has_roles,
            step_up: info.oidc.as_ref().map(|oidc| oidc.step_up.clone()),
        })
    }

    /// One line of the plan.
    pub(super) fn describe(&self, env: &str) -> String {
        let mut needs = Vec::new();
        if self.yes_needed {
            needs.push(if self.yes_given {
                "--yes (given)".to_owned()
            } else {
                "--yes (not given: the push would be refused)".to_owned()
            });
        }
        let mut roles = format!("the `{}` role", self.role);
        if let Some(force) = &self.force_role {
            roles = format!("the `{}` and, for --force, `{force}` roles", self.role);
        }
        match self.local_user_has_roles {
            Some(true) => roles.push_str(" (the server's local user has it)"),
            Some(false) => roles.push_str(" (the server's local user lacks it)"),
            None => {}
        }
        needs.push(roles);
        if let Some(step_up) = &self.step_up {
            let acr = if step_up.acr_values.is_empty() {
                String::new()
            } else {
                format!("acr_values {}, ", step_up.acr_values.join(" "))
            };
            needs.push(format!(
                "a fresh login (step-up: {acr}max_age {} s; stone asks for it)",
                step_up.max_age
            ));
        }
        let last = needs.pop().unwrap_or_default();
        let needs = if needs.is_empty() {
            last
        } else {
            format!("{} and {last}", needs.join(", "))
        };
        format!(
            "{} is a protected ref of `{env}` (pattern `{}`): the push needs {needs}",
            self.branch, self.pattern
        )
    }
}

/// The step-up a push to `branch` will be asked for: the server's (`oidc` mode), when it
/// protects the branch and the push is a person's (CI tokens are used as they are).
pub(super) fn step_up_for(info: &ServerInfo, branch: &str) -> Option<stone_auth::StepUpRequest> {
    let oidc = info.oidc.as_ref()?;
    if identity::in_ci() || protecting_pattern(&info.protected_refs, branch).is_none() {
        return None;
    }
    Some(stone_auth::StepUpRequest {
        acr_values: oidc.step_up.acr_values.clone(),
        max_age: Some(oidc.step_up.max_age),
    })
}

/// The prod guard of pushes outside the platform: a blob store or HTTP server checks no
/// ref, no role and no confirmation, so stone does, before any upload.
pub(super) fn prod_guard(
    environment: &ResolvedEnvironment,
    yes: bool,
    device: bool,
    destination: &str,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<()> {
    if environment.environment.name != DEFAULT_ENV {
        return Ok(());
    }
    if !yes {
        return Err(CliError::new(
            codes::PUSH_PROD_CONFIRMATION_REQUIRED,
            format!(
                "refusing to push to {destination} with --env {DEFAULT_ENV} without --yes: a blob store or HTTP server has no guard of its own, so stone guards prod itself (nothing was uploaded)"
            ),
        )
        .hint(format!(
            "confirm with --yes (prod also needs an authentication step-up with the `{PROD_WRITE_ROLE}` role), or pass --env <other> for a push that is not prod (the default environment is `{DEFAULT_ENV}`)"
        ))
        .into());
    }
    ensure_prod_identity(environment, device, destination, runtime)
}

/// The role a token needs for a push outside the platform with `--env prod`.
const PROD_WRITE_ROLE: &str = "protected-write";
/// How fresh the authentication of such a push must be when the environment's config names
/// no step-up `max_age` (`stone env add prod … --max-age`).
const PROD_DEFAULT_MAX_AGE: u64 = 600;

/// The second half of the prod guard: a token from prod's identity provider with a fresh
/// step-up (the environment's `acr_values`/`max_age`) that carries the `protected-write`
/// role. `STONE_TOKEN` is taken as it is (CI: it must already have both); otherwise the
/// stored login is used when it is enough, else a new login with the step-up runs.
///
/// No server checks such a push, so the token is verified here before its roles and `acr`
/// count: its signature against the keys the environment's issuer publishes, `iss`, `aud`
/// (the audience the environment's server names in its `/info`, the one request this guard
/// makes to the platform), `exp`/`nbf`, and that it is an access token
/// ([`stone_auth::verify`], the server's own check).
fn ensure_prod_identity(
    environment: &ResolvedEnvironment,
    device: bool,
    destination: &str,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<()> {
    let ResolvedEnvironment {
        environment: env,
        unconfigured,
    } = environment;
    let Some(issuer) = env.options.issuer.as_deref().filter(|_| !*unconfigured) else {
        return Err(CliError::new(
            codes::AUTH_NO_ISSUER,
            format!(
                "a push to {destination} with --env {} needs an authentication step-up, but the environment `{}` names no identity provider (nothing was uploaded)",
                env.name, env.name
            ),
        )
        .hint(format!(
            "configure it: `stone env add {} --host HOST --api URL --issuer URL [--client-id ID] [--acr-values …] [--max-age SECONDS]` (add --replace if it exists), or push with --env <other>",
            env.name
        ))
        .into());
    };
    let info = runtime
        .block_on(identity::fetch_info_retrying(
            &env.options.api,
            http_retries()?,
            |line| eprintln!("{}", crate::diagnostics::terminal_safe(&line)),
        ))
        .with_context(|| {
            format!(
                "the prod guard asks the server of `{}` ({}) which audience its tokens carry (nothing was uploaded)",
                env.name, env.options.api
            )
        })?;
    if let Some(oidc) = &info.oidc
        && oidc.issuer.trim_end_matches('/') != issuer.trim_end_matches('/')
    {
        return Err(CliError::new(
            codes::AUTH_ISSUER_MISMATCH,
            format!(
                "the environment `{}` names the issuer {issuer}, but its server {} trusts {} (nothing was uploaded)",
                env.name, env.options.api, oidc.issuer
            ),
        )
        .hint(format!(
            "fix the environment: `stone env add {} --host … --api … --issuer {} --replace`",
            env.name, oidc.issuer
        ))
        .into());
    }
    let identity = identity::identity_of(env, Some(&info))?;
    if identity.audience.is_none() {
        // Before any login: a token could not be checked anyway.
        return Err(stone_auth::AuthError::NoAudience {
            env: env.name.clone(),
        }
        .into());
    }
    let mut step_up = identity::step_up_of(env);
    step_up.max_age.get_or_insert(PROD_DEFAULT_MAX_AGE);
    let (token, origin) = match identity::static_token() {
        Some(token) => (token, stone_auth::STONE_TOKEN),
        None => (
            runtime
                .block_on(identity.token_with_step_up(&step_up, &identity::interaction(device)))?
                .token,
            "the stored login",
        ),
    };
    let claims = runtime.block_on(identity.verified_claims(&token, origin))?;
    if let Some(lack) = step_up.lack(&claims, stone_auth::oidc::now(), 0) {
        return Err(stone_auth::AuthError::StepUpRequired {
            env: env.name.clone(),
            lack,
            in_ci: identity::in_ci(),
        }
        .into());
    }
    if !claims.roles.iter().any(|r| r == PROD_WRITE_ROLE) {
        return Err(CliError::new(
            codes::PUSH_PROTECTED_REF,
            format!(
                "{} may not push to {destination} with --env {}: the token lacks the `{PROD_WRITE_ROLE}` role (nothing was uploaded)",
                claims.subject.as_deref().unwrap_or("this login"),
                env.name
            ),
        )
        .hint("ask the platform's administrators for the role, then log in again with `stone login --env prod`")
        .into());
    }
    Ok(())
}
