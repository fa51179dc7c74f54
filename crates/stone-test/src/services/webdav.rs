//! A real WebDAV server (PyPI `wsgidav` on `cheroot`) sharing a temporary directory, for
//! pushes by HTTP PUT.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::json;

use super::http::{agent, send};
use super::process::{ServiceProcess, free_port, start_with_retries};
use crate::tools;

/// A running wsgidav serving `root()` read-write at `/`.
pub struct WebDavServer {
    base_url: String,
    root: PathBuf,
    credentials: Option<(String, String)>,
    process: ServiceProcess,
}

impl WebDavServer {
    /// Anonymous read-write access.
    pub fn start() -> WebDavServer {
        start_with_retries("WebDAV server (wsgidav)", || Self::try_start(None))
    }

    /// HTTP Basic authentication with one user; anything else gets 401.
    pub fn start_with_basic_auth(user: &str, password: &str) -> WebDavServer {
        let credentials = Some((user.to_owned(), password.to_owned()));
        start_with_retries("WebDAV server (wsgidav)", || {
            Self::try_start(credentials.clone())
        })
    }

    fn try_start(credentials: Option<(String, String)>) -> Result<WebDavServer, String> {
        let dir = ServiceProcess::temp_dir("webdav");
        let root = dir.path().join("root");
        std::fs::create_dir(&root).expect("cannot create the WebDAV root");
        let port = free_port();
        let users = match &credentials {
            Some((user, password)) => json!({ "*": { user: { "password": password } } }),
            None => json!({ "*": true }),
        };
        let config = json!({
            "host": "127.0.0.1",
            "port": port,
            "server": "cheroot",
            "provider_mapping": { "/": root.display().to_string() },
            "simple_dc": { "user_mapping": users },
            "http_authenticator": { "accept_basic": true, "accept_digest": false, "default_to_digest": false },
            "verbose": 3,
        });
        let config_path = dir.path().join("wsgidav.json");
        std::fs::write(&config_path, config.to_string()).expect("cannot write the wsgidav config");
        let mut command = Command::new(tools::venv_bin("wsgidav"));
        command.arg("--config").arg(&config_path);
        let mut process = ServiceProcess::spawn("wsgidav", command, dir);

        let base_url = format!("http://127.0.0.1:{port}");
        let authorization = authorization_header(credentials.as_ref());
        let agent = agent();
        process.wait_ready(Duration::from_secs(30), || {
            let mut request = agent.options(&format!("{base_url}/"));
            if let Some(value) = &authorization {
                request = request.header("authorization", value);
            }
            let response = send(request.call())?;
            if response.status == 200 {
                Ok(())
            } else {
                Err(format!("OPTIONS /: HTTP {}", response.status))
            }
        })?;
        Ok(WebDavServer {
            base_url,
            root,
            credentials,
            process,
        })
    }

    /// `http://127.0.0.1:<port>` (the share is at `/`).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The directory served: what a PUT wrote is here.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// (user, password) when started with basic auth.
    pub fn credentials(&self) -> Option<(&str, &str)> {
        self.credentials
            .as_ref()
            .map(|(u, p)| (u.as_str(), p.as_str()))
    }

    /// The `Authorization` header value for the configured user, if any.
    pub fn authorization(&self) -> Option<String> {
        authorization_header(self.credentials.as_ref())
    }

    /// The last lines of the server's output (one line per request).
    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }

    /// Stops the server now (dropping it does the same).
    pub fn stop(&mut self) {
        self.process.stop();
    }
}

fn authorization_header(credentials: Option<&(String, String)>) -> Option<String> {
    credentials
        .map(|(user, password)| format!("Basic {}", STANDARD.encode(format!("{user}:{password}"))))
}
