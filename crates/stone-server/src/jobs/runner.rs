//! The runner: claims committing pushes, runs their commits, stops cleanly.

use super::*;

impl JobRunner {
    pub fn new(
        settings: &Settings,
        db: StateDb,
        staging: Arc<dyn StagingStore>,
        engines: Arc<Engines>,
        shutdown: watch::Receiver<bool>,
    ) -> Self {
        let pause_at = std::env::var(env_vars::STONE_SERVER_TEST_PAUSE_COMMIT)
            .ok()
            .filter(|v| !v.is_empty());
        #[cfg(feature = "test-hooks")]
        if let Some(dataset) = &pause_at {
            tracing::warn!(
                dataset,
                "test hook {} is set: commits pause after writing this dataset",
                env_vars::STONE_SERVER_TEST_PAUSE_COMMIT
            );
        }
        #[cfg(not(feature = "test-hooks"))]
        let pause_at = pause_at.and_then(|_| {
            tracing::warn!(
                "{} is set and ignored: this server is built without test hooks",
                env_vars::STONE_SERVER_TEST_PAUSE_COMMIT
            );
            None
        });
        Self {
            db,
            staging,
            engines,
            public_host: settings.public_host.clone(),
            data_dir: settings.data_dir.clone(),
            concurrency: settings.config.jobs.concurrency,
            lease: Duration::from_secs(settings.config.jobs.lease_seconds),
            max_crashes: settings.config.jobs.max_crashes,
            dependency_retry: Duration::from_secs(settings.config.jobs.dependency_retry_seconds),
            clock_margin: settings.config.gc.clock_margin(),
            owner: format!("runner-{}", uuid::Uuid::now_v7().simple()),
            running: std::sync::Mutex::new(HashSet::new()),
            notify: Notify::new(),
            pause_at,
            shutdown,
            retention: Retention::configured(&settings.config.retention),
            guards: Guards::new(&settings.config.guards),
        }
    }

    /// Wakes the runner (a push was committed).
    pub fn wake(&self) {
        self.notify.notify_one();
    }

    /// Claims and runs committing pushes until shutdown; then lets running jobs park
    /// (they stop between datasets) for up to `grace`.
    pub async fn run(self: Arc<Self>, grace: Duration) {
        let permits = Arc::new(Semaphore::new(self.concurrency));
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut shutdown = self.shutdown.clone();
        loop {
            if *shutdown.borrow() {
                break;
            }
            while let Ok(permit) = permits.clone().try_acquire_owned() {
                match self.db.claim(&self.owner, self.lease).await {
                    Ok(Some(id)) if !self.start_running(&id) => {
                        // Still committed by a job of this runner, whose lease ran out while
                        // the state database was away: the claim renewed it for that job.
                        tracing::info!(push = %id, "lease taken back by the job that holds it");
                    }
                    Ok(Some(id)) => {
                        let runner = self.clone();
                        tasks.spawn(async move {
                            runner.run_push(&id).await;
                            runner.stop_running(&id);
                            drop(permit);
                        });
                    }
                    Ok(None) => break,
                    Err(error) => {
                        tracing::error!(error = ?error, "cannot claim a push");
                        break;
                    }
                }
            }
            tokio::select! {
                _ = self.notify.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
                _ = shutdown.changed() => {}
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        if !tasks.is_empty() {
            tracing::info!(jobs = tasks.len(), "waiting for running commits to park");
        }
        let parked =
            tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} }).await;
        if parked.is_err() {
            tracing::warn!(
                "commits still running at shutdown were stopped; they resume at the next start"
            );
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
            // Their leases are given back now, so that another replica resumes them at
            // once rather than when the leases run out.
            if let Err(error) = self.db.release_owned(&self.owner).await {
                tracing::warn!(error = ?error, "cannot give back the leases of stopped commits");
            }
        }
    }

    /// Whether a commit stops at its next boundary: the server is stopping, or the push's
    /// lease went to another runner (`lost`).
    pub(super) fn halted(&self, lost: &AtomicBool) -> bool {
        self.stopping() || lost.load(Ordering::SeqCst)
    }

    pub(super) fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Becomes true when the server stops.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    /// Notes that a job of this runner commits `id`; `false`: one already does.
    fn start_running(&self, id: &str) -> bool {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.to_owned())
    }

    fn stop_running(&self, id: &str) {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id);
    }

    async fn run_push(self: &Arc<Self>, id: &str) {
        let lost = Arc::new(AtomicBool::new(false));
        let renewal = {
            let runner = self.clone();
            let id = id.to_owned();
            let lost = lost.clone();
            tokio::spawn(async move {
                // The lease as this job knows it: it holds until a lease after the start of
                // the last renewal that went through (the database's clock counts from
                // later), and no longer.
                let mut held_until = Instant::now() + runner.lease;
                loop {
                    tokio::time::sleep(runner.lease / 3).await;
                    let asked = Instant::now();
                    // A renewal still waiting for the database when the lease runs out is
                    // too late: another replica may claim the push from then on.
                    let renewed = tokio::time::timeout_at(
                        held_until.into(),
                        runner.db.renew(&id, &runner.owner, runner.lease),
                    )
                    .await;
                    match renewed {
                        Ok(Ok(true)) => held_until = asked + runner.lease,
                        Ok(Ok(false)) => {
                            // Another runner took the push over: stop at the next dataset
                            // boundary and leave the end of the push to it.
                            tracing::warn!(push = %id, "lease lost to another runner; stopping this job");
                            lost.store(true, Ordering::SeqCst);
                            return;
                        }
                        Ok(Err(error)) if Instant::now() < held_until => {
                            tracing::warn!(push = %id, error = ?error, "cannot renew a lease")
                        }
                        outcome => {
                            // Stop at the next dataset boundary; the push is resumed from its
                            // records by whichever runner claims it next.
                            let error = match outcome {
                                Ok(Err(error)) => format!("{error:#}"),
                                _ => "no answer in time".to_owned(),
                            };
                            tracing::warn!(push = %id, error, "the lease ran out without a renewal (the state database did not answer); stopping this job");
                            lost.store(true, Ordering::SeqCst);
                            return;
                        }
                    }
                }
            })
        };
        let mut result = self.commit(id, &lost).await;
        renewal.abort();
        if let Err(error) = &result
            && let Some(StateError::TakenOver { .. }) = error.downcast_ref::<StateError>()
        {
            // Another run of the push marked a dataset first: it is that run's now.
            tracing::warn!(push = %id, "{error}");
            lost.store(true, Ordering::SeqCst);
            result = Ok(false);
        }
        match result {
            Ok(true) => {}
            Ok(false) if lost.load(Ordering::SeqCst) => {
                // Not a crash: this runner stalled and another took over.
                if let Err(error) = self.db.give_back_start(id).await {
                    tracing::warn!(push = %id, error = ?error, "cannot give back the start of a lost lease; it may count as a crash");
                }
            }
            Ok(false) => {
                tracing::info!(push = %id, "commit parked; it resumes at the next start");
                let _ = self.db.release(id, &self.owner).await;
            }
            Err(error) => {
                // The state database failed: leave the push committing; it is claimed
                // again when the lease runs out.
                tracing::error!(push = %id, error = ?error, "commit interrupted");
            }
        }
    }

    /// Fails a push whose commits were cut short `crashes` times (the process died under
    /// them, see [`StateDb::count_commit_start`]) instead of resuming it once more: whatever
    /// made the process die would likely do it again, at every start. The datasets being
    /// written get `push.crashed` (all not yet written when none was being written), the
    /// others not reached `push.skipped`.
    pub(super) async fn fail_crashed(&self, push: &PushRecord, crashes: i64) -> anyhow::Result<()> {
        let datasets = self.db.datasets(&push.id).await?;
        let writing: Vec<&str> = datasets
            .iter()
            .filter(|d| d.state == DatasetState::Writing)
            .map(|d| d.name.as_str())
            .collect();
        tracing::error!(
            push = %push.id,
            crashes,
            writing = ?writing,
            "the server stopped {crashes} times while committing this push; failing it instead of resuming it ([jobs] max_crashes)"
        );
        for record in &datasets {
            if matches!(record.state, DatasetState::Done | DatasetState::Failed) {
                continue;
            }
            // Stopped between two datasets: the ones still to write share the blame.
            let problem = if record.state == DatasetState::Writing || writing.is_empty() {
                Problem::new(500, codes::PUSH_CRASHED, "Server crashed").with_detail(format!(
                    "the server stopped {crashes} times while writing this dataset, so the push is not resumed again; the server log may tell why; push again once the cause is fixed"
                ))
            } else {
                Problem::new(409, codes::PUSH_SKIPPED, "Skipped").with_detail(format!(
                    "not written: the server stopped {crashes} times while committing the push (dataset(s) {}), so the push is not resumed again",
                    writing.join(", ")
                ))
            };
            self.db
                .dataset_failed(
                    &push.id,
                    &record.name,
                    &problem.with("dataset", &record.name),
                )
                .await?;
        }
        self.finish(push).await
    }

    /// Test hook (see [`env_vars::STONE_SERVER_TEST_PAUSE_COMMIT`]).
    pub(super) async fn test_pause(&self, push_id: &str, dataset: &str) {
        if !cfg!(feature = "test-hooks") || self.pause_at.as_deref() != Some(dataset) {
            return;
        }
        let dir = self.data_dir.join("test-hooks");
        // A test that made `test-hooks/resume` lets every commit go on.
        let resume = dir.join("resume");
        if resume.exists() {
            return;
        }
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join("paused"), format!("{push_id} {dataset}\n"));
        tracing::warn!(
            push = push_id,
            dataset,
            "test hook: commit paused until the process is killed or stopped, or test-hooks/resume exists"
        );
        // A stop (SIGTERM) ends the pause: the job goes on as a slow write would, and
        // parks at the next dataset.
        let mut shutdown = self.shutdown.clone();
        let stopped = shutdown.wait_for(|stopping| *stopping);
        let resumed = async {
            while !resume.exists() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        tokio::select! {
            _ = stopped => {}
            () = resumed => {}
        }
    }
}
