//! Settings read from the environment, each checked once here with an error that says what
//! is expected (flags win over them where a flag exists; the config file is
//! [`crate::config`]).

use std::time::Duration;

use stone_push::external;

use crate::codes;
use crate::diagnostics::CliError;
use crate::env_vars;

/// How many times a failed request is retried (`STONE_HTTP_RETRIES`).
pub fn http_retries() -> anyhow::Result<u32> {
    match std::env::var(env_vars::STONE_HTTP_RETRIES) {
        Err(_) => Ok(stone_push::record::DEFAULT_RETRIES),
        Ok(v) => v.trim().parse().map_err(|_| {
            CliError::new(
                codes::USAGE_INVALID_ENV,
                format!(
                    "${} must be a whole number, not `{v}`",
                    env_vars::STONE_HTTP_RETRIES
                ),
            )
            .into()
        }),
    }
}

/// How long a plugin has to answer (`STONE_PLUGIN_TIMEOUT`, seconds).
pub fn plugin_timeout() -> anyhow::Result<Duration> {
    match std::env::var(env_vars::STONE_PLUGIN_TIMEOUT) {
        Err(_) => Ok(external::DEFAULT_TIMEOUT),
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                CliError::new(
                    codes::USAGE_INVALID_ENV,
                    format!(
                        "${} must be a number of seconds between 0 and 86400, not `{v}`",
                        env_vars::STONE_PLUGIN_TIMEOUT
                    ),
                )
                .into()
            }),
    }
}

/// The longest CSV/TSV record read (`STONE_CSV_MAX_RECORD_BYTES`, bytes).
pub fn csv_max_record_bytes() -> anyhow::Result<usize> {
    let name = env_vars::STONE_CSV_MAX_RECORD_BYTES;
    match std::env::var(name) {
        Err(_) => Ok(stone_formats::csv::MAX_RECORD_BYTES),
        Ok(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                CliError::new(
                    codes::USAGE_INVALID_ENV,
                    format!("${name} must be a positive whole number of bytes, not `{v}`"),
                )
                .into()
            }),
    }
}

/// How many files are hashed at once: `--jobs`, else one per core.
pub fn jobs(flag: Option<usize>) -> usize {
    flag.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1)
    })
}

/// A variable that is set and not empty.
fn set(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// A yes/no variable: off when unset, empty, `0`, `false` or `off`.
fn switched_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "off"))
}

/// True when running in CI (`CI` set to anything but `false`/`0`): no prompts, no browser.
pub fn in_ci() -> bool {
    switched_on(env_vars::CI)
}

/// `STONE_TOKEN`, trimmed, when set and not empty.
pub fn static_token() -> Option<String> {
    std::env::var(env_vars::STONE_TOKEN)
        .ok()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
}

/// `STONE_TOKEN_DIR`: where logins are kept when not in the OS keyring.
pub fn token_dir() -> Option<std::path::PathBuf> {
    set(env_vars::STONE_TOKEN_DIR).map(Into::into)
}

/// `STONE_KEYRING=0` (or `off`, `false`): logins in files, never in the OS keyring.
pub fn keyring_off() -> bool {
    std::env::var(env_vars::STONE_KEYRING).is_ok_and(|v| matches!(v.trim(), "0" | "off" | "false"))
}

/// `STONE_NO_BROWSER` set (to anything but `0`/`false`): a login prints its URL only.
pub fn no_browser() -> bool {
    switched_on(env_vars::STONE_NO_BROWSER)
}

/// `STONE_NO_PROGRESS` set: no progress bars, even on a terminal.
pub fn no_progress() -> bool {
    std::env::var_os(env_vars::STONE_NO_PROGRESS).is_some()
}

/// `STONE_LOG`: the `--verbose` filter (tracing's `EnvFilter` syntax).
pub fn log_filter() -> Option<String> {
    std::env::var(env_vars::STONE_LOG).ok()
}

/// `STONE_PLUGIN_PYTHON`: the Python whose `stone.plugins` entry points are plugins.
pub fn plugin_python() -> Option<std::path::PathBuf> {
    set(env_vars::STONE_PLUGIN_PYTHON).map(Into::into)
}
