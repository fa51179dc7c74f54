//! [`Secret`]: a value that never shows itself.

use serde::{Deserialize, Serialize};

/// A secret (a token). `Debug` and `Display` print `[redacted]`, so a secret that ends up
/// in a log line, an error message or `--verbose` output shows nothing. Read it with
/// [`Secret::expose`], only where it is sent or stored. Serializes as the plain value (for
/// the 0600 token file).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Secret(value)
    }

    /// The secret itself.
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl From<String> for Secret<String> {
    fn from(value: String) -> Self {
        Secret(value)
    }
}

impl<T> std::fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

impl<T> std::fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_shows_itself() {
        let secret = Secret::new("eyJhbGciOi.top.secret".to_owned());
        assert_eq!(format!("{secret}"), "[redacted]");
        assert_eq!(format!("{secret:?}"), "[redacted]");
        assert_eq!(format!("{:?}", Some(&secret)), "Some([redacted])");
        assert_eq!(secret.expose(), "eyJhbGciOi.top.secret");
        assert_eq!(
            serde_json::to_string(&secret).unwrap(),
            "\"eyJhbGciOi.top.secret\""
        );
    }
}
