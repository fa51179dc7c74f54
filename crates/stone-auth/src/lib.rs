//! Identity for the stone CLI.
//!
//! - [`OidcClient`]: OpenID discovery, the authorization code flow with PKCE (S256) on a
//!   loopback redirect with `state` and `nonce` checked (RFC 8252), the device flow
//!   (RFC 8628), refresh.
//! - [`TokenStore`]: tokens per environment and issuer in 0600 files.
//! - [`Identity`]: one environment's identity: a valid access token (stored, refreshed
//!   silently, or from a login when the caller may interact), and
//!   [`Identity::token_with_step_up`], a token that satisfies an RFC 9470 step-up.
//! - [`Secret`]: tokens never print.
//! - [`verify::Verifier`]: an access token checked against its issuer's published keys
//!   (signature, `iss`, `aud`, `exp`/`nbf`, access and not ID token): the server's check of
//!   every bearer token, and the CLI's before it trusts a token's roles where no server
//!   checks (the blob-store prod guard).
//!
//! No function here reads environment variables or prints: the binary decides
//! (`STONE_TOKEN`, CI, the browser) and passes a [`Interaction`].

pub mod loopback;
pub mod oidc;
pub mod pkce;
pub mod secret;
pub mod store;
/// The access-token verifier (crate `stone-verify`, which the server uses alone).
pub use stone_verify as verify;

use std::path::PathBuf;

use serde::Serialize;

pub use oidc::{AuthorizationParams, Notify, OidcClient, TokenSet, jwt_claims, now};
pub use secret::Secret;
pub use store::{Location, StoredTokens, TokenStore};

/// The name under which a token given in the environment (not a login) is reported.
pub const STONE_TOKEN: &str = "STONE_TOKEN";

/// An access token this close to its expiry is refreshed before use (seconds).
pub const EXPIRY_MARGIN: u64 = 30;

/// The errors of identity. Codes are `auth.*`: the CLI exits 3 for all of them.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    #[error("OpenID discovery of {issuer} failed: {message}")]
    Discovery { issuer: String, message: String },
    #[error("cannot reach {url}: {message}")]
    Http { url: String, message: String },
    #[error("unexpected answer from {url}: {message}")]
    Protocol { url: String, message: String },
    #[error("the identity provider refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Provider {
        url: String,
        error: String,
        description: Option<String>,
    },
    #[error("the login was refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        error: String,
        description: Option<String>,
    },
    #[error(
        "the login answer carried another state than the one sent (a forged or stale redirect)"
    )]
    StateMismatch,
    #[error("the ID token is not acceptable: {0}")]
    IdToken(String),
    #[error("timed out waiting for {what}")]
    Timeout { what: String },
    #[error("cannot listen on the loopback redirect: {0}")]
    Loopback(String),
    #[error("no randomness from the operating system: {0}")]
    Random(String),
    #[error("cannot use the token store at {}", path.display())]
    Store {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{issuer} does not offer the device flow")]
    DeviceFlowUnsupported { issuer: String },
    #[error("not logged in to the environment `{env}`")]
    NotLoggedIn { env: String },
    #[error("the environment `{env}` needs a fresh authentication for this, and {lack}")]
    StepUpRequired {
        env: String,
        lack: String,
        /// Refused in CI (no login can run), else outside CI with a fixed `STONE_TOKEN`.
        in_ci: bool,
    },
    #[error("the new login did not reach what is needed: {lack}")]
    StepUpNotReached { lack: String },
    /// A token failed [`verify::Verifier::verify`] (or its issuer's keys could not be
    /// fetched: [`verify::TokenError::Keys`]).
    #[error("{origin} is not a valid token of the environment `{env}`: {error}")]
    InvalidToken {
        env: String,
        /// Where the token came from, in words (`STONE_TOKEN`, `the stored login`).
        origin: String,
        issuer: String,
        error: verify::TokenError,
    },
    #[error(
        "the environment `{env}` names no audience for its tokens, so a token cannot be checked"
    )]
    NoAudience { env: String },
}

impl AuthError {
    /// Stable dotted code.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::Discovery { .. } => "auth.discovery",
            AuthError::Http { .. } => "auth.unavailable",
            AuthError::Protocol { .. } => "auth.protocol",
            AuthError::Provider { .. } => "auth.refused",
            AuthError::Denied { .. } => "auth.denied",
            AuthError::StateMismatch => "auth.state_mismatch",
            AuthError::IdToken(_) => "auth.id_token",
            AuthError::Timeout { .. } => "auth.timeout",
            AuthError::Loopback(_) => "auth.loopback",
            AuthError::Random(_) => "auth.random",
            AuthError::Store { .. } => "auth.store",
            AuthError::DeviceFlowUnsupported { .. } => "auth.device_unsupported",
            AuthError::NotLoggedIn { .. } => "auth.login_required",
            AuthError::StepUpRequired { .. } => "auth.step_up_required",
            AuthError::StepUpNotReached { .. } => "auth.step_up_failed",
            AuthError::InvalidToken {
                error: verify::TokenError::Keys { .. },
                ..
            } => "auth.unavailable",
            AuthError::InvalidToken { .. } => "auth.invalid_token",
            AuthError::NoAudience { .. } => "auth.no_audience",
        }
    }

    /// What to do about it.
    pub fn hint(&self) -> Option<String> {
        match self {
            AuthError::NotLoggedIn { env } => Some(format!(
                "run `stone login --env {env}`; in CI, set STONE_TOKEN to an access token"
            )),
            AuthError::StepUpRequired {
                env, in_ci: true, ..
            } => Some(format!(
                "run the command outside CI to authenticate again, or run `stone login --env {env}` first; a CI token (STONE_TOKEN) must come from such a login"
            )),
            AuthError::StepUpRequired {
                env, in_ci: false, ..
            } => Some(format!(
                "STONE_TOKEN is used as it is: unset it, and stone asks for the stronger login here (or run `stone login --env {env}`); a token for STONE_TOKEN must come from such a login"
            )),
            AuthError::StepUpNotReached { .. } => Some(
                "log in with the stronger method (a second factor) when the provider asks".into(),
            ),
            AuthError::Provider { error, .. } if error == "invalid_grant" => {
                Some("the stored login is no longer valid: run `stone login` again".into())
            }
            AuthError::DeviceFlowUnsupported { .. } => {
                Some("log in without --device (a browser on this or another machine)".into())
            }
            AuthError::Timeout { .. } => {
                Some("run the command again and finish the login in the browser".into())
            }
            AuthError::InvalidToken {
                env,
                issuer,
                error: verify::TokenError::Keys { .. },
                ..
            } => Some(format!(
                "the token is checked against the keys {issuer} publishes: check that it answers from here (network, proxy) and run the command again; `stone env list` shows the issuer of `{env}`"
            )),
            AuthError::InvalidToken {
                env,
                origin,
                issuer,
                ..
            } if origin == STONE_TOKEN => Some(format!(
                "set STONE_TOKEN to a current access token that {issuer} issued for `{env}` (unset it to use your own login: `stone login --env {env}`)"
            )),
            AuthError::InvalidToken { env, .. } => {
                Some(format!("log in again with `stone login --env {env}`"))
            }
            AuthError::NoAudience { env } => Some(format!(
                "the environment's server names the audience in its `/info` (oidc.audience): check the `--api` of `{env}` (`stone env list`) and that its server runs in oidc mode"
            )),
            _ => None,
        }
    }
}

/// Who a token says the user is (from the access token's claims, unverified: the server
/// verifies; this is for showing and for deciding when to refresh or step up).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TokenClaims {
    pub subject: Option<String>,
    pub roles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acr: Option<String>,
    /// Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth_time: Option<u64>,
    /// Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

impl TokenClaims {
    /// The claims of an access token, read without verifying it; empty when it is not a
    /// JWT. Good for showing and for deciding when to refresh; never for a decision a
    /// server does not check again (use [`verify::Verifier`] and [`Self::from_claims`]).
    pub fn of(access_token: &Secret<String>, roles_claim: &str) -> TokenClaims {
        match jwt_claims(access_token.expose()) {
            Some(claims) => TokenClaims::from_claims(&claims, roles_claim),
            None => TokenClaims::default(),
        }
    }

    /// What a token's claims (a JSON object) say.
    pub fn from_claims(claims: &serde_json::Value, roles_claim: &str) -> TokenClaims {
        TokenClaims {
            subject: claims["sub"].as_str().map(str::to_owned),
            roles: stone_api::roles_of(&claims[roles_claim]),
            acr: claims["acr"].as_str().map(str::to_owned),
            auth_time: claims["auth_time"].as_u64(),
            expires_at: claims["exp"].as_u64(),
        }
    }
}

/// A step-up to reach (RFC 9470): one of `acr_values` (any when empty), an authentication
/// at most `max_age` seconds old.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepUpRequest {
    pub acr_values: Vec<String>,
    pub max_age: Option<u64>,
}

impl StepUpRequest {
    /// Parses a `WWW-Authenticate` challenge's `acr_values="a b"` and `max_age=N`.
    pub fn from_challenge(challenge: &str) -> StepUpRequest {
        let mut request = StepUpRequest::default();
        for part in split_params(challenge) {
            let Some((name, value)) = part.split_once('=') else {
                continue;
            };
            let value = value.trim().trim_matches('"');
            match name.trim().trim_start_matches("Bearer").trim() {
                "acr_values" => {
                    request.acr_values = value.split_whitespace().map(str::to_owned).collect()
                }
                "max_age" => request.max_age = value.parse().ok(),
                _ => {}
            }
        }
        request
    }

    /// What `claims` lack for this step-up, in words; `None` when they are enough.
    /// `margin` seconds are kept in hand on `max_age`, so that a token that is just fresh
    /// enough here is still fresh enough at the server.
    pub fn lack(&self, claims: &TokenClaims, now: u64, margin: u64) -> Option<String> {
        if !self.acr_values.is_empty() {
            match &claims.acr {
                Some(acr) if self.acr_values.contains(acr) => {}
                Some(acr) => {
                    return Some(format!(
                        "the token's authentication level (acr) is {acr}, not one of {}",
                        self.acr_values.join(", ")
                    ));
                }
                None => {
                    return Some(format!(
                        "the token has no authentication level (acr); one of {} is needed",
                        self.acr_values.join(", ")
                    ));
                }
            }
        }
        if let Some(max_age) = self.max_age {
            match claims.auth_time {
                None => return Some("the token does not say when the user authenticated".into()),
                Some(at) if now.saturating_sub(at) + margin > max_age => {
                    return Some(format!(
                        "the authentication is {} s old, more than the {max_age} s allowed",
                        now.saturating_sub(at)
                    ));
                }
                Some(_) => {}
            }
        }
        None
    }
}

/// `a=1, b="x, y"` → `a=1`, `b="x, y"` (commas inside quotes stay).
fn split_params(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ',' if !quoted => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    parts.push(current);
    parts
}

/// How the caller lets a flow talk to the user.
pub struct Interaction<'a> {
    /// May a login run (a browser or a device code)? `false` in CI.
    pub interactive: bool,
    /// Use the device flow instead of the browser.
    pub device: bool,
    /// Opens a URL in the user's browser; `None`: only print it.
    pub open_browser: Option<&'a (dyn Fn(&str) -> bool + Sync)>,
    /// One line to the user (stderr).
    pub notify: Notify<'a>,
}

/// One environment's identity.
#[derive(Debug, Clone)]
pub struct Identity {
    pub env: String,
    pub issuer: String,
    pub client_id: String,
    /// The API the access token is for (RFC 8707 `resource`), when known.
    pub audience: Option<String>,
    pub roles_claim: String,
    pub store: TokenStore,
    /// How many times a request to the provider is sent again (`STONE_HTTP_RETRIES`).
    pub retries: u32,
}

/// A token and what it says.
#[derive(Debug, Clone)]
pub struct SteppedUp {
    pub token: Secret<String>,
    pub claims: TokenClaims,
}

impl Identity {
    fn params(&self, step_up: Option<&StepUpRequest>) -> AuthorizationParams {
        AuthorizationParams {
            scope: None,
            resource: self.audience.clone(),
            acr_values: step_up
                .filter(|s| !s.acr_values.is_empty())
                .map(|s| s.acr_values.join(" ")),
            max_age: step_up.and_then(|s| s.max_age),
        }
    }

    /// The claims of `token` once [`verify::Verifier`] has checked it against this
    /// identity's issuer keys and audience (never trusted before): what the CLI decides on
    /// where no server checks the token again. `origin` names where the token came from in
    /// errors ([`STONE_TOKEN`] or "the stored login").
    pub async fn verified_claims(
        &self,
        token: &Secret<String>,
        origin: &str,
    ) -> Result<TokenClaims, AuthError> {
        let audience = self
            .audience
            .as_deref()
            .ok_or_else(|| AuthError::NoAudience {
                env: self.env.clone(),
            })?;
        let verified = verify::Verifier::new(&self.issuer, audience)
            .verify(token.expose())
            .await
            .map_err(|error| AuthError::InvalidToken {
                env: self.env.clone(),
                origin: origin.to_owned(),
                issuer: self.issuer.clone(),
                error,
            })?;
        Ok(TokenClaims::from_claims(
            &verified.claims,
            &self.roles_claim,
        ))
    }

    /// The stored tokens, if any.
    pub fn stored(&self) -> Result<Option<StoredTokens>, AuthError> {
        self.store.load(&self.env, &self.issuer)
    }

    /// Logs in (browser or device flow) and stores the tokens.
    pub async fn login(
        &self,
        step_up: Option<&StepUpRequest>,
        ui: &Interaction<'_>,
    ) -> Result<StoredTokens, AuthError> {
        let client = OidcClient::discover(&self.issuer, &self.client_id, self.retries).await?;
        let params = self.params(step_up);
        let tokens = if ui.device {
            client.login_with_device(&params, ui.notify).await?
        } else {
            client
                .login_with_browser(&params, ui.notify, ui.open_browser)
                .await?
        };
        self.save(tokens, None)
    }

    fn save(
        &self,
        tokens: TokenSet,
        previous_refresh: Option<Secret<String>>,
    ) -> Result<StoredTokens, AuthError> {
        let expires_at = tokens
            .expires_at
            .or_else(|| TokenClaims::of(&tokens.access_token, &self.roles_claim).expires_at);
        let stored = StoredTokens {
            env: self.env.clone(),
            issuer: self.issuer.clone(),
            client_id: self.client_id.clone(),
            access_token: tokens.access_token,
            // A provider that does not rotate refresh tokens answers without one.
            refresh_token: tokens.refresh_token.or(previous_refresh),
            expires_at,
        };
        self.store.save(&stored)?;
        Ok(stored)
    }

    /// Removes the stored tokens of this environment; what was removed.
    pub fn logout(&self) -> Result<Vec<Location>, AuthError> {
        self.store.remove(&self.env)
    }

    /// A new access token from the stored refresh token, stored; `None` without one.
    pub async fn refresh(&self) -> Result<Option<StoredTokens>, AuthError> {
        let Some(stored) = self.stored()? else {
            return Ok(None);
        };
        let Some(refresh_token) = stored.refresh_token.clone() else {
            return Ok(None);
        };
        let client = OidcClient::discover(&self.issuer, &self.client_id, self.retries).await?;
        let tokens = client.refresh(&refresh_token).await?;
        self.save(tokens, Some(refresh_token)).map(Some)
    }

    /// A usable access token: the stored one while it is valid, else a refreshed one
    /// (silently), else a login when `ui.interactive`, else [`AuthError::NotLoggedIn`].
    pub async fn access_token(&self, ui: &Interaction<'_>) -> Result<Secret<String>, AuthError> {
        if let Some(stored) = self.stored()? {
            let fresh = stored
                .expires_at
                .is_none_or(|at| at > now() + EXPIRY_MARGIN);
            if fresh {
                return Ok(stored.access_token);
            }
            match self.refresh().await {
                Ok(Some(refreshed)) => return Ok(refreshed.access_token),
                Ok(None) => {}
                // The refresh token expired or was revoked: a login is needed.
                Err(AuthError::Provider { error, .. }) if error == "invalid_grant" => {}
                Err(other) => return Err(other),
            }
        }
        if !ui.interactive {
            return Err(AuthError::NotLoggedIn {
                env: self.env.clone(),
            });
        }
        Ok(self.login(None, ui).await?.access_token)
    }

    /// A token that satisfies `step_up`, and its claims: the stored token when it already
    /// does, else a new login with the step-up's `acr_values` and `max_age` (only when
    /// `ui.interactive`; otherwise [`AuthError::StepUpRequired`] says what the token lacks).
    /// The caller reads the roles from the claims (the blob-store prod guard checks
    /// `protected-write` there).
    pub async fn token_with_step_up(
        &self,
        step_up: &StepUpRequest,
        ui: &Interaction<'_>,
    ) -> Result<SteppedUp, AuthError> {
        let margin = EXPIRY_MARGIN;
        if let Some(stored) = self.stored()? {
            let claims = TokenClaims::of(&stored.access_token, &self.roles_claim);
            let valid = stored
                .expires_at
                .is_none_or(|at| at > now() + EXPIRY_MARGIN);
            if valid && step_up.lack(&claims, now(), margin).is_none() {
                return Ok(SteppedUp {
                    token: stored.access_token,
                    claims,
                });
            }
        }
        self.step_up_login(step_up, None, ui).await
    }

    /// Like [`Self::token_with_step_up`] for a token that was just refused with a
    /// challenge: always a new login (the server knows best), unless not interactive.
    /// `current` (the refused token's claims) makes the CI message say what it lacks.
    pub async fn step_up_login(
        &self,
        step_up: &StepUpRequest,
        current: Option<&TokenClaims>,
        ui: &Interaction<'_>,
    ) -> Result<SteppedUp, AuthError> {
        if !ui.interactive {
            let claims = match current {
                Some(claims) => claims.clone(),
                None => match self.stored()? {
                    Some(stored) => TokenClaims::of(&stored.access_token, &self.roles_claim),
                    // No token at all: what is missing is a token, not its level (issue 55).
                    None => {
                        return Err(AuthError::NotLoggedIn {
                            env: self.env.clone(),
                        });
                    }
                },
            };
            let lack = step_up
                .lack(&claims, now(), 0)
                .unwrap_or_else(|| "the server did not accept the token's authentication".into());
            return Err(AuthError::StepUpRequired {
                env: self.env.clone(),
                lack,
                in_ci: true,
            });
        }
        (ui.notify)(&format!(
            "This needs a fresh authentication{}{}.",
            if step_up.acr_values.is_empty() {
                String::new()
            } else {
                format!(" at level {}", step_up.acr_values.join(" or "))
            },
            step_up
                .max_age
                .map(|m| format!(" (at most {m} s old)"))
                .unwrap_or_default()
        ));
        let stored = self.login(Some(step_up), ui).await?;
        let claims = TokenClaims::of(&stored.access_token, &self.roles_claim);
        // The margin is not applied here: the login just happened.
        if let Some(lack) = step_up.lack(&claims, now(), 0) {
            return Err(AuthError::StepUpNotReached { lack });
        }
        Ok(SteppedUp {
            token: stored.access_token,
            claims,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_parameters() {
        let request = StepUpRequest::from_challenge(
            r#"Bearer error="insufficient_user_authentication", error_description="a, b", acr_values="urn:x:mfa urn:x:hw", max_age=300"#,
        );
        assert_eq!(request.acr_values, ["urn:x:mfa", "urn:x:hw"]);
        assert_eq!(request.max_age, Some(300));
        assert_eq!(
            StepUpRequest::from_challenge("Bearer"),
            StepUpRequest::default()
        );
    }

    #[test]
    fn what_a_token_lacks() {
        let step_up = StepUpRequest {
            acr_values: vec!["mfa".into()],
            max_age: Some(100),
        };
        let mut claims = TokenClaims {
            acr: Some("pwd".into()),
            auth_time: Some(1000),
            ..TokenClaims::default()
        };
        assert!(step_up.lack(&claims, 1050, 0).unwrap().contains("pwd"));
        claims.acr = Some("mfa".into());
        assert_eq!(step_up.lack(&claims, 1050, 0), None);
        assert!(
            step_up
                .lack(&claims, 1050, 60)
                .unwrap()
                .contains("50 s old")
        );
        assert!(step_up.lack(&claims, 1200, 0).is_some());
    }

    #[test]
    fn claims_of_a_jwt_and_of_anything_else() {
        use base64::Engine as _;
        let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(
            br#"{"sub":"alice","roles":["protected-write"],"acr":"mfa","auth_time":5,"exp":9}"#,
        );
        let token = Secret::new(format!("e30.{payload}.sig"));
        let claims = TokenClaims::of(&token, "roles");
        assert_eq!(claims.subject.as_deref(), Some("alice"));
        assert_eq!(claims.roles, ["protected-write"]);
        assert_eq!(claims.expires_at, Some(9));
        assert_eq!(
            TokenClaims::of(&Secret::new("opaque".into()), "roles"),
            TokenClaims::default()
        );
    }
}
