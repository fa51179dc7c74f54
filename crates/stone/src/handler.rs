//! The handler registry of the CLI: plugins first (none yet), then the bundled service
//! handler, which claims `stone:` destinations and https URLs on a configured
//! environment's host.

use serde::Serialize;
use std::sync::Arc;

use stone_push::{Registry, ServiceHandler, ServiceTarget, TokenSource};

use crate::config::Config;

/// The handler chosen for a destination, and why.
#[derive(Debug, Clone, Serialize)]
pub struct HandlerChoice {
    pub name: String,
    pub reason: String,
}

/// Every handler, in priority order. `tokens`: the bearer tokens of the service handler
/// (a server in `oidc` mode).
pub fn registry(config: &Config, tokens: Option<Arc<dyn TokenSource>>) -> anyhow::Result<Registry> {
    let targets = config
        .environments()
        .iter()
        .map(|(name, env)| ServiceTarget {
            env: name.clone(),
            host: env.host.clone(),
            api: env.api.clone(),
        })
        .collect();
    let mut registry = Registry::new();
    let mut service = ServiceHandler::new(targets)?;
    if let Some(tokens) = tokens {
        service = service.with_tokens(tokens);
    }
    registry.register(Box::new(service));
    Ok(registry)
}

/// Which handler takes `destination`, and why.
pub fn choose(registry: &Registry, destination: &str) -> Option<HandlerChoice> {
    let handler = registry.select(destination)?;
    let reason = match handler.name() {
        "service" if destination.starts_with(stone_package::name::SCHEME) => {
            "the bundled service handler claims `stone:` destinations".to_owned()
        }
        "service" => {
            "the bundled service handler claims https URLs of configured environment hosts"
                .to_owned()
        }
        other => format!("the handler `{other}` claims {destination}"),
    };
    Some(HandlerChoice {
        name: handler.name().to_owned(),
        reason,
    })
}
