//! Man pages and completion scripts generated at build time (build.rs), served by the
//! hidden `stone man` command.

use std::collections::BTreeSet;

use crate::{context, stderr, stdout};

/// The long flags an `--help` text lists (`--dry-run`, `--env`, …).
fn flags_of_help(help: &str) -> BTreeSet<String> {
    help.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("-h, ").unwrap_or(line);
            let line = if line.len() > 4 && line.starts_with('-') && &line[2..4] == ", " {
                &line[4..]
            } else {
                line
            };
            let flag = line.strip_prefix("--")?;
            let end = flag
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(flag.len());
            Some(format!("--{}", &flag[..end]))
        })
        .collect()
}

#[test]
fn the_push_man_page_has_every_flag_of_push_help() {
    let ctx = context();
    let help = ctx
        .stone()
        .args(["package", "push", "--help"])
        .output()
        .unwrap();
    let flags = flags_of_help(&stdout(&help));
    for expected in [
        "--dry-run",
        "--env",
        "--to",
        "--branch",
        "--json",
        "--config",
    ] {
        assert!(flags.contains(expected), "{expected} in {flags:?}");
    }

    let out = ctx
        .stone()
        .args(["man", "stone-package-push"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // roff escapes `-` as `\-`.
    let page = stdout(&out).replace("\\-", "-");
    assert!(page.starts_with(".ie") || page.contains(".TH"), "{page}");
    assert!(page.contains("stone-package-push"), "{page}");
    let missing: Vec<_> = flags.iter().filter(|f| !page.contains(*f)).collect();
    assert!(
        missing.is_empty(),
        "flags missing from the man page: {missing:?}\n{page}"
    );
}

#[test]
fn man_dir_writes_every_page_and_completion_script() {
    let ctx = context();
    let list = ctx.stone().args(["man", "--list"]).output().unwrap();
    let listed: Vec<String> = stdout(&list).lines().map(str::to_owned).collect();
    for expected in [
        "man/man1/stone.1",
        "man/man1/stone-package-push.1",
        "man/man1/stone-data-import.1",
        "man/man1/stone-env-add.1",
        "bash-completion/completions/stone",
        "zsh/site-functions/_stone",
        "fish/vendor_completions.d/stone.fish",
    ] {
        assert!(
            listed.iter().any(|l| l == expected),
            "{expected} in {listed:?}"
        );
    }
    // `stone man` is a listed command (docs/install.md documents it): it has its page.
    assert!(
        listed.iter().any(|l| l == "man/man1/stone-man.1"),
        "stone man has a page: {listed:?}"
    );

    let share = ctx.root().join("share");
    let out = ctx
        .stone()
        .args(["man", "--dir"])
        .arg(&share)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    for path in &listed {
        let bytes = std::fs::read(share.join(path)).unwrap();
        assert!(!bytes.is_empty(), "{path} is empty");
    }
    let bash = std::fs::read_to_string(share.join("bash-completion/completions/stone")).unwrap();
    assert!(bash.contains("--dry-run"), "{bash}");

    let unknown = ctx.stone().args(["man", "stone-nope"]).output().unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("no man page 'stone-nope'")
            && stderr(&unknown).contains("stone-package-push"),
        "{}",
        stderr(&unknown)
    );
}
