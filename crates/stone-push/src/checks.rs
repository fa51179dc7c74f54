//! Checks of a package's files that must pass before anything is committed, run beside the
//! uploads rather than before them.
//!
//! A GRAPH file is validated as RDF on the client: a mistake is reported with its file,
//! line and column before the server commits anything. Validation parses the whole file
//! (about as long as the upload of a large graph over a fast link), and nothing in it
//! changes what is sent: the bytes uploaded are the file's bytes either way. So
//! [`crate::prepare::prepare`] lists the checks instead of running them, and a handler
//! runs them ([`Checking`]):
//!
//! - the service handler beside its uploads: a failed check stops the uploads and the push
//!   is never committed (the server drops the uncommitted push when it expires);
//! - every other handler (plugins, which are promised validated graphs) before it starts.
//!
//! When a push fails while its checks run, the checks are waited for: a check's failure
//! is the error reported, since it names what the user must fix first.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use stone_package::Format;
use tokio::sync::oneshot;

use crate::PushError;

mod ahead;
pub use ahead::{Ahead, AheadFile};

/// Bump when validation would now refuse what it accepted before: markers of other
/// versions are not trusted.
const CHECK_VERSION: u32 = 1;

/// Files smaller than this leave no marker ([`GraphCheck::markers`]): parsing one again
/// costs less than the marker. Measured (issue 56): a 4 KiB N-Triples file parses in tens
/// of microseconds, where creating its marker cost ~0.5 ms of the kernel's time on ext4
/// (20,000 small graphs: 10 s of the client's system time, most of the push's pack phase);
/// 64 KiB parse in about a millisecond.
pub const MARKER_MIN_BYTES: u64 = 64 << 10;

/// One file checked before the commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphCheck {
    /// The resource's slug (named by the error).
    pub resource: String,
    pub path: PathBuf,
    pub format: Format,
    /// The file's sha256 as the plan hashed it.
    pub sha256: String,
    /// Where a content that passed leaves its marker (`<package>/.stone/checked`), so that
    /// it is not parsed again (an unchanged or resumed push of a large graph); `None`: always
    /// parse (a file under [`MARKER_MIN_BYTES`]).
    pub markers: Option<PathBuf>,
    /// Its parse, when it was started before the plan hashed the file ([`Ahead`]).
    pub ahead: Option<AheadFile>,
}

impl GraphCheck {
    /// Parses the file whole, unless its content passed before (its marker); the error names
    /// the resource, the file, the line and the column. The marker is only a shortcut of the
    /// client's: the server parses what it commits.
    pub fn run(&self) -> anyhow::Result<()> {
        let marker = self.marker();
        if marker.as_ref().is_some_and(|m| m.is_file()) {
            if let Some(ahead) = &self.ahead {
                ahead.stop();
            }
            return Ok(());
        }
        let parsed_ahead = self.ahead.as_ref().and_then(|a| a.outcome(&self.path));
        parsed_ahead
            .unwrap_or_else(|| {
                stone_formats::rdf::validate_rdf(&self.path, self.format).map(|_| ())
            })
            .with_context(|| format!("the graph `{}` is not valid RDF", self.resource))?;
        if let Some(marker) = marker {
            // A cache: a marker that cannot be written costs a parse next time.
            // `<package>/.stone` made as stone's state directory (private, git-ignored).
            let dir = marker.parent().unwrap_or(Path::new("."));
            let written = dir
                .parent()
                .map_or(Ok(()), stone_package::digest::ensure_state_dir)
                .and_then(|()| std::fs::create_dir_all(dir))
                .and_then(|()| std::fs::write(&marker, b""));
            if let Err(e) = written {
                tracing::debug!(marker = %marker.display(), error = %e, "cannot remember a validated graph");
            }
        }
        Ok(())
    }

    /// `<markers>/<sha256>.<format>.v<CHECK_VERSION>`; none for a digest that is not one
    /// (the hash cache is a file of the package's: its text never becomes a path).
    fn marker(&self) -> Option<PathBuf> {
        let digest = self.sha256.len() == 64
            && self
                .sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        let format = format!("{:?}", self.format).to_ascii_lowercase();
        self.markers
            .as_ref()
            .filter(|_| digest)
            .map(|dir| dir.join(format!("{}.{format}.v{CHECK_VERSION}", self.sha256)))
    }
}

/// Runs `checks` one after the other (a large N-Triples file is parsed on every core).
pub fn run_all(checks: &[GraphCheck]) -> anyhow::Result<()> {
    checks.iter().try_for_each(GraphCheck::run)
}

/// Checks running on a thread of their own.
pub struct Checking {
    state: State,
}

enum State {
    Running(oneshot::Receiver<anyhow::Result<()>>),
    Passed,
    Failed(anyhow::Error),
    /// The failure was returned by [`Checking::wait`].
    Reported,
}

impl Checking {
    /// Starts `checks` (nothing to wait for when there are none). The thread is not
    /// joined: a push that stops early does not wait for it.
    pub fn start(checks: Vec<GraphCheck>) -> Self {
        if checks.is_empty() {
            return Self {
                state: State::Passed,
            };
        }
        let (sender, receiver) = oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name("stone-checks".into())
            .spawn(move || {
                let _ = sender.send(run_all(&checks));
            });
        let state = match spawned {
            Ok(_) => State::Running(receiver),
            Err(e) => State::Failed(anyhow::Error::new(e).context("cannot start the checks")),
        };
        Self { state }
    }

    /// Waits for the checks. A failure is returned once, as [`PushError::Check`]; later
    /// calls return `Ok`. Cancel-safe: dropped before the end, it can be awaited again.
    pub async fn wait(&mut self) -> Result<(), PushError> {
        if let State::Running(receiver) = &mut self.state {
            self.state = match receiver.await {
                Ok(Ok(())) => State::Passed,
                Ok(Err(e)) => State::Failed(e),
                Err(_) => State::Failed(anyhow::anyhow!("the checks stopped without an answer")),
            };
        }
        match std::mem::replace(&mut self.state, State::Passed) {
            State::Failed(e) => {
                self.state = State::Reported;
                Err(PushError::Check(e))
            }
            other => {
                self.state = other;
                Ok(())
            }
        }
    }

    /// Runs `work` beside the checks: its output once both are done, or the first failure
    /// (a check's failure preferred: see [`Self::prefer_failure`]). A failed check stops
    /// `work` (it is dropped). `waiting` is called when the checks are still running
    /// `patience` after `work` is done (a short wait is not worth a word).
    pub async fn beside<T>(
        &mut self,
        work: impl std::future::Future<Output = Result<T, PushError>>,
        patience: std::time::Duration,
        waiting: impl FnOnce(),
    ) -> Result<T, PushError> {
        use futures::future::{Either, select};
        let outcome = {
            let mut checks = std::pin::pin!(self.wait());
            let work = std::pin::pin!(work);
            match select(work, checks.as_mut()).await {
                Either::Left((Ok(done), _)) => {
                    let checked = match tokio::time::timeout(patience, checks.as_mut()).await {
                        Ok(checked) => checked,
                        Err(_) => {
                            waiting();
                            checks.await
                        }
                    };
                    checked.map(|()| done)
                }
                Either::Left((Err(error), _)) | Either::Right((Err(error), _)) => Err(error),
                Either::Right((Ok(()), work)) => work.await,
            }
        };
        match outcome {
            Ok(done) => Ok(done),
            Err(error) => Err(self.prefer_failure(error).await),
        }
    }

    /// `error`, unless the checks fail: then their failure (the push stopped for another
    /// reason, but what the user must fix first is the package).
    pub async fn prefer_failure(&mut self, error: PushError) -> PushError {
        match self.wait().await {
            Err(failed) => failed,
            Ok(()) => error,
        }
    }
}

#[cfg(test)]
mod tests {
    //! Run with the workspace (the `stone` crate turns on `stone-formats/rdf`).
    use std::time::Duration;

    use super::*;

    fn check(dir: &tempfile::TempDir, name: &str, body: &str) -> GraphCheck {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        GraphCheck {
            resource: "g".into(),
            format: Format::detect(&path).unwrap(),
            path,
            sha256: stone_package::digest::sha256_hex(body.as_bytes()),
            markers: None,
            ahead: None,
        }
    }

    #[test]
    fn a_content_that_passed_is_not_parsed_again() {
        let dir = tempfile::tempdir().unwrap();
        let markers = dir.path().join(".stone/checked");
        let mut good = check(
            &dir,
            "a.nt",
            "<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n",
        );
        good.markers = Some(markers.clone());
        good.run().unwrap();
        let marked: Vec<_> = std::fs::read_dir(&markers).unwrap().flatten().collect();
        assert_eq!(marked.len(), 1, "{marked:?}");
        // Other bytes under the same digest: the marker answers, nothing is parsed.
        std::fs::write(&good.path, "not RDF at all").unwrap();
        good.run().unwrap();
        // Without markers, or under another digest, the file is parsed.
        let unmarked = GraphCheck {
            markers: None,
            ..good.clone()
        };
        assert!(unmarked.run().is_err());
        let other = GraphCheck {
            sha256: "f".repeat(64),
            ..good.clone()
        };
        assert!(other.run().is_err());
        assert_eq!(
            std::fs::read_dir(&markers).unwrap().count(),
            1,
            "a content that failed leaves no marker"
        );
        // A digest that is not one never becomes a path.
        let bogus = GraphCheck {
            sha256: "../../escape".into(),
            ..good
        };
        assert!(bogus.run().is_err(), "parsed: the marker is not trusted");
        assert!(!dir.path().join("escape").exists());
    }

    /// A graph over the size parsed ahead: `lines` statements, and an invalid last one
    /// when `broken`.
    fn large_graph(lines: usize, broken: bool) -> String {
        let mut text: String = (0..lines)
            .map(|i| format!("<http://e.org/s{i}> <http://e.org/p> \"statement {i:08}\" .\n"))
            .collect();
        if broken {
            text.push_str("<http://e.org/last> <http://e.org/p> .\n");
        }
        text
    }

    #[test]
    fn a_check_takes_the_parse_started_ahead_while_its_file_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let body = large_graph(100_000, false);
        assert!(body.len() > 4 << 20, "{}", body.len());
        let mut good = check(&dir, "a.nt", &body);
        let mut ahead = Ahead::start([
            (good.path.clone(), good.format, body.len() as u64),
            // Small files are parsed by their check.
            (dir.path().join("small.nt"), good.format, 100),
        ]);
        assert!(ahead.take(&dir.path().join("small.nt")).is_none());
        good.ahead = ahead.take(&good.path);
        let parsed = good.ahead.clone().unwrap();
        assert!(matches!(parsed.outcome(&good.path), Some(Ok(()))));
        // Other bytes of the same size and time: the parse ahead answers for them (the
        // hash cache's rule), so it is the one taken, not a new parse.
        let modified = std::fs::metadata(&good.path).unwrap().modified().unwrap();
        let mut other = body.clone().into_bytes();
        other[0] = b'!';
        std::fs::write(&good.path, &other).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&good.path)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        good.run().unwrap();
        let fresh = GraphCheck {
            ahead: None,
            ..good.clone()
        };
        assert!(fresh.run().is_err(), "without it, the file is parsed");
        // Changed since (another size): parsed again.
        std::fs::write(&good.path, large_graph(100_000, true)).unwrap();
        let error = format!("{:#}", good.run().unwrap_err());
        assert!(error.contains("a.nt:100001:"), "{error}");
    }

    #[test]
    fn a_failure_found_ahead_names_the_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let body = large_graph(100_000, true);
        let mut bad = check(&dir, "b.nt", &body);
        let mut ahead = Ahead::start([(bad.path.clone(), bad.format, body.len() as u64)]);
        bad.ahead = ahead.take(&bad.path);
        drop(ahead);
        let error = format!("{:#}", bad.run().unwrap_err());
        assert!(
            error.contains("the graph `g` is not valid RDF") && error.contains("b.nt:100001:"),
            "{error}"
        );
        // Its error was given once; a second check of the same file parses it.
        let error = format!("{:#}", bad.run().unwrap_err());
        assert!(error.contains("b.nt:100001:"), "{error}");
    }

    #[tokio::test]
    async fn a_failed_check_is_returned_once_with_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let good = check(
            &dir,
            "a.nt",
            "<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n",
        );
        let bad = check(
            &dir,
            "b.ttl",
            "@prefix ex: <http://e.org/> .\nex:a ex:b \"open .\n",
        );
        let mut checking = Checking::start(vec![good.clone(), bad]);
        let error = checking.wait().await.unwrap_err();
        let PushError::Check(error) = error else {
            panic!("not a check failure: {error}");
        };
        let shown = format!("{error:#}");
        assert!(
            shown.contains("the graph `g` is not valid RDF") && shown.contains("b.ttl:2:"),
            "{shown}"
        );
        assert!(
            checking.wait().await.is_ok(),
            "the failure is reported once"
        );
        let mut passing = Checking::start(vec![good]);
        assert!(passing.wait().await.is_ok());
        assert!(Checking::start(Vec::new()).wait().await.is_ok());
    }

    #[tokio::test]
    async fn work_beside_the_checks_says_when_it_waits_for_them() {
        let dir = tempfile::tempdir().unwrap();
        let lines: String = (0..200_000)
            .map(|i| format!("<http://e.org/s{i}> <http://e.org/p> \"{i}\" .\n"))
            .collect();
        let slow = check(&dir, "slow.nt", &lines);
        let waited = std::cell::Cell::new(false);
        let done = Checking::start(vec![slow.clone()])
            .beside(async { Ok(7) }, Duration::ZERO, || waited.set(true))
            .await;
        assert_eq!(done.unwrap(), 7);
        assert!(
            waited.get(),
            "the work was done long before a 10 MB file was parsed"
        );

        let waited = std::cell::Cell::new(false);
        let done = Checking::start(Vec::new())
            .beside(async { Ok(8) }, Duration::ZERO, || waited.set(true))
            .await;
        assert_eq!(done.unwrap(), 8);
        assert!(!waited.get(), "no check: nothing to wait for");

        // A failed check stops work that would never end.
        let bad = check(&dir, "bad.nt", "<http://e.org/a> .\n");
        let stopped = Checking::start(vec![bad.clone()])
            .beside(
                std::future::pending::<Result<(), PushError>>(),
                Duration::ZERO,
                || {},
            )
            .await;
        assert!(matches!(stopped, Err(PushError::Check(_))), "{stopped:?}");
        // Work that fails while a check fails too: the check's failure.
        let failed = Checking::start(vec![bad])
            .beside(
                async { Err::<(), _>(PushError::Destination("elsewhere".into())) },
                Duration::ZERO,
                || {},
            )
            .await;
        assert!(matches!(failed, Err(PushError::Check(_))), "{failed:?}");
    }

    #[tokio::test]
    async fn another_error_gives_way_to_a_failed_check() {
        let dir = tempfile::tempdir().unwrap();
        let bad = check(&dir, "b.nt", "<http://e.org/a> <http://e.org/b> .\n");
        let other = || PushError::Destination("elsewhere".into());
        let preferred = Checking::start(vec![bad]).prefer_failure(other()).await;
        assert!(matches!(preferred, PushError::Check(_)), "{preferred}");
        let good = check(
            &dir,
            "a.nt",
            "<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n",
        );
        let kept = Checking::start(vec![good]).prefer_failure(other()).await;
        assert!(matches!(kept, PushError::Destination(_)), "{kept}");
    }
}
