//! Events (issue 58): every committed outcome is an event of the server's feed, read by the
//! real `stone events tail` against the real `stone-server`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::push_e2e::{HOST, push, with_server};

/// `stone events tail stone:<ns> --json` and its events.
fn tail(ctx: &stone_test::TestContext, namespace: &str, extra: &[&str]) -> Vec<Value> {
    let out = ctx
        .stone()
        .args(["events", "tail", namespace, "--env", "local", "--json"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "events tail failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    crate::stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON event per line"))
        .collect()
}

fn types(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_owned(),
                e["dataset"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn every_committed_outcome_is_an_event_in_commit_order() {
    let (ctx, _server, _data) = with_server();
    let package = |rows: &[u8], version: &str| {
        ctx.package(
            "sales",
            &format!(
                "name: sales\nversion: \"{version}\"\npublish: {{to: \"stone:sales\"}}\nresources:\n  - path: orders.csv\n  - path: scan.bin\n"
            ),
            &[("orders.csv", rows), ("scan.bin", &[7u8; 3000])],
        )
    };
    let dir = package(b"id,amount\n1,10\n2,20\n", "1.0.0");
    let first = push(&ctx, &dir, &["--branch", "dev"]);
    // Another namespace's push: never in sales' feed.
    let other = ctx.package(
        "other",
        "name: other\npublish: {to: \"stone:other\"}\nresources:\n  - path: a.csv\n",
        &[("a.csv", b"x\n1\n")],
    );
    push(&ctx, &other, &["--branch", "dev"]);

    let events = tail(&ctx, "stone:sales", &[]);
    assert_eq!(
        types(&events),
        [
            ("dataset.created", "orders"),
            ("dataset.version_named", "orders"),
            ("dataset.created", "scan"),
            ("dataset.version_named", "scan"),
            ("push.committed", ""),
        ]
        .map(|(t, d)| (t.to_owned(), d.to_owned())),
        "{events:#?}"
    );
    let push_id = first["push_id"].as_str().unwrap();
    let mut cursors = Vec::new();
    for event in &events {
        assert_eq!(event["namespace"], "sales");
        assert_eq!(event["branch"], "dev");
        assert_eq!(event["push_id"], push_id);
        assert_eq!(event["subject"], "local", "the caller's subject");
        assert_eq!(event["version"], "1.0.0");
        assert_eq!(event["id"].as_str().unwrap().len(), 36, "a UUID");
        cursors.push(event["cursor"].as_i64().unwrap());
    }
    assert!(
        cursors.windows(2).all(|w| w[0] < w[1]),
        "cursors grow: {cursors:?}"
    );
    let orders = &events[0];
    assert_eq!(orders["iri"], format!("https://{HOST}/sales/orders"));
    assert_eq!(orders["url"], "stone:sales/orders");
    assert_eq!(orders["kind"], "TABULAR");
    assert_eq!(orders["engine"], "iceberg");
    assert_eq!(orders["detail"]["rows_added"], 2);
    assert!(orders["detail"]["snapshot_id"].is_i64(), "{orders:#}");
    let scan = &events[2];
    assert_eq!(scan["kind"], "BLOB");
    assert_eq!(scan["engine"], "object_storage");
    assert_eq!(scan["detail"]["bytes"], 3000);
    let committed = &events[4];
    assert_eq!(committed["iri"], format!("https://{HOST}/sales"));
    assert_eq!(committed["counts"]["created"], 2);
    assert_eq!(committed["counts"]["failed"], 0);

    // After the last cursor: nothing, at once.
    let last = cursors.last().unwrap().to_string();
    assert!(tail(&ctx, "stone:sales", &["--after", &last]).is_empty());

    // --follow waits for the next commit and prints it as it lands: the appended table
    // has its change, the unchanged blob only its new version.
    let mut follower = ctx
        .stone()
        .args([
            "events",
            "tail",
            "stone:sales",
            "--env",
            "local",
            "--json",
            "--follow",
            "--after",
            &last,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = follower.stdout.take().unwrap();
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let dir = package(b"id,amount\n3,30\n", "1.1.0");
    let second = push(&ctx, &dir, &["--branch", "dev"]);
    let mut followed = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while followed.len() < 4 && Instant::now() < deadline {
        if let Ok(line) = received.recv_timeout(Duration::from_millis(200)) {
            followed.push(serde_json::from_str::<Value>(&line).unwrap());
        }
    }
    let _ = follower.kill();
    let _ = follower.wait();
    assert_eq!(
        types(&followed),
        [
            ("dataset.appended", "orders"),
            ("dataset.version_named", "orders"),
            ("dataset.version_named", "scan"),
            ("push.committed", ""),
        ]
        .map(|(t, d)| (t.to_owned(), d.to_owned())),
        "{followed:#?}"
    );
    assert_eq!(followed[0]["push_id"], second["push_id"]);
    assert_eq!(followed[0]["detail"]["rows_added"], 1);
    assert_eq!(followed[0]["detail"]["total_rows"], 3);
    assert!(followed[0]["cursor"].as_i64().unwrap() > cursors[4]);

    // For people: one line per event, its cursor first.
    let out = ctx
        .stone()
        .args(["events", "tail", "stone:sales", "--env", "local"])
        .args(["--after", &last])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let text = crate::stdout(&out);
    let first_line = text.lines().next().unwrap();
    assert!(
        first_line.starts_with(&followed[0]["cursor"].to_string())
            && first_line
                .contains("dataset.appended stone:sales/orders on dev (+1 rows, 3 rows now"),
        "{text}"
    );
    // One branch only: none on main.
    assert!(tail(&ctx, "stone:sales", &["--branch", "main"]).is_empty());
    // A dataset is not a namespace: a usage error that says so.
    let out = ctx
        .stone()
        .args([
            "events",
            "tail",
            "stone:sales/orders",
            "--env",
            "local",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", crate::stderr(&out));
    let error: Value = serde_json::from_slice(&out.stdout).expect("the error as JSON");
    assert_eq!(error["error"]["code"], "events.invalid_source", "{error:#}");
}

/// A commit that fails (the server dies while writing a table, and `[jobs] max_crashes = 1`
/// fails the push instead of resuming it): the dataset recorded before has its event, the
/// push its `push.failed`, and the table whose outcome was never recorded none.
#[test]
fn a_failed_commit_has_push_failed_and_no_event_of_what_did_not_commit() {
    use stone_test::services::StoneServer;
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let config = format!("public_host = \"{HOST}\"\n[jobs]\nmax_crashes = 1\n");
    let mut server = StoneServer::start(
        data.path(),
        Some(&config),
        &[("STONE_SERVER_TEST_PAUSE_COMMIT", "orders")],
    );
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let dir = ctx.package(
        "crash",
        "name: crash\npublish: {to: \"stone:crash\"}\nresources:\n  - path: scan.bin\n  - path: orders.csv\n",
        &[("scan.bin", b"bytes"), ("orders.csv", b"id\n1\n")],
    );
    let mut pushing = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", "dev", "--json",
        ])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let paused = data.path().join("test-hooks/paused");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !paused.exists() {
        assert!(Instant::now() < deadline, "{}", server.log_tail(30));
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill();
    let _ = pushing.kill();
    let _ = pushing.wait();
    let server = StoneServer::start(data.path(), Some(&config), &[]);
    let out = ctx
        .stone()
        .args([
            "env",
            "add",
            "local",
            "--host",
            HOST,
            "--api",
            &server.api(),
            "--replace",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let deadline = Instant::now() + Duration::from_secs(60);
    let events = loop {
        let events = tail(&ctx, "stone:crash", &[]);
        if events.iter().any(|e| e["type"] == "push.failed") {
            break events;
        }
        assert!(
            Instant::now() < deadline,
            "{events:#?}\n{}",
            server.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(
        types(&events),
        [("dataset.created", "scan"), ("push.failed", "")]
            .map(|(t, d)| (t.to_owned(), d.to_owned())),
        "{events:#?}"
    );
    assert_eq!(events[1]["counts"]["failed"], 1, "{events:#?}");
    assert_eq!(events[1]["counts"]["created"], 1, "{events:#?}");
}

/// Retention (`[events] retention_days`): events older than it are pruned once no
/// subscription needs them; the feed then refuses a cursor before what it keeps, with
/// `events.cursor_expired` and where to restart, and `stone events tail` says so. Events a
/// subscription has not received yet (its receiver is down) are kept until it has.
#[test]
fn old_events_are_pruned_once_delivered_and_an_expired_cursor_is_refused() {
    use crate::webhooks::{Receiver, call, feed, start_server, wait_all_received};
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    // 0.00005 days: 4.3 s; pruned every second.
    let server = start_server(data.path(), "retention_days = 0.00005\n");
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let mut receiver = Receiver::start("ok");
    receiver.kill();
    let created = crate::webhooks::subscribe(&server, "keep", &receiver, serde_json::json!({}));
    let package = |namespace: &str| {
        ctx.package(
            namespace,
            &format!("name: {namespace}\npublish: {{to: \"stone:{namespace}\"}}\nresources:\n  - path: orders.csv\n"),
            &[("orders.csv", b"id\n1\n")],
        )
    };
    push(&ctx, &package("gone"), &["--branch", "dev"]);
    push(&ctx, &package("keep"), &["--branch", "dev"]);
    let gone = feed(&server, "gone");
    assert_eq!(gone.len(), 2, "{gone:#?}");
    let first = gone[0]["cursor"].as_i64().unwrap();
    let kept = feed(&server, "keep");
    assert_eq!(kept.len(), 2, "{kept:#?}");

    // Past the retention: gone's events are pruned; keep's wait for their receiver.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !feed(&server, "gone").is_empty() {
        assert!(Instant::now() < deadline, "{}", server.log_tail(20));
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        server.log_tail(200).contains("events pruned"),
        "{}",
        server.log_tail(20)
    );
    assert_eq!(feed(&server, "keep"), kept, "undelivered events are kept");
    let (status, problem) = call(
        &server,
        "GET",
        &format!("/v1/namespaces/gone/events?after={first}"),
        None,
    );
    assert_eq!(
        (status, problem["code"].as_str()),
        (410, Some("events.cursor_expired")),
        "{problem:#}"
    );
    let restart = problem["restart_after"].as_i64().unwrap();
    assert!(restart > first, "{problem:#}");
    let (status, page) = call(
        &server,
        "GET",
        &format!("/v1/namespaces/gone/events?after={restart}"),
        None,
    );
    assert_eq!(status, 200, "{page:#}");
    // The CLI says the same, with the cursor to restart from.
    let out = ctx
        .stone()
        .args(["events", "tail", "stone:gone", "--env", "local", "--json"])
        .args(["--after", &first.to_string()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", crate::stderr(&out));
    let error: Value = serde_json::from_slice(&out.stdout).expect("the error as JSON");
    assert_eq!(error["error"]["code"], "events.cursor_expired", "{error:#}");
    assert!(
        error.to_string().contains(&format!("--after {restart}")),
        "{error:#}"
    );

    // The receiver is back: keep's events are delivered, then pruned too, deliveries and all.
    receiver.restart();
    wait_all_received(&receiver, &kept, &server);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !feed(&server, "keep").is_empty() {
        assert!(Instant::now() < deadline, "{}", server.log_tail(20));
        std::thread::sleep(Duration::from_millis(200));
    }
    let id = created["subscription"]["id"].as_str().unwrap();
    let (status, deliveries) = call(
        &server,
        "GET",
        &format!("/v1/namespaces/keep/subscriptions/{id}/deliveries"),
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        deliveries["deliveries"],
        serde_json::json!([]),
        "{deliveries:#}"
    );
}

/// Hostile `after` cursors: not a number, negative, past what an i64 holds, beyond the
/// last cursor the server gave: each a 400 `request.invalid` naming `after`, never a 500
/// nor an empty page that waits for events that are not coming. A cursor read from another
/// namespace's feed shows this namespace's events after it, none of the other's.
#[test]
fn hostile_feed_cursors_are_refused_and_show_no_other_namespace() {
    use crate::webhooks::{call, feed, start_server};
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let server = start_server(data.path(), "");
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let package = |namespace: &str, round: usize| {
        ctx.package(
            namespace,
            &format!("name: {namespace}\npublish: {{to: \"stone:{namespace}\"}}\nresources:\n  - path: orders.csv\n"),
            &[("orders.csv", format!("id\n{round}\n").as_bytes())],
        )
    };
    push(&ctx, &package("mine", 0), &["--branch", "dev"]);
    push(&ctx, &package("theirs", 0), &["--branch", "dev"]);
    push(&ctx, &package("mine", 1), &["--branch", "dev"]);
    let mine = feed(&server, "mine");
    let theirs = feed(&server, "theirs");
    assert_eq!((mine.len(), theirs.len()), (4, 2), "{mine:#?}\n{theirs:#?}");
    let last = mine[3]["cursor"].as_i64().unwrap();

    for after in [
        "-1".to_owned(),
        "-9223372036854775808".to_owned(),
        "abc".to_owned(),
        "1e3".to_owned(),
        "0x10".to_owned(),
        "%201".to_owned(),
        String::new(),
        "99999999999999999999999".to_owned(),
        i64::MAX.to_string(),
        (last + 1).to_string(),
    ] {
        for wait in ["", "&wait=1"] {
            let (status, problem) = call(
                &server,
                "GET",
                &format!("/v1/namespaces/mine/events?after={after}{wait}"),
                None,
            );
            assert_eq!(
                (status, problem["code"].as_str(), problem["field"].as_str()),
                (400, Some("request.invalid"), Some("after")),
                "after={after:?}: {problem:#}"
            );
            let beyond = after.parse::<i64>().is_ok_and(|n| n > 0);
            let detail = problem["detail"].as_str().unwrap();
            assert!(
                detail.contains(if beyond {
                    "beyond the last event"
                } else {
                    "is not a cursor"
                }),
                "after={after:?}: {detail}"
            );
        }
    }
    // The query's other numbers, and a push status's, when they are not numbers: problems
    // like every other refusal (they were axum's plain text).
    for path in [
        "/v1/namespaces/mine/events?wait=soon",
        "/v1/namespaces/mine/events?limit=ten",
        "/v1/namespaces/mine/events?limit=-1",
        "/v1/pushes/any?since=yesterday",
        "/v1/pushes/any?since=0&wait=1.5",
    ] {
        let (status, problem) = call(&server, "GET", path, None);
        assert_eq!(
            (status, problem["code"].as_str()),
            (400, Some("request.invalid")),
            "{path}: {problem:#}"
        );
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|d| d.contains("query")),
            "{path}: {problem:#}"
        );
    }
    // The last cursor given is one (nothing after it yet), as is 0.
    for after in [0, last] {
        let (status, page) = call(
            &server,
            "GET",
            &format!("/v1/namespaces/mine/events?after={after}"),
            None,
        );
        assert_eq!(status, 200, "after={after}: {page:#}");
    }
    // Another namespace's cursor: only this namespace's events after it.
    let theirs_cursor = theirs[0]["cursor"].as_i64().unwrap();
    let (status, page) = call(
        &server,
        "GET",
        &format!("/v1/namespaces/mine/events?after={theirs_cursor}"),
        None,
    );
    assert_eq!(status, 200, "{page:#}");
    let shown = page["events"].as_array().unwrap();
    let expected: Vec<&Value> = mine
        .iter()
        .filter(|e| e["cursor"].as_i64().unwrap() > theirs_cursor)
        .collect();
    assert_eq!(shown.iter().collect::<Vec<_>>(), expected, "{page:#}");
    assert!(shown.iter().all(|e| e["namespace"] == "mine"), "{page:#}");
    assert!(!shown.is_empty(), "mine's second push came after theirs");
}
