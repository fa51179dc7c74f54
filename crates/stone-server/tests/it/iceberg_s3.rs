//! The Iceberg engine with its warehouse in a bucket of a real SeaweedFS: a data file
//! larger than one multipart part goes up in parts and reads back whole (ranged GETs),
//! appending it again changes nothing, and dropping the table with purge empties its
//! prefix.

use std::sync::Arc;

use arrow_array::{Array, Int64Array, StringArray};
use stone_server::engines::iceberg::{AppendOptions, AppendStatus, IcebergEngine, StagedFile};
use stone_test::services::SeaweedFs;

use crate::support::{NS, batch, sha256_hex, write_parquet};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_data_file_goes_up_in_parts_and_reads_back_from_s3() {
    let dir = tempfile::tempdir().unwrap();
    let (settings, bucket) = crate::support::s3_warehouse_settings(dir.path());
    let seaweed = SeaweedFs::shared();
    assert_eq!(settings.warehouse, format!("s3://{bucket}/wh"));
    let engine = IcebergEngine::open(settings).await.expect("open on S3");
    assert!(!dir.path().join("unused").exists(), "no local warehouse");

    // ~13 MiB of hex noise after zstd: more than the 10 MiB after which the S3 writer
    // switches to a multipart upload.
    let rows = 360_000i64;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<String> = (0..rows)
        .map(|_| {
            (0..4)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    format!("{state:016x}")
                })
                .collect()
        })
        .collect();
    let data = batch(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..rows)), true),
        ("noise", Arc::new(StringArray::from(noise.clone())), false),
    ]);
    let path = dir.path().join("big.parquet");
    write_parquet(&path, &data, 50_000);
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 11 << 20, "{} bytes", bytes.len());
    let file = StagedFile {
        sha256: sha256_hex(&bytes),
        path,
    };

    let outcome = engine
        .append(
            NS,
            "big",
            "main",
            std::slice::from_ref(&file),
            &AppendOptions::default(),
        )
        .await
        .expect("append to an S3 warehouse");
    assert_eq!(outcome.status, AppendStatus::Created);
    assert_eq!(outcome.total_rows, rows as u64);

    let key = seaweed
        .list_objects(&bucket, &format!("wh/{NS}/big-"))
        .into_iter()
        .find(|key| key.ends_with(&format!("/data/{}.parquet", file.sha256)))
        .expect("the data file is in the bucket");
    let stored = seaweed.get_object(&bucket, &key).unwrap();
    assert_eq!(
        sha256_hex(&stored),
        file.sha256,
        "{key} has the staged bytes"
    );

    let batches = engine.read_batches(NS, "big", "main").await.unwrap();
    let read: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(read, rows as usize);
    let last = batches.last().unwrap();
    let column = last
        .column_by_name("noise")
        .unwrap()
        .as_any()
        .downcast_ref::<StringArray>()
        .unwrap();
    assert_eq!(column.value(column.len() - 1), noise.last().unwrap());

    let again = engine
        .append(NS, "big", "main", &[file], &AppendOptions::default())
        .await
        .unwrap();
    assert_eq!(again.status, AppendStatus::Unchanged);
    assert_eq!(again.snapshot_id, outcome.snapshot_id);

    assert!(engine.drop_table(NS, "big", true).await.unwrap());
    assert_eq!(
        seaweed.list_objects(&bucket, &format!("wh/{NS}/big-")),
        Vec::<String>::new(),
        "purge deletes every object of the table"
    );
}
