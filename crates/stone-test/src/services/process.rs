//! One external program in its own process group and temporary directory, stopped on
//! drop; free loopback ports; readiness polling with a deadline.

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// How long a stopped program gets between SIGTERM and SIGKILL.
const TERM_GRACE: Duration = Duration::from_secs(3);

/// Ports handed out by this test process, so two services started at the same time
/// never get the same one (the OS may return a just-released port again).
static HANDED_OUT: Mutex<Option<HashSet<u16>>> = Mutex::new(None);

/// A free TCP port on 127.0.0.1: bound on port 0, then released. Another process may
/// still take it before the service binds it; [`start_with_retries`] covers that.
pub fn free_port() -> u16 {
    free_port_where(|_| true)
}

/// A free port for which `accept(port)` holds (for example: `port + 10000` is free too).
pub(crate) fn free_port_where(accept: impl Fn(u16) -> bool) -> u16 {
    for _ in 0..200 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("cannot bind a TCP port on 127.0.0.1")
            .port();
        let mut handed_out = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
        let handed_out = handed_out.get_or_insert_with(HashSet::new);
        if handed_out.contains(&port) || !accept(port) {
            continue;
        }
        handed_out.insert(port);
        return port;
    }
    panic!("found no free TCP port on 127.0.0.1 in 200 tries")
}

/// Marks `port` as handed out (a port derived from one [`free_port`] gave).
pub(crate) fn claim_port(port: u16) {
    HANDED_OUT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashSet::new)
        .insert(port);
}

/// Whether `port` can be bound on 127.0.0.1 right now.
pub(crate) fn port_is_free(port: u16) -> bool {
    TcpListener::bind(("127.0.0.1", port)).is_ok()
}

/// Starts a service with fresh ports up to three times when an attempt fails because a
/// port was taken meanwhile (`Err(message)` mentioning "address already in use", or
/// SeaweedFS's "port allocation failed" for a port it checks before binding) or the
/// program hung before it answered ("did not answer within", the attempt's process is
/// killed); any other failure panics at once with its message. Every failed attempt's
/// message is in the panic, so a retried hang is still visible when all attempts fail.
pub fn start_with_retries<T>(name: &str, mut attempt: impl FnMut() -> Result<T, String>) -> T {
    let mut failures = Vec::new();
    for _ in 0..3 {
        match attempt() {
            Ok(service) => return service,
            Err(message) => {
                let lower = message.to_lowercase();
                let collision = lower.contains("address already in use")
                    || lower.contains("eaddrinuse")
                    || lower.contains("port allocation failed")
                    || lower.contains("did not answer within");
                failures.push(message);
                if !collision {
                    break;
                }
            }
        }
    }
    panic!(
        "{name} did not start:\n{}",
        failures.join("\n--- next attempt ---\n")
    )
}

/// Services still running, killed (and their files removed) when the test process
/// exits: a service kept in a `static` is never dropped.
static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());

struct Running {
    group: libc::pid_t,
    /// The service's temp dir and the files it leaves elsewhere.
    dir: PathBuf,
    leftovers: Vec<PathBuf>,
}

fn running() -> std::sync::MutexGuard<'static, Vec<Running>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

fn register(group: libc::pid_t, dir: PathBuf) {
    static AT_EXIT: std::sync::Once = std::sync::Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: registers a plain `extern "C"` function without captured state.
        unsafe {
            libc::atexit(kill_running_at_exit);
        }
    });
    running().push(Running {
        group,
        dir,
        leftovers: Vec::new(),
    });
}

extern "C" fn kill_running_at_exit() {
    // try_lock: never block (or panic) while the process exits.
    if let Ok(services) = RUNNING.try_lock() {
        for service in services.iter() {
            signal_group(service.group, libc::SIGKILL);
        }
        for service in services.iter() {
            for path in &service.leftovers {
                let _ = std::fs::remove_file(path);
            }
            let _ = std::fs::remove_dir_all(&service.dir);
        }
    }
}

/// A running external program: its own process group, temp directory and log file
/// (stdout and stderr). Dropping it kills the group and deletes the directory; groups
/// still running when the test process exits are killed then.
pub struct ServiceProcess {
    name: String,
    child: Child,
    log: PathBuf,
    stopped: bool,
    /// Files the program leaves outside its directory (SeaweedFS's sockets in /tmp).
    leftovers: Vec<PathBuf>,
    /// Last, so the directory goes after the program is dead.
    dir: TempDir,
}

impl ServiceProcess {
    /// Spawns `command` in a new process group, its output going to `<dir>/<name>.log`.
    /// The working directory is `dir` unless the command sets one.
    pub fn spawn(name: &str, mut command: Command, dir: TempDir) -> Self {
        let log = dir.path().join(format!("{name}.log"));
        let file =
            File::create(&log).unwrap_or_else(|e| panic!("cannot create {}: {e}", log.display()));
        let err = file.try_clone().expect("cannot clone a log file handle");
        if command.get_current_dir().is_none() {
            command.current_dir(dir.path());
        }
        command
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .process_group(0);
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name} ({:?}): {e}", command.get_program()));
        register(child.id() as libc::pid_t, dir.path().to_path_buf());
        ServiceProcess {
            name: name.to_owned(),
            child,
            log,
            stopped: false,
            leftovers: Vec::new(),
            dir,
        }
    }

    /// Starts the service again with `command` (its data and port as before: a restart
    /// after an outage), once the running program is stopped; its output is appended to
    /// the same log.
    pub fn respawn(&mut self, mut command: Command) {
        self.stop();
        let file = File::options()
            .append(true)
            .open(&self.log)
            .unwrap_or_else(|e| panic!("cannot open {}: {e}", self.log.display()));
        let err = file.try_clone().expect("cannot clone a log file handle");
        if command.get_current_dir().is_none() {
            command.current_dir(self.dir.path());
        }
        command
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .process_group(0);
        self.child = command.spawn().unwrap_or_else(|e| {
            panic!(
                "cannot start {} again ({:?}): {e}",
                self.name,
                command.get_program()
            )
        });
        register(
            self.child.id() as libc::pid_t,
            self.dir.path().to_path_buf(),
        );
        self.stopped = false;
    }

    /// A temporary directory for a service, named after it.
    pub fn temp_dir(name: &str) -> TempDir {
        tempfile::Builder::new()
            .prefix(&format!("stone-{name}-"))
            .tempdir()
            .expect("cannot create a temporary directory")
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The service's own directory (data, config, log).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// Files to delete after the program stops.
    pub fn remove_on_stop(&mut self, path: PathBuf) {
        let group = self.child.id() as libc::pid_t;
        if let Some(entry) = running().iter_mut().find(|r| r.group == group) {
            entry.leftovers.push(path.clone());
        }
        self.leftovers.push(path);
    }

    /// The last `lines` lines of the program's output.
    pub fn log_tail(&self, lines: usize) -> String {
        let mut text = String::new();
        if let Ok(mut file) = File::open(&self.log) {
            let length = file.metadata().map(|m| m.len()).unwrap_or(0);
            let _ = file.seek(SeekFrom::Start(length.saturating_sub(64 * 1024)));
            let mut bytes = Vec::new();
            let _ = file.read_to_end(&mut bytes);
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }

    /// The exit status, if the program has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Polls `probe` until it returns `Ok`, the program exits, or `timeout` passes. The
    /// error names the program, the last probe error and the log tail.
    pub fn wait_ready(
        &mut self,
        timeout: Duration,
        mut probe: impl FnMut() -> Result<(), String>,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let mut delay = Duration::from_millis(20);
        loop {
            let last = match probe() {
                Ok(()) => return Ok(()),
                Err(e) => e,
            };
            if let Some(status) = self.exited() {
                return Err(format!(
                    "{} exited ({status}) before it answered; last probe: {last}\n--- log tail ({}) ---\n{}",
                    self.name,
                    self.log.display(),
                    self.log_tail(40)
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} did not answer within {timeout:?}; last probe: {last}\n--- log tail ({}) ---\n{}",
                    self.name,
                    self.log.display(),
                    self.log_tail(40)
                ));
            }
            thread::sleep(delay);
            delay = (delay * 2).min(Duration::from_millis(250));
        }
    }

    /// Kills the program at once (SIGKILL to its group), as a crash would. Idempotent.
    pub fn kill(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let group = self.child.id() as libc::pid_t;
        signal_group(group, libc::SIGKILL);
        let _ = self.child.wait();
        running().retain(|r| r.group != group);
    }

    /// Stops the program: SIGTERM to its process group, up to [`TERM_GRACE`] to exit,
    /// then SIGKILL to the group. Idempotent.
    pub fn stop(&mut self) {
        self.stop_with(libc::SIGTERM);
    }

    /// Stops the program with `signal` to its process group (PostgreSQL's immediate
    /// shutdown is SIGQUIT), up to [`TERM_GRACE`] to exit, then SIGKILL. Idempotent.
    pub fn stop_with(&mut self, signal: libc::c_int) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let group = self.child.id() as libc::pid_t;
        signal_group(group, signal);
        let deadline = Instant::now() + TERM_GRACE;
        while self.exited().is_none() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        // The leader may be gone while children of the group live on: kill the group
        // either way (ESRCH when it is empty is fine).
        signal_group(group, libc::SIGKILL);
        let _ = self.child.wait();
        running().retain(|r| r.group != group);
        for path in self.leftovers.drain(..) {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn signal_group(group: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals the process group we created with
    // process_group(0); it touches no memory of ours.
    unsafe {
        libc::kill(-group, signal);
    }
}

impl Drop for ServiceProcess {
    fn drop(&mut self) {
        self.stop();
    }
}
