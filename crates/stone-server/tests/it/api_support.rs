//! Support of the push API tests: the real `stone-server` binary on port 0 in a temporary
//! data directory, a reqwest client that drives it as the client will, fixtures (Parquet
//! written with arrow-rs, Turtle, PNG and binary files), and the independent readers
//! (pyiceberg, pyoxigraph through `stone-test`'s `sparql.py`, the blob bytes on disk).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{Int64Array, RecordBatch, StringArray};
use reqwest::StatusCode;
use serde_json::{Value, json};
use stone_server::engines::iceberg::DEFAULT_CATALOG_NAME;
use tempfile::TempDir;

use crate::support::{Reading, python, write_parquet};

/// A running `stone-server`.
pub struct Server {
    pub base: String,
    pub data_dir: PathBuf,
    log: PathBuf,
    child: Option<Child>,
    _stdout: Option<std::process::ChildStdout>,
}

/// A test's directory: the data directory, the config file, the server's log.
pub struct Site {
    pub dir: TempDir,
    pub config: Option<PathBuf>,
}

impl Site {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temporary directory"),
            config: None,
        }
    }

    /// With a configuration file.
    pub fn with_config(text: &str) -> Self {
        let mut site = Self::new();
        let path = site.dir.path().join("stone-server.toml");
        std::fs::write(&path, text).unwrap();
        site.config = Some(path);
        site
    }

    pub fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Starts the server on this site.
    pub fn start(&self) -> Server {
        self.start_with_env(&[])
    }

    pub fn start_with_env(&self, env: &[(&str, &str)]) -> Server {
        Server::start(self, env)
    }
}

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_stone-server")
}

/// A command of this build's `stone-server`, with the environment a test must not pass on
/// cleared ([`stone_test::services::clean_env`]): every test starts the server this way.
pub fn server_command() -> Command {
    let mut command = Command::new(binary());
    stone_test::services::clean_env(&mut command);
    command
}

impl Server {
    fn start(site: &Site, env: &[(&str, &str)]) -> Server {
        let data_dir = site.data_dir();
        let log = site.dir.path().join(format!(
            "server-{}.log",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        let mut command = server_command();
        command
            .arg("--data-dir")
            .arg(&data_dir)
            .args(["--listen", "127.0.0.1:0", "--public-host", "data.test"])
            .env("STONE_SERVER_LOG", "info,stone_server=debug")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap());
        if let Some(config) = &site.config {
            command.arg("--config").arg(config);
        }
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("start stone-server");
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = sender.send(line);
            reader.into_inner()
        });
        let line = match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "stone-server printed nothing within 60 s:\n{}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
            }
        };
        let stdout = reader.join().ok();
        let base = line
            .trim()
            .strip_prefix("stone-server listening on ")
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!(
                    "unexpected first line {line:?} from stone-server:\n{}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .to_owned();
        assert!(
            base.starts_with("http://127.0.0.1:") && !base.ends_with(":0"),
            "the real port is printed: {base}"
        );
        Server {
            base,
            data_dir,
            log,
            child: Some(child),
            _stdout: stdout,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The process ID (while it runs).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("server running").id()
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the server's log holds `text`, for up to `seconds`; fails with the log.
    pub async fn wait_for_log(&self, text: &str, seconds: u64) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        while !self.log().contains(text) {
            assert!(
                std::time::Instant::now() < deadline,
                "the server's log has no {text:?} after {seconds} s: {}",
                self.log()
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// SIGKILL, as a crash.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, then waits for the exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("server running");
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!(
                    "stone-server did not stop within 30 s of SIGTERM:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("--- stone-server log ---\n{}", self.log());
        }
    }
}

/// The API client: plain reqwest, no token (local mode).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap()
}

/// An HTTP answer: status and JSON body (or the text as a JSON string).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub content_type: String,
    pub body: Value,
}

impl Answer {
    pub async fn of(response: reqwest::Response) -> Answer {
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            content_type,
            body,
        }
    }

    /// The problem code (panics if the answer is not a problem).
    pub fn code(&self) -> &str {
        assert_eq!(
            self.content_type, "application/problem+json",
            "not a problem: {self:?}"
        );
        self.body["code"].as_str().expect("a problem code")
    }

    pub fn expect(self, status: u16) -> Answer {
        assert_eq!(
            self.status.as_u16(),
            status,
            "unexpected answer: {:#}",
            self.body
        );
        self
    }
}

impl Server {
    pub async fn get(&self, path: &str) -> Answer {
        Answer::of(client().get(self.url(path)).send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        Answer::of(
            client()
                .post(self.url(path))
                .json(body)
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    pub async fn post_empty(&self, path: &str) -> Answer {
        Answer::of(client().post(self.url(path)).send().await.unwrap()).await
    }

    pub async fn create_push(&self, manifest: &Value) -> Answer {
        self.post("/v1/pushes", manifest).await
    }

    pub async fn commit(&self, push_id: &str) -> Answer {
        self.post_empty(&format!("/v1/pushes/{push_id}/commit"))
            .await
    }

    pub async fn status(&self, push_id: &str) -> Value {
        self.get(&format!("/v1/pushes/{push_id}"))
            .await
            .expect(200)
            .body
    }

    /// Polls until the push is succeeded or failed.
    pub async fn wait(&self, push_id: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let status = self.status(push_id).await;
            if matches!(status["state"].as_str(), Some("succeeded" | "failed")) {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "push {push_id} did not finish within 120 s: {status:#}\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Manifest → uploads → commit → poll; asserts the push succeeded and returns its status.
    pub async fn push(&self, manifest: &Value, contents: &Contents) -> Value {
        self.push_as(None, manifest, contents).await
    }

    /// [`Self::push`] with a bearer token on every API call (`oidc` mode); the uploads
    /// carry none, as the client's.
    pub async fn push_as(
        &self,
        token: Option<&str>,
        manifest: &Value,
        contents: &Contents,
    ) -> Value {
        let api = |request: reqwest::RequestBuilder| match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        let http = client();
        let created = Answer::of(
            api(http.post(self.url("/v1/pushes")).json(manifest))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert!(
            created.status == StatusCode::CREATED || created.status == StatusCode::OK,
            "{:#}",
            created.body
        );
        upload_all(self, &created.body, contents).await;
        let id = created.body["push_id"].as_str().unwrap().to_owned();
        let commit = api(http.post(self.url(&format!("/v1/pushes/{id}/commit"))));
        Answer::of(commit.send().await.unwrap()).await.expect(202);
        // A guard against a hang, not a speed check: a large graph's commit on a loaded
        // machine took more than 120 s.
        let deadline = Instant::now() + Duration::from_secs(600);
        let status = loop {
            let status = api(http.get(self.url(&format!("/v1/pushes/{id}"))));
            let status = Answer::of(status.send().await.unwrap())
                .await
                .expect(200)
                .body;
            if matches!(status["state"].as_str(), Some("succeeded" | "failed")) {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "push {id} did not finish within 600 s: {status:#}\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(status["state"], "succeeded", "{status:#}\n{}", self.log());
        status
    }
}

/// Bytes by sha256.
pub type Contents = HashMap<String, Vec<u8>>;

/// A file of a manifest, with its bytes.
#[derive(Debug, Clone)]
pub struct File {
    pub path: String,
    pub bytes: Vec<u8>,
}

impl File {
    pub fn new(path: &str, bytes: Vec<u8>) -> File {
        File {
            path: path.to_owned(),
            bytes,
        }
    }

    pub fn sha256(&self) -> String {
        sha256_hex(&self.bytes)
    }

    pub fn manifest(&self) -> Value {
        json!({"path": self.path, "sha256": self.sha256(), "size": self.bytes.len()})
    }
}

pub use stone_package::digest::sha256_hex;

/// A dataset of a manifest.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub name: String,
    pub kind: &'static str,
    pub files: Vec<File>,
    pub schema: Option<Value>,
}

impl Dataset {
    pub fn new(name: &str, kind: &'static str, files: Vec<File>) -> Dataset {
        Dataset {
            name: name.to_owned(),
            kind,
            files,
            schema: None,
        }
    }

    pub fn with_schema(mut self, schema: Value) -> Dataset {
        self.schema = Some(schema);
        self
    }
}

/// Push options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub yes: bool,
    pub force: bool,
    pub replace: bool,
    pub manual: bool,
}

/// A manifest and the contents it names.
pub fn manifest(
    namespace: &str,
    branch: &str,
    options: Options,
    version: Option<&str>,
    datasets: &[Dataset],
) -> (Value, Contents) {
    let mut contents = Contents::new();
    let datasets: Vec<Value> = datasets
        .iter()
        .map(|d| {
            for file in &d.files {
                contents.insert(file.sha256(), file.bytes.clone());
            }
            let mut value = json!({
                "name": d.name,
                "kind": d.kind,
                "metadata": {"title": format!("The {} dataset", d.name)},
                "files": d.files.iter().map(File::manifest).collect::<Vec<_>>(),
            });
            if let Some(schema) = &d.schema {
                value["schema"] = schema.clone();
            }
            value
        })
        .collect();
    let mut package = json!({
        "name": "test-package",
        "title": "A test package",
        "public": true,
        "dialect": {"delimiter": ",", "quoting": "minimal"},
        "metadata": {"keywords": ["test"]},
    });
    if let Some(version) = version {
        package["version"] = json!(version);
    }
    (
        json!({
            "namespace": namespace,
            "branch": branch,
            "options": {
                "yes": options.yes,
                "force": options.force,
                "replace": options.replace,
                "manual": options.manual,
            },
            "package": package,
            "datasets": datasets,
        }),
        contents,
    )
}

/// Sends one batch of `files` (manifest file records) of the dataset `dataset` to the paged
/// push `id`, then uploads what its answer asks for.
pub async fn send_batch(
    server: &Server,
    id: &str,
    dataset: &str,
    files: Vec<Value>,
    contents: &Contents,
) {
    let mut answer = Answer::of(
        client()
            .post(server.url(&format!("/v1/pushes/{id}/files")))
            .json(&json!({"datasets": [{"name": dataset, "files": files}]}))
            .send()
            .await
            .unwrap(),
    )
    .await
    .expect(200)
    .body;
    answer["push_id"] = json!(id);
    upload_all(server, &answer, contents).await;
}

/// Uploads everything a `PushCreated` asks for, as the client does: a plain HTTP client
/// without credentials, the given headers, parts in parallel.
pub async fn upload_all(server: &Server, created: &Value, contents: &Contents) {
    let http = client();
    let mut tasks = Vec::new();
    for upload in created["uploads"].as_array().unwrap() {
        let sha256 = upload["sha256"].as_str().unwrap().to_owned();
        let bytes = Arc::new(
            contents
                .get(&sha256)
                .unwrap_or_else(|| panic!("no bytes for {sha256}"))
                .clone(),
        );
        let headers: BTreeMap<String, String> =
            serde_json::from_value(upload["headers"].clone()).unwrap();
        assert_eq!(upload["method"], "PUT");
        match upload["parts"].as_array() {
            Some(parts) => {
                for part in parts {
                    let (offset, size) = (
                        part["offset"].as_u64().unwrap() as usize,
                        part["size"].as_u64().unwrap() as usize,
                    );
                    let url = part["url"].as_str().unwrap().to_owned();
                    let body = bytes[offset..offset + size].to_vec();
                    tasks.push(tokio::spawn(put(http.clone(), url, headers.clone(), body)));
                }
            }
            None => {
                let url = upload["url"].as_str().unwrap().to_owned();
                tasks.push(tokio::spawn(put(
                    http.clone(),
                    url,
                    headers.clone(),
                    bytes.to_vec(),
                )));
            }
        }
    }
    for task in tasks {
        let (status, text) = task.await.unwrap();
        assert!(status.is_success(), "upload failed: HTTP {status}: {text}");
    }
    // Multipart uploads are completed by the client.
    let id = created["push_id"].as_str().unwrap();
    for upload in created["uploads"].as_array().unwrap() {
        if upload["parts"].is_array() {
            let url = server.url(&format!(
                "/v1/pushes/{id}/uploads/{}/complete",
                upload["sha256"].as_str().unwrap()
            ));
            let response = http.post(url).send().await.unwrap();
            assert!(
                response.status().is_success(),
                "completion failed: {}",
                response.text().await.unwrap()
            );
        }
    }
}

/// PUTs the bytes of one part of a multipart upload (`parts[i]` of an answer: its `url`,
/// `offset` and `size`) out of the whole content `bytes`.
pub async fn put_part(part: &serde_json::Value, bytes: &[u8]) -> (StatusCode, String) {
    let (offset, size) = (
        part["offset"].as_u64().unwrap() as usize,
        part["size"].as_u64().unwrap() as usize,
    );
    put(
        client(),
        part["url"].as_str().unwrap().to_owned(),
        BTreeMap::new(),
        bytes[offset..offset + size].to_vec(),
    )
    .await
}

/// One PUT without credentials.
pub async fn put(
    http: reqwest::Client,
    url: String,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
) -> (StatusCode, String) {
    let mut request = http.put(&url).body(body);
    for (name, value) in &headers {
        request = request.header(name, value);
    }
    let request = request.build().unwrap();
    assert!(
        request.headers().get("authorization").is_none(),
        "an upload must not carry credentials"
    );
    let response = http.execute(request).await.unwrap();
    let status = response.status();
    (status, response.text().await.unwrap_or_default())
}

// ---------------------------------------------------------------------------------------
// Fixtures

/// A Parquet file of `id` (int64, required) and `name` (utf8), as the client writes it.
pub fn people_parquet(ids: &[i64]) -> Vec<u8> {
    let batch = crate::support::people(ids);
    parquet_bytes(&batch)
}

/// `people` with one more (optional, utf8) column named `column`.
pub fn people_with_column(ids: &[i64], column: &str) -> Vec<u8> {
    let people = crate::support::people(ids);
    let extra = StringArray::from(ids.iter().map(|i| format!("extra-{i}")).collect::<Vec<_>>());
    let batch = crate::support::batch(vec![
        ("id", people.column(0).clone(), true),
        ("name", people.column(1).clone(), false),
        (column, Arc::new(extra) as _, false),
    ]);
    parquet_bytes(&batch)
}

/// A Parquet file where `id` is a string: incompatible with `people`.
pub fn people_with_string_ids(ids: &[i64]) -> Vec<u8> {
    let batch = crate::support::batch(vec![
        (
            "id",
            Arc::new(StringArray::from(
                ids.iter().map(|i| format!("id-{i}")).collect::<Vec<_>>(),
            )) as _,
            true,
        ),
        (
            "name",
            Arc::new(StringArray::from(
                ids.iter()
                    .map(|i| format!("person-{i}"))
                    .collect::<Vec<_>>(),
            )) as _,
            false,
        ),
    ]);
    parquet_bytes(&batch)
}

/// Rows `first..first+count` with an int64 id.
pub fn numbers_parquet(first: i64, count: i64) -> Vec<u8> {
    let ids: Vec<i64> = (first..first + count).collect();
    let batch = crate::support::batch(vec![("id", Arc::new(Int64Array::from(ids)) as _, true)]);
    parquet_bytes(&batch)
}

fn parquet_bytes(batch: &RecordBatch) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.parquet");
    write_parquet(&path, batch, 1024 * 1024);
    std::fs::read(path).unwrap()
}

/// A Turtle file with `count` triples (two per subject).
pub fn turtle(count: usize) -> Vec<u8> {
    assert_eq!(count % 2, 0, "two triples per subject");
    let mut text = String::from("@prefix ex: <http://example.org/> .\n");
    for i in 0..count / 2 {
        text.push_str(&format!("ex:s{i} ex:label \"item {i}\" ; ex:rank {i} .\n"));
    }
    text.into_bytes()
}

/// A small valid PNG (1×1, gray).
pub fn png() -> Vec<u8> {
    hex::decode(
        "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b55\
         0000000a49444154789c6360000000020001e221bc330000000049454e44ae426082",
    )
    .unwrap()
}

/// Deterministic pseudo-random bytes.
pub fn noise(seed: u64, size: usize) -> Vec<u8> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..size)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u8
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Independent readers

/// pyiceberg's view of `<ns>.<table>` in the server's catalog.
pub fn pyiceberg(server_data: &Path, namespace: &str, table: &str) -> Reading {
    python();
    Reading(stone_test::tools::pyiceberg_detail(
        &server_data.join("iceberg/catalog.db"),
        &server_data.join("iceberg/warehouse"),
        DEFAULT_CATALOG_NAME,
        &format!("{namespace}.{table}"),
        None,
    ))
}

/// [`crate::support::legacy_tag`] in the server's catalog.
pub fn legacy_tag(server_data: &Path, namespace: &str, table: &str, branch: &str, tag: &str) {
    crate::support::legacy_tag(
        &server_data.join("iceberg/catalog.db"),
        &server_data.join("iceberg/warehouse"),
        &format!("{namespace}.{table}"),
        branch,
        tag,
    );
}

/// Number of triples in a named graph of the embedded store, read from the server's
/// RocksDB store (`graph/store`) by pyoxigraph opening it read-only (not through the
/// server).
pub fn graph_count_on_disk(server_data: &Path, graph: &str) -> u64 {
    let store = server_data.join("graph/store");
    if !store.exists() {
        return 0;
    }
    let query = format!("SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}");
    let result = stone_test::tools::run_python_json(
        "sparql.py",
        &["--store", store.to_str().unwrap(), "--query", &query],
    );
    sparql_count(&result)
}

/// The `?n` of a one-row SPARQL JSON result.
pub fn sparql_count(result: &Value) -> u64 {
    result["results"]["bindings"][0]["n"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("no count in {result}"))
        .parse()
        .unwrap()
}

/// The blob head and object files of a dataset in the local blob store.
pub fn blob_files(
    server_data: &Path,
    namespace: &str,
    name: &str,
    branch: &str,
) -> (Value, BTreeMap<String, Vec<u8>>) {
    let root = server_data
        .join("blobs")
        .join(namespace)
        .join(name)
        .join(branch);
    let head: Value = serde_json::from_slice(
        &std::fs::read(root.join("head.json"))
            .unwrap_or_else(|e| panic!("{}/head.json: {e}", root.display())),
    )
    .unwrap();
    let mut objects = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(root.join("objects")) {
        for entry in entries {
            let path = entry.unwrap().path();
            objects.insert(
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    (head, objects)
}

/// Files in the local staging store's `contents/`.
pub fn staged_contents(server_data: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(server_data.join("staging/contents"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `datasets[*].status` by name.
pub fn statuses(status: &Value) -> BTreeMap<String, String> {
    status["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap().to_owned(),
                d["status"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect()
}

/// The dataset entry named `name`.
pub fn dataset<'a>(status: &'a Value, name: &str) -> &'a Value {
    status["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == name)
        .unwrap_or_else(|| panic!("no dataset {name} in {status:#}"))
}
