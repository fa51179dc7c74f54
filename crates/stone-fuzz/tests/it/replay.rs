use std::path::PathBuf;

/// This package's directory: `CARGO_MANIFEST_DIR` at run time first (cargo may reuse a
/// build of another clone sharing the target directory, with that clone's path compiled in).
fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

fn corpus(target: &str) -> PathBuf {
    package_dir().join("../../fuzz/corpus").join(target)
}

fn replay(target: &str) {
    let dir = corpus(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "cannot read the corpus {}: {e} (it is kept in the repository; scripts/fuzz grows it)",
            dir.display()
        )
    });
    let mut count = 0;
    for entry in entries {
        let path = entry.expect("a corpus entry").path();
        let data = std::fs::read(&path).expect("a corpus file");
        let outcome = std::panic::catch_unwind(|| stone_fuzz::run(target, &data));
        assert!(
            outcome.is_ok(),
            "{target}: {} makes the target panic",
            path.display()
        );
        count += 1;
    }
    assert!(
        count >= 5,
        "{target}: only {count} corpus files in {}",
        dir.display()
    );
}

#[test]
fn every_target_has_a_corpus_and_a_fuzz_target() {
    let fuzz = package_dir().join("../../fuzz");
    for target in stone_fuzz::TARGETS {
        assert!(corpus(target).is_dir(), "no corpus for {target}");
        let source = fuzz.join("fuzz_targets").join(format!("{target}.rs"));
        let text = std::fs::read_to_string(&source)
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        assert!(
            text.contains(&format!("stone_fuzz::run({target:?}")),
            "{} does not call stone_fuzz::run({target:?}, …)",
            source.display()
        );
    }
}

#[test]
fn staging_pack_corpus() {
    replay("staging_pack");
}

#[test]
fn datasets_yaml_corpus() {
    replay("datasets_yaml");
}

#[test]
fn csv_to_parquet_corpus() {
    replay("csv_to_parquet");
}

#[test]
fn rdf_corpus() {
    replay("rdf");
}

#[test]
fn plugin_message_corpus() {
    replay("plugin_message");
}

#[test]
fn push_manifest_corpus() {
    replay("push_manifest");
}

#[test]
fn staging_url_corpus() {
    replay("staging_url");
}

#[test]
fn path_rule_corpus() {
    replay("path_rule");
}

#[test]
fn parquet_footer_corpus() {
    replay("parquet_footer");
}

#[test]
fn csv_dialect_corpus() {
    replay("csv_dialect");
}

#[test]
fn lock_file_corpus() {
    replay("lock_file");
}
