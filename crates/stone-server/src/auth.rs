//! Identity in `oidc` mode: bearer JWTs checked against the issuer's JWKS by the project's
//! one verifier, [`stone_verify::Verifier`] (keys from discovery, refetched on an
//! unknown `kid`; asymmetric algorithms only; `iss`, `aud`, `exp`, `nbf`; access tokens
//! only; https issuers off this machine). This module adds what only the server needs: the
//! [`Caller`] extractor, the [`Principal`] of a token (roles, `[authz]` groups, `acr`) and
//! the problem documents of a refused token.

use axum::http::{HeaderMap, StatusCode, header};
use stone_api::codes;

use serde_json::Value;
pub use stone_verify::{REFETCH_AFTER, TokenError, access_token_refusal, secure_url};

use crate::error::ApiError;

/// Who a request acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub user: String,
    pub roles: Vec<String>,
    /// The values the `[authz]` grants name (the roles unless `[authz] claim` says
    /// another claim); empty in `local` mode, where no policy applies.
    pub groups: Vec<String>,
    /// How the user authenticated (`acr` claim); `None` in `local` mode.
    pub acr: Option<String>,
    /// When the user authenticated (`auth_time`, Unix seconds); `None` in `local` mode.
    pub auth_time: Option<i64>,
}

impl Principal {
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }
}

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

/// Who a request with these headers acts as: `principal` in `local` mode (no
/// `verifier`); in `oidc` mode the identity of a valid bearer token, `None` without an
/// `Authorization` header, and an error for an invalid one.
pub async fn caller(
    headers: &HeaderMap,
    principal: &Principal,
    verifier: Option<&Verifier>,
) -> Result<Caller, ApiError> {
    let Some(verifier) = verifier else {
        return Ok(Caller(Some(principal.clone())));
    };
    let Some(value) = headers.get(header::AUTHORIZATION) else {
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

/// Checks bearer tokens of one issuer for one audience, and reads who they name.
#[derive(Debug)]
pub struct Verifier {
    inner: stone_verify::Verifier,
    roles_claim: String,
    /// The claim the `[authz]` grants name (`None`: the roles claim).
    groups_claim: Option<String>,
}

impl Verifier {
    pub fn new(issuer: &str, audience: &str, roles_claim: &str) -> Self {
        Verifier {
            inner: stone_verify::Verifier::new(issuer, audience),
            roles_claim: roles_claim.to_owned(),
            groups_claim: None,
        }
    }

    /// The `[authz]` grants name the values of `claim` rather than the roles.
    pub fn with_groups_claim(mut self, claim: Option<String>) -> Self {
        self.groups_claim = claim;
        self
    }

    /// See `[auth] untyped_access_tokens`.
    pub fn with_untyped_access_tokens(mut self, accept: bool) -> Self {
        self.inner = self.inner.with_untyped_access_tokens(accept);
        self
    }

    pub fn issuer(&self) -> &str {
        self.inner.issuer()
    }

    /// The identity a valid token carries.
    pub async fn verify(&self, token: &str) -> Result<Principal, TokenError> {
        let verified = self.inner.verify(token).await?;
        let mut principal = principal_of(&verified.claims, &self.roles_claim);
        if let Some(claim) = &self.groups_claim {
            principal.groups = stone_api::roles_of(&verified.claims[claim]);
        }
        Ok(principal)
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
}
