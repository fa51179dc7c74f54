//! Push errors, one variant per phase, each naming what failed and whether running the
//! same command again resumes.

use std::path::PathBuf;

use stone_api::Problem;

/// The phase of a push an error happened in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// `GET /info`: what the server is and how it authenticates (before a push, a login,
    /// an import).
    Info,
    Stage,
    Upload,
    Commit,
    Poll,
}

impl Phase {
    /// Who is asked in this phase: the staging store (the server's own, or S3's presigned
    /// URLs) for uploads, the push API otherwise.
    pub fn party(self) -> &'static str {
        match self {
            Phase::Upload => "the staging store",
            _ => "the push API",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Info => "reading the server's information",
            Phase::Stage => "creating the push",
            Phase::Upload => "uploading",
            Phase::Commit => "committing",
            Phase::Poll => "following the commit",
        })
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PushError {
    /// The server refused, with a problem document.
    #[error("{phase}: the server refused: {}", problem.brief())]
    Refused {
        phase: Phase,
        status: u16,
        problem: Box<Problem>,
    },
    /// The server (or network) is not answering; running again resumes.
    #[error("{phase}: {} at {url} is unavailable: {message}", phase.party())]
    Unavailable {
        phase: Phase,
        url: String,
        message: String,
    },
    /// The server answered, on every try, with a status that may pass (a 5xx, 429, 408):
    /// its disk full, a dependency down, a failure of its own. Running again resumes; the
    /// problem names the code and, for a failure of the server's, the incident.
    #[error("{phase}: the push API at {url} answered HTTP {} {tries}: {}", problem.status, problem.brief())]
    ServerFailed {
        phase: Phase,
        url: String,
        problem: Box<Problem>,
        /// How many attempts over how long ([`stone_http::retry::Tries::attempts`]).
        tries: String,
    },
    /// An upload to a staging URL failed.
    #[error("uploading {path} ({sha256}) failed: {message}")]
    Upload {
        path: PathBuf,
        sha256: String,
        message: String,
    },
    /// The commit finished with failed datasets.
    #[error("the push {push_id} failed: {}", failures.join("; "))]
    Failed {
        push_id: String,
        failures: Vec<String>,
        /// Every failure may pass without a change of the package (the server's disk
        /// full, a store it depends on down: [`stone_api::codes::is_transient`]): running
        /// again writes what is missing.
        transient: bool,
        /// The failures' codes (`push.skipped` left out).
        codes: Vec<String>,
    },
    /// The server answered something that is not the push API.
    #[error("{phase}: unexpected answer from {url}: {message}")]
    Protocol {
        phase: Phase,
        url: String,
        message: String,
    },
    /// The destination is not one this handler can take.
    #[error("{0}")]
    Destination(String),
    /// Obtaining a token failed (login, refresh, step-up).
    #[error("authentication failed")]
    Auth(#[from] stone_auth::AuthError),
    /// An external plugin failed (it is named in the message).
    #[error(transparent)]
    Plugin(Box<crate::external::PluginError>),
    /// A blob store or HTTP server refused or failed a request.
    #[error("{action} {url} failed")]
    Store {
        action: String,
        url: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
        /// Whether running again resumes (a network error, a 5xx).
        transient: bool,
    },
    /// The store does not do what the handler needs (an HTTP server without WebDAV
    /// answers `PROPFIND` with 501 or 405): permanent, so asked once and never retried.
    #[error("{url} {lacks}")]
    Unsupported {
        url: String,
        /// What the server lacks, in words ("does not support WebDAV: …").
        lacks: String,
    },
    #[error("cannot read or write {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A check of the package's files failed ([`crate::checks`]): the package's mistake,
    /// reported as it is (its cause names the file).
    #[error(transparent)]
    Check(anyhow::Error),
}

impl PushError {
    /// Stable, dotted code.
    pub fn code(&self) -> String {
        match self {
            PushError::Refused { problem, .. } => problem.code.clone(),
            PushError::Unavailable { .. } => "push.unavailable".into(),
            // The server's own code (`server.storage_full`, `server.internal`, …).
            PushError::ServerFailed { problem, .. } => problem.code.clone(),
            PushError::Upload { .. } => "push.upload_failed".into(),
            // Failed for reasons that pass (the server's disk full, a store down): their
            // code when they share one, else `push.unavailable`; both exit 5.
            PushError::Failed {
                transient: true,
                codes,
                ..
            } => match codes.as_slice() {
                [first, rest @ ..] if rest.iter().all(|c| c == first) => first.clone(),
                _ => "push.unavailable".into(),
            },
            PushError::Failed { .. } => "push.failed".into(),
            PushError::Protocol { .. } => "push.protocol".into(),
            PushError::Destination(_) => "push.destination".into(),
            PushError::Plugin(e) => e.code(),
            // Two codes: the exit status follows the code (running again helps or not).
            PushError::Store {
                transient: true, ..
            } => "push.store_unavailable".into(),
            PushError::Store { .. } => "push.store".into(),
            PushError::Unsupported { .. } => "push.store_unsupported".into(),
            PushError::Io { .. } => "push.io".into(),
            PushError::Auth(e) => e.code().into(),
            PushError::Check(_) => "push.check_failed".into(),
        }
    }

    /// Whether running the same command again resumes this push.
    pub fn resumable(&self) -> bool {
        matches!(
            self,
            PushError::Unavailable { .. }
                | PushError::ServerFailed { .. }
                | PushError::Failed {
                    transient: true,
                    ..
                }
                | PushError::Upload { .. }
                | PushError::Store {
                    transient: true,
                    ..
                }
        )
    }
}
