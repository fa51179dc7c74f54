//! What a webhook target receives: a CloudEvents 1.0 structured JSON body whose `data` is
//! the event, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`,
//! `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with
//! the subscription's `whsec_` secret).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use stone_api::Event;

/// The CloudEvents structured mode's media type.
pub const CONTENT_TYPE: &str = "application/cloudevents+json";

/// The prefix of a Standard Webhooks secret.
const SECRET_PREFIX: &str = "whsec_";

/// The CloudEvents 1.0 envelope of an event (JSON text): `id` the event's ID, `source` the
/// namespace's IRI, `type` `stone.<type>` (`stone.dataset.appended`), `subject` the
/// dataset (or the push), `time`, and `data` the event as the feed sends it.
pub fn cloudevent(event: &Event) -> String {
    let source = match &event.dataset {
        Some(_) => event
            .iri
            .rsplit_once('/')
            .map_or(event.iri.clone(), |(namespace, _)| namespace.to_owned()),
        None => event.iri.clone(),
    };
    let envelope = serde_json::json!({
        "specversion": "1.0",
        "id": event.id,
        "source": source,
        "type": format!("stone.{}", event.event_type.as_str()),
        "subject": event.dataset.clone().unwrap_or_else(|| format!("push/{}", event.push_id)),
        "time": event.time,
        "datacontenttype": "application/json",
        "data": event,
    });
    envelope.to_string()
}

/// A new secret: `whsec_` and the base64 of 32 random bytes (from the OS's generator).
pub fn new_secret() -> String {
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    key[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key))
}

/// Whether a configured secret is one [`sign`] can use.
pub fn check_secret(secret: &str) -> Result<(), String> {
    key_of(secret).map(|_| ())
}

fn key_of(secret: &str) -> Result<Vec<u8>, String> {
    let encoded = secret
        .strip_prefix(SECRET_PREFIX)
        .ok_or_else(|| "a webhook secret starts with whsec_".to_owned())?;
    let key = STANDARD
        .decode(encoded)
        .map_err(|e| format!("a webhook secret is whsec_ and base64: {e}"))?;
    if key.len() < 16 {
        return Err("a webhook secret's key has at least 16 bytes".into());
    }
    Ok(key)
}

/// The `webhook-signature` header of a delivery: `v1,<base64 HMAC-SHA256>`.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Result<String, String> {
    let key = key_of(secret)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|e| e.to_string())?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Ok(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks specification (its reference libraries' test).
    #[test]
    fn signatures_are_standard_webhooks_ones() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        let signature = sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap();
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assert!(sign("nope", "id", 1, "").is_err());
        let fresh = new_secret();
        assert!(check_secret(&fresh).is_ok());
        assert_ne!(fresh, new_secret());
    }
}
