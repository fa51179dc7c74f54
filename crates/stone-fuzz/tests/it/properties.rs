//! Properties of the names stone makes and reads, checked across crates: what the client
//! produces (slugs, normalized branches, `stone:` URLs, IRIs) is what the server accepts
//! and what the parsers read back.

use proptest::prelude::*;
use stone_api::validate::validate_manifest;
use stone_package::{Label, StoneUrl, normalize_branch, sanitize_slug};

/// The smallest manifest the server's checks accept, on `branch`.
fn manifest(branch: &str) -> stone_api::CreatePush {
    serde_json::from_value(serde_json::json!({
        "namespace": "demo",
        "branch": branch,
        "options": {"yes": false, "force": false, "replace": false, "manual": true},
        "package": {"name": "demo", "public": true},
        "datasets": [{"name": "d", "kind": "BLOB",
                      "files": [{"path": "d.bin", "sha256": "a".repeat(64), "size": 1}]}]
    }))
    .expect("a manifest")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The lock file target on lines `key`, `path`, `file`…, made of the pieces that
    /// decide (a key or another, `ext`, `..`, `.`, spaces, `/`, `\`, a NUL): the lock
    /// model accepts exactly what the path rule restated accepts (the target asserts it).
    #[test]
    fn lock_entries_are_accepted_exactly_when_the_path_rule_says_so(
        key in "(c|d|C|\\.\\.|c d|)",
        paths in proptest::collection::vec(
            proptest::collection::vec("(ext|EXT|c|d|\\.\\.|\\.| \\.\\.|a b|a\\\\b|x\\x00|)", 0..5),
            1..4,
        ),
    ) {
        let lines: Vec<String> = paths.iter().map(|segments| segments.join("/")).collect();
        let input = format!("{key}\n{}", lines.join("\n"));
        stone_fuzz::run("lock_file", input.as_bytes());
    }

    /// A slug is a label: `[a-z0-9-]`, at most 63 characters, no `-` at either end, no
    /// `--` (runs collapse), and slugging it again changes nothing.
    #[test]
    fn slugs_are_short_labels_and_stable(s in any::<String>()) {
        if let Some(slug) = sanitize_slug(&s) {
            let text = slug.as_str();
            prop_assert!(!text.is_empty() && text.chars().count() <= 63);
            prop_assert!(text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            prop_assert!(!text.starts_with('-') && !text.ends_with('-'));
            prop_assert!(!text.contains("--"), "{text}");
            prop_assert_eq!(sanitize_slug(text), Some(slug.clone()));
            prop_assert_eq!(Label::parse(text), Ok(slug.clone()));
        }
    }

    /// Names that are already clean keep their letters: ASCII words joined by one space,
    /// `_` or `-` slug to the words joined by `-`.
    #[test]
    fn clean_names_slug_predictably(words in proptest::collection::vec("[a-z0-9]{1,8}", 1..5), sep in "[ _-]") {
        let name = words.join(&sep);
        let expected = words.join("-");
        prop_assert_eq!(sanitize_slug(&name).map(|l| l.as_str().to_owned()), Some(expected));
    }

    /// A normalized branch is idempotent, keeps the length in characters, uses the safe
    /// alphabet, and the server's manifest check accepts it (a branch the client makes
    /// must never be refused by the server after the hashing and the upload plan).
    #[test]
    fn normalized_branches_are_accepted_by_the_server(s in "\\PC{1,80}") {
        let n = normalize_branch(&s);
        prop_assert_eq!(normalize_branch(&n), n.clone());
        prop_assert!(n.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')));
        let checked = validate_manifest(&manifest(&n));
        prop_assert!(checked.is_ok(), "{s:?} -> {n:?}: {checked:?}");
    }

    /// `stone:` URLs print to what they parse from, for namespaces alone and datasets;
    /// their IRIs are https URLs that `url` parses back to the same host and path.
    #[test]
    fn stone_urls_and_iris_round_trip(
        ns in "[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?",
        name in proptest::option::of("[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?"),
        host in "[a-z]{1,10}(\\.[a-z]{2,5}){1,2}(:[1-9][0-9]{1,3})?",
    ) {
        let text = match &name {
            Some(name) => format!("stone:{ns}/{name}"),
            None => format!("stone:{ns}"),
        };
        let parsed: StoneUrl = text.parse().unwrap();
        prop_assert_eq!(parsed.to_string(), text.clone());
        let again: StoneUrl = parsed.to_string().parse().unwrap();
        prop_assert_eq!(&again, &parsed);

        let iri = parsed.iri(&host);
        let url = url::Url::parse(&iri).unwrap();
        prop_assert_eq!(url.scheme(), "https");
        let (name_part, port) = match host.split_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().unwrap()),
            None => (host.as_str(), 443),
        };
        prop_assert_eq!(url.host_str(), Some(name_part));
        prop_assert_eq!(url.port_or_known_default(), Some(port));
        let expected_path = match &name {
            Some(name) => format!("/{ns}/{name}"),
            None => format!("/{ns}"),
        };
        prop_assert_eq!(url.path(), expected_path);
    }

    /// Whatever follows `stone:`, parsing ends in a URL that prints back to the input, or
    /// an error quoting the input; never a panic.
    #[test]
    fn stone_url_parsing_is_exact(s in any::<String>()) {
        let text = format!("stone:{s}");
        match text.parse::<StoneUrl>() {
            Ok(url) => prop_assert_eq!(url.to_string(), text),
            Err(message) => prop_assert!(message.contains(&text), "{message}"),
        }
    }
}
