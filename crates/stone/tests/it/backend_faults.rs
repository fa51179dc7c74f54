//! Backend faults (issue 54): the server's own disk fills under it. The data directory is
//! a small tmpfs the test mounts, filled to the last byte while the server is idle, short
//! of an upload, and short of a commit's writes, then freed. After each, without a
//! restart of the server: new pushes land, the push that failed converges exactly once
//! when run again (pyiceberg's rows, the blob's bytes), no byte of a refused upload stays
//! in staging, and what the CLI printed says what happened (the server's code, exit
//! status 5, a hint to run again, never "nothing reached the server").
//!
//! The fault is real (the kernel's ENOSPC on a real file system); nothing is faked. The
//! mount needs root (or CAP_SYS_ADMIN): without it the tests fail saying so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{SplitMix64, StoneServer};
use stone_test::tools::python;

use crate::stderr;

const HOST: &str = "disk.test";

/// A tmpfs of `mib` MiB mounted on a temporary folder for the test's life.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(mib: u64) -> Tmpfs {
        let dir = tempfile::Builder::new()
            .prefix("stone-disk-")
            .tempdir()
            .unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o"])
            .arg(format!("size={mib}m,mode=0700"))
            .arg("stone-disk-test")
            .arg(dir.path())
            .output()
            .expect("mount(8) runs");
        assert!(
            out.status.success(),
            "this test mounts a {mib} MiB tmpfs as the server's data directory and needs \
             root (or CAP_SYS_ADMIN) for it: run the suite as root (scripts/test does on CI). \
             mount said: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Free bytes of the file system holding `path`, as an unprivileged writer sees them.
fn free_bytes(path: &Path) -> u64 {
    let out = Command::new("stat")
        .args(["-f", "-c", "%a %S"])
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().unwrap());
    numbers.next().unwrap() * numbers.next().unwrap()
}

/// Fills the file system of `dir` until `leave` bytes are free (0: until ENOSPC) with a
/// file it returns the path of.
fn fill(dir: &Path, leave: u64) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    let chunk = vec![0x5a_u8; 1 << 16];
    loop {
        let free = free_bytes(dir);
        if free <= leave {
            break;
        }
        let n = ((free - leave) as usize).min(chunk.len());
        match file.write_all(&chunk[..n]) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::StorageFull => break,
            Err(e) => panic!("filling {}: {e}", dir.display()),
        }
    }
    let _ = file.sync_all();
    path
}

/// A server whose data directory is a `mib` MiB tmpfs, keeping `reserve` bytes free of
/// uploads.
fn world(mib: u64, reserve: u64) -> (Tmpfs, TestContext, StoneServer, PathBuf) {
    let disk = Tmpfs::mount(mib);
    let data = disk.path().join("data");
    let server = StoneServer::start(
        &data,
        Some(&format!(
            "public_host = \"{HOST}\"\n[guards]\nprotected_refs = []\n\
             [staging]\nreserve_bytes = {reserve}\n"
        )),
        &[],
    );
    let ctx = crate::context();
    ctx.add_env("local", HOST, &server.api());
    (disk, ctx, server, data)
}

/// A package of one table (`rows` rows of random hex, hardly compressible) and one blob.
fn package(
    ctx: &TestContext,
    name: &str,
    ns: &str,
    rows: usize,
    blob: usize,
    seed: u64,
) -> PathBuf {
    let mut rng = SplitMix64(seed);
    let mut csv = String::from("id,token\n");
    for r in 0..rows {
        csv.push_str(&format!(
            "{r},{:016x}{:016x}\n",
            rng.next_u64(),
            rng.next_u64()
        ));
    }
    let bytes: Vec<u8> = (0..blob).map(|_| rng.next_u64() as u8).collect();
    ctx.package(
        name,
        &format!(
            "name: {name}\npublish: {{to: \"stone:{ns}\"}}\nresources:\n  - path: t.csv\n    name: t\n  - path: b.bin\n    name: b\n"
        ),
        &[("t.csv", csv.as_bytes()), ("b.bin", &bytes)],
    )
}

fn push(ctx: &TestContext, dir: &Path) -> Output {
    ctx.stone()
        .args([
            "package", "push", "--json", "--env", "local", "--branch", "main",
        ])
        .arg(dir)
        .output()
        .unwrap()
}

/// The statuses of a successful push's datasets, by name.
fn pushed(out: &Output, what: &str) -> Vec<(String, String)> {
    assert!(
        out.status.success(),
        "{what}: the push failed ({:?}):\n{}",
        out.status,
        stderr(out)
    );
    let result: Value = serde_json::from_slice(&out.stdout).expect("a JSON result");
    result["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["url"].as_str().unwrap_or_default().to_owned(),
                d["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// A push refused for want of space: exit 5, the server's code, a hint to run again
/// that does not claim nothing reached the server. The `--json` error.
fn refused_for_space(out: &Output, what: &str) -> Value {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(5), "{what}: exit status 5:\n{err}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    let error = report["error"].clone();
    let text = error.to_string();
    assert!(
        text.contains("storage_full") && text.to_lowercase().contains("space"),
        "{what}: the server's code and what it lacks: {error}"
    );
    assert!(
        !text.contains("nothing reached the server") && !text.contains("is unavailable"),
        "{what}: the server answered; it is not 'unavailable': {error}"
    );
    assert!(
        text.contains("run the same command again"),
        "{what}: the hint says to run again: {error}"
    );
    error
}

/// Files of the staging store's work folders (uploads in flight, multipart assemblies).
fn staging_leftovers(data: &Path) -> Vec<PathBuf> {
    ["incoming", "parts"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(data.join("staging").join(dir))
                .into_iter()
                .flatten()
        })
        .flatten()
        .map(|e| e.path())
        .collect()
}

/// Rows and distinct rows of `ns.t` on `main`, read by pyiceberg from the server's
/// catalog and warehouse.
fn table_rows(data: &Path, ns: &str) -> (u64, u64) {
    let counts = crate::faults::iceberg_counts(data, &format!("{ns}.t"), &["main"]);
    (
        counts["main"]["rows"].as_u64().unwrap(),
        counts["main"]["distinct"].as_u64().unwrap(),
    )
}

/// `stone data import` of `stone:<ns>/<name>` into a consumer package: the file's bytes.
fn import(ctx: &TestContext, ns: &str, name: &str, format: &str) -> Result<Vec<u8>, String> {
    let consumer = ctx.root().join("consumer");
    if !consumer.exists() {
        ctx.package(
            "consumer",
            "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: n.csv\n",
            &[("n.csv", b"n\n1\n")],
        );
    }
    let slug = format!("{ns}-{name}-{format}");
    let out = ctx
        .stone()
        .args([
            "data", "import", "--json", "--env", "local", "--branch", "main",
        ])
        .arg(format!("stone:{ns}/{name}"))
        .args(["--as", &slug])
        .args(if format.is_empty() {
            vec![]
        } else {
            vec!["--format", format]
        })
        .arg(&consumer)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(format!("exit {:?}: {}", out.status.code(), stderr(&out)));
    }
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    let path = consumer.join(result["entry"]["path"].as_str().unwrap());
    Ok(std::fs::read(path).unwrap())
}

#[test]
fn a_disk_full_at_idle_fails_pushes_as_transient_and_once_freed_pushes_land_without_a_restart() {
    let (disk, ctx, server, data) = world(48, 512 << 10);
    let first = package(&ctx, "first", "i1", 200, 64 << 10, 1);
    let statuses = pushed(&push(&ctx, &first), "before the disk fills");
    assert!(statuses.iter().all(|(_, s)| s == "created"), "{statuses:?}");

    // Full to the last byte: the state database cannot write a new push either.
    let filler = fill(disk.path(), 0);
    let second = package(&ctx, "second", "i2", 300, 128 << 10, 2);
    let out = push(&ctx, &second);
    refused_for_space(&out, "a push on a full disk");

    // Freed: the same command lands, and another push too, without a restart (the
    // state database kept no transaction open on a pooled connection).
    std::fs::remove_file(&filler).unwrap();
    let statuses = pushed(&push(&ctx, &second), "the same push once the disk is freed");
    assert!(statuses.iter().all(|(_, s)| s == "created"), "{statuses:?}");
    let third = package(&ctx, "third", "i3", 50, 1 << 10, 3);
    pushed(&push(&ctx, &third), "a new push once the disk is freed");
    assert_eq!(
        table_rows(&data, "i2"),
        (300, 300),
        "the refused push's rows, exactly once"
    );
    assert_eq!(table_rows(&data, "i3"), (50, 50));
    assert!(
        staging_leftovers(&data).is_empty(),
        "{:?}",
        staging_leftovers(&data)
    );
    drop(server);
}

#[test]
fn an_upload_past_the_free_space_is_refused_before_a_byte_is_sent_and_nothing_stays() {
    let reserve = 512 << 10;
    let (disk, ctx, server, data) = world(48, reserve);
    // 3 MiB free above nothing: a 6 MiB blob does not fit, with the reserve kept.
    let filler = fill(disk.path(), 3 << 20);
    let dir = package(&ctx, "big", "upload", 100, 6 << 20, 4);
    let blob = std::fs::read(dir.join("b.bin")).unwrap();
    let before = free_bytes(disk.path());
    let out = push(&ctx, &dir);
    let error = refused_for_space(&out, "an upload past the free space");
    let text = error.to_string();
    assert!(
        text.contains("bytes are free") && text.contains(&reserve.to_string()),
        "the figures: what is free and what the server keeps: {error}"
    );
    assert!(
        staging_leftovers(&data).is_empty(),
        "{:?}",
        staging_leftovers(&data)
    );
    let staged_big = std::fs::read_dir(data.join("staging/contents"))
        .unwrap()
        .flatten()
        .any(|e| e.metadata().map(|m| m.len() >= (6 << 20)).unwrap_or(false));
    assert!(!staged_big, "the blob was not staged");
    // The state database records the push (its journal grows by a few pages per try);
    // none of the blob's 6 MiB was written (a part of it would have taken up to 3 MiB).
    assert!(
        free_bytes(disk.path()) + (1 << 20) >= before,
        "nothing of the upload took space: {} then {} free",
        before,
        free_bytes(disk.path())
    );

    std::fs::remove_file(&filler).unwrap();
    let statuses = pushed(&push(&ctx, &dir), "the same push once space is freed");
    assert!(statuses.iter().all(|(_, s)| s == "created"), "{statuses:?}");
    assert_eq!(
        import(&ctx, "upload", "b", "").unwrap(),
        blob,
        "the blob's bytes"
    );
    assert_eq!(table_rows(&data, "upload"), (100, 100));
    drop(server);
}

#[test]
fn a_disk_that_fills_at_commit_fails_the_dataset_as_transient_and_the_push_converges_once() {
    let (disk, ctx, server, data) = world(64, 256 << 10);
    // The same table in two namespaces: the second push uploads nothing (the contents
    // are staged already) and fails where the commit copies the table's file.
    let rows = 120_000;
    let a = package(&ctx, "a", "ca", rows, 1 << 10, 5);
    pushed(&push(&ctx, &a), "the first namespace");
    let parquet = std::fs::read_dir(data.join("staging/contents"))
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .max()
        .unwrap();
    assert!(
        parquet > (2 << 20),
        "the table's file is large enough: {parquet} bytes"
    );
    let b = ctx.root().join("b");
    crate::copy_dir(&a, &b);
    std::fs::write(
        b.join("datasets.yaml"),
        std::fs::read_to_string(a.join("datasets.yaml"))
            .unwrap()
            .replace("stone:ca", "stone:cb")
            .replace("name: a", "name: b"),
    )
    .unwrap();
    let filler = fill(disk.path(), parquet / 2);
    let out = push(&ctx, &b);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "exit status 5:\n{err}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    let text = report["error"].to_string();
    assert!(
        text.contains("storage_full") && text.contains("run the same command again"),
        "the dataset's code and the hint: {text}"
    );

    std::fs::remove_file(&filler).unwrap();
    let statuses = pushed(&push(&ctx, &b), "the same push once space is freed");
    assert!(
        statuses
            .iter()
            .any(|(url, s)| url == "stone:cb/t" && s == "created"),
        "{statuses:?}"
    );
    assert_eq!(
        table_rows(&data, "cb"),
        (rows as u64, rows as u64),
        "every row exactly once"
    );
    drop(server);
}

#[test]
fn a_table_reads_back_in_parquet_when_the_answer_cache_cannot_be_written() {
    let (disk, ctx, server, _data) = world(48, 256 << 10);
    let dir = package(&ctx, "read", "rd", 500, 1 << 10, 6);
    pushed(&push(&ctx, &dir), "the table");
    let csv = import(&ctx, "rd", "t", "csv").expect("the CSV answer");
    assert_eq!(
        String::from_utf8_lossy(&csv).lines().count(),
        501,
        "header and rows"
    );
    // The Parquet answer was never asked for: its cache file is written on first read,
    // and the disk is full.
    let _filler = fill(disk.path(), 0);
    let parquet = import(&ctx, "rd", "t", "parquet")
        .expect("a full disk does not fail a read: the answer is streamed uncached");
    let out = Command::new(python())
        .args([
            "-c",
            "import sys, pyarrow.parquet as pq; print(pq.read_table(sys.argv[1]).num_rows)",
        ])
        .arg({
            let path = ctx.root().join("read.parquet");
            std::fs::write(&path, &parquet).unwrap();
            path
        })
        .output()
        .unwrap();
    assert!(out.status.success(), "pyarrow: {}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "500");
    drop(server);
}
