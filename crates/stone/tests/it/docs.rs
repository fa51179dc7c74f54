//! Every command shown in `docs/*.md` and in `README.md` runs here, so the docs cannot drift
//! from the program.
//!
//! Each docs file starts with a comment naming what its commands need:
//! `<!-- docs-test: none -->` or `<!-- docs-test: server -->` (a fresh `stone-server`,
//! started by the harness). An unknown requirement, or a file without the comment, fails.
//!
//! The blocks run in order, per file, in one temporary directory holding a copy of
//! `examples/quickstart` as `quickstart/`, with `stone` and `stone-server` of this build
//! first on `PATH` and HOME, `STONE_CONFIG`, CI variables isolated as for every test:
//! - ```` ```sh ```` blocks run with `bash -eu -o pipefail` and must succeed;
//! - ```` ```console ```` blocks: each `$ ` line is a command; the lines after it, up to the
//!   next `$ ` line, are its expected output (its stdout, then its stderr). `...` alone on
//!   a line stands for any number of lines, `...` inside a line for any text. A command
//!   whose shown output has an `error:` line must fail; the others must succeed.
//! - other blocks (```` ```text ````, ```` ```toml ````, …) are not run;
//! - a block right after a line `<!-- docs-test: skip: REASON -->` is not run; the reason
//!   says which test or job runs those commands instead (the README's first block:
//!   `scripts/quickstart` runs in `quickstart.rs`, `scripts/test` is `.ci/run`).
//!
//! With a server, `http://127.0.0.1:8080` in a command stands for the server's address, and
//! the server's address in the output is shown as `http://127.0.0.1:8080`.

use std::path::{Path, PathBuf};
use std::process::Command;

use stone_test::TestContext;
use stone_test::services::StoneServer;
use stone_test::tools::workspace_root;

use crate::copy_dir;

/// The address the docs use for the local server.
const DOC_SERVER: &str = "http://127.0.0.1:8080";

#[derive(Debug, PartialEq)]
enum Block {
    Sh {
        line: usize,
        script: String,
    },
    Console {
        line: usize,
        steps: Vec<(String, Vec<String>)>,
    },
}

/// What a docs file needs, from its first line.
fn requirements(file: &Path, text: &str) -> Vec<String> {
    let first = text.lines().next().unwrap_or_default().trim();
    let inner = first
        .strip_prefix("<!-- docs-test:")
        .and_then(|rest| rest.strip_suffix("-->"))
        .unwrap_or_else(|| {
            panic!(
                "{}: the first line must be `<!-- docs-test: none -->` or `<!-- docs-test: server -->` \
                 (what the file's commands need), found {first:?}",
                file.display()
            )
        });
    let needs: Vec<String> = inner
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    for need in &needs {
        assert!(
            matches!(need.as_str(), "none" | "server"),
            "{}: unknown docs-test requirement `{need}`; known: none, server \
             (add it to crates/stone/tests/it/docs.rs to support it)",
            file.display()
        );
    }
    needs
}

/// The runnable blocks of a Markdown text.
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut skip = false;
    while let Some((number, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            if !line.trim().is_empty() {
                skip = skip_marker(line, number + 1);
            }
            continue;
        };
        let skipped = std::mem::take(&mut skip);
        let lang = info.trim().to_owned();
        let mut body = Vec::new();
        for (_, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            body.push(line.to_owned());
        }
        if skipped {
            continue;
        }
        match lang.as_str() {
            "sh" => blocks.push(Block::Sh {
                line: number + 1,
                script: body.join("\n"),
            }),
            "console" => {
                let mut steps: Vec<(String, Vec<String>)> = Vec::new();
                for line in body {
                    if let Some(command) = line.strip_prefix("$ ") {
                        steps.push((command.to_owned(), Vec::new()));
                    } else if let Some((_, output)) = steps.last_mut() {
                        output.push(line);
                    } else {
                        panic!(
                            "a console block at line {} must start with `$ `",
                            number + 1
                        );
                    }
                }
                blocks.push(Block::Console {
                    line: number + 1,
                    steps,
                });
            }
            _ => {}
        }
    }
    blocks
}

/// `line` is `<!-- docs-test: skip: REASON -->` (the next block is not run). A skip
/// without a reason fails: the reason tells readers where those commands are tested.
fn skip_marker(line: &str, number: usize) -> bool {
    let Some(reason) = line
        .trim()
        .strip_prefix("<!-- docs-test: skip")
        .and_then(|rest| rest.strip_suffix("-->"))
    else {
        return false;
    };
    let reason = reason.trim().trim_start_matches(':').trim();
    assert!(
        !reason.is_empty(),
        "line {number}: `<!-- docs-test: skip: REASON -->` needs a reason (which test runs these commands)"
    );
    true
}

/// `pattern` (with `...` wildcards) matches `text`.
fn line_matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let Some(rest) = text.strip_prefix(parts[0]) else {
        return false;
    };
    let mut rest = rest;
    for (i, part) in parts[1..].iter().enumerate() {
        if i == parts.len() - 2 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            line_matches(first.trim_end(), line.trim_end()) && lines_match(rest, others)
        }),
    }
}

struct Runner {
    ctx: TestContext,
    work: PathBuf,
    path: std::ffi::OsString,
    server: Option<(StoneServer, tempfile::TempDir)>,
}

impl Runner {
    fn new(needs: &[String]) -> Runner {
        let ctx = crate::context();
        let work = ctx.root().join("work");
        copy_dir(
            &workspace_root().join("examples/quickstart"),
            &work.join("quickstart"),
        );
        let bin_dir = Path::new(env!("CARGO_BIN_EXE_stone")).parent().unwrap();
        let server_bin = StoneServer::binary();
        let mut paths = vec![bin_dir.to_owned(), server_bin.parent().unwrap().to_owned()];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let path = std::env::join_paths(paths).unwrap();
        let server = needs.iter().any(|n| n == "server").then(|| {
            let data = tempfile::Builder::new()
                .prefix("stone-docs-server-")
                .tempdir()
                .unwrap();
            let server =
                StoneServer::start(data.path(), Some("public_host = \"data.localhost\"\n"), &[]);
            (server, data)
        });
        Runner {
            ctx,
            work,
            path,
            server,
        }
    }

    fn command(&self, script: &str) -> Command {
        let script = match &self.server {
            Some((server, _)) => script.replace(DOC_SERVER, server.url()),
            None => script.to_owned(),
        };
        let mut bash = Command::new("bash");
        stone_test::context::isolate(&mut bash, &self.ctx.home);
        bash.env("STONE_CONFIG", &self.ctx.config)
            .env("STONE_NO_PROGRESS", "1")
            .env("PATH", &self.path)
            .current_dir(&self.work)
            .stdin(std::process::Stdio::null())
            .args(["-eu", "-o", "pipefail", "-c", &script]);
        bash
    }

    fn shown(&self, text: &str) -> String {
        match &self.server {
            Some((server, _)) => text.replace(server.url(), DOC_SERVER),
            None => text.to_owned(),
        }
    }
}

fn run_file(file: &Path) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let needs = requirements(file, &text);
    let runner = Runner::new(&needs);
    let name = file
        .strip_prefix(workspace_root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut ran = 0;
    for block in blocks(&text) {
        match block {
            Block::Sh { line, script } => {
                let out = runner.command(&script).output().unwrap();
                assert!(
                    out.status.success(),
                    "{name}:{line}: the sh block failed ({}):\n{script}\n--- stdout ---\n{}\n--- stderr ---\n{}{}",
                    out.status,
                    runner.shown(&String::from_utf8_lossy(&out.stdout)),
                    runner.shown(&String::from_utf8_lossy(&out.stderr)),
                    server_log(&runner),
                );
                ran += 1;
            }
            Block::Console { line, steps } => {
                for (command, expected) in steps {
                    let out = runner.command(&command).output().unwrap();
                    let actual = runner.shown(&format!(
                        "{}{}",
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    ));
                    let should_fail = expected.iter().any(|l| l.starts_with("error:"));
                    assert_eq!(
                        !out.status.success(),
                        should_fail,
                        "{name}:{line}: `{command}` {} ({}), the docs say it {}:\n{actual}{}",
                        if out.status.success() {
                            "succeeded"
                        } else {
                            "failed"
                        },
                        out.status,
                        if should_fail { "fails" } else { "succeeds" },
                        server_log(&runner),
                    );
                    let lines: Vec<&str> = actual.lines().collect();
                    assert!(
                        lines_match(&expected, &lines),
                        "{name}:{line}: the output of `{command}` is not what the docs show\n\
                         --- docs ---\n{}\n--- actual ---\n{actual}",
                        expected.join("\n"),
                    );
                    ran += 1;
                }
            }
        }
    }
    ran
}

fn server_log(runner: &Runner) -> String {
    match &runner.server {
        Some((server, _)) => format!("\n--- stone-server log ---\n{}", server.log_tail(30)),
        None => String::new(),
    }
}

fn docs_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("docs"))
        .expect("a docs/ folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files.push(workspace_root().join("README.md"));
    files
}

#[test]
fn every_command_in_the_docs_runs() {
    let files = docs_files();
    for expected in [
        "guide.md",
        "install.md",
        "plugins.md",
        "server.md",
        "README.md",
    ] {
        assert!(
            files.iter().any(|f| f.ends_with(expected)),
            "docs/{expected} in {files:?}"
        );
    }
    let mut total = 0;
    for file in &files {
        total += run_file(file);
    }
    assert!(total >= 10, "only {total} commands ran from the docs");
}

#[test]
fn the_guide_names_every_package_error_code() {
    let guide = std::fs::read_to_string(workspace_root().join("docs/guide.md")).unwrap();
    // Every source file of the crate, in its folders too (package/walk.rs).
    let mut sources = vec![workspace_root().join("crates/stone-package/src")];
    let mut files = Vec::new();
    while let Some(dir) = sources.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 10, "the sources of stone-package: {files:?}");
    let mut codes = std::collections::BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for piece in text.split('"').skip(1).step_by(2) {
            if piece.starts_with("package.")
                && piece[8..]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_')
            {
                codes.insert(piece.to_owned());
            }
        }
    }
    assert!(codes.len() >= 8, "{codes:?}");
    let missing: Vec<_> = codes
        .iter()
        .filter(|c| !guide.contains(&format!("`{c}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/guide.md does not explain {missing:?}"
    );
}

#[test]
fn the_runner_reads_blocks_and_wildcards() {
    let text = "<!-- docs-test: none -->\n```sh\necho a\n```\n```text\nnot run\n```\n```console\n$ echo hi\nhi\n$ true\n```\n\n<!-- docs-test: skip: run by x.rs -->\n```sh\nnot run either\n```\n```sh\necho b\n```\n";
    assert_eq!(requirements(Path::new("x.md"), text), vec!["none"]);
    let found = blocks(text);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(
        matches!(&found[2], Block::Sh { script, .. } if script == "echo b"),
        "the block after the skipped one runs: {found:?}"
    );
    let no_reason =
        std::panic::catch_unwind(|| blocks("<!-- docs-test: skip -->\n```sh\nx\n```\n"));
    assert!(no_reason.is_err(), "a skip without a reason fails");
    assert!(lines_match(
        &["a ... c".into(), "...".into(), "end".into()],
        &["a b c", "x", "y", "end"]
    ));
    assert!(!lines_match(&["a ... c".into()], &["a b d"]));
    assert!(!lines_match(&["one".into()], &["one", "two"]));
    let unknown =
        std::panic::catch_unwind(|| requirements(Path::new("x.md"), "<!-- docs-test: s3 -->\n"));
    assert!(unknown.is_err(), "an unknown requirement fails");
}
