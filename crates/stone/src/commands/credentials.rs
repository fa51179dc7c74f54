//! `stone credentials` (hidden): what a program reading an environment's datasets needs, as
//! JSON on stdout: the API URL, the IRI host and an access token. The Python API
//! (`python/stone-cli/python/stone_client`) runs it through a pipe, so that it uses the
//! stored login the way `stone` does (refreshed silently, never a login prompt) without
//! reading the token store itself.
//!
//! The token is the only secret stone ever prints, and only here: refused when stdout is a
//! terminal, never in an error, never on stderr.

use std::io::IsTerminal as _;

use anyhow::Context as _;
use serde::Serialize;
use stone_auth::TokenClaims;

use crate::cli::{CredentialsArgs, GlobalArgs};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::identity;
use crate::printer::Printer;

/// What `stone credentials` prints.
#[derive(Serialize)]
struct Credentials {
    env: String,
    /// The push API base URL (`…/v1`): where the token may be sent, and nowhere else.
    api: String,
    /// The host of dataset IRIs (`https://{host}/{ns}/{name}`).
    host: String,
    /// The access token, or null when there is none (no login, or a server without auth).
    token: Option<String>,
    /// `stone_token` (STONE_TOKEN), `login` (the stored login) or `none`.
    source: &'static str,
    /// When the token expires (seconds since the epoch), when it says.
    expires_at: Option<u64>,
}

pub fn run(args: &CredentialsArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    if std::io::stdout().is_terminal() {
        return Err(CliError::new(
            codes::USAGE_SECRET_ON_TERMINAL,
            "stone credentials prints an access token: it does not write to a terminal",
        )
        .hint("it is for programs (the Python API runs it through a pipe); `stone whoami` shows who you are")
        .into());
    }
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.environment(&args.env)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (source, token) = match identity::static_token() {
        Some(token) => ("stone_token", Some(token)),
        None => {
            let retries = crate::settings::http_retries()?;
            let note = |line: String| tracing::info!("{line}");
            let info = runtime
                .block_on(identity::fetch_info_retrying(
                    &environment.options.api,
                    retries,
                    note,
                ))
                .with_context(|| {
                    format!(
                        "cannot ask the server of `{}` whether it wants tokens",
                        environment.name
                    )
                })?;
            if !identity::needs_token(&info) {
                ("none", None)
            } else {
                let identity = identity::identity_of(&environment, Some(&info))?;
                if identity.stored()?.is_none() {
                    ("none", None)
                } else {
                    // The stored login, refreshed silently when expired; never a login here.
                    let mut ui = identity::interaction(false);
                    ui.interactive = false;
                    ("login", Some(runtime.block_on(identity.access_token(&ui))?))
                }
            }
        }
    };
    let expires_at = token
        .as_ref()
        .and_then(|t| TokenClaims::of(t, "roles").expires_at);
    let shown = Credentials {
        env: environment.name.clone(),
        api: environment.options.api.clone(),
        host: environment.options.host.clone(),
        token: token.map(|t| t.expose().clone()),
        source,
        expires_at,
    };
    Printer::new(global, true).result(&shown, String::new)
}
