//! `stone plugin list`: the plugins found, what they are, and what they would claim.

use std::fmt::Write as _;

use anyhow::Context as _;
use serde::Serialize;
use stone_package::Destination;
use stone_push::plan::HandlerChoice;

use crate::cli::{GlobalArgs, PluginCommand};
use crate::codes;
use crate::config::{Config, config_path};
use crate::diagnostics::CliError;
use crate::handler;
use crate::printer::Printer;

/// One plugin, as listed.
#[derive(Debug, Serialize)]
struct Listed {
    name: String,
    /// `path` (found on PATH), `config`, or `entry_point` (Python, group `stone.plugins`).
    source: stone_push::external::PluginSource,
    command: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    protocols: Vec<String>,
    /// Whether it claims `--destination` (absent without it, or when it failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    claims: Option<bool>,
    /// Why it cannot be used.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Debug, Serialize)]
struct Listing {
    plugins: Vec<Listed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    destination: Option<String>,
    /// The handler that would push to `destination`.
    #[serde(skip_serializing_if = "Option::is_none")]
    handler: Option<HandlerChoice>,
}

pub fn run(command: &PluginCommand, global: &GlobalArgs) -> anyhow::Result<()> {
    let PluginCommand::List(args) = command;
    let config = Config::load(config_path(global.config.as_deref())?)?;
    let destination = args
        .destination
        .as_deref()
        .map(|d| {
            d.parse::<Destination>().map_err(|e| {
                CliError::new(
                    codes::USAGE_INVALID_DESTINATION,
                    format!("--destination: {e}"),
                )
            })
        })
        .transpose()?
        .map(|d| d.to_string());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let handlers = runtime.block_on(handler::registry(&config, destination.as_deref()))?;
    let mut plugins: Vec<Listed> = handlers
        .plugins
        .iter()
        .map(|p| Listed {
            name: p.spec.name.clone(),
            source: p.spec.source.clone(),
            command: p.spec.command.clone(),
            version: Some(p.info.version.clone()),
            protocols: p.info.protocols.clone(),
            claims: destination
                .as_ref()
                .and_then(|_| handlers.claims.get(&p.spec.name).copied()),
            error: None,
        })
        .chain(handlers.skipped.iter().map(|(spec, e)| Listed {
            name: spec.name.clone(),
            source: spec.source.clone(),
            command: spec.command.clone(),
            version: None,
            protocols: Vec::new(),
            claims: None,
            error: Some(e.to_string()),
        }))
        .collect();
    plugins.sort_by(|a, b| a.name.cmp(&b.name));
    let listing = Listing {
        handler: destination
            .as_deref()
            .and_then(|d| handler::choose(&handlers, d)),
        destination,
        plugins,
    };
    runtime.block_on(handlers.shutdown());
    Printer::new(global, args.json.json).result(&listing, || render(&listing))
}

fn render(listing: &Listing) -> String {
    let mut out = String::new();
    if listing.plugins.is_empty() {
        let _ = writeln!(
            out,
            "No plugins found (executables named stone-plugin-<name> on PATH, [plugins.<name>] command = [...] in the config, or Python packages with a `stone.plugins` entry point)."
        );
    }
    for p in &listing.plugins {
        let source = match p.source {
            stone_push::external::PluginSource::Path => "PATH",
            stone_push::external::PluginSource::Config => "config",
            stone_push::external::PluginSource::EntryPoint => "entry point stone.plugins",
        };
        let _ = writeln!(
            out,
            "{} {} ({source}: {})",
            p.name,
            p.version.as_deref().unwrap_or("?"),
            p.command.join(" ")
        );
        if let Some(error) = &p.error {
            let _ = writeln!(out, "  unusable: {error}");
            continue;
        }
        let _ = writeln!(out, "  protocols: {}", p.protocols.join(", "));
        if let (Some(claims), Some(d)) = (p.claims, &listing.destination) {
            let verb = if claims { "claims" } else { "does not claim" };
            let _ = writeln!(out, "  {verb} {d}");
        }
    }
    if let (Some(d), Some(h)) = (&listing.destination, &listing.handler) {
        let _ = writeln!(out, "\n{d} would be pushed by `{}`: {}", h.name, h.reason);
    }
    out
}
