//! A plain HTTP file server without WebDAV: Python's own `http.server` (the standard
//! library's, as `python3 -m http.server` runs it). It answers GET and HEAD, and 501 to
//! every other method (PROPFIND, MKCOL, PUT): what the HTTP handler meets when it is
//! pointed at a server that only serves files.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::http::{agent, send};
use super::process::{ServiceProcess, free_port, start_with_retries};
use crate::tools;

/// A running `python -m http.server` serving `root()` at `/`.
pub struct PlainHttpServer {
    base_url: String,
    root: PathBuf,
    process: ServiceProcess,
}

impl PlainHttpServer {
    pub fn start() -> PlainHttpServer {
        start_with_retries("plain HTTP server (python -m http.server)", Self::try_start)
    }

    fn try_start() -> Result<PlainHttpServer, String> {
        let dir = ServiceProcess::temp_dir("plain-http");
        let root = dir.path().join("root");
        std::fs::create_dir(&root).expect("cannot create the served folder");
        let port = free_port();
        let mut command = Command::new(tools::python());
        command
            .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory"])
            .arg(&root)
            .arg(port.to_string());
        let mut process = ServiceProcess::spawn("http.server", command, dir);
        let base_url = format!("http://127.0.0.1:{port}");
        let agent = agent();
        process.wait_ready(Duration::from_secs(30), || {
            let response = send(agent.get(&format!("{base_url}/")).call())?;
            if response.status == 200 {
                Ok(())
            } else {
                Err(format!("GET /: HTTP {}", response.status))
            }
        })?;
        Ok(PlainHttpServer {
            base_url,
            root,
            process,
        })
    }

    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The folder served.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The server's log: one line per request (method, path, status).
    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }
}
