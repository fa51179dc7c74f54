//! What each fuzz target does with its input, as plain functions: `fuzz/fuzz_targets/<target>.rs`
//! (cargo-fuzz, libFuzzer) calls [`run`] with its name, and this crate's test replays
//! every file of `fuzz/corpus/<target>/` through the same call on stable Rust.
//!
//! A target may return early or get an error from the code under test; what it must never
//! do is panic (the fuzzer reports a panic, or an abort, as a crash). Where a property is
//! cheap to check (a parsed message prints back to itself, a signed URL verifies), the
//! target asserts it too.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use stone_api::signature::{SigningKey, content_message, part_message};
use stone_formats::CsvOptions;
use stone_package::{Dialect, Format};
use stone_plugin_protocol::message::{
    CanHandleParams, InitializeParams, InitializeResult, Kind, LogParams, Message, ProgressParams,
};

/// The fuzz targets, by name (`cargo fuzz run <name>`, `fuzz/corpus/<name>/`).
pub const TARGETS: &[&str] = &[
    "datasets_yaml",
    "csv_to_parquet",
    "rdf",
    "plugin_message",
    "push_manifest",
    "staging_url",
    "staging_pack",
    "path_rule",
    "parquet_footer",
    "csv_dialect",
    "lock_file",
];

/// Runs the target `name` on `data`. Panics only if the code under test does (or breaks a
/// property the target checks), or if `name` is not one of [`TARGETS`].
pub fn run(name: &str, data: &[u8]) {
    match name {
        "datasets_yaml" => datasets_yaml(data),
        "csv_to_parquet" => csv_to_parquet(data),
        "rdf" => rdf(data),
        "plugin_message" => plugin_message(data),
        "push_manifest" => push_manifest(data),
        "staging_url" => staging_url(data),
        "staging_pack" => staging_pack(data),
        "path_rule" => path_rule(data),
        "parquet_footer" => parquet_footer(data),
        "csv_dialect" => csv_dialect(data),
        "lock_file" => lock_file(data),
        other => panic!("no fuzz target {other:?}; the targets are {TARGETS:?}"),
    }
}

/// A scratch directory for the whole process (one fuzzing process runs one input at a time).
fn scratch() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("stone-fuzz-")
            .tempdir()
            .expect("a temporary directory");
        // What the descriptors of the datasets_yaml corpus point at.
        let root = dir.path().join("package");
        std::fs::create_dir_all(root.join("dir/sub")).expect("scratch package");
        std::fs::create_dir_all(root.join("ext")).expect("scratch package");
        for (path, text) in [
            ("a.csv", "x,y\n1,2\n"),
            ("b.tsv", "x\ty\n1\t2\n"),
            ("g.ttl", "<urn:a> <urn:b> <urn:c> .\n"),
            ("dir/f.bin", "f"),
            ("dir/sub/g.txt", "g"),
            ("ext/e.parquet", "not parquet"),
        ] {
            std::fs::write(root.join(path), text).expect("scratch package");
        }
        dir
    })
    .path()
}

fn scratch_file(name: &str, data: &[u8]) -> PathBuf {
    let path = scratch().join(name);
    std::fs::write(&path, data).expect("scratch file");
    path
}

/// The `datasets.yaml` loader: parse, resolve paths against a small package, kinds, slugs.
pub fn datasets_yaml(data: &[u8]) {
    let root = scratch().join("package");
    let text = String::from_utf8_lossy(data);
    let _ = stone_package::package::resolve(&root, &root.join("datasets.yaml"), &text);
}

/// CSV/TSV → Parquet. The first byte picks the dialect (format, delimiter, header, quote,
/// comment, null sequence); the rest is the file.
pub fn csv_to_parquet(data: &[u8]) {
    let Some((&flags, body)) = data.split_first() else {
        return;
    };
    let format = if flags & 1 == 0 {
        Format::Csv
    } else {
        Format::Tsv
    };
    let dialect = Dialect {
        delimiter: match (flags >> 1) & 3 {
            0 => None,
            1 => Some(';'),
            2 => Some('|'),
            _ => Some('\t'),
        },
        header: Some(flags & 8 == 0),
        quote_char: (flags & 16 != 0).then_some('\''),
        comment_char: (flags & 32 != 0).then_some('#'),
        null_sequence: (flags & 64 != 0).then(|| "NA".to_owned()),
        escape_char: (flags & 128 != 0).then_some('\\'),
        ..Dialect::default()
    };
    let src = scratch_file("input.csv", body);
    let dst = scratch().join("output.parquet");
    let Ok(options) = CsvOptions::new(&src, format, Some(&dialect)) else {
        return;
    };
    if let Ok(conversion) = stone_formats::csv_to_parquet(&src, &dst, &options, None, &|_| {}) {
        // What was written reads back with the columns the conversion reported.
        let columns = stone_formats::parquet_columns(&dst).expect("the Parquet file reads back");
        assert_eq!(columns.len(), conversion.columns.len());
    }
}

/// The Parquet footer check both the CLI and the server run before the parquet crate
/// reads a footer: the input is a whole file. A footer the check lets through must then
/// parse (or fail) in the parquet crate without a crash: no stack overflow, no panic.
pub fn parquet_footer(data: &[u8]) {
    use stone_formats::footer::{FooterError, ParquetLimits, check_parquet_footer_bytes};
    let limits = ParquetLimits::default();
    match check_parquet_footer_bytes(data, &limits) {
        Ok(shape) => {
            assert!(shape.depth <= limits.max_depth && shape.columns <= limits.max_columns);
            let file = bytes::Bytes::copy_from_slice(data);
            if let Ok(metadata) =
                parquet::file::metadata::ParquetMetaDataReader::new().parse_and_finish(&file)
            {
                let schema = metadata.file_metadata().schema_descr();
                let _ = parquet::arrow::parquet_to_arrow_schema(schema, None);
            }
        }
        Err(FooterError::Limit { limit, found, .. }) => assert!(found > limit),
        Err(FooterError::Malformed(_)) => {}
    }
}

/// CSV dialect edge cases (unclosed quotes, huge records, chunk boundaries). The first
/// byte picks the dialect as in [`csv_to_parquet`], the second the record limit (16 bytes
/// to 2 KiB) and the chunk size; the rest is the file. An error for an unclosed quote or a
/// record past the limit names the line and column; a conversion that succeeds reads back.
pub fn csv_dialect(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Some((&sizes, body)) = rest.split_first() else {
        return;
    };
    let dialect = Dialect {
        header: Some(flags & 1 == 0),
        quote_char: (flags & 2 != 0).then_some('\''),
        comment_char: (flags & 4 != 0).then_some('#'),
        escape_char: (flags & 8 != 0).then_some('\\'),
        delimiter: (flags & 16 != 0).then_some(';'),
        ..Dialect::default()
    };
    let src = scratch_file("dialect.csv", body);
    let dst = scratch().join("dialect.parquet");
    let Ok(mut options) = CsvOptions::new(&src, Format::Csv, Some(&dialect)) else {
        return;
    };
    options.max_record_bytes = 16 << (sizes & 7);
    let tuning = stone_formats::Tuning {
        workers: 2,
        chunk_bytes: 16 + usize::from(sizes >> 3) * 16,
    };
    match stone_formats::csv_to_parquet_tuned(&src, &dst, &options, None, &|_| {}, tuning) {
        Ok(conversion) => {
            let columns =
                stone_formats::parquet_columns(&dst).expect("the Parquet file reads back");
            assert_eq!(columns.len(), conversion.columns.len());
        }
        Err(e) => {
            let message = e.to_string();
            if e.code() == "format.limit_exceeded" || message.contains("never closed") {
                assert!(
                    message.contains("line ") && message.contains(", column "),
                    "{message}"
                );
            }
        }
    }
}

/// RDF validation. The first byte picks Turtle, N-Triples or JSON-LD; the rest is the file.
pub fn rdf(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let (name, format) = match which % 3 {
        0 => ("input.ttl", Format::Turtle),
        1 => ("input.nt", Format::NTriples),
        _ => ("input.jsonld", Format::JsonLd),
    };
    let path = scratch_file(name, body);
    let _ = stone_formats::rdf::validate_rdf(&path, format);
}

/// The plugin protocol: each line is a message from a peer. A message that parses prints
/// back to a line that parses to the same message; known methods' params are read into
/// their types.
pub fn plugin_message(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        let Ok(message) = Message::parse(line) else {
            continue;
        };
        let printed = message.to_line();
        let again = Message::parse(&printed).expect("a printed message parses");
        assert_eq!(again.to_line(), printed, "printing is stable");
        match message.kind() {
            Ok(Kind::Request { method, params, .. } | Kind::Notification { method, params }) => {
                let params = params.cloned().unwrap_or_default();
                let _ = match method {
                    "initialize" => serde_json::from_value::<InitializeParams>(params).is_ok(),
                    "can_handle" => serde_json::from_value::<CanHandleParams>(params).is_ok(),
                    "progress" => serde_json::from_value::<ProgressParams>(params).is_ok(),
                    "log" => serde_json::from_value::<LogParams>(params).is_ok(),
                    _ => false,
                };
            }
            Ok(Kind::Response {
                outcome: Ok(result),
                ..
            }) => {
                let _ = serde_json::from_value::<InitializeResult>(result.clone());
                let _ = serde_json::from_value::<bool>(result.clone());
            }
            Ok(Kind::Response {
                outcome: Err(_), ..
            }) => {}
            Err(_) => panic!("Message::parse accepted a message kind() refuses"),
        }
    }
}

/// `POST /pushes`: the body read into the wire type, then the server's checks. A manifest
/// that passes prints back to JSON that reads to the same manifest.
pub fn push_manifest(data: &[u8]) {
    let Ok(manifest) = serde_json::from_slice::<stone_api::CreatePush>(data) else {
        return;
    };
    if stone_api::validate::validate_manifest(&manifest).is_ok() {
        let json = serde_json::to_vec(&manifest).expect("a manifest serializes");
        let again: stone_api::CreatePush =
            serde_json::from_slice(&json).expect("a printed manifest reads back");
        assert_eq!(again, manifest);
    }
}

/// A local staging upload URL (`/v1/staging/{sha256}[/parts/{n}]?…&sig=…`): the query
/// read as the server reads it (form-urlencoded pairs, numbers as u64), the signature
/// checked. An arbitrary URL does not verify; re-signing its parameters does.
pub fn staging_url(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (path, query) = text.split_once('?').unwrap_or((&text, ""));
    let pairs: std::collections::HashMap<String, String> =
        url::form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
    let number = |name: &str| pairs.get(name).and_then(|v| v.parse::<u64>().ok());
    let key = SigningKey::from_bytes(&[0x5a; 32]);
    let Some(rest) = path.strip_prefix("/v1/staging/") else {
        return;
    };
    let (Some(size), Some(expires), Some(sig)) =
        (number("size"), number("expires"), pairs.get("sig"))
    else {
        return;
    };
    let message = match rest.split_once("/parts/") {
        None => content_message(rest, size, expires),
        Some((sha256, part)) => {
            let (Ok(part), Some(upload), Some(offset)) =
                (part.parse::<u32>(), pairs.get("upload"), number("offset"))
            else {
                return;
            };
            part_message(sha256, part, upload, offset, size, expires)
        }
    };
    let verified = key.verify(&message, sig);
    let signature = key.sign(&message);
    assert!(key.verify(&message, &signature), "a signature verifies");
    assert_eq!(
        verified,
        *sig == signature,
        "only the exact signature verifies"
    );
}

/// A pack body (issue 27, `stone_api::pack`), as the local staging store reads it from an
/// upload: the first byte is the size of the pieces the rest is fed in (1 to 256 bytes).
/// Whatever the bytes, the decoder never holds more than its limits; a body it reads
/// whole is the records of what it handed back, byte for byte (one form per pack), and
/// reads the same in pieces of any size.
pub fn staging_pack(data: &[u8]) {
    use stone_api::pack::{PackDecoder, PackLimits, record_header};
    let Some((&step, body)) = data.split_first() else {
        return;
    };
    let limits = PackLimits {
        max_bytes: 1 << 16,
        max_members: 16,
        max_member_size: 4096,
    };
    let decode = |step: usize| {
        let mut decoder = PackDecoder::new(limits);
        let mut members = Vec::new();
        for chunk in body.chunks(step) {
            decoder.feed(chunk, &mut members)?;
        }
        decoder.finish().map(|count| (count, members))
    };
    let pieces = decode(usize::from(step) + 1);
    assert_eq!(pieces, decode(body.len().max(1)), "the same in one piece");
    let Ok((count, members)) = pieces else {
        return;
    };
    assert_eq!(count as usize, members.len());
    assert!(members.len() <= 16);
    let mut again = Vec::new();
    for member in &members {
        assert!(member.bytes.len() <= 4096);
        again
            .extend_from_slice(record_header(&member.sha256, member.bytes.len() as u64).as_bytes());
        again.extend_from_slice(&member.bytes);
    }
    assert_eq!(again, body, "a pack read whole is its records");
}

/// The one path rule (`stone_package::path`) and the lock file (`ext/stone-lock.json`),
/// which trusts nothing it reads. The input is a path (the rule's properties are checked:
/// what passes is unchanged and every component is a plain name), and then a lock file:
/// one that parses names only paths that pass the rule, each in its own `ext/<key>/`, and
/// prints back to itself.
pub fn path_rule(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for candidate in [&*text, text.lines().next().unwrap_or_default()] {
        check_path_properties(candidate);
    }
    if let Ok(lock) = stone_package::lock::LockFile::parse(data) {
        check_lock_properties(&lock);
    }
}

/// The lock file (`ext/stone-lock.json`, `stone_package::lock`), which comes with a package
/// from anyone. The input is read twice:
///
/// - as the file itself: what parses has only dataset names as keys, names only paths that
///   pass the path rule, each in its own `ext/<key>/`, and prints back to itself;
/// - as lines `key`, `path`, `file path`…, made into a well-formed lock file of one entry
///   (so that the fuzzer reaches the checks without having to write JSON): it is accepted
///   exactly when the key is a dataset name and every path passes the path rule and lies
///   in `ext/<key>/` (the entry's own path may be that folder when it lists files).
pub fn lock_file(data: &[u8]) {
    use stone_package::lock::LockFile;
    if let Ok(lock) = LockFile::parse(data) {
        check_lock_properties(&lock);
    }
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let key = lines.next().unwrap_or_default();
    let path = lines.next().unwrap_or_default();
    let files: Vec<&str> = lines.collect();
    let json = serde_json::json!({
        "version": stone_package::lock::LOCK_VERSION,
        "imports": {key: {
            "source": "stone:fuzz/lock", "resolved": "https://fuzz.invalid/lock",
            "path": path, "sha256": "00", "size": 0, "imported_at": "2026-01-01T00:00:00Z",
            "files": files.iter().map(|f| serde_json::json!({"path": f, "sha256": "00", "size": 0})).collect::<Vec<_>>(),
        }},
    });
    let bytes = serde_json::to_vec(&json).expect("a lock file serializes");
    let parsed = LockFile::parse(&bytes);
    if let Ok(lock) = &parsed {
        check_lock_properties(lock);
    }
    let folder = format!("ext/{key}");
    let inside = |path: &str, whole_folder: bool| {
        stone_package::check_relative_path(path).is_ok()
            && (path.starts_with(&format!("{folder}/")) || (whole_folder && path == folder))
    };
    let expected = stone_package::Label::parse(key).is_ok()
        && inside(path, !files.is_empty())
        && files.iter().all(|f| inside(f, false));
    assert_eq!(
        parsed.is_ok(),
        expected,
        "key {key:?}, path {path:?}, files {files:?}: {parsed:?}"
    );
}

/// What every lock file that parses holds (see [`lock_file`]).
fn check_lock_properties(lock: &stone_package::lock::LockFile) {
    for (key, entry) in &lock.imports {
        assert!(
            stone_package::Label::parse(key).is_ok(),
            "the lock file accepted the key {key:?}"
        );
        let folder = format!("ext/{key}");
        for path in std::iter::once(&entry.path).chain(entry.files.iter().map(|f| &f.path)) {
            check_path_properties(path);
            assert!(
                stone_package::check_relative_path(path).is_ok(),
                "the lock file accepted {path:?}"
            );
            assert!(
                path == &folder || path.starts_with(&format!("{folder}/")),
                "the lock file accepted {path:?} for the entry {key:?}"
            );
        }
    }
    let printed = serde_json::to_vec(lock).expect("a lock file serializes");
    let again =
        stone_package::lock::LockFile::parse(&printed).expect("a printed lock file reads back");
    assert_eq!(
        serde_json::to_value(&again).expect("serializes"),
        serde_json::to_value(lock).expect("serializes")
    );
}

fn check_path_properties(path: &str) {
    let Ok(checked) = stone_package::check_relative_path(path) else {
        return;
    };
    assert_eq!(checked.as_str(), path, "the rule never rewrites");
    for component in std::path::Path::new(path).components() {
        assert!(
            matches!(component, std::path::Component::Normal(_)),
            "{path:?} passed with the component {component:?}"
        );
    }
    for segment in checked.segments() {
        assert!(!matches!(segment.trim(), "" | "." | ".."), "{path:?}");
        assert_eq!(segment.trim(), segment, "{path:?}");
        assert!(!segment.contains(['\\', '\0']), "{path:?}");
        if let Ok(name) = stone_package::check_file_name(segment) {
            assert_eq!(name.as_str(), segment);
        } else {
            panic!("{segment:?} passed in {path:?} but not as a file name");
        }
    }
}
