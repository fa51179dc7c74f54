//! The loopback redirect of a native app (RFC 8252 §7.3): a one-shot HTTP listener on
//! `127.0.0.1:<any port>` that receives `GET /callback?code=…&state=…`.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::{AuthError, Secret};

const PATH: &str = "/callback";
const MAX_HEAD: usize = 16 * 1024;

/// A bound listener, before the browser comes back.
pub struct Loopback {
    listener: TcpListener,
    port: u16,
}

/// What the redirect brought.
pub struct Callback {
    pub code: Secret<String>,
}

impl Loopback {
    /// Binds `127.0.0.1:0` (not `localhost`: RFC 8252 §8.3).
    pub async fn bind() -> Result<Loopback, AuthError> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| AuthError::Loopback(e.to_string()))?;
        let port = listener
            .local_addr()
            .map_err(|e| AuthError::Loopback(e.to_string()))?
            .port();
        Ok(Loopback { listener, port })
    }

    /// `http://127.0.0.1:<port>/callback`.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}{PATH}", self.port)
    }

    /// Waits for the redirect. Requests for other paths (a browser's favicon) get a 404 and
    /// the wait goes on; the redirect itself ends it: with the code when `state` matches,
    /// with an error when it does not or when the provider sent an error.
    pub async fn wait(self, state: &str, timeout: Duration) -> Result<Callback, AuthError> {
        let waiting = async {
            loop {
                let (mut stream, _) = self
                    .listener
                    .accept()
                    .await
                    .map_err(|e| AuthError::Loopback(e.to_string()))?;
                let Some(target) = read_target(&mut stream).await else {
                    continue;
                };
                let Ok(url) = url::Url::parse(&format!("http://127.0.0.1{target}")) else {
                    respond(&mut stream, 400, "Bad request.").await;
                    continue;
                };
                if url.path() != PATH {
                    respond(&mut stream, 404, "Not found.").await;
                    continue;
                }
                let param = |name: &str| {
                    url.query_pairs()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.into_owned())
                };
                if param("state").as_deref() != Some(state) {
                    respond(
                        &mut stream,
                        400,
                        "This login answer is not for this login (state mismatch). Go back to the terminal.",
                    )
                    .await;
                    return Err(AuthError::StateMismatch);
                }
                if let Some(error) = param("error") {
                    respond(
                        &mut stream,
                        400,
                        "The login was refused. Go back to the terminal.",
                    )
                    .await;
                    return Err(AuthError::Denied {
                        error,
                        description: param("error_description"),
                    });
                }
                let Some(code) = param("code") else {
                    respond(&mut stream, 400, "The login answer has no code.").await;
                    return Err(AuthError::Protocol {
                        url: PATH.into(),
                        message: "the redirect has neither a code nor an error".into(),
                    });
                };
                respond(
                    &mut stream,
                    200,
                    "Logged in to stone. You can close this tab and go back to the terminal.",
                )
                .await;
                return Ok(Callback {
                    code: Secret::new(code),
                });
            }
        };
        tokio::time::timeout(timeout, waiting)
            .await
            .map_err(|_| AuthError::Timeout {
                what: "the browser to come back to the loopback redirect".into(),
            })?
    }
}

/// The request target of a `GET`, or `None` for anything else (answered 405 or dropped).
async fn read_target(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > MAX_HEAD {
            return None;
        }
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer))
            .await
            .ok()?
            .ok()?;
        if read == 0 {
            break;
        }
        head.extend_from_slice(&buffer[..read]);
    }
    let text = String::from_utf8_lossy(&head);
    let mut words = text.lines().next()?.split_whitespace();
    let (method, target) = (words.next()?, words.next()?);
    if method != "GET" || !target.starts_with('/') {
        respond(stream, 405, "Method not allowed.").await;
        return None;
    }
    Some(target.to_owned())
}

async fn respond(stream: &mut TcpStream, status: u16, message: &str) {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        405 => "Method Not Allowed",
        _ => "Bad Request",
    };
    let body = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>stone</title></head><body><p>{message}</p></body></html>"
    );
    let answer = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn get(port: u16, target: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        stream
            .write_all(format!("GET {target} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer
    }

    #[tokio::test]
    async fn the_code_comes_with_the_right_state_only() {
        let loopback = Loopback::bind().await.unwrap();
        let port = loopback.port;
        assert_eq!(
            loopback.redirect_uri(),
            format!("http://127.0.0.1:{port}/callback")
        );
        let wait = tokio::spawn(loopback.wait("s1", Duration::from_secs(10)));
        assert!(get(port, "/favicon.ico").await.starts_with("HTTP/1.1 404"));
        assert!(
            get(port, "/callback?code=c0de&state=s1")
                .await
                .starts_with("HTTP/1.1 200")
        );
        assert_eq!(wait.await.unwrap().unwrap().code.expose(), "c0de");

        let loopback = Loopback::bind().await.unwrap();
        let port = loopback.port;
        let wait = tokio::spawn(loopback.wait("s1", Duration::from_secs(10)));
        assert!(
            get(port, "/callback?code=c0de&state=forged")
                .await
                .starts_with("HTTP/1.1 400")
        );
        assert!(matches!(wait.await.unwrap(), Err(AuthError::StateMismatch)));
    }
}
