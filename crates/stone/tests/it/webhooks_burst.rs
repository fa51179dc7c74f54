//! Webhooks (issue 58) at the scale: a burst of 200 pushes (`stone package push`,
//! four at once) to the real `stone-server`, the Python receiver (`webhook_receiver.py`:
//! `standardwebhooks` signatures, the CloudEvents SDK) killed for a minute during it, and
//! the server SIGKILLed twice during it, with commits under way. Then, compared with the
//! namespace's feed: every committed outcome delivered at least once, none of a commit that
//! failed (a tenth of the pushes fail on purpose: a CSV whose column no longer fits the
//! table), each dataset's events first arriving in commit order, repeats carrying the same
//! `webhook-id`.
//!
//! The last pushes of each writer wait for the receiver's return, so that it comes back
//! during the burst, however fast the pushes before it went.
//!
//! CPU: a push of one small CSV costs the debug binaries about a quarter of a CPU-second
//! (client and server together): the whole test took 56 CPU-s (42 user, 14 system) and
//! 79 s of wall on the 2-core machine (2026-12-04); the minute away is mostly waiting. The
//! issue's 200 pushes fit the CI budget: no smaller scale.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::process::Output;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stone_test::TestContext;

use crate::push_e2e::HOST;
use crate::webhooks::{Receiver, feed, repoint, start_server, wait_all_received};

/// Pushes in all, by [`WRITERS`] threads, each to its own dataset.
const PUSHES: usize = 200;
const WRITERS: usize = 4;
/// Every tenth push of a writer (rounds 5, 15, …: its table exists by then) fails on
/// purpose.
const BAD_EVERY: usize = 10;
/// The last pushes of each writer wait for the receiver to be back: it returns during the
/// burst, however fast the pushes before went.
const AFTER_RETURN: usize = 5;

/// How a push of the burst ended, as the CLI said.
#[derive(Debug)]
enum Pushed {
    Committed { push_id: String },
    Refused,
}

/// One push of writer `writer`, round `round`: `d<writer>.csv`, of integers, or (bad) of a
/// string where the table holds integers.
fn push_round(ctx: &TestContext, writer: usize, round: usize, bad: bool) -> Output {
    let csv = if bad {
        format!("id,round\nnot-a-number,{round}\n")
    } else {
        format!("id,round\n{writer},{round}\n")
    };
    let dataset = format!("d{writer}.csv");
    let dir = ctx.package(
        &format!("burst-{writer}"),
        &format!(
            "name: burst\npublish: {{to: \"stone:burst\"}}\nresources:\n  - path: {dataset}\n"
        ),
        &[(dataset.as_str(), csv.as_bytes())],
    );
    ctx.stone()
        .args([
            "package", "push", "--env", "local", "--branch", "dev", "--json",
        ])
        .arg(&dir)
        .output()
        .unwrap()
}

#[test]
fn a_burst_of_200_pushes_reaches_a_receiver_through_a_minute_away_and_two_crashes() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let mut server = start_server(data.path(), "");
    let mut ctx = crate::context();
    // A push cut by a kill fails at once; the writer pushes again once the server is back.
    ctx.set_var("STONE_HTTP_RETRIES", "1");
    ctx.add_env("local", HOST, &server.api());
    let mut receiver = Receiver::start("ok");
    crate::webhooks::subscribe(&server, "burst", &receiver, json!({}));

    // Odd while the server is down (killed, not yet started again and pointed at).
    let generation = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let writers_done = AtomicUsize::new(0);
    let returned = AtomicBool::new(false);
    let outcomes: Mutex<Vec<(usize, usize, Pushed)>> = Mutex::new(Vec::new());
    let retried = AtomicUsize::new(0);
    let started = Instant::now();
    let mut away_since = None;
    let mut back = false;
    let mut kills = 0;
    std::thread::scope(|scope| {
        let mut writers = Vec::new();
        for writer in 0..WRITERS {
            let (ctx, generation, finished, outcomes, retried, writers_done, returned) = (
                &ctx,
                &generation,
                &finished,
                &outcomes,
                &retried,
                &writers_done,
                &returned,
            );
            writers.push(scope.spawn(move || {
                for round in 0..PUSHES / WRITERS {
                    let bad = round % BAD_EVERY == BAD_EVERY / 2;
                    while round >= PUSHES / WRITERS - AFTER_RETURN
                        && !returned.load(Ordering::SeqCst)
                    {
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    let outcome = loop {
                        let seen = loop {
                            let seen = generation.load(Ordering::SeqCst);
                            if seen % 2 == 0 {
                                break seen;
                            }
                            std::thread::sleep(Duration::from_millis(50));
                        };
                        let out = push_round(ctx, writer, round, bad);
                        let stderr = crate::stderr(&out);
                        if generation.load(Ordering::SeqCst) != seen {
                            // Killed under it: committed or not, the feed says; push again.
                            retried.fetch_add(1, Ordering::SeqCst);
                            continue;
                        }
                        if bad {
                            assert_eq!(out.status.code(), Some(1), "{stderr}");
                            assert!(stderr.contains("(schema.incompatible)"), "{stderr}");
                            break Pushed::Refused;
                        }
                        assert!(
                            out.status.success(),
                            "writer {writer} round {round}: {stderr}"
                        );
                        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
                        break Pushed::Committed {
                            push_id: result["push_id"].as_str().unwrap().to_owned(),
                        };
                    };
                    outcomes.lock().unwrap().push((writer, round, outcome));
                    finished.fetch_add(1, Ordering::SeqCst);
                }
                writers_done.fetch_add(1, Ordering::SeqCst);
            }));
        }
        // The receiver goes away for a minute from the 20th push; the server is killed
        // at the 70th and the 130th, with pushes under way.
        loop {
            let done = finished.load(Ordering::SeqCst);
            if away_since.is_none() && done >= 20 {
                receiver.kill();
                away_since = Some(Instant::now());
                eprintln!(
                    "{:.1} s: receiver killed ({done} pushes)",
                    started.elapsed().as_secs_f64()
                );
            }
            if let Some(since) = away_since
                && !back
                && since.elapsed() >= Duration::from_secs(60)
            {
                receiver.restart();
                back = true;
                returned.store(true, Ordering::SeqCst);
                eprintln!(
                    "{:.1} s: receiver back ({done} pushes)",
                    started.elapsed().as_secs_f64()
                );
            }
            if (kills == 0 && done >= 70) || (kills == 1 && done >= 130) {
                generation.fetch_add(1, Ordering::SeqCst);
                server.kill();
                server = start_server(data.path(), "");
                repoint(&ctx, &server);
                generation.fetch_add(1, Ordering::SeqCst);
                kills += 1;
                eprintln!(
                    "{:.1} s: server killed and started again ({done} pushes)",
                    started.elapsed().as_secs_f64()
                );
            }
            if done == PUSHES && back {
                break;
            }
            if writers.iter().filter(|w| w.is_finished()).count()
                > writers_done.load(Ordering::SeqCst)
            {
                // A writer stopped before its last push: its panic is the test's failure
                // (raised when the scope joins it).
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(600),
                "the burst did not end in 10 minutes ({done} pushes)\n{}",
                server.log_tail(40)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    assert_eq!(kills, 2, "the server was killed twice during the burst");
    let burst = started.elapsed();
    let outcomes = outcomes.into_inner().unwrap();

    // Commits cut by a kill are resumed (or failed) by the server started again: the feed
    // is complete once every push the CLI saw committed is in it and it stops growing.
    let committed: HashSet<String> = outcomes
        .iter()
        .filter_map(|(.., o)| match o {
            Pushed::Committed { push_id } => Some(push_id.clone()),
            Pushed::Refused => None,
        })
        .collect();
    let refused = outcomes
        .iter()
        .filter(|(.., o)| matches!(o, Pushed::Refused))
        .count();
    assert_eq!(refused, WRITERS * (PUSHES / WRITERS).div_ceil(BAD_EVERY));
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last_len = usize::MAX;
    let mut stable_since = Instant::now();
    let events = loop {
        let events = feed(&server, "burst");
        let finished: HashSet<&str> = events
            .iter()
            .filter(|e| e["type"] == "push.committed")
            .filter_map(|e| e["push_id"].as_str())
            .collect();
        if events.len() != last_len {
            last_len = events.len();
            stable_since = Instant::now();
        }
        if committed.iter().all(|id| finished.contains(id.as_str()))
            && stable_since.elapsed() > Duration::from_secs(3)
        {
            break events;
        }
        assert!(
            Instant::now() < deadline,
            "the feed lacks committed pushes after 60 s\n{}",
            server.log_tail(40)
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    let received = wait_all_received(&receiver, &events, &server);

    // None for a failed commit. A push that failed may be pushed again under its ID (the
    // CLI resumes it) and then commit: walking the feed in cursor order, a push's dataset
    // events belong to the commit its next `push.committed` or `push.failed` ends. Each
    // push here writes one dataset: a commit that failed has no dataset event.
    let mut open: HashMap<&str, Vec<&Value>> = HashMap::new();
    let mut failures = 0;
    for event in &events {
        let push_id = event["push_id"].as_str().unwrap();
        match event["type"].as_str().unwrap() {
            "push.committed" => {
                open.remove(push_id);
            }
            "push.failed" => {
                failures += 1;
                let of_it = open.remove(push_id).unwrap_or_default();
                assert!(
                    of_it.is_empty(),
                    "dataset events of a commit that failed: {event:#}\n{of_it:#?}"
                );
                assert_eq!(event["counts"]["failed"], 1, "{event:#}");
            }
            _ => open.entry(push_id).or_default().push(event),
        }
    }
    assert!(
        open.values().all(Vec::is_empty),
        "dataset events of commits that never ended: {open:#?}"
    );
    assert!(
        failures >= refused,
        "{refused} pushes were refused, {failures} push.failed events"
    );

    // Every delivery verified, a CloudEvent of an event of the feed, with its data; the
    // first arrival of each in commit order per dataset (the pushes' own events: per
    // namespace and branch); repeats identified by webhook-id.
    let by_id: HashMap<&str, &Value> = events
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e))
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut last: BTreeMap<String, i64> = BTreeMap::new();
    for delivery in &received {
        assert_eq!(delivery["verified"], true, "{delivery:#}");
        let webhook_id = delivery["webhook_id"].as_str().unwrap();
        let event = by_id
            .get(webhook_id)
            .unwrap_or_else(|| panic!("a delivery of no committed event: {delivery:#}"));
        assert_eq!(delivery["ce_id"], webhook_id);
        assert_eq!(&delivery["event"], *event, "the data is the feed's event");
        let count = seen.entry(webhook_id).or_default();
        *count += 1;
        if *count > 1 {
            continue;
        }
        let key = event["dataset"].as_str().unwrap_or("(push)").to_owned();
        let cursor = event["cursor"].as_i64().unwrap();
        if let Some(before) = last.insert(key.clone(), cursor) {
            assert!(before < cursor, "{key}: {cursor} arrived after {before}");
        }
    }
    assert_eq!(seen.len(), events.len(), "every event of the feed arrived");
    let datasets: Vec<&String> = last.keys().collect();
    assert_eq!(datasets, ["(push)", "d0", "d1", "d2", "d3"], "{last:?}");
    let repeats = seen.values().filter(|n| **n > 1).count();
    eprintln!(
        "burst of {PUSHES} pushes in {:.0} s ({} pushed again after a kill); {} events, \
         {} deliveries, {repeats} events delivered more than once",
        burst.as_secs_f64(),
        retried.load(Ordering::SeqCst),
        events.len(),
        received.len()
    );
}
