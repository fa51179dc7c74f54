//! The handler registry of the CLI, in priority order: external plugins (`stone-plugin-<name>`
//! on `PATH` and `[plugins.<name>]` in the config), the bundled service handler (`stone:`
//! and https URLs of configured environment hosts), then the built-ins: the generic HTTP
//! handler (other https URLs) and, last, the blob-store push.

use std::sync::Arc;
use std::time::Duration;

use stone_push::external::{
    self, ExternalHandler, ExternalPlugin, PluginError, PluginSpec, entry_points,
};
use stone_push::plan::HandlerChoice;
use stone_push::{BlobStoreHandler, HttpHandler, Registry, ServiceHandler, ServiceTarget};

use crate::config::Config;
use crate::printer::Printer;
use crate::settings;

/// Handler names of the built-ins that push outside the platform.
pub const BLOB_STORE: &str = "blob-store";
pub const HTTP: &str = "http";
pub const SERVICE: &str = "service";

/// The registry for one destination, and the plugins started to build it (shut them down
/// with [`Handlers::shutdown`]).
pub struct Handlers {
    pub registry: Registry,
    pub plugins: Vec<Arc<ExternalPlugin>>,
    /// Plugins that could not be asked, each with why (shown as warnings).
    pub skipped: Vec<(PluginSpec, PluginError)>,
    /// What each started plugin answered about the destination (by name).
    pub claims: std::collections::BTreeMap<String, bool>,
}

impl Handlers {
    pub async fn shutdown(&self) {
        futures::future::join_all(self.plugins.iter().map(|p| p.shutdown())).await;
    }

    /// The plugin behind a handler name, if it is one.
    pub fn plugin(&self, name: &str) -> Option<&ExternalPlugin> {
        self.plugins
            .iter()
            .map(|p| p.as_ref())
            .find(|p| p.spec.name == name)
    }
}

/// Every plugin: the `stone.plugins` entry points of the configured Python, then those on
/// `PATH` and in the config (which replace an entry point of the same name). An explicitly
/// configured Python (`STONE_PLUGIN_PYTHON`) that cannot list its entry points is a
/// warning; the `python3` merely found on `PATH` without the SDK is nobody's plugin.
pub fn plugin_specs(config: &Config, timeout: Duration) -> Vec<PluginSpec> {
    let path = std::env::var_os("PATH");
    let explicit = crate::settings::plugin_python();
    let configured = explicit.is_some();
    let mut specs: std::collections::BTreeMap<String, PluginSpec> = Default::default();
    if let Some(python) = entry_points::python(explicit, path.as_ref()) {
        match entry_points::discover(&python, timeout) {
            Ok(found) => specs.extend(found.into_iter().map(|s| (s.name.clone(), s))),
            Err(e) if configured => eprintln!("warning: {e}; no Python plugins"),
            Err(e) => tracing::debug!("no Python entry-point plugins: {e}"),
        }
    }
    specs.extend(
        external::discover(path.as_ref(), &config.plugins())
            .into_iter()
            .map(|s| (s.name.clone(), s)),
    );
    specs.into_values().collect()
}

/// Starts one plugin and, given a destination, asks it whether it claims it.
pub async fn probe(
    spec: PluginSpec,
    timeout: Duration,
    destination: Option<&str>,
) -> Result<(Arc<ExternalPlugin>, Option<bool>), PluginError> {
    let plugin = Arc::new(ExternalPlugin::start(spec, timeout).await?);
    let claims = match destination {
        Some(d) => Some(plugin.can_handle(d).await?),
        None => None,
    };
    Ok((plugin, claims))
}

/// Every handler, in priority order, with the plugins asked about `destination` up front.
/// A plugin that fails to start or answer is skipped (see [`Handlers::skipped`]).
pub async fn registry(config: &Config, destination: Option<&str>) -> anyhow::Result<Handlers> {
    let timeout = settings::plugin_timeout()?;
    let specs = tokio::task::block_in_place(|| plugin_specs(config, timeout));
    let probes = futures::future::join_all(
        specs
            .iter()
            .cloned()
            .map(|s| probe(s, timeout, destination)),
    )
    .await;
    let mut registry = Registry::new();
    let mut plugins = Vec::new();
    let mut skipped = Vec::new();
    let mut answers = std::collections::BTreeMap::new();
    for (spec, probe) in specs.into_iter().zip(probes) {
        match probe {
            Ok((plugin, claims)) => {
                let claims = claims.unwrap_or(false);
                answers.insert(spec.name.clone(), claims);
                registry.register(Box::new(ExternalHandler::new(
                    plugin.clone(),
                    destination.unwrap_or_default(),
                    claims,
                )));
                plugins.push(plugin);
            }
            Err(e) => skipped.push((spec, e)),
        }
    }
    registry.register(Box::new(service_handler(config)?));
    registry.register(Box::new(HttpHandler));
    registry.register(Box::new(BlobStoreHandler));
    Ok(Handlers {
        registry,
        plugins,
        skipped,
        claims: answers,
    })
}

/// The bundled service handler for every configured environment (without tokens: the push
/// adds them once it knows the server wants them).
pub fn service_handler(config: &Config) -> anyhow::Result<ServiceHandler> {
    Ok(ServiceHandler::new(service_targets(config))?)
}

fn service_targets(config: &Config) -> Vec<ServiceTarget> {
    config
        .environments()
        .iter()
        .map(|(name, env)| ServiceTarget {
            env: name.clone(),
            host: env.host.clone(),
            api: env.api.clone(),
        })
        .collect()
}

/// Which handler takes `destination`, and why.
pub fn choose(handlers: &Handlers, destination: &str) -> Option<HandlerChoice> {
    let handler = handlers.registry.select(destination)?;
    let name = handler.name();
    let scheme = destination.split(':').next().unwrap_or_default();
    let reason = match name {
        SERVICE if destination.starts_with(stone_package::name::SCHEME) => {
            "the bundled service handler claims `stone:` destinations".to_owned()
        }
        SERVICE => "the bundled service handler claims https URLs of configured environment hosts"
            .to_owned(),
        HTTP => format!(
            "no plugin claims it and its host is no configured environment's: the built-in HTTP handler pushes to {scheme} URLs by PUT"
        ),
        BLOB_STORE => format!(
            "no plugin claims it: `{scheme}://` is a blob store, pushed to by the built-in blob-store push"
        ),
        other => match handlers.plugin(other) {
            Some(p) => format!(
                "the plugin `{other}` {} ({}) claims it; plugins come before the bundled handlers",
                p.info.version,
                p.spec
                    .command
                    .first()
                    .map(String::as_str)
                    .unwrap_or_default()
            ),
            None => format!("the handler `{other}` claims it"),
        },
    };
    Some(HandlerChoice {
        name: name.to_owned(),
        reason,
    })
}

/// Whether a handler pushes outside the platform (a blob store or an HTTP server): stone
/// itself then guards prod, as no server does.
pub fn pushes_outside_platform(name: &str) -> bool {
    matches!(name, BLOB_STORE | HTTP)
}

/// Tells the user about every plugin that was skipped.
pub fn warn_skipped(handlers: &Handlers, printer: Printer) {
    for (_, e) in &handlers.skipped {
        printer.relay(&format!("warning: {e}; skipping it"));
    }
}
