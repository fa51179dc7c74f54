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
        let mut command = Command::new(bin.join("postgres"));
        command
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-h", "127.0.0.1", "-k"])
            .arg(dir.path())
            // A test database: durability is not what is tested here.
            .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
            .args(["-c", "full_page_writes=off", "-c", "max_connections=200"])
            .env("HOME", dir.path());
        if let Some((uid, gid)) = user {
            command.uid(uid).gid(gid);
        }
        let mut process = ServiceProcess::spawn("postgres", command, dir);
        let log = process.log_path().to_owned();
        process.wait_ready(Duration::from_secs(60), || {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.contains("database system is ready to accept connections") {
                std::net::TcpStream::connect(("127.0.0.1", port))
                    .map(|_| ())
                    .map_err(|e| format!("connect: {e}"))
            } else {
                Err("not ready yet".into())
            }
        })?;
        Ok(Postgres { port, process })
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
