//! Errors for people and scripts: `error:` / `Caused by:` / `hint:`, a stable dotted code,
//! and an exit code scripts can rely on.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::Serialize;
use stone_api::codes as api;
use stone_auth::AuthError;
use stone_formats::FormatError;
use stone_package::{BranchError, DescriptorError, DigestError, PackageError};
use stone_push::PushError;
use stone_push::import::{ImportError, ImportErrorKind};
use stone_push::plan::NoDestination;

pub use crate::codes::ExitStatus;
use crate::codes::{self, Code};
use crate::config::ConfigError;

/// An error raised by the CLI itself, with everything needed to report it.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    pub code: &'static str,
    pub status: ExitStatus,
    pub message: String,
    pub hint: Option<String>,
}

impl CliError {
    /// An error with its code; the code decides the exit status ([`crate::codes`]).
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        CliError {
            code: code.name,
            status: code.status,
            message: message.into(),
            hint: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// What is shown of an error.
#[derive(Debug, Serialize)]
pub struct Report {
    pub code: Cow<'static, str>,
    #[serde(skip)]
    pub status: ExitStatus,
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Where in datasets.yaml, when the error is located there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Located>,
}

#[derive(Debug, Serialize)]
pub struct Located {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// Walks the error chain once: the first error that knows its code, exit status and hint
/// decides them.
pub fn report(error: &anyhow::Error) -> Report {
    let mut chain = error.chain();
    let message = chain.next().map(ToString::to_string).unwrap_or_default();
    // A cause whose text the line before already holds (a library error that prints its
    // source, as object_store's do) is not shown again (issue 55, item 10: a server's
    // HTML page three times).
    let mut causes: Vec<String> = Vec::new();
    for cause in chain.map(|c| c.to_string()) {
        let shown = causes.last().unwrap_or(&message);
        if !shown.contains(cause.trim()) {
            causes.push(cause);
        }
    }
    let mut report = Report {
        code: codes::INTERNAL.name.into(),
        status: codes::INTERNAL.status,
        message,
        causes,
        hint: None,
        location: None,
    };
    for cause in error.chain() {
        // The status comes from the code, through the one table (crate::codes), except
        // where said.
        let mut http_status = None;
        if let Some(e) = cause.downcast_ref::<CliError>() {
            (report.code, report.hint) = (e.code.into(), e.hint.clone());
        } else if let Some(e) = cause.downcast_ref::<PackageError>() {
            (report.code, report.hint) = (e.code().into(), e.hint());
            if let PackageError::Descriptor(d) = e {
                report.location = Some(located(d));
            }
        } else if let Some(e) = cause.downcast_ref::<DescriptorError>() {
            (report.code, report.hint) = (e.code.into(), e.hint.clone());
            report.location = Some(located(e));
        } else if let Some(e) = cause.downcast_ref::<ConfigError>() {
            (report.code, report.hint) = (e.code().into(), e.hint());
        } else if let Some(e) = cause.downcast_ref::<BranchError>() {
            report.code = codes::PUSH_NO_BRANCH.name.into();
            report.hint = Some(match e {
                BranchError::Missing(_) => {
                    "pass `--branch NAME` (stone never pushes to `main` by default)".into()
                }
                BranchError::Empty(_) => "give a non-empty branch name".into(),
                BranchError::TooLong(..) => {
                    "give a shorter branch name with `--branch NAME`".into()
                }
            });
        } else if let Some(e) = cause.downcast_ref::<ImportError>() {
            report.code = import_code(e.kind).name.into();
            report.hint = e.hint.clone();
        } else if cause.downcast_ref::<NoDestination>().is_some() {
            report.code = codes::PACKAGE_NO_DESTINATION.name.into();
            report.hint = Some(
                "add `publish: {to: \"stone:<namespace>\"}` to datasets.yaml, or pass --to".into(),
            );
        } else if let Some(e) = cause.downcast_ref::<PushError>() {
            report.code = e.code().into();
            report.hint = push_hint(e);
            match e {
                // A plugin's failure exits 6 whatever code it names (its codes are its own);
                // the causes it sent are shown as the others are (`Caused by:`).
                PushError::Plugin(plugin) => {
                    report.status = ExitStatus::Plugin;
                    report.causes.extend(plugin.causes().iter().cloned());
                    break;
                }
                PushError::Refused { status, .. } => http_status = Some(*status),
                _ => {}
            }
        } else if let Some(e) = cause.downcast_ref::<AuthError>() {
            (report.code, report.hint) = (e.code().into(), e.hint());
        } else if let Some(e) = cause.downcast_ref::<FormatError>() {
            (report.code, report.hint) = (e.code().into(), e.hint());
        } else if cause.downcast_ref::<DigestError>().is_some() {
            report.code = codes::PACKAGE_READ.name.into();
            report.hint = Some("check the file and run the command again".into());
        } else {
            continue;
        }
        report.status = codes::status(&report.code, http_status);
        break;
    }
    report
}

/// The code of an import error of each kind.
fn import_code(kind: ImportErrorKind) -> Code {
    match kind {
        ImportErrorKind::DigestMismatch => codes::IMPORT_DIGEST_MISMATCH,
        ImportErrorKind::Failed => codes::IMPORT_FAILED,
        ImportErrorKind::Format => codes::IMPORT_FORMAT,
        ImportErrorKind::InvalidFile => codes::IMPORT_INVALID_FILE,
        ImportErrorKind::InvalidName => codes::IMPORT_INVALID_NAME,
        ImportErrorKind::InvalidOption => codes::IMPORT_INVALID_OPTION,
        ImportErrorKind::InvalidSource => codes::IMPORT_INVALID_SOURCE,
        ImportErrorKind::LockInvalid => codes::IMPORT_LOCK_INVALID,
        ImportErrorKind::NoPackage => codes::IMPORT_NO_PACKAGE,
        ImportErrorKind::NotFound => codes::IMPORT_NOT_FOUND,
        ImportErrorKind::ServerFailed => codes::IMPORT_SERVER_FAILED,
        ImportErrorKind::SizeMismatch => codes::IMPORT_SIZE_MISMATCH,
        ImportErrorKind::Unauthorized => codes::IMPORT_UNAUTHORIZED,
        ImportErrorKind::Unavailable => codes::IMPORT_UNAVAILABLE,
    }
}

fn push_hint(e: &PushError) -> Option<String> {
    if let PushError::Unavailable {
        phase: stone_push::error::Phase::Info | stone_push::error::Phase::Stage,
        url,
        ..
    } = e
    {
        // Nothing was started on the server: there is nothing to resume (issue 55, item 5).
        return Some(format!(
            "nothing reached the server yet: check that the server of {url} is running and that \
             --env names the environment you mean (`stone env list`), then run the same command again"
        ));
    }
    if let PushError::ServerFailed { problem, .. } = e {
        return Some(server_failed_hint(problem));
    }
    if let PushError::Failed {
        transient: true, ..
    } = e
    {
        return Some(
            "the server's disk was full or a store it depends on did not answer: run the \
             same command again (later, if its disk is full): the datasets already written \
             stay as they are, the others are written once"
                .into(),
        );
    }
    if e.resumable() {
        return Some("run the same command again: the push resumes where it stopped".into());
    }
    match e {
        PushError::Auth(e) => e.hint(),
        PushError::Refused { problem, .. } => match problem.code.as_str() {
            api::AUTH_REQUIRED | api::AUTH_INVALID_TOKEN => Some(
                "log in with `stone login --env ENV` (in CI: set STONE_TOKEN to a valid access token)".into(),
            ),
            api::PUSH_PROTECTED_REF => Some(
                "this ref is protected: ask for the role it names, or push to another branch".into(),
            ),
            api::PUSH_CONFIRMATION_REQUIRED => Some("this ref is protected: confirm the push with --yes".into()),
            api::PUSH_FORCE_FORBIDDEN => Some("--force on a protected ref needs the elevated role".into()),
            api::SCHEMA_INCOMPATIBLE | api::VERSION_EXISTS => {
                Some("on a protected ref this needs --force (and the elevated role)".into())
            }
            api::PUSH_TOO_LARGE => Some(
                "the server takes at most so many datasets, files or bytes in one push: split the package, or ask the operator to raise [limits]".into(),
            ),
            api::NAMESPACE_QUOTA_EXCEEDED => Some(
                "the namespace is at its quota: delete datasets it no longer needs (push the package with --replace without them), or ask the server's operator to raise the namespace's quota ([quotas])".into(),
            ),
            api::MANIFEST_INVALID_SIZE => Some(
                "a file is larger than the server takes ([limits] max_file_size): leave it out or ask the operator".into(),
            ),
            _ => None,
        },
        PushError::Unsupported { .. } => Some(
            "push to a WebDAV server (nginx with dav_methods, Apache mod_dav, `rclone serve webdav`, …) or to a blob store (`--to s3://…`, `file://…`)".into(),
        ),
        PushError::Failed { .. } => {
            Some("fix what failed and run the same command again: datasets already written stay unchanged".into())
        }
        _ => None,
    }
}

/// What to do when the server answered a status that may pass on every try (issue 54):
/// by what it said, never "nothing reached the server" (it answered).
fn server_failed_hint(problem: &stone_api::Problem) -> String {
    let again = "run the same command again later: the push resumes where it stopped";
    let incident = problem
        .extra
        .get("incident")
        .and_then(|v| v.as_str())
        .map(|id| format!(" (incident {})", terminal_safe(id)))
        .unwrap_or_default();
    match problem.code.as_str() {
        api::SERVER_STORAGE_FULL => "the server has no space left on its disk: run the same \
             command again once its operator has freed space (the push resumes where it \
             stopped; nothing of it was lost)"
            .into(),
        api::SERVER_INTERNAL => format!(
            "the server failed on its side{incident}: {again}; if it keeps failing, give \
             the platform's operators the incident"
        ),
        _ if problem.code.ends_with(".unavailable") || problem.status == 503 => {
            format!("a service the server depends on is unavailable: {again}")
        }
        _ => format!("the server kept answering HTTP {}: {again}", problem.status),
    }
}

fn located(e: &DescriptorError) -> Located {
    Located {
        file: e.file.display().to_string(),
        line: e.location.map(|l| l.line),
        column: e.location.map(|l| l.column),
    }
}

/// The human rendering, for stderr. Server problems and plugin output reach it: every
/// part goes through [`terminal_safe`].
pub fn render(report: &Report) -> String {
    let mut out = format!("error: {}\n", terminal_safe(&report.message));
    for cause in &report.causes {
        let _ = writeln!(out, "  Caused by: {}", terminal_safe(cause));
    }
    if let Some(hint) = &report.hint {
        let _ = writeln!(out, "hint: {}", terminal_safe(hint));
    }
    out
}

/// Text for a terminal, from anyone (a server's problem detail, a plugin's log or stderr):
/// control characters other than a line feed or a tab (escape sequences, carriage returns,
/// bells, C1 controls) and Unicode direction overrides are shown escaped (`\u{1b}`), so
/// what is printed cannot retitle the window, move the cursor, hide text or pass for
/// something else.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(safe, "\\u{{{:x}}}", c as u32);
        } else {
            safe.push(c);
        }
    }
    std::borrow::Cow::Owned(safe)
}

/// The JSON rendering, for stdout under `--json`.
pub fn render_json(report: &Report) -> String {
    serde_json::to_string_pretty(&serde_json::json!({ "error": report }))
        .expect("a report serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_auth_code_exits_with_the_auth_status() {
        let error = CliError::new(codes::AUTH_NO_ISSUER, "no issuer");
        assert_eq!(error.status, ExitStatus::Auth);
        let error = CliError::new(codes::USAGE_INVALID_ENV, "bad");
        assert_eq!(error.status, ExitStatus::Usage);
    }

    #[test]
    fn terminal_text_has_no_live_control_characters() {
        assert_eq!(terminal_safe("plain\ttext\nnext"), "plain\ttext\nnext");
        assert_eq!(
            terminal_safe("\u{1b}]0;owned\u{7}\u{1b}[2Jx\r\u{9b}\u{202e}"),
            "\\u{1b}]0;owned\\u{7}\\u{1b}[2Jx\\u{d}\\u{9b}\\u{202e}"
        );
    }
}
