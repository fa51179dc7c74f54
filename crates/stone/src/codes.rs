//! The CLI's exit statuses, and the one table of error codes → exit status.
//!
//! A code reaches scripts (`--json`: `error.code`) and people (the exit status). Every code
//! stone knows has its one exit status in [`TABLE`], wherever it is raised: the CLI's own
//! codes below, the codes the server sends ([`stone_api::codes`]), those of the package
//! model ([`stone_package::codes`]), of identity (`auth.*`), formats, configuration,
//! pushes and plugins. `stone --help` prints the statuses ([`exit_codes_help`]);
//! docs/guide.md ("Exit codes") lists every code under its status, and a test walks every
//! code of the sources against both.
//!
//! Two rules stand beside the table: a code the table does not know (a newer server's)
//! goes by its family and the HTTP status it came with ([`status`]), and a plugin's
//! failure exits 6 whatever code the plugin names (its codes are its own).

use stone_api::codes as api;
use stone_package::codes as package;

pub use crate::exit_status::{ExitStatus, exit_codes_help};

/// An error code and its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub name: &'static str,
    pub status: ExitStatus,
}

const fn code(name: &'static str, status: ExitStatus) -> Code {
    Code { name, status }
}

use ExitStatus::{Auth, Failure, Refused, Unavailable, Usage};

// The CLI's own codes, as its call sites raise them ([`crate::diagnostics::CliError::new`]).

pub const AUTH_INTERACTIVE_IN_CI: Code = code("auth.interactive_in_ci", Auth);
pub const AUTH_ISSUER_MISMATCH: Code = code("auth.issuer_mismatch", Auth);
pub const AUTH_NO_ISSUER: Code = code("auth.no_issuer", Auth);
pub const AUTH_STORE: Code = code("auth.store", Auth);

pub const EVENTS_CURSOR_EXPIRED: Code = code(api::EVENTS_CURSOR_EXPIRED, Failure);
pub const EVENTS_FAILED: Code = code("events.failed", Failure);
pub const EVENTS_INVALID_SOURCE: Code = code("events.invalid_source", Usage);
pub const EVENTS_UNAUTHORIZED: Code = code("events.unauthorized", Auth);
pub const EVENTS_UNAVAILABLE: Code = code("events.unavailable", Unavailable);

pub const FORMAT_RDF_NOT_BUILT: Code = code("format.rdf_not_built", Usage);

pub const IMPORT_DIGEST_MISMATCH: Code = code("import.digest_mismatch", Failure);
pub const IMPORT_FAILED: Code = code("import.failed", Failure);
pub const IMPORT_FORMAT: Code = code("import.format", Usage);
pub const IMPORT_INTERRUPTED: Code = code("import.interrupted", Failure);
pub const IMPORT_INVALID_FILE: Code = code("import.invalid_file", Failure);
pub const IMPORT_INVALID_NAME: Code = code("import.invalid_name", Usage);
pub const IMPORT_INVALID_OPTION: Code = code("import.invalid_option", Usage);
pub const IMPORT_INVALID_SOURCE: Code = code("import.invalid_source", Usage);
pub const IMPORT_LOCK_INVALID: Code = code("import.lock_invalid", Failure);
pub const IMPORT_NO_PACKAGE: Code = code("import.no_package", Usage);
pub const IMPORT_NOT_FOUND: Code = code("import.not_found", Failure);
pub const IMPORT_SERVER_FAILED: Code = code("import.server_failed", Failure);
pub const IMPORT_SIZE_MISMATCH: Code = code("import.size_mismatch", Unavailable);
pub const IMPORT_UNAUTHORIZED: Code = code("import.unauthorized", Auth);
pub const IMPORT_UNAVAILABLE: Code = code("import.unavailable", Unavailable);

pub const MAN_UNKNOWN_PAGE: Code = code("man.unknown_page", Usage);

pub const PACKAGE_NO_DESTINATION: Code = code("package.no_destination", Failure);
/// A package file could not be read while hashing it.
pub const PACKAGE_READ: Code = code("package.read", Failure);

pub const PUSH_CONFIRMATION_REQUIRED: Code = code(api::PUSH_CONFIRMATION_REQUIRED, Refused);
pub const PUSH_DESTINATION: Code = code("push.destination", Usage);
/// No handler (plugin or built-in) claims the destination: the destination given is not
/// one anything here takes (issue 55, item 12: a usage error, not a failure).
pub const PUSH_NO_HANDLER: Code = code("push.no_handler", Usage);
/// A branch could not be decided (no `--branch`, no CI variable, no git branch).
pub const PUSH_NO_BRANCH: Code = code("push.no_branch", Usage);
pub const PUSH_PROD_CONFIRMATION_REQUIRED: Code = code("push.prod_confirmation_required", Refused);
pub const PUSH_PROTECTED_REF: Code = code(api::PUSH_PROTECTED_REF, Refused);

pub const USAGE_INVALID_DESTINATION: Code = code("usage.invalid_destination", Usage);
pub const USAGE_INVALID_ENV: Code = code("usage.invalid_env", Usage);
/// `stone credentials` with stdout on a terminal: its output holds a token.
pub const USAGE_SECRET_ON_TERMINAL: Code = code("usage.secret_on_terminal", Usage);

/// An error no code was given to.
pub const INTERNAL: Code = code("internal", Failure);

/// Every code stone knows, each once, with its exit status.
pub const TABLE: &[Code] = &[
    // The CLI's own.
    AUTH_INTERACTIVE_IN_CI,
    AUTH_ISSUER_MISMATCH,
    AUTH_NO_ISSUER,
    AUTH_STORE,
    EVENTS_CURSOR_EXPIRED,
    EVENTS_FAILED,
    EVENTS_INVALID_SOURCE,
    EVENTS_UNAUTHORIZED,
    EVENTS_UNAVAILABLE,
    FORMAT_RDF_NOT_BUILT,
    IMPORT_DIGEST_MISMATCH,
    IMPORT_FAILED,
    IMPORT_FORMAT,
    IMPORT_INTERRUPTED,
    IMPORT_INVALID_FILE,
    IMPORT_INVALID_NAME,
    IMPORT_INVALID_OPTION,
    IMPORT_INVALID_SOURCE,
    IMPORT_LOCK_INVALID,
    IMPORT_NO_PACKAGE,
    IMPORT_NOT_FOUND,
    IMPORT_SERVER_FAILED,
    IMPORT_SIZE_MISMATCH,
    IMPORT_UNAUTHORIZED,
    IMPORT_UNAVAILABLE,
    MAN_UNKNOWN_PAGE,
    PACKAGE_NO_DESTINATION,
    PACKAGE_READ,
    PUSH_CONFIRMATION_REQUIRED,
    PUSH_DESTINATION,
    PUSH_NO_HANDLER,
    PUSH_NO_BRANCH,
    PUSH_PROD_CONFIRMATION_REQUIRED,
    PUSH_PROTECTED_REF,
    USAGE_INVALID_DESTINATION,
    USAGE_INVALID_ENV,
    USAGE_SECRET_ON_TERMINAL,
    INTERNAL,
    // The config file and its environments (crate::config::ConfigError).
    code("config.invalid", Usage),
    code("env.exists", Usage),
    code("env.invalid", Usage),
    code("env.unknown", Usage),
    // The package model: its mistakes exit 1; the `ext/` zone is a guard the
    // specification names (a push refuses it), 4.
    code(package::DUPLICATE_SLUG, Failure),
    code(package::EXT_ZONE, Refused),
    code(package::FILE_MISSING, Failure),
    code(package::INVALID, Failure),
    code(package::INVALID_NAME, Failure),
    code(package::IO, Failure),
    code(package::NO_DESCRIPTOR, Failure),
    code(package::NO_FOLDER, Failure),
    code(package::PATH_REFUSED, Failure),
    // Identity (stone_auth::AuthError): all of them 3.
    code("auth.denied", Auth),
    code("auth.device_unsupported", Auth),
    code("auth.discovery", Auth),
    code("auth.id_token", Auth),
    code("auth.login_required", Auth),
    code("auth.loopback", Auth),
    code("auth.no_audience", Auth),
    code("auth.protocol", Auth),
    code("auth.random", Auth),
    code("auth.refused", Auth),
    code("auth.state_mismatch", Auth),
    code("auth.step_up_failed", Auth),
    code("auth.timeout", Auth),
    code("auth.unavailable", Auth),
    // Formats (stone_formats::FormatError).
    code("format.column_name", Failure),
    code("format.csv", Failure),
    code("format.dialect", Failure),
    code("format.io", Failure),
    code("format.limit_exceeded", Failure),
    code("format.parquet", Failure),
    code("format.rdf", Failure),
    code("format.unsupported_type", Failure),
    code("schema.mismatch", Failure),
    // Pushes (stone_push::PushError).
    code("push.check_failed", Failure),
    code("push.failed", Failure),
    code("push.io", Failure),
    code("push.protocol", Failure),
    code("push.store", Failure),
    code("push.store_unavailable", Unavailable),
    code("push.store_unsupported", Failure),
    code("push.unavailable", Unavailable),
    code("push.upload_failed", Unavailable),
    // Plugins (stone_push::external::PluginError): all of them 6.
    code("plugin.cancelled", ExitStatus::Plugin),
    code("plugin.exited", ExitStatus::Plugin),
    code("plugin.failed", ExitStatus::Plugin),
    code("plugin.not_a_handler", ExitStatus::Plugin),
    code("plugin.protocol", ExitStatus::Plugin),
    code("plugin.start", ExitStatus::Plugin),
    code("plugin.timeout", ExitStatus::Plugin),
    code("plugin.version", ExitStatus::Plugin),
    // The server's (stone_api::codes). The guards of protected refs exit 4, `force`'s
    // included (issue 55, item 12: `version.exists` exited 1).
    code(api::AUTH_INVALID_TOKEN, Auth),
    code(api::AUTH_REQUIRED, Auth),
    code(api::AUTH_STEP_UP_REQUIRED, Auth),
    code(api::AUTHZ_FORBIDDEN, Refused),
    code(api::PUSH_FORCE_FORBIDDEN, Refused),
    code(api::PUSH_DELETION_REQUIRES_FORCE, Refused),
    code(api::PUSH_RETRACTION_REQUIRES_FORCE, Refused),
    code(api::SCHEMA_INCOMPATIBLE, Refused),
    code(api::VERSION_EXISTS, Refused),
    code(api::DATASET_LIMIT_EXCEEDED, Failure),
    code(api::DATASET_NOT_FOUND, Failure),
    code(api::SUBSCRIPTION_NOT_FOUND, Failure),
    code(api::SUBSCRIPTION_TARGET_FORBIDDEN, Refused),
    code(api::ENGINE_FAILED, Failure),
    code(api::ENGINE_UNAVAILABLE, Unavailable),
    code(api::GRAPH_INVALID_RDF, Failure),
    code(api::GRAPH_TOO_LARGE, Failure),
    code(api::ICEBERG_READ_ONLY, Failure),
    code(api::MANIFEST_INVALID_SIZE, Failure),
    code(api::NAMESPACE_QUOTA_EXCEEDED, Failure),
    code(api::PUSH_CONFLICT, Failure),
    code(api::PUSH_CRASHED, Failure),
    code(api::PUSH_EXPIRED, Failure),
    code(api::PUSH_INCOMPLETE, Failure),
    code(api::PUSH_NOT_FOUND, Failure),
    code(api::PUSH_SKIPPED, Failure),
    code(api::PUSH_TOO_LARGE, Failure),
    code(api::REQUEST_CROSS_ORIGIN, Failure),
    code(api::REQUEST_INVALID, Failure),
    code(api::REQUEST_MISDIRECTED, Failure),
    code(api::REQUEST_NOT_ACCEPTABLE, Failure),
    code(api::REQUEST_NOT_FOUND, Failure),
    code(api::REQUEST_RANGE_NOT_SATISFIABLE, Failure),
    code(api::REQUEST_TIMEOUT, Unavailable),
    code(api::SERVER_INTERNAL, Failure),
    code(api::SERVER_STORAGE_FULL, Unavailable),
    code(api::SERVER_UNAVAILABLE, Unavailable),
    code(api::SPARQL_TIMEOUT, Failure),
    code(api::SPARQL_TOO_LARGE, Failure),
    code(api::STAGING_CREDENTIALS_SENT, Failure),
    code(api::STAGING_DIGEST_MISMATCH, Failure),
    code(api::STAGING_EXPIRED, Failure),
    code(api::STAGING_INVALID_SIGNATURE, Failure),
    code(api::STAGING_PACK_INVALID, Failure),
    code(api::STAGING_PARTS_MISSING, Failure),
    code(api::STAGING_SIZE_MISMATCH, Failure),
    code(api::STAGING_UNKNOWN_UPLOAD, Failure),
    code(api::TABULAR_INVALID_FILE, Failure),
];

/// The table's status of a code, if the table has it.
pub fn lookup(name: &str) -> Option<ExitStatus> {
    TABLE.iter().find(|c| c.name == name).map(|c| c.status)
}

/// The exit status of a code: the table's; for a code it does not know (a newer server's),
/// `auth.*` is 3, else the HTTP status it came with decides (401: 3, 403: 4), else 1.
pub fn status(name: &str, http_status: Option<u16>) -> ExitStatus {
    if let Some(status) = lookup(name) {
        return status;
    }
    match http_status {
        _ if name.starts_with("auth.") => Auth,
        Some(401) => Auth,
        Some(403) => Refused,
        _ => Failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_is_in_the_table_once() {
        let mut names: Vec<&str> = TABLE.iter().map(|c| c.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "a code is listed twice");
    }

    #[test]
    fn unknown_codes_go_by_family_and_http_status() {
        assert_eq!(status("version.exists", Some(409)), Refused);
        assert_eq!(status("auth.newer", Some(400)), Auth);
        assert_eq!(status("x.y", Some(401)), Auth);
        assert_eq!(status("x.y", Some(403)), Refused);
        assert_eq!(status("x.y", Some(409)), Failure);
    }
}
