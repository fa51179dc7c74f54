//! One table of error codes → exit status (issue 55, item 12): every code stone raises or
//! knows is in it, `stone --help` prints its statuses, docs/guide.md lists every code under
//! its status, and the statuses the binary exits with follow it (`version.exists` is a
//! guard's refusal, a `..` path a package error, an unclaimed destination a usage error).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;
use stone::codes::{ExitStatus, TABLE};
use stone_test::tools::workspace_root;

use crate::{context, context_with_prod, stderr};

/// The families of stone's dotted codes.
const FAMILIES: &[&str] = &[
    "auth",
    "authz",
    "config",
    "dataset",
    "engine",
    "env",
    "events",
    "format",
    "graph",
    "iceberg",
    "import",
    "man",
    "manifest",
    "namespace",
    "package",
    "plugin",
    "push",
    "request",
    "schema",
    "server",
    "sparql",
    "staging",
    "subscription",
    "tabular",
    "usage",
    "version",
];

fn is_code(text: &str) -> bool {
    text == "internal"
        || text.split_once('.').is_some_and(|(family, name)| {
            FAMILIES.contains(&family)
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
}

/// The string literals of `text` that are codes.
fn literals(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|piece| is_code(piece))
        .map(str::to_owned)
        .collect()
}

/// The body of every `fn code(` of a source file (up to the end of its block).
fn code_functions(text: &str) -> String {
    let mut bodies = String::new();
    for (at, _) in text.match_indices("fn code(") {
        let rest = &text[at..];
        let end = rest.find("\n    }\n").unwrap_or(rest.len());
        bodies.push_str(&rest[..end]);
    }
    bodies
}

/// Every code the sources define: the CLI's table and config errors, the server's codes,
/// the package model's, and what the `code()` of each library error returns.
fn codes_in_the_sources() -> BTreeSet<String> {
    let root = workspace_root();
    // Without the unit tests (their made-up codes).
    let read = |path: &str| {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        match text.find("#[cfg(test)]") {
            Some(at) => text[..at].to_owned(),
            None => text,
        }
    };
    let mut found = BTreeSet::new();
    // Whole files of codes.
    for path in [
        "crates/stone/src/codes.rs",
        "crates/stone-package/src/codes.rs",
    ] {
        found.extend(literals(&read(path)));
    }
    // The server's codes: the module `codes` of the wire types.
    let problem = read("crates/stone-api/src/problem.rs");
    let module = &problem[problem.find("pub mod codes").expect("stone_api::codes")..];
    found.extend(literals(module));
    // The library errors' `code()`.
    for path in [
        "crates/stone/src/config.rs",
        "crates/stone-auth/src/lib.rs",
        "crates/stone-formats/src/lib.rs",
        "crates/stone-push/src/error.rs",
        "crates/stone-push/src/external.rs",
    ] {
        let bodies = code_functions(&read(path));
        assert!(!bodies.is_empty(), "{path} has a `fn code(`");
        found.extend(literals(&bodies));
    }
    found
}

/// The guide's "Exit codes" table: each code and the exit status of its row.
fn guide_table() -> BTreeMap<String, u8> {
    let guide = std::fs::read_to_string(workspace_root().join("docs/guide.md")).unwrap();
    let heading = "\n## Exit codes\n";
    let start = guide.find(heading).expect("docs/guide.md: ## Exit codes") + heading.len();
    let mut table = BTreeMap::new();
    for line in guide[start..].lines() {
        if line.starts_with("## ") {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(status) = cells.get(1).and_then(|c| c.parse::<u8>().ok()) else {
            continue;
        };
        for code in line.split('`').skip(1).step_by(2).filter(|c| is_code(c)) {
            let before = table.insert(code.to_owned(), status);
            assert!(
                before.is_none(),
                "docs/guide.md lists `{code}` twice in Exit codes"
            );
        }
    }
    table
}

#[test]
fn every_code_has_one_exit_status_and_the_guide_and_help_say_it() {
    let table: BTreeMap<&str, ExitStatus> = TABLE.iter().map(|c| (c.name, c.status)).collect();
    assert_eq!(
        table.len(),
        TABLE.len(),
        "a code is twice in stone::codes::TABLE"
    );

    // Every code of the sources is in the table, and the table has no other.
    let sources = codes_in_the_sources();
    assert!(
        sources.len() > 100,
        "{} codes found: {sources:?}",
        sources.len()
    );
    let missing: Vec<_> = sources
        .iter()
        .filter(|c| !table.contains_key(c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "codes without an exit status in stone::codes::TABLE: {missing:?}"
    );
    let stale: Vec<_> = table.keys().filter(|c| !sources.contains(**c)).collect();
    assert!(
        stale.is_empty(),
        "codes of the table no source raises: {stale:?}"
    );

    // The guide lists every code, under the table's status.
    let guide = guide_table();
    for (code, status) in &table {
        match guide.get(*code) {
            None => panic!("docs/guide.md (Exit codes) does not list `{code}`"),
            Some(listed) => assert_eq!(
                *listed, *status as u8,
                "docs/guide.md lists `{code}` under {listed}; it exits {}",
                *status as u8
            ),
        }
    }
    let unknown: Vec<_> = guide
        .keys()
        .filter(|c| !table.contains_key(c.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "docs/guide.md lists codes stone does not have: {unknown:?}"
    );

    // The named decisions of issue 55, item 12.
    assert_eq!(table["version.exists"], ExitStatus::Refused);
    assert_eq!(table["package.path_refused"], ExitStatus::Failure);
    assert_eq!(table["package.ext_zone"], ExitStatus::Refused);
    assert_eq!(table["push.no_handler"], ExitStatus::Usage);

    // `stone --help` and `stone package push --help` print every status with its meaning.
    let ctx = context();
    for args in [&["--help"][..], &["package", "push", "--help"]] {
        let out = ctx.stone().args(args).output().unwrap();
        assert!(out.status.success());
        let help = crate::stdout(&out);
        for status in ExitStatus::ALL {
            let line = format!("  {:<4} {}", status as u8, status.meaning());
            assert!(
                help.contains(&line),
                "stone {args:?} lacks `{line}`:\n{help}"
            );
        }
        assert!(help.contains("docs/guide.md"), "{help}");
    }
}

/// `stone package push --json` of `dir` with `args`: the exit status and the error's code.
fn refusal(ctx: &stone_test::TestContext, dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = ctx
        .stone()
        .args(["package", "push", "--json"])
        .args(args)
        .arg(dir)
        .output()
        .unwrap();
    let error: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON on stdout ({e}):\n{}", stderr(&out)));
    let code = error["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(
        out.status.code().map(|s| s as u8),
        stone::codes::lookup(&code).map(|s| s as u8),
        "{code} exits with the table's status: {}",
        stderr(&out)
    );
    (out.status.code(), code)
}

#[test]
fn a_path_out_of_the_package_is_a_package_error_and_no_handler_a_usage_error() {
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: ../secret.csv}]\n",
        &[("a.csv", b"x\n1\n")],
    );
    let (status, code) = refusal(&ctx, &dir, &["--dry-run", "--branch", "b"]);
    assert_eq!((status, code.as_str()), (Some(1), "package.path_refused"));

    let dir = ctx.package(
        "fine",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[("a.csv", b"x\n1\n")],
    );
    let (status, code) = refusal(
        &ctx,
        &dir,
        &["--dry-run", "--branch", "b", "--to", "nothing:x"],
    );
    assert_eq!((status, code.as_str()), (Some(2), "push.no_handler"));
}

/// Other content under a package version already pushed to a protected ref, without
/// `--force`: the server's guard refuses it (`version.exists`), and stone exits 4 as for
/// every guard (it exited 1).
#[test]
fn a_taken_version_on_a_protected_ref_exits_as_a_guard_refusal() {
    let (ctx, _server, _data) =
        crate::push_e2e::with_server_config("[local]\nroles = [\"protected-write\"]\n");
    let descriptor = "name: v\nversion: \"1.0\"\npublish: {to: \"stone:versions\"}\nresources:\n  - path: people.csv\n";
    let dir = ctx.package("pkg", descriptor, &[("people.csv", b"id\n1\n")]);
    let push = |extra: &[&str]| {
        ctx.stone()
            .args([
                "package", "push", "--env", "local", "--branch", "main", "--yes", "--json",
            ])
            .args(extra)
            .arg(&dir)
            .output()
            .unwrap()
    };
    let first = push(&[]);
    assert!(first.status.success(), "{}", stderr(&first));

    std::fs::write(dir.join("people.csv"), "id\n2\n").unwrap();
    let (status, code) = refusal(&ctx, &dir, &["--env", "local", "--branch", "main", "--yes"]);
    assert_eq!((status, code.as_str()), (Some(4), "version.exists"));
}

/// Errors provoked through the binary exit with their code's status in the table, whatever
/// part of stone raises them (the CLI, the package model, the config, the push plan).
#[test]
fn provoked_errors_exit_with_their_codes_status() {
    let ctx = context_with_prod();
    let csv: &[(&str, &[u8])] = &[("a.csv", b"x\n1\n")];
    let fine = ctx.package(
        "fine",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        csv,
    );
    let bare = ctx.root().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    let cases: Vec<(&str, std::path::PathBuf, Vec<&str>)> = vec![
        (
            "env.unknown",
            fine.clone(),
            vec!["--dry-run", "--branch", "b", "--env", "nope"],
        ),
        ("push.no_branch", fine.clone(), vec!["--dry-run"]),
        (
            "package.no_descriptor",
            bare.clone(),
            vec!["--dry-run", "--branch", "b"],
        ),
        (
            "package.no_folder",
            ctx.root().join("nowhere"),
            vec!["--dry-run", "--branch", "b"],
        ),
        (
            "package.invalid",
            ctx.package(
                "invalid",
                "publish: {to: \"stone:t\"}\nbranch: main\nresources: [{path: a.csv}]\n",
                csv,
            ),
            vec!["--dry-run", "--branch", "b"],
        ),
        (
            "package.ext_zone",
            ctx.package(
                "ext",
                "publish: {to: \"stone:t\"}\nresources: [{path: ext/o/a.csv}]\n",
                &[("ext/o/a.csv", b"x\n1\n")],
            ),
            vec!["--dry-run", "--branch", "b"],
        ),
        (
            "usage.invalid_destination",
            fine.clone(),
            vec!["--dry-run", "--branch", "b", "--to", "stone:demo/towns"],
        ),
        (
            "push.prod_confirmation_required",
            fine.clone(),
            vec![
                "--branch",
                "b",
                "--to",
                "file:///nonexistent/stone-exit-codes",
            ],
        ),
    ];
    for (expected, dir, args) in cases {
        let (status, code) = refusal(&ctx, &dir, &args);
        assert_eq!(code, expected, "{args:?}");
        let table = stone::codes::lookup(&code).map(|s| s as u8 as i32);
        assert_eq!(status, table, "{code}");
    }
}
