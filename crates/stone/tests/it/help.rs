//! Help, version and completions.

use stone_test::stone_snapshot;

use crate::{context, stdout};

#[test]
fn help_lists_commands_and_exit_codes() {
    let ctx = context();
    stone_snapshot!(ctx.filters(), ctx.stone().arg("--help"), "help");
    stone_snapshot!(
        ctx.filters(),
        ctx.stone().args(["package", "push", "--help"]),
        "help_push"
    );
}

#[test]
fn version() {
    let ctx = context();
    let out = ctx.stone().arg("--version").output().unwrap();
    assert_eq!(
        stdout(&out).trim(),
        format!("stone {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn completions_for_each_shell() {
    let ctx = context();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = ctx.stone().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = stdout(&out);
        assert!(
            script.contains("push") && script.contains("--dry-run"),
            "{shell}: {script}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let ctx = context();
    let out = ctx
        .stone()
        .args(["package", "push", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A subcommand typed without its group (`stone push`, which a reader's memory or an old
/// doc writes) is a usage error that names the command that has it.
#[test]
fn a_subcommand_without_its_group_names_the_command_that_has_it() {
    let ctx = context();
    for (typed, full) in [
        ("push", "stone package push"),
        ("import", "stone data import"),
        ("add", "stone env add"),
    ] {
        let out = ctx.stone().args([typed, "x"]).output().unwrap();
        let errors = crate::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "stone {typed}: {errors}");
        assert!(
            errors.contains(&format!("'{full}'")),
            "stone {typed} names `{full}`:\n{errors}"
        );
    }
    // clap's own suggestion stays where it has one.
    let out = ctx.stone().args(["pakage"]).output().unwrap();
    assert!(
        crate::stderr(&out).contains("'package'"),
        "{}",
        crate::stderr(&out)
    );
}

/// What `stone --help` says of the commands is what they do (issue 55, item 15): `plugin`
/// names the Python entry points it finds too, and `man`, which docs/install.md documents,
/// is listed.
#[test]
fn help_names_python_entry_points_and_man() {
    let ctx = context();
    let help = stdout(&ctx.stone().arg("--help").output().unwrap());
    assert!(
        help.contains("`stone.plugins`") && help.contains("entry points of Python packages"),
        "{help}"
    );
    assert!(
        help.lines().any(|l| l.trim_start().starts_with("man ")),
        "stone man is listed:\n{help}"
    );
    let install =
        std::fs::read_to_string(stone_test::tools::workspace_root().join("docs/install.md"))
            .unwrap();
    assert!(
        install.contains("stone man --list"),
        "docs/install.md documents stone man"
    );
    let out = ctx.stone().args(["man", "--list"]).output().unwrap();
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("stone-package-push.1"),
        "{}",
        stdout(&out)
    );
}
