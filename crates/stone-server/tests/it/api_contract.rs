//! Contract test: the server's answers validate against the component schemas of
//! `crates/stone-api/openapi.yaml` (parsed with serde_norway, validated with jsonschema),
//! made strict: a field the document does not list fails the test.

use serde_json::{Value, json};

use crate::api_support::{
    Answer, Dataset, File, Options, Site, client, manifest, noise, people_parquet,
    people_with_string_ids, turtle, upload_all,
};

pub(crate) struct Contract {
    components: Value,
    checked: Vec<String>,
}

impl Contract {
    pub(crate) fn load() -> Contract {
        let path = stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR"))
            .join("../stone-api/openapi.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        let document: Value = serde_norway::from_str(&text).expect("openapi.yaml parses");
        assert_eq!(document["openapi"], "3.1.0");
        // The server serves the same document.
        assert_eq!(text, stone_api::OPENAPI_YAML);
        let mut components = document["components"].clone();
        close(&mut components["schemas"]);
        Contract {
            components,
            checked: Vec::new(),
        }
    }

    pub(crate) fn check(&mut self, schema: &str, instance: &Value) {
        assert!(
            !self.components["schemas"][schema].is_null(),
            "no schema {schema}"
        );
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": self.components,
            "$ref": format!("#/components/schemas/{schema}"),
        });
        let validator = jsonschema::validator_for(&root).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{schema} does not match openapi.yaml: {errors:#?}\n{instance:#}"
        );
        self.checked.push(schema.to_owned());
    }

    pub(crate) fn answer(&mut self, answer: &Answer, status: u16, schema: &str) {
        assert_eq!(answer.status.as_u16(), status, "{:#}", answer.body);
        if schema == "Problem" {
            assert_eq!(answer.content_type, "application/problem+json");
            assert_eq!(answer.body["status"], status);
            assert_eq!(
                answer.body["type"],
                format!(
                    "urn:stone:problem:{}",
                    answer.body["code"].as_str().unwrap()
                )
            );
        } else {
            assert!(
                answer.content_type.starts_with("application/json"),
                "{}",
                answer.content_type
            );
        }
        self.check(schema, &answer.body);
    }
}

/// Closes every object schema with `unevaluatedProperties: false` unless it says
/// `additionalProperties` itself (problems take extra members).
fn close(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("unevaluatedProperties".into(), json!(false));
            }
            map.values_mut().for_each(close);
        }
        Value::Array(items) => items.iter_mut().for_each(close),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_matches_the_openapi_document() {
    let mut contract = Contract::load();
    let site = Site::with_config(
        "[staging]\npart_size = 1048576\n[local]\nroles = [\"protected-write\"]\n",
    );
    let server = site.start();

    contract.answer(&server.get("/v1/info").await, 200, "ServerInfo");
    let yaml = client()
        .get(server.url("/v1/openapi.yaml"))
        .send()
        .await
        .unwrap();
    assert_eq!(yaml.headers()["content-type"], "application/yaml");
    assert_eq!(yaml.text().await.unwrap(), stone_api::OPENAPI_YAML);

    let big = noise(3, 2_200_000);
    let (m, contents) = manifest(
        "demo",
        "dev",
        Options {
            manual: true,
            ..Options::default()
        },
        Some("1.0.0"),
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2]))],
            )
            .with_schema(json!({"fields": [{"name": "id", "type": "long", "required": true}]})),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(4))]),
            Dataset::new("big", "ARRAY", vec![File::new("a/b.bin", big)]),
        ],
    );
    contract.check("CreatePush", &m);
    let created = server.create_push(&m).await;
    contract.answer(&created, 201, "PushCreated");
    assert!(
        created.body["uploads"]
            .as_array()
            .unwrap()
            .iter()
            .any(|u| u["parts"].is_array())
    );
    let id = created.body["push_id"].as_str().unwrap().to_owned();
    contract.answer(
        &server.get(&format!("/v1/pushes/{id}")).await,
        200,
        "PushStatus",
    );
    contract.answer(&server.commit(&id).await, 409, "Problem");

    // A single upload answers UploadCompleted.
    let single = created.body["uploads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["url"].is_string())
        .unwrap();
    let response = client()
        .put(single["url"].as_str().unwrap())
        .body(contents[single["sha256"].as_str().unwrap()].clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: Value = response.json().await.unwrap();
    contract.check("UploadCompleted", &body);

    let mut again = m.clone();
    again["push_id"] = json!(id);
    let resumed = server.create_push(&again).await;
    contract.answer(&resumed, 200, "PushCreated");
    upload_all(&server, &resumed.body, &contents).await;
    let big_sha = crate::api_support::sha256_hex(&noise(3, 2_200_000));
    let completed = server
        .post_empty(&format!("/v1/pushes/{id}/uploads/{big_sha}/complete"))
        .await;
    contract.answer(&completed, 200, "UploadCompleted");
    contract.answer(&server.commit(&id).await, 202, "CommitAccepted");
    let status = server.wait(&id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    contract.check("PushStatus", &status);
    contract.answer(
        &server.get("/v1/namespaces/demo/package?branch=dev").await,
        200,
        "PackageNode",
    );
    for name in ["people", "vocab", "big"] {
        contract.answer(
            &server
                .get(&format!("/v1/namespaces/demo/datasets/{name}?branch=dev"))
                .await,
            200,
            "DatasetInfo",
        );
    }

    // A failed push, with a dataset error.
    let (m, c) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("p.parquet", people_parquet(&[1]))],
        )],
    );
    server.push(&m, &c).await;
    let (m, c) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("s.parquet", people_with_string_ids(&[1]))],
        )],
    );
    let created = server.create_push(&m).await;
    upload_all(&server, &created.body, &c).await;
    let failed_id = created.body["push_id"].as_str().unwrap();
    server.commit(failed_id).await.expect(202);
    let failed = server.wait(failed_id).await;
    assert_eq!(failed["state"], "failed");
    contract.check("PushStatus", &failed);
    contract.check("Problem", &failed["datasets"][0]["error"]);

    // Problems.
    let (m, _) = manifest(
        "demo",
        "main",
        Options {
            manual: true,
            ..Options::default()
        },
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("p.parquet", people_parquet(&[1]))],
        )],
    );
    contract.answer(&server.create_push(&m).await, 403, "Problem");
    let (m, _) = manifest(
        "demo",
        "main",
        Options::default(),
        None,
        &[Dataset::new(
            "people",
            "TABULAR",
            vec![File::new("p.parquet", people_parquet(&[9]))],
        )
        .with_schema(json!({"fields": [{"name": "id", "type": "string", "required": true}]}))],
    );
    let violations = server.create_push(&m).await;
    contract.answer(&violations, 409, "Problem");
    for violation in violations.body["violations"].as_array().unwrap() {
        contract.check("Violation", violation);
    }
    contract.answer(
        &server.post("/v1/pushes", &json!({"namespace": 1})).await,
        400,
        "Problem",
    );
    contract.answer(&server.get("/v1/pushes/unknown").await, 404, "Problem");
    contract.answer(
        &server.get("/v1/namespaces/demo/package?branch=nope").await,
        404,
        "Problem",
    );
    let expired = client()
        .put(server.url(&format!("/v1/staging/{big_sha}?size=1&expires=1&sig=00")))
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(expired.status().as_u16(), 403);
    let body: Value = expired.json().await.unwrap();
    contract.check("Problem", &body);

    let mut checked = contract.checked.clone();
    checked.sort();
    checked.dedup();
    assert_eq!(
        checked,
        vec![
            "CommitAccepted",
            "CreatePush",
            "DatasetInfo",
            "PackageNode",
            "Problem",
            "PushCreated",
            "PushStatus",
            "ServerInfo",
            "UploadCompleted",
            "Violation",
        ]
    );
}
