//! OpenLineage targets (issue 58), end to end: the real `stone-server` sends a `RunEvent`
//! per push outcome of real pushes (`stone package push`) to a Python receiver that checks
//! its signature with `standardwebhooks` and rebuilds every part of it with
//! `openlineage-python`'s models (`webhook_receiver.py --format openlineage`). The run ids,
//! the outputs and their facets are checked against the server's own feed of what the
//! pushes committed; a push whose commit fails (the server killed in it) is a `FAIL` whose
//! outputs are the datasets that did commit.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stone_test::services::StoneServer;

use crate::push_e2e::{HOST, push};
use crate::webhooks::{Receiver, call, feed, repoint, start_server, wait_all_received};

fn lineage_package(ctx: &stone_test::TestContext, round: usize) -> std::path::PathBuf {
    ctx.package(
        "lineage",
        "name: shop\npublish: {to: \"stone:lineage\"}\nresources:\n  - path: orders.csv\n  - path: scan.bin\n",
        &[
            (
                "orders.csv",
                format!("id,amount\n{round},1{round}\n").as_bytes(),
            ),
            ("scan.bin", format!("scan of round {round}").as_bytes()),
        ],
    )
}

/// The events of the feed by push: the push's end event and its dataset events.
fn by_push(events: &[Value]) -> BTreeMap<String, (Value, Vec<Value>)> {
    let mut pushes: BTreeMap<String, (Value, Vec<Value>)> = BTreeMap::new();
    for event in events {
        let id = event["push_id"].as_str().unwrap().to_owned();
        let entry = pushes.entry(id).or_insert((Value::Null, Vec::new()));
        if event["dataset"].is_null() {
            entry.0 = event.clone();
        } else {
            entry.1.push(event.clone());
        }
    }
    pushes
}

/// Checks a received RunEvent against the feed's events of its push.
fn check_run_event(lineage: &Value, push: &Value, datasets: &[Value]) {
    let failed = push["type"] == "push.failed";
    assert_eq!(
        lineage["eventType"],
        if failed { "FAIL" } else { "COMPLETE" },
        "{lineage:#}"
    );
    assert_eq!(
        lineage["run"]["runId"], push["push_id"],
        "the push is the run"
    );
    assert_eq!(lineage["eventTime"], push["time"]);
    assert_eq!(lineage["job"]["namespace"], format!("stone://{HOST}"));
    assert_eq!(lineage["job"]["name"], "lineage.shop");
    assert_eq!(
        lineage["job"]["facets"]["jobType"]["jobType"], "PUSH",
        "{lineage:#}"
    );
    assert!(
        lineage["producer"]
            .as_str()
            .unwrap()
            .contains("stone-server"),
        "{lineage:#}"
    );
    assert_eq!(
        lineage["schemaURL"],
        "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent"
    );
    if failed {
        let message = lineage["run"]["facets"]["errorMessage"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("a FAIL says why: {lineage:#}"));
        assert!(!message.is_empty());
    }
    // The outputs: every dataset the push has an event of, nothing else.
    let outputs: BTreeMap<String, &Value> = lineage["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            assert_eq!(o["namespace"], format!("stone://{HOST}"), "{o:#}");
            (o["name"].as_str().unwrap().to_owned(), o)
        })
        .collect();
    let written: BTreeSet<String> = datasets
        .iter()
        .map(|e| format!("lineage/{}", e["dataset"].as_str().unwrap()))
        .collect();
    assert_eq!(
        outputs.keys().cloned().collect::<BTreeSet<_>>(),
        written,
        "{lineage:#}"
    );
    for event in datasets {
        let output = outputs[&format!("lineage/{}", event["dataset"].as_str().unwrap())];
        let lifecycle = &output["facets"]["lifecycleStateChange"]["lifecycleStateChange"];
        match event["type"].as_str().unwrap() {
            "dataset.created" => assert_eq!(lifecycle, "CREATE", "{output:#}"),
            "dataset.replaced" => assert_eq!(lifecycle, "OVERWRITE", "{output:#}"),
            _ => {}
        }
        let detail = &event["detail"];
        if let Some(snapshot) = detail["snapshot_id"].as_i64() {
            assert_eq!(
                output["facets"]["version"]["datasetVersion"],
                snapshot.to_string(),
                "the table's version is the snapshot the write produced: {output:#}"
            );
            assert_eq!(
                output["outputFacets"]["outputStatistics"]["rowCount"], detail["rows_added"],
                "{output:#}"
            );
        }
        if event["dataset"] == "orders" {
            let fields: Vec<(&str, &str)> = output["facets"]["schema"]["fields"]
                .as_array()
                .unwrap_or_else(|| panic!("a table has a schema facet: {output:#}"))
                .iter()
                .map(|f| (f["name"].as_str().unwrap(), f["type"].as_str().unwrap()))
                .collect();
            assert_eq!(fields, [("id", "long"), ("amount", "long")], "{output:#}");
        }
        if event["dataset"] == "scan" {
            assert!(
                output["facets"].get("schema").is_none(),
                "a file has no schema: {output:#}"
            );
        }
    }
}

#[test]
fn an_openlineage_target_gets_a_run_event_per_push_outcome() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let crash = "[jobs]\nmax_crashes = 1\n";
    let mut server = start_server(data.path(), crash);
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let receiver = Receiver::start_with(&["--format", "openlineage"]);

    // Dataset events are the outputs of a RunEvent, never events of their own.
    let (status, problem) = call(
        &server,
        "POST",
        "/v1/namespaces/lineage/subscriptions",
        Some(json!({"url": receiver.url(), "format": "openlineage", "types": ["dataset.created"]})),
    );
    assert_eq!(
        (status, problem["code"].as_str()),
        (400, Some("request.invalid")),
        "{problem:#}"
    );
    assert_eq!(problem["field"], "types", "{problem:#}");
    let (status, created) = call(
        &server,
        "POST",
        "/v1/namespaces/lineage/subscriptions",
        Some(json!({"url": receiver.url(), "format": "openlineage"})),
    );
    assert_eq!(status, 201, "{created:#}");
    assert_eq!(created["subscription"]["format"], "openlineage");
    receiver.set_secret(created["secret"].as_str().unwrap());

    for round in 0..3 {
        push(&ctx, &lineage_package(&ctx, round), &["--branch", "dev"]);
    }

    // A push whose commit fails: the server dies writing `orders` (after `scan`), and
    // `max_crashes = 1` fails the push at the next start.
    server.kill();
    let paused_server = StoneServer::start(
        data.path(),
        Some(&format!(
            "public_host = \"{HOST}\"\n{}{crash}",
            crate::webhooks::EVENTS
        )),
        &[("STONE_SERVER_TEST_PAUSE_COMMIT", "orders")],
    );
    repoint(&ctx, &paused_server);
    let dir = ctx.package(
        "lineage-crash",
        "name: shop\npublish: {to: \"stone:lineage\"}\nresources:\n  - path: scan.bin\n  - path: orders.csv\n",
        &[("scan.bin", b"the crash's scan"), ("orders.csv", b"id,amount\n9,99\n")],
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
        assert!(Instant::now() < deadline, "{}", paused_server.log_tail(30));
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut paused_server = paused_server;
    paused_server.kill();
    let _ = pushing.kill();
    let _ = pushing.wait();
    let _ = std::fs::remove_file(&paused);
    let server = start_server(data.path(), crash);
    repoint(&ctx, &server);

    let deadline = Instant::now() + Duration::from_secs(60);
    let events = loop {
        let events = feed(&server, "lineage");
        if events.iter().any(|e| e["type"] == "push.failed") {
            break events;
        }
        assert!(Instant::now() < deadline, "{}", server.log_tail(30));
        std::thread::sleep(Duration::from_millis(100));
    };
    let pushes = by_push(&events);
    assert_eq!(pushes.len(), 4, "3 pushes and the failed one: {events:#?}");
    let ends: Vec<Value> = pushes.values().map(|(end, _)| end.clone()).collect();
    let received = wait_all_received(&receiver, &ends, &server);

    // Every delivery valid, one per push outcome (repeats carry the same webhook-id),
    // none of a dataset event.
    let ids: BTreeMap<&str, &str> = ends
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e["push_id"].as_str().unwrap()))
        .collect();
    let mut checked = BTreeSet::new();
    for delivery in &received {
        assert_eq!(delivery["valid"], true, "{delivery:#}");
        assert_eq!(delivery["content_type"], "application/json");
        let webhook_id = delivery["webhook_id"].as_str().unwrap();
        let push_id = ids
            .get(webhook_id)
            .unwrap_or_else(|| panic!("a delivery of no push outcome: {delivery:#}"));
        let (end, datasets) = &pushes[*push_id];
        check_run_event(&delivery["lineage"], end, datasets);
        checked.insert(*push_id);
    }
    assert_eq!(checked.len(), 4);
    // The failed push: a FAIL whose only output is the dataset that committed.
    let (failed, failed_datasets) = pushes
        .values()
        .find(|(end, _)| end["type"] == "push.failed")
        .unwrap();
    let names: Vec<&str> = failed_datasets
        .iter()
        .map(|e| e["dataset"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["scan"], "{failed:#}");
    let fail = received
        .iter()
        .find(|d| d["webhook_id"] == failed["id"])
        .unwrap();
    assert_eq!(fail["lineage"]["eventType"], "FAIL");
    assert_eq!(
        fail["lineage"]["outputs"].as_array().unwrap().len(),
        1,
        "{fail:#}"
    );
}
