//! The records of a push: defined in `stone-plugin-protocol` (a plugin written in Rust gets
//! them without this crate's HTTP and object-storage dependencies), re-exported here.

use serde::Serialize;

pub use stone_plugin_protocol::record::*;

/// The wire name of a status (`created`, `unchanged`, …), `unknown` when absent.
pub(crate) fn status_name<T: Serialize>(status: Option<T>) -> String {
    status
        .and_then(|s| serde_json::to_value(s).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}
