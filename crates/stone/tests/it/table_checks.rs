//! What a push refuses in a table before anything is hashed or sent (issue 53): headers
//! without a name of their own, a delimiter that disagrees with the file, Parquet columns
//! without a name of their own or of a type a table cannot hold and give back. Each is
//! refused against a real server whose staging stays empty.

use std::path::Path;

use serde_json::{Value, json};
use stone_test::TestContext;
use stone_test::services::StoneServer;
use stone_test::tools::{asset, python};

use crate::{stderr, stdout};

fn world() -> (TestContext, StoneServer, tempfile::TempDir) {
    crate::push_e2e::with_server_config("[guards]\nprotected_refs = []\n")
}

/// Every file the server holds in staging (none, when nothing was uploaded).
fn staged(data: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![data.join("staging")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                found.push(entry.path().display().to_string());
            }
        }
    }
    found
}

/// A refused push: its JSON error (exit 1, nothing staged on the server).
fn refused(ctx: &TestContext, data: &Path, dir: &Path) -> Value {
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--json", "--branch", "main",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert_eq!(staged(data), Vec::<String>::new(), "nothing is uploaded");
    report["error"].clone()
}

fn csv_package(ctx: &TestContext, name: &str, body: &[u8], dialect: &str) -> std::path::PathBuf {
    ctx.package(
        name,
        &format!(
            "name: {name}\npublish: {{to: \"stone:checks\"}}\nresources:\n  - path: table.csv\n{dialect}"
        ),
        &[("table.csv", body)],
    )
}

#[test]
fn headers_without_a_name_of_their_own_are_refused_naming_file_line_and_column() {
    let (ctx, _server, data) = world();
    for (n, (body, at, says)) in [
        (
            &b"name,age,age\nAda,36,37\n"[..],
            "line 1, column 10",
            "repeats the column name `age` of field 2",
        ),
        (
            b"\"x\",\"x\"\n1,2\n",
            "line 1, column 5",
            "repeats the column name `x` of field 1",
        ),
        (b"a,,b\n1,2,3\n", "line 1, column 3", "its name is empty"),
        (
            b"a,  ,b\n1,2,3\n",
            "line 1, column 3",
            "its name is only whitespace",
        ),
        (
            b"# a comment\nid,\n1,2\n",
            "line 2, column 4",
            "its name is empty",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = csv_package(
            &ctx,
            &format!("h{n}"),
            body,
            if n == 4 {
                "    dialect: {commentChar: \"#\"}\n"
            } else {
                ""
            },
        );
        let error = refused(&ctx, data.path(), &dir);
        let message =
            error["message"].as_str().unwrap_or_default().to_owned() + &error["causes"].to_string();
        assert_eq!(error["code"], "format.column_name", "{error}");
        assert!(
            message.contains("table.csv") && message.contains(at) && message.contains(says),
            "{n}: {error}"
        );
    }
}

#[test]
fn a_csv_whose_lines_split_on_another_delimiter_is_refused_with_the_fix() {
    let (ctx, server, data) = world();
    let body = b"city;code;population\nParis;075;2102650\nLyon;069;522250\n";
    let dir = csv_package(&ctx, "semicolons", body, "");
    let error = refused(&ctx, data.path(), &dir);
    assert_eq!(error["code"], "format.dialect", "{error}");
    let text = error.to_string();
    assert!(
        text.contains("splits on `;` into 3 fields") && text.contains("table.csv"),
        "{text}"
    );
    assert!(
        text.contains("dialect: {delimiter: \\\";\\\"}"),
        "the hint names the resource's dialect: {text}"
    );

    // Declared, it is read with it: three columns.
    let dir = csv_package(&ctx, "declared", body, "    dialect: {delimiter: \";\"}\n");
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--json", "--branch", "main",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let csv = stone_test::services::agent()
        .get(&format!(
            "{}/namespaces/checks/datasets/table/content?format=csv&branch=main",
            server.api()
        ))
        .call()
        .expect("GET the table")
        .body_mut()
        .read_to_string()
        .unwrap();
    assert_eq!(
        csv,
        "city,code,population\nParis,75,2102650\nLyon,69,522250\n"
    );

    // One column whose values hold a `;` on some lines only is one column.
    let dir = csv_package(&ctx, "one", b"note\na;b\nplain\n", "");
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--env",
            "local",
            "--branch",
            "main",
            "--dry-run",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A Parquet file written by pyarrow with `columns` (`write_table.py`'s spec).
fn parquet_package(ctx: &TestContext, name: &str, columns: Value) -> std::path::PathBuf {
    let dir = ctx.package(
        name,
        &format!(
            "name: {name}\npublish: {{to: \"stone:checks\"}}\nresources:\n  - path: table.parquet\n"
        ),
        &[],
    );
    let spec = dir.join("spec.json");
    std::fs::write(&spec, json!({ "columns": columns }).to_string()).unwrap();
    let out = std::process::Command::new(python())
        .arg(asset("write_table.py"))
        .arg(&spec)
        .arg(dir.join("table.parquet"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(&spec).unwrap();
    dir
}

#[test]
fn parquet_columns_without_a_name_of_their_own_are_refused() {
    let (ctx, _server, data) = world();
    let int = json!({"t": "int64"});
    for (n, columns, says) in [
        (
            0,
            json!([{"name": "a", "type": int, "values": [1]}, {"name": "a", "type": int, "values": [2]}]),
            "column 2 repeats the name `a` of column 1",
        ),
        (
            1,
            json!([{"name": "", "type": int, "values": [1]}]),
            "column 1 has no name: its name is empty",
        ),
        (
            2,
            json!([{"name": "s", "type": {"t": "struct", "fields": [
            {"name": "x", "type": int}, {"name": "x", "type": int}]}, "values": [{"x": 1}]}]),
            "field 2 of the struct column `s` repeats the name `x`",
        ),
    ] {
        let dir = parquet_package(&ctx, &format!("p{n}"), columns);
        let error = refused(&ctx, data.path(), &dir);
        assert_eq!(error["code"], "format.column_name", "{error}");
        assert!(error.to_string().contains(says), "{n}: {error}");
    }
}

/// Every Arrow type pyarrow writes that a table cannot hold and give back is refused on
/// the client, naming the column and the type, with what to write instead.
#[test]
fn types_a_table_cannot_hold_are_refused_naming_column_and_type() {
    let (ctx, _server, data) = world();
    let cases = [
        (json!({"t": "uint64"}), json!(1), "uint64", "int64"),
        (json!({"t": "float16"}), json!("1.5"), "float16", "float32"),
        (json!({"t": "date64"}), json!(3), "date64", "date32"),
        (
            json!({"t": "time32", "unit": "ms"}),
            json!(5),
            "time32[ms]",
            "time64[us]",
        ),
        (
            json!({"t": "time64", "unit": "ns"}),
            json!(5),
            "time64[ns]",
            "time64[us]",
        ),
        (
            json!({"t": "timestamp", "unit": "ms", "tz": null}),
            json!(5),
            "timestamp[ms]",
            "coerce_timestamps",
        ),
        (
            json!({"t": "timestamp", "unit": "ns", "tz": "UTC"}),
            json!(5),
            "timestamp[ns, tz=UTC]",
            "allow_truncated_timestamps",
        ),
        (
            json!({"t": "timestamp", "unit": "us", "tz": "Europe/Paris"}),
            json!(5),
            "timestamp[us, tz=Europe/Paris]",
            "UTC",
        ),
        (
            json!({"t": "decimal256", "precision": 40, "scale": 2}),
            json!("1.00"),
            "decimal256(40, 2)",
            "precision 1 to 38",
        ),
        (
            json!({"t": "null"}),
            Value::Null,
            "null",
            "give the column a type",
        ),
        (
            json!({"t": "list", "item": {"t": "uint64"}}),
            json!([1]),
            "list<uint64>",
            "int64",
        ),
        (
            json!({"t": "fixed_size_list", "size": 1, "item": {"t": "struct", "fields": [{"name": "a", "type": {"t": "int32"}}]}}),
            json!([{"a": 1}]),
            "fixed_size_list<struct<a: int32>>[1]",
            "write list<struct<…>> instead",
        ),
    ];
    for (n, (ty, value, named, fix)) in cases.into_iter().enumerate() {
        let dir = parquet_package(
            &ctx,
            &format!("t{n}"),
            json!([{"name": "id", "type": {"t": "int64"}, "values": [1]},
                   {"name": "odd", "type": ty, "values": [value]}]),
        );
        let error = refused(&ctx, data.path(), &dir);
        assert_eq!(error["code"], "format.unsupported_type", "{error}");
        let text = error.to_string();
        assert!(
            text.contains(&format!("the column `odd` is of type {named}")) && text.contains(fix),
            "{n}: {text}"
        );
    }
}

#[test]
fn a_declared_schema_without_names_of_its_own_is_refused() {
    let (ctx, _server, data) = world();
    let dir = ctx.package(
        "declared",
        "name: declared\npublish: {to: \"stone:checks\"}\nresources:\n  - path: t.csv\n    schema: {fields: [{name: a, type: integer}, {name: a, type: string}]}\n",
        &[("t.csv", b"a,b\n1,2\n")],
    );
    let error = refused(&ctx, data.path(), &dir);
    assert_eq!(error["code"], "package.invalid", "{error}");
    assert!(
        error
            .to_string()
            .contains("field 2 of `schema.fields` repeats the name `a` of field 1"),
        "{error}"
    );
}
