//! `[events]` (issue 58): webhook deliveries and the subscriptions of the configuration.

use serde::Deserialize;

/// `[events]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventOptions {
    /// Address ranges a webhook target may be at although internal (loopback, private,
    /// link-local): `["127.0.0.1/32", "10.1.0.0/16"]`. Empty: public addresses only.
    #[serde(default)]
    pub allow_targets: Vec<String>,
    /// Deliveries sent at once by this process.
    #[serde(default = "default_workers")]
    pub workers: usize,
    /// Deliveries sent at once to one subscription's target.
    #[serde(default = "default_per_target")]
    pub concurrency_per_target: usize,
    /// Seconds a delivery may take (connection, request, answer).
    #[serde(default = "default_timeout")]
    pub delivery_timeout_seconds: u64,
    /// Bytes of a target's answer read at most (the rest is never read).
    #[serde(default = "default_answer")]
    pub max_answer_bytes: usize,
    /// The wait before the second attempt, in milliseconds; doubled at each attempt.
    #[serde(default = "default_initial")]
    pub retry_initial_ms: u64,
    /// The longest wait between two attempts, in seconds.
    #[serde(default = "default_max")]
    pub retry_max_seconds: u64,
    /// A delivery still failing this many seconds after its first attempt is `dead`.
    #[serde(default = "default_window")]
    pub retry_window_seconds: u64,
    /// Days events are kept (fractions allowed: `0.5` is 12 hours); `0` keeps them for
    /// ever. An older event is pruned once every subscription is done with it (delivered,
    /// or dead); the feed then refuses a cursor before the oldest kept
    /// (`events.cursor_expired`).
    #[serde(default = "default_retention")]
    pub retention_days: f64,
    /// Subscriptions of the configuration (`[[events.subscriptions]]`).
    #[serde(default)]
    pub subscriptions: Vec<SubscriptionOptions>,
}

impl Default for EventOptions {
    fn default() -> Self {
        Self {
            allow_targets: Vec::new(),
            workers: default_workers(),
            concurrency_per_target: default_per_target(),
            delivery_timeout_seconds: default_timeout(),
            max_answer_bytes: default_answer(),
            retry_initial_ms: default_initial(),
            retry_max_seconds: default_max(),
            retry_window_seconds: default_window(),
            retention_days: default_retention(),
            subscriptions: Vec::new(),
        }
    }
}

/// `[[events.subscriptions]]`: a webhook of the operator's.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionOptions {
    /// Its name, unique: the subscription's ID is `config-<name>`.
    pub name: String,
    /// The namespace whose events it receives.
    pub namespace: String,
    /// The target (checked as an API subscription's is).
    pub url: String,
    /// What the target receives: `cloudevents` (the default) or `openlineage` (a
    /// `RunEvent` per push outcome, to an OpenLineage API's `…/api/v1/lineage`).
    #[serde(default)]
    pub format: stone_api::TargetFormat,
    /// The Standard Webhooks secret: `whsec_` and the base64 of at least 16 bytes.
    pub secret: String,
    /// Only these event types (`push.committed`, …); empty: all.
    #[serde(default)]
    pub types: Vec<String>,
    /// Only branches matching these patterns; empty: all.
    #[serde(default)]
    pub branches: Vec<String>,
    /// Only datasets matching these patterns; empty: all.
    #[serde(default)]
    pub datasets: Vec<String>,
}

fn default_workers() -> usize {
    64
}

fn default_per_target() -> usize {
    16
}

fn default_timeout() -> u64 {
    10
}

fn default_answer() -> usize {
    64 << 10
}

fn default_initial() -> u64 {
    5_000
}

fn default_max() -> u64 {
    3_600
}

fn default_window() -> u64 {
    86_400
}

fn default_retention() -> f64 {
    30.0
}

impl EventOptions {
    /// How long events are kept (`None`: for ever).
    pub fn retention(&self) -> Option<std::time::Duration> {
        (self.retention_days > 0.0)
            .then(|| std::time::Duration::try_from_secs_f64(self.retention_days * 86_400.0).ok())
            .flatten()
    }
}
