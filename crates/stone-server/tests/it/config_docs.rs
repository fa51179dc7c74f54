//! Every key of the configuration file is documented (issue 23, part 6): the keys the
//! server accepts are read from the server itself, not from a list kept by hand. Every
//! table of the file refuses unknown keys (`deny_unknown_fields`), and serde's refusal names
//! the keys it expected: probing each table with an unknown key lists its keys, and the
//! same probe one level down tells a nested table (it refuses the key) from a value. Each key
//! must then appear, under its table's header, in a TOML block of docs/server.md.

use std::collections::{BTreeMap, BTreeSet};

use stone_server::config::ConfigFile;

const PROBE: &str = "unknown_key_probe";

/// The TOML text that puts `line` into table `table` (`""`: the top level).
fn in_table(table: &str, line: &str) -> String {
    if table.is_empty() {
        format!("{line}\n")
    } else {
        format!("[{table}]\n{line}\n")
    }
}

fn refusal(text: &str) -> String {
    match toml_edit::de::from_str::<ConfigFile>(text) {
        Ok(_) => panic!("the server accepted a probe:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// The backticked names after "expected" in serde's unknown-field message.
fn expected_keys(message: &str) -> Vec<String> {
    let Some((_, expected)) = message.split_once("expected") else {
        return Vec::new();
    };
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every `(table, key)` the server accepts, found by probing.
fn accepted_keys() -> BTreeSet<(String, String)> {
    let mut keys = BTreeSet::new();
    let mut tables = vec![String::new()];
    while let Some(table) = tables.pop() {
        let message = refusal(&in_table(&table, &format!("{PROBE} = 1")));
        assert!(
            message.contains(&format!("unknown field `{PROBE}`")),
            "[{table}] refuses unknown keys: {message}"
        );
        let fields = expected_keys(&message);
        assert!(!fields.is_empty(), "[{table}] names its keys: {message}");
        for field in fields {
            let nested = if table.is_empty() {
                field.clone()
            } else {
                format!("{table}.{field}")
            };
            // A table of its own refuses the probe key as unknown; a value refuses a table.
            let probe =
                toml_edit::de::from_str::<ConfigFile>(&in_table(&nested, &format!("{PROBE} = 1")))
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
            if probe.contains(&format!("unknown field `{PROBE}`")) {
                tables.push(nested);
            }
            keys.insert((table.clone(), field));
        }
    }
    keys
}

/// `(table, key)` pairs of the TOML blocks of `markdown`, commented-out lines included
/// (`# [auth.step_up]`, `# issuer = …` document optional keys); a header `[a.b]` counts as
/// key `b` of table `a`.
fn documented_keys(markdown: &str) -> BTreeSet<(String, String)> {
    let mut keys = BTreeSet::new();
    let mut in_block = false;
    let mut table = String::new();
    for line in markdown.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_block = !in_block && trimmed == "```toml";
            table.clear();
            continue;
        }
        if !in_block {
            continue;
        }
        let code = trimmed.trim_start_matches('#').trim();
        if let Some(header) = code.strip_prefix('[') {
            let name = header.trim_start_matches('[');
            if let Some(end) = name.find(']') {
                table = name[..end].to_owned();
                // A table's header documents it as a key of its parent.
                let (parent, key) = table.rsplit_once('.').unwrap_or(("", &table));
                keys.insert((parent.to_owned(), key.to_owned()));
                continue;
            }
        }
        if let Some((key, _)) = code.split_once('=') {
            let key = key.trim().trim_matches('"');
            if !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                keys.insert((table.clone(), key.to_owned()));
            }
        }
    }
    keys
}

/// Tables documented by reference to another of the same shape (docs/server.md says so).
const SAME_AS: &[(&str, &str)] = &[("blob.s3", "staging.s3")];

#[test]
fn every_configuration_key_is_documented_in_docs_server_md() {
    let accepted = accepted_keys();
    let tables: BTreeSet<&str> = accepted.iter().map(|(t, _)| t.as_str()).collect();
    for table in ["", "auth", "staging", "staging.s3", "limits", "gc"] {
        assert!(
            tables.contains(table),
            "probing found [{table}]: {tables:?}"
        );
    }
    let docs = std::fs::read_to_string(stone_test::tools::workspace_root().join("docs/server.md"))
        .unwrap();
    let documented = documented_keys(&docs);
    let mut missing: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (table, key) in &accepted {
        let shown_as = SAME_AS
            .iter()
            .find(|(t, _)| t == table)
            .map_or(table.as_str(), |(_, like)| *like);
        if !documented.contains(&(shown_as.to_owned(), key.clone())) {
            missing
                .entry(format!("[{table}]"))
                .or_default()
                .push(key.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "keys the server accepts that no TOML block of docs/server.md shows under their \
         table (add them, with their defaults): {missing:#?}"
    );
}

#[test]
fn the_probe_finds_the_keys_of_a_table() {
    let keys = accepted_keys();
    assert!(
        keys.contains(&("gc".into(), "interval_seconds".into())),
        "{keys:?}"
    );
    assert!(
        keys.contains(&(String::new(), "public_host".into())),
        "{keys:?}"
    );
    let docs = documented_keys(
        "```toml\npublic_host = \"x\"\n[gc]\n# interval_seconds = 1\n```\n[gc]\nnot_toml = 1\n",
    );
    assert_eq!(
        docs,
        BTreeSet::from([
            (String::new(), "public_host".to_owned()),
            (String::new(), "gc".to_owned()),
            ("gc".to_owned(), "interval_seconds".to_owned())
        ])
    );
}

/// Issue 52, hole 6: every protected ref pattern the documentation shows is used as
/// written (a pattern the server would have to change is refused at start).
#[test]
fn every_documented_protected_ref_pattern_is_a_fixed_point() {
    let root = stone_test::tools::workspace_root();
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut seen = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            let Some((_, list)) = line.split_once("protected_refs = [") else {
                continue;
            };
            let list = list.split(']').next().unwrap_or_default();
            for pattern in list.split('"').skip(1).step_by(2) {
                seen += 1;
                assert_eq!(
                    stone_package::branch::check_ref_pattern(pattern),
                    Ok(()),
                    "{}: the documented pattern {pattern:?} would be refused",
                    file.display()
                );
            }
        }
    }
    assert!(seen >= 2, "the documented patterns were found");
}
