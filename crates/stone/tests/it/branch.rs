//! Where the branch comes from: --branch, $CI_HEAD_REF, $CI_REF_NAME, git; never `main`.

use std::path::Path;
use std::process::Command;

use stone_test::stone_snapshot;

use crate::context_with_prod;

fn plan_branch(ctx: &stone_test::TestContext, dir: &Path, extra: &[&str]) -> serde_json::Value {
    let out = ctx
        .stone()
        .args(["package", "push", "--dry-run", "--json"])
        .args(extra)
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", crate::stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["plan"]["branch"].clone()
}

fn git(dir: &Path, home: &Path, args: &[&str]) {
    let mut cmd = Command::new("git");
    stone_test::context::isolate(&mut cmd, home);
    let status = cmd
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git is installed");
    assert!(status.success(), "git {args:?}");
}

const PACKAGE: &str = "publish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n";

#[test]
fn ci_variables_in_order_then_git() {
    let mut ctx = context_with_prod();
    let dir = ctx.package("pkg", PACKAGE, &[("a.csv", b"x\n")]);
    git(&dir, &ctx.home, &["init", "-q", "-b", "feature/from-git"]);

    let b = plan_branch(&ctx, &dir, &[]);
    assert_eq!(
        (b["name"].as_str(), b["source"].as_str()),
        (Some("feature-from-git"), Some("git"))
    );

    ctx.set_var("CI_REF_NAME", "release/2.0");
    let b = plan_branch(&ctx, &dir, &[]);
    assert_eq!(
        (b["name"].as_str(), b["source"].as_str()),
        (Some("release-2.0"), Some("ci_ref_name"))
    );

    ctx.set_var("CI_HEAD_REF", "feature/Ünïcode branch#1");
    let b = plan_branch(&ctx, &dir, &[]);
    assert_eq!(
        (b["name"].as_str(), b["source"].as_str()),
        (Some("feature--n-code-branch-1"), Some("ci_head_ref"))
    );
    assert_eq!(b["given"], "feature/Ünïcode branch#1");

    let b = plan_branch(&ctx, &dir, &["--branch", "Mine_1.x"]);
    assert_eq!(
        (b["name"].as_str(), b["source"].as_str()),
        (Some("Mine_1.x"), Some("flag"))
    );

    // An empty variable counts as unset.
    ctx.set_var("CI_HEAD_REF", "");
    let b = plan_branch(&ctx, &dir, &[]);
    assert_eq!(b["source"], "ci_ref_name");
}

#[test]
fn no_branch_fails_and_asks_for_one() {
    let ctx = context_with_prod();
    let dir = ctx.package("pkg", PACKAGE, &[("a.csv", b"x\n")]);
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone().args(["package", "push", "--dry-run"]).arg(&dir),
        "no_branch_outside_git"
    );
    assert_eq!(out.status.code(), Some(2));

    git(&dir, &ctx.home, &["init", "-q", "-b", "main"]);
    git(&dir, &ctx.home, &["add", "."]);
    git(&dir, &ctx.home, &["commit", "-q", "-m", "one"]);
    git(&dir, &ctx.home, &["checkout", "-q", "--detach"]);
    let out = stone_snapshot!(
        ctx.filters(),
        ctx.stone().args(["package", "push", "--dry-run"]).arg(&dir),
        "no_branch_detached_head"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn git_main_is_used_only_when_checked_out() {
    let ctx = context_with_prod();
    let dir = ctx.package("pkg", PACKAGE, &[("a.csv", b"x\n")]);
    git(&dir, &ctx.home, &["init", "-q", "-b", "main"]);
    let b = plan_branch(&ctx, &dir, &[]);
    assert_eq!(
        (b["name"].as_str(), b["source"].as_str()),
        (Some("main"), Some("git"))
    );
}
