//! Every environment variable stone reads, in one place.

/// The config file with the environments (default: `<user config dir>/stone/config.toml`).
pub const STONE_CONFIG: &str = "STONE_CONFIG";
/// Log filter for `--verbose` diagnostics (tracing `EnvFilter` syntax), e.g. `stone=debug`.
pub const STONE_LOG: &str = "STONE_LOG";
/// Set to any value to disable progress bars even on a terminal.
pub const STONE_NO_PROGRESS: &str = "STONE_NO_PROGRESS";
/// How many times a failed request to the push API or a staging URL (connection error, 429,
/// 5xx) is retried before the push stops, resumable (default 6, about 30 s of backoff).
pub const STONE_HTTP_RETRIES: &str = "STONE_HTTP_RETRIES";
/// CI's head ref of a pull request: the default branch in CI.
pub const CI_HEAD_REF: &str = stone_package::branch::CI_HEAD_REF;
/// CI's ref name: the default branch in CI when `CI_HEAD_REF` is not set.
pub const CI_REF_NAME: &str = stone_package::branch::CI_REF_NAME;
/// Set (to anything but `false`/`0`) by CI systems: no browser, no prompts.
pub const CI: &str = "CI";
/// A bearer token for reading non-public datasets with `stone data import`: sent to the
/// environment's API host only, never to another host. Never printed.
pub const STONE_TOKEN: &str = "STONE_TOKEN";
