//! The Python API (`import stone_client as stone`, issue 57) as users get it: the
//! `stone-cli` wheel (the executable and the package `stone_client`) and the
//! `stone-plugin-sdk` wheel it depends on, built here and installed into a fresh venv
//! with no index, then driven by `crates/stone-test/assets/python_client.py` against a
//! real `stone-server`, in isolated mode (`python -I`: no repository on `sys.path`).
//!
//! pyarrow and pyoxigraph come from the tools' venv (a `.pth` line in the fresh venv):
//! pip cannot download them here, and they are not ours to build.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use stone_test::TestContext;
use stone_test::services::{
    AuthorizationRequest, Browser, OidcConfig, OidcProvider, OidcUser, StoneServer,
};
use stone_test::tools::{asset, python, tools_dir};

use super::{build_sdk_wheel, build_wheel, run};
use crate::identity::{self, World, alice, bob};

const HOST: &str = "data.test";

/// The wheels of `stone-cli` (and `stone-cli-rdf` with `rdf`) and `stone-plugin-sdk`,
/// installed into a fresh venv under `dir`: `pip install 'stone-cli[arrow]'` (`[arrow,rdf]`)
/// from those wheels only.
fn venv_with_client(dir: &Path, rdf: bool) -> PathBuf {
    let dist = dir.join("dist");
    build_wheel("stone-cli", &dist.join("cli"));
    let sdk = dist.join("sdk");
    build_sdk_wheel(dir, &sdk);
    let mut links = vec![dist.join("cli"), sdk];
    if rdf {
        build_wheel("stone-cli-rdf", &dist.join("rdf"));
        links.push(dist.join("rdf"));
    }

    let venv = dir.join("venv");
    let mut command = Command::new(python());
    stone_test::context::isolate(&mut command, dir);
    run(command.arg("-m").arg("venv").arg(&venv), "python -m venv");
    let site = run(
        Command::new(venv.join("bin/python")).args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ]),
        "the venv's site-packages",
    );
    let tools_site = run(
        Command::new(python()).args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
        ]),
        "the tools' site-packages",
    );
    // After the venv's own packages: what the wheels install comes first.
    std::fs::write(
        Path::new(site.trim()).join("zz_stone_tools.pth"),
        format!("{}\n", tools_site.trim()),
    )
    .unwrap();
    let mut command = Command::new(venv.join("bin/python"));
    stone_test::context::isolate(&mut command, dir);
    command.args([
        "-m",
        "pip",
        "install",
        "--no-index",
        "--disable-pip-version-check",
    ]);
    for link in &links {
        command.arg("--find-links").arg(link);
    }
    command.arg(if rdf {
        "stone-cli[arrow,rdf]"
    } else {
        "stone-cli[arrow]"
    });
    run(&mut command, "pip install stone-cli from the built wheels");
    venv
}

/// `python -I python_client.py <what> <work> [args]` with the venv's Python and the
/// context's environment; its summary (the last line of stdout).
fn client_script(
    ctx: &TestContext,
    venv: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Value, String) {
    let mut command = ctx.command(venv.join("bin/python"));
    command
        .arg("-I")
        .arg(asset("python_client.py"))
        .arg(args[0])
        .arg(ctx.root())
        .args(&args[1..])
        .env("STONE_TOOLS_DIR", tools_dir())
        .current_dir(ctx.root());
    for (key, value) in env {
        command.env(key, value);
    }
    let out = command.output().expect("the venv's python starts");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "python_client.py {args:?} failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        out.status
    );
    let last = stdout.lines().last().unwrap_or_default();
    let summary = serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("no JSON summary ({e}):\n{stdout}\n{stderr}"));
    (summary, format!("{stdout}\n{stderr}"))
}

/// Push from Python through the bundled `stone` (the CLI's rules and codes as typed
/// exceptions), then read everything back through the server: a table as Arrow (values,
/// a branch, a named version, a column subset, a filter, batches), the namespace's list,
/// a graph and SPARQL, a blob by HTTP range, a download; and the error paths.
#[test]
fn python_pushes_and_reads_back_through_the_server() {
    let temp = tempfile::Builder::new()
        .prefix("stone-python-client-")
        .tempdir()
        .unwrap();
    let venv = venv_with_client(temp.path(), true);
    let server = StoneServer::start(&temp.path().join("data"), None, &[]);
    let ctx = TestContext::new(venv.join("bin/stone"));
    ctx.add_env("local", HOST, &server.api());

    let (summary, output) = client_script(&ctx, &venv, &["push_read"], &[]);
    assert_eq!(summary["rows"], 4, "{output}");
    assert_eq!(summary["triples"], 8, "{output}");
    assert_eq!(summary["range_bytes"], 4096, "{output}");
    // Progress (checked in the script: the CLI's lines without tqdm, a tqdm bar with it).

    // read_table read the table's Arrow answer with its buffers compressed, cached once
    // per snapshot; the older clients' request (the stream compressed whole) was cached
    // beside it.
    let log = server.log_tail(100_000);
    for suffix in [".zstd.arrows", ".arrows.zst"] {
        assert!(
            log.lines()
                .any(|l| l.contains("materialised the answer of a snapshot")
                    && l.contains("py.cities")
                    && l.contains(suffix)),
            "the Arrow answer ({suffix}) of py.cities materialised: {log}"
        );
    }

    // The blob was read by range: the server sent the 4 KiB asked for (with the
    // reader's buffer), not the whole MiB, before the download sent it whole.
    let log = server.log_tail(100_000);
    let sent: Vec<u64> = log
        .lines()
        .filter(|l| l.contains("content sent") && l.contains("py/readings"))
        .filter_map(|l| l.split("bytes=").nth(1))
        .filter_map(|n| n.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(
        sent.iter().any(|&n| n > 0 && n <= 8192),
        "a range read of at most 8 KiB of py/readings in the server's log: {sent:?}"
    );
    assert!(sent.contains(&(1 << 20)), "the download: {sent:?}");
}

/// A table of 10,000,000 rows read in batches (one column of two) with the reader's peak
/// RSS under 500 MB, measured by the Python process itself (`getrusage`), one that only
/// reads (the table is written and pushed by another).
#[test]
fn python_reads_ten_million_rows_in_batches_in_bounded_memory() {
    let temp = tempfile::Builder::new()
        .prefix("stone-python-big-")
        .tempdir()
        .unwrap();
    let venv = venv_with_client(temp.path(), false);
    let server = StoneServer::start(&temp.path().join("data"), None, &[]);
    let ctx = TestContext::new(venv.join("bin/stone"));
    ctx.add_env("local", HOST, &server.api());
    let (pushed, output) = client_script(&ctx, &venv, &["big_push"], &[]);
    assert_eq!(pushed["pushed"]["total_rows"], 10_000_000, "{output}");
    let (summary, output) = client_script(&ctx, &venv, &["big_read"], &[]);
    assert_eq!(summary["rows"], 10_000_000, "{output}");
    let peak = summary["peak_rss_kib"].as_u64().unwrap();
    assert!(peak < 500 * 1024, "peak RSS {peak} KiB: {output}");
    assert!(
        summary["batches"].as_u64().unwrap() > 10,
        "read in batches: {output}"
    );
    eprintln!("10,000,000 rows in batches: {summary}");

    // A row_filter skips the row groups whose statistics rule it out: on the sorted `id`,
    // 100 rows of one row group; on `value`, rows of every row group (all read).
    let sent_for = |column: &str, rows: u64| -> u64 {
        let before = content_sent(&server, "bulk/rows").len();
        let (summary, output) = client_script(&ctx, &venv, &["big_filter", column], &[]);
        assert_eq!(summary["rows"], rows, "{output}");
        content_sent(&server, "bulk/rows")[before..].iter().sum()
    };
    let by_id = sent_for("id", 100);
    let by_value = sent_for("value", 9_766);
    let answer = cached_parquet_size(&temp.path().join("data"));
    eprintln!(
        "row_filter: {by_id} bytes sent for 100 rows by id, {by_value} for 9,766 rows by value; the Parquet answer {answer} bytes"
    );
    assert!(
        by_value > answer / 2,
        "the value filter reads every row group: {by_value} of {answer}"
    );
    assert!(
        by_id * 5 < by_value,
        "the id filter reads one row group of the answer's: {by_id} against {by_value}"
    );
}

/// The bytes of each `content sent` line of the server's log for `dataset`, in order.
fn content_sent(server: &StoneServer, dataset: &str) -> Vec<u64> {
    server
        .log_tail(10_000_000)
        .lines()
        .filter(|l| l.contains("content sent") && l.contains(dataset))
        .filter_map(|l| l.split("bytes=").nth(1))
        .filter_map(|n| n.split_whitespace().next()?.parse().ok())
        .collect()
}

/// The size of the one cached Parquet answer under the server's data directory.
fn cached_parquet_size(data: &Path) -> u64 {
    let mut sizes = Vec::new();
    for table in std::fs::read_dir(data.join("cache/content")).unwrap() {
        for file in std::fs::read_dir(table.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "parquet") {
                sizes.push(std::fs::metadata(&path).unwrap().len());
            }
        }
    }
    assert_eq!(sizes.len(), 1, "one cached Parquet answer: {sizes:?}");
    sizes[0]
}

/// A token of `user` from the provider (a browser login with PKCE).
fn token_of(provider: &OidcProvider, user: &OidcUser) -> String {
    let request = AuthorizationRequest::new(40_157);
    let redirect = Browser::new()
        .authorize(&provider.authorization_url(&request), &user.credentials())
        .unwrap_or_else(|e| panic!("the login of {} failed: {e}", user.sub));
    let code = redirect.code().unwrap();
    let verifier = &request.pkce.as_ref().unwrap().verifier;
    let tokens = provider
        .exchange_code(&code, &request.redirect_uri, verifier)
        .unwrap_or_else(|e| panic!("{e}"));
    tokens["access_token"].as_str().unwrap().to_owned()
}

/// A private namespace: pushed and read from Python with a token of the real OpenID
/// provider (`STONE_TOKEN`), then with the login `stone login` stored (through the
/// bundled `stone`); refused without a token (401 `auth.required`) and with a token that
/// has no grant on it (403 `authz.forbidden`); the token never in a repr or an error.
#[test]
fn python_reads_a_private_namespace_with_a_token_of_the_provider() {
    let temp = tempfile::Builder::new()
        .prefix("stone-python-private-")
        .tempdir()
        .unwrap();
    let venv = venv_with_client(temp.path(), false);
    let provider = OidcProvider::start(OidcConfig::default().with_user(alice()).with_user(bob()));
    let data = tempfile::Builder::new()
        .prefix("stone-server-data-")
        .tempdir()
        .unwrap();
    let config = format!(
        "public_host = \"{HOST}\"\n[auth]\nmode = \"oidc\"\nissuer = \"{}\"\naudience = \"{}\"\n\
         [authz]\n[authz.grants]\n\"protected-write\" = [{{ namespaces = [\"secret\"], access = \"admin\" }}]\n",
        provider.issuer(),
        provider.config().resource
    );
    let server = StoneServer::start(data.path(), Some(&config), &[]);
    let mut ctx = TestContext::new(venv.join("bin/stone"));
    ctx.set_var("STONE_NO_BROWSER", "1");
    ctx.set_var("STONE_KEYRING", "0");
    ctx.add_env("dev", HOST, &server.api());

    let alice_token = token_of(&provider, &alice());
    let (pushed, output) = client_script(
        &ctx,
        &venv,
        &["private", "push"],
        &[("STONE_TOKEN", &alice_token)],
    );
    assert_eq!(pushed["rows"], 2, "{output}");
    assert_eq!(pushed["token_from"], "stone_token", "{output}");
    identity::assert_no_token(&[&output], &[&alice_token]);

    let (anonymous, output) = client_script(&ctx, &venv, &["private", "anonymous"], &[]);
    assert_eq!(anonymous["refused"], "auth.required", "{output}");

    let bob_token = token_of(&provider, &bob());
    let (forbidden, output) = client_script(
        &ctx,
        &venv,
        &["private", "forbidden"],
        &[("STONE_TOKEN", &bob_token)],
    );
    assert_eq!(forbidden["refused"], "authz.forbidden", "{output}");
    identity::assert_no_token(&[&output], &[&bob_token]);

    // The stored login: `stone login` (the venv's stone) through the provider's forms.
    let world = World {
        provider,
        server,
        ctx,
        _data: data,
    };
    identity::login(&world, &alice());
    let (logged_in, output) = client_script(&world.ctx, &venv, &["private", "login"], &[]);
    assert_eq!(logged_in["rows"], 2, "{output}");
    assert_eq!(logged_in["token_from"], "login", "{output}");
    let stored = identity::stored(&world.ctx);
    let access = stored["access_token"].as_str().unwrap_or_default();
    identity::assert_no_token(&[&output], &[access]);
}

/// The ```` ```python ```` blocks of `text`, in order.
fn python_cells(text: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```python") => current = Some(String::new()),
            (Some(cell), "```") => {
                cells.push(std::mem::take(cell));
                current = None;
            }
            (Some(cell), _) => {
                cell.push_str(line);
                cell.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```python block");
    cells
}

/// docs/python.md's notebook: its Python cells run in order, in one interpreter (as a
/// notebook's kernel would), in the fresh venv, against a real server, from a folder
/// holding `quickstart/` as the page says. A cell that raises fails the test.
#[test]
fn the_python_docs_run_as_a_notebook() {
    let text = std::fs::read_to_string(stone_test::tools::workspace_root().join("docs/python.md"))
        .unwrap();
    let cells = python_cells(&text);
    assert!(cells.len() >= 8, "the notebook's cells: {}", cells.len());
    let temp = tempfile::Builder::new()
        .prefix("stone-python-docs-")
        .tempdir()
        .unwrap();
    let venv = venv_with_client(temp.path(), true);
    let server = StoneServer::start(&temp.path().join("data"), None, &[]);
    let ctx = TestContext::new(venv.join("bin/stone"));
    ctx.add_env("local", "data.localhost", &server.api());
    crate::copy_dir(
        &stone_test::tools::workspace_root().join("examples/quickstart"),
        &ctx.root().join("quickstart"),
    );
    let mut notebook = String::new();
    for (number, cell) in cells.iter().enumerate() {
        notebook.push_str(&format!("# --- cell {} ---\n{cell}\n", number + 1));
    }
    let script = temp.path().join("notebook.py");
    std::fs::write(&script, &notebook).unwrap();
    let out = ctx
        .command(venv.join("bin/python"))
        .arg("-I")
        .arg(&script)
        .current_dir(ctx.root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "docs/python.md's notebook failed ({}):\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}\n--- notebook ---\n{notebook}",
        out.status
    );
    for expected in [
        "stone:demo/cities TABULAR created",
        "6 ['city', 'country', 'population', 'latitude', 'longitude']",
        "push.confirmation_required |",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in:\n{stdout}");
    }
}
