//! Following a push to its end. What a server can make the client hold or do is bounded:
//! only the push's datasets are kept, texts and their total are capped, and the follow
//! stops when no dataset moves forward for [`STONE_PUSH_STALL_TIMEOUT`].

use super::*;

impl Session<'_> {
    /// Polls the push until it is finished, reporting each dataset's changes. After the
    /// first answer, a server that counts changes sends only the datasets that moved
    /// (`?since=`), and answers as soon as something moved (`&wait=`: no polling delay
    /// between a change and its report); the last answer is returned with every dataset
    /// seen, in the package's order (those `replace` deleted last). `start`: the datasets and the
    /// change number the server gave when the push was created, when this session
    /// committed it (the first poll then asks only for what changed since: no answer
    /// listing every dataset while it commits).
    ///
    /// What a server can make the client hold or do is bounded ([`Followed`]): only the
    /// push's datasets are kept, and the follow stops when no dataset moves forward for
    /// [`stall_timeout`] (the push goes on on the server; the same command follows it
    /// again).
    pub(super) async fn follow(
        &self,
        push_id: &str,
        start: Option<(Vec<DatasetProgress>, u64)>,
    ) -> Result<(PushStatus, Vec<Kept>), PushError> {
        let base = format!("{}/pushes/{push_id}", self.api);
        let stall = stall_timeout()?;
        let mut followed = Followed::new(self.package, self.options.replace);
        let report = |d: &DatasetProgress| {
            self.progress.event(ProgressEvent::Dataset {
                name: d.name.clone(),
                state: status_name(Some(d.state)),
                status: d.status.map(|s| status_name(Some(s))),
            })
        };
        let protocol = |message: String| PushError::Protocol {
            phase: Phase::Poll,
            url: base.clone(),
            message,
        };
        let mut since: Option<u64> = None;
        // Where the page before ended inside change `since` (a server that pages).
        let mut after: Option<u64> = None;
        if let Some((listed, changes)) = start {
            followed.take(listed, &report).map_err(protocol)?;
            since = Some(changes);
        }
        let mut wait = POLL_FIRST;
        // Whether the whole list was asked for since the push ended.
        let mut listed_all = false;
        let mut moved_forward = tokio::time::Instant::now();
        // Commits sent again for a server that lost one.
        let mut recommits = 0;
        loop {
            // Pages of at most MAX_STATUS_PAGE datasets (a server that does not page sends
            // them all, as before).
            let url = match (since, after) {
                (Some(since), Some(after)) => {
                    format!("{base}?since={since}&after={after}&limit={MAX_STATUS_PAGE}")
                }
                (Some(since), None) => {
                    format!("{base}?since={since}&wait={POLL_WAIT_SECONDS}&limit={MAX_STATUS_PAGE}")
                }
                (None, _) => format!("{base}?limit={MAX_STATUS_PAGE}"),
            };
            let asked = tokio::time::Instant::now();
            let mut status: PushStatus = self.request(Phase::Poll, Method::GET, &url, None).await?;
            if status.state == PushState::Staging {
                // Committed, and yet staging: the server lost the commit (its database
                // restored, or failed over or crashed without its last writes; issue 54).
                // A commit is idempotent: it is sent again, a few times at most.
                recommits += 1;
                if recommits > MAX_RECOMMITS {
                    return Err(protocol(format!(
                        "the server still lists push {push_id} as staging after it was \
                         committed {MAX_RECOMMITS} more times"
                    )));
                }
                self.progress.event(ProgressEvent::Note(format!(
                    "the server lists push {push_id} as staging again (it lost the commit): \
                     committing it again"
                )));
                let _: CommitAccepted = self
                    .request(Phase::Commit, Method::POST, &format!("{base}/commit"), None)
                    .await?;
                (since, after, listed_all) = (None, None, false);
                continue;
            }
            let page = status.datasets.len();
            let forward = followed
                .take(std::mem::take(&mut status.datasets), &report)
                .map_err(protocol)?;
            if page >= GIVE_BACK_PAGE {
                // The page's text and records are freed.
                crate::memory::give_back();
            }
            if forward {
                moved_forward = tokio::time::Instant::now();
            } else if !status.state.is_terminal() && moved_forward.elapsed() >= stall {
                return Err(PushError::Unavailable {
                    phase: Phase::Poll,
                    url: base.clone(),
                    message: format!(
                        "no dataset of the push moved forward for {} s ({STONE_PUSH_STALL_TIMEOUT}); \
                         the push {push_id} goes on on the server",
                        stall.as_secs()
                    ),
                });
            }
            // A server that does not count changes sends everything each time.
            let moved = status.changes != since;
            let cursor = (since, after);
            since = status.changes;
            after = status.after.filter(|_| since.is_some());
            if after.is_some() && (since, after) != cursor {
                // More of what changed: the next page at once (also once finished).
                continue;
            }
            after = None;
            if status.state.is_terminal() {
                // A dataset never reported (pending since the push was created, and the
                // push ended before it changed): the whole list is read once, so that the
                // result names every dataset.
                if followed.unseen() && !listed_all {
                    listed_all = true;
                    since = None;
                    continue;
                }
                return Ok((status, followed.finish()));
            }
            // The server waited for this answer, or it brings news: ask again at once.
            // Otherwise (a server that does not wait, or whose changes move nothing
            // forward) poll at intervals.
            if since.is_none() || (!(moved && forward) && asked.elapsed() < POLL_FIRST) {
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(POLL_MAX);
            }
        }
    }
}

/// How long following a commit waits for any dataset of the push to move forward
/// (seconds; default [`STALL_DEFAULT`]) before it stops: the push goes on on the server,
/// and the same command follows it again.
pub const STONE_PUSH_STALL_TIMEOUT: &str = "STONE_PUSH_STALL_TIMEOUT";
/// One hour: longer than any one dataset's write takes on the platform.
const STALL_DEFAULT: Duration = Duration::from_secs(3600);
/// How many times a push a server lists as staging while it is followed is committed
/// again before the follow stops.
const MAX_RECOMMITS: u32 = 3;
/// A page of at least this many datasets is followed by [`crate::memory::give_back`].
const GIVE_BACK_PAGE: usize = 1000;
/// Datasets not in the package a server may report (those `replace` deletes).
const MAX_OTHER_DATASETS: usize = 100_000;
/// The longest name, URL or IRI of a dataset the client keeps.
const MAX_PROGRESS_TEXT: usize = 4096;
/// What the progress of the push's datasets may hold: this much, plus
/// [`PROGRESS_BYTES_PER_DATASET`] per dataset of the push.
const PROGRESS_BYTES_BASE: usize = 16 << 20;
const PROGRESS_BYTES_PER_DATASET: usize = 2048;

/// [`STONE_PUSH_STALL_TIMEOUT`], or its default.
fn stall_timeout() -> Result<Duration, PushError> {
    match std::env::var(STONE_PUSH_STALL_TIMEOUT) {
        Err(_) => Ok(STALL_DEFAULT),
        Ok(value) => match value.trim().parse::<u64>() {
            Ok(seconds) if seconds > 0 => Ok(Duration::from_secs(seconds)),
            _ => Err(PushError::Destination(format!(
                "{STONE_PUSH_STALL_TIMEOUT}={value:?}: expected a number of seconds (at least 1)"
            ))),
        },
    }
}

/// How far a dataset's write has got.
fn rank(state: DatasetState) -> u8 {
    match state {
        DatasetState::Pending | DatasetState::Unknown => 1,
        DatasetState::Writing => 2,
        DatasetState::Done | DatasetState::Failed => 3,
    }
}

/// A dataset's progress as last reported, kept compact (a push of 100,000 datasets holds
/// 100,000 of these while it is followed; the API's record, with its details inline, is
/// five times larger).
#[derive(Debug)]
pub(super) struct Kept {
    pub(super) url: String,
    pub(super) iri: String,
    pub(super) kind: stone_package::AssetKind,
    pub(super) engine: stone_package::Engine,
    pub(super) state: DatasetState,
    pub(super) status: Option<DatasetStatus>,
    /// As JSON: a few bytes where the record is ~300.
    pub(super) detail: Option<Box<str>>,
    pub(super) error: Option<Box<Problem>>,
    /// How far it got at most ([`rank`]).
    best: u8,
    /// Its place in the answer: its position in the package, or after them all in the
    /// order first seen.
    key: u64,
    /// Roughly the bytes it holds beyond its fixed size.
    size: usize,
}

/// The progress of a push's datasets as the server reports it, bounded whatever it
/// sends: one entry per dataset of the package, plus at most [`MAX_OTHER_DATASETS`] that
/// `replace` deletes (a push without `replace` has no other: a name the package does not
/// have is an error), and at most [`PROGRESS_BYTES_BASE`] + [`PROGRESS_BYTES_PER_DATASET`]
/// per dataset of text. A server that pages new names forever, or sends huge entries, is
/// stopped with an error instead of growing the client.
struct Followed<'p> {
    /// The package's dataset names, and their place in it.
    order: HashMap<&'p str, u32>,
    /// For each dataset of the package, its entry in `datasets` (`u32::MAX`: not seen).
    slots: Vec<u32>,
    /// The other datasets seen (deleted by `replace`), and their entry.
    others: HashMap<String, u32>,
    /// Every dataset seen.
    datasets: Vec<Kept>,
    replace: bool,
    /// The text `datasets` holds (names, URLs, details, errors), roughly.
    bytes: usize,
    max_bytes: usize,
}

impl<'p> Followed<'p> {
    fn new(package: &'p PushPackage, replace: bool) -> Self {
        let order: HashMap<&str, u32> = package
            .resources
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        Followed {
            slots: vec![u32::MAX; package.resources.len()],
            order,
            others: HashMap::new(),
            // One entry per dataset of the package at the end: reserved at once, not grown
            // by doubling (at 100,000 datasets a copy of ~13 MB at the client's peak).
            datasets: Vec::with_capacity(package.resources.len()),
            replace,
            bytes: 0,
            max_bytes: PROGRESS_BYTES_BASE.saturating_add(
                package
                    .resources
                    .len()
                    .saturating_mul(PROGRESS_BYTES_PER_DATASET),
            ),
        }
    }

    /// Takes a page of progress: `report`s each dataset that changed; whether one moved
    /// forward (first seen, or further than it ever was). An error names what the server
    /// sent that no push of this package can have.
    fn take(
        &mut self,
        list: Vec<DatasetProgress>,
        report: &dyn Fn(&DatasetProgress),
    ) -> Result<bool, String> {
        let mut forward = false;
        for d in list {
            let shown = || {
                let mut name: String = d.name.chars().take(80).collect();
                if name.len() < d.name.len() {
                    name.push('…');
                }
                name.escape_debug().to_string()
            };
            if [&d.name, &d.url, &d.iri]
                .iter()
                .any(|t| t.len() > MAX_PROGRESS_TEXT)
            {
                return Err(format!(
                    "the progress of the dataset `{}` has a name, URL or IRI longer than {MAX_PROGRESS_TEXT} bytes",
                    shown()
                ));
            }
            let (at, key) = match self.order.get(d.name.as_str()) {
                Some(&position) => {
                    let slot = &mut self.slots[position as usize];
                    if *slot == u32::MAX {
                        *slot = self.datasets.len() as u32;
                    }
                    (*slot, u64::from(position))
                }
                None if !self.replace => {
                    return Err(format!(
                        "the server reports the dataset `{}`, which is not in the package (a push without `--replace` writes only the package's datasets)",
                        shown()
                    ));
                }
                None => {
                    if !matches!(
                        d.status,
                        None | Some(DatasetStatus::Deleted) | Some(DatasetStatus::Unknown)
                    ) {
                        return Err(format!(
                            "the server reports the dataset `{}`, which is not in the package, as {}: only a deletion (`--replace`) can concern it",
                            shown(),
                            status_name(d.status)
                        ));
                    }
                    let at = match self.others.get(d.name.as_str()) {
                        Some(&at) => at,
                        None if self.others.len() >= MAX_OTHER_DATASETS => {
                            return Err(format!(
                                "the server reports more than {MAX_OTHER_DATASETS} datasets that are not in the package (the next: `{}`)",
                                shown()
                            ));
                        }
                        None => {
                            let at = self.datasets.len() as u32;
                            self.others.insert(d.name.clone(), at);
                            at
                        }
                    };
                    (at, (1 << 32) + self.others.len() as u64)
                }
            };
            let at = at as usize;
            let new_rank = rank(d.state);
            let detail = d.detail.as_ref().map(detail_json);
            let size = text_size(&d, detail.as_deref());
            if at == self.datasets.len() {
                forward = true;
                report(&d);
                self.bytes = self.bytes.saturating_add(size);
                self.datasets.push(Kept {
                    url: d.url,
                    iri: d.iri,
                    kind: d.kind,
                    engine: d.engine,
                    state: d.state,
                    status: d.status,
                    detail,
                    error: d.error.map(Box::new),
                    best: new_rank,
                    key,
                    size,
                });
            } else {
                let kept = &mut self.datasets[at];
                if (kept.state, kept.status) != (d.state, d.status) {
                    report(&d);
                }
                if new_rank > kept.best {
                    kept.best = new_rank;
                    forward = true;
                }
                self.bytes = self.bytes.saturating_sub(kept.size).saturating_add(size);
                // The texts kept as they were when unchanged (they are, from one page to
                // the next): new copies, made while each page is read, were spread among
                // the page's freed memory, which the allocator then could not give back
                // (issue 27: the client's resident memory grew by ~15 MB while it
                // followed a commit of 100,000 datasets).
                if kept.url != d.url {
                    kept.url = d.url;
                }
                if kept.iri != d.iri {
                    kept.iri = d.iri;
                }
                kept.kind = d.kind;
                kept.engine = d.engine;
                kept.state = d.state;
                kept.status = d.status;
                kept.detail = detail;
                kept.error = d.error.map(Box::new);
                kept.size = size;
            }
            if self.bytes > self.max_bytes {
                return Err(format!(
                    "the progress the server reports is larger than {} for a push of {} datasets",
                    size_in_words(self.max_bytes),
                    self.slots.len()
                ));
            }
        }
        Ok(forward)
    }

    /// Every dataset seen: the package's in its order, then the others (sorted in place).
    /// Whether a dataset of the package was never reported.
    fn unseen(&self) -> bool {
        self.slots.contains(&u32::MAX)
    }

    fn finish(self) -> Vec<Kept> {
        let mut datasets = self.datasets;
        datasets.sort_unstable_by_key(|d| d.key);
        datasets
    }
}

fn detail_json(detail: &stone_api::push::DatasetDetail) -> Box<str> {
    serde_json::to_string(detail)
        .unwrap_or_else(|_| "{}".into())
        .into_boxed_str()
}

/// Roughly the bytes a dataset's progress holds beyond its fixed size.
fn text_size(d: &DatasetProgress, detail: Option<&str>) -> usize {
    d.name.len()
        + d.url.len()
        + d.iri.len()
        + detail.map_or(0, str::len)
        + d.error
            .as_ref()
            .map_or(0, |e| serde_json::to_vec(e).map_or(0, |v| v.len()))
}
