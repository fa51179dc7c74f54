//! Trust boundaries of the client (issues 22 and 23): names from a server, a lock file or a
//! cloned repository never become files outside `ext/`, links never lead an import or a
//! push into the wrong zone, nothing a server or plugin says drives the terminal, a
//! relative `PATH` entry runs no plugin, and stone's own folders are private.
//!
//! The servers here are FAKES (the helpers of `hostile.rs`): the real `stone-server`
//! refuses the file paths they state (its own test: `stone-server`'s
//! `hostile_tenant_paths.rs`), so only a hostile or broken server can send them.

use std::io::Write as _;
use std::net::TcpStream;
use std::path::Path;
use std::process::Output;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use stone_test::TestContext;

use crate::hostile::{
    FakeServer, Seen, against, assert_clear_error, descriptor, dry_run, fake_api, json_answer,
    push, respond, run_bounded,
};
use crate::{context_with_prod, stderr, stdout};

const CONTENT: &[u8] = b"written by a hostile server";

/// A fake platform serving `stone:demo/scans`, a BLOB dataset of several files with the
/// given paths, every file `CONTENT` (the stated sha256 and size are right).
fn blob_server(paths: &[&str]) -> FakeServer {
    let sha256 = stone_package::digest::sha256_hex(CONTENT);
    let files: Vec<_> = paths
        .iter()
        .map(|p| json!({"path": p, "sha256": sha256, "size": CONTENT.len()}))
        .collect();
    let info = json!({
        "name": "scans", "url": "stone:demo/scans", "iri": "https://data.test/demo/scans",
        "branch": "main", "kind": "BLOB", "engine": "object_storage", "exists": true,
        "files": files, "formats": ["bytes"]
    })
    .to_string();
    FakeServer::start(
        "127.0.0.1",
        Arc::new(move |seen: &Seen, s: &mut TcpStream| {
            if seen.path.contains("/content") {
                respond(
                    s,
                    "200 OK",
                    &[("content-type", "application/octet-stream")],
                    CONTENT,
                );
            } else {
                respond(
                    s,
                    "200 OK",
                    &[("content-type", "application/json")],
                    info.as_bytes(),
                );
            }
        }),
    )
}

/// A context whose `local` environment is `server`, and a consumer package deep enough
/// that `..` from `ext/` lands on folders the test watches.
fn consumer(server: &FakeServer) -> (TestContext, std::path::PathBuf) {
    let mut ctx = crate::context();
    ctx.add_env(
        "local",
        "data.test",
        &format!("http://127.0.0.1:{}/v1", server.port),
    );
    ctx.set_var("STONE_HTTP_RETRIES", "0");
    let dir = ctx.package(
        "deep/er/consumer",
        "name: consumer\npublish: {to: \"stone:consumer\"}\nresources:\n  - path: notes.csv\n",
        &[("notes.csv", b"note\nhello\n")],
    );
    (ctx, dir)
}

fn import(ctx: &TestContext, dir: &Path, args: &[&str]) -> Output {
    run_bounded(
        ctx.stone().args(["data", "import"]).args(args).arg(dir),
        Duration::from_secs(60),
    )
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                pending.push(path);
            } else {
                found.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_blob_folder_whose_paths_leave_ext_is_refused_and_nothing_is_written() {
    for path in [
        // What a file-name cleaner that trims turns into `..`.
        "a/ ../ ../ ../escaped.txt",
        "a/.. /.. /.. /escaped.txt",
        "a/.../escaped.txt",
        "../../escaped.txt",
        "/tmp/escaped.txt",
        "C:/escaped.txt",
        "a\\..\\..\\escaped.txt",
        "ok/\u{1b}[31mred.txt",
    ] {
        let server = blob_server(&["fine.txt", path]);
        let (ctx, dir) = consumer(&server);
        let out = import(&ctx, &dir, &["stone:demo/scans", "--env", "local"]);
        assert_clear_error(&out, "would not stay in ext/scans/");
        assert!(!stderr(&out).contains('\u{1b}'), "{:?}", stderr(&out));
        // Nothing anywhere: not above ext/, not in it.
        let root = ctx.root();
        let everything = files_under(root);
        assert!(
            everything.iter().all(|f| !f.contains("escaped")),
            "{path:?} wrote {everything:?}"
        );
        assert!(
            !dir.join("ext").exists(),
            "{path:?}: {:?}",
            files_under(&dir)
        );
    }
}

#[test]
fn a_file_name_the_server_states_is_checked_not_cleaned() {
    // One file: its name comes from the server's listing.
    let server = blob_server(&[" .."]);
    let (ctx, dir) = consumer(&server);
    let out = import(&ctx, &dir, &["stone:demo/scans", "--env", "local"]);
    assert_clear_error(&out, "not a plain file name");
    assert!(!dir.join("ext").exists(), "{:?}", files_under(&dir));
    assert!(
        files_under(ctx.root()).iter().all(|f| !f.ends_with("..")),
        "{:?}",
        files_under(ctx.root())
    );
}

#[cfg(unix)]
#[test]
fn an_import_never_writes_through_a_link_planted_in_ext() {
    // A cloned repository ships `ext/scans` as a link to a folder outside.
    let plant = |dir: &Path, outside: &Path| {
        std::fs::create_dir_all(outside).unwrap();
        std::fs::write(outside.join("keep.txt"), b"keep").unwrap();
        std::fs::create_dir_all(dir.join("ext")).unwrap();
        std::os::unix::fs::symlink(outside, dir.join("ext/scans")).unwrap();
    };
    // One file: it would be written into the link's folder. Refused.
    let server = blob_server(&["one.txt"]);
    let (ctx, dir) = consumer(&server);
    let outside = ctx.root().join("outside");
    plant(&dir, &outside);
    let out = import(&ctx, &dir, &["stone:demo/scans", "--env", "local"]);
    assert_clear_error(&out, "not a folder");
    assert_eq!(files_under(&outside), ["keep.txt"]);

    // Several files: the link is replaced by the import's own folder; what it pointed to
    // is untouched.
    let server = blob_server(&["a/one.txt", "b.txt"]);
    let (ctx, dir) = consumer(&server);
    let outside = ctx.root().join("outside");
    plant(&dir, &outside);
    let out = import(&ctx, &dir, &["stone:demo/scans", "--env", "local"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(files_under(&outside), ["keep.txt"]);
    assert_eq!(files_under(&dir.join("ext/scans")), ["a/one.txt", "b.txt"]);

    // `ext` itself a link: refused outright.
    let server = blob_server(&["a/one.txt"]);
    let (ctx, dir) = consumer(&server);
    let outside = ctx.root().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("ext")).unwrap();
    let out = import(&ctx, &dir, &["stone:demo/scans", "--env", "local"]);
    assert_clear_error(&out, "not a folder");
    assert_eq!(files_under(&outside), Vec::<String>::new());
}

/// A lock file entry for `key` recording `path`.
fn lock_file(key: &str, path: &str, source: &str) -> String {
    json!({
        "version": 1,
        "imports": {key: {"source": source, "resolved": source, "path": path,
            "sha256": "00", "size": 1, "imported_at": "2026-01-01T00:00:00Z"}}
    })
    .to_string()
}

#[test]
fn a_lock_file_naming_paths_outside_ext_is_refused_and_nothing_is_removed() {
    let ctx = context_with_prod();
    let victim = ctx.root().join("victim.txt");
    let local = ctx.root().join("lakes.csv");
    std::fs::write(&local, b"lake\nGeneva\n").unwrap();
    let source = format!("file://{}", local.display());
    for recorded in [
        "../victim.txt".to_owned(),
        "ext/lakes/../../../victim.txt".to_owned(),
        victim.display().to_string(),
        "datasets.yaml".to_owned(),
    ] {
        std::fs::write(&victim, b"precious").unwrap();
        let dir = ctx.package(
            "p",
            "name: p\nresources:\n  - path: notes.csv\n",
            &[("notes.csv", b"note\nhello\n")],
        );
        std::fs::create_dir_all(dir.join("ext")).unwrap();
        std::fs::write(
            dir.join("ext/stone-lock.json"),
            lock_file("lakes", &recorded, "file:///elsewhere.csv"),
        )
        .unwrap();
        let out = import(&ctx, &dir, &[&source, "--as", "lakes"]);
        assert_clear_error(&out, "is refused");
        assert!(stderr(&out).contains("stone-lock.json"), "{}", stderr(&out));
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{recorded}");
        assert!(dir.join("datasets.yaml").is_file(), "{recorded}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn resources_reaching_ext_through_a_linked_folder_or_another_case_are_refused() {
    let ctx = context_with_prod();
    // `data` is a link to `ext/other`: `data/a.csv` is in ext/.
    let dir = ctx.package(
        "linked",
        &descriptor("data/a.csv"),
        &[("ext/other/a.csv", b"x\n1\n")],
    );
    std::os::unix::fs::symlink("ext/other", dir.join("data")).unwrap();
    let out = dry_run(&ctx, &dir);
    assert_clear_error(&out, "`ext/` zone");
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));

    // `EXT/` is `ext/` on a case-insensitive file system.
    let dir = ctx.package(
        "upper",
        &descriptor("EXT/a.csv"),
        &[("EXT/a.csv", b"x\n1\n")],
    );
    assert_clear_error(&dry_run(&ctx, &dir), "`ext/` zone");
}

#[cfg(unix)]
#[test]
fn a_package_file_whose_name_is_not_plain_is_refused_before_anything_is_sent() {
    let ctx = context_with_prod();
    for name in [" ..", ".. ", "...", " lead.txt", "trail.txt ", "C:x"] {
        let dir = ctx.package("names", &descriptor("data"), &[("data/ok.txt", b"ok")]);
        std::fs::write(dir.join("data").join(name), b"x").unwrap();
        let out = dry_run(&ctx, &dir);
        assert_clear_error(&out, "is not a plain name");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// What a hostile server or plugin prints, meant for the terminal.
const EVIL: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[31mred\rover\u{202e}exe";

fn assert_escaped(out: &Output) {
    let err = stderr(out);
    for raw in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
        assert!(!err.contains(raw), "{raw:?} reached the terminal: {err:?}");
    }
    assert!(err.contains("\\u{1b}]0;owned"), "{err:?}");
}

#[test]
fn a_server_problem_reaches_the_terminal_with_its_escape_sequences_neutralized() {
    let problem = json!({
        "type": "about:blank", "title": "Forbidden", "status": 403,
        "code": "push.forbidden", "detail": format!("no {EVIL}")
    });
    let api = fake_api(json_answer(
        "403 Forbidden",
        problem.to_string().into_bytes(),
    ));
    let (ctx, dir) = against(&api);
    let out = push(&ctx, &dir);
    assert_clear_error(&out, "no ");
    assert_escaped(&out);
}

#[cfg(unix)]
#[test]
fn plugin_logs_and_stderr_reach_the_terminal_with_escape_sequences_neutralized() {
    let mut ctx = crate::context();
    let out_dir = ctx.root().join("unused");
    crate::plugins::install(&mut ctx, "evil", "hostile-text", "evil://", &out_dir);
    let dir = crate::plugins::package(&ctx);
    let out = run_bounded(
        ctx.stone()
            .args(["package", "push", "--branch", "b", "--to", "evil://x"])
            .arg(&dir),
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stderr \\u{1b}"),
        "{:?}",
        stderr(&out)
    );
    assert_escaped(&out);
}

#[cfg(unix)]
#[test]
fn a_relative_path_entry_runs_no_plugin_from_the_working_directory() {
    use std::os::unix::fs::PermissionsExt;
    let mut ctx = crate::context();
    // A cloned repository with a `stone-plugin-*` at its top, where stone runs.
    let marker = ctx.root().join("planted-plugin-ran");
    let planted = ctx.root().join("stone-plugin-planted");
    let mut script = std::fs::File::create(&planted).unwrap();
    write!(script, "#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()).unwrap();
    drop(script);
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    for entry in [".", "", "./"] {
        ctx.set_var("PATH", format!("{entry}:{path}"));
        let out = run_bounded(
            ctx.stone().args(["plugin", "list", "--json"]),
            Duration::from_secs(60),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            !stdout(&out).contains("planted"),
            "{entry:?}: {}",
            stdout(&out)
        );
        assert!(
            !marker.exists(),
            "PATH entry {entry:?} ran the planted plugin"
        );
    }
}

#[cfg(unix)]
#[test]
fn stones_own_folders_are_created_private() {
    use std::os::unix::fs::PermissionsExt;
    let ctx = context_with_prod();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let config_dir = ctx.config.parent().unwrap();
    assert_eq!(mode(config_dir), 0o700, "{}", config_dir.display());

    let dir = ctx.package("p", &descriptor("a.csv"), &[("a.csv", b"x\n1\n")]);
    let out = dry_run(&ctx, &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let state = dir.join(".stone");
    assert!(state.is_dir(), "{}", stderr(&out));
    assert_eq!(mode(&state), 0o700);
}
