//! Webhooks (issue 58), end to end: the real `stone-server` delivers the events of real
//! pushes (`stone package push`) to a Python receiver that checks every signature with the
//! `standardwebhooks` package and parses every body with the CloudEvents SDK
//! (`webhook_receiver.py`). The receiver goes away for a while and the server is SIGKILLed:
//! every committed outcome still arrives, at least once, in commit order per dataset.
//! Hostile targets are refused.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stone_test::TestContext;
use stone_test::services::{ServiceProcess, StoneServer, agent, free_port};
use stone_test::tools::{asset, python};

use crate::push_e2e::{HOST, push};

/// Delivery settings for a test: loopback allowed, quick retries.
pub(crate) const EVENTS: &str = "[events]
allow_targets = [\"127.0.0.1/32\"]
retry_initial_ms = 100
retry_max_seconds = 1
delivery_timeout_seconds = 3
";

/// The Python receiver (`webhook_receiver.py`).
pub(crate) struct Receiver {
    process: Option<ServiceProcess>,
    port: u16,
    dir: tempfile::TempDir,
    args: Vec<String>,
}

impl Receiver {
    pub(crate) fn start(mode: &str) -> Receiver {
        Self::start_with(&["--mode", mode])
    }

    pub(crate) fn start_with(args: &[&str]) -> Receiver {
        let imports = if args.contains(&"openlineage") {
            "import standardwebhooks, cloudevents.core, openlineage.client.event_v2"
        } else {
            "import standardwebhooks, cloudevents.core"
        };
        let check = Command::new(python())
            .args(["-c", imports])
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "the webhook receiver needs the Python packages standardwebhooks and cloudevents \
             (and openlineage-python for --format openlineage) in the tools' venv: run \
             scripts/install-tools ({})",
            String::from_utf8_lossy(&check.stderr)
        );
        let dir = tempfile::Builder::new()
            .prefix("webhook-receiver-")
            .tempdir()
            .unwrap();
        let mut receiver = Receiver {
            process: None,
            port: free_port(),
            dir,
            args: args.iter().map(|a| a.to_string()).collect(),
        };
        receiver.restart();
        receiver
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}/hook", self.port)
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("deliveries.jsonl")
    }

    pub(crate) fn set_secret(&self, secret: &str) {
        let path = self.dir.path().join("secret");
        std::fs::write(path.with_extension("tmp"), secret).unwrap();
        std::fs::rename(path.with_extension("tmp"), path).unwrap();
    }

    /// (Re)starts it on its port.
    pub(crate) fn restart(&mut self) {
        let mut command = Command::new(python());
        command
            .arg(asset("webhook_receiver.py"))
            .args(["--port", &self.port.to_string()])
            .args(&self.args)
            .arg("--secret-file")
            .arg(self.dir.path().join("secret"))
            .arg("--log")
            .arg(self.log());
        let mut process = ServiceProcess::spawn(
            "webhook-receiver",
            command,
            ServiceProcess::temp_dir("webhook-receiver"),
        );
        let log = process.log_path().to_owned();
        process
            .wait_ready(Duration::from_secs(20), || {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                if text.contains("listening on") {
                    Ok(())
                } else {
                    Err(format!("not listening yet: {text}"))
                }
            })
            .unwrap();
        self.process = Some(process);
    }

    pub(crate) fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// Every delivery received so far.
    pub(crate) fn received(&self) -> Vec<Value> {
        std::fs::read_to_string(self.log())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// A subscription of `receiver` to `namespace`'s events (`extra`: the subscription's other
/// fields), its secret given to the receiver: the creation's answer.
pub(crate) fn subscribe(
    server: &StoneServer,
    namespace: &str,
    receiver: &Receiver,
    extra: Value,
) -> Value {
    let mut body = json!({ "url": receiver.url() });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let (status, created) = call(
        server,
        "POST",
        &format!("/v1/namespaces/{namespace}/subscriptions"),
        Some(body),
    );
    assert_eq!(status, 201, "{created:#}");
    receiver.set_secret(created["secret"].as_str().unwrap());
    created
}

/// A request to the server's API with a JSON body: status and JSON answer.
pub(crate) fn call(
    server: &StoneServer,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let url = format!("{}{path}", server.url());
    let agent = agent();
    let response = match (method, body) {
        ("POST", Some(body)) => agent
            .post(&url)
            .header("content-type", "application/json")
            .send(body.to_string().as_bytes()),
        ("POST", None) => agent.post(&url).send_empty(),
        ("DELETE", _) => agent.delete(&url).call(),
        _ => agent.get(&url).call(),
    }
    .unwrap();
    let status = response.status().as_u16();
    let text = response.into_body().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Every event of the namespace's feed, oldest first.
pub(crate) fn feed(server: &StoneServer, namespace: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let (status, page) = call(
            server,
            "GET",
            &format!("/v1/namespaces/{namespace}/events?after={after}&limit=1000"),
            None,
        );
        assert_eq!(status, 200, "{page:#}");
        events.extend(page["events"].as_array().unwrap().iter().cloned());
        after = page["next"].as_i64().unwrap();
        if !page["more"].as_bool().unwrap() {
            return events;
        }
    }
}

/// Waits until every event of `expected` has been received (verified); the deliveries.
pub(crate) fn wait_all_received(
    receiver: &Receiver,
    expected: &[Value],
    server: &StoneServer,
) -> Vec<Value> {
    let wanted: HashSet<&str> = expected.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let received = receiver.received();
        let got: HashSet<&str> = received
            .iter()
            .filter(|d| d["verified"] == true)
            .filter_map(|d| d["webhook_id"].as_str())
            .collect();
        let missing: Vec<&&str> = wanted.iter().filter(|id| !got.contains(**id)).collect();
        if missing.is_empty() {
            return received;
        }
        assert!(
            Instant::now() < deadline,
            "{} of {} events not delivered after 60 s: {missing:?}\nserver log:\n{}",
            missing.len(),
            wanted.len(),
            server.log_tail(40)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn package(ctx: &TestContext, round: usize) -> PathBuf {
    ctx.package(
        "hooks",
        "name: hooks\npublish: {to: \"stone:hooks\"}\nresources:\n  - path: orders.csv\n  - path: scan.bin\n",
        &[
            ("orders.csv", format!("id,round\n{round},{round}\n").as_bytes()),
            ("scan.bin", format!("scan of round {round}").as_bytes()),
        ],
    )
}

/// Points `local` at a server started again (on another port).
pub(crate) fn repoint(ctx: &TestContext, server: &StoneServer) {
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
}

pub(crate) fn start_server(data: &Path, extra: &str) -> StoneServer {
    StoneServer::start(
        data,
        Some(&format!("public_host = \"{HOST}\"\n{EVENTS}{extra}")),
        &[],
    )
}

#[test]
fn every_committed_outcome_reaches_a_receiver_through_outages_and_a_crash() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let mut server = start_server(data.path(), "");
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let mut receiver = Receiver::start("ok");

    let created = subscribe(&server, "hooks", &receiver, json!({}));
    let secret = created["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{created:#}");
    let id = created["subscription"]["id"].as_str().unwrap().to_owned();
    // Shown once: never listed, never logged.
    let (status, listed) = call(&server, "GET", "/v1/namespaces/hooks/subscriptions", None);
    assert_eq!(status, 200);
    assert_eq!(listed["subscriptions"][0]["id"], id.as_str());
    assert!(!listed.to_string().contains(&secret), "{listed:#}");

    for round in 0..4 {
        push(&ctx, &package(&ctx, round), &["--branch", "dev"]);
    }
    let events = feed(&server, "hooks");
    assert_eq!(
        events.len(),
        4 * 3,
        "2 datasets and the push, 4 times: {events:#?}"
    );
    wait_all_received(&receiver, &events, &server);

    // The receiver goes away; pushes go on; the server is killed and started again; the
    // receiver comes back: what was committed meanwhile arrives.
    receiver.kill();
    for round in 4..7 {
        push(&ctx, &package(&ctx, round), &["--branch", "dev"]);
    }
    std::thread::sleep(Duration::from_millis(800));
    server.kill();
    let mut server = start_server(data.path(), "");
    repoint(&ctx, &server);
    push(&ctx, &package(&ctx, 7), &["--branch", "dev"]);
    server.kill();
    server = start_server(data.path(), "");
    repoint(&ctx, &server);
    receiver.restart();
    let events = feed(&server, "hooks");
    assert_eq!(events.len(), 8 * 3, "{events:#?}");
    let received = wait_all_received(&receiver, &events, &server);

    // Every delivery verified, a CloudEvent, and an event of the feed: none of anything
    // that did not commit. Repeats carry the same webhook-id.
    let by_id: HashMap<&str, &Value> = events
        .iter()
        .map(|e| (e["id"].as_str().unwrap(), e))
        .collect();
    let mut first_seen: Vec<&Value> = Vec::new();
    let mut seen = HashSet::new();
    for delivery in &received {
        assert_eq!(delivery["verified"], true, "{delivery:#}");
        let webhook_id = delivery["webhook_id"].as_str().unwrap();
        let event = by_id
            .get(webhook_id)
            .unwrap_or_else(|| panic!("a delivery of no committed event: {delivery:#}"));
        assert_eq!(delivery["ce_id"], webhook_id);
        assert_eq!(delivery["content_type"], "application/cloudevents+json");
        assert_eq!(
            delivery["ce_type"],
            format!("stone.{}", event["type"].as_str().unwrap())
        );
        assert_eq!(delivery["ce_source"], format!("https://{HOST}/hooks"));
        assert_eq!(&delivery["event"], *event, "the data is the feed's event");
        if seen.insert(webhook_id) {
            first_seen.push(event);
        }
    }
    // Commit order per dataset: each dataset's events first arrive in cursor order.
    let mut last: BTreeMap<String, i64> = BTreeMap::new();
    for event in first_seen {
        let key = event["dataset"].as_str().unwrap_or("(push)").to_owned();
        let cursor = event["cursor"].as_i64().unwrap();
        if let Some(before) = last.insert(key.clone(), cursor) {
            assert!(before < cursor, "{key}: {cursor} arrived after {before}");
        }
    }
    // The server's record of them.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, listed) = call(&server, "GET", "/v1/namespaces/hooks/subscriptions", None);
        let counts = &listed["subscriptions"][0]["deliveries"];
        if counts["delivered"] == 24 && counts["pending"] == 0 {
            assert_eq!(counts["dead"], 0);
            break;
        }
        assert!(Instant::now() < deadline, "{listed:#}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        !server.log_tail(10_000).contains(&secret),
        "the secret is never logged"
    );

    // Deleted: no more deliveries, and it is gone.
    let (status, _) = call(
        &server,
        "DELETE",
        &format!("/v1/namespaces/hooks/subscriptions/{id}"),
        None,
    );
    assert_eq!(status, 204);
    let (status, gone) = call(
        &server,
        "DELETE",
        &format!("/v1/namespaces/hooks/subscriptions/{id}"),
        None,
    );
    assert_eq!(
        (status, gone["code"].as_str()),
        (404, Some("subscription.not_found"))
    );
}

#[test]
fn hostile_targets_are_refused_and_bad_receivers_hold_nothing() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let server = start_server(data.path(), "");
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    // Refused when subscribed: loopback not allowed, cloud metadata, private, mapped,
    // plain http to a public address, credentials in the URL.
    for url in [
        "http://127.0.0.2:8080/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://10.0.0.7/hook",
        "https://192.168.1.20/hook",
        "https://[::1]/hook",
        "https://[::ffff:169.254.169.254]/hook",
        "http://93.184.216.34/hook",
        "https://user:pw@93.184.216.34/hook",
    ] {
        let (status, problem) = call(
            &server,
            "POST",
            "/v1/namespaces/hooks/subscriptions",
            Some(json!({ "url": url })),
        );
        assert_eq!(status, 400, "{url}: {problem:#}");
        assert_eq!(
            problem["code"], "subscription.target_forbidden",
            "{url}: {problem:#}"
        );
        assert_eq!(problem["url"], url);
    }
    let (_, listed) = call(&server, "GET", "/v1/namespaces/hooks/subscriptions", None);
    assert_eq!(listed["subscriptions"], json!([]));

    // A redirect to loopback is never followed; a receiver that answers slowly or with
    // 1 GiB holds neither a worker for long nor the server's memory, and a good receiver
    // beside them gets everything at once.
    let trap = Receiver::start("ok");
    let redirect = Receiver::start_with(&["--mode", "redirect", "--location", &trap.url()]);
    let slow = Receiver::start("slow");
    let huge = Receiver::start("huge");
    let good = Receiver::start("ok");
    let subscribe = |receiver: &Receiver| {
        let created = subscribe(
            &server,
            "hooks",
            receiver,
            json!({ "types": ["push.committed"] }),
        );
        created["subscription"]["id"].as_str().unwrap().to_owned()
    };
    let redirect_id = subscribe(&redirect);
    subscribe(&slow);
    subscribe(&huge);
    subscribe(&good);
    let started = Instant::now();
    for round in 0..3 {
        push(&ctx, &package(&ctx, round), &["--branch", "dev"]);
    }
    let committed: Vec<Value> = feed(&server, "hooks")
        .into_iter()
        .filter(|e| e["type"] == "push.committed")
        .collect();
    wait_all_received(&good, &committed, &server);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the good receiver waited for the bad ones"
    );
    // The redirect's target never saw a request (its log is empty); the delivery says why.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, deliveries) = call(
            &server,
            "GET",
            &format!("/v1/namespaces/hooks/subscriptions/{redirect_id}/deliveries"),
            None,
        );
        let errors: Vec<&str> = deliveries["deliveries"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["last_error"].as_str())
            .collect();
        if errors
            .iter()
            .any(|e| e.contains("redirects are not followed"))
        {
            break;
        }
        assert!(Instant::now() < deadline, "{deliveries:#}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        trap.received().is_empty(),
        "the redirect was followed to loopback"
    );
    // The huge answer was cut short: the receiver could not send its gigabyte.
    let deadline = Instant::now() + Duration::from_secs(20);
    while huge.received().is_empty() {
        assert!(
            Instant::now() < deadline,
            "the huge receiver was never called"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let rss = server_rss_kib(&server);
    assert!(
        rss < 1 << 20,
        "the server holds {rss} KiB after a 1 GiB answer"
    );
}

/// The server's resident memory, in KiB.
fn server_rss_kib(server: &StoneServer) -> u64 {
    let pid = server.pid();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Two replicas on one PostgreSQL state database (and shared engines): the first is killed
/// while it holds a delivery (sent to a slow receiver, not answered yet); the second
/// delivers it once the first one's claim has run out, and not before, with everything
/// else the first left: every committed outcome at least once, per-dataset order kept.
#[test]
fn a_second_replica_on_postgresql_delivers_what_a_killed_one_left() {
    // The replicas' shared engines (PostgreSQL, S3, a graph server), as the scale-out
    // test has them.
    let cluster = crate::replicas::Cluster::start();
    let config = format!("{}\n{EVENTS}", cluster.config);
    let first_data = tempfile::tempdir().unwrap();
    let second_data = tempfile::tempdir().unwrap();
    let mut first = StoneServer::start(first_data.path(), Some(&config), &[]);
    let ctx = crate::context();
    ctx.add_env("local", HOST, &first.api());
    // Answers after 30 s: past the delivery timeout (3 s), so the first replica holds each
    // delivery it sends for up to 3 s, then tries again.
    let mut receiver = Receiver::start_with(&["--mode", "slow", "--delay", "30"]);
    subscribe(&first, "hooks", &receiver, json!({"datasets": ["orders"]}));
    for round in 0..3 {
        push(&ctx, &package(&ctx, round), &["--branch", "dev"]);
    }
    // A delivery arrives at the receiver: the first replica holds it (sent, unanswered)
    // when it dies.
    let arrivals = |receiver: &Receiver| {
        receiver
            .received()
            .into_iter()
            .filter(|d| d["arrived"] == true)
            .collect::<Vec<_>>()
    };
    let before = arrivals(&receiver).len();
    let deadline = Instant::now() + Duration::from_secs(30);
    let held = loop {
        if let Some(arrival) = arrivals(&receiver).get(before) {
            first.kill();
            break arrival.clone();
        }
        assert!(Instant::now() < deadline, "{}", first.log_tail(30));
        std::thread::sleep(Duration::from_millis(10));
    };
    let held_id = held["webhook_id"].as_str().unwrap().to_owned();
    // The receiver is fixed (answers at once) and the second replica starts.
    receiver.kill();
    receiver.args = ["--mode", "ok"].map(String::from).to_vec();
    receiver.restart();
    let second = StoneServer::start(second_data.path(), Some(&config), &[]);
    let events: Vec<Value> = feed(&second, "hooks")
        .into_iter()
        .filter(|e| e["dataset"] == "orders" || e["dataset"].is_null())
        .collect();
    assert_eq!(
        events.len(),
        6,
        "orders' 3 events and 3 pushes': {events:#?}"
    );
    let received = wait_all_received(&receiver, &events, &second);
    let delivered: Vec<&Value> = received.iter().filter(|d| d["verified"] == true).collect();
    let cursors: Vec<i64> = {
        let mut seen = HashSet::new();
        delivered
            .iter()
            .filter(|d| d["event"]["dataset"] == "orders")
            .filter(|d| seen.insert(d["webhook_id"].as_str().unwrap().to_owned()))
            .map(|d| d["event"]["cursor"].as_i64().unwrap())
            .collect()
    };
    assert!(cursors.windows(2).all(|w| w[0] < w[1]), "{cursors:?}");
    assert!(
        delivered.iter().all(|d| d["event"]["dataset"] != "scan"),
        "the dataset filter holds"
    );
    // The held delivery came from the second replica, after the first one's claim ran out
    // (claimed before it arrived, for twice the timeout and a 5 s margin: 11 s).
    let redelivered = delivered
        .iter()
        .find(|d| d["webhook_id"] == held_id.as_str())
        .unwrap_or_else(|| panic!("the held delivery {held_id} never arrived: {received:#?}"));
    let waited = redelivered["at"].as_f64().unwrap() - held["at"].as_f64().unwrap();
    assert!(
        waited >= 10.0,
        "the held delivery was sent again {waited:.1} s after the first replica sent it: its claim (11 s) was not waited for"
    );
}

/// A target's `Retry-After` is honoured; a delivery that keeps failing past the retry window
/// is dead with its last error, and `redeliver` sends it again once the target is back.
#[test]
fn retry_after_is_honoured_and_dead_deliveries_are_redelivered() {
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    // A window of 4 s: the failing target's deliveries die within seconds, and a
    // `Retry-After: 2` fits in it.
    let server = start_server(data.path(), "retry_window_seconds = 4\n");
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    let patient = Receiver::start_with(&["--fail-first", "1", "--retry-after", "2"]);
    let mut failing = Receiver::start("fail");
    let subscribe = |receiver: &Receiver| {
        let created = subscribe(
            &server,
            "hooks",
            receiver,
            json!({ "types": ["push.committed"] }),
        );
        created["subscription"]["id"].as_str().unwrap().to_owned()
    };
    subscribe(&patient);
    let dead_id = subscribe(&failing);
    push(&ctx, &package(&ctx, 0), &["--branch", "dev"]);
    let committed: Vec<Value> = feed(&server, "hooks")
        .into_iter()
        .filter(|e| e["type"] == "push.committed")
        .collect();
    let received = wait_all_received(&patient, &committed, &server);
    let refused_at = received
        .iter()
        .find(|d| d["refused"] == true)
        .and_then(|d| d["at"].as_f64())
        .expect("the first attempt was refused");
    let delivered_at = received
        .iter()
        .find(|d| d["verified"] == true)
        .and_then(|d| d["at"].as_f64())
        .unwrap();
    assert!(
        delivered_at - refused_at >= 1.9,
        "Retry-After: 2 was not waited for: {:.2} s",
        delivered_at - refused_at
    );

    let deliveries = |state: &str| {
        let (status, list) = call(
            &server,
            "GET",
            &format!("/v1/namespaces/hooks/subscriptions/{dead_id}/deliveries?state={state}"),
            None,
        );
        assert_eq!(status, 200, "{list:#}");
        list["deliveries"].as_array().unwrap().clone()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let dead = loop {
        let dead = deliveries("dead");
        if !dead.is_empty() {
            break dead;
        }
        assert!(Instant::now() < deadline, "{:#?}", deliveries("pending"));
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(dead[0]["event_id"], committed[0]["id"]);
    assert!(
        dead[0]["last_error"]
            .as_str()
            .unwrap()
            .contains("answered 500"),
        "{dead:#?}"
    );
    assert!(dead[0]["attempts"].as_u64().unwrap() >= 2, "{dead:#?}");
    // The target is fixed; the operator redelivers.
    failing.kill();
    let mut fixed = Receiver::start("ok");
    fixed.kill();
    fixed.port = failing.port;
    fixed.dir = failing.dir;
    fixed.restart();
    let (status, answer) = call(
        &server,
        "POST",
        &format!("/v1/namespaces/hooks/subscriptions/{dead_id}/redeliver"),
        None,
    );
    assert_eq!(
        (status, answer["redelivered"].as_u64()),
        (200, Some(1)),
        "{answer:#}"
    );
    wait_all_received(&fixed, &committed, &server);
    assert!(deliveries("dead").is_empty());
    assert_eq!(deliveries("delivered").len(), 1);
}
