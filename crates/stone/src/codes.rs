//! The CLI's exit statuses, and its own error codes, each with the one exit status it has
//! wherever it is raised.
//!
//! A code reaches scripts (`--json`: `error.code`) and people (the exit status); both are
//! fixed here, so that no call site can give a code another status. Codes the server sends
//! are [`stone_api::codes`].

use std::process::ExitCode;

use serde::Serialize;

/// Exit codes, as listed in `stone --help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExitStatus {
    Success = 0,
    Failure = 1,
    Usage = 2,
    Auth = 3,
    Refused = 4,
    Unavailable = 5,
    Plugin = 6,
    Bug = 101,
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status as u8)
    }
}

/// An error code and its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub name: &'static str,
    pub status: ExitStatus,
}

const fn code(name: &'static str, status: ExitStatus) -> Code {
    Code { name, status }
}

pub const AUTH_INTERACTIVE_IN_CI: Code = code("auth.interactive_in_ci", ExitStatus::Auth);
pub const AUTH_ISSUER_MISMATCH: Code = code("auth.issuer_mismatch", ExitStatus::Auth);
pub const AUTH_NO_ISSUER: Code = code("auth.no_issuer", ExitStatus::Auth);
pub const AUTH_STORE: Code = code("auth.store", ExitStatus::Auth);

pub const FORMAT_RDF_NOT_BUILT: Code = code("format.rdf_not_built", ExitStatus::Usage);

pub const IMPORT_DIGEST_MISMATCH: Code = code("import.digest_mismatch", ExitStatus::Failure);
pub const IMPORT_FAILED: Code = code("import.failed", ExitStatus::Failure);
pub const IMPORT_FORMAT: Code = code("import.format", ExitStatus::Usage);
pub const IMPORT_INTERRUPTED: Code = code("import.interrupted", ExitStatus::Failure);
pub const IMPORT_INVALID_FILE: Code = code("import.invalid_file", ExitStatus::Failure);
pub const IMPORT_INVALID_NAME: Code = code("import.invalid_name", ExitStatus::Usage);
pub const IMPORT_INVALID_OPTION: Code = code("import.invalid_option", ExitStatus::Usage);
pub const IMPORT_INVALID_SOURCE: Code = code("import.invalid_source", ExitStatus::Usage);
pub const IMPORT_LOCK_INVALID: Code = code("import.lock_invalid", ExitStatus::Failure);
pub const IMPORT_NO_PACKAGE: Code = code("import.no_package", ExitStatus::Usage);
pub const IMPORT_NOT_FOUND: Code = code("import.not_found", ExitStatus::Failure);
pub const IMPORT_SERVER_FAILED: Code = code("import.server_failed", ExitStatus::Failure);
pub const IMPORT_SIZE_MISMATCH: Code = code("import.size_mismatch", ExitStatus::Unavailable);
pub const IMPORT_UNAUTHORIZED: Code = code("import.unauthorized", ExitStatus::Auth);
pub const IMPORT_UNAVAILABLE: Code = code("import.unavailable", ExitStatus::Unavailable);

pub const MAN_UNKNOWN_PAGE: Code = code("man.unknown_page", ExitStatus::Usage);

pub const PACKAGE_NO_DESTINATION: Code = code("package.no_destination", ExitStatus::Failure);

pub const PUSH_CONFIRMATION_REQUIRED: Code =
    code("push.confirmation_required", ExitStatus::Refused);
pub const PUSH_DESTINATION: Code = code("push.destination", ExitStatus::Usage);
pub const PUSH_NO_HANDLER: Code = code("push.no_handler", ExitStatus::Failure);
pub const PUSH_PROD_CONFIRMATION_REQUIRED: Code =
    code("push.prod_confirmation_required", ExitStatus::Refused);
pub const PUSH_PROTECTED_REF: Code = code("push.protected_ref", ExitStatus::Refused);

pub const USAGE_INVALID_DESTINATION: Code = code("usage.invalid_destination", ExitStatus::Usage);
pub const USAGE_INVALID_ENV: Code = code("usage.invalid_env", ExitStatus::Usage);

/// A branch could not be decided (no `--branch`, no CI variable, no git branch).
pub const PUSH_NO_BRANCH: Code = code("push.no_branch", ExitStatus::Usage);
/// A package file could not be read while hashing it.
pub const PACKAGE_READ: Code = code("package.read", ExitStatus::Failure);
/// An error no code was given to (a bug to report).
pub const INTERNAL: Code = code("internal", ExitStatus::Failure);
