//! The README's first command, `scripts/quickstart`, end to end: a local `stone-server`
//! on the embedded defaults, a push of `examples/quickstart`, every dataset read back, an
//! import, an unchanged push. It runs with this build's binaries (`STONE_BIN_DIR`), so the
//! script's own `cargo build` line is the one part not run here (CI builds the same crates
//! just before).

use std::process::Command;

use stone_test::context::isolate;
use stone_test::services::StoneServer;
use stone_test::tools::workspace_root;

use crate::{context, stderr, stdout};

#[test]
fn the_quickstart_script_pushes_reads_back_and_repushes_unchanged() {
    let ctx = context();
    // Both binaries in one folder, as the script expects.
    let bin = ctx.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_stone"), bin.join("stone")).unwrap();
    std::os::unix::fs::symlink(StoneServer::binary(), bin.join("stone-server")).unwrap();

    let mut command = Command::new(workspace_root().join("scripts/quickstart"));
    isolate(&mut command, &ctx.home);
    command
        .env("STONE_BIN_DIR", &bin)
        .env("TMPDIR", ctx.root())
        .stdin(std::process::Stdio::null());
    let out = command.output().expect("scripts/quickstart starts");
    let (text, errors) = (stdout(&out), stderr(&out));
    assert!(
        out.status.success(),
        "scripts/quickstart failed ({}):\n--- stdout ---\n{text}\n--- stderr ---\n{errors}",
        out.status
    );
    let lines = |needle: &str| text.lines().filter(|l| l.contains(needle)).count();
    // The push: four datasets created, with their https IRIs.
    for dataset in ["cities", "capitals-graph", "map-tile", "sensor-readings"] {
        assert!(
            text.contains(&format!("https://data.localhost/demo/{dataset}")),
            "the result names {dataset}'s IRI:\n{text}"
        );
    }
    assert_eq!(lines(" created "), 4, "four datasets created:\n{text}");
    assert!(
        text.lines().any(|l| l
            .split_whitespace()
            .eq(["DATASET", "KIND", "ENGINE", "STATUS", "IRI"])),
        "the result is a table of dataset, kind, engine, status and IRI:\n{text}"
    );
    // Read back: rows of the table, triples of the graph, bytes of both objects.
    assert!(
        text.lines()
            .any(|l| l.contains("rows in Iceberg table") && !l.contains(" 0 rows")),
        "the table's rows are read back:\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("triples in named graph") && !l.contains(" 0 triples")),
        "the graph's triples are counted:\n{text}"
    );
    assert_eq!(
        lines("identical bytes"),
        2,
        "both objects compared:\n{text}"
    );
    // The page of a dataset, for a browser.
    assert!(
        text.contains("/demo/cities?branch=quickstart") && text.contains("    a page: "),
        "the quickstart prints the dataset page's URL:\n{text}"
    );
    // The import wrote the table's rows as CSV.
    assert!(
        text.contains("==> stone data import") && text.contains("    city,country"),
        "the imported CSV is shown:\n{text}"
    );
    // The second push changes nothing.
    let after = text
        .split("==> pushing again")
        .nth(1)
        .expect("the second push ran");
    assert_eq!(
        after.lines().filter(|l| l.contains(" unchanged ")).count(),
        4,
        "every dataset unchanged on the second push:\n{after}"
    );
    assert!(text.contains("==> done; stopping stone-server"), "{text}");
}
