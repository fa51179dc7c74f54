//! Errors for people and scripts: `error:` / `Caused by:` / `hint:`, a stable dotted code,
//! and an exit code scripts can rely on.

use std::fmt::Write as _;
use std::process::ExitCode;

use serde::Serialize;
use stone_package::{BranchError, DescriptorError, DigestError, PackageError};

use crate::config::ConfigError;

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
    pub fn new(code: &'static str, status: ExitStatus, message: impl Into<String>) -> Self {
        CliError { code, status, message: message.into(), hint: None }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

/// What is shown of an error.
#[derive(Debug, Serialize)]
pub struct Report {
    pub code: &'static str,
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
    let causes = chain.map(ToString::to_string).collect();
    let mut report =
        Report { code: "internal", status: ExitStatus::Failure, message, causes, hint: None, location: None };
    for cause in error.chain() {
        if let Some(e) = cause.downcast_ref::<CliError>() {
            (report.code, report.status, report.hint) = (e.code, e.status, e.hint.clone());
        } else if let Some(e) = cause.downcast_ref::<PackageError>() {
            (report.code, report.hint) = (e.code(), e.hint());
            report.status = package_status(e.code());
            if let PackageError::Descriptor(d) = e {
                report.location = Some(located(d));
            }
        } else if let Some(e) = cause.downcast_ref::<DescriptorError>() {
            (report.code, report.hint, report.status) = (e.code, e.hint.clone(), package_status(e.code));
            report.location = Some(located(e));
        } else if let Some(e) = cause.downcast_ref::<ConfigError>() {
            (report.code, report.hint, report.status) = (e.code(), e.hint(), ExitStatus::Usage);
        } else if let Some(e) = cause.downcast_ref::<BranchError>() {
            report.code = "push.no_branch";
            report.status = ExitStatus::Usage;
            report.hint = Some(match e {
                BranchError::Missing(_) => "pass `--branch NAME` (stone never pushes to `main` by default)".into(),
                BranchError::Empty(_) => "give a non-empty branch name".into(),
            });
        } else if cause.downcast_ref::<DigestError>().is_some() {
            report.code = "package.read";
            report.hint = Some("check the file and run the command again".into());
        } else {
            continue;
        }
        break;
    }
    report
}

fn package_status(code: &str) -> ExitStatus {
    match code {
        "package.ext_zone" | "package.path_refused" => ExitStatus::Refused,
        _ => ExitStatus::Failure,
    }
}

fn located(e: &DescriptorError) -> Located {
    Located {
        file: e.file.display().to_string(),
        line: e.location.map(|l| l.line),
        column: e.location.map(|l| l.column),
    }
}

/// The human rendering, for stderr.
pub fn render(report: &Report) -> String {
    let mut out = format!("error: {}\n", report.message);
    for cause in &report.causes {
        let _ = writeln!(out, "  Caused by: {cause}");
    }
    if let Some(hint) = &report.hint {
        let _ = writeln!(out, "hint: {hint}");
    }
    out
}

/// The JSON rendering, for stdout under `--json`.
pub fn render_json(report: &Report) -> String {
    serde_json::to_string_pretty(&serde_json::json!({ "error": report })).expect("a report serializes")
}
