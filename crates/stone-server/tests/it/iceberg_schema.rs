//! Schema evolution: compatible changes applied, incompatible ones refused or forced.

use std::sync::Arc;

use arrow_array::{
    Array, Decimal128Array, Float32Array, Float64Array, Int32Array, Int64Array, StringArray,
};
use serde_json::{Value, json};
use stone_server::engines::iceberg::{
    AppendOptions, AppendStatus, IcebergError, IncompatibleChange, SchemaChange,
};

use crate::support::{Lake, batch, col, people};

fn force() -> AppendOptions {
    AppendOptions {
        force: true,
        ..AppendOptions::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_column_is_added_as_optional() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1, 2]))])
        .await;
    let wider = lake.stage(&batch(vec![
        ("id", Arc::new(Int64Array::from(vec![3])), true),
        ("name", Arc::new(StringArray::from(vec!["person-3"])), false),
        ("score", Arc::new(Float64Array::from(vec![0.5])), true),
    ]));

    let outcome = lake.append_ok("people", "main", &[&wider]).await;
    assert_eq!(
        outcome.schema_changes,
        vec![SchemaChange::ColumnAdded {
            column: "score".to_owned(),
            data_type: "double".to_owned(),
        }]
    );

    let read = lake.pyiceberg("people");
    // Required in the file, optional in the table: the older files have no value.
    assert_eq!(
        read.schema("main"),
        vec![
            col("id", "long", true),
            col("name", "string", false),
            col("score", "double", false),
        ]
    );
    assert_eq!(read.current_schema(), read.schema("main"));
    assert_eq!(
        read.rows("main"),
        vec![
            json!({"id": 1, "name": "person-1", "score": null}),
            json!({"id": 2, "name": "person-2", "score": null}),
            json!({"id": 3, "name": "person-3", "score": 0.5}),
        ]
    );
    assert_eq!(read.field_id("main", "score"), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn int_widens_to_long_and_float_to_double() {
    let lake = Lake::new().await;
    let narrow = lake.stage(&batch(vec![
        ("n", Arc::new(Int32Array::from(vec![1, 2])), false),
        ("x", Arc::new(Float32Array::from(vec![0.5, 1.5])), false),
    ]));
    let wide = lake.stage(&batch(vec![
        ("n", Arc::new(Int64Array::from(vec![5_000_000_000])), false),
        ("x", Arc::new(Float64Array::from(vec![2.25])), false),
    ]));
    lake.append_ok("numbers", "main", &[&narrow]).await;
    assert_eq!(
        lake.pyiceberg("numbers").schema("main"),
        vec![col("n", "int", false), col("x", "float", false)]
    );

    let outcome = lake.append_ok("numbers", "main", &[&wide]).await;
    assert_eq!(
        outcome.schema_changes,
        vec![
            SchemaChange::ColumnWidened {
                column: "n".to_owned(),
                from: "int".to_owned(),
                to: "long".to_owned()
            },
            SchemaChange::ColumnWidened {
                column: "x".to_owned(),
                from: "float".to_owned(),
                to: "double".to_owned()
            },
        ]
    );

    let read = lake.pyiceberg("numbers");
    assert_eq!(
        read.schema("main"),
        vec![col("n", "long", false), col("x", "double", false)]
    );
    assert_eq!(
        read.column("main", "n"),
        vec![json!(1), json!(2), json!(5_000_000_000i64)]
    );
    assert_eq!(
        read.column("main", "x"),
        vec![json!(0.5), json!(1.5), json!(2.25)]
    );
    // Same field ids across the promotion.
    assert_eq!(read.field_id("main", "n"), 1);

    // A narrower file goes into the wider column through promotion, no schema change.
    let narrow_again = lake.stage(&batch(vec![
        ("n", Arc::new(Int32Array::from(vec![7])), false),
        ("x", Arc::new(Float32Array::from(vec![3.0])), false),
    ]));
    let outcome = lake.append_ok("numbers", "main", &[&narrow_again]).await;
    assert!(
        outcome.schema_changes.is_empty(),
        "{:?}",
        outcome.schema_changes
    );
    let read = lake.pyiceberg("numbers");
    assert_eq!(
        read.schema("main"),
        vec![col("n", "long", false), col("x", "double", false)]
    );
    assert_eq!(
        read.column("main", "n"),
        vec![json!(1), json!(2), json!(5_000_000_000i64), json!(7)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decimal_precision_grows() {
    let lake = Lake::new().await;
    let decimals = |values: Vec<i128>, precision: u8| {
        let array = Decimal128Array::from(values)
            .with_precision_and_scale(precision, 2)
            .unwrap();
        batch(vec![("amount", Arc::new(array), false)])
    };
    lake.append_ok("money", "main", &[&lake.stage(&decimals(vec![12345], 9))])
        .await;
    let outcome = lake
        .append_ok(
            "money",
            "main",
            &[&lake.stage(&decimals(vec![123_456_789_012], 14))],
        )
        .await;
    assert_eq!(
        outcome.schema_changes,
        vec![SchemaChange::ColumnWidened {
            column: "amount".to_owned(),
            from: "decimal(9, 2)".to_owned(),
            to: "decimal(14, 2)".to_owned(),
        }]
    );
    let read = lake.pyiceberg("money");
    assert_eq!(
        read.schema("main"),
        vec![col("amount", "decimal(14, 2)", false)]
    );
    assert_eq!(
        read.column("main", "amount"),
        vec![json!("123.45"), json!("1234567890.12")]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_type_change_is_refused() {
    let lake = Lake::new().await;
    let first = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    let changed = lake.stage(&batch(vec![
        ("id", Arc::new(Int64Array::from(vec![2])), true),
        ("name", Arc::new(Int64Array::from(vec![42])), false),
    ]));

    let error = lake
        .append("people", "main", &[&changed], &AppendOptions::default())
        .await
        .unwrap_err();
    match &error {
        IcebergError::IncompatibleSchema {
            table,
            branch,
            column,
            change,
        } => {
            assert_eq!(
                (table.as_str(), branch.as_str(), column.as_str()),
                ("demo.people", "main", "name")
            );
            assert_eq!(
                change,
                &IncompatibleChange::TypeChanged {
                    from: "string".to_owned(),
                    to: "long".to_owned()
                }
            );
        }
        other => panic!("expected IncompatibleSchema, got {other:?}"),
    }
    assert!(error.to_string().contains("\"name\""), "{error}");

    // Forcing it while the old files stay on the branch would leave them unreadable.
    let error = lake
        .append("people", "main", &[&changed], &force())
        .await
        .unwrap_err();
    assert!(
        matches!(&error, IcebergError::TypeChangeNeedsReplace { column, .. } if column == "name"),
        "{error:?}"
    );

    let read = lake.pyiceberg("people");
    assert_eq!(read.snapshot_count(), 1);
    assert_eq!(read.snapshot_id("main"), first.snapshot_id);
    assert_eq!(
        read.schema("main"),
        vec![col("id", "long", true), col("name", "string", false)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_type_change_with_replace_on_a_branch() {
    let lake = Lake::new().await;
    let main = lake
        .append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    let changed = lake.stage(&batch(vec![
        ("id", Arc::new(Int64Array::from(vec![2])), true),
        ("name", Arc::new(Int64Array::from(vec![42])), false),
    ]));
    let outcome = lake
        .append(
            "people",
            "feature-x",
            &[&changed],
            &AppendOptions {
                force: true,
                replace: true,
                ..AppendOptions::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(outcome.status, AppendStatus::Replaced);
    assert_eq!(
        outcome.schema_changes,
        vec![SchemaChange::Forced {
            column: "name".to_owned(),
            change: IncompatibleChange::TypeChanged {
                from: "string".to_owned(),
                to: "long".to_owned()
            },
        }]
    );

    let read = lake.pyiceberg("people");
    assert_eq!(
        read.schema("feature-x"),
        vec![col("id", "long", true), col("name", "long", false)]
    );
    assert_eq!(read.rows("feature-x"), vec![json!({"id": 2, "name": 42})]);
    // Main keeps its schema and its rows, and stays readable.
    assert_eq!(read.snapshot_id("main"), main.snapshot_id);
    assert_eq!(
        read.schema("main"),
        vec![col("id", "long", true), col("name", "string", false)]
    );
    assert_eq!(read.current_schema(), read.schema("main"));
    assert_eq!(
        read.rows("main"),
        vec![json!({"id": 1, "name": "person-1"})]
    );
    // One name, one field id: the name mapping stays valid for both branches.
    assert_eq!(
        read.field_id("feature-x", "name"),
        read.field_id("main", "name")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_required_column_is_refused_unless_forced() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1, 2]))])
        .await;
    let without_id = lake.stage(&batch(vec![(
        "name",
        Arc::new(StringArray::from(vec!["anonymous"])),
        false,
    )]));

    let error = lake
        .append("people", "main", &[&without_id], &AppendOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            IcebergError::IncompatibleSchema { column, change: IncompatibleChange::RequiredColumnMissing, .. }
                if column == "id"
        ),
        "{error:?}"
    );
    assert_eq!(lake.pyiceberg("people").snapshot_count(), 1);

    let forced = lake
        .append("people", "main", &[&without_id], &force())
        .await
        .unwrap();
    assert_eq!(forced.status, AppendStatus::Appended);
    assert_eq!(
        forced.schema_changes,
        vec![SchemaChange::Forced {
            column: "id".to_owned(),
            change: IncompatibleChange::RequiredColumnMissing,
        }]
    );
    let read = lake.pyiceberg("people");
    assert_eq!(read.schema("main"), vec![col("name", "string", false)]);
    assert_eq!(read.current_schema(), vec![col("name", "string", false)]);
    let mut names: Vec<Value> = read.column("main", "name");
    names.sort_by_key(Value::to_string);
    assert_eq!(
        names,
        vec![json!("anonymous"), json!("person-1"), json!("person-2")]
    );
    assert_eq!(read.snapshot_count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evolution_on_a_branch_leaves_main_schema_and_ids_stay_stable() {
    let lake = Lake::new().await;
    lake.append_ok("people", "main", &[&lake.stage(&people(&[1]))])
        .await;
    let with_email = |id: i64| {
        batch(vec![
            ("id", Arc::new(Int64Array::from(vec![id])), true),
            (
                "name",
                Arc::new(StringArray::from(vec![format!("person-{id}")])),
                false,
            ),
            (
                "email",
                Arc::new(StringArray::from(vec![format!("{id}@example.org")])),
                false,
            ),
        ])
    };
    lake.append_ok("people", "feature-x", &[&lake.stage(&with_email(2))])
        .await;
    let read = lake.pyiceberg("people");
    assert_eq!(
        read.current_schema(),
        vec![col("id", "long", true), col("name", "string", false)]
    );
    assert_eq!(read.schema("main"), read.current_schema());
    assert_eq!(
        read.rows("main"),
        vec![json!({"id": 1, "name": "person-1"})]
    );
    assert_eq!(read.schema("feature-x").len(), 3);
    assert_eq!(
        read.rows("feature-x"),
        vec![
            json!({"id": 1, "name": "person-1", "email": null}),
            json!({"id": 2, "name": "person-2", "email": "2@example.org"}),
        ]
    );

    // iceberg-rust's own reader (name mapping, snapshot schema) agrees.
    let batches = lake
        .engine
        .read_batches(crate::support::NS, "people", "feature-x")
        .await
        .unwrap();
    let rows: usize = batches.iter().map(|batch| batch.num_rows()).sum();
    assert_eq!(rows, 2);
    assert!(
        batches[0].schema().index_of("email").is_ok(),
        "{:?}",
        batches[0].schema()
    );
    let nulls: usize = batches
        .iter()
        .map(|batch| batch.column_by_name("email").unwrap().null_count())
        .sum();
    assert_eq!(nulls, 1);

    // Another branch adding the same column gets the same field id, so the table-wide
    // name mapping serves both.
    lake.append_ok("people", "feature-z", &[&lake.stage(&with_email(3))])
        .await;
    let read = lake.pyiceberg("people");
    assert_eq!(
        read.field_id("feature-z", "email"),
        read.field_id("feature-x", "email")
    );
    assert_eq!(
        read.rows("feature-z"),
        vec![
            json!({"id": 1, "name": "person-1", "email": null}),
            json!({"id": 3, "name": "person-3", "email": "3@example.org"}),
        ]
    );
    assert_eq!(read.rows("feature-x").len(), 2);

    // Merged into main later: main's schema becomes the table's current one.
    lake.append_ok("people", "main", &[&lake.stage(&with_email(4))])
        .await;
    let read = lake.pyiceberg("people");
    assert_eq!(read.current_schema().len(), 3);
    assert_eq!(
        read.field_id("main", "email"),
        read.field_id("feature-x", "email")
    );
}
