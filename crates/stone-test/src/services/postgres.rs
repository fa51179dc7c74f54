//! A real PostgreSQL server (Debian's `postgresql` package): `initdb` into the service's
//! temporary directory, then `postgres` on a free loopback port, its unix socket in the
//! same directory. Trust authentication for the one user `stone`, loopback only.
//!
//! PostgreSQL refuses to run as root; when the tests run as root the server runs as
//! `nobody` (the directory is handed to that user first).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::process::{ServiceProcess, free_port, start_with_retries};

/// The database user the server is initialised with.
pub const POSTGRES_USER: &str = "stone";

/// A running PostgreSQL server.
pub struct Postgres {
    port: u16,
    process: ServiceProcess,
    /// `postgres`, its data directory and the user it runs as: to start it again.
    bin: PathBuf,
    data: PathBuf,
    user: Option<(u32, u32)>,
}

impl Postgres {
    /// Initialises a cluster and starts the server; returns once it accepts connections.
    pub fn start() -> Postgres {
        let bin = server_bin_dir();
        start_with_retries("PostgreSQL", || Self::try_start(&bin))
    }

    fn try_start(bin: &Path) -> Result<Postgres, String> {
        let dir = ServiceProcess::temp_dir("postgres");
        let data = dir.path().join("data");
        let user = run_as(dir.path())?;
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                POSTGRES_USER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ])
            .args(["--no-instructions", "--locale=C"])
            .env("HOME", dir.path())
            .current_dir(dir.path());
        if let Some((uid, gid)) = user {
            initdb.uid(uid).gid(gid);
        }
        let output = initdb
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bin.join("initdb").display()))?;
        if !output.status.success() {
            return Err(format!(
                "initdb failed ({}):\n{}{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let port = free_port();
        let command = server_command(bin, &data, port, dir.path(), user);
        let mut process = ServiceProcess::spawn("postgres", command, dir);
        wait_accepting(&mut process, port, 0)?;
        Ok(Postgres {
            port,
            process,
            bin: bin.to_owned(),
            data,
            user,
        })
    }

    /// Stops the server as `pg_ctl stop -m immediate` does (SIGQUIT: no checkpoint, every
    /// connection cut; recovery at the next start), an outage of the database.
    pub fn stop_immediate(&mut self) {
        self.process.stop_with(libc::SIGQUIT);
    }

    /// Starts the server again on its data and port after [`Self::stop_immediate`] (the
    /// outage ends); returns once it accepts connections again.
    pub fn start_again(&mut self) {
        let readies = ready_lines(self.process.log_path());
        let dir = self.process.dir().to_owned();
        let command = server_command(&self.bin, &self.data, self.port, &dir, self.user);
        self.process.respawn(command);
        wait_accepting(&mut self.process, self.port, readies).unwrap_or_else(|e| panic!("{e}"));
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `postgres://stone@127.0.0.1:PORT/postgres` (sqlx, libpq).
    pub fn url(&self) -> String {
        format!(
            "postgres://{POSTGRES_USER}@127.0.0.1:{}/postgres",
            self.port
        )
    }

    /// The same database as a SQLAlchemy URL (pyiceberg's `SqlCatalog`), psycopg2 driver.
    pub fn sqlalchemy_url(&self) -> String {
        format!(
            "postgresql+psycopg2://{POSTGRES_USER}@127.0.0.1:{}/postgres",
            self.port
        )
    }

    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }
}

/// `postgres` on `data`, listening on 127.0.0.1:`port`, its socket in `socket_dir`.
fn server_command(
    bin: &Path,
    data: &Path,
    port: u16,
    socket_dir: &Path,
    user: Option<(u32, u32)>,
) -> Command {
    let mut command = Command::new(bin.join("postgres"));
    command
        .arg("-D")
        .arg(data)
        .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-k"])
        .arg(socket_dir)
        // A test database: no fsync (the machine does not crash under a test). Commits
        // are synchronous all the same: an acknowledged commit is in the kernel's hands
        // before the answer, so that a stop as `-m immediate` (a crash of the database
        // server, tests of issue 54) loses nothing acknowledged, as on a real server.
        .args(["-c", "fsync=off", "-c", "synchronous_commit=on"])
        .args(["-c", "full_page_writes=off", "-c", "max_connections=200"])
        .env("HOME", socket_dir);
    if let Some((uid, gid)) = user {
        command.uid(uid).gid(gid);
    }
    command
}

/// How many times the log says the server accepts connections.
fn ready_lines(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .matches("database system is ready to accept connections")
        .count()
}

/// Waits until the log says ready once more than `before` times and the port answers.
fn wait_accepting(process: &mut ServiceProcess, port: u16, before: usize) -> Result<(), String> {
    let log = process.log_path().to_owned();
    process.wait_ready(Duration::from_secs(60), || {
        if ready_lines(&log) > before {
            std::net::TcpStream::connect(("127.0.0.1", port))
                .map(|_| ())
                .map_err(|e| format!("connect: {e}"))
        } else {
            Err("not ready yet".into())
        }
    })
}

/// The directory of `initdb` and `postgres`: beside `initdb` on the PATH, or the newest
/// `/usr/lib/postgresql/<major>/bin`.
fn server_bin_dir() -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("initdb"))
            .find(|candidate| candidate.is_file())
    });
    if let Some(initdb) = on_path {
        let real = std::fs::canonicalize(&initdb).unwrap_or(initdb);
        if let Some(dir) = real.parent()
            && dir.join("postgres").is_file()
        {
            return dir.to_owned();
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let major = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            (bin.join("initdb").is_file() && bin.join("postgres").is_file()).then_some((major, bin))
        })
        .collect();
    versions.sort();
    match versions.pop() {
        Some((_, bin)) => bin,
        None => panic!(
            "the PostgreSQL server (initdb, postgres) is not installed: install it with \
             `apt-get install postgresql` (scripts/install-tools does, as root), or put its \
             bin directory on the PATH"
        ),
    }
}

/// `Some((uid, gid))` of `nobody` when running as root (PostgreSQL refuses root); the
/// directory is handed to that user.
fn run_as(dir: &Path) -> Result<Option<(u32, u32)>, String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let name = std::ffi::CString::new("nobody").expect("no NUL");
    // SAFETY: getpwnam with a valid C string; the result is read at once.
    let entry = unsafe { libc::getpwnam(name.as_ptr()) };
    if entry.is_null() {
        return Err("running as root, and there is no user `nobody` to run PostgreSQL as".into());
    }
    // SAFETY: non-null entry from getpwnam.
    let (uid, gid) = unsafe { ((*entry).pw_uid, (*entry).pw_gid) };
    let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())
        .map_err(|_| "a NUL in the temp dir path".to_owned())?;
    // SAFETY: chown with a valid C string.
    if unsafe { libc::chown(path.as_ptr(), uid, gid) } != 0 {
        return Err(format!(
            "cannot hand {} to nobody: {}",
            dir.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(Some((uid, gid)))
}
