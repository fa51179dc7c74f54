//! Data file metrics built from the Parquet footer, as pyiceberg decodes them, and the
//! file pruning they allow.

use std::sync::Arc;

use arrow_array::{
    BooleanArray, Date32Array, Decimal128Array, Float64Array, Int32Array, Int64Array, StringArray,
    TimestampMicrosecondArray,
};
use serde_json::json;

use crate::support::{Lake, batch, people};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_come_from_the_footer() {
    let lake = Lake::new().await;
    let rows = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![5, 1, 9, 3])), true),
        (
            "name",
            Arc::new(StringArray::from(vec![
                Some("delta"),
                None,
                Some("alpha"),
                Some("kilo"),
            ])),
            false,
        ),
        (
            "score",
            Arc::new(Float64Array::from(vec![
                Some(2.5),
                Some(-1.0),
                None,
                Some(7.25),
            ])),
            false,
        ),
        ("n", Arc::new(Int32Array::from(vec![10, 20, 30, 40])), false),
        (
            "amount",
            Arc::new(
                Decimal128Array::from(vec![150, -2599, 0, 1])
                    .with_precision_and_scale(10, 2)
                    .unwrap(),
            ),
            false,
        ),
        (
            "day",
            Arc::new(Date32Array::from(vec![19000, 19500, 18000, 20000])),
            false,
        ),
        (
            "at",
            Arc::new(
                TimestampMicrosecondArray::from(vec![1_000_000, 5_000_000, 3_000_000, 2_000_000])
                    .with_timezone("UTC"),
            ),
            false,
        ),
        (
            "flag",
            Arc::new(BooleanArray::from(vec![true, true, true, true])),
            false,
        ),
    ]);
    // Two row groups: the bounds are aggregated over both.
    let file = lake.stage_with_row_groups(&rows, 2);
    lake.append_ok("mixed", "main", &[&file]).await;

    let read = lake.pyiceberg("mixed");
    let stats = read.file_stats("main");
    assert_eq!(stats.len(), 1);
    let stat = &stats[0];
    assert_eq!(stat["format"], json!("FileFormat.PARQUET"));
    assert_eq!(stat["record_count"], json!(4));
    assert_eq!(
        stat["file_size"],
        json!(std::fs::metadata(&file.path).unwrap().len())
    );
    assert_eq!(
        stat["lower"],
        json!({
            "id": 1, "name": "alpha", "score": -1.0, "n": 10, "amount": "-25.99",
            "day": 18000, "at": 1_000_000, "flag": true,
        })
    );
    assert_eq!(
        stat["upper"],
        json!({
            "id": 9, "name": "kilo", "score": 7.25, "n": 40, "amount": "1.50",
            "day": 20000, "at": 5_000_000, "flag": true,
        })
    );
    assert_eq!(stat["null_counts"]["name"], json!(1));
    assert_eq!(stat["null_counts"]["score"], json!(1));
    assert_eq!(stat["null_counts"]["id"], json!(0));
    for column in ["id", "name", "score", "n", "amount", "day", "at", "flag"] {
        assert_eq!(stat["value_counts"][column], json!(4), "{column}");
        assert!(
            stat["column_sizes"][column].as_u64().unwrap() > 0,
            "{column}"
        );
    }
    assert_eq!(
        read.schema("main")[6],
        crate::support::col("at", "timestamptz", false)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_prune_files_by_their_bounds() {
    let lake = Lake::new().await;
    let low = lake.stage(&people(&[1, 2, 3]));
    let high = lake.stage(&people(&[4, 5, 6]));
    lake.append_ok("people", "main", &[&low, &high]).await;

    let read = lake.pyiceberg_filtered("people", "id >= 4");
    let files = read.filtered_files("main");
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with(&format!("{}.parquet", high.sha256)));
    let ids: Vec<i64> = read
        .filtered_rows("main")
        .iter()
        .map(|row| row["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![4, 5, 6]);

    let read = lake.pyiceberg_filtered("people", "name == 'person-2'");
    let files = read.filtered_files("main");
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with(&format!("{}.parquet", low.sha256)));
    assert_eq!(
        read.filtered_rows("main"),
        vec![json!({"id": 2, "name": "person-2"})]
    );
}
