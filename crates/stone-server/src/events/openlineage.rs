//! What an OpenLineage target receives (issue 58): one `RunEvent` per push outcome, as
//! Marquez, Airflow, Dagster and dbt exchange them (OpenLineage 2-0-2).
//!
//! - the **run** is the push: `runId` the push's ID (a UUIDv7, as OpenLineage advises for
//!   run IDs), `eventType` `COMPLETE` for `push.committed`, `FAIL` for `push.failed` (with
//!   an `errorMessage` run facet);
//! - the **job** is the package: namespace `stone://<public_host>`, name
//!   `<namespace>.<package name>` (the namespace alone when the package has no name);
//! - the **outputs** are the datasets the push changed (every dataset with an event of the
//!   push), namespace `stone://<public_host>`, name `<namespace>/<dataset>`, with facets:
//!   `schema` (a table's columns and Iceberg types, as the push's manifest declared them),
//!   `version` (the Iceberg snapshot the write produced, else the version named),
//!   `lifecycleStateChange` (`CREATE`, `OVERWRITE` for a replace, `DROP` for a deletion),
//!   and the output facet `outputStatistics` (rows or triples added, files and bytes).
//!
//! Every facet carries `_producer` (this server) and `_schemaURL` (its OpenLineage schema),
//! as the specification requires.

use serde_json::{Map, Value, json};
use stone_api::{CreatePush, Event, EventType};

/// The media type of an OpenLineage event over HTTP.
pub const CONTENT_TYPE: &str = "application/json";

/// The OpenLineage specification version these events follow.
const SPEC: &str = "https://openlineage.io/spec/2-0-2/OpenLineage.json";

/// `producer` and every facet's `_producer`: this server, by version (a URI under the
/// workspace's `repository`).
pub fn producer() -> String {
    format!(
        "{}/tree/v{}/crates/stone-server",
        env!("CARGO_PKG_REPOSITORY"),
        env!("CARGO_PKG_VERSION")
    )
}

/// The OpenLineage namespace of a server's jobs and datasets: `stone://<public_host>`.
pub fn namespace_of(public_host: &str) -> String {
    format!("stone://{public_host}")
}

/// The run ID of a push: its ID when it is a UUID (the server's are v7), else a UUID made
/// from the SHA-256 of it (the same push, the same run).
pub fn run_id(push_id: &str) -> String {
    if let Ok(id) = uuid::Uuid::parse_str(push_id) {
        return id.hyphenated().to_string();
    }
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(push_id.as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .hyphenated()
        .to_string()
}

fn facet(schema: &str, mut fields: Map<String, Value>) -> Value {
    fields.insert("_producer".into(), producer().into());
    fields.insert("_schemaURL".into(), schema.into());
    Value::Object(fields)
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The `RunEvent` of a push's outcome (`push.committed` or `push.failed`) as JSON text.
/// `datasets` are the push's dataset events (any order; others are ignored); `manifest` its
/// manifest when the server still has it (the tables' schemas come from it).
pub fn run_event(
    public_host: &str,
    push: &Event,
    datasets: &[Event],
    manifest: Option<&CreatePush>,
) -> String {
    let namespace = namespace_of(public_host);
    let package = manifest
        .and_then(|m| m.package.name.as_deref())
        .unwrap_or(&push.namespace);
    let failed = push.event_type == EventType::PushFailed;
    let mut run_facets = Map::new();
    run_facets.insert(
        "processing_engine".into(),
        facet(
            "https://openlineage.io/spec/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet",
            object(json!({
                "name": "stone-server",
                "version": env!("CARGO_PKG_VERSION"),
                "openlineageAdapterVersion": env!("CARGO_PKG_VERSION"),
            })),
        ),
    );
    if failed {
        let message = push
            .error
            .as_ref()
            .map(|p| match &p.detail {
                Some(detail) => format!("{}: {detail}", p.code),
                None => format!("{}: {}", p.code, p.title),
            })
            .unwrap_or_else(|| "a dataset of the push failed".into());
        run_facets.insert(
            "errorMessage".into(),
            facet(
                "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet",
                object(json!({"message": message, "programmingLanguage": "RUST"})),
            ),
        );
    }
    let job_facets = json!({
        "jobType": facet(
            "https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet",
            object(json!({"processingType": "BATCH", "integration": "STONE", "jobType": "PUSH"})),
        ),
    });
    let event = json!({
        "eventType": if failed { "FAIL" } else { "COMPLETE" },
        "eventTime": push.time,
        "producer": producer(),
        "schemaURL": format!("{SPEC}#/$defs/RunEvent"),
        "run": {"runId": run_id(&push.push_id), "facets": run_facets},
        "job": {
            "namespace": namespace,
            "name": format!("{}.{package}", push.namespace),
            "facets": job_facets,
        },
        "inputs": [],
        "outputs": outputs(&namespace, push, datasets, manifest),
    });
    event.to_string()
}

/// One output per dataset of the push, in the order of its first event.
fn outputs(
    namespace: &str,
    push: &Event,
    datasets: &[Event],
    manifest: Option<&CreatePush>,
) -> Vec<Value> {
    let mut events: Vec<&Event> = datasets
        .iter()
        .filter(|e| e.push_id == push.push_id && e.dataset.is_some() && e.event_type.is_dataset())
        .collect();
    events.sort_by_key(|e| e.cursor);
    let mut names: Vec<&str> = Vec::new();
    for event in &events {
        let name = event.dataset.as_deref().unwrap_or_default();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let of: Vec<&&Event> = events
                .iter()
                .filter(|e| e.dataset.as_deref() == Some(name))
                .collect();
            output(namespace, push, name, &of, manifest)
        })
        .collect()
}

fn output(
    namespace: &str,
    push: &Event,
    name: &str,
    events: &[&&Event],
    manifest: Option<&CreatePush>,
) -> Value {
    let mut facets = Map::new();
    let schema = manifest
        .and_then(|m| m.datasets.iter().find(|d| d.name == name))
        .and_then(|d| d.schema.as_ref());
    let lifecycle = events.iter().find_map(|e| match e.event_type {
        EventType::DatasetCreated => Some("CREATE"),
        EventType::DatasetReplaced => Some("OVERWRITE"),
        EventType::DatasetDeleted => Some("DROP"),
        _ => None,
    });
    if let Some(schema) = schema
        && lifecycle != Some("DROP")
    {
        let fields: Vec<Value> = schema
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| json!({"name": f.name, "type": f.field_type, "ordinal_position": i + 1}))
            .collect();
        facets.insert(
            "schema".into(),
            facet(
                "https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet",
                object(json!({ "fields": fields })),
            ),
        );
    }
    let details: Vec<&stone_api::DatasetDetail> =
        events.iter().filter_map(|e| e.detail.as_ref()).collect();
    let version = details
        .iter()
        .find_map(|d| d.snapshot_id.map(|s| s.to_string()))
        .or_else(|| details.iter().find_map(|d| d.tag.clone()));
    if let Some(version) = version {
        facets.insert(
            "version".into(),
            facet(
                "https://openlineage.io/spec/facets/1-0-1/DatasetVersionDatasetFacet.json#/$defs/DatasetVersionDatasetFacet",
                object(json!({ "datasetVersion": version })),
            ),
        );
    }
    if let Some(change) = lifecycle {
        facets.insert(
            "lifecycleStateChange".into(),
            facet(
                "https://openlineage.io/spec/facets/1-0-1/LifecycleStateChangeDatasetFacet.json#/$defs/LifecycleStateChangeDatasetFacet",
                object(json!({ "lifecycleStateChange": change })),
            ),
        );
    }
    let mut output_facets = Map::new();
    let rows = details
        .iter()
        .find_map(|d| d.rows_added.or(d.triples_added));
    let mut statistics = Map::new();
    if let Some(rows) = rows {
        statistics.insert("rowCount".into(), rows.into());
    }
    if let Some(bytes) = details.iter().find_map(|d| d.bytes) {
        statistics.insert("size".into(), bytes.into());
    }
    if let Some(files) = details.iter().find_map(|d| d.files) {
        statistics.insert("fileCount".into(), files.into());
    }
    if !statistics.is_empty() {
        output_facets.insert(
            "outputStatistics".into(),
            facet(
                "https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet",
                statistics,
            ),
        );
    }
    json!({
        "namespace": namespace,
        "name": format!("{}/{name}", push.namespace),
        "facets": facets,
        "outputFacets": output_facets,
    })
}
