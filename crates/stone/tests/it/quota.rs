//! Issue 22, per-namespace quotas, with the real `stone` and `stone-server`: a push that
//! would take its namespace over its quota is refused before anything is uploaded, and
//! the message says the figures and what to do.

use crate::push_e2e::{staged, with_server_config};

#[test]
fn a_push_over_the_namespace_quota_says_the_figures_and_what_to_do() {
    let (mut ctx, _server, data) = with_server_config("[quotas]\ndefault_bytes = 4000\n");
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let dir = ctx.package(
        "quota",
        "publish: {to: \"stone:quota\"}\nresources: [{path: blob.bin}]\n",
        &[("blob.bin", &[7u8; 5000])],
    );
    let out = ctx
        .stone()
        .args(["package", "push", "--env", "local", "--branch", "b"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = crate::stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("namespace.quota_exceeded")
            && err.contains("holds 0 bytes of its quota of 4000 bytes")
            && err.contains("adds 5000 bytes"),
        "the refusal says its code and figures: {err}"
    );
    assert!(
        err.contains("hint: the namespace is at its quota: delete datasets")
            && err.contains("raise the namespace's quota ([quotas])"),
        "the hint says what to do: {err}"
    );
    assert_eq!(staged(data.path()), 0, "nothing was uploaded");
}
