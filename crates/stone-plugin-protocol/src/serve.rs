//! [`serve`]: run a [`Plugin`] on stdin/stdout. The plugin author implements the trait; this
//! module does the handshake, dispatch, notifications, cancellation and shutdown.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use serde_json::Value;

use crate::message::{
    CanHandleParams, ErrorData, ErrorObject, InitializeParams, InitializeResult, Kind, LogLevel,
    LogParams, Message, PACKAGE_PUSH_HANDLER, PROTOCOL_VERSIONS, ProgressParams, PushParams, code,
    method, negotiate,
};
use crate::record::{PushOptions, PushPackage, PushResult};

/// A push handler, as a plugin author writes it.
pub trait Plugin: Send + Sync {
    /// The plugin's name (`mirror` for `stone-plugin-mirror`).
    fn name(&self) -> &str;
    /// The plugin's version.
    fn version(&self) -> &str;
    /// True if the plugin takes `destination`. Quick, no side effects.
    fn can_handle(&self, destination: &str) -> bool;
    /// Pushes `package` as `options` ask and says what became of each dataset.
    fn push(
        &self,
        package: PushPackage,
        options: PushOptions,
        cx: &Context,
    ) -> Result<PushResult, PluginError>;
}

/// A failed push: a dotted code, a message and its causes.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginError {
    pub code: String,
    pub message: String,
    pub causes: Vec<String>,
}

impl PluginError {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        PluginError {
            code: code.into(),
            message: message.into(),
            causes: Vec::new(),
        }
    }

    pub fn caused_by(mut self, cause: impl std::fmt::Display) -> Self {
        self.causes.push(cause.to_string());
        self
    }

    fn into_object(self, rpc_code: i64) -> ErrorObject {
        ErrorObject {
            code: rpc_code,
            message: self.message,
            data: Some(ErrorData {
                code: Some(self.code),
                causes: self.causes,
            }),
        }
    }
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// What a running push can do: report progress, log, and see whether it was cancelled.
pub struct Context {
    out: Out,
    cancelled: Arc<AtomicBool>,
}

impl Context {
    /// `bytes` more were uploaded (also tells the host the plugin is alive).
    pub fn uploaded(&self, bytes: u64) {
        self.notify(
            method::PROGRESS,
            serde_json::to_value(ProgressParams {
                bytes: Some(bytes),
                message: None,
            }),
        );
    }

    /// A line for the user.
    pub fn message(&self, message: impl Into<String>) {
        self.notify(
            method::PROGRESS,
            serde_json::to_value(ProgressParams {
                bytes: None,
                message: Some(message.into()),
            }),
        );
    }

    pub fn log(&self, level: LogLevel, message: impl Into<String>) {
        self.notify(
            method::LOG,
            serde_json::to_value(LogParams {
                level,
                message: message.into(),
            }),
        );
    }

    /// True once the host sent `$/cancel`: stop and return an error soon.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn notify(&self, name: &str, params: serde_json::Result<Value>) {
        write(&self.out, &Message::notification(name, params.ok()));
    }
}

fn write(out: &Out, message: &Message) {
    if let Ok(mut out) = out.lock() {
        let _ = writeln!(out, "{}", message.to_line());
        let _ = out.flush();
    }
}

/// Serves `plugin` on stdin/stdout until `shutdown` or the end of stdin.
pub fn serve(plugin: impl Plugin) {
    serve_io(
        plugin,
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
    );
}

/// Serves `plugin` on any line reader and writer (for tests).
pub fn serve_io(
    plugin: impl Plugin,
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let cancelled = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Result<Message, String>>();
    // The reader sees `$/cancel` while a push runs on this thread.
    let flag = cancelled.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            let parsed = Message::parse(&line);
            if let Ok(m) = &parsed
                && m.method.as_deref() == Some(method::CANCEL)
                && m.id.is_none()
            {
                flag.store(true, Ordering::SeqCst);
                continue;
            }
            if tx.send(parsed).is_err() {
                break;
            }
        }
    });
    let cx = Context {
        out: out.clone(),
        cancelled,
    };
    for message in rx {
        let message = match message {
            Ok(m) => m,
            Err(e) => {
                write(
                    &out,
                    &Message::response(Value::Null, Err(ErrorObject::new(code::PARSE_ERROR, e))),
                );
                continue;
            }
        };
        let Ok(Kind::Request { id, method, params }) = message.kind() else {
            continue; // notifications and responses need no answer
        };
        let params = params.cloned().unwrap_or(Value::Null);
        let outcome = match method {
            method::INITIALIZE => match serde_json::from_value::<InitializeParams>(params) {
                Ok(p) => match negotiate(&p.offered(), PROTOCOL_VERSIONS) {
                    Some(version) => Ok(serde_json::to_value(InitializeResult {
                        name: plugin.name().to_owned(),
                        version: plugin.version().to_owned(),
                        protocol_version: version,
                        protocols: vec![PACKAGE_PUSH_HANDLER.to_owned()],
                    })
                    .expect("serializes")),
                    None => Err(ErrorObject::new(
                        code::INVALID_PARAMS,
                        format!(
                            "the host offers protocol versions {:?}; this plugin speaks {PROTOCOL_VERSIONS:?}",
                            p.offered()
                        ),
                    )),
                },
                Err(e) => Err(ErrorObject::new(code::INVALID_PARAMS, e.to_string())),
            },
            method::CAN_HANDLE => match serde_json::from_value::<CanHandleParams>(params) {
                Ok(p) => Ok(Value::Bool(plugin.can_handle(&p.destination))),
                Err(e) => Err(ErrorObject::new(code::INVALID_PARAMS, e.to_string())),
            },
            method::PUSH => match serde_json::from_value::<PushParams>(params) {
                Ok(PushParams { package, options }) => {
                    cx.cancelled.store(false, Ordering::SeqCst);
                    let result = plugin.push(package, options, &cx);
                    match result {
                        Ok(r) => Ok(serde_json::to_value(r).expect("serializes")),
                        Err(e) if cx.is_cancelled() => Err(e.into_object(code::CANCELLED)),
                        Err(e) => Err(e.into_object(code::PUSH_FAILED)),
                    }
                }
                Err(e) => Err(ErrorObject::new(code::INVALID_PARAMS, e.to_string())),
            },
            method::SHUTDOWN => {
                write(&out, &Message::response(id.clone(), Ok(Value::Null)));
                return;
            }
            other => Err(ErrorObject::new(
                code::METHOD_NOT_FOUND,
                format!("unknown method `{other}`"),
            )),
        };
        write(&out, &Message::response(id.clone(), outcome));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;

    impl Plugin for Echo {
        fn name(&self) -> &str {
            "echo"
        }
        fn version(&self) -> &str {
            "0.0.1"
        }
        fn can_handle(&self, destination: &str) -> bool {
            destination.starts_with("echo://")
        }
        fn push(
            &self,
            package: PushPackage,
            options: PushOptions,
            cx: &Context,
        ) -> Result<PushResult, PluginError> {
            cx.uploaded(3);
            Err(PluginError::new("echo.nope", "no")
                .caused_by(format!("{} to {}", package.namespace, options.branch)))
        }
    }

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_plugin_answers_the_newest_version_offered_or_refuses() {
        let input = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":9,"protocol_versions":[1,9],"host":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocol_version":9,"host":{"name":"t","version":"1"}}}"#,
        ]
        .join("\n");
        let out = Shared::default();
        serve_io(Echo, std::io::Cursor::new(input.into_bytes()), out.clone());
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<Message> = text.lines().map(|l| Message::parse(l).unwrap()).collect();
        assert_eq!(lines[0].result.as_ref().unwrap()["protocol_version"], 1);
        let refused = lines[1].error.as_ref().expect("no version in common");
        assert!(refused.message.contains("[9]"), "{}", refused.message);
    }

    #[test]
    fn a_session() {
        let input = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":1,"host":{"name":"t","version":"1"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"can_handle","params":{"destination":"echo://x"}}"#,
            "garbage",
            r#"{"jsonrpc":"2.0","id":3,"method":"push","params":{"package":{"root":"/p","destination":"echo://x","namespace":"n","metadata":{"public":false},"resources":[]},"options":{"env":"e","branch":"b","yes":false,"force":false,"replace":false,"manual":true,"jobs":1}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"can_handle","params":{"destination":"echo://x"}}"#,
        ]
        .join("\n");
        let out = Shared::default();
        serve_io(Echo, std::io::Cursor::new(input.into_bytes()), out.clone());
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<Message> = text.lines().map(|l| Message::parse(l).unwrap()).collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert_eq!(
            lines[0].result.as_ref().unwrap()["protocols"][0],
            PACKAGE_PUSH_HANDLER
        );
        assert_eq!(lines[1].result, Some(Value::Bool(true)));
        assert_eq!(lines[2].error.as_ref().unwrap().code, code::PARSE_ERROR);
        assert_eq!(lines[3].method.as_deref(), Some(method::PROGRESS));
        let error = lines[4].error.as_ref().unwrap();
        assert_eq!(
            error.data.as_ref().unwrap().code.as_deref(),
            Some("echo.nope")
        );
        assert_eq!(error.data.as_ref().unwrap().causes, ["n to b"]);
        assert_eq!(lines[5].id, Some(4.into()));
    }
}
