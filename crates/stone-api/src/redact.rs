//! What of a URL may be printed, logged or written to a file: one policy for the client
//! and the server.
//!
//! A URL can carry secrets in two places: the password of its user info
//! (`postgres://me:secret@db/…`) and query parameters (presigned URLs sign there:
//! `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`, `X-Goog-Signature`,
//! Azure's `sig`, stone's own staging `sig`). [`redact_url`] keeps everything else, so
//! that a message still says which host and which object it was about.

/// Query keys whose values are secrets: any key that contains one of these (ASCII case
/// folded).
const SECRET_KEYS: &[&str] = &[
    "sig",
    "signature",
    "token",
    "credential",
    "key",
    "secret",
    "password",
    "auth",
];

/// `url` with the password of its user info replaced by `****` and the value of every
/// query parameter that looks secret ([`SECRET_KEYS`]) replaced by `REDACTED`. Text that
/// is not a URL comes back unchanged.
pub fn redact_url(url: &str) -> String {
    let (base, fragment) = match url.split_once('#') {
        Some((base, fragment)) => (base, Some(fragment)),
        None => (url, None),
    };
    let (base, query) = match base.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (base, None),
    };
    let mut out = redact_user_info(base);
    if let Some(query) = query {
        out.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if secret_key(key) => format!("{key}=REDACTED"),
                _ => pair.to_owned(),
            })
            .collect();
        out.push_str(&pairs.join("&"));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

fn secret_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    SECRET_KEYS.iter().any(|secret| key.contains(secret))
}

/// `scheme://user:password@host/…` → `scheme://user:****@host/…`.
fn redact_user_info(base: &str) -> String {
    let Some((scheme, rest)) = base.split_once("://") else {
        return base.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rsplit_once('@') {
        Some((user_info, host)) if user_info.contains(':') => {
            let user = user_info.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:****@{host}{}", &rest[authority_end..])
        }
        _ => base.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    #[test]
    fn passwords_and_signatures_are_hidden_the_rest_is_kept() {
        assert_eq!(
            redact_url("postgres://me:secret@db:5432/cat"),
            "postgres://me:****@db:5432/cat"
        );
        assert_eq!(
            redact_url("sqlite:///tmp/c.db?mode=rwc"),
            "sqlite:///tmp/c.db?mode=rwc"
        );
        assert_eq!(
            redact_url("https://h/x.csv?X-Amz-Signature=abc&part=1&token=t"),
            "https://h/x.csv?X-Amz-Signature=REDACTED&part=1&token=REDACTED"
        );
        assert_eq!(
            redact_url("http://127.0.0.1:1/v1/staging/ab?size=3&holder=h&expires=9&sig=00ff#frag"),
            "http://127.0.0.1:1/v1/staging/ab?size=3&holder=h&expires=9&sig=REDACTED#frag"
        );
        assert_eq!(
            redact_url("https://b.blob.core.windows.net/c/o?sv=1&se=2&sp=w&sig=s%2Fx"),
            "https://b.blob.core.windows.net/c/o?sv=1&se=2&sp=w&sig=REDACTED"
        );
        assert_eq!(
            redact_url("https://user@h/p?X-Amz-Credential=AK%2F1&X-Amz-Security-Token=t"),
            "https://user@h/p?X-Amz-Credential=REDACTED&X-Amz-Security-Token=REDACTED"
        );
        assert_eq!(redact_url("not a url"), "not a url");
        assert_eq!(redact_url(""), "");
    }
}
