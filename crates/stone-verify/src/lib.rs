//! Access tokens checked against their issuer's published keys: the one verifier of the
//! project, used by the server for every bearer token and by the CLI before it trusts the
//! roles and `acr` of a token for the blob-store prod guard (where no server checks).
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
//! Discovery and keys are read with stone-http's timed client, up to
//! [`stone_http::MAX_DOCUMENT`] each.

use std::time::{Duration, Instant};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::Value;
/// Whether `url` may carry keys and tokens: `https://`, or `http://` to this machine. The
/// CLI's one rule ([`stone_http::transport`]), which the server's verifier shares.
pub use stone_http::transport::secure_str as secure_url;
use tokio::sync::{Mutex, RwLock};

/// Unknown `kid`s make the verifier fetch the JWKS again at most this often.
pub const REFETCH_AFTER: Duration = Duration::from_secs(10);
/// Clock skew tolerated on `exp` and `nbf` (seconds).
pub const LEEWAY: u64 = 30;

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
    /// A stable word for why (the `reason` member of the server's `auth.invalid_token`
    /// problem; the CLI's `auth.invalid_token` error carries it too).
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

/// A verified access token: its claims.
#[derive(Debug, Clone)]
pub struct Verified {
    pub claims: Value,
}

/// Checks access tokens of one issuer for one audience.
#[derive(Debug)]
pub struct Verifier {
    issuer: String,
    audience: String,
    /// Accept tokens that do not say they are access tokens.
    untyped_access_tokens: bool,
    http: reqwest::Client,
    keys: RwLock<Option<JwkSet>>,
    last_fetch: Mutex<Option<Instant>>,
}

impl Verifier {
    pub fn new(issuer: &str, audience: &str) -> Self {
        Verifier {
            issuer: issuer.trim_end_matches('/').to_owned(),
            audience: audience.to_owned(),
            untyped_access_tokens: false,
            http: stone_http::client_builder(Duration::from_secs(15))
                .timeout(Duration::from_secs(15))
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
        }
    }

    /// Accept tokens that say neither that they are access tokens nor that they are not
    /// (see [`access_token_refusal`]).
    pub fn with_untyped_access_tokens(mut self, accept: bool) -> Self {
        self.untyped_access_tokens = accept;
        self
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// The claims of a valid access token.
    pub async fn verify(&self, token: &str) -> Result<Verified, TokenError> {
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
        // `sub` names the user every push and grant is recorded under: a number, a list
        // or an empty string would make every such token the same user "".
        if data.claims["sub"].as_str().is_none_or(str::is_empty) {
            return Err(TokenError::Invalid(
                "the token's `sub` claim is not a non-empty string (RFC 7519 4.1.2: a string naming the user)".into(),
            ));
        }
        if let Some(why) = access_token_refusal(
            header.typ.as_deref(),
            &data.claims,
            self.untyped_access_tokens,
        ) {
            return Err(TokenError::NotAccessToken(why));
        }
        Ok(Verified {
            claims: data.claims,
        })
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
        if !stone_http::transport::secure_str(&discovery_url) {
            return Err(TokenError::Keys {
                url: discovery_url,
                message: "the issuer is plain http on a host that is not this machine; keys are only fetched over https".into(),
            });
        }
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
        if !stone_http::transport::secure_str(&jwks_url) {
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
            .map_err(|e| keys_error(e.without_url().to_string()))?;
        if !response.status().is_success() {
            return Err(keys_error(format!("HTTP {}", response.status())));
        }
        let body = match stone_http::read_capped(response, stone_http::MAX_DOCUMENT).await {
            Ok(body) => body,
            Err(stone_http::Capped::Failed(e)) => {
                return Err(keys_error(e.without_url().to_string()));
            }
            Err(stone_http::Capped::TooLarge) => {
                return Err(keys_error(format!(
                    "the answer is larger than {}",
                    stone_http::size_in_words(stone_http::MAX_DOCUMENT)
                )));
            }
        };
        serde_json::from_slice(&body).map_err(|e| keys_error(format!("not JSON: {e}")))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        let verifier = Verifier::new("http://127.0.0.1:9", "aud");
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
        // `alg: none` is not even a JWT to jsonwebtoken.
        assert!(verifier.verify("eyJhbGciOiJub25lIn0.e30.").await.is_err());
    }

    #[tokio::test]
    async fn an_issuer_in_clear_off_this_machine_is_never_asked_for_keys() {
        let verifier = Verifier::new("http://id.example.org", "aud");
        // {"alg":"RS256"}: the header is all that is read before the keys.
        let token = "eyJhbGciOiJSUzI1NiJ9.e30.c2ln";
        let error = verifier.verify(token).await.unwrap_err();
        assert!(
            matches!(&error, TokenError::Keys { message, .. } if message.contains("https")),
            "{error:?}"
        );
    }
}
