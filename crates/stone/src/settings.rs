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
