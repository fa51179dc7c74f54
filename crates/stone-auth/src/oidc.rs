//! The OpenID provider as the CLI sees it: discovery, the authorization code flow with
//! PKCE on a loopback redirect (RFC 8252), the device flow (RFC 8628), refresh.
//!
//! A few form posts with reqwest rather than the `openidconnect` crate: the CLI needs four
//! requests, and these keep `state`, `nonce` and PKCE visible in one place.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::Value;
use url::Url;

use stone_http::retry::{self, Resend, SendError};

use crate::loopback::Loopback;
use crate::pkce::{Pkce, random_token};
use crate::{AuthError, Secret};

/// What the CLI needs of the provider's discovery document.
#[derive(Debug, Clone, Deserialize)]
pub struct ProviderMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub device_authorization_endpoint: Option<String>,
    #[serde(default)]
    pub code_challenge_methods_supported: Vec<String>,
}

/// What an authorization asks for, beyond the client.
#[derive(Debug, Clone, Default)]
pub struct AuthorizationParams {
    /// Scopes; `openid offline_access` when empty.
    pub scope: Option<String>,
    /// RFC 8707 resource indicator: the API the access token is for.
    pub resource: Option<String>,
    /// Space-separated ACRs (step-up).
    pub acr_values: Option<String>,
    /// Seconds since the last authentication the provider may accept (step-up).
    pub max_age: Option<u64>,
}

impl AuthorizationParams {
    fn scope(&self) -> &str {
        self.scope.as_deref().unwrap_or("openid offline_access")
    }
}

/// What the provider answered: the tokens and when the access token expires.
#[derive(Debug, Clone)]
pub struct TokenSet {
    pub access_token: Secret<String>,
    pub refresh_token: Option<Secret<String>>,
    pub id_token: Option<Secret<String>>,
    /// Unix seconds.
    pub expires_at: Option<u64>,
}

/// How the CLI talks to the person logging in: one line at a time (stderr).
pub type Notify<'a> = &'a (dyn Fn(&str) + Sync);

/// A provider and the CLI's client at it.
#[derive(Debug, Clone)]
pub struct OidcClient {
    pub metadata: ProviderMetadata,
    pub client_id: String,
    http: reqwest::Client,
    /// How many times a request is sent again ([`stone_http::retry`]).
    retries: u32,
}

/// How long a login waits for the browser (or the device approval).
pub const LOGIN_TIMEOUT: Duration = Duration::from_secs(300);

impl OidcClient {
    /// Fetches `<issuer>/.well-known/openid-configuration` and checks it names `issuer`;
    /// requests are retried up to `retries` times (a provider briefly away).
    pub async fn discover(
        issuer: &str,
        client_id: &str,
        retries: u32,
    ) -> Result<OidcClient, AuthError> {
        let http = stone_http::client_builder(stone_http::API_READ_TIMEOUT)
            .timeout(Duration::from_secs(30))
            // The provider's answers come from where we asked.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AuthError::Http {
                url: issuer.to_owned(),
                message: e.to_string(),
            })?;
        let issuer = issuer.trim_end_matches('/');
        let url = format!("{issuer}/.well-known/openid-configuration");
        let build = || std::future::ready(Ok::<_, std::convert::Infallible>(http.get(&url)));
        let response = send(retries, Resend::Idempotent, build, &url).await?;
        if !response.status().is_success() {
            return Err(AuthError::Discovery {
                issuer: issuer.to_owned(),
                message: format!("{url} answered HTTP {}", response.status()),
            });
        }
        let body = read_document(response, &url).await?;
        let metadata: ProviderMetadata =
            serde_json::from_slice(&body).map_err(|e| AuthError::Discovery {
                issuer: issuer.to_owned(),
                message: format!("{url} is not a discovery document: {e}"),
            })?;
        if metadata.issuer.trim_end_matches('/') != issuer {
            return Err(AuthError::Discovery {
                issuer: issuer.to_owned(),
                message: format!("the document names another issuer, {}", metadata.issuer),
            });
        }
        if !metadata.code_challenge_methods_supported.is_empty()
            && !metadata
                .code_challenge_methods_supported
                .iter()
                .any(|m| m == "S256")
        {
            return Err(AuthError::Discovery {
                issuer: issuer.to_owned(),
                message: "the provider does not support PKCE with S256".into(),
            });
        }
        Ok(OidcClient {
            metadata,
            client_id: client_id.to_owned(),
            http,
            retries,
        })
    }

    /// The authorization request URL (RFC 6749 §4.1.1 + PKCE + OIDC `nonce`, and the
    /// step-up parameters).
    pub fn authorization_url(
        &self,
        params: &AuthorizationParams,
        redirect_uri: &str,
        pkce: &Pkce,
        state: &str,
        nonce: &str,
    ) -> Result<Url, AuthError> {
        let mut url = Url::parse(&self.metadata.authorization_endpoint).map_err(|e| {
            AuthError::Discovery {
                issuer: self.metadata.issuer.clone(),
                message: format!("bad authorization_endpoint: {e}"),
            }
        })?;
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("response_type", "code")
                .append_pair("client_id", &self.client_id)
                .append_pair("redirect_uri", redirect_uri)
                .append_pair("scope", params.scope())
                .append_pair("state", state)
                .append_pair("nonce", nonce)
                .append_pair("code_challenge", &pkce.challenge)
                .append_pair("code_challenge_method", "S256");
            if let Some(resource) = &params.resource {
                query.append_pair("resource", resource);
            }
            if let Some(acr_values) = &params.acr_values {
                query.append_pair("acr_values", acr_values);
            }
            if let Some(max_age) = params.max_age {
                query.append_pair("max_age", &max_age.to_string());
            }
        }
        Ok(url)
    }

    /// The authorization code flow with PKCE on a loopback redirect: binds `127.0.0.1:0`,
    /// tells `notify` the URL to open (and opens it with `open_browser`, if given), waits
    /// for the redirect, checks `state`, exchanges the code with the verifier, checks the
    /// ID token's `nonce`.
    pub async fn login_with_browser(
        &self,
        params: &AuthorizationParams,
        notify: Notify<'_>,
        open_browser: Option<&(dyn Fn(&str) -> bool + Sync)>,
    ) -> Result<TokenSet, AuthError> {
        let loopback = Loopback::bind().await?;
        let redirect_uri = loopback.redirect_uri();
        let pkce = Pkce::new()?;
        let state = random_token(16)?;
        let nonce = random_token(16)?;
        let url = self.authorization_url(params, &redirect_uri, &pkce, &state, &nonce)?;
        notify(&format!(
            "To log in, open this URL in a browser:\n\n    {url}\n"
        ));
        if let Some(open) = open_browser
            && !open(url.as_str())
        {
            notify("(could not open a browser: open the URL above yourself)");
        }
        let callback = loopback.wait(&state, LOGIN_TIMEOUT).await?;
        let tokens = self
            .token_request(&[
                ("grant_type", "authorization_code"),
                ("code", callback.code.expose()),
                ("redirect_uri", &redirect_uri),
                ("client_id", &self.client_id),
                ("code_verifier", &pkce.verifier),
            ])
            .await?;
        self.check_id_token(&tokens, Some(&nonce))?;
        Ok(tokens)
    }

    /// The device authorization grant (RFC 8628): tells `notify` where to go and which code
    /// to enter, then polls the token endpoint.
    pub async fn login_with_device(
        &self,
        params: &AuthorizationParams,
        notify: Notify<'_>,
    ) -> Result<TokenSet, AuthError> {
        let endpoint = self
            .metadata
            .device_authorization_endpoint
            .as_deref()
            .ok_or_else(|| AuthError::DeviceFlowUnsupported {
                issuer: self.metadata.issuer.clone(),
            })?;
        let mut form = vec![
            ("client_id", self.client_id.clone()),
            ("scope", params.scope().to_owned()),
        ];
        if let Some(resource) = &params.resource {
            form.push(("resource", resource.clone()));
        }
        if let Some(acr_values) = &params.acr_values {
            form.push(("acr_values", acr_values.clone()));
        }
        if let Some(max_age) = params.max_age {
            form.push(("max_age", max_age.to_string()));
        }
        let answer = self.post_form(endpoint, &form).await?;
        let device_code = answer["device_code"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let user_code = answer["user_code"].as_str().unwrap_or_default();
        let verification_uri = answer["verification_uri"].as_str().unwrap_or_default();
        if device_code.is_empty() || user_code.is_empty() || verification_uri.is_empty() {
            return Err(AuthError::Protocol {
                url: endpoint.to_owned(),
                message: "the device authorization answer lacks device_code, user_code or verification_uri".into(),
            });
        }
        notify(&format!(
            "To log in, open {verification_uri} and enter the code {user_code}"
        ));
        let mut interval = Duration::from_secs(answer["interval"].as_u64().unwrap_or(5).max(1));
        let deadline = tokio::time::Instant::now()
            + Duration::from_secs(answer["expires_in"].as_u64().unwrap_or(600)).min(LOGIN_TIMEOUT);
        loop {
            tokio::time::sleep(interval).await;
            match self
                .token_request(&[
                    ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                    ("device_code", &device_code),
                    ("client_id", &self.client_id),
                ])
                .await
            {
                Ok(tokens) => {
                    self.check_id_token(&tokens, None)?;
                    return Ok(tokens);
                }
                Err(AuthError::Provider { error, .. }) if error == "authorization_pending" => {}
                Err(AuthError::Provider { error, .. }) if error == "slow_down" => {
                    interval += Duration::from_secs(5);
                }
                Err(other) => return Err(other),
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(AuthError::Timeout {
                    what: "the device approval".into(),
                });
            }
        }
    }

    /// A new access token from a refresh token.
    pub async fn refresh(&self, refresh_token: &Secret<String>) -> Result<TokenSet, AuthError> {
        self.token_request(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token.expose()),
            ("client_id", &self.client_id),
        ])
        .await
    }

    async fn token_request(&self, form: &[(&str, &str)]) -> Result<TokenSet, AuthError> {
        let answer = self.post_form(&self.metadata.token_endpoint, form).await?;
        let access_token = answer["access_token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .ok_or_else(|| AuthError::Protocol {
                url: self.metadata.token_endpoint.clone(),
                message: "the token answer has no access_token".into(),
            })?;
        let secret = |name: &str| answer[name].as_str().map(|t| Secret::new(t.to_owned()));
        Ok(TokenSet {
            access_token: Secret::new(access_token.to_owned()),
            refresh_token: secret("refresh_token"),
            id_token: secret("id_token"),
            expires_at: answer["expires_in"].as_u64().map(|s| now() + s),
        })
    }

    /// A form POST; an OAuth error answer becomes [`AuthError::Provider`].
    async fn post_form<K: serde::Serialize, V: serde::Serialize>(
        &self,
        url: &str,
        form: &[(K, V)],
    ) -> Result<Value, AuthError> {
        // A code or a refresh token may be spent once: sent again only when it never
        // reached the provider.
        let build = || {
            std::future::ready(Ok::<_, std::convert::Infallible>(
                self.http
                    .post(url)
                    .header(reqwest::header::ACCEPT, "application/json")
                    .form(form),
            ))
        };
        let response = send(self.retries, Resend::Unsent, build, url).await?;
        let status = response.status();
        let body = read_document(response, url).await?;
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if status.is_success() {
            return Ok(body);
        }
        match body["error"].as_str() {
            Some(error) => Err(AuthError::Provider {
                url: url.to_owned(),
                error: error.to_owned(),
                description: body["error_description"].as_str().map(str::to_owned),
            }),
            None => Err(AuthError::Http {
                url: url.to_owned(),
                message: format!("HTTP {status}"),
            }),
        }
    }

    /// The ID token came straight from the token endpoint (OIDC Core §3.1.3.7: the TLS
    /// channel stands in for its signature); its `iss`, `aud` and `nonce` must match.
    fn check_id_token(&self, tokens: &TokenSet, nonce: Option<&str>) -> Result<(), AuthError> {
        let Some(id_token) = &tokens.id_token else {
            return match nonce {
                // An authorization code flow with `openid` must return one.
                Some(_) => Err(AuthError::IdToken(
                    "the provider returned no ID token".into(),
                )),
                None => Ok(()),
            };
        };
        let claims = jwt_claims(id_token.expose())
            .ok_or_else(|| AuthError::IdToken("the ID token is not a JWT".into()))?;
        if claims["iss"].as_str().map(|i| i.trim_end_matches('/'))
            != Some(self.metadata.issuer.trim_end_matches('/'))
        {
            return Err(AuthError::IdToken(format!(
                "the ID token's issuer is {}, not {}",
                claims["iss"], self.metadata.issuer
            )));
        }
        let audience_ok = match &claims["aud"] {
            Value::String(aud) => *aud == self.client_id,
            Value::Array(auds) => auds.iter().any(|a| a == self.client_id.as_str()),
            _ => false,
        };
        if !audience_ok {
            return Err(AuthError::IdToken(format!(
                "the ID token is not for the client {}",
                self.client_id
            )));
        }
        if let Some(nonce) = nonce
            && claims["nonce"].as_str() != Some(nonce)
        {
            return Err(AuthError::IdToken(
                "the ID token's nonce is not the one sent: the login may have been replayed".into(),
            ));
        }
        Ok(())
    }
}

/// A provider's answer, read up to [`stone_http::MAX_DOCUMENT`] bytes.
async fn read_document(response: reqwest::Response, url: &str) -> Result<Vec<u8>, AuthError> {
    match stone_http::read_capped(response, stone_http::MAX_DOCUMENT).await {
        Ok(body) => Ok(body),
        Err(stone_http::Capped::Failed(e)) => Err(http_error(url, &e)),
        Err(stone_http::Capped::TooLarge) => Err(AuthError::Http {
            url: url.to_owned(),
            message: format!(
                "the answer is larger than {}, stone's limit for a provider's document: refused unread",
                stone_http::size_in_words(stone_http::MAX_DOCUMENT)
            ),
        }),
    }
}

/// A request through [`stone_http::retry::send`]; retries are logged (debug), the last
/// failure becomes [`AuthError::Http`].
async fn send<F, Fut>(
    retries: u32,
    resend: Resend,
    build: F,
    url: &str,
) -> Result<reqwest::Response, AuthError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<reqwest::RequestBuilder, std::convert::Infallible>>,
{
    match retry::send(retries, resend, build, |r| {
        tracing::debug!("{url}: {} — retrying in {:.1?}", r.reason, r.wait)
    })
    .await
    {
        Ok(response) => Ok(response),
        Err(SendError::Transport(e)) => Err(http_error(url, &e)),
        Err(SendError::Build(never)) => match never {},
    }
}

fn http_error(url: &str, e: &reqwest::Error) -> AuthError {
    AuthError::Http {
        url: url.to_owned(),
        message: stone_http::describe(e),
    }
}

/// The claims of a JWT, without checking its signature (the server checks it; the client
/// only reads what it was given to show it and to know when it expires).
pub fn jwt_claims(token: &str) -> Option<Value> {
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Unix seconds.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}
