//! Names on the platform: namespace and dataset labels, `stone:` URLs, https IRIs and slugs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The longest label, as for a DNS label.
pub const MAX_LABEL_LEN: usize = 63;

/// A namespace or dataset name: lowercase DNS-label style, `[a-z0-9]` with inner `-`,
/// 1 to 63 characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Label(String);

impl Label {
    /// Checks `s` is a label; the error says which rule it breaks.
    pub fn parse(s: &str) -> Result<Label, String> {
        if s.is_empty() {
            return Err("is empty".into());
        }
        if s.chars().count() > MAX_LABEL_LEN {
            return Err(format!("is longer than {MAX_LABEL_LEN} characters"));
        }
        if let Some(c) = s
            .chars()
            .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-'))
        {
            return Err(format!(
                "has `{}`; only lowercase letters a-z, digits and inner `-` are allowed",
                c.escape_debug()
            ));
        }
        if s.starts_with('-') || s.ends_with('-') {
            return Err("starts or ends with `-`".into());
        }
        Ok(Label(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Label {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Label::parse(&s).map_err(|why| format!("`{s}` is not a valid name: it {why}"))
    }
}

impl From<Label> for String {
    fn from(label: Label) -> String {
        label.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A `stone:` URL: `stone:<ns>` names a namespace (and its package node),
/// `stone:<ns>/<name>` one dataset. The scheme is host-free; the engine is never in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct StoneUrl {
    pub namespace: Label,
    pub name: Option<Label>,
}

pub const SCHEME: &str = "stone:";

impl StoneUrl {
    pub fn dataset(namespace: Label, name: Label) -> StoneUrl {
        StoneUrl {
            namespace,
            name: Some(name),
        }
    }

    pub fn namespace(namespace: Label) -> StoneUrl {
        StoneUrl {
            namespace,
            name: None,
        }
    }

    /// The https IRI of this dataset (or package node) in an environment whose host is
    /// `host`: `https://{host}/{ns}/{name}`, `https://{host}/{ns}`.
    pub fn iri(&self, host: &str) -> String {
        match &self.name {
            Some(name) => format!("https://{host}/{}/{name}", self.namespace),
            None => format!("https://{host}/{}", self.namespace),
        }
    }
}

impl FromStr for StoneUrl {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let Some(rest) = s.strip_prefix(SCHEME) else {
            return Err(format!(
                "`{s}` is not a `stone:` URL (expected `stone:<namespace>` or `stone:<namespace>/<name>`)"
            ));
        };
        if rest.starts_with("//") {
            return Err(format!(
                "`{s}` names a host, but `stone:` URLs are host-free: write `stone:<namespace>/<name>`, or use an https:// URL for a reference with a host"
            ));
        }
        let (ns, name) = match rest.split_once('/') {
            Some((ns, name)) => (ns, Some(name)),
            None => (rest, None),
        };
        let namespace =
            Label::parse(ns).map_err(|why| format!("`{s}`: the namespace `{ns}` {why}"))?;
        let name = match name {
            Some(name) if name.contains('/') => {
                return Err(format!(
                    "`{s}` has more than one `/`: expected `stone:<namespace>/<name>`"
                ));
            }
            Some(name) => {
                Some(Label::parse(name).map_err(|why| format!("`{s}`: the name `{name}` {why}"))?)
            }
            None => None,
        };
        Ok(StoneUrl { namespace, name })
    }
}

impl TryFrom<String> for StoneUrl {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<StoneUrl> for String {
    fn from(url: StoneUrl) -> String {
        url.to_string()
    }
}

impl fmt::Display for StoneUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{SCHEME}{}/{name}", self.namespace),
            None => write!(f, "{SCHEME}{}", self.namespace),
        }
    }
}

/// Turns any name into a slug: Unicode NFKD, combining marks dropped, lowercase, each run of
/// characters outside `[a-z0-9]` becomes one `-`, `-` trimmed, cut to 63 characters.
/// `None` when nothing is left.
pub fn sanitize_slug(source: &str) -> Option<Label> {
    let folded: String = source
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .collect();
    let mut slug = String::with_capacity(folded.len());
    for c in folded.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.truncate(MAX_LABEL_LEN);
    let slug = slug.trim_matches('-');
    Label::parse(slug).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn stone_urls_round_trip() {
        let url: StoneUrl = "stone:demo/cities".parse().unwrap();
        assert_eq!(url.namespace.as_str(), "demo");
        assert_eq!(url.name.as_ref().unwrap().as_str(), "cities");
        assert_eq!(url.to_string(), "stone:demo/cities");
        assert_eq!(
            url.iri("data.example.org"),
            "https://data.example.org/demo/cities"
        );
        let ns: StoneUrl = "stone:demo".parse().unwrap();
        assert_eq!(ns.iri("data.example.org"), "https://data.example.org/demo");
    }

    #[test]
    fn stone_url_errors() {
        for (input, fragment) in [
            ("https://x/demo", "is not a `stone:` URL"),
            ("stone://host/demo/x", "host-free"),
            ("stone:Demo/x", "the namespace `Demo` has `D`"),
            ("stone:demo/a/b", "more than one `/`"),
            ("stone:demo/", "the name `` is empty"),
            ("stone:-demo", "starts or ends with `-`"),
            ("stone:", "is empty"),
        ] {
            let err = input.parse::<StoneUrl>().unwrap_err();
            assert!(err.contains(fragment), "{input}: {err}");
        }
        let long = format!("stone:{}", "a".repeat(64));
        assert!(
            long.parse::<StoneUrl>()
                .unwrap_err()
                .contains("longer than 63")
        );
        assert!(
            format!("stone:{}", "a".repeat(63))
                .parse::<StoneUrl>()
                .is_ok()
        );
    }

    #[test]
    fn slugs_of_unicode_names() {
        let cases = [
            ("Cities of Europe", "cities-of-europe"),
            ("Ünïcödé Straße", "unicode-straße"),
            ("Café_Prices 2024!!", "cafe-prices-2024"),
            ("  --leading and trailing--  ", "leading-and-trailing"),
            ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
            ("ﬁle", "file"),
            ("İstanbul", "istanbul"),
            ("Ελληνικά data", "data"),
            ("a__b..c", "a-b-c"),
        ];
        for (input, expected) in cases {
            let expected = expected.replace("straße", "stra-e");
            assert_eq!(
                sanitize_slug(input).map(String::from).as_deref(),
                Some(expected.as_str()),
                "{input}"
            );
        }
        assert_eq!(sanitize_slug("日本語"), None);
        assert_eq!(sanitize_slug("---"), None);
        let long = sanitize_slug(&format!("{}-x", "a".repeat(62))).unwrap();
        assert_eq!(long.as_str(), "a".repeat(62), "cut to 63 then trimmed");
    }

    proptest! {
        #[test]
        fn sanitized_slugs_are_valid_and_stable(s in any::<String>()) {
            if let Some(slug) = sanitize_slug(&s) {
                prop_assert!(Label::parse(slug.as_str()).is_ok());
                prop_assert_eq!(sanitize_slug(slug.as_str()), Some(slug.clone()));
            }
        }

        #[test]
        fn stone_url_parser_never_panics(s in any::<String>()) {
            let _ = format!("stone:{s}").parse::<StoneUrl>();
            let _ = s.parse::<StoneUrl>();
        }

        #[test]
        fn valid_urls_round_trip(ns in "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", name in "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?") {
            let text = format!("stone:{ns}/{name}");
            let url: StoneUrl = text.parse().unwrap();
            prop_assert_eq!(url.to_string(), text);
        }
    }
}

/// Where `publish.to` (or `stone package push --to`) sends a package: the platform
/// (`stone:<ns>`) or any other URL with a scheme — a blob store (`s3://bucket/prefix`,
/// `gs://`, `az://`, `abfs://`, `file:///path`), an https server, or whatever scheme a plugin
/// claims, with a host (`acc://host/…`) or host-free as `stone:` is (`acc:somewhere`). Which handler takes a URL is decided at push time, not here.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Destination {
    Stone(StoneUrl),
    Url(String),
}

impl Destination {
    /// The `stone:` URL, when the destination is the platform by name.
    pub fn stone(&self) -> Option<&StoneUrl> {
        match self {
            Destination::Stone(url) => Some(url),
            Destination::Url(_) => None,
        }
    }

    /// The URL scheme (`stone`, `s3`, `https`, …).
    pub fn scheme(&self) -> &str {
        match self {
            Destination::Stone(_) => "stone",
            Destination::Url(url) => url.split_once(':').map(|(s, _)| s).unwrap_or_default(),
        }
    }
}

impl FromStr for Destination {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.starts_with(SCHEME) {
            return s.parse().map(Destination::Stone);
        }
        let Some((scheme, after_scheme)) = s.split_once(':') else {
            return Err(format!(
                "`{s}` has no scheme (`<scheme>://…`, or `<scheme>:…` for a plugin's host-free scheme)"
            ));
        };
        let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_lowercase())
            && scheme
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-.".contains(c));
        if !scheme_ok {
            return Err(format!(
                "`{s}`: the scheme `{scheme}` must be lowercase letters, digits, `+`, `-` or `.`"
            ));
        }
        if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!("`{s}` has spaces or control characters"));
        }
        let Some(rest) = after_scheme.strip_prefix("//") else {
            // A host-free scheme (`acc:somewhere`), as `stone:` is: whatever plugin claims
            // the scheme decides what the rest means. One letter is a drive (`c:`), not a scheme.
            if scheme.len() < 2 {
                return Err(format!(
                    "`{s}` looks like a drive letter, not a URL: a folder is published with `file:///path`"
                ));
            }
            if after_scheme.is_empty() {
                return Err(format!("`{s}` has nothing after `{scheme}:`"));
            }
            return Ok(Destination::Url(s.to_owned()));
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        // `abfs://container@account.dfs.core.windows.net/…` names a container before `@`.
        let credentials = match authority.split_once('@') {
            Some((user, _)) => !matches!(scheme, "abfs" | "abfss") || user.contains(':'),
            None => false,
        };
        if credentials {
            // Never repeat the secret.
            let host = authority
                .rsplit_once('@')
                .map(|(_, h)| h)
                .unwrap_or_default();
            let shown = format!("{scheme}://***@{host}");
            return Err(format!(
                "`{shown}…` has credentials in it: datasets.yaml is shared, so credentials belong in the environment (e.g. AWS_ACCESS_KEY_ID) or a plugin's own config"
            ));
        }
        if authority.is_empty() && scheme != "file" {
            return Err(format!("`{s}` has no bucket or host after `{scheme}://`"));
        }
        if scheme == "file" && !rest.starts_with('/') {
            return Err(format!(
                "`{s}`: a `file://` URL needs an absolute path, as in `file:///srv/data`"
            ));
        }
        Ok(Destination::Url(s.trim_end_matches('/').to_owned()))
    }
}

impl TryFrom<String> for Destination {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<Destination> for String {
    fn from(d: Destination) -> String {
        d.to_string()
    }
}

impl fmt::Display for Destination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Destination::Stone(url) => url.fmt(f),
            Destination::Url(url) => f.write_str(url),
        }
    }
}

#[cfg(test)]
mod destination_tests {
    use super::*;

    #[test]
    fn destinations() {
        for ok in [
            "s3://bucket/prefix",
            "gs://b",
            "az://container/p",
            "abfs://c@acct.dfs.core.windows.net/p",
            "file:///srv/data",
            "https://example.org/dav/",
            "hf://datasets/x",
            "acc:somewhere",
            "acc:team/x",
        ] {
            let parsed: Result<Destination, _> = ok.parse();
            assert!(matches!(parsed, Ok(Destination::Url(_))), "{ok}");
        }
        assert!(matches!(
            "stone:t".parse::<Destination>(),
            Ok(Destination::Stone(_))
        ));
        for bad in [
            "data.example.org/t",
            "https://u:p@host/x",
            "s3:///nobucket",
            "file://relative",
            "HTTPS://x",
            "c:\\data",
            "acc:",
            "acc: x",
        ] {
            assert!(bad.parse::<Destination>().is_err(), "{bad}");
        }
        assert_eq!(
            "file:///srv/data/"
                .parse::<Destination>()
                .unwrap()
                .to_string(),
            "file:///srv/data"
        );
    }
}
