//! Every datasets.yaml rule, with the exact shape of its error (file, line, column, hint).

use std::os::unix::fs::symlink;

use stone_test::stone_snapshot;

use crate::context_with_prod;

/// Pushes (dry run) a package with `descriptor` and `files`; snapshots the outcome.
fn check(name: &str, descriptor: &str, files: &[(&str, &[u8])]) -> std::process::Output {
    let ctx = context_with_prod();
    let dir = ctx.package("pkg", descriptor, files);
    stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
        name
    )
}

const CSV: (&str, &[u8]) = ("a.csv", b"x\n1\n");

#[test]
fn unknown_keys_suggest_the_right_one() {
    let out = check(
        "unknown_top_level_key",
        "nmae: x\npublish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    assert_eq!(out.status.code(), Some(1));
    check(
        "unknown_resource_key",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    knid: blob\n",
        &[CSV],
    );
    check(
        "unknown_publish_key",
        "publish:\n  to: \"stone:t\"\n  pubic: true\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
}

#[test]
fn branch_and_environment_do_not_belong_in_the_file() {
    let out = check(
        "branch_key_in_resource",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    branch: main\n",
        &[CSV],
    );
    assert_eq!(out.status.code(), Some(1));
    check(
        "env_key",
        "env: prod\npublish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "environment_key_in_publish",
        "publish:\n  to: \"stone:t\"\n  Environment: dev\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
}

/// Free `metadata` is the user's data: the keys the file itself may not hold are plain
/// data there, in the package's and in a resource's metadata (what the loaded package then
/// holds: `stone-package`'s `free_metadata` tests).
#[test]
fn free_metadata_may_say_branch_env_and_environment() {
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nmetadata:\n  branch: main\n  env: {environment: marine}\n\
         resources:\n  - path: a.csv\n    metadata: {environment: marine, Branch: x}\n",
        &[CSV],
    );
    let out = ctx
        .stone()
        .args(["package", "push", "--dry-run", "--json", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the package must load: {stderr}");
}

#[test]
fn publish_to_must_be_a_namespace() {
    check(
        "publish_to_names_a_dataset",
        "publish: {to: \"stone:t/x\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "publish_to_with_host",
        "publish: {to: \"stone://host/t\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "publish_to_not_a_url",
        "publish: {to: \"data.example.org/t\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "publish_to_with_credentials",
        "publish: {to: \"s3://key:secret@bucket/t\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "publish_to_uppercase",
        "publish: {to: \"stone:Team\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "publish_to_missing",
        "publish: {public: true}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
}

#[test]
fn as_name_rules() {
    check(
        "package_as_name_needs_one_resource",
        "publish: {to: \"stone:t\", as_name: both}\nresources: [{path: a.csv}, {path: b.csv}]\n",
        &[CSV, ("b.csv", b"y\n2\n")],
    );
    check(
        "as_name_must_be_a_valid_slug",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    publish: {as_name: My Table}\n",
        &[CSV],
    );
    check(
        "empty_slug",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    name: 日本語\n",
        &[CSV],
    );
    check(
        "duplicate_slugs",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n  - path: sub/A.csv\n",
        &[CSV, ("sub/A.csv", b"y\n")],
    );
}

#[test]
fn dialect_rules() {
    check(
        "quoting_not_accepted",
        "publish:\n  to: \"stone:t\"\n  dialect: {quoting: minmal}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "delimiter_one_character",
        "publish:\n  to: \"stone:t\"\n  dialect: {delimiter: \";;\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "quoting_in_input_dialect",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    dialect: {quoting: all}\n",
        &[CSV],
    );
    check(
        "dialect_unknown_property",
        "publish:\n  to: \"stone:t\"\n  dialect: {delimeter: \";\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
}

#[test]
fn kinds_and_schemas() {
    check(
        "unknown_kind",
        "publish: {to: \"stone:t\"}\nresources:\n  - {path: a.csv, kind: tabluar}\n",
        &[CSV],
    );
    check(
        "vector_kind_does_not_exist",
        "publish: {to: \"stone:t\"}\nresources:\n  - {path: a.csv, kind: vector}\n",
        &[CSV],
    );
    check(
        "unknown_field_type",
        "publish: {to: \"stone:t\"}\nresources:\n  - path: a.csv\n    schema:\n      fields:\n        - {name: x, type: integr}\n",
        &[CSV],
    );
}

#[test]
fn paths_that_leave_the_package_are_refused() {
    let out = check(
        "parent_path",
        "publish: {to: \"stone:t\"}\nresources: [{path: ../secret.csv}]\n",
        &[CSV],
    );
    // A package's mistake: 1, as every package error but the `ext/` zone (a guard, 4).
    assert_eq!(out.status.code(), Some(1));
    check(
        "absolute_path",
        "publish: {to: \"stone:t\"}\nresources: [{path: /etc/passwd}]\n",
        &[CSV],
    );
    check(
        "missing_file",
        "publish: {to: \"stone:t\"}\nresources: [{path: nowhere.csv}]\n",
        &[CSV],
    );

    let ctx = context_with_prod();
    let outside = ctx.root().join("outside.csv");
    std::fs::write(&outside, "secret\n").unwrap();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: link.csv}]\n",
        &[],
    );
    symlink(&outside, dir.join("link.csv")).unwrap();
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
        "symlink_outside"
    );
    assert_eq!(out.status.code(), Some(1));

    let ctx = context_with_prod();
    let outside = ctx.root().join("outside.csv");
    std::fs::write(&outside, "secret\n").unwrap();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: tables}]\n",
        &[("tables/a.csv", b"x\n")],
    );
    symlink(&outside, dir.join("tables/b.csv")).unwrap();
    stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
        "symlink_outside_in_directory"
    );
}

#[test]
fn the_ext_zone_is_refused() {
    let out = check(
        "ext_zone",
        "publish: {to: \"stone:t\"}\nresources: [{path: ext/other/a.csv}]\n",
        &[("ext/other/a.csv", b"x\n")],
    );
    assert_eq!(out.status.code(), Some(4));
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: mine.csv}]\n",
        &[("ext/other/a.csv", b"x\n")],
    );
    symlink(dir.join("ext/other/a.csv"), dir.join("mine.csv")).unwrap();
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b"])
            .arg(&dir),
        "ext_zone_through_link"
    );
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn yaml_errors_are_located() {
    check(
        "invalid_yaml",
        "publish: {to: \"stone:t\"\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check(
        "duplicate_key",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\npublish: {to: \"stone:u\"}\n",
        &[CSV],
    );
    check(
        "anchors",
        "base: &b {to: \"stone:t\"}\npublish: *b\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    check("not_a_mapping", "- just\n- a list\n", &[CSV]);
    check("no_resources", "publish: {to: \"stone:t\"}\n", &[CSV]);
    check(
        "empty_resources",
        "publish: {to: \"stone:t\"}\nresources: []\n",
        &[CSV],
    );
    check(
        "wrong_type",
        "publish: {to: \"stone:t\", public: maybe}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    let deep = format!(
        "publish: {{to: \"stone:t\"}}\nresources: [{{path: a.csv}}]\nmetadata: {}{}\n",
        "[".repeat(100),
        "]".repeat(100)
    );
    check("too_deep", &deep, &[CSV]);
}

#[test]
fn no_datasets_yaml() {
    let ctx = context_with_prod();
    std::fs::create_dir(ctx.root().join("empty")).unwrap();
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone()
            .args(["package", "push", "--dry-run", "--branch", "b", "empty"]),
        "no_descriptor"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A package path that does not exist, or is a file, is named for what it is (issue 55,
/// item 9: it said "no datasets.yaml in nosuchdir").
#[test]
fn a_package_path_that_is_no_folder_is_named_for_what_it_is() {
    let ctx = context_with_prod();
    std::fs::write(ctx.root().join("a-file"), "x").unwrap();
    for (path, said) in [
        ("nosuchdir", "the package nosuchdir does not exist"),
        ("a-file", "the package a-file is not a folder"),
    ] {
        let out = ctx
            .stone()
            .current_dir(ctx.root())
            .args([
                "package",
                "push",
                "--dry-run",
                "--branch",
                "b",
                path,
                "--json",
            ])
            .output()
            .unwrap();
        let text = format!("{}{}", crate::stdout(&out), crate::stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(text.contains(said), "{path}: {text}");
        assert!(text.contains("package.no_folder"), "{path}: {text}");
        assert!(!text.contains("no datasets.yaml"), "{path}: {text}");
    }
}

#[test]
fn errors_as_json_carry_code_and_location() {
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:t\"}\nresources: [{path: ext/a.csv}]\n",
        &[("ext/a.csv", b"x\n")],
    );
    let out = ctx
        .stone()
        .args(["package", "push", "--dry-run", "--json", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(v["error"]["code"], "package.ext_zone");
    assert_eq!(v["error"]["location"]["line"], 2);
    assert_eq!(v["error"]["location"]["column"], 20);
    assert!(
        v["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("remove this resource")
    );
}

/// `--to` follows `publish.to`'s rule (issue 55, item 1: `--to stone:demo/towns` was taken
/// and `/towns` dropped): a `stone:` destination names a namespace only.
#[test]
fn to_names_a_namespace_only_as_publish_to_does() {
    let ctx = context_with_prod();
    let dir = ctx.package(
        "pkg",
        "publish: {to: \"stone:demo\"}\nresources: [{path: a.csv}]\n",
        &[CSV],
    );
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--dry-run",
            "--branch",
            "b",
            "--to",
            "stone:demo/towns",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let errors = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(2), "a usage error:\n{errors}");
    assert!(
        errors.contains(
            "--to must name only a namespace (`stone:demo`), not a dataset (`stone:demo/towns`)"
        ) && errors.contains("publish.as_name"),
        "{errors}"
    );
    // The namespace alone is taken.
    let out = ctx
        .stone()
        .args([
            "package",
            "push",
            "--dry-run",
            "--branch",
            "b",
            "--to",
            "stone:towns",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    assert!(
        crate::stdout(&out).contains("stone:towns/"),
        "{}",
        crate::stdout(&out)
    );
}
