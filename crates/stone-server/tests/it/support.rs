//! Test support: a catalog and warehouse in a temporary directory, Parquet files written
//! like the client writes them (arrow-rs, zstd, no field ids), and pyiceberg as the
//! independent reader.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use serde_json::Value;
use stone_server::engines::iceberg::{
    AppendOptions, AppendOutcome, DEFAULT_CATALOG_NAME, IcebergEngine, IcebergError,
    IcebergSettings, StagedFile,
};
use tempfile::TempDir;

/// Namespace of every test table.
pub const NS: &str = "demo";

/// A catalog + warehouse of its own, and a staging directory.
pub struct Lake {
    _dir: TempDir,
    pub catalog_db: PathBuf,
    pub warehouse: PathBuf,
    pub staging: PathBuf,
    pub engine: IcebergEngine,
    staged: AtomicUsize,
}

impl Lake {
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().expect("temporary directory");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let catalog_db = root.join("catalog/catalog.db");
        let warehouse = root.join("warehouse");
        let staging = root.join("staging");
        std::fs::create_dir_all(&staging).expect("staging dir");
        let engine = IcebergEngine::open(IcebergSettings::local(&catalog_db, &warehouse))
            .await
            .expect("open the Iceberg engine");
        Self {
            _dir: dir,
            catalog_db,
            warehouse,
            staging,
            engine,
            staged: AtomicUsize::new(0),
        }
    }

    /// Writes `batch` as a staged Parquet file (zstd, no field ids) and returns it with
    /// its sha256.
    pub fn stage(&self, batch: &RecordBatch) -> StagedFile {
        self.stage_with_row_groups(batch, 1024 * 1024)
    }

    /// [`Self::stage`] with at most `rows_per_group` rows per row group.
    pub fn stage_with_row_groups(&self, batch: &RecordBatch, rows_per_group: usize) -> StagedFile {
        let index = self.staged.fetch_add(1, Ordering::SeqCst);
        let path = self.staging.join(format!("file-{index}.parquet"));
        write_parquet(&path, batch, rows_per_group);
        StagedFile {
            sha256: sha256_hex(&std::fs::read(&path).expect("read staged file")),
            path,
        }
    }

    pub async fn append(
        &self,
        table: &str,
        branch: &str,
        files: &[&StagedFile],
        options: &AppendOptions,
    ) -> Result<AppendOutcome, IcebergError> {
        let files: Vec<StagedFile> = files.iter().map(|file| (*file).clone()).collect();
        self.engine.append(NS, table, branch, &files, options).await
    }

    pub async fn append_ok(
        &self,
        table: &str,
        branch: &str,
        files: &[&StagedFile],
    ) -> AppendOutcome {
        self.append(table, branch, files, &AppendOptions::default())
            .await
            .unwrap_or_else(|error| panic!("append to {table}@{branch} failed: {error:?}"))
    }

    /// What pyiceberg sees of `demo.<table>` (`read_iceberg.py --detail` of stone-test).
    pub fn pyiceberg(&self, table: &str) -> Reading {
        self.read(table, None)
    }

    /// [`Self::pyiceberg`], plus a scan of every ref with a row filter.
    pub fn pyiceberg_filtered(&self, table: &str, filter: &str) -> Reading {
        self.read(table, Some(filter))
    }

    fn read(&self, table: &str, filter: Option<&str>) -> Reading {
        python();
        Reading(stone_test::tools::pyiceberg_detail(
            &self.catalog_db,
            &self.warehouse,
            DEFAULT_CATALOG_NAME,
            &format!("{NS}.{table}"),
            filter,
        ))
    }

    /// Files directly in `<table location>/data/`, by name.
    pub fn data_dir_files(&self, table: &str) -> Vec<String> {
        let mut names = Vec::new();
        for directory in table_directories(&self.warehouse, table) {
            let data = directory.join("data");
            if let Ok(entries) = std::fs::read_dir(&data) {
                for entry in entries {
                    names.push(entry.unwrap().file_name().to_string_lossy().into_owned());
                }
            }
        }
        names.sort();
        names
    }

    /// Metadata JSON files of a table (committed or not).
    pub fn metadata_files(&self, table: &str) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for directory in table_directories(&self.warehouse, table) {
            if let Ok(entries) = std::fs::read_dir(directory.join("metadata")) {
                for entry in entries {
                    let path = entry.unwrap().path();
                    if path.to_string_lossy().ends_with(".metadata.json") {
                        files.push(path);
                    }
                }
            }
        }
        files
    }
}

/// Engine settings for a warehouse in a fresh bucket of the shared SeaweedFS (prefix
/// `/wh/`, catalog in `dir`), and the bucket's name.
pub fn s3_warehouse_settings(dir: &Path) -> (IcebergSettings, String) {
    let seaweed = stone_test::services::SeaweedFs::shared();
    let bucket = format!("lake-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    seaweed.create_bucket(&bucket);
    let settings = IcebergSettings::local(dir.join("catalog.db"), dir.join("unused"))
        .with_s3_warehouse(stone_server::engines::blob::S3Settings {
            endpoint: Some(seaweed.endpoint().to_owned()),
            bucket: bucket.clone(),
            region: seaweed.region().to_owned(),
            access_key_id: seaweed.access_key().to_owned(),
            secret_access_key: seaweed.secret_key().to_owned(),
            prefix: "/wh/".into(),
            allow_http: true,
        });
    (settings, bucket)
}

/// Table directories `<warehouse>/demo/<table>-<id>`.
pub fn table_directories(warehouse: &Path, table: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(warehouse.join(NS)) else {
        return Vec::new();
    };
    entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_prefix(table))
                .is_some_and(|rest| rest.starts_with('-') && rest.len() == 33)
        })
        .collect()
}

/// pyiceberg's view of a table.
#[derive(Debug, Clone)]
pub struct Reading(pub Value);

impl Reading {
    pub fn exists(&self) -> bool {
        self.0["exists"].as_bool().unwrap()
    }

    pub fn snapshot_count(&self) -> u64 {
        self.0["snapshot_count"].as_u64().unwrap()
    }

    pub fn reference(&self, name: &str) -> &Value {
        let reference = &self.0["refs"][name];
        assert!(
            !reference.is_null(),
            "pyiceberg sees no ref {name:?}; refs: {}",
            self.0["refs"]
        );
        reference
    }

    pub fn ref_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.0["refs"]
            .as_object()
            .map(|refs| refs.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    pub fn snapshot_id(&self, name: &str) -> i64 {
        self.reference(name)["snapshot_id"].as_i64().unwrap()
    }

    pub fn parent_id(&self, name: &str) -> Option<i64> {
        self.reference(name)["parent_id"].as_i64()
    }

    pub fn ancestry(&self, name: &str) -> Vec<i64> {
        self.reference(name)["ancestry"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_i64().unwrap())
            .collect()
    }

    /// Rows of a ref, ordered by `id` where every row has one.
    pub fn rows(&self, name: &str) -> Vec<Value> {
        by_id(self.reference(name)["rows"].as_array().unwrap().clone())
    }

    /// Values of one column on a ref, sorted (nulls first).
    pub fn column(&self, name: &str, column: &str) -> Vec<Value> {
        let mut values: Vec<Value> = self
            .rows(name)
            .iter()
            .map(|row| row[column].clone())
            .collect();
        values.sort_by_key(|value| value.to_string());
        values
    }

    pub fn ids(&self, name: &str) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .rows(name)
            .iter()
            .map(|row| row["id"].as_i64().expect("integer id"))
            .collect();
        ids.sort_unstable();
        ids
    }

    /// `(name, type, required)` of a ref's snapshot schema.
    pub fn schema(&self, name: &str) -> Vec<(String, String, bool)> {
        fields(&self.reference(name)["schema"])
    }

    /// `name → field id` of a ref's snapshot schema.
    pub fn field_id(&self, name: &str, column: &str) -> i64 {
        self.reference(name)["schema"]
            .as_array()
            .unwrap()
            .iter()
            .find(|field| field["name"] == column)
            .unwrap_or_else(|| panic!("no column {column} on {name}"))["id"]
            .as_i64()
            .unwrap()
    }

    pub fn current_schema(&self) -> Vec<(String, String, bool)> {
        fields(&self.0["current_schema"])
    }

    pub fn current_rows(&self) -> Vec<Value> {
        by_id(self.0["current_rows"].as_array().unwrap().clone())
    }

    pub fn summary(&self, name: &str, key: &str) -> Option<String> {
        self.reference(name)["summary"][key]
            .as_str()
            .map(str::to_owned)
    }

    pub fn operation(&self, name: &str) -> String {
        self.reference(name)["operation"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub fn files(&self, name: &str) -> Vec<String> {
        self.reference(name)["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|file| file.as_str().unwrap().to_owned())
            .collect()
    }

    /// Metrics of the data files of a ref, as pyiceberg decodes them.
    pub fn file_stats(&self, name: &str) -> Vec<Value> {
        self.reference(name)["file_stats"]
            .as_array()
            .unwrap()
            .clone()
    }

    pub fn filtered_files(&self, name: &str) -> Vec<String> {
        self.reference(name)["filtered_files"]
            .as_array()
            .expect("read with a filter")
            .iter()
            .map(|file| file.as_str().unwrap().to_owned())
            .collect()
    }

    pub fn filtered_rows(&self, name: &str) -> Vec<Value> {
        by_id(
            self.reference(name)["filtered_rows"]
                .as_array()
                .expect("read with a filter")
                .clone(),
        )
    }

    pub fn ref_type(&self, name: &str) -> String {
        self.reference(name)["type"].as_str().unwrap().to_owned()
    }
}

fn by_id(mut rows: Vec<Value>) -> Vec<Value> {
    if rows.iter().all(|row| row["id"].is_i64()) {
        rows.sort_by_key(|row| row["id"].as_i64());
    }
    rows
}

fn fields(schema: &Value) -> Vec<(String, String, bool)> {
    schema
        .as_array()
        .unwrap()
        .iter()
        .map(|field| {
            (
                field["name"].as_str().unwrap().to_owned(),
                field["type"].as_str().unwrap().to_owned(),
                field["required"].as_bool().unwrap(),
            )
        })
        .collect()
}

pub fn col(name: &str, kind: &str, required: bool) -> (String, String, bool) {
    (name.to_owned(), kind.to_owned(), required)
}

/// A record batch from named columns; `required` columns are declared non-nullable.
pub fn batch(columns: Vec<(&str, ArrayRef, bool)>) -> RecordBatch {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, array, required)| Field::new(*name, array.data_type().clone(), !required))
        .collect();
    RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, array, _)| array).collect(),
    )
    .expect("valid record batch")
}

/// `id` (int64, required) and `name` (utf8, nullable).
pub fn people(ids: &[i64]) -> RecordBatch {
    use arrow_array::{Int64Array, StringArray};
    batch(vec![
        ("id", Arc::new(Int64Array::from(ids.to_vec())), true),
        (
            "name",
            Arc::new(StringArray::from(
                ids.iter()
                    .map(|id| format!("person-{id}"))
                    .collect::<Vec<_>>(),
            )),
            false,
        ),
    ])
}

pub fn write_parquet(path: &Path, batch: &RecordBatch, rows_per_group: usize) {
    let properties = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
        .set_max_row_group_row_count(Some(rows_per_group))
        .build();
    let file = std::fs::File::create(path).expect("create parquet file");
    let mut writer =
        ArrowWriter::try_new(file, batch.schema(), Some(properties)).expect("parquet writer");
    writer.write(batch).expect("write batch");
    writer.close().expect("close parquet writer");
}

pub use stone_package::digest::sha256_hex;

/// Tags the head of `branch` of `table` (`<ns>.<table>`) with the bare tag `tag`, through
/// pyiceberg (`tests/readers/tag_iceberg.py`): what a push of version `tag` wrote before
/// versions were per branch (a legacy tag).
pub fn legacy_tag(catalog_db: &Path, warehouse: &Path, table: &str, branch: &str, tag: &str) {
    let script = stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR"))
        .join("tests/readers/tag_iceberg.py");
    let output = Command::new(python())
        .arg(script)
        .arg("--catalog-db")
        .arg(catalog_db)
        .arg("--warehouse")
        .arg(warehouse)
        .arg("--catalog-name")
        .arg(DEFAULT_CATALOG_NAME)
        .args(["--table", table, "--branch", branch, "--tag", tag])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the pyiceberg tagger");
    assert!(
        output.status.success(),
        "pyiceberg tagger failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The tools venv's python, checked once: it must exist and have pyiceberg 0.12. Missing
/// tools fail the test; they never skip it.
pub fn python() -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let python = stone_test::tools::tools_dir().join("venv/bin/python");
            assert!(
                python.exists(),
                "{} does not exist: run scripts/install-tools (the Iceberg tests read every \
                 table back with pyiceberg 0.12 from the tools venv; STONE_TOOLS_DIR overrides \
                 its location)",
                python.display()
            );
            let probe = Command::new(&python)
                .args([
                    "-c",
                    "import pyiceberg, pyarrow, sqlalchemy; print(pyiceberg.__version__)",
                ])
                .output()
                .expect("run the tools python");
            let version = String::from_utf8_lossy(&probe.stdout).trim().to_owned();
            assert!(
                probe.status.success() && version.starts_with("0.12"),
                "pyiceberg[sql-sqlite,pyarrow] 0.12 is not usable from {} (found {version:?}): \
                 run scripts/install-tools\n{}",
                python.display(),
                String::from_utf8_lossy(&probe.stderr)
            );
            python
        })
        .clone()
}

// ---------------------------------------------------------------------------------------
// Hostile requests of issues 22 and 28, shared by `hostile_work`, `integrity` and
// `hostile_campaign`.

pub mod hostile {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    use serde_json::{Value, json};

    /// A SELECT whose solutions are the cross product of three `VALUES` lists of `n`
    /// numbers (n³ rows): no store access, each row made in memory (the query of issue 22).
    pub fn cross_product(n: usize) -> String {
        let list = |var: &str| {
            let values: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            format!("VALUES ?{var} {{ {} }}", values.join(" "))
        };
        format!(
            "SELECT * WHERE {{ {} {} {} }}",
            list("a"),
            list("b"),
            list("c")
        )
    }

    /// N-Triples of `n` blank nodes that all know each other (n·(n−1) triples): every node
    /// looks like every other, the worst case of canonical labelling.
    pub fn blank_node_clique(n: usize) -> Vec<u8> {
        let mut text = String::new();
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    text.push_str(&format!("_:n{i} <http://example.org/knows> _:n{j} .\n"));
                }
            }
        }
        text.into_bytes()
    }

    /// A manifest of `datasets` BLOB datasets in `namespace`, each one file of the declared
    /// `size` with a made-up sha256 (an amplification attempt: nothing is uploaded).
    pub fn blob_manifest(namespace: &str, datasets: usize, size: u64) -> Value {
        let datasets: Vec<Value> = (0..datasets)
            .map(|i| {
                json!({
                    "name": format!("d{i}"),
                    "kind": "BLOB",
                    "metadata": {},
                    "files": [{"path": "f.bin", "sha256": format!("{:064x}", i + 1), "size": size}],
                })
            })
            .collect();
        json!({
            "namespace": namespace,
            "branch": "dev",
            "options": {"yes": false, "force": false, "replace": false, "manual": false},
            "package": {"name": "p", "title": "P", "public": true},
            "datasets": datasets,
        })
    }

    /// Resident memory of a process, in bytes (Linux `/proc`): `VmRSS`, or the peak so far
    /// with `VmHWM`.
    pub fn memory_bytes(pid: u32, field: &str) -> u64 {
        stone_test::tools::process_memory(pid, field)
            .unwrap_or_else(|| panic!("{field} in /proc/{pid}/status"))
    }

    /// Opens a connection and sends the head of the PUT an `upload` of a created push asks
    /// for and the first `sent` bytes of `body` (of `body.len()` declared), then nothing.
    pub fn start_upload(upload: &Value, body: &[u8], sent: usize) -> TcpStream {
        let url = reqwest::Url::parse(upload["url"].as_str().unwrap()).unwrap();
        let mut request = format!(
            "PUT {}?{} HTTP/1.1\r\nHost: {}:{}\r\nContent-Length: {}\r\n",
            url.path(),
            url.query().unwrap_or_default(),
            url.host_str().unwrap(),
            url.port().unwrap(),
            body.len()
        );
        for (name, value) in upload["headers"].as_object().unwrap() {
            request.push_str(&format!("{name}: {}\r\n", value.as_str().unwrap()));
        }
        request.push_str("\r\n");
        let mut stream =
            TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        stream.write_all(&body[..sent]).unwrap();
        stream
    }

    /// [`start_upload`], then waits for what the server answers (read until it names
    /// `request.timeout` or closes; a minute of silence fails).
    pub fn stalled_upload(upload: &Value, body: &[u8], sent: usize) -> String {
        let mut stream = start_upload(upload, body, sent);
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    answer.extend_from_slice(&buffer[..n]);
                    if answer.windows(4).any(|w| w == b"\r\n\r\n")
                        && String::from_utf8_lossy(&answer).contains("request.timeout")
                    {
                        break;
                    }
                }
                Err(error) => panic!(
                    "no answer to a stalled upload within 60 s ({error}); got {:?}",
                    String::from_utf8_lossy(&answer)
                ),
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    }
}
