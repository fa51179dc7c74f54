//! Identity in `oidc` mode: bearer JWTs checked against the issuer's JWKS.
//!
//! The keys come from the issuer's discovery document (`jwks_uri`), are cached, and are
//! fetched again once when a token names a key (`kid`) the cache does not hold (the
//! provider rotated its keys), at most every [`REFETCH_AFTER`]. A token is valid when its
//! signature verifies with that key (an asymmetric algorithm only: never `none` nor HMAC),
//! `iss` is the configured issuer, `aud` names the configured audience, and `exp` is in the
//! future (a small leeway for clock skew).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use stone_api::codes;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
use tokio::sync::{Mutex, RwLock};

use crate::error::ApiError;
use crate::guards::Principal;
use crate::routes::App;

/// Who called, as one axum extractor for every route: in `local` mode the configured
/// identity; in `oidc` mode the identity of a valid bearer token, or `None` without an
/// `Authorization` header. A header with an invalid token is refused (401
/// `auth.invalid_token`) even where no token is needed: a client that sends one expects it
/// to count.
#[derive(Debug, Clone)]
pub struct Caller(pub Option<Principal>);

impl Caller {
    /// The identity, or 401 `auth.required`.
    pub fn require(self) -> Result<Principal, ApiError> {
        self.0.ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                codes::AUTH_REQUIRED,
                "Authentication required",
                "this request needs a bearer token: run `stone login`, or set STONE_TOKEN in CI",
            )
            .with_challenge("Bearer")
        })
    }
}

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Some(verifier) = &app.verifier else {
            return Ok(Caller(Some(app.principal.clone())));
        };
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Ok(Caller(None));
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| {
                let (scheme, token) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                invalid_token(&TokenError::Malformed(
                    "the Authorization header is not `Bearer <token>`".into(),
                ))
            })?;
        match verifier.verify(token).await {
            Ok(principal) => Ok(Caller(Some(principal))),
            Err(error @ TokenError::Keys { .. }) => {
                tracing::error!(%error, "cannot check a token");
                Err(ApiError::unavailable(
                    "the server cannot reach its identity provider to check the token; retry later",
                ))
            }
            Err(error) => Err(invalid_token(&error)),
        }
    }
}

fn invalid_token(error: &TokenError) -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        codes::AUTH_INVALID_TOKEN,
        "Invalid token",
        format!("{error}: log in again (`stone login`)"),
    )
    .with("reason", error.reason())
    .with_challenge(format!(
        "Bearer error=\"invalid_token\", error_description=\"{}\"",
        error.reason()
    ))
}

/// Unknown `kid`s make the server fetch the JWKS again at most this often.
pub const REFETCH_AFTER: Duration = Duration::from_secs(10);
/// Clock skew tolerated on `exp` (seconds).
const LEEWAY: u64 = 30;

/// Why a token was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    #[error("the token is not a well-formed JWT: {0}")]
    Malformed(String),
    #[error("the token has expired")]
    Expired,
    #[error("the token was issued by another issuer than {0}")]
    Issuer(String),
    #[error("the token is not meant for this server (aud is not {0})")]
    Audience(String),
    #[error("the token's signature does not verify")]
    Signature,
    #[error("the token is signed with a key the issuer does not publish")]
    UnknownKey,
    #[error("the token is invalid: {0}")]
    Invalid(String),
    /// The issuer could not be asked for its keys: not the token's fault.
    #[error("cannot fetch the issuer's keys from {url}: {message}")]
    Keys { url: String, message: String },
}

impl TokenError {
    /// The `reason` member of the `auth.invalid_token` problem.
    pub fn reason(&self) -> &'static str {
        match self {
            TokenError::Malformed(_) => "malformed",
            TokenError::Expired => "expired",
            TokenError::Issuer(_) => "issuer",
            TokenError::Audience(_) => "audience",
            TokenError::Signature => "signature",
            TokenError::UnknownKey => "unknown_key",
            TokenError::Invalid(_) | TokenError::Keys { .. } => "invalid",
        }
    }
}

/// Checks bearer tokens of one issuer for one audience.
#[derive(Debug)]
pub struct Verifier {
    issuer: String,
    audience: String,
    roles_claim: String,
    http: reqwest::Client,
    keys: RwLock<Option<JwkSet>>,
    last_fetch: Mutex<Option<Instant>>,
}

impl Verifier {
    pub fn new(issuer: &str, audience: &str, roles_claim: &str) -> Self {
        Verifier {
            issuer: issuer.trim_end_matches('/').to_owned(),
            audience: audience.to_owned(),
            roles_claim: roles_claim.to_owned(),
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(5))
                .timeout(Duration::from_secs(15))
                .build()
                .unwrap_or_default(),
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
        }
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The identity a valid token carries.
    pub async fn verify(&self, token: &str) -> Result<Principal, TokenError> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| TokenError::Malformed(e.to_string()))?;
        if !matches!(
            header.alg,
            Algorithm::RS256
                | Algorithm::RS384
                | Algorithm::RS512
                | Algorithm::PS256
                | Algorithm::PS384
                | Algorithm::PS512
                | Algorithm::ES256
                | Algorithm::ES384
                | Algorithm::EdDSA
        ) {
            return Err(TokenError::Invalid(format!(
                "algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let jwk = match self.find_key(header.kid.as_deref()).await? {
            Some(jwk) => jwk,
            None => {
                self.refetch().await?;
                self.find_key(header.kid.as_deref())
                    .await?
                    .ok_or(TokenError::UnknownKey)?
            }
        };
        if let Some(alg) = jwk.common.key_algorithm
            && format!("{alg:?}") != format!("{:?}", header.alg)
        {
            return Err(TokenError::Invalid(format!(
                "the token says {:?} but its key is for {alg:?}",
                header.alg
            )));
        }
        let key = DecodingKey::from_jwk(&jwk).map_err(|e| TokenError::Invalid(e.to_string()))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = LEEWAY;
        let data = jsonwebtoken::decode::<Value>(token, &key, &validation).map_err(|e| match e
            .kind()
        {
            ErrorKind::ExpiredSignature => TokenError::Expired,
            ErrorKind::InvalidIssuer => TokenError::Issuer(self.issuer.clone()),
            ErrorKind::InvalidAudience => TokenError::Audience(self.audience.clone()),
            ErrorKind::InvalidSignature => TokenError::Signature,
            _ => TokenError::Invalid(e.to_string()),
        })?;
        Ok(principal_of(&data.claims, &self.roles_claim))
    }

    async fn find_key(&self, kid: Option<&str>) -> Result<Option<Jwk>, TokenError> {
        if self.keys.read().await.is_none() {
            self.refetch().await?;
        }
        let keys = self.keys.read().await;
        let Some(set) = keys.as_ref() else {
            return Ok(None);
        };
        Ok(match kid {
            Some(kid) => set.find(kid).cloned(),
            // No kid: only unambiguous with a single key.
            None if set.keys.len() == 1 => set.keys.first().cloned(),
            None => None,
        })
    }

    /// Discovery → `jwks_uri` → the keys, unless fetched less than [`REFETCH_AFTER`] ago.
    async fn refetch(&self) -> Result<(), TokenError> {
        let mut last = self.last_fetch.lock().await;
        if last.is_some_and(|at| at.elapsed() < REFETCH_AFTER) && self.keys.read().await.is_some() {
            return Ok(());
        }
        let discovery_url = format!("{}/.well-known/openid-configuration", self.issuer);
        let discovery: Value = self.get_json(&discovery_url).await?;
        if discovery["issuer"]
            .as_str()
            .map(|i| i.trim_end_matches('/'))
            != Some(&self.issuer)
        {
            return Err(TokenError::Keys {
                url: discovery_url,
                message: format!(
                    "the discovery document names the issuer {}, not {}",
                    discovery["issuer"], self.issuer
                ),
            });
        }
        let jwks_url = discovery["jwks_uri"]
            .as_str()
            .ok_or_else(|| TokenError::Keys {
                url: discovery_url.clone(),
                message: "the discovery document has no jwks_uri".into(),
            })?
            .to_owned();
        let set: JwkSet = serde_json::from_value(self.get_json(&jwks_url).await?).map_err(|e| {
            TokenError::Keys {
                url: jwks_url.clone(),
                message: format!("not a JWK set: {e}"),
            }
        })?;
        tracing::info!(issuer = %self.issuer, keys = set.keys.len(), "fetched the issuer's keys");
        *self.keys.write().await = Some(set);
        *last = Some(Instant::now());
        Ok(())
    }

    async fn get_json(&self, url: &str) -> Result<Value, TokenError> {
        let keys_error = |message: String| TokenError::Keys {
            url: url.to_owned(),
            message,
        };
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|e| keys_error(e.to_string()))?;
        if !response.status().is_success() {
            return Err(keys_error(format!("HTTP {}", response.status())));
        }
        response.json().await.map_err(|e| keys_error(e.to_string()))
    }
}

/// The principal of verified claims: `sub`, the roles claim (a list, or a space-separated
/// string), `acr`, `auth_time`.
pub fn principal_of(claims: &Value, roles_claim: &str) -> Principal {
    Principal {
        user: claims["sub"].as_str().unwrap_or_default().to_owned(),
        roles: stone_api::roles_of(&claims[roles_claim]),
        acr: claims["acr"].as_str().map(str::to_owned),
        auth_time: claims["auth_time"].as_i64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn roles_from_a_list_or_a_string() {
        let p = principal_of(
            &json!({"sub": "alice", "roles": ["a", "b"], "acr": "x", "auth_time": 5}),
            "roles",
        );
        assert_eq!(p.user, "alice");
        assert_eq!(p.roles, ["a", "b"]);
        assert_eq!(p.acr.as_deref(), Some("x"));
        assert_eq!(p.auth_time, Some(5));
        let p = principal_of(&json!({"sub": "bob", "groups": "a b"}), "groups");
        assert_eq!(p.roles, ["a", "b"]);
        assert_eq!(p.acr, None);
        let p = principal_of(&json!({"sub": "eve", "roles": 3}), "roles");
        assert!(p.roles.is_empty());
    }

    #[tokio::test]
    async fn garbage_and_hmac_tokens_are_refused_before_any_key_lookup() {
        // The issuer does not exist: a key lookup would fail with `Keys`, not these.
        let verifier = Verifier::new("http://127.0.0.1:9", "aud", "roles");
        assert!(matches!(
            verifier.verify("not a jwt").await,
            Err(TokenError::Malformed(_))
        ));
        let hmac = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(Algorithm::HS256),
            &json!({"sub": "x", "exp": 9_999_999_999u64}),
            &jsonwebtoken::EncodingKey::from_secret(b"secret"),
        )
        .unwrap();
        assert!(matches!(
            verifier.verify(&hmac).await,
            Err(TokenError::Invalid(_))
        ));
    }
}
