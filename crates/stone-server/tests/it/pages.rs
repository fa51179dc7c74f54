//! Pages for people (issue 25, part 3), on the real binary and in a real browser: Debian's
//! `chromium`, headless, opens the namespace IRI and each dataset IRI as a browser does
//! (its own `Accept: text/html…`). Each page is rendered to a phone-sized screenshot kept
//! under `<target>/test-artifacts/pages/`, its DOM is dumped and checked (a heading,
//! tables with header cells, no script, the hostile title inert), Chromium's console log
//! has no error, and every link of the page answers 200 to an HTTP client. A private
//! dataset opened without a token answers a 401 page that says how to log in.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use crate::api_oidc::oidc_site_with_token;
use crate::api_read::read;
use crate::api_support::{
    Dataset, File, Options, Server, Site, client, manifest, noise, people_parquet, turtle,
};

const HOSTILE: &str = "<script>alert('x')</script><img src=x onerror=alert(1)>";

fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|path| path.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "Chromium is not installed: the pages test renders the pages in headless Chromium. \
             Install it with scripts/install-tools (Debian: apt-get install chromium, as root)."
        )
    })
}

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("test-artifacts/pages");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What headless Chromium saw of `url`: the DOM after load and its log (stderr).
struct Rendered {
    dom: String,
    log: String,
}

fn render(url: &str, screenshot: &Path) -> Rendered {
    let profile = tempfile::tempdir().unwrap();
    let run = |mode: &str| {
        let output = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--hide-scrollbars",
                "--window-size=412,915",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(mode)
            .arg(url)
            .env_remove("CI")
            .env_remove("CI_HEAD_REF")
            .env_remove("CI_REF_NAME")
            .output()
            .expect("run chromium");
        assert!(
            output.status.success(),
            "chromium {mode} {url} failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    let shot = run(&format!("--screenshot={}", screenshot.display()));
    assert!(
        std::fs::metadata(screenshot).is_ok_and(|m| m.len() > 0),
        "no screenshot of {url}"
    );
    let dumped = run("--dump-dom");
    Rendered {
        dom: String::from_utf8_lossy(&dumped.stdout).into_owned(),
        log: String::from_utf8_lossy(&shot.stderr).into_owned()
            + &String::from_utf8_lossy(&dumped.stderr),
    }
}

/// The `href`s of a DOM (as Chromium serialises it: attribute values in double quotes,
/// `&amp;` for `&`).
fn links(dom: &str) -> Vec<String> {
    dom.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.replace("&amp;", "&"))
        .collect()
}

/// Console messages Chromium logs (`CONSOLE` lines), and errors loading the page.
fn console_errors(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|line| {
            line.contains("CONSOLE")
                || line.contains("Uncaught")
                || line.contains("Refused to")
                || line.contains("net::ERR_")
        })
        .collect()
}

/// The page's text with the escapes of `/` and `&` undone (the escaped markup stays escaped).
fn unescape(html: &str) -> String {
    html.replace("&#x2f;", "/").replace("&amp;", "&")
}

async fn push_example(server: &Server) {
    let (mut m, contents) = manifest(
        "demo",
        "main",
        Options::default(),
        Some("1.0.0"),
        &[
            Dataset::new(
                "people",
                "TABULAR",
                vec![File::new("people.parquet", people_parquet(&[1, 2, 3]))],
            ),
            Dataset::new("vocab", "GRAPH", vec![File::new("vocab.ttl", turtle(6))]),
            Dataset::new(
                "blob",
                "BLOB",
                vec![File::new("data/readings.bin", noise(5, 2_000))],
            ),
        ],
    );
    // Another tenant's markup in the title and description: shown, never run.
    m["datasets"][0]["metadata"] =
        json!({"title": HOSTILE, "description": format!("rows {HOSTILE}")});
    m["package"]["description"] = json!(HOSTILE);
    server.push(&m, &contents).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_get_pages_that_render_link_and_escape() {
    let site = Site::new();
    let server = site.start();
    push_example(&server).await;
    let out = artifacts();
    let pages = [
        ("namespace", "/demo"),
        ("table", "/demo/people"),
        ("graph", "/demo/vocab"),
        ("blob", "/demo/blob"),
        ("table-version", "/demo/people?version=1.0.0"),
    ];
    for (label, path) in pages {
        let url = server.url(path);
        let rendered = render(&url, &out.join(format!("{label}.png")));
        std::fs::write(out.join(format!("{label}.html")), &rendered.dom).unwrap();
        let dom = &rendered.dom;
        assert!(dom.contains("<h1>"), "{label}: a heading\n{dom}");
        assert!(
            dom.contains("<th scope=\"col\">"),
            "{label}: tables with headers\n{dom}"
        );
        assert!(
            dom.contains("<meta name=\"viewport\""),
            "{label}: phone-readable"
        );
        assert!(
            !dom.contains("<script"),
            "{label}: no script, the hostile one inert\n{dom}"
        );
        assert!(
            !dom.contains("<img"),
            "{label}: hostile markup is text\n{dom}"
        );
        let errors = console_errors(&rendered.log);
        assert!(errors.is_empty(), "{label}: console errors: {errors:#?}");
        // Every link answers 200 to an HTTP client.
        for href in links(dom) {
            if href.starts_with("data:") {
                continue;
            }
            assert!(
                href.starts_with('/'),
                "{label}: links stay on the server: {href}"
            );
            let answer = client().get(server.url(&href)).send().await.unwrap();
            assert_eq!(answer.status(), 200, "{label}: the link {href}");
        }
    }
    // The table's page: the escaped title, its schema, a preview, downloads, the lines.
    let table = read(&server, "/demo/people", &[("accept", "text/html")]).await;
    assert_eq!(table.status, 200);
    assert!(table.header("content-type").starts_with("text/html"));
    let text = unescape(&table.text());
    assert!(text.contains("&lt;script&gt;alert("), "{text}");
    for expected in [
        "person-2",
        "format=parquet",
        "format=csv",
        "stone data import stone:demo/people",
        "read_parquet(",
        "1.0.0",
    ] {
        assert!(
            text.contains(expected),
            "the table page shows {expected}:\n{text}"
        );
    }
    let graph = unescape(
        &read(&server, "/demo/vocab", &[("accept", "text/html")])
            .await
            .text(),
    );
    assert!(graph.contains("http://example.org/s0"), "{graph}");
    assert!(graph.contains("Triples"), "{graph}");
    let namespace = unescape(
        &read(&server, "/demo", &[("accept", "text/html")])
            .await
            .text(),
    );
    for dataset in ["/demo/people", "/demo/vocab", "/demo/blob"] {
        assert!(
            namespace.contains(&format!("href=\"{dataset}\"")),
            "{namespace}"
        );
    }
    // Machines keep the negotiation of before.
    let json = read(&server, "/demo/people", &[("accept", "application/json")]).await;
    assert_eq!(json.json()["name"], "people");
    let csv = read(&server, "/demo/people", &[]).await;
    assert!(csv.header("content-type").starts_with("text/csv"));
    let node = read(&server, "/demo", &[]).await;
    assert_eq!(node.json()["namespace"], "demo");
    let asked = read(
        &server,
        "/demo/people?format=csv",
        &[("accept", "text/html")],
    )
    .await;
    assert!(asked.header("content-type").starts_with("text/csv"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_dataset_page_says_how_to_log_in() {
    let (_site, server, token) = oidc_site_with_token("alice");
    let (mut m, contents) = manifest(
        "hidden",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "notes",
            "BLOB",
            vec![File::new("n.txt", b"secret\n".to_vec())],
        )],
    );
    m["package"]["public"] = json!(false);
    m["package"]["title"] = json!("Hidden things");
    server.push_as(Some(&token), &m, &contents).await;

    let rendered = render(
        &server.url("/hidden/notes?branch=dev"),
        &artifacts().join("private-401.png"),
    );
    assert!(rendered.dom.contains("stone login"), "{}", rendered.dom);
    assert!(
        rendered
            .dom
            .contains("stone data import stone:hidden/notes --branch dev"),
        "{}",
        rendered.dom
    );
    assert!(!rendered.dom.contains("secret"));
    let page = read(
        &server,
        "/hidden/notes?branch=dev",
        &[("accept", "text/html")],
    )
    .await;
    assert_eq!(page.status, 401);
    assert!(page.header("content-type").starts_with("text/html"));
    assert!(page.text().contains("<h1>"));
    let namespace = read(&server, "/hidden?branch=dev", &[("accept", "text/html")]).await;
    assert_eq!(namespace.status, 401);
    assert!(namespace.text().contains("stone login"));
    // With the token, the page.
    let bearer = format!("Bearer {token}");
    let page = read(
        &server,
        "/hidden/notes?branch=dev",
        &[("accept", "text/html"), ("authorization", &bearer)],
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("n.txt"));
}
