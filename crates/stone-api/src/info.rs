//! `GET /v1/info`: what the server is and how to talk to it.

use serde::{Deserialize, Serialize};

/// Answer of `GET /v1/info`. Needs no authentication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerInfo {
    /// Version of the server program (`stone-server` semver).
    pub server_version: String,
    /// Version of this API (`"1"`); the path prefix is `/v<api_version>`.
    pub api_version: String,
    /// Host of the https IRIs the server gives datasets: `https://{public_host}/{ns}/{name}`.
    pub public_host: String,
    /// Ref patterns the server protects (`main`, `release-*`). `*` matches any run of
    /// characters; a pattern is compared with the normalized branch name as written (the
    /// server refuses a pattern normalization would change). A client may meet an older
    /// server's `release/*`: it compares that after the same normalization (`release-*`).
    pub protected_refs: Vec<String>,
    /// The roles the guards of protected refs ask for (an older server does not say:
    /// `protected-write` and `protected-force` are the defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protected_roles: Option<ProtectedRoles>,
    /// How requests are authenticated.
    pub auth_mode: AuthMode,
    /// Who requests act as, when the server knows without a token (`local` mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<Identity>,
    /// `oidc` mode: the identity provider and what a push to a protected ref needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oidc: Option<OidcInfo>,
    /// How uploads are staged.
    pub staging: StagingInfo,
}

/// The roles the guards of protected refs ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtectedRoles {
    /// A push to a protected ref needs it (`protected-write` by default).
    pub write: String,
    /// `force` on a protected ref needs it (`protected-force` by default).
    pub force: String,
}

/// How the server authenticates requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuthMode {
    /// No identity provider: the server listens on loopback only and every request acts as
    /// one configured local user with configured roles. No token is needed.
    Local,
    /// Bearer tokens from an OpenID provider.
    Oidc,
    /// A mode this client does not know.
    #[serde(other)]
    Unknown,
}

/// A user and the roles the server grants it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// User name.
    pub user: String,
    /// Roles (`protected-write`, `protected-force`, …).
    pub roles: Vec<String>,
}

/// How to obtain a token the server accepts (`oidc` mode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OidcInfo {
    /// The OpenID provider (`iss` of the tokens; discovery under
    /// `<issuer>/.well-known/openid-configuration`).
    pub issuer: String,
    /// The audience the access tokens must name (`aud`; the RFC 8707 `resource`).
    pub audience: String,
    /// The claim the roles are read from.
    pub roles_claim: String,
    /// The fresh authentication a push to a protected ref needs (RFC 9470).
    pub step_up: StepUp,
}

/// The roles a token's claim lists: a JSON list of strings, or one space-separated string
/// (both forms are common among providers); anything else lists none.
pub fn roles_of(claim: &serde_json::Value) -> Vec<String> {
    match claim {
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|r| r.as_str().map(str::to_owned))
            .collect(),
        serde_json::Value::String(text) => text.split_whitespace().map(str::to_owned).collect(),
        _ => Vec::new(),
    }
}

/// RFC 9470 step-up parameters: the token's `acr` is one of `acr_values` (any, when empty)
/// and its `auth_time` is at most `max_age` seconds old.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepUp {
    pub acr_values: Vec<String>,
    pub max_age: u64,
}

/// Staging parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StagingInfo {
    /// Where uploads go.
    pub store: StagingStoreKind,
    /// Files larger than this are uploaded in parts of this size (the last part is
    /// smaller).
    pub part_size: u64,
    /// How long an upload URL stays valid, in seconds.
    pub url_ttl_seconds: u64,
}

/// Kind of staging store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StagingStoreKind {
    /// The server's own disk; URLs point at the server (`/v1/staging/…`).
    Local,
    /// An S3-compatible object store; URLs are S3 presigned URLs.
    S3,
    /// A store this client does not know.
    #[serde(other)]
    Unknown,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> ServerInfo {
        ServerInfo {
            server_version: "0.1.0".into(),
            api_version: "1".into(),
            public_host: "data.example.org".into(),
            protected_refs: vec!["main".into(), "release/*".into()],
            protected_roles: None,
            auth_mode: AuthMode::Local,
            identity: Some(Identity {
                user: "local".into(),
                roles: vec!["protected-write".into()],
            }),
            oidc: None,
            staging: StagingInfo {
                store: StagingStoreKind::Local,
                part_size: 67_108_864,
                url_ttl_seconds: 3600,
            },
        }
    }

    fn oidc_sample() -> ServerInfo {
        ServerInfo {
            auth_mode: AuthMode::Oidc,
            protected_roles: Some(ProtectedRoles {
                write: "protected-write".into(),
                force: "protected-force".into(),
            }),
            identity: None,
            oidc: Some(OidcInfo {
                issuer: "https://id.example.org".into(),
                audience: "https://stone.example.org/api".into(),
                roles_claim: "roles".into(),
                step_up: StepUp {
                    acr_values: vec!["urn:example:acr:mfa".into()],
                    max_age: 900,
                },
            }),
            ..sample()
        }
    }

    pub(crate) fn samples() -> Vec<(&'static str, serde_json::Value)> {
        vec![
            ("ServerInfo", serde_json::to_value(sample()).unwrap()),
            ("ServerInfo", serde_json::to_value(oidc_sample()).unwrap()),
        ]
    }

    #[test]
    fn oidc_info_exact_json() {
        let expected = json!({
            "server_version": "0.1.0",
            "api_version": "1",
            "public_host": "data.example.org",
            "protected_refs": ["main", "release/*"],
            "protected_roles": {"write": "protected-write", "force": "protected-force"},
            "auth_mode": "oidc",
            "oidc": {
                "issuer": "https://id.example.org",
                "audience": "https://stone.example.org/api",
                "roles_claim": "roles",
                "step_up": {"acr_values": ["urn:example:acr:mfa"], "max_age": 900},
            },
            "staging": {"store": "local", "part_size": 67108864, "url_ttl_seconds": 3600},
        });
        assert_eq!(serde_json::to_value(oidc_sample()).unwrap(), expected);
        assert_eq!(
            serde_json::from_value::<ServerInfo>(expected).unwrap(),
            oidc_sample()
        );
    }

    #[test]
    fn info_exact_json() {
        let expected = json!({
            "server_version": "0.1.0",
            "api_version": "1",
            "public_host": "data.example.org",
            "protected_refs": ["main", "release/*"],
            "auth_mode": "local",
            "identity": {"user": "local", "roles": ["protected-write"]},
            "staging": {"store": "local", "part_size": 67108864, "url_ttl_seconds": 3600},
        });
        assert_eq!(serde_json::to_value(sample()).unwrap(), expected);
        assert_eq!(
            serde_json::from_value::<ServerInfo>(expected).unwrap(),
            sample()
        );
    }

    #[test]
    fn info_tolerates_unknown_fields_and_values() {
        let read: ServerInfo = serde_json::from_value(json!({
            "server_version": "9.0.0",
            "api_version": "1",
            "public_host": "h",
            "protected_refs": [],
            "auth_mode": "mtls",
            "staging": {"store": "gcs", "part_size": 1, "url_ttl_seconds": 2, "new": true},
            "brand_new_field": [1, 2],
        }))
        .unwrap();
        assert_eq!(read.auth_mode, AuthMode::Unknown);
        assert_eq!(read.staging.store, StagingStoreKind::Unknown);
        assert_eq!(read.identity, None);
        let written = serde_json::to_value(&read).unwrap();
        assert!(written.get("identity").is_none(), "absent stays omitted");
    }
}
