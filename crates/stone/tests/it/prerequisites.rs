//! The newcomer's path (issue 51): what building stone needs from the machine is checked
//! before anything compiles, the way the build finds it, and a missing piece is named with
//! the command that installs it. The machines are made by the test: a PATH holding every
//! program of this one but those a case takes away, or a compiler that cannot do the job.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use stone_test::context::isolate;
use stone_test::tools::workspace_root;

use crate::{context, stderr, stdout};

/// A folder of links to every program on this machine's PATH, but `without`: a machine
/// that lacks those.
fn path_without(root: &Path, without: &[&str]) -> PathBuf {
    let bin = root.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = std::env::var_os("PATH").expect("PATH is set");
    for dir in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(text) = name.to_str() else { continue };
            let taken = without.iter().any(|w| text == *w || text.starts_with(&format!("{w}-")))
                // Debian's triplet-named compilers (x86_64-linux-gnu-g++-12).
                || without.iter().any(|w| text.contains(&format!("-{w}")));
            if taken || bin.join(&name).exists() {
                continue;
            }
            std::os::unix::fs::symlink(entry.path(), bin.join(&name)).unwrap();
        }
    }
    bin
}

fn prerequisites(home: &Path, path: Option<&Path>, extra: &[(&str, &str)]) -> Output {
    let mut command = Command::new(workspace_root().join("scripts/prerequisites"));
    isolate(&mut command, home);
    command.arg("--check").env("STONE_TOOLS_NO_APT", "1");
    if let Some(path) = path {
        command.env("PATH", path);
    }
    for (key, value) in extra {
        command.env(key, value);
    }
    command.output().expect("scripts/prerequisites starts")
}

#[test]
fn this_machine_has_what_the_build_needs() {
    let ctx = context();
    let out = prerequisites(&ctx.home, None, &[]);
    assert!(
        out.status.success(),
        "scripts/prerequisites --check failed on the machine that builds the tests:\n{}",
        stderr(&out)
    );
}

#[test]
fn a_machine_without_a_cxx_compiler_is_told_which_package_to_install() {
    let ctx = context();
    let bin = path_without(ctx.root(), &["c++", "g++", "clang++"]);
    let out = prerequisites(&ctx.home, Some(&bin), &[]);
    let errors = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit 1 without a C++ compiler:\n{errors}"
    );
    assert!(
        errors.contains("no C++ compiler: 'c++' is not on PATH"),
        "the missing compiler is named as the build looks for it:\n{errors}"
    );
    assert!(
        errors.contains("apt-get install g++"),
        "the command that installs it:\n{errors}"
    );
    assert!(
        !errors.contains("C compiler 'cc'"),
        "cc is there:\n{errors}"
    );
}

#[test]
fn a_compiler_that_cannot_build_cxx20_is_named_with_its_error() {
    let ctx = context();
    // A C++ compiler of C++17's time: it runs, and refuses -std=c++20.
    let old = ctx.root().join("old-c++");
    std::fs::write(
        &old,
        "#!/bin/sh\necho \"old-c++: error: unrecognized command-line option '-std=c++20'\" >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = prerequisites(&ctx.home, None, &[("CXX", old.to_str().unwrap())]);
    let errors = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{errors}");
    assert!(
        errors.contains("cannot compile C++20")
            && errors.contains("unrecognized command-line option"),
        "the compiler's own error is shown:\n{errors}"
    );
}

#[test]
fn a_machine_without_a_c_compiler_is_told_too() {
    let ctx = context();
    let out = prerequisites(&ctx.home, None, &[("CC", "no-such-cc")]);
    let errors = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{errors}");
    assert!(
        errors.contains("no C compiler: 'no-such-cc' is not on PATH") && errors.contains("gcc"),
        "{errors}"
    );
}

/// The README's first command on a machine without a C++ compiler stops before the build,
/// at once, with the command to run; nothing is compiled (issue 51: it compiled for 36
/// minutes, then failed on what was missing).
#[test]
fn the_quickstart_stops_before_compiling_when_the_machine_lacks_a_compiler() {
    let ctx = context();
    let bin = path_without(ctx.root(), &["c++", "g++", "clang++"]);
    let target = ctx.root().join("target");
    let mut command = Command::new(workspace_root().join("scripts/quickstart"));
    isolate(&mut command, &ctx.home);
    command
        .env("PATH", &bin)
        .env("STONE_TOOLS_NO_APT", "1")
        .env("CARGO_TARGET_DIR", &target)
        .env("TMPDIR", ctx.root())
        .stdin(std::process::Stdio::null());
    let out = command.output().expect("scripts/quickstart starts");
    let errors = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the quickstart stops:\n{}\n{errors}",
        stdout(&out)
    );
    assert!(
        errors.contains("no C++ compiler") && errors.contains("apt-get install g++"),
        "{errors}"
    );
    assert!(
        !target.exists(),
        "nothing was built before the check: {} exists",
        target.display()
    );
}
