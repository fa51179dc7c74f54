//! The messages of the protocol: JSON-RPC 2.0 envelopes and the params and results of each
//! method. No I/O here.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(doc)]
use crate::record::PushResult;
use crate::record::{PushOptions, PushPackage};

/// Every version of this protocol this crate speaks, oldest first. The host offers its
/// list in `initialize`; the plugin answers the newest version both speak (as cargo's
/// credential protocol does), so either side can add a version without breaking the other.
pub const PROTOCOL_VERSIONS: &[u32] = &[1];

/// The newest version this crate speaks (what hosts of before offered alone).
pub const PROTOCOL_VERSION: u32 = 1;

/// The newest version in both lists, if any.
pub fn negotiate(offered: &[u32], spoken: &[u32]) -> Option<u32> {
    offered.iter().copied().filter(|v| spoken.contains(v)).max()
}

/// The protocol a push handler implements, as listed in [`InitializeResult::protocols`].
pub const PACKAGE_PUSH_HANDLER: &str = "PackagePushHandler/1";

/// Method names.
pub mod method {
    pub const INITIALIZE: &str = "initialize";
    pub const CAN_HANDLE: &str = "can_handle";
    pub const PUSH: &str = "push";
    pub const SHUTDOWN: &str = "shutdown";
    pub const CANCEL: &str = "$/cancel";
    pub const PROGRESS: &str = "progress";
    pub const LOG: &str = "log";
}

/// JSON-RPC error codes used by the protocol.
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The push failed (the plugin's own failure; details in `data`).
    pub const PUSH_FAILED: i64 = 1;
    /// The call was cancelled by `$/cancel`.
    pub const CANCELLED: i64 = 2;
}

/// Any message on the wire. Requests have `method` and `id`, notifications `method` only,
/// responses `id` and `result` or `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub jsonrpc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
    /// Present (possibly `null`) in a successful response.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorObject>,
}

/// `"result": null` is a result, not an absent field.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// What a message is, once checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind<'a> {
    Request {
        id: &'a Value,
        method: &'a str,
        params: Option<&'a Value>,
    },
    Notification {
        method: &'a str,
        params: Option<&'a Value>,
    },
    Response {
        id: &'a Value,
        outcome: Result<&'a Value, &'a ErrorObject>,
    },
}

static NULL: Value = Value::Null;

impl Message {
    pub fn request(id: u64, method: &str, params: Option<Value>) -> Message {
        Message {
            jsonrpc: "2.0".into(),
            id: Some(id.into()),
            method: Some(method.into()),
            params,
            result: None,
            error: None,
        }
    }

    pub fn notification(method: &str, params: Option<Value>) -> Message {
        Message {
            jsonrpc: "2.0".into(),
            id: None,
            method: Some(method.into()),
            params,
            result: None,
            error: None,
        }
    }

    pub fn response(id: Value, outcome: Result<Value, ErrorObject>) -> Message {
        let (result, error) = match outcome {
            Ok(v) => (Some(v), None),
            Err(e) => (None, Some(e)),
        };
        Message {
            jsonrpc: "2.0".into(),
            id: Some(id),
            method: None,
            params: None,
            result,
            error,
        }
    }

    /// Parses one line. The error says what is wrong, for a message naming the peer.
    pub fn parse(line: &str) -> Result<Message, String> {
        let message: Message = serde_json::from_str(line).map_err(|e| e.to_string())?;
        message.kind()?;
        Ok(message)
    }

    /// The message as one line (no trailing newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a message serializes")
    }

    /// Checks the envelope and says what the message is.
    pub fn kind(&self) -> Result<Kind<'_>, String> {
        if self.jsonrpc != "2.0" {
            return Err(format!("`jsonrpc` is `{}`, not `2.0`", self.jsonrpc));
        }
        match (&self.id, &self.method, &self.result, &self.error) {
            (Some(id), Some(method), None, None) => Ok(Kind::Request {
                id,
                method,
                params: self.params.as_ref(),
            }),
            (None, Some(method), None, None) => Ok(Kind::Notification {
                method,
                params: self.params.as_ref(),
            }),
            (Some(id), None, Some(result), None) => Ok(Kind::Response {
                id,
                outcome: Ok(result),
            }),
            (Some(id), None, None, Some(error)) => Ok(Kind::Response {
                id,
                outcome: Err(error),
            }),
            (None, None, _, Some(error)) => Ok(Kind::Response {
                id: &NULL,
                outcome: Err(error),
            }),
            _ => Err("neither a request, a notification nor a response".into()),
        }
    }
}

/// A JSON-RPC error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<ErrorData>,
}

/// The protocol's `data` of an error: a stable dotted code and the chain of causes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ErrorData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<String>,
}

impl ErrorObject {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        ErrorObject {
            code,
            message: message.into(),
            data: None,
        }
    }
}

/// Who the host is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    pub name: String,
    pub version: String,
}

/// `initialize` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitializeParams {
    /// The host's newest version.
    pub protocol_version: u32,
    /// Every version the host speaks (absent from hosts of before: then only
    /// `protocol_version`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protocol_versions: Vec<u32>,
    pub host: HostInfo,
}

impl InitializeParams {
    /// The versions the host offers.
    pub fn offered(&self) -> Vec<u32> {
        if self.protocol_versions.is_empty() {
            vec![self.protocol_version]
        } else {
            self.protocol_versions.clone()
        }
    }
}

/// `initialize` result: who the plugin is and what it implements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitializeResult {
    pub name: String,
    pub version: String,
    /// The version the plugin chose from the host's offer.
    pub protocol_version: u32,
    /// E.g. `["PackagePushHandler/1"]`.
    pub protocols: Vec<String>,
}

/// `can_handle` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanHandleParams {
    pub destination: String,
}

/// `push` params: the package and what the user asked for ([`crate::record`]). The
/// result is a [`PushResult`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PushParams {
    pub package: PushPackage,
    pub options: PushOptions,
}

/// `$/cancel` params: the id of the request to cancel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CancelParams {
    pub id: Value,
}

/// `progress` params: bytes uploaded since the last notification, and/or a line to show.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ProgressParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Log levels of `log`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
}

/// `log` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogParams {
    pub level: LogLevel,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_version_both_speak_is_chosen() {
        assert_eq!(negotiate(&[1, 2, 3], &[1, 2]), Some(2));
        assert_eq!(negotiate(&[1], &[1, 2]), Some(1));
        assert_eq!(negotiate(&[3], &[1, 2]), None);
        let before: InitializeParams = serde_json::from_str(
            r#"{"protocol_version":1,"host":{"name":"stone","version":"0.0.1"}}"#,
        )
        .unwrap();
        assert_eq!(before.offered(), vec![1]);
    }

    #[test]
    fn kinds() {
        let r = Message::parse(r#"{"jsonrpc":"2.0","id":1,"result":null,"extra":1}"#).unwrap();
        assert!(matches!(
            r.kind(),
            Ok(Kind::Response {
                outcome: Ok(Value::Null),
                ..
            })
        ));
        let n = Message::parse(r#"{"jsonrpc":"2.0","method":"progress","params":{"bytes":3}}"#)
            .unwrap();
        assert!(matches!(
            n.kind(),
            Ok(Kind::Notification {
                method: "progress",
                ..
            })
        ));
        assert!(Message::parse(r#"{"jsonrpc":"1.0","id":1,"result":1}"#).is_err());
        assert!(Message::parse(r#"{"jsonrpc":"2.0","id":1}"#).is_err());
        assert!(Message::parse("hello").is_err());
        let line = Message::request(
            7,
            method::CAN_HANDLE,
            Some(serde_json::json!({"destination": "x://y"})),
        )
        .to_line();
        assert!(!line.contains('\n'));
        assert_eq!(Message::parse(&line).unwrap().id, Some(7.into()));
    }
}
