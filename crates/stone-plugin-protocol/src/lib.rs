//! # The stone plugin protocol (version 1)
//!
//! A plugin adds a way to push data packages to `stone` without rebuilding it. It is any
//! executable, in any language, that speaks this protocol on its standard input and output.
//!
//! ## Finding plugins
//! `stone` finds plugins at run time:
//! - every executable named `stone-plugin-<name>` on `PATH` (first one wins per name);
//! - every entry of the config file (`stone env` edits the same file):
//!   ```toml
//!   [plugins.mirror]
//!   command = ["python3", "/opt/mirror/plugin.py", "--verbose"]
//!   ```
//!   A configured plugin with the same name as one on `PATH` replaces it.
//!
//! Plugins come first when a destination is chosen: external plugins (in name order), then
//! the bundled service handler (`stone:` and configured platform hosts), then the built-ins
//! (the generic HTTP handler, and the blob-store push last).
//!
//! ## Transport
//! JSON-RPC 2.0, one JSON message per line (UTF-8, `\n`-terminated, no embedded newlines)
//! on stdin (host → plugin) and stdout (plugin → host). stderr is free for the plugin's own
//! diagnostics: the host keeps its last lines and shows them when the plugin fails. Fields
//! neither side knows are ignored, so later minor additions do not break older peers.
//!
//! The plugin runs in its own process group, with a scrubbed environment: no `STONE_*`
//! variable reaches it (so no `STONE_TOKEN`, no token store location). A plugin gets its
//! own credentials from its own config or the environment of its cloud. The working
//! directory is the user's.
//!
//! ## Messages
//! | direction | method | params | result |
//! |---|---|---|---|
//! | host → plugin | `initialize` | [`InitializeParams`] | [`InitializeResult`] |
//! | host → plugin | `can_handle` | [`CanHandleParams`] | `true` / `false` |
//! | host → plugin | `push` | [`PushParams`] (`package`, `options`) | a `PushResult` (see below) |
//! | host → plugin | `shutdown` | none | `null`; the plugin then exits |
//! | host → plugin | `$/cancel` (notification) | [`CancelParams`] | — |
//! | plugin → host | `progress` (notification) | [`ProgressParams`] | — |
//! | plugin → host | `log` (notification) | [`LogParams`] | — |
//!
//! 1. The host starts the plugin and sends `initialize` with the protocol versions it speaks
//!    (`protocol_versions`, [`PROTOCOL_VERSIONS`]; `protocol_version` is the newest, what
//!    hosts of before sent alone). The plugin answers its name, version, the newest protocol
//!    version both speak ([`negotiate`]; an error if none) and the protocols it implements.
//!    The host checks it offered that version and that
//!    [`PACKAGE_PUSH_HANDLER`] (`"PackagePushHandler/1"`) is listed before anything else
//!    (the runtime check); otherwise it stops the plugin and says why.
//! 2. `can_handle {destination}`: `true` if the plugin takes the destination URL (as written
//!    in `publish.to` or `--to`). Must be quick and free of side effects.
//! 3. `push {package, options}`: the plugin pushes and answers a `PushResult`. While it
//!    works it may send `progress` (bytes uploaded since the last one, and/or a message)
//!    and `log` notifications; each one also tells the host the plugin is alive.
//! 4. `shutdown`, then the host closes stdin. A plugin must also exit when stdin closes.
//!
//! On Ctrl-C the host sends `$/cancel {id}` for the running call, waits a moment, then
//! kills the plugin's process group.
//!
//! ### Deadlines
//! Every call has a deadline (`STONE_PLUGIN_TIMEOUT` seconds, default 10): `initialize`,
//! `can_handle` and `shutdown` must be answered within it; during `push` the plugin must
//! send something (a `progress` or `log` notification, or the result) at least that often.
//! A plugin that exits before answering `initialize`, speaks another version, stalls,
//! writes something that is not a JSON-RPC message, or crashes is reported by name: while
//! choosing a handler it is skipped with a warning and the next handler is asked; during a
//! push the push fails with exit code 6.
//!
//! ### Records
//! `package` is a [`PushPackage`], `options` a [`PushOptions`] and the result a
//! [`PushResult`], as defined (and serialized with serde) in this crate ([`record`]).
//! In short:
//! - `package`: `root` (the package directory), `destination`, `namespace`, `metadata`
//!   (`name`, `title`, `version`, `license`, `public`, …), `resources`: each with `name`,
//!   `path`, `kind` (`TABULAR`, `GRAPH`, `RASTER`, `BLOB`, …), `sha256`, `size`, `metadata`,
//!   `schema` and `files`: `{path, local, sha256, size}` (`local` is where the bytes are on
//!   this machine; TABULAR files are Parquet, already converted).
//! - `options`: `env`, `branch`, `yes`, `force`, `replace`, `manual`, `jobs`, `retries`.
//! - result: `push_id`, `handler`, `datasets` (`url`, `iri`, `kind`, `engine`, `status`,
//!   `detail`), `package_node`, `uploaded_bytes`, `already_staged`.
//!
//! ### Errors
//! A failed call answers a JSON-RPC error: `code` (JSON-RPC integer), `message`, and
//! `data: {"code": "<dotted.code>", "causes": ["…", …]}`: the host shows the message, the
//! causes as `Caused by:` lines, and the dotted code under `--json`.
//!
//! ## Example session
//! ```text
//! → {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":1,"protocol_versions":[1],"host":{"name":"stone","version":"0.1.0"}}}
//! ← {"jsonrpc":"2.0","id":1,"result":{"name":"mirror","version":"1.2.0","protocol_version":1,"protocols":["PackagePushHandler/1"]}}
//! → {"jsonrpc":"2.0","id":2,"method":"can_handle","params":{"destination":"mirror://team/a"}}
//! ← {"jsonrpc":"2.0","id":2,"result":true}
//! → {"jsonrpc":"2.0","id":3,"method":"push","params":{"package":{…},"options":{…}}}
//! ← {"jsonrpc":"2.0","method":"progress","params":{"bytes":1048576}}
//! ← {"jsonrpc":"2.0","id":3,"result":{"push_id":"m-1","handler":"mirror","datasets":[],"package_node":null,"uploaded_bytes":1048576,"already_staged":0}}
//! → {"jsonrpc":"2.0","id":4,"method":"shutdown"}
//! ← {"jsonrpc":"2.0","id":4,"result":null}
//! ```
//!
//! ## Writing a plugin in Rust
//! Implement [`Plugin`] and call [`serve`] from `main` (see `examples/stone-plugin-copy.rs`).

pub mod message;
pub mod record;
pub mod serve;

pub use message::*;
pub use record::*;
pub use serve::{Context, Plugin, PluginError, serve, serve_io};
