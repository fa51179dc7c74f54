//! Events: what the server committed, as it committed it (issue 58).
//!
//! Every outcome the server records (a push committed or failed; a dataset created,
//! appended, replaced, deleted, a version named, snapshots expired) is written as an
//! [`Event`] in the same state database transaction as the outcome itself (a transactional
//! outbox): an event is never written for something that did not commit, and nothing
//! commits without its event. Each event has a `cursor`, a number that grows with every
//! event the server's state database records (all namespaces share it; numbers of other
//! namespaces are skipped in a namespace's feed, so a feed's cursors have gaps).
//!
//! Read them with `GET /v1/namespaces/{ns}/events?after=<cursor>&wait=<seconds>`
//! ([`EventPage`]), or receive them as webhooks (CloudEvents 1.0 whose `data` is the
//! [`Event`]).

use serde::{Deserialize, Serialize};

use crate::{AssetKind, DatasetDetail, Engine, Problem, ResultCounts};

/// The most events one answer of the feed lists (a larger `limit` counts as this).
pub const MAX_EVENT_PAGE: usize = 1000;

/// The longest `wait` of the feed, in seconds (a larger one counts as this).
pub const MAX_EVENT_WAIT_SECONDS: u64 = 60;

/// What happened. The wire text is dotted: `push.committed`, `dataset.appended`, ….
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventType {
    /// A push's commit ended and every dataset of it succeeded; the package node is written.
    #[serde(rename = "push.committed")]
    PushCommitted,
    /// A push's commit ended and at least one dataset failed (`error`, `counts.failed`).
    /// The datasets that did succeed have their own events.
    #[serde(rename = "push.failed")]
    PushFailed,
    /// A dataset that did not exist on the branch does now.
    #[serde(rename = "dataset.created")]
    DatasetCreated,
    /// Content was added to a dataset.
    #[serde(rename = "dataset.appended")]
    DatasetAppended,
    /// A dataset's content was replaced (`--replace`).
    #[serde(rename = "dataset.replaced")]
    DatasetReplaced,
    /// A dataset was deleted from the branch (`--replace`, left out of the package).
    #[serde(rename = "dataset.deleted")]
    DatasetDeleted,
    /// A version of the dataset was named (`detail.tag`).
    #[serde(rename = "dataset.version_named")]
    DatasetVersionNamed,
    /// Old snapshots of the dataset were expired after a write (`detail.expired_*`).
    #[serde(rename = "dataset.snapshots_expired")]
    DatasetSnapshotsExpired,
    /// A type this reader does not know (a later server's).
    #[serde(other, rename = "unknown")]
    Unknown,
}

impl EventType {
    /// Every known type, in the order the documentation lists them.
    pub const ALL: [EventType; 8] = [
        Self::PushCommitted,
        Self::PushFailed,
        Self::DatasetCreated,
        Self::DatasetAppended,
        Self::DatasetReplaced,
        Self::DatasetDeleted,
        Self::DatasetVersionNamed,
        Self::DatasetSnapshotsExpired,
    ];

    /// The wire text (`push.committed`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PushCommitted => "push.committed",
            Self::PushFailed => "push.failed",
            Self::DatasetCreated => "dataset.created",
            Self::DatasetAppended => "dataset.appended",
            Self::DatasetReplaced => "dataset.replaced",
            Self::DatasetDeleted => "dataset.deleted",
            Self::DatasetVersionNamed => "dataset.version_named",
            Self::DatasetSnapshotsExpired => "dataset.snapshots_expired",
            Self::Unknown => "unknown",
        }
    }

    /// The type of a wire text; `None` for a text no type has.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// Whether it is about one dataset (`dataset.*`) rather than a whole push.
    pub fn is_dataset(self) -> bool {
        self.as_str().starts_with("dataset.")
    }
}

/// One committed outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Its place in the server's order of events: larger is later. Pass the last one seen
    /// as `after` to read what followed.
    pub cursor: i64,
    /// Unique and stable (a UUID): the CloudEvents `id` and the `webhook-id` of every
    /// delivery of this event, so a receiver tells a redelivery by it.
    pub id: String,
    /// What happened.
    #[serde(rename = "type")]
    pub event_type: EventType,
    /// When the outcome was recorded (RFC 3339, UTC).
    pub time: String,
    /// The namespace.
    pub namespace: String,
    /// The branch.
    pub branch: String,
    /// The dataset (`dataset.*` events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// `stone:<ns>/<name>` (dataset events) or `stone:<ns>` (push events).
    pub url: String,
    /// The dataset's https IRI (`https://<public_host>/<ns>/<name>`), or the namespace's
    /// for push events.
    pub iri: String,
    /// The push that did it.
    pub push_id: String,
    /// Who pushed: the subject of the caller's token (the local user without one).
    pub subject: String,
    /// The dataset's kind (dataset events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<AssetKind>,
    /// The engine that holds the dataset (dataset events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
    /// The version the push names, if any (the package's `version` in datasets.yaml).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The engine's figures of the write (dataset events): the snapshot it produced
    /// (`snapshot_id`), the graph (`graph`), rows, triples, files and bytes, the version
    /// head (`tag`), expired snapshots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<DatasetDetail>,
    /// Datasets per outcome (push events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<ResultCounts>,
    /// Why the push failed (`push.failed`), when one problem says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Problem>,
}

/// Answer of `GET /v1/namespaces/{ns}/events`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventPage {
    /// The events after the asked cursor, oldest first, at most the asked `limit`.
    pub events: Vec<Event>,
    /// The cursor to ask `after` next: the last event's, or the asked one when none came.
    pub next: i64,
    /// More events follow already (the page was full): ask again at once.
    #[serde(default)]
    pub more: bool,
}

/// Body of `POST /v1/namespaces/{ns}/subscriptions` (namespace admins): a webhook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateSubscription {
    /// Where to POST each event: `https://…` (plain `http://` only to an address the
    /// server's operator allows in `[events] allow_targets`). Loopback, link-local, private
    /// and metadata addresses are refused unless allowed (`subscription.target_forbidden`).
    pub url: String,
    /// What the target receives: `cloudevents` (CloudEvents 1.0, the default) or
    /// `openlineage` (an OpenLineage `RunEvent` per push outcome; `types` may then name
    /// only `push.*` types).
    #[serde(default)]
    pub format: TargetFormat,
    /// Only these event types (default: every type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<EventType>,
    /// Only the events of branches matching one of these patterns (`*` matches any run of
    /// characters; default: every branch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<String>,
    /// Only the events of datasets matching one of these patterns (default: every
    /// dataset). Push events (`push.*`) pass this filter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<String>,
}

/// What a subscription's target receives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetFormat {
    /// A CloudEvents 1.0 structured JSON body (`application/cloudevents+json`) whose `data`
    /// is the [`Event`], signed with the Standard Webhooks headers.
    #[default]
    Cloudevents,
    /// OpenLineage (issue 58): one `RunEvent` per push outcome (`COMPLETE` for
    /// `push.committed`, `FAIL` for `push.failed`), POSTed as JSON to the URL of an
    /// OpenLineage API (`…/api/v1/lineage`): the push is the run, the package the job, the
    /// datasets it wrote the outputs, with schema and version facets. Signed with the same
    /// Standard Webhooks headers. Takes only `push.*` events.
    Openlineage,
    /// A format this reader does not know.
    #[serde(other)]
    Unknown,
}

/// A subscription as listed (never with its secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    /// Its ID.
    pub id: String,
    /// The namespace whose events it receives.
    pub namespace: String,
    /// The target.
    pub url: String,
    /// What the target receives.
    pub format: TargetFormat,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<EventType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<String>,
    /// `api` (made through the API) or `config` (the server's `[[events.subscriptions]]`).
    pub origin: String,
    /// Who made it (`api`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    pub created_at: String,
    /// Deliveries by state: `pending`, `delivered`, `dead`.
    #[serde(default)]
    pub deliveries: DeliveryCounts,
}

/// Deliveries of a subscription by state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryCounts {
    pub pending: u64,
    pub delivered: u64,
    pub dead: u64,
}

/// Answer of `POST /v1/namespaces/{ns}/subscriptions`: the subscription and its secret,
/// shown this once and never again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionCreated {
    pub subscription: Subscription,
    /// The Standard Webhooks secret (`whsec_` + base64 of the key) that signs every
    /// delivery: keep it, it is not shown again.
    pub secret: String,
}

/// Answer of `GET /v1/namespaces/{ns}/subscriptions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionList {
    pub subscriptions: Vec<Subscription>,
}

/// One delivery of an event to a subscription's target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    /// The event's cursor.
    pub cursor: i64,
    /// The event's ID (the `webhook-id` header).
    pub event_id: String,
    /// `pending` (to send, or to send again at `next_at`), `delivered`, or `dead` (given
    /// up: see `last_error`; `POST …/redeliver` sends it again).
    pub state: String,
    pub attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivered_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// Answer of `GET /v1/namespaces/{ns}/subscriptions/{id}/deliveries`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryList {
    pub deliveries: Vec<Delivery>,
}

/// Answer of `POST /v1/namespaces/{ns}/subscriptions/{id}/redeliver`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redelivered {
    /// Dead deliveries made pending again.
    pub redelivered: u64,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// One instance of each type, for the OpenAPI contract tests.
    pub(crate) fn samples() -> Vec<(&'static str, Value)> {
        let event = json!({
            "cursor": 7, "id": "0e2b6c1e-6a64-4c57-9a43-7a3b4f0c9d10", "type": "dataset.appended",
            "time": "2026-12-03T21:00:00Z", "namespace": "sales", "branch": "main",
            "dataset": "orders", "url": "stone:sales/orders",
            "iri": "https://data.example/sales/orders", "push_id": "p1", "subject": "alice",
            "kind": "TABULAR", "engine": "iceberg", "version": "1.0.0",
            "detail": {"snapshot_id": 42, "rows_added": 3, "total_rows": 10}
        });
        let failed = json!({
            "cursor": 8, "id": "x", "type": "push.failed", "time": "2026-12-03T21:00:00Z",
            "namespace": "sales", "branch": "main", "url": "stone:sales",
            "iri": "https://data.example/sales", "push_id": "p1", "subject": "alice",
            "counts": {"created": 0, "appended": 1, "replaced": 0, "unchanged": 0, "deleted": 0, "failed": 1},
            "error": {"type": "about:blank", "title": "Server crashed", "status": 500, "code": "push.crashed"}
        });
        let subscription = json!({
            "id": "sub_1", "namespace": "sales", "url": "https://hooks.example/x",
            "format": "cloudevents", "types": ["dataset.appended"], "branches": ["main"],
            "datasets": ["orders*"], "origin": "api", "created_by": "alice",
            "created_at": "2026-12-03T21:00:00Z",
            "deliveries": {"pending": 1, "delivered": 2, "dead": 0}
        });
        vec![
            ("Event", event.clone()),
            ("Event", failed),
            (
                "EventPage",
                json!({"events": [event], "next": 7, "more": false}),
            ),
            (
                "CreateSubscription",
                json!({"url": "https://hooks.example/x", "format": "cloudevents", "types": ["push.committed"], "branches": ["main"], "datasets": ["*"]}),
            ),
            ("Subscription", subscription.clone()),
            (
                "SubscriptionCreated",
                json!({"subscription": subscription.clone(), "secret": "whsec_AAAA"}),
            ),
            ("SubscriptionList", json!({"subscriptions": [subscription]})),
            (
                "DeliveryList",
                json!({"deliveries": [
                    {"cursor": 7, "event_id": "x", "state": "pending", "attempts": 2, "next_at": "2026-12-03T21:00:05.000Z", "last_error": "the target answered 503"},
                    {"cursor": 8, "event_id": "y", "state": "delivered", "attempts": 1, "delivered_at": "2026-12-03T21:00:01.000Z"}
                ]}),
            ),
            ("Redelivered", json!({"redelivered": 3})),
        ]
    }

    #[test]
    fn samples_are_the_types() {
        for (name, sample) in samples() {
            let back = match name {
                "Event" => {
                    serde_json::to_value(serde_json::from_value::<Event>(sample.clone()).unwrap())
                }
                "EventPage" => serde_json::to_value(
                    serde_json::from_value::<EventPage>(sample.clone()).unwrap(),
                ),
                "CreateSubscription" => serde_json::to_value(
                    serde_json::from_value::<CreateSubscription>(sample.clone()).unwrap(),
                ),
                "Subscription" => serde_json::to_value(
                    serde_json::from_value::<Subscription>(sample.clone()).unwrap(),
                ),
                "SubscriptionCreated" => serde_json::to_value(
                    serde_json::from_value::<SubscriptionCreated>(sample.clone()).unwrap(),
                ),
                "SubscriptionList" => serde_json::to_value(
                    serde_json::from_value::<SubscriptionList>(sample.clone()).unwrap(),
                ),
                "DeliveryList" => serde_json::to_value(
                    serde_json::from_value::<DeliveryList>(sample.clone()).unwrap(),
                ),
                "Redelivered" => serde_json::to_value(
                    serde_json::from_value::<Redelivered>(sample.clone()).unwrap(),
                ),
                other => panic!("{other}"),
            }
            .unwrap();
            assert_eq!(back, sample, "{name}");
        }
    }

    #[test]
    fn events_read_and_write_their_exact_json() {
        let text = json!({
            "cursor": 7,
            "id": "0e2b6c1e-6a64-4c57-9a43-7a3b4f0c9d10",
            "type": "dataset.appended",
            "time": "2026-12-03T21:00:00Z",
            "namespace": "sales",
            "branch": "main",
            "dataset": "orders",
            "url": "stone:sales/orders",
            "iri": "https://data.example/sales/orders",
            "push_id": "p1",
            "subject": "alice",
            "kind": "TABULAR",
            "engine": "iceberg",
            "detail": {"snapshot_id": 42, "rows_added": 3, "total_rows": 10},
            "later_field": true
        });
        let event: Event = serde_json::from_value(text.clone()).unwrap();
        assert_eq!(event.event_type, EventType::DatasetAppended);
        assert_eq!(event.detail.as_ref().unwrap().rows_added, Some(3));
        let mut expected = text;
        expected.as_object_mut().unwrap().remove("later_field");
        assert_eq!(serde_json::to_value(&event).unwrap(), expected);
        let unknown: EventType = serde_json::from_value(json!("dataset.renamed")).unwrap();
        assert_eq!(unknown, EventType::Unknown);
        for t in EventType::ALL {
            assert_eq!(serde_json::to_value(t).unwrap(), json!(t.as_str()));
            assert_eq!(EventType::parse(t.as_str()), Some(t));
        }
        let page: EventPage = serde_json::from_value(json!({"events": [], "next": 3})).unwrap();
        assert!(!page.more);
    }
}
