//! What a failure of something the server depends on says about trying again (issue 54):
//! its disk full, a store (S3, PostgreSQL, the state database) down or busy. The one rule,
//! used wherever such a failure becomes an answer: a request's (`ApiError`), a dataset's
//! (`engine_failure`).
//!
//! A failure is read along its whole `source()` chain: the typed errors first (an
//! `io::Error`'s kind, a database's own code, sqlx's pool and I/O failures), then the text
//! the engines' libraries leave of them (RocksDB and iceberg-rust keep a cause only as its
//! message: `No space left on device`, `Connection refused`).

use std::error::Error;

/// A failure that may pass without a change of the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outage {
    /// No space left on the disk (or quota) the server writes to: `ENOSPC`, `EDQUOT`,
    /// SQLite's `SQLITE_FULL`, PostgreSQL's `disk_full`.
    StorageFull,
    /// A store did not answer or was busy: a connection refused, reset or timed out, a
    /// pool with no connection to give, PostgreSQL shutting down or not accepting
    /// connections yet, SQLite's `database is locked`, an object store's 5xx.
    Unavailable,
}

/// The outage `error` is, reading its whole chain; `None` for any other failure.
pub fn outage(error: &(dyn Error + 'static)) -> Option<Outage> {
    let mut found = None;
    let mut next = Some(error);
    while let Some(error) = next {
        let here = typed(error).or_else(|| by_text(&error.to_string()));
        // Storage full wins: a write that failed for want of space and was then reported
        // as a failed connection is still a full disk.
        match here {
            Some(Outage::StorageFull) => return Some(Outage::StorageFull),
            Some(Outage::Unavailable) => found = Some(Outage::Unavailable),
            None => {}
        }
        next = error.source();
    }
    found
}

/// Whether `error` is an `ENOSPC` or `EDQUOT`.
pub fn is_disk_full(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
    )
}

fn typed(error: &(dyn Error + 'static)) -> Option<Outage> {
    if let Some(io) = error.downcast_ref::<std::io::Error>() {
        return io_outage(io);
    }
    if let Some(sqlx) = error.downcast_ref::<sqlx::Error>() {
        return match sqlx {
            sqlx::Error::Io(io) => io_outage(io).or(Some(Outage::Unavailable)),
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::WorkerCrashed => {
                Some(Outage::Unavailable)
            }
            sqlx::Error::Database(db) => db.code().and_then(|code| database_code(&code)),
            _ => None,
        };
    }
    None
}

fn io_outage(error: &std::io::Error) -> Option<Outage> {
    use std::io::ErrorKind::*;
    if is_disk_full(error) {
        return Some(Outage::StorageFull);
    }
    matches!(
        error.kind(),
        ConnectionRefused
            | ConnectionReset
            | ConnectionAborted
            | NotConnected
            | BrokenPipe
            | TimedOut
            | HostUnreachable
            | NetworkUnreachable
            | NetworkDown
    )
    .then_some(Outage::Unavailable)
}

/// A database's own code: PostgreSQL's SQLSTATE (always five characters, digits often),
/// or SQLite's extended result code (a number of at most four digits), read by its primary
/// code.
fn database_code(code: &str) -> Option<Outage> {
    if code.len() != 5
        && let Ok(number) = code.parse::<i64>()
    {
        return match number & 0xff {
            13 => Some(Outage::StorageFull),    // SQLITE_FULL
            5 | 6 => Some(Outage::Unavailable), // SQLITE_BUSY, SQLITE_LOCKED
            _ => None,
        };
    }
    match code {
        "53100" => Some(Outage::StorageFull), // disk_full
        // connection_exception (08…), admin_shutdown, crash_shutdown, cannot_connect_now,
        // too_many_connections
        c if c.starts_with("08") => Some(Outage::Unavailable),
        "57P01" | "57P02" | "57P03" | "53300" => Some(Outage::Unavailable),
        _ => None,
    }
}

/// What is left of a cause as text: strerror's words for `ENOSPC` and the connection
/// failures, SQLite's, and an object store's 5xx as object_store and iceberg-rust write them.
fn by_text(text: &str) -> Option<Outage> {
    const FULL: [&str; 3] = [
        "No space left on device",
        "database or disk is full",
        "Disk quota exceeded",
    ];
    const UNAVAILABLE: [&str; 10] = [
        "Connection refused",
        "Connection reset by peer",
        "connection closed before message completed",
        "Broken pipe",
        "timed out",
        "database is locked",
        "503 Service Unavailable",
        "502 Bad Gateway",
        "504 Gateway Timeout",
        "error sending request",
    ];
    if FULL.iter().any(|words| text.contains(words)) {
        Some(Outage::StorageFull)
    } else if UNAVAILABLE.iter().any(|words| text.contains(words)) {
        Some(Outage::Unavailable)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("writing the table failed")]
    struct Wrapper(#[source] Box<dyn Error + Send + Sync>);

    #[test]
    fn the_chain_is_read_typed_then_by_text() {
        let full = Wrapper(Box::new(std::io::Error::from(
            std::io::ErrorKind::StorageFull,
        )));
        assert_eq!(outage(&full), Some(Outage::StorageFull));
        let reset = Wrapper(Box::new(std::io::Error::from(
            std::io::ErrorKind::ConnectionReset,
        )));
        assert_eq!(outage(&reset), Some(Outage::Unavailable));
        let rocksdb = Wrapper(
            "IO error: While appending to file: /data/graph/000012.log: No space left on device"
                .into(),
        );
        assert_eq!(outage(&rocksdb), Some(Outage::StorageFull));
        let pool = Wrapper(Box::new(sqlx::Error::PoolTimedOut));
        assert_eq!(outage(&pool), Some(Outage::Unavailable));
        let other = Wrapper("the file is not Parquet".into());
        assert_eq!(outage(&other), None);
    }

    #[test]
    fn database_codes() {
        assert_eq!(database_code("13"), Some(Outage::StorageFull));
        assert_eq!(database_code("517"), Some(Outage::Unavailable)); // SQLITE_BUSY_SNAPSHOT
        assert_eq!(database_code("19"), None); // SQLITE_CONSTRAINT
        assert_eq!(database_code("53100"), Some(Outage::StorageFull));
        assert_eq!(database_code("08006"), Some(Outage::Unavailable));
        assert_eq!(database_code("57P01"), Some(Outage::Unavailable));
        assert_eq!(database_code("23505"), None); // unique_violation
    }
}
