//! A real OS keyring for tests: a private D-Bus session bus (`dbus-daemon`) with GNOME
//! Keyring's Secret Service (`gnome-keyring-daemon`, its `login` collection created and
//! unlocked with a password on stdin), read back with `secret-tool` (libsecret), all from
//! Debian's packages `dbus`, `gnome-keyring` and `libsecret-tools`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::process::{ServiceProcess, start_with_retries};

const HINT: &str = "install Debian's packages: apt-get install dbus gnome-keyring libsecret-tools \
                    (scripts/install-tools does it)";

/// A session bus and a Secret Service on it, both stopped on drop.
pub struct SecretService {
    address: String,
    home: PathBuf,
    // Dropped in this order: the keyring, then its bus.
    keyring: ServiceProcess,
    bus: ServiceProcess,
}

fn program(name: &str) -> PathBuf {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"] {
        let path = Path::new(dir).join(name);
        if path.exists() {
            return path;
        }
    }
    panic!("stone-test: {name} is missing: {HINT}");
}

impl SecretService {
    pub fn start() -> SecretService {
        start_with_retries("Secret Service (gnome-keyring)", Self::try_start)
    }

    fn try_start() -> Result<SecretService, String> {
        let dbus = program("dbus-daemon");
        let daemon = program("gnome-keyring-daemon");
        program("secret-tool");

        let bus_dir = ServiceProcess::temp_dir("dbus");
        let socket = bus_dir.path().join("bus");
        let address = format!("unix:path={}", socket.display());
        // A session bus without service activation: the Debian session config would start
        // a second gnome-keyring-daemon (with no unlocked collection) on the first call to
        // org.freedesktop.secrets, racing the one started here.
        let config = bus_dir.path().join("session.conf");
        std::fs::write(
            &config,
            format!(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\" \
                 \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n\
                 <busconfig>\n  <type>session</type>\n  <listen>{address}</listen>\n  \
                 <policy context=\"default\">\n    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n    \
                 <allow eavesdrop=\"true\"/>\n    <allow own=\"*\"/>\n  </policy>\n</busconfig>\n"
            ),
        )
        .expect("cannot write the bus config");
        let mut command = Command::new(dbus);
        command
            .env_clear()
            .args(["--nofork", "--nopidfile"])
            .arg(format!("--config-file={}", config.display()));
        let mut bus = ServiceProcess::spawn("dbus-daemon", command, bus_dir);
        bus.wait_ready(Duration::from_secs(10), || {
            if socket.exists() {
                Ok(())
            } else {
                Err("no bus socket yet".to_owned())
            }
        })?;

        let keyring_dir = ServiceProcess::temp_dir("keyring");
        let home = keyring_dir.path().to_path_buf();
        let mut command = Command::new("/bin/sh");
        command
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &home)
            .env("XDG_RUNTIME_DIR", &home)
            .env("XDG_DATA_HOME", home.join("data"))
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .arg("-c")
            .arg("printf %s \"$1\" | exec \"$0\" --foreground --components=secrets --unlock")
            .arg(daemon)
            .arg("test-keyring-password");
        let mut keyring = ServiceProcess::spawn("gnome-keyring-daemon", command, keyring_dir);
        keyring.wait_ready(Duration::from_secs(20), || {
            let probe = ["stone-test", "probe"];
            secret_tool(
                &home,
                &address,
                &[&["store", "--label=probe"], &probe[..]].concat(),
                Some("x"),
            )
            .map_err(|e| format!("the login collection is not ready: {e}"))?;
            secret_tool(&home, &address, &[&["clear"], &probe[..]].concat(), None).map(|_| ())
        })?;
        Ok(SecretService {
            address,
            home,
            keyring,
            bus,
        })
    }

    /// `DBUS_SESSION_BUS_ADDRESS` of the bus.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The secret stored under `attributes` (`key value …`), `None` when there is none.
    pub fn lookup(&self, attributes: &[&str]) -> Option<String> {
        let mut args = vec!["lookup"];
        args.extend_from_slice(attributes);
        secret_tool(&self.home, &self.address, &args, None).ok()
    }

    /// The daemons' pids (bus, keyring), for a test that wants them gone.
    pub fn pids(&self) -> (u32, u32) {
        (self.bus.pid(), self.keyring.pid())
    }
}

/// Runs `secret-tool ARGS` on the bus, `input` on its stdin; its stdout.
fn secret_tool(
    home: &Path,
    address: &str,
    args: &[&str],
    input: Option<&str>,
) -> Result<String, String> {
    let mut child = Command::new(program("secret-tool"))
        .env_clear()
        .env("HOME", home)
        .env("DBUS_SESSION_BUS_ADDRESS", address)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run secret-tool: {e}"))?;
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("piped stdin");
        if let Some(input) = input {
            stdin
                .write_all(input.as_bytes())
                .map_err(|e| format!("secret-tool stdin: {e}"))?;
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("secret-tool: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "secret-tool {args:?}: {}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
