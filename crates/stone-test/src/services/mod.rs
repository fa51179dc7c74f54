//! Real external services started by tests: PostgreSQL, SeaweedFS (S3), the Oxigraph server (SPARQL,
//! Graph Store Protocol), an OpenID provider (npm `oidc-provider`) and a WebDAV server
//! (wsgidav), and an OS keyring (a D-Bus session bus with GNOME Keyring's Secret Service).
//!
//! Each service runs the real program from `scripts/install-tools` on free loopback ports
//! (127.0.0.1 only), in its own temporary directory and process group. `start()` returns
//! once the program really answers (a real request, polled with a deadline) and panics
//! with the program's log tail otherwise. Dropping the handle stops it: SIGTERM to the
//! whole process group, a short wait, then SIGKILL; whatever still runs when the test
//! process exits (a service kept in a `static`) is killed then.

mod fault_proxy;
mod http;
mod oidc;
mod oxigraph;
mod plain_http;
mod postgres;
mod process;
mod s3;
mod seaweedfs;
mod secret_service;
mod stone_server;
mod webdav;

pub use fault_proxy::{Fault, FaultProxy, SplitMix64};
pub use http::{HttpResponse, agent};
pub use oidc::{
    ACR_MFA, ACR_PASSWORD, AuthorizationRedirect, AuthorizationRequest, Browser, BrowserError,
    Credentials, OidcConfig, OidcProvider, OidcUser, Pkce, TokenError, decode_jwt_claims,
};
pub use oxigraph::{OxigraphOptions, OxigraphServer};
pub use plain_http::PlainHttpServer;
pub use postgres::{POSTGRES_USER, Postgres};
pub use process::{ServiceProcess, free_port, start_with_retries};
pub use s3::S3Client;
pub use seaweedfs::SeaweedFs;
pub use secret_service::SecretService;
pub use stone_server::{StoneServer, clean_env};
pub use webdav::WebDavServer;

/// `count` random bytes from the OS.
pub(crate) fn random_bytes(count: usize) -> Vec<u8> {
    use std::io::Read;
    let mut bytes = vec![0; count];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .expect("cannot read /dev/urandom");
    bytes
}

/// `count` random bytes from the OS, as hex.
pub(crate) fn random_hex(count: usize) -> String {
    random_bytes(count)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
