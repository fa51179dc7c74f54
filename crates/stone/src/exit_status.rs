//! The exit statuses and what each tells, for `--help` (src/cli.rs) and the table of
//! codes (src/codes.rs). No dependencies: build.rs includes it with src/cli.rs to render
//! the man pages.

use std::process::ExitCode;

/// Exit codes, as listed in `stone --help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl ExitStatus {
    /// Every status, in the order `--help` lists them.
    pub const ALL: [ExitStatus; 8] = [
        ExitStatus::Success,
        ExitStatus::Failure,
        ExitStatus::Usage,
        ExitStatus::Auth,
        ExitStatus::Refused,
        ExitStatus::Unavailable,
        ExitStatus::Plugin,
        ExitStatus::Bug,
    ];

    /// What the status tells, as `--help` and the guide say it.
    pub fn meaning(self) -> &'static str {
        match self {
            ExitStatus::Success => "success",
            ExitStatus::Failure => "the push, the import or the package failed",
            ExitStatus::Usage => {
                "usage error (bad flags or destination, missing branch, unknown environment)"
            }
            ExitStatus::Auth => "authentication needed or refused",
            ExitStatus::Refused => {
                "refused by a guard (protected ref, --yes, --force, the ext/ zone)"
            }
            ExitStatus::Unavailable => "unavailable: run the same command again (a push resumes)",
            ExitStatus::Plugin => "a plugin failed",
            ExitStatus::Bug => "a bug in stone: please report it",
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> ExitCode {
        ExitCode::from(status as u8)
    }
}

/// The exit codes section of `stone --help` (and `stone package push --help`), from
/// [`ExitStatus::meaning`].
pub fn exit_codes_help() -> String {
    use std::fmt::Write as _;
    let mut text = String::from("Exit codes:\n");
    for status in ExitStatus::ALL {
        let _ = writeln!(text, "  {:<4} {}", status as u8, status.meaning());
    }
    text.push_str(
        "Every error code (--json: error.code) and its exit code: docs/guide.md, \"Exit codes\".",
    );
    text
}
