//! Many datasets at once: puts in batches, and heads prepared ahead of the commit while
//! their contents are still being staged.

use super::*;

/// A dataset ready to be prepared: its name and files.
type ReadyDataset = (String, Vec<BlobEntry>);

/// A put taken apart by [`BlobEngine::put_many`], put back together for the general way.
fn reassembled(dataset: String, target: PutTarget, replace: bool, keep: Option<String>) -> BlobPut {
    BlobPut {
        dataset,
        files: target.given.into_values().collect(),
        replace,
        keep,
    }
}

/// Datasets waiting for contents before they are prepared (see
/// [`BlobEngine::prepare_when_staged`]), by (holder, sha256) of a content they wait for.
#[derive(Debug, Default)]
pub(super) struct Waiting {
    by_content: HashMap<(String, String), Vec<Arc<WaitingDataset>>>,
    /// Registrations held: at most [`MAX_WAITING`].
    count: usize,
}

/// A dataset of a push and how many of its distinct contents have not arrived.
#[derive(Debug)]
struct WaitingDataset {
    namespace: String,
    branch: String,
    name: String,
    files: Vec<BlobEntry>,
    missing: Mutex<usize>,
}

/// Most registrations [`Waiting`] holds (one per dataset and missing content). Preparing is
/// only a head start: past this, the oldest are dropped, and those datasets are prepared
/// at commit like any other.
const MAX_WAITING: usize = 1_000_000;

impl BlobEngine {
    /// [`Self::put_keeping`] of many datasets on one branch, each with its own result, in
    /// order. A local store writes them in a few blocking tasks, with every dataset's lock
    /// held across (a commit of many small datasets is otherwise mostly thread hand-offs);
    /// a put that needs the general path, and every put on S3, goes as
    /// [`Self::put_keeping`], [`PUTS_AT_ONCE`] at a time.
    pub async fn put_many(
        &self,
        ns: &str,
        branch: &str,
        puts: Vec<BlobPut>,
    ) -> Vec<Result<BlobOutcome, BlobError>> {
        let mut results: Vec<Option<Result<BlobOutcome, BlobError>>> =
            puts.iter().map(|_| None).collect();
        // The puts are taken apart (their files moved into their targets, not copied: a
        // folder of a million files is a million of them); one that goes the general way
        // is put back together.
        let mut general: Vec<(usize, BlobPut)> = Vec::new();
        let mut local = Vec::new();
        let mut roots = std::collections::HashSet::new();
        for (i, put) in puts.into_iter().enumerate() {
            let BlobPut {
                dataset,
                files,
                replace,
                keep,
            } = put;
            let fast = self.local_dir.is_some() && files.iter().all(|f| f.verified);
            if !fast {
                let put = BlobPut {
                    dataset,
                    files,
                    replace,
                    keep,
                };
                general.push((i, put));
                continue;
            }
            let target =
                PutTarget::owned(&self.prefix, ns, &dataset, branch, files, keep.as_deref());
            match target {
                Err(error) => results[i] = Some(Err(error)),
                Ok(target) => match self.local_fast_path(&target.given) {
                    // One lock per dataset: a dataset named twice goes the general way.
                    Some(dir) if roots.insert(target.location.root.to_string()) => {
                        local.push((i, dir, target, replace, dataset, keep));
                    }
                    _ => general.push((i, reassembled(dataset, target, replace, keep))),
                },
            }
        }

        if !local.is_empty() {
            // Locks in key order, so that two such calls cannot wait on each other.
            local.sort_by(|a, b| a.2.location.root.as_ref().cmp(b.2.location.root.as_ref()));
            let mut guards = Vec::with_capacity(local.len());
            for (_, _, target, ..) in &local {
                let lock = self.locks.get(target.location.root.as_ref());
                guards.push(lock.lock_owned().await);
            }
            let per_task = local
                .len()
                .div_ceil(LOCAL_PUT_TASKS)
                .max(LOCAL_PUTS_PER_TASK);
            let mut tasks = Vec::new();
            while !local.is_empty() {
                let chunk: Vec<_> = local.drain(..per_task.min(local.len())).collect();
                let indices: Vec<(usize, String)> = chunk
                    .iter()
                    .map(|(i, _, _, _, dataset, _)| (*i, dataset.clone()))
                    .collect();
                let known = Arc::clone(&self.known_heads);
                let task = tokio::task::spawn_blocking(move || {
                    let mut dirs = OpenDirs::default();
                    chunk
                        .into_iter()
                        .map(|(i, dir, target, replace, dataset, keep)| {
                            let root = &target.location.root;
                            let kept = target.keep.as_ref();
                            let put = put_local(
                                &dir,
                                root,
                                &target.given,
                                replace,
                                kept,
                                (&mut dirs, &known),
                            );
                            // Only a put that needs the general way keeps its files.
                            let back = matches!(put, Ok(None))
                                .then(|| reassembled(dataset, target, replace, keep));
                            (i, put, back)
                        })
                        .collect::<Vec<_>>()
                });
                tasks.push((indices, task));
            }
            for (indices, task) in tasks {
                let done = task.await;
                // A put remembers the head it writes; a task that stopped may have written.
                if done.is_err() {
                    self.known_heads.changed();
                }
                match done {
                    Ok(done) => {
                        for (i, result, back) in done {
                            match (result, back) {
                                (Ok(Some(outcome)), _) => results[i] = Some(Ok(outcome)),
                                (Ok(None), Some(put)) => general.push((i, put)),
                                (Ok(None), None) => {}
                                (Err(error), _) => results[i] = Some(Err(error)),
                            }
                        }
                    }
                    Err(error) => {
                        for (i, dataset) in indices {
                            results[i] = Some(Err(BlobError::LocalIo {
                                path: PathBuf::from(dataset),
                                source: std::io::Error::other(error.to_string()),
                            }));
                        }
                    }
                }
            }
            drop(guards);
        }

        general.sort_unstable_by_key(|(i, _)| *i);
        let slow: Vec<_> = general
            .iter()
            .map(|(i, put)| async move {
                let result = self
                    .put_keeping(
                        ns,
                        &put.dataset,
                        branch,
                        &put.files,
                        put.replace,
                        put.keep.as_deref(),
                    )
                    .await;
                (*i, result)
            })
            .collect();
        let done: Vec<_> = stream::iter(slow)
            .buffer_unordered(PUTS_AT_ONCE)
            .collect()
            .await;
        for (i, result) in done {
            results[i] = Some(result);
        }
        results
            .into_iter()
            .map(|r| r.expect("every put has a result"))
            .collect()
    }

    /// Whether each dataset has a head on the branch, in order (what a commit checkpoints
    /// before it writes). A local store answers in one blocking task, each head looked up
    /// from the namespace's directory.
    pub async fn heads_exist(
        &self,
        ns: &str,
        branch: &str,
        datasets: &[&str],
    ) -> Vec<Result<bool, BlobError>> {
        let local = self.local_dir.as_ref().and_then(|dir| {
            let ns_dir = local_path(dir, &self.prefix.clone().join(ns))?;
            let heads: Option<Vec<(PathBuf, String)>> = datasets
                .iter()
                .map(|dataset| {
                    let location = DatasetLocation::new(&self.prefix, ns, dataset, branch).ok()?;
                    let path = local_path(dir, &location.head())?;
                    Some((path, format!("{dataset}/{branch}/{}", layout::HEAD_NAME)))
                })
                .collect();
            Some((ns_dir, heads?))
        });
        if let Some((ns_dir, heads)) = local {
            let checked = tokio::task::spawn_blocking(move || {
                let names: Vec<&String> = heads.iter().map(|(_, name)| name).collect();
                let found = crate::fs_at::sizes_under(&ns_dir, &names);
                heads
                    .into_iter()
                    .zip(found)
                    .map(|((path, _), found)| match found {
                        Ok(found) => Ok(found.is_some()),
                        Err(source) => Err(BlobError::LocalIo { path, source }),
                    })
                    .collect::<Vec<_>>()
            })
            .await;
            if let Ok(checked) = checked {
                return checked;
            }
        }
        let reads: Vec<_> = datasets
            .iter()
            .map(|dataset| async move { self.head(ns, dataset, branch).await.map(|h| h.is_some()) })
            .collect();
        stream::iter(reads).buffered(PUTS_AT_ONCE).collect().await
    }

    /// Local store: prepares the datasets a push is about to write, in a background thread
    /// at a lower priority, so that this file-system work (most of a commit of many small
    /// new datasets) overlaps the push's uploads instead of following them: creates their
    /// directories (`{ns}/{dataset}/{branch}/objects/`) and, for a dataset without a head,
    /// the head it will have as a *prepared head* (`head.json#<digits>`, named after its
    /// file list), which the commit rewrites in place with its own time and renames over
    /// `head.json` (see `put_local`). A directory or a prepared head is not a dataset (a
    /// dataset exists once `head.json` does), so a push that never commits leaves nothing
    /// visible; what it leaves behind goes with the dataset's other leftovers (see
    /// [`Self::collect_garbage`], [`Self::delete_dataset`]). Nothing is done for S3.
    pub fn prepare(&self, ns: &str, branch: &str, datasets: &[(String, Vec<BlobEntry>)]) {
        let Some(dir) = self.local_dir.clone() else {
            return;
        };
        let prepared: Vec<(PathBuf, PathBuf, Vec<BlobEntry>)> = datasets
            .iter()
            .filter_map(|(dataset, files)| {
                let location = DatasetLocation::new(&self.prefix, ns, dataset, branch).ok()?;
                let objects = local_path(&dir, &location.objects())?;
                let head = local_path(&dir, &location.head())?;
                Some((objects, head, files.clone()))
            })
            .collect();
        if prepared.is_empty() {
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("blob-prepare".into())
            .spawn(move || {
                // SAFETY: setpriority on this thread's own ID; no memory is passed.
                #[cfg(target_os = "linux")]
                unsafe {
                    libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
                }
                for (objects, head, mut files) in prepared {
                    if let Err(error) = std::fs::create_dir_all(&objects) {
                        tracing::debug!(path = %objects.display(), error = %error, "cannot prepare a dataset directory");
                        return;
                    }
                    if head.exists() {
                        continue;
                    }
                    // The head a put of these files would write now: the commit writes it
                    // again with its own time, over these same bytes.
                    files.sort_by(|a, b| a.path.cmp(&b.path));
                    let document = HeadDocument::new(files);
                    let body =
                        serde_json::to_vec_pretty(&document).expect("a head document serializes");
                    if let Err(error) = prepare_head(&head, &body) {
                        tracing::debug!(path = %head.display(), error = %error, "cannot prepare a head");
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::debug!(error = %error, "cannot start preparing dataset directories");
        }
    }

    /// Local store: [`Self::prepare`]s the datasets of a push whose contents are all
    /// `staged` now, and keeps the others until their contents arrive from `holder` (the
    /// caller whose push it is; see [`Self::content_staged`]). A manifest alone makes
    /// nothing on disk: a dataset is prepared only once the uploads it needs are there.
    pub fn prepare_when_staged(
        &self,
        namespace: &str,
        branch: &str,
        holder: &str,
        datasets: &[(String, Vec<BlobEntry>)],
        staged: impl Fn(&str) -> bool,
    ) {
        if self.local_dir.is_none() {
            return;
        }
        let mut ready = Vec::new();
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        for (name, files) in datasets {
            let missing: std::collections::BTreeSet<&str> = files
                .iter()
                .map(|f| f.sha256.as_str())
                .filter(|sha256| !staged(sha256))
                .collect();
            if missing.is_empty() {
                ready.push((name.clone(), files.clone()));
                continue;
            }
            if waiting.count + missing.len() > MAX_WAITING {
                // Abandoned pushes fill it: start afresh (commits prepare what they need).
                *waiting = Waiting::default();
            }
            let dataset = Arc::new(WaitingDataset {
                namespace: namespace.to_owned(),
                branch: branch.to_owned(),
                name: name.clone(),
                files: files.clone(),
                missing: Mutex::new(missing.len()),
            });
            waiting.count += missing.len();
            for sha256 in missing {
                waiting
                    .by_content
                    .entry((holder.to_owned(), sha256.to_owned()))
                    .or_default()
                    .push(dataset.clone());
            }
        }
        drop(waiting);
        self.prepare(namespace, branch, &ready);
    }

    /// Local store: a content arrived from `holder` (its upload was verified): prepares the
    /// datasets that waited for it and for nothing else any more.
    pub fn content_staged(&self, holder: &str, sha256: &str) {
        if self.local_dir.is_none() {
            return;
        }
        let datasets = {
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            let datasets = waiting
                .by_content
                .remove(&(holder.to_owned(), sha256.to_owned()))
                .unwrap_or_default();
            waiting.count = waiting.count.saturating_sub(datasets.len());
            datasets
        };
        // (namespace, branch) → the datasets whose contents have all arrived, with their files.
        let mut ready: BTreeMap<(String, String), Vec<ReadyDataset>> = BTreeMap::new();
        for dataset in datasets {
            let mut missing = dataset.missing.lock().unwrap_or_else(|e| e.into_inner());
            *missing = missing.saturating_sub(1);
            if *missing == 0 {
                ready
                    .entry((dataset.namespace.clone(), dataset.branch.clone()))
                    .or_default()
                    .push((dataset.name.clone(), dataset.files.clone()));
            }
        }
        for ((namespace, branch), datasets) in ready {
            self.prepare(&namespace, &branch, &datasets);
        }
    }
}
