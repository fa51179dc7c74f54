//! Scale-out (issue 9): several `stone-server` replicas on one PostgreSQL database, one
//! S3 staging bucket, one S3 blob bucket, one Oxigraph server and the Iceberg warehouse
//! in an S3 bucket — all real programs. The `stone` binary pushes through all replicas at once;
//! one replica is killed mid-commit and its pushes are taken over by the others when its
//! lease runs out. Independent readers check that every push landed exactly once:
//! pyiceberg and DuckDB on the PostgreSQL catalog and the S3 warehouse (rows, distinct
//! rows, one snapshot per push; the two readers must agree), a SPARQL count per graph on
//! the Oxigraph server, the blob heads and objects in S3.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{
    FaultProxy, OxigraphServer, Postgres, SeaweedFs, SplitMix64, StoneServer,
};

const HOST: &str = "replicas.test";
const NS: &str = "scale";
/// Seconds a replica's claim on a push lasts: short, so a killed replica's push is taken
/// over quickly.
const LEASE_SECONDS: u64 = 3;

/// The shared engines of a set of replicas.
pub struct Cluster {
    pub postgres: Postgres,
    pub oxigraph: OxigraphServer,
    pub seaweed: &'static SeaweedFs,
    pub blob_bucket: String,
    /// `s3://<bucket>/warehouse`.
    pub warehouse: String,
    pub config: String,
}

impl Cluster {
    pub fn start() -> Cluster {
        let postgres = Postgres::start();
        let oxigraph = OxigraphServer::start();
        let seaweed = SeaweedFs::shared();
        let suffix = format!("{:08x}", fastrand::u32(..));
        let staging_bucket = format!("scale-staging-{suffix}");
        let blob_bucket = format!("scale-blobs-{suffix}");
        let lake_bucket = format!("scale-lake-{suffix}");
        for bucket in [&staging_bucket, &blob_bucket, &lake_bucket] {
            seaweed.create_bucket(bucket);
        }
        let warehouse = format!("s3://{lake_bucket}/warehouse");
        let s3 = |bucket: &str, prefix: &str| {
            format!(
                "endpoint = \"{}\"\nbucket = \"{bucket}\"\nprefix = \"{prefix}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\nsecret_access_key = \"{}\"\nallow_http = true\n",
                seaweed.endpoint(),
                seaweed.region(),
                seaweed.access_key(),
                seaweed.secret_key()
            )
        };
        let config = format!(
            "public_host = \"{HOST}\"\n\
             [database]\nurl = \"{}\"\n\
             [iceberg]\nwarehouse = \"{warehouse}\"\ncommit_attempts = 40\n\
             [iceberg.s3]\nendpoint = \"{}\"\nregion = \"{}\"\naccess_key_id = \"{}\"\n\
             secret_access_key = \"{}\"\nallow_http = true\n\
             [jobs]\nconcurrency = 2\nlease_seconds = {LEASE_SECONDS}\n\
             [graph]\nremote_url = \"{}\"\n\
             [staging]\nstore = \"s3\"\npart_size = 5242880\n[staging.s3]\n{}\
             [blob]\nstore = \"s3\"\n[blob.s3]\n{}",
            postgres.url(),
            seaweed.endpoint(),
            seaweed.region(),
            seaweed.access_key(),
            seaweed.secret_key(),
            oxigraph.base_url(),
            s3(&staging_bucket, "uploads/"),
            s3(&blob_bucket, "datasets"),
        );
        Cluster {
            postgres,
            oxigraph,
            seaweed,
            blob_bucket,
            warehouse,
            config,
        }
    }

    /// A replica with its own (nearly empty) data directory.
    pub fn replica(&self, data: &Path, env: &[(&str, &str)]) -> StoneServer {
        StoneServer::start(data, Some(&self.config), env)
    }
}

/// What one package must leave on its branch.
pub(crate) struct Expected {
    pub branch: String,
    pub rows: u64,
    pub triples: u64,
    /// sha256 of the blob dataset's only file.
    pub blob: String,
    pub dir: PathBuf,
}

/// One table `t`, one graph `g`, one blob `b`, contents unique to `index`.
pub(crate) fn package(ctx: &TestContext, index: usize, rng: &mut SplitMix64) -> Expected {
    let rows = 30 + rng.below(100);
    let csv = crate::faults::random_csv(index, rows, rng);
    let triples = 5 + rng.below(20);
    let ttl = crate::faults::random_ttl(index, triples, rng);
    let mut blob = Vec::new();
    while blob.len() < 32 * 1024 {
        blob.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    let descriptor = format!(
        "name: scale\npublish: {{to: \"stone:{NS}\"}}\nresources:\n  - path: t.csv\n  - path: g.ttl\n  - path: b.bin\n"
    );
    let dir = ctx.package(
        &format!("p{index:03}"),
        &descriptor,
        &[
            ("t.csv", csv.as_bytes()),
            ("g.ttl", ttl.as_bytes()),
            ("b.bin", &blob),
        ],
    );
    Expected {
        branch: format!("s{index:03}"),
        rows,
        triples,
        blob: stone_package::digest::sha256_hex(&blob),
        dir,
    }
}

pub(crate) fn push_command(ctx: &TestContext, env: &str, expected: &Expected) -> Command {
    let mut cmd = ctx.stone();
    cmd.args(["package", "push", "--env", env, "--json", "--branch"])
        .arg(&expected.branch)
        .arg(&expected.dir);
    cmd
}

pub(crate) fn assert_pushed(out: &Output, what: &str) {
    let result = crate::faults::push_result(out, what, 3);
    for d in result["datasets"].as_array().expect("datasets") {
        // A new branch of a table other pushes created is `appended` to.
        let status = d["status"].as_str().unwrap_or_default();
        assert!(
            status == "created" || (status == "appended" && d["kind"] == "TABULAR"),
            "{what}: {result}"
        );
    }
}

/// Checks every package's branch with independent readers; `pushes` is the number of
/// pushes that wrote the table (one snapshot each).
pub(crate) fn verify(cluster: &Cluster, all: &[Expected], pushes: usize) {
    let branches: Vec<&str> = all.iter().map(|e| e.branch.as_str()).collect();
    // Two readers no one here wrote: pyiceberg and DuckDB's Iceberg extension.
    let by_reader: Vec<(&str, Value)> = ["iceberg_counts.py", "iceberg_counts_duckdb.py"]
        .into_iter()
        .map(|script| (script, iceberg_counts(cluster, script, &branches)))
        .collect();
    for (script, tables) in &by_reader {
        assert_eq!(
            tables["_snapshots"].as_u64(),
            Some(pushes as u64),
            "{script}: one snapshot per push: {tables}"
        );
    }
    let tables = &by_reader[0].1;
    for e in all {
        assert_eq!(
            by_reader[1].1[&e.branch], tables[&e.branch],
            "branch {}: DuckDB and pyiceberg read the same rows",
            e.branch
        );
    }

    let answer = cluster
        .oxigraph
        .query("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g");
    let graphs = crate::faults::graph_counts(&answer);

    for e in all {
        crate::faults::assert_table_and_graph(
            tables, &graphs, HOST, NS, &e.branch, e.rows, e.triples,
        );
        let prefix = format!("datasets/{NS}/b/{}", e.branch);
        let head = cluster
            .seaweed
            .get_object(&cluster.blob_bucket, &format!("{prefix}/head.json"))
            .unwrap_or_else(|| panic!("branch {}: no blob head", e.branch));
        let head: Value = serde_json::from_slice(&head).unwrap();
        let files = head["files"].as_array().unwrap();
        assert_eq!(files.len(), 1, "{}: {head}", e.branch);
        assert_eq!(files[0]["sha256"].as_str(), Some(e.blob.as_str()), "{head}");
        let bytes = cluster
            .seaweed
            .get_object(
                &cluster.blob_bucket,
                &format!("{prefix}/objects/{}", e.blob),
            )
            .unwrap_or_else(|| panic!("branch {}: no blob object", e.branch));
        assert_eq!(
            stone_package::digest::sha256_hex(&bytes),
            e.blob,
            "branch {}: the stored object has the pushed bytes",
            e.branch
        );
    }
}

/// Rows and distinct rows per branch of the table `t`, read by `script` (an asset) on the
/// PostgreSQL catalog and the S3 warehouse.
fn iceberg_counts(cluster: &Cluster, script: &str, branches: &[&str]) -> Value {
    let out = crate::s3_warehouse::pyiceberg_command(script)
        .args(["--catalog-uri", &cluster.postgres.sqlalchemy_url()])
        .args(["--warehouse", &cluster.warehouse])
        .args(crate::s3_warehouse::pyiceberg_properties(cluster.seaweed))
        .args(["--table", &format!("{NS}.t"), "--catalog-name", "stone"])
        .args(["--branches", &branches.join(","), "--snapshots"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} on PostgreSQL and S3 (needs psycopg2-binary, duckdb-ext-iceberg, duckdb-ext-httpfs: run scripts/install-tools): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{script}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn socket(server: &StoneServer) -> std::net::SocketAddr {
    server.url().trim_start_matches("http://").parse().unwrap()
}

#[test]
fn twenty_pushes_through_three_replicas_with_one_killed_mid_commit_land_exactly_once() {
    let cluster = Cluster::start();
    let dirs: Vec<tempfile::TempDir> = (0..3)
        .map(|_| {
            tempfile::Builder::new()
                .prefix("stone-replica-")
                .tempdir()
                .unwrap()
        })
        .collect();
    let a = cluster.replica(dirs[0].path(), &[]);
    let b = cluster.replica(dirs[1].path(), &[]);
    // Replica C stops every commit it runs right after the graph was written, until it
    // is killed (the server's test hook).
    let mut c = cluster.replica(dirs[2].path(), &[("STONE_SERVER_TEST_PAUSE_COMMIT", "g")]);
    // The clients of C reach it through a proxy, which then fails over to A (a load
    // balancer would): their pushes are created on C and finished on A.
    let proxy = FaultProxy::start(socket(&c), Vec::new());

    let mut ctx = crate::context();
    ctx.add_env("r0", HOST, &a.api());
    ctx.add_env("r1", HOST, &b.api());
    ctx.add_env("r2", HOST, &format!("{}/v1", proxy.url()));
    ctx.set_var("STONE_HTTP_RETRIES", "12");

    let mut rng = SplitMix64(0x5ca1e);
    let all: Vec<Expected> = (0..20).map(|i| package(&ctx, i, &mut rng)).collect();
    let children: Vec<_> = all
        .iter()
        .enumerate()
        .map(|(i, expected)| {
            push_command(&ctx, &format!("r{}", i % 3), expected)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();

    // The hook writes `<push id> <dataset>\n` (the file may be seen before its line).
    let paused = dirs[2].path().join("test-hooks/paused");
    let deadline = Instant::now() + Duration::from_secs(180);
    let taken_over = loop {
        let line = std::fs::read_to_string(&paused).unwrap_or_default();
        if line.ends_with('\n') {
            break line.split_whitespace().next().unwrap().to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "replica C never ran a commit:\n{}",
            c.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    c.kill();
    proxy.set_target(socket(&a));

    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        assert_pushed(&out, &format!("push {i} through replica {}", i % 3));
    }
    // The push C was writing when it died was finished by another replica.
    let status: Value = serde_json::from_str(
        &stone_test::services::agent()
            .get(&format!("{}/pushes/{taken_over}", b.api()))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(status["state"].as_str(), Some("succeeded"), "{status}");
    assert!(
        a.log_tail(400).contains(&taken_over) || b.log_tail(400).contains(&taken_over),
        "A or B finished {taken_over}"
    );
    verify(&cluster, &all, all.len());
}

#[test]
fn one_server_on_postgresql_pushes_re_pushes_and_branches() {
    let cluster = Cluster::start();
    let data = tempfile::Builder::new()
        .prefix("stone-replica-")
        .tempdir()
        .unwrap();
    let server = cluster.replica(data.path(), &[]);
    let ctx = crate::context();
    ctx.add_env("pg", HOST, &server.api());
    let mut rng = SplitMix64(0xb0b);
    let mut first = package(&ctx, 0, &mut rng);
    first.branch = "dev".into();
    let out = push_command(&ctx, "pg", &first).output().unwrap();
    assert_pushed(&out, "first push");

    // The same content again: nothing changes.
    let out = push_command(&ctx, "pg", &first).output().unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    for d in result["datasets"].as_array().unwrap() {
        assert_eq!(d["status"].as_str(), Some("unchanged"), "{result}");
    }

    // Another branch of the same table.
    let mut second = package(&ctx, 1, &mut rng);
    second.branch = "feature-x".into();
    let out = push_command(&ctx, "pg", &second).output().unwrap();
    assert_pushed(&out, "push to another branch");
    verify(&cluster, &[first, second], 2);
}

/// Runs `stone-server` on `config` (no `STONE_*` or CI variables) when it is expected to
/// stop at start: its output.
pub(crate) fn server_start(data_dir: &Path, config: &Path) -> Output {
    let mut command = Command::new(StoneServer::binary());
    for (key, _) in std::env::vars_os() {
        if key.to_str().is_some_and(|k| k.starts_with("STONE_")) {
            command.env_remove(key);
        }
    }
    command
        .arg("--data-dir")
        .arg(data_dir)
        .args(["--listen", "127.0.0.1:0", "--config"])
        .arg(config)
        .env_remove("CI")
        .env_remove("CI_HEAD_REF")
        .env_remove("CI_REF_NAME")
        .output()
        .unwrap()
}

#[test]
fn postgresql_with_local_staging_is_refused_at_start() {
    let data = tempfile::tempdir().unwrap();
    let config = data.path().join("server.toml");
    std::fs::write(
        &config,
        "[database]\nurl = \"postgres://stone@127.0.0.1:1/stone\"\n",
    )
    .unwrap();
    let out = server_start(&data.path().join("data"), &config);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = crate::stderr(&out);
    assert!(
        stderr.starts_with(
            "error: invalid configuration: database.url is a shared PostgreSQL database"
        ) && stderr.contains("[staging] store = \"s3\"")
            && stderr.contains("[graph] remote_url")
            && stderr.contains("[iceberg] warehouse = \"s3://"),
        "{stderr}"
    );
}
