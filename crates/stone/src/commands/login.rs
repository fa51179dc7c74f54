//! `stone login`, `stone logout`, `stone whoami`.

use std::fmt::Write as _;

use anyhow::Context as _;
use serde::Serialize;
use stone_auth::{Identity, TokenClaims, now};
use stone_push::environment::Environment;

use crate::cli::{GlobalArgs, LoginArgs, LogoutArgs, WhoamiArgs};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::env_vars;
use crate::identity::{fetch_info, identity_of, in_ci, interaction, static_token};
use crate::printer::Printer;

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// The environment and its identity. The server is asked (`GET /v1/info`) only when the
/// config does not name the issuer, or for the audience of a login.
fn resolve(
    global: &GlobalArgs,
    env: &str,
    ask_server: bool,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<(Environment, Identity)> {
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.environment(env)?;
    let info = if ask_server || environment.options.issuer.is_none() {
        match runtime.block_on(fetch_info(&environment.options.api)) {
            Ok(info) => Some(info),
            Err(error) if environment.options.issuer.is_some() => {
                eprintln!("warning: cannot ask the server for its identity settings: {error}");
                None
            }
            Err(error) => {
                return Err(anyhow::Error::new(error).context(format!(
                    "cannot learn the identity provider of `{env}` from its server"
                )));
            }
        }
    } else {
        None
    };
    let identity = identity_of(&environment, info.as_ref())?;
    Ok((environment, identity))
}

pub fn login(args: &LoginArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    if in_ci() {
        return Err(CliError::new(
            codes::AUTH_INTERACTIVE_IN_CI,
            "stone login does not run in CI (CI is set): it would need a browser or a person",
        )
        .hint(format!(
            "give the job an access token in {}",
            env_vars::STONE_TOKEN
        ))
        .into());
    }
    let runtime = runtime()?;
    let (environment, identity) = resolve(global, &args.env, true, &runtime)?;
    let stored = runtime
        .block_on(identity.login(None, &interaction(args.device)))
        .with_context(|| {
            format!(
                "cannot log in to `{}` at {}",
                environment.name, identity.issuer
            )
        })?;
    let claims = TokenClaims::of(&stored.access_token, &identity.roles_claim);
    Printer::new(global, false).note(format_args!(
        "Logged in to `{}` as {}{}. The login is stored in {}.",
        environment.name,
        claims.subject.as_deref().unwrap_or("(unknown subject)"),
        if claims.roles.is_empty() {
            String::new()
        } else {
            format!(" (roles: {})", claims.roles.join(", "))
        },
        identity.store.location(&identity.env, &identity.issuer)
    ));
    Ok(())
}

pub fn logout(args: &LogoutArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.environment(&args.env)?;
    let store = crate::identity::token_store()?;
    let removed = store
        .remove(&environment.name)
        .with_context(|| format!("cannot remove the login of `{}`", environment.name))?;
    let printer = Printer::new(global, false);
    if removed.is_empty() {
        printer.note(format_args!(
            "Not logged in to `{}`: nothing to remove.",
            environment.name
        ));
    } else {
        printer.note(format_args!("Logged out of `{}`.", environment.name));
    }
    Ok(())
}

/// What `stone whoami` shows: never the token.
#[derive(Debug, Serialize)]
struct Whoami {
    env: String,
    issuer: String,
    /// `stone_token` (STONE_TOKEN) or `login` (the stored login).
    source: &'static str,
    #[serde(flatten)]
    claims: TokenClaims,
    /// Whether the access token is expired now.
    expired: bool,
}

pub fn whoami(args: &WhoamiArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let runtime = runtime()?;
    let (environment, identity) = resolve(global, &args.env, false, &runtime)?;
    let (source, token) = match static_token() {
        Some(token) => ("stone_token", token),
        None => {
            // The stored login, refreshed silently when it has expired; no login here.
            let mut ui = interaction(false);
            ui.interactive = false;
            let token = runtime.block_on(identity.access_token(&ui))?;
            ("login", token)
        }
    };
    let claims = TokenClaims::of(&token, &identity.roles_claim);
    let shown = Whoami {
        env: environment.name.clone(),
        issuer: identity.issuer.clone(),
        source,
        expired: claims.expires_at.is_some_and(|at| at <= now()),
        claims,
    };
    Printer::new(global, args.json).result(&shown, || render(&shown))
}

fn render(who: &Whoami) -> String {
    let mut out = String::new();
    let now = now();
    let _ = writeln!(out, "Environment: {}", who.env);
    let _ = writeln!(out, "Issuer:      {}", who.issuer);
    let _ = writeln!(
        out,
        "Subject:     {}",
        who.claims
            .subject
            .as_deref()
            .unwrap_or("(not in the token)")
    );
    let _ = writeln!(
        out,
        "Roles:       {}",
        if who.claims.roles.is_empty() {
            "(none)".to_owned()
        } else {
            who.claims.roles.join(", ")
        }
    );
    if let Some(acr) = &who.claims.acr {
        let _ = writeln!(out, "Level (acr): {acr}");
    }
    if let Some(at) = who.claims.auth_time {
        let _ = writeln!(out, "Logged in:   {} s ago", now.saturating_sub(at));
    }
    if let Some(at) = who.claims.expires_at {
        if at > now {
            let _ = writeln!(out, "Expires:     in {} s", at - now);
        } else {
            let _ = writeln!(out, "Expires:     expired {} s ago", now - at);
        }
    }
    let _ = writeln!(
        out,
        "Token from:  {}",
        match who.source {
            "stone_token" => "STONE_TOKEN",
            _ => "the stored login",
        }
    );
    out
}
