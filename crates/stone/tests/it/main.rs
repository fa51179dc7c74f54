//! Integration tests of the `stone` binary, each in its own [`TestContext`].

mod backend_faults;
mod blob_store;
mod branch;
mod credentials;
mod dependency_outage;
mod descriptor;
mod docs;
mod env;
mod events;
mod exit_codes;
mod faults;
mod features;
mod help;
mod hostile;
mod hostile_answers;
mod hostile_paths;
mod identity;
mod import;
mod man;
mod many_files;
mod many_resources;
mod openlineage;
mod plugins;
mod prerequisites;
mod programs;
mod push_dry_run;
mod push_e2e;
mod quickstart;
mod quota;
mod replicas;
mod round_trip;
mod s3_warehouse;
mod shape;
mod step_up;
mod table_checks;
mod webhooks;
mod webhooks_burst;
mod wheel;

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

/// Copies a directory tree (a package of `examples/` into a test's temporary directory).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
