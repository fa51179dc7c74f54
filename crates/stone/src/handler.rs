//! Which handler takes a destination. Until the plugin registry exists, the bundled service
//! handler is the only one, and it claims `stone:` destinations.

use serde::Serialize;
use stone_package::StoneUrl;

/// The handler chosen for a destination, and why.
#[derive(Debug, Clone, Serialize)]
pub struct HandlerChoice {
    pub name: &'static str,
    pub reason: String,
}

pub fn select(destination: &StoneUrl) -> HandlerChoice {
    HandlerChoice {
        name: "service",
        reason: format!("the bundled service handler claims `stone:` destinations like `{destination}`"),
    }
}
