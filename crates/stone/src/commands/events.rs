//! `stone events tail stone:<ns>`: the namespace's events from the server's feed
//! (`GET /v1/namespaces/<ns>/events`, issue 58), printed as they come with `--follow`.

use std::io::Write as _;
use std::time::Duration;

use anyhow::Context as _;
use reqwest::StatusCode;
use stone_api::{Event, EventPage, MAX_EVENT_WAIT_SECONDS, Problem};
use stone_http::retry::{self, Resend};
use stone_package::StoneUrl;
use stone_push::environment::Environments as _;

use crate::cli::{EventsTailArgs, GlobalArgs};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::identity;

/// How long one long poll of `--follow` waits on the server.
const FOLLOW_WAIT_SECONDS: u64 = 30;

/// The events one request asks for.
const PAGE: usize = 500;

pub fn tail(args: &EventsTailArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let url: StoneUrl = args.namespace.parse().map_err(|e| {
        CliError::new(
            codes::EVENTS_INVALID_SOURCE,
            format!("`{}` is not a namespace: {e}", args.namespace),
        )
        .hint("name it as stone:<ns>")
    })?;
    if let Some(name) = &url.name {
        return Err(CliError::new(
            codes::EVENTS_INVALID_SOURCE,
            format!(
                "`{}` names a dataset; events are read per namespace: stone:{}",
                args.namespace, url.namespace
            ),
        )
        .hint(format!(
            "filter one dataset's events from --json, e.g. `jq 'select(.dataset == \"{name}\")'`"
        ))
        .into());
    }
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let environment = config.select(&args.env)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        tokio::select! {
            result = follow(args, &environment, url.namespace.as_str()) => result,
            () = interrupted() => Ok(()),
        }
    })
}

async fn follow(
    args: &EventsTailArgs,
    environment: &stone_push::environment::Environment,
    namespace: &str,
) -> anyhow::Result<()> {
    let api = environment.options.api.trim_end_matches('/').to_owned();
    let retries = crate::settings::http_retries()?;
    let token = match identity::static_token() {
        Some(token) => Some(token.expose().clone()),
        None => identity::stored_login(environment, retries).await?,
    };
    let client = stone_http::client_builder(Duration::from_secs(MAX_EVENT_WAIT_SECONDS + 30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .context("cannot set up the HTTP client")?;
    let mut after = args.after;
    let wait = if args.follow { FOLLOW_WAIT_SECONDS } else { 0 };
    loop {
        let mut url = url::Url::parse(&format!("{api}/namespaces/{namespace}/events"))
            .with_context(|| format!("the environment's API URL {api} is not a URL"))?;
        url.query_pairs_mut()
            .append_pair("after", &after.to_string())
            .append_pair("wait", &wait.to_string())
            .append_pair("limit", &PAGE.to_string());
        if let Some(branch) = &args.branch {
            url.query_pairs_mut().append_pair("branch", branch);
        }
        let request = {
            let request = client.get(url);
            match &token {
                Some(token) => request.bearer_auth(token),
                None => request,
            }
        };
        let build = || std::future::ready(request.try_clone().ok_or("a GET without a body"));
        let response = retry::send(retries, Resend::Idempotent, build, |r| {
            tracing::info!("{}: {}, trying again in {:.0?}", api, r.reason, r.wait)
        })
        .await
        .map_err(|e| match e {
            retry::SendError::Transport(e) => CliError::new(
                codes::EVENTS_UNAVAILABLE,
                format!(
                    "the server ({api}) did not answer: {}",
                    stone_http::describe(&e)
                ),
            )
            .hint("run the same command again, with --after the last cursor printed"),
            retry::SendError::Build(e) => CliError::new(codes::EVENTS_FAILED, e.to_string()),
        })?;
        let status = response.status();
        let body = stone_http::read_capped(response, stone_http::MAX_ANSWER)
            .await
            .map_err(|_| {
                CliError::new(
                    codes::EVENTS_UNAVAILABLE,
                    format!("the server ({api}) did not finish sending the events, or sent more than {}", stone_http::size_in_words(stone_http::MAX_ANSWER)),
                )
            })?;
        if !status.is_success() {
            return Err(refused(&api, namespace, status, &body, token.is_some()).into());
        }
        let page: EventPage = serde_json::from_slice(&body).map_err(|e| {
            CliError::new(
                codes::EVENTS_FAILED,
                format!("the server ({api}) sent events stone cannot read: {e}"),
            )
        })?;
        print_events(&page.events, args.json)?;
        after = page.next.max(after);
        if !args.follow && !page.more {
            return Ok(());
        }
    }
}

/// Prints events: JSON Lines, or one line each for people.
fn print_events(events: &[Event], json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for event in events {
        if json {
            serde_json::to_writer(&mut out, event)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", event_line(event))?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `12 2026-12-03T21:00:00Z dataset.appended stone:sales/orders on main (+3 rows, 10 rows now) push p1 by alice`.
pub fn event_line(event: &Event) -> String {
    let mut figures = Vec::new();
    if let Some(detail) = &event.detail {
        if let Some(n) = detail.rows_added {
            figures.push(format!("+{n} rows"));
        }
        if let Some(n) = detail.total_rows {
            figures.push(format!("{n} rows now"));
        }
        if let Some(n) = detail.triples_added {
            figures.push(format!("+{n} triples"));
        }
        if let Some(n) = detail.files {
            figures.push(format!("{n} files"));
        }
        if let Some(n) = detail.snapshot_id {
            figures.push(format!("snapshot {n}"));
        }
        if let Some(tag) = &detail.tag {
            figures.push(format!("version {tag}"));
        }
        if let Some(n) = detail.expired_snapshots {
            figures.push(format!("{n} snapshots expired"));
        }
    }
    if let Some(counts) = &event.counts {
        figures.push(format!(
            "{} created, {} appended, {} replaced, {} unchanged, {} deleted, {} failed",
            counts.created,
            counts.appended,
            counts.replaced,
            counts.unchanged,
            counts.deleted,
            counts.failed
        ));
    }
    let figures = if figures.is_empty() {
        String::new()
    } else {
        format!(" ({})", figures.join(", "))
    };
    format!(
        "{} {} {} {} on {}{figures} push {} by {}",
        event.cursor,
        event.time,
        event.event_type.as_str(),
        event.url,
        event.branch,
        event.push_id,
        event.subject
    )
}

/// The server's refusal, with its code and a hint.
fn refused(api: &str, namespace: &str, status: StatusCode, body: &[u8], token: bool) -> CliError {
    let problem: Option<Problem> = serde_json::from_slice(body).ok();
    let (detail, code) = match &problem {
        Some(p) => (
            p.detail.clone().unwrap_or_else(|| p.title.clone()),
            Some(p.code.clone()),
        ),
        None => (
            String::from_utf8_lossy(body).chars().take(200).collect(),
            None,
        ),
    };
    let coded = code.map(|c| format!(" (code {c})")).unwrap_or_default();
    let message = format!(
        "the events of stone:{namespace}: the server ({api}) answered {status}{coded}: {detail}"
    );
    match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
            let error = CliError::new(codes::EVENTS_UNAUTHORIZED, message);
            if token {
                error.hint("the token (of `stone login`, or $STONE_TOKEN) has no read access to this namespace: ask for a grant, or read a public branch with --branch")
            } else {
                error.hint("log in with `stone login --env ENV` (in CI: set $STONE_TOKEN), or read a public branch with --branch")
            }
        }
        StatusCode::GONE
            if problem
                .as_ref()
                .is_some_and(|p| p.code == codes::EVENTS_CURSOR_EXPIRED.name) =>
        {
            let restart = problem
                .as_ref()
                .and_then(|p| p.extra.get("restart_after"))
                .and_then(|v| v.as_i64())
                .unwrap_or(0);
            CliError::new(codes::EVENTS_CURSOR_EXPIRED, message).hint(format!(
                "the server no longer keeps every event after that cursor: read what it keeps with --after {restart} (events between are lost; resynchronise from the datasets)"
            ))
        }
        s if s.is_server_error() => CliError::new(codes::EVENTS_UNAVAILABLE, message)
            .hint("run the same command again, with --after the last cursor printed"),
        _ => CliError::new(codes::EVENTS_FAILED, message),
    }
}

async fn interrupted() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
