//! Webhook deliveries (issue 58): the worker that fans each namespace's events out to its
//! subscriptions and sends them, signed, to their targets.
//!
//! - **At least once, in commit order per dataset.** Each event a subscription takes is a
//!   row of `deliveries`, made from the outbox (`events`) by any replica; a delivery is sent
//!   only when no earlier pending one of the same subscription and dataset is left
//!   (`StateDb::claim_deliveries`), and is recorded delivered only after the target's 2xx.
//!   A crash between the answer and the record sends it again: receivers tell a repeat by
//!   its `webhook-id` (the event's ID).
//! - **Any replica, across restarts.** A delivery is claimed with a lease, as commit jobs
//!   are; a claim of a replica that died runs out and another takes it.
//! - **Back-off.** A failure (no answer, a non-2xx, a redirect) is tried again after
//!   `retry_initial_ms` × 2^(attempts − 1), at most `retry_max_seconds`, with jitter, or
//!   after the target's `Retry-After`; past `retry_window_seconds` (24 h by default) from
//!   its first attempt the delivery is `dead`, with its last error, until redelivered.
//! - **Bounded.** At most `workers` deliveries at once, `concurrency_per_target` per
//!   subscription, each for `delivery_timeout_seconds`, the answer read up to
//!   `max_answer_bytes`: a slow or endless receiver costs one worker for the timeout and no
//!   memory.
//! - **Safe targets.** See [`target`].

pub mod envelope;
pub mod openlineage;
pub mod retention;
pub mod target;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt as _;
use tokio::sync::{Notify, Semaphore, mpsc, watch};

use crate::config::EventOptions;
use crate::state::{Attempt, Claimed, EventQuery, StateDb, SubscriptionRecord, time_after};
use stone_api::TargetFormat;
use target::{CheckedResolver, TargetPolicy};

/// How long a claim on a delivery lasts beyond twice the timeout (a delivery takes at most
/// the timeout, its record a moment more).
const LEASE_MARGIN: Duration = Duration::from_secs(5);

/// How often the worker looks for work without being woken (another replica's events,
/// retries coming due).
const POLL: Duration = Duration::from_millis(500);

/// Events fanned out at once.
const FAN_OUT_PAGE: usize = 500;

/// Attempts recorded in one transaction at most.
const RECORD_BATCH: usize = 500;

/// The delivery worker of this process.
#[derive(Debug)]
pub struct Deliverer {
    db: StateDb,
    policy: Arc<TargetPolicy>,
    /// The host of the server's IRIs (OpenLineage namespaces: `stone://<public_host>`).
    public_host: String,
    client: reqwest::Client,
    owner: String,
    options: EventOptions,
    workers: Arc<Semaphore>,
    per_target: Mutex<HashMap<String, Arc<Semaphore>>>,
    /// Attempts to record, together ([`Self::record`]).
    attempts: mpsc::UnboundedSender<Attempt>,
    pending: Mutex<Option<mpsc::UnboundedReceiver<Attempt>>>,
    /// Woken when attempts were recorded: the next deliveries may be due.
    recorded: Notify,
}

impl Deliverer {
    /// The worker of the `[events]` options (its target policy already checked).
    pub fn new(
        db: StateDb,
        options: &EventOptions,
        policy: Arc<TargetPolicy>,
        public_host: &str,
    ) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .user_agent(concat!(
                "stone-server/",
                env!("CARGO_PKG_VERSION"),
                " (webhooks)"
            ))
            .dns_resolver(Arc::new(CheckedResolver {
                policy: policy.clone(),
            }))
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(
                options.delivery_timeout_seconds.clamp(1, 10),
            ))
            .timeout(Duration::from_secs(options.delivery_timeout_seconds.max(1)))
            .no_proxy()
            .build()?;
        let (attempts, pending) = mpsc::unbounded_channel();
        Ok(Self {
            db,
            policy,
            public_host: public_host.to_owned(),
            client,
            owner: format!("deliverer-{}", uuid::Uuid::now_v7().simple()),
            workers: Arc::new(Semaphore::new(options.workers.max(1))),
            options: options.clone(),
            per_target: Mutex::default(),
            attempts,
            pending: Mutex::new(Some(pending)),
            recorded: Notify::new(),
        })
    }

    /// Fans out and delivers until shutdown; deliveries under way are left to their lease.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(pending) = pending {
            tokio::spawn(self.clone().record(pending));
        }
        loop {
            if *shutdown.borrow() {
                return;
            }
            let added = self.db.events_added();
            tokio::pin!(added);
            added.as_mut().enable();
            let recorded = self.recorded.notified();
            tokio::pin!(recorded);
            recorded.as_mut().enable();
            if let Err(error) = self.fan_out().await {
                tracing::warn!(error = ?error, "cannot fan events out to subscriptions; trying again");
            }
            if let Err(error) = self.deliver_due().await {
                tracing::warn!(error = ?error, "cannot claim deliveries; trying again");
            }
            tokio::select! {
                _ = added => {}
                _ = recorded => {}
                _ = tokio::time::sleep(POLL) => {}
                _ = shutdown.changed() => {}
            }
        }
    }

    /// Records the attempts the deliveries report, many in one transaction.
    async fn record(self: Arc<Self>, mut pending: mpsc::UnboundedReceiver<Attempt>) {
        while let Some(first) = pending.recv().await {
            let mut batch = vec![first];
            while batch.len() < RECORD_BATCH {
                match pending.try_recv() {
                    Ok(attempt) => batch.push(attempt),
                    Err(_) => break,
                }
            }
            if let Err(error) = self.db.deliveries_attempted(&self.owner, &batch).await {
                tracing::warn!(error = ?error, deliveries = batch.len(), "deliveries could not be recorded; their leases run out and they are sent again");
            }
            self.recorded.notify_one();
        }
    }

    /// Makes the deliveries of the events recorded since each subscription's cursor.
    async fn fan_out(&self) -> anyhow::Result<()> {
        for mut subscription in self.db.subscriptions(None).await? {
            loop {
                let (events, more) = self
                    .db
                    .events_after(&EventQuery {
                        namespace: Some(&subscription.namespace),
                        branch: None,
                        after: subscription.cursor,
                        limit: FAN_OUT_PAGE,
                    })
                    .await?;
                let Some(last) = events.last().map(|e| e.cursor) else {
                    break;
                };
                self.db.fan_out(&subscription, &events, last).await?;
                subscription.cursor = last;
                if !more {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Claims what is due, as many as free workers, and sends each on its own task.
    async fn deliver_due(self: &Arc<Self>) -> anyhow::Result<()> {
        let free = self.workers.available_permits();
        if free == 0 {
            return Ok(());
        }
        let lease = Duration::from_secs(2 * self.options.delivery_timeout_seconds) + LEASE_MARGIN;
        // Targets whose share of workers is taken are not claimed for.
        let busy: Vec<String> = self
            .per_target
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, permits)| permits.available_permits() == 0)
            .map(|(id, _)| id.clone())
            .collect();
        let rooms: HashMap<String, usize> = self
            .per_target
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(id, permits)| (id.clone(), permits.available_permits()))
            .collect();
        let per_target = self.options.concurrency_per_target.max(1);
        let claimed = self
            .db
            .claim_deliveries(&self.owner, lease, free, &busy, |id| {
                rooms.get(id).copied().unwrap_or(per_target)
            })
            .await?;
        if claimed.is_empty() {
            return Ok(());
        }
        let subscriptions: HashMap<String, Arc<SubscriptionRecord>> = self
            .db
            .subscriptions(None)
            .await?
            .into_iter()
            .map(|s| (s.id.clone(), Arc::new(s)))
            .collect();
        let cursors: Vec<i64> = claimed.iter().map(|c| c.seq).collect();
        let events: HashMap<i64, Arc<stone_api::Event>> = self
            .db
            .events_at(&cursors)
            .await?
            .into_iter()
            .map(|e| (e.cursor, Arc::new(e)))
            .collect();
        for claim in claimed {
            let given_back = |wait: Duration| Attempt {
                subscription: claim.subscription.clone(),
                seq: claim.seq,
                sent: false,
                error: None,
                next_at: Some(time_after(wait)),
            };
            let (Some(subscription), Some(event)) = (
                subscriptions.get(&claim.subscription).cloned(),
                events.get(&claim.seq).cloned(),
            ) else {
                // Deleted meanwhile: its deliveries went with it.
                continue;
            };
            let Ok(worker) = self.workers.clone().try_acquire_owned() else {
                let _ = self.attempts.send(given_back(Duration::ZERO));
                continue;
            };
            // This target has its share of workers busy: given back, due at once (the
            // next claim leaves the target out while it is busy).
            let Ok(target) = self.target_permits(&claim.subscription).try_acquire_owned() else {
                let _ = self.attempts.send(given_back(Duration::ZERO));
                continue;
            };
            let this = self.clone();
            tokio::spawn(async move {
                let attempt = this.deliver(&subscription, &event, &claim).await;
                drop((worker, target));
                let _ = this.attempts.send(attempt);
                // A worker is free: more may be claimed at once.
                this.recorded.notify_one();
            });
        }
        Ok(())
    }

    fn target_permits(&self, subscription: &str) -> Arc<Semaphore> {
        let mut map = self.per_target.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(subscription.to_owned())
            .or_insert_with(|| Arc::new(Semaphore::new(self.options.concurrency_per_target.max(1))))
            .clone()
    }

    /// One attempt of one delivery.
    async fn deliver(
        &self,
        subscription: &SubscriptionRecord,
        event: &stone_api::Event,
        claim: &Claimed,
    ) -> Attempt {
        let mut attempt = Attempt {
            subscription: claim.subscription.clone(),
            seq: claim.seq,
            sent: true,
            error: None,
            next_at: None,
        };
        let (error, retry_after) = match self.send(subscription, event).await {
            Ok(()) => {
                tracing::debug!(subscription = %subscription.id, cursor = claim.seq, "delivered");
                return attempt;
            }
            Err(failure) => failure,
        };
        let wait = retry_after.unwrap_or_else(|| self.backoff(claim.attempts + 1));
        let window = chrono::Duration::seconds(self.options.retry_window_seconds as i64);
        let next = chrono::Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default();
        let dead = chrono::DateTime::parse_from_rfc3339(&claim.first_at)
            .map(|first| next > first + window)
            .unwrap_or(true);
        tracing::info!(subscription = %subscription.id, cursor = claim.seq, attempts = claim.attempts + 1, dead, error = %error, "delivery failed");
        attempt.next_at = (!dead).then(|| time_after(wait));
        attempt.error = Some(error);
        attempt
    }

    /// The wait before attempt `attempt` (2 and later): exponential, capped, jittered
    /// (between half and all of it).
    fn backoff(&self, attempt: u32) -> Duration {
        let initial = self.options.retry_initial_ms.max(1) as f64 / 1000.0;
        let exponent = attempt.saturating_sub(2).min(30);
        let full =
            (initial * 2f64.powi(exponent as i32)).min(self.options.retry_max_seconds as f64);
        let random = uuid::Uuid::new_v4().as_u128() as u64 as f64 / u64::MAX as f64;
        Duration::from_secs_f64(full * (0.5 + 0.5 * random))
    }

    /// Sends one event; the error text and the target's `Retry-After` on failure.
    async fn send(
        &self,
        subscription: &SubscriptionRecord,
        event: &stone_api::Event,
    ) -> Result<(), (String, Option<Duration>)> {
        let url = reqwest::Url::parse(&subscription.url)
            .map_err(|e| (format!("the target URL is not a URL: {e}"), None))?;
        // An IP literal is connected to without the resolver: checked here, every time.
        if let Some(host) = url.host_str() {
            let literal = host.trim_start_matches('[').trim_end_matches(']');
            if let Ok(ip) = literal.parse() {
                self.policy
                    .check_address(ip)
                    .map_err(|refusal| (refusal.message, None))?;
            }
        }
        let (body, content_type) = match subscription.format {
            TargetFormat::Cloudevents => (envelope::cloudevent(event), envelope::CONTENT_TYPE),
            TargetFormat::Openlineage => (self.run_event(event).await?, openlineage::CONTENT_TYPE),
            TargetFormat::Unknown => {
                return Err((
                    "the subscription's format is not known to this server".into(),
                    None,
                ));
            }
        };
        let timestamp = chrono::Utc::now().timestamp();
        let signature = envelope::sign(&subscription.secret, &event.id, timestamp, &body)
            .map_err(|e| (format!("the subscription's secret is unusable: {e}"), None))?;
        let response = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .header("webhook-id", &event.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body)
            .send()
            .await
            .map_err(|e| (describe(&e), None))?;
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(|l| l.chars().take(200).collect::<String>());
        // Read capped: at most `max_answer_bytes` of whatever the target sends.
        let mut answer = Vec::new();
        let mut stream = response.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else { break };
            let room = self.options.max_answer_bytes.saturating_sub(answer.len());
            answer.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if answer.len() >= self.options.max_answer_bytes {
                break;
            }
        }
        drop(stream);
        if status.is_success() {
            return Ok(());
        }
        let text: String = String::from_utf8_lossy(&answer).chars().take(200).collect();
        let message = if status.is_redirection() {
            format!(
                "the target answered {status} (a redirect to {}): redirects are not followed; subscribe the final URL",
                location.as_deref().unwrap_or("nowhere")
            )
        } else {
            format!("the target answered {status}: {text}")
        };
        Err((message, retry_after))
    }
}

impl Deliverer {
    /// The OpenLineage `RunEvent` of a push event: its outputs are the push's dataset
    /// events, the tables' schemas from its manifest.
    async fn run_event(
        &self,
        event: &stone_api::Event,
    ) -> Result<String, (String, Option<Duration>)> {
        let unreadable =
            |e: crate::state::StateError| (format!("cannot read the push's events: {e}"), None);
        let datasets = self
            .db
            .push_events(&event.push_id)
            .await
            .map_err(unreadable)?;
        let push = self.db.push(&event.push_id).await.map_err(unreadable)?;
        Ok(openlineage::run_event(
            &self.public_host,
            event,
            &datasets,
            push.as_ref().map(|p| &p.manifest),
        ))
    }
}

/// A transport error in a few words, with its causes (the resolver's refusal among them).
fn describe(e: &reqwest::Error) -> String {
    let mut message = String::from(if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "cannot connect"
    } else {
        "the request failed"
    });
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// `Retry-After` in seconds or as an HTTP date, at most a day.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    let seconds = match value.parse::<u64>() {
        Ok(seconds) => seconds,
        Err(_) => {
            let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
            (at.with_timezone(&chrono::Utc) - chrono::Utc::now())
                .num_seconds()
                .max(0) as u64
        }
    };
    Some(Duration::from_secs(seconds.min(86_400)))
}
