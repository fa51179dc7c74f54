//! Which identity a command uses: the environment's issuer and client, the stored login,
//! `STONE_TOKEN` in CI, and how a login talks to the user (stderr, the system's browser
//! opener unless `STONE_NO_BROWSER`, never in CI).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use stone_api::{AuthMode, ServerInfo};
use stone_auth::{
    AuthError, Identity, Interaction, Secret, StepUpRequest, TokenClaims, TokenStore,
};
use stone_push::environment::Environment;
use stone_push::handler::BoxFuture;
use stone_push::{Phase, PushError, TokenSource};

use crate::codes;
use crate::diagnostics::CliError;
use crate::env_vars;

/// The OAuth client id of the CLI when the environment names none.
pub const DEFAULT_CLIENT_ID: &str = "stone-cli";
/// The roles claim when the server does not say.
pub const DEFAULT_ROLES_CLAIM: &str = "roles";

pub use crate::settings::in_ci;

/// `STONE_TOKEN`, when set and not empty.
pub fn static_token() -> Option<Secret<String>> {
    crate::settings::static_token().map(Secret::new)
}

/// `STONE_TOKEN_DIR`, else `<user data dir>/stone/tokens`.
pub fn token_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = crate::settings::token_dir() {
        return Ok(dir);
    }
    let data = dirs::data_dir().ok_or_else(|| {
        CliError::new(
            codes::AUTH_STORE,
            "cannot find a data directory for the stored logins",
        )
        .hint(format!(
            "set {} to a directory only you can read",
            env_vars::STONE_TOKEN_DIR
        ))
    })?;
    Ok(data.join("stone").join("tokens"))
}

/// Where logins are kept: the OS keyring when there is one (unless `STONE_KEYRING=0`),
/// else 0600 files in [`token_dir`].
pub fn token_store() -> anyhow::Result<TokenStore> {
    Ok(if crate::settings::keyring_off() {
        TokenStore::new(token_dir()?)
    } else {
        TokenStore::with_os_keyring(token_dir()?)
    })
}

/// The server's `GET /v1/info`.
pub async fn fetch_info(api: &str) -> Result<ServerInfo, PushError> {
    fetch_info_retrying(api, 0, |_| {}).await
}

/// The token of the stored login (`stone login --env ENV`) of `environment` when its
/// server wants tokens, refreshed silently when it expired (never a login here); `None`
/// without a login, when the server wants none, or when it does not answer (the caller's
/// own request then reports it). `stone data import` and `stone events tail`.
pub async fn stored_login(
    environment: &Environment,
    retries: u32,
) -> anyhow::Result<Option<String>> {
    let note = |line: String| tracing::info!("{line}");
    let Ok(info) = fetch_info_retrying(&environment.options.api, retries, note).await else {
        return Ok(None);
    };
    if !needs_token(&info) {
        return Ok(None);
    }
    let identity = identity_of(environment, Some(&info))?;
    if identity.stored()?.is_none() {
        return Ok(None);
    }
    let token = identity.access_token(&interaction(false)).await?;
    Ok(Some(token.expose().clone()))
}

/// The server's `GET /v1/info`, retried up to `retries` times with backoff on connection
/// errors, 429 and 5xx (a server briefly away at the start must not make a push look
/// unauthorized later); `note` hears of each retry.
pub async fn fetch_info_retrying(
    api: &str,
    retries: u32,
    note: impl Fn(String),
) -> Result<ServerInfo, PushError> {
    let url = format!("{}/info", api.trim_end_matches('/'));
    let unavailable = |message: String| PushError::Unavailable {
        phase: Phase::Info,
        url: url.clone(),
        message,
    };
    let client = stone_http::client_builder(stone_http::API_READ_TIMEOUT)
        .timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| unavailable(e.to_string()))?;
    use stone_http::retry::{self, Resend, SendError};
    let build = || std::future::ready(Ok::<_, std::convert::Infallible>(client.get(&url)));
    let tries = retry::Tries::default();
    let response = match retry::send(retries, Resend::Idempotent, build, |r| {
        tries.note();
        note(format!(
            "server information: {} — retrying in {:.1?}",
            r.reason, r.wait
        ))
    })
    .await
    {
        Ok(response) if response.status().is_success() => response,
        Ok(response) if retry::retryable_status(response.status().as_u16()) => {
            return Err(PushError::ServerFailed {
                phase: Phase::Info,
                url: url.clone(),
                problem: Box::new(stone_push::service::read_problem(response).await),
                tries: tries.attempts(),
            });
        }
        Ok(response) => {
            return Err(PushError::Protocol {
                phase: Phase::Info,
                url: url.clone(),
                message: format!(
                    "answered HTTP {}: is this the push API of a stone server?",
                    response.status()
                ),
            });
        }
        Err(SendError::Transport(e)) => return Err(unavailable(tries.describe(&e))),
        Err(SendError::Build(never)) => match never {},
    };
    let bytes = match stone_http::read_capped(response, stone_http::MAX_ANSWER).await {
        Ok(bytes) => bytes,
        Err(stone_http::Capped::Failed(e)) => return Err(unavailable(stone_http::describe(&e))),
        Err(stone_http::Capped::TooLarge) => {
            return Err(PushError::Protocol {
                phase: Phase::Info,
                url: url.clone(),
                message: format!(
                    "the server information is larger than {}",
                    stone_http::size_in_words(stone_http::MAX_ANSWER)
                ),
            });
        }
    };
    serde_json::from_slice(&bytes).map_err(|e| PushError::Protocol {
        phase: Phase::Info,
        url: url.clone(),
        message: format!("not the server information: {e}"),
    })
}

/// The identity of an environment: its issuer (configured, else the server's), client
/// and the audience and roles claim the server names.
pub fn identity_of(env: &Environment, info: Option<&ServerInfo>) -> anyhow::Result<Identity> {
    let oidc = info.and_then(|i| i.oidc.as_ref());
    let issuer = env
        .options
        .issuer
        .clone()
        .or_else(|| oidc.map(|o| o.issuer.clone()))
        .ok_or_else(|| {
            CliError::new(
                codes::AUTH_NO_ISSUER,
                format!(
                    "the environment `{}` has no identity provider: neither its config nor its server names an issuer",
                    env.name
                ),
            )
            .hint(format!(
                "set one with `stone env add {} --host … --api … --issuer URL --replace`",
                env.name
            ))
        })?;
    Ok(Identity {
        env: env.name.clone(),
        issuer,
        client_id: env
            .options
            .client_id
            .clone()
            .unwrap_or_else(|| DEFAULT_CLIENT_ID.to_owned()),
        audience: oidc.map(|o| o.audience.clone()),
        roles_claim: oidc
            .map(|o| o.roles_claim.clone())
            .unwrap_or_else(|| DEFAULT_ROLES_CLAIM.to_owned()),
        store: token_store()?,
        retries: crate::settings::http_retries()?,
    })
}

/// The step-up an environment's config asks for (`stone env add --acr-values --max-age`):
/// what the blob-store prod guard passes to [`Identity::token_with_step_up`], where no
/// server can challenge.
pub fn step_up_of(env: &Environment) -> StepUpRequest {
    let options = env.options.step_up.as_ref();
    StepUpRequest {
        acr_values: options
            .and_then(|s| s.acr_values.as_deref())
            .map(|v| v.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
        max_age: options.and_then(|s| s.max_age),
    }
}

/// Whether the server wants tokens.
pub fn needs_token(info: &ServerInfo) -> bool {
    info.auth_mode == AuthMode::Oidc
}

fn notify(line: &str) {
    eprintln!("{}", crate::diagnostics::terminal_safe(line));
}

/// Opens `url` with the system's opener; false when that is not possible. The opener is
/// found on the absolute entries of PATH only and runs in a folder of stone's choosing,
/// without `STONE_*` variables (`stone_package::program`).
fn open_browser(url: &str) -> bool {
    let (opener, args): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let Ok(opener) = stone_package::program::Program::find(opener) else {
        return false;
    };
    opener
        .launch()
        .args(args)
        .arg(url)
        .command()
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok()
}

fn browser_allowed() -> bool {
    !in_ci() && !crate::settings::no_browser()
}

/// How a login may talk to the user here: never interactive in CI.
pub fn interaction(device: bool) -> Interaction<'static> {
    static OPEN: fn(&str) -> bool = open_browser;
    static NOTIFY: fn(&str) = notify;
    Interaction {
        interactive: !in_ci(),
        device,
        open_browser: if browser_allowed() && !device {
            Some(&OPEN)
        } else {
            None
        },
        notify: &NOTIFY,
    }
}

/// The tokens of `stone package push`: `STONE_TOKEN` as-is, else the stored login
/// (refreshed silently; a login when there is none and we may ask).
pub struct CliTokens {
    pub identity: Identity,
    pub fixed: Option<Secret<String>>,
    /// Logins and step-ups use the device flow (`--device`).
    pub device: bool,
}

impl CliTokens {
    pub fn new(identity: Identity, device: bool) -> Arc<CliTokens> {
        Arc::new(CliTokens {
            identity,
            fixed: static_token(),
            device,
        })
    }
}

impl TokenSource for CliTokens {
    fn token<'a>(
        &'a self,
        _env: &'a str,
    ) -> BoxFuture<'a, Result<Option<Secret<String>>, PushError>> {
        Box::pin(async move {
            if let Some(fixed) = &self.fixed {
                tracing::debug!("token: ${}", env_vars::STONE_TOKEN);
                return Ok(Some(fixed.clone()));
            }
            tracing::debug!(
                "token: the stored login of `{}` ({})",
                self.identity.env,
                self.identity
                    .store
                    .location(&self.identity.env, &self.identity.issuer)
            );
            Ok(Some(
                self.identity
                    .access_token(&interaction(self.device))
                    .await?,
            ))
        })
    }

    fn renew<'a>(
        &'a self,
        _env: &'a str,
    ) -> BoxFuture<'a, Result<Option<Secret<String>>, PushError>> {
        Box::pin(async move {
            if self.fixed.is_some() {
                return Ok(None);
            }
            match self.identity.refresh().await {
                Ok(refreshed) => Ok(refreshed.map(|t| t.access_token)),
                Err(AuthError::Provider { .. }) => Ok(None),
                Err(other) => Err(other.into()),
            }
        })
    }

    fn step_up<'a>(
        &'a self,
        _env: &'a str,
        request: &'a StepUpRequest,
        refused: Option<&'a Secret<String>>,
    ) -> BoxFuture<'a, Result<Secret<String>, PushError>> {
        Box::pin(async move {
            let claims = refused.map(|t| TokenClaims::of(t, &self.identity.roles_claim));
            let mut ui = interaction(self.device);
            // A token given as-is is never replaced by a login.
            ui.interactive &= self.fixed.is_none();
            Ok(self
                .identity
                .step_up_login(request, claims.as_ref(), &ui)
                .await?
                .token)
        })
    }
}
