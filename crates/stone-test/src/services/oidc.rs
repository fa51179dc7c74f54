//! A real OpenID provider (npm `oidc-provider`, configured by `assets/oidc-provider.mjs`)
//! and a form driver that logs in through it the way a browser would.
//!
//! The provider offers a public client for the CLI (no secret, PKCE S256 required,
//! loopback redirect URIs on any port), refresh tokens, the device flow, configurable
//! `acr_values` (a request whose `acr_values` the session has not reached prompts a new
//! login: step-up), and JWT access tokens for one resource (audience) carrying `roles`,
//! `acr`, `amr` and `auth_time`.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use url::Url;

use super::http::{HttpResponse, agent, form_encode, send};
use super::process::{ServiceProcess, free_port, start_with_retries};
use super::random_bytes;
use crate::tools;

/// The ACR of a password login (the first configured by default).
pub const ACR_PASSWORD: &str = "urn:stone:acr:password";
/// The ACR of a login with a second factor (what a step-up asks for by default).
pub const ACR_MFA: &str = "urn:stone:acr:mfa";

/// A user of the provider.
#[derive(Debug, Clone)]
pub struct OidcUser {
    /// The subject, also the login name in the form.
    pub sub: String,
    pub password: String,
    /// The custom `roles` claim (access tokens always; ID token and userinfo with the
    /// `roles` scope).
    pub roles: Vec<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    /// The ACRs this user can reach; `None`: every configured one.
    pub acr_values: Option<Vec<String>>,
}

impl OidcUser {
    pub fn new(sub: &str, password: &str) -> Self {
        OidcUser {
            sub: sub.to_owned(),
            password: password.to_owned(),
            roles: Vec::new(),
            name: None,
            email: None,
            acr_values: None,
        }
    }

    pub fn with_roles(mut self, roles: &[&str]) -> Self {
        self.roles = roles.iter().map(|r| (*r).to_owned()).collect();
        self
    }

    pub fn with_acr_values(mut self, acr_values: &[&str]) -> Self {
        self.acr_values = Some(acr_values.iter().map(|a| (*a).to_owned()).collect());
        self
    }

    /// The credentials a browser would type for this user.
    pub fn credentials(&self) -> Credentials {
        Credentials::new(&self.sub, &self.password)
    }
}

/// How the provider is configured.
#[derive(Debug, Clone)]
pub struct OidcConfig {
    /// The CLI's public client (`token_endpoint_auth_method: none`).
    pub client_id: String,
    /// Registered loopback redirect URIs; any port matches (RFC 8252 §7.3), the path must.
    pub redirect_uris: Vec<String>,
    /// The resource indicator (RFC 8707) and audience of the JWT access tokens; used when
    /// a request names none.
    pub resource: String,
    /// Scopes of that resource server.
    pub scopes: Vec<String>,
    /// ACRs offered (the first is what a plain login reaches).
    pub acr_values: Vec<String>,
    pub access_token_ttl: u64,
    pub refresh_token_ttl: u64,
    /// RFC 8628 device authorization grant.
    pub device_flow: bool,
    pub users: Vec<OidcUser>,
}

impl Default for OidcConfig {
    fn default() -> Self {
        OidcConfig {
            client_id: "stone-cli".to_owned(),
            redirect_uris: vec![
                "http://127.0.0.1/callback".to_owned(),
                "http://[::1]/callback".to_owned(),
            ],
            resource: "https://stone.test/api".to_owned(),
            scopes: vec!["push".to_owned(), "read".to_owned()],
            acr_values: vec![ACR_PASSWORD.to_owned(), ACR_MFA.to_owned()],
            access_token_ttl: 300,
            refresh_token_ttl: 86_400,
            device_flow: true,
            users: Vec::new(),
        }
    }
}

impl OidcConfig {
    pub fn with_user(mut self, user: OidcUser) -> Self {
        self.users.push(user);
        self
    }

    fn to_json(&self, port: u16) -> Value {
        json!({
            "port": port,
            "issuer": format!("http://127.0.0.1:{port}"),
            "client_id": self.client_id,
            "redirect_uris": self.redirect_uris,
            "resource": self.resource,
            "scopes": self.scopes,
            "acr_values": self.acr_values,
            "access_token_ttl": self.access_token_ttl,
            "refresh_token_ttl": self.refresh_token_ttl,
            "device_flow": self.device_flow,
            "users": self.users.iter().map(|u| {
                let mut user = json!({ "sub": u.sub, "password": u.password, "roles": u.roles });
                if let Some(name) = &u.name { user["name"] = json!(name); }
                if let Some(email) = &u.email { user["email"] = json!(email); }
                if let Some(acrs) = &u.acr_values { user["acr_values"] = json!(acrs); }
                user
            }).collect::<Vec<_>>(),
        })
    }
}

/// A running OpenID provider on `http://127.0.0.1:<port>`.
pub struct OidcProvider {
    issuer: String,
    config: OidcConfig,
    discovery: Value,
    agent: ureq::Agent,
    process: ServiceProcess,
}

impl OidcProvider {
    /// Starts the provider and returns once its discovery document answers.
    pub fn start(config: OidcConfig) -> OidcProvider {
        start_with_retries("OpenID provider (oidc-provider)", || {
            Self::try_start(&config)
        })
    }

    fn try_start(config: &OidcConfig) -> Result<OidcProvider, String> {
        let node = tools::node();
        let modules = tools::oidc_provider_dir().join("node_modules");
        let script = tools::asset("oidc-provider.mjs");
        let dir = ServiceProcess::temp_dir("oidc");
        let port = free_port();
        let config_path = dir.path().join("config.json");
        std::fs::write(&config_path, config.to_json(port).to_string())
            .expect("cannot write the provider config");
        let mut command = Command::new(node);
        command
            .arg(script)
            .arg("--config")
            .arg(&config_path)
            .arg("--node-modules")
            .arg(&modules)
            .env("NODE_ENV", "test");
        let mut process = ServiceProcess::spawn("oidc-provider", command, dir);
        let issuer = format!("http://127.0.0.1:{port}");
        let agent = agent();
        let discovery_url = format!("{issuer}/.well-known/openid-configuration");
        let mut discovery = Value::Null;
        // Node loads oidc-provider's modules in a few hundred ms; twice in CI a provider
        // never listened (no error in its log: 30 s, then 90 s). A hung start is retried
        // with a fresh process (start_with_retries); the script logs its start-up steps.
        process.wait_ready(Duration::from_secs(45), || {
            let response = send(agent.get(&discovery_url).call())?;
            if response.status != 200 {
                return Err(format!("HTTP {}: {}", response.status, response.text()));
            }
            discovery = response.json()?;
            Ok(())
        })?;
        Ok(OidcProvider {
            issuer,
            config: config.clone(),
            discovery,
            agent,
            process,
        })
    }

    /// The issuer, `http://127.0.0.1:<port>` (no trailing slash).
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn config(&self) -> &OidcConfig {
        &self.config
    }

    /// The discovery document, fetched anew.
    pub fn discovery(&self) -> Value {
        let url = format!("{}/.well-known/openid-configuration", self.issuer);
        self.get_json(&url)
    }

    /// The provider's JWKS (public keys of its tokens).
    pub fn jwks(&self) -> Value {
        let url = self.endpoint("jwks_uri");
        self.get_json(&url)
    }

    fn get_json(&self, url: &str) -> Value {
        let response =
            send(self.agent.get(url).call()).unwrap_or_else(|e| panic!("GET {url}: {e}"));
        assert_eq!(
            response.status,
            200,
            "GET {url}: HTTP {}: {}",
            response.status,
            response.text()
        );
        response.json().unwrap_or_else(|e| panic!("{e}"))
    }

    /// An endpoint from discovery, such as `token_endpoint`.
    pub fn endpoint(&self, name: &str) -> String {
        self.discovery[name]
            .as_str()
            .unwrap_or_else(|| panic!("discovery has no {name}: {}", self.discovery))
            .to_owned()
    }

    /// The authorization URL a client would open for `request`.
    pub fn authorization_url(&self, request: &AuthorizationRequest) -> String {
        let challenge = request.pkce.as_ref().map(|p| p.challenge.clone());
        let mut pairs: Vec<(&str, &str)> = vec![
            ("response_type", "code"),
            ("client_id", &self.config.client_id),
            ("redirect_uri", &request.redirect_uri),
            ("scope", &request.scope),
            ("state", &request.state),
        ];
        if let Some(challenge) = &challenge {
            pairs.push(("code_challenge", challenge));
            pairs.push(("code_challenge_method", "S256"));
        }
        let max_age = request.max_age.map(|m| m.to_string());
        if let Some(acr_values) = &request.acr_values {
            pairs.push(("acr_values", acr_values));
        }
        if let Some(max_age) = &max_age {
            pairs.push(("max_age", max_age));
        }
        if let Some(resource) = &request.resource {
            pairs.push(("resource", resource));
        }
        format!(
            "{}?{}",
            self.endpoint("authorization_endpoint"),
            form_encode(pairs)
        )
    }

    /// POSTs a form to the token endpoint as the public client.
    pub fn token_request(&self, params: &[(&str, &str)]) -> Result<Value, TokenError> {
        let mut pairs = vec![("client_id", self.config.client_id.as_str())];
        pairs.extend_from_slice(params);
        let url = self.endpoint("token_endpoint");
        let response = send(
            self.agent
                .post(&url)
                .header("content-type", "application/x-www-form-urlencoded")
                .send(form_encode(pairs)),
        )
        .unwrap_or_else(|e| panic!("POST {url}: {e}"));
        let body = response
            .json()
            .unwrap_or_else(|_| json!({ "raw": response.text() }));
        if response.status == 200 {
            Ok(body)
        } else {
            Err(TokenError {
                status: response.status,
                body,
            })
        }
    }

    /// Exchanges an authorization code (with its PKCE verifier) for tokens.
    pub fn exchange_code(
        &self,
        code: &str,
        redirect_uri: &str,
        code_verifier: &str,
    ) -> Result<Value, TokenError> {
        self.token_request(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", code_verifier),
        ])
    }

    /// Uses a refresh token.
    pub fn refresh(&self, refresh_token: &str) -> Result<Value, TokenError> {
        self.token_request(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
        ])
    }

    /// A whole authorization-code + PKCE login of `user` in a fresh browser: the token
    /// response (`access_token`, `refresh_token`, `id_token`, ...).
    pub fn login(&self, user: &OidcUser, request: &AuthorizationRequest) -> Value {
        let redirect = Browser::new()
            .authorize(&self.authorization_url(request), &user.credentials())
            .unwrap_or_else(|e| panic!("login of {} failed: {e}\n{}", user.sub, self.log_tail(20)));
        let code = redirect
            .code()
            .unwrap_or_else(|e| panic!("login of {} failed: {e}", user.sub));
        assert_eq!(
            redirect.state.as_deref(),
            Some(request.state.as_str()),
            "state mismatch"
        );
        let verifier = request.pkce.as_ref().map_or("", |p| p.verifier.as_str());
        self.exchange_code(&code, &request.redirect_uri, verifier)
            .unwrap_or_else(|e| panic!("code exchange for {} failed: {e}", user.sub))
    }

    /// Starts a device authorization (RFC 8628): `device_code`, `user_code`,
    /// `verification_uri`, `verification_uri_complete`, ...
    pub fn device_authorization(&self, scope: &str) -> Value {
        let url = self.endpoint("device_authorization_endpoint");
        let body = form_encode([
            ("client_id", self.config.client_id.as_str()),
            ("scope", scope),
        ]);
        let response = send(
            self.agent
                .post(&url)
                .header("content-type", "application/x-www-form-urlencoded")
                .send(body),
        )
        .unwrap_or_else(|e| panic!("POST {url}: {e}"));
        assert_eq!(
            response.status,
            200,
            "device authorization: HTTP {}: {}",
            response.status,
            response.text()
        );
        response.json().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The last lines of the provider's output.
    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }

    /// Stops the provider now (dropping it does the same).
    pub fn stop(&mut self) {
        self.process.stop();
    }
}

/// An error answer of the token endpoint.
#[derive(Debug, Clone)]
pub struct TokenError {
    pub status: u16,
    /// The JSON error body (`error`, `error_description`).
    pub body: Value,
}

impl TokenError {
    /// The OAuth `error` code, such as `invalid_grant`.
    pub fn error(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "token endpoint answered HTTP {}: {}",
            self.status, self.body
        )
    }
}

/// A PKCE pair (RFC 7636, S256).
#[derive(Debug, Clone)]
pub struct Pkce {
    pub verifier: String,
    pub challenge: String,
}

impl Pkce {
    pub fn new() -> Self {
        let verifier = URL_SAFE_NO_PAD.encode(random_bytes(32));
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        Pkce {
            verifier,
            challenge,
        }
    }
}

impl Default for Pkce {
    fn default() -> Self {
        Self::new()
    }
}

/// What a test client puts in an authorization request.
#[derive(Debug, Clone)]
pub struct AuthorizationRequest {
    /// A loopback URI, any port: `http://127.0.0.1:<port>/callback`.
    pub redirect_uri: String,
    pub scope: String,
    pub state: String,
    /// `None` sends no PKCE parameters (the provider must refuse that).
    pub pkce: Option<Pkce>,
    pub acr_values: Option<String>,
    pub max_age: Option<u64>,
    pub resource: Option<String>,
}

impl AuthorizationRequest {
    /// `openid roles offline_access` with a fresh state and PKCE pair, redirecting to
    /// `http://127.0.0.1:<port>/callback`.
    pub fn new(port: u16) -> Self {
        AuthorizationRequest {
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            scope: "openid roles offline_access".to_owned(),
            state: URL_SAFE_NO_PAD.encode(random_bytes(16)),
            pkce: Some(Pkce::new()),
            acr_values: None,
            max_age: None,
            resource: None,
        }
    }
}

/// What the browser types and clicks.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub login: String,
    pub password: String,
    /// Ask the login form for this ACR (as if the user completed that factor).
    pub acr: Option<String>,
    /// Grant consent (`true`) or press Deny.
    pub consent: bool,
}

impl Credentials {
    pub fn new(login: &str, password: &str) -> Self {
        Credentials {
            login: login.to_owned(),
            password: password.to_owned(),
            acr: None,
            consent: true,
        }
    }

    pub fn with_acr(mut self, acr: &str) -> Self {
        self.acr = Some(acr.to_owned());
        self
    }

    pub fn denying_consent(mut self) -> Self {
        self.consent = false;
        self
    }
}

/// Where the provider finally sent the browser: the client's redirect URI with `code`
/// and `state` (or `error`), not yet requested.
#[derive(Debug, Clone)]
pub struct AuthorizationRedirect {
    pub url: String,
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
    /// RFC 9207 `iss`.
    pub iss: Option<String>,
}

impl AuthorizationRedirect {
    fn parse(url: Url) -> Self {
        let params: BTreeMap<String, String> = url.query_pairs().into_owned().collect();
        AuthorizationRedirect {
            url: url.to_string(),
            code: params.get("code").cloned(),
            state: params.get("state").cloned(),
            error: params.get("error").cloned(),
            error_description: params.get("error_description").cloned(),
            iss: params.get("iss").cloned(),
        }
    }

    /// The code, or the provider's error.
    pub fn code(&self) -> Result<String, String> {
        match (&self.code, &self.error) {
            (Some(code), _) => Ok(code.clone()),
            (None, Some(error)) => Err(format!(
                "provider answered {error}: {}",
                self.error_description.as_deref().unwrap_or("")
            )),
            (None, None) => Err(format!("redirect without code or error: {}", self.url)),
        }
    }

    /// Makes the request a browser would: GET the redirect URI, so a client listening on
    /// the loopback port (such as `stone login`) receives the code. Its response.
    pub fn deliver(&self) -> Result<HttpResponse, String> {
        send(agent().get(&self.url).call())
    }
}

/// A failure of the browser's walk through the provider's pages.
#[derive(Debug, Clone)]
pub struct BrowserError {
    pub message: String,
    /// The page (URL, status, text) the walk stopped at.
    pub url: String,
    pub status: u16,
    pub body: String,
}

impl std::fmt::Display for BrowserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (at {}, HTTP {}): {}",
            self.message,
            self.url,
            self.status,
            page_summary(&self.body)
        )
    }
}

/// A browser without JavaScript: follows redirects, keeps cookies, fills and submits the
/// provider's HTML forms. One `Browser` is one user agent: its cookies hold the
/// provider's session, so a second authorization may need no login.
pub struct Browser {
    agent: ureq::Agent,
    /// (name, path) → value.
    cookies: BTreeMap<(String, String), String>,
}

impl Default for Browser {
    fn default() -> Self {
        Self::new()
    }
}

const MAX_STEPS: usize = 30;

impl Browser {
    pub fn new() -> Self {
        Browser {
            agent: agent(),
            cookies: BTreeMap::new(),
        }
    }

    /// Opens `authorization_url` and walks through login and consent until the provider
    /// redirects away from itself (to the client's redirect URI), which is not requested.
    pub fn authorize(
        &mut self,
        authorization_url: &str,
        credentials: &Credentials,
    ) -> Result<AuthorizationRedirect, BrowserError> {
        let start = Url::parse(authorization_url).map_err(|e| BrowserError {
            message: format!("bad authorization URL: {e}"),
            url: authorization_url.to_owned(),
            status: 0,
            body: String::new(),
        })?;
        match self.walk(start, credentials, None)? {
            Walked::Redirect(url) => Ok(AuthorizationRedirect::parse(url)),
            Walked::Page(url, page) => Err(BrowserError {
                message: "the provider showed a page instead of redirecting to the client"
                    .to_owned(),
                url: url.to_string(),
                status: page.status,
                body: page.text(),
            }),
        }
    }

    /// Approves a device authorization (RFC 8628) at `verification_uri` with `user_code`:
    /// enters the code, confirms, logs in, consents. Ok once the provider says so.
    pub fn approve_device(
        &mut self,
        verification_uri: &str,
        user_code: &str,
        credentials: &Credentials,
    ) -> Result<(), BrowserError> {
        let start = Url::parse(verification_uri).map_err(|e| BrowserError {
            message: format!("bad verification URI: {e}"),
            url: verification_uri.to_owned(),
            status: 0,
            body: String::new(),
        })?;
        match self.walk(start, credentials, Some(user_code))? {
            Walked::Page(_, page) if page.text().contains("Success") => Ok(()),
            Walked::Page(url, page) => Err(BrowserError {
                message: "the device flow did not end on the success page".to_owned(),
                url: url.to_string(),
                status: page.status,
                body: page.text(),
            }),
            Walked::Redirect(url) => Err(BrowserError {
                message: "the device flow redirected away from the provider".to_owned(),
                url: url.to_string(),
                status: 0,
                body: String::new(),
            }),
        }
    }

    fn walk(
        &mut self,
        start: Url,
        credentials: &Credentials,
        user_code: Option<&str>,
    ) -> Result<Walked, BrowserError> {
        let origin = start.origin();
        let mut request = (start, None::<String>);
        let mut logins = 0;
        for _ in 0..MAX_STEPS {
            let (url, form) = request;
            let response = self.fetch(&url, form.as_deref())?;
            if (300..400).contains(&response.status) {
                let location = response
                    .header("location")
                    .ok_or_else(|| error("redirect without Location", &url, &response))?;
                let next = url.join(location).map_err(|e| {
                    error(&format!("bad Location {location}: {e}"), &url, &response)
                })?;
                if next.origin() != origin {
                    return Ok(Walked::Redirect(next));
                }
                request = (next, None);
                continue;
            }
            if response.status != 200 {
                return Err(error("the provider answered an error", &url, &response));
            }
            let html = response.text();
            let forms = parse_forms(&html);
            let pick = |pred: &dyn Fn(&Form) -> bool| forms.iter().find(|f| pred(f));
            let submit = if let Some(form) = pick(&|f| f.has("password")) {
                logins += 1;
                if logins > 1 {
                    return Err(error("login refused", &url, &response));
                }
                let mut fields = form.fields.clone();
                set(&mut fields, "login", &credentials.login);
                set(&mut fields, "password", &credentials.password);
                if let Some(acr) = &credentials.acr {
                    set(&mut fields, "acr", acr);
                }
                (form.action.clone(), fields)
            } else if let Some(form) = pick(&|f| f.value("prompt") == Some("consent")) {
                if credentials.consent {
                    (form.action.clone(), form.fields.clone())
                } else {
                    let deny = pick(&|f| f.value("prompt") == Some("abort")).ok_or_else(|| {
                        error("consent page without a Deny form", &url, &response)
                    })?;
                    (deny.action.clone(), deny.fields.clone())
                }
            } else if let Some(form) = pick(&|f| f.has("user_code") && f.value("confirm").is_none())
            {
                let code = user_code
                    .ok_or_else(|| error("asked for a device user code", &url, &response))?;
                if html.contains("class=\"red\"") && html.contains("incorrect") {
                    return Err(error("the user code was refused", &url, &response));
                }
                let mut fields = form.fields.clone();
                set(&mut fields, "user_code", code);
                (form.action.clone(), fields)
            } else if let Some(form) = pick(&|f| f.value("confirm").is_some()) {
                (form.action.clone(), form.fields.clone())
            } else {
                return Ok(Walked::Page(url, response));
            };
            let action = url
                .join(&submit.0)
                .map_err(|e| error(&format!("bad form action: {e}"), &url, &response))?;
            let body = form_encode(submit.1.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            request = (action, Some(body));
        }
        Err(BrowserError {
            message: format!("more than {MAX_STEPS} pages and redirects"),
            url: String::new(),
            status: 0,
            body: String::new(),
        })
    }

    /// GET (or POST a form to) `url` with the cookies that apply; keeps what it sets.
    fn fetch(&mut self, url: &Url, form: Option<&str>) -> Result<HttpResponse, BrowserError> {
        let cookie = self.cookie_header(url.path());
        let result = match form {
            None => {
                let mut request = self.agent.get(url.as_str());
                if let Some(cookie) = &cookie {
                    request = request.header("cookie", cookie);
                }
                send(request.call())
            }
            Some(body) => {
                let mut request = self
                    .agent
                    .post(url.as_str())
                    .header("content-type", "application/x-www-form-urlencoded");
                if let Some(cookie) = &cookie {
                    request = request.header("cookie", cookie);
                }
                send(request.send(body))
            }
        };
        let response = result.map_err(|e| BrowserError {
            message: e,
            url: url.to_string(),
            status: 0,
            body: String::new(),
        })?;
        for header in response.headers_named("set-cookie") {
            self.store_cookie(header, url.path());
        }
        Ok(response)
    }

    fn cookie_header(&self, path: &str) -> Option<String> {
        let pairs: Vec<String> = self
            .cookies
            .iter()
            .filter(|((_, cookie_path), _)| path_matches(path, cookie_path))
            .map(|((name, _), value)| format!("{name}={value}"))
            .collect();
        (!pairs.is_empty()).then(|| pairs.join("; "))
    }

    fn store_cookie(&mut self, header: &str, request_path: &str) {
        let mut parts = header.split(';');
        let Some((name, value)) = parts.next().and_then(|p| p.split_once('=')) else {
            return;
        };
        let mut path = default_path(request_path);
        let mut expired = false;
        for attribute in parts {
            let (key, val) = attribute.split_once('=').unwrap_or((attribute, ""));
            match key.trim().to_ascii_lowercase().as_str() {
                "path" if val.trim().starts_with('/') => path = val.trim().to_owned(),
                "max-age" => expired |= val.trim().parse::<i64>().is_ok_and(|s| s <= 0),
                "expires" => expired |= val.contains("1970"),
                _ => {}
            }
        }
        let key = (name.trim().to_owned(), path);
        if expired {
            self.cookies.remove(&key);
        } else {
            self.cookies.insert(key, value.trim().to_owned());
        }
    }
}

enum Walked {
    Redirect(Url),
    Page(Url, HttpResponse),
}

fn error(message: &str, url: &Url, response: &HttpResponse) -> BrowserError {
    let body = response.text();
    let detail = extract_class(&body, "error").or_else(|| extract_class(&body, "red"));
    BrowserError {
        message: match detail {
            Some(d) => format!("{message}: {d}"),
            None => message.to_owned(),
        },
        url: url.to_string(),
        status: response.status,
        body,
    }
}

/// RFC 6265 §5.1.4 path match.
fn path_matches(request: &str, cookie: &str) -> bool {
    request == cookie
        || (request.starts_with(cookie)
            && (cookie.ends_with('/') || request[cookie.len()..].starts_with('/')))
}

/// RFC 6265 §5.1.4 default path.
fn default_path(request: &str) -> String {
    match request.rfind('/') {
        Some(0) | None => "/".to_owned(),
        Some(i) => request[..i].to_owned(),
    }
}

/// One HTML form: its action and its fields (inputs with a name, in order).
#[derive(Debug, Clone)]
struct Form {
    action: String,
    fields: Vec<(String, String)>,
}

impl Form {
    fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn set(fields: &mut Vec<(String, String)>, name: &str, value: &str) {
    match fields.iter_mut().find(|(n, _)| n == name) {
        Some(field) => field.1 = value.to_owned(),
        None => fields.push((name.to_owned(), value.to_owned())),
    }
}

/// The forms of a page: enough HTML for the provider's own pages (`<form action>`,
/// `<input name value>`; buttons carry no values here).
fn parse_forms(html: &str) -> Vec<Form> {
    let mut forms = Vec::new();
    let mut rest = html;
    while let Some(start) = find_tag(rest, "form") {
        let (attributes, after) = tag_attributes(&rest[start..]);
        let end = after.find("</form").unwrap_or(after.len());
        let inner = &after[..end];
        let mut fields = Vec::new();
        let mut inputs = inner;
        while let Some(at) = find_tag(inputs, "input") {
            let (input, next) = tag_attributes(&inputs[at..]);
            if let Some(name) = input.get("name") {
                fields.push((
                    name.clone(),
                    input.get("value").cloned().unwrap_or_default(),
                ));
            }
            inputs = next;
        }
        forms.push(Form {
            action: attributes.get("action").cloned().unwrap_or_default(),
            fields,
        });
        rest = &after[end..];
    }
    forms
}

/// The byte offset of the next `<tag` (followed by whitespace, `>` or `/`).
fn find_tag(html: &str, tag: &str) -> Option<usize> {
    let lower = html.to_ascii_lowercase();
    let needle = format!("<{tag}");
    let mut from = 0;
    while let Some(i) = lower[from..].find(&needle) {
        let at = from + i;
        let next = lower[at + needle.len()..].chars().next();
        if matches!(next, Some(c) if c.is_whitespace() || c == '>' || c == '/') {
            return Some(at);
        }
        from = at + needle.len();
    }
    None
}

/// The attributes of the tag at the start of `html`, and the text after it.
fn tag_attributes(html: &str) -> (BTreeMap<String, String>, &str) {
    let mut attributes = BTreeMap::new();
    let bytes = html.as_bytes();
    let mut i = 1;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
        i += 1;
    }
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b'/') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b'>' {
            break;
        }
        let name_start = i;
        while i < bytes.len()
            && !bytes[i].is_ascii_whitespace()
            && !matches!(bytes[i], b'=' | b'>' | b'/')
        {
            i += 1;
        }
        let name = html[name_start..i].to_ascii_lowercase();
        let mut value = String::new();
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') {
                let quote = bytes[i];
                let value_start = i + 1;
                i = value_start;
                while i < bytes.len() && bytes[i] != quote {
                    i += 1;
                }
                value = decode_entities(&html[value_start..i.min(bytes.len())]);
                i += 1;
            } else {
                let value_start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'>' {
                    i += 1;
                }
                value = decode_entities(&html[value_start..i]);
            }
        }
        attributes.entry(name).or_insert(value);
    }
    (attributes, &html[(i + 1).min(html.len())..])
}

fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';').filter(|&e| e <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ if entity.starts_with("#x") || entity.starts_with("#X") => {
                u32::from_str_radix(&entity[2..], 16)
                    .ok()
                    .and_then(char::from_u32)
            }
            _ if entity.starts_with('#') => entity[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of the first element with `class="<class>"`.
fn extract_class(html: &str, class: &str) -> Option<String> {
    let marker = format!("class=\"{class}\"");
    let at = html.find(&marker)?;
    let after = &html[at..];
    let start = after.find('>')? + 1;
    let end = after[start..].find('<')? + start;
    Some(decode_entities(after[start..end].trim()))
}

/// A page's title and error text, for messages.
fn page_summary(html: &str) -> String {
    let title = html.find("<title>").and_then(|s| {
        html[s + 7..]
            .find("</title>")
            .map(|e| html[s + 7..s + 7 + e].trim().to_owned())
    });
    let detail = extract_class(html, "error").or_else(|| extract_class(html, "red"));
    match (title, detail) {
        (Some(t), Some(d)) => format!("page \"{t}\": {d}"),
        (Some(t), None) => format!("page \"{t}\""),
        (None, Some(d)) => d,
        (None, None) => html.chars().take(300).collect(),
    }
}

/// The claims of a JWT, decoded without checking the signature (for assertions).
pub fn decode_jwt_claims(token: &str) -> Value {
    let payload = token
        .split('.')
        .nth(1)
        .unwrap_or_else(|| panic!("not a JWT: {token}"));
    let bytes = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .unwrap_or_else(|e| panic!("JWT payload is not base64url ({e}): {token}"));
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("JWT payload is not JSON ({e}): {token}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_provider_forms() {
        let html = r#"<form id="op.deviceInputForm" novalidate method="post" action="/device">
  <input type="hidden" name="xsrf" value="a&amp;b"/>
  <input
    type="text" name="user_code" placeholder="Enter code" autofocus autocomplete="off"></input>
  </form><FORM action='/x'><input name=confirm value=yes></FORM>"#;
        let forms = parse_forms(html);
        assert_eq!(forms.len(), 2);
        assert_eq!(forms[0].action, "/device");
        assert_eq!(
            forms[0].fields,
            [
                ("xsrf".into(), "a&b".into()),
                ("user_code".into(), String::new())
            ]
        );
        assert_eq!(forms[1].action, "/x");
        assert_eq!(forms[1].value("confirm"), Some("yes"));
    }

    #[test]
    fn cookie_paths() {
        assert!(path_matches("/interaction/abc", "/interaction/abc"));
        assert!(path_matches("/interaction/abc/login", "/interaction/abc"));
        assert!(!path_matches("/interaction/abcd", "/interaction/abc"));
        assert!(path_matches("/auth", "/"));
        assert_eq!(default_path("/auth/x"), "/auth");
        assert_eq!(default_path("/auth"), "/");
    }

    #[test]
    fn pkce_is_s256() {
        let pkce = Pkce::new();
        assert_eq!(pkce.verifier.len(), 43);
        assert_eq!(
            pkce.challenge,
            URL_SAFE_NO_PAD.encode(Sha256::digest(pkce.verifier.as_bytes()))
        );
    }
}
