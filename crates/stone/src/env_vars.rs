//! Every environment variable stone reads, in one place.

/// The config file with the environments (default: `<user config dir>/stone/config.toml`).
pub const STONE_CONFIG: &str = "STONE_CONFIG";
/// Filter of the `--verbose` diagnostics (tracing `EnvFilter` syntax), e.g.
/// `stone_push=trace` (default: `stone=debug,stone_push=debug,stone_auth=debug`).
pub const STONE_LOG: &str = "STONE_LOG";
/// Set to any value to disable progress bars even on a terminal.
pub const STONE_NO_PROGRESS: &str = "STONE_NO_PROGRESS";
/// How many times a failed request to the push API, a staging URL or a blob store
/// (connection error, 429, 5xx; `object_store`'s back-off for blob stores) is retried
/// before the push stops, resumable (default 6, about 30 s of backoff).
pub const STONE_HTTP_RETRIES: &str = "STONE_HTTP_RETRIES";
/// Seconds a read may wait for a server (for its answer, or between two pieces of it)
/// before the request fails as timed out (default 120; 300 for uploads). Read in
/// `stone-http`, which builds every HTTP client of the CLI.
pub const STONE_HTTP_READ_TIMEOUT: &str = stone_http::STONE_HTTP_READ_TIMEOUT;
/// Seconds `stone package push` follows a commit in which no dataset moves forward
/// before it stops (default 3600): the push goes on on the server, and running the same
/// command again follows it. Read in `stone-push`.
pub const STONE_PUSH_STALL_TIMEOUT: &str = stone_push::service::STONE_PUSH_STALL_TIMEOUT;
/// The longest CSV/TSV record `stone package push` reads, in bytes (default 64 MiB,
/// `stone_formats::csv::MAX_RECORD_BYTES`): a longer one is refused naming its file, line
/// and column, before it is held in memory and before anything is sent.
pub const STONE_CSV_MAX_RECORD_BYTES: &str = "STONE_CSV_MAX_RECORD_BYTES";
/// CI's head ref of a pull request: the default branch in CI.
pub const CI_HEAD_REF: &str = stone_package::branch::CI_HEAD_REF;
/// CI's ref name: the default branch in CI when `CI_HEAD_REF` is not set.
pub const CI_REF_NAME: &str = stone_package::branch::CI_REF_NAME;
/// Set (to anything but `false`/`0`) by CI systems: no browser, no prompts.
pub const CI: &str = "CI";
/// An access token to use as-is for every API call (CI): no stored login, no refresh, no
/// browser; `stone data import` sends it to the environment's API host only. It must come from the environment's issuer for the server's audience; a push
/// that needs a step-up the token lacks fails (exit 3) and says what it lacks.
pub const STONE_TOKEN: &str = "STONE_TOKEN";
/// The directory of stored logins when there is no OS keyring (default: `<user data
/// dir>/stone/tokens`, e.g. `~/.local/share/stone/tokens`): one 0600 file per environment
/// and issuer.
pub const STONE_TOKEN_DIR: &str = "STONE_TOKEN_DIR";
/// Set to `0` (or `off`, `false`) to keep logins in files even where there is an OS keyring
/// (the Secret Service of the desktop session on Linux, the Keychain, the Credential
/// Manager).
pub const STONE_KEYRING: &str = "STONE_KEYRING";
/// Set to `1` to never open a browser for a login: the URL is printed on stderr (it always
/// is) for you to open.
pub const STONE_NO_BROWSER: &str = "STONE_NO_BROWSER";
/// Seconds a plugin has to answer a call (and, during a push, between two messages)
/// before it is stopped and reported (default 10).
pub const STONE_PLUGIN_TIMEOUT: &str = "STONE_PLUGIN_TIMEOUT";
/// The Python whose `stone.plugins` entry points are plugins (default: `python3` in an
/// absolute directory of `PATH`). Its packages need `stone-plugin-sdk` (PyPI).
pub const STONE_PLUGIN_PYTHON: &str = "STONE_PLUGIN_PYTHON";
