//! Integration tests of the `stone` binary, each in its own [`TestContext`].

mod blob_store;
mod branch;
mod descriptor;
mod env;
mod faults;
mod features;
mod help;
mod hostile;
mod identity;
mod import;
mod plugins;
mod push_dry_run;
mod push_e2e;
mod replicas;

use stone_test::TestContext;

pub fn context() -> TestContext {
    TestContext::new(env!("CARGO_BIN_EXE_stone"))
}

/// A context with `prod` configured.
pub fn context_with_prod() -> TestContext {
    let ctx = context();
    ctx.add_env("prod", "data.example.org", "https://api.example.org/v1");
    ctx
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
