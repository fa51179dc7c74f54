//! External plugins: `stone-plugin-<name>` executables on `PATH` and plugins listed in the
//! config, spoken to with the stone plugin protocol (JSON-RPC 2.0 over stdio, see the
//! `stone-plugin-protocol` crate). Each runs in its own process group with a scrubbed
//! environment (no `STONE_*` variable: never our tokens); every call has a deadline.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use stone_package::program::{self, Program, is_executable};
use stone_plugin_protocol::{
    CanHandleParams, CancelParams, ErrorObject, HostInfo, InitializeParams, InitializeResult, Kind,
    LogLevel, LogParams, Message, PACKAGE_PUSH_HANDLER, PROTOCOL_VERSION, PROTOCOL_VERSIONS,
    ProgressParams, PushParams, method,
};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub mod entry_points;

use crate::handler::BoxFuture;
use crate::{
    PackagePushHandler, ProgressEvent, PushError, PushOptions, PushPackage, PushProgress,
    PushResult,
};

/// The prefix of plugin executables on `PATH`.
pub const EXECUTABLE_PREFIX: &str = "stone-plugin-";
/// The default deadline of a call, and of silence during a push.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a cancelled plugin gets before its process group is killed.
const CANCEL_GRACE: Duration = Duration::from_secs(2);
/// stderr lines kept to explain a failure.
const STDERR_TAIL: usize = 20;

/// Where a plugin was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PluginSource {
    Path,
    Config,
    /// An entry point of the `stone.plugins` group in a Python environment.
    EntryPoint,
}

/// A plugin found, not yet started.
#[derive(Debug, Clone, Serialize)]
pub struct PluginSpec {
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    pub source: PluginSource,
}

impl PluginSpec {
    /// `name (program)`, for messages.
    pub fn describe(&self) -> String {
        format!(
            "`{}` ({})",
            self.name,
            self.command.first().map(String::as_str).unwrap_or("")
        )
    }
}

/// Every plugin: `stone-plugin-<name>` executables on `path` (the first per name wins), then
/// the configured ones (a configured name replaces one found on `PATH`). Sorted by name.
///
/// Only absolute `PATH` entries are searched: a relative one (`.`, an empty entry, `bin`)
/// names a folder of wherever stone runs, so a cloned repository holding
/// `./stone-plugin-x` would otherwise run its code on every push.
pub fn discover(
    path: Option<&OsString>,
    configured: &BTreeMap<String, Vec<String>>,
) -> Vec<PluginSpec> {
    let mut found: BTreeMap<String, PluginSpec> = BTreeMap::new();
    for dir in searched_dirs(path) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let plugin = name.strip_prefix(EXECUTABLE_PREFIX)?.to_owned();
                (!plugin.is_empty() && is_executable(&e.path())).then(|| (plugin, e.path()))
            })
            .collect();
        names.sort();
        for (name, program) in names {
            found.entry(name.clone()).or_insert(PluginSpec {
                name,
                command: vec![program.display().to_string()],
                source: PluginSource::Path,
            });
        }
    }
    for (name, command) in configured {
        found.insert(
            name.clone(),
            PluginSpec {
                name: name.clone(),
                command: command.clone(),
                source: PluginSource::Config,
            },
        );
    }
    found.into_values().collect()
}

/// The folders of `PATH` that stone searches for programs (plugins, the Python of
/// entry-point plugins): the absolute ones only (`stone_package::program::searched_dirs`).
pub fn searched_dirs(path: Option<&OsString>) -> impl Iterator<Item = PathBuf> + '_ {
    program::searched_dirs(path.map(OsString::as_os_str))
}

/// What went wrong with a plugin. Every message names the plugin.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PluginError {
    #[error("the plugin {plugin} has an empty command")]
    NoCommand { plugin: String },
    #[error("cannot start the plugin {plugin}")]
    Spawn {
        plugin: String,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the plugin {plugin} exited during `{during}` ({status}){}",
        tail(stderr)
    )]
    Exited {
        plugin: String,
        during: String,
        status: String,
        stderr: Vec<String>,
    },
    #[error("the plugin {plugin} did not answer `{during}` within {} s{}", timeout.as_secs_f32(), tail(stderr))]
    Timeout {
        plugin: String,
        during: String,
        timeout: Duration,
        stderr: Vec<String>,
    },
    #[error(
        "the plugin {plugin} answered `{during}` with something that is not a protocol message ({reason}): {line}"
    )]
    Garbage {
        plugin: String,
        during: String,
        reason: String,
        line: String,
    },
    #[error(
        "the plugin {plugin} answered protocol version {theirs}, which this stone did not offer (it speaks {ours:?})"
    )]
    Version {
        plugin: String,
        theirs: u32,
        ours: &'static [u32],
    },
    #[error(
        "the plugin {plugin} does not implement {} (it lists {protocols:?})",
        PACKAGE_PUSH_HANDLER
    )]
    NotAHandler {
        plugin: String,
        protocols: Vec<String>,
    },
    /// The plugin's causes (`data.causes`) are not in the message: the CLI shows them as
    /// `Caused by:` lines ([`PluginError::causes`]).
    #[error("the plugin {plugin} failed `{during}`: {}", error.message)]
    Failed {
        plugin: String,
        during: String,
        error: ErrorObject,
    },
    #[error("the push by the plugin {plugin} was cancelled")]
    Cancelled { plugin: String },
}

fn tail(stderr: &[String]) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; its last words on stderr: {}", stderr.join(" | "))
    }
}

impl PluginError {
    /// The causes a failed call's error carried (`data.causes`), outermost first.
    pub fn causes(&self) -> &[String] {
        match self {
            PluginError::Failed {
                error: ErrorObject {
                    data: Some(data), ..
                },
                ..
            } => &data.causes,
            _ => &[],
        }
    }

    /// Stable, dotted code.
    pub fn code(&self) -> String {
        match self {
            PluginError::NoCommand { .. } | PluginError::Spawn { .. } => "plugin.start".into(),
            PluginError::Exited { .. } => "plugin.exited".into(),
            PluginError::Timeout { .. } => "plugin.timeout".into(),
            PluginError::Garbage { .. } => "plugin.protocol".into(),
            PluginError::Version { .. } => "plugin.version".into(),
            PluginError::NotAHandler { .. } => "plugin.not_a_handler".into(),
            PluginError::Failed { error, .. } => error
                .data
                .as_ref()
                .and_then(|d| d.code.clone())
                .unwrap_or_else(|| "plugin.failed".into()),
            PluginError::Cancelled { .. } => "plugin.cancelled".into(),
        }
    }
}

struct Connection {
    stdin: ChildStdin,
    lines: CappedLines<BufReader<ChildStdout>>,
    next_id: u64,
}

/// The longest line read from a plugin (a message on stdout, a line of stderr).
const MAX_LINE: usize = 16 << 20;

/// Lines of at most `limit` bytes: a longer one is an `InvalidData` error (stdout) instead
/// of an ever-growing buffer.
struct CappedLines<R> {
    reader: R,
    limit: usize,
}

impl<R: AsyncBufRead + Unpin> CappedLines<R> {
    fn new(reader: R, limit: usize) -> Self {
        CappedLines { reader, limit }
    }

    /// The next line without its end, `None` at the end.
    async fn next_line(&mut self) -> std::io::Result<Option<String>> {
        let mut buf = Vec::new();
        let limit = self.limit as u64 + 1;
        let n = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut buf)
            .await?;
        if n == 0 {
            return Ok(None);
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        } else if buf.len() > self.limit {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line longer than {} MiB", self.limit >> 20),
            ));
        }
        String::from_utf8(buf)
            .map(Some)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}

/// A started plugin that passed the handshake.
pub struct ExternalPlugin {
    pub spec: PluginSpec,
    pub info: InitializeResult,
    timeout: Duration,
    connection: tokio::sync::Mutex<Connection>,
    child: tokio::sync::Mutex<Child>,
    pid: Option<u32>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl ExternalPlugin {
    /// Starts the plugin and does the handshake: same protocol version, and
    /// `PackagePushHandler/1` among its protocols.
    pub async fn start(spec: PluginSpec, timeout: Duration) -> Result<ExternalPlugin, PluginError> {
        let plugin = spec.describe();
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| PluginError::NoCommand {
                plugin: plugin.clone(),
            })?;
        // One way to start a program (`stone_package::program`): the program found on the
        // absolute entries of PATH, without `STONE_*` variables; an entry point's Python
        // isolated.
        let launch = match spec.source {
            PluginSource::EntryPoint => entry_points::launch(&spec.command),
            PluginSource::Path | PluginSource::Config => Program::find(program)
                .map(|found| found.launch().args(args))
                .map_err(std::io::Error::from),
        }
        // Where stone was started: a destination such as `mirror://copies` names a folder
        // there (safe: the program was found on the absolute PATH entries, and its own
        // lookups see those only).
        .map(|launch| launch.in_callers_dir())
        .map_err(|source| PluginError::Spawn {
            plugin: plugin.clone(),
            source,
        })?;
        let mut cmd = Command::from(launch.command());
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        // Its own process group, so that stopping it stops what it started too.
        #[cfg(unix)]
        cmd.process_group(0);
        let mut child = cmd.spawn().map_err(|source| PluginError::Spawn {
            plugin: plugin.clone(),
            source,
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            unreachable!("all three are piped");
        };
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = tail.clone();
        tokio::spawn(async move {
            let mut lines = CappedLines::new(BufReader::new(stderr), MAX_LINE);
            while let Ok(Some(line)) = lines.next_line().await {
                if let Ok(mut t) = keep.lock() {
                    if t.len() == STDERR_TAIL {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            }
        });
        let pid = child.id();
        let mut started = ExternalPlugin {
            spec,
            info: InitializeResult {
                name: String::new(),
                version: String::new(),
                protocol_version: 0,
                protocols: Vec::new(),
            },
            timeout,
            connection: tokio::sync::Mutex::new(Connection {
                stdin,
                lines: CappedLines::new(BufReader::new(stdout), MAX_LINE),
                next_id: 1,
            }),
            child: tokio::sync::Mutex::new(child),
            pid,
            stderr: tail,
        };
        let params = InitializeParams {
            protocol_version: PROTOCOL_VERSION,
            protocol_versions: PROTOCOL_VERSIONS.to_vec(),
            host: HostInfo {
                name: "stone".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
        };
        let answer = started
            .call(method::INITIALIZE, to_value(&params), None)
            .await?;
        let info: InitializeResult =
            serde_json::from_value(answer.clone()).map_err(|e| PluginError::Garbage {
                plugin: plugin.clone(),
                during: method::INITIALIZE.into(),
                reason: e.to_string(),
                line: answer.to_string(),
            })?;
        if !PROTOCOL_VERSIONS.contains(&info.protocol_version) {
            return Err(PluginError::Version {
                plugin,
                theirs: info.protocol_version,
                ours: PROTOCOL_VERSIONS,
            });
        }
        if !info.protocols.iter().any(|p| p == PACKAGE_PUSH_HANDLER) {
            return Err(PluginError::NotAHandler {
                plugin,
                protocols: info.protocols,
            });
        }
        started.info = info;
        Ok(started)
    }

    /// Asks whether the plugin claims `destination`.
    pub async fn can_handle(&self, destination: &str) -> Result<bool, PluginError> {
        let params = CanHandleParams {
            destination: destination.to_owned(),
        };
        let answer = self
            .call(method::CAN_HANDLE, to_value(&params), None)
            .await?;
        answer.as_bool().ok_or_else(|| PluginError::Garbage {
            plugin: self.spec.describe(),
            during: method::CAN_HANDLE.into(),
            reason: "expected true or false".into(),
            line: answer.to_string(),
        })
    }

    /// Has the plugin push; its notifications become progress events.
    pub async fn push(
        &self,
        package: &PushPackage,
        options: &PushOptions,
        progress: &dyn PushProgress,
    ) -> Result<PushResult, PluginError> {
        let mut package = package.clone();
        // Absolute paths: what a plugin receives means the same wherever it looks from.
        let absolute = |path: &mut PathBuf| {
            if let Ok(found) = std::path::absolute(&*path) {
                *path = found;
            }
        };
        absolute(&mut package.root);
        for file in package
            .resources
            .iter_mut()
            .flat_map(|r| r.files.iter_mut())
        {
            absolute(&mut file.local);
        }
        let params = PushParams {
            package,
            options: options.clone(),
        };
        let answer = self
            .call(method::PUSH, to_value(&params), Some(progress))
            .await?;
        // From text: a result keeps each dataset's details as JSON text, which a
        // `serde_json::Value` cannot give.
        let line = answer.to_string();
        serde_json::from_str(&line).map_err(|e| PluginError::Garbage {
            plugin: self.spec.describe(),
            during: method::PUSH.into(),
            reason: format!("not a PushResult: {e}"),
            line,
        })
    }

    /// Asks the plugin to exit, then makes sure it has.
    pub async fn shutdown(&self) {
        let _ = tokio::time::timeout(self.timeout, self.call(method::SHUTDOWN, None, None)).await;
        {
            let mut connection = self.connection.lock().await;
            let _ = connection.stdin.shutdown().await;
        }
        let mut child = self.child.lock().await;
        if tokio::time::timeout(Duration::from_secs(1), child.wait())
            .await
            .is_err()
        {
            self.kill_group();
        }
    }

    #[cfg(unix)]
    fn kill_group(&self) {
        if let Some(pid) = self.pid.and_then(|p| i32::try_from(p).ok()) {
            // SAFETY: killpg only sends a signal to the group we created with process_group(0).
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
        }
    }

    /// Windows has no process groups to signal: `taskkill /T` ends the plugin's tree.
    #[cfg(not(unix))]
    fn kill_group(&self) {
        if let Some(pid) = self.pid {
            let Ok(taskkill) = Program::find("taskkill") else {
                return;
            };
            let _ = taskkill
                .launch()
                .args(["/T", "/F", "/PID", &pid.to_string()])
                .command()
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }

    fn stderr_tail(&self) -> Vec<String> {
        self.stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The exit status once the plugin's stdout closed.
    async fn exited(&self, during: &str) -> PluginError {
        let status = {
            let mut child = self.child.lock().await;
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(Ok(status)) => status.to_string(),
                _ => "its output closed".into(),
            }
        };
        // Give the stderr reader a moment to catch the last lines.
        tokio::time::sleep(Duration::from_millis(50)).await;
        PluginError::Exited {
            plugin: self.spec.describe(),
            during: during.into(),
            status,
            stderr: self.stderr_tail(),
        }
    }

    /// One request and its response. Notifications on the way are handled; during `push`
    /// each one restarts the deadline, and Ctrl-C sends `$/cancel`, then kills the plugin.
    async fn call(
        &self,
        name: &str,
        params: Option<Value>,
        progress: Option<&dyn PushProgress>,
    ) -> Result<Value, PluginError> {
        let mut connection = self.connection.lock().await;
        let id = connection.next_id;
        connection.next_id += 1;
        let line = Message::request(id, name, params).to_line() + "\n";
        let written = async {
            connection.stdin.write_all(line.as_bytes()).await?;
            connection.stdin.flush().await
        };
        if written.await.is_err() {
            drop(connection);
            return Err(self.exited(name).await);
        }
        let mut interrupt = std::pin::pin!(async {
            if progress.is_some() {
                let _ = tokio::signal::ctrl_c().await;
            } else {
                std::future::pending::<()>().await;
            }
        });
        loop {
            let next = tokio::select! {
                next = tokio::time::timeout(self.timeout, connection.lines.next_line()) => next,
                () = &mut interrupt => {
                    let cancel = Message::notification(method::CANCEL, to_value(&CancelParams { id: id.into() }));
                    let _ = connection.stdin.write_all((cancel.to_line() + "\n").as_bytes()).await;
                    let _ = connection.stdin.flush().await;
                    let _ = tokio::time::timeout(CANCEL_GRACE, async {
                        while let Ok(Some(line)) = connection.lines.next_line().await {
                            if Message::parse(&line).is_ok_and(|m| m.id == Some(id.into())) {
                                break;
                            }
                        }
                    }).await;
                    self.kill_group();
                    return Err(PluginError::Cancelled { plugin: self.spec.describe() });
                }
            };
            let line = match next {
                Err(_) => {
                    self.kill_group();
                    return Err(PluginError::Timeout {
                        plugin: self.spec.describe(),
                        during: name.into(),
                        timeout: self.timeout,
                        stderr: self.stderr_tail(),
                    });
                }
                Ok(Ok(Some(line))) => line,
                Ok(Err(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.kill_group();
                    return Err(PluginError::Garbage {
                        plugin: self.spec.describe(),
                        during: name.into(),
                        reason: e.to_string(),
                        line: String::new(),
                    });
                }
                Ok(Ok(None) | Err(_)) => {
                    drop(connection);
                    return Err(self.exited(name).await);
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            let garbage = |reason: String| {
                self.kill_group();
                PluginError::Garbage {
                    plugin: self.spec.describe(),
                    during: name.into(),
                    reason,
                    line: shorten(&line),
                }
            };
            let message = Message::parse(&line).map_err(garbage)?;
            match message.kind().map_err(garbage)? {
                Kind::Notification { method, params } => {
                    if let Some(progress) = progress {
                        self.notified(method, params, progress);
                    }
                }
                Kind::Response {
                    id: answered,
                    outcome,
                } if answered.as_u64() == Some(id) => {
                    return match outcome {
                        Ok(result) => Ok(result.clone()),
                        Err(error) => Err(PluginError::Failed {
                            plugin: self.spec.describe(),
                            during: name.into(),
                            error: error.clone(),
                        }),
                    };
                }
                Kind::Response { id: other, .. } => {
                    return Err(garbage(format!("a response to id {other}, expected {id}")));
                }
                Kind::Request { method, .. } => {
                    return Err(garbage(format!(
                        "a request `{method}`; plugins send only responses and notifications"
                    )));
                }
            }
        }
    }

    fn notified(&self, name: &str, params: Option<&Value>, progress: &dyn PushProgress) {
        let params = params.cloned().unwrap_or_default();
        match name {
            method::PROGRESS => {
                if let Ok(p) = serde_json::from_value::<ProgressParams>(params) {
                    if let Some(bytes) = p.bytes {
                        progress.event(ProgressEvent::Uploaded { bytes });
                    }
                    if let Some(message) = p.message {
                        progress.event(ProgressEvent::Note(format!(
                            "{}: {message}",
                            self.spec.name
                        )));
                    }
                }
            }
            method::LOG => {
                if let Ok(p) = serde_json::from_value::<LogParams>(params)
                    && p.level != LogLevel::Debug
                {
                    let level = serde_json::to_value(p.level).ok();
                    let level = level.as_ref().and_then(Value::as_str).unwrap_or("info");
                    progress.event(ProgressEvent::Note(format!(
                        "{} [{level}]: {}",
                        self.spec.name, p.message
                    )));
                }
            }
            _ => {} // unknown notifications are tolerated
        }
    }
}

impl Drop for ExternalPlugin {
    fn drop(&mut self) {
        // Whatever happened, no plugin outlives the host.
        self.kill_group();
    }
}

fn to_value<T: Serialize>(value: &T) -> Option<Value> {
    serde_json::to_value(value).ok()
}

fn shorten(line: &str) -> String {
    const MAX: usize = 200;
    match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_owned(),
    }
}

/// A plugin as a registry handler, for one destination it was already asked about.
pub struct ExternalHandler {
    plugin: Arc<ExternalPlugin>,
    destination: String,
    claims: bool,
}

impl ExternalHandler {
    /// A handler for `plugin`, which answered `claims` when asked about `destination` (so
    /// that `can_handle` needs no I/O).
    pub fn new(plugin: Arc<ExternalPlugin>, destination: &str, claims: bool) -> ExternalHandler {
        ExternalHandler {
            plugin,
            destination: destination.to_owned(),
            claims,
        }
    }
}

impl PackagePushHandler for ExternalHandler {
    fn name(&self) -> &str {
        &self.plugin.spec.name
    }

    fn can_handle(&self, destination: &str) -> bool {
        self.claims && destination == self.destination
    }

    fn push<'a>(
        &'a self,
        package: &'a PushPackage,
        options: &'a PushOptions,
        progress: Arc<dyn PushProgress>,
    ) -> BoxFuture<'a, Result<PushResult, PushError>> {
        Box::pin(async move {
            self.plugin
                .push(package, options, progress.as_ref())
                .await
                .map_err(|e| PushError::Plugin(Box::new(e)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_longer_than_the_cap_are_refused_not_buffered() {
        let input = b"{\"a\":1}\r\nshort\n0123456789abcdef-and-more\nlast".to_vec();
        let mut lines = CappedLines::new(&input[..], 16);
        assert_eq!(
            lines.next_line().await.unwrap().as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(lines.next_line().await.unwrap().as_deref(), Some("short"));
        let error = lines.next_line().await.unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);

        // A line of exactly the cap, with or without its end, is fine.
        let mut lines = CappedLines::new(&b"0123456789abcdef\n0123456789abcdef"[..], 16);
        assert_eq!(
            lines.next_line().await.unwrap().as_deref(),
            Some("0123456789abcdef")
        );
        assert_eq!(
            lines.next_line().await.unwrap().as_deref(),
            Some("0123456789abcdef")
        );
        assert_eq!(lines.next_line().await.unwrap(), None);
    }
}
