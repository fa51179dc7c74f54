//! The one path rule on the server (issue 22): a push whose file paths a client would turn
//! into a path outside its `ext/` (a segment `" .."` that a trimming cleaner makes `..`),
//! or that is not a plain name on some system, is refused before anything is stored.

use serde_json::json;

use crate::api_support::{Dataset, File, Options, Site, manifest, staged_contents};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_paths_that_are_not_plain_names_are_refused_naming_the_segment() {
    let site = Site::new();
    let server = site.start();
    let (good, _) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "scans",
            "BLOB",
            vec![File::new("photos/a.bin", b"a".to_vec())],
        )],
    );
    assert_eq!(server.create_push(&good).await.status.as_u16(), 201);
    for (path, segment) in [
        ("photos/ ../ ../x.bin", "\" ..\""),
        ("photos/.. /x.bin", "\".. \""),
        ("photos/.../x.bin", "\"...\""),
        (" photos/x.bin", "\" photos\""),
        ("photos/x.bin ", "\"x.bin \""),
        ("C:/x.bin", "\"C:\""),
        ("photos/x\u{202e}nib.exe", "\\u{202e}"),
        ("photos\\..\\x.bin", "\\\\"),
        ("photos/\u{1b}[31mx.bin", "\\u{1b}"),
    ] {
        let mut bad = good.clone();
        bad["datasets"][0]["files"][0]["path"] = json!(path);
        let answer = server.create_push(&bad).await;
        assert_eq!(answer.status.as_u16(), 400, "{path:?}: {:#}", answer.body);
        assert_eq!(answer.code(), "request.invalid", "{path:?}");
        let detail = answer.body["detail"].as_str().unwrap_or_default();
        assert!(
            detail.contains(segment) && detail.contains("is refused"),
            "{path:?}: {detail}"
        );
    }
    // Only the good push staged anything; the refused ones stored nothing more.
    assert!(staged_contents(&server.data_dir).is_empty());
}
