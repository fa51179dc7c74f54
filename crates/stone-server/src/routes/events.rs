//! `GET /v1/namespaces/{ns}/events?after=<cursor>&wait=<seconds>&limit=<n>` (issue 58): the
//! pull feed of a namespace's events, a long poll.
//!
//! Who sees what: the whole feed of a namespace is for its readers (read access, `[authz]`);
//! `branch=` narrows it to one branch, readable by whoever may read the namespace on that
//! branch (the rule of every read route: anyone, where the package is public). And each
//! event is shown only to a caller who may read its branch
//! ([`crate::authz::Authorizer::may_read`]): events a caller may not see are skipped as if
//! they were another namespace's (the cursor moves past them).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use stone_api::{Event, EventPage, MAX_EVENT_PAGE, MAX_EVENT_WAIT_SECONDS, codes};
use tokio::time::Instant;

use super::App;
use crate::auth::Caller;
use crate::authz::Access;
use crate::error::{ApiError, ApiResult};
use crate::state::EventQuery;

/// Events an answer lists unless `limit` says.
const DEFAULT_LIMIT: usize = 100;

/// How often a waiting feed looks at the database: events this process records wake it at
/// once; another replica's are seen at the next look.
const POLL: Duration = Duration::from_millis(250);

/// The feed's query.
#[derive(Debug, Deserialize)]
pub struct FeedQuery {
    /// Events after this cursor (default 0: from the first). Read as text and parsed here:
    /// a value that is not a cursor is answered with the feed's own error.
    after: Option<String>,
    /// Seconds to wait for an event when none is there yet (default 0: answer at once; at
    /// most [`MAX_EVENT_WAIT_SECONDS`]).
    wait: Option<u64>,
    /// Events at most (default 100, at most [`MAX_EVENT_PAGE`]).
    limit: Option<usize>,
    /// Only this branch's events.
    branch: Option<String>,
}

/// `GET /v1/namespaces/{namespace}/events`.
pub async fn feed(
    State(app): State<Arc<App>>,
    caller: Caller,
    Path(namespace): Path<String>,
    query: Result<Query<FeedQuery>, QueryRejection>,
) -> ApiResult<Json<EventPage>> {
    let Query(query) = query.map_err(ApiError::bad_query)?;
    if stone_package::Label::parse(&namespace).is_err() {
        return Err(ApiError::invalid_field(
            "namespace",
            format!("{namespace:?} is not a namespace (a DNS label: [a-z0-9-], 1–63 characters)"),
        ));
    }
    match (&query.branch, &caller.0) {
        (Some(branch), _) => {
            if stone_package::branch::normalize_branch(branch) != *branch || branch.is_empty() {
                return Err(ApiError::invalid_field(
                    "branch",
                    format!("{branch:?} is not a branch name (only [A-Za-z0-9_.-])"),
                ));
            }
            app.authz
                .authorize_read(&app.db, &caller, &namespace, branch)
                .await?
        }
        (None, Some(principal)) => {
            app.authz
                .require(principal, &namespace, Access::Read, "read the events of")?
        }
        (None, None) => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                codes::AUTH_REQUIRED,
                "Authentication required",
                format!(
                    "the events of {namespace} are for its readers: reading them needs a bearer token (`stone login`); the events of a public branch are readable without one with `branch=`"
                ),
            )
            .with_challenge("Bearer"));
        }
    }
    let mut after = feed_cursor(&app, &namespace, query.after.as_deref()).await?;
    let limit = query
        .limit
        .unwrap_or(DEFAULT_LIMIT)
        .clamp(1, MAX_EVENT_PAGE);
    let wait = Duration::from_secs(query.wait.unwrap_or(0).min(MAX_EVENT_WAIT_SECONDS));
    let deadline = Instant::now() + wait;
    let mut readable: HashMap<String, bool> = HashMap::new();
    let mut stopping = app.runner.shutdown_signal();
    loop {
        // Enabled before the read: an event recorded meanwhile still wakes it.
        let added = app.db.events_added();
        tokio::pin!(added);
        added.as_mut().enable();
        let (events, more) = app
            .db
            .events_after(&EventQuery {
                namespace: Some(&namespace),
                branch: query.branch.as_deref(),
                after,
                limit,
            })
            .await?;
        // Read after the events: a pruning that took some of them shows here.
        let pruned = app.db.pruned_cursor().await?;
        if after > 0 && after < pruned {
            return Err(cursor_expired(&namespace, after, pruned));
        }
        let last = events.last().map(|event| event.cursor);
        let mut shown: Vec<Event> = Vec::with_capacity(events.len());
        for event in events {
            let may = match readable.get(&event.branch) {
                Some(may) => *may,
                None => {
                    let may = app
                        .authz
                        .may_read(&app.db, caller.0.as_ref(), &namespace, &event.branch)
                        .await?;
                    readable.insert(event.branch.clone(), may);
                    may
                }
            };
            if may {
                shown.push(event);
            }
        }
        if let Some(last) = last {
            after = last;
        }
        let now = Instant::now();
        if !shown.is_empty() || more || now >= deadline || *stopping.borrow() {
            return Ok(Json(EventPage {
                events: shown,
                next: after,
                more,
            }));
        }
        let pause = POLL.min(deadline - now);
        tokio::select! {
            _ = added => {}
            _ = tokio::time::sleep(pause) => {}
            _ = stopping.changed() => {}
        }
    }
}

/// The `after` of a feed's query: a cursor this server gave (0 to start from the first
/// event). Not a number, negative, or beyond the last cursor given (a cursor of another
/// server, or of a state database restored from an older backup): 400, never an empty
/// feed that would wait for events that are not coming.
async fn feed_cursor(app: &App, namespace: &str, after: Option<&str>) -> ApiResult<i64> {
    let Some(text) = after else {
        return Ok(0);
    };
    let after = match text.parse::<i64>() {
        Ok(after) if after >= 0 => after,
        _ => {
            return Err(ApiError::invalid_field(
                "after",
                format!(
                    "after={text:?} is not a cursor of the events of {namespace}: a cursor is a whole number from 0 (the first event) up, the `next` of a previous answer"
                ),
            ));
        }
    };
    if after > 0 {
        let last = app.db.last_event_cursor().await?;
        if after > last {
            return Err(ApiError::invalid_field(
                "after",
                format!(
                    "after={after} is beyond the last event this server recorded (cursor {last}): not a cursor of this server's feed (another server's, or one kept from before the state database was restored from a backup). Start again with after=0, and resynchronise from the datasets themselves"
                ),
            )
            .with("last_cursor", last));
        }
    }
    Ok(after)
}

/// A cursor older than what the server keeps ([`crate::state::StateDb::prune_events`]).
fn cursor_expired(namespace: &str, after: i64, pruned: i64) -> ApiError {
    ApiError::new(
        StatusCode::GONE,
        codes::EVENTS_CURSOR_EXPIRED,
        "Cursor expired",
        format!(
            "the events of {namespace} after cursor {after} are no longer all kept: events up to cursor {pruned} were pruned ([events] retention_days); events between were lost to this reader. Read what is kept with after={pruned} (or after=0), and resynchronise from the datasets themselves"
        ),
    )
    .with("restart_after", pruned)
}
