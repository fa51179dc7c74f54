//! `stone data import` against the real `stone-server`, SeaweedFS (S3) and a WebDAV server
//! (wsgidav, over plain http on loopback: the client allows http only to loopback), the
//! imports read back by readers no one here wrote (pyarrow, pyoxigraph).

use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stone_test::TestContext;
use stone_test::services::{SeaweedFs, WebDavServer};
use stone_test::tools::python;

use crate::push_e2e::{HOST, push, with_server};

const CITIES: &[u8] =
    b"city,code,population\nParis,075,2102650\nLyon,069,522250\nLille,059,236234\n";
const CAPITALS: &[u8] = b"@prefix ex: <http://example.org/> .\nex:Paris ex:capitalOf ex:France ; ex:seenBy [ ex:name \"a visitor\" ] .\nex:Berlin ex:capitalOf ex:Germany .\n";

fn readings() -> Vec<u8> {
    (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect()
}

use stone_package::digest::sha256_hex as sha256;

/// A package that imports (its own data is one CSV).
fn consumer(ctx: &TestContext) -> PathBuf {
    ctx.package(
        "consumer",
        "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: notes.csv\n",
        &[("notes.csv", b"note\nhello\n")],
    )
}

/// `SOURCE --env local --branch dev EXTRA…`.
fn from_dev<'a>(source: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![source, "--env", "local", "--branch", "dev"];
    args.extend_from_slice(extra);
    args
}

fn import(ctx: &TestContext, dir: &Path, args: &[&str]) -> Output {
    ctx.stone()
        .args(["data", "import", "--json"])
        .args(args)
        .arg(dir)
        .output()
        .unwrap()
}

fn import_ok(ctx: &TestContext, dir: &Path, args: &[&str]) -> Value {
    let out = import(ctx, dir, args);
    assert!(
        out.status.success(),
        "import {args:?} failed ({:?}):\n{}",
        out.status,
        crate::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("JSON result")
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    found.sort();
    found
}

/// pyarrow's reading of a Parquet file: column names and types, and the rows.
fn read_parquet(path: &Path) -> Value {
    let out = std::process::Command::new(python())
        .args([
            "-c",
            "import json, sys, pyarrow.parquet as pq\n\
             t = pq.read_table(sys.argv[1])\n\
             print(json.dumps({'schema': [[f.name, str(f.type)] for f in t.schema], 'rows': t.to_pylist()}))",
        ])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyarrow could not read {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Whether two RDF files hold isomorphic graphs (pyoxigraph: canonical forms compared).
fn isomorphic(a: &Path, b: &Path) -> bool {
    let out = std::process::Command::new(python())
        .args([
            "-c",
            "import sys\n\
             from pyoxigraph import Dataset, parse, RdfFormat, CanonicalizationAlgorithm\n\
             def canon(path):\n\
             \x20   ds = Dataset(parse(path=path, format=RdfFormat.from_extension(path.rsplit('.', 1)[1])))\n\
             \x20   ds.canonicalize(CanonicalizationAlgorithm.UNSTABLE)\n\
             \x20   return sorted(str(q) for q in ds)\n\
             x, y = canon(sys.argv[1]), canon(sys.argv[2])\n\
             print('same' if x == y and len(x) > 0 else 'different: %d vs %d triples' % (len(x), len(y)))",
        ])
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pyoxigraph: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim() == "same"
}

#[test]
fn pushed_datasets_come_back_into_ext_and_a_second_import_downloads_nothing() {
    let (ctx, server, _data) = with_server();
    let source = ctx.package(
        "source",
        r#"name: source
publish:
  to: "stone:shared"
  public: true
  dialect: {delimiter: ";", quoting: all}
resources:
  - path: cities.csv
    schema: {fields: [{name: code, type: string}]}
  - path: capitals.ttl
  - path: readings.bin
"#,
        &[
            ("cities.csv", CITIES),
            ("capitals.ttl", CAPITALS),
            ("readings.bin", &readings()),
        ],
    );
    push(&ctx, &source, &["--branch", "dev"]);
    let dir = consumer(&ctx);

    // TABULAR as Parquet: same schema and rows as the CSV pushed.
    let cities = import_ok(&ctx, &dir, &from_dev("stone:shared/cities", &[]));
    assert_eq!(cities["status"], "imported", "{cities:#}");
    assert_eq!(cities["entry"]["path"], "ext/cities/cities.parquet");
    assert_eq!(cities["entry"]["kind"], "TABULAR");
    assert_eq!(cities["entry"]["branch"], "dev");
    assert!(cities["entry"]["snapshot_id"].is_i64(), "{cities:#}");
    let table = read_parquet(&dir.join("ext/cities/cities.parquet"));
    assert_eq!(
        table["schema"],
        json!([
            ["city", "string"],
            ["code", "string"],
            ["population", "int64"]
        ]),
        "{table}"
    );
    assert_eq!(
        table["rows"],
        json!([
            {"city": "Paris", "code": "075", "population": 2102650},
            {"city": "Lyon", "code": "069", "population": 522250},
            {"city": "Lille", "code": "059", "population": 236234},
        ])
    );

    // TABULAR as CSV in the source package's dialect: `;` and every field quoted.
    let csv = import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/cities",
            &["--format", "csv", "--as", "Cities CSV"],
        ),
    );
    assert_eq!(csv["entry"]["path"], "ext/cities-csv/cities.csv");
    assert_eq!(
        std::fs::read_to_string(dir.join("ext/cities-csv/cities.csv")).unwrap(),
        "\"city\";\"code\";\"population\"\n\"Paris\";\"075\";\"2102650\"\n\"Lyon\";\"069\";\"522250\"\n\"Lille\";\"059\";\"236234\"\n"
    );

    // GRAPH through its IRI on the environment's host: an isomorphic graph (blank node
    // included), verified against the sha256 the server states.
    let capitals = import_ok(
        &ctx,
        &dir,
        &[
            &format!("https://{HOST}/shared/capitals"),
            "--branch",
            "dev",
        ],
    );
    assert_eq!(capitals["entry"]["path"], "ext/capitals/capitals.ttl");
    assert_eq!(capitals["entry"]["kind"], "GRAPH");
    assert!(isomorphic(
        &source.join("capitals.ttl"),
        &dir.join("ext/capitals/capitals.ttl")
    ));
    let nt = import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/capitals",
            &["--format", "nt", "--as", "capitals-nt"],
        ),
    );
    assert!(isomorphic(
        &source.join("capitals.ttl"),
        &dir.join(nt["entry"]["path"].as_str().unwrap())
    ));

    // BLOB: identical bytes, the sha256 the server stated.
    let blob = import_ok(&ctx, &dir, &from_dev("stone:shared/readings", &[]));
    assert_eq!(blob["entry"]["path"], "ext/readings/readings.bin");
    assert_eq!(
        std::fs::read(dir.join("ext/readings/readings.bin")).unwrap(),
        readings()
    );
    assert_eq!(blob["entry"]["sha256"], sha256(&readings()));

    // The lock file records where each came from.
    let lock: Value =
        serde_json::from_slice(&std::fs::read(dir.join("ext/stone-lock.json")).unwrap()).unwrap();
    let slugs: Vec<&String> = lock["imports"].as_object().unwrap().keys().collect();
    assert_eq!(
        slugs,
        [
            "capitals",
            "capitals-nt",
            "cities",
            "cities-csv",
            "readings"
        ]
    );
    assert_eq!(
        lock["imports"]["capitals"]["source"],
        format!("https://{HOST}/shared/capitals")
    );
    assert!(
        lock["imports"]["capitals"]["resolved"]
            .as_str()
            .unwrap()
            .starts_with(&server.api()),
        "{lock:#}"
    );
    assert_eq!(lock["imports"]["readings"]["size"], 70_000);

    // Nothing changed: nothing is downloaded, nothing is rewritten.
    let before = std::fs::metadata(dir.join("ext/stone-lock.json"))
        .unwrap()
        .modified()
        .unwrap();
    for args in [
        from_dev("stone:shared/cities", &[]),
        vec![
            &format!("https://{HOST}/shared/capitals") as &str,
            "--branch",
            "dev",
        ],
        from_dev("stone:shared/readings", &[]),
    ] {
        let again = import_ok(&ctx, &dir, &args);
        assert_eq!(again["status"], "unchanged", "{args:?}: {again:#}");
        assert_eq!(again["downloaded_bytes"], 0, "{args:?}: {again:#}");
    }
    let after = std::fs::metadata(dir.join("ext/stone-lock.json"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "the lock file was not rewritten");

    // A changed source is downloaded again.
    std::fs::write(source.join("readings.bin"), b"new readings").unwrap();
    push(&ctx, &source, &["--branch", "dev", "--replace"]);
    let updated = import_ok(&ctx, &dir, &from_dev("stone:shared/readings", &[]));
    assert_eq!(updated["status"], "updated", "{updated:#}");
    assert_eq!(
        std::fs::read(dir.join("ext/readings/readings.bin")).unwrap(),
        b"new readings"
    );

    // The importing package still cannot push what it imported.
    std::fs::write(
        dir.join("datasets.yaml"),
        "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: notes.csv\n  - path: ext/cities/cities.parquet\n",
    )
    .unwrap();
    let out = ctx
        .stone()
        .args([
            "package", "push", "--env", "local", "--branch", "dev", "--json",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", crate::stderr(&out));
    let refused: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(refused["error"]["code"], "package.ext_zone");
}

#[test]
fn a_blob_dataset_of_several_files_comes_back_as_a_folder_and_only_changed_files_are_downloaded() {
    let (ctx, _server, _data) = with_server();
    let big: Vec<u8> = (0..300_000u32).map(|i| (i % 253) as u8).collect();
    let source = ctx.package(
        "source",
        "name: source\npublish: {to: \"stone:shared\", public: true}\nresources:\n  - path: scans\n",
        &[
            ("scans/a/one.bin", &big),
            ("scans/b.txt", b"bee\n"),
            ("scans/c/d/e.dat", b"deep"),
        ],
    );
    push(&ctx, &source, &["--branch", "dev"]);
    let dir = consumer(&ctx);

    let first = import_ok(&ctx, &dir, &from_dev("stone:shared/scans", &[]));
    assert_eq!(first["status"], "imported", "{first:#}");
    assert_eq!(first["entry"]["path"], "ext/scans");
    assert_eq!(first["entry"]["kind"], "BLOB");
    assert_eq!(first["downloaded_bytes"], big.len() + 4 + 4, "{first:#}");
    assert_eq!(
        files_under(&dir.join("ext/scans")),
        ["a/one.bin", "b.txt", "c/d/e.dat"]
    );
    assert_eq!(std::fs::read(dir.join("ext/scans/a/one.bin")).unwrap(), big);
    assert_eq!(
        std::fs::read(dir.join("ext/scans/c/d/e.dat")).unwrap(),
        b"deep"
    );
    // The entry's sha256 is what `sha256sum` prints in the folder, hashed.
    let listing = format!(
        "{}  a/one.bin\n{}  b.txt\n{}  c/d/e.dat\n",
        sha256(&big),
        sha256(b"bee\n"),
        sha256(b"deep")
    );
    assert_eq!(first["entry"]["sha256"], sha256(listing.as_bytes()));
    let files = first["entry"]["files"]
        .as_array()
        .expect("files in the entry");
    assert_eq!(files.len(), 3, "{first:#}");
    assert_eq!(files[0]["path"], "ext/scans/a/one.bin");
    assert_eq!(files[0]["sha256"], sha256(&big));

    // Unchanged: nothing downloaded, nothing rewritten.
    let again = import_ok(&ctx, &dir, &from_dev("stone:shared/scans", &[]));
    assert_eq!(again["status"], "unchanged", "{again:#}");
    assert_eq!(again["downloaded_bytes"], 0);

    // One file changes, one goes, one comes: only the changed and the new bytes travel,
    // and the folder matches the dataset exactly.
    std::fs::write(source.join("scans/b.txt"), b"bee, changed\n").unwrap();
    std::fs::remove_file(source.join("scans/c/d/e.dat")).unwrap();
    std::fs::write(source.join("scans/new.txt"), b"new").unwrap();
    push(&ctx, &source, &["--branch", "dev", "--replace"]);
    let updated = import_ok(&ctx, &dir, &from_dev("stone:shared/scans", &[]));
    assert_eq!(updated["status"], "updated", "{updated:#}");
    assert_eq!(updated["downloaded_bytes"], 13 + 3, "{updated:#}");
    assert_eq!(
        files_under(&dir.join("ext/scans")),
        ["a/one.bin", "b.txt", "new.txt"]
    );
    assert_eq!(std::fs::read(dir.join("ext/scans/a/one.bin")).unwrap(), big);
    assert_eq!(
        std::fs::read(dir.join("ext/scans/b.txt")).unwrap(),
        b"bee, changed\n"
    );
    // No temporary folder is left in ext/.
    let leftovers: Vec<String> = std::fs::read_dir(dir.join("ext"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A file damaged on disk is downloaded again (and only that one).
    std::fs::write(dir.join("ext/scans/new.txt"), b"NEW").unwrap();
    let repaired = import_ok(&ctx, &dir, &from_dev("stone:shared/scans", &[]));
    assert_eq!(repaired["status"], "updated", "{repaired:#}");
    assert_eq!(repaired["downloaded_bytes"], 3, "{repaired:#}");
    assert_eq!(
        std::fs::read(dir.join("ext/scans/new.txt")).unwrap(),
        b"new"
    );
}

#[test]
fn unknown_datasets_and_formats_fail_clearly_and_write_nothing() {
    let (ctx, server, _data) = with_server();
    let source = ctx.package(
        "source",
        "name: source\nversion: \"1.0.0\"\npublish: {to: \"stone:shared\", public: true}\nresources:\n  - path: capitals.ttl\n  - path: cities.csv\n",
        &[("capitals.ttl", CAPITALS), ("cities.csv", CITIES)],
    );
    push(&ctx, &source, &["--branch", "dev"]);
    let dir = consumer(&ctx);

    // A named version is the Iceberg tag the push set; an unknown one is not found.
    let tagged = import_ok(
        &ctx,
        &dir,
        &from_dev("stone:shared/cities", &["--version", "1.0.0"]),
    );
    assert_eq!(tagged["entry"]["version"], "1.0.0", "{tagged:#}");
    assert_eq!(
        read_parquet(&dir.join("ext/cities/cities.parquet"))["rows"][0]["city"],
        "Paris"
    );
    std::fs::remove_dir_all(dir.join("ext")).unwrap();
    let untagged = import(
        &ctx,
        &dir,
        &from_dev("stone:shared/cities", &["--version", "2.0.0"]),
    );
    assert_eq!(
        untagged.status.code(),
        Some(1),
        "{}",
        crate::stderr(&untagged)
    );
    assert!(
        crate::stderr(&untagged).contains("no version 2.0.0"),
        "{}",
        crate::stderr(&untagged)
    );

    let missing = import(&ctx, &dir, &from_dev("stone:shared/nope", &[]));
    assert_eq!(
        missing.status.code(),
        Some(1),
        "{}",
        crate::stderr(&missing)
    );
    let error: Value = serde_json::from_slice(&missing.stdout).unwrap();
    assert_eq!(error["error"]["code"], "import.not_found");

    let wrong = import(
        &ctx,
        &dir,
        &from_dev("stone:shared/capitals", &["--format", "csv"]),
    );
    assert_eq!(wrong.status.code(), Some(2), "{}", crate::stderr(&wrong));
    assert!(
        crate::stderr(&wrong).contains("ttl, nt, jsonld"),
        "{}",
        crate::stderr(&wrong)
    );

    let http = import(&ctx, &dir, &["http://example.org/a.csv"]);
    assert_eq!(http.status.code(), Some(2));
    assert!(
        crate::stderr(&http).contains("loopback"),
        "{}",
        crate::stderr(&http)
    );

    assert!(files_under(&dir.join("ext")).is_empty());
    drop(server);
}

#[test]
fn imports_from_s3_a_plain_http_server_and_a_local_file() {
    let mut ctx = crate::context();
    let dir = consumer(&ctx);

    // S3 (SeaweedFS), credentials from the usual AWS variables.
    let s3 = SeaweedFs::shared();
    let bucket = format!("imports-{}", std::process::id());
    s3.create_bucket(&bucket);
    s3.put_object(&bucket, "lakes/lakes.csv", b"lake,area\nLeman,580\n");
    for (key, value) in s3.aws_env() {
        ctx.set_var(key, value);
    }
    let url = format!("s3://{bucket}/lakes/lakes.csv");
    let lakes = import_ok(&ctx, &dir, &[&url]);
    assert_eq!(lakes["status"], "imported", "{lakes:#}");
    assert_eq!(lakes["entry"]["path"], "ext/lakes/lakes.csv");
    assert_eq!(
        std::fs::read(dir.join("ext/lakes/lakes.csv")).unwrap(),
        b"lake,area\nLeman,580\n"
    );
    let again = import_ok(&ctx, &dir, &[&url]);
    assert_eq!(
        (again["status"].as_str(), again["downloaded_bytes"].as_u64()),
        (Some("unchanged"), Some(0)),
        "{again:#}"
    );
    s3.put_object(
        &bucket,
        "lakes/lakes.csv",
        b"lake,area\nLeman,580\nAnnecy,27\n",
    );
    let changed = import_ok(&ctx, &dir, &[&url]);
    assert_eq!(changed["status"], "updated", "{changed:#}");

    // A plain http server (wsgidav on loopback).
    let webdav = WebDavServer::start();
    std::fs::write(webdav.root().join("rivers.tsv"), b"river\tkm\nSeine\t777\n").unwrap();
    let url = format!("{}/rivers.tsv", webdav.base_url().trim_end_matches('/'));
    let rivers = import_ok(&ctx, &dir, &[&url, "--as", "rivers"]);
    assert_eq!(
        rivers["entry"]["path"], "ext/rivers/rivers.tsv",
        "{rivers:#}"
    );
    assert_eq!(
        std::fs::read(dir.join("ext/rivers/rivers.tsv")).unwrap(),
        b"river\tkm\nSeine\t777\n"
    );
    let again = import_ok(&ctx, &dir, &[&url, "--as", "rivers"]);
    assert_eq!(again["downloaded_bytes"], 0, "{again:#}");

    // A local file.
    let local = ctx.root().join("elsewhere/peaks.json");
    std::fs::create_dir_all(local.parent().unwrap()).unwrap();
    std::fs::write(&local, b"{\"peak\": \"Mont Blanc\"}").unwrap();
    let url = format!("file://{}", local.display());
    let peaks = import_ok(&ctx, &dir, &[&url]);
    assert_eq!(peaks["entry"]["path"], "ext/peaks/peaks.json");
    assert_eq!(
        peaks["entry"]["sha256"],
        sha256(b"{\"peak\": \"Mont Blanc\"}")
    );
    assert_eq!(import_ok(&ctx, &dir, &[&url])["downloaded_bytes"], 0);
}

/// A fake HTTP server, for faults the real ones do not produce on demand: it sends the
/// headers and the first `sent` bytes of a `length`-byte body, then holds the connection
/// (`hold`) or closes it. It reports the request it received.
fn stalling_server(
    length: usize,
    sent: usize,
    hold: bool,
) -> (String, std::sync::mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/big.bin", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((mut stream, _)) = listener.accept() else {
            return;
        };
        let mut request = Vec::new();
        let mut buffer = [0u8; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => request.extend_from_slice(&buffer[..n]),
            }
        }
        let _ = tx.send(String::from_utf8_lossy(&request).into_owned());
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Length: {length}\r\nContent-Type: application/octet-stream\r\n\r\n"
        );
        let _ = stream.write_all(&vec![b'x'; sent]);
        let _ = stream.flush();
        if hold {
            std::thread::sleep(Duration::from_secs(60));
        }
    });
    (url, rx)
}

fn wait_for_part_file(ext: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !files_under(ext).iter().any(|f| f.ends_with(".part")) {
        assert!(
            Instant::now() < deadline,
            "no download started in {}",
            ext.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_interrupted_or_cut_import_leaves_nothing_in_ext() {
    let mut ctx = crate::context();
    ctx.set_var("STONE_TOKEN", "secret-token-for-the-api-only");
    let dir = consumer(&ctx);
    let ext = dir.join("ext");

    // Interrupted (SIGTERM) mid-download: the temporary file and the folders go.
    let (url, requests) = stalling_server(10_000_000, 65_536, true);
    let child = ctx
        .stone()
        .args(["data", "import"])
        .arg(&url)
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_part_file(&ext);
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", crate::stderr(&out));
    assert!(
        crate::stderr(&out).contains("interrupted"),
        "{}",
        crate::stderr(&out)
    );
    assert!(!ext.exists(), "left behind: {:?}", files_under(&ext));
    // The token is for the environment's API only, never for another host.
    let request = requests.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(
        !request.to_ascii_lowercase().contains("authorization"),
        "{request}"
    );

    // Cut short by the server: an error, and nothing written.
    let (url, _requests) = stalling_server(100_000, 1_000, false);
    let out = import(&ctx, &dir, &[&url]);
    assert!(!out.status.success());
    assert!(!ext.exists(), "left behind: {:?}", files_under(&ext));

    // Killed outright: the next import removes the leftover.
    let (url, _requests) = stalling_server(10_000_000, 65_536, true);
    let mut child = ctx
        .stone()
        .args(["data", "import"])
        .arg(&url)
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_part_file(&ext);
    child.kill().unwrap();
    child.wait().unwrap();
    let local = ctx.root().join("small.txt");
    std::fs::write(&local, b"small").unwrap();
    import_ok(&ctx, &dir, &[&format!("file://{}", local.display())]);
    assert_eq!(
        files_under(&ext),
        ["small/small.txt", "stone-lock.json"],
        "the leftover of the killed import is gone"
    );
}

#[test]
fn named_versions_of_graphs_and_blobs_are_imported_with_their_provenance() {
    let (ctx, _server, _data) = with_server();
    let yaml = |version: &str| {
        format!(
            "name: source\nversion: \"{version}\"\npublish: {{to: \"stone:shared\", public: true}}\nresources:\n  - path: capitals.ttl\n  - path: readings.bin\n  - path: scans\n"
        )
    };
    let readings_two: Vec<u8> = readings().iter().map(|b| b.wrapping_add(1)).collect();
    const CAPITALS_TWO: &[u8] = b"@prefix ex: <http://example.org/> .\nex:Rome ex:capitalOf ex:Italy ; ex:seenBy [ ex:name \"another visitor\" ] .\n";
    let source = ctx.package(
        "source",
        &yaml("1.0.0"),
        &[
            ("capitals.ttl", CAPITALS),
            ("readings.bin", &readings()),
            ("scans/a.bin", b"first a"),
            ("scans/b.txt", b"bee\n"),
        ],
    );
    let v1 = ctx.package("v1-copy", "", &[("capitals.ttl", CAPITALS)]);
    push(&ctx, &source, &["--branch", "dev"]);
    // Version 2.0.0 replaces every dataset's content.
    std::fs::write(source.join("datasets.yaml"), yaml("2.0.0")).unwrap();
    std::fs::write(source.join("capitals.ttl"), CAPITALS_TWO).unwrap();
    std::fs::write(source.join("readings.bin"), &readings_two).unwrap();
    std::fs::write(source.join("scans/a.bin"), b"second a").unwrap();
    std::fs::write(source.join("scans/c.txt"), b"sea\n").unwrap();
    push(&ctx, &source, &["--branch", "dev", "--replace"]);
    let dir = consumer(&ctx);

    // GRAPH: each version is its own graph, isomorphic to what was pushed under it.
    let old = import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/capitals",
            &["--version", "1.0.0", "--as", "capitals-v1"],
        ),
    );
    assert_eq!(old["entry"]["version"], "1.0.0", "{old:#}");
    assert!(isomorphic(
        &v1.join("capitals.ttl"),
        &dir.join("ext/capitals-v1/capitals.ttl")
    ));
    let new = import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/capitals",
            &[
                "--version",
                "2.0.0",
                "--as",
                "capitals-v2",
                "--format",
                "nt",
            ],
        ),
    );
    assert!(isomorphic(
        &source.join("capitals.ttl"),
        &dir.join(new["entry"]["path"].as_str().unwrap())
    ));

    // BLOB of one file: each version's bytes, verified against the sha256 served.
    let old = import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/readings",
            &["--version", "1.0.0", "--as", "readings-v1"],
        ),
    );
    assert_eq!(
        std::fs::read(dir.join("ext/readings-v1/readings.bin")).unwrap(),
        readings()
    );
    assert_eq!(old["entry"]["sha256"], sha256(&readings()), "{old:#}");
    import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/readings",
            &["--version", "2.0.0", "--as", "readings-v2"],
        ),
    );
    assert_eq!(
        std::fs::read(dir.join("ext/readings-v2/readings.bin")).unwrap(),
        readings_two
    );

    // BLOB of several files: the version's file list, not the branch's.
    import_ok(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/scans",
            &["--version", "1.0.0", "--as", "scans-v1"],
        ),
    );
    assert_eq!(files_under(&dir.join("ext/scans-v1")), ["a.bin", "b.txt"]);
    assert_eq!(
        std::fs::read(dir.join("ext/scans-v1/a.bin")).unwrap(),
        b"first a"
    );

    // The lock file records the version of each import.
    let lock: Value =
        serde_json::from_slice(&std::fs::read(dir.join("ext/stone-lock.json")).unwrap()).unwrap();
    for (slug, version) in [
        ("capitals-v1", "1.0.0"),
        ("capitals-v2", "2.0.0"),
        ("readings-v1", "1.0.0"),
        ("readings-v2", "2.0.0"),
        ("scans-v1", "1.0.0"),
    ] {
        assert_eq!(lock["imports"][slug]["version"], version, "{lock:#}");
    }

    // A version the dataset does not have: refused, nothing written.
    let missing = import(
        &ctx,
        &dir,
        &from_dev(
            "stone:shared/scans",
            &["--version", "9.9", "--as", "scans-v9"],
        ),
    );
    assert_eq!(
        missing.status.code(),
        Some(1),
        "{}",
        crate::stderr(&missing)
    );
    assert!(
        crate::stderr(&missing).contains("no version 9.9"),
        "{}",
        crate::stderr(&missing)
    );
    assert!(!dir.join("ext/scans-v9").exists());
}

/// A server briefly away: the import's requests go through the client's one retry policy
/// (`stone_http::retry::send`, as the push's do): a 503, a reset connection and a 429 are
/// ridden out. With `STONE_HTTP_RETRIES=0` a failure ends the import, saying what the
/// server answered (the first fault goes to `GET /info`, which the import asks to know
/// whether it needs a token, and goes on without one). (The faults come from the fault proxy in front of the real
/// server: a real server does not fail on cue.)
#[test]
fn an_import_rides_out_a_server_briefly_away_and_gives_up_when_told_not_to_retry() {
    use stone_test::services::{Fault, FaultProxy};
    let (mut ctx, server, _data) = with_server();
    let source = ctx.package(
        "source",
        "name: source\npublish: {to: \"stone:shared\", public: true}\nresources:\n  - path: cities.csv\n",
        &[("cities.csv", CITIES)],
    );
    push(&ctx, &source, &["--branch", "dev"]);
    let target = server.url().trim_start_matches("http://").parse().unwrap();
    let dir = consumer(&ctx);

    let proxy = FaultProxy::start(
        target,
        vec![
            Fault::Unavailable,
            Fault::Reset,
            Fault::TooManyRequests { retry_after: 1 },
        ],
    );
    ctx.add_env("flaky", HOST, &format!("{}/v1", proxy.url()));
    ctx.set_var("STONE_HTTP_RETRIES", "4");
    let cities = import_ok(
        &ctx,
        &dir,
        &["stone:shared/cities", "--env", "flaky", "--branch", "dev"],
    );
    assert_eq!(cities["status"], "imported", "{cities:#}");
    assert_eq!(proxy.injected(), 3, "{:?}", proxy.faults());
    let table = read_parquet(&dir.join("ext/cities/cities.parquet"));
    assert_eq!(table["rows"].as_array().map(Vec::len), Some(3), "{table}");

    let proxy = FaultProxy::start(target, vec![Fault::Unavailable, Fault::Unavailable]);
    ctx.add_env("away", HOST, &format!("{}/v1", proxy.url()));
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let out = import(
        &ctx,
        &dir,
        &[
            "stone:shared/cities",
            "--env",
            "away",
            "--branch",
            "dev",
            "--as",
            "again",
        ],
    );
    let stderr = crate::stderr(&out);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("503"), "{stderr}");
    assert_eq!(proxy.injected(), 2);
    assert!(!dir.join("ext/again").exists(), "{stderr}");
}

/// A dataset IRI's `?branch=` selects the branch, as in a browser (issue 55, item 2: it was
/// dropped, `main` was read and the lock file said `main`); `--branch` must agree with it,
/// and a parameter an import does not select by is refused, naming it.
#[test]
fn an_iri_selects_its_branch_and_the_lock_file_records_it() {
    let (ctx, _server, _data) = with_server();
    let source = ctx.package(
        "source",
        "name: source\npublish: {to: \"stone:shared\", public: true}\nresources:\n  - path: cities.csv\n",
        &[("cities.csv", CITIES)],
    );
    push(&ctx, &source, &["--branch", "quickstart"]);
    let dir = consumer(&ctx);
    let iri = format!("https://{HOST}/shared/cities?branch=quickstart");

    // Only the branch has the dataset: the IRI without its query reads `main`, and fails.
    let plain = format!("https://{HOST}/shared/cities");
    let out = import(&ctx, &dir, &[&plain, "--as", "plain"]);
    assert_eq!(out.status.code(), Some(1), "{}", crate::stderr(&out));
    let imported = import_ok(&ctx, &dir, &[&iri, "--format", "csv"]);
    assert_eq!(imported["entry"]["branch"], "quickstart", "{imported:#}");
    let csv = std::fs::read_to_string(dir.join("ext/cities/cities.csv")).unwrap();
    assert!(csv.contains("Lille"), "{csv}");
    let lock: Value =
        serde_json::from_slice(&std::fs::read(dir.join("ext/stone-lock.json")).unwrap()).unwrap();
    assert_eq!(
        lock["imports"]["cities"]["branch"], "quickstart",
        "{lock:#}"
    );
    assert_eq!(lock["imports"]["cities"]["source"], iri);
    assert!(
        lock["imports"]["cities"]["resolved"]
            .as_str()
            .is_some_and(|r| r.contains("branch=quickstart")),
        "{lock:#}"
    );

    // The same branch with --branch too is fine; another one is a usage error.
    let again = import_ok(
        &ctx,
        &dir,
        &[&iri, "--format", "csv", "--branch", "quickstart"],
    );
    assert_eq!(again["status"], "unchanged", "{again:#}");
    let out = import(
        &ctx,
        &dir,
        &[&iri, "--format", "csv", "--branch", "dev", "--as", "x"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", crate::stderr(&out));
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["code"], "import.invalid_option");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--branch dev and the IRI's `branch=quickstart` disagree"),
        "{error:#}"
    );

    // A parameter an import does not select by is named, not ignored.
    let odd = format!("https://{HOST}/shared/cities?snapshot=1");
    let out = import(&ctx, &dir, &[&odd, "--as", "y"]);
    assert_eq!(out.status.code(), Some(2), "{}", crate::stderr(&out));
    let error: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["code"], "import.invalid_source");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`snapshot=`"),
        "{error:#}"
    );
    assert!(!dir.join("ext/x").exists() && !dir.join("ext/y").exists());
}
