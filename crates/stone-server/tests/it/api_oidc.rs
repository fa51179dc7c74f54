//! `auth.mode = "oidc"`: bearer JWTs checked against the issuer's JWKS, the rules of
//! protected refs with RFC 9470 step-up, and reads of non-public packages.
//!
//! The issuer here is a FAKE (a discovery document and a JWKS served from a thread, with a
//! fixed test RSA key): it signs the tokens the real provider never issues — expired, for
//! another audience or issuer, tampered, from an unknown key. The client end to end tests
//! (crates/stone/tests/it/identity.rs) run against the real npm `oidc-provider`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use crate::api_support::{
    Answer, Dataset, File, Options, Server, Site, client, manifest, upload_all,
};

/// A 2048-bit RSA key made for these tests only (PKCS#1 DER, base64).
const TEST_KEY_DER: &str = concat!(
    "MIIEogIBAAKCAQEAouwDvVDj0uarNzs96qU8uPjL1SCD2t19jcjAT45oiYgI9BiJBs+/OzFo1BSyLZ6ml9Gcqf41",
    "bLvhdJ2QexPuosEJ+v9zNdbN7eZsArXrkf3wx0zRFEyk9Jckqs3k6hmLHYWCgo7CeZmN3E9SnP8gg+sUQ9lL7qKK",
    "7syGDTpynl3uGhN50rJvMXRwSzQdRJ2fNDxyaJlsWVkj2XUWoBaxlVvt+9V16rvPFAUz9ySSvzv5XIKEqLFOG5Qe",
    "1oF+eL7lN8fZS/CIGMbFlzExkyZcMwTiXdJHRDjrT8Elb4gIu2TXa7PoIGmdip/kzgI4bQtmuxssx81CHuDnj9PK",
    "m75BIwIDAQABAoIBAAFT+eVBhXjAs+MDudL65kLi4Euehiky6yUDOh/L5E5ljENr9336FEIxDLNYuLLPf+aSMleC",
    "93bygovAKVYff9P6zZA8/4rrc0HZZqHZmH2hFxK3racxx1EEhGJbMExuyUyWYIR3yLmc4i1coZhoKfxUugMP2+MY",
    "KWGd8C2C/4bmOMIYKtSCZQso/nKThe04UKmTYZrOfGmC8E08oo+x5bC3+OM1IlbqLKX08h4bZkp6p2vgb04g5QT1",
    "OOkjT2tLEZG1b7KtPt6K4lSWDXcOhRakpS1HaOnbCUEx1hPahNrrLFtVQQMwYd4JvUvFbfMzr224mDEez1qEfrfX",
    "P2br6U0CgYEA5jzDgp2GlvFS6oqSrATHNjRZBAE/I95J9E1IuxNyeP3U6/wDoFXY4v5nbV0USqSW5PGZHCJsi4lz",
    "CH/SNUh1mAJhhniHprJNAl/P8YNOSRVZ5ahhA+XuwKiwvelxDphusP0uO2EQePp34+7eDvV3f92W4t9yvveeDyEz",
    "1jPj6IcCgYEAtSb5m33VsuFVFqUonKwgILEA4nQK3orpE1O5t9gi/hKsrW9/w7DGyjQAQG6v32vCmUfTyn4GvABD",
    "/tsdPKU4FPCYr2VSTScQgBKsfuN0vZFI53RdjsAs0EeW7neHw89/RvJJIQRe1QS5UTyU4BXSplqdAniYK+rZyS0X",
    "o/RZtYUCgYA2KGT0/IkESI/wi9gkjpstrPKjdoebsFZFGUjaeKCcxVioigdwV8FE5AMAPrzfMggsoogZjh9qU1Kz",
    "1R1lWz4OG8FFGGUQWTC0NkV70h9AIb2bwBfSCuw2dXfdtGPbww+GooeVgCeXzZMWEsI5UpRhh4ZOp7EeKrELbgv7",
    "fwlFUQKBgBenxUSGxBcd0aypWIpM980NEB6CJME2xoTdlAzrznX7Hk1vl/GH7g2NiNLhIVo9iiXV+VQh7OMz7a0k",
    "E8dNk+s4F9gflQW6Ki9vQNM5BI+Unz6KNYVklvWDw7PULAhn2ij7jo0fMvsCKOjwzkgM0XsjrgkaklR50IKyvrmM",
    "OQK5AoGAezIy5k6y4fPT59aimSNmH4WrLQtDDpX6Km7ptIKRYujrUAjdBexaTe+a/GtdlWizkGMYtoIB0HXLZHyU",
    "6+fFBphMWJenekwG0qyu9fkwrJuDmxpFMTILkrejughLgVajxxacOuJE1R0Q7TUIfxNCItHyZXHtAafUF4hX+grr",
    "wtE=",
);
/// Its modulus (base64url); the exponent is 65537 (`AQAB`).
const TEST_KEY_N: &str = "ouwDvVDj0uarNzs96qU8uPjL1SCD2t19jcjAT45oiYgI9BiJBs-_OzFo1BSyLZ6ml9Gcqf41bLvhdJ2QexPuosEJ-v9zNdbN7eZsArXrkf3wx0zRFEyk9Jckqs3k6hmLHYWCgo7CeZmN3E9SnP8gg-sUQ9lL7qKK7syGDTpynl3uGhN50rJvMXRwSzQdRJ2fNDxyaJlsWVkj2XUWoBaxlVvt-9V16rvPFAUz9ySSvzv5XIKEqLFOG5Qe1oF-eL7lN8fZS_CIGMbFlzExkyZcMwTiXdJHRDjrT8Elb4gIu2TXa7PoIGmdip_kzgI4bQtmuxssx81CHuDnj9PKm75BIw";
const KID: &str = "test-key-1";
pub(crate) const AUDIENCE: &str = "https://stone.test/api";
const MFA: &str = "urn:stone:acr:mfa";
const PASSWORD: &str = "urn:stone:acr:password";

/// Serves `/.well-known/openid-configuration` and `/jwks` until the test ends.
pub(crate) fn fake_issuer() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let issuer = format!("http://{}", listener.local_addr().unwrap());
    let discovery = json!({
        "issuer": issuer,
        "jwks_uri": format!("{issuer}/jwks"),
        "authorization_endpoint": format!("{issuer}/auth"),
        "token_endpoint": format!("{issuer}/token"),
    });
    let jwks = json!({"keys": [{"kty": "RSA", "kid": KID, "alg": "RS256", "use": "sig", "n": TEST_KEY_N, "e": "AQAB"}]});
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut line = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let _ = reader.read_line(&mut line);
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
                    break;
                }
            }
            let body = if line.starts_with("GET /.well-known/openid-configuration") {
                discovery.to_string()
            } else if line.starts_with("GET /jwks") {
                jwks.to_string()
            } else {
                String::new()
            };
            let status = if body.is_empty() {
                "404 Not Found"
            } else {
                "200 OK"
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    issuer
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Claims of a good token of `issuer`; tests change them.
pub(crate) fn claims(issuer: &str, sub: &str, roles: &[&str], acr: &str, auth_age: u64) -> Value {
    json!({
        "iss": issuer, "aud": AUDIENCE, "sub": sub, "exp": now() + 300, "iat": now(),
        "roles": roles, "acr": acr, "auth_time": now() - auth_age,
    })
}

fn sign_with_kid(claims: &Value, kid: &str) -> String {
    let der = base64::engine::general_purpose::STANDARD
        .decode(TEST_KEY_DER)
        .unwrap();
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.to_owned());
    // An access token says so (RFC 9068); the server refuses one that does not.
    header.typ = Some("at+jwt".to_owned());
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_rsa_der(&der)).unwrap()
}

pub(crate) fn sign(claims: &Value) -> String {
    sign_with_kid(claims, KID)
}

/// A server in `oidc` mode (no step-up) trusting a fresh fake issuer, and an hour-long
/// token of `user` (no roles) from it.
pub(crate) fn oidc_site_with_token(user: &str) -> (Site, Server, String) {
    let issuer = fake_issuer();
    let site = Site::with_config(&format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{issuer}\"\naudience = \"{AUDIENCE}\"\n"
    ));
    let server = site.start();
    let mut token_claims = claims(&issuer, user, &[], "", 10);
    token_claims["exp"] = json!(now() + 3600);
    (site, server, sign(&token_claims))
}

fn config(issuer: &str) -> String {
    format!(
        "[auth]\nmode = \"oidc\"\nissuer = \"{issuer}\"\naudience = \"{AUDIENCE}\"\n[auth.step_up]\nacr_values = [\"{MFA}\"]\nmax_age = 600\n"
    )
}

/// A server in `oidc` mode trusting a fresh fake issuer.
fn oidc_server() -> (String, Site, Server) {
    let issuer = fake_issuer();
    let site = Site::with_config(&config(&issuer));
    let server = site.start();
    (issuer, site, server)
}

pub(crate) struct Call {
    pub(crate) answer: Answer,
    pub(crate) challenge: Option<String>,
}

/// A request with an optional bearer token.
pub(crate) async fn call(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Call {
    let mut request = client().request(method.parse().unwrap(), server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.unwrap();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    Call {
        answer: Answer::of(response).await,
        challenge,
    }
}

/// A bodyless call that must answer `status`.
async fn expect(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    status: u16,
) -> Answer {
    call(server, method, path, token, None)
        .await
        .answer
        .expect(status)
}

fn people() -> Dataset {
    Dataset::new(
        "notes",
        "BLOB",
        vec![File::new("notes.txt", b"private notes\n".to_vec())],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_are_checked_signature_issuer_audience_expiry() {
    let (issuer, _site, server) = oidc_server();
    let (m, _) = manifest("demo", "feature-x", Options::default(), None, &[people()]);

    // Info says how to get a token.
    let info = call(&server, "GET", "/v1/info", None, None)
        .await
        .answer
        .expect(200)
        .body;
    assert_eq!(info["auth_mode"], "oidc");
    assert_eq!(info["oidc"]["issuer"], issuer);
    assert_eq!(info["oidc"]["audience"], AUDIENCE);
    assert_eq!(
        info["oidc"]["step_up"],
        json!({"acr_values": [MFA], "max_age": 600})
    );
    assert!(info.get("identity").is_none(), "{info:#}");

    // No token.
    let none = call(&server, "POST", "/v1/pushes", None, Some(&m)).await;
    assert_eq!(none.answer.status.as_u16(), 401, "{:#}", none.answer.body);
    assert_eq!(none.answer.code(), "auth.required");
    assert_eq!(none.challenge.as_deref(), Some("Bearer"));

    // Each bad token, and why.
    let good = claims(&issuer, "alice", &[], PASSWORD, 10);
    let mut expired = good.clone();
    expired["exp"] = json!(now() - 3600);
    let mut other_audience = good.clone();
    other_audience["aud"] = json!("https://someone-else.test/api");
    let mut other_issuer = good.clone();
    other_issuer["iss"] = json!("http://127.0.0.1:1");
    // Tampered: the payload of another token under a valid signature.
    let valid = sign(&good);
    let mut mallory = good.clone();
    mallory["sub"] = json!("mallory");
    mallory["roles"] = json!(["protected-write", "protected-force"]);
    let forged_payload = sign(&mallory).split('.').nth(1).unwrap().to_owned();
    let parts: Vec<&str> = valid.split('.').collect();
    let tampered = format!("{}.{}.{}", parts[0], forged_payload, parts[2]);
    // Unsigned (`alg: none`), and HS256 "signed" with the public key's modulus as the HMAC
    // secret (the algorithm confusion attack): neither is an accepted algorithm.
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let payload = b64(good.to_string().as_bytes());
    let unsigned = format!(
        "{}.{payload}.",
        b64(format!(r#"{{"alg":"none","typ":"JWT","kid":"{KID}"}}"#).as_bytes())
    );
    let hs256 = jsonwebtoken::encode(
        &Header {
            kid: Some(KID.into()),
            ..Header::new(Algorithm::HS256)
        },
        &good,
        &EncodingKey::from_secret(TEST_KEY_N.as_bytes()),
    )
    .unwrap();
    for (token, reason) in [
        (unsigned, "malformed"),
        (hs256, "invalid"),
        (sign(&expired), "expired"),
        (sign(&other_audience), "audience"),
        (sign(&other_issuer), "issuer"),
        (tampered, "signature"),
        (
            sign_with_kid(&good, "a-key-nobody-published"),
            "unknown_key",
        ),
        ("not.a.jwt".to_owned(), "malformed"),
    ] {
        let refused = call(&server, "POST", "/v1/pushes", Some(&token), Some(&m)).await;
        assert_eq!(
            refused.answer.status.as_u16(),
            401,
            "{reason}: {:#}",
            refused.answer.body
        );
        assert_eq!(refused.answer.code(), "auth.invalid_token", "{reason}");
        assert_eq!(
            refused.answer.body["reason"], reason,
            "{:#}",
            refused.answer.body
        );
        assert!(
            refused
                .challenge
                .as_deref()
                .unwrap_or_default()
                .contains("error=\"invalid_token\""),
            "{:?}",
            refused.challenge
        );
    }

    // The good token pushes to an unprotected branch; the push is alice's alone.
    let created = call(&server, "POST", "/v1/pushes", Some(&valid), Some(&m)).await;
    assert_eq!(
        created.answer.status.as_u16(),
        201,
        "{:#}",
        created.answer.body
    );
    let id = created.answer.body["push_id"].as_str().unwrap().to_owned();
    let bob = sign(&claims(&issuer, "bob", &[], PASSWORD, 10));
    let path = format!("/v1/pushes/{id}");
    expect(&server, "GET", &path, Some(&valid), 200).await;
    expect(&server, "GET", &path, Some(&bob), 404).await;
    expect(&server, "GET", &path, None, 401).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protected_refs_need_the_role_then_a_step_up_and_keep_the_push_id() {
    let (issuer, _site, server) = oidc_server();
    let yes = Options {
        yes: true,
        manual: true,
        ..Options::default()
    };
    let (m, contents) = manifest("demo", "main", yes, None, &[people()]);

    // Without the role: 403, no challenge (a step-up would not help).
    let plain = sign(&claims(&issuer, "bob", &["reader"], MFA, 10));
    let refused = call(&server, "POST", "/v1/pushes", Some(&plain), Some(&m)).await;
    assert_eq!(refused.answer.status.as_u16(), 403);
    assert_eq!(refused.answer.code(), "push.protected_ref");

    // --force without the elevated role: 403 push.force_forbidden.
    let writer_mfa = sign(&claims(&issuer, "alice", &["protected-write"], MFA, 10));
    let (forced, _) = manifest(
        "demo",
        "main",
        Options { force: true, ..yes },
        None,
        &[people()],
    );
    let refused = call(
        &server,
        "POST",
        "/v1/pushes",
        Some(&writer_mfa),
        Some(&forced),
    )
    .await;
    assert_eq!(refused.answer.status.as_u16(), 403);
    assert_eq!(refused.answer.code(), "push.force_forbidden");

    // The role, but a password-level login: the RFC 9470 challenge, and a reserved push.
    let writer = sign(&claims(
        &issuer,
        "alice",
        &["protected-write"],
        PASSWORD,
        10,
    ));
    let challenged = call(&server, "POST", "/v1/pushes", Some(&writer), Some(&m)).await;
    assert_eq!(
        challenged.answer.status.as_u16(),
        401,
        "{:#}",
        challenged.answer.body
    );
    assert_eq!(challenged.answer.code(), "auth.step_up_required");
    let challenge = challenged.challenge.unwrap();
    assert!(
        challenge.starts_with("Bearer error=\"insufficient_user_authentication\""),
        "{challenge}"
    );
    assert!(
        challenge.contains(&format!("acr_values=\"{MFA}\"")),
        "{challenge}"
    );
    assert!(challenge.contains("max_age=600"), "{challenge}");
    let body = &challenged.answer.body;
    assert_eq!(body["acr_values"], json!([MFA]));
    assert_eq!(body["max_age"], 600);
    assert!(body.get("uploads").is_none());
    let reserved = body["push_id"].as_str().unwrap().to_owned();

    // The reserved push cannot be committed with the challenged token.
    let commit = format!("/v1/pushes/{reserved}/commit");
    let refused = call(&server, "POST", &commit, Some(&writer), None).await;
    assert_eq!(refused.answer.code(), "auth.step_up_required");

    // MFA but an old login (auth_time beyond max_age): challenged again.
    let stale = sign(&claims(&issuer, "alice", &["protected-write"], MFA, 3600));
    let mut retry = m.clone();
    retry["push_id"] = json!(reserved);
    let again = call(&server, "POST", "/v1/pushes", Some(&stale), Some(&retry)).await;
    assert_eq!(again.answer.code(), "auth.step_up_required");
    assert_eq!(
        again.answer.body["push_id"],
        reserved.as_str(),
        "the same push stays reserved"
    );

    // After the step-up: the same push goes through.
    let created = call(
        &server,
        "POST",
        "/v1/pushes",
        Some(&writer_mfa),
        Some(&retry),
    )
    .await;
    assert_eq!(
        created.answer.status.as_u16(),
        200,
        "{:#}",
        created.answer.body
    );
    assert_eq!(created.answer.body["push_id"], reserved.as_str());
    upload_all(&server, &created.answer.body, &contents).await;
    expect(&server, "POST", &commit, Some(&writer_mfa), 202).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_public_package_is_read_with_a_token_only() {
    let (issuer, _site, server) = oidc_server();
    let token = sign(&claims(&issuer, "alice", &[], PASSWORD, 10));
    for (namespace, public) in [("open", true), ("closed", false)] {
        let (mut m, contents) =
            manifest(namespace, "feature", Options::default(), None, &[people()]);
        m["package"]["public"] = json!(public);
        let created = call(&server, "POST", "/v1/pushes", Some(&token), Some(&m)).await;
        let created = created.answer.expect(201);
        upload_all(&server, &created.body, &contents).await;
        let id = created.body["push_id"].as_str().unwrap();
        call(
            &server,
            "POST",
            &format!("/v1/pushes/{id}/commit"),
            Some(&token),
            None,
        )
        .await
        .answer
        .expect(202);
        let mut state = Value::Null;
        for _ in 0..600 {
            state = call(
                &server,
                "GET",
                &format!("/v1/pushes/{id}"),
                Some(&token),
                None,
            )
            .await
            .answer
            .body;
            if state["state"] == "succeeded" || state["state"] == "failed" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(state["state"], "succeeded", "{state:#}");
    }
    for path in [
        "/v1/namespaces/closed/datasets/notes?branch=feature",
        "/v1/namespaces/closed/package?branch=feature",
    ] {
        let refused = call(&server, "GET", path, None, None).await;
        assert_eq!(
            refused.answer.status.as_u16(),
            401,
            "{path}: {:#}",
            refused.answer.body
        );
        assert_eq!(refused.answer.code(), "auth.required");
        expect(&server, "GET", path, Some(&token), 200).await;
    }
    // Public: no token needed. Unknown: as closed, so nothing leaks.
    call(
        &server,
        "GET",
        "/v1/namespaces/open/datasets/notes?branch=feature",
        None,
        None,
    )
    .await
    .answer
    .expect(200);
    call(
        &server,
        "GET",
        "/v1/namespaces/nobody/package?branch=feature",
        None,
        None,
    )
    .await
    .answer
    .expect(401);
}

/// Issue 52, hole 7 (suspected): a token whose `sub` is not a string would be the user "".
/// The JWT library already refused a `sub` of another type; an empty `sub` was taken
/// (every such token one user, who sees and commits the others' pushes). Both are refused
/// as invalid tokens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_whose_sub_is_not_a_non_empty_string_is_refused() {
    let (issuer, _site, server) = oidc_server();
    let (m, _) = manifest("demo", "feature-x", Options::default(), None, &[people()]);
    for sub in [
        json!(7),
        json!(""),
        json!(["alice"]),
        json!({"id": "alice"}),
        Value::Null,
    ] {
        let mut claims = claims(&issuer, "alice", &[], PASSWORD, 10);
        claims["sub"] = sub.clone();
        let refused = call(
            &server,
            "POST",
            "/v1/pushes",
            Some(&sign(&claims)),
            Some(&m),
        )
        .await;
        assert_eq!(
            refused.answer.status.as_u16(),
            401,
            "sub {sub}: {:#}",
            refused.answer.body
        );
        assert_eq!(refused.answer.code(), "auth.invalid_token", "sub {sub}");
    }
    let good = sign(&claims(&issuer, "alice", &[], PASSWORD, 10));
    let created = call(&server, "POST", "/v1/pushes", Some(&good), Some(&m)).await;
    assert_eq!(
        created.answer.status.as_u16(),
        201,
        "{:#}",
        created.answer.body
    );
}
