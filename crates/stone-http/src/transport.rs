//! Where plain http may go: the one rule for every URL the CLI sends to (push API,
//! staging URLs, OpenID provider, remote sources, blob stores). Bearer tokens, keys and
//! data travel over https; plain http only to this machine, where nobody sits on the way.

use reqwest::Url;

/// Whether `url`'s host is this machine: `localhost`, 127.0.0.0/8 or `::1`. A host in
/// the user info (`http://localhost@evil.example`) does not count: the URL parser takes
/// the host after `@`.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Whether `url` may carry tokens and data: `https://` to a host, or `http://` to this
/// machine ([`is_loopback`]). Every other scheme is refused.
pub fn secure(url: &Url) -> bool {
    match url.scheme() {
        "https" => url.host().is_some(),
        "http" => is_loopback(url),
        _ => false,
    }
}

/// [`secure`] for text that should be a URL; text that is not one is not secure.
pub fn secure_str(url: &str) -> bool {
    Url::parse(url).is_ok_and(|url| secure(&url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_and_http_to_this_machine_only() {
        for url in [
            "https://id.example.org/realms/x",
            "http://localhost:8080/x",
            "http://LOCALHOST/x",
            "http://127.0.0.1:9/x",
            "http://127.3.4.5/x",
            "http://[::1]:8080/x",
            "http://127.0.0.2",
        ] {
            assert!(secure_str(url), "{url}");
        }
        for url in [
            "http://id.example.org/x",
            "http://localhost@evil.example/x",
            "http://localhost.evil.example/x",
            "http://127.0.0.1.evil.example",
            "ftp://127.0.0.1",
            "http://10.0.0.1/x",
            "http://[::2]/x",
            "ftp://localhost/x",
            "file:///etc/passwd",
            "not a url",
            "",
        ] {
            assert!(!secure_str(url), "{url}");
        }
    }
}
