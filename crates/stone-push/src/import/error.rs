//! The errors of an import, each of a kind the CLI gives a code and an exit status
//! (`import.<kind>`), with a hint where there is something to do.

/// What went wrong, as a code names it: `import.` and the snake-case name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportErrorKind {
    DigestMismatch,
    Failed,
    Format,
    InvalidFile,
    InvalidName,
    InvalidOption,
    InvalidSource,
    LockInvalid,
    NoPackage,
    NotFound,
    /// The server failed on its side (a 5xx other than 502, 503, 504) on every try: not
    /// something running the command again fixes.
    ServerFailed,
    SizeMismatch,
    Unauthorized,
    Unavailable,
}

/// An import that failed, with what to do about it.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ImportError {
    pub kind: ImportErrorKind,
    pub message: String,
    pub hint: Option<String>,
}

impl ImportError {
    pub fn new(kind: ImportErrorKind, message: impl Into<String>) -> Self {
        ImportError {
            kind,
            message: message.into(),
            hint: None,
        }
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}
