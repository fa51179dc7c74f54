//! The real `stone-server` binary, started on a free loopback port with its data directory
//! owned by the test (so the server can be killed and started again on the same data).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::process::ServiceProcess;

/// Clears what a `stone-server` (or `stone`) started by a test must not inherit from the
/// test runner: `CI`, `CI_HEAD_REF`, `CI_REF_NAME` (CI sets them) and every `STONE_*`
/// variable, so that a test runs the same inside and outside CI and only what it passes
/// reaches the process. Every launcher of the test crates calls it.
pub fn clean_env(command: &mut Command) {
    command
        .env_remove("CI")
        .env_remove("CI_HEAD_REF")
        .env_remove("CI_REF_NAME");
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(|k| k.starts_with("STONE_")) {
            command.env_remove(key);
        }
    }
}

/// A running `stone-server`.
pub struct StoneServer {
    process: ServiceProcess,
    url: String,
    data_dir: PathBuf,
}

impl StoneServer {
    /// The `stone-server` binary of this build: beside the test binary's `deps/` folder.
    pub fn binary() -> PathBuf {
        let exe = std::env::current_exe().expect("the test binary's path");
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps/<test>");
        let binary = dir.join("stone-server");
        assert!(
            binary.is_file(),
            "stone-server is not built at {}: build it first (`cargo build -p stone-server`; scripts/test does)",
            binary.display()
        );
        binary
    }

    /// Starts the server on `data_dir` (created if needed) with an optional config file's
    /// TOML text, and extra environment variables.
    pub fn start(data_dir: &Path, config: Option<&str>, env: &[(&str, &str)]) -> StoneServer {
        Self::start_binary(&Self::binary(), data_dir, config, env)
    }

    /// [`StoneServer::start`] with another `stone-server` binary (one installed from a
    /// wheel, say).
    pub fn start_binary(
        binary: &Path,
        data_dir: &Path,
        config: Option<&str>,
        env: &[(&str, &str)],
    ) -> StoneServer {
        std::fs::create_dir_all(data_dir).expect("a data dir");
        let dir = ServiceProcess::temp_dir("stone-server");
        let mut command = Command::new(binary);
        command
            .args(["--data-dir"])
            .arg(data_dir)
            .args(["--listen", "127.0.0.1:0"]);
        if let Some(config) = config {
            let path = dir.path().join("server.toml");
            std::fs::write(&path, config).expect("the server config");
            command.arg("--config").arg(path);
        }
        clean_env(&mut command);
        command.env("RUST_LOG", "info");
        for (k, v) in env {
            command.env(k, v);
        }
        let mut process = ServiceProcess::spawn("stone-server", command, dir);
        let mut url = None;
        let log = process.log_path().to_owned();
        let ready = process.wait_ready(Duration::from_secs(30), || {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            let found = text.lines().find_map(|l| {
                l.strip_prefix("stone-server listening on ")
                    .map(|u| u.trim().to_owned())
            });
            let Some(found) = found else {
                return Err("no `listening on` line yet".into());
            };
            let info = super::agent()
                .get(&format!("{found}/v1/info"))
                .call()
                .map_err(|e| format!("GET /v1/info: {e}"))?;
            if info.status().as_u16() != 200 {
                return Err(format!("GET /v1/info answered {}", info.status()));
            }
            url = Some(found);
            Ok(())
        });
        if let Err(e) = ready {
            panic!("{e}");
        }
        StoneServer {
            process,
            url: url.expect("set when ready"),
            data_dir: data_dir.to_owned(),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The push API base URL (`…/v1`), as `stone env add --api` takes it.
    pub fn api(&self) -> String {
        format!("{}/v1", self.url)
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }

    /// The server's process ID.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The server's whole log (stdout and stderr).
    pub fn log_path(&self) -> &Path {
        self.process.log_path()
    }

    /// Kills the server as a crash would (SIGKILL).
    pub fn kill(&mut self) {
        self.process.kill();
    }
}
