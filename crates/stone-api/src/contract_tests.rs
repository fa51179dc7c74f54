//! `openapi.yaml` describes exactly these types: the JSON of every type validates against
//! its component schema, made strict (no property the document does not list), and the
//! strict schemas reject what the types would refuse.

use serde_json::{Value, json};

/// The component schemas of `openapi.yaml`, each object schema closed with
/// `unevaluatedProperties: false` unless it says `additionalProperties` itself.
fn strict_components() -> Value {
    let document: Value = serde_norway::from_str(crate::OPENAPI_YAML).expect("openapi.yaml parses");
    assert_eq!(document["openapi"], json!("3.1.0"));
    let mut components = document["components"].clone();
    close_objects(&mut components["schemas"]);
    components
}

fn close_objects(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("unevaluatedProperties".into(), json!(false));
            }
            for item in map.values_mut() {
                close_objects(item);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

fn validator(components: &Value, name: &str) -> jsonschema::Validator {
    assert!(
        !components["schemas"][name].is_null(),
        "openapi.yaml has no schema {name}"
    );
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "components": components,
        "$ref": format!("#/components/schemas/{name}"),
    });
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("schema {name}: {e}"))
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn samples() -> Vec<(&'static str, Value)> {
    let mut all = crate::push::tests::samples();
    all.extend(crate::info::tests::samples());
    all.extend(crate::problem::tests::samples());
    all.extend(crate::read::tests::samples());
    all.extend(crate::event::tests::samples());
    all
}

#[test]
fn every_type_validates_against_its_schema() {
    let components = strict_components();
    for (name, instance) in samples() {
        let found = errors(&validator(&components, name), &instance);
        assert!(
            found.is_empty(),
            "{name} does not match openapi.yaml: {found:#?}\n{instance:#}"
        );
    }
}

#[test]
fn strict_schemas_reject_what_the_document_does_not_list() {
    let components = strict_components();
    for (name, mut instance) in samples() {
        if name == "Problem" {
            continue; // problems take extra members by design
        }
        instance["not_in_the_document"] = json!(1);
        assert!(
            !errors(&validator(&components, name), &instance).is_empty(),
            "{name}: an undocumented field went through"
        );
    }
    let push = validator(&components, "CreatePush");
    let (_, sample) = samples()
        .into_iter()
        .find(|(n, _)| *n == "CreatePush")
        .unwrap();
    let mut bad = sample.clone();
    bad["datasets"][0]["kind"] = json!("VECTOR");
    assert!(!errors(&push, &bad).is_empty(), "unknown kind accepted");
    let mut bad = sample.clone();
    bad["datasets"][0]["files"][0]["sha256"] = json!("ABC");
    assert!(!errors(&push, &bad).is_empty(), "bad digest accepted");
    let mut bad = sample;
    bad.as_object_mut().unwrap().remove("options");
    assert!(!errors(&push, &bad).is_empty(), "missing options accepted");
}

#[test]
fn an_upload_has_a_url_or_parts_not_both() {
    let components = strict_components();
    let upload = validator(&components, "Upload");
    let base = json!({"sha256": "a".repeat(64), "size": 1, "method": "PUT", "headers": {},
                      "expires_at": "2026-01-01T00:00:00Z"});
    let mut single = base.clone();
    single["url"] = json!("http://x");
    assert!(errors(&upload, &single).is_empty());
    assert!(!errors(&upload, &base).is_empty(), "neither url nor parts");
    let mut both = single.clone();
    both["parts"] = json!([{"number": 1, "offset": 0, "size": 1, "url": "u"},
                           {"number": 2, "offset": 1, "size": 1, "url": "v"}]);
    assert!(!errors(&upload, &both).is_empty(), "both url and parts");
}
