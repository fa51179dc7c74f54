//! Identity in `oidc` mode: bearer JWTs checked against the issuer's JWKS.
//!
//! The keys come from the issuer's discovery document (`jwks_uri`), are cached, and are
//! fetched again once when a token names a key (`kid`) the cache does not hold (the
//! provider rotated its keys), at most every [`REFETCH_AFTER`]. A token is valid when its
//! signature verifies with that key (an asymmetric algorithm only: never `none` nor HMAC),
//! `iss` is the configured issuer, `aud` names the configured audience, `exp` is in the
//! future and `nbf`, when present, in the past (a small leeway for clock skew both ways),
//! and it is an access token, not an ID token (see [`access_token_refusal`]).
//!
//! The issuer and its `jwks_uri` must be `https://`, or `http://` on this machine (a
//! loopback address or `localhost`): keys fetched in clear could be swapped on the way.

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
    #[error("the token is not valid yet (nbf is in the future)")]
    NotYetValid,
    #[error("the token is not an access token: {0}")]
    NotAccessToken(String),
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
            TokenError::NotYetValid => "not_yet_valid",
            TokenError::NotAccessToken(_) => "not_access_token",
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
    /// The claim the `[authz]` grants name (`None`: the roles claim).
    groups_claim: Option<String>,
    /// Accept tokens that do not say they are access tokens.
    untyped_access_tokens: bool,
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
            groups_claim: None,
            untyped_access_tokens: false,
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(5))
                .timeout(Duration::from_secs(15))
                .build()
                .unwrap_or_default(),
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
        }
    }

    /// The `[authz]` grants name the values of `claim` rather than the roles.
    pub fn with_groups_claim(mut self, claim: Option<String>) -> Self {
        self.groups_claim = claim;
        self
    }

    /// See `[auth] untyped_access_tokens`.
    pub fn with_untyped_access_tokens(mut self, accept: bool) -> Self {
        self.untyped_access_tokens = accept;
        self
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
        validation.validate_nbf = true;
        let data = jsonwebtoken::decode::<Value>(token, &key, &validation).map_err(|e| match e
            .kind()
        {
            ErrorKind::ExpiredSignature => TokenError::Expired,
            ErrorKind::InvalidIssuer => TokenError::Issuer(self.issuer.clone()),
            ErrorKind::InvalidAudience => TokenError::Audience(self.audience.clone()),
            ErrorKind::InvalidSignature => TokenError::Signature,
            ErrorKind::ImmatureSignature => TokenError::NotYetValid,
            _ => TokenError::Invalid(e.to_string()),
        })?;
        if let Some(why) = access_token_refusal(
            header.typ.as_deref(),
            &data.claims,
            self.untyped_access_tokens,
        ) {
            return Err(TokenError::NotAccessToken(why));
        }
        let mut principal = principal_of(&data.claims, &self.roles_claim);
        if let Some(claim) = &self.groups_claim {
            principal.groups = stone_api::roles_of(&data.claims[claim]);
        }
        Ok(principal)
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
        if !secure_url(&jwks_url) {
            return Err(TokenError::Keys {
                url: discovery_url,
                message: format!(
                    "the jwks_uri {jwks_url} is plain http on a host that is not this machine; keys are only fetched over https"
                ),
            });
        }
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

/// Whether `url` may carry keys and tokens: `https://`, or `http://` to this machine (a
/// loopback address or `localhost`).
pub fn secure_url(url: &str) -> bool {
    if url.starts_with("https://") {
        return true;
    }
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // No user info: `http://localhost@evil.example` is evil.example.
    if authority.contains('@') {
        return false;
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Why a verified token is not an access token; `None` when it is one. An ID token is
/// signed by the same issuer and may name the same audience (when the audience is a
/// client ID), so the token must say what it is:
///
/// - the header `typ` is `at+jwt` (RFC 9068), or
/// - the claim `token_use` is `access` (Amazon Cognito), or the claim `typ` is `Bearer`
///   (Keycloak);
/// - with `untyped_access_tokens`, a token that says neither is taken too.
///
/// Refused always: another header `typ` than those of a JWT or an access token, a
/// `token_use` other than `access`, a `typ` claim other than `Bearer`, and the claims
/// only ID tokens carry (`nonce`, `at_hash`, `c_hash`, `s_hash`).
pub fn access_token_refusal(
    header_typ: Option<&str>,
    claims: &Value,
    untyped_access_tokens: bool,
) -> Option<String> {
    let header_typ = header_typ.map(str::to_ascii_lowercase);
    let typed = match header_typ.as_deref() {
        Some("at+jwt" | "application/at+jwt") => true,
        None | Some("jwt" | "application/jwt") => false,
        Some(other) => return Some(format!("its header says typ {other}, not at+jwt")),
    };
    for marker in ["nonce", "at_hash", "c_hash", "s_hash"] {
        if claims.get(marker).is_some() {
            return Some(format!(
                "it has the claim {marker}, which only ID tokens carry"
            ));
        }
    }
    let token_use = claims
        .get("token_use")
        .map(|v| v.as_str().unwrap_or_default());
    if let Some(token_use) = token_use
        && token_use != "access"
    {
        return Some(format!("its token_use is {token_use:?}, not \"access\""));
    }
    let typ_claim = claims.get("typ").map(|v| v.as_str().unwrap_or_default());
    if let Some(typ) = typ_claim
        && !typ.eq_ignore_ascii_case("bearer")
    {
        return Some(format!("its typ claim is {typ:?}, not \"Bearer\""));
    }
    if typed || token_use.is_some() || typ_claim.is_some() || untyped_access_tokens {
        None
    } else {
        Some(
            "it does not say it is one (header typ at+jwt, or a token_use or typ claim); an ID token looks like this. Ask the provider for a JWT access token for this API (RFC 9068), or set [auth] untyped_access_tokens = true if it never marks them".into(),
        )
    }
}

/// The principal of verified claims: `sub`, the roles claim (a list, or a space-separated
/// string), `acr`, `auth_time`. The `[authz]` grants name the roles unless the verifier
/// has another claim for them.
pub fn principal_of(claims: &Value, roles_claim: &str) -> Principal {
    let roles = stone_api::roles_of(&claims[roles_claim]);
    Principal {
        user: claims["sub"].as_str().unwrap_or_default().to_owned(),
        groups: roles.clone(),
        roles,
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

    #[test]
    fn keys_travel_over_https_or_on_this_machine_only() {
        for url in [
            "https://id.example.org",
            "http://127.0.0.1:8080/jwks",
            "http://localhost:9000",
            "http://[::1]:4000/x",
            "http://127.0.0.2",
        ] {
            assert!(secure_url(url), "{url}");
        }
        for url in [
            "http://id.example.org",
            "http://localhost@evil.example/",
            "http://127.0.0.1.evil.example",
            "http://10.0.0.1:80",
            "ftp://127.0.0.1",
            "",
        ] {
            assert!(!secure_url(url), "{url}");
        }
    }

    #[test]
    fn only_access_tokens_are_taken() {
        let plain = json!({"sub": "a"});
        assert_eq!(access_token_refusal(Some("at+jwt"), &plain, false), None);
        assert_eq!(
            access_token_refusal(Some("application/at+jwt"), &plain, false),
            None
        );
        // An ID token of oidc-provider, Keycloak, Cognito; one with a nonce.
        assert!(access_token_refusal(None, &plain, false).is_some());
        assert!(access_token_refusal(Some("JWT"), &json!({"typ": "ID"}), false).is_some());
        assert!(access_token_refusal(None, &json!({"token_use": "id"}), true).is_some());
        assert!(access_token_refusal(Some("at+jwt"), &json!({"nonce": "n"}), false).is_some());
        assert!(access_token_refusal(Some("logout+jwt"), &plain, true).is_some());
        // What providers without RFC 9068 put on access tokens.
        assert_eq!(
            access_token_refusal(Some("JWT"), &json!({"typ": "Bearer"}), false),
            None
        );
        assert_eq!(
            access_token_refusal(None, &json!({"token_use": "access"}), false),
            None
        );
        assert_eq!(access_token_refusal(Some("JWT"), &plain, true), None);
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
